"""`tf.contrib.seq2seq.AttentionWrapper` and `AttentionWrapperState` (TF 1.15 semantics).

The wrapper is an RNNCell: each step feeds `cell_input_fn(inputs, previous attention)`
(their concatenation by default) to the wrapped cell, queries every attention mechanism
with the cell output, forms the context (alignments · memory values), optionally passes
`[cell_output, context]` through a bias-free `attention_layer` Dense, and emits the
attention (or the cell output when `output_attention=False`). Its state carries the cell
state, the attention, the step, the alignments, the mechanisms' states and, with
`alignment_history`, a TensorArray of every step's alignments.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Optional

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.layers.layers import Dense
from tf1compat.ops import namespace as ops
from tf1compat.ops.check_ops import assert_equal
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.rnn.cell_base import RNNCell, assert_like_rnncell, zero_state_tensors
# TF 1.15 defines the mechanisms in attention_wrapper.py, and custom mechanisms import its
# private base class and score functions from there (the shim maps that module here).
from tf1compat.contrib.seq2seq.attention_mechanisms import (  # noqa: F401
    AttentionMechanism, BahdanauAttention, BahdanauMonotonicAttention, LuongAttention,
    LuongMonotonicAttention, _BaseAttentionMechanism, _bahdanau_score, _luong_score,
    _monotonic_probability_fn, hardmax, monotonic_attention, safe_cumprod)

__all__ = ["AttentionWrapperState", "AttentionWrapper"]

_TILE_HINT = "Are you using the BeamSearchDecoder?  "


class AttentionWrapperState(collections.namedtuple(
        "AttentionWrapperState", ("cell_state", "attention", "time", "alignments",
                                  "alignment_history", "attention_state"))):
    """The state of an AttentionWrapper (a namedtuple; `clone` replaces fields)."""

    def clone(self, **kwargs: Any) -> "AttentionWrapperState":
        """A copy with the given fields replaced; a replaced tensor keeps the static shape
        of the one it replaces (ValueError when they cannot agree)."""
        def same_shape(old: Any, new: Any) -> Any:
            if isinstance(old, Tensor) and isinstance(new, Tensor):
                if not old.shape.is_compatible_with(new.shape):
                    raise ValueError("The shape of the AttentionWrapperState is expected to "
                                     f"be same as the one to clone. self.shape: {old.shape}, "
                                     f"input.shape: {new.shape}")
                new.set_shape(old.shape)
            return new
        return nest.map_structure(same_shape, self, super()._replace(**kwargs))


def _compute_attention(attention_mechanism: Any, cell_output: Tensor, attention_state: Any,
                       attention_layer: Any) -> tuple:
    alignments, next_attention_state = attention_mechanism(cell_output, state=attention_state)
    context = ops.squeeze(ops.matmul(ops.expand_dims(alignments, 1),
                                     attention_mechanism.values), [1])
    attention = context if attention_layer is None else \
        attention_layer(ops.concat([cell_output, context], 1))
    return attention, alignments, next_attention_state


def _concat_inputs(inputs: Tensor, attention: Tensor) -> Tensor:
    """The default `cell_input_fn`: inputs and the previous attention, concatenated."""
    return ops.concat([inputs, attention], -1)


def _batch_dim(t: Tensor) -> Any:
    value = dimension_value(t.shape[0])
    return value if value is not None else ops.shape(t)[0]


def _last_dim(t: Tensor) -> Any:
    return dimension_value(t.shape[-1])


class AttentionWrapper(RNNCell):
    """Wraps `cell` with one attention mechanism (or a list of them)."""

    def __init__(self, cell: Any, attention_mechanism: Any, attention_layer_size: Any = None,
                 alignment_history: bool = False, cell_input_fn: Optional[Callable] = None,
                 output_attention: bool = True, initial_cell_state: Any = None,
                 name: Optional[str] = None, attention_layer: Any = None,
                 attention_fn: Optional[Callable] = None, dtype: Any = None) -> None:
        super().__init__(name=name, dtype=dtype)
        assert_like_rnncell("cell", cell)
        self._is_multi = isinstance(attention_mechanism, (list, tuple))
        mechanisms = tuple(attention_mechanism) if self._is_multi else (attention_mechanism,)
        for mechanism in mechanisms:
            if not isinstance(mechanism, AttentionMechanism):
                what = ("must contain only instances of AttentionMechanism" if self._is_multi
                        else "must be an AttentionMechanism or list of multiple "
                             "AttentionMechanism instances")
                raise TypeError(f"attention_mechanism {what}, saw type: "
                                f"{type(mechanism).__name__}")
        if cell_input_fn is None:
            cell_input_fn = _concat_inputs
        elif not callable(cell_input_fn):
            raise TypeError(f"cell_input_fn must be callable, saw type: "
                            f"{type(cell_input_fn).__name__}")
        if attention_layer_size is not None and attention_layer is not None:
            raise ValueError("Only one of attention_layer_size and attention_layer should be "
                             "set")
        if attention_layer_size is not None:
            sizes = tuple(attention_layer_size if isinstance(attention_layer_size, (list, tuple))
                          else (attention_layer_size,))
            if len(sizes) != len(mechanisms):
                raise ValueError("If provided, attention_layer_size must contain exactly one "
                                 "integer per attention_mechanism, saw: "
                                 f"{len(sizes)} vs {len(mechanisms)}")
            self._attention_layers = tuple(
                Dense(size, name="attention_layer", use_bias=False, dtype=mechanisms[i].dtype)
                for i, size in enumerate(sizes))
            self._attention_layer_size = sum(sizes)
        elif attention_layer is not None:
            layers = tuple(attention_layer if isinstance(attention_layer, (list, tuple))
                           else (attention_layer,))
            if len(layers) != len(mechanisms):
                raise ValueError("If provided, attention_layer must contain exactly one layer "
                                 f"per attention_mechanism, saw: {len(layers)} vs "
                                 f"{len(mechanisms)}")
            self._attention_layers = layers
            self._attention_layer_size = sum(
                TensorShape(layer.compute_output_shape(
                    [None, cell.output_size + _last_dim(m.values)])).dims[-1].value
                for layer, m in zip(layers, mechanisms))
        else:
            self._attention_layers = None
            self._attention_layer_size = sum(_last_dim(m.values) for m in mechanisms)
        self._attention_fn = attention_fn or _compute_attention
        self._cell = cell
        self._attention_mechanisms = mechanisms
        self._cell_input_fn = cell_input_fn
        self._output_attention = output_attention
        self._alignment_history = alignment_history
        with name_scope(name, "AttentionWrapperInit"):
            if initial_cell_state is None:
                self._initial_cell_state = None
            else:
                last = nest.flatten(initial_cell_state)[-1]
                batch = _batch_dim(last)
                message = (f"When constructing AttentionWrapper {self._base_name}: "
                           "Non-matching batch sizes between the memory (encoder output) and "
                           f"initial_cell_state.  {_TILE_HINT}You may need to tile your "
                           "initial state via the tf.contrib.seq2seq.tile_batch function "
                           "with argument multiple=beam_width.")
                with ops.control_dependencies(self._batch_size_checks(batch, message)):
                    self._initial_cell_state = nest.map_structure(
                        lambda s: ops.identity(s, name="check_initial_cell_state"),
                        initial_cell_state)

    def _batch_size_checks(self, batch_size: Any, message: str) -> list:
        return [assert_equal(batch_size, m.batch_size, message=message)
                for m in self._attention_mechanisms]

    def _item_or_tuple(self, seq: Any) -> Any:
        items = tuple(seq)
        return items if self._is_multi else items[0]

    @property
    def output_size(self) -> Any:
        return self._attention_layer_size if self._output_attention else \
            self._cell.output_size

    @property
    def state_size(self) -> AttentionWrapperState:
        mechanisms = self._attention_mechanisms
        return AttentionWrapperState(
            cell_state=self._cell.state_size, time=TensorShape([]),
            attention=self._attention_layer_size,
            alignments=self._item_or_tuple(m.alignments_size for m in mechanisms),
            attention_state=self._item_or_tuple(m.state_size for m in mechanisms),
            alignment_history=self._item_or_tuple(
                m.alignments_size if self._alignment_history else () for m in mechanisms))

    def zero_state(self, batch_size: Any, dtype: Any) -> AttentionWrapperState:
        """The initial state: the cell's (or `initial_cell_state`), zero attention, the
        mechanisms' initial alignments, empty alignment histories."""
        with name_scope(type(self).__name__ + "ZeroState", values=[batch_size]):
            cell_state = self._initial_cell_state if self._initial_cell_state is not None \
                else self._cell.get_initial_state(batch_size=batch_size, dtype=dtype)
            message = (f"When calling zero_state of AttentionWrapper {self._base_name}: "
                       "Non-matching batch sizes between the memory (encoder output) and the "
                       f"requested batch size.  {_TILE_HINT}If so, make sure your encoder "
                       "output has been tiled to beam_width via "
                       "tf.contrib.seq2seq.tile_batch, and the batch_size= argument passed "
                       "to zero_state is batch_size * beam_width.")
            with ops.control_dependencies(self._batch_size_checks(batch_size, message)):
                cell_state = nest.map_structure(
                    lambda s: ops.identity(s, name="checked_cell_state"), cell_state)
            alignments = [m.initial_alignments(batch_size, dtype)
                          for m in self._attention_mechanisms]
            return AttentionWrapperState(
                cell_state=cell_state, time=ops.zeros([], dtype=D.int32),
                attention=zero_state_tensors(self._attention_layer_size, batch_size, dtype),
                alignments=self._item_or_tuple(alignments),
                attention_state=self._item_or_tuple(
                    m.initial_state(batch_size, dtype) for m in self._attention_mechanisms),
                alignment_history=self._item_or_tuple(
                    TensorArray(dtype, size=0, dynamic_size=True, element_shape=a.shape)
                    if self._alignment_history else () for a in alignments))

    def call(self, inputs: Any, state: AttentionWrapperState) -> tuple:
        """One step: the cell on `cell_input_fn(inputs, state.attention)`, then attention."""
        if not isinstance(state, AttentionWrapperState):
            raise TypeError("Expected state to be instance of AttentionWrapperState. "
                            f"Received type {type(state)} instead.")
        cell_inputs = self._cell_input_fn(inputs, state.attention)
        cell_output, next_cell_state = self._cell(cell_inputs, state.cell_state)
        batch = _batch_dim(cell_output)
        message = (f"When applying AttentionWrapper {self.name}: Non-matching batch sizes "
                   "between the memory (encoder output) and the query (decoder output).  "
                   f"{_TILE_HINT}You may need to tile your memory input via the "
                   "tf.contrib.seq2seq.tile_batch function with argument multiple=beam_width.")
        with ops.control_dependencies(self._batch_size_checks(batch, message)):
            cell_output = ops.identity(cell_output, name="checked_cell_output")
        previous_states = state.attention_state if self._is_multi else [state.attention_state]
        previous_histories = state.alignment_history if self._is_multi \
            else [state.alignment_history]
        attentions, alignments_all, states, histories = [], [], [], []
        for i, mechanism in enumerate(self._attention_mechanisms):
            attention, alignments, next_attention_state = self._attention_fn(
                mechanism, cell_output, previous_states[i],
                self._attention_layers[i] if self._attention_layers else None)
            histories.append(previous_histories[i].write(state.time, alignments)
                             if self._alignment_history else ())
            states.append(next_attention_state)
            alignments_all.append(alignments)
            attentions.append(attention)
        attention = ops.concat(attentions, 1)
        next_state = AttentionWrapperState(
            time=state.time + 1, cell_state=next_cell_state, attention=attention,
            attention_state=self._item_or_tuple(states),
            alignments=self._item_or_tuple(alignments_all),
            alignment_history=self._item_or_tuple(histories))
        return (attention if self._output_attention else cell_output), next_state

