"""tf.contrib.predictor over a SavedModel written by tf.saved_model.simple_save and over
an Estimator: signature lookup, feeds, fetches, errors."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf

predictor = tf.contrib.predictor


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _export(path):
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    w = tf.Variable([[1.0], [2.0]], name="w")
    y = tf.identity(tf.matmul(x, w) + 0.5, name="y")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        tf.saved_model.simple_save(sess, str(path), {"x": x}, {"y": y})
    tf.reset_default_graph()


def test_from_saved_model_default_signature_and_names(tmp_path):
    _export(tmp_path / "model")
    p = predictor.from_saved_model(str(tmp_path / "model"))
    out = p({"x": np.array([[1.0, 1.0], [0.0, 2.0]], np.float32)})
    np.testing.assert_allclose(out["y"], [[3.5], [4.5]])
    assert set(p.feed_tensors) == {"x"} and p.fetch_tensors["y"].name == "y:0"
    assert p.graph is not tf.get_default_graph()
    assert "SavedModelPredictor with feed tensors" in repr(p)
    with pytest.raises(ValueError, match="unexpected keys"):
        p({"z": 1})
    by_name = predictor.from_saved_model(str(tmp_path / "model"),
                                         input_names={"in": "x:0"},
                                         output_names={"out": "y:0"})
    np.testing.assert_allclose(by_name({"in": [[1.0, 0.0]]})["out"], [[1.5]])
    with pytest.raises(ValueError, match="Available signatures are \\['serving_default'\\]"):
        predictor.from_saved_model(str(tmp_path / "model"), signature_def_key="nope")
    with pytest.raises(ValueError, match="both be specified"):
        predictor.from_saved_model(str(tmp_path / "model"), input_names={"a": "x:0"})
    with pytest.raises(ValueError, match="at most one"):
        predictor.from_saved_model(str(tmp_path / "model"), signature_def_key="a",
                                   input_names={}, output_names={})


def test_from_estimator(tmp_path):
    def model_fn(features, labels, mode):
        w = tf.get_variable("w", initializer=tf.constant([[2.0], [-1.0]]))
        pred = tf.matmul(features["x"], w)
        if mode == tf.estimator.ModeKeys.PREDICT:
            return tf.estimator.EstimatorSpec(mode, predictions={"pred": pred},
                                              export_outputs={"serving_default":
                                                              tf.estimator.export.PredictOutput(
                                                                  {"pred": pred})})
        loss = tf.reduce_mean(tf.square(pred - labels))
        train = tf.train.GradientDescentOptimizer(0.0).minimize(
            loss, global_step=tf.train.get_or_create_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    est = tf.estimator.Estimator(model_fn, model_dir=str(tmp_path))
    est.train(lambda: ({"x": tf.constant([[1.0, 1.0]])}, tf.constant([[1.0]])), steps=1)

    def serving_input_fn():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        return tf.estimator.export.ServingInputReceiver({"x": x}, {"x": x})

    p = predictor.from_estimator(est, serving_input_fn)
    np.testing.assert_allclose(p({"x": [[1.0, 3.0]]})["pred"], [[-1.0]])
    with pytest.raises(TypeError, match="from_estimator"):
        predictor.from_contrib_estimator(est, serving_input_fn)
    with pytest.raises(NotImplementedError, match="tf.contrib.learn"):
        predictor.from_contrib_estimator(object(), serving_input_fn)
