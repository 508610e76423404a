"""`tf.contrib.predictor` (TF 1.15): from_saved_model, from_estimator,
from_contrib_estimator (predictors.py)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.predictor.predictors import (from_contrib_estimator, from_estimator,
                                                    from_saved_model)

__getattr__ = _missing("tf.contrib.predictor")
