"""`tf.image.adjust_jpeg_quality` / `random_jpeg_quality`: an image passed through a JPEG
encode and decode (TF's EncodeJpegVariableQuality and DecodeJpeg ops, image_codecs.py).

The graph is TF's: the image converted to uint8 (saturating), encoded at the quality,
decoded with the input's channel count and converted back to the input's dtype. Pillow
bundles libjpeg-turbo, the library TF links, so the degraded pixels are TF's.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.image_codecs import decode_jpeg, encode_jpeg_variable_quality
from tf1compat.ops.image_ops import convert_image_dtype
from tf1compat.ops.random_ops import random_uniform

__all__ = ["adjust_jpeg_quality", "random_jpeg_quality"]


def adjust_jpeg_quality(image: Any, jpeg_quality: Any, dct_method: str = "",
                        name: Optional[str] = None) -> Tensor:
    """`tf.image.adjust_jpeg_quality`: `image` [height, width, 1 or 3] re-encoded as a JPEG
    of quality `jpeg_quality` (0-100, a Python int or an int32 tensor) and decoded."""
    with name_scope(name, "adjust_jpeg_quality", [image]):
        image = convert_to_tensor(image, name="image")
        channels = image.shape.as_list()[-1]
        original_dtype = image.dtype
        image = convert_image_dtype(image, D.uint8, saturate=True)
        if not isinstance(jpeg_quality, Tensor):
            jpeg_quality = convert_to_tensor(jpeg_quality, dtype=D.int32)
        encoded = encode_jpeg_variable_quality(image, jpeg_quality)
        decoded = decode_jpeg(encoded, channels=channels, dct_method=dct_method)
        return convert_image_dtype(decoded, original_dtype, saturate=True)


def random_jpeg_quality(image: Any, min_jpeg_quality: int, max_jpeg_quality: int,
                        seed: Optional[int] = None) -> Tensor:
    """`tf.image.random_jpeg_quality`: `adjust_jpeg_quality` at a quality drawn uniformly
    from [min_jpeg_quality, max_jpeg_quality)."""
    if (min_jpeg_quality < 0 or max_jpeg_quality < 0 or min_jpeg_quality > 100
            or max_jpeg_quality > 100):
        raise ValueError("jpeg encoding range must be between 0 and 100.")
    if min_jpeg_quality >= max_jpeg_quality:
        raise ValueError("`min_jpeg_quality` must be less than `max_jpeg_quality`.")
    quality = random_uniform([], min_jpeg_quality, max_jpeg_quality, seed=seed, dtype=D.int32)
    return adjust_jpeg_quality(image, quality)
