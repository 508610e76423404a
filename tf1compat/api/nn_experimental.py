"""`tf.nn.experimental` (tf1compat/ops/nn_misc_tail.py)."""

# ruff: noqa: F401
from tf1compat.ops.nn_misc_tail import general_dropout, stateless_dropout


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('nn.experimental', globals())
