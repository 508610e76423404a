"""Unit tests: training-loop infrastructure (hooks, monitored sessions, coordinator) and
SavedModel behaviour that golden cases cannot express."""

from __future__ import annotations

import os

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _model():
    from tf1compat.training import training_util
    gs = tf.train.get_or_create_global_step()
    # The hooks' cached global-step read, created before the train op so that the plan
    # (creation order) reads the step before the increment, as TF's executor does in
    # practice; see docs/training.md "Training loops".
    training_util._get_or_create_global_step_read()
    w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
    loss = tf.reduce_sum(tf.square(w))
    tf.summary.scalar("loss", loss)
    train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=gs)
    return gs, w, loss, train


def _events(directory):
    from tf1compat.data.tf_record import tf_record_iterator
    out = []
    for name in sorted(os.listdir(directory)):
        if name.startswith("events.out.tfevents."):
            out.extend(tf.Event.FromString(r)
                       for r in tf_record_iterator(os.path.join(directory, name)))
    return out


def test_summaries_and_checkpoint_listener(tmp_path):
    gs, w, loss, train = _model()
    calls = []

    class Listener(tf.train.CheckpointSaverListener):
        def begin(self):
            calls.append("begin")

        def before_save(self, session, step):
            calls.append(("before", step))

        def after_save(self, session, step):
            calls.append(("after", step))
            return step >= 4   # requests a stop

        def end(self, session, step):
            calls.append(("end", step))

    saver_hook = tf.train.CheckpointSaverHook(str(tmp_path), save_steps=2,
                                              listeners=[Listener()])
    summary_hook = tf.train.SummarySaverHook(save_steps=3, output_dir=str(tmp_path),
                                             summary_op=tf.summary.merge_all())
    steps = []
    with tf.train.MonitoredSession(hooks=[saver_hook, summary_hook]) as sess:
        while not sess.should_stop():
            sess.run(train)
            steps.append(1)
    assert len(steps) == 4                       # the listener stopped the loop at step 4
    assert calls == ["begin", ("before", 0), ("after", 0), ("before", 2), ("after", 2),
                     ("before", 4), ("after", 4), ("end", 4)]
    tagged = [(e.step, v.tag) for e in _events(str(tmp_path)) if e.HasField("summary")
              for v in e.summary.value]
    assert tagged == [(1, "loss"), (4, "loss")]
    assert tf.train.latest_checkpoint(str(tmp_path)).endswith("model.ckpt-4")


def test_step_counter_hook_records_rate(tmp_path):
    gs, w, loss, train = _model()
    hook = tf.train.StepCounterHook(every_n_steps=2, output_dir=str(tmp_path))
    with tf.train.MonitoredSession(hooks=[hook]) as sess:
        for _ in range(5):
            sess.run(train)
    tf.summary.FileWriterCache.get(str(tmp_path)).flush()   # the hook does not flush
    tags = [v.tag for e in _events(str(tmp_path)) if e.HasField("summary")
            for v in e.summary.value]
    assert tags and set(tags) == {"global_step/sec"}


def test_recoverable_session_recreates_after_aborted():
    gs, w, loss, train = _model()
    created = []
    base = tf.train.ChiefSessionCreator()

    class Creator(tf.train.SessionCreator):
        def create_session(self):
            created.append(1)
            return base.create_session()

    class Abort(tf.train.SessionRunHook):
        fired = False

        def after_run(self, run_context, run_values):
            if not Abort.fired:
                Abort.fired = True
                raise tf.errors.AbortedError(None, None, "preempted")

    with tf.train.MonitoredSession(session_creator=Creator(), hooks=[Abort()]) as sess:
        sess.run(train)
        assert len(created) == 2


def test_run_step_fn_and_raw_session():
    gs, w, loss, train = _model()
    with tf.train.SingularMonitoredSession() as sess:
        def step_fn(step_context):
            step_context.session.run(train)
            return step_context.run_with_hooks(gs)
        assert sess.run_step_fn(step_fn) == 1
        with pytest.raises(ValueError, match="step_fn"):
            sess.run_step_fn(lambda ctx, extra: None)
        assert isinstance(sess.raw_session(), tf.Session)

    with tf.train.MonitoredSession() as sess:
        def stop(step_context):
            step_context.request_stop()
        sess.run_step_fn(stop)   # StopIteration ends the with block cleanly
        pytest.fail("unreachable")


def test_worker_session_waits_for_ready_model():
    gs, w, loss, train = _model()
    creator = tf.train.WorkerSessionCreator(max_wait_secs=0)
    # No chief initialized the variables in this process's fresh session.
    with pytest.raises(tf.errors.DeadlineExceededError, match="not ready"):
        tf.train.MonitoredSession(session_creator=creator)
    tf.get_default_graph()._unsafe_unfinalize()




def test_simple_save_rejects_unserializable_graph(tmp_path):
    @tf.custom_gradient
    def doubled(a):
        return a * 2, lambda dy: dy * 2

    x = tf.placeholder(tf.float32, [None], name="x")
    y = doubled(x)
    tf.gradients(y, x)
    export = str(tmp_path / "m")
    with tf.Session() as sess:
        with pytest.raises(ValueError, match="custom"):
            tf.saved_model.simple_save(sess, export, {"x": x}, {"y": y})
    assert not os.path.exists(os.path.join(export, "saved_model.pb"))


def test_saved_model_text_format_and_pb_layout(tmp_path):
    x = tf.placeholder(tf.float32, [2], name="x")
    v = tf.Variable([1.0, 2.0], name="v")
    y = tf.multiply(x, v, name="y")
    export = str(tmp_path / "m")
    builder = tf.saved_model.builder.SavedModelBuilder(export)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        builder.add_meta_graph_and_variables(sess, ["serve"])
    path = builder.save(as_text=True)
    assert path.endswith(b"saved_model.pbtxt")
    # TF's layout: the sharded save's shard merged into variables/variables.
    assert sorted(os.listdir(os.path.join(export, "variables"))) == [
        "variables.data-00000-of-00001", "variables.index"]
    tf.reset_default_graph()
    with tf.Session() as sess:
        tf.saved_model.loader.load(sess, ["serve"], export)
        np.testing.assert_allclose(sess.run("y:0", {"x:0": [3.0, 4.0]}), [3.0, 8.0])


def test_shim_paths():
    tf.install()
    try:
        from tensorflow.python.training import (basic_session_run_hooks, coordinator,
                                                monitored_session as ms, session_run_hook)
        from tensorflow.python.saved_model import loader, signature_constants, tag_constants
        import tensorflow as real
        assert ms.MonitoredTrainingSession is real.train.MonitoredTrainingSession
        assert basic_session_run_hooks.StopAtStepHook is real.train.StopAtStepHook
        assert session_run_hook.SessionRunHook is real.train.SessionRunHook
        assert coordinator.Coordinator is real.train.Coordinator
        assert loader.load is real.saved_model.loader.load
        assert tag_constants.SERVING == "serve"
        assert signature_constants.PREDICT_METHOD_NAME == "tensorflow/serving/predict"
    finally:
        tf.uninstall()
