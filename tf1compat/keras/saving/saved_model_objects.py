"""The TF2 side of a Keras SavedModel directory: the object graph that tf-keras's own
`load_model(dir)` and `tf.saved_model.load(dir)` read.

A TF2 loader does not run the TF1 graph: it revives objects from
`MetaGraphDef.object_graph_def` (a SavedObjectGraph: the model, its layers, their
variables and the optimizer, joined by named edges such as `layer_with_weights-0` ->
`kernel`), restores their values from `variables/` through the checkpoint's own object
graph (`_CHECKPOINTABLE_OBJECT_GRAPH`, keys `layer_with_weights-0/kernel/.ATTRIBUTES/
VARIABLE_VALUE`), and tf-keras rebuilds each layer from its entry in `keras_metadata.pb`
(class name, config, `build_input_shape`), found by node id. All three views come from one
walk of the model's checkpoint dependencies (training/saving/object_checkpoint.py), so
their node ids and edge names agree.

What is left out: tf-keras's traced layer functions (`__call__`, `call_and_return_...`).
tf-keras does not need them for models it rebuilds from their config (a subclassed model
needs its class in `custom_objects`); the "serving_default" signature is added as a TF2
concrete function by saved_model_signature.py.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Tuple

from tf1compat.keras.saving.model_config import json_default

__all__ = ["KerasObjectGraph", "keras_object_graph", "layer_metadata", "encoded_shape",
           "KERAS_METADATA_VERSION"]

# (producer, min_consumer) of tf-keras's keras_metadata.pb entries and of the user objects
# in the SavedObjectGraph (the optimizer's reviver registers version 2).
KERAS_METADATA_VERSION = (2, 1)
_USER_OBJECT_VERSION = (1, 1)
_OPTIMIZER_VERSION = (2, 1)


def _layer_identifier(obj: Any) -> str:
    """tf-keras's `_object_identifier` of a layer or model."""
    from tf1compat.keras.engine.input_layer import InputLayer
    from tf1compat.keras.engine.sequential import Sequential
    from tf1compat.keras.engine.training import Model
    from tf1compat.keras.layers.recurrent import RNN
    if isinstance(obj, Sequential):
        return "_tf_keras_sequential"
    if isinstance(obj, Model):
        return "_tf_keras_network" if obj._is_graph_network else "_tf_keras_model"
    if isinstance(obj, InputLayer):
        return "_tf_keras_input_layer"
    if isinstance(obj, RNN):
        return "_tf_keras_rnn_layer"
    return "_tf_keras_layer"


def _user_identifier(obj: Any) -> Tuple[str, Tuple[int, int]]:
    """The SavedUserObject identifier (and version) of a non-variable node."""
    from tf1compat.keras.engine.base_layer import Layer
    from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2
    from tf1compat.training.saving.tracking import DictWrapper, ListWrapper
    if isinstance(obj, Layer):
        return _layer_identifier(obj), _USER_OBJECT_VERSION
    if isinstance(obj, OptimizerV2):
        return "optimizer", _OPTIMIZER_VERSION
    if isinstance(obj, ListWrapper):
        return "trackable_list_wrapper", _USER_OBJECT_VERSION
    if isinstance(obj, DictWrapper):
        return "trackable_dict_wrapper", _USER_OBJECT_VERSION
    return "_generic_user_object", _USER_OBJECT_VERSION


def encoded_shape(shape: Any) -> Any:
    """A build input shape in tf-keras's metadata JSON (TensorShapes tagged as such)."""
    from tf1compat.framework.tensor_shape import TensorShape
    if shape is None:
        return None
    if isinstance(shape, TensorShape):
        return {"class_name": "TensorShape",
                "items": None if shape.dims is None else shape.as_list()}
    if isinstance(shape, dict):
        return {k: encoded_shape(v) for k, v in shape.items()}
    items = list(shape)
    if items and all(isinstance(d, int) or d is None for d in items):
        return {"class_name": "TensorShape", "items": items}
    if any(isinstance(d, (list, tuple, TensorShape, dict)) or d is None for d in items):
        return [encoded_shape(d) for d in items]
    return {"class_name": "TensorShape", "items": [getattr(d, "value", d) for d in items]}


def layer_metadata(layer: Any) -> Dict[str, Any]:
    """A (non-model) layer's keras_metadata.pb JSON, with tf-keras's keys."""
    from tf1compat.keras.utils.serialization import serialize_keras_object
    try:
        serialized = serialize_keras_object(layer)
    except NotImplementedError:
        # (a nested subclassed model without get_config: tf-keras's SavedModel skips the
        # failed serialization with this marker; loaders revive it without its class)
        serialized = {"class_name": type(layer).__name__,
                      "config": {"layer was saved without config": True}}
    batch_shape = getattr(layer, "_batch_input_shape", None)
    policy = getattr(layer, "_dtype_policy", None)
    dtype = getattr(policy, "name", None) or getattr(layer, "dtype", None)
    metadata = {
        "name": layer.name, "trainable": layer.trainable,
        "expects_training_arg": bool(getattr(layer, "_expects_training_arg", False)),
        "dtype": dtype,
        "batch_input_shape": None if batch_shape is None else list(batch_shape),
        "stateful": bool(getattr(layer, "stateful", False)),
        "must_restore_from_config": False, "preserve_input_structure_in_config": False,
        "autocast": bool(getattr(layer, "_autocast", True)),
        "class_name": serialized["class_name"], "config": serialized["config"]}
    build_shape = getattr(layer, "_build_input_shape", None)
    inbound = [n for n in getattr(layer, "_inbound_nodes", []) if not n.is_input]
    if build_shape is None and inbound:
        # A layer with Keras's default build still records what it was first called on
        # (tf-keras builds every revived layer with it).
        build_shape = inbound[0].input_shapes
    if build_shape is not None:
        metadata["build_input_shape"] = encoded_shape(build_shape)
    return metadata


class KerasObjectGraph:
    """The three views of a model's objects a TF2 loader reads, from one walk."""

    def __init__(self, gathered: Any):
        self.gathered = gathered
        self.node_paths = self._node_paths(gathered)

    @staticmethod
    def _node_paths(gathered: Any) -> List[str]:
        """`root.layer_with_weights-0.cell` per node (the first path reaching it)."""
        paths: List[str] = ["root"] + [""] * (len(gathered.objects) - 1)
        for node, children in enumerate(gathered.children):
            for name, child in children.items():
                if not paths[child] and child != 0:
                    paths[child] = f"{paths[node]}.{name}"
        return paths

    @property
    def checkpoint_values(self) -> Dict[str, Any]:
        """Checkpoint key -> variable, for the TF1 graph's Saver."""
        return dict(self.gathered.values)

    def saved_object_graph(self) -> Any:
        """The SavedObjectGraph proto (`MetaGraphDef.object_graph_def`)."""
        from tf1compat.serialization.messages import SavedObjectGraph
        from tf1compat.training.saving.object_checkpoint import variable_full_name
        from tf1compat.training.saving.tracking import is_variable
        message = SavedObjectGraph()
        for node, obj in enumerate(self.gathered.objects):
            proto = message.nodes.add()
            for name, child in self.gathered.children[node].items():
                proto.children.add(node_id=child, local_name=name)
            for slot in self.gathered.slots[node]:
                proto.slot_variables.add(**slot)
            if is_variable(obj):
                variable = proto.variable
                variable.dtype = obj.dtype.base_dtype.as_datatype_enum
                for dim in obj.shape.as_list():
                    variable.shape.dim.add(size=dim)
                variable.trainable = bool(obj.trainable)
                variable.name = variable_full_name(obj)
            else:
                identifier, (producer, min_consumer) = _user_identifier(obj)
                proto.user_object.identifier = identifier
                proto.user_object.version.producer = producer
                proto.user_object.version.min_consumer = min_consumer
        return message

    def keras_metadata(self, root_metadata: Dict[str, Any]) -> Any:
        """keras_metadata.pb: one entry per layer/model node, the root's from `root_metadata`."""
        from tf1compat.keras.engine.base_layer import Layer
        from tf1compat.serialization.messages import SavedMetadata
        message = SavedMetadata()
        producer, min_consumer = KERAS_METADATA_VERSION
        for node, obj in enumerate(self.gathered.objects):
            if not isinstance(obj, Layer):
                continue
            metadata = root_metadata if node == 0 else layer_metadata(obj)
            entry = message.nodes.add(
                node_id=node, node_path=self.node_paths[node],
                identifier=_layer_identifier(obj),
                metadata=json.dumps(metadata, default=json_default))
            entry.version.producer = producer
            entry.version.min_consumer = min_consumer
        return message


def keras_object_graph(model: Any) -> KerasObjectGraph:
    """The object graph of `model` (its layers, variables and optimizer)."""
    from tf1compat.training.saving.object_checkpoint import gather_object_graph
    return KerasObjectGraph(gather_object_graph(model))
