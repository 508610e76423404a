"""What every `tf.keras.applications` constructor shares: argument checks, the input
layer, the classifier or pooling head, the model's name and its weights (None, an
`.h5` path, or "imagenet": tf-keras's file, downloaded once into `~/.keras/models/` by
`keras.utils.get_file` and then loaded by topology as tf-keras loads it)."""

from __future__ import annotations

import os
from typing import Any, Callable, Optional, Tuple

from tf1compat.keras import backend_core
from tf1compat.keras.applications import imagenet_utils
from tf1compat.keras.engine.input_layer import Input
from tf1compat.keras.engine.training import Model
from tf1compat.keras.utils.file_utils import get_file
from tf1compat.keras.utils.layer_utils import get_source_inputs

__all__ = ["check_weights", "image_input", "classifier_head", "finish", "channel_axis",
           "WEIGHTS_ROOT"]

WEIGHTS_ROOT = "https://storage.googleapis.com/tensorflow/keras-applications/"


def channel_axis(rank4_index: bool = True) -> int:
    """The channel axis of image batches: 3 (or -1) for channels_last, 1 otherwise."""
    if backend_core.image_data_format() == "channels_first":
        return 1
    return 3 if rank4_index else -1


def check_weights(weights: Any, include_top: bool, classes: int) -> None:
    """tf-keras's checks of `weights` ("imagenet", None or an existing file) and of
    `classes` with ImageNet's classifier."""
    if not (weights in {"imagenet", None} or os.path.exists(str(weights))):
        raise ValueError("The `weights` argument should be either `None` (random "
                         "initialization), `imagenet` (pre-training on ImageNet), or the "
                         "path to the weights file to be loaded.  Received: "
                         f"weights={weights}")
    if weights == "imagenet" and include_top and classes != 1000:
        raise ValueError('If using `weights` as `"imagenet"` with `include_top` as true, '
                         f"`classes` should be 1000.  Received `classes={classes}`")


def image_input(input_tensor: Any, input_shape: Any, default_size: int, min_size: int,
                include_top: bool, weights: Any) -> Tuple[Any, Any]:
    """(the resolved input shape, the Keras tensor the network starts from)."""
    shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=min_size,
        data_format=backend_core.image_data_format(), require_flatten=include_top,
        weights=weights)
    if input_tensor is None:
        return shape, Input(shape=shape)
    if not backend_core.is_keras_tensor(input_tensor):
        return shape, Input(tensor=input_tensor, shape=shape)
    return shape, input_tensor


def classifier_head(x: Any, include_top: bool, pooling: Optional[str], classes: int,
                    classifier_activation: Any, weights: Any,
                    pool_names: Tuple[Optional[str], Optional[str], Optional[str]]
                    = ("avg_pool", None, None)) -> Any:
    """Global average pooling + Dense `predictions` (include_top), or the `pooling`
    ("avg"/"max") feature vector; `pool_names` are the names tf-keras gives the pooling
    layer of the top, of pooling="avg" and of pooling="max" (None: automatic)."""
    from tf1compat.keras import layers
    if include_top:
        x = layers.GlobalAveragePooling2D(name=pool_names[0])(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        return layers.Dense(classes, activation=classifier_activation, name="predictions")(x)
    if pooling == "avg":
        return layers.GlobalAveragePooling2D(name=pool_names[1])(x)
    if pooling == "max":
        return layers.GlobalMaxPooling2D(name=pool_names[2])(x)
    return x


def finish(img_input: Any, input_tensor: Any, outputs: Any, name: str, weights: Any,
           imagenet_file: Callable[[], Tuple[str, str, Optional[str]]]) -> Model:
    """The functional model, with its weights loaded; `imagenet_file()` gives (file
    name, URL, md5 or None) of the ImageNet weights."""
    inputs = get_source_inputs(input_tensor) if input_tensor is not None else img_input
    model = Model(inputs, outputs, name=name)
    if weights == "imagenet":
        fname, origin, md5 = imagenet_file()
        model.load_weights(get_file(fname, origin, cache_subdir="models", file_hash=md5))
    elif weights is not None:
        model.load_weights(weights)
    return model
