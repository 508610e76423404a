"""Function graphs: the graphs traced functions build (tf.data functions, `tf.function`).

As in TF, a traced function is not part of the graph that uses it: its ops live in a
`FuncGraph` of their own, so the outer graph's op list and names are what TF's are.
While the function is traced the FuncGraph is the default graph; `apply_op` puts every
new op there (framework/graph.py), and what its ops consume from outside is *captured*:

* an outer graph tensor becomes a Placeholder of the function graph, and the op that
  owns the function takes the outer tensor as an input (a dataset op's
  `other_arguments`); nested function graphs capture through their outer one;
* an eager tensor (a function traced under eager execution) becomes a Placeholder fed
  with its value at each call;
* an eager variable is read where it lives: its handle becomes a VarHandleOp on the
  eager variable store, so the function sees later assignments.

A function graph is compiled with the same plan builder and code generator as
`Session.run`: tf.data functions once per session (`kctx.compile_function`), on the CPU
where tf.data runs; `tf.function` traces once per input signature (eager/function.py).
"""

from __future__ import annotations

import contextlib
from typing import Any, Dict, Iterator, List, Optional

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes
from tf1compat.framework import graph as _graph
from tf1compat.framework.graph import Graph
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import as_shape

__all__ = ["FuncGraph"]


class FuncGraph(Graph):
    """A graph holding one traced function; captures the outer values it uses.

    `outer_graph`: the graph whose tensors it may capture (None: a function traced under
    eager execution). `device`: where its top-level ops are placed (tf.data: the CPU).
    `lift_variables`: variables created while tracing live outside it, eagerly (the
    first call of a `tf.function` building a Keras layer), as TF's `init_scope`.
    """

    def __init__(self, name: str, outer_graph: Optional[Graph] = None,
                 device: Optional[str] = None, lift_variables: bool = False):
        super().__init__()
        self.name = name
        self.outer_graph = outer_graph
        self._device_name = device
        self._building_function = True
        self._outer_eager = lift_variables
        if outer_graph is not None:
            self._seed = outer_graph.seed
        self.inputs: List[Tensor] = []      # argument placeholders, then captures
        self.outputs: List[Tensor] = []
        self.captures: Dict[Tensor, Tensor] = {}  # outer tensor -> its placeholder here
        self._eager_captures: List[Any] = []  # [eager tensor, placeholder] (unhashable)
        self._eager_handles: Dict[str, Tensor] = {}  # eager variable key -> VarHandleOp

    @contextlib.contextmanager
    def building(self) -> Iterator["FuncGraph"]:
        """Makes this the default graph (on its device) while the function is traced.

        Tracing is graph building even when eager execution is on (as TF's FuncGraph), so
        a dataset function defined in eager mode still becomes a graph.
        """
        was_eager = _context.executing_eagerly()
        _context.set_eager(False)
        _graph._functions_building[0] += 1
        try:
            with self.as_default(), self.device(self._device_name):
                yield self
        finally:
            _graph._functions_building[0] -= 1
            _context.set_eager(was_eager)

    @contextlib.contextmanager
    def _top_level(self) -> Iterator[None]:
        """Creates ops at the top of this graph: outside any control-flow region, control
        dependencies and name scope, on the graph's device."""
        saved = (self._control_flow_context, self._control_dependencies_stack,
                 self._name_stack)
        self._control_flow_context = None
        self._control_dependencies_stack = []
        self._name_stack = ""
        try:
            with self.device(self._device_name):
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
        if self.outer_graph is None:
            raise ValueError(f"Tensor {tensor} must be from the same graph as the "
                             f"function {self.name!r}.")
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
        """An eager value a function traced under eager execution uses (see above)."""
        if value.dtype.base_dtype != dtypes.resource:
            for outer, inner in self._eager_captures:
                if outer is value:
                    return inner
            inner = self.placeholder(value.dtype, value.shape, "capture")
            self._eager_captures.append((value, inner))
            return inner
        found = self._eager_handles.get(value._value)
        if found is None:
            attrs = {"dtype": value._handle_dtype.base_dtype,
                     "shape": as_shape(value._handle_shape), "container": "",
                     "shared_name": value._value, "debug_name": ""}
            with self._top_level():
                found = self._apply_op(get_op_def("VarHandleOp"), [], attrs,
                                       "captured_handle")._outputs[0]
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
