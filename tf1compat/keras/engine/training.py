"""`tf.keras.Model`: functional models (`Model(inputs, outputs)`) and subclassed models,
callable on graph tensors in TF1 graph mode.

A functional model maps its graph of layer calls (`Node`s reachable from the outputs back
to the `tf.keras.Input` tensors) once at construction, with TF's ordering (layers by
decreasing depth, then discovery order), and replays it when called on new tensors
inside the model's name scope (`model/dense/MatMul`). Raw TF ops applied to Keras
tensors between layers become `TensorFlowOpLayer`s (`tf_op_layer_mul`) that re-create
the op on replay. Checkpoint dependencies are TF's: `layer-<i>` for every layer and
`layer_with_weights-<k>` for those with weights.

Training (`compile`, `fit`, `evaluate`, `predict`, ...) is the TrainingV1 mixin
(training_v1.py; under eager execution training_eager.py).
"""

from __future__ import annotations

import collections
import types
from typing import Any, Dict, List, Optional, Sequence

from tf1compat.util import nest
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.base_layer import Layer, default
from tf1compat.keras.engine.input_layer import InputLayer
from tf1compat.keras.engine.op_layer import TensorFlowOpLayer, create_keras_history
from tf1compat.keras.engine.training_v1 import TRAINING_ATTRIBUTES, TrainingV1

__all__ = ["Model", "TensorFlowOpLayer"]


class Model(TrainingV1, Layer):
    """`tf.keras.Model`: `Model(inputs, outputs, name=None)` or a subclass with `call`."""

    _no_tracking = Layer._no_tracking | TRAINING_ATTRIBUTES | frozenset({
        "inputs", "outputs", "input_names", "output_names", "_is_graph_network",
        "_tensor_usage_count", "_enforce_input_layer", "_saved_input_shapes"})

    def __init__(self, *args: Any, **kwargs: Any):
        functional = (len(args) == 2 or (len(args) == 1 and "outputs" in kwargs) or
                      ("inputs" in kwargs and "outputs" in kwargs))
        self._is_graph_network = False
        self.inputs: List[Any] = []
        self.outputs: List[Any] = []
        if functional:
            inputs = args[0] if args else kwargs.pop("inputs")
            outputs = args[1] if len(args) > 1 else kwargs.pop("outputs")
            name = kwargs.pop("name", None)
            trainable = kwargs.pop("trainable", True)
            if kwargs:
                raise TypeError(f"Keyword argument not understood: {list(kwargs)}")
            super().__init__(name=name, trainable=trainable)
            self._init_graph_network(inputs, outputs)
        else:
            if args:
                raise TypeError("Model() takes either (inputs, outputs) or keyword arguments")
            for key in kwargs:
                if key not in ("trainable", "dtype", "dynamic", "name", "autocast",
                               "inputs", "outputs"):
                    raise TypeError("Keyword argument not understood:", key)
            super().__init__(name=kwargs.get("name"), trainable=kwargs.get("trainable", True),
                             dtype=kwargs.get("dtype"), dynamic=kwargs.get("dynamic", False))

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        # A subclassed model remembers what it was first called on (batch dimension
        # unknown), as tf-keras's save spec: saving it as a SavedModel rebuilds it so.
        if not self._is_graph_network and args and \
                getattr(self, "_saved_input_shapes", None) is None:
            shapes = [TensorShape(getattr(t, "shape", None)) for t in nest.flatten(args[0])]
            if shapes and all(s.dims for s in shapes):
                self._saved_input_shapes = [[None] + s.as_list()[1:] for s in shapes]
        return super().__call__(*args, **kwargs)

    # -- functional graph ----------------------------------------------------------------------
    def _init_graph_network(self, inputs: Any, outputs: Any) -> None:
        if isinstance(inputs, list) and len(nest.flatten(inputs)) == 1:
            inputs = inputs[0]
        self._nested_inputs = inputs
        if isinstance(outputs, list) and len(nest.flatten(outputs)) == 1:
            outputs = outputs[0]    # (tf-keras: a list of one output calls as that output)
        self._nested_outputs = outputs
        self.inputs = nest.flatten(inputs)
        self.outputs = nest.flatten(outputs)
        for x in self.inputs:
            history = node_module.keras_history(x)
            if history is None or not isinstance(history.layer, InputLayer):
                raise ValueError(f"Input tensors to a Model must come from `tf.keras.Input`. "
                                 f"Received: {x} (missing previous layer metadata).")
        create_keras_history(self.outputs)
        for x in self.outputs:
            if node_module.keras_history(x) is None:
                raise ValueError("Output tensors of a Functional model must be the output of "
                                 f"a TensorFlow `Layer` (thus holding past layer metadata). "
                                 f"Found: {x}")
        self._is_graph_network = True
        self.built = True
        self._input_layers = [node_module.keras_history(x).layer for x in self.inputs]
        self._output_layers = [node_module.keras_history(x).layer for x in self.outputs]
        nodes, nodes_by_depth, layers, layers_by_depth = _map_graph_network(self.inputs,
                                                                           self.outputs)
        self._network_nodes = nodes
        self._nodes_by_depth = nodes_by_depth
        self._layers_by_depth = layers_by_depth
        self._self_tracked_trackables = list(layers)
        self.input_names = [layer.name for layer in self._input_layers]
        self.output_names = [layer.name for layer in self._output_layers]
        self._compute_tensor_usage_count()
        self._track_layer_dependencies()

    def _compute_tensor_usage_count(self) -> None:
        usage: Dict[int, int] = collections.Counter()
        for depth_nodes in self._nodes_by_depth.values():
            for node in depth_nodes:
                for t in node.keras_inputs:
                    usage[id(t)] += 1
        for t in self.outputs:
            usage[id(t)] += 1
        self._tensor_usage_count = usage

    def _track_layer_dependencies(self) -> None:
        """TF's checkpoint edges of a layer list: `layer-<i>`, `layer_with_weights-<k>`."""
        weighted = 0
        for i, layer in enumerate(self.layers):
            if layer.weights:
                self._track_trackable(layer, f"layer_with_weights-{weighted}", overwrite=True)
                weighted += 1
            self._track_trackable(layer, f"layer-{i}", overwrite=True)

    @property
    def layers(self) -> List[Layer]:
        return list(self._flatten_layers(include_self=False, recursive=False))

    # -- weights (TF's Model order: each sub-layer's variables, then the model's own) ----------
    def _assert_weights_created(self) -> None:
        if self.dynamic:
            return
        if "build" in type(self).__dict__ and type(self) is not Model and not self.built:
            raise ValueError(f"Weights for model '{self.name}' have not yet been created. "
                             "Weights are created when the model is first called on inputs or "
                             "`build()` is called with an `input_shape`.")

    @property
    def weights(self) -> List[Any]:
        self._assert_weights_created()
        weights: List[Any] = []
        for layer in self._self_tracked_trackables:
            weights += layer.variables
        weights += self._trainable_weights + self._non_trainable_weights
        return self._dedup_weights(weights)

    @property
    def trainable_weights(self) -> List[Any]:
        self._assert_weights_created()
        return super().trainable_weights

    @property
    def non_trainable_weights(self) -> List[Any]:
        self._assert_weights_created()
        return super().non_trainable_weights

    def get_layer(self, name: Optional[str] = None, index: Optional[int] = None) -> Layer:
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model only "
                                 f"has {len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: "
                             f"{list(layer.name for layer in self.layers)}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        if not self._is_graph_network:
            raise NotImplementedError("Unimplemented `tf.keras.Model.call()`: if you intend to "
                                      "create a `Model` with the Functional API, please provide "
                                      "`inputs` and `outputs` arguments. Otherwise, subclass "
                                      "`Model` with an overridden `call()` method.")
        return self._run_internal_graph(inputs)

    def _run_internal_graph(self, inputs: Any) -> Any:
        flat = nest.flatten(inputs)
        if len(flat) != len(self.inputs):
            raise ValueError(f'Layer "{self.name}" expects {len(self.inputs)} input(s), but it '
                             f"received {len(flat)} input tensors. Inputs received: {flat}")
        values: Dict[int, Any] = {}
        for ref, value in zip(self.inputs, flat):
            values[id(ref)] = _conform_to_reference_input(value, ref)
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input:
                    continue
                if any(id(t) not in values for t in node.keras_inputs):
                    continue
                args, kwargs = node.map_arguments(values)
                outputs = node.layer(*args, **kwargs)
                for ref, value in zip(nest.flatten(node.outputs), nest.flatten(outputs)):
                    values[id(ref)] = value
        out = [values[id(t)] for t in self.outputs]
        return nest.pack_sequence_as(self._nested_outputs, out)

    def compute_output_shape(self, input_shape: Any) -> Any:
        if not self._is_graph_network:
            return super().compute_output_shape(input_shape)
        shapes = [t.shape for t in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    # -- subclassed models ---------------------------------------------------------------------
    @default
    def build(self, input_shape: Any) -> None:
        """Builds a subclassed model by calling it on placeholders of `input_shape`."""
        if self._is_graph_network:
            super().build(input_shape)
            return
        if input_shape is None:
            raise ValueError("Input shape must be defined when calling `build()` on a "
                             "`Model` subclass.")
        if type(self).call is Model.call:
            super().build(input_shape)
            return

        def to_placeholder(shape: Any) -> Tensor:
            return backend.placeholder(shape=tuple(getattr(shape, "as_list", lambda: shape)()),
                                       dtype=backend.floatx())
        if isinstance(input_shape, list) and all(d is None or isinstance(d, int)
                                                 for d in input_shape):
            input_shape = tuple(input_shape)
        if isinstance(input_shape, list):
            x = [to_placeholder(s) for s in input_shape]
        elif isinstance(input_shape, dict):
            x = {k: to_placeholder(s) for k, s in input_shape.items()}
        else:
            x = to_placeholder(input_shape)
        kwargs = {"training": False} if self._expects_training_arg else {}
        self.call(x, **kwargs)
        super().build(input_shape)

    def save(self, filepath: Any, overwrite: bool = True, include_optimizer: bool = True,
             save_format: Optional[str] = None, signatures: Any = None, options: Any = None,
             save_traces: bool = True) -> None:
        """Saves config, weights and optimizer state in an HDF5 file (TF1 Keras's
        default format), or with `save_format="tf"` as a SavedModel directory."""
        from tf1compat.keras.saving.save import save_model
        save_model(self, filepath, overwrite, include_optimizer, save_format, signatures,
                   options, save_traces)

    def save_weights(self, filepath: Any, overwrite: bool = True,
                     save_format: Optional[str] = None) -> None:
        """Writes the weights in HDF5 (`.h5` paths or save_format="h5") or as the model's
        object graph in TF's checkpoint format, recorded in the directory's `checkpoint`
        file."""
        from tf1compat.keras.engine.weights_io import save_weights
        save_weights(self, filepath, overwrite, save_format)

    def load_weights(self, filepath: Any, by_name: bool = False,
                     skip_mismatch: bool = False) -> Any:
        """Restores weights from an HDF5 file (by topology or `by_name`) or a TF-format
        checkpoint (values of weights not built yet are restored when they are created)."""
        from tf1compat.keras.engine.weights_io import load_weights
        return load_weights(self, filepath, by_name, skip_mismatch)

    def summary(self, line_length: Optional[int] = None, positions: Any = None,
                print_fn: Any = None) -> None:
        """Prints one row per layer: name (type), output shape, parameter count."""
        if not self.built:
            raise ValueError("This model has not yet been built. Build the model first by "
                             "calling `build()` or by calling the model on a batch of data.")
        from tf1compat.keras.engine.summary import print_summary
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn)

    @property
    def input_shape(self) -> Any:
        if self._is_graph_network and not self._inbound_nodes:
            return _shapes_of(self.inputs)
        return Layer.input_shape.fget(self)  # type: ignore[attr-defined]

    @property
    def input(self) -> Any:
        if self._is_graph_network and not self._inbound_nodes:
            return self.inputs[0] if len(self.inputs) == 1 else list(self.inputs)
        return Layer.input.fget(self)  # type: ignore[attr-defined]

    @property
    def output(self) -> Any:
        if self._is_graph_network and not self._inbound_nodes:
            return self.outputs[0] if len(self.outputs) == 1 else list(self.outputs)
        return Layer.output.fget(self)  # type: ignore[attr-defined]

    @property
    def output_shape(self) -> Any:
        if self._is_graph_network and not self._inbound_nodes:
            return _shapes_of(self.outputs)
        return Layer.output_shape.fget(self)  # type: ignore[attr-defined]

    def to_json(self, **kwargs: Any) -> str:
        """The model's config as JSON (`{"class_name", "config", "keras_version",
        "backend"}`); `kwargs` go to `json.dumps`."""
        from tf1compat.keras.saving.model_config import model_to_json
        return model_to_json(self, **kwargs)

    def to_yaml(self, **kwargs: Any) -> str:
        raise RuntimeError("Method `model.to_yaml()` has been removed due to security risk "
                           "of arbitrary code execution. Please use `model.to_json()` "
                           "instead.")

    def get_config(self) -> dict:
        """A functional model's layers, their connections, inputs and outputs."""
        if not self._is_graph_network:
            raise NotImplementedError("get_config() of a subclassed Model is not implemented "
                                      "(override get_config to save it)")
        from tf1compat.keras.engine.functional_config import get_network_config
        from tf1compat.keras.layers.serialization import serialize
        return get_network_config(self, serialize)

    @classmethod
    def from_config(cls, config: dict, custom_objects: Any = None) -> "Model":
        """The functional model a `get_config()` dict describes (new layers, same
        connections); a subclass whose config is not a functional one (or whose
        `__init__` is its own) is constructed as `cls(**config)`, as tf-keras does."""
        import inspect
        from tf1compat.keras.engine.functional_config import reconstruct_from_config
        from tf1compat.keras.engine.functional_insert import connect_ancillary_layers
        from tf1compat.keras.layers.serialization import deserialize
        functional = all(key in config for key in ("name", "layers", "input_layers",
                                                   "output_layers"))
        spec = inspect.getfullargspec(cls.__init__)
        revivable = (cls is Model or spec.args[1:] == ["inputs", "outputs", "name"]
                     or (spec.varargs == "args" and spec.varkw == "kwargs"))
        if functional and revivable:
            inputs, outputs, created = reconstruct_from_config(config, deserialize,
                                                               custom_objects)
            model = cls(inputs=inputs, outputs=outputs, name=config.get("name"))
            return connect_ancillary_layers(model, created)
        try:
            return cls(**config)
        except TypeError as e:
            raise TypeError(
                "Unable to revive model from config. When overriding the `get_config()` "
                "method, make sure that the returned config contains all items used as "
                f"arguments in the  constructor to {cls}, which is the default behavior. "
                "You can override this default behavior by defining a `from_config(cls, "
                f"config)` class method to specify how to create an instance of "
                f"{cls.__name__} from its config.\n\nReceived config={config}\n\nError "
                f"encountered during deserialization: {e}") from None

    def reset_states(self) -> None:
        """Resets the recorded states of every stateful layer (recurrent layers)."""
        for layer in self.layers:
            if hasattr(layer, "reset_states") and getattr(layer, "stateful", False):
                layer.reset_states()

    @property
    def state_updates(self) -> List[Any]:
        return [u for layer in self.layers if getattr(layer, "stateful", False)
                for u in layer.updates]

    @property
    def input_spec(self) -> Any:
        """A set spec; else, for a graph network, one spec per `Input` (its shape with the
        batch dimension free, named after it, a trailing 1 optional), as tf-keras's
        Functional: calling the model checks its inputs against them."""
        if self._input_spec is not None or not self._is_graph_network:
            return self._input_spec
        from tf1compat.keras.engine.input_spec import InputSpec
        nested = self._nested_inputs
        if isinstance(nested, (dict, list, tuple)) and len(nested) != len(self.inputs):
            return None     # a nested structure: tf-keras checks nothing either

        def spec(x: Any, name: str) -> InputSpec:
            shape = None if x.shape.rank is None else x.shape.as_list()
            if shape:
                shape[0] = None
            return InputSpec(shape=shape, allow_last_axis_squeeze=True, name=name)
        if isinstance(nested, dict):
            return [spec(nested[name], name) for name in sorted(nested)]
        return [spec(x, node_module.keras_history(x).layer.name) for x in self.inputs]

    @input_spec.setter
    def input_spec(self, value: Any) -> None:
        self._input_spec = value


# tf-keras defines the training methods on `Model` itself, so Python's argument errors read
# "Model.fit_generator() got an unexpected keyword argument ..."; name the mixin's so too.
for _mixin in (TrainingV1,) + TrainingV1.__bases__:
    for _name, _method in vars(_mixin).items():
        if isinstance(_method, types.FunctionType):
            _method.__qualname__ = f"Model.{_name}"
del _mixin, _name, _method


def _conform_to_reference_input(tensor: Any, ref: Tensor) -> Any:
    """Squeezes/expands a trailing 1 and casts to the Input's dtype, as TF does."""
    from tf1compat.ops.array_ops import expand_dims, squeeze
    from tf1compat.ops.math_ops import cast
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    tensor = convert_to_tensor(tensor)
    t_rank, ref_rank = tensor.shape.rank, ref.shape.rank
    if t_rank is not None and ref_rank is not None:
        if t_rank == ref_rank + 1 and tensor.shape.as_list()[-1] == 1:
            tensor = squeeze(tensor, axis=-1)
        elif t_rank == ref_rank - 1 and ref.shape.as_list()[-1] == 1:
            tensor = expand_dims(tensor, axis=-1)
    if tensor.dtype.base_dtype != ref.dtype.base_dtype:
        tensor = cast(tensor, ref.dtype)
    return tensor


def _shapes_of(tensors: Sequence[Any]) -> Any:
    """A graph network's input/output shape(s) as tuples (one tuple for one tensor)."""
    shapes = [tuple(t.shape.as_list()) for t in tensors]
    return shapes[0] if len(shapes) == 1 else shapes


def _n(w: Any) -> int:
    n = 1
    for d in w.shape.as_list():
        n *= d
    return n


def _map_graph_network(inputs: Sequence[Tensor], outputs: Sequence[Tensor]) -> tuple:
    """TF's graph mapping: nodes and layers by depth, layers ordered for `model.layers`."""
    nodes_in_decreasing_depth: List[Any] = []
    layer_indices: Dict[int, int] = {}
    finished, in_progress = set(), set()
    layers_by_id: Dict[int, Layer] = {}

    def build_map(tensor: Tensor) -> None:
        layer, node_index, _ = node_module.keras_history(tensor)
        node = layer._inbound_nodes[node_index]
        if id(node) in finished:
            return
        if id(node) in in_progress:
            raise ValueError(f'Tensor {tensor} from layer "{layer.name}" is part of a cycle.')
        if id(layer) not in layer_indices:
            layer_indices[id(layer)] = len(layer_indices)
            layers_by_id[id(layer)] = layer
        in_progress.add(id(node))
        if not node.is_input:
            for t in node.keras_inputs:
                build_map(t)
        finished.add(id(node))
        in_progress.discard(id(node))
        nodes_in_decreasing_depth.append(node)

    for t in outputs:
        build_map(t)
    network_nodes = {(n.layer.name, n.layer._inbound_nodes.index(n))
                     for n in nodes_in_decreasing_depth}
    nodes_depths: Dict[int, int] = {}
    node_by_id: Dict[int, Any] = {}
    layers_depths: Dict[int, int] = {}
    for node in reversed(nodes_in_decreasing_depth):
        node_by_id[id(node)] = node
        depth = nodes_depths.setdefault(id(node), 0)
        depth = max(depth, layers_depths.get(id(node.layer), 0))
        layers_depths[id(node.layer)] = depth
        nodes_depths[id(node)] = depth
        for parent in node.parent_nodes:
            node_by_id[id(parent)] = parent
            nodes_depths[id(parent)] = max(depth + 1, nodes_depths.get(id(parent), 0))
    for t in inputs:
        layer = node_module.keras_history(t).layer
        if id(layer) not in layers_depths:
            layers_depths[id(layer)] = 0
            layer_indices[id(layer)] = -1
            layers_by_id[id(layer)] = layer
            node = layer._inbound_nodes[0]
            node_by_id[id(node)] = node
            nodes_depths[id(node)] = 0
            network_nodes.add((layer.name, 0))
    nodes_by_depth: Dict[int, List[Any]] = collections.defaultdict(list)
    for node_id, depth in nodes_depths.items():
        nodes_by_depth[depth].append(node_by_id[node_id])
    layers_by_depth: Dict[int, List[Layer]] = collections.defaultdict(list)
    for layer_id, depth in layers_depths.items():
        layers_by_depth[depth].append(layers_by_id[layer_id])
    layers: List[Layer] = []
    for depth in sorted(layers_by_depth, reverse=True):
        group = sorted(layers_by_depth[depth], key=lambda x: layer_indices[id(x)])
        layers.extend(group)
    computable = {id(x) for x in inputs}
    accessed: List[str] = []
    for depth in sorted(nodes_by_depth, reverse=True):
        for node in nodes_by_depth[depth]:
            if node.is_input:
                continue
            for x in node.keras_inputs:
                if id(x) not in computable:
                    raise ValueError(f'Graph disconnected: cannot obtain value for tensor {x} '
                                     f'at layer "{node.layer.name}". The following previous '
                                     f"layers were accessed without issue: {accessed}")
            for x in nest.flatten(node.outputs):
                computable.add(id(x))
            accessed.append(node.layer.name)
    names = [layer.name for layer in layers]
    for name in names:
        if names.count(name) != 1:
            raise ValueError(f'The name "{name}" is used {names.count(name)} times in the '
                             "model. All layer names should be unique.")
    return network_nodes, nodes_by_depth, layers, layers_by_depth

