"""Raw TF ops applied to Keras tensors: each becomes a `TensorFlowOpLayer`
(`tf_op_layer_mul`) so functional models can replay it on new inputs, as TF1's Keras does
when a layer or a Model is given tensors computed from Keras tensors by plain TF ops."""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.util import nest
from tf1compat.framework.graph import apply_op
from tf1compat.framework.tensor import Tensor
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.op_lambda import add_op_call_history, op_call_of

__all__ = ["TensorFlowOpLayer", "create_keras_history", "needs_keras_history"]


class TensorFlowOpLayer(Layer):
    """A raw TF op inside a functional model (re-created on replay with the new inputs;
    its other inputs, such as constants, are reused)."""

    def __init__(self, op: Any, name: Optional[str] = None, **kwargs: Any):
        super().__init__(name="tf_op_layer_" + (name or op.name), **kwargs)
        self._op_type = op.type
        self._op_attrs = {k: v for k, v in op._attrs.items() if not k.startswith("_")}
        self._op_name = op.name.split("/")[-1]
        self.built = True

    def call(self, inputs: Any) -> Any:
        op = apply_op(self._op_type, list(inputs), dict(self._op_attrs), name=self._op_name)
        outputs = list(op.outputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable, "dtype": self.dtype,
                "node_def": {"op": self._op_type, "attr": dict(self._op_attrs)}}


def _free_set(graph: Any) -> Dict[int, Tensor]:
    return graph._extras.setdefault("keras_history_free", {})


def needs_keras_history(tensors: Any) -> bool:
    """Whether some input lacks a Keras history but is computed from Keras tensors."""
    flat = [t for t in nest.flatten(tensors) if isinstance(t, Tensor)]
    if not flat or not flat[0].graph._extras.get("keras_history"):
        return False
    if node_module.call_context().in_call:
        return False
    free = _free_set(flat[0].graph)
    seen: Dict[int, Tensor] = {}
    found = False
    stack = [t for t in flat if node_module.keras_history(t) is None]
    while stack:
        t = stack.pop()
        if id(t) in seen or free.get(id(t)) is t:
            continue
        seen[id(t)] = t
        if node_module.keras_history(t) is not None:
            found = True
            continue
        stack.extend(t.op.inputs)
    if not found:
        free.update(seen)
    return found


def create_keras_history(tensors: Any) -> None:
    """Gives raw-op tensors between Keras tensors a history (one TensorFlowOpLayer per op)."""
    created: Dict[int, Any] = {}

    def visit(t: Tensor) -> None:
        if node_module.keras_history(t) is not None or id(t.op) in created:
            return
        if op_call_of(t) is not None:
            add_op_call_history(t, visit)   # a TF function on eager Keras inputs
            return
        op = t.op
        if not op.inputs:
            return   # constants and plain placeholders stay as they are
        for x in op.inputs:
            visit(x)
        if not any(node_module.keras_history(x) is not None for x in op.inputs):
            return   # a raw sub-graph independent of Keras tensors stays as it is
        layer = TensorFlowOpLayer(op)
        created[id(op)] = layer
        outputs = list(op.outputs)
        node_module.Node(layer, (list(op.inputs),), {},
                         outputs[0] if len(outputs) == 1 else outputs)
    for t in nest.flatten(tensors):
        if isinstance(t, Tensor):
            visit(t)
