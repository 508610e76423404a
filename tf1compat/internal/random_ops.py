"""`tensorflow.python.ops.random_ops`: TF's internal names of the random ops
(`random_uniform`, `random_normal`, ...) besides tf.random's."""

# ruff: noqa: F401, F403
from tf1compat.api.random import *
from tf1compat.ops.image_ops import random_crop
from tf1compat.ops.random_extra_ops import random_gamma, random_poisson
from tf1compat.ops.random_ops import (multinomial, random_normal, random_shuffle,
                                      random_uniform, truncated_normal)
