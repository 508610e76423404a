"""tf.contrib.summary's Python layer (the ops have goldens in
tests/golden/cases_contrib_summary.py): recording conditions, tags and name scopes,
default steps, collections, initialization, no-op without a writer, eager writing."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

import tf1compat as tf

cs = tf.contrib.summary


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _read(logdir):
    out = []
    for f in sorted(glob.glob(os.path.join(logdir, "*"))):
        assert f.endswith(".v2")
        for e in tf.train.summary_iterator(f):
            out += [(int(e.step), v.tag, v.WhichOneof("value"), v.simple_value)
                    for v in e.summary.value]
            if e.graph_def:
                out.append((int(e.step), "graph", None, 0.0))
    return sorted(out)


def test_graph_mode_every_n_steps_scopes_and_initialize(tmp_path):
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    writer = cs.create_file_writer(str(tmp_path))
    with writer.as_default(), cs.record_summaries_every_n_global_steps(2):
        with tf.name_scope("outer"):
            loss = cs.scalar("loss", tf.cast(gs, tf.float32) * 1.5)
        hist = cs.histogram("h", tf.constant([1.0, 2.0]), family="fam")
        img = cs.image("img", tf.zeros([2, 3, 4, 1]), max_images=1, step=7)
        gen = cs.generic("g", tf.constant([1, 2]))
    assert cs.all_summary_ops() == [loss, hist, img, gen]
    assert len(cs.summary_writer_initializer_op()) == 1
    with pytest.raises(RuntimeError, match="No default"):
        cs.initialize()
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        with writer.as_default():
            cs.initialize(graph=tf.get_default_graph(), session=sess)
        wrote = []
        for _ in range(3):
            wrote.append(sess.run(cs.all_summary_ops()))
            sess.run(inc)
        sess.run(writer.flush())
    assert [list(map(bool, w)) for w in wrote] == [[True] * 4, [False] * 4, [True] * 4]
    events = _read(str(tmp_path))
    assert (0, "graph", None, 0.0) in events
    assert (2, "outer/loss", "simple_value", 3.0) in events
    assert {(s, t) for s, t, k, _ in events if k == "histo"} == {(0, "fam/fam/h"),
                                                                  (2, "fam/fam/h")}
    assert {(s, t) for s, t, k, _ in events if k == "image"} == {(7, "img/image")}
    assert {(s, t) for s, t, k, _ in events if k == "tensor"} == {(0, "g"), (2, "g")}


def test_conditions_and_no_writer(tmp_path):
    x = tf.constant(2.0)
    assert cs.scalar("x", x).type == "NoOp"                 # no default writer
    writer = cs.create_file_writer(str(tmp_path), filename_suffix=".v2")
    with writer.as_default():
        never = cs.scalar("x", x)                            # not recording: False
        with cs.always_record_summaries():
            always = cs.scalar("y", x, step=3)
            assert cs.should_record_summaries().dtype == tf.bool
        with cs.never_record_summaries():
            off = cs.scalar("z", x)
    with tf.Session() as sess:
        sess.run(cs.summary_writer_initializer_op())
        assert sess.run([never, always, off]) == [False, True, False]
        sess.run(cs.flush(writer=writer))
    assert _read(str(tmp_path)) == [(3, "y", "simple_value", 2.0)]
    assert cs.create_file_writer(None).as_default().__enter__() is not None
    assert cs.eval_dir("/m") == "/m/eval" and cs.eval_dir("/m", "x") == "/m/eval_x"


def test_writing_before_the_writer_is_created_fails(tmp_path):
    writer = cs.create_file_writer(str(tmp_path))
    with writer.as_default(), cs.always_record_summaries():
        op = cs.scalar("x", 1.0, step=0)
    with tf.Session() as sess:
        with pytest.raises(tf.errors.NotFoundError, match="summary writer"):
            sess.run(op)


def test_missing_names():
    with pytest.raises(AttributeError, match="create_db_writer"):
        cs.create_db_writer


def test_eager_summaries_write_at_once(tmp_path):
    import subprocess
    import sys
    script = (
        "import glob, sys\n"
        "import tf1compat as tf\n"
        "tf.enable_eager_execution()\n"
        "w = tf.contrib.summary.create_file_writer(sys.argv[1])\n"
        "with w.as_default(), tf.contrib.summary.always_record_summaries():\n"
        "    for i in range(3):\n"
        "        tf.contrib.summary.scalar('loss', float(i), step=i)\n"
        "f, = glob.glob(sys.argv[1] + '/*')\n"
        "print([(e.step, v.tag, v.simple_value) for e in tf.train.summary_iterator(f)\n"
        "       for v in e.summary.value])\n")
    out = subprocess.run([sys.executable, "-c", script, str(tmp_path)], capture_output=True,
                         text=True, timeout=300, check=True).stdout
    assert out.strip() == "[(0, 'loss', 0.0), (1, 'loss', 1.0), (2, 'loss', 2.0)]"
