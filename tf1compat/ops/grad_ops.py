"""TF's explicit gradient ops (ReluGrad, BiasAddGrad, TanhGrad, BroadcastGradientArgs, ...).

tf1compat computes gradients with autograd and never emits these itself, but graphs
written by real TensorFlow contain them (a `.meta` file of a trained model holds its whole
backward pass), so `tf.train.import_meta_graph` needs them to run such graphs.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import Int, Type, TypeList, declare, get_op_def
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import merge_shapes
from tf1compat.ops.math_ops import FLOAT, FLOAT_COMPLEX, REAL, fixed
from tf1compat.ops import _flops_rules as flops

_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946


def _both_inputs_rule(ctx: Any) -> List[TensorShape]:
    """The gradient and the forward value must have one shape (TF's merge of both)."""
    return [merge_shapes(ctx.shape(0), ctx.shape(1), ctx)]


def _grad_op(op_type: str, fn: Callable[[torch.Tensor, torch.Tensor], torch.Tensor],
             types: Any = FLOAT, names: tuple = ("gradients", "features"),
             output: str = "backprops", attrs: dict = None, grad: str = "autograd",
             **facts: Any) -> None:
    """An elementwise op `fn(incoming gradient, forward value) -> input gradient`."""
    declare(op_type, inputs=[f"{names[0]}: T", f"{names[1]}: T"], outputs=[f"{output}: T"],
            attrs=dict({"T": Type(tuple(types))}, **(attrs or {})), shape=_both_inputs_rule,
            kernel=fixed(fn), grad=grad, **facts)


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
_grad_op("RsqrtGrad", lambda y, dy: dy * -0.5 * y * y * y, FLOAT_COMPLEX, ("y", "dy"), "z",
         flops=flops.per_output_element(4))
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
        shape=_bias_add_grad_shape, kernel=_bias_add_grad_kernel, flops=flops.reduction())


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


def _concat_offset_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def concat_offset(concat_dim: Any, *shapes: Any) -> tuple:
        axis = int(concat_dim)
        rank = int(shapes[0].numel())
        if axis < 0:
            axis += rank
        first = shapes[0].tolist()
        for i, shape in enumerate(shapes[1:], 1):
            # TF's checks: every shape of the first one's rank, equal off the concat axis.
            if int(shape.numel()) != rank:
                raise errors.InvalidArgumentError(
                    None, None, f"input {i} should contain {rank} elements, but got "
                    f"{int(shape.numel())}")
            dims = shape.tolist()
            if any(a != b for j, (a, b) in enumerate(zip(first, dims)) if j != axis):
                raise errors.InvalidArgumentError(
                    None, None, f"All dimensions except {axis} must match. Input {i} has "
                    f"shape [{' '.join(map(str, dims))}] and doesn't match input 0 with "
                    f"shape [{' '.join(map(str, first))}].")
        offsets, position = [], 0
        for shape in shapes:
            offset = torch.zeros_like(shape)
            offset[axis] = position
            position += int(shape[axis])
            offsets.append(offset)
        return tuple(offsets)
    return concat_offset


# The gradient of ConcatV2 slices its incoming gradient at these offsets.
declare("ConcatOffset", inputs=["concat_dim: int32", "shape: N * shape_type"],
        outputs=["offset: N * shape_type"],
        attrs={"N": Int(minimum=2), "shape_type": Type((D.int32, D.int64), default=D.int32)},
        shape=lambda ctx: [ctx.shape(i) for i in range(1, len(ctx.inputs))],
        kernel=_concat_offset_kernel, grad="none",
        doc="Where each input of a concat starts along concat_dim.")


# -- gradients of ops that autograd differentiates: the forward kernel, run backwards -----------

class ForwardNode:
    """The attrs a forward op's kernel factory reads, taken from its gradient op's node
    (plus the forward op's defaults for attrs the gradient op does not carry)."""

    def __init__(self, node: Any, forward_type: str):
        defaults = {k: v for k, v in get_op_def(forward_type).attrs.items()
                    if not isinstance(v, (Type, TypeList, Int))}
        self.attrs = {**defaults, **node.attrs}
        self.type = forward_type
        self.name = node.name
        self.inputs = node.inputs
        self.outputs = node.outputs
        self.device = node.device


def through_forward(forward_type: str,
                     run: Callable[[Callable[..., Any], tuple], tuple]) -> Callable:
    """A kernel factory: `run(forward_kernel, inputs)` returns the gradient op's outputs,
    computing them with torch.autograd through `forward_type`'s own kernel (so TF's
    gradient op agrees with what tf1compat's autograd gives for the forward op)."""
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        forward = get_op_def(forward_type).kernel(ForwardNode(node, forward_type), kctx)

        def kernel(*args: Any) -> Any:
            with torch.enable_grad():
                return run(forward, args)
        return kernel
    return factory


def vjp(outputs: Any, inputs: List[torch.Tensor], grads: Any, args: tuple) -> tuple:
    """d(outputs . grads)/d inputs, keeping a graph when any of the gradient op's `args`
    is itself differentiated (the gradient op inside tf.gradients)."""
    create = any(isinstance(a, torch.Tensor) and a.requires_grad for a in args)
    found = torch.autograd.grad(outputs, inputs, grads, allow_unused=True,
                                create_graph=create)
    return tuple(torch.zeros_like(x) if g is None else g for g, x in zip(found, inputs))


def leaf(x: torch.Tensor) -> torch.Tensor:
    """`x` as a tensor to differentiate with respect to: itself when it is already part of
    an autograd graph (so the gradient op's outputs stay differentiable in it)."""
    return x if x.requires_grad else x.detach().requires_grad_()


def _max_pool_grad(forward: Callable, args: tuple) -> Any:
    orig_input, _, grad = args
    x = leaf(orig_input)
    return vjp([forward(x)], [x], [grad], args)[0]


def _avg_pool_grad(forward: Callable, args: tuple) -> Any:
    shape, grad = args
    x = torch.zeros([int(d) for d in shape.tolist()], dtype=grad.dtype, device=grad.device,
                    requires_grad=True)
    return vjp([forward(x)], [x], [grad], args)[0]


def _lrn_grad(forward: Callable, args: tuple) -> Any:
    grads, image, _ = args
    x = leaf(image)
    return vjp([forward(x)], [x], [grads], args)[0]


def fused_batch_norm_grad(reserve_shape: tuple) -> Callable[[Callable, tuple], tuple]:
    """FusedBatchNormGrad*'s run through FusedBatchNormV3's kernel; its last two outputs
    are zeros of `reserve_shape` (TF's CPU kernels: [0] for V3, 0-d for V1/V2)."""
    def run(forward: Callable, args: tuple) -> tuple:
        dy, x, scale, mean, variance = args[:5]
        xs, s = leaf(x), leaf(scale)
        offset = torch.zeros_like(scale, requires_grad=True)
        y = forward(xs, s, offset, mean.detach(), variance.detach())[0]
        dx, dscale, doffset = vjp([y], [xs, s, offset], [dy], args)
        reserve = torch.zeros(reserve_shape, dtype=scale.dtype, device=scale.device)
        return dx, dscale, doffset, reserve, reserve
    return run


_POOL_GRAD_ATTRS = {"ksize": [], "strides": [], "padding": "VALID", "data_format": "NHWC"}

declare("MaxPoolGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"],
        outputs=["output: T"], attrs={**_POOL_GRAD_ATTRS, "T": Type(REAL)},
        shape=lambda ctx: [ctx.shape(0)], kernel=through_forward("MaxPool", _max_pool_grad),
        flops=flops.max_pool_grad,
        doc="The gradient of MaxPool with respect to its input.")
declare("AvgPoolGrad", inputs=["orig_input_shape: int32", "grad: T"], outputs=["output: T"],
        attrs={**_POOL_GRAD_ATTRS, "T": Type(FLOAT)},
        shape=lambda ctx: [ctx.const_shape(0)],
        kernel=through_forward("AvgPool", _avg_pool_grad), flops=flops.avg_pool_grad,
        doc="The gradient of AvgPool with respect to its input.")
declare("LRNGrad", inputs=["input_grads: T", "input_image: T", "output_image: T"],
        outputs=["output: T"],
        attrs={"depth_radius": 5, "bias": 1.0, "alpha": 1.0, "beta": 0.5,
               "T": Type((D.float16, D.bfloat16, D.float32), default=D.float32)},
        shape=lambda ctx: [ctx.shape(1)], kernel=through_forward("LRN", _lrn_grad),
        grad="unregistered", doc="The gradient of LRN with respect to its input.")
declare("FusedBatchNormGradV3",
        inputs=["y_backprop: T", "x: T", "scale: float32", "reserve_space_1: U",
                "reserve_space_2: U", "reserve_space_3: U"],
        outputs=["x_backprop: T", "scale_backprop: U", "offset_backprop: U",
                 "reserve_space_4: U", "reserve_space_5: U"],
        attrs={"T": Type((D.float16, D.bfloat16, D.float32)), "U": Type((D.float32,)),
               "epsilon": 0.0001, "data_format": "NHWC", "is_training": True},
        shape=lambda ctx: [ctx.shape(1), ctx.shape(2), ctx.shape(2), TensorShape([0]),
                           TensorShape([0])],
        kernel=through_forward("FusedBatchNormV3", fused_batch_norm_grad((0,))),
        grad_none_inputs=(3, 4, 5),     # (TF: no gradient for the saved statistics)
        doc="The gradients of FusedBatchNormV3 (batch statistics when is_training).")
