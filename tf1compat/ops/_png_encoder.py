"""PNG bytes as TF's encoder writes them (tensorflow/core/lib/png/png_io.cc on libpng):
libpng's adaptive per-row filter choice, its zlib settings (Z_FILTERED, the window reduced
to what the image needs) and 8 KiB IDAT chunks. `tf.image.encode_png` and the image
summaries both write through here, so their files are TF's byte for byte."""

from __future__ import annotations

import struct
import zlib

import numpy as np

__all__ = ["encode_png_like_libpng"]


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


def _deflate_like_libpng(data: bytes, level: int) -> bytes:
    """zlib data as libpng writes it under TF: the given level, memLevel 9 (TF asks for
    zlib's largest, which decides where incompressible data splits into blocks), Z_FILTERED, a window no larger than the
    data needs (libpng's windowBits reduction, 9 at least), and the stream header's
    window size then lowered to the smallest that holds the data (libpng rewrites it)."""
    window_bits = 15
    if len(data) <= 16384:
        half = 1 << (window_bits - 1)
        while len(data) + 262 <= half:
            half >>= 1
            window_bits -= 1
        window_bits = max(window_bits, 9)
    compressor = zlib.compressobj(level, zlib.DEFLATED, window_bits, 9, zlib.Z_FILTERED)
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


def encode_png_like_libpng(image: np.ndarray, level: int = 6) -> bytes:
    """PNG bytes of an [h, w, c] uint8 or uint16 image (c = 1..4) at zlib `level`, byte for
    byte as TF's libpng encoder writes them. 16-bit samples are big-endian and filtered
    over 2-byte samples, as libpng does. At level 0 the stored blocks are split where
    Python's zlib splits them, not where libpng's 8 KiB output buffer does: the bytes
    differ from TF's there (the image they decode to does not)."""
    h, w, c = image.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    depth = 16 if image.dtype == np.uint16 else 8
    if depth == 16:
        rows = image.astype(">u2").reshape(h, w * c).view(np.uint8)
    else:
        rows = image.reshape(h, w * c)
    bpp = c * depth // 8
    prior = np.zeros(rows.shape[1], np.uint8)
    raw = bytearray()
    for row in rows:
        raw += _filter_row(row, prior, bpp)
        prior = row
    compressed = _deflate_like_libpng(bytes(raw), level)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        crc = struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
        return struct.pack(">I", len(data)) + body + crc

    header = struct.pack(">IIBBBBB", w, h, depth, color_type, 0, 0, 0)
    idats = b"".join(chunk(b"IDAT", compressed[i:i + 8192])
                     for i in range(0, max(len(compressed), 1), 8192))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + idats + chunk(b"IEND", b"")
