"""`tf.linalg.experimental`."""

# ruff: noqa: F401
from tf1compat.linalg.conjugate_gradient import conjugate_gradient


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('linalg.experimental', globals())
