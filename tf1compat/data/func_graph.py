"""Function graphs: the graphs tf.data functions (map, filter, flat_map, ...) trace into.

As in TF, a dataset function is not part of the graph that uses it: its ops live in a
`FuncGraph` of their own, so the outer graph's op list and names are what TF's are.
While the function is traced the FuncGraph is the default graph; `apply_op` puts every
new op there (framework/graph.py), and an outer tensor an op consumes is *captured*: it
becomes a Placeholder of the function graph, and the dataset op that owns the function
takes the outer tensor as an input (TF's `other_arguments`). Nested function graphs
capture through their outer function graph.

At run time a function graph is compiled once per session with the same plan builder
and code generator as `Session.run` (`kctx.compile_function(inputs, outputs)`), so a map
function runs as one straight-line generated function per element. Its ops are placed
on the CPU, where tf.data runs.
"""

from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, List

from tf1compat.framework import graph as _graph
from tf1compat.framework.graph import Graph
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.tensor import Tensor

__all__ = ["FuncGraph", "CPU"]

CPU = "/device:CPU:0"


class FuncGraph(Graph):
    """A graph holding one traced function; captures the outer tensors it uses."""

    def __init__(self, name: str, outer_graph: Graph):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        self._building_function = True
        self._seed = outer_graph.seed
        self.inputs: List[Tensor] = []      # argument placeholders, then captures
        self.outputs: List[Tensor] = []
        self.captures: Dict[Tensor, Tensor] = {}  # outer tensor -> its placeholder here
        self._eager_captures: List[Any] = []  # [eager tensor, placeholder] (unhashable)
        self._eager_handles: Dict[str, Tensor] = {}  # eager variable key -> VarHandleOp

    @contextlib.contextmanager
    def building(self) -> Iterator["FuncGraph"]:
        """Makes this the default graph (CPU device) while the function is traced.

        Tracing is graph building even when eager execution is on (as TF's FuncGraph), so
        a dataset function defined in eager mode still becomes a graph.
        """
        from tf1compat.framework import context as _context
        was_eager = _context.executing_eagerly()
        _context.set_eager(False)
        _graph._functions_building[0] += 1
        try:
            with self.as_default(), self.device(CPU):
                yield self
        finally:
            _graph._functions_building[0] -= 1
            _context.set_eager(was_eager)

    @contextlib.contextmanager
    def _top_level(self) -> Iterator[None]:
        """Creates ops at the top of this graph: outside any control-flow region, control
        dependencies and name scope, on the CPU."""
        saved = (self._control_flow_context, self._control_dependencies_stack,
                 self._name_stack)
        self._control_flow_context = None
        self._control_dependencies_stack = []
        self._name_stack = ""
        try:
            with self.device(CPU):
                yield
        finally:
            (self._control_flow_context, self._control_dependencies_stack,
             self._name_stack) = saved

    def placeholder(self, dtype: Any, shape: Any, name: str) -> Tensor:
        """A top-level Placeholder of this graph (outside any control-flow region)."""
        with self._top_level():
            op = self._apply_op(get_op_def("Placeholder"), [],
                                {"dtype": dtype.base_dtype, "shape": shape}, name)
        return op._outputs[0]

    def capture(self, tensor: Tensor) -> Tensor:
        """The placeholder standing for outer `tensor` here (created on first use)."""
        if tensor.graph is self:
            return tensor
        source = tensor
        if tensor.graph is not self.outer_graph:
            capture_outer = getattr(self.outer_graph, "capture", None)
            if capture_outer is None:
                raise ValueError(f"Tensor {tensor} must be from the same graph as the "
                                 f"function {self.name!r} or a graph enclosing it.")
            source = capture_outer(tensor)
        inner = self.captures.get(source)
        if inner is None:
            inner = self.placeholder(source.dtype, source.shape, "capture")
            self.captures[source] = inner
        return inner

    def _capture_eager_tensor(self, value: Any, name: Any = None) -> Tensor:
        """An eager value a function traced under eager execution uses.

        An eager tensor is captured like an outer graph tensor (the dataset op takes it as
        an input). An eager variable is read where it lives: its handle becomes a
        VarHandleOp on the eager variable store, so the function sees later assignments.
        """
        from tf1compat.runtime.eager_tensor import EagerResourceHandle
        if not isinstance(value, EagerResourceHandle):
            for outer, inner in self._eager_captures:
                if outer is value:
                    return inner
            inner = self.placeholder(value.dtype, value.shape, "capture")
            self._eager_captures.append((value, inner))
            return inner
        found = self._eager_handles.get(value._value)
        if found is None:
            from tf1compat.ops.resource_variable_ops import var_handle_op
            with self._top_level():
                found = var_handle_op(value._handle_dtype, value._handle_shape,
                                      shared_name=value._value, name="captured_handle")
            self._eager_handles[value._value] = found
        return found

    def control_dependencies(self, control_inputs: Any) -> Any:
        # Outer ops cannot order a function's ops (TF's FuncGraph drops them too).
        if control_inputs is not None:
            control_inputs = [c for c in control_inputs
                              if getattr(c, "graph", self) is self]
        return super().control_dependencies(control_inputs)

    @property
    def captured_tensors(self) -> List[Tensor]:
        """The outer tensors captured, in the order of their placeholders."""
        return list(self.captures) + [outer for outer, _ in self._eager_captures]

    @property
    def capture_placeholders(self) -> List[Tensor]:
        return list(self.captures.values()) + [inner for _, inner in self._eager_captures]
