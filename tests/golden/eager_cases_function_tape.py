"""Eager golden cases: `tf.GradientTape` and `tf.gradients` inside a `tf.function` (the TF
2-style custom training step, which TF 1.14/1.15 code with eager execution enabled uses).
The function is traced to a graph, so the tape inside records graph ops and its
gradients are symbolic tensors of the function's graph; eager variables used inside
are captured as handles, and gradients with respect to them sum their reads.
"""

import numpy as np


def _fitted(tf, opt):
    """Three TF 2-style training steps of a small Keras model with `opt`: the losses,
    the last step's gradients and the trained weights."""
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                              kernel_initializer=tf.keras.initializers.Constant(0.5)),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(model(x) - y))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss, grads

    x = np.arange(6, dtype=np.float32).reshape(2, 3) / 10
    y = np.ones((2, 1), np.float32)
    out = [train_step(x, y) for _ in range(3)]
    return {"losses": [loss.numpy() for loss, _ in out],
            "last_grads": [g.numpy() for g in out[-1][1]],
            "weights": [v.numpy() for v in model.trainable_variables]}


def case_training_step_with_tf_train_optimizer(tf):
    return _fitted(tf, tf.train.GradientDescentOptimizer(0.1))


def case_training_step_with_keras_optimizer(tf):
    return _fitted(tf, tf.keras.optimizers.Adam(0.05))


def case_gradients_of_a_variable_inside_a_function(tf):
    """tf.gradients and a persistent tape inside a function, with respect to an eager
    variable read twice and to the argument."""
    v = tf.Variable([1.0, 2.0])

    @tf.function
    def f(x):
        y = tf.reduce_sum(v * x * x) + tf.reduce_sum(v)
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            z = tf.reduce_sum(v * v * x)
        return tf.gradients(y, [v, x]), tape.gradient(z, [v, x]), tape.gradient(z, x)

    through_gradients, through_tape, x_only = f(tf.constant([3.0, 4.0]))
    return {"gradients": [g.numpy() for g in through_gradients],
            "tape": [g.numpy() for g in through_tape], "tape_x": x_only.numpy()}


def case_inner_tape_under_an_outer_eager_tape(tf):
    """An outer eager tape differentiates a function whose tape took a gradient."""
    x = tf.constant(3.0)

    @tf.function
    def first_derivative(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x ** 3
        return tape.gradient(y, x)

    with tf.GradientTape() as outer:
        outer.watch(x)
        dy = first_derivative(x)
    return [dy.numpy(), outer.gradient(dy, x).numpy()]


def case_minimize_a_loss_callable_inside_a_function(tf):
    """`minimize(loss_fn, var_list)` of tf.train and Keras optimizers in a function (its
    tape in the trace; Adam's beta powers assigned there, grouped with the updates)."""
    w = tf.Variable([1.0, -2.0])
    adam = tf.train.AdamOptimizer(0.1)
    sgd = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        adam.minimize(lambda: tf.reduce_sum(w * w * 3.0), var_list=[w])
        sgd.minimize(lambda: tf.reduce_sum(tf.abs(w)), var_list=[w])
        return w.read_value()

    return [step().numpy() for _ in range(3)]


def case_dataset_loop_inside_a_function(tf):
    """`for batch in dataset:` in a function (TF: AutoGraph's dataset loop; tf1compat,
    without AutoGraph, runs the function eagerly): the same training."""
    w = tf.Variable(1.0)
    ds = tf.data.Dataset.from_tensor_slices(np.arange(5, dtype=np.float32)).batch(2)
    opt = tf.keras.optimizers.SGD(0.05)

    @tf.function
    def epoch(ds):
        total = tf.constant(0.0)
        for batch in ds:
            with tf.GradientTape() as tape:
                loss = tf.reduce_sum((w * batch - 1.0) ** 2)
            opt.apply_gradients([(tape.gradient(loss, w), w)])
            total += loss
        return total

    return [(epoch(ds).numpy(), w.numpy()) for _ in range(2)]
