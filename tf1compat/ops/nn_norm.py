"""Normalization and statistics: moments, weighted_moments, sufficient_statistics,
normalize_moments, batch_normalization, fused_batch_norm (FusedBatchNormV3),
l2_normalize and local_response_normalization (LRN).

The composite functions build TF's own graphs (moments is Mean / StopGradient /
SquaredDifference / Mean / Squeeze); FusedBatchNormV3 and LRN are single ops with torch
kernels. FusedBatchNormV3 in training mode normalizes with the biased batch variance and
reports the Bessel-corrected one as `batch_variance`, as TF does.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare, make_float, make_int
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import as_str
from tf1compat.ops.creation_ops import zeros_like
from tf1compat.ops.reduction_ops import reduce_mean, reduce_sum

__all__ = ["moments", "weighted_moments", "sufficient_statistics", "normalize_moments",
           "batch_normalization", "batch_norm_with_global_normalization", "fused_batch_norm",
           "l2_normalize", "local_response_normalization", "lrn"]


def _keep(keep_dims: Any, keepdims: Any) -> bool:
    if keep_dims is not None and keepdims is not None:
        raise ValueError("Cannot specify both 'keepdims' and 'keep_dims'")
    value = keepdims if keepdims is not None else keep_dims
    return bool(value) if value is not None else False


# -- moments ----------------------------------------------------------------------------------

def moments(x: Any, axes: Any, shift: Any = None, name: Optional[str] = None,
            keep_dims: Any = None, keepdims: Any = None) -> tuple:
    """`tf.nn.moments`: mean and (biased) variance over `axes`; `shift` is ignored, as TF."""
    keep = _keep(keep_dims, keepdims)
    with name_scope(name, "moments", [x, axes]):
        x = convert_to_tensor(x, name="x") if not isinstance(x, Tensor) else x
        y = math_ops.cast(x, D.float32) if x.dtype == D.float16 else x
        mean = reduce_mean(y, axes, keepdims=True, name="mean")
        variance = reduce_mean(math_ops.squared_difference(y, array_ops.stop_gradient(mean)),
                               axes, keepdims=True, name="variance")
        if not keep:
            mean = array_ops.squeeze(mean, axes)
            variance = array_ops.squeeze(variance, axes)
        if x.dtype == D.float16:
            return math_ops.cast(mean, D.float16), math_ops.cast(variance, D.float16)
        return mean, variance


def weighted_moments(x: Any, axes: Any, frequency_weights: Any, name: Optional[str] = None,
                     keep_dims: Any = None, keepdims: Any = None) -> tuple:
    """`tf.nn.weighted_moments`: frequency-weighted mean and variance over `axes`."""
    keep = _keep(keep_dims, keepdims)
    with name_scope(name, "weighted_moments", [x, frequency_weights, axes]):
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(frequency_weights, name="frequency_weights")
        needs_cast = x.dtype == D.float16
        if needs_cast:
            x = math_ops.cast(x, D.float32)
        if weights.dtype != x.dtype:
            weights = math_ops.cast(weights, x.dtype)
        weighted_input_sum = reduce_sum(weights * x, axes, name="weighted_input_sum",
                                        keepdims=True)
        broadcast_weights = weights + zeros_like(x)
        sum_of_weights = reduce_sum(broadcast_weights, axes, name="sum_of_weights",
                                    keepdims=True)
        mean = math_ops.div_no_nan(weighted_input_sum, sum_of_weights)
        distsq = reduce_sum(weights * math_ops.squared_difference(x, mean), axes,
                            name="weighted_distsq", keepdims=True)
        variance = math_ops.div_no_nan(distsq, sum_of_weights)
        if not keep:
            mean = array_ops.squeeze(mean, axis=axes)
            variance = array_ops.squeeze(variance, axis=axes)
        if needs_cast:
            mean = math_ops.cast(mean, D.float16)
            variance = math_ops.cast(variance, D.float16)
        return mean, variance


def sufficient_statistics(x: Any, axes: Sequence[int], shift: Any = None, keep_dims: Any = None,
                          name: Optional[str] = None, keepdims: Any = None) -> tuple:
    """`tf.nn.sufficient_statistics`: (count, sum, sum of squares, shift) over `axes`."""
    from tf1compat.ops.indexing_ops import gather
    from tf1compat.ops.reduction_ops import reduce_prod
    axes = list(set(axes))
    keep = _keep(keep_dims, keepdims)
    with name_scope(name, "sufficient_statistics", [x, shift]):
        x = convert_to_tensor(x, name="x")
        shape = x.shape
        if shape.rank is not None and all(shape.as_list()[d] is not None for d in axes):
            counts = 1
            for d in axes:
                counts *= shape.as_list()[d]
            counts = constant(counts, dtype=x.dtype)
        else:
            rank = array_ops.rank(x)
            positive = [a + rank if a < 0 else a for a in axes]
            dims = gather(math_ops.cast(array_ops.shape(x), x.dtype), positive)
            counts = reduce_prod(dims, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, name="shift")
            m_ss = math_ops.subtract(x, shift)
            v_ss = math_ops.squared_difference(x, shift)
        else:
            m_ss = x
            v_ss = math_ops.square(x)
        m_ss = reduce_sum(m_ss, axes, keepdims=keep, name="mean_ss")
        v_ss = reduce_sum(v_ss, axes, keepdims=keep, name="var_ss")
    return counts, m_ss, v_ss, shift


def normalize_moments(counts: Any, mean_ss: Any, variance_ss: Any, shift: Any,
                      name: Optional[str] = None) -> tuple:
    """`tf.nn.normalize_moments`: mean and variance from sufficient statistics."""
    with name_scope(name, "normalize", [counts, mean_ss, variance_ss, shift]):
        divisor = math_ops.reciprocal(counts, name="divisor")
        if shift is not None:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="shifted_mean")
            mean = math_ops.add(shifted_mean, shift, name="mean")
        else:
            shifted_mean = math_ops.multiply(mean_ss, divisor, name="mean")
            mean = shifted_mean
        variance = math_ops.subtract(math_ops.multiply(variance_ss, divisor),
                                     math_ops.square(shifted_mean), name="variance")
    return mean, variance


def batch_normalization(x: Any, mean: Any, variance: Any, offset: Any, scale: Any,
                        variance_epsilon: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.batch_normalization`: (x - mean) * scale / sqrt(variance + eps) + offset."""
    with name_scope(name, "batchnorm", [x, mean, variance, scale, offset]):
        inv = math_ops.rsqrt(variance + variance_epsilon)
        if scale is not None:
            inv *= scale
        x = convert_to_tensor(x) if not isinstance(x, Tensor) else x
        scaled = x * math_ops.cast(inv, x.dtype)     # created before the shift, as in TF
        shift = offset - mean * inv if offset is not None else -mean * inv
        return scaled + math_ops.cast(shift, x.dtype)


def batch_norm_with_global_normalization(t: Any = None, m: Any = None, v: Any = None,
                                         beta: Any = None, gamma: Any = None,
                                         variance_epsilon: Any = None,
                                         scale_after_normalization: Any = None,
                                         name: Optional[str] = None, input: Any = None,
                                         mean: Any = None, variance: Any = None) -> Tensor:
    """`tf.nn.batch_norm_with_global_normalization` (TF1): batch_normalization."""
    t = input if input is not None else t
    m = mean if mean is not None else m
    v = variance if variance is not None else v
    return batch_normalization(t, m, v, beta, gamma if scale_after_normalization else None,
                               variance_epsilon, name)


# -- FusedBatchNormV3 -------------------------------------------------------------------------

def _channel_axis(fmt: str, rank: int) -> int:
    return 1 if fmt.startswith("NC") else rank - 1


def _fused_bn_shape(ctx: Any) -> List[TensorShape]:
    fmt = as_str(ctx.attrs["data_format"])
    rank = 5 if len(fmt) == 5 else 4
    x = ctx.shape(0)
    if x.rank is not None and x.rank != rank:
        raise ValueError(f"Shape must be rank {rank} but is rank {x.rank} {node_desc(ctx)}")
    dims = x.as_list() if x.rank is not None else [None] * rank
    ch = dims[_channel_axis(fmt, rank)]
    n_inputs = 3 if ctx.attrs["is_training"] and ctx.attrs["exponential_avg_factor"] == 1.0 \
        else 5
    for i in range(1, n_inputs):
        s = ctx.shape(i)
        if s.rank is not None and s.rank != 1:
            raise ValueError(f"Shape must be rank 1 but is rank {s.rank} {node_desc(ctx)}")
        d = s.as_list()[0] if s.rank == 1 else None
        if ch is not None and d is not None and ch != d:
            raise ValueError(f"Dimensions must be equal, but are {ch} and {d} "
                             f"{node_desc(ctx)}")
        if ch is None:
            ch = d
    dims[_channel_axis(fmt, rank)] = ch
    vec = TensorShape([ch])
    return [TensorShape(dims), vec, vec, vec, vec, unknown_shape()]


def _fused_bn_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    fmt = as_str(node.attrs["data_format"])
    eps = float(node.attrs["epsilon"])
    factor = float(node.attrs["exponential_avg_factor"])
    training = bool(node.attrs["is_training"])

    def run(x: torch.Tensor, scale: torch.Tensor, offset: torch.Tensor,
            mean: torch.Tensor, variance: torch.Tensor) -> tuple:
        rank = x.dim()
        axis = _channel_axis(fmt, rank)
        view = [1] * rank
        view[axis] = -1
        xf = x.to(scale.dtype)
        if training:
            axes = [a for a in range(rank) if a != axis]
            var, m = torch.var_mean(xf, dim=axes, correction=0)
            y = (xf - m.reshape(view)) * torch.rsqrt(var.reshape(view) + eps) * \
                scale.reshape(view) + offset.reshape(view)
            count = x.numel() // max(x.shape[axis], 1)
            # TF reports the unbiased (n / (n - 1)) variance and blends both statistics
            # into the running ones when exponential_avg_factor != 1. Gradients do not
            # flow through these outputs in TF, so they are detached here.
            m_d, var_d = m.detach(), var.detach()
            unbiased = var_d * (count / max(count - 1, 1))
            if factor != 1.0:
                batch_mean = (1 - factor) * mean + factor * m_d
                batch_var = (1 - factor) * variance + factor * unbiased
            else:
                batch_mean, batch_var = m_d, unbiased
            reserve = (m_d, var_d)
        else:
            if mean.shape[0] != x.shape[axis] or variance.shape[0] != x.shape[axis]:
                raise errors.InvalidArgumentError(
                    None, None, f"When is_training=false, mean and variance must have the same "
                                f"size as the channel dimension: {x.shape[axis]}, got "
                                f"{mean.shape[0]} and {variance.shape[0]}")
            m_i, v_i = mean.detach(), variance.detach()
            y = (xf - m_i.reshape(view)) * torch.rsqrt(v_i.reshape(view) + eps) * \
                scale.reshape(view) + offset.reshape(view)
            batch_mean, batch_var = m_i, v_i
            reserve = (m_i, v_i)
        extra = torch.zeros(0, dtype=scale.dtype, device=x.device)   # TF: empty on CPU
        return y.to(x.dtype), batch_mean, batch_var, reserve[0], reserve[1], extra
    return run


declare("FusedBatchNormV3",
        inputs=["x: T", "scale: U", "offset: U", "mean: U", "variance: U"],
        outputs=["y: T", "batch_mean: U", "batch_variance: U", "reserve_space_1: U",
                 "reserve_space_2: U", "reserve_space_3: U"],
        attrs={"T": Type((D.float16, D.bfloat16, D.float32)), "U": Type((D.float32,)),
               "epsilon": 0.0001, "exponential_avg_factor": 1.0, "data_format": "NHWC",
               "is_training": True},
        shape=_fused_bn_shape, kernel=_fused_bn_kernel,
        grad_none_inputs=(3, 4))        # (TF: no gradient for the population statistics)


def fused_batch_norm(x: Any, scale: Any, offset: Any, mean: Any = None, variance: Any = None,
                     epsilon: float = 0.001, data_format: str = "NHWC", is_training: bool = True,
                     name: Optional[str] = None, exponential_avg_factor: float = 1.0) -> tuple:
    """`tf.nn.fused_batch_norm`: (y, batch/running mean, batch/running variance)."""
    if (not is_training or exponential_avg_factor != 1.0) and (mean is None or
                                                                variance is None):
        raise ValueError("Both `mean` and `variance` must be a 1D tensor when `is_training` is "
                         "False or `exponential_avg_factor` != 1.0. Received: `mean` "
                         f"{mean!r} and `variance` {variance!r}")
    x = convert_to_tensor(x, name="input")
    scale = convert_to_tensor(scale, name="scale")
    offset = convert_to_tensor(offset, name="offset")
    if mean is None:
        mean = constant([])
    if variance is None:
        variance = constant([])
    op = apply_op("FusedBatchNormV3", [x, scale, offset, mean, variance],
                  {"epsilon": float(epsilon), "exponential_avg_factor":
                   float(exponential_avg_factor), "data_format": data_format,
                   "is_training": bool(is_training)}, name=name)
    y, running_mean, running_var = op._outputs[:3]
    return y, running_mean, running_var


# -- l2_normalize, LRN ------------------------------------------------------------------------

def l2_normalize(x: Any, axis: Any = None, epsilon: float = 1e-12, name: Optional[str] = None,
                 dim: Any = None) -> Tensor:
    """`tf.nn.l2_normalize`: x / sqrt(max(sum(x ** 2, axis), epsilon))."""
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    axis = dim if axis is None else axis
    with name_scope(name, "l2_normalize", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if x.dtype.is_complex:
            raise NotImplementedError("tf.nn.l2_normalize of complex tensors is not supported "
                                      "by tf1compat")
        square_sum = reduce_sum(math_ops.square(x), axis, keepdims=True)
        inv_norm = math_ops.rsqrt(math_ops.maximum(square_sum, epsilon))
        return math_ops.multiply(x, inv_norm, name=scope)


def _lrn_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    radius = int(node.attrs["depth_radius"])
    bias = float(node.attrs["bias"])
    alpha = float(node.attrs["alpha"])
    beta = float(node.attrs["beta"])
    window = 2 * radius + 1

    def lrn_run(x: torch.Tensor) -> torch.Tensor:
        shape = x.shape
        sq = (x * x).reshape(-1, 1, shape[-1])
        # Sum of squares over [d - r, d + r] along depth, zero outside the tensor.
        sums = F.avg_pool1d(F.pad(sq, (radius, radius)), window, 1) * window
        return x / torch.pow(bias + alpha * sums.reshape(shape), beta)
    return lrn_run


def _lrn_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is not None and s.rank != 4:
        raise ValueError(f"Shape must be rank 4 but is rank {s.rank} {node_desc(ctx)}")
    return [s if s.rank is not None else unknown_shape(4)]


declare("LRN", inputs=["input: T"], outputs=["output: T"],
        attrs={"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5,
               "T": Type((D.float16, D.bfloat16, D.float32), default=D.float32)},
        shape=_lrn_shape, kernel=_lrn_kernel)


def local_response_normalization(input: Any, depth_radius: Optional[int] = 5,  # noqa: A002
                                 bias: Optional[float] = 1.0, alpha: Optional[float] = 1.0,
                                 beta: Optional[float] = 0.5,
                                 name: Optional[str] = None) -> Tensor:
    """`tf.nn.local_response_normalization` / `tf.nn.lrn`: TF's LRN over the last axis:
    input / (bias + alpha * sum(input[..., d-r:d+r+1] ** 2)) ** beta. An argument passed as
    None takes the op's default, as TF's generated wrapper does."""
    attrs = {"depth_radius": make_int(5 if depth_radius is None else depth_radius,
                                      "depth_radius")}
    for arg, value, default in (("bias", bias, 1.0), ("alpha", alpha, 1.0),
                                ("beta", beta, 0.5)):
        attrs[arg] = make_float(default if value is None else value, arg)
    return apply_op1("LRN", [input], attrs, name=name)


lrn = local_response_normalization
