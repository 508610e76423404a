"""`tf.contrib.compiler.xla`: `compile` (tf.xla.experimental.compile)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.ops.xla_scopes import compile

__getattr__ = _missing("tf.contrib.compiler.xla")
