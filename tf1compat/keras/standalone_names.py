"""Names of the standalone Keras 2.2.4 package that tf.keras dropped and 2018-era scripts and
custom layers still use: the lowercase optimizer aliases (`keras.optimizers.rmsprop(lr=...)`
in cifar10_cnn), `keras.initializers.one` / `zero`, the backend's `K.identity`, `K.slice`,
`K.is_tensor`, `K.get_variable_shape`, `K.separable_conv1d`, `K.conv3d_transpose`, and
helpers of `keras.utils.conv_utils` and `keras.utils.generic_utils`. tf1compat/shim_keras.py looks these up last, after the
tf1compat.keras modules each standalone path maps to.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.framework.misc import is_tensor as _is_tf_tensor
from tf1compat.keras import initializers as _initializers
from tf1compat.keras import optimizers as _optimizers
from tf1compat.keras.backend_core import int_shape
from tf1compat.keras.layers.conv_utils import deconv_output_length
from tf1compat.keras.utils.generic_utils import to_list

__all__ = ["sgd", "rmsprop", "adagrad", "adadelta", "adam", "adamax", "nadam", "zero", "one",
           "identity", "slice", "is_tensor", "get_variable_shape", "separable_conv1d",
           "conv3d_transpose", "conv_input_length",
           "deconv_length", "convert_kernel", "unpack_singleton", "transpose_shape",
           "object_list_uid", "is_all_none"]

# keras.optimizers: Keras 2.2.4 also named each optimizer class in lower case.
sgd = _optimizers.SGD
rmsprop = _optimizers.RMSprop
adagrad = _optimizers.Adagrad
adadelta = _optimizers.Adadelta
adam = _optimizers.Adam
adamax = _optimizers.Adamax
nadam = _optimizers.Nadam

# keras.initializers: the singular spellings next to `zeros` / `ones`.
zero = _initializers.Zeros
one = _initializers.Ones


# -- keras.backend ----------------------------------------------------------------------------

def identity(x: Any, name: Optional[str] = None) -> Any:
    """`K.identity`: `tf.identity(x, name)`."""
    from tf1compat.ops.array_ops import identity as tf_identity
    return tf_identity(x, name)


def slice(x: Any, start: Any, size: Any) -> Any:  # noqa: A001 - Keras's name
    """`K.slice`: `tf.slice(x, start, size)`."""
    from tf1compat.ops.strided_slice import slice as tf_slice
    return tf_slice(x, start, size)


def is_tensor(x: Any) -> bool:
    """`K.is_tensor`: whether `x` is a TensorFlow tensor or variable (not a numpy value)."""
    from tf1compat.variables.variables import Variable
    return isinstance(x, Variable) or _is_tf_tensor(x)


def get_variable_shape(x: Any) -> Any:
    """`K.get_variable_shape`: Keras 2.2.4's older name of `K.int_shape`."""
    return int_shape(x)


def _tf_data_format(data_format: Optional[str], rank: int) -> str:
    from tf1compat.keras.backend_core import image_data_format
    data_format = data_format or image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Unknown data_format: {data_format}")
    spatial = {4: "HW", 5: "DHW"}[rank]
    return ("NC" + spatial) if data_format == "channels_first" else ("N" + spatial + "C")


def separable_conv1d(x: Any, depthwise_kernel: Any, pointwise_kernel: Any, strides: Any = 1,
                     padding: str = "valid", data_format: Optional[str] = None,
                     dilation_rate: Any = 1) -> Any:
    """`K.separable_conv1d` (Keras 2.2.4's backend): a separable 2D convolution over the
    sequence with a height-1 axis added (kernels `(k, in, mult)` and `(1, in * mult, out)`)."""
    from tf1compat.ops.array_ops import expand_dims, squeeze
    from tf1compat.ops.nn_conv import separable_conv2d
    fmt = _tf_data_format(data_format, 4)
    strides = (strides,) if isinstance(strides, int) else tuple(strides)
    dilation_rate = (dilation_rate,) if isinstance(dilation_rate, int) \
        else tuple(dilation_rate)
    axis = 1 if fmt == "NHWC" else 2
    strides = (1,) + strides * 2 + (1,) if fmt == "NHWC" else (1, 1) + strides * 2
    out = separable_conv2d(expand_dims(x, axis), expand_dims(depthwise_kernel, 0),
                           expand_dims(pointwise_kernel, 0), strides=list(strides),
                           padding=padding.upper(), rate=[1] + list(dilation_rate),
                           data_format=fmt)
    return squeeze(out, [axis])


def conv3d_transpose(x: Any, kernel: Any, output_shape: Any, strides: Any = (1, 1, 1),
                     padding: str = "valid", data_format: Optional[str] = None) -> Any:
    """`K.conv3d_transpose` (Keras 2.2.4's backend): `tf.nn.conv3d_transpose`; an
    `output_shape` whose batch entry is None takes the input's batch size."""
    from tf1compat.ops.array_ops import shape, stack
    from tf1compat.ops.nn_conv import conv3d_transpose as tf_conv3d_transpose
    fmt = _tf_data_format(data_format, 5)
    if isinstance(output_shape, (tuple, list)):
        if output_shape[0] is None:
            output_shape = (shape(x)[0],) + tuple(output_shape[1:])
        output_shape = stack(list(output_shape))
    strides = (1,) + tuple(strides) + (1,) if fmt == "NDHWC" else (1, 1) + tuple(strides)
    return tf_conv3d_transpose(x, kernel, output_shape, list(strides),
                               padding=padding.upper(), data_format=fmt)


# -- keras.utils.conv_utils ---------------------------------------------------------------------

def _check_padding(padding: str) -> None:
    if padding not in ("same", "valid", "full"):
        raise ValueError(f"padding must be 'same', 'valid' or 'full', got {padding!r}")


def _padding_amount(padding: str, kernel_size: int) -> int:
    _check_padding(padding)
    return {"same": kernel_size // 2, "valid": 0, "full": kernel_size - 1}[padding]


def conv_input_length(output_length: Optional[int], filter_size: int, padding: str,
                      stride: int) -> Optional[int]:
    """The input length a convolution maps to `output_length` (None stays None)."""
    if output_length is None:
        return None
    pad = _padding_amount(padding, filter_size)
    return (output_length - 1) * stride - 2 * pad + filter_size


def deconv_length(dim_size: Optional[int], stride_size: int, kernel_size: int, padding: str,
                  output_padding: Optional[int], dilation: int = 1) -> Optional[int]:
    """The output length of a transposed convolution (Keras 2.2.4's rule: without
    `output_padding` the longest input-compatible length; with it, the exact one): tf.keras's
    `deconv_output_length` with Keras 2.2.4's argument order and padding error."""
    _check_padding(padding)    # before the None check, as Keras
    return deconv_output_length(dim_size, kernel_size, padding, output_padding,
                                stride=stride_size, dilation=dilation)


def convert_kernel(kernel: Any) -> np.ndarray:
    """A convolution kernel (rank 3 to 5) with its spatial axes reversed, a copy: converts
    kernels between Theano's convolution and TensorFlow's correlation."""
    kernel = np.asarray(kernel)
    if not 3 <= kernel.ndim <= 5:
        raise ValueError("Invalid kernel shape:", kernel.shape)
    spatial = tuple(np.s_[::-1] for _ in range(kernel.ndim - 2))
    return np.copy(kernel[spatial + (np.s_[:], np.s_[:])])


# -- keras.utils.generic_utils ------------------------------------------------------------------

def unpack_singleton(x: Sequence[Any]) -> Any:
    """The only element of a one-element list, else the list itself."""
    return x[0] if len(x) == 1 else x


def transpose_shape(shape: Any, target_format: str, spatial_axes: Sequence[int]) -> Any:
    """A channels-last shape rearranged for `target_format` ("channels_first" moves the
    last entry before `spatial_axes`; "channels_last" returns it as is)."""
    if target_format == "channels_last":
        return shape
    if target_format != "channels_first":
        raise ValueError('The `data_format` argument must be one of "channels_first", '
                         f'"channels_last". Received: {target_format}')
    values = tuple(shape[:spatial_axes[0]]) + (shape[-1],) + \
        tuple(shape[axis] for axis in spatial_axes)
    return list(values) if isinstance(shape, list) else values


def object_list_uid(object_list: Any) -> str:
    """The ids of the objects, joined by ", " (Keras's cache key for a list of tensors)."""
    return ", ".join(str(abs(id(x))) for x in to_list(object_list))


def is_all_none(iterable_or_element: Any) -> bool:
    """Whether every element (or the single element) is None."""
    items = iterable_or_element if isinstance(iterable_or_element, (list, tuple)) \
        else [iterable_or_element]
    return all(item is None for item in items)
