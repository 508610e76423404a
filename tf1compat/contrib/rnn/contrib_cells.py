"""The tf.contrib.rnn cells and helpers beyond core (TF 1.15 semantics): LSTMBlockCell and
GRUBlockCell(V2) on TF's fused `LSTMBlockCell` / `GRUBlockCell` ops, LayerNormBasicLSTMCell,
the projection and embedding wrappers, and the stacked bidirectional RNNs.

The fused ops are declared with TF's signatures (outputs `i, cs, f, o, ci, co, h` and
`r, u, c, h`); their kernels are a handful of torch ops, so gradients come from autograd.
LSTMBlockCell's weights are named as LSTMCell's (`lstm_cell/kernel`, `lstm_cell/bias`,
gates i, ci, f, o); GRUBlockCellV2's as GRUCell's (`gates/kernel`, `candidate/bias`, ...),
GRUBlockCell keeps TF's swapped names (`w_c` holds the gates, `w_ru` the candidate).
"""

from __future__ import annotations

import math
from typing import Any, Callable, List, Optional

import torch

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.ops import namespace as ops
from tf1compat.rnn.cell_base import LayerRNNCell, LSTMStateTuple, RNNCell, assert_like_rnncell
from tf1compat.rnn.dynamic import bidirectional_dynamic_rnn
from tf1compat.rnn.static import static_bidirectional_rnn
from tf1compat.variables.init_ops import Constant, RandomUniform
from tf1compat.variables.variable_scope import (get_variable, get_variable_scope,
                                                variable_scope)

__all__ = ["LSTMBlockCell", "GRUBlockCell", "GRUBlockCellV2", "LayerNormBasicLSTMCell",
           "EmbeddingWrapper", "InputProjectionWrapper", "OutputProjectionWrapper",
           "stack_bidirectional_rnn", "stack_bidirectional_dynamic_rnn"]


# -- fused ops ---------------------------------------------------------------------------------

def _cell_outputs_shape(n_outputs: int, state_input: int) -> Callable[[Any], list]:
    def rule(ctx: Any) -> List[TensorShape]:
        x, state = ctx.shape(0), ctx.shape(state_input)
        if x.rank is not None and x.rank != 2:
            raise ValueError(f"Shape must be rank 2 but is rank {x.rank} for '{ctx.name}'")
        batch = x.as_list()[0] if x.rank == 2 else None
        cells = state.as_list()[1] if state.rank == 2 else None
        if batch is None and state.rank == 2:
            batch = state.as_list()[0]
        shape = TensorShape([batch, cells]) if (x.rank, state.rank) != (None, None) \
            else unknown_shape()
        return [shape] * n_outputs
    return rule


def clip_as_tf(cs: torch.Tensor, cell_clip: float) -> torch.Tensor:
    """The cell state clipped to [-cell_clip, cell_clip], with the gradient passed through
    unchanged as TF's LSTMBlockCellGrad/BlockLSTMGrad do (they ignore the clip)."""
    return cs + (cs.clamp(-cell_clip, cell_clip) - cs).detach()


def lstm_block_step(x: Any, cs_prev: Any, h_prev: Any, w: Any, wci: Any, wcf: Any, wco: Any,
                    b: Any, forget_bias: float, cell_clip: float, peephole: bool,
                    ifco: bool = False) -> tuple:
    """One step of TF's fused LSTM: (i, cs, f, o, ci, co, h) from [x, h_prev] w + b with
    gates in i, ci, f, o order (`ifco`: i, f, ci, o, as BlockLSTMV2's)."""
    gates = torch.addmm(b, torch.cat([x, h_prev], 1), w)
    if ifco:
        i, f, ci, o = gates.chunk(4, 1)
    else:
        i, ci, f, o = gates.chunk(4, 1)
    f = f + forget_bias
    if peephole:
        i = torch.sigmoid(i + cs_prev * wci)
        f = torch.sigmoid(f + cs_prev * wcf)
    else:
        i, f = torch.sigmoid(i), torch.sigmoid(f)
    ci = torch.tanh(ci)
    cs = ci * i + cs_prev * f
    if cell_clip > 0:
        cs = clip_as_tf(cs, cell_clip)
    o = torch.sigmoid(o + cs * wco) if peephole else torch.sigmoid(o)
    co = torch.tanh(cs)
    return i, cs, f, o, ci, co, co * o


def _lstm_block_cell_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    forget_bias = float(node.attrs["forget_bias"])
    cell_clip = float(node.attrs["cell_clip"])
    peephole = bool(node.attrs["use_peephole"])

    def run(x: Any, cs_prev: Any, h_prev: Any, w: Any, wci: Any, wcf: Any, wco: Any,
            b: Any) -> tuple:
        return lstm_block_step(x, cs_prev, h_prev, w, wci, wcf, wco, b, forget_bias,
                               cell_clip, peephole)
    return run


def _gru_block_cell_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(x: Any, h_prev: Any, w_ru: Any, w_c: Any, b_ru: Any, b_c: Any) -> tuple:
        r, u = torch.sigmoid(torch.addmm(b_ru, torch.cat([x, h_prev], 1), w_ru)).chunk(2, 1)
        c = torch.tanh(torch.addmm(b_c, torch.cat([x, r * h_prev], 1), w_c))
        return r, u, c, u * h_prev + (1 - u) * c
    return run


_FLOATS = (D.float16, D.float32)
declare("LSTMBlockCell",
        inputs=["x: T", "cs_prev: T", "h_prev: T", "w: T", "wci: T", "wcf: T", "wco: T",
                "b: T"],
        outputs=["i: T", "cs: T", "f: T", "o: T", "ci: T", "co: T", "h: T"],
        attrs={"forget_bias": 1.0, "cell_clip": 3.0, "use_peephole": False,
               "T": Type(_FLOATS)},
        shape=_cell_outputs_shape(7, 1), kernel=_lstm_block_cell_kernel,
        doc="One fused LSTM step: gates i, ci, f, o from [x, h_prev] w + b.")
declare("GRUBlockCell",
        inputs=["x: T", "h_prev: T", "w_ru: T", "w_c: T", "b_ru: T", "b_c: T"],
        outputs=["r: T", "u: T", "c: T", "h: T"], attrs={"T": Type((D.float32,))},
        shape=_cell_outputs_shape(4, 1), kernel=_gru_block_cell_kernel,
        doc="One fused GRU step: reset/update gates, candidate, new state.")


# -- block cells -------------------------------------------------------------------------------

class LSTMBlockCell(LayerRNNCell):
    """`tf.contrib.rnn.LSTMBlockCell`: the LSTM as one fused op (same weights and math as
    LSTMCell without projection; `cell_clip=None` means no clipping)."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, cell_clip: Any = None,
                 use_peephole: bool = False, dtype: Any = None, reuse: Any = None,
                 name: str = "lstm_cell"):
        super().__init__(_reuse=reuse, dtype=dtype, name=name)
        self._num_units = num_units
        self._forget_bias = forget_bias
        self._use_peephole = use_peephole
        self._cell_clip = cell_clip if cell_clip is not None else -1
        self.input_spec = InputSpec(ndim=2)

    @property
    def state_size(self) -> LSTMStateTuple:
        return LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self) -> int:
        return self._num_units

    def build(self, inputs_shape: Any) -> None:
        input_size = TensorShape(inputs_shape).as_list()[1]
        if not input_size:
            raise ValueError(f"Expecting inputs_shape[1] to be set: {inputs_shape}")
        n = self._num_units
        self._kernel = self.add_weight("kernel", [input_size + n, n * 4])
        self._bias = self.add_weight("bias", [n * 4], initializer=Constant(0.0))
        if self._use_peephole:
            self._w_i_diag = self.add_weight("w_i_diag", [n])
            self._w_f_diag = self.add_weight("w_f_diag", [n])
            self._w_o_diag = self.add_weight("w_o_diag", [n])
        self.built = True

    def call(self, inputs: Any, state: Any) -> Any:
        if len(state) != 2:
            raise ValueError("Expecting state to be a tuple with length 2.")
        if self._use_peephole:
            wci, wcf, wco = self._w_i_diag, self._w_f_diag, self._w_o_diag
        else:
            wci = wcf = wco = ops.zeros([self._num_units], dtype=self.dtype)
        cs_prev, h_prev = state
        outs = apply_op("LSTMBlockCell",
                        [inputs, cs_prev, h_prev, self._kernel, wci, wcf, wco, self._bias],
                        {"forget_bias": self._forget_bias, "cell_clip": self._cell_clip,
                         "use_peephole": self._use_peephole}).outputs
        cs, h = outs[1], outs[6]
        return h, LSTMStateTuple(cs, h)


class GRUBlockCell(LayerRNNCell):
    """`tf.contrib.rnn.GRUBlockCell`: the GRU as one fused op (TF's variable names `w_ru`,
    `b_ru`, `w_c`, `b_c`, with the gate kernel stored as `w_c`)."""

    _names = ("w_c", "b_ru", "w_ru", "b_c")

    def __init__(self, num_units: Optional[int] = None, cell_size: Optional[int] = None,
                 reuse: Any = None, name: str = "gru_cell"):
        super().__init__(_reuse=reuse, name=name)
        if (cell_size is None) == (num_units is None):
            raise ValueError("Exactly one of num_units or cell_size must be provided.")
        self._cell_size = num_units if num_units is not None else cell_size
        self.input_spec = InputSpec(ndim=2)

    @property
    def state_size(self) -> int:
        return self._cell_size

    @property
    def output_size(self) -> int:
        return self._cell_size

    def _input_size(self, input_shape: Any) -> int:
        input_size = TensorShape(input_shape).as_list()[1]
        if input_size is None:
            raise ValueError("Expecting input_size to be set.")
        return input_size

    def build(self, input_shape: Any) -> None:
        n, size = self._cell_size, self._input_size(input_shape)
        gate_k, gate_b, cand_k, cand_b = self._names
        self._gate_kernel = get_variable(gate_k, [size + n, n * 2])
        self._gate_bias = get_variable(gate_b, [n * 2], initializer=Constant(1.0))
        self._candidate_kernel = get_variable(cand_k, [size + n, n])
        self._candidate_bias = get_variable(cand_b, [n], initializer=Constant(0.0))
        self.built = True

    def call(self, inputs: Any, h_prev: Any) -> Any:
        cell_size = h_prev.shape.with_rank(2).as_list()[1]
        if cell_size != self._cell_size:
            raise ValueError(f"Shape of h_prev[1] incorrect: cell_size {self._cell_size} vs "
                             f"{cell_size}")
        new_h = apply_op("GRUBlockCell",
                         [inputs, h_prev, self._gate_kernel, self._candidate_kernel,
                          self._gate_bias, self._candidate_bias]).outputs[3]
        return new_h, new_h


class GRUBlockCellV2(GRUBlockCell):
    """`tf.contrib.rnn.GRUBlockCellV2`: GRUBlockCell with GRUCell's variable names."""

    def build(self, input_shape: Any) -> None:
        n, size = self._cell_size, self._input_size(input_shape)
        with variable_scope("gates"):
            self._gate_kernel = get_variable("kernel", [size + n, n * 2])
            self._gate_bias = get_variable("bias", [n * 2], initializer=Constant(1.0))
        with variable_scope("candidate"):
            self._candidate_kernel = get_variable("kernel", [size + n, n])
            self._candidate_bias = get_variable("bias", [n], initializer=Constant(0.0))
        self.built = True


# -- layer-normalized LSTM --------------------------------------------------------------------

class LayerNormBasicLSTMCell(RNNCell):
    """`tf.contrib.rnn.LayerNormBasicLSTMCell`: a basic LSTM with layer normalization of
    each gate and of the new cell state (variables `<gate>/gamma`, `<gate>/beta` for gates
    input, transform, forget, output and state) and recurrent dropout on the candidate."""

    def __init__(self, num_units: int, forget_bias: float = 1.0, input_size: Any = None,
                 activation: Any = None, layer_norm: bool = True, norm_gain: float = 1.0,
                 norm_shift: float = 0.0, dropout_keep_prob: Any = 1.0,
                 dropout_prob_seed: Optional[int] = None, reuse: Any = None):
        super().__init__(_reuse=reuse)
        self._num_units = num_units
        self._activation = activation or ops.tanh
        self._forget_bias = forget_bias
        self._keep_prob = dropout_keep_prob
        self._seed = dropout_prob_seed
        self._layer_norm = layer_norm
        self._norm_gain = norm_gain
        self._norm_shift = norm_shift

    @property
    def state_size(self) -> LSTMStateTuple:
        return LSTMStateTuple(self._num_units, self._num_units)

    @property
    def output_size(self) -> int:
        return self._num_units

    def _norm(self, inp: Any, scope: str, dtype: Any = D.float32) -> Any:
        from tf1compat.contrib.layers.layers import layer_norm
        shape = inp.shape[-1:]
        with variable_scope(scope):
            get_variable("gamma", shape=shape, initializer=Constant(self._norm_gain),
                         dtype=dtype)
            get_variable("beta", shape=shape, initializer=Constant(self._norm_shift),
                         dtype=dtype)
        return layer_norm(inp, reuse=True, scope=scope)

    def _linear(self, args: Any) -> Any:
        out_size = 4 * self._num_units
        weights = get_variable("kernel", [args.shape[-1], out_size], dtype=args.dtype)
        out = ops.matmul(args, weights)
        if not self._layer_norm:
            bias = get_variable("bias", [out_size], dtype=args.dtype)
            out = ops.bias_add(out, bias)
        return out

    def call(self, inputs: Any, state: Any) -> Any:
        c, h = state
        args = ops.concat([inputs, h], 1)
        concat = self._linear(args)
        dtype = args.dtype
        i, j, f, o = ops.split(value=concat, num_or_size_splits=4, axis=1)
        if self._layer_norm:
            i = self._norm(i, "input", dtype=dtype)
            j = self._norm(j, "transform", dtype=dtype)
            f = self._norm(f, "forget", dtype=dtype)
            o = self._norm(o, "output", dtype=dtype)
        g = self._activation(j)
        if not isinstance(self._keep_prob, float) or self._keep_prob < 1:
            g = ops.dropout(g, self._keep_prob, seed=self._seed)
        new_c = c * ops.sigmoid(f + self._forget_bias) + ops.sigmoid(i) * g
        if self._layer_norm:
            new_c = self._norm(new_c, "state", dtype=dtype)
        new_h = self._activation(new_c) * ops.sigmoid(o)
        return new_h, LSTMStateTuple(new_c, new_h)


# -- projection and embedding wrappers -----------------------------------------------------

class _Linear:
    """`sum_i(args[i] W_i) + b` with `kernel` and `bias` variables created in the current
    variable scope (contrib's _Linear)."""

    def __init__(self, args: Any, output_size: int, build_bias: bool,
                 bias_initializer: Any = None, kernel_initializer: Any = None):
        self._build_bias = build_bias
        if args is None or (nest.is_nested(args) and not args):
            raise ValueError("`args` must be specified")
        self._is_sequence = nest.is_nested(args)
        if not self._is_sequence:
            args = [args]
        total = 0
        shapes = [a.shape for a in args]
        for shape in shapes:
            if shape.rank != 2:
                raise ValueError(f"linear is expecting 2D arguments: {shapes}")
            if shape.as_list()[1] is None:
                raise ValueError(f"linear expects shape[1] to be provided for shape {shape}, "
                                 f"but saw {shape[1]}")
            total += shape.as_list()[1]
        dtype = args[0].dtype
        with variable_scope(get_variable_scope()) as outer_scope:
            self._weights = get_variable("kernel", [total, output_size], dtype=dtype,
                                         initializer=kernel_initializer)
            if build_bias:
                with variable_scope(outer_scope) as inner_scope:
                    inner_scope.set_partitioner(None)
                    if bias_initializer is None:
                        bias_initializer = Constant(0.0, dtype=dtype)
                    self._biases = get_variable("bias", [output_size], dtype=dtype,
                                                initializer=bias_initializer)

    def __call__(self, args: Any) -> Any:
        if not self._is_sequence:
            args = [args]
        if len(args) == 1:
            res = ops.matmul(args[0], self._weights)
        else:
            one = ops.constant(1, dtype=D.int32)
            res = ops.matmul(ops.concat(args, one), self._weights)
        if self._build_bias:
            res = ops.bias_add(res, self._biases)
        return res


class _ContribWrapper(RNNCell):
    def __init__(self, cell: Any, reuse: Any = None):
        super().__init__(_reuse=reuse)
        try:
            assert_like_rnncell("cell", cell)
        except TypeError:
            raise TypeError("The parameter cell is not RNNCell.") from None
        self._cell = cell

    @property
    def state_size(self) -> Any:
        return self._cell.state_size

    @property
    def output_size(self) -> Any:
        return self._cell.output_size

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        with ops.name_scope(type(self).__name__ + "ZeroState"):
            return self._cell.zero_state(batch_size, dtype)


class EmbeddingWrapper(_ContribWrapper):
    """`tf.contrib.rnn.EmbeddingWrapper`: embeds integer inputs (variable `embedding`,
    uniform in +-sqrt(3) by default) before the cell."""

    def __init__(self, cell: Any, embedding_classes: int, embedding_size: int,
                 initializer: Any = None, reuse: Any = None):
        super().__init__(cell, reuse)
        if embedding_classes <= 0 or embedding_size <= 0:
            raise ValueError("Both embedding_classes and embedding_size must be > 0: "
                             f"{embedding_classes}, {embedding_size}.")
        self._embedding_classes = embedding_classes
        self._embedding_size = embedding_size
        self._initializer = initializer

    def call(self, inputs: Any, state: Any) -> Any:
        from tf1compat.ops.nn_embedding import embedding_lookup
        with ops.device("/cpu:0"):
            initializer = self._initializer or get_variable_scope().initializer
            if not initializer:
                sqrt3 = math.sqrt(3)
                initializer = RandomUniform(-sqrt3, sqrt3)
            data_type = state[0].dtype if isinstance(state, tuple) else state.dtype
            embedding = get_variable("embedding",
                                     [self._embedding_classes, self._embedding_size],
                                     initializer=initializer, dtype=data_type)
            embedded = embedding_lookup(embedding, ops.reshape(inputs, [-1]))
            return self._cell(embedded, state)


class InputProjectionWrapper(_ContribWrapper):
    """`tf.contrib.rnn.InputProjectionWrapper`: a linear map of the inputs to `num_proj`
    (variables `kernel`, `bias` in the wrapper's scope) before the cell."""

    def __init__(self, cell: Any, num_proj: int, activation: Any = None,
                 input_size: Any = None, reuse: Any = None):
        super().__init__(cell, reuse)
        self._num_proj = num_proj
        self._activation = activation
        self._linear: Optional[_Linear] = None

    def call(self, inputs: Any, state: Any) -> Any:
        if self._linear is None:
            self._linear = _Linear(inputs, self._num_proj, True)
        projected = self._linear(inputs)
        if self._activation:
            projected = self._activation(projected)
        return self._cell(projected, state)


class OutputProjectionWrapper(_ContribWrapper):
    """`tf.contrib.rnn.OutputProjectionWrapper`: a linear map of the cell's output to
    `output_size` (variables `kernel`, `bias` in the wrapper's scope)."""

    def __init__(self, cell: Any, output_size: int, activation: Any = None,
                 reuse: Any = None):
        super().__init__(cell, reuse)
        if output_size < 1:
            raise ValueError(f"Parameter output_size must be > 0: {output_size}.")
        self._output_size = output_size
        self._activation = activation
        self._linear: Optional[_Linear] = None

    @property
    def output_size(self) -> int:
        return self._output_size

    def call(self, inputs: Any, state: Any) -> Any:
        output, res_state = self._cell(inputs, state)
        if self._linear is None:
            self._linear = _Linear(output, self._output_size, True)
        projected = self._linear(output)
        if self._activation:
            projected = self._activation(projected)
        return projected, res_state


# -- stacked bidirectional RNNs -------------------------------------------------------------

def _check_stack(cells_fw: Any, cells_bw: Any, initial_states_fw: Any,
                 initial_states_bw: Any) -> None:
    if not cells_fw:
        raise ValueError("Must specify at least one fw cell for BidirectionalRNN.")
    if not cells_bw:
        raise ValueError("Must specify at least one bw cell for BidirectionalRNN.")
    if not isinstance(cells_fw, list):
        raise ValueError("cells_fw must be a list of RNNCells (one per layer).")
    if not isinstance(cells_bw, list):
        raise ValueError("cells_bw must be a list of RNNCells (one per layer).")
    if len(cells_fw) != len(cells_bw):
        raise ValueError("Forward and Backward cells must have the same depth.")
    for states, cells, which in ((initial_states_fw, cells_fw, "fw"),
                                 (initial_states_bw, cells_bw, "bw")):
        if states is not None and (not isinstance(states, list) or
                                   len(states) != len(cells)):
            raise ValueError(f"initial_states_{which} must be a list of state tensors (one "
                             "per layer).")


def stack_bidirectional_rnn(cells_fw: List[Any], cells_bw: List[Any], inputs: List[Any],
                            initial_states_fw: Any = None, initial_states_bw: Any = None,
                            dtype: Any = None, sequence_length: Any = None,
                            scope: Any = None) -> tuple:
    """`tf.contrib.rnn.stack_bidirectional_rnn`: layers of static bidirectional RNNs
    (scopes `stack_bidirectional_rnn/cell_<i>/{fw,bw}`), each fed the previous layer's
    concatenated outputs. Returns `(outputs, states_fw, states_bw)`."""
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    prev_layer = inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with variable_scope(f"cell_{i}") as cell_scope:
                prev_layer, state_fw, state_bw = static_bidirectional_rnn(
                    cell_fw, cell_bw, prev_layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, dtype=dtype, scope=cell_scope)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)


def stack_bidirectional_dynamic_rnn(cells_fw: List[Any], cells_bw: List[Any], inputs: Any,
                                    initial_states_fw: Any = None,
                                    initial_states_bw: Any = None, dtype: Any = None,
                                    sequence_length: Any = None,
                                    parallel_iterations: Optional[int] = None,
                                    time_major: bool = False, scope: Any = None) -> tuple:
    """`tf.contrib.rnn.stack_bidirectional_dynamic_rnn`: layers of bidirectional dynamic
    RNNs, each fed the previous layer's outputs concatenated on the last axis."""
    _check_stack(cells_fw, cells_bw, initial_states_fw, initial_states_bw)
    states_fw, states_bw = [], []
    prev_layer = inputs
    with variable_scope(scope or "stack_bidirectional_rnn"):
        for i, (cell_fw, cell_bw) in enumerate(zip(cells_fw, cells_bw)):
            with variable_scope(f"cell_{i}"):
                outputs, (state_fw, state_bw) = bidirectional_dynamic_rnn(
                    cell_fw, cell_bw, prev_layer,
                    initial_state_fw=initial_states_fw[i] if initial_states_fw else None,
                    initial_state_bw=initial_states_bw[i] if initial_states_bw else None,
                    sequence_length=sequence_length, parallel_iterations=parallel_iterations,
                    dtype=dtype, time_major=time_major)
                prev_layer = ops.concat(outputs, 2)
            states_fw.append(state_fw)
            states_bw.append(state_bw)
    return prev_layer, tuple(states_fw), tuple(states_bw)
