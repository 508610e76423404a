"""Encoders behind the summary ops: TF's histogram buckets, PNG images, WAV audio."""

from __future__ import annotations

import io
import struct
import sys
import wave
import zlib
from typing import Any, Dict, List

import numpy as np

__all__ = ["histogram", "encode_png", "encode_wav", "image_to_uint8"]


def _default_bucket_limits() -> List[float]:
    """TF's standard histogram buckets: +-1e-12 growing by 10% to 1e20, plus DBL_MAX."""
    pos: List[float] = []
    v = 1.0e-12
    while v < 1.0e20:
        pos.append(v)
        v *= 1.1
    pos.append(sys.float_info.max)
    return [-x for x in reversed(pos)] + [0.0] + pos


_LIMITS = _default_bucket_limits()


def histogram(values: np.ndarray) -> Dict[str, Any]:
    """A HistogramProto dict for `values`, with TF's buckets and empty-run collapsing."""
    flat = np.asarray(values, dtype=np.float64).reshape(-1)
    counts = np.zeros(len(_LIMITS))
    if flat.size:
        # bucket i holds values v with limit[i-1] <= v < limit[i] (TF's upper_bound).
        index = np.searchsorted(np.asarray(_LIMITS), flat, side="right")
        index = np.minimum(index, len(_LIMITS) - 1)
        np.add.at(counts, index, 1.0)
    limits_out: List[float] = []
    counts_out: List[float] = []
    i = 0
    n = len(counts)
    while i < n:
        end, count = _LIMITS[i], counts[i]
        i += 1
        if count <= 0.0:
            while i < n and counts[i] <= 0.0:
                end, count = _LIMITS[i], counts[i]
                i += 1
        limits_out.append(end)
        counts_out.append(float(count))
    if not limits_out:
        limits_out, counts_out = [sys.float_info.max], [0.0]
    return {"min": float(flat.min()) if flat.size else sys.float_info.max,
            "max": float(flat.max()) if flat.size else -sys.float_info.max,
            "num": float(flat.size), "sum": float(flat.sum()),
            "sum_squares": float(np.dot(flat, flat)), "bucket_limit": limits_out,
            "bucket": counts_out}


def image_to_uint8(image: np.ndarray) -> np.ndarray:
    """TF's image-summary conversion: floats scaled to [0, 255] (shifted if negative)."""
    if image.dtype == np.uint8:
        return image
    img = image.astype(np.float64)
    finite = img[np.isfinite(img)]
    if finite.size == 0:
        return np.zeros(img.shape, np.uint8)
    lo, hi = finite.min(), finite.max()
    if lo >= 0:
        scale = 255.0 / hi if hi > 0 else 0.0
        offset = 0.0
    else:
        bound = max(abs(lo), abs(hi))
        scale = 127.0 / bound if bound > 0 else 0.0
        offset = 128.0
    out = np.where(np.isfinite(img), img * scale + offset, 0.0)
    return np.clip(np.round(out), 0, 255).astype(np.uint8)


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an [h, w, c] uint8 image (c = 1, 3 or 4)."""
    h, w, c = image.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    raw = b"".join(b"\x00" + image[row].tobytes() for row in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + \
        chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def encode_wav(samples: np.ndarray, sample_rate: int) -> bytes:
    """16-bit PCM WAV bytes of float samples in [-1, 1], shape [frames, channels]."""
    frames, channels = samples.shape
    pcm = np.clip(np.asarray(samples, np.float64), -1.0, 1.0)
    pcm = np.round(pcm * 32767.0).astype("<i2")
    buf = io.BytesIO()
    with wave.open(buf, "wb") as w:
        w.setnchannels(channels)
        w.setsampwidth(2)
        w.setframerate(int(sample_rate))
        w.writeframes(pcm.tobytes())
    return buf.getvalue()
