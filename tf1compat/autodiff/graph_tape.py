"""`tf.GradientTape` while a graph is built: TF 1.x graph mode, and a `tf.function`'s trace.

Where no op executes, a tape cannot watch values; as TF's tape in a graph, it records
which ops were created while it was active, and `gradient` returns symbolic tensors:
one `tf.gradients` call (autodiff/gradients.py) over what the tape saw. What the tape
saw is decided as TF's tape decides it:

* An op is recorded when it was created while the tape recorded (a span of the graph's
  op ids: from entering to leaving the tape, less `stop_recording` blocks) and one of
  its inputs is watched or an output of a recorded op. Ops inside a loop or cond built
  there are part of the construct's op, recorded with it.
* Watched: tensors passed to `watch`, variables passed to `watch` and, with
  `watch_accessed_variables`, every trainable variable read while the tape recorded
  (a `ReadVariableOp`/resource gather of its handle created in a span; a ref
  variable's snapshot or a fresh read of it consumed there). A variable's gradient sums
  the gradients of all its reads the tape saw.
* Every other op between the sources and the targets acts as a constant: the gradient
  call stops at its outputs (`stop_gradients`), so a tensor computed before the tape
  carries no gradient back to where it came from, and an unwatched source gets None
  (or zeros, `unconnected_gradients='zero'`).

Gradients taken inside an outer tape's span are ops like any other, so the outer tape
differentiates through them (second order). One difference from TF: TF's graph-mode
tape returns None for a gradient through a `tf.while_loop` built inside it (it cannot
see the loop's body); tf1compat's loop is one op whose gradient it knows, so the
gradient is given.
"""

from __future__ import annotations

import math
from typing import Any, Dict, List, Optional, Set

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["GraphRecording"]

# Op types that read a resource variable's value (TF's tape watches a variable on read).
_RESOURCE_READS = frozenset({"ReadVariableOp", "ResourceGather", "ResourceGatherNd"})


def _flatten(structure: Any) -> list:
    from tf1compat.util import nest
    return nest.flatten(structure)


def _pack(structure: Any, flat: list) -> Any:
    from tf1compat.util import nest
    return nest.pack_sequence_as(structure, flat)


def _is_variable(x: Any) -> bool:
    return hasattr(x, "_ref") and hasattr(x, "trainable") and not isinstance(x, Tensor)


class GraphRecording:
    """What one tape recorded in `graph`: its spans of op ids and what it watches."""

    def __init__(self, graph: Graph, watch_accessed_variables: bool):
        self.graph = graph
        self.watch_accessed_variables = watch_accessed_variables
        self.spans: List[List[float]] = []
        self.watched: List[Tensor] = []
        self.watched_variables: List[Any] = []       # explicitly, in order

    # -- recording ---------------------------------------------------------------------------
    def start(self) -> None:
        self.spans.append([self.graph._next_id, math.inf])

    def stop(self) -> None:
        self.spans[-1][1] = self.graph._next_id

    def _in_span(self, op: Operation) -> bool:
        return any(start < op._id <= end for start, end in self.spans)

    def watch(self, x: Any) -> None:
        if _is_variable(x):
            if not any(x is v for v in self.watched_variables):
                self.watched_variables.append(x)
            return
        if not isinstance(x, Tensor):
            raise ValueError(f"Passed in object of type {type(x)}, not tf.Tensor or "
                             "tf.Variable or ExtensionType.")
        if getattr(x, "_is_eager_tensor", False):
            x = self.graph._capture_eager_tensor(x)
        if x.dtype.is_floating or x.dtype.is_complex:
            self.watched.append(x)

    # -- variables ---------------------------------------------------------------------------
    def _source_of(self, var: Any) -> Tensor:
        """The tensor `tf.gradients` differentiates a variable through, in this graph: a
        resource variable's handle (an eager variable's captured one), a ref variable's
        VariableV2 output."""
        if getattr(var, "_is_resource_variable", False):
            from tf1compat.autodiff.gradients import variable_source
            return variable_source(var, self.graph)
        return var._ref()

    def _variables_by_source(self) -> Dict[Tensor, Any]:
        """This graph's variables (and the eager ones a trace captured) by source tensor."""
        found: Dict[Tensor, Any] = {}
        for name in ("variables", "local_variables", "trainable_variables"):
            for var in self.graph.get_collection(name):
                if _is_variable(var) and getattr(var, "graph", None) is self.graph:
                    found.setdefault(self._source_of(var), var)
        eager_handles = getattr(self.graph, "_eager_handles", None)
        if eager_handles:
            from tf1compat.autodiff.tape import _VARIABLES
            for key, handle in eager_handles.items():
                var = _VARIABLES.get(key)
                if var is not None:
                    found.setdefault(handle, var)
        return found

    def _accessed(self, ops: List[Operation], by_source: Dict[Tensor, Any]) -> List[Any]:
        """Trainable variables read by ops created while the tape recorded, in order."""
        accessed: List[Any] = []
        for op in ops:
            for t in op._inputs:
                var = by_source.get(t)
                if var is None and t._op.type == "Identity" and t._op._inputs:
                    var = by_source.get(t._op._inputs[0])     # a ref variable's snapshot
                if var is None or not var.trainable or any(var is a for a in accessed):
                    continue
                if t.dtype.base_dtype == D.resource and op.type not in _RESOURCE_READS:
                    continue                                  # an assignment, not a read
                accessed.append(var)
        return accessed

    def _spanned(self) -> List[Operation]:
        """The ops created while the tape recorded, in creation order."""
        return [op for op in self.graph._ops if self._in_span(op)]

    def variables(self, spanned: Optional[List[Operation]] = None) -> List[Any]:
        """The watched variables: explicitly watched, then those accessed (read by
        `spanned`, the ops created while the tape recorded)."""
        found = list(self.watched_variables)
        if self.watch_accessed_variables:
            spanned = self._spanned() if spanned is None else spanned
            for var in self._accessed(spanned, self._variables_by_source()):
                if not any(var is v for v in found):
                    found.append(var)
        return found

    # -- gradients ---------------------------------------------------------------------------
    def _sources_and_constants(self, targets: List[Tensor]) -> tuple:
        """(the watched source tensors, the ops between them and `targets` the tape did
        not record: the gradient treats their outputs as constants)."""
        spanned = self._spanned()
        variables = self.variables(spanned)
        sources: Set[Tensor] = set(self.watched)
        recorded: Set[Operation] = set()
        for var in variables:
            source = self._source_of(var)
            sources.add(source)
            if not getattr(var, "_is_resource_variable", False):
                # A ref variable's snapshot was made with the variable, before any tape.
                snapshot = var.value()
                recorded.add(snapshot._op)
                sources.add(snapshot)
        connected = set(sources)
        changed = True
        while changed:     # to a fixed point: a loop's back edge is created after its use
            changed = False
            for op in spanned:
                if op not in recorded and any(t in connected for t in op._inputs):
                    recorded.add(op)
                    connected.update(op._outputs)
                    changed = True
        constants: Set[Operation] = set()
        seen: Set[Operation] = set()
        stack = [t._op for t in targets]
        while stack:
            op = stack.pop()
            if op in seen:
                continue
            seen.add(op)
            if op not in recorded and op._inputs:
                # (An op without inputs - a placeholder, a variable's handle - has
                # nothing beyond it to stop; leaving it out lets this gradient share a
                # plan with others that take it as a source.)
                constants.add(op)
            stack.extend(t._op for t in op._inputs)
        return sources, constants

    def _prepare(self, target: Any, sources: Any) -> tuple:
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        targets = [convert_to_tensor(t) for t in _flatten(target)]
        flat_sources = _flatten(sources)
        watched, constants = self._sources_and_constants(targets)
        tensors: List[Optional[Tensor]] = []
        for s in flat_sources:
            if _is_variable(s):
                tensor = self._source_of(s)
            elif isinstance(s, Tensor) and not getattr(s, "_is_eager_tensor", False):
                tensor = s
            else:
                raise ValueError(f"Passed in object of type {type(s)}, not tf.Tensor or "
                                 "tf.Variable or ExtensionType.")
            tensors.append(tensor if tensor in watched else None)
        stops = [op._outputs[0] for op in constants if op._outputs]
        return targets, flat_sources, tensors, stops

    def gradient(self, target: Any, sources: Any, output_gradients: Any,
                 unconnected: str) -> Any:
        from tf1compat.autodiff.gradients import gradients
        targets, flat_sources, tensors, stops = self._prepare(target, sources)
        grad_ys = None if output_gradients is None else _flatten(output_gradients)
        wanted = [(s, t) for s, t in zip(flat_sources, tensors) if t is not None]
        grads: Dict[int, Any] = {}
        if wanted:
            results = gradients(targets, [s for s, _ in wanted], grad_ys=grad_ys,
                                stop_gradients=stops, unconnected_gradients=unconnected)
            grads = {id(s): g for (s, _), g in zip(wanted, results)}
        flat = [grads[id(s)] if id(s) in grads else _unconnected(s, unconnected)
                for s in flat_sources]
        return _pack(sources, flat)

    def jacobian(self, target: Any, sources: Any, unconnected: str) -> Any:
        """d target / d source for each source: target.shape + source.shape."""
        from tf1compat.autodiff.gradients import jacobian_op
        from tf1compat.ops.array_ops import concat, reshape, shape
        targets, flat_sources, tensors, stops = self._prepare(target, sources)
        y = targets[0]
        flat_y = reshape(y, [-1])
        out = []
        for s, tensor in zip(flat_sources, tensors):
            jac = None if tensor is None else \
                jacobian_op(flat_y, tensor, {t._op for t in stops})
            if jac is None:
                out.append(_unconnected_jacobian(y, s, unconnected))
                continue
            full = reshape(jac, concat([shape(y), shape(s)], 0))
            full.set_shape(y.shape.concatenate(_shape(s)))
            out.append(full)
        return _pack(sources, out)

    def batch_jacobian(self, target: Any, source: Any, unconnected: str) -> Any:
        """Per-example jacobians: [batch] + target.shape[1:] + source.shape[1:], the
        diagonal blocks of the full jacobian over the batch dimension."""
        from tf1compat.ops.array_ops import concat, reshape, shape
        from tf1compat.ops.matrix_ops import matrix_diag_part
        from tf1compat.ops.reduction_ops import reduce_prod
        from tf1compat.ops.transform_ops import transpose
        y = target
        s_shape = _shape(source)
        if y.shape.ndims is not None and y.shape.ndims < 1 or \
                not y.shape[:1].is_compatible_with(s_shape[:1]):
            raise ValueError(f"Need first dimension of target shape ({y.shape}) and source "
                             f"shape ({s_shape}) to match.")
        full = self.jacobian(y, source, unconnected)
        if full is None:
            return None
        batch = shape(y)[:1]
        n = reshape(reduce_prod(shape(y)[1:]), [1])
        m = reshape(reduce_prod(shape(source)[1:]), [1])
        rows = reshape(full, concat([batch, n, batch, m], 0))          # [b, n, b, m]
        diag = matrix_diag_part(transpose(rows, [1, 3, 0, 2]))          # [n, m, b]
        per_example = transpose(diag, [2, 0, 1])
        result = reshape(per_example, concat([shape(y), shape(source)[1:]], 0))
        result.set_shape(y.shape.concatenate(s_shape[1:]))
        return result


def _shape(x: Any) -> Any:
    return x.get_shape() if hasattr(x, "get_shape") else x.shape


def _unconnected(source: Any, unconnected: str) -> Any:
    if unconnected != "zero":
        return None
    from tf1compat.ops.creation_ops import zeros_like
    return zeros_like(source.value() if _is_variable(source) else source)


def _unconnected_jacobian(y: Tensor, source: Any, unconnected: str) -> Any:
    if unconnected != "zero":
        return None
    from tf1compat.ops.array_ops import concat, shape
    from tf1compat.ops.creation_ops import zeros
    return zeros(concat([shape(y), shape(source)], 0), dtype=source.dtype.base_dtype)
