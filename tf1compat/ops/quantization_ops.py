"""`tf.quantization`: fake quantization (FakeQuantWithMinMaxArgs/Vars/VarsPerChannel and
their *Gradient ops), quantize-and-dequantize (QuantizeAndDequantizeV2/V4, V4Grad).

Both simulate integer quantization in floating point, in TF's float32 arithmetic (the
nudged range, `floor(x / scale + 0.5)` with TF's reciprocal scale), so outputs match TF
bit for bit. Gradients are TF's straight-through rules: the incoming gradient where the
input lies inside the (nudged) range, and for the Vars ops the sums of the gradient below
min and above max.

`tf.quantization.quantize`, `dequantize`, `quantized_concat` and the `tf.nn.quantized_*` ops
work on TF's quantized dtypes (qint8, quint8, qint32, ...), which tf1compat has no tensors
of: they are not provided (framework/unsupported_api.py gives the reason and alternatives;
using them raises UnimplementedAPIError, a NotImplementedError).
"""

from __future__ import annotations

import collections
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import Type, declare, no_kernel
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.grad_names import Pass, names
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import _attr_text, merge_shapes, node_desc

__all__ = ["fake_quant_with_min_max_args", "fake_quant_with_min_max_args_gradient",
           "fake_quant_with_min_max_vars", "fake_quant_with_min_max_vars_gradient",
           "fake_quant_with_min_max_vars_per_channel",
           "fake_quant_with_min_max_vars_per_channel_gradient", "quantize_and_dequantize",
           "quantize_and_dequantize_v2"]

_HALF_FLOAT = (D.bfloat16, D.float16, D.float32, D.float64)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _round_half_away(x: torch.Tensor) -> torch.Tensor:
    """std::round: halves away from zero, exact in float32."""
    whole = torch.trunc(x)
    return whole + torch.where((x - whole).abs() >= 0.5, torch.sign(x), torch.zeros_like(x))


def _nudge(lo: torch.Tensor, hi: torch.Tensor, num_bits: int, narrow_range: bool
           ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor, torch.Tensor]:
    """TF's Nudge, in float32: (nudged_min, nudged_max, scale, inverse scale) placing an
    integer level at zero. TF computes the inverse from the range, not as 1 / scale."""
    q_lo = 1.0 if narrow_range else 0.0
    q_hi = float((1 << num_bits) - 1)
    scale = (hi - lo) / (q_hi - q_lo)
    inverse = (q_hi - q_lo) / (hi - lo)
    zero_from_min = q_lo - lo / scale
    zero = torch.where(zero_from_min < q_lo, torch.full_like(lo, q_lo),
                       torch.where(zero_from_min > q_hi, torch.full_like(lo, q_hi),
                                   _round_half_away(zero_from_min)))
    return (q_lo - zero) * scale, (q_hi - zero) * scale, scale, inverse


def _fake_quant(x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor, num_bits: int,
                narrow_range: bool, divide: bool) -> torch.Tensor:
    """The levels of TF's functors: `floor(shifted * inverse - zero + 0.5) * scale`
    (FakeQuantWithMinMaxVars divides by the scale instead); a channel whose min and max
    are both 0 is 0 (the Vars ops)."""
    nudged_lo, nudged_hi, scale, inverse = _nudge(lo, hi, num_bits, narrow_range)
    zero = torch.floor(-nudged_lo * inverse + 0.5)
    shifted = torch.maximum(torch.minimum(x, nudged_hi), nudged_lo) - nudged_lo
    levels = shifted / scale if divide else shifted * inverse
    out = torch.floor(levels - zero + 0.5) * scale
    return torch.where((lo == 0) & (hi == 0), torch.zeros_like(out), out)


def _fake_quant_backprops(g: torch.Tensor, x: torch.Tensor, lo: torch.Tensor,
                          hi: torch.Tensor, num_bits: int, narrow_range: bool,
                          reduce_dims: Optional[Tuple[int, ...]]) -> tuple:
    """(d/d inputs, d/d min, d/d max) of TF's FakeQuant*Gradient kernels."""
    nudged_lo, nudged_hi, _, _ = _nudge(lo, hi, num_bits, narrow_range)
    zero = torch.zeros_like(g)
    # A channel whose min and max are both 0 passes the whole gradient to the input.
    unset = (lo == 0) & (hi == 0)
    inside = ((x >= nudged_lo) & (x <= nudged_hi)) | unset
    d_input = torch.where(inside, g, zero)
    if reduce_dims is None:
        return (d_input,)
    d_min = torch.where((x < nudged_lo) & ~unset, g, zero).sum(dim=reduce_dims)
    d_max = torch.where((x > nudged_hi) & ~unset, g, zero).sum(dim=reduce_dims)
    return d_input, d_min, d_max


def _check_bits(num_bits: int) -> None:
    if not 2 <= num_bits <= 16:
        raise _invalid("num_bits must be between 2 and 16, inclusive")


class _FakeQuantApply(torch.autograd.Function):
    """forward: the fake-quantized input; backward: TF's FakeQuant*Gradient rules."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor,
                num_bits: int, narrow_range: bool, per_channel: bool, divide: bool
                ) -> torch.Tensor:
        ctx.save_for_backward(x, lo, hi)
        ctx.facts = (num_bits, narrow_range, per_channel)
        return _fake_quant(x, lo, hi, num_bits, narrow_range, divide)

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple:
        x, lo, hi = ctx.saved_tensors
        num_bits, narrow_range, per_channel = ctx.facts
        dims = tuple(range(x.dim() - 1)) if per_channel else tuple(range(x.dim()))
        d_input, d_min, d_max = _fake_quant_backprops(g, x, lo, hi, num_bits, narrow_range,
                                                      dims)
        return d_input, d_min, d_max, None, None, None, None


def _args_range(node: Any) -> Tuple[float, float, int, bool]:
    lo, hi = float(node.attrs["min"]), float(node.attrs["max"])
    num_bits, narrow = int(node.attrs["num_bits"]), bool(node.attrs["narrow_range"])
    return lo, hi, num_bits, narrow


def _check_args(lo: float, hi: float, num_bits: int) -> None:
    if not lo < hi:
        raise _invalid(f"min has to be smaller than max, was: {lo:g} >= {hi:g}")
    _check_bits(num_bits)


def _args_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    lo, hi, num_bits, narrow = _args_range(node)
    gradient_op = node.type == "FakeQuantWithMinMaxArgsGradient"

    def fake_quant_args(*args: torch.Tensor) -> torch.Tensor:
        _check_args(lo, hi, num_bits)
        x = args[-1]
        bounds = [torch.tensor(v, dtype=torch.float32, device=x.device) for v in (lo, hi)]
        if gradient_op:
            return _fake_quant_backprops(args[0], x, *bounds, num_bits, narrow, None)[0]
        if x.requires_grad:
            return _FakeQuantApply.apply(x, *bounds, num_bits, narrow, False, False)
        return _fake_quant(x, *bounds, num_bits, narrow, False)
    return fake_quant_args


def _vars_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    num_bits, narrow = int(node.attrs["num_bits"]), bool(node.attrs["narrow_range"])
    per_channel = "PerChannel" in node.type
    gradient_op = node.type.endswith("Gradient")

    def fake_quant_vars(*args: torch.Tensor) -> Any:
        _check_bits(num_bits)
        if gradient_op:
            g, x, lo, hi = args
            dims = tuple(range(x.dim() - 1)) if per_channel else tuple(range(x.dim()))
            return _fake_quant_backprops(g, x, lo, hi, num_bits, narrow, dims)
        x, lo, hi = args
        if x.requires_grad or lo.requires_grad or hi.requires_grad:
            return _FakeQuantApply.apply(x, lo, hi, num_bits, narrow, per_channel,
                                         not per_channel)
        return _fake_quant(x, lo, hi, num_bits, narrow, not per_channel)
    return fake_quant_vars


def _range_rule(ctx: Any, first_range: int, per_channel: bool) -> TensorShape:
    """The inputs' shape after TF's checks of min/max (scalars, or vectors of the last
    dimension's size per channel)."""
    inputs = ctx.shape(first_range - 1)
    want = 1 if per_channel else 0
    depth = inputs.as_list()[-1] if per_channel and inputs.rank else None
    for i in (first_range, first_range + 1):
        s = ctx.shape(i)
        if s.rank is not None and s.rank != want:
            raise ValueError(f"Shape must be rank {want} but is rank {s.rank} "
                             f"{node_desc(ctx)}")
        if per_channel and s.rank == 1:
            size = s.as_list()[0]
            if depth is not None and size is not None and size != depth:
                raise ValueError(f"Dimensions must be equal, but are {depth} and {size} "
                                 f"{node_desc(ctx)}")
            depth = depth if depth is not None else size
    return TensorShape([depth] if per_channel else [])


def _vars_shape(ctx: Any) -> List[TensorShape]:
    _range_rule(ctx, 1, "PerChannel" in ctx.op_type)
    return [ctx.shape(0)]


def _vars_gradient_shape(ctx: Any) -> List[TensorShape]:
    ranges = _range_rule(ctx, 2, "PerChannel" in ctx.op_type)
    inputs = merge_shapes(ctx.shape(0), ctx.shape(1), ctx)
    return [inputs, ranges, ranges]


_BITS = {"num_bits": 8, "narrow_range": False}
_ARGS_ATTRS = {"min": -6.0, "max": 6.0, **_BITS}
declare("FakeQuantWithMinMaxArgs", inputs=["inputs: float32"], outputs=["outputs: float32"],
        attrs=dict(_ARGS_ATTRS), shape=lambda ctx: [ctx.shape(0)], kernel=_args_kernel,
        grad_names=names("FakeQuantWithMinMaxArgsGradient"))
declare("FakeQuantWithMinMaxArgsGradient", inputs=["gradients: float32", "inputs: float32"],
        outputs=["backprops: float32"], attrs=dict(_ARGS_ATTRS),
        shape=lambda ctx: [merge_shapes(ctx.shape(0), ctx.shape(1), ctx)],
        kernel=_args_kernel, grad="none")
for _type in ("FakeQuantWithMinMaxVars", "FakeQuantWithMinMaxVarsPerChannel"):
    _grad_type = _type + "Gradient"
    declare(_type, inputs=["inputs: float32", "min: float32", "max: float32"],
            outputs=["outputs: float32"], attrs=dict(_BITS), shape=_vars_shape,
            kernel=_vars_kernel,
            grad_names=names(_grad_type, _grad_type + ":1", _grad_type + ":2"))
    declare(_grad_type, inputs=["gradients: float32", "inputs: float32", "min: float32",
                                "max: float32"],
            outputs=["backprops_wrt_input: float32", "backprop_wrt_min: float32",
                     "backprop_wrt_max: float32"],
            attrs=dict(_BITS), shape=_vars_gradient_shape, kernel=_vars_kernel,
            grad="none")


def fake_quant_with_min_max_args(inputs: Any, min: float = -6.0, max: float = 6.0,  # noqa: A002
                                 num_bits: int = 8, narrow_range: bool = False,
                                 name: Optional[str] = None) -> Tensor:
    """`tf.quantization.fake_quant_with_min_max_args`: float32 values rounded to the
    2**num_bits levels of the nudged [min, max] range (attrs)."""
    return apply_op1("FakeQuantWithMinMaxArgs", [inputs],
                     {"min": float(min), "max": float(max), "num_bits": int(num_bits),
                      "narrow_range": bool(narrow_range)}, name=name)


def fake_quant_with_min_max_args_gradient(gradients: Any, inputs: Any, min: float = -6.0,  # noqa: A002
                                          max: float = 6.0, num_bits: int = 8,  # noqa: A002
                                          narrow_range: bool = False,
                                          name: Optional[str] = None) -> Tensor:
    """`tf.quantization.fake_quant_with_min_max_args_gradient`: `gradients` where
    `inputs` lies in the nudged range, else 0."""
    return apply_op1("FakeQuantWithMinMaxArgsGradient", [gradients, inputs],
                     {"min": float(min), "max": float(max), "num_bits": int(num_bits),
                      "narrow_range": bool(narrow_range)}, name=name)


def _vars_op(op_type: str) -> Callable[..., Tensor]:
    def fake_quant(inputs: Any, min: Any, max: Any, num_bits: int = 8,  # noqa: A002
                   narrow_range: bool = False, name: Optional[str] = None) -> Tensor:
        return apply_op1(op_type, [inputs, min, max],
                         {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)},
                         name=name)
    fake_quant.__name__ = fake_quant.__qualname__ = _snake(op_type)
    fake_quant.__doc__ = (f"`tf.quantization.{_snake(op_type)}`: fake quantization with the "
                          f"range given by tensors (op {op_type}).")
    return fake_quant


def _vars_gradient_op(op_type: str) -> Callable[..., tuple]:
    def fake_quant_gradient(gradients: Any, inputs: Any, min: Any, max: Any,  # noqa: A002
                            num_bits: int = 8, narrow_range: bool = False,
                            name: Optional[str] = None) -> tuple:
        op = apply_op(op_type, [gradients, inputs, min, max],
                      {"num_bits": int(num_bits), "narrow_range": bool(narrow_range)},
                      name=name)
        return _GRADIENT_RESULT[op_type](*op.outputs)
    fake_quant_gradient.__name__ = fake_quant_gradient.__qualname__ = _snake(op_type)
    fake_quant_gradient.__doc__ = (f"`tf.quantization.{_snake(op_type)}`: backprops for the "
                                   f"input, min and max (op {op_type}).")
    return fake_quant_gradient


def _snake(op_type: str) -> str:
    out = []
    for i, ch in enumerate(op_type):
        if ch.isupper() and i:
            out.append("_")
        out.append(ch.lower())
    return "".join(out)


_GRADIENT_RESULT = {t: collections.namedtuple(t, ["backprops_wrt_input", "backprop_wrt_min",
                                                   "backprop_wrt_max"])
                    for t in ("FakeQuantWithMinMaxVarsGradient",
                              "FakeQuantWithMinMaxVarsPerChannelGradient")}
fake_quant_with_min_max_vars = _vars_op("FakeQuantWithMinMaxVars")
fake_quant_with_min_max_vars_per_channel = _vars_op("FakeQuantWithMinMaxVarsPerChannel")
fake_quant_with_min_max_vars_gradient = _vars_gradient_op("FakeQuantWithMinMaxVarsGradient")
fake_quant_with_min_max_vars_per_channel_gradient = _vars_gradient_op(
    "FakeQuantWithMinMaxVarsPerChannelGradient")


# -- QuantizeAndDequantizeV2 / V4 -------------------------------------------------------------

def _qdq_range(x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor, axis: int,
               range_given: bool) -> Tuple[torch.Tensor, torch.Tensor]:
    """The range per channel (axis >= 0) or for the whole tensor, shaped to broadcast."""
    if axis < 0:
        if not range_given:
            lo, hi = x.min(), x.max()
        return lo.reshape(()), hi.reshape(())
    view = [1] * x.dim()
    view[axis] = x.shape[axis]
    if not range_given:
        moved = x.movedim(axis, 0).reshape(x.shape[axis], -1)
        lo, hi = moved.min(dim=1).values, moved.max(dim=1).values
    return lo.reshape(view), hi.reshape(view)


def _quantize_dequantize(x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor, signed: bool,
                         num_bits: int, range_given: bool, round_mode: str,
                         narrow_range: bool, axis: int) -> torch.Tensor:
    """TF's QuantizeAndDequantizeOneScale / PerChannel functors, in the input's dtype."""
    lo, hi = _qdq_range(x, lo, hi, axis, range_given)
    if signed:
        q_min = -(1 << (num_bits - 1)) + (1 if narrow_range else 0)
        q_max = (1 << (num_bits - 1)) - 1
    else:
        q_min, q_max = 0, (1 << num_bits) - 1
    big = torch.full_like(lo, torch.finfo(x.dtype).max)
    from_min = torch.where(q_min * lo > 0, q_min / lo, big)
    from_max = torch.where(q_max * hi > 0, q_max / hi, big)
    use_min = from_min < from_max
    scale = torch.where(use_min, from_min, from_max)
    inverse = torch.where(use_min, lo / q_min if q_min else torch.zeros_like(lo),
                          hi / q_max)
    if range_given:
        hi = torch.where(use_min, q_max * inverse, hi)
        lo = torch.where(use_min, lo, q_min * inverse)
        x = torch.maximum(torch.minimum(x, hi), lo)
    scaled = x * scale
    rounded = torch.floor(scaled + 0.5) if round_mode == "HALF_UP" else torch.round(scaled)
    return rounded * inverse


class _QuantizeDequantizeV4(torch.autograd.Function):
    """QuantizeAndDequantizeV4 with TF's gradient: pass-through inside [input_min,
    input_max] (QuantizeAndDequantizeV4Grad), nothing for the range inputs."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor,
                run: Callable[..., torch.Tensor], axis: int) -> torch.Tensor:
        ctx.save_for_backward(x, lo, hi)
        ctx.axis = axis
        return run(x, lo, hi)

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple:
        x, lo, hi = ctx.saved_tensors
        return _qdq_backprop(g, x, lo, hi, ctx.axis)[0], None, None, None, None


class _StraightThrough(torch.autograd.Function):
    """QuantizeAndDequantizeV2 with TF's gradient: the incoming one, unchanged."""

    @staticmethod
    def forward(ctx: Any, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor,
                run: Callable[..., torch.Tensor]) -> torch.Tensor:
        return run(x, lo, hi)

    @staticmethod
    def backward(ctx: Any, g: torch.Tensor) -> tuple:
        return g, None, None, None


def _qdq_backprop(g: torch.Tensor, x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor,
                  axis: int) -> tuple:
    if axis >= 0:
        view = [1] * x.dim()
        view[axis] = x.shape[axis]
        lo, hi = lo.reshape(view), hi.reshape(view)
    inside = (x >= lo) & (x <= hi)
    return (torch.where(inside, g, torch.zeros_like(g)), torch.zeros_like(lo).reshape(-1)
            if axis >= 0 else torch.zeros_like(lo), torch.zeros_like(hi).reshape(-1)
            if axis >= 0 else torch.zeros_like(hi))


def _qdq_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    signed, num_bits = bool(attrs["signed_input"]), int(attrs["num_bits"])
    range_given, round_mode = bool(attrs["range_given"]), attrs["round_mode"]
    narrow, axis = bool(attrs["narrow_range"]), int(attrs["axis"])
    with_grad = node.type == "QuantizeAndDequantizeV4"
    if attrs["T"] in (D.float16, D.bfloat16):
        # TF registers these ops' CPU kernels for float and double only.
        raise no_kernel(node, ", ".join(f"{k}={_attr_text(v)}"
                                        for k, v in sorted(attrs.items())))

    def run(x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor) -> torch.Tensor:
        if not 0 < num_bits < (62 if signed else 63):
            raise _invalid(f"num_bits is out of range: {num_bits} with signed_input_ "
                           f"{int(signed)}")
        if axis >= x.dim():
            raise _invalid(f"Axis requested is larger than input dimensions. Axis: {axis} "
                           f"Input Dimensions: {x.dim()}")
        if range_given:
            # TF checks for scalars even with an axis (per-channel ranges need
            # range_given=False).
            if lo.dim() != 0:
                raise _invalid("input_min must be a scalar.")
            if hi.dim() != 0:
                raise _invalid("input_max must be a scalar.")
            if float(lo) > float(hi):
                raise _invalid(f"Invalid range: input_min {float(lo):g} > input_max "
                               f"{float(hi):g}")
        return _quantize_dequantize(x, lo, hi, signed, num_bits, range_given, round_mode,
                                    narrow, axis)

    def quantize_and_dequantize(x: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor
                                ) -> torch.Tensor:
        if not x.requires_grad:
            return run(x, lo, hi)
        if with_grad:
            return _QuantizeDequantizeV4.apply(x, lo, hi, run, axis)
        return _StraightThrough.apply(x, lo, hi, run)
    return quantize_and_dequantize


def _qdq_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axis = int(node.attrs["axis"])
    return lambda g, x, lo, hi: _qdq_backprop(g, x, lo, hi, axis)


def _qdq_shape(ctx: Any) -> List[TensorShape]:
    axis = ctx.attr("axis")
    want = 0 if axis == -1 else 1
    inputs = ctx.shape(0)
    depth = inputs.as_list()[axis] if axis >= 0 and inputs.rank is not None \
        and axis < inputs.rank else None
    for i in (1, 2):
        s = ctx.shape(i)
        if s.rank is not None and s.rank != want:
            raise ValueError(f"Shape must be rank {want} but is rank {s.rank} "
                             f"{node_desc(ctx)}")
        size = s.as_list()[0] if want and s.rank == 1 else None
        if depth is not None and size is not None and size != depth:
            raise ValueError(f"Dimensions must be equal, but are {size} and {depth} "
                             f"{node_desc(ctx)}")
    return [inputs]


_QDQ_ATTRS = {"signed_input": True, "num_bits": 8, "range_given": False,
              "T": Type(_HALF_FLOAT), "round_mode": "HALF_TO_EVEN", "narrow_range": False,
              "axis": -1}
for _type in ("QuantizeAndDequantizeV2", "QuantizeAndDequantizeV4"):
    declare(_type, inputs=["input: T", "input_min: T", "input_max: T"], outputs=["output: T"],
            attrs=dict(_QDQ_ATTRS), shape=_qdq_shape, kernel=_qdq_kernel,
            grad_names=names("QuantizeAndDequantizeV4Grad", None, None)
            if _type.endswith("V4") else names(Pass(0), None, None),
            grad_none_inputs=(1, 2))
declare("QuantizeAndDequantizeV4Grad",
        inputs=["gradients: T", "input: T", "input_min: T", "input_max: T"],
        outputs=["input_backprop: T", "input_min_backprop: T", "input_max_backprop: T"],
        attrs={"T": Type(_HALF_FLOAT), "axis": -1},
        shape=lambda ctx: [ctx.shape(0), ctx.shape(2), ctx.shape(3)],
        kernel=_qdq_grad_kernel)


def _qdq(op_type: str, public: str) -> Callable[..., Tensor]:
    def quantize_and_dequantize_op(input: Any, input_min: Any, input_max: Any,  # noqa: A002
                                   signed_input: bool = True, num_bits: int = 8,
                                   range_given: bool = False,
                                   round_mode: str = "HALF_TO_EVEN",
                                   name: Optional[str] = None, narrow_range: bool = False,
                                   axis: Optional[int] = None) -> Tensor:
        if axis is None:
            axis = -1
        elif axis < 0:
            rank = input.shape.rank if isinstance(input, Tensor) else np.ndim(input)
            if rank is None:
                raise ValueError("input should have known rank to use negative axis.")
            axis %= rank
        if round_mode not in ("HALF_TO_EVEN", "HALF_UP"):
            raise ValueError(f"Attr 'round_mode' of '{op_type}' Op passed string "
                             f"'{round_mode}' not in: \"HALF_TO_EVEN\", \"HALF_UP\".")
        return apply_op1(op_type, [input, input_min, input_max],
                         {"signed_input": bool(signed_input), "num_bits": int(num_bits),
                          "range_given": bool(range_given), "round_mode": round_mode,
                          "narrow_range": bool(narrow_range), "axis": int(axis)}, name=name)
    quantize_and_dequantize_op.__name__ = public
    quantize_and_dequantize_op.__qualname__ = public
    quantize_and_dequantize_op.__doc__ = (
        f"`tf.quantization.{public}`: the input quantized to num_bits integers over its "
        f"(given or observed) range and converted back (op {op_type}).")
    return quantize_and_dequantize_op


quantize_and_dequantize = _qdq("QuantizeAndDequantizeV2", "quantize_and_dequantize")
quantize_and_dequantize_v2 = _qdq("QuantizeAndDequantizeV4", "quantize_and_dequantize_v2")
