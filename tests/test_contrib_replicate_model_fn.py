"""tf.contrib.estimator.replicate_model_fn / TowerOptimizer (contrib/estimator/
replicate_model_fn.py). No TF 2.x has them (the oracle would be TF 1.15), so the checks
are their defining identities: towers over shards of a batch with MEAN reduction train,
evaluate and predict as one model over the whole batch."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf

X = np.cos(np.arange(24, dtype=np.float32)).reshape(8, 3)
Y = np.array([0, 1, 1, 0, 1, 0, 0, 1], np.int64)


def _model_fn(features, labels, mode, params):
    w = tf.get_variable("w", [3, 2], initializer=tf.constant_initializer(
        np.arange(6, dtype=np.float32).reshape(3, 2) / 10.0))
    logits = tf.matmul(features["x"], w)
    classes = tf.argmax(logits, 1)
    if mode == tf.estimator.ModeKeys.PREDICT:
        return tf.estimator.EstimatorSpec(
            mode, predictions={"classes": classes},
            export_outputs={"out": tf.estimator.export.PredictOutput({"logits": logits})})
    loss = tf.losses.sparse_softmax_cross_entropy(labels, logits)
    if mode == tf.estimator.ModeKeys.EVAL:
        return tf.estimator.EstimatorSpec(
            mode, loss=loss, eval_metric_ops={"accuracy": tf.metrics.accuracy(labels, classes)})
    optimizer = tf.train.GradientDescentOptimizer(0.5)
    if params.get("towers"):
        optimizer = tf.contrib.estimator.TowerOptimizer(optimizer)
    return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=optimizer.minimize(
        loss, tf.train.get_or_create_global_step()))


def _run(model_fn, mode, params):
    with tf.Graph().as_default():
        spec = model_fn({"x": tf.constant(X)}, tf.constant(Y), mode, params)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            if mode == tf.estimator.ModeKeys.TRAIN:
                losses = [sess.run([spec.train_op, spec.loss])[1] for _ in range(3)]
                return losses, sess.run(tf.global_variables()), spec
            if mode == tf.estimator.ModeKeys.EVAL:
                sess.run([update for _, update in spec.eval_metric_ops.values()])
                return sess.run(spec.loss), sess.run(spec.eval_metric_ops["accuracy"][0]), spec
            return (sess.run(spec.predictions),
                    sess.run(spec.export_outputs["out"].outputs["logits"]), spec)


def test_two_towers_with_mean_reduction_train_as_one_model():
    plain_losses, plain_vars, _ = _run(_model_fn, tf.estimator.ModeKeys.TRAIN, {})
    replicated = tf.contrib.estimator.replicate_model_fn(
        _model_fn, loss_reduction=tf.losses.Reduction.MEAN, devices=["/cpu:0", "/cpu:0"])
    losses, variables, spec = _run(replicated, tf.estimator.ModeKeys.TRAIN, {"towers": True})
    np.testing.assert_allclose(losses, plain_losses, rtol=1e-6)
    for got, want in zip(variables, plain_vars):
        np.testing.assert_allclose(got, want, rtol=1e-6)
    assert spec.loss.op.name == "loss"
    names = {op.name for op in spec.loss.graph.get_operations()}
    assert {"split_inputs/split", "tower_1/averaged_loss"} <= names


def test_two_towers_evaluate_and_predict_as_one_model():
    replicated = tf.contrib.estimator.replicate_model_fn(
        _model_fn, loss_reduction=tf.losses.Reduction.MEAN, devices=["/cpu:0", "/cpu:0"])
    plain_loss, plain_accuracy, _ = _run(_model_fn, tf.estimator.ModeKeys.EVAL, {})
    loss, accuracy, _ = _run(replicated, tf.estimator.ModeKeys.EVAL, {})
    np.testing.assert_allclose(loss, plain_loss, rtol=1e-6)
    assert accuracy == plain_accuracy
    plain_predictions, plain_logits, _ = _run(_model_fn, tf.estimator.ModeKeys.PREDICT, {})
    predictions, logits, _ = _run(replicated, tf.estimator.ModeKeys.PREDICT, {})
    np.testing.assert_array_equal(predictions["classes"], plain_predictions["classes"])
    np.testing.assert_allclose(logits, plain_logits, rtol=1e-6)


def test_one_device_is_the_model_fn_itself():
    replicated = tf.contrib.estimator.replicate_model_fn(_model_fn)   # the CPU here
    plain_losses, plain_vars, _ = _run(_model_fn, tf.estimator.ModeKeys.TRAIN, {})
    losses, variables, spec = _run(replicated, tf.estimator.ModeKeys.TRAIN, {"towers": True})
    np.testing.assert_array_equal(losses, plain_losses)
    assert spec.loss.op.type == "Identity" and spec.loss.op.name == "loss"
    assert all(not op.name.startswith("tower_") for op in spec.loss.graph.get_operations())


def test_towers_need_a_tower_optimizer_and_a_reduction():
    replicated = tf.contrib.estimator.replicate_model_fn(_model_fn, devices=["/cpu:0"] * 2)
    with pytest.raises(ValueError, match="wrap optimizers with TowerOptimizer"):
        _run(replicated, tf.estimator.ModeKeys.TRAIN, {})
    with pytest.raises(ValueError, match="need to be reduced"):
        tf.contrib.estimator.replicate_model_fn(_model_fn, tf.losses.Reduction.NONE)


def test_tower_optimizer_alone_is_the_wrapped_optimizer():
    plain_losses, plain_vars, _ = _run(_model_fn, tf.estimator.ModeKeys.TRAIN, {})
    losses, variables, _ = _run(_model_fn, tf.estimator.ModeKeys.TRAIN, {"towers": True})
    np.testing.assert_array_equal(losses, plain_losses)
