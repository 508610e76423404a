"""`tf.keras.applications.MobileNet` (Howard et al. 2017: depthwise-separable blocks) and
`MobileNetV2` (Sandler et al. 2018: inverted residuals), with tf-keras 2.21's layer and
model names (`mobilenet_1.00_224`, `mobilenetv2_1.00_224`, `conv_dw_1`, `block_1_expand`,
...). Only square inputs of the sizes tf-keras publishes weights for pick that size as
the default (and the weights file); others use 224, as tf-keras does."""

from __future__ import annotations

import logging
from typing import Any, Optional

from tf1compat.keras import backend_core
from tf1compat.keras.applications import builder, imagenet_utils

__all__ = ["MobileNet", "MobileNetV2", "preprocess_input", "decode_predictions"]


def _rows_cols(input_shape: Any) -> Any:
    if backend_core.image_data_format() == "channels_first":
        return input_shape[1], input_shape[2]
    return input_shape[0], input_shape[1]


def _default_size(input_shape: Any, sizes: list) -> int:
    if input_shape is None:
        return 224
    rows, cols = _rows_cols(input_shape)
    return rows if rows == cols and rows in sizes else 224


def _resolve_shape(input_shape: Any, default: int, include_top: bool, weights: Any
                   ) -> Any:
    """(input shape, rows, cols) as `obtain_input_shape` settles them."""
    shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default, min_size=32,
        data_format=backend_core.image_data_format(), require_flatten=include_top,
        weights=weights)
    return (shape,) + tuple(_rows_cols(shape))


def _weights_rows(rows: Any, cols: Any, sizes: list) -> Any:
    if rows != cols or rows not in sizes:
        logging.warning("`input_shape` is undefined or non-square, or `rows` is not in "
                        f"{sizes}. Weights for input shape (224, 224) will be loaded as "
                        "the default.")
        return 224
    return rows


def _depthwise_block(x: Any, filters: int, alpha: float, depth_multiplier: int,
                     strides: tuple, block_id: int) -> Any:
    from tf1compat.keras import layers
    axis = builder.channel_axis(False)
    if strides != (1, 1):
        x = layers.ZeroPadding2D(((0, 1), (0, 1)), name=f"conv_pad_{block_id}")(x)
    x = layers.DepthwiseConv2D((3, 3), padding="same" if strides == (1, 1) else "valid",
                               depth_multiplier=depth_multiplier, strides=strides,
                               use_bias=False, name=f"conv_dw_{block_id}")(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_dw_{block_id}_bn")(x)
    x = layers.ReLU(6.0, name=f"conv_dw_{block_id}_relu")(x)
    x = layers.Conv2D(int(filters * alpha), (1, 1), padding="same", use_bias=False,
                      strides=(1, 1), name=f"conv_pw_{block_id}")(x)
    x = layers.BatchNormalization(axis=axis, name=f"conv_pw_{block_id}_bn")(x)
    return layers.ReLU(6.0, name=f"conv_pw_{block_id}_relu")(x)


# (pointwise filters, stride) of MobileNet's 13 depthwise-separable blocks.
_MOBILENET_BLOCKS = [(64, 1), (128, 2), (128, 1), (256, 2), (256, 1), (512, 2), (512, 1),
                     (512, 1), (512, 1), (512, 1), (512, 1), (1024, 2), (1024, 1)]


def MobileNet(input_shape: Any = None, alpha: float = 1.0, depth_multiplier: int = 1,  # noqa: N802
              dropout: float = 1e-3, include_top: bool = True, weights: Any = "imagenet",
              input_tensor: Any = None, pooling: Optional[str] = None, classes: int = 1000,
              classifier_activation: Any = "softmax", **kwargs: Any) -> Any:
    """MobileNet v1 with width multiplier `alpha` and `depth_multiplier`."""
    from tf1compat.keras import layers
    if kwargs:
        raise ValueError(f"Unknown argument(s): {(kwargs,)}")
    builder.check_weights(weights, include_top, classes)
    sizes = [128, 160, 192, 224]
    default = _default_size(input_shape, sizes)
    shape, rows, cols = _resolve_shape(input_shape, default, include_top, weights)
    if weights == "imagenet":
        if depth_multiplier != 1:
            raise ValueError("If imagenet weights are being loaded, depth multiplier must "
                             f"be 1.  Received depth_multiplier={depth_multiplier}")
        if alpha not in [0.25, 0.5, 0.75, 1.0]:
            raise ValueError("If imagenet weights are being loaded, alpha can be one of"
                             "`0.25`, `0.50`, `0.75` or `1.0` only.  Received "
                             f"alpha={alpha}")
        rows = _weights_rows(rows, cols, sizes)
    _, img_input = builder.image_input(input_tensor, shape, default, 32, include_top, None)
    axis = builder.channel_axis(False)
    x = layers.Conv2D(int(32 * alpha), (3, 3), padding="same", use_bias=False,
                      strides=(2, 2), name="conv1")(img_input)
    x = layers.BatchNormalization(axis=axis, name="conv1_bn")(x)
    x = layers.ReLU(6.0, name="conv1_relu")(x)
    for block_id, (filters, stride) in enumerate(_MOBILENET_BLOCKS, start=1):
        x = _depthwise_block(x, filters, alpha, depth_multiplier, (stride, stride), block_id)
    if include_top:
        x = layers.GlobalAveragePooling2D(keepdims=True)(x)
        x = layers.Dropout(dropout, name="dropout")(x)
        x = layers.Conv2D(classes, (1, 1), padding="same", name="conv_preds")(x)
        x = layers.Reshape((classes,), name="reshape_2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Activation(activation=classifier_activation, name="predictions")(x)
    else:
        x = builder.classifier_head(x, False, pooling, classes, None, weights)

    def imagenet_file():
        alpha_text = {1.0: "1_0", 0.75: "7_5", 0.5: "5_0"}.get(alpha, "2_5")
        fname = f"mobilenet_{alpha_text}_{rows}_tf{'' if include_top else '_no_top'}.h5"
        return fname, f"{builder.WEIGHTS_ROOT}mobilenet/{fname}", None
    return builder.finish(img_input, input_tensor, x, f"mobilenet_{alpha:0.2f}_{rows}",
                          weights, imagenet_file)


def _make_divisible(value: float, divisor: int, min_value: Optional[int] = None) -> int:
    """`value` rounded to a multiple of `divisor`, never more than 10% below it."""
    min_value = min_value or divisor
    rounded = max(min_value, int(value + divisor / 2) // divisor * divisor)
    return rounded + divisor if rounded < 0.9 * value else rounded


def _inverted_residual(inputs: Any, expansion: int, stride: int, alpha: float, filters: int,
                       block_id: int) -> Any:
    from tf1compat.keras import layers
    axis = builder.channel_axis(False)
    in_channels = backend_core.int_shape(inputs)[axis]
    pointwise = _make_divisible(int(filters * alpha), 8)
    x = inputs
    prefix = f"block_{block_id}_"

    def bn(t: Any, name: str) -> Any:
        return layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999,
                                         name=prefix + name)(t)
    if block_id:
        x = layers.Conv2D(expansion * in_channels, kernel_size=1, padding="same",
                          use_bias=False, activation=None, name=prefix + "expand")(x)
        x = layers.ReLU(6.0, name=prefix + "expand_relu")(bn(x, "expand_BN"))
    else:
        prefix = "expanded_conv_"
    if stride == 2:
        x = layers.ZeroPadding2D(padding=imagenet_utils.correct_pad(x, 3),
                                 name=prefix + "pad")(x)
    x = layers.DepthwiseConv2D(kernel_size=3, strides=stride, activation=None,
                               use_bias=False, padding="same" if stride == 1 else "valid",
                               name=prefix + "depthwise")(x)
    x = layers.ReLU(6.0, name=prefix + "depthwise_relu")(bn(x, "depthwise_BN"))
    x = layers.Conv2D(pointwise, kernel_size=1, padding="same", use_bias=False,
                      activation=None, name=prefix + "project")(x)
    x = bn(x, "project_BN")
    if in_channels == pointwise and stride == 1:
        return layers.Add(name=prefix + "add")([inputs, x])
    return x


# (filters, stride, expansion) of MobileNetV2's 17 inverted residual blocks.
_V2_BLOCKS = ([(16, 1, 1), (24, 2, 6), (24, 1, 6), (32, 2, 6), (32, 1, 6), (32, 1, 6),
               (64, 2, 6)] + [(64, 1, 6)] * 3 + [(96, 1, 6)] * 3 + [(160, 2, 6)] +
              [(160, 1, 6)] * 2 + [(320, 1, 6)])


def MobileNetV2(input_shape: Any = None, alpha: float = 1.0, include_top: bool = True,  # noqa: N802
                weights: Any = "imagenet", input_tensor: Any = None,
                pooling: Optional[str] = None, classes: int = 1000,
                classifier_activation: Any = "softmax", **kwargs: Any) -> Any:
    """MobileNetV2 with width multiplier `alpha`."""
    from tf1compat.keras import layers
    if kwargs:
        raise ValueError(f"Unknown argument(s): {kwargs}")
    builder.check_weights(weights, include_top, classes)
    sizes = [96, 128, 160, 192, 224]
    if input_shape is None and input_tensor is not None and \
            backend_core.is_keras_tensor(input_tensor):
        shape_of_tensor = backend_core.int_shape(input_tensor)
        default = _default_size(shape_of_tensor[1:], sizes)
    else:
        default = _default_size(input_shape, sizes)
    shape, rows, cols = _resolve_shape(input_shape, default, include_top, weights)
    if weights == "imagenet":
        if alpha not in [0.35, 0.5, 0.75, 1.0, 1.3, 1.4]:
            raise ValueError("If imagenet weights are being loaded, alpha must be one of "
                             "`0.35`, `0.50`, `0.75`, `1.0`, `1.3` or `1.4` only; Received "
                             f"`alpha={alpha}`")
        rows = _weights_rows(rows, cols, sizes)
    _, img_input = builder.image_input(input_tensor, shape, default, 32, include_top, None)
    axis = builder.channel_axis(False)
    x = layers.Conv2D(_make_divisible(32 * alpha, 8), kernel_size=3, strides=(2, 2),
                      padding="same", use_bias=False, name="Conv1")(img_input)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name="bn_Conv1")(x)
    x = layers.ReLU(6.0, name="Conv1_relu")(x)
    for block_id, (filters, stride, expansion) in enumerate(_V2_BLOCKS):
        x = _inverted_residual(x, expansion, stride, alpha, filters, block_id)
    last = _make_divisible(1280 * alpha, 8) if alpha > 1.0 else 1280
    x = layers.Conv2D(last, kernel_size=1, use_bias=False, name="Conv_1")(x)
    x = layers.BatchNormalization(axis=axis, epsilon=1e-3, momentum=0.999, name="Conv_1_bn")(x)
    x = layers.ReLU(6.0, name="out_relu")(x)
    x = builder.classifier_head(x, include_top, pooling, classes, classifier_activation,
                                weights, (None, None, None))

    def imagenet_file():
        fname = (f"mobilenet_v2_weights_tf_dim_ordering_tf_kernels_{float(alpha)}_{rows}"
                 f"{'' if include_top else '_no_top'}.h5")
        return fname, f"{builder.WEIGHTS_ROOT}mobilenet_v2/{fname}", None
    return builder.finish(img_input, input_tensor, x, f"mobilenetv2_{alpha:0.2f}_{rows}",
                          weights, imagenet_file)


def preprocess_input(x: Any, data_format: Optional[str] = None) -> Any:
    """MobileNet preprocessing: tf mode (scaled to [-1, 1])."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
