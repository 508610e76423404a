"""`tf.keras.estimator`: `model_to_estimator` (estimator/keras_lib.py). The estimator
layer sits above Keras, so this namespace is attached to `tf.keras` by
tf1compat/__init__.py rather than imported by the keras package."""

# ruff: noqa: F401
from tf1compat.estimator.keras_lib import model_to_estimator

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('keras.estimator', globals())
