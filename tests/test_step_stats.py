"""Traced runs (RunOptions.trace_level): RunMetadata.step_stats, timeline.Timeline, the
profiler's times, FileWriter.add_run_metadata and tf.train.ProfilerHook. Structure
against TF: tests/golden/cases_step_stats.py; ProfilerHook's files (timeline-2/4/6.json
for save_steps=2 over 7 steps) as TF 2.21 writes them."""

from __future__ import annotations

import json
import os

import numpy as np

import tf1compat as tf
from tf1compat.serialization.messages import Event
from tf1compat.data.tf_record import tf_record_iterator


def _graph():
    x = tf.placeholder(tf.float32, [None, 3], name="x")
    w = tf.Variable(tf.ones([3, 2]), name="w")
    y = tf.nn.relu(tf.matmul(x, w, name="mm"), name="y")
    return x, tf.reduce_sum(y, name="s")


def _traced(sess, fetch, feed, level=tf.RunOptions.FULL_TRACE):
    md = tf.RunMetadata()
    value = sess.run(fetch, feed, options=tf.RunOptions(trace_level=level), run_metadata=md)
    return value, md


def test_traced_run_records_each_kernel_and_gives_the_same_values():
    with tf.Graph().as_default():
        x, s = _graph()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            feed = {x: np.arange(6, dtype=np.float32).reshape(2, 3)}
            plain = sess.run(s, feed)
            value, md = _traced(sess, s, feed)
            _, none = _traced(sess, s, feed, tf.RunOptions.NO_TRACE)
    assert value == plain == 30.0
    assert not none.HasField("step_stats")
    (dev,) = md.step_stats.dev_stats
    assert dev.device == "/job:localhost/replica:0/task:0/device:CPU:0"
    by_name = {n.node_name: n for n in dev.node_stats}
    assert list(by_name) == ["mm", "y", "s"]
    assert by_name["mm"].timeline_label == "mm = MatMul(x, w/read)"
    assert by_name["s"].timeline_label == "s = Sum(y, Const)"
    starts = [n.all_start_nanos for n in dev.node_stats]
    assert starts == sorted(starts) and starts[0] > 1_500_000_000 * 10 ** 9
    for n in dev.node_stats:
        assert 0 <= n.op_end_rel_nanos <= n.all_end_rel_nanos
        assert n.all_start_micros == n.all_start_nanos // 1000
    out = by_name["mm"].output[0].tensor_description
    assert [d.size for d in out.shape.dim] == [2, 2]
    assert out.allocation_description.requested_bytes == 16


def test_control_inputs_and_later_outputs_in_labels():
    with tf.Graph().as_default():
        a = tf.placeholder(tf.float32, [4], name="a")
        parts = tf.split(a, 2, name="sp")
        with tf.control_dependencies([tf.negative(a, name="c")]):
            b = tf.identity(parts[1], name="b")
        with tf.Session() as sess:
            _, md = _traced(sess, b, {a: np.arange(4.0)})
    labels = {n.node_name: n.timeline_label for n in md.step_stats.dev_stats[0].node_stats}
    assert labels["b"] == "b = Identity(sp:1, ^c)"
    assert labels["sp"] == "sp = Split(sp/split_dim, a)"


def test_timeline_dataflow_and_memory_events():
    from tf1compat.training.profiler.timeline import Timeline
    with tf.Graph().as_default():
        x, s = _graph()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            _, md = _traced(sess, s, {x: np.ones([4, 3], np.float32)})
    trace = json.loads(Timeline(md.step_stats).generate_chrome_trace_format(
        show_memory=True))["traceEvents"]
    ops = [e for e in trace if e["ph"] == "X"]
    assert [e["args"]["name"] for e in ops] == ["mm", "y", "s"]
    assert ops[1]["args"] == {"name": "y", "op": "Relu", "input0": "mm"}
    assert {e["ph"] for e in trace} >= {"M", "X", "N", "O", "D", "C"}
    analysis = Timeline(md.step_stats).analyze_step_stats(show_memory=True)
    assert analysis.allocator_maximums["cpu"].num_bytes >= 32


def test_profiler_reports_traced_times():
    with tf.Graph().as_default() as g:
        x = tf.placeholder(tf.float32, [300, 300], name="x")
        s = tf.reduce_sum(tf.matmul(x, x, name="mm"), name="s")
        with tf.Session() as sess:
            _, md = _traced(sess, s, {x: np.ones([300, 300], np.float32)})
        opts = tf.profiler.ProfileOptionBuilder.time_and_memory(min_bytes=0)  # no memory yet
        opts["output"] = "none"
        report = tf.profiler.profile(g, run_meta=md, cmd="op", options=opts)
    assert report.total_exec_micros > 0 and report.total_cpu_exec_micros > 0, (md, report)
    # TF's op view is a chain ordered by time (each group the child of the slower one):
    # which of MatMul and Sum comes first depends on the machine's load.
    chain, node = [], report
    while node.children:
        (node,) = node.children
        chain.append(node.name)
    assert sorted(chain) == ["MatMul", "Sum"], (md, report)


def _run_metadata_events(logdir):
    events = []
    for name in os.listdir(logdir):
        if "tfevents" in name:
            for record in tf_record_iterator(os.path.join(logdir, name)):
                event = Event.FromString(record)
                if event.HasField("tagged_run_metadata"):
                    events.append(event)
    return events


def test_profiler_hook_writes_timelines_as_tf(tmp_path):
    with tf.Graph().as_default():
        gs = tf.train.get_or_create_global_step()
        v = tf.Variable(3.0)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(tf.square(v, name="sq"),
                                                                global_step=gs)
        hook = tf.train.ProfilerHook(save_steps=2, output_dir=str(tmp_path))
        with tf.train.MonitoredTrainingSession(hooks=[hook],
                                               save_summaries_steps=None) as sess:
            for _ in range(7):
                sess.run(train)
    files = sorted(f for f in os.listdir(tmp_path) if f.startswith("timeline"))
    assert files == ["timeline-2.json", "timeline-4.json", "timeline-6.json"]
    trace = json.loads((tmp_path / "timeline-2.json").read_text())["traceEvents"]
    names = {e["args"]["name"] for e in trace if e["ph"] == "X"}
    assert {"sq", "global_step/add",
            "GradientDescent/update_Variable/ApplyGradientDescent"} <= names
    tf.summary.FileWriterCache.get(str(tmp_path)).flush()
    events = _run_metadata_events(str(tmp_path))
    assert [e.tagged_run_metadata.tag for e in events] == ["step_2", "step_4", "step_6"]
    md = tf.RunMetadata.FromString(events[0].tagged_run_metadata.run_metadata)
    assert md.step_stats.dev_stats[0].node_stats


def test_make_callable_with_options_traces():
    with tf.Graph().as_default():
        x, s = _graph()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            fn = sess.make_callable(s, [x], accept_options=True)
            md = tf.RunMetadata()
            value = fn(np.ones([1, 3], np.float32), run_metadata=md,
                       options=tf.RunOptions(trace_level=tf.RunOptions.SOFTWARE_TRACE))
    assert value == 6.0
    assert [n.node_name for n in md.step_stats.dev_stats[0].node_stats] == ["mm", "y", "s"]
