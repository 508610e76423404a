"""Arranging image batches into one image for summaries (TF 1.14's eval_utils_impl.py)."""

from __future__ import annotations

import math
from typing import Any, Optional, Sequence, Tuple

from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import concat, expand_dims, reshape, unstack
from tf1compat.ops.creation_ops import zeros_like
from tf1compat.ops.transform_ops import transpose

__all__ = ["image_grid", "image_reshaper"]


def image_grid(input_tensor: Any, grid_shape: Tuple[int, int],
               image_shape: Sequence[int] = (32, 32), num_channels: int = 3) -> Any:
    """A [1, rows * height, cols * width, channels] grid of a batch of exactly
    rows * cols images, given as [batch, height, width, channels] or flattened
    [batch, height * width * channels]; images fill the grid row by row."""
    batch = int(input_tensor.shape[0])
    if grid_shape[0] * grid_shape[1] != batch:
        raise ValueError(f"Grid shape {grid_shape} incompatible with minibatch size "
                         f"{batch}.")
    rank = len(input_tensor.shape)
    if rank == 2:
        if int(input_tensor.shape[1]) != image_shape[0] * image_shape[1] * num_channels:
            raise ValueError("Image shape and number of channels incompatible with input "
                             "tensor.")
    elif rank == 4:
        if [int(d) for d in input_tensor.shape[1:]] != \
                [image_shape[0], image_shape[1], num_channels]:
            raise ValueError("Image shape and number of channels incompatible with input "
                             "tensor.")
    else:
        raise ValueError("Unrecognized input tensor format.")
    rows, cols = grid_shape[0], grid_shape[1]
    height, width = rows * image_shape[0], cols * image_shape[1]
    grid = reshape(input_tensor, tuple(grid_shape) + tuple(image_shape) + (num_channels,))
    # [rows, cols, h, w, c] -> [rows, h, cols * w, c] -> [1, rows * h, cols * w, c]
    grid = transpose(grid, [0, 1, 3, 2, 4])
    grid = reshape(grid, [rows, width, image_shape[0], num_channels])
    grid = transpose(grid, [0, 2, 1, 3])
    return reshape(grid, [1, height, width, num_channels])


def image_reshaper(images: Any, num_cols: Optional[int] = None) -> Any:
    """A [1, H, W, C] mosaic of a list (or batch) of [h, w, c] images with c in (1, 3),
    `num_cols` per row (default ceil(sqrt(n))); the last row is padded with zeros."""
    if isinstance(images, Tensor):
        images = unstack(images)
    for image in images:
        image.shape.assert_has_rank(3)
        image.shape.assert_is_fully_defined()
        if image.shape[-1] not in (1, 3):
            raise ValueError("image_reshaper only supports 1 or 3 channel images.")
    count = len(images)
    columns = num_cols if num_cols else int(math.ceil(math.sqrt(count)))
    num_rows = int(math.ceil(float(count) / columns))
    rows = [list(images[i:i + columns]) for i in range(0, count, columns)]
    missing = num_rows * columns - count
    if missing > 0:
        rows[-1].extend([zeros_like(images[-1])] * missing)
    return expand_dims(concat([concat(row, 1) for row in rows], 0), 0)
