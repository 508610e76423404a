"""Golden cases: `tf.*` elementwise functions given RaggedTensors (TF 1.15's
ragged_dispatch): unary ops, binary ops on two RaggedTensors with the same splits or a
RaggedTensor and a scalar / uniform inner dimensions, tf.add_n of ragged lists."""

from tests.golden.harness import catch


def _values(tf, out):
    with tf.Session() as sess:
        got = sess.run(out)
    return {k: {"list": v.to_list(), "dtype": out[k].dtype.name,
                "ragged_rank": out[k].ragged_rank} for k, v in got.items()}


def case_unary(tf):
    a = tf.ragged.constant([[1., 4.], [], [9.]])
    i = tf.ragged.constant([[1, -2], [3], []])
    b = tf.ragged.constant([[True, False], [True]])
    out = {"exp": tf.exp(a), "sqrt": tf.math.sqrt(a), "log1p": tf.math.log1p(a),
           "cast": tf.cast(a, tf.int32), "cast_kw": tf.cast(x=i, dtype=tf.float64),
           "neg": tf.negative(i), "abs": tf.abs(i), "sign": tf.sign(i),
           "square": tf.square(a), "round": tf.round(a / 3.), "not": tf.logical_not(b),
           "is_nan": tf.math.is_nan(a), "rsqrt": tf.math.rsqrt(a), "sin": tf.sin(a),
           "to_float": tf.to_float(i), "reciprocal": tf.math.reciprocal(a),
           "saturate": tf.saturate_cast(a, tf.uint8), "floor": tf.floor(a / 2.),
           "ceil": tf.math.ceil(a / 2.), "tanh": tf.tanh(a), "sigmoid": tf.sigmoid(a),
           "nested": tf.exp(tf.ragged.constant([[[0.], []], [[1., 2.]]]))}
    return _values(tf, out)


def case_binary(tf):
    a = tf.ragged.constant([[1., 4.], [], [9.]])
    b = tf.ragged.constant([[2., 2.], [], [3.]])
    i = tf.ragged.constant([[7, -2], [3], []])
    m = tf.ragged.constant([[[1., 2.], [3., 4.]], [[5., 6.]]], ragged_rank=1)
    out = {"add": tf.add(a, b), "add_scalar": tf.add(a, 1.), "radd": tf.add(1., a),
           "sub": tf.subtract(a, b), "mul": tf.multiply(2., a), "div": tf.divide(a, b),
           "truediv_int": tf.truediv(i, 2), "floordiv": tf.math.floordiv(i, 2),
           "floormod": tf.math.floormod(i, 3), "pow": tf.pow(a, b),
           "maximum": tf.maximum(a, 3.), "minimum": tf.minimum(b, a),
           "sqdiff": tf.math.squared_difference(a, b), "div_no_nan": tf.div_no_nan(a, 0.),
           "equal": tf.equal(a, b), "not_equal": tf.not_equal(a, 4.),
           "less": tf.less(a, b), "greater_equal": tf.greater_equal(a, 4.),
           "logical_and": tf.logical_and(tf.less(a, 5.), tf.greater(a, 1.)),
           "atan2": tf.atan2(a, b), "add_inner": tf.add(m, [10., 20.]),
           "mul_kw": tf.multiply(x=a, y=b), "realdiv": tf.realdiv(a, b),
           "add_n": tf.add_n([a, b, a])}
    return _values(tf, out)


def case_binary_errors(tf):
    a = tf.ragged.constant([[1., 4.], [], [9.]])
    c = tf.ragged.constant([[1., 2., 3.], [], []])

    def run(t):
        with tf.Session() as sess:
            return sess.run(t).to_list()
    return {"mismatch": catch(lambda: run(tf.add(a, c))),
            "dtype": catch(lambda: tf.add(a, tf.ragged.constant([[1, 2], [], [3]]))),
            "plain_dense_still_works": catch(lambda: run(tf.RaggedTensor.from_tensor(
                tf.add([[1., 2.]], [[3., 4.]]))))}
