"""Keras 1 arguments under standalone `import keras` (tf1compat/keras/legacy/), against
Keras 2.2.4's own conversions (tests/golden/data/keras1_interfaces.json, recorded by
scripts/record_keras1_interfaces.py), and `keras.legacy.layers`."""

from __future__ import annotations

import json
import os
import warnings

import numpy as np
import pytest

import tf1compat as tf
from tf1compat import shim_keras
from tf1compat.keras.legacy import interfaces

from tests.keras1_interface_cases import CASES, run_case

GOLDEN = os.path.join(os.path.dirname(__file__), "golden", "data", "keras1_interfaces.json")
with open(GOLDEN) as _f:
    EXPECTED = json.load(_f)


def test_golden_covers_every_case():
    assert sorted(EXPECTED) == sorted(CASES)


@pytest.mark.parametrize("name", sorted(CASES))
def test_conversion_matches_keras_224(name):
    rule, owner, args, kwargs = CASES[name]
    assert run_case(interfaces, rule, owner, list(args), dict(kwargs)) == EXPECTED[name]


@pytest.fixture
def keras():
    shim_keras.install()
    import keras as standalone
    yield standalone
    shim_keras.uninstall()


def _messages(caught):
    return [str(w.message) for w in caught]


def test_standalone_layers_take_keras1_arguments(keras):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dense = keras.layers.Dense(output_dim=3, init="normal", bias=False)
        conv = keras.layers.Convolution2D(8, 3, 3, border_mode="same", subsample=(2, 2),
                                          dim_ordering="tf")
        lstm = keras.layers.LSTM(output_dim=4, inner_init="orthogonal", dropout_W=0.1,
                                 dropout_U=0.2, U_regularizer=None)
        pool = keras.layers.MaxPooling2D(border_mode="same", dim_ordering="th")
        drop = keras.layers.Dropout(p=0.3)
        norm = keras.layers.BatchNormalization(mode=0, beta_init="zero")
    assert (dense.units, dense.use_bias) == (3, False)
    assert (conv.kernel_size, conv.strides, conv.padding) == ((3, 3), (2, 2), "same")
    assert (lstm.units, lstm.dropout, lstm.recurrent_dropout) == (4, 0.1, 0.2)
    assert (pool.padding, pool.data_format) == ("same", "channels_first")
    assert drop.rate == 0.3 and norm.beta_initializer.__class__.__name__ == "Zeros"
    assert _messages(caught)[0] == ("Update your `Dense` call to the Keras 2 API: "
                                    '`Dense(units=3, kernel_initializer="normal", '
                                    "use_bias=False)`")
    assert all(w.category is UserWarning for w in caught)
    # tf.keras layers count as the standalone classes; serialization keeps TF's names
    assert isinstance(tf.keras.layers.Dense(2), keras.layers.Dense)
    assert issubclass(tf.keras.layers.Conv2D, keras.layers.Conv2D)
    assert type(dense).__name__ == "Dense"
    assert keras.layers.serialize(dense)["class_name"] == "Dense"


def test_tf_keras_stays_strict():
    with pytest.raises(TypeError):
        tf.keras.layers.Dense(output_dim=3)
    with pytest.raises(TypeError, match="border_mode"):
        tf.keras.layers.Conv2D(3, 3, border_mode="same")
    with pytest.raises(TypeError):
        tf.keras.layers.Dropout(p=0.5)


def test_standalone_model_fit_and_generators_keras1(keras):
    with tf.Graph().as_default():
        inputs = keras.layers.Input((3,))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            model = keras.models.Model(input=inputs, output=keras.layers.Dense(2)(inputs))
        assert _messages(caught)[0].startswith("Update your `Model` call to the Keras 2 "
                                               "API: `Model(inputs=")
        model.compile("sgd", "mse")
        x, y = np.ones((8, 3), np.float32), np.ones((8, 2), np.float32)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            history = model.fit(x, y, nb_epoch=3, verbose=0)
            model.fit_generator(((x, y) for _ in range(10)), samples_per_epoch=2,
                                nb_epoch=2, verbose=0, pickle_safe=False)
        assert len(history.history["loss"]) == 3
        messages = _messages(caught)
        assert "The `nb_epoch` argument in `fit` has been renamed `epochs`." in messages
        assert ("Update your `fit_generator` call to the Keras 2 API: `fit_generator("
                "<generator..., verbose=0, steps_per_epoch=2, epochs=2, "
                "use_multiprocessing=False)`") in messages
        seq = keras.models.Sequential([keras.layers.Dense(output_dim=1, input_dim=3)])
        seq.compile("sgd", "mse")
        assert len(seq.fit(x, y[:, :1], nb_epoch=2, verbose=0).history["loss"]) == 2


def test_legacy_layers(keras):
    with tf.Graph().as_default():
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            maxout = keras.legacy.layers.MaxoutDense(2, nb_feature=3, input_dim=4)
            highway = keras.layers.Highway(activation="relu")
            atrous = keras.layers.AtrousConvolution2D(4, 3, 3, atrous_rate=(2, 2))
        assert ("The `MaxoutDense` layer is deprecated and will be removed after 06/2017."
                in _messages(caught))
        assert atrous.dilation_rate == (2, 2) and atrous.kernel_size == (3, 3)
        x = np.random.RandomState(0).randn(5, 4).astype(np.float32)
        inputs = keras.layers.Input((4,))
        out_m = maxout(inputs)
        out_h = highway(inputs)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            got_m, got_h, w, b, wh, wc, bh, bc = sess.run(
                [out_m, out_h, maxout.W, maxout.b, highway.W, highway.W_carry, highway.b,
                 highway.b_carry], {inputs: x})
        np.testing.assert_allclose(got_m, (np.einsum("bi,fio->bfo", x, w) + b).max(1),
                                   rtol=1e-5, atol=1e-6)
        gate = 1 / (1 + np.exp(-(x @ wc + bc)))
        np.testing.assert_allclose(got_h, np.maximum(x @ wh + bh, 0) * gate + (1 - gate) * x,
                                   rtol=1e-5, atol=1e-6)
        assert np.all(bc == 1) and maxout.get_config()["nb_feature"] == 3


def test_merge_is_gone_as_in_keras_224(keras):
    with pytest.raises(ImportError):
        from keras.layers import Merge  # noqa: F401
    with pytest.raises(NotImplementedError, match="Recurrent"):
        from keras.legacy.layers import Recurrent  # noqa: F401
