"""Golden cases: patterns from classic TF1 model repositories (char-rnn, DCGAN, the
Transformer, pix2pix) that failed or differed on tf1compat, restated small.

`tf.contrib.legacy_seq2seq` is absent from TF 2.x: its oracle is TF 1.15's own seq2seq.py
executed under TF 2.21 (scripts/oracle_contrib.py, `tf115_legacy_seq2seq`). Model weights
are set from a seeded numpy stream after initialization (`set_weights`, which also lists
the variables both sides must create) where the initializers are not the point.
"""

import hashlib

import numpy as np

from tests.golden.cases_contrib_seq2seq import set_weights
from tests.golden.harness import catch, tolerance


def _legacy_seq2seq(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.legacy_seq2seq
    import oracle_contrib
    return oracle_contrib.tf115_legacy_seq2seq(tf)


def _symbols(steps, batch=3, vocab=7, seed=1):
    rng = np.random.RandomState(seed)
    return [rng.randint(0, vocab, size=[batch]).astype(np.int32) for _ in range(steps)]


@tolerance(rtol=1e-4, atol=1e-5)
def case_char_rnn_decoder_with_loop_function(tf):
    """char-rnn: a two-layer LSTM under `rnn_decoder(scope='rnnlm')` over split/squeezed
    embeddings; the sampling model feeds back the embedded argmax through
    `loop_function`, so only the first input is read."""
    s2s = _legacy_seq2seq(tf)
    vocab, units, steps = 9, 6, 4
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(units) for _ in range(2)],
                                       state_is_tuple=True)
    ids = tf.placeholder(tf.int32, [2, steps])
    initial = cell.zero_state(2, tf.float32)
    with tf.variable_scope("rnnlm"):
        softmax_w = tf.get_variable("softmax_w", [units, vocab])
        softmax_b = tf.get_variable("softmax_b", [vocab])
    embedding = tf.get_variable("embedding", [vocab, units])
    inputs = [tf.squeeze(x, [1])
              for x in tf.split(tf.nn.embedding_lookup(embedding, ids), steps, 1)]

    def loop(prev, _):
        prev = tf.matmul(prev, softmax_w) + softmax_b
        return tf.nn.embedding_lookup(embedding, tf.stop_gradient(tf.argmax(prev, 1)))

    teacher, teacher_state = s2s.rnn_decoder(inputs, initial, cell, scope="rnnlm")
    sampled, sampled_state = s2s.rnn_decoder(inputs, initial, cell, loop_function=loop,
                                             scope="rnnlm")
    logits = tf.matmul(tf.reshape(tf.concat(teacher, 1), [-1, units]), softmax_w) + softmax_b
    loss = s2s.sequence_loss_by_example([logits], [tf.reshape(ids, [-1])],
                                        [tf.ones([2 * steps])])
    grads = tf.gradients(tf.reduce_sum(loss), [embedding, softmax_w])
    data = np.array([[1, 4, 2, 8], [3, 0, 5, 7]], np.int32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess)
        out = sess.run({"teacher": teacher, "teacher_state": teacher_state,
                        "sampled": sampled, "sampled_state": sampled_state, "loss": loss,
                        "grads": grads}, {ids: data})
    return {"names": names, "outputs": [o.name for o in teacher + sampled], **out}


@tolerance(rtol=1e-4, atol=1e-5)
def case_basic_and_tied_rnn_seq2seq(tf):
    """basic_rnn_seq2seq (the encoder on a copy of the cell: its own weights) and
    tied_rnn_seq2seq (one set of weights under combined_tied_rnn_seq2seq/)."""
    s2s = _legacy_seq2seq(tf)
    rng = np.random.RandomState(3)
    enc = [tf.constant(rng.randn(2, 3).astype(np.float32)) for _ in range(3)]
    dec = [tf.constant(rng.randn(2, 3).astype(np.float32)) for _ in range(2)]
    basic, basic_state = s2s.basic_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(4))
    tied, tied_state = s2s.tied_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.BasicLSTMCell(4),
                                            loop_function=lambda prev, i: prev[:, :3])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess)
        out = sess.run({"basic": basic, "basic_state": basic_state, "tied": tied,
                        "tied_state": tied_state})
    return {"names": names, **out}


@tolerance(rtol=1e-4, atol=1e-5)
def case_embedding_rnn_seq2seq_feed_previous(tf):
    """embedding_rnn_seq2seq with a Python and a tensor `feed_previous` (both decoders
    under one tf.cond, the feeding one creating the variables), and with an output
    projection; embedding_tied_rnn_seq2seq with a tensor feed_previous."""
    s2s = _legacy_seq2seq(tf)
    enc = [tf.constant(x) for x in _symbols(3)]
    dec = [tf.constant(x) for x in _symbols(3, seed=2)]
    feed = tf.placeholder(tf.bool, [])
    # a fresh cell per model: the models deep-copy theirs for the encoder, and a built
    # cell holds graph tensors that cannot be copied
    with tf.variable_scope("plain"):
        plain, _ = s2s.embedding_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(5), 7, 8, 4)
    with tf.variable_scope("greedy"):
        greedy, greedy_state = s2s.embedding_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(5),
                                                         7, 8, 4, feed_previous=True)
    with tf.variable_scope("switch"):
        switch, switch_state = s2s.embedding_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.LSTMCell(5),
                                                         7, 8, 4, feed_previous=feed)
    with tf.variable_scope("projected"):
        w = tf.get_variable("proj_w", [5, 8])
        b = tf.get_variable("proj_b", [8])
        projected, _ = s2s.embedding_rnn_seq2seq(enc, dec, tf.nn.rnn_cell.GRUCell(5), 7, 8,
                                                 4,
                                                 output_projection=(w, b),
                                                 feed_previous=True)
    with tf.variable_scope("tied"):
        tied, tied_state = s2s.embedding_tied_rnn_seq2seq(
            enc, dec, tf.nn.rnn_cell.LSTMCell(5), 7, 4, num_decoder_symbols=6,
            feed_previous=feed)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess)
        fetch = {"plain": plain, "greedy": greedy, "greedy_state": greedy_state,
                 "switch": switch, "switch_state": switch_state, "projected": projected,
                 "tied": tied, "tied_state": tied_state}
        on = sess.run(fetch, {feed: True})
        off = sess.run(fetch, {feed: False})
    return {"names": names, "on": on, "off": off,
            "shapes": [o.shape.as_list() for o in plain + projected + switch]}


@tolerance(rtol=1e-4, atol=1e-5)
def case_attention_seq2seq_with_buckets(tf):
    """The translation tutorial's model: embedding_attention_seq2seq (two heads, an output
    projection, initial_state_attention) inside model_with_buckets with a sampled-softmax-
    like custom loss, plus the per-example losses; gradients through the attention."""
    s2s = _legacy_seq2seq(tf)
    buckets = [(2, 2), (3, 4)]
    enc = [tf.placeholder(tf.int32, [None], name=f"enc{i}") for i in range(3)]
    dec = [tf.placeholder(tf.int32, [None], name=f"dec{i}") for i in range(4)]
    weights = [tf.placeholder(tf.float32, [None], name=f"w{i}") for i in range(4)]
    targets = dec[1:] + [tf.zeros_like(dec[0])]
    w = tf.get_variable("proj_w", [6, 9])
    b = tf.get_variable("proj_b", [9])

    def loss_fn(labels, logits):
        full = tf.matmul(logits, w) + b
        return tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=full)

    def model(e, d):
        return s2s.embedding_attention_seq2seq(
            e, d, tf.nn.rnn_cell.GRUCell(6), num_encoder_symbols=7, num_decoder_symbols=9,
            embedding_size=5, num_heads=2, output_projection=(w, b),
            initial_state_attention=True)

    outputs, losses = s2s.model_with_buckets(enc, dec, targets, weights, buckets, model,
                                             softmax_loss_function=loss_fn)
    with tf.variable_scope("per_example"):
        _, per_example = s2s.model_with_buckets(
            enc, dec, targets, weights, buckets[:1],
            lambda e, d: s2s.embedding_attention_seq2seq(e, d, tf.nn.rnn_cell.GRUCell(6), 7,
                                                         9, 5),
            per_example_loss=True)
    grads = tf.gradients(losses[-1], tf.trainable_variables())
    feed = {p: x for p, x in zip(enc, _symbols(3, batch=2))}
    feed.update({p: x for p, x in zip(dec, _symbols(4, batch=2, vocab=9, seed=5))})
    feed.update({p: np.array([1.0, 0.5], np.float32) for p in weights})
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess)
        out = sess.run({"outputs": outputs, "losses": losses, "per_example": per_example,
                        "grads": [g for g in grads if g is not None]}, feed)
    errors = [catch(lambda: s2s.model_with_buckets(enc[:1], dec, targets, weights, buckets,
                                                   model)),
              catch(lambda: s2s.attention_decoder([], None, None, None)),
              catch(lambda: s2s.attention_decoder(
                  [tf.zeros([2, 3])], tf.zeros([2, 4]), tf.zeros([2, 3, 4]),
                  tf.nn.rnn_cell.GRUCell(4), num_heads=0))]
    return {"names": names, "grad_count": sum(g is not None for g in grads),
            "errors": errors, **out}


@tolerance(rtol=1e-4, atol=1e-5)
def case_one2many_rnn_seq2seq(tf):
    """one2many_rnn_seq2seq: one embedded encoder, a decoder per task key."""
    s2s = _legacy_seq2seq(tf)
    enc = [tf.constant(x) for x in _symbols(2)]
    decs = {"a": [tf.constant(x) for x in _symbols(2, vocab=5, seed=4)],
            "b": [tf.constant(x) for x in _symbols(3, vocab=6, seed=6)]}
    cells = {"a": tf.nn.rnn_cell.GRUCell(4), "b": tf.nn.rnn_cell.GRUCell(4)}
    outputs, states = s2s.one2many_rnn_seq2seq(enc, decs, tf.nn.rnn_cell.GRUCell(4), cells,
                                               7, {"a": 5, "b": 6}, 3, feed_previous=True)
    feed = tf.placeholder(tf.bool, [])
    with tf.variable_scope("switch"):
        switch_cells = {"a": tf.nn.rnn_cell.LSTMCell(4), "b": tf.nn.rnn_cell.LSTMCell(4)}
        switch, switch_states = s2s.one2many_rnn_seq2seq(
            enc, decs, tf.nn.rnn_cell.LSTMCell(4), switch_cells, 7, {"a": 5, "b": 6}, 3,
            feed_previous=feed)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        names = set_weights(tf, sess)
        out = sess.run({"outputs": outputs, "states": states})
        on = sess.run({"outputs": switch, "states": switch_states}, {feed: True})
        off = sess.run({"outputs": switch, "states": switch_states}, {feed: False})
    return {"names": names, "on": on, "off": off, **out}


def case_dropout_keep_all_keeps_op_seeds(tf):
    """`tf.nn.dropout(x, 1.0)` returns x unchanged but, as TF 2.x, still draws its op seed:
    in a seeded graph the random ops built after it get the same seeds as TF's (char-rnn
    builds its LSTM weights after such a dropout)."""
    tf.set_random_seed(5)
    x = tf.ones([2, 3])
    kept = tf.nn.dropout(x, 1.0)
    kept_v2 = tf.nn.dropout(x, rate=0.0)
    after = tf.random_uniform([4])
    weights = tf.get_variable("w", [2, 2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return {"same_tensor": [kept is x, kept_v2 is x],
                "after": sess.run(after), "w": sess.run(weights)}


def case_encode_png_bytes_as_libpng(tf):
    """pix2pix writes its outputs with tf.image.encode_png: the files are TF's byte for
    byte (libpng's per-row filters and zlib settings, 8 KiB IDAT chunks) for smooth and
    noisy images, 1..4 channels, uint16, and compression levels 1..9 (level 0's stored
    blocks split elsewhere: its image is compared decoded)."""
    rng = np.random.RandomState(4)
    yy, xx = np.mgrid[0:96, 0:120]
    smooth = np.stack([xx * 2, yy * 2, (xx + yy)], -1).astype(np.uint8)
    noisy = (rng.rand(80, 90, 3) * 255).astype(np.uint8)
    images = {"smooth": smooth, "noisy": noisy, "gray": smooth[:, :, :1],
              "gray_alpha": np.concatenate([smooth[:, :, :1], 255 - smooth[:, :, 2:]], -1),
              "rgba": np.concatenate([smooth, smooth[:, :, :1]], -1),
              "wide16": (np.stack([xx * 500, yy * 300], -1) % 65536).astype(np.uint16)}
    fetches = {name: tf.image.encode_png(image) for name, image in images.items()}
    for level in (1, 6, 9):
        fetches[f"level{level}"] = tf.image.encode_png(smooth, compression=level)
    stored = tf.image.decode_png(tf.image.encode_png(noisy, compression=0))
    placeholder = tf.placeholder(tf.uint8, [None, None, 3])
    with tf.Session() as sess:
        out = sess.run(fetches)
        level0 = sess.run(stored)
        fed = sess.run(tf.image.encode_png(placeholder), {placeholder: smooth[:5, :7]})
    out["fed"] = fed
    # files up to 1 KB as hex, larger ones by length, digest and first bytes
    files = {name: data.hex() if len(data) <= 1024 else
             [len(data), hashlib.sha256(data).hexdigest(), data[:64].hex()]
             for name, data in out.items()}
    return {**files, "level0_round_trip": [list(level0.shape), bool((level0 == noisy).all())]}
