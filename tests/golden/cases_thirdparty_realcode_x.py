"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-x).

* davidsandberg/facenet (HEAD 096ed77): its test/ suite (center_loss_test,
  triplet_loss_test, restore_test; batch_norm_test and the EMA restore test are skipped by
  the project itself) passes unchanged under both. train_test.py needs downloaded models
  and LFW images; instead src/train_softmax.py ran unchanged on six random 160x160 PNGs in
  three classes (slim inception_resnet_v1, FIFOQueue + batch_join input pipeline, center
  loss, prelogits norm, Adagrad over `tf.global_variables()`, EMA of the trainables):
  restored from a TF-written checkpoint with one full batch per step, the first step's
  losses equal TF's (total 15.084, xent 6.7001014 vs 6.7001042) and the step's gradients
  agree to rounding except where a ReLU input lies within rounding of zero (one element
  of 64k in block8_5, 2.8e-7 here, -1.3e-6 under TF), which TF itself shows under a 1e-6
  input perturbation; later steps drift apart from there as TF's own do. The run then
  stops, under both, at the project's Python 2 `dict.iteritems` (and LFW evaluation at
  numpy 2's refusal of ragged arrays in lfw.read_pairs). src/freeze_graph.py on that
  checkpoint failed on tf1compat: it edits `sess.graph.as_graph_def()` before
  `convert_variables_to_constants` (RefSwitch -> Switch reading `moving_*/read`,
  AssignSub -> Sub with `del node.attr['use_locking']`), and tf1compat's NodeDef views
  refused the deletion and their edits were dropped when the GraphDef was written. Fixed
  (the views' edits now reach the GraphDef); both sides' frozen graphs (5883 nodes) give the
  same embeddings to 3e-8 under either runtime. The cases pin the input pipeline, the
  center loss, the slim batch-norm arrangement and the frozen-graph edit.
* guillaumegenthial/sequence_tagging (HEAD 5cb9890): build_data.py (fake 300-d GloVe file
  for the words of data/test.txt), train.py (15 epochs, dropout 0.5, char BiLSTM + word
  BiLSTM + CRF, Adam) and evaluate.py's interactive shell ran unchanged under both. From
  shared initial weights with dropout 1.0, six Adam steps gave TF's losses to 1.3e-6
  relative (16.189795 vs 16.189793 ... 0.947891 vs 0.947895; TF varies by 4e-7 between its
  own runs), and Viterbi tags, transition matrix and chunk F1 are identical. The oracle's
  `tf.contrib.crf` is TF 1.15's crf.py. The case pins the model's graph.
* Kyubyong/transformer (HEAD fb023bb, the TF 1.12 version): train.py on a 16-sentence
  synthetic de-en corpus (d_model 16, 2 blocks, 2 heads) ran unchanged under both,
  through its evaluation, multi-bleu.perl and checkpoints. From shared initial weights
  with dropout 0 and unshuffled batches, 60 Adam steps under the Noam schedule gave TF's
  losses to 9e-6 relative (1.317066 vs 1.317072 at step 60) and the same greedy
  translations. The case pins its data and masking patterns.
"""

import os
import tempfile

import numpy as np

from tests.golden.harness import tolerance

# facenet.py's control bits
_RANDOM_CROP, _FIXED_STANDARDIZATION, _FLIP = 2, 8, 16


def _png_files(tf, count, height, width):
    """`count` random RGB PNGs written by the side's own encode_png."""
    rng = np.random.RandomState(5)
    folder = tempfile.mkdtemp()
    pixels = tf.placeholder(tf.uint8, [height, width, 3])
    encoded = tf.image.encode_png(pixels)
    paths = []
    with tf.Session() as sess:
        for i in range(count):
            path = os.path.join(folder, f"img_{i}.png")
            with open(path, "wb") as f:
                f.write(sess.run(encoded, {pixels: rng.randint(0, 256, (height, width, 3))}))
            paths.append(path)
    return paths


def _flag(tf, control, field):
    return tf.equal(tf.mod(tf.floor_div(control, field), 2), 1)


def _preprocess(tf, image, control, size):
    """facenet's per-image `tf.cond` chain on the control bits."""
    image = tf.cond(_flag(tf, control, _RANDOM_CROP),
                    lambda: tf.random_crop(image, size + (3,)),
                    lambda: tf.image.resize_image_with_crop_or_pad(image, *size))
    image = tf.cond(_flag(tf, control, _FIXED_STANDARDIZATION),
                    lambda: (tf.cast(image, tf.float32) - 127.5) / 128.0,
                    lambda: tf.image.per_image_standardization(image))
    return tf.cond(_flag(tf, control, _FLIP),
                   lambda: tf.image.flip_left_right(image),
                   lambda: tf.identity(image))


def case_facenet_fifo_queue_control_flag_pipeline(tf):
    """facenet.create_input_pipeline with one preprocessing thread: a FIFOQueue of
    (path, label, control) rows fed by enqueue_many, each dequeued path read and decoded,
    then a chain of `tf.cond`s on bits of the control value (crop-or-pad vs random crop,
    fixed vs per-image standardization, a forced left-right flip), `set_shape`, and
    `tf.train.batch_join(enqueue_many=True)` with the batch size from a placeholder."""
    paths = _png_files(tf, 5, 10, 12)
    size = (8, 8)
    paths_ph = tf.placeholder(tf.string, shape=(None, 1))
    labels_ph = tf.placeholder(tf.int32, shape=(None, 1))
    control_ph = tf.placeholder(tf.int32, shape=(None, 1))
    batch_size = tf.placeholder(tf.int32)
    queue = tf.FIFOQueue(capacity=100, dtypes=[tf.string, tf.int32, tf.int32],
                         shapes=[(1,), (1,), (1,)])
    enqueue = queue.enqueue_many([paths_ph, labels_ph, control_ph])
    filenames, label, control = queue.dequeue()
    images = []
    for filename in tf.unstack(filenames):
        image = _preprocess(tf, tf.image.decode_image(tf.read_file(filename), 3),
                            control[0], size)
        image.set_shape(size + (3,))
        images.append(image)
    image_batch, label_batch = tf.train.batch_join(
        [[images, label]], batch_size=batch_size, shapes=[size + (3,), ()],
        enqueue_many=True, capacity=400, allow_smaller_final_batch=True)
    controls = [0, _FIXED_STANDARDIZATION, _FIXED_STANDARDIZATION + _FLIP, _FLIP, 0]
    with tf.Session() as sess:
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord=coord)
        sess.run(enqueue, {paths_ph: np.array(paths)[:, None],
                           labels_ph: np.arange(5, dtype=np.int32)[:, None] * 3,
                           control_ph: np.array(controls, np.int32)[:, None]})
        first = sess.run([image_batch, label_batch], {batch_size: 3})
        second = sess.run([image_batch, label_batch], {batch_size: 2})
        # facenet never stops its runners; closing the input queue first ends the runner's
        # blocked dequeue under both (a stop request alone leaves it blocked in TF too)
        sess.run(queue.close(cancel_pending_enqueues=True))
        coord.request_stop()
        coord.join(threads, stop_grace_period_secs=5)
    return {"first": first, "second": second, "static": image_batch.shape.as_list()}


@tolerance(rtol=1e-5, atol=1e-6)
def case_facenet_center_loss_with_embedding_training(tf):
    """facenet.center_loss: a non-trainable `centers` variable, the batch's centers
    gathered, moved by `scatter_sub` (repeated labels accumulate), the loss made under a
    control dependency on the scatter; an embedding trained by Adagrad on cross entropy
    plus the weighted center loss and the prelogits' L1 norm in REGULARIZATION_LOSSES."""
    rng = np.random.RandomState(2)
    x = tf.constant(rng.randn(6, 5).astype(np.float32))
    labels = tf.constant([0, 2, 1, 2, 0, 2], tf.int32)
    w = tf.Variable(rng.randn(5, 4).astype(np.float32) * 0.5, name="w")
    w_logits = tf.Variable(rng.randn(4, 3).astype(np.float32) * 0.5, name="w_logits")
    prelogits = tf.matmul(x, w)
    logits = tf.matmul(prelogits, w_logits)
    centers = tf.get_variable("centers", [3, 4], dtype=tf.float32,
                              initializer=tf.constant_initializer(0), trainable=False)
    label = tf.reshape(labels, [-1])
    centers_batch = tf.gather(centers, label)
    diff = (1 - 0.6) * (centers_batch - prelogits)
    updated = tf.scatter_sub(centers, label, diff)
    with tf.control_dependencies([updated]):
        center_loss = tf.reduce_mean(tf.square(prelogits - centers_batch))
    norm = tf.reduce_mean(tf.norm(tf.abs(prelogits) + 1e-4, ord=1.0, axis=1))
    tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, norm * 5e-4)
    tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, center_loss * 0.5)
    xent = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits))
    total = tf.add_n([xent] + tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    train = tf.train.AdagradOptimizer(0.1).minimize(total)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        steps = [sess.run([total, xent, center_loss, train])[:3] for _ in range(4)]
        return {"steps": steps, "centers": sess.run(centers), "w": sess.run(w)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_facenet_slim_batch_norm_in_trainable_collection(tf):
    """inception_resnet_v1.inference's arrangement: slim conv2d/fully_connected with
    `normalizer_fn=slim.batch_norm`, `updates_collections=None` and
    `variables_collections=[TRAINABLE_VARIABLES]` under an is_training placeholder, so the
    moving statistics are listed by `tf.trainable_variables()` (and saved by a Saver over
    them); facenet.train's Adagrad over `tf.global_variables()` (no gradient, so no slot,
    for the moving statistics), an EMA of the trainables keyed to the global step, and an
    exponential_decay staircase learning rate."""
    from tests.golden.cases_contrib_slim_zoo import _slim
    slim = _slim(tf)
    rng = np.random.RandomState(4)
    images = tf.constant(rng.randn(4, 6, 6, 2).astype(np.float32))
    labels = tf.constant([0, 1, 1, 0], tf.int32)
    phase = tf.placeholder(tf.bool)
    global_step = tf.Variable(0, trainable=False)
    bn = {"decay": 0.995, "epsilon": 0.001, "updates_collections": None,
          "variables_collections": [tf.GraphKeys.TRAINABLE_VARIABLES]}
    init = tf.random_uniform_initializer(-0.4, 0.4, seed=7)
    with slim.arg_scope([slim.conv2d, slim.fully_connected], weights_initializer=init,
                        weights_regularizer=slim.l2_regularizer(5e-4),
                        normalizer_fn=slim.batch_norm, normalizer_params=bn), \
            slim.arg_scope([slim.batch_norm], is_training=phase), tf.variable_scope("Net"):
        net = slim.conv2d(images, 3, 3, stride=2, padding="VALID", scope="Conv2d_1a")
        up = slim.conv2d(net, 3, 1, normalizer_fn=None, activation_fn=None, scope="Conv2d_1x1")
        net = tf.nn.relu(net + 0.2 * up)
        net = slim.avg_pool2d(net, net.get_shape()[1:3], padding="VALID")
        net = slim.flatten(net)
        prelogits = slim.fully_connected(net, 4, activation_fn=None, scope="Bottleneck",
                                         reuse=False)
    logits = slim.fully_connected(prelogits, 2, activation_fn=None, weights_initializer=init,
                                  scope="Logits")
    xent = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=labels, logits=logits))
    total = tf.add_n([xent] + tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES))
    lr = tf.train.exponential_decay(0.1, global_step, 2, 0.5, staircase=True)
    opt = tf.train.AdagradOptimizer(lr)
    grads = opt.compute_gradients(total, tf.global_variables())
    apply = opt.apply_gradients(grads, global_step=global_step)
    ema = tf.train.ExponentialMovingAverage(0.9999, global_step)
    with tf.control_dependencies([apply, ema.apply(tf.trainable_variables())]):
        train = tf.no_op(name="train")
    saver = tf.train.Saver(tf.trainable_variables(), max_to_keep=3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([total, train], {phase: True})[0] for _ in range(3)]
        averages = sess.run([ema.average(v) for v in tf.trainable_variables()])
        return {"trainable": [v.op.name for v in tf.trainable_variables()],
                "no_grad": [v.op.name for g, v in grads if g is None],
                "slots": sorted(v.op.name for v in tf.global_variables()
                                if "Adagrad" in v.op.name),
                "saved": [name for name, _ in tf.train.list_variables(
                    saver.save(sess, os.path.join(tempfile.mkdtemp(), "model.ckpt")))],
                "losses": losses, "averages": averages,
                "eval": sess.run(prelogits, {phase: False}), "lr": sess.run(lr)}


@tolerance(rtol=1e-4, atol=1e-5)
def case_sequence_tagging_char_bilstm_crf(tf):
    """NERModel.build of sequence_tagging: char embeddings of [batch, words, chars] ids
    run through a bidirectional LSTM over the flattened words with their lengths, the final
    states' h concatenated and reshaped back beside frozen word embeddings, a word-level
    BiLSTM under a keep-prob placeholder, a projection reshaped by `tf.shape(output)[1]`,
    `crf_log_likelihood` as the loss (Adam from a learning-rate placeholder) and
    `viterbi_decode` on the fetched scores."""
    from tests.golden.cases_contrib_crf import _crf
    crf = _crf(tf)
    rng = np.random.RandomState(6)
    ntags, nchars, max_chars = 4, 7, 5
    word_ids = tf.placeholder(tf.int32, shape=[None, None])
    sequence_lengths = tf.placeholder(tf.int32, shape=[None])
    char_ids = tf.placeholder(tf.int32, shape=[None, None, None])
    word_lengths = tf.placeholder(tf.int32, shape=[None, None])
    labels = tf.placeholder(tf.int32, shape=[None, None])
    dropout = tf.placeholder(tf.float32, shape=[])
    lr = tf.placeholder(tf.float32, shape=[])
    with tf.variable_scope("ner", initializer=tf.random_uniform_initializer(-0.4, 0.4, seed=9)):
        with tf.variable_scope("words"):
            table = tf.Variable(rng.randn(9, 3).astype(np.float32), name="_word_embeddings",
                                dtype=tf.float32, trainable=False)
            word_embeddings = tf.nn.embedding_lookup(table, word_ids, name="word_embeddings")
        with tf.variable_scope("chars"):
            char_table = tf.get_variable(name="_char_embeddings", dtype=tf.float32,
                                         shape=[nchars, 3])
            char_embeddings = tf.nn.embedding_lookup(char_table, char_ids)
            s = tf.shape(char_embeddings)
            char_embeddings = tf.reshape(char_embeddings, shape=[s[0] * s[1], s[-2], 3])
            lengths = tf.reshape(word_lengths, shape=[s[0] * s[1]])
            cell_fw = tf.nn.rnn_cell.LSTMCell(4, state_is_tuple=True)
            cell_bw = tf.nn.rnn_cell.LSTMCell(4, state_is_tuple=True)
            _, ((_, output_fw), (_, output_bw)) = tf.nn.bidirectional_dynamic_rnn(
                cell_fw, cell_bw, char_embeddings, sequence_length=lengths, dtype=tf.float32)
            output = tf.concat([output_fw, output_bw], axis=-1)
            output = tf.reshape(output, shape=[s[0], s[1], 8])
            word_embeddings = tf.concat([word_embeddings, output], axis=-1)
        word_embeddings = tf.nn.dropout(word_embeddings, dropout)
        with tf.variable_scope("bi-lstm"):
            (output_fw, output_bw), _ = tf.nn.bidirectional_dynamic_rnn(
                tf.nn.rnn_cell.LSTMCell(5), tf.nn.rnn_cell.LSTMCell(5), word_embeddings,
                sequence_length=sequence_lengths, dtype=tf.float32)
            output = tf.nn.dropout(tf.concat([output_fw, output_bw], axis=-1), dropout)
        with tf.variable_scope("proj"):
            w = tf.get_variable("W", dtype=tf.float32, shape=[10, ntags])
            b = tf.get_variable("b", shape=[ntags], dtype=tf.float32,
                                initializer=tf.zeros_initializer())
            nsteps = tf.shape(output)[1]
            pred = tf.matmul(tf.reshape(output, [-1, 10]), w) + b
            logits = tf.reshape(pred, [-1, nsteps, ntags])
    # the project leaves `transitions` to the default (unseeded) Glorot initializer
    with tf.variable_scope("crf", initializer=tf.random_uniform_initializer(-0.4, 0.4, seed=3)):
        log_likelihood, trans_params = crf.crf_log_likelihood(logits, labels, sequence_lengths)
    loss = tf.reduce_mean(-log_likelihood)
    train = tf.train.AdamOptimizer(lr).minimize(loss)
    lens = np.array([4, 2, 3], np.int32)
    chars = rng.randint(1, nchars, (3, 4, max_chars)).astype(np.int32)
    char_lens = rng.randint(1, max_chars + 1, (3, 4)).astype(np.int32)
    feed = {word_ids: rng.randint(0, 9, (3, 4)), sequence_lengths: lens, char_ids: chars,
            word_lengths: char_lens, labels: rng.randint(0, ntags, (3, 4)), lr: 0.05,
            dropout: 1.0}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        losses = [sess.run([loss, train], feed)[0] for _ in range(3)]
        scores, trans = sess.run([logits, trans_params], feed)
        decoded = [crf.viterbi_decode(score[:n], trans) for score, n in zip(scores, lens)]
        return {"losses": losses, "trans": trans,
                "viterbi": [[int(t) for t in seq] for seq, _ in decoded],
                "viterbi_scores": [float(v) for _, v in decoded],
                "names": sorted(v.op.name for v in tf.global_variables())}


def _transformer_generator(sents1, sents2, vocab):
    """data_load.generator_fn: the `args` come back as numpy bytes."""
    token2idx = {t.decode() if isinstance(t, bytes) else t: i for i, t in enumerate(vocab)}
    for sent1, sent2 in zip(sents1, sents2):
        x = [token2idx.get(t, 1) for t in sent1.decode().split()] + [3]
        y = [2] + [token2idx.get(t, 1) for t in sent2.decode().split()] + [3]
        yield (x, len(x), sent1), (y[:-1], y[1:], len(y) - 1, sent2)


@tolerance(rtol=1e-5, atol=1e-6)
def case_transformer_generator_padded_batches_and_masks(tf):
    """Kyubyong/transformer's pipeline and masks: `Dataset.from_generator` with nested
    output types/shapes and string `args`, `padded_batch` with nested padding values (''
    for strings), a reinitializable iterator; sinusoidal positions gathered for
    `tf.range(T)`, key masks tiled over heads and added as -2**32+1, a future mask from
    `LinearOperatorLowerTriangular(...).to_dense()`, tied-embedding logits through
    `einsum('ntd,dk->ntk')`, label smoothing, the non-padding mean, the Noam learning rate;
    and the eval loop's `if tf.reduce_sum(y_hat, 1) == 0: break`, a Tensor compared with
    an int (identity under TF1: never equal)."""
    vocab = ["<pad>", "<unk>", "<s>", "</s>", "a", "b", "c", "x", "y", "z"]
    sents1 = ["a b c", "c a", "b b a c"]
    sents2 = ["x y", "z x z", "y"]
    shapes = (([None], (), ()), ([None], [None], (), ()))
    types = ((tf.int32, tf.int32, tf.string), (tf.int32, tf.int32, tf.int32, tf.string))
    dataset = tf.data.Dataset.from_generator(
        _transformer_generator, output_shapes=shapes, output_types=types,
        args=(sents1, sents2, vocab)).repeat()
    dataset = dataset.padded_batch(2, shapes, ((0, 0, ""), (0, 0, 0, ""))).prefetch(1)
    it = tf.data.Iterator.from_structure(dataset.output_types, dataset.output_shapes)
    (x, x_len, sent1), (dec_in, y, y_len, sent2) = it.get_next()
    init = it.make_initializer(dataset)
    d, heads = 4, 2
    rng = np.random.RandomState(8)
    embeddings = tf.Variable(rng.randn(len(vocab), d).astype(np.float32) * 0.5)
    pos = np.array([[p / np.power(10000, (i - i % 2) / d) for i in range(d)]
                    for p in range(6)])
    pos[:, 0::2], pos[:, 1::2] = np.sin(pos[:, 0::2]), np.cos(pos[:, 1::2])
    n, t = tf.shape(dec_in)[0], tf.shape(dec_in)[1]
    position_ind = tf.tile(tf.expand_dims(tf.range(t), 0), [n, 1])
    dec = tf.nn.embedding_lookup(embeddings, dec_in) * d ** 0.5
    dec += tf.to_float(tf.nn.embedding_lookup(tf.convert_to_tensor(pos, tf.float32),
                                              position_ind))
    memory = tf.nn.embedding_lookup(embeddings, x)
    q_ = tf.concat(tf.split(dec, heads, axis=2), axis=0)
    k_ = tf.concat(tf.split(memory, heads, axis=2), axis=0)
    self_scores = tf.matmul(q_, tf.transpose(q_, [0, 2, 1])) / (d // heads) ** 0.5
    tril = tf.linalg.LinearOperatorLowerTriangular(tf.ones_like(self_scores[0, :, :])).to_dense()
    future = tf.tile(tf.expand_dims(tril, 0), [tf.shape(self_scores)[0], 1, 1])
    self_scores = tf.where(tf.equal(future, 0), tf.ones_like(future) * (-2 ** 32 + 1),
                           self_scores)
    q_ = tf.matmul(tf.nn.softmax(self_scores), q_)
    scores = tf.matmul(q_, tf.transpose(k_, [0, 2, 1])) / (d // heads) ** 0.5
    key_masks = tf.to_float(tf.math.equal(x, 0))
    key_masks = tf.tile(key_masks, [tf.shape(scores)[0] // tf.shape(key_masks)[0], 1])
    scores = scores + tf.expand_dims(key_masks, 1) * (-2 ** 32 + 1)
    att = tf.concat(tf.split(tf.matmul(tf.nn.softmax(scores), k_), heads, axis=0), axis=2)
    logits = tf.einsum("ntd,dk->ntk", dec + att, tf.transpose(embeddings))
    y_hat = tf.to_int32(tf.argmax(logits, axis=-1))
    smoothed = 0.9 * tf.one_hot(y, depth=len(vocab)) + 0.1 / len(vocab)
    ce = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=smoothed)
    nonpadding = tf.to_float(tf.not_equal(y, 0))
    loss = tf.reduce_sum(ce * nonpadding) / (tf.reduce_sum(nonpadding) + 1e-7)
    global_step = tf.train.get_or_create_global_step()
    step = tf.cast(global_step + 1, dtype=tf.float32)
    lr = 0.01 * 4.0 ** 0.5 * tf.minimum(step * 4.0 ** -1.5, step ** -0.5)
    train = tf.train.AdamOptimizer(lr).minimize(loss, global_step=global_step)
    compared = tf.reduce_sum(y_hat, 1) == 0
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(init)
        first = sess.run([x, x_len, sent1, dec_in, y, y_len, sent2])
        losses = [sess.run([loss, lr, train])[:2] for _ in range(4)]
        return {"first": first, "losses": losses, "y_hat": sess.run(y_hat),
                "tensor_eq_int": compared, "embeddings": sess.run(embeddings)}


def case_facenet_freeze_graph_def_edits(tf):
    """facenet's freeze_graph_def: nodes of `sess.graph.as_graph_def()` edited in place
    (an AssignSub made a Sub reading the variable's `/read`, its `use_locking` attr
    deleted) before `graph_util.convert_variables_to_constants`; the frozen graph's nodes
    and what it computes."""
    v = tf.Variable(np.array([1.0, 2.0, 3.0], np.float32), name="v")
    x = tf.placeholder(tf.float32, [3], name="x")
    updated = tf.assign_sub(v, x, name="update")
    tf.identity(updated * 2.0, name="out")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        graph_def = sess.graph.as_graph_def()
        for node in graph_def.node:
            if node.op == "AssignSub":
                node.op = "Sub"
                node.input[0] = node.input[0] + "/read"
                if "use_locking" in node.attr:
                    del node.attr["use_locking"]
        frozen = tf.graph_util.convert_variables_to_constants(sess, graph_def, ["out"])
        value = sess.run(v)
    nodes = [(n.name, n.op, list(n.input), sorted(n.attr)) for n in frozen.node]
    with tf.Graph().as_default():
        tf.import_graph_def(frozen, name="")
        with tf.Session() as sess:
            out = sess.run("out:0", {"x:0": np.array([0.5, 1.0, 4.0], np.float32)})
    return {"nodes": nodes, "out": out, "variable_unchanged": value}
