"""The untaken branch's stand-ins in a tf.cond lowered into a gradient's forward function
(cond_lowering.py): which values of a branch have a shape the stand-ins keep.

Values the forward function takes from a branch rather than computes (random draws,
gradient stops, a branch loop's outputs) exist only where their branch ran; the other
side of their Merge gives zeros: of their shape where it is static or computed outside
the branch (`shape_source`), else a scalar (only `BROADCASTING_OP_TYPES` take it), and
for a branch loop's output of a run-time shape zeros of its rank with 1 in each unknown
dim (`ones_shape`), where what the branch computes from it takes those (`ones_dims`):
cond_lowering reads a row other than 0 or -1 of them at 0 there (`stand_in_rows`),
pads them with zeros to fill a Reshape (`stand_in_fill`), broadcasts them to a real
value they are concatenated with (`stand_in_concat`) and a branch result of their
shape to the other branch's (`ones_broadcast`).
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["BROADCASTING_OP_TYPES", "RANDOM_OP_TYPES", "array_loop", "ones_shape",
           "ones_dims", "ones_broadcast", "shape_source", "shape_without_cut",
           "stand_in_concat", "stand_in_fill", "stand_in_rows"]

# Ops that may take a cut value (random draws, a gradient stop): elementwise with
# broadcasting, so the scalar that stands for it in the untaken branch computes (and is
# dropped by Select).
BROADCASTING_OP_TYPES = frozenset("""
AddV2 Cast Equal Greater GreaterEqual Less LessEqual Maximum Minimum Mul NotEqual SelectV2
SquaredDifference Sub
""".split())

# Stateful ops a branch may hold: random numbers (their values enter f as inputs).
RANDOM_OP_TYPES = frozenset(["RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                             "RandomUniformInt"])


# Ops whose output has the shape of their first input.
_SHAPE_KEEPING_OP_TYPES = frozenset("""
Abs Cast Ceil Exp Floor Identity Neg PreventGradient Relu Rint Round Sigmoid Sign
Square StopGradient Tanh
""".split())


def array_loop(op: Operation, region: Any) -> Optional[Operation]:
    """The loop of branch `region` `op` is (a While) or reads after it (a stack(),
    gather(), read() or concat() of a TensorArray it writes), or None."""
    if op.type in ("TensorArrayGatherV3", "TensorArrayReadV3", "TensorArrayConcatV3"):
        flow = op.inputs[-1]
        while flow.op.type == "Identity":
            flow = flow.op.inputs[0]
        op = flow.op
    if op.type != "While" or op.attrs.get("loop") is None or \
            op._control_flow_context is not region:
        return None
    return op


def ones_shape(t: Tensor) -> Optional[List[int]]:
    """The shape of the untaken branch's stand-in for `t`, a while loop's output of a
    tf.cond branch (or what the branch reads of an array it writes, after it: a
    dynamic_rnn's outputs) of a shape known only at run time and a known rank: its
    static dims, 1 for each unknown one (`ones_dims` checks what the branch does with
    it); None for other values."""
    if t.shape.ndims is None or t.shape.is_fully_defined() or \
            array_loop(t.op, t.op._control_flow_context) is None:
        return None
    return [1 if d is None else d for d in t.shape.as_list()]


# Ops computing elementwise from their first input, and reductions along constant axes.
_UNARY_OP_TYPES = frozenset("""
Abs Cast Ceil Cos Elu Exp Floor Identity LeakyRelu LogSoftmax Neg PreventGradient Relu
Relu6 Rint Round Selu Sigmoid Sign Sin Softmax Softplus Square StopGradient Tanh
""".split())
_REDUCTION_OP_TYPES = frozenset(["Sum", "Mean", "Max", "Min", "Prod"])

# What `ones_dims` knows of an input: a value of its real shape, or the scalar stand-in
# of a cut value of a run-time shape (only broadcasting ops take it).
_REAL, _SCALAR_STAND_IN = "real", "scalar"

# A dim of a value computed from the stand-in whose size there is not 1 (a ConcatV2
# along a dim from the 1s: the sum of its inputs' sizes), where a dim from the 1s is
# True: ops that take any size there take it (elementwise ops, reductions, one
# element or the whole range of it), those that need its size to be 1 or to agree with
# another value's do not.
_WIDE = "wide"


def ones_dims(written: List[Operation], kinds: Dict[Operation, str]
               ) -> Dict[Tensor, Optional[Tuple[bool, ...]]]:
    """For the branch ops written into f (in graph order) that compute from while loops'
    outputs of run-time shapes (in the untaken branch: zeros of `ones_shape`, so their
    values and gradients stay finite): per value, which of its dims come from those 1s
    (where the taken branch has its run-time sizes: True where the stand-in has 1,
    `_WIDE` where a ConcatV2 along them gave another size), or None where an op might
    fail on them or take its output's shape from elsewhere."""
    dims: Dict[Tensor, Optional[Tuple[bool, ...]]] = {}
    sizes: Dict[Tensor, Tuple[Any, ...]] = {}      # `_shape_values`
    for member in written:
        if any(t in sizes for t in member.inputs) or member.type == "Shape" and \
                dims.get(member.inputs[0]) is not None:
            _shape_values(member, dims, sizes)
            continue
        known: List[Any] = []
        for t in member.inputs:
            if t in dims:
                known.append(dims[t])
            elif kinds.get(t.op) == "loop" and ones_shape(t) is not None:
                known.append(tuple(d is None for d in t.shape.as_list()))
            elif kinds.get(t.op) == "cut" and not t.shape.is_fully_defined() and \
                    shape_source(t) is None:
                known.append(_SCALAR_STAND_IN)
            else:
                known.append(_REAL)
        if not any(m is None or isinstance(m, tuple) for m in known):
            continue
        found = None if None in known or len(member.outputs) != 1 else \
            _propagate_ones(member, known)
        for t in member.outputs:
            dims[t] = found
    return dims


# An element of an int value computed from the Shape of a value with dims from the 1s
# (`_shape_values`): a size the stand-in has as 1 there, or another; other elements are
# real (an int where static, None where known only at run time).
_ONE_SIZE, _WIDE_SIZE = "one size", "wide size"

# Int ops `_shape_values` follows elementwise, and those making a value of a shape.
_SIZE_ARITHMETIC = frozenset(["Mul", "AddV2", "Sub", "FloorDiv", "Maximum", "Minimum",
                              "Cast", "Identity"])


def _shape_values(op: Operation, dims: Dict[Tensor, Any], sizes: Dict[Tensor, Any]) -> None:
    """`ones_dims` of an op computing with the Shape of a value with dims from the 1s
    (`tf.shape(outputs)`: its elements are the stand-in's sizes there, which shapes
    made from them share: tensordot's Reshapes of `tf.layers.dense` over the outputs,
    `tf.sequence_mask(lengths, tf.shape(outputs)[1])`): `sizes` gets its elements, or
    `dims` its output's dims; None where this does not follow it."""
    out = op.outputs[0] if len(op.outputs) == 1 else None
    values = [sizes.get(t) for t in op.inputs]
    found: Any = None
    if op.type == "Shape":
        shape = op.inputs[0].shape.as_list()
        sizes[out] = tuple(_ONE_SIZE if f is True else _WIDE_SIZE if f == _WIDE else d
                           for f, d in zip(dims[op.inputs[0]], shape))
        dims[out] = (False,)
        return
    if op.type in ("GatherV2", "StridedSlice") and values[0] is not None and \
            not any(values[1:]):
        found = _picked_sizes(op, values[0])
    elif op.type in ("Prod", "Sum") and values[0] is not None and not any(values[1:]):
        found = (_folded_size(op.type, values[0]),)
    elif op.type in ("Pack", "ConcatV2") and out is not None:
        parts = [v if v is not None else _static_values(t)
                 for t, v in zip(op.inputs[:len(op.inputs) - (op.type == "ConcatV2")],
                                 values)]
        found = None if None in parts else tuple(e for p in parts for e in p)
    elif op.type in _SIZE_ARITHMETIC and out is not None:
        found = _arithmetic_sizes(op, values)
    elif op.type in ("Reshape", "Fill", "BroadcastTo") and values[0 if op.type == "Fill"
                                                                   else 1] is not None and \
            (op.type != "Reshape" or -1 in values[1] or any(dims.get(op.inputs[0]) or ())):
        # (a Reshape of a value from the stand-in too, whose elements its sizes count, or
        # to a -1 that takes them)
        target = values[0 if op.type == "Fill" else 1]
        dims[out] = tuple(True if e == _ONE_SIZE else _WIDE if e == _WIDE_SIZE or
                          e == -1 and op.type == "Reshape" else False for e in target)
        return
    elif op.type == "Range" and not any(values[k] for k in (0, 2)):
        start, delta = (constant_value(op.inputs[k]) for k in (0, 2))
        dims[out] = (True if values[1] == (_ONE_SIZE,) and start == 0 and delta == 1
                     else _WIDE,)
        return
    if found is None or out is None:
        for t in op.outputs:
            dims[t] = None
        return
    sizes[out] = found
    dims[out] = (False,) * (out.shape.ndims or 0)


def _static_values(t: Tensor) -> Optional[Tuple[Any, ...]]:
    """The elements of an int value not from `_shape_values` (None for each unknown)."""
    value = constant_value(t)
    if value is not None:
        return tuple(int(v) for v in np.atleast_1d(value))
    count = t.shape.num_elements()
    return None if count is None else (None,) * count


def _picked_sizes(op: Operation, values: Tuple[Any, ...]) -> Optional[Tuple[Any, ...]]:
    """The elements a GatherV2 (along 0) or StridedSlice (no ellipsis or new axis) of
    constant indices picks from a vector of `_shape_values` elements."""
    if op.inputs[0].shape.ndims != 1:
        return None
    if op.type == "GatherV2":
        indices, axis = constant_value(op.inputs[1]), constant_value(op.inputs[2])
        if indices is None or axis is None or int(axis) != 0:
            return None
        return tuple(values[int(k)] for k in np.atleast_1d(indices))
    bounds = [constant_value(t) for t in op.inputs[1:4]]
    attrs = op.attrs
    if any(b is None for b in bounds) or attrs.get("ellipsis_mask") or \
            attrs.get("new_axis_mask"):
        return None
    begin, end, stride = (int(np.atleast_1d(b)[0]) for b in bounds)
    if attrs.get("shrink_axis_mask", 0) & 1:
        return (values[begin],)
    picked = range(len(values))[slice(None if attrs.get("begin_mask", 0) & 1 else begin,
                                      None if attrs.get("end_mask", 0) & 1 else end, stride)]
    return tuple(values[k] for k in picked)


def _folded_size(op_type: str, values: Tuple[Any, ...]) -> Any:
    """A Prod or Sum of all `_shape_values` elements: 1 in the stand-in where a product
    of its 1s and static 1s, else another size there where any is from the 1s."""
    if _WIDE_SIZE in values or _ONE_SIZE in values:
        return _ONE_SIZE if op_type == "Prod" and all(
            v in (_ONE_SIZE, 1) for v in values) else _WIDE_SIZE
    if None in values:
        return None
    return int(np.prod(values)) if op_type == "Prod" else int(np.sum(values))


def _arithmetic_sizes(op: Operation, values: List[Any]) -> Optional[Tuple[Any, ...]]:
    """Elementwise int arithmetic of `_shape_values` elements (broadcasting a scalar):
    from the 1s where an operand is (times or plus an identity, else another size)."""
    parts = [v if v is not None else _static_values(t) for t, v in zip(op.inputs, values)]
    if None in parts or op.type in ("Cast", "Identity"):
        return None if None in parts else parts[0]
    a, b = parts
    if len(a) != len(b) and 1 not in (len(a), len(b)):
        return None
    n = max(len(a), len(b))
    a, b = (a * n if len(a) == 1 else a), (b * n if len(b) == 1 else b)
    identity = {"Mul": 1, "AddV2": 0, "Sub": 0, "FloorDiv": 1}.get(op.type)
    found = []
    for x, y in zip(a, b):
        derived = [v for v in (x, y) if v in (_ONE_SIZE, _WIDE_SIZE)]
        if not derived:
            found.append(None)      # real (its value not needed)
        elif len(derived) == 1 and identity is not None and \
                (y if x in derived else x) == identity and op.type != "Sub" or \
                op.type == "Sub" and y == 0:
            found.append(derived[0])
        else:
            found.append(_WIDE_SIZE)
    return tuple(found)


def ones_broadcast(dims: Tuple[bool, ...]) -> bool:
    """Whether a branch result with dims from the stand-in's 1s (`dims`, `ones_dims`)
    takes the other branch's shape by broadcasting (BroadcastTo in cond_lowering, so
    Select gets equal shapes): those dims are 1 in the stand-in (none `_WIDE`)."""
    return _WIDE not in dims


def _propagate_ones(op: Operation, known: List[Any]) -> Optional[Tuple[bool, ...]]:
    """`ones_dims` of `op`'s output from what it knows of the inputs (a tuple of dims
    from the stand-ins' 1s, `_REAL` or `_SCALAR_STAND_IN`)."""
    first = known[0] if isinstance(known[0], tuple) else \
        (False,) * op.inputs[0].shape.ndims if known[0] == _REAL and \
        op.inputs[0].shape.ndims is not None else None
    if op.type in BROADCASTING_OP_TYPES:
        return _broadcast_ones(op, known)
    if op.type == "ConcatV2":
        return _concat_ones(op, known)
    if op.type == "BiasAdd" and first is not None:      # (its bias along static units)
        return None if not first or first[-1] else first
    if op.type == "ReverseSequence" and first is not None and known[1] == _REAL:
        # (bidirectional_dynamic_rnn's: lowered as a product with a permutation the
        # lengths give, rows past the stand-in's size none)
        return first
    if op.type == "BatchMatMulV2" and first is not None:
        return _batch_matmul_ones(op, first, known[1])
    if first is None or op.type not in _UNARY_OP_TYPES | _REDUCTION_OP_TYPES | {
            "Transpose", "ExpandDims", "Squeeze", "MatMul", "StridedSlice", "Reshape"}:
        return None
    if op.type == "Reshape":
        return _reshape_ones(op, first)
    if op.type in _UNARY_OP_TYPES:
        return first
    constant = constant_value(op.inputs[1]) if len(op.inputs) > 1 else None
    if op.type == "Transpose":
        return None if constant is None else tuple(first[int(p)] for p in constant)
    if op.type in _REDUCTION_OP_TYPES:
        if constant is None or not first:
            return None if constant is None else first
        axes = {int(a) % len(first) for a in np.atleast_1d(constant)}
        keep = bool(op.attrs.get("keep_dims"))
        return tuple(False if k in axes else d for k, d in enumerate(first)
                     if keep or k not in axes)
    if op.type == "ExpandDims":
        if constant is None:
            return None
        axis = int(constant) % (len(first) + 1)
        return first[:axis] + (False,) + first[axis:]
    if op.type == "Squeeze":
        axes = {int(a) % len(first) for a in op.attrs.get("squeeze_dims") or []}
        if not axes or any(first[k] == _WIDE for k in axes):
            return None
        return tuple(d for k, d in enumerate(first) if k not in axes)
    if op.type == "MatMul":
        return _matmul_ones(op, first, known[1])
    return _strided_slice_ones(op, first)


def _broadcast_ones(op: Operation, known: List[Any]) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of an elementwise op with broadcasting: a dim comes from the
    1s where an input's does and no other input has a static size other than 1 there;
    None where no input but scalar stand-ins has the output's rank."""
    rank = op.outputs[0].shape.ndims
    wide = None if rank is None else _wide_dims(op, known, rank)
    if wide is None:
        return None
    if not wide and any(m == _REAL and x.shape.ndims is not None and
           x.shape.as_list() == op.outputs[0].shape.as_list()
           for x, m in zip(op.inputs, known)):
        return (False,) * rank      # an input of the output's shape (shape_without_cut)
    found, full = [False] * rank, False
    for x, m in zip(op.inputs, known):
        if m == _SCALAR_STAND_IN:
            continue
        shape = x.shape.as_list() if x.shape.ndims is not None else None
        if shape is None:
            return None
        full = full or len(shape) == rank
        for i in range(len(shape)):
            if isinstance(m, tuple) and m[i]:
                found[rank - len(shape) + i] = True
    for x, m in zip(op.inputs, known):
        if m == _SCALAR_STAND_IN:
            continue
        shape = x.shape.as_list()
        for i, d in enumerate(shape):
            if not (isinstance(m, tuple) and m[i]) and d is not None and d != 1:
                found[rank - len(shape) + i] = False
    return tuple(_WIDE if i in wide else f for i, f in enumerate(found)) if full else None


def _wide_dims(op: Operation, known: List[Any], rank: int) -> Optional[List[int]]:
    """The output dims of broadcasting op `op` (of rank `rank`) where one input is
    `_WIDE`; None where another input might not broadcast against it there (another
    `_WIDE`, a run-time size or a static one other than 1)."""
    counts = [0] * rank
    for m in known:
        if isinstance(m, tuple):
            for i, f in enumerate(m):
                counts[rank - len(m) + i] += f == _WIDE
    if not any(counts):
        return []
    for x, m in zip(op.inputs, known):
        if m == _SCALAR_STAND_IN:
            continue
        if x.shape.ndims is None:
            return None
        for i, d in enumerate(x.shape.as_list()):
            f = m[i] if isinstance(m, tuple) else False
            if counts[rank - x.shape.ndims + i] and f != _WIDE and f is not True and d != 1:
                return None
    return None if max(counts) > 1 else [i for i, c in enumerate(counts) if c]


def _reshape_ones(op: Operation, first: Tuple[bool, ...]) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a Reshape to a constant shape (`stand_in_fill`): the -1
    dim from the 1s (True where the stand-in's elements, filled, make 1 there, `_WIDE`
    where more or as many as a `_WIDE` input dim gives), the other dims real; None
    where the stand-in's elements cannot be made to fill it."""
    fill = stand_in_fill(op, first)
    if fill is None:
        return None
    return tuple(False if d != -1 else True if fill[2] == 1 else _WIDE
                 for d in np.atleast_1d(constant_value(op.inputs[1])))


def stand_in_fill(op: Operation, first: Tuple[bool, ...]
                  ) -> Optional[Tuple[int, int, Optional[int]]]:
    """For a Reshape `op` of a value with dims from the stand-in's 1s (`first`, its
    other dims static) to a constant shape with at most one -1: (axis, size, n): the
    stand-in's elements fill the shape where its dim `axis` (the first from the 1s) has
    `size` (cond_lowering pads it with zeros to that where the branch is not taken:
    `reshape(outputs, [-1, 6])` of 3 units, `[1, 4, 3]` of a length 4 at run time), n
    the -1 dim's size there (None without a -1 or where a dim is `_WIDE`); None where
    no size fills it. A `_WIDE` dim (of a size other than 1) takes only a -1 the
    static dims fill alone (`reshape(concat_along_time, [-1, units])`: size 1)."""
    target = constant_value(op.inputs[1])
    dims = op.inputs[0].shape.as_list()
    if target is None or any(d is None and not derived for d, derived in zip(dims, first)):
        return None
    target = [int(d) for d in np.atleast_1d(target)]
    if target.count(-1) > 1 or not any(first):
        return None
    elements = int(np.prod([d for d, derived in zip(dims, first) if not derived]))
    known = int(np.prod([d for d in target if d != -1]))
    if known == 0 or elements == 0:
        return None
    axis = next(k for k, derived in enumerate(first) if derived)
    if _WIDE in first:
        return (axis, 1, None) if -1 in target and elements % known == 0 else None
    if -1 in target:
        size = known // math.gcd(elements, known)
        return axis, size, elements * size // known
    if known % elements:
        return None
    return axis, known // elements, None


def _concat_ones(op: Operation, known: List[Any]) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a ConcatV2 along a constant axis, no input `_WIDE` in
    another dim (`tf.concat([fw, bw], -1)` of outputs): in each other dim from the 1s
    where all inputs have it from them, real where one is real (the others broadcast to
    it, `stand_in_concat`: `tf.concat([outputs, inputs], -1)`); the axis `_WIDE` where
    an input has it from the 1s (the stand-in's sizes there add up to more than 1:
    `tf.concat([out, out2], 1)` along time); None otherwise."""
    rank = op.outputs[0].shape.ndims
    if rank is None or _SCALAR_STAND_IN in known[:-1]:
        return None
    flags = [m if isinstance(m, tuple) else (False,) * rank for m in known[:-1]]
    if stand_in_concat(op, flags) is None:
        return None
    axis = int(constant_value(op.inputs[-1])) % rank
    return tuple((_WIDE if any(f[axis] for f in flags) else False) if d == axis else
                 all(f[d] for f in flags) for d in range(rank))


def stand_in_concat(op: Operation, flags: List[Tuple[bool, ...]]
                    ) -> Optional[Tuple[int, Dict[int, List[int]]]]:
    """For a ConcatV2 `op` of inputs with dims from the stand-in's 1s (`flags`, per
    input, `ones_dims`) along a constant axis: (ref, {input: dims}), the inputs whose
    dims other than the axis come from the 1s where input `ref`'s are real (1 in the
    stand-in: cond_lowering broadcasts them to ref's sizes there, the sizes they have
    where their branch is taken, as the graph's ConcatV2 checks); None where an input
    is `_WIDE` in another dim or no input is real in each such dim."""
    axis, rank = constant_value(op.inputs[-1]), op.outputs[0].shape.ndims
    if axis is None or rank is None or any(len(f) != rank for f in flags):
        return None
    axis = int(axis) % rank
    if any(f[d] == _WIDE for f in flags for d in range(rank) if d != axis):
        return None
    mixed = [d for d in range(rank) if d != axis and len({bool(f[d]) for f in flags}) > 1]
    ref = next((j for j, f in enumerate(flags) if not any(f[d] for d in mixed)), None)
    if ref is None:
        return None
    return ref, {j: [d for d in mixed if f[d]] for j, f in enumerate(flags)
                 if any(f[d] for d in mixed)}


def _matmul_ones(op: Operation, a: Tuple[bool, ...], b: Any) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a MatMul: None where one side's contracted dim comes from
    the 1s and the other's does not."""
    if b == _SCALAR_STAND_IN:
        return None
    b = b if isinstance(b, tuple) else (False, False)
    ta, tb = bool(op.attrs.get("transpose_a")), bool(op.attrs.get("transpose_b"))
    if a[0 if ta else 1] != b[1 if tb else 0] or a[0 if ta else 1] == _WIDE:
        return None
    return a[1 if ta else 0], b[0 if tb else 1]


def _batch_matmul_ones(op: Operation, a: Tuple[bool, ...], b: Any
                       ) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a BatchMatMulV2 of inputs of one rank and the same batch
    dims (none `_WIDE`: `tf.matmul(outputs, keys, transpose_b=True)` of attention over
    real keys): None where one side's contracted dim comes from the 1s and the other's
    does not, or is `_WIDE`."""
    if b == _SCALAR_STAND_IN or op.inputs[1].shape.ndims is None:
        return None
    b = b if isinstance(b, tuple) else (False,) * op.inputs[1].shape.ndims
    adj_x, adj_y = bool(op.attrs.get("adj_x")), bool(op.attrs.get("adj_y"))
    if len(a) != len(b) or len(a) < 2 or a[:-2] != b[:-2] or _WIDE in a[:-2]:
        return None
    contracted = a[-2 if adj_x else -1]
    if contracted != b[-1 if adj_y else -2] or contracted == _WIDE:
        return None
    return a[:-2] + (a[-1 if adj_x else -2], b[-2 if adj_y else -1])


def _strided_slice_ones(op: Operation, first: Tuple[bool, ...]) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a StridedSlice: along a dim from the 1s the whole range
    (constant stride 1) or one element (`outputs[:, k]`, k constant or computed: a row
    other than 0 or -1 is read at 0 where the stand-in stands, `stand_in_rows`)."""
    attrs = op.attrs
    strides = constant_value(op.inputs[3])
    count = op.inputs[1].shape.num_elements()
    if count is None or attrs.get("ellipsis_mask") or attrs.get("new_axis_mask"):
        return None
    found: List[bool] = []
    for k, derived in enumerate(first):
        if k >= count:
            found.append(derived)
            continue
        shrink = attrs.get("shrink_axis_mask", 0) >> k & 1
        whole = attrs.get("begin_mask", 0) >> k & 1 and attrs.get("end_mask", 0) >> k & 1 \
            and strides is not None and int(np.atleast_1d(strides)[k]) == 1
        if derived and not (shrink or whole):
            return None
        if not shrink:
            found.append(derived)
    return tuple(found)


def stand_in_rows(op: Operation, first: Tuple[bool, ...]) -> List[int]:
    """The dims of StridedSlice `op`'s input (`first`: which come from the stand-in's
    1s, `ones_dims`) it reads one element of at an index other than a constant 0 or
    -1: where the untaken branch computes on the stand-in (1 there), cond_lowering
    reads element 0 instead, so the slice stays in range; the taken branch reads the
    index it names."""
    begin = constant_value(op.inputs[1])
    shrink = op.attrs.get("shrink_axis_mask", 0)
    return [k for k, derived in enumerate(first[:op.inputs[1].shape.num_elements() or 0])
            if derived and shrink >> k & 1 and
            (begin is None or int(np.atleast_1d(begin)[k]) not in (0, -1))]


def shape_source(t: Tensor) -> Optional[Tuple[Tensor, bool]]:
    """For a value `t` computed in a tf.cond branch (random draws, a gradient stop, what
    is computed from them) whose shape is known only at run time: (u, False) where
    tensor u, computed outside the branch, has t's shape, (u, True) where u is t's shape
    (a random op's shape input), or None. The untaken branch's stand-in for `t` is then
    a Fill of zeros of that run-time shape, which any op takes."""
    region = t.op._control_flow_context
    while True:
        op = t.op
        if op.type in RANDOM_OP_TYPES:
            dims = op.inputs[0]
            if dims.op._control_flow_context is not region:
                return dims, True
            if dims.op.type == "Shape" and \
                    dims.op.inputs[0].op._control_flow_context is not region:
                return dims.op.inputs[0], False
            return None
        if op.type in _SHAPE_KEEPING_OP_TYPES:
            nxt = op.inputs[0]
        elif op.type in BROADCASTING_OP_TYPES and t.shape.ndims is not None:
            # the one input of the output's shape, the others of static shapes (so no
            # dimension of the output comes from them)
            same = [x for x in op.inputs if x.shape.ndims is not None and
                    x.shape.as_list() == t.shape.as_list()]
            if not same or any(not x.shape.is_fully_defined() for x in op.inputs
                               if x is not same[0]):
                return None
            nxt = same[0]
        else:
            return None
        if nxt.op._control_flow_context is not region:
            return nxt, False
        t = nxt


def shape_without_cut(op: Operation, kinds: Dict[Operation, str]) -> bool:
    """Whether `op` computes its output's shape with the other branch's stand-ins in
    place of its cut inputs: zeros of their shape where it is static or computed
    outside the branch (`shape_source`: any op), else a scalar into a broadcasting op
    another input of which has the output's shape (so the untaken branch keeps the
    shapes Select needs)."""
    cut = [t for t in op.inputs if kinds.get(t.op) in ("cut", "loop")]
    if all(t.shape.is_fully_defined() or shape_source(t) is not None for t in cut):
        return True     # the other branch's stand-in has their shape (full_shape_stand_in)
    if op.type not in BROADCASTING_OP_TYPES or op.outputs[0].shape.ndims is None:
        return False
    out = op.outputs[0].shape.as_list()
    return any(t.shape.ndims is not None and t.shape.as_list() == out
               for t in op.inputs if kinds.get(t.op) not in ("cut", "loop"))
