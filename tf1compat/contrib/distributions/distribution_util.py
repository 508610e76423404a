"""Helpers of `tf.contrib.distributions` that TF1 scripts call directly: `fill_triangular`
(and its inverse), `matrix_diag_transform`, `softplus_inverse`,
`reduce_weighted_logsumexp`, `tridiag`."""

from __future__ import annotations

from typing import Any, Callable, Optional

import numpy as np

from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import ones_like, zeros, zeros_like
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.matrix_ops import (matrix_band_part, matrix_diag, matrix_diag_part,
                                      matrix_set_diag)
from tf1compat.ops.reduction_ops import reduce_logsumexp, reduce_max, reduce_sum
from tf1compat.ops.transform_ops import reverse

__all__ = ["fill_triangular", "fill_triangular_inverse", "matrix_diag_transform",
           "softplus_inverse", "reduce_weighted_logsumexp", "tridiag"]


def _triangle_size(m: int) -> int:
    """n such that n (n + 1) / 2 == m; ValueError when m is not a triangular number."""
    n = int(np.sqrt(0.25 + 2.0 * m) - 0.5)
    if n * (n + 1) // 2 != m:
        raise ValueError(f"Input right-most shape ({m}) does not correspond to a triangular "
                         "matrix.")
    return n


def fill_triangular(x: Any, upper: bool = False, name: Optional[str] = None) -> Tensor:
    """The `n (n + 1) / 2` values of `x`'s last axis laid out as an `n x n` lower (or upper)
    triangular matrix, in TF's clockwise-spiral order."""
    with name_scope(name, "fill_triangular", values=[x]):
        x = convert_to_tensor(x, name="x")
        m = dimension_value(x.shape.with_rank_at_least(1)[-1])
        if m is None:
            raise NotImplementedError("fill_triangular with an unknown last dimension is not "
                                      "supported by tf1compat")
        n = _triangle_size(m)
        tail = x[..., m - (n * n - m):]
        pieces = [x, reverse(tail, axis=[-1])] if upper else [tail, reverse(x, axis=[-1])]
        batch = array_ops.shape(x)[:-1]
        filled = array_ops.reshape(array_ops.concat(pieces, axis=-1),
                                   array_ops.concat([batch, [n, n]], axis=0))
        filled = matrix_band_part(filled, 0 if upper else -1, -1 if upper else 0)
        filled.set_shape(x.shape[:-1].concatenate([n, n]))
        return filled


def fill_triangular_inverse(x: Any, upper: bool = False, name: Optional[str] = None) -> Tensor:
    """The inverse of `fill_triangular`: an `n x n` triangle back to its `n (n + 1) / 2`
    vector."""
    with name_scope(name, "fill_triangular_inverse", values=[x]):
        x = convert_to_tensor(x, name="x")
        n = dimension_value(x.shape.with_rank_at_least(2)[-1])
        if n is None:
            raise NotImplementedError("fill_triangular_inverse with an unknown last "
                                      "dimension is not supported by tf1compat")
        m = n * (n + 1) // 2
        if upper:
            initial, triangular = x[..., 0, :], x[..., 1:, :]
        else:
            initial, triangular = reverse(x[..., -1, :], axis=[-1]), x[..., :-1, :]
        rotated = reverse(reverse(triangular, axis=[-1]), axis=[-2])
        consolidated = triangular + rotated
        end = array_ops.reshape(consolidated, array_ops.concat(
            [array_ops.shape(x)[:-2], [n * (n - 1)]], axis=0))
        y = array_ops.concat([initial, end[..., :m - n]], axis=-1)
        y.set_shape(x.shape[:-2].concatenate([m]))
        return y


def matrix_diag_transform(matrix: Any, transform: Optional[Callable[[Tensor], Tensor]] = None,
                          name: Optional[str] = None) -> Tensor:
    """`matrix` with `transform` applied to its diagonal (e.g. softplus for a Cholesky
    factor)."""
    with name_scope(name, "matrix_diag_transform", [matrix]):
        matrix = convert_to_tensor(matrix, name="matrix")
        if transform is None:
            return matrix
        return matrix_set_diag(matrix, transform(matrix_diag_part(matrix)))


def softplus_inverse(x: Any, name: Optional[str] = None) -> Tensor:
    """log(exp(x) - 1), switching to log(x) and x where that loses precision."""
    with name_scope(name, "softplus_inverse", values=[x]):
        x = convert_to_tensor(x, name="x")
        # Below exp(threshold) softplus(x) ~ exp(x); above -threshold softplus(x) ~ x.
        threshold = np.log(np.finfo(x.dtype.as_numpy_dtype).eps) + 2.0
        too_small = math_ops.less(x, np.exp(threshold))
        too_large = math_ops.greater(x, -threshold)
        small_value = math_ops.log(x)
        large_value = x
        safe = where_v2(math_ops.logical_or(too_small, too_large), ones_like(x), x)
        y = safe + math_ops.log(-math_ops.expm1(-safe))
        return where_v2(too_small, small_value, where_v2(too_large, large_value, y))


def reduce_weighted_logsumexp(logx: Any, w: Any = None, axis: Any = None,
                              keep_dims: bool = False, return_sign: bool = False,
                              name: Optional[str] = None) -> Any:
    """log|sum(w * exp(logx))| over `axis` (with its sign when `return_sign`)."""
    with name_scope(name, "reduce_weighted_logsumexp", [logx, w]):
        logx = convert_to_tensor(logx, name="logx")
        if w is None:
            lswe = reduce_logsumexp(logx, axis=axis, keepdims=keep_dims)
            return (lswe, ones_like(lswe)) if return_sign else lswe
        w = convert_to_tensor(w, dtype=logx.dtype, name="w")
        log_absw_x = logx + math_ops.log(math_ops.abs(w))
        max_log = reduce_max(log_absw_x, axis=axis, keepdims=True)
        # An all -inf slice would give nan through inf - inf; shift by 0 there instead.
        max_log = where_v2(math_ops.is_inf(max_log), zeros_like(max_log), max_log)
        scaled = math_ops.sign(w) * math_ops.exp(log_absw_x - max_log)
        total = reduce_sum(scaled, axis=axis, keepdims=keep_dims)
        if not keep_dims:
            max_log = array_ops.squeeze(max_log, axis)
        sign = math_ops.sign(total)
        lswe = max_log + math_ops.log(sign * total)
        return (lswe, sign) if return_sign else lswe


def _pad_both_ends(x: Tensor) -> Tensor:
    shape = array_ops.concat([array_ops.shape(x)[:-1], [1]], axis=0)
    z = zeros(shape, dtype=x.dtype)
    return array_ops.concat([z, x, z], axis=-1)


def tridiag(below: Any = None, diag: Any = None, above: Any = None,
            name: Optional[str] = None) -> Tensor:
    """A batch of tridiagonal matrices from their three diagonals (any may be None)."""
    with name_scope(name, "tridiag", [below, diag, above]):
        parts = []
        if below is not None:
            below = convert_to_tensor(below, name="below")
            parts.append(matrix_diag(_pad_both_ends(below))[..., :-1, 1:])
        if diag is not None:
            parts.append(matrix_diag(convert_to_tensor(diag, name="diag")))
        if above is not None:
            above = convert_to_tensor(above, name="above")
            parts.append(matrix_diag(_pad_both_ends(above))[..., 1:, :-1])
        if not parts:
            raise ValueError("Must specify at least one of `below`, `diag`, `above`.")
        total = parts[0]
        for part in parts[1:]:
            total = total + part
        return total
