"""More of TF's explicit gradient ops, for imported training graphs.

Real TF writes a training graph's backward pass as ops of its own (`StridedSliceGrad` for
every slice such as `outputs[:, -1]`, `ResizeBilinearGrad`, `MirrorPadGrad`,
`FusedBatchNormGrad`, ...); a `.meta` of a model trained under TF holds them, so
`tf.train.import_meta_graph` followed by more training needs them. Each one here runs its
forward op's own kernel backwards (`grad_ops.through_forward`), so the imported backward
pass computes what tf1compat's autograd computes for the forward op.

`MaxPoolV2` (ksize and strides as inputs) lives here beside its gradients; the forward ops
of older TF versions are in legacy_ops.py.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.op_def import InferCtx, Type, declare, get_op_def
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops.grad_ops import (ForwardNode, fused_batch_norm_grad, leaf,
                                     through_forward, vjp)
from tf1compat.ops.math_ops import FLOAT, REAL

_INDEX = (D.int32, D.int64)
_SLICE_MASKS = {m: 0 for m in ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask",
                               "shrink_axis_mask")}


def _zeros_leaf(shape: Any, like: torch.Tensor) -> torch.Tensor:
    return torch.zeros(as_int_list(shape), dtype=like.dtype, device=like.device,
                       requires_grad=True)


# -- array ops ----------------------------------------------------------------------------------

def _strided_slice_grad(forward: Callable, args: tuple) -> Any:
    shape, begin, end, strides, dy = args
    x = _zeros_leaf(shape, dy)
    return vjp([forward(x, begin, end, strides)], [x], [dy], args)[0]


declare("StridedSliceGrad", inputs=["shape: Index", "begin: Index", "end: Index",
                                    "strides: Index", "dy: T"],
        outputs=["output: T"], attrs={"T": Type(), "Index": Type(_INDEX), **_SLICE_MASKS},
        shape=lambda ctx: [ctx.const_shape(0)],
        kernel=through_forward("StridedSlice", _strided_slice_grad),
        doc="The gradient of StridedSlice: `dy` placed into zeros of the input's shape.")


def _mirror_pad_grad_shape(ctx: Any) -> List[TensorShape]:
    grad, paddings = ctx.shape(0), ctx.const(1)
    if paddings is None or grad.rank is None:
        return [unknown_shape(grad.rank)]
    return [TensorShape([None if d is None else d - int(lo) - int(hi)
                         for d, (lo, hi) in zip(grad.as_list(), paddings.tolist())])]


def _mirror_pad_grad(forward: Callable, args: tuple) -> Any:
    grad, paddings = args
    pads = as_int_list(paddings)
    shape = [d - pads[2 * i] - pads[2 * i + 1] for i, d in enumerate(grad.shape)]
    x = _zeros_leaf(shape, grad)
    return vjp([forward(x, paddings)], [x], [grad], args)[0]


declare("MirrorPadGrad", inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"],
        attrs={"T": Type(), "Tpaddings": Type(_INDEX, default=D.int32), "mode": "REFLECT"},
        shape=_mirror_pad_grad_shape, kernel=through_forward("MirrorPad", _mirror_pad_grad),
        doc="The gradient of MirrorPad: the padded border folded back onto the input.")



# -- image resizing -----------------------------------------------------------------------------

_RESIZE_GRAD_ATTRS = {"align_corners": False, "half_pixel_centers": False}


def _resize_grad_to_image(forward: Callable, args: tuple) -> Any:
    grads, original = args
    x = torch.zeros(original.shape, dtype=grads.dtype, device=grads.device, requires_grad=True)
    size = torch.tensor(list(grads.shape[1:3]), dtype=torch.int32)
    return vjp([forward(x, size)], [x], [grads], args)[0].to(original.dtype)


def _resize_nearest_grad(forward: Callable, args: tuple) -> Any:
    grads, size = args
    height, width = as_int_list(size)
    x = _zeros_leaf([grads.shape[0], height, width, grads.shape[3]], grads)
    out_size = torch.tensor(list(grads.shape[1:3]), dtype=torch.int32)
    return vjp([forward(x, out_size)], [x], [grads], args)[0]


def _resize_nearest_grad_shape(ctx: Any) -> List[TensorShape]:
    grads, size = ctx.shape(0), ctx.const_shape(1)
    dims = grads.as_list() if grads.rank == 4 else [None] * 4
    sizes = size.as_list() if size.rank == 2 else [None, None]
    return [TensorShape([dims[0], sizes[0], sizes[1], dims[3]])]


for _op, _forward in (("ResizeBilinearGrad", "ResizeBilinear"),
                      ("ResizeBicubicGrad", "ResizeBicubic")):
    declare(_op, inputs=["grads: float", "original_image: T"], outputs=["output: T"],
            attrs={"T": Type((D.float16, D.bfloat16, D.float32, D.float64)),
                   **_RESIZE_GRAD_ATTRS},
            shape=lambda ctx: [ctx.shape(1)],
            kernel=through_forward(_forward, _resize_grad_to_image),
            grad="none" if _op == "ResizeBilinearGrad" else "unregistered",
            doc=f"The gradient of {_forward} with respect to its images.")
declare("ResizeNearestNeighborGrad", inputs=["grads: T", "size: int32"], outputs=["output: T"],
        attrs={"T": Type((D.uint8, D.int8, D.int32, D.float16, D.bfloat16, D.float32,
                          D.float64)), **_RESIZE_GRAD_ATTRS},
        shape=_resize_nearest_grad_shape,
        kernel=through_forward("ResizeNearestNeighbor", _resize_nearest_grad),
        grad="unregistered",
        doc="The gradient of ResizeNearestNeighbor with respect to its images.")


def _crop_and_resize_grad_image(forward: Callable, args: tuple) -> Any:
    grads, boxes, box_ind, image_size = args
    x = _zeros_leaf(image_size, grads)
    crop = torch.tensor(list(grads.shape[1:3]), dtype=torch.int32)
    return vjp([forward(x, boxes, box_ind, crop)], [x], [grads], args)[0]


def _crop_and_resize_grad_boxes(forward: Callable, args: tuple) -> Any:
    grads, image, boxes, box_ind = args
    b = leaf(boxes)
    crop = torch.tensor(list(grads.shape[1:3]), dtype=torch.int32)
    return vjp([forward(image.float(), b, box_ind, crop)], [b], [grads], args)[0]


declare("CropAndResizeGradImage",
        inputs=["grads: float32", "boxes: float32", "box_ind: int32", "image_size: int32"],
        outputs=["output: T"], attrs={"T": Type((D.float16, D.float32, D.float64)),
                                      "method": "bilinear"},
        shape=lambda ctx: [ctx.const_shape(3)],
        kernel=through_forward("CropAndResize", _crop_and_resize_grad_image),
        grad="unregistered",
        doc="The gradient of CropAndResize with respect to its image.")
declare("CropAndResizeGradBoxes",
        inputs=["grads: float32", "image: T", "boxes: float32", "box_ind: int32"],
        outputs=["output: float32"],
        attrs={"T": Type((D.uint8, D.uint16, D.int8, D.int16, D.int32, D.int64, D.float16,
                          D.float32, D.float64)), "method": "bilinear"},
        shape=lambda ctx: [ctx.shape(2)],
        kernel=through_forward("CropAndResize", _crop_and_resize_grad_boxes),
        grad="unregistered",
        doc="The gradient of CropAndResize with respect to its boxes.")


# -- morphological dilation ---------------------------------------------------------------------

def _dilation_grad(wrt: int) -> Callable:
    def run(forward: Callable, args: tuple) -> Any:
        image, kernel, out_backprop = args
        operands = [image, kernel]
        operands[wrt] = leaf(operands[wrt])
        return vjp([forward(*operands)], [operands[wrt]], [out_backprop], args)[0]
    return run


for _op, _wrt, _result in (("Dilation2DBackpropInput", 0, "in_backprop"),
                           ("Dilation2DBackpropFilter", 1, "filter_backprop")):
    declare(_op, inputs=["input: T", "filter: T", "out_backprop: T"],
            outputs=[f"{_result}: T"],
            attrs={"T": Type(REAL), "strides": [], "rates": [], "padding": "VALID"},
            shape=lambda ctx, _wrt=_wrt: [ctx.shape(_wrt)],
            kernel=through_forward("Dilation2D", _dilation_grad(_wrt)), grad="unregistered",
            doc=f"The gradient of Dilation2D with respect to its {('input', 'filter')[_wrt]}.")


# -- pooling ------------------------------------------------------------------------------------

_POOL_ATTRS = {"padding": "VALID", "data_format": "NHWC"}


def _window_node(node: Any, forward_type: str) -> ForwardNode:
    """`forward_type`'s node for a V2 pooling op, whose ksize and strides are inputs 1 and
    2 (TF's MaxPoolV2 family); they must be known when the graph is built."""
    fake = ForwardNode(node, forward_type)
    last = len(node.inputs) - 1         # ... ksize, strides: always the last two inputs
    for index, attr in ((last - 1, "ksize"), (last, "strides")):
        value = static_ints(node, index)
        if value is None:
            raise NotImplementedError(
                f"{node.type} '{node.name}': {attr} known only at run time is not supported "
                f"(tf1compat bakes pooling windows into the kernel)")
        fake.attrs[attr] = value
    return fake


def _max_pool_v2_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    pool = get_op_def("MaxPool").kernel(_window_node(node, "MaxPool"), kctx)
    return lambda x, ksize, strides: pool(x)


def _max_pool_v2_shape(ctx: Any) -> List[TensorShape]:
    ksize, strides = ctx.const(1), ctx.const(2)
    if ksize is None or strides is None:
        return [unknown_shape(4)]
    attrs = {**ctx.attrs, "ksize": ksize.tolist(), "strides": strides.tolist()}
    return get_op_def("MaxPool").shape(InferCtx("MaxPool", ctx.name, ctx.inputs[:1], attrs,
                                                 [[0]]))


def _max_pool_grad_v2_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    pool = get_op_def("MaxPool").kernel(_window_node(node, "MaxPool"), kctx)

    def run(orig_input: torch.Tensor, orig_output: Any, grad: torch.Tensor, ksize: Any,
            strides: Any) -> torch.Tensor:
        with torch.enable_grad():
            x = leaf(orig_input)
            return vjp([pool(x)], [x], [grad], (orig_input, grad))[0]
    return run


def _pool_vjp(pool: Callable, x: torch.Tensor, grad: torch.Tensor) -> torch.Tensor:
    """MaxPoolGrad: `grad` routed back to each window's maximum of `x`."""
    with torch.enable_grad():
        leaf_x = x.detach().requires_grad_()
        (dx,) = torch.autograd.grad([pool(leaf_x)], [leaf_x], [grad])
    return dx


class _MaxPoolGradGrad(torch.autograd.Function):
    """d MaxPoolGrad(g) / d g applied to `grad`: each window's value of `grad` at the
    window's maximum (the gradient of the pool's vector-Jacobian product in g). Its own
    gradient is TF's: MaxPoolGrad of the incoming gradient, zeros for the pool's input
    and output."""

    @staticmethod
    def forward(ctx: Any, pool: Callable, orig_input: torch.Tensor,
                orig_output: torch.Tensor, grad: torch.Tensor) -> torch.Tensor:
        ctx.pool = pool
        ctx.save_for_backward(orig_input, orig_output)
        with torch.enable_grad():
            x = orig_input.detach().requires_grad_()
            y = pool(x)
            g = torch.zeros_like(y, requires_grad=True)
            (dx,) = torch.autograd.grad([y], [x], [g], create_graph=True)
            (out,) = torch.autograd.grad([dx], [g], [grad.detach()])
        return out

    @staticmethod
    def backward(ctx: Any, incoming: torch.Tensor) -> tuple:
        orig_input, orig_output = ctx.saved_tensors
        return (None, torch.zeros_like(orig_input), torch.zeros_like(orig_output),
                _pool_vjp(ctx.pool, orig_input, incoming))


def _max_pool_grad_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    if node.type == "MaxPoolGradGradV2":
        pool = get_op_def("MaxPool").kernel(_window_node(node, "MaxPool"), kctx)
    else:
        pool = get_op_def("MaxPool").kernel(ForwardNode(node, "MaxPool"), kctx)

    def run(orig_input: torch.Tensor, orig_output: Any, grad: torch.Tensor,
            *window: Any) -> torch.Tensor:
        return _MaxPoolGradGrad.apply(pool, orig_input, orig_output, grad)
    return run


def _pool3d_grad(forward: Callable, args: tuple) -> Any:
    orig_input, _, grad = args
    x = leaf(orig_input.to(grad.dtype))
    return vjp([forward(x)], [x], [grad], args)[0]


def _avg_pool3d_grad(forward: Callable, args: tuple) -> Any:
    shape, grad = args
    x = _zeros_leaf(shape, grad)
    return vjp([forward(x)], [x], [grad], args)[0]


def _max_pool_grad_with_argmax_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    include_batch = bool(node.attrs.get("include_batch_in_index", False))

    def run(x: torch.Tensor, grad: torch.Tensor, argmax: torch.Tensor) -> torch.Tensor:
        # argmax holds flat NHWC positions, counted per image unless include_batch.
        flat = argmax.reshape(grad.shape[0], -1).long()
        if not include_batch:
            per_image = x[0].numel()
            flat = flat + per_image * torch.arange(grad.shape[0], device=flat.device)[:, None]
        out = torch.zeros(x.numel(), dtype=grad.dtype, device=grad.device)
        out.index_add_(0, flat.reshape(-1), grad.reshape(-1))
        return out.reshape(x.shape)
    return run


_POOL2D_WINDOW = {"ksize": [], "strides": [], **_POOL_ATTRS}
declare("MaxPoolV2", inputs=["input: T", "ksize: int32", "strides: int32"],
        outputs=["output: T"], attrs={"T": Type(REAL, default=D.float32), **_POOL_ATTRS},
        shape=_max_pool_v2_shape, kernel=_max_pool_v2_kernel,
        doc="MaxPool with its window and strides as (constant) inputs.")
declare("MaxPoolGradV2", inputs=["orig_input: T", "orig_output: T", "grad: T", "ksize: int32",
                                 "strides: int32"],
        outputs=["output: T"], attrs={"T": Type(REAL), **_POOL_ATTRS},
        shape=lambda ctx: [ctx.shape(0)], kernel=_max_pool_grad_v2_kernel,
        doc="The gradient of MaxPoolV2 with respect to its input.")
declare("MaxPoolGradGrad", inputs=["orig_input: T", "orig_output: T", "grad: T"],
        outputs=["output: T"], attrs={"T": Type(REAL), **_POOL2D_WINDOW},
        shape=lambda ctx: [ctx.shape(1)], kernel=_max_pool_grad_grad_kernel,
        doc="The gradient of MaxPoolGrad with respect to its incoming gradient.")
declare("MaxPoolGradGradV2", inputs=["orig_input: T", "orig_output: T", "grad: T",
                                     "ksize: int32", "strides: int32"],
        outputs=["output: T"], attrs={"T": Type(REAL), **_POOL_ATTRS},
        shape=lambda ctx: [ctx.shape(1)], kernel=_max_pool_grad_grad_kernel,
        grad="unregistered",
        doc="MaxPoolGradGrad with the window and strides as (constant) inputs.")
declare("MaxPoolGradWithArgmax", inputs=["input: T", "grad: T", "argmax: Targmax"],
        outputs=["output: T"],
        attrs={"ksize": [], "strides": [], "padding": "VALID",
               "include_batch_in_index": False, "Targmax": Type(_INDEX), "T": Type(REAL)},
        shape=lambda ctx: [ctx.shape(0)], kernel=_max_pool_grad_with_argmax_kernel,
        grad="unregistered",
        doc="The gradient of MaxPoolWithArgmax: `grad` added at the argmax positions.")
declare("MaxPool3DGrad", inputs=["orig_input: TInput", "orig_output: TInput", "grad: T"],
        outputs=["output: T"],
        attrs={"ksize": [], "strides": [], "padding": "VALID", "data_format": "NDHWC",
               "T": Type(FLOAT, default=D.float32), "TInput": Type(FLOAT, default=D.float32)},
        shape=lambda ctx: [ctx.shape(0)], kernel=through_forward("MaxPool3D", _pool3d_grad),
        doc="The gradient of MaxPool3D with respect to its input.")
declare("AvgPool3DGrad", inputs=["orig_input_shape: int32", "grad: T"], outputs=["output: T"],
        attrs={"ksize": [], "strides": [], "padding": "VALID", "data_format": "NDHWC",
               "T": Type(FLOAT)},
        shape=lambda ctx: [ctx.const_shape(0)],
        kernel=through_forward("AvgPool3D", _avg_pool3d_grad),
        doc="The gradient of AvgPool3D with respect to its input.")


# -- batch normalization gradients of TF <= 1.13 ----------------------------------------------

_HALF_FLOAT = (D.float16, D.bfloat16, D.float32)
_FUSED_BN_GRAD_ATTRS = {"epsilon": 0.0001, "data_format": "NHWC", "is_training": True}
for _op, _scale, _stats, _types in (("FusedBatchNormGrad", "T", "T", (D.float32,)),
                                    ("FusedBatchNormGradV2", "float32", "U", _HALF_FLOAT)):
    _u = {"U": Type((D.float32,))} if _stats == "U" else {}
    declare(_op, inputs=["y_backprop: T", "x: T", f"scale: {_scale}",
                         f"reserve_space_1: {_stats}", f"reserve_space_2: {_stats}"],
            outputs=["x_backprop: T", f"scale_backprop: {_stats}",
                     f"offset_backprop: {_stats}", f"reserve_space_3: {_stats}",
                     f"reserve_space_4: {_stats}"],
            attrs={"T": Type(_types), **_u, **_FUSED_BN_GRAD_ATTRS},
            shape=lambda ctx: [ctx.shape(1), ctx.shape(2), ctx.shape(2), TensorShape([0]),
                               TensorShape([0])],
            kernel=through_forward("FusedBatchNormV3", fused_batch_norm_grad(())),
            grad_none_inputs=(3, 4), rank_follows_data=True,   # the 0-d placeholders
            doc=f"The gradients of {_op.replace('Grad', '')}.")
