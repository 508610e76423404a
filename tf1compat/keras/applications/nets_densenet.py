"""`tf.keras.applications.DenseNet121/169/201` (Huang et al. 2016) with tf-keras 2.21's
layer names (`conv1/conv`, `conv2_block1_0_bn`, `pool2_conv`, `bn`, `avg_pool`, ...)."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from tf1compat.keras import backend_core
from tf1compat.keras.applications import builder, imagenet_utils

__all__ = ["DenseNet121", "DenseNet169", "DenseNet201", "preprocess_input",
           "decode_predictions"]

_EPSILON = 1.001e-5
_GROWTH = 32
_HASHES = {
    "densenet121": ("9d60b8095a5708f2dcce2bca79d332c7", "30ee3e1110167f948a6b9946edeeb738"),
    "densenet169": ("d699b8f76981ab1b30698df4c175e90b", "b8c4d4c20dd625c148057b9ff1c1176b"),
    "densenet201": ("1ceb130c1ea1b78c3bf6114dbdfd8807", "c13680b51ded0fb44dff2d8f86ac8bb1"),
}


def _bn_relu(x: Any, name: str, bn_name: str = "_bn", relu_name: str = "_relu") -> Any:
    from tf1compat.keras import layers
    x = layers.BatchNormalization(axis=builder.channel_axis(), epsilon=_EPSILON,
                                  name=name + bn_name)(x)
    return layers.Activation("relu", name=name + relu_name)(x)


def _conv_block(x: Any, name: str) -> Any:
    """BN-relu-1x1 conv-BN-relu-3x3 conv, whose `_GROWTH` channels are appended to x."""
    from tf1compat.keras import layers
    y = _bn_relu(x, name, "_0_bn", "_0_relu")
    y = layers.Conv2D(4 * _GROWTH, 1, use_bias=False, name=name + "_1_conv")(y)
    y = _bn_relu(y, name, "_1_bn", "_1_relu")
    y = layers.Conv2D(_GROWTH, 3, padding="same", use_bias=False, name=name + "_2_conv")(y)
    return layers.Concatenate(axis=builder.channel_axis(), name=name + "_concat")([x, y])


def _transition(x: Any, name: str) -> Any:
    """BN-relu, a 1x1 convolution halving the channels, 2x2 average pooling."""
    from tf1compat.keras import layers
    x = _bn_relu(x, name)
    channels = backend_core.int_shape(x)[builder.channel_axis()]
    x = layers.Conv2D(int(channels * 0.5), 1, use_bias=False, name=name + "_conv")(x)
    return layers.AveragePooling2D(2, strides=2, name=name + "_pool")(x)


def _densenet(blocks: Sequence[int], name: str, include_top: bool, weights: Any,
              input_tensor: Any, input_shape: Any, pooling: Optional[str], classes: int,
              classifier_activation: Any) -> Any:
    from tf1compat.keras import layers
    builder.check_weights(weights, include_top, classes)
    _, img_input = builder.image_input(input_tensor, input_shape, 224, 32, include_top,
                                       weights)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)))(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=False, name="conv1/conv")(x)
    x = _bn_relu(x, "conv1", "/bn", "/relu")
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)))(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1")(x)
    for stage, count in enumerate(blocks, start=2):
        for i in range(count):
            x = _conv_block(x, f"conv{stage}_block{i + 1}")
        if stage < 5:
            x = _transition(x, f"pool{stage}")
    x = _bn_relu(x, "", "bn", "relu")
    x = builder.classifier_head(x, include_top, pooling, classes, classifier_activation,
                                weights, ("avg_pool", "avg_pool", "max_pool"))

    def imagenet_file():
        fname = f"{name}_weights_tf_dim_ordering_tf_kernels{'' if include_top else '_notop'}.h5"
        return (fname, f"{builder.WEIGHTS_ROOT}densenet/{fname}",
                _HASHES[name][0 if include_top else 1])
    return builder.finish(img_input, input_tensor, x, name, weights, imagenet_file)


def _constructor(blocks: Sequence[int], name: str, doc: str) -> Callable:
    def build(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
              input_shape: Any = None, pooling: Optional[str] = None, classes: int = 1000,
              classifier_activation: Any = "softmax") -> Any:
        return _densenet(blocks, name, include_top, weights, input_tensor, input_shape,
                         pooling, classes, classifier_activation)
    build.__name__ = build.__qualname__ = doc.split(":")[0]
    build.__doc__ = doc
    return build


DenseNet121 = _constructor((6, 12, 24, 16), "densenet121", "DenseNet121: 58 dense blocks")
DenseNet169 = _constructor((6, 12, 32, 32), "densenet169", "DenseNet169: 82 dense blocks")
DenseNet201 = _constructor((6, 12, 48, 32), "densenet201", "DenseNet201: 98 dense blocks")


def preprocess_input(x: Any, data_format: Optional[str] = None) -> Any:
    """DenseNet preprocessing: torch mode ([0, 1], normalized per channel)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="torch")


decode_predictions = imagenet_utils.decode_predictions
