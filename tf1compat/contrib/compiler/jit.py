"""`tf.contrib.compiler.jit`: `experimental_jit_scope` (tf.xla.experimental.jit_scope)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.ops.xla_scopes import jit_scope as experimental_jit_scope

__getattr__ = _missing("tf.contrib.compiler.jit")
