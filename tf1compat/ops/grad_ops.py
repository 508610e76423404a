"""TF's explicit gradient ops (ReluGrad, BiasAddGrad, TanhGrad, BroadcastGradientArgs, ...).

tf1compat computes gradients with autograd and never emits these itself, but graphs
written by real TensorFlow contain them (a `.meta` file of a trained model holds its whole
backward pass), so `tf.train.import_meta_graph` needs them to run such graphs.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import merge_shapes
from tf1compat.ops.math_ops import FLOAT, FLOAT_COMPLEX, REAL, fixed

_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _both_inputs_rule(ctx: Any) -> List[TensorShape]:
    """The gradient and the forward value must have one shape (TF's merge of both)."""
    return [merge_shapes(ctx.shape(0), ctx.shape(1), ctx)]


def _grad_op(op_type: str, fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
             types: Any = FLOAT, names: tuple = ("gradients", "features"),
             output: str = "backprops", attrs: dict = None, grad: str = "autograd") -> None:
    """An elementwise op `fn(incoming gradient, forward value) -> input gradient`."""
    declare(op_type, inputs=[f"{names[0]}: T", f"{names[1]}: T"], outputs=[f"{output}: T"],
            attrs=dict({"T": Type(tuple(types))}, **(attrs or {})), shape=_both_inputs_rule,
            kernel=fixed(fn), grad=grad)


_grad_op("ReluGrad", lambda g, x: torch.where(x > 0, g, torch.zeros_like(g)), REAL)
_grad_op("Relu6Grad", lambda g, x: torch.where((x > 0) & (x < 6), g, torch.zeros_like(g)),
         REAL)
_grad_op("EluGrad", lambda g, y: torch.where(y > 0, g, g * (y + 1)), FLOAT,
         ("gradients", "outputs"))
_grad_op("SeluGrad", lambda g, y: torch.where(y > 0, g * _SELU_SCALE,
                                              g * (y + _SELU_SCALE * _SELU_ALPHA)),
         FLOAT, ("gradients", "outputs"))
_grad_op("SoftplusGrad", lambda g, x: g * torch.sigmoid(x), FLOAT)
_grad_op("SoftsignGrad", lambda g, x: g / torch.square(1 + torch.abs(x)), FLOAT,
         grad="unregistered")       # (TF has no second-order gradient for it)
_grad_op("SigmoidGrad", lambda y, dy: dy * y * (1 - y), FLOAT_COMPLEX, ("y", "dy"), "z")
_grad_op("TanhGrad", lambda y, dy: dy * (1 - y * y), FLOAT_COMPLEX, ("y", "dy"), "z")
_grad_op("SqrtGrad", lambda y, dy: dy * 0.5 / y, FLOAT_COMPLEX, ("y", "dy"), "z")
_grad_op("RsqrtGrad", lambda y, dy: dy * -0.5 * y * y * y, FLOAT_COMPLEX, ("y", "dy"), "z")
_grad_op("ReciprocalGrad", lambda y, dy: -dy * y * y, FLOAT_COMPLEX, ("y", "dy"), "z")
_grad_op("InvGrad", lambda y, dy: -dy * y * y, FLOAT_COMPLEX, ("y", "dy"), "z")


def _leaky_relu_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    alpha = float(node.attrs["alpha"])
    return lambda g, x: torch.where(x > 0, g, g * alpha)


declare("LeakyReluGrad", inputs=["gradients: T", "features: T"], outputs=["backprops: T"],
        attrs={"T": Type(FLOAT), "alpha": 0.2}, shape=_both_inputs_rule,
        kernel=_leaky_relu_grad_kernel)


def _bias_add_grad_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    if s.rank is None:
        return [TensorShape([None])]
    fmt = ctx.attrs["data_format"]
    fmt = fmt.decode() if isinstance(fmt, bytes) else fmt
    channel = s.as_list()[1 if fmt.startswith("NC") and s.rank > 2 else -1]
    return [TensorShape([channel])]


def _bias_add_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    fmt = node.attrs["data_format"]
    fmt = fmt.decode() if isinstance(fmt, bytes) else fmt

    def run(g: torch.Tensor) -> torch.Tensor:
        axis = 1 if fmt.startswith("NC") and g.dim() > 2 else g.dim() - 1
        dims = [d for d in range(g.dim()) if d != axis]
        return g.sum(dim=dims) if dims else g
    return run


declare("BiasAddGrad", inputs=["out_backprop: T"], outputs=["output: T"],
        attrs={"T": Type(FLOAT_COMPLEX + (D.int32, D.int64)), "data_format": "NHWC"},
        shape=_bias_add_grad_shape, kernel=_bias_add_grad_kernel)


def _broadcast_gradient_args_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    """The axes to reduce each side's gradient over, for a broadcast of s0 with s1."""
    def run(s0: torch.Tensor, s1: torch.Tensor) -> tuple:
        a, b = [int(v) for v in s0.reshape(-1).tolist()], [int(v) for v in s1.reshape(-1).tolist()]
        if a == b:          # TF's BCast: equal shapes need no reduction, not even of 1s
            empty = torch.zeros(0, dtype=s0.dtype, device=s0.device)
            return empty, empty.clone()
        n = max(len(a), len(b))
        a, b = [1] * (n - len(a)) + a, [1] * (n - len(b)) + b
        r0 = [i for i in range(n) if a[i] == 1 and b[i] != 1]
        r1 = [i for i in range(n) if b[i] == 1 and a[i] != 1]
        # dims of size 1 on both sides are reduced on both, as TF's BCast does
        both = [i for i in range(n) if a[i] == 1 and b[i] == 1]
        r0, r1 = sorted(r0 + both), sorted(r1 + both)
        return (torch.tensor(r0, dtype=s0.dtype, device=s0.device),
                torch.tensor(r1, dtype=s0.dtype, device=s0.device))
    return run


declare("BroadcastGradientArgs", inputs=["s0: T", "s1: T"], outputs=["r0: T", "r1: T"],
        attrs={"T": Type((D.int32, D.int64), default=D.int32)},
        shape=lambda ctx: [TensorShape([None]), TensorShape([None])],
        kernel=_broadcast_gradient_args_kernel, grad="none")
