"""`tf.xla.experimental`: jit_scope and compile (tf1compat/ops/xla_scopes.py)."""

# ruff: noqa: F401
from tf1compat.ops.xla_scopes import compile, jit_scope


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('xla.experimental', globals())
