"""Op rows: image resizing and contrast, and random ops (seeded: tf1compat reproduces TF's
Philox streams, so most compare exact values)."""

import numpy as np

from tests.golden.op_harness import err, f32, i32, row

_IMG = f32(2, 4, 5, 3, lo=0.0, hi=1.0)
_SIZE = np.array([6, 7], np.int32)
_SMALL = np.array([3, 2], np.int32)

ROWS = [
    row("ResizeBilinear", images=_IMG, size=_SIZE),
    row("ResizeBilinear", images=_IMG, size=_SMALL, align_corners=True),
    row("ResizeBilinear", images=_IMG, size=_SIZE, half_pixel_centers=True),
    row("ResizeBilinear", images=i32(1, 3, 3, 1, lo=0, hi=255), size=_SIZE),
    err("ResizeBilinear", images=_IMG, size=_SIZE, align_corners=True,
        half_pixel_centers=True),
    row("ResizeNearestNeighbor", images=_IMG, size=_SIZE),
    row("ResizeNearestNeighbor", images=_IMG, size=_SMALL, align_corners=True),
    row("ResizeNearestNeighbor", images=np.arange(20, dtype=np.uint8).reshape(1, 4, 5, 1),
        size=_SIZE, half_pixel_centers=True),
    row("ResizeBicubic", images=_IMG, size=_SIZE),
    row("ResizeBicubic", images=_IMG, size=_SMALL, align_corners=True),
    row("ResizeBicubic", images=_IMG, size=_SIZE, half_pixel_centers=True),
    row("ResizeArea", images=_IMG, size=_SMALL),
    row("ResizeArea", images=_IMG, size=_SIZE, align_corners=True),
    err("ResizeArea", images=f32(4, 5, 3), size=_SIZE),
    err("ResizeBilinear", images=_IMG, size=np.array([6], np.int32)),
    row("AdjustContrastv2", images=_IMG, contrast_factor=np.float32(1.7)),
    err("AdjustContrastv2", images=f32(2, 3), contrast_factor=np.float32(1.0)),
]

# -- random ops -------------------------------------------------------------------------

_SHAPE = np.array([3, 5], np.int32)
ROWS += [
    row("RandomUniform", shape=_SHAPE, dtype="float32", seed=7, seed2=3),
    row("RandomUniform", shape=np.array([4], np.int64), dtype="float64", seed=1, seed2=2),
    row("RandomUniform", shape=_SHAPE, dtype="float16", seed=5, seed2=9),
    row("RandomStandardNormal", shape=_SHAPE, dtype="float32", seed=7, seed2=3),
    row("RandomStandardNormal", shape=np.array([3], np.int32), dtype="float64", seed=2,
        seed2=11),
    row("TruncatedNormal", shape=_SHAPE, dtype="float32", seed=7, seed2=3),
    row("TruncatedNormal", shape=np.array([5], np.int32), dtype="float64", seed=4, seed2=1),
    row("RandomUniformInt", shape=_SHAPE, minval=np.int32(-3), maxval=np.int32(9), seed=7,
        seed2=3),
    row("RandomUniformInt", shape=np.array([4], np.int32), minval=np.int64(0),
        maxval=np.int64(1 << 40), seed=3, seed2=8),
    err("RandomUniformInt", shape=_SHAPE, minval=np.int32(5), maxval=np.int32(5), seed=1,
        seed2=1),
    row("RandomUniform", shape=np.array([2000], np.int32), dtype="float32", check="stats",
        atol=0.05),
    row("RandomStandardNormal", shape=np.array([2000], np.int32), dtype="float32",
        check="stats", atol=0.15),
    row("RandomShuffle", value=np.arange(10, dtype=np.int32), seed=7, seed2=3),
    row("RandomShuffle", value=f32(6, 2), seed=1, seed2=5),
    row("RandomShuffle", value=np.arange(8, dtype=np.int64), check="sorted"),
    row("Multinomial", logits=np.log(np.array([[0.1, 0.6, 0.3], [0.5, 0.25, 0.25]],
                                              np.float32)),
        num_samples=np.int32(6), seed=7, seed2=3),
    row("Multinomial", logits=f32(1, 4), num_samples=np.int32(3), seed=2, seed2=4,
        output_dtype="int32"),
]

# -- candidate samplers -------------------------------------------------------------------

_TRUE = np.array([[1, 4], [0, 2], [7, 3]], np.int64)
_SAMPLER = dict(true_classes=_TRUE, num_true=2, num_sampled=4, seed=7, seed2=3)
ROWS += [
    row("UniformCandidateSampler", **_SAMPLER, unique=True, range_max=10),
    row("UniformCandidateSampler", **_SAMPLER, unique=False, range_max=10),
    row("LogUniformCandidateSampler", **_SAMPLER, unique=True, range_max=20),
    row("LogUniformCandidateSampler", **_SAMPLER, unique=False, range_max=20),
    row("AllCandidateSampler", true_classes=_TRUE, num_true=2, num_sampled=8, unique=True,
        seed=1, seed2=2),
    # These rows compare the true classes' expected counts (exact without `unique`) and
    # the outputs' shapes; the unigram samplers' draws, which equal TF's too, are pinned
    # in cases_thirdparty_realcode_ss.
    row("FixedUnigramCandidateSampler", **_SAMPLER, unique=False, range_max=10,
        unigrams=[1.0, 2.0, 3.0, 0.5, 4.0, 1.0, 1.0, 2.5, 1.5, 0.5], checked_outputs=(1,)),
    row("FixedUnigramCandidateSampler", **_SAMPLER, unique=False, range_max=10,
        unigrams=[1.0, 2.0, 3.0, 0.5, 4.0, 1.0, 1.0, 2.5], num_reserved_ids=2,
        distortion=0.5, checked_outputs=(1,)),
    err("FixedUnigramCandidateSampler", **_SAMPLER, unique=False, range_max=5,
        unigrams=[1.0, 2.0, 3.0, 0.5, 4.0]),
    row("LearnedUnigramCandidateSampler", **_SAMPLER, unique=False, range_max=10,
        checked_outputs=(1,)),
    err("UniformCandidateSampler", **_SAMPLER, unique=True, range_max=3),
    row("ComputeAccidentalHits", true_classes=_TRUE,
        sampled_candidates=np.array([4, 0, 9, 3], np.int64), num_true=2),
]
