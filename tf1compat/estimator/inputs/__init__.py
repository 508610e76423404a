"""`tf.estimator.inputs`: input_fns over in-memory data."""

# ruff: noqa: F401
from tf1compat.estimator.inputs.numpy_io import numpy_input_fn
from tf1compat.estimator.inputs.pandas_io import pandas_input_fn
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("estimator.inputs", globals())
