"""tf.contrib.nn (alpha_dropout, scaled_softplus) and tf.contrib.sparsemax against numpy
re-computations of TF 1.15's definitions (TF 2 has no contrib to record from; nth_element
and the flipped cross entropies are goldens in tests/golden/cases_contrib_legacy.py)."""

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()


def _softplus(v):
    return np.logaddexp(0.0, v)


def test_scaled_softplus_values_and_tf_gradient_formula():
    xv = np.array([[-3.0, -0.5, 0.0], [0.7, 2.0, 9.0]], np.float64)
    alpha_v = np.array([0.5, 1.0, 2.0])
    x = tf.constant(xv)
    alpha = tf.constant(alpha_v)
    y = tf.contrib.nn.scaled_softplus(x, alpha)
    g = tf.constant(np.arange(6.0).reshape(2, 3))
    dx, dalpha = tf.gradients(y, [x, alpha], grad_ys=g)
    clip = tf.constant(1.5, tf.float64)
    yc = tf.contrib.nn.scaled_softplus(x, alpha, clip=clip)
    dclip = tf.gradients(yc, clip, grad_ys=g)[0]
    with tf.Session() as sess:
        got = sess.run([y, dx, dalpha, yc, dclip])
    want_y = alpha_v * _softplus(xv / alpha_v)
    scaled = want_y / alpha_v
    dy_dx = 1 - np.exp(-scaled)
    dy_dalpha = scaled * np.exp(-scaled) - dy_dx * np.log(dy_dx + 1e-8)
    gv = np.arange(6.0).reshape(2, 3)
    np.testing.assert_allclose(got[0], want_y, rtol=1e-12)
    np.testing.assert_allclose(got[1], gv * dy_dx, rtol=1e-10)
    np.testing.assert_allclose(got[2], (gv * dy_dalpha).sum(0), rtol=1e-10)
    np.testing.assert_allclose(got[3], np.minimum(want_y, 1.5), rtol=1e-12)
    assert got[4] == pytest.approx((gv * (want_y >= 1.5)).sum())


def test_alpha_dropout_keeps_by_its_seeded_uniform_and_maps_affinely():
    xv = np.random.RandomState(0).randn(4, 5).astype(np.float32)
    x = tf.constant(xv)
    dropped = tf.contrib.nn.alpha_dropout(x, 0.7, seed=5)
    uniform = tf.random_uniform([4, 5], seed=5)        # the same op seed: the same stream
    with tf.Session() as sess:
        got, u = sess.run([dropped, uniform])
    alpha, keep = -1.7580993408473766, 0.7
    kept = (u >= 1 - np.float32(keep)).astype(np.float32)
    a = (keep + keep * (1 - keep) * alpha ** 2) ** -0.5
    b = -a * alpha * (1 - keep)
    np.testing.assert_allclose(got, a * (xv * kept + alpha * (1 - kept)) + b, rtol=1e-6)
    assert 0 < kept.sum() < kept.size
    assert tf.contrib.nn.alpha_dropout(x, 1.0) is x
    with pytest.raises(ValueError, match=r"range \(0, 1\], got 1.5"):
        tf.contrib.nn.alpha_dropout(x, 1.5)


def _simplex_projection(z):
    """Sparsemax by the sort-based algorithm of Martins & Astudillo (2016)."""
    out = []
    for row in z:
        s = np.sort(row)[::-1]
        cs = np.cumsum(s)
        k = np.arange(1, len(row) + 1)
        support = k[1 + k * s > cs].max()
        tau = (cs[support - 1] - 1) / support
        out.append(np.maximum(row - tau, 0))
    return np.array(out)


def test_sparsemax_projects_rows_onto_the_simplex():
    z = np.random.RandomState(1).randn(6, 7).astype(np.float64) * 2
    z[0] = [5.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0]        # one-hot
    z[1] = 0.3                                          # uniform
    logits = tf.constant(z)
    p = tf.contrib.sparsemax.sparsemax(logits)
    with tf.Session() as sess:
        got = sess.run(p)
    np.testing.assert_allclose(got, _simplex_projection(z), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got.sum(1), 1.0)
    np.testing.assert_array_equal(got[0], [1, 0, 0, 0, 0, 0, 0])


def test_sparsemax_of_an_infinite_logit_is_nan_and_loss_ignores_zero_labels():
    logits = tf.constant([[np.inf, 1.0, 0.0], [0.5, 0.2, -0.1]], tf.float32)
    p = tf.contrib.sparsemax.sparsemax(logits)
    finite = tf.constant([[2.0, 1.0, 0.0], [0.5, 0.2, -0.1]], tf.float32)
    pf = tf.contrib.sparsemax.sparsemax(finite)
    labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    loss = tf.contrib.sparsemax.sparsemax_loss(finite, pf, labels)
    with tf.Session() as sess:
        got_p, got_pf, got_loss = sess.run([p, pf, loss])
    assert np.isnan(got_p[0]).all() and np.isfinite(got_p[1]).all()
    z, q = np.array([[2.0, 1.0, 0.0], [0.5, 0.2, -0.1]]), np.array([[1., 0, 0], [0, 1., 0]])
    want = (np.where(got_pf > 0, got_pf * (z - 0.5 * got_pf), 0) + q * (0.5 * q - z)).sum(1)
    np.testing.assert_allclose(got_loss, want, rtol=1e-6)
