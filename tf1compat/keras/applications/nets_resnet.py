"""`tf.keras.applications` ResNet50/101/152 (He et al. 2015, v1: post-activation
bottlenecks) and ResNet50V2/101V2/152V2 (2016, pre-activation), with tf-keras 2.21's
layer names (`conv1_conv`, `conv2_block1_0_conv`, ..., `post_bn`, `avg_pool`,
`predictions`)."""

from __future__ import annotations

from typing import Any, Callable, Optional, Sequence

from tf1compat.keras.applications import builder, imagenet_utils

__all__ = ["ResNet50", "ResNet101", "ResNet152", "ResNet50V2", "ResNet101V2",
           "ResNet152V2", "preprocess_input", "decode_predictions",
           "preprocess_input_v2"]

_EPSILON = 1.001e-5
_HASHES = {
    "resnet50": ("2cb95161c43110f7111970584f804107", "4d473c1dd8becc155b73f8504c6f6626"),
    "resnet101": ("f1aeb4b969a6efcfb50fad2f0c20cfc5", "88cf7a10940856eca736dc7b7e228a21"),
    "resnet152": ("100835be76be38e30d865e96f2aaae62", "ee4c566cf9a93f14d82f913c2dc6dd0c"),
    "resnet50v2": ("3ef43a0b657b3be2300d5770ece849e0", "fac2f116257151a9d068a22e544a4917"),
    "resnet101v2": ("6343647c601c52e1368623803854d971", "c0ed64b8031c3730f411d2eb4eea35b5"),
    "resnet152v2": ("a49b44d1979771252814e80f8ec446f9", "ed17cf2e0169df9d443503ef94b23b33"),
}


def _bn(x: Any, name: str) -> Any:
    from tf1compat.keras import layers
    return layers.BatchNormalization(axis=builder.channel_axis(), epsilon=_EPSILON,
                                     name=name)(x)


def _bottleneck_v1(x: Any, filters: int, stride: int, conv_shortcut: bool, name: str) -> Any:
    from tf1compat.keras import layers
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride, name=name + "_0_conv")(x)
        shortcut = _bn(shortcut, name + "_0_bn")
    else:
        shortcut = x
    x = layers.Conv2D(filters, 1, strides=stride, name=name + "_1_conv")(x)
    x = layers.Activation("relu", name=name + "_1_relu")(_bn(x, name + "_1_bn"))
    x = layers.Conv2D(filters, 3, padding="SAME", name=name + "_2_conv")(x)
    x = layers.Activation("relu", name=name + "_2_relu")(_bn(x, name + "_2_bn"))
    x = layers.Conv2D(4 * filters, 1, name=name + "_3_conv")(x)
    x = layers.Add(name=name + "_add")([shortcut, _bn(x, name + "_3_bn")])
    return layers.Activation("relu", name=name + "_out")(x)


def _stack_v1(x: Any, filters: int, blocks: int, stride: int, name: str) -> Any:
    x = _bottleneck_v1(x, filters, stride, True, name + "_block1")
    for i in range(2, blocks + 1):
        x = _bottleneck_v1(x, filters, 1, False, f"{name}_block{i}")
    return x


def _bottleneck_v2(x: Any, filters: int, stride: int, conv_shortcut: bool, name: str) -> Any:
    from tf1compat.keras import layers
    preact = layers.Activation("relu", name=name + "_preact_relu")(
        _bn(x, name + "_preact_bn"))
    if conv_shortcut:
        shortcut = layers.Conv2D(4 * filters, 1, strides=stride,
                                 name=name + "_0_conv")(preact)
    else:
        shortcut = layers.MaxPooling2D(1, strides=stride)(x) if stride > 1 else x
    x = layers.Conv2D(filters, 1, strides=1, use_bias=False, name=name + "_1_conv")(preact)
    x = layers.Activation("relu", name=name + "_1_relu")(_bn(x, name + "_1_bn"))
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name=name + "_2_pad")(x)
    x = layers.Conv2D(filters, 3, strides=stride, use_bias=False, name=name + "_2_conv")(x)
    x = layers.Activation("relu", name=name + "_2_relu")(_bn(x, name + "_2_bn"))
    x = layers.Conv2D(4 * filters, 1, name=name + "_3_conv")(x)
    return layers.Add(name=name + "_out")([shortcut, x])


def _stack_v2(x: Any, filters: int, blocks: int, stride: int, name: str) -> Any:
    x = _bottleneck_v2(x, filters, 1, True, name + "_block1")
    for i in range(2, blocks):
        x = _bottleneck_v2(x, filters, 1, False, f"{name}_block{i}")
    return _bottleneck_v2(x, filters, stride, False, f"{name}_block{blocks}")


def _resnet(blocks: Sequence[int], preact: bool, name: str, include_top: bool, weights: Any,
            input_tensor: Any, input_shape: Any, pooling: Optional[str], classes: int,
            classifier_activation: Any) -> Any:
    from tf1compat.keras import layers
    builder.check_weights(weights, include_top, classes)
    _, img_input = builder.image_input(input_tensor, input_shape, 224, 32, include_top,
                                       weights)
    x = layers.ZeroPadding2D(padding=((3, 3), (3, 3)), name="conv1_pad")(img_input)
    x = layers.Conv2D(64, 7, strides=2, use_bias=True, name="conv1_conv")(x)
    if not preact:
        x = layers.Activation("relu", name="conv1_relu")(_bn(x, "conv1_bn"))
    x = layers.ZeroPadding2D(padding=((1, 1), (1, 1)), name="pool1_pad")(x)
    x = layers.MaxPooling2D(3, strides=2, name="pool1_pool")(x)
    for stage, (filters, count) in enumerate(zip((64, 128, 256, 512), blocks), start=2):
        if preact:
            # v2 downsamples at the end of each stage but the last.
            x = _stack_v2(x, filters, count, 1 if stage == 5 else 2, f"conv{stage}")
        else:
            x = _stack_v1(x, filters, count, 1 if stage == 2 else 2, f"conv{stage}")
    if preact:
        x = layers.Activation("relu", name="post_relu")(_bn(x, "post_bn"))
    x = builder.classifier_head(x, include_top, pooling, classes, classifier_activation,
                                weights, ("avg_pool", "avg_pool", "max_pool"))

    def imagenet_file():
        suffix = "" if include_top else "_notop"
        fname = f"{name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
        return (fname, f"{builder.WEIGHTS_ROOT}resnet/{fname}",
                _HASHES[name][0 if include_top else 1])
    return builder.finish(img_input, input_tensor, x, name, weights, imagenet_file)


def _constructor(blocks: Sequence[int], preact: bool, name: str, doc: str) -> Callable:
    def build(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,
              input_shape: Any = None, pooling: Optional[str] = None, classes: int = 1000,
              classifier_activation: Any = "softmax", **kwargs: Any) -> Any:
        if kwargs:
            raise ValueError(f"Unknown argument(s): {kwargs}")
        return _resnet(blocks, preact, name, include_top, weights, input_tensor,
                       input_shape, pooling, classes, classifier_activation)
    build.__name__ = build.__qualname__ = doc.split(":")[0]
    build.__doc__ = doc
    return build


ResNet50 = _constructor((3, 4, 6, 3), False, "resnet50", "ResNet50: 16 v1 bottlenecks")
ResNet101 = _constructor((3, 4, 23, 3), False, "resnet101", "ResNet101: 33 v1 bottlenecks")
ResNet152 = _constructor((3, 8, 36, 3), False, "resnet152", "ResNet152: 50 v1 bottlenecks")
ResNet50V2 = _constructor((3, 4, 6, 3), True, "resnet50v2",
                          "ResNet50V2: 16 pre-activation bottlenecks")
ResNet101V2 = _constructor((3, 4, 23, 3), True, "resnet101v2",
                           "ResNet101V2: 33 pre-activation bottlenecks")
ResNet152V2 = _constructor((3, 8, 36, 3), True, "resnet152v2",
                           "ResNet152V2: 50 pre-activation bottlenecks")


def preprocess_input(x: Any, data_format: Optional[str] = None) -> Any:
    """ResNet (v1) preprocessing: caffe mode (BGR, ImageNet mean subtracted)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


def preprocess_input_v2(x: Any, data_format: Optional[str] = None) -> Any:
    """ResNetV2 preprocessing: tf mode (scaled to [-1, 1])."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


decode_predictions = imagenet_utils.decode_predictions
