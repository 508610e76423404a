"""tf.train.Supervisor's standard services on a queue-fed graph (Kyubyong's TF 1.2
Transformer): the summary op reads the input queue, so its first tick must wait for the
queue runners rather than block the session's start forever."""

import glob
import os
import threading

import numpy as np

import tf1compat as tf


def _train_with_supervisor(logdir: str, result: dict) -> None:
    with tf.Graph().as_default():
        ids = tf.train.range_input_producer(100, shuffle=False).dequeue()
        batch = tf.train.batch([tf.cast(ids, tf.float32)], batch_size=4)
        weight = tf.Variable(0.0)
        loss = tf.reduce_mean(batch) * weight
        tf.summary.scalar("loss", loss)
        step = tf.train.get_or_create_global_step()
        train = tf.assign_add(weight, 1.0)
        with tf.control_dependencies([train]):
            train = tf.assign_add(step, 1)
        sv = tf.train.Supervisor(logdir=logdir, save_model_secs=0)
        with sv.managed_session() as sess:
            for _ in range(3):
                if sv.should_stop():
                    break
                sess.run([train, batch])
            result["step"] = int(sess.run(step))


def test_first_summary_tick_waits_for_queue_runners(tmp_path) -> None:
    result: dict = {}
    worker = threading.Thread(target=_train_with_supervisor, args=(str(tmp_path), result),
                              daemon=True)
    worker.start()
    worker.join(timeout=120)
    assert not worker.is_alive(), "managed_session blocked on the summary op's queue"
    assert result["step"] == 3
    tags = {}
    for path in glob.glob(os.path.join(str(tmp_path), "events.out.tfevents.*")):
        for event in tf.train.summary_iterator(path):
            for value in event.summary.value:
                tags.setdefault(value.tag, []).append((event.step, value.simple_value))
    # the first tick runs once the runners have started, at step 0 with weight 0
    assert tags["loss"][0] == (0, np.float32(0.0))
    assert "global_step/sec" in tags
