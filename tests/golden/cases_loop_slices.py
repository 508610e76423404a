"""Golden cases: IndexedSlices gradients of gathers inside tf.while_loop bodies.

TF 1.x accumulates the gradient of a loop-invariant gathered tensor over the backward
iterations as IndexedSlices (control_flow_ops.py `AddBackpropIndexedSlicesAccumulator`):
the indices and values start with index 0 and a row of zeros, then each backward
iteration (the last forward iteration first) appends its gathers' indices and rows.
Optimizers then take their sparse paths, which touch row 0 and the gathered rows only.
"""

import numpy as np

from tests.golden.harness import tolerance

_IDS = [[1, 2], [3, 1], [0, 3]]
_DUP_IDS = [[1, 2], [2, 2], [3, 0]]


def _described(tf, sess, g):
    """A gradient's kind and values (IndexedSlices as its three components)."""
    if isinstance(g, tf.IndexedSlices):
        indices, values, dense_shape = sess.run([g.indices, g.values, g.dense_shape])
        return {"type": "IndexedSlices", "indices": indices, "values": values,
                "dense_shape": dense_shape}
    return {"type": "Tensor", "value": sess.run(g)}


def _loop_gradient(tf, use_resource, kind, ids=_IDS):
    """d loss / d v of a 3-iteration loop whose body gathers rows of v (`kind` says how)."""
    init = np.arange(12, dtype=np.float32).reshape(4, 3)
    v = tf.get_variable("v", initializer=init, use_resource=use_resource)
    ids = tf.constant(ids)
    outside = v * 2.0

    def body(i, acc):
        idx = ids[i]
        if kind == "gather":
            rows = tf.gather(v, idx)
        elif kind == "embedding_lookup":
            rows = tf.nn.embedding_lookup(v, idx)
        elif kind == "read_in_body":
            rows = tf.gather(v.read_value() if use_resource else tf.identity(v), idx)
        elif kind == "gather_nd":
            rows = tf.gather_nd(v, tf.expand_dims(idx, -1))
        elif kind == "two_gathers":
            rows = tf.gather(v, idx) + tf.gather(v, idx[:1]) * 3.0
        else:   # "outside": a tensor computed from v outside the loop
            rows = tf.gather(outside, idx)
        return i + 1, acc + tf.reduce_sum(rows * tf.cast(i + 1, tf.float32), 0)

    _, acc = tf.while_loop(lambda i, a: i < 3, body, [0, tf.zeros([3])])
    loss = tf.reduce_sum(acc * tf.constant([1.0, 2.0, 3.0]))
    return tf.gradients(loss, [v])[0]


def _gradient_case(use_resource, kind, ids=_IDS):
    def case(tf):
        g = _loop_gradient(tf, use_resource, kind, ids)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return _described(tf, sess, g)
    return case


case_ref_gather = _gradient_case(False, "gather")
case_resource_gather = _gradient_case(True, "gather")
case_ref_embedding_lookup = _gradient_case(False, "embedding_lookup")
case_resource_embedding_lookup = _gradient_case(True, "embedding_lookup")
case_ref_read_in_body = _gradient_case(False, "read_in_body")
case_resource_read_in_body = _gradient_case(True, "read_in_body")
case_ref_gather_nd = _gradient_case(False, "gather_nd")
case_resource_gather_nd = _gradient_case(True, "gather_nd")
case_ref_two_gathers = _gradient_case(False, "two_gathers")
case_resource_two_gathers = _gradient_case(True, "two_gathers")
case_ref_outside = _gradient_case(False, "outside")
case_resource_duplicates = _gradient_case(True, "gather", _DUP_IDS)
case_ref_duplicates = _gradient_case(False, "gather", _DUP_IDS)


def case_gradient_names(tf):
    """The names TF gives the accumulated IndexedSlices' components."""
    out = {}
    for use_resource in (False, True):
        with tf.Graph().as_default():
            g = _loop_gradient(tf, use_resource, "gather")
            out[str(use_resource)] = [g.indices.name, g.values.name, g.dense_shape.name]
    return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_partitioned_embedding_lookup(tf):
    """embedding_lookup over two partitions inside a loop: one IndexedSlices each."""
    parts = [tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3) + 6 * k,
                         name=f"part_{k}") for k in range(2)]
    ids = tf.constant(_IDS)

    def body(i, acc):
        rows = tf.nn.embedding_lookup(parts, ids[i])
        return i + 1, acc + tf.reduce_sum(rows * tf.cast(i + 1, tf.float32), 0)

    _, acc = tf.while_loop(lambda i, a: i < 3, body, [0, tf.zeros([3])])
    grads = tf.gradients(tf.reduce_sum(acc), parts)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [_described(tf, sess, g) for g in grads]


def case_gather_under_cond(tf):
    """A gather in each branch of a tf.cond in the body."""
    v = tf.get_variable("v", initializer=np.arange(12, dtype=np.float32).reshape(4, 3))
    ids = tf.constant(_IDS)

    def body(i, acc):
        rows = tf.cond(i > 0, lambda: tf.gather(v, ids[i]), lambda: tf.gather(v, ids[i]) * 2.)
        return i + 1, acc + tf.reduce_sum(rows * tf.cast(i + 1, tf.float32), 0)

    _, acc = tf.while_loop(lambda i, a: i < 3, body, [0, tf.zeros([3])])
    g, = tf.gradients(tf.reduce_sum(acc), [v])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return _described(tf, sess, g)


def case_nested_loops(tf):
    """A gather in an inner loop: the inner accumulation nested in the outer one."""
    v = tf.get_variable("v", initializer=np.arange(12, dtype=np.float32).reshape(4, 3))
    ids = tf.constant(_IDS)

    def outer(i, acc):
        def inner(j, a):
            return j + 1, a + tf.gather(v, ids[i])[j] * tf.cast(i + j + 1, tf.float32)
        _, a = tf.while_loop(lambda j, a: j < 2, inner, [0, tf.zeros([3])])
        return i + 1, acc + a

    _, acc = tf.while_loop(lambda i, a: i < 3, outer, [0, tf.zeros([3])])
    g, = tf.gradients(tf.reduce_sum(acc), [v])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return _described(tf, sess, g)


# -- training: dynamic_rnn over tokens embedded inside the loop -------------------------------

_TOKENS = np.array([[1, 4, 4, 2], [3, 0, 5, 5], [2, 2, 7, 1]], np.int32)
_TARGETS = np.array([[0.5, -1.0], [1.0, 0.25], [-0.5, 0.75]], np.float32)


def _embedding_rnn_training(tf, make_optimizer, use_resource):
    """5 steps of an RNN whose cell embeds its token ids itself (the gather runs in the
    dynamic_rnn loop, as contrib's EmbeddingWrapper does)."""
    init = tf.constant_initializer(np.linspace(-1.0, 1.0, 8 * 3).reshape(8, 3))
    with tf.variable_scope("model", use_resource=use_resource,
                           initializer=tf.constant_initializer(0.1)):
        embedding = tf.get_variable("embedding", [8, 3], initializer=init)
        inner = tf.nn.rnn_cell.BasicRNNCell(4)

        class EmbeddingCell(tf.nn.rnn_cell.RNNCell):
            @property
            def state_size(self):
                return inner.state_size

            @property
            def output_size(self):
                return inner.output_size

            def call(self, ids, state):
                return inner(tf.nn.embedding_lookup(embedding, ids[:, 0]), state)

        tokens = tf.constant(_TOKENS[:, :, None])
        outputs, state = tf.nn.dynamic_rnn(EmbeddingCell(), tokens, dtype=tf.float32)
        w = tf.get_variable("w", [4, 2], initializer=tf.constant_initializer(0.2))
    loss = tf.reduce_mean(tf.square(tf.matmul(state, w) - _TARGETS))
    train = make_optimizer(tf).minimize(loss)
    grad, = tf.gradients(loss, [embedding])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = []
        for _ in range(5):
            losses.append(sess.run([loss, train])[0])
        return {"gradient_type": type(grad).__name__, "losses": losses,
                "variables": sess.run(tf.trainable_variables()),
                "slots": sess.run(tf.global_variables())}


def _training_case(make_optimizer, use_resource=True):
    @tolerance(rtol=1e-4, atol=1e-5)
    def case(tf):
        return _embedding_rnn_training(tf, make_optimizer, use_resource)
    return case


case_train_momentum = _training_case(lambda tf: tf.train.MomentumOptimizer(0.1, 0.9))
case_train_momentum_ref = _training_case(lambda tf: tf.train.MomentumOptimizer(0.1, 0.9), False)
case_train_adagrad = _training_case(lambda tf: tf.train.AdagradOptimizer(0.1))
case_train_adam = _training_case(lambda tf: tf.train.AdamOptimizer(0.05))
case_train_adam_ref = _training_case(lambda tf: tf.train.AdamOptimizer(0.05), False)
case_train_rmsprop = _training_case(lambda tf: tf.train.RMSPropOptimizer(0.05, momentum=0.5))
case_train_ftrl = _training_case(lambda tf: tf.train.FtrlOptimizer(0.1))


def mixed_body_gradients(tf):
    """A body gathering a resource variable directly, in a tf.cond (whose other branch
    reads the direct gather) and in a nested loop; from the variable and from its read
    (tests/test_loop_gradient_slices.py checks the gathers it builds)."""
    ids = tf.constant([[1, 2], [0, 3], [2, 2]])
    emb = tf.get_variable("emb", [4, 3], use_resource=True,
                          initializer=tf.constant_initializer(np.arange(12.0).reshape(4, 3)
                                                              * 0.05))

    def loss(table):
        def body(i, h):
            direct = tf.gather(table(), ids[i])
            branch = tf.cond(i > 0, lambda: tf.gather(table(), ids[i]), lambda: direct * 2.0)
            _, inner = tf.while_loop(lambda j, g: j < 2, lambda j, g: (
                j + 1, g + tf.reduce_sum(tf.gather(table(), ids[j]), 0)), [tf.constant(0), h])
            return i + 1, tf.tanh(inner * 0.5 + tf.reduce_sum(direct + branch, 0) * 0.1)
        return tf.reduce_sum(tf.while_loop(lambda i, h: i < 3, body,
                                           [tf.constant(0), tf.zeros([3])])[1])

    return [tf.gradients(loss(table), emb)[0] for table in (lambda: emb, emb.read_value)]


@tolerance(rtol=1e-5, atol=1e-6)
def case_gather_cond_and_nested_loop_order(tf):
    """Each iteration's slices in the order TF's backward walk reaches the gathers."""
    grads = mixed_body_gradients(tf)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return [_described(tf, sess, g) for g in grads]
