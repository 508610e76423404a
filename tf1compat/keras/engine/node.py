"""Functional-API bookkeeping: which layer call produced a symbolic tensor (its Keras
history), the `Node` recording each call, and the call context nested layer calls share.

tf1compat tensors have fixed slots, so a tensor's Keras history `(layer, node_index,
tensor_index)` lives in a per-graph side table keyed by the tensor's id (the table keeps
the tensor alive, so ids are never reused while it exists), rather than TF's
`tensor._keras_history` attribute.
"""

from __future__ import annotations

import threading
from typing import Any, Dict, Iterator, List, NamedTuple, Optional, Sequence, Tuple

from tf1compat.util import nest
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["KerasHistory", "keras_history", "set_keras_history", "Node", "call_context",
           "CallContext", "reachable_from"]


class KerasHistory(NamedTuple):
    layer: Any
    node_index: int
    tensor_index: int


def _table(tensor: Tensor) -> Dict[int, Tuple[Tensor, KerasHistory]]:
    extras = tensor.graph._extras
    table = extras.get("keras_history")
    if table is None:
        table = extras["keras_history"] = {}
    return table


def keras_history(tensor: Any) -> Optional[KerasHistory]:
    """The (layer, node_index, tensor_index) that produced `tensor`, or None."""
    if not isinstance(tensor, Tensor) or tensor._is_eager_tensor:
        return None
    entry = tensor.graph._extras.get("keras_history", {}).get(id(tensor))
    if entry is None or entry[0] is not tensor:
        return None
    return entry[1]


def set_keras_history(tensor: Tensor, history: KerasHistory) -> None:
    _table(tensor)[id(tensor)] = (tensor, history)


def have_all_keras_metadata(tensors: Any) -> bool:
    flat = nest.flatten(tensors)
    return bool(flat) and all(keras_history(t) is not None for t in flat)


class Node:
    """One call of a layer on Keras tensors: its arguments and its outputs."""

    def __init__(self, layer: Any, call_args: tuple, call_kwargs: dict, outputs: Any):
        self.layer = layer
        self.call_args = call_args
        self.call_kwargs = call_kwargs
        self.outputs = outputs
        self._flat_arguments = [t for t in nest.flatten((call_args, call_kwargs))
                                if keras_history(t) is not None]
        self.is_input = not self._flat_arguments
        node_index = len(layer._inbound_nodes)
        layer._inbound_nodes.append(self)
        for t in self._flat_arguments:
            keras_history(t).layer._outbound_nodes.append(self)
        for i, t in enumerate(nest.flatten(outputs)):
            set_keras_history(t, KerasHistory(layer, node_index, i))

    @property
    def keras_inputs(self) -> List[Tensor]:
        return list(self._flat_arguments)

    @property
    def input_tensors(self) -> Any:
        if self.is_input:
            return [self.outputs]
        return self.call_args[0]

    @property
    def output_tensors(self) -> Any:
        if self.is_input:
            return [self.outputs]
        return self.outputs

    @property
    def input_shapes(self) -> Any:
        """Shapes as tuples (K.int_shape); one input unwrapped unless this is an Input."""
        return self._shapes(self.input_tensors)

    @property
    def output_shapes(self) -> Any:
        """Shapes as tuples (K.int_shape), in the outputs' structure: a layer that returns
        a list of one tensor (a `tf_op_layer_*`'s op outputs) has a list of one shape, as
        in tf-keras (only the input shapes are unwrapped)."""
        from tf1compat.keras.backend import int_shape
        return nest.map_structure(int_shape, self.output_tensors)

    def _shapes(self, tensors: Any) -> Any:
        from tf1compat.keras.backend import int_shape
        shapes = nest.map_structure(int_shape, tensors)
        if isinstance(shapes, list) and len(shapes) == 1 and not self.is_input:
            return shapes[0]
        return shapes

    def iterate_inbound(self) -> Iterator[Tuple[Any, int, int, Tensor]]:
        for t in self._flat_arguments:
            h = keras_history(t)
            yield h.layer, h.node_index, h.tensor_index, t

    @property
    def parent_nodes(self) -> List["Node"]:
        return [layer._inbound_nodes[node_index]
                for layer, node_index, _, _ in self.iterate_inbound()]

    def map_arguments(self, values: Dict[int, Any]) -> Tuple[tuple, dict]:
        """The call's arguments with each Keras tensor replaced by `values[id(tensor)]`."""
        def swap(x: Any) -> Any:
            return values[id(x)] if keras_history(x) is not None else x
        args = nest.map_structure(swap, self.call_args)
        kwargs = nest.map_structure(swap, self.call_kwargs)
        return tuple(args), dict(kwargs)


class CallContext(threading.local):
    """The innermost layer call: its training value, passed to nested layer calls."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: List[Dict[str, Any]] = []

    @property
    def training(self) -> Any:
        return self.stack[-1]["training"] if self.stack else None

    @property
    def in_call(self) -> bool:
        return bool(self.stack)

    @property
    def layer(self) -> Any:
        return self.stack[-1]["layer"] if self.stack else None

    def enter(self, layer: Any, training: Any) -> "_ContextManager":
        return _ContextManager(self, {"layer": layer, "training": training})


class _ContextManager:
    def __init__(self, ctx: CallContext, frame: Dict[str, Any]):
        self._ctx = ctx
        self._frame = frame

    def __enter__(self) -> None:
        self._ctx.stack.append(self._frame)

    def __exit__(self, *exc: Any) -> None:
        self._ctx.stack.pop()


_CALL_CONTEXT = CallContext()


def call_context() -> CallContext:
    return _CALL_CONTEXT


def reachable_from(inputs: Sequence[Any], target: Any) -> bool:
    """Whether `target` (an op or tensor) depends on any of `inputs` in the graph."""
    goal = {id(x.op if isinstance(x, Tensor) else x) for x in nest.flatten(inputs)
            if isinstance(x, (Tensor, Operation))}
    if not goal:
        return False
    start = target.op if isinstance(target, Tensor) else target
    seen, stack = set(), [start]
    while stack:
        op = stack.pop()
        if id(op) in seen:
            continue
        seen.add(id(op))
        if id(op) in goal:
            return True
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return False
