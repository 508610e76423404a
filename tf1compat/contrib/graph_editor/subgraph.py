"""`SubGraphView` (TF 1.15's `graph_editor/subgraph.py`): a set of ops of a graph seen
as a function from input tensors to output tensors, plus "passthrough" tensors that go
from input to output without touching the ops. A view never changes the graph; the
`remap*` methods return views with inputs/outputs selected, reordered or repeated.
"""

from __future__ import annotations

import copy as _copy
import io
from typing import Any, List, Optional

from tf1compat.contrib.graph_editor import select, util
from tf1compat.framework.graph import Graph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["SubGraphView", "make_view", "make_view_from_scope"]


def _finalize_indices(indices: Any, ts: List[Tensor]) -> List[int]:
    """Each entry as an index into `ts`: integers as they are, tensors by position."""
    return [i if isinstance(i, int) else ts.index(i) for i in indices]


def _check_within_range(mapping: List[int], n: int, repetition: bool) -> None:
    for i in mapping:
        if not 0 <= i < n:
            raise ValueError(f"Out of [0, {n}[ range: {i}")
    if not repetition and len(set(mapping)) != len(mapping):
        raise ValueError(f"Found repetition in mapping: {mapping}")


class SubGraphView:
    """A view on part of a `tf.Graph`: `ops`, `inputs`, `outputs` and `passthroughs`.

    By default the inputs are the tensors the ops read from outside, the outputs the
    tensors they produce that are read outside (or not read at all), each followed by the
    passthrough tensors. Graph edits (`ge.swap_inputs`, ...) update the views they are
    given in place; otherwise views are treated as immutable values."""

    def __init__(self, inside_ops: Any = (), passthrough_ts: Any = ()):
        inside_ops = util.make_list_of_op(inside_ops)
        passthrough_ts = util.make_list_of_t(passthrough_ts)
        self._graph: Optional[Graph] = None
        self._ops: List[Operation] = []
        self._passthrough_ts: List[Tensor] = []
        self._input_ts: List[Tensor] = []
        self._output_ts: List[Tensor] = []
        if inside_ops or passthrough_ts:
            self._graph = util.get_unique_graph(inside_ops + passthrough_ts)
            self._ops = inside_ops
            inputs, outputs, insides = select.compute_boundary_ts(inside_ops)
            connected = frozenset(inputs + outputs + insides)
            self._passthrough_ts = [t for t in passthrough_ts if t not in connected]
            self._input_ts = inputs + self._passthrough_ts
            self._output_ts = outputs + self._passthrough_ts

    def __copy__(self) -> "SubGraphView":
        result = self.__class__.__new__(self.__class__)
        for key, value in self.__dict__.items():
            setattr(result, key, value if key == "_graph" else list(value))
        return result

    def _assign_from(self, other: "SubGraphView") -> None:
        if not isinstance(other, SubGraphView):
            raise TypeError(f"Expected SubGraphView, got: {type(other)}")
        self._graph = other._graph
        self._ops = list(other._ops)
        self._passthrough_ts = list(other._passthrough_ts)
        self._input_ts = list(other._input_ts)
        self._output_ts = list(other._output_ts)

    def copy(self) -> "SubGraphView":
        """Another view of the same ops (the graph is not copied)."""
        return _copy.copy(self)

    # -- remapping ---------------------------------------------------------------------
    def _remap_default(self, remove_input_map: bool = True,
                       remove_output_map: bool = True) -> None:
        if not remove_input_map and not remove_output_map:
            return
        inputs, outputs, _ = select.compute_boundary_ts(self._ops)
        if remove_input_map:
            self._input_ts = list(inputs) + self._passthrough_ts
        if remove_output_map:
            self._output_ts = list(outputs) + self._passthrough_ts

    def remap_default(self, remove_input_map: bool = True,
                      remove_output_map: bool = True) -> "SubGraphView":
        """A view with the default inputs and/or outputs again."""
        result = self.copy()
        result._remap_default(remove_input_map, remove_output_map)
        return result

    def _remap_inputs(self, new_input_indices: Any) -> None:
        indices = _finalize_indices(new_input_indices, self._input_ts)
        _check_within_range(indices, len(self._input_ts), repetition=False)
        self._input_ts = [self._input_ts[i] for i in indices]

    def _remap_outputs(self, new_output_indices: Any) -> None:
        indices = _finalize_indices(new_output_indices, self._output_ts)
        _check_within_range(indices, len(self._output_ts), repetition=True)
        self._output_ts = [self._output_ts[i] for i in indices]

    def _remap_outputs_make_unique(self) -> None:
        self._output_ts = util.concatenate_unique([], self._output_ts)

    def _remap_outputs_to_consumers(self) -> None:
        self._remap_outputs_make_unique()
        self._output_ts = [t for t in self._output_ts for _ in t.consumers()]

    def remap_outputs_make_unique(self) -> "SubGraphView":
        """A view listing each output tensor once."""
        result = self.copy()
        result._remap_outputs_make_unique()
        return result

    def remap_outputs_to_consumers(self) -> "SubGraphView":
        """A view listing each output tensor once per consumer."""
        result = self.copy()
        result._remap_outputs_to_consumers()
        return result

    def _remove_unused_ops(self, control_inputs: bool = True) -> None:
        used = frozenset(select.get_walks_union_ops(
            self.connected_inputs, self.connected_outputs, within_ops=self._ops,
            control_inputs=control_inputs))
        self._ops = [op for op in self._ops if op in used]

    def remove_unused_ops(self, control_inputs: bool = True) -> "SubGraphView":
        """A view of the ops reached from the connected inputs or outputs only."""
        result = self.copy()
        result._remove_unused_ops(control_inputs)
        return result

    def remap_inputs(self, new_input_indices: Any) -> "SubGraphView":
        """A view whose inputs are the old ones picked by index or tensor (no repeats)."""
        result = self.copy()
        result._remap_inputs(new_input_indices)
        return result

    def remap_outputs(self, new_output_indices: Any) -> "SubGraphView":
        """A view whose outputs are the old ones picked by index or tensor (repeats
        allowed)."""
        result = self.copy()
        result._remap_outputs(new_output_indices)
        return result

    def remap(self, new_input_indices: Any = None,
              new_output_indices: Any = None) -> "SubGraphView":
        """`remap_inputs` and `remap_outputs` at once (None leaves a side as it is)."""
        result = self.copy()
        if new_input_indices is not None:
            result._remap_inputs(new_input_indices)
        if new_output_indices is not None:
            result._remap_outputs(new_output_indices)
        return result

    # -- lookups ------------------------------------------------------------------------
    def find_op_by_name(self, op_name: str) -> Operation:
        """The view's op named `op_name` (ValueError if there is none)."""
        found = [op for op in self._ops if op.name == op_name]
        if not found:
            raise ValueError(f"{op_name} not in subgraph.")
        if len(found) > 1:
            raise AssertionError(f"More than 1 op named: {op_name}!")
        return found[0]

    def __str__(self) -> str:
        if not self:
            return "SubGraphView: empty"
        out = io.StringIO()

        def section(title: str, items: list, name_of: Any) -> None:
            if items:
                print(f"** {title}[{len(items)}]:", file=out)
                print("\n".join(f"  {name_of(item)}" for item in items), file=out)
            else:
                print(f"** {title}: empty", file=out)

        def tensor_name(t: Tensor) -> str:
            return f"{t.name} *" if t in self._passthrough_ts else t.name

        print(f"SubGraphView (graphid={id(self._graph)}):", file=out)
        section("ops", self._ops, lambda op: op.name)
        section("inputs", self._input_ts, tensor_name)
        section("outputs", self._output_ts, tensor_name)
        return out.getvalue()

    @property
    def graph(self) -> Optional[Graph]:
        """The graph viewed (None for an empty view)."""
        return self._graph

    @property
    def ops(self) -> List[Operation]:
        """The ops of the view."""
        return self._ops

    @property
    def inputs(self) -> util.ListView:
        """The input tensors."""
        return util.ListView(self._input_ts)

    @property
    def connected_inputs(self) -> List[Tensor]:
        """The inputs that are not passthrough tensors."""
        return [t for t in self._input_ts if t not in self._passthrough_ts]

    @property
    def outputs(self) -> util.ListView:
        """The output tensors."""
        return util.ListView(self._output_ts)

    @property
    def connected_outputs(self) -> List[Tensor]:
        """The outputs that are not passthrough tensors."""
        return [t for t in self._output_ts if t not in self._passthrough_ts]

    @property
    def passthroughs(self) -> util.ListView:
        """The tensors going straight from input to output."""
        return util.ListView(self._passthrough_ts)

    def __bool__(self) -> bool:
        return self._graph is not None

    def op(self, op_id: int) -> Operation:
        """The view's op at index `op_id`."""
        return self._ops[op_id]

    def is_passthrough(self, t: Tensor) -> bool:
        return t in self._passthrough_ts

    def __enter__(self) -> "SubGraphView":
        return self

    def __exit__(self, *exc: Any) -> None:
        pass

    def input_index(self, t: Tensor) -> int:
        """The position of `t` in `inputs` (ValueError if it is not an input)."""
        try:
            return self._input_ts.index(t)
        except ValueError:
            raise ValueError(f"Can't find {t.name} in inputs of subgraph.") from None

    def output_index(self, t: Tensor) -> int:
        """The position of `t` in `outputs` (ValueError if it is not an output)."""
        try:
            return self._output_ts.index(t)
        except ValueError:
            raise ValueError(f"Can't find {t.name} in outputs of subgraph.") from None

    def consumers(self) -> List[Operation]:
        """The ops outside the view reading one of its outputs."""
        inside = frozenset(self._ops)
        result: List[Operation] = []
        for t in self._output_ts:
            util.concatenate_unique(result, [op for op in t.consumers() if op not in inside])
        return result


def _check_graph(sgv: SubGraphView, graph: Optional[Graph]) -> SubGraphView:
    if not isinstance(sgv, SubGraphView):
        raise TypeError(f"Expected a SubGraphView, got: {type(sgv)}")
    if graph is None or not sgv.graph:
        return sgv
    if not isinstance(graph, Graph):
        raise TypeError(f"Expected a tf.Graph, got: {type(graph)}")
    if sgv.graph is not graph:
        raise ValueError("Graph mismatch.")
    return sgv


def make_view(*args: Any, **kwargs: Any) -> SubGraphView:
    """`ge.sgv(...)`: a view of the ops selected by `select_ops_and_ts(*args, **kwargs)`
    with the selected tensors as passthrough candidates; a lone SubGraphView is returned
    as it is (the same object, so edits update it)."""
    graph = kwargs.get("graph")
    if len(args) == 1 and isinstance(args[0], SubGraphView):
        return _check_graph(args[0], graph)
    ops, ts = select.select_ops_and_ts(*args, **kwargs)
    return _check_graph(SubGraphView(ops, ts), graph)


def make_view_from_scope(scope: str, graph: Graph) -> SubGraphView:
    """`ge.sgv_scope(scope, graph)`: a view of the ops in a name scope."""
    return SubGraphView(select.get_name_scope_ops(graph, scope))
