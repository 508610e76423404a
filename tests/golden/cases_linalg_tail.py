"""Golden cases: tf.linalg rest (lu family, sqrtm/logm, pinv, matrix_rank, tridiagonal
ops, matvec, normalize, eigh_tridiagonal) and the LinearOperator classes."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance

A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, -0.2], [0.5, -0.2, 2.0]])
G = np.array([[0.0, 2.0, 1.0], [1.0, 1.0, 3.0], [2.0, -1.0, 0.5]])


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return _widen(sess.run(fetches, feed))


def _widen(v):
    if isinstance(v, dict):
        return {k: _widen(x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [_widen(x) for x in v]
    if isinstance(v, (np.ndarray, np.generic)) and v.dtype == np.complex64:
        return v.astype(np.complex128)
    return v


@tolerance(rtol=1e-5, atol=1e-6)
def case_lu_family(tf):
    g = tf.constant(G)
    lu, p = tf.linalg.lu(g)
    lu32, p64 = tf.linalg.lu(tf.cast(g, tf.float32), output_idx_type=tf.int64)
    batch = tf.constant(np.stack([G, A]))
    blu, bp = tf.linalg.lu(batch)
    rhs = tf.constant([[1.0], [2.0], [3.0]], tf.float64)
    out = {"lu": lu, "p": p, "lu32": lu32, "p64": p64,
           "solve": tf.linalg.lu_solve(lu, p, rhs),
           "recon": tf.linalg.lu_reconstruct(lu, p),
           "inv": tf.linalg.lu_matrix_inverse(lu, p),
           "bsolve": tf.linalg.lu_solve(blu, bp, tf.ones([2, 3, 2], tf.float64)),
           "brecon": tf.linalg.lu_reconstruct(blu, bp)}
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "types": [lu.op.type], "fields": list(tf.linalg.lu(g)._fields),
            "nonsquare": catch(lambda: tf.linalg.lu_reconstruct(tf.ones([2, 3]), [0, 1]),
                               message=True)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_matrix_functions(tf):
    a = tf.constant(A)
    out = {
        "sqrtm": tf.linalg.sqrtm(a), "sqrtm32": tf.matrix_square_root(tf.cast(a, tf.float32)),
        "sqrtm_general": tf.linalg.sqrtm(tf.constant([[4.0, 1.0], [0.5, 3.0]], tf.float64)),
        "logm": tf.linalg.logm(tf.cast(a, tf.complex128)),
        "pinv": tf.linalg.pinv(tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])),
        "pinv_rank1": tf.linalg.pinv(tf.constant([[1.0, 2.0], [2.0, 4.0]], tf.float64)),
        "rank": tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]])),
        "rank_batch": tf.linalg.matrix_rank(tf.constant(np.stack([A, np.ones((3, 3))]))),
        "rank_tol": tf.linalg.matrix_rank(tf.constant(A), tol=2.5),
        "matvec": tf.linalg.matvec(a, tf.constant([1.0, 0.0, 2.0], tf.float64)),
        "matvec_adj": tf.linalg.matvec(a, tf.constant([1.0, 0.0, 2.0], tf.float64),
                                       adjoint_a=True),
        "global_norm": tf.linalg.global_norm([a, tf.constant([3.0, 4.0], tf.float64)]),
    }
    n, nv = tf.linalg.normalize(tf.constant([[3.0, 4.0], [1.0, 0.0]]), axis=1)
    n2, nv2 = tf.linalg.normalize(tf.constant([3.0, 4.0]), ord=1)
    return {"vals": _run(tf, dict(out, n=n, nv=nv, n2=n2, nv2=nv2)),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "types": [out["sqrtm"].op.type, out["logm"].op.type],
            "real_logm": catch(lambda: tf.linalg.logm(a))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_tridiagonal(tf):
    diags = tf.constant([[1.0, 2.0, 3.0, 0.0], [4.0, 5.0, 6.0, 7.0], [0.0, 1.5, 2.5, 3.5]],
                        tf.float64)
    rhs = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]], tf.float64)
    out = {
        "matmul": tf.linalg.tridiagonal_matmul(diags, rhs),
        "solve": tf.linalg.tridiagonal_solve(diags, rhs),
        "solve_vec": tf.linalg.tridiagonal_solve(diags, rhs[:, 0]),
        "solve_t": tf.linalg.tridiagonal_solve(diags, tf.transpose(rhs), transpose_rhs=True),
        "seq": tf.linalg.tridiagonal_solve([diags[0, :-1], diags[1], diags[2, 1:]], rhs,
                                           diagonals_format="sequence"),
        "matrix": tf.linalg.tridiagonal_matmul(
            tf.constant(np.diag([1.0, 2.0, 3.0]) + np.diag([4.0, 5.0], 1)), tf.ones([3, 1],
                                                                                  tf.float64),
            diagonals_format="matrix"),
    }
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "singular": catch(lambda: _run(tf, tf.linalg.tridiagonal_solve(
                tf.zeros([3, 2], tf.float64), tf.ones([2, 1], tf.float64))))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_eigh_tridiagonal(tf):
    alpha = tf.constant([2.0, 3.0, 1.0, 4.0], tf.float64)
    beta = tf.constant([0.5, -1.0, 0.25], tf.float64)
    values = tf.linalg.eigh_tridiagonal(alpha, beta)
    some = tf.linalg.eigh_tridiagonal(alpha, beta, select="i", select_range=[1, 2])
    window = tf.linalg.eigh_tridiagonal(alpha, beta, select="v", select_range=[1.0, 3.5])
    v, vec = tf.linalg.eigh_tridiagonal(alpha, beta, eigvals_only=False)
    dense = tf.linalg.diag(alpha) + tf.linalg.diag(beta, k=1) + tf.linalg.diag(beta, k=-1)
    recon = tf.matmul(vec * v, vec, transpose_b=True)
    # TF computes eigenvalues by bisection (a different graph, so other op names).
    return {"vals": _run(tf, [values, some, window, v, recon, dense]),
            "shapes": [[t.dtype.name, t.shape.as_list()] for t in (values, v, vec)]}


def _operator_facts(tf, op):
    return {"shape": str(op.shape), "batch": str(op.batch_shape), "dtype": op.dtype.name,
            "hints": [op.is_non_singular, op.is_self_adjoint, op.is_positive_definite,
                      op.is_square],
            "dims": [str(op.domain_dimension), str(op.range_dimension), op.tensor_rank]}


@tolerance(rtol=1e-4, atol=1e-5)
def case_linear_operators_basic(tf):
    L = tf.linalg
    ops = {
        "full": L.LinearOperatorFullMatrix(tf.constant(A), is_self_adjoint=True,
                                           is_positive_definite=True),
        "general": L.LinearOperatorFullMatrix(tf.constant(G)),
        "diag": L.LinearOperatorDiag(tf.constant([2.0, -3.0, 0.5], tf.float64)),
        "identity": L.LinearOperatorIdentity(3, dtype=tf.float64),
        "batch_identity": L.LinearOperatorIdentity(3, batch_shape=[2], dtype=tf.float64),
        "scaled": L.LinearOperatorScaledIdentity(3, tf.constant(2.5, tf.float64)),
        "tril": L.LinearOperatorLowerTriangular(tf.constant(G + 3.0 * np.eye(3))),
        "perm": L.LinearOperatorPermutation([2, 0, 1], dtype=tf.float64),
        "householder": L.LinearOperatorHouseholder(tf.constant([1.0, 2.0, 2.0], tf.float64)),
    }
    x = tf.constant([[1.0, 0.5], [2.0, -1.0], [0.0, 3.0]], tf.float64)
    values = {}
    for name, op in ops.items():
        values[name] = {"dense": op.to_dense(), "matmul": op.matmul(x),
                        "adj_matmul": op.matmul(x, adjoint=True),
                        "matvec": op.matvec(x[:, 0]), "det": op.determinant(),
                        "logdet": op.log_abs_determinant(), "diag": op.diag_part(),
                        "trace": op.trace(), "add": op.add_to_tensor(tf.ones([3, 3],
                                                                             tf.float64))}
        if name != "householder":
            values[name]["solve"] = op.solve(x)
            values[name]["solvevec"] = op.solvevec(x[:, 0])
    values["full"]["cholesky"] = ops["full"].cholesky().to_dense()
    values["full"]["eigvals"] = ops["full"].eigvals()
    values["full"]["cond"] = ops["full"].cond()
    values["diag"]["inverse"] = ops["diag"].inverse().to_dense()
    values["general"]["inverse"] = ops["general"].inverse().to_dense()
    values["general"]["adjoint"] = ops["general"].adjoint().to_dense()
    values["general"]["H"] = ops["general"].H.matmul(x)
    values["general"]["op_matmul"] = (ops["general"] @ ops["diag"]).to_dense()
    values["general"]["op_solve"] = ops["general"].solve(ops["diag"]).to_dense()
    return {"vals": _run(tf, values),
            "facts": {k: _operator_facts(tf, op) for k, op in sorted(ops.items())},
            "dtype_error": catch(lambda: ops["full"].matmul(tf.ones([3, 1])), message=True),
            "shape_error": catch(lambda: ops["full"].matmul(tf.ones([2, 1], tf.float64))),
            "hint_error": catch(lambda: L.LinearOperatorFullMatrix(
                tf.constant(A), is_positive_definite=True, is_non_singular=False),
                message=True),
            "identity_hint": catch(lambda: L.LinearOperatorIdentity(2, is_self_adjoint=False),
                                   message=True)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_linear_operators_structured(tf):
    L = tf.linalg
    full = L.LinearOperatorFullMatrix(tf.constant(G))
    diag = L.LinearOperatorDiag(tf.constant([2.0, 3.0], tf.float64))
    ops = {
        "composition": L.LinearOperatorComposition(
            [full, L.LinearOperatorFullMatrix(tf.constant(A))]),
        "adjoint": L.LinearOperatorAdjoint(full),
        "inversion": L.LinearOperatorInversion(full),
        "block_diag": L.LinearOperatorBlockDiag([diag, L.LinearOperatorFullMatrix(
            tf.constant([[1.0]], tf.float64))]),
        "block_lower": L.LinearOperatorBlockLowerTriangular([
            [L.LinearOperatorFullMatrix(tf.constant([[1.0]], tf.float64))],
            [L.LinearOperatorFullMatrix(tf.constant([[2.0], [3.0]], tf.float64)),
             L.LinearOperatorFullMatrix(tf.constant([[4.0, 0.0], [1.0, 5.0]], tf.float64))]]),
        "kronecker": L.LinearOperatorKronecker([
            L.LinearOperatorFullMatrix(tf.constant([[1.0, 2.0], [3.0, 4.0]], tf.float64)),
            L.LinearOperatorFullMatrix(tf.constant([[0.0, 1.0], [1.0, 3.0]], tf.float64))]),
        "low_rank": L.LinearOperatorLowRankUpdate(
            L.LinearOperatorDiag(tf.constant([1.0, 2.0, 3.0], tf.float64)),
            u=tf.constant([[1.0], [2.0], [0.5]], tf.float64),
            diag_update=tf.constant([3.0], tf.float64)),
        "toeplitz": L.LinearOperatorToeplitz(col=tf.constant([1.0, 2.0, 3.0], tf.float64),
                                             row=tf.constant([9.0, 4.0, 5.0], tf.float64)),
        "tridiag": L.LinearOperatorTridiag(tf.constant(
            [[1.0, 2.0, 0.0], [4.0, 5.0, 6.0], [0.0, 7.0, 8.0]], tf.float64)),
        "circulant": L.LinearOperatorCirculant(tf.constant([6.0, -1.0, -1.0], tf.float64),
                                               input_output_dtype=tf.float64),
        "circulant_c": L.LinearOperatorCirculant(tf.constant([1.0, 2.0, 3.0], tf.complex64)),
        "circulant2d": L.LinearOperatorCirculant2D(tf.constant(
            [[1.0, 2.0], [3.0, 4.0]], tf.complex64)),
        "zeros": L.LinearOperatorZeros(3, dtype=tf.float64),
    }
    values = {}
    for name, op in ops.items():
        n = op.shape.as_list()[-1]
        x = tf.cast(tf.reshape(tf.range(2.0 * n), [n, 2]) / 3.0 + 1.0, op.dtype)
        values[name] = {"dense": op.to_dense(), "matmul": op.matmul(x)}
        if name not in ("zeros",):
            values[name]["det"] = op.determinant()
            values[name]["solve"] = op.solve(x)
    return {"vals": _run(tf, values),
            "facts": {k: _operator_facts(tf, op) for k, op in sorted(ops.items())}}


@tolerance(rtol=1e-4, atol=1e-5)
def case_conjugate_gradient(tf):
    a = np.array([[4., 1., 0.], [1., 3., 1.], [0., 1., 2.]], np.float32)
    op = tf.linalg.LinearOperatorFullMatrix(a, is_self_adjoint=True, is_positive_definite=True)
    pre = tf.linalg.LinearOperatorDiag([0.25, 1 / 3., 0.5], is_self_adjoint=True,
                                       is_positive_definite=True)
    plain = tf.linalg.experimental.conjugate_gradient(op, tf.constant([1., 2., 3.]))
    batched = tf.linalg.experimental.conjugate_gradient(
        op, tf.constant([[1., 2., 3.], [0., 1., 0.]]), preconditioner=pre, max_iter=2,
        tol=1e-8)
    start = tf.linalg.experimental.conjugate_gradient(op, tf.constant([1., 2., 3.]),
                                                      x=tf.constant([0.2, 0.5, 1.2]))
    with tf.Session() as sess:
        values = sess.run({k: [s.i, s.x, s.gamma] for k, s in
                           (("plain", plain), ("batched", batched), ("start", start))})
    return {"values": values, "type": type(plain).__name__,
            "shapes": [str(t.shape) for t in batched],
            "not_spd": catch(lambda: tf.linalg.experimental.conjugate_gradient(
                tf.linalg.LinearOperatorFullMatrix(a), tf.constant([1., 2., 3.])),
                message=True)}
