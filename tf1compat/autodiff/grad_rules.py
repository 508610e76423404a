"""What TF's builtin gradient functions return, per input: for names and None-ness only.

tf1compat computes gradient VALUES with torch autograd. What autograd cannot tell is what
TF's Python gradient function for an op would have returned for each input at graph
build: None (the input gets no gradient), the incoming gradient itself (a pass-through,
e.g. Identity or AddV2 of equal static shapes), an IndexedSlices (gather), or a new
tensor with a name such as `MatMul_grad/MatMul_1`. `tf.gradients` replays TF's backward
walk with these rules so that the tensors it returns are None exactly where TF's are, are
IndexedSlices where TF's are, and carry TF's names.

A rule is `rule(op) -> list` with one entry per input:

* `None`: no gradient;
* `Pass(k)`: the gradient of output k, unchanged;
* `SPARSE`: an IndexedSlices for the params of a gather;
* a string: the local name (under `<op>_grad/`) of the tensor TF creates, "name" or
  "name:k".

Ops without a rule get `<Type>Grad` names (documented divergence: the values are right,
the names are not TF's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["Pass", "SPARSE", "RULES", "rule_for", "default_rule", "is_trainable"]


@dataclass(frozen=True)
class Pass:
    """The incoming gradient of output `index`, passed through unchanged."""
    index: int = 0


SPARSE = "<sparse>"

_TRAINABLE = frozenset({D.float16, D.bfloat16, D.float32, D.float64, D.complex64,
                        D.complex128, D.resource, D.variant})


def is_trainable(t: Any) -> bool:
    """TF's backprop_util.IsTrainable: gradients flow through tensors of these dtypes."""
    return t.dtype.base_dtype in _TRAINABLE


Rule = Callable[[Any], List[Any]]
RULES: Dict[str, Rule] = {}


def _fixed(*entries: Any) -> Rule:
    return lambda op: list(entries)


def _register(types: Sequence[str], rule: Rule) -> None:
    for t in types:
        RULES[t] = rule


# -- elementwise unary ---------------------------------------------------------------------
for _type, _name in {
        "Abs": "mul", "Acos": "mul", "Acosh": "truediv", "Asin": "mul", "Asinh": "truediv",
        "Atan": "mul", "Atanh": "mul", "Cos": "mul", "Cosh": "mul", "Digamma": "mul",
        "Erf": "mul_1", "Erfc": "mul_1", "Exp": "mul", "Expm1": "mul", "Lgamma": "mul",
        "Log": "mul", "Log1p": "mul", "Neg": "Neg", "Reciprocal": "ReciprocalGrad",
        "Inv": "ReciprocalGrad", "Rsqrt": "RsqrtGrad", "Sigmoid": "SigmoidGrad",
        "Sin": "mul", "Sinh": "mul", "Sqrt": "SqrtGrad", "Square": "Mul_1", "Tan": "mul",
        "Tanh": "TanhGrad", "Sign": "zeros_like", "Relu": "ReluGrad", "Relu6": "Relu6Grad",
        "Elu": "EluGrad", "Selu": "SeluGrad", "Softplus": "mul", "LeakyRelu": "LeakyReluGrad",
        "Softsign": "SoftsignGrad", "Transpose": "transpose", "ExpandDims": "Reshape",
        "Squeeze": "Reshape", "Reshape": "Reshape", "ReverseV2": "ReverseV2",
        "Cumsum": "Cumsum", "Cumprod": "div_no_nan", "MirrorPad": "MirrorPadGrad",
        "Tile": "Sum", "Slice": "Pad", "StridedSlice": "StridedSliceGrad", "Pad": "Slice_1",
        "PadV2": "Slice_1", "Fill": None, "BroadcastTo": "Reshape", "Mean": "truediv",
        "Max": "mul", "Min": "mul", "Prod": "Reshape_4", "GatherNd": "ScatterNd",
        "ScatterNd": None, "SegmentSum": "GatherV2", "SegmentMean": "GatherV2",
        "SegmentMax": "SelectV2", "SegmentMin": "SelectV2", "SegmentProd": "mul",
        "UnsortedSegmentSum": "SelectV2", "UnsortedSegmentMax": "SelectV2_2",
        "UnsortedSegmentMin": "SelectV2_2", "UnsortedSegmentProd": "mul",
        "Softmax": "mul_1", "LogSoftmax": "sub", "BiasAdd": None,
}.items():
    if _name is not None:
        RULES[_type] = _fixed(_name)

# The differentiable input is not input 0 for these.
RULES["Fill"] = _fixed(None, "Sum")
RULES["ScatterNd"] = _fixed(None, "GatherNd", None)
RULES["BiasAdd"] = _fixed(Pass(0), "BiasAddGrad")
RULES["ConcatV2"] = lambda op: [f"Slice_{i}" if i else "Slice"
                                for i in range(len(op.inputs) - 1)] + [None]
RULES["Pack"] = lambda op: [f"unstack:{i}" for i in range(len(op.inputs))]
RULES["Unpack"] = _fixed("stack")
RULES["Split"] = _fixed(None, "concat")
RULES["SplitV"] = _fixed("concat", None, None)
RULES["Cast"] = lambda op: ["Cast" if _float_like(op.attrs["SrcT"]) and
                            _float_like(op.attrs["DstT"]) else None]
_register(("Identity", "PlaceholderWithDefault", "Snapshot", "ReadVariableOp"), _fixed(Pass(0)))
RULES["IdentityN"] = lambda op: [Pass(i) for i in range(len(op.inputs))]
RULES["AddN"] = lambda op: [Pass(0)] * len(op.inputs)
RULES["MatMul"] = _fixed("MatMul", "MatMul_1")
RULES["Einsum"] = lambda op: (["Einsum", "Einsum_1"] if len(op.inputs) == 2
                              else ["Einsum"])
RULES["Select"] = _fixed(None, "Select", "Select_1")
# nn ops (declared by tf.nn), names checked against TF.
RULES["Conv2D"] = _fixed("Conv2DBackpropInput", "Conv2DBackpropFilter")
RULES["MaxPool"] = _fixed("MaxPoolGrad")
RULES["AvgPool"] = _fixed("AvgPoolGrad")
RULES["L2Loss"] = _fixed("mul")
RULES["SoftmaxCrossEntropyWithLogits"] = _fixed("mul", "mul_1")
RULES["SparseSoftmaxCrossEntropyWithLogits"] = _fixed("mul", None)


def _float_like(dtype: Any) -> bool:
    return D.as_dtype(dtype).base_dtype in (D.float16, D.bfloat16, D.float32, D.float64,
                                            D.complex64, D.complex128)


# -- reductions ------------------------------------------------------------------------------

def _sum_rule(op: Any) -> List[Any]:
    from tf1compat.framework.constant_value import constant_value
    shape = op.inputs[0].shape
    axes = constant_value(op.inputs[1])
    if shape.rank is not None and axes is not None:
        dims = shape.as_list()
        flat = [int(a) for a in list(axes.reshape(-1))]
        if flat == list(range(len(dims))) or None not in dims:
            return ["Tile", None]
    return ["BroadcastTo", None]


RULES["Sum"] = _sum_rule
for _type in ("Mean", "Max", "Min", "Prod", "Cumsum", "Cumprod", "Tile", "Transpose",
              "Reshape", "ExpandDims", "ReverseV2", "BroadcastTo", "Slice", "StridedSlice",
              "Pad", "MirrorPad", "GatherNd", "SegmentSum", "SegmentMean", "SegmentMax",
              "SegmentMin", "SegmentProd", "UnsortedSegmentSum", "UnsortedSegmentMax",
              "UnsortedSegmentMin", "UnsortedSegmentProd"):
    _inner = RULES[_type]
    RULES[_type] = (lambda inner: lambda op: inner(op) + [None] * (len(op.inputs) - 1))(_inner)
RULES["PadV2"] = _fixed("Slice_1", None, None)
# With keep_dims TF's Prod gradient skips one Reshape.
RULES["Prod"] = lambda op: ["Reshape_3" if op.attrs.get("keep_dims") else "Reshape_4", None]


# -- gather ----------------------------------------------------------------------------------

def _gather_rule(op: Any) -> List[Any]:
    from tf1compat.framework.constant_value import constant_value
    if op.type == "GatherV2":
        axis = constant_value(op.inputs[2])
        batch_dims = op.attrs.get("batch_dims", 0)
        if axis is not None and int(axis) == 0 and not batch_dims:
            return [SPARSE, None, None]
        return ["Reshape_2", None, None]
    return [SPARSE, None]


RULES["GatherV2"] = _gather_rule
RULES["Gather"] = _gather_rule


# -- broadcasting binary ops -----------------------------------------------------------------

def _shape_tuple(shape: TensorShape) -> Optional[tuple]:
    return None if shape.rank is None else tuple(shape.as_list())


def _fully_equal(op: Any) -> bool:
    x, y = op.inputs[0], op.inputs[1]
    xs, ys, gs = (_shape_tuple(x.shape), _shape_tuple(y.shape),
                  _shape_tuple(op.outputs[0].shape))
    return xs is not None and None not in xs and xs == ys == gs


def _must_reduce(xshape: TensorShape, yshape: TensorShape) -> tuple:
    """TF's SmartBroadcastGradientArgs: whether each argument's gradient is reduced."""
    if xshape.rank is None or yshape.rank is None:
        return True, True
    xd, yd = xshape.as_list(), yshape.as_list()
    rank = max(len(xd), len(yd))
    x_axes, y_axes = [], []
    for axis in range(rank):
        xv = 1 if axis < rank - len(xd) else xd[axis - (rank - len(xd))]
        yv = 1 if axis < rank - len(yd) else yd[axis - (rank - len(yd))]
        if xv == 1 and yv != 1:
            x_axes.append(axis)
        elif yv == 1 and xv != 1:
            y_axes.append(axis)
        elif xv is None or yv is None:
            return True, True
    return bool(x_axes) or len(xd) < len(yd), bool(y_axes) or len(yd) < len(xd)


def _binary(gx: Any, gy: Any, fast: bool = True, first: int = 0) -> Rule:
    """A broadcasting op whose gradients are `gx`/`gy`, then reduced where broadcast.

    `fast`: TF returns (gx, gy) unreduced when all static shapes are equal. `first` is
    the index of the first of the two broadcasting inputs (1 for Select's t/e).
    """
    def rule(op: Any) -> List[Any]:
        pad = [None] * first
        if fast and first == 0 and _fully_equal(op):
            return pad + [gx, gy]
        x, y = op.inputs[first], op.inputs[first + 1]
        mx, my = _must_reduce(x.shape, y.shape)
        out, reshapes = [], 0
        for g, must in ((gx, mx), (gy, my)):
            if g is None or not must:
                out.append(g)
            else:
                out.append("Reshape" if reshapes == 0 else f"Reshape_{reshapes}")
                reshapes += 1
        return pad + out
    return rule


RULES["AddV2"] = RULES["Add"] = _binary(Pass(0), Pass(0))
RULES["Sub"] = _binary(Pass(0), "Neg")
RULES["Mul"] = _binary("Mul", "Mul_1")
RULES["RealDiv"] = _binary("RealDiv", "mul")
RULES["Div"] = _binary("truediv", "mul")
RULES["DivNoNan"] = _binary("div_no_nan", "mul")
RULES["MulNoNan"] = _binary("MulNoNan", "MulNoNan_1")
RULES["Maximum"] = RULES["Minimum"] = _binary("SelectV2", "SelectV2_1")
RULES["Pow"] = _binary("mul_1", "mul_3")
RULES["SquaredDifference"] = _binary("mul_1", "Neg")
RULES["Atan2"] = _binary("mul", "mul_1")
RULES["FloorMod"] = _binary(Pass(0), "mul")
RULES["SelectV2"] = _binary("SelectV2", "SelectV2_1", fast=False, first=1)
RULES["Xlogy"] = RULES["Xdivy"] = _fixed("Reshape", "Reshape_1")


def _batch_matmul_rule(op: Any) -> List[Any]:
    xs, ys = op.inputs[0].shape, op.inputs[1].shape
    may_batch = (xs.rank is None or xs.rank > 2) or (ys.rank is None or ys.rank > 2)
    if xs.rank is not None and ys.rank is not None:
        bx, by = xs[:-2], ys[:-2]
        if bx.is_fully_defined() and by.is_fully_defined() and bx == by:
            may_batch = False
    return ["Reshape", "Reshape_1"] if may_batch else ["MatMul", "MatMul_1"]


RULES["BatchMatMulV2"] = RULES["BatchMatMul"] = RULES["BatchMatMulV3"] = _batch_matmul_rule


def default_rule(op: Any) -> List[Any]:
    """Ops without a rule: every trainable input gets a `<Type>Grad` tensor."""
    out, k = [], 0
    for t in op.inputs:
        if is_trainable(t):
            out.append(f"{op.type}Grad" if k == 0 else f"{op.type}Grad_{k}")
            k += 1
        else:
            out.append(None)
    return out


def rule_for(op_type: str) -> Rule:
    return RULES.get(op_type, default_rule)
