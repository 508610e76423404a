"""tf.contrib.distributions beyond the goldens (tests/golden/cases_contrib_distributions.py):
gradients through reparameterized samples, the bijector cache, run-time validation,
affine bijectors against numpy, and the errors for names not implemented."""

import numpy as np
import pytest

import tf1compat as tf

tfd = tf.contrib.distributions
tfb = tfd.bijectors


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def setup_function(_):
    tf.reset_default_graph()


def test_mvn_sample_is_reparameterized():
    loc = tf.Variable([1.0, 2.0])
    scale = tf.Variable([0.5, 3.0])
    d = tfd.MultivariateNormalDiag(loc=loc, scale_diag=scale)
    x = d.sample(7, seed=1)
    g_loc, g_scale = tf.gradients(tf.reduce_sum(x), [loc, scale])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        draws, gl, gs = sess.run([x, g_loc, g_scale])
    # x = loc + scale * z: d sum(x) / d loc = n, d sum(x) / d scale = sum(z).
    np.testing.assert_allclose(gl, [7.0, 7.0])
    z = (draws - np.array([1.0, 2.0])) / np.array([0.5, 3.0])
    np.testing.assert_allclose(gs, z.sum(axis=0), rtol=1e-5)
    assert d.reparameterization_type == tfd.FULLY_REPARAMETERIZED


def test_relaxed_one_hot_sample_has_gradients():
    logits = tf.Variable([0.1, 0.5, -1.0])
    x = tfd.RelaxedOneHotCategorical(0.5, logits=logits).sample(4, seed=2)
    (g,) = tf.gradients(tf.reduce_sum(x[:, 0]), [logits])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        draws, grad = sess.run([x, g])
    np.testing.assert_allclose(draws.sum(axis=-1), np.ones(4), rtol=1e-5)
    assert np.all(np.isfinite(grad)) and np.abs(grad).sum() > 0


def test_bijector_cache_returns_the_input():
    b = tfb.Chain([tfb.Exp(), tfb.Softplus()])
    x = tf.constant([0.5, 1.0])
    assert b.inverse(b.forward(x)) is x
    d = tfd.TransformedDistribution(tfd.Normal(0.0, 1.0), tfb.Softplus())
    s = d.sample(3, seed=5)
    lp = d.log_prob(s)
    draws, got = _run([s, lp])
    x0 = np.log(np.expm1(draws))
    # log p(y) = log N(x) - log softplus'(x), softplus' = sigmoid.
    want = -0.5 * x0 ** 2 - 0.5 * np.log(2 * np.pi) - (x0 - np.log1p(np.exp(x0)))
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5)


def test_affine_bijector_against_numpy():
    tril = np.array([[2.0, 0.0], [0.5, 1.5]], np.float32)
    b = tfb.Affine(shift=[1.0, -1.0], scale_tril=tril, scale_diag=[0.5, 0.5])
    x = np.array([[1.0, 2.0], [-1.0, 0.5], [0.0, 3.0]], np.float32)
    y, back, fldj = _run([b.forward(x), b.inverse(b.forward(tf.constant(x) + 0.0)),
                          b.forward_log_det_jacobian(x, event_ndims=1)])
    scale = tril + np.diag([0.5, 0.5])
    np.testing.assert_allclose(y, x @ scale.T + [1.0, -1.0], rtol=1e-5)
    np.testing.assert_allclose(back, x, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(fldj, np.log(np.abs(np.linalg.det(scale))), rtol=1e-5)
    only = tfb.Affine(shift=1.0, scale_identity_multiplier=3.0)
    got = _run([only.forward([1.0, 2.0]), only.forward_log_det_jacobian([1.0, 2.0],
                                                                       event_ndims=1)])
    np.testing.assert_allclose(got[0], [4.0, 7.0])
    np.testing.assert_allclose(got[1], 2 * np.log(3.0), rtol=1e-6)


def test_affine_linear_operator_inverse_with_sample_dims():
    scale = tf.linalg.LinearOperatorLowerTriangular([[[1.0, 0.0], [2.0, 3.0]],
                                                     [[0.5, 0.0], [0.0, 2.0]]])
    b = tfb.AffineLinearOperator(shift=[1.0, 1.0], scale=scale)
    y = np.random.RandomState(0).randn(4, 2, 2).astype(np.float32)
    x, fx = _run([b.inverse(y), b.forward(b.inverse(tf.constant(y) * 1.0))])
    np.testing.assert_allclose(fx, y, rtol=1e-4, atol=1e-5)
    assert x.shape == (4, 2, 2)


def test_full_covariance_validation_at_run_time():
    cov = tf.placeholder(tf.float32, [2, 2])
    d = tfd.MultivariateNormalFullCovariance(loc=[0.0, 0.0], covariance_matrix=cov,
                                             validate_args=True)
    lp = d.log_prob([0.0, 0.0])
    ok = _run(lp, {cov: [[1.0, 0.0], [0.0, 1.0]]})
    np.testing.assert_allclose(ok, -np.log(2 * np.pi), rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError):
        _run(lp, {cov: [[1.0, 0.9], [0.0, 1.0]]})


def test_build_time_errors():
    with pytest.raises(ValueError, match="Cannot infer `event_shape`"):
        tfd.MultivariateNormalDiag()
    with pytest.raises(ValueError, match="does not correspond to a triangular"):
        tfd.fill_triangular(tf.ones([4]))
    with pytest.raises(TypeError):
        tfb.Exp().forward(tf.constant([1], tf.int32))
    with pytest.raises(ValueError, match="min_event_ndims"):
        tfb.ScaleTriL().inverse_log_det_jacobian(tf.eye(2), event_ndims=1)


def test_kl_of_identical_mvns_is_zero_and_shapes():
    d = tfd.MultivariateNormalTriL(loc=tf.zeros([3, 2]), scale_tril=[[1.0, 0.0], [0.3, 2.0]])
    kl = tfd.kl_divergence(d, d)
    assert kl.shape.as_list() == [3]
    np.testing.assert_allclose(_run(kl), np.zeros(3), atol=1e-5)
    assert d.batch_shape.as_list() == [3] and d.event_shape.as_list() == [2]
    assert d.sample([4, 5]).shape.as_list() == [4, 5, 3, 2]


def test_mixture_same_family_sampling_follows_the_graph_seed():
    # As TF 1.15, the op seed is not used: the graph seed makes draws repeatable.
    def draw():
        tf.reset_default_graph()
        tf.set_random_seed(5)
        gmm = tfd.MixtureSameFamily(tfd.Categorical(probs=[0.3, 0.7]),
                                    tfd.Normal(loc=[-5.0, 5.0], scale=[0.1, 0.1]))
        return _run(gmm.sample(200, seed=3))
    a, b = draw(), draw()
    np.testing.assert_array_equal(a, b)
    assert 0.55 < np.mean(a > 0) < 0.85


@pytest.mark.parametrize("name", ["ConditionalTransformedDistribution", "VectorDiffeomixture",
                                  "PoissonLogNormalQuadratureCompound"])
def test_names_not_implemented_say_so(name):
    with pytest.raises(NotImplementedError, match=f"tf.contrib.distributions.{name}"):
        getattr(tfd, name)
    with pytest.raises(NotImplementedError, match="bijectors.AbsoluteValue"):
        tfb.AbsoluteValue


def test_softmax_centered_and_sinh_arcsinh_against_numpy():
    x = np.array([[1.0, 2.0], [-0.5, 0.3]], np.float32)
    sc = tfb.SoftmaxCentered()
    y, back, ildj = _run([sc.forward(x), sc.inverse(tf.constant(x) * 1.0 + 0.0),
                          sc.inverse_log_det_jacobian(sc.forward(tf.constant(x) + 0.0), 1)])
    padded = np.concatenate([x, np.zeros([2, 1], np.float32)], -1)
    want = np.exp(padded) / np.exp(padded).sum(-1, keepdims=True)
    np.testing.assert_allclose(y, want, rtol=1e-6)
    np.testing.assert_allclose(ildj, -np.log(want).sum(-1), rtol=1e-5)
    assert sc.forward_event_shape([3]).as_list() == [4]
    sa = tfb.SinhArcsinh(skewness=0.5, tailweight=2.0)
    v = np.array([0.3, -2.0, 5.0], np.float32)
    fwd, fldj = _run([sa.forward(v), sa.forward_log_det_jacobian(v, event_ndims=0)])
    np.testing.assert_allclose(fwd, np.sinh((np.arcsinh(v) + 0.5) * 2.0), rtol=1e-5)
    h = 1e-3
    slope = (np.sinh((np.arcsinh(v.astype(np.float64) + h) + 0.5) * 2.0)
             - np.sinh((np.arcsinh(v.astype(np.float64) - h) + 0.5) * 2.0)) / (2 * h)
    np.testing.assert_allclose(fldj, np.log(slope), rtol=1e-4)


def test_masked_autoregressive_flow_template_trains_and_stays_autoregressive():
    tf.set_random_seed(1)
    maf = tfb.MaskedAutoregressiveFlow(
        shift_and_log_scale_fn=tfb.masked_autoregressive_default_template(hidden_layers=[8]))
    flow = tfd.TransformedDistribution(distribution=tfd.Normal(loc=0.0, scale=1.0),
                                       bijector=maf, event_shape=[3])
    data = tf.constant(np.random.RandomState(0).randn(64, 3).astype(np.float32) * 2.0 + 1.0)
    loss = -tf.reduce_mean(flow.log_prob(data))
    train = tf.train.AdamOptimizer(0.05).minimize(loss)
    x = tf.constant([[0.5, -1.0, 2.0]])
    y = maf.forward(x)
    jac = tf.stack([tf.gradients(y[0, i], x)[0][0] for i in range(3)])
    names = sorted(v.name for v in tf.trainable_variables())
    assert names == ["masked_autoregressive_default_template/dense/bias:0",
                     "masked_autoregressive_default_template/dense/kernel:0",
                     "masked_autoregressive_default_template/dense_1/bias:0",
                     "masked_autoregressive_default_template/dense_1/kernel:0"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(loss)
        for _ in range(30):
            sess.run(train)
        last, j, back = sess.run([loss, jac, maf.inverse(y * 1.0)])
    assert last < first
    np.testing.assert_allclose(np.triu(j, 1), 0.0, atol=1e-6)   # y[i] sees x[:i + 1] only
    np.testing.assert_allclose(back, [[0.5, -1.0, 2.0]], rtol=1e-4, atol=1e-5)
    assert flow.sample(5, seed=2).shape.as_list() == [5, 3]


def test_sinh_arcsinh_distribution_against_numpy():
    d = tfd.SinhArcsinh(loc=1.0, scale=2.0, skewness=0.5, tailweight=1.5)
    y = np.array([0.5, 2.0, -3.0], np.float32)
    lp, cdf = _run([d.log_prob(y), d.cdf(y)])
    c = 2.0 * 2.0 / np.sinh(np.arcsinh(2.0) * 1.5)
    u = (y.astype(np.float64) - 1.0) / c
    z = np.sinh(np.arcsinh(u) / 1.5 - 0.5)
    # dF/dz with F(z) = sinh((asinh z + s) t): cosh((asinh z + s) t) t / sqrt(1 + z^2).
    dfdz = np.cosh((np.arcsinh(z) + 0.5) * 1.5) * 1.5 / np.sqrt(1 + z * z)
    want = -0.5 * z * z - 0.5 * np.log(2 * np.pi) - np.log(c) - np.log(dfdz)
    np.testing.assert_allclose(lp, want, rtol=1e-5)
    from math import erf
    np.testing.assert_allclose(cdf, [0.5 * (1 + erf(v / np.sqrt(2))) for v in z], rtol=1e-5)
    assert d.batch_shape.as_list() == [] and d.sample(4, seed=1).shape.as_list() == [4]


def test_percentile_ties_and_moving_stats():
    # TF 1.x sorts descending and rounds half to even: the median of 1..10 is 6 (TF's
    # index round(4.5) = 4 into [10, 9, ..., 1]).
    assert _run(tfd.percentile(tf.range(1.0, 11.0), 50.0)) == 6.0
    value = tf.placeholder(tf.float32, [2])
    mean, var = tfd.moving_mean_variance(value, decay=0.9)
    log_avg = tf.Variable(0.0)
    update = tfd.assign_log_moving_mean_exp(log_avg, tf.log(3.0), decay=0.5)
    ref_mean, ref_var = np.zeros(2), np.zeros(2)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for v in ([1.0, 2.0], [3.0, -1.0], [0.5, 0.5]):
            got_mean, got_var = sess.run([mean, var], {value: v})
            delta = np.array(v) - ref_mean
            ref_mean = ref_mean + 0.1 * delta
            ref_var = ref_var - 0.1 * (ref_var - 0.9 * delta ** 2)
            np.testing.assert_allclose(got_mean, ref_mean, rtol=1e-5)
            np.testing.assert_allclose(got_var, ref_var, rtol=1e-5)
        np.testing.assert_allclose(sess.run(update), np.log(0.5 * 1.0 + 0.5 * 3.0), rtol=1e-6)
    names = sorted(v.name for v in tf.global_variables())
    assert "moving_mean_variance/moving_mean:0" in names
    assert not any("moving" in v.name for v in tf.trainable_variables())
