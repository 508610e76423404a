"""Keras pooling layers: Max/AveragePooling1D/2D/3D and Global{Average,Max}Pooling1D/2D/3D."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.ops import array_ops, nn_pool

__all__ = ["MaxPooling1D", "MaxPooling2D", "MaxPooling3D", "AveragePooling1D",
           "AveragePooling2D", "AveragePooling3D", "GlobalAveragePooling1D",
           "GlobalAveragePooling2D", "GlobalAveragePooling3D", "GlobalMaxPooling1D",
           "GlobalMaxPooling2D", "GlobalMaxPooling3D", "MaxPool1D", "MaxPool2D", "MaxPool3D",
           "AvgPool1D", "AvgPool2D", "AvgPool3D", "GlobalAvgPool1D", "GlobalAvgPool2D",
           "GlobalAvgPool3D", "GlobalMaxPool1D", "GlobalMaxPool2D", "GlobalMaxPool3D"]


class _Pooling(Layer):
    """Pooling over `rank` spatial axes with `pool_function` (a tf.nn pool op)."""

    rank = 2

    def __init__(self, pool_function: Callable, pool_size: Any, strides: Any,
                 padding: str = "valid", data_format: Optional[str] = None,
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(name=name, **kwargs)
        if data_format is None:
            data_format = backend.image_data_format()
        if strides is None:
            strides = pool_size
        self.pool_function = pool_function
        self.pool_size = conv_utils.normalize_tuple(pool_size, self.rank, "pool_size")
        self.strides = conv_utils.normalize_tuple(strides, self.rank, "strides",
                                                  allow_zero=True)
        self.padding = conv_utils.normalize_padding(padding)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        first = 2 if self.data_format == "channels_first" else 1
        out = list(dims)
        for i in range(self.rank):
            out[first + i] = conv_utils.conv_output_length(dims[first + i], self.pool_size[i],
                                                           self.padding, self.strides[i])
        return TensorShape(out)

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding,
                       "strides": self.strides, "data_format": self.data_format})
        return config


class _Pooling1D(_Pooling):
    rank = 1

    def __init__(self, pool_function: Callable, pool_size: Any, strides: Any,
                 padding: str = "valid", data_format: str = "channels_last",
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(pool_function, pool_size, strides, padding=padding,
                         data_format=data_format, name=name, **kwargs)

    def call(self, inputs: Any) -> Any:
        pad_axis = 2 if self.data_format == "channels_last" else 3
        inputs = array_ops.expand_dims(inputs, pad_axis)
        outputs = self.pool_function(inputs, self.pool_size + (1,),
                                     strides=self.strides + (1,), padding=self.padding,
                                     data_format=self.data_format)
        return array_ops.squeeze(outputs, pad_axis)


class _Pooling2D(_Pooling):
    rank = 2

    def call(self, inputs: Any) -> Any:
        if self.data_format == "channels_last":
            pool_shape = (1,) + self.pool_size + (1,)
            strides = (1,) + self.strides + (1,)
        else:
            pool_shape = (1, 1) + self.pool_size
            strides = (1, 1) + self.strides
        return self.pool_function(inputs, ksize=pool_shape, strides=strides,
                                  padding=self.padding.upper(),
                                  data_format=conv_utils.convert_data_format(self.data_format,
                                                                             4))


class _Pooling3D(_Pooling):
    rank = 3

    def call(self, inputs: Any) -> Any:
        pool_shape = (1,) + self.pool_size + (1,)
        strides = (1,) + self.strides + (1,)
        if self.data_format == "channels_first":
            from tf1compat.ops.transform_ops import transpose
            inputs = transpose(inputs, (0, 2, 3, 4, 1))
        outputs = self.pool_function(inputs, ksize=pool_shape, strides=strides,
                                     padding=self.padding.upper())
        if self.data_format == "channels_first":
            from tf1compat.ops.transform_ops import transpose
            outputs = transpose(outputs, (0, 4, 1, 2, 3))
        return outputs


def _pool1d(mode: str) -> Callable:
    def fn(x: Any, pool_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Optional[str] = None) -> Any:
        return backend.pool2d(x, pool_size, strides=strides, padding=padding,
                              data_format=data_format, pool_mode=mode)
    return fn


def _pool3d(op: Callable) -> Callable:
    def fn(x: Any, ksize: Any, strides: Any, padding: str) -> Any:
        return op(x, ksize, strides, padding)
    return fn


def _make(base: type, cls_name: str, fn: Callable, default_pool: Any,
          default_format: Any = None) -> type:
    def __init__(self: Any, pool_size: Any = default_pool, strides: Any = None,
                 padding: str = "valid", data_format: Any = default_format,
                 **kwargs: Any) -> None:
        base.__init__(self, fn, pool_size=pool_size, strides=strides, padding=padding,
                      data_format=data_format, **kwargs)
    return type(cls_name, (base,), {"__init__": __init__, "__module__": __name__,
                                    "__doc__": f"`tf.keras.layers.{cls_name}`."})


MaxPooling1D = MaxPool1D = _make(_Pooling1D, "MaxPooling1D", _pool1d("max"), 2,
                                 "channels_last")
AveragePooling1D = AvgPool1D = _make(_Pooling1D, "AveragePooling1D", _pool1d("avg"), 2,
                                     "channels_last")
MaxPooling2D = MaxPool2D = _make(_Pooling2D, "MaxPooling2D", nn_pool.max_pool, (2, 2))
AveragePooling2D = AvgPool2D = _make(_Pooling2D, "AveragePooling2D", nn_pool.avg_pool, (2, 2))
MaxPooling3D = MaxPool3D = _make(_Pooling3D, "MaxPooling3D", _pool3d(nn_pool.max_pool3d),
                                 (2, 2, 2))
AveragePooling3D = AvgPool3D = _make(_Pooling3D, "AveragePooling3D",
                                     _pool3d(nn_pool.avg_pool3d), (2, 2, 2))


class _GlobalPooling(Layer):
    """Reduces all spatial axes (mean or max), optionally keeping them as size 1."""

    rank = 2
    reduce = staticmethod(backend.mean)

    def __init__(self, data_format: Optional[str] = None, keepdims: bool = False,
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.keepdims = keepdims

    def _axes(self) -> list:
        first = 2 if self.data_format == "channels_first" else 1
        return list(range(first, first + self.rank))

    def build(self, input_shape: Any) -> None:
        dims = TensorShape(input_shape).as_list()
        for axis in self._axes():
            if dims[axis] == 0:
                raise ValueError(f"Incorrect input shape {tuple(dims)} with dimension 0 at "
                                 f"reduction axis {axis}.")

    def call(self, inputs: Any) -> Any:
        axes = self._axes()
        return type(self).reduce(inputs, axis=axes if self.rank > 1 else axes[0],
                                 keepdims=self.keepdims)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        dims = TensorShape(input_shape).as_list()
        axes = self._axes()
        if self.keepdims:
            return TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
        return TensorShape([d for i, d in enumerate(dims) if i not in axes])

    def get_config(self) -> dict:
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


def _global(cls_name: str, rank: int, reduce: Callable) -> type:
    return type(cls_name, (_GlobalPooling,), {"rank": rank, "reduce": staticmethod(reduce),
                                              "__module__": __name__,
                                              "__doc__": f"`tf.keras.layers.{cls_name}`."})




class GlobalAveragePooling1D(_GlobalPooling):
    """`tf.keras.layers.GlobalAveragePooling1D`: the mean over steps; with a mask, over
    the unmasked steps only (the mask stops here)."""

    rank = 1
    reduce = staticmethod(backend.mean)

    def __init__(self, data_format: str = "channels_last", **kwargs: Any):
        super().__init__(data_format=data_format, **kwargs)
        self.supports_masking = True

    def call(self, inputs: Any, mask: Any = None) -> Any:
        if mask is None:
            return super().call(inputs)
        from tf1compat.ops import math_ops, reduction_ops
        from tf1compat.ops.array_ops import expand_dims
        steps_axis = 1 if self.data_format == "channels_last" else 2
        mask = math_ops.cast(mask, inputs[0].dtype)
        mask = expand_dims(mask, 2 if self.data_format == "channels_last" else 1)
        inputs *= mask
        return backend.sum(inputs, axis=steps_axis, keepdims=self.keepdims) / \
            reduction_ops.reduce_sum(mask, axis=steps_axis, keepdims=self.keepdims)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return None


GlobalAvgPool1D = GlobalAveragePooling1D
GlobalAveragePooling2D = GlobalAvgPool2D = _global("GlobalAveragePooling2D", 2, backend.mean)
GlobalAveragePooling3D = GlobalAvgPool3D = _global("GlobalAveragePooling3D", 3, backend.mean)
GlobalMaxPooling1D = GlobalMaxPool1D = _global("GlobalMaxPooling1D", 1, backend.max)
GlobalMaxPooling2D = GlobalMaxPool2D = _global("GlobalMaxPooling2D", 2, backend.max)
GlobalMaxPooling3D = GlobalMaxPool3D = _global("GlobalMaxPooling3D", 3, backend.max)
