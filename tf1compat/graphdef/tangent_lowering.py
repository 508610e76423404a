"""Forward-mode derivatives (tangents) of a core set of ops, written as NodeDefs of ops
TF 2.21's SymbolicGradient differentiates in a function (gradient_export's
TF_DIFFERENTIABLE_OP_TYPES): the Jacobian-vector products loop_second_order.py writes
for a gradient of a gradient through a while loop.

`TANGENTS[op_type](op, x, dx, y, builder)` takes the names of the op's inputs `x`, of
their tangents `dx` (None: zero), of its outputs `y`, and returns the name of each
output's tangent (None: zero). Only the inputs that carry a tangent add terms, so a
tangent written here is a sum of products of the tangents with values of the forward
computation; its own derivatives (which SymbolicGradient takes) are those products'.
A tangent of an input broadcast by the op is broadcast to the output's shape
(`BroadcastTo` of `Shape`: TF's function gradients have no ZerosLike).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering import LOWERINGS

__all__ = ["TANGENTS", "zeros_of"]

Names = List[Optional[str]]


def _dtype(op: Operation) -> D.DType:
    return op.outputs[0].dtype.base_dtype


def zeros_of(value: str, dtype: D.DType, b: NodeBuilder) -> str:
    """Zeros of the shape of function value `value` (differentiable ops only)."""
    shape = b.add("Shape", [value], {"T": dtype, "out_type": D.int32})
    return b.add("BroadcastTo", [b.const(0, dtype), shape], {"T": dtype, "Tidx": D.int32})


def _like(op: Operation, k: int, dx: str, y: str, b: NodeBuilder) -> str:
    """Tangent `dx` of input k, broadcast to the shape of output `y` where the shapes
    may differ."""
    xs, ys = op.inputs[k].shape, op.outputs[0].shape
    if xs.is_fully_defined() and ys.is_fully_defined() and xs.as_list() == ys.as_list():
        return dx
    shape = b.add("Shape", [y], {"T": _dtype(op), "out_type": D.int32})
    return b.add("BroadcastTo", [dx, shape], {"T": _dtype(op), "Tidx": D.int32})


def _sum(op: Operation, terms: List[str], b: NodeBuilder) -> Optional[str]:
    """The sum of the tangent `terms` (None where there are none)."""
    if not terms:
        return None
    total = terms[0]
    for term in terms[1:]:
        total = b.add("AddV2", [total, term], {"T": _dtype(op)})
    return total


def _add(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    terms = [_like(op, k, d, y[0], b) for k, d in enumerate(dx[:2]) if d is not None]
    return [_sum(op, terms, b)]


def _sub(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    terms = [] if dx[0] is None else [_like(op, 0, dx[0], y[0], b)]
    if dx[1] is not None:
        terms.append(_like(op, 1, b.add("Neg", [dx[1]], {"T": _dtype(op)}), y[0], b))
    return [_sum(op, terms, b)]


def _mul(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    t = {"T": _dtype(op)}
    terms = [_like(op, k, b.add("Mul", [d, x[1 - k]], t), y[0], b)
             for k, d in enumerate(dx[:2]) if d is not None]
    return [_sum(op, terms, b)]


def _div(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    # y = a / b: dy = (da - y * db) / b
    t = {"T": _dtype(op)}
    terms = []
    if dx[0] is not None:
        terms.append(_like(op, 0, b.add("RealDiv", [dx[0], x[1]], t), y[0], b))
    if dx[1] is not None:
        part = b.add("RealDiv", [b.add("Mul", [y[0], dx[1]], t), x[1]], t)
        terms.append(_like(op, 1, b.add("Neg", [part], t), y[0], b))
    return [_sum(op, terms, b)]


def _matmul(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    attrs = {"T": _dtype(op), "transpose_a": bool(op.attrs.get("transpose_a")),
             "transpose_b": bool(op.attrs.get("transpose_b"))}
    terms = []
    if dx[0] is not None:
        terms.append(b.add("MatMul", [dx[0], x[1]], attrs))
    if dx[1] is not None:
        terms.append(b.add("MatMul", [x[0], dx[1]], attrs))
    return [_sum(op, terms, b)]


def _bias_add(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
              ) -> Names:
    attrs = {"T": _dtype(op), "data_format": op.attrs.get("data_format") or "NHWC"}
    if dx[1] is None:
        return [dx[0]]
    value = dx[0] if dx[0] is not None else zeros_of(y[0], _dtype(op), b)
    return [b.add("BiasAdd", [value, dx[1]], attrs)]


def _unary(factor: Callable[[Operation, str, str, NodeBuilder], str]
           ) -> Callable[..., Names]:
    """An elementwise op whose tangent is dx * factor(x, y)."""
    def rule(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
             ) -> Names:
        if dx[0] is None:
            return [None]
        return [b.add("Mul", [dx[0], factor(op, x[0], y[0], b)], {"T": _dtype(op)})]
    return rule


def _one_minus(op: Operation, value: str, b: NodeBuilder) -> str:
    return b.add("Sub", [b.const(1, _dtype(op)), value], {"T": _dtype(op)})


def _tanh(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return _one_minus(op, b.add("Square", [y], {"T": _dtype(op)}), b)


def _sigmoid(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Mul", [y, _one_minus(op, y, b)], {"T": _dtype(op)})


def _relu(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    positive = b.add("Greater", [x, b.const(0, _dtype(op))], {"T": _dtype(op)})
    return b.add("Cast", [positive], {"SrcT": D.bool, "DstT": _dtype(op), "Truncate": False})


def _square(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Mul", [b.const(2, _dtype(op)), x], {"T": _dtype(op)})


def _exp(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return y


def _log(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Reciprocal", [x], {"T": _dtype(op)})


def _sin(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Cos", [x], {"T": _dtype(op)})


def _cos(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Neg", [b.add("Sin", [x], {"T": _dtype(op)})], {"T": _dtype(op)})


def _neg(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    return [None if dx[0] is None else b.add("Neg", [dx[0]], {"T": _dtype(op)})]


def _outputs(first: str, count: int) -> List[str]:
    """The names of the `count` outputs of the node whose first output is `first`."""
    head = first.rsplit(":", 1)[0]
    return [f"{head}:{k}" for k in range(count)]


def _apply(op: Operation, inputs: List[str], b: NodeBuilder) -> List[str]:
    """Op `op` of other inputs, written as the function writes `op` itself (an op TF has
    no function gradient for as gradient_lowering.py's ops that TF differentiates)."""
    if op.type in LOWERINGS:
        outputs = LOWERINGS[op.type][1](op, inputs, b)
        if outputs is not None:
            return outputs
    return _outputs(b.add(op.type, inputs, dict(op.attrs)), len(op.outputs))


def _linear_at(*indices: int) -> Callable[..., Names]:
    """An op linear in each of its inputs `indices` (the others: axes, shapes, sizes,
    indices), of one or more outputs: the sum over them of the op taking the tangent in
    place of the input (a bilinear op, a convolution, is linear in each of two)."""
    def rule(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
             ) -> Names:
        terms = []
        for index in indices:
            if dx[index] is not None:
                inputs = list(x)
                inputs[index] = dx[index]
                terms.append(_apply(op, inputs, b))
        if not terms:
            return [None] * len(y)
        return [_sum(op, [term[k] for term in terms], b) for k in range(len(y))]
    return rule


def _slice(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
           ) -> Names:
    """Slice of the tangent, of the output's size (TF's function gradient of a Slice of
    size -1 pads one entry too many: gradient_lowering.py)."""
    if dx[0] is None:
        return [None]
    size = b.add("Shape", [y[0]], {"T": _dtype(op), "out_type": op.attrs["Index"]})
    return [b.add("Slice", [dx[0], x[1], size], dict(op.attrs))]


def _joined(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
            ) -> Names:
    """ConcatV2 and Pack: the same op of the tangents (zeros for inputs without)."""
    count = int(op.attrs["N"])
    if all(d is None for d in dx[:count]):
        return [None]
    parts = [d if d is not None else zeros_of(x[k], op.inputs[k].dtype.base_dtype, b)
             for k, d in enumerate(dx[:count])]
    return [b.add(op.type, parts + x[count:], dict(op.attrs))]


def _select(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
            ) -> Names:
    if dx[1] is None and dx[2] is None:
        return [None]
    sides = [d if d is not None else zeros_of(x[k], _dtype(op), b)
             for k, d in ((1, dx[1]), (2, dx[2]))]
    return [b.add("Select", [x[0]] + sides, {"T": _dtype(op)})]


def _cast(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    if dx[0] is None or not _dtype(op).is_floating:
        return [None]
    return [b.add("Cast", [dx[0]], dict(op.attrs))]


def _extremum(compare: str) -> Callable[..., Names]:
    """Maximum (`GreaterEqual`) and Minimum (`LessEqual`): the tangent of the input TF's
    gradient picks (the first on ties)."""
    def rule(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
             ) -> Names:
        t = {"T": _dtype(op)}
        first = b.add(compare, [x[0], x[1]], t)
        masks = [b.add("Cast", [first], {"SrcT": D.bool, "DstT": _dtype(op),
                                         "Truncate": False})]
        masks.append(_one_minus(op, masks[0], b))
        # (the masks have the output's shape, so have the products)
        return [_sum(op, [b.add("Mul", [d, mask], t) for d, mask in zip(dx[:2], masks)
                          if d is not None], b)]
    return rule


def _squared_difference(op: Operation, x: List[str], dx: Names, y: List[str],
                        b: NodeBuilder) -> Names:
    t = {"T": _dtype(op)}
    twice = b.add("Mul", [b.const(2, _dtype(op)), b.add("Sub", [x[0], x[1]], t)], t)
    terms = [b.add("Mul", [twice, dx[0]], t)] if dx[0] is not None else []
    if dx[1] is not None:
        terms.append(b.add("Neg", [b.add("Mul", [twice, dx[1]], t)], t))
    return [_sum(op, terms, b)]


def _sqrt(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("RealDiv", [b.const(0.5, _dtype(op)), y], {"T": _dtype(op)})


def _rsqrt(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    t = {"T": _dtype(op)}
    cube = b.add("Mul", [b.add("Square", [y], t), y], t)
    return b.add("Mul", [b.const(-0.5, _dtype(op)), cube], t)


def _reciprocal(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Neg", [b.add("Square", [y], {"T": _dtype(op)})], {"T": _dtype(op)})


def _abs(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Sign", [x], {"T": _dtype(op)})


def _softplus(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Sigmoid", [x], {"T": _dtype(op)})


def _mask(op: Operation, compare: str, x: str, bound: float, b: NodeBuilder) -> str:
    """1 where `x compare bound`, else 0 (of x's dtype)."""
    hit = b.add(compare, [x, b.const(bound, _dtype(op))], {"T": _dtype(op)})
    return b.add("Cast", [hit], {"SrcT": D.bool, "DstT": _dtype(op), "Truncate": False})


def _atan(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    t = {"T": _dtype(op)}
    return b.add("Reciprocal", [b.add("AddV2", [b.const(1, _dtype(op)),
                                                b.add("Square", [x], t)], t)], t)


def _asin(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Rsqrt", [_one_minus(op, b.add("Square", [x], {"T": _dtype(op)}), b)],
                 {"T": _dtype(op)})


def _acos(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Neg", [_asin(op, x, y, b)], {"T": _dtype(op)})


def _atanh(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Reciprocal", [_one_minus(op, b.add("Square", [x], {"T": _dtype(op)}), b)],
                 {"T": _dtype(op)})


def _tan(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    t = {"T": _dtype(op)}
    return b.add("AddV2", [b.const(1, _dtype(op)), b.add("Square", [y], t)], t)


def _sinh(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Cosh", [x], {"T": _dtype(op)})


def _cosh(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Sinh", [x], {"T": _dtype(op)})


def _expm1(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("AddV2", [y, b.const(1, _dtype(op))], {"T": _dtype(op)})


def _log1p(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    t = {"T": _dtype(op)}
    return b.add("Reciprocal", [b.add("AddV2", [x, b.const(1, _dtype(op))], t)], t)


def _elu(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    # 1 where x > 0, else exp(x) = y + 1: y + 1 - y where x > 0
    t = {"T": _dtype(op)}
    return b.add("Sub", [_expm1(op, x, y, b), b.add("Mul", [_mask(op, "Greater", x, 0, b), y],
                                                    t)], t)


_SELU_SCALE, _SELU_ALPHA = 1.0507009873554804934193349852946, 1.6732632423543772848170429916717


def _selu(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    # scale where x > 0, else y + scale * alpha
    t = {"T": _dtype(op)}
    positive = _mask(op, "Greater", x, 0, b)
    below = b.add("AddV2", [y, b.const(_SELU_SCALE * _SELU_ALPHA, _dtype(op))], t)
    return b.add("AddV2", [b.add("Mul", [positive, b.const(_SELU_SCALE, _dtype(op))], t),
                           b.add("Mul", [_one_minus(op, positive, b), below], t)], t)


def _relu6(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    return b.add("Mul", [_mask(op, "Greater", x, 0, b), _mask(op, "Less", x, 6, b)],
                 {"T": _dtype(op)})


def _leaky_relu(op: Operation, x: str, y: str, b: NodeBuilder) -> str:
    alpha = float(op.attrs.get("alpha", 0.2))
    t = {"T": _dtype(op)}
    return b.add("AddV2", [b.const(alpha, _dtype(op)), b.add("Mul", [
        b.const(1 - alpha, _dtype(op)), _mask(op, "Greater", x, 0, b)], t)], t)


def _zero(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    return [None] * len(y)


def _last_axis_sum(op: Operation, value: str, b: NodeBuilder, keep: bool = True) -> str:
    """The sum over the last axis of a value of the shape of op's first input (kept: its
    index not negative, TF's function gradient of Sum fails on -1, "indices[0] is out
    of range")."""
    rank = op.inputs[0].shape.rank
    if rank is None:
        size = b.add("Size", [b.add("Shape", [value], {"T": _dtype(op), "out_type": D.int32})],
                     {"T": D.int32, "out_type": D.int32})
        axis = b.add("Sub", [size, b.const(1, D.int32)], {"T": D.int32})
    else:
        axis = b.const(rank - 1, D.int32)
    return b.add("Sum", [value, axis], {"T": _dtype(op), "Tidx": D.int32, "keep_dims": keep})


def _softmax(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
             ) -> Names:
    # y * (dx - sum(dx * y)) over the last axis
    if dx[0] is None:
        return [None]
    t = {"T": _dtype(op)}
    inner = _last_axis_sum(op, b.add("Mul", [dx[0], y[0]], t), b)
    return [b.add("Mul", [y[0], b.add("Sub", [dx[0], inner], t)], t)]


def _log_softmax(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
                 ) -> Names:
    # dx - sum(dx * softmax) over the last axis
    if dx[0] is None:
        return [None]
    t = {"T": _dtype(op)}
    inner = _last_axis_sum(op, b.add("Mul", [dx[0], b.add("Exp", [y[0]], t)], t), b)
    return [b.add("Sub", [dx[0], inner], t)]


def _to_output(op: Operation, term: str, y: str, b: NodeBuilder) -> str:
    shape = b.add("Shape", [y], {"T": _dtype(op), "out_type": D.int32})
    return b.add("BroadcastTo", [term, shape], {"T": _dtype(op), "Tidx": D.int32})


def _select_v2(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
               ) -> Names:
    # (broadcasting: the tangents picked by a 0/1 mask of the condition)
    t = {"T": _dtype(op)}
    mask = b.add("Cast", [x[0]], {"SrcT": D.bool, "DstT": _dtype(op), "Truncate": False})
    terms = [_to_output(op, b.add("Mul", [d, side], t), y[0], b) for d, side in
             ((dx[1], mask), (dx[2], _one_minus(op, mask, b))) if d is not None]
    return [_sum(op, terms, b)]


def _pow(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    # p * x ** (p - 1) * dx + y * log(x) * dp (log taken where x > 0, as TF's gradient)
    t = {"T": _dtype(op)}
    terms = []
    if dx[0] is not None:
        power = b.add("Pow", [x[0], b.add("Sub", [x[1], b.const(1, _dtype(op))], t)], t)
        terms.append(_like(op, 0, b.add("Mul", [dx[0], b.add("Mul", [x[1], power], t)], t),
                           y[0], b))
    if dx[1] is not None:
        positive = b.add("Greater", [x[0], b.const(0, _dtype(op))], t)
        log = b.add("Select", [positive, b.add("Log", [x[0]], t), zeros_of(x[0], _dtype(op),
                                                                           b)], t)
        terms.append(_like(op, 1, b.add("Mul", [dx[1], b.add("Mul", [y[0], log], t)], t),
                           y[0], b))
    return [_sum(op, terms, b)]


def _add_n(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder) -> Names:
    return [_sum(op, [d for d in dx if d is not None], b)]


def _l2_loss(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
             ) -> Names:
    # sum(x * dx)
    if dx[0] is None:
        return [None]
    t = {"T": _dtype(op)}
    flat = b.add("Reshape", [b.add("Mul", [x[0], dx[0]], t), b.const([-1], D.int32)],
                 {"T": _dtype(op), "Tshape": D.int32})
    return [b.add("Sum", [flat, b.const(0, D.int32)], {"T": _dtype(op), "Tidx": D.int32,
                                                       "keep_dims": False})]


def _labels(op: Operation, x: List[str], b: NodeBuilder) -> str:
    """The labels as probabilities: a sparse op's one-hot (an Equal of the labels with a
    Range of the classes: TF has no function gradient for OneHot)."""
    if op.type == "SoftmaxCrossEntropyWithLogits":
        return x[1]
    index = op.inputs[1].dtype.base_dtype
    shape = b.add("Shape", [x[0]], {"T": _dtype(op), "out_type": index})
    depth = b.add("StridedSlice", [shape, b.const([1], D.int32), b.const([2], D.int32),
                                   b.const([1], D.int32)], {
        "T": index, "Index": D.int32, "begin_mask": 0, "end_mask": 0, "ellipsis_mask": 0,
        "new_axis_mask": 0, "shrink_axis_mask": 1})
    classes = b.add("Range", [b.const(0, index), depth, b.const(1, index)], {"Tidx": index})
    column = b.add("ExpandDims", [x[1], b.const(1, D.int32)], {"T": index, "Tdim": D.int32})
    hits = b.add("Equal", [column, classes], {"T": index, "incompatible_shape_error": True})
    return b.add("Cast", [hits], {"SrcT": D.bool, "DstT": _dtype(op), "Truncate": False})


def _cross_entropy(op: Operation, x: List[str], dx: Names, y: List[str], b: NodeBuilder
                   ) -> Names:
    """(Sparse)SoftmaxCrossEntropyWithLogits: the loss's tangent is the product of its
    gradient (softmax - labels, the op's second output `backprop`) with the logits'
    tangent, plus (dense labels) -sum(dlabels * log_softmax); backprop's tangent is
    softmax's less the labels'."""
    t = {"T": _dtype(op)}
    losses, backprops = [], []
    if dx[0] is not None:
        softmax = b.add("Softmax", [x[0]], t)
        backprop = b.add("Sub", [softmax, _labels(op, x, b)], t)
        losses.append(_last_axis_sum(op, b.add("Mul", [backprop, dx[0]], t), b, keep=False))
        inner = _last_axis_sum(op, b.add("Mul", [dx[0], softmax], t), b)
        backprops.append(b.add("Mul", [softmax, b.add("Sub", [dx[0], inner], t)], t))
    if op.type == "SoftmaxCrossEntropyWithLogits" and dx[1] is not None:
        log_softmax = b.add("LogSoftmax", [x[0]], t)
        losses.append(b.add("Neg", [_last_axis_sum(op, b.add("Mul", [dx[1], log_softmax], t),
                                                   b, keep=False)], t))
        backprops.append(b.add("Neg", [dx[1]], t))
    return [_sum(op, losses, b), _sum(op, backprops, b)]


TANGENTS: Dict[str, Callable[..., Names]] = {
    "AddV2": _add, "Sub": _sub, "Mul": _mul, "RealDiv": _div,
    "MatMul": _matmul, "BiasAdd": _bias_add, "Neg": _neg,
    "Tanh": _unary(_tanh), "Sigmoid": _unary(_sigmoid), "Relu": _unary(_relu),
    "Square": _unary(_square), "Exp": _unary(_exp), "Log": _unary(_log),
    "Sin": _unary(_sin), "Cos": _unary(_cos),
    "Sqrt": _unary(_sqrt), "Rsqrt": _unary(_rsqrt), "Reciprocal": _unary(_reciprocal),
    "Abs": _unary(_abs), "Softplus": _unary(_softplus),
    "Identity": _linear_at(0), "Sum": _linear_at(0), "Mean": _linear_at(0),
    "Reshape": _linear_at(0), "ExpandDims": _linear_at(0), "Squeeze": _linear_at(0),
    "Transpose": _linear_at(0), "StridedSlice": _linear_at(0), "Slice": _slice,
    "Unpack": _linear_at(0), "SplitV": _linear_at(0), "Split": _linear_at(1),
    "Fill": _linear_at(1),
    "ConcatV2": _joined, "Pack": _joined, "Select": _select, "Cast": _cast,
    "Maximum": _extremum("GreaterEqual"), "Minimum": _extremum("LessEqual"),
    "SquaredDifference": _squared_difference,
    "Atan": _unary(_atan), "Asin": _unary(_asin), "Acos": _unary(_acos),
    "Atanh": _unary(_atanh), "Tan": _unary(_tan), "Sinh": _unary(_sinh),
    "Cosh": _unary(_cosh), "Expm1": _unary(_expm1), "Log1p": _unary(_log1p),
    "Elu": _unary(_elu), "Selu": _unary(_selu), "Relu6": _unary(_relu6),
    "LeakyRelu": _unary(_leaky_relu), "Sign": _zero, "Softmax": _softmax,
    "LogSoftmax": _log_softmax, "SelectV2": _select_v2, "Pow": _pow, "AddN": _add_n,
    "L2Loss": _l2_loss, "GatherV2": _linear_at(0), "GatherNd": _linear_at(0),
    "Tile": _linear_at(0), "Pad": _linear_at(0), "MirrorPad": _linear_at(0),
    "BroadcastTo": _linear_at(0), "ReverseV2": _linear_at(0), "Cumsum": _linear_at(0),
    "ReverseSequence": _linear_at(0),
    "AvgPool": _linear_at(0), "UnsortedSegmentSum": _linear_at(0),
    "BatchMatMulV2": _linear_at(0, 1), "Conv2D": _linear_at(0, 1),
    "DepthwiseConv2dNative": _linear_at(0, 1),
    "SoftmaxCrossEntropyWithLogits": _cross_entropy,
    "SparseSoftmaxCrossEntropyWithLogits": _cross_entropy,
}
