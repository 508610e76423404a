"""`tf.keras.applications.Xception` (Chollet 2016) with tf-keras 2.21's layer names
(`block1_conv1`, `block2_sepconv1`, ..., the residual 1x1 convolutions, batch norms and
`add` layers keep Keras' automatic names)."""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.keras.applications import builder, imagenet_utils

__all__ = ["Xception", "preprocess_input", "decode_predictions"]

_HASHES = ("0a58e3b7378bc2990ea3b43d5981f1f6", "b0042744bf5b25fce3cb969f33bebb97")


def _sepconv_bn(x: Any, filters: int, name: str, relu_first: Optional[str]) -> Any:
    """[relu named `relu_first`] + separable 3x3 convolution + batch norm."""
    from tf1compat.keras import layers
    if relu_first:
        x = layers.Activation("relu", name=relu_first)(x)
    x = layers.SeparableConv2D(filters, (3, 3), padding="same", use_bias=False, name=name)(x)
    return layers.BatchNormalization(axis=builder.channel_axis(False), name=name + "_bn")(x)


def _residual(x: Any, filters: int) -> Any:
    from tf1compat.keras import layers
    r = layers.Conv2D(filters, (1, 1), strides=(2, 2), padding="same", use_bias=False)(x)
    return layers.BatchNormalization(axis=builder.channel_axis(False))(r)


def _downsampling_block(x: Any, block: int, filters: tuple, first_relu: bool) -> Any:
    from tf1compat.keras import layers
    residual = _residual(x, filters[1])
    x = _sepconv_bn(x, filters[0], f"block{block}_sepconv1",
                    f"block{block}_sepconv1_act" if first_relu else None)
    x = _sepconv_bn(x, filters[1], f"block{block}_sepconv2", f"block{block}_sepconv2_act")
    x = layers.MaxPooling2D((3, 3), strides=(2, 2), padding="same",
                            name=f"block{block}_pool")(x)
    return layers.add([x, residual])


def Xception(include_top: bool = True, weights: Any = "imagenet",  # noqa: N802
             input_tensor: Any = None, input_shape: Any = None,
             pooling: Optional[str] = None, classes: int = 1000,
             classifier_activation: Any = "softmax") -> Any:
    """Xception (default input 299x299, at least 71x71)."""
    from tf1compat.keras import layers
    builder.check_weights(weights, include_top, classes)
    _, img_input = builder.image_input(input_tensor, input_shape, 299, 71, include_top,
                                       weights)
    axis = builder.channel_axis(False)
    x = layers.Conv2D(32, (3, 3), strides=(2, 2), use_bias=False, name="block1_conv1")(
        img_input)
    x = layers.BatchNormalization(axis=axis, name="block1_conv1_bn")(x)
    x = layers.Activation("relu", name="block1_conv1_act")(x)
    x = layers.Conv2D(64, (3, 3), use_bias=False, name="block1_conv2")(x)
    x = layers.BatchNormalization(axis=axis, name="block1_conv2_bn")(x)
    x = layers.Activation("relu", name="block1_conv2_act")(x)
    x = _downsampling_block(x, 2, (128, 128), False)
    x = _downsampling_block(x, 3, (256, 256), True)
    x = _downsampling_block(x, 4, (728, 728), True)
    for block in range(5, 13):
        residual = x
        for conv in (1, 2, 3):
            x = _sepconv_bn(x, 728, f"block{block}_sepconv{conv}",
                            f"block{block}_sepconv{conv}_act")
        x = layers.add([x, residual])
    x = _downsampling_block(x, 13, (728, 1024), True)
    x = _sepconv_bn(x, 1536, "block14_sepconv1", None)
    x = layers.Activation("relu", name="block14_sepconv1_act")(x)
    x = _sepconv_bn(x, 2048, "block14_sepconv2", None)
    x = layers.Activation("relu", name="block14_sepconv2_act")(x)
    x = builder.classifier_head(x, include_top, pooling, classes, classifier_activation,
                                weights, ("avg_pool", None, None))

    def imagenet_file():
        fname = ("xception_weights_tf_dim_ordering_tf_kernels"
                 f"{'' if include_top else '_notop'}.h5")
        return (fname, f"{builder.WEIGHTS_ROOT}xception/{fname}",
                _HASHES[0 if include_top else 1])
    return builder.finish(img_input, input_tensor, x, "xception", weights, imagenet_file)


def preprocess_input(x: Any, data_format: Optional[str] = None) -> Any:
    """Xception preprocessing: tf mode (scaled to [-1, 1])."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
