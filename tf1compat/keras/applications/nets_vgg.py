"""`tf.keras.applications.VGG16` and `VGG19` (Simonyan & Zisserman, 2014) with tf-keras
2.21's layer names: `blockN_convM`, `blockN_pool`, and `flatten`/`fc1`/`fc2`/`predictions`
on top."""

from __future__ import annotations

from typing import Any, Optional, Sequence

from tf1compat.keras.applications import builder, imagenet_utils

__all__ = ["VGG16", "VGG19", "preprocess_input", "decode_predictions"]

_HASHES = {"vgg16": ("64373286793e3c8b2b4e3219cbf3544b", "6d6bbae143d832006294945121d1f1fc"),
           "vgg19": ("cbe5617147190e668d6c5d5026f83318", "253f8cb515780f3b799900260a226db6")}


def _vgg(convs_per_block: Sequence[int], name: str, include_top: bool, weights: Any,
         input_tensor: Any, input_shape: Any, pooling: Optional[str], classes: int,
         classifier_activation: Any) -> Any:
    from tf1compat.keras import layers
    builder.check_weights(weights, include_top, classes)
    _, img_input = builder.image_input(input_tensor, input_shape, 224, 32, include_top,
                                       weights)
    x = img_input
    for block, (filters, convs) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block),
                                             start=1):
        for conv in range(1, convs + 1):
            x = layers.Conv2D(filters, (3, 3), activation="relu", padding="same",
                              name=f"block{block}_conv{conv}")(x)
        x = layers.MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = layers.Flatten(name="flatten")(x)
        x = layers.Dense(4096, activation="relu", name="fc1")(x)
        x = layers.Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = layers.GlobalAveragePooling2D()(x)
    elif pooling == "max":
        x = layers.GlobalMaxPooling2D()(x)

    def imagenet_file():
        suffix = "" if include_top else "_notop"
        fname = f"{name}_weights_tf_dim_ordering_tf_kernels{suffix}.h5"
        return (fname, f"{builder.WEIGHTS_ROOT}{name}/{fname}",
                _HASHES[name][0 if include_top else 1])
    return builder.finish(img_input, input_tensor, x, name, weights, imagenet_file)


def VGG16(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,  # noqa: N802
          input_shape: Any = None, pooling: Optional[str] = None, classes: int = 1000,
          classifier_activation: Any = "softmax") -> Any:
    """VGG16: 13 convolutions in 5 blocks (+ 3 dense layers with `include_top`)."""
    return _vgg((2, 2, 3, 3, 3), "vgg16", include_top, weights, input_tensor, input_shape,
                pooling, classes, classifier_activation)


def VGG19(include_top: bool = True, weights: Any = "imagenet", input_tensor: Any = None,  # noqa: N802
          input_shape: Any = None, pooling: Optional[str] = None, classes: int = 1000,
          classifier_activation: Any = "softmax") -> Any:
    """VGG19: 16 convolutions in 5 blocks (+ 3 dense layers with `include_top`)."""
    return _vgg((2, 2, 4, 4, 4), "vgg19", include_top, weights, input_tensor, input_shape,
                pooling, classes, classifier_activation)


def preprocess_input(x: Any, data_format: Optional[str] = None) -> Any:
    """Caffe-style preprocessing (RGB to BGR, ImageNet mean subtracted)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="caffe")


decode_predictions = imagenet_utils.decode_predictions
