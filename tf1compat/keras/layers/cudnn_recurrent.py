"""`tf.keras.layers.CuDNNLSTM` / `CuDNNGRU` (compat.v1): the recurrent layers with NVIDIA
cuDNN's equations and weight layout.

tf-keras runs them as one `CudnnRNNV3` kernel (GPU only: on a CPU TF fails when the layer
runs). tf1compat computes the same functions with its recurrent cells, on the CPU or CUDA:

- CuDNNLSTM: gates i, f, c, o with sigmoid gates and tanh, `kernel` [input_dim, 4u],
  `recurrent_kernel` [u, 4u] and one `bias` [8u] holding cuDNN's input biases then its
  recurrent biases (the forget parts of both start at one with `unit_forget_bias`); the
  two are added.
- CuDNNGRU: gates z, r, h in Keras' order, sigmoid gates, the reset gate applied after the
  recurrent matmul (Keras' `reset_after=True`), `bias` [6u]: input biases then recurrent.

Weights, names and configs are tf-keras's, so `.h5` files move between the two.
"""

from __future__ import annotations

from typing import Any

from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend, initializers
from tf1compat.keras.layers.recurrent import _CellLayer
from tf1compat.keras.layers.recurrent_cells import (GRUCell, LSTMCell, _as_list,
                                                    config_in_tf_order)

__all__ = ["CuDNNLSTM", "CuDNNGRU"]

_CUDNN_ARGS = ("kernel_initializer", "recurrent_initializer", "bias_initializer",
               "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
               "kernel_constraint", "recurrent_constraint", "bias_constraint")


class _CuDNNLSTMCell(LSTMCell):
    """LSTMCell with sigmoid gates and cuDNN's doubled bias."""

    def __init__(self, units: int, **kwargs: Any):
        super().__init__(units, recurrent_activation="sigmoid", **kwargs)
        self._set_implementation(2)

    def build(self, input_shape: Any) -> None:
        self._add_kernels(_as_list(input_shape)[-1], 4)
        units, init = self.units, self.bias_initializer
        if self.unit_forget_bias:
            def bias_initializer(_: Any, *args: Any, **kwargs: Any) -> Any:
                # input biases i, f (ones), c, o are [0:4u]; recurrent ones [4u:8u]: tf-keras
                # sets the *recurrent* forget bias (5u..6u) to one.
                return backend.concatenate([
                    init((units * 5,), *args, **kwargs),
                    initializers.get("ones")((units,), *args, **kwargs),
                    init((units * 2,), *args, **kwargs)])
        else:
            bias_initializer = init
        self.bias = self.add_weight(shape=(units * 8,), name="bias",
                                    initializer=bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs: Any, states: Any, training: Any = None) -> Any:
        h_tm1, c_tm1 = states[0], states[1]
        u = self.units
        z = backend.dot(inputs, self.kernel) + backend.dot(h_tm1, self.recurrent_kernel)
        z = backend.bias_add(z, self.bias[:u * 4] + self.bias[u * 4:])
        i = backend.sigmoid(z[:, :u])
        f = backend.sigmoid(z[:, u:u * 2])
        c = f * c_tm1 + i * backend.tanh(z[:, u * 2:u * 3])
        o = backend.sigmoid(z[:, u * 3:])
        h = o * backend.tanh(c)
        return h, [h, c]


class _CuDNNGRUCell(GRUCell):
    """GRUCell (reset after the recurrent matmul, sigmoid gates) with cuDNN's flat bias."""

    def __init__(self, units: int, **kwargs: Any):
        super().__init__(units, recurrent_activation="sigmoid", reset_after=True, **kwargs)

    def build(self, input_shape: Any) -> None:
        self._add_kernels(_as_list(input_shape)[-1], 3)
        self.bias = self.add_weight(shape=(self.units * 6,), name="bias",
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs: Any, states: Any, training: Any = None) -> Any:
        h_tm1 = states[0] if isinstance(states, (list, tuple)) else states
        u = self.units
        x = backend.bias_add(backend.dot(inputs, self.kernel), self.bias[:u * 3])
        rec = backend.bias_add(backend.dot(h_tm1, self.recurrent_kernel), self.bias[u * 3:])
        z = backend.sigmoid(x[:, :u] + rec[:, :u])
        r = backend.sigmoid(x[:, u:u * 2] + rec[:, u:u * 2])
        hh = backend.tanh(x[:, u * 2:] + r * rec[:, u * 2:])
        h = z * h_tm1 + (1 - z) * hh
        return h, [h]


class _CuDNNLayer(_CellLayer):
    """The common constructor and config of the two layers."""

    def __init__(self, units: int, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, time_major: bool = False, **kwargs: Any):
        if time_major:
            raise NotImplementedError(f"{type(self).__name__}(time_major=True) is not "
                                      "supported by tf1compat: transpose the inputs to "
                                      "[batch, time, features]")
        self.time_major = time_major
        super().__init__(units, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful, **kwargs)

    def build(self, input_shape: Any) -> None:
        # tf-keras creates the weights on the layer itself (`cu_dnnlstm/kernel:0`), not in
        # a cell's name scope as the other RNN layers: build the cell here, scope-less.
        shape = input_shape[0] if isinstance(input_shape, list) else input_shape
        dims = TensorShape(shape).as_list()
        if not self.cell.built:
            self.cell.build((dims[0],) + tuple(dims[2:]))
            self.cell.built = True
        super().build(input_shape)

    def get_config(self) -> dict:
        cell = self.cell.get_config()
        config = {"units": self.units,
                  **{k: cell[k] for k in ("kernel_initializer", "recurrent_initializer",
                                          "bias_initializer")},
                  **self._extra_config(cell),
                  **{k: cell[k] for k in ("kernel_regularizer", "recurrent_regularizer",
                                          "bias_regularizer")},
                  "activity_regularizer": self._serialized_activity_regularizer(),
                  **{k: cell[k] for k in ("kernel_constraint", "recurrent_constraint",
                                          "bias_constraint")}}
        base = {k: v for k, v in super().get_config().items()
                if k in ("name", "trainable", "dtype", "batch_input_shape")}
        base.update(return_sequences=self.return_sequences, return_state=self.return_state,
                    go_backwards=self.go_backwards, stateful=self.stateful,
                    time_major=self.time_major)
        return config_in_tf_order({**base, **config})

    def _serialized_activity_regularizer(self) -> Any:
        from tf1compat.keras import regularizers
        return regularizers.serialize(self.activity_regularizer)

    def _extra_config(self, cell: dict) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "_CuDNNLayer":
        return cls(**config)


class CuDNNLSTM(_CuDNNLayer):
    """`tf.keras.layers.CuDNNLSTM(units, ...)`: an LSTM with cuDNN's equations."""

    _cell_class = _CuDNNLSTMCell
    _cell_name = "cu_dnnlstm_cell"
    _cell_args = _CUDNN_ARGS + ("unit_forget_bias",)

    def __init__(self, units: int, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 unit_forget_bias: bool = True, kernel_regularizer: Any = None,
                 recurrent_regularizer: Any = None, bias_regularizer: Any = None,
                 activity_regularizer: Any = None, kernel_constraint: Any = None,
                 recurrent_constraint: Any = None, bias_constraint: Any = None,
                 return_sequences: bool = False, return_state: bool = False,
                 go_backwards: bool = False, stateful: bool = False, **kwargs: Any):
        super().__init__(units, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer, unit_forget_bias=unit_forget_bias,
                         kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, **kwargs)

    def _extra_config(self, cell: dict) -> dict:
        return {"unit_forget_bias": cell["unit_forget_bias"]}


class CuDNNGRU(_CuDNNLayer):
    """`tf.keras.layers.CuDNNGRU(units, ...)`: a GRU with cuDNN's equations."""

    _cell_class = _CuDNNGRUCell
    _cell_name = "cu_dnngru_cell"
    _cell_args = _CUDNN_ARGS

    def __init__(self, units: int, kernel_initializer: Any = "glorot_uniform",
                 recurrent_initializer: Any = "orthogonal", bias_initializer: Any = "zeros",
                 kernel_regularizer: Any = None, recurrent_regularizer: Any = None,
                 bias_regularizer: Any = None, activity_regularizer: Any = None,
                 kernel_constraint: Any = None, recurrent_constraint: Any = None,
                 bias_constraint: Any = None, return_sequences: bool = False,
                 return_state: bool = False, go_backwards: bool = False,
                 stateful: bool = False, **kwargs: Any):
        super().__init__(units, return_sequences=return_sequences, return_state=return_state,
                         go_backwards=go_backwards, stateful=stateful,
                         activity_regularizer=activity_regularizer,
                         kernel_initializer=kernel_initializer,
                         recurrent_initializer=recurrent_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         recurrent_regularizer=recurrent_regularizer,
                         bias_regularizer=bias_regularizer, kernel_constraint=kernel_constraint,
                         recurrent_constraint=recurrent_constraint,
                         bias_constraint=bias_constraint, **kwargs)
