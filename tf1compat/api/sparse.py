"""`tf.sparse`."""

# ruff: noqa: F401
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.ops.accumulator_ops import SparseConditionalAccumulator
from tf1compat.ops.array_ops import sparse_placeholder as placeholder
from tf1compat.ops.nn_embedding import (sparse_segment_mean as segment_mean,
                                        sparse_segment_sqrt_n as segment_sqrt_n,
                                        sparse_segment_sum as segment_sum)
from tf1compat.ops.sparse_extra import (from_dense, sparse_eye as eye,
                                        sparse_expand_dims as expand_dims,
                                        sparse_fill_empty_rows as fill_empty_rows,
                                        sparse_maximum as maximum, sparse_minimum as minimum,
                                        sparse_slice as slice, sparse_softmax as softmax,
                                        sparse_split as split)
from tf1compat.ops.sparse_math import (sparse_add as add, sparse_concat as concat,
                                       sparse_reduce_max as reduce_max,
                                       sparse_reduce_max_sparse as reduce_max_sparse,
                                       sparse_reduce_sum as reduce_sum,
                                       sparse_reduce_sum_sparse as reduce_sum_sparse,
                                       sparse_reorder as reorder, sparse_reshape as reshape,
                                       sparse_retain as retain,
                                       sparse_tensor_dense_matmul as matmul,
                                       sparse_tensor_dense_matmul as sparse_dense_matmul,
                                       sparse_transpose as transpose)
from tf1compat.ops.sparse_ops import sparse_tensor_to_dense as to_dense

# (section: api-math)
from tf1compat.ops.sparse_tail import (sparse_bincount as bincount, sparse_cross as cross,
                                       sparse_cross_hashed as cross_hashed, sparse_mask as mask,
                                       sparse_merge as merge, sparse_reset_shape as reset_shape,
                                       sparse_to_indicator as to_indicator)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('sparse', globals())
