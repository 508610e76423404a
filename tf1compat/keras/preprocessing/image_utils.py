"""tf-keras's random image transforms.

`apply_affine_transform` builds tf-keras's transform matrix (rotation, shift, shear,
zoom about the image centre) and resamples each channel with `affine.py` (scipy's
`affine_transform` semantics); the `random_*` functions draw their parameters from
numpy's global generator in tf-keras's order, so a seeded run gives tf-keras's images.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.keras.preprocessing.affine import affine_transform_2d
from tf1compat.keras.utils.image_utils import array_to_img, img_to_array

__all__ = ["apply_affine_transform",
           "apply_brightness_shift", "apply_channel_shift", "random_brightness",
           "random_channel_shift", "random_rotation", "random_shear", "random_shift",
           "random_zoom", "flip_axis", "transform_matrix_offset_center"]


def flip_axis(x: Any, axis: int) -> np.ndarray:
    """`x` reversed along `axis`."""
    return np.flip(np.asarray(x), axis)


def transform_matrix_offset_center(matrix: np.ndarray, x: int, y: int) -> np.ndarray:
    """`matrix` (3x3, homogeneous) applied about the centre of an `x` by `y` image."""
    ox, oy = float(x) / 2 - 0.5, float(y) / 2 - 0.5
    to_centre = np.array([[1, 0, ox], [0, 1, oy], [0, 0, 1]])
    from_centre = np.array([[1, 0, -ox], [0, 1, -oy], [0, 0, 1]])
    return np.dot(np.dot(to_centre, matrix), from_centre)


def _transform_matrix(theta: float, tx: float, ty: float, shear: float, zx: float,
                      zy: float) -> Optional[np.ndarray]:
    """tf-keras's composition rotation @ shift @ shear @ zoom (None: identity)."""
    parts = []
    if theta != 0:
        t = np.deg2rad(theta)
        parts.append(np.array([[np.cos(t), -np.sin(t), 0], [np.sin(t), np.cos(t), 0],
                               [0, 0, 1]]))
    if tx != 0 or ty != 0:
        parts.append(np.array([[1, 0, tx], [0, 1, ty], [0, 0, 1]]))
    if shear != 0:
        s = np.deg2rad(shear)
        parts.append(np.array([[1, -np.sin(s), 0], [0, np.cos(s), 0], [0, 0, 1]]))
    if zx != 1 or zy != 1:
        parts.append(np.array([[zx, 0, 0], [0, zy, 0], [0, 0, 1]]))
    if not parts:
        return None
    matrix = parts[0]
    for part in parts[1:]:
        matrix = np.dot(matrix, part)
    return matrix


def apply_affine_transform(x: np.ndarray, theta: float = 0, tx: float = 0, ty: float = 0,
                           shear: float = 0, zx: float = 1, zy: float = 1,
                           row_axis: int = 1, col_axis: int = 2, channel_axis: int = 0,
                           fill_mode: str = "nearest", cval: float = 0.0,
                           order: int = 1) -> np.ndarray:
    """A rank-3 image rotated by `theta` degrees, shifted by (`tx` rows, `ty` columns),
    sheared by `shear` degrees and zoomed by (`zx`, `zy`) about its centre."""
    if np.unique([row_axis, col_axis, channel_axis]).size != 3:
        raise ValueError("'row_axis', 'col_axis', and 'channel_axis' must be distinct")
    given = {row_axis, col_axis, channel_axis}
    if given != {0, 1, 2}:
        raise ValueError(f"Invalid axis' indices: {given - {0, 1, 2}}")
    if x.ndim != 3:
        raise ValueError("Input arrays must be multi-channel 2D images.")
    if channel_axis not in [0, 2]:
        raise ValueError("Channels are allowed and the first and last dimensions.")
    matrix = _transform_matrix(theta, tx, ty, shear, zx, zy)
    if matrix is None:
        return x
    matrix = transform_matrix_offset_center(matrix, x.shape[row_axis], x.shape[col_axis])
    channels = np.moveaxis(x, channel_axis, 0)
    if col_axis > row_axis:
        # The matrix works in (row, column) order; swap both its axes for (column, row).
        matrix[:, [0, 1]] = matrix[:, [1, 0]]
        matrix[[0, 1]] = matrix[[1, 0]]
    images = [affine_transform_2d(channel, matrix[:2, :2], matrix[:2, 2], order=order,
                                  mode=fill_mode, cval=cval) for channel in channels]
    return np.moveaxis(np.stack(images, axis=0), 0, channel_axis)


def random_rotation(x: np.ndarray, rg: float, row_axis: int = 1, col_axis: int = 2,
                    channel_axis: int = 0, fill_mode: str = "nearest", cval: float = 0.0,
                    interpolation_order: int = 1) -> np.ndarray:
    """Rotation by a uniform angle in [-rg, rg] degrees."""
    theta = np.random.uniform(-rg, rg)
    return apply_affine_transform(x, theta=theta, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shift(x: np.ndarray, wrg: float, hrg: float, row_axis: int = 1,
                 col_axis: int = 2, channel_axis: int = 0, fill_mode: str = "nearest",
                 cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """Shift by uniform fractions of the height (`hrg`) and width (`wrg`)."""
    height, width = x.shape[row_axis], x.shape[col_axis]
    tx = np.random.uniform(-hrg, hrg) * height
    ty = np.random.uniform(-wrg, wrg) * width
    return apply_affine_transform(x, tx=tx, ty=ty, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_shear(x: np.ndarray, intensity: float, row_axis: int = 1, col_axis: int = 2,
                 channel_axis: int = 0, fill_mode: str = "nearest", cval: float = 0.0,
                 interpolation_order: int = 1) -> np.ndarray:
    """Shear by a uniform angle in [-intensity, intensity] degrees."""
    shear = np.random.uniform(-intensity, intensity)
    return apply_affine_transform(x, shear=shear, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def random_zoom(x: np.ndarray, zoom_range: Sequence[float], row_axis: int = 1,
                col_axis: int = 2, channel_axis: int = 0, fill_mode: str = "nearest",
                cval: float = 0.0, interpolation_order: int = 1) -> np.ndarray:
    """Zoom by two uniform factors in `zoom_range` (rows, columns)."""
    if len(zoom_range) != 2:
        raise ValueError("`zoom_range` should be a tuple or list of two floats. Received: "
                         f"{tuple(zoom_range)}")
    if zoom_range[0] == 1 and zoom_range[1] == 1:
        zx, zy = 1, 1
    else:
        zx, zy = np.random.uniform(zoom_range[0], zoom_range[1], 2)
    return apply_affine_transform(x, zx=zx, zy=zy, row_axis=row_axis, col_axis=col_axis,
                                  channel_axis=channel_axis, fill_mode=fill_mode, cval=cval,
                                  order=interpolation_order)


def apply_channel_shift(x: np.ndarray, intensity: float, channel_axis: int = 0
                        ) -> np.ndarray:
    """`intensity` added to every channel, clipped to the image's original range."""
    channels = np.rollaxis(x, channel_axis, 0)
    low, high = np.min(channels), np.max(channels)
    shifted = np.stack([np.clip(c + intensity, low, high) for c in channels], axis=0)
    return np.rollaxis(shifted, 0, channel_axis + 1)


def random_channel_shift(x: np.ndarray, intensity_range: float, channel_axis: int = 0
                         ) -> np.ndarray:
    """`apply_channel_shift` by a uniform intensity in [-range, range]."""
    intensity = np.random.uniform(-intensity_range, intensity_range)
    return apply_channel_shift(x, intensity, channel_axis=channel_axis)


def apply_brightness_shift(x: np.ndarray, brightness: float, scale: bool = True
                           ) -> np.ndarray:
    """Brightness scaled by `brightness` with Pillow's ImageEnhance (through an 8-bit
    image, as tf-keras does); without `scale`, an image outside [0, 255] is mapped back
    to its range."""
    from PIL import ImageEnhance
    low, high = np.min(x), np.max(x)
    outside = low < 0 or high > 255
    img = array_to_img(x, scale=outside or scale)
    out = img_to_array(ImageEnhance.Brightness(img).enhance(brightness))
    if not scale and outside:
        out = out / 255 * (high - low) + low
    return out


def random_brightness(x: np.ndarray, brightness_range: Sequence[float],
                      scale: bool = True) -> np.ndarray:
    """`apply_brightness_shift` by a uniform factor in `brightness_range`."""
    if len(brightness_range) != 2:
        raise ValueError("`brightness_range should be tuple or list of two floats. "
                         f"Received: {tuple(brightness_range)}")
    factor = np.random.uniform(brightness_range[0], brightness_range[1])
    return apply_brightness_shift(x, factor, scale)
