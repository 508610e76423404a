"""Golden cases: GradientDescent and Momentum updates give TF's float32 bits (compared
exactly). TF's functors round the product `grad * lr` before the difference; a fused
multiply-add rounds once and drifts in the last bit, which a tutorial's printed losses
show after a few epochs (CS20's linear regression on birth/life data).
"""

import numpy as np

from tests.golden.harness import tolerance


def _fed_updates(tf, make_optimizer, variables):
    rng = np.random.RandomState(0)
    grads = [rng.randn(37, 5).astype(np.float32) for _ in range(10)]
    bias_grads = [rng.randn(5).astype(np.float32) for _ in range(10)]
    w = tf.Variable(rng.randn(37, 5).astype(np.float32) * 0.1)
    b = tf.Variable(np.zeros(5, np.float32))
    gw = tf.placeholder(tf.float32, [37, 5])
    gb = tf.placeholder(tf.float32, [5])
    pairs = [(gw, w), (gb, b)][:variables]
    train = make_optimizer().apply_gradients(pairs)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for g, h in zip(grads, bias_grads):
            sess.run(train, {gw: g, gb: h})
        return sess.run([w, b][:variables])


@tolerance(rtol=0, atol=0)
def case_gradient_descent_and_momentum_bits(tf):
    optimizers = {
        "sgd": lambda: tf.train.GradientDescentOptimizer(0.0123),
        "momentum": lambda: tf.train.MomentumOptimizer(0.0123, 0.9),
        "nesterov": lambda: tf.train.MomentumOptimizer(0.0123, 0.9, use_nesterov=True),
        "zero_momentum": lambda: tf.train.MomentumOptimizer(0.0123, 0.0),
    }
    out = {}
    for name, make in optimizers.items():
        for variables in (1, 2):
            with tf.Graph().as_default():
                out[f"{name}_{variables}"] = _fed_updates(tf, make, variables)
    return out


@tolerance(rtol=0, atol=0)
def case_scalar_linear_regression_losses(tf):
    """CS20's 03_linreg_placeholder: w * X + b on one sample a step, squared error,
    GradientDescent(0.001); the epoch losses summed in Python as the script prints them."""
    rng = np.random.RandomState(1)
    xs = rng.uniform(1, 7, 40).astype(np.float32)
    ys = (80 - 4 * xs + rng.randn(40)).astype(np.float32)
    X = tf.placeholder(tf.float32, name="X")
    Y = tf.placeholder(tf.float32, name="Y")
    w = tf.get_variable("weights", initializer=tf.constant(0.0))
    b = tf.get_variable("bias", initializer=tf.constant(0.0))
    loss = tf.square(Y - (w * X + b), name="loss")
    train = tf.train.GradientDescentOptimizer(learning_rate=0.001).minimize(loss)
    epochs = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(8):
            total = 0.0
            for x, y in zip(xs, ys):
                _, value = sess.run([train, loss], {X: x, Y: y})
                total += value
            epochs.append(total / len(xs))
        return {"epochs": epochs, "w_b": sess.run([w, b])}
