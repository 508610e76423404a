"""Image file formats for TF's decode/encode ops, with TF's conversion rules.

JPEG goes through Pillow (its libjpeg-turbo), PNG through Pillow where its modes carry the
full data; what Pillow cannot give losslessly (16-bit colour PNGs) is decoded here, as
are BMP (TF's own reader: uncompressed 8/24/32-bit) and GIF (TF composes frames as its
giflib code does: each frame drawn over the previous one, transparent pixels kept). All
decoders return uint8 or uint16 numpy arrays [height, width, channels] (GIF: [frames, ...]).

TF's rules reproduced here: the channel conversions of its libpng setup (gray <-> RGB,
alpha added as the maximum value or from tRNS, RGB -> gray with libpng's integer
coefficients for 0.299/0.587, 16 -> 8 bits by dropping the low byte, 8 -> 16 by x257),
and its JPEG settings: the decoder's IDCT (`dct_method`) and chroma upsampling
(`fancy_upscaling`) map onto libjpeg's through Pillow where Pillow can express them
(docs/data.md lists the combinations that match TF bit for bit).
"""

from __future__ import annotations

import io
import struct
import zlib
from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.ops._png_encoder import encode_png_like_libpng

__all__ = ["ImageFormatError", "sniff", "decode_jpeg", "jpeg_shape", "decode_png",
           "decode_gif", "decode_bmp", "encode_jpeg", "encode_png"]


class ImageFormatError(ValueError):
    """Undecodable image data (kernels turn it into TF's InvalidArgumentError)."""


def sniff(data: bytes) -> str:
    """TF's ClassifyFileFormat: "jpeg", "png", "gif", "bmp", "webp" or "unknown"."""
    if data.startswith(b"\xff\xd8\xff"):
        return "jpeg"
    if data.startswith(b"\x89PNG\r\n\x1a\n"):
        return "png"
    if data.startswith(b"GIF8"):
        return "gif"
    if data.startswith(b"BM"):
        return "bmp"
    if data.startswith(b"RIFF") and len(data) > 12 and data[8:12] == b"WEBP":
        return "webp"
    return "unknown"


def _pillow() -> Any:
    try:
        from PIL import Image, ImageFile
    except ImportError:  # pragma: no cover - Pillow is a dependency
        raise NotImplementedError("Image decoding needs Pillow (pip install Pillow)") from None
    return Image, ImageFile


# -- JPEG ---------------------------------------------------------------------------------------

def decode_jpeg(data: bytes, channels: int, ratio: int = 1, fancy_upscaling: bool = True,
                dct_method: str = "", try_recover_truncated: bool = False,
                acceptable_fraction: float = 1.0) -> np.ndarray:
    """A JPEG as uint8 [h, w, c] (c: `channels`, or the file's 1 or 3 when 0).

    libjpeg is asked for the output TF asks for: scaled by 1/`ratio`, gray output for one
    channel (the luma plane, not a conversion from RGB), and TF's IDCT and upsampling
    where Pillow can request them: ISLOW with fancy upsampling (TF's "INTEGER_ACCURATE"),
    IFAST without upsampling (TF's default IDCT, for gray or unsubsampled output or with
    `fancy_upscaling=False`). TF's default on subsampled colour (IFAST with fancy
    upsampling) has no Pillow equivalent; ISLOW with fancy upsampling stands in for it
    (pixels within a few levels).
    """
    image_module, image_file = _pillow()
    try:
        im = image_module.open(io.BytesIO(data))
        if im.format not in ("JPEG", "MPO"):
            raise ImageFormatError("not a JPEG")
        if im.mode not in ("L", "RGB"):
            raise NotImplementedError(f"decode_jpeg of a {im.mode} JPEG (CMYK/YCCK) is not "
                                      "supported by tf1compat")
        # Upsampling matters only for subsampled chroma that is output: otherwise TF's
        # IFAST decode is Pillow's fast one whatever `fancy_upscaling` says.
        upsampled = fancy_upscaling and channels != 1 and _subsampled(data)
        fast = dct_method != "INTEGER_ACCURATE" and not upsampled
        _configure_jpeg(im, channels, ratio, fast)
        if try_recover_truncated:
            previous = image_file.LOAD_TRUNCATED_IMAGES
            image_file.LOAD_TRUNCATED_IMAGES = True
            try:
                im.load()
            finally:
                image_file.LOAD_TRUNCATED_IMAGES = previous
        else:
            im.load()
    except (OSError, SyntaxError, ValueError, struct.error) as e:
        raise ImageFormatError(str(e)) from None
    arr = np.asarray(im, dtype=np.uint8)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if channels == 3 and arr.shape[2] == 1:
        arr = np.repeat(arr, 3, axis=2)
    return np.ascontiguousarray(arr)


def _subsampled(data: bytes) -> bool:
    """Whether the JPEG's frame header gives its components different sampling factors."""
    pos = 2
    while pos + 4 <= len(data):
        if data[pos] != 0xFF:
            return False
        marker = data[pos + 1]
        length = struct.unpack(">H", data[pos + 2:pos + 4])[0]
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            count = data[pos + 9]
            factors = {data[pos + 11 + 3 * i] for i in range(count)}
            return len(factors) > 1
        pos += 2 + length
    return False


def _configure_jpeg(im: Any, channels: int, ratio: int, fast: bool) -> None:
    """Sets what Pillow's JPEG decoder passes to libjpeg: the output colour space (gray
    for one channel), the scale 1/`ratio`, and `fast` (JDCT_IFAST and no fancy
    upsampling; otherwise libjpeg's defaults, JDCT_ISLOW with fancy upsampling)."""
    decoder, extent, offset, args = im.tile[0]
    if channels == 1 and args[0] == "RGB":
        im._mode = "L"
        args = ("L", "")
    if ratio > 1:
        x0, y0, x1, y1 = extent
        extent = (x0, y0, (x1 - x0 + ratio - 1) // ratio + x0,
                  (y1 - y0 + ratio - 1) // ratio + y0)
        im._size = ((im.size[0] + ratio - 1) // ratio, (im.size[1] + ratio - 1) // ratio)
    im.tile = [type(im.tile[0])(decoder, extent, offset, args)]
    im.decoderconfig = (ratio, 1 if fast else 0)


def jpeg_shape(data: bytes) -> Tuple[int, int, int]:
    """(height, width, components) from a JPEG's header."""
    image_module, _ = _pillow()
    try:
        im = image_module.open(io.BytesIO(data))
    except (OSError, SyntaxError, ValueError) as e:
        raise ImageFormatError(str(e)) from None
    if im.format not in ("JPEG", "MPO"):
        raise ImageFormatError("not a JPEG")
    return im.size[1], im.size[0], len(im.getbands())


def encode_jpeg(image: np.ndarray, quality: int, progressive: bool, optimize: bool,
                chroma_downsampling: bool, density_unit: str, x_density: int,
                y_density: int, xmp: bytes) -> bytes:
    """uint8 [h, w, 1 or 3] -> JPEG bytes (libjpeg-turbo through Pillow)."""
    image_module, _ = _pillow()
    mode = "L" if image.shape[2] == 1 else "RGB"
    im = image_module.fromarray(image[:, :, 0] if mode == "L" else image, mode)
    scale = 2.54 if density_unit == "cm" else 1.0     # Pillow writes dots per inch
    options = {"quality": quality, "progressive": progressive, "optimize": optimize,
               "subsampling": 2 if chroma_downsampling else 0,
               "dpi": (x_density * scale, y_density * scale)}
    if xmp:
        options["xmp"] = xmp
    buf = io.BytesIO()
    im.save(buf, "JPEG", **options)
    return buf.getvalue()


# -- PNG ----------------------------------------------------------------------------------------------

_COLOR = 2
_ALPHA = 4
_PALETTE = 3


def _png_header(data: bytes) -> Tuple[int, int, bool]:
    """(bit depth, colour type, has a tRNS chunk), read from the chunks."""
    if len(data) < 33 or data[12:16] != b"IHDR":
        raise ImageFormatError("Invalid PNG header")
    depth, color = data[24], data[25]
    pos, has_trns = 8, False
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"tRNS":
            has_trns = True
        if kind in (b"IDAT", b"IEND"):
            break
        pos += 12 + length
    return depth, color, has_trns


def decode_png(data: bytes, channels: int, bits: int) -> np.ndarray:
    """A PNG as [h, w, c] of `bits` (8 or 16) per value, with TF's libpng transforms."""
    depth, color, has_trns = _png_header(data)
    interlaced = data[28] != 0
    if depth == 16 and color in (_COLOR, _COLOR | _ALPHA, _ALPHA):
        if interlaced:
            raise NotImplementedError("decode_png of an interlaced 16-bit colour PNG is not "
                                      "supported by tf1compat")
        values, trns = _decode_png16(data, color)
    else:
        values, trns = _decode_png_pillow(data, color, depth)
    native = values.shape[2]
    is_gray = not color & _COLOR
    if color == _PALETTE:
        native_channels = 4 if has_trns else 3
        is_gray = False
    else:
        native_channels = native
    want = channels or native_channels
    maximum = (1 << (16 if values.dtype == np.uint16 else 8)) - 1
    depth = min(depth, 16)
    has_alpha = native in (2, 4)
    if want % 2 == 0:          # alpha wanted
        if not has_alpha:
            # libpng's filler is (1 << file bit depth) - 1 as TF asks for it, also for
            # 1/2/4-bit files whose pixels libpng has widened to 8 bits.
            filler = maximum if trns is not None else (1 << depth) - 1
            alpha = np.full(values.shape[:2] + (1,), filler, values.dtype)
            if trns is not None:
                alpha[np.all(values == np.asarray(trns, values.dtype), axis=2)] = 0
            values = np.concatenate([values, alpha], axis=2)
    elif has_alpha:
        values = values[:, :, :-1]
    color_part, alpha_part = (values[:, :, :-1], values[:, :, -1:]) if want % 2 == 0 else \
        (values, None)
    if want < 3 and not is_gray:
        color_part = _rgb_to_gray(color_part)
    elif want >= 3 and is_gray:
        color_part = np.repeat(color_part, 3, axis=2)
    values = color_part if alpha_part is None else np.concatenate([color_part, alpha_part], 2)
    if values.dtype == np.uint16 and bits == 8:
        values = (values >> 8).astype(np.uint8)           # libpng's strip_16
    elif values.dtype == np.uint8 and bits == 16:
        values = values.astype(np.uint16) * 257            # TF's Convert8to16
    return np.ascontiguousarray(values)


def _rgb_to_gray(rgb: np.ndarray) -> np.ndarray:
    """libpng's png_set_rgb_to_gray(1, 0.299, 0.587) without gamma: coefficients in
    1/32768, truncated at 8 bits and rounded at 16; gray pixels pass through."""
    red, green = 29900 * 32768 // 100000, 58700 * 32768 // 100000
    blue = 32768 - red - green
    r, g, b = (rgb[:, :, i].astype(np.int64) for i in range(3))
    rounding = 16384 if rgb.dtype == np.uint16 else 0
    gray = (red * r + green * g + blue * b + rounding) >> 15
    gray = np.where((r == g) & (r == b), r, gray)
    return gray.astype(rgb.dtype)[:, :, None]


def _decode_png_pillow(data: bytes, color: int, depth: int) -> Tuple[np.ndarray, Any]:
    """Pixel values as the file stores them (palette expanded), and the tRNS colour of a
    gray or RGB image."""
    image_module, _ = _pillow()
    try:
        im = image_module.open(io.BytesIO(data))
        im.load()
    except (OSError, SyntaxError, ValueError, zlib.error) as e:
        raise ImageFormatError(str(e)) from None
    trns = im.info.get("transparency")
    if im.mode == "P":
        out = np.asarray(im.convert("RGBA" if trns is not None else "RGB"))
        return out, None
    if im.mode in ("I;16", "I;16B", "I"):
        out = np.asarray(im, dtype=np.int64).astype(np.uint16)[:, :, None]
        return out, (trns,) if isinstance(trns, int) else None
    if im.mode == "1":
        out = (np.asarray(im, dtype=np.uint8) * 255)[:, :, None]
        return out, ((255 if trns else 0),) if isinstance(trns, int) else None
    out = np.asarray(im, dtype=np.uint8)
    if out.ndim == 2:
        out = out[:, :, None]
    if isinstance(trns, int) and im.mode == "L" and depth < 8:
        trns = trns * (255 // ((1 << depth) - 1))
    if isinstance(trns, int):
        trns = (trns,)
    return out, trns if isinstance(trns, tuple) else None


def _decode_png16(data: bytes, color: int) -> Tuple[np.ndarray, Any]:
    """16-bit gray+alpha / RGB / RGBA non-interlaced PNGs (Pillow keeps only their high
    bytes, which TF's conversions to gray or 8 bits need)."""
    width, height = struct.unpack(">II", data[16:24])
    pos, idat, trns = 8, [], None
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IDAT":
            idat.append(body)
        elif kind == b"tRNS" and color == _COLOR:
            trns = struct.unpack(">HHH", body[:6])
        elif kind == b"IEND":
            break
        pos += 12 + length
    channels = {_COLOR: 3, _COLOR | _ALPHA: 4, _ALPHA: 2}[color]
    stride = width * channels * 2
    try:
        raw = np.frombuffer(zlib.decompress(b"".join(idat)), np.uint8)
    except zlib.error as e:
        raise ImageFormatError(str(e)) from None
    if raw.size < height * (stride + 1):
        raise ImageFormatError("Invalid PNG data")
    rows = raw[:height * (stride + 1)].reshape(height, stride + 1)
    out = _unfilter(rows, bpp=channels * 2)
    values = out.reshape(height, width, channels, 2).astype(np.uint16)
    return (values[..., 0] << 8) | values[..., 1], trns


def _unfilter(rows: np.ndarray, bpp: int) -> np.ndarray:
    """PNG's per-row filters undone (None, Sub, Up, Average, Paeth)."""
    height, stride = rows.shape[0], rows.shape[1] - 1
    out = np.zeros((height, stride), np.uint8)
    prior = np.zeros(stride, np.int64)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int64)
        if kind == 0:
            cur = line
        elif kind == 2:
            cur = (line + prior) & 0xFF
        else:
            cur = line.copy()
            for x in range(stride):
                left = cur[x - bpp] if x >= bpp else 0
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + prior[x]) >> 1
                elif kind == 4:
                    up_left = prior[x - bpp] if x >= bpp else 0
                    p = left + prior[x] - up_left
                    pa, pb, pc = abs(p - left), abs(p - prior[x]), abs(p - up_left)
                    pred = left if pa <= pb and pa <= pc else prior[x] if pb <= pc else up_left
                else:
                    raise ImageFormatError(f"Invalid PNG filter type {kind}")
                cur[x] = (cur[x] + pred) & 0xFF
        out[y] = cur
        prior = cur
    return out


def encode_png(image: np.ndarray, compression: int) -> bytes:
    """uint8/uint16 [h, w, 1..4] -> PNG bytes, TF's (libpng's) bytes: compression -1 is
    zlib's default level 6."""
    return encode_png_like_libpng(image, 6 if compression < 0 else compression)


# -- BMP ---------------------------------------------------------------------------------------------

def decode_bmp(data: bytes, channels: int) -> np.ndarray:
    """TF's BMP reader: uncompressed 8 (values as gray), 24 (BGR) or 32 (BGRA) bits."""
    if len(data) < 32:
        raise ImageFormatError(f"Incomplete bmp content, requires at least 32 bytes to find "
                               f"the header size, width, height, and bpp, got {len(data)} "
                               "bytes")
    header_size, = struct.unpack("<i", data[10:14])
    width, height = struct.unpack("<ii", data[18:26])
    bpp, = struct.unpack("<h", data[28:30])
    img_channels = bpp // 8
    if img_channels not in (1, 3, 4):
        raise ImageFormatError("Number of channels inherent in the image must be 1, 3 or 4, "
                               f"was {img_channels}")
    want = channels or img_channels
    if width <= 0:
        raise ImageFormatError("Width must be positive")
    if height == 0:
        raise ImageFormatError("Height must be nonzero")
    if header_size < 0:
        raise ImageFormatError("header size must be nonnegative")
    rows = abs(height)
    row_size = (img_channels * width + 3) // 4 * 4
    size_diff = len(data) - header_size - row_size * rows
    if size_diff != 0:
        raise ImageFormatError("Input size should match (header_size + row_size * abs_height) "
                               f"but they differ by {size_diff}")
    pixels = np.frombuffer(data, np.uint8, row_size * rows, header_size).reshape(rows, row_size)
    pixels = pixels[:, :width * img_channels].reshape(rows, width, img_channels)
    if height > 0:
        pixels = pixels[::-1]                        # stored bottom-up
    if img_channels == 1:
        out = np.repeat(pixels, 3, axis=2) if want >= 3 else pixels
    else:
        out = pixels[:, :, [2, 1, 0] + ([3] if img_channels == 4 else [])]
        out = out[:, :, :3] if want == 3 else out
    if want == 4 and out.shape[2] == 3:
        out = np.concatenate([out, np.full(out.shape[:2] + (1,), 255, np.uint8)], axis=2)
    return np.ascontiguousarray(out)


# -- GIF ---------------------------------------------------------------------------------------------

def decode_gif(data: bytes, first_only: bool = False) -> np.ndarray:
    """uint8 [frames, h, w, 3]: each frame drawn over the previous one (the first over
    black), transparent pixels keeping what is below, as TF's decoder does."""
    if len(data) < 13 or not data.startswith(b"GIF8"):
        raise ImageFormatError("Failed to open gif file")
    width, height, packed = struct.unpack("<HHB", data[6:11])
    pos = 13
    global_map = None
    if packed & 0x80:
        size = 3 << ((packed & 7) + 1)
        global_map = np.frombuffer(data[pos:pos + size], np.uint8).reshape(-1, 3)
        pos += size
    frames: List[np.ndarray] = []
    transparent: Optional[int] = None
    canvas = np.zeros((height, width, 3), np.uint8)
    while pos < len(data):
        block = data[pos]
        if block == 0x3B:                            # trailer
            break
        if block == 0x21:                            # extension
            label = data[pos + 1]
            pos += 2
            if label == 0xF9 and data[pos] >= 4:
                flags, index = data[pos + 1], data[pos + 4]
                transparent = index if flags & 1 else None
            pos = _skip_sub_blocks(data, pos)
            continue
        if block != 0x2C:
            raise ImageFormatError("Wrong record type detected")
        left, top, w, h, flags = struct.unpack("<HHHHB", data[pos + 1:pos + 10])
        pos += 10
        color_map = global_map
        if flags & 0x80:
            size = 3 << ((flags & 7) + 1)
            color_map = np.frombuffer(data[pos:pos + size], np.uint8).reshape(-1, 3)
            pos += size
        if color_map is None:
            raise ImageFormatError("missing color map")
        min_code = data[pos]
        body, pos = _sub_blocks(data, pos + 1)
        indices = np.frombuffer(_lzw_decode(body, min_code, w * h), np.uint8)
        if indices.size < w * h:
            indices = np.concatenate([indices, np.zeros(w * h - indices.size, np.uint8)])
        raster = indices[:w * h].reshape(h, w)
        if flags & 0x40:
            raster = _deinterlace(raster)
        frame = canvas.copy()
        y0, x0 = min(top, height), min(left, width)
        y1, x1 = min(top + h, height), min(left + w, width)
        region = raster[:y1 - y0, :x1 - x0]
        if region.size and int(region.max()) >= len(color_map):
            raise ImageFormatError(f"found color index {int(region.max())} outside of color "
                                   f"map range {len(color_map)}")
        mask = np.ones(region.shape, bool) if transparent is None else region != transparent
        target = frame[y0:y1, x0:x1]
        target[mask] = color_map[region[mask]]
        frames.append(frame)
        canvas = frame
        transparent = None
        if first_only:
            break
    if not frames:
        raise ImageFormatError("Gif file does not contain any image")
    return np.stack(frames)


def _skip_sub_blocks(data: bytes, pos: int) -> int:
    while pos < len(data) and data[pos] != 0:
        pos += data[pos] + 1
    return pos + 1


def _sub_blocks(data: bytes, pos: int) -> Tuple[bytes, int]:
    parts = []
    while pos < len(data) and data[pos] != 0:
        parts.append(data[pos + 1:pos + 1 + data[pos]])
        pos += data[pos] + 1
    return b"".join(parts), pos + 1


def _lzw_decode(body: bytes, min_code: int, limit: int) -> bytes:
    """GIF's variable-width LZW (codes read least significant bit first)."""
    clear, end = 1 << min_code, (1 << min_code) + 1
    table: List[bytes] = [bytes([i]) for i in range(clear)] + [b"", b""]
    width = min_code + 1
    out = bytearray()
    previous: Optional[bytes] = None
    acc, held, index = 0, 0, 0          # bit accumulator, bits in it, next byte
    while len(out) < limit:
        while held < width and index < len(body):
            acc |= body[index] << held
            held += 8
            index += 1
        if held < width:
            break
        code = acc & ((1 << width) - 1)
        acc >>= width
        held -= width
        if code == clear:
            del table[clear + 2:]
            width = min_code + 1
            previous = None
            continue
        if code == end:
            break
        if code < len(table):
            entry = table[code]
            if previous is not None and len(table) < 4096:
                table.append(previous + entry[:1])
        elif previous is not None and code == len(table):
            entry = previous + previous[:1]
            table.append(entry)
        else:
            raise ImageFormatError("Image is defective, decoding aborted")
        out += entry
        previous = entry
        if len(table) == (1 << width) and width < 12:
            width += 1
    return bytes(out)


def _deinterlace(raster: np.ndarray) -> np.ndarray:
    h = raster.shape[0]
    order = list(range(0, h, 8)) + list(range(4, h, 8)) + list(range(2, h, 4)) + \
        list(range(1, h, 2))
    out = np.empty_like(raster)
    out[order] = raster
    return out


# -- WebP ---------------------------------------------------------------------------------------

def decode_webp(data: bytes) -> Tuple[np.ndarray, bool, bool]:
    """uint8 [frames, h, w, 3 or 4], whether the image has alpha, whether it is animated.

    Pillow decodes through libwebp (its animation decoder for animated files, which
    composites each frame onto the canvas, as TF's decoder does).
    """
    Image, _ = _pillow()
    try:
        im = Image.open(io.BytesIO(data), formats=["WEBP"])
        has_alpha = im.mode in ("RGBA", "LA", "PA") or "transparency" in im.info
        mode = "RGBA" if has_alpha else "RGB"
        count = getattr(im, "n_frames", 1)
        frames = []
        for index in range(count):
            im.seek(index)
            frames.append(np.asarray(im.convert(mode)))
    except (OSError, ValueError, SyntaxError, EOFError) as e:
        raise ImageFormatError(f"Failed to decode WebP image. ({e})") from None
    return np.stack(frames), has_alpha, count > 1
