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
  what the branch computes from it takes those (`ones_dims`, cond_stand_ins.py); f
  reads a row other than 0 or -1 of it at 0 where its branch is not taken
  (`CondPlan.rows`), pads it with zeros to fill a Reshape there (`fills`), broadcasts
  it to a real value it is concatenated with (`concats`) and a branch result of its
  shape to the taken branch's (`broadcast`). A resource variable read in a branch
  (Keras' batch norm reads its moving moments there) is an input of f the same way;
  the other side of its Merge reads the variable outside the cond (any value of the
  right shape would do: Select drops it).
* f takes only what the written ops read (`CondPlan.reads`), not every input of the If
  op (a resource handle as an input of f has no gradient of its type).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import NodeDef
from tf1compat.serialization.tensor_proto import attr_to_proto
from tf1compat.graphdef.cond_stand_ins import (BROADCASTING_OP_TYPES, RANDOM_OP_TYPES, array_loop,
                                               ones_broadcast, ones_dims, shape_source,
                                               shape_without_cut, stand_in_concat,
                                               stand_in_fill, stand_in_rows)
from tf1compat.graphdef.function_export import output_arg
from tf1compat.graphdef.function_nodes import NodeBuilder
from tf1compat.graphdef.gradient_lowering import LOWERINGS
from tf1compat.graphdef.gradient_lowering_math import (LINEARIZED, PICKED, OuterValue,
                                                      linearize, outer_values)
from tf1compat.graphdef.graph_io import op_to_node_def

__all__ = ["element_dtype", "element_output", "element_reads", "inner_element",
           "FINITE_GRADIENT_OP_TYPES", "BROADCASTING_OP_TYPES", "RANDOM_OP_TYPES", "CondPlan",
           "plan_cond", "write_cond"]

# Ops whose TF gradient is finite wherever their inputs are finite (the lowered ones of
# gradient_lowering.py included: Elu/Softplus/... compute each side on its own, batch
# norm's rsqrt adds epsilon > 0, Prod multiplies).
FINITE_GRADIENT_OP_TYPES = frozenset("""
Abs AddN AddV2 AvgPool BatchMatMulV2 BiasAdd BroadcastTo Cast ConcatV2 Const Conv2D Cos
Cumprod Cumsum
DepthwiseConv2dNative Elu Equal ExpandDims Fill FusedBatchNormV3 GatherV2 Greater
GreaterEqual Identity L2Loss LeakyRelu Less LessEqual LogSoftmax MatMul Max MaxPool Maximum
Mean Minimum Mul Neg NotEqual Pack Pad Prod Relu Relu6 Reshape ReverseSequence Select
SelectV2 Selu Shape
Sigmoid Sin Slice Softmax SoftmaxCrossEntropyWithLogits Softplus
SparseSoftmaxCrossEntropyWithLogits Split Square SquaredDifference Squeeze StridedSlice Sub
Sum Tanh Tile Transpose Unpack
""".split())

# Ops with an infinite gradient where one input is 0 (the input's index): written where
# that input is provably > 0 (`_Positivity`), as batch normalization's rsqrt(variance +
# epsilon) is.
POSITIVE_INPUT_OP_TYPES = {"Rsqrt": 0, "Sqrt": 0, "Log": 0, "Reciprocal": 0, "RealDiv": 1}

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
    # StridedSlices reading one element of a branch loop's run-time dim at an index
    # other than 0 or -1 -> those dims (`stand_in_rows`: element 0 where their branch
    # is not taken)
    rows: Dict[Operation, List[int]] = field(default_factory=dict)
    # Reshapes of a value with dims from those 1s -> (axis, size): the stand-in's dim
    # padded with zeros to that size where their branch is not taken (`stand_in_fill`)
    fills: Dict[Operation, Tuple[int, int]] = field(default_factory=dict)
    # ConcatV2s of values with dims from those 1s and real ones -> (the input of real
    # sizes, {input: its dims from the 1s}): broadcast to those sizes (`stand_in_concat`)
    concats: Dict[Operation, Tuple[int, Dict[int, List[int]]]] = field(default_factory=dict)
    # outputs whose then (0) or else (1) branch values have dims from those 1s -> those
    # branches: their values broadcast to the taken branch's shape (`ones_broadcast`)
    broadcast: Dict[int, List[int]] = field(default_factory=dict)


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
    TensorArrays it writes after it are inputs of f, among `cut`), or says why not;
    there a tf.cond in a branch is written the same way inside (its plan in `inner`).
    `pushed(op)`: whether a branch op off the gradient path is computed outside f
    (among `cut`: an op TF cannot differentiate in a function, such as the FloorMod of
    an inner cond's predicate) rather than written into it.
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
            nested = array_loop(current, region) if loops is not None else None
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
                # (shapes and indices computed from a loop's outputs carry no gradient)
                reason = _writable(current, on_path and (current in reached or any(
                    t.dtype.is_floating for t in current.outputs)), positive)
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
    ones = ones_dims(written, kinds)
    for k in used:
        # a result of the stand-in's shape in one branch: broadcast to the other's
        sides = [i for i, b in enumerate((then_b, else_b)) if any(ones.get(b.outputs[k]) or ())]
        if not sides:
            continue
        why = ", concatenated along it" if not all(
            ones_broadcast(ones[(then_b, else_b)[i].outputs[k]]) for i in sides) else \
            " as a TensorArray element" if k in element_writes else None
        if why is not None:
            return None, ("a tf.cond branch returns a value whose shape depends on that of a "
                          "while loop's output known only at run time" + why)
        plan.broadcast[k] = sides
    for member in written:
        plan.ops.append(member)
        tracked = bool(member.outputs) and member.outputs[0] in ones
        if tracked and any(ones[t] is None for t in member.outputs) or not tracked and any(
                kinds.get(t.op) in ("cut", "loop") for t in member.inputs) and \
                not shape_without_cut(member, kinds):
            if tracked or any(kinds.get(t.op) == "loop" for t in member.inputs):
                return None, (f"a while loop's output of a tf.cond branch (or what the "
                              f"branch reads of its TensorArrays after it: a dynamic_rnn's "
                              f"outputs) reaches {member.type}, which needs its full "
                              f"shape, known only at run time")
            return None, (f"random numbers or a gradient stop of a tf.cond branch reach "
                          f"{member.type}, which needs their full shape")
        if member.type == "StridedSlice" and ones.get(member.inputs[0]):
            rows = stand_in_rows(member, ones[member.inputs[0]])
            if rows:
                plan.rows[member] = rows
        if member.type == "ConcatV2" and ones.get(member.outputs[0]) is not None:
            rank = member.outputs[0].shape.ndims
            concat = stand_in_concat(member, [ones.get(t) or (False,) * rank
                                              for t in member.inputs[:-1]])
            if concat is not None and concat[1]:
                plan.concats[member] = concat
        if member.type == "Reshape" and ones.get(member.inputs[0]):
            fill = stand_in_fill(member, ones[member.inputs[0]])
            if fill is not None and fill[1] > 1:
                plan.fills[member] = fill[:2]
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


def _stand_in_begin(op: Operation, begin: str, rows: List[int], ran: str
                    ) -> Tuple[List[NodeDef], str]:
    """The begin of StridedSlice `op` (`plan.rows`) with 0 in each of `rows` where its
    branch is not taken (`ran` 0: its input is the stand-in, 1 there): `begin *
    Maximum(1 - onehot(rows), ran)`; the taken branch's begin unchanged."""
    builder = NodeBuilder(f"{op.name}/stand_in_begin")
    index = op.inputs[1].dtype.base_dtype
    if index != D.int32:
        ran = builder.add("Cast", [ran], {"SrcT": D.int32, "DstT": index, "Truncate": False})
    kept = builder.const([0 if k in rows else 1
                          for k in range(op.inputs[1].shape.num_elements())], index)
    keep = builder.add("Maximum", [kept, ran], {"T": index})
    return builder.nodes, builder.add("Mul", [begin, keep], {"T": index})


def _stand_in_concat(op: Operation, names: List[str], ref: int, dims: Dict[int, List[int]]
                     ) -> Tuple[List[NodeDef], List[str]]:
    """ConcatV2 `op`'s inputs `names` (`plan.concats`) with those of dims from the
    stand-in's 1s broadcast to input `ref`'s sizes there (`BroadcastTo(value,
    Shape(value) * keep + Shape(ref) * take)`; where their branch is taken they have
    those sizes already, as the graph's ConcatV2 checks)."""
    builder = NodeBuilder(f"{op.name}/stand_in_concat")
    dtype = op.outputs[0].dtype.base_dtype
    rank = op.outputs[0].shape.ndims
    names = list(names)
    real = builder.add("Shape", [names[ref]], {"T": dtype, "out_type": D.int32})
    for j, taken in sorted(dims.items()):
        own = builder.add("Shape", [names[j]], {"T": dtype, "out_type": D.int32})
        shape = builder.add("AddV2", [builder.add("Mul", [own, builder.const(
            [int(d not in taken) for d in range(rank)], D.int32)], {"T": D.int32}),
            builder.add("Mul", [real, builder.const([int(d in taken) for d in range(rank)],
                                                    D.int32)], {"T": D.int32})],
            {"T": D.int32})
        names[j] = builder.add("BroadcastTo", [names[j], shape], {"T": dtype, "Tidx": D.int32})
    return builder.nodes, names


def _stand_in_fill(op: Operation, value: str, axis: int, size: int, ran: str
                   ) -> Tuple[List[NodeDef], str]:
    """Reshape `op`'s input `value` (`plan.fills`) with `size - 1` rows of zeros after
    it along `axis` where its branch is not taken (`ran` 0: the stand-in, 1 there), so
    its elements fill the shape; none where it is (`ConcatV2(value, Fill(...), axis)`,
    ops TF differentiates in a function)."""
    builder = NodeBuilder(f"{op.name}/stand_in_fill")
    dtype = op.inputs[0].dtype.base_dtype
    axes = range(op.inputs[0].shape.ndims)
    missing = builder.add("Mul", [builder.const(size - 1, D.int32), builder.add(
        "Sub", [builder.const(1, D.int32), ran], {"T": D.int32})], {"T": D.int32})
    shape = builder.add("Shape", [value], {"T": dtype, "out_type": D.int32})
    others = builder.add("Mul", [shape, builder.const([int(k != axis) for k in axes],
                                                      D.int32)], {"T": D.int32})
    along = builder.add("Mul", [builder.const([int(k == axis) for k in axes], D.int32),
                                missing], {"T": D.int32})
    zeros = builder.add("Fill", [builder.add("AddV2", [others, along], {"T": D.int32}),
                                 builder.const(0, dtype)], {"T": dtype, "index_type": D.int32})
    return builder.nodes, builder.add("ConcatV2", [value, zeros, builder.const(axis, D.int32)],
                                      {"T": dtype, "N": 2, "Tidx": D.int32})


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
               lower: Callable[[Operation, List[str]], Any],
               ran: Optional[Callable[[], str]] = None
               ) -> Tuple[List[NodeDef], List[Optional[str]]]:
    """The NodeDefs of `plan` inside a function and the name of each If output (None for
    those not used), then of each `plan.masked` write's element. `name_of`: the
    function's names of the values it takes (`reads`, `cut`, the sources) or computed
    before; `lower(op, names)`: gradient_lowering's nodes and output names, or None to
    write the op itself; `ran()`: for a tf.cond inside a branch, the name of an int32
    that is 1 where that branch is taken (written on first use)."""
    op = plan.op
    then_b, else_b = op.attrs["then_branch"], op.attrs["else_branch"]
    known: Dict[Tensor, str] = {}
    nodes: List[NodeDef] = []
    taken: Dict[bool, str] = {}

    def ran_in(member: Operation) -> str:
        """1 where `member`'s branch (and each branch around this cond) is taken."""
        then = member._control_flow_context is then_b.region
        if then not in taken:
            builder = NodeBuilder(f"{op.name}/taken_{int(then)}")
            flag = builder.add("Cast", [name_of(op.inputs[0])],
                               {"SrcT": D.bool, "DstT": D.int32, "Truncate": False})
            if not then:
                flag = builder.add("Sub", [builder.const(1, D.int32), flag], {"T": D.int32})
            if ran is not None:
                flag = builder.add("Mul", [ran(), flag], {"T": D.int32})
            nodes.extend(builder.nodes)
            taken[then] = flag
        return taken[then]

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
                                    lambda t: known[t] if t in known else name_of(t), lower,
                                    lambda member=member: ran_in(member))
            nodes.extend(more)
            known.update((t, n) for t, n in zip(member.outputs, outs) if n)
            continue
        names = [known[t] if t in known else name_of(t) for t in member.inputs]
        if member in plan.rows:
            more, names[1] = _stand_in_begin(member, names[1], plan.rows[member],
                                             ran_in(member))
            nodes.extend(more)
        if member in plan.concats:
            more, names = _stand_in_concat(member, names, *plan.concats[member])
            nodes.extend(more)
        if member in plan.fills:
            more, names[0] = _stand_in_fill(member, names[0], *plan.fills[member],
                                            ran_in(member))
            nodes.extend(more)
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
        if k in plan.broadcast:     # the stand-in's 1s broadcast to the taken side's shape
            builder = NodeBuilder(f"{op.name}/stand_in_shape_{k}")
            shapes = [builder.add("Shape", [n], {"T": dtype, "out_type": D.int32})
                      for n in (sides if len(plan.broadcast[k]) > 1 else
                                [sides[1 - plan.broadcast[k][0]]])]
            shape = shapes[0] if len(shapes) == 1 else \
                builder.add("Select", [name_of(op.inputs[0])] + shapes, {"T": D.int32})
            for side in plan.broadcast[k]:
                sides[side] = builder.add("BroadcastTo", [sides[side], shape],
                                          {"T": dtype, "Tidx": D.int32})
            nodes.extend(builder.nodes)
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
