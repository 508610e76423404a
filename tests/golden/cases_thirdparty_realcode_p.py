"""Golden cases: patterns from ageron/handson-ml (first edition, TF1 chapters 9-16),
keithito/tacotron and matterport/Mask_RCNN, restated small. The notebooks (cells run one by
one, random data in place of the downloads), tacotron's training step and Mask R-CNN's
inference model ran on tf1compat and matched TF to float rounding. Two fixes came out of
them: chapter 11's cached frozen layers (`hidden2` fed above a `tf.stop_gradient`, then
`minimize` over every variable) made tf1compat's train op need the unfed placeholder X,
because the gradient read forward values for the layers only the stop connected (now only
for the ops a gradient reaches); and `tf.pad` lacked TF's restoration of the dimensions whose
size and paddings are known (Mask R-CNN's pad-to-count). The other cases pin the patterns
the programs lean on.

Two differences there were the programs' or the oracle's, not tf1compat's: tacotron's
decoder prenet draws its dropout masks inside `dynamic_decode`'s while loop from the
teacher-forced targets, which do not depend on the loop state, so TF's executor draws them
in whatever order its 32 parallel iterations reach them (its first loss varies from run to
run; with `parallel_iterations=1` it equals tf1compat's every time). Mask R-CNN sizes
`KL.Reshape((s[1], num_classes, 4))` and `tf.range(probs.shape[0])` from static ROI counts
that standalone Keras 2.x carried in `_keras_shape` (each layer's `compute_output_shape`);
tf.keras (TF 1.15's and tf-keras alike) keeps only the tensors' own static shapes, so both
the oracle and tf1compat raise the same ValueError there until those two lines read the
count dynamically.

`tf.contrib.seq2seq` and contrib.rnn's OutputProjectionWrapper are TF 1.15's own modules
under the oracle (scripts/oracle_contrib.py).
"""

import os
import tempfile

import numpy as np

from tests.golden.cases_contrib_seq2seq import seq2seq, set_weights
from tests.golden.harness import catch, tolerance


def _housing(m=40, n=3, seed=42):
    rng = np.random.RandomState(seed)
    data = rng.normal(size=(m, n)).astype(np.float32)
    target = (data @ np.array([0.5, -1.0, 0.25], np.float32) + 2.0
              + rng.normal(scale=0.1, size=m).astype(np.float32)).reshape(-1, 1)
    return np.c_[np.ones((m, 1), np.float32), data], target


@tolerance(rtol=1e-4, atol=1e-5)
def case_handson_linear_regression_three_ways(tf):
    """Chapter 9's batch gradient descent on scaled data, three ways: a hand-written
    gradient applied with `tf.assign`, `tf.gradients`, and MomentumOptimizer(0.9); then
    mini-batches fed through placeholders (`fetch_batch` seeded per batch index): the MSE
    every 20 epochs and the final thetas."""
    data, target = _housing()
    m, n = data.shape
    out = {}
    for way in ("manual", "autodiff", "momentum"):
        tf.reset_default_graph()
        tf.set_random_seed(42)
        X = tf.constant(data, dtype=tf.float32, name="X")
        y = tf.constant(target, dtype=tf.float32, name="y")
        theta = tf.Variable(tf.random_uniform([n, 1], -1.0, 1.0, seed=42), name="theta")
        y_pred = tf.matmul(X, theta, name="predictions")
        error = y_pred - y
        mse = tf.reduce_mean(tf.square(error), name="mse")
        if way == "manual":
            gradients = 2 / m * tf.matmul(tf.transpose(X), error)
            training_op = tf.assign(theta, theta - 0.01 * gradients)
        elif way == "autodiff":
            gradients = tf.gradients(mse, [theta])[0]
            training_op = tf.assign(theta, theta - 0.01 * gradients)
        else:
            training_op = tf.train.MomentumOptimizer(0.01, momentum=0.9).minimize(mse)
        history = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for epoch in range(61):
                if epoch % 20 == 0:
                    history.append(mse.eval())
                sess.run(training_op)
            out[way] = {"mse": history, "theta": theta.eval()}
    tf.reset_default_graph()
    X = tf.placeholder(tf.float32, shape=(None, n), name="X")
    y = tf.placeholder(tf.float32, shape=(None, 1), name="y")
    theta = tf.Variable(tf.random_uniform([n, 1], -1.0, 1.0, seed=42), name="theta")
    mse = tf.reduce_mean(tf.square(tf.matmul(X, theta) - y), name="mse")
    training_op = tf.train.GradientDescentOptimizer(0.01).minimize(mse)
    batch_size, n_batches = 10, 4

    def fetch_batch(epoch, batch_index):
        np.random.seed(epoch * n_batches + batch_index)
        indices = np.random.randint(m, size=batch_size)
        return data[indices], target[indices]

    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for epoch in range(5):
            for batch_index in range(n_batches):
                X_batch, y_batch = fetch_batch(epoch, batch_index)
                sess.run(training_op, feed_dict={X: X_batch, y: y_batch})
        out["minibatch"] = {"theta": theta.eval(), "mse": mse.eval({X: data, y: target})}
    return out


def case_handson_shared_relu_threshold(tf):
    """Chapter 9's variable sharing: a `relu` scope's threshold created once with
    `get_variable` and reused by five `relu(X)` calls through `variable_scope("relu",
    reuse=True)`, through an unnamed `variable_scope("", default_name="")` and
    `scope.reuse_variables()`, and through `reuse=(relu_index >= 1)`; plus a function
    attribute (`relu.threshold`) as the sharing device. Names, variables and outputs."""
    x = np.arange(12, dtype=np.float32).reshape(4, 3) / 6.0 - 1.0
    out = {}

    def layer(X):
        w = tf.Variable(tf.random_normal((int(X.get_shape()[1]), 1), seed=1), name="weights")
        b = tf.Variable(0.0, name="bias")
        return tf.add(tf.matmul(X, w), b, name="z")

    def run(relus, X):
        output = tf.add_n(relus, name="output")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            return {"output": sess.run(output, {X: x}), "name": output.name,
                    "relus": [r.name for r in relus],
                    "variables": sorted(v.name for v in tf.global_variables())}

    def relu_attr(X):
        with tf.name_scope("relu"):
            if not hasattr(relu_attr, "threshold"):
                relu_attr.threshold = tf.Variable(0.25, name="threshold")
            return tf.maximum(layer(X), relu_attr.threshold, name="max")

    X = tf.placeholder(tf.float32, shape=(None, 3), name="X")
    out["attribute"] = run([relu_attr(X) for _ in range(5)], X)

    def relu_reuse(X):
        with tf.variable_scope("relu", reuse=True):
            return tf.maximum(layer(X), tf.get_variable("threshold"), name="max")

    tf.reset_default_graph()
    X = tf.placeholder(tf.float32, shape=(None, 3), name="X")
    with tf.variable_scope("relu"):
        tf.get_variable("threshold", shape=(), initializer=tf.constant_initializer(0.25))
    out["reuse_true"] = run([relu_reuse(X) for _ in range(5)], X)

    def relu_plain(X):
        threshold = tf.get_variable("threshold", shape=(),
                                    initializer=tf.constant_initializer(0.25))
        return tf.maximum(layer(X), threshold, name="max")

    tf.reset_default_graph()
    X = tf.placeholder(tf.float32, shape=(None, 3), name="X")
    with tf.variable_scope("", default_name="") as scope:
        first = relu_plain(X)
        scope.reuse_variables()
        out["default_name"] = run([first] + [relu_plain(X) for _ in range(4)], X)

    tf.reset_default_graph()
    X = tf.placeholder(tf.float32, shape=(None, 3), name="X")
    relus = []
    for relu_index in range(5):
        with tf.variable_scope("relu", reuse=(relu_index >= 1)):
            relus.append(relu_plain(X))
    out["reuse_from_second"] = run(relus, X)
    return out


def case_handson_reader_queue_pipeline(tf):
    """Chapter 12's queue pipeline: file names fed into a FIFOQueue and closed, a
    `TextLineReader(skip_header_lines=1)` reading them, `tf.decode_csv` filling a missing
    field from `record_defaults`, one enqueue thread of a QueueRunner (with a Coordinator)
    filling an instance queue, `dequeue_up_to(2)` until OutOfRangeError; then the
    session-wide `operation_timeout_in_ms` and a feed that overrides a dequeue."""
    path = os.path.join(tempfile.mkdtemp(), "my_test.csv")
    with open(path, "w") as f:
        f.write("x1,x2,target\n1.,,0\n4.,5.,1\n7.,8.,0\n2.,3.,1\n")
    filename_queue = tf.FIFOQueue(capacity=10, dtypes=[tf.string], shapes=[()])
    filename = tf.placeholder(tf.string)
    enqueue_filename = filename_queue.enqueue([filename])
    close_filename_queue = filename_queue.close()
    reader = tf.TextLineReader(skip_header_lines=1)
    key, value = reader.read(filename_queue)
    x1, x2, target = tf.decode_csv(value, record_defaults=[[-1.], [-1.], [-1]])
    features = tf.stack([x1, x2])
    instance_queue = tf.FIFOQueue(capacity=10, dtypes=[tf.float32, tf.int32],
                                  shapes=[[2], []], name="instance_q")
    enqueue_instance = instance_queue.enqueue([features, target])
    minibatch = instance_queue.dequeue_up_to(2)
    queue_runner = tf.train.QueueRunner(instance_queue, [enqueue_instance])
    coord = tf.train.Coordinator()
    batches = []
    with tf.Session() as sess:
        sess.run(enqueue_filename, feed_dict={filename: path})
        sess.run(close_filename_queue)
        threads = queue_runner.create_threads(sess, coord=coord, start=True)
        try:
            while True:
                batches.append(sess.run(minibatch))
        except tf.errors.OutOfRangeError:
            batches.append("done")
        coord.request_stop()
        coord.join(threads)
    tf.reset_default_graph()
    q = tf.FIFOQueue(capacity=10, dtypes=[tf.float32], shapes=[()])
    v = tf.placeholder(tf.float32)
    enqueue = q.enqueue([v])
    dequeue = q.dequeue()
    output = dequeue + 1
    config = tf.ConfigProto()
    config.operation_timeout_in_ms = 200
    timed = []
    with tf.Session(config=config) as sess:
        for value in (1.0, 2.0):
            sess.run(enqueue, feed_dict={v: value})
        timed.append(sess.run(output))
        timed.append(sess.run(output, feed_dict={dequeue: 5}))
        timed.append(sess.run(output))
        timed.append(catch(lambda: sess.run(output)))
    return {"batches": batches, "key_dtype": key.dtype.name, "timed": timed,
            "threads": len(threads), "alive": [t.is_alive() for t in threads]}


def _rnn_cells(tf):
    """contrib.rnn's OutputProjectionWrapper (TF 1.15's core_rnn_cell under the oracle)."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.rnn.OutputProjectionWrapper
    import oracle_contrib
    oracle_contrib.tf115_legacy_seq2seq(tf)
    import sys
    return sys.modules["tensorflow.contrib.rnn.python.ops.core_rnn_cell"].OutputProjectionWrapper


@tolerance(rtol=1e-4, atol=1e-5)
def case_tacotron_attention_decoder(tf):
    """tacotron's decoder: a GRU AttentionWrapper (Bahdanau, `alignment_history=True`,
    `output_attention=False`) inside a user RNNCell that runs a dense prenet first and one
    that concatenates the output with `state.attention`, OutputProjectionWrapper /
    ResidualWrapper GRUs in a MultiRNNCell, a user `Helper` subclass feeding every r-th
    target frame (teacher forcing) and `dynamic_decode`; the mel outputs, the alignments
    (`final_state[0].alignment_history.stack()`), an L1 loss and its gradient norm."""
    s = seq2seq(tf)
    OutputProjectionWrapper = _rnn_cells(tf)
    RNNCell = tf.nn.rnn_cell.RNNCell
    rng = np.random.RandomState(3)
    batch, t_in, depth, mels, r = 2, 5, 6, 3, 2
    memory = tf.constant(rng.randn(batch, t_in, depth).astype(np.float32))
    targets = tf.constant(rng.rand(batch, 8, mels).astype(np.float32))

    class PrenetWrapper(RNNCell):
        def __init__(self, cell):
            super().__init__()
            self._cell = cell

        @property
        def state_size(self):
            return self._cell.state_size

        @property
        def output_size(self):
            return self._cell.output_size

        def call(self, inputs, state):
            x = tf.layers.dense(inputs, 4, activation=tf.nn.relu, name="decoder_prenet")
            return self._cell(x, state)

        def zero_state(self, batch_size, dtype):
            return self._cell.zero_state(batch_size, dtype)

    class ConcatOutputAndAttention(PrenetWrapper):
        @property
        def output_size(self):
            return self._cell.output_size + self._cell.state_size.attention

        def call(self, inputs, state):
            output, res_state = self._cell(inputs, state)
            return tf.concat([output, res_state.attention], axis=-1), res_state

    class TrainingHelper(s.Helper):
        def __init__(self, targets):
            self._targets = targets[:, r - 1::r, :]
            self._batch_size = tf.shape(targets)[0]
            self._lengths = tf.tile([tf.shape(self._targets)[1]], [self._batch_size])

        batch_size = property(lambda self: self._batch_size)
        sample_ids_shape = property(lambda self: tf.TensorShape([]))
        sample_ids_dtype = property(lambda self: np.int32)

        def initialize(self, name=None):
            return (tf.tile([False], [self._batch_size]),
                    tf.tile([[0.0]], [self._batch_size, mels]))

        def sample(self, time, outputs, state, name=None):
            return tf.tile([0], [self._batch_size])

        def next_inputs(self, time, outputs, state, sample_ids, name=None):
            return (time + 1 >= self._lengths, self._targets[:, time, :], state)

    attention_cell = s.AttentionWrapper(tf.nn.rnn_cell.GRUCell(6),
                                        s.BahdanauAttention(6, memory),
                                        alignment_history=True, output_attention=False)
    concat_cell = ConcatOutputAndAttention(PrenetWrapper(attention_cell))
    decoder_cell = tf.nn.rnn_cell.MultiRNNCell([
        OutputProjectionWrapper(concat_cell, 6),
        tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.GRUCell(6)),
        tf.nn.rnn_cell.ResidualWrapper(tf.nn.rnn_cell.GRUCell(6))], state_is_tuple=True)
    output_cell = OutputProjectionWrapper(decoder_cell, mels * r)
    init = output_cell.zero_state(batch_size=tf.shape(memory)[0], dtype=tf.float32)
    (outputs, _), final_state, lengths = s.dynamic_decode(
        s.BasicDecoder(output_cell, TrainingHelper(targets), init), maximum_iterations=10)
    mel_outputs = tf.reshape(outputs, [tf.shape(memory)[0], -1, mels])
    alignments = tf.transpose(final_state[0].alignment_history.stack(), [1, 2, 0])
    loss = tf.reduce_mean(tf.abs(targets - mel_outputs))
    grads = tf.gradients(loss, tf.trainable_variables())
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess, scale=0.5)
        mel, align, n, loss_value, norm = sess.run((mel_outputs, alignments, lengths, loss,
                                           tf.global_norm(grads)))
    return {"mel": mel, "alignments": align, "lengths": n, "loss": loss_value, "grad_norm": norm,
            "variables": names, "output_size": concat_cell.output_size,
            "static": outputs.shape.as_list()}


@tolerance(rtol=1e-4, atol=1e-5)
def case_maskrcnn_proposal_and_roi_align_layers(tf):
    """Mask R-CNN's custom Keras layers (KE.Layer subclasses of tf ops, sliced per image as
    its `utils.batch_slice`): the ProposalLayer's top_k pre-selection, `gather`, box deltas
    applied and clipped, `tf.image.non_max_suppression` and zero padding to a fixed count;
    then PyramidROIAlign's level assignment (`log2` of the box area) and
    `tf.image.crop_and_resize` with box indices, stop_gradient on the boxes; run through
    `Model.predict`."""
    K = tf.keras.backend
    KL = tf.keras.layers
    rng = np.random.RandomState(7)
    count, pool = 4, 3

    def batch_slice(inputs, graph_fn, batch_size):
        outputs = []
        for i in range(batch_size):
            output = graph_fn(*[x[i] for x in inputs])
            outputs.append(output if isinstance(output, (tuple, list)) else [output])
        return [tf.stack(o, axis=0) for o in zip(*outputs)]

    class ProposalLayer(KL.Layer):
        def call(self, inputs):
            scores, deltas, anchors = inputs[0][:, :, 1], inputs[1] * 0.1, inputs[2]
            ix = tf.nn.top_k(scores, 6, sorted=True, name="top_anchors").indices
            scores = batch_slice([scores, ix], lambda x, y: tf.gather(x, y), 2)[0]
            deltas = batch_slice([deltas, ix], lambda x, y: tf.gather(x, y), 2)[0]
            anchors = batch_slice([anchors, ix], lambda a, x: tf.gather(a, x), 2)[0]

            def apply(boxes, d):
                height = boxes[:, 2] - boxes[:, 0]
                width = boxes[:, 3] - boxes[:, 1]
                cy = boxes[:, 0] + 0.5 * height + d[:, 0] * height
                cx = boxes[:, 1] + 0.5 * width + d[:, 1] * width
                height *= tf.exp(d[:, 2])
                width *= tf.exp(d[:, 3])
                y1, x1 = cy - 0.5 * height, cx - 0.5 * width
                out = tf.stack([y1, x1, y1 + height, x1 + width], axis=1)
                y1, x1, y2, x2 = tf.split(out, 4, axis=1)
                clipped = [tf.maximum(tf.minimum(c, 1.0), 0.0) for c in (y1, x1, y2, x2)]
                return tf.concat(clipped, axis=1)

            boxes = batch_slice([anchors, deltas], apply, 2)[0]

            def nms(boxes, scores):
                indices = tf.image.non_max_suppression(boxes, scores, count, 0.5)
                proposals = tf.gather(boxes, indices)
                padding = tf.maximum(count - tf.shape(proposals)[0], 0)
                return tf.pad(proposals, [(0, padding), (0, 0)])

            return batch_slice([boxes, scores], nms, 2)[0]

    class RoiAlign(KL.Layer):
        def call(self, inputs):
            boxes, features = inputs[0], inputs[1:]
            y1, x1, y2, x2 = tf.split(boxes, 4, axis=2)
            area = (y2 - y1) * (x2 - x1)
            level = tf.squeeze(tf.minimum(1, tf.maximum(0, tf.cast(tf.round(
                tf.log(tf.sqrt(area) / 0.25) / tf.log(2.0)), tf.int32))), 2)
            pooled, order = [], []
            for i, feature in enumerate(features):
                ix = tf.where(tf.equal(level, i))
                level_boxes = tf.stop_gradient(tf.gather_nd(boxes, ix))
                box_indices = tf.stop_gradient(tf.cast(ix[:, 0], tf.int32))
                order.append(ix)
                pooled.append(tf.image.crop_and_resize(feature, level_boxes, box_indices,
                                                       [pool, pool], method="bilinear"))
            pooled = tf.concat(pooled, axis=0)
            order = tf.concat(order, axis=0)
            key = order[:, 0] * 100 + order[:, 1]
            ix = tf.nn.top_k(-key, k=tf.shape(key)[0]).indices
            pooled = tf.gather(pooled, ix)
            return tf.reshape(pooled, tf.concat([tf.shape(boxes)[:2], tf.shape(pooled)[1:]],
                                                axis=0))

    scores = KL.Input(shape=(8, 2))
    deltas = KL.Input(shape=(8, 4))
    anchors = KL.Input(shape=(8, 4))
    p2 = KL.Input(shape=(8, 8, 2))
    p3 = KL.Input(shape=(4, 4, 2))
    proposals = ProposalLayer(name="ROI")([scores, deltas, anchors])
    rois = RoiAlign(name="roi_align")([proposals, p2, p3])
    model = tf.keras.Model([scores, deltas, anchors, p2, p3], [proposals, rois])
    anchor_values = np.sort(rng.rand(2, 8, 2, 2), axis=2).transpose(0, 1, 3, 2)
    feed = [rng.rand(2, 8, 2).astype(np.float32), rng.randn(2, 8, 4).astype(np.float32),
            anchor_values.reshape(2, 8, 4).astype(np.float32),
            rng.rand(2, 8, 8, 2).astype(np.float32), rng.rand(2, 4, 4, 2).astype(np.float32)]
    props, pooled = model.predict(feed, batch_size=2)
    return {"proposals": props, "pooled": pooled, "shapes": [K.int_shape(proposals),
                                                             K.int_shape(rois)]}


def case_maskrcnn_pad_to_fixed_count_static_shape(tf):
    """Mask R-CNN pads each image's proposals, detections and ground-truth boxes to a fixed
    count with `tf.pad(x, [(0, tf.maximum(n - tf.shape(x)[0], 0)), (0, 0)])`: TF's `pad`
    keeps every dimension whose size and paddings are known at graph build (the Pad shape
    function alone would give (?, ?)), through a list of pairs, a stacked tensor, one
    partly known pair, MirrorPad and PadV2."""
    known = tf.placeholder(tf.float32, [5, 4])
    rows = tf.placeholder(tf.float32, [None, 4])
    n = tf.placeholder(tf.int32, [])
    padding = tf.maximum(n - tf.shape(rows)[0], 0)
    shapes = {}
    for label, x in (("known", known), ("rows", rows)):
        for key, paddings in (("pairs", [(0, padding), (0, 0)]),
                              ("wider", [(0, padding), (1, 2)]),
                              ("second_partly_known", [[0, 1], [padding, 2]]),
                              ("stacked", tf.stack([[0, padding], [0, 0]])),
                              ("constant", tf.constant([[0, 1], [2, 2]]))):
            shapes[f"{label}_{key}"] = [tf.pad(x, paddings).shape.as_list(),
                                        tf.pad(x, paddings, constant_values=-1.0)
                                        .shape.as_list(),
                                        tf.pad(x, paddings, mode="REFLECT").shape.as_list()]
    proposals = tf.pad(rows, [(0, padding), (0, 0)])
    with tf.Session() as sess:
        value = sess.run(proposals, {rows: np.ones((2, 4), np.float32), n: 4})
    return {"shapes": shapes, "padded": value}


def case_handson_cached_frozen_layers(tf):
    """Chapter 11's frozen-layer caching: `hidden2` computed once for the whole training
    set, then fed in place of the frozen lower layers (`tf.stop_gradient(hidden2)` feeds
    the trainable ones) while `optimizer.minimize(loss)` over all trainable variables
    trains the upper layers, the input placeholder X never fed. Gradients that reach only
    through a StopGradient are None and their layers' forward values are not needed."""
    tf.set_random_seed(42)
    rng = np.random.RandomState(0)
    X = tf.placeholder(tf.float32, shape=(None, 6), name="X")
    y = tf.placeholder(tf.int32, shape=(None), name="y")
    with tf.name_scope("dnn"):
        hidden1 = tf.layers.dense(X, 8, activation=tf.nn.relu, name="hidden1")
        hidden2 = tf.layers.dense(hidden1, 5, activation=tf.nn.relu, name="hidden2")
        hidden2_stop = tf.stop_gradient(hidden2)
        hidden3 = tf.layers.dense(hidden2_stop, 5, activation=tf.nn.relu, name="hidden3")
        logits = tf.layers.dense(hidden3, 3, name="outputs")
    loss = tf.reduce_mean(
        tf.nn.sparse_softmax_cross_entropy_with_logits(labels=y, logits=logits))
    optimizer = tf.train.GradientDescentOptimizer(0.1)
    grads = optimizer.compute_gradients(loss)
    training_op = optimizer.minimize(loss)
    x_train = rng.rand(12, 6).astype(np.float32)
    y_train = rng.randint(0, 3, 12)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        h2_cache = sess.run(hidden2, feed_dict={X: x_train})
        for epoch in range(3):
            for batch in np.array_split(np.arange(12), 3):
                sess.run(training_op, feed_dict={hidden2: h2_cache[batch], y: y_train[batch]})
            losses.append(sess.run(loss, feed_dict={hidden2: h2_cache, y: y_train}))
        upper = sess.run([g for g, _ in grads if g is not None],
                         feed_dict={hidden2: h2_cache, y: y_train})
        unfed = catch(lambda: sess.run(grads[-1][0], feed_dict={y: y_train}))
    return {"losses": losses, "none": [v.name for g, v in grads if g is None],
            "upper_grads": upper, "without_feed": unfed}


@tolerance(rtol=1e-4, atol=1e-5)
def case_handson_rnn_time_series_dropout(tf):
    """Chapter 14's time-series RNN: a MultiRNNCell of BasicRNNCells behind DropoutWrapper
    (`input_keep_prob` a `placeholder_with_default(1.0)`), `dynamic_rnn`, the outputs
    stacked through one dense layer and reshaped back, Adam on the MSE: losses with
    keep_prob 0.5 fed for three steps, then the prediction at the default 1.0.
    `parallel_iterations=1`: the first layer's input dropout does not depend on the loop
    state, so with overlapping iterations TF's executor draws its masks in its own
    scheduling order rather than iteration by iteration."""
    tf.set_random_seed(42)
    rng = np.random.RandomState(42)
    n_steps, n_neurons = 6, 5
    X = tf.placeholder(tf.float32, [None, n_steps, 1])
    y = tf.placeholder(tf.float32, [None, n_steps, 1])
    keep_prob = tf.placeholder_with_default(1.0, shape=())
    cells = [tf.nn.rnn_cell.DropoutWrapper(tf.nn.rnn_cell.BasicRNNCell(num_units=n_neurons),
                                           input_keep_prob=keep_prob) for _ in range(3)]
    rnn_outputs, states = tf.nn.dynamic_rnn(tf.nn.rnn_cell.MultiRNNCell(cells), X,
                                            dtype=tf.float32, parallel_iterations=1)
    stacked = tf.layers.dense(tf.reshape(rnn_outputs, [-1, n_neurons]), 1)
    outputs = tf.reshape(stacked, [-1, n_steps, 1])
    loss = tf.reduce_mean(tf.square(outputs - y))
    training_op = tf.train.AdamOptimizer(learning_rate=0.01).minimize(loss)
    t = rng.rand(4, 1) * 10 + np.arange(n_steps + 1) * 0.1
    series = (t * np.sin(t) / 3 + 2 * np.sin(t * 5)).astype(np.float32)
    x_batch, y_batch = series[:, :-1, None], series[:, 1:, None]
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            _, mse = sess.run([training_op, loss],
                              feed_dict={X: x_batch, y: y_batch, keep_prob: 0.5})
            losses.append(mse)
        prediction = sess.run(outputs, feed_dict={X: x_batch})
    return {"losses": losses, "prediction": prediction,
            "states": [s.shape.as_list() for s in states]}
