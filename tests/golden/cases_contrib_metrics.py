"""Golden cases: the tf.contrib.metrics streaming_* that TF 1.15 defines as tf.metrics
calls (most with predictions before labels). Recorded under TF 2.21, where contrib is
gone, through `tf.metrics` with the arguments TF 1.15's wrappers pass; replayed through
`tf.contrib.metrics` — values after two updates, tensor and variable names, collections."""

import numpy as np

from tests.golden.harness import catch

RS = np.random.RandomState(11)
LABELS = RS.randint(0, 2, size=(6, 2)).astype(np.int64)
PROBS = RS.uniform(size=(6, 2)).astype(np.float32)
WEIGHTS = RS.uniform(0.5, 2.0, size=(6, 2)).astype(np.float32)
SCORES = RS.uniform(size=(6, 4)).astype(np.float32)
CLASS_IDS = np.array([3, 1, 0, 2, 2, 1], np.int64)
MULTI_LABELS = np.array([[3, 1], [2, 0], [1, 3], [0, 0], [2, 3], [1, 1]], np.int64)


class _FromCore:
    """TF 1.15's tf.contrib.metrics wrappers spelled as the tf.metrics calls they make."""

    def __init__(self, tf):
        self.m = tf.metrics
        self.tf = tf

    def __getattr__(self, name):
        pairs = {"streaming_true_positives": "true_positives",
                 "streaming_true_negatives": "true_negatives",
                 "streaming_false_positives": "false_positives",
                 "streaming_false_negatives": "false_negatives",
                 "streaming_accuracy": "accuracy", "streaming_precision": "precision",
                 "streaming_recall": "recall",
                 "streaming_mean_absolute_error": "mean_absolute_error",
                 "streaming_mean_squared_error": "mean_squared_error",
                 "streaming_root_mean_squared_error": "root_mean_squared_error"}
        if name in pairs:
            core = getattr(self.m, pairs[name])
            return lambda predictions, labels, weights=None, **kw: core(
                labels=labels, predictions=predictions, weights=weights, **kw)
        raise AttributeError(name)

    def streaming_mean(self, values, weights=None, **kw):
        return self.m.mean(values, weights, **kw)

    def streaming_mean_tensor(self, values, weights=None, **kw):
        return self.m.mean_tensor(values, weights, **kw)

    def streaming_auc(self, predictions, labels, weights=None, num_thresholds=200, **kw):
        return self.m.auc(labels=labels, predictions=predictions, weights=weights,
                          num_thresholds=num_thresholds, **kw)

    def streaming_precision_at_thresholds(self, predictions, labels, thresholds, **kw):
        return self.m.precision_at_thresholds(labels=labels, predictions=predictions,
                                              thresholds=thresholds, **kw)

    def streaming_recall_at_thresholds(self, predictions, labels, thresholds, **kw):
        return self.m.recall_at_thresholds(labels=labels, predictions=predictions,
                                           thresholds=thresholds, **kw)

    def streaming_true_positives_at_thresholds(self, predictions, labels, thresholds,
                                               weights=None):
        return self.m.true_positives_at_thresholds(labels=labels, predictions=predictions,
                                                   thresholds=thresholds, weights=weights)

    def streaming_false_negatives_at_thresholds(self, predictions, labels, thresholds,
                                                weights=None):
        return self.m.false_negatives_at_thresholds(labels=labels, predictions=predictions,
                                                    thresholds=thresholds, weights=weights)

    def streaming_mean_iou(self, predictions, labels, num_classes, weights=None, **kw):
        return self.m.mean_iou(labels=labels, predictions=predictions,
                               num_classes=num_classes, weights=weights, **kw)

    def streaming_percentage_less(self, values, threshold, weights=None, **kw):
        return self.m.percentage_below(values=values, threshold=threshold, weights=weights,
                                       **kw)

    def streaming_mean_relative_error(self, predictions, labels, normalizer, **kw):
        return self.m.mean_relative_error(labels=labels, predictions=predictions,
                                          normalizer=normalizer, **kw)

    def streaming_mean_cosine_distance(self, predictions, labels, dim, **kw):
        return self.m.mean_cosine_distance(labels=labels, predictions=predictions, dim=dim,
                                           **kw)

    def streaming_specificity_at_sensitivity(self, predictions, labels, sensitivity, **kw):
        return self.m.specificity_at_sensitivity(labels=labels, predictions=predictions,
                                                 sensitivity=sensitivity, **kw)

    def streaming_sparse_precision_at_k(self, predictions, labels, k, **kw):
        return self.m.sparse_precision_at_k(labels=labels, predictions=predictions, k=k,
                                            **kw)

    def streaming_sparse_recall_at_k(self, predictions, labels, k, **kw):
        return self.m.recall_at_k(labels=labels, predictions=predictions, k=k, **kw)

    def streaming_sparse_precision_at_top_k(self, top_k_predictions, labels, **kw):
        return self.m.precision_at_top_k(labels=labels, predictions_idx=top_k_predictions,
                                         **kw)

    def sparse_recall_at_top_k(self, labels, top_k_predictions, **kw):
        return self.m.recall_at_top_k(labels=labels, predictions_idx=top_k_predictions, **kw)

    def streaming_sparse_average_precision_at_k(self, predictions, labels, k, **kw):
        return self.m.sparse_average_precision_at_k(labels=labels, predictions=predictions,
                                                    k=k, **kw)

    def streaming_recall_at_k(self, predictions, labels, k, weights=None, name=None):
        hits = self.tf.cast(self.tf.nn.in_top_k(predictions, labels, k), self.tf.float32)
        return self.m.mean(hits, weights, name=name or "recall_at_%d" % k)


def _contrib_metrics(tf):
    contrib = getattr(tf, "contrib", None)
    return contrib.metrics if contrib is not None else _FromCore(tf)


def _stream(tf, pairs, steps=2):
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        updates = [sess.run([p[1] for p in pairs]) for _ in range(steps)]
        return updates, sess.run([p[0] for p in pairs])


def _report(tf, pairs):
    keys = sorted(pairs)
    updates, values = _stream(tf, [pairs[k] for k in keys])
    return {"updates": updates, "values": dict(zip(keys, values)),
            "names": {k: [pairs[k][0].name, pairs[k][1].name] for k in keys},
            "local": sorted(v.op.name for v in tf.local_variables()),
            "metric_vars": sorted(v.op.name for v in tf.get_collection(
                tf.GraphKeys.METRIC_VARIABLES))}


def case_counts_and_ratios(tf):
    cm = _contrib_metrics(tf)
    labels, preds = tf.constant(LABELS), tf.constant(PROBS > 0.5)
    weights = tf.constant(WEIGHTS)
    pairs = {
        "tp": cm.streaming_true_positives(preds, labels),
        "tn": cm.streaming_true_negatives(preds, labels, weights=weights),
        "fp": cm.streaming_false_positives(preds, labels, name="my_fp"),
        "fn": cm.streaming_false_negatives(preds, labels),
        "acc": cm.streaming_accuracy(tf.cast(preds, tf.int64), labels,
                                     metrics_collections=["m"], updates_collections=["u"]),
        "precision": cm.streaming_precision(preds, labels, weights=weights),
        "recall": cm.streaming_recall(preds, labels),
    }
    out = _report(tf, pairs)
    out["collections"] = [[t.name for t in tf.get_collection("m")],
                          [t.name for t in tf.get_collection("u")]]
    return out


def case_means_and_errors(tf):
    cm = _contrib_metrics(tf)
    labels, preds = tf.constant(PROBS), tf.constant(PROBS[::-1].copy())
    pairs = {
        "mean": cm.streaming_mean(tf.constant(SCORES)),
        "mean_w": cm.streaming_mean(labels, weights=tf.constant(WEIGHTS)),
        "mean_tensor": cm.streaming_mean_tensor(labels),
        "mae": cm.streaming_mean_absolute_error(preds, labels),
        "mse": cm.streaming_mean_squared_error(preds, labels, weights=tf.constant(WEIGHTS)),
        "rmse": cm.streaming_root_mean_squared_error(preds, labels),
        "mre": cm.streaming_mean_relative_error(preds, labels, normalizer=labels + 1.0),
        "less": cm.streaming_percentage_less(labels, 0.4),
        "cos": cm.streaming_mean_cosine_distance(tf.nn.l2_normalize(preds, 1),
                                                 tf.nn.l2_normalize(labels, 1), dim=1),
        "iou": cm.streaming_mean_iou(tf.constant(CLASS_IDS), tf.constant(CLASS_IDS[::-1]),
                                     num_classes=4),
    }
    return _report(tf, pairs)


def case_thresholds_and_auc(tf):
    cm = _contrib_metrics(tf)
    labels, probs = tf.constant(LABELS), tf.constant(PROBS)
    pairs = {
        "auc": cm.streaming_auc(probs, labels),
        "auc_pr": cm.streaming_auc(probs, labels, num_thresholds=50, curve="PR"),
        "p_at_t": cm.streaming_precision_at_thresholds(probs, labels, [0.25, 0.5, 0.75]),
        "r_at_t": cm.streaming_recall_at_thresholds(probs, labels, [0.25, 0.5, 0.75],
                                                    weights=tf.constant(WEIGHTS)),
        "tp_at_t": cm.streaming_true_positives_at_thresholds(probs, labels, [0.3, 0.6]),
        "fn_at_t": cm.streaming_false_negatives_at_thresholds(probs, labels, [0.3, 0.6]),
        "spec": cm.streaming_specificity_at_sensitivity(probs, labels, 0.6),
    }
    out = _report(tf, pairs)
    out["auc_curve"] = catch(lambda: cm.streaming_auc(probs, labels, curve="XY"))
    return out


def case_at_k(tf):
    cm = _contrib_metrics(tf)
    scores = tf.constant(SCORES)
    pairs = {
        "recall_at_2": cm.streaming_recall_at_k(scores, tf.constant(CLASS_IDS), 2),
        "sparse_p": cm.streaming_sparse_precision_at_k(scores, tf.constant(MULTI_LABELS), 2),
        "sparse_r": cm.streaming_sparse_recall_at_k(scores, tf.constant(MULTI_LABELS), 3,
                                                    class_id=1),
        "p_top": cm.streaming_sparse_precision_at_top_k(
            tf.constant([[3, 1], [0, 2], [1, 0], [2, 3], [0, 1], [1, 3]]),
            tf.constant(MULTI_LABELS)),
        "r_top": cm.sparse_recall_at_top_k(
            tf.constant(MULTI_LABELS),
            tf.constant([[3, 1], [0, 2], [1, 0], [2, 3], [0, 1], [1, 3]])),
        "ap": cm.streaming_sparse_average_precision_at_k(scores, tf.constant(MULTI_LABELS),
                                                         3),
    }
    return _report(tf, pairs)
