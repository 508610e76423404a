"""Golden cases: tf.train.Coordinator, session hooks and monitored sessions.

Checkpoint files differ by design (TF: `.index` + `.data-*`, tf1compat: `.safetensors`),
so directory listings are compared as checkpoint prefixes; event files by count. No case
depends on time (checkpoints and summaries are saved by steps only).
"""

import os
import shutil
import tempfile
import threading

import numpy as np

from tests.golden.harness import catch


class _TmpDir:
    def __enter__(self):
        self.path = tempfile.mkdtemp()
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path)


def _files(directory):
    """Checkpoint prefixes, .meta files and other files (event files counted)."""
    prefixes, other, events = set(), [], 0
    for name in sorted(os.listdir(directory)):
        if name.endswith(".index") or name.endswith(".safetensors"):
            prefixes.add(name.rsplit(".", 1)[0])
        elif ".data-" in name:
            continue
        elif name.startswith("events.out.tfevents."):
            events += 1
        else:
            other.append(name)
    return {"prefixes": sorted(prefixes), "other": other, "event_files": events}


def _model(tf, lr=0.1):
    gs = tf.train.get_or_create_global_step()
    w = tf.get_variable("w", initializer=tf.constant([1.0, -2.0]))
    loss = tf.reduce_sum(tf.square(w), name="loss")
    train = tf.train.GradientDescentOptimizer(lr).minimize(loss, global_step=gs)
    return gs, w, loss, train


def case_training_loop_checkpoints(tf):
    with _TmpDir() as d:
        gs, w, loss, train = _model(tf)
        logged = []
        hooks = [tf.train.StopAtStepHook(last_step=5), tf.train.NanTensorHook(loss),
                 tf.train.LoggingTensorHook({"loss": loss}, every_n_iter=2,
                                            formatter=lambda v: logged.append(
                                                float(v["loss"])) or "")]
        losses, finalized = [], []
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=d, save_checkpoint_steps=2, save_summaries_steps=None,
                log_step_count_steps=None, hooks=hooks) as sess:
            finalized.append(tf.get_default_graph().finalized)
            while not sess.should_stop():
                _, value = sess.run([train, loss])
                losses.append(value)
        finalized.append(tf.get_default_graph().finalized)
        files = _files(d)
        latest = os.path.basename(tf.train.latest_checkpoint(d))
        step_in_ckpt = tf.train.load_variable(d, "global_step")
        w_in_ckpt = tf.train.load_variable(d, "w")
        # Re-creating the session restores the latest checkpoint (step 5) and continues.
        tf.reset_default_graph()
        gs, w, loss, train = _model(tf)
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=d, save_checkpoint_steps=2, save_summaries_steps=None,
                log_step_count_steps=None,
                hooks=[tf.train.StopAtStepHook(num_steps=3)]) as sess:
            restored = sess.run([gs, w])
            more = []
            while not sess.should_stop():
                more.append(sess.run([train, gs])[1])
        files2 = _files(d)
        return {"losses": losses, "logged": logged, "finalized": finalized, "files": files,
                "latest": latest, "step_in_ckpt": step_in_ckpt, "w_in_ckpt": w_in_ckpt,
                "restored": restored, "more_steps": more, "files2": files2,
                "final": tf.train.load_variable(d, "w")}


def case_nan_tensor_hook(tf):
    x = tf.placeholder(tf.float32, [])
    gs = tf.train.get_or_create_global_step()
    inc = tf.assign_add(gs, 1)
    loss = tf.identity(x, name="loss")
    out = {}
    sess = tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss)])
    out["ok"] = sess.run([inc, loss], feed_dict={x: 1.0})
    out["nan"] = catch(lambda: sess.run(inc, feed_dict={x: float("nan")}), message=True)
    out["closed"] = catch(sess.close)
    stop = tf.train.MonitoredSession(hooks=[tf.train.NanTensorHook(loss,
                                                                   fail_on_nan_loss=False)])
    with stop:
        stop.run(inc, feed_dict={x: float("nan")})
        out["should_stop"] = stop.should_stop()
        out["run_after_stop"] = catch(lambda: stop.run(inc, feed_dict={x: 1.0}),
                                      message=True)
    return out


def case_hook_protocol(tf):
    calls = []

    class Recorder(tf.train.SessionRunHook):
        def begin(self):
            calls.append(("begin", tf.get_default_graph().finalized))

        def after_create_session(self, session, coord):
            calls.append(("after_create_session", tf.get_default_graph().finalized,
                          coord.should_stop()))

        def before_run(self, run_context):
            calls.append(("before_run", sorted(run_context.original_args.feed_dict or {})
                          and "feed", run_context.stop_requested))
            return tf.train.SessionRunArgs({"v": v}, feed_dict={extra: 10.0})

        def after_run(self, run_context, run_values):
            calls.append(("after_run", run_values.results))
            if run_values.results["v"] >= 2:
                run_context.request_stop()

        def end(self, session):
            calls.append(("end", session.run(v)))

    v = tf.Variable(0, name="v")
    extra = tf.placeholder(tf.float32, [], name="extra")
    inc = tf.assign_add(v, 1)
    doubled = extra * 2.0
    final = tf.train.FinalOpsHook(v + 100)
    feeds = tf.train.FeedFnHook(lambda: {scale: 3.0})
    scale = tf.placeholder(tf.float32, [], name="scale")
    scaled = scale * 1.0
    results = []
    with tf.train.SingularMonitoredSession(hooks=[Recorder(), final, feeds]) as sess:
        while not sess.should_stop():
            results.append(sess.run([inc, doubled, scaled]))
        raw = sess.raw_session().run(v)
    conflict = tf.train.MonitoredSession(hooks=[tf.train.FeedFnHook(lambda: {scale: 1.0})])
    clash = catch(lambda: conflict.run(scale, feed_dict={scale: 2.0}), message=True)
    conflict.close()
    return {"calls": calls, "results": results, "raw": raw,
            "final": final.final_ops_values, "clash": clash,
            "finalized_after": tf.get_default_graph().finalized}


def case_out_of_range_ends_loop(tf):
    gs = tf.train.get_or_create_global_step()
    data = tf.data.Dataset.range(4).make_one_shot_iterator().get_next()
    with tf.control_dependencies([data]):  # (TF may or may not run an independent op)
        step = tf.assign_add(gs, 1)
    final = tf.train.FinalOpsHook(gs)
    values = []
    with tf.train.MonitoredSession(hooks=[final]) as sess:
        while not sess.should_stop():
            values.append(sess.run([data, step]))
    errors = {}
    try:
        with tf.train.MonitoredSession() as sess:
            raise ValueError("boom")
    except ValueError as e:
        errors["propagated"] = str(e)
    return {"values": values, "final": final.final_ops_values, "errors": errors}


def case_scaffold_and_errors(tf):
    out = {}
    out["stop_hook_args"] = [catch(lambda: tf.train.StopAtStepHook(), message=True),
                             catch(lambda: tf.train.StopAtStepHook(1, 2), message=True)]
    out["no_global_step"] = catch(
        lambda: tf.train.MonitoredSession(hooks=[tf.train.StopAtStepHook(3)]), message=True)
    out["logging_args"] = catch(lambda: tf.train.LoggingTensorHook(["a"]), message=True)
    out["timer"] = catch(lambda: tf.train.SecondOrStepTimer(), message=True)
    out["summary_hook"] = catch(lambda: tf.train.SummarySaverHook(save_steps=1), message=True)
    out["saver_hook"] = catch(lambda: tf.train.CheckpointSaverHook(
        "/tmp", save_steps=1, saver=object(), scaffold=object()), message=True)
    out["nan_error"] = str(tf.train.NanLossDuringTrainingError())
    v = tf.Variable(3.0, name="v")
    local = tf.Variable(7.0, name="local", collections=[tf.GraphKeys.LOCAL_VARIABLES])
    scaffold = tf.train.Scaffold()
    with tf.train.MonitoredSession(
            session_creator=tf.train.ChiefSessionCreator(scaffold=scaffold)) as sess:
        out["values"] = sess.run([v, local])
        out["scaffold"] = {"init_op_type": scaffold.init_op.type,
                           "ready_op": scaffold.ready_op.dtype.name,
                           "saver": type(scaffold.saver).__name__,
                           "sharded": scaffold.saver.saver_def.sharded,
                           "summary_op": scaffold.summary_op,
                           "collections": [len(tf.get_collection(k)) for k in (
                               tf.GraphKeys.INIT_OP, tf.GraphKeys.READY_OP,
                               tf.GraphKeys.LOCAL_INIT_OP, tf.GraphKeys.SAVERS)]}
        out["modify_finalized"] = catch(lambda: tf.constant(1.0), message=True)
        out["graph"] = sess.graph is tf.get_default_graph()
    out["modify_after_close"] = catch(lambda: tf.constant(1.0).op.type)
    out["close_twice"] = catch(sess.close, message=True)
    return out


def case_coordinator(tf):
    out = {}
    coord = tf.train.Coordinator()
    out["initial"] = coord.should_stop()
    coord.request_stop()
    out["after_request"] = [coord.should_stop(), coord.wait_for_stop(0.01)]
    coord.clear_stop()
    out["cleared"] = coord.should_stop()
    # An exception reported by a thread is re-raised by join.
    coord = tf.train.Coordinator()

    def worker(fail):
        with coord.stop_on_exception():
            if fail:
                raise ValueError("worker failed")
            while not coord.should_stop():
                coord.wait_for_stop(0.01)

    threads = [threading.Thread(target=worker, args=(i == 1,)) for i in range(3)]
    for t in threads:
        t.start()
    out["join"] = catch(lambda: coord.join(threads), message=True)
    out["joined"] = coord.joined
    out["raise_requested"] = catch(coord.raise_requested_exception, message=True)
    # OutOfRangeError is a clean stop by default.
    coord = tf.train.Coordinator()
    with coord.stop_on_exception():
        raise tf.errors.OutOfRangeError(None, None, "done")
    out["clean_stop"] = [coord.should_stop(), catch(coord.join)]
    coord = tf.train.Coordinator(clean_stop_exception_types=[])
    try:
        raise tf.errors.OutOfRangeError(None, None, "done")
    except tf.errors.OutOfRangeError as e:
        coord.request_stop(e)
    out["not_clean"] = catch(coord.join, message=True)
    # LooperThread runs its target until the coordinator stops.
    coord = tf.train.Coordinator()
    counter = []

    def tick():
        counter.append(1)
        if len(counter) >= 3:
            coord.request_stop()

    looper = tf.train.LooperThread.loop(coord, None, tick)
    coord.join([looper])
    out["looper"] = [len(counter), looper.daemon]
    out["looper_bad"] = catch(lambda: tf.train.LooperThread("x", 1), message=True)
    out["looper_args"] = catch(lambda: tf.train.LooperThread(coord, 1, args=(1,)), message=True)
    # No queue runners in the graph: no threads.
    with tf.Session() as sess:
        out["queue_runners"] = tf.train.start_queue_runners(sess, coord)
    out["no_session"] = catch(lambda: tf.train.start_queue_runners(), message=True)
    return out


def case_monitored_session_event_sequence(tf):
    """The kinds of events a MonitoredTrainingSession writes, in order: the cached
    FileWriter writes the graph and meta graph when it is created, and the checkpoint
    hook writes both again, so TensorBoard's event file holds them twice."""
    with _TmpDir() as d:
        gs, w, loss, train = _model(tf)
        tf.summary.scalar("loss", loss)
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=d, save_checkpoint_steps=3, save_summaries_steps=2,
                log_step_count_steps=None,
                hooks=[tf.train.StopAtStepHook(last_step=5)]) as sess:
            while not sess.should_stop():
                sess.run(train)
        events = [e for name in sorted(os.listdir(d)) if name.startswith("events.out")
                  for e in tf.train.summary_iterator(os.path.join(d, name))]
        sequence = []
        for event in events:
            kind = event.WhichOneof("what")
            if kind == "summary":
                kind += ":" + ",".join(v.tag for v in event.summary.value)
            elif kind == "session_log":
                kind += ":%d" % event.session_log.status
            sequence.append([int(event.step), kind])
        return {"sequence": sequence}


def case_checkpoint_cadence_with_step_jumps(tf):
    """CheckpointSaverHook(save_steps=5) when the global step moves by more than one per
    run (other trainers' updates under asynchronous training): a checkpoint is written
    after a run whose global step is at least 5 past the last saved one, and at the end;
    MonitoredTrainingSession's own hook (save_checkpoint_steps=5, max_to_keep 5) the same."""
    jumps = [1, 3, 2, 7, 1, 1, 4, 6, 2, 1, 5, 1, 1, 1, 1, 9, 2]
    out = {}
    with _TmpDir() as d:
        gs = tf.train.get_or_create_global_step()
        k = tf.placeholder(tf.int64, [])
        train = tf.assign_add(gs, k)
        saved = []

        class Listener(tf.train.CheckpointSaverListener):
            def after_save(self, session, global_step_value):
                saved.append(int(global_step_value))

        hook = tf.train.CheckpointSaverHook(d, save_steps=5, listeners=[Listener()],
                                            saver=tf.train.Saver(max_to_keep=100))
        steps = []
        with tf.train.MonitoredSession(hooks=[hook]) as sess:
            for jump in jumps:
                steps.append(int(sess.run(train, {k: jump})))
        out["steps"], out["saved"] = steps, saved
        out["kept"] = [os.path.basename(p) for p in
                       tf.train.get_checkpoint_state(d).all_model_checkpoint_paths]
    tf.reset_default_graph()
    with _TmpDir() as d:
        gs = tf.train.get_or_create_global_step()
        k = tf.placeholder(tf.int64, [])
        train = tf.assign_add(gs, k)
        with tf.train.MonitoredTrainingSession(
                checkpoint_dir=d, save_checkpoint_steps=5, save_summaries_steps=None,
                log_step_count_steps=None,
                hooks=[tf.train.StopAtStepHook(last_step=40)]) as sess:
            while not sess.should_stop():
                sess.run(train, {k: 3})
        out["mts_files"] = _files(d)
    return out
