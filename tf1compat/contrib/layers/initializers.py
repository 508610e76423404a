"""`tf.contrib.layers.initializers` (= `slim.initializers`, TF 1.15): the Glorot
initializers and contrib's variance-scaling initializer (defined in variables/init_ops.py)."""

# ruff: noqa: F401
from tf1compat.variables.init_ops import contrib_variance_scaling_initializer as \
    variance_scaling_initializer
from tf1compat.variables.init_ops import xavier_initializer, xavier_initializer_conv2d

__all__ = ["xavier_initializer", "xavier_initializer_conv2d", "variance_scaling_initializer"]
