"""Golden cases: TF runs kernels with denormal floats flushed to zero (FTZ and DAZ), in
its executor's threads only: a product below float32's smallest normal is 0, a denormal
input counts as 0, a copy keeps the bits, and numpy between runs keeps IEEE denormals."""

import numpy as np

from tests.golden.harness import tolerance

DENORMAL = np.float32(1e-40)


@tolerance(rtol=0.0, atol=0.0)
def case_denormal_products_flushed(tf):
    a = tf.placeholder(tf.float32, [])
    b = tf.placeholder(tf.float32, [])
    v = tf.Variable(np.float32(1e-30))
    shrink = v.assign(v * 1e-9)
    out = {
        "underflow": a * b,
        "denormal_times_one": a * 1.0,
        "denormal_plus_zero": a + 0.0,
        "identity_keeps_bits": tf.identity(a),
        "sum": tf.reduce_sum(a * tf.ones([1000])),
        "matmul": tf.matmul(tf.fill([2, 2], a), tf.ones([2, 2])),
    }
    with tf.Session() as sess:
        sess.run(v.initializer)
        vals = sess.run(out, {a: DENORMAL, b: np.float32(0.01)})
        vals["underflow_normal_inputs"] = sess.run(a * b, {a: np.float32(1e-38),
                                                           b: np.float32(0.01)})
        vals["assign"] = sess.run(shrink)
    vals["numpy_after_run"] = float(DENORMAL * np.float32(1.0))
    return vals


@tolerance(rtol=0.0, atol=0.0)
def case_denormals_flushed_in_large_kernels(tf):
    # Large enough to run on every intra-op thread: each thread's part is flushed.
    x = tf.fill([1 << 18], tf.constant(DENORMAL))
    y = tf.placeholder(tf.float32, [1 << 18])
    with tf.Session() as sess:
        product, total = sess.run([x * 1.0, y * 3.0],
                                  {y: np.full(1 << 18, DENORMAL, np.float32)})
    return {"nonzero_product": int(np.count_nonzero(product)),
            "nonzero_fed_product": int(np.count_nonzero(total))}


@tolerance(rtol=0.0, atol=0.0)
def case_adam_first_moment_never_denormal(tf):
    # A unit whose gradient is zero from the second step: Adam's m decays by beta1 each
    # step, and would pass through the denormal range (where every update of it costs
    # about ten times as much) without flushing. TF's m + (g - m) * (1 - beta1) stops at
    # 1.08e-37, where m * 0.1 is denormal; torch's fused kernel, m * beta1 + g * (1 -
    # beta1), goes on to zero (a documented rounding difference): neither is denormal.
    w = tf.Variable(np.float32(1e-30))
    step = tf.Variable(0.0)
    loss = tf.where(step < 1.0, w * w, w * 0.0)
    opt = tf.train.AdamOptimizer(0.1)
    train = opt.minimize(loss)
    with tf.control_dependencies([train]):
        tick = step.assign_add(1.0)
    m = opt.get_slot(w, "m")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ms = []
        for _ in range(1000):
            sess.run(tick)
            ms.append(sess.run(m))
    ms = np.array(ms, np.float32)
    tiny = np.finfo(np.float32).tiny
    return {"denormal_values": int(np.count_nonzero((ms != 0) & (np.abs(ms) < tiny))),
            "decayed_below_1e-36": bool(ms[-1] < 1e-36)}
