"""Golden cases: TF 1.15's `tf.contrib.optimizer_v2` beyond cases_contrib3 (branch
contrib4), with the same oracle (TF 1.15's package under TF 2.21, `_ov2`): callable
hyper-parameters evaluated at each apply_gradients, sparse gradients (tf.gather, repeated
indices), get_slot / get_slot_names / variables per graph, minimize with var_list and
global_step, the train op's name, Saver checkpoints of the slots by name, errors."""

import os
import tempfile

import numpy as np

from tests.golden.cases_contrib3 import _ov2
from tests.golden.harness import requires

_OPTS = {
    "adam": lambda o: o.AdamOptimizer(0.1),
    "adagrad": lambda o: o.AdagradOptimizer(0.2),
    "adadelta": lambda o: o.AdadeltaOptimizer(1.0),
    "sgd": lambda o: o.GradientDescentOptimizer(0.05),
    "momentum": lambda o: o.MomentumOptimizer(0.1, 0.9),
    "rmsprop": lambda o: o.RMSPropOptimizer(0.01, momentum=0.5, epsilon=0.1),
    "rmsprop_centered": lambda o: o.RMSPropOptimizer(0.01, centered=True, epsilon=0.1),
}


def _sparse(key, use_resource):
    @requires("contrib.optimizer_v2.OptimizerV2")
    def case(tf):
        o = _ov2(tf)
        v = tf.Variable(np.arange(8, dtype=np.float32).reshape(4, 2) / 4, name="v",
                        use_resource=use_resource)
        rows = tf.gather(v, [0, 2, 0])      # row 0 twice: repeated indices are summed
        loss = tf.reduce_sum(rows * rows * np.array([1.0, 2.0], np.float32))
        opt = _OPTS[key](o)
        grads = opt.compute_gradients(loss)
        step = opt.apply_gradients(grads)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(step)
            return {"sparse": type(grads[0][0]).__name__, "v": sess.run(v),
                    "slots": {n: sess.run(opt.get_slot(v, n))
                              for n in opt.get_slot_names()}}
    return case


for _key in _OPTS:
    globals()[f"case_sparse_{_key}"] = _sparse(_key, False)
    globals()[f"case_sparse_{_key}_resource"] = _sparse(_key, True)


@requires("contrib.optimizer_v2.OptimizerV2")
def case_callable_hyper_each_apply(tf):
    """A callable learning rate is called at every apply_gradients (here returning a
    placeholder, fed a new value each step); a number is converted once per graph."""
    o = _ov2(tf)
    calls = []
    lr = tf.placeholder(tf.float32, [], name="lr")

    def learning_rate():
        calls.append(1)
        return lr
    v = tf.Variable([1.0, 2.0], name="v")
    w = tf.Variable([3.0], name="w")
    opt = o.MomentumOptimizer(learning_rate, momentum=0.5)
    step_v = opt.minimize(tf.reduce_sum(v * v), var_list=[v])
    step_w = opt.minimize(tf.reduce_sum(w * w * w), var_list=[w])
    out = {"calls": len(calls)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for rate in (0.1, 0.01, 0.2):
            sess.run([step_v, step_w], {lr: rate})
        out.update(v=sess.run(v), w=sess.run(w), mom_v=sess.run(opt.get_slot(v, "momentum")))
    return out


@requires("contrib.optimizer_v2.OptimizerV2")
def case_slots_and_var_list(tf):
    """minimize(var_list=[v], global_step): slots only for v, w untouched, the step
    counted; get_slot of a variable without slots is None; the train op's name."""
    o = _ov2(tf)
    v = tf.Variable([1.0, -1.0], name="v")
    w = tf.Variable([2.0], name="w")
    gs = tf.train.get_or_create_global_step()
    opt = o.AdamOptimizer(0.1, name="MyAdam")
    step = opt.minimize(tf.reduce_sum(v * v) + tf.reduce_sum(w * w), global_step=gs,
                        var_list=[v])
    out = {"op": step.name, "type": step.type, "slot_names": opt.get_slot_names(),
           "slot_v": [opt.get_slot(v, n).name for n in ("m", "v")],
           "slot_w": opt.get_slot(w, "m") is None, "missing": opt.get_slot(v, "x") is None,
           "variables": [x.name for x in opt.variables()],
           "globals": sorted(x.name for x in tf.global_variables()),
           "train_op": [t.name for t in tf.get_collection(tf.GraphKeys.TRAIN_OP)]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(2):
            sess.run(step)
        out.update(v=sess.run(v), w=sess.run(w), gs=sess.run(gs),
                   beta1_power=sess.run(opt.variables()[0]))
    return out


@requires("contrib.optimizer_v2.OptimizerV2")
def case_state_per_graph(tf):
    """One optimizer in two graphs: each graph gets its own non-slot variables and its
    slot names; a graph it never ran in has none."""
    o = _ov2(tf)
    opt = o.AdamOptimizer(0.1)
    out = {}
    for tag, shape in (("g1", [2]), ("g2", [3])):
        with tf.Graph().as_default():
            v = tf.Variable(np.ones(shape, np.float32), name="x")
            step = opt.minimize(tf.reduce_sum(v * v))
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(step)
                out[tag] = {"variables": [x.name for x in opt.variables()],
                            "slot_names": opt.get_slot_names(), "v": sess.run(v)}
    with tf.Graph().as_default():
        out["empty"] = {"slot_names": opt.get_slot_names(),
                        "variables": len(opt.variables())}
    return out


def _checkpoint(key):
    @requires("contrib.optimizer_v2.OptimizerV2")
    def case(tf):
        """Saver writes the slots under `<var>/<Name>[_k]` (and Adam's beta powers); a
        new graph restores them by name and the next step continues from them."""
        o = _ov2(tf)
        path = os.path.join(tempfile.mkdtemp(), "ckpt")

        def build():
            v = tf.Variable([1.0, -2.0, 0.5], name="v")
            opt = _OPTS[key](o)
            return v, opt.minimize(tf.reduce_sum(v * v * v)), opt
        with tf.Graph().as_default():
            v, step, opt = build()
            saver = tf.train.Saver()
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(step)
                sess.run(step)
                saver.save(sess, path)
                sess.run(step)
                expected = sess.run(v)
        stored = sorted((n, s) for n, s in tf.train.list_variables(path))
        with tf.Graph().as_default():
            v, step, opt = build()
            with tf.Session() as sess:
                tf.train.Saver().restore(sess, path)
                slots = {n: sess.run(opt.get_slot(v, n)) for n in opt.get_slot_names()}
                sess.run(step)
                return {"stored": stored, "restored_slots": slots, "v": sess.run(v),
                        "same_as_unbroken": bool(np.allclose(sess.run(v), expected))}
    return case


for _key in ("adam", "rmsprop_centered", "momentum"):
    globals()[f"case_checkpoint_{_key}"] = _checkpoint(_key)


@requires("contrib.optimizer_v2.OptimizerV2")
def case_error_create_slots_override(tf):
    o = _ov2(tf)

    class Mine(o.GradientDescentOptimizer):
        def _create_slots(self, var_list):
            pass
    Mine(0.1)


@requires("contrib.optimizer_v2.OptimizerV2")
def case_error_adagrad_accumulator(tf):
    _ov2(tf).AdagradOptimizer(0.1, initial_accumulator_value=0.0)


@requires("contrib.optimizer_v2.OptimizerV2")
def case_error_no_gradients(tf):
    o = _ov2(tf)
    v = tf.Variable([1.0], name="v")
    tf.Variable([2.0], name="w")
    o.GradientDescentOptimizer(0.1).minimize(tf.constant(1.0) + 0 * tf.stop_gradient(v))


@requires("contrib.optimizer_v2.OptimizerV2")
def case_stop_gradients(tf):
    """minimize(stop_gradients=...): tf.gradients' stop_gradients, as contrib passes it."""
    o = _ov2(tf)
    v = tf.Variable([1.0, 2.0], name="v")
    h = v * 3.0
    loss = tf.reduce_sum(h * v)
    step = o.GradientDescentOptimizer(0.1).minimize(loss, stop_gradients=[h])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(step)
        return sess.run(v)


@requires("contrib.optimizer_v2.OptimizerV2")
def case_object_checkpoint(tf):
    """tf.train.Checkpoint of a contrib optimizer: its beta powers as named children, the
    slots under `.OPTIMIZER_SLOT`; restored before the slots exist, they are filled when
    minimize creates them (restore-on-create)."""
    o = _ov2(tf)
    path = os.path.join(tempfile.mkdtemp(), "ckpt")

    def build():
        v = tf.Variable([1.0, -2.0, 0.5], name="v")
        return v, o.AdamOptimizer(0.1)
    with tf.Graph().as_default():
        v, opt = build()
        step = opt.minimize(tf.reduce_sum(v * v * v))
        ckpt = tf.train.Checkpoint(v=v, opt=opt)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(step)
            sess.run(step)
            path = ckpt.save(path, session=sess)
            sess.run(step)
            expected = sess.run(v)
    stored = sorted(n for n, _ in tf.train.list_variables(path))
    with tf.Graph().as_default():
        v, opt = build()
        status = tf.train.Checkpoint(v=v, opt=opt).restore(path)
        step = opt.minimize(tf.reduce_sum(v * v * v))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            status.run_restore_ops(sess)
            slots = {n: sess.run(opt.get_slot(v, n)) for n in opt.get_slot_names()}
            powers = sess.run([x for x in opt.variables() if "power" in x.name])
            sess.run(step)
            return {"stored": stored, "slots": slots, "powers": powers, "v": sess.run(v),
                    "same_as_unbroken": bool(np.allclose(sess.run(v), expected))}


def _custom_optimizer(o, tf):
    """A user OptimizerV2: a hyper-parameter, a slot made from a tensor, a non-slot
    step counter and dense/resource/sparse updates, all through the `state`."""
    class Decayed(o.OptimizerV2):
        def __init__(self, learning_rate, decay):
            super().__init__(use_locking=False, name="Decayed")
            self._set_hyper("learning_rate", learning_rate)
            self._set_hyper("decay", decay)

        def _create_vars(self, var_list, state):
            state.create_non_slot(initial_value=0.0, name="steps")
            for v in var_list:
                state.create_slot(v, tf.ones_like(v) * 2.0, "scale")
                state.zeros_slot(v, "trace")

        def _update(self, grad, var, state):
            trace = state.get_slot(var, "trace")
            new_trace = trace.assign(trace * state.get_hyper("decay", var.dtype.base_dtype) +
                                     grad)
            lr = state.get_hyper("learning_rate", var.dtype.base_dtype)
            return var.assign_sub(lr * state.get_slot(var, "scale") * new_trace)

        def _apply_dense(self, grad, var, state):
            return self._update(grad, var, state)

        def _resource_apply_dense(self, grad, var, state):
            return self._update(grad, var, state)

        def _apply_sparse(self, grad, var, state):
            return self._update(tf.convert_to_tensor(grad), var, state)

        def _finish(self, state):
            steps = state.get_non_slot("steps")
            return steps.assign_add(1.0)
    return Decayed(lambda: 0.1, 0.5)


def _custom(use_resource):
    @requires("contrib.optimizer_v2.OptimizerV2")
    def case(tf):
        """Ref variables: the sparse gradient of w goes to `_apply_sparse` (duplicates
        summed first). Resource variables: the subclass has no `_resource_apply_sparse`,
        so the base class's NotImplementedError, as TF."""
        o = _ov2(tf)
        v = tf.Variable([1.0, -2.0], name="v", use_resource=use_resource)
        w = tf.Variable([[1.0], [2.0], [3.0]], name="w", use_resource=use_resource)
        loss = tf.reduce_sum(v * v) + tf.reduce_sum(tf.gather(w, [0, 2, 0]) ** 2)
        opt = _custom_optimizer(o, tf)
        step = opt.minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(step)
            return {"v": sess.run(v), "w": sess.run(w), "slot_names": opt.get_slot_names(),
                    "variables": [x.name for x in opt.variables()],
                    "steps": sess.run([x for x in opt.variables() if "steps" in x.name])}
    return case


case_custom_subclass = _custom(False)
case_custom_subclass_resource = _custom(True)
