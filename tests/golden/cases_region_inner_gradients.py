"""Golden cases: a `tf.gradients` inside a `tf.while_loop` body or a `tf.cond` branch, and
a gradient outside the construct through it (deepmind/learning-to-learn's meta-optimizer:
the optimizee's gradient is taken in the loop body, the meta-loss differentiates the
unrolled loop; found by session realcode-aa).

The outer gradient must reach every op of the body, not only those the inner gradient
differentiates (a body's ops outside the inner gradient's path ran on detached inputs and
the outer gradient came out as zeros), and, where the inner gradient's result is not
stopped, go through it (second order, as TF's graph gradient does).
"""

from tests.golden.harness import tolerance


def _loop(tf, variant):
    b = tf.Variable(0.5, name="b")
    x0 = tf.Variable(1.0, name="x")

    def body(t, x):
        fx = tf.square(x) * b
        g = tf.gradients(fx, x)[0]
        if variant == "stopped":
            g = tf.stop_gradient(g)
        return t + 1, x * 0.9 + b * g + b

    _, xf = tf.while_loop(lambda t, *_: t < 3, body, (0, x0))
    loss = tf.square(xf)
    grads = tf.gradients(loss, [b, x0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run([loss] + grads)


@tolerance(rtol=1e-5)
def case_loop_body_gradient_stopped(tf):
    """The body's gradient under stop_gradient: the outer gradient through the rest."""
    return _loop(tf, "stopped")


@tolerance(rtol=1e-5)
def case_loop_body_gradient_second_order(tf):
    """The body's gradient feeds the next iterate: the outer gradient goes through it."""
    return _loop(tf, "second_order")


@tolerance(rtol=1e-5)
def case_loop_body_gradient_unused_by_the_result(tf):
    """A body whose result does not use its gradient (times zero) and reads the
    differentiated value itself."""
    b = tf.Variable(0.5, name="b")
    x0 = tf.Variable(1.0, name="x")

    def body(t, x):
        fx = tf.square(x) * b
        g = tf.gradients(fx, x)[0]
        return t + 1, x * 0.5 + fx * 0.1 + 0 * g

    _, xf = tf.while_loop(lambda t, *_: t < 3, body, (0, x0))
    grads = tf.gradients(tf.square(xf), [b, x0])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(grads)


@tolerance(rtol=1e-5)
def case_meta_optimizer_unrolled_with_tensor_array(tf):
    """learning-to-learn's shape: the optimizee's loss written to a TensorArray, its
    gradient stopped, the update a function of a meta variable; swap_memory and
    parallel_iterations=1 as the project sets them."""
    b = tf.Variable(0.1, name="b")
    x0 = tf.Variable(1.0, name="x")

    def body(t, ta, x):
        fx = tf.square(x)
        ta = ta.write(t, fx)
        g = tf.stop_gradient(tf.gradients(fx, x)[0])
        return t + 1, ta, x - b * g + 0.01

    ta = tf.TensorArray(tf.float32, size=4, clear_after_read=False)
    _, ta, xf = tf.while_loop(lambda t, *_: t < 3, body, (0, ta, x0),
                              parallel_iterations=1, swap_memory=True)
    meta_loss = tf.reduce_sum(ta.stack()) + tf.square(xf)
    grads = tf.gradients(meta_loss, [b, x0])
    step = tf.train.GradientDescentOptimizer(0.05).minimize(meta_loss, var_list=[b])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run([meta_loss] + grads)
        for _ in range(3):
            sess.run(step)
        return first, sess.run([meta_loss, b])


@tolerance(rtol=1e-5)
def case_cond_branch_gradient(tf):
    """A branch that takes a gradient; the outer gradient through the cond, stopped and
    not."""
    out = {}
    for variant in ("stopped", "second_order"):
        with tf.Graph().as_default():
            b = tf.Variable(0.5, name="b")
            x0 = tf.Variable(1.0, name="x")
            p = tf.placeholder(tf.bool, [])

            def branch():
                fx = tf.square(x0) * b
                g = tf.gradients(fx, x0)[0]
                if variant == "stopped":
                    g = tf.stop_gradient(g)
                return x0 * 0.9 + b * g + fx

            y = tf.cond(p, branch, lambda: x0)
            grads = tf.gradients(tf.square(y), [b, x0])
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out[variant] = [sess.run([y] + grads, {p: v}) for v in (True, False)]
    return out
