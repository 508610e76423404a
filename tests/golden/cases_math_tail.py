"""Golden cases: special functions (incomplete gamma/beta, zeta, polygamma, Bessel,
erfinv/ndtri, Dawson, Ei, Fresnel, Spence), complex/angle and the tf.math rest."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance

POS = np.array([0.05, 0.5, 1.0, 2.5, 7.0, 30.0], np.float64)
REALS = np.array([-12.0, -3.5, -1.0, -0.2, 0.1, 0.7, 1.9, 2.1, 4.0, 9.5, 40.0], np.float64)


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def _both(tf, fn, values):
    """fn at float64 and float32 inputs (TF's kernels at both precisions)."""
    return [fn(tf.constant(values)), fn(tf.constant(values.astype(np.float32)))]


@tolerance(rtol=2e-5, atol=1e-6)
def case_incomplete_gamma_beta(tf):
    a = tf.constant(POS)
    x = tf.constant(POS[::-1].copy())
    out = {
        "igamma": tf.igamma(a, x), "igammac": tf.math.igammac(a, x),
        "igamma32": tf.igamma(tf.cast(a, tf.float32), tf.cast(x, tf.float32)),
        "betainc": tf.betainc(a, x, tf.constant([0.0, 0.1, 0.35, 0.5, 0.9, 1.0], tf.float64)),
        "betainc_bc": tf.math.betainc(2.0, 3.0, tf.constant([0.2, 0.7])),
        "lbeta": tf.lbeta([[1.0, 2.0, 3.0], [0.5, 0.5, 4.0]]),
        "lbeta_empty": tf.lbeta(tf.zeros([2, 0])),
        "zeta": tf.zeta(a + 1.0, x), "polygamma": tf.polygamma(tf.constant(
            [0.0, 1.0, 2.0, 3.0, 1.5, -1.0], tf.float64), a),
    }
    ga, gx = tf.gradients(tf.reduce_sum(out["igamma"]), [a, x])
    gbx = tf.gradients(tf.reduce_sum(tf.betainc(2.0, 3.0, tf.constant([0.2, 0.7]))),
                       tf.constant([0.0]))
    vals = _run(tf, dict(out, ga=ga, gx=gx))
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "types": [out[k].op.type for k in ("igamma", "igammac", "betainc", "zeta",
                                                "polygamma")],
            "ints": catch(lambda: tf.igamma([1, 2], [1, 2])), "gbx": repr(gbx)}


@tolerance(rtol=2e-5, atol=1e-6)
def case_bessel_erfinv(tf):
    fns = {
        "i0": tf.math.bessel_i0, "i0e": tf.math.bessel_i0e, "i1": tf.math.bessel_i1,
        "i1e": tf.math.bessel_i1e, "j0": tf.math.special.bessel_j0,
        "j1": tf.math.special.bessel_j1, "k0e": tf.math.special.bessel_k0e,
        "k1e": tf.math.special.bessel_k1e,
    }
    out = {k: _both(tf, f, REALS) for k, f in fns.items()}
    pos = {"k0": tf.math.special.bessel_k0, "k1": tf.math.special.bessel_k1,
           "y0": tf.math.special.bessel_y0, "y1": tf.math.special.bessel_y1}
    out.update({k: _both(tf, f, POS) for k, f in pos.items()})
    probs = np.array([1e-6, 0.01, 0.3, 0.5, 0.77, 0.999], np.float64)
    out["erfinv"] = _both(tf, tf.math.erfinv, 2 * probs - 1)
    out["ndtri"] = _both(tf, tf.math.ndtri, probs)
    out["erfcinv"] = _both(tf, tf.math.erfcinv, 2 * probs)
    out["half"] = [tf.math.bessel_i0(tf.constant([0.5, 2.0], tf.float16))]
    vals = _run(tf, out)
    i0 = tf.constant([0.5, 2.0])
    g = tf.gradients(tf.reduce_sum(tf.math.bessel_i0(i0) + tf.math.erfinv(i0 / 4)), i0)[0]
    return {"vals": vals, "grad": _run(tf, g),
            "names": [t.name for t in (out["i0"][0], out["ndtri"][0], out["erfcinv"][0],
                                       out["j0"][0])]}


@tolerance(rtol=1e-5, atol=1e-6)
def case_series_specials(tf):
    out = {
        "dawsn": _both(tf, tf.math.special.dawsn, REALS),
        "expint": _both(tf, tf.math.special.expint, REALS),
        "fresnel_cos": _both(tf, tf.math.special.fresnel_cos, REALS),
        "fresnel_sin": _both(tf, tf.math.special.fresnel_sin, REALS),
        "spence": _both(tf, tf.math.special.spence, np.array([0.0, 0.3, 1.0, 2.5, 9.0, -1.0])),
    }
    x = tf.constant([0.3, 1.2, 3.0])
    g = tf.gradients(tf.reduce_sum(tf.math.special.dawsn(x) + tf.math.special.expint(x) +
                                   tf.math.special.fresnel_sin(x) +
                                   tf.math.special.fresnel_cos(x)), x)[0]
    return {"vals": _run(tf, out), "grad": _run(tf, g),
            "names": [out[k][0].name for k in sorted(out)]}


def case_complex_angle(tf):
    re = tf.constant([1.0, -2.0, 0.0])
    im = tf.constant([0.5, 0.0, -3.0])
    c = tf.complex(re, im)
    c64 = tf.complex(tf.constant([1.0], tf.float64), tf.constant([[2.0], [3.0]], tf.float64))
    out = {"c": c, "angle": tf.angle(c), "angle_real": tf.angle(re),
           "m_angle": tf.math.angle(c64), "real": tf.real(c), "imag": tf.imag(c64)}
    vals = _run(tf, out)
    vals = {k: np.asarray(v, np.complex128) if np.iscomplexobj(v) else v
            for k, v in vals.items()}
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "mixed": catch(lambda: tf.complex(re, tf.constant([1.0], tf.float64)),
                           message=True),
            "ints": catch(lambda: tf.complex(1, 2), message=True)}


def case_math_rest(tf):
    x = tf.constant([[0.0, 1.0, -2.0], [3.0, 0.5, 0.0]])
    out = {
        "xlog1py": tf.math.xlog1py(x, tf.constant([[2.0, -0.5, 1.0], [0.0, 1.0, -1.0]])),
        "nextafter": tf.math.nextafter(tf.constant([1.0, 0.0]), tf.constant([2.0, -1.0])),
        "nextafter64": tf.math.nextafter(tf.constant([1.0], tf.float64), 0.0),
        "cls": tf.math.cumulative_logsumexp(x, axis=1),
        "cls_ex": tf.math.cumulative_logsumexp(x, axis=0, exclusive=True),
        "cls_rev": tf.math.cumulative_logsumexp(x, axis=1, reverse=True, exclusive=True),
        "rnn": tf.math.reciprocal_no_nan(x), "dnn": tf.math.divide_no_nan(x, x),
        "ren": tf.math.reduce_euclidean_norm(x), "ren1": tf.math.reduce_euclidean_norm(
            x, axis=1, keepdims=True),
        "polyval": tf.math.polyval([1.0, -2.0, 3.0], x), "polyval0": tf.math.polyval([], x),
        "polyval_t": tf.math.polyval([tf.constant(2.0), 1.0], x),
        "softmax": tf.math.softmax(x), "log_softmax": tf.math.log_softmax(x, axis=0),
        "softplus": tf.math.softplus(x), "softsign": tf.math.softsign(x),
        "log_sigmoid": tf.math.log_sigmoid(x), "l2n": tf.math.l2_normalize(x, axis=1),
        "zf": tf.math.zero_fraction(x), "invperm": tf.math.invert_permutation([1, 0]),
    }
    vals = _run(tf, out)
    g = tf.gradients(tf.reduce_sum(out["cls"]) + tf.reduce_sum(out["ren1"]), x)[0]
    return {"vals": vals, "grad": _run(tf, g),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "topk": _approx_top_k(tf),
            "polyval_bad": catch(lambda: tf.math.polyval((1.0,), x), message=True)}


def _approx_top_k(tf):
    with tf.Graph().as_default():
        x = tf.constant([[0.0, 1.0, -2.0], [3.0, 0.5, 0.0]])
        vmax, imax = tf.math.approx_max_k(x, 2)
        vmin, imin = tf.math.approx_min_k(x, 1, reduction_dimension=0)
        return {"shapes": [describe(t) for t in (vmax, imax, vmin, imin)],
                "run": catch(lambda: _run(tf, vmax))}


def case_sobol_sample(tf):
    dim = tf.placeholder(tf.int32, [])
    out = {"small": tf.math.sobol_sample(3, 5),
           "skip64": tf.math.sobol_sample(50, 4, skip=7, dtype=tf.float64),
           "wide": tf.math.sobol_sample(1111, 3, skip=100),
           "fed": tf.math.sobol_sample(dim, 2)}
    vals = _run(tf, out, {dim: 4})
    bad = {f"{a}": catch(lambda a=a: _run(tf, tf.math.sobol_sample(*a)))
           for a in [(0, 2), (21201, 1), (2, 0), (2, 3, -1), (1, 1, 2 ** 31 - 1)]}
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "max_dim": describe(tf.math.sobol_sample(21200, 1)), "bad": bad,
            "rank": catch(lambda: tf.math.sobol_sample([2], 3), message=True),
            "dtype": catch(lambda: tf.math.sobol_sample(2, 3, dtype=tf.int32), message=True),
            "grad": catch(lambda: tf.gradients(out["small"], [])),
            "unregistered": catch(lambda: tf.gradients(
                out["small"] * tf.constant(1.0), [tf.constant(1.0)]))}
