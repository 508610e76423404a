"""Golden cases: tf.random.Generator (seeded draws bit-exact, state advance, binomial,
make_seeds), create_rng_state, stateless_binomial, stateless_shuffle, index_shuffle,
random_index_shuffle, stateless_parameterized_truncated_normal (bounds and shape only:
its numbers are not TF's)."""

import numpy as np

from tests.golden.harness import catch, describe


def case_generator(tf):
    g = tf.random.Generator.from_seed(42)
    draws = {
        "uniform": g.uniform([3]),
        "normal": g.normal([2, 2], mean=1.0, stddev=0.5),
        "int": g.uniform([4], minval=-3, maxval=10, dtype=tf.int32),
        "int64": g.uniform([2], minval=0, maxval=2 ** 40, dtype=tf.int64),
        "truncated": g.truncated_normal([3], stddev=2.0),
        "full_int64": g.uniform_full_int([2], tf.int64),
        "full_uint32": g.uniform([2], dtype=tf.uint32, minval=None),
        "double": g.uniform([2], dtype=tf.float64),
        "binomial": g.binomial([5, 2], counts=[10., 40.], probs=[0.3, 0.6]),
        "seeds": g.make_seeds(2),
    }
    g2 = tf.random.Generator.from_key_counter(5, [1, 2], "philox")
    g3 = tf.random.Generator.from_state([3, 0, 9], "philox")
    keys = sorted(draws)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = {k: sess.run(draws[k]) for k in keys}     # one at a time: the order matters
        again = sess.run(draws["uniform"])
        state = sess.run(g.state)
        skipped = sess.run(g.skip(3))
        after_skip = sess.run(g.state)
        others = [sess.run(g2.uniform([2])), sess.run(g3.normal([3]))]
        sess.run(g.state.assign(tf.random.create_rng_state(7, "philox")))
        reset = sess.run(g.uniform([2]))
    return {"first": first, "again": again, "state": state, "skipped": skipped,
            "after_skip": after_skip, "others": others, "reset": reset,
            "shapes": {k: describe(draws[k]) for k in keys},
            "variable": [g.state.name, g.state.dtype.name, g.algorithm],
            "reset_returns": g.reset_from_seed(3) is None,
            "split": catch(lambda: g.split(2)),
            "bad_state": catch(lambda: tf.random.Generator.from_state([1, 2], "philox"),
                               message=True),
            "int_bounds": catch(lambda: g.uniform([2], maxval=3, minval=None,
                                                  dtype=tf.int32), message=True)}


def case_rng_state(tf):
    states = {"int": tf.random.create_rng_state(42, "philox"),
              "big": tf.random.create_rng_state(2 ** 70 + 5, 1),
              "vector": tf.random.create_rng_state([7, 8], "philox"),
              "long_vector": tf.random.create_rng_state([1, 2, 3, 4], 3),
              "threefry": tf.random.create_rng_state(7, "threefry")}
    with tf.Session() as sess:
        values = sess.run(states)
    return {"values": values, "shapes": {k: describe(v)["shape"] for k, v in states.items()},
            "alg": catch(lambda: tf.random.create_rng_state(1, "bogus"), message=True)}


def case_stateless_tail(tf):
    out = {
        "binomial": tf.random.stateless_binomial([3, 2], [1, 2], [10., 100.], [0.3, 0.8]),
        "binomial_float": tf.random.stateless_binomial([4], [3, 2], 50., 0.05,
                                                       output_dtype=tf.float32),
        "binomial_edges": tf.random.stateless_binomial([2, 3], [3, 4], [[5.], [200.]],
                                                       [0.5, 0.9, 0.]),
        "shuffle": tf.random.experimental.stateless_shuffle(
            tf.reshape(tf.range(12), [6, 2]), seed=[8, 9]),
        "shuffle_1d": tf.random.experimental.stateless_shuffle(tf.range(7), seed=[1, 1]),
        "index": tf.random.experimental.index_shuffle(tf.range(8), [5, 9], 7),
        "index_big": tf.random.experimental.index_shuffle(
            tf.constant(3, tf.int64), tf.constant([1, 2], tf.int64),
            tf.constant(1000000, tf.int64)),
        "index_raw": tf.random_index_shuffle(tf.constant([0, 1, 2], tf.uint32),
                                             tf.constant([[1, 2, 3]] * 3, tf.uint32),
                                             tf.constant(70000, tf.uint32)),
        "fold_in": tf.random.experimental.stateless_fold_in([1, 2], 7),
        "split": tf.random.experimental.stateless_split([1, 2], 3),
    }
    ptn = tf.random.stateless_parameterized_truncated_normal(
        [4, 500], [1, 2], means=1.0, stddevs=2.0, minvals=0.5, maxvals=6.0)
    with tf.Session() as sess:
        values = sess.run(out)
        sample = sess.run(ptn)
        bad = catch(lambda: sess.run(tf.random.stateless_binomial([3], [1, 2], [1., 2.],
                                                                  0.5)))
        bad_ptn = catch(lambda: sess.run(tf.random.stateless_parameterized_truncated_normal(
            [3], [1, 2], stddevs=-1.0)))
    return {"values": values, "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "ptn": [describe(ptn), bool(sample.min() >= 0.5), bool(sample.max() <= 6.0),
                    bool(abs(float(sample.mean()) - 2.24) < 0.15)],
            "bad_shape": bad, "bad_params": bad_ptn,
            "seed_shape": catch(lambda: tf.random_index_shuffle(
                tf.constant(1, tf.int64), tf.constant([1, 2, 3, 4], tf.int64),
                tf.constant(9, tf.int64)), message=True)}
