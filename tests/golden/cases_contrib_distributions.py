"""Golden cases: tf.contrib.distributions (issue 12) — multivariate normals, one-hot and
relaxed categoricals, the scalar families, bijectors and TransformedDistribution,
Independent, the mixtures, QuantizedDistribution, KL divergences, the helpers; seeded
samples included.

Real TF 2.21 has no tf.contrib: the oracle is TF 1.15's own contrib.distributions, run
from its Python sources (unpacked from the tensorflow-cpu 1.15.0 wheel at
/tmp/tf115src/tensorflow_core) on real TF 2.21's kernels:

    /tmp/tf/bin/python scripts/record_goldens.py cases_contrib_distributions
"""

import numpy as np

from tests.golden.harness import tolerance


_TF115_SOURCES = "/tmp/tf115src/tensorflow_core"
_TF115_MODULES = (
    "autoregressive", "bijectors", "binomial", "cauchy", "chi2", "deterministic",
    "distribution_util", "geometric", "half_normal", "independent", "inverse_gamma",
    "logistic", "mixture", "mixture_same_family", "moving_stats", "mvn_diag",
    "mvn_diag_plus_low_rank", "mvn_full_covariance", "mvn_linear_operator", "mvn_tril",
    "negative_binomial", "normal_conjugate_posteriors", "onehot_categorical", "poisson",
    "quantized_distribution", "relaxed_bernoulli", "relaxed_onehot_categorical",
    "sample_stats", "sinh_arcsinh", "vector_exponential_diag", "vector_laplace_diag",
    "vector_sinh_arcsinh_diag", "wishart")
_TF115_CORE = ("bernoulli", "beta", "categorical", "dirichlet", "dirichlet_multinomial",
               "distribution", "exponential", "gamma", "kullback_leibler", "laplace",
               "multinomial", "normal", "student_t", "transformed_distribution", "uniform")


def _tf115_contrib_distributions():
    """TF 1.15's own tf.contrib.distributions, executed from its Python sources on the
    recording TF (TF 2.21 has no contrib; TF 1.15's wheel only runs on Python 3.7). The
    contrib packages are entered without their __init__ files (which pull in contrib.learn
    and TF 1.x-only kernels), core's transformed_distribution (dropped from TF 2) comes
    from the same sources, and the namespace is gathered from the modules' `__all__`."""
    import importlib
    import importlib.abc
    import importlib.machinery
    import importlib.util
    import os
    import sys
    import types

    import tensorflow

    if "tensorflow.contrib" not in sys.modules:
        class _Finder(importlib.abc.MetaPathFinder):
            def find_spec(self, name, path=None, target=None):
                if not name.startswith("tensorflow.contrib"):
                    return None
                base = os.path.join(_TF115_SOURCES, *name.split(".")[1:])
                if os.path.isdir(base):
                    if name.endswith(".bijectors"):
                        return importlib.util.spec_from_file_location(
                            name, base + "/__init__.py", submodule_search_locations=[base])
                    return importlib.machinery.ModuleSpec(name, _EmptyPackage(),
                                                          is_package=True)
                if os.path.exists(base + ".py"):
                    return importlib.util.spec_from_file_location(name, base + ".py")
                return None

        class _EmptyPackage(importlib.abc.Loader):
            def create_module(self, spec):
                module = types.ModuleType(spec.name)
                module.__path__ = [os.path.join(_TF115_SOURCES, *spec.name.split(".")[1:])]
                return module

            def exec_module(self, module):
                pass

        sys.meta_path.insert(0, _Finder())
        name = "tensorflow.python.ops.distributions.transformed_distribution"
        spec = importlib.util.spec_from_file_location(
            name, _TF115_SOURCES + "/python/ops/distributions/transformed_distribution.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
        tensorflow.contrib = importlib.import_module("tensorflow.contrib")
        # TF 2 moved these two out of the modules TF 1.15's code calls them from.
        from tensorflow.python.ops import array_ops, control_flow_ops
        array_ops.unstack = tensorflow.compat.v1.unstack
        # tf.layers lives in tf-keras now; TF 1.15's bijector imports it from TF's tree.
        layers_normalization = types.ModuleType("tensorflow.python.layers.normalization")
        layers_normalization.BatchNormalization = tensorflow.compat.v1.layers.BatchNormalization
        sys.modules["tensorflow.python.layers.normalization"] = layers_normalization
        array_ops.stack = tensorflow.compat.v1.stack
        control_flow_ops.while_loop = tensorflow.compat.v1.while_loop
    namespace = types.SimpleNamespace()
    modules = ["tensorflow.python.ops.distributions." + m for m in _TF115_CORE] + \
        ["tensorflow.contrib.distributions.python.ops." + m for m in _TF115_MODULES]
    for module_name in modules:
        module = importlib.import_module(module_name)
        public = getattr(module, "__all__", None) or [
            n for n, v in vars(module).items() if not n.startswith("_")
            and getattr(v, "__module__", None) == module_name]
        for n in public:
            setattr(namespace, n, getattr(module, n))
    ops = "tensorflow.contrib.distributions.python.ops."
    namespace.bijectors = importlib.import_module(ops + "bijectors")
    util = importlib.import_module(ops + "distribution_util")
    for helper in ("fill_triangular", "fill_triangular_inverse", "matrix_diag_transform",
                   "reduce_weighted_logsumexp", "softplus_inverse", "tridiag"):
        setattr(namespace, helper, getattr(util, helper))
    return namespace


def _lib(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:             # tf1compat
        return contrib.distributions
    return _tf115_contrib_distributions()


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def _stats(d, names):
    return {name: getattr(d, name)() for name in names}


@tolerance(rtol=1e-5, atol=1e-5)
def case_mvn_diag_tril_full(tf):
    tfd = _lib(tf)
    diag = tfd.MultivariateNormalDiag(loc=[[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]],
                                      scale_diag=[[1.0, 2.0, 0.5], [0.3, 0.7, 1.5]])
    ident = tfd.MultivariateNormalDiag(loc=[1.0, -2.0], scale_identity_multiplier=2.0)
    tril = tfd.MultivariateNormalTriL(loc=[1.0, 2.0, -1.0],
                                      scale_tril=[[1.0, 0.0, 0.0], [0.5, 2.0, 0.0],
                                                  [-0.3, 0.2, 0.7]])
    full = tfd.MultivariateNormalFullCovariance(
        loc=[[0.0, 1.0], [2.0, -1.0]],
        covariance_matrix=[[[2.0, 0.5], [0.5, 1.0]], [[1.0, -0.2], [-0.2, 0.5]]])
    soft = tfd.MultivariateNormalDiagWithSoftplusScale(loc=[0.0, 1.0], scale_diag=[-1.0, 2.0])
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
        "samples": [diag.sample(4, seed=3), tril.sample([2, 5], seed=4), full.sample(seed=5),
                    ident.sample(2, seed=6)],
    }
    return {"vals": _run(tf, out),
            "shapes": [[str(d.batch_shape), str(d.event_shape), d.dtype.name]
                       for d in (diag, ident, tril, full, soft)],
            "dyn_shapes": _run(tf, [diag.batch_shape_tensor(), diag.event_shape_tensor()]),
            "rep": [repr(diag.reparameterization_type), soft.allow_nan_stats,
                    sorted(diag.parameters), type(diag.scale).__name__,
                    type(ident.scale).__name__, type(tril.scale).__name__],
            "names": [diag.name, tril.name, soft.name, out["diag_lp"].name.split("/")[0]]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_mvn_diag_plus_low_rank(tf):
    tfd = _lib(tf)
    d = tfd.MultivariateNormalDiagPlusLowRank(
        loc=[1.0, -1.0, 0.0], scale_diag=[1.0, 2.0, 0.5],
        scale_perturb_factor=[[0.5, 0.1], [0.2, -0.3], [0.0, 0.4]],
        scale_perturb_diag=[1.0, 0.5])
    return _run(tf, {"lp": d.log_prob([[0.0, 0.0, 0.0], [1.0, 1.0, 1.0]]), "mean": d.mean(),
                     "cov": d.covariance(), "stddev": d.stddev(), "entropy": d.entropy(),
                     "sample": d.sample(3, seed=2)})


@tolerance(rtol=1e-5, atol=1e-5)
def case_onehot_relaxed(tf):
    tfd = _lib(tf)
    oh = tfd.OneHotCategorical(logits=[[0.1, 0.5, -1.0], [1.0, 1.0, 1.0]])
    ohp = tfd.OneHotCategorical(probs=[0.2, 0.3, 0.5], dtype=tf.float32)
    r = tfd.RelaxedOneHotCategorical(0.5, logits=[0.1, 0.5, -1.0])
    e = tfd.ExpRelaxedOneHotCategorical(0.7, probs=[0.2, 0.3, 0.5])
    rb = tfd.RelaxedBernoulli(0.3, logits=[0.2, -1.0])
    lo = tfd.Logistic(loc=[0.0, 1.0], scale=[1.0, 0.5])
    out = {
        "oh_lp": oh.log_prob([[0, 1, 0], [0, 0, 1]]), "oh_lp_b": oh.log_prob([1, 0, 0]),
        "oh_ent": oh.entropy(), "oh_mode": oh.mode(),
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
        "samples": [oh.sample(5, seed=1), r.sample([2, 3], seed=2), rb.sample(4, seed=3),
                    lo.sample(3, seed=4), e.sample(seed=6), ohp.sample(2, seed=7)],
    }
    return {"vals": _run(tf, out),
            "shapes": [[str(d.batch_shape), str(d.event_shape), d.dtype.name]
                       for d in (oh, ohp, r, e, rb, lo)],
            "rep": [repr(d.reparameterization_type) for d in (oh, r, rb, lo)],
            "names": [d.name for d in (oh, r, e, rb, lo)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_bijectors(tf):
    tfb = _lib(tf).bijectors
    x = tf.constant([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]])
    pos = tf.constant([[0.5, 1.0, 2.0], [0.1, 0.2, 0.3]])
    unit = tf.constant([[0.5, 0.1, 0.9], [0.3, 0.2, 0.7]])
    out = {}
    bijectors = (
        ("exp", tfb.Exp(), x, pos), ("identity", tfb.Identity(), x, x),
        ("softplus", tfb.Softplus(), x, pos), ("sigmoid", tfb.Sigmoid(), x, unit),
        ("softplus_c", tfb.Softplus(hinge_softness=0.5), x, pos),
        ("chain", tfb.Chain([tfb.Exp(), tfb.Softplus()]), x, tf.constant([[2.0, 3.0]])),
        ("invert", tfb.Invert(tfb.Exp()), pos, x),
        ("gumbel", tfb.Gumbel(loc=0.5, scale=2.0), x, unit),
        ("square", tfb.Square(), pos, pos), ("softsign", tfb.Softsign(), x, unit),
        ("power", tfb.PowerTransform(power=0.5), pos, pos),
        ("affine_scalar", tfb.AffineScalar(shift=1.0, scale=-2.0), x, x),
        ("affine", tfb.Affine(shift=[1.0, 0.0, -1.0], scale_diag=[1.0, 2.0, 0.5]), x, x),
        ("affine_tril", tfb.Affine(scale_tril=[[1.0, 0.0, 0.0], [0.5, 2.0, 0.0],
                                               [0.1, -0.2, 0.5]], scale_identity_multiplier=1.0),
         x, x),
        ("affine_mult", tfb.Affine(shift=2.0, scale_identity_multiplier=3.0), x, x))
    for name, b, fwd_in, inv_in in bijectors:
        out[name] = {"fwd": b.forward(fwd_in), "inv": b.inverse(inv_in),
                     "fldj1": b.forward_log_det_jacobian(fwd_in, event_ndims=1),
                     "ildj1": b.inverse_log_det_jacobian(inv_in, event_ndims=1),
                     "ildj2": b.inverse_log_det_jacobian(inv_in, event_ndims=2)}
        if b.forward_min_event_ndims == 0:
            out[name]["fldj0"] = b.forward_log_det_jacobian(fwd_in, event_ndims=0)
    tril = tfb.ScaleTriL()
    fill = tfb.FillTriangular()
    vec = tf.constant([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])
    # (ScaleTriL's inverse log-det-Jacobian goes through FillTriangular's inverse event
    # shape, left out below.)
    out["scale_tril"] = {"fwd": tril.forward(vec), "inv": tril.inverse(tril.forward(vec)),
                         "fldj": tril.forward_log_det_jacobian(vec, event_ndims=1)}
    out["fill"] = {"fwd": fill.forward(vec), "fwd_up": tfb.FillTriangular(upper=True)
                   .forward(vec), "inv": fill.inverse(fill.forward(vec))}
    reshape = tfb.Reshape(event_shape_out=[2, 3], event_shape_in=[6])
    out["reshape"] = {"fwd": reshape.forward(vec), "inv": reshape.inverse(tf.ones([4, 2, 3]))}
    out["permute"] = {"fwd": tfb.Permute([2, 0, 1]).forward(x),
                      "inv": tfb.Permute([2, 0, 1]).inverse(x)}
    # (FillTriangular.inverse_event_shape is left out: TF 1.15 computes n (n + 1) / 2 as
    # a float, which TF 1.15's Dimension accepted and the recording TF's rejects.)
    shapes = [str(fill.forward_event_shape([6])),
              str(reshape.forward_event_shape([6])), str(reshape.inverse_event_shape([2, 3])),
              [int(n) for n in [tfb.Exp().forward_min_event_ndims, tril.forward_min_event_ndims,
                                tril.inverse_min_event_ndims, fill.forward_min_event_ndims,
                                tfb.Chain([tfb.Exp(), tfb.FillTriangular()])
                                .forward_min_event_ndims,
                                tfb.Chain([tfb.Exp(), tfb.FillTriangular()])
                                .inverse_min_event_ndims]],
              [b.name for _, b, _, _ in bijectors] + [tril.name, fill.name, reshape.name],
              [b.is_constant_jacobian for _, b, _, _ in bijectors]]
    return {"vals": _run(tf, out), "shapes": shapes}


@tolerance(rtol=1e-5, atol=1e-5)
def case_transformed_independent_mixture(tf):
    tfd = _lib(tf)
    tfb = tfd.bijectors
    lognormal = tfd.TransformedDistribution(distribution=tfd.Normal(loc=[0.0, 1.0],
                                                                    scale=[1.0, 0.5]),
                                            bijector=tfb.Exp())
    scaled = tfd.TransformedDistribution(distribution=tfd.Normal(loc=0.0, scale=1.0),
                                         bijector=tfb.AffineScalar(shift=1.0, scale=2.0))
    ind = tfd.Independent(tfd.Normal(loc=[[0.0, 1.0, 2.0], [1.0, 1.0, 1.0]],
                                     scale=[[1.0, 2.0, 0.5], [1.0, 1.0, 1.0]]),
                          reinterpreted_batch_ndims=1)
    ind_b = tfd.Independent(tfd.Normal(loc=tf.zeros([2, 3]), scale=2.0),
                            reinterpreted_batch_ndims=1)
    ind_default = tfd.Independent(tfd.Normal(loc=tf.zeros([2, 3, 4]), scale=1.0))
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
        "ind_p": ind.prob([0.5, 1.0, 2.5]),
        "ind_bern": ind_bern.log_prob([1, 0, 1]),
        "ind_kl": tfd.kl_divergence(ind, ind_b),
        "gmm_lp": gmm.log_prob([[0.0, 1.0], [-1.0, 2.0]]), "gmm_mean": gmm.mean(),
        "gmm_var": gmm.variance(), "gmm_lcdf": gmm.log_cdf([0.0, 1.0]),
        "mv_lp": mvgmm.log_prob([[0.0, 0.0], [1.0, 2.0]]), "mv_mean": mvgmm.mean(),
        "mv_cov": mvgmm.covariance(), "mv_var": mvgmm.variance(),
        "samples": [lognormal.sample(3, seed=1), ind.sample([2, 2], seed=2),
                    scaled.sample(2, seed=5)],
    }
    others = [gmm.sample(4, seed=3), mvgmm.sample(5, seed=4)]
    return {"vals": _run(tf, out),
            "sample_shapes": [s.shape.as_list() for s in others],
            "shapes": [[str(d.batch_shape), str(d.event_shape)]
                       for d in (lognormal, scaled, ind, ind_default, ind_bern, gmm, mvgmm)],
            "names": [d.name for d in (lognormal, scaled, ind, gmm)]}


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
           "rwl_none": lib.reduce_weighted_logsumexp([[0.0, 1.0], [2.0, 3.0]]),
           "mdt": lib.matrix_diag_transform([[1.0, 2.0], [3.0, -4.0]], transform=tf.exp),
           "tridiag": lib.tridiag(below=[1.0, 2.0], diag=[3.0, 4.0, 5.0], above=[6.0, 7.0])}
    try:
        lib.fill_triangular(tf.ones([5]))
        bad = "no error"
    except ValueError as e:
        bad = type(e).__name__
    return {"vals": _run(tf, out), "bad": bad}


def case_errors(tf):
    tfd = _lib(tf)
    tfb = tfd.bijectors
    out = {}
    for label, build in (
            ("mvn_no_scale_no_loc", lambda: tfd.MultivariateNormalDiag()),
            ("ldj_event_ndims", lambda: tfb.FillTriangular().forward_log_det_jacobian(
                [1.0, 2.0, 3.0], event_ndims=0)),
            ("mix_mismatch", lambda: tfd.MixtureSameFamily(
                tfd.Categorical(probs=[0.5, 0.5]), tfd.Normal(loc=[0.0, 1.0, 2.0],
                                                               scale=1.0))),
            ("independent_too_many", lambda: tfd.Independent(
                tfd.Normal(loc=[0.0], scale=1.0), reinterpreted_batch_ndims=2)),
            ("poisson_both", lambda: tfd.Poisson(rate=1.0, log_rate=0.0)),
            ("mixture_count", lambda: tfd.Mixture(tfd.Categorical(probs=[0.5, 0.5]),
                                                  [tfd.Normal(0.0, 1.0)])),
            ("real_nvp_zero", lambda: tfb.RealNVP(num_masked=0,
                                                  shift_and_log_scale_fn=lambda x, n: x)),
            ("percentile_interp", lambda: tfd.percentile([1.0, 2.0], 50.0,
                                                         interpolation="linear"))):
        try:
            build()
            out[label] = "no error"
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            out[label] = type(e).__name__
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_scalar_families(tf):
    tfd = _lib(tf)
    po = tfd.Poisson(rate=[0.5, 3.0, 10.0])
    pl = tfd.Poisson(log_rate=[0.0, 1.0])
    ge = tfd.Geometric(probs=[0.2, 0.5, 0.9])
    nb = tfd.NegativeBinomial(total_count=[3.0, 5.0], probs=[0.3, 0.6])
    bi = tfd.Binomial(total_count=[4.0, 10.0], probs=[0.3, 0.6])
    bl = tfd.Binomial(total_count=6.0, logits=[-1.0, 0.5])
    ch = tfd.Chi2(df=[1.0, 3.0, 10.0])
    ca_df = tfd.Chi2WithAbsDf(df=[-2.5, 3.7])
    ig = tfd.InverseGamma([3.0, 0.5], [2.0, 1.0])
    igs = tfd.InverseGammaWithSoftplusConcentrationRate([3.0, -1.0], [2.0, 1.0])
    hn = tfd.HalfNormal(scale=[1.0, 2.5])
    ca = tfd.Cauchy(loc=[0.0, 1.0], scale=[1.0, 0.5])
    de = tfd.Deterministic(loc=[1.0, 2.0], atol=0.1)
    vd = tfd.VectorDeterministic(loc=[[1.0, 2.0], [0.0, 0.0]])
    counts = [0.0, 2.0, 7.0]
    out = {
        "po_lp": po.log_prob(counts), "po_cdf": po.cdf([0.0, 2.5, 7.0]),
        "po_lp_frac": po.log_prob([0.5, 2.5, 1.5]),
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
        "ch": _stats(ch, ("mean", "variance", "entropy")), "ca_df": ca_df.df,
        "ig_lp": ig.log_prob([0.5, 2.0]), "ig_cdf": ig.cdf([0.5, 2.0]),
        "ig": _stats(ig, ("mean", "variance", "mode", "entropy")),
        "igs_lp": igs.log_prob([0.5, 2.0]),
        "hn_lp": hn.log_prob([0.5, 2.0]), "hn_p": hn.prob([[0.5, 2.0]]),
        "hn_cdf": hn.cdf([0.5, 2.0]), "hn_q": hn.quantile([0.3, 0.9]),
        "hn": _stats(hn, ("mean", "variance", "stddev", "entropy", "mode")),
        "ca_lp": ca.log_prob([0.5, 2.0]), "ca_cdf": ca.cdf([0.5, 2.0]),
        "ca_lcdf": ca.log_cdf([0.5, 2.0]), "ca_q": ca.quantile([0.3, 0.9]),
        "ca": _stats(ca, ("entropy", "mode", "mean", "variance")),
        "de_p": de.prob([[1.05, 2.5], [0.8, 2.0]]), "de_cdf": de.cdf([0.95, 1.5]),
        "de_mean": de.mean(), "vd_p": vd.prob([[1.0, 2.0], [0.0, 0.1]]),
        "samples": [po.sample(4, seed=1), ge.sample([2, 3], seed=2), nb.sample(3, seed=3),
                    ig.sample(2, seed=4), hn.sample(5, seed=5), ca.sample(2, seed=6),
                    de.sample(3), vd.sample(2), ch.sample(2, seed=7)],
    }
    return {"vals": _run(tf, out),
            "shapes": [[str(d.batch_shape), str(d.event_shape), d.dtype.name]
                       for d in (po, ge, nb, bi, ch, ig, hn, ca, de, vd)],
            "rep": [repr(d.reparameterization_type) for d in (po, hn, ca)],
            "names": [d.name for d in (po, ch, ig, hn, ca, de)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_mixture_quantized(tf):
    tfd = _lib(tf)
    mix = tfd.Mixture(cat=tfd.Categorical(probs=[[0.2, 0.8], [0.6, 0.4]]),
                      components=[tfd.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0]),
                                  tfd.Laplace(loc=[2.0, -1.0], scale=[0.5, 1.0])],
                      use_static_graph=True)
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
           "qn_cdf": qn.cdf([0.5, 2.0]), "qn_sf": qn.survival_function([0.5, 2.0]),
           "qc_p": qc.prob([-3.0, -2.0, 0.0, 3.0, 4.0]),
           "qc_cdf": qc.cdf([-3.0, -2.0, 0.0, 3.0, 4.0]),
           "qc_lcdf": qc.log_cdf([-2.0, 0.0, 3.0]),
           "qc_lsf": qc.log_survival_function([-3.0, 0.0, 2.0]),
           "samples": [mix.sample(3, seed=1), qn.sample(5, seed=3), qc.sample(6, seed=4)]}
    return {"vals": _run(tf, out),
            "sample_shapes": [mvmix.sample(4, seed=2).shape.as_list()],
            "shapes": [[str(d.batch_shape), str(d.event_shape)] for d in (mix, mvmix, qn, qc)],
            "names": [d.name for d in (mix, qn)]}


def _autoregressive_fn(tf):
    """A fixed autoregressive (shift, log_scale) function: each output depends only on
    the inputs before it (exclusive cumulative sums)."""
    def fn(x):
        prefix = tf.cumsum(x, axis=-1, exclusive=True)
        return 0.3 * prefix + 0.1, 0.2 * tf.tanh(prefix)
    return fn


@tolerance(rtol=1e-4, atol=1e-5)
def case_bijectors_more(tf):
    tfb = _lib(tf).bijectors
    x = tf.constant([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]])
    increasing = tf.constant([[0.5, 1.0, 2.0], [-1.0, 0.2, 0.3]])
    unit = tf.constant([[0.5, 0.1, 0.9], [0.3, 0.2, 0.7]])
    simplex = tf.constant([[0.2, 0.3, 0.5], [0.1, 0.1, 0.8]])
    tril = tf.constant([[[1.0, 0.0], [2.0, 3.0]], [[0.5, 0.0], [-1.0, 2.0]]])
    spd = tf.constant([[[2.0, 0.5], [0.5, 1.0]], [[1.0, 0.2], [0.2, 3.0]]])

    def nvp_fn(x0, units):
        return 0.5 * tf.tile(x0, [1, units]), 0.1 * tf.tile(x0 * x0, [1, units])

    out = {}
    for name, b, fwd_in, inv_in, ndims in (
            ("softmax_centered", tfb.SoftmaxCentered(), x[:, :2], simplex, 1),
            ("cholesky_outer", tfb.CholeskyOuterProduct(), tril, spd, 2),
            ("ordered", tfb.Ordered(), increasing, x, 1),
            ("matrix_inverse_tril", tfb.MatrixInverseTriL(), tril, tril, 2),
            ("kumaraswamy", tfb.Kumaraswamy(concentration1=2.0, concentration0=3.0), unit,
             unit, 0),
            ("sinh_arcsinh", tfb.SinhArcsinh(skewness=0.5, tailweight=2.0), x, x, 0),
            ("maf", tfb.MaskedAutoregressiveFlow(
                shift_and_log_scale_fn=_autoregressive_fn(tf)), x, x, 1),
            ("maf_unrolled", tfb.MaskedAutoregressiveFlow(
                shift_and_log_scale_fn=_autoregressive_fn(tf), unroll_loop=True), x, x, 1),
            ("real_nvp", tfb.RealNVP(num_masked=1, shift_and_log_scale_fn=nvp_fn), x, x, 1)):
        out[name] = {"fwd": b.forward(fwd_in), "inv": b.inverse(inv_in),
                     "ildj": b.inverse_log_det_jacobian(inv_in, event_ndims=ndims)}
        if name != "maf":
            # (The while_loop MAF's forward_log_det_jacobian is left out: run on the
            # recording TF it comes back negated, unlike the unrolled one's.)
            out[name]["fldj"] = b.forward_log_det_jacobian(fwd_in, event_ndims=ndims)
    shapes = [str(tfb.SoftmaxCentered().forward_event_shape(tf.TensorShape([3]))),
              str(tfb.SoftmaxCentered().inverse_event_shape(tf.TensorShape([4])))]
    return {"vals": _run(tf, out), "shapes": shapes}


def case_flow_templates(tf):
    """The MADE / RealNVP template networks: variable names and shapes, and the
    autoregressive structure of the masks (values depend on the initializers' seeds)."""
    tfb = _lib(tf).bijectors
    tf.set_random_seed(1)
    maf = tfb.MaskedAutoregressiveFlow(
        shift_and_log_scale_fn=tfb.masked_autoregressive_default_template(hidden_layers=[4]))
    nvp = tfb.RealNVP(num_masked=2, shift_and_log_scale_fn=tfb.real_nvp_default_template(
        hidden_layers=[5]))
    x = tf.constant([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3]])
    y = maf.forward(x)
    z = nvp.forward(x)
    variables = [(v.name, v.shape.as_list()) for v in tf.global_variables()]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        kernels = sess.run([v for v in tf.global_variables() if "kernel" in v.name][:2])
        back = sess.run([maf.inverse(y * 1.0), nvp.inverse(z * 1.0)])
    return {"variables": variables, "mask_zero": [(k == 0).tolist() for k in kernels],
            "round_trip": [np.round(b, 4) for b in back]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_vector_families(tf):
    tfd = _lib(tf)
    la = tfd.VectorLaplaceDiag(loc=[[1.0, 2.0], [0.0, -1.0]], scale_diag=[[1.0, 2.0],
                                                                          [0.5, 0.3]])
    ex = tfd.VectorExponentialDiag(loc=[1.0, -1.0], scale_diag=[2.0, 0.5])
    sas = tfd.SinhArcsinh(loc=[0.0, 1.0], scale=[1.0, 2.0], skewness=[0.0, 0.5],
                          tailweight=[1.0, 1.5])
    vsas = tfd.VectorSinhArcsinhDiag(loc=[0.0, 1.0], scale_diag=[1.0, 2.0],
                                     skewness=0.5, tailweight=1.5)
    out = {"la_lp": la.log_prob([[0.5, 1.0], [0.0, 0.0]]),
           "la": _stats(la, ("mean", "stddev", "variance", "covariance", "entropy")),
           "ex_lp": ex.log_prob([[2.0, 0.0], [1.5, -0.5]]),
           "ex": _stats(ex, ("mean", "mode", "stddev", "covariance")),
           "sas_lp": sas.log_prob([0.5, 2.0]), "sas_cdf": sas.cdf([0.5, 2.0]),
           "vsas_lp": vsas.log_prob([[0.5, 2.0], [1.0, -1.0]]),
           "vsas_sample": vsas.sample(3, seed=8),
           "samples": [la.sample(3, seed=1), ex.sample(2, seed=2), sas.sample(4, seed=3)]}
    return {"vals": _run(tf, out),
            "shapes": [[str(d.batch_shape), str(d.event_shape)] for d in (la, ex, sas)],
            "names": [d.name for d in (la, ex, sas, vsas)],
            "vsas_shapes": [str(vsas.batch_shape), str(vsas.event_shape)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_percentile_conjugates(tf):
    tfd = _lib(tf)
    pct = tfd.percentile
    x = tf.constant([[3.0, 1.0, 4.0, 1.5, 9.0], [2.0, 6.0, 5.0, 3.5, 8.0]])
    out = {"all": pct(x, 50.0), "lower": pct(x, 30.0, axis=1, interpolation="lower"),
           "higher": pct(x, 30.0, axis=1, interpolation="higher"),
           "nearest": pct(x, 30.0, axis=[1]), "axis0": pct(x, 75.0, axis=0),
           "q0": pct(x, 0.0, axis=-1), "q100": pct(x, 100.0, axis=-1),
           "keep": pct(x, 40.0, axis=1, keep_dims=True), "keep_all": pct(x, 40.0,
                                                                        keep_dims=True),
           "int": pct(tf.constant([5, 1, 9, 3]), 50.0)}
    prior = tfd.Normal(loc=[0.0, 1.0], scale=[1.0, 2.0])
    s = tf.constant([3.0, 4.0])
    post = tfd.normal_conjugates_known_scale_posterior(prior, scale=0.5, s=s, n=4)
    pred = tfd.normal_conjugates_known_scale_predictive(prior, scale=0.5, s=s, n=4)
    out.update(post_loc=post.loc, post_scale=post.scale, pred_loc=pred.loc,
               pred_scale=pred.scale)
    series = tf.constant([[1.0, 2.0, 0.5, -1.0, 3.0, 2.5, 0.0], [0.0, 1.0, 0.0, 1.0, 0.0,
                                                                  1.0, 0.0]])
    out.update(ac=tfd.auto_correlation(series), ac_lags=tfd.auto_correlation(
        series, max_lags=3, center=False, normalize=False),
        ac_axis0=tfd.auto_correlation(tf.transpose(series), axis=0, max_lags=2))
    return {"vals": _run(tf, out), "shapes": [out["keep"].shape.as_list(),
                                              out["keep_all"].shape.as_list()]}


_METHODS = ("mean", "mode", "stddev", "variance", "covariance", "entropy")
_VALUE_METHODS = ("log_prob", "prob", "cdf", "log_cdf", "survival_function",
                  "log_survival_function", "quantile")


def case_method_support(tf):
    """Which methods each distribution implements (TF raises NotImplementedError, or
    another error, for the rest)."""
    tfd = _lib(tf)
    tfb = tfd.bijectors
    dists = {
        "mvn_diag": (tfd.MultivariateNormalDiag(loc=[1.0, 2.0], scale_diag=[1.0, 2.0]),
                     [0.5, 0.5]),
        "mvn_tril": (tfd.MultivariateNormalTriL(loc=[1.0, 2.0],
                                                scale_tril=[[1.0, 0.0], [0.5, 2.0]]),
                     [0.5, 0.5]),
        "onehot": (tfd.OneHotCategorical(logits=[0.1, 0.5, -1.0], dtype=tf.float32),
                   [0.0, 1.0, 0.0]),
        "relaxed": (tfd.RelaxedOneHotCategorical(0.5, logits=[0.1, 0.5, -1.0]),
                    [0.2, 0.3, 0.5]),
        "exp_relaxed": (tfd.ExpRelaxedOneHotCategorical(0.5, logits=[0.1, 0.5, -1.0]),
                        [-1.0, -2.0, -0.6]),
        "relaxed_bernoulli": (tfd.RelaxedBernoulli(0.5, logits=[0.1]), [0.3]),
        "logistic": (tfd.Logistic(0.0, 1.0), 0.3),
        "independent": (tfd.Independent(tfd.Normal([0.0, 1.0], 1.0),
                                        reinterpreted_batch_ndims=1), [0.5, 0.5]),
        "msf": (tfd.MixtureSameFamily(tfd.Categorical(probs=[0.3, 0.7]),
                                      tfd.Normal([0.0, 1.0], 1.0)), 0.3),
        "mixture": (tfd.Mixture(tfd.Categorical(probs=[0.3, 0.7]),
                                [tfd.Normal(0.0, 1.0), tfd.Normal(1.0, 2.0)]), 0.3),
        "quantized": (tfd.QuantizedDistribution(tfd.Normal(0.0, 1.0)), 1.0),
        "transformed": (tfd.TransformedDistribution(tfd.Normal(0.0, 1.0), tfb.Exp()), 0.5),
        "transformed_affine": (tfd.TransformedDistribution(
            tfd.Normal(0.0, 1.0), tfb.AffineScalar(shift=1.0, scale=2.0)), 0.5),
        "poisson": (tfd.Poisson(rate=2.0), 1.0), "geometric": (tfd.Geometric(probs=0.3), 1.0),
        "negative_binomial": (tfd.NegativeBinomial(3.0, probs=0.4), 1.0),
        "binomial": (tfd.Binomial(4.0, probs=0.4), 1.0), "chi2": (tfd.Chi2(3.0), 1.0),
        "inverse_gamma": (tfd.InverseGamma(3.0, 2.0), 1.0),
        "half_normal": (tfd.HalfNormal(2.0), 1.0), "cauchy": (tfd.Cauchy(0.0, 1.0), 1.0),
        "deterministic": (tfd.Deterministic(1.0), 1.0),
        "vector_deterministic": (tfd.VectorDeterministic([1.0, 2.0]), [1.0, 2.0]),
        "vector_laplace": (tfd.VectorLaplaceDiag(loc=[1.0, 2.0], scale_diag=[1.0, 2.0]),
                           [0.5, 0.5]),
        "vector_exponential": (tfd.VectorExponentialDiag(loc=[1.0, 2.0],
                                                         scale_diag=[1.0, 2.0]), [2.5, 2.5]),
        "sinh_arcsinh": (tfd.SinhArcsinh(0.0, 1.0, skewness=0.3), 0.5),
    }
    support = {}
    for name, (d, value) in sorted(dists.items()):
        row = []
        for method in _METHODS:
            try:
                getattr(d, method)()
                row.append("ok")
            except Exception as e:  # noqa: BLE001 - the class is what is compared
                row.append(type(e).__name__)
        for method in _VALUE_METHODS:
            try:
                getattr(d, method)(value)
                row.append("ok")
            except Exception as e:  # noqa: BLE001 - the class is what is compared
                row.append(type(e).__name__)
        support[name] = row
    return support


def case_graph_seeded_mixture(tf):
    """MixtureSameFamily draws without the op seed (TF 1.15): the graph seed decides."""
    tfd = _lib(tf)
    tf.set_random_seed(11)
    gmm = tfd.MixtureSameFamily(tfd.Categorical(probs=[[0.3, 0.7], [0.5, 0.5]]),
                                tfd.Normal(loc=[[-1.0, 1.0], [0.0, 3.0]],
                                           scale=[[0.1, 0.5], [1.0, 2.0]]))
    mix = tfd.Mixture(tfd.Categorical(probs=[0.4, 0.6]),
                      [tfd.Normal(0.0, 1.0), tfd.Normal(5.0, 1.0)], use_static_graph=True)
    return _run(tf, {"gmm": gmm.sample(4, seed=2), "mix": mix.sample(3, seed=7)})


@tolerance(rtol=1e-4, atol=1e-5)
def case_batch_normalization_bijector(tf):
    """The BatchNormalization bijector in a flow: training-mode inverse (batch statistics),
    its moving-average updates, forward with the moving statistics, log-det-Jacobians."""
    tfd = _lib(tf)
    tfb = tfd.bijectors
    bn = tfb.BatchNormalization()
    flow = tfd.TransformedDistribution(distribution=tfd.Normal(0.0, 1.0),
                                       bijector=tfb.Invert(bn), event_shape=[3])
    data = tf.constant([[0.5, -1.0, 2.0], [0.1, 0.2, 0.3], [1.5, 0.0, -0.7],
                        [-0.4, 0.9, 1.1]])
    lp = flow.log_prob(data)
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    y = bn.forward(data)
    fldj = bn.forward_log_det_jacobian(data, event_ndims=1)
    ildj = bn.inverse_log_det_jacobian(data, event_ndims=1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run({"lp": lp, "ildj": ildj})
        sess.run(updates)
        after = sess.run({"y": y, "fldj": fldj, "moving_mean": bn.batchnorm.moving_mean,
                          "moving_variance": bn.batchnorm.moving_variance})
    return {"first": first, "after": after, "n_updates": len(updates),
            "variables": sorted(v.name for v in tf.global_variables())}


@tolerance(rtol=1e-4, atol=1e-4)
def case_wishart(tf):
    tfd = _lib(tf)
    chol = [[1.0, 0.0, 0.0], [0.5, 2.0, 0.0], [-0.3, 0.2, 0.7]]
    wc = tfd.WishartCholesky(df=5.0, scale=chol)
    wf = tfd.WishartFull(df=[4.0, 6.0], scale=[[[2.0, 0.5], [0.5, 1.0]],
                                               [[1.0, 0.2], [0.2, 3.0]]])
    wcc = tfd.WishartCholesky(df=4.0, scale=[[1.0, 0.0], [0.3, 0.5]],
                              cholesky_input_output_matrices=True)
    x3 = [[3.0, 0.5, 0.1], [0.5, 2.0, 0.3], [0.1, 0.3, 1.5]]
    out = {"wc_lp": wc.log_prob(x3), "wc": _stats(wc, ("mean", "mode", "variance", "stddev",
                                                        "entropy")),
           "wc_mld": wc.mean_log_det(), "wc_ln": wc.log_normalization(),
           "wf_lp": wf.log_prob([[[3.0, 0.2], [0.2, 1.0]], [[2.0, 0.1], [0.1, 4.0]]]),
           "wf": _stats(wf, ("mean", "entropy")),
           "wcc_lp": wcc.log_prob([[1.5, 0.0], [0.2, 0.8]]), "wcc_mean": wcc.mean(),
           "samples": [wc.sample(2, seed=3), wf.sample(seed=4), wcc.sample(2, seed=5)]}
    return {"vals": _run(tf, out),
            "shapes": [[str(d.batch_shape), str(d.event_shape)] for d in (wc, wf, wcc)],
            "names": [d.name for d in (wc, wf)]}


@tolerance(rtol=1e-5, atol=1e-5)
def case_autoregressive(tf):
    tfd = _lib(tf)

    def normal_fn(x):
        # Each coordinate's mean depends on the coordinates before it.
        loc = 0.5 * tf.cumsum(x, axis=-1, exclusive=True) + 1.0
        return tfd.Independent(tfd.Normal(loc=loc, scale=0.5), reinterpreted_batch_ndims=1)

    ar = tfd.Autoregressive(normal_fn, sample0=tf.zeros([3]))
    ar2 = tfd.Autoregressive(normal_fn, sample0=tf.zeros([2]), num_steps=1)
    out = {"lp": ar.log_prob([[0.5, 1.0, 2.0], [1.0, 1.5, 2.5]]), "p": ar.prob([1.0, 1.5, 2.0]),
           "sample": ar.sample(2, seed=3), "sample2": ar2.sample(seed=4)}
    return {"vals": _run(tf, out), "num_steps": [ar.num_steps, ar2.num_steps],
            "shapes": [str(ar.batch_shape), str(ar.event_shape)], "name": ar.name}
