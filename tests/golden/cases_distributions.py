"""Golden cases: tf.distributions (TF 1.x) — statistics, densities, CDFs, seeded samples,
KL divergences, shapes and names."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _stats(d, names):
    out = {}
    for name in names:
        try:
            out[name] = getattr(d, name)()
        except NotImplementedError as e:
            out[name] = str(e)
    return out


def _split(values):
    """Separates tensors (to run) from recorded strings."""
    tensors = {k: v for k, v in values.items() if not isinstance(v, str)}
    text = {k: v for k, v in values.items() if isinstance(v, str)}
    return tensors, text


STATS = ("mean", "variance", "stddev", "entropy", "mode")


@tolerance(rtol=1e-5, atol=1e-5)
def case_normal_uniform_laplace(tf):
    tfd = tf.distributions
    n = tfd.Normal(loc=[0.0, 1.0, -2.0], scale=[1.0, 0.5, 3.0])
    u = tfd.Uniform(low=[-1.0, 0.0], high=[1.0, 4.0])
    la = tfd.Laplace(loc=0.5, scale=[1.0, 2.0])
    x = tf.constant([[-1.5, 0.2, 3.0], [0.0, 1.0, -2.0]])
    xu = tf.constant([[-2.0, 1.0], [0.5, 3.9]])
    out = {
        "n": _stats(n, STATS), "u": _stats(u, ("mean", "variance", "stddev", "entropy")),
        "la": _stats(la, STATS),
        "n_lp": n.log_prob(x), "n_p": n.prob(x), "n_cdf": n.cdf(x), "n_lcdf": n.log_cdf(x),
        "n_sf": n.survival_function(x), "n_lsf": n.log_survival_function(x),
        "n_far": n.log_cdf([-30.0, -12.0, 9.0]), "n_q": n.quantile([0.1, 0.5, 0.99]),
        "u_p": u.prob(xu), "u_lp": u.log_prob(xu), "u_cdf": u.cdf(xu),
        "la_lp": la.log_prob([[0.0, 1.0]]), "la_cdf": la.cdf([[-1.0, 3.0]]),
        "la_lcdf": la.log_cdf([[-1.0, 3.0]]), "la_lsf": la.log_survival_function([[-1.0, 3.0]]),
    }
    tensors = {k: (v if not isinstance(v, dict) else _split(v)[0]) for k, v in out.items()}
    return {"vals": _run(tf, tensors),
            "shapes": [str(d.batch_shape) + str(d.event_shape) for d in (n, u, la)],
            "names": [n.name, u.name, la.name, out["n_lp"].name, out["n_cdf"].name,
                      out["u_cdf"].name, out["n"]["mean"].name],
            "str": [str(n), repr(u)],
            "rep": [repr(n.reparameterization_type), n.allow_nan_stats, n.validate_args,
                    n.dtype.name, sorted(n.parameters)]}


@tolerance(rtol=1e-4, atol=1e-5)
def case_gamma_beta_studentt(tf):
    tfd = tf.distributions
    g = tfd.Gamma(concentration=[0.5, 2.0, 5.0], rate=[1.0, 0.5, 2.0])
    e = tfd.Exponential(rate=[0.5, 3.0])
    b = tfd.Beta(concentration1=[0.8, 2.0, 5.0], concentration0=[1.5, 2.0, 0.7])
    t = tfd.StudentT(df=[0.8, 1.5, 3.0], loc=[0.0, 1.0, -1.0], scale=[1.0, 2.0, 0.5])
    out = {
        "g": _stats(g, STATS), "e": _stats(e, STATS), "b": _stats(b, STATS),
        "t": _stats(t, STATS),
        "g_lp": g.log_prob([0.5, 1.5, 3.0]), "g_cdf": g.cdf([0.5, 1.5, 3.0]),
        "e_lp": e.log_prob([[0.1, 2.0]]), "e_cdf": e.cdf([[0.1, 2.0]]),
        "e_lsf": e.log_survival_function([[0.1, 2.0]]),
        "b_lp": b.log_prob([0.2, 0.5, 0.9]), "b_cdf": b.cdf([0.2, 0.5, 0.9]),
        "t_lp": t.log_prob([0.3, -1.0, 2.0]), "t_cdf": t.cdf([0.3, -1.0, 2.0]),
    }
    tensors = {k: (v if not isinstance(v, dict) else _split(v)[0]) for k, v in out.items()}
    strict = tfd.Gamma(concentration=[0.5], rate=[1.0], allow_nan_stats=False)
    return {"vals": _run(tf, tensors),
            "mode_strict": catch(lambda: _run(tf, strict.mode())),
            "names": [g.name, e.name, b.name, t.name, out["e_lp"].name],
            "reparam": [repr(d.reparameterization_type) for d in (g, e, b, t)]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_discrete(tf):
    tfd = tf.distributions
    be = tfd.Bernoulli(probs=[0.2, 0.7])
    bl = tfd.Bernoulli(logits=[[-1.0, 2.0]], dtype=tf.float32)
    c = tfd.Categorical(logits=[[0.0, 1.0, -1.0], [2.0, 0.5, 0.5]])
    cp = tfd.Categorical(probs=[0.1, 0.6, 0.3], dtype=tf.int64)
    m = tfd.Multinomial(total_count=[4.0, 6.0], probs=[[0.2, 0.3, 0.5], [0.6, 0.2, 0.2]])
    di = tfd.Dirichlet(concentration=[[1.5, 2.0, 0.5], [3.0, 3.0, 3.0]])
    dm = tfd.DirichletMultinomial(total_count=5.0, concentration=[1.0, 2.0, 3.0])
    out = {
        "be": _stats(be, ("mean", "variance", "stddev", "entropy", "mode")),
        "bl": _stats(bl, ("mean", "entropy", "mode")),
        "c": _stats(c, ("entropy", "mode")), "cp": _stats(cp, ("entropy", "mode")),
        "m": _stats(m, ("mean", "variance", "covariance")),
        "di": _stats(di, ("mean", "variance", "covariance", "entropy")),
        "di_mode": tfd.Dirichlet(concentration=[1.5, 2.0, 1.2]).mode(),
        "dm": _stats(dm, ("mean", "variance", "covariance")),
        "be_lp": be.log_prob([[1, 0], [0, 0]]), "bl_p": bl.prob([1.0, 0.0]),
        "c_lp": c.log_prob([2, 0]), "c_lp_b": c.log_prob([[1], [2]]), "c_cdf": c.cdf([1, 3]),
        "c_probs": c.probs, "cp_logits": cp.logits, "be_logits": be.logits,
        "m_lp": m.log_prob([[1.0, 1.0, 2.0], [3.0, 2.0, 1.0]]),
        "di_lp": di.log_prob([0.2, 0.3, 0.5]), "dm_lp": dm.log_prob([1.0, 2.0, 2.0]),
    }
    tensors = {k: (v if not isinstance(v, dict) else _split(v)[0]) for k, v in out.items()}
    return {"vals": _run(tf, tensors),
            "shapes": [str(d.batch_shape) + str(d.event_shape)
                       for d in (be, bl, c, cp, m, di, dm)],
            "dtypes": [d.dtype.name for d in (be, bl, c, cp, m, di, dm)],
            "event_size": _run(tf, c.event_size),
            "both": catch(lambda: tfd.Bernoulli(logits=[0.0], probs=[0.5]), message=True),
            # TF's Dirichlet.mode compares a batch-shaped mask with event-shaped modes.
            "batched_mode": catch(lambda: di.mode())}


def case_samples(tf):
    tfd = tf.distributions
    tf.set_random_seed(11)
    dists = {
        "normal": tfd.Normal(loc=[0.0, 10.0], scale=[1.0, 0.1]),
        "uniform": tfd.Uniform(low=-1.0, high=[1.0, 3.0]),
        "laplace": tfd.Laplace(loc=1.0, scale=2.0),
        "gamma": tfd.Gamma(concentration=[0.5, 3.0], rate=2.0),
        "exponential": tfd.Exponential(rate=[1.0, 5.0]),
        "beta": tfd.Beta(concentration1=2.0, concentration0=[1.0, 4.0]),
        "student": tfd.StudentT(df=3.0, loc=0.0, scale=[1.0, 2.0]),
        "bernoulli": tfd.Bernoulli(probs=[0.3, 0.9]),
        "categorical": tfd.Categorical(logits=[[0.0, 1.0, 2.0], [1.0, 1.0, -5.0]]),
        "dirichlet": tfd.Dirichlet(concentration=[1.0, 2.0, 0.5]),
        "multinomial": tfd.Multinomial(total_count=[3.0, 5.0], logits=[0.0, 1.0]),
        "dirmult": tfd.DirichletMultinomial(total_count=4.0, concentration=[1.0, 1.0, 2.0]),
    }
    samples = {k: d.sample(3, seed=i + 1) for i, (k, d) in enumerate(dists.items())}
    samples["shaped"] = dists["normal"].sample([2, 2], seed=7)
    samples["scalar"] = dists["laplace"].sample(seed=8)
    vals = _run(tf, samples)
    # Multinomial draws inside map_fn: TF's while loop runs iterations in parallel, so which
    # iteration gets which part of the op's random stream depends on its scheduling.
    vals["multinomial"] = vals["multinomial"].sum(axis=-1)
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(samples.items())}}


@tolerance(rtol=1e-5, atol=1e-6)
def case_kl(tf):
    tfd = tf.distributions
    pairs = {
        "normal": (tfd.Normal(0.0, 1.0), tfd.Normal([1.0, -1.0], [2.0, 0.5])),
        "bernoulli": (tfd.Bernoulli(probs=0.3), tfd.Bernoulli(logits=[0.0, 2.0])),
        "categorical": (tfd.Categorical(logits=[0.0, 1.0, 2.0]),
                        tfd.Categorical(probs=[0.2, 0.3, 0.5])),
        "gamma": (tfd.Gamma(2.0, 1.0), tfd.Gamma([1.0, 3.0], 2.0)),
        "exp_gamma": (tfd.Exponential(1.5), tfd.Gamma(2.0, 1.0)),
        "beta": (tfd.Beta(2.0, 3.0), tfd.Beta([1.0, 5.0], 2.0)),
        "dirichlet": (tfd.Dirichlet([1.0, 2.0, 3.0]), tfd.Dirichlet([2.0, 2.0, 2.0])),
    }
    kls = {k: tfd.kl_divergence(a, b) for k, (a, b) in pairs.items()}
    kls["method"] = pairs["normal"][0].kl_divergence(pairs["normal"][1])
    kls["cross"] = pairs["normal"][0].cross_entropy(pairs["normal"][1])
    kls["strict"] = tfd.kl_divergence(pairs["beta"][0], pairs["beta"][1],
                                      allow_nan_stats=False)

    class MyNormal(tfd.Normal):
        pass

    kls["subclass"] = tfd.kl_divergence(MyNormal(0.0, 1.0), tfd.Normal(1.0, 1.0))
    return {"vals": _run(tf, kls), "names": {k: v.name for k, v in sorted(kls.items())},
            "missing": catch(lambda: tfd.kl_divergence(tfd.Normal(0.0, 1.0),
                                                       tfd.Uniform()), message=True),
            "twice": catch(lambda: tfd.RegisterKL(tfd.Normal, tfd.Normal)(lambda a, b: a))}


def case_shapes_and_params(tf):
    tfd = tf.distributions
    p = tf.placeholder(tf.float32, [None, 3])
    n = tfd.Normal(loc=p, scale=1.0)
    c = tfd.Categorical(logits=p)
    s = n.sample(4, seed=1)
    return {"batch": [str(n.batch_shape), str(c.batch_shape), str(c.event_shape)],
            "sample": describe(s),
            "bst": _run(tf, [n.batch_shape_tensor(), c.batch_shape_tensor(),
                             n.event_shape_tensor()], {p: np.zeros((2, 3), np.float32)}),
            "scalar": _run(tf, [n.is_scalar_event(), n.is_scalar_batch()],
                           {p: np.zeros((2, 3), np.float32)}),
            "param_shapes": {k: str(v) for k, v in sorted(
                tfd.Normal.param_static_shapes([5, 2]).items())},
            "copy": tfd.Normal(0.0, 1.0).copy(scale=2.0).parameters["scale"],
            "constants": [repr(tfd.FULLY_REPARAMETERIZED), repr(tfd.NOT_REPARAMETERIZED)]}
