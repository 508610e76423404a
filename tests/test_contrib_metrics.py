"""tf.contrib.metrics' own metrics (no TF oracle: TF 2 has no contrib), checked against
formulas written here from TF 1.15's documented math; the streaming_* that are tf.metrics
have goldens (tests/golden/cases_contrib_metrics.py)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tf1compat as tf

cm = tf.contrib.metrics
RS = np.random.RandomState(3)
X1, X2 = RS.normal(size=7).astype(np.float32), RS.normal(size=5).astype(np.float32)
Y1, Y2 = (X1 * 0.5 + RS.normal(size=7)).astype(np.float32), RS.normal(size=5).astype(
    np.float32)
W1, W2 = RS.randint(1, 4, size=7).astype(np.float32), RS.randint(1, 4, size=5).astype(
    np.float32)


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _feed_stream(value, update, placeholders, batches):
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        updates = [sess.run(update, dict(zip(placeholders, batch))) for batch in batches]
        return updates, sess.run(value)


def weighted_cov(x, y, w):
    """The frequency-weighted unbiased covariance."""
    n = w.sum()
    mx, my = (w * x).sum() / n, (w * y).sum() / n
    return (w * (x - mx) * (y - my)).sum() / (n - 1)


def test_streaming_covariance_and_pearson_over_batches():
    x = tf.placeholder(tf.float32, [None])
    y = tf.placeholder(tf.float32, [None])
    w = tf.placeholder(tf.float32, [None])
    cov, cov_update = cm.streaming_covariance(x, y)
    wcov, wcov_update = cm.streaming_covariance(x, y, weights=w)
    r, r_update = cm.streaming_pearson_correlation(x, y, weights=w)
    batches = [(X1, Y1, W1), (X2, Y2, W2)]
    updates, (cov_v, wcov_v, r_v) = _feed_stream(
        [cov, wcov, r], [cov_update, wcov_update, r_update], [x, y, w], batches)
    xs, ys, ws = np.concatenate([X1, X2]), np.concatenate([Y1, Y2]), np.concatenate([W1, W2])
    ones = np.ones_like(xs)
    assert cov_v == pytest.approx(weighted_cov(xs, ys, ones), rel=1e-4)
    assert wcov_v == pytest.approx(weighted_cov(xs, ys, ws), rel=1e-4)
    assert r_v == pytest.approx(weighted_cov(xs, ys, ws) / math.sqrt(
        weighted_cov(xs, xs, ws) * weighted_cov(ys, ys, ws)), rel=1e-4)
    # Each update returns the statistic so far.
    assert updates[0][0] == pytest.approx(weighted_cov(X1, Y1, np.ones_like(X1)), rel=1e-4)
    assert updates[1][2] == pytest.approx(r_v, rel=1e-6)
    names = sorted(v.op.name for v in tf.local_variables())
    assert "covariance/comoment" in names and "covariance/mean_label" in names
    assert "pearson_r/variance_predictions/count" in names
    assert set(names) == {v.op.name for v in tf.get_collection(
        tf.GraphKeys.METRIC_VARIABLES)}
    assert r.name == "pearson_r/pearson_r:0" and cov.name == "covariance/covariance:0"


def test_streaming_covariance_is_nan_until_two_examples():
    cov, update = cm.streaming_covariance(tf.constant([1.0]), tf.constant([2.0]))
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert math.isnan(sess.run(cov))
        assert math.isnan(sess.run(update))
        assert sess.run(update) == pytest.approx(0.0)


def test_streaming_concat_axis_and_max_size():
    x = tf.placeholder(tf.int32, [None, 2])
    value, update = cm.streaming_concat(x)
    cols, cols_update = cm.streaming_concat(tf.transpose(x), axis=1)
    capped, capped_update = cm.streaming_concat(x, max_size=3)
    batches = [[np.array([[1, 2], [3, 4]])], [np.array([[5, 6]])], [np.array([[7, 8]])]]
    updates, (v, c, cap) = _feed_stream([value, cols, capped],
                                        [update, cols_update, capped_update], [x], batches)
    np.testing.assert_array_equal(v, [[1, 2], [3, 4], [5, 6], [7, 8]])
    np.testing.assert_array_equal(c, np.transpose(v))
    np.testing.assert_array_equal(cap, [[1, 2], [3, 4], [5, 6]])
    assert [u[0] for u in updates] == [2, 3, 4] and [u[2] for u in updates] == [2, 3, 3]
    assert value.get_shape().as_list() == [None, 2]
    with pytest.raises(ValueError, match="statically known"):
        cm.streaming_concat(tf.placeholder(tf.float32, [2, None]))
    with pytest.raises(ValueError, match="not in"):
        cm.streaming_concat(x, axis=2)


def roc_points(labels, preds, thresholds, eps=1e-6):
    out = []
    for t in thresholds:
        pos = preds > t
        tp = np.sum(pos & labels)
        fp = np.sum(pos & ~labels)
        fn = np.sum(~pos & labels)
        tn = np.sum(~pos & ~labels)
        out.append((fp / (fp + tn + eps), (tp + eps) / (tp + fn + eps), tp, fp, fn, tn))
    return np.array(out)


LABELS = RS.randint(0, 2, size=20).astype(bool)
PREDS = np.round(RS.uniform(size=20), 2).astype(np.float32)


def test_streaming_curve_points_and_rates():
    num = 5
    thresholds = [-1e-7] + [(i + 1) / (num - 1) for i in range(num - 2)] + [1 + 1e-7]
    points, update = cm.streaming_curve_points(LABELS, PREDS, num_thresholds=num)
    pr, pr_update = cm.streaming_curve_points(LABELS, PREDS, num_thresholds=num, curve="PR")
    fpr, fpr_update = cm.streaming_false_positive_rate(PREDS > 0.5, LABELS)
    fnr_t, fnr_t_update = cm.streaming_false_negative_rate_at_thresholds(PREDS, LABELS,
                                                                         [0.3, 0.6])
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run([update, pr_update, fpr_update, fnr_t_update])
        got, got_pr, got_fpr, got_fnr = sess.run([points, pr, fpr, fnr_t])
    want = roc_points(LABELS, PREDS, thresholds)
    np.testing.assert_allclose(got, want[:, :2], rtol=1e-5)
    tp, fp = want[:, 2], want[:, 3]
    np.testing.assert_allclose(got_pr[:, 1], (tp + 1e-6) / (tp + fp + 1e-6), rtol=1e-5)
    pos = PREDS > 0.5
    assert got_fpr == pytest.approx(np.sum(pos & ~LABELS) / np.sum(~LABELS))
    for i, t in enumerate([0.3, 0.6]):
        fn = np.sum((PREDS <= t) & LABELS)
        assert got_fnr[i] == pytest.approx(fn / (1e-7 + fn + np.sum((PREDS > t) & LABELS)))
    assert points.get_shape().as_list() == [num, 2]
    with pytest.raises(ValueError, match="curve must be either ROC or PR"):
        cm.streaming_curve_points(LABELS, PREDS, curve="XY")


def exact_auc(labels, preds, weights, curve):
    """Trapezoids between distinct predictions, highest first."""
    order = np.argsort(-preds, kind="stable")
    p, y, w = preds[order], labels[order].astype(float), weights[order]
    tps, fps, pos = [0.0], [0.0], [0.0]
    for v in np.unique(p)[::-1]:
        sel = p == v
        tps.append(tps[-1] + np.sum(w[sel] * y[sel]))
        fps.append(fps[-1] + np.sum(w[sel] * (1 - y[sel])))
        pos.append(pos[-1] + np.sum(w[sel]))
    tps, fps, pos = map(np.array, (tps, fps, pos))
    if curve == "ROC":
        xs, ys = fps / fps[-1], tps / tps[-1]
    else:
        xs = tps / tps[-1]
        ys = np.where(pos > 0, tps / np.where(pos > 0, pos, 1), 1.0)
    return np.sum((ys[1:] + ys[:-1]) / 2 * np.abs(xs[1:] - xs[:-1]))


def test_streaming_dynamic_auc_roc_pr_weights_and_ties():
    y = tf.placeholder(tf.int64, [None])
    p = tf.placeholder(tf.float32, [None])
    w = tf.placeholder(tf.float32, [None])
    roc, roc_update = cm.streaming_dynamic_auc(y, p)
    prc, prc_update = cm.streaming_dynamic_auc(y, p, curve="PR", weights=w)
    weights = RS.uniform(0.5, 2, size=20).astype(np.float32)
    batches = [(LABELS[:12], PREDS[:12], weights[:12]), (LABELS[12:], PREDS[12:], weights[12:])]
    _, (got_roc, got_pr) = _feed_stream([roc, prc], [roc_update, prc_update], [y, p, w],
                                        batches)
    assert roc.dtype == tf.float64
    assert got_roc == pytest.approx(exact_auc(LABELS, PREDS, np.ones(20), "ROC"), rel=1e-9)
    assert got_pr == pytest.approx(exact_auc(LABELS, PREDS, weights.astype(np.float64),
                                             "PR"), rel=1e-6)
    # All labels equal: 0; a label outside {0, 1} fails the update.
    _, same = _feed_stream(roc, roc_update, [y, p], [(np.ones(3, np.int64),
                                                      np.array([0.1, 0.5, 0.9]))])
    assert same == 0.0
    with pytest.raises(tf.errors.InvalidArgumentError, match="labels must be 0 or 1"):
        _feed_stream(roc, roc_update, [y, p], [(np.array([2]), np.array([0.5]))])


def test_f1_score_is_best_f1_over_thresholds():
    num = 11
    f1, update = cm.f1_score(LABELS, PREDS, num_thresholds=num)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        got = sess.run(f1)
    eps = 1e-7
    best = 0.0
    for t in [-eps] + [(i + 1) / (num - 1) for i in range(num - 2)] + [1 + eps]:
        pos = PREDS > t
        tp, fp, fn = np.sum(pos & LABELS), np.sum(pos & ~LABELS), np.sum(~pos & LABELS)
        prec, rec = tp / (eps + tp + fp), tp / (eps + tp + fn)
        best = max(best, 2 * prec * rec / (prec + rec + eps))
    assert got == pytest.approx(best, rel=1e-5)
    assert sorted(v.op.name for v in tf.local_variables()) == [
        "f1/false_negatives", "f1/false_positives", "f1/true_positives"]


def kappa(labels, preds, k, weights=None):
    table = np.zeros((k, k))
    for i, (a, b) in enumerate(zip(labels, preds)):
        table[a, b] += 1 if weights is None else weights[i]
    n = table.sum()
    po = np.trace(table)
    pe = np.sum(table.sum(0) * table.sum(1)) / n
    return (po - pe) / (n - pe)


def test_cohen_kappa_streams_and_weights():
    labels = RS.randint(0, 3, size=30)
    preds = np.where(RS.uniform(size=30) < 0.6, labels, RS.randint(0, 3, size=30))
    weights = RS.uniform(0.5, 2, size=30).astype(np.float32)
    la, pa = tf.placeholder(tf.int64, [None]), tf.placeholder(tf.int64, [None])
    wa = tf.placeholder(tf.float32, [None])
    k, update = cm.cohen_kappa(la, pa, 3)
    kw, update_w = cm.cohen_kappa(tf.expand_dims(la, 1), pa, 3, weights=wa)
    batches = [(labels[:10], preds[:10], weights[:10]), (labels[10:], preds[10:],
                                                          weights[10:])]
    _, (got, got_w) = _feed_stream([k, kw], [update, update_w], [la, pa, wa], batches)
    assert k.dtype == tf.float64
    assert got == pytest.approx(kappa(labels, preds, 3), rel=1e-9)
    assert got_w == pytest.approx(kappa(labels, preds, 3, weights), rel=1e-5)
    with pytest.raises(ValueError, match="num_classes"):
        cm.cohen_kappa(la, pa, 1)


def test_precision_recall_at_equal_thresholds():
    data, update = cm.precision_recall_at_equal_thresholds(LABELS, PREDS, num_thresholds=6)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        sess.run(update)
        got = sess.run(data)
    thresholds = np.linspace(0, 1, 6)
    np.testing.assert_allclose(got.thresholds, thresholds, rtol=1e-6)
    for i, t in enumerate(thresholds):
        # The bucket of p is floor(p * 5): a prediction counts at t when its bucket >= i.
        pos = np.floor(PREDS * np.float32(5)) >= i
        tp, fp = np.sum(pos & LABELS), np.sum(pos & ~LABELS)
        assert got.tp[i] == tp and got.fp[i] == fp
        assert got.fn[i] == np.sum(LABELS) - tp and got.tn[i] == np.sum(~LABELS) - fp
        assert got.precision[i] == pytest.approx(tp / max(1e-7, tp + fp), rel=1e-6)
        assert got.recall[i] == pytest.approx(tp / max(1e-7, np.sum(LABELS)), rel=1e-6)
    assert got.tp.dtype == np.float32
    assert sorted(v.op.name for v in tf.local_variables()) == [
        "precision_recall_at_equal_thresholds/variables/fp_buckets",
        "precision_recall_at_equal_thresholds/variables/tp_buckets"]


def test_accuracy_count_and_aggregation():
    acc = cm.accuracy(tf.constant([1, 2, 3, 4]), tf.constant([1, 0, 3, 0]))
    wacc = cm.accuracy(tf.constant([1, 2, 3, 4]), tf.constant([1, 0, 3, 0]),
                       weights=tf.constant([1.0, 1.0, 0.0, 2.0]))
    with pytest.raises(ValueError, match="same type"):
        cm.accuracy(tf.constant([1.0]), tf.constant([1]))
    n, n_update = cm.count(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    nw, nw_update = cm.count(tf.constant([1.0, 2.0]), weights=tf.constant([0.5, 2.0]))
    values, updates = cm.aggregate_metrics((n, n_update), (nw, nw_update))
    by_name = cm.aggregate_metric_map({"n": (n, n_update), "nw": (nw, nw_update)})
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        assert sess.run([acc, wacc]) == pytest.approx([0.5, 0.25])
        sess.run(updates)
        sess.run(updates)
        assert sess.run(values) == pytest.approx([8.0, 5.0])
        assert sess.run(by_name[0]) == pytest.approx({"n": 8.0, "nw": 5.0})
    with pytest.raises(ValueError, match="at least one"):
        cm.aggregate_metrics()


def test_core_aliases_and_missing_names():
    assert cm.confusion_matrix is tf.confusion_matrix
    assert cm.set_union is tf.sets.set_union
    with pytest.raises(AttributeError, match="streaming_no_such_metric"):
        cm.streaming_no_such_metric
