"""Golden cases: random_gamma / random_poisson (TF's samplers, bit-exact), the stateless
random ops, tf.random rest."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


def case_random_gamma(tf):
    tf.set_random_seed(7)
    alphas = [0.05, 0.5, 1.0, 1.5, 7.0, 300.0]
    out = {
        "small": tf.random_gamma([3], alphas, seed=1),
        "f64": tf.random_gamma([2, 2], tf.constant(alphas, tf.float64), dtype=tf.float64,
                               seed=2),
        "beta": tf.random_gamma([4], [[1.0], [2.5]], beta=[1.0, 2.0, 3.0], seed=3),
        "half": tf.random_gamma([5], 2.0, dtype=tf.float16, seed=4),
        "many": tf.random_gamma([2000], [0.3, 1.0, 4.0], seed=5),
        "ns": tf.random.gamma([3], 0.9),
    }
    with tf.Session() as sess:
        first = sess.run(out)
        again = sess.run(out["small"])
    many = first.pop("many")
    return {"vals": first, "again": again, "many_head": many[:20],
            "many_mean": many.mean(axis=0), "shapes": {k: describe(v) for k, v in
                                                       sorted(out.items())},
            "types": [out["small"].op.type, out["small"].op.inputs[1].op.inputs[0].op.type]}


@tolerance(rtol=1e-4, atol=1e-5)
def case_random_gamma_grad(tf):
    alpha = tf.constant([0.7, 2.0, 9.0])
    beta = tf.constant([1.0, 0.5, 2.0])
    g = tf.random_gamma([4], alpha, beta=beta, seed=11)
    ga, gb = tf.gradients(tf.reduce_sum(g), [alpha, beta])
    vals = _run(tf, [g, ga, gb])
    return {"vals": vals, "names": [t.name for t in (g, ga, gb)]}


def case_random_poisson(tf):
    tf.set_random_seed(3)
    rates = [0.0, 0.5, 3.0, 9.9, 10.0, 33.0, 1000.0]
    out = {
        "f32": tf.random_poisson(rates, [3], seed=1),
        "i64": tf.random.poisson(tf.constant(rates, tf.float64), [2, 2], dtype=tf.int64,
                                 seed=2),
        "i32": tf.random_poisson([[1.0], [50.0]], [4], dtype=tf.int32, seed=3),
        "many": tf.random_poisson([2.0, 25.0], [3000], seed=4),
    }
    with tf.Session() as sess:
        vals = sess.run(out)
        again = sess.run(out["f32"])
    many = vals.pop("many")
    return {"vals": vals, "again": again, "many_head": many[:25],
            "many_mean": many.mean(axis=0),
            "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "type": out["f32"].op.type}


def case_stateless(tf):
    seed = [7, 17]
    out = {
        "uniform": tf.random.stateless_uniform([3, 2], seed=seed),
        "uniform64": tf.random.stateless_uniform([5], seed=tf.constant([1, 2], tf.int64),
                                                 minval=-2.0, maxval=3.0, dtype=tf.float64),
        "ints": tf.random.stateless_uniform([6], seed=seed, minval=-5, maxval=9,
                                            dtype=tf.int32),
        "ints64": tf.random.stateless_uniform([4], seed=seed, minval=0, maxval=10**12,
                                              dtype=tf.int64),
        "full32": tf.random.stateless_uniform([4], seed=seed, minval=None, maxval=None,
                                              dtype=tf.int32),
        "full64": tf.random.stateless_uniform([3], seed=seed, minval=None, maxval=None,
                                              dtype=tf.int64),
        "normal": tf.random.stateless_normal([7], seed=seed, mean=1.0, stddev=2.0),
        "normal64": tf.random.stateless_normal([3], seed=[0, 0], dtype=tf.float64),
        "trunc": tf.random.stateless_truncated_normal([2, 5], seed=seed),
        "cat": tf.random.stateless_categorical([[0.0, 1.0, -1.0], [2.0, 0.0, 0.0]], 6,
                                               seed=seed),
        "mult": tf.random.stateless_multinomial([[0.0, 3.0]], 4, seed=seed,
                                                output_dtype=tf.int32),
        "gamma": tf.random.stateless_gamma([4, 3], seed=seed, alpha=[0.5, 1.0, 3.0]),
        "gamma_beta": tf.random.stateless_gamma([2, 2], seed=seed, alpha=2.0,
                                                beta=[1.0, 4.0], dtype=tf.float64),
        "poisson": tf.random.stateless_poisson([5, 2], seed=seed, lam=[2.0, 40.0]),
        "poisson_f": tf.random.stateless_poisson([3], seed=seed, lam=4.0, dtype=tf.float32),
    }
    p = tf.placeholder(tf.int32, [2])
    fed = tf.random.stateless_uniform([2], seed=p)
    vals = _run(tf, dict(out, fed=fed), {p: [7, 17]})
    return {"vals": vals, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "types": sorted({t.op.type for t in out.values()}),
            "bad_dtype": catch(lambda: tf.random.stateless_uniform([2], seed=seed,
                                                                   dtype=tf.int16)),
            "half_bounds": catch(lambda: tf.random.stateless_uniform(
                [2], seed=seed, minval=1, dtype=tf.int32)),
            "algorithms": [tf.random.Algorithm.PHILOX.value,
                           tf.random.Algorithm.AUTO_SELECT.value]}


def case_fold_in_split(tf):
    f = tf.random.fold_in([1, 2], 5)
    f64 = tf.random.fold_in(tf.constant([3, 4], tf.int64), tf.constant(9, tf.int64))
    s = tf.random.split([1, 2], 3)
    s2 = tf.random.split(tf.constant([5, 6], tf.int64))
    return {"vals": _run(tf, [f, f64, s, s2]), "shapes": [describe(t) for t in (f, f64, s, s2)]}
