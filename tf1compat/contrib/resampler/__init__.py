"""`tf.contrib.resampler` (TF 1.15): bilinear resampling of images at arbitrary points,
differentiable in the image and the points (ops/resampler_ops.py)."""

from __future__ import annotations

from typing import Any

from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import resampler_ops

__all__ = ["resampler"]


def resampler(data: Any, warp: Any, name: str = "resampler") -> Tensor:
    """Samples `data` [batch, height, width, channels] at the (x, y) points of `warp`
    [batch, d0, ..., dn, 2]: a [batch, d0, ..., dn, channels] tensor, zero outside
    (-1, width) x (-1, height)."""
    with name_scope(name, "resampler", [data, warp]):
        data = convert_to_tensor(data, name="data")
        warp = convert_to_tensor(warp, name="warp")
        return resampler_ops.resampler(data, warp)
