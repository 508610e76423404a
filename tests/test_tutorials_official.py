"""Unit tests for pieces of TF's official 1.x tutorials that goldens cannot express: the
`tensorflow.examples.tutorials.mnist.mnist` module (absent from TF 2.x) and the
Supervisor's later service ticks, which run inside should_stop()."""

from __future__ import annotations

import os
import time
import types

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.get_default_graph()._unsafe_unfinalize()
    tf.reset_default_graph()


def test_mnist_mechanics_module_names_and_training():
    from tf1compat.examples.tutorials.mnist import mnist
    tf.set_random_seed(0)
    images = tf.placeholder(tf.float32, [4, mnist.IMAGE_PIXELS])
    labels = tf.placeholder(tf.int32, [4])
    logits = mnist.inference(images, 8, 4)
    loss = mnist.loss(logits, labels)
    train_op = mnist.training(loss, 0.1)
    correct = mnist.evaluation(logits, labels)
    assert [v.name for v in tf.global_variables()] == [
        "hidden1/weights:0", "hidden1/biases:0", "hidden2/weights:0", "hidden2/biases:0",
        "softmax_linear/weights:0", "softmax_linear/biases:0", "global_step:0"]
    assert logits.name == "softmax_linear/add:0"
    assert loss.name == "sparse_softmax_cross_entropy_loss/value:0"
    assert train_op.name == "GradientDescent" and correct.dtype == tf.int32
    assert [s.op.name for s in tf.get_collection(tf.GraphKeys.SUMMARIES)] == ["loss"]
    feed = {images: np.random.RandomState(0).rand(4, 784), labels: [1, 2, 3, 4]}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(loss, feed)
        for _ in range(5):
            sess.run(train_op, feed)
        assert sess.run(loss, feed) < before
        assert 0 <= sess.run(correct, feed) <= 4


def test_shim_import_path():
    tf.install()
    from tensorflow.examples.tutorials.mnist import mnist  # noqa: F401
    assert mnist.NUM_CLASSES == 10 and mnist.IMAGE_SIZE == 28


def test_supervisor_periodic_checkpoints_run_in_should_stop(tmp_path, monkeypatch):
    # The services read the Supervisor module's clock, driven here: on a loaded machine
    # more than save_model_secs can pass between the first tick and should_stop() (the
    # first save alone may take that long), and neither TF nor tf1compat promises a
    # checkpoint is *not* due by then.
    from tf1compat.training.sessions import supervisor as supervisor_module
    clock = [1000.0]
    monkeypatch.setattr(supervisor_module, "time", types.SimpleNamespace(time=lambda: clock[0]))
    gs = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", initializer=1.0)
    train = tf.assign_add(gs, 1)
    del w
    sv = tf.train.Supervisor(logdir=str(tmp_path), save_model_secs=0.2, summary_op=None)
    with sv.managed_session() as sess:
        assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-0")
        sess.run(train)
        clock[0] += 0.1
        assert not sv.should_stop()  # not due yet: nothing saved
        assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-0")
        clock[0] += 0.2
        assert not sv.should_stop()  # due: saved in the caller's thread
        assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-1")
    assert sv.should_stop()
    assert os.path.exists(os.path.join(str(tmp_path), "graph.pbtxt"))


def test_supervisor_loop_runs_a_looper_thread():
    tf.get_variable("w", initializer=1.0)
    sv = tf.train.Supervisor(logdir=None)
    calls = []
    with sv.managed_session():
        looper = sv.loop(0.01, calls.append, args=(1,))
        # The looper calls right away, then every 0.01 s, once the OS schedules its
        # thread: on a loaded machine that can be later than any fixed sleep (and a stop
        # requested first ends it before its first call, in TF too), so wait for calls.
        deadline = time.monotonic() + 60
        while len(calls) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    assert len(calls) >= 2 and not looper.is_alive()
    assert sv.PrepareSession == sv.prepare_or_wait_for_session
