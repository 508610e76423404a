"""The api-math names tf1compat deliberately does not support raise NotImplementedError
(UnimplementedAPIError for names left out: framework/unsupported_api.py) saying why, never
a wrong answer; TF's behaviour for the supported ones is covered by the golden cases."""

import pytest

import tf1compat as tf


def _x():
    return tf.constant([0.5, -0.25])


UNSUPPORTED = {
    "quantize": (lambda: tf.quantization.quantize(_x(), -1.0, 1.0, tf.quint8),
                 "quantized dtypes"),
    "quantize_v2": (lambda: tf.quantize_v2(_x(), -1.0, 1.0, tf.quint8), "quantized dtypes"),
    "dequantize": (lambda: tf.dequantize(_x(), -1.0, 1.0), "quantized dtypes"),
    "quantized_concat": (lambda: tf.quantized_concat(0, [_x()], [-1.0], [1.0]),
                         "quantized dtypes"),
    "quantized_conv2d": (lambda: tf.nn.quantized_conv2d(_x(), _x(), -1.0, 1.0, -1.0, 1.0,
                                                         [1, 1, 1, 1], "VALID"),
                         "quantized dtypes"),
    "quantized_max_pool": (lambda: tf.nn.quantized_max_pool(_x(), -1.0, 1.0, [1, 1, 1, 1],
                                                             [1, 1, 1, 1], "VALID"),
                           "quantized dtypes"),
    "quantized_avg_pool": (lambda: tf.nn.quantized_avg_pool(_x(), -1.0, 1.0, [1, 1, 1, 1],
                                                             [1, 1, 1, 1], "VALID"),
                           "quantized dtypes"),
    "quantized_relu_x": (lambda: tf.nn.quantized_relu_x(_x(), 6.0, -1.0, 1.0),
                         "quantized dtypes"),
    "unicode_script": (lambda: tf.strings.unicode_script([72]), "ICU"),
}


@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_unsupported_raises_not_implemented(name):
    fn, words = UNSUPPORTED[name]
    with tf.Graph().as_default():
        with pytest.raises(NotImplementedError, match=words):
            fn()
