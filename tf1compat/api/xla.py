"""`tf.xla`: only `tf.xla.experimental` (jit_scope, compile)."""

# ruff: noqa: F401
from tf1compat.api import xla_experimental as experimental


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('xla', globals())
