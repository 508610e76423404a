"""tf.contrib.factorization.WALSModel against the math: a numpy restatement of the WALS
normal equations (the whole-matrix objective, solved row by row in float64), the losses
an update reports, and the two kernels (MaskedMatmul, WALSComputePartialLhsAndRhs),
whose TF 1.15 C++ library no TF 2 oracle can load. Values against TF 1.15's Python on
restated kernels: tests/golden/cases_contrib_factorization.py."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.framework.graph import apply_op

RS = np.random.RandomState(3)
ROWS, COLS, K = 6, 5, 2
DENSE = np.where(RS.uniform(size=(ROWS, COLS)) < 0.5, RS.uniform(1, 2, (ROWS, COLS)), 0.0)
DENSE[np.arange(ROWS), np.arange(ROWS) % COLS] = 1.25
U0 = RS.uniform(-1, 1, (ROWS, K))
V0 = RS.uniform(-1, 1, (COLS, K))


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _solve(a: np.ndarray, fixed: np.ndarray, w0: float, lam: float, row_w: np.ndarray,
           col_w: np.ndarray) -> np.ndarray:
    """argmin_u ||sqrt(W) (a - u fixed^T)||^2 + lam ||u||^2 for every row of `a`, with
    W = w0 + row_w[i] col_w[j] on observed entries and w0 elsewhere."""
    out = np.zeros((a.shape[0], fixed.shape[1]))
    for i, row in enumerate(a):
        observed = row != 0
        weights = np.where(observed, w0 + row_w[i] * col_w, w0)
        lhs = (fixed.T * weights) @ fixed + lam * np.eye(fixed.shape[1])
        out[i] = np.linalg.solve(lhs, (fixed.T * weights) @ row)
    return out


def _loss(a, u, v, w0, row_w, col_w):
    weights = np.where(a != 0, w0 + row_w[:, None] * col_w[None, :], w0)
    return float((weights * (a - u @ v.T) ** 2).sum()), float(weights.sum())


def test_sweeps_minimize_the_weighted_objective_as_numpy():
    w0, lam, row_w, col_w = 0.3, 0.1, 1.7, np.array([1.0, 0.5, 2.0, 1.0, 3.0])
    indices = np.argwhere(DENSE != 0).astype(np.int64)
    sp = tf.SparseTensor(indices, DENSE[DENSE != 0].astype(np.float32), [ROWS, COLS])
    model = tf.contrib.factorization.WALSModel(
        ROWS, COLS, K, unobserved_weight=w0, regularization=lam,
        row_init=[U0[:3].astype(np.float32), U0[3:].astype(np.float32)],
        col_init=V0.astype(np.float32), num_row_shards=2, row_weights=row_w,
        col_weights=col_w.tolist())
    _, row_update, row_loss, row_reg, row_sum = model.update_row_factors(sp)
    _, col_update, col_loss, col_reg, col_sum = model.update_col_factors(sp)
    u, v = U0.copy(), V0.copy()
    rows_w = np.full(ROWS, row_w)
    with tf.Session() as sess:
        sess.run([model.initialize_op, tf.local_variables_initializer()])
        sess.run(model.worker_init)
        for _ in range(3):
            sess.run(model.row_update_prep_gramian_op)
            sess.run(model.initialize_row_update_op)
            _, loss, reg, total = sess.run([row_update, row_loss, row_reg, row_sum])
            u = _solve(DENSE, v, w0, lam, rows_w, col_w)
            want_loss, want_total = _loss(DENSE, u, v, w0, rows_w, col_w)
            np.testing.assert_allclose([loss, reg, total],
                                       [want_loss, lam * ((u ** 2).sum() + (v ** 2).sum()),
                                        want_total], rtol=1e-4)
            sess.run(model.col_update_prep_gramian_op)
            sess.run(model.initialize_col_update_op)
            _, loss, reg, total = sess.run([col_update, col_loss, col_reg, col_sum])
            v = _solve(DENSE.T, u, w0, lam, col_w, rows_w)
            want_loss, want_total = _loss(DENSE, u, v, w0, rows_w, col_w)
            np.testing.assert_allclose([loss, total], [want_loss, want_total], rtol=1e-4)
        got_u = np.concatenate(sess.run(model.row_factors))
        got_v = sess.run(model.col_factors)[0]
    np.testing.assert_allclose(got_u, u, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_v, v, rtol=1e-4, atol=1e-5)


def test_als_without_weights_solves_the_unweighted_normal_equations():
    indices = np.argwhere(DENSE != 0).astype(np.int64)
    sp = tf.SparseTensor(indices, DENSE[DENSE != 0].astype(np.float32), [ROWS, COLS])
    model = tf.contrib.factorization.WALSModel(
        ROWS, COLS, K, unobserved_weight=0.8, regularization=0.2, row_init=U0.astype(np.float32),
        col_init=V0.astype(np.float32), row_weights=None, col_weights=None)
    new_rows, update, *_ = model.update_row_factors(sp)
    with tf.Session() as sess:
        sess.run([model.initialize_op, tf.local_variables_initializer(), model.worker_init])
        sess.run(model.row_update_prep_gramian_op)
        sess.run(model.initialize_row_update_op)
        got = sess.run(new_rows)
    # Without weights every entry weighs w0: u = (w0 V^T V + lam I)^-1 w0 V^T a.
    want = np.linalg.solve(0.8 * V0.T @ V0 + 0.2 * np.eye(K), 0.8 * V0.T @ DENSE.T).T
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_masked_matmul_kernel():
    a, b = RS.randn(4, 3).astype(np.float32), RS.randn(5, 3).astype(np.float32)
    mask = np.array([[0, 4], [3, 0], [0, 4], [2, 2]], np.int64)
    out = apply_op("MaskedMatmul", [a, b, mask, False, True]).outputs[0]
    out_t = apply_op("MaskedMatmul", [a.T.copy(), b.T.copy(), mask, True, False]).outputs[0]
    bad = apply_op("MaskedMatmul", [a, b, mask, False, False]).outputs[0]
    assert out.get_shape().ndims is None              # TF's UnknownShape
    with tf.Session() as sess:
        got, got_t = sess.run([out, out_t])
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=r"Matrix shapes are incompatible: a has shape \[4,3\]"):
            sess.run(bad)
    want = (a @ b.T)[mask[:, 0], mask[:, 1]]
    np.testing.assert_allclose(got, want, rtol=1e-5)
    np.testing.assert_allclose(got_t, want, rtol=1e-5)


def test_wals_partial_lhs_and_rhs_kernel():
    factors = RS.randn(4, 2).astype(np.float32)
    indices = np.array([[0, 1], [2, 3], [0, 0], [2, 1]], np.int64)
    values = np.array([1.0, 2.0, 3.0, 0.5], np.float32)
    row_w, col_w = np.array([2.0, 1.0, 0.5], np.float32), np.array([1, 2, 3, 4], np.float32)
    entry_w = np.array([0.5, 1.0, 2.0, 3.0], np.float32)

    def op(input_w, factor_w, entries, transpose, ind=indices):
        return apply_op("WALSComputePartialLhsAndRhs",
                        [factors, factor_w, 0.25, input_w, ind, values, entries,
                         np.int64(3), transpose]).outputs
    empty = np.zeros(0, np.float32)
    fetches = [op(row_w, col_w, empty, False), op(empty, empty, entry_w, False),
               op(row_w, col_w, empty, True, indices[:, ::-1].copy())]
    with tf.Session() as sess:
        got = sess.run(fetches)
        with pytest.raises(tf.errors.InvalidArgumentError, match="but not both"):
            sess.run(op(row_w, col_w, entry_w, False))
    for (lhs, rhs), weights in zip(got, (row_w[indices[:, 0]] * col_w[indices[:, 1]],
                                         entry_w, row_w[indices[:, 0]] * col_w[indices[:, 1]])):
        want_lhs, want_rhs = np.zeros((3, 2, 2)), np.zeros((3, 2))
        for (r, c), v, w in zip(indices, values, weights):
            want_lhs[r] += w * np.outer(factors[c], factors[c])
            want_rhs[r] += v * (0.25 + w) * factors[c]
        np.testing.assert_allclose(lhs, want_lhs, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(rhs, want_rhs, rtol=1e-5, atol=1e-6)
