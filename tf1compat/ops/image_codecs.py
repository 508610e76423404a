"""Image decoding and encoding: `tf.image.decode_jpeg/decode_png/decode_bmp/decode_gif/
decode_image/decode_and_crop_jpeg/decode_webp/extract_jpeg_shape/encode_jpeg/encode_png/
is_jpeg` (also under `tf.io`), with TF's ops (DecodeJpeg, DecodePng, ..., DecodeWebP,
EncodePng).

As in TF, every decode op is one kernel that recognizes the format from the data's magic
bytes and applies the op's rules: decode_jpeg and decode_png also decode PNG/JPEG/single-
frame GIF data, decode_gif returns 4-D batches, decode_bmp only decodes BMP, decode_image
all of them (`dtype` uint8/uint16/float32 scaled as TF: x256 from 8 to 16 bits, /255
or /65535 to float). WebP data gives [frames, h, w, c] in every op, as TF 2.21's decoder. Formats and conversions live in _image_formats.py.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import _image_formats as formats
from tf1compat.ops._shape_rules import node_desc

__all__ = ["decode_jpeg", "decode_and_crop_jpeg", "decode_png", "decode_bmp", "decode_gif",
           "decode_image", "decode_webp", "extract_jpeg_shape", "encode_jpeg",
           "encode_jpeg_variable_quality", "encode_png", "is_jpeg"]


def _invalid(message: str) -> errors.OpError:
    return errors.InvalidArgumentError(None, None, message)


# -- decoding -------------------------------------------------------------------------------------

class _DecodeSettings:
    """An op's decode attrs, checked once (TF checks them when it builds the kernel)."""

    def __init__(self, node: Any):
        op = node.type
        attrs = node.attrs
        self.op = op
        self.dtype = attrs.get("dtype", D.uint8)
        self.expand = bool(attrs.get("expand_animations", True))
        self.channels = 3 if op == "DecodeGif" else int(attrs["channels"])
        if self.channels not in (0, 1, 3, 4):
            raise errors.op_error(errors.InvalidArgumentError, node,
                                  f"`channels` must be 0, 1, 3 or 4 but got {self.channels}")
        self.ratio, self.fancy, self.dct = 1, True, ""
        self.recover, self.fraction = False, 1.0
        if op in ("DecodeJpeg", "DecodeAndCropJpeg"):
            self.ratio = int(attrs["ratio"])
            if self.ratio not in (1, 2, 4, 8):
                raise errors.op_error(errors.InvalidArgumentError, node,
                                      f"ratio must be 1, 2, 4, or 8, got {self.ratio}")
            self.fancy = bool(attrs["fancy_upscaling"])
            self.recover = bool(attrs["try_recover_truncated"])
            self.fraction = float(attrs["acceptable_fraction"])
            self.dct = attrs["dct_method"]
            self.dct = self.dct.decode() if isinstance(self.dct, bytes) else self.dct
            if self.dct not in ("", "INTEGER_FAST", "INTEGER_ACCURATE"):
                raise errors.op_error(errors.InvalidArgumentError, node,
                                      "dct_method must be one of {'', 'INTEGER_FAST', "
                                      "'INTEGER_ACCURATE'}")

    def decode(self, data: bytes, crop: Optional[List[int]] = None) -> np.ndarray:
        fmt = formats.sniff(data)
        try:
            if fmt == "jpeg":
                return self._jpeg(data, crop)
            if fmt == "png":
                return self._png(data)
            if fmt == "gif":
                return self._gif(data)
            if fmt == "bmp":
                return self._bmp(data)
        except formats.ImageFormatError as e:
            raise self._format_error(fmt, data, str(e)) from None
        if fmt == "webp":
            return self._webp(data)
        if self.op == "DecodeWebP":
            raise _invalid("Unknown image file format. One of JPEG, JPEG XL, PNG, GIF, BMP, "
                           "WebP required.")
        raise _invalid("Unknown image file format. One of JPEG, PNG, GIF, BMP required.")

    def _format_error(self, fmt: str, data: bytes, detail: str) -> errors.OpError:
        if fmt == "jpeg":
            return _invalid("jpeg::Uncompress failed. Invalid JPEG data or crop window.")
        if fmt == "png":
            return _invalid(f"Invalid PNG data, size {len(data)}")
        if fmt == "gif":
            return _invalid(f"Invalid GIF data (size {len(data)}), {detail}")
        return _invalid(detail)

    def _jpeg(self, data: bytes, crop: Optional[List[int]]) -> np.ndarray:
        if self.channels == 4:
            raise _invalid("JPEG does not support 4 channels")
        if self.op == "DecodeBmp":
            raise _invalid("Trying to decode JPEG format using DecodeBmp op. Use "
                           "`decode_jpeg` or `decode_image` instead.")
        # TF's default IDCT is IFAST; Pillow pairs IFAST with plain upsampling, so that pair
        # is used when fancy upsampling is off, ISLOW with fancy upsampling otherwise.
        image = formats.decode_jpeg(data, self.channels, self.ratio, self.fancy,
                                    self.dct, self.recover, self.fraction)
        if crop is not None:
            y, x, h, w = crop
            if y < 0 or x < 0 or h <= 0 or w <= 0 or y + h > image.shape[0] or \
                    x + w > image.shape[1]:
                raise _invalid("jpeg::Uncompress failed. Invalid JPEG data or crop window.")
            image = image[y:y + h, x:x + w]
        return self._scaled8(image[None] if self.op == "DecodeGif" else image)

    def _png(self, data: bytes) -> np.ndarray:
        if self.op == "DecodeBmp":
            raise _invalid("Trying to decode PNG format using DecodeBmp op. Use `decode_png` "
                           "or `decode_image` instead.")
        if self.op == "DecodeAndCropJpeg":
            raise _invalid("DecodeAndCropJpeg operation can run on JPEG only, but detected "
                           "PNG.")
        bits = 8 if self.dtype == D.uint8 else 16
        image = formats.decode_png(data, self.channels, bits)
        if self.dtype == D.float32:
            image = image.astype(np.float32) * np.float32(1.0 / 65535)
        return image[None] if self.op == "DecodeGif" else image

    def _gif(self, data: bytes) -> np.ndarray:
        if self.channels not in (0, 3):
            raise _invalid(f"channels must be 0 or 3 for GIF, got {self.channels}")
        if self.op == "DecodeBmp":
            raise _invalid("Trying to decode GIF format using DecodeBmp op. Use `decode_gif` "
                           "or `decode_image` instead.")
        if self.op == "DecodeAndCropJpeg":
            raise _invalid("DecodeAndCropJpeg operation can run on JPEG only, but detected "
                           "GIF.")
        first_only = self.op == "DecodeImage" and not self.expand
        frames = formats.decode_gif(data, first_only=first_only)
        if self.op in ("DecodePng", "DecodeJpeg"):
            if len(frames) != 1:
                raise _invalid(f"Got {len(frames)} frames, but animated gifs can only be "
                               "decoded by tf.io.decode_gif or tf.io.decode_image")
            frames = frames[0]
        elif first_only:
            frames = frames[0]
        return self._scaled8(frames)

    def _bmp(self, data: bytes) -> np.ndarray:
        if self.channels == 1:
            raise _invalid("`channels` must be 0, 3 or 4 for BMP, but got 1")
        if self.op not in ("DecodeBmp", "DecodeImage"):
            if self.op == "DecodeAndCropJpeg":
                raise _invalid("DecodeAndCropJpeg operation can run on JPEG only, but "
                               "detected BMP.")
            raise _invalid("Trying to decode BMP format using a wrong op. Use `decode_bmp` or "
                           f"`decode_image` instead. Op used: {self.op}")
        return self._scaled8(formats.decode_bmp(data, self.channels))

    def _webp(self, data: bytes) -> np.ndarray:
        """As TF 2.21: [frames, h, w, c] whatever the op (the first frame, 3-D, for
        decode_image with expand_animations=False); animations must have alpha."""
        if self.channels not in (0, 3, 4):
            raise _invalid("WebP only supports 3 or 4 channels")
        if self.dtype != D.uint8:
            raise _invalid("WebP only supports uint8 for dtype")
        try:
            frames, has_alpha, animated = formats.decode_webp(data)
        except formats.ImageFormatError:
            raise _invalid("Failed to decode WebP image.") from None
        if self.channels and self.channels != frames.shape[-1]:
            raise _invalid("Number of channels requested does not match input")
        if animated and not has_alpha:
            raise _invalid("WebP Animation must be 4 channel RGBA")
        if self.op == "DecodeImage" and not self.expand:
            return frames[0]
        return frames

    def _scaled8(self, image: np.ndarray) -> np.ndarray:
        """8-bit data in the op's dtype (TF: x256 to uint16, /255 to float32)."""
        if self.dtype == D.uint16:
            return image.astype(np.uint16) * 256
        if self.dtype == D.float32:
            return image.astype(np.float32) * np.float32(1.0 / 255)
        return image


def _contents(value: Any) -> bytes:
    if isinstance(value, np.ndarray):
        if value.ndim != 0:
            raise _invalid(f"`contents` must be scalar but got shape{list(value.shape)}"
                           .replace(" ", ""))
        value = value[()]
    data = bytes(value)
    if not data:
        raise _invalid("Input is empty.")
    return data


def _tensor(image: np.ndarray) -> torch.Tensor:
    if not (image.flags.writeable and image.flags.c_contiguous):
        image = np.array(image)        # Pillow's arrays are read-only views
    return torch.from_numpy(image)


def _decode_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    settings = _DecodeSettings(node)
    if node.type == "DecodeAndCropJpeg":
        def decode_and_crop(contents: Any, crop_window: Any) -> torch.Tensor:
            if crop_window.dim() != 1:
                raise _invalid(f"crop_window must be 1-D, got shape "
                               f"[{','.join(str(d) for d in crop_window.shape)}]")
            if crop_window.shape[0] != 4:
                raise _invalid(f"crop_size must have four elements "
                               f"[{','.join(str(d) for d in crop_window.shape)}]")
            return _tensor(settings.decode(_contents(contents),
                                           [int(v) for v in crop_window.tolist()]))
        return decode_and_crop
    return lambda contents: _tensor(settings.decode(_contents(contents)))


def _image_shape(channels_attr: Optional[str], rank: int = 3) -> Callable[[Any], List[Any]]:
    """TF's DecodeImageShapeFn: a scalar input; [?, ?, channels or ?]."""
    def rule(ctx: Any) -> List[TensorShape]:
        in_rank = ctx.shape(0).rank
        if in_rank not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {in_rank} {node_desc(ctx)}")
        if channels_attr is None:
            return [TensorShape([None] * (rank - 1) + [3])]
        channels = ctx.attrs[channels_attr]
        return [TensorShape([None, None, channels if channels else None])]
    return rule


def _decode_image_shape(ctx: Any) -> List[TensorShape]:
    if ctx.attrs["expand_animations"]:
        in_rank = ctx.shape(0).rank
        if in_rank not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {in_rank} {node_desc(ctx)}")
        return [unknown_shape()]
    return _image_shape("channels")(ctx)


_JPEG_ATTRS = {"channels": 0, "ratio": 1, "fancy_upscaling": True,
               "try_recover_truncated": False, "acceptable_fraction": 1.0, "dct_method": ""}
declare("DecodeJpeg", inputs=["contents: string"], outputs=["image: uint8"],
        attrs=dict(_JPEG_ATTRS), shape=_image_shape("channels"), kernel=_decode_kernel,
        grad="none", cpu_only=True,
        rank_follows_data=True)
def _crop_shape(ctx: Any) -> List[TensorShape]:
    """[crop height, crop width, channels] when the window is known at graph build."""
    shape = _image_shape("channels")(ctx)[0]
    window = ctx.const(1)
    if window is not None and np.size(window) == 4:
        window = np.asarray(window).reshape(-1)
        return [TensorShape([int(window[2]), int(window[3]), shape.as_list()[2]])]
    return [shape]


declare("DecodeAndCropJpeg", inputs=["contents: string", "crop_window: int32"],
        outputs=["image: uint8"], attrs=dict(_JPEG_ATTRS), shape=_crop_shape,
        kernel=_decode_kernel, grad="none", cpu_only=True)
declare("DecodePng", inputs=["contents: string"], outputs=["image: dtype"],
        attrs={"channels": 0, "dtype": Type((D.uint8, D.uint16), default=D.uint8)},
        shape=_image_shape("channels"), kernel=_decode_kernel, grad="none", cpu_only=True,
        rank_follows_data=True)
declare("DecodeBmp", inputs=["contents: string"], outputs=["image: uint8"],
        attrs={"channels": 0}, shape=_image_shape("channels"), kernel=_decode_kernel,
        grad="none", cpu_only=True,
        rank_follows_data=True)
declare("DecodeGif", inputs=["contents: string"], outputs=["image: uint8"],
        shape=_image_shape(None, rank=4), kernel=_decode_kernel, grad="none", cpu_only=True,
        rank_follows_data=True)
def _webp_shape(ctx: Any) -> List[TensorShape]:
    in_rank = ctx.shape(0).rank
    if in_rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {in_rank} {node_desc(ctx)}")
    return [TensorShape([None, None, None, ctx.attrs["channels"] or None])]


declare("DecodeWebP", inputs=["contents: string"], outputs=["image: dtype"],
        attrs={"channels": 0, "dtype": Type((D.uint8,), default=D.uint8)},
        shape=_webp_shape, kernel=_decode_kernel, grad="none", cpu_only=True,
        rank_follows_data=True)
declare("DecodeImage", inputs=["contents: string"], outputs=["image: dtype"],
        attrs={"channels": 0, "dtype": Type((D.uint8, D.uint16, D.float32), default=D.uint8),
               "expand_animations": True},
        shape=_decode_image_shape, kernel=_decode_kernel, grad="none", cpu_only=True)


def _jpeg_shape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["output_type"].torch_dtype

    def extract(contents: Any) -> torch.Tensor:
        data = _contents(contents)
        try:
            shape = formats.jpeg_shape(data)
        except formats.ImageFormatError:
            raise _invalid("Invalid JPEG data, size " + str(len(data))) from None
        return torch.tensor(shape, dtype=dtype)
    return extract


declare("ExtractJpegShape", inputs=["contents: string"], outputs=["image_shape: output_type"],
        attrs={"output_type": Type((D.int32, D.int64), default=D.int32)},
        shape=lambda ctx: [TensorShape([3])], kernel=_jpeg_shape_kernel, grad="none",
        cpu_only=True)


# -- encoding -------------------------------------------------------------------------------------

def _rank3_shape(ctx: Any) -> List[TensorShape]:
    rank = ctx.shape(0).rank
    if rank not in (None, 3):
        raise ValueError(f"Shape must be rank 3 but is rank {rank} {node_desc(ctx)}")
    return [TensorShape([])]


_ENCODE_JPEG_ATTRS = {"format": "", "quality": 95, "progressive": False,
                      "optimize_size": False, "chroma_downsampling": True,
                      "density_unit": "in", "x_density": 300, "y_density": 300,
                      "xmp_metadata": ""}


def _jpeg_encoder(node: Any, a: dict) -> Callable[..., bytes]:
    """`encode(image, quality=None)` for EncodeJpeg attrs `a` (checked as TF does)."""
    def text(key: str) -> str:
        value = a[key]
        return value.decode() if isinstance(value, bytes) else value
    fmt = text("format")
    if fmt not in ("", "grayscale", "rgb"):
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"format must be '', grayscale or rgb, got {fmt}")
    quality = int(a["quality"])
    if not 0 <= quality <= 100:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"quality must be in [0,100], got {quality}")
    unit = text("density_unit")
    if unit not in ("in", "cm"):
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"density_unit must be 'in' or 'cm' {unit}")
    xmp = a["xmp_metadata"]
    xmp = xmp.encode() if isinstance(xmp, str) else bytes(xmp)

    def encode(image: torch.Tensor, quality_value: Optional[int] = None) -> bytes:
        arr = _image3(image)
        channels = {"grayscale": 1, "rgb": 3}.get(fmt, arr.shape[2])
        if arr.shape[2] != channels or channels not in (1, 3):
            raise _invalid(f"image must have 1 or 3 channels, got "
                           f"[{','.join(str(d) for d in arr.shape)}]")
        q = quality if quality_value is None else quality_value
        return formats.encode_jpeg(arr, q, bool(a["progressive"]), bool(a["optimize_size"]),
                                   bool(a["chroma_downsampling"]), unit, int(a["x_density"]),
                                   int(a["y_density"]), xmp)
    return encode


def _encode_jpeg_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    return _jpeg_encoder(node, node.attrs)


def _image3(image: torch.Tensor) -> np.ndarray:
    if image.dim() != 3:
        raise _invalid(f"image must be 3-dimensional[{','.join(str(d) for d in image.shape)}]")
    return np.ascontiguousarray(image.cpu().numpy())


declare("EncodeJpeg", inputs=["image: uint8"], outputs=["contents: string"],
        attrs=dict(_ENCODE_JPEG_ATTRS), shape=_rank3_shape, kernel=_encode_jpeg_kernel,
        grad="none", cpu_only=True)


def _encode_variable_quality_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    encode = _jpeg_encoder(node, _ENCODE_JPEG_ATTRS)   # EncodeJpeg's defaults

    def run(images: torch.Tensor, quality: Any) -> bytes:
        q = int(quality)
        if not 0 <= q <= 100:
            raise _invalid(f"quality must be in [0,100], got {q}")
        return encode(images, q)
    return run


declare("EncodeJpegVariableQuality", inputs=["images: uint8", "quality: int32"],
        outputs=["contents: string"], shape=_rank3_shape,
        kernel=_encode_variable_quality_kernel, grad="none", cpu_only=True)


def _encode_png_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    compression = int(node.attrs["compression"])
    if not -1 <= compression <= 9:
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"compression should be in [-1,9], got {compression}")

    def encode(image: torch.Tensor) -> bytes:
        arr = _image3(image)
        if arr.shape[2] not in (1, 2, 3, 4):
            raise _invalid(f"image must have 1, 2, 3, or 4 channels, got {arr.shape[2]}")
        if arr.shape[0] == 0 or arr.shape[1] == 0:
            raise _invalid("Image size too large for PNG")   # TF: WriteImageToBuffer fails
        return formats.encode_png(arr, compression)
    return encode


declare("EncodePng", inputs=["image: T"], outputs=["contents: string"],
        attrs={"compression": -1, "T": Type((D.uint8, D.uint16), default=D.uint8)},
        shape=_rank3_shape, kernel=_encode_png_kernel, grad="none", cpu_only=True)


# -- wrappers ---------------------------------------------------------------------------------------

def decode_jpeg(contents: Any, channels: int = 0, ratio: int = 1, fancy_upscaling: bool = True,
                try_recover_truncated: bool = False, acceptable_fraction: float = 1,
                dct_method: str = "", name: Optional[str] = None) -> Tensor:
    """`tf.image.decode_jpeg`: uint8 [height, width, channels]."""
    return apply_op1("DecodeJpeg", [contents],
                     {"channels": channels, "ratio": ratio, "fancy_upscaling": fancy_upscaling,
                      "try_recover_truncated": try_recover_truncated,
                      "acceptable_fraction": float(acceptable_fraction),
                      "dct_method": dct_method}, name=name)


def decode_and_crop_jpeg(contents: Any, crop_window: Any, channels: int = 0, ratio: int = 1,
                         fancy_upscaling: bool = True, try_recover_truncated: bool = False,
                         acceptable_fraction: float = 1, dct_method: str = "",
                         name: Optional[str] = None) -> Tensor:
    """`tf.image.decode_and_crop_jpeg`: the [y, x, height, width] window of the image."""
    return apply_op1("DecodeAndCropJpeg", [contents, crop_window],
                     {"channels": channels, "ratio": ratio, "fancy_upscaling": fancy_upscaling,
                      "try_recover_truncated": try_recover_truncated,
                      "acceptable_fraction": float(acceptable_fraction),
                      "dct_method": dct_method}, name=name)


def decode_png(contents: Any, channels: int = 0, dtype: Any = D.uint8,
               name: Optional[str] = None) -> Tensor:
    """`tf.image.decode_png`: uint8 or uint16 [height, width, channels]."""
    return apply_op1("DecodePng", [contents], {"channels": channels,
                                               "dtype": D.as_dtype(dtype)}, name=name)


def decode_bmp(contents: Any, channels: int = 0, name: Optional[str] = None) -> Tensor:
    """`tf.image.decode_bmp`: uint8 [height, width, channels]."""
    return apply_op1("DecodeBmp", [contents], {"channels": channels}, name=name)


def decode_gif(contents: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.decode_gif`: uint8 [frames, height, width, 3]."""
    return apply_op1("DecodeGif", [contents], {}, name=name)


def decode_image(contents: Any, channels: Optional[int] = None, dtype: Any = D.uint8,
                 name: Optional[str] = None, expand_animations: bool = True) -> Tensor:
    """`tf.image.decode_image`: any of JPEG, PNG, GIF (4-D unless `expand_animations` is
    False), BMP; other dtypes than uint8/uint16/float32 through convert_image_dtype."""
    with name_scope(name, "decode_image"):
        channels = 0 if channels is None else channels
        dtype = D.as_dtype(dtype)
        decode_dtype = dtype if dtype in (D.float32, D.uint8, D.uint16) else D.uint16
        image = apply_op1("DecodeImage", [contents],
                          {"channels": channels, "expand_animations": expand_animations,
                           "dtype": decode_dtype})
        if decode_dtype != dtype:
            from tf1compat.ops.image_ops import convert_image_dtype
            image = convert_image_dtype(image, dtype)
        if not expand_animations:
            image.set_shape([None, None, channels if channels != 0 else None])
        return image


def decode_webp(contents: Any, channels: int = 0, dtype: Any = D.uint8,
                name: Optional[str] = None) -> Tensor:
    """`tf.io.decode_webp` (TF 2.21): uint8 [frames, height, width, channels]; an
    animation's frames composited as displayed (RGBA)."""
    dtype = D.as_dtype(dtype)
    if dtype != D.uint8:
        raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} not in "
                        "list of allowed values: uint8")
    return apply_op1("DecodeWebP", [contents], {"channels": channels, "dtype": dtype},
                     name=name)


def extract_jpeg_shape(contents: Any, output_type: Any = D.int32,
                       name: Optional[str] = None) -> Tensor:
    """`tf.image.extract_jpeg_shape`: [height, width, channels] from the JPEG header."""
    return apply_op1("ExtractJpegShape", [contents],
                     {"output_type": D.as_dtype(output_type)}, name=name)


def encode_jpeg(image: Any, format: str = "", quality: int = 95,  # noqa: A002 - TF's name
                progressive: bool = False, optimize_size: bool = False,
                chroma_downsampling: bool = True, density_unit: str = "in",
                x_density: int = 300, y_density: int = 300, xmp_metadata: str = "",
                name: Optional[str] = None) -> Tensor:
    """`tf.image.encode_jpeg`: a uint8 [height, width, 1 or 3] image as JPEG bytes."""
    return apply_op1("EncodeJpeg", [image],
                     {"format": format, "quality": quality, "progressive": progressive,
                      "optimize_size": optimize_size,
                      "chroma_downsampling": chroma_downsampling,
                      "density_unit": density_unit, "x_density": x_density,
                      "y_density": y_density, "xmp_metadata": xmp_metadata}, name=name)


def encode_jpeg_variable_quality(images: Any, quality: Any,
                                 name: Optional[str] = None) -> Tensor:
    """`tf.image.adjust_jpeg_quality`'s op: JPEG bytes at a run-time quality."""
    return apply_op1("EncodeJpegVariableQuality", [images, quality], {}, name=name)


def encode_png(image: Any, compression: int = -1, name: Optional[str] = None) -> Tensor:
    """`tf.image.encode_png`: a uint8/uint16 [height, width, 1..4] image as PNG bytes."""
    return apply_op1("EncodePng", [convert_to_tensor(image)], {"compression": compression},
                     name=name)


def is_jpeg(contents: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.is_jpeg`: whether the bytes start like a JPEG."""
    from tf1compat.ops.math_ops import equal
    from tf1compat.ops.string_ops import substr
    with name_scope(name, "is_jpeg"):
        return equal(substr(contents, 0, 3), b"\xff\xd8\xff", name=name)
