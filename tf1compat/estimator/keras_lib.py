"""`tf.keras.estimator.model_to_estimator`: a compiled Keras model as a `tf.estimator`
Estimator.

The Estimator's model_fn clones the Keras model onto the input_fn's features in each
mode's graph (`clone_model(input_tensors=...)`, layer names and so variable names kept),
compiles the clone with the model's loss, metrics and a fresh optimizer from its config
whose `iterations` is the global step, with the labels as target tensors. TRAIN uses the
Keras training function's update op as train_op, EVAL the Keras loss and compiled metric
objects as eval_metric_ops, PREDICT (and the default serving signature) the outputs keyed
by the model's output names. Before the Estimator exists, the model's current weights are
written to `<model_dir>/keras/keras_model.ckpt` and the Estimator warm-starts from there,
as TF does: with `checkpoint_format='saver'` (compat.v1's default) a name-based
checkpoint; with 'checkpoint' an object-based one (`model.save_weights`), and the
Estimator's own checkpoints then use the model's object-based keys too.
"""

from __future__ import annotations

import collections.abc
import os
from typing import Any, Dict, List, Optional

from tf1compat.estimator import estimator as estimator_lib
from tf1compat.estimator.export.export_output import PredictOutput
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.model_fn import EstimatorSpec
from tf1compat.framework import dtypes
from tf1compat.framework.constant_op import constant
from tf1compat.framework import random_seed
from tf1compat.framework.graph import Graph
from tf1compat.framework.sparse_tensor import convert_to_tensor_or_sparse_tensor
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend_core as backend
from tf1compat.keras import optimizers as keras_optimizers
from tf1compat.keras.engine.sequential import Sequential
from tf1compat.keras.models import clone_model
from tf1compat.keras.saving.save import load_model
from tf1compat.keras.utils.serialization import CustomObjectScope
from tf1compat.ops.control_flow_ops import no_op
from tf1compat.runtime.session import Session
from tf1compat.serialization.object_graph import OBJECT_GRAPH_KEY, serialize_object_graph
from tf1compat.training import training_util
from tf1compat.training.saving.checkpoint_state import latest_checkpoint
from tf1compat.training.saving import object_checkpoint
from tf1compat.training.saving.saveable import SaveableObject, SaveSpec
from tf1compat.training.saving.saver import Saver
from tf1compat.training.sessions.monitored_session import Scaffold
from tf1compat.util import gfile, tf_logging

__all__ = ["model_to_estimator", "FormattedKeyError"]

_DEFAULT_SERVING_KEY = "serving_default"


class FormattedKeyError(KeyError):
    """A KeyError whose message prints as written (TF's class of the same name)."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message

    def __str__(self) -> str:
        return self.message


def _convert_tensor(x: Any) -> Any:
    return x if isinstance(x, Tensor) else convert_to_tensor_or_sparse_tensor(x)


def _ordered_tensors(obj: Any, key_order: Optional[List[str]], obj_name: str,
                     order_name: str) -> Optional[List[Any]]:
    """Features or labels as a list in the model's input/output order."""
    if obj is None:
        return None
    if isinstance(obj, (list, tuple)):
        return [_convert_tensor(x) for x in obj]
    if isinstance(obj, dict):
        missed = set(key_order) - set(obj)
        if missed:
            raise FormattedKeyError(
                f"The dictionary passed into {obj_name} does not cover requested "
                f"{order_name} keys defined in the keras model.\n\tExpected keys: "
                f"{set(key_order)}\n\t{obj_name} keys: {set(obj)}\n\tMissed keys: {missed}")
        return [_convert_tensor(obj[key]) for key in key_order]
    return [_convert_tensor(obj)]


def _standardize_sample_weights(weights: Any, output_names: List[str]) -> List[Any]:
    if weights is None or (isinstance(weights, (list, tuple)) and not weights):
        return [None for _ in output_names]
    if len(output_names) == 1:
        if isinstance(weights, (list, tuple)) and len(weights) == 1:
            return list(weights)
        if isinstance(weights, dict) and output_names[0] in weights:
            return [weights[output_names[0]]]
        return [weights]
    if isinstance(weights, (list, tuple)):
        if len(weights) != len(output_names):
            raise ValueError(f"Provided `sample_weights` was a list of {len(weights)} "
                             f"elements, but the model has {len(output_names)} outputs. You "
                             "should provide one `sample_weights`array per model output.")
        return list(weights)
    if isinstance(weights, collections.abc.Mapping):
        unknown = set(weights).difference(output_names)
        if unknown:
            raise ValueError(f"Unknown entries in sample_weights dictionary: {list(unknown)}. "
                             f"Only expected following keys: {output_names}")
        return [weights.get(name) for name in output_names]
    raise TypeError("The model has multiple outputs, so `sample_weights` should be either a "
                    "list or a dict. Provided `sample_weights` type not understood: "
                    f"{weights}")


def _estimator_io_to_keras(model: Any, features: Any, labels: Any) -> tuple:
    sample_weights = None
    if isinstance(features, dict) and set(features) == {"features", "sample_weights"}:
        features, sample_weights = features["features"], features["sample_weights"]
    input_names = model.input_names if isinstance(features, dict) else None
    output_names = model.output_names if isinstance(labels, dict) else None
    inputs = _ordered_tensors(features, input_names, "features", "inputs")
    targets = _ordered_tensors(labels, output_names, "labels", "outputs")
    return inputs, targets, sample_weights


def _compiled_optimizer(model: Any, optimizer_config: Any, iterations: Any) -> Any:
    """A fresh optimizer like the model's (from its config) counting `iterations`."""
    original = model.optimizer
    if isinstance(original, keras_optimizers.TFOptimizer):
        # Tracked in the clone's graph, so that Keras' session initializes its slots (an
        # untrained model's first checkpoint saves them).
        wrapper = keras_optimizers.TFOptimizer(original.optimizer, iterations)
        backend.track_tf_optimizer(wrapper)
        return wrapper
    config = optimizer_config if optimizer_config is not None else original.get_config()
    optimizer = type(original).from_config(config)
    if iterations is not None:
        optimizer.iterations = iterations
    return optimizer


def _clone_and_build_model(mode: str, keras_model: Any, custom_objects: Any,
                           features: Any = None, labels: Any = None,
                           optimizer_config: Any = None) -> Any:
    """The Keras model rebuilt on `features` in the current graph, compiled (with
    `labels` as targets and the global step as iterations) unless predicting."""
    backend.set_learning_phase(mode == ModeKeys.TRAIN)
    inputs, targets, sample_weights = _estimator_io_to_keras(keras_model, features, labels)
    with CustomObjectScope(custom_objects or {}):
        clone = clone_model(keras_model, input_tensors=inputs)
    if mode != ModeKeys.PREDICT:
        global_step = training_util.get_or_create_global_step()
        backend.track_variable(global_step)
        clone.compile(optimizer=_compiled_optimizer(keras_model, optimizer_config,
                                                    global_step),
                      loss=keras_model.loss, metrics=keras_model._compile_metrics,
                      loss_weights=keras_model.loss_weights,
                      sample_weight_mode=keras_model.sample_weight_mode,
                      weighted_metrics=keras_model._compile_weighted_metrics,
                      target_tensors=targets)
        if sample_weights is not None:
            clone._compile_weights_loss_and_weighted_metrics(
                _standardize_sample_weights(sample_weights, clone.output_names))
    return clone


def _keras_metrics(model: Any, metric_names_map: Optional[Dict[str, str]]) -> Any:
    """The compiled Keras metric objects keyed by name (renamed by metric_names_map)."""
    if not getattr(model, "_compile_metrics", None):
        return None
    metrics = model._compile_metric_functions
    if not metric_names_map:
        return {m.name: m for m in metrics}
    expected = {m.name for m in metrics}
    unknown = expected.difference(metric_names_map)
    if unknown:
        raise ValueError("Invalid `metric_names_map`. The following keras model metric "
                         f'names:"{list(unknown)}" do not exist in the `metric_names_map` '
                         "dictionary")
    extra = set(metric_names_map).difference(expected)
    if extra:
        raise ValueError("Invalid `metric_names_map`. There are unexpected keys in the "
                         f"`metric_names_map` dictionary. Expected keys: {list(expected)}, "
                         f"Received: {list(extra)}")
    return {metric_names_map[m.name]: m for m in metrics}


class _ObjectGraphSaveable(SaveableObject):
    """The serialized object graph, saved under TF's `_CHECKPOINTABLE_OBJECT_GRAPH` key
    beside the values; restoring it does nothing."""

    def __init__(self, serialized: bytes):
        tensor = constant(serialized, dtype=dtypes.string)
        super().__init__(tensor, [SaveSpec(tensor, "", OBJECT_GRAPH_KEY)], OBJECT_GRAPH_KEY)

    def restore(self, restored_tensors: Any, restored_shapes: Any) -> Any:
        return no_op()


def _object_based_scaffold(model: Any) -> Scaffold:
    """A Scaffold whose Saver writes and reads the model's object-based keys
    (`layer_with_weights-0/kernel/.ATTRIBUTES/VARIABLE_VALUE`, ...) with the global step
    tracked as `estimator_global_step`, as TF's `checkpoint_format='checkpoint'`."""
    model._track_trackable(training_util.get_global_step(), "estimator_global_step",
                           overwrite=True)
    gathered = object_checkpoint.gather_object_graph(model)
    var_list: Dict[str, Any] = dict(gathered.values)
    var_list[OBJECT_GRAPH_KEY] = _ObjectGraphSaveable(
        serialize_object_graph(gathered.proto_structure()))
    return Scaffold(saver=Saver(var_list=var_list, sharded=True))


def _create_keras_model_fn(keras_model: Any, custom_objects: Any,
                           metric_names_map: Optional[Dict[str, str]],
                           export_outputs: Optional[Dict[str, Any]],
                           save_object_ckpt: bool = False) -> Any:
    try:
        optimizer_config = keras_model.optimizer.get_config()
    except (NotImplementedError, AttributeError):
        optimizer_config = None

    def model_fn(features: Any, labels: Any, mode: str) -> EstimatorSpec:
        model = _clone_and_build_model(mode, keras_model, custom_objects, features, labels,
                                       optimizer_config)
        predictions = dict(zip(model.output_names, model.outputs))
        loss = train_op = eval_metric_ops = None
        if mode != ModeKeys.PREDICT:
            if mode == ModeKeys.TRAIN:
                model._make_train_function()
            else:
                model._make_test_function()
            loss = model.total_loss
            eval_metric_ops = _keras_metrics(model, metric_names_map)
        if mode == ModeKeys.TRAIN:
            train_op = model.train_function.updates_op
        scaffold = _object_based_scaffold(model) if save_object_ckpt else None
        outputs = {_DEFAULT_SERVING_KEY: PredictOutput(predictions)}
        if export_outputs is not None:
            missed = set(export_outputs) - set(model.output_names)
            if missed:
                raise FormattedKeyError(
                    f"The list passed into {model.output_names} does not cover requested "
                    f"{export_outputs} keys defined in the keras model.\n\tExpected keys: "
                    f"{set(export_outputs)}\n\t{model.output_names} keys: "
                    f"{set(model.output_names)}\n\tMissed keys: {missed}")
            for key, output_cls in export_outputs.items():
                outputs[key] = output_cls(predictions[key])
        return EstimatorSpec(mode=mode, predictions=predictions, loss=loss,
                             train_op=train_op, eval_metric_ops=eval_metric_ops,
                             export_outputs=outputs, scaffold=scaffold)
    return model_fn


def _any_weight_initialized(keras_model: Any) -> bool:
    return any(getattr(w, "_keras_initialized", False)
               for layer in keras_model.layers for w in layer.weights)


def _save_first_checkpoint(keras_model: Any, custom_objects: Any, config: Any,
                           save_object_ckpt: bool) -> str:
    """Writes the Keras model's current weights (or fresh ones) as the checkpoint the
    Estimator warm-starts from, unless `<model_dir>/keras` already has one."""
    keras_model_dir = os.path.join(config.model_dir, "keras")
    latest_path = latest_checkpoint(keras_model_dir)
    if latest_path:
        return latest_path
    weights = keras_model.get_weights() if _any_weight_initialized(keras_model) else None
    if not gfile.IsDirectory(keras_model_dir):
        gfile.MakeDirs(keras_model_dir)
    with Graph().as_default():
        random_seed.set_random_seed(config.tf_random_seed)
        training_util.create_global_step()
        model = _clone_and_build_model(ModeKeys.TRAIN, keras_model, custom_objects)
        model._make_train_function()
        with Session(config=config.session_config) as sess:
            if weights:
                model.set_weights(weights)
            backend._initialize_variables(sess)
            latest_path = os.path.join(keras_model_dir, "keras_model.ckpt")
            if save_object_ckpt:
                model._track_trackable(training_util.get_global_step(),
                                       "estimator_global_step")
                model.save_weights(latest_path)
            else:
                Saver().save(sess, latest_path)
    return latest_path


def model_to_estimator(keras_model: Any = None, keras_model_path: Optional[str] = None,
                       custom_objects: Optional[Dict[str, Any]] = None,
                       model_dir: Optional[str] = None, config: Any = None,
                       checkpoint_format: str = "saver",
                       metric_names_map: Optional[Dict[str, str]] = None,
                       export_outputs: Optional[Dict[str, Any]] = None) -> Any:
    """An Estimator that trains, evaluates, predicts and exports with the graph of the
    compiled Keras model `keras_model` (or the model file at `keras_model_path`),
    starting from the model's current weights."""
    if not (keras_model or keras_model_path):
        raise ValueError("Either `keras_model` or `keras_model_path` needs to be provided.")
    if keras_model and keras_model_path:
        raise ValueError("Please specity either `keras_model` or `keras_model_path`, but not "
                         "both.")
    if keras_model and not keras_model._is_graph_network and \
            not isinstance(keras_model, Sequential):
        raise NotImplementedError("model_to_estimator with a subclassed Keras model is not "
                                  "supported by tf1compat (use a functional or Sequential "
                                  "model)")
    config = estimator_lib._config_with_model_dir_and_session(config, model_dir)
    if not keras_model:
        if keras_model_path.startswith("gs://") or \
                "storage.googleapis.com" in keras_model_path:
            raise NotImplementedError("model_to_estimator from Google Cloud Storage is not "
                                      "supported by tf1compat (copy the file locally)")
        tf_logging.info("Loading models from %s", keras_model_path)
        keras_model = load_model(keras_model_path)
    else:
        tf_logging.info("Using the Keras model provided.")
    if checkpoint_format not in ("saver", "checkpoint"):
        raise ValueError('Checkpoint format must be one of "checkpoint" or "saver". Got '
                         f"{checkpoint_format}")
    if not getattr(keras_model, "optimizer", None):
        raise ValueError("The given keras model has not been compiled yet. Please compile "
                         "the model with `model.compile()` before calling "
                         "`model_to_estimator()`.")
    save_object_ckpt = checkpoint_format == "checkpoint"
    model_fn = _create_keras_model_fn(keras_model, custom_objects, metric_names_map,
                                      export_outputs, save_object_ckpt)
    if not _any_weight_initialized(keras_model):
        backend.set_session(Session(config=config.session_config))
    warm_start_path = None
    if config.is_chief:
        warm_start_path = _save_first_checkpoint(keras_model, custom_objects, config,
                                                 save_object_ckpt)
    return estimator_lib.Estimator(model_fn, config=config,
                                   warm_start_from=warm_start_path)
