"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-w).

* allenai/bilm-tf (ELMo): its own unittest suite (tests/test_data.py, test_model.py,
  test_elmo.py, test_training.py: 24 tests, the pretrained-fixture embeddings included)
  passes unchanged under both once the project's PEP 479 bug (`raise StopIteration` inside
  a generator, a RuntimeError on Python 3.7+ under TF too) is patched in the copy. A
  deterministic train() graph (char CNN, 2 highway layers, bidirectional 2-layer LSTM with
  projection, cell/proj clipping and skip connections, full softmax, Adagrad, tree
  aggregation, IndexedSlices dedup, global-norm clipping) from shared initial values
  matched TF over 4 steps to 2.4e-7, and so did the default sampled softmax with dropout
  0.1 under `tf.set_random_seed(11)`. The cases pin its training LSTM stack, its sparse
  gradient pipeline and the stateful bidirectional LSTM of BidirectionalLanguageModel.
* tensorflow/models research/audioset/vggish: vggish_smoke_test.py's logic (numpy log-mel
  examples of a 1 kHz sine, define_vggish_slim, load_vggish_slim_checkpoint's
  `Saver(vggish_vars, write_version=1)` restore, PCA postprocess) with a randomly
  initialised checkpoint saved by each side: embeddings and postprocessed bytes are
  identical for all four saver/loader pairings; a V1 checkpoint written by either side is
  byte-identical and read by the other. vggish_train_demo.py (VGGish fine-tuned under a
  slim fc + sigmoid classifier with Adam, tf.app.flags, 3 seeded batches) gives TF's
  losses 0.693147, 0.693002, 0.692706 and conv1 weights within 6.5e-7. The case pins the
  slim VGGish stack's naming and the restore of its variables by a Saver whose var list
  comes from a throwaway graph.
"""

import os
import tempfile

import numpy as np

from tests.golden.harness import tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-5)
def case_bilm_static_rnn_projected_clipped_residual_stack(tf):
    """LanguageModel._build: MultiRNNCell of LSTMCell(num_proj, cell_clip, proj_clip),
    the second wrapped in ResidualWrapper then DropoutWrapper(input_keep_prob=1.0), the
    zero state made under a control dependency, `tf.nn.static_rnn` over `tf.unstack` in
    `RNN_0`, and gradients aggregated with EXPERIMENTAL_TREE."""
    x = tf.constant(_seeded([2, 4, 3], 1, 2.0))
    with tf.variable_scope("lm", initializer=tf.random_uniform_initializer(-0.5, 0.5, seed=3)):
        cells = []
        for i in range(2):
            cell = tf.nn.rnn_cell.LSTMCell(6, num_proj=3, cell_clip=0.3, proj_clip=0.2)
            if i:
                cell = tf.nn.rnn_cell.ResidualWrapper(cell)
            cells.append(tf.nn.rnn_cell.DropoutWrapper(cell, input_keep_prob=1.0))
        cell = tf.nn.rnn_cell.MultiRNNCell(cells)
        with tf.control_dependencies([x]):
            init = cell.zero_state(2, tf.float32)
            with tf.variable_scope("RNN_0"):
                outs, final = tf.nn.static_rnn(cell, tf.unstack(x, axis=1), initial_state=init)
    y = tf.reshape(tf.stack(outs, axis=1), [-1, 3])
    loss = tf.reduce_sum(y * y)
    tvars = tf.trainable_variables()
    grads = tf.gradients(loss, tvars,
                         aggregation_method=tf.AggregationMethod.EXPERIMENTAL_TREE)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"y": sess.run(y), "final": sess.run(final),
                "names": [v.name for v in tvars], "grads": sess.run(grads)}


@tolerance(rtol=1e-5, atol=1e-6)
def case_bilm_sparse_grad_dedup_clip_adagrad(tf):
    """average_gradients + clip_grads + Adagrad: the embedding's IndexedSlices gradient
    concatenated, de-duplicated with `tf.unique` + `unsorted_segment_sum`, rebuilt as
    IndexedSlices, norms from `tf.global_norm([t])` per tensor, clipped together with a
    dense gradient by `clip_by_global_norm`, applied by Adagrad(initial_accumulator_value=1)."""
    emb = tf.Variable(_seeded([6, 3], 2), name="emb")
    w = tf.Variable(_seeded([3, 2], 3), name="w")
    ids = tf.constant([[1, 4, 1], [4, 0, 1]])
    loss = tf.reduce_sum(tf.square(tf.matmul(tf.reshape(
        tf.nn.embedding_lookup(emb, ids), [-1, 3]), w))) * 10.0
    opt = tf.train.AdagradOptimizer(0.2, initial_accumulator_value=1.0)
    (ge, _), (gw, _) = opt.compute_gradients(loss, [emb, w])
    uniq, pos = tf.unique(tf.concat([ge.indices], 0))
    vals = tf.unsorted_segment_sum(tf.concat([ge.values], 0) / 1, pos, tf.shape(uniq)[0])
    ge = tf.IndexedSlices(vals, uniq, dense_shape=ge.dense_shape)
    norms = [tf.global_norm([t]) for t in (ge, gw)]
    clipped, gnorm = tf.clip_by_global_norm([ge, gw], 1.0)
    step = opt.apply_gradients(list(zip(clipped, [emb, w])))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run([norms, gnorm, clipped[0].values, clipped[0].indices])
        sess.run(step)
        sess.run(step)
        return {"before": before, "emb": sess.run(emb), "w": sess.run(w),
                "acc": sess.run(opt.get_slot(emb, "accumulator")),
                "clipped_type": type(clipped[0]).__name__}


@tolerance(rtol=1e-5, atol=1e-6)
def case_bilm_seeded_sampled_softmax_sparse_grads(tf):
    """LanguageModel._build_loss while training: `tf.nn.sampled_softmax_loss` over the
    softmax W/b (log-uniform sampler seeded from the graph seed) on dropped-out LSTM
    outputs; its W/b gradients are IndexedSlices over true + sampled classes."""
    tf.set_random_seed(11)
    W = tf.Variable(_seeded([20, 3], 7), name="W")
    b = tf.Variable(_seeded([20], 8, 0.1), name="b")
    h = tf.nn.dropout(tf.constant(_seeded([4, 3], 9, 2.0)), 0.9)
    labels = tf.constant([[1], [5], [19], [5]], tf.int64)
    losses = tf.nn.sampled_softmax_loss(W, b, labels, h, 4, 20)
    loss = tf.reduce_mean(losses)
    gW, gb = tf.gradients(loss, [W, b])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run({"losses": losses, "gW_values": gW.values, "gW_indices": gW.indices,
                        "gb_values": gb.values})
        out["gW_type"] = type(gW).__name__
        return out


@tolerance(rtol=1e-5, atol=1e-5)
def case_bilm_stateful_bidirectional_dynamic_rnn(tf):
    """BidirectionalLanguageModel._build_lstms: lengths from `reduce_any(ids > 0, 2)`,
    the backward input through `reverse_sequence(seq_axis=1, batch_axis=0)`, dynamic_rnn
    from non-trainable state Variables sliced to the batch, and the final states written
    back (`concat` with the unused rows) under a control dependency on the output, so a
    second run starts from the first run's states."""
    ids = tf.placeholder(tf.int32, [None, None, 2])
    emb = tf.constant(_seeded([3, 4, 2], 4))
    mask = tf.reduce_any(ids > 0, axis=2)
    lengths = tf.reduce_sum(tf.cast(mask, tf.int32), axis=1)
    batch = tf.shape(lengths)[0]
    outputs, updates = [], []
    init = tf.random_uniform_initializer(-0.5, 0.5, seed=5)
    for d, name in enumerate(["forward", "backward"]):
        inp = emb if d == 0 else tf.reverse_sequence(emb, lengths, seq_axis=1, batch_axis=0)
        cell = tf.nn.rnn_cell.LSTMCell(5, num_proj=2, cell_clip=3, proj_clip=3)
        states = [tf.Variable(tf.zeros([4, dim]), trainable=False) for dim in cell.state_size]
        with tf.variable_scope("RNN_%d/RNN/MultiRNNCell/Cell0" % d, initializer=init):
            out, final = tf.nn.dynamic_rnn(
                cell, inp, sequence_length=lengths,
                initial_state=tf.nn.rnn_cell.LSTMStateTuple(*[s[:batch, :] for s in states]))
        if d:
            out = tf.reverse_sequence(out, lengths, seq_axis=1, batch_axis=0)
        outputs.append(out)
        with tf.control_dependencies([out]):
            for i in range(2):
                updates.append(tf.assign(states[i], tf.concat(
                    [final[i][:batch, :], states[i][batch:, :]], axis=0)))
    feed = {ids: np.array([[[1, 0], [2, 2], [0, 0], [0, 0]],
                           [[3, 1], [0, 4], [5, 0], [1, 1]],
                           [[0, 0], [0, 0], [0, 0], [0, 0]]], np.int32)}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run([outputs, lengths], feed)
        sess.run(updates, feed)
        second = sess.run(outputs, feed)
        return {"first": first, "second": second,
                "names": sorted(v.name for v in tf.global_variables())}


@tolerance(rtol=1e-5, atol=1e-6)
def case_vggish_slim_stack_v1_saver_subset_restore(tf):
    """define_vggish_slim at a tiny size (stacked arg_scopes with `trainable=False`,
    `slim.repeat` scopes, flatten, fc embedding returned as `tf.identity(name=
    'embedding')`), saved from a training graph with an extra variable, then restored
    into the inference graph through a `Saver(..., name='vggish_load_pretrained',
    write_version=1)` over the variables whose names a throwaway graph lists."""
    from tests.golden.cases_contrib_slim_zoo import _slim
    slim = _slim(tf)

    def define(training):
        with slim.arg_scope([slim.conv2d, slim.fully_connected],
                            weights_initializer=tf.truncated_normal_initializer(stddev=0.3),
                            biases_initializer=tf.zeros_initializer(),
                            activation_fn=tf.nn.relu, trainable=training), \
                slim.arg_scope([slim.conv2d], kernel_size=[3, 3], stride=1, padding="SAME"), \
                slim.arg_scope([slim.max_pool2d], kernel_size=[2, 2], stride=2,
                               padding="SAME"), \
                tf.variable_scope("vggish"):
            feats = tf.placeholder(tf.float32, shape=(None, 8, 4), name="input_features")
            net = tf.reshape(feats, [-1, 8, 4, 1])
            net = slim.conv2d(net, 3, scope="conv1")
            net = slim.max_pool2d(net, scope="pool1")
            net = slim.repeat(net, 2, slim.conv2d, 4, scope="conv3")
            net = slim.max_pool2d(net, scope="pool3")
            net = slim.flatten(net)
            net = slim.repeat(net, 2, slim.fully_connected, 6, scope="fc1")
            net = slim.fully_connected(net, 5, scope="fc2", activation_fn=None)
            return tf.identity(net, name="embedding")

    x = _seeded([2, 8, 4], 6, 3.0)
    with tempfile.TemporaryDirectory() as root:
        path = os.path.join(root, "vggish.ckpt")
        with tf.Graph().as_default(), tf.Session() as sess:
            tf.set_random_seed(7)
            define(True)
            tf.get_variable("global_step", [], initializer=tf.constant_initializer(3.0))
            sess.run(tf.global_variables_initializer())
            saved = tf.train.Saver().save(sess, path)
            want = sess.run("vggish/embedding:0", {"vggish/input_features:0": x})
        with tf.Graph().as_default(), tf.Session() as sess:
            define(False)
            with tf.Graph().as_default():
                define(False)
                names = [v.name for v in tf.global_variables()]
            saver = tf.train.Saver([v for v in tf.global_variables() if v.name in names],
                                   name="vggish_load_pretrained", write_version=1)
            saver.restore(sess, saved)
            got = sess.run(sess.graph.get_tensor_by_name("vggish/embedding:0"),
                           {sess.graph.get_tensor_by_name("vggish/input_features:0"): x})
            return {"names": names, "trainable": len(tf.trainable_variables()),
                    "want": want, "got": got,
                    "restore_ops": sorted({op.type for op in sess.graph.get_operations()
                                           if op.name.startswith("vggish_load_pretrained/")})}
