"""Encoders behind the summary ops: TF's histogram buckets, PNG images, WAV audio."""

from __future__ import annotations

import io
import struct
import sys
import wave
import zlib
from typing import Any, Dict, List, Optional

import numpy as np
import torch

from tf1compat.ops._png_encoder import encode_png_like_libpng

__all__ = ["histogram", "encode_png", "encode_wav", "image_to_uint8"]


def _default_bucket_limits() -> np.ndarray:
    """TF's standard histogram buckets: +-1e-12 growing by 10% to 1e20, plus DBL_MAX."""
    pos: List[float] = []
    v = 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1   # the repeated product, as TF computes it (not 1.1 ** k)
    pos.append(sys.float_info.max)
    return np.array([-x for x in reversed(pos)] + [0.0] + pos, dtype=np.float64)


_LIMITS = _default_bucket_limits()


def histogram(values: np.ndarray) -> Dict[str, Any]:
    """A HistogramProto's fields for `values`, as TF's Histogram builds and encodes them.

    Vectorised: bucket i counts the values v with limit[i-1] <= v < limit[i] (TF's
    upper_bound, so a value equal to a limit goes to the next bucket; the last bucket
    takes everything above); sums accumulate in value order in double precision, as TF
    adds them one by one; each run of empty buckets is written as one entry ending at
    the run's last limit.
    """
    flat = np.asarray(values).reshape(-1)
    if flat.dtype.kind not in "fiub" or flat.dtype.itemsize > 8:
        flat = flat.astype(np.float64)
    if not flat.size:
        return {"min": sys.float_info.max, "max": -sys.float_info.max, "num": 0.0,
                "sum": 0.0, "sum_squares": 0.0, "bucket_limit": [sys.float_info.max],
                "bucket": [0.0]}
    # Sorting the values once (in their own dtype: the order is the same in double) and
    # locating the 1549 limits among them is much faster than locating each value
    # among the limits.
    ordered = np.sort(flat).astype(np.float64)
    below = np.searchsorted(ordered, _LIMITS, side="left")      # values < each limit
    counts = np.diff(below, prepend=0).astype(np.float64)
    counts[-1] += flat.size - below[-1]
    occupied = counts > 0.0
    keep = occupied | np.append(occupied[1:], True)
    # TF adds the values (and their squares) one by one in double precision: a cumulative
    # sum in value order gives exactly its result (torch's CPU scan runs in order, on one
    # thread, several times faster than numpy's).
    with np.errstate(over="ignore", invalid="ignore"):    # huge values sum to inf, as in TF
        total = torch.from_numpy(flat.astype(np.float64)).cumsum(0)[-1].item()
        squares = torch.from_numpy(np.square(flat, dtype=np.float64)).cumsum(0)[-1].item()
    return {"min": float(ordered[0]), "max": float(ordered[-1]), "num": float(flat.size),
            "sum": float(total), "sum_squares": float(squares),
            "bucket_limit": _LIMITS[keep].tolist(), "bucket": counts[keep].tolist()}


# Image maxima below this are "all zero" to TF's image summary (scale 0).
_IMAGE_ZERO_THRESHOLD = 1e-6
_DEFAULT_BAD_COLOR = np.array([255, 0, 0, 255], np.uint8)


def image_to_uint8(image: np.ndarray, bad_color: Optional[np.ndarray] = None) -> np.ndarray:
    """TF's image-summary conversion of one [h, w, depth] image: floats scaled to [0, 255]
    by 255 / max (by 127 / max |x| around 128 when any is negative) in the image's own
    precision and truncated; a pixel with any non-finite channel is `bad_color` (red)."""
    if image.dtype == np.uint8:
        return image
    kind = image.dtype.type if image.dtype in (np.float16, np.float32, np.float64) else \
        np.float32
    img = image.astype(kind)
    bad_pixels = ~np.isfinite(img).all(axis=-1)
    finite = img[~bad_pixels]
    lo = finite.min() if finite.size else kind(np.inf)
    hi = finite.max() if finite.size else kind(-np.inf)
    if lo < 0:
        bound = max(abs(lo), abs(hi))
        scale = kind(0) if bound < _IMAGE_ZERO_THRESHOLD else kind(127) / kind(bound)
        offset = kind(128)
    else:
        scale = kind(0) if hi < _IMAGE_ZERO_THRESHOLD else kind(255) / kind(hi)
        offset = kind(0)
    with np.errstate(invalid="ignore", over="ignore"):
        out = img * scale + offset
    out = np.clip(np.trunc(np.nan_to_num(out)), 0, 255).astype(np.uint8)
    color = _DEFAULT_BAD_COLOR if bad_color is None else \
        np.asarray(bad_color, np.uint8).reshape(-1)
    out[bad_pixels] = color[:img.shape[-1]]
    return out


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an [h, w, c] uint8 image (c = 1, 3 or 4), byte for byte as TF's
    encoder (libpng) writes them (tf1compat/ops/_png_encoder.py)."""
    return encode_png_like_libpng(image)


def encode_wav(samples: np.ndarray, sample_rate: int) -> bytes:
    """16-bit PCM WAV bytes of float samples in [-1, 1], shape [frames, channels]."""
    frames, channels = samples.shape
    # TF's sample conversion: round(x * 2^15) in float32, saturated to int16's range.
    pcm = np.round(np.asarray(samples, np.float32) * np.float32(32768.0))
    pcm = np.clip(pcm, -32768, 32767).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(pcm.tobytes())
    return buf.getvalue()
