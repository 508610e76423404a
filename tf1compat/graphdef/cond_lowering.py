"""A tf.cond inside a gradient's forward function: both branches computed, Select picks.

TF 2.21's function gradients have no gradient for `If`/`StatelessIf` (nor for the
Switch/Merge of TF1's dataflow form), so a `tf.cond` on the path from the differentiated
sources to the ys (dropout or batch normalization with a tensor `training` flag) is
written inside `f` (gradient_export.py) as the ops of both branches followed by
`Select(pred, then_value, else_value)` per output the region uses. The value is the taken
branch's; Select's gradient gives the untaken branch exact zeros.

That is the cond's gradient only where the untaken branch is harmless, so a cond is
lowered only when (`plan_cond`):

* every op of both branches that the outputs need is side-effect free and, where it is
  computed from the sources, of a type in `FINITE_GRADIENT_OP_TYPES` (a finite gradient
  at finite inputs, lowered by gradient_lowering.py where TF lacks it), or one of
  `POSITIVE_INPUT_OP_TYPES` (log, rsqrt, sqrt, reciprocal, division) of a value
  provably > 0 (`_Positivity`), so zeros flowing back through the untaken branch stay
  zeros; or an op of gradient_lowering_math.py (Erf, Lgamma, TopKV2, CTCLoss, ...),
  written as its expansion with each factor selected to 0 where its branch is not
  taken (its outside values are stand-ins there, at which a factor may be inf). A
  branch with log of anything else, exp, pow, ... (its zero gradient could become
  0 * inf = NaN, e.g. log of 0), with an assignment, a TensorArray, a nested
  construct or any other stateful op on the path keeps the gradient op in tf1compat's
  form (gradient_export warns); in a while-loop body, a branch's while loop can be
  differentiated outside f (`plan_cond`'s `loops`: a nested backward loop), its
  outputs then inputs of f as the random draws below;
* random numbers drawn in a branch (dropout's mask) are not redrawn, gradient stops
  (`tf.nn.moments`) not differentiated: the values computed from them enter `f` as
  inputs (`CondPlan.cut`). In the graph file, such a value exists only when its branch
  runs; the export passes it through a `Merge` with zeros from the other branch
  (control_flow_export.ControlFlowExport.gradient_input; in a loop body
  loop_gradient_export's `_pushed_value`): of its shape where that is static (any op
  takes them), else a scalar, which only ops in `BROADCASTING_OP_TYPES` accept in the
  branch Select drops (where another input of theirs has their output's shape, so
  that branch keeps the shapes Select needs). A branch loop's output of a run-time
  shape stands as zeros of its rank with 1 in each unknown dim (`ones_shape`) where
  what the branch computes from it takes those and keeps its result's shape
  (`_ones_dims`). A resource variable read in a branch (Keras' batch
  norm reads its moving moments there) is an input of f the same way; the other side of
  its Merge reads the variable outside the cond (any value of the right shape would do:
  Select drops it).
* f takes only what the written ops read (`CondPlan.reads`), not every input of the If
  op (a resource handle as an input of f has no gradient of its type).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import NodeDef
from tf1compat.serialization.tensor_proto import attr_to_proto
from tf1compat.graphdef.function_export import output_arg
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering import LOWERINGS
from tf1compat.graphdef.gradient_lowering_math import (LINEARIZED, PICKED, OuterValue,
                                                      linearize, outer_values)
from tf1compat.graphdef.graph_io import op_to_node_def

__all__ = ["element_dtype", "element_output", "element_reads", "inner_element", "FINITE_GRADIENT_OP_TYPES", "BROADCASTING_OP_TYPES", "RANDOM_OP_TYPES",
           "CondPlan", "plan_cond", "write_cond", "shape_source", "ones_shape"]

# Ops whose TF gradient is finite wherever their inputs are finite (the lowered ones of
# gradient_lowering.py included: Elu/Softplus/... compute each side on its own, batch
# norm's rsqrt adds epsilon > 0, Prod multiplies).
FINITE_GRADIENT_OP_TYPES = frozenset("""
Abs AddN AddV2 AvgPool BatchMatMulV2 BiasAdd BroadcastTo Cast ConcatV2 Const Conv2D Cos
Cumprod Cumsum
DepthwiseConv2dNative Elu Equal ExpandDims Fill FusedBatchNormV3 GatherV2 Greater
GreaterEqual Identity L2Loss LeakyRelu LogSoftmax MatMul Max MaxPool Maximum
Mean Minimum Mul Neg NotEqual Pack Pad Prod Relu Relu6 Reshape Select SelectV2 Selu Shape
Sigmoid Sin Slice Softmax SoftmaxCrossEntropyWithLogits Softplus
SparseSoftmaxCrossEntropyWithLogits Split Square SquaredDifference Squeeze StridedSlice Sub
Sum Tanh Tile Transpose Unpack
""".split())

# Ops that may take a cut value (random draws, a gradient stop): elementwise with
# broadcasting, so the scalar that stands for it in the untaken branch computes (and is
# dropped by Select).
BROADCASTING_OP_TYPES = frozenset("""
AddV2 Cast Equal Greater GreaterEqual Maximum Minimum Mul NotEqual SelectV2
SquaredDifference Sub
""".split())

# Ops with an infinite gradient where one input is 0 (the input's index): written where
# that input is provably > 0 (`_Positivity`), as batch normalization's rsqrt(variance +
# epsilon) is.
POSITIVE_INPUT_OP_TYPES = {"Rsqrt": 0, "Sqrt": 0, "Log": 0, "Reciprocal": 0, "RealDiv": 1}

# Stateful ops a branch may hold: random numbers (their values enter f as inputs).
RANDOM_OP_TYPES = frozenset(["RandomUniform", "RandomStandardNormal", "TruncatedNormal",
                             "RandomUniformInt"])


@dataclass
class CondPlan:
    """How one `If` op of a gradient's region is written in its forward function."""
    op: Operation
    outputs: List[int]                                   # If outputs the region uses
    ops: List[Operation] = field(default_factory=list)   # branch ops written, in order
    cut: List[Tensor] = field(default_factory=list)      # branch values f takes
    reads: List[Tensor] = field(default_factory=list)    # outside tensors f takes
    # branch ops written as expansions around the graph's values (gradient_lowering_math)
    # and the outside values f takes for them
    outer: Dict[Operation, List[OuterValue]] = field(default_factory=dict)
    # tf.conds in a branch (in a loop body: those holding loops) -> their plans, written
    # the same way inside this one's
    inner: Dict[Operation, "CondPlan"] = field(default_factory=dict)
    # outputs whose branches write a TensorArray element (`element_writes`)
    element_writes: List[int] = field(default_factory=list)
    # TensorArrayWriteV3 ops of the branches whose elements are each the Select of it
    # and zeros (`masked`), their names after the If outputs' in `write_cond`'s
    masked: List[Operation] = field(default_factory=list)


def plan_cond(op: Operation, used: List[int], reached: Set[Operation],
              sources: Set[Tensor], loops: Optional[Callable[[Operation], Optional[str]]] = None,
              pushed: Optional[Callable[[Operation], bool]] = None,
              element_writes: Sequence[int] = (),
              masked: Sequence[Operation] = ()) -> Tuple[Any, Any]:
    """(CondPlan, None) for tf.cond op `op` whose outputs `used` the region reads, or
    (None, reason) where it cannot be written as both branches and Select. `reached`: the
    ops computed from the sources; `sources`: the values f takes for them (a resource
    variable's reads in the branches among them). `loops(while_op)`, where given, takes
    a while loop of a branch as a loop differentiated outside f (a nested backward loop
    in a loop body, loop_gradient_export.py; its outputs and the branch's reads of the
    TensorArrays it writes after it are inputs of f, among `cut`), or says why not; there a tf.cond in a branch is written the same way inside (its plan
    in `inner`). `pushed(op)`: whether a branch op off the gradient path is computed
    outside f (among `cut`: an op TF cannot differentiate in a function, such as the
    FloorMod of an inner cond's predicate) rather than written into it.
    `element_writes`: the outputs whose branches return a TensorArrayWriteV3 or the
    array's flow unchanged (in a loop body, loop_array_plan.cond_write): written as the
    element written (zeros where none is), so their Select is the element the loop's
    array gets this iteration. `masked`: TensorArrayWriteV3 ops of the branches (at
    indices differing per branch, more than one in a branch) whose elements are each
    written as the Select of it and zeros (`Select(p, e, 0)` for the then branch's)."""
    then_b, else_b = op.attrs.get("then_branch"), op.attrs.get("else_branch")
    if getattr(then_b, "region", None) is None or getattr(else_b, "region", None) is None:
        return None, "the region contains a control-flow construct (If)"
    plan = CondPlan(op, list(used), reads=[op.inputs[0]], element_writes=list(element_writes),
                    masked=list(masked))
    positive = _Positivity()
    captured = set(op.inputs[1:])
    array_writes = {b.outputs[k].op for b in (then_b, else_b) for k in element_writes
                    if b.outputs[k].op.type == "TensorArrayWriteV3"} | set(masked)
    # branch op -> "write" (into f) | "cut" (computed outside f: random draws, gradient
    # stops, what only they feed) | "read" (a variable's value, an input of f)
    kinds: Dict[Operation, str] = {}
    from_loop: Set[Operation] = set()     # written ops computed from a branch loop's outputs
    # tf.conds in a branch returning the element of an `element_writes` output
    element_ifs: Set[Operation] = set()

    def classify(member: Operation, region: Any) -> Optional[str]:
        """Sets kinds[member] (and of what it reads in `region`); a reason on failure."""
        stack = [(member, False)]
        while stack:
            current, expanded = stack.pop()
            if current in kinds:
                continue
            if current.type == "ReadVariableOp" and current.inputs[0] in captured:
                kinds[current] = "read"      # a variable's value: an input of f
                continue
            if current in array_writes:
                kinds[current] = "write"     # its element (`write_cond`)
                if current.inputs[2].op._control_flow_context is region and \
                        current.inputs[2] not in sources:
                    stack.append((current.inputs[2].op, False))
                continue
            if current.type in ("StopGradient", "PreventGradient"):
                kinds[current] = "cut"       # as at the top: no gradient through it
                continue
            nested = _array_loop(current, region) if loops is not None else None
            if nested is not None:
                # a read of an array a loop of the branch writes, after it (stack() of a
                # dynamic_rnn's outputs): the loop's output as its variables are
                reason = loops(nested)
                if reason is not None:
                    return reason
                kinds[current] = "loop"
                continue
            if current.type == "If" and (loops is not None or current in element_ifs) \
                    and not expanded:
                # a tf.cond in the branch: both branches + Select inside this one's
                used_inner = [k for k, t in enumerate(current.outputs) if t.consumers()]
                sub, reason = plan_cond(current, used_inner, reached, sources, loops, pushed,
                                        element_writes=[
                                            k for k in used_inner if element_output(
                                                current.outputs[k])]
                                        if current in element_ifs else ())
                if reason is not None:
                    return reason
                plan.inner[current] = sub
                stack.append((current, True))
                stack.extend((t.op, False) for t in sub.reads
                             if t.op._control_flow_context is region and t not in sources
                             and t.op not in kinds)
                continue
            if current.type == "If" and current in plan.inner:
                sub = plan.inner[current]
                if any(t.op._control_flow_context is not region and t not in captured |
                       sources for t in sub.reads):
                    return "a tf.cond in a tf.cond branch reads a value no input of the outer If"
                kinds[current] = "write"
                continue
            if current.type in ("If", "Case", "While"):
                return _writable(current, True, positive)
            if current._op_def.stateful:     # what it reads is computed outside f too
                if current.type not in RANDOM_OP_TYPES:
                    return f"a tf.cond branch on the gradient path holds the stateful op " \
                        f"{current.type}"
                kinds[current] = "cut"
                continue
            inside = [t.op for t in current.inputs
                      if t.op._control_flow_context is region and t not in sources]
            if not expanded:
                stack.append((current, True))
                stack.extend((o, False) for o in inside if o not in kinds)
                continue
            for t in current.inputs:
                if t.op._control_flow_context is not region and t not in captured | sources:
                    return f"a tf.cond branch reads {t.name}, which is no input of its If op"
            # (what a branch loop's outputs reach is differentiated, as what the sources
            # reach: those outputs carry the nested backward loop's gradients)
            on_path = current in reached or any(kinds.get(o) == "loop" or o in from_loop
                                                 for o in inside)
            if not on_path and (any(kinds.get(o) == "cut" for o in inside) or
                                pushed is not None and pushed(current)):
                kinds[current] = "cut"       # computed outside f, from the draws
            else:
                if on_path and current not in reached:
                    from_loop.add(current)
                reason = _writable(current, on_path, positive)
                if reason is not None:
                    return reason
                kinds[current] = "write"
                if current in reached and current.type in (*LINEARIZED, *PICKED):
                    plan.outer[current] = outer_values(current)
        return None

    for branch in (then_b, else_b):
        region = branch.region
        for k in used:
            out = branch.outputs[k]
            if not (out.dtype.is_floating and out.dtype.base_dtype != D.bfloat16):
                return None, f"a tf.cond output of type {out.dtype.base_dtype.name}"
            if k in element_writes and out.op not in array_writes:
                inner = inner_element(out)
                if inner is None:
                    continue    # the flow unchanged: zeros in the Select (`write_cond`)
                element_ifs.add(inner.op)   # its element the Select of its branches'
                reason = classify(inner.op, region)
                if reason is not None:
                    return None, reason
                continue
            if out.op._control_flow_context is region and out not in sources:
                reason = classify(out.op, region)
                if reason is None and out.value_index and out.op.type in LOWERINGS:
                    reason = f"a tf.cond branch returns a second output of {out.op.type}"
                if reason is None and kinds[out.op] == "cut":
                    reason = "a tf.cond branch returns random numbers or a gradient stop"
                if reason is None and kinds[out.op] == "loop" and not (
                        out.shape.is_fully_defined() or shape_source(out) is not None):
                    reason = ("a tf.cond branch returns a while loop's output of a shape "
                              "unknown when the graph is written")
                if reason is not None:
                    return None, reason
            _take(plan, out, kinds, sources)
    for write in masked:
        reason = classify(write, write._control_flow_context)
        if reason is not None:
            return None, reason
    # What the written ops read: cut values become inputs of f, only into broadcasting
    # ops; lowered ops give only their first output.
    written = sorted((o for o, kind in kinds.items() if kind == "write"), key=lambda o: o._id)
    ones = _ones_dims(written, kinds)
    if any(any(ones.get(b.outputs[k]) or ()) for b in (then_b, else_b) for k in used):
        return None, ("a tf.cond branch returns a value whose shape depends on that of a "
                      "while loop's output known only at run time")
    for member in written:
        plan.ops.append(member)
        tracked = bool(member.outputs) and member.outputs[0] in ones
        if tracked and any(ones[t] is None for t in member.outputs) or not tracked and any(
                kinds.get(t.op) in ("cut", "loop") for t in member.inputs) and \
                not _shape_without_cut(member, kinds):
            if tracked or any(kinds.get(t.op) == "loop" for t in member.inputs):
                return None, (f"a while loop's output of a tf.cond branch (or what the "
                              f"branch reads of its TensorArrays after it: a dynamic_rnn's "
                              f"outputs) reaches {member.type}, which needs its full "
                              f"shape, known only at run time")
            return None, (f"random numbers or a gradient stop of a tf.cond branch reach "
                          f"{member.type}, which needs their full shape")
        if member in plan.inner:    # what the inner cond's written ops read, and its cut
            sub = plan.inner[member]
            for t in sub.reads:
                _take(plan, t, kinds, sources)
            plan.cut.extend(t for t in sub.cut if t not in plan.cut)
            continue
        for t in member.inputs if member not in array_writes else member.inputs[2:3]:
            if t.op in kinds and t.value_index and t.op.type in LOWERINGS:
                return None, f"a tf.cond branch uses a second output of {t.op.type}"
            _take(plan, t, kinds, sources)
    return plan, None


# Ops whose output has the shape of their first input.
_SHAPE_KEEPING_OP_TYPES = frozenset("""
Abs Cast Ceil Exp Floor Identity Neg PreventGradient Relu Rint Round Sigmoid Sign
Square StopGradient Tanh
""".split())


def _array_loop(op: Operation, region: Any) -> Optional[Operation]:
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
    static dims, 1 for each unknown one (`_ones_dims` checks what the branch does with
    it); None for other values."""
    if t.shape.ndims is None or t.shape.is_fully_defined() or \
            _array_loop(t.op, t.op._control_flow_context) is None:
        return None
    return [1 if d is None else d for d in t.shape.as_list()]


# Ops computing elementwise from their first input, and reductions along constant axes.
_UNARY_OP_TYPES = frozenset("""
Abs Cast Ceil Cos Elu Exp Floor Identity LeakyRelu LogSoftmax Neg PreventGradient Relu
Relu6 Rint Round Selu Sigmoid Sign Sin Softmax Softplus Square StopGradient Tanh
""".split())
_REDUCTION_OP_TYPES = frozenset(["Sum", "Mean", "Max", "Min", "Prod"])

# What `_ones_dims` knows of an input: a value of its real shape, or the scalar stand-in
# of a cut value of a run-time shape (only broadcasting ops take it).
_REAL, _SCALAR_STAND_IN = "real", "scalar"


def _ones_dims(written: List[Operation], kinds: Dict[Operation, str]
               ) -> Dict[Tensor, Optional[Tuple[bool, ...]]]:
    """For the branch ops written into f (in graph order) that compute from while loops'
    outputs of run-time shapes (in the untaken branch: zeros of `ones_shape`, so their
    values and gradients stay finite): per value, which of its dims come from those 1s
    (where the taken branch has its run-time sizes), or None where an op might fail on
    them or take its output's shape from elsewhere."""
    dims: Dict[Tensor, Optional[Tuple[bool, ...]]] = {}
    for member in written:
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


def _propagate_ones(op: Operation, known: List[Any]) -> Optional[Tuple[bool, ...]]:
    """`_ones_dims` of `op`'s output from what it knows of the inputs (a tuple of dims
    from the stand-ins' 1s, `_REAL` or `_SCALAR_STAND_IN`)."""
    first = known[0] if isinstance(known[0], tuple) else \
        (False,) * op.inputs[0].shape.ndims if known[0] == _REAL and \
        op.inputs[0].shape.ndims is not None else None
    if op.type in BROADCASTING_OP_TYPES:
        return _broadcast_ones(op, known)
    if first is None or op.type not in _UNARY_OP_TYPES | _REDUCTION_OP_TYPES | {
            "Transpose", "ExpandDims", "Squeeze", "MatMul", "StridedSlice"}:
        return None
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
        return tuple(d for k, d in enumerate(first) if k not in axes) if axes else None
    if op.type == "MatMul":
        return _matmul_ones(op, first, known[1])
    return _strided_slice_ones(op, first)


def _broadcast_ones(op: Operation, known: List[Any]) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of an elementwise op with broadcasting: a dim comes from the
    1s where an input's does and no other input has a static size other than 1 there;
    None where no input but scalar stand-ins has the output's rank."""
    rank = op.outputs[0].shape.ndims
    if rank is None:
        return None
    if any(m == _REAL and x.shape.ndims is not None and
           x.shape.as_list() == op.outputs[0].shape.as_list()
           for x, m in zip(op.inputs, known)):
        return (False,) * rank      # an input of the output's shape (_shape_without_cut)
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
    return tuple(found) if full else None


def _matmul_ones(op: Operation, a: Tuple[bool, ...], b: Any) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a MatMul: None where one side's contracted dim comes from
    the 1s and the other's does not."""
    if b == _SCALAR_STAND_IN:
        return None
    b = b if isinstance(b, tuple) else (False, False)
    ta, tb = bool(op.attrs.get("transpose_a")), bool(op.attrs.get("transpose_b"))
    if a[0 if ta else 1] != b[1 if tb else 0]:
        return None
    return a[1 if ta else 0], b[0 if tb else 1]


def _strided_slice_ones(op: Operation, first: Tuple[bool, ...]) -> Optional[Tuple[bool, ...]]:
    """`_propagate_ones` of a StridedSlice of constant bounds: along a dim from the 1s
    only the whole range (stride 1) or element 0 or -1."""
    attrs = op.attrs
    bounds = [constant_value(t) for t in op.inputs[1:4]]
    if any(b is None for b in bounds) or attrs.get("ellipsis_mask") or \
            attrs.get("new_axis_mask"):
        return None
    begin, _, strides = (np.atleast_1d(b) for b in bounds)
    found: List[bool] = []
    for k, derived in enumerate(first):
        if k >= len(begin):
            found.append(derived)
            continue
        shrink = attrs.get("shrink_axis_mask", 0) >> k & 1
        whole = attrs.get("begin_mask", 0) >> k & 1 and attrs.get("end_mask", 0) >> k & 1 \
            and int(strides[k]) == 1
        if derived and not (shrink and int(begin[k]) in (0, -1) or not shrink and whole):
            return None
        if not shrink:
            found.append(bool(derived))
    return tuple(found)


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


def _shape_without_cut(op: Operation, kinds: Dict[Operation, str]) -> bool:
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


def _take(plan: CondPlan, t: Tensor, kinds: Dict[Operation, str], sources: Set[Tensor]
          ) -> None:
    """Notes what written ops or the Select read in `t`: a value f takes (an outside
    tensor, a variable read or random draws of the branch), unless f computes it."""
    if t in sources or kinds.get(t.op) == "write":
        return
    bucket = plan.cut if t.op in kinds else plan.reads
    if t not in bucket:
        bucket.append(t)


def _writable(op: Operation, on_path: bool, positive: "_Positivity") -> Optional[str]:
    """Why branch op `op` cannot be written into f (`on_path`: computed from the sources;
    others, such as shapes and constants, are only evaluated, never differentiated)."""
    if op.type in ("If", "Case", "While"):
        return f"a tf.cond branch contains a control-flow construct ({op.type})"
    if not on_path:
        return None
    if op.type in LINEARIZED or op.type in PICKED:
        reason = (LINEARIZED.get(op.type) or PICKED[op.type])[0](op)
        # In the branch not taken its outside values are stand-ins of their static
        # shape or scalars (ControlFlowExport.gradient_input, loop_gradient_export's
        # _pushed_value); the picked ops other than CTCLoss (a sum of broadcast
        # products) need the full shapes.
        if reason is None and op.type in PICKED and op.type != "CTCLoss" and not all(
                t.shape.is_fully_defined() for t in list(op.inputs) + list(op.outputs)):
            reason = (f"a tf.cond branch holds {op.type} of a shape unknown when the graph "
                      "is written")
        return reason
    if op.type in POSITIVE_INPUT_OP_TYPES:
        if positive.strict(op.inputs[POSITIVE_INPUT_OP_TYPES[op.type]]):
            return None
        return (f"a tf.cond branch holds {op.type} of a value not provably positive: its "
                "gradient may be inf or NaN in the branch not taken")
    if op.type not in FINITE_GRADIENT_OP_TYPES:
        return (f"a tf.cond branch holds {op.type}, whose gradient may be inf or NaN in the "
                "branch not taken (TF has no function gradient for If)")
    return LOWERINGS[op.type][0](op) if op.type in LOWERINGS else None


def _branch_value(t: Tensor, element_write: bool, known: Dict[Tensor, str],
                  name_of: Callable[[Tensor], str]) -> Optional[str]:
    """The written name of branch output `t` for the cond's Select; for an output whose
    branches write a TensorArray element, None where this branch writes none (the flow
    returned unchanged)."""
    if t in known:
        return known[t]
    inner = inner_element(t) if element_write else None
    if inner is not None:       # the Select of a tf.cond in the branch (`element_ifs`)
        return known[inner]
    if element_write and t.op.type != "TensorArrayWriteV3":
        return None
    return name_of(t)


def element_dtype(op: Operation, k: int) -> Any:
    """The dtype of the element output `k` of tf.cond `op` writes to a TensorArray in a
    branch (`element_writes`: the output is the array's float32 flow, its Select the
    element; the write may be in a tf.cond inside the branch, `inner_element`)."""
    for b in (op.attrs["then_branch"], op.attrs["else_branch"]):
        if b.outputs[k].op.type == "TensorArrayWriteV3":
            return b.outputs[k].op.inputs[2].dtype.base_dtype
    inner = next(t for t in (inner_element(b.outputs[k]) for b in (
        op.attrs["then_branch"], op.attrs["else_branch"])) if t is not None)
    return element_dtype(inner.op, inner.value_index)


def inner_element(t: Tensor) -> Optional[Tensor]:
    """The output of a tf.cond inside a branch that branch output `t` returns (through
    the Identity tf.cond puts on it) where that cond's branches write a TensorArray
    element (`element_output`); else None."""
    inner = t.op.inputs[0] if t.op.type == "Identity" else t
    if inner.op.type != "If" or inner.op._control_flow_context is not \
            t.op._control_flow_context:
        return None
    return inner if element_output(inner) else None


def element_output(y: Tensor) -> bool:
    """Whether `y` is a tf.cond's TensorArray flow whose branches each write an element,
    return the flow unchanged or return such a flow of a tf.cond inside them, one at
    least writing (a loop's array entering it with that element:
    loop_array_plan.entering_cond_writes): as a y of a forward function it stands for the
    element, the Select of the branches' (zeros for a branch writing none)."""
    if y.op.type != "If" or getattr(y.op.attrs.get("then_branch"), "region", None) is None:
        return False
    kinds = ["write" if t.op.type == "TensorArrayWriteV3" else
             "inner" if inner_element(t) is not None else
             "same" if t.op.type == "Identity" and t.op.inputs[0].op.type != "If" else None
             for t in (y.op.attrs[b].outputs[y.value_index]
                       for b in ("then_branch", "else_branch"))]
    return None not in kinds and kinds != ["same", "same"]


def element_reads(y: Tensor) -> List[Tensor]:
    """What the Select an `element_output` stands for reads: the predicate and the
    branches' elements (of conds inside them: theirs), not the array's flow."""
    found = [y.op.inputs[0]]
    for b in ("then_branch", "else_branch"):
        t = y.op.attrs[b].outputs[y.value_index]
        inner = inner_element(t)
        if t.op.type == "TensorArrayWriteV3":
            found.append(t.op.inputs[2])
        elif inner is not None:
            found.extend(element_reads(inner))
    return found


def write_cond(plan: CondPlan, name_of: Callable[[Tensor], str],
               lower: Callable[[Operation, List[str]], Any]
               ) -> Tuple[List[NodeDef], List[Optional[str]]]:
    """The NodeDefs of `plan` inside a function and the name of each If output (None for
    those not used), then of each `plan.masked` write's element. `name_of`: the function's names of the values it takes (`reads`,
    `cut`, the sources) or computed before; `lower(op, names)`: gradient_lowering's nodes
    and output names, or None to write the op itself."""
    op = plan.op
    then_b, else_b = op.attrs["then_branch"], op.attrs["else_branch"]
    known: Dict[Tensor, str] = {}
    nodes: List[NodeDef] = []
    for member in plan.ops:
        if member.type == "TensorArrayWriteV3":     # `element_writes`: the element
            element = member.inputs[2]
            known[member.outputs[0]] = known[element] if element in known else \
                name_of(element)
            continue
        if member in plan.inner:     # a tf.cond in the branch, written the same way
            # (what it reads by name: not the values only a loop of it reads, which
            # f takes the loop's outputs for)
            more, outs = write_cond(plan.inner[member],
                                    lambda t: known[t] if t in known else name_of(t), lower)
            nodes.extend(more)
            known.update((t, n) for t, n in zip(member.outputs, outs) if n)
            continue
        names = [known[t] if t in known else name_of(t) for t in member.inputs]
        if member in plan.outer:   # its factors zeroed where its branch is not taken
            builder = NodeBuilder(member.name)
            branch = (name_of(op.inputs[0]),
                      member._control_flow_context is then_b.region)
            replaced = builder.nodes, linearize(
                member, names, [name_of(value) for value in plan.outer[member]], builder,
                branch)
        else:
            replaced = lower(member, names)
        if replaced is not None:
            more, outs = replaced
            nodes.extend(more)
            known.update((t, n) for t, n in zip(member.outputs, outs) if n)
            continue
        node = op_to_node_def(member)
        del node.input[:]
        node.input.extend(names)
        node.device = ""
        nodes.append(node)
        known.update((t, f"{member.name}:{output_arg(member, t.value_index)}")
                     for t in member.outputs)
    outputs: List[Optional[str]] = [None] * len(op.outputs)
    for k in plan.outputs:
        dtype = element_dtype(op, k) if k in plan.element_writes else \
            op.outputs[k].dtype.base_dtype
        sides = [_branch_value(t, k in plan.element_writes, known, name_of)
                 for t in (then_b.outputs[k], else_b.outputs[k])]
        if None in sides:       # a branch that writes no element: zeros of the other's
            zeros = NodeDef(name=f"{op.name}/zeros_{k}", op="ZerosLike",
                            input=[next(n for n in sides if n)])
            zeros.attr["T"].CopyFrom(attr_to_proto(dtype))
            nodes.append(zeros)
            sides = [n or f"{zeros.name}:y:0" for n in sides]
        select = NodeDef(name=f"{op.name}/Select_{k}", op="Select",
                         input=[name_of(op.inputs[0])] + sides)
        select.attr["T"].CopyFrom(attr_to_proto(dtype))
        nodes.append(select)
        outputs[k] = f"{select.name}:output:0"
    for j, write in enumerate(plan.masked):     # Select(p, e, 0) / Select(p, 0, e)
        element = known[write.outputs[0]]
        zeros = NodeDef(name=f"{op.name}/masked_zeros_{j}", op="ZerosLike", input=[element])
        zeros.attr["T"].CopyFrom(attr_to_proto(write.inputs[2].dtype.base_dtype))
        sides = [element, f"{zeros.name}:y:0"]
        if write._control_flow_context is else_b.region:
            sides.reverse()
        select = NodeDef(name=f"{op.name}/masked_{j}", op="Select",
                         input=[name_of(op.inputs[0])] + sides)
        select.attr["T"].CopyFrom(attr_to_proto(write.inputs[2].dtype.base_dtype))
        nodes.extend([zeros, select])
        outputs.append(f"{select.name}:output:0")
    return nodes, outputs


# Ops whose output is >= 0 whatever their inputs, and ops that keep their (first) input's
# sign (> 0 stays > 0); sums and means of values >= 0 are >= 0.
_NON_NEGATIVE_OP_TYPES = frozenset(["Square", "SquaredDifference", "Abs", "Relu", "Relu6",
                                    "Sqrt", "Exp", "Sigmoid", "Softmax", "L2Loss"])
_SIGN_KEEPING_OP_TYPES = frozenset(["Identity", "Reshape", "Squeeze", "ExpandDims",
                                    "Transpose", "Max", "StopGradient", "BroadcastTo",
                                    "Tile"])


class _Positivity:
    """What is provably >= 0 or > 0 (in float arithmetic: no rule relies on a product or
    a function that can underflow to 0 for `strict`)."""

    def __init__(self) -> None:
        self._memo: Dict[Tuple[Tensor, bool], bool] = {}

    def strict(self, t: Tensor) -> bool:
        return self._check(t, True)

    def non_negative(self, t: Tensor) -> bool:
        return self._check(t, False)

    def _check(self, t: Tensor, strict: bool) -> bool:
        key = (t, strict)
        if key not in self._memo:
            self._memo[key] = False          # cycles (none in a graph) stay unproven
            self._memo[key] = self._rule(t.op, strict)
        return self._memo[key]

    def _rule(self, op: Operation, strict: bool) -> bool:
        if op.type == "Const":
            value = constant_value(op.outputs[0])
            return value is not None and bool(((value > 0) if strict else (value >= 0)).all())
        if op.type in _NON_NEGATIVE_OP_TYPES:
            return not strict
        if op.type in _SIGN_KEEPING_OP_TYPES:
            return self._check(op.inputs[0], strict)
        if op.type in ("Sum", "Mean"):
            return not strict and self.non_negative(op.inputs[0])
        if op.type in ("AddV2", "Add", "AddN"):
            inputs = list(op.inputs)
            return all(self.non_negative(t) for t in inputs) and \
                (not strict or any(self.strict(t) for t in inputs))
        if op.type == "Maximum":
            return any(self._check(t, strict) for t in op.inputs)
        if op.type == "Mul":
            return not strict and all(self.non_negative(t) for t in op.inputs)
        return False
