"""Golden cases: TF 1.15's `tf.contrib.optimizer_v2` (branch contrib3). TF 2.x has no
contrib: the oracle is TF 1.15's contrib/optimizer_v2 package run under TF 2.21's
tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_optimizer_v2`): variable and
slot names, and values after three steps, for each optimizer with a callable or tensor
hyper-parameter. Replay waits (`requires`) until tf1compat has the module."""

import numpy as np

from tests.golden.harness import requires


def _ov2(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.optimizer_v2
    import oracle_contrib
    pkg = oracle_contrib.tf115_optimizer_v2(tf)
    return type("optimizer_v2", (), {
        "OptimizerV2": pkg.optimizer_v2.OptimizerV2,
        "AdamOptimizer": pkg.adam.AdamOptimizer,
        "AdagradOptimizer": pkg.adagrad.AdagradOptimizer,
        "AdadeltaOptimizer": pkg.adadelta.AdadeltaOptimizer,
        "GradientDescentOptimizer": pkg.gradient_descent.GradientDescentOptimizer,
        "MomentumOptimizer": pkg.momentum.MomentumOptimizer,
        "RMSPropOptimizer": pkg.rmsprop.RMSPropOptimizer})


def _train(tf, make_opt, use_resource=False, steps=3):
    with tf.Graph().as_default():
        v = tf.Variable(np.array([1.0, -2.0, 0.5], np.float32), name="v",
                        use_resource=use_resource)
        w = tf.Variable(np.array([[0.3, 0.1]], np.float32), name="w",
                        use_resource=use_resource)
        loss = tf.reduce_sum(v * v) + tf.reduce_sum(tf.sin(w))
        opt = make_opt()
        step = opt.minimize(loss)
        names = sorted(x.name for x in tf.global_variables())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                sess.run(step)
            values = sess.run([v, w])
        return {"names": names, "v": values[0], "w": values[1],
                "slot_names": opt.get_slot_names()}


_OPTS = {
    "adam": lambda o, tf: o.AdamOptimizer(lambda: 0.1, beta1=tf.constant(0.8)),
    "adagrad": lambda o, tf: o.AdagradOptimizer(0.2, initial_accumulator_value=0.5),
    "adadelta": lambda o, tf: o.AdadeltaOptimizer(lambda: 1.0, rho=0.9),
    "sgd": lambda o, tf: o.GradientDescentOptimizer(lambda: 0.05),
    "momentum": lambda o, tf: o.MomentumOptimizer(0.1, lambda: 0.9, use_nesterov=True),
    "rmsprop": lambda o, tf: o.RMSPropOptimizer(0.01, momentum=0.5, epsilon=0.1),
    "rmsprop_centered": lambda o, tf: o.RMSPropOptimizer(0.01, centered=True, epsilon=0.1),
}


def _case(key, use_resource):
    @requires("contrib.optimizer_v2.OptimizerV2")
    def case(tf):
        o = _ov2(tf)
        return _train(tf, lambda: _OPTS[key](o, tf), use_resource=use_resource)
    return case


for _key in _OPTS:
    globals()[f"case_{_key}"] = _case(_key, False)
    globals()[f"case_{_key}_resource"] = _case(_key, True)
