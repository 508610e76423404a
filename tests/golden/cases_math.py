"""Golden cases: elementwise math, dtype rules, comparisons, casts, matmul, reductions."""

import numpy as np

from tests.golden.harness import catch, describe, tolerance

F = np.array([[-2.5, -1.0, -0.5], [0.0, 0.5, 1.5]], dtype=np.float32)
I = np.array([[-7, -3, 0], [2, 5, 9]], dtype=np.int32)
POS = np.array([[0.25, 1.0, 2.0], [3.0, 4.5, 10.0]], dtype=np.float32)
UNIT = np.array([[-0.9, -0.5, 0.0], [0.1, 0.5, 0.9]], dtype=np.float32)


def _run(tf, tensors):
    with tf.Session() as sess:
        return sess.run(tensors)


def case_dtype_inference(tf):
    vals = {
        "int": tf.constant(1), "big_int": tf.constant(2 ** 40), "float": tf.constant(1.5),
        "bool": tf.constant(True), "str": tf.constant("x"), "mixed": tf.constant([1, 2.5]),
        "np64": tf.constant(np.float64(1)), "np_i64": tf.constant(np.array([1], np.int64)),
        "uint64": tf.constant(2 ** 63), "list_str": tf.constant(["a", b"b"]),
        "complex": tf.constant(1 + 2j), "empty": tf.constant([]),
    }
    return {k: describe(v) for k, v in vals.items()}


def case_constant_errors(tf):
    return {
        "float_to_int": catch(lambda: tf.constant(1.5, dtype=tf.int32), message=True),
        "none": catch(lambda: tf.constant(None), message=True),
        "ragged": catch(lambda: tf.constant([[1, 2], [3]])),
        "too_many": catch(lambda: tf.constant([1, 2, 3, 4, 5, 6, 7], shape=[2, 3]),
                          message=True),
        "str_to_float": catch(lambda: tf.constant("a", dtype=tf.float32)),
        "float_to_str": catch(lambda: tf.constant(1.0, dtype=tf.string), message=True),
    }


def case_constant_shapes(tf):
    a = tf.constant(1, shape=[2, 3])
    b = tf.constant([1, 2, 3, 4, 5, 6], shape=[2, 3])
    c = tf.constant([1, 2, 3, 4, 5], shape=[2, 3])
    d = tf.constant(np.array([1.5, 2.5]), dtype=tf.int32)
    e = tf.constant(-1, dtype=tf.uint8)
    return _run(tf, [a, b, c, d, e])


def case_binary_dtype_rules(tf):
    i = tf.constant(1)
    f = tf.constant(1.5)
    return {
        "int_plus_float_tensor": catch(lambda: i + f, message=True),
        "int_plus_pyfloat": catch(lambda: i + 1.5, message=True),
        "float_plus_int": describe(f + 1),
        "int_plus_int": describe(i + 2),
        "radd": describe(1 + f),
        "np_scalar": describe(f + np.float64(2)),
        "np_array": describe(f + np.array([2, 3])),
        "list": describe(tf.constant([1.5]) + [2, 3]),
        "tf_add_mismatch": catch(lambda: tf.add(i, f), message=True),
        "truediv_int32": describe(i / 2),
        "truediv_int8": describe(tf.constant(1, tf.int8) / tf.constant(2, tf.int8)),
        "truediv_int64": describe(tf.constant(1, tf.int64) / 2),
        "floordiv_int": describe(i // 2),
        "div_legacy_int": describe(tf.div(tf.constant(7), 2)),
        "string_add": describe(tf.constant("a") + "b"),
        "bool_mul": describe(tf.constant(True) * tf.constant(False)),
        "str_minus": catch(lambda: tf.constant("a") - "b"),
    }


@tolerance(rtol=2e-6, atol=1e-6)
def case_unary_float_values(tf):
    x = tf.constant(F)
    p = tf.constant(POS)
    u = tf.constant(UNIT)
    ops = {
        "abs": tf.abs(x), "neg": tf.negative(x), "sign": tf.sign(x), "square": tf.square(x),
        "sqrt": tf.sqrt(p), "rsqrt": tf.rsqrt(p), "exp": tf.exp(x), "expm1": tf.expm1(x),
        "log": tf.log(p), "log1p": tf.log1p(p), "sin": tf.sin(x), "cos": tf.cos(x),
        "tan": tf.tan(u), "asin": tf.asin(u), "acos": tf.acos(u), "atan": tf.atan(x),
        "sinh": tf.sinh(x), "cosh": tf.cosh(x), "tanh": tf.tanh(x), "sigmoid": tf.sigmoid(x),
        "erf": tf.erf(x), "erfc": tf.erfc(x), "floor": tf.floor(x), "ceil": tf.ceil(x),
        "round": tf.round(x), "rint": tf.rint(x), "reciprocal": tf.reciprocal(p),
        "lgamma": tf.lgamma(p), "digamma": tf.digamma(p), "is_nan": tf.is_nan(x / x),
        "is_inf": tf.is_inf(x / 0.0), "is_finite": tf.is_finite(x / 0.0),
        "asinh": tf.asinh(x), "atanh": tf.atanh(u),
    }
    out = _run(tf, ops)
    out["names"] = {k: v.name for k, v in ops.items()}
    return out


def case_unary_int_values(tf):
    i = tf.constant(I)
    return _run(tf, {"abs": tf.abs(i), "neg": -i, "sign": tf.sign(i), "square": tf.square(i),
                     "round": tf.round(i), "reciprocal": tf.reciprocal(tf.constant([1, 2, -1]))})


def case_binary_values(tf):
    a = tf.constant(F)
    b = tf.constant(np.array([[1.5, -2.0, 0.75]], dtype=np.float32))
    i = tf.constant(I)
    j = tf.constant(np.array([2, -3, 4], dtype=np.int32))
    ops = {
        "add": a + b, "sub": a - b, "mul": a * b, "div": a / b, "floordiv": a // b,
        "mod": a % b, "pow": tf.pow(tf.abs(a), b), "max": tf.maximum(a, b),
        "min": tf.minimum(a, b), "sqdiff": tf.squared_difference(a, b),
        "atan2": tf.atan2(a, b), "truncatediv": tf.truncatediv(i, j),
        "truncatemod": tf.truncatemod(i, j), "floordiv_i": i // j, "mod_i": i % j,
        "floormod": tf.floormod(i, j), "realdiv": tf.realdiv(a, b), "div_i": tf.div(i, j),
        "div_f": tf.div(a, b), "divide": tf.divide(a, b), "truediv_i": i / j,
        "pow_i": tf.pow(tf.abs(i), 2), "div_no_nan": tf.div_no_nan(a, a * 0.0 + b),
        "scalar_mul": tf.scalar_mul(2.0, a), "add_n": tf.add_n([a, a, a]),
        "logxor": tf.logical_xor(a > 0, b > 0), "and": (a > 0) & (b > 0),
    }
    return _run(tf, ops)


def case_comparisons(tf):
    a = tf.constant(F)
    b = tf.constant(0.5)
    s = tf.constant(["a", "b", "c"])
    ops = {"lt": a < b, "le": a <= b, "gt": a > b, "ge": a >= b, "eq": tf.equal(a, b),
           "ne": tf.not_equal(a, b), "str_eq": tf.equal(s, "b"), "str_ne": tf.not_equal(s, "b"),
           "bool_eq": tf.equal(a > 0, True)}
    out = _run(tf, ops)
    out["types"] = {k: v.op.type for k, v in ops.items()}
    out["bad"] = catch(lambda: tf.less(s, "b"))
    return out


def case_broadcast_errors(tf):
    a = tf.placeholder(tf.float32, [2, 3])
    b = tf.placeholder(tf.float32, [4])
    c = tf.placeholder(tf.float32, [None, 1])
    d = tf.placeholder(tf.float32, None)
    return {"bad": catch(lambda: a + b), "unknown": describe(a + c),
            "unknown2": describe(c * b), "norank": describe(a + d),
            "scalar": describe(a + 1.0)}


def case_cast(tf):
    x = tf.constant([-1.7, -0.5, 0.0, 0.5, 1.7, 2.5])
    ops = {"i32": tf.cast(x, tf.int32), "u8": tf.cast(tf.constant([0, 255, 3]), tf.uint8),
           "b": tf.cast(x, tf.bool), "f64": tf.cast(x, tf.float64),
           "from_b": tf.cast(tf.constant([True, False]), tf.float32),
           "to_float": tf.to_float(tf.constant([1, 2])), "to_int64": tf.to_int64(x),
           "f16": tf.cast(x, tf.float16), "saturate": tf.saturate_cast(
               tf.constant([-300.0, 300.0, 3.0]), tf.uint8)}
    out = _run(tf, ops)
    out["same_is_input"] = tf.cast(x, tf.float32) is x
    out["names"] = {k: v.name for k, v in ops.items()}
    return out


def case_matmul(tf):
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    batch = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4))
    ops = {"mm": tf.matmul(a, b), "ta": tf.matmul(a, a, transpose_a=True),
           "tb": tf.matmul(a, a, transpose_b=True), "batch": tf.matmul(batch, b[:, :3],
                                                                       transpose_b=True),
           "int": tf.matmul(tf.constant([[1, 2]]), tf.constant([[3], [4]])),
           "at": a @ tf.transpose(a)}
    out = _run(tf, ops)
    out["types"] = {k: v.op.type for k, v in ops.items()}
    out["shapes"] = {k: describe(v) for k, v in ops.items()}
    out["bad_inner"] = catch(lambda: tf.matmul(a, a))
    out["bad_rank"] = catch(lambda: tf.matmul(a, tf.constant([1.0, 2.0])))
    ph = tf.placeholder(tf.float32, [None, 3])
    out["unknown"] = describe(tf.matmul(ph, b))
    return out


def case_einsum_tensordot(tf):
    a = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    b = tf.constant(np.arange(12, dtype=np.float32).reshape(3, 4))
    ops = {"ein_mm": tf.einsum("ij,jk->ik", a, b), "ein_t": tf.einsum("ij->ji", a),
           "ein_sum": tf.einsum("ij->", a), "td1": tf.tensordot(a, b, 1),
           "td_axes": tf.tensordot(a, b, [[1], [0]]), "td0": tf.tensordot(a, a, 0)}
    out = _run(tf, ops)
    out["shapes"] = {k: describe(v)["shape"] for k, v in ops.items()}
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_reductions(tf):
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7.0)
    i = tf.constant(np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 11)
    b = tf.constant([[True, False], [True, True]])
    ops = {
        "sum": tf.reduce_sum(x), "sum0": tf.reduce_sum(x, 0), "sum_neg": tf.reduce_sum(x, -1),
        "sum_keep": tf.reduce_sum(x, [0, 2], keepdims=True),
        "sum_keep_dims": tf.reduce_sum(x, axis=1, keep_dims=True),
        "sum_ri": tf.reduce_sum(x, reduction_indices=[1]), "mean": tf.reduce_mean(x, 1),
        "mean_int": tf.reduce_mean(i, 2), "max": tf.reduce_max(x, [1, 2]),
        "min": tf.reduce_min(i), "prod": tf.reduce_prod(x[:, :, :2] + 1.0, [0, 2]),
        "all": tf.reduce_all(b, 1), "any": tf.reduce_any(b, 0),
        "lse": tf.reduce_logsumexp(x, 1), "lse_all": tf.reduce_logsumexp(x),
        "argmax": tf.argmax(x, 1), "argmin": tf.argmin(i, axis=2, output_type=tf.int32),
        "argmax_default": tf.argmax(tf.constant([3, 1, 3, 2])),
        "cumsum": tf.cumsum(x, 2), "cumsum_ex": tf.cumsum(x, 1, exclusive=True),
        "cumsum_rev": tf.cumsum(x, 2, reverse=True),
        "cumprod": tf.cumprod(x[0] + 1.0, 1, exclusive=True, reverse=True),
        "cumsum_ex_empty": tf.cumsum(tf.zeros([0, 3]), exclusive=True),
        "cumprod_ex_empty": tf.cumprod(tf.zeros([2, 0]), 1, exclusive=True, reverse=True),
        "count_nonzero": tf.count_nonzero(i, 1), "sum_empty_axes": tf.reduce_sum(x, []),
    }
    out = _run(tf, ops)
    out["shapes"] = {k: describe(v) for k, v in ops.items()}
    out["bad_axis"] = catch(lambda: tf.reduce_sum(x, 3))
    ph = tf.placeholder(tf.float32, [None, 3])
    axis = tf.placeholder(tf.int32)
    out["dyn_axis"] = describe(tf.reduce_sum(ph, axis))
    out["dyn_axis_keep"] = describe(tf.reduce_sum(ph, axis, keepdims=True))
    out["ph_all"] = describe(tf.reduce_max(ph))
    return out


def case_segments_and_clip(tf):
    data = tf.constant([[1., 2.], [3., 4.], [5., 6.], [7., 8.]])
    ids = tf.constant([0, 0, 1, 3])
    ops = {"seg_sum": tf.segment_sum(data, ids), "seg_mean": tf.segment_mean(data, ids),
           "seg_max": tf.segment_max(data, ids),
           "useg_sum": tf.unsorted_segment_sum(data, tf.constant([2, 0, 2, 1]), 4),
           "useg_max": tf.unsorted_segment_max(data, tf.constant([2, 0, 2, 1]), 4),
           "clip_v": tf.clip_by_value(data, 2.5, 6.0),
           "clip_n": tf.clip_by_norm(data, 5.0), "clip_n_axes": tf.clip_by_norm(data, 5.0, [1])}
    out = _run(tf, ops)
    out["names"] = {k: v.name for k, v in ops.items()}
    return out
