"""`tf.keras.applications.InceptionV3` (Szegedy et al. 2015) with tf-keras 2.21's layer
names: the convolutions and batch norms keep Keras' automatic names (`conv2d_N`,
`batch_normalization_N`, `activation_N`), the inception modules are `mixed0`...`mixed10`
(with `mixed9_0`, `mixed9_1` and two automatic `concatenate` layers inside)."""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.keras.applications import builder, imagenet_utils

__all__ = ["InceptionV3", "preprocess_input", "decode_predictions"]

_WEIGHTS = "inception_v3/inception_v3_weights_tf_dim_ordering_tf_kernels"
_HASHES = ("9a0d58056eeedaa3f26cb7ebd46da564", "bcbd6486424b2319ff4ef7d526e38f63")


def _conv_bn(x: Any, filters: int, rows: int, cols: int, padding: str = "same",
             strides: tuple = (1, 1)) -> Any:
    """Convolution (no bias) + batch norm without scale + relu."""
    from tf1compat.keras import layers
    x = layers.Conv2D(filters, (rows, cols), strides=strides, padding=padding,
                      use_bias=False)(x)
    x = layers.BatchNormalization(axis=builder.channel_axis(), scale=False)(x)
    return layers.Activation("relu")(x)


def _avg_branch(x: Any, filters: int) -> Any:
    from tf1compat.keras import layers
    pooled = layers.AveragePooling2D((3, 3), strides=(1, 1), padding="same")(x)
    return _conv_bn(pooled, filters, 1, 1)


def _concat(branches: List[Any], name: Optional[str]) -> Any:
    from tf1compat.keras import layers
    return layers.concatenate(branches, axis=builder.channel_axis(), name=name)


def _module_a(x: Any, pool_filters: int, name: str) -> Any:
    branch1x1 = _conv_bn(x, 64, 1, 1)
    branch5x5 = _conv_bn(_conv_bn(x, 48, 1, 1), 64, 5, 5)
    branch3x3dbl = _conv_bn(_conv_bn(_conv_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3)
    return _concat([branch1x1, branch5x5, branch3x3dbl, _avg_branch(x, pool_filters)], name)


def _module_c(x: Any, width: int, name: str) -> Any:
    """The 17x17 module with factorized 7x7 convolutions of `width` channels inside."""
    branch1x1 = _conv_bn(x, 192, 1, 1)
    branch7x7 = _conv_bn(_conv_bn(_conv_bn(x, width, 1, 1), width, 1, 7), 192, 7, 1)
    dbl = _conv_bn(x, width, 1, 1)
    for rows, cols, filters in ((7, 1, width), (1, 7, width), (7, 1, width), (1, 7, 192)):
        dbl = _conv_bn(dbl, filters, rows, cols)
    return _concat([branch1x1, branch7x7, dbl, _avg_branch(x, 192)], name)


def _module_e(x: Any, index: int) -> Any:
    branch1x1 = _conv_bn(x, 320, 1, 1)
    branch3x3 = _conv_bn(x, 384, 1, 1)
    branch3x3 = _concat([_conv_bn(branch3x3, 384, 1, 3), _conv_bn(branch3x3, 384, 3, 1)],
                        f"mixed9_{index}")
    dbl = _conv_bn(_conv_bn(x, 448, 1, 1), 384, 3, 3)
    dbl = _concat([_conv_bn(dbl, 384, 1, 3), _conv_bn(dbl, 384, 3, 1)], None)
    return _concat([branch1x1, branch3x3, dbl, _avg_branch(x, 192)], f"mixed{9 + index}")


def InceptionV3(include_top: bool = True, weights: Any = "imagenet",  # noqa: N802
                input_tensor: Any = None, input_shape: Any = None,
                pooling: Optional[str] = None, classes: int = 1000,
                classifier_activation: Any = "softmax") -> Any:
    """InceptionV3 (default input 299x299, at least 75x75)."""
    from tf1compat.keras import layers
    builder.check_weights(weights, include_top, classes)
    _, img_input = builder.image_input(input_tensor, input_shape, 299, 75, include_top,
                                       weights)
    x = _conv_bn(img_input, 32, 3, 3, strides=(2, 2), padding="valid")
    x = _conv_bn(x, 32, 3, 3, padding="valid")
    x = _conv_bn(x, 64, 3, 3)
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    x = _conv_bn(x, 80, 1, 1, padding="valid")
    x = _conv_bn(x, 192, 3, 3, padding="valid")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2))(x)
    for i, pool_filters in enumerate((32, 64, 64)):
        x = _module_a(x, pool_filters, f"mixed{i}")
    branch3x3 = _conv_bn(x, 384, 3, 3, strides=(2, 2), padding="valid")
    dbl = _conv_bn(_conv_bn(_conv_bn(x, 64, 1, 1), 96, 3, 3), 96, 3, 3, strides=(2, 2),
                   padding="valid")
    x = _concat([branch3x3, dbl, layers.MaxPooling2D((3, 3), strides=(2, 2))(x)], "mixed3")
    for i, width in enumerate((128, 160, 160, 192)):
        x = _module_c(x, width, f"mixed{4 + i}")
    branch3x3 = _conv_bn(_conv_bn(x, 192, 1, 1), 320, 3, 3, strides=(2, 2), padding="valid")
    branch7x7x3 = _conv_bn(_conv_bn(_conv_bn(x, 192, 1, 1), 192, 1, 7), 192, 7, 1)
    branch7x7x3 = _conv_bn(branch7x7x3, 192, 3, 3, strides=(2, 2), padding="valid")
    x = _concat([branch3x3, branch7x7x3, layers.MaxPooling2D((3, 3), strides=(2, 2))(x)],
                "mixed8")
    for i in range(2):
        x = _module_e(x, i)
    x = builder.classifier_head(x, include_top, pooling, classes, classifier_activation,
                                weights, ("avg_pool", None, None))

    def imagenet_file():
        fname = _WEIGHTS.split("/")[1] + ("" if include_top else "_notop") + ".h5"
        return (fname, f"{builder.WEIGHTS_ROOT}inception_v3/{fname}",
                _HASHES[0 if include_top else 1])
    return builder.finish(img_input, input_tensor, x, "inception_v3", weights,
                          imagenet_file)


def preprocess_input(x: Any, data_format: Optional[str] = None) -> Any:
    """InceptionV3 preprocessing: tf mode (scaled to [-1, 1])."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
