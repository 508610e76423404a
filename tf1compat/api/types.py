"""`tf.types`: type annotations (`tf.types.experimental.TensorLike`)."""

# ruff: noqa: F401
from tf1compat.api import types_experimental as experimental


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('types', globals())
