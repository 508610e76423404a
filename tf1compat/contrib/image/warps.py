"""tf.contrib.image's warps built from ops (TF 1.15's formulas):

- dense_image_warp(image, flow): output[b, y, x] = image sampled bilinearly at
  (y - flow[b, y, x, 0], x - flow[b, y, x, 1]), query points clamped to the image so that
  the four neighbours exist (images at least 2x2).
- interpolate_spline(train_points, train_values, query_points, order): the polyharmonic
  spline through the training points (kernel phi(r) = r^(k/2), or r^(k/2) log r for even
  k, on squared distances; plus an affine term), solved with matrix_solve, with optional
  Tikhonov regularization; evaluated at the query points.
- sparse_image_warp(image, source, dest): the dense flow interpolating the control
  points' displacements (dest - source, at dest), optionally pinned to zero at
  `num_boundary_points` points per edge, applied with dense_image_warp; returns the
  warped image and the flow. The image's shape must be known when the graph is built.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, check_ops, math_ops

__all__ = ["dense_image_warp", "interpolate_spline", "sparse_image_warp"]

_EPSILON = 0.0000000001


def _interpolate_bilinear(grid: Tensor, query_points: Tensor,
                          name: str = "interpolate_bilinear") -> Tensor:
    """grid [batch, height, width, channels] sampled at query_points [batch, n, 2]
    ((y, x) pairs) -> [batch, n, channels]."""
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.indexing_ops import gather
    with name_scope(name):
        grid = convert_to_tensor(grid)
        query_points = convert_to_tensor(query_points)
        if len(grid.get_shape().as_list()) != 4:
            raise ValueError(f"Grid must be 4 dimensional. Received size: {grid.get_shape()}")
        grid_shape = array_ops.shape(grid)
        batch_size, height, width, channels = (grid_shape[i] for i in range(4))
        shape = [batch_size, height, width, channels]
        query_type, grid_type = query_points.dtype, grid.dtype
        with control_dependencies([
                check_ops.assert_equal(len(query_points.get_shape()), 3,
                                       message="Query points must be 3 dimensional."),
                check_ops.assert_equal(array_ops.shape(query_points)[2], 2,
                                       message="Query points must be size 2 in dim 2.")]):
            num_queries = array_ops.shape(query_points)[1]
        with control_dependencies([
                check_ops.assert_greater_equal(height, 2,
                                               message="Grid height must be at least 2."),
                check_ops.assert_greater_equal(width, 2,
                                               message="Grid width must be at least 2.")]):
            unstacked = array_ops.unstack(query_points, axis=2)
        alphas: List[Tensor] = []
        floors: List[Tensor] = []
        ceils: List[Tensor] = []
        for dim in (0, 1):
            with name_scope(f"dim-{dim}"):
                queries = unstacked[dim]
                # The floor stops at size - 2 so that floor + 1 is still inside the grid.
                max_floor = math_ops.cast(shape[dim + 1] - 2, query_type)
                floor = math_ops.minimum(math_ops.maximum(constant(0.0, dtype=query_type),
                                                          math_ops.floor(queries)),
                                         max_floor)
                int_floor = math_ops.cast(floor, D.int32)
                floors.append(int_floor)
                ceils.append(int_floor + 1)
                alpha = math_ops.cast(queries - floor, grid_type)
                alpha = math_ops.minimum(math_ops.maximum(constant(0.0, dtype=grid_type),
                                                          alpha),
                                         constant(1.0, dtype=grid_type))
                alphas.append(array_ops.expand_dims(alpha, 2))
        flattened_grid = array_ops.reshape(grid, array_ops.stack(
            [batch_size * height * width, channels]))
        batch_offsets = array_ops.reshape(range_(batch_size) * height * width,
                                          array_ops.stack([batch_size, 1]))

        def corner(y_coords: Tensor, x_coords: Tensor, label: str) -> Tensor:
            with name_scope("gather-" + label):
                linear = batch_offsets + y_coords * width + x_coords
                return array_ops.reshape(gather(flattened_grid, linear),
                                         array_ops.stack([batch_size, num_queries, channels]))

        top_left = corner(floors[0], floors[1], "top_left")
        top_right = corner(floors[0], ceils[1], "top_right")
        bottom_left = corner(ceils[0], floors[1], "bottom_left")
        bottom_right = corner(ceils[0], ceils[1], "bottom_right")
        with name_scope("interpolate"):
            interp_top = alphas[1] * (top_right - top_left) + top_left
            interp_bottom = alphas[1] * (bottom_right - bottom_left) + bottom_left
            return alphas[0] * (interp_bottom - interp_top) + interp_top


def dense_image_warp(image: Any, flow: Any, name: str = "dense_image_warp") -> Tensor:
    """Each pixel of `image` [batch, height, width, channels] resampled (bilinearly) at
    its position minus `flow` [batch, height, width, 2] ((dy, dx) per pixel)."""
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.manip_ops import meshgrid
    with name_scope(name):
        image = convert_to_tensor(image)
        flow = convert_to_tensor(flow)
        image_shape = array_ops.shape(image)
        batch_size, height, width, channels = (image_shape[i] for i in range(4))
        grid_x, grid_y = meshgrid(range_(width), range_(height))
        stacked_grid = math_ops.cast(array_ops.stack([grid_y, grid_x], axis=2), flow.dtype)
        query_points = array_ops.expand_dims(stacked_grid, axis=0) - flow
        flattened = array_ops.reshape(query_points,
                                      array_ops.stack([batch_size, height * width, 2]))
        interpolated = _interpolate_bilinear(image, flattened)
        return array_ops.reshape(interpolated,
                                 array_ops.stack([batch_size, height, width, channels]))


def _phi(r: Tensor, order: int) -> Tensor:
    """The spline kernel of a squared distance r (epsilon keeps log and sqrt finite)."""
    with name_scope("phi"):
        if order == 1:
            return math_ops.sqrt(math_ops.maximum(r, _EPSILON))
        if order == 2:
            return 0.5 * r * math_ops.log(math_ops.maximum(r, _EPSILON))
        if order == 4:
            return 0.5 * math_ops.square(r) * math_ops.log(math_ops.maximum(r, _EPSILON))
        r = math_ops.maximum(r, _EPSILON)
        if order % 2 == 0:
            return 0.5 * math_ops.pow(r, 0.5 * order) * math_ops.log(r)
        return math_ops.pow(r, 0.5 * order)


def _squared_distances(x: Tensor, y: Tensor) -> Tensor:
    """[b, n, d] x [b, m, d] -> [b, n, m] squared Euclidean distances."""
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.reduction_ops import reduce_sum
    x_norm = array_ops.expand_dims(reduce_sum(math_ops.square(x), 2), 2)
    y_norm = array_ops.expand_dims(reduce_sum(math_ops.square(y), 2), 1)
    return x_norm - 2 * matmul(x, y, adjoint_b=True) + y_norm


def interpolate_spline(train_points: Any, train_values: Any, query_points: Any, order: int,
                       regularization_weight: float = 0.0,
                       name: str = "interpolate_spline") -> Tensor:
    """The polyharmonic spline of `order` through train_points [b, n, d] with values
    [b, n, k], evaluated at query_points [b, m, d] -> [b, m, k]."""
    from tf1compat.ops.creation_ops import ones_like, zeros
    from tf1compat.ops.linalg_ops import matmul
    from tf1compat.ops.matrix_ops import eye, matrix_solve
    from tf1compat.ops.transform_ops import transpose
    with name_scope(name):
        c = convert_to_tensor(train_points)
        f = convert_to_tensor(train_values)
        query_points = convert_to_tensor(query_points)
        with name_scope("solve"), name_scope("solve_interpolation"):
            b, n, d = c.get_shape().as_list()
            k = f.get_shape().as_list()[2]
            with name_scope("construct_linear_system"):
                matrix_a = _phi(_squared_distances(c, c), order)                  # [b, n, n]
                if regularization_weight > 0:
                    matrix_a += regularization_weight * array_ops.expand_dims(
                        eye(n, dtype=c.dtype), 0)
                matrix_b = array_ops.concat([c, ones_like(c[..., :1], dtype=c.dtype)], 2)
                left = array_ops.concat([matrix_a, transpose(matrix_b, [0, 2, 1])], 1)
                right = array_ops.concat([matrix_b, zeros([b, d + 1, d + 1], c.dtype)], 1)
                lhs = array_ops.concat([left, right], 2)         # [b, n + d + 1, n + d + 1]
                rhs = array_ops.concat([f, zeros([b, d + 1, k], c.dtype)], 1)
            with name_scope("solve_linear_system"):
                w_v = matrix_solve(lhs, rhs)
                w, v = w_v[:, :n, :], w_v[:, n:, :]
        with name_scope("predict"):
            rbf_term = matmul(_phi(_squared_distances(query_points, c), order), w)
            padded = array_ops.concat(
                [query_points, ones_like(query_points[..., :1], dtype=c.dtype)], 2)
            return rbf_term + matmul(padded, v)



def _grid_locations(height: int, width: int) -> np.ndarray:
    ys, xs = np.meshgrid(np.linspace(0, height - 1, height), np.linspace(0, width - 1, width),
                         indexing="ij")
    return np.stack((ys, xs), -1)


def _minibatch(array: np.ndarray, batch_size: int) -> np.ndarray:
    return np.tile(np.expand_dims(array, 0), [batch_size] + [1] * array.ndim)


def _boundary_locations(height: int, width: int, points_per_edge: int) -> np.ndarray:
    ys, xs = np.meshgrid(np.linspace(0, height - 1, points_per_edge + 2),
                         np.linspace(0, width - 1, points_per_edge + 2), indexing="ij")
    on_edge = (xs == 0) | (xs == width - 1) | (ys == 0) | (ys == height - 1)
    return np.stack([ys[on_edge], xs[on_edge]], axis=-1)


def sparse_image_warp(image: Any, source_control_point_locations: Any,
                      dest_control_point_locations: Any, interpolation_order: int = 2,
                      regularization_weight: float = 0.0, num_boundary_points: int = 0,
                      name: str = "sparse_image_warp") -> Tuple[Tensor, Tensor]:
    """Warps `image` [batch, height, width, channels] so that the pixels at the source
    control points [batch, n, 2] ((y, x)) move to the destination points; returns
    (warped image, dense flow [batch, height, width, 2])."""
    image = convert_to_tensor(image)
    source = convert_to_tensor(source_control_point_locations)
    dest = convert_to_tensor(dest_control_point_locations)
    flows = dest - source
    with name_scope(name):
        batch_size, height, width, _ = image.get_shape().as_list()
        grid = np.reshape(_grid_locations(height, width), [height * width, 2])
        grid = constant(_minibatch(grid, batch_size), image.dtype)
        if num_boundary_points > 0:
            boundary = _boundary_locations(height, width, num_boundary_points - 1)
            dest = array_ops.concat(
                [dest, constant(_minibatch(boundary, batch_size), dtype=dest.dtype)], 1)
            flows = array_ops.concat(
                [flows, constant(_minibatch(np.zeros([boundary.shape[0], 2]), batch_size),
                                 dtype=dest.dtype)], 1)
        flattened_flows = interpolate_spline(dest, flows, grid, interpolation_order,
                                             regularization_weight)
        dense_flows = array_ops.reshape(flattened_flows, [batch_size, height, width, 2])
        return dense_image_warp(image, dense_flows), dense_flows
