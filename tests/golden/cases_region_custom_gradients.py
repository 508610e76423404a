"""Golden cases: Python gradient functions of ops inside tf.cond branches, while bodies
and dynamic_rnn cells: `gradient_override_map` (to a registered Python function and to
a built-in gradient: the straight-through `Sign` -> `Identity`) and `tf.custom_gradient`
whose gradient uses values of the same iteration. TF calls them when it differentiates
the construct; tf1compat runs their gradient sub-graphs in the region's function with
the iteration's values (autodiff/walk.py `build_region_custom`, grad_mode.py)."""

import itertools

import numpy as np

from tests.golden.harness import tolerance

# Gradient names registered by the cases: unique per run, since a process may run a case
# twice (the checked replay) and TF's registry refuses a name registered before.
_NAMES = itertools.count()

X = np.array([0.3, -0.7, 1.2], np.float32)
W = np.array([0.5, -1.5, 2.0], np.float32)


@tolerance(rtol=1e-6, atol=1e-7)
def case_override_map_in_cond_and_while(tf):
    """An Identity overridden to a registered Python gradient (x3) at the top level, in a
    branch, in a loop body and in a tf.cond in a loop body."""
    triple = f"RegionCustomTriple{next(_NAMES)}"

    @tf.RegisterGradient(triple)
    def _triple(op, grad):
        return grad * 3.0
    x = tf.constant(X, name="x")
    graph = tf.get_default_graph()

    def f():
        with graph.gradient_override_map({"Identity": triple}):
            return tf.reduce_sum(tf.identity(x) * x)
    top = f()
    in_cond = tf.cond(tf.constant(True), f, lambda: 0.0)
    in_while = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a + f()), [0, 0.0])[1]
    cond_in_while = tf.while_loop(
        lambda i, a: i < 3,
        lambda i, a: (i + 1, a + tf.cond(i > 0, f, lambda: tf.reduce_sum(x))), [0, 0.0])[1]
    grads = [tf.gradients(t, x)[0] for t in (top, in_cond, in_while, cond_in_while)]
    with tf.Session() as sess:
        return sess.run(grads)


@tolerance(rtol=1e-6, atol=1e-7)
def case_straight_through_sign_in_loop(tf):
    """The straight-through estimator of binarized recurrent units: Sign's gradient
    overridden to Identity's inside a while body (TF's own gradient of Sign is zero)."""
    x = tf.constant(X)
    w = tf.Variable(W, name="w")
    graph = tf.get_default_graph()

    def body(i, h):
        with graph.gradient_override_map({"Sign": "Identity"}):
            s = tf.sign(h * w + x)
        return i + 1, s * 0.5 + h * 0.25
    out = tf.while_loop(lambda i, h: i < 3, body, [0, tf.zeros([3])])[1]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(tf.gradients(tf.reduce_sum(out), w))


@tolerance(rtol=1e-5, atol=1e-6)
def case_custom_gradient_with_iteration_values(tf):
    """tf.custom_gradient in a loop body whose gradient reads a value computed in the
    same iteration (`e`), and one clipping the incoming gradient with an outside
    constant, in a loop, a branch and a dynamic_rnn cell."""
    x = tf.constant(X)
    w = tf.Variable(W, name="w")
    limit = tf.constant(0.5)

    @tf.custom_gradient
    def log1pexp(v):
        e = tf.exp(v)

        def grad(dy):
            return dy * (1 - 1 / (1 + e)) * 3.0
        return tf.log(1 + e), grad

    @tf.custom_gradient
    def clip_grad(v):
        def grad(dy):
            return tf.clip_by_value(dy, -limit, limit) * 2.0
        return tf.identity(v), grad

    softplus_loop = tf.while_loop(
        lambda i, h: i < 3,
        lambda i, h: (i + 1, log1pexp(h * w + x * tf.cast(i, tf.float32))),
        [0, tf.zeros([3])])[1]
    clip_loop = tf.while_loop(lambda i, h: i < 3,
                              lambda i, h: (i + 1, tf.tanh(clip_grad(h * w + x) * 3.0)),
                              [0, tf.zeros([3])])[1]
    clip_cond = tf.cond(limit > 0, lambda: clip_grad(w * x * 4.0), lambda: w)

    class ClipCell(tf.nn.rnn_cell.RNNCell):
        @property
        def state_size(self):
            return 3

        @property
        def output_size(self):
            return 3

        def __call__(self, inputs, state, scope=None):
            out = clip_grad(inputs * w + state * 0.5)
            return out, out
    seq = tf.constant(np.linspace(-1, 1, 12).reshape(2, 2, 3).astype(np.float32))
    rnn_out, _ = tf.nn.dynamic_rnn(ClipCell(), seq, dtype=tf.float32)
    losses = {"softplus_loop": tf.reduce_sum(softplus_loop),
              "clip_loop": tf.reduce_sum(clip_loop * 5.0),
              "clip_cond": tf.reduce_sum(clip_cond),
              "clip_rnn": tf.reduce_sum(rnn_out * 3.0)}
    grads = {k: tf.gradients(v, w)[0] for k, v in losses.items()}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(grads)


@tolerance(rtol=1e-6, atol=1e-7)
def case_override_map_on_variable_identity(tf):
    """`tf.identity` of a ref variable and of a resource variable under an override map
    to a Python gradient (x2), at the top level and in a loop body: TF calls it (the
    Identity reads the variable's snapshot, not an alias of it)."""
    double = f"RegionCustomDouble{next(_NAMES)}"

    @tf.RegisterGradient(double)
    def _double(op, grad):
        return grad * 2.0
    w = tf.Variable(W, name="w")
    r = tf.get_variable("r", initializer=X, use_resource=True)
    graph = tf.get_default_graph()

    def f(v):
        with graph.gradient_override_map({"Identity": double}):
            y = tf.identity(v)
        return tf.reduce_sum(y * y * x_scale)
    x_scale = tf.constant(X, name="x_scale")
    top = f(w) + f(r)
    in_while = tf.while_loop(lambda i, a: i < 2, lambda i, a: (i + 1, a + f(w) + f(r)),
                             [0, 0.0])[1]
    grads = tf.gradients(top, [w, r]) + tf.gradients(in_while, [w, r])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(grads)
