"""Golden cases: `tf.contrib.learn`'s `multi_label_head` and `multi_head` (TF 1.15's
contrib/learn/python/learn/estimators/head.py).

TF 1.15 (which had contrib) is not installable, so the oracle is TF 2.15: where
tensorflow-estimator 2.15 has the same head (`tf.estimator.MultiLabelHead`,
`tf.estimator.MultiHead` over `MultiClassHead`/`RegressionHead`) its training loss,
average loss and ROC AUC are recorded - they are contrib's training loss, `loss` metric and
`auc` (contrib: mean(weight * loss) over all logits; the weighted average over the batch);
contrib's other metrics (`accuracy`, the trapezoidal `auc_precision_recall`, per-class
means) are TF 1.15's formulas run with TF 2.15's `tf.compat.v1.metrics`. Contrib's metric
keys are tested against the TF 1.15 sources in tests/test_contrib_learn_heads.py.
"""

import numpy as np

from tests.golden.harness import tolerance

TF_VERSION = "2.15"

_RNG = np.random.RandomState(3)
_LOGITS = _RNG.uniform(-2., 2., (8, 3)).astype(np.float32)
_MULTI_HOT = (_RNG.rand(8, 3) > .5).astype(np.int64)
_W = _RNG.uniform(.5, 2., (8,)).astype(np.float32)
_CLS3 = _RNG.randint(0, 3, (8,)).astype(np.int64)
_REG = _RNG.uniform(-1., 1., (8,)).astype(np.float32)


def _contrib(tf):
    return hasattr(tf, "contrib")


def _run_metrics(tf, metric_ops, extra):
    """Values of `metric_ops` (value, update) after one update, and of `extra` tensors."""
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([update for _, update in metric_ops.values()])
        return sess.run(({k: value for k, (value, _) in metric_ops.items()}, extra))


def _v2_eval(tf, head, features, labels, logits):
    """A tf.estimator v2 head's EVAL metrics and training loss (graph mode)."""
    spec = head.create_estimator_spec(features=features, mode="eval", logits=logits,
                                      labels=labels)
    loss = head.loss(labels=labels, logits=logits, features=features, mode="eval")
    metric_ops = spec.eval_metric_ops
    with tf.Session() as sess:
        sess.run([tf.local_variables_initializer(), tf.global_variables_initializer()])
        sess.run([update for _, update in metric_ops.values()])
        return sess.run(({k: value for k, (value, _) in metric_ops.items()}, loss))


@tolerance(rtol=1e-5, atol=1e-5)
def case_multi_label_head_eval(tf):
    """Contrib multi_label_head EVAL metrics with example weights and a per-class id."""
    logits = tf.constant(_LOGITS)
    labels = tf.constant(_MULTI_HOT)
    features = {"w": tf.constant(_W)}
    if _contrib(tf):
        head = tf.contrib.learn.multi_label_head(3, weight_column_name="w",
                                                 metric_class_ids=[1])
        ops = head.create_model_fn_ops(features, "eval", labels, logits=logits)
        metrics, loss = _run_metrics(tf, ops.eval_metric_ops, ops._training_loss)
        return {"training_loss": loss, "loss": metrics["loss"], "auc": metrics["auc"],
                "accuracy": metrics["accuracy"],
                "auc_precision_recall": metrics["auc_precision_recall"],
                "class1": [metrics[k % 1] for k in (
                    "labels/prediction_mean/class%d", "labels/actual_label_mean/class%d",
                    "labels/probability_mean/class%d", "labels/logits_mean/class%d",
                    "auc/class%d", "auc_precision_recall/class%d")]}
    import tensorflow as tf2
    v2 = tf2.estimator.MultiLabelHead(3, weight_column="w")
    v2_metrics, loss = _v2_eval(tf, v2, features, labels, logits)
    # TF 1.15's formulas for what the v2 head does not report.
    w = tf.broadcast_to(tf.reshape(features["w"], (-1, 1)), (8, 3))
    probabilities = tf.sigmoid(logits)
    classes = tf.cast(logits > 0, tf.int64)
    fl = tf.cast(labels, tf.float32)
    ops = {"accuracy": tf.metrics.accuracy(labels, classes, w),
           "auc_precision_recall": tf.metrics.auc(tf.cast(labels, tf.bool), probabilities, w,
                                                  curve="PR"),
           "c0": tf.metrics.mean(tf.cast(classes, tf.float32)[:, 1], w[:, 1]),
           "c1": tf.metrics.mean(fl[:, 1], w[:, 1]),
           "c2": tf.metrics.mean(probabilities[:, 1], w[:, 1]),
           "c3": tf.metrics.mean(logits[:, 1], w[:, 1]),
           "c4": tf.metrics.auc(tf.cast(labels, tf.bool)[:, 1], probabilities[:, 1], w[:, 1]),
           "c5": tf.metrics.auc(tf.cast(labels, tf.bool)[:, 1], probabilities[:, 1], w[:, 1],
                                curve="PR")}
    metrics, _ = _run_metrics(tf, ops, logits)
    return {"training_loss": loss, "loss": v2_metrics["average_loss"], "auc": v2_metrics["auc"],
            "accuracy": metrics["accuracy"],
            "auc_precision_recall": metrics["auc_precision_recall"],
            "class1": [metrics[f"c{i}"] for i in range(6)]}


def _multi_head_inputs(tf):
    logits = tf.Variable(_LOGITS.repeat(2, axis=1)[:, :4], name="logits")
    labels = {"a": tf.constant(_CLS3), "r": tf.constant(_REG)}
    return logits, labels


@tolerance(rtol=1e-5, atol=1e-5)
def case_multi_head_train_and_eval(tf):
    """A weighted multi head (3-class softmax "a" + regression "r" on one [8, 4] logits
    tensor): merged loss, per-head EVAL metrics and one gradient step on the logits."""
    logits, labels = _multi_head_inputs(tf)
    if _contrib(tf):
        learn = tf.contrib.learn
        head = learn.multi_head([learn.multi_class_head(3, label_name="a", head_name="a"),
                                 learn.regression_head(label_name="r", head_name="r")],
                                loss_weights=[1., .5])
        train = head.create_model_fn_ops(
            {}, "train", labels, logits=logits,
            train_op_fn=lambda loss: tf.train.GradientDescentOptimizer(.5).minimize(loss))
        ev = head.create_model_fn_ops({}, "eval", labels, logits=logits)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            sess.run([update for _, update in ev.eval_metric_ops.values()])
            metrics = sess.run({k: v for k, (v, _) in ev.eval_metric_ops.items()})
            loss_before, _ = sess.run([train.loss, train.train_op])
            after = sess.run(logits)
        return {"loss": loss_before, "accuracy/a": metrics["accuracy/a"],
                "average_loss/a": metrics["loss/a"], "average_loss/r": metrics["loss/r"],
                "logits_after_step": after}
    import tensorflow as tf2
    est = tf2.estimator
    head = est.MultiHead([est.MultiClassHead(3, name="a"), est.RegressionHead(name="r")],
                         head_weights=[1., .5])
    split = {"a": logits[:, :3], "r": logits[:, 3:]}
    loss = head.loss(labels=labels, logits=split, features={}, mode="train")
    train_op = tf.train.GradientDescentOptimizer(.5).minimize(loss)
    spec = head.create_estimator_spec(features={}, mode="eval", logits=split, labels=labels)
    with tf.Session() as sess:
        sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
        sess.run([update for _, update in spec.eval_metric_ops.values()])
        metrics = sess.run({k: v for k, (v, _) in spec.eval_metric_ops.items()})
        loss_before, _ = sess.run([loss, train_op])
        after = sess.run(logits)
    return {"loss": loss_before, "accuracy/a": metrics["accuracy/a"],
            "average_loss/a": metrics["average_loss/a"],
            "average_loss/r": metrics["average_loss/r"], "logits_after_step": after}
