"""Golden cases: `tf.contrib.layers.optimize_loss` / `adaptive_clipping_fn`. TF 2.x has no
contrib: the oracle is TF 1.15's optimizers.py run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_package`): variable and summary names, losses over
training steps for each optimizer name, clipping, multipliers, decay, errors."""

import numpy as np

from tests.golden.harness import catch


def _layers(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers
    import oracle_contrib
    return oracle_contrib.tf115_package(
        "contrib.layers.python.layers", ["optimizers"],
        stubs={"tensorflow.contrib.framework": {"assert_scalar": tf.debugging.assert_scalar}})


def _model(tf):
    rng = np.random.RandomState(0)
    x = tf.constant(rng.randn(16, 3).astype(np.float32))
    y = tf.constant(rng.randn(16, 1).astype(np.float32))
    w = tf.get_variable("w", [3, 1], initializer=tf.constant_initializer([[0.5], [-1.], [2.]]))
    b = tf.get_variable("b", [1], initializer=tf.zeros_initializer())
    return tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y)), w, b


def _train(tf, steps=4, **kwargs):
    layers = _layers(tf)
    with tf.Graph().as_default() as g:
        loss, w, b = _model(tf)
        gs = tf.train.get_or_create_global_step()
        train = layers.optimize_loss(loss, gs, **kwargs)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            losses = [sess.run(train) for _ in range(steps)]
            return {"losses": losses, "w": sess.run(w), "step": sess.run(gs),
                    "train": train.name,
                    "variables": sorted(v.name for v in tf.global_variables()),
                    "summaries": [t.name for t in g.get_collection(tf.GraphKeys.SUMMARIES)]}


def case_optimize_loss_by_name(tf):
    return {name: _train(tf, learning_rate=0.05, optimizer=name)
            for name in ("SGD", "Adam", "Adagrad", "Momentum", "RMSProp", "Ftrl")}


def case_optimize_loss_options(tf):
    def decay(lr, step):
        return tf.train.exponential_decay(lr, step, 2, 0.5)
    return {
        "clip": _train(tf, learning_rate=0.5, optimizer="SGD", clip_gradients=0.1,
                       summaries=["loss", "gradients", "gradient_norm",
                                  "global_gradient_norm", "learning_rate"]),
        "multipliers": _train(tf, learning_rate=0.1, optimizer="SGD",
                              gradient_multipliers={"w:0": 0.0}),
        "decay": _train(tf, learning_rate=0.2, optimizer=tf.train.GradientDescentOptimizer,
                        learning_rate_decay_fn=decay),
        "instance": _train(tf, learning_rate=None,
                           optimizer=tf.train.GradientDescentOptimizer(0.1),
                           increment_global_step=False, name="Opt"),
        "factory": _train(tf, learning_rate=0.1,
                          optimizer=lambda lr: tf.train.MomentumOptimizer(lr, 0.5)),
        "tensor_lr": _train(tf, learning_rate=tf.constant(0.1), optimizer="SGD"),
        "adaptive": _train(tf, steps=6, learning_rate=0.5, optimizer="SGD",
                           clip_gradients=_layers(tf).adaptive_clipping_fn(
                               decay=0.5, static_max_norm=2.0, report_summary=True)),
    }


def case_optimize_loss_errors(tf):
    layers = _layers(tf)
    out = {}
    with tf.Graph().as_default():
        loss, _, _ = _model(tf)
        gs = tf.train.get_or_create_global_step()
        probes = {
            "bad_name": lambda: layers.optimize_loss(loss, gs, 0.1, "Nope"),
            "bad_summary": lambda: layers.optimize_loss(loss, gs, 0.1, "SGD",
                                                        summaries=["weights"]),
            "no_lr_for_name": lambda: layers.optimize_loss(loss, gs, None, "SGD"),
            "bad_lr": lambda: layers.optimize_loss(loss, gs, 1, "SGD"),
            "bad_optimizer": lambda: layers.optimize_loss(loss, gs, 0.1, 3),
            "bad_clip": lambda: layers.optimize_loss(loss, gs, 0.1, "SGD", clip_gradients=1),
            "vector_loss": lambda: layers.optimize_loss(tf.ones([2]), gs, 0.1, "SGD"),
        }
        for key, fn in probes.items():
            out[key] = catch(fn, message=key not in ("vector_loss",))
    return out
