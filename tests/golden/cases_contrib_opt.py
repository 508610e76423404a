"""Golden cases: the training ops behind tf.contrib.opt's optimizers (ApplyAdaMax,
ApplyAddSign, ApplyPowerSign and their resource forms), run through tf.raw_ops: op
types, output dtypes, values after two applications, shape errors."""

import numpy as np

from tests.golden.harness import catch, requires

VAR0 = np.array([1.0, -2.0, 3.0, 0.5], np.float32)
M0 = np.array([0.1, 0.2, -0.3, 0.0], np.float32)
V0 = np.array([0.5, 0.1, 0.2, 0.3], np.float32)
GRAD = np.array([0.5, -1.0, 2.0, -0.25], np.float32)


def _run_twice(tf, apply, state):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(apply)
        second = sess.run(apply)
        return {"first": first, "second": second, "state": sess.run(state)}


def _variables(tf, resource, dtype=np.float32):
    make = (lambda v, n: tf.get_variable(n, initializer=v.astype(dtype), use_resource=True)) \
        if resource else (lambda v, n: tf.Variable(v.astype(dtype), name=n))
    return make(VAR0, "var"), make(M0, "m"), make(V0, "v")


@requires("raw_ops")
def case_apply_ada_max(tf):
    var, m, v = _variables(tf, False)
    op = tf.raw_ops.ApplyAdaMax(var=var._ref(), m=m._ref(), v=v._ref(), beta1_power=0.81,
                                lr=0.1, beta1=0.9, beta2=0.999, epsilon=1e-7,
                                grad=tf.constant(GRAD))
    out = {"op": [op.op.name, op.op.type, op.dtype.name]}
    out.update(_run_twice(tf, op, [var, m, v]))
    return out


@requires("raw_ops")
def case_resource_apply_ada_max(tf):
    var, m, v = _variables(tf, True, np.float64)
    op = tf.raw_ops.ResourceApplyAdaMax(var=var.handle, m=m.handle, v=v.handle,
                                        beta1_power=np.float64(0.9), lr=np.float64(0.01),
                                        beta1=np.float64(0.9), beta2=np.float64(0.99),
                                        epsilon=np.float64(1e-8),
                                        grad=tf.constant(GRAD.astype(np.float64)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(op)
        sess.run(op)
        return {"op": [op.name, op.type], "state": sess.run([var, m, v])}


@requires("raw_ops")
def case_apply_add_sign(tf):
    var, m, _ = _variables(tf, False)
    op = tf.raw_ops.ApplyAddSign(var=var._ref(), m=m._ref(), lr=0.1, alpha=1.0,
                                 sign_decay=0.5, beta=0.9, grad=tf.constant(GRAD))
    out = {"op": [op.op.name, op.op.type, op.dtype.name]}
    out.update(_run_twice(tf, op, [var, m]))
    return out


@requires("raw_ops")
def case_resource_apply_add_sign(tf):
    var, m, _ = _variables(tf, True)
    op = tf.raw_ops.ResourceApplyAddSign(var=var.handle, m=m.handle, lr=0.05, alpha=0.5,
                                         sign_decay=1.0, beta=0.8, grad=tf.constant(GRAD))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(op)
        return {"op": [op.name, op.type], "state": sess.run([var, m])}


@requires("raw_ops")
def case_apply_power_sign(tf):
    var, m, _ = _variables(tf, False)
    op = tf.raw_ops.ApplyPowerSign(var=var._ref(), m=m._ref(), lr=0.1, logbase=np.log(2.0),
                                   sign_decay=0.75, beta=0.9, grad=tf.constant(GRAD))
    out = {"op": [op.op.name, op.op.type, op.dtype.name]}
    out.update(_run_twice(tf, op, [var, m]))
    return out


@requires("raw_ops")
def case_resource_apply_power_sign(tf):
    var, m, _ = _variables(tf, True, np.float64)
    op = tf.raw_ops.ResourceApplyPowerSign(
        var=var.handle, m=m.handle, lr=np.float64(0.1), logbase=np.float64(1.0),
        sign_decay=np.float64(1.0), beta=np.float64(0.9),
        grad=tf.constant(GRAD.astype(np.float64)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            sess.run(op)
        return {"op": [op.name, op.type], "state": sess.run([var, m])}


@requires("raw_ops")
def case_sign_ops_shape_errors(tf):
    var, m, _ = _variables(tf, False)
    return {
        "grad_shape": catch(lambda: tf.raw_ops.ApplyAddSign(
            var=var._ref(), m=m._ref(), lr=0.1, alpha=1.0, sign_decay=1.0, beta=0.9,
            grad=tf.constant([1.0, 2.0]))),
        "lr_rank": catch(lambda: tf.raw_ops.ApplyPowerSign(
            var=var._ref(), m=m._ref(), lr=tf.constant([0.1]), logbase=1.0, sign_decay=1.0,
            beta=0.9, grad=tf.constant(GRAD))),
    }
