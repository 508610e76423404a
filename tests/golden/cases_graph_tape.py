"""Golden cases: `tf.GradientTape` while a graph is built (TF 1.x graph mode, as TF
1.13-1.15 code and TF 2-style training steps under compat.v1 use it).

In graph mode the tape records the ops created while it is active, and `gradient`
returns symbolic tensors: only what the tape saw connects a target to a source (a
tensor computed before the tape does not carry a gradient back to the sources it came
from), an unwatched tensor gets None, trainable resource variables read inside are
watched automatically. TF 2.21 refuses ref variables on a graph-mode tape
(`'RefVariable' object has no attribute '_id'`), so the variables here are resource
variables, as Keras layers and `use_resource=True` make them. (TF's graph-mode tape also
returns None for a gradient through a `tf.while_loop` built inside it; tf1compat gives
the gradient there, tests/test_graph_tape.py.)
"""

import numpy as np

from tests.golden.harness import catch


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def case_tape_records_only_what_it_saw(tf):
    """A tensor computed before the tape: the target depends on the source only through
    it, so that source gets None; the variable read inside still gets its gradient."""
    x = tf.placeholder(tf.float32, [3], name="x")
    v = tf.Variable([1.0, 2.0, 3.0], use_resource=True, name="v")
    before = x * 2.0
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.reduce_sum(x ** 3 * v)
        z = tf.reduce_sum(before * v)
    gy = tape.gradient(y, [x, v])
    gz = tape.gradient(z, [x, v])
    feed = {x: [1.0, 2.0, 3.0]}
    return {"gy": _run(tf, gy, feed), "gz_none": [g is None for g in gz],
            "gz_v": _run(tf, gz[1], feed), "tensor": isinstance(gy[0], tf.Tensor)}


def case_unwatched_sources_and_unconnected(tf):
    """An unwatched placeholder gets None (or zeros); a watched one not on the path too."""
    x = tf.placeholder(tf.float32, [2], name="x")
    w = tf.placeholder(tf.float32, [2], name="w")
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(w)
        y = tf.reduce_sum(x * x)
    none = tape.gradient(y, [x, w])
    zeros = tape.gradient(y, w, unconnected_gradients=tf.UnconnectedGradients.ZERO)
    return {"none": [g is None for g in none],
            "zeros": _run(tf, zeros, {x: [1.0, 2.0], w: [3.0, 4.0]})}


def case_output_gradients_and_stop_recording(tf):
    """output_gradients weights the targets; ops in stop_recording are not recorded."""
    x = tf.placeholder(tf.float32, [2], name="x")
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        with tape.stop_recording():
            hidden = x * 10.0
        z = y + hidden
    weighted = tape.gradient(y, x, output_gradients=tf.constant([1.0, 0.5]))
    through = tape.gradient(z, x)
    return _run(tf, [weighted, through], {x: [3.0, 4.0]})


def case_nested_tapes_second_order(tf):
    """A gradient taken inside an outer tape is recorded by it: d2(x^3)/dx2 = 6x."""
    x = tf.placeholder(tf.float32, [], name="x")
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x ** 3
        dy = inner.gradient(y, x)
    d2y = outer.gradient(dy, x)
    return _run(tf, [dy, d2y], {x: 3.0})


def case_keras_model_training_step(tf):
    """A TF 2-style training step built once in graph mode: tape over a Keras model,
    apply_gradients of a tf.train optimizer, run three times."""
    tf.set_random_seed(1)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(4, activation="relu", input_shape=(3,),
                              kernel_initializer=tf.keras.initializers.Constant(0.5)),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) / 10)
    y = tf.ones((2, 1))
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean(tf.square(model(x) - y))
    grads = tape.gradient(loss, model.trainable_variables)
    train = tf.train.GradientDescentOptimizer(0.1).apply_gradients(
        zip(grads, model.trainable_variables))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([loss, train])[0] for _ in range(3)]
        return {"losses": losses, "weights": sess.run(model.trainable_variables),
                "watched": [v.name for v in tape.watched_variables()]}


def case_watch_accessed_variables_off(tf):
    """watch_accessed_variables=False: only what is watched explicitly."""
    v = tf.Variable(3.0, use_resource=True, name="v")
    u = tf.Variable(4.0, use_resource=True, name="u")
    with tf.GradientTape(watch_accessed_variables=False, persistent=True) as tape:
        tape.watch(u)
        y = v * u * u
    grads = tape.gradient(y, [v, u])
    return {"none": [g is None for g in grads], "u": _run(tf, grads[1]),
            "watched": [w.name for w in tape.watched_variables()]}


def case_non_persistent_tape_used_twice(tf):
    """A second gradient call on a non-persistent tape raises RuntimeError."""
    x = tf.placeholder(tf.float32, [], name="x")
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    tape.gradient(y, x)
    return catch(lambda: tape.gradient(y, x))


def case_jacobian_in_graph_mode(tf):
    """tape.jacobian / batch_jacobian build graph tensors of TF's shapes."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = tf.sin(x) * tf.reduce_sum(x, axis=1, keepdims=True)
    jac = tape.jacobian(y, x)
    batch = tape.batch_jacobian(y, x)
    values = _run(tf, [jac, batch], {x: np.arange(6, dtype=np.float32).reshape(2, 3) / 5})
    return {"shapes": [jac.shape.as_list(), batch.shape.as_list()], "values": values}



def case_gradient_penalty_trained_through_the_tape(tf):
    """WGAN-GP's penalty from a tape's gradient, then `minimize` of a loss holding it:
    the optimizer's gradient goes through the tape's (second order)."""
    init = tf.keras.initializers.RandomNormal
    critic = tf.keras.Sequential([
        tf.keras.layers.Dense(8, activation="tanh", input_shape=(4,),
                              kernel_initializer=init(seed=1)),
        tf.keras.layers.Dense(1, kernel_initializer=init(seed=2))])
    real = tf.placeholder(tf.float32, [None, 4])
    fake = tf.placeholder(tf.float32, [None, 4])
    eps = tf.placeholder(tf.float32, [None, 1])
    interp = eps * real + (1 - eps) * fake
    with tf.GradientTape() as tape:
        tape.watch(interp)
        critic_interp = critic(interp)
    grads = tape.gradient(critic_interp, interp)
    penalty = tf.reduce_mean((tf.norm(grads, axis=1) - 1.0) ** 2)
    loss = tf.reduce_mean(critic(fake)) - tf.reduce_mean(critic(real)) + 10.0 * penalty
    train = tf.train.AdamOptimizer(1e-2).minimize(loss, var_list=critic.trainable_variables)
    rng = np.random.RandomState(0)
    feed = {real: rng.randn(8, 4), fake: rng.randn(8, 4), eps: rng.rand(8, 1)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [sess.run([loss, penalty, train], feed)[:2] for _ in range(3)]
