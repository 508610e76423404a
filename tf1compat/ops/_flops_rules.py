"""The float-operation counts TF's profiler gives ops: rule factories for `declare(flops=)`.

TF registers a "flops" statistic for a few dozen op types (RegisterStatistics), computed
from static shapes; tf.profiler reports their sum. Each rule here takes a graph
`Operation` and returns TF's count, or raises ValueError (TF's
`assert_is_fully_defined`) when a shape it needs is not fully known: the profiler then
counts the op as lacking flops statistics, as TF does. The op declarations pick a rule
with their other facts (`unary("Neg", ..., flops=per_input_element())`).
"""

from __future__ import annotations

from typing import Any, Callable

from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["per_input_element", "per_output_element", "reduction", "l2_loss", "pool",
           "avg_pool_grad", "max_pool_grad", "add_n", "matmul", "batch_matmul",
           "convolution", "conv2d_backprop_input", "conv2d_backprop_filter", "bias_add"]

FlopsRule = Callable[[Any], int]


def _defined(shape: TensorShape) -> TensorShape:
    if not shape.is_fully_defined():
        raise ValueError(f"Shape {shape} is not fully defined")
    return shape


def _elements(shape: TensorShape) -> int:
    return int(_defined(shape).num_elements())


def _product(values: Any) -> int:
    out = 1
    for v in values:
        out *= int(v)
    return out


def _nhwc(op: Any) -> None:
    fmt = op.get_attr("data_format")
    if (fmt.decode() if isinstance(fmt, bytes) else fmt) != "NHWC":
        raise ValueError("Only NHWC format is supported in flops computations")


def per_input_element(per_element: int = 1) -> FlopsRule:
    """Elements of the first input times `per_element` (unary ops, Softmax, AssignAdd)."""
    return lambda op: _elements(op.inputs[0].shape) * per_element


def per_output_element(per_element: int = 1) -> FlopsRule:
    """Elements of the output times `per_element` (broadcasting binary ops)."""
    return lambda op: _elements(op.outputs[0].shape) * per_element


def reduction(reduce_flops: int = 1, finalize_flops: int = 0) -> FlopsRule:
    """One reduce step per input element, then a finalize step per output element in
    place of a reduce step (Sum: n - m; Mean: n)."""
    def rule(op: Any) -> int:
        n_in = _elements(op.inputs[0].shape)
        n_out = _elements(op.outputs[0].shape)
        return n_in * reduce_flops + n_out * (finalize_flops - reduce_flops)
    return rule


def l2_loss(op: Any) -> int:
    return _elements(op.inputs[0].shape) * 3 - 1


def pool(op: Any) -> int:
    """The window's area per output element (AvgPool, MaxPool; NHWC only, as TF)."""
    _nhwc(op)
    out = _elements(op.outputs[0].shape)
    return _product(op.get_attr("ksize")) * out


def avg_pool_grad(op: Any) -> int:
    _nhwc(op)
    grad = _elements(op.inputs[1].shape)
    return _product(op.get_attr("ksize")) * grad * 2


def max_pool_grad(op: Any) -> int:
    _nhwc(op)
    area = _product(op.get_attr("ksize"))
    orig_out = _elements(op.inputs[1].shape)
    return area * orig_out + orig_out


def add_n(op: Any) -> int:
    if not op.inputs:
        return 0
    return _elements(op.inputs[0].shape) * (len(op.inputs) - 1)


def matmul(op: Any) -> int:
    """2 k per output element (MatMul, with k from a's shape)."""
    a = _defined(op.inputs[0].shape)
    k = int(a[0] if op.get_attr("transpose_a") else a[1])
    return k * _elements(op.outputs[0].shape) * 2


def batch_matmul(op: Any) -> int:
    """2 k per output element, k = a's last dimension (TF's rule reads a `transpose_a`
    attr the BatchMatMul ops do not have, so adj_x never changes k)."""
    a = _defined(op.inputs[0].shape)
    return int(a[-1]) * _elements(op.outputs[0].shape) * 2


def convolution(spatial: int, depthwise: bool = False) -> FlopsRule:
    """2 multiply-adds per filter tap per output element (Conv2D, Conv3D; a depthwise
    convolution's taps do not include the input depth). Shapes of input and filter must
    be known too, as TF checks them."""
    def rule(op: Any) -> int:
        _defined(op.inputs[0].shape)
        filt = _defined(op.inputs[1].shape)
        out = _elements(op.outputs[0].shape)
        taps = _product(filt[:spatial]) * (1 if depthwise else int(filt[spatial]))
        return out * taps * 2
    return rule


def _strides_product(op: Any) -> int:
    strides = list(op.get_attr("strides"))
    return int(strides[1]) * int(strides[2])


def conv2d_backprop_input(op: Any) -> int:
    _nhwc(op)
    out = _defined(op.outputs[0].shape)
    kernel = _elements(op.inputs[1].shape)
    return int(2 * out.num_elements() * kernel / (int(out[-1]) * _strides_product(op)))


def conv2d_backprop_filter(op: Any) -> int:
    _nhwc(op)
    image = _defined(op.inputs[0].shape)
    kernel = _elements(op.outputs[0].shape)
    return int(2 * image.num_elements() * kernel / (int(image[-1]) * _strides_product(op)))


def bias_add(op: Any) -> int:
    return _elements(op.inputs[0].shape)
