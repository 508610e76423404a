"""`tf.layers.experimental`."""

# ruff: noqa: F401
from tf1compat.layers.keras_style import keras_style_scope, set_keras_style
