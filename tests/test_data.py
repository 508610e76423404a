"""Unit tests for tf.data, TFRecords and Example protos beyond what the goldens express."""

from __future__ import annotations

import copy
import gzip
import importlib.util
import os
import pickle
import zlib

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.data import _runtime as rt
from tf1compat.data._shuffle import PhiloxWords, ShuffleValue
from tf1compat.data import dataset_ops, structure

FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures", "tf_records")


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield


def _drain(sess, fetch, limit=1000):
    out = []
    for _ in range(limit):
        try:
            out.append(sess.run(fetch))
        except tf.errors.OutOfRangeError:
            return out
    raise AssertionError("dataset did not end")


# -- function graphs ---------------------------------------------------------------------------

def test_map_function_ops_stay_out_of_the_outer_graph():
    before = len(tf.get_default_graph().get_operations())
    ds = tf.data.Dataset.range(3).map(lambda x: x * 2 + tf.constant(1, tf.int64))
    names = [op.name for op in tf.get_default_graph().get_operations()[before:]]
    assert names == ["start", "stop", "step", "RangeDataset", "MapDataset"]
    assert tf.constant(0).name == "Const:0"      # the function's Const is not in this graph
    fn = ds._variant_tensor.op.get_attr("f")
    assert fn.graph.outer_graph is tf.get_default_graph()
    assert all(op.device == "/device:CPU:0" for op in fn.graph.get_operations())


def test_captures_become_dataset_op_inputs():
    scale = tf.placeholder(tf.float32, [], name="scale")
    ds = tf.data.Dataset.from_tensors(2.0).map(lambda x: x * scale + scale)
    op = ds._variant_tensor.op
    assert [t.name for t in op.inputs[1:]] == ["scale:0"]      # captured once
    it = tf.data.make_initializable_iterator(ds)
    nx = it.get_next()
    with tf.Session() as sess:
        sess.run(it.initializer, {scale: 3.0})
        assert sess.run(nx) == pytest.approx(9.0)
        sess.run(it.initializer, {scale: 0.5})
        assert sess.run(nx) == pytest.approx(1.5)


def test_nested_function_captures_outer_outer_tensor():
    offset = tf.constant(100, tf.int64, name="offset")
    ds = tf.data.Dataset.range(2).flat_map(
        lambda i: tf.data.Dataset.range(2).map(lambda j: i * 10 + j + offset))
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        assert _drain(sess, nx) == [100, 101, 110, 111]


def test_map_compiles_once_per_session():
    calls = []

    def f(x):
        calls.append(1)
        return x + 1
    ds = tf.data.Dataset.range(50).map(f)
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        assert _drain(sess, nx) == list(range(1, 51))
        functions = sess._runtime._functions
        assert len(functions) == 2               # the dataset factory and the map function
    assert len(calls) == 1                       # traced once, at graph build


def test_iteration_in_graph_mode_is_an_error():
    with pytest.raises(RuntimeError, match="only supports Python-style iteration"):
        iter(tf.data.Dataset.range(2))


def test_graph_dataset_iterates_only_eagerly():
    ds = tf.data.Dataset.range(2)
    with pytest.raises(RuntimeError, match="only supports Python-style iteration in eager"):
        iter(ds)


# -- iterators ---------------------------------------------------------------------------------

def test_iterator_resources_are_per_session_and_closed():
    nx = tf.data.Dataset.range(3).make_one_shot_iterator().get_next()
    s1 = tf.Session()
    assert s1.run(nx) == 0
    s2 = tf.Session()
    assert [s2.run(nx), s2.run(nx), s1.run(nx)] == [0, 1, 1]
    s1.close()
    s2.close()
    with pytest.raises(RuntimeError, match="closed Session"):
        s1.run(nx)


def test_string_handle_of_another_session_is_not_found():
    it = tf.data.make_one_shot_iterator(tf.data.Dataset.range(3))
    handle = tf.placeholder(tf.string, [])
    feed_it = tf.data.Iterator.from_string_handle(handle, tf.int64, [])
    nx = feed_it.get_next()
    with tf.Session() as s1:
        h = s1.run(it.string_handle())
        assert s1.run(nx, {handle: h}) == 0
    with tf.Session() as s2:
        with pytest.raises(tf.errors.NotFoundError):
            s2.run(nx, {handle: h})


def test_shared_name_iterators_share_state():
    a = tf.data.Iterator.from_structure(tf.int64, [], shared_name="it")
    b = tf.data.Iterator.from_structure(tf.int64, [], shared_name="it")
    init = a.make_initializer(tf.data.Dataset.range(5))
    with tf.Session() as sess:
        sess.run(init)
        assert [sess.run(a.get_next()), sess.run(b.get_next())] == [0, 1]


def test_iterator_from_another_graph():
    ds = tf.data.Dataset.range(2)
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="different from the graph"):
            tf.data.make_one_shot_iterator(ds)


def test_fetched_elements_do_not_alias_the_source():
    data = np.arange(6, dtype=np.float32).reshape(3, 2)
    nx = tf.data.make_one_shot_iterator(tf.data.Dataset.from_tensor_slices(data)).get_next()
    with tf.Session() as sess:
        first = sess.run(nx)
        first[:] = -1
        sess2 = tf.Session()
        np.testing.assert_array_equal(sess2.run(nx), [0, 1])
        sess2.close()


def test_saver_with_a_pipeline_in_the_graph(tmp_path):
    x, y = tf.data.make_one_shot_iterator(tf.data.Dataset.from_tensor_slices(
        (np.ones((4, 2), np.float32), np.zeros(4, np.float32))).map(
            lambda a, b: (a * 2, b)).batch(2)).get_next()
    w = tf.Variable(tf.ones([2, 1]), name="w")
    loss = tf.reduce_sum(tf.matmul(x, w)) + tf.reduce_sum(y)
    saver = tf.train.Saver()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        assert sess.run(loss) == pytest.approx(8.0)
        path = saver.save(sess, str(tmp_path / "model"))
        sess.run(tf.assign(w, tf.zeros([2, 1])))
        saver.restore(sess, path)
        assert sess.run(loss) == pytest.approx(8.0)       # the second batch
        with pytest.raises(tf.errors.OutOfRangeError):
            sess.run(loss)


def test_sessions_keep_variable_reads_of_dataset_functions_current():
    v = tf.Variable(1.0)
    ds = tf.data.Dataset.from_tensors(0.0).repeat(3).map(lambda x: x + v)
    it = ds.make_initializable_iterator()
    nx = it.get_next()
    with tf.Session() as sess:
        sess.run(v.initializer)
        sess.run(it.initializer)
        assert sess.run(nx) == 1.0


# -- run-time details --------------------------------------------------------------------------

def test_shuffle_seed_zero_pair_is_random_and_reshuffles():
    value = ShuffleValue(rt.RangeValue(0, 50, 1), 50, 0, 0, reshuffle=True)
    a = [int(e[0]) for e in value]
    b = [int(e[0]) for e in value]
    assert sorted(a) == list(range(50)) and a != b


def test_philox_words_match_the_block_function():
    from tf1compat.ops import _philox
    words = PhiloxWords(5, 7)
    got = [words() for _ in range(1030)]
    expected = _philox.blocks(5, 7 << 64, 258).reshape(-1)[:1030].tolist()
    assert got == expected


def test_window_and_unbatch_runtime():
    value = rt.WindowValue(rt.RangeValue(0, 7, 1), 3, 2, 1, False)
    windows = [[int(e[0]) for e in w[0]] for w in value]
    assert windows == [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6]]


def test_file_cache_roundtrip_with_strings(tmp_path):
    path = str(tmp_path / "c")
    ds = tf.data.Dataset.from_tensor_slices((np.array([b"a", b"bb"]), np.arange(2))).cache(path)
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        first = _drain(sess, nx)
    assert os.path.exists(path + ".index")
    tf.reset_default_graph()
    ds = tf.data.Dataset.from_tensor_slices((np.array([b"zz"]), np.arange(1))).cache(path)
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        second = _drain(sess, nx)
    assert [(a, int(b)) for a, b in first] == [(a, int(b)) for a, b in second] == \
        [(b"a", 0), (b"bb", 1)]


def test_from_generator_calls_the_generator_per_pass():
    starts = []

    def gen(n):
        starts.append(int(n))
        yield from range(int(n))
    ds = tf.data.Dataset.from_generator(gen, tf.int64, tf.TensorShape([]), args=(3,)).repeat(2)
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        assert _drain(sess, nx) == [0, 1, 2, 0, 1, 2]
    assert starts == [3, 3]


def test_interleave_default_cycle_length_is_the_cpu_count():
    value = rt.InterleaveValue(rt.RangeValue(0, 3, 1),
                               lambda e, caps: (rt.RangeValue(0, 2, 1),), (), -1, 1)
    assert value.cycle_length == (os.cpu_count() or 1)


# -- TFRecords ---------------------------------------------------------------------------------

def test_zlib_and_gzip_files_are_standard_streams(tmp_path):
    records = [b"a", b"bc" * 100, b""]
    plain = tmp_path / "plain"
    with tf.python_io.TFRecordWriter(str(plain)) as w:
        for r in records:
            w.write(r)
    for kind, decompress in (("ZLIB", zlib.decompress), ("GZIP", gzip.decompress)):
        path = tmp_path / kind
        with tf.io.TFRecordWriter(str(path), tf.io.TFRecordOptions(kind)) as w:
            for r in records:
                w.write(r)
        assert decompress(path.read_bytes()) == plain.read_bytes()
        assert list(tf.python_io.tf_record_iterator(str(path), kind)) == records


def test_record_reader_errors(tmp_path):
    good = (tmp_path / "good")
    with tf.python_io.TFRecordWriter(str(good)) as w:
        w.write(b"payload")
    data = good.read_bytes()
    bad_header = tmp_path / "bad_header"
    bad_header.write_bytes(data[:8] + bytes([data[8] ^ 1]) + data[9:])
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 0"):
        list(tf.python_io.tf_record_iterator(str(bad_header)))
    truncated = tmp_path / "truncated"
    truncated.write_bytes(data[:-3])
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
        list(tf.python_io.tf_record_iterator(str(truncated)))
    with pytest.raises(tf.errors.NotFoundError):
        list(tf.python_io.tf_record_iterator(str(tmp_path / "missing")))


def test_ignore_errors_skips_the_rest_of_a_corrupted_file():
    files = [os.path.join(FIXTURES, "corrupted.tfrecord"), os.path.join(FIXTURES,
                                                                        "examples.tfrecord")]
    ds = tf.data.TFRecordDataset(files).apply(tf.data.experimental.ignore_errors())
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        assert len(_drain(sess, nx)) == 1 + 10


# -- Example protos ----------------------------------------------------------------------------

def test_example_proto_behaviour():
    ex = tf.train.Example(features=tf.train.Features(feature={
        "b": tf.train.Feature(bytes_list=tf.train.BytesList(value=[b"x"])),
        "a": tf.train.Feature(int64_list={"value": [1, 2]})}))
    assert sorted(ex.features.feature) == ["a", "b"]         # protobuf map (hash order)
    assert ex.features.feature["a"].int64_list.value == [1, 2]
    clone = copy.deepcopy(ex)
    assert clone == ex and pickle.loads(pickle.dumps(ex)) == ex
    clone.features.feature["a"].int64_list.value.append(3)
    assert clone != ex
    merged = tf.train.Example()
    merged.MergeFrom(ex)
    merged.MergeFrom(clone)
    assert merged.features.feature["a"].int64_list.value == [1, 2, 3]  # map entries replace
    f = tf.train.Feature(int64_list=tf.train.Int64List(value=[1]))
    f.float_list.value.append(2.0)                           # oneof switches
    assert f.WhichOneof("kind") == "float_list" and not f.HasField("int64_list")
    with pytest.raises(ValueError):
        ex.features.feature["c"] = tf.train.Feature()
    with pytest.raises(AttributeError):
        ex.features = tf.train.Features()
    from google.protobuf.message import DecodeError
    with pytest.raises(DecodeError):
        tf.train.Example.FromString(b"\xff\xff")
    # reading an unset sub-message does not make it present
    empty = tf.train.Example()
    _ = empty.features.feature
    assert not empty.HasField("features") and empty.SerializeToString() == b""


def test_example_proto_decodes_tf_written_records():
    from tf1compat.serialization import example_decode
    records = list(tf.python_io.tf_record_iterator(os.path.join(FIXTURES,
                                                                "examples.tfrecord")))
    for record in records:
        msg = tf.train.Example.FromString(record)
        fast = example_decode.decode_features(record)
        assert sorted(fast) == sorted(msg.features.feature)
        for key, (kind, values) in fast.items():
            field = msg.features.feature[key].WhichOneof("kind")
            assert kind == {None: 0, "bytes_list": 1, "float_list": 2, "int64_list": 3}[field]
            if field is not None:
                expected = list(getattr(msg.features.feature[key], field).value)
                assert list(values) == expected
        # same content, possibly another map order: re-serializing is a fixed point
        again = tf.train.Example.FromString(msg.SerializeToString())
        assert again == msg


# -- structure ---------------------------------------------------------------------------------

def test_tf_data_nest_treats_lists_as_tensors():
    assert structure.flatten(([1, 2], {"b": 1, "a": (2, 3)})) == [[1, 2], 2, 3, 1]
    spec = tf.TensorSpec([None, 2], tf.float32, name="x")
    assert repr(spec) == "TensorSpec(shape=(?, 2), dtype=tf.float32, name='x')"
    assert spec.is_compatible_with(tf.TensorSpec([3, 2]))
    assert repr(tf.SparseTensorSpec([4], tf.int32)) == \
        "SparseTensorSpec(TensorShape([Dimension(4)]), tf.int32)"


def test_shim_paths():
    tf.install()
    try:
        from tensorflow.core.example import example_pb2
        from tensorflow.python.lib.io import tf_record
        assert example_pb2.Example is tf.train.Example
        assert tf_record.TFRecordWriter is tf.python_io.TFRecordWriter
    finally:
        tf.uninstall()


# -- benchmark smoke ---------------------------------------------------------------------------

def test_bench_data_smoke():
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "scripts", "bench_data.py")
    spec = importlib.util.spec_from_file_location("bench_data", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.bench_data(n=300, batch=128, repeats=1)
    assert result["tf1compat_elements_per_s"] > 0 and result["torch_loop_elements_per_s"] > 0


def test_contrib_data_transformations():
    ds = tf.data.Dataset.range(7).apply(tf.contrib.data.batch_and_drop_remainder(3))
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    assert nx.shape.as_list() == [3]
    with tf.Session() as sess:
        assert [v.tolist() for v in _drain(sess, nx)] == [[0, 1, 2], [3, 4, 5]]
    assert tf.contrib.data.map_and_batch is tf.data.experimental.map_and_batch
    # TF 1.15's contrib.data re-exported these from tf.data.experimental (nmt uses
    # tf.contrib.data.group_by_window).
    for name in ("group_by_window", "bucket_by_sequence_length", "scan", "unique",
                 "sample_from_datasets", "get_single_element", "Counter", "CsvDataset"):
        assert getattr(tf.contrib.data, name) is getattr(tf.data.experimental, name)
