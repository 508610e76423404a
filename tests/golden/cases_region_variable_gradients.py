"""Golden cases: `tf.gradients` inside tf.cond branches and while bodies with respect to
variables read from outside the construct (ref and resource variables). TF passes the
variable's value in through a Switch/Enter and differentiates with respect to it; in
tf1compat the region's run makes the variable an autograd leaf of its own
(runtime/session_state.RegionView) over the run's value, so a gradient outside still
reaches the variable through the region. Both gave zeros before (a silent wrong answer)."""

import numpy as np

from tests.golden.harness import tolerance

X = np.array([1.0, 2.0, 3.0], np.float32)
W = np.array([1.0, 2.0, 3.0], np.float32)
R = np.array([0.5, -1.0, 2.0], np.float32)


def _variables(tf):
    w = tf.Variable(W, name="w")
    r = tf.get_variable("r", initializer=R, use_resource=True)
    return w, r


@tolerance(rtol=1e-6, atol=1e-6)
def case_gradient_in_cond_branch_of_variables(tf):
    """d loss/d w and d loss/d r in a branch, the loss computed in the branch; the
    branch not taken; the gradient of a sum of them outside (second order through the
    branch)."""
    x = tf.placeholder(tf.float32, [3], name="x")
    p = tf.placeholder(tf.bool, [], name="p")
    w, r = _variables(tf)

    def taken():
        g_w, g_r = tf.gradients(tf.reduce_sum(tf.sin(x * w) * r * w), [w, r])
        return g_w + 2.0 * g_r
    g = tf.cond(p, taken, lambda: w * r)
    gg = tf.gradients(tf.reduce_sum(g * g), [w, r])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [sess.run([g] + gg, {x: X, p: flag}) for flag in (True, False)]


@tolerance(rtol=1e-6, atol=1e-6)
def case_gradient_in_loop_body_of_variables(tf):
    """Each iteration adds the gradient of its loss with respect to both variables (a
    meta-learning inner step's pattern)."""
    x = tf.placeholder(tf.float32, [3], name="x")
    w, r = _variables(tf)

    def body(i, a):
        g_w, g_r = tf.gradients(tf.reduce_sum(tf.sin(x * w * a) * r), [w, r])
        return i + 1, a + 0.1 * g_w + g_r
    out = tf.while_loop(lambda i, a: i < 3, body, [0, tf.ones([3])])[1]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(out, {x: X})
