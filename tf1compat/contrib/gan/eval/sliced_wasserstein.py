"""The sliced Wasserstein distance between two sets of images (Karras et al., progressive
GANs), as TF 1.14's sliced_wasserstein_impl.py computes it.

Both sets are decomposed into Laplacian pyramids (5x5 binomial filter, reflected
borders, as OpenCV's pyrDown / pyrUp) from the full resolution down to
`resolution_min`. From each level random square patches are cut (centres drawn with
numpy's global generator in a py_func, as TF does), normalized per patch to zero mean
and unit variance, and flattened. For each level the distance between two patch sets is
the mean absolute difference of their sorted projections onto random unit directions
(random_normal, averaged over `random_sampling_count` draws) or, with `use_svd`, onto the
singular vectors of both sets together.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.framework.constant_op import constant
from tf1compat.ops.array_ops import concat, reshape, shape, split
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.linalg_decomp import svd
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.math_ops import abs as abs_
from tf1compat.ops.math_ops import cast, rsqrt, sqrt, square
from tf1compat.ops.nn_conv import conv2d
from tf1compat.ops.nn_norm import moments
from tf1compat.ops.nn_ops import top_k
from tf1compat.ops.random_ops import random_normal
from tf1compat.ops.reduction_ops import reduce_mean, reduce_sum
from tf1compat.ops.script_ops import py_func
from tf1compat.ops.space_batch_ops import batch_to_space
from tf1compat.ops.transform_ops import pad, transpose

__all__ = ["sliced_wasserstein_distance"]

# The 5x5 binomial filter (outer product of [1, 4, 6, 4, 1] / 16), as a conv2d filter.
_BINOMIAL = (np.outer([1, 4, 6, 4, 1], [1, 4, 6, 4, 1]) / 256.0).astype(np.float32)
_BINOMIAL = _BINOMIAL.reshape([5, 5, 1, 1])


def _laplacian_pyramid(batch: Any, num_levels: int) -> List[Any]:
    """The levels, finest first: each the image less the upsampled next level; the last
    the coarsest low-pass image."""
    binomial = constant(_BINOMIAL)

    def blur(images: Any, gain: float) -> Any:
        # Each channel filtered on its own: channels folded into the batch.
        s = shape(images)
        padded = pad(images, [[0, 0], [2, 2], [2, 2], [0, 0]], "REFLECT")
        planes = reshape(transpose(padded, [0, 3, 1, 2]), [s[0] * s[3], s[1] + 4, s[2] + 4, 1])
        filtered = conv2d(planes, binomial * gain, [1] * 4, "VALID")
        return transpose(reshape(filtered, [s[0], s[3], s[1], s[2]]), [0, 2, 3, 1])

    def down(images: Any) -> Any:
        return blur(images, 1)[:, ::2, ::2]

    def up(images: Any) -> Any:
        # Zeros between the pixels (batch_to_space of the images and three zero copies),
        # then the filter with gain 4.
        s = shape(images)
        spread = concat([images, zeros([3 * s[0], s[1], s[2], s[3]])], 0)
        return blur(batch_to_space(spread, crops=[[0, 0], [0, 0]], block_size=2), 4)

    levels = [cast(batch, dtypes.float32)]
    for _ in range(1, num_levels):
        levels.append(down(levels[-1]))
        levels[-2] -= up(levels[-1])
    return levels


def _batch_to_patches(batch: Any, patches_per_image: int, patch_size: int) -> Any:
    """`patches_per_image` random [patch_size, patch_size, 3] patches of each image, cut
    in numpy (TF's py_func, drawing from numpy's global generator)."""
    def random_patches(images: np.ndarray) -> np.ndarray:
        batch_size, height, width, channels = images.shape
        count = patches_per_image * batch_size
        half = patch_size // 2
        patch, y, x, chan = np.ogrid[0:count, -half:half + 1, -half:half + 1, 0:3]
        image = patch // patches_per_image
        y = y + np.random.randint(half, height - half, size=(count, 1, 1, 1))
        x = x + np.random.randint(half, width - half, size=(count, 1, 1, 1))
        return images.flat[((image * height + y) * width + x) * channels + chan]
    return py_func(random_patches, [batch], batch.dtype, stateful=False)


def _normalize_patches(patches: List[Any]) -> Any:
    """The patches, each scaled to zero mean and unit variance, as rows."""
    patches = concat(patches, 0)
    mean, variance = moments(patches, [1, 2, 3], keep_dims=True)
    patches = (patches - mean) / sqrt(variance)
    return reshape(patches, [shape(patches)[0], -1])


def _sort_rows(matrix: Any, num_rows: Any) -> Any:
    """Each column of `matrix` sorted in decreasing order (its top `num_rows`)."""
    return transpose(top_k(transpose(matrix, [1, 0]), num_rows)[0], [1, 0])


def _sliced_wasserstein(a: Any, b: Any, random_sampling_count: int,
                        random_projection_dim: int) -> Any:
    rows = shape(a)[0]
    means = []
    for _ in range(random_sampling_count):
        directions = random_normal([shape(a)[1], random_projection_dim])
        directions *= rsqrt(reduce_sum(square(directions), 0, keepdims=True))
        projected_a = _sort_rows(matmul(a, directions), rows)
        projected_b = _sort_rows(matmul(b, directions), rows)
        means.append(reduce_mean(abs_(projected_a - projected_b)))
    return reduce_mean(means)


def _sliced_wasserstein_svd(a: Any, b: Any) -> Any:
    rows = shape(a)[0]
    sigma, u = svd(concat([a, b], 0))[:2]
    projected_a, projected_b = split(u * sigma, 2, axis=0)
    projected_a = _sort_rows(projected_a[:, ::-1], rows)
    projected_b = _sort_rows(projected_b[:, ::-1], rows)
    return reduce_mean(abs_(projected_a - projected_b))


def sliced_wasserstein_distance(real_images: Any, fake_images: Any, resolution_min: int = 16,
                                patches_per_image: int = 64, patch_size: int = 7,
                                random_sampling_count: int = 1,
                                random_projection_dim: int = 7 * 7 * 3,
                                use_svd: bool = False) -> List[Tuple[Any, Any]]:
    """Per pyramid level, finest first, (distance between two patch sets of the real
    images, distance between real and fake patches). The images are [batch, height,
    height, 3] with static shapes, real and fake alike."""
    height = real_images.shape[1]
    real_images.shape.assert_is_compatible_with([None, None, height, 3])
    fake_images.shape.assert_is_compatible_with(real_images.shape)
    resolution_full = int(height)
    resolution_min = min(resolution_min, resolution_full)
    resolutions = [2 ** i for i in range(int(np.log2(resolution_full)),
                                         int(np.log2(resolution_min)) - 1, -1)]
    real, test, fake = ([[] for _ in resolutions] for _ in range(3))
    for lod, level in enumerate(_laplacian_pyramid(real_images, len(resolutions))):
        real[lod].append(_batch_to_patches(level, patches_per_image, patch_size))
        test[lod].append(_batch_to_patches(level, patches_per_image, patch_size))
    for lod, level in enumerate(_laplacian_pyramid(fake_images, len(resolutions))):
        fake[lod].append(_batch_to_patches(level, patches_per_image, patch_size))
    for lod in range(len(resolutions)):
        for patches in (real, test, fake):
            patches[lod] = _normalize_patches(patches[lod])
    if use_svd:
        return [(_sliced_wasserstein_svd(real[lod], test[lod]),
                 _sliced_wasserstein_svd(real[lod], fake[lod]))
                for lod in range(len(resolutions))]
    return [(_sliced_wasserstein(real[lod], test[lod], random_sampling_count,
                                 random_projection_dim),
             _sliced_wasserstein(real[lod], fake[lod], random_sampling_count,
                                 random_projection_dim))
            for lod in range(len(resolutions))]
