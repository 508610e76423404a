"""The rest of `tf.math`: complex numbers (Complex, Angle), Xlog1py, NextAfter,
CumulativeLogsumexp, ApproxTopK (declared; like TF it has no CPU/GPU kernel), and the composite
`tf.math.polyval`, `tf.math.reciprocal_no_nan`."""

from __future__ import annotations

import collections
import math
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare, no_kernel
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._grad_formulas import sum_to, xlog1py_formula
from tf1compat.ops._kernels import static_ints
from tf1compat.ops._shape_rules import _attr_text, broadcast_rule, node_desc, unary_rule

__all__ = ["complex", "angle", "xlog1py", "nextafter", "cumulative_logsumexp",
           "approx_max_k", "approx_min_k", "approx_top_k", "polyval", "reciprocal_no_nan"]

_REAL = (D.float32, D.float64)
_COMPLEX = (D.complex64, D.complex128)
_HALF_FLOAT = (D.bfloat16, D.float16, D.float32, D.float64)


# -- Complex, Angle ----------------------------------------------------------------------

declare("Complex", inputs=["real: T", "imag: T"], outputs=["out: Tout"],
        attrs={"T": Type(_REAL, default=D.float32), "Tout": Type(_COMPLEX, default=D.complex64)},
        shape=broadcast_rule,
        kernel=lambda node, kctx: (lambda re, im: torch.complex(*torch.broadcast_tensors(re,
                                                                                          im))))
declare("Angle", inputs=["input: T"], outputs=["output: Tout"],
        attrs={"T": Type(_COMPLEX, default=D.complex64), "Tout": Type(_REAL, default=D.float32)},
        shape=unary_rule, kernel=lambda node, kctx: torch.angle)


def complex(real: Any, imag: Any, name: Optional[str] = None) -> Tensor:  # noqa: A001
    """`tf.complex`: real + imag * 1j (float32 -> complex64, float64 -> complex128)."""
    real = convert_to_tensor(real, name="real")
    imag = convert_to_tensor(imag, name="imag")
    with name_scope(name, "Complex", [real, imag]) as scope:
        types = (real.dtype.base_dtype, imag.dtype.base_dtype)
        if types == (D.float64, D.float64):
            out = D.complex128
        elif types == (D.float32, D.float32):
            out = D.complex64
        else:
            raise TypeError("The `real` and `imag` components have incorrect types: "
                            f"{real.dtype.name} {imag.dtype.name}. They must be consistent, "
                            "and one of [tf.float32, tf.float64]")
        return apply_op1("Complex", [real, imag], {"Tout": out}, name=scope)


def angle(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.angle`: the argument of complex numbers; pi for negative reals, else 0."""
    from tf1compat.ops.creation_ops import ones_like, zeros_like
    from tf1compat.ops.indexing_ops import where
    with name_scope(name, "Angle", [input]) as scope:
        input = convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return apply_op1("Angle", [input], {"Tout": input.dtype.real_dtype}, name=scope)
        return where(input < 0, np.pi * ones_like(input), zeros_like(input))


# -- Xlog1py, NextAfter --------------------------------------------------------------------

def _xlog1py(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
    return torch.where(x == 0, torch.zeros_like(x * y), x * torch.log1p(y))


declare("Xlog1py", inputs=["x: T", "y: T"], outputs=["z: T"],
        attrs={"T": Type((D.float16, D.bfloat16, D.float32, D.float64) + _COMPLEX)},
        shape=broadcast_rule, kernel=lambda node, kctx: _xlog1py,
        grad_formula=xlog1py_formula)


class _NextAfter(torch.autograd.Function):
    """nextafter with TF's gradient: the incoming gradient for x1, zeros for x2."""

    @staticmethod
    def forward(ctx, x1, x2):  # type: ignore[override]
        ctx.shapes = (x1.shape, x2.shape)
        return torch.nextafter(x1, x2)

    @staticmethod
    def backward(ctx, grad):  # type: ignore[override]
        shape1, shape2 = ctx.shapes
        return sum_to(grad, shape1), grad.new_zeros(shape2)


def _next_after(x1: torch.Tensor, x2: torch.Tensor) -> torch.Tensor:
    if x1.requires_grad or x2.requires_grad:
        return _NextAfter.apply(x1, x2)
    return torch.nextafter(x1, x2)


declare("NextAfter", inputs=["x1: T", "x2: T"], outputs=["output: T"],
        attrs={"T": Type((D.float64, D.float32), default=D.float32)},
        shape=broadcast_rule, kernel=lambda node, kctx: _next_after)


def xlog1py(x: Any, y: Any, name: Optional[str] = None) -> Tensor:
    """`tf.math.xlog1py`: x * log1p(y), 0 where x == 0."""
    with name_scope(name, "xlog1py", [x]):
        return apply_op1("Xlog1py", [x, y])


def nextafter(x1: Any, x2: Any, name: Optional[str] = None) -> Tensor:
    """`tf.math.nextafter`: the next representable value of x1 towards x2."""
    return apply_op1("NextAfter", [x1, x2], name=name)


# -- CumulativeLogsumexp -----------------------------------------------------------------------

def _cumulative_logsumexp_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    exclusive, reverse = node.attrs["exclusive"], node.attrs["reverse"]
    axis = static_ints(node, 1)

    def cumulative_logsumexp(x: torch.Tensor, a: Any) -> torch.Tensor:
        k = axis[0] if axis is not None else int(a)
        if not -x.dim() <= k < max(x.dim(), 1):
            raise errors.InvalidArgumentError(
                None, None, f"ScanOp: Expected scan axis in the range [{-x.dim()}, "
                            f"{x.dim()}), but got {k}")
        k %= max(x.dim(), 1)
        work = x.float() if x.dtype in (torch.float16, torch.bfloat16) else x
        if reverse:
            work = torch.flip(work, [k])
        if exclusive:
            first = torch.full_like(work.narrow(k, 0, 1), -math.inf)
            work = torch.cat([first, work.narrow(k, 0, work.shape[k] - 1)], dim=k)
        out = torch.logcumsumexp(work, dim=k)
        if reverse:
            out = torch.flip(out, [k])
        return out.to(x.dtype)
    return cumulative_logsumexp


def _scan_shape(ctx: Any) -> List[TensorShape]:
    axis = ctx.shape(1)
    if axis.rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {axis.rank} {node_desc(ctx)}")
    return [ctx.shape(0)]


declare("CumulativeLogsumexp", inputs=["x: T", "axis: Tidx"], outputs=["out: T"],
        attrs={"exclusive": False, "reverse": False, "T": Type(_HALF_FLOAT),
               "Tidx": Type((D.int32, D.int64), default=D.int32)},
        shape=_scan_shape, kernel=_cumulative_logsumexp_kernel)


def cumulative_logsumexp(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
                         name: Optional[str] = None) -> Tensor:
    """`tf.math.cumulative_logsumexp`: log(cumsum(exp(x))) along `axis`, computed stably."""
    with name_scope(name, "CumulativeLogsumexp", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return apply_op1("CumulativeLogsumexp", [x, axis],
                         {"exclusive": exclusive, "reverse": reverse}, name=scope)


# -- ApproxTopK -------------------------------------------------------------------------------

def _approx_top_k_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is None:
        return [s, s]
    dim = ctx.attr("reduction_dimension") % max(s.rank, 1)
    dims = s.as_list()
    dims[dim] = ctx.attr("k")
    return [TensorShape(dims), TensorShape(dims)]


def _approx_top_k_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    # TF 2.21 registers a CPU kernel only for is_max_k=True, reduction_dimension=-1: the
    # exact top k, sorted (torch.topk). Other attrs have no kernel (TPUs only).
    if not node.attrs["is_max_k"] or node.attrs["reduction_dimension"] != -1:
        attrs = ", ".join(f"{k}={_attr_text(v)}" for k, v in sorted(node.attrs.items()))
        raise no_kernel(node, attrs)
    k = node.attrs["k"]

    def run(x: torch.Tensor) -> tuple:
        values, indices = torch.topk(x, k, dim=-1, largest=True, sorted=True)
        return values, indices.to(torch.int32)
    return run


declare("ApproxTopK", inputs=["input: T"], outputs=["values: T", "indices: int32"],
        attrs={"k": 0, "reduction_dimension": -1, "recall_target": 0.95, "is_max_k": True,
               "reduction_input_size_override": -1, "aggregate_to_topk": True,
               "T": Type((D.float16, D.bfloat16, D.float32))},
        shape=_approx_top_k_shape, kernel=_approx_top_k_kernel)

ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])


def _approx_k(largest: bool) -> Callable[..., Any]:
    def fn(operand: Any, k: int, reduction_dimension: int = -1, recall_target: float = 0.95,
           reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
           name: Optional[str] = None) -> ApproxTopK:
        op = apply_op("ApproxTopK", [operand],
                      {"k": int(k), "reduction_dimension": int(reduction_dimension),
                       "recall_target": float(recall_target), "is_max_k": largest,
                       "reduction_input_size_override": int(reduction_input_size_override),
                       "aggregate_to_topk": bool(aggregate_to_topk)}, name=name)
        return ApproxTopK(*op.outputs)
    fn.__name__ = "approx_max_k" if largest else "approx_min_k"
    fn.__doc__ = (f"`tf.math.{fn.__name__}`: the k {'largest' if largest else 'smallest'} "
                  "values along `reduction_dimension` (TPU-only in TF: running it fails "
                  "with TF's no-kernel error).")
    return fn


approx_max_k = _approx_k(True)
approx_min_k = _approx_k(False)


# -- composites --------------------------------------------------------------------------------

def polyval(coeffs: Any, x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.math.polyval`: coeffs[0] * x^(n-1) + ... + coeffs[n-1] by Horner's rule."""
    from tf1compat.ops.creation_ops import zeros_like
    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    with name_scope(name, "polyval", list(coeffs) + [x]) as scope:
        x = convert_to_tensor(x, name="x")
        if not coeffs:
            return zeros_like(x, name=scope)
        coeffs = [convert_to_tensor(c, name=f"coeff_{i}") for i, c in enumerate(coeffs)]
        p = coeffs[0]
        for c in coeffs[1:]:
            p = c + p * x
        return p


def reciprocal_no_nan(x: Any, name: Optional[str] = None) -> Tensor:
    """`tf.math.reciprocal_no_nan`: 1 / x, 0 where x == 0."""
    with name_scope(name, "reciprocal_no_nan", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        one = constant(1, dtype=x.dtype.base_dtype, name="one")
        return apply_op1("DivNoNan", [one, x], name=scope)


def approx_top_k(input: Any, k: int, reduction_dimension: int = -1,  # noqa: A002
                 recall_target: float = 0.95, is_max_k: bool = True,
                 reduction_input_size_override: int = -1, aggregate_to_topk: bool = True,
                 name: Optional[str] = None) -> ApproxTopK:
    """`tf.approx_top_k`: the ApproxTopK op with its own arguments (TPU-only in TF)."""
    return _approx_k(bool(is_max_k))(input, k, reduction_dimension, recall_target,
                                      reduction_input_size_override, aggregate_to_topk,
                                      name=name)

