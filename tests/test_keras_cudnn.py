"""CuDNNLSTM / CuDNNGRU compute cuDNN's equations (TF itself needs a GPU to run them; names,
shapes and configs are goldens in tests/golden/cases_keras_cudnn.py): a numpy reference
of cuDNN's LSTM and GRU over random weights, states returned, go_backwards, and a model
that saves to .h5 and loads back."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf

K = tf.keras


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def _lstm_reference(x, kernel, recurrent, bias, units):
    h = np.zeros((x.shape[0], units))
    c = np.zeros_like(h)
    b = bias[:4 * units] + bias[4 * units:]
    outputs = []
    for t in range(x.shape[1]):
        z = x[:, t] @ kernel + h @ recurrent + b
        i, f, g, o = np.split(z, 4, axis=1)
        c = _sigmoid(f) * c + _sigmoid(i) * np.tanh(g)
        h = _sigmoid(o) * np.tanh(c)
        outputs.append(h)
    return np.stack(outputs, 1), h, c


def _gru_reference(x, kernel, recurrent, bias, units):
    h = np.zeros((x.shape[0], units))
    outputs = []
    for t in range(x.shape[1]):
        xz, xr, xh = np.split(x[:, t] @ kernel + bias[:3 * units], 3, axis=1)
        rz, rr, rh = np.split(h @ recurrent + bias[3 * units:], 3, axis=1)
        z, r = _sigmoid(xz + rz), _sigmoid(xr + rr)
        h = z * h + (1 - z) * np.tanh(xh + r * rh)
        outputs.append(h)
    return np.stack(outputs, 1), h


@pytest.mark.parametrize("kind", ["lstm", "gru"])
def test_matches_cudnn_equations(kind):
    rng = np.random.RandomState(1)
    x = rng.randn(3, 6, 5).astype(np.float32)
    with tf.Graph().as_default():
        cls = K.layers.CuDNNLSTM if kind == "lstm" else K.layers.CuDNNGRU
        layer = cls(4, return_sequences=True, return_state=True)
        inp = K.layers.Input((6, 5))
        model = K.models.Model(inp, layer(inp))
        weights = [rng.randn(*w.shape.as_list()).astype(np.float32) * 0.5
                   for w in layer.weights]
        layer.set_weights(weights)
        got = model.predict(x)
    ref = (_lstm_reference if kind == "lstm" else _gru_reference)(x, *weights, 4)
    for a, b in zip(got, ref):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_go_backwards_and_h5_round_trip(tmp_path):
    rng = np.random.RandomState(2)
    x = rng.randn(2, 4, 3).astype(np.float32)
    path = str(tmp_path / "m.h5")
    with tf.Graph().as_default():
        model = K.models.Sequential([K.layers.CuDNNGRU(5, go_backwards=True,
                                                       input_shape=(4, 3)),
                                     K.layers.Dense(2)])
        model.compile("sgd", "mse")
        before = model.predict(x)
        model.save(path)
    with tf.Graph().as_default():
        loaded = K.models.load_model(path)
        assert type(loaded.layers[0]).__name__ == "CuDNNGRU"
        np.testing.assert_allclose(loaded.predict(x), before, rtol=1e-6)
        loaded.fit(x, np.zeros((2, 2), np.float32), epochs=1, verbose=0)


def test_time_major_is_refused():
    with pytest.raises(NotImplementedError, match="time_major"):
        K.layers.CuDNNLSTM(3, time_major=True)
