"""Conv2D + BiasAdd (+ Relu) as one oneDNN convolution, as TF's default x86 build runs it.

TF 2.21 with its oneDNN optimizations on (the default on x86) rewrites
`relu(bias_add(conv2d(x, w), b))` in a Session graph into one convolution with the bias
inside and a ReLU post-op, and `bias_add(conv2d(x, w), b)` into one with the bias inside
(probed: float32, NHWC, SAME/VALID, strides, dilations; float64 stays unfused, and so does a
chain whose BiasAdd output is also fetched). Values equal the unfused ops' on finite data,
but the ReLU post-op maps NaN to 0 where TF's Relu kernel keeps it: a NaN in the input of
such a graph comes out of TF as 0 (tests/golden/cases_conv_bias.py). TF fuses Relu6 too and
leaves Elu and the other activations unfused; only Relu is fused here (Relu6 stays
unfused: a NaN reaching it stays NaN, as with TF_ENABLE_ONEDNN_OPTS=0).

The plan finds the chains (runtime/plan_rewrites.py `fused_chains`, through the
`PLAN_FUSIONS` hook this module fills) and binds the last op of each with
`conv_bias_kernel`, which calls torch's `mkldnn._convolution_pointwise` - the same oneDNN
primitive - for float32 NHWC inputs on the CPU, and the three ops' own kernels otherwise
(CUDA, other dtypes, grouped convolutions, torch builds without the op, torch.export).
Inside a compiled graph it is a custom op, so torch.compile's inductor calls it as one
extern kernel; its gradient is ReLU's `threshold_backward` on the output, left in the
traced graph (inductor fuses it with the gradient of a max pool that reads the output,
ops/_tiled_pool.py), then one custom op: `convolution_backward` for the input and filter
and the bias gradient as BiasAddGrad's sum over all but the channel axis. Op by op an
autograd function has the same forward and backward.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import torch

from tf1compat.framework.hooks import PLAN_FUSIONS
from tf1compat.ops._traced_pool import in_compiled_graph
from tf1compat.ops._window import (
    as_str,
    from_channels_first,
    pad_spatial,
    to_channels_first,
)
from tf1compat.ops.nn_conv import _Geometry, _weight

__all__ = ["conv_bias_kernel", "fused_conv_available", "match_conv_bias"]


def _probe_available() -> bool:
    try:
        found = hasattr(torch.ops.mkldnn, "_convolution_pointwise")
    except RuntimeError:
        found = False
    return found and torch.backends.mkldnn.is_available()


# Whether this torch has the fused oneDNN convolution (tests set it False to run the
# fallback).
AVAILABLE = _probe_available()


def fused_conv_available() -> bool:
    """Whether torch has `mkldnn._convolution_pointwise` (CPU builds with oneDNN)."""
    return AVAILABLE


def _forward(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor, padding: List[int],
             stride: List[int], dilation: List[int], relu: bool) -> torch.Tensor:
    return torch.ops.mkldnn._convolution_pointwise(
        x, w, b, padding, stride, dilation, 1, "relu" if relu else "none", [], None)


def _conv_gradients(g: torch.Tensor, x: torch.Tensor, w: torch.Tensor, padding: List[int],
                    stride: List[int], dilation: List[int], mask: List[bool]
                    ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The input and filter gradients (as `mask` asks) and the bias gradient of the
    convolution with the bias inside, from the gradient `g` of its output (ReLU's
    already applied)."""
    dx, dw, _ = torch.ops.aten.convolution_backward(
        g, x, w, None, stride, padding, dilation, False, [0, 0], 1, [mask[0], mask[1], False])
    # BiasAddGrad: the sum over every axis but the channels'.
    db = g.sum((0, 2, 3))
    return (x.new_empty(0) if dx is None else dx, w.new_empty(0) if dw is None else dw, db)


# Inside compiled graphs one extern kernel; ReLU's gradient before it stays in the traced
# graph, where inductor fuses it with the max pool gradient that feeds it (_tiled_pool).
_conv_bias_grad = torch.library.custom_op("tf1compat::conv_bias_grad",
                                          mutates_args=())(_conv_gradients)
_conv_bias_grad.register_fake(_conv_gradients)


def _gradients_by(conv_gradients: Callable[..., tuple]) -> Callable[..., tuple]:
    def gradients(grad: torch.Tensor, out: torch.Tensor, x: torch.Tensor, w: torch.Tensor,
                  padding: List[int], stride: List[int], dilation: List[int], relu: bool,
                  mask: List[bool]) -> tuple:
        g = torch.ops.aten.threshold_backward(grad, out, 0) if relu else grad
        return conv_gradients(g, x, w, padding, stride, dilation, mask)
    return gradients


_gradients = _gradients_by(_conv_gradients)
_conv_bias_act = torch.library.custom_op("tf1compat::conv_bias_act",
                                         mutates_args=())(_forward)
_conv_bias_act.register_fake(_forward)


def _setup(ctx: Any, inputs: tuple, output: torch.Tensor) -> None:
    x, w, _b, padding, stride, dilation, relu = inputs
    ctx.save_for_backward(x, w, output)
    ctx.window = (padding, stride, dilation, relu)


def _backward_by(gradients: Callable[..., tuple]) -> Callable[[Any, torch.Tensor], tuple]:
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        x, w, out = ctx.saved_tensors
        mask = [bool(ctx.needs_input_grad[0]), bool(ctx.needs_input_grad[1])]
        dx, dw, db = gradients(grad, out, x, w, *ctx.window, mask)
        return (dx if mask[0] else None, dw if mask[1] else None, db,
                None, None, None, None)
    return backward


_conv_bias_act.register_autograd(_backward_by(_gradients_by(_conv_bias_grad)),
                                 setup_context=_setup)


class _ConvBiasAct(torch.autograd.Function):
    """The same forward and gradient outside compiled graphs: a custom op costs ~80 us
    more a call in eager torch (its dispatch), and ~1.4 s of CPU on its first call."""

    @staticmethod
    def forward(ctx: Any, *inputs: Any) -> torch.Tensor:
        out = _forward(*inputs)
        _setup(ctx, inputs, out)
        return out

    backward = staticmethod(_backward_by(_gradients))


def _conv_bias_relu(*inputs: Any) -> torch.Tensor:
    """`_forward` inside compiled graphs as one extern kernel, else directly (under an
    autograd function where a gradient may flow)."""
    if in_compiled_graph():
        return _conv_bias_act(*inputs)
    if torch.is_grad_enabled() and any(t.requires_grad for t in inputs[:3]):
        return _ConvBiasAct.apply(*inputs)
    return _forward(*inputs)


def _filter_for(xin: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """The HWIO filter `w` as the [out, in, kh, kw] weight oneDNN's kernels read beside
    `xin`: for an input laid out channels_last (and not also contiguous, where torch's
    choice of layout is ambiguous) the copy in that layout that torch's forward and its
    gradient would each make of the permuted view, made once here for both (conv2 of the
    benchmark CNN: one copy of the filter a step instead of two; values unchanged)."""
    weight = _weight(w, 2, False)
    if (xin.is_contiguous(memory_format=torch.channels_last) and not xin.is_contiguous()
            and not weight.is_contiguous(memory_format=torch.channels_last)):
        weight = weight.contiguous(memory_format=torch.channels_last)
    return weight


def _exporting() -> bool:
    exporting = getattr(torch.compiler, "is_exporting", None)
    return exporting is not None and exporting()


def conv_bias_kernel(conv: Any, bias_add: Any, relu: Optional[Any], kctx: Any
                     ) -> Callable[[torch.Tensor, torch.Tensor, torch.Tensor], torch.Tensor]:
    """The kernel of a fused chain: (x, filter, bias) -> the chain's last output.

    Where the fused convolution does not apply, it runs the ops' own kernels in turn,
    with their checks and messages; so does it for a shape they refuse."""
    kernels = [op._op_def.kernel(op, kctx) for op in (conv, bias_add) + ((relu,) if relu
                                                                        else ())]
    geo = _Geometry(conv, 2)
    nhwc = geo.fmt == "NHWC" and as_str(bias_add.attrs.get("data_format", "NHWC")) == "NHWC"

    def unfused(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        y = kernels[1](kernels[0](x, w), b)
        return kernels[2](y) if relu is not None else y

    def run(x: torch.Tensor, w: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        if not (AVAILABLE and nhwc and x.dtype == torch.float32 and x.device.type == "cpu"
                and x.dim() == 4 and w.dim() == 4 and b.dim() == 1
                and w.dtype == b.dtype == torch.float32 and w.device.type == "cpu"
                and x.shape[3] == w.shape[2] and w.shape[3] == b.shape[0]
                and x.shape[0] > 0 and not _exporting()):
            return unfused(x, w, b)
        outs, pads = geo.resolve(x.shape[1:3], w.shape[:2])
        if 0 in outs:
            return unfused(x, w, b)
        xin = to_channels_first(x, "NHWC")
        if any(p != q for p, q in pads):
            # SAME with the odd element at the end, as the Conv2D kernel pads it.
            xin, pads = pad_spatial(xin, pads), [(0, 0)] * 2
        y = _conv_bias_relu(xin, _filter_for(xin, w), b, [p for p, _ in pads],
                            list(geo.strides), list(geo.dilations), relu is not None)
        return from_channels_first(y, "NHWC")
    return run


def match_conv_bias(op: Any) -> Optional[Tuple[List[Any], List[Any], Callable, bool]]:
    """For a Relu of a BiasAdd of a Conv2D, or a BiasAdd of a Conv2D not consumed by a Relu
    alone: (the chain's ops, its inputs [x, filter, bias], the fused kernel's factory,
    True: it applies its ops' gradients itself); else None. The plan checks that nothing else reads the intermediates."""
    relu = op if op._type == "Relu" else None
    bias_add = op._inputs[0]._op if relu is not None else op
    if bias_add._type != "BiasAdd" or bias_add.attrs["T"].name != "float32":
        return None
    conv = bias_add._inputs[0]._op
    if conv._type != "Conv2D" or as_str(conv.attrs["padding"]) == "EXPLICIT":
        return None
    if relu is None and [c._type for c in bias_add._outputs[0].consumers()] == ["Relu"]:
        return None      # its Relu ends the chain
    chain = [conv, bias_add] + ([relu] if relu is not None else [])
    inputs = [conv._inputs[0], conv._inputs[1], bias_add._inputs[1]]
    # (own gradients: the fused backward masks by the output as TF's ReluGrad does, but
    # zeroes, not keeps, a NaN gradient at an inactive unit; Relu's grad_formula would
    # otherwise keep the chain unfused in every training plan)
    return chain, inputs, lambda kctx: conv_bias_kernel(conv, bias_add, relu, kctx), True


PLAN_FUSIONS["conv_bias"] = match_conv_bias
