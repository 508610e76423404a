"""Gradients of gradients through a tf.while_loop whose body holds a tf.cond: built the
same way by scripts/make_graph_fixtures_second_order.py (real TF, control flow v2) and
tests/test_second_order_loops.py (tf1compat, from TF's checkpoint)."""

from __future__ import annotations

import numpy as np

XS = (np.array([0.3, 0.7, -0.4], np.float32), np.array([-0.9, 0.2, 0.5], np.float32))
W0 = np.array([0.5, -0.3, 0.8], np.float32)


def loop_loss(tf, x, w):
    """A while loop over a counter and a state, the body's step chosen by a tf.cond on
    the counter; the loss is a sum over its result."""
    def body(i, h):
        h = tf.cond(i % 2 < 1, lambda: tf.sin(h * w) + h * h * 0.1,
                    lambda: tf.tanh(h) * w + 0.3 * h)
        return i + 1, h
    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    return tf.reduce_sum(h * h * w, name="loss")


def build_second_order(tf) -> None:
    """"g" = d loss/dx, "gg" = d g/dx, "hessian" = tf.hessians(loss, x), "g_w" =
    d sum(g * g)/dw for a fed x and a variable w the body captures."""
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(W0, name="w")
    loss = loop_loss(tf, x, w)
    g = tf.gradients(loss, x)[0]
    tf.identity(g, name="g")
    tf.identity(tf.gradients(g, x)[0], name="gg")
    tf.identity(tf.hessians(loss, x)[0], name="hessian")
    tf.identity(tf.gradients(tf.reduce_sum(g * g), w)[0], name="g_w")


def build_gradient_penalty(tf) -> None:
    """"total" = loss + sum((d loss/dx) ** 2), its GradientDescent op "train"."""
    x = tf.placeholder(tf.float32, [3], name="x")
    w = tf.Variable(W0, name="w")
    loss = loop_loss(tf, x, w)
    g = tf.gradients(loss, x)[0]
    total = tf.add(loss, tf.reduce_sum(g * g), name="total")
    tf.train.GradientDescentOptimizer(0.1).minimize(total, name="train")


# -- graphs tf1compat writes in a form TF runs (graphdef/loop_second_order.py) -----------------

X23 = np.array([[0.3, -0.8, 0.5], [1.1, 0.2, -0.4]], np.float32)
X23_B = np.array([[-0.6, 0.4, 0.9], [0.1, -1.2, 0.7]], np.float32)


def _tanh_matmul_loss(tf):
    """A loop of `tanh(h @ w + b)` over a fed state (its trip count from a fed n: known
    at run time only) and the loss of its result."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    n = tf.placeholder_with_default(tf.constant(3), [], name="n")
    w = tf.Variable(np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6], [-0.2, 0.3, 0.7]],
                             np.float32), name="w")
    b = tf.Variable(np.array([0.1, -0.2, 0.3], np.float32), name="b")

    def body(i, h):
        return i + 1, tf.tanh(tf.nn.bias_add(tf.matmul(h, w), b))
    _, h = tf.while_loop(lambda i, h: i < n, body, [tf.constant(0), x])
    return x, w, tf.reduce_sum(h * h * 0.5 + h, name="loss")


def case_loop_second_order_tanh_matmul(tf):
    """d/dx of tf.gradients(loss, x) through a tanh/matmul loop, and d sum(g * g)/dw
    (the variable the body captures): TF imports the file and runs both gradients of
    gradients (tangent and backward StatelessWhile loops) to tf1compat's values."""
    x, w, loss = _tanh_matmul_loss(tf)
    g = tf.identity(tf.gradients(loss, x)[0], name="g")
    tf.identity(tf.gradients(g, x)[0], name="gg")
    tf.identity(tf.gradients(tf.reduce_sum(g * g), w)[0], name="g_w")
    tf.global_variables_initializer()
    fetches = ["loss:0", "g:0", "gg:0", "g_w:0"]
    return {"init": "init", "runs": [
        {"feeds": {"x:0": X23}, "fetches": fetches},
        {"feeds": {"x:0": X23_B, "n:0": np.array(5, np.int32)}, "fetches": fetches},
        {"feeds": {"x:0": X23, "n:0": np.array(0, np.int32)}, "fetches": fetches}]}


def case_train_loop_gradient_penalty_tanh_matmul(tf):
    """loss + sum((d loss/dx) ** 2) through the tanh/matmul loop, trained with
    GradientDescent from the file: the train op's gradient holds the loop's backward
    loop (through the loss) and the second-order loops (through the penalty)."""
    from tests.graph_training_cases import _training_spec
    x, _, loss = _tanh_matmul_loss(tf)
    g = tf.gradients(loss, x)[0]
    tf.add(loss, tf.reduce_sum(g * g), name="total")
    tf.train.GradientDescentOptimizer(0.1).minimize(
        tf.get_default_graph().get_tensor_by_name("total:0"), name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X23}, ["total:0", "w:0", "b:0"])


def case_loop_second_order_op_set(tf):
    """Gradients of gradients (of two sources at once, a resource variable the body
    reads among them) through a loop carrying two states, whose body and loss use each
    op type of graphdef/tangent_lowering.py: broadcasting Add/Sub/Mul/RealDiv,
    transposed MatMul, Sigmoid, Relu, Exp, Log, Sin, Cos, Square, Neg, Mean, Sum,
    Reshape, Transpose, ExpandDims, Squeeze."""
    x = tf.placeholder(tf.float32, [2, 3], name="x")
    v = tf.get_variable("v", initializer=np.array(
        [[0.4, -0.2, 0.1], [0.3, 0.5, -0.4], [-0.1, 0.2, 0.6]], np.float32), use_resource=True)
    c = tf.Variable(np.array([0.2, -0.1, 0.05], np.float32), name="c")

    def body(i, h, s):
        a = tf.sigmoid(tf.matmul(h, v, transpose_b=True)) - tf.nn.relu(h - c) / 2.0
        e = tf.exp(-tf.square(a)) + tf.log(1.5 + tf.sin(h) * tf.cos(h))
        e = tf.reshape(tf.transpose(tf.transpose(e)), [2, 3])
        h = tf.tanh(a + e * 0.5)
        return i + 1, h, s + tf.reduce_mean(h * h, axis=1, keepdims=True)
    _, h, s = tf.while_loop(lambda i, h, s: i < 3, body,
                            [tf.constant(0), x, tf.zeros([2, 1])])
    loss = tf.subtract(tf.reduce_sum(tf.squeeze(tf.expand_dims(h, 0), 0) * s) / 3.0,
                       tf.reduce_mean(-h), name="loss")
    g_x, g_v = tf.gradients(loss, [x, v])
    tf.identity(g_x, name="g_x")
    tf.identity(g_v, name="g_v")
    penalty = tf.reduce_sum(g_x * g_x) + tf.reduce_sum(g_v * c)
    for k, grad in enumerate(tf.gradients(penalty, [x, v, c])):
        tf.identity(grad, name=f"gg_{k}")
    tf.global_variables_initializer()
    fetches = ["loss:0", "g_x:0", "g_v:0", "gg_0:0", "gg_1:0", "gg_2:0"]
    return {"init": "init", "runs": [{"feeds": {"x:0": X23}, "fetches": fetches},
                                     {"feeds": {"x:0": X23_B}, "fetches": fetches}]}


def case_loop_second_order_cond_body(tf):
    """build_second_order (a tf.cond in the loop's body; `tf.hessians` written row by
    row): TF's own graph of it computed the same values (tests/fixtures/tf_graphs/
    loop_second_order_gradients)."""
    build_second_order(tf)
    tf.global_variables_initializer()
    return {"init": "init", "runs": [{"feeds": {"x:0": xv}, "fetches": [
        "loss:0", "g:0", "gg:0", "hessian:0", "g_w:0"]} for xv in XS]}


def case_train_loop_gradient_penalty_cond_body(tf):
    """build_gradient_penalty (a tf.cond in the loop's body) trained from the file."""
    from tests.graph_training_cases import _training_spec
    build_gradient_penalty(tf)
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": XS[0]}, ["total:0", "w:0"])


SEQ = np.array([[[0.5, -0.2], [0.1, 0.9]], [[-0.7, 0.3], [0.4, -0.1]],
                [[0.2, 0.6], [-0.5, 0.8]], [[0.9, -0.4], [0.0, 0.3]]], np.float32)


def _lstm_loss(tf):
    """A hand-written LSTM over a fed [time, batch, 2] sequence (its step's input the
    counter's row, a StridedSlice), masked past each row's fed length (Select), its
    gates one MatMul of the concatenated input and state sliced and split in four
    (Slice to the end, Split, StridedSlice, SplitV); the loss of its clipped,
    normalized last output and state."""
    seq = tf.placeholder(tf.float32, [4, 2, 2], name="seq")
    lengths = tf.placeholder_with_default(np.array([4, 2], np.int32), [2], name="lengths")
    kernel = tf.Variable(np.sin(np.arange(32, dtype=np.float32)).reshape(4, 8) * 0.4,
                         name="kernel")
    bias = tf.Variable(np.linspace(-0.2, 0.3, 8).astype(np.float32), name="bias")

    def body(i, c, h):
        gates = tf.nn.bias_add(tf.matmul(tf.concat([seq[i], h], 1), kernel), bias)
        f, j = tf.split(tf.slice(gates, [0, 0], [-1, 4]), 2, axis=1)
        o, g = tf.split(gates[:, 4:], [2, 2], axis=1)
        new_c = c * tf.sigmoid(f + 1.0) + tf.sigmoid(j) * tf.tanh(g)
        new_h = tf.tanh(new_c) * tf.sigmoid(o)
        keep = tf.less(i, lengths)
        return (i + 1, tf.where(keep, new_c, c), tf.where(keep, new_h, tf.maximum(h, -0.5)))
    zero = tf.zeros([2, 2])
    _, c, h = tf.while_loop(lambda i, c, h: i < 4, body, [tf.constant(0), zero, zero])
    out = tf.minimum(tf.stack([h, c], 1), 0.6)
    norm = tf.rsqrt(tf.reduce_sum(tf.squared_difference(out, 0.1)) + 1.0)
    first, second = tf.unstack(out, axis=1)
    return seq, kernel, tf.identity(tf.reduce_sum(tf.abs(out)) * norm +
                                    tf.reduce_sum(first * second) +
                                    tf.reduce_sum(tf.sqrt(tf.nn.softplus(h) + 0.5)) +
                                    tf.reduce_sum(tf.reciprocal(2.0 + tf.cast(c > 0, tf.float32))),
                                    name="loss")


def case_train_loop_gradient_penalty_lstm(tf):
    """A gradient penalty on the input sequence of the hand-written LSTM (WGAN-GP
    style: loss + (|d loss/d seq| - 1) ** 2) trained with GradientDescent from the
    file."""
    from tests.graph_training_cases import _training_spec
    seq, _, loss = _lstm_loss(tf)
    g = tf.gradients(loss, seq)[0]
    norm = tf.sqrt(tf.reduce_sum(tf.square(g)) + 1e-6)
    total = tf.add(loss, tf.square(norm - 1.0), name="total")
    tf.train.GradientDescentOptimizer(0.05).minimize(total, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"seq:0": SEQ},
                          ["total:0", "kernel:0", "bias:0"])


def _rnn_penalty(tf, cell, lengths=None, shape=(2, 4, 2)):
    """loss + sum((d loss/d seq) ** 2) through tf.nn.dynamic_rnn over `cell` (its input
    unstacked into a TensorArray, read each step; its outputs written into one and
    stacked after the loop), trained with GradientDescent from the file."""
    seq = tf.placeholder(tf.float32, list(shape), name="seq")
    out, state = tf.nn.dynamic_rnn(cell, seq, sequence_length=lengths, dtype=tf.float32)
    final = state.h if hasattr(state, "h") else state
    return _penalty_training(tf, seq, tf.reduce_sum(tf.tanh(out) * out) +
                             tf.reduce_sum(final * 0.5))


def _penalty_training(tf, seq, loss):
    """"total" = loss + sum((d loss/d seq) ** 2), its GradientDescent op "train" and the
    training spec fetching it and each trainable variable's value."""
    from tests.graph_training_cases import _training_spec
    loss = tf.identity(loss, name="loss")
    g = tf.gradients(loss, seq)[0]
    tf.add(loss, tf.reduce_sum(g * g), name="total")
    tf.train.GradientDescentOptimizer(0.1).minimize(
        tf.get_default_graph().get_tensor_by_name("total:0"), name="train")
    tf.global_variables_initializer()
    # (the values read by name: TF's own graph of the case, built with control flow v2,
    # makes the cell's variables resource variables)
    fetches = ["total:0"] + [tf.identity(v, name=f"value_{k}").name
                             for k, v in enumerate(tf.trainable_variables())]
    return _training_spec(tf, tf.train.Saver(), {"seq:0": SEQ.transpose(1, 0, 2)}, fetches)


def case_train_rnn_gradient_penalty_gru(tf):
    """A gradient penalty through dynamic_rnn over a GRUCell (fixed lengths)."""
    tf.set_random_seed(1)
    return _rnn_penalty(tf, tf.nn.rnn_cell.GRUCell(3))


def case_train_rnn_gradient_penalty_lstm(tf):
    """A gradient penalty through dynamic_rnn over an LSTMCell (fixed lengths)."""
    tf.set_random_seed(2)
    return _rnn_penalty(tf, tf.nn.rnn_cell.LSTMCell(3))


def case_train_rnn_gradient_penalty_basic(tf):
    """A gradient penalty through dynamic_rnn over a BasicRNNCell (fixed lengths)."""
    tf.set_random_seed(3)
    return _rnn_penalty(tf, tf.nn.rnn_cell.BasicRNNCell(3))


def case_train_rnn_gradient_penalty_lstm_lengths(tf):
    """A gradient penalty through dynamic_rnn over an LSTMCell, the batch, the number of
    steps and the lengths (a fed default) known at run time only: the initial state a
    Fill of the input's run-time batch, the steps past a row's length copying its state
    through (Select)."""
    tf.set_random_seed(5)
    lengths = tf.placeholder_with_default(np.array([4, 2], np.int32), [None], name="lengths")
    return _rnn_penalty(tf, tf.nn.rnn_cell.LSTMCell(3), lengths, (None, None, 2))


def wide_op_set_step(tf, h, w):
    """A loop step over a [2, 3] state `h` and a [3, 3] weight `w` using the op types
    of graphdef/tangent_lowering.py the other cases do not: Atan, Elu, Selu, Softmax,
    LogSoftmax, SelectV2 (broadcasting), GatherV2, Tile, Pow, Expm1, Log1p, Sinh, Cosh,
    Tan, Asin, Acos, LeakyRelu, Relu6, ReverseV2, Cumsum, Pad, AddN, L2Loss,
    BatchMatMulV2, Sign."""
    a = tf.atan(h) + tf.nn.elu(h) * 0.5 + tf.nn.selu(h) * 0.1
    s = tf.nn.softmax(a) + tf.nn.log_softmax(h) * 0.1
    t = tf.where_v2(h[:, :1] > 0, tf.sinh(h) * 0.3, tf.cosh(h) * 0.2)
    u = tf.transpose(tf.gather(tf.transpose(tf.concat([s, t], 1)), [0, 2, 4]))
    v = tf.tile(tf.reduce_mean(u, 0, keepdims=True), [2, 1])
    p = tf.pow(tf.sigmoid(h) + 0.5, 1.5) + tf.expm1(h * 0.1) + tf.log1p(tf.square(h))
    r = tf.nn.leaky_relu(h, 0.1) + tf.nn.relu6(h * 4.0) * 0.1 + tf.tan(h * 0.3) + \
        tf.asin(tf.tanh(h) * 0.5) + tf.acos(tf.tanh(h) * 0.5) * tf.sign(h + 2.0)
    q = tf.reverse(tf.cumsum(h, axis=1), [1]) * 0.1 + tf.add_n([u, v, p]) * 0.2
    padded = tf.pad(h, [[0, 0], [1, 1]])[:, 1:4]
    mm = tf.matmul(tf.expand_dims(h, 0), tf.expand_dims(w, 0))[0]
    return tf.tanh(q + r * 0.1 + padded * 0.2 + mm + tf.nn.l2_loss(h) * 0.01)


def image_op_set_step(tf, h, w):
    """A loop step over a [2, 3] state `h` (an image of 2 x 3 pixels) and a [3, 3]
    weight `w`: Conv2D (its filter from the state too), DepthwiseConv2dNative, AvgPool,
    GatherNd, MirrorPad, BroadcastTo, UnsortedSegmentSum, Atanh."""
    image = tf.reshape(h, [1, 2, 3, 1])
    kernel = tf.reshape(tf.tanh(tf.matmul(h, w)[:, :2]), [2, 2, 1, 1])
    conv = tf.nn.conv2d(image, kernel, [1, 1, 1, 1], "SAME")
    depthwise = tf.nn.depthwise_conv2d(image, tf.reshape(w[:2, :2], [2, 2, 1, 1]),
                                       [1, 1, 1, 1], "SAME")
    pooled = tf.nn.avg_pool(conv + depthwise, [1, 2, 2, 1], [1, 1, 1, 1], "SAME")
    picked = tf.gather_nd(h, [[1, 0], [0, 2], [1, 1], [0, 0], [1, 2], [0, 1]])
    mirrored = tf.pad(h, [[0, 0], [1, 1]], "REFLECT")[:, 1:4]
    summed = tf.unsorted_segment_sum(h * w[0], [1, 0], 2)
    return tf.tanh(tf.reshape(pooled, [2, 3]) + tf.reshape(picked, [2, 3]) * 0.3 +
                   mirrored * 0.2 + tf.broadcast_to(h[:1], [2, 3]) * 0.1 + summed * 0.2 +
                   tf.atanh(tf.tanh(h) * 0.5))


def wide_op_set_gradients(tf, dtype, step=wide_op_set_step):
    """x, w, loss, g = d loss/dx, gg = d sum(g * g)/[x, w] through three steps of
    `step`."""
    x = tf.placeholder(dtype, [2, 3], name="x")
    w = tf.Variable(np.array([[0.5, -0.3, 0.2], [0.1, 0.4, -0.6], [-0.2, 0.3, 0.7]]),
                    dtype=dtype, name="w")
    _, h = tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, step(tf, h, w)),
                         [tf.constant(0), x])
    loss = tf.reduce_sum(h * h + h, name="loss")
    g = tf.identity(tf.gradients(loss, x)[0], name="g")
    gg = tf.gradients(tf.reduce_sum(g * g), [x, w])
    return x, w, loss, g, [tf.identity(t, name=f"gg_{k}") for k, t in enumerate(gg)]


def case_train_rnn_gradient_penalty_classifier(tf):
    """A gradient penalty through a classifier over dynamic_rnn of a MultiRNNCell (GRU
    into LSTM, one loop), a dense layer per step and the sparse and the dense softmax
    cross-entropies after the loop."""
    tf.set_random_seed(7)
    seq = tf.placeholder(tf.float32, [2, 4, 2], name="seq")
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.LSTMCell(3)])
    out, _ = tf.nn.dynamic_rnn(cell, seq, dtype=tf.float32)
    logits = tf.layers.dense(out, 3)
    labels = tf.constant([[0, 1, 2, 1], [2, 1, 0, 0]])
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    dense = tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=tf.constant(np.full([2, 3], 1 / 3, np.float32)), logits=logits[:, -1])
    return _penalty_training(tf, seq, (tf.reduce_mean(sparse) + tf.reduce_mean(dense)) * 10.0)


def case_train_rnn_gradient_penalty_encoder_decoder(tf):
    """A gradient penalty through an encoder-decoder: a dynamic_rnn (LSTMCell) whose
    final state, scaled and squashed, is the initial state of a second one over the
    reversed input (two loops, the second's inputs computed from the first's results:
    a function of their values and tangents between the loops)."""
    tf.set_random_seed(8)
    seq = tf.placeholder(tf.float32, [2, 4, 2], name="seq")
    with tf.variable_scope("encoder"):
        _, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(3), seq, dtype=tf.float32)
    with tf.variable_scope("decoder"):
        start = tf.nn.rnn_cell.LSTMStateTuple(state.c * 0.5, tf.tanh(state.h))
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(3), tf.tanh(seq[:, ::-1]),
                                   initial_state=start, dtype=tf.float32)
    return _penalty_training(tf, seq, tf.reduce_sum(tf.tanh(out) * out) +
                             tf.reduce_sum(state.h))


def case_train_rnn_gradient_penalty_stacked(tf):
    """A gradient penalty through two stacked dynamic_rnns (GRUCells), the second
    reading the first's outputs (stacked after its loop, unstacked before the second's)
    and starting from its squashed final state."""
    tf.set_random_seed(9)
    seq = tf.placeholder(tf.float32, [2, 4, 2], name="seq")
    with tf.variable_scope("lower"):
        inner, state = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), seq, dtype=tf.float32)
    with tf.variable_scope("upper"):
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), inner,
                                   initial_state=tf.tanh(state), dtype=tf.float32)
    return _penalty_training(tf, seq, tf.reduce_sum(tf.tanh(out) * out) * 3.0)


def case_loop_second_order_image_op_set(tf):
    """The same through a loop of image_op_set_step (convolutions, pooling, ...)."""
    return case_loop_second_order_wide_op_set(tf, image_op_set_step)


def case_train_rnn_gradient_penalty_bidirectional(tf):
    """A gradient penalty through bidirectional_dynamic_rnn (a GRUCell forwards, an
    LSTMCell backwards; fed lengths: ReverseSequence before and after the backward
    loop) and a second dynamic_rnn over the same input: three loops in the first
    gradient's region, each written as its own tangent and backward loops."""
    tf.set_random_seed(6)
    seq = tf.placeholder(tf.float32, [2, 4, 2], name="seq")
    lengths = tf.placeholder_with_default(np.array([4, 3], np.int32), [2], name="lengths")
    (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(
        tf.nn.rnn_cell.GRUCell(3), tf.nn.rnn_cell.LSTMCell(3), seq, lengths,
        dtype=tf.float32)
    with tf.variable_scope("second"):
        other, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.BasicRNNCell(3), seq * 0.5,
                                     dtype=tf.float32)
    out = tf.concat([fw, bw], 2)
    return _penalty_training(tf, seq, tf.reduce_sum(tf.tanh(out) * out) +
                             tf.reduce_sum(other * fw))


def case_loop_second_order_wide_op_set(tf, step=wide_op_set_step):
    """Gradients of gradients through a loop whose body holds wide_op_set_step's op
    types: TF runs the file's tangent and backward loops to tf1compat's values."""
    wide_op_set_gradients(tf, tf.float32, step)
    tf.global_variables_initializer()
    fetches = ["loss:0", "g:0", "gg_0:0", "gg_1:0"]
    return {"init": "init", "runs": [{"feeds": {"x:0": X23}, "fetches": fetches},
                                     {"feeds": {"x:0": X23_B}, "fetches": fetches}]}


SECOND_ORDER_CASES = [case_loop_second_order_tanh_matmul,
                      case_train_loop_gradient_penalty_tanh_matmul,
                      case_loop_second_order_op_set, case_loop_second_order_cond_body,
                      case_train_loop_gradient_penalty_cond_body,
                      case_train_loop_gradient_penalty_lstm,
                      case_train_rnn_gradient_penalty_gru, case_train_rnn_gradient_penalty_lstm,
                      case_train_rnn_gradient_penalty_basic,
                      case_train_rnn_gradient_penalty_lstm_lengths,
                      case_loop_second_order_wide_op_set,
                      case_train_rnn_gradient_penalty_bidirectional,
                      case_loop_second_order_image_op_set,
                      case_train_rnn_gradient_penalty_classifier,
                      case_train_rnn_gradient_penalty_encoder_decoder,
                      case_train_rnn_gradient_penalty_stacked]
