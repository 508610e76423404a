"""Writes the image files the image golden cases decode (tests/fixtures/images).

    /tmp/tf/bin/python scripts/record_image_fixtures.py       # tf_*: encoded by real TF
    .venv/bin/python scripts/record_image_fixtures.py         # pil_*: made with Pillow

JPEG and PNG fixtures are encoded by TensorFlow itself (its libjpeg/libpng), so the golden
cases compare decoders on TF's own files. Formats TF cannot write (GIF, BMP) and PNG
variants it does not produce (palettes, transparency, low bit depths) are written with
Pillow or by hand. Content is deterministic (a seeded pattern), so files only change if
an encoder does.
"""

from __future__ import annotations

import os
import struct
import sys

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "images")


def pattern(height: int, width: int, channels: int, seed: int = 0) -> np.ndarray:
    """Smooth gradients plus noise: both the low and high frequencies a codec sees."""
    rng = np.random.RandomState(seed)
    y, x = np.mgrid[0:height, 0:width]
    base = np.stack([(x * 255 // max(width - 1, 1)), (y * 255 // max(height - 1, 1)),
                     ((x + y) * 4) % 256, (x * y) % 256][:channels], axis=2)
    noise = rng.randint(-20, 21, size=base.shape)
    return np.clip(base + noise, 0, 255).astype(np.uint8)


def write(name: str, data: bytes) -> None:
    with open(os.path.join(OUT, name), "wb") as f:
        f.write(data)
    print(name, len(data))


def tf_fixtures() -> None:
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    rgb = pattern(37, 45, 3)
    gray = pattern(29, 31, 1, seed=1)
    rgba = pattern(17, 19, 4, seed=2)
    deep = (pattern(13, 11, 3, seed=3).astype(np.uint16) * 257 +
            np.arange(13 * 11 * 3, dtype=np.uint16).reshape(13, 11, 3))
    deep_gray = (pattern(9, 14, 1, seed=4).astype(np.uint16) * 251)
    with tf.Session() as sess:
        jobs = {
            "tf_rgb_q95.jpg": tf.image.encode_jpeg(rgb),
            "tf_rgb_q75_444.jpg": tf.image.encode_jpeg(rgb, quality=75,
                                                       chroma_downsampling=False),
            "tf_rgb_progressive.jpg": tf.image.encode_jpeg(rgb, quality=85, progressive=True),
            "tf_gray.jpg": tf.image.encode_jpeg(gray, quality=90),
            "tf_rgb.png": tf.image.encode_png(rgb),
            "tf_rgba.png": tf.image.encode_png(rgba),
            "tf_gray.png": tf.image.encode_png(gray),
            "tf_rgb16.png": tf.image.encode_png(tf.constant(deep)),
            "tf_gray16.png": tf.image.encode_png(tf.constant(deep_gray)),
        }
        for name, op in jobs.items():
            write(name, sess.run(op))


def pillow_fixtures() -> None:
    from PIL import Image
    rgb = pattern(21, 26, 3, seed=5)
    palette = Image.fromarray(rgb).quantize(colors=16, method=Image.Quantize.MEDIANCUT)
    write("pil_palette.png", _png(palette))
    alpha = bytes([255, 0, 128] + [255] * 13)
    write("pil_palette_trns.png", _png(palette, transparency=alpha))
    gray = Image.fromarray(pattern(12, 10, 1, seed=6)[:, :, 0])
    write("pil_gray_trns.png", _png(gray, transparency=int(np.asarray(gray)[0, 0])))
    write("pil_bilevel.png", _png(gray.point(lambda v: 255 if v > 128 else 0).convert("1")))
    write("pil_rgb_trns.png", _png(Image.fromarray(rgb), transparency=tuple(int(v) for v in rgb[0, 0])))
    write("pil_animated.gif", _gif())
    write("pil_rgb24.bmp", _bmp(pattern(7, 9, 3, seed=7), top_down=False))
    write("pil_rgba32_topdown.bmp", _bmp(pattern(5, 6, 4, seed=8), top_down=True))
    write("pil_gray8.bmp", _bmp(pattern(4, 5, 1, seed=9), top_down=False))
    webp_fixtures()


def webp_fixtures() -> None:
    """Still (lossless, lossy, with alpha) and animated (RGB, RGBA) WebP files."""
    import io
    from PIL import Image

    def webp(frames: list, **options: object) -> bytes:
        buf = io.BytesIO()
        images = [Image.fromarray(f) for f in frames]
        images[0].save(buf, "WEBP", save_all=len(images) > 1, append_images=images[1:],
                       **options)
        return buf.getvalue()

    write("pil_rgb_lossless.webp", webp([pattern(9, 11, 3, seed=12)], lossless=True))
    write("pil_rgb_lossy.webp", webp([pattern(9, 11, 3, seed=12)], quality=80))
    rgba = pattern(6, 7, 4, seed=13)
    rgba[..., 3] = np.maximum(rgba[..., 3], 1)     # (fully transparent pixels lose colour)
    write("pil_rgba_lossless.webp", webp([rgba], lossless=True))
    frames = [pattern(5, 6, 4, seed=14 + i) for i in range(3)]
    for frame in frames:
        frame[..., 3] = 255
    write("pil_anim_rgba.webp", webp(frames, lossless=True, duration=100))
    write("pil_anim_rgb.webp", webp([f[..., :3] for f in frames], lossless=True,
                                    duration=100))


def _png(im: object, **options: object) -> bytes:
    import io
    buf = io.BytesIO()
    im.save(buf, "PNG", **options)
    return buf.getvalue()


def _gif() -> bytes:
    """Three frames: a full first frame, a smaller offset one, one with transparency."""
    import io
    from PIL import Image
    frames = []
    base = pattern(16, 20, 3, seed=10)
    first = Image.fromarray(base).quantize(colors=8)
    frames.append(first)
    second = Image.fromarray(pattern(16, 20, 3, seed=11)).quantize(colors=8)
    frames.append(second)
    buf = io.BytesIO()
    first.save(buf, "GIF", save_all=True, append_images=[second], transparency=3,
               disposal=1, optimize=True)
    return buf.getvalue()


def _bmp(image: np.ndarray, top_down: bool) -> bytes:
    """An uncompressed BMP (BITMAPINFOHEADER) of 1, 3 or 4 channels, BGR(A) order."""
    height, width, channels = image.shape
    pixels = image[:, :, [2, 1, 0, 3][:channels]] if channels >= 3 else image
    row = (width * channels + 3) // 4 * 4
    rows = pixels if top_down else pixels[::-1]
    body = b"".join(r.tobytes().ljust(row, b"\0") for r in rows)
    palette = b"".join(bytes([i, i, i, 0]) for i in range(256)) if channels == 1 else b""
    offset = 14 + 40 + len(palette)
    header = struct.pack("<2sIHHI", b"BM", offset + len(body), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, width, -height if top_down else height, 1,
                       channels * 8, 0, len(body), 2835, 2835, 256 if channels == 1 else 0, 0)
    return header + info + palette + body


def main() -> int:
    os.makedirs(OUT, exist_ok=True)
    try:
        import tensorflow  # noqa: F401
        tf_fixtures()
    except ImportError:
        pillow_fixtures()
    return 0


if __name__ == "__main__":
    sys.exit(main())
