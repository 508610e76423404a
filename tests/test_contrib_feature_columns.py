"""tf.contrib.layers' feature columns and their layers (TF 1.15's
contrib/layers/python/layers/feature_column.py and feature_column_ops.py).

TF 1.15 is not installable, so names, sort keys, shapes and errors are checked against
the TF 1.15 sources (cited per test); values shared with the core columns are compared
with TF 2.15 in tests/golden/cases_contrib_learn_canned.py.
"""

import numpy as np
import pytest

import tf1compat as tf

layers = tf.contrib.layers


def _run(fetches):
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
        return sess.run(fetches)


def test_names_and_sort_keys_follow_tf115():
    # feature_column.py: `name` properties and `key` = "{}".format(self) (namedtuple repr),
    # `_key_without_properties` for real valued ("normalizer") and embedding
    # ("initializer") columns, which formats values with str().
    r = layers.real_valued_column("r", dimension=2)
    keys = layers.sparse_column_with_keys("s", ["a", "b"])
    hashed = layers.sparse_column_with_hash_bucket("h", 10)
    assert r.name == "r"
    assert r.key == ("_RealValuedColumn(column_name=r, dimension=2, default_value=None, "
                     "dtype=<dtype: 'float32'>)")
    assert keys.key == (
        "_SparseColumnKeys(column_name='s', is_integerized=False, bucket_size=None, "
        "lookup_config=_SparseIdLookupConfig(vocabulary_file=None, keys=('a', 'b'), "
        "num_oov_buckets=0, vocab_size=2, default_value=-1), combiner='sum', "
        "dtype=tf.string)")
    assert layers.bucketized_column(r, [0., 0., 1.]).boundaries == (0., 1.)
    assert layers.bucketized_column(r, [0., 1.]).name == "r_bucketized"
    assert layers.embedding_column(keys, 3).name == "s_embedding"
    assert layers.embedding_column(keys, 3).key.startswith(
        "_EmbeddingColumn(sparse_id_column=_SparseColumnKeys(")
    assert "initializer" not in layers.embedding_column(keys, 3).key
    assert layers.one_hot_column(hashed).name == "h_one_hot"
    assert layers.weighted_sparse_column(hashed, "w").name == "h_weighted_by_w"
    assert layers.crossed_column([keys, hashed], 5).name == "h_X_s"
    other = layers.sparse_column_with_hash_bucket("g", 10)
    assert [c.name for c in layers.shared_embedding_columns([hashed, other], 2)] == \
        ["h_shared_embedding", "g_shared_embedding"]


def test_constructor_errors_are_tf115s():
    with pytest.raises(TypeError, match="dimension must be an integer"):
        layers.real_valued_column("r", dimension=None)
    with pytest.raises(ValueError, match="boundaries must be a sorted list"):
        layers.bucketized_column(layers.real_valued_column("r"), [1., 0.])
    with pytest.raises(ValueError, match="bucket_size must be at least 1"):
        layers.sparse_column_with_hash_bucket("h", 0)
    with pytest.raises(ValueError, match="dtype must be string or integer"):
        layers.sparse_column_with_hash_bucket("h", 3, dtype=tf.float32)
    with pytest.raises(ValueError, match="hash_bucket_size must be at least 2"):
        layers.crossed_column([layers.sparse_column_with_hash_bucket("a", 2),
                               layers.sparse_column_with_hash_bucket("b", 2)], 1)
    with pytest.raises(ValueError, match="The input sparse id columns are not compatible"):
        layers.shared_embedding_columns([layers.sparse_column_with_hash_bucket("a", 2),
                                         layers.sparse_column_with_hash_bucket("b", 3)], 2)
    with pytest.raises(ValueError, match="vocab_size should be defined"):
        layers.sparse_column_with_vocabulary_file("v", "vocab.txt")


def test_default_values_and_parse_spec():
    assert layers.real_valued_column("r", 3, default_value=1).default_value == (1., 1., 1.)
    spec = layers.create_feature_spec_for_parsing([
        layers.real_valued_column("r", 2, default_value=[0., 1.]),
        layers.weighted_sparse_column(layers.sparse_column_with_keys("s", ["a"]), "w"),
        layers.crossed_column([layers.sparse_column_with_hash_bucket("a", 3),
                               layers.sparse_column_with_integerized_feature("b", 3)], 4)])
    assert sorted(spec) == ["a", "b", "r", "s", "w"]
    assert spec["r"] == tf.FixedLenFeature([2], tf.float32, [0., 1.])
    assert spec["s"] == tf.VarLenFeature(tf.string)
    assert spec["w"] == tf.VarLenFeature(tf.float32)
    assert spec["b"] == tf.VarLenFeature(tf.int64)


def test_input_from_feature_columns_variable_names_and_order():
    # feature_column_ops.py: columns sorted by key, each in a variable scope named after
    # it; _embeddings_from_arguments names the table `weights` (core: embedding_weights),
    # the default initializer's stddev is 1/sqrt(vocabulary size).
    with tf.Graph().as_default():
        tf.set_random_seed(3)
        keys = layers.sparse_column_with_keys("s", ["a", "b", "c", "d"])
        r = layers.real_valued_column("r", dimension=2)
        columns = [layers.embedding_column(keys, 3), r, layers.bucketized_column(r, [0.])]
        features = {"s": tf.constant([["a"], ["d"]]), "r": tf.constant([[1., -1.], [2., 3.]])}
        outs = {}
        with tf.variable_scope("dnn"):
            net = layers.input_from_feature_columns(features, columns, cols_to_outs=outs)
        assert [v.name for v in tf.global_variables()] == \
            ["dnn/input_from_feature_columns/s_embedding/weights:0"]
        assert net.get_shape().as_list() == [2, 4 + 3 + 2]
        table, got = _run([tf.global_variables()[0], net])
    assert np.abs(table).max() <= 2 / np.sqrt(4)  # truncated at 2 stddev, 1/sqrt(4)
    np.testing.assert_allclose(got[:, :4], [[0, 1, 1, 0], [0, 1, 0, 1]])  # r_bucketized
    np.testing.assert_allclose(got[:, 4:7], table[[0, 3]])  # s_embedding (mean of one id)
    np.testing.assert_allclose(got[:, 7:], [[1., -1.], [2., 3.]])
    assert set(outs) == set(columns)


def test_weighted_sum_variable_names_and_values():
    # feature_column_ops.py: sparse columns get `weights` [length, num_outputs], dense ones
    # `weight` [width, num_outputs], plus `bias_weight` (core: bias_weights).
    with tf.Graph().as_default():
        keys = layers.sparse_column_with_keys("s", ["a", "b"])
        weighted = layers.weighted_sparse_column(keys, "w")
        r = layers.real_valued_column("r", dimension=2)
        features = {"s": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["a", "b", "a"], [2, 2]),
                    "w": tf.SparseTensor([[0, 0], [1, 0], [1, 1]], [2., 3., 4.], [2, 2]),
                    "r": tf.constant([[1., 2.], [3., 4.]])}
        logits, column_to_variable, bias = layers.weighted_sum_from_feature_columns(
            features, [weighted, r], num_outputs=1)
        assert sorted(v.name for v in tf.global_variables()) == [
            "weighted_sum_from_feature_columns/bias_weight:0",
            "weighted_sum_from_feature_columns/r/weight:0",
            "weighted_sum_from_feature_columns/s_weighted_by_w/weights:0"]
        assert set(column_to_variable) == {weighted, r}
        sparse_var = column_to_variable[weighted][0]
        dense_var = column_to_variable[r][0]
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.tables_initializer()])
            sess.run([sparse_var.assign([[1.], [10.]]), dense_var.assign([[1.], [-1.]]),
                      bias.assign([0.5])])
            got = sess.run(logits)
    # sum combiner: row 0 = 2*1; row 1 = 3*10 + 4*1; dense: 1-2, 3-4; bias 0.5.
    np.testing.assert_allclose(got, [[2 - 1 + .5], [34 - 1 + .5]])


def test_sparse_column_transforms():
    with tf.Graph().as_default():
        integerized = layers.sparse_column_with_integerized_feature("i", 4)
        hashed = layers.sparse_column_with_hash_bucket("h", 5, dtype=tf.int64)
        features = {"i": tf.constant([[5], [2]], tf.int64), "h": tf.constant([[7], [-1]],
                                                                              tf.int64)}
        out = layers.transform_features(features, [integerized, hashed])
        ids, hashed_ids = _run([out[integerized], out[hashed]])
    # _SparseColumnIntegerized: ids modulo bucket_size (core identity would reject 5).
    np.testing.assert_array_equal(ids.values, [1, 2])
    # dense integer input drops -1 (_get_input_sparse_tensor), hashes str(7).
    assert hashed_ids.indices.tolist() == [[0, 0]]
    with tf.Graph().as_default():
        expected = tf.string_to_hash_bucket_fast(["7"], 5)
        np.testing.assert_array_equal(hashed_ids.values, _run(expected))


def test_shared_embedding_one_table_and_default_name():
    # shared_embedding_columns: name = the sorted column names joined by "_", the table
    # model_variable(name=shared_embedding_name) kept in SHARED_EMBEDDING_COLLECTION_<NAME>.
    with tf.Graph().as_default():
        a = layers.sparse_column_with_hash_bucket("a", 6)
        b = layers.sparse_column_with_hash_bucket("b", 6)
        shared = layers.shared_embedding_columns([b, a], 2)
        assert shared[0].shared_embedding_name == "a_b"
        features = {"a": tf.constant([["x"]]), "b": tf.constant([["y"]])}
        layers.input_from_feature_columns(features, shared)
        assert [v.name for v in tf.global_variables()] == \
            ["input_from_feature_columns/a_shared_embedding/a_b:0"]
        assert len(tf.get_collection("SHARED_EMBEDDING_COLLECTION_A_B")) == 1


def test_contrib_columns_work_in_core_input_layer():
    with tf.Graph().as_default():
        r = layers.real_valued_column("r", dimension=2)
        net = tf.feature_column.input_layer({"r": tf.constant([[1., 2.]])},
                                            [layers.bucketized_column(r, [1.5]), r])
        # core's order: by name (r, r_bucketized).
        np.testing.assert_allclose(_run(net), [[1, 2, 1, 0, 0, 1]])


def test_sparse_feature_cross_hashes_are_tf115s():
    # The expected values are those of TF 1.15's own
    # contrib/layers/python/kernel_tests/sparse_feature_cross_op_test.py
    # (test_hashed_output*, test_hashed_output_v1_has_collision).
    def sparse(value):
        return tf.SparseTensor([[0, 0]], [value], [1, 1])
    with tf.Graph().as_default():
        inputs = [sparse("batch1-FC1-F1"), sparse("batch1-FC2-F1"), sparse("batch1-FC3-F1")]
        key = layers.SPARSE_FEATURE_CROSS_DEFAULT_HASH_KEY
        crosses = [layers.sparse_feature_cross(inputs, hashed_output=True),
                   layers.sparse_feature_cross(inputs, hashed_output=True, num_buckets=100),
                   layers.sparse_feature_cross(inputs, hashed_output=True, hash_key=key),
                   layers.sparse_feature_cross(inputs, hashed_output=True, num_buckets=100,
                                               hash_key=key)]
        assert crosses[0].values.op.type == "SparseFeatureCross"
        t1 = tf.constant([[359], [359 + 1024]], tf.int64)
        t2 = tf.constant([list(range(10))] * 2, tf.int64)
        collide = tf.sparse_tensor_to_dense(layers.sparse_feature_cross(
            [t2, t1], hashed_output=True, num_buckets=1024))
        got, dense = _run([[c.values for c in crosses], collide])
    assert [v.tolist() for v in got] == [[3735511728867393167], [74], [1971693436396284976],
                                         [83]]
    assert (dense[0] == dense[1]).all()  # v1's HashCombine collides on the low 10 bits


def test_crossed_column_default_hashing():
    with tf.Graph().as_default():
        a = layers.sparse_column_with_hash_bucket("a", 6)
        b = layers.sparse_column_with_keys("b", ["x", "y"])
        features = {"a": tf.constant([["p"], ["q"]]), "b": tf.constant([["y"], ["x"]])}
        cross = layers.crossed_column([b, a], 1000)
        ids = layers.transform_features(features, [cross])[cross]
        expected = layers.sparse_feature_cross([features["a"], features["b"]],
                                               hashed_output=True, num_buckets=1000)
        got, want = _run([ids.values, expected.values])
    np.testing.assert_array_equal(got, want)  # columns sorted by name: a, then b


def test_unsupported_corners_and_errors():
    with tf.Graph().as_default():
        a = layers.sparse_column_with_hash_bucket("a", 6)
        features = {"a": tf.constant([["x"]]), "b": tf.constant([["y"]])}
        with pytest.raises(ValueError, match="SparseColumn is not supported in DNN"):
            layers.input_from_feature_columns(features, [a])
        with pytest.raises(ValueError, match="Duplicate feature column key"):
            layers.input_from_feature_columns(features, [layers.one_hot_column(a)] * 2)
    with pytest.raises(ValueError, match="non-empty list"):
        layers.sparse_column_with_hash_bucket("a", 3, hash_keys=[])
    with pytest.raises(ValueError, match="pair of integers"):
        layers.sparse_column_with_hash_bucket("a", 3, hash_keys=[[1, 2, 3]])


def test_hash_keys_give_one_siphash_id_per_key():
    """TF 1.15's _SparseColumnHashed with hash_keys: StringToHashBucketStrong per key pair
    (SipHash-2-4, bit-exact with TF in op_rows_strings), concatenated along axis 1."""
    from tf1compat.ops._string_hash import siphash24
    keys = [[1, 2], [0x0123456789ABCDEF, 7]]
    with tf.Graph().as_default():
        column = layers.sparse_column_with_hash_bucket("a", 10, hash_keys=keys)
        assert column.hash_keys == keys
        features = {"a": tf.SparseTensor([[0, 0], [0, 1], [1, 0]], ["x", "yy", "x"], [2, 2])}
        ids = layers.transform_features(features, [column])[column]
        indices, values, shape = _run([ids.indices, ids.values, ids.dense_shape])
    np.testing.assert_array_equal(shape, [2, 4])
    np.testing.assert_array_equal(indices, [[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 2]])
    want = {(0, 0): "x", (0, 1): "yy", (1, 0): "x"}
    for (row, col), value in zip(indices.tolist(), values.tolist()):
        key = keys[col // 2]
        assert value == siphash24((key[0], key[1]), want[(row, col % 2)].encode()) % 10


def test_infer_real_valued_columns():
    with tf.Graph().as_default():
        columns = layers.infer_real_valued_columns(
            {"x": tf.zeros([3, 2, 2]), "n": tf.zeros([3], tf.int64)})
        assert {(c.name, c.dimension, c.dtype) for c in columns} == \
            {("x", 4, tf.float32), ("n", 1, tf.int64)}
        with pytest.raises(ValueError, match="not supported for auto detection"):
            layers.infer_real_valued_columns({"s": tf.constant(["a"])})


def test_parse_feature_columns_from_examples():
    example = tf.train.Example(features=tf.train.Features(feature={
        "r": tf.train.Feature(float_list=tf.train.FloatList(value=[1., 2.])),
        "s": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"b"]))}))
    with tf.Graph().as_default():
        r = layers.real_valued_column("r", dimension=2)
        s = layers.sparse_column_with_keys("s", ["a", "b"])
        out = layers.parse_feature_columns_from_examples(
            [example.SerializeToString()], [r, s])
        got = _run(out)
    np.testing.assert_allclose(got[r], [[1., 2.]])
    np.testing.assert_array_equal(got[s].values, [1])
