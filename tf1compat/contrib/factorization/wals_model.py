"""`tf.contrib.factorization.WALSModel` (TF 1.15): weighted alternating least squares.

The model factors a sparse matrix A [input_rows, input_cols] as U V^T, minimizing

    || sqrt(W) * (A - U V^T) ||_F^2 + lambda (||U||_F^2 + ||V||_F^2)

with W_ij = w0 + R_i C_j where A_ij is observed and w0 elsewhere (w0 the unobserved
weight, R / C the row and column weights; without weights W = w0 everywhere, plain ALS).
Holding V fixed, each row u_i solves the k x k normal equations

    (w0 V^T V + lambda I + sum_{j observed} R_i C_j v_j v_j^T) u_i
        = sum_{j observed} (w0 + R_i C_j) A_ij v_j

whose observed parts come from WALSComputePartialLhsAndRhs (ops/factorization_ops.py);
columns are updated the same way with U fixed. Factors and weights are lists of shard
variables ("div" sharding: the first `n % shards` shards hold one row more); the worker
caches (local variables reset to 1.0 between sweeps) and the Gramians follow TF's
protocol: initialize_op, worker_init, then per sweep the prep-Gramian op, the
initialize-update op and the update ops.

The losses an update returns are normalized to the whole matrix: for a batch I of the
n rows, (||sqrt(W_I) * (A_I - U_I V^T)||^2) n / |I| (its unobserved part from the
Gramians), the regularization lambda (||U_I||^2 n / |I| + ||V||^2) and the summed
weights sum(W_I) n / |I|.
"""

from __future__ import annotations

import collections.abc
import numbers
from typing import Any, Callable, List, Optional, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import (GraphKeys, apply_op, colocate_with,
                                       control_dependencies, name_scope)
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.ops import factorization_ops  # noqa: F401 - declares the ops
from tf1compat.ops.array_ops import concat, expand_dims, shape, split, squeeze
from tf1compat.ops.check_ops import assert_less_equal
from tf1compat.ops.cond import cond
from tf1compat.ops.array_ops import rank
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.indexing_ops import unique, where_v2
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.math_ops import add_n, cast, equal, maximum, square
from tf1compat.ops.matrix_ops import eye, matrix_solve, trace
from tf1compat.ops.nn_embedding import dynamic_partition, embedding_lookup
from tf1compat.ops.random_ops import random_normal
from tf1compat.ops.sparse_math import (sparse_add, sparse_reduce_sum,
                                       sparse_tensor_dense_matmul, sparse_transpose)
from tf1compat.ops.state_ops import assign, scatter_update
from tf1compat.ops.transform_ops import transpose
from tf1compat.variables.collections import variables_initializer
from tf1compat.variables.variables import Variable

__all__ = ["WALSModel"]


def _shard_sizes(total: int, num_shards: int) -> List[int]:
    size, extra = divmod(total, num_shards)
    return [size + 1] * extra + [size] * (num_shards - extra)


def _shard_variables(name: str, sizes: List[int],
                     initial: Callable[[int, int], Any]) -> List[Variable]:
    """One float32 variable `<name>_shard_<i>` per shard, its initial value made when the
    variable is (inside its name scope, as TF's callable initial values)."""
    return [Variable(lambda i=i, size=size: initial(i, size), dtype=D.float32,
                     name=f"{name}_shard_{i}") for i, size in enumerate(sizes)]


def _sparse_square(sp: SparseTensor) -> SparseTensor:
    # TF's math_ops.square squares a SparseTensor's values (tf1compat's square is dense).
    return SparseTensor(sp.indices, square(sp.values), sp.dense_shape)


class WALSModel:
    """Weighted alternating least squares over sharded row and column factors (see the
    module docstring for the objective and the update protocol)."""

    def __init__(self, input_rows: int, input_cols: int, n_components: int,
                 unobserved_weight: float = 0.1, regularization: Optional[float] = None,
                 row_init: Any = "random", col_init: Any = "random", num_row_shards: int = 1,
                 num_col_shards: int = 1, row_weights: Any = 1, col_weights: Any = 1,
                 use_factors_weights_cache: bool = True, use_gramian_cache: bool = True,
                 use_scoped_vars: bool = False):
        self._input_rows, self._input_cols = input_rows, input_cols
        self._num_row_shards, self._num_col_shards = num_row_shards, num_col_shards
        self._n_components = n_components
        self._unobserved_weight = unobserved_weight
        self._regularization = regularization
        self._regularization_matrix = (regularization * eye(n_components)
                                       if regularization is not None else None)
        if (row_weights is None) != (col_weights is None):
            raise AssertionError("row_weights and col_weights must both be None or both set")
        self._use_factors_weights_cache = use_factors_weights_cache
        self._use_gramian_cache = use_gramian_cache

        def scoped(scope: str, make: Callable[[], Any]) -> Any:
            if not use_scoped_vars:
                return make()
            with name_scope(scope):
                return make()

        self._row_weights = scoped("row_weights", lambda: self._create_weights(
            row_weights, input_rows, num_row_shards, "row_weights"))
        self._col_weights = scoped("col_weights", lambda: self._create_weights(
            col_weights, input_cols, num_col_shards, "col_weights"))
        self._row_factors = scoped("row_factors", lambda: self._create_factors(
            input_rows, n_components, num_row_shards, row_init, "row_factors"))
        self._col_factors = scoped("col_factors", lambda: self._create_factors(
            input_cols, n_components, num_col_shards, col_init, "col_factors"))
        self._row_gramian = self._create_gramian(n_components, "row_gramian")
        self._col_gramian = self._create_gramian(n_components, "col_gramian")
        with name_scope("row_prepare_gramian"):
            self._row_update_prep_gramian = self._prepare_gramian(self._col_factors,
                                                                  self._col_gramian)
        with name_scope("col_prepare_gramian"):
            self._col_update_prep_gramian = self._prepare_gramian(self._row_factors,
                                                                  self._row_gramian)
        with name_scope("transient_vars"):
            self._create_transient_vars()

    # -- the variables ------------------------------------------------------------------------

    @property
    def row_factors(self) -> List[Variable]:
        """The row factor shards."""
        return self._row_factors

    @property
    def col_factors(self) -> List[Variable]:
        """The column factor shards."""
        return self._col_factors

    @property
    def row_weights(self) -> Optional[List[Variable]]:
        """The row weight shards (None without weights)."""
        return self._row_weights

    @property
    def col_weights(self) -> Optional[List[Variable]]:
        """The column weight shards (None without weights)."""
        return self._col_weights

    @property
    def initialize_op(self) -> Any:
        """Initializes the factors, Gramians and weights (run once, by the chief)."""
        model_vars = self._row_factors + self._col_factors
        model_vars += [self._row_gramian, self._col_gramian]
        if self._row_weights is not None:
            model_vars += self._row_weights + self._col_weights
        return variables_initializer(model_vars)

    @classmethod
    def _shard_sizes(cls, dims: int, num_shards: int) -> List[int]:
        return _shard_sizes(dims, num_shards)

    @classmethod
    def _create_factors(cls, rows: int, cols: int, num_shards: int, init: Any,
                        name: str) -> List[Variable]:
        if callable(init):
            init = init()
        random = isinstance(init, str) and init == "random"
        if isinstance(init, list):
            assert len(init) == num_shards
        elif not random and num_shards == 1:
            init = [init]
        return _shard_variables(
            name, _shard_sizes(rows, num_shards),
            lambda i, size: random_normal([size, cols]) if random else init[i])

    @classmethod
    def _create_weights(cls, wt_init: Any, num_wts: int, num_shards: int,
                        name: str) -> Optional[List[Variable]]:
        if wt_init is None:
            return None
        scalar = False
        if isinstance(wt_init, collections.abc.Iterable):
            if num_shards == 1 and len(wt_init) == num_wts:
                wt_init = [wt_init]
            assert len(wt_init) == num_shards
        elif isinstance(wt_init, numbers.Real) and wt_init >= 0:
            scalar = True
        else:
            raise ValueError("Invalid weight initialization argument. Must be one of these: "
                             "None, a real non-negative real number, or a list of lists of "
                             "non-negative real numbers (or equivalent iterables) "
                             "corresponding to sharded factors.")
        return _shard_variables(
            name, _shard_sizes(num_wts, num_shards),
            lambda i, size: wt_init * ones([size]) if scalar else wt_init[i])

    @staticmethod
    def _create_gramian(n_components: int, name: str) -> Variable:
        from tf1compat.ops.creation_ops import zeros
        return Variable(zeros([n_components, n_components]), dtype=D.float32, name=name)

    @staticmethod
    def _transient_var(name: str) -> Variable:
        # A worker-local cache: its shape is whatever it last copied (1.0 when reset).
        return Variable(1.0, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                        validate_shape=False, name=name)

    def _prepare_gramian(self, factors: List[Variable], gramian: Variable) -> Any:
        parts = []
        for f in factors:
            with colocate_with(f):
                parts.append(matmul(f, f, transpose_a=True))
        with colocate_with(gramian):
            return assign(gramian, add_n(parts)).op

    def _cached_copy(self, var: Any, name: str, pass_through: bool = False) -> Tuple:
        """(cache, op filling it, op resetting it) for a variable or list of shards; the
        shards are copied one after another, to hold one shard's extra memory at a time."""
        if var is None:
            return None, None, None
        if pass_through:
            return var, no_op(), no_op()
        if isinstance(var, Variable):
            cache = self._transient_var(name=name)
            with colocate_with(cache):
                return (cache, assign(cache, var, validate_shape=False),
                        assign(cache, 1.0, validate_shape=False))
        cache = [self._transient_var(name=f"{name}_shard_{i}") for i in range(len(var))]
        fill, resets = None, []
        for c, v in zip(cache, var):
            with colocate_with(c):
                with control_dependencies([fill] if fill is not None else None):
                    fill = assign(c, v, validate_shape=False)
                resets.append(assign(c, 1.0, validate_shape=False))
        return cache, fill, group(*resets)

    def _create_transient_vars(self) -> None:
        keep_factors = not self._use_factors_weights_cache
        keep_gramians = not self._use_gramian_cache
        self._row_factors_cache, row_factors_fill, row_factors_reset = self._cached_copy(
            self._row_factors, "row_factors_cache", pass_through=keep_factors)
        self._col_factors_cache, col_factors_fill, col_factors_reset = self._cached_copy(
            self._col_factors, "col_factors_cache", pass_through=keep_factors)
        self._row_wt_cache, row_wt_fill, _ = self._cached_copy(
            self._row_weights, "row_wt_cache", pass_through=keep_factors)
        self._col_wt_cache, col_wt_fill, _ = self._cached_copy(
            self._col_weights, "col_wt_cache", pass_through=keep_factors)
        self._row_gramian_cache, row_gramian_fill, row_gramian_reset = self._cached_copy(
            self._row_gramian, "row_gramian_cache", pass_through=keep_gramians)
        self._col_gramian_cache, col_gramian_fill, col_gramian_reset = self._cached_copy(
            self._col_gramian, "col_gramian_cache", pass_through=keep_gramians)
        self._row_updates_init = group(col_factors_fill, row_factors_reset,
                                       col_gramian_fill, row_gramian_reset)
        self._col_updates_init = group(row_factors_fill, col_factors_reset,
                                       row_gramian_fill, col_gramian_reset)
        if self._row_wt_cache is not None:
            self._worker_init = group(row_wt_fill, col_wt_fill, name="worker_init")
        else:
            self._worker_init = no_op(name="worker_init")

    @property
    def worker_init(self) -> Any:
        """Fills each worker's weight caches (run once per worker, after the weights are
        final)."""
        return self._worker_init

    @property
    def row_update_prep_gramian_op(self) -> Any:
        """Computes the column Gramian V^T V before a row sweep (run by one trainer)."""
        return self._row_update_prep_gramian

    @property
    def col_update_prep_gramian_op(self) -> Any:
        """Computes the row Gramian U^T U before a column sweep (run by one trainer)."""
        return self._col_update_prep_gramian

    @property
    def initialize_row_update_op(self) -> Any:
        """Fills a worker's caches for a row sweep (after row_update_prep_gramian_op)."""
        return self._row_updates_init

    @property
    def initialize_col_update_op(self) -> Any:
        """Fills a worker's caches for a column sweep (after col_update_prep_gramian_op)."""
        return self._col_updates_init

    # -- updates ------------------------------------------------------------------------------

    @staticmethod
    def _get_sharding_func(size: int, num_shards: int) -> Callable[[Any], Tuple[Any, Any]]:
        """ids -> (shard of each id, its index in the shard) under "div" sharding."""
        def shard_of(ids: Any) -> Tuple[Any, Any]:
            if num_shards == 1:
                return None, ids
            small, extras = divmod(size, num_shards)
            shard = maximum(ids // (small + 1), (ids - extras) // small)
            return shard, where_v2(shard < extras, ids % (small + 1), (ids - extras) % small)
        return shard_of

    @classmethod
    def scatter_update(cls, factor: List[Variable], indices: Any, values: Any,
                       sharding_func: Callable[[Any], Tuple[Any, Any]],
                       name: Optional[str] = None) -> Any:
        """Writes `values` into the rows `indices` of the sharded `factor`."""
        assert isinstance(factor, list)
        if len(factor) == 1:
            with colocate_with(factor[0]):
                return scatter_update(factor[0], indices, values, name=name).op
        shards, local_ids = sharding_func(indices)
        shards = cast(shards, D.int32)
        ids_parts = dynamic_partition(local_ids, shards, len(factor))
        value_parts = dynamic_partition(values, shards, len(factor))
        return group(*[scatter_update(f, i, v)
                       for f, i, v in zip(factor, ids_parts, value_parts)], name=name)

    def update_row_factors(self, sp_input: Any = None, transpose_input: bool = False) -> Tuple:
        """Solves for the rows of `sp_input` (a SparseTensor of some rows of the matrix,
        indexed as in the whole matrix; columns of its transpose if `transpose_input`).

        Returns (new row values, the op assigning them, the normalized unregularized loss,
        the normalized regularization, the normalized sum of weights)."""
        return self._process_input_helper(True, sp_input=sp_input,
                                          transpose_input=transpose_input)

    def update_col_factors(self, sp_input: Any = None, transpose_input: bool = False) -> Tuple:
        """`update_row_factors` for the columns of `sp_input`."""
        return self._process_input_helper(False, sp_input=sp_input,
                                          transpose_input=transpose_input)

    def project_row_factors(self, sp_input: Any = None, transpose_input: bool = False,
                            projection_weights: Any = None) -> Any:
        """Row factors for new rows `sp_input` (its row indices ignored, its column indices
        the model's) from one solve against the current column factors; the rows' weights
        are `projection_weights` (a scalar or one per row; 1 when None)."""
        return self._process_input_helper(
            True, sp_input=sp_input, transpose_input=transpose_input,
            row_weights=1 if projection_weights is None else projection_weights)[0]

    def project_col_factors(self, sp_input: Any = None, transpose_input: bool = False,
                            projection_weights: Any = None) -> Any:
        """`project_row_factors` for columns."""
        return self._process_input_helper(
            False, sp_input=sp_input, transpose_input=transpose_input,
            row_weights=1 if projection_weights is None else projection_weights)[0]

    def _process_input_helper(self, update_row_factors: bool, sp_input: Any = None,
                              transpose_input: bool = False, row_weights: Any = None) -> Tuple:
        assert isinstance(sp_input, SparseTensor)
        if update_row_factors:
            left, right_factors = self._row_factors, self._col_factors_cache
            own_wt, other_wt = self._row_wt_cache, self._col_wt_cache
            total_rows, total_cols = self._input_rows, self._input_cols
            sharding = self._get_sharding_func(self._input_rows, self._num_row_shards)
            gramian = self._col_gramian_cache
        else:
            left, right_factors = self._col_factors, self._row_factors_cache
            own_wt, other_wt = self._col_wt_cache, self._row_wt_cache
            total_rows, total_cols = self._input_cols, self._input_rows
            sharding = self._get_sharding_func(self._input_cols, self._num_col_shards)
            gramian = self._row_gramian_cache
            transpose_input = not transpose_input

        # Renumber the block's rows and columns 0..n-1 in order of first appearance.
        row_ids, col_ids = split(sp_input.indices, 2, axis=1)
        unique_rows, local_rows = unique(row_ids[:, 0])
        unique_cols, local_cols = unique(col_ids[:, 0])
        local_rows = expand_dims(cast(local_rows, D.int64), 1)
        local_cols = expand_dims(cast(local_cols, D.int64), 1)
        if transpose_input:
            update_indices, gather_indices, other_ids = unique_cols, unique_rows, unique_rows
        else:
            update_indices, gather_indices, other_ids = unique_rows, unique_cols, unique_cols
        other_count = [cast(shape(other_ids)[0], D.int64)]
        num_rows = cast(shape(update_indices)[0], D.int64)
        right = embedding_lookup(right_factors, gather_indices, partition_strategy="div")
        dense_shape = (concat([other_count, [num_rows]], 0) if transpose_input
                       else concat([[num_rows], other_count], 0))
        block = SparseTensor(indices=concat([local_rows, local_cols], 1),
                             values=sp_input.values, dense_shape=dense_shape)

        total_lhs = self._unobserved_weight * gramian
        if self._regularization_matrix is not None:
            total_lhs += self._regularization_matrix
        if self._row_weights is None:
            total_rhs = self._unobserved_weight * sparse_tensor_dense_matmul(
                block, right, adjoint_a=transpose_input)
            new_values = transpose(matrix_solve(total_lhs, transpose(total_rhs)))
        else:
            weights_slice = self._row_weights_slice(own_wt, update_indices, row_weights)
            col_weights = embedding_lookup(other_wt, gather_indices, partition_strategy="div")
            partial_lhs, partial_rhs = apply_op(
                "WALSComputePartialLhsAndRhs",
                [right, col_weights, self._unobserved_weight, weights_slice, block.indices,
                 block.values, constant([], D.float32), num_rows, transpose_input],
                name="wals_compute_partial_lhs_rhs").outputs
            total_lhs = expand_dims(total_lhs, 0) + partial_lhs
            new_values = squeeze(matrix_solve(total_lhs, expand_dims(partial_rhs, -1)), [2])

        update_op = self.scatter_update(left, update_indices, new_values, sharding,
                                        name="row_update" if update_row_factors
                                        else "col_update")
        losses = self._losses(block, transpose_input, new_values, right, gramian,
                              weights_slice if self._row_weights is not None else None,
                              col_weights if self._col_weights is not None else None,
                              num_rows, total_rows, total_cols)
        return (new_values, update_op) + losses

    def _row_weights_slice(self, own_wt: Any, update_indices: Any, row_weights: Any) -> Any:
        """The weights of the rows being solved: the model's, or the given scalar / vector."""
        if row_weights is None:
            return embedding_lookup(own_wt, update_indices, partition_strategy="div")
        count = shape(update_indices)[0]
        with control_dependencies([assert_less_equal(rank(row_weights), 1)]):
            return cond(equal(rank(row_weights), 0),
                        lambda: ones([count]) * row_weights,
                        lambda: cast(row_weights, D.float32))

    def _losses(self, block: SparseTensor, transpose_input: bool, new_values: Any, right: Any,
                gramian: Any, row_wt: Any, col_wt: Any, num_rows: Any, total_rows: int,
                total_cols: int) -> Tuple[Any, Any, Any]:
        """(unregularized loss, regularization, sum of weights), each scaled from the
        block's rows to the whole matrix. The unobserved part of the loss uses
        ||U_I V^T||^2 = trace(U_I^T U_I V^T V), less the observed entries' predictions."""
        observed = sparse_transpose(block) if transpose_input else block
        predicted_values = apply_op("MaskedMatmul",
                                    [new_values, right, observed.indices, False, True]).outputs[0]
        predicted = SparseTensor(observed.indices, predicted_values, observed.dense_shape)
        predicted_sq = _sparse_square(predicted)
        residual_sq = _sparse_square(sparse_add(observed, predicted * (-1)))
        row_wt_mat = constant(0.0) if row_wt is None else expand_dims(row_wt, 1)
        col_wt_mat = constant(0.0) if col_wt is None else expand_dims(col_wt, 0)
        own_gramian = matmul(new_values, new_values, transpose_a=True)
        scale = total_rows / cast(num_rows, D.float32)
        unregularized = (self._unobserved_weight * (
            sparse_reduce_sum(residual_sq) - sparse_reduce_sum(predicted_sq) +
            trace(matmul(own_gramian, gramian))) +
            sparse_reduce_sum(row_wt_mat * (residual_sq * col_wt_mat))) * scale
        if self._regularization is not None:
            regularization = self._regularization * (trace(own_gramian) * scale +
                                                     trace(gramian))
        else:
            regularization = constant(0.0)
        sum_weights = self._unobserved_weight * cast(total_rows * total_cols, D.float32)
        if self._row_weights is not None and self._col_weights is not None:
            ones_sp = SparseTensor(observed.indices, ones(shape(observed.values)),
                                   observed.dense_shape)
            sum_weights += sparse_reduce_sum(row_wt_mat * (ones_sp * col_wt_mat)) * scale
        return unregularized, regularization, sum_weights
