"""Op rows: the rest of tf.image (colour spaces, hue/saturation, crops, glimpses, boxes,
non-max suppression, distorted bounding boxes) and the image codecs (decoders fed bytes
TF's or Pillow's encoders wrote; encoded JPEGs compared by shape, PNGs by contents)."""

import os

import numpy as np

from tests.golden.op_harness import err, f32, row, strings

_IMG = f32(2, 4, 5, 3, lo=0.0, hi=1.0)
_BOXES = np.array([[0.0, 0.0, 1.0, 1.0], [0.1, 0.2, 0.6, 0.9]], np.float32)
_NMS_BOXES = np.array([[0, 0, 1, 1], [0, 0.1, 1, 1.1], [0, -0.1, 1, 0.9], [0, 10, 1, 11],
                       [0, 10.1, 1, 11.1], [0, 100, 1, 101]], np.float32)
_NMS_SCORES = np.array([0.9, 0.75, 0.6, 0.95, 0.5, 0.3], np.float32)
_U8 = (np.arange(4 * 5 * 3).reshape(4, 5, 3) * 4).astype(np.uint8)


def _fixture(name: str) -> np.ndarray:
    """An image file of tests/fixtures/images as a scalar string."""
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "images", name)
    with open(path, "rb") as f:
        return strings(f.read(), shape=[])


def _blob(hex_text: str) -> np.ndarray:
    return strings(bytes.fromhex(hex_text), shape=[])


# _U8 as TF's encode_png, TF's encode_jpeg (quality 90), Pillow's BMP and (palette) GIF
# writers.
_PNG = _blob("89504e470d0a1a0a0000000d4948445200000005000000040802000000c951621700000014494441"
             "540899636460e1e041022c363636a4f00188c804766d70d6bd0000000049454e44ae426082")
_JPEG = _blob(
    "ffd8ffe000104a46494600010101012c012c0000ffdb0043000302020302020303030304030304050805"
    "050404050a070706080c0a0c0c0b0a0b0b0d0e12100d0e110e0b0b1016101113141515150c0f17181614"
    "1812141514ffdb00430103040405040509050509140d0b0d141414141414141414141414141414141414"
    "1414141414141414141414141414141414141414141414141414141414141414ffc00011080004000503"
    "012200021101031101ffc4001f0000010501010101010100000000000000000102030405060708090a0b"
    "ffc400b5100002010303020403050504040000017d010203000411051221314106135161072271143281"
    "91a1082342b1c11552d1f02433627282090a161718191a25262728292a3435363738393a434445464748"
    "494a535455565758595a636465666768696a737475767778797a838485868788898a9293949596979899"
    "9aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7d8d9dae1e2e3e4e5"
    "e6e7e8e9eaf1f2f3f4f5f6f7f8f9faffc4001f0100030101010101010101010000000000000102030405"
    "060708090a0bffc400b51100020102040403040705040400010277000102031104052131061241510761"
    "711322328108144291a1b1c109233352f0156272d10a162434e125f11718191a262728292a3536373839"
    "3a434445464748494a535455565758595a636465666768696a737475767778797a82838485868788898a"
    "92939495969798999aa2a3a4a5a6a7a8a9aab2b3b4b5b6b7b8b9bac2c3c4c5c6c7c8c9cad2d3d4d5d6d7"
    "d8d9dae2e3e4e5e6e7e8e9eaf2f3f4f5f6f7f8f9faffda000c03010002110311003f00f73f87bfb127c2"
    "6fec41ff0014ff00a7f12fff00134514574191ffd9")
_BMP = _blob(
    "424d760000000000000036000000280000000500000004000000010018000000000040000000c40e0000"
    "c40e00000000000000000000bcb8b4c8c4c0d4d0cce0dcd8ece8e400807c788c8884989490a4a09cb0ac"
    "a80044403c504c485c585468646074706c0008040014100c201c182c282438343000")
_GIF = _blob(
    "4749463837610500040083000000000000333333333366336633666666666699669999999999cc99cccc"
    "ccffffff0000000000000000000000000000002c0000000005000400000817000100101040800002030a"
    "143070a0e1010409222a0808003b")

ROWS = [
    row("RGBToHSV", images=_IMG, rtol=1e-4, atol=1e-5),
    row("HSVToRGB", images=f32(3, 4, 3, lo=0.0, hi=1.0), rtol=1e-4, atol=1e-5),
    row("AdjustHue", images=_IMG, delta=np.float32(0.2), rtol=1e-4, atol=1e-5),
    row("AdjustSaturation", images=_IMG, scale=np.float32(1.6), rtol=1e-4, atol=1e-5),
    err("AdjustHue", images=f32(4, 2), delta=np.float32(0.2)),
    row("CropAndResize", image=_IMG, boxes=_BOXES, box_ind=np.array([0, 1], np.int32),
        crop_size=np.array([3, 3], np.int32), rtol=1e-4, atol=1e-5),
    row("CropAndResize", image=_IMG, boxes=_BOXES, box_ind=np.array([1, 0], np.int32),
        crop_size=np.array([2, 4], np.int32), method="nearest", extrapolation_value=0.5,
        with_grad=False),  # TF's box gradient is bilinear's even here; tf1compat's is 0
    err("CropAndResize", image=_IMG, boxes=_BOXES, box_ind=np.array([0, 2], np.int32),
        crop_size=np.array([3, 3], np.int32)),
    row("DrawBoundingBoxes", images=_IMG, boxes=_BOXES.reshape(2, 1, 4)),
    row("DrawBoundingBoxesV2", images=_IMG, boxes=_BOXES.reshape(2, 1, 4),
        colors=np.array([[1.0, 0.0, 0.0, 1.0]], np.float32)),
    row("ExtractGlimpse", input=_IMG, size=np.array([2, 3], np.int32),
        offsets=np.array([[0.1, -0.2], [0.0, 0.3]], np.float32), uniform_noise=False),
    row("ExtractGlimpseV2", input=_IMG, size=np.array([2, 2], np.int32),
        offsets=np.array([[1.0, 1.0], [2.0, 0.0]], np.float32), centered=False,
        normalized=False, uniform_noise=False, noise="zero"),
    row("NonMaxSuppression", boxes=_NMS_BOXES, scores=_NMS_SCORES,
        max_output_size=np.int32(3)),
    row("NonMaxSuppressionV2", boxes=_NMS_BOXES, scores=_NMS_SCORES,
        max_output_size=np.int32(3), iou_threshold=np.float32(0.5)),
    row("NonMaxSuppressionV3", boxes=_NMS_BOXES, scores=_NMS_SCORES,
        max_output_size=np.int32(4), iou_threshold=np.float32(0.5),
        score_threshold=np.float32(0.4)),
    row("NonMaxSuppressionV4", boxes=_NMS_BOXES, scores=_NMS_SCORES,
        max_output_size=np.int32(5), iou_threshold=np.float32(0.5),
        score_threshold=np.float32(0.4), pad_to_max_output_size=True),
    row("NonMaxSuppressionV5", boxes=_NMS_BOXES, scores=_NMS_SCORES,
        max_output_size=np.int32(4), iou_threshold=np.float32(0.5),
        score_threshold=np.float32(0.0), soft_nms_sigma=np.float32(0.5), with_grad=False),
    row("NonMaxSuppressionWithOverlaps",
        overlaps=np.array([[1.0, 0.7, 0.2], [0.7, 1.0, 0.0], [0.2, 0.0, 1.0]], np.float32),
        scores=np.array([0.9, 0.8, 0.3], np.float32), max_output_size=np.int32(3),
        overlap_threshold=np.float32(0.5), score_threshold=np.float32(0.0)),
    row("CombinedNonMaxSuppression", boxes=_NMS_BOXES.reshape(1, 6, 1, 4),
        scores=np.stack([_NMS_SCORES, _NMS_SCORES[::-1]], axis=1).reshape(1, 6, 2),
        max_output_size_per_class=np.int32(2), max_total_size=np.int32(4),
        iou_threshold=np.float32(0.5), score_threshold=np.float32(0.1), clip_boxes=False,
        with_grad=False),
    row("SampleDistortedBoundingBox", image_size=np.array([40, 50, 3], np.int32),
        bounding_boxes=np.array([[[0.1, 0.1, 0.8, 0.9]]], np.float32), seed=7, seed2=3),
    row("SampleDistortedBoundingBoxV2", image_size=np.array([40, 50, 3], np.int32),
        bounding_boxes=np.array([[[0.1, 0.1, 0.8, 0.9]]], np.float32),
        min_object_covered=np.float32(0.3), seed=1, seed2=5),
    # projective transforms (tf.contrib.image)
    row("ImageProjectiveTransformV2", images=_IMG,
        transforms=np.array([[0.9, -0.3, 1.0, 0.3, 0.9, -0.5, 0.01, 0.02]], np.float32),
        output_shape=np.array([4, 5], np.int32), interpolation="BILINEAR"),
    row("ImageProjectiveTransformV2", images=_U8[None],
        transforms=np.array([[1.0, 0.0, -1.5, 0.0, 1.0, 2.0, 0.0, 0.0]], np.float32),
        output_shape=np.array([3, 6], np.int32), interpolation="NEAREST", fill_mode="WRAP"),
    row("ImageProjectiveTransformV3", images=_IMG,
        transforms=np.array([[0.8, 0.1, 0.5, -0.2, 1.1, 0.0, 0.0, 0.0],
                             [1.0, 0.0, 2.0, 0.0, 1.0, -1.0, 0.0, 0.0]], np.float32),
        output_shape=np.array([4, 5], np.int32), fill_value=np.float32(0.25),
        interpolation="BILINEAR", fill_mode="REFLECT"),
    err("ImageProjectiveTransformV2", images=_IMG,
        transforms=np.zeros((3, 8), np.float32), output_shape=np.array([4, 5], np.int32),
        interpolation="NEAREST"),
    # codecs
    row("EncodePng", image=_U8, check="png"),
    row("EncodeJpeg", image=_U8, check="shape"),
    row("EncodeJpegVariableQuality", images=_U8, quality=np.int32(50), check="shape"),
    row("DecodePng", contents=_PNG),
    row("DecodePng", contents=_PNG, channels=4),
    err("DecodePng", contents=strings(b"not a png", shape=[])),
    # The accurate IDCT (Pillow's): TF's default INTEGER_FAST one rounds differently.
    row("DecodeJpeg", contents=_JPEG, dct_method="INTEGER_ACCURATE"),
    row("DecodeJpeg", contents=_JPEG, channels=1),
    row("DecodeAndCropJpeg", contents=_JPEG, crop_window=np.array([1, 1, 2, 3], np.int32),
        dct_method="INTEGER_ACCURATE"),
    row("ExtractJpegShape", contents=_JPEG),
    row("DecodeBmp", contents=_BMP),
    row("DecodeGif", contents=_GIF),
    row("DecodeImage", contents=_PNG),
    row("DecodeImage", contents=_GIF, expand_animations=False),
    row("DecodeImage", contents=_BMP, dtype="float32"),
    row("DecodeWebP", contents=_fixture("pil_rgba_lossless.webp")),
    row("DecodeWebP", contents=_fixture("pil_anim_rgba.webp"), channels=4),
    err("DecodeWebP", contents=_fixture("pil_rgb_lossless.webp"), channels=4),
]
