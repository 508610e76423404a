"""Speech features: TF's ops AudioSpectrogram and Mfcc (`gen_audio_ops.audio_spectrogram`,
`gen_audio_ops.mfcc`, as TF 1.x's speech_commands example builds its fingerprints).

Numerics follow TF's kernels, computed in float64 and handed back as float32:

* AudioSpectrogram: frames of `window_size` samples every `stride` samples (none when the
  clip is shorter than one window), each times a periodic Hann window, zero-padded to the
  next power of two and transformed by a real FFT; the output is |X|^2 with
  `magnitude_squared`, else |X|, shaped [channels, frames, 1 + fft_length / 2].
* Mfcc: HTK-style triangular mel filters (mel = 1127 ln(1 + f / 700)) over sqrt of the
  (squared-magnitude) spectrogram, bins from DC + 1.5 bin widths above the lower limit up
  to the upper limit; each bin gives weight w to its channel and 1 - w to the next; then
  ln(max(energy, 1e-12)) and an orthonormal-scaled DCT-II (sqrt(2 / N) cos(pi k (j + 0.5) / N),
  no special first row) keeping `dct_coefficient_count` coefficients.
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import REQUIRED, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["audio_spectrogram", "mfcc"]

# Filterbank energies are floored before the log, as TF's Mfcc does.
_FILTERBANK_FLOOR = 1e-12


def _invalid(message: str) -> errors.OpError:
    return errors.InvalidArgumentError(None, None, message)


def _next_power_of_two(value: int) -> int:
    return 1 << max(0, (int(value) - 1).bit_length())


def _frame_count(length: int, window_size: int, stride: int) -> int:
    return 0 if length < window_size else 1 + (length - window_size) // stride


def _with_rank(ctx: Any, index: int, rank: int) -> Any:
    shape = ctx.shape(index)
    if shape.rank not in (None, rank):
        raise ValueError(f"Shape must be rank {rank} but is rank {shape.rank} "
                         f"{node_desc(ctx)}")
    return shape


# -- AudioSpectrogram ----------------------------------------------------------------------------

def _spectrogram_shape(ctx: Any) -> List[TensorShape]:
    shape = _with_rank(ctx, 0, 2)
    window_size, stride = int(ctx.attrs["window_size"]), int(ctx.attrs["stride"])
    if window_size <= 1:
        raise ValueError(f"window size must be > 1, got {window_size} {node_desc(ctx)}")
    if stride <= 0:
        raise ValueError(f"stride must be strictly positive, got {stride} {node_desc(ctx)}")
    bins = 1 + _next_power_of_two(window_size) // 2
    if shape.rank is None:
        return [TensorShape([None, None, bins])]
    length, channels = shape.as_list()
    frames = None if length is None else _frame_count(length, window_size, stride)
    return [TensorShape([channels, frames, bins])]


def _spectrogram_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    window_size, stride = int(node.attrs["window_size"]), int(node.attrs["stride"])
    squared = bool(node.attrs["magnitude_squared"])
    fft_length = _next_power_of_two(window_size)

    def run(audio: torch.Tensor) -> torch.Tensor:
        if audio.dim() != 2:
            raise _invalid(f"input must be 2-dimensional{list(audio.shape)}")
        length, channels = audio.shape
        frames = _frame_count(length, window_size, stride)
        bins = 1 + fft_length // 2
        if frames == 0 or channels == 0:
            return torch.zeros((channels, frames, bins), dtype=torch.float32,
                               device=audio.device)
        samples = audio.detach().to(torch.float64).t()               # [channels, length]
        windows = samples.unfold(1, window_size, stride)[:, :frames]  # [c, frames, window]
        index = torch.arange(window_size, dtype=torch.float64, device=audio.device)
        hann = 0.5 - 0.5 * torch.cos(2.0 * math.pi * index / window_size)
        spectrum = torch.fft.rfft(windows * hann, n=fft_length, dim=-1)
        power = spectrum.real * spectrum.real + spectrum.imag * spectrum.imag
        return (power if squared else power.sqrt()).to(torch.float32)
    return run


declare("AudioSpectrogram", inputs=["input: float32"], outputs=["spectrogram: float32"],
        attrs={"window_size": REQUIRED, "stride": REQUIRED, "magnitude_squared": False},
        shape=_spectrogram_shape, kernel=_spectrogram_kernel, grad="unregistered")


def audio_spectrogram(input: Any, window_size: int, stride: int,  # noqa: A002 - TF's name
                      magnitude_squared: bool = False, name: Optional[str] = None) -> Tensor:
    """`gen_audio_ops.audio_spectrogram`: float32 [channels, frames, bins] spectrogram of
    float32 audio [samples, channels] (periodic Hann window, FFT to the next power of 2)."""
    return apply_op1("AudioSpectrogram", [convert_to_tensor(input, D.float32)],
                     {"window_size": int(window_size), "stride": int(stride),
                      "magnitude_squared": bool(magnitude_squared)}, name=name)


# -- Mfcc -----------------------------------------------------------------------------------------

def _freq_to_mel(freq: np.ndarray) -> np.ndarray:
    return 1127.0 * np.log1p(freq / 700.0)


def _mel_weights(bins: int, sample_rate: int, channels: int, lower: float,
                 upper: float) -> Optional[np.ndarray]:
    """[bins, channels] float64 triangle weights of TF's mel filterbank (None: invalid
    settings; no rows: the spectrogram stops below the upper limit)."""
    if channels < 1 or sample_rate <= 0 or bins < 2 or lower < 0 or upper <= lower:
        return None
    mel_low, mel_high = _freq_to_mel(np.float64(lower)), _freq_to_mel(np.float64(upper))
    spacing = (mel_high - mel_low) / (channels + 1)
    centers = mel_low + spacing * np.arange(1, channels + 2, dtype=np.float64)
    hz_per_bin = 0.5 * sample_rate / (bins - 1)
    start = int(1.5 + lower / hz_per_bin)
    end = int(upper / hz_per_bin)
    weights = np.zeros((bins, channels), np.float64)
    if bins <= end:
        # TF's filterbank refuses a spectrogram without a bin at the upper limit (it logs
        # "Input too short") and its DCT then sums nothing: every coefficient is 0.
        return weights[:0]
    channel = 0
    for i in range(start, end + 1):
        mel = _freq_to_mel(np.float64(i * hz_per_bin))
        while channel < channels and centers[channel] < mel:
            channel += 1
        band = channel - 1                      # the channel whose falling side holds bin i
        if band >= 0:
            right = (centers[band + 1] - mel) / (centers[band + 1] - centers[band])
        else:
            right = (centers[0] - mel) / (centers[0] - mel_low)
        if band >= 0:
            weights[i, band] += right
        if band + 1 < channels:
            weights[i, band + 1] += 1.0 - right
    return weights


def _dct_matrix(inputs: int, coefficients: int) -> np.ndarray:
    """[inputs, coefficients] DCT-II basis as TF's MfccDct: sqrt(2/N) cos(pi k (j+.5) / N)."""
    j = np.arange(inputs, dtype=np.float64)[:, None]
    k = np.arange(coefficients, dtype=np.float64)[None, :]
    return math.sqrt(2.0 / inputs) * np.cos(k * (math.pi / inputs) * (j + 0.5))


def _mfcc_shape(ctx: Any) -> List[TensorShape]:
    shape = _with_rank(ctx, 0, 3)
    _with_rank(ctx, 1, 0)
    coefficients = int(ctx.attrs["dct_coefficient_count"])
    if shape.rank is None:
        return [TensorShape([None, None, coefficients])]
    return [TensorShape(shape.as_list()[:2] + [coefficients])]


def _mfcc_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor, torch.Tensor], torch.Tensor]:
    upper = float(node.attrs["upper_frequency_limit"])
    lower = float(node.attrs["lower_frequency_limit"])
    channels = int(node.attrs["filterbank_channel_count"])
    coefficients = int(node.attrs["dct_coefficient_count"])

    def run(spectrogram: torch.Tensor, sample_rate: torch.Tensor) -> torch.Tensor:
        if spectrogram.dim() != 3:
            raise _invalid(f"spectrogram must be 3-dimensional{list(spectrogram.shape)}")
        if sample_rate.dim() != 0:
            raise _invalid(f"Input sample_rate should be a scalar tensor, got "
                           f"{list(sample_rate.shape)} instead.")
        rate = int(sample_rate)
        bins = spectrogram.shape[2]
        weights = _mel_weights(bins, rate, channels, lower, upper)
        if weights is None or not 1 <= coefficients <= channels:
            raise _invalid(f"Mfcc initialization failed for channel count {bins}, sample "
                           f"rate {rate} and filterbank_channel_count {channels}")
        device = spectrogram.device
        if weights.shape[0] == 0:
            return torch.zeros(tuple(spectrogram.shape[:2]) + (coefficients,),
                               dtype=torch.float32, device=device)
        magnitude = spectrogram.detach().to(torch.float64).sqrt()
        energies = magnitude @ torch.from_numpy(weights).to(device)
        logs = energies.clamp_min(_FILTERBANK_FLOOR).log()
        dct = torch.from_numpy(_dct_matrix(channels, coefficients)).to(device)
        return (logs @ dct).to(torch.float32)
    return run


declare("Mfcc", inputs=["spectrogram: float32", "sample_rate: int32"],
        outputs=["output: float32"],
        attrs={"upper_frequency_limit": 4000.0, "lower_frequency_limit": 20.0,
               "filterbank_channel_count": 40, "dct_coefficient_count": 13},
        shape=_mfcc_shape, kernel=_mfcc_kernel, grad="unregistered")


def mfcc(spectrogram: Any, sample_rate: Any, upper_frequency_limit: float = 4000,
         lower_frequency_limit: float = 20, filterbank_channel_count: int = 40,
         dct_coefficient_count: int = 13, name: Optional[str] = None) -> Tensor:
    """`gen_audio_ops.mfcc`: float32 [channels, frames, dct_coefficient_count] mel-frequency
    cepstral coefficients of a squared-magnitude AudioSpectrogram."""
    return apply_op1("Mfcc", [convert_to_tensor(spectrogram, D.float32),
                              convert_to_tensor(sample_rate, D.int32)],
                     {"upper_frequency_limit": float(upper_frequency_limit),
                      "lower_frequency_limit": float(lower_frequency_limit),
                      "filterbank_channel_count": int(filterbank_channel_count),
                      "dct_coefficient_count": int(dct_coefficient_count)}, name=name)
