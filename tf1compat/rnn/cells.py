"""The TF1 cells of `tf.nn.rnn_cell`: BasicRNNCell, GRUCell, BasicLSTMCell, LSTMCell and
MultiRNNCell, with TF's weight names, layouts, gate orders and op sequences.

Weights (created at the first call, in the cell's variable scope):

| cell | weights |
|---|---|
| BasicRNNCell | `kernel [in+units, units]`, `bias [units]` (zeros) |
| GRUCell | `gates/kernel [in+units, 2*units]`, `gates/bias` (ones), `candidate/kernel [in+units, units]`, `candidate/bias` (zeros) |
| BasicLSTMCell | `kernel [in+units, 4*units]`, `bias [4*units]` (zeros); gates i, j, f, o |
| LSTMCell | as BasicLSTMCell, plus `w_f_diag`, `w_i_diag`, `w_o_diag` (peepholes), `projection/kernel [units, num_proj]` |

Kernels without an initializer take the variable scope's, else `tf.get_variable`'s
default (glorot uniform).
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.keras import activations, backend, initializers
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.ops import namespace as ops
from tf1compat.rnn.cell_base import (LayerRNNCell, LSTMStateTuple, RNNCell,
                                     check_rnn_cell_input_dtypes, check_supported_dtypes)
from tf1compat.variables.init_ops import Constant, Zeros
from tf1compat.variables.partitioned import fixed_size_partitioner
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["BasicRNNCell", "GRUCell", "BasicLSTMCell", "LSTMCell", "MultiRNNCell"]

_KERNEL = "kernel"
_BIAS = "bias"


def _input_depth(cell: Any, input_shape: Any) -> int:
    shape = list(input_shape) if not hasattr(input_shape, "as_list") else \
        input_shape.as_list()
    if shape[-1] is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, received shape: "
                         f"{tuple(shape)}")
    check_supported_dtypes(cell.dtype)
    return int(shape[-1])


def _activation(activation: Any) -> Any:
    return activations.get(activation) if activation else ops.tanh


def _zeros_for(cell: Any) -> Any:
    return Zeros(dtype=cell.dtype) if cell.dtype is not None else Zeros


class BasicRNNCell(LayerRNNCell):
    """`tf.nn.rnn_cell.BasicRNNCell`: `output = new_state = act(W [x, h] + b)`."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None,
                 name: Optional[str] = None, dtype: Any = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = _activation(activation)

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: Any) -> None:
        depth = _input_depth(self, inputs_shape)
        self._kernel = self.add_weight(_KERNEL, shape=[depth + self._num_units,
                                                       self._num_units])
        self._bias = self.add_weight(_BIAS, shape=[self._num_units],
                                     initializer=_zeros_for(self))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        check_rnn_cell_input_dtypes([inputs, state])
        gate_inputs = ops.matmul(ops.concat([inputs, state], 1), self._kernel)
        gate_inputs = ops.bias_add(gate_inputs, self._bias)
        output = self._activation(gate_inputs)
        return output, output

    def get_config(self) -> dict:
        config = {"num_units": self._num_units,
                  "activation": activations.serialize(self._activation),
                  "reuse": self._reuse}
        return {**RNNCell.get_config(self), **config}


class GRUCell(LayerRNNCell):
    """`tf.nn.rnn_cell.GRUCell` (Cho et al. 2014): reset and update gates from one matmul,
    then the candidate from `[x, r * h]`; `h' = u * h + (1 - u) * c`."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None,
                 kernel_initializer: Any = None, bias_initializer: Any = None,
                 name: Optional[str] = None, dtype: Any = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = _activation(activation)
        self._kernel_initializer = initializers.get(kernel_initializer)
        self._bias_initializer = initializers.get(bias_initializer)

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: Any) -> None:
        depth = _input_depth(self, inputs_shape)
        n = self._num_units
        self._gate_kernel = self.add_weight(f"gates/{_KERNEL}", shape=[depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            f"gates/{_BIAS}", shape=[2 * n],
            initializer=(self._bias_initializer if self._bias_initializer is not None
                         else Constant(1.0, dtype=self.dtype)))
        self._candidate_kernel = self.add_weight(f"candidate/{_KERNEL}", shape=[depth + n, n],
                                                 initializer=self._kernel_initializer)
        self._candidate_bias = self.add_weight(
            f"candidate/{_BIAS}", shape=[n],
            initializer=(self._bias_initializer if self._bias_initializer is not None
                         else Zeros(dtype=self.dtype)))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        check_rnn_cell_input_dtypes([inputs, state])
        gate_inputs = ops.matmul(ops.concat([inputs, state], 1), self._gate_kernel)
        gate_inputs = ops.bias_add(gate_inputs, self._gate_bias)
        value = ops.sigmoid(gate_inputs)
        r, u = ops.split(value=value, num_or_size_splits=2, axis=1)
        r_state = r * state
        candidate = ops.matmul(ops.concat([inputs, r_state], 1), self._candidate_kernel)
        candidate = ops.bias_add(candidate, self._candidate_bias)
        c = self._activation(candidate)
        new_h = u * state + (1 - u) * c
        return new_h, new_h

    def get_config(self) -> dict:
        config = {"num_units": self._num_units,
                  "kernel_initializer": initializers.serialize(self._kernel_initializer),
                  "bias_initializer": initializers.serialize(self._bias_initializer),
                  "activation": activations.serialize(self._activation),
                  "reuse": self._reuse}
        return {**RNNCell.get_config(self), **config}


class BasicLSTMCell(LayerRNNCell):
    """`tf.nn.rnn_cell.BasicLSTMCell`: the LSTM without peepholes, clipping or projection;
    `forget_bias` is added to the forget gate's pre-activation."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Any = None, reuse: Any = None, name: Optional[str] = None,
                 dtype: Any = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)

    @property
    def state_size(self) -> Any:
        return (LSTMStateTuple(self._num_units, self._num_units) if self._state_is_tuple
                else 2 * self._num_units)

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: Any) -> None:
        depth = _input_depth(self, inputs_shape)
        self._kernel = self.add_weight(_KERNEL, shape=[depth + self._num_units,
                                                       4 * self._num_units])
        self._bias = self.add_weight(_BIAS, shape=[4 * self._num_units],
                                     initializer=_zeros_for(self))
        self.built = True

    def _gates_kernel(self) -> Any:
        """The kernel the gates' matmul reads (model_pruning's masked cells: the kernel
        times its mask)."""
        return self._kernel

    def call(self, inputs: Any, state: Any) -> Any:
        check_rnn_cell_input_dtypes([inputs, state])
        one = ops.constant(1, dtype=D.int32)
        if self._state_is_tuple:
            c, h = state
        else:
            c, h = ops.split(value=state, num_or_size_splits=2, axis=one)
        gate_inputs = ops.matmul(ops.concat([inputs, h], 1), self._gates_kernel())
        gate_inputs = ops.bias_add(gate_inputs, self._bias)
        # i: input gate, j: new input, f: forget gate, o: output gate.
        i, j, f, o = ops.split(value=gate_inputs, num_or_size_splits=4, axis=one)
        forget_bias = ops.constant(self._forget_bias, dtype=f.dtype)
        kept = ops.multiply(c, ops.sigmoid(ops.add(f, forget_bias)))
        written = ops.multiply(ops.sigmoid(i), self._activation(j))
        new_c = ops.add(kept, written)
        new_h = ops.multiply(self._activation(new_c), ops.sigmoid(o))
        new_state = (LSTMStateTuple(new_c, new_h) if self._state_is_tuple
                     else ops.concat([new_c, new_h], 1))
        return new_h, new_state

    def get_config(self) -> dict:
        config = {"num_units": self._num_units, "forget_bias": self._forget_bias,
                  "state_is_tuple": self._state_is_tuple,
                  "activation": activations.serialize(self._activation),
                  "reuse": self._reuse}
        return {**RNNCell.get_config(self), **config}


class LSTMCell(LayerRNNCell):
    """`tf.nn.rnn_cell.LSTMCell`: the LSTM with optional peepholes (`use_peepholes`), cell
    clipping (`cell_clip`), a projection of the output (`num_proj`, `proj_clip`) and
    sharded weights (`num_unit_shards`, `num_proj_shards`)."""

    def __init__(self, num_units: int, use_peepholes: bool = False, cell_clip: Any = None,
                 initializer: Any = None, num_proj: Optional[int] = None,
                 proj_clip: Any = None, num_unit_shards: Optional[int] = None,
                 num_proj_shards: Optional[int] = None, forget_bias: float = 1.0,
                 state_is_tuple: bool = True, activation: Any = None, reuse: Any = None,
                 name: Optional[str] = None, dtype: Any = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, dtype=dtype, **kwargs)
        check_supported_dtypes(self.dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializers.get(initializer)
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = _activation(activation)
        h_size = num_proj if num_proj else num_units
        self._state_size = (LSTMStateTuple(num_units, h_size) if state_is_tuple
                            else num_units + h_size)
        self._output_size = h_size

    @property
    def state_size(self) -> Any:
        return self._state_size

    @property
    def output_size(self) -> int:
        return self._output_size

    def build(self, inputs_shape: Any) -> None:
        depth = _input_depth(self, inputs_shape)
        h_depth = self._num_units if self._num_proj is None else self._num_proj
        unit_partitioner = (fixed_size_partitioner(self._num_unit_shards)
                            if self._num_unit_shards is not None else None)
        self._kernel = self.add_weight(_KERNEL, shape=[depth + h_depth, 4 * self._num_units],
                                       initializer=self._initializer,
                                       partitioner=unit_partitioner)
        self._bias = self.add_weight(_BIAS, shape=[4 * self._num_units],
                                     initializer=_zeros_for(self))
        if self._use_peepholes:
            self._w_f_diag = self.add_weight("w_f_diag", shape=[self._num_units],
                                             initializer=self._initializer)
            self._w_i_diag = self.add_weight("w_i_diag", shape=[self._num_units],
                                             initializer=self._initializer)
            self._w_o_diag = self.add_weight("w_o_diag", shape=[self._num_units],
                                             initializer=self._initializer)
        if self._num_proj is not None:
            proj_partitioner = (fixed_size_partitioner(self._num_proj_shards)
                                if self._num_proj_shards is not None else None)
            self._proj_kernel = self.add_weight(f"projection/{_KERNEL}",
                                                shape=[self._num_units, self._num_proj],
                                                initializer=self._initializer,
                                                partitioner=proj_partitioner)
        self.built = True

    def _gates_kernel(self) -> Any:
        """The kernel the gates' matmul reads (model_pruning's masked cells: the kernel
        times its mask)."""
        return self._kernel

    def call(self, inputs: Any, state: Any) -> Any:
        check_rnn_cell_input_dtypes([inputs, state])
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        sigmoid = ops.sigmoid
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = ops.slice(state, [0, self._num_units], [-1, num_proj])
        input_size = inputs.shape.with_rank(2).as_list()[1]
        if input_size is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]."
                             f"Received input shape: {inputs.shape}")
        lstm_matrix = ops.matmul(ops.concat([inputs, m_prev], 1), self._gates_kernel())
        lstm_matrix = ops.bias_add(lstm_matrix, self._bias)
        i, j, f, o = ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
        if self._use_peepholes:
            c = (sigmoid(f + self._forget_bias + self._w_f_diag * c_prev) * c_prev +
                 sigmoid(i + self._w_i_diag * c_prev) * self._activation(j))
        else:
            c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * self._activation(j)
        if self._cell_clip is not None:
            c = ops.clip_by_value(c, -self._cell_clip, self._cell_clip)
        if self._use_peepholes:
            m = sigmoid(o + self._w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            m = ops.matmul(m, self._proj_kernel)
            if self._proj_clip is not None:
                m = ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else ops.concat([c, m], 1)
        return m, new_state

    def get_config(self) -> dict:
        config = {"num_units": self._num_units, "use_peepholes": self._use_peepholes,
                  "cell_clip": self._cell_clip,
                  "initializer": initializers.serialize(self._initializer),
                  "num_proj": self._num_proj, "proj_clip": self._proj_clip,
                  "num_unit_shards": self._num_unit_shards,
                  "num_proj_shards": self._num_proj_shards,
                  "forget_bias": self._forget_bias, "state_is_tuple": self._state_is_tuple,
                  "activation": activations.serialize(self._activation),
                  "reuse": self._reuse}
        return {**RNNCell.get_config(self), **config}


class MultiRNNCell(RNNCell):
    """`tf.nn.rnn_cell.MultiRNNCell`: cells stacked in depth; cell i runs in the variable
    scope `cell_<i>` (`rnn/multi_rnn_cell/cell_0/lstm_cell/kernel`)."""

    def __init__(self, cells: List[Any], state_is_tuple: bool = True):
        super().__init__()
        if not cells:
            raise ValueError("Must specify at least one cell for MultiRNNCell.")
        if not nest.is_nested(cells):
            raise TypeError(f"cells must be a list or tuple, but received: {cells}.")
        self._cells = cells
        for number, cell in enumerate(self._cells):
            if hasattr(cell, "_track_trackable"):
                self._track_trackable(cell, name=f"cell-{number}")
        self._state_is_tuple = state_is_tuple
        if not state_is_tuple and any(nest.is_nested(c.state_size) for c in self._cells):
            raise ValueError("Some cells return tuples of states, but the flag "
                             "state_is_tuple is not set. State sizes are: "
                             f"{[c.state_size for c in self._cells]}")

    @property
    def state_size(self) -> Any:
        if self._state_is_tuple:
            return tuple(cell.state_size for cell in self._cells)
        return sum(cell.state_size for cell in self._cells)

    @property
    def output_size(self) -> Any:
        return self._cells[-1].output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with backend.name_scope(type(self).__name__ + "ZeroState"):
            if self._state_is_tuple:
                return tuple(cell.zero_state(batch_size, dtype) for cell in self._cells)
            return super().zero_state(batch_size, dtype)

    @property
    def trainable_weights(self) -> List[Any]:
        if not self.trainable:
            return []
        weights: List[Any] = []
        for cell in self._cells:
            if hasattr(cell, "trainable_weights"):
                weights += cell.trainable_weights
        return weights

    @property
    def non_trainable_weights(self) -> List[Any]:
        weights: List[Any] = []
        for cell in self._cells:
            if hasattr(cell, "non_trainable_weights"):
                weights += cell.non_trainable_weights
        if not self.trainable:
            trainable: List[Any] = []
            for cell in self._cells:
                if hasattr(cell, "trainable_weights"):
                    trainable += cell.trainable_weights
            return trainable + weights
        return weights

    def call(self, inputs: Any, state: Any) -> Any:
        position = 0
        current = inputs
        new_states = []
        for i, cell in enumerate(self._cells):
            with variable_scope(f"cell_{i}"):
                if self._state_is_tuple:
                    if not nest.is_nested(state):
                        raise ValueError(f"Expected state to be a tuple of length "
                                         f"{len(self.state_size)}, but received: {state}")
                    cell_state = state[i]
                else:
                    cell_state = ops.slice(state, [0, position], [-1, cell.state_size])
                    position += cell.state_size
                current, new_state = cell(current, cell_state)
                new_states.append(new_state)
        return current, (tuple(new_states) if self._state_is_tuple
                         else ops.concat(new_states, 1))
