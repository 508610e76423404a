"""tf.contrib.image's geometric transforms (TF 1.15): `transform`, `rotate`,
`translate`, `compose_transforms`, `angles_to_projective_transforms`,
`translations_to_projective_transforms`, `flat_transforms_to_matrices`,
`matrices_to_flat_transforms`, on the ImageProjectiveTransformV2 op
(ops/image_transform.py); `connected_components` on ImageConnectedComponents.

Images are [height, width], [height, width, channels] or [batch, height, width,
channels]; a transform is 8 floats [a0, a1, a2, b0, b1, b2, c0, c1] mapping OUTPUT
points to input points (see the op), one for all images or one per image.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops import image_transform  # noqa: F401 - declares the op

__all__ = ["transform", "rotate", "translate", "compose_transforms",
           "angles_to_projective_transforms", "translations_to_projective_transforms",
           "flat_transforms_to_matrices", "matrices_to_flat_transforms", "connected_components",
           "bipartite_match"]

_IMAGE_DTYPES = (D.uint8, D.int32, D.int64, D.float16, D.float32, D.float64)


def _as_batch(images: Tensor) -> Tensor:
    """A rank 2-4 image tensor as a [batch, height, width, channels] batch."""
    if images.dtype.base_dtype not in _IMAGE_DTYPES:
        raise TypeError(f"Invalid dtype {images.dtype}.")
    rank = images.get_shape().ndims
    if rank is None:
        raise TypeError("image_or_images rank must be statically known")
    if rank == 2:
        return images[None, :, :, None]
    if rank == 3:
        return images[None, :, :, :]
    if rank == 4:
        return images
    raise TypeError("Images should have rank between 2 and 4.")


def _like_input(output: Tensor, rank: int) -> Tensor:
    if rank == 2:
        return output[0, :, :, 0]
    if rank == 3:
        return output[0, :, :, :]
    return output


def transform(images: Any, transforms: Any, interpolation: str = "NEAREST",
              output_shape: Any = None, name: Optional[str] = None) -> Tensor:
    """The images sampled through the projective `transforms` ([8] or [batch, 8]) with
    NEAREST or BILINEAR interpolation; points outside the image are 0."""
    with name_scope(name, "transform"):
        image_or_images = convert_to_tensor(images, name="images")
        transform_or_transforms = convert_to_tensor(transforms, name="transforms",
                                                    dtype=D.float32)
        batch = _as_batch(image_or_images)
        if output_shape is None:
            output_shape = array_ops.shape(batch)[1:3]
        else:
            output_shape = convert_to_tensor(output_shape, D.int32, name="output_shape")
            if not output_shape.get_shape().is_compatible_with([2]):
                raise ValueError("output_shape must be a 1-D Tensor of 2 elements: "
                                 "new_height, new_width")
        rank = transform_or_transforms.get_shape().ndims
        if rank == 1:
            batch_transforms = transform_or_transforms[None]
        elif rank is None:
            raise TypeError("transforms rank must be statically known")
        elif rank == 2:
            batch_transforms = transform_or_transforms
        else:
            raise TypeError("Transforms should have rank 1 or 2.")
        output = apply_op1("ImageProjectiveTransformV2",
                           [batch, batch_transforms, output_shape],
                           {"interpolation": interpolation.upper(), "fill_mode": "CONSTANT"})
        return _like_input(output, image_or_images.get_shape().ndims)


def angles_to_projective_transforms(angles: Any, image_height: Any, image_width: Any,
                                    name: Optional[str] = None) -> Tensor:
    """The [n, 8] transforms rotating images counterclockwise by `angles` (radians)
    about their centres."""
    with name_scope(name, "angles_to_projective_transforms"):
        angle_or_angles = convert_to_tensor(angles, name="angles", dtype=D.float32)
        rank = angle_or_angles.get_shape().ndims
        if rank == 0:
            angles = angle_or_angles[None]
        elif rank == 1:
            angles = angle_or_angles
        else:
            raise TypeError("Angles should have rank 0 or 1.")
        cos, sin = math_ops.cos(angles), math_ops.sin(angles)
        x_offset = ((image_width - 1) - (cos * (image_width - 1) -
                                         sin * (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (sin * (image_width - 1) +
                                          cos * (image_height - 1))) / 2.0
        num_angles = array_ops.shape(angles)[0]
        from tf1compat.ops.creation_ops import zeros
        return array_ops.concat([cos[:, None], -sin[:, None], x_offset[:, None],
                                 sin[:, None], cos[:, None], y_offset[:, None],
                                 zeros(array_ops.stack([num_angles, 2]), D.float32)], axis=1)


def rotate(images: Any, angles: Any, interpolation: str = "NEAREST",
           name: Optional[str] = None) -> Tensor:
    """The images rotated counterclockwise by `angles` (radians, one or one per image)
    about their centres; uncovered pixels are 0."""
    with name_scope(name, "rotate"):
        image_or_images = convert_to_tensor(images)
        batch = _as_batch(image_or_images)
        image_height = math_ops.cast(array_ops.shape(batch)[1], D.float32)[None]
        image_width = math_ops.cast(array_ops.shape(batch)[2], D.float32)[None]
        output = transform(batch, angles_to_projective_transforms(angles, image_height,
                                                                  image_width),
                           interpolation=interpolation)
        return _like_input(output, image_or_images.get_shape().ndims)


def translations_to_projective_transforms(translations: Any, name: Optional[str] = None
                                          ) -> Tensor:
    """The [n, 8] transforms moving images by [dx, dy] translations."""
    from tf1compat.ops.creation_ops import ones, zeros
    with name_scope(name, "translations_to_projective_transforms"):
        translation_or_translations = convert_to_tensor(translations, name="translations",
                                                        dtype=D.float32)
        rank = translation_or_translations.get_shape().ndims
        if rank is None:
            raise TypeError("translation_or_translations rank must be statically known")
        if rank == 1:
            translations = translation_or_translations[None]
        elif rank == 2:
            translations = translation_or_translations
        else:
            raise TypeError("Translations should have rank 1 or 2.")
        n = array_ops.shape(translations)[0]
        column = array_ops.stack([n, 1])
        # [[1, 0, -dx], [0, 1, -dy], [0, 0, 1]] with the last entry implicit.
        return array_ops.concat([ones(column, D.float32), zeros(column, D.float32),
                                 -translations[:, 0, None], zeros(column, D.float32),
                                 ones(column, D.float32), -translations[:, 1, None],
                                 zeros(array_ops.stack([n, 2]), D.float32)], axis=1)


def translate(images: Any, translations: Any, interpolation: str = "NEAREST",
              name: Optional[str] = None) -> Tensor:
    """The images moved by [dx, dy] (one or one per image); uncovered pixels are 0."""
    with name_scope(name, "translate"):
        return transform(images, translations_to_projective_transforms(translations),
                         interpolation=interpolation)


def flat_transforms_to_matrices(transforms: Any) -> Tensor:
    """[n, 8] transforms as [n, 3, 3] matrices (last entry 1)."""
    from tf1compat.ops.creation_ops import ones
    with name_scope("flat_transforms_to_matrices"):
        transforms = array_ops.reshape(transforms, [-1, 8])
        num_transforms = array_ops.shape(transforms)[0]
        return array_ops.reshape(
            array_ops.concat([transforms, ones(array_ops.stack([num_transforms, 1]))],
                             axis=1), [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices: Any) -> Tensor:
    """[n, 3, 3] matrices as [n, 8] transforms (each divided by its last entry)."""
    with name_scope("matrices_to_flat_transforms"):
        transforms = array_ops.reshape(transform_matrices, [-1, 9])
        transforms /= transforms[:, 8:9]
        return transforms[:, :8]


def compose_transforms(*transforms: Any) -> Tensor:
    """One transform equal to applying the last transform's mapping first (matrix
    product of the transforms in order)."""
    from tf1compat.ops.linalg_ops import matmul
    if not transforms:
        raise ValueError("transforms cannot be empty")
    with name_scope("compose_transforms"):
        composed = flat_transforms_to_matrices(transforms[0])
        for tr in transforms[1:]:
            composed = matmul(composed, flat_transforms_to_matrices(tr))
        return matrices_to_flat_transforms(composed)


def connected_components(images: Any) -> Tensor:
    """Component ids of [height, width] or [batch, height, width] images: pixels joined
    with their equal, nonzero neighbours above, below, left and right; ids 1..n over the
    whole batch in row-major order of each component's first pixel, 0 for zero pixels
    (scipy.ndimage.label's numbering, per batch)."""
    from tf1compat.ops.cond import cond
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.indexing_ops import gather, where
    from tf1compat.ops.indexing_ops import unique
    with name_scope("connected_components"):
        image_or_images = convert_to_tensor(images, name="images")
        rank = image_or_images.get_shape().ndims
        if rank == 2:
            batch = image_or_images[None, :, :]
        elif rank == 3:
            batch = image_or_images
        else:
            raise TypeError("images should have rank 2 (HW) or 3 (NHW). Static shape is "
                            f"{image_or_images.get_shape()}")
        components = apply_op1("ImageConnectedComponents", [batch])
        unique_ids, id_index = unique(array_ops.reshape(components, [-1]))
        id_is_zero = where(math_ops.equal(unique_ids, 0))[:, 0]
        # Nonzero labels become 1..n in order of first appearance; 0 stays 0.
        nonzero_ids = range_(array_ops.shape(unique_ids)[0] -
                             array_ops.shape(id_is_zero)[0]) + 1

        def has_zero() -> Tensor:
            zero_at = math_ops.cast(id_is_zero[0], D.int32)
            return array_ops.concat([nonzero_ids[:zero_at], [0], nonzero_ids[zero_at:]], 0)

        new_ids = cond(math_ops.equal(array_ops.shape(id_is_zero)[0], 0),
                       lambda: nonzero_ids, has_zero)
        components = array_ops.reshape(gather(new_ids, id_index),
                                       array_ops.shape(components))
        return components[0, :, :] if rank == 2 else components


def bipartite_match(distance_mat: Any, num_valid_rows: Any, top_k: int = -1,
                    name: str = "bipartite_match") -> tuple:
    """Greedy bipartite matching of the rows of a [num_rows, num_columns] distance matrix
    to its columns (smallest distance first; each row and column matched at most once).

    Only the first `num_valid_rows` rows take part (all of them when negative); `top_k`
    caps the number of matches (no cap when <= 0). Returns (row_to_col_match_indices
    [num_rows], col_to_row_match_indices [num_columns]), int32, -1 where unmatched."""
    return tuple(apply_op("BipartiteMatch", [distance_mat, num_valid_rows],
                          {"top_k": top_k}, name=name).outputs)
