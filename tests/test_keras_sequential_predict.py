"""`Sequential.predict_classes` / `predict_proba`: TF 1.x's and Keras 2.2.4's (removed in
TF 2.6, so tf-keras 2.21 cannot record them; addition_rnn and other Keras examples call
them). The oracle is `predict`'s output and TF 1.15's rule: the argmax of the last axis,
or for one output unit the int32 `p > 0.5`."""

from __future__ import annotations

import logging

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    tf.keras.backend.clear_session()
    yield
    tf.keras.backend.clear_session()


def _model(units: int, activation: str) -> tf.keras.Sequential:
    tf.set_random_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.Dense(units, activation=activation,
                                                       input_shape=(3,))])
    model.compile("sgd", "mse")
    return model


def test_predict_classes_argmax_of_last_axis():
    x = np.random.RandomState(0).randn(7, 3).astype(np.float32)
    model = _model(4, "softmax")
    classes = model.predict_classes(x, batch_size=2)
    np.testing.assert_array_equal(classes, model.predict(x).argmax(axis=-1))
    assert classes.shape == (7,)


def test_predict_classes_one_unit_thresholds_at_half():
    x = np.random.RandomState(1).randn(9, 3).astype(np.float32)
    model = _model(1, "sigmoid")
    classes = model.predict_classes(x)
    assert classes.dtype == np.int32 and classes.shape == (9, 1)
    np.testing.assert_array_equal(classes, (model.predict(x) > 0.5).astype(np.int32))


def test_predict_classes_on_time_steps():
    """addition_rnn's decoder: one class per time step."""
    model = tf.keras.Sequential([
        tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(5), input_shape=(4, 3)),
        tf.keras.layers.Activation("softmax")])
    x = np.random.RandomState(2).randn(2, 4, 3).astype(np.float32)
    classes = model.predict_classes(x, verbose=0)
    assert classes.shape == (2, 4)
    np.testing.assert_array_equal(classes, model.predict(x).argmax(axis=-1))


def test_predict_proba_warns_outside_unit_interval(caplog):
    x = np.random.RandomState(3).randn(5, 3).astype(np.float32) * 10
    with caplog.at_level(logging.WARNING):
        probabilities = _model(2, "softmax").predict_proba(x)
    assert not [r for r in caplog.records if "invalid probability" in r.getMessage()]
    np.testing.assert_allclose(probabilities.sum(axis=-1), 1.0, rtol=1e-6)
    with caplog.at_level(logging.WARNING):
        _model(2, None).predict_proba(x)
    assert [r for r in caplog.records if "invalid probability" in r.getMessage()]
