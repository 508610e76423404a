"""`tf.nn` activations, softmax, bias_add, dropout, l2_loss, top_k / in_top_k and friends.

Elementwise activations come from one factory (`activation`) that declares the op with
TF's type name and a differentiable torch kernel; the wrappers mirror TF's Python layer
(`tf.nn.crelu` is Neg + ConcatV2 + Relu under a "CRelu" scope, `tf.nn.softmax(axis=0)`
transposes the axis to the end and back, `tf.nn.dropout` is RandomUniform >= rate and a
SelectV2), so graphs have TF's op names and counts.
"""

from __future__ import annotations

import collections
import numbers
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.grad_names import Pass, names
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare, make_float
from tf1compat.framework.random_seed import get_seed
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops._grad_formulas import relu6_formula, relu_formula
from tf1compat.ops._kernels import static_ints
from tf1compat.ops._shape_rules import node_desc, unary_rule
from tf1compat.ops.creation_ops import range as _range
from tf1compat.ops.math_ops import FLOAT, REAL
from tf1compat.ops.transform_ops import transpose
from tf1compat.ops import _flops_rules as flops
from tf1compat.ops._kernel_errors import shape_text

__all__ = [
    "relu", "relu6", "crelu", "elu", "selu", "leaky_relu", "softplus", "softsign",
    "sigmoid", "tanh", "swish", "log_sigmoid", "softmax", "log_softmax", "bias_add",
    "dropout", "l2_loss", "top_k", "in_top_k", "xw_plus_b", "zero_fraction",
]

# -- elementwise activations ---------------------------------------------------------------

def activation(op_type: str, fn: Callable[..., Any], types: Sequence[D.DType] = FLOAT,
               attrs: Optional[dict] = None, **facts: Any) -> None:
    """Declares a one-input elementwise activation (TF op type `op_type`); `facts` are
    its other declared facts (gradient names, ...), as `declare` takes them."""
    all_attrs = {"T": Type(tuple(types))}
    all_attrs.update(attrs or {})
    declare(op_type, inputs=["features: T"], outputs=["activations: T"], attrs=all_attrs,
            shape=unary_rule, kernel=lambda node, kctx: fn(node), **facts)


def _relu6(x: torch.Tensor) -> torch.Tensor:
    if x.is_floating_point():
        # hardtanh's gradient is zero at both ends, like TF's Relu6Grad (0 < x < 6).
        return F.hardtanh(x, 0.0, 6.0)
    return torch.clamp(x, 0, 6)


def _softplus(x: torch.Tensor) -> torch.Tensor:
    # TF switches to x (large x) and exp(x) (very negative x) at log(eps) + 2 so the
    # result keeps full precision. Each branch only sees inputs it can take without
    # overflowing, so the unselected branches never put inf/NaN into the gradient.
    threshold = float(np.log(torch.finfo(x.dtype).eps)) + 2.0
    small = torch.exp(torch.clamp(x, max=threshold))
    return torch.where(x > -threshold, x, torch.where(x < threshold, small, F.softplus(x)))


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _selu(x: torch.Tensor) -> torch.Tensor:
    # x >= 0 takes the linear branch so the gradient at 0 is `scale`, as TF's SeluGrad
    # (torch's selu uses the exponential branch there).
    neg = _SELU_ALPHA * torch.expm1(torch.clamp(x, max=0.0))
    return _SELU_SCALE * torch.where(x >= 0, x, neg)


def _leaky_relu_kernel(node: Any) -> Callable[..., Any]:
    alpha = float(node.attrs["alpha"])
    return lambda x: torch.where(x > 0, x, x * alpha)


activation("Relu", lambda node: torch.relu, REAL, grad_names=names("ReluGrad"),
           grad_formula=relu_formula)
activation("Relu6", lambda node: _relu6, REAL, grad_names=names("Relu6Grad"),
           grad_formula=relu6_formula)
activation("Elu", lambda node: F.elu, grad_names=names("EluGrad"))
activation("Selu", lambda node: _selu, grad_names=names("SeluGrad"))
activation("Softplus", lambda node: _softplus, grad_names=names("mul"))
activation("Softsign", lambda node: F.softsign, grad_names=names("SoftsignGrad"))
activation("LeakyRelu", _leaky_relu_kernel, FLOAT, {"alpha": 0.2},
           grad_names=names("LeakyReluGrad"))


def relu(features: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.relu`: max(features, 0) (op type Relu)."""
    return apply_op1("Relu", [features], name=name)


def relu6(features: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.relu6`: min(max(features, 0), 6)."""
    with name_scope(name, "Relu6", [features]) as scope:
        features = convert_to_tensor(features, name="features")
        return apply_op1("Relu6", [features], name=scope)


def elu(features: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.elu`: exp(x) - 1 for x < 0, x otherwise."""
    return apply_op1("Elu", [features], name=name)


def selu(features: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.selu`: scale * elu(x, alpha) with the SELU constants."""
    return apply_op1("Selu", [features], name=name)


def softplus(features: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.softplus`: log(exp(x) + 1)."""
    return apply_op1("Softplus", [features], name=name)


def softsign(features: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.softsign`: x / (|x| + 1)."""
    return apply_op1("Softsign", [features], name=name)


def leaky_relu(features: Any, alpha: float = 0.2, name: Optional[str] = None) -> Tensor:
    """`tf.nn.leaky_relu`: x for x > 0, alpha * x otherwise (integers are cast to float)."""
    with name_scope(name, "LeakyRelu", [features, alpha]) as scope:
        features = convert_to_tensor(features, name="features")
        if features.dtype.is_integer:
            features = math_ops.cast(features, D.float32)
        if isinstance(alpha, np.ndarray):
            alpha = alpha.item()
        return apply_op1("LeakyRelu", [features], {"alpha": make_float(alpha, "alpha")},
                         name=scope)


def crelu(features: Any, name: Optional[str] = None, axis: int = -1) -> Tensor:
    """`tf.nn.crelu`: relu of [x, -x] concatenated along `axis`."""
    with name_scope(name, "CRelu", [features]) as scope:
        features = convert_to_tensor(features, name="features")
        c = array_ops.concat([features, math_ops.negative(features)], axis, name=scope)
        return relu(c)


def sigmoid(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.sigmoid` (op type Sigmoid)."""
    return math_ops.sigmoid(x, name=name)


def tanh(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.tanh` (op type Tanh)."""
    with name_scope(name, "Tanh", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.tanh(x, name=scope)


def swish(features: Any, beta: float = 1.0) -> Tensor:
    """`tf.nn.swish` (silu): x * sigmoid(beta * x).

    TF builds it under a custom gradient, which ends in an IdentityN of (result, x,
    beta); the same ops are created here and autograd differentiates the product.
    """
    features = convert_to_tensor(features, name="features")
    beta_t = convert_to_tensor(beta, name="beta")
    beta_t = math_ops.cast(beta_t, features.dtype.base_dtype)
    out = features * math_ops.sigmoid(beta_t * features)
    array_ops.identity(out)
    return apply_op("IdentityN", [[out, features, beta_t]])._outputs[0]


silu = swish


def log_sigmoid(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.math.log_sigmoid`: -softplus(-x)."""
    with name_scope(name, "LogSigmoid", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return math_ops.negative(softplus(math_ops.negative(x)), name=scope)


# -- softmax ----------------------------------------------------------------------------------

def _softmax_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is not None and s.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    return [s]


declare("Softmax", inputs=["logits: T"], outputs=["softmax: T"], attrs={"T": Type(FLOAT)},
        shape=_softmax_shape, kernel=lambda node, kctx: lambda x: torch.softmax(x, -1),
        grad_names=names("mul_1"), flops=flops.per_input_element(5))
declare("LogSoftmax", inputs=["logits: T"], outputs=["logsoftmax: T"],
        attrs={"T": Type(FLOAT)}, shape=_softmax_shape,
        kernel=lambda node, kctx: lambda x: torch.log_softmax(x, -1), grad_names=names("sub"))


def _swap_axis(x: Any, dim_index: int, last_index: Any, name: Optional[str] = None) -> Tensor:
    perm = array_ops.concat([_range(dim_index), [last_index],
                             _range(dim_index + 1, last_index), [dim_index]], 0)
    return transpose(x, perm, name=name or "transpose")


def wrap_2d_function(inputs: Any, compute_op: Callable[..., Any], dim: Any = -1,
                     name: Optional[str] = None) -> Any:
    """Applies a last-axis op along `dim` by swapping `dim` with the last axis (TF's way)."""
    inputs = convert_to_tensor(inputs)
    shape = inputs.shape
    if isinstance(dim, Tensor):
        raise NotImplementedError("softmax along an axis given as a tensor is not supported "
                                  "by tf1compat; pass a Python int")
    if dim == -1 or (shape.rank is not None and dim == shape.rank - 1):
        return compute_op(inputs, name=name)
    if shape.rank is None:
        raise NotImplementedError("softmax along an axis other than the last needs a known "
                                  "input rank in tf1compat")
    if not -shape.rank <= dim < shape.rank:
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-shape.rank}, {shape.rank}) where "
                        f"{shape.rank} is the number of dimensions in the input. "
                        f"Received: dim={dim}")
    ndims = array_ops.rank(inputs)
    if dim < 0:
        dim = dim + ndims      # a graph op, as in TF
    input_rank = array_ops.rank(inputs)
    dim_axis = dim % shape.rank
    swapped = _swap_axis(inputs, dim_axis, math_ops.subtract(input_rank, 1))
    output = compute_op(swapped)
    output = _swap_axis(output, dim_axis, math_ops.subtract(input_rank, 1), name=name)
    output.set_shape(shape)
    return output


def _softmax_dim(axis: Any, dim: Any) -> Any:
    if axis is not None and dim is not None:
        raise ValueError("Cannot specify both 'axis' and 'dim'")
    value = axis if axis is not None else dim
    return -1 if value is None else value


def softmax(logits: Any, axis: Any = None, name: Optional[str] = None, dim: Any = None) -> Tensor:
    """`tf.nn.softmax` (TF1: `axis` or the deprecated `dim`)."""
    axis = _softmax_dim(axis, dim)
    return wrap_2d_function(
        logits, lambda x, name=None: apply_op1("Softmax", [x], name=name), axis, name)


def log_softmax(logits: Any, axis: Any = None, name: Optional[str] = None,
                dim: Any = None) -> Tensor:
    """`tf.nn.log_softmax` (TF1: `axis` or the deprecated `dim`)."""
    axis = _softmax_dim(axis, dim)
    return wrap_2d_function(
        logits, lambda x, name=None: apply_op1("LogSoftmax", [x], name=name), axis, name)


# -- bias_add ---------------------------------------------------------------------------------

def _bias_add_shape(ctx: Any) -> List[TensorShape]:
    value, bias = ctx.shape(0), ctx.shape(1)
    fmt = ctx.attrs.get("data_format", "NHWC")
    if bias.rank is not None and bias.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {bias.rank} {node_desc(ctx)}")
    if value.rank is None:
        return [value]
    need = 3 if fmt.startswith("NC") else 2
    if value.rank < need:
        raise ValueError(f"Shape must be at least rank {need} but is rank {value.rank} "
                         f"{node_desc(ctx)}")
    dims = value.as_list()
    axis = 1 if fmt.startswith("NC") else -1
    b = bias.as_list()[0] if bias.rank == 1 else None
    if dims[axis] is not None and b is not None and dims[axis] != b:
        raise ValueError(f"Dimensions must be equal, but are {dims[axis]} and {b} "
                         f"{node_desc(ctx)}")
    if dims[axis] is None:
        dims[axis] = b
    return [TensorShape(dims)]


def _bias_add_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    if node.attrs.get("data_format", "NHWC").startswith("NC"):
        def bias_add_nc(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
            _check_bias(x, b, 1)
            return x + b.reshape((-1,) + (1,) * (x.dim() - 2))
        return bias_add_nc

    def bias_add_nhwc(x: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        _check_bias(x, b, -1)
        return x + b
    return bias_add_nhwc


def _check_bias(x: torch.Tensor, b: torch.Tensor, axis: int) -> None:
    if x.shape[axis] != b.shape[0]:
        raise errors.InvalidArgumentError(
            None, None, f"Must provide as many biases as the last dimension of the input "
                        f"tensor: [{b.shape[0]}] vs. {shape_text(x.shape)}")


declare("BiasAdd", inputs=["value: T", "bias: T"], outputs=["output: T"],
        attrs={"T": Type(math_ops.NUMBER), "data_format": "NHWC"},
        shape=_bias_add_shape, kernel=_bias_add_kernel, grad_names=names(Pass(0), "BiasAddGrad"),
        flops=flops.bias_add)


def _format_attr(data_format: Optional[str]) -> str:
    if data_format is None:
        return "NHWC"
    if isinstance(data_format, bytes):
        data_format = data_format.decode()
    if data_format.startswith("NC"):
        return "NCHW"
    if data_format.startswith("N") and data_format.endswith("C"):
        return "NHWC"
    raise ValueError("data_format must be of the form `N...C` or `NC...`")


def bias_add(value: Any, bias: Any, data_format: Optional[str] = None,
             name: Optional[str] = None) -> Tensor:
    """`tf.nn.bias_add`: adds a 1-D bias along the channel axis (last, or 1 for NC...)."""
    fmt = _format_attr(data_format)
    with name_scope(name, "BiasAdd", [value, bias]) as scope:
        value = convert_to_tensor(value, name="input")
        bias = convert_to_tensor(bias, dtype=value.dtype, name="bias")
        return apply_op1("BiasAdd", [value, bias], {"data_format": fmt}, name=scope)


def relu_layer(x: Any, weights: Any, biases: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.relu_layer`: relu(matmul(x, weights) + biases)."""
    from tf1compat.ops.linalg_ops import matmul
    with name_scope(name, "relu_layer", [x, weights, biases]) as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        return relu(bias_add(matmul(x, weights), biases), name=scope)


def xw_plus_b(x: Any, weights: Any, biases: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.xw_plus_b`: matmul(x, weights) + biases."""
    from tf1compat.ops.linalg_ops import matmul
    with name_scope(name, "xw_plus_b", [x, weights, biases]) as scope:
        x = convert_to_tensor(x, name="x")
        weights = convert_to_tensor(weights, name="weights")
        biases = convert_to_tensor(biases, name="biases")
        mm = matmul(x, weights)
        return bias_add(mm, biases, name=scope)


# -- dropout ------------------------------------------------------------------------------------

def _noise_shape(x: Tensor, noise_shape: Any) -> Any:
    if noise_shape is None:
        return array_ops.shape(x)
    try:
        wanted = as_shape(noise_shape)
    except (TypeError, ValueError):
        return noise_shape
    if x.shape.rank is not None and wanted.rank == x.shape.rank:
        dims = [xd if nd is None and xd is not None else nd
                for xd, nd in zip(x.shape.as_list(), wanted.as_list())]
        return TensorShape(dims)
    return noise_shape


def dropout(x: Any, keep_prob: Any = None, noise_shape: Any = None, seed: Optional[int] = None,
            name: Optional[str] = None, rate: Any = None) -> Tensor:
    """`tf.nn.dropout` (TF1): keeps each element with probability keep_prob = 1 - rate and
    scales kept elements by 1/keep_prob; `noise_shape` broadcasts the keep mask."""
    if keep_prob is not None:
        if rate is not None:
            raise ValueError("Cannot specify both 'rate' and 'keep_prob'")
        try:
            rate = 1.0 - keep_prob
        except TypeError:
            raise ValueError("`keep_prob` must be a floating point number or Tensor. "
                             f"Received: keep_prob={keep_prob}") from None
    if rate is None:
        raise ValueError(f"`rate` must be provided. Received: rate={rate}")
    return dropout_v2(x, rate, noise_shape=noise_shape, seed=seed, name=name)


def dropout_v2(x: Any, rate: Any, noise_shape: Any = None, seed: Optional[int] = None,
               name: Optional[str] = None) -> Tensor:
    """`tf.nn.dropout` (TF2 signature): drops with probability `rate`."""
    from tf1compat.ops.random_ops import random_uniform
    return dropout_with_sampler(
        x, rate, noise_shape, lambda shape, dtype: random_uniform(shape, seed=seed, dtype=dtype),
        name, "dropout", skipped_draw=lambda: get_seed(seed))


def dropout_with_sampler(x: Any, rate: Any, noise_shape: Any,
                         uniform_sampler: Callable[..., Tensor], name: Optional[str],
                         default_name: str,
                         skipped_draw: Optional[Callable[[], Any]] = None) -> Tensor:
    """TF's _dropout: drops where `uniform_sampler(shape=, dtype=)` draws below `rate`
    (tf.nn.dropout, tf.nn.experimental.general_dropout / stateless_dropout).
    `skipped_draw` runs when a Python rate of 0 returns `x` unchanged: tf.nn.dropout still
    draws its op seed there, so the seeds of later random ops do not shift."""
    from tf1compat.ops.indexing_ops import where_v2
    with name_scope(name, default_name, [x]):
        is_number = isinstance(rate, numbers.Real) and not isinstance(rate, bool)
        if is_number and (rate < 0 or rate >= 1):
            raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                             f"Received: rate={rate}")
        x = convert_to_tensor(x, name="x")
        dtype = x.dtype.base_dtype
        if not dtype.is_floating:
            raise ValueError("`x.dtype` must be a floating point tensor as `x` will be "
                             f"scaled. Received: x_dtype={x.dtype}")
        if is_number and rate == 0:
            if skipped_draw is not None:
                skipped_draw()
            return x
        if not isinstance(rate, Tensor):
            if not is_number:
                raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: "
                                 f"rate={rate}")
            scale = constant(1 / (1 - rate), dtype=dtype)
            ret = math_ops.mul(x, scale)
        else:
            if rate.shape.rank not in (None, 0):
                raise ValueError(f"Shape must be rank 0 but is rank {rate.shape.rank}")
            if rate.dtype.base_dtype != dtype:
                rate = apply_op1("Cast", [rate], {"DstT": dtype, "Truncate": False},
                                 name="rate")
            one = constant(1, dtype=dtype)
            ret = math_ops.real_div(x, math_ops.sub(one, rate))
        shape = _noise_shape(x, noise_shape)
        if isinstance(shape, TensorShape):
            shape = shape.as_list()
        random_tensor = uniform_sampler(shape=shape, dtype=dtype)
        keep_mask = random_tensor >= rate
        ret = where_v2(keep_mask, ret, constant(0, dtype=dtype))
        ret.set_shape(x.shape)
        return ret


# -- l2_loss, top_k, in_top_k, zero_fraction ------------------------------------------------------

declare("L2Loss", inputs=["t: T"], outputs=["output: T"], attrs={"T": Type(FLOAT)},
        shape=lambda ctx: [TensorShape([])],
        kernel=lambda node, kctx: lambda t: torch.sum(t * t) / 2, grad_names=names("mul"),
        flops=flops.l2_loss)


def l2_loss(t: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.l2_loss`: sum(t ** 2) / 2."""
    return apply_op1("L2Loss", [t], name=name)


def _top_k_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    k = ctx.const(1)
    if s.rank is not None and s.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    if k is not None and int(k) < 0:
        raise ValueError(f"Input 'k' must be >= 0 but is {int(k)} {node_desc(ctx)}")
    if s.rank is None:
        return [unknown_shape(), unknown_shape()]
    dims = s.as_list()
    last = dims[-1]
    if k is not None and last is not None and last < int(k):
        raise ValueError(f"input must have last dimension >= k = {int(k)} but is {last} "
                         f"{node_desc(ctx)}")
    dims[-1] = None if k is None else int(k)
    return [TensorShape(dims), TensorShape(dims)]


def _top_k_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    k_static = static_ints(node, 1)
    index_dtype = node.attrs["index_type"].torch_dtype

    def top_k(x: torch.Tensor, k: Any) -> tuple:
        kk = k_static[0] if k_static is not None else int(k)
        n = x.shape[-1]
        if kk < 0:
            raise errors.InvalidArgumentError(None, None, f"Need k >= 0, got {kk}")
        if n < kk:
            raise errors.InvalidArgumentError(
                None, None, f"input must have at least k columns. Had {n}, needed {kk}")
        # A stable descending sort keeps equal values in index order (TF's tie rule:
        # the lower index comes first), which torch.topk does not promise.
        values, indices = torch.sort(x, dim=-1, descending=True, stable=True)
        return values[..., :kk], indices[..., :kk].to(index_dtype)
    return top_k


declare("TopKV2", inputs=["input: T", "k: Tk"], outputs=["values: T", "indices: index_type"],
        attrs={"sorted": True, "T": Type(REAL), "Tk": Type((D.int16, D.int32, D.int64),
                                                            default=D.int32),
               "index_type": Type((D.int16, D.int32, D.int64), default=D.int32)},
        shape=_top_k_shape, kernel=_top_k_kernel)


def top_k(input: Any, k: Any = 1, sorted: bool = True, name: Optional[str] = None,  # noqa: A002
          index_type: Any = D.int32) -> Any:
    """`tf.nn.top_k`: the k largest entries of the last axis and their indices."""
    op = apply_op("TopKV2", [input, k], {"sorted": bool(sorted),
                                         "index_type": D.as_dtype(index_type)}, name=name)
    return TopKV2(*op._outputs)


TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def _nth_element_shape(ctx: Any) -> List[TensorShape]:
    x = ctx.shape(0)
    if x.rank is not None and x.rank < 1:
        raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
    n = ctx.const(1)
    if n is not None and int(n) < 0:
        raise ValueError(f"Need n >= 0, got {int(n)} {node_desc(ctx)}")
    if x.rank is None:
        return [unknown_shape()]
    last = x.as_list()[-1]
    if n is not None and last is not None and last <= int(n):
        raise ValueError(f"Input must have last dimension > n = {int(n)} {node_desc(ctx)}")
    return [TensorShape(x.as_list()[:-1])]


class _NthElementFn(torch.autograd.Function):
    """The n-th smallest (largest with `reverse`) entry of the last axis; its gradient
    is shared equally by the entries equal to it, as TF's _NthElementGrad."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, n: int,  # type: ignore[override]
                reverse: bool) -> torch.Tensor:
        out = torch.sort(x, dim=-1, descending=reverse).values[..., n]
        ctx.save_for_backward(x, out)
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:  # type: ignore[override]
        x, out = ctx.saved_tensors
        hits = (x == out.unsqueeze(-1)).to(grad.dtype)
        share = hits / hits.sum(dim=-1, keepdim=True)
        return share * grad.unsqueeze(-1), None, None


def _nth_element_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    reverse = bool(node.attrs["reverse"])

    def nth_element(x: torch.Tensor, n: Any) -> torch.Tensor:
        nn = int(n)
        if nn < 0:
            raise errors.InvalidArgumentError(None, None, f"Need n >= 0, got {nn}")
        if x.shape[-1] <= nn:
            raise errors.InvalidArgumentError(
                None, None, f"Input must have at least n+1 columns, but got {x.shape[-1]}")
        return _NthElementFn.apply(x, nn, reverse)
    return nth_element


declare("NthElement", inputs=["input: T", "n: int32"], outputs=["values: T"],
        attrs={"reverse": False, "T": Type(REAL)}, shape=_nth_element_shape,
        kernel=_nth_element_kernel, grad_none_inputs=(1,),
        doc="The n-th smallest (with `reverse`, largest) value of the last axis.")


def nth_element(input: Any, n: Any, reverse: bool = False,  # noqa: A002
                name: Optional[str] = None) -> Tensor:
    """`tf.contrib.nn.nth_element`: the n-th order statistic of the last axis."""
    return apply_op1("NthElement", [input, n], {"reverse": bool(reverse)}, name=name)


def _in_top_k_shape(ctx: Any) -> List[TensorShape]:
    p, t = ctx.shape(0), ctx.shape(1)
    if p.rank is not None and p.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {p.rank} {node_desc(ctx)}")
    if t.rank is not None and t.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {t.rank} {node_desc(ctx)}")
    batch = p.as_list()[0] if p.rank == 2 else None
    tb = t.as_list()[0] if t.rank == 1 else None
    if batch is not None and tb is not None and batch != tb:
        raise ValueError(f"Dimensions must be equal, but are {batch} and {tb} "
                         f"{node_desc(ctx)}")
    return [TensorShape([batch if batch is not None else tb])]


def _in_top_k_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def in_top_k(pred: torch.Tensor, target: torch.Tensor, k: Any) -> torch.Tensor:
        kk = int(k)
        n = pred.shape[1]
        if pred.shape[0] != target.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, f"First dimension of predictions {pred.shape[0]} must match "
                            f"length of targets {target.shape[0]}")
        valid = (target >= 0) & (target < n)
        safe = torch.where(valid, target, torch.zeros_like(target)).long()
        target_pred = pred.gather(1, safe[:, None])
        better = (pred > target_pred).sum(dim=1)
        # TF answers False where it "cannot say": a target out of range or non-finite.
        return valid & torch.isfinite(target_pred[:, 0]) & (better < kk)
    return in_top_k


declare("InTopKV2", inputs=["predictions: float32", "targets: T", "k: T"],
        outputs=["precision: bool"], attrs={"T": Type((D.int32, D.int64), default=D.int32)},
        shape=_in_top_k_shape, kernel=_in_top_k_kernel, grad="none")


def in_top_k(predictions: Any, targets: Any, k: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.in_top_k`: whether each target is among the top k predictions (ties count)."""
    with name_scope(name, "in_top_k"):
        return apply_op1("InTopKV2", [predictions, targets, k], name=name)


def zero_fraction(value: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.zero_fraction`: the fraction of zeros in `value` (float32 scalar).

    TF counts non-zeros inside a `tf.cond` (int32 counts for small tensors); without
    graph control flow here the count is made directly in int64, so the result is the
    same while the helper ops inside the scope differ.
    """
    from tf1compat.ops.reduction_ops import count_nonzero
    with name_scope(name, "zero_fraction", [value]):
        value = convert_to_tensor(value, name="value")
        size = array_ops.size(value, out_type=D.int64)
        num_nonzero = count_nonzero(value, dtype=D.int64)
        with name_scope("counts_to_fraction"):
            num_zero = math_ops.subtract(size, num_nonzero)
            fraction = math_ops.truediv(math_ops.cast(num_zero, D.float32),
                                        math_ops.cast(size, D.float32))
        return array_ops.identity(fraction, name="fraction")
