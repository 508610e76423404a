"""Golden cases: `tf.contrib.layers.recompute_grad`: values and gradients (inputs and
resource variables), the `is_recomputing` flag, decorator forms and errors. The oracle is
TF 1.15's contrib/layers/python/layers/rev_block_lib.py (with TF 1.15's arg_scope) run
under TF 2.21's tf.compat.v1 (scripts/oracle_contrib.py `tf115_package`)."""

import numpy as np

_ORACLE = []


def _recompute_grad(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers.recompute_grad
    if not _ORACLE:
        import oracle_contrib
        scopes = oracle_contrib.tf115_package("contrib.framework.python.ops", ["arg_scope"])
        stubs = {"tensorflow.contrib.framework.python.ops": {
            "arg_scope": scopes.arg_scope, "current_arg_scope": scopes.current_arg_scope}}
        _ORACLE.append(oracle_contrib.tf115_package(
            "contrib.layers.python.layers", ["rev_block_lib"], stubs=stubs).recompute_grad)
    return _ORACLE[0]


def case_recompute_grad_values_and_gradients(tf):
    recompute_grad = _recompute_grad(tf)
    data = np.random.RandomState(0).randn(3, 4).astype(np.float32)
    x = tf.constant(data)
    flags = []

    def block(a, b, is_recomputing=False):
        flags.append(is_recomputing)
        return tf.tanh(a) * b, tf.reduce_sum(a * a, 1)

    y, s = recompute_grad(block)(x, x + 1.0)
    grads = tf.gradients(tf.reduce_sum(y) + tf.reduce_sum(s), x)
    with tf.variable_scope("layer", use_resource=True):
        @recompute_grad(tupleize_grads=True)
        def dense(a):
            w = tf.get_variable("w", [4, 2], initializer=tf.constant_initializer(0.5))
            b = tf.get_variable("b", [2], initializer=tf.constant_initializer(-0.1))
            return tf.nn.relu(tf.matmul(a, w) + b)
        z = dense(x)
    variables = tf.trainable_variables()
    var_grads = tf.gradients(tf.reduce_sum(z * z), [x] + variables)
    flags_after_forward = list(flags)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([y, s, grads, z, var_grads])
    return {"values": values, "flags": flags_after_forward,
            "variables": [v.op.name for v in variables],
            "shapes": [t.shape.as_list() for t in (y, s, z)], "name": dense.__name__}


def case_recompute_grad_errors(tf):
    recompute_grad = _recompute_grad(tf)
    x = tf.constant([1.0, 2.0])
    out = []

    def closes_over(a):
        return a * x

    def reads_ref_variable(a):
        w = tf.get_variable("ref_w", [2], initializer=tf.ones_initializer(),
                            use_resource=False)
        return a * w

    attempts = [lambda: recompute_grad(closes_over),
                lambda: recompute_grad(lambda a: a * 2.0)(np.float32(3.0)),
                lambda: recompute_grad(reads_ref_variable)(x)]
    for attempt in attempts:
        try:
            attempt()
            out.append(None)
        except (ValueError, TypeError) as e:
            out.append([type(e).__name__, str(e)])
    return out
