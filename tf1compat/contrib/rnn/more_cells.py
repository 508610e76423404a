"""The research cells of TF 1.15's contrib/rnn/python/ops/rnn_cell.py: the convolutional
LSTMs (ConvLSTMCell, Conv1D/2D/3DLSTMCell), SRUCell, IndRNNCell, IndyGRUCell, IndyLSTMCell,
NASCell, UGRNNCell, IntersectionRNNCell, CoupledInputForgetGateLSTMCell, PhasedLSTMCell and
GLSTMCell.

Each keeps TF's variable names and scopes (so checkpoints interchange), its state and
output sizes and its math, written with the same tf.* ops TF's cells use.
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import GraphKeys, add_to_collection, get_collection
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.ops import namespace as ops
from tf1compat.ops.array_ops import stop_gradient
from tf1compat.ops.math_ops import exp, log, mod
from tf1compat.ops.nn_conv import conv1d, conv2d, conv3d
from tf1compat.ops.nn_ops import relu
from tf1compat.rnn.cell_base import LayerRNNCell, LSTMStateTuple, RNNCell
from tf1compat.contrib.rnn.contrib_cells import _Linear
from tf1compat.variables.init_ops import Constant, RandomUniform, Zeros
from tf1compat.variables.variable_scope import (get_variable, get_variable_scope,
                                                variable_scope)

__all__ = ["ConvLSTMCell", "Conv1DLSTMCell", "Conv2DLSTMCell", "Conv3DLSTMCell", "SRUCell",
           "IndRNNCell", "IndyGRUCell", "IndyLSTMCell", "NASCell", "UGRNNCell",
           "IntersectionRNNCell", "CoupledInputForgetGateLSTMCell", "PhasedLSTMCell",
           "GLSTMCell"]


def _input_depth(inputs_shape: Any) -> int:
    depth = dimension_value(TensorShape(inputs_shape)[1])
    if depth is None:
        raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: {inputs_shape}")
    return depth


def _known_input_size(inputs: Any) -> int:
    size = inputs.get_shape().with_rank(2).dims[1].value
    if size is None:
        raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
    return size


class _UnitsState:
    """state_size = output_size = num_units."""

    _num_units: int

    @property
    def state_size(self) -> int:
        return self._num_units

    @property
    def output_size(self) -> int:
        return self._num_units


class _LSTMUnitsState:
    """state_size = LSTMStateTuple(num_units, num_units), output_size = num_units."""

    _num_units: int

    @property
    def state_size(self) -> LSTMStateTuple:
        return LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self) -> int:
        return self._num_units


class _StoredSizes:
    """state_size and output_size as computed in __init__."""

    _state_size: Any
    _output_size: Any

    @property
    def state_size(self) -> Any:
        return self._state_size

    @property
    def output_size(self) -> Any:
        return self._output_size


# -- convolutional LSTMs -----------------------------------------------------------------------

def _conv(args: List[Any], filter_size: List[int], num_features: int, bias: bool,
          bias_start: float = 0.0) -> Any:
    """SAME convolution of the channel-concatenated `args` (variables `kernel`, `biases`)."""
    shapes = [a.get_shape().as_list() for a in args]
    rank = len(shapes[0])
    depth = 0
    for shape in shapes:
        if len(shape) not in (3, 4, 5):
            raise ValueError(f"Conv Linear expects 3D, 4D or 5D arguments: {shapes}")
        if len(shape) != rank:
            raise ValueError(f"Conv Linear expects all args to be of same Dimension: {shapes}")
        depth += shape[-1]
    dtype = args[0].dtype
    conv_op: Callable[..., Any] = {3: conv1d, 4: conv2d, 5: conv3d}[rank]
    strides: Any = 1 if rank == 3 else rank * [1]
    kernel = get_variable("kernel", filter_size + [depth, num_features], dtype=dtype)
    value = args[0] if len(args) == 1 else ops.concat(args, axis=rank - 1)
    res = conv_op(value, kernel, strides, padding="SAME")
    if not bias:
        return res
    bias_term = get_variable("biases", [num_features], dtype=dtype,
                             initializer=Constant(bias_start, dtype=dtype))
    return res + bias_term


class ConvLSTMCell(_StoredSizes, RNNCell):
    """`tf.contrib.rnn.ConvLSTMCell`: an LSTM whose gates are SAME convolutions of
    [inputs, hidden] (one `kernel` of shape kernel_shape + [in + out, 4 * out] and
    `biases`); gates i, j, f, o; `skip_connection` appends the inputs to the output."""

    def __init__(self, conv_ndims: int, input_shape: Any, output_channels: int,
                 kernel_shape: Any, use_bias: bool = True, skip_connection: bool = False,
                 forget_bias: float = 1.0, initializers: Any = None,
                 name: str = "conv_lstm_cell"):
        super().__init__(name=name)
        if conv_ndims != len(input_shape) - 1:
            raise ValueError(f"Invalid input_shape {input_shape} for conv_ndims={conv_ndims}.")
        self._conv_ndims = conv_ndims
        self._input_shape = list(input_shape)
        self._output_channels = output_channels
        self._kernel_shape = list(kernel_shape)
        self._use_bias = use_bias
        self._forget_bias = forget_bias
        self._skip_connection = skip_connection
        total = output_channels + (self._input_shape[-1] if skip_connection else 0)
        state_size = TensorShape(self._input_shape[:-1] + [output_channels])
        self._state_size = LSTMStateTuple(state_size, state_size)
        self._output_size = TensorShape(self._input_shape[:-1] + [total])

    def call(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        cell, hidden = state
        new_hidden = _conv([inputs, hidden], self._kernel_shape, 4 * self._output_channels,
                           self._use_bias)
        input_gate, new_input, forget_gate, output_gate = ops.split(
            value=new_hidden, num_or_size_splits=4, axis=self._conv_ndims + 1)
        new_cell = ops.sigmoid(forget_gate + self._forget_bias) * cell
        new_cell += ops.sigmoid(input_gate) * ops.tanh(new_input)
        output = ops.tanh(new_cell) * ops.sigmoid(output_gate)
        if self._skip_connection:
            output = ops.concat([output, inputs], axis=-1)
        return output, LSTMStateTuple(new_cell, output)


class Conv1DLSTMCell(ConvLSTMCell):
    """`tf.contrib.rnn.Conv1DLSTMCell`: ConvLSTMCell over [batch, width, channels]."""

    def __init__(self, name: str = "conv_1d_lstm_cell", **kwargs: Any):
        super().__init__(conv_ndims=1, name=name, **kwargs)


class Conv2DLSTMCell(ConvLSTMCell):
    """`tf.contrib.rnn.Conv2DLSTMCell`: ConvLSTMCell over [batch, h, w, channels]."""

    def __init__(self, name: str = "conv_2d_lstm_cell", **kwargs: Any):
        super().__init__(conv_ndims=2, name=name, **kwargs)


class Conv3DLSTMCell(ConvLSTMCell):
    """`tf.contrib.rnn.Conv3DLSTMCell`: ConvLSTMCell over [batch, d, h, w, channels]."""

    def __init__(self, name: str = "conv_3d_lstm_cell", **kwargs: Any):
        super().__init__(conv_ndims=3, name=name, **kwargs)


# -- simple recurrent units and independently recurrent cells -----------------------------------

class SRUCell(_UnitsState, LayerRNNCell):
    """`tf.contrib.rnn.SRUCell` (Lei et al. 2017): variables `kernel` [in, 4 * units] and
    `bias` [2 * units]; the state is the cell c, the output r * act(c) + (1 - r) * x_tx."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None,
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(_reuse=reuse, name=name, **kwargs)
        self._num_units = num_units
        self._activation = activation or ops.tanh
        self.input_spec = InputSpec(ndim=2)

    def build(self, inputs_shape: Any) -> None:
        depth = _input_depth(inputs_shape)
        self._kernel = self.add_weight("kernel", shape=[depth, 4 * self._num_units])
        self._bias = self.add_weight("bias", shape=[2 * self._num_units], initializer=Zeros())
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        u = ops.matmul(inputs, self._kernel)
        x_bar, f_intermediate, r_intermediate, x_tx = ops.split(value=u, num_or_size_splits=4,
                                                                axis=1)
        f_r = ops.sigmoid(ops.bias_add(ops.concat([f_intermediate, r_intermediate], 1),
                                       self._bias))
        f, r = ops.split(value=f_r, num_or_size_splits=2, axis=1)
        c = f * state + (1.0 - f) * x_bar
        h = r * self._activation(c) + (1.0 - r) * x_tx
        return h, c


def _recurrent_diag(dtype: Any) -> RandomUniform:
    # TF's default for the elementwise recurrent weights (`kernel_u`).
    return RandomUniform(minval=-1, maxval=1, dtype=dtype)


class IndRNNCell(_UnitsState, LayerRNNCell):
    """`tf.contrib.rnn.IndRNNCell` (Li et al. 2018): act(x W + h * u + b) with variables
    `kernel_w` [in, units], `kernel_u` [1, units] and `bias`."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None,
                 name: Optional[str] = None, dtype: Any = None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or ops.tanh

    def build(self, inputs_shape: Any) -> None:
        depth, n = _input_depth(inputs_shape), self._num_units
        self._kernel_w = self.add_weight("kernel_w", shape=[depth, n])
        self._kernel_u = self.add_weight("kernel_u", shape=[1, n],
                                         initializer=_recurrent_diag(self.dtype))
        self._bias = self.add_weight("bias", shape=[n], initializer=Zeros(dtype=self.dtype))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        gate_inputs = ops.matmul(inputs, self._kernel_w) + state * self._kernel_u
        output = self._activation(ops.bias_add(gate_inputs, self._bias))
        return output, output


class IndyGRUCell(_UnitsState, LayerRNNCell):
    """`tf.contrib.rnn.IndyGRUCell`: a GRU whose recurrent weights are diagonal
    (variables `gates/kernel_w`, `gates/kernel_u`, `gates/bias`, `candidate/kernel`,
    `candidate/kernel_u`, `candidate/bias`)."""

    def __init__(self, num_units: int, activation: Any = None, reuse: Any = None,
                 kernel_initializer: Any = None, bias_initializer: Any = None,
                 name: Optional[str] = None, dtype: Any = None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._activation = activation or ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape: Any) -> None:
        depth, n = _input_depth(inputs_shape), self._num_units
        bias_init = self._bias_initializer
        self._gate_kernel_w = self.add_weight("gates/kernel_w", shape=[depth, 2 * n],
                                              initializer=self._kernel_initializer)
        self._gate_kernel_u = self.add_weight("gates/kernel_u", shape=[1, 2 * n],
                                              initializer=_recurrent_diag(self.dtype))
        self._gate_bias = self.add_weight(
            "gates/bias", shape=[2 * n],
            initializer=bias_init if bias_init is not None else Constant(1.0,
                                                                         dtype=self.dtype))
        self._candidate_kernel_w = self.add_weight("candidate/kernel", shape=[depth, n],
                                                   initializer=self._kernel_initializer)
        self._candidate_kernel_u = self.add_weight("candidate/kernel_u", shape=[1, n],
                                                   initializer=_recurrent_diag(self.dtype))
        self._candidate_bias = self.add_weight(
            "candidate/bias", shape=[n],
            initializer=bias_init if bias_init is not None else Zeros(dtype=self.dtype))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        gate_inputs = ops.matmul(inputs, self._gate_kernel_w) + (
            ops.tile(state, [1, 2]) * self._gate_kernel_u)
        value = ops.sigmoid(ops.bias_add(gate_inputs, self._gate_bias))
        r, u = ops.split(value=value, num_or_size_splits=2, axis=1)
        candidate = ops.matmul(inputs, self._candidate_kernel_w) + (
            r * state * self._candidate_kernel_u)
        c = self._activation(ops.bias_add(candidate, self._candidate_bias))
        new_h = u * state + (1 - u) * c
        return new_h, new_h


class IndyLSTMCell(_LSTMUnitsState, LayerRNNCell):
    """`tf.contrib.rnn.IndyLSTMCell`: an LSTM whose recurrent weights are diagonal
    (variables `kernel_w` [in, 4 * units], `kernel_u` [1, 4 * units], `bias`; gates
    i, j, f, o)."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, activation: Any = None,
                 reuse: Any = None, kernel_initializer: Any = None,
                 bias_initializer: Any = None, name: Optional[str] = None, dtype: Any = None):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self.input_spec = InputSpec(ndim=2)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._activation = activation or ops.tanh
        self._kernel_initializer = kernel_initializer
        self._bias_initializer = bias_initializer

    def build(self, inputs_shape: Any) -> None:
        depth, n = _input_depth(inputs_shape), self._num_units
        self._kernel_w = self.add_weight("kernel_w", shape=[depth, 4 * n],
                                         initializer=self._kernel_initializer)
        self._kernel_u = self.add_weight("kernel_u", shape=[1, 4 * n],
                                         initializer=_recurrent_diag(self.dtype))
        self._bias = self.add_weight(
            "bias", shape=[4 * n],
            initializer=self._bias_initializer if self._bias_initializer is not None
            else Zeros(dtype=self.dtype))
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        c, h = state
        gate_inputs = ops.matmul(inputs, self._kernel_w)
        gate_inputs += ops.tile(h, [1, 4]) * self._kernel_u
        gate_inputs = ops.bias_add(gate_inputs, self._bias)
        i, j, f, o = ops.split(value=gate_inputs, num_or_size_splits=4,
                               axis=ops.constant(1, dtype=D.int32))
        forget_bias = ops.constant(self._forget_bias, dtype=f.dtype)
        new_c = ops.add(ops.multiply(c, ops.sigmoid(ops.add(f, forget_bias))),
                        ops.multiply(ops.sigmoid(i), self._activation(j)))
        new_h = ops.multiply(self._activation(new_c), ops.sigmoid(o))
        return new_h, LSTMStateTuple(new_c, new_h)


# -- NAS, UGRNN, Intersection RNN --------------------------------------------------------------

class NASCell(_StoredSizes, LayerRNNCell):
    """`tf.contrib.rnn.NASCell` (Zoph & Le 2017): variables `kernel` [in, 8 * units],
    `recurrent_kernel` [proj or units, 8 * units], optional `bias` and
    `projection_weights`."""

    _NAS_BASE = 8

    def __init__(self, num_units: int, num_proj: Optional[int] = None, use_bias: bool = False,
                 reuse: Any = None, **kwargs: Any):
        super().__init__(_reuse=reuse, **kwargs)
        self._num_units = num_units
        self._num_proj = num_proj
        self._use_bias = use_bias
        out = num_proj if num_proj is not None else num_units
        self._state_size = LSTMStateTuple(num_units, out)
        self._output_size = out

    def build(self, inputs_shape: Any) -> None:
        input_size = dimension_value(TensorShape(inputs_shape).with_rank(2)[1])
        if input_size is None:
            raise ValueError("Could not infer input size from inputs.get_shape()[-1]")
        n, base = self._num_units, self._NAS_BASE
        num_proj = n if self._num_proj is None else self._num_proj
        self.recurrent_kernel = self.add_weight("recurrent_kernel", [num_proj, base * n])
        self.kernel = self.add_weight("kernel", [input_size, base * n])
        if self._use_bias:
            self.bias = self.add_weight("bias", shape=[base * n], initializer=Zeros())
        if self._num_proj is not None:
            self.projection_weights = self.add_weight("projection_weights",
                                                      [n, self._num_proj])
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        sigmoid, tanh = ops.sigmoid, ops.tanh
        c_prev, m_prev = state
        m_matrix = ops.matmul(m_prev, self.recurrent_kernel)
        inputs_matrix = ops.matmul(inputs, self.kernel)
        if self._use_bias:
            m_matrix = ops.bias_add(m_matrix, self.bias)
        m = ops.split(axis=1, num_or_size_splits=self._NAS_BASE, value=m_matrix)
        x = ops.split(axis=1, num_or_size_splits=self._NAS_BASE, value=inputs_matrix)
        layer1 = [sigmoid(x[0] + m[0]), relu(x[1] + m[1]), sigmoid(x[2] + m[2]),
                  relu(x[3] * m[3]), tanh(x[4] + m[4]), sigmoid(x[5] + m[5]),
                  tanh(x[6] + m[6]), sigmoid(x[7] + m[7])]
        l2_0 = tanh(layer1[0] * layer1[1])
        l2_1 = tanh(layer1[2] + layer1[3])
        l2_2 = tanh(layer1[4] * layer1[5])
        l2_3 = sigmoid(layer1[6] + layer1[7])
        l2_0 = tanh(l2_0 + c_prev)
        new_c = l2_0 * l2_1
        new_m = tanh(new_c * tanh(l2_2 + l2_3))
        if self._num_proj is not None:
            new_m = ops.matmul(new_m, self.projection_weights)
        return new_m, LSTMStateTuple(new_c, new_m)


class UGRNNCell(_UnitsState, RNNCell):
    """`tf.contrib.rnn.UGRNNCell` (Collins et al. 2017): one gate g and candidate c from
    [inputs, state] (variables `kernel`, `bias`); new state g * state + (1 - g) * c."""

    def __init__(self, num_units: int, initializer: Any = None, forget_bias: float = 1.0,
                 activation: Any = ops.tanh, reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._activation = activation
        self._linear: Optional[_Linear] = None

    def call(self, inputs: Any, state: Any) -> Any:
        _known_input_size(inputs)
        with variable_scope(get_variable_scope(), initializer=self._initializer):
            cell_inputs = ops.concat([inputs, state], 1)
            if self._linear is None:
                self._linear = _Linear(cell_inputs, 2 * self._num_units, True)
            g_act, c_act = ops.split(axis=1, num_or_size_splits=2,
                                     value=self._linear(cell_inputs))
            c = self._activation(c_act)
            g = ops.sigmoid(g_act + self._forget_bias)
            new_state = g * state + (1.0 - g) * c
        return new_state, new_state


class IntersectionRNNCell(_UnitsState, RNNCell):
    """`tf.contrib.rnn.IntersectionRNNCell` (Collins et al. 2017): a state path through
    time and an output path through depth (variables `kernel`, `bias`, and
    `in_projection/kernel`, `in_projection/bias` when the input size differs)."""

    def __init__(self, num_units: int, num_in_proj: Optional[int] = None,
                 initializer: Any = None, forget_bias: float = 1.0,
                 y_activation: Any = relu, reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._forget_bias = forget_bias
        self._num_input_proj = num_in_proj
        self._y_activation = y_activation
        self._linear1: Optional[_Linear] = None
        self._linear2: Optional[_Linear] = None

    def call(self, inputs: Any, state: Any) -> Any:
        input_size = _known_input_size(inputs)
        with variable_scope(get_variable_scope(), initializer=self._initializer):
            if input_size != self._num_units:
                if not self._num_input_proj:
                    raise ValueError("Must have input size == output size for Intersection "
                                     "RNN. To fix, num_in_proj should be set to num_units at "
                                     "cell init.")
                with variable_scope("in_projection"):
                    if self._linear1 is None:
                        self._linear1 = _Linear(inputs, self._num_units, True)
                    inputs = self._linear1(inputs)
            n = self._num_units
            cell_inputs = ops.concat([inputs, state], 1)
            if self._linear2 is None:
                self._linear2 = _Linear(cell_inputs, 4 * n, True)
            rnn_matrix = self._linear2(cell_inputs)
            gh_act, h_act = rnn_matrix[:, :n], rnn_matrix[:, n:2 * n]
            gy_act, y_act = rnn_matrix[:, 2 * n:3 * n], rnn_matrix[:, 3 * n:4 * n]
            h = ops.tanh(h_act)
            y = self._y_activation(y_act)
            gh = ops.sigmoid(gh_act + self._forget_bias)
            gy = ops.sigmoid(gy_act + self._forget_bias)
            new_state = gh * state + (1.0 - gh) * h
            new_y = gy * inputs + (1.0 - gy) * y
        return new_y, new_state


# -- coupled input-forget gate LSTM -----------------------------------------------------------

def _get_sharded_variable(name: str, shape: List[int], dtype: Any, num_shards: int) -> list:
    if num_shards > shape[0]:
        raise ValueError(f"Too many shards: shape={shape}, num_shards={num_shards}")
    unit = int(math.floor(shape[0] / num_shards))
    remaining = shape[0] - unit * num_shards
    return [get_variable(f"{name}_{i}", [unit + (1 if i < remaining else 0)] + shape[1:],
                         dtype=dtype) for i in range(num_shards)]


def _get_concat_variable(name: str, shape: List[int], dtype: Any, num_shards: int) -> Any:
    """The variable `name` in `num_shards` row shards `<name>_<i>`, concatenated once per
    scope (the concat is kept in the CONCATENATED_VARIABLES collection, as TF does)."""
    shards = _get_sharded_variable(name, shape, dtype, num_shards)
    if len(shards) == 1:
        return shards[0]
    concat_name = name + "/concat"
    full_name = get_variable_scope().name + "/" + concat_name + ":0"
    for value in get_collection(GraphKeys.CONCATENATED_VARIABLES):
        if value.name == full_name:
            return value
    concat = ops.concat(shards, 0, name=concat_name)
    add_to_collection(GraphKeys.CONCATENATED_VARIABLES, concat)
    return concat


def _norm(gain: float, shift: float, inp: Any, scope: str) -> Any:
    from tf1compat.contrib.layers.layers import layer_norm
    shape = inp.get_shape()[-1:]
    with variable_scope(scope):
        get_variable("gamma", shape=shape, initializer=Constant(gain))
        get_variable("beta", shape=shape, initializer=Constant(shift))
    return layer_norm(inp, reuse=True, scope=scope)


class CoupledInputForgetGateLSTMCell(_StoredSizes, RNNCell):
    """`tf.contrib.rnn.CoupledInputForgetGateLSTMCell`: an LSTM whose input gate is
    1 - forget gate (variables `W_<i>` shards, `B`, peepholes `W_F_diag`, `W_O_diag`,
    projection `W_P_<i>`; gates j, f, o; optional layer normalization)."""

    def __init__(self, num_units: int, use_peepholes: bool = False, initializer: Any = None,
                 num_proj: Optional[int] = None, proj_clip: Optional[float] = None,
                 num_unit_shards: int = 1, num_proj_shards: int = 1,
                 forget_bias: float = 1.0, state_is_tuple: bool = True,
                 activation: Any = ops.tanh, reuse: Any = None, layer_norm: bool = False,
                 norm_gain: float = 1.0, norm_shift: float = 0.0):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._initializer = initializer
        self._num_proj = num_proj
        self._proj_clip = proj_clip
        self._num_unit_shards = num_unit_shards
        self._num_proj_shards = num_proj_shards
        self._forget_bias = forget_bias
        self._state_is_tuple = state_is_tuple
        self._activation = activation
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift
        out = num_proj if num_proj else num_units
        self._state_size: Any = LSTMStateTuple(num_units, out) if state_is_tuple \
            else num_units + out
        self._output_size = out

    def call(self, inputs: Any, state: Any) -> Any:
        sigmoid = ops.sigmoid
        num_proj = self._num_units if self._num_proj is None else self._num_proj
        if self._state_is_tuple:
            c_prev, m_prev = state
        else:
            c_prev = ops.slice(state, [0, 0], [-1, self._num_units])
            m_prev = ops.slice(state, [0, self._num_units], [-1, num_proj])
        dtype = inputs.dtype
        input_size = _known_input_size(inputs)
        concat_w = _get_concat_variable("W", [input_size + num_proj, 3 * self._num_units],
                                        dtype, self._num_unit_shards)
        b = get_variable("B", shape=[3 * self._num_units], initializer=Zeros(), dtype=dtype)
        lstm_matrix = ops.matmul(ops.concat([inputs, m_prev], 1), concat_w)
        if not self._layer_norm:
            lstm_matrix = ops.bias_add(lstm_matrix, b)
        j, f, o = ops.split(value=lstm_matrix, num_or_size_splits=3, axis=1)
        if self._layer_norm:
            j = _norm(self._norm_gain, self._norm_shift, j, "transform")
            f = _norm(self._norm_gain, self._norm_shift, f, "forget")
            o = _norm(self._norm_gain, self._norm_shift, o, "output")
        if self._use_peepholes:
            w_f_diag = get_variable("W_F_diag", shape=[self._num_units], dtype=dtype)
            w_o_diag = get_variable("W_O_diag", shape=[self._num_units], dtype=dtype)
            f_act = sigmoid(f + self._forget_bias + w_f_diag * c_prev)
        else:
            f_act = sigmoid(f + self._forget_bias)
        c = f_act * c_prev + (1 - f_act) * self._activation(j)
        if self._layer_norm:
            c = _norm(self._norm_gain, self._norm_shift, c, "state")
        if self._use_peepholes:
            m = sigmoid(o + w_o_diag * c) * self._activation(c)
        else:
            m = sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            concat_w_proj = _get_concat_variable("W_P", [self._num_units, self._num_proj],
                                                 dtype, self._num_proj_shards)
            m = ops.matmul(m, concat_w_proj)
            if self._proj_clip is not None:
                m = ops.clip_by_value(m, -self._proj_clip, self._proj_clip)
        new_state = LSTMStateTuple(c, m) if self._state_is_tuple else ops.concat([c, m], 1)
        return m, new_state


# -- phased LSTM -------------------------------------------------------------------------------

def _random_exp_initializer(minval: float, maxval: float, seed: Optional[int] = None,
                            dtype: Any = D.float32) -> Callable[..., Any]:
    """exp(uniform(log(minval), log(maxval))): periods spread evenly in log space."""
    def initializer(shape: Any, dtype: Any = dtype, partition_info: Any = None) -> Any:
        return exp(ops.random_uniform(shape, log(minval), log(maxval), dtype, seed=seed))
    return initializer


class PhasedLSTMCell(_LSTMUnitsState, RNNCell):
    """`tf.contrib.rnn.PhasedLSTMCell` (Neil et al. 2016): inputs are `(time, x)`; an LSTM
    (scopes `mask_gates`, `new_input`, `output_gate`) whose updates pass through a
    periodic time gate (variables `period`, `phase`, `ratio_on`)."""

    def __init__(self, num_units: int, use_peepholes: bool = False, leak: float = 0.001,
                 ratio_on: float = 0.1, trainable_ratio_on: bool = True,
                 period_init_min: float = 1.0, period_init_max: float = 1000.0,
                 reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._leak = leak
        self._ratio_on = ratio_on
        self._trainable_ratio_on = trainable_ratio_on
        self._period_init_min = period_init_min
        self._period_init_max = period_init_max
        self._linear1: Optional[_Linear] = None
        self._linear2: Optional[_Linear] = None
        self._linear3: Optional[_Linear] = None

    def _mod(self, x: Any, y: Any) -> Any:
        """x mod y whose gradient is the identity's (TF's custom-gradient trick)."""
        return stop_gradient(mod(x, y) - x) + x

    def _get_cycle_ratio(self, time: Any, phase: Any, period: Any) -> Any:
        phase = ops.cast(phase, dtype=time.dtype)
        period = ops.cast(period, dtype=time.dtype)
        cycle_ratio = self._mod(time - phase, period) / period
        return ops.cast(cycle_ratio, dtype=D.float32)

    def call(self, inputs: Any, state: Any) -> Any:
        c_prev, h_prev = state
        time, x = inputs
        in_mask_gates = [x, h_prev] + ([c_prev] if self._use_peepholes else [])
        with variable_scope("mask_gates"):
            if self._linear1 is None:
                self._linear1 = _Linear(in_mask_gates, 2 * self._num_units, True)
            mask_gates = ops.sigmoid(self._linear1(in_mask_gates))
            input_gate, forget_gate = ops.split(axis=1, num_or_size_splits=2,
                                                value=mask_gates)
        with variable_scope("new_input"):
            if self._linear2 is None:
                self._linear2 = _Linear([x, h_prev], self._num_units, True)
            new_input = ops.tanh(self._linear2([x, h_prev]))
        new_c = c_prev * forget_gate + input_gate * new_input
        in_out_gate = [x, h_prev] + ([new_c] if self._use_peepholes else [])
        with variable_scope("output_gate"):
            if self._linear3 is None:
                self._linear3 = _Linear(in_out_gate, self._num_units, True)
            output_gate = ops.sigmoid(self._linear3(in_out_gate))
        new_h = ops.tanh(new_c) * output_gate
        period = get_variable("period", [self._num_units],
                              initializer=_random_exp_initializer(self._period_init_min,
                                                                  self._period_init_max))
        phase = get_variable("phase", [self._num_units],
                             initializer=RandomUniform(0., period.initial_value))
        ratio_on = get_variable("ratio_on", [self._num_units],
                                initializer=Constant(self._ratio_on),
                                trainable=self._trainable_ratio_on)
        cycle_ratio = self._get_cycle_ratio(time, phase, period)
        k_up = 2 * cycle_ratio / ratio_on
        k_down = 2 - k_up
        k_closed = self._leak * cycle_ratio
        k = ops.where(cycle_ratio < ratio_on, k_down, k_closed)
        k = ops.where(cycle_ratio < 0.5 * ratio_on, k_up, k)
        new_c = k * new_c + (1 - k) * c_prev
        new_h = k * new_h + (1 - k) * h_prev
        return new_h, LSTMStateTuple(new_c, new_h)


# -- group LSTM --------------------------------------------------------------------------------

class GLSTMCell(_StoredSizes, RNNCell):
    """`tf.contrib.rnn.GLSTMCell` (Kuchaiev & Ginsburg 2017): the LSTM's input and
    recurrent state split into `number_of_groups` groups, each with its own gate kernel
    (`group<k>/kernel`), biases `bias_i`, `bias_j`, `bias_f`, `bias_o` and an optional
    `projection/kernel`."""

    def __init__(self, num_units: int, initializer: Any = None,
                 num_proj: Optional[int] = None, number_of_groups: int = 1,
                 forget_bias: float = 1.0, activation: Any = ops.tanh, reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._initializer = initializer
        self._num_proj = num_proj
        self._forget_bias = forget_bias
        self._activation = activation
        self._number_of_groups = number_of_groups
        if num_units % number_of_groups != 0:
            raise ValueError("num_units must be divisible by number_of_groups")
        if num_proj and num_proj % number_of_groups != 0:
            raise ValueError("num_proj must be divisible by number_of_groups")
        out = num_proj if num_proj else num_units
        self._group_shape = [out // number_of_groups, num_units // number_of_groups]
        self._state_size = LSTMStateTuple(num_units, out)
        self._output_size = out
        self._linear1: List[Optional[_Linear]] = [None] * number_of_groups
        self._linear2: Optional[_Linear] = None

    def _get_input_for_group(self, inputs: Any, group_id: int, group_size: int,
                             batch_size: Any) -> Any:
        return ops.slice(inputs, [0, group_id * group_size], [batch_size, group_size],
                         name=f"GLSTM_group{group_id}_input_generation")

    def call(self, inputs: Any, state: Any) -> Any:
        c_prev, m_prev = state
        batch_size = dimension_value(inputs.shape[0]) or ops.shape(inputs)[0]
        input_size = dimension_value(inputs.shape[1])
        if input_size is None:
            raise ValueError("input size must be statically known")
        if input_size % self._number_of_groups != 0:
            raise ValueError(f"input size ({input_size}) must be divisible by "
                             f"number_of_groups ({self._number_of_groups})")
        input_group_size = input_size // self._number_of_groups
        dtype = inputs.dtype
        parts: List[List[Any]] = [[], [], [], []]
        with variable_scope(get_variable_scope(), initializer=self._initializer):
            for group_id in range(self._number_of_groups):
                with variable_scope(f"group{group_id}"):
                    x_g = ops.concat([
                        self._get_input_for_group(inputs, group_id, input_group_size,
                                                  batch_size),
                        self._get_input_for_group(m_prev, group_id, self._group_shape[0],
                                                  batch_size)], axis=1)
                    if self._linear1[group_id] is None:
                        self._linear1[group_id] = _Linear(x_g, 4 * self._group_shape[1],
                                                          False)
                    for k, gate in enumerate(ops.split(self._linear1[group_id](x_g), 4, 1)):
                        parts[k].append(gate)
            i, j, f, o = [
                ops.bias_add(ops.concat(gate_parts, axis=1),
                             get_variable(f"bias_{gate}", shape=[self._num_units], dtype=dtype,
                                          initializer=Constant(0.0, dtype=dtype)))
                for gate, gate_parts in zip("ijfo", parts)]
        c = ops.sigmoid(f + self._forget_bias) * c_prev + ops.sigmoid(i) * ops.tanh(j)
        m = ops.sigmoid(o) * self._activation(c)
        if self._num_proj is not None:
            with variable_scope("projection"):
                if self._linear2 is None:
                    self._linear2 = _Linear(m, self._num_proj, False)
                m = self._linear2(m)
        return m, LSTMStateTuple(c, m)
