"""Golden cases: `tf.contrib.layers.recompute_grad`: values and gradients (inputs and
resource variables), the `is_recomputing` flag, decorator forms and errors; `rev_block` /
`RevBlock`: forward, backward (inverse) and the efficient gradients. The oracle is
TF 1.15's contrib/layers/python/layers/rev_block_lib.py (with TF 1.15's arg_scope) run
under TF 2.21's tf.compat.v1 (scripts/oracle_contrib.py `tf115_package`)."""

import numpy as np

_ORACLE = []


def _rev_block_lib(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers
    if not _ORACLE:
        import oracle_contrib
        scopes = oracle_contrib.tf115_package("contrib.framework.python.ops", ["arg_scope"])
        stubs = {"tensorflow.contrib.framework.python.ops": {
            "arg_scope": scopes.arg_scope, "current_arg_scope": scopes.current_arg_scope}}
        _ORACLE.append(oracle_contrib.tf115_package(
            "contrib.layers.python.layers", ["rev_block_lib"], stubs=stubs))
    return _ORACLE[0]


def _recompute_grad(tf):
    return _rev_block_lib(tf).recompute_grad


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


def _dense(tf, size, seed):
    def fn(x):
        w = tf.get_variable("w", [size, size],
                            initializer=tf.random_normal_initializer(stddev=0.3, seed=seed))
        return tf.tanh(tf.matmul(x, w))
    return fn


def case_rev_block(tf):
    lib = _rev_block_lib(tf)
    data = np.random.RandomState(7).randn(3, 4).astype(np.float32)
    x1, x2 = tf.constant(data), tf.constant(data[::-1] * 0.5)
    y1, y2 = lib.rev_block(x1, x2, _dense(tf, 4, 1), _dense(tf, 4, 2), num_layers=2)
    variables = tf.trainable_variables()
    loss = tf.reduce_sum(y1 * y2) + tf.reduce_sum(tf.square(y2))
    grads = tf.gradients(loss, [x1, x2] + variables)
    with tf.variable_scope("plain"):
        p1, p2 = lib.rev_block(x1, x2, [_dense(tf, 4, 3), _dense(tf, 4, 4)], _dense(tf, 4, 5),
                               num_layers=2, is_training=False)
    plain_vars = [v for v in tf.trainable_variables() if v.op.name.startswith("plain")]
    plain_grads = tf.gradients(tf.reduce_sum(p1 * p2), [x1] + plain_vars)
    with tf.variable_scope("blk"):
        block = lib.RevBlock(_dense(tf, 4, 6), _dense(tf, 4, 7), num_layers=1, name="rb")
        b1, b2 = block.forward(x1, x2)
        back = block.backward(b1, b2)
    out = {"names": [t.name for t in (y1, y2, p1, p2)],
           "variables": [v.op.name for v in tf.trainable_variables()],
           "weights": [v.op.name for v in block.weights],
           "shapes": [t.shape.as_list() for t in (y1, y2)]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out["values"] = sess.run([y1, y2, grads, p1, p2, plain_grads, b1, b2, list(back)])
    return out


def case_rev_block_side_inputs(tf):
    lib = _rev_block_lib(tf)
    rng = np.random.RandomState(8)
    x1 = tf.constant(rng.randn(2, 3).astype(np.float32))
    x2 = tf.constant(rng.randn(2, 3).astype(np.float32))
    side = tf.constant(rng.randn(2, 3).astype(np.float32))

    def f(x, side_inputs):
        w = tf.get_variable("w", [3, 3], initializer=tf.constant_initializer(0.2))
        return tf.matmul(x, w) * side_inputs[0]

    def g(x):
        return tf.sin(x)
    y1, y2 = lib.rev_block(x1, x2, f, g, num_layers=3, f_side_input=[side])
    loss = tf.reduce_sum(y1 + 2.0 * y2)
    grads = tf.gradients(loss, [x1, x2, side] + tf.trainable_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"values": sess.run([y1, y2, grads]),
                "variables": [v.op.name for v in tf.trainable_variables()]}
