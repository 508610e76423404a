"""Eager golden cases: TF 1.15's `tf.contrib.optimizer_v2` under eager execution (oracle:
TF 1.15's package run under TF 2.21, scripts/oracle_contrib.py `tf115_optimizer_v2`).
`minimize(loss_fn)` runs the loss under a GradientTape and applies the update at once;
callable hyper-parameters are called at every step; slots are per variable object."""

import os
import sys

from tests.golden.eager_runner import requires_attr


def _ov2(tf):
    if getattr(tf, "contrib", None) is None:
        # (the oracle: scripts/ holds oracle_contrib, which cases_contrib3 imports)
        sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "..", "scripts"))
    from tests.golden.cases_contrib3 import _ov2 as graph_ov2
    return graph_ov2(tf)


_OPTS = {
    "adam": lambda o, tf: o.AdamOptimizer(lambda: 0.1, beta1=0.8),
    "adagrad": lambda o, tf: o.AdagradOptimizer(0.2, initial_accumulator_value=0.5),
    "adadelta": lambda o, tf: o.AdadeltaOptimizer(1.0, rho=0.9),
    "sgd": lambda o, tf: o.GradientDescentOptimizer(0.05),
    "momentum": lambda o, tf: o.MomentumOptimizer(0.1, 0.9, use_nesterov=True),
    "rmsprop": lambda o, tf: o.RMSPropOptimizer(0.01, momentum=0.5, epsilon=0.1,
                                                centered=True),
}


@requires_attr("contrib.optimizer_v2.OptimizerV2")
def case_minimize_callable_loss(tf):
    o = _ov2(tf)
    out = {}
    for label, make in _OPTS.items():
        opt = make(o, tf)
        w = tf.Variable([1.0, -2.0])
        b = tf.Variable(0.5)
        for _ in range(3):
            opt.minimize(lambda: tf.reduce_sum(w * w) + tf.sin(b), var_list=[w, b])
        out[label] = {"w": w.numpy(), "b": b.numpy(), "slot_names": opt.get_slot_names(),
                      "slots": {n: opt.get_slot(w, n).numpy() for n in opt.get_slot_names()}}
    return out


@requires_attr("contrib.optimizer_v2.OptimizerV2")
def case_callable_learning_rate_each_step(tf):
    """The callable is called at every apply: a decaying rate read from a counter."""
    o = _ov2(tf)
    calls = []

    def learning_rate():
        calls.append(1)
        return 0.1 / len(calls)
    w = tf.Variable([1.0, 2.0])
    opt = o.GradientDescentOptimizer(learning_rate)
    for _ in range(3):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(w * w)
        opt.apply_gradients([(tape.gradient(loss, w), w)])
    return {"calls": len(calls), "w": w.numpy()}


@requires_attr("contrib.optimizer_v2.OptimizerV2")
def case_sparse_eager(tf):
    o = _ov2(tf)
    out = {}
    for label in ("adam", "momentum", "sgd"):
        opt = _OPTS[label](o, tf)
        w = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        for _ in range(2):
            opt.minimize(lambda: tf.reduce_sum(tf.gather(w, [2, 0, 2]) ** 2), var_list=[w])
        out[label] = w.numpy()
    return out
