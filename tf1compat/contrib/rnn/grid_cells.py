"""TF 1.15's time-frequency LSTMs (contrib/rnn/python/ops/rnn_cell.py): TimeFreqLSTMCell
(Sainath & Li 2016), GridLSTMCell (Kalchbrenner et al. 2015, as used for speech) and
BidirectionalGridLSTMCell.

The input's feature axis is cut into overlapping frequency windows (`feature_size` wide,
`frequency_skip` apart, optionally in several blocks); an LSTM runs along frequency inside
each time step, and (Grid) a second LSTM carries each window's state through time.
Variable names are TF's: `W_<i>` shards and `B` (TimeFreq); `W_f_<b>`/`W_t_<b>` shards,
`B_f_<b>`/`B_t_<b>` and peepholes `W_{F,I,O}_diag_{freq,time}{f,t}_<b>` (Grid), under
`fwd/` and `bwd/` for the bidirectional cell.
"""

from __future__ import annotations

import collections
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import namespace as ops
from tf1compat.ops.transform_ops import pad
from tf1compat.rnn.cell_base import RNNCell
from tf1compat.contrib.rnn.more_cells import _get_concat_variable, _StoredSizes
from tf1compat.variables.init_ops import Zeros
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["TimeFreqLSTMCell", "GridLSTMCell", "BidirectionalGridLSTMCell"]


def _static_input_size(inputs: Any) -> int:
    size = inputs.get_shape().with_rank(2).dims[-1].value
    if size is None:
        raise ValueError("Cannot infer input_size from static shape inference.")
    return size


def _clip(c: Any, cell_clip: Optional[float]) -> Any:
    return c if cell_clip is None else ops.clip_by_value(c, -cell_clip, cell_clip)


class TimeFreqLSTMCell(RNNCell):
    """`tf.contrib.rnn.TimeFreqLSTMCell`: an LSTM along the frequency windows of each
    step. Its state holds (c, m) for every window, [batch, 2 * units * windows], although
    `state_size` says 2 * units (as TF 1.15's), so callers pass the initial state."""

    def __init__(self, num_units: int, use_peepholes: bool = False,
                 cell_clip: Optional[float] = None, initializer: Any = None,
                 num_unit_shards: int = 1, forget_bias: float = 1.0,
                 feature_size: Optional[int] = None, frequency_skip: int = 1,
                 reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_unit_shards = num_unit_shards
        self._forget_bias = forget_bias
        self._feature_size = feature_size
        self._frequency_skip = frequency_skip

    @property
    def output_size(self) -> int:
        return self._num_units

    @property
    def state_size(self) -> int:
        return 2 * self._num_units

    def call(self, inputs: Any, state: Any) -> Any:
        sigmoid, tanh, n = ops.sigmoid, ops.tanh, self._num_units
        freq_inputs = self._make_tf_features(inputs)
        dtype = inputs.dtype
        input_size = freq_inputs[0].get_shape().as_list()[1]
        concat_w = _get_concat_variable("W", [input_size + 2 * n, 4 * n], dtype,
                                        self._num_unit_shards)
        b = get_variable("B", shape=[4 * n], initializer=Zeros(), dtype=dtype)
        if self._use_peepholes:
            w_f_diag = get_variable("W_F_diag", shape=[n], dtype=dtype)
            w_i_diag = get_variable("W_I_diag", shape=[n], dtype=dtype)
            w_o_diag = get_variable("W_O_diag", shape=[n], dtype=dtype)
        batch = inputs.shape.dims[0].value or ops.shape(inputs)[0]
        m_prev_freq = ops.zeros([batch, n], dtype)
        state_out: Any = None
        m_out: Any = None
        for fq, freq_input in enumerate(freq_inputs):
            c_prev = ops.slice(state, [0, 2 * fq * n], [-1, n])
            m_prev = ops.slice(state, [0, (2 * fq + 1) * n], [-1, n])
            cell_inputs = ops.concat([freq_input, m_prev, m_prev_freq], 1)
            lstm_matrix = ops.bias_add(ops.matmul(cell_inputs, concat_w), b)
            i, j, f, o = ops.split(value=lstm_matrix, num_or_size_splits=4, axis=1)
            if self._use_peepholes:
                c = sigmoid(f + self._forget_bias + w_f_diag * c_prev) * c_prev + \
                    sigmoid(i + w_i_diag * c_prev) * tanh(j)
            else:
                c = sigmoid(f + self._forget_bias) * c_prev + sigmoid(i) * tanh(j)
            c = _clip(c, self._cell_clip)
            if self._use_peepholes:
                m = sigmoid(o + w_o_diag * c) * tanh(c)
            else:
                m = sigmoid(o) * tanh(c)
            m_prev_freq = m
            if fq == 0:
                state_out, m_out = ops.concat([c, m], 1), m
            else:
                state_out = ops.concat([state_out, c, m], 1)
                m_out = ops.concat([m_out, m], 1)
        return m_out, state_out

    def _make_tf_features(self, input_feat: Any) -> List[Any]:
        input_size = _static_input_size(input_feat)
        num_feats = int((input_size - self._feature_size) / self._frequency_skip) + 1
        return [ops.slice(input_feat, [0, f * self._frequency_skip], [-1, self._feature_size])
                for f in range(num_feats)]


def _state_names(prefix: str, num_frequency_blocks: List[int]) -> List[str]:
    names = []
    for block, count in enumerate(num_frequency_blocks):
        for freq in range(count):
            names += [f"{prefix}_f{freq:02d}_b{block:02d}_c",
                      f"{prefix}_f{freq:02d}_b{block:02d}_m"]
    return names


class GridLSTMCell(_StoredSizes, RNNCell):
    """`tf.contrib.rnn.GridLSTMCell`: per frequency window, a frequency LSTM and a time
    LSTM (separate `W_t`/`B_t` weights unless `share_time_frequency_weights`); the state
    is a GridLSTMStateTuple of (c, m) per window (`state_f<ff>_b<bb>_{c,m}`), the output
    the time and frequency m of every window."""

    def __init__(self, num_units: int, use_peepholes: bool = False,
                 share_time_frequency_weights: bool = False,
                 cell_clip: Optional[float] = None, initializer: Any = None,
                 num_unit_shards: int = 1, forget_bias: float = 1.0,
                 feature_size: Optional[int] = None, frequency_skip: Optional[int] = None,
                 num_frequency_blocks: Optional[List[int]] = None,
                 start_freqindex_list: Optional[List[int]] = None,
                 end_freqindex_list: Optional[List[int]] = None,
                 couple_input_forget_gates: bool = False, state_is_tuple: bool = True,
                 reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._use_peepholes = use_peepholes
        self._share_time_frequency_weights = share_time_frequency_weights
        self._couple_input_forget_gates = couple_input_forget_gates
        self._state_is_tuple = state_is_tuple
        self._cell_clip = cell_clip
        self._initializer = initializer
        self._num_unit_shards = num_unit_shards
        self._forget_bias = forget_bias
        self._feature_size = feature_size
        self._frequency_skip = frequency_skip
        self._start_freqindex_list = start_freqindex_list
        self._end_freqindex_list = end_freqindex_list
        if num_frequency_blocks is None:
            raise ValueError("Must specify num_frequency_blocks")
        self._num_frequency_blocks = num_frequency_blocks
        self._total_blocks = sum(int(b) for b in num_frequency_blocks)
        if state_is_tuple:
            self._state_tuple_type: Any = collections.namedtuple(
                "GridLSTMStateTuple", _state_names("state", num_frequency_blocks))
            self._state_size: Any = self._state_tuple_type(
                *([num_units, num_units] * self._total_blocks))
        else:
            self._state_tuple_type = None
            self._state_size = num_units * self._total_blocks * 2
        self._output_size = num_units * self._total_blocks * 2

    @property
    def state_tuple_type(self) -> Any:
        return self._state_tuple_type

    def call(self, inputs: Any, state: Any) -> Any:
        batch_size = dimension_value(inputs.shape[0]) or ops.shape(inputs)[0]
        m_out: List[Any] = []
        state_out: List[Any] = []
        for block, block_inputs in enumerate(self._make_tf_features(inputs)):
            m, s = self._compute(block_inputs, block, state, batch_size,
                                 state_is_tuple=self._state_is_tuple)
            m_out.extend(m)
            state_out.extend(s)
        new_state = self._state_tuple_type(*state_out) if self._state_is_tuple \
            else ops.concat(state_out, 1)
        return ops.concat(m_out, 1), new_state

    def _peepholes(self, block: int, dtype: Any) -> Dict[Tuple[str, str], Tuple[Any, Any]]:
        """(gate, "freq"/"time") -> the diagonal weights on the previous frequency and
        time cells, created in TF's order; the time LSTM reuses the frequency ones when
        the weights are shared."""
        gates = "IO" if self._couple_input_forget_gates else "FIO"
        kinds = ["freq"] if self._share_time_frequency_weights else ["freq", "time"]
        diag = {}
        for kind in kinds:
            for gate in gates:
                diag[(gate, kind)] = tuple(
                    get_variable(f"W_{gate}_diag_{kind}{src}_{block}", shape=[self._num_units],
                                 dtype=dtype) for src in "ft")
        if self._share_time_frequency_weights:
            diag.update({(gate, "time"): diag[(gate, "freq")] for gate in gates})
        return diag

    def _compute(self, freq_inputs: List[Any], block: int, state: Any, batch_size: Any,
                 state_prefix: str = "state", state_is_tuple: bool = True) -> tuple:
        n = self._num_units
        couple = self._couple_input_forget_gates
        num_gates = 3 if couple else 4
        dtype = freq_inputs[0].dtype
        shape = [freq_inputs[0].get_shape().as_list()[1] + 2 * n, num_gates * n]
        w_f = _get_concat_variable(f"W_f_{block}", shape, dtype, self._num_unit_shards)
        b_f = get_variable(f"B_f_{block}", shape=[num_gates * n], initializer=Zeros(),
                           dtype=dtype)
        if not self._share_time_frequency_weights:
            w_t = _get_concat_variable(f"W_t_{block}", shape, dtype, self._num_unit_shards)
            b_t = get_variable(f"B_t_{block}", shape=[num_gates * n], initializer=Zeros(),
                               dtype=dtype)
        diag = self._peepholes(block, dtype) if self._use_peepholes else {}

        def gate(x: Any, name: str, kind: str, c_freq: Any, c_time: Any,
                 bias: Optional[float] = None) -> Any:
            if bias is not None:
                x = x + bias
            if diag:
                w_freq, w_time = diag[(name, kind)]
                x = x + w_freq * c_freq + w_time * c_time
            return ops.sigmoid(x)

        def split(matrix: Any) -> list:
            parts = ops.split(value=matrix, num_or_size_splits=num_gates, axis=1)
            return [parts[0], parts[1], None, parts[2]] if couple else parts

        m_prev_freq = ops.zeros([batch_size, n], dtype)
        c_prev_freq = ops.zeros([batch_size, n], dtype)
        m_out: List[Any] = []
        state_out: List[Any] = []
        for freq_index, freq_input in enumerate(freq_inputs):
            if state_is_tuple:
                prefix = f"{state_prefix}_f{freq_index:02d}_b{block:02d}"
                c_prev_time = getattr(state, prefix + "_c")
                m_prev_time = getattr(state, prefix + "_m")
            else:
                c_prev_time = ops.slice(state, [0, 2 * freq_index * n], [-1, n])
                m_prev_time = ops.slice(state, [0, (2 * freq_index + 1) * n], [-1, n])
            cell_inputs = ops.concat([freq_input, m_prev_time, m_prev_freq], 1)
            i_freq, j_freq, f_freq, o_freq = split(
                ops.bias_add(ops.matmul(cell_inputs, w_f), b_f))
            if self._share_time_frequency_weights:
                i_time, j_time, f_time, o_time = i_freq, j_freq, f_freq, o_freq
            else:
                i_time, j_time, f_time, o_time = split(
                    ops.bias_add(ops.matmul(cell_inputs, w_t), b_t))
            i_freq_g = gate(i_freq, "I", "freq", c_prev_freq, c_prev_time)
            f_freq_g = 1.0 - i_freq_g if couple else gate(
                f_freq, "F", "freq", c_prev_freq, c_prev_time, self._forget_bias)
            c_freq = _clip(f_freq_g * c_prev_freq + i_freq_g * ops.tanh(j_freq),
                           self._cell_clip)
            i_time_g = gate(i_time, "I", "time", c_prev_freq, c_prev_time)
            f_time_g = 1.0 - i_time_g if couple else gate(
                f_time, "F", "time", c_prev_freq, c_prev_time, self._forget_bias)
            c_time = _clip(f_time_g * c_prev_time + i_time_g * ops.tanh(j_time),
                           self._cell_clip)
            m_freq = gate(o_freq, "O", "freq", c_freq, c_time) * ops.tanh(c_freq)
            m_time = gate(o_time, "O", "time", c_freq, c_time) * ops.tanh(c_time)
            m_prev_freq, c_prev_freq = m_freq, c_freq
            state_out.extend([c_time, m_time])
            m_out.extend([m_time, m_freq])
        return m_out, state_out

    def _make_tf_features(self, input_feat: Any, slice_offset: int = 0) -> List[List[Any]]:
        """The frequency windows of each block ([batch, feature_size] slices); a positive
        `slice_offset` pads zeros on the right and shifts the windows, a negative one pads
        on the left."""
        input_size = _static_input_size(input_feat)
        if slice_offset > 0:
            inputs = pad(input_feat, [[0, 0], [0, slice_offset]], "CONSTANT")
        elif slice_offset < 0:
            inputs = pad(input_feat, [[0, 0], [-slice_offset, 0]], "CONSTANT")
            slice_offset = 0
        else:
            inputs = input_feat
        if not self._start_freqindex_list:
            if len(self._num_frequency_blocks) != 1:
                raise ValueError(f"Length of num_frequency_blocks is not 1, but instead is "
                                 f"{len(self._num_frequency_blocks)}")
            ranges = [(0, input_size)]
        else:
            if len(self._start_freqindex_list) != len(self._end_freqindex_list):
                raise ValueError("Length of start and end freqindex_list does not match "
                                 f"{len(self._start_freqindex_list)} "
                                 f"{len(self._end_freqindex_list)}")
            if len(self._num_frequency_blocks) != len(self._start_freqindex_list):
                raise ValueError("Length of num_frequency_blocks is not equal to "
                                 f"start_freqindex_list {len(self._num_frequency_blocks)} "
                                 f"{len(self._start_freqindex_list)}")
            ranges = list(zip(self._start_freqindex_list, self._end_freqindex_list))
        freq_inputs = []
        for b, (start, end) in enumerate(ranges):
            block_feats = int((end - start - self._feature_size) / self._frequency_skip) + 1
            if block_feats != self._num_frequency_blocks[b]:
                raise ValueError(f"Invalid num_frequency_blocks, requires "
                                 f"{self._num_frequency_blocks[b]} but gets {block_feats}, "
                                 "please check the input size and filter config are "
                                 "correct.")
            freq_inputs.append([
                ops.slice(inputs, [0, start + slice_offset + f * self._frequency_skip],
                          [-1, self._feature_size]) for f in range(block_feats)])
        return freq_inputs


class BidirectionalGridLSTMCell(GridLSTMCell):
    """`tf.contrib.rnn.BidirectionalGridLSTMCell`: a GridLSTMCell run over the frequency
    windows forwards (scope `fwd`) and backwards (scope `bwd`, optionally on windows
    shifted by `backward_slice_offset`); state fields `{fwd,bwd}_state_f<ff>_b<bb>_{c,m}`."""

    def __init__(self, num_units: int, use_peepholes: bool = False,
                 share_time_frequency_weights: bool = False,
                 cell_clip: Optional[float] = None, initializer: Any = None,
                 num_unit_shards: int = 1, forget_bias: float = 1.0,
                 feature_size: Optional[int] = None, frequency_skip: Optional[int] = None,
                 num_frequency_blocks: Optional[List[int]] = None,
                 start_freqindex_list: Optional[List[int]] = None,
                 end_freqindex_list: Optional[List[int]] = None,
                 couple_input_forget_gates: bool = False, backward_slice_offset: int = 0,
                 reuse: Any = None):
        super().__init__(num_units, use_peepholes, share_time_frequency_weights, cell_clip,
                         initializer, num_unit_shards, forget_bias, feature_size,
                         frequency_skip, num_frequency_blocks, start_freqindex_list,
                         end_freqindex_list, couple_input_forget_gates, True, reuse)
        self._backward_slice_offset = int(backward_slice_offset)
        names = [name for direction in ("fwd", "bwd")
                 for name in _state_names(f"{direction}_state", self._num_frequency_blocks)]
        self._state_tuple_type = collections.namedtuple("BidirectionalGridLSTMStateTuple",
                                                        names)
        self._state_size = self._state_tuple_type(
            *([num_units, num_units] * self._total_blocks * 2))
        self._output_size = 2 * num_units * self._total_blocks * 2

    def call(self, inputs: Any, state: Any) -> Any:
        batch_size = dimension_value(inputs.shape[0]) or ops.shape(inputs)[0]
        fwd_inputs = self._make_tf_features(inputs)
        bwd_inputs = self._make_tf_features(inputs, self._backward_slice_offset) \
            if self._backward_slice_offset else fwd_inputs
        m_out: List[Any] = []
        state_out: List[Any] = []
        for direction, blocks in (("fwd", fwd_inputs), ("bwd", bwd_inputs)):
            with variable_scope(direction):
                for block, block_inputs in enumerate(blocks):
                    if direction == "bwd":
                        block_inputs = block_inputs[::-1]
                    m, s = self._compute(block_inputs, block, state, batch_size,
                                         state_prefix=f"{direction}_state",
                                         state_is_tuple=True)
                    m_out.extend(m)
                    state_out.extend(s)
        # (TF's order: every fwd output, then every bwd one)
        return ops.concat(m_out, 1), self._state_tuple_type(*state_out)
