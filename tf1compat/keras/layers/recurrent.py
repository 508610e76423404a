"""Keras recurrent layers (TF1 graph mode): RNN, SimpleRNN, LSTM and GRU, with the cells
of recurrent_cells.py, run by `tf.keras.backend.rnn` (a tf.while_loop, or unrolled).

Naming follows TF: the layer's weights are `lstm/lstm_cell/kernel:0`,
`lstm/lstm_cell/recurrent_kernel:0`, `lstm/lstm_cell/bias:0`; the loop is `lstm/while`;
`return_sequences` outputs are `lstm/transpose_1`, the last output `lstm/strided_slice_3`
and the final states the loop's exits (`[h, c]` for the LSTM). TF1's defaults apply
(`recurrent_activation='hard_sigmoid'`, GRU `reset_after=False`).

`stateful=True` keeps the final states in variables (`<layer>/Variable:0`, sized by the
static batch size of `batch_input_shape`/`batch_size`/`Input(batch_shape=...)`): each call
starts from them and assigns the new states back through `add_update`, so they carry
across batches and across fit/predict calls until `reset_states()`.

Not supported (NotImplementedError naming the feature): ragged inputs. Bidirectional and
TimeDistributed are in wrappers.py, the ConvLSTMs in conv_recurrent.py, the CuDNN layers in
cudnn_recurrent.py.
"""

from __future__ import annotations

import collections.abc
from typing import Any, List

import numpy as np

from tf1compat.util import nest
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend, regularizers
from tf1compat.keras.backend_rnn import rnn as backend_rnn
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers.recurrent_cells import (GRUCell, LSTMCell, SimpleRNNCell,
                                                    config_in_tf_order,
                                                    StackedRNNCells, _has_arg,
                                                    is_multiple_state, zero_filled_state)

__all__ = ["RNN", "SimpleRNN", "LSTM", "GRU", "SimpleRNNCell", "LSTMCell", "GRUCell",
           "StackedRNNCells"]


def _standardize_args(inputs: Any, initial_state: Any, constants: Any,
                      num_constants: int) -> tuple:
    """Splits `[inputs, *initial_state, *constants]` lists; lists for the others."""
    if isinstance(inputs, list):
        if initial_state is not None or constants is not None:
            raise ValueError("When `inputs` is a list, `initial_state` and `constants` "
                             "must be None")
        if num_constants:
            constants = inputs[-num_constants:]
            inputs = inputs[:-num_constants]
        if len(inputs) > 1:
            initial_state = inputs[1:]
            inputs = inputs[:1]
        inputs = tuple(inputs) if len(inputs) > 1 else inputs[0]

    def to_list_or_none(x: Any) -> Any:
        if x is None or isinstance(x, list):
            return x
        if isinstance(x, tuple):
            return list(x)
        return [x]
    return inputs, to_list_or_none(initial_state), to_list_or_none(constants)


_UNKNOWN_BATCH_MESSAGE = (
    "If a RNN is stateful, it needs to know its batch size. Specify the batch size of your "
    "input tensors: \n- If using a Sequential model, specify the batch size by passing a "
    "`batch_input_shape` argument to your first layer.\n- If using the functional API, "
    "specify the batch size by passing a `batch_shape` argument to your Input layer.")


def _initial_value(value: Any) -> Any:
    """A numpy initial value for a state variable (a constant tensor is evaluated)."""
    from tf1compat.framework.constant_value import constant_value
    if isinstance(value, np.ndarray):
        return value
    static = constant_value(value)
    return static if static is not None else backend.get_value(value)


def _int_shape(x: Any) -> Any:
    return tuple(x.shape.as_list()) if x.shape.rank is not None else None


class RNN(Layer):
    """`tf.keras.layers.RNN(cell, return_sequences, return_state, go_backwards, stateful,
    unroll, time_major)`: runs a cell (or a list of cells, stacked) over a sequence."""

    def __init__(self, cell: Any, return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 time_major: bool = False, **kwargs: Any):
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cell)
        if "call" not in dir(cell):
            raise ValueError("Argument `cell` should have a `call` method. The RNN was "
                             f"passed: cell={cell}")
        if "state_size" not in dir(cell):
            raise ValueError("The RNN cell should have a `state_size` attribute (tuple of "
                             "integers, one integer per RNN state). Received: "
                             f"cell={cell}")
        self.zero_output_for_mask = kwargs.pop("zero_output_for_mask", False)
        if "input_shape" not in kwargs and ("input_dim" in kwargs or
                                            "input_length" in kwargs):
            kwargs["input_shape"] = (kwargs.pop("input_length", None),
                                     kwargs.pop("input_dim", None))
        super().__init__(**kwargs)
        self.cell = cell
        self.return_sequences = return_sequences
        self.return_state = return_state
        self.go_backwards = go_backwards
        self.stateful = stateful
        self.unroll = unroll
        self.time_major = time_major
        self.supports_masking = True
        self.input_spec = None
        self.state_spec = None
        self._tf1compat_states = None
        self.constants_spec = None
        self._num_constants = 0

    @property
    def states(self) -> Any:
        if self._tf1compat_states is None:
            state = nest.map_structure(lambda _: None, self.cell.state_size)
            return state if nest.is_nested(self.cell.state_size) else [state]
        return self._tf1compat_states

    @states.setter
    def states(self, states: Any) -> None:
        self._tf1compat_states = states

    def reset_states(self, states: Any = None) -> None:
        """Zeroes the recorded states of a stateful layer, or sets them to `states`
        (numpy arrays, one per state); creates the state variables on first use."""
        if not self.stateful:
            raise AttributeError("Layer must be stateful.")
        shapes = self._state_shapes()
        if nest.flatten(self.states)[0] is None:
            dtype = self.dtype or backend.floatx()
            # The variables start as the initial states' values (zeros for the built-in
            # cells), read once here as Keras does through `backend.variable`.
            variables = [backend.variable(_initial_value(v), dtype=dtype)
                         for v in self._first_state_values(shapes, dtype)]
            states = nest.pack_sequence_as(self.cell.state_size, variables)
            self.states = states if nest.is_nested(states) else [states]
            return
        flat_states = nest.flatten(self.states)
        if states is None:
            backend.batch_set_value([(state, np.zeros(shape))
                                     for state, shape in zip(flat_states, shapes)])
            return
        flat_values = nest.flatten(states)
        if len(flat_values) != len(flat_states):
            raise ValueError(f"Layer {self.name} expects {len(flat_states)} states, but it "
                             f"received {len(flat_values)} state values. States received: "
                             f"{states}")
        pairs = []
        for i, (value, state, shape) in enumerate(zip(flat_values, flat_states, shapes)):
            if tuple(np.shape(value)) != tuple(shape):
                raise ValueError(self._state_shape_error(i, shape, value, state))
            pairs.append((state, value))
        backend.batch_set_value(pairs)

    def _state_shapes(self) -> List[List[int]]:
        """The full shape of each (flattened) state of a stateful layer."""
        batch_size = self._static_batch_size()
        if not batch_size:
            raise ValueError(_UNKNOWN_BATCH_MESSAGE)
        return [[batch_size] + TensorShape(size).as_list()
                for size in nest.flatten(self.cell.state_size)]

    def _first_state_values(self, shapes: List[List[int]], dtype: Any) -> List[Any]:
        """The values the state variables start from: the cell's initial state."""
        batch_size = shapes[0][0]
        fn = getattr(self.cell, "get_initial_state", None)
        if fn:
            return nest.flatten(fn(inputs=None, batch_size=batch_size, dtype=dtype))
        return nest.flatten(zero_filled_state(batch_size, self.cell.state_size, dtype))

    def _state_shape_error(self, index: int, shape: List[int], value: Any,
                           state: Any) -> str:
        # (tf-keras's message shows the batch size beside the state variable itself)
        return (f"State {index} is incompatible with layer {self.name}: expected "
                f"shape={(shape[0], state)} but found shape={np.shape(value)}")

    def _static_batch_size(self) -> Any:
        """The batch dimension of the input spec (None before build or when unknown)."""
        if self.input_spec is None:
            return None
        spec_shape = nest.flatten(self.input_spec[0])[0].shape
        if spec_shape is None:
            return None
        return spec_shape[1] if self.time_major else spec_shape[0]

    # -- shapes -----------------------------------------------------------------------
    def compute_output_shape(self, input_shape: Any) -> Any:
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        input_shape = TensorShape(input_shape)
        batch, time_step = input_shape.as_list()[:2]
        if self.time_major:
            batch, time_step = time_step, batch
        state_size = self.cell.state_size if is_multiple_state(self.cell.state_size) \
            else [self.cell.state_size]

        def output_shape_for(size: Any) -> TensorShape:
            dims = TensorShape(size).as_list()
            if not self.return_sequences:
                return TensorShape([batch] + dims)
            return TensorShape(([time_step, batch] if self.time_major else
                                [batch, time_step]) + dims)
        if getattr(self.cell, "output_size", None) is not None:
            shapes = nest.flatten(nest.map_structure(output_shape_for, self.cell.output_size))
            output_shape = shapes[0] if len(shapes) == 1 else shapes
        else:
            output_shape = output_shape_for(state_size[0])
        if not self.return_state:
            return output_shape
        state_shapes = nest.flatten(nest.map_structure(
            lambda s: TensorShape([batch] + TensorShape(s).as_list()), state_size))
        return (output_shape if isinstance(output_shape, list) else [output_shape]) + \
            state_shapes

    def compute_mask(self, inputs: Any, mask: Any) -> Any:
        mask = nest.flatten(mask)[0]
        output_mask = mask if self.return_sequences else None
        if self.return_state:
            return [output_mask] + [None for _ in self.states]
        return output_mask

    def build(self, input_shape: Any) -> None:
        if isinstance(input_shape, list):
            input_shape = input_shape[0]

        def input_spec_for(shape: Any) -> InputSpec:
            dims = TensorShape(shape).as_list()
            batch_index, time_index = (1, 0) if self.time_major else (0, 1)
            if not self.stateful:
                dims[batch_index] = None
            dims[time_index] = None
            return InputSpec(shape=tuple(dims))

        def step_input_shape(shape: Any) -> tuple:
            dims = tuple(TensorShape(shape).as_list())
            return dims[1:] if self.time_major else (dims[0],) + dims[2:]
        # A plain tuple such as (None, 3, 2) is one shape, not a structure of shapes.
        try:
            input_shape = TensorShape(input_shape)
        except (ValueError, TypeError):
            pass
        if not nest.is_nested(input_shape):
            spec = input_spec_for(input_shape)
            step_shape: Any = step_input_shape(input_shape)
        else:
            spec = nest.map_structure(input_spec_for, input_shape)
            step_shape = nest.map_structure(step_input_shape, input_shape)
        if self.input_spec is not None:
            self.input_spec[0] = spec
        else:
            self.input_spec = [spec] if not isinstance(spec, list) else spec
        if isinstance(self.cell, Layer) and not self.cell.built:
            with backend.name_scope(self.cell.name):
                self.cell.build(step_shape)
                self.cell.built = True
        state_size = list(self.cell.state_size) if is_multiple_state(self.cell.state_size) \
            else [self.cell.state_size]
        if self.state_spec is None:
            self.state_spec = [InputSpec(shape=[None] + TensorShape(dim).as_list())
                               for dim in nest.flatten(state_size)]
        self._validate_state_spec(state_size, self.state_spec)
        if self.stateful:
            self.reset_states()
        self.built = True

    @staticmethod
    def _validate_state_spec(cell_state_sizes: Any, init_state_specs: Any) -> None:
        error = ValueError("An `initial_state` was passed that is not compatible with "
                           f"`cell.state_size`. Received `state_spec`={init_state_specs}; "
                           f"however `cell.state_size` is {cell_state_sizes}")
        sizes = nest.flatten(cell_state_sizes)
        specs = nest.flatten(init_state_specs)
        if len(sizes) != len(specs):
            raise error
        for spec, size in zip(specs, sizes):
            if not TensorShape(spec.shape[1:]).is_compatible_with(TensorShape(size)):
                raise error

    def get_initial_state(self, inputs: Any) -> List[Any]:
        from tf1compat.ops.array_ops import shape
        if nest.is_nested(inputs):
            inputs = nest.flatten(inputs)[0]
        input_shape = shape(inputs)
        batch_size = input_shape[1] if self.time_major else input_shape[0]
        fn = getattr(self.cell, "get_initial_state", None)
        if fn:
            init_state = fn(inputs=None, batch_size=batch_size, dtype=inputs.dtype)
        else:
            init_state = zero_filled_state(batch_size, self.cell.state_size, inputs.dtype)
        if not nest.is_nested(init_state):
            init_state = [init_state]
        return list(init_state)

    # -- calls ------------------------------------------------------------------------
    def __call__(self, inputs: Any, initial_state: Any = None, constants: Any = None,
                 **kwargs: Any) -> Any:
        inputs, initial_state, constants = _standardize_args(inputs, initial_state,
                                                             constants, self._num_constants)
        if initial_state is None and constants is None:
            return super().__call__(inputs, **kwargs)
        additional_inputs: List[Any] = []
        additional_specs: List[Any] = []
        if initial_state is not None:
            additional_inputs += initial_state
            self.state_spec = [InputSpec(shape=_int_shape(s)) for s in
                               nest.flatten(initial_state)]
            additional_specs += self.state_spec
        if constants is not None:
            additional_inputs += constants
            self.constants_spec = [InputSpec(shape=_int_shape(c)) for c in constants]
            self._num_constants = len(constants)
            additional_specs += self.constants_spec
        flat_additional = nest.flatten(additional_inputs)
        is_keras_tensor = backend.is_keras_tensor(flat_additional[0]) if flat_additional \
            else True
        for t in flat_additional:
            if backend.is_keras_tensor(t) != is_keras_tensor:
                raise ValueError("The initial state or constants of an RNN layer cannot be "
                                 "specified via a mix of TF-Keras tensors and non-Keras "
                                 'tensors (a "Keras tensor" is a tensor that was returned by '
                                 "a TF-Keras layer  or by `Input` during Functional model "
                                 f"construction). Received: initial_state={initial_state}, "
                                 f"constants={constants}")
        if is_keras_tensor:
            full_input = [inputs] + additional_inputs
            if self.built:
                full_spec = list(self.input_spec) + additional_specs
            else:
                full_spec = [None] * len(nest.flatten(inputs)) + additional_specs
            self.input_spec = full_spec
            output = super().__call__(full_input, **kwargs)
            self.input_spec = self.input_spec[:-len(additional_specs)]
            return output
        if initial_state is not None:
            kwargs["initial_state"] = initial_state
        if constants is not None:
            kwargs["constants"] = constants
        return super().__call__(inputs, **kwargs)

    def _process_inputs(self, inputs: Any, initial_state: Any, constants: Any) -> tuple:
        if isinstance(inputs, collections.abc.Sequence) and not isinstance(inputs, tuple):
            if not self._num_constants:
                initial_state = inputs[1:]
            else:
                initial_state = inputs[1:-self._num_constants]
                constants = inputs[-self._num_constants:]
            if len(initial_state) == 0:
                initial_state = None
            inputs = inputs[0]
        if self.stateful:
            initial_state = self._stateful_initial_state(initial_state)
        elif initial_state is None:
            initial_state = self.get_initial_state(inputs)
        if len(initial_state) != len(self.states):
            raise ValueError(f"Layer has {len(self.states)} states but was passed "
                             f"{len(initial_state)} initial states. Received: "
                             f"initial_state={initial_state}")
        return inputs, initial_state, constants

    def _stateful_initial_state(self, initial_state: Any) -> Any:
        """The recorded states, or a given `initial_state` while they are all zeros."""
        from tf1compat.ops.cond import cond
        from tf1compat.ops.math_ops import add_n, cast
        from tf1compat.ops.reduction_ops import count_nonzero
        recorded = self.states
        if initial_state is not None:
            non_zero = add_n([count_nonzero(s) for s in nest.flatten(recorded)])
            initial_state = cond(non_zero > 0, lambda: recorded, lambda: initial_state,
                                 strict=True)
        else:
            initial_state = recorded
        dtype = self.dtype or self.cell.dtype or backend.floatx()
        return nest.map_structure(lambda v: cast(v, dtype), initial_state)

    def _record_states(self, states: Any) -> None:
        """Assigns the final states to the state variables: at once under eager
        execution, else as updates the train/test/predict functions run."""
        from tf1compat.framework.context import executing_eagerly
        from tf1compat.ops.math_ops import cast
        from tf1compat.ops.state_ops import assign
        updates = [assign(recorded, cast(new, recorded.dtype))
                   for recorded, new in zip(nest.flatten(self.states), nest.flatten(states))]
        if not executing_eagerly():
            self.add_update(updates)

    def _reset_dropout_masks(self) -> None:
        cells = self.cell.cells if isinstance(self.cell, StackedRNNCells) else [self.cell]
        for cell in cells:
            if hasattr(cell, "reset_dropout_mask"):
                cell.reset_dropout_mask()
                cell.reset_recurrent_dropout_mask()

    def call(self, inputs: Any, mask: Any = None, training: Any = None,
             initial_state: Any = None, constants: Any = None) -> Any:
        if type(inputs).__name__ == "RaggedTensor":
            raise NotImplementedError("Keras recurrent layers on RaggedTensor inputs are not "
                                      "supported by tf1compat")
        inputs, initial_state, constants = self._process_inputs(inputs, initial_state,
                                                                constants)
        self._reset_dropout_masks()
        if mask is not None:
            mask = nest.flatten(mask)[0]
        first = nest.flatten(inputs)[0] if nest.is_nested(inputs) else inputs
        input_shape = _int_shape(first)
        timesteps = input_shape[0] if self.time_major else input_shape[1]
        if self.unroll and timesteps is None:
            raise ValueError("Cannot unroll a RNN if the time dimension is undefined. \n"
                             "- If using a Sequential model, specify the time dimension by "
                             "passing an `input_shape` or `batch_input_shape` argument to "
                             "your first layer. If your first layer is an Embedding, you "
                             "can also use the `input_length` argument.\n- If using the "
                             "functional API, specify the time dimension by passing a "
                             "`shape` or `batch_shape` argument to your Input layer.")
        kwargs = {}
        if _has_arg(self.cell.call, "training"):
            kwargs["training"] = training
        is_tf_rnn_cell = getattr(self.cell, "_is_tf_rnn_cell", None) is not None
        cell_call_fn = self.cell.__call__ if callable(self.cell) else self.cell.call
        num_constants = self._num_constants
        if constants:
            if not _has_arg(self.cell.call, "constants"):
                raise ValueError(f"RNN cell {self.cell} does not support constants. "
                                 f"Received: constants={constants}")

        def step(step_inputs: Any, states: Any) -> tuple:
            step_constants = None
            if constants:
                step_constants = states[-num_constants:]
                states = states[:-num_constants]
            states = states[0] if len(states) == 1 and is_tf_rnn_cell else states
            if constants:
                output, new_states = cell_call_fn(step_inputs, states,
                                                  constants=step_constants, **kwargs)
            else:
                output, new_states = cell_call_fn(step_inputs, states, **kwargs)
            if not nest.is_nested(new_states):
                new_states = [new_states]
            return output, new_states

        last_output, outputs, states = backend_rnn(
            step, inputs, initial_state, constants=constants, go_backwards=self.go_backwards,
            mask=mask, unroll=self.unroll, input_length=timesteps, time_major=self.time_major,
            zero_output_for_mask=self.zero_output_for_mask,
            return_all_outputs=self.return_sequences)
        if self.stateful:
            self._record_states(states)
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            states = list(states) if isinstance(states, (list, tuple)) else [states]
            return (output if isinstance(output, list) else [output]) + states
        return output

    def get_config(self) -> dict:
        config = {"return_sequences": self.return_sequences,
                  "return_state": self.return_state, "go_backwards": self.go_backwards,
                  "stateful": self.stateful, "unroll": self.unroll,
                  "time_major": self.time_major}
        if self._num_constants:
            config["num_constants"] = self._num_constants
        if self.zero_output_for_mask:
            config["zero_output_for_mask"] = self.zero_output_for_mask
        config["cell"] = {"class_name": type(self.cell).__name__,
                          "config": self.cell.get_config()}
        return {**Layer.get_config(self), **config}


# The cell arguments SimpleRNN/LSTM/GRU forward, and the layer properties that read them.
_CELL_PROPERTIES = ("units", "activation", "use_bias", "kernel_initializer",
                    "recurrent_initializer", "bias_initializer", "kernel_regularizer",
                    "recurrent_regularizer", "bias_regularizer", "kernel_constraint",
                    "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout")


class _CellLayer(RNN):
    """An RNN layer that builds its own cell from the constructor's arguments."""

    _cell_class: type = SimpleRNNCell
    _cell_name = ""
    _cell_args: tuple = ()

    def __init__(self, units: int, activity_regularizer: Any = None,
                 return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 **kwargs: Any):
        cell_kwargs = {name: kwargs.pop(name) for name in self._cell_args if name in kwargs}
        implementation = kwargs.pop("implementation", 1)
        if self._cell_class is not SimpleRNNCell:
            cell_kwargs["implementation"] = implementation
        if "enable_caching_device" in kwargs:
            cell_kwargs["enable_caching_device"] = kwargs.pop("enable_caching_device")
        cell = self._cell_class(units, dtype=kwargs.get("dtype"),
                                trainable=kwargs.get("trainable", True),
                                name=self._cell_name, **cell_kwargs)
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll, **kwargs)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.input_spec = [InputSpec(ndim=3)]

    def call(self, inputs: Any, mask: Any = None, training: Any = None,
             initial_state: Any = None) -> Any:
        return super().call(inputs, mask=mask, training=training, initial_state=initial_state)

    def get_config(self) -> dict:
        config = {k: v for k, v in self.cell.get_config().items()
                  if k not in ("name", "trainable", "dtype")}
        base = RNN.get_config(self)
        base.pop("cell")
        return config_in_tf_order({**base, **config, "activity_regularizer":
                                   regularizers.serialize(self.activity_regularizer)})

    @classmethod
    def from_config(cls, config: dict) -> "RNN":
        return cls(**config)


def _delegate(name: str) -> property:
    return property(lambda self: getattr(self.cell, name), doc=f"The cell's `{name}`.")


for _name in _CELL_PROPERTIES + ("recurrent_activation", "unit_forget_bias",
                                 "implementation", "reset_after"):
    setattr(_CellLayer, _name, _delegate(_name))

_COMMON_ARGS = ("activation", "use_bias", "kernel_initializer", "recurrent_initializer",
                "bias_initializer", "kernel_regularizer", "recurrent_regularizer",
                "bias_regularizer", "kernel_constraint", "recurrent_constraint",
                "bias_constraint", "dropout", "recurrent_dropout")


class SimpleRNN(_CellLayer):
    """`tf.keras.layers.SimpleRNN(units, ...)`: a fully-connected RNN."""

    _cell_class = SimpleRNNCell
    _cell_name = "simple_rnn_cell"
    _cell_args = _COMMON_ARGS

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, **kwargs: Any):
        super().__init__(units, activity_regularizer=activity_regularizer,
                         return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, dropout=dropout,
                         recurrent_dropout=recurrent_dropout, **kwargs)


class LSTM(_CellLayer):
    """`tf.keras.layers.LSTM(units, ...)` (TF1: `recurrent_activation='hard_sigmoid'`,
    implementation 1). Returns `[output, h, c]` with `return_state=True`."""

    _cell_class = LSTMCell
    _cell_name = "lstm_cell"
    _cell_args = _COMMON_ARGS + ("recurrent_activation", "unit_forget_bias")

    def __init__(self, units: int, activation: Any = "tanh",
                 recurrent_activation: Any = "hard_sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, unroll: bool = False,
                 **kwargs: Any):
        super().__init__(units, activity_regularizer=activity_regularizer,
                         return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
                         kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, dropout=dropout,
                         recurrent_dropout=recurrent_dropout, **kwargs)


class GRU(_CellLayer):
    """`tf.keras.layers.GRU(units, ...)` (TF1: `recurrent_activation='hard_sigmoid'`,
    `reset_after=False`)."""

    _cell_class = GRUCell
    _cell_name = "gru_cell"
    _cell_args = _COMMON_ARGS + ("recurrent_activation", "reset_after")

    def __init__(self, units: int, activation: Any = "tanh",
                 recurrent_activation: Any = "hard_sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, unroll: bool = False, reset_after: bool = False,
                 **kwargs: Any):
        super().__init__(units, activity_regularizer=activity_regularizer,
                         return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, unroll=unroll,
                         activation=activation, recurrent_activation=recurrent_activation,
                         use_bias=use_bias, kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, dropout=dropout,
                         recurrent_dropout=recurrent_dropout, reset_after=reset_after,
                         **kwargs)

