"""`tf.image` (TF 1.x): resizing, cropping/padding, flips and rotations, colour and dtype
adjustments, as TF's image_ops_impl builds them.

The wrappers mirror TF's Python: the same name scopes, the same helper ops (shape
asserts as control dependencies, Shape/unstack for dynamic dims, cond for unknown ranks)
and the same static shapes, so graphs look like TF's. The resize kernels are in
image_resize.py, the colour kernels in image_color.py, PNG/JPEG coding in image_codec.py.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.misc import is_tensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_at_index, unknown_shape
from tf1compat.ops import array_ops, check_ops, creation_ops, math_ops, transform_ops
from tf1compat.ops import image_resize  # noqa: F401 - declares the Resize* ops
from tf1compat.ops.image_patches import extract_image_patches
from tf1compat.ops.cond import case as _case, cond as _cond
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.linalg_ops import tensordot
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import (reduce_all, reduce_mean, reduce_prod, reduce_std,
                                         reduce_sum)
from tf1compat.ops.strided_slice import slice as _slice

__all__ = [
    "ResizeMethod", "resize_images", "resize_bilinear", "resize_nearest_neighbor",
    "resize_bicubic", "resize_area", "resize_image_with_crop_or_pad",
    "resize_with_crop_or_pad", "resize_image_with_pad", "crop_to_bounding_box",
    "pad_to_bounding_box", "central_crop", "flip_left_right", "flip_up_down",
    "random_flip_left_right", "random_flip_up_down", "rot90", "transpose_image",
    "per_image_standardization", "convert_image_dtype", "adjust_brightness",
    "random_brightness", "rgb_to_grayscale", "grayscale_to_rgb", "total_variation",
    "image_gradients", "random_crop", "adjust_contrast", "random_contrast",
    "extract_image_patches",
]


# -- shape checks (TF's _Check3DImage family) ---------------------------------------------------

def _assert(cond: Any, ex_type: type, msg: str) -> list:
    """An Assert op for a tensor condition; a Python check (raising ex_type) otherwise."""
    if is_tensor(cond):
        return [Assert(cond, [msg])]
    if not cond:
        raise ex_type(msg)
    return []


def _image_dimensions(image: Tensor, rank: int) -> list:
    """Static dims as ints, unknown ones as scalar tensors of tf.shape(image)."""
    if image.get_shape().is_fully_defined():
        return image.get_shape().as_list()
    static = image.get_shape().with_rank(rank).as_list()
    dynamic = array_ops.unstack(array_ops.shape(image), rank)
    return [s if s is not None else d for s, d in zip(static, dynamic)]


def _check_at_least_3d(image: Tensor, require_static: bool = True) -> list:
    try:
        if image.get_shape().ndims is None:
            shape = image.get_shape().with_rank(3)
        else:
            shape = image.get_shape().with_rank_at_least(3)
    except ValueError:
        raise ValueError(f"'image' (shape {image.shape}) must be at least "
                         "three-dimensional.") from None
    if require_static and not shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    if any(x == 0 for x in shape[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {shape}")
    if not shape[-3:].is_fully_defined():
        return [
            check_ops.assert_positive(array_ops.shape(image)[-3:],
                                      ["inner 3 dims of 'image.shape' must be > 0."]),
            check_ops.assert_greater_equal(
                array_ops.rank(image), 3,
                message="'image' must be at least three-dimensional."),
        ]
    return []


def _assert_at_least_3d(image: Tensor) -> Tensor:
    return with_dependencies(_check_at_least_3d(image, require_static=False), image)


def _check_grayscale(image: Tensor, require_static: bool = True) -> list:
    try:
        if image.get_shape().ndims is None:
            shape = image.get_shape().with_rank(2)
        else:
            shape = image.get_shape().with_rank_at_least(2)
    except ValueError:
        raise ValueError(f"A grayscale image (shape {image.shape}) must be at least "
                         "two-dimensional.") from None
    if require_static and not shape.is_fully_defined():
        raise ValueError("'image' must be fully defined.")
    if shape.is_fully_defined():
        if shape[-1] != 1:
            raise ValueError("Last dimension of a grayscale image should be size 1.")
        return []
    return [
        check_ops.assert_equal(array_ops.shape(image)[-1], 1,
                               message="Last dimension of a grayscale image should be "
                                       "size 1."),
        check_ops.assert_greater_equal(
            array_ops.rank(image), 3,
            message="A grayscale image must be at least two-dimensional."),
    ]


def _fix_flip_shape(image: Tensor, result: Tensor) -> Tensor:
    if image.get_shape() == unknown_shape():
        result.set_shape([None, None, None])
    else:
        result.set_shape(image.get_shape())
    return result


def _as_batch(image: Tensor) -> tuple:
    """(4-D image, was it batched); TF's expand-to-batch prologue with its errors."""
    shape = image.get_shape()
    if shape.ndims == 3:
        return array_ops.expand_dims(image, 0), False
    if shape.ndims is None:
        image = array_ops.expand_dims(image, 0)
        image.set_shape([None] * 4)
        return image, False
    if shape.ndims != 4:
        raise ValueError(f"'image' (shape {shape}) must have either 3 or 4 dimensions.")
    return image, True


def _max(x: Any, y: Any) -> Any:
    return math_ops.maximum(x, y) if is_tensor(x) or is_tensor(y) else max(x, y)


def _min(x: Any, y: Any) -> Any:
    return math_ops.minimum(x, y) if is_tensor(x) or is_tensor(y) else min(x, y)


def _equal(x: Any, y: Any) -> Any:
    return math_ops.equal(x, y) if is_tensor(x) or is_tensor(y) else x == y


# -- flips, rotations, transposes ---------------------------------------------------------------

def _by_rank(image: Tensor, f_rank3: Any, f_rank4: Any, message: str) -> Tensor:
    ndims = image.get_shape().ndims
    if ndims is None:
        return _cond(math_ops.equal(array_ops.rank(image), 3), f_rank3, f_rank4)
    if ndims == 3:
        return f_rank3()
    if ndims == 4:
        return f_rank4()
    raise ValueError(message % image.get_shape())


def _flip(image: Any, flip_index: int, scope_name: str) -> Tensor:
    with name_scope(None, scope_name, [image]):
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        return _by_rank(
            image,
            lambda: _fix_flip_shape(image, transform_ops.reverse(image, [flip_index])),
            lambda: transform_ops.reverse(image, [flip_index + 1]),
            "'image' (shape %s)must have either 3 or 4 dimensions.")


def flip_left_right(image: Any) -> Tensor:
    """`tf.image.flip_left_right`: reverses the width axis."""
    return _flip(image, 1, "flip_left_right")


def flip_up_down(image: Any) -> Tensor:
    """`tf.image.flip_up_down`: reverses the height axis."""
    return _flip(image, 0, "flip_up_down")


def _random_flip(image: Any, flip_index: int, seed: Optional[int], scope_name: str) -> Tensor:
    with name_scope(None, scope_name, [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)

        def f_rank3() -> Tensor:
            uniform = random_uniform([], minval=0, maxval=1.0, seed=seed)
            result = _cond(math_ops.less(uniform, 0.5),
                           lambda: transform_ops.reverse(image, [flip_index]),
                           lambda: image, name=scope)
            return _fix_flip_shape(image, result)

        def f_rank4() -> Tensor:
            batch = array_ops.shape(image)[0]
            uniform = random_uniform([batch], minval=0, maxval=1.0, seed=seed)
            flips = math_ops.round_(array_ops.reshape(uniform, [batch, 1, 1, 1]))
            flips = math_ops.cast(flips, image.dtype)
            flipped = transform_ops.reverse(image, [flip_index + 1])
            return flips * flipped + (1 - flips) * image

        return _by_rank(image, f_rank3, f_rank4,
                        "'image' (shape %s) must have either 3 or 4 dimensions.")


def random_flip_left_right(image: Any, seed: Optional[int] = None) -> Tensor:
    """`tf.image.random_flip_left_right` (TF's exact draws for a given seed)."""
    return _random_flip(image, 1, seed, "random_flip_left_right")


def random_flip_up_down(image: Any, seed: Optional[int] = None) -> Tensor:
    """`tf.image.random_flip_up_down` (TF's exact draws for a given seed)."""
    return _random_flip(image, 0, seed, "random_flip_up_down")


def rot90(image: Any, k: Any = 1, name: Optional[str] = None) -> Tensor:
    """`tf.image.rot90`: rotates counter-clockwise by k * 90 degrees (a tf.case on k)."""
    with name_scope(name, "rot90", [image, k]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        k = convert_to_tensor(k, dtype=D.int32, name="k")
        k.get_shape().assert_has_rank(0)
        k = math_ops.mod(k, 4)
        return _by_rank(image, lambda: _rot90_3d(image, k, scope),
                        lambda: _rot90_4d(image, k, scope),
                        "'image' (shape %s) must have either 3 or 4 dimensions.")


def _rot90_cases(image: Tensor, k: Tensor, scope: str, h: int) -> Tensor:
    perm = [1, 0, 2] if h == 0 else [0, 2, 1, 3]
    w = h + 1
    cases = [
        (math_ops.equal(k, 1),
         lambda: transform_ops.transpose(transform_ops.reverse(image, [w]), perm)),
        (math_ops.equal(k, 2), lambda: transform_ops.reverse(image, [h, w])),
        (math_ops.equal(k, 3),
         lambda: transform_ops.reverse(transform_ops.transpose(image, perm), [w])),
    ]
    if executing_eagerly():
        # k is a value: run its branch (tf1compat's eager tf.case cannot take exclusive=True
        # predicates' Assert yet; the result is the same).
        branch = {1: cases[0][1], 2: cases[1][1], 3: cases[2][1]}.get(int(k.numpy()))
        return branch() if branch is not None else image
    return _case(cases, default=lambda: image, exclusive=True, name=scope)


def _rot90_3d(image: Tensor, k: Tensor, scope: str) -> Tensor:
    result = _rot90_cases(image, k, scope, 0)
    result.set_shape([None, None, image.get_shape()[2]])
    return result


def _rot90_4d(images: Tensor, k: Tensor, scope: str) -> Tensor:
    result = _rot90_cases(images, k, scope, 1)
    shape = result.get_shape()
    result.set_shape([shape[0], None, None, shape[3]])
    return result


def transpose_image(image: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.transpose_image` / `tf.image.transpose`: swaps height and width."""
    with name_scope(name, "transpose", [image]):
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        return _by_rank(image,
                        lambda: transform_ops.transpose(image, [1, 0, 2], name=name),
                        lambda: transform_ops.transpose(image, [0, 2, 1, 3], name=name),
                        "'image' (shape %s) must have either 3 or 4 dimensions.")


# -- cropping and padding -----------------------------------------------------------------------

def central_crop(image: Any, central_fraction: Any) -> Tensor:
    """`tf.image.central_crop`: keeps the central `central_fraction` of height and width."""
    with name_scope(None, "central_crop", [image]):
        image = convert_to_tensor(image, name="image")
        static = constant_value(central_fraction) if is_tensor(central_fraction) \
            else central_fraction
        if static is not None:
            if static <= 0.0 or static > 1.0:
                raise ValueError("central_fraction must be within (0, 1]")
            if static == 1.0:
                return image
        else:
            ops = _assert(math_ops.logical_or(central_fraction > 0.0,
                                              central_fraction <= 1.0),
                          ValueError, "central_fraction must be within (0, 1]")
            image = with_dependencies(ops, image)
        _assert_at_least_3d(image)
        rank = image.get_shape().ndims
        if rank != 3 and rank != 4:
            raise ValueError("`image` should either be a Tensor with rank = 3 or rank = 4. "
                             f"Had rank = {rank}.")

        def dim(idx: int) -> tuple:
            value = image.get_shape().dims[idx].value
            if value is not None:
                return value, False
            return array_ops.shape(image)[idx], True

        off = 0 if rank == 3 else 1
        img_h, dyn_h = dim(off)
        img_w, dyn_w = dim(off + 1)
        depth = image.get_shape()[off + 2]
        dyn_h = dyn_h or static is None
        dyn_w = dyn_w or static is None

        def start(size: Any, dynamic: bool) -> Any:
            if dynamic:
                sd = math_ops.cast(size, D.float64)
                frac = math_ops.cast(central_fraction, D.float64)
                return math_ops.cast((sd - sd * frac) / 2, D.int32)
            sf = float(size)
            return int((sf - sf * static) / 2)

        h_start, w_start = start(img_h, dyn_h), start(img_w, dyn_w)
        h_size, w_size = img_h - h_start * 2, img_w - w_start * 2
        if rank == 3:
            begin = array_ops.stack([h_start, w_start, 0])
            size = array_ops.stack([h_size, w_size, -1])
        else:
            begin = array_ops.stack([0, h_start, w_start, 0])
            size = array_ops.stack([-1, h_size, w_size, -1])
        image_shape = image.get_shape()
        out = _slice(image, begin, size)
        dims = [None if dyn_h else h_size, None if dyn_w else w_size, depth]
        out.set_shape(dims if rank == 3 else [image_shape[0]] + dims)
        return out


def pad_to_bounding_box(image: Any, offset_height: Any, offset_width: Any,
                        target_height: Any, target_width: Any) -> Tensor:
    """`tf.image.pad_to_bounding_box`: zero-pads to the target size at the given offset."""
    with name_scope(None, "pad_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        after_w = target_width - offset_width - width
        after_h = target_height - offset_height - height
        ops = _check_at_least_3d(image, require_static=False)
        ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0")
        ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0")
        ops += _assert(after_w >= 0, ValueError, "width must be <= target - offset")
        ops += _assert(after_h >= 0, ValueError, "height must be <= target - offset")
        image = with_dependencies(ops, image)
        paddings = array_ops.reshape(
            array_ops.stack([0, 0, offset_height, after_h, offset_width, after_w, 0, 0]),
            [4, 2])
        padded = transform_ops.pad(image, paddings)
        padded.set_shape([None if is_tensor(i) else i
                          for i in (batch, target_height, target_width, depth)])
        if not is_batch:
            padded = array_ops.squeeze(padded, axis=[0])
        return padded


def crop_to_bounding_box(image: Any, offset_height: Any, offset_width: Any,
                         target_height: Any, target_width: Any) -> Tensor:
    """`tf.image.crop_to_bounding_box`: the target-sized window at the given offset."""
    with name_scope(None, "crop_to_bounding_box", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        ops = _check_at_least_3d(image, require_static=False)
        batch, height, width, depth = _image_dimensions(image, rank=4)
        ops += _assert(offset_width >= 0, ValueError, "offset_width must be >= 0.")
        ops += _assert(offset_height >= 0, ValueError, "offset_height must be >= 0.")
        ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        ops += _assert(width >= target_width + offset_width, ValueError,
                       "width must be >= target + offset.")
        ops += _assert(height >= target_height + offset_height, ValueError,
                       "height must be >= target + offset.")
        image = with_dependencies(ops, image)
        cropped = _slice(
            image, array_ops.stack([0, offset_height, offset_width, 0]),
            array_ops.stack([array_ops.shape(image)[0], target_height, target_width,
                             array_ops.shape(image)[3]]))
        cropped.set_shape([None if is_tensor(i) else i
                           for i in (batch, target_height, target_width, depth)])
        if not is_batch:
            cropped = array_ops.squeeze(cropped, axis=[0])
        return cropped


def resize_image_with_crop_or_pad(image: Any, target_height: Any, target_width: Any
                                  ) -> Tensor:
    """`tf.image.resize_image_with_crop_or_pad`: centre-crops and/or zero-pads."""
    with name_scope(None, "resize_image_with_crop_or_pad", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        ops = _check_at_least_3d(image, require_static=False)
        ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = with_dependencies(ops, image)
        if is_tensor(target_height):
            target_height = with_dependencies(ops, target_height)
        if is_tensor(target_width):
            target_width = with_dependencies(ops, target_width)
        _, height, width, _ = _image_dimensions(image, rank=4)
        width_diff = target_width - width
        crop_w, pad_w = _max(-width_diff // 2, 0), _max(width_diff // 2, 0)
        height_diff = target_height - height
        crop_h, pad_h = _max(-height_diff // 2, 0), _max(height_diff // 2, 0)
        cropped = crop_to_bounding_box(image, crop_h, crop_w, _min(target_height, height),
                                       _min(target_width, width))
        resized = pad_to_bounding_box(cropped, pad_h, pad_w, target_height, target_width)
        if resized.get_shape().ndims is None:
            raise ValueError("resized contains no shape.")
        _, rh, rw, _ = _image_dimensions(resized, rank=4)
        ops = _assert(_equal(rh, target_height), ValueError, "resized height is not correct.")
        ops += _assert(_equal(rw, target_width), ValueError, "resized width is not correct.")
        resized = with_dependencies(ops, resized)
        if not is_batch:
            resized = array_ops.squeeze(resized, axis=[0])
        return resized


resize_with_crop_or_pad = resize_image_with_crop_or_pad


def random_crop(value: Any, size: Any, seed: Optional[int] = None,
                name: Optional[str] = None) -> Tensor:
    """`tf.random_crop` / `tf.image.random_crop`: a `size` window at a random offset."""
    with name_scope(name, "random_crop", [value, size]) as name:
        value = convert_to_tensor(value, name="value")
        size = convert_to_tensor(size, dtype=D.int32, name="size")
        shape = array_ops.shape(value)
        check = Assert(reduce_all(shape >= size),
                       ["Need value.shape >= size, got ", shape, size], summarize=1000)
        shape = with_dependencies([check], shape)
        limit = shape - size + 1
        offset = random_uniform(array_ops.shape(shape), dtype=size.dtype,
                                maxval=size.dtype.max, seed=seed) % limit
        return _slice(value, offset, size, name=name)


# -- resizing -----------------------------------------------------------------------------------

class ResizeMethod:
    """`tf.image.ResizeMethod` (TF1 values)."""
    BILINEAR = 0
    NEAREST_NEIGHBOR = 1
    BICUBIC = 2
    AREA = 3


_V2_NAMES = {"bilinear": 0, "nearest": 1, "bicubic": 2, "area": 3}
_RESIZE_OPS = {0: "ResizeBilinear", 1: "ResizeNearestNeighbor", 2: "ResizeBicubic",
               3: "ResizeArea"}


def _resize_common(images: Any, resizer: Any, size: Any, preserve_aspect_ratio: bool,
                   name: Optional[str], skip_if_same: bool) -> Tensor:
    with name_scope(name, "resize", [images, size]):
        images = convert_to_tensor(images, name="images")
        if images.get_shape().ndims is None:
            raise ValueError("'images' contains no shape.")
        is_batch = True
        if images.get_shape().ndims == 3:
            is_batch = False
            images = array_ops.expand_dims(images, 0)
        elif images.get_shape().ndims != 4:
            raise ValueError("'images' must have either 3 or 4 dimensions.")
        _, height, width, _ = images.get_shape().as_list()
        try:
            size = convert_to_tensor(size, D.int32, name="size")
        except (TypeError, ValueError):
            raise ValueError("'size' must be a 1-D int32 Tensor") from None
        if not size.get_shape().is_compatible_with([2]):
            raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, "
                             "new_width")
        if preserve_aspect_ratio:
            _, cur_h, cur_w, _ = _image_dimensions(images, rank=4)
            f32 = D.float32
            scale_h = math_ops.cast(size[0], f32) / math_ops.cast(cur_h, f32)
            scale_w = math_ops.cast(size[1], f32) / math_ops.cast(cur_w, f32)
            scale = math_ops.minimum(scale_h, scale_w)
            new_h = math_ops.cast(math_ops.round_(scale * math_ops.cast(cur_h, f32)), D.int32)
            new_w = math_ops.cast(math_ops.round_(scale * math_ops.cast(cur_w, f32)), D.int32)
            size = convert_to_tensor([new_h, new_w], D.int32, name="size")
        as_shape = constant_value_as_shape(size)
        new_h = dimension_at_index(as_shape, 0).value
        new_w = dimension_at_index(as_shape, 1).value
        if skip_if_same and all(x is not None for x in (new_w, width, new_h, height)) and \
                width == new_w and height == new_h:
            if not is_batch:
                images = array_ops.squeeze(images, axis=[0])
            return images
        images = resizer(images, size)
        images.set_shape([None, new_h, new_w, None])
        if not is_batch:
            images = array_ops.squeeze(images, axis=[0])
        return images


def resize_images(images: Any, size: Any, method: Any = ResizeMethod.BILINEAR,
                  align_corners: bool = False, preserve_aspect_ratio: bool = False,
                  name: Optional[str] = None) -> Tensor:
    """`tf.image.resize_images` (TF1): `method` a ResizeMethod value (or its v2 name)."""
    code = _V2_NAMES.get(method, method) if isinstance(method, str) else method

    def resizer(images_t: Tensor, new_size: Tensor) -> Tensor:
        op_type = _RESIZE_OPS.get(code) if isinstance(code, int) else None
        if op_type is None:
            raise ValueError(f"Resize method is not implemented: {method}")
        return apply_op1(op_type, [images_t, new_size], {"align_corners": align_corners})

    return _resize_common(images, resizer, size, preserve_aspect_ratio, name, True)


resize = resize_images


class ResizeMethodV2:
    """TF 2's `tf.image.ResizeMethod` (`tf.compat.v2.image.ResizeMethod`): method names."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"


_V2_RESIZE_OPS = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
                  "bicubic": "ResizeBicubic"}


def resize_images_v2(images: Any, size: Any, method: str = ResizeMethodV2.BILINEAR,
                     preserve_aspect_ratio: bool = False, antialias: bool = False,
                     name: Optional[str] = None) -> Tensor:
    """TF 2's `tf.image.resize` (`tf.compat.v2.image.resize`): half-pixel centers, no
    `align_corners`, and a resize even to the same size. Its antialiasing and the
    lanczos/gaussian/mitchellcubic methods (TF's ScaleAndTranslate kernel) raise
    NotImplementedError."""
    def resizer(images_t: Tensor, new_size: Tensor) -> Tensor:
        if antialias or method in (ResizeMethodV2.LANCZOS3, ResizeMethodV2.LANCZOS5,
                                   ResizeMethodV2.GAUSSIAN, ResizeMethodV2.MITCHELLCUBIC):
            raise NotImplementedError(
                f"tf.image.resize (TF 2) with method={method!r}, antialias={antialias}: "
                "TF's ScaleAndTranslate kernel is not implemented by tf1compat")
        if method == ResizeMethodV2.AREA:
            return apply_op1("ResizeArea", [images_t, new_size], {"align_corners": False})
        if method not in _V2_RESIZE_OPS:
            raise ValueError(f"Resize method is not implemented: {method}")
        return apply_op1(_V2_RESIZE_OPS[method], [images_t, new_size],
                         {"align_corners": False, "half_pixel_centers": True})

    return _resize_common(images, resizer, size, preserve_aspect_ratio, name, False)


def _gen_resize(op_type: str, images: Any, size: Any, align_corners: bool,
                half_pixel_centers: bool, name: Optional[str]) -> Tensor:
    attrs = {"align_corners": align_corners, "half_pixel_centers": half_pixel_centers}
    return apply_op1(op_type, [images, size], attrs, name=name or op_type)


def resize_bilinear(images: Any, size: Any, align_corners: bool = False,
                    name: Optional[str] = None, half_pixel_centers: bool = False) -> Tensor:
    """`tf.image.resize_bilinear`: the ResizeBilinear op (float32 output)."""
    return _gen_resize("ResizeBilinear", images, size, align_corners, half_pixel_centers,
                       name)


def resize_nearest_neighbor(images: Any, size: Any, align_corners: bool = False,
                            name: Optional[str] = None,
                            half_pixel_centers: bool = False) -> Tensor:
    """`tf.image.resize_nearest_neighbor`: the ResizeNearestNeighbor op."""
    return _gen_resize("ResizeNearestNeighbor", images, size, align_corners,
                       half_pixel_centers, name)


def resize_bicubic(images: Any, size: Any, align_corners: bool = False,
                   name: Optional[str] = None, half_pixel_centers: bool = False) -> Tensor:
    """`tf.image.resize_bicubic`: the ResizeBicubic op (float32 output)."""
    return _gen_resize("ResizeBicubic", images, size, align_corners, half_pixel_centers,
                       name)


def resize_area(images: Any, size: Any, align_corners: bool = False,
                name: Optional[str] = None) -> Tensor:
    """`tf.image.resize_area`: the ResizeArea op (float32 output)."""
    return apply_op1("ResizeArea", [images, size], {"align_corners": align_corners},
                     name=name or "ResizeArea")


def resize_image_with_pad(image: Any, target_height: Any, target_width: Any,
                          method: Any = ResizeMethod.BILINEAR,
                          align_corners: bool = False) -> Tensor:
    """`tf.image.resize_image_with_pad` (TF1): resizes keeping the aspect ratio, then pads."""
    with name_scope(None, "resize_image_with_pad", [image]):
        image = convert_to_tensor(image, name="image")
        image, is_batch = _as_batch(image)
        ops = _check_at_least_3d(image, require_static=False)
        ops += _assert(target_width > 0, ValueError, "target_width must be > 0.")
        ops += _assert(target_height > 0, ValueError, "target_height must be > 0.")
        image = with_dependencies(ops, image)
        _, height, width, _ = _image_dimensions(image, rank=4)
        f32 = D.float32
        f_h, f_w = math_ops.cast(height, dtype=f32), math_ops.cast(width, dtype=f32)
        f_th = math_ops.cast(target_height, dtype=f32)
        f_tw = math_ops.cast(target_width, dtype=f32)
        ratio = _max(f_w / f_tw, f_h / f_th)
        rh_f, rw_f = f_h / ratio, f_w / ratio
        rh = math_ops.cast(math_ops.floor(rh_f), dtype=D.int32)
        rw = math_ops.cast(math_ops.floor(rw_f), dtype=D.int32)
        pad_h, pad_w = (f_th - rh_f) / 2, (f_tw - rw_f) / 2
        pad_h, pad_w = math_ops.floor(pad_h), math_ops.floor(pad_w)
        p_h = _max(0, math_ops.cast(pad_h, dtype=D.int32))
        p_w = _max(0, math_ops.cast(pad_w, dtype=D.int32))
        resized = resize_images(image, [rh, rw], method, align_corners=align_corners)
        padded = pad_to_bounding_box(resized, p_h, p_w, target_height, target_width)
        if padded.get_shape().ndims is None:
            raise ValueError("padded contains no shape.")
        _image_dimensions(padded, rank=4)
        if not is_batch:
            padded = array_ops.squeeze(padded, axis=[0])
        return padded


# -- dtype and value adjustments ----------------------------------------------------------------

def convert_image_dtype(image: Any, dtype: Any, saturate: bool = False,
                        name: Optional[str] = None) -> Tensor:
    """`tf.image.convert_image_dtype`: floats in [0, 1] <-> integers in [0, MAX]."""
    image = convert_to_tensor(image, name="image")
    dtype = D.as_dtype(dtype)
    if not dtype.is_floating and not dtype.is_integer:
        raise AttributeError("dtype must be either floating point or integer")
    if not image.dtype.is_floating and not image.dtype.is_integer:
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return array_ops.identity(image, name=name)
    with name_scope(name, "convert_image", [image]) as name:
        if image.dtype.is_integer and dtype.is_integer:
            scale_in, scale_out = image.dtype.max, dtype.max
            if scale_in > scale_out:
                scaled = math_ops.floordiv(image, (scale_in + 1) // (scale_out + 1))
                if saturate:
                    return math_ops.saturate_cast(scaled, dtype, name=name)
                return math_ops.cast(scaled, dtype, name=name)
            cast = math_ops.saturate_cast(image, dtype) if saturate \
                else math_ops.cast(image, dtype)
            return math_ops.multiply(cast, (scale_out + 1) // (scale_in + 1), name=name)
        if image.dtype.is_floating and dtype.is_floating:
            return math_ops.cast(image, dtype, name=name)
        if image.dtype.is_integer:
            cast = math_ops.cast(image, dtype)
            return math_ops.multiply(cast, 1.0 / image.dtype.max, name=name)
        scaled = math_ops.multiply(image, dtype.max + 0.5)
        if saturate:
            return math_ops.saturate_cast(scaled, dtype, name=name)
        return math_ops.cast(scaled, dtype, name=name)


def per_image_standardization(image: Any) -> Tensor:
    """`tf.image.per_image_standardization`: (x - mean) / max(stddev, 1/sqrt(N))."""
    with name_scope(None, "per_image_standardization", [image]) as scope:
        image = convert_to_tensor(image, name="image")
        image = _assert_at_least_3d(image)
        image = math_ops.cast(image, dtype=D.float32)
        num_pixels = reduce_prod(array_ops.shape(image)[-3:])
        mean = reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
        stddev = reduce_std(image, axis=[-1, -2, -3], keepdims=True)
        min_stddev = math_ops.rsqrt(math_ops.cast(num_pixels, D.float32))
        adjusted = math_ops.maximum(stddev, min_stddev)
        image -= mean
        return math_ops.divide(image, adjusted, name=scope)


def _to_float(image: Tensor) -> Tensor:
    if image.dtype in (D.float16, D.float32):
        return image
    return convert_image_dtype(image, D.float32)


def adjust_brightness(image: Any, delta: Any) -> Tensor:
    """`tf.image.adjust_brightness`: adds `delta` in the float domain, saturating back."""
    with name_scope(None, "adjust_brightness", [image, delta]) as name:
        image = convert_to_tensor(image, name="image")
        orig = image.dtype
        flt = _to_float(image)
        adjusted = math_ops.add(flt, math_ops.cast(delta, flt.dtype), name=name)
        return convert_image_dtype(adjusted, orig, saturate=True)


def random_brightness(image: Any, max_delta: float, seed: Optional[int] = None) -> Tensor:
    """`tf.image.random_brightness`: a uniform delta in [-max_delta, max_delta)."""
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    delta = random_uniform([], -max_delta, max_delta, seed=seed)
    return adjust_brightness(image, delta)


def adjust_contrast(images: Any, contrast_factor: Any) -> Tensor:
    """`tf.image.adjust_contrast`: (x - mean) * factor + mean per image and channel."""
    with name_scope(None, "adjust_contrast", [images, contrast_factor]) as name:
        images = convert_to_tensor(images, name="images")
        orig = images.dtype
        flt = _to_float(images)
        adjusted = apply_op1("AdjustContrastv2", [flt, contrast_factor], name=name)
        return convert_image_dtype(adjusted, orig, saturate=True)


def random_contrast(image: Any, lower: float, upper: float, seed: Optional[int] = None
                    ) -> Tensor:
    """`tf.image.random_contrast`: a uniform contrast factor in [lower, upper)."""
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")
    factor = random_uniform([], lower, upper, seed=seed)
    return adjust_contrast(image, factor)


def rgb_to_grayscale(images: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.rgb_to_grayscale`: ITU-R 601 luma (0.2989, 0.587, 0.114)."""
    with name_scope(name, "rgb_to_grayscale", [images]) as name:
        images = convert_to_tensor(images, name="images")
        orig = images.dtype
        flt = convert_image_dtype(images, D.float32)
        gray = tensordot(flt, [0.2989, 0.587, 0.114], [-1, -1])
        gray = array_ops.expand_dims(gray, -1)
        return convert_image_dtype(gray, orig, name=name)


def grayscale_to_rgb(images: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.grayscale_to_rgb`: tiles the single channel three times."""
    with name_scope(name, "grayscale_to_rgb", [images]) as name:
        images = convert_to_tensor(images)
        images = with_dependencies(_check_grayscale(images, require_static=False), images)
        images = convert_to_tensor(images, name="images")
        rank_1 = array_ops.expand_dims(array_ops.rank(images) - 1, 0)
        multiples = array_ops.concat([creation_ops.ones(rank_1, dtype=D.int32),
                                      array_ops.expand_dims(3, 0)], 0)
        rgb = transform_ops.tile(images, multiples, name=name)
        rgb.set_shape(images.get_shape()[:-1].concatenate([3]))
        return rgb


def total_variation(images: Any, name: Optional[str] = None) -> Tensor:
    """`tf.image.total_variation`: sum of absolute neighbour differences per image."""
    with name_scope(name, "total_variation"):
        ndims = images.get_shape().ndims
        if ndims == 3:
            dif1 = images[1:, :, :] - images[:-1, :, :]
            dif2 = images[:, 1:, :] - images[:, :-1, :]
            axis = None
        elif ndims == 4:
            dif1 = images[:, 1:, :, :] - images[:, :-1, :, :]
            dif2 = images[:, :, 1:, :] - images[:, :, :-1, :]
            axis = [1, 2, 3]
        else:
            raise ValueError("'images' must be either 3 or 4-dimensional.")
        tot = reduce_sum(math_ops.abs(dif1), axis=axis) + \
            reduce_sum(math_ops.abs(dif2), axis=axis)
    return tot


def image_gradients(image: Any) -> tuple:
    """`tf.image.image_gradients`: forward differences (dy, dx), zero in the last row/col."""
    if image.get_shape().ndims != 4:
        raise ValueError("image_gradients expects a 4D tensor [batch_size, h, w, d], not "
                         f"{image.get_shape()}.")
    image_shape = array_ops.shape(image)
    batch, height, width, depth = array_ops.unstack(image_shape)
    dy = image[:, 1:, :, :] - image[:, :-1, :, :]
    dx = image[:, :, 1:, :] - image[:, :, :-1, :]
    shape = array_ops.stack([batch, 1, width, depth])
    dy = array_ops.concat([dy, creation_ops.zeros(shape, image.dtype)], 1)
    dy = array_ops.reshape(dy, image_shape)
    shape = array_ops.stack([batch, height, 1, depth])
    dx = array_ops.concat([dx, creation_ops.zeros(shape, image.dtype)], 2)
    dx = array_ops.reshape(dx, image_shape)
    return dy, dx
