"""`tf.keras.layers.Layer` as TF1 graph-mode Keras has it (TF's `base_layer_v1`).

A layer is called on graph tensors: the first call opens the layer's name scope (its
name, `dense`, `dense_1`, ... unique per graph), builds the layer from the input shapes
(`build` creates weights with `add_weight`), then runs `call`. Weights are resource
variables named under the name scope (`dense/kernel:0`), tracked for object-graph
checkpoints under their `add_weight` name (`self._track_trackable(variable, "kernel")`),
and remembered for `K.get_session()` initialization. Calls on Keras tensors (from
`tf.keras.Input` or other layers) record a `Node`, which the functional API replays.

Losses: weight regularizers are kept as callables and evaluated when `losses` is read
(each read builds fresh ops, as TF); `add_loss` tensors are kept as given; the activity
regularizer adds `regularizer(output) / batch_size` after each call. Updates
(`add_update`) are built at once and listed by `updates` for trainable (or stateful)
layers made in a graph; a layer made under eager execution runs them and lists none.
"""

from __future__ import annotations

import contextlib

import functools
import inspect
import re
import warnings
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

import numpy as np

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.misc import executing_eagerly_outside_functions
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.keras.backend_core import with_numpy_op_seed
from tf1compat.keras.engine import dtype_policy, layer_losses, masking
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.input_spec import InputSpec, assert_input_compatibility
from tf1compat.keras.engine.layer_connectivity import LayerConnectivity
from tf1compat.training.saving import tracking
from tf1compat.variables.variables import (Variable, VariableAggregation, init_scope,
                                           VariableSynchronization)

__all__ = ["Layer", "to_snake_case", "default", "is_default", "enable_v2_dtype_behavior",
           "disable_v2_dtype_behavior"]

# TF 2's layer dtype behaviour (dtype floatx from construction, floating inputs cast to
# it); off under TF1 behaviour, where a layer takes its dtype from its first input.
_V2_DTYPE_BEHAVIOR = False


def enable_v2_dtype_behavior() -> None:
    """`tf.keras.layers.enable_v2_dtype_behavior`: layers created afterwards default to
    floatx and cast floating inputs to their dtype."""
    global _V2_DTYPE_BEHAVIOR
    _V2_DTYPE_BEHAVIOR = True


def disable_v2_dtype_behavior() -> None:
    """`tf.keras.layers.disable_v2_dtype_behavior`: back to TF1's inferred layer dtypes."""
    global _V2_DTYPE_BEHAVIOR
    _V2_DTYPE_BEHAVIOR = False

_ALLOWED_KWARGS = frozenset({"input_dim", "input_shape", "batch_input_shape", "batch_size",
                             "weights", "activity_regularizer", "autocast", "implementation"})


def to_snake_case(name: str) -> str:
    """'BatchNormalization' -> 'batch_normalization' (Keras' default layer names)."""
    intermediate = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    insecure = re.sub("([a-z])([A-Z])", r"\1_\2", intermediate).lower()
    return insecure if insecure[0] != "_" else "private" + insecure


def default(method: Callable) -> Callable:
    """Marks a base-class method as the default (subclasses that override it are known)."""
    method._is_default = True
    return method


def is_default(method: Callable) -> bool:
    return getattr(method, "_is_default", False)


@functools.lru_cache(maxsize=None)
def _call_signature(cls: type) -> tuple:
    """(positional argument names of `call` after self, whether it takes **kwargs)."""
    try:
        sig = inspect.signature(cls.call)
    except (TypeError, ValueError):
        return (), True
    params = list(sig.parameters.values())[1:]
    names = tuple(p.name for p in params
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY))
    var_kw = any(p.kind == p.VAR_KEYWORD for p in params)
    return names, var_kw


def _make_variable(name: str, shape: Any = None, dtype: Any = D.float32,
                   initializer: Any = None, trainable: Any = None,
                   caching_device: Any = None, validate_shape: bool = True,
                   constraint: Any = None, use_resource: Any = None, collections: Any = None,
                   synchronization: Any = VariableSynchronization.AUTO,
                   aggregation: Any = VariableAggregation.NONE, partitioner: Any = None
                   ) -> Variable:
    """Keras' variable creator: `tf.Variable(initializer(shape, dtype), name=name)` under
    the current name scope, a resource variable unless asked otherwise."""
    if initializer is not None and not callable(initializer):
        init_val, variable_dtype = initializer, None
    else:
        if inspect.isclass(initializer):
            initializer = initializer()
        init_val = functools.partial(initializer, shape, dtype=dtype)
        variable_dtype = dtype.base_dtype
    if use_resource is None:
        use_resource = True
    variable_shape = TensorShape(shape)
    # While a model is built symbolically under eager execution (tf.keras.Input), the
    # weights are created eagerly, outside the building graph, as TF's Keras does.
    lift = getattr(get_default_graph(), "_outer_eager", False)
    with init_scope() if lift else contextlib.nullcontext():
        return Variable(initial_value=init_val, name=name, trainable=trainable,
                        caching_device=caching_device, dtype=variable_dtype,
                        validate_shape=validate_shape, constraint=constraint,
                        use_resource=use_resource, collections=collections,
                        synchronization=synchronization, aggregation=aggregation,
                        shape=variable_shape if variable_shape else None)


def _is_split_variable(v: Any) -> bool:
    return hasattr(v, "_variable_list") or hasattr(v, "_variables")


def _ran_eagerly(update: Any) -> bool:
    """Whether an update is an eager result (an eager tensor, or an eager variable that an
    assign returned) rather than a graph op to run later."""
    if update is None:
        return True
    if isinstance(update, (Tensor, Operation)):
        return bool(getattr(update, "_is_eager_tensor", False))
    from tf1compat.framework.context import executing_eagerly
    return executing_eagerly() and not hasattr(update, "graph")


class Layer(LayerConnectivity, tracking.AutoTrackable):
    """Base class of Keras layers (TF1 graph mode)."""

    # Internal lists/dicts are bookkeeping, not checkpoint dependencies.
    _no_tracking = frozenset({
        "_trainable_weights", "_non_trainable_weights", "_self_tracked_trackables",
        "_updates", "_losses", "_eager_losses", "_callable_losses", "_inbound_nodes",
        "_outbound_nodes",
        "_metrics", "_unconditional", "_input_spec", "_build_input_shape", "_layers",
        "_input_layers", "_output_layers", "_network_nodes", "_nodes_by_depth",
        "_layers_by_depth", "_input_coordinates", "_output_coordinates", "_nested_inputs",
        "_nested_outputs", "_layer_nodes", "_initial_weights", "_scope", "_current_scope",
        "_always_reuse_variable_scope", "_batch_input_shape", "_call_kwargs_seen"})

    def __init__(self, trainable: bool = True, name: Optional[str] = None, dtype: Any = None,
                 dynamic: bool = False, **kwargs: Any):
        for kwarg in kwargs:
            if kwarg not in _ALLOWED_KWARGS:
                raise TypeError("Keyword argument not understood:", kwarg)
        self._trainable = trainable
        self._stateful = False
        self.built = False
        self._build_input_shape = None
        self._input_spec = None
        self.supports_masking = False
        self._init_set_name(name)
        from tf1compat.keras import regularizers
        self._activity_regularizer = regularizers.get(kwargs.pop("activity_regularizer", None))
        self._trainable_weights: List[Any] = []
        self._non_trainable_weights: List[Any] = []
        self._updates: List[Any] = []
        # As tf-keras's v2 layers (the class it picks under eager execution), a layer made
        # eagerly runs its updates and keeps none; one made in a graph keeps them (v1).
        self._keeps_updates = not executing_eagerly_outside_functions()
        self._losses: List[Any] = []
        self._eager_losses: List[Any] = []
        self._callable_losses: List[Callable] = []
        self._metrics: List[Any] = []
        self._unconditional: Dict[int, bool] = {}
        self._self_tracked_trackables: List[Any] = []
        self._inbound_nodes: List[Any] = []
        self._outbound_nodes: List[Any] = []
        self._v2_dtype_behavior = _V2_DTYPE_BEHAVIOR
        self._set_dtype(dtype)
        self._autocast = kwargs.get("autocast", True)
        self._dynamic = dynamic
        if "input_dim" in kwargs and "input_shape" not in kwargs:
            kwargs["input_shape"] = (kwargs["input_dim"],)
        if "input_shape" in kwargs or "batch_input_shape" in kwargs:
            if "batch_input_shape" in kwargs:
                batch_input_shape = tuple(kwargs["batch_input_shape"])
            else:
                batch_input_shape = (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
            self._batch_input_shape = batch_input_shape
        self._initial_weights = kwargs.get("weights", None)
        self._called = False

    # -- naming and dtype -----------------------------------------------------------------
    def _init_set_name(self, name: Optional[str], zero_based: bool = True) -> None:
        if not name:
            self._name = backend.unique_object_name(to_snake_case(type(self).__name__),
                                                    zero_based=zero_based)
        else:
            if not isinstance(name, str):
                raise TypeError(f"Layer name must be a string, got: {name!r}")
            self._name = name

    def _set_dtype(self, dtype: Any) -> None:
        dtype_policy.set_layer_dtype(self, dtype)

    def _maybe_cast_inputs(self, inputs: Any) -> Any:
        """Floating inputs cast to the compute dtype (mixed policy, V2 dtype behaviour)."""
        return dtype_policy.cast_inputs(self, inputs)

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> Optional[str]:
        """The variables' dtype name ('float32'), or None until the first input sets it."""
        return self._dtype

    @property
    def _compute_dtype(self) -> Optional[str]:
        return dtype_policy.compute_dtype(self)

    @property
    def compute_dtype(self) -> Optional[str]:
        return dtype_policy.compute_dtype(self)

    @property
    def dtype_policy(self) -> Any:
        return dtype_policy.layer_policy(self)

    @property
    def variable_dtype(self) -> Optional[str]:
        return self._dtype

    def _name_scope(self) -> str:
        return self.name

    # -- flags -------------------------------------------------------------------------------
    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value: bool) -> None:
        self._trainable = value
        for layer in getattr(self, "_self_tracked_trackables", []):
            layer.trainable = value

    @property
    def dynamic(self) -> bool:
        return any(layer._dynamic for layer in self._flatten_layers())

    @property
    def stateful(self) -> bool:
        return any(layer._stateful for layer in self._flatten_layers())

    @stateful.setter
    def stateful(self, value: bool) -> None:
        self._stateful = value

    @property
    def activity_regularizer(self) -> Any:
        return self._activity_regularizer

    @activity_regularizer.setter
    def activity_regularizer(self, regularizer: Any) -> None:
        self._activity_regularizer = regularizer

    @property
    def input_spec(self) -> Any:
        return self._input_spec

    @input_spec.setter
    def input_spec(self, value: Any) -> None:
        for v in nest.flatten(value):
            if v is not None and not isinstance(v, InputSpec):
                raise TypeError(f"Layer input_spec must be an instance of InputSpec. Got: {v}")
        self._input_spec = value

    # -- attribute tracking --------------------------------------------------------------------
    def __setattr__(self, name: str, value: Any) -> None:
        if name.startswith("_tf1compat") or name in type(self)._no_tracking or \
                isinstance(getattr(type(self), name, None), property):
            object.__setattr__(self, name, value)
            return
        if getattr(self, "_self_tracked_trackables", None) is not None:
            for v in nest.flatten(value) if isinstance(value, (list, tuple, dict)) else [value]:
                if isinstance(v, Layer):
                    if not any(v is x for x in self._self_tracked_trackables):
                        self._self_tracked_trackables.append(v)
                elif isinstance(v, Variable) and not _is_split_variable(v):
                    weights = self._trainable_weights if v.trainable else \
                        self._non_trainable_weights
                    if not any(v is w for w in self._trainable_weights +
                               self._non_trainable_weights):
                        weights.append(v)
                        backend.track_variable(v)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        value = getattr(self, name, None)
        super().__delattr__(name)
        if isinstance(value, Layer):
            self._self_tracked_trackables = [x for x in self._self_tracked_trackables
                                             if x is not value]
        if isinstance(value, Variable):
            self._trainable_weights = [w for w in self._trainable_weights if w is not value]
            self._non_trainable_weights = [w for w in self._non_trainable_weights
                                           if w is not value]

    def _flatten_layers(self, recursive: bool = True, include_self: bool = True
                        ) -> Iterator["Layer"]:
        seen = set()
        if include_self:
            seen.add(id(self))
            yield self
        stack = list(reversed(getattr(self, "_self_tracked_trackables", [])))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            yield layer
            if recursive:
                stack.extend(reversed(getattr(layer, "_self_tracked_trackables", [])))

    @property
    def _layers(self) -> List["Layer"]:
        return list(self._flatten_layers(include_self=False, recursive=False))

    # -- weights -------------------------------------------------------------------------------
    def add_weight(self, name: Optional[str] = None, shape: Any = None, dtype: Any = None,
                   initializer: Any = None, regularizer: Any = None, trainable: Any = None,
                   constraint: Any = None, partitioner: Any = None, use_resource: Any = None,
                   synchronization: Any = VariableSynchronization.AUTO,
                   aggregation: Any = VariableAggregation.NONE, **kwargs: Any) -> Any:
        """Creates a weight variable named `<name scope>/<name>` and tracks it."""
        from tf1compat.keras import constraints, initializers, regularizers
        if shape is None:
            shape = ()
        for kwarg in kwargs:
            if kwarg not in ("autocast", "getter", "collections", "experimental_autocast",
                             "caching_device"):
                raise TypeError("Unknown keyword argument:", kwarg)
        has_custom_getter = "getter" in kwargs
        getter = kwargs.pop("getter", _make_variable)
        collections_arg = kwargs.pop("collections", None)
        caching_device = kwargs.pop("caching_device", None)
        if dtype is None:
            dtype = self.dtype or backend.floatx()
        dtype = D.as_dtype(dtype)
        if self._dtype is None:
            self._dtype = dtype.base_dtype.name
        initializer = initializers.get(initializer)
        regularizer = regularizers.get(regularizer)
        constraint = constraints.get(constraint)
        if synchronization == VariableSynchronization.ON_READ:
            if trainable:
                raise ValueError("Synchronization value can be set to "
                                 "VariableSynchronization.ON_READ only for non-trainable "
                                 "variables. You have specified trainable=True and "
                                 "synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        if initializer is None:
            if dtype.is_floating:
                initializer = initializers.get("glorot_uniform")
            elif dtype.is_integer or dtype.is_unsigned or dtype.is_bool:
                initializer = initializers.get("zeros")
            elif not has_custom_getter:
                raise ValueError(f"An initializer for variable {name} of type "
                                 f"{dtype.base_dtype} is required for layer {self.name}")
        initializer = with_numpy_op_seed(initializer)
        variable = getter(name=name, shape=shape, initializer=initializer, dtype=dtype,
                          constraint=constraint, trainable=trainable, partitioner=partitioner,
                          use_resource=use_resource, collections=collections_arg,
                          synchronization=synchronization, aggregation=aggregation,
                          caching_device=caching_device)
        if tracking.is_trackable(variable):
            self._track_trackable(variable, name=name, overwrite=True)
        if regularizer is not None:
            name_in_scope = variable.name[:variable.name.find(":")]
            self._handle_weight_regularization(name_in_scope, variable, regularizer)
        for v in (list(variable) if _is_split_variable(variable) else [variable]):
            backend.track_variable(v)
            (self._trainable_weights if trainable else self._non_trainable_weights).append(v)
        return dtype_policy.maybe_autocast_weight(self, variable)

    def add_variable(self, *args: Any, **kwargs: Any) -> Any:
        """Deprecated alias of `add_weight` (TF 1.x custom layers still call it)."""
        warnings.warn("`layer.add_variable` is deprecated and will be removed in a future "
                      "version. Please use the `layer.add_weight()` method instead.",
                      stacklevel=2)
        return self.add_weight(*args, **kwargs)

    def _handle_weight_regularization(self, name: str, variable: Any, regularizer: Any
                                      ) -> None:
        def loss_for_variable(v: Any) -> Any:
            with backend.name_scope(name + "/Regularizer"):
                return regularizer(v)
        for v in (list(variable) if _is_split_variable(variable) else [variable]):
            self.add_loss(functools.partial(loss_for_variable, v))

    @staticmethod
    def _dedup_weights(weights: List[Any]) -> List[Any]:
        out, seen = [], set()
        for w in weights:
            if id(w) not in seen:
                out.append(w)
                seen.add(id(w))
        return out

    def _gather_children_attribute(self, attribute: str) -> List[Any]:
        out: List[Any] = []
        for layer in self._flatten_layers(include_self=False, recursive=False):
            out.extend(getattr(layer, attribute))
        return out

    @property
    def trainable_weights(self) -> List[Any]:
        if not self.trainable:
            return []
        return self._dedup_weights(self._trainable_weights +
                                   self._gather_children_attribute("trainable_weights"))

    @property
    def non_trainable_weights(self) -> List[Any]:
        if self.trainable:
            weights = self._non_trainable_weights + \
                self._gather_children_attribute("non_trainable_weights")
        else:
            weights = self._trainable_weights + self._non_trainable_weights + \
                self._gather_children_attribute("weights")
        return self._dedup_weights(weights)

    @property
    def weights(self) -> List[Any]:
        return self._dedup_weights(self.trainable_weights + self.non_trainable_weights)

    @property
    def variables(self) -> List[Any]:
        return self.weights

    @property
    def trainable_variables(self) -> List[Any]:
        return self.trainable_weights

    @property
    def non_trainable_variables(self) -> List[Any]:
        return self.non_trainable_weights

    def get_weights(self) -> List[np.ndarray]:
        return backend.batch_get_value(self.weights)

    def set_weights(self, weights: Sequence[Any]) -> None:
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f'You called `set_weights(weights)` on layer "{self.name}" with a '
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(params)} weights. Provided weights: "
                             f"{str(weights)[:50]}...")
        tuples = []
        for param, weight in zip(params, weights):
            weight_shape = np.shape(weight)
            if not param.shape.is_compatible_with(weight_shape):
                raise ValueError(f"Layer weight shape {param.shape} not compatible with "
                                 f"provided weight shape {weight_shape}")
            tuples.append((param, weight))
        backend.batch_set_value(tuples)

    def count_params(self) -> int:
        if not self.built:
            if getattr(self, "_is_graph_network", False):
                self._maybe_build(self.inputs)
            else:
                raise ValueError(f"You tried to call `count_params` on {self.name}, but the "
                                 "layer isn't built. You can build it manually via: "
                                 f"`{self.name}.build(batch_input_shape)`.")
        return int(sum(np.prod(w.shape.as_list()) for w in self.weights))

    # -- losses and updates --------------------------------------------------------------------
    def add_loss(self, losses: Any, inputs: Any = None) -> None:
        """Adds loss tensors (or zero-argument callables evaluated when `losses` is read);
        the rules for functional models and eager calls are in engine/layer_losses.py."""
        layer_losses.add_loss(self, losses, inputs)

    @property
    def losses(self) -> List[Any]:
        return layer_losses.collected_losses(self)

    def add_update(self, updates: Any, inputs: Any = None) -> None:
        """Adds update ops; a callable is called now and its result added. Updates that ran
        eagerly (eager tensors, variables) are not kept: they have already happened (TF)."""
        call_ctx = node_module.call_context()
        relevant = call_ctx.stack[-1].get("inputs") if call_ctx.in_call else [
            n.input_tensors for n in self._inbound_nodes]

        def process(x: Any) -> Any:
            if callable(x):
                return process(x())
            if _ran_eagerly(x):
                return None
            if isinstance(x, Operation):
                update = x
            elif hasattr(x, "op"):
                update = x.op
                if update is None:  # what an eager variable's assign returned: it ran
                    return None
            else:
                update = convert_to_tensor(x)
            self._unconditional[id(update)] = not node_module.reachable_from(
                relevant if relevant is not None else [], update)
            return update
        for u in (updates if isinstance(updates, (list, tuple)) else [updates]):
            update = process(u)
            if update is not None and self._keeps_updates:
                self._updates.append(update)

    @property
    def updates(self) -> List[Any]:
        if not self._keeps_updates:
            warnings.warn("`layer.updates` will be removed in a future version. This property "
                          "should not be used in TensorFlow 2.0, as `updates` are applied "
                          "automatically.", stacklevel=2)
        out: List[Any] = []
        for layer in self._flatten_layers():
            if not layer.trainable and not layer.stateful:
                continue
            out.extend(layer._updates)
        return out

    def _owner_flag(self, item: Any) -> bool:
        for layer in self._flatten_layers():
            if id(item) in layer._unconditional:
                return layer._unconditional[id(item)]
        return True

    def get_updates_for(self, inputs: Any) -> List[Any]:
        if inputs is None:
            return [u for u in self.updates if self._owner_flag(u)]
        updates = [u for u in self.updates if not self._owner_flag(u)]
        return [u for u in updates if node_module.reachable_from(inputs, u)]

    def get_losses_for(self, inputs: Any) -> List[Any]:
        if inputs is None:
            return [loss for loss in self.losses if self._owner_flag(loss)]
        losses = [loss for loss in self.losses if not self._owner_flag(loss)]
        return [loss for loss in losses if node_module.reachable_from(inputs, loss)]

    @property
    def metrics(self) -> List[Any]:
        """The Keras Metric objects assigned to attributes of this layer or its sublayers,
        and those `add_metric` added to them."""
        from tf1compat.keras.engine.layer_metrics import added_metrics
        from tf1compat.keras.metrics import Metric
        found = [layer for layer in self._flatten_layers(include_self=False)
                 if isinstance(layer, Metric)]
        known = {id(m) for m in found}
        return found + [m for layer in self._flatten_layers() for m in added_metrics(layer)
                        if id(m) not in known]

    def add_metric(self, value: Any, aggregation: Any = None, name: Optional[str] = None
                   ) -> None:
        """A metric of `value` (`aggregation="mean"`: averaged over the batches), logged
        by the training loop (graph mode, `engine/layer_metrics.py`)."""
        from tf1compat.keras.engine.layer_metrics import add_metric
        add_metric(self, value, aggregation, name)

    # -- build and call ------------------------------------------------------------------------
    @default
    def build(self, input_shape: Any) -> None:
        """Creates the layer's weights; the default only marks the layer built."""
        if not is_default(self.build):
            self._build_input_shape = input_shape
        self.built = True

    def call(self, inputs: Any, **kwargs: Any) -> Any:
        return inputs

    @property
    def _expects_training_arg(self) -> bool:
        names, var_kw = _call_signature(type(self))
        return "training" in names or var_kw

    @property
    def _expects_mask_arg(self) -> bool:
        names, var_kw = _call_signature(type(self))
        return "mask" in names or var_kw

    def _arg_passed(self, arg: str, args: tuple, kwargs: dict) -> bool:
        if arg in kwargs:
            return True
        names, _ = _call_signature(type(self))
        return arg in names and names.index(arg) < len(args) + 1

    def _arg_value(self, arg: str, args: tuple, kwargs: dict) -> Any:
        if arg in kwargs:
            return kwargs[arg]
        names, _ = _call_signature(type(self))
        return args[names.index(arg) - 1]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if not hasattr(self, "_trainable_weights"):
            raise RuntimeError("You must call `super().__init__()` in the layer constructor.")
        self._called = True
        names, _ = _call_signature(type(self))
        if args:
            inputs, args = args[0], args[1:]
        elif names and names[0] in kwargs:
            inputs = kwargs.pop(names[0])
        else:
            raise ValueError("The first argument to `Layer.call` must always be passed.")
        inputs = nest.map_structure(
            lambda x: convert_to_tensor(x) if isinstance(x, (np.ndarray, float, int)) and
            not isinstance(x, bool) else x, inputs)
        call_ctx = node_module.call_context()
        training = None
        if self._arg_passed("training", args, kwargs):
            training = self._arg_value("training", args, kwargs)
            if not self._expects_training_arg:
                kwargs.pop("training")
        passed_by_framework = False
        if training is None and call_ctx.training is not None:
            training = call_ctx.training
            if self._expects_training_arg:
                if isinstance(training, Tensor):
                    from tf1compat.ops.math_ops import cast
                    training = training if training.dtype == D.bool else cast(training, D.bool)
                else:
                    training = bool(training)
                if "training" in names and names.index("training") < len(args) + 1:
                    args = list(args)
                    args[names.index("training") - 1] = training
                    args = tuple(args)
                else:
                    kwargs["training"] = training
                passed_by_framework = True
        from tf1compat.framework.context import executing_eagerly
        symbolic = [t for t in nest.flatten(inputs)
                    if isinstance(t, Tensor) and not getattr(t, "_is_eager_tensor", False)]
        # Under eager execution a call on symbolic Keras tensors builds a model in their graph.
        eager = executing_eagerly() and not symbolic
        if eager and not call_ctx.in_call:
            # The outermost eager call starts its layers' eager losses afresh.
            for layer in self._flatten_layers():
                layer._eager_losses = []
        keras_inputs = False
        if not eager:
            # Keras history (functional-model bookkeeping) exists for graph tensors only.
            from tf1compat.keras.engine.op_layer import (create_keras_history,
                                                         needs_keras_history)
            if needs_keras_history(inputs):
                create_keras_history(inputs)
            keras_inputs = node_module.have_all_keras_metadata(inputs)
        kwargs, previous_mask, mask_by_framework = masking.mask_for_call(self, inputs, args,
                                                                         kwargs)
        with call_ctx.enter(self, training):
            call_ctx.stack[-1]["inputs"] = inputs
            assert_input_compatibility(self.input_spec, inputs, self.name)
            # (entering a graph would turn eager execution off for the call)
            graph_ctx = contextlib.nullcontext() if eager else (
                symbolic[0].graph if symbolic else get_default_graph()).as_default()
            with graph_ctx, backend.name_scope(self._name_scope()):
                self._maybe_build(inputs)
                with dtype_policy.autocast_scope(self):
                    # (the node records the uncast Keras tensors as its inputs)
                    outputs = self.call(self._maybe_cast_inputs(inputs), *args, **kwargs)
                if outputs is None:
                    raise ValueError("A layer's `call` method should return a Tensor or a list "
                                     f"of Tensors, not None (layer: {self.name}).")
                if keras_inputs:
                    if passed_by_framework:
                        kwargs.pop("training", None)
                    if mask_by_framework:
                        kwargs.pop("mask", None)
                    outputs = self._set_connectivity_metadata((inputs,) + tuple(args), kwargs,
                                                              outputs)
                self._handle_activity_regularization(inputs, outputs)
                masking.set_output_masks(self, inputs, outputs, previous_mask)
        return outputs

    def _set_connectivity_metadata(self, args: tuple, kwargs: dict, outputs: Any) -> Any:
        # A layer that returns one of its inputs unchanged gets an Identity, so each
        # Keras tensor has exactly one producing node (as TF does).
        flat_inputs = {id(t) for t in nest.flatten(args)}
        if any(id(o) in flat_inputs for o in nest.flatten(outputs)):
            from tf1compat.ops.array_ops import identity
            outputs = nest.map_structure(
                lambda o: identity(o) if id(o) in flat_inputs else o, outputs)
        node_module.Node(self, args, kwargs, outputs)
        return outputs

    def _handle_activity_regularization(self, inputs: Any, outputs: Any) -> None:
        if not self._activity_regularizer:
            return
        from tf1compat.ops.array_ops import shape
        from tf1compat.ops.math_ops import cast
        with backend.name_scope("ActivityRegularizer"):
            for output in nest.flatten(outputs):
                activity_loss = convert_to_tensor(self._activity_regularizer(output))
                batch_size = cast(shape(output)[0], activity_loss.dtype)
                self.add_loss(activity_loss / batch_size, inputs=inputs)

    def _maybe_build(self, inputs: Any) -> None:
        if not self.built:
            assert_input_compatibility(self.input_spec, inputs, self.name)
            flat = nest.flatten(inputs)
            if flat and self._dtype is None:
                dtype = getattr(flat[0], "dtype", None)
                if dtype is not None:
                    self._dtype = dtype.base_dtype.name
            input_shapes = None
            if any(hasattr(x, "shape") for x in flat):
                input_shapes = nest.map_structure(lambda x: getattr(x, "shape", None), inputs)
            if not is_default(self.build):
                self.build(input_shapes)
            Layer.build(self, input_shapes)
        if self._initial_weights is not None:
            weights, self._initial_weights = self._initial_weights, None
            self.set_weights(weights)

    def apply(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        """Deprecated alias of `__call__`."""
        return self(inputs, *args, **kwargs)

    def compute_output_shape(self, input_shape: Any) -> Any:
        raise NotImplementedError(f"Please implement `compute_output_shape` for layer "
                                  f"{type(self).__name__}")

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        if not self.supports_masking and any(m is not None for m in nest.flatten(mask)):
            raise TypeError(f"Layer {self.name} does not support masking, but was passed an "
                            f"input_mask: {mask}")
        return None if not self.supports_masking else mask

    # -- configuration -------------------------------------------------------------------------
    @default
    def get_config(self) -> dict:
        config: Dict[str, Any] = {"name": self.name, "trainable": self.trainable}
        if hasattr(self, "_batch_input_shape"):
            config["batch_input_shape"] = self._batch_input_shape
        config["dtype"] = dtype_policy.serialize_dtype(self)
        if getattr(self, "_dynamic", False):
            config["dynamic"] = True
        if is_default(self.get_config):
            params = [p for p in inspect.signature(type(self).__init__).parameters.values()
                      if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)][1:]
            extra = [p.name for p in params if p.name not in config and p.name != "dynamic"]
            if len(extra) > 1:
                raise NotImplementedError("Layers with arguments in `__init__` must override "
                                          "`get_config`.")
        return config

    @classmethod
    def from_config(cls, config: dict) -> "Layer":
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object at {hex(id(self))}>"

    def _is_layer(self) -> bool:
        return True

    @property
    def _is_legacy_layer(self) -> bool:
        return False

