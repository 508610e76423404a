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


_PREFIX = "tf_op_layer_"


class TensorFlowOpLayer(Layer):
    """A raw TF op inside a functional model, re-created on replay with the new inputs.

    `node_def` is the op's NodeDef (a NodeDef view, or its JSON dict from a config);
    `constants` maps the positions of the op's inputs that do not come from Keras tensors
    to their values (re-created as Const ops named as the NodeDef's inputs on replay), as
    tf-keras's layer does: `create_keras_history` evaluates them when it makes the layer.
    Tensors given here (a function graph's, whose values no session can fetch) are reused
    in their graph and evaluated by `get_config`."""

    def __init__(self, node_def: Any, name: str, constants: Optional[Dict[Any, Any]] = None,
                 trainable: bool = True, dtype: Any = None, **kwargs: Any):
        super().__init__(name=_PREFIX + name, trainable=trainable, dtype=dtype, **kwargs)
        if isinstance(node_def, dict):
            self._op_type = node_def["op"]
            self._node_name = node_def.get("name", name)
            self._node_inputs = list(node_def.get("input", []))
            self._op_attrs = {key: _attr_from_json(value)
                              for key, value in node_def.get("attr", {}).items()}
        else:
            self._op_type = node_def.op
            self._node_name = node_def.name
            self._node_inputs = list(node_def.input)
            self._op_attrs = {k: v for k, v in node_def.attr_values.items()
                              if not k.startswith("_")}
        self.constants = {int(i): c for i, c in (constants or {}).items()}
        self.built = True

    def call(self, inputs: Any) -> Any:
        inputs = nest.flatten(inputs)
        graph = inputs[0].graph if inputs and isinstance(inputs[0], Tensor) else None
        for index in sorted(self.constants):
            value = self.constants[index]
            if not (isinstance(value, Tensor) and value.graph is graph):
                from tf1compat.framework.constant_op import constant
                name = self._node_inputs[index] if index < len(self._node_inputs) else None
                value = constant(_get_value(value),
                                 name=name.split(":")[0].split("/")[-1] if name else None)
            inputs.insert(index, value)
        op = apply_op(self._op_type, inputs, dict(self._op_attrs),
                      name=self._node_name.split("/")[-1])
        outputs = list(op.outputs)
        return outputs[0] if len(outputs) == 1 else outputs

    def get_config(self) -> dict:
        from google.protobuf import json_format
        from tf1compat.serialization.tensor_proto import attr_to_proto
        node_def: Dict[str, Any] = {"name": self._node_name, "op": self._op_type}
        if self._node_inputs:
            node_def["input"] = list(self._node_inputs)
        if self._op_attrs:
            node_def["attr"] = {key: json_format.MessageToDict(attr_to_proto(value))
                                for key, value in self._op_attrs.items()}
        return {"name": self.name[len(_PREFIX):], "trainable": self.trainable,
                "dtype": self.dtype, "node_def": node_def,
                "constants": {i: _get_value(c) for i, c in self.constants.items()}}


def _attr_from_json(value: Dict[str, Any]) -> Any:
    from google.protobuf import json_format
    from tf1compat.serialization.messages import AttrValue
    from tf1compat.serialization.tensor_proto import proto_to_attr
    return proto_to_attr(json_format.ParseDict(value, AttrValue()))


def _get_value(value: Any) -> Any:
    """A constant input's value: a tensor evaluated in Keras's session (TF's
    `backend.get_value`), other values as they are."""
    if isinstance(value, Tensor):
        from tf1compat.keras.backend_core import get_value
        return get_value(value)
    return value


def _frozen(constants: Dict[int, Tensor]) -> Dict[int, Any]:
    """tf-keras evaluates a raw op's non-Keras inputs when it makes the op's layer (in
    Keras's session: a variable's value then, one draw of a random op, an uninitialized
    variable's FailedPreconditionError at the Model's construction); later changes do not
    reach its config or a model rebuilt from it. Consts are read without a run; inputs in
    a function graph stay tensors (no session runs that graph)."""
    from tf1compat.framework.constant_value import constant_value
    from tf1compat.framework.func_graph import FuncGraph
    values: Dict[int, Any] = {}
    pending: Dict[int, Tensor] = {}
    for i, x in constants.items():
        value = constant_value(x) if x.op.type == "Const" else None
        if value is not None:
            values[i] = value
        elif isinstance(x.graph, FuncGraph):
            values[i] = x
        else:
            pending[i] = x
    if pending:
        from tf1compat.keras.backend_core import batch_get_value
        values.update(zip(pending, batch_get_value(list(pending.values()))))
    return {i: values[i] for i in constants}


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
        # (tf-keras: inputs computed from Keras tensors are the layer's; the others are
        # its constants)
        layer_inputs = [x for x in op.inputs if node_module.keras_history(x) is not None]
        constants = _frozen({i: x for i, x in enumerate(op.inputs)
                             if node_module.keras_history(x) is None})
        layer = TensorFlowOpLayer(op.node_def, name=op.name, constants=constants)
        created[id(op)] = layer
        # The node's outputs are the op's output list, one tensor too (tf-keras's
        # `op.outputs`): `layer.output` unwraps it, `layer.output_shape` is a list.
        node_module.Node(layer, (layer_inputs[0] if len(layer_inputs) == 1 else layer_inputs,),
                         {}, list(op.outputs))
    for t in nest.flatten(tensors):
        if isinstance(t, Tensor):
            visit(t)
