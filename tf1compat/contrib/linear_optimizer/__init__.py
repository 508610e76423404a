"""`tf.contrib.linear_optimizer` (TF 1.15): `SDCAOptimizer` (the contrib.learn linear
estimators' SDCA solver), `SdcaModel` and `SparseFeatureColumn`."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.linear_optimizer.sdca_model import SdcaModel, SparseFeatureColumn
from tf1compat.contrib.linear_optimizer.sdca_optimizer import SDCAOptimizer

__getattr__ = _missing("tf.contrib.linear_optimizer")
