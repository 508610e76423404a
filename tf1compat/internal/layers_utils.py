"""`tensorflow.python.layers.utils`: the helpers of TF1's `tf.layers` that legacy code
imports (`smart_cond`, `constant_value` for training flags, conv length arithmetic)."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.keras.layers.conv_utils import (conv_output_length, convert_data_format,
                                               normalize_data_format, normalize_padding,
                                               normalize_tuple)
from tf1compat.ops import cond as _cond
from tf1compat.variables.variables import Variable

__all__ = ["convert_data_format", "normalize_tuple", "normalize_data_format",
           "normalize_padding", "conv_output_length", "conv_input_length",
           "deconv_output_length", "smart_cond", "constant_value"]


def conv_input_length(output_length: Optional[int], filter_size: int, padding: str,
                      stride: int) -> Optional[int]:
    """The input length a convolution needs to produce `output_length`."""
    if output_length is None:
        return None
    assert padding in {"same", "valid", "full"}
    pad = {"same": filter_size // 2, "valid": 0, "full": filter_size - 1}[padding]
    return (output_length - 1) * stride - 2 * pad + filter_size


def deconv_output_length(input_length: Optional[int], filter_size: int, padding: str,
                         stride: int) -> Optional[int]:
    """A transposed convolution's output length (TF1 `tf.layers` signature: no
    output_padding or dilation, unlike Keras's conv_utils)."""
    if input_length is None:
        return None
    length = input_length * stride
    if padding == "valid":
        return length + max(filter_size - stride, 0)
    if padding == "full":
        return length - (stride + filter_size - 2)
    return length


def smart_cond(pred: Any, true_fn: Optional[Callable[[], Any]] = None,
               false_fn: Optional[Callable[[], Any]] = None, name: Optional[str] = None) -> Any:
    """`true_fn()` or `false_fn()` when `pred` is known at graph build, else `tf.cond`;
    a boolean Variable always takes `tf.cond` (its value can change between runs)."""
    if isinstance(pred, Variable):
        return _cond.cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
    return _cond.smart_cond(pred, true_fn, false_fn, name=name)


def constant_value(pred: Any) -> Optional[bool]:
    """True/False for a Python bool, 1/0 or a tensor known at graph build; None for a
    Variable or a tensor only known at run time. TypeError for anything else."""
    if isinstance(pred, Variable):
        return None
    return _cond.smart_constant_value(pred)

