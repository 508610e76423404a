"""FileWriter writes TensorBoard event files: TFRecord framing, CRCs, events in order."""

from __future__ import annotations

import glob
import os
import struct

import numpy as np

import tf1compat as tf
from tf1compat.serialization import crc32c


def read_events(path: str) -> list:
    events = []
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos < len(data):
        header = data[pos:pos + 8]
        (length,) = struct.unpack("<Q", header)
        (len_crc,) = struct.unpack("<I", data[pos + 8:pos + 12])
        assert crc32c.mask(crc32c.value(header)) == len_crc
        body = data[pos + 12:pos + 12 + length]
        (body_crc,) = struct.unpack("<I", data[pos + 12 + length:pos + 16 + length])
        assert crc32c.mask(crc32c.value(body)) == body_crc
        events.append(tf.Event.FromString(body))
        pos += 16 + length
    return events


def test_file_writer_round_trip(tmp_path):
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None])
    tf.summary.scalar("avg", tf.reduce_mean(x))  # ("mean" would be "mean_1": Mean exists)
    tf.summary.histogram("values", x)
    merged = tf.summary.merge_all()
    logdir = str(tmp_path / "logs")
    with tf.Session() as sess:
        writer = tf.summary.FileWriter(logdir, sess.graph)
        for step in range(3):
            writer.add_summary(sess.run(merged, {x: np.arange(step + 1.0)}), step)
        writer.add_summary(tf.Summary(value=[tf.Summary.Value(tag="manual",
                                                              simple_value=7.0)]), 10)
        writer.close()
    files = glob.glob(os.path.join(logdir, "events.out.tfevents.*"))
    assert len(files) == 1
    events = read_events(files[0])
    assert events[0].file_version == "brain.Event:2"
    summaries = [e for e in events if e.HasField("summary")]
    assert [e.step for e in summaries] == [0, 1, 2, 10]
    means = [v.simple_value for e in summaries for v in e.summary.value if v.tag == "avg"]
    assert means == [0.0, 0.5, 1.0]
    histos = [v.histo for e in summaries for v in e.summary.value if v.tag == "values"]
    assert [h.num for h in histos] == [1.0, 2.0, 3.0] and histos[2].max == 2.0
    assert summaries[-1].summary.value[0].tag == "manual"


def test_merge_duplicate_tags_fail():
    tf.reset_default_graph()
    a = tf.summary.scalar("t", tf.constant(1.0))
    with tf.Session() as sess:
        try:
            sess.run(tf.summary.merge([a, a]))
        except tf.errors.InvalidArgumentError as e:
            assert "Duplicate tag t" in e.message
        else:
            raise AssertionError("expected InvalidArgumentError")


def test_graph_event_is_a_graph_def(tmp_path):
    tf.reset_default_graph()
    x = tf.placeholder(tf.float32, [None], name="x")
    y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * 2.0, lambda: x)  # a construct op
    tf.identity(y, name="out")
    with tf.Session() as sess:
        writer = tf.summary.FileWriter(str(tmp_path), sess.graph)
        writer.close()
    events = read_events(glob.glob(str(tmp_path / "events.*"))[0])
    graph_events = [e for e in events if e.graph_def]
    assert len(graph_events) == 1
    from tf1compat.serialization.messages import GraphDef
    names = [n.name for n in GraphDef.FromString(graph_events[0].graph_def).node]
    assert "x" in names and "out" in names


def test_bench_summaries_smoke():
    """The summaries benchmark runs (TF is not needed; timings are not checked here)."""
    import importlib.util
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    spec = importlib.util.spec_from_file_location(
        "bench_summaries", os.path.join(root, "scripts", "bench_summaries.py"))
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.bench_summaries(steps=2, rounds=1, tf_python="/nonexistent/python")
    assert result["tf1compat_ms_per_step"] > 0 and "ratio" not in result


def test_histogram_matches_tf_bucketing_and_summation_order():
    """Bucket i counts limit[i-1] <= v < limit[i] (a value on a limit goes up), empty runs
    collapse into one entry, and the sums are TF's: added one by one in double."""
    from tf1compat.summary import encoding
    limits = encoding._LIMITS
    rng = np.random.RandomState(7)
    values = np.concatenate([(rng.randn(5000) * 10.0 ** rng.uniform(-8, 8, 5000)),
                             limits[[700, 774, 800]], [0.0, 0.0]]).astype(np.float32)
    proto = encoding.histogram(values)
    total = squares = 0.0
    for v in values.astype(np.float64).tolist():
        total += v
        squares += v * v
    assert proto["sum"] == total and proto["sum_squares"] == squares
    index = np.searchsorted(limits, values.astype(np.float64), side="right")
    counts = np.bincount(index, minlength=len(limits))
    assert sum(proto["bucket"]) == values.size
    kept = iter(zip(proto["bucket_limit"], proto["bucket"]))
    for i, count in enumerate(counts):
        if count:
            assert next(kept) == (limits[i], count)
        elif i + 1 == len(counts) or counts[i + 1]:     # the end of a run of empty buckets
            assert next(kept) == (limits[i], 0.0)
    assert next(kept, None) is None
