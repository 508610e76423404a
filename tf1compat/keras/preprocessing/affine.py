"""The resampling behind tf-keras's image augmentation, in numpy.

tf-keras transforms each channel with `scipy.ndimage.affine_transform`; tf1compat does
not depend on scipy, so this module computes the same thing: output pixel `o` reads the
input at `matrix @ o + offset`, interpolated with a spline of order 0 (nearest) or 1
(linear), and coordinates outside the image follow scipy's modes:

* "constant": outside `[0, n - 1]` the value is `cval` (no interpolation towards it);
* "nearest": the coordinate is clamped to `[0, n - 1]`;
* "reflect": half-sample symmetric (`d c b a | a b c d | d c b a`);
* "wrap": scipy's legacy wrap, periodic with period `n - 1` (not `n`).

Coordinates are computed in float64 and the result cast to the input's dtype (rounded
for integer images), as scipy does.
"""

from __future__ import annotations

from typing import Tuple

import numpy as np

__all__ = ["affine_transform_2d", "FILL_MODES"]

FILL_MODES = ("constant", "nearest", "reflect", "wrap")


def _map_coordinates(coords: np.ndarray, size: int, mode: str) -> np.ndarray:
    """Out-of-range coordinates moved into range as scipy's boundary modes move them;
    "constant" leaves them (they are masked out by the caller)."""
    if mode == "constant":
        return coords
    if size <= 1:
        return np.zeros_like(coords)
    if mode == "nearest":
        return np.clip(coords, 0, size - 1)
    out = coords.copy()
    low, high = coords < 0, coords > size - 1
    if mode == "reflect":
        period = 2 * size
        c = out[low]
        far = c < -period
        c[far] = period * np.trunc(-c[far] / period) + c[far]
        c = np.where(c < -size, c + period, np.where(c > -1e-15, 1e-15, -c) - 1)
        out[low] = c
        c = out[high]
        c = c - period * np.trunc(c / period)
        c = np.where(c >= size, period - c - 1, c)
        out[high] = c
        return out
    # "wrap": scipy's legacy periodic extension with period size - 1.
    period = size - 1
    c = out[low]
    out[low] = c + period * (np.trunc(-c / period) + 1)
    c = out[high]
    out[high] = c - period * np.trunc(c / period)
    return out


def _taps(coords: np.ndarray, size: int, mode: str, order: int
          ) -> Tuple[list, np.ndarray]:
    """Per output pixel along one axis: [(input index, weight), ...] and a mask of the
    pixels whose value is `cval` ("constant" mode, outside the image)."""
    mapped = _map_coordinates(coords, size, mode)
    if mode == "constant":
        outside = (mapped < 0) | (mapped > size - 1)
    else:
        outside = np.zeros(mapped.shape, dtype=bool)
    if order == 0:
        start = np.floor(mapped + 0.5)
        return [(np.clip(start, 0, size - 1).astype(np.int64), np.ones_like(mapped))], outside
    start = np.floor(mapped)
    frac = mapped - start
    first = np.clip(start, 0, size - 1).astype(np.int64)
    second = np.clip(start + 1, 0, size - 1).astype(np.int64)
    return [(first, 1.0 - frac), (second, frac)], outside


def affine_transform_2d(image: np.ndarray, matrix: np.ndarray, offset: np.ndarray,
                        order: int = 1, mode: str = "constant", cval: float = 0.0
                        ) -> np.ndarray:
    """`scipy.ndimage.affine_transform(image, matrix, offset, order=order, mode=mode,
    cval=cval)` for a 2-D `image` and order 0 or 1."""
    if order not in (0, 1):
        raise NotImplementedError(f"interpolation order {order}: tf1compat resamples "
                                  "images with order 0 (nearest) or 1 (linear) only")
    if mode not in FILL_MODES:
        raise RuntimeError("boundary mode not supported")
    rows, cols = image.shape
    matrix = np.asarray(matrix, dtype=np.float64)
    offset = np.asarray(offset, dtype=np.float64)
    out_r, out_c = np.meshgrid(np.arange(rows, dtype=np.float64),
                               np.arange(cols, dtype=np.float64), indexing="ij")
    src_r = matrix[0, 0] * out_r + matrix[0, 1] * out_c + offset[0]
    src_c = matrix[1, 0] * out_r + matrix[1, 1] * out_c + offset[1]
    row_taps, row_out = _taps(src_r, rows, mode, order)
    col_taps, col_out = _taps(src_c, cols, mode, order)
    source = np.asarray(image, dtype=np.float64)
    result = np.zeros((rows, cols), dtype=np.float64)
    for r_index, r_weight in row_taps:
        for c_index, c_weight in col_taps:
            result += r_weight * c_weight * source[r_index, c_index]
    result = np.where(row_out | col_out, cval, result)
    if np.issubdtype(image.dtype, np.integer):
        result = np.where(result >= 0, np.floor(result + 0.5), np.ceil(result - 0.5))
    return result.astype(image.dtype)
