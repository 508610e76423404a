"""Keras preprocessing layers of tf-keras's v1 API: Rescaling, Resizing, CenterCrop,
Normalization, Discretization, CategoryEncoding, Hashing (also under
`tf.keras.layers.experimental.preprocessing`, with their base PreprocessingLayer).

As in tf-keras under TF1 behaviour, `adapt()` raises RuntimeError in graph mode ("only
supported in tensorflow v2"); under eager execution Normalization adapts (running mean and
variance over batches of 32, TF's update rule) and Discretization's quantile sketch is not
supported (NotImplementedError). Resizing uses TF 2's `tf.image.resize` kernels (half-pixel
bilinear / nearest / bicubic, area); the ScaleAndTranslate methods (lanczos, gaussian,
mitchellcubic) are not supported. Sparse outputs (`sparse=True`) are not supported.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.ops import (array_ops, creation_ops, image_ops, indexing_ops, math_extra,
                           math_ops, reduction_ops, strided_slice, string_ops)

__all__ = ["PreprocessingLayer", "Rescaling", "Resizing", "CenterCrop", "Normalization",
           "Discretization", "CategoryEncoding", "Hashing"]

_INT, _ONE_HOT, _MULTI_HOT, _COUNT = "int", "one_hot", "multi_hot", "count"
_H_AXIS, _W_AXIS = -3, -2


def _validate_mode(layer: str, output_mode: str, allowed: Sequence[str]) -> None:
    if output_mode not in allowed:
        raise ValueError(f"The `output_mode` argument of {layer} must be one of "
                         f"{', '.join(map(repr, allowed))}. Received: {output_mode}")


def _no_sparse(layer: str, sparse: bool, output_mode: Optional[str] = None) -> None:
    if sparse and output_mode == _INT:
        raise ValueError("`sparse` may only be true if `output_mode` is `\"one_hot\"`, "
                         "`\"multi_hot\"`, or `\"count\"`. Received: sparse=True and "
                         f"output_mode={output_mode}")
    if sparse:
        raise NotImplementedError(f"{layer}(sparse=True) is not supported by tf1compat")


def _int_output_dtype(output_mode: str, kwargs: dict) -> None:
    """Hashing/Discretization: int64 outputs for "int" mode, floatx otherwise."""
    if kwargs.get("dtype") is None:
        kwargs["dtype"] = D.int64 if output_mode == _INT else backend.floatx()
    elif output_mode == _INT and not D.as_dtype(kwargs["dtype"]).is_integer:
        kwargs["dtype"] = D.int64


def _listify(x: Any) -> Any:
    return x.tolist() if isinstance(x, np.ndarray) else x


def encode_categorical(inputs: Tensor, output_mode: str, depth: int, dtype: Any,
                       count_weights: Any = None) -> Tensor:
    """Integer indices as themselves ("int") or as one-hot / multi-hot / count rows."""
    if output_mode == _INT:
        return array_ops.identity(math_ops.cast(inputs, dtype))
    original_shape = inputs.shape
    if inputs.shape.rank == 0:
        inputs = array_ops.expand_dims(inputs, -1)
    if output_mode == _ONE_HOT and inputs.shape[-1] != 1:
        inputs = array_ops.expand_dims(inputs, -1)
    if inputs.shape.rank > 2:
        raise ValueError("When output_mode is not `'int'`, maximum supported output rank is "
                         f"2. Received output_mode {output_mode} and input shape "
                         f"{original_shape}, which would result in output rank "
                         f"{inputs.shape.rank}.")
    if count_weights is None:
        count_weights = creation_ops.zeros([0], dtype=dtype)
    result = math_extra.dense_bincount(inputs, depth, count_weights,
                                       binary_output=output_mode in (_MULTI_HOT, _ONE_HOT))
    if inputs.shape.rank == 1:
        result.set_shape(TensorShape([depth]))
    else:
        result.set_shape(TensorShape([inputs.shape.as_list()[0], depth]))
    return result


class PreprocessingLayer(Layer):
    """Base of the layers whose state `adapt()` computes from data."""

    def update_state(self, data: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} has no state to adapt")

    def finalize_state(self) -> None:
        """Derives the values `call` uses from the adapted state."""

    def reset_state(self) -> None:
        """Forgets the adapted state."""

    def adapt(self, data: Any, batch_size: Optional[int] = None,
              steps: Optional[int] = None) -> None:
        """Computes the layer's state from `data` (an array), in batches of 32."""
        from tf1compat.eager.context import executing_eagerly
        if not executing_eagerly():
            raise RuntimeError("`adapt` is only supported in tensorflow v2.")
        data = np.asarray(data)
        if not self.built:
            self.build(TensorShape(data.shape))
            self.built = True
        self.reset_state()
        batch = batch_size or 32
        starts = range(0, len(data), batch)
        for i, start in enumerate(starts):
            if steps is not None and i >= steps:
                break
            self.update_state(data[start:start + batch])
        self.finalize_state()


class Rescaling(Layer):
    """`tf.keras.layers.Rescaling`: `inputs * scale + offset`."""

    def __init__(self, scale: Any, offset: Any = 0.0, **kwargs: Any):
        self.scale = scale
        self.offset = offset
        super().__init__(**kwargs)

    def call(self, inputs: Any) -> Any:
        dtype = self.compute_dtype
        inputs = math_ops.cast(convert_to_tensor(inputs), dtype)
        scale = math_ops.cast(self.scale, dtype)
        offset = math_ops.cast(self.offset, dtype)
        return math_ops.cast(inputs, dtype) * scale + offset

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = {"scale": self.scale, "offset": self.offset}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


_RESIZERS = {"bilinear", "nearest", "bicubic", "area"}


def _resize(images: Tensor, size: List[int], interpolation: str) -> Tensor:
    """TF 2's `tf.image.resize` for the methods its plain kernels implement."""
    if interpolation not in _RESIZERS:
        raise NotImplementedError(f"Resizing with interpolation={interpolation!r} (TF's "
                                  "ScaleAndTranslate) is not supported by tf1compat; "
                                  f"use one of {sorted(_RESIZERS)}")
    with backend.name_scope("resize"):
        is_batch = images.shape.rank != 3
        if not is_batch:
            images = array_ops.expand_dims(images, 0)
        new_size = convert_to_tensor(size, dtype=D.int32, name="size")
        if interpolation == "area":
            out = image_ops.resize_area(images, new_size)
        else:
            resizer = {"bilinear": image_ops.resize_bilinear,
                       "nearest": image_ops.resize_nearest_neighbor,
                       "bicubic": image_ops.resize_bicubic}[interpolation]
            out = resizer(images, new_size, half_pixel_centers=True)
        out.set_shape([None, size[0], size[1], None])
        return out if is_batch else array_ops.squeeze(out, [0])


def smart_resize(images: Tensor, size: List[int], interpolation: str = "bilinear") -> Tensor:
    """Crops the largest centred window with the target aspect ratio, then resizes."""
    shape = array_ops.shape(images)
    height, width = shape[-3], shape[-2]
    target_height, target_width = size
    static_channels = images.shape[-1] if images.shape.rank is not None else None

    def to_int(x: Any) -> Any:
        return math_ops.cast(x, D.int32)
    crop_height = to_int(math_ops.cast(width * target_height, D.float32) / target_width)
    crop_width = to_int(math_ops.cast(height * target_width, D.float32) / target_height)
    crop_height = math_ops.minimum(height, crop_height)
    crop_width = math_ops.minimum(width, crop_width)
    h_start = to_int(math_ops.cast(height - crop_height, D.float32) / 2)
    w_start = to_int(math_ops.cast(width - crop_width, D.float32) / 2)
    if images.shape.rank == 4:
        start = array_ops.stack([0, h_start, w_start, 0])
        box = array_ops.stack([-1, crop_height, crop_width, -1])
    else:
        start = array_ops.stack([h_start, w_start, 0])
        box = array_ops.stack([crop_height, crop_width, -1])
    images = strided_slice.slice(images, start, box)
    images = _resize(images, list(size), interpolation)
    images.set_shape([None] * (images.shape.rank - 1) + [static_channels])
    return images


def _image_output_shape(input_shape: Any, height: int, width: int) -> TensorShape:
    dims = TensorShape(input_shape).as_list()
    dims[_H_AXIS] = height
    dims[_W_AXIS] = width
    return TensorShape(dims)


class Resizing(Layer):
    """`tf.keras.layers.Resizing`: images resized to (height, width)."""

    def __init__(self, height: int, width: int, interpolation: str = "bilinear",
                 crop_to_aspect_ratio: bool = False, **kwargs: Any):
        self.height = height
        self.width = width
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        super().__init__(**kwargs)

    def call(self, inputs: Any) -> Any:
        input_dtype = self.compute_dtype if self.interpolation == "nearest" else D.float32
        inputs = math_ops.cast(convert_to_tensor(inputs), input_dtype)
        size = [self.height, self.width]
        if self.crop_to_aspect_ratio:
            outputs = smart_resize(inputs, size, self.interpolation)
        else:
            outputs = _resize(inputs, size, self.interpolation)
        return math_ops.cast(outputs, self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return _image_output_shape(input_shape, self.height, self.width)

    def get_config(self) -> dict:
        config = {"height": self.height, "width": self.width,
                  "interpolation": self.interpolation,
                  "crop_to_aspect_ratio": self.crop_to_aspect_ratio}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class CenterCrop(Layer):
    """`tf.keras.layers.CenterCrop`: the centred (height, width) window; smaller images are
    resized up (after an aspect-preserving crop)."""

    def __init__(self, height: int, width: int, **kwargs: Any):
        self.height = height
        self.width = width
        super().__init__(**kwargs, autocast=False)

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.cond import cond
        inputs = math_ops.cast(convert_to_tensor(inputs), self.compute_dtype)
        input_shape = array_ops.shape(inputs)
        h_diff = input_shape[_H_AXIS] - self.height
        w_diff = input_shape[_W_AXIS] - self.width

        def center_crop() -> Any:
            h_start = math_ops.cast(h_diff / 2, D.int32)
            w_start = math_ops.cast(w_diff / 2, D.int32)
            return image_ops.crop_to_bounding_box(inputs, h_start, w_start, self.height,
                                                  self.width)

        def upsize() -> Any:
            outputs = smart_resize(inputs, [self.height, self.width])
            return math_ops.cast(outputs, self.compute_dtype)
        fits = reduction_ops.reduce_all(array_ops.stack([h_diff >= 0, w_diff >= 0]))
        return cond(fits, center_crop, upsize)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return _image_output_shape(input_shape, self.height, self.width)

    def get_config(self) -> dict:
        config = {"height": self.height, "width": self.width}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class Normalization(PreprocessingLayer):
    """`tf.keras.layers.Normalization`: `(x - mean) / max(sqrt(variance), epsilon)` over
    the kept `axis` (inverted with `invert=True`); mean and variance given or adapted
    (weights mean, variance, count)."""

    def __init__(self, axis: Any = -1, mean: Any = None, variance: Any = None,
                 invert: bool = False, **kwargs: Any):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, int):
            axis = (axis,)
        else:
            axis = tuple(axis)
        self.axis = axis
        from tf1compat.variables.variables import Variable
        for arg, value in (("mean", mean), ("variance", variance)):
            if isinstance(value, Variable):
                raise ValueError(f"Normalization does not support passing a Variable for "
                                 f"the `{arg}` init arg.")
        if (mean is not None) != (variance is not None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Got mean: {mean} and variance: {variance}")
        self.input_mean = mean
        self.input_variance = variance
        self.invert = invert

    def build(self, input_shape: Any) -> None:
        if isinstance(input_shape, (list, tuple)) and input_shape and \
                all(isinstance(s, TensorShape) for s in input_shape):
            raise ValueError("Normalization only accepts a single input. If you are passing "
                             "a python list or tuple as a single input, please convert to a "
                             "numpy array or `tf.Tensor`.")
        dims = TensorShape(input_shape).as_list()
        ndim = len(dims)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError("All `axis` values must be in the range [-ndim, ndim). Found "
                             f"ndim: `{ndim}`, axis: {self.axis}")
        self._keep_axis = sorted(d if d >= 0 else d + ndim for d in self.axis)
        for d in self._keep_axis:
            if dims[d] is None:
                raise ValueError("All `axis` values to be kept must have known shape. Got "
                                 f"axis: {self.axis}, input shape: {dims}, with unknown "
                                 f"axis at index: {d}")
        self._reduce_axis = [d for d in range(ndim) if d not in self._keep_axis]
        self._broadcast_shape = [dims[d] if d in self._keep_axis else 1 for d in range(ndim)]
        param_shape = tuple(dims[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=param_shape,
                                              dtype=self.compute_dtype, initializer="zeros",
                                              trainable=False)
            self.adapt_variance = self.add_weight(name="variance", shape=param_shape,
                                                  dtype=self.compute_dtype,
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype=D.int64,
                                         initializer="zeros", trainable=False)
            self.built = True
            self.finalize_state()
        else:
            mean = self.input_mean * np.ones(param_shape)
            variance = self.input_variance * np.ones(param_shape)
            self.mean = math_ops.cast(array_ops.reshape(mean, self._broadcast_shape),
                                      self.compute_dtype)
            self.variance = math_ops.cast(array_ops.reshape(variance, self._broadcast_shape),
                                          self.compute_dtype)
        self.built = True

    def update_state(self, data: Any) -> None:
        from tf1compat.ops.nn_norm import moments
        if self.input_mean is not None:
            raise ValueError("Cannot `adapt` a Normalization layer that is initialized with "
                             f"static `mean` and `variance`, you passed mean "
                             f"{self.input_mean} and variance {self.input_variance}.")
        data = math_ops.cast(convert_to_tensor(data), self.adapt_mean.dtype)
        batch_mean, batch_variance = moments(data, axes=self._reduce_axis)
        batch_shape = array_ops.shape(data, out_type=D.int64)
        batch_count: Any = 1
        if self._reduce_axis:
            batch_count = reduction_ops.reduce_prod(
                indexing_ops.gather(batch_shape, self._reduce_axis))
        total_count = batch_count + self.count
        batch_weight = math_ops.cast(batch_count, self.compute_dtype) / \
            math_ops.cast(total_count, self.compute_dtype)
        existing_weight = 1.0 - batch_weight
        total_mean = self.adapt_mean * existing_weight + batch_mean * batch_weight
        total_variance = (self.adapt_variance + (self.adapt_mean - total_mean) ** 2) * \
            existing_weight + (batch_variance + (batch_mean - total_mean) ** 2) * batch_weight
        self.adapt_mean.assign(total_mean)
        self.adapt_variance.assign(total_variance)
        self.count.assign(total_count)

    def reset_state(self) -> None:
        if self.input_mean is not None or not self.built:
            return
        self.adapt_mean.assign(creation_ops.zeros_like(self.adapt_mean))
        self.adapt_variance.assign(creation_ops.ones_like(self.adapt_variance))
        self.count.assign(creation_ops.zeros_like(self.count))

    def finalize_state(self) -> None:
        if self.input_mean is not None or not self.built:
            return
        self.mean = math_ops.cast(array_ops.reshape(self.adapt_mean, self._broadcast_shape),
                                  self.compute_dtype)
        self.variance = math_ops.cast(
            array_ops.reshape(self.adapt_variance, self._broadcast_shape), self.compute_dtype)

    def call(self, inputs: Any) -> Any:
        inputs = math_ops.cast(convert_to_tensor(inputs), self.compute_dtype)
        stddev = math_ops.maximum(math_ops.sqrt(self.variance), backend.epsilon())
        if self.invert:
            return self.mean + inputs * stddev
        return (inputs - self.mean) / stddev

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"axis": self.axis, "invert": self.invert,
                       "mean": _listify(self.input_mean),
                       "variance": _listify(self.input_variance)})
        return config


class Discretization(PreprocessingLayer):
    """`tf.keras.layers.Discretization`: each value's bucket among `bin_boundaries`
    (Bucketize), as an index or encoded like CategoryEncoding."""

    def __init__(self, bin_boundaries: Any = None, num_bins: Optional[int] = None,
                 epsilon: float = 0.01, output_mode: str = _INT, sparse: bool = False,
                 **kwargs: Any):
        if "bins" in kwargs:
            bins = kwargs.pop("bins")
            if isinstance(bins, int) and num_bins is None:
                num_bins = bins
            elif bin_boundaries is None:
                bin_boundaries = bins
        _int_output_dtype(output_mode, kwargs)
        super().__init__(**kwargs)
        _validate_mode("Discretization", output_mode, (_INT, _ONE_HOT, _MULTI_HOT, _COUNT))
        _no_sparse("Discretization", sparse, output_mode)
        if num_bins is not None and num_bins < 0:
            raise ValueError("`num_bins` must be greater than or equal to 0. You passed "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. You "
                             f"passed `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        bin_boundaries = _listify(bin_boundaries)
        self.input_bin_boundaries = bin_boundaries
        self.bin_boundaries = bin_boundaries if bin_boundaries is not None else []
        self.num_bins = num_bins
        self.epsilon = epsilon
        self.output_mode = output_mode
        self.sparse = sparse

    def build(self, input_shape: Any) -> None:
        if self.input_bin_boundaries is None:
            raise NotImplementedError("Discretization(num_bins=...) needs `adapt()`'s "
                                      "quantile sketch, which tf1compat does not support; "
                                      "pass `bin_boundaries`")
        self.built = True

    def update_state(self, data: Any) -> None:
        raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                         "with `bin_boundaries`, use `num_bins` instead. You passed "
                         f"`bin_boundaries={self.input_bin_boundaries}`.")

    def call(self, inputs: Any) -> Any:
        indices = math_extra.bucketize(convert_to_tensor(inputs), self.bin_boundaries)
        return encode_categorical(indices, self.output_mode, len(self.bin_boundaries) + 1,
                                  self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return _encoded_shape(input_shape, self.output_mode, len(self.bin_boundaries) + 1)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"bin_boundaries": self.input_bin_boundaries,
                       "num_bins": self.num_bins, "epsilon": self.epsilon,
                       "output_mode": self.output_mode, "sparse": self.sparse})
        return config


def _encoded_shape(input_shape: Any, output_mode: str, depth: int) -> TensorShape:
    dims = TensorShape(input_shape).as_list()
    if output_mode == _INT:
        return TensorShape(dims)
    if not dims:
        return TensorShape([depth])
    if output_mode == _ONE_HOT and dims[-1] != 1:
        return TensorShape(dims + [depth])
    return TensorShape(dims[:-1] + [depth])


class CategoryEncoding(Layer):
    """`tf.keras.layers.CategoryEncoding`: integer ids in [0, num_tokens) as one-hot,
    multi-hot or count rows (an Assert checks the range at run time)."""

    def __init__(self, num_tokens: Optional[int] = None, output_mode: str = _MULTI_HOT,
                 sparse: bool = False, **kwargs: Any):
        if "max_tokens" in kwargs:
            num_tokens = kwargs.pop("max_tokens")
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = _MULTI_HOT
        _validate_mode("CategoryEncoding", output_mode, (_COUNT, _ONE_HOT, _MULTI_HOT))
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of "
                             "tokens is not known beforehand, use the IntegerLookup layer "
                             "instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        _no_sparse("CategoryEncoding", sparse)
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse

    def call(self, inputs: Any, count_weights: Any = None) -> Any:
        from tf1compat.framework.graph import control_dependencies
        from tf1compat.ops.logging_ops import Assert
        inputs = convert_to_tensor(inputs)
        if count_weights is not None:
            if self.output_mode != _COUNT:
                raise ValueError("`count_weights` is not used when `output_mode` is not "
                                 f"`'count'`. Received `count_weights={count_weights}`.")
            count_weights = math_ops.cast(convert_to_tensor(count_weights),
                                          self.compute_dtype)
        depth = self.num_tokens
        max_value = reduction_ops.reduce_max(inputs)
        min_value = reduction_ops.reduce_min(inputs)
        condition = math_ops.logical_and(
            math_ops.greater(math_ops.cast(depth, max_value.dtype), max_value),
            math_ops.greater_equal(min_value, math_ops.cast(0, min_value.dtype)))
        assertion = Assert(condition, ["Input values must be in the range 0 <= values < "
                                       f"num_tokens with num_tokens={depth}"])
        with control_dependencies([assertion]):
            return encode_categorical(inputs, self.output_mode, depth, self.compute_dtype,
                                      count_weights)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return _encoded_shape(input_shape, self.output_mode, self.num_tokens)

    def get_config(self) -> dict:
        config = {"num_tokens": self.num_tokens, "output_mode": self.output_mode,
                  "sparse": self.sparse}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


class Hashing(Layer):
    """`tf.keras.layers.Hashing`: strings (or integers, as their decimal text) hashed into
    `num_bins` bins with FarmHash64 (StringToHashBucketFast), or SipHash keyed by `salt`
    (StringToHashBucketStrong); `mask_value` goes to bin 0 and the rest to 1..num_bins-1."""

    def __init__(self, num_bins: int, mask_value: Any = None, salt: Any = None,
                 output_mode: str = _INT, sparse: bool = False, **kwargs: Any):
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        _int_output_dtype(output_mode, kwargs)
        super().__init__(**kwargs)
        _validate_mode("Hashing", output_mode, (_INT, _ONE_HOT, _MULTI_HOT, _COUNT))
        _no_sparse("Hashing", sparse, output_mode)
        self.num_bins = num_bins
        self.mask_value = mask_value
        self.strong_hash = salt is not None
        self.output_mode = output_mode
        self.sparse = sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = salt
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of "
                                 f"size 2 integers, or a single integer. Received: "
                                 f"salt={salt}.")

    def _hash_values_to_bins(self, values: Tensor) -> Tensor:
        hash_bins = self.num_bins
        mask = None
        if self.mask_value is not None and hash_bins > 1:
            hash_bins -= 1
            mask = math_ops.equal(values, self.mask_value)
        if values.dtype.is_integer:
            values = string_ops.as_string(values)
        if self.strong_hash:
            values = string_ops.string_to_hash_bucket_strong(values, hash_bins, self.salt,
                                                             name="hash")
        else:
            values = string_ops.string_to_hash_bucket_fast(values, hash_bins, name="hash")
        if mask is not None:
            values = math_ops.add(values, creation_ops.ones_like(values))
            values = indexing_ops.where(mask, creation_ops.zeros_like(values), values)
        return values

    def call(self, inputs: Any) -> Any:
        indices = self._hash_values_to_bins(convert_to_tensor(inputs))
        return encode_categorical(indices, self.output_mode, self.num_bins,
                                  self.compute_dtype)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        return _encoded_shape(input_shape, self.output_mode, self.num_bins)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"num_bins": self.num_bins, "salt": self.salt,
                       "mask_value": self.mask_value, "output_mode": self.output_mode,
                       "sparse": self.sparse})
        return config
