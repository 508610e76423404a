"""`tf.contrib.compiler` (TF 1.15): `jit.experimental_jit_scope` and `xla.compile`, the
forms later moved to `tf.xla.experimental` (tf1compat/ops/xla_scopes.py)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.compiler import jit, xla

__getattr__ = _missing("tf.contrib.compiler")
