"""`tf.contrib.learn.io`: TF 1.15's contrib input functions were the core ones re-exported
(`numpy_input_fn`, `pandas_input_fn`)."""

# ruff: noqa: F401
from tf1compat.estimator.inputs.numpy_io import numpy_input_fn
from tf1compat.estimator.inputs.pandas_io import pandas_input_fn

__all__ = ["numpy_input_fn", "pandas_input_fn"]
