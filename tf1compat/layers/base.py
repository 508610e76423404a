"""`tf.layers.Layer`: Keras layers with TF1 variable-scope naming (TF's legacy_tf_layers).

A tf.layers layer captures a variable scope the first time it needs one: `name=` (or the
functional form's name) opens `variable_scope(name)` at construction; otherwise the class
name is the scope's default name (`dense`, `dense_1`, ... uniquified by variable scopes,
while `layer.name` comes from Keras' per-graph counter). Its weights come from
`tf.get_variable` under that scope (`dense/kernel:0`, ref variables unless the scope asks
for resource variables), so `variable_scope(..., reuse=True)` and `reuse=` share them;
later calls of the same layer re-enter the scope with reuse=True. Ops are created in the
scope's original name scope (`dense/MatMul`, then `dense/MatMul_1` on a second call).
Weight regularizers are built at once under `<weight>/Regularizer/` and added to
REGULARIZATION_LOSSES; the layer's updates (batch norm) go to UPDATE_OPS after each call.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import GraphKeys, get_collection_ref
from tf1compat.keras import backend
from tf1compat.keras.engine import base_layer
from tf1compat.keras.engine.base_layer import _call_signature, to_snake_case
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.layers.keras_style import in_keras_style_scope
from tf1compat.variables.collections import global_variables, trainable_variables
from tf1compat.variables.variable_scope import VariableScope, get_variable, variable_scope
from tf1compat.variables.variables import VariableAggregation, VariableSynchronization

__all__ = ["Layer", "InputSpec", "add_elements_to_collection"]


def add_elements_to_collection(elements: Any, collection_list: Any) -> None:
    """Appends each element to each collection once (by identity), as TF's helper."""
    if executing_eagerly():
        raise RuntimeError("Using collections from Layers not supported in Eager mode. Tried "
                           f"to add {elements} to {collection_list}")
    from tf1compat.util import nest
    elements = nest.flatten(elements)
    collection_list = nest.flatten(collection_list)
    for name in collection_list:
        collection = get_collection_ref(name)
        present = {id(e) for e in collection}
        for element in elements:
            if id(element) not in present:
                collection.append(element)
                present.add(id(element))


class Layer(base_layer.Layer):
    """Base class of the tf.layers layers (TF1 variable-scope semantics)."""

    def __init__(self, trainable: bool = True, name: Optional[str] = None, dtype: Any = None,
                 **kwargs: Any):
        self._use_resource_variables = False
        scope = kwargs.pop("_scope", None)
        self._reuse = kwargs.pop("_reuse", None)
        self._trainable_weights = []
        self.built = False
        kwargs.setdefault("autocast", False)
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self._keras_style = in_keras_style_scope()
        if self._keras_style:
            # Keras semantics: weights named by the layer's name scope, never shared
            # through variable scopes, so TF refuses the variable-scope arguments.
            if scope is not None:
                raise ValueError("scope argument not allowed when keras style layers are "
                                 f"enabled, but saw: {scope}")
            if self._reuse is not None:
                raise ValueError("reuse argument not allowed when keras style layers are "
                                 f"enabled, but saw: {self._reuse}")
        self._call_has_scope_arg = "scope" in _call_signature(type(self))[0]
        if scope:
            with variable_scope(scope) as captured_scope:
                self._scope = captured_scope
        else:
            self._scope = None
        self._current_scope = None

    # Attribute assignment is plain here (TF's legacy layers bypass Keras' auto-tracking;
    # weights are still checkpoint dependencies through add_weight).
    def __setattr__(self, name: str, value: Any) -> None:
        object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)

    @property
    def _is_legacy_layer(self) -> bool:
        return True

    @property
    def graph(self) -> Any:
        if executing_eagerly():
            raise RuntimeError("Layer.graph not supported when executing eagerly.")
        return None

    def _init_set_name(self, name: Any, zero_based: bool = True) -> None:
        if isinstance(name, VariableScope):
            base_name = name.name
            self._name, _ = self._make_unique_name()
        else:
            base_name = name
            self._name = name
        if not name:
            self._name, base_name = self._make_unique_name()
        self._base_name = base_name

    def _make_unique_name(self, name_uid_map: Any = None, avoid_names: Any = None,
                          namespace: str = "", zero_based: bool = False) -> tuple:
        base_name = to_snake_case(type(self).__name__)
        name = backend.unique_object_name(base_name, name_uid_map=name_uid_map,
                                          avoid_names=avoid_names, namespace=namespace,
                                          zero_based=zero_based)
        return name, base_name

    @property
    def scope_name(self) -> str:
        if not self._scope:
            raise ValueError('No name available for layer scope because the layer "' +
                             self._name + '" has not been used yet. The scope name  is '
                             "determined the first time the layer instance is called. You "
                             "must therefore call the layer before querying `scope_name`.")
        return self._scope.name

    def add_loss(self, losses: Any, inputs: Any = None) -> None:
        """As Keras, but regularizer losses are built now and added to
        REGULARIZATION_LOSSES."""
        n_losses = len(self._losses)
        n_callables = len(self._callable_losses)
        super().add_loss(losses, inputs=inputs)
        if not executing_eagerly():
            new_losses = self._losses[n_losses:]
            for regularizer in self._callable_losses[n_callables:]:
                loss = regularizer()
                if loss is not None:
                    new_losses.append(loss)
            add_elements_to_collection(new_losses, GraphKeys.REGULARIZATION_LOSSES)

    def _name_scope(self) -> str:
        if self._keras_style:
            return super()._name_scope()
        return self._current_scope.original_name_scope

    def _set_scope(self, scope: Any = None) -> None:
        if self._scope is None:
            if self._reuse:
                with variable_scope(scope if scope is not None else self._base_name) as \
                        captured_scope:
                    self._scope = captured_scope
            else:
                with variable_scope(scope, default_name=self._base_name) as captured_scope:
                    self._scope = captured_scope

    def add_weight(self, name: str, shape: Any, dtype: Any = None, initializer: Any = None,
                   regularizer: Any = None, trainable: Any = None, constraint: Any = None,
                   use_resource: Any = None,
                   synchronization: Any = VariableSynchronization.AUTO,
                   aggregation: Any = VariableAggregation.NONE, partitioner: Any = None,
                   **kwargs: Any) -> Any:
        """Gets or creates the variable `<scope>/<name>` with `tf.get_variable` (a Keras
        weight under the layer's name scope for keras-style layers)."""
        if self._keras_style:
            return super().add_weight(
                name, shape, dtype=dtype, initializer=initializer, regularizer=regularizer,
                trainable=trainable and self.trainable, constraint=constraint,
                use_resource=use_resource, synchronization=synchronization,
                aggregation=aggregation, partitioner=partitioner, **kwargs)
        for kwarg in kwargs:
            if kwarg != "experimental_autocast":
                raise TypeError("Unknown keyword argument:", kwarg)
        if synchronization == VariableSynchronization.ON_READ:
            if trainable:
                raise ValueError("Synchronization value can be set to "
                                 "VariableSynchronization.ON_READ only for non-trainable "
                                 "variables. You have specified trainable=True and "
                                 "synchronization=VariableSynchronization.ON_READ.")
            trainable = False
        elif trainable is None:
            trainable = True
        existing_variables = {id(v) for v in global_variables()}
        if dtype is None:
            dtype = self.dtype or "float32"
        self._set_scope(None)
        reuse = self.built or self._reuse
        n_trainable = len(self._trainable_weights)
        with variable_scope(self._scope, reuse=reuse, auxiliary_name_scope=False) as scope:
            self._current_scope = scope
            with backend.name_scope(self._name_scope()):
                use_resource = use_resource or self._use_resource_variables or \
                    scope.use_resource
                if initializer is None:
                    initializer = scope.initializer
                variable = super().add_weight(
                    name, shape, dtype=dtype, initializer=initializer,
                    trainable=trainable and self.trainable, constraint=constraint,
                    partitioner=partitioner, use_resource=use_resource,
                    synchronization=synchronization, aggregation=aggregation,
                    getter=get_variable)
                if regularizer:
                    parts = list(variable) if base_layer._is_split_variable(variable) \
                        else [variable]
                    if all(id(v) not in existing_variables for v in parts):
                        self._handle_weight_regularization(name, variable, regularizer)
                # (Eager mode keeps no collections: nothing to learn from them there.)
                trainable_ids = {id(v) for v in trainable_variables()}
                if trainable and self.trainable and not executing_eagerly() and \
                        id(variable) not in trainable_ids:
                    # The scope made it non-trainable (e.g. a custom getter): file it so.
                    extra = self._trainable_weights[n_trainable:]
                    self._trainable_weights = self._trainable_weights[:n_trainable]
                    self._non_trainable_weights += extra
        return variable

    def __call__(self, inputs: Any, *args: Any, **kwargs: Any) -> Any:
        if self._keras_style:
            return super().__call__(inputs, *args, **kwargs)
        scope = kwargs.pop("scope", None)
        self._set_scope(scope)
        if self.built:
            manager = getattr(self, "_always_reuse_variable_scope", None)
            if manager is None:
                manager = variable_scope(self._scope, reuse=True, auxiliary_name_scope=False)
                self._always_reuse_variable_scope = manager
        else:
            manager = variable_scope(self._scope, reuse=self._reuse,
                                     auxiliary_name_scope=False)
        with manager as scope:
            self._current_scope = scope
            if self._call_has_scope_arg:
                kwargs["scope"] = scope
            outputs = super().__call__(inputs, *args, **kwargs)
        if not executing_eagerly():
            add_elements_to_collection(self.updates, GraphKeys.UPDATE_OPS)
        return outputs

    def __deepcopy__(self, memo: dict) -> "Layer":
        import copy
        cls = type(self)
        result = cls.__new__(cls)
        memo[id(self)] = result
        for k, v in self.__dict__.items():
            if k in ("_scope", "_always_reuse_variable_scope"):
                object.__setattr__(result, k, copy.copy(v))
            elif k.startswith("_tf1compat"):
                object.__setattr__(result, k, v)
            else:
                object.__setattr__(result, k, copy.deepcopy(v, memo))
        return result

