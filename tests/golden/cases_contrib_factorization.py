"""Golden cases: `tf.contrib.factorization.WALSModel` — sweeps of row and column updates
on a small sparse matrix (weighted with row / column weights, plain ALS, sharded factors,
regularization, the worker caches on and off, updates from transposed input and from a
subset of rows), the losses each update returns, projections of new rows and columns, and
the variables and ops the model makes. TF 2.x has no contrib: the oracle is TF 1.15's
factorization_ops.py run under TF 2.21's tf.compat.v1, its two C++ kernels (MaskedMatmul,
WALSComputePartialLhsAndRhs) restated from their documented behaviour in TF ops
(scripts/oracle_contrib.py `tf115_factorization`; record with PYTHONPATH=scripts).
Factors start from given values, so every number is comparable."""

import numpy as np

from tests.golden.harness import tolerance

ROWS, COLS, K = 5, 7, 3
RS = np.random.RandomState(11)
DENSE = np.where(RS.uniform(size=(ROWS, COLS)) < 0.45,
                 RS.uniform(0.5, 3.0, (ROWS, COLS)), 0.0).astype(np.float32)
DENSE[0, 0] = DENSE[4, 6] = 1.5                      # every row and column observed
DENSE[1, 3] = DENSE[2, 5] = DENSE[3, 1] = 2.0
INDICES = np.argwhere(DENSE != 0).astype(np.int64)
VALUES = DENSE[DENSE != 0]
ROW_INIT = RS.uniform(-1, 1, (ROWS, K)).astype(np.float32)
COL_INIT = RS.uniform(-1, 1, (COLS, K)).astype(np.float32)


def factorization_of(tf):
    """tf1compat's tf.contrib.factorization, or TF 1.15's WALSModel under the oracle."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.factorization
    import oracle_contrib
    return oracle_contrib.tf115_factorization(tf)


def _shards(matrix, count):
    sizes = [len(matrix) // count + (1 if i < len(matrix) % count else 0)
             for i in range(count)]
    return np.split(matrix, np.cumsum(sizes)[:-1])


def _shape(t):
    shape = t.get_shape()
    return None if shape.ndims is None else shape.as_list()


def _sparse(tf, indices=INDICES, values=VALUES, shape=(ROWS, COLS)):
    return tf.SparseTensor(indices, values, shape)


def _sweeps(tf, model, row_input, col_input, count, col_transposed=False):
    """`count` row-then-column sweeps over whole inputs; the losses of each update and the
    factors after the last."""
    row = model.update_row_factors(sp_input=row_input)
    col = model.update_col_factors(sp_input=col_input, transpose_input=col_transposed)
    losses = []
    with tf.Session() as sess:
        sess.run(model.initialize_op)
        sess.run(tf.local_variables_initializer())
        sess.run(model.worker_init)
        for _ in range(count):
            sess.run(model.row_update_prep_gramian_op)
            sess.run(model.initialize_row_update_op)
            values = sess.run([row[0], row[1], row[2], row[3], row[4]])
            losses.append(("row", values[0], values[2:]))
            sess.run(model.col_update_prep_gramian_op)
            sess.run(model.initialize_col_update_op)
            values = sess.run([col[0], col[1], col[2], col[3], col[4]])
            losses.append(("col", values[0], values[2:]))
        factors = sess.run([model.row_factors, model.col_factors])
    return {"steps": losses, "row_factors": factors[0], "col_factors": factors[1]}


@tolerance(rtol=2e-4, atol=2e-5)
def case_weighted_sharded_sweeps(tf):
    fac = factorization_of(tf)
    model = fac.WALSModel(ROWS, COLS, K, unobserved_weight=0.2, regularization=0.05,
                          row_init=_shards(ROW_INIT, 2), col_init=_shards(COL_INIT, 3),
                          num_row_shards=2, num_col_shards=3, row_weights=1.5,
                          col_weights=[[0.5, 1.0, 2.0], [1.0, 0.25], [3.0, 1.0]])
    out = _sweeps(tf, model, _sparse(tf), _sparse(tf), 3)
    out["variables"] = sorted((v.op.name, v.get_shape().as_list())
                              for v in tf.global_variables())
    out["local"] = sorted(v.op.name for v in tf.local_variables())
    out["weights"] = [len(model.row_weights), len(model.col_weights)]
    return out


@tolerance(rtol=2e-4, atol=2e-5)
def case_als_without_caches_transposed(tf):
    fac = factorization_of(tf)
    model = fac.WALSModel(ROWS, COLS, K, unobserved_weight=0.7, regularization=0.1,
                          row_init=ROW_INIT, col_init=COL_INIT, row_weights=None,
                          col_weights=None, use_factors_weights_cache=False,
                          use_gramian_cache=False)
    transposed = _sparse(tf, INDICES[:, ::-1].copy(), VALUES, (COLS, ROWS))
    out = _sweeps(tf, model, _sparse(tf), transposed, 2, col_transposed=True)
    out["local"] = sorted(v.op.name for v in tf.local_variables())
    out["weights"] = model.row_weights is None
    return out


@tolerance(rtol=2e-4, atol=2e-5)
def case_partial_rows_and_scoped_vars(tf):
    fac = factorization_of(tf)
    model = fac.WALSModel(ROWS, COLS, K, unobserved_weight=0.1, regularization=None,
                          row_init=_shards(ROW_INIT, 3), col_init=COL_INIT, num_row_shards=3,
                          row_weights=[[2.0, 1.0], [0.5, 1.0], [1.0]], col_weights=2.0,
                          use_scoped_vars=True)
    # Rows 3 and 1 only (out of order), and columns 6, 0, 2 only.
    row_mask = np.isin(INDICES[:, 0], [3, 1])
    col_mask = np.isin(INDICES[:, 1], [6, 0, 2])
    order = np.argsort(-INDICES[row_mask][:, 0], kind="stable")
    rows = _sparse(tf, INDICES[row_mask][order], VALUES[row_mask][order])
    cols = _sparse(tf, INDICES[col_mask], VALUES[col_mask])
    out = _sweeps(tf, model, rows, cols, 2)
    out["variables"] = sorted(v.op.name for v in tf.global_variables())
    return out


@tolerance(rtol=2e-4, atol=2e-5)
def case_projections(tf):
    fac = factorization_of(tf)
    model = fac.WALSModel(ROWS, COLS, K, unobserved_weight=0.3, regularization=0.2,
                          row_init=ROW_INIT, col_init=COL_INIT, row_weights=1.0,
                          col_weights=[[1.0, 2.0, 0.5, 1.0, 1.0, 3.0, 1.0]])
    new_rows = _sparse(tf, np.array([[0, 1], [0, 4], [1, 0], [1, 6], [1, 2]], np.int64),
                       np.array([1.0, 2.0, 0.5, 3.0, 1.0], np.float32), (2, COLS))
    new_cols = _sparse(tf, np.array([[0, 0], [2, 0], [3, 1], [4, 1]], np.int64),
                       np.array([1.0, 2.5, 0.5, 1.0], np.float32), (ROWS, 2))
    projected = {
        "rows_default": model.project_row_factors(new_rows),
        "rows_scalar": model.project_row_factors(new_rows, projection_weights=2.5),
        "rows_vector": model.project_row_factors(
            new_rows, projection_weights=tf.constant([0.5, 4.0])),
        "cols": model.project_col_factors(new_cols, projection_weights=[1.0, 0.25]),
        "cols_transposed": model.project_col_factors(
            _sparse(tf, np.array([[0, 0], [0, 2], [1, 3], [1, 4]], np.int64),
                    np.array([1.0, 2.5, 0.5, 1.0], np.float32), (2, ROWS)),
            transpose_input=True)}
    with tf.Session() as sess:
        sess.run(model.initialize_op)
        sess.run(tf.local_variables_initializer())
        sess.run(model.worker_init)
        sess.run(model.row_update_prep_gramian_op)
        sess.run(model.initialize_row_update_op)
        rows = sess.run({k: v for k, v in projected.items() if k.startswith("rows")})
        sess.run(model.col_update_prep_gramian_op)
        sess.run(model.initialize_col_update_op)
        cols = sess.run({k: v for k, v in projected.items() if k.startswith("cols")})
    rows.update(cols)
    rows["shapes"] = {k: _shape(v) for k, v in projected.items()}
    return rows


def case_model_structure(tf):
    fac = factorization_of(tf)
    model = fac.WALSModel(10, 6, 4, num_row_shards=3, num_col_shards=2, regularization=0.5)
    row = model.update_row_factors(sp_input=_sparse(tf, INDICES[INDICES[:, 1] < 6],
                                                    VALUES[INDICES[:, 1] < 6], (10, 6)))
    return {"shards": [[v.get_shape().as_list() for v in model.row_factors],
                       [v.get_shape().as_list() for v in model.col_factors],
                       [v.get_shape().as_list() for v in model.row_weights]],
            "ops": [model.initialize_op.type, model.worker_init.name,
                    model.row_update_prep_gramian_op.type, row[1].name, row[1].type,
                    model.initialize_row_update_op.type],
            "outputs": [[t.dtype.name, _shape(t)] for t in
                        (row[0], row[2], row[3], row[4])],
            "sharding": [list(model._shard_sizes(10, 3)), list(model._shard_sizes(7, 7))]}
