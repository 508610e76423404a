"""More training graphs with loops in the gradient region that real TensorFlow trains
from the file tf1compat writes (scripts/check_tf_reads_graphs.py; as
tests/graph_loop_training_cases.py): tf.foldl/foldr, Cumsum/Cumprod in a loop body,
tf.conds in a loop body whose branches draw random numbers, stop gradients and read
resource variables, TensorArrays read after the loop (read, concat) and split before it,
written twice per iteration or read in the body from earlier iterations or after this
iteration's write, a loop in a
cond in a cond, branch values of run-time shape into MatMuls.
"""

from __future__ import annotations

import numpy as np

from tests.graph_loop_training_cases import IDS5, SEQ
from tests.graph_training_cases import X8, _training_spec

ROWS = np.cos(np.arange(5 * 3, dtype=np.float32) * 0.7).reshape(5, 3)
# A row with an exact zero: Cumprod's gradient there is TF's (div_no_nan: 0).
WITH_ZERO = np.array([[0.5, -1.0, 0.8, 1.2, 0.3], [0.9, 0.0, 1.1, -0.4, 0.7],
                      [1.3, 0.6, -0.2, 0.5, 1.0], [-0.7, 0.4, 0.9, 0.0, 0.6]], np.float32)


def case_train_foldl_foldr(tf):
    """`tf.foldl` (a tanh recurrence over the rows with a captured weight),
    `tf.foldr` (the rows from the last, scaled by another) and `tf.scan(reverse=True)`;
    GradientDescent."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.5, -0.3, 0.8]))
    v = tf.get_variable("v", [3], initializer=tf.constant_initializer(0.4))
    left = tf.foldl(lambda acc, row: tf.tanh(acc * w + row), x, initializer=tf.zeros([3]))
    right = tf.foldr(lambda acc, row: acc * 0.5 + row * v, x, initializer=tf.ones([3]))
    backwards = tf.scan(lambda acc, row: tf.sigmoid(acc * v - row * w), x,
                        initializer=tf.zeros([3]), reverse=True)
    loss = tf.add_n([tf.reduce_mean(tf.square(left - 0.2)), tf.reduce_mean(tf.square(right)),
                     tf.reduce_mean(backwards[1:] * backwards[:-1])], name="loss")
    tf.train.GradientDescentOptimizer(0.3).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS}, ["loss:0", "w:0", "v:0"])


def case_train_while_loop_cumsum_cumprod(tf):
    """Cumsum (plain, exclusive + reverse, over either axis) and Cumprod (of an input
    with zeros: TF's gradient there) in a loop body; Momentum."""
    x = tf.placeholder(tf.float32, [4, 5], name="x")
    w = tf.get_variable("w", [5], initializer=tf.constant_initializer(
        [0.3, -0.2, 0.5, 0.1, 0.4]))
    v = tf.get_variable("v", [5], initializer=tf.constant_initializer(0.7))

    def body(i, h):
        mixed = tf.tanh(tf.cumsum(h * w, axis=1) * 0.3) + \
            0.2 * tf.cumsum(h, axis=0, exclusive=True, reverse=True)
        scaled = tf.cumprod(x * v, axis=1, exclusive=True, reverse=True) + \
            tf.cumprod(tf.sigmoid(h), axis=-1) * w
        return i + 1, mixed + 0.1 * scaled

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.1), name="loss")
    tf.train.MomentumOptimizer(0.2, 0.9).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": WITH_ZERO}, ["loss:0", "w:0", "v:0"])


def case_train_while_loop_cond_branch_cuts(tf):
    """A tf.cond in the loop body whose branches read a resource variable (the tanh
    layer), draw random numbers (uniform in [1, 1]: the same values in TF and tf1compat)
    and stop a gradient; the values not differentiated are pushed each iteration;
    Momentum, with the predicate flipped by a placeholder."""
    tf.set_random_seed(31)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    flip = tf.placeholder(tf.bool, [], name="flip")
    w = tf.get_variable("w", [4, 4], use_resource=True, initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.05))

    def body(i, h):
        odd = tf.not_equal(tf.equal(i % 2, 1), flip)
        return i + 1, tf.cond(
            odd, lambda: tf.tanh(tf.matmul(h, w)) * tf.random_uniform(tf.shape(h), 1.0, 1.0),
            lambda: h * 0.9 + tf.stop_gradient(h * b) * 0.5 + b)

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.3, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "flip:0": False},
                          ["loss:0", "w/Read/ReadVariableOp:0", "b:0"])
    other = {"x:0": X8, "flip:0": True}
    spec["runs"] += [{"feeds": other, "fetches": [], "targets": ["train"]},
                     {"feeds": other, "fetches": ["loss:0", "w/Read/ReadVariableOp:0", "b:0"]}]
    return spec


def case_train_while_loop_dropout_flag(tf):
    """`tf.layers.dropout` with a tensor `training` flag in a loop body (a tf.cond whose
    training branch draws the mask: pushed each iteration); GradientDescent. TF's
    random numbers inside loops differ from tf1compat's, so the steps compared run
    with training=False; a last step with training=True shows TF runs the drawn
    branch's gradient from the file (its values are not compared)."""
    tf.set_random_seed(33)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    training = tf.placeholder(tf.bool, [], name="training")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.6 - 0.05))

    def body(i, h):
        return i + 1, tf.layers.dropout(tf.tanh(tf.matmul(h, w)), 0.3, training=training)

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.25), name="loss")
    tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "training:0": False},
                          ["loss:0", "w:0"])
    spec["runs"].append({"feeds": {"x:0": X8, "training:0": True}, "fetches": [],
                         "targets": ["train"]})
    return spec


def case_train_loop_in_cond(tf):
    """A tf.while_loop in a tf.cond branch (the other branch without one), after a
    dense layer: the branch gradients are switched on the predicate, the loop's
    backward loop runs only where its branch did; Momentum, the predicate fed both
    ways."""
    tf.set_random_seed(35)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    deep = tf.placeholder(tf.bool, [], name="deep")
    h0 = tf.layers.dense(x, 4, activation=tf.tanh, name="encode")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.05))

    def recur():
        return tf.while_loop(lambda i, h: i < 3, lambda i, h: (
            i + 1, tf.tanh(tf.matmul(h, w)) + b), [tf.constant(0), h0])[1]

    h = tf.cond(deep, recur, lambda: h0 * tf.reduce_mean(w) + b)
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.MomentumOptimizer(0.3, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    fetches = ["loss:0", "encode/kernel:0", "w:0", "b:0"]
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "deep:0": True}, fetches)
    shallow = {"x:0": X8, "deep:0": False}
    spec["runs"] += [{"feeds": shallow, "fetches": [], "targets": ["train"]},
                     {"feeds": shallow, "fetches": fetches}]
    return spec


def case_train_rnn_and_resource_loop_in_cond(tf):
    """A dynamic_rnn (TensorArrays unstacked and stacked inside the branch) in one
    tf.cond branch, a loop reading a resource variable in the other; GradientDescent,
    the predicate fed both ways."""
    tf.set_random_seed(36)
    seq = tf.placeholder(tf.float32, [4, 5, 3], name="seq")
    use_rnn = tf.placeholder(tf.bool, [], name="use_rnn")
    v = tf.get_variable("v", [3], use_resource=True, initializer=tf.constant_initializer(
        [0.9, -0.5, 0.7]))
    cell = tf.nn.rnn_cell.GRUCell(3)

    def rnn():
        return tf.nn.dynamic_rnn(cell, seq, dtype=tf.float32)[0][:, -1]

    def scaled():
        return tf.while_loop(lambda i, h: i < 2, lambda i, h: (i + 1, tf.tanh(h * v) + 0.1),
                             [tf.constant(0), seq[:, 0]])[1]

    out = tf.cond(use_rnn, rnn, scaled)
    loss = tf.reduce_mean(tf.square(out - 0.1), name="loss")
    tf.train.GradientDescentOptimizer(0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    fetches = ["loss:0", "rnn/gru_cell/gates/kernel:0", "rnn/gru_cell/candidate/kernel:0",
               "v/Read/ReadVariableOp:0"]
    spec = _training_spec(tf, tf.train.Saver(), {"seq:0": SEQ, "use_rnn:0": True}, fetches)
    other = {"seq:0": SEQ, "use_rnn:0": False}
    spec["runs"] += [{"feeds": other, "fetches": [], "targets": ["train"]},
                     {"feeds": other, "fetches": fetches}]
    return spec


def case_train_train_infer_cond(tf):
    """A train/infer switch: `tf.cond(training, ...)` between a teacher-forced
    dynamic_rnn and a hand-written greedy decoding loop (argmax of the shared
    projection fed back through the shared embedding and cell); Adam on the sparse
    cross-entropy, trained through either branch."""
    tf.set_random_seed(37)
    ids = tf.placeholder(tf.int32, [4, 5], name="ids")
    training = tf.placeholder(tf.bool, [], name="training")
    embeddings = tf.get_variable("embeddings", [9, 3])
    cell = tf.nn.rnn_cell.GRUCell(4)
    project = tf.layers.Dense(9, name="project")

    def teacher_forced():
        outputs, _ = tf.nn.dynamic_rnn(cell, tf.nn.embedding_lookup(embeddings, ids),
                                       dtype=tf.float32)
        return project(outputs)

    def greedy():
        def body(i, token, state, steps):
            output, state = cell(tf.nn.embedding_lookup(embeddings, token), state)
            logits = project(output)
            return (i + 1, tf.argmax(logits, -1, output_type=tf.int32), state,
                    steps.write(i, logits))
        steps = tf.while_loop(lambda i, *_: i < 5, body, [
            tf.constant(0), ids[:, 0], cell.zero_state(4, tf.float32),
            tf.TensorArray(tf.float32, 5)])[3]
        return tf.transpose(steps.stack(), [1, 0, 2])

    logits = tf.cond(training, teacher_forced, greedy)
    loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=ids, logits=logits), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    fetches = ["loss:0", "embeddings:0", "rnn/gru_cell/gates/kernel:0", "project/kernel:0"]
    spec = _training_spec(tf, tf.train.Saver(), {"ids:0": IDS5, "training:0": True},
                          fetches)
    infer = {"ids:0": IDS5, "training:0": False}
    spec["runs"] += [{"feeds": infer, "fetches": [], "targets": ["train"]},
                     {"feeds": infer, "fetches": fetches}]
    return spec


def case_train_tensor_arrays_split_read_concat(tf):
    """A TensorArray split before the loop (elements of 1, 2 and 3 rows) and read in
    the body; two written in it: one concatenated after the loop, one read at a constant
    index, at one computed from the loop's counter, gathered (an index twice) and
    stacked; Adam."""
    x = tf.placeholder(tf.float32, [6, 3], name="x")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.6, -0.4, 0.9]))
    v = tf.get_variable("v", [3], initializer=tf.constant_initializer(0.8))
    pieces = tf.TensorArray(tf.float32, 3, infer_shape=False).split(x * v, [1, 2, 3])
    blocks = tf.TensorArray(tf.float32, 3, infer_shape=False)
    states = tf.TensorArray(tf.float32, 3, clear_after_read=False)

    def body(i, h, blocks, states):
        rows = tf.reshape(pieces.read(i), [-1, 3])
        h = tf.tanh(h * w + tf.reduce_sum(rows, 0))
        return i + 1, h, blocks.write(i, rows * h), states.write(i, h * w)

    n, h, blocks, states = tf.while_loop(lambda i, *_: i < 3, body,
                                         [tf.constant(0), tf.zeros([3]), blocks, states])
    loss = tf.reduce_mean(tf.square(tf.reshape(blocks.concat(), [6, 3]))) + \
        tf.reduce_mean(tf.square(states.read(1) - 0.3)) + 0.1 * tf.reduce_mean(states.stack()) \
        + tf.reduce_sum(states.read(n - 1) * h) + \
        tf.reduce_sum(states.gather([2, 0, 2]) * [[0.3], [-0.2], [0.1]])
    loss = tf.identity(loss, name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": np.concatenate([ROWS, ROWS])[:6]},
                          ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_written_twice(tf):
    """A TensorArray written twice per iteration (rows 2i and 2i + 1), stacked and read
    at a constant index after the loop; another written twice, concatenated; RMSProp."""
    x = tf.placeholder(tf.float32, [3, 4], name="x")
    w = tf.get_variable("w", [4], initializer=tf.constant_initializer([0.6, -0.4, 0.9, 0.2]))
    v = tf.get_variable("v", [4], initializer=tf.constant_initializer(0.7))
    pairs = tf.TensorArray(tf.float32, 6, clear_after_read=False)
    blocks = tf.TensorArray(tf.float32, 6, infer_shape=False)

    def body(i, h, pairs, blocks):
        h = tf.tanh(h * w + x[i])
        pairs = pairs.write(2 * i, h * v).write(2 * i + 1, tf.sigmoid(h - v))
        blocks = blocks.write(2 * i, tf.reshape(h * w, [2, 2])).write(
            2 * i + 1, tf.reshape(h[:2] * v[2:], [1, 2]))
        return i + 1, h, pairs, blocks

    _, h, pairs, blocks = tf.while_loop(lambda i, *_: i < 3, body,
                                        [tf.constant(0), tf.zeros([4]), pairs, blocks])
    stacked = pairs.stack()
    loss = tf.reduce_mean(tf.square(stacked - 0.1) * tf.reshape(tf.range(6.0), [6, 1])) + \
        tf.reduce_sum(pairs.read(3) * w) + 0.2 * tf.reduce_sum(h) + \
        tf.reduce_mean(tf.square(tf.reshape(blocks.concat(), [9, 2])))
    loss = tf.identity(loss, name="loss")
    tf.train.RMSPropOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:3, :3].repeat(2, 1)[:, :4]},
                          ["loss:0", "w:0", "v:0"])


def case_train_loop_in_cond_in_cond(tf):
    """A tf.while_loop in a tf.cond branch inside another tf.cond's branch (the inner
    cond's other branch a dense-free expression, the outer's other branch too): the
    gradients pass both predicates' Switches, the loop's backward loop runs only where
    both branches did; Adam, the predicates fed all three ways."""
    tf.set_random_seed(41)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    outer = tf.placeholder(tf.bool, [], name="outer")
    inner = tf.placeholder(tf.bool, [], name="inner")
    h0 = tf.layers.dense(x, 4, activation=tf.tanh, name="encode")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.05))

    def recur():
        start = h0 * 0.5 + b
        return tf.while_loop(lambda i, h: i < 3, lambda i, h: (
            i + 1, tf.tanh(tf.matmul(h, w)) + b), [tf.constant(0), start])[1]

    def deep():
        return tf.cond(inner, recur, lambda: tf.sigmoid(h0 * b)) * 1.5

    h = tf.cond(outer, deep, lambda: h0 * tf.reduce_mean(w) + b)
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    fetches = ["loss:0", "encode/kernel:0", "w:0", "b:0"]
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "outer:0": True,
                                                 "inner:0": True}, fetches)
    for o, i in ((True, False), (False, True), (True, True)):
        feeds = {"x:0": X8, "outer:0": o, "inner:0": i}
        spec["runs"] += [{"feeds": feeds, "fetches": [], "targets": ["train"]},
                         {"feeds": feeds, "fetches": fetches}]
    return spec


def case_train_while_loop_cond_run_time_shapes(tf):
    """A tf.cond in the loop body (the batch size known only at run time) whose
    branches send random numbers (uniform in [1, 1]), a gradient stop and a Floor of
    random numbers straight into MatMuls, then a tf.cond after the loop doing the same:
    the untaken branch's stand-in is a Fill of zeros of the run-time shape; RMSProp,
    the predicate flipped."""
    tf.set_random_seed(43)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    flip = tf.placeholder(tf.bool, [], name="flip")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    v = tf.get_variable("v", [4, 4], initializer=tf.constant_initializer(0.15))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.05))

    def body(i, h):
        odd = tf.not_equal(tf.equal(i % 2, 1), flip)
        return i + 1, tf.cond(
            odd, lambda: tf.tanh(tf.matmul(tf.random_uniform(tf.shape(h), 1.0, 1.0), w) +
                                 tf.matmul(h, v)),
            lambda: tf.sigmoid(tf.matmul(tf.stop_gradient(h * b), v) + h * b) +
            tf.matmul(tf.floor(tf.random_uniform(tf.shape(h), 1.0, 1.0) * 0.5) + h, w) * 0.1)

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), x])
    h = tf.cond(flip, lambda: tf.matmul(tf.stop_gradient(h * 0.5), v) + h,
                lambda: tf.matmul(tf.random_uniform(tf.shape(h), 1.0, 1.0), w) * h)
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.RMSPropOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    fetches = ["loss:0", "w:0", "v:0", "b:0"]
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "flip:0": False}, fetches)
    other = {"x:0": X8, "flip:0": True}
    spec["runs"] += [{"feeds": other, "fetches": [], "targets": ["train"]},
                     {"feeds": other, "fetches": fetches}]
    return spec


def case_train_tensor_array_read_in_body(tf):
    """A loop that reads, each iteration, elements its TensorArray holds from earlier
    iterations (the last two: read before this iteration writes; element 0, never
    written, reads as zeros) and writes the next; gathered after the loop; Adam."""
    x = tf.placeholder(tf.float32, [5, 3], name="x")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.6, -0.4, 0.9]))
    v = tf.get_variable("v", [3], initializer=tf.constant_initializer(0.7))
    history = tf.TensorArray(tf.float32, 5, clear_after_read=False, element_shape=[3])

    def body(i, h, history):
        last = history.read(i - 1)
        before = history.read(tf.maximum(i - 2, 0))
        h = tf.tanh(h * w + last * v + x[i]) + 0.3 * before * w
        return i + 1, h, history.write(i, h * v + last)

    _, h, history = tf.while_loop(lambda i, *_: i < 5, body,
                                  [tf.constant(1), tf.zeros([3]), history])
    loss = tf.reduce_mean(tf.square(history.gather(tf.range(1, 5)) - 0.2)) + \
        tf.reduce_sum(h * w)
    loss = tf.identity(loss, name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS}, ["loss:0", "w:0", "v:0"])


def _rows_and_array(tf, n: int):
    """The placeholder `x` of `n` rows of 3, the variables `w` and `v` (3) and a
    TensorArray of `n` elements of shape [3] that keeps what is read."""
    x = tf.placeholder(tf.float32, [n, 3], name="x")
    w = tf.get_variable("w", [3], initializer=tf.constant_initializer([0.5, -0.3, 0.8]))
    v = tf.get_variable("v", [3], initializer=tf.constant_initializer(0.6))
    return x, w, v, tf.TensorArray(tf.float32, n, clear_after_read=False, element_shape=[3])


def case_train_tensor_array_read_after_write(tf):
    """A loop that writes its TensorArray's element i and reads it back in the same
    iteration (`ta.write(i, e)` then `.read(i)` of the new flow: the written value in
    the body's function), the array also stacked after the loop; GradientDescent."""
    x, w, v, out = _rows_and_array(tf, 5)

    def body(i, h, out):
        out = out.write(i, tf.tanh(h * w + x[i]))
        return i + 1, h * v + out.read(i) * w, out

    _, h, out = tf.while_loop(lambda i, *_: i < 5, body, [tf.constant(0), tf.zeros([3]), out])
    loss = tf.identity(tf.reduce_mean(tf.square(out.stack() - 0.1)) + tf.reduce_sum(h * v),
                       name="loss")
    tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS}, ["loss:0", "w:0", "v:0"])


def case_train_tensor_array_read_earlier_after_write(tf):
    """A loop that writes its TensorArray's element i, then reads back elements of
    earlier indices from the new flow (`out.write(i, e)` then `.read(i - 1)` and
    `.read(i + (-2))`; elements 0 and 1, never written, read as zeros), the array also
    gathered after the loop; Adam."""
    x, w, v, out = _rows_and_array(tf, 6)

    def body(i, h, out):
        out = out.write(i, tf.tanh(h * w + x[i]))
        prev, earlier = out.read(i - 1), out.read(i + (-2))
        return i + 1, h * v + prev * w + 0.3 * earlier, out

    _, h, out = tf.while_loop(lambda i, *_: i < 6, body, [tf.constant(2), tf.zeros([3]), out])
    loss = tf.identity(tf.reduce_mean(tf.square(out.gather(tf.range(2, 6)) - 0.1)) +
                       tf.reduce_sum(h * v), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": np.concatenate([ROWS, ROWS[:1]])},
                          ["loss:0", "w:0", "v:0"])


def case_train_nested_while_loops(tf):
    """A tf.while_loop of three refinement steps (a captured weight, the outer step's
    input row, the outer counter through a Cast) in the body of an outer loop over the
    rows, and one with `maximum_iterations` after it: the inner loops are unrolled in the
    outer body's function; Momentum."""
    x = tf.placeholder(tf.float32, [4, 3], name="x")
    w = tf.get_variable("w", [3, 3], initializer=tf.constant_initializer(
        np.eye(3, dtype=np.float32) * 0.4 + 0.1))
    v = tf.get_variable("v", [3], initializer=tf.constant_initializer([0.5, -0.3, 0.2]))

    def body(i, h):
        row = x[i]
        scale = tf.cast(i + 1, tf.float32) * 0.1

        def refine(j, g):
            return j + 1, tf.tanh(tf.matmul(g, w) + row * v) * (1.0 - scale) + g * scale
        _, g = tf.while_loop(lambda j, g: j < 3, refine, [tf.constant(0), h])
        _, g = tf.while_loop(lambda k, g: k < 10, lambda k, g: [k + 2, g * v + row],
                             [tf.constant(1), g], maximum_iterations=2)
        return i + 1, g

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": ROWS[:4]}, ["loss:0", "w:0", "v:0"])


def case_train_map_fn_of_scan(tf):
    """`tf.map_fn` over a batch of sequences whose function runs a `tf.scan` over the
    sequence's steps (a tanh recurrence with captured weights), and a `dynamic_rnn`
    (BasicRNNCell, static time) inside a `tf.while_loop` of two passes: the inner loops
    (TensorArrays unstacked before them and stacked after them) are unrolled in the
    outer bodies' functions; Adam."""
    tf.set_random_seed(47)
    x = tf.placeholder(tf.float32, [3, 4, 2], name="x")
    w = tf.get_variable("w", [2, 2], initializer=tf.constant_initializer(
        np.eye(2, dtype=np.float32) * 0.5 + 0.2))
    v = tf.get_variable("v", [2], initializer=tf.constant_initializer([0.3, -0.4]))

    def sequence(steps):
        states = tf.scan(lambda acc, step: tf.tanh(tf.matmul(acc, w) + step * v),
                         tf.expand_dims(steps, 1), initializer=tf.zeros([1, 2]))
        return tf.reduce_sum(states, [1, 2])

    mapped = tf.map_fn(sequence, x)
    cell = tf.nn.rnn_cell.BasicRNNCell(2, name="cell")

    def passes(i, h):
        out, _ = tf.nn.dynamic_rnn(cell, h, dtype=tf.float32)
        return i + 1, h * 0.5 + out

    _, h = tf.while_loop(lambda i, h: i < 2, passes, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(mapped - 0.2)) + tf.reduce_mean(tf.square(h - 0.1))
    loss = tf.identity(loss, name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(24, dtype=np.float32) * 0.6).reshape(3, 4, 2)
    return _training_spec(tf, tf.train.Saver(), {"x:0": data},
                          ["loss:0", "w:0", "v:0", "rnn/cell/kernel:0", "rnn/cell/bias:0"])


def case_train_while_loop_gelu_top_k_body(tf):
    """A recurrence whose body holds ops TF has no function gradient for, written from
    their values pushed each iteration (gradient_lowering_math.py): a GELU (Erf) cell,
    a Softsign gate and the mean of each row's two largest entries (TopKV2); Adam."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.6 + 0.05))
    v = tf.get_variable("v", [4], initializer=tf.constant_initializer(0.3))

    def body(i, h):
        pre = tf.matmul(h, w)
        gelu = 0.5 * pre * (1.0 + tf.erf(pre / np.sqrt(2.0).astype(np.float32)))
        gate = tf.nn.softsign(h + v)
        top, _ = tf.nn.top_k(gelu, k=2)
        return i + 1, gelu * gate + tf.reduce_mean(top, axis=1, keepdims=True) * 0.3

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.sin(np.arange(12, dtype=np.float32) * 0.7).reshape(3, 4)
    return _training_spec(tf, tf.train.Saver(), {"x:0": data}, ["loss:0", "w:0", "v:0"])


def case_train_while_loop_causal_attention_segment_max_body(tf):
    """A loop body with causal self-attention over the rows (MatrixBandPart of the
    scores, gradient_lowering_array.py) and a GELU (Erf) of the attended rows plus the
    per-group maximum of the rows (UnsortedSegmentMax, gradient_lowering_math.py)
    broadcast back; RMSProp."""
    x = tf.placeholder(tf.float32, [5, 4], name="x")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.4 + 0.1))
    groups = tf.constant([0, 1, 0, 2, 1], name="groups")

    def body(i, h):
        scores = tf.matmul(tf.matmul(h, w), h, transpose_b=True)
        masked = tf.matrix_band_part(scores, -1, 0) - 1e3 * (
            1.0 - tf.matrix_band_part(tf.ones_like(scores), -1, 0))
        attended = tf.matmul(tf.nn.softmax(masked), h)
        gelu = 0.5 * attended * (1.0 + tf.erf(attended * 0.70710677))
        peaks = tf.gather(tf.unsorted_segment_max(h, groups, 3), groups)
        return i + 1, 0.5 * gelu + 0.3 * peaks

    _, h = tf.while_loop(lambda i, h: i < 2, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.1), name="loss")
    tf.train.RMSPropOptimizer(0.02).minimize(loss, name="train")
    tf.global_variables_initializer()
    data = np.cos(np.arange(20, dtype=np.float32) * 0.9).reshape(5, 4)
    return _training_spec(tf, tf.train.Saver(), {"x:0": data}, ["loss:0", "w:0"])


def case_train_while_loop_cond_math_ops(tf):
    """A tf.cond in a loop body whose branches hold expanded ops: erf, acosh and lgamma
    in one, softsign, floormod and digamma in the other (their outside values
    computed in the branch pushed through Merges; factors inf at the other side's
    stand-ins selected away); a run-time batch; Adam, with the predicate alternating
    over the iterations and flipped by a placeholder."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    flip = tf.placeholder(tf.bool, [], name="flip")
    w = tf.get_variable("w", initializer=np.linspace(0.5, 1.2, 4, dtype=np.float32))

    def expanded(h):
        return tf.erf(h) + 0.3 * tf.acosh(h * h + 1.0) + 0.2 * tf.lgamma(h * h + 0.5)

    def other(h):
        return tf.nn.softsign(h) + 0.1 * tf.floormod(h * 3.0 + 2.0, h * h + 0.9) + \
            0.05 * tf.digamma(h * h + 0.5)

    def body(i, h):
        h = h * w
        odd = tf.not_equal(tf.equal(i % 2, 1), flip)
        return i + 1, tf.cond(odd, lambda: expanded(h), lambda: other(h))

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.3), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8, "flip:0": False}, ["loss:0", "w:0"])
    flipped = {"x:0": X8, "flip:0": True}
    spec["runs"] += [{"feeds": flipped, "fetches": [], "targets": ["train"]},
                     {"feeds": flipped, "fetches": ["loss:0", "w:0"]}]
    return spec


LOOP_MORE_CASES = [case_train_foldl_foldr, case_train_while_loop_cumsum_cumprod,
                   case_train_while_loop_cond_branch_cuts, case_train_while_loop_dropout_flag,
                   case_train_tensor_arrays_split_read_concat, case_train_loop_in_cond,
                   case_train_rnn_and_resource_loop_in_cond, case_train_train_infer_cond,
                   case_train_tensor_array_written_twice, case_train_loop_in_cond_in_cond,
                   case_train_while_loop_cond_run_time_shapes,
                   case_train_tensor_array_read_in_body,
                   case_train_tensor_array_read_after_write,
                   case_train_tensor_array_read_earlier_after_write,
                   case_train_nested_while_loops,
                   case_train_map_fn_of_scan, case_train_while_loop_gelu_top_k_body,
                   case_train_while_loop_causal_attention_segment_max_body,
                   case_train_while_loop_cond_math_ops]
