"""Op rows: elementwise math (unary, binary, comparisons, bitwise), casts, reductions,
scans, segment reductions."""

import numpy as np

from tests.golden.op_harness import Dyn, err, f16, f32, f64, i32, i64, pos, rand, row

_NONZERO = np.array([[-1.5, -0.7, 0.3], [0.9, 1.7, -2.2]], np.float32)
_UNIT = rand((2, 3), lo=-0.9, hi=0.9, seed=3)
_SPECIAL = np.array([0.0, -1.5, np.inf, -np.inf, np.nan, 2.5], np.float32)
_HALVES = np.array([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 0.4, -0.6], np.float32)
_BOOLS_A = np.array([[True, False, True], [False, True, False]])
_BOOLS_B = np.array([True, True, False])
_INT_A = np.array([[7, -7, 9], [-9, 12, 5]], np.int32)
_INT_B = np.array([2, 3, -4], np.int32)

# (op, input values): unary float ops on the domain where TF and its gradient are defined.
_UNARY_FLOAT = [
    ("Abs", _NONZERO), ("Acos", _UNIT), ("Acosh", pos(2, 3) + 1), ("Asin", _UNIT),
    ("Asinh", f32(2, 3)), ("Atan", f32(2, 3)), ("Atanh", _UNIT), ("Ceil", f32(2, 3)),
    ("Cos", f32(2, 3)), ("Cosh", f32(2, 3)), ("Digamma", pos(2, 3)), ("Erf", f32(2, 3)),
    ("Erfc", f32(2, 3)), ("Exp", f32(2, 3)), ("Expm1", f32(2, 3)), ("Floor", f32(2, 3)),
    ("Inv", _NONZERO), ("Lgamma", pos(2, 3)), ("Log", pos(2, 3)), ("Log1p", pos(2, 3)),
    ("Neg", f32(2, 3)), ("Reciprocal", _NONZERO), ("Rint", _HALVES), ("Round", _HALVES),
    ("Rsqrt", pos(2, 3)), ("Sigmoid", f32(2, 3)), ("Sign", _NONZERO), ("Sin", f32(2, 3)),
    ("Sinh", f32(2, 3)), ("Sqrt", pos(2, 3)), ("Square", f32(2, 3)), ("Tan", _UNIT),
    ("Tanh", f32(2, 3)),
]

ROWS = [row(op, x=x) for op, x in _UNARY_FLOAT] + [
    row("Abs", x=_INT_A),
    row("Abs", x=f64(3)),
    row("Exp", x=f16(4), rtol=1e-3, atol=1e-3, grad_rtol=1e-2, grad_atol=1e-2),
    row("Neg", x=i64(4)),
    row("Sign", x=_INT_A),
    row("Square", x=_INT_A),
    err("Reciprocal", x=np.array([1, 2, -4], np.int32)),     # no CPU kernel for ints
    row("Tanh", x=Dyn(f32(2, 3), (None, 3))),
    row("Sqrt", x=Dyn(pos(2, 3))),
    row("IsFinite", x=_SPECIAL),
    row("IsInf", x=_SPECIAL),
    row("IsNan", x=_SPECIAL),
    row("LogicalNot", x=_BOOLS_A),
    row("Invert", x=_INT_A),
    row("Invert", x=np.array([0, 5, 255], np.uint8)),
    row("OnesLike", x=f32(2, 3)),
    row("ZerosLike", x=_INT_A),
    row("Conj", input=rand((3,), "complex64")),
    row("ComplexAbs", x=rand((3,), "complex64")),
    row("ComplexAbs", x=rand((3,), "complex128"), Tout="float64"),
    row("Real", input=rand((3,), "complex64")),
    row("Imag", input=rand((3,), "complex128"), Tout="float64"),
    row("Cast", x=f32(2, 3), DstT="int32"),
    row("Cast", x=_INT_A, DstT="float32"),
    row("Cast", x=f32(2, 3), DstT="float64"),
    row("Cast", x=f32(2, 3), DstT="float16", rtol=1e-3),
    row("Cast", x=np.array([0.0, 1.5, -2.0], np.float32), DstT="bool"),
    row("Cast", x=_BOOLS_A, DstT="int64"),
    row("Cast", x=np.array([300, -1, 7], np.int32), DstT="uint8"),
    row("Cast", x=np.array([2.7, -2.7], np.float32), DstT="int32", Truncate=True),
    err("Cast", x=f32(2), DstT="floaty"),
]

# -- binary elementwise ops, broadcasting [2, 3] against [3] ------------------------------------

_BINARY_FLOAT = ["Add", "AddV2", "Sub", "Mul", "Div", "RealDiv", "Maximum", "Minimum",
                 "SquaredDifference", "Atan2", "DivNoNan", "MulNoNan", "FloorDiv", "FloorMod",
                 "TruncateDiv", "TruncateMod"]

ROWS += [row(op, x=f32(2, 3), y=_NONZERO[0]) for op in _BINARY_FLOAT if op != "Atan2"]
ROWS += [
    row("Atan2", y=f32(2, 3), x=_NONZERO[0]),
    row("Pow", x=pos(2, 3), y=f32(3, seed=1)),
    row("Pow", x=_INT_A, y=np.array([2, 0, 1], np.int32)),
    row("Xdivy", x=f32(2, 3), y=_NONZERO[0]),
    row("Xdivy", x=np.array([0.0, 1.0, 0.0], np.float32), y=np.array([0.0, 2.0, 3.0], np.float32)),
    row("Xlogy", x=f32(2, 3), y=pos(3)),
    row("Xlogy", x=np.array([0.0, 1.0], np.float32), y=np.array([0.0, 2.0], np.float32)),
    row("DivNoNan", x=f32(4), y=np.array([0.0, 2.0, -1.0, 0.0], np.float32)),
    row("MulNoNan", x=np.array([np.inf, 1.0, np.nan], np.float32),
        y=np.array([0.0, 2.0, 0.0], np.float32)),
    row("Add", x=f32(2, 1), y=f32(1, 3, seed=1)),
    row("Add", x=_INT_A, y=_INT_B),
    row("Add", x=np.array([b"ab", b"c"], object), y=np.array([b"x", b"yz"], object)),
    row("AddV2", x=f64(2, 3), y=f64(3, seed=1)),
    row("AddV2", x=Dyn(f32(2, 3), (None, 3)), y=Dyn(f32(3, seed=1), (None,))),
    row("Sub", x=i64(3), y=i64(3, seed=1)),
    row("Mul", x=_INT_A, y=_INT_B),
    row("Mul", x=rand((2,), "complex64"), y=rand((2,), "complex64", seed=1)),
    row("Div", x=_INT_A, y=_INT_B),
    row("RealDiv", x=f64(3), y=pos(3, dtype="float64")),
    row("FloorDiv", x=_INT_A, y=_INT_B),
    row("FloorMod", x=_INT_A, y=_INT_B),
    row("TruncateDiv", x=_INT_A, y=_INT_B),
    row("TruncateMod", x=_INT_A, y=_INT_B),
    row("Maximum", x=_INT_A, y=_INT_B),
    row("Minimum", x=i64(4), y=i64(4, seed=2)),
    row("SquaredDifference", x=_INT_A, y=_INT_B),
    row("Mul", x=f32(2, 3), y=Dyn(f32(2, 3, seed=1))),
    err("AddV2", x=f32(2, 3), y=f32(2, 4)),
    err("Mul", x=f32(2, 3), y=i32(2, 3)),
    err("Sub", x=Dyn(f32(2, 3), (None, 3)), y=Dyn(f32(3, 3), (None, 3))),
    err("Div", x=_INT_A, y=np.array([1, 0, 2], np.int32)),
]

_COMPARISONS = ["Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]
_ROUNDED = np.round(f32(2, 3))
ROWS += [row(op, x=_ROUNDED, y=np.round(f32(3, seed=1))) for op in _COMPARISONS]
ROWS += [
    row("Equal", x=_INT_A, y=_INT_B),
    row("Equal", x=np.array([b"a", b"b"], object), y=np.array([b"a", b"c"], object)),
    row("NotEqual", x=_BOOLS_A, y=_BOOLS_B),
    row("Equal", x=f32(2, 3), y=f32(2, 4), incompatible_shape_error=False),
    row("Less", x=i64(4), y=i64(4, seed=1)),
    err("Greater", x=f32(2, 3), y=f32(2)),
    row("LogicalAnd", x=_BOOLS_A, y=_BOOLS_B),
    row("LogicalOr", x=_BOOLS_A, y=_BOOLS_B),
    row("BitwiseAnd", x=_INT_A, y=_INT_B),
    row("BitwiseOr", x=_INT_A, y=_INT_B),
    row("BitwiseXor", x=i64(4, lo=0, hi=100), y=i64(4, lo=0, hi=100, seed=1)),
    row("LeftShift", x=_INT_A, y=np.array([1, 2, 3], np.int32)),
    row("RightShift", x=_INT_A, y=np.array([1, 2, 3], np.int32)),
    row("RightShift", x=np.array([200, 17], np.uint8), y=np.array([3, 1], np.uint8)),
    row("ClipByValue", t=f32(2, 3), clip_value_min=np.float32(-0.5),
        clip_value_max=np.float32(1.0)),
    # Where min > max TF gives min; the gradient then goes where TF's comparisons of t
    # with min and max send it, which autograd does not follow (checked without it).
    row("ClipByValue", t=f32(2, 3), clip_value_min=f32(2, 3, seed=1) - 1,
        clip_value_max=f32(2, 3, seed=2) + 1.5, with_grad=False),
    row("ClipByValue", t=f32(2, 3), clip_value_min=f32(2, 3, seed=1) - 1.5,
        clip_value_max=f32(2, 3, seed=2) + 1.5),
    row("ClipByValue", t=_INT_A, clip_value_min=np.int32(-3), clip_value_max=np.int32(8)),
    row("AddN", inputs=[f32(2, 3), f32(2, 3, seed=1), f32(2, 3, seed=2)]),
    row("AddN", inputs=[_INT_A]),
    err("AddN", inputs=[f32(2, 3), f32(3, 2)]),
]

# -- reductions, scans, arg-reductions -----------------------------------------------------------

_REDUCTIONS = ["Sum", "Prod", "Max", "Min", "Mean"]
ROWS += [row(op, input=f32(2, 3, 4), axis=[1]) for op in _REDUCTIONS]
ROWS += [row(op, input=f32(2, 3), axis=np.array([0, -1], np.int64), keep_dims=True)
         for op in _REDUCTIONS]
ROWS += [
    row("Sum", input=_INT_A, axis=0),
    row("Sum", input=f32(2, 3), axis=np.zeros((0,), np.int32)),
    row("Sum", input=Dyn(f32(2, 3)), axis=[1]),
    row("Prod", input=_INT_A, axis=[1], keep_dims=True),
    row("Max", input=i64(3, 4), axis=1),
    row("Mean", input=_INT_A, axis=[0, 1]),
    row("Mean", input=f64(3, 2), axis=Dyn(np.array([0], np.int32))),
    err("Sum", input=f32(2, 3), axis=[2]),
    err("Max", input=f32(2, 3), axis=[0, 0, 5]),
    row("All", input=_BOOLS_A, axis=[1]),
    row("Any", input=_BOOLS_A, axis=0, keep_dims=True),
    row("All", input=_BOOLS_A, axis=np.zeros((0,), np.int32)),
    row("ArgMax", input=f32(3, 4), dimension=1),
    row("ArgMax", input=_INT_A, dimension=0, output_type="int32"),
    row("ArgMin", input=f32(3, 4), dimension=-1),
    row("ArgMin", input=f64(5), dimension=np.int64(0), output_type="int32"),
    err("ArgMax", input=f32(3, 4), dimension=2),
    row("Cumsum", x=f32(2, 3), axis=1),
    row("Cumsum", x=f32(2, 3), axis=0, exclusive=True),
    row("Cumsum", x=_INT_A, axis=1, reverse=True),
    row("Cumsum", x=f32(4), axis=0, exclusive=True, reverse=True),
    row("Cumprod", x=f32(2, 3), axis=1),
    row("Cumprod", x=f32(2, 3), axis=-1, exclusive=True, reverse=True),
    row("Cumprod", x=_INT_A, axis=0),
    err("Cumsum", x=f32(2, 3), axis=2),
    row("SegmentSum", data=f32(4, 3), segment_ids=np.array([0, 0, 1, 3], np.int32)),
    row("SegmentMean", data=f32(4, 3), segment_ids=np.array([0, 1, 1, 1], np.int32)),
    row("SegmentMax", data=f32(4, 3), segment_ids=np.array([0, 0, 2, 2], np.int64)),
    row("SegmentMin", data=_INT_A, segment_ids=np.array([0, 0], np.int32)),
    row("SegmentProd", data=f32(4), segment_ids=np.array([0, 1, 1, 2], np.int32)),
    err("SegmentSum", data=f32(4, 3), segment_ids=np.array([1, 0, 0, 0], np.int32)),
    row("UnsortedSegmentSum", data=f32(4, 3), segment_ids=np.array([2, 0, 2, 1], np.int32),
        num_segments=4),
    row("UnsortedSegmentMax", data=f32(4, 3), segment_ids=np.array([2, 0, 2, 1], np.int32),
        num_segments=3),
    row("UnsortedSegmentMin", data=_INT_A, segment_ids=np.array([1, 1], np.int64),
        num_segments=np.int64(3)),
    row("UnsortedSegmentProd", data=f32(5), segment_ids=np.array([0, 1, 0, -1, 1], np.int32),
        num_segments=2),
    row("UnsortedSegmentSum", data=f32(2, 2, 3), segment_ids=np.array([[0, 1], [1, 1]], np.int32),
        num_segments=2),
    err("UnsortedSegmentSum", data=f32(4, 3), segment_ids=np.array([0, 5, 1, 1], np.int32),
        num_segments=3),
    row("SparseSegmentSum", data=f32(4, 3), indices=np.array([0, 2, 3], np.int32),
        segment_ids=np.array([0, 0, 1], np.int32)),
    row("SparseSegmentMean", data=f32(4, 3), indices=np.array([3, 1, 1], np.int32),
        segment_ids=np.array([0, 1, 1], np.int32)),
    row("SparseSegmentSqrtN", data=f32(4, 3), indices=np.array([0, 1, 2, 3], np.int64),
        segment_ids=np.array([0, 0, 0, 2], np.int32)),
    err("SparseSegmentSum", data=f32(4, 3), indices=np.array([0, 9], np.int32),
        segment_ids=np.array([0, 0], np.int32)),
    row("Range", start=np.int32(2), limit=np.int32(11), delta=np.int32(3)),
    row("Range", start=np.float32(0.5), limit=np.float32(-1.0), delta=np.float32(-0.25)),
    row("Range", start=np.int64(0), limit=np.int64(4), delta=np.int64(1)),
    err("Range", start=np.int32(0), limit=np.int32(4), delta=np.int32(0)),
    row("LinSpace", start=np.float32(-1.0), stop=np.float32(2.0), num=np.int32(7)),
    row("LinSpace", start=np.float64(3.0), stop=np.float64(1.0), num=np.int64(1)),
    row("HistogramFixedWidth", values=f32(20), value_range=np.array([-1.0, 1.0], np.float32),
        nbins=np.int32(5)),
    row("HistogramFixedWidth", values=_INT_A, value_range=np.array([-5, 10], np.int32),
        nbins=np.int32(3), dtype="int64"),
    row("DenseBincount", input=np.array([1, 1, 3, 0, 5], np.int32), size=np.int32(4),
        weights=np.zeros((0,), np.float32)),
    row("DenseBincount", input=np.array([1, 1, 3, 0], np.int32), size=np.int32(5),
        weights=np.array([0.5, 1.0, 2.0, 3.0], np.float32)),
    row("DenseBincount", input=np.array([[1, 2], [2, 2]], np.int64), size=np.int64(3),
        weights=np.zeros((0,), np.int64), binary_output=True),
    row("Bucketize", input=np.array([[-1.0, 0.0, 0.5], [2.0, 10.0, 3.0]], np.float32),
        boundaries=[0.0, 1.0, 3.0]),
    row("Bucketize", input=np.array([-3, 0, 1, 2, 7], np.int64), boundaries=[0.5, 1.0, 2.0]),
    row("Bucketize", input=np.array([1.5, 2.5], np.float64), boundaries=[]),
]
