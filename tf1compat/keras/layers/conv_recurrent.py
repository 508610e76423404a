"""Keras convolutional LSTMs: ConvLSTM1D, ConvLSTM2D, ConvLSTM3D (and their cell).

An LSTM whose input and recurrent transforms are convolutions: inputs are
[batch, time, *spatial, channels] (channels first: [batch, time, channels, *spatial]); the
cell's kernel is [*kernel_size, in, 4 * filters] and recurrent kernel [*kernel_size, filters,
4 * filters], gates in the order i, f, c, o, recurrent convolutions with stride 1 and "same"
padding, and the input ones with the layer's strides, padding and dilation. The initial state
is the convolution of the time-summed zeroed input with a zero kernel (so it has the output's
spatial shape). As tf-keras, the layer runs the cell's `call` directly (no cell name scope)
and `unroll=True` or a list of cells is a TypeError. `stateful=True` keeps the final states
in variables shaped like one step of the output (the batch size and spatial dimensions must
be static), as the other recurrent layers do (recurrent.py).
"""

from __future__ import annotations

from typing import Any, List

import numpy as np

from tf1compat.framework.tensor_shape import Dimension, TensorShape
from tf1compat.keras import (activations, backend, constraints, initializers,
                             regularizers)
from tf1compat.keras.backend_nn import conv1d, conv3d
from tf1compat.keras.backend_rnn import rnn as backend_rnn
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.recurrent import RNN
from tf1compat.keras.layers.weight_args import set_kernel_bias_args
from tf1compat.keras.layers.recurrent_cells import (DropoutRNNCellMixin, _has_arg,
                                                    add_lstm_bias)
from tf1compat.ops import array_ops, creation_ops

__all__ = ["ConvLSTMCell", "ConvLSTM1D", "ConvLSTM2D", "ConvLSTM3D"]

# The constructor arguments ConvLSTMCell takes and ConvLSTM forwards, in order.
_CELL_ARGS = ("filters", "kernel_size", "strides", "padding", "data_format", "dilation_rate",
              "activation", "recurrent_activation", "use_bias", "kernel_initializer",
              "recurrent_initializer", "bias_initializer", "unit_forget_bias",
              "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
              "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
              "recurrent_dropout")


class ConvLSTMCell(DropoutRNNCellMixin, Layer):
    """One step of a convolutional LSTM of rank 1, 2 or 3 (state: [h, c])."""

    def __init__(self, rank: int, filters: int, kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", data_format: Any = None, dilation_rate: Any = 1,
                 activation: Any = "tanh", recurrent_activation: Any = "hard_sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, **kwargs: Any):
        super().__init__(**kwargs)
        if rank > 3:
            raise ValueError(f"Rank {rank} convolutions are not currently implemented. "
                             f"Received: rank={rank}")
        self.rank = rank
        self.filters = filters
        self.kernel_size = conv_utils.normalize_tuple(kernel_size, rank, "kernel_size")
        self.strides = conv_utils.normalize_tuple(strides, rank, "strides", allow_zero=True)
        self.padding = conv_utils.normalize_padding(padding)
        self.data_format = conv_utils.normalize_data_format(data_format)
        self.dilation_rate = conv_utils.normalize_tuple(dilation_rate, rank, "dilation_rate")
        self.activation = activations.get(activation)
        self.recurrent_activation = activations.get(recurrent_activation)
        self.use_bias = use_bias
        self.unit_forget_bias = unit_forget_bias
        set_kernel_bias_args(self, kernel_initializer, bias_initializer, kernel_regularizer,
                             bias_regularizer, kernel_constraint, bias_constraint)
        self.recurrent_initializer = initializers.get(recurrent_initializer)
        self.recurrent_regularizer = regularizers.get(recurrent_regularizer)
        self.recurrent_constraint = constraints.get(recurrent_constraint)
        self._init_dropout(dropout, recurrent_dropout)
        self.state_size = (self.filters, self.filters)

    def build(self, input_shape: Any) -> None:
        dims = TensorShape(input_shape).as_list()
        channel_axis = 1 if self.data_format == "channels_first" else -1
        if dims[channel_axis] is None:
            raise ValueError("The channel dimension of the inputs (last axis) should be "
                             "defined. Found None. Full input shape received: "
                             f"input_shape={input_shape}")
        input_dim = dims[channel_axis]
        self.kernel_shape = self.kernel_size + (input_dim, self.filters * 4)
        self.kernel = self.add_weight(shape=self.kernel_shape,
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(
            shape=self.kernel_size + (self.filters, self.filters * 4),
            initializer=self.recurrent_initializer, name="recurrent_kernel",
            regularizer=self.recurrent_regularizer, constraint=self.recurrent_constraint)
        self.bias = add_lstm_bias(self, self.filters) if self.use_bias else None
        self.built = True

    def call(self, inputs: Any, states: Any, training: Any = None) -> Any:
        h_tm1, c_tm1 = states[0], states[1]
        dp_mask = self.get_dropout_mask_for_cell(inputs, training, count=4)
        rec_dp_mask = self.get_recurrent_dropout_mask_for_cell(h_tm1, training, count=4)
        if 0 < self.dropout < 1.0:
            x_parts = [inputs * m for m in dp_mask]
        else:
            x_parts = [inputs] * 4
        if 0 < self.recurrent_dropout < 1.0:
            h_parts = [h_tm1 * m for m in rec_dp_mask]
        else:
            h_parts = [h_tm1] * 4
        kernels = array_ops.split(self.kernel, 4, axis=self.rank + 1)
        recurrent_kernels = array_ops.split(self.recurrent_kernel, 4, axis=self.rank + 1)
        biases = array_ops.split(self.bias, 4) if self.use_bias else [None] * 4
        x_i, x_f, x_c, x_o = [self.input_conv(x, k, b, padding=self.padding)
                              for x, k, b in zip(x_parts, kernels, biases)]
        h_i, h_f, h_c, h_o = [self.recurrent_conv(h, k)
                              for h, k in zip(h_parts, recurrent_kernels)]
        i = self.recurrent_activation(x_i + h_i)
        f = self.recurrent_activation(x_f + h_f)
        c = f * c_tm1 + i * self.activation(x_c + h_c)
        o = self.recurrent_activation(x_o + h_o)
        h = o * self.activation(c)
        return h, [h, c]

    def _conv(self, x: Any, w: Any, strides: Any, padding: str, dilation_rate: Any) -> Any:
        conv = {1: conv1d, 2: backend.conv2d, 3: conv3d}[self.rank]
        return conv(x, w, strides=strides, padding=padding, data_format=self.data_format,
                    dilation_rate=dilation_rate)

    def input_conv(self, x: Any, w: Any, b: Any = None, padding: str = "valid") -> Any:
        """The input transform of one gate: convolution plus bias."""
        out = self._conv(x, w, self.strides, padding, self.dilation_rate)
        if b is not None:
            out = backend.bias_add(out, b, data_format=self.data_format)
        return out

    def recurrent_conv(self, x: Any, w: Any) -> Any:
        """The recurrent transform of one gate: stride 1, "same" padding, no dilation."""
        return self._conv(x, w, (1,) * self.rank, "same", (1,) * self.rank)

    def get_config(self) -> dict:
        config = {name: getattr(self, name) for name in _CELL_ARGS}
        for name in ("activation", "recurrent_activation"):
            config[name] = activations.serialize(config[name])
        for name in ("kernel_initializer", "recurrent_initializer", "bias_initializer"):
            config[name] = initializers.serialize(config[name])
        for name in ("kernel_regularizer", "recurrent_regularizer", "bias_regularizer"):
            config[name] = regularizers.serialize(config[name])
        for name in ("kernel_constraint", "recurrent_constraint", "bias_constraint"):
            config[name] = constraints.serialize(config[name])
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))


_UNKNOWN_SHAPE_MESSAGE = (
    "If a RNN is stateful, it needs to know its batch size. Specify the batch size of your "
    "input tensors: \n- If using a Sequential model, specify the batch size by passing a "
    "`batch_input_shape` argument to your first layer.\n- If using the functional API, "
    "specify the time dimension by passing a `batch_shape` argument to your Input layer.\n"
    "The same thing goes for the number of rows and columns.")


class _ConvLSTM(RNN):
    """A ConvLSTMCell of rank `_RANK` run over the time axis."""

    _RANK = 0

    def __init__(self, filters: int, kernel_size: Any, strides: Any = 1,
                 padding: str = "valid", data_format: Any = None, dilation_rate: Any = 1,
                 activation: Any = "tanh", recurrent_activation: Any = "hard_sigmoid",
                 use_bias: bool = True, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None,
                 return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, dropout: float = 0.0,
                 recurrent_dropout: float = 0.0, **kwargs: Any):
        if kwargs.pop("unroll", False):
            raise TypeError("Unrolling is not possible with convolutional RNNs. Received: "
                            "unroll=True")
        cell = ConvLSTMCell(
            rank=self._RANK, filters=filters, kernel_size=kernel_size, strides=strides,
            padding=padding, data_format=data_format, dilation_rate=dilation_rate,
            activation=activation, recurrent_activation=recurrent_activation,
            use_bias=use_bias, kernel_initializer=kernel_initializer,
            recurrent_initializer=recurrent_initializer, bias_initializer=bias_initializer,
            unit_forget_bias=unit_forget_bias, kernel_regularizer=kernel_regularizer,
            recurrent_regularizer=recurrent_regularizer, bias_regularizer=bias_regularizer,
            kernel_constraint=kernel_constraint, recurrent_constraint=recurrent_constraint,
            bias_constraint=bias_constraint, dropout=dropout,
            recurrent_dropout=recurrent_dropout, name="conv_lstm_cell",
            dtype=kwargs.get("dtype"))
        super().__init__(cell, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, **kwargs)
        self.rank = self._RANK
        self.input_spec = [InputSpec(ndim=self.rank + 3)]
        self.activity_regularizer = regularizers.get(activity_regularizer)

    def _spatial_out(self, img_dims: List[Any]) -> List[Any]:
        cell = self.cell
        return [conv_utils.conv_output_length(n, cell.kernel_size[i], padding=cell.padding,
                                              stride=cell.strides[i],
                                              dilation=cell.dilation_rate[i])
                for i, n in enumerate(img_dims)]

    def compute_output_shape(self, input_shape: Any) -> Any:
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        channels_first = self.cell.data_format == "channels_first"
        spatial = self._spatial_out(dims[3:] if channels_first else dims[2:-1])
        per_step = [self.cell.filters] + spatial if channels_first \
            else spatial + [self.cell.filters]
        output = TensorShape(dims[:2] + per_step if self.return_sequences
                             else dims[:1] + per_step)
        if self.return_state:
            return [output] + [TensorShape(dims[:1] + per_step) for _ in range(2)]
        return output

    def build(self, input_shape: Any) -> None:
        if isinstance(input_shape, list):
            input_shape = input_shape[0]
        dims = TensorShape(input_shape).as_list()
        batch_size = dims[0] if self.stateful else None
        self.input_spec[0] = InputSpec(shape=(batch_size, None) + tuple(dims[2:self.rank + 3]))
        if not self.cell.built:
            self.cell.build(TensorShape([dims[0]] + dims[2:]))
        state_size = list(self.cell.state_size)
        img_dims = (None,) * self.rank
        if self.state_spec is not None:
            ch_dim = 1 if self.cell.data_format == "channels_first" else self.rank + 1
            if [spec.shape[ch_dim] for spec in self.state_spec] != state_size:
                raise ValueError("An `initial_state` was passed that is not compatible with "
                                 "`cell.state_size`. Received state shapes "
                                 f"{[spec.shape for spec in self.state_spec]}. However "
                                 f"`cell.state_size` is {self.cell.state_size}")
        elif self.cell.data_format == "channels_first":
            self.state_spec = [InputSpec(shape=(None, dim) + img_dims) for dim in state_size]
        else:
            self.state_spec = [InputSpec(shape=(None,) + img_dims + (dim,))
                               for dim in state_size]
        if self.stateful:
            self.reset_states()
        self.built = True

    def _state_shapes(self) -> List[List[int]]:
        """One step of the output per state, with the cell's channels (tf-keras's rule)."""
        shape = self.compute_output_shape(self.input_spec[0].shape)
        if self.return_state:
            shape = shape[0]
        dims = shape.as_list()
        if self.return_sequences:
            dims = dims[:1] + dims[2:]
        if None in dims:
            # (tf-keras means to raise this message, but its zeros() of a partly unknown
            # shape fails first, with a TypeError)
            raise TypeError(_UNKNOWN_SHAPE_MESSAGE)
        channel_axis = self._channel_axis()
        shapes = []
        for size in self.cell.state_size:
            state_dims = list(dims)
            state_dims[channel_axis] = size
            shapes.append(state_dims)
        return shapes

    def _channel_axis(self) -> int:
        return 1 if self.cell.data_format == "channels_first" else self.rank + 1

    def _first_state_values(self, shapes: List[List[int]], dtype: Any) -> List[Any]:
        return [np.zeros(shape, dtype) for shape in shapes]

    def _state_shape_error(self, index: int, shape: List[int], value: Any,
                           state: Any) -> str:
        # tf-keras's text: the dimensions taken from the output shape print as TF1
        # Dimensions, the channel count as an int, and "{index}" is left unformatted.
        channel_axis = self._channel_axis()
        expected = tuple(d if i == channel_axis else Dimension(d) for i, d in enumerate(shape))
        return ("State {index} is incompatible with layer " + self.name + ": expected "
                f"shape={expected}, found shape={np.shape(value)}")

    def get_initial_state(self, inputs: Any) -> List[Any]:
        initial_state = backend.sum(backend.zeros_like(inputs), axis=1)
        shape = list(self.cell.kernel_shape)
        shape[-1] = self.cell.filters
        initial_state = self.cell.input_conv(
            initial_state, creation_ops.zeros(tuple(shape), initial_state.dtype),
            padding=self.cell.padding)
        return [initial_state for _ in self.cell.state_size]

    def call(self, inputs: Any, mask: Any = None, training: Any = None,
             initial_state: Any = None) -> Any:
        inputs, initial_state, _ = self._process_inputs(inputs, initial_state, None)
        self._reset_dropout_masks()
        if isinstance(mask, list):
            mask = mask[0]
        kwargs = {"training": training} if _has_arg(self.cell.call, "training") else {}

        def step(step_inputs: Any, states: Any) -> Any:
            return self.cell.call(step_inputs, states, **kwargs)
        last_output, outputs, states = backend_rnn(
            step, inputs, initial_state, go_backwards=self.go_backwards, mask=mask,
            input_length=backend.int_shape(inputs)[1],
            return_all_outputs=self.return_sequences)
        if self.stateful:
            self._record_states(states)
        output = outputs if self.return_sequences else last_output
        if self.return_state:
            return [output] + list(states)
        return output

    def get_config(self) -> dict:
        config = {}
        for key, value in self.cell.get_config().items():
            if key not in ("name", "trainable", "dtype"):
                config[key] = value
            if key == "bias_regularizer":
                config["activity_regularizer"] = regularizers.serialize(
                    self.activity_regularizer)
        base = super().get_config()
        del base["cell"]
        return dict(list(base.items()) + list(config.items()))

    @classmethod
    def from_config(cls, config: dict) -> "_ConvLSTM":
        return cls(**config)


def _delegate(name: str) -> property:
    return property(lambda self: getattr(self.cell, name), doc=f"The cell's `{name}`.")


for _name in _CELL_ARGS:
    setattr(_ConvLSTM, _name, _delegate(_name))


class ConvLSTM1D(_ConvLSTM):
    """`tf.keras.layers.ConvLSTM1D`: inputs [batch, time, steps, channels]."""

    _RANK = 1


class ConvLSTM2D(_ConvLSTM):
    """`tf.keras.layers.ConvLSTM2D`: inputs [batch, time, rows, cols, channels]."""

    _RANK = 2


class ConvLSTM3D(_ConvLSTM):
    """`tf.keras.layers.ConvLSTM3D`: inputs [batch, time, d1, d2, d3, channels]."""

    _RANK = 3
