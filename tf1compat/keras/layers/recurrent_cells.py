"""Keras RNN cells (TF1 `tf.keras.layers`): SimpleRNNCell, LSTMCell, GRUCell and
StackedRNNCells, with TF 1's defaults (tf-keras' `lstm_v1`/`gru_v1`).

| cell | weights (gate order) | TF1 defaults |
|---|---|---|
| SimpleRNNCell | `kernel [in, units]`, `recurrent_kernel [units, units]`, `bias [units]` | |
| LSTMCell | `kernel [in, 4u]`, `recurrent_kernel [u, 4u]`, `bias [4u]`; gates i, f, c, o | `recurrent_activation='hard_sigmoid'`, `implementation=1`, `unit_forget_bias=True` (bias of f starts at one) |
| GRUCell | `kernel [in, 3u]`, `recurrent_kernel [u, 3u]`, `bias [3u]` (`[2, 3u]` with `reset_after`); gates z, r, h | `recurrent_activation='hard_sigmoid'`, `reset_after=False`, `implementation=1` |

`implementation=1` computes each gate with its own matmul on column slices of the
kernels (TF's op sequence); `implementation=2` does one matmul per kernel and splits.
The states are `[h, c]` for the LSTM, `[h]` otherwise. Dropout masks (`dropout`,
`recurrent_dropout`) are drawn once per RNN call, in the training phase only.
"""

from __future__ import annotations

import functools
from typing import Any, Dict, List

from tf1compat.util import nest
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import activations, backend, constraints, initializers, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.layers.weight_args import set_kernel_bias_args

__all__ = ["config_in_tf_order", "add_lstm_bias", "AbstractRNNCell", "SimpleRNNCell", "LSTMCell", "GRUCell", "StackedRNNCells",
           "is_multiple_state", "zero_filled_state"]


def _ops() -> Any:
    from tf1compat.ops import namespace as ops
    return ops


def _as_list(shape: Any) -> List[Any]:
    if isinstance(shape, TensorShape):
        return shape.as_list()
    return list(shape)


def is_multiple_state(state_size: Any) -> bool:
    """Whether `state_size` describes several states (a sequence, not a TensorShape)."""
    return hasattr(state_size, "__len__") and not isinstance(state_size, TensorShape)


def zero_filled_state(batch_size: Any, state_size: Any, dtype: Any) -> Any:
    """Zeros `[batch_size] + size` for each size in `state_size` (Keras' helper)."""
    if batch_size is None or dtype is None:
        raise ValueError("batch_size and dtype cannot be None while constructing initial "
                         f"state. Received: batch_size={batch_size}, dtype={dtype}")

    def create_zeros(size: Any) -> Any:
        return _ops().zeros([batch_size] + TensorShape(size).as_list(), dtype=dtype)
    if nest.is_nested(state_size):
        return nest.map_structure(create_zeros, state_size)
    return create_zeros(state_size)


def _zero_state_for_cell(cell: Any, inputs: Any, batch_size: Any, dtype: Any) -> Any:
    if inputs is not None:
        batch_size = _ops().shape(inputs)[0]
        dtype = inputs.dtype
    return zero_filled_state(batch_size, cell.state_size, dtype)


# The order of tf-keras's recurrent layer and cell configs (after name/trainable/dtype and
# the RNN arguments), so JSON written by tf1compat reads as tf-keras's.
_TF_CONFIG_ORDER = ("units", "activation", "recurrent_activation", "use_bias",
                    "kernel_initializer", "recurrent_initializer", "bias_initializer",
                    "unit_forget_bias", "kernel_regularizer", "recurrent_regularizer",
                    "bias_regularizer", "activity_regularizer", "kernel_constraint",
                    "recurrent_constraint", "bias_constraint", "dropout", "recurrent_dropout",
                    "implementation", "reset_after")


def config_in_tf_order(config: dict) -> dict:
    """`config` with the cell arguments in tf-keras's order, other keys first."""
    rank = {key: i for i, key in enumerate(_TF_CONFIG_ORDER)}
    first = [k for k in config if k not in rank]
    return {k: config[k] for k in first + sorted((k for k in config if k in rank),
                                                  key=rank.__getitem__)}


def add_lstm_bias(cell: Layer, units: int) -> Any:
    """An LSTM cell's bias [4 * units], gates i, f, c, o; with `unit_forget_bias` the
    forget gate's part starts at one (one initializer op per part, as tf-keras)."""
    bias_initializer = cell.bias_initializer
    if cell.unit_forget_bias:
        def bias_initializer(_: Any, *args: Any, **kwargs: Any) -> Any:
            return backend.concatenate([
                cell.bias_initializer((units,), *args, **kwargs),
                initializers.get("ones")((units,), *args, **kwargs),
                cell.bias_initializer((units * 2,), *args, **kwargs)])
    return cell.add_weight(shape=(units * 4,), name="bias", initializer=bias_initializer,
                           regularizer=cell.bias_regularizer, constraint=cell.bias_constraint)


class AbstractRNNCell(Layer):
    """`tf.keras.layers.AbstractRNNCell`: the base of a user cell, which defines `call`,
    `state_size` and `output_size`; its initial state is zeros."""

    def call(self, inputs: Any, states: Any) -> Any:
        raise NotImplementedError

    @property
    def state_size(self) -> Any:
        raise NotImplementedError

    @property
    def output_size(self) -> Any:
        raise NotImplementedError

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None,
                          dtype: Any = None) -> Any:
        return _zero_state_for_cell(self, inputs, batch_size, dtype)


class DropoutRNNCellMixin:
    """Dropout masks for cells, made once per RNN call (reset by the RNN layer) and
    reused at every step (TF's DropoutRNNCellMixin)."""

    def _init_dropout(self, dropout: float, recurrent_dropout: float) -> None:
        self.dropout = min(1.0, max(0.0, dropout))
        self.recurrent_dropout = min(1.0, max(0.0, recurrent_dropout))
        self._tf1compat_masks: Dict[str, Any] = {}

    def reset_dropout_mask(self) -> None:
        self._tf1compat_masks.pop("input", None)

    def reset_recurrent_dropout_mask(self) -> None:
        self._tf1compat_masks.pop("recurrent", None)

    def _mask(self, key: str, rate: float, inputs: Any, training: Any, count: int) -> Any:
        if rate == 0:
            return None
        if key not in self._tf1compat_masks:
            ops = _ops()
            ones = ops.ones_like(inputs)

            def dropped() -> Any:
                return ops.dropout(ones, rate=rate)

            def one_mask() -> Any:
                return backend.in_train_phase(dropped, ones, training=training)
            self._tf1compat_masks[key] = [one_mask() for _ in range(count)] if count > 1 \
                else one_mask()
        return self._tf1compat_masks[key]

    def get_dropout_mask_for_cell(self, inputs: Any, training: Any, count: int = 1) -> Any:
        return self._mask("input", self.dropout, inputs, training, count)

    def get_recurrent_dropout_mask_for_cell(self, inputs: Any, training: Any,
                                            count: int = 1) -> Any:
        return self._mask("recurrent", self.recurrent_dropout, inputs, training, count)


class _KerasCell(DropoutRNNCellMixin, Layer):
    """Shared constructor arguments of the Keras cells."""

    def __init__(self, units: int, activation: Any, use_bias: bool, kernel_initializer: Any,
                 recurrent_initializer: Any, bias_initializer: Any, kernel_regularizer: Any,
                 recurrent_regularizer: Any, bias_regularizer: Any, kernel_constraint: Any,
                 recurrent_constraint: Any, bias_constraint: Any, dropout: float,
                 recurrent_dropout: float, **kwargs: Any):
        if units <= 0:
            raise ValueError("Received an invalid value for argument `units`, expected a "
                             f"positive integer, got {units}.")
        self._enable_caching_device = kwargs.pop("enable_caching_device", False)
        self._tf1compat_implementation = kwargs.pop("implementation", None)
        super().__init__(**kwargs)
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        set_kernel_bias_args(self, kernel_initializer, bias_initializer, kernel_regularizer,
                             bias_regularizer, kernel_constraint, bias_constraint)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self._init_dropout(dropout, recurrent_dropout)

    def _set_implementation(self, default: int) -> None:
        implementation = self._tf1compat_implementation
        implementation = default if implementation is None else implementation
        # Recurrent dropout needs the per-gate form.
        self.implementation = 1 if self.recurrent_dropout != 0 else implementation

    def _add_kernels(self, input_dim: int, gates: int) -> None:
        self.kernel = self.add_weight(shape=(input_dim, self.units * gates), name="kernel",
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=(self.units, self.units * gates), name="recurrent_kernel",
            initializer=self.recurrent_initializer, regularizer=self.recurrent_regularizer,
            constraint=self.recurrent_constraint)

    def _base_config(self) -> dict:
        config = {"units": self.units, "activation": activations.serialize(self.activation),
                  "use_bias": self.use_bias,
                  "kernel_initializer": initializers.serialize(self.kernel_initializer),
                  "recurrent_initializer": initializers.serialize(self.recurrent_initializer),
                  "bias_initializer": initializers.serialize(self.bias_initializer),
                  "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                  "recurrent_regularizer": regularizers.serialize(self.recurrent_regularizer),
                  "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                  "kernel_constraint": constraints.serialize(self.kernel_constraint),
                  "recurrent_constraint": constraints.serialize(self.recurrent_constraint),
                  "bias_constraint": constraints.serialize(self.bias_constraint),
                  "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout}
        return {**Layer.get_config(self), **config}

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None,
                          dtype: Any = None) -> Any:
        return _zero_state_for_cell(self, inputs, batch_size, dtype)


class SimpleRNNCell(_KerasCell):
    """`tf.keras.layers.SimpleRNNCell`: `h = act(x W + b + h_prev U)`."""

    def __init__(self, units: int, activation: Any = "tanh", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0, **kwargs: Any):
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        self._add_kernels(_as_list(input_shape)[-1], 1)
        self.bias = self.add_weight(shape=(self.units,), name="bias",
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.built = True

    def call(self, inputs: Any, states: Any, training: Any = None) -> Any:
        prev_output = states[0] if nest.is_nested(states) else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(prev_output, training)
        h = backend.dot(inputs * dp_mask if dp_mask is not None else inputs, self.kernel)
        if self.bias is not None:
            h = backend.bias_add(h, self.bias)
        if rec_dp_mask is not None:
            prev_output = prev_output * rec_dp_mask
        output = h + backend.dot(prev_output, self.recurrent_kernel)
        if self.activation is not None:
            output = self.activation(output)
        return output, ([output] if nest.is_nested(states) else output)

    def get_config(self) -> dict:
        return self._base_config()


class LSTMCell(_KerasCell):
    """`tf.keras.layers.LSTMCell` (TF1: hard-sigmoid gates, implementation 1)."""

    def __init__(self, units: int, activation: Any = "tanh",
                 recurrent_activation: Any = "hard_sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, **kwargs: Any):
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.unit_forget_bias = unit_forget_bias
        self._set_implementation(1)
        self.state_size = [self.units, self.units]
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        self._add_kernels(_as_list(input_shape)[-1], 4)
        if not self.use_bias:
            self.bias = None
            self.built = True
            return
        self.bias = add_lstm_bias(self, self.units)
        self.built = True

    def _carry_and_output(self, x: tuple, h_tm1: tuple, c_tm1: Any) -> tuple:
        x_i, x_f, x_c, x_o = x
        h_i, h_f, h_c, h_o = h_tm1
        u, rk, act = self.units, self.recurrent_kernel, self.recurrent_activation
        i = act(x_i + backend.dot(h_i, rk[:, :u]))
        f = act(x_f + backend.dot(h_f, rk[:, u:u * 2]))
        c = f * c_tm1 + i * self.activation(x_c + backend.dot(h_c, rk[:, u * 2:u * 3]))
        o = act(x_o + backend.dot(h_o, rk[:, u * 3:]))
        return c, o

    def call(self, inputs: Any, states: Any, training: Any = None) -> Any:
        ops = _ops()
        h_tm1, c_tm1 = states[0], states[1]
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        if self.implementation == 1:
            if 0 < self.dropout < 1.0:
                xs = [inputs * m for m in dp_mask]
            else:
                xs = [inputs] * 4
            kernels = ops.split(self.kernel, num_or_size_splits=4, axis=1)
            x = [backend.dot(xi, k) for xi, k in zip(xs, kernels)]
            if self.use_bias:
                biases = ops.split(self.bias, num_or_size_splits=4, axis=0)
                x = [backend.bias_add(xi, b) for xi, b in zip(x, biases)]
            if 0 < self.recurrent_dropout < 1.0:
                hs = tuple(h_tm1 * m for m in rec_dp_mask)
            else:
                hs = (h_tm1,) * 4
            c, o = self._carry_and_output(tuple(x), hs, c_tm1)
        else:
            if 0.0 < self.dropout < 1.0:
                inputs = inputs * dp_mask[0]
            z = backend.dot(inputs, self.kernel)
            z += backend.dot(h_tm1, self.recurrent_kernel)
            if self.use_bias:
                z = backend.bias_add(z, self.bias)
            z0, z1, z2, z3 = ops.split(z, num_or_size_splits=4, axis=1)
            i = self.recurrent_activation(z0)
            f = self.recurrent_activation(z1)
            c = f * c_tm1 + i * self.activation(z2)
            o = self.recurrent_activation(z3)
        h = o * self.activation(c)
        return h, [h, c]

    def get_config(self) -> dict:
        return config_in_tf_order({
            **self._base_config(),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "unit_forget_bias": self.unit_forget_bias, "implementation": self.implementation})


class GRUCell(_KerasCell):
    """`tf.keras.layers.GRUCell` (TF1: hard-sigmoid gates, `reset_after=False`)."""

    def __init__(self, units: int, activation: Any = "tanh",
                 recurrent_activation: Any = "hard_sigmoid", use_bias: bool = True,
                 kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None,
                 dropout: float = 0.0, recurrent_dropout: float = 0.0,
                 reset_after: bool = False, **kwargs: Any):
        super().__init__(units, activation, use_bias, kernel_initializer,
                         recurrent_initializer, bias_initializer, kernel_regularizer,
                         recurrent_regularizer, bias_regularizer, kernel_constraint,
                         recurrent_constraint, bias_constraint, dropout, recurrent_dropout,
                         **kwargs)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.reset_after = reset_after
        self._set_implementation(1)
        self.state_size = self.units
        self.output_size = self.units

    def build(self, input_shape: Any) -> None:
        self._add_kernels(_as_list(input_shape)[-1], 3)
        if self.use_bias:
            shape = (3 * self.units,) if not self.reset_after else (2, 3 * self.units)
            self.bias = self.add_weight(shape=shape, name="bias",
                                        initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        else:
            self.bias = None
        self.built = True

    def call(self, inputs: Any, states: Any, training: Any = None) -> Any:
        ops = _ops()
        u = self.units
        h_tm1 = states[0] if nest.is_nested(states) else states
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=3)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=3)
        input_bias = recurrent_bias = None
        if self.use_bias:
            if not self.reset_after:
                input_bias = self.bias
            else:
                input_bias, recurrent_bias = ops.unstack(self.bias)
        act = self.recurrent_activation
        if self.implementation == 1:
            if 0.0 < self.dropout < 1.0:
                x_in = [inputs * m for m in dp_mask]
            else:
                x_in = [inputs] * 3
            x_z = backend.dot(x_in[0], self.kernel[:, :u])
            x_r = backend.dot(x_in[1], self.kernel[:, u:u * 2])
            x_h = backend.dot(x_in[2], self.kernel[:, u * 2:])
            if self.use_bias:
                x_z = backend.bias_add(x_z, input_bias[:u])
                x_r = backend.bias_add(x_r, input_bias[u:u * 2])
                x_h = backend.bias_add(x_h, input_bias[u * 2:])
            if 0.0 < self.recurrent_dropout < 1.0:
                h_z, h_r, h_h = [h_tm1 * m for m in rec_dp_mask]
            else:
                h_z = h_r = h_h = h_tm1
            recurrent_z = backend.dot(h_z, self.recurrent_kernel[:, :u])
            recurrent_r = backend.dot(h_r, self.recurrent_kernel[:, u:u * 2])
            if self.reset_after and self.use_bias:
                recurrent_z = backend.bias_add(recurrent_z, recurrent_bias[:u])
                recurrent_r = backend.bias_add(recurrent_r, recurrent_bias[u:u * 2])
            z = act(x_z + recurrent_z)
            r = act(x_r + recurrent_r)
            if self.reset_after:
                recurrent_h = backend.dot(h_h, self.recurrent_kernel[:, u * 2:])
                if self.use_bias:
                    recurrent_h = backend.bias_add(recurrent_h, recurrent_bias[u * 2:])
                recurrent_h = r * recurrent_h
            else:
                recurrent_h = backend.dot(r * h_h, self.recurrent_kernel[:, u * 2:])
            hh = self.activation(x_h + recurrent_h)
        else:
            if 0.0 < self.dropout < 1.0:
                inputs = inputs * dp_mask[0]
            matrix_x = backend.dot(inputs, self.kernel)
            if self.use_bias:
                matrix_x = backend.bias_add(matrix_x, input_bias)
            x_z, x_r, x_h = ops.split(matrix_x, 3, axis=-1)
            if self.reset_after:
                matrix_inner = backend.dot(h_tm1, self.recurrent_kernel)
                if self.use_bias:
                    matrix_inner = backend.bias_add(matrix_inner, recurrent_bias)
            else:
                matrix_inner = backend.dot(h_tm1, self.recurrent_kernel[:, :2 * u])
            recurrent_z, recurrent_r, recurrent_h = ops.split(matrix_inner, [u, u, -1],
                                                              axis=-1)
            z = act(x_z + recurrent_z)
            r = act(x_r + recurrent_r)
            if self.reset_after:
                recurrent_h = r * recurrent_h
            else:
                recurrent_h = backend.dot(r * h_tm1, self.recurrent_kernel[:, 2 * u:])
            hh = self.activation(x_h + recurrent_h)
        h = z * h_tm1 + (1 - z) * hh
        return h, ([h] if nest.is_nested(states) else h)

    def get_config(self) -> dict:
        return config_in_tf_order({
            **self._base_config(),
            "recurrent_activation": activations.serialize(self.recurrent_activation),
            "implementation": self.implementation, "reset_after": self.reset_after})


def _has_arg(fn: Any, name: str) -> bool:
    import inspect
    try:
        return name in inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False


class StackedRNNCells(Layer):
    """`tf.keras.layers.StackedRNNCells`: cells applied in depth within one time step."""

    def __init__(self, cells: List[Any], **kwargs: Any):
        for cell in cells:
            if "call" not in dir(cell):
                raise ValueError("All cells must have a `call` method. Received cell without "
                                 f"a `call` method: {cell}")
            if "state_size" not in dir(cell):
                raise ValueError("All cells must have a `state_size` attribute. Received cell "
                                 f"without a `state_size`: {cell}")
        self.reverse_state_order = kwargs.pop("reverse_state_order", False)
        super().__init__(**kwargs)
        self.cells = cells

    def _ordered(self) -> List[Any]:
        return self.cells[::-1] if self.reverse_state_order else self.cells

    @property
    def state_size(self) -> tuple:
        return tuple(c.state_size for c in self._ordered())

    @property
    def output_size(self) -> Any:
        last = self.cells[-1]
        if getattr(last, "output_size", None) is not None:
            return last.output_size
        if is_multiple_state(last.state_size):
            return last.state_size[0]
        return last.state_size

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None,
                          dtype: Any = None) -> tuple:
        states = []
        for cell in self._ordered():
            fn = getattr(cell, "get_initial_state", None)
            states.append(fn(inputs=inputs, batch_size=batch_size, dtype=dtype) if fn
                          else _zero_state_for_cell(cell, inputs, batch_size, dtype))
        return tuple(states)

    def call(self, inputs: Any, states: Any, constants: Any = None, training: Any = None,
             **kwargs: Any) -> Any:
        state_size = self.state_size[::-1] if self.reverse_state_order else self.state_size
        nested_states = nest.pack_sequence_as(state_size, nest.flatten(states))
        new_nested_states = []
        for cell, cell_states in zip(self.cells, nested_states):
            cell_states = cell_states if nest.is_nested(cell_states) else [cell_states]
            if getattr(cell, "_is_tf_rnn_cell", None) is not None and len(cell_states) == 1:
                cell_states = cell_states[0]
            if _has_arg(cell.call, "training"):
                kwargs["training"] = training
            else:
                kwargs.pop("training", None)
            call_fn = cell.__call__ if callable(cell) else cell.call
            if _has_arg(cell.call, "constants"):
                inputs, cell_states = call_fn(inputs, cell_states, constants=constants,
                                              **kwargs)
            else:
                inputs, cell_states = call_fn(inputs, cell_states, **kwargs)
            new_nested_states.append(cell_states)
        return inputs, nest.pack_sequence_as(state_size, nest.flatten(new_nested_states))

    def build(self, input_shape: Any) -> None:
        if isinstance(input_shape, list) and input_shape and \
                not isinstance(input_shape[0], (int, type(None))):
            input_shape = input_shape[0]
        input_shape = tuple(_as_list(input_shape))
        for cell in self.cells:
            if isinstance(cell, Layer) and not cell.built:
                with backend.name_scope(cell.name):
                    cell.build(input_shape)
                    cell.built = True
            if getattr(cell, "output_size", None) is not None:
                output_dim = cell.output_size
            elif is_multiple_state(cell.state_size):
                output_dim = cell.state_size[0]
            else:
                output_dim = cell.state_size
            batch_size = input_shape[0]
            if nest.is_nested(output_dim):
                input_shape = tuple(nest.map_structure(
                    functools.partial(lambda b, d: tuple([b] + TensorShape(d).as_list()),
                                      batch_size), output_dim))
            else:
                input_shape = tuple([batch_size] + TensorShape(output_dim).as_list())
        self.built = True

    def get_config(self) -> dict:
        cells = [{"class_name": type(c).__name__, "config": c.get_config()}
                 for c in self.cells]
        return {**Layer.get_config(self), "cells": cells}

