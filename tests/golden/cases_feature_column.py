"""Golden cases: tf.feature_column (recorded under TF 2.15): every TF1 column through
input_layer / linear_model with seeded initializers, names, hashing, parse specs, errors;
the sequence columns through TF 1.15's tf.contrib.feature_column.sequence_input_layer
(which TF 2.15 computes as tf.keras.experimental.SequenceFeatures)."""

import os
import tempfile

import numpy as np

from tests.golden.harness import catch

TF_VERSION = "2.15"


def _features(tf):
    # Unknown batch size, as from an input pipeline (TF's shape inference would otherwise
    # evaluate small constant subgraphs, e.g. a SparseCross of constants).
    def feature(value, dtype=None):
        value = np.array(value, dtype=dtype)
        return tf.placeholder_with_default(value, [None] + list(value.shape[1:]))
    return {"x": feature([[1., 2.], [3., 4.], [-1., 0.5]], np.float32),
            "s": feature([[b"a", b"b"], [b"c", b""], [b"zz", b"a"]], object),
            "i": feature([[1], [5], [3]], np.int64),
            "w": feature([[0.5, 2.], [1., 0.], [3., 1.]], np.float32),
            "h": feature([[b"foo"], [b"bar"], [b"baz"]], object),
            "n": feature([7, 8, 9], np.int32)}


def _run(tf, tensors):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        return sess.run(tensors)


def case_input_layer_all_dense_columns(tf):
    fc = tf.feature_column
    tf.set_random_seed(11)
    x = fc.numeric_column("x", shape=[2])
    vocab = fc.categorical_column_with_vocabulary_list("s", ["a", "b", "c"])
    cols = [x, fc.numeric_column("n", dtype=tf.int32, normalizer_fn=lambda t: t * 2),
            fc.bucketized_column(x, [0., 1.5, 3.5]),
            fc.embedding_column(vocab, 3),
            fc.embedding_column(fc.categorical_column_with_hash_bucket("h", 10), 2,
                                combiner="sqrtn"),
            fc.indicator_column(fc.categorical_column_with_identity("i", 6)),
            fc.indicator_column(fc.categorical_column_with_hash_bucket("h", 7)),
            fc.indicator_column(fc.crossed_column(
                ["h", fc.categorical_column_with_identity("i", 6)], 11)),
            fc.indicator_column(fc.crossed_column(["h", "s"], 13, hash_key=5)),
            fc.indicator_column(fc.weighted_categorical_column(
                fc.categorical_column_with_vocabulary_list("s", ["a", "b", "c"],
                                                           num_oov_buckets=2), "w")),
            fc.indicator_column(fc.categorical_column_with_vocabulary_list(
                "s", ["a", "b"], default_value=0))]
    cols_to_vars, cols_to_out = {}, {}
    out = fc.input_layer(_features(tf), cols, cols_to_vars=cols_to_vars,
                         cols_to_output_tensors=cols_to_out)
    return {"shape": out.shape.as_list(), "name": out.name,
            "names": sorted(c.name for c in cols),
            "variables": [v.name for v in tf.global_variables()],
            "vars_by_column": {c.name: [v.name for v in vs] for c, vs in cols_to_vars.items()},
            "widths": {c.name: t.shape.as_list() for c, t in cols_to_out.items()},
            "value": _run(tf, out)}


def case_linear_model(tf):
    fc = tf.feature_column
    cols = [fc.numeric_column("x", shape=[2]),
            fc.categorical_column_with_hash_bucket("h", 7),
            fc.crossed_column(["h", "s"], 5),
            fc.weighted_categorical_column(fc.categorical_column_with_identity("i", 6), "n",
                                           dtype=tf.int32),
            fc.bucketized_column(fc.numeric_column("x", shape=[2]), [0.])]
    cols_to_vars = {}
    logits = fc.linear_model(_features(tf), cols, units=2, cols_to_vars=cols_to_vars)
    assigns = [tf.assign(v, tf.ones_like(v) * (k + 1) * 0.1)
               for k, v in enumerate(tf.global_variables())]
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        sess.run(assigns)
        value = sess.run(logits)
    return {"value": value, "shape": logits.shape.as_list(),
            "variables": [v.name for v in tf.global_variables()],
            "bias": [v.name for v in cols_to_vars["bias"]],
            "sparse_mean": fc.linear_model(_features(tf), cols[1:2],
                                           sparse_combiner="mean").shape.as_list()}


def case_shared_embeddings_and_vocab_file(tf):
    fc = tf.feature_column
    tf.set_random_seed(2)
    path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
    with open(path, "w") as f:
        f.write("b\nzz\na\n")
    file_col = fc.categorical_column_with_vocabulary_file("s", path, num_oov_buckets=1)
    a, b = fc.shared_embedding_columns([fc.categorical_column_with_identity("i", 6),
                                        fc.categorical_column_with_identity("j", 6)], 2,
                                       combiner="sum")
    feats = dict(_features(tf), j=tf.placeholder_with_default(
        np.array([[2, 1], [3, -1], [0, 0]], np.int64), [None, 2]))
    out = fc.input_layer(feats, [a, b, fc.indicator_column(file_col)])
    result = {"names": [a.name, b.name, file_col.name, file_col.vocabulary_size],
              "variables": [v.name for v in tf.global_variables()],
              "value": _run(tf, out)}
    os.remove(path)
    return result


def case_parse_example_spec(tf):
    fc = tf.feature_column
    cols = [fc.numeric_column("x", shape=[2], default_value=0.),
            fc.bucketized_column(fc.numeric_column("b"), [1.]),
            fc.embedding_column(fc.categorical_column_with_hash_bucket("h", 10), 2),
            fc.indicator_column(fc.categorical_column_with_identity("i", 4)),
            fc.weighted_categorical_column(fc.categorical_column_with_identity("k", 4), "wk"),
            fc.crossed_column(["c1", "c2"], 10)]
    spec = fc.make_parse_example_spec(cols)
    out = {}
    for key in sorted(spec):
        v = spec[key]
        out[key] = [type(v).__name__, v.dtype.name, list(getattr(v, "shape", []) or []),
                    getattr(v, "default_value", None)]
    ex = tf.train.Example(features=tf.train.Features(feature={
        "x": tf.train.Feature(float_list=tf.train.FloatList(value=[1., 2.])),
        "b": tf.train.Feature(float_list=tf.train.FloatList(value=[3.])),
        "h": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"q", b"r"])),
        "i": tf.train.Feature(int64_list=tf.train.Int64List(value=[2])),
        "k": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 3])),
        "wk": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 2.])),
        "c1": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"u"])),
        "c2": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"v", b"w"]))}))
    parsed = tf.parse_example([ex.SerializeToString()] * 2, spec)
    tf.set_random_seed(1)
    dense = fc.input_layer(parsed, [cols[0], cols[1], cols[2], cols[3],
                                    fc.indicator_column(cols[4]),
                                    fc.indicator_column(cols[5])])
    out["dense"] = _run(tf, dense)
    return out


def case_column_errors(tf):
    fc = tf.feature_column
    num = fc.numeric_column("x")
    return {
        "shape": catch(lambda: fc.numeric_column("x", shape=[0]), message=True),
        "dtype": catch(lambda: fc.numeric_column("x", dtype=tf.string), message=True),
        "default": catch(lambda: fc.numeric_column("x", shape=[2], default_value=[1.]),
                         message=True),
        "key": catch(lambda: fc.numeric_column(1), message=False),
        "boundaries": catch(lambda: fc.bucketized_column(num, [2., 1.]), message=True),
        "bucket_source": catch(lambda: fc.bucketized_column(
            fc.numeric_column("x", shape=[2, 2]), [1.]), message=False),
        "hash_size": catch(lambda: fc.categorical_column_with_hash_bucket("h", 0),
                           message=True),
        "hash_dtype": catch(lambda: fc.categorical_column_with_hash_bucket(
            "h", 3, dtype=tf.float32), message=True),
        "vocab_dup": catch(lambda: fc.categorical_column_with_vocabulary_list(
            "s", ["a", "a"]), message=True),
        "vocab_oov_default": catch(lambda: fc.categorical_column_with_vocabulary_list(
            "s", ["a"], default_value=0, num_oov_buckets=1), message=True),
        "identity_range": catch(lambda: fc.categorical_column_with_identity(
            "i", 3, default_value=3), message=True),
        "cross_hashed": catch(lambda: fc.crossed_column(
            [fc.categorical_column_with_hash_bucket("h", 3), "a"], 4), message=False),
        "cross_one": catch(lambda: fc.crossed_column(["a"], 4), message=True),
        "embedding_dim": catch(lambda: fc.embedding_column(
            fc.categorical_column_with_identity("i", 3), 0), message=True),
        "indicator_dense": catch(lambda: fc.indicator_column(num), message=False),
        "input_layer_categorical": catch(lambda: fc.input_layer(
            {"i": tf.constant([[1]])}, [fc.categorical_column_with_identity("i", 3)]),
            message=False),
        "duplicate": catch(lambda: fc.input_layer({"x": tf.constant([[1.]])}, [num, num]),
                           message=False),
        "missing_feature": catch(lambda: fc.input_layer({"y": tf.constant([[1.]])}, [num]),
                                 message=True),
        "empty": catch(lambda: fc.input_layer({"x": tf.constant([[1.]])}, []), message=True),
        "shared_buckets": catch(lambda: fc.shared_embedding_columns(
            [fc.categorical_column_with_identity("a", 3),
             fc.categorical_column_with_identity("b", 4)], 2), message=False),
    }


def case_column_reprs(tf):
    fc = tf.feature_column
    vocab = fc.categorical_column_with_vocabulary_list("s", ["a", "b"])
    cols = [fc.numeric_column("x", shape=2, default_value=1),
            fc.bucketized_column(fc.numeric_column("x"), [1, 2]),
            fc.categorical_column_with_hash_bucket("h", 3),
            vocab, fc.categorical_column_with_identity("i", 4),
            fc.crossed_column(["b", "a", vocab], 9),
            fc.indicator_column(vocab),
            fc.weighted_categorical_column(vocab, "w")]
    return {"names": [c.name for c in cols],
            "fields": [[type(c).__name__] + [f for f in c._fields] for c in cols],
            "numeric": [cols[0].shape, cols[0].default_value, cols[0].dtype.name],
            "num_buckets": [c._num_buckets for c in cols[1:6]],
            "equal": fc.numeric_column("x") == fc.numeric_column("x"),
            "hashable": len({fc.numeric_column("x"), fc.numeric_column("x")})}


def case_sequence_column_constructors(tf):
    fc = tf.feature_column
    cat = fc.sequence_categorical_column_with_identity("ids", 4)
    vocab = fc.sequence_categorical_column_with_vocabulary_list("w", ["a", "b"],
                                                                num_oov_buckets=1)
    num = fc.sequence_numeric_column("nums", shape=[2])
    return {"names": [cat.name, vocab.name, num.name,
                      fc.embedding_column(cat, 2).name, fc.indicator_column(cat).name],
            "types": [type(c).__name__ for c in (cat, vocab, num)],
            "buckets": [cat._num_buckets, vocab._num_buckets],
            "numeric": [num.shape, num.default_value, num.dtype.name],
            "spec": sorted(fc.make_parse_example_spec([cat, vocab]))}


def _sequence_input_layer(tf, features, columns):
    """TF 1.15's `tf.contrib.feature_column.sequence_input_layer` (tf1compat has it); the
    oracle, TF 2.15, has no contrib and computes the same as Keras' SequenceFeatures."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.feature_column.sequence_input_layer(features, columns)
    return tf.keras.experimental.SequenceFeatures(columns)(features)


def _concatenate_context_input(tf, context, sequence):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.feature_column.concatenate_context_input(context, sequence)
    from tensorflow.python.feature_column.sequence_feature_column import \
        concatenate_context_input
    return concatenate_context_input(context, sequence)


def case_sequence_input_layer_values(tf):
    fc = tf.feature_column
    ids = fc.sequence_categorical_column_with_identity("ids", 4)
    words = fc.sequence_categorical_column_with_vocabulary_list("w", ["a", "b"],
                                                                num_oov_buckets=1)
    table = np.arange(8).reshape(4, 2) / 10.
    emb = fc.embedding_column(ids, 2, initializer=tf.constant_initializer(table),
                              combiner="sum")
    num = fc.sequence_numeric_column("nums", shape=[2], default_value=-1.)
    def make_features():
        return {
            "ids": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], np.array([1, 3, 2], np.int64),
                                   [2, 3]),
            "w": tf.SparseTensor([[0, 0], [1, 0], [1, 1], [1, 2]],
                                 np.array([b"b", b"a", b"zz", b"b"], object), [2, 3]),
            "nums": tf.SparseTensor([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1]],
                                    np.arange(6, dtype=np.float32), [2, 6])}
    out = {}
    tensors = {}
    with tf.Graph().as_default():
        features = make_features()
        tensors["emb_num"] = _sequence_input_layer(tf, features, [emb, num])
        tensors["indicator"] = _sequence_input_layer(tf, features, [fc.indicator_column(words)])
        tensors["num_only"] = _sequence_input_layer(tf, features, [num])
        seq, _ = tensors["num_only"]
        context = tf.constant([[10., 20.], [30., 40.]])
        tensors["context"] = _concatenate_context_input(tf, context, seq)
        out["shapes"] = {k: [t.shape.as_list() for t in v] if isinstance(v, tuple)
                         else v.shape.as_list() for k, v in tensors.items()}
        out["values"] = _run(tf, tensors)
    with tf.Graph().as_default():
        features = make_features()
        out["mismatch"] = catch(lambda: _run(tf, _sequence_input_layer(
            tf, {"ids": features["ids"],
                 "nums": tf.SparseTensor([[0, 0]], [1.], [2, 8])}, [emb, num])))
        out["non_sequence"] = catch(lambda: _sequence_input_layer(
            tf, features, [fc.numeric_column("nums")]))
    return out
