"""Golden cases: tf.contrib.distributions (issue 12) — multivariate normals, one-hot and
relaxed categoricals, bijectors and TransformedDistribution, Independent,
MixtureSameFamily, KL divergences and the helpers.

Real TF 2.21 has no tf.contrib: the values are recorded from TensorFlow Probability
(`tfp.distributions`, the continuation of contrib.distributions, same numerics) on top
of real TF, in its own venv:

    python3 -m venv /tmp/tfp && /tmp/tfp/bin/pip install tensorflow-cpu==2.21.0 \\
        tf-keras==2.21.0 tensorflow-probability
    /tmp/tfp/bin/python scripts/record_goldens.py cases_contrib_distributions

TFP's samplers are not TF 1.x's, so seeded samples are checked against TF 1.15's own
recipe written with TF's random ops (`_tf1_recipe`), and TFP's samples only for shapes.
"""

import numpy as np

from tests.golden.harness import tolerance


class _Helpers:
    """The helpers of contrib.distributions, found in tfp.math under TFP."""

    def __init__(self, tfd, tfp):
        self.tfd = tfd
        self.bijectors = tfd.bijectors if tfp is None else tfp.bijectors
        source = tfd if tfp is None else tfp.math
        self.fill_triangular = source.fill_triangular
        self.fill_triangular_inverse = source.fill_triangular_inverse
        self.softplus_inverse = source.softplus_inverse
        self.reduce_weighted_logsumexp = source.reduce_weighted_logsumexp


def _lib(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:             # tf1compat
        return _Helpers(contrib.distributions, None)
    import tensorflow_probability as tfp  # real TF: the recorder needs TFP installed
    return _Helpers(tfp.distributions, tfp)


def _tfp_recording(tf):
    return getattr(tf, "contrib", None) is None


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def _stats(d, names):
    return {name: getattr(d, name)() for name in names}


@tolerance(rtol=1e-5, atol=1e-5)
def case_mvn_diag_tril_full(tf):
    lib = _lib(tf)
    tfd = lib.tfd
    diag = tfd.MultivariateNormalDiag(loc=[[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]],
                                      scale_diag=[[1.0, 2.0, 0.5], [0.3, 0.7, 1.5]])
    # TFP dropped scale_identity_multiplier: the same numbers from a constant scale_diag.
    ident = tfd.MultivariateNormalDiag(loc=[1.0, -2.0], scale_diag=[2.0, 2.0]) \
        if _tfp_recording(tf) else \
        tfd.MultivariateNormalDiag(loc=[1.0, -2.0], scale_identity_multiplier=2.0)
    tril = tfd.MultivariateNormalTriL(loc=[1.0, 2.0, -1.0],
                                      scale_tril=[[1.0, 0.0, 0.0], [0.5, 2.0, 0.0],
                                                  [-0.3, 0.2, 0.7]])
    full = tfd.MultivariateNormalFullCovariance(
        loc=[[0.0, 1.0], [2.0, -1.0]],
        covariance_matrix=[[[2.0, 0.5], [0.5, 1.0]], [[1.0, -0.2], [-0.2, 0.5]]])
    # TFP dropped the softplus variant: the same numbers from softplus(scale_diag).
    soft = tfd.MultivariateNormalDiag(loc=[0.0, 1.0], scale_diag=tf.nn.softplus([-1.0, 2.0])) \
        if _tfp_recording(tf) else \
        tfd.MultivariateNormalDiagWithSoftplusScale(loc=[0.0, 1.0], scale_diag=[-1.0, 2.0])
    x3 = tf.constant([[0.5, 1.0, 0.0], [2.0, -1.0, 1.0]])
    out = {
        "diag": _stats(diag, ("mean", "stddev", "variance", "covariance", "entropy", "mode")),
        "tril": _stats(tril, ("mean", "stddev", "variance", "covariance", "entropy")),
        "full": _stats(full, ("mean", "stddev", "covariance", "entropy")),
        "ident": _stats(ident, ("stddev", "covariance", "entropy")),
        "soft": _stats(soft, ("stddev", "entropy")),
        "diag_lp": diag.log_prob(x3), "diag_p": diag.prob(x3),
        "diag_lp_bcast": diag.log_prob([[[0.0, 0.0, 0.0]], [[1.0, 1.0, 1.0]]]),
        "tril_lp": tril.log_prob(x3), "full_lp": full.log_prob([1.0, 1.0]),
        "ident_lp": ident.log_prob([[0.0, 0.0], [1.0, -2.0]]),
        "soft_lp": soft.log_prob([0.3, 0.2]),
        "kl_tril_full": tfd.kl_divergence(
            tril, tfd.MultivariateNormalFullCovariance(
                loc=[0.0, 0.0, 1.0], covariance_matrix=[[2.0, 0.3, 0.0], [0.3, 1.0, 0.1],
                                                        [0.0, 0.1, 0.8]])),
        "kl_diag_diag": tfd.kl_divergence(diag, tfd.MultivariateNormalDiag(
            loc=[0.0, 0.0, 0.0], scale_diag=[1.0, 1.0, 2.0])),
        "log_det_cov": 2.0 * tril.scale.log_abs_determinant() if _tfp_recording(tf)
        else tril.log_det_covariance(),
    }
    samples = [diag.sample(4, seed=3), tril.sample([2, 5], seed=4), full.sample(seed=5)]
    return {"vals": _run(tf, out),
            "sample_shapes": [s.shape.as_list() for s in samples],
            "shapes": [[str(d.batch_shape), str(d.event_shape), d.dtype.name]
                       for d in (diag, ident, tril, full, soft)],
            "dyn_shapes": _run(tf, [diag.batch_shape_tensor(), diag.event_shape_tensor()]),
            "rep": [repr(diag.reparameterization_type), soft.allow_nan_stats]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_mvn_diag_plus_low_rank(tf):
    tfd = _lib(tf).tfd
    d = tfd.MultivariateNormalDiagPlusLowRank(
        loc=[1.0, -1.0, 0.0], scale_diag=[1.0, 2.0, 0.5],
        scale_perturb_factor=[[0.5, 0.1], [0.2, -0.3], [0.0, 0.4]],
        scale_perturb_diag=[1.0, 0.5])
    return _run(tf, {"lp": d.log_prob([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]), "mean": d.mean(),
                     "cov": d.covariance(), "stddev": d.stddev(), "entropy": d.entropy()})


@tolerance(rtol=1e-5, atol=1e-5)
def case_onehot_relaxed(tf):
    tfd = _lib(tf).tfd
    oh = tfd.OneHotCategorical(logits=[[0.1, 0.5, -1.0], [1.0, 1.0, 1.0]])
    ohp = tfd.OneHotCategorical(probs=[0.2, 0.3, 0.5], dtype=tf.float32)
    r = tfd.RelaxedOneHotCategorical(0.5, logits=[0.1, 0.5, -1.0])
    e = tfd.ExpRelaxedOneHotCategorical(0.7, probs=[0.2, 0.3, 0.5])
    rb = tfd.RelaxedBernoulli(0.3, logits=[0.2, -1.0])
    lo = tfd.Logistic(loc=[0.0, 1.0], scale=[1.0, 0.5])
    out = {
        "oh_lp": oh.log_prob([[0, 1, 0], [0, 0, 1]]), "oh_lp_b": oh.log_prob([1, 0, 0]),
        "oh_ent": oh.entropy(), "oh_mode": oh.mode(), "oh_mean": oh.mean(),
        "ohp_lp": ohp.log_prob([0.0, 0.0, 1.0]), "ohp_var": ohp.variance(),
        "ohp_cov": ohp.covariance(), "oh_kl": tfd.kl_divergence(
            oh, tfd.OneHotCategorical(logits=[0.0, 1.0, 2.0])),
        "r_lp": r.log_prob([[0.2, 0.3, 0.5], [0.7, 0.2, 0.1]]),
        "r_p": r.prob([0.2, 0.3, 0.5]),
        "e_lp": e.log_prob([-1.0, -2.0, -0.6]),
        "rb_lp": rb.log_prob([0.3, 0.9]), "rb_p": rb.prob([[0.1, 0.5]]),
        "lo_lp": lo.log_prob([0.5, 2.0]), "lo_cdf": lo.cdf([0.5, 2.0]),
        "lo_lcdf": lo.log_cdf([-30.0, 2.0]), "lo_sf": lo.survival_function([0.5, 2.0]),
        "lo_lsf": lo.log_survival_function([0.5, 40.0]),
        "lo": _stats(lo, ("mean", "stddev", "variance", "entropy", "mode")),
    }
    samples = [oh.sample(5, seed=1), r.sample([2, 3], seed=2), rb.sample(4, seed=3),
               lo.sample(3, seed=4), e.sample(seed=6)]
    return {"vals": _run(tf, out),
            "sample_shapes": [s.shape.as_list() for s in samples],
            "sample_dtypes": [s.dtype.name for s in samples],
            "shapes": [[str(d.batch_shape), str(d.event_shape), d.dtype.name]
                       for d in (oh, ohp, r, e, rb, lo)],
            "rep": [repr(d.reparameterization_type) for d in (oh, r, rb, lo)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_bijectors(tf):
    lib = _lib(tf)
    tfb = lib.bijectors
    x = tf.constant([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]])
    pos = tf.constant([[0.5, 1.0, 2.0], [0.1, 0.2, 0.3]])
    unit = tf.constant([[0.5, 0.1, 0.9], [0.3, 0.2, 0.7]])
    out = {}
    for name, b, fwd_in, inv_in in (
            ("exp", tfb.Exp(), x, pos), ("identity", tfb.Identity(), x, x),
            ("softplus", tfb.Softplus(), x, pos), ("sigmoid", tfb.Sigmoid(), x, unit),
            ("softplus_c", tfb.Softplus(hinge_softness=0.5), x, pos),
            ("chain", tfb.Chain([tfb.Exp(), tfb.Softplus()]), x, tf.constant([[2.0, 3.0]])),
            ("invert", tfb.Invert(tfb.Exp()), pos, x),
            ("gumbel", tfb.GumbelCDF(loc=0.5, scale=2.0) if _tfp_recording(tf)
             else tfb.Gumbel(loc=0.5, scale=2.0), x, unit),
            ("weibull", tfb.WeibullCDF(scale=1.5, concentration=2.0) if _tfp_recording(tf)
             else tfb.Weibull(scale=1.5, concentration=2.0), pos, unit),
            ("square", tfb.Square(), pos, pos), ("softsign", tfb.Softsign(), x, unit)):
        out[name] = {"fwd": b.forward(fwd_in), "inv": b.inverse(inv_in),
                     "fldj0": b.forward_log_det_jacobian(fwd_in, event_ndims=0),
                     "fldj1": b.forward_log_det_jacobian(fwd_in, event_ndims=1),
                     "ildj1": b.inverse_log_det_jacobian(inv_in, event_ndims=1),
                     "ildj2": b.inverse_log_det_jacobian(inv_in, event_ndims=2)}
    tril = tfb.FillScaleTriL() if _tfp_recording(tf) else tfb.ScaleTriL()
    fill = tfb.FillTriangular()
    vec = tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    out["scale_tril"] = {"fwd": tril.forward(vec), "inv": tril.inverse(tril.forward(vec)),
                         "fldj": tril.forward_log_det_jacobian(vec, event_ndims=1),
                         "ildj": tril.inverse_log_det_jacobian(
                             [[1.0, 0.0], [2.0, 3.0]], event_ndims=2)}
    out["fill"] = {"fwd": fill.forward(vec), "fwd_up": tfb.FillTriangular(upper=True)
                   .forward(vec), "inv": fill.inverse(fill.forward(vec))}
    reshape = tfb.Reshape(event_shape_out=[2, 3], event_shape_in=[6])
    out["reshape"] = {"fwd": reshape.forward(vec), "inv": reshape.inverse(tf.ones([4, 2, 3]))}
    out["permute"] = {"fwd": tfb.Permute([2, 0, 1]).forward(x),
                      "inv": tfb.Permute([2, 0, 1]).inverse(x)}
    shapes = [str(fill.forward_event_shape([6])), str(fill.inverse_event_shape([3, 3])),
              str(reshape.forward_event_shape([6])), str(reshape.inverse_event_shape([2, 3])),
              [int(n) for n in [tfb.Exp().forward_min_event_ndims, tril.forward_min_event_ndims,
               tril.inverse_min_event_ndims, fill.forward_min_event_ndims,
               tfb.Chain([tfb.Exp(), tfb.FillTriangular()]).forward_min_event_ndims,
               tfb.Chain([tfb.Exp(), tfb.FillTriangular()]).inverse_min_event_ndims]]]
    return {"vals": _run(tf, out), "shapes": shapes}


@tolerance(rtol=1e-5, atol=1e-5)
def case_transformed_independent_mixture(tf):
    lib = _lib(tf)
    tfd, tfb = lib.tfd, lib.bijectors
    lognormal = tfd.TransformedDistribution(distribution=tfd.Normal(loc=[0.0, 1.0],
                                                                    scale=[1.0, 0.5]),
                                            bijector=tfb.Exp())
    scaled = tfd.TransformedDistribution(
        distribution=tfd.Normal(loc=0.0, scale=1.0),
        bijector=tfb.Chain([tfb.Shift(1.0), tfb.Scale(2.0)]) if _tfp_recording(tf)
        else tfb.AffineScalar(shift=1.0, scale=2.0))
    ind = tfd.Independent(tfd.Normal(loc=[[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]],
                                     scale=[[1.0, 2.0, 0.5], [1.0, 1.0, 1.0]]),
                          reinterpreted_batch_ndims=1)
    ind_b = tfd.Independent(tfd.Normal(loc=tf.zeros([2, 3]), scale=2.0),
                            reinterpreted_batch_ndims=1)
    ind_bern = tfd.Independent(tfd.Bernoulli(probs=[0.2, 0.7, 0.5]),
                               reinterpreted_batch_ndims=1)
    gmm = tfd.MixtureSameFamily(
        mixture_distribution=tfd.Categorical(probs=[[0.3, 0.7], [0.5, 0.5]]),
        components_distribution=tfd.Normal(loc=[[-1.0, 1.0], [0.0, 3.0]],
                                           scale=[[0.1, 0.5], [1.0, 2.0]]))
    mvgmm = tfd.MixtureSameFamily(
        mixture_distribution=tfd.Categorical(logits=[0.0, 1.0, -1.0]),
        components_distribution=tfd.MultivariateNormalDiag(
            loc=[[0.0, 0.0], [1.0, 2.0], [-1.0, 0.5]],
            scale_diag=[[1.0, 1.0], [0.5, 2.0], [1.5, 0.3]]))
    out = {
        "ln_lp": lognormal.log_prob([[0.5, 2.0], [1.0, 3.0]]), "ln_p": lognormal.prob([0.5, 2.0]),
        "ln_cdf": lognormal.cdf([0.5, 2.0]), "ln_lcdf": lognormal.log_cdf([0.5, 2.0]),
        "ln_sf": lognormal.survival_function([0.5, 2.0]),
        "ln_q": lognormal.quantile([0.3, 0.9]),
        "sc_lp": scaled.log_prob([0.0, 1.0, 4.0]), "sc_ent": scaled.entropy(),
        "ind_lp": ind.log_prob([[0.5, 1.0, 2.5], [0.0, 0.0, 0.0]]), "ind_ent": ind.entropy(),
        "ind_mean": ind.mean(), "ind_std": ind.stddev(),
        "ind_p": ind.prob([0.5, 1.0, 2.5]), "ind_cdf": ind.cdf([0.5, 1.0, 2.5]),
        "ind_bern": ind_bern.log_prob([1, 0, 1]),
        "ind_kl": tfd.kl_divergence(ind, ind_b),
        "gmm_lp": gmm.log_prob([[0.0, 1.0], [-1.0, 2.0]]), "gmm_mean": gmm.mean(),
        "gmm_var": gmm.variance(), "gmm_lcdf": gmm.log_cdf([0.0, 1.0]),
        "mv_lp": mvgmm.log_prob([[0.0, 0.0], [1.0, 2.0]]), "mv_mean": mvgmm.mean(),
        "mv_cov": mvgmm.covariance(), "mv_var": mvgmm.variance(),
    }
    samples = [lognormal.sample(3, seed=1), ind.sample([2, 2], seed=2),
               gmm.sample(4, seed=3), mvgmm.sample(5, seed=4)]
    return {"vals": _run(tf, out),
            "sample_shapes": [s.shape.as_list() for s in samples],
            "shapes": [[str(d.batch_shape), str(d.event_shape)]
                       for d in (lognormal, scaled, ind, ind_bern, gmm, mvgmm)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_helpers(tf):
    lib = _lib(tf)
    vec = tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [6.0, 5.0, 4.0, 3.0, 2.0, 1.0]])
    out = {"fill": lib.fill_triangular(vec), "fill_up": lib.fill_triangular(vec, upper=True),
           "fill_inv": lib.fill_triangular_inverse(lib.fill_triangular(vec)),
           "fill_inv_up": lib.fill_triangular_inverse(lib.fill_triangular(vec, upper=True),
                                                      upper=True),
           "fill_10": lib.fill_triangular(tf.range(10.0)),
           "spi": lib.softplus_inverse([1e-9, 0.1, 1.0, 20.0, 100.0]),
           "spi64": lib.softplus_inverse(tf.constant([1e-20, 0.5, 50.0], tf.float64)),
           "rwl": lib.reduce_weighted_logsumexp([[0.0, 1.0, 2.0], [1.0, 1.0, -1.0]],
                                                w=[[1.0, -0.5, 0.2], [2.0, 1.0, 1.0]],
                                                axis=-1),
           "rwl_sign": lib.reduce_weighted_logsumexp([0.0, 1.0], w=[1.0, -2.0],
                                                     return_sign=True),
           "rwl_keep": lib.reduce_weighted_logsumexp([[0.0, 1.0]], axis=1, keep_dims=True),
           "rwl_none": lib.reduce_weighted_logsumexp([[0.0, 1.0], [2.0, 3.0]])}
    try:
        lib.fill_triangular(tf.ones([5]))
        bad = "no error"
    except ValueError as e:
        bad = type(e).__name__
    return {"vals": _run(tf, out), "bad": bad}


@tolerance(rtol=1e-5, atol=1e-5)
def case_seeded_samples_tf1(tf):
    """Seeded samples equal TF 1.15's recipe: the MVN's `loc + scale @ N(0, 1)` draw, the
    Gumbel-softmax of ExpRelaxedOneHotCategorical, Logistic's `log(u) - log1p(-u)`."""
    loc = tf.constant([[1.0, 2.0], [0.0, -1.0]])
    scale_diag = tf.constant([[1.0, 2.0], [0.5, 0.3]])
    tril = tf.constant([[1.0, 0.0], [0.5, 2.0]])
    logits = tf.constant([[0.1, 0.5, -1.0]])
    tiny = np.finfo(np.float32).tiny
    if _tfp_recording(tf):          # TF 1.15's code, written with TF's random ops
        diag = loc + scale_diag * tf.random_normal([3, 2, 2], seed=7)
        z = tf.random_normal([4, 2], seed=8)
        trils = tf.linalg.matvec(tril, z) + loc[0]
        logits_2d = tf.reshape(logits * tf.ones([5, 1, 3]), [-1, 3])
        u = tf.random_uniform(tf.shape(logits_2d), minval=tiny, maxval=1.0, seed=9)
        relaxed = tf.exp(tf.reshape(tf.nn.log_softmax(
            (-tf.log(-tf.log(u)) + logits_2d) / tf.reshape(0.5, [-1, 1])), [5, 1, 3]))
        u2 = tf.random_uniform([6, 2], minval=tiny, maxval=1.0, seed=10)
        logistic = (tf.log(u2) - tf.log1p(-u2)) * tf.constant([1.0, 0.5]) + \
            tf.constant([0.0, 1.0])
    else:
        tfd = tf.contrib.distributions
        diag = tfd.MultivariateNormalDiag(loc=loc, scale_diag=scale_diag).sample(3, seed=7)
        trils = tfd.MultivariateNormalTriL(loc=loc[0], scale_tril=tril).sample(4, seed=8)
        relaxed = tfd.RelaxedOneHotCategorical(0.5, logits=logits).sample(5, seed=9)
        logistic = tfd.Logistic(loc=[0.0, 1.0], scale=[1.0, 0.5]).sample(6, seed=10)
    return _run(tf, {"diag": diag, "tril": trils, "relaxed": relaxed, "logistic": logistic})


def case_errors(tf):
    lib = _lib(tf)
    tfd, tfb = lib.tfd, lib.bijectors
    out = {}
    for label, build in (
            ("ldj_event_ndims", lambda: tfb.FillTriangular().forward_log_det_jacobian(
                [1.0, 2.0, 3.0], event_ndims=0)),
            ("mix_mismatch", lambda: tfd.MixtureSameFamily(
                tfd.Categorical(probs=[0.5, 0.5]), tfd.Normal(loc=[0.0, 1.0, 2.0],
                                                               scale=1.0))),
            ("independent_too_many", lambda: tfd.Independent(
                tfd.Normal(loc=[0.0], scale=1.0), reinterpreted_batch_ndims=2)),
            ("bijector_dtype", lambda: tfb.Exp().forward(tf.constant([1], tf.int32)))):
        try:
            build()
            out[label] = "no error"
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            out[label] = type(e).__name__
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_scalar_families(tf):
    tfd = _lib(tf).tfd
    po = tfd.Poisson(rate=[0.5, 3.0, 10.0])
    pl = tfd.Poisson(log_rate=[0.0, 1.0])
    ge = tfd.Geometric(probs=[0.2, 0.5, 0.9])
    nb = tfd.NegativeBinomial(total_count=[3.0, 5.0], probs=[0.3, 0.6])
    bi = tfd.Binomial(total_count=[4.0, 10.0], probs=[0.3, 0.6])
    bl = tfd.Binomial(total_count=6.0, logits=[-1.0, 0.5])
    ch = tfd.Chi2(df=[1.0, 3.0, 10.0])
    ig = tfd.InverseGamma([3.0, 0.5], [2.0, 1.0])
    hn = tfd.HalfNormal(scale=[1.0, 2.5])
    ca = tfd.Cauchy(loc=[0.0, 1.0], scale=[1.0, 0.5])
    de = tfd.Deterministic(loc=[1.0, 2.0], atol=0.1)
    vd = tfd.VectorDeterministic(loc=[[1.0, 2.0], [0.0, 0.0]])
    counts = [0.0, 2.0, 7.0]
    out = {
        "po_lp": po.log_prob(counts), "po_cdf": po.cdf([0.0, 2.5, 7.0]),
        "po_lcdf": po.log_cdf([1.0, 2.0, 12.0]), "po_neg": po.cdf([-1.0, -0.5, -3.0]),
        "po": _stats(po, ("mean", "variance", "stddev", "mode")),
        "pl_lp": pl.log_prob([1.0, 3.0]), "pl_mean": pl.mean(),
        "ge_lp": ge.log_prob(counts), "ge_cdf": ge.cdf(counts), "ge_p": ge.prob(counts),
        "ge": _stats(ge, ("mean", "variance", "stddev", "entropy", "mode")),
        "nb_lp": nb.log_prob([[0.0, 4.0], [2.0, 1.0]]), "nb_cdf": nb.cdf([2.0, 4.0]),
        "nb": _stats(nb, ("mean", "variance", "mode")),
        "bi_lp": bi.log_prob([[0.0, 4.0], [2.0, 10.0]]), "bi_cdf": bi.cdf([[1.0, 4.0],
                                                                          [4.0, 10.0]]),
        "bi": _stats(bi, ("mean", "variance", "mode")), "bl_lp": bl.log_prob([3.0, 6.0]),
        "ch_lp": ch.log_prob([0.5, 2.0, 9.0]), "ch_cdf": ch.cdf([0.5, 2.0, 9.0]),
        "ch": _stats(ch, ("mean", "variance", "entropy")),
        "ig_lp": ig.log_prob([0.5, 2.0]), "ig_cdf": ig.cdf([0.5, 2.0]),
        "ig": _stats(ig, ("mean", "variance", "mode", "entropy")),
        "hn_lp": hn.log_prob([0.5, 2.0]), "hn_p": hn.prob([[0.5, 2.0]]),
        "hn_cdf": hn.cdf([0.5, 2.0]), "hn_q": hn.quantile([0.3, 0.9]),
        "hn": _stats(hn, ("mean", "variance", "stddev", "entropy", "mode")),
        "ca_lp": ca.log_prob([0.5, 2.0]), "ca_cdf": ca.cdf([0.5, 2.0]),
        "ca_lcdf": ca.log_cdf([0.5, 2.0]), "ca_q": ca.quantile([0.3, 0.9]),
        "ca": _stats(ca, ("entropy", "mode", "mean", "variance")),
        "de_p": de.prob([[1.05, 2.5], [0.8, 2.0]]), "de_cdf": de.cdf([0.95, 1.5]),
        "de_mean": de.mean(), "vd_p": vd.prob([[1.0, 2.0], [0.0, 0.1]]),
    }
    samples = [po.sample(4, seed=1), ge.sample([2, 3], seed=2), nb.sample(3, seed=3),
               ig.sample(2, seed=4), hn.sample(5, seed=5), ca.sample(2, seed=6),
               de.sample(3), vd.sample(2), ch.sample(2, seed=7)]
    return {"vals": _run(tf, out),
            "sample_shapes": [s.shape.as_list() for s in samples],
            "deterministic_samples": _run(tf, samples[6:8]),
            "shapes": [[str(d.batch_shape), str(d.event_shape), d.dtype.name]
                       for d in (po, ge, nb, bi, ch, ig, hn, ca, de, vd)],
            "rep": [repr(d.reparameterization_type) for d in (po, hn, ca)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_mixture_quantized(tf):
    tfd = _lib(tf).tfd
    mix = tfd.Mixture(cat=tfd.Categorical(probs=[[0.2, 0.8], [0.6, 0.4]]),
                      components=[tfd.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0]),
                                  tfd.Laplace(loc=[2.0, -1.0], scale=[0.5, 1.0])])
    mvmix = tfd.Mixture(cat=tfd.Categorical(logits=[0.0, 1.0]),
                        components=[tfd.MultivariateNormalDiag(loc=[0.0, 1.0],
                                                               scale_diag=[1.0, 2.0]),
                                    tfd.MultivariateNormalDiag(loc=[-1.0, 0.0],
                                                               scale_diag=[0.5, 0.5])])
    qn = tfd.QuantizedDistribution(distribution=tfd.Normal(loc=[0.0, 3.0], scale=[2.0, 1.0]))
    qc = tfd.QuantizedDistribution(distribution=tfd.Normal(loc=0.0, scale=3.0), low=-2.0,
                                   high=3.0)
    out = {"mix_lp": mix.log_prob([[0.5, 1.0], [2.0, -1.0]]), "mix_p": mix.prob([0.5, 1.0]),
           "mix_cdf": mix.cdf([0.5, 1.0]), "mix_mean": mix.mean(), "mix_std": mix.stddev(),
           "mix_var": mix.variance(), "mix_elb": mix.entropy_lower_bound(),
           "mv_lp": mvmix.log_prob([[0.0, 0.0], [1.0, 2.0]]), "mv_mean": mvmix.mean(),
           "mv_std": mvmix.stddev(),
           "qn_lp": qn.log_prob([[0.0, 3.0], [-2.0, 6.0]]), "qn_p": qn.prob([1.0, 2.0]),
           "qn_cdf": qn.cdf([0.5, 2.0]), "qn_sf": qn.survival_function([0.0, 2.0]),
           "qc_p": qc.prob([-3.0, -2.0, 0.0, 3.0, 4.0]),
           "qc_cdf": qc.cdf([-3.0, -2.0, 0.0, 3.0, 4.0]),
           "qc_lcdf": qc.log_cdf([-2.0, 0.0, 3.0]),
           "qc_lsf": qc.log_survival_function([-3.0, 0.0, 2.0])}
    samples = [mix.sample(3, seed=1), mvmix.sample(4, seed=2), qn.sample(5, seed=3),
               qc.sample(100, seed=4)]
    vals = _run(tf, {"out": out, "qc_samples": samples[3]})
    qc_samples = vals.pop("qc_samples")
    return {"vals": vals["out"],
            "qc_sample_range": [float(qc_samples.min()) >= -2.0,
                                float(qc_samples.max()) <= 3.0,
                                bool(np.all(qc_samples == np.round(qc_samples)))],
            "sample_shapes": [s.shape.as_list() for s in samples],
            "shapes": [[str(d.batch_shape), str(d.event_shape)] for d in (mix, mvmix, qn, qc)]}


def _autoregressive_fn(tf):
    """A fixed autoregressive (shift, log_scale) function: each output depends only on
    the inputs before it (exclusive cumulative sums)."""
    def fn(x):
        prefix = tf.cumsum(x, axis=-1, exclusive=True)
        return 0.3 * prefix + 0.1, 0.2 * tf.tanh(prefix)
    return fn


@tolerance(rtol=1e-4, atol=1e-5)
def case_bijectors_more(tf):
    """(SoftmaxCentered and SinhArcsinh are checked in tests/test_contrib_distributions.py:
    TFP 0.25's SoftmaxCentered fails under numpy 2, and its SinhArcsinh is no longer TF
    1.x's sinh((arcsinh(x) + skewness) * tailweight).)"""
    lib = _lib(tf)
    tfb = lib.bijectors
    tfp_run = _tfp_recording(tf)
    x = tf.constant([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]])
    increasing = tf.constant([[0.5, 1.0, 2.0], [-1.0, 0.2, 0.3]])
    unit = tf.constant([[0.5, 0.1, 0.9], [0.3, 0.2, 0.7]])
    tril = tf.constant([[[1.0, 0.0], [2.0, 3.0]], [[0.5, 0.0], [-1.0, 2.0]]])
    spd = tf.constant([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 0.2], [0.2, 3.0]]])

    def nvp_fn(x0, units):
        return 0.5 * tf.tile(x0, [1, units]), 0.1 * tf.tile(x0 * x0, [1, units])

    maf = tfb.MaskedAutoregressiveFlow(shift_and_log_scale_fn=_autoregressive_fn(tf))
    maf_unrolled = tfb.MaskedAutoregressiveFlow(shift_and_log_scale_fn=_autoregressive_fn(tf),
                                                unroll_loop=True)
    nvp = tfb.RealNVP(num_masked=1, shift_and_log_scale_fn=nvp_fn)
    ordered = tfb.Invert(tfb.Ascending()) if tfp_run else tfb.Ordered()
    kumaraswamy = tfb.Invert(tfb.KumaraswamyCDF(concentration1=2.0, concentration0=3.0)) \
        if tfp_run else tfb.Kumaraswamy(concentration1=2.0, concentration0=3.0)
    out = {}
    for name, b, fwd_in, inv_in, ndims in (
            ("cholesky_outer", tfb.CholeskyOuterProduct(), tril, spd, 2),
            ("ordered", ordered, increasing, x, 1),
            ("matrix_inverse_tril", tfb.MatrixInverseTriL(), tril, tril, 2),
            ("kumaraswamy", kumaraswamy, unit, unit, 0),
            ("maf", maf, x, x, 1), ("maf_unrolled", maf_unrolled, x, x, 1),
            ("real_nvp", nvp, x, x, 1)):
        out[name] = {"fwd": b.forward(fwd_in), "inv": b.inverse(inv_in),
                     "ildj": b.inverse_log_det_jacobian(inv_in, event_ndims=ndims),
                     "fldj": b.forward_log_det_jacobian(fwd_in, event_ndims=ndims)}
    return _run(tf, out)


@tolerance(rtol=1e-5, atol=1e-5)
def case_vector_families(tf):
    """TFP dropped the Vector* classes: under TFP the same distributions are built as
    Independent (transformed) scalars, and the moments of VectorExponentialDiag
    (mean loc + d, mode loc, stddev |d|) are written out."""
    tfd = _lib(tf).tfd
    loc, diag = [[1.0, 2.0], [0.0, -1.0]], [[1.0, 2.0], [0.5, 0.3]]
    eloc, ediag = tf.constant([1.0, -1.0]), tf.constant([2.0, 0.5])
    if _tfp_recording(tf):
        import tensorflow_probability as tfp
        la = tfd.Independent(tfd.Laplace(loc=loc, scale=diag), reinterpreted_batch_ndims=1)
        ex = tfd.Independent(tfd.TransformedDistribution(
            tfd.Exponential(rate=tf.ones([2])),
            tfp.bijectors.Chain([tfp.bijectors.Shift(eloc), tfp.bijectors.Scale(ediag)])),
            reinterpreted_batch_ndims=1)
        la_cov = tf.linalg.diag(la.variance())
        ex_stats = {"mean": eloc + ediag, "mode": eloc, "stddev": tf.abs(ediag),
                    "covariance": tf.linalg.diag(ediag * ediag)}
    else:
        la = tfd.VectorLaplaceDiag(loc=loc, scale_diag=diag)
        ex = tfd.VectorExponentialDiag(loc=eloc, scale_diag=ediag)
        la_cov = la.covariance()
        ex_stats = _stats(ex, ("mean", "mode", "stddev", "covariance"))
    out = {"la_lp": la.log_prob([[0.5, 1.0], [0.0, 0.0]]), "la_cov": la_cov,
           "la": _stats(la, ("mean", "stddev", "variance", "entropy")),
           "ex_lp": ex.log_prob([[2.0, 0.0], [1.5, -0.5]]), "ex": ex_stats}
    samples = [la.sample(3, seed=1), ex.sample(2, seed=2)]
    return {"vals": _run(tf, out), "sample_shapes": [s.shape.as_list() for s in samples],
            "shapes": [[str(d.batch_shape), str(d.event_shape)] for d in (la, ex)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_percentile_conjugates(tf):
    lib = _lib(tf)
    tfd = lib.tfd
    if _tfp_recording(tf):
        import tensorflow_probability as tfp

        def pct(x, q, axis=None, interpolation=None, keep_dims=False):
            return tfp.stats.percentile(x, q, axis=axis, interpolation=interpolation,
                                        keepdims=keep_dims)
    else:
        pct = tfd.percentile
    x = tf.constant([[3.0, 1.0, 4.0, 1.5, 9.0], [2.0, 6.0, 5.0, 3.5, 8.0]])
    # No q lands halfway between two ranks: there TF 1.x (descending sort, round half to
    # even) and TFP (ascending sort) pick different neighbours.
    out = {"all": pct(x, 40.0), "lower": pct(x, 30.0, axis=1, interpolation="lower"),
           "higher": pct(x, 30.0, axis=1, interpolation="higher"),
           "nearest": pct(x, 30.0, axis=[1]), "axis0": pct(x, 75.0, axis=0),
           "q0": pct(x, 0.0, axis=-1), "q100": pct(x, 100.0, axis=-1),
           "keep": pct(x, 40.0, axis=1, keep_dims=True), "keep_all": pct(x, 40.0,
                                                                        keep_dims=True),
           "int": pct(tf.constant([5, 1, 9, 3]), 60.0)}
    prior = tfd.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0])
    post = tfd.normal_conjugates_known_scale_posterior(prior, scale=0.5, s=tf.constant([3.0, 4.0]), n=4)
    pred = tfd.normal_conjugates_known_scale_predictive(prior, scale=0.5, s=tf.constant([3.0, 4.0]), n=4)
    out.update(post_loc=post.loc, post_scale=post.scale, pred_loc=pred.loc,
               pred_scale=pred.scale)
    return {"vals": _run(tf, out), "shapes": [out["keep"].shape.as_list(),
                                              out["keep_all"].shape.as_list()]}
