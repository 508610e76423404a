"""`tf.signal` transforms built on the FFT ops: stft / inverse_stft (+ its window),
mdct / inverse_mdct, dct / idct (types I-IV, via a real FFT of twice the length),
linear_to_mel_weight_matrix, mfccs_from_log_mel_spectrograms; fftshift / ifftshift and the
n-dimensional FFTs (FFTND ops with TF's padding and `norm` scaling)."""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import array_ops, math_ops, reduction_ops
from tf1compat.ops.creation_ops import lin_space, zeros, zeros_like
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.indexing_ops import gather, where
from tf1compat.ops.manip_ops import roll
from tf1compat.ops.math_extra import irfft, real, rfft
from tf1compat.ops.math_tail_ops import complex as complex_
from tf1compat.ops.transform_ops import pad, reverse, tile
from tf1compat.signal.shape_ops import frame, overlap_and_add
from tf1compat.signal.window_ops import hann_window, vorbis_window

__all__ = ["stft", "inverse_stft", "inverse_stft_window_fn", "mdct", "inverse_mdct", "dct",
           "idct", "linear_to_mel_weight_matrix", "mfccs_from_log_mel_spectrograms",
           "fftshift", "ifftshift", "fftnd", "ifftnd", "rfftnd", "irfftnd"]


def _enclosing_power_of_two(value: Tensor) -> Tensor:
    static = constant_value(value)
    if static is not None:
        return constant(int(2 ** np.ceil(np.log(static) / np.log(2.0))), value.dtype)
    return math_ops.cast(math_ops.pow(2.0, math_ops.ceil(
        math_ops.log(math_ops.cast(value, D.float32)) / math_ops.log(2.0))), value.dtype)


def stft(signals: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
         window_fn: Optional[Callable[..., Tensor]] = hann_window, pad_end: bool = False,
         name: Optional[str] = None) -> Tensor:
    """`tf.signal.stft`: the real FFT of each windowed frame ([..., frames, fft_length//2+1])."""
    with name_scope(name, "stft", [signals, frame_length, frame_step]):
        signals = convert_to_tensor(signals, name="signals")
        signals.shape.with_rank_at_least(1)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        fft_length = _enclosing_power_of_two(frame_length) if fft_length is None else \
            convert_to_tensor(fft_length, name="fft_length")
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed *= window_fn(frame_length, dtype=framed.dtype)
        return rfft(framed, [fft_length])


def inverse_stft_window_fn(frame_step: Any,
                           forward_window_fn: Callable[..., Tensor] = hann_window,
                           name: Optional[str] = None) -> Callable[..., Tensor]:
    """`tf.signal.inverse_stft_window_fn`: the window that makes `inverse_stft` invert a
    `stft` taken with `forward_window_fn` (the forward window over its overlap sum)."""
    def inverse_window(frame_length: Any, dtype: Any) -> Tensor:
        with name_scope(name, "inverse_stft_window_fn", [forward_window_fn]):
            step = convert_to_tensor(frame_step, name="frame_step")
            step.shape.assert_has_rank(0)
            frame_length = convert_to_tensor(frame_length, name="frame_length")
            frame_length.shape.assert_has_rank(0)
            forward = forward_window_fn(frame_length, dtype=dtype)
            denom = math_ops.square(forward)
            overlaps = -(-frame_length // step)
            denom = pad(denom, [(0, overlaps * step - frame_length)])
            denom = array_ops.reshape(denom, [overlaps, step])
            denom = reduction_ops.reduce_sum(denom, 0, keepdims=True)
            denom = tile(denom, [overlaps, 1])
            denom = array_ops.reshape(denom, [overlaps * step])[:frame_length]
            return where(math_ops.equal(denom, 0.0), zeros_like(forward), forward / denom)
    return inverse_window


def inverse_stft(stfts: Any, frame_length: Any, frame_step: Any, fft_length: Any = None,
                 window_fn: Optional[Callable[..., Tensor]] = hann_window,
                 name: Optional[str] = None) -> Tensor:
    """`tf.signal.inverse_stft`: overlap-added inverse real FFTs of the frames."""
    with name_scope(name, "inverse_stft", [stfts]):
        stfts = convert_to_tensor(stfts, name="stfts")
        stfts.shape.with_rank_at_least(2)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        frame_step = convert_to_tensor(frame_step, name="frame_step")
        frame_step.shape.assert_has_rank(0)
        if fft_length is None:
            fft_length = _enclosing_power_of_two(frame_length)
        else:
            fft_length = convert_to_tensor(fft_length, name="fft_length")
            fft_length.shape.assert_has_rank(0)
        frames = irfft(stfts, [fft_length])
        length_static = constant_value(frame_length)
        known = frames.shape.rank is not None and frames.shape.as_list()[-1] is not None
        if length_static is None or not known:
            frames = frames[..., :frame_length]
            frames_rank = array_ops.rank(frames)
            frames_shape = array_ops.shape(frames)
            paddings = array_ops.concat(
                [zeros([frames_rank - 1, 2], dtype=frame_length.dtype),
                 [[0, math_ops.maximum(0, frame_length - frames_shape[-1])]]], 0)
            frames = pad(frames, paddings)
        elif frames.shape.as_list()[-1] > int(length_static):
            frames = frames[..., :int(length_static)]
        elif frames.shape.as_list()[-1] < int(length_static):
            amount = int(length_static) - frames.shape.as_list()[-1]
            frames = pad(frames, [[0, 0]] * (frames.shape.rank - 1) + [[0, amount]])
        if length_static is not None and frames.shape.rank is not None:
            frames.set_shape([None] * (frames.shape.rank - 1) + [int(length_static)])
        if window_fn is not None:
            frames *= window_fn(frame_length, dtype=stfts.dtype.real_dtype)
        return overlap_and_add(frames, frame_step)


def mdct(signals: Any, frame_length: Any, window_fn: Optional[Callable[..., Tensor]] =
         vorbis_window, pad_end: bool = False, norm: Optional[str] = None,
         name: Optional[str] = None) -> Tensor:
    """`tf.signal.mdct`: the modified DCT of half-overlapping frames."""
    with name_scope(name, "mdct", [signals, frame_length]):
        signals = convert_to_tensor(signals, name="signals")
        signals.shape.with_rank_at_least(1)
        frame_length = convert_to_tensor(frame_length, name="frame_length")
        frame_length.shape.assert_has_rank(0)
        static = constant_value(frame_length)
        if static is not None:
            if int(static) % 4 != 0:
                raise ValueError("The frame length must be a multiple of 4.")
            frame_step = convert_to_tensor(int(static) // 2, dtype=frame_length.dtype)
        else:
            frame_step = frame_length // 2
        framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
        if window_fn is not None:
            framed *= window_fn(frame_length, dtype=framed.dtype)
        else:
            framed *= 1.0 / np.sqrt(2)
        quarters = array_ops.split(framed, 4, axis=-1)
        first = -reverse(quarters[2], [-1]) - quarters[3]
        second = quarters[0] - reverse(quarters[1], [-1])
        return dct(array_ops.concat((first, second), axis=-1), type=4, norm=norm)


def inverse_mdct(mdcts: Any, window_fn: Optional[Callable[..., Tensor]] = vorbis_window,
                 norm: Optional[str] = None, name: Optional[str] = None) -> Tensor:
    """`tf.signal.inverse_mdct`: overlap-added inverse MDCT frames."""
    with name_scope(name, "inverse_mdct", [mdcts]):
        mdcts = convert_to_tensor(mdcts, name="mdcts")
        mdcts.shape.with_rank_at_least(2)
        half_len = math_ops.cast(mdcts.shape[-1], dtype=D.int32)
        if norm is None:
            half_float = math_ops.cast(half_len, dtype=mdcts.dtype)
            result = 0.5 / half_float * dct(mdcts, type=4)
        elif norm == "ortho":
            result = dct(mdcts, type=4, norm="ortho")
        else:
            raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
        halves = array_ops.split(result, 2, axis=-1)
        frames = array_ops.concat((halves[1], -reverse(halves[1], [-1]),
                                   -reverse(halves[0], [-1]), -halves[0]), axis=-1)
        if window_fn is not None:
            frames *= window_fn(2 * half_len, dtype=mdcts.dtype)
        else:
            frames *= 1.0 / np.sqrt(2)
        return overlap_and_add(frames, half_len)


# -- DCT --------------------------------------------------------------------------------------

def _validate_dct(input_tensor: Tensor, dct_type: int, n: Any, axis: int, norm: Any) -> None:
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        last = dimension_value(convert_to_tensor(input_tensor).shape[-1])
        if last is not None and last < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _dct(input: Any, dct_type: int, n: Any, norm: Any, name: Any) -> Tensor:  # noqa: A002
    with name_scope(name, "dct", [input]):
        input = convert_to_tensor(input)
        zero = convert_to_tensor(0.0, dtype=input.dtype)
        seq_len = dimension_value(input.shape[-1]) or array_ops.shape(input)[-1]
        if n is not None:
            if isinstance(seq_len, int) and n <= seq_len:
                input = input[..., 0:n]
            elif isinstance(seq_len, int):
                padding = [[0, 0] for _ in range(input.shape.rank)]
                padding[-1][1] = n - seq_len
                input = pad(input, convert_to_tensor(padding, dtype=D.int32))
            else:
                raise NotImplementedError("tf.signal.dct with `n` of an input whose last "
                                          "dimension is unknown is not supported")
        axis_dim = dimension_value(input.shape[-1]) or array_ops.shape(input)[-1]
        axis_dim_float = math_ops.cast(axis_dim, input.dtype)
        if dct_type == 1:
            extended = array_ops.concat([input, input[..., -2:0:-1]], axis=-1)
            return real(rfft(extended))
        if dct_type == 2:
            scale = 2.0 * math_ops.exp(complex_(
                zero, -range_(axis_dim_float) * math.pi * 0.5 / axis_dim_float))
            out = real(rfft(input, fft_length=[2 * axis_dim])[..., :axis_dim] * scale)
            if norm == "ortho":
                n1 = 0.5 * math_ops.rsqrt(axis_dim_float)
                n2 = n1 * math.sqrt(2.0)
                out *= pad(array_ops.expand_dims(n1, 0), [[0, axis_dim - 1]],
                           constant_values=n2)
            return out
        if dct_type == 3:
            if norm == "ortho":
                n1 = math_ops.sqrt(axis_dim_float)
                n2 = n1 * math.sqrt(0.5)
                input *= pad(array_ops.expand_dims(n1, 0), [[0, axis_dim - 1]],
                             constant_values=n2)
            else:
                input *= axis_dim_float
            scale = 2.0 * math_ops.exp(complex_(
                zero, range_(axis_dim_float) * math.pi * 0.5 / axis_dim_float))
            return real(irfft(scale * complex_(input, zero),
                              fft_length=[2 * axis_dim]))[..., :axis_dim]
        dct2 = _dct(input, 2, 2 * axis_dim, None, None)
        dct4 = dct2[..., 1::2]
        if norm == "ortho":
            dct4 *= math.sqrt(0.5) * math_ops.rsqrt(axis_dim_float)
        return dct4


def dct(input: Any, type: int = 2, n: Any = None, axis: int = -1,  # noqa: A002
        norm: Optional[str] = None, name: Optional[str] = None) -> Tensor:
    """`tf.signal.dct`: the type I-IV discrete cosine transform of the last axis."""
    _validate_dct(input, type, n, axis, norm)
    return _dct(input, type, n, norm, name)


def idct(input: Any, type: int = 2, n: Any = None, axis: int = -1,  # noqa: A002
         norm: Optional[str] = None, name: Optional[str] = None) -> Tensor:
    """`tf.signal.idct`: the inverse DCT (a DCT of the inverse type)."""
    _validate_dct(input, type, n, axis, norm)
    return _dct(input, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm, name)


# -- mel scale, MFCCs ------------------------------------------------------------------------

_MEL_BREAK_HZ = 700.0
_MEL_HIGH_Q = 1127.0


def _hertz_to_mel(frequencies: Any, name: Optional[str] = None) -> Tensor:
    with name_scope(name, "hertz_to_mel", [frequencies]):
        frequencies = convert_to_tensor(frequencies)
        return _MEL_HIGH_Q * math_ops.log(1.0 + frequencies / _MEL_BREAK_HZ)


def linear_to_mel_weight_matrix(num_mel_bins: int = 20, num_spectrogram_bins: int = 129,
                                sample_rate: Any = 8000, lower_edge_hertz: float = 125.0,
                                upper_edge_hertz: float = 3800.0, dtype: Any = D.float32,
                                name: Optional[str] = None) -> Tensor:
    """`tf.signal.linear_to_mel_weight_matrix`: [num_spectrogram_bins, num_mel_bins]
    triangular mel filters (HTK mel scale; the DC bin gets no weight)."""
    dtype = D.as_dtype(dtype)
    with name_scope(name, "linear_to_mel_weight_matrix") as scope:
        if isinstance(sample_rate, Tensor):
            static = constant_value(sample_rate)
            if static is not None:
                sample_rate = static
        if num_mel_bins <= 0:
            raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
        if lower_edge_hertz < 0.0:
            raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
        if lower_edge_hertz >= upper_edge_hertz:
            raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz "
                             f"{upper_edge_hertz:.1f}")
        if not isinstance(sample_rate, Tensor):
            if sample_rate <= 0.0:
                raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
            if upper_edge_hertz > sample_rate / 2:
                raise ValueError("upper_edge_hertz must not be larger than the Nyquist "
                                 f"frequency (sample_rate / 2). Got {upper_edge_hertz} for "
                                 f"sample_rate: {sample_rate}")
        if not dtype.is_floating:
            raise ValueError(f"dtype must be a floating point type. Got: {dtype}")
        sample_rate = math_ops.cast(sample_rate, dtype, name="sample_rate")
        lower_edge_hertz = convert_to_tensor(lower_edge_hertz, dtype, name="lower_edge_hertz")
        upper_edge_hertz = convert_to_tensor(upper_edge_hertz, dtype, name="upper_edge_hertz")
        zero = convert_to_tensor(0.0, dtype)
        nyquist = sample_rate / 2.0
        linear = lin_space(zero, nyquist, num_spectrogram_bins)[1:]
        bins_mel = array_ops.expand_dims(_hertz_to_mel(linear), 1)
        edges = frame(lin_space(_hertz_to_mel(lower_edge_hertz), _hertz_to_mel(upper_edge_hertz),
                                num_mel_bins + 2), frame_length=3, frame_step=1)
        lower, center, upper = (array_ops.reshape(t, [1, num_mel_bins])
                                for t in array_ops.split(edges, 3, axis=1))
        lower_slopes = (bins_mel - lower) / (center - lower)
        upper_slopes = (upper - bins_mel) / (upper - center)
        weights = math_ops.maximum(zero, math_ops.minimum(lower_slopes, upper_slopes))
        return pad(weights, [[1, 0], [0, 0]], name=scope)


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms: Any,
                                    name: Optional[str] = None) -> Tensor:
    """`tf.signal.mfccs_from_log_mel_spectrograms`: an orthonormal-scaled DCT-II."""
    with name_scope(name, "mfccs_from_log_mel_spectrograms", [log_mel_spectrograms]):
        spectrograms = convert_to_tensor(log_mel_spectrograms)
        last = dimension_value(spectrograms.shape[-1]) if spectrograms.shape.rank else None
        if last is not None:
            if last == 0:
                raise ValueError(f"num_mel_bins must be positive. Got: {spectrograms}")
            num_mel_bins: Any = last
        else:
            num_mel_bins = array_ops.shape(spectrograms)[-1]
        dct2 = dct(spectrograms, type=2)
        return dct2 * math_ops.rsqrt(math_ops.cast(num_mel_bins, dct2.dtype) * 2.0)


# -- fftshift, n-dimensional FFTs -------------------------------------------------------------

def _shift(x: Any, axes: Any, name: Optional[str], default_name: str, sign: int) -> Tensor:
    with name_scope(name, default_name) as scope:
        x = convert_to_tensor(x)
        if axes is None:
            axes = tuple(range(x.shape.rank))
            shift = array_ops.shape(x) // 2
        elif isinstance(axes, int):
            shift = array_ops.shape(x)[axes] // 2
        else:
            rank = array_ops.rank(x)
            axes = where(math_ops.less(axes, 0), axes + rank, axes)
            shift = gather(array_ops.shape(x), axes) // 2
        return roll(x, -shift if sign < 0 else shift, axes, scope)


def fftshift(x: Any, axes: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.signal.fftshift`: the zero-frequency term moved to the centre."""
    return _shift(x, axes, name, "fftshift", 1)


def ifftshift(x: Any, axes: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.signal.ifftshift`: the inverse of fftshift."""
    return _shift(x, axes, name, "ifftshift", -1)


def _pad_for_fft(x: Tensor, fft_rank: int, fft_length: Tensor, reverse_: bool = False
                 ) -> Tensor:
    """Zero-pads the transformed dimensions up to fft_length (TF's _maybe_pad_for_rfft)."""
    fft_shape = constant_value_as_shape(fft_length)
    if x.shape.rank is not None and any(d == 0 for d in x.shape.as_list()):
        return x
    if fft_shape.is_fully_defined() and x.shape.rank is not None:
        input_fft = x.shape[-fft_shape.rank:]
        if input_fft.is_fully_defined():
            wanted = fft_shape.as_list()
            if reverse_:
                wanted[-1] = wanted[-1] // 2 + 1
            paddings = [[0, max(w - d, 0)] for w, d in zip(wanted, input_fft.as_list())]
            if any(p > 0 for _, p in paddings):
                outer = [[0, 0]] * max(x.shape.rank - fft_shape.rank, 0)
                return pad(x, outer + paddings)
            return x
    raise NotImplementedError("tf1compat's n-dimensional FFTs need the input's transformed "
                              "dimensions and fft_length known at graph build")


def _fft_nd(op_type: str, default_name: str, real_in: bool, real_out: bool,
            inverse: bool) -> Callable[..., Tensor]:
    def fn(input_tensor: Any, fft_length: Any = None, axes: Any = None,
           norm: Optional[str] = None, name: Optional[str] = None) -> Tensor:
        with name_scope(name, default_name, [input_tensor, fft_length, axes]) as scope:
            x = convert_to_tensor(input_tensor, dtype_hint=D.float32 if real_in
                                  else D.complex64)
            axes = convert_to_tensor(np.arange(x.shape.rank) if axes is None else axes,
                                     D.int32)
            fft_rank = axes.shape.as_list()[0]
            attrs = {}
            if real_in:
                if x.dtype not in (D.float32, D.float64):
                    raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x}")
                attrs = {"Tcomplex": D.complex64 if x.dtype == D.float32 else D.complex128}
            elif real_out:
                if x.dtype not in (D.complex64, D.complex128):
                    raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, "
                                     f"got: {x}")
                attrs = {"Treal": x.dtype.real_dtype}
            x.shape.with_rank_at_least(fft_rank)
            if fft_length is None:
                # TF's default: every dimension's size (the last one doubled back for the
                # inverse real FFT); with explicit axes tf1compat takes those axes' sizes.
                axes_static = constant_value(axes)
                dims = x.shape.as_list()
                lengths = dims if axes_static is None or fft_rank == x.shape.rank else \
                    [dims[int(a)] for a in axes_static]
                if real_out:
                    lengths[-1] = max(0, 2 * (lengths[-1] - 1))
                    fft_length = convert_to_tensor(lengths, D.int32)
                elif fft_rank == x.shape.rank:
                    fft_length = array_ops.shape(x)[-x.shape.rank:]
                else:
                    fft_length = convert_to_tensor(lengths, D.int32)
            else:
                fft_length = convert_to_tensor(fft_length, D.int32)
            x = _pad_for_fft(x, fft_rank, fft_length, reverse_=real_out)
            static = constant_value(fft_length)
            if static is not None:
                fft_length = static
            norm = norm or "backward"
            if norm != "backward":
                n = int(np.prod([int(v) for v in np.asarray(fft_length).reshape(-1)]))
                factor = n if norm == "forward" else np.sqrt(n)
                x = x * factor if inverse else x / factor
            return apply_op1(op_type, [x, fft_length, axes], attrs, name=scope)
    fn.__name__ = default_name
    fn.__doc__ = f"`tf.signal.{default_name}` ({op_type} over `axes`, all by default)."
    return fn


fftnd = _fft_nd("FFTND", "fftnd", False, False, False)
ifftnd = _fft_nd("IFFTND", "ifftnd", False, False, True)
rfftnd = _fft_nd("RFFTND", "rfftnd", True, False, False)
irfftnd = _fft_nd("IRFFTND", "irfftnd", False, True, True)
