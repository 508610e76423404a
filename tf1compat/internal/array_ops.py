"""`tensorflow.python.ops.array_ops`."""

# ruff: noqa: F401
from tf1compat.ops.array_ops import (concat, expand_dims, identity, placeholder,
                                     placeholder_with_default, rank, reshape, shape, shape_internal,
                                     shape_n, size, split, squeeze, stack, stop_gradient, unstack)
from tf1compat.ops.creation_ops import fill, one_hot, ones, ones_like, zeros, zeros_like
from tf1compat.ops.indexing_ops import (boolean_mask, gather, gather_nd, scatter_nd,
                                        sequence_mask, where, where_v2)
from tf1compat.ops.strided_slice import slice, strided_slice
from tf1compat.ops.transform_ops import broadcast_to, pad, reverse, tile, transpose
from tf1compat.framework.constant_op import constant
