"""TF's backward walk over the graph, replayed at graph build without building TF's ops.

`tf.gradients` in TF visits the ops between `xs` and `ys` in a fixed queue order, calls
each op's gradient function and sums gradients arriving at the same tensor with AddN.
This module replays that walk on tf1compat's graph with *simulated* gradient values
(`GradValue`: a name, a static shape, dense or IndexedSlices) so that tf.gradients knows,
for each x, exactly what TF would return: None, a pass-through of a real tensor (such as
`gradients/grad_ys_0`), an IndexedSlices, or a new tensor and its name. The numbers
themselves come from torch autograd at run time (gradients.py).

Along the way it records what the run time needs: ops with Python gradient functions
(custom gradients, built here by calling the user's function as TF does), earlier
gradient ops walked through (they must keep their autograd graph: create_graph), and the
ops between xs and ys.
"""

from __future__ import annotations

import collections
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

from tf1compat.framework.grad_names import SPARSE, Pass, default_names, is_trainable
from tf1compat.framework.op_def import get_op_def
from tf1compat.autodiff.grad_shapes import check_input_grad, check_input_grads
from tf1compat.autodiff.loop_slices import LoopSlices, accumulator_names, loop_slice_sites
from tf1compat.autodiff.registry import gradient_function, none_input_indices
from tf1compat.framework import dtypes as D
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops.resource_variable_ops import handle_shape
from tf1compat.runtime.plan import is_pure_alias

__all__ = ["GradValue", "SparsePart", "WalkResult", "walk", "Namer", "GRADIENT_OP_TYPES"]

# Op types of tf1compat's own gradient ops (declared in gradients.py).
GRADIENT_OP_TYPES = ("SymbolicGradient",)


@dataclass
class SparsePart:
    """One gather contributing slices to an IndexedSlices gradient."""
    gather: Operation
    scope: str                      # the gather's `<op>_grad/` scope in TF's naming
    values_name: str = ""           # TF's name of the values where they are the incoming
                                    # gradient itself (GatherNd, ResourceGatherNd), else ""
    # For the slices a While op's body gathers (loop_slices.py; `gather` is the While
    # op): the entry naming the gathers, and the captured input they read.
    loop: Optional[LoopSlices] = None
    loop_input: Optional[Tensor] = None
    names: Tuple[str, ...] = ()     # TF's names of the indices, values and dense shape


@dataclass
class GradValue:
    """A gradient tensor as TF would have built it (name, shape, kind)."""
    name: str                                   # full tensor name, "scope/op:k"
    shape: TensorShape
    real: Optional[Tensor] = None               # an existing tensor with exactly this value
    parts: Optional[List[SparsePart]] = None    # set for IndexedSlices
    values_name: str = ""                       # IndexedSlices component names
    indices_name: str = ""

    @property
    def is_sparse(self) -> bool:
        return self.parts is not None


@dataclass
class WalkResult:
    grads: List[Optional[GradValue]]
    between: Set[Operation]
    custom_ops: List[Operation] = field(default_factory=list)
    walked_gradient_ops: List[Operation] = field(default_factory=list)
    # The ops whose gradient function ran (a gradient reached them): only their
    # gradients read forward values. An op between xs and ys that only a StopGradient
    # (or another op without a gradient) connects to the ys gets none, as in TF.
    graded: Set[Operation] = field(default_factory=set)


class Namer:
    """Simulates Graph.unique_name for names TF would create, without creating them."""

    def __init__(self, graph: Any):
        self._graph = graph
        self._virtual: Dict[str, int] = {}

    def _count(self, key: str) -> int:
        if key in self._virtual:
            return self._virtual[key]
        return self._graph._names_in_use.get(key, 0)

    def unique(self, name: str) -> str:
        key = name.lower()
        i = self._count(key)
        self._virtual[key] = i + 1
        if i > 0:
            base = key
            while self._count(key):
                key = f"{base}_{i}"
                i += 1
            self._virtual[key] = 1
            name = f"{name}_{i - 1}"
        return name


def _summed_shape(op: Operation, contribs: List[GradValue]) -> TensorShape:
    """The shape of a sum of gradients of which one has another shape than the output
    (TF's AddN of them fails unless their shapes agree)."""
    shape = contribs[0].shape
    for g in contribs[1:]:
        if not g.shape.is_compatible_with(shape):
            raise ValueError(f"Shapes {shape} and {g.shape} are incompatible: the gradients "
                             f"of '{op.name}' cannot be summed")
        shape = shape.merge_with(g.shape)
    return shape


def _arriving_shape(t_in: Tensor) -> TensorShape:
    """The shape of a gradient arriving at input `t_in`: a resource variable's own shape,
    not its handle's `()`, where it arrives at the handle itself (the slices of a gather,
    a While op reading the variable), so that it sums with the gradient of its reads."""
    return handle_shape(t_in) if t_in.dtype.base_dtype == D.resource else t_in.shape


def _tensor_name(op_name: str) -> str:
    return op_name if ":" in op_name else op_name + ":0"


def _mark_reached(from_ops: Sequence[Operation]) -> Set[Operation]:
    reached: Set[Operation] = set()
    queue = collections.deque(from_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            continue
        reached.add(op)
        for out in op._outputs:
            if is_trainable(out):
                queue.extend(out._consumers)
    return reached


def _pending_count(to_ops: Sequence[Operation], from_ops: Sequence[Operation]
                   ) -> Tuple[Set[Operation], Set[Operation], Dict[Operation, int]]:
    # (Variables a cond/while region reads are inputs of its construct op, see
    # ops/_regions.py, so the walk needs no special case for control flow.)
    reached = _mark_reached(from_ops)
    reachable_to = {op for op in to_ops if op in reached}
    between: Set[Operation] = set()
    between_list: List[Operation] = []
    queue = collections.deque(to_ops)
    while queue:
        op = queue.popleft()
        if op in reached:
            between.add(op)
            between_list.append(op)
            reached.discard(op)
            queue.extend(t._op for t in op._inputs)
    pending: Dict[Operation, int] = collections.defaultdict(int)
    for op in between_list:
        for t in op._inputs:
            if t._op in between:
                pending[t._op] += 1
    return reachable_to, between, pending


class _Walker:
    def __init__(self, graph: Any, scope: str, aggregation_method: int, gate: bool,
                 build_custom: Callable[..., Any]):
        self.graph = graph
        self.scope = scope                    # "gradients/"
        self.namer = Namer(graph)
        self.aggregation_method = aggregation_method
        self.gate = gate
        self.build_custom = build_custom
        self.grads: Dict[Operation, List[list]] = {}
        self.custom_ops: List[Operation] = []
        self.walked_gradient_ops: List[Operation] = []
        self.graded: Set[Operation] = set()

    # -- TF's _SetGrad / _AggregatedGrads ---------------------------------------------------
    def set_grad(self, t: Tensor, g: GradValue) -> None:
        op_grads = self.grads.get(t._op)
        if op_grads is None:
            op_grads = self.grads[t._op] = [[] for _ in t._op._outputs]
        op_grads[t._value_index].append(g)

    def aggregated(self, op: Operation) -> List[Optional[GradValue]]:
        from tf1compat.autodiff.gradients import AggregationMethod
        valid = [AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
                 AggregationMethod.EXPERIMENTAL_ACCUMULATE_N]
        if self.aggregation_method not in valid:
            raise ValueError(f"Invalid `aggregation_method` specified "
                             f"{self.aggregation_method}. Accepted values are {valid}.")
        op_grads = self.grads.get(op)
        if op_grads is None:
            op_grads = self.grads[op] = [[] for _ in op._outputs]
        out: List[Optional[GradValue]] = []
        for i, contribs in enumerate(op_grads):
            if not isinstance(contribs, list):
                out.append(contribs)
                continue
            contribs = [g for g in contribs if g is not None]
            shape = op._outputs[i].shape
            if any(not g.shape.is_compatible_with(shape) for g in contribs):
                shape = _summed_shape(op, contribs)
            if not contribs:
                value = None
            elif len(contribs) == 1:
                value = contribs[0]
            elif all(not g.is_sparse for g in contribs) and self.aggregation_method != 0:
                with_scope = self.namer.unique(f"{self.scope}{op._name}_gradient_sum")
                local = Namer(self.graph)
                name = ""
                for _ in contribs[1:]:
                    name = local.unique(f"{with_scope}/AddN")
                value = GradValue(_tensor_name(name), shape)
            elif any(not g.is_sparse for g in contribs):
                value = GradValue(_tensor_name(self.namer.unique(f"{self.scope}AddN")), shape)
            else:
                parts: List[SparsePart] = []
                for g in contribs:
                    parts.extend(g.parts)
                values = self.namer.unique(f"{self.scope}concat")
                indices = self.namer.unique(f"{self.scope}concat")
                value = GradValue(_tensor_name(values), shape, parts=parts,
                                  values_name=_tensor_name(values),
                                  indices_name=_tensor_name(indices))
            op_grads[i] = value
            out.append(value)
        return out

    # -- one op's gradient function ----------------------------------------------------------
    def in_grads(self, op: Operation, out_grads: List[Optional[GradValue]],
                 kind: str, fn: Any) -> List[Optional[GradValue]]:
        for i, g in enumerate(out_grads):
            if g is None and is_trainable(op._outputs[i]):
                name = self.namer.unique(f"{self.scope}zeros_like")
                out_grads[i] = GradValue(_tensor_name(name), op._outputs[i].shape)
        grad_scope = self.namer.unique(f"{self.scope}{op._name}_grad") + "/"
        if kind != "python":
            # An incoming gradient of another shape than the output (a grad_ys of another
            # shape) survives only TF's reshaping gradient functions (grad_shapes.py).
            check_input_grads(op, [None if g is None else g.shape for g in out_grads],
                              grad_scope)
        if kind == "python":
            entries = self.build_custom(op, fn, out_grads, grad_scope)
            self.custom_ops.append(op)
        else:
            rule_type = fn
            rule = get_op_def(rule_type).grad_names or default_names
            entries = rule(op)
            if len(entries) != len(op._inputs):
                entries = default_names(op)
            for i in none_input_indices(rule_type):
                entries[i] = None
            connected = branch_connected_inputs(op)
            if connected is not None:
                entries = [e if ok else None for e, ok in zip(entries, connected)]
            for i, sliced in loop_slice_sites(op).items():
                if entries[i] is not None:
                    entries[i] = sliced
        results: List[Optional[GradValue]] = []
        local = Namer(self.graph)
        gated = self.gate and sum(e is not None for e in entries) > 1
        for i, (t_in, entry) in enumerate(zip(op._inputs, entries)):
            value: Optional[GradValue]
            if entry is None:
                value = None
            elif isinstance(entry, Pass):
                value = out_grads[entry.index]
            elif entry is SPARSE and op._type in ("GatherNd", "ResourceGatherNd"):
                # TF's _GatherNdGrad, _ResourceGatherNdGrad: the incoming gradient,
                # squeezed indices.
                incoming = out_grads[0].name
                value = GradValue(incoming, _arriving_shape(t_in),
                                  parts=[SparsePart(op, grad_scope, incoming)],
                                  values_name=incoming,
                                  indices_name=_tensor_name(grad_scope + "Squeeze"))
            elif entry is SPARSE:
                value = GradValue(_tensor_name(grad_scope + "Reshape"), _arriving_shape(t_in),
                                  parts=[SparsePart(op, grad_scope)],
                                  values_name=_tensor_name(grad_scope + "Reshape"),
                                  indices_name=_tensor_name(grad_scope + "Reshape_1"))
            elif isinstance(entry, LoopSlices):
                value = self.loop_slices(entry, t_in)
            elif isinstance(entry, GradValue):
                value = entry
            else:
                value = GradValue(_tensor_name(grad_scope + entry), _arriving_shape(t_in))
            if value is not None and not value.is_sparse and t_in.dtype.base_dtype != D.resource:
                check_input_grad(op, i, t_in.shape, value.shape)
            if gated and value is not None and not value.is_sparse:
                name = local.unique(f"{grad_scope}tuple/control_dependency")
                value = GradValue(_tensor_name(name), value.shape)
            results.append(value)
        return results

    def build_region_custom(self, op: Operation, inner_ops: List[Operation]) -> None:
        """Calls the Python gradient functions of `inner_ops`, the ops inside construct
        `op`'s regions (region_inner_ops), as TF's gradient of the construct does for its
        body's ops: a region's function then runs each such op with its gradient
        sub-graph (grad_mode.py), the forward values it captures passed per call."""
        from tf1compat.autodiff.custom_gradient import captures_of   # (imports this module)
        members = set(inner_ops)
        for inner in inner_ops:
            try:
                kind, fn = gradient_function(inner)
            except LookupError:
                continue
            if kind != "python":
                continue
            grad_scope = self.namer.unique(f"{self.scope}{inner._name}_grad") + "/"
            self.build_custom(inner, fn, [], grad_scope)
            for t in captures_of(inner):
                if t._op not in members and t._op._type != "Const" and not is_pure_alias(t):
                    raise NotImplementedError(
                        f"The gradient function of {inner.name} ({inner.type}) inside "
                        f"{op.name} uses {t.name}, computed outside it: tf1compat gives a "
                        "gradient function inside a tf.while_loop or tf.cond only the "
                        "values computed inside, variables and constants")

    def loop_slices(self, entry: LoopSlices, t_in: Tensor) -> GradValue:
        """TF's accumulated IndexedSlices of a loop body's gathers of `t_in`, named as
        the Exits of the accumulators TF's gradient of the Enter builds."""
        scope = self.namer.unique(f"{self.scope}{entry.first._name}/Enter_grad") + "/"
        names = tuple(_tensor_name(scope + leaf) for leaf in accumulator_names(entry))
        part = SparsePart(entry.first, scope, loop=entry, loop_input=t_in, names=names)
        return GradValue(names[1], t_in.shape, parts=[part], values_name=names[1],
                         indices_name=names[0])

    # -- the walk ----------------------------------------------------------------------------
    def run(self, ys: Sequence[Tensor], xs: Sequence[Tensor], grad_ys: Sequence[GradValue],
            stop_gradient_ops: Set[Operation]) -> WalkResult:
        to_ops = [t._op for t in ys]
        from_ops = [t._op for t in xs]
        reachable_to, between, pending = _pending_count(to_ops, from_ops)
        if any(op._type in _LOOP_BACK_EDGES for op in between):
            return self.run_through_loops(ys, xs, between, stop_gradient_ops)
        for y, gy in zip(ys, grad_ys):
            self.set_grad(y, gy)
        queue: collections.deque = collections.deque()
        seen: Set[Operation] = set()
        for op in to_ops:
            if pending[op] == 0 and op not in seen and op in reachable_to:
                seen.add(op)
                queue.append(op)
        stop_ops = set(stop_gradient_ops)
        for op in from_ops:
            if all(pending[t._op] <= 0 for t in op._inputs):
                stop_ops.add(op)
        while queue:
            op = queue.popleft()
            out_grads = self.aggregated(op)
            has_out = any(g is not None for g in out_grads)
            kind, fn = "none", None
            if has_out and op not in stop_ops:
                try:
                    kind, fn = gradient_function(op)
                except LookupError as e:
                    if str(e).startswith("Gradient explicitly disabled"):
                        raise
                    raise LookupError(
                        f"No gradient defined for operation'{op.name}' (op type: {op.type}). "
                        "In general every operation must have an associated "
                        "`@tf.RegisterGradient` for correct autodiff, which this op is "
                        "lacking. If you want to pretend this operation is a constant in "
                        "your program, you may insert `tf.stop_gradient`. This can be useful "
                        "to silence the error in cases where you know gradients are not "
                        "needed, e.g. the forward pass of tf.custom_gradient. Please see more "
                        "details in https://www.tensorflow.org/api_docs/python/tf/"
                        "custom_gradient.") from None
            if kind != "none" and has_out:
                if op._type in GRADIENT_OP_TYPES:
                    self.walked_gradient_ops.append(op)
                inner_ops = region_inner_ops(op)
                self.walked_gradient_ops.extend(
                    inner for inner in inner_ops if inner._type in GRADIENT_OP_TYPES)
                self.build_region_custom(op, inner_ops)
                self.graded.add(op)
                ins = self.in_grads(op, out_grads, kind, fn)
            else:
                ins = [None] * len(op._inputs)
            for t_in, g in zip(op._inputs, ins):
                if g is not None:
                    self.set_grad(t_in, g)
            for t in op._inputs:
                pending[t._op] -= 1
                if pending[t._op] == 0:
                    queue.append(t._op)
        results: List[Optional[GradValue]] = []
        for x in xs:
            op_grads = self.grads.get(x._op)
            if not op_grads:
                results.append(None)
                continue
            g = op_grads[x._value_index]
            if isinstance(g, list):
                # x's op was never processed: its gradients were never aggregated.
                g = None if not g else g[0] if len(g) == 1 else None
            results.append(g)
        return WalkResult(results, between, self.custom_ops, self.walked_gradient_ops,
                          self.graded)


    def run_through_loops(self, ys: Sequence[Tensor], xs: Sequence[Tensor],
                          between: Set[Operation], stop_ops: Set[Operation]) -> WalkResult:
        """The walk for imported graphs with TF1 while loops (cycles through
        NextIteration), which TF walks with its loop-gradient machinery: which xs get a
        gradient is decided by reachability through differentiable inputs; each gets a
        new dense tensor (autograd computes it through the unrolled loop)."""
        reached: Set[Tensor] = set()
        queue = collections.deque(ys)
        while queue:
            t = queue.popleft()
            if t in reached:
                continue
            reached.add(t)
            op = t._op
            if op in stop_ops or op not in between:
                continue
            try:
                kind, fn = gradient_function(op)
            except LookupError:
                continue
            if kind == "none":
                continue
            if kind == "python":
                entries: list = [Pass(0)] * len(op._inputs)
                blocked: set = set()
            else:
                entries = (get_op_def(fn).grad_names or default_names)(op)
                if len(entries) != len(op._inputs):
                    entries = default_names(op)
                blocked = set(none_input_indices(fn))
            for i, (t_in, entry) in enumerate(zip(op._inputs, entries)):
                if entry is not None and i not in blocked and is_trainable(t_in):
                    queue.append(t_in)
        results: List[Optional[GradValue]] = []
        for x in xs:
            if x in reached:
                name = self.namer.unique(f"{self.scope}{x._op._name}_grad/grad")
                results.append(GradValue(_tensor_name(name), x.shape))
            else:
                results.append(None)
        # (autograd differentiates the unrolled loops: every op between may be read)
        return WalkResult(results, between, self.custom_ops, self.walked_gradient_ops,
                          set(between))


def _differentiable_inputs(op: Operation) -> List[Tensor]:
    """The inputs through which a gradient of `op`'s outputs can reach, as TF's walk
    finds them: none for StopGradient and other non-differentiable ops, not the inputs
    TF's gradient function always leaves None, only trainable dtypes. An op whose
    gradient is a Python function or missing keeps every trainable input (the walk
    calls or reports it)."""
    try:
        kind, fn = gradient_function(op)
    except LookupError:
        kind, fn = "python", None
    if kind == "none":
        return []
    blocked = set(none_input_indices(fn)) if kind != "python" else set()
    connected = branch_connected_inputs(op)
    return [t for i, t in enumerate(op._inputs)
            if i not in blocked and is_trainable(t) and (connected is None or connected[i])]


def branch_connected_inputs(op: Operation) -> Optional[List[bool]]:
    """For an If/Case op over traced branches: per input, whether a gradient of the
    branches' outputs can reach it. TF's cond gradient flows through Merge and Switch
    into each branch's ops, so a tensor a branch uses only through `stop_gradient`, an
    assign or a control dependency gets None, as in TF (not zeros). None: not such an
    op (imported If ops run library functions: every input stays connected)."""
    if op._type == "If":
        branches = [op.attrs.get("then_branch"), op.attrs.get("else_branch")]
    elif op._type == "Case":
        branches = list(op.attrs.get("branches") or [])
    else:
        return None
    if not branches or not all(hasattr(b, "region") and hasattr(b, "outputs")
                               for b in branches):
        return None
    reached: Set[Tensor] = set()
    for branch in branches:
        members = set(branch.region.ops)
        stack = [t for t in branch.outputs if is_trainable(t)]
        seen: Set[Tensor] = set()
        while stack:
            t = stack.pop()
            if t in seen:
                continue
            seen.add(t)
            if t._op not in members:
                reached.add(t)
                continue
            stack.extend(_differentiable_inputs(t._op))
    return [t in reached for t in op._inputs]


def region_inner_ops(op: Operation) -> List[Operation]:
    """The ops of a tf.while_loop's, tf.cond's or tf.case's traced regions, nested
    constructs' regions included (not descending into gradient ops); [] for other ops.
    A gradient through the construct differentiates the results of the gradient ops
    among them too, as TF's gradient of a loop body holding `tf.gradients` does, so
    those must keep their autograd graph (create_graph)."""
    if op._type == "While":
        loop = op.attrs.get("loop")
        regions = [getattr(loop, "cond_region", None), getattr(loop, "body_region", None)]
    elif op._type == "If":
        regions = [getattr(b, "region", None)
                   for b in (op.attrs.get("then_branch"), op.attrs.get("else_branch"))]
    elif op._type == "Case":
        regions = [getattr(b, "region", None) for b in op.attrs.get("branches") or []]
    else:
        return []
    found: List[Operation] = []
    for region in regions:
        for inner in getattr(region, "ops", None) or []:
            found.append(inner)
            if inner._type not in GRADIENT_OP_TYPES:
                found.extend(region_inner_ops(inner))
    return found


# A while loop of an imported TF1 graph closes its cycle through these ops.
_LOOP_BACK_EDGES = ("NextIteration", "RefNextIteration")


def walk(graph: Any, scope: str, ys: Sequence[Tensor], xs: Sequence[Tensor],
         grad_ys: Sequence[GradValue], stop_gradient_ops: Set[Operation],
         aggregation_method: int, gate_gradients: bool,
         build_custom: Callable[..., Any]) -> WalkResult:
    """Replays TF's tf.gradients walk; see the module docstring."""
    walker = _Walker(graph, scope, aggregation_method, gate_gradients, build_custom)
    return walker.run(ys, xs, grad_ys, stop_gradient_ops)
