"""`tf.keras.applications.imagenet_utils`: ImageNet input preprocessing ("caffe", "tf",
"torch" modes), `decode_predictions` and the input-shape rules the architectures share,
as tf-keras 2.21 defines them.

`decode_predictions` reads ImageNet's class index JSON through `keras.utils.get_file`
(downloaded once into `~/.keras/models/`, or used from there when already cached).
"""

from __future__ import annotations

import json
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.keras import activations
from tf1compat.keras import backend_core
from tf1compat.keras.utils.file_utils import get_file

__all__ = ["preprocess_input", "decode_predictions", "obtain_input_shape", "correct_pad",
           "validate_activation", "CLASS_INDEX_PATH"]

CLASS_INDEX_PATH = ("https://storage.googleapis.com/download.tensorflow.org/data/"
                    "imagenet_class_index.json")
_CLASS_INDEX_MD5 = "c2c37ea517e94d9795004a39431a14cb"
_class_index: Optional[Dict[str, List[str]]] = None

# ImageNet's per-channel statistics: BGR means on the 0-255 scale ("caffe") and RGB
# means and standard deviations on the 0-1 scale ("torch").
_CAFFE_MEAN = [103.939, 116.779, 123.68]
_TORCH_MEAN = [0.485, 0.456, 0.406]
_TORCH_STD = [0.229, 0.224, 0.225]


def preprocess_input(x: Any, data_format: Optional[str] = None, mode: str = "caffe") -> Any:
    """ImageNet preprocessing of an RGB batch or image: "caffe" (to BGR, minus the mean),
    "tf" (scaled to [-1, 1]) or "torch" (to [0, 1], normalized per channel). A float
    numpy array is modified in place, as in tf-keras; tensors get graph ops."""
    if mode not in {"caffe", "tf", "torch"}:
        raise ValueError("Expected mode to be one of `caffe`, `tf` or `torch`. Received: "
                         f"mode={mode}")
    if data_format is None:
        data_format = backend_core.image_data_format()
    elif data_format not in {"channels_first", "channels_last"}:
        raise ValueError("Expected data_format to be one of `channels_first` or "
                         f"`channels_last`. Received: data_format={data_format}")
    if isinstance(x, np.ndarray):
        return _preprocess_numpy(x, data_format, mode)
    return _preprocess_tensor(x, data_format, mode)


def _to_bgr(x: Any, data_format: str, ndim: int) -> Any:
    if data_format == "channels_last":
        return x[..., ::-1]
    return x[::-1, ...] if ndim == 3 else x[:, ::-1, ...]


def _scale(x: Any, data_format: str, mode: str, ndim: int) -> Tuple[Any, Any, Any]:
    """The mode's scaling (all of "tf", or "torch"'s to [0, 1] and "caffe"'s to BGR) and
    the per-channel (mean, std) still to apply (None, None for "tf")."""
    if mode == "tf":
        x /= 127.5
        x -= 1.0
        return x, None, None
    if mode == "torch":
        x /= 255.0
        return x, _TORCH_MEAN, _TORCH_STD
    return _to_bgr(x, data_format, ndim), _CAFFE_MEAN, None


def _preprocess_numpy(x: np.ndarray, data_format: str, mode: str) -> np.ndarray:
    if not issubclass(x.dtype.type, np.floating):
        x = x.astype(backend_core.floatx(), copy=False)
    x, mean, std = _scale(x, data_format, mode, x.ndim)
    if mean is None:
        return x
    for c in range(3):
        if data_format == "channels_last":
            index: Tuple[Any, ...] = (Ellipsis, c)
        else:
            index = (c,) if x.ndim == 3 else (slice(None), c)
        x[index] -= mean[c]
        if std is not None:
            x[index] /= std[c]
    return x


def _preprocess_tensor(x: Any, data_format: str, mode: str) -> Any:
    from tf1compat.keras import backend
    x, mean, std = _scale(x, data_format, mode, backend.ndim(x))
    if mean is None:
        return x
    neg_mean = backend.constant(-np.array(mean))
    if backend.dtype(x) != backend.dtype(neg_mean):
        neg_mean = backend.cast(neg_mean, backend.dtype(x))
    x = backend.bias_add(x, neg_mean, data_format=data_format)
    if std is not None:
        std_tensor = backend.constant(np.array(std), dtype=backend.dtype(x))
        if data_format == "channels_first":
            std_tensor = backend.reshape(std_tensor, (-1, 1, 1))
        x /= std_tensor
    return x


def decode_predictions(preds: np.ndarray, top: int = 5) -> List[List[Tuple[str, str, Any]]]:
    """Per sample, the `top` (class id, class name, score) of 1000 ImageNet scores,
    highest first."""
    global _class_index
    if len(preds.shape) != 2 or preds.shape[1] != 1000:
        raise ValueError("`decode_predictions` expects a batch of predictions (i.e. a 2D "
                         "array of shape (samples, 1000)). Found array with shape: "
                         + str(preds.shape))
    if _class_index is None:
        path = get_file("imagenet_class_index.json", CLASS_INDEX_PATH,
                        cache_subdir="models", file_hash=_CLASS_INDEX_MD5)
        with open(path) as f:
            _class_index = json.load(f)
    results = []
    for pred in preds:
        best = pred.argsort()[-top:][::-1]
        row = [tuple(_class_index[str(i)]) + (pred[i],) for i in best]
        row.sort(key=lambda entry: entry[2], reverse=True)
        results.append(row)
    return results


def _default_shape(input_shape: Optional[Sequence], default_size: int, data_format: str,
                   weights: Any) -> Tuple[int, int, int]:
    if weights != "imagenet" and input_shape and len(input_shape) == 3:
        channels = input_shape[0] if data_format == "channels_first" else input_shape[-1]
        if channels not in {1, 3}:
            warnings.warn("This model usually expects 1 or 3 input channels. However, it was "
                          f"passed an input_shape with {channels} input channels.",
                          stacklevel=3)
    else:
        channels = 3
    if data_format == "channels_first":
        return (channels, default_size, default_size)
    return (default_size, default_size, channels)


def obtain_input_shape(input_shape: Optional[Sequence], default_size: int, min_size: int,
                       data_format: str, require_flatten: bool, weights: Any = None
                       ) -> Tuple:
    """The model's input shape: `input_shape` checked (3 channels for ImageNet weights,
    at least `min_size` pixels) or a default; a top classifier needs a static shape."""
    default_shape = _default_shape(input_shape, default_size, data_format, weights)
    if weights == "imagenet" and require_flatten:
        if input_shape is not None and input_shape != default_shape:
            raise ValueError("When setting `include_top=True` and loading `imagenet` "
                             f"weights, `input_shape` should be {default_shape}.  Received: "
                             f"input_shape={input_shape}")
        return default_shape
    if input_shape:
        if len(input_shape) != 3:
            raise ValueError("`input_shape` must be a tuple of three integers.")
        if data_format == "channels_first":
            channels, rows, cols = input_shape
        else:
            rows, cols, channels = input_shape
        if channels != 3 and weights == "imagenet":
            raise ValueError("The input must have 3 channels; Received "
                             f"`input_shape={input_shape}`")
        if (rows is not None and rows < min_size) or (cols is not None and cols < min_size):
            raise ValueError(f"Input size must be at least {min_size}x{min_size}; Received: "
                             f"input_shape={input_shape}")
    elif require_flatten:
        input_shape = default_shape
    else:
        input_shape = (3, None, None) if data_format == "channels_first" else (None, None, 3)
    if require_flatten and None in input_shape:
        raise ValueError("If `include_top` is True, you should specify a static "
                         f"`input_shape`. Received: input_shape={input_shape}")
    return input_shape


def correct_pad(inputs: Any, kernel_size: Any) -> Tuple[Tuple[int, int], Tuple[int, int]]:
    """The zero padding before a stride-2 "valid" convolution that centres it as "same"
    would (one pixel less before an even dimension)."""
    first = 2 if backend_core.image_data_format() == "channels_first" else 1
    size = backend_core.int_shape(inputs)[first:first + 2]
    if isinstance(kernel_size, int):
        kernel_size = (kernel_size, kernel_size)
    adjust = (1, 1) if size[0] is None else (1 - size[0] % 2, 1 - size[1] % 2)
    half = (kernel_size[0] // 2, kernel_size[1] // 2)
    return ((half[0] - adjust[0], half[0]), (half[1] - adjust[1], half[1]))


def validate_activation(classifier_activation: Any, weights: Any) -> None:
    """Pretrained classifiers allow only a softmax or no activation."""
    if weights is None:
        return
    activation = activations.get(classifier_activation)
    if activation not in {activations.get("softmax"), activations.get(None)}:
        raise ValueError("Only `None` and `softmax` activations are allowed for the "
                         "`classifier_activation` argument when using pretrained weights, "
                         "with `include_top=True`; Received: "
                         f"classifier_activation={activation}")
