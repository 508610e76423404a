"""`tf.contrib.eager.Network` (`tfe.Network`): TF 1.x's deprecated container of tf.layers
layers, as the early eager-execution examples subclass it.

A Network is a tf.layers Layer whose `call` runs the layers it registered with
`track_layer`; its weights are theirs, in registration order. It takes its variable scope
at its first call (`<snake_case class name>`, numbered when taken: `neural_net`,
`neural_net_1`), and the tracked layers, first called inside it, open theirs under it, so
variables are named `neural_net/dense/kernel`, `neural_net/dense_1/kernel`... as in TF.
Tracked layers use resource variables. Object-based checkpointing of a Network is refused
as TF refuses it; `tf.train.Saver(network.variables)` saves it.
"""

from __future__ import annotations

import collections
import weakref
from typing import Any, Dict, List, Optional

from tf1compat.layers.base import Layer
from tf1compat.util import tf_logging as logging
from tf1compat.variables.variable_scope import VariableScope

__all__ = ["Network"]

_DEPRECATION = ("Please inherit from `tf.keras.Model`, and see its documentation for "
                "details. `tf.keras.Model` should be a drop-in replacement for "
                "`tfe.Network` in most cases, but note that `track_layer` is no longer "
                "necessary or supported.")


class Network(Layer):
    """A composition of tf.layers layers registered with `track_layer` (deprecated in TF
    1.x in favour of `tf.keras.Model`)."""

    def __init__(self, name: Optional[str] = None):
        from tf1compat.eager.context import executing_eagerly
        if executing_eagerly():
            logging.warning("** tfe.Network is deprecated and will be removed in a future "
                            "version.\n\n%s", _DEPRECATION)
        if isinstance(name, VariableScope):
            raise ValueError("VariableScopes are not valid Network names.")
        if name is not None and "/" in name:
            raise ValueError("Forward slashes ('/') are not allowed in Network names.")
        self._tfe_named = name is not None
        super().__init__(name=name)
        self._tracked_layers: List[Any] = []
        self._owned_layers: Dict[str, Any] = {}
        self._sub_layer_name_uids: Dict[str, int] = collections.defaultdict(int)

    @property
    def name(self) -> str:
        """The variable scope's name once called; an anonymous Network has none before."""
        if self._scope is not None:
            return self._scope.name
        if not self._tfe_named:
            raise ValueError("The network does not yet have a final name, but a name was "
                             "requested for it. Networks get a name when they are added to "
                             "another Network via track_layer, or when they are first "
                             "called/built.")
        return self._name

    def track_layer(self, layer: Any) -> Any:
        """Registers `layer` (a tf.layers Layer) as part of this Network; returns it."""
        if not hasattr(self, "_tracked_layers"):
            raise RuntimeError("Need to call Network.__init__ before adding layers")
        if not isinstance(layer, Layer):
            raise TypeError(f"Network.track_layer() passed type {type(layer)}, not a "
                            "tf.layers.Layer")
        layer._use_resource_variables = True
        if not layer.built:
            parent = getattr(layer, "_tfe_first_parent", None)
            if parent is None:
                if layer._name != layer._base_name:
                    # An auto-numbered name ("dense_7") is renumbered within this Network,
                    # from zero: its layers are dense, dense_1, ... whatever else exists.
                    layer._name, layer._base_name = layer._make_unique_name(
                        name_uid_map=self._sub_layer_name_uids,
                        avoid_names=self._owned_layers, zero_based=True)
                layer._tfe_first_parent = parent = weakref.ref(self)
            if parent() is self:
                if self._owned_layers.get(layer.name) is layer:
                    return layer
                if layer.name in self._owned_layers:
                    raise ValueError("Attempt to add two Layers with the name "
                                     f"'{layer.name}' to the same Network.")
                self._owned_layers[layer.name] = layer
        self._tracked_layers.append(layer)
        return layer

    def get_layer(self, name: Optional[str] = None, index: Optional[int] = None) -> Any:
        """A tracked layer by registration index or by name."""
        if index is not None:
            if name is not None:
                raise ValueError("Exactly one of 'index' or 'name' must be provided")
            if len(self._tracked_layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self._tracked_layers)} layers.")
            return self._tracked_layers[index]
        if not name:
            raise ValueError("Provide either a layer name or layer index.")
        for layer in self._tracked_layers:
            if layer.name == name:
                return layer
        raise ValueError("No such layer: " + name)

    @property
    def layers(self) -> List[Any]:
        return self._tracked_layers

    @property
    def weights(self) -> List[Any]:
        return [w for layer in self._tracked_layers for w in layer.weights]

    @property
    def variables(self) -> List[Any]:
        return self.weights

    @property
    def trainable_weights(self) -> List[Any]:
        return [w for layer in self._tracked_layers for w in layer.trainable_weights]

    @property
    def trainable_variables(self) -> List[Any]:
        return self.trainable_weights

    @property
    def non_trainable_weights(self) -> List[Any]:
        return [w for layer in self._tracked_layers for w in layer.non_trainable_weights]

    @property
    def non_trainable_variables(self) -> List[Any]:
        return self.non_trainable_weights

    @property
    def trainable(self) -> bool:
        return True

    @trainable.setter
    def trainable(self, value: bool) -> None:
        if not value:
            raise AttributeError("cannot mark Network as not trainable")

    @property
    def losses(self) -> List[Any]:
        return [loss for layer in self._tracked_layers for loss in layer.losses]

    def add_variable(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("add_variable not supported in Network class yet.")

    def add_loss(self, losses: Any, inputs: Any = None) -> None:
        raise RuntimeError("add_loss is not supported in Network class yet.")

    def _gather_saveables_for_checkpoint(self) -> Any:
        raise NotImplementedError("tfe.Network does not support object-based "
                                  "checkpointing.\n\n" + _DEPRECATION)
