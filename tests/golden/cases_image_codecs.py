"""Golden cases: image decoding and encoding (tf.image.decode_*/encode_*, tf.io.*) on the
files in tests/fixtures/images (JPEG/PNG encoded by real TF; palette/transparent PNGs,
GIF and BMP made with Pillow: scripts/record_image_fixtures.py). Decoded pixels are
compared exactly where TF and Pillow run the same libjpeg algorithms (ISLOW IDCT with
fancy upsampling, or IFAST without), within a few levels for TF's default (IFAST with
fancy upsampling, which Pillow cannot request). Encoded bytes are compared through
decoding (encoders differ in headers and entropy coding)."""

import os

import numpy as np

from tests.golden.harness import catch, describe, tolerance

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "images")


def _read(name):
    with open(os.path.join(FIXTURES, name), "rb") as f:
        return f.read()


def _run(tf, ops, feed=None):
    with tf.Session() as sess:
        return sess.run(ops, feed)


def case_decode_jpeg_graph(tf):
    data = tf.constant(_read("tf_rgb_q95.jpg"))
    ops = [tf.image.decode_jpeg(data), tf.image.decode_jpeg(data, channels=3),
           tf.image.decode_jpeg(data, channels=1, name="gray"),
           tf.io.decode_jpeg(data, ratio=2), tf.image.decode_png(data, channels=4),
           tf.image.decode_png(data, dtype=tf.uint16), tf.image.decode_bmp(data),
           tf.image.decode_gif(data), tf.image.decode_image(data),
           tf.image.decode_image(data, channels=3, expand_animations=False),
           tf.image.decode_image(data, dtype=tf.float32),
           tf.image.decode_and_crop_jpeg(data, [1, 2, 3, 4], channels=3),
           tf.image.extract_jpeg_shape(data), tf.image.extract_jpeg_shape(data, tf.int64),
           tf.image.is_jpeg(data), tf.image.encode_jpeg(tf.zeros([2, 2, 3], tf.uint8)),
           tf.image.encode_png(tf.zeros([2, 2, 1], tf.uint16))]
    return {"ops": [describe(t) for t in ops], "types": [t.op.type for t in ops],
            "attrs": ops[0].op.get_attr("dct_method"),
            "rank": catch(lambda: tf.image.decode_jpeg([data])),
            "encode_rank": catch(lambda: tf.image.encode_png(tf.zeros([2, 2], tf.uint8)))}


def case_decode_jpeg_exact(tf):
    """ISLOW + fancy upsampling (TF's INTEGER_ACCURATE) and IFAST without fancy upsampling:
    the same libjpeg algorithms in TF and Pillow, so the same pixels."""
    out = {}
    for name in ("tf_rgb_q95.jpg", "tf_rgb_q75_444.jpg", "tf_rgb_progressive.jpg",
                 "tf_gray.jpg"):
        data = tf.constant(_read(name))
        out[name] = _run(tf, {
            "accurate": tf.image.decode_jpeg(data, dct_method="INTEGER_ACCURATE"),
            "accurate_gray": tf.image.decode_jpeg(data, channels=1,
                                                  dct_method="INTEGER_ACCURATE"),
            "accurate_rgb": tf.image.decode_jpeg(data, channels=3,
                                                 dct_method="INTEGER_ACCURATE"),
            "fast_plain": tf.image.decode_jpeg(data, fancy_upscaling=False),
            "fast_plain_gray": tf.image.decode_jpeg(data, channels=1, fancy_upscaling=False),
            "shape": tf.image.extract_jpeg_shape(data)})
    return out


def case_decode_jpeg_ratio(tf):
    data = tf.constant(_read("tf_rgb_q95.jpg"))
    return _run(tf, {f"ratio_{r}": tf.image.decode_jpeg(data, ratio=r,
                                                        dct_method="INTEGER_ACCURATE")
                     for r in (2, 4, 8)})


def case_decode_jpeg_default_exact(tf):
    """TF's default (IFAST) decode where no chroma is upsampled: gray files, 4:4:4 files,
    gray output."""
    rgb = tf.constant(_read("tf_rgb_q95.jpg"))
    return _run(tf, {"gray": tf.image.decode_jpeg(tf.constant(_read("tf_gray.jpg"))),
                     "gray_rgb": tf.image.decode_jpeg(tf.constant(_read("tf_gray.jpg")),
                                                      channels=3),
                     "full_chroma": tf.image.decode_jpeg(tf.constant(
                         _read("tf_rgb_q75_444.jpg"))),
                     "luma": tf.image.decode_jpeg(rgb, channels=1),
                     "image": tf.image.decode_image(tf.constant(_read("tf_gray.jpg")))})


@tolerance(rtol=0, atol=8)
def case_decode_jpeg_default_close(tf):
    """TF's default decode of 4:2:0 colour (IFAST IDCT with fancy upsampling, which
    Pillow cannot request): within a few levels."""
    data = tf.constant(_read("tf_rgb_q95.jpg"))
    progressive = tf.constant(_read("tf_rgb_progressive.jpg"))
    return _run(tf, [tf.cast(tf.image.decode_jpeg(data), tf.float32),
                     tf.cast(tf.image.decode_jpeg(progressive), tf.float32),
                     tf.image.decode_image(data, dtype=tf.float32) * 255.0])


def case_decode_jpeg_crop(tf):
    data = tf.constant(_read("tf_rgb_q75_444.jpg"))
    crop = tf.placeholder(tf.int32, [None])
    image = tf.image.decode_and_crop_jpeg(data, crop, dct_method="INTEGER_ACCURATE")
    full = tf.image.decode_jpeg(data, dct_method="INTEGER_ACCURATE")
    with tf.Session() as sess:
        window = sess.run(image, {crop: [8, 8, 16, 16]})
        whole = sess.run(full)
        return {"same_as_crop": bool(np.array_equal(window, whole[8:24, 8:24])),
                "shape": window.shape,
                "outside": catch(lambda: sess.run(image, {crop: [30, 30, 20, 20]})),
                "three": catch(lambda: sess.run(image, {crop: [1, 2, 3]}), message=True)}


def case_decode_jpeg_errors(tf):
    p = tf.placeholder(tf.string, [])
    out = {}
    with tf.Session() as sess:
        out["garbage"] = catch(lambda: sess.run(tf.image.decode_jpeg(p),
                                                {p: b"\xff\xd8\xff" + b"x" * 50}),
                               message=True)
        out["unknown"] = catch(lambda: sess.run(tf.image.decode_image(p), {p: b"hello"}),
                               message=True)
        out["empty"] = catch(lambda: sess.run(tf.image.decode_jpeg(p), {p: b""}),
                             message=True)
        out["four"] = catch(lambda: sess.run(tf.image.decode_jpeg(p, channels=4),
                                             {p: _read("tf_gray.jpg")}), message=True)
        out["bmp_op"] = catch(lambda: sess.run(tf.image.decode_bmp(p),
                                               {p: _read("tf_gray.jpg")}), message=True)
        out["channels2"] = catch(lambda: sess.run(tf.image.decode_png(p, channels=2),
                                                  {p: _read("tf_rgb.png")}), message=True)
        out["ratio"] = catch(lambda: sess.run(tf.image.decode_jpeg(p, ratio=3),
                                              {p: _read("tf_gray.jpg")}), message=True)
        out["dct"] = catch(lambda: sess.run(tf.image.decode_jpeg(p, dct_method="X"),
                                            {p: _read("tf_gray.jpg")}), message=True)
        truncated = _read("tf_rgb_q95.jpg")[:900]
        out["truncated"] = catch(lambda: sess.run(tf.image.decode_jpeg(p), {p: truncated}))
    return out


def case_decode_png_tf_files(tf):
    out = {}
    for name in ("tf_rgb.png", "tf_rgba.png", "tf_gray.png", "tf_rgb16.png",
                 "tf_gray16.png"):
        data = tf.constant(_read(name))
        out[name] = _run(tf, {f"c{c}_{d.name}": tf.image.decode_png(data, channels=c, dtype=d)
                              for c in (0, 1, 3, 4) for d in (tf.uint8, tf.uint16)})
    return out


def case_decode_png_pillow_files(tf):
    out = {}
    for name in ("pil_palette.png", "pil_palette_trns.png", "pil_gray_trns.png",
                 "pil_bilevel.png", "pil_rgb_trns.png"):
        data = tf.constant(_read(name))
        out[name] = _run(tf, {f"c{c}_{d.name}": tf.image.decode_png(data, channels=c, dtype=d)
                              for c in (0, 1, 3, 4) for d in (tf.uint8, tf.uint16)})
    return out


def case_decode_image_dtypes(tf):
    out = {}
    for name in ("tf_rgb.png", "tf_rgb16.png", "tf_rgb_q75_444.jpg", "pil_rgb24.bmp",
                 "pil_animated.gif"):
        data = tf.constant(_read(name))
        out[name] = _run(tf, {
            "uint8": tf.image.decode_image(data),
            "uint16": tf.image.decode_image(data, dtype=tf.uint16),
            "float32": tf.image.decode_image(data, dtype=tf.float32),
            "int32": tf.image.decode_image(data, dtype=tf.int32),
            "frame": tf.image.decode_image(data, expand_animations=False)})
    return out


def case_decode_gif(tf):
    data = tf.constant(_read("pil_animated.gif"))
    p = tf.placeholder(tf.string, [])
    with tf.Session() as sess:
        frames = sess.run(tf.image.decode_gif(data))
        return {"frames": frames,
                "as_png": catch(lambda: sess.run(tf.image.decode_png(data)), message=True),
                "channels": catch(lambda: sess.run(tf.image.decode_image(data, channels=1)),
                                  message=True),
                "png_as_gif": sess.run(tf.image.decode_gif(p), {p: _read("tf_gray.png")}),
                "bmp_as_gif": catch(lambda: sess.run(tf.image.decode_gif(p),
                                                     {p: _read("pil_rgb24.bmp")}),
                                    message=True)}


def case_decode_bmp(tf):
    out = {}
    for name in ("pil_rgb24.bmp", "pil_rgba32_topdown.bmp", "pil_gray8.bmp"):
        data = tf.constant(_read(name))
        out[name] = _run(tf, {f"c{c}": tf.image.decode_bmp(data, channels=c)
                              for c in (0, 3, 4)})
    p = tf.placeholder(tf.string, [])
    with tf.Session() as sess:
        out["one"] = catch(lambda: sess.run(tf.image.decode_bmp(p, channels=1),
                                            {p: _read("pil_rgb24.bmp")}), message=True)
        out["jpeg_op"] = catch(lambda: sess.run(tf.image.decode_jpeg(p),
                                                {p: _read("pil_rgb24.bmp")}), message=True)
        out["trailing"] = catch(lambda: sess.run(tf.image.decode_bmp(p),
                                                 {p: _read("pil_rgb24.bmp") + b"xx"}),
                                message=True)
        out["short"] = catch(lambda: sess.run(tf.image.decode_bmp(p), {p: b"BM" + b"\0" * 10}),
                             message=True)
    return out


def case_encode_png_roundtrip(tf):
    rng = np.random.RandomState(3)
    images = {"gray": rng.randint(0, 256, (5, 7, 1)).astype(np.uint8),
              "ga": rng.randint(0, 256, (5, 7, 2)).astype(np.uint8),
              "rgb": rng.randint(0, 256, (5, 7, 3)).astype(np.uint8),
              "rgba": rng.randint(0, 256, (5, 7, 4)).astype(np.uint8),
              "rgb16": rng.randint(0, 65536, (3, 4, 3)).astype(np.uint16),
              "gray16": rng.randint(0, 65536, (3, 4, 1)).astype(np.uint16)}
    out = {}
    with tf.Session() as sess:
        for name, image in images.items():
            dtype = tf.uint16 if image.dtype == np.uint16 else tf.uint8
            data = sess.run(tf.image.encode_png(image, compression=9))
            out[name] = {"png": data[:8], "back": sess.run(tf.image.decode_png(
                data, dtype=dtype))}
    # (An empty or 5-channel image aborts TF's process: not recorded.)
    return out


@tolerance(rtol=0, atol=12)
def case_encode_jpeg_roundtrip(tf):
    y, x = np.mgrid[0:24, 0:32]
    image = np.stack([x * 8, y * 10, (x + y) * 4], axis=2).astype(np.uint8)
    with tf.Session() as sess:
        out = {}
        for name, kwargs in (("default", {}), ("q50", {"quality": 50}),
                             ("444", {"chroma_downsampling": False}),
                             ("progressive", {"progressive": True, "optimize_size": True})):
            data = sess.run(tf.image.encode_jpeg(image, **kwargs))
            out[name] = sess.run(tf.cast(tf.image.decode_jpeg(
                data, dct_method="INTEGER_ACCURATE"), tf.float32))
        gray = sess.run(tf.image.encode_jpeg(image[:, :, :1], format="grayscale"))
        out["gray_shape"] = sess.run(tf.image.extract_jpeg_shape(gray))
        out["bad_format"] = catch(lambda: sess.run(tf.image.encode_jpeg(image,
                                                                        format="grayscale")))
        out["two"] = catch(lambda: sess.run(tf.image.encode_jpeg(image[:, :, :2])))
    return out


def case_decode_in_dataset_map(tf):
    files = [os.path.join(FIXTURES, n) for n in ("tf_rgb.png", "tf_rgba.png", "tf_gray.png")]
    ds = tf.data.Dataset.from_tensor_slices(files).map(tf.read_file).map(
        lambda s: tf.image.resize_images(tf.image.decode_png(s, channels=3), [4, 4],
                                         method=tf.image.ResizeMethod.NEAREST_NEIGHBOR))
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        return [sess.run(nx) for _ in range(3)]


def case_decode_with_queue_pipeline(tf):
    files = [os.path.join(FIXTURES, n) for n in ("tf_gray.jpg", "tf_rgb_q95.jpg")]
    q = tf.train.string_input_producer(files, num_epochs=1, shuffle=False)
    _, data = tf.WholeFileReader().read(q)
    image = tf.image.decode_jpeg(data, channels=3, dct_method="INTEGER_ACCURATE")
    small = tf.image.resize_images(image, [8, 8],
                                   method=tf.image.ResizeMethod.NEAREST_NEIGHBOR)
    batch = tf.train.batch([small], batch_size=2)
    with tf.Session() as sess:
        sess.run(tf.local_variables_initializer())
        coord = tf.train.Coordinator()
        threads = tf.train.start_queue_runners(sess, coord)
        value = sess.run(batch)
        coord.request_stop()
        coord.join(threads)
    return {"batch": value, "image": describe(image)}
