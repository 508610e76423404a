"""tf.contrib.learn's canned Estimators (TF 1.15's contrib/learn/python/learn/estimators/
dnn.py, linear.py, dnn_linear_combined.py, head.py, and learn/metric_spec.py).

TF 1.15 is not installable: variable names, metric and prediction keys are checked
against the TF 1.15 sources (cited per test); the training numerics are compared with
TF 2.15's core canned Estimators in tests/golden/cases_contrib_learn_canned.py.
"""

import os
import subprocess
import sys

import numpy as np
import pytest

import tf1compat as tf
from tests.child_env import child_env

learn = tf.contrib.learn
layers = tf.contrib.layers

RNG = np.random.RandomState(5)
X = RNG.rand(20, 3).astype(np.float32)
Y2 = (X.sum(1) > 1.5).astype(np.int64)
Y3 = (X[:, 0] * 3).astype(np.int64)
YR = (X @ np.array([1., -2., .5], np.float32)).astype(np.float32)
COLUMNS = [layers.real_valued_column("", dimension=3)]
CONFIG = learn.RunConfig(tf_random_seed=1)


def test_dnn_classifier_variables_metrics_and_predictions(tmp_path):
    est = learn.DNNClassifier(hidden_units=[4, 3], feature_columns=COLUMNS, n_classes=3,
                              model_dir=str(tmp_path), config=CONFIG)
    est.fit(x=X, y=Y3, steps=3)
    # dnn.py: fully_connected layers in dnn/hiddenlayer_<i> and dnn/logits (contrib's
    # weights/biases); optimize_loss(name="dnn") inside the head's variable scope
    # (dnn/multi_class_head) creates `learning_rate` and the Adagrad slots there.
    assert sorted(est.get_variable_names()) == sorted(
        ["global_step", "dnn/multi_class_head/dnn/learning_rate"]
        + [f"dnn/{layer}/{kind}" for layer in ("hiddenlayer_0", "hiddenlayer_1", "logits")
           for kind in ("weights", "biases")]
        + [f"dnn/multi_class_head/dnn/dnn/{layer}/{kind}/Adagrad"
           for layer in ("hiddenlayer_0", "hiddenlayer_1", "logits")
           for kind in ("weights", "biases")])
    assert est.get_variable_value("dnn/hiddenlayer_0/weights").shape == (3, 4)
    assert est.get_variable_value("dnn/multi_class_head/dnn/learning_rate") == \
        pytest.approx(0.05)
    # head.py _MultiClassHead._metrics: loss and accuracy (no metric_class_ids).
    metrics = est.evaluate(x=X, y=Y3)
    assert sorted(metrics) == ["accuracy", "global_step", "loss"]
    assert metrics["global_step"] == 3
    # _MultiClassHead._logits_to_predictions: logits, probabilities, classes.
    full = est.predict(x=X[:4], outputs=["logits", "probabilities", "classes"],
                       as_iterable=False)
    assert full["logits"].shape == (4, 3) and full["classes"].shape == (4,)
    np.testing.assert_allclose(full["probabilities"].sum(1), 1., rtol=1e-6)
    np.testing.assert_array_equal(full["classes"], full["logits"].argmax(1))
    np.testing.assert_array_equal(list(est.predict(x=X[:4])), full["classes"])
    np.testing.assert_array_equal(est.predict_classes(x=X[:4], as_iterable=False),
                                  full["classes"])
    np.testing.assert_allclose(np.stack(list(est.predict_proba(x=X[:4]))),
                               full["probabilities"], rtol=1e-6)
    expected_accuracy = np.mean(est.predict_classes(x=X, as_iterable=False) == Y3)
    assert metrics["accuracy"] == pytest.approx(expected_accuracy)


def test_binary_head_metric_keys_and_weighted_loss(tmp_path):
    weights = np.linspace(0.5, 2., len(X)).astype(np.float32)
    est = learn.DNNClassifier(hidden_units=[3], feature_columns=[
        layers.real_valued_column("x", dimension=3)], weight_column_name="w",
        model_dir=str(tmp_path), config=CONFIG)
    features = {"x": X, "w": weights[:, None]}

    def input_fn(epochs):
        # [batch, 1] labels: TF's metrics cannot broadcast [batch, 1] weights to [batch].
        return tf.estimator.inputs.numpy_input_fn(features, Y2[:, None], batch_size=len(X),
                                                  num_epochs=epochs, shuffle=False)
    est.fit(input_fn=input_fn(None), steps=2)
    metrics = est.evaluate(input_fn=input_fn(1))
    # head.py _BinaryLogisticHead._metrics with the default threshold 0.5 (MetricKey).
    assert sorted(metrics) == sorted([
        "loss", "accuracy", "labels/prediction_mean", "labels/actual_label_mean",
        "accuracy/baseline_label_mean", "auc", "auc_precision_recall",
        "accuracy/threshold_0.500000_mean", "precision/positive_threshold_0.500000_mean",
        "recall/positive_threshold_0.500000_mean", "global_step"])
    preds = est.predict(x=features, outputs=["logits", "logistic", "probabilities",
                                             "classes"], as_iterable=False)
    logits = preds["logits"][:, 0]
    np.testing.assert_allclose(preds["logistic"][:, 0], 1 / (1 + np.exp(-logits)), rtol=1e-5)
    # _compute_weighted_loss: the reported loss is sum(w * l) / sum(w).
    losses = np.maximum(logits, 0) - logits * Y2 + np.log1p(np.exp(-np.abs(logits)))
    assert metrics["loss"] == pytest.approx(np.sum(weights * losses) / weights.sum(),
                                            rel=1e-4)
    assert metrics["labels/actual_label_mean"] == pytest.approx(
        np.sum(weights * Y2) / weights.sum(), rel=1e-5)
    assert metrics["accuracy/baseline_label_mean"] == metrics["labels/actual_label_mean"]


def test_regressors_scores_metricspec_and_bare_metric_functions(tmp_path):
    est = learn.LinearRegressor(feature_columns=COLUMNS, model_dir=str(tmp_path))
    est.fit(x=X, y=YR, steps=4)
    # linear.py: weighted_sum_from_feature_columns in the `linear` scope (the column ''
    # gives linear//weight), FTRL slots created in the head's variable scope.
    assert sorted(est.get_variable_names()) == sorted([
        "global_step", "linear//weight", "linear/bias_weight",
        "linear/regression_head/linear//weight/Ftrl",
        "linear/regression_head/linear//weight/Ftrl_1",
        "linear/regression_head/linear/bias_weight/Ftrl",
        "linear/regression_head/linear/bias_weight/Ftrl_1"])
    scores = est.predict_scores(x=X, as_iterable=False)
    np.testing.assert_allclose(scores, list(est.predict(x=X)), rtol=1e-6)
    w = est.get_variable_value("linear//weight")
    b = est.get_variable_value("linear/bias_weight")
    np.testing.assert_allclose(scores, (X @ w + b)[:, 0], rtol=1e-5)
    metrics = est.evaluate(x=X, y=YR, metrics={
        "mae": learn.MetricSpec(tf.metrics.mean_absolute_error, prediction_key="scores"),
        "rmse": tf.metrics.root_mean_squared_error,  # DNNRegressor/LinearRegressor: scores
    })
    assert sorted(metrics) == ["global_step", "loss", "mae", "rmse"]
    assert metrics["loss"] == pytest.approx(np.mean((scores - YR) ** 2), rel=1e-4)
    assert metrics["mae"] == pytest.approx(np.mean(np.abs(scores - YR)), rel=1e-4)
    assert metrics["rmse"] == pytest.approx(np.sqrt(metrics["loss"]), rel=1e-4)
    dnn = learn.DNNRegressor(hidden_units=[2], feature_columns=COLUMNS, label_dimension=1,
                             model_dir=str(tmp_path / "dnn"), config=CONFIG)
    dnn.fit(x=X, y=YR, steps=1)
    assert len(list(dnn.predict_scores(x=X[:3]))) == 3


def test_metric_spec_argument_matching():
    def fn(predictions, labels, weights=None):
        return predictions, labels, weights
    spec = learn.MetricSpec(fn, prediction_key="p", label_key="l", weight_key="w")
    assert str(spec) == "MetricSpec(metric_fn=fn, prediction_key=p, label_key=l, weight_key=w)"
    assert spec.create_metric_ops({"w": 3}, {"l": 2}, {"p": 1}) == (1, 2, 3)
    positional = learn.MetricSpec(lambda labels, preds: (labels, preds))
    assert positional.create_metric_ops({}, "L", "P") == ("L", "P")
    with pytest.raises(ValueError, match="requires predictions tensor or single element"):
        learn.MetricSpec(fn).create_metric_ops({}, 1, {"a": 1, "b": 2})
    with pytest.raises(KeyError, match="Key 'q' missing"):
        learn.MetricSpec(fn, prediction_key="q").create_metric_ops({}, 1, {"p": 1})


def test_linear_classifier_label_keys_and_centered_bias(tmp_path):
    # str items in object arrays are fed as TF fed them (as text).
    labels = np.array([["lo", "mid", "hi"][i] for i in Y3], dtype=object)
    est = learn.LinearClassifier(feature_columns=COLUMNS, n_classes=3,
                                 label_keys=["lo", "mid", "hi"], enable_centered_bias=True,
                                 model_dir=str(tmp_path))
    est.fit(x=X, y=labels, steps=2)
    names = est.get_variable_names()
    # head.py _centered_bias: `centered_bias_weight` in the head's scope, trained by its
    # own Adagrad(0.1) step (slot under the head's scope + the variable's name).
    assert "linear/multi_class_head/centered_bias_weight" in names
    assert ("linear/multi_class_head/linear/multi_class_head/centered_bias_weight/Adagrad"
            in names)
    assert set(est.predict_classes(x=X, as_iterable=False)) <= {b"lo", b"mid", b"hi"}
    assert est.evaluate(x=X, y=labels)["accuracy"] >= 0


def test_dnn_linear_combined_global_step_increment_bug(tmp_path):
    # dnn_linear_combined.py: fix_global_step_increment_bug=False (the classes' default)
    # lets both optimize_loss calls increment the global step.
    kwargs = dict(linear_feature_columns=COLUMNS, dnn_feature_columns=COLUMNS,
                  dnn_hidden_units=[2], config=CONFIG)
    buggy = learn.DNNLinearCombinedClassifier(model_dir=str(tmp_path / "a"), **kwargs)
    buggy.fit(x=X, y=Y2, steps=3)
    assert buggy.evaluate(x=X, y=Y2)["global_step"] == 4  # 2, 4: stops once >= 3
    fixed = learn.DNNLinearCombinedRegressor(model_dir=str(tmp_path / "b"),
                                             fix_global_step_increment_bug=True, **kwargs)
    fixed.fit(x=X, y=YR, steps=3)
    assert fixed.evaluate(x=X, y=YR)["global_step"] == 3
    names = fixed.get_variable_names()
    assert {"dnn/hiddenlayer_0/weights", "dnn/logits/biases", "linear//weight",
            "linear/bias_weight", "regression_head/dnn/learning_rate",
            "regression_head/linear/learning_rate"} <= set(names)
    with pytest.raises(ValueError, match="Either linear_feature_columns or dnn_feature"):
        learn.DNNLinearCombinedClassifier()


def test_infer_columns_and_unsupported():
    columns = learn.infer_real_valued_columns_from_input(X.astype(np.float64))
    assert [(c.name, c.dimension, c.dtype) for c in columns] == [("", 3, tf.float64)]
    columns = learn.infer_real_valued_columns_from_input_fn(
        lambda: ({"a": tf.zeros([2, 5])}, None))
    assert [(c.name, c.dimension) for c in columns] == [("a", 5)]

    with pytest.raises(ValueError, match="n_classes must be > 1"):
        learn.DNNClassifier(hidden_units=[2], feature_columns=COLUMNS, n_classes=1)


def test_evaluate_feed_fn_feeds_each_step(tmp_path):
    est = learn.LinearRegressor(feature_columns=COLUMNS, model_dir=str(tmp_path))
    est.fit(x=X, y=YR, steps=1)
    holder = {}

    def input_fn():
        holder["x"] = tf.placeholder(tf.float32, [None, 3])
        holder["y"] = tf.placeholder(tf.float32, [None])
        return holder["x"], holder["y"]
    fed = est.evaluate(input_fn=input_fn, steps=1,
                       feed_fn=lambda: {holder["x"]: X, holder["y"]: YR})
    assert fed["loss"] == pytest.approx(est.evaluate(x=X, y=YR)["loss"], rel=1e-5)
    with pytest.raises(ValueError, match="feed_fn can only be given with input_fn"):
        est.evaluate(x=X, y=YR, feed_fn=lambda: {})


def test_legacy_import_paths():
    code = """
import tf1compat
tf1compat.install()
import tensorflow as tf
from tensorflow.contrib.learn.python.learn.estimators import dnn, linear, head
from tensorflow.contrib.learn.python.learn.estimators import dnn_linear_combined
from tensorflow.contrib.learn.python.learn.metric_spec import MetricSpec
from tensorflow.contrib.layers.python.layers import feature_column, feature_column_ops
assert dnn.DNNClassifier is tf.contrib.learn.DNNClassifier
assert linear.LinearRegressor is tf.contrib.learn.LinearRegressor
assert dnn_linear_combined.DNNLinearCombinedClassifier is \\
    tf.contrib.learn.DNNLinearCombinedClassifier
assert head.multi_class_head is tf.contrib.learn.multi_class_head
assert MetricSpec is tf.contrib.learn.MetricSpec
assert feature_column.embedding_column is tf.contrib.layers.embedding_column
assert feature_column_ops.input_from_feature_columns is \\
    tf.contrib.layers.input_from_feature_columns
print("ok")
"""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=root, env=child_env(), timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "ok"
