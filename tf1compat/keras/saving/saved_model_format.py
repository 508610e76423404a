"""Keras models as SavedModel directories: `model.save(dir, save_format="tf")` and
`tf.keras.models.load_model(dir)`.

The directory is a SavedModel that TF1 and TF2 loaders both open. `saved_model.pb` holds
one meta graph tagged "serve" with a Predict signature "serving_default" (inputs keyed by
the Input layers' names, outputs by the output layers' names, as tf-keras keys them) for
`tf.saved_model.loader.load` (tf1compat's or real TF's), and the TF2 object graph that
tf-keras's own `load_model` and `tf.saved_model.load` revive (saved_model_objects.py);
`variables/` is an object-based checkpoint whose keys the TF1 graph's Saver reads too.
The graph is a clean inference graph: the model is rebuilt from its config in a graph of
its own, with the current weights, so no training ops are written; with a compiled Keras
optimizer the model is compiled there too and the optimizer's state saved with it.
`keras_metadata.pb` is tf-keras's `SavedMetadata` message: an entry per layer, the root's
carrying the JSON tf-keras writes there (`class_name`, `config`, `keras_version`,
`backend`, `model_config`, `training_config`), which is what `load_model` rebuilds the
model from. As with tf-keras, a reloaded model is compiled with a fresh optimizer (the
saved optimizer state stays in `variables/` but is not restored).

A subclassed model is saved through its `get_config()` and the input shape it was first
called on (tf-keras would save traced call functions for a model without one, which
tf1compat does not write: NotImplementedError), and loaded from its class in
`custom_objects`, else revived from the traced functions of a directory tf-keras wrote
(`saved_model_revive.py`).
`load_model` reads directories tf-keras 2.x wrote too: the same root-node JSON, and the
weights through the checkpoint's object graph (each variable's `full_name` gives its
`layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE` key). A SavedModel without
`keras_metadata.pb` is not a Keras model (NotImplementedError).
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.keras.saving.model_config import (compile_args_from_training_config,
                                                 model_from_config,
                                                 model_metadata, try_build_compiled_arguments)
from tf1compat.keras.saving.saved_model_objects import encoded_shape, keras_object_graph
from tf1compat.keras.saving.saved_model_signature import signature_function
from tf1compat.util import tf_logging as logging

__all__ = ["save_model_to_saved_model", "load_model_from_saved_model", "is_keras_saved_model"]

METADATA_FILENAME = "keras_metadata.pb"
_VARIABLES = os.path.join("variables", "variables")


def is_keras_saved_model(path: str) -> bool:
    """Whether `path` is a SavedModel directory (with or without Keras metadata)."""
    return os.path.isdir(path) and os.path.exists(os.path.join(path, "saved_model.pb"))


def _root_metadata(model: Any, metadata: Dict[str, Any]) -> Dict[str, Any]:
    """The root node's JSON, in tf-keras's key order (class name and config first)."""
    model_config = metadata["model_config"]
    root: Dict[str, Any] = {
        "name": model.name, "trainable": model.trainable, "expects_training_arg": True,
        "dtype": None, "batch_input_shape": None, "must_restore_from_config": False,
        "preserve_input_structure_in_config": False, "autocast": False,
        "class_name": model_config["class_name"], "config": model_config["config"],
        "is_graph_network": True}
    root.update(metadata)
    return root


_NO_INPUT_SHAPE = (
    "Model {model} cannot be saved either because the input shape is not available or "
    "because the forward pass of the model is not defined. To define a forward pass, please "
    "override `Model.call()`. To specify an input shape, either call `build(input_shape)` "
    "directly, or call the model on actual data using `Model()`, `Model.fit()`, or "
    "`Model.predict()`. If you have a custom training step, please make sure to invoke the "
    "forward pass in train step through `Model.__call__`, i.e. `model(inputs)`, as opposed "
    "to `model.call()`.")


def _subclassed_input_shape(model: Any) -> List[Any]:
    """The batch shape a subclassed model was first called on (its one input)."""
    shapes = getattr(model, "_saved_input_shapes", None)
    if not shapes:
        raise ValueError(_NO_INPUT_SHAPE.format(model=model))
    if len(shapes) != 1:
        raise NotImplementedError(
            "Saving a subclassed Keras model with several inputs as a SavedModel is not "
            "supported by tf1compat; use save_weights")
    return shapes[0]


def save_model_to_saved_model(model: Any, filepath: str, overwrite: bool = True,
                              include_optimizer: bool = True) -> None:
    """Writes `model` as a SavedModel directory at `filepath` (replaced whole: the new
    directory is written beside it and moved into place). A subclassed model is saved
    through its `get_config()` and the shape it was called on."""
    from tf1compat.keras.engine.sequential import Sequential
    subclassed = not model._is_graph_network and not isinstance(model, Sequential)
    if not model.built:
        raise ValueError("Model cannot be saved because the input shapes have not been set. "
                         "Usually, input shapes are automatically determined from calling "
                         "`.fit()` or `.predict()`. To manually set the shapes, call "
                         "`model.build(input_shape)`.")
    input_shape = _subclassed_input_shape(model) if subclassed else None
    if os.path.exists(filepath) and not overwrite:
        from tf1compat.keras.utils.io_utils import ask_to_proceed_with_overwrite
        if not ask_to_proceed_with_overwrite(filepath):
            return
    try:
        metadata = model_metadata(model, include_optimizer)
    except NotImplementedError:
        if not subclassed:
            raise
        raise NotImplementedError(
            f"Saving the subclassed Keras model {type(model).__name__} without a "
            "get_config() as a SavedModel is not supported by tf1compat: tf-keras saves its "
            "traced call functions, which tf1compat does not write. Implement get_config() "
            "(and pass the class in custom_objects when loading), or use save_weights"
            ) from None
    root = _root_metadata(model, metadata)
    if subclassed:
        root["is_graph_network"] = False
        root["build_input_shape"] = encoded_shape(input_shape)
    weights = model.get_weights()
    optimizer_weights = _optimizer_values(model) if "training_config" in metadata else None
    parent = os.path.dirname(os.path.abspath(filepath))
    os.makedirs(parent, exist_ok=True)
    staging = tempfile.mkdtemp(prefix=".tmp_saved_model_", dir=parent)
    try:
        export_dir = os.path.join(staging, "model")
        clone_spec = (type(model), input_shape) if subclassed else None
        _export(metadata, weights, optimizer_weights, export_dir, root, clone_spec)
        if os.path.isdir(filepath):
            shutil.rmtree(filepath)
        elif os.path.exists(filepath):
            os.remove(filepath)
        os.replace(export_dir, filepath)
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def _optimizer_values(model: Any) -> Optional[List[Any]]:
    """The optimizer's state as numpy arrays (None before it has any)."""
    optimizer = getattr(model, "optimizer", None)
    weights = getattr(optimizer, "weights", None)
    if not weights:
        return None
    return optimizer.get_weights()


def _rebuild(metadata: Dict[str, Any], clone_spec: Any) -> Tuple[Any, Dict[str, Any],
                                                                   Dict[str, Any]]:
    """A new copy of the model, with its signature's inputs and outputs: from the config
    (functional, Sequential), or for a subclassed model from its class's `from_config`,
    called on an input of the shape it was saved with (keys "input_1", "output_1"... as
    tf-keras writes them)."""
    from tf1compat.keras.engine.input_layer import Input
    from tf1compat.util import nest
    if clone_spec is None:
        clone = model_from_config(metadata["model_config"])
        return (clone, dict(zip(clone.input_names, clone.inputs)),
                dict(zip(clone.output_names, clone.outputs)))
    model_class, input_shape = clone_spec
    clone = model_class.from_config(metadata["model_config"]["config"])
    inputs = Input(batch_shape=input_shape, name="input_1")
    outputs = nest.flatten(clone(inputs))
    return clone, {"input_1": inputs}, {f"output_{i + 1}": t for i, t in enumerate(outputs)}


def _export(metadata: Dict[str, Any], weights: List[Any], optimizer_weights: Any,
            export_dir: str, root_metadata: Dict[str, Any], clone_spec: Any = None) -> None:
    """Rebuilds the model in a graph of its own and writes that graph, its variables
    (an object-based checkpoint) and the object graph TF2 loaders read."""
    from tf1compat.framework.graph import Graph
    from tf1compat.keras import backend
    from tf1compat.ops.control_flow_ops import group
    from tf1compat.training.saved_model import signature_constants, tag_constants
    from tf1compat.training.saved_model.builder import SavedModelBuilder
    from tf1compat.training.saved_model.signature_def_utils import predict_signature_def
    from tf1compat.training.saving.saver import Saver
    from tf1compat.variables.collections import (local_variables_initializer,
                                                 tables_initializer)
    from tf1compat.eager.context import graph_mode
    graph = Graph()
    # (under eager execution too: the model is rebuilt symbolically in its own graph)
    with graph.as_default(), graph_mode():
        clone, signature_inputs, signature_outputs = _rebuild(metadata, clone_spec)
        clone.set_weights(weights)
        if optimizer_weights is not None:
            clone.compile(**compile_args_from_training_config(metadata["training_config"]))
            _set_optimizer_weights(clone, optimizer_weights)
        objects = keras_object_graph(clone)
        session = backend.get_session()
        signature = predict_signature_def(inputs=signature_inputs, outputs=signature_outputs)
        # Lookup tables (vocabulary feature columns) are initialized when the SavedModel
        # is loaded, as TF's exports do.
        init_op = group(tables_initializer(), local_variables_initializer())
        # The TF1 graph's Saver reads the object-based keys TF2 loaders use, so one
        # checkpoint serves `tf.saved_model.loader.load` and `load_model` alike.
        saver = Saver(_saver_var_list(objects.checkpoint_values), sharded=True,
                      allow_empty=True)
        builder = SavedModelBuilder(export_dir)
        builder.add_meta_graph_and_variables(
            session, tags=[tag_constants.SERVING], clear_devices=True, main_op=init_op,
            signature_def_map={signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY:
                               signature}, saver=saver)
        builder.save()
        session.close()
        _add_object_graph(export_dir, objects, signature_inputs, signature_outputs)
    _add_checkpoint_object_graph(os.path.join(export_dir, _VARIABLES),
                                 objects.gathered.proto_structure())
    with open(os.path.join(export_dir, METADATA_FILENAME), "wb") as f:
        f.write(objects.keras_metadata(root_metadata).SerializeToString(deterministic=True))


def _saver_var_list(tracked: Dict[str, Any]) -> Dict[str, Any]:
    """The tracked variables under their object-based keys, and any other global variable
    (one a layer made without tracking it, such as a feature column's) under its name."""
    from tf1compat.variables.collections import global_variables
    var_list = dict(tracked)
    known = {id(v) for v in tracked.values()}
    for variable in global_variables():
        if id(variable) not in known:
            var_list[variable.op.name] = variable
    return var_list


def _add_checkpoint_object_graph(prefix: str, structure: Dict[str, Any]) -> None:
    """Rewrites the checkpoint at `prefix` with the object graph beside its values (what
    makes it object-based for TF2 loaders)."""
    from tf1compat.ops.io_ops import write_checkpoint
    from tf1compat.training.saving.checkpoint_utils import load_checkpoint
    reader = load_checkpoint(prefix)
    kinds = reader.get_variable_to_dtype_map()
    values = {key: reader.get_tensor(key) for key in sorted(kinds)}
    directory, base = os.path.split(prefix)
    for name in os.listdir(directory):
        if name.startswith(base + "."):
            os.remove(os.path.join(directory, name))
    write_checkpoint(prefix, values, kinds, object_graph=structure)


def _add_object_graph(export_dir: str, objects: Any, inputs: Dict[str, Any],
                      outputs: Dict[str, Any]) -> None:
    """Puts the SavedObjectGraph into saved_model.pb's (only) meta graph, with the
    signature as a TF2 concrete function where its ops allow (saved_model_signature.py)."""
    from tf1compat.serialization.messages import SavedModel
    path = os.path.join(export_dir, "saved_model.pb")
    saved_model = SavedModel()
    with open(path, "rb") as f:
        saved_model.ParseFromString(f.read())
    meta = saved_model.meta_graphs[0]
    object_graph = objects.saved_object_graph()
    library = meta.graph_def.library
    variables = [value for _, value in objects.gathered.values]
    signature = signature_function(inputs, outputs, variables,
                                   [f.signature.name for f in library.function])
    if signature is not None:
        library.function.extend(signature.library.function)
        signature.add_to(object_graph, objects.gathered.ids)
    meta.object_graph_def.CopyFrom(object_graph)
    with open(path, "wb") as f:
        f.write(saved_model.SerializeToString(deterministic=True))


def _set_optimizer_weights(model: Any, values: List[Any]) -> None:
    optimizer = model.optimizer
    try:
        optimizer._create_all_weights(model.trainable_variables)
        optimizer.set_weights(values)
    except (NotImplementedError, AttributeError, ValueError):
        logging.warning("The optimizer's state could not be recreated, so the SavedModel "
                        "holds a freshly initialized optimizer.")


# -- loading -------------------------------------------------------------------------------
def _read_root_metadata(filepath: str) -> Dict[str, Any]:
    from tf1compat.serialization.messages import SavedMetadata
    path = os.path.join(filepath, METADATA_FILENAME)
    if not os.path.exists(path):
        raise NotImplementedError(
            f"The SavedModel at {filepath} has no {METADATA_FILENAME}: loading a SavedModel "
            "that Keras did not write as a Keras model is not supported by tf1compat; load "
            "it with tf.saved_model.loader.load")
    message = SavedMetadata()
    with open(path, "rb") as f:
        message.ParseFromString(f.read())
    for node in message.nodes:
        if node.node_path == "root":
            return json.loads(node.metadata, object_hook=_decode_helper)
    raise ValueError(f"{path} has no root node")


def _decode_helper(obj: Dict[str, Any]) -> Any:
    """tf-keras's JSON encoding of tuples and shapes in SavedModel metadata
    (`{"class_name": "__tuple__", "items": [...]}`) back to Python values."""
    if obj.get("class_name") in ("__tuple__", "TensorShape") and "items" in obj:
        return tuple(obj["items"])
    return Ellipsis if obj == {"class_name": "__ellipsis__"} else obj


def _checkpoint_keys(reader: Any) -> Dict[str, str]:
    """Variable name -> checkpoint key: the object graph's `full_name`s when the
    checkpoint is object-based (tf-keras), else the keys themselves (name-based)."""
    from tf1compat.serialization.protos import checkpoint_pb2
    keys = reader.get_variable_to_shape_map()
    if "_CHECKPOINTABLE_OBJECT_GRAPH" not in keys:
        return {key: key for key in keys}
    graph = checkpoint_pb2.TrackableObjectGraph()
    graph.ParseFromString(reader.get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH"))
    # (tf1compat's directories also keep variables no layer tracks under their names)
    names = {key: key for key in keys
             if key != "_CHECKPOINTABLE_OBJECT_GRAPH" and "/.ATTRIBUTES/" not in key}
    names.update({attr.full_name: attr.checkpoint_key for node in graph.nodes
                  for attr in node.attributes if attr.full_name})
    return names


def _saved_name(layer: Any, weight: Any) -> str:
    """The name `weight` had when saved: the rebuilt layer's name then the weight's own
    path (a rebuilt graph may have uniquified the layer's scope)."""
    name = weight.name.split(":")[0]
    return layer.name + "/" + name.split("/", 1)[1] if "/" in name else name


def _scoping_layers(model: Any) -> List[Any]:
    """The layers whose name scopes hold weights: the model's layers, those of nested
    models in place of the models."""
    out = []
    for layer in model.layers:
        out += _scoping_layers(layer) if hasattr(layer, "layers") else [layer]
    return out


def _restore(model: Any, reader: Any, names: Dict[str, str], filepath: str) -> None:
    """Loads the model's weights."""
    from tf1compat.keras import backend
    pairs = []
    missing = []
    for layer in _scoping_layers(model):
        for weight in layer.weights:
            saved = _saved_name(layer, weight)
            if saved not in names:
                saved = weight.name.split(":")[0]
            if saved not in names:
                missing.append(weight.name)
                continue
            pairs.append((weight, reader.get_tensor(names[saved])))
    if missing:
        raise ValueError(f"The SavedModel at {filepath} has no values for the weights "
                         f"{missing}")
    backend.batch_set_value(pairs)


def _revive_subclassed(root: Dict[str, Any], config: Dict[str, Any],
                       custom_objects: Dict[str, Any], filepath: str) -> Any:
    """A subclassed model from its class (in `custom_objects`) and config, built with the
    saved input shape, its weights restored through the checkpoint's object graph."""
    from tf1compat.keras.utils.serialization import get_registered_object
    class_name = config["class_name"]
    model_class = get_registered_object(class_name, custom_objects)
    if model_class is None:
        # As tf-keras: revived from its traced functions (saved_model_revive.py).
        from tf1compat.keras.saving.saved_model_revive import revive_from_traced_functions
        return revive_from_traced_functions(root, config, filepath)
    model = model_class.from_config(config["config"])
    shape = root.get("build_input_shape")
    spec = root.get("save_spec")
    if shape is None and isinstance(spec, dict) and spec.get("serialized"):
        shape = spec["serialized"][0]     # tf-keras: (shape, dtype, name) of the input
    if shape is None:
        raise ValueError(f"The SavedModel at {filepath} does not record the input shape of "
                         f"the subclassed model {class_name}")
    from tf1compat.framework.context import executing_eagerly
    if executing_eagerly():
        # (eager: one call on zeros creates the weights; Model.build needs a graph)
        import numpy as np
        model(np.zeros([1 if d is None else d for d in shape], np.float32))
    else:
        model.build(tuple(shape))
    model.load_weights(os.path.join(filepath, _VARIABLES))
    return model


def load_model_from_saved_model(filepath: str, custom_objects: Optional[Dict[str, Any]] = None,
                                compile: bool = True) -> Any:
    """The Keras model a SavedModel directory holds (config, weights, compiled with the
    saved training config and optimizer state when `compile`)."""
    from tf1compat.keras.utils.serialization import get_custom_objects
    from tf1compat.training.saving.checkpoint_utils import load_checkpoint
    custom_objects = {**(custom_objects or {}), **get_custom_objects()}
    root = _read_root_metadata(filepath)
    config = root.get("model_config")
    if config is None and root.get("config") is not None:
        config = {"class_name": root["class_name"], "config": root["config"]}
    if config is None:
        raise NotImplementedError(
            f"The Keras SavedModel at {filepath} has no model config (a subclassed model): "
            "tf1compat rebuilds Keras models from their config only")
    if root.get("is_graph_network") is False and config["class_name"] != "Sequential":
        model = _revive_subclassed(root, config, custom_objects, filepath)
    else:
        model = model_from_config(config, custom_objects=custom_objects)
        reader = load_checkpoint(os.path.join(filepath, _VARIABLES))
        names = _checkpoint_keys(reader)
        _restore(model, reader, names, filepath)
    training_config = root.get("training_config")
    if compile and training_config is not None:
        # As tf-keras's loader: the optimizer's saved state is not restored (it starts
        # fresh; its values stay readable with tf.train.load_checkpoint).
        model.compile(**compile_args_from_training_config(training_config, custom_objects),
                      from_serialized=True)
        try_build_compiled_arguments(model)
    elif compile:
        logging.warning("No training configuration found in save file, so the model was "
                        "*not* compiled. Compile it manually.")
    return model
