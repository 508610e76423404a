"""Images as arrays and files, with Pillow: `tf.keras.utils.array_to_img`,
`img_to_array`, `load_img` and `save_img` (also under `tf.keras.preprocessing.image`),
converting, scaling and resizing as tf-keras 2.21 does."""

from __future__ import annotations

import io
import pathlib
import warnings
from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.keras.backend_core import floatx, image_data_format

__all__ = ["array_to_img", "img_to_array", "load_img", "save_img"]


def _pil() -> Any:
    """Pillow's Image module (imported on first use: only the image functions need it)."""
    from PIL import Image
    return Image


def _resampling(name: str) -> Any:
    Image = _pil()
    methods = getattr(Image, "Resampling", Image)
    table = {"nearest": methods.NEAREST, "bilinear": methods.BILINEAR,
             "bicubic": methods.BICUBIC, "hamming": methods.HAMMING, "box": methods.BOX,
             "lanczos": methods.LANCZOS}
    if name not in table:
        raise ValueError(f"Invalid interpolation method {name} specified. Supported "
                         f"methods are {', '.join(table)}")
    return table[name]


def array_to_img(x: Any, data_format: Optional[str] = None, scale: bool = True,
                 dtype: Optional[str] = None) -> Any:
    """A PIL image of a rank-3 array (1, 3 or 4 channels); `scale` maps its range to
    [0, 255] first."""
    data_format = data_format or image_data_format()
    x = np.asarray(x, dtype=dtype or floatx())
    if x.ndim != 3:
        raise ValueError("Expected image array to have rank 3 (single image). Got array "
                         f"with shape: {x.shape}")
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Invalid data_format: {data_format}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        top = np.max(x)
        if top != 0:
            x /= top
        x *= 255
    Image = _pil()
    channels = x.shape[2]
    if channels == 4:
        return Image.fromarray(x.astype("uint8"), "RGBA")
    if channels == 3:
        return Image.fromarray(x.astype("uint8"), "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return Image.fromarray(x[:, :, 0].astype("int32"), "I")
        return Image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


def img_to_array(img: Any, data_format: Optional[str] = None,
                 dtype: Optional[str] = None) -> np.ndarray:
    """A PIL image as a rank-3 array (grey images get a channel axis)."""
    data_format = data_format or image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    x = np.asarray(img, dtype=dtype or floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x.reshape((1,) + x.shape if data_format == "channels_first"
                         else x.shape + (1,))
    raise ValueError(f"Unsupported image shape: {x.shape}")


def save_img(path: Any, x: Any, data_format: Optional[str] = None,
             file_format: Optional[str] = None, scale: bool = True, **kwargs: Any) -> None:
    """Writes an image array with Pillow (RGBA is converted to RGB for JPEG)."""
    img = array_to_img(x, data_format=data_format or image_data_format(), scale=scale)
    if img.mode == "RGBA" and file_format in ("jpg", "jpeg"):
        warnings.warn("The JPG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    img.save(path, format=file_format, **kwargs)


def load_img(path: Any, grayscale: bool = False, color_mode: str = "rgb",
             target_size: Optional[Sequence[int]] = None, interpolation: str = "nearest",
             keep_aspect_ratio: bool = False) -> Any:
    """A PIL image read from a file path or BytesIO, converted to `color_mode` and
    resized to `target_size` (height, width), centre-cropped to its aspect ratio first
    when `keep_aspect_ratio`."""
    if grayscale:
        warnings.warn('grayscale is deprecated. Please use color_mode = "grayscale"')
        color_mode = "grayscale"
    Image = _pil()
    if isinstance(path, io.BytesIO):
        img = Image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        if isinstance(path, pathlib.Path):
            path = str(path.resolve())
        with open(path, "rb") as f:
            img = Image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    wanted = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)),
              "rgb": ("RGB", ("RGB",))}
    if color_mode not in wanted:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    mode, accepted = wanted[color_mode]
    if img.mode not in accepted:
        img = img.convert(mode)
    if target_size is None:
        return img
    size = (target_size[1], target_size[0])
    if img.size == size:
        return img
    resample = _resampling(interpolation)
    if not keep_aspect_ratio:
        return img.resize(size, resample)
    width, height = img.size
    crop_height = min(height, width * size[1] // size[0])
    crop_width = min(width, height * size[0] // size[1])
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return img.resize(size, resample, box=[left, top, left + crop_width, top + crop_height])
