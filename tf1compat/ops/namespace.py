"""The tf.* functions the RNN code builds graphs with, gathered in one namespace so the
cells read like the TF1 code they mirror (`ops.matmul`, `ops.sigmoid`, ...)."""

# ruff: noqa: F401
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import colocate_with, control_dependencies, device, name_scope
from tf1compat.framework.misc import get_static_value
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.array_ops import (concat, expand_dims, identity, rank, reshape, shape,
                                     split, squeeze, stack, unstack)
from tf1compat.ops.creation_ops import fill, ones, ones_like, range, zeros, zeros_like
from tf1compat.ops.indexing_ops import where, where_v2
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.math_ops import (add, cast, divide, equal, floor, greater, greater_equal,
                                    less, logical_and, logical_not, logical_or, maximum,
                                    minimum, multiply, rsqrt, sigmoid, sqrt, square, subtract,
                                    tanh)
from tf1compat.ops.nn_ops import bias_add, dropout
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import (clip_by_value, reduce_all, reduce_max, reduce_mean,
                                         reduce_min, reduce_sum)
from tf1compat.ops.strided_slice import slice
from tf1compat.ops.transform_ops import reverse, transpose, tile
