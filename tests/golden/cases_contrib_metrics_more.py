"""Golden cases: `tf.contrib.metrics.precision_at_recall` / `recall_at_precision` (its
strict_mode: cases_contrib_metrics_tail.py).

TF 2.x has no contrib: under the oracle they are TF 1.15's own
contrib/metrics/python/ops/metric_ops.py run under TF 2.21's tf.compat.v1 graph mode
(scripts/oracle_contrib.py, `tf115_package`)."""

import numpy as np


def _metrics(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.metrics
    import oracle_contrib
    return oracle_contrib.tf115_package("contrib.metrics.python.ops", ["metric_ops"])


def case_precision_at_recall_and_recall_at_precision(tf):
    metrics = _metrics(tf)
    rng = np.random.RandomState(3)
    labels = (rng.rand(2, 40) > 0.5).astype(np.int64)
    predictions = np.clip(labels * 0.3 + rng.rand(2, 40) * 0.7, 0, 1).astype(np.float32)
    weights = rng.rand(40).astype(np.float32)
    out = {}
    with tf.Graph().as_default():
        lab = tf.placeholder(tf.int64, [40])
        pred = tf.placeholder(tf.float32, [40])
        made = {
            "p_at_r": metrics.precision_at_recall(lab, pred, 0.7),
            "p_at_r_w": metrics.precision_at_recall(lab, pred, 0.4, weights=weights,
                                                    num_thresholds=50),
            "r_at_p": metrics.recall_at_precision(lab, pred, 0.8),
            "r_at_p_20": metrics.recall_at_precision(lab, pred, 0.95, num_thresholds=20,
                                                     weights=weights)}
        with tf.Session() as sess:
            sess.run(tf.local_variables_initializer())
            for i in range(2):
                feed = {lab: labels[i], pred: predictions[i]}
                out[f"update_{i}"] = sess.run({k: v[1] for k, v in made.items()}, feed)
            out["value"] = sess.run({k: v[0] for k, v in made.items()})
        out["locals"] = sorted(v.op.name for v in tf.local_variables())[:4]
        for fn in (lambda: metrics.precision_at_recall(lab, pred, 1.5),
                   lambda: metrics.recall_at_precision(lab, pred, -0.1)):
            try:
                fn()
            except ValueError as e:
                out.setdefault("errors", []).append(str(e))
    return out
