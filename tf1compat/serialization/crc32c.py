"""CRC-32C (Castagnoli), TensorFlow's checksum for checkpoints, tables and TFRecords.

The checksum itself comes from `google-crc32c` (hardware-accelerated C). TF stores CRCs
"masked" (rotated and offset, so that checksums of data which itself holds checksums
stay well distributed): `mask` / `unmask`.
"""

from __future__ import annotations

from typing import Union

import google_crc32c
import numpy as np

__all__ = ["value", "extend", "mask", "unmask", "masked_value"]

_MASK_DELTA = 0xA282EAD8
# google-crc32c takes `bytes` only; other buffers are fed in chunks copied while they
# are in the CPU cache.
_CHUNK = 1 << 20

Buffer = Union[bytes, bytearray, memoryview, np.ndarray]


def extend(crc: int, data: Buffer) -> int:
    """The CRC-32C of `previous + data`, given the CRC `crc` of `previous` (0 for none)."""
    if isinstance(data, bytes):
        return google_crc32c.extend(crc, data)
    if isinstance(data, np.ndarray):
        data = np.ascontiguousarray(data).reshape(-1).view(np.uint8)
    view = memoryview(data)
    if view.ndim != 1 or view.format != "B":
        view = view.cast("B")
    for start in range(0, len(view), _CHUNK):
        crc = google_crc32c.extend(crc, bytes(view[start:start + _CHUNK]))
    return crc


def value(data: Buffer) -> int:
    """The CRC-32C of `data`."""
    return extend(0, data)


def mask(crc: int) -> int:
    """TF's masked form of a CRC, as stored in files."""
    return ((((crc >> 15) | (crc << 17)) & 0xFFFFFFFF) + _MASK_DELTA) & 0xFFFFFFFF


def unmask(masked: int) -> int:
    """Inverse of `mask`."""
    rot = (masked - _MASK_DELTA) & 0xFFFFFFFF
    return ((rot >> 17) | (rot << 15)) & 0xFFFFFFFF


def masked_value(data: Buffer) -> int:
    """`mask(value(data))`: the stored checksum of `data`."""
    return mask(value(data))
