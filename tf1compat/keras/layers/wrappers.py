"""Layer wrappers: `tf.keras.layers.Bidirectional` runs a recurrent layer forwards and a copy
of it backwards over the same sequence and merges the two outputs; `TimeDistributed` applies
a layer to every time step. Both as tf-keras's wrappers do.

The forward copy and the backward copy (`go_backwards` flipped) are re-created from the
wrapped layer's config and renamed `forward_<name>` / `backward_<name>`; they build inside
name scopes of those names, so their weights are named as TF names them
(`bidirectional/forward_lstm/lstm_cell/kernel:0`).
"""

from __future__ import annotations

import copy
from typing import Any, List, Optional

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.keras.engine.base_layer import Layer

__all__ = ["Wrapper", "Bidirectional", "TimeDistributed"]

_MERGE_MODES = ("sum", "mul", "ave", "concat", None)


class Wrapper(Layer):
    """`tf.keras.layers.Wrapper`: a layer that wraps another layer."""

    def __init__(self, layer: Layer, **kwargs: Any):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Wrapper` layer with a `tf.keras.layers.Layer` "
                             f"instance. Received: {layer}")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape: Any = None) -> None:
        if not self.layer.built:
            self.layer.build(input_shape)
            self.layer.built = True
        self.built = True

    def get_config(self) -> dict:
        from tf1compat.keras.layers.serialization import serialize
        return {**super().get_config(), "layer": serialize(self.layer)}

    @classmethod
    def from_config(cls, config: dict, custom_objects: Optional[dict] = None) -> "Wrapper":
        from tf1compat.keras.layers.serialization import deserialize
        config = copy.deepcopy(config)
        layer = deserialize(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


class Bidirectional(Wrapper):
    """`tf.keras.layers.Bidirectional(layer, merge_mode='concat', weights=None,
    backward_layer=None)`."""

    def __init__(self, layer: Layer, merge_mode: Optional[str] = "concat",
                 weights: Optional[List[Any]] = None, backward_layer: Optional[Layer] = None,
                 **kwargs: Any):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `Bidirectional` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        if backward_layer is not None and not isinstance(backward_layer, Layer):
            raise ValueError("`backward_layer` need to be a `tf.keras.layers.Layer` instance. "
                             f"Received: {backward_layer}")
        if merge_mode not in _MERGE_MODES:
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should "
                             'be one of {"sum", "mul", "ave", "concat", None}')
        super().__init__(layer, **kwargs)
        # As tf-keras, the original layer is no checkpoint dependency: only the two
        # copies that run are (object-based checkpoints and SavedModels match tf-keras's).
        self._untrack("layer")
        self.forward_layer = self._recreate(layer)
        if backward_layer is None:
            self.backward_layer = self._recreate(layer, go_backwards=True)
        else:
            from tf1compat.keras.layers.serialization import serialize
            self.backward_layer = backward_layer
            # Its config before the "backward_" name prefix, for get_config.
            self._backward_layer_config = serialize(backward_layer)
        self.forward_layer._name = "forward_" + self.forward_layer.name
        self.backward_layer._name = "backward_" + self.backward_layer.name
        self._verify_layer_config()
        for sub in (self.forward_layer, self.backward_layer):
            if getattr(sub, "zero_output_for_mask", None) is not None:
                sub.zero_output_for_mask = sub.return_sequences
        self.merge_mode = merge_mode
        if weights:
            half = len(weights) // 2
            self.forward_layer._initial_weights = weights[:half]
            self.backward_layer._initial_weights = weights[half:]
        self.stateful = layer.stateful
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.supports_masking = True
        self.input_spec = layer.input_spec

    @staticmethod
    def _recreate(layer: Layer, go_backwards: bool = False) -> Layer:
        config = layer.get_config()
        if go_backwards:
            config["go_backwards"] = not config["go_backwards"]
        return type(layer).from_config(config)

    def _verify_layer_config(self) -> None:
        if self.forward_layer.go_backwards == self.backward_layer.go_backwards:
            raise ValueError("Forward layer and backward layer should have different "
                             "`go_backwards` value.forward_layer.go_backwards = "
                             f"{self.forward_layer.go_backwards},backward_layer.go_backwards = "
                             f"{self.backward_layer.go_backwards}")
        for attr in ("stateful", "return_sequences", "return_state"):
            mine, theirs = getattr(self.forward_layer, attr), getattr(self.backward_layer, attr)
            if mine != theirs:
                raise ValueError("Forward layer and backward layer are expected to have the "
                                 f'same value for attribute "{attr}", got "{mine}" for '
                                 f'forward layer and "{theirs}" for backward layer')

    def build(self, input_shape: Any = None) -> None:
        with backend.name_scope(self.forward_layer.name):
            self.forward_layer.build(input_shape)
            self.forward_layer.built = True
        with backend.name_scope(self.backward_layer.name):
            self.backward_layer.build(input_shape)
            self.backward_layer.built = True
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> Any:
        output_shape = self.forward_layer.compute_output_shape(input_shape)
        state_shape: list = []
        if self.return_state:
            state_shape = [TensorShape(s) for s in output_shape[1:]]
            output_shape = output_shape[0]
        output_shape = TensorShape(output_shape)
        if self.merge_mode == "concat":
            dims = output_shape.as_list()
            dims[-1] *= 2
            output_shape = TensorShape(dims)
        elif self.merge_mode is None:
            output_shape = [output_shape, copy.copy(output_shape)]
        if self.return_state:
            if self.merge_mode is None:
                return output_shape + state_shape + copy.copy(state_shape)
            return [output_shape] + state_shape + copy.copy(state_shape)
        return output_shape

    def call(self, inputs: Any, training: Any = None, mask: Any = None,
             initial_state: Any = None) -> Any:
        from tf1compat.ops.transform_ops import reverse
        kwargs = {"training": training, "mask": mask}
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(inputs, initial_state=forward_state, **kwargs)
        y_rev = self.backward_layer(inputs, initial_state=backward_state, **kwargs)
        states: list = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            time_dim = 0 if getattr(self.forward_layer, "time_major", False) else 1
            y_rev = reverse(y_rev, [time_dim])
        if self.merge_mode == "concat":
            output: Any = backend.concatenate([y, y_rev])
        elif self.merge_mode == "sum":
            output = y + y_rev
        elif self.merge_mode == "ave":
            output = (y + y_rev) / 2
        elif self.merge_mode == "mul":
            output = y * y_rev
        else:
            output = [y, y_rev]
        if self.return_state:
            if self.merge_mode is None:
                return output + states
            return [output] + states
        return output

    def compute_mask(self, inputs: Any, mask: Any) -> Any:
        if isinstance(mask, list):
            mask = mask[0]
        if self.return_sequences:
            output_mask: Any = [mask, mask] if not self.merge_mode else mask
        else:
            output_mask = [None, None] if not self.merge_mode else None
        if self.return_state:
            state_mask = [None for _ in self.forward_layer.states]
            if isinstance(output_mask, list):
                return output_mask + state_mask * 2
            return [output_mask] + state_mask * 2
        return output_mask

    def reset_states(self, states: Any = None) -> None:
        """Resets (or sets: the first half of `states` forward, the rest backward) the
        states of both stateful directions."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        if states is None:
            self.forward_layer.reset_states()
            self.backward_layer.reset_states()
            return
        if not isinstance(states, (list, tuple)):
            raise ValueError("Unrecognized value for `states`. Expected `states` to be list "
                             f"or tuple. Received: {states}")
        half = len(states) // 2
        self.forward_layer.reset_states(states[:half])
        self.backward_layer.reset_states(states[half:])

    def get_config(self) -> dict:
        config = {"merge_mode": self.merge_mode}
        if hasattr(self, "_backward_layer_config"):
            config["backward_layer"] = self._backward_layer_config
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict, custom_objects: Optional[dict] = None
                    ) -> "Bidirectional":
        from tf1compat.keras.layers.serialization import deserialize
        config = copy.deepcopy(config)
        config.pop("num_constants", None)
        config["layer"] = deserialize(config["layer"], custom_objects=custom_objects)
        if config.get("backward_layer") is not None:
            config["backward_layer"] = deserialize(config["backward_layer"],
                                                   custom_objects=custom_objects)
        return cls(**config)


class TimeDistributed(Wrapper):
    """`tf.keras.layers.TimeDistributed(layer)`: `layer` applied to every time step (axis 1).

    As tf-keras does for its built-in layers, the time axis is folded into the batch
    (reshape, call, reshape back). tf-keras runs a user-defined layer step by step instead
    when the batch size is static; the results differ only for layers whose output
    depends on the other examples of the batch.
    """

    def __init__(self, layer: Layer, **kwargs: Any):
        if not isinstance(layer, Layer):
            raise ValueError("Please initialize `TimeDistributed` layer with a "
                             f"`tf.keras.layers.Layer` instance. Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True

    @staticmethod
    def _remove_timesteps(shape: TensorShape) -> TensorShape:
        dims = shape.as_list()
        return TensorShape([dims[0]] + dims[2:])

    def build(self, input_shape: Any = None) -> None:
        from tf1compat.keras.engine.input_spec import InputSpec
        shape = TensorShape(input_shape)
        if shape.ndims is None or shape.ndims < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape ` with "
                             f"at least 3 dimensions, received: {input_shape}")
        self.input_spec = InputSpec(shape=[None, None] + shape.as_list()[2:])
        child = tuple(self._remove_timesteps(shape).as_list())
        if not self.layer.built:
            self.layer.build(child)
            self.layer.built = True
        self.built = True

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        shape = TensorShape(input_shape)
        child = TensorShape(self.layer.compute_output_shape(self._remove_timesteps(shape)))
        dims = child.as_list()
        return TensorShape([dims[0], shape.as_list()[1]] + dims[1:])

    @staticmethod
    def _shape_tuple(init: tuple, tensor: Any, start: int) -> tuple:
        """`init` + the static dims of `tensor` from `start`, unknown ones from tf.shape."""
        dims = tensor.shape.as_list()[start:]
        if not any(d is None for d in dims):
            return init + tuple(dims)
        dynamic = backend.shape(tensor)
        return init + tuple(dynamic[start + i] if d is None else d
                            for i, d in enumerate(dims))

    def call(self, inputs: Any, training: Any = None, mask: Any = None) -> Any:
        from tf1compat.keras.engine.base_layer import _call_signature
        from tf1compat.ops.array_ops import reshape
        from tf1compat.ops.array_ops import shape as shape_op
        if isinstance(inputs, (list, tuple)):
            raise NotImplementedError("TimeDistributed over nested inputs is not supported by "
                                      "tf1compat")
        names, _ = _call_signature(type(self.layer))
        kwargs = {}
        if "training" in names:
            kwargs["training"] = training
        dims = inputs.shape.as_list()
        batch_size, input_length = dims[0], dims[1]
        if not input_length:
            input_length = shape_op(inputs)[1]
        inner = reshape(inputs, self._shape_tuple((-1,), inputs, 2))
        if mask is not None and "mask" in names:
            kwargs["mask"] = reshape(mask, self._shape_tuple((-1,), mask, 2))
        y = self.layer(inner, **kwargs)
        out_shape = self._shape_tuple((batch_size if batch_size else -1, input_length), y, 1)
        return reshape(y, out_shape)

    def compute_mask(self, inputs: Any, mask: Any = None) -> Any:
        return mask
