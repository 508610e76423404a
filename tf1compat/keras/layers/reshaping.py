"""Keras spatial reshaping layers: Cropping1D/2D/3D, UpSampling1D/2D/3D and
ZeroPadding1D/2D/3D, one implementation per family over the spatial rank.

Amounts are normalized as tf-keras does: an int for every side, one int per spatial
axis (both sides), or a (before, after) pair per axis; 1D layers take an int or a pair.
UpSampling repeats elements (nearest) or resizes bilinearly (2D, TF2's half-pixel
`tf.image.resize`).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils

__all__ = ["Cropping1D", "Cropping2D", "Cropping3D", "UpSampling1D", "UpSampling2D",
           "UpSampling3D", "ZeroPadding1D", "ZeroPadding2D", "ZeroPadding3D"]

_ORDINALS = ("1st", "2nd", "3rd")


def _pairs(value: Any, rank: int, what: str) -> Tuple[Tuple[int, int], ...]:
    """((before, after),) * rank from an int, `rank` ints or `rank` pairs."""
    if isinstance(value, int):
        return tuple((value, value) for _ in range(rank))
    if hasattr(value, "__len__"):
        if len(value) != rank:
            raise ValueError(f"`{what}` should have {rank} elements. Received: "
                             f"{what}={value}.")
        if all(isinstance(v, int) for v in value):
            return tuple((v, v) for v in value)
        return tuple(conv_utils.normalize_tuple(v, 2, f"{_ORDINALS[i]} entry of {what}",
                                                allow_zero=True)
                     for i, v in enumerate(value))
    raise ValueError(f"`{what}` should be either an int, a tuple of {rank} ints, or a tuple "
                     f"of {rank} tuples of 2 ints. Received: {what}={value}.")


class _Spatial(Layer):
    """Shared: the data format and the index of the first spatial axis."""

    rank = 1

    def __init__(self, data_format: Optional[str] = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.data_format = conv_utils.normalize_data_format(data_format) \
            if self.rank > 1 else "channels_last"
        self.input_spec = InputSpec(ndim=self.rank + 2)

    @property
    def _first(self) -> int:
        return 2 if self.data_format == "channels_first" else 1

    def _map_spatial(self, input_shape: Any, fn: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        for i in range(self.rank):
            axis = self._first + i
            dims[axis] = None if dims[axis] is None else fn(i, dims[axis])
        return TensorShape(dims)

    def _format_config(self) -> dict:
        return {"data_format": self.data_format} if self.rank > 1 else {}


class _Cropping(_Spatial):
    def __init__(self, cropping: Any, data_format: Optional[str] = None, **kwargs: Any):
        super().__init__(data_format=data_format, **kwargs)
        if self.rank == 1:
            self.cropping = conv_utils.normalize_tuple(cropping, 2, "cropping",
                                                       allow_zero=True)
        else:
            self.cropping = _pairs(cropping, self.rank, "cropping")

    def _crops(self) -> Sequence[Tuple[int, int]]:
        return [self.cropping] if self.rank == 1 else self.cropping

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        crops = self._crops()
        return self._map_spatial(input_shape, lambda i, d: d - crops[i][0] - crops[i][1])

    def call(self, inputs: Any) -> Any:
        crops = self._crops()
        for i, (a, b) in enumerate(crops):
            size = inputs.shape[self._first + i]
            if size is not None and a + b >= size:
                raise ValueError("Argument `cropping` must be greater than the input shape. "
                                 f"Received: inputs.shape={inputs.shape}, and "
                                 f"cropping={self.cropping}")
        index = [slice(None)] * (self.rank + 2)
        for i, (a, b) in enumerate(crops):
            index[self._first + i] = slice(a, -b if b else None)
        return inputs[tuple(index)]

    def get_config(self) -> dict:
        return {**super().get_config(), "cropping": self.cropping, **self._format_config()}


class Cropping1D(_Cropping):
    """Crops the steps axis: (left, right)."""

    rank = 1

    def __init__(self, cropping: Any = (1, 1), **kwargs: Any):
        super().__init__(cropping, **kwargs)


class Cropping2D(_Cropping):
    """Crops rows and columns."""

    rank = 2

    def __init__(self, cropping: Any = ((0, 0), (0, 0)), data_format: Optional[str] = None,
                 **kwargs: Any):
        super().__init__(cropping, data_format=data_format, **kwargs)


class Cropping3D(_Cropping):
    """Crops the three spatial axes."""

    rank = 3

    def __init__(self, cropping: Any = ((1, 1), (1, 1), (1, 1)),
                 data_format: Optional[str] = None, **kwargs: Any):
        super().__init__(cropping, data_format=data_format, **kwargs)


class _ZeroPadding(_Spatial):
    def __init__(self, padding: Any, data_format: Optional[str] = None, **kwargs: Any):
        super().__init__(data_format=data_format, **kwargs)
        if self.rank == 1:
            self.padding = conv_utils.normalize_tuple(padding, 2, "padding", allow_zero=True)
        else:
            self.padding = _pairs(padding, self.rank, "padding")

    def _pads(self) -> Sequence[Tuple[int, int]]:
        return [self.padding] if self.rank == 1 else self.padding

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        pads = self._pads()
        return self._map_spatial(input_shape, lambda i, d: d + pads[i][0] + pads[i][1])

    def call(self, inputs: Any) -> Any:
        from tf1compat.ops.transform_ops import pad
        pattern = [[0, 0] for _ in range(self.rank + 2)]
        for i, (a, b) in enumerate(self._pads()):
            pattern[self._first + i] = [a, b]
        return pad(inputs, pattern)

    def get_config(self) -> dict:
        return {**super().get_config(), "padding": self.padding, **self._format_config()}


class ZeroPadding1D(_ZeroPadding):
    """Pads the steps axis with zeros: an int or (left, right)."""

    rank = 1

    def __init__(self, padding: Any = 1, **kwargs: Any):
        super().__init__(padding, **kwargs)


class ZeroPadding2D(_ZeroPadding):
    """Pads rows and columns with zeros: an int, (rows, cols) or ((top, bottom), (l, r))."""

    rank = 2

    def __init__(self, padding: Any = (1, 1), data_format: Optional[str] = None,
                 **kwargs: Any):
        super().__init__(padding, data_format=data_format, **kwargs)


class ZeroPadding3D(_ZeroPadding):
    """Pads the three spatial axes with zeros."""

    rank = 3

    def __init__(self, padding: Any = (1, 1, 1), data_format: Optional[str] = None,
                 **kwargs: Any):
        super().__init__(padding, data_format=data_format, **kwargs)


class _UpSampling(_Spatial):
    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        sizes = [self.size] if self.rank == 1 else self.size
        return self._map_spatial(input_shape, lambda i, d: d * sizes[i])

    def call(self, inputs: Any) -> Any:
        sizes = [self.size] if self.rank == 1 else self.size
        for i, factor in enumerate(sizes):
            inputs = backend.repeat_elements(inputs, factor, axis=self._first + i)
        return inputs

    def get_config(self) -> dict:
        return {**super().get_config(), "size": self.size, **self._format_config()}


class UpSampling1D(_UpSampling):
    """Repeats each step `size` times."""

    rank = 1

    def __init__(self, size: int = 2, **kwargs: Any):
        super().__init__(**kwargs)
        self.size = int(size)


class UpSampling2D(_UpSampling):
    """Scales rows and columns by `size` (nearest: repeats; bilinear: TF2's resize)."""

    rank = 2

    def __init__(self, size: Any = (2, 2), data_format: Optional[str] = None,
                 interpolation: str = "nearest", **kwargs: Any):
        super().__init__(data_format=data_format, **kwargs)
        self.size = conv_utils.normalize_tuple(size, 2, "size")
        if interpolation not in ("nearest", "bilinear", "bicubic", "area", "gaussian",
                                 "lanczos3", "lanczos5", "mitchellcubic"):
            raise ValueError("`interpolation` argument should be one of: \"area\", "
                             "\"bicubic\", \"bilinear\", \"gaussian\", \"lanczos3\", "
                             "\"lanczos5\", \"mitchellcubic\", \"nearest\". Received: "
                             f"\"{interpolation}\".")
        self.interpolation = interpolation

    def call(self, inputs: Any) -> Any:
        if self.interpolation == "nearest":
            return super().call(inputs)
        return backend.resize_images(inputs, self.size[0], self.size[1], self.data_format,
                                     interpolation=self.interpolation)

    def get_config(self) -> dict:
        return {**super().get_config(), "interpolation": self.interpolation}


class UpSampling3D(_UpSampling):
    """Repeats each element along the three spatial axes."""

    rank = 3

    def __init__(self, size: Any = (2, 2, 2), data_format: Optional[str] = None,
                 **kwargs: Any):
        super().__init__(data_format=data_format, **kwargs)
        self.size = conv_utils.normalize_tuple(size, 3, "size")
