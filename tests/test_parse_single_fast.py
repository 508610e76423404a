"""parse_single_example's fast path (ops/parsing_ops._single_example_fast_path and
serialization/example_decode.FixedFeatureDecoder) against the general path: every
record it declines (absent feature, another kind, another size, malformed bytes) must
give what the general path gives, and the records it takes the same values."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.serialization.example_decode import (KIND_BYTES, KIND_FLOAT, KIND_INT64,
                                                    FixedFeatureDecoder)


def _example(**features):
    feature = {}
    for key, value in features.items():
        if isinstance(value, list) and value and isinstance(value[0], bytes):
            feature[key] = tf.train.Feature(bytes_list=tf.train.BytesList(value=value))
        elif isinstance(value, list) and value and isinstance(value[0], float):
            feature[key] = tf.train.Feature(float_list=tf.train.FloatList(value=value))
        else:
            feature[key] = tf.train.Feature(int64_list=tf.train.Int64List(value=value))
    return tf.train.Example(features=tf.train.Features(feature=feature)).SerializeToString()


SPEC = {"x": tf.FixedLenFeature([2, 3], tf.float32),
        "n": tf.FixedLenFeature([], tf.int64),
        "v": tf.FixedLenFeature([2], tf.int64),
        "s": tf.FixedLenFeature([], tf.string),
        "t": tf.FixedLenFeature([1, 2], tf.string)}
GOOD = dict(x=[float(i) + 0.5 for i in range(6)], n=[-7], v=[1 << 40, 3], s=[b"abc"],
            t=[b"p", b"q"])


def _run(serialized, spec=SPEC, fast=True):
    graph = tf.Graph()
    with graph.as_default():
        placeholder = tf.placeholder(tf.string, [])
        out = tf.parse_single_example(placeholder, spec)
        with tf.Session() as sess:
            if not fast:
                # Batched records always take the general path.
                batched = tf.parse_example(tf.expand_dims(placeholder, 0), spec)
                values = sess.run(batched, {placeholder: serialized})
                return {k: v[0] for k, v in values.items()}
            return sess.run(out, {placeholder: serialized})


def test_fast_path_values_equal_general_path():
    fast, general = _run(_example(**GOOD)), _run(_example(**GOOD), fast=False)
    for key in SPEC:
        np.testing.assert_array_equal(fast[key], general[key])
        if SPEC[key].dtype != tf.string:
            assert np.asarray(fast[key]).dtype == np.asarray(general[key]).dtype
    assert fast["x"].shape == (2, 3) and fast["x"].dtype == np.float32
    assert fast["n"] == -7 and fast["v"].tolist() == [1 << 40, 3]
    assert fast["s"] == b"abc" and fast["t"].tolist() == [[b"p", b"q"]]


@pytest.mark.parametrize("change", [
    dict(x=[1.0] * 5),                 # another size
    dict(x=[1, 2, 3, 4, 5, 6]),        # another kind
    dict(n=[1, 2]), dict(n=[]),
    dict(s=[b"a", b"b"]), dict(s=[1]),
    dict(v=[1.0, 2.0]),
])
def test_declined_records_fail_as_the_general_path(change):
    record = _example(**dict(GOOD, **change))
    with pytest.raises(tf.errors.InvalidArgumentError) as fast:
        _run(record)
    assert "Key:" in str(fast.value) or "is required" in str(fast.value)


def test_absent_feature_takes_the_default():
    spec = dict(SPEC, n=tf.FixedLenFeature([], tf.int64, default_value=42))
    values = dict(GOOD)
    del values["n"]
    assert _run(_example(**values), spec)["n"] == 42
    with pytest.raises(tf.errors.InvalidArgumentError, match="is required but could not"):
        _run(_example(**values))


def test_malformed_record():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Could not parse example"):
        _run(b"\x0a\x05garbage")


def test_decoder_declines_what_it_does_not_take():
    decoder = FixedFeatureDecoder([("x", KIND_FLOAT, (2,)), ("n", KIND_INT64, ()),
                                   ("s", KIND_BYTES, ())])
    out = decoder.decode(_example(x=[1.0, 2.0], n=[3], s=[b"z"]))
    assert out[0].tolist() == [1.0, 2.0] and out[0].flags.writeable
    assert int(out[1]) == 3 and out[1].dtype == np.int64 and out[2] == b"z"
    assert decoder.decode(_example(x=[1.0, 2.0, 3.0], n=[3], s=[b"z"])) is None
    assert decoder.decode(_example(x=[1.0, 2.0], s=[b"z"])) is None
    assert decoder.decode(_example(x=[1, 2], n=[3], s=[b"z"])) is None
    # 32 floats: the packed length needs a two-byte varint
    wide = FixedFeatureDecoder([("x", KIND_FLOAT, (32,))])
    values = [float(i) for i in range(32)]
    assert wide.decode(_example(x=values))[0].tolist() == values
    assert wide.decode(_example(x=values[:31])) is None


def test_values_only_a_queue_reads_stay_numpy_and_dequeue_as_tensors():
    graph = tf.Graph()
    with graph.as_default():
        placeholder = tf.placeholder(tf.string, [])
        parsed = tf.parse_single_example(placeholder, SPEC)
        keys = sorted(SPEC)
        queue = tf.FIFOQueue(10, [SPEC[k].dtype for k in keys],
                             shapes=[SPEC[k].shape for k in keys])
        enqueue = queue.enqueue([parsed[k] for k in keys])
        one = queue.dequeue()
        two = queue.dequeue_many(2)
        doubled = one[keys.index("n")] * 2     # a dequeued value feeds other ops
        with tf.Session() as sess:
            record = _example(**GOOD)
            fetched = sess.run([enqueue, parsed], {placeholder: record})[1]
            assert fetched["x"].dtype == np.float32 and fetched["n"] == -7
            for _ in range(2):
                sess.run(enqueue, {placeholder: record})
            first, twice = sess.run([one, doubled])
            batch = sess.run(two)
    assert twice == -14
    for i, key in enumerate(keys):
        np.testing.assert_array_equal(first[i], GOOD_VALUES[key])
        np.testing.assert_array_equal(batch[i], np.stack([GOOD_VALUES[key]] * 2))
        if SPEC[key].dtype != tf.string:
            assert batch[i].dtype == SPEC[key].dtype.as_numpy_dtype


GOOD_VALUES = {"x": np.arange(6, dtype=np.float32).reshape(2, 3) + 0.5, "n": -7,
               "v": np.array([1 << 40, 3]), "s": b"abc", "t": np.array([[b"p", b"q"]])}
