"""`tf.gradients`' op in graph files: TF's `SymbolicGradient` with a function `f`.

tf1compat's gradient op (autodiff/gradients.py) takes ys, sources, grad_ys and calls
autograd. TF has an op of the same type that takes a function instead: its inputs are
f's inputs followed by one dy per f output, its outputs d/d(each f input), computed with
TF's C++ gradient functions of f's body. Writing a graph, each tf1compat gradient op
becomes that op:

* `f` is the forward region: the ops on a path from the sources to the ys. Its inputs
  are the sources first, then every tensor the region reads from outside it, and the
  outputs of stateful ops inside it (dropout's RandomUniform: as extra inputs, TF does
  not draw new numbers in the gradient); the gradients of those extra inputs are unused.
  Its outputs are the ys the gradient op differentiates. A resource variable source is
  one input standing for the values all its ReadVariableOps in the region return.
* Output k < len(sources) of TF's node is the gradient of source k, the same index as
  tf1compat's op, so the consumers' inputs are unchanged. Gathers' IndexedSlices are
  built from the gradient with respect to the gather's output (a source), as in-process.

Ops TF's C++ gradient registry lacks are rewritten inside `f` (gradient_lowering.py), or
as their first-order expansion around the graph's values, which enter `f` as extra
inputs (gradient_lowering_math.py: Erf, Atan2, ...), a tf.cond as both branches and
Select (cond_lowering.py). Where TF still cannot
differentiate the region (other ops, while loops, conds not rewritten, TensorArrays, a
gradient of a gradient, tf.hessians' Jacobian form, sources computed from other
sources), the op is written in tf1compat's own form, which tf1compat reads back but TF
does not: a warning names the cause once per process.

Reading a graph file, TF's form becomes tf1compat's op with the attr `f` (its function
from the library) and no ys: `import_attrs`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import NodeDef
from tf1compat.serialization.tensor_proto import attr_to_proto
from tf1compat.graphdef.cond_lowering import (CondPlan, element_dtype, element_output,
                                              element_reads, plan_cond, write_cond)
from tf1compat.graphdef.gradient_lowering import LOWERINGS, NodeBuilder
from tf1compat.graphdef.gradient_lowering_math import (LINEARIZED, PICKED, OuterValue,
                                                      linearize, outer_values)
from tf1compat.graphdef.graph_io import UnserializableGraphError, check_serializable
from tf1compat.util import tf_logging

__all__ = ["TF_DIFFERENTIABLE_OP_TYPES", "symbolic_gradient_node", "import_attrs",
           "forward_function", "forward_reach", "lower_op", "warn_once", "unsupported",
           "forward_has_control_dependencies", "data_upstream", "CUT_OP_TYPES",
           "element_output", "y_dtype"]

# Op types TF 2.21's SymbolicGradient differentiates inside a function (its C++ gradient
# registry) to tf1compat's values: scripts/probe_tf_function_gradients.py, which also lists
# those TF lacks (Prod, ParallelDynamicStitch, ...; the ones of
# gradient_lowering.LOWERINGS are written as others).
TF_DIFFERENTIABLE_OP_TYPES = frozenset("""
Abs Acos AddV2 Asin Atan Atanh AvgPool BatchMatMulV2 BiasAdd BroadcastTo Cast ConcatV2 Conv2D
Cos Cosh DivNoNan Equal Exp ExpandDims Expm1 Fill GatherNd Greater GreaterEqual Identity Less
LessEqual Log Log1p LogSoftmax LogicalAnd LogicalNot LogicalOr MatMul Max MaxPool Maximum Mean
Min Minimum Mul Neg NotEqual Pack Pow Range RealDiv Reciprocal Relu Relu6 Reshape ReverseV2
Rsqrt Select Shape Sigmoid Sign Sin Sinh Size Slice Softmax Split SplitV Sqrt Square
SquaredDifference Squeeze StridedSlice Sub Sum Tan Tanh Transpose Unpack Xdivy Xlogy
""".split())

# Ops whose outputs become inputs of the forward function, computed outside it: stateful
# ops (no new random numbers) and gradient stops (TF's function gradient of StopGradient
# passes the gradient through; as an input of f, its gradient is dropped), and the ops
# TF's tf.gradients gives no gradient (rounding, arg max, one-hot, zeros_like of a shape
# known at run time only, the floor and truncating divisions: tf_unet's
# `tf.shape(x)[3] // 2`; TF has no function gradient for them; as inputs of f, theirs
# is the same nothing), and the shape reads (tf.tensordot's run-time matrix shapes
# multiply them with an int32 Prod, which TF's function gradient would have to
# differentiate), the size() of a TensorArray of a dynamic size (a stateful read of its
# handle, which no function can take).
CUT_OP_TYPES = frozenset(["StopGradient", "PreventGradient", "Floor", "Ceil", "Round",
                          "Rint", "ArgMax", "ArgMin", "OneHot", "ZerosLike", "OnesLike",
                          "FloorDiv", "TruncateDiv", "Shape", "ShapeN", "TensorArraySizeV3"])

_warned: Set[str] = set()


def warn_once(op: Operation, reason: str) -> None:
    """Logs once per process why a gradient op keeps tf1compat's form."""
    if reason in _warned:
        return
    _warned.add(reason)
    tf_logging.warning(
        "Gradient op %s is written in tf1compat's own SymbolicGradient form, which real "
        "TensorFlow cannot import: %s. tf1compat reads the file back; for TF, export "
        "the graph without the train op and call minimize after import.", op.name, reason)


def _source_values(x: Tensor) -> List[Tensor]:
    """The tensors standing for source `x` in the forward function: `x`, or for a
    resource variable's handle the values its ReadVariableOps return (one input of f)."""
    if x.dtype.base_dtype.name != "resource":
        return [x]
    return [c.outputs[0] for c in x.consumers() if c.type == "ReadVariableOp"]


def data_upstream(ys: List[Tensor], stops: Set[Operation] = frozenset()
                  ) -> Set[Operation]:
    """The ops `ys` are computed from (data inputs only; not those of `stops`)."""
    found: Set[Operation] = set()
    stack = [y.op for y in ys]
    while stack:
        current = stack.pop()
        if current not in found:
            found.add(current)
            if current not in stops:
                stack.extend(t.op for t in current.inputs)
    return found


def forward_reach(xs: List[Tensor], stops: Set[Operation] = frozenset()
                  ) -> Set[Operation]:
    """The ops computed from `xs`: forward from them, not through stateful ops (their
    outputs become inputs of f) nor through `stops` (while loops whose outputs are
    sources of their own, loop_gradient_export.py)."""
    reached: Set[Operation] = set()
    stack = [c for x in xs for c in x.consumers()]
    while stack:
        current = stack.pop()
        if current in reached or current in stops:
            continue
        if current.type in CUT_OP_TYPES or (current._op_def.stateful and
                                              current.type not in ("If", "Case", "While")):
            continue
        reached.add(current)
        stack.extend(c for t in current.outputs for c in t.consumers())
    return reached


def _contexts(context: Any, enclosing: bool) -> Set[Any]:
    """The control-flow contexts whose ops a forward function covers: `context`'s own
    (None: the top level's), and with `enclosing` those of the conds around it too."""
    found = {context}
    while enclosing and context is not None:
        context = context.outer_context
        found.add(context)
    return found


def _region(ys: List[Tensor], handles: List[Tensor], xs: List[Tensor],
            stops: Set[Operation] = frozenset(), context: Any = None, enclosing: bool = False
            ) -> Tuple[Any, Any, Dict[Operation, CondPlan], Dict[Operation, List[OuterValue]]]:
    """(body ops in creation order, extra input tensors, the plans of its tf.conds, the
    outside values of its linearized ops: gradient_lowering_math.py) of the
    forward region from the source values `xs` to `ys`, or (None, reason, {}) when TF
    cannot differentiate it. The ops `stops` (while loops) are left out: their outputs
    are among `xs`."""
    outer: Dict[Operation, List[OuterValue]] = {}
    upstream = data_upstream(_element_ys(ys), stops)
    for handle in handles:
        if any(c.type not in ("ReadVariableOp", "If") and c in upstream and
               c not in stops for c in handle.consumers()):
            return None, (f"resource variable {handle.op.name} reaches the ys through an "
                          "op other than ReadVariableOp"), {}, {}
    reached = forward_reach(xs, stops)
    covered = _contexts(context, enclosing)
    if context is not None:     # a tf.cond branch's region: its own ops only
        reached = {o for o in reached if o._control_flow_context in covered}
    source_ops = {x.op for x in xs}
    if source_ops & reached:
        return None, "a source is computed from another source", {}, {}
    inside = upstream - set(stops)
    if context is not None:     # (what reaches the branch is the construct's writer's)
        inside = {o for o in inside if o._control_flow_context in covered}
    blocked = _cut_on_gradient_path(inside, xs, reached)
    if blocked is not None:
        return None, f"the gradient flows through the stateful op type {blocked}", {}, {}
    body: Set[Operation] = set()
    stack = [y.op for y in ys]
    while stack:
        current = stack.pop()
        if current in body or current not in reached:
            continue
        body.add(current)
        stack.extend(t.op for t in current.inputs)
    # What f computes, from the ys back: all inputs of an op, of a tf.cond only what its
    # branches' written ops read (a cond's other outputs may feed only updates).
    plans: Dict[Operation, CondPlan] = {}
    needed: Set[Tensor] = set(ys)
    for member in sorted(body, key=lambda o: o._id, reverse=True):
        used = [k for k, t in enumerate(member.outputs) if t in needed]
        if not used:
            body.discard(member)
            continue
        reason = None
        if member._control_flow_context not in covered:
            reason = "the region contains a control-flow construct"
        elif member.type == "If":
            plans[member], reason = plan_cond(member, used, reached, set(xs), element_writes=[
                k for k in used if member.outputs[k] in ys and element_output(member.outputs[k])])
            if reason is None:
                needed.update(plans[member].reads)
        elif member.type in LINEARIZED or member.type in PICKED:
            reason = (LINEARIZED.get(member.type) or PICKED[member.type])[0](member)
            outer[member] = outer_values(member)
        elif member.type in LOWERINGS:
            reason = LOWERINGS[member.type][0](member)
            if reason is None and used != [0]:
                reason = f"the region uses a second output of {member.type}"
        elif member.type in ("Case", "While"):
            reason = f"the region contains a control-flow construct ({member.type})"
        elif member._op_def.function is not None:
            reason = _call_reason(member._op_def.function, set())
        elif member.type not in TF_DIFFERENTIABLE_OP_TYPES:
            reason = f"TF has no function gradient for op type {member.type}"
        if reason is not None:
            return None, reason, {}, {}
        if member.type != "If":
            needed.update(member.inputs)
    ordered = sorted(body, key=lambda o: o._id)
    extras: List[Tensor] = []
    # A y computed outside the region (by a stop or a random op) is an input f returns;
    # of a tf.cond, f takes what the written branch ops read (cond_lowering.CondPlan).
    read = [t for member in ordered
            for t in (plans[member].reads + plans[member].cut if member in plans
                      else member.inputs)]
    for t in read + list(ys):
        if t.op not in body and t not in xs and t not in extras:
            extras.append(t)
    if any(t.dtype.base_dtype == D.resource for t in extras):
        return None, "the forward function would take a resource handle", {}, {}
    extras += [value for member in ordered if member in outer for value in outer[member]]
    extras += [value for member in ordered if member in plans
               for values in plans[member].outer.values() for value in values]
    return ordered, extras, plans, outer


def _cut_on_gradient_path(upstream: Set[Operation], xs: List[Tensor],
                          reached: Set[Operation]) -> Optional[str]:
    """The type of a stateful op that takes a floating value computed from the sources
    and leads to the ys (`upstream`: a TensorArray write, an assign): cutting it would
    lose that gradient. Random ops take only shapes, batch-norm updates do not lead to
    the ys."""
    for member in upstream - reached:
        if member.type in CUT_OP_TYPES:
            continue
        if any((t.op in reached or t in xs) and (t.dtype.is_floating or t.dtype.is_complex)
               for t in member.inputs):
            return member.type
    return None


def _element_ys(ys: List[Tensor]) -> List[Tensor]:
    """`ys` with each `element_output` replaced by what its Select reads."""
    return [t for y in ys for t in (element_reads(y) if element_output(y) else [y])]


def y_dtype(y: Tensor) -> Any:
    """The dtype of forward function output `y` (of the element, for `element_output`)."""
    return element_dtype(y.op, y.value_index) if element_output(y) else y.dtype.base_dtype


def forward_function(name: str, ys: List[Tensor], xs: List[Tensor], functions: Any,
                     stops: Set[Operation] = frozenset(), context: Any = None,
                     enclosing: bool = False) -> Any:
    """(`f` as an AttrValue, f's inputs: one per source of `xs`, then the extras) of the
    forward region from `xs` to `ys` (leaving out the while loops `stops`, whose outputs
    are among `xs`; of the tf.cond branch `context`: its ops only, with `enclosing`
    those of the conds around it and of the top level too: a gradient op inside the
    branch), or the reason TF cannot differentiate it."""
    upstream = data_upstream(ys)
    # The reads the forward computation uses first: f's input is one of them (one
    # outside the tf.cond branches if there is one: those exist only when they run).
    groups = [sorted(_source_values(x), key=lambda t: (
        t.op not in upstream, t.op._control_flow_context is not None)) for x in xs]
    if not all(groups):
        return "a resource variable source without a ReadVariableOp"
    handles = [x for x, g in zip(xs, groups) if g[0] is not x]
    body, extras, plans, outer = _region(ys, handles, [t for g in groups for t in g], stops,
                                  context, enclosing)
    if body is None:
        return extras
    f_inputs = [g[0] for g in groups] + extras

    def lower(member: Operation, name_of: Callable[[Tensor], str]
              ) -> Optional[Tuple[List[NodeDef], List[Any]]]:
        if member in plans:
            return write_cond(plans[member], name_of, lower_op)
        if member in outer:
            builder = NodeBuilder(member.name)
            outputs = linearize(member, [name_of(t) for t in member.inputs],
                                [name_of(value) for value in outer[member]], builder)
            return builder.nodes, outputs
        return lower_op(member, [name_of(t) for t in member.inputs])
    try:
        func = functions.function(name, f_inputs, ys, body, lower,
                                  {t: g[0] for g in groups for t in g[1:]},
                                  tuple(_contexts(context, enclosing)),
                                  [y_dtype(y) for y in ys])
    except (UnserializableGraphError, TypeError) as e:   # an op of f has no NodeDef
        return f"its forward function cannot be written ({e})"
    functions.keep_calls(body)
    # The outside values are the graph's own tensors where the gradient node reads them.
    return func, [t.tensor if isinstance(t, OuterValue) else t for t in f_inputs]


def symbolic_gradient_node(op: Operation, functions: Any, name_of: Callable[[Tensor], str],
                           as_construct: bool = False) -> Optional[Tuple[NodeDef, List[Any]]]:
    """TF's SymbolicGradient NodeDef for tf1compat's gradient op `op` (inputs named by
    `name_of`; the forward function written through `functions`, a FunctionExport) and
    its outputs' shapes (one per f input), or None where it keeps tf1compat's form
    (warned). `as_construct`: every gradient op differentiating `op` writes its
    gradient itself (loop_second_order.py), so its `create_graph` does not matter."""
    check_serializable(op)
    attrs = op.attrs
    ny, nx, ndy = len(attrs["Ty"]), len(attrs["Tx"]), len(attrs["Tdy"])
    inputs = list(op.inputs)
    xs, dys = inputs[ny:ny + nx], inputs[ny + nx:ny + nx + ndy]
    if attrs.get("f") is not None:            # read from a file in TF's form: as it came
        f_inputs = xs
        func = functions.attr(attrs["f"])
    else:
        reason = unsupported(op, as_construct)
        # (inside a tf.cond branch: f holds the branch's ops; what it reads from
        # outside them enters through the branch's Switch, as any input there)
        written = forward_function(f"{op.name.replace('/', '_')}_forward", inputs[:ny], xs,
                                   functions, context=op._control_flow_context,
                                   enclosing=True) \
            if reason is None else reason
        if isinstance(written, str):
            warn_once(op, written)
            return None
        func, f_inputs = written
    node = NodeDef(name=op.name, op="SymbolicGradient",
                   input=[name_of(t) for t in f_inputs + dys])
    if attrs.get("f") is None and forward_has_control_dependencies(inputs[:ny]):
        # tf1compat's op reads the ys, so their forward computation runs with it, and
        # with it what that computation waits for (a tf.cond branch assigning moving
        # statistics under control_dependencies); f recomputes the values from its
        # inputs only, so the ys become control inputs.
        node.input.extend(sorted({"^" + name_of(y).split(":")[0] for y in inputs[:ny]}))
    node.attr["Tin"].CopyFrom(attr_to_proto([t.dtype.base_dtype for t in f_inputs + dys]))
    node.attr["Tout"].CopyFrom(attr_to_proto([t.dtype.base_dtype for t in f_inputs]))
    node.attr["f"].CopyFrom(func)
    return node, [t.shape for t in f_inputs]


def forward_has_control_dependencies(ys: List[Tensor]) -> bool:
    """Whether an op computing `ys` (tf.cond branches included) has control inputs."""
    seen: Set[Operation] = set()
    stack = [y.op for y in ys]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        if current.control_inputs:
            return True
        stack.extend(t.op for t in current.inputs)
        if current.type == "If":
            for key in ("then_branch", "else_branch"):
                region = getattr(current.attrs.get(key), "region", None)
                stack.extend(region.ops if region is not None else [])
    return False


def lower_op(op: Operation, input_names: List[str]
             ) -> Optional[Tuple[List[NodeDef], List[Any]]]:
    """An op of LOWERINGS as the ops TF can differentiate (gradient_lowering.py), or
    None where the op is written as it is (a lowering that returns None)."""
    if op.type not in LOWERINGS:
        return None
    builder = NodeBuilder(op.name)
    outputs = LOWERINGS[op.type][1](op, input_names, builder)
    return None if outputs is None else (builder.nodes, outputs)


def unsupported(op: Operation, as_construct: bool = False) -> Optional[str]:
    """Why tf1compat's gradient op `op` has no TF form whatever its region holds
    (`as_construct`: its create_graph does not matter, see symbolic_gradient_node)."""
    attrs = op.attrs
    if attrs["jacobian"]:
        return "tf.hessians' Jacobian form has no TF op"
    if attrs["create_graph"] and not as_construct:
        return "a gradient that is differentiated again (create_graph)"
    if attrs["Tc"]:
        return "custom gradient captures"
    context = op._control_flow_context
    while context is not None:
        if context.kind != "cond":
            return "the gradient op is inside a tf.while_loop"
        context = context.outer_context
    return None


def _call_reason(function: Any, seen: Set[Any]) -> Optional[str]:
    """Why TF cannot differentiate a call of a graph function inside f (None if it can: the
    function has a gradient function, or TF differentiates every op of its body)."""
    if function.grad_func is not None or function.python_grad_func is not None or \
            function in seen:
        return None
    seen.add(function)
    function.build()
    for op in function.graph.get_operations():
        if op.type in ("Placeholder", "Const"):
            continue
        if op._op_def.function is not None:
            reason = _call_reason(op._op_def.function, seen)
            if reason is not None:
                return reason
        elif op.type not in TF_DIFFERENTIABLE_OP_TYPES:
            return (f"TF has no function gradient for op type {op.type} (in function "
                    f"{function.name})")
    return None


def import_attrs(attrs: Dict[str, Any]) -> Dict[str, Any]:
    """A NodeDef's SymbolicGradient attrs as tf1compat's op takes them: TF's form
    (`f`, `Tin`, `Tout`) becomes sources = f's inputs, grad_ys = the rest, no ys."""
    if attrs.get("f") is None or "Tin" not in attrs:
        return attrs
    tin, tout = list(attrs["Tin"]), list(attrs["Tout"])
    return {"Ty": [], "Tx": tin[:len(tout)], "Tdy": tin[len(tout):], "Tc": [],
            "Tg": tout, "f": attrs["f"]}
