"""`tf.contrib.crf` (TF 1.15): a linear-chain conditional random field over per-step tag
scores, for sequence tagging (BiLSTM-CRF taggers).

`crf_log_likelihood` is the training objective (creating the `transitions` variable when
no matrix is given); `crf_decode` is the in-graph Viterbi decoder, `viterbi_decode` the
numpy one. The forward algorithm and the decoder run as TF's do: `dynamic_rnn` over the
cells below, sequences of length 0 score 0, and a max length of 1 (known statically or
at run time) takes a shortcut through `smart_cond`, so graphs, variable names and values
are TF's.
"""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from tf1compat.framework import dtypes
from tf1compat.framework.constant_op import constant
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape, squeeze, stack
from tf1compat.ops.cond import smart_cond
from tf1compat.ops.creation_ops import fill, range as tf_range, zeros_like
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.indexing_ops import gather_nd, sequence_mask, where
from tf1compat.ops.math_ops import cast, equal, less_equal, maximum
from tf1compat.ops.reduction_ops import argmax, reduce_logsumexp, reduce_max, reduce_sum
from tf1compat.ops.sequence_ops import reverse_sequence
from tf1compat.ops.strided_slice import slice
from tf1compat.rnn.cell_base import RNNCell
from tf1compat.rnn.dynamic import dynamic_rnn
from tf1compat.variables.variable_scope import get_variable

__all__ = ["crf_sequence_score", "crf_log_norm", "crf_log_likelihood", "crf_unary_score",
           "crf_binary_score", "CrfForwardRnnCell", "viterbi_decode", "crf_decode",
           "CrfDecodeForwardRnnCell", "CrfDecodeBackwardRnnCell",
           "crf_multitag_sequence_score"]


def _max_len_is_one(tensor: Any) -> Any:
    """`max_seq_len == 1`, folded when the dimension is static (smart_cond's predicate)."""
    return equal(dimension_value(tensor.shape[1]) or shape(tensor)[1], 1)


def _zero_where_empty(sequence_lengths: Any, values: Any) -> Any:
    return where(less_equal(sequence_lengths, 0), zeros_like(values), values)


def _less_one(sequence_lengths: Any) -> Any:
    return maximum(constant(0, dtype=sequence_lengths.dtype), sequence_lengths - 1)


def crf_sequence_score(inputs: Any, tag_indices: Any, sequence_lengths: Any,
                       transition_params: Any) -> Any:
    """The unnormalized score of each tag sequence: [batch_size]."""
    def single() -> Any:
        batch_size = shape(inputs, out_type=tag_indices.dtype)[0]
        example_inds = reshape(tf_range(batch_size, dtype=tag_indices.dtype), [-1, 1])
        scores = gather_nd(squeeze(inputs, [1]), concat([example_inds, tag_indices], axis=1))
        return _zero_where_empty(sequence_lengths, scores)

    def multi() -> Any:
        return (crf_unary_score(tag_indices, sequence_lengths, inputs)
                + crf_binary_score(tag_indices, sequence_lengths, transition_params))
    return smart_cond(pred=_max_len_is_one(inputs), true_fn=single, false_fn=multi)


def crf_multitag_sequence_score(inputs: Any, tag_bitmap: Any, sequence_lengths: Any,
                                transition_params: Any) -> Any:
    """The log-sum-exp score of all tag sequences allowed by `tag_bitmap` (a boolean
    [batch_size, max_seq_len, num_tags] mask): [batch_size]."""
    def filtered() -> Any:
        return where(tag_bitmap, inputs, fill(shape(inputs), float("-inf")))

    def single() -> Any:
        return reduce_logsumexp(filtered(), axis=[1, 2], keepdims=False)

    def multi() -> Any:
        return crf_log_norm(inputs=filtered(), sequence_lengths=sequence_lengths,
                            transition_params=transition_params)
    return smart_cond(pred=_max_len_is_one(inputs), true_fn=single, false_fn=multi)


def crf_log_norm(inputs: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The log partition function (forward algorithm): [batch_size]."""
    first_input = squeeze(slice(inputs, [0, 0, 0], [-1, 1, -1]), [1])

    def single() -> Any:
        return _zero_where_empty(sequence_lengths, reduce_logsumexp(first_input, [1]))

    def multi() -> Any:
        rest_of_input = slice(inputs, [0, 1, 0], [-1, -1, -1])
        _, alphas = dynamic_rnn(cell=CrfForwardRnnCell(transition_params),
                                inputs=rest_of_input,
                                sequence_length=_less_one(sequence_lengths),
                                initial_state=first_input, dtype=dtypes.float32)
        return _zero_where_empty(sequence_lengths, reduce_logsumexp(alphas, [1]))
    return smart_cond(pred=_max_len_is_one(inputs), true_fn=single, false_fn=multi)


def crf_log_likelihood(inputs: Any, tag_indices: Any, sequence_lengths: Any,
                       transition_params: Any = None) -> Tuple[Any, Any]:
    """(log-likelihood of each tag sequence [batch_size], the [num_tags, num_tags]
    transition matrix — the `transitions` variable of the current scope when not given)."""
    num_tags = dimension_value(inputs.shape[2])
    if transition_params is None:
        transition_params = get_variable("transitions", [num_tags, num_tags])
    sequence_scores = crf_sequence_score(inputs, tag_indices, sequence_lengths,
                                         transition_params)
    log_norm = crf_log_norm(inputs, sequence_lengths, transition_params)
    return sequence_scores - log_norm, transition_params


def crf_unary_score(tag_indices: Any, sequence_lengths: Any, inputs: Any) -> Any:
    """The sum of each sequence's tag scores within its length: [batch_size]."""
    batch_size = shape(inputs)[0]
    max_seq_len = shape(inputs)[1]
    num_tags = shape(inputs)[2]
    flattened_inputs = reshape(inputs, [-1])
    offsets = expand_dims(tf_range(batch_size) * max_seq_len * num_tags, 1)
    offsets += expand_dims(tf_range(max_seq_len) * num_tags, 0)
    if tag_indices.dtype == dtypes.int64:
        offsets = cast(offsets, dtypes.int64)
    flattened_tag_indices = reshape(offsets + tag_indices, [-1])
    unary_scores = reshape(gather(flattened_inputs, flattened_tag_indices),
                           [batch_size, max_seq_len])
    masks = sequence_mask(sequence_lengths, maxlen=shape(tag_indices)[1],
                          dtype=dtypes.float32)
    return reduce_sum(unary_scores * masks, 1)


def crf_binary_score(tag_indices: Any, sequence_lengths: Any, transition_params: Any) -> Any:
    """The sum of each sequence's transition scores within its length: [batch_size]."""
    num_tags = transition_params.get_shape()[0]
    num_transitions = shape(tag_indices)[1] - 1
    start_tag_indices = slice(tag_indices, [0, 0], [-1, num_transitions])
    end_tag_indices = slice(tag_indices, [0, 1], [-1, num_transitions])
    flattened_transition_indices = start_tag_indices * num_tags + end_tag_indices
    binary_scores = gather(reshape(transition_params, [-1]), flattened_transition_indices)
    masks = sequence_mask(sequence_lengths, maxlen=shape(tag_indices)[1],
                          dtype=dtypes.float32)
    return reduce_sum(binary_scores * slice(masks, [0, 1], [-1, -1]), 1)


class _TransitionCell(RNNCell):
    """A cell over [batch_size, num_tags] scores with a fixed transition matrix (no
    variables, no layer machinery: TF's CRF cells only define __call__)."""

    def __init__(self, transition_params: Any):   # (no super().__init__(), as TF)
        transition_params = convert_to_tensor(transition_params)
        self._transition_params = expand_dims(transition_params, 0)
        self._num_tags = dimension_value(transition_params.shape[0])

    @property
    def state_size(self) -> int:
        return self._num_tags

    @property
    def output_size(self) -> int:
        return self._num_tags


class CrfForwardRnnCell(_TransitionCell):
    """One step of the forward algorithm: alphas' = inputs + logsumexp(alphas + T)."""

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Tuple[Any, Any]:
        transition_scores = expand_dims(state, 2) + self._transition_params
        new_alphas = inputs + reduce_logsumexp(transition_scores, [1])
        return new_alphas, new_alphas


class CrfDecodeForwardRnnCell(_TransitionCell):
    """One Viterbi step: (backpointers int32, scores' = inputs + max(scores + T))."""

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Tuple[Any, Any]:
        transition_scores = expand_dims(state, 2) + self._transition_params
        new_state = inputs + reduce_max(transition_scores, [1])
        backpointers = cast(argmax(transition_scores, 1), dtype=dtypes.int32)
        return backpointers, new_state


class CrfDecodeBackwardRnnCell(RNNCell):
    """One step back through the backpointers: the previous tag of each sequence."""

    def __init__(self, num_tags: int):   # (no super().__init__(), as TF)
        self._num_tags = num_tags

    @property
    def state_size(self) -> int:
        return 1

    @property
    def output_size(self) -> int:
        return 1

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Tuple[Any, Any]:
        state = squeeze(state, axis=[1])
        indices = stack([tf_range(shape(inputs)[0]), state], axis=1)
        new_tags = expand_dims(gather_nd(inputs, indices), axis=-1)
        return new_tags, new_tags


def viterbi_decode(score: np.ndarray, transition_params: np.ndarray) -> Tuple[List[int], Any]:
    """The best tag sequence of one [seq_len, num_tags] score matrix, in numpy (for use
    outside the graph): (list of tag indices, its score)."""
    trellis = np.zeros_like(score)
    backpointers = np.zeros_like(score, dtype=np.int32)
    trellis[0] = score[0]
    for t in range(1, score.shape[0]):
        v = np.expand_dims(trellis[t - 1], 1) + transition_params
        trellis[t] = score[t] + np.max(v, 0)
        backpointers[t] = np.argmax(v, 0)
    viterbi = [np.argmax(trellis[-1])]
    for bp in reversed(backpointers[1:]):
        viterbi.append(bp[viterbi[-1]])
    viterbi.reverse()
    return viterbi, np.max(trellis[-1])


def crf_decode(potentials: Any, transition_params: Any, sequence_length: Any
               ) -> Tuple[Any, Any]:
    """In-graph Viterbi decoding: (best tags [batch_size, max_seq_len] int32, their
    scores [batch_size])."""
    def single() -> Tuple[Any, Any]:
        squeezed = squeeze(potentials, [1])
        decode_tags = expand_dims(argmax(squeezed, axis=1), 1)
        return cast(decode_tags, dtype=dtypes.int32), reduce_max(squeezed, axis=1)

    def multi() -> Tuple[Any, Any]:
        num_tags = dimension_value(potentials.shape[2])
        initial_state = squeeze(slice(potentials, [0, 0, 0], [-1, 1, -1]), axis=[1])
        inputs = slice(potentials, [0, 1, 0], [-1, -1, -1])
        length_less_one = _less_one(sequence_length)
        backpointers, last_score = dynamic_rnn(
            CrfDecodeForwardRnnCell(transition_params), inputs=inputs,
            sequence_length=length_less_one, initial_state=initial_state, time_major=False,
            dtype=dtypes.int32)
        backpointers = reverse_sequence(backpointers, length_less_one, seq_axis=1)
        last_tag = expand_dims(cast(argmax(last_score, axis=1), dtype=dtypes.int32), axis=-1)
        decode_tags, _ = dynamic_rnn(
            CrfDecodeBackwardRnnCell(num_tags), inputs=backpointers,
            sequence_length=length_less_one, initial_state=last_tag, time_major=False,
            dtype=dtypes.int32)
        decode_tags = concat([last_tag, squeeze(decode_tags, axis=[2])], axis=1)
        decode_tags = reverse_sequence(decode_tags, sequence_length, seq_axis=1)
        return decode_tags, reduce_max(last_score, axis=1)
    return smart_cond(pred=_max_len_is_one(potentials), true_fn=single, false_fn=multi)
