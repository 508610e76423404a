"""TF 1.15's contrib cell wrappers (contrib/rnn/python/ops/rnn_cell.py): AttentionCellWrapper,
HighwayWrapper and CompiledWrapper; and the fused-RNN interface of fused_rnn_cell.py:
FusedRNNCell, FusedRNNCellAdaptor and TimeReversedFusedRNN.

Variable names and scopes are TF's: AttentionCellWrapper's input projection `kernel`/`bias`
in the wrapper's scope, `attention/attn_w`, `attention/attn_v`, `attention/kernel`,
`attention/bias`, `attn_output_projection/kernel`, `.../bias`; HighwayWrapper's
`carry_w`, `carry_b` (and `transform_w`, `transform_b`) beside the wrapped cell's scope.
"""

from __future__ import annotations

import abc
from typing import Any, Optional

from tf1compat.util import nest
from tf1compat.framework.op_def import get_op_def
from tf1compat.ops import namespace as ops
from tf1compat.ops.nn_conv import conv2d
from tf1compat.ops.nn_ops import softmax, xw_plus_b
from tf1compat.ops.sequence_ops import reverse_sequence
from tf1compat.ops.xla_scopes import jit_scope
from tf1compat.rnn.cell_base import RNNCell, assert_like_rnncell
from tf1compat.rnn.dynamic import dynamic_rnn
from tf1compat.rnn.static import static_rnn
from tf1compat.contrib.rnn.contrib_cells import _ContribWrapper, _Linear
from tf1compat.variables.init_ops import Constant
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["AttentionCellWrapper", "HighwayWrapper", "CompiledWrapper", "FusedRNNCell",
           "FusedRNNCellAdaptor", "TimeReversedFusedRNN"]


class AttentionCellWrapper(RNNCell):
    """`tf.contrib.rnn.AttentionCellWrapper` (Bahdanau-style attention over the cell's last
    `attn_length` outputs): the state is (cell state, attns, attn_states), or their
    concatenation when `state_is_tuple=False`; the output has `attn_size` units."""

    def __init__(self, cell: Any, attn_length: int, attn_size: Optional[int] = None,
                 attn_vec_size: Optional[int] = None, input_size: Optional[int] = None,
                 state_is_tuple: bool = True, reuse: Any = None):
        super().__init__(_reuse=reuse)
        assert_like_rnncell("cell", cell)
        if nest.is_sequence(cell.state_size) and not state_is_tuple:
            raise ValueError("Cell returns tuple of states, but the flag state_is_tuple is "
                             f"not set. State size is: {cell.state_size}")
        if attn_length <= 0:
            raise ValueError(f"attn_length should be greater than zero, got {attn_length}")
        if attn_size is None:
            attn_size = cell.output_size
        if attn_vec_size is None:
            attn_vec_size = attn_size
        self._state_is_tuple = state_is_tuple
        self._cell = cell
        self._attn_vec_size = attn_vec_size
        self._input_size = input_size
        self._attn_size = attn_size
        self._attn_length = attn_length
        self._linear1: Optional[_Linear] = None
        self._linear2: Optional[_Linear] = None
        self._linear3: Optional[_Linear] = None

    @property
    def state_size(self) -> Any:
        size = (self._cell.state_size, self._attn_size, self._attn_size * self._attn_length)
        return size if self._state_is_tuple else sum(size)

    @property
    def output_size(self) -> int:
        return self._attn_size

    def call(self, inputs: Any, state: Any) -> Any:
        if self._state_is_tuple:
            state, attns, attn_states = state
        else:
            states = state
            cell_size = self._cell.state_size
            state = ops.slice(states, [0, 0], [-1, cell_size])
            attns = ops.slice(states, [0, cell_size], [-1, self._attn_size])
            attn_states = ops.slice(states, [0, cell_size + self._attn_size],
                                    [-1, self._attn_size * self._attn_length])
        attn_states = ops.reshape(attn_states, [-1, self._attn_length, self._attn_size])
        input_size = self._input_size
        if input_size is None:
            input_size = inputs.get_shape().as_list()[1]
        if self._linear1 is None:
            self._linear1 = _Linear([inputs, attns], input_size, True)
        inputs = self._linear1([inputs, attns])
        cell_output, new_state = self._cell(inputs, state)
        new_state_cat = ops.concat(nest.flatten(new_state), 1) if self._state_is_tuple \
            else new_state
        new_attns, new_attn_states = self._attention(new_state_cat, attn_states)
        with variable_scope("attn_output_projection"):
            if self._linear2 is None:
                self._linear2 = _Linear([cell_output, new_attns], self._attn_size, True)
            output = self._linear2([cell_output, new_attns])
        new_attn_states = ops.concat([new_attn_states, ops.expand_dims(output, 1)], 1)
        new_attn_states = ops.reshape(new_attn_states,
                                      [-1, self._attn_length * self._attn_size])
        new_state = (new_state, new_attns, new_attn_states)
        if not self._state_is_tuple:
            new_state = ops.concat(list(new_state), 1)
        return output, new_state

    def _attention(self, query: Any, attn_states: Any) -> tuple:
        with variable_scope("attention"):
            k = get_variable("attn_w", [1, 1, self._attn_size, self._attn_vec_size])
            v = get_variable("attn_v", [self._attn_vec_size])
            hidden = ops.reshape(attn_states, [-1, self._attn_length, 1, self._attn_size])
            hidden_features = conv2d(hidden, k, [1, 1, 1, 1], "SAME")
            if self._linear3 is None:
                self._linear3 = _Linear(query, self._attn_vec_size, True)
            y = ops.reshape(self._linear3(query), [-1, 1, 1, self._attn_vec_size])
            s = ops.reduce_sum(v * ops.tanh(hidden_features + y), [2, 3])
            a = softmax(s)
            d = ops.reduce_sum(ops.reshape(a, [-1, self._attn_length, 1, 1]) * hidden, [1, 2])
            new_attns = ops.reshape(d, [-1, self._attn_size])
            new_attn_states = ops.slice(attn_states, [0, 1, 0], [-1, -1, -1])
            return new_attns, new_attn_states


class _PassThroughWrapper(_ContribWrapper):
    """A wrapper that runs its cell in the caller's scope (TF's HighwayWrapper and
    CompiledWrapper override `__call__` and never open a layer scope of their own)."""

    def __init__(self, cell: Any):
        super().__init__(cell)


class HighwayWrapper(_PassThroughWrapper):
    """`tf.contrib.rnn.HighwayWrapper`: output = inputs * carry + cell_output * transform,
    carry = sigmoid(inputs carry_w + carry_b) and transform = 1 - carry (or its own
    `transform_w`, `transform_b` when the gates are not coupled)."""

    def __init__(self, cell: Any, couple_carry_transform_gates: bool = True,
                 carry_bias_init: float = 1.0):
        super().__init__(cell)
        self._couple_carry_transform_gates = couple_carry_transform_gates
        self._carry_bias_init = carry_bias_init

    def _highway(self, inp: Any, out: Any) -> Any:
        input_size = inp.get_shape().with_rank(2).dims[1].value
        carry_weight = get_variable("carry_w", [input_size, input_size])
        carry_bias = get_variable("carry_b", [input_size],
                                  initializer=Constant(self._carry_bias_init))
        carry = ops.sigmoid(xw_plus_b(inp, carry_weight, carry_bias))
        if self._couple_carry_transform_gates:
            transform = 1 - carry
        else:
            transform_weight = get_variable("transform_w", [input_size, input_size])
            transform_bias = get_variable("transform_b", [input_size],
                                          initializer=Constant(-self._carry_bias_init))
            transform = ops.sigmoid(xw_plus_b(inp, transform_weight, transform_bias))
        return inp * carry + out * transform

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        outputs, new_state = self._cell(inputs, state, scope=scope)
        nest.assert_same_structure(inputs, outputs)

        def assert_shape_match(inp: Any, out: Any) -> None:
            inp.get_shape().assert_is_compatible_with(out.get_shape())
        nest.map_structure(assert_shape_match, inputs, outputs)
        return nest.map_structure(self._highway, inputs, outputs), new_state


class CompiledWrapper(_PassThroughWrapper):
    """`tf.contrib.rnn.CompiledWrapper`: builds the cell under an XLA jit scope (its ops
    carry `_XlaCompile`; only the stateless ones unless `compile_stateful`)."""

    def __init__(self, cell: Any, compile_stateful: bool = False):
        super().__init__(cell)
        self._compile_stateful = compile_stateful

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        def stateless(node_def: Any) -> bool:
            return not get_op_def(node_def.op).stateful
        with jit_scope(compile_ops=True if self._compile_stateful else stateless):
            return self._cell(inputs, state, scope=scope)


# -- the fused-RNN interface -------------------------------------------------------------------

class FusedRNNCell(abc.ABC):
    """`tf.contrib.rnn.FusedRNNCell`: a cell run over a whole time-major sequence,
    `cell(inputs, initial_state=None, dtype=None, sequence_length=None, scope=None)` ->
    (outputs, final_state)."""

    @abc.abstractmethod
    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> Any:
        """Runs the cell over `inputs` ([time, batch, depth] or a list of steps)."""


class FusedRNNCellAdaptor(FusedRNNCell):
    """`tf.contrib.rnn.FusedRNNCellAdaptor`: an RNNCell run through static_rnn (or
    dynamic_rnn, time-major, when `use_dynamic_rnn`)."""

    def __init__(self, cell: Any, use_dynamic_rnn: bool = False):
        self._cell = cell
        self._use_dynamic_rnn = use_dynamic_rnn

    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> Any:
        is_list = isinstance(inputs, list)
        if self._use_dynamic_rnn:
            if is_list:
                inputs = ops.stack(inputs)
            outputs, state = dynamic_rnn(self._cell, inputs, sequence_length=sequence_length,
                                         initial_state=initial_state, dtype=dtype,
                                         time_major=True, scope=scope)
            if is_list:
                outputs = ops.unstack(outputs)
        else:
            if not is_list:
                inputs = ops.unstack(inputs)
            outputs, state = static_rnn(self._cell, inputs, initial_state=initial_state,
                                        dtype=dtype, sequence_length=sequence_length,
                                        scope=scope)
            if not is_list:
                outputs = ops.stack(outputs)
        return outputs, state


class TimeReversedFusedRNN(FusedRNNCell):
    """`tf.contrib.rnn.TimeReversedFusedRNN`: runs a fused cell on the time-reversed
    inputs (each sequence reversed within its length) and reverses its outputs back."""

    def __init__(self, cell: Any):
        self._cell = cell

    def _reverse(self, t: Any, lengths: Any) -> Any:
        if isinstance(t, list):
            return list(reversed(t))
        if lengths is None:
            return ops.reverse(t, [0])
        return reverse_sequence(t, lengths, 0, 1)

    def __call__(self, inputs: Any, initial_state: Any = None, dtype: Any = None,
                 sequence_length: Any = None, scope: Any = None) -> Any:
        inputs = self._reverse(inputs, sequence_length)
        outputs, state = self._cell(inputs, initial_state=initial_state, dtype=dtype,
                                    sequence_length=sequence_length, scope=scope)
        return self._reverse(outputs, sequence_length), state
