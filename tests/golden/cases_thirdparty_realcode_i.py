"""Golden cases: patterns from tensorflow/nmt (vocabulary tables, bucketed input
pipelines, attention images written through GFile), restated small.

nmt looks its end-of-sentence id up with a scalar string constant, buckets sentence
pairs by length with `group_by_window` + `padded_batch` (via `tf.contrib.data` in TF
1.x), and writes the PNG bytes of an image summary to a GFile opened in text mode "w".
"""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch


def _vocab_table(tf):
    keys = tf.constant(["<unk>", "<s>", "</s>", "a", "b", "c"])
    init = tf.lookup.KeyValueTensorInitializer(keys, tf.range(6, dtype=tf.int64))
    return tf.lookup.StaticHashTable(init, default_value=0)


def case_lookup_scalar_string_key(tf):
    """A table looked up with a scalar string (nmt's `eos` id) and with a vector."""
    table = _vocab_table(tf)
    eos_id = tf.cast(table.lookup(tf.constant("</s>")), tf.int32)
    missing = table.lookup(tf.constant("zzz"))
    words = table.lookup(tf.constant([["a", "q"], ["</s>", "c"]]))
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        values = sess.run({"eos": eos_id, "missing": missing, "words": words})
    return {"values": values, "shapes": [str(eos_id.shape), str(words.shape)]}


def case_bucketed_sentence_pairs(tf):
    """nmt's training pipeline: split, map words to ids, drop long pairs, add <s>/</s>,
    bucket by source length with group_by_window and pad each bucket's batch."""
    table = _vocab_table(tf)
    src = tf.data.Dataset.from_tensor_slices(
        ["a b", "c", "a b c a", "b", "c c a", "a", "b b b b b", "c a"])
    tgt = tf.data.Dataset.from_tensor_slices(
        ["b", "a c", "c", "a b c", "b", "c c", "a", "b a"])
    sos = tf.cast(table.lookup(tf.constant("<s>")), tf.int32)
    eos = tf.cast(table.lookup(tf.constant("</s>")), tf.int32)
    ds = tf.data.Dataset.zip((src, tgt))
    ds = ds.map(lambda s, t: (tf.string_split([s]).values, tf.string_split([t]).values))
    ds = ds.filter(lambda s, t: tf.logical_and(tf.size(s) > 0, tf.size(s) < 5))
    ds = ds.map(lambda s, t: (tf.cast(table.lookup(s), tf.int32),
                              tf.cast(table.lookup(t), tf.int32)))
    ds = ds.map(lambda s, t: (s, tf.concat(([sos], t), 0), tf.concat((t, [eos]), 0)))
    ds = ds.map(lambda s, ti, to: (s, ti, to, tf.size(s), tf.size(ti)))

    def batching(x):
        return x.padded_batch(
            2, padded_shapes=(tf.TensorShape([None]), tf.TensorShape([None]),
                              tf.TensorShape([None]), tf.TensorShape([]), tf.TensorShape([])),
            padding_values=(eos, eos, eos, 0, 0))

    def key_func(unused_1, unused_2, unused_3, src_len, tgt_len):
        return tf.to_int64(tf.maximum(src_len // 2, tgt_len // 2))

    ds = ds.apply(tf.data.experimental.group_by_window(
        key_func=key_func, reduce_func=lambda unused_key, window: batching(window),
        window_size=2))
    it = tf.data.make_initializable_iterator(ds)
    nxt = it.get_next()
    batches = []
    with tf.Session() as sess:
        sess.run(tf.tables_initializer())
        sess.run(it.initializer)
        while True:
            try:
                batches.append(sess.run(nxt))
            except tf.errors.OutOfRangeError:
                break
    return {"batches": batches, "shapes": [str(t.shape) for t in nxt]}


def case_gfile_text_mode_bytes(tf):
    """Bytes written to a GFile opened with "w" land unchanged (nmt's attention PNG)."""
    image = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3) * 13
    png = tf.image.encode_png(tf.constant(image))
    with tf.Session() as sess:
        data = sess.run(png)
    path = os.path.join(tempfile.mkdtemp(), "attention.png")
    with tf.gfile.GFile(path, mode="w") as f:
        f.write("text first,")
        f.write(data)
        f.write(b"|")
        f.write("text after")
    with open(path, "rb") as f:
        written = f.read()
    return {"bytes": list(written), "size": tf.gfile.Stat(path).length,
            "read_back": catch(lambda: list(tf.gfile.GFile(path, "rb").read()))}


def case_sparse_attention_unordered_indices(tf):
    """PetarV-/GAT's sparse attention head: an adjacency with indices in column-major
    (not canonical) order, scaled by two broadcast score vectors, added with sparse_add,
    leaky-relu'd, sparse_softmax'ed and multiplied into features. TF keeps sparse_add's
    operand order and writes softmax values in canonical order; values and gradients
    follow TF's kernels and registered gradients."""
    n = 4
    cols, rows = np.nonzero(np.array([[1, 1, 0, 1], [1, 1, 1, 0], [0, 1, 1, 1],
                                      [1, 0, 1, 1]]).T)
    adj = tf.SparseTensor(np.stack([rows, cols], 1).astype(np.int64),
                          np.ones(len(rows), np.float32), [n, n])
    feats = tf.constant(np.linspace(-1, 1, n * 3, dtype=np.float32).reshape(n, 3))
    w1 = tf.Variable(np.array([[0.5], [-1.0], [2.0]], np.float32))
    w2 = tf.Variable(np.array([[1.5], [0.25], [-0.5]], np.float32))
    f1 = tf.matmul(feats, w1)
    f2 = tf.transpose(tf.matmul(feats, w2), [1, 0])
    logits = tf.sparse_add(adj * f1, adj * f2)
    lrelu = tf.SparseTensor(logits.indices, tf.nn.leaky_relu(logits.values),
                            logits.dense_shape)
    coefs = tf.sparse_softmax(lrelu)
    out = tf.sparse_tensor_dense_matmul(coefs, feats)
    loss = tf.reduce_sum(out * tf.constant([[1.0, -2.0, 0.5]]))
    grads = tf.gradients(loss, [w1, w2])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run({"sum": logits, "coefs": coefs.values, "out": out,
                           "grads": grads})
    summed = values.pop("sum")
    values["sum_indices"], values["sum_values"] = summed.indices, summed.values
    return values
