"""`tf.signal.frame` and `tf.signal.overlap_and_add`, built from array ops as TF builds
them (subframes of gcd(frame_length, frame_step) samples gathered into frames; frames
padded, transposed and summed back into a signal)."""

from __future__ import annotations

import math
from typing import Any, List, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops, reduction_ops
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.creation_ops import zeros, zeros_like
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.strided_slice import strided_slice
from tf1compat.ops.transform_ops import pad, transpose

__all__ = ["frame", "overlap_and_add", "gcd"]


def _static(value: Tensor) -> Any:
    v = constant_value(value)
    return None if v is None else v.item() if np.ndim(v) == 0 else v


def gcd(a: Any, b: Any, name: Optional[str] = None) -> Tensor:
    """The greatest common divisor of two scalar integers (folded when both are known;
    otherwise Euclid's algorithm in a while loop, as TF)."""
    from tf1compat.ops.while_loop import while_loop
    with name_scope(name, "gcd", [a, b]):
        a, b = convert_to_tensor(a), convert_to_tensor(b)
        a.shape.assert_has_rank(0)
        b.shape.assert_has_rank(0)
        for t, label in ((a, "a"), (b, "b")):
            if not t.dtype.is_integer:
                raise ValueError(f"{label} must be an integer type. Got: {t.dtype}")
        const_a, const_b = _static(a), _static(b)
        if const_a is not None and const_b is not None:
            return convert_to_tensor(math.gcd(int(const_a), int(const_b)))
        return while_loop(lambda _, y: math_ops.greater(y, zeros_like(y)),
                          lambda x, y: [y, math_ops.mod(x, y)], [a, b], back_prop=False)[0]


def _frame_shape(signal: Tensor, frame_length: Tensor, frame_step: Tensor, pad_end: bool,
                 axis: Tensor) -> Optional[List[Optional[int]]]:
    length, step, axis = _static(frame_length), _static(frame_step), _static(axis)
    if signal.shape.rank is None:
        return None
    if axis is None:
        return [None] * (signal.shape.rank + 1)
    dims = signal.shape.as_list()
    axis = int(axis)
    samples = dims[axis]
    num_frames = None
    if dims and samples is not None:
        if step is not None and pad_end:
            num_frames = max(0, -(-samples // int(step)))
        elif step is not None and length is not None:
            num_frames = max(0, (samples - int(length) + int(step)) // int(step))
    return dims[:axis] + [num_frames, None if length is None else int(length)] + \
        dims[axis:][1:]


def frame(signal: Any, frame_length: Any, frame_step: Any, pad_end: bool = False,
          pad_value: Any = 0, axis: Any = -1, name: Optional[str] = None) -> Tensor:
    """`tf.signal.frame`: overlapping windows of `frame_length` samples every
    `frame_step` samples along `axis` (the end padded with `pad_value` if `pad_end`)."""
    with name_scope(name, "frame", [signal, frame_length, frame_step, pad_value]):
        signal = convert_to_tensor(signal, name="signal")
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        axis = convert_to_tensor(axis, name="axis")
        signal.shape.with_rank_at_least(1)
        for t in (frame_length, frame_step, axis):
            t.shape.assert_has_rank(0)
        result_shape = _frame_shape(signal, frame_length, frame_step, pad_end, axis)

        signal_shape = array_ops.shape(signal)
        static_shape, static_axis = constant_value(signal_shape), _static(axis)
        if static_shape is not None and static_axis is not None:
            axis = range(len(static_shape))[int(static_axis)]
            outer = static_shape[:axis]
            length_samples: Any = int(static_shape[axis])
            inner = static_shape[axis + 1:]
        else:
            signal_rank = array_ops.rank(signal)
            axis = range_(signal_rank)[axis]
            outer, length_samples, inner = array_ops.split(
                signal_shape, [axis, 1, signal_rank - 1 - axis])
            length_samples = array_ops.reshape(length_samples, [])
        num_outer = array_ops.size(outer)
        num_inner = array_ops.size(inner)

        if pad_end:
            pad_value = convert_to_tensor(pad_value, signal.dtype)
            pad_value.shape.assert_has_rank(0)
            num_frames = -(-length_samples // frame_step)
            pad_samples = math_ops.maximum(
                0, frame_length + frame_step * (num_frames - 1) - length_samples)
            paddings = array_ops.concat([
                zeros([num_outer, 2], dtype=pad_samples.dtype),
                convert_to_tensor([[0, pad_samples]]),
                zeros([num_inner, 2], dtype=pad_samples.dtype)], 0)
            signal = pad(signal, paddings, constant_values=pad_value)
            signal_shape = array_ops.shape(signal)
            length_samples = signal_shape[axis]
        else:
            from tf1compat.framework.constant_op import constant
            num_frames = math_ops.maximum(constant(0, dtype=frame_length.dtype),
                                          1 + (length_samples - frame_length) // frame_step)

        subframe = gcd(frame_length, frame_step)
        subframe_static = _static(subframe)
        subframe_length = subframe if subframe_static is None else int(subframe_static)
        subframes_per_frame = frame_length // subframe_length
        subframes_per_hop = frame_step // subframe_length
        num_subframes = length_samples // subframe_length

        slice_shape = array_ops.concat([outer, [num_subframes * subframe_length], inner], 0)
        subframe_shape = array_ops.concat([outer, [num_subframes, subframe_length], inner], 0)
        subframes = array_ops.reshape(strided_slice(signal, zeros_like(signal_shape),
                                                    slice_shape), subframe_shape)
        frame_selector = array_ops.reshape(
            range_(num_frames, dtype=frame_length.dtype) * subframes_per_hop, [num_frames, 1])
        subframe_selector = array_ops.reshape(
            range_(subframes_per_frame, dtype=frame_length.dtype), [1, subframes_per_frame])
        selector = frame_selector + subframe_selector

        outer = convert_to_tensor(outer)
        inner = convert_to_tensor(inner, dtype=outer.dtype)
        middle = convert_to_tensor([num_frames, frame_length], dtype=outer.dtype)
        frames = array_ops.reshape(gather(subframes, selector, axis=axis),
                                   array_ops.concat([outer, middle, inner], 0))
        if result_shape:
            frames.set_shape(result_shape)
        return frames


def overlap_and_add(signal: Any, frame_step: Any, name: Optional[str] = None) -> Tensor:
    """`tf.signal.overlap_and_add`: frames [..., frames, frame_length] summed back into a
    signal, each placed `frame_step` samples after the previous."""
    with name_scope(name, "overlap_and_add", [signal, frame_step]):
        signal = convert_to_tensor(signal, name="signal")
        signal.shape.with_rank_at_least(2)
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        if not frame_step.dtype.is_integer:
            raise ValueError(f"frame_step must be an integer. Got {frame_step.dtype}")
        step_static = _static(frame_step)
        step: Any = frame_step if step_static is None else int(step_static)
        signal_shape: Any = array_ops.shape(signal)
        shape_static = constant_value(signal_shape)
        if shape_static is not None:
            signal_shape = shape_static
        outer_dimensions = signal_shape[:-2]
        outer_rank: Any = array_ops.size(outer_dimensions)
        rank_static = _static(outer_rank)
        if rank_static is not None:
            outer_rank = int(rank_static)

        def full_shape(inner_shape: list) -> Tensor:
            return array_ops.concat([outer_dimensions, inner_shape], 0)

        frame_length = signal_shape[-1]
        frames = signal_shape[-2]
        output_length = frame_length + step * (frames - 1)
        if step_static is not None and signal.shape.rank is not None and \
                step == signal.shape.as_list()[-1]:
            return array_ops.reshape(signal, full_shape([output_length]), name="fast_path")

        segments = -(-frame_length // step)
        paddings = [[0, segments], [0, segments * step - frame_length]]
        outer_paddings = zeros([outer_rank, 2], D.int32)
        signal = pad(signal, array_ops.concat([outer_paddings, paddings], 0))
        signal = array_ops.reshape(signal, full_shape([frames + segments, segments, step]))
        perm = array_ops.concat([range_(outer_rank), outer_rank + np.array([1, 0, 2])], 0)
        perm_static = constant_value(perm)
        signal = transpose(signal, perm if perm_static is None else perm_static)
        signal = array_ops.reshape(signal, full_shape([(frames + segments) * segments, step]))
        signal = signal[..., :(frames + segments - 1) * segments, :]
        signal = array_ops.reshape(signal, full_shape([segments, frames + segments - 1, step]))
        signal = reduction_ops.reduce_sum(signal, -3)
        signal = array_ops.reshape(signal, full_shape([(frames + segments - 1) * step]))
        return signal[..., :output_length]
