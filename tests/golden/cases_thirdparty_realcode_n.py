"""Golden cases: patterns from cleverhans v3.1.0 (TF1 attacks), restated small.

cleverhans' iterative attacks (ProjectedGradientDescent, BasicIterativeMethod,
MomentumIterativeMethod, SparseL1Descent) call `tf.gradients` inside the body of a
`tf.while_loop`: each step differentiates the loss at the current iterate. tf1compat ran
such a body without recording autograd (the run around the loop holds no gradient op), so
every step's gradient was zero and the attacks returned their inputs unchanged; a
`tf.gradients` inside a `tf.cond` branch did the same.
"""

import numpy as np


def _small_model(tf, rng):
    """A two-layer logits model on fed [None, 6] inputs, weights fixed by `rng`."""
    w1 = tf.Variable(rng.normal(0, 0.5, (6, 5)).astype(np.float32), name="w1")
    b1 = tf.Variable(rng.normal(0, 0.1, (5,)).astype(np.float32), name="b1")
    w2 = tf.Variable(rng.normal(0, 0.5, (5, 4)).astype(np.float32), name="w2")
    return lambda x: tf.matmul(tf.nn.relu(tf.matmul(x, w1) + b1), w2)


def case_cleverhans_pgd_gradient_in_loop_body(tf):
    """ProjectedGradientDescent.generate: a random start in the eps ball (graph-seeded
    uniform), then a `tf.while_loop(back_prop=True, maximum_iterations=)` whose body runs
    FastGradientMethod — `tf.gradients` of the softmax cross-entropy against the model's own
    (stop_gradient'ed) argmax labels with respect to the loop variable, a signed step —
    clips the perturbation to the eps ball and the box: the adversarial inputs and the
    logits on them."""
    tf.set_random_seed(11)
    rng = np.random.RandomState(0)
    logits_fn = _small_model(tf, rng)
    x = tf.placeholder(tf.float32, [None, 6])
    eps, eps_iter = 0.3, 0.07
    probs = tf.nn.softmax(logits_fn(x))
    y = tf.stop_gradient(tf.to_float(tf.equal(probs, tf.reduce_max(probs, 1, keepdims=True))))
    eta = tf.random_uniform(tf.shape(x), -eps, eps, dtype=tf.float32)
    start = tf.clip_by_value(x + tf.clip_by_value(eta, -eps, eps), 0., 1.)

    def body(i, adv):
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=y, logits=logits_fn(adv)))
        grad, = tf.gradients(loss, adv)
        adv = tf.stop_gradient(adv + eps_iter * tf.sign(grad))
        adv = x + tf.clip_by_value(adv - x, -eps, eps)
        return i + 1, tf.clip_by_value(adv, 0., 1.)

    _, adv = tf.while_loop(lambda i, _: tf.less(i, 5), body, (tf.zeros([]), start),
                           back_prop=True, maximum_iterations=5)
    xs = rng.rand(4, 6).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, logits = sess.run([adv, logits_fn(adv)], {x: xs})
        return {"adv": out, "logits": logits, "clean": sess.run(logits_fn(x), {x: xs})}


def case_cleverhans_momentum_iterative_l2(tf):
    """MomentumIterativeMethod with ord=2 and given labels: the loop carries the momentum
    beside the iterate, the body normalizes the gradient by its mean absolute value
    (`tf.maximum(avoid_zero_div, ...)`), accumulates decay * momentum + grad, and steps
    along momentum / its l2 norm, then `clip_eta` projects onto the eps l2 ball
    (sqrt of max(1e-12, sum of squares), factor min(1, eps / norm))."""
    rng = np.random.RandomState(1)
    logits_fn = _small_model(tf, rng)
    x = tf.placeholder(tf.float32, [None, 6])
    y = tf.placeholder(tf.float32, [None, 4])
    eps, eps_iter, decay = 0.8, 0.3, 1.0
    axes = [1]

    def clip_eta(eta):
        norm = tf.sqrt(tf.maximum(1e-12, tf.reduce_sum(tf.square(eta), axes, keepdims=True)))
        return eta * tf.minimum(1., eps / norm)

    def body(i, adv, momentum):
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
            labels=y, logits=logits_fn(adv)))
        grad, = tf.gradients(loss, adv)
        grad = grad / tf.maximum(1e-12, tf.reduce_mean(tf.abs(grad), axes, keepdims=True))
        momentum = decay * momentum + grad
        step = momentum / tf.sqrt(tf.maximum(
            1e-12, tf.reduce_sum(tf.square(momentum), axes, keepdims=True)))
        adv = x + clip_eta(adv + eps_iter * step - x)
        return i + 1, tf.stop_gradient(adv), momentum

    _, adv, momentum = tf.while_loop(lambda i, *_: i < 4, body,
                                     (tf.constant(0), x, tf.zeros_like(x)))
    xs = rng.rand(3, 6).astype(np.float32)
    ys = np.eye(4, dtype=np.float32)[[0, 2, 3]]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out, mom = sess.run([adv, momentum], {x: xs, y: ys})
        return {"adv": out, "momentum": mom}


def case_gradient_in_cond_branch(tf):
    """`tf.gradients` taken inside a `tf.cond` branch (the taken branch differentiates,
    the other passes the input through), fed either way."""
    x = tf.placeholder(tf.float32, [3])
    pick = tf.placeholder(tf.bool, [])
    out = tf.cond(pick, lambda: tf.gradients(tf.reduce_sum(tf.sin(x) * x), x)[0],
                  lambda: x * 2.)
    with tf.Session() as sess:
        return {"taken": sess.run(out, {x: [1., 2., 3.], pick: True}),
                "other": sess.run(out, {x: [1., 2., 3.], pick: False})}
