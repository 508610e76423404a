"""`tensorflow.python.distribute.reduce_util`."""

# ruff: noqa: F401
from tf1compat.training.strategies.values import ReduceOp
