"""Golden cases: while loops of 0-d values (run on numpy scalars, ops/scalar_loops.py),
compared exactly: float rounding, integer wrap-around, NaN and infinity as TF's."""

import numpy as np

from tests.golden.harness import tolerance


@tolerance(rtol=0.0, atol=0.0)
def case_float32_accumulator_1000_iterations(tf):
    n = tf.placeholder(tf.int32, [])
    i, acc = tf.while_loop(lambda i, a: i < n, lambda i, a: (i + 1, a * 0.999 + 1.0),
                           (tf.constant(0), tf.constant(0.0)))
    with tf.Session() as sess:
        return {"1000": sess.run([i, acc], {n: 1000}), "0": sess.run([i, acc], {n: 0}),
                "7": sess.run([i, acc], {n: 7})}


@tolerance(rtol=0.0, atol=0.0)
def case_float64_and_int64_with_captured_placeholders(tf):
    x = tf.placeholder(tf.float64, [])
    step = tf.placeholder(tf.int64, [])
    out = tf.while_loop(lambda i, a, b: i < 500,
                        lambda i, a, b: (i + step, a - b * x, b * 1.0001 + x),
                        (tf.constant(0, tf.int64), tf.constant(1.0, tf.float64),
                         tf.constant(0.5, tf.float64)))
    with tf.Session() as sess:
        return sess.run(out, {x: 0.1, step: 3})


@tolerance(rtol=0.0, atol=0.0)
def case_int32_wraps_around(tf):
    out = tf.while_loop(lambda i, a, b: i < 40,
                        lambda i, a, b: (i + 1, a * 3 + 7, -(b - 2147483000)),
                        (tf.constant(0), tf.constant(1), tf.constant(5)))
    with tf.Session() as sess:
        return sess.run(out)


@tolerance(rtol=0.0, atol=0.0)
def case_bool_conditions_and_maximum_iterations(tf):
    limit = tf.placeholder(tf.float32, [])

    def cond(i, a, flag):
        return tf.logical_and(tf.logical_or(a <= limit, tf.equal(i, 3)),
                              tf.logical_not(tf.not_equal(flag, flag)))

    def body(i, a, flag):
        return tf.identity(i) + 1, a * 1.5 + 0.25, tf.logical_not(tf.identity(flag))
    out = tf.while_loop(cond, body, (tf.constant(0), tf.constant(1.0), tf.constant(True)),
                        maximum_iterations=9)
    with tf.Session() as sess:
        return {"large": sess.run(out, {limit: 1e6}), "small": sess.run(out, {limit: 5.0})}


@tolerance(rtol=0.0, atol=0.0)
def case_float32_overflow_nan_and_comparisons(tf):
    out = tf.while_loop(lambda i, a, b: tf.greater_equal(40, i),
                        lambda i, a, b: (i + 1, a * 1e10, a - a * 2.0 + b),
                        (tf.constant(0), tf.constant(3.0), tf.constant(np.float32(0.1))))
    with tf.Session() as sess:
        return sess.run(out)
