"""`tf.contrib.rnn.LSTMBlockFusedCell` (TF 1.15) and TF's `BlockLSTM` / `BlockLSTMV2` ops: a
whole LSTM sequence as one op (Mozilla DeepSpeech's and other TF1 models' inference graphs
hold it).

`BlockLSTM` is `LSTMBlockCell` applied over time: gates i, ci, f, o (`BlockLSTMV2`: i, f,
ci, o and no forget_bias) from [x_t, h_{t-1}] w + b, outputs i, cs, f, o, ci, co, h of
shape [time, batch, units], zeros from `seq_len_max` on. Its kernel is that loop of torch
ops, so gradients come from autograd (TF writes BlockLSTMGrad; values agree, the cell
clip passing gradients through as TF's does). TF's BlockLSTMV2 gradient applies V1's
gate layout to V2's (a TF bug); tf1compat's is the true gradient.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import torch

from tf1compat.contrib.rnn.contrib_cells import lstm_block_step
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.layers.base import Layer
from tf1compat.ops import namespace as ops
from tf1compat.ops.indexing_ops import gather_nd, sequence_mask
from tf1compat.rnn.cell_base import LSTMStateTuple
from tf1compat.variables.init_ops import Constant

__all__ = ["LSTMBlockWrapper", "LSTMBlockFusedCell"]


def _block_lstm_shape(ctx: Any) -> List[TensorShape]:
    x, state = ctx.shape(1), ctx.shape(2)
    if x.rank is not None and x.rank != 3:
        raise ValueError(f"Shape must be rank 3 but is rank {x.rank} for '{ctx.name}'")
    dims = x.as_list() if x.rank == 3 else [None, None, None]
    units = state.as_list()[1] if state.rank == 2 else None
    if dims[1] is None and state.rank == 2:
        dims[1] = state.as_list()[0]
    shape = TensorShape([dims[0], dims[1], units]) if (x.rank, state.rank) != (None, None) \
        else unknown_shape()
    return [shape] * 7


def _block_lstm_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    ifco = node.type == "BlockLSTMV2"
    forget_bias = 0.0 if ifco else float(node.attrs["forget_bias"])
    cell_clip = float(node.attrs["cell_clip"])
    peephole = bool(node.attrs["use_peephole"])

    def run(seq_len_max: Any, x: torch.Tensor, cs_prev: torch.Tensor, h_prev: torch.Tensor,
            w: torch.Tensor, wci: torch.Tensor, wcf: torch.Tensor, wco: torch.Tensor,
            b: torch.Tensor) -> tuple:
        steps = min(int(seq_len_max), x.shape[0])
        series: List[List[torch.Tensor]] = [[] for _ in range(7)]
        cs, h = cs_prev, h_prev
        for t in range(steps):
            step = lstm_block_step(x[t], cs, h, w, wci, wcf, wco, b, forget_bias, cell_clip,
                                   peephole, ifco)
            cs, h = step[1], step[6]
            for k, value in enumerate(step):
                series[k].append(value)
        pad = x.new_zeros((x.shape[0] - steps,) + tuple(cs_prev.shape))
        return tuple(torch.cat([torch.stack(s), pad]) if s else pad.clone() for s in series)
    return run


_INPUTS = ["seq_len_max: int64", "x: T", "cs_prev: T", "h_prev: T", "w: T", "wci: T",
           "wcf: T", "wco: T", "b: T"]
_OUTPUTS = ["i: T", "cs: T", "f: T", "o: T", "ci: T", "co: T", "h: T"]
declare("BlockLSTM", inputs=_INPUTS, outputs=_OUTPUTS,
        attrs={"forget_bias": 1.0, "cell_clip": 3.0, "use_peephole": False,
               "T": Type((D.float16, D.float32))},
        shape=_block_lstm_shape, kernel=_block_lstm_kernel, grad_none_inputs=(0,),
        doc="LSTMBlockCell over all time steps (gates i, ci, f, o).")
declare("BlockLSTMV2", inputs=_INPUTS, outputs=_OUTPUTS,
        attrs={"cell_clip": 0.0, "use_peephole": False, "T": Type((D.float16, D.float32))},
        shape=_block_lstm_shape, kernel=_block_lstm_kernel, grad_none_inputs=(0,),
        doc="BlockLSTM with gates i, f, ci, o and no forget_bias.")


class LSTMBlockWrapper(Layer):
    """`tf.contrib.rnn.LSTMBlockWrapper`: the housekeeping of a sequence LSTM layer (zero
    initial state, list inputs, sequence_length masking and final-state gather) around a
    subclass's `_call_cell(inputs, initial_cell_state, initial_output, dtype,
    sequence_length)` -> (cell states, outputs) and `num_units`."""

    @property
    def num_units(self) -> int:
        """Number of units in this cell (output dimension)."""
        raise NotImplementedError("LSTMBlockWrapper subclasses define num_units")

    def _call_cell(self, inputs: Any, initial_cell_state: Any, initial_output: Any,
                   dtype: Any, sequence_length: Optional[Any]) -> tuple:
        raise NotImplementedError("LSTMBlockWrapper subclasses define _call_cell")

    def call(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
             sequence_length: Any = None) -> Any:
        is_list = isinstance(inputs, list)
        if is_list:
            inputs = ops.stack(inputs)
        shape = inputs.get_shape().with_rank(3)
        if not shape[2]:
            raise ValueError(f"Expecting inputs_shape[2] to be set: {shape}")
        batch_size = shape.dims[1].value
        if batch_size is None:
            batch_size = ops.shape(inputs)[1]
        time_len = shape.dims[0].value
        if time_len is None:
            time_len = ops.shape(inputs)[0]
        if initial_state is None:
            if dtype is None:
                raise ValueError("Either initial_state or dtype needs to be specified")
            zeros = ops.zeros(ops.stack([batch_size, self.num_units]), dtype=dtype)
            initial_state = zeros, zeros
        else:
            if len(initial_state) != 2:
                raise ValueError(
                    "Expecting initial_state to be a tuple with length 2 or None")
            if dtype is None:
                dtype = initial_state[0].dtype
        if sequence_length is not None:
            sequence_length = ops.convert_to_tensor(sequence_length)
        initial_cell, initial_output = initial_state
        cell_states, outputs = self._call_cell(inputs, initial_cell, initial_output, dtype,
                                               sequence_length)
        if sequence_length is not None:
            mask = ops.transpose(sequence_mask(sequence_length, time_len, dtype=dtype),
                                 [1, 0])
            outputs *= ops.tile(ops.expand_dims(mask, [-1]), [1, 1, self.num_units])
            # The initial state goes first, so a length of 0 picks it.
            all_cells = ops.concat([ops.expand_dims(initial_cell, [0]), cell_states], 0)
            all_outputs = ops.concat([ops.expand_dims(initial_output, [0]), outputs], 0)
            final_cell = self._gather_states(all_cells, sequence_length, batch_size)
            final_output = self._gather_states(all_outputs, sequence_length, batch_size)
        else:
            final_cell, final_output = cell_states[-1], outputs[-1]
        if is_list:
            outputs = ops.unstack(outputs)
        return outputs, LSTMStateTuple(final_cell, final_output)

    def _gather_states(self, data: Any, indices: Any, batch_size: Any) -> Any:
        return gather_nd(data, ops.stack([indices, ops.range(batch_size)], axis=1))


class LSTMBlockFusedCell(LSTMBlockWrapper):
    """`tf.contrib.rnn.LSTMBlockFusedCell`: the LSTM over a time-major sequence as one
    BlockLSTM op. Called as `cell(inputs, initial_state=None, dtype=None,
    sequence_length=None)` on [time, batch, input] inputs (or a list of [batch, input]
    steps); returns (outputs, LSTMStateTuple(c, h)), outputs zeroed past each
    sequence's length and the final state taken at it, as TF 1.15."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, cell_clip: Any = None,
                 use_peephole: bool = False, reuse: Any = None, dtype: Any = None,
                 name: str = "lstm_fused_cell"):
        super().__init__(_reuse=reuse, name=name, dtype=dtype)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self._use_peephole = use_peephole
        self.input_spec = InputSpec(ndim=3)

    @property
    def num_units(self) -> int:
        return self._num_units

    def build(self, input_shape: Any) -> None:
        input_size = input_shape.dims[2].value
        self._kernel = self.add_weight("kernel", [input_size + self._num_units,
                                                    self._num_units * 4])
        self._bias = self.add_weight("bias", [self._num_units * 4],
                                       initializer=Constant(0.0))
        if self._use_peephole:
            self._w_i_diag = self.add_weight("w_i_diag", [self._num_units])
            self._w_f_diag = self.add_weight("w_f_diag", [self._num_units])
            self._w_o_diag = self.add_weight("w_o_diag", [self._num_units])
        self.built = True

    def _call_cell(self, inputs: Any, initial_cell_state: Any, initial_output: Any,
                   dtype: Any, sequence_length: Optional[Any]) -> tuple:
        time_len = inputs.get_shape().with_rank(3).dims[0].value
        if time_len is None:
            time_len = ops.shape(inputs)[0]
        if self._use_peephole:
            wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
        else:
            wci = wcf = wco = ops.zeros([self._num_units], dtype=dtype)
        if sequence_length is None:
            max_seq_len = ops.cast(time_len, D.int64)
        else:
            max_seq_len = ops.cast(ops.reduce_max(sequence_length), D.int64)
        op = apply_op("BlockLSTM", [max_seq_len, inputs, initial_cell_state, initial_output,
                                    self._kernel, wci, wcf, wco, self._bias],
                      {"forget_bias": float(self._forget_bias),
                       "cell_clip": float(self._cell_clip),
                       "use_peephole": bool(self._use_peephole)})
        return op._outputs[1], op._outputs[6]
