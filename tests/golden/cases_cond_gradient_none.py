"""Golden cases: which `tf.gradients` of a `tf.cond` are None. TF's cond gradient flows
through Merge and Switch into each branch's ops, so a tensor that a branch reaches only
through `stop_gradient`, an assign or a control dependency gets None, and a train op over
`tf.global_variables()` makes no optimizer slots for such variables (facenet's
`compute_gradients(loss, tf.global_variables())` with batch norm in a cond)."""

import numpy as np


def _none_mask(grads):
    return [g is None for g in grads]


def case_cond_stop_gradient_assign_and_control_deps(tf):
    x = tf.placeholder(tf.float32, [3])
    v = tf.Variable(tf.ones([3]), name="v")
    w = tf.Variable(tf.fill([3], 2.0), name="w")
    p = tf.placeholder(tf.bool)
    stopped = tf.cond(p, lambda: x * 2.0, lambda: tf.stop_gradient(v) * x)
    plain = tf.cond(p, lambda: x * 2.0, lambda: x * w)

    def assigning():
        a = tf.assign_sub(v, (v - x) * 0.1)
        with tf.control_dependencies([a]):
            return tf.identity(plain)
    assigned = tf.cond(p, assigning, lambda: plain)
    grads = {
        "stopped": tf.gradients(tf.reduce_sum(stopped), [v, x]),
        "plain": tf.gradients(tf.reduce_sum(plain), [v, w, x]),
        "assigned": tf.gradients(tf.reduce_sum(assigned), [v, w, x]),
    }
    feed = {x: np.array([1.0, 2.0, 3.0], np.float32), p: False}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = {}
        for key, gs in grads.items():
            out[key + "_none"] = _none_mask(gs)
            out[key] = sess.run([g for g in gs if g is not None], feed)
        return out


def case_nested_cond_and_case_gradients(tf):
    x = tf.placeholder(tf.float32, [])
    a = tf.Variable(1.5, name="a")
    b = tf.Variable(-0.5, name="b")
    p = tf.placeholder(tf.bool)
    inner = lambda: tf.cond(x > 0, lambda: tf.stop_gradient(a) * x, lambda: b * x)  # noqa
    nested = tf.cond(p, inner, lambda: x * 3.0)
    index = tf.placeholder(tf.int32, [])
    cased = tf.case([(tf.equal(index, 0), lambda: a * x), (tf.equal(index, 1),
                                                           lambda: tf.stop_gradient(b) + x)],
                    default=lambda: x * x)
    g_nested = tf.gradients(nested, [a, b, x])
    g_case = tf.gradients(cased, [a, b, x])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        feed = {x: 2.0, p: True, index: 1}
        return {"nested_none": _none_mask(g_nested), "case_none": _none_mask(g_case),
                "nested": sess.run([g for g in g_nested if g is not None], feed),
                "case": sess.run([g for g in g_case if g is not None], feed)}


def case_batch_norm_in_cond_over_global_variables(tf):
    tf.set_random_seed(1)
    x = tf.placeholder(tf.float32, [4, 3])
    training = tf.placeholder(tf.bool, [])
    h = tf.layers.dense(x, 5, use_bias=False, name="dense")
    h = tf.layers.batch_normalization(h, training=training, name="bn")
    loss = tf.reduce_mean(tf.square(h))
    opt = tf.train.AdamOptimizer(0.1)
    grads_and_vars = opt.compute_gradients(loss, tf.global_variables())
    none_for = sorted(v.op.name for g, v in grads_and_vars if g is None)
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        train = opt.apply_gradients([(g, v) for g, v in grads_and_vars if g is not None])
    feed = {x: np.arange(12, dtype=np.float32).reshape(4, 3) / 10.0, training: True}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        # (Later losses are left out: at beta = 0 the exact gradient of beta is 0 and
        # Adam turns its rounding noise into full steps.)
        first = sess.run([loss, train], feed)[0]
        return {"none_for": none_for, "first_loss": first,
                "variables": sorted(v.op.name for v in tf.global_variables())}
