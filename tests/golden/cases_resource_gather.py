"""Golden cases: tf.gather / tf.gather_nd / tf.nn.embedding_lookup on resource variables
build ResourceGather(Nd) (embedding_lookup colocated with the variable), their
gradients (IndexedSlices with a Const or VariableShape dense shape, ScatterNd) and the
sparse optimizer updates (ResourceSparseApply*) they lead to."""

import numpy as np

from tests.golden.harness import tolerance

V0 = np.arange(12, dtype=np.float32).reshape(4, 3) / 4.0 - 1.0


def _ops(tf):
    """Every op's name, type and colocation (`_class`) attr, in creation order."""
    out = []
    for op in tf.get_default_graph().get_operations():
        try:
            loc = [c.decode() for c in op.get_attr("_class")]
        except ValueError:
            loc = []
        out.append([op.name, op.type, loc])
    return out


def _grad(tf, g):
    """The gradient's kind and its tensors' names."""
    if isinstance(g, tf.IndexedSlices):
        return {"type": "IndexedSlices", "values": g.values.name, "indices": g.indices.name,
                "dense_shape": g.dense_shape.name}
    return {"type": "Tensor", "name": g.name}


def _value(v):
    """A fetched gradient: IndexedSlicesValue as [values, indices, dense_shape]."""
    if hasattr(v, "indices"):
        return [np.asarray(v.values), np.asarray(v.indices), np.asarray(v.dense_shape)]
    return v


def _reads(tf, v):
    return {"gather": tf.gather(v, [0, 2, 2]),
            "gather_axis0": tf.gather(v, tf.constant([3, 1]), axis=0),
            "gather_axis1": tf.gather(v, [2, 0], axis=1),
            "gather_nd_rows": tf.gather_nd(v, [[1], [3]]),
            "gather_nd_elems": tf.gather_nd(v, [[1, 2], [3, 0]]),
            "embedding_lookup": tf.nn.embedding_lookup(v, [1, 1, 0])}


@tolerance(1e-6, 1e-6)
def case_reads_graph_and_values(tf):
    v = tf.get_variable("v", initializer=tf.constant(V0), use_resource=True)
    reads = _reads(tf, v)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(reads)
    return {"ops": _ops(tf), "names": {k: t.name for k, t in reads.items()},
            "values": values}


@tolerance(1e-6, 1e-6)
def case_enable_resource_variables(tf):
    tf.enable_resource_variables()
    try:
        v = tf.get_variable("v", initializer=tf.constant(V0))
        rows = tf.gather(v, [2, 1])
        emb = tf.nn.embedding_lookup(v, [0, 3], name="emb")
    finally:
        tf.disable_resource_variables()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([rows, emb])
    return {"ops": _ops(tf), "values": values}


@tolerance(1e-6, 1e-6)
def case_gradients(tf):
    v = tf.get_variable("v", initializer=tf.constant(V0), use_resource=True)
    reads = _reads(tf, v)
    grads = {k: tf.gradients(tf.reduce_sum(t * t), v)[0] for k, t in reads.items()}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run(grads)
    return {"grads": {k: _grad(tf, g) for k, g in grads.items()},
            "values": {k: _value(g) for k, g in values.items()}}


@tolerance(1e-6, 1e-6)
def case_gradient_unknown_shape(tf):
    # The handle's static shape is unknown: TF's gradients read it with VariableShape.
    v = tf.Variable(tf.placeholder_with_default(V0, [None, 3]), validate_shape=False,
                    use_resource=True, name="v")
    g_rows = tf.gradients(tf.reduce_sum(tf.gather(v, [3, 0])), v)[0]
    g_nd = tf.gradients(tf.reduce_sum(tf.gather_nd(v, [[2]])), v)[0]
    ops = [[op.name, op.type] for op in tf.get_default_graph().get_operations()
           if op.type == "VariableShape"]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([g_rows, g_nd])
    return {"grads": [_grad(tf, g_rows), _grad(tf, g_nd)], "variable_shape_ops": ops,
            "values": [_value(g) for g in values]}


def _train(tf, make_opt, read, steps=3):
    """Minimizes a loss of `read(tf, v)` in a graph of its own; the ops minimize adds
    (outside the gradients) and the variable after each step."""
    with tf.Graph().as_default():
        v = tf.get_variable("emb", initializer=tf.constant(V0), use_resource=True)
        loss = tf.reduce_sum(tf.square(read(tf, v) - 0.5))
        opt = make_opt(tf)
        before = len(tf.get_default_graph().get_operations())
        train_op = opt.minimize(loss)
        added = [[op.name, op.type] for op in tf.get_default_graph().get_operations()[before:]
                 if not op.name.startswith("gradients")]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            history = []
            for _ in range(steps):
                sess.run(train_op)
                history.append(sess.run(v))
    return {"ops": added, "history": history}


_OPTIMIZERS = {
    "sgd": lambda tf: tf.train.GradientDescentOptimizer(0.5),
    "adam": lambda tf: tf.train.AdamOptimizer(0.1),
    "adagrad": lambda tf: tf.train.AdagradOptimizer(0.3),
    "momentum": lambda tf: tf.train.MomentumOptimizer(0.2, 0.5),
}


@tolerance(1e-5, 1e-6)
def case_sparse_updates_embedding_lookup(tf):
    return {k: _train(tf, make, lambda tf, v: tf.nn.embedding_lookup(v, [0, 2, 2]))
            for k, make in _OPTIMIZERS.items()}


@tolerance(1e-5, 1e-6)
def case_sparse_updates_gather_nd(tf):
    return {k: _train(tf, make, lambda tf, v: tf.gather_nd(v, [[3], [1], [3]]))
            for k, make in _OPTIMIZERS.items()}


@tolerance(1e-6, 1e-6)
def case_gradients_aggregated(tf):
    # Several sparse reads of one variable: TF concatenates their slices.
    v = tf.get_variable("v", initializer=tf.constant(V0), use_resource=True)
    loss = (tf.reduce_sum(tf.gather(v, [0, 2])) + tf.reduce_sum(tf.gather_nd(v, [[1], [2]]))
            + tf.reduce_sum(tf.nn.embedding_lookup(v, [3])))
    g = tf.gradients(loss, v)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(g)
    return {"grad": _grad(tf, g), "value": _value(value)}
