"""Golden cases: a second sweep of TF1 API corners (session 11): learning-rate schedules,
less common optimizers, RNN cells, sparse ops, embedding lookups, functional ops."""

import numpy as np


def _run(tf, fetches, feed=None):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        return sess.run(fetches, feed)


def case_learning_rate_schedules(tf):
    step = tf.placeholder(tf.int64, [])
    sched = {
        "exp": tf.train.exponential_decay(0.1, step, 7, 0.5, staircase=True),
        "piecewise": tf.train.piecewise_constant(step, [5, 10], [1.0, 0.5, 0.1]),
        "poly_cycle": tf.train.polynomial_decay(0.1, step, 6, 0.01, power=2.0, cycle=True),
        "poly": tf.train.polynomial_decay(0.1, step, 6, 0.01, power=0.5),
        "natural_exp": tf.train.natural_exp_decay(0.1, step, 4, 0.3),
        "inverse_time": tf.train.inverse_time_decay(0.1, step, 4, 0.3, staircase=True),
        "cosine": tf.train.cosine_decay(0.1, step, 12, alpha=0.1),
        "cosine_restarts": tf.train.cosine_decay_restarts(0.1, step, 4, t_mul=2.0,
                                                          m_mul=0.5),
        "linear_cosine": tf.train.linear_cosine_decay(0.1, step, 12),
    }
    with tf.Session() as sess:
        return {k: [float(sess.run(v, {step: s})) for s in (0, 3, 5, 7, 11, 15, 30)]
                for k, v in sched.items()}


def case_less_common_optimizers(tf):
    rng = np.random.RandomState(0)
    x = rng.randn(8, 3).astype(np.float32)
    y = rng.randn(8, 1).astype(np.float32)
    makers = {
        "ftrl": lambda: tf.train.FtrlOptimizer(0.1, l1_regularization_strength=0.01,
                                               l2_regularization_strength=0.02,
                                               l2_shrinkage_regularization_strength=0.01),
        "prox_adagrad": lambda: tf.train.ProximalAdagradOptimizer(
            0.1, l1_regularization_strength=0.01),
        "prox_gd": lambda: tf.train.ProximalGradientDescentOptimizer(0.1, 0.01, 0.02),
        "adagrad_da": lambda: tf.train.AdagradDAOptimizer(
            0.1, tf.train.get_or_create_global_step(), l1_regularization_strength=0.01),
        "nesterov": lambda: tf.train.MomentumOptimizer(0.05, 0.9, use_nesterov=True),
        "adadelta": lambda: tf.train.AdadeltaOptimizer(1.0),
        "rmsprop_centered": lambda: tf.train.RMSPropOptimizer(0.01, momentum=0.5,
                                                              centered=True),
    }
    out = {}
    for name, make in makers.items():
        with tf.Graph().as_default():
            w = tf.Variable(tf.ones([3, 1]))
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w) - y))
            opt = make()
            train = opt.minimize(loss, global_step=tf.train.get_or_create_global_step())
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(5):
                    sess.run(train)
                out[name] = sess.run(w)
                out[name + "_slots"] = sorted(opt.get_slot_names())
    return out


def case_rnn_cells(tf):
    rng = np.random.RandomState(1)
    x = tf.constant(rng.randn(2, 4, 3).astype(np.float32))
    lengths = tf.constant([4, 2])
    init = tf.random_uniform_initializer(-0.3, 0.3, seed=3)
    out = {}
    with tf.variable_scope("lstm", initializer=init):
        cell = tf.nn.rnn_cell.LSTMCell(5, use_peepholes=True, num_proj=2, cell_clip=0.5)
        outputs, state = tf.nn.dynamic_rnn(cell, x, lengths, dtype=tf.float32)
        out["lstm"] = [outputs, state.c, state.h]
    with tf.variable_scope("gru", initializer=init):
        fw, bw = tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.GRUCell(3)
        (of, ob), (sf, sb) = tf.nn.bidirectional_dynamic_rnn(fw, bw, x, lengths,
                                                             dtype=tf.float32)
        out["bigru"] = [of, ob, sf, sb]
    with tf.variable_scope("multi", initializer=init):
        cells = tf.nn.rnn_cell.MultiRNNCell([
            tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.BasicRNNCell(3)),
            tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicLSTMCell(4), 1.0, 1.0)])
        outputs, _ = tf.nn.static_rnn(cells, tf.unstack(x, axis=1), dtype=tf.float32)
        out["multi"] = outputs
    values = _run(tf, out)
    values["variables"] = sorted((v.name, v.shape.as_list())
                                 for v in tf.global_variables())
    return values


def case_sparse_ops(tf):
    a = tf.SparseTensor([[0, 1], [2, 0], [1, 3]], [1.0, 2.0, 3.0], [3, 4])
    b = tf.SparseTensor([[0, 0], [1, 1]], [5.0, 6.0], [3, 4])
    ordered = tf.sparse_reorder(a)
    filled, empty = tf.sparse_fill_empty_rows(
        tf.SparseTensor([[0, 1], [2, 0]], [1.0, 2.0], [4, 3]), -1.0)
    return _run(tf, {
        "reorder": ordered, "sum": tf.sparse_reduce_sum(a, 1),
        "sum_sparse": tf.sparse_reduce_sum_sparse(a, 0), "max": tf.sparse_reduce_max(a),
        "concat": tf.sparse_concat(1, [a, b]), "add": tf.sparse_add(a, b),
        "retain": tf.sparse_retain(ordered, [True, False, True]),
        "filled": filled, "empty": empty,
        "softmax": tf.sparse_softmax(ordered), "dense": tf.sparse_tensor_to_dense(ordered),
        "matmul": tf.sparse_tensor_dense_matmul(a, tf.ones([4, 2]), adjoint_a=False),
        "slice": tf.sparse_slice(ordered, [0, 1], [2, 3]),
        "transpose": tf.sparse_transpose(a), "maximum": tf.sparse_maximum(a, b),
        "split": tf.sparse_split(sp_input=ordered, num_split=2, axis=1),
        "to_indicator": tf.sparse_to_indicator(
            tf.SparseTensor([[0, 0], [1, 0]], tf.constant([2, 1], tf.int64), [2, 2]), 4),
        "from_dense": tf.contrib.layers.dense_to_sparse(tf.constant([[0, 3], [4, 0]]))
        if hasattr(tf, "contrib") else tf.sparse.from_dense(tf.constant([[0, 3], [4, 0]])),
    })


def case_embedding_lookups(tf):
    rng = np.random.RandomState(2)
    shards = [tf.constant(rng.randn(n, 3).astype(np.float32)) for n in (4, 3, 3)]
    ids = tf.constant([0, 9, 4, 5, 1])
    sp_ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]],
                             tf.constant([1, 3, 8, 1], tf.int64), [3, 3])
    sp_w = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [2, 2]], [2.0, 0.5, 1.0, 3.0], [3, 3])
    out = {"mod": tf.nn.embedding_lookup(shards, ids),
           "div": tf.nn.embedding_lookup(shards, ids, partition_strategy="div"),
           "max_norm": tf.nn.embedding_lookup(shards, ids, max_norm=1.0)}
    for combiner in ("sum", "mean", "sqrtn"):
        out["sparse_" + combiner] = tf.nn.embedding_lookup_sparse(shards, sp_ids, sp_w,
                                                                  combiner=combiner)
        out["safe_" + combiner] = tf.nn.safe_embedding_lookup_sparse(
            shards, sp_ids, sp_w, combiner=combiner, default_id=2)
    return _run(tf, out)


def case_functional_ops(tf):
    x = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    return _run(tf, {
        "map_fn": tf.map_fn(lambda r: (r * 2, tf.reduce_sum(r)), x,
                            dtype=(tf.float32, tf.float32)),
        "scan": tf.scan(lambda a, r: a + r, x, initializer=tf.zeros([3]), reverse=True),
        "foldl": tf.foldl(lambda a, r: a * 0.5 + r, x),
        "foldr": tf.foldr(lambda a, r: a * 0.5 + r, x),
        "while": tf.while_loop(lambda i, s: i < 5, lambda i, s: (i + 1, s * 1.5 + 1.0),
                               [0, tf.constant(1.0)]),
        "case": tf.case([(tf.constant(False), lambda: tf.constant(1)),
                         (tf.constant(True), lambda: tf.constant(2))],
                        default=lambda: tf.constant(3)),
        "bincount": tf.bincount(tf.constant([1, 1, 3, 0]), minlength=5),
        "confusion": tf.confusion_matrix([0, 1, 2, 1], [0, 2, 2, 1], num_classes=3),
        "histogram": tf.histogram_fixed_width(tf.constant([0.1, 0.5, 0.9, 1.5]), [0.0, 1.0],
                                              nbins=4),
        "sequence_mask": tf.sequence_mask([1, 3], 4),
        "one_hot": tf.one_hot([0, 2, -1], 3, on_value=5.0, off_value=-1.0, axis=0),
        "unique": tf.unique_with_counts([3, 1, 3, 2, 1]),
        "setdiff": tf.setdiff1d([1, 2, 3, 4], [2, 4]),
        "clip_global": tf.clip_by_global_norm([x, x * 2], 5.0),
        "clip_avg": tf.clip_by_average_norm(x, 1.0),
        "reverse_seq": tf.reverse_sequence(x, [1, 2, 3, 2], 1, 0),
        "searchsorted": tf.searchsorted([1.0, 2.0, 3.0], [[0.5, 2.5, 3.5]]),
        "cumsum": tf.cumsum(x, axis=0, exclusive=True, reverse=True),
        "cumprod": tf.cumprod(x + 1, axis=1, exclusive=True),
        "roll": tf.roll(x, [1, -1], [0, 1]),
    })
