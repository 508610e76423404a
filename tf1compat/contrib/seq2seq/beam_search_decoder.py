"""`tf.contrib.seq2seq.BeamSearchDecoder`, `tile_batch` and `gather_tree` (TF 1.15
semantics).

Each step merges the [batch, beam, ...] cell inputs and state into [batch * beam, ...],
runs the cell (and output layer), scores every (beam, word) continuation by accumulated
log-probability (divided by GNMT's length penalty ((5 + length) / 6) ** weight, plus the
coverage penalty over attention alignments), keeps the `beam_width` best per batch entry
(`top_k`), and reorders the cell state by the chosen parent beams. Finished beams can
only extend with `end_token` at no cost. `finalize` backtracks the parent pointers with the
`GatherTree` op into `FinalBeamSearchDecoderOutput.predicted_ids` [batch, time, beam].
"""

from __future__ import annotations

import collections
from typing import Any, Optional

import numpy as np

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, dimension_value
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.ops import namespace as ops
from tf1compat.ops.array_ops import size
from tf1compat.ops.beam_search_ops import gather_tree
from tf1compat.ops.cond import cond
from tf1compat.ops.creation_ops import one_hot
from tf1compat.ops.indexing_ops import gather, gather_nd, sequence_mask
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.math_ops import floordiv, log, mod, pow as pow_
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.nn_ops import log_softmax, top_k
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.rnn.cell_base import assert_like_rnncell
from tf1compat.contrib.seq2seq.attention_wrapper import AttentionWrapperState
from tf1compat.contrib.seq2seq.decoder import Decoder

__all__ = ["BeamSearchDecoderState", "BeamSearchDecoderOutput",
           "FinalBeamSearchDecoderOutput", "BeamSearchDecoder", "tile_batch",
           "gather_tree", "gather_tree_from_array"]


class BeamSearchDecoderState(collections.namedtuple(
        "BeamSearchDecoderState", ("cell_state", "log_probs", "finished", "lengths",
                                   "accumulated_attention_probs"))):
    """The beam search's loop state ([batch, beam, ...] tensors)."""


class BeamSearchDecoderOutput(collections.namedtuple(
        "BeamSearchDecoderOutput", ("scores", "predicted_ids", "parent_ids"))):
    """One step's beam scores, word ids and parent beam ids ([batch, beam])."""


class FinalBeamSearchDecoderOutput(collections.namedtuple(
        "FinalBeamDecoderOutput", ["predicted_ids", "beam_search_decoder_output"])):
    """`predicted_ids` (the backtracked beams) and the raw per-step outputs."""


def _tile_one(t: Any, multiplier: int) -> Tensor:
    t = ops.convert_to_tensor(t, name="t")
    if t.shape.rank is None or t.shape.rank < 1:
        raise ValueError("t must have statically known rank")
    shape_t = ops.shape(t)
    tiling = [1] * (t.shape.rank + 1)
    tiling[1] = multiplier
    static_batch = dimension_value(t.shape[0])
    tiled = ops.tile(ops.expand_dims(t, 1), tiling)
    tiled = ops.reshape(tiled, ops.concat(([shape_t[0] * multiplier], shape_t[1:]), 0))
    tiled.set_shape(TensorShape([None if static_batch is None else static_batch * multiplier])
                    .concatenate(t.shape[1:]))
    return tiled


def tile_batch(t: Any, multiplier: int, name: Optional[str] = None) -> Any:
    """`tf.contrib.seq2seq.tile_batch`: each batch entry repeated `multiplier` times in a
    row ([a, a, b, b] for multiplier 2), for every tensor of a nested structure."""
    flat = nest.flatten(t)
    with name_scope(name, "tile_batch", flat + [multiplier]):
        return nest.map_structure(lambda x: _tile_one(x, multiplier), t)


def _dim(t: Any, axis: int) -> Any:
    value = dimension_value(t.shape[axis])
    return value if value is not None else ops.shape(t)[axis]


def gather_tree_from_array(t: Tensor, parent_ids: Tensor, sequence_length: Tensor) -> Tensor:
    """Reorders a stacked [time, batch, beam, ...] tensor by the backtracked beams."""
    max_time, batch_size, beam_width = (_dim(parent_ids, i) for i in range(3))
    beam_ids = ops.tile(ops.expand_dims(ops.expand_dims(ops.range(beam_width), 0), 0),
                        [max_time, batch_size, 1])
    max_lengths = ops.cast(ops.reduce_max(sequence_length, axis=1), D.int32)
    sorted_ids = gather_tree(beam_ids, parent_ids, max_lengths, beam_width + 1)
    in_bound = ops.transpose(sequence_mask(sequence_length, maxlen=max_time), perm=[2, 0, 1])
    sorted_ids = ops.where(in_bound, sorted_ids, beam_ids)
    time_ind = ops.tile(ops.reshape(ops.range(max_time), [-1, 1, 1]),
                        [1, batch_size, beam_width])
    batch_ind = ops.transpose(ops.tile(ops.reshape(ops.range(batch_size), [-1, 1, 1]),
                                       [1, max_time, beam_width]), perm=[1, 0, 2])
    indices = ops.stack([time_ind, batch_ind, sorted_ids], -1)
    final_shape = ops.shape(t)
    ordered = gather_nd(ops.reshape(t, [max_time, batch_size, beam_width, -1]), indices)
    return ops.reshape(ordered, final_shape)


def _gather_beams(gather_indices: Tensor, gather_from: Tensor, batch_size: Any,
                  range_size: Any, gather_shape: list, name: Optional[str] = None) -> Tensor:
    """gather_from's [batch, range_size, ...] rows picked by per-batch indices."""
    with name_scope(name, "tensor_gather_helper"):
        offsets = ops.expand_dims(ops.range(batch_size) * range_size, 1)
        flat_indices = ops.reshape(gather_indices + offsets, [-1])
        output = gather(ops.reshape(gather_from, gather_shape), flat_indices)
        final_shape = ops.shape(gather_from)[:1 + len(gather_shape)]
        static = TensorShape([constant_value(batch_size)]).concatenate(
            gather_from.shape[1:1 + len(gather_shape)])
        output = ops.reshape(output, final_shape, name="output")
        output.set_shape(static)
        return output


def _check_rank_known(t: Tensor) -> None:
    if t.shape.rank is None:
        raise ValueError(f"Expected tensor ({t}) to have known rank, but ndims == None.")


def _maybe_gather_beams(indices: Tensor, gather_from: Any, batch_size: Any, range_size: Any,
                        gather_shape: list) -> Any:
    if isinstance(gather_from, TensorArray):
        return gather_from
    _check_rank_known(gather_from)
    if gather_from.shape.rank >= len(gather_shape):
        return _gather_beams(indices, gather_from, batch_size, range_size, gather_shape)
    return gather_from


def _attention_probs(state: AttentionWrapperState) -> Tensor:
    probs = state.alignments
    if isinstance(probs, tuple):
        probs = ops.reduce_mean(ops.concat([ops.expand_dims(p, -1) for p in probs], -1), -1)
    return probs


def get_attention_probs(next_cell_state: Any, coverage_penalty_weight: float) -> Any:
    """The (mean) attention alignments of an attentional cell state, for the coverage
    penalty; None when the penalty is off."""
    if coverage_penalty_weight == 0.0:
        return None
    if isinstance(next_cell_state, AttentionWrapperState):
        per_layer = [_attention_probs(next_cell_state)]
    elif isinstance(next_cell_state, tuple):
        per_layer = [_attention_probs(s) for s in next_cell_state
                     if isinstance(s, AttentionWrapperState)]
    else:
        per_layer = []
    if not per_layer:
        raise ValueError("coverage_penalty_weight must be 0.0 if no cell is attentional.")
    if len(per_layer) == 1:
        return per_layer[0]
    return ops.reduce_mean(ops.concat([ops.expand_dims(p, -1) for p in per_layer], -1), -1)


def _python_value(t: Tensor) -> Any:
    """A scalar setting's value when known without running the graph (eager tensors of
    any dtype included, as TF's constant_value gives them)."""
    if getattr(t, "_is_eager_tensor", False):
        return t.numpy()
    return constant_value(t)


def _length_penalty(sequence_lengths: Tensor, penalty_factor: Any) -> Any:
    penalty_factor = ops.convert_to_tensor(penalty_factor, name="penalty_factor")
    penalty_factor.set_shape(())
    static = _python_value(penalty_factor)
    if static is not None and static == 0:
        return 1.0
    return ops.divide(pow_(5.0 + ops.cast(sequence_lengths, D.float32), penalty_factor),
                      pow_(5.0 + 1.0, penalty_factor))


def _get_scores(log_probs: Tensor, sequence_lengths: Tensor, length_penalty_weight: Any,
                coverage_penalty_weight: Any, finished: Tensor,
                accumulated_attention_probs: Any) -> Tensor:
    scores = log_probs / ops.cast(_length_penalty(sequence_lengths, length_penalty_weight),
                                  log_probs.dtype)
    coverage_penalty_weight = ops.convert_to_tensor(coverage_penalty_weight,
                                                    name="coverage_penalty_weight")
    if coverage_penalty_weight.shape.rank != 0:
        raise ValueError("coverage_penalty_weight should be a scalar, but saw shape: "
                         f"{coverage_penalty_weight.shape}")
    if _python_value(coverage_penalty_weight) == 0.0:
        return scores
    if accumulated_attention_probs is None:
        raise ValueError("accumulated_attention_probs can be None only if coverage penalty "
                         "is disabled.")
    # Memory entries never attended (sum 0) count as fully covered (log 1 = 0).
    probs = ops.where(ops.equal(accumulated_attention_probs, 0.0),
                      ops.ones_like(accumulated_attention_probs), accumulated_attention_probs)
    coverage = ops.reduce_sum(log(ops.minimum(probs, 1.0)), 2)
    coverage *= ops.cast(finished, D.float32)
    return scores + ops.expand_dims(coverage * coverage_penalty_weight, 2)


def _mask_probs(probs: Tensor, eos_token: Tensor, finished: Tensor) -> Tensor:
    """Finished beams: log-prob 0 for end_token, the dtype's min for every other word."""
    vocab_size = ops.shape(probs)[2]
    finished_row = one_hot(eos_token, vocab_size, dtype=probs.dtype,
                           on_value=ops.convert_to_tensor(0.0, dtype=probs.dtype),
                           off_value=probs.dtype.min)
    finished_probs = ops.tile(ops.reshape(finished_row, [1, 1, -1]),
                              ops.concat([ops.shape(finished), [1]], 0))
    finished_mask = ops.tile(ops.expand_dims(finished, 2), [1, 1, vocab_size])
    return ops.where(finished_mask, finished_probs, probs)


def _beam_search_step(time: Any, logits: Tensor, next_cell_state: Any,
                      beam_state: BeamSearchDecoderState, batch_size: Any, beam_width: int,
                      end_token: Tensor, length_penalty_weight: Any,
                      coverage_penalty_weight: Any) -> tuple:
    """One beam-search step over [batch, beam, vocab] logits."""
    static_batch_size = constant_value(batch_size)
    prediction_lengths = beam_state.lengths
    previously_finished = beam_state.finished
    not_finished = ops.logical_not(previously_finished)
    step_log_probs = _mask_probs(log_softmax(logits), end_token, previously_finished)
    total_probs = ops.expand_dims(beam_state.log_probs, 2) + step_log_probs
    vocab_size = _dim(logits, -1)
    # Every word but end_token lengthens an unfinished beam by one.
    lengths_to_add = one_hot(ops.fill([batch_size, beam_width], end_token), depth=vocab_size,
                             on_value=ops.constant(0, D.int64),
                             off_value=ops.constant(1, D.int64), dtype=D.int64)
    lengths_to_add *= ops.expand_dims(ops.cast(not_finished, D.int64), 2)
    new_prediction_lengths = lengths_to_add + ops.expand_dims(prediction_lengths, 2)
    accumulated_attention_probs = None
    attention_probs = get_attention_probs(next_cell_state, coverage_penalty_weight)
    if attention_probs is not None:
        attention_probs *= ops.expand_dims(ops.cast(not_finished, D.float32), 2)
        accumulated_attention_probs = beam_state.accumulated_attention_probs + attention_probs
    scores = _get_scores(total_probs, new_prediction_lengths, length_penalty_weight,
                         coverage_penalty_weight, previously_finished,
                         accumulated_attention_probs)
    time = ops.convert_to_tensor(time, name="time")
    scores_flat = ops.reshape(scores, [batch_size, -1])
    next_beam_size = ops.convert_to_tensor(beam_width, dtype=D.int32, name="beam_width")
    next_beam_scores, word_indices = top_k(scores_flat, k=next_beam_size)
    next_beam_scores.set_shape([static_batch_size, beam_width])
    word_indices.set_shape([static_batch_size, beam_width])
    next_beam_probs = _gather_beams(word_indices, total_probs, batch_size,
                                    beam_width * vocab_size, [-1], name="next_beam_probs")
    next_word_ids = ops.cast(mod(word_indices, vocab_size, name="next_beam_word_ids"),
                             D.int32)
    next_beam_ids = ops.cast(floordiv(word_indices, vocab_size), D.int32,
                             name="next_beam_parent_ids")
    previously_finished = _gather_beams(next_beam_ids, previously_finished, batch_size,
                                        beam_width, [-1])
    next_finished = ops.logical_or(previously_finished, ops.equal(next_word_ids, end_token),
                                   name="next_beam_finished")
    next_prediction_len = _gather_beams(next_beam_ids, beam_state.lengths, batch_size,
                                        beam_width, [-1])
    next_prediction_len += ops.cast(ops.logical_not(previously_finished), D.int64)
    next_accumulated_attention_probs: Any = ()
    if accumulated_attention_probs is not None:
        next_accumulated_attention_probs = _gather_beams(
            next_beam_ids, accumulated_attention_probs, batch_size, beam_width,
            [batch_size * beam_width, -1], name="next_accumulated_attention_probs")
    next_cell_state = nest.map_structure(
        lambda s: _maybe_gather_beams(next_beam_ids, s, batch_size, beam_width,
                                      [batch_size * beam_width, -1]), next_cell_state)
    next_state = BeamSearchDecoderState(
        cell_state=next_cell_state, log_probs=next_beam_probs, lengths=next_prediction_len,
        finished=next_finished, accumulated_attention_probs=next_accumulated_attention_probs)
    output = BeamSearchDecoderOutput(scores=next_beam_scores, predicted_ids=next_word_ids,
                                     parent_ids=next_beam_ids)
    return output, next_state


class BeamSearchDecoder(Decoder):
    """Beam search over `cell` from `start_tokens` until `end_token`; `initial_state` (and
    any attention memory) must be tiled to batch * beam_width with `tile_batch`."""

    def __init__(self, cell: Any, embedding: Any, start_tokens: Any, end_token: Any,
                 initial_state: Any, beam_width: int, output_layer: Optional[Layer] = None,
                 length_penalty_weight: Any = 0.0, coverage_penalty_weight: Any = 0.0,
                 reorder_tensor_arrays: bool = True) -> None:
        assert_like_rnncell("cell", cell)
        if output_layer is not None and not isinstance(output_layer, Layer):
            raise TypeError(f"output_layer must be a Layer, received: {type(output_layer)}")
        self._cell = cell
        self._output_layer = output_layer
        self._reorder_tensor_arrays = reorder_tensor_arrays
        self._beam_width = beam_width
        self._length_penalty_weight = length_penalty_weight
        self._coverage_penalty_weight = coverage_penalty_weight
        self._embedding_fn = embedding if callable(embedding) else \
            (lambda ids: embedding_lookup(embedding, ids))
        self._start_tokens = ops.convert_to_tensor(start_tokens, dtype=D.int32,
                                                   name="start_tokens")
        if self._start_tokens.shape.rank != 1:
            raise ValueError("start_tokens must be a vector")
        self._end_token = ops.convert_to_tensor(end_token, dtype=D.int32, name="end_token")
        if self._end_token.shape.rank != 0:
            raise ValueError("end_token must be a scalar")
        self._batch_size = size(start_tokens)
        self._initial_cell_state = nest.map_structure(
            self._maybe_split_batch_beams, initial_state, self._cell.state_size)
        self._start_tokens = ops.tile(ops.expand_dims(self._start_tokens, 1),
                                      [1, self._beam_width])
        self._start_inputs = self._embedding_fn(self._start_tokens)
        # Only beam 0 is live at first, so the first top_k does not pick duplicates.
        self._finished = one_hot(ops.zeros([self._batch_size], dtype=D.int32),
                                 depth=self._beam_width, on_value=False, off_value=True,
                                 dtype=D.bool)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def tracks_own_finished(self) -> bool:
        return True

    def _rnn_output_size(self) -> Any:
        size_ = self._cell.output_size
        if self._output_layer is None:
            return size_
        with_batch = nest.map_structure(lambda s: TensorShape([None]).concatenate(s), size_)
        layer_shape = self._output_layer.compute_output_shape(with_batch)
        return nest.map_structure(lambda s: TensorShape(s)[1:], layer_shape)

    @property
    def output_size(self) -> BeamSearchDecoderOutput:
        beams = TensorShape([self._beam_width])
        return BeamSearchDecoderOutput(scores=beams, predicted_ids=beams, parent_ids=beams)

    @property
    def output_dtype(self) -> BeamSearchDecoderOutput:
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        return BeamSearchDecoderOutput(
            scores=nest.map_structure(lambda _: dtype, self._rnn_output_size()),
            predicted_ids=D.int32, parent_ids=D.int32)

    def initialize(self, name: Optional[str] = None) -> tuple:
        dtype = nest.flatten(self._initial_cell_state)[0].dtype
        log_probs = one_hot(ops.zeros([self._batch_size], dtype=D.int32),
                            depth=self._beam_width,
                            on_value=ops.convert_to_tensor(0.0, dtype=dtype),
                            off_value=ops.convert_to_tensor(-np.inf, dtype=dtype), dtype=dtype)
        attention_probs = get_attention_probs(self._initial_cell_state,
                                              self._coverage_penalty_weight)
        initial_state = BeamSearchDecoderState(
            cell_state=self._initial_cell_state, log_probs=log_probs, finished=self._finished,
            lengths=ops.zeros([self._batch_size, self._beam_width], dtype=D.int64),
            accumulated_attention_probs=() if attention_probs is None else attention_probs)
        return self._finished, self._start_inputs, initial_state

    def finalize(self, outputs: BeamSearchDecoderOutput, final_state: BeamSearchDecoderState,
                 sequence_lengths: Any) -> tuple:
        """Backtracks the beams (`GatherTree`); TensorArrays in the cell state (e.g.
        alignment histories) are reordered the same way."""
        max_sequence_lengths = ops.cast(ops.reduce_max(final_state.lengths, axis=1), D.int32)
        predicted_ids = gather_tree(outputs.predicted_ids, outputs.parent_ids,
                                    max_sequence_lengths=max_sequence_lengths,
                                    end_token=self._end_token)
        if self._reorder_tensor_arrays:
            final_state = final_state._replace(cell_state=nest.map_structure(
                lambda t: self._maybe_sort_array_beams(t, outputs.parent_ids,
                                                       final_state.lengths),
                final_state.cell_state))
        return FinalBeamSearchDecoderOutput(beam_search_decoder_output=outputs,
                                            predicted_ids=predicted_ids), final_state

    def _merge_batch_beams(self, t: Tensor, s: Any = None) -> Tensor:
        s = as_shape(constant_value(s)) if isinstance(s, Tensor) else TensorShape(s)
        static_batch = constant_value(self._batch_size)
        merged = None if static_batch is None else static_batch * self._beam_width
        reshaped = ops.reshape(t, ops.concat(([self._batch_size * self._beam_width],
                                              ops.shape(t)[2:]), 0))
        reshaped.set_shape(TensorShape([merged]).concatenate(s))
        return reshaped

    def _split_batch_beams(self, t: Tensor, s: Any = None) -> Tensor:
        s = TensorShape(constant_value(s)) if isinstance(s, Tensor) else TensorShape(s)
        reshaped = ops.reshape(t, ops.concat(([self._batch_size, self._beam_width],
                                              ops.shape(t)[1:]), 0))
        expected = TensorShape([constant_value(self._batch_size),
                                self._beam_width]).concatenate(s)
        if not reshaped.shape.is_compatible_with(expected):
            raise ValueError(
                "Unexpected behavior when reshaping between beam width and batch size.  The "
                f"reshaped tensor has shape: {reshaped.shape}.  We expected it to have shape "
                f"(batch_size, beam_width, depth) == {expected}.  Perhaps you forgot to "
                "create a zero_state with batch_size=encoder_batch_size * beam_width?")
        reshaped.set_shape(expected)
        return reshaped

    def _maybe_split_batch_beams(self, t: Any, s: Any) -> Any:
        if isinstance(t, TensorArray):
            return t
        _check_rank_known(t)
        return self._split_batch_beams(t, s) if t.shape.rank >= 1 else t

    def _maybe_merge_batch_beams(self, t: Any, s: Any) -> Any:
        if isinstance(t, TensorArray):
            return t
        _check_rank_known(t)
        return self._merge_batch_beams(t, s) if t.shape.rank >= 2 else t

    def _maybe_sort_array_beams(self, t: Any, parent_ids: Tensor,
                                sequence_length: Tensor) -> Any:
        if not isinstance(t, TensorArray):
            return t
        shape = t.element_shape
        if shape.rank is None or shape.rank < 1:
            return t
        static_batch = constant_value(self._batch_size)
        dims = shape.as_list()
        if static_batch is not None and dims[0] is not None and (
                dims[0] != static_batch * self._beam_width or
                (len(dims) >= 2 and dims[1] is not None and
                 (dims[0] != static_batch or dims[1] != self._beam_width))):
            return t
        stacked = t.stack()
        shape_t = ops.shape(stacked)
        merged = ops.equal(shape_t[1], self._batch_size * self._beam_width)
        if stacked.shape.rank != 2:
            merged = ops.logical_or(merged, ops.logical_and(
                ops.equal(shape_t[1], self._batch_size),
                ops.equal(shape_t[2], self._beam_width)))
        message = ("TensorArray reordering expects elements to be reshapable to [batch_size, "
                   "beam_size, -1] which is incompatible with the dynamic shape of "
                   f"{stacked.name} elements. Consider setting reorder_tensor_arrays to False "
                   "to disable TensorArray reordering during the beam search.")
        with ops.control_dependencies([Assert(merged, [message])]):
            return gather_tree_from_array(stacked, parent_ids, sequence_length)

    def step(self, time: Any, inputs: Any, state: BeamSearchDecoderState,
             name: Optional[str] = None) -> tuple:
        with name_scope(name, "BeamSearchDecoderStep", (time, inputs, state)):
            inputs = nest.map_structure(lambda x: self._merge_batch_beams(x, s=x.shape[2:]),
                                        inputs)
            cell_state = nest.map_structure(self._maybe_merge_batch_beams, state.cell_state,
                                            self._cell.state_size)
            cell_outputs, next_cell_state = self._cell(inputs, cell_state)
            cell_outputs = nest.map_structure(
                lambda out: self._split_batch_beams(out, out.shape[1:]), cell_outputs)
            next_cell_state = nest.map_structure(self._maybe_split_batch_beams,
                                                 next_cell_state, self._cell.state_size)
            if self._output_layer is not None:
                cell_outputs = self._output_layer(cell_outputs)
            output, beam_state = _beam_search_step(
                time=time, logits=cell_outputs, next_cell_state=next_cell_state,
                beam_state=state, batch_size=self._batch_size, beam_width=self._beam_width,
                end_token=self._end_token, length_penalty_weight=self._length_penalty_weight,
                coverage_penalty_weight=self._coverage_penalty_weight)
            finished = beam_state.finished
            sample_ids = output.predicted_ids
            next_inputs = cond(ops.reduce_all(finished), lambda: self._start_inputs,
                               lambda: self._embedding_fn(sample_ids))
        return output, beam_state, next_inputs, finished
