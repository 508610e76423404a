"""`tf.contrib.learn.utils` (TF 1.15): the serving input_fn builders, `InputFnOps`,
`make_export_strategy` and the `saved_model_export_utils` module."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.learn import saved_model_export_utils
from tf1compat.contrib.learn.export_strategy import make_export_strategy
from tf1compat.contrib.learn.saved_model_export_utils import (InputFnOps,
                                                              build_default_serving_input_fn,
                                                              build_parsing_serving_input_fn)

__getattr__ = _missing("tf.contrib.learn.utils")
