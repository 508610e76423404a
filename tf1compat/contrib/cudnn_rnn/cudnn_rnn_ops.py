"""TF 1.15's `tensorflow.contrib.cudnn_rnn.python.ops.cudnn_rnn_ops`: the cuDNN-compatible
cells, the converters between cuDNN's opaque params and the TF-canonical weights of those
cells, the saveables that checkpoint a cuDNN layer in that canonical form, and the
functional `cudnn_lstm` / `cudnn_gru` / `cudnn_rnn_tanh` / `cudnn_rnn_relu` and params
helpers, on the CudnnRNN ops of tf1compat/ops/cudnn_rnn_ops.py (which run on the CPU and
on CUDA alike).

Canonical forms (TF 1.15's CudnnParamsFormatConverter):

- cuDNN canonical: per layer and direction the weight matrices [units, input] and
  [units, units] in cuDNN's gate order, then (separately) the biases;
- TF canonical, what the compatible cells hold and what checkpoints store: LSTM
  `kernel` [input + units, 4 units] in i, c, f, o order and `bias` (the sum of cuDNN's
  input and recurrent biases; restored as two halves); GRU `gates/kernel` (r, u),
  `gates/bias`, `candidate/input_projection/{kernel,bias}`,
  `candidate/hidden_projection/{kernel,bias}`; RNN `kernel` [input + units, units],
  `bias`.

With `skip_input` (layer 0 reads its input without weights) layer 0's kernels have no
input rows. Object-based checkpoints (tf.train.Checkpoint) of the cuDNN layers are not
supported (TF 1.15 tracks them through contrib.checkpoint's split dependencies).
"""

from __future__ import annotations

import os
from typing import Any, List, Optional, Sequence, Tuple

from tf1compat.contrib.rnn.contrib_cells import LSTMBlockCell
from tf1compat.framework import dtypes
from tf1compat.framework import random_seed
from tf1compat.framework.graph import apply_op
from tf1compat.keras.engine.base_layer import to_snake_case
from tf1compat.ops import namespace as ops
from tf1compat.ops import state_ops
from tf1compat.rnn.cells import BasicRNNCell, GRUCell
from tf1compat.training.saving.saveable import SaveableObject, SaveSpec
from tf1compat.variables.init_ops import Constant, Zeros
from tf1compat.variables.variable_scope import VariableScope

CUDNN_RNN_UNIDIRECTION = "unidirectional"
CUDNN_RNN_BIDIRECTION = "bidirectional"
CUDNN_LSTM = "lstm"
CUDNN_GRU = "gru"
CUDNN_RNN_RELU = "rnn_relu"
CUDNN_RNN_TANH = "rnn_tanh"

# Half for cell input, half for hidden states.
CUDNN_LSTM_PARAMS_PER_LAYER = 8
CUDNN_GRU_PARAMS_PER_LAYER = 6
CUDNN_RNN_TANH_PARAMS_PER_LAYER = 2
CUDNN_RNN_RELU_PARAMS_PER_LAYER = 2

CUDNN_INPUT_LINEAR_MODE = "linear_input"
CUDNN_INPUT_SKIP_MODE = "skip_input"
CUDNN_INPUT_AUTO_MODE = "auto_select"

_PARAMS_PER_LAYER = {CUDNN_LSTM: CUDNN_LSTM_PARAMS_PER_LAYER,
                     CUDNN_GRU: CUDNN_GRU_PARAMS_PER_LAYER,
                     CUDNN_RNN_TANH: CUDNN_RNN_TANH_PARAMS_PER_LAYER,
                     CUDNN_RNN_RELU: CUDNN_RNN_RELU_PARAMS_PER_LAYER}


class CudnnCompatibleLSTMCell(LSTMBlockCell):
    """`tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell`: LSTMBlockCell without forget bias,
    clipping or peepholes (cuDNN's LSTM), named `cudnn_compatible_lstm_cell`, so a
    CudnnLSTM's canonical checkpoint restores into it."""

    def __init__(self, num_units: int, reuse: Any = None):
        super().__init__(num_units, forget_bias=0, cell_clip=None, use_peephole=False,
                         reuse=reuse, name="cudnn_compatible_lstm_cell")


class CudnnCompatibleGRUCell(GRUCell):
    """`tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell`: cuDNN's GRU, whose candidate applies
    the reset gate after the recurrent matmul (with its own bias):
    h~ = tanh(x W_h + b_Wh + r * (h R_h + b_Rh)), h' = (1 - u) h~ + u h."""

    def __init__(self, num_units: int, reuse: Any = None, kernel_initializer: Any = None):
        super().__init__(num_units, activation=None, reuse=reuse,
                         kernel_initializer=kernel_initializer)

    def build(self, inputs_shape: Any) -> None:
        if inputs_shape[1] is None or getattr(inputs_shape[1], "value", 0) is None:
            raise ValueError(f"Expected inputs.shape[-1] to be known, saw shape: "
                             f"{inputs_shape}")
        depth = int(inputs_shape[1])
        n = self._num_units
        bias_init = self._bias_initializer
        self._gate_kernel = self.add_weight("gates/kernel", shape=[depth + n, 2 * n],
                                            initializer=self._kernel_initializer)
        self._gate_bias = self.add_weight(
            "gates/bias", shape=[2 * n],
            initializer=bias_init if bias_init is not None else Constant(1.0,
                                                                         dtype=self.dtype))
        self._candidate_input_kernel = self.add_weight(
            "candidate/input_projection/kernel", shape=[depth, n],
            initializer=self._kernel_initializer)
        self._candidate_hidden_kernel = self.add_weight(
            "candidate/hidden_projection/kernel", shape=[n, n],
            initializer=self._kernel_initializer)
        zeros = bias_init if bias_init is not None else Zeros(dtype=self.dtype)
        self._candidate_input_bias = self.add_weight(
            "candidate/input_projection/bias", shape=[n], initializer=zeros)
        self._candidate_hidden_bias = self.add_weight(
            "candidate/hidden_projection/bias", shape=[n], initializer=zeros)
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        gate_inputs = ops.bias_add(ops.matmul(ops.concat([inputs, state], 1),
                                              self._gate_kernel), self._gate_bias)
        r, u = ops.split(value=ops.sigmoid(gate_inputs), num_or_size_splits=2, axis=1)
        candidate = ops.bias_add(ops.matmul(inputs, self._candidate_input_kernel),
                                 self._candidate_input_bias)
        candidate += r * ops.bias_add(ops.matmul(state, self._candidate_hidden_kernel),
                                      self._candidate_hidden_bias)
        candidate = self._activation(candidate)
        new_h = (1 - u) * candidate + u * state
        return new_h, new_h


# -- raw op wrappers -----------------------------------------------------------------------

def _skips(input_mode: str, input_size: int, num_units: int) -> bool:
    return input_mode == CUDNN_INPUT_SKIP_MODE or (input_mode == CUDNN_INPUT_AUTO_MODE
                                                   and input_size == num_units)


def _seeds(seed: Optional[int]) -> Tuple[int, int]:
    seed, seed2 = random_seed.get_seed(seed)
    return (seed or 0), (seed2 or 0)


def _common(rnn_mode: str, input_mode: str, direction: str, dropout: float,
            seed: Optional[int]) -> dict:
    _check_rnn_mode(rnn_mode)
    check_direction(direction)
    check_input_mode(input_mode)
    seed, seed2 = _seeds(seed)
    return {"rnn_mode": rnn_mode, "input_mode": input_mode, "direction": direction,
            "dropout": float(dropout), "seed": seed, "seed2": seed2}


def _sizes(num_layers: Any, num_units: Any, input_size: Any) -> List[Any]:
    return [ops.convert_to_tensor(v, dtype=dtypes.int32)
            for v in (num_layers, num_units, input_size)]


def cudnn_rnn_opaque_params_to_canonical(rnn_mode: str, num_layers: int, num_units: int,
                                         input_size: int, params: Any,
                                         input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                                         direction: str = CUDNN_RNN_UNIDIRECTION,
                                         dropout: float = 0, seed: int = 0,
                                         num_proj: Optional[int] = None,
                                         name: Optional[str] = None
                                         ) -> Tuple[List[Any], List[Any]]:
    """(cuDNN-canonical weights, biases) of the opaque `params`."""
    attrs = _common(rnn_mode, input_mode, direction, dropout, seed)
    num_params = num_layers * _PARAMS_PER_LAYER[rnn_mode] * \
        (1 if direction == CUDNN_RNN_UNIDIRECTION else 2)
    sizes = _sizes(num_layers, num_units, input_size)
    if num_proj:
        dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
        n_w = num_params + num_layers * dirs
        outs = apply_op("CudnnRNNParamsToCanonicalV2", sizes + [params],
                        {**attrs, "num_params_weights": n_w, "num_params_biases": num_params,
                         "num_proj": num_proj}, name=name).outputs
        return list(outs[:n_w]), list(outs[n_w:])
    outs = apply_op("CudnnRNNParamsToCanonical", sizes + [params],
                    {**attrs, "num_params": num_params}, name=name).outputs
    return list(outs[:num_params]), list(outs[num_params:])


def cudnn_rnn_canonical_to_opaque_params(rnn_mode: str, num_layers: int, num_units: int,
                                         input_size: int, weights: Sequence[Any],
                                         biases: Sequence[Any],
                                         input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                                         direction: str = CUDNN_RNN_UNIDIRECTION,
                                         dropout: float = 0, seed: int = 0,
                                         num_proj: Optional[int] = None,
                                         name: Optional[str] = None) -> Any:
    """The opaque params of cuDNN-canonical `weights` and `biases`."""
    attrs = _common(rnn_mode, input_mode, direction, dropout, seed)
    sizes = _sizes(num_layers, num_units, input_size)
    weights = [ops.convert_to_tensor(w) for w in weights]
    biases = [ops.convert_to_tensor(b) for b in biases]
    if num_proj:
        return apply_op("CudnnRNNCanonicalToParamsV2", sizes + [weights, biases],
                        {**attrs, "num_proj": num_proj}, name=name).outputs[0]
    return apply_op("CudnnRNNCanonicalToParams", sizes + [weights, biases], attrs,
                    name=name).outputs[0]


def cudnn_rnn_opaque_params_size(rnn_mode: str, num_layers: int, num_units: int,
                                 input_size: int, input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                                 direction: str = CUDNN_RNN_UNIDIRECTION,
                                 dtype: Any = dtypes.float32, dropout: float = 0,
                                 seed: int = 0, num_proj: Optional[int] = None,
                                 name: Optional[str] = None) -> Any:
    """The number of elements of the opaque params (an int32 scalar tensor)."""
    attrs = _common(rnn_mode, input_mode, direction, dropout, seed)
    return apply_op("CudnnRNNParamsSize", _sizes(num_layers, num_units, input_size),
                    {**attrs, "T": dtypes.as_dtype(dtype), "S": dtypes.int32,
                     "num_proj": num_proj or 0}, name=name).outputs[0][0]


def _cudnn_rnn(inputs: Any, input_h: Any, input_c: Any, params: Any, is_training: bool,
               rnn_mode: str, sequence_lengths: Any = None, time_major: bool = True,
               input_mode: str = CUDNN_INPUT_LINEAR_MODE,
               direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
               seed: int = 0, num_proj: Optional[int] = None,
               name: Optional[str] = None) -> Tuple[Any, Any, Any]:
    """TF 1.15's choice of op: CudnnRNNV3 with sequence lengths, batch-major input or a
    projection; else CudnnRNN (CudnnRNNV2 with TF_CUDNN_RNN_USE_V2=1)."""
    attrs = {**_common(rnn_mode, input_mode, direction, dropout, seed),
             "is_training": bool(is_training)}
    args = [inputs, input_h, input_c, params]
    if sequence_lengths is None and (time_major is False or num_proj):
        shape = ops.shape(inputs)
        sequence_lengths = ops.fill([shape[1 if time_major else 0]],
                                    shape[0 if time_major else 1])
    if sequence_lengths is not None:
        outs = apply_op("CudnnRNNV3", args + [sequence_lengths],
                        {**attrs, "time_major": bool(time_major),
                         "num_proj": num_proj or 0}, name=name).outputs
    elif os.environ.get("TF_CUDNN_RNN_USE_V2", "0") != "1":
        outs = apply_op("CudnnRNN", args, attrs, name=name).outputs
    else:
        outs = apply_op("CudnnRNNV2", args, attrs, name=name).outputs
    return outs[0], outs[1], outs[2]


def cudnn_lstm(inputs: Any, input_h: Any, input_c: Any, params: Any, is_training: bool,
               sequence_lengths: Any = None, time_major: bool = True,
               input_mode: str = CUDNN_INPUT_LINEAR_MODE,
               direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
               seed: int = 0, num_proj: Optional[int] = None,
               name: Optional[str] = None) -> Tuple[Any, Any, Any]:
    """cuDNN's LSTM: (outputs, output_h, output_c)."""
    return _cudnn_rnn(inputs, input_h, input_c, params, is_training, CUDNN_LSTM,
                      sequence_lengths, time_major, input_mode, direction, dropout, seed,
                      num_proj, name)


def _cudnn_rnn_no_input_c(inputs: Any, input_h: Any, params: Any, is_training: bool,
                          rnn_mode: str, sequence_lengths: Any = None,
                          time_major: bool = True,
                          input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                          direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0.,
                          seed: int = 0, name: Optional[str] = None) -> Tuple[Any, Any]:
    input_c = ops.constant([], dtype=ops.convert_to_tensor(input_h).dtype)
    outputs, output_h, _ = _cudnn_rnn(inputs, input_h, input_c, params, is_training,
                                      rnn_mode, sequence_lengths, time_major, input_mode,
                                      direction, dropout, seed, None, name)
    return outputs, output_h


def cudnn_gru(inputs: Any, input_h: Any, params: Any, is_training: bool,
              sequence_lengths: Any = None, time_major: bool = True,
              input_mode: str = CUDNN_INPUT_LINEAR_MODE,
              direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0., seed: int = 0,
              name: Optional[str] = None) -> Tuple[Any, Any]:
    """cuDNN's GRU: (outputs, output_h)."""
    return _cudnn_rnn_no_input_c(inputs, input_h, params, is_training, CUDNN_GRU,
                                 sequence_lengths, time_major, input_mode, direction,
                                 dropout, seed, name)


def _basic_rnn(rnn_mode: str) -> Any:
    # (TF 1.15 orders these two's arguments differently from cudnn_gru's)
    def fn(inputs: Any, input_h: Any, params: Any, is_training: bool,
           input_mode: str = CUDNN_INPUT_LINEAR_MODE,
           direction: str = CUDNN_RNN_UNIDIRECTION, dropout: float = 0., seed: int = 0,
           sequence_lengths: Any = None, time_major: bool = True,
           name: Optional[str] = None) -> Tuple[Any, Any]:
        return _cudnn_rnn_no_input_c(inputs, input_h, params, is_training, rnn_mode,
                                     sequence_lengths, time_major, input_mode, direction,
                                     dropout, seed, name)
    fn.__name__ = fn.__qualname__ = f"cudnn_{rnn_mode}"
    fn.__doc__ = f"cuDNN's {rnn_mode[4:]} RNN: (outputs, output_h)."
    return fn


cudnn_rnn_relu = _basic_rnn(CUDNN_RNN_RELU)
cudnn_rnn_tanh = _basic_rnn(CUDNN_RNN_TANH)


def _check_rnn_mode(rnn_mode: str) -> None:
    if rnn_mode not in _PARAMS_PER_LAYER:
        raise ValueError(f"Invalid rnn_mode: {rnn_mode}, expect one of ({CUDNN_LSTM}, "
                         f"{CUDNN_GRU}, {CUDNN_RNN_TANH}, {CUDNN_RNN_RELU})")


def check_direction(direction: str) -> None:
    """Raises ValueError unless `direction` is unidirectional or bidirectional."""
    if direction not in (CUDNN_RNN_UNIDIRECTION, CUDNN_RNN_BIDIRECTION):
        raise ValueError(f"Invalid direction: {direction}, expecting "
                         f"{CUDNN_RNN_UNIDIRECTION} or {CUDNN_RNN_BIDIRECTION}")


def check_input_mode(input_mode: str) -> None:
    """Raises ValueError unless `input_mode` is linear_input, skip_input or auto_select."""
    if input_mode not in (CUDNN_INPUT_LINEAR_MODE, CUDNN_INPUT_SKIP_MODE,
                          CUDNN_INPUT_AUTO_MODE):
        raise ValueError(f"Invalid input_mode: {input_mode}, expect one of "
                         f"({CUDNN_INPUT_LINEAR_MODE}, {CUDNN_INPUT_SKIP_MODE}, "
                         f"{CUDNN_INPUT_AUTO_MODE})")


# -- TF 1.15's CudnnParamsFormatConverter ------------------------------------------------

class CudnnParamsFormatConverter:
    """Converts between cuDNN's opaque params and the TF-canonical weights of the
    compatible cells (per layer, forward then backward: weights, then biases)."""

    _rnn_mode = ""
    _num_params_per_layer = 0

    def __init__(self, num_layers: int, num_units: int, input_size: int,
                 num_proj: Optional[int] = None, input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                 direction: str = CUDNN_RNN_UNIDIRECTION):
        self._num_layers = num_layers
        self._input_size = input_size
        self._num_units = num_units
        self._input_mode = input_mode
        self._num_proj = num_proj
        self._direction = direction
        self._num_dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
        self._num_params = self._num_params_per_layer * num_layers * self._num_dirs

    def tf_canonical_to_opaque(self, tf_canonicals: Sequence[Any],
                               weights_proj: Optional[Sequence[Any]] = None) -> Any:
        """The opaque params of TF-canonical weights then biases (and projections)."""
        cu_weights, cu_biases = self._tf_canonical_to_cu_canonical(tf_canonicals,
                                                                    weights_proj)
        cu_weights = [ops.reshape(w, [-1]) for w in cu_weights]
        return cudnn_rnn_canonical_to_opaque_params(
            self._rnn_mode, self._num_layers, self._num_units, self._input_size,
            cu_weights, cu_biases, input_mode=self._input_mode, direction=self._direction,
            num_proj=self._num_proj)

    def opaque_to_tf_canonical(self, opaque_param: Any) -> Tuple[List[Any], ...]:
        """(TF-canonical weights, biases[, projections]) of the opaque params."""
        cu_weights, cu_biases = cudnn_rnn_opaque_params_to_canonical(
            self._rnn_mode, self._num_layers, self._num_units, self._input_size,
            opaque_param, input_mode=self._input_mode, direction=self._direction,
            num_proj=self._num_proj)
        per_w = self._num_params_per_layer + (1 if self._num_proj else 0)
        per_b = self._num_params_per_layer
        weights: List[Any] = []
        biases: List[Any] = []
        projs: List[Any] = []
        for p in range(self._num_layers * self._num_dirs):
            w = self._cudnn_to_tf_weights(*cu_weights[p * per_w:(p + 1) * per_w])
            weights.extend(w[:len(w) - (1 if self._num_proj else 0)])
            if self._num_proj:
                projs.append(w[-1])
            biases.extend(self._cudnn_to_tf_biases(*cu_biases[p * per_b:(p + 1) * per_b]))
        return (weights, biases, projs) if self._num_proj else (weights, biases)

    def _input_width(self, layer: int) -> int:
        if layer == 0:
            return 0 if _skips(self._input_mode, self._input_size, self._num_units) \
                else self._input_size
        return (self._num_proj or self._num_units) * self._num_dirs

    def _tf_canonical_to_cu_canonical(self, tf_canonicals: Sequence[Any],
                                      weights_proj: Optional[Sequence[Any]]
                                      ) -> Tuple[List[Any], List[Any]]:
        weights = tf_canonicals[:len(tf_canonicals) // 2]
        biases = tf_canonicals[len(tf_canonicals) // 2:]
        per_w = len(weights) // (self._num_layers * self._num_dirs)
        per_b = len(biases) // (self._num_layers * self._num_dirs)
        cu_weights: List[Any] = []
        cu_biases: List[Any] = []
        for p in range(self._num_layers * self._num_dirs):
            cu_weights.extend(self._tf_to_cudnn_weights(
                p // self._num_dirs, *weights[p * per_w:(p + 1) * per_w]))
            if weights_proj is not None:
                cu_weights.append(ops.transpose(weights_proj[p]))
            cu_biases.extend(self._tf_to_cudnn_biases(*biases[p * per_b:(p + 1) * per_b]))
        return cu_weights, cu_biases

    def _cudnn_to_tf_weights(self, *cu_weights: Any) -> Tuple[Any, ...]:
        raise NotImplementedError("Abstract method")

    def _tf_to_cudnn_weights(self, layer: int, *tf_weights: Any) -> Tuple[Any, ...]:
        raise NotImplementedError("Abstract method")

    def _cudnn_to_tf_biases(self, *cu_biases: Any) -> Tuple[Any, ...]:
        raise NotImplementedError("Abstract method")

    def _tf_to_cudnn_biases(self, *tf_biases: Any) -> Tuple[Any, ...]:
        raise NotImplementedError("Abstract method")


class CudnnParamsFormatConverterLSTM(CudnnParamsFormatConverter):
    """LSTM: one kernel [input + h, 4 units] in TF's i, c, f, o order (cuDNN's is i, f,
    c, o) and one bias, the sum of cuDNN's two; with num_proj the projection."""

    _rnn_mode = CUDNN_LSTM
    _num_params_per_layer = CUDNN_LSTM_PARAMS_PER_LAYER

    def _cudnn_to_tf_weights(self, *cu_weights: Any) -> Tuple[Any, ...]:
        w_i, w_f, w_c, w_o, r_i, r_f, r_c, r_o = cu_weights[:8]
        stitched = [ops.concat([w, r], axis=1) for w, r in
                    ((w_i, r_i), (w_c, r_c), (w_f, r_f), (w_o, r_o))]
        kernel = ops.transpose(ops.concat(stitched, axis=0))
        if self._num_proj:
            return kernel, ops.transpose(cu_weights[8])
        return (kernel,)

    def _tf_to_cudnn_weights(self, layer: int, *tf_weights: Any) -> Tuple[Any, ...]:
        width, hidden = self._input_width(layer), self._num_proj or self._num_units
        g_i, g_c, g_f, g_o = ops.split(ops.transpose(tf_weights[0]), 4, axis=0)
        parts = [ops.split(g, [width, hidden], axis=1) for g in (g_i, g_f, g_c, g_o)]
        return tuple(p[0] for p in parts) + tuple(p[1] for p in parts)

    def _cudnn_to_tf_biases(self, *cu_biases: Any) -> Tuple[Any, ...]:
        b_i, b_f, b_c, b_o = [cu_biases[k] + cu_biases[k + 4] for k in range(4)]
        return (ops.concat([b_i, b_c, b_f, b_o], axis=0),)

    def _tf_to_cudnn_biases(self, *tf_biases: Any) -> Tuple[Any, ...]:
        b_i, b_c, b_f, b_o = ops.split(tf_biases[0], 4, axis=0)
        halves = tuple(b * 0.5 for b in (b_i, b_f, b_c, b_o))
        return halves + halves


class CudnnParamsFormatConverterGRU(CudnnParamsFormatConverter):
    """GRU: `gates/kernel` [input + h, 2 units] (r, u), the candidate's input and hidden
    projections; the gate bias is the sum of cuDNN's two."""

    _rnn_mode = CUDNN_GRU
    _num_params_per_layer = CUDNN_GRU_PARAMS_PER_LAYER

    def _cudnn_to_tf_weights(self, *cu_weights: Any) -> Tuple[Any, ...]:
        w_i, w_r, w_h, r_i, r_r, r_h = cu_weights
        gates = ops.concat([ops.concat([w_i, r_i], axis=1), ops.concat([w_r, r_r], axis=1)],
                           axis=0)
        return ops.transpose(gates), ops.transpose(w_h), ops.transpose(r_h)

    def _tf_to_cudnn_weights(self, layer: int, *tf_weights: Any) -> Tuple[Any, ...]:
        width = self._input_width(layer)
        w_ir, w_h, r_h = [ops.transpose(w) for w in tf_weights]
        w_i, w_r = ops.split(w_ir, 2, axis=0)
        w_i, r_i = ops.split(w_i, [width, self._num_units], axis=1)
        w_r, r_r = ops.split(w_r, [width, self._num_units], axis=1)
        return w_i, w_r, w_h, r_i, r_r, r_h

    def _cudnn_to_tf_biases(self, *cu_biases: Any) -> Tuple[Any, ...]:
        b_wi, b_wr, b_wh, b_ri, b_rr, b_rh = cu_biases
        return (ops.concat([b_wi, b_wr], axis=0) + ops.concat([b_ri, b_rr], axis=0),
                b_wh, b_rh)

    def _tf_to_cudnn_biases(self, *tf_biases: Any) -> Tuple[Any, ...]:
        b_ir, b_wh, b_rh = tf_biases
        b_wi, b_wr = ops.split(b_ir * 0.5, 2, axis=0)
        b_ri, b_rr = ops.split(b_ir * 0.5, 2, axis=0)
        return b_wi, b_wr, b_wh, b_ri, b_rr, b_rh


class CudnnParamsFormatConverterBasic(CudnnParamsFormatConverterLSTM):
    """ReLU/tanh RNN: one kernel [input + h, units] and one bias (the sum of cuDNN's)."""

    def _cudnn_to_tf_weights(self, *cu_weights: Any) -> Tuple[Any, ...]:
        return (ops.transpose(ops.concat(list(cu_weights), axis=1)),)

    def _tf_to_cudnn_weights(self, layer: int, *tf_weights: Any) -> Tuple[Any, ...]:
        return tuple(ops.split(ops.transpose(tf_weights[0]),
                               [self._input_width(layer), self._num_units], axis=1))

    def _cudnn_to_tf_biases(self, *cu_biases: Any) -> Tuple[Any, ...]:
        return (cu_biases[0] + cu_biases[1],)

    def _tf_to_cudnn_biases(self, *tf_biases: Any) -> Tuple[Any, ...]:
        return tf_biases[0] * 0.5, tf_biases[0] * 0.5


class CudnnParamsFormatConverterTanh(CudnnParamsFormatConverterBasic):
    """The tanh RNN's converter."""
    _rnn_mode = CUDNN_RNN_TANH
    _num_params_per_layer = CUDNN_RNN_TANH_PARAMS_PER_LAYER


class CudnnParamsFormatConverterRelu(CudnnParamsFormatConverterBasic):
    """The ReLU RNN's converter."""
    _rnn_mode = CUDNN_RNN_RELU
    _num_params_per_layer = CUDNN_RNN_RELU_PARAMS_PER_LAYER


# -- saveables --------------------------------------------------------------------------

class CudnnOpaqueParamsSaveable(SaveableObject):
    """Saves a cuDNN layer's opaque params as the TF-canonical weights of the compatible
    cells, under their names (`rnn/multi_rnn_cell/cell_<l>/<cell>/...`, bidirectional
    `stack_bidirectional_rnn/cell_<l>/bidirectional_rnn/{fw,bw}/<cell>/...`, prefixed by
    `scope`), and restores them into the opaque params."""

    _format_converter_cls: Any = None
    _rnn_cell_name = ""

    def __init__(self, opaque_params: Any, num_layers: int, num_units: int, input_size: int,
                 input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                 direction: str = CUDNN_RNN_UNIDIRECTION, scope: Any = None,
                 name: str = "cudnn_rnn_saveable"):
        self._num_layers = num_layers
        self._input_size = input_size
        self._num_units = num_units
        self._input_mode = input_mode
        self._direction = direction
        scope_name = scope.name if isinstance(scope, VariableScope) else scope
        self._scope = scope_name or None
        self._variables = opaque_params
        self._num_dirs = 1 if direction == CUDNN_RNN_UNIDIRECTION else 2
        self._format_converter = None
        tf_weights, tf_biases = self.format_converter.opaque_to_tf_canonical(opaque_params)
        self._weight_names, self._bias_names = self._tf_canonical_names()
        self._param_names = self._weight_names + self._bias_names
        names = [f"{self._scope}/{n}" if self._scope else n for n in self._param_names]
        specs = [SaveSpec(param, "", param_name)
                 for param, param_name in zip(tf_weights + tf_biases, names)]
        super().__init__(ops.identity(opaque_params), specs, name)

    @property
    def format_converter(self) -> CudnnParamsFormatConverter:
        if self._format_converter is None:
            self._format_converter = self._format_converter_cls(
                self._num_layers, self._num_units, self._input_size,
                input_mode=self._input_mode, direction=self._direction)
        return self._format_converter

    def restore(self, restored_tensors: List[Any], restored_shapes: Any) -> Any:
        opaque = self.format_converter.tf_canonical_to_opaque(restored_tensors)
        return state_ops.assign(self._variables, opaque, validate_shape=False)

    def _tf_canonical_names(self) -> Tuple[List[str], List[str]]:
        weights: List[str] = []
        biases: List[str] = []
        for layer in range(self._num_layers):
            if self._direction == CUDNN_RNN_UNIDIRECTION:
                prefixes = [f"rnn/multi_rnn_cell/cell_{layer}/{self._rnn_cell_name}"]
            else:
                prefixes = [f"stack_bidirectional_rnn/cell_{layer}/bidirectional_rnn/{d}/"
                            f"{self._rnn_cell_name}" for d in ("fw", "bw")]
            for prefix in prefixes:
                self._tf_canonical_names_single_layer(prefix, weights, biases)
        return weights, biases

    def _tf_canonical_names_single_layer(self, prefix: str, tf_weights_names: List[str],
                                         tf_bias_names: List[str]) -> None:
        tf_weights_names.append(prefix + "/kernel")
        tf_bias_names.append(prefix + "/bias")


class CudnnLSTMSaveable(CudnnOpaqueParamsSaveable):
    """A CudnnLSTM's params as CudnnCompatibleLSTMCell's `kernel` and `bias`."""
    _format_converter_cls = CudnnParamsFormatConverterLSTM
    _rnn_cell_name = to_snake_case(CudnnCompatibleLSTMCell.__name__)


class CudnnGRUSaveable(CudnnOpaqueParamsSaveable):
    """A CudnnGRU's params as CudnnCompatibleGRUCell's six weights."""
    _format_converter_cls = CudnnParamsFormatConverterGRU
    _rnn_cell_name = to_snake_case(CudnnCompatibleGRUCell.__name__)

    def _tf_canonical_names_single_layer(self, prefix: str, tf_weights_names: List[str],
                                         tf_bias_names: List[str]) -> None:
        for part in ("gates", "candidate/input_projection", "candidate/hidden_projection"):
            tf_weights_names.append(f"{prefix}/{part}/kernel")
            tf_bias_names.append(f"{prefix}/{part}/bias")


class CudnnRNNTanhSaveable(CudnnLSTMSaveable):
    """A CudnnRNNTanh's params as BasicRNNCell's `kernel` and `bias`."""
    _format_converter_cls = CudnnParamsFormatConverterTanh
    _rnn_cell_name = to_snake_case(BasicRNNCell.__name__)


class CudnnRNNReluSaveable(CudnnLSTMSaveable):
    """A CudnnRNNRelu's params as BasicRNNCell's `kernel` and `bias`."""
    _format_converter_cls = CudnnParamsFormatConverterRelu
    _rnn_cell_name = to_snake_case(BasicRNNCell.__name__)


# -- TF 1.15's model classes of this module (the layers are in layers.py) ----------------

class _CudnnRNN:
    """A cuDNN RNN model of given sizes: its params size, forward step and params
    conversions (the caller holds the params buffer)."""

    _rnn_mode = ""

    def __init__(self, rnn_mode: str, num_layers: int, num_units: int, input_size: int,
                 input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                 direction: str = CUDNN_RNN_UNIDIRECTION, dtype: Any = dtypes.float32,
                 dropout: float = 0., seed: int = 0, num_proj: Optional[int] = None):
        self._num_layers = num_layers
        self._num_units = num_units
        self._input_size = input_size
        self._rnn_mode = rnn_mode
        self._input_mode = input_mode
        self._direction = direction
        self._dtype = dtype
        self._dropout = dropout
        self._seed = seed
        self._num_proj = num_proj

    input_mode = property(lambda self: self._input_mode)
    input_size = property(lambda self: self._input_size)
    num_units = property(lambda self: self._num_units)
    num_layers = property(lambda self: self._num_layers)
    rnn_mode = property(lambda self: self._rnn_mode)
    direction = property(lambda self: self._direction)
    num_proj = property(lambda self: self._num_proj)

    def params_size(self) -> Any:
        """The size of the opaque params buffer of this model."""
        return cudnn_rnn_opaque_params_size(
            self._rnn_mode, self._num_layers, self._num_units, self._input_size,
            input_mode=self._input_mode, direction=self._direction, dtype=self._dtype,
            dropout=self._dropout, seed=self._seed, num_proj=self._num_proj)

    def __call__(self, input_data: Any, input_h: Any, input_c: Any, params: Any,
                 is_training: bool = True, sequence_lengths: Any = None,
                 time_major: bool = True) -> Tuple[Any, Any, Any]:
        return _cudnn_rnn(input_data, input_h, input_c, params, is_training, self._rnn_mode,
                          sequence_lengths=sequence_lengths, time_major=time_major,
                          input_mode=self._input_mode, direction=self._direction,
                          dropout=self._dropout, seed=self._seed, num_proj=self._num_proj)

    def params_to_canonical(self, params: Any) -> Tuple[List[Any], List[Any]]:
        """(cuDNN-canonical weights, biases) of `params`."""
        return cudnn_rnn_opaque_params_to_canonical(
            self._rnn_mode, self._num_layers, self._num_units, self._input_size, params,
            input_mode=self._input_mode, direction=self._direction, dropout=self._dropout,
            seed=self._seed, num_proj=self._num_proj)

    def canonical_to_params(self, weights: Sequence[Any], biases: Sequence[Any]) -> Any:
        """The opaque params of cuDNN-canonical `weights` and `biases`."""
        return cudnn_rnn_canonical_to_opaque_params(
            self._rnn_mode, self._num_layers, self._num_units, self._input_size, weights,
            biases, input_mode=self._input_mode, direction=self._direction,
            dropout=self._dropout, seed=self._seed, num_proj=self._num_proj)


class CudnnLSTM(_CudnnRNN):
    """cuDNN's LSTM model (TF 1.15's ops-module class; tf.contrib.cudnn_rnn.CudnnLSTM is
    the layer)."""

    def __init__(self, num_layers: int, num_units: int, input_size: int,
                 input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                 direction: str = CUDNN_RNN_UNIDIRECTION, dtype: Any = dtypes.float32,
                 dropout: float = 0., seed: int = 0, num_proj: Optional[int] = None):
        super().__init__(CUDNN_LSTM, num_layers, num_units, input_size,
                         input_mode=input_mode, direction=direction, dtype=dtype,
                         dropout=dropout, seed=seed, num_proj=num_proj)

    def __call__(self, input_data: Any, input_h: Any, input_c: Any, params: Any,
                 sequence_lengths: Any = None, time_major: bool = True,
                 is_training: bool = True) -> Tuple[Any, Any, Any]:
        return super().__call__(input_data, input_h, input_c, params,
                                sequence_lengths=sequence_lengths, time_major=time_major,
                                is_training=is_training)


class _CudnnRNNNoInputC(_CudnnRNN):
    """A cuDNN model without the cell state c."""

    def __init__(self, num_layers: int, num_units: int, input_size: int,
                 input_mode: str = CUDNN_INPUT_LINEAR_MODE,
                 direction: str = CUDNN_RNN_UNIDIRECTION, dtype: Any = dtypes.float32,
                 dropout: float = 0., seed: int = 0):
        check_direction(direction)
        super().__init__(self._rnn_mode, num_layers, num_units, input_size,
                         input_mode=input_mode, direction=direction, dtype=dtype,
                         dropout=dropout, seed=seed)

    def __call__(self, input_data: Any, input_h: Any, params: Any,  # type: ignore[override]
                 sequence_lengths: Any = None, time_major: bool = True,
                 is_training: bool = True) -> Tuple[Any, Any]:
        return _cudnn_rnn_no_input_c(input_data, input_h, params, is_training,
                                     self._rnn_mode, sequence_lengths=sequence_lengths,
                                     time_major=time_major, input_mode=self._input_mode,
                                     direction=self._direction, dropout=self._dropout,
                                     seed=self._seed)


class CudnnGRU(_CudnnRNNNoInputC):
    """cuDNN's GRU model (ops-module class)."""
    _rnn_mode = CUDNN_GRU


class CudnnRNNTanh(_CudnnRNNNoInputC):
    """cuDNN's tanh RNN model (ops-module class)."""
    _rnn_mode = CUDNN_RNN_TANH


class CudnnRNNRelu(_CudnnRNNNoInputC):
    """cuDNN's ReLU RNN model (ops-module class)."""
    _rnn_mode = CUDNN_RNN_RELU
