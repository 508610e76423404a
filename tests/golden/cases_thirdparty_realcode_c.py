"""Golden cases: patterns of third-party TF1 tutorials (a sentence-classification CNN
trained with summaries and checkpoints, then restored from its meta graph by name; an
LSTM regressor whose loss is contrib's `sequence_loss_by_example`), restated small.

TF 2.x has no contrib: under the oracle, `tf.contrib.layers.xavier_initializer` is the
Glorot-uniform initializer it equals, and `tf.contrib.legacy_seq2seq` is TF 1.15's own
seq2seq module executed under TF 2.21 (scripts/oracle_contrib.py, `tf115_package`).
"""

import os
import tempfile

import numpy as np


def _xavier(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers.xavier_initializer()
    return tf.glorot_uniform_initializer()


def _legacy_seq2seq(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.legacy_seq2seq
    import oracle_contrib
    parents = ["tensorflow.contrib", "tensorflow.contrib.rnn", "tensorflow.contrib.rnn.python",
               "tensorflow.contrib.rnn.python.ops"]
    stubs = {name: {"__path__": []} for name in parents}
    stubs["tensorflow.contrib.rnn.python.ops.core_rnn_cell"] = {"_Linear": object}
    return oracle_contrib.tf115_package("contrib.legacy_seq2seq.python.ops", ["seq2seq"],
                                        stubs=stubs)


def _text_cnn(tf, vocab, length, filter_sizes, filters):
    """The sentence CNN: embedding, one VALID convolution + max-pool per filter size,
    concatenated, dropout, an xavier-initialised output layer with an L2 term."""
    input_x = tf.placeholder(tf.int32, [None, length], name="input_x")
    input_y = tf.placeholder(tf.float32, [None, 2], name="input_y")
    keep = tf.placeholder(tf.float32, name="dropout_keep_prob")
    with tf.device("/cpu:0"), tf.name_scope("embedding"):
        table = tf.Variable(tf.random_uniform([vocab, 8], -1.0, 1.0), name="W")
        embedded = tf.expand_dims(tf.nn.embedding_lookup(table, input_x), -1)
    pooled = []
    for size in filter_sizes:
        with tf.name_scope("conv-maxpool-%s" % size):
            w = tf.Variable(tf.truncated_normal([size, 8, 1, filters], stddev=0.1), name="W")
            b = tf.Variable(tf.constant(0.1, shape=[filters]), name="b")
            conv = tf.nn.conv2d(embedded, w, strides=[1, 1, 1, 1], padding="VALID",
                                name="conv")
            h = tf.nn.relu(tf.nn.bias_add(conv, b), name="relu")
            pooled.append(tf.nn.max_pool(h, ksize=[1, length - size + 1, 1, 1],
                                         strides=[1, 1, 1, 1], padding="VALID", name="pool"))
    flat = tf.reshape(tf.concat(pooled, 3), [-1, filters * len(filter_sizes)])
    with tf.name_scope("dropout"):
        dropped = tf.nn.dropout(flat, keep)
    with tf.name_scope("output"):
        w = tf.get_variable("W", shape=[filters * len(filter_sizes), 2],
                            initializer=_xavier(tf))
        b = tf.Variable(tf.constant(0.1, shape=[2]), name="b")
        l2 = tf.nn.l2_loss(w) + tf.nn.l2_loss(b)
        scores = tf.nn.xw_plus_b(dropped, w, b, name="scores")
        predictions = tf.argmax(scores, 1, name="predictions")
    with tf.name_scope("loss"):
        loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(
            logits=scores, labels=input_y)) + 0.1 * l2
    with tf.name_scope("accuracy"):
        accuracy = tf.reduce_mean(tf.cast(tf.equal(predictions, tf.argmax(input_y, 1)),
                                          "float"), name="accuracy")
    return input_x, input_y, keep, loss, accuracy


def case_text_cnn_summaries_checkpoints_and_meta_graph_restore(tf):
    """Train a few seeded steps (gradient histograms, zero_fraction sparsity scalars, merged
    summaries, a Saver keeping 2 checkpoints), then restore the latest checkpoint into a
    fresh graph with import_meta_graph and fetch `output/predictions` by name."""
    rng = np.random.RandomState(3)
    x = rng.randint(0, 30, size=(24, 7)).astype(np.int32)
    y = np.eye(2, dtype=np.float32)[(x[:, 0] > 14).astype(int)]
    out = {}
    with tempfile.TemporaryDirectory() as root:
        with tf.Graph().as_default():
            tf.set_random_seed(1)
            input_x, input_y, keep, loss, accuracy = _text_cnn(tf, 30, 7, [2, 3], 4)
            global_step = tf.Variable(0, name="global_step", trainable=False)
            optimizer = tf.train.AdamOptimizer(1e-2)
            grads_and_vars = optimizer.compute_gradients(loss)
            train_op = optimizer.apply_gradients(grads_and_vars, global_step=global_step)
            summaries = []
            for g, v in grads_and_vars:
                if g is not None:
                    summaries.append(tf.summary.histogram("{}/grad/hist".format(v.name), g))
                    summaries.append(tf.summary.scalar("{}/grad/sparsity".format(v.name),
                                                       tf.nn.zero_fraction(g)))
            merged = tf.summary.merge([tf.summary.scalar("loss", loss),
                                       tf.summary.scalar("accuracy", accuracy),
                                       tf.summary.merge(summaries)])
            saver = tf.train.Saver(tf.global_variables(), max_to_keep=2)
            prefix = os.path.join(root, "checkpoints", "model")
            os.makedirs(os.path.dirname(prefix))
            steps = []
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for i in range(6):
                    batch = slice(4 * i, 4 * i + 4)
                    _, step, blob, l, a = sess.run(
                        [train_op, global_step, merged, loss, accuracy],
                        {input_x: x[batch], input_y: y[batch], keep: 0.5})
                    steps.append([int(step), l, a])
                    if step % 2 == 0:
                        saver.save(sess, prefix, global_step=step)
                summary = tf.Summary.FromString(blob)
                out["tags"] = sorted(v.tag for v in summary.value)
                out["sparsity"] = {v.tag: v.simple_value for v in summary.value
                                   if v.tag.endswith("sparsity")}
                out["eval"] = sess.run([loss, accuracy], {input_x: x, input_y: y, keep: 1.0})
        out["steps"] = steps
        latest = tf.train.latest_checkpoint(os.path.dirname(prefix))
        out["latest"] = os.path.basename(latest)
        out["kept"] = [os.path.basename(p) for p in
                       tf.train.get_checkpoint_state(os.path.dirname(prefix))
                       .all_model_checkpoint_paths]
        graph = tf.Graph()
        with graph.as_default():
            with tf.Session() as sess:
                restorer = tf.train.import_meta_graph("{}.meta".format(latest))
                restorer.restore(sess, latest)
                feed_x = graph.get_operation_by_name("input_x").outputs[0]
                feed_keep = graph.get_operation_by_name("dropout_keep_prob").outputs[0]
                predictions = graph.get_operation_by_name("output/predictions").outputs[0]
                out["restored"] = sess.run(predictions, {feed_x: x, feed_keep: 1.0})
                out["restored_step"] = sess.run(graph.get_tensor_by_name("global_step:0"))
    return out


def case_lstm_regression_sequence_loss_by_example(tf):
    """A sine-to-cosine LSTM regressor: input layer, BasicLSTMCell under dynamic_rnn from a
    zero state carried between batches, output layer, and the per-step squared error through
    `legacy_seq2seq.sequence_loss_by_example` with uniform weights, summed / batch size."""
    steps, batch, size = 5, 3, 6
    seq2seq = _legacy_seq2seq(tf)
    with tf.Graph().as_default():
        tf.set_random_seed(5)
        xs = tf.placeholder(tf.float32, [None, steps, 1], name="xs")
        ys = tf.placeholder(tf.float32, [None, steps, 1], name="ys")
        with tf.variable_scope("in_hidden"):
            w_in = tf.get_variable("weights", [1, size],
                                   initializer=tf.random_normal_initializer(0.0, 1.0))
            b_in = tf.get_variable("biases", [size], initializer=tf.constant_initializer(0.1))
            l_in = tf.reshape(tf.matmul(tf.reshape(xs, [-1, 1]), w_in) + b_in,
                              [-1, steps, size])
        with tf.variable_scope("LSTM_cell"):
            cell = tf.nn.rnn_cell.BasicLSTMCell(size, forget_bias=1.0, state_is_tuple=True)
            init_state = cell.zero_state(batch, dtype=tf.float32)
            outputs, final_state = tf.nn.dynamic_rnn(cell, l_in, initial_state=init_state,
                                                     time_major=False)
        with tf.variable_scope("out_hidden"):
            w_out = tf.get_variable("weights", [size, 1],
                                    initializer=tf.random_normal_initializer(0.0, 1.0))
            b_out = tf.get_variable("biases", [1], initializer=tf.constant_initializer(0.1))
            pred = tf.matmul(tf.reshape(outputs, [-1, size]), w_out) + b_out
        with tf.name_scope("cost"):
            losses = seq2seq.sequence_loss_by_example(
                [tf.reshape(pred, [-1], name="reshape_pred")],
                [tf.reshape(ys, [-1], name="reshape_target")],
                [tf.ones([batch * steps], dtype=tf.float32)],
                average_across_timesteps=True,
                softmax_loss_function=lambda labels, logits: tf.square(labels - logits),
                name="losses")
            cost = tf.div(tf.reduce_sum(losses, name="losses_sum"), batch, name="average_cost")
        train_op = tf.train.AdamOptimizer(0.05).minimize(cost)
        costs = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            state = None
            for i in range(4):
                t = np.arange(i * steps, i * steps + steps * batch).reshape(batch, steps) / 5.0
                feed = {xs: np.sin(t)[:, :, None], ys: np.cos(t)[:, :, None]}
                if state is not None:
                    feed[init_state] = state
                _, c, state, p = sess.run([train_op, cost, final_state, pred], feed)
                costs.append(c)
    return {"losses": {"name": losses.name, "shape": losses.shape.as_list()},
            "costs": costs, "last_pred": p, "state": list(state)}


def case_one_shot_iterator_draws_an_op_seed(tf):
    """An Estimator-style input_fn (TFRecord-like dataset, map, shuffle, repeat, batch,
    make_one_shot_iterator) built before the model under a graph seed: the one-shot
    iterator draws an op seed, so the model's unseeded initializers get the op seeds (and
    values) they get in TF. Both iterator spellings are covered."""
    out = {}
    for spelling in ("method", "function"):
        with tf.Graph().as_default():
            tf.set_random_seed(1)
            data = tf.data.Dataset.from_tensor_slices(np.arange(12, dtype=np.float32))
            data = data.map(lambda x: x * 2.0).shuffle(8).repeat().batch(4)
            if spelling == "method":
                it = data.make_one_shot_iterator()
            else:
                it = tf.data.make_one_shot_iterator(data)
            batch = it.get_next()
            kernel = tf.get_variable("kernel", [3, 2],
                                     initializer=tf.glorot_uniform_initializer())
            noise = tf.random_normal([2])
            seeds = [[op.get_attr("seed"), op.get_attr("seed2")]
                     for op in tf.get_default_graph().get_operations()
                     if op.type in ("RandomUniform", "RandomStandardNormal")]
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                out[spelling] = {"seeds": seeds, "kernel": sess.run(kernel),
                                 "noise": sess.run(noise), "batch": sess.run(batch)}
    return out
