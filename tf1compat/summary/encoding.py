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
    # (TF casts, so fractions are truncated.)
    return np.clip(np.trunc(out), 0, 255).astype(np.uint8)


def _cost(filtered: np.ndarray) -> int:
    """libpng's filter heuristic: the sum of the bytes read as signed magnitudes."""
    v = filtered.astype(np.int64)
    return int(np.minimum(v, 256 - v).sum())


def _filter_row(row: np.ndarray, prior: np.ndarray, bpp: int) -> bytes:
    """One scanline with the PNG filter TF's libpng picks: of None, Sub, Up, Average and
    Paeth (in that order, the first wins a tie), the one of least `_cost`."""
    x = row.astype(np.int64)
    up = prior.astype(np.int64)
    left = np.concatenate([np.zeros(bpp, np.int64), x[:-bpp]])
    up_left = np.concatenate([np.zeros(bpp, np.int64), up[:-bpp]])
    p = left + up - up_left
    pa, pb, pc = np.abs(p - left), np.abs(p - up), np.abs(p - up_left)
    paeth = np.where((pa <= pb) & (pa <= pc), left, np.where(pb <= pc, up, up_left))
    candidates = [x, x - left, x - up, x - (left + up) // 2, x - paeth]
    filtered = [(c % 256).astype(np.uint8) for c in candidates]
    costs = [_cost(f) for f in filtered]
    best = costs.index(min(costs))
    return bytes([best]) + filtered[best].tobytes()


def _deflate_like_libpng(data: bytes) -> bytes:
    """zlib data as libpng writes it: level 6, Z_FILTERED, a window no larger than the
    data needs (libpng's windowBits reduction, 9 at least), and the stream header's
    window size then lowered to the smallest that holds the data (libpng rewrites it)."""
    window_bits = 15
    if len(data) <= 16384:
        half = 1 << (window_bits - 1)
        while len(data) + 262 <= half:
            half >>= 1
            window_bits -= 1
        window_bits = max(window_bits, 9)
    compressor = zlib.compressobj(6, zlib.DEFLATED, window_bits, 8, zlib.Z_FILTERED)
    out = bytearray(compressor.compress(data) + compressor.flush())
    if len(data) <= 16384 and out[0] & 0x0F == 8 and out[0] >> 4 <= 7:
        cinfo = out[0] >> 4
        half = 1 << (cinfo + 7)
        if len(data) <= half:
            while True:
                half >>= 1
                cinfo -= 1
                if not (cinfo > 0 and len(data) <= half):
                    break
            out[0] = 0x08 | cinfo << 4
            level_bits = out[1] & 0xE0
            out[1] = level_bits + 0x1F - ((out[0] << 8) + level_bits) % 0x1F
    return bytes(out)


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an [h, w, c] uint8 image (c = 1, 3 or 4), byte for byte as TF's
    encoder (libpng) writes them: its per-row filters, zlib stream and 8 KiB IDATs."""
    h, w, c = image.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    rows = image.reshape(h, w * c)
    prior = np.zeros(w * c, np.uint8)
    raw = bytearray()
    for row in rows:
        raw += _filter_row(row, prior, c)
        prior = row
    compressed = _deflate_like_libpng(bytes(raw))

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        crc = struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
        return struct.pack(">I", len(data)) + body + crc

    header = struct.pack(">IIBBBBB", w, h, 8, color_type, 0, 0, 0)
    idats = b"".join(chunk(b"IDAT", compressed[i:i + 8192])
                     for i in range(0, max(len(compressed), 1), 8192))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + idats + chunk(b"IEND", b"")


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
