"""Golden cases: tf.quantization fake_quant_* (values bit-exact, gradients and gradient
ops), quantize_and_dequantize (V2/V4), and the errors of both."""

from tests.golden.harness import catch, describe

_X = [-7.3, -6.0, -0.26, 0.0, 0.1, 0.13, 0.5, 1.0, 2.49, 5.9, 6.1, 7.7, 1e-4, -1e-4, 3.2]


def _run(tf, fetches):
    with tf.Session() as sess:
        return sess.run(fetches)


def case_fake_quant_args(tf):
    x = tf.constant(_X)
    q = tf.quantization
    out = {
        "default": q.fake_quant_with_min_max_args(x),
        "narrow4": q.fake_quant_with_min_max_args(x, min=-1.3, max=2.7, num_bits=4,
                                                  narrow_range=True),
        "positive": tf.fake_quant_with_min_max_args(x, min=0.2, max=2.7, num_bits=3),
        "negative": tf.fake_quant_with_min_max_args(x, min=-3.0, max=-0.5, num_bits=5),
        "bits16": tf.fake_quant_with_min_max_args([0.1, 0.2, -0.3], num_bits=16),
        "grad_op": tf.fake_quant_with_min_max_args_gradient(tf.range(15.), x, min=-1.3,
                                                             max=2.7),
    }
    g = tf.gradients(tf.fake_quant_with_min_max_args(x) * tf.range(15.), x)
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "grad": _run(tf, g), "grad_name": g[0].name,
            "order": catch(run(tf.fake_quant_with_min_max_args(x, min=1.0, max=0.5))),
            "bits": catch(run(tf.fake_quant_with_min_max_args(x, num_bits=1))),
            "int": catch(lambda: tf.fake_quant_with_min_max_args(tf.constant([1])),
                         message=True)}


def case_fake_quant_vars(tf):
    x = tf.constant(_X)
    lo, hi = tf.constant(-1.3), tf.constant(2.7)
    y = tf.fake_quant_with_min_max_vars(x, lo, hi, num_bits=7, narrow_range=True)
    g = tf.gradients(y * tf.range(15.), [x, lo, hi])
    grad_op = tf.fake_quant_with_min_max_vars_gradient(tf.range(15.), x, lo, hi, num_bits=6)
    out = {
        "vars": tf.fake_quant_with_min_max_vars(x, lo, hi),
        "narrow7": y,
        "swapped": tf.fake_quant_with_min_max_vars(x, tf.constant(1.0), tf.constant(0.5)),
        "equal": tf.fake_quant_with_min_max_vars(x, tf.constant(1.0), tf.constant(1.0)),
        "zeros": tf.fake_quant_with_min_max_vars(x, tf.constant(0.0), tf.constant(0.0)),
    }
    zero_grad = tf.gradients(tf.fake_quant_with_min_max_vars(x, tf.constant(0.0),
                                                             tf.constant(0.0)) * 3.0, x)
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "grad": _run(tf, g), "grad_names": [t.name for t in g],
            "grad_op": _run(tf, list(grad_op)), "grad_op_type": type(grad_op).__name__,
            "zero_grad": _run(tf, zero_grad),
            "rank": catch(lambda: tf.fake_quant_with_min_max_vars(x, tf.constant([1.0]),
                                                                  tf.constant(0.5)),
                          message=True)}


def case_fake_quant_per_channel(tf):
    x2 = tf.reshape(tf.constant(_X[:12]), [4, 3])
    lo, hi = tf.constant([-1., 0.5, -3.]), tf.constant([1., 2.7, 0.2])
    y2 = tf.fake_quant_with_min_max_vars_per_channel(x2, lo, hi, num_bits=4)
    g = tf.gradients(y2 * tf.reshape(tf.range(12.), [4, 3]), [x2, lo, hi])
    x4 = tf.reshape(tf.constant(_X[:12] * 2), [2, 2, 3, 2])
    out = {
        "rank2": y2,
        "rank4": tf.fake_quant_with_min_max_vars_per_channel(
            x4, tf.constant([-2., 0.0]), tf.constant([2., 0.0]), narrow_range=True),
        "vector": tf.fake_quant_with_min_max_vars_per_channel(
            tf.constant([0.3, 0.7]), tf.constant([0., 0.]), tf.constant([1., 0.5]),
            num_bits=2),
    }
    grad_op = tf.quantization.fake_quant_with_min_max_vars_per_channel_gradient(
        tf.ones([4, 3]), x2, lo, hi)
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "grad": _run(tf, g), "grad_names": [t.name for t in g],
            "grad_op": _run(tf, list(grad_op)),
            "depth": catch(lambda: tf.fake_quant_with_min_max_vars_per_channel(
                x2, tf.constant([1.0, 2]), tf.constant([1., 2, 3])), message=True)}


def case_quantize_and_dequantize(tf):
    x = tf.constant(_X)
    x2 = tf.reshape(x[:12], [4, 3])
    q = tf.quantization
    out = {
        "observed": q.quantize_and_dequantize(x, -1.0, 1.0),
        "given4": q.quantize_and_dequantize_v2(x, -1.0, 1.0, range_given=True, num_bits=4),
        "half_up": q.quantize_and_dequantize(x, -1.0, 1.0, range_given=True,
                                             round_mode="HALF_UP", narrow_range=True),
        "unsigned": q.quantize_and_dequantize_v2(x, 0.0, 0.0, signed_input=False),
        "channels": q.quantize_and_dequantize_v2(x2, [0.0] * 3, [0.0] * 3, axis=1),
        "float64": q.quantize_and_dequantize_v2(tf.cast(x, tf.float64), -1.0, 1.0),
        "one_bit": q.quantize_and_dequantize(x, -1.0, 1.0, num_bits=1),
        "one_bit_unsigned": q.quantize_and_dequantize(x, -1.0, 1.0, num_bits=1,
                                                      signed_input=False),
        "zeros": q.quantize_and_dequantize_v2(tf.zeros([3]), 0.0, 0.0),
    }
    v2 = q.quantize_and_dequantize(x, -1.0, 1.0, range_given=True)
    v4 = q.quantize_and_dequantize_v2(x, -1.0, 1.0, range_given=True)
    g2 = tf.gradients(v2 * 2.0, x)
    g4 = tf.gradients(v4 * 2.0, x)
    run = lambda t: lambda: _run(tf, t)  # noqa: E731
    return {"vals": _run(tf, out), "shapes": {k: describe(v) for k, v in sorted(out.items())},
            "grads": _run(tf, [g2, g4]), "grad_names": [g2[0].name, g4[0].name],
            "range": catch(run(q.quantize_and_dequantize(x, 1.0, -1.0, range_given=True))),
            "bits": catch(run(q.quantize_and_dequantize(x, -1.0, 1.0, num_bits=70))),
            "channel_range": catch(run(q.quantize_and_dequantize(
                x2, [-1.0, 1.0, 3.], [1.0, 2.0, 2.], axis=1, range_given=True))),
            "channel_rank": catch(lambda: q.quantize_and_dequantize(x2, -1.0, 1.0, axis=1),
                                  message=True),
            "channel_depth": catch(lambda: q.quantize_and_dequantize(
                x2, [-1.0, -1, -1], [1.0, 1, 1], axis=0), message=True),
            "round_mode": catch(lambda: q.quantize_and_dequantize(x, -1.0, 1.0,
                                                                  round_mode="UP"),
                                message=True),
            "half": _half_kernel(tf)}


def _half_kernel(tf):
    """TF has no CPU kernel for half inputs (and fails the whole graph: run apart)."""
    with tf.Graph().as_default():
        out = tf.quantization.quantize_and_dequantize(tf.constant([0.5], tf.float16),
                                                      -1.0, 1.0)
        return catch(lambda: _run(tf, out))
