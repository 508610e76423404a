"""Training graphs with tf.while_loop in the gradient region that tf1compat writes for
real TensorFlow to train from the file (scripts/check_tf_reads_graphs.py; the gradient
through a loop is written as a backward loop: graphdef/loop_gradient_export.py).

As tests/graph_training_cases.py: each case builds a model with an optimizer's train op
and a `tf.train.Saver`; the script saves the initial variables, real TF imports the
.meta, restores, runs the train op from the file a few times and fetches the loss and
the variables.
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import X8, _training_spec

IDS5 = np.array([[1, 3, 4, 0, 0], [3, 5, 8, 2, 7], [0, 7, 0, 0, 0], [5, 5, 6, 1, 0]],
                np.int32)
LENGTHS = np.array([3, 5, 2, 4], np.int32)
SEQ = np.sin(np.arange(4 * 5 * 3, dtype=np.float32) * 0.41).reshape(4, 5, 3)


def case_train_while_loop_captured_weights(tf):
    """A hand-written recurrence: `tf.while_loop` over a counter and a state that a
    dense layer computes from x (the region before the loop), the body multiplying by
    captured weights; Momentum."""
    tf.set_random_seed(20)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = tf.placeholder(tf.float32, [None, 4], name="y")
    h0 = tf.layers.dense(x, 4, activation=tf.tanh, name="encode")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.1))

    def body(i, h):
        return i + 1, tf.tanh(tf.matmul(h, w) + b) + 0.5 * h

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), h0])
    loss = tf.reduce_mean(tf.square(h - y), name="loss")
    tf.train.MomentumOptimizer(0.2, 0.9).minimize(
        loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "y:0": X8[::-1] * 0.5},
                          ["loss:0", "global_step:0", "encode/kernel:0", "w:0", "b:0"])


def case_train_dynamic_rnn_basic_lstm(tf):
    """`tf.nn.dynamic_rnn` over a BasicLSTMCell (the inputs unstacked into a
    TensorArray read in the loop, the outputs written to one stacked after it), a dense
    layer on the last output and the final state's h; Adam."""
    tf.set_random_seed(21)
    seq = tf.placeholder(tf.float32, [4, 5, 3], name="seq")
    y = tf.placeholder(tf.float32, [4, 2], name="y")
    cell = tf.nn.rnn_cell.BasicLSTMCell(6)
    outputs, state = tf.nn.dynamic_rnn(cell, seq, dtype=tf.float32)
    pred = tf.layers.dense(tf.concat([outputs[:, -1], state.h], 1), 2, name="pred")
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(
        loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"seq:0": SEQ, "y:0": X8[:4, :2]},
                          ["loss:0", "global_step:0", "rnn/basic_lstm_cell/kernel:0",
                           "rnn/basic_lstm_cell/bias:0", "pred/kernel:0"])


def case_train_dynamic_rnn_gru_sequence_length(tf):
    """Embedded ids through a GRUCell `dynamic_rnn` with `sequence_length` (outputs
    past a sequence's end are zeros, its state copied through: Select in the body),
    time-major=False, mean over the outputs; GradientDescent."""
    tf.set_random_seed(22)
    ids = tf.placeholder(tf.int32, [4, 5], name="ids")
    lengths = tf.placeholder(tf.int32, [4], name="lengths")
    embeddings = tf.get_variable("embeddings", [9, 3])
    cell = tf.nn.rnn_cell.GRUCell(5)
    outputs, state = tf.nn.dynamic_rnn(cell, tf.nn.embedding_lookup(embeddings, ids),
                                       sequence_length=lengths, dtype=tf.float32)
    logits = tf.layers.dense(state, 3, name="logits")
    loss = tf.add(tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=ids[:, 0] % 3, logits=logits)), 0.1 * tf.reduce_mean(outputs), name="loss")
    tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"ids:0": IDS5, "lengths:0": LENGTHS},
                          ["loss:0", "embeddings:0", "rnn/gru_cell/gates/kernel:0",
                           "rnn/gru_cell/candidate/kernel:0", "logits/kernel:0"])


def case_train_dynamic_rnn_lstm_cell_projection(tf):
    """LSTMCell with a projection (num_proj) and an initial state from a placeholder,
    time-major inputs with sequence_length; Momentum."""
    tf.set_random_seed(23)
    seq = tf.placeholder(tf.float32, [5, 4, 3], name="seq")
    lengths = tf.placeholder(tf.int32, [4], name="lengths")
    c0 = tf.placeholder(tf.float32, [4, 6], name="c0")
    cell = tf.nn.rnn_cell.LSTMCell(6, num_proj=2)
    init = tf.nn.rnn_cell.LSTMStateTuple(c0, tf.zeros([4, 2]))
    outputs, state = tf.nn.dynamic_rnn(cell, seq, sequence_length=lengths,
                                       initial_state=init, time_major=True)
    loss = tf.reduce_mean(tf.square(outputs)) + tf.reduce_mean(state.c)
    loss = tf.identity(loss, name="loss")
    tf.train.MomentumOptimizer(0.1, 0.9).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"seq:0": SEQ.transpose(1, 0, 2), "lengths:0": LENGTHS,
                           "c0:0": X8[:4, :3].repeat(2, 1)},
                          ["loss:0", "rnn/lstm_cell/kernel:0", "rnn/lstm_cell/bias:0",
                           "rnn/lstm_cell/projection/kernel:0"])


def case_train_scan_and_map_fn(tf):
    """`tf.scan` (a running state over the rows, captured weights) and `tf.map_fn`
    (per example), both TensorArray loops; GradientDescent."""
    x = tf.placeholder(tf.float32, [8, 4], name="x")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.3 + 0.05))
    v = tf.get_variable("v", [4], initializer=tf.constant_initializer(0.2))
    running = tf.scan(lambda acc, row: tf.tanh(tf.matmul(acc[None], w)[0] + row), x,
                      initializer=tf.zeros([4]))
    mapped = tf.map_fn(lambda row: tf.reduce_sum(row * v) * row, running)
    loss = tf.reduce_mean(tf.square(mapped - 0.1), name="loss")
    tf.train.GradientDescentOptimizer(0.3).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8}, ["loss:0", "w:0", "v:0"])


def case_train_bidirectional_stacked_rnn(tf):
    """`bidirectional_dynamic_rnn` (two loops, the backward one over reversed inputs)
    feeding a second `dynamic_rnn` over a MultiRNNCell of two LSTMCells (a loop whose
    inputs come from the others' outputs), with sequence_length; Adam."""
    tf.set_random_seed(24)
    seq = tf.placeholder(tf.float32, [4, 5, 3], name="seq")
    lengths = tf.placeholder(tf.int32, [4], name="lengths")
    y = tf.placeholder(tf.float32, [4, 2], name="y")
    (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.GRUCell(4), tf.nn.rnn_cell.BasicLSTMCell(3), seq,
        sequence_length=lengths, dtype=tf.float32)
    stacked = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(4),
                                           tf.nn.rnn_cell.LSTMCell(3)])
    outputs, state = tf.nn.dynamic_rnn(stacked, tf.concat([fw, bw], 2),
                                       sequence_length=lengths, dtype=tf.float32,
                                       scope="top")
    pred = tf.layers.dense(state[-1].h, 2, name="pred")
    loss = tf.add(tf.reduce_mean(tf.square(pred - y)),
                  0.1 * tf.reduce_mean(tf.square(outputs)), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"seq:0": SEQ, "lengths:0": LENGTHS, "y:0": X8[:4, 1:3]},
                          ["loss:0", "bidirectional_rnn/fw/gru_cell/gates/kernel:0",
                           "bidirectional_rnn/bw/basic_lstm_cell/kernel:0",
                           "top/multi_rnn_cell/cell_0/lstm_cell/kernel:0",
                           "top/multi_rnn_cell/cell_1/lstm_cell/bias:0", "pred/kernel:0"])


def case_train_while_loop_maximum_iterations(tf):
    """A while_loop bounded by `maximum_iterations` and a data-dependent condition,
    one loop variable passed through unchanged and one the body never reads; the
    trip count differs per run (feeds), zero iterations included; GradientDescent."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    limit = tf.placeholder(tf.float32, [], name="limit")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.6 + 0.05))
    scale = tf.get_variable("scale", [], initializer=tf.constant_initializer(0.5))

    def body(h, kept, last):
        return [tf.nn.relu(tf.matmul(h, w)) + 0.1, kept, h * scale]

    h, kept, last = tf.while_loop(
        lambda h, kept, last: tf.reduce_sum(h) < limit, body, [x, x * scale, x],
        maximum_iterations=4)
    loss = tf.reduce_mean(h * kept + last, name="loss")
    tf.train.GradientDescentOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "limit:0": 8.0},
                          ["loss:0", "w:0", "scale:0"])
    for runs in ({"x:0": X8, "limit:0": -100.0}, {"x:0": X8, "limit:0": 1e6}):
        spec["runs"] += [{"feeds": runs, "fetches": [], "targets": ["train"]},
                         {"feeds": runs, "fetches": ["loss:0", "w:0", "scale:0"]}]
    return spec


def case_train_while_loop_masks_and_stops(tf):
    """A loop body with values not computed from what is differentiated — a mask from
    the step counter through Floor/Cast (ops TF cannot differentiate in a function,
    pushed each iteration as dropout's random masks are) — and a `tf.stop_gradient`
    of the state; GradientDescent."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.4 + 0.1))

    def body(i, h):
        mask = tf.floor(tf.cast(i + tf.range(4), tf.float32) / 2.0) % 2.0
        step = tf.tanh(tf.matmul(h * (mask + 0.5), w))
        return i + 1, step + 0.3 * tf.stop_gradient(h)

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8}, ["loss:0", "w:0"])


def case_train_keras_lstm_gru_resource(tf):
    """tf.keras LSTM and GRU layers (resource variables read inside the loop bodies)
    in a TF1 graph, trained with a tf.train optimizer; resource `tf.get_variable`s
    read by a hand-written loop (one through an embedding lookup); RMSProp."""
    tf.set_random_seed(26)
    seq = tf.placeholder(tf.float32, [4, 5, 3], name="seq")
    y = tf.placeholder(tf.float32, [4, 2], name="y")
    h = tf.keras.layers.GRU(4, return_sequences=True, name="gru")(seq)
    h = tf.keras.layers.LSTM(3, name="lstm")(h)
    scale = tf.get_variable("scale", [3], use_resource=True,
                            initializer=tf.constant_initializer(0.9))
    table = tf.get_variable("table", [3, 3], use_resource=True,
                            initializer=tf.constant_initializer(0.1))
    _, h = tf.while_loop(
        lambda i, v: i < 2,
        lambda i, v: (i + 1, tf.tanh(v * scale) + tf.nn.embedding_lookup(table, i)),
        [tf.constant(0), h])
    pred = tf.keras.layers.Dense(2, name="pred")(h)
    loss = tf.reduce_mean(tf.square(pred - y), name="loss")
    tf.train.RMSPropOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"seq:0": SEQ, "y:0": X8[:4, :2]},
                          ["loss:0", "gru/gru_cell/kernel/Read/ReadVariableOp:0",
                           "lstm/lstm_cell/recurrent_kernel/Read/ReadVariableOp:0",
                           "scale/Read/ReadVariableOp:0", "table/Read/ReadVariableOp:0",
                           "pred/kernel/Read/ReadVariableOp:0"])


def case_train_seq2seq_attention(tf):
    """The NMT-tutorial pattern: a GRU encoder (dynamic_rnn), a decoder over
    `tf.contrib.seq2seq` (TrainingHelper, whose next inputs come from a tf.cond in the
    loop body — not differentiated, so pushed; BasicDecoder with a Bahdanau
    AttentionWrapper and an output layer; dynamic_decode's dynamic-size TensorArrays),
    `sequence_loss` with a mask; Adam."""
    tf.set_random_seed(27)
    seq = tf.placeholder(tf.float32, [4, 5, 3], name="seq")
    lengths = tf.placeholder(tf.int32, [4], name="lengths")
    targets = tf.placeholder(tf.int32, [4, 5], name="targets")
    memory, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(6), seq,
                                      sequence_length=lengths, dtype=tf.float32,
                                      scope="encoder")
    attention = tf.contrib.seq2seq.BahdanauAttention(4, memory,
                                                     memory_sequence_length=lengths)
    cell = tf.contrib.seq2seq.AttentionWrapper(tf.nn.rnn_cell.GRUCell(6), attention,
                                               attention_layer_size=5)
    helper = tf.contrib.seq2seq.TrainingHelper(seq[:, ::-1], lengths)
    decoder = tf.contrib.seq2seq.BasicDecoder(
        cell, helper, cell.zero_state(4, tf.float32).clone(cell_state=state),
        output_layer=tf.layers.Dense(9, name="project"))
    outputs, _, _ = tf.contrib.seq2seq.dynamic_decode(decoder, scope="decoder")
    logits = outputs.rnn_output
    weights = tf.sequence_mask(lengths, tf.shape(logits)[1], dtype=tf.float32)
    loss = tf.identity(tf.contrib.seq2seq.sequence_loss(
        logits, targets[:, :tf.shape(logits)[1]], weights), name="loss")
    tf.train.AdamOptimizer(0.02).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(),
                          {"seq:0": SEQ, "lengths:0": LENGTHS, "targets:0": IDS5},
                          ["loss:0", "encoder/gru_cell/gates/kernel:0",
                           "decoder/attention_wrapper/bahdanau_attention/attention_v:0",
                           "decoder/attention_wrapper/attention_layer/kernel:0",
                           "decoder/project/kernel:0"])


def case_train_while_loop_cond_in_body(tf):
    """A tf.cond on the gradient path inside the loop body (odd steps a tanh layer,
    even ones a decay plus a bias term; written as both branches + Select in the body
    function), the predicate from the step counter and a placeholder; Momentum."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    flip = tf.placeholder(tf.bool, [], name="flip")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.05))

    def body(i, h):
        odd = tf.not_equal(tf.equal(i % 2, 1), flip)
        return i + 1, tf.cond(odd, lambda: tf.tanh(tf.matmul(h, w)),
                              lambda: h * 0.9 + b * tf.reduce_mean(w))

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.3, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "flip:0": False},
                          ["loss:0", "w:0", "b:0"])
    other = {"x:0": X8, "flip:0": True}
    spec["runs"] += [{"feeds": other, "fetches": [], "targets": ["train"]},
                     {"feeds": other, "fetches": ["loss:0", "w:0", "b:0"]}]
    return spec


def case_train_stacked_bidirectional_layers(tf):
    """`tf.contrib.rnn.stack_bidirectional_dynamic_rnn` without sequence lengths (the
    backward direction reversed with ReverseV2) under a tf.keras Bidirectional(LSTM)
    and a LayerNormBasicLSTMCell dynamic_rnn; GradientDescent."""
    tf.set_random_seed(28)
    seq = tf.placeholder(tf.float32, [4, 5, 3], name="seq")
    outputs, _, _ = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
        [tf.nn.rnn_cell.GRUCell(3)], [tf.nn.rnn_cell.GRUCell(3)], seq, dtype=tf.float32)
    normed, _ = tf.nn.dynamic_rnn(tf.contrib.rnn.LayerNormBasicLSTMCell(4), outputs,
                                  dtype=tf.float32, scope="norm")
    pooled = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(2), name="bi")(normed)
    loss = tf.reduce_mean(tf.square(pooled - 0.2), name="loss")
    tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(
        tf, tf.train.Saver(), {"seq:0": SEQ},
        ["loss:0", "stack_bidirectional_rnn/cell_0/bidirectional_rnn/bw/gru_cell/gates/kernel:0",
         "norm/layer_norm_basic_lstm_cell/kernel:0",
         "norm/layer_norm_basic_lstm_cell/state/gamma:0",
         "bi/forward_lstm/lstm_cell/kernel/Read/ReadVariableOp:0"])


LOOP_TRAINING_CASES = [case_train_while_loop_captured_weights,
                       case_train_dynamic_rnn_basic_lstm,
                       case_train_dynamic_rnn_gru_sequence_length,
                       case_train_dynamic_rnn_lstm_cell_projection,
                       case_train_scan_and_map_fn, case_train_bidirectional_stacked_rnn,
                       case_train_while_loop_maximum_iterations,
                       case_train_while_loop_masks_and_stops,
                       case_train_keras_lstm_gru_resource, case_train_seq2seq_attention,
                       case_train_while_loop_cond_in_body,
                       case_train_stacked_bidirectional_layers]
