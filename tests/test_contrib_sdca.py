"""tf.contrib.linear_optimizer's SDCAOptimizer and the contrib.learn estimators it trains
(LinearRegressor, LinearClassifier, SVM), checked against a numpy re-computation of TF
1.15's algorithm (core/kernels/sdca_ops.cc, sdca_internal.cc, *-loss.h;
contrib/linear_optimizer/python/ops/sdca_ops.py). The ops themselves are checked against
TF in tests/golden/op_rows_sdca.py.

TF visits a batch's examples in a random order; the tests fix it to 0..n-1
(`sdca_ops._shuffled`, `sdca_ops._adaptive_order`) so the re-computation can follow the
same order."""

from __future__ import annotations

import math

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.contrib import layers, learn
from tf1compat.contrib.linear_optimizer import SDCAOptimizer, SdcaModel, SparseFeatureColumn
from tf1compat.ops import sdca_ops
from tf1compat.ops._string_hash import fingerprint128

X = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0], [-1.0, 1.5]], np.float32)
IDS = np.array([0, 2, 1, 2], np.int64)          # a sparse id per example (3 buckets)


@pytest.fixture(autouse=True)
def _in_order(monkeypatch):
    monkeypatch.setattr(sdca_ops, "_shuffled", lambda n: list(range(n)))
    monkeypatch.setattr(sdca_ops, "_adaptive_order", lambda p: list(range(len(p))))


# -- the re-computation ------------------------------------------------------------------------

def _dual(loss, label, dual, wx, norm):
    """The updated dual of one example (weight 1, one loss partition)."""
    if loss == "squared_loss":
        return dual + (label - dual - wx) / (1 + norm)
    if loss == "hinge_loss":
        candidate = dual + (label - wx) / norm
        return 0.0 if label * candidate < 0 else label if label * candidate > 1 else candidate
    x = 0.0                                        # logistic: ten Newton steps from 0
    for _ in range(10):
        t = math.tanh(x)
        num = -2 * label * x - wx - norm * (0.5 * (1 + t) / label - dual)
        den = -2 * label - norm * (1 - t * t) * 0.5 / label
        x -= num / den
    return 0.5 * (1 + math.tanh(x)) / label


def _shrink(w, s):
    return np.sign(w) * np.maximum(np.abs(w) - s, 0.0)


def _sdca_steps(features, labels, loss, steps, l1, l2):
    """`steps` SDCA passes over the whole batch (every example visited in order, as the
    tests fix the order); returns the model weights (shrinked)."""
    l2 = max(l2, 1.0)
    n, d = features.shape
    weights = np.zeros(d)                           # the unshrinked weights
    duals = np.zeros(n)
    if loss != "squared_loss":
        labels = np.where(labels > 0, 1.0, -1.0)
    for _ in range(steps):
        deltas = np.zeros(d)
        for i in range(n):
            x = features[i].astype(np.float64)
            wx = x @ _shrink(weights + deltas, l1 / l2)
            new = _dual(loss, labels[i], duals[i], wx, x @ x / l2)
            deltas += (new - duals[i]) / l2 * x
            duals[i] = new
        weights += deltas
    return _shrink(weights, l1 / l2)


def _input_fn(labels, sparse=False):
    def input_fn():
        features = {"x": tf.constant(X), "example_id": tf.constant(["a", "b", "c", "d"])}
        if sparse:
            features["ids"] = tf.SparseTensor(indices=[[i, 0] for i in range(4)],
                                              values=tf.constant(IDS), dense_shape=[4, 1])
        return features, tf.constant(labels.reshape(-1, 1))
    return input_fn


# -- estimators --------------------------------------------------------------------------------

def test_linear_regressor_sdca_matches_recomputation(tmp_path):
    labels = np.array([3.0, 0.0, 4.0, 1.0], np.float32)
    optimizer = SDCAOptimizer("example_id", symmetric_l1_regularization=0.05,
                              symmetric_l2_regularization=0.5, adaptive=False)
    est = learn.LinearRegressor(feature_columns=[layers.real_valued_column("x", dimension=2)],
                                model_dir=str(tmp_path), optimizer=optimizer)
    est.fit(input_fn=_input_fn(labels), steps=3)
    # Features in TF's order (columns sorted by key): the virtual bias column, then x.
    features = np.concatenate([np.ones((4, 1), np.float32), X], axis=1)
    expected = _sdca_steps(features, labels, "squared_loss", 3, 0.05, 0.5)
    np.testing.assert_allclose(est.get_variable_value("linear/bias_weight"), expected[:1],
                               rtol=1e-5)
    np.testing.assert_allclose(est.get_variable_value("linear/x/weight").reshape(-1),
                               expected[1:], rtol=1e-5)
    assert est.get_variable_value("global_step") == 3
    metrics = est.evaluate(input_fn=_input_fn(labels), steps=1)
    assert metrics["loss"] == pytest.approx(np.mean((features @ expected - labels) ** 2),
                                            rel=1e-5)


@pytest.mark.parametrize("svm", [False, True])
def test_linear_classifier_and_svm_sdca_match_recomputation(tmp_path, svm):
    labels = np.array([1, 0, 1, 0], np.int64)
    columns = [layers.real_valued_column("x", dimension=2),
               layers.sparse_column_with_integerized_feature("ids", bucket_size=3)]
    if svm:
        est = learn.SVM("example_id", columns, model_dir=str(tmp_path),
                        l1_regularization=0.1, l2_regularization=2.0)
    else:
        est = learn.LinearClassifier(
            feature_columns=columns, model_dir=str(tmp_path),
            optimizer=SDCAOptimizer("example_id", symmetric_l1_regularization=0.1,
                                    symmetric_l2_regularization=2.0, adaptive=False))
    est.fit(input_fn=_input_fn(labels, sparse=True), steps=2)
    one_hot = np.eye(3, dtype=np.float32)[IDS]
    # Sorted by key: "ids" (sparse), then the bias column, then "x".
    features = np.concatenate([one_hot, np.ones((4, 1), np.float32), X], axis=1)
    loss = "hinge_loss" if svm else "logistic_loss"
    expected = _sdca_steps(features, labels.astype(np.float64), loss, 2, 0.1, 2.0)
    np.testing.assert_allclose(est.get_variable_value("linear/ids/weights").reshape(-1),
                               expected[:3], rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(est.get_variable_value("linear/bias_weight"), expected[3:4],
                               rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(est.get_variable_value("linear/x/weight").reshape(-1),
                               expected[4:], rtol=1e-5, atol=1e-7)
    classes = (features @ expected > 0).astype(np.int64)
    metrics = est.evaluate(input_fn=_input_fn(labels, sparse=True), steps=1)
    assert metrics["accuracy"] == pytest.approx(np.mean(classes == labels))


def test_sdca_rejects_other_heads_and_options():
    optimizer = SDCAOptimizer("example_id")
    with pytest.raises(AssertionError, match="binary classification"):
        learn.LinearClassifier(feature_columns=[layers.real_valued_column("x")], n_classes=3,
                               optimizer=optimizer)
    with pytest.raises(ValueError, match="Kernel SVMs"):
        learn.SVM("example_id", [layers.real_valued_column("x")], kernels=["rbf"])
    with pytest.raises(NotImplementedError, match="partitioner"):
        SDCAOptimizer("example_id", partitioner=object())


# -- SdcaModel ---------------------------------------------------------------------------------

def test_sdca_model_state_table_losses_and_duality_gap():
    labels = np.array([3.0, 0.0, 4.0, 1.0], np.float32)
    with tf.Graph().as_default():
        dense = tf.Variable(tf.zeros([2]), name="dense")
        sparse = tf.Variable(tf.zeros([3]), name="sparse")
        examples = {"sparse_features": [SparseFeatureColumn(np.arange(4), IDS,
                                                                 np.ones(4, np.float32))],
                    "dense_features": [tf.constant(X)], "example_labels": tf.constant(labels),
                    "example_weights": tf.ones([4]),
                    "example_ids": tf.constant(["a", "b", "c", "d"])}
        model = SdcaModel(examples, {"sparse_features_weights": [sparse],
                                     "dense_features_weights": [dense]},
                          {"symmetric_l1_regularization": 0.0,
                           "symmetric_l2_regularization": 1.0, "loss_type": "squared_loss",
                           "adaptive": False})
        train = model.update_weights(model.minimize())
        unregularized = model.unregularized_loss(examples)
        regularized = model.regularized_loss(examples)
        gap = model.approximate_duality_gap()
        predictions = model.predictions(examples)
        keys, values = model._hashtable.export()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(2):
                sess.run(train)
            w_dense, w_sparse, loss, reg, gap_value, pred, k, v = sess.run(
                [dense, sparse, unregularized, regularized, gap, predictions, keys, values])
    features = np.concatenate([np.eye(3)[IDS], X], axis=1)
    expected = _sdca_steps(features, labels, "squared_loss", 2, 0.0, 1.0)
    np.testing.assert_allclose(np.concatenate([w_sparse, w_dense]), expected, rtol=1e-5)
    np.testing.assert_allclose(pred, features @ expected, rtol=1e-5)
    err = labels - features @ expected
    assert loss == pytest.approx(np.sum(err ** 2) / 8, rel=1e-5)
    assert reg == pytest.approx(loss + np.sum(expected ** 2) / 2 / 4, rel=1e-5)
    # One state row per example, keyed by the first word of its SdcaFprint.
    words = [fingerprint128(s.encode())[0] for s in "abcd"]
    assert sorted(k.tolist()) == sorted(np.array(words, np.uint64).view(np.int64).tolist())
    assert v.shape == (4, 4) and np.all(v[:, 3] == 1.0)
    primal, dual = v[:, 1].sum(), v[:, 2].sum()
    assert gap_value == pytest.approx((primal + dual + np.sum(expected ** 2)) / 4, rel=1e-4)


def test_adaptive_sampling_fills_every_visit(monkeypatch):
    monkeypatch.undo()
    # Only example 1 can be drawn; a visit not drawn within n rejections goes to example 0.
    order = sdca_ops._adaptive_order([0.0, 5.0, 0.0])
    assert len(order) == 3 and order[0] == 1 and set(order) <= {0, 1}
    assert sdca_ops._adaptive_order([1.0]) == [0]


def test_sdca_shrink_l1_op_in_a_cond_and_a_while_loop():
    """SdcaShrinkL1's inputs are all refs (a list), inside control-flow regions too."""
    tf.reset_default_graph()
    a = tf.Variable([1.0, -0.2, 0.5])
    b = tf.Variable([[3.0, -2.0]])

    def shrink():
        with tf.control_dependencies([tf.train.sdca_shrink_l1([a, b], l1=0.3, l2=2.0)]):
            return tf.constant(1)

    out = tf.cond(tf.constant(True), shrink, lambda: tf.constant(0))
    loop = tf.while_loop(lambda i: i < 2, lambda i: i + shrink(), [tf.constant(0)])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(out)
        np.testing.assert_allclose(sess.run(a), [.85, -.05, .35], rtol=1e-6)
        sess.run(loop)
        np.testing.assert_allclose(sess.run(b), [[2.55, -1.55]], rtol=1e-6)
    node = tf.get_default_graph().get_operation_by_name("cond/SdcaShrinkL1")
    assert node.get_attr("num_features") == 2 and node.outputs == []


def test_a_list_ref_input_must_be_the_only_input():
    from tf1compat.framework.op_def import REQUIRED, Int, declare
    with pytest.raises(ValueError, match="a list ref input must be the op's only input"):
        declare("TestListRefWithAnotherInput",
                inputs=["weights: N * Ref(float)", "x: float"],
                attrs={"N": Int(minimum=0), "l1": REQUIRED}, shape=lambda ctx: [],
                kernel=None)
