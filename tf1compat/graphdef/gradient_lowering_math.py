"""Elementwise ops TF's function gradients lack (or get wrong), written inside a
gradient's forward function (gradient_export.py) as their first-order expansion around
the values the graph computed outside it.

TF 2.21's SymbolicGradient has no function gradient for Erf and Erfc (GELU of BERT-style
models), Softsign, Atan2, FloorMod, MulNoNan, PlaceholderWithDefault and the
FakeQuantWithMinMax* ops (quantization-aware training), and its function
gradients of Asinh and Acosh give other values than TF 1.x's Python gradients
(scripts/probe_tf_function_gradients.py); nor for Lgamma and Digamma, whose factors
(digamma, trigamma) are written as series in ops it differentiates (`_polygamma`). None
of them can be written exactly as ops TF differentiates, but each has a derivative that
can, from the op's inputs and output. So inside the forward function an op
`y = op(x_1, ..., x_n)` becomes

    y_outside + sum_k (x_k - x_k_outside) * c_k(x_outside, y_outside)

where the `_outside` values are the graph's own tensors (the op itself stays in the graph
outside the function) entering the function as extra inputs (`OuterValue`), and c_k is the
factor TF 1.x's Python gradient multiplies the incoming gradient with. The value is the
op's (the differences are zero); TF differentiates it to `dy * c_k` for input k, which is
TF 1.x's gradient; the gradients TF computes for the extra inputs are dropped. (It gives
first derivatives only, all a training graph takes.)

`LINEARIZED[op_type]` is (why_not(op) -> reason or None, factors(op, outside names,
builder) -> the name of each input's factor c_k, or None for an input with no gradient);
`outside names` are those of the op's inputs, then of its outputs. `PICKED` holds ops
written from their outside outputs otherwise: TopKV2 (the input's entries at the outside
indices), the segment maxima and minima (the expansion over a one-hot of the ids) and
CTCLoss (the expansion with the op's own `gradient` output as the factor).
"""

from __future__ import annotations

from typing import Callable, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering_nn import segment_count

__all__ = ["LINEARIZED", "PICKED", "OuterValue", "linearize", "outer_values"]


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
    """The outside values a linearized `op` reads: its inputs, then its outputs."""
    return [OuterValue(t) for t in list(op.inputs) + list(op.outputs)]


def linearize(op: Operation, inside: List[str], outside: List[str], b: NodeBuilder,
              branch: Optional[Tuple[str, bool]] = None) -> List[Optional[str]]:
    """`op`'s outputs inside the forward function (names of the function's values:
    `inside` the op's inputs computed there, `outside` those of `outer_values`).
    `branch`: (the predicate, whether `op` is in the true branch) of the tf.cond whose
    branch holds `op` (cond_lowering.py)."""
    if op.type in PICKED:
        return PICKED[op.type][1](op, inside, outside, b)
    dtype = op.outputs[0].dtype.base_dtype
    # The outside output plus each input's difference from its outside value times its
    # factor.
    total = outside[len(op.inputs)]
    for k, factor in enumerate(LINEARIZED[op.type][1](op, outside, b)):
        if factor is None:
            continue
        if branch is not None and factor != "":
            # Where the branch did not run its outside values are zeros, at which a
            # factor may be inf (1/sinh(0) of Acosh): Select's zero gradient times it
            # would be NaN, so the factor is 0 there (scalar predicate: the whole value).
            zeros = b.add("Fill", [b.add("Shape", [factor], {"T": dtype, "out_type": D.int32}),
                                   b.const(0, dtype)], {"T": dtype, "index_type": D.int32})
            pred, taken = branch
            factor = b.add("Select", [pred, factor, zeros] if taken else [pred, zeros, factor],
                           {"T": dtype})
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


def _polygamma(x: str, order: int, dtype: D.DType, b: NodeBuilder) -> str:
    """Digamma (`order` 0) or trigamma (1) of `x`, in float64 from ops TF
    differentiates (Digamma and Polygamma have no function gradient): reflected to
    z >= 1/2 (psi(x) = psi(1 - x) - pi / tan(pi x), psi1(x) = pi^2 / sin^2(pi x) -
    psi1(1 - x)), shifted to w = z + 8 (psi(z) = psi(w) - sum 1/(z + k), psi1(z) =
    psi1(w) + sum 1/(z + k)^2) and the asymptotic series at w (error < 1e-11), cast
    back to `dtype`. Only the factor's value matters: its gradient reaches only f's
    outside inputs, whose gradients are dropped."""
    f64 = D.float64

    def add(op_type: str, inputs: List[str]) -> str:
        return b.add(op_type, inputs, {"T": f64})
    wide = b.add("Cast", [x], {"SrcT": dtype, "DstT": f64, "Truncate": False})
    reflect = b.add("Less", [wide, b.const(0.5, f64)], {"T": f64})
    z = b.add("Select", [reflect, add("Sub", [b.const(1.0, f64), wide]), wide], {"T": f64})
    w = add("AddV2", [z, b.const(8.0, f64)])
    inverse = add("Reciprocal", [w])
    square = add("Square", [inverse])
    if order == 0:        # log w - 1/(2w) - sum_k B_2k / (2k w^2k)
        coefficients = [-1 / 12, 1 / 120, -1 / 252, 1 / 240, -1 / 132]
        series = add("Sub", [add("Log", [w]), add("Mul", [b.const(0.5, f64), inverse])])
        term = square
    else:                 # 1/w + 1/(2w^2) + sum_k B_2k / w^(2k+1)
        coefficients = [1 / 6, -1 / 30, 1 / 42, -1 / 30, 5 / 66]
        series = add("AddV2", [inverse, add("Mul", [b.const(0.5, f64), square])])
        term = add("Mul", [square, inverse])
    for coefficient in coefficients:
        series = add("AddV2", [series, add("Mul", [b.const(coefficient, f64), term])])
        term = add("Mul", [term, square])
    for k in range(8):
        step = add("Reciprocal", [add("AddV2", [z, b.const(float(k), f64)])])
        series = add("Sub", [series, step]) if order == 0 else \
            add("AddV2", [series, add("Square", [step])])
    angle = add("Mul", [b.const(np.pi, f64), wide])
    if order == 0:
        reflected = add("Sub", [series, add("RealDiv", [b.const(np.pi, f64),
                                                         add("Tan", [angle])])])
    else:
        reflected = add("Sub", [add("RealDiv", [b.const(np.pi ** 2, f64), add(
            "Square", [add("Sin", [angle])])]), series])
    value = b.add("Select", [reflect, reflected, series], {"T": f64})
    return b.add("Cast", [value], {"SrcT": f64, "DstT": dtype, "Truncate": False})


def _lgamma(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # digamma(x), as TF 1.x's Lgamma gradient.
    return [_polygamma(outside[0], 0, op.outputs[0].dtype.base_dtype, b)]


def _digamma(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # polygamma(1, x), as TF 1.x's Digamma gradient.
    return [_polygamma(outside[0], 1, op.outputs[0].dtype.base_dtype, b)]


def _ctc_loss(op: Operation, inside: List[str], outside: List[str], b: NodeBuilder
              ) -> List[Optional[str]]:
    # loss[b] = loss_outside[b] + sum over time and classes of (x - x_outside) times the
    # op's own `gradient` output, which is what TF 1.x's CTCLoss gradient hands on
    # (scaled by the incoming gradient per batch entry); `gradient` is the outside one.
    dtype = op.outputs[0].dtype.base_dtype
    loss, gradient = outside[len(op.inputs)], outside[len(op.inputs) + 1]
    step = b.add("Mul", [b.add("Sub", [inside[0], outside[0]], {"T": dtype}), gradient],
                 {"T": dtype})
    summed = b.add("Sum", [step, b.const([0, 2], D.int32)],
                   {"T": dtype, "Tidx": D.int32, "keep_dims": False})
    return [b.add("AddV2", [loss, summed], {"T": dtype}), gradient]


def _identity(op: Operation, outside: List[str], b: NodeBuilder) -> List[Optional[str]]:
    # PlaceholderWithDefault: the gradient passes through, as TF 1.x's; the value is the
    # graph's, so a fed value is what the gradient sees, as in TF.
    return [""]


def _top_k(op: Operation, inside: List[str], outside: List[str], b: NodeBuilder
           ) -> List[Optional[str]]:
    # The values are the input's entries at the indices the op chose outside: a one-hot
    # [..., k, n] of those indices times the input, summed over n (TF 1.x's gradient
    # scatters to the same indices); the indices are the outside ones.
    dtype = op.outputs[0].dtype.base_dtype
    indices = outside[len(op.inputs) + 1]
    shape = b.add("Shape", [inside[0]], {"T": dtype, "out_type": D.int32})
    size = b.add("StridedSlice", [shape, b.const([-1], D.int32), b.const([0], D.int32),
                                  b.const([1], D.int32)],
                 {"T": D.int32, "Index": D.int32, "begin_mask": 0, "end_mask": 1,
                  "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 1})
    positions = b.add("Range", [b.const(0, D.int32), size, b.const(1, D.int32)],
                      {"Tidx": D.int32})
    column = b.add("ExpandDims", [indices, b.const(-1, D.int32)],
                   {"T": D.int32, "Tdim": D.int32})
    hits = b.add("Equal", [column, positions], {"T": D.int32, "incompatible_shape_error": True})
    one_hot = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    rows = b.add("ExpandDims", [inside[0], b.const(-2, D.int32)],
                 {"T": dtype, "Tdim": D.int32})
    # (The last axis counted from the front: TF's function gradient of Sum refuses -1.)
    last = b.const(op.inputs[0].shape.ndims, D.int32)
    picked = b.add("Sum", [b.add("Mul", [rows, one_hot], {"T": dtype}), last],
                   {"T": dtype, "Tidx": D.int32, "keep_dims": False})
    return [picked, indices]


def _top_k_why_not(op: Operation) -> Optional[str]:
    if not op.outputs[0].dtype.is_floating or op.outputs[1].dtype.base_dtype != D.int32 \
            or op.inputs[0].shape.ndims is None:
        return "TopKV2 of a non-float input or of unknown rank"
    return None


def _segment_extreme(op: Operation, inside: List[str], outside: List[str], b: NodeBuilder
                     ) -> List[Optional[str]]:
    # y_outside + M @ ((x - x_outside) * w), M the one-hot [segments, ids] of the ids and
    # w the share TF 1.x's gradient gives each row: 1 / (the number of rows equal to its
    # segment's maximum (minimum)) where it equals it, else 0 (all from outside values).
    dtype = op.outputs[0].dtype.base_dtype
    index_type = op.inputs[1].dtype.base_dtype
    segments = segment_count(op)
    width = int(np.prod(op.inputs[0].shape.as_list()[op.inputs[1].shape.ndims:]))

    def rows(name: str) -> str:
        return b.add("Reshape", [name, b.const([-1, width], D.int32)],
                     {"T": dtype, "Tshape": D.int32})

    def product(matrix: str, value: str, transpose: bool) -> str:
        return b.add("MatMul", [matrix, value], {"T": dtype, "transpose_a": transpose,
                                                 "transpose_b": False})
    flat_ids = b.add("Reshape", [outside[1], b.const([1, -1], D.int32)],
                     {"T": index_type, "Tshape": D.int32})
    hits = b.add("Equal", [b.const(np.arange(segments).reshape(-1, 1), index_type), flat_ids],
                 {"T": index_type, "incompatible_shape_error": True})
    members = b.add("Cast", [hits], {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    x_out, y_out = rows(outside[0]), rows(outside[len(op.inputs)])
    chosen = b.add("Cast", [b.add("Equal", [x_out, product(members, y_out, True)], {
        "T": dtype, "incompatible_shape_error": True})],
        {"SrcT": D.bool, "DstT": dtype, "Truncate": False})
    counts = product(members, product(members, chosen, False), True)
    share = b.add("DivNoNan", [chosen, counts], {"T": dtype})
    step = b.add("Mul", [b.add("Sub", [rows(inside[0]), x_out], {"T": dtype}), share],
                 {"T": dtype})
    total = b.add("AddV2", [y_out, product(members, step, False)], {"T": dtype})
    # An empty segment keeps its outside value by Select, so the gradient there (inf for
    # the square of UnsortedSegmentMin's largest float) never meets the one-hot's zeros.
    filled = b.add("Greater", [b.add("Sum", [members, b.const(1, D.int32)], {
        "T": dtype, "Tidx": D.int32, "keep_dims": False}), b.const(0, dtype)], {"T": dtype})
    total = b.add("Select", [filled, total, y_out], {"T": dtype})
    shape = b.add("Shape", [outside[len(op.inputs)]], {"T": dtype, "out_type": D.int32})
    return [b.add("Reshape", [total, shape], {"T": dtype, "Tshape": D.int32})]


def _segment_extreme_why_not(op: Operation) -> Optional[str]:
    data, ids = op.inputs[0].shape, op.inputs[1].shape
    if data.ndims is None or ids.ndims is None or segment_count(op) is None or \
            None in data.as_list()[ids.ndims:] or not op.outputs[0].dtype.is_floating:
        return (f"{op.type} with a segment count or segment shape unknown when the graph "
                "is written")
    return None


def _levels(op: Operation) -> Tuple[float, float]:
    """The fake-quant op's lowest and highest integer level."""
    narrow = bool(op.attrs["narrow_range"])
    return (1.0 if narrow else 0.0), float((1 << int(op.attrs["num_bits"])) - 1)


def _fake_quant_args(op: Operation, outside: List[str], b: NodeBuilder
                     ) -> List[Optional[str]]:
    # The gradient passes where the input is inside the nudged range (TF's
    # FakeQuantWithMinMaxArgsGradient), the range nudged as TF's kernel does, in float32.
    f32 = np.float32
    q_lo, q_hi = (f32(v) for v in _levels(op))
    lo, hi = f32(op.attrs["min"]), f32(op.attrs["max"])
    scale = (hi - lo) / (q_hi - q_lo)
    zero_from_min = q_lo - lo / scale
    zero = q_lo if zero_from_min < q_lo else q_hi if zero_from_min > q_hi else \
        f32(np.trunc(zero_from_min) + (np.sign(zero_from_min)
                                       if abs(zero_from_min - np.trunc(zero_from_min)) >= 0.5
                                       else 0.0))
    nudged_lo, nudged_hi = f32((q_lo - zero) * scale), f32((q_hi - zero) * scale)
    inside = b.add("LogicalAnd", [
        b.add("GreaterEqual", [outside[0], b.const(nudged_lo, D.float32)], {"T": D.float32}),
        b.add("LessEqual", [outside[0], b.const(nudged_hi, D.float32)], {"T": D.float32})], {})
    return [b.add("Cast", [inside], {"SrcT": D.bool, "DstT": D.float32, "Truncate": False})]


def _fake_quant_vars(op: Operation, outside: List[str], b: NodeBuilder
                     ) -> List[Optional[str]]:
    # As FakeQuantWithMinMaxVars(PerChannel)Gradient: the input's gradient where it is
    # inside the nudged range, min's where below it, max's where above (broadcast Muls:
    # TF sums them over the elements, per channel); a channel whose min and max are both
    # 0 passes all to the input. The nudge written with ops TF differentiates (std::round
    # as a truncating cast plus the sign where the fraction is at least a half).
    f32 = D.float32
    x, lo, hi = outside[0], outside[1], outside[2]
    q_lo, q_hi = _levels(op)

    def add(op_type: str, inputs: List[str], attrs: Optional[Dict] = None) -> str:
        return b.add(op_type, inputs, {"T": f32} if attrs is None else attrs)

    def cast(v: str, source: D.DType, target: D.DType) -> str:
        return b.add("Cast", [v], {"SrcT": source, "DstT": target, "Truncate": False})
    scale = add("RealDiv", [add("Sub", [hi, lo]), b.const(q_hi - q_lo, f32)])
    zero_from_min = add("Sub", [b.const(q_lo, f32), add("RealDiv", [lo, scale])])
    whole = cast(cast(zero_from_min, f32, D.int32), D.int32, f32)
    half_up = cast(add("GreaterEqual", [add("Abs", [add("Sub", [zero_from_min, whole])]),
                                        b.const(0.5, f32)]), D.bool, f32)
    rounded = add("AddV2", [whole, add("Mul", [half_up, add("Sign", [zero_from_min])])])
    zero = add("Maximum", [add("Minimum", [rounded, b.const(q_hi, f32)]), b.const(q_lo, f32)])
    nudged_lo = add("Mul", [add("Sub", [b.const(q_lo, f32), zero]), scale])
    nudged_hi = add("Mul", [add("Sub", [b.const(q_hi, f32), zero]), scale])
    unset = b.add("LogicalAnd", [add("Equal", [lo, b.const(0.0, f32)],
                                     {"T": f32, "incompatible_shape_error": True}),
                                 add("Equal", [hi, b.const(0.0, f32)],
                                     {"T": f32, "incompatible_shape_error": True})], {})
    is_set = b.add("LogicalNot", [unset], {})
    inside = b.add("LogicalOr", [b.add("LogicalAnd", [
        add("GreaterEqual", [x, nudged_lo]), add("LessEqual", [x, nudged_hi])], {}), unset], {})
    below = b.add("LogicalAnd", [add("Less", [x, nudged_lo]), is_set], {})
    above = b.add("LogicalAnd", [add("Greater", [x, nudged_hi]), is_set], {})
    return [cast(mask, D.bool, f32) for mask in (inside, below, above)]


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
    "Lgamma": (_floating, _lgamma),
    "Digamma": (_floating, _digamma),
    "FakeQuantWithMinMaxArgs": (_floating, _fake_quant_args),
    "FakeQuantWithMinMaxVars": (_floating, _fake_quant_vars),
    "FakeQuantWithMinMaxVarsPerChannel": (_floating, _fake_quant_vars),
}

# Ops whose outputs inside the forward function are picked from their inputs by what
# the op computed outside it (TopKV2: the values at its indices, exact).
PICKED: Dict[str, Tuple[Callable[[Operation], Optional[str]],
                        Callable[[Operation, List[str], List[str], NodeBuilder],
                                 List[Optional[str]]]]] = {
    "TopKV2": (_top_k_why_not, _top_k),
    "CTCLoss": (lambda op: None, _ctc_loss),
    **{op_type: (_segment_extreme_why_not, _segment_extreme)
       for op_type in ("SegmentMax", "SegmentMin", "UnsortedSegmentMax", "UnsortedSegmentMin")},
}

