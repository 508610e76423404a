"""Which value of the global step a read sees that nothing orders against its increment
in the same run, run by run, in real TF (the evidence for docs/ARCHITECTURE.md,
"Unordered reads and writes of one variable in one run").

    /tmp/tf/bin/python scripts/probe_var_order.py CASE INTER_OP_THREADS RUNS GRAPPLER

CASE is one of base, ref, assign_first, assign_add, scatter, two_reads, cond, fetched,
bert; GRAPPLER is 1 (default rewrites) or 0 (meta optimizer off). It prints one JSON line:
how many runs saw the incremented step (`late_runs`), the first run that saw the old one,
runs 0-9 and the last five (1 = the read ran after the increment, 0 = before; the bert
case decodes only its warmup runs). The settled order is recorded as goldens by
tests/golden/cases_var_order.py; the transient this shows is not (it is timing).
"""

import json
import os
import sys

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
import tensorflow.compat.v1 as tf  # noqa: E402
from tensorflow.core.protobuf import rewriter_config_pb2  # noqa: E402

tf.disable_v2_behavior()


def _gs(shape=()):
    return tf.get_variable("gs", shape, tf.int64, initializer=tf.zeros_initializer(),
                           trainable=False, use_resource=True)


def _w(use_resource=True):
    return tf.get_variable("w", [], initializer=tf.zeros_initializer(),
                           use_resource=use_resource)


def build(case):
    """(train op, w, read fetched with it or None) of one probe."""
    if case == "ref":
        step = tf.get_variable("gs", [], tf.int64, initializer=tf.zeros_initializer(),
                               trainable=False, use_resource=False)
        w = _w(use_resource=False)
        return tf.group(tf.assign_add(w, -tf.cast(step, tf.float32)),
                        [step.assign(step + 1)]), w, None
    if case == "bert":                  # BERT's warmup + polynomial_decay, grouped
        step = tf.train.get_or_create_global_step()
        w = _w()
        decay = tf.train.polynomial_decay(1.0, step, 1000, end_learning_rate=0.0, power=1.0)
        gsi = tf.cast(step, tf.int32)
        lr = -tf.where(gsi < 10, tf.cast(gsi, tf.float32) / 10., decay)
        return tf.group(tf.assign_add(w, lr), [step.assign(step + 1)]), w, None
    step = _gs([2] if case == "scatter" else [])
    w = _w()
    if case == "base":
        lr, inc = -tf.cast(step, tf.float32), step.assign(step + 1)
    elif case == "assign_first":        # the increment is created before the read
        inc = step.assign(step + 1)
        lr = -tf.cast(step, tf.float32)
    elif case == "assign_add":
        lr, inc = -tf.cast(step, tf.float32), step.assign_add(1)
    elif case == "scatter":             # the step is element 0 of a scattered vector
        lr = -tf.cast(step[0], tf.float32)
        inc = tf.scatter_add(step, [0], tf.constant([1], tf.int64))
    elif case == "two_reads":           # two reads, one through a longer chain
        s1 = tf.cast(step, tf.float32)
        s2 = tf.cast(step.read_value(), tf.float32) * 2. + 0.
        lr, inc = -(s1 + s2) / 3., step.assign(step + 1)
    elif case == "cond":                # the read inside a tf.cond branch
        lr = tf.cond(tf.constant(True), lambda: -tf.cast(step, tf.float32),
                     lambda: tf.constant(0.))
        inc = step.assign(step + 1)
    elif case == "fetched":             # the read fetched with the increment
        return tf.group(step.assign(step + 1)), w, step.read_value()
    else:
        raise SystemExit(f"unknown case {case}")
    return tf.group(tf.assign_add(w, lr), [inc]), w, None


def main():
    case, inter, runs = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
    grappler = sys.argv[4] == "1"
    train, w, fetched = build(case)
    rewrites = rewriter_config_pb2.RewriterConfig(disable_meta_optimizer=not grappler)
    config = tf.ConfigProto(inter_op_parallelism_threads=inter,
                            graph_options=tf.GraphOptions(rewrite_options=rewrites))
    late = []
    with tf.Session(config=config) as sess:
        sess.run(tf.global_variables_initializer())
        prev = 0.
        for i in range(runs):
            if fetched is not None:
                late.append(int(sess.run([train, fetched])[1]) - i)
                continue
            sess.run(train)
            cur = float(sess.run(w))
            fell, prev = prev - cur, cur
            if case != "bert":
                late.append(int(round(fell)) - i)
            else:   # the warmup's lr is gs / 10
                late.append(int(round(fell * 10)) - i if i < 9 else None)
    known = [x for x in late if x is not None]
    print(json.dumps({"case": case, "inter": inter, "grappler": grappler,
                      "late_runs": sum(known),
                      "first_early_run": next((k for k, x in enumerate(late) if x == 0), None),
                      "runs0_9": late[:10], "last5": late[-5:]}))


if __name__ == "__main__":
    main()
