"""`tf.image` measures and filters built from ops as TF builds them: `psnr`, `ssim`,
`ssim_multiscale` (Gaussian windows by depthwise convolution), `sobel_edges`, and
`extract_patches` (TF 2's name for ExtractImagePatches)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops, nn_ops
from tf1compat.ops.cond import cond
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.image_ops import convert_image_dtype
from tf1compat.ops.image_patches import extract_image_patches
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.nn_conv import depthwise_conv2d
from tf1compat.ops.nn_pool import avg_pool
from tf1compat.ops.reduction_ops import reduce_all, reduce_any, reduce_mean, reduce_prod
from tf1compat.ops.transform_ops import pad, tile

__all__ = ["psnr", "ssim", "ssim_multiscale", "sobel_edges", "extract_patches"]


def _verify_compatible(img1: Tensor, img2: Tensor) -> Tuple[Tensor, Tensor, list]:
    """Static and run-time checks that two image batches have the same last 3 dims."""
    shape1 = img1.shape.with_rank_at_least(3)
    shape2 = img2.shape.with_rank_at_least(3)
    shape1[-3:].assert_is_compatible_with(shape2[-3:])
    if shape1.rank is not None and shape2.rank is not None:
        for d1, d2 in zip(reversed(shape1.dims[:-3]), reversed(shape2.dims[:-3])):
            if not (d1 == 1 or d2 == 1 or d1.is_compatible_with(d2)):
                raise ValueError(f"Two images are not compatible: {shape1} and {shape2}")
    s1, s2 = array_ops.shape_n([img1, img2])
    checks = [Assert(math_ops.greater_equal(array_ops.size(s1), 3), [s1, s2], summarize=10),
              Assert(reduce_all(math_ops.equal(s1[-3:], s2[-3:])), [s1, s2], summarize=10)]
    return s1, s2, checks


def psnr(a: Any, b: Any, max_val: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.psnr`: 20 log10(max_val) - 10 log10(MSE) per image."""
    with name_scope(name, "PSNR", [a, b]):
        a = convert_to_tensor(a)
        b = convert_to_tensor(b)
        max_val = convert_image_dtype(math_ops.cast(max_val, a.dtype), D.float32)
        a = convert_image_dtype(a, D.float32)
        b = convert_image_dtype(b, D.float32)
        mse = reduce_mean(math_ops.squared_difference(a, b), [-3, -2, -1])
        value = math_ops.subtract(20 * math_ops.log(max_val) / math_ops.log(10.0),
                                  np.float32(10 / np.log(10)) * math_ops.log(mse), name="psnr")
        _, _, checks = _verify_compatible(a, b)
        with control_dependencies(checks):
            return array_ops.identity(value)


def _ssim_terms(x: Tensor, y: Tensor, reducer: Callable[[Tensor], Tensor], max_val: Any,
                compensation: float, k1: float, k2: float) -> Tuple[Tensor, Tensor]:
    c1 = (k1 * max_val) ** 2
    c2 = (k2 * max_val) ** 2
    mean0, mean1 = reducer(x), reducer(y)
    num0 = mean0 * mean1 * 2.0
    den0 = math_ops.square(mean0) + math_ops.square(mean1)
    luminance = (num0 + c1) / (den0 + c1)
    num1 = reducer(x * y) * 2.0
    den1 = reducer(math_ops.square(x) + math_ops.square(y))
    c2 *= compensation
    return luminance, (num1 - num0 + c2) / (den1 - den0 + c2)


def _gaussian_kernel(size: Tensor, sigma: Tensor) -> Tensor:
    coords = math_ops.cast(range_(size), sigma.dtype)
    coords -= math_ops.cast(size - 1, sigma.dtype) / 2.0
    g = math_ops.square(coords)
    g *= -0.5 / math_ops.square(sigma)
    g = array_ops.reshape(g, [1, -1]) + array_ops.reshape(g, [-1, 1])
    g = nn_ops.softmax(array_ops.reshape(g, [1, -1]))
    return array_ops.reshape(g, [size, size, 1, 1])


def _ssim_per_channel(img1: Tensor, img2: Tensor, max_val: Any, filter_size: int,
                      filter_sigma: float, k1: float, k2: float,
                      return_index_map: bool = False) -> Tuple[Tensor, Tensor]:
    filter_size = constant(filter_size, dtype=D.int32)
    filter_sigma = constant(filter_sigma, dtype=img1.dtype)
    shape1, shape2 = array_ops.shape_n([img1, img2])
    checks = [Assert(reduce_all(math_ops.greater_equal(shape1[-3:-1], filter_size)),
                     [shape1, filter_size], summarize=8),
              Assert(reduce_all(math_ops.greater_equal(shape2[-3:-1], filter_size)),
                     [shape2, filter_size], summarize=8)]
    with control_dependencies(checks):
        img1 = array_ops.identity(img1)
    kernel = tile(_gaussian_kernel(filter_size, filter_sigma), [1, 1, shape1[-1], 1])

    def reducer(x: Tensor) -> Tensor:
        shape = array_ops.shape(x)
        x = array_ops.reshape(x, array_ops.concat([[-1], shape[-3:]], 0))
        y = depthwise_conv2d(x, kernel, strides=[1, 1, 1, 1], padding="VALID")
        return array_ops.reshape(y, array_ops.concat([shape[:-3], array_ops.shape(y)[1:]], 0))

    luminance, cs = _ssim_terms(img1, img2, reducer, max_val, 1.0, k1, k2)
    if return_index_map:
        return luminance * cs, cs
    axes = constant([-3, -2], dtype=D.int32)
    return reduce_mean(luminance * cs, axes), reduce_mean(cs, axes)


def ssim(img1: Any, img2: Any, max_val: Any, filter_size: int = 11, filter_sigma: float = 1.5,
         k1: float = 0.01, k2: float = 0.03, return_index_map: bool = False) -> Tensor:
    """`tf.image.ssim`: structural similarity with an 11x11 Gaussian window (sigma 1.5)."""
    with name_scope(None, "SSIM", [img1, img2]):
        img1 = convert_to_tensor(img1, name="img1")
        img2 = convert_to_tensor(img2, name="img2")
        _, _, checks = _verify_compatible(img1, img2)
        with control_dependencies(checks):
            img1 = array_ops.identity(img1)
        max_val = convert_image_dtype(math_ops.cast(max_val, img1.dtype), D.float32)
        img1 = convert_image_dtype(img1, D.float32)
        img2 = convert_image_dtype(img2, D.float32)
        per_channel, _ = _ssim_per_channel(img1, img2, max_val, filter_size, filter_sigma,
                                           k1, k2, return_index_map)
        return reduce_mean(per_channel, [-1])


MSSSIM_WEIGHTS = (0.0448, 0.2856, 0.3001, 0.2363, 0.1333)


def ssim_multiscale(img1: Any, img2: Any, max_val: Any,
                    power_factors: Sequence[float] = MSSSIM_WEIGHTS, filter_size: int = 11,
                    filter_sigma: float = 1.5, k1: float = 0.01, k2: float = 0.03) -> Tensor:
    """`tf.image.ssim_multiscale`: SSIM over successively 2x-downsampled scales."""
    with name_scope(None, "MS-SSIM", [img1, img2]):
        img1 = convert_to_tensor(img1, name="img1")
        img2 = convert_to_tensor(img2, name="img2")
        shape1, shape2, checks = _verify_compatible(img1, img2)
        with control_dependencies(checks):
            img1 = array_ops.identity(img1)
        max_val = convert_image_dtype(math_ops.cast(max_val, img1.dtype), D.float32)
        imgs = [convert_image_dtype(img1, D.float32), convert_image_dtype(img2, D.float32)]
        heads = [s[:-3] for s in (shape1, shape2)]
        tails = [s[-3:] for s in (shape1, shape2)]
        divisor = [1, 2, 2, 1]
        divisor_tensor = constant(divisor[1:], dtype=D.int32)

        def do_pad(images: List[Tensor], remainder: Tensor) -> List[Tensor]:
            padding = pad(array_ops.expand_dims(remainder, -1), [[1, 0], [1, 0]])
            return [pad(x, padding, mode="SYMMETRIC") for x in images]

        mcs = []
        per_channel = None
        for k in range(len(power_factors)):
            with name_scope(None, f"Scale{k}", imgs):
                if k > 0:
                    flat = [array_ops.reshape(x, array_ops.concat([[-1], t], 0))
                            for x, t in zip(imgs, tails)]
                    remainder = tails[0] % divisor_tensor
                    need_padding = reduce_any(math_ops.not_equal(remainder, 0))
                    padded = cond(need_padding, lambda: do_pad(flat, remainder),
                                  lambda: flat)
                    downscaled = [avg_pool(x, ksize=divisor, strides=divisor, padding="VALID")
                                  for x in padded]
                    tails = [x[1:] for x in array_ops.shape_n(downscaled)]
                    imgs = [array_ops.reshape(x, array_ops.concat([h, t], 0))
                            for x, h, t in zip(downscaled, heads, tails)]
                per_channel, cs = _ssim_per_channel(*imgs, max_val=max_val,
                                                    filter_size=filter_size,
                                                    filter_sigma=filter_sigma, k1=k1, k2=k2)
                mcs.append(nn_ops.relu(cs))
        mcs.pop()
        stacked = array_ops.stack(mcs + [nn_ops.relu(per_channel)], axis=-1)
        ms_ssim = reduce_prod(math_ops.pow(stacked, power_factors), [-1])
        return reduce_mean(ms_ssim, [-1])


def sobel_edges(image: Any) -> Tensor:
    """`tf.image.sobel_edges`: [..., channels, 2] vertical and horizontal Sobel responses
    (reflect-padded)."""
    image = convert_to_tensor(image)
    static_shape = image.shape
    image_shape = array_ops.shape(image)
    kernels = np.array([[[-1, -2, -1], [0, 0, 0], [1, 2, 1]],
                        [[-1, 0, 1], [-2, 0, 2], [-1, 0, 1]]])
    kernels = np.expand_dims(np.transpose(kernels, (1, 2, 0)), -2)
    filters = tile(constant(kernels, dtype=image.dtype), [1, 1, image_shape[-1], 1],
                   name="sobel_filters")
    padded = pad(image, [[0, 0], [1, 1], [1, 1], [0, 0]], mode="REFLECT")
    output = depthwise_conv2d(padded, filters, [1, 1, 1, 1], "VALID")
    output = array_ops.reshape(output, array_ops.concat([image_shape, [2]], 0))
    output.set_shape(static_shape.concatenate([2]))
    return output


def extract_patches(images: Any, sizes: Any, strides: Any, rates: Any, padding: Any,
                    name: Optional[str] = None) -> Tensor:
    """`tf.image.extract_patches`: ExtractImagePatches with TF 2's argument names."""
    return extract_image_patches(images, sizes, strides, rates, padding, name=name)
