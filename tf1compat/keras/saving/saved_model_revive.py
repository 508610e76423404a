"""Subclassed Keras models revived from a SavedModel's traced functions, for a directory
whose model class is not available (tf-keras's `RevivedNetwork`).

tf-keras writes a subclassed model's `call` as traced functions; its TF1 "serve" meta
graph calls the traced serving function (`StatefulPartitionedCall`) on the signature's
input placeholder and the model's variable handles (`VarHandleOp`s named by the
variables' full names). The revived model has those variables as its weights (restored
from the checkpoint) and, called on a tensor, imports that call into the current graph
with the input and the handles mapped to its own, so it predicts as the saved model did;
under eager execution it runs that call as an eager op (the library function bound to
the eager runtime), differentiable, so the eager loop fits it.
Like tf-keras's, it accepts only the traced input signature (other shapes or dtypes are a
ValueError) and, for a directory without traced functions (tf1compat writes none), loads
but cannot be called (ValueError). Its class is named after the saved class. Its inner
layers are revived as tf-keras revives them: each layer the keras metadata records under
the model (`root.<attribute>`) is rebuilt from its class and config, built on its saved
input shape and set as that attribute, and its variables are the model's weights of those
names; a variable no revivable layer owns stays a weight of the model itself. A nested
subclassed model (no config to rebuild) is revived the same way, as tf-keras revives it: a
`RevivedModel` of its class name with its own inner layers and variables, called through
its traced `__call__` function (its concrete function on the input and its bound
variables' handles).
"""

from __future__ import annotations

import contextlib
import os
import json
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.keras.engine.training import Model

__all__ = ["revive_from_traced_functions"]

_SIGNATURE = "serving_default"


class RevivedModel(Model):
    """A subclassed model called through the serving function traced by tf-keras."""

    def __init__(self, graph_def: Any, input_tensor: str, input_spec: Tuple[Any, Any],
                 output_tensor: Optional[str], handles: List[str],
                 variables: List[Tuple[str, Any, Any]], values: List[Any], class_name: str,
                 inner_layers: List["_InnerLayer"], **kwargs: Any):
        super().__init__(**kwargs)
        self._inner_layers = inner_layers
        self._traced_graph_def = graph_def
        self._traced_input = input_tensor
        self._traced_spec = input_spec
        self._traced_output = output_tensor
        self._traced_handles = handles
        self._saved_variables = variables
        self._saved_values = values
        self._saved_class_name = class_name
        self._weights_by_saved_name: Dict[str, Any] = {}
        self._eager_function: Optional[Any] = None   # the traced LibraryFunction, eagerly
        self._scope = self.name     # (a nested model's: its outer models' names too)

    def build(self, input_shape: Any) -> None:
        """Builds the inner layers and creates the saved variables they do not own as the
        model's weights, all with their saved values."""
        from tf1compat.keras import backend
        from tf1compat.keras.initializers import Zeros
        owned: Dict[str, Any] = {}
        for inner in self._inner_layers:
            if isinstance(inner.layer, RevivedModel):
                # (its layers' scopes under this model's: `outer/inner/dense/kernel`)
                object.__setattr__(inner.layer, "_scope", f"{self._scope}/{inner.layer.name}")
                inner.layer.build(None)
            elif not inner.layer.built:   # (a functional model is built by its config)
                # (built at load, outside any scope: the model's name, then the layer's; a
                # nested Sequential builds in Keras' graph, which keeps scopes of its own)
                graph = backend.get_graph() if isinstance(inner.layer, Model) else None
                with graph.as_default() if graph is not None else contextlib.nullcontext(), \
                        backend.name_scope(f"{self._scope}/{inner.layer.name}/"):
                    inner.layer.build(inner.input_shape)
                inner.layer.built = True
            owned.update(inner.owned())
            setattr(self, inner.attribute, inner.layer)
        weights = [owned[full_name] if full_name in owned else
                   self.add_weight(name=full_name, shape=shape, dtype=dtype,
                                   initializer=Zeros(), trainable=True)
                   for full_name, shape, dtype in self._saved_variables]
        backend.batch_set_value(list(zip(weights, self._saved_values)))
        # (not tracked: the weights are the layers' and the model's own, in their order)
        object.__setattr__(self, "_weights_by_saved_name",
                           {saved[0]: weight for saved, weight in
                            zip(self._saved_variables, weights)})
        self.built = True

    def call(self, inputs: Any, training: Any = None) -> Any:
        from tf1compat.framework.context import executing_eagerly
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.graphdef.graph_import import import_graph_def
        if self._traced_output is None:
            raise ValueError(
                f"Cannot call custom layer {self.name} of type {self._saved_class_name}, "
                "because the call function was not serialized to the SavedModel. Implement "
                "`get_config` and `from_config` in the model class and pass it in "
                "`custom_objects` when loading the model.")
        inputs = convert_to_tensor(inputs, dtype_hint=self._traced_spec[1])
        shape, dtype = self._traced_spec
        if inputs.dtype.base_dtype != dtype or not inputs.shape.is_compatible_with(shape):
            raise ValueError(
                "Could not find matching concrete function to call loaded from the "
                f"SavedModel. Got: {inputs} Expected a tensor of shape {shape} and dtype "
                f"{dtype.name}.")
        if executing_eagerly():
            return self._call_eagerly(inputs)
        input_map = {self._traced_input: inputs}
        for name in self._traced_handles:
            input_map[name + ":0"] = self._weights_by_saved_name[name].handle
        output, = import_graph_def(self._traced_graph_def, input_map=input_map,
                                   return_elements=[self._traced_output],
                                   name=self.name + "_traced")
        return output

    def _call_eagerly(self, inputs: Any) -> Any:
        """The traced function run as an eager `StatefulPartitionedCall` on the input and
        the weights' handles (differentiable: the eager loop trains through it)."""
        from tf1compat.framework import dtypes
        from tf1compat.framework.graph import apply_op
        from tf1compat.graphdef.function_library import LibraryFunction
        call = self._traced_graph_def.node[0]
        function = self._eager_function
        if function is None:
            library: Dict[str, LibraryFunction] = {}
            for fdef in self._traced_graph_def.library.function:
                library[fdef.signature.name] = LibraryFunction(fdef, library)
            function = self._eager_function = library[call.attr["f"].func.name]
        tin = [dtypes.as_dtype(arg.type) for arg in function.fdef.signature.input_arg]
        handles = [self._weights_by_saved_name[name].handle for name in self._traced_handles]
        op = apply_op(call.op, [[inputs] + handles],
                      {"f": function, "Tin": tin, "Tout": function.output_dtypes},
                      name=self.name + "_traced")
        return op._outputs[0]


class _InnerLayer:
    """A layer of the revived model: the attribute it is under, the layer (from its class
    and config), its saved input shape and its variables: edge name -> full name for a
    layer, or the full names in its `weights` order for a nested model."""

    def __init__(self, attribute: str, layer: Any, input_shape: Any, variables: Any):
        self.attribute = attribute
        self.layer = layer
        self.input_shape = input_shape
        self.variables = variables

    def owned(self) -> Dict[str, Any]:
        """full name -> the layer's variable of that saved variable."""
        if isinstance(self.layer, RevivedModel):
            return dict(self.layer._weights_by_saved_name)
        if isinstance(self.variables, list):
            return dict(zip(self.variables, self.layer.weights))
        return {full_name: getattr(self.layer, local_name)
                for local_name, full_name in self.variables.items()}


# keras_metadata identifiers of the layers revived from their config: layers, and nested
# Sequential and functional models; a nested subclassed model (`_tf_keras_model`, no config
# to rebuild) is revived from its traced function instead.
_FROM_CONFIG = ("_tf_keras_layer", "_tf_keras_sequential", "_tf_keras_network")
_SUBCLASSED = "_tf_keras_model"


def _listed_variables(nodes: Any, node_id: int) -> Optional[List[str]]:
    """The full names of the variables a Keras object lists under its `variables` edge
    (its `weights`, in order), or None."""
    for child in nodes[node_id].children:
        if child.local_name == "variables":
            return [nodes[c.node_id].variable.name for c in nodes[child.node_id].children
                    if nodes[c.node_id].WhichOneof("kind") == "variable"]
    return None


def _metadata_entries(filepath: str) -> List[Tuple[Any, Dict[str, Any]]]:
    """keras_metadata.pb's entries by node id, each with its decoded metadata."""
    from tf1compat.keras.saving.saved_model_format import METADATA_FILENAME, _decode_helper
    from tf1compat.serialization.messages import SavedMetadata
    message = SavedMetadata()
    with open(os.path.join(filepath, METADATA_FILENAME), "rb") as f:
        message.ParseFromString(f.read())
    return [(entry, json.loads(entry.metadata, object_hook=_decode_helper))
            for entry in sorted(message.nodes, key=lambda n: n.node_id)]


class _Revival:
    """What reviving the layers of a directory reads: its "serve" meta graph, keras
    metadata entries and variable values (full name -> value)."""

    def __init__(self, meta: Any, entries: List[Tuple[Any, Dict[str, Any]]],
                 values: Dict[str, Any]):
        self.meta = meta
        self.entries = entries
        self.values = values


def _inner_layers(revival: _Revival, parent: str, saved_names: List[str]) -> List[_InnerLayer]:
    """The direct layers of the object at `parent` (`root`, `root.inner`) recorded in
    keras_metadata.pb that tf1compat can revive: from their config, or a nested subclassed
    model from its traced function (a class tf1compat lacks, or a layer whose variables
    are not all the model's, is left out: the model keeps those variables itself)."""
    from tf1compat.keras.layers.serialization import deserialize
    nodes = revival.meta.object_graph_def.nodes
    depth = parent.count(".") + 2
    out: List[_InnerLayer] = []
    for entry, metadata in revival.entries:
        path = entry.node_path.split(".")
        if len(path) != depth or ".".join(path[:-1]) != parent or \
                entry.identifier not in _FROM_CONFIG + (_SUBCLASSED,):
            continue
        variables: Any = {child.local_name: nodes[child.node_id].variable.name
                          for child in nodes[entry.node_id].children
                          if nodes[child.node_id].WhichOneof("kind") == "variable"}
        if entry.identifier != "_tf_keras_layer":
            variables = _listed_variables(nodes, entry.node_id) or []
        names = variables.values() if isinstance(variables, dict) else variables
        if any(name not in saved_names for name in names):
            continue
        if entry.identifier == _SUBCLASSED:
            layer = _nested_model(revival, entry, metadata, variables, saved_names)
            variables = [saved[0] for saved in layer._saved_variables]
        else:
            try:
                layer = deserialize({"class_name": metadata["class_name"],
                                     "config": metadata["config"]})
            except (ValueError, TypeError):
                continue    # not a class tf1compat knows: its variables stay the model's
        out.append(_InnerLayer(path[-1], layer, metadata.get("build_input_shape"),
                               variables))
    return out


def _variable_specs(meta: Any, names: List[str]) -> List[Tuple[str, Any, Any]]:
    """(full name, shape, dtype) of the object graph's variables of those names."""
    from tf1compat.framework import dtypes
    from tf1compat.framework.tensor_shape import TensorShape
    found = {node.variable.name: node.variable for node in meta.object_graph_def.nodes
             if node.WhichOneof("kind") == "variable"}
    return [(name, TensorShape(found[name].shape).as_list(),
             dtypes.as_dtype(found[name].dtype)) for name in names]


def _nested_model(revival: _Revival, entry: Any, metadata: Dict[str, Any],
                  variables: List[str], saved_names: List[str]) -> "RevivedModel":
    """A nested subclassed model as tf-keras revives it: a `RevivedModel` of its class
    name with its own inner layers and variables, called through its traced `__call__`
    (built by the model that holds it). Its variables are those it lists, else (a
    directory without the list, tf1compat's) its layers' and its own, in that order."""
    graph_def, spec, input_name, output_name, handles = _traced_call(
        revival.meta, entry.node_id, metadata.get("name") or "model")
    inner_layers = _inner_layers(revival, entry.node_path, variables or saved_names)
    if not variables:
        nodes = revival.meta.object_graph_def.nodes
        own = [nodes[child.node_id].variable.name for child in nodes[entry.node_id].children
               if nodes[child.node_id].WhichOneof("kind") == "variable"]
        for inner in inner_layers:
            names = inner.variables.values() if isinstance(inner.variables, dict) else \
                inner.variables
            variables.extend(name for name in names if name not in variables)
        variables.extend(name for name in own if name not in variables)
    class_name = metadata["class_name"]
    revived_class = type(class_name, (RevivedModel,), {"__module__": __name__})
    return revived_class(graph_def, input_name, spec, output_name, handles,
                         _variable_specs(revival.meta, variables),
                         [revival.values[name] for name in variables], class_name,
                         inner_layers, name=metadata.get("name"))


def _traced_call(meta: Any, node_id: int, name: str) -> Tuple[Any, Any, str, Optional[str],
                                                                 List[str]]:
    """A GraphDef calling the object's traced `__call__` (a `StatefulPartitionedCall` of
    its one concrete function on an input placeholder and its bound variables' handles,
    named by their full names), the traced input's (shape, dtype), the input and output
    tensor names and the handles' names; without a traced single-tensor `__call__`, an
    empty GraphDef and no output."""
    from tf1compat.framework import dtypes
    from tf1compat.framework.tensor_shape import TensorShape
    from tf1compat.serialization.messages import GraphDef
    graph_def = GraphDef()
    nodes = meta.object_graph_def.nodes
    no_call = (graph_def, (TensorShape(None), dtypes.float32), "", None, [])
    call = next((c.node_id for c in nodes[node_id].children if c.local_name == "__call__"),
                None)
    if call is None or nodes[call].WhichOneof("kind") != "function" or \
            len(nodes[call].function.concrete_functions) != 1:
        return no_call
    function_name = nodes[call].function.concrete_functions[0]
    concrete = meta.object_graph_def.concrete_functions[function_name]
    args = concrete.canonicalized_input_signature.tuple_value.values
    if len(args) != 2 or len(args[0].tuple_value.values) != 1 or \
            args[1].dict_value.fields or \
            args[0].tuple_value.values[0].WhichOneof("kind") != "tensor_spec_value":
        return no_call
    tensor_spec = args[0].tuple_value.values[0].tensor_spec_value
    bound = [nodes[i] for i in concrete.bound_inputs]
    fdef = next((f for f in meta.graph_def.library.function
                 if f.signature.name == function_name), None)
    if fdef is None or len(fdef.signature.output_arg) != 1 or \
            any(node.WhichOneof("kind") != "variable" for node in bound):
        return no_call
    handles = [node.variable.name for node in bound]
    node = graph_def.node.add()
    node.name, node.op = name + "_call", "StatefulPartitionedCall"
    node.input.extend([name + "_input"] + handles)
    node.attr["f"].func.name = function_name
    node.attr["Tin"].list.type.extend(arg.type for arg in fdef.signature.input_arg)
    node.attr["Tout"].list.type.extend(arg.type for arg in fdef.signature.output_arg)
    graph_def.library.CopyFrom(meta.graph_def.library)
    graph_def.versions.CopyFrom(meta.graph_def.versions)
    spec = (TensorShape(tensor_spec.shape), dtypes.as_dtype(tensor_spec.dtype))
    return graph_def, spec, name + "_input:0", node.name + ":0", handles


def _serving_call(meta: Any) -> Tuple[Optional[Any], Optional[Any], List[Any]]:
    """The signature's input, its output and the call's variable handle nodes, when the
    output is a traced function called on the input placeholder and variable handles."""
    if _SIGNATURE not in meta.signature_def:
        return None, None, []
    signature = meta.signature_def[_SIGNATURE]
    if len(signature.inputs) != 1 or len(signature.outputs) != 1:
        return None, None, []
    (input_info,) = signature.inputs.values()
    (output_info,) = signature.outputs.values()
    nodes = {node.name: node for node in meta.graph_def.node}
    call = nodes.get(output_info.name.split(":")[0])
    if call is None or call.op not in ("StatefulPartitionedCall", "PartitionedCall"):
        return None, None, []
    handles = [nodes.get(name.split(":")[0]) for name in call.input[1:]]
    if call.input[0].split(":")[0] != input_info.name.split(":")[0] or \
            any(node is None or node.op != "VarHandleOp" for node in handles):
        return None, None, []
    return input_info, output_info, [call] + handles


def _saved_variables(meta: Any, prefix: str) -> List[Tuple[str, Any, Any]]:
    """(full name, shape, dtype) of the model's variables in the object graph, in order
    (the optimizer's, outside the model's name scope, are left out)."""
    from tf1compat.framework import dtypes
    from tf1compat.framework.tensor_shape import TensorShape
    out: List[Tuple[str, Any, Any]] = []
    nodes = meta.object_graph_def.nodes
    listed = _listed_variables(nodes, 0) if nodes else None
    for node in nodes:
        if node.WhichOneof("kind") != "variable":
            continue
        # (the root's `variables` list names its weights, nested models' included;
        # without one, those under the model's name scope)
        if node.variable.name not in listed if listed is not None else \
                not node.variable.name.startswith(prefix):
            continue
        if all(name != node.variable.name for name, _, _ in out):
            out.append((node.variable.name, TensorShape(node.variable.shape).as_list(),
                        dtypes.as_dtype(node.variable.dtype)))
    return out


def revive_from_traced_functions(root: Dict[str, Any], config: Dict[str, Any],
                                 filepath: str) -> Any:
    """The model of `filepath` as a `RevivedModel` subclass named after its class, its
    weights created and restored."""
    from tf1compat.framework import dtypes
    from tf1compat.framework.tensor_shape import TensorShape
    from tf1compat.keras.saving.saved_model_format import _VARIABLES, _checkpoint_keys
    from tf1compat.serialization.messages import GraphDef, SavedModel
    from tf1compat.training.saving.checkpoint_utils import load_checkpoint
    saved = SavedModel()
    with open(os.path.join(filepath, "saved_model.pb"), "rb") as f:
        saved.ParseFromString(f.read())
    meta = next((m for m in saved.meta_graphs if "serve" in m.meta_info_def.tags),
                saved.meta_graphs[0])
    name = root.get("name") or config["class_name"].lower()
    variables = _saved_variables(meta, name + "/")
    reader = load_checkpoint(os.path.join(filepath, _VARIABLES))
    keys = _checkpoint_keys(reader)
    values = [reader.get_tensor(keys[full_name]) for full_name, _, _ in variables]
    input_info, output_info, nodes = _serving_call(meta)
    known = {full_name for full_name, _, _ in variables}
    if any(node.name not in known for node in nodes[1:]):
        nodes = []
    graph_def = GraphDef()
    spec: Tuple[Any, Any] = (TensorShape(None), dtypes.float32)
    if nodes:
        graph_def.node.extend(nodes[:1])
        graph_def.library.CopyFrom(meta.graph_def.library)
        graph_def.versions.CopyFrom(meta.graph_def.versions)
        spec = (TensorShape(input_info.tensor_shape), dtypes.as_dtype(input_info.dtype))
    class_name = config["class_name"]
    revived_class = type(class_name, (RevivedModel,), {"__module__": __name__})
    revival = _Revival(meta, _metadata_entries(filepath),
                       {full_name: value for (full_name, _, _), value in
                        zip(variables, values)})
    model = revived_class(graph_def, input_info.name if nodes else "", spec,
                          output_info.name if nodes else None,
                          [node.name for node in nodes[1:]], variables, values, class_name,
                          _inner_layers(revival, "root", [v[0] for v in variables]),
                          name=name)
    model.build(None)
    return model
