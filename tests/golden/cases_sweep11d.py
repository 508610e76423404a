"""Golden cases: a fourth sweep (session 11): Saver bookkeeping, summaries read back,
MonitoredTrainingSession hooks."""

import os
import tempfile

import numpy as np


def case_saver_bookkeeping(tf):
    out = {}
    with tempfile.TemporaryDirectory() as d:
        v = tf.Variable([1.0, 2.0], name="v")
        step = tf.train.get_or_create_global_step()
        inc = tf.assign_add(step, 1)
        saver = tf.train.Saver(max_to_keep=2)
        partial = tf.train.Saver({"renamed": v})
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            paths = []
            for _ in range(4):
                sess.run([inc, v.assign_add([1.0, 1.0])])
                paths.append(os.path.basename(saver.save(sess, os.path.join(d, "model"),
                                                         global_step=step)))
            out["paths"] = paths
            out["latest"] = os.path.basename(tf.train.latest_checkpoint(d))
            state = tf.train.get_checkpoint_state(d)
            out["all"] = [os.path.basename(p) for p in state.all_model_checkpoint_paths]
            out["files"] = sorted(f for f in os.listdir(d) if not f.endswith(".meta"))
            out["last_checkpoints"] = [os.path.basename(p) for p in saver.last_checkpoints]
            partial_path = partial.save(sess, os.path.join(d, "partial"),
                                        write_meta_graph=False, write_state=False)
            reader = tf.train.NewCheckpointReader(partial_path)
            out["partial_vars"] = reader.get_variable_to_shape_map()
            out["renamed"] = reader.get_tensor("renamed")
            out["listed"] = sorted(n for n, _ in tf.train.list_variables(d))
            sess.run(v.assign([0.0, 0.0]))
            saver.restore(sess, os.path.join(d, "model-3"))
            out["restored"] = sess.run([v, step])
            out["exists"] = [tf.train.checkpoint_exists(os.path.join(d, p))
                             for p in ("model-3", "model-1")]
            try:
                saver.restore(sess, os.path.join(d, "model-1"))
            except Exception as e:  # noqa: BLE001 - the class is the golden
                out["missing"] = type(e).__name__
    return out


def case_summaries_read_back(tf):
    out = {}
    with tempfile.TemporaryDirectory() as d:
        x = tf.placeholder(tf.float32, [None])
        tf.summary.scalar("mean", tf.reduce_mean(x))
        tf.summary.histogram("values", x)
        with tf.name_scope("scope"):
            tf.summary.scalar("max", tf.reduce_max(x), family="fam")
        tf.summary.text("note", tf.constant("hi"))
        tf.summary.image("img", tf.zeros([1, 2, 2, 1]))
        merged = tf.summary.merge_all()
        writer = tf.summary.FileWriter(d)
        with tf.Session() as sess:
            for step in range(2):
                writer.add_summary(sess.run(merged, {x: [1.0, 2.0, 3.0 + step]}), step)
        writer.close()
        events = []
        for f in sorted(os.listdir(d)):
            for e in tf.train.summary_iterator(os.path.join(d, f)):
                for val in e.summary.value:
                    kind = val.WhichOneof("value")
                    item = [int(e.step), val.tag, kind]
                    if kind == "simple_value":
                        item.append(round(float(val.simple_value), 5))
                    elif kind == "histo":
                        item.append([val.histo.min, val.histo.max, val.histo.num,
                                     val.histo.sum, len(val.histo.bucket)])
                    elif kind == "image":
                        item.append([val.image.height, val.image.width,
                                     val.image.colorspace])
                    elif kind == "tensor":
                        item.append(val.metadata.plugin_data.plugin_name)
                    events.append(item)
        out["events"] = events
        out["merged_name"] = merged.name
        out["keys"] = [t.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]
    return out


def case_monitored_session_hooks(tf):
    out = {}
    with tempfile.TemporaryDirectory() as d:
        w = tf.Variable(1.0)
        step = tf.train.get_or_create_global_step()
        loss = tf.square(w - 3.0)
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        seen = []

        class Recorder(tf.train.SessionRunHook):
            def begin(self):
                seen.append("begin")

            def after_create_session(self, session, coord):
                seen.append("created")

            def before_run(self, run_context):
                return tf.train.SessionRunArgs({"loss": loss, "step": step})

            def after_run(self, run_context, run_values):
                seen.append(["after", int(run_values.results["step"]),
                             round(float(run_values.results["loss"]), 5)])
                if run_values.results["step"] >= 3:
                    run_context.request_stop()

            def end(self, session):
                seen.append(["end", round(float(session.run(w)), 5)])

        hooks = [Recorder(), tf.train.StopAtStepHook(last_step=10),
                 tf.train.NanTensorHook(loss)]
        with tf.train.MonitoredTrainingSession(checkpoint_dir=d, hooks=hooks,
                                               save_summaries_steps=None,
                                               save_checkpoint_secs=None,
                                               save_checkpoint_steps=2,
                                               log_step_count_steps=None) as sess:
            while not sess.should_stop():
                sess.run(train)
        out["seen"] = seen
        out["files"] = sorted(f for f in os.listdir(d)
                              if not f.startswith("events") and not f.endswith(".meta"))
        out["latest"] = os.path.basename(tf.train.latest_checkpoint(d))
    with tf.Graph().as_default():
        x = tf.Variable(0.0)
        bad = tf.log(x - 1.0)
        with tf.train.MonitoredTrainingSession(hooks=[tf.train.NanTensorHook(bad)]) as sess:
            try:
                sess.run(bad)
                out["nan"] = "no error"
            except Exception as e:  # noqa: BLE001 - the class is the golden
                out["nan"] = type(e).__name__
    return out
