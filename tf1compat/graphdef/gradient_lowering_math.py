"""Elementwise ops TF's function gradients lack (or get wrong), written inside a
gradient's forward function (gradient_export.py) as their first-order expansion around
the values the graph computed outside it.

TF 2.21's SymbolicGradient has no function gradient for Erf and Erfc (GELU of BERT-style
models), Softsign, Atan2, FloorMod, MulNoNan and PlaceholderWithDefault, and its function
gradients of Asinh and Acosh give other values than TF 1.x's Python gradients
(scripts/probe_tf_function_gradients.py). None of them can be written exactly as ops TF
differentiates, but each has a derivative that can, from the op's inputs and output. So
inside the forward function an op `y = op(x_1, ..., x_n)` becomes

    y_outside + sum_k (x_k - x_k_outside) * c_k(x_outside, y_outside)

where the `_outside` values are the graph's own tensors (the op itself stays in the graph
outside the function) entering the function as extra inputs (`OuterValue`), and c_k is the
factor TF 1.x's Python gradient multiplies the incoming gradient with. The value is the
op's (the differences are zero); TF differentiates it to `dy * c_k` for input k, which is
TF 1.x's gradient; the gradients TF computes for the extra inputs are dropped. (It gives
first derivatives only, all a training graph takes.)

`LINEARIZED[op_type]` is (why_not(op) -> reason or None, factors(op, outside names,
builder) -> the name of each input's factor c_k, or None for an input with no gradient);
`outside names` are those of the op's inputs, then of its output.
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.graphdef.function_nodes import NodeBuilder

__all__ = ["LINEARIZED", "OuterValue", "linearize", "outer_values"]


class _OuterName:
    """The name a forward function's argument for an outside value is derived from."""

    def __init__(self, name: str):
        self.name = name


class OuterValue:
    """A graph tensor entering a forward function as an input of its own, distinct from the
    same tensor computed inside the function (function_export.py keys inputs by object)."""

    def __init__(self, tensor: Tensor):
        self.tensor = tensor
        self.op = _OuterName(f"{tensor.op.name}_outside")

    @property
    def dtype(self) -> D.DType:
        return self.tensor.dtype

    @property
    def shape(self) -> TensorShape:
        return self.tensor.shape


def outer_values(op: Operation) -> List[OuterValue]:
    """The outside values a linearized `op` reads: its inputs, then its output."""
    return [OuterValue(t) for t in list(op.inputs) + [op.outputs[0]]]


def linearize(op: Operation, inside: List[str], outside: List[str], b: NodeBuilder
              ) -> List[Optional[str]]:
    """`op`'s output inside the forward function: the outside output plus each input's
    difference from its outside value times its factor (names of the function's values:
    `inside` the op's inputs computed there, `outside` those of `outer_values`)."""
    dtype = op.outputs[0].dtype.base_dtype
    total = outside[-1]
    for k, factor in enumerate(LINEARIZED[op.type][1](op, outside, b)):
        if factor is None:
            continue
        difference = b.add("Sub", [inside[k], outside[k]], {"T": dtype})
        step = difference if factor == "" else b.add("Mul", [difference, factor], {"T": dtype})
        total = b.add("AddV2", [total, step], {"T": dtype})
    return [total]


def _floating(op: Operation) -> Optional[str]:
    if not op.outputs[0].dtype.is_floating:
        return f"{op.type} of {op.outputs[0].dtype.base_dtype.name} values"
    return None


def _gaussian(op: Operation, outside: List[str], b: NodeBuilder, scale: float) -> str:
    # scale * exp(-x^2): Erf's and Erfc's derivatives (2/sqrt(pi), -2/sqrt(pi)).
    dtype = op.outputs[0].dtype.base_dtype
    bell = b.add("Exp", [b.add("Neg", [b.add("Square", [outside[0]], {"T": dtype})],
                               {"T": dtype})], {"T": dtype})
    return b.add("Mul", [b.const(scale, dtype), bell], {"T": dtype})


def _erf(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    return [_gaussian(op, outside, b, 2 / np.sqrt(np.pi))]


def _erfc(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    return [_gaussian(op, outside, b, -2 / np.sqrt(np.pi))]


def _softsign(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # 1 / (1 + |x|)^2, as TF's SoftsignGrad kernel.
    dtype = op.outputs[0].dtype.base_dtype
    denominator = b.add("Square", [b.add("AddV2", [b.const(1, dtype), b.add(
        "Abs", [outside[0]], {"T": dtype})], {"T": dtype})], {"T": dtype})
    return [b.add("Reciprocal", [denominator], {"T": dtype})]


def _asinh(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # 1 / cosh(y), y the output.
    dtype = op.outputs[0].dtype.base_dtype
    return [b.add("Reciprocal", [b.add("Cosh", [outside[1]], {"T": dtype})], {"T": dtype})]


def _acosh(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # 1 / sinh(y) (TF 1.x divides with xdivy: 0, not NaN, for a zero gradient at x = 1).
    dtype = op.outputs[0].dtype.base_dtype
    return [b.add("Reciprocal", [b.add("Sinh", [outside[1]], {"T": dtype})], {"T": dtype})]


def _atan2(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # atan2(y, x): x / (x^2 + y^2) for y, -y / (x^2 + y^2) for x.
    dtype = op.outputs[0].dtype.base_dtype
    y, x = outside[0], outside[1]
    norm = b.add("AddV2", [b.add("Square", [x], {"T": dtype}),
                           b.add("Square", [y], {"T": dtype})], {"T": dtype})
    return [b.add("RealDiv", [x, norm], {"T": dtype}),
            b.add("RealDiv", [b.add("Neg", [y], {"T": dtype}), norm], {"T": dtype})]


def _mul_no_nan(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # x * y: y for x, x for y (mul_no_nan's zeros for a zero incoming gradient aside).
    return [outside[1], outside[0]]


def _floor_mod(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # 1 for x, -floor(x / y) for y. Floor has no function gradient: floor(v) is
    # trunc(v) (a cast through int64) less one where v is below it.
    dtype = op.outputs[0].dtype.base_dtype
    ratio = b.add("RealDiv", [outside[0], outside[1]], {"T": dtype})
    whole = b.add("Cast", [b.add("Cast", [ratio], {"SrcT": dtype, "DstT": D.int64,
                                                   "Truncate": False})],
                  {"SrcT": D.int64, "DstT": dtype, "Truncate": False})
    below = b.add("Cast", [b.add("Less", [ratio, whole], {"T": dtype})],
                  {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    floor = b.add("Sub", [whole, below], {"T": dtype})
    return ["", b.add("Neg", [floor], {"T": dtype})]


def _identity(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # PlaceholderWithDefault: the gradient passes through, as TF 1.x's; the value is the
    # graph's, so a fed value is what the gradient sees, as in TF.
    return [""]


Factors = Callable[[Operation, List[str], NodeBuilder], List[Optional[str]]]

LINEARIZED: Dict[str, Tuple[Callable[[Operation], Optional[str]], Factors]] = {
    "Erf": (_floating, _erf),
    "Erfc": (_floating, _erfc),
    "Softsign": (_floating, _softsign),
    "Asinh": (_floating, _asinh),
    "Acosh": (_floating, _acosh),
    "Atan2": (_floating, _atan2),
    "MulNoNan": (_floating, _mul_no_nan),
    "FloorMod": (_floating, _floor_mod),
    "PlaceholderWithDefault": (_floating, _identity),
}

