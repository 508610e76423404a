"""Golden cases: `tf.contrib.metrics.auc_using_histogram`, `auc_with_confidence_intervals`
and `recall_at_precision(strict_mode=True)`.

TF 2.x has no contrib: under the oracle they are TF 1.15's own
contrib/metrics/python/ops/{histogram_ops,metric_ops}.py run under TF 2.21's
tf.compat.v1 graph mode (scripts/oracle_contrib.py, `tf115_package`)."""

import numpy as np


def _metrics(tf):
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.metrics
    import oracle_contrib
    from tensorflow.python.ops import confusion_matrix

    # histogram_ops uses contrib.framework's remove_squeezable_dimensions(predictions,
    # labels): core's (labels first) with the results swapped.
    def remove_squeezable_dimensions(predictions, labels, name=None):
        labels, predictions = confusion_matrix.remove_squeezable_dimensions(
            labels, predictions, name=name)
        return predictions, labels
    tensor_util = {"remove_squeezable_dimensions": remove_squeezable_dimensions}
    return oracle_contrib.tf115_package(
        "contrib.metrics.python.ops", ["metric_ops", "histogram_ops"],
        stubs={"tensorflow.contrib.framework.python.framework.tensor_util": tensor_util})


def _data(seed, n=40):
    rng = np.random.RandomState(seed)
    labels = rng.rand(n) > 0.5
    scores = np.clip(labels * 0.35 + rng.rand(n) * 0.65, 0, 1).astype(np.float32)
    return labels, scores


def case_auc_using_histogram(tf):
    metrics = _metrics(tf)
    labels = tf.placeholder(tf.bool, [None])
    scores = tf.placeholder(tf.float32, [None])
    auc, update = metrics.auc_using_histogram(labels, scores, [0.0, 1.0], nbins=20)
    auc_default, update_default = metrics.auc_using_histogram(
        labels, scores, [0.0, 1.0], collections=["my_vars"], check_shape=False, name="mine")
    out = {"names": [auc.name, update.name, auc_default.name],
           "locals": [v.op.name for v in tf.local_variables()],
           "mine": [v.op.name for v in tf.get_collection("my_vars")],
           "dtypes": [auc.dtype.name], "shape": auc.shape.as_list()}
    with tf.Session() as sess:
        sess.run(tf.variables_initializer(tf.local_variables() +
                                          tf.get_collection("my_vars")))
        for i in range(3):
            lab, sc = _data(i)
            sess.run([update, update_default], {labels: lab, scores: sc})
            out[f"auc_{i}"] = sess.run([auc, auc_default])
    return out


def case_auc_using_histogram_errors(tf):
    metrics = _metrics(tf)
    errors = []
    try:
        metrics.auc_using_histogram(tf.constant([1, 0]), tf.constant([0.2, 0.5]), [0.0, 1.0])
    except ValueError as e:
        errors.append([type(e).__name__, e.args[0]])
    auc, update = metrics.auc_using_histogram(tf.constant([[True, False]]),
                                              tf.constant([[0.2, 0.5]]), [0.0, 1.0], nbins=4)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        errors.append(sess.run(auc))
    return errors


def case_auc_with_confidence_intervals(tf):
    metrics = _metrics(tf)
    labels = tf.placeholder(tf.int64, [None])
    preds = tf.placeholder(tf.float32, [None])
    weights = tf.placeholder(tf.float32, [None])
    plain, plain_update = metrics.auc_with_confidence_intervals(labels, preds)
    linear, linear_update = metrics.auc_with_confidence_intervals(
        labels, preds, weights=weights, alpha=0.9, logit_transformation=False,
        metrics_collections=["m"], updates_collections=["u"], name="linear")
    out = {"fields": list(type(plain)._fields), "dtypes": [t.dtype.name for t in plain],
           "linear_dtypes": [t.dtype.name for t in linear],
           "collections": [len(tf.get_collection("m")), len(tf.get_collection("u"))],
           "locals": sorted(v.op.name for v in tf.local_variables())}
    # The validity check reads the labels fed with the values (TF's design), so the
    # values are fetched with the batch's feed, after its update.
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        out["empty"] = sess.run(list(plain), {labels: [0, 1], preds: [0.5, 0.5]})
        rng = np.random.RandomState(5)
        for i in range(2):
            lab, sc = _data(10 + i, 30)
            sc[:6] = 0.5  # ties
            feed = {labels: lab.astype(np.int64), preds: sc,
                    weights: rng.rand(30).astype(np.float32) + 0.5}
            sess.run([plain_update, linear_update], feed)
            out[f"step_{i}"] = sess.run([list(plain), list(linear)], feed)
    return out


def case_auc_with_confidence_intervals_edges(tf):
    metrics = _metrics(tf)
    out = {}
    try:
        metrics.auc_with_confidence_intervals(tf.constant([1]), tf.constant([0.5]), alpha=1.0)
    except ValueError as e:
        out["alpha"] = str(e)
    labels = tf.placeholder(tf.int64, [None])
    preds = tf.placeholder(tf.float32, [None])
    auc, update = metrics.auc_with_confidence_intervals(labels, preds)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        feed = {labels: [1, 1], preds: [0.2, 0.3]}
        sess.run(update, feed)
        out["one_class"] = sess.run(list(auc), feed)
        feed = {labels: [0, 1, 0], preds: [0.1, 0.9, 0.2]}
        sess.run(update, feed)
        out["perfect"] = sess.run(list(auc), feed)
        try:
            sess.run(update, {labels: [0, 2], preds: [0.1, 0.9]})
        except tf.errors.InvalidArgumentError:
            out["bad_label"] = "InvalidArgumentError"
    return out


def case_recall_at_precision_strict(tf):
    metrics = _metrics(tf)
    rng = np.random.RandomState(4)
    labels = (rng.rand(2, 37) > 0.5).astype(np.int64)
    predictions = np.clip(labels * 0.3 + rng.rand(2, 37) * 0.7, 0, 1).astype(np.float32)
    lab = tf.placeholder(tf.int64, [37])
    pred = tf.placeholder(tf.float32, [37])
    made = {
        "strict": metrics.recall_at_precision(lab, pred, 0.8, strict_mode=True),
        "strict_20": metrics.recall_at_precision(lab, pred, 0.7, num_thresholds=20,
                                                 strict_mode=True),
        "unreachable": metrics.recall_at_precision(lab, pred, 1.0, strict_mode=True,
                                                   num_thresholds=7)}
    names = {k: [v[0].name, v[1].name] for k, v in made.items()}
    updates = {k: v[1] for k, v in made.items()}
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        steps = [sess.run(updates, {lab: row, pred: p}) for row, p in zip(labels, predictions)]
        return {"names": names, "steps": steps,
                "value": sess.run({k: v[0] for k, v in made.items()})}
