"""`tf.nn.ctc_loss_v2`: CTC loss with dense labels, built from ops as TF builds it (a
forward-backward pass over the label-state lattice in log space, the blank first), and
with sparse labels through the CTCLoss op.

TF's dense loss treats impossible alignments with a finite "log 0" (log 1e-307), so their
loss is about 707 rather than inf, and allows empty labels; this composite computes the
same values. Its gradient with respect to the logits is TF's: softmax minus the state
posteriors, masked past each sequence's length (attached to the loss through
`stop_gradient`, not through TF's custom-gradient function, so the graph's op names differ).
"""

from __future__ import annotations

import math
from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops.array_ops import (concat, expand_dims, reshape, shape, squeeze, stack,
                                     stop_gradient)
from tf1compat.ops.creation_ops import one_hot, ones, zeros, zeros_like
from tf1compat.ops.creation_ops import range as range_
from tf1compat.ops.functional_ops import scan
from tf1compat.ops.indexing_ops import scatter_nd, sequence_mask, where
from tf1compat.ops.math_ops import cast, equal, exp, log
from tf1compat.ops.matrix_ops import eye
from tf1compat.ops.nn_losses import ctc_loss
from tf1compat.ops.nn_ops import log_softmax
from tf1compat.ops.reduction_ops import reduce_logsumexp, reduce_sum
from tf1compat.ops.transform_ops import pad, tile, transpose

__all__ = ["ctc_loss_v2"]

# TF's "log 0": log(1e-307) in float64, rounded to float32.
_LOG_0 = float(D.float32.as_numpy_dtype(math.log(1e-307)))


def _dim(tensor: Tensor, i: int) -> Any:
    return dimension_value(tensor.shape[i]) or shape(tensor)[i]


def _state_transitions(labels: Tensor) -> Tensor:
    """[batch, states, states] transition weights (to, from) of the CTC lattice whose
    states are the L+1 label states then the L+1 blank states."""
    with name_scope("ctc_state_trans"):
        batch = _dim(labels, 0)
        num_labels = _dim(labels, 1)
        num_states = 2 * (num_labels + 1)
        label_states = range_(num_labels + 1)
        blank_states = label_states + num_labels + 1
        indices = concat([[[1, 0]], stack([label_states[1:], blank_states[:-1]], 1),
                          stack([blank_states, label_states], 1)], 0)
        trans = scatter_nd(indices, ones([_dim(indices, 0)]), shape=[num_states, num_states])
        trans += eye(num_states)
        # label -> next label, unless the two labels repeat (a blank must separate them)
        batch_idx = zeros_like(label_states[2:])
        pairs = stack([batch_idx, label_states[2:], label_states[1:-1]], 1)
        pairs = tile(expand_dims(pairs, 0), [batch, 1, 1])
        pairs += expand_dims(expand_dims(range_(batch), 1) * [1, 0, 0], 1)
        repeats = equal(labels[:, :-1], labels[:, 1:])
        label_to_label = scatter_nd(pairs, 1.0 - cast(repeats, D.float32),
                                    [batch, num_states, num_states])
        return expand_dims(trans, 0) + label_to_label


def _boundary_log_probs(label_length: Tensor, max_label_length: Any) -> tuple:
    """Initial [batch, states] (the start state) and final [batch, states] (the last label
    state and its blank) log probabilities."""
    batch = _dim(label_length, 0)
    num_label_states = max_label_length + 1
    num_states = 2 * num_label_states
    initial = one_hot(zeros([batch], dtype=D.int32), depth=num_states, on_value=0.0,
                      off_value=_LOG_0, axis=1)
    final_mask = ones([2, 1, batch]) * one_hot(label_length, depth=num_label_states, axis=0)
    final = reshape((1.0 - final_mask) * _LOG_0, [num_states, batch])
    return initial, transpose(final)


def _observed_log_probs(labels: Tensor, num_classes: Any, log_probs: Tensor) -> Tensor:
    """[time, batch, states] log probability of each state's symbol (log 0 for the start)."""
    num_label_states = _dim(labels, 1)
    blank = tile(log_probs[:, :, :1], [1, 1, num_label_states + 1])
    hot = expand_dims(one_hot(labels, depth=num_classes), axis=0)
    label_probs = reduce_sum(expand_dims(log_probs, axis=2) * hot, axis=3)
    observed = concat([label_probs, blank], axis=2)
    return pad(observed, [[0, 0], [0, 0], [1, 0]], constant_values=-math.inf)


def _forward_backward(trans: Tensor, initial: Tensor, final: Tensor, observed: Tensor,
                      lengths: Tensor) -> tuple:
    """(state posteriors [time, batch, states] in log space, log likelihood [batch])."""
    log_trans = log(trans)
    back_trans = transpose(log_trans, [0, 2, 1])
    max_time = _dim(observed, 0)

    def forward(state: Tensor, obs: Tensor) -> Tensor:
        state = reduce_logsumexp(expand_dims(state, axis=1) + log_trans, axis=-1) + obs
        return state - reduce_logsumexp(state, axis=-1, keepdims=True)

    def backward(accum: tuple, elems: tuple) -> tuple:
        state, cum_log_sum = accum
        obs, mask = elems
        state = reduce_logsumexp(expand_dims(state + obs, axis=1) + back_trans, axis=-1)
        log_sum = reduce_logsumexp(state, axis=-1, keepdims=True)
        state -= log_sum
        cum_log_sum += squeeze(log_sum, axis=[-1]) * mask
        kept = expand_dims(mask, axis=1)
        return state * kept + final * (1.0 - kept), cum_log_sum

    mask = transpose(sequence_mask(lengths, max_time, D.float32), [1, 0])
    fwd = scan(forward, observed, initializer=initial)
    bwd, cum_log_sum = scan(backward, (observed, mask),
                            initializer=(final, zeros([_dim(observed, 1)])), reverse=True)
    # TF's inclusive scans hold the initial value at the far end: bwd[1:] is this.
    bwd_next = concat([bwd[1:], expand_dims(final, 0)], 0)
    posteriors = fwd + bwd_next
    posteriors -= reduce_logsumexp(posteriors, axis=2, keepdims=True)
    posteriors += log(expand_dims(mask, axis=2))
    return posteriors, bwd[0, :, 0] + cum_log_sum[0]


def _state_to_class(labels: Tensor, num_classes: Any, states: Tensor) -> Tensor:
    """[time, batch, classes] log posteriors per output class (blank first)."""
    num_label_states = _dim(labels, 1) + 1
    label_states = states[:, :, 1:num_label_states]
    blank_states = states[:, :, num_label_states:]
    hot = expand_dims(one_hot(labels - 1, depth=num_classes - 1, on_value=0.0,
                              off_value=-math.inf), axis=0)
    label_classes = reduce_logsumexp(expand_dims(label_states, axis=3) + hot, axis=2)
    blank_class = reduce_logsumexp(blank_states, axis=2, keepdims=True)
    return concat([blank_class, label_classes], axis=-1)


def _ctc_loss_dense(labels: Tensor, logits: Tensor, label_length: Tensor,
                    logit_length: Tensor) -> Tensor:
    """Loss [batch] of time-major logits with the blank at class 0."""
    num_classes = _dim(logits, 2)
    log_probs = log_softmax(logits)
    observed = _observed_log_probs(labels, num_classes, log_probs)
    initial, final = _boundary_log_probs(label_length, _dim(labels, 1))
    posteriors, log_likelihood = _forward_backward(_state_transitions(labels), initial,
                                                   final, observed, logit_length)
    grad = exp(log_probs) - exp(_state_to_class(labels, num_classes, posteriors))
    logit_mask = transpose(sequence_mask(logit_length, _dim(logits, 0), D.float32), [1, 0])
    grad = stop_gradient(grad * expand_dims(logit_mask, axis=2))
    loss = stop_gradient(-log_likelihood)
    # TF's gradient: d loss[b] / d logits = grad[:, b, :] (the added term is zero).
    return loss + reduce_sum((logits - stop_gradient(logits)) * grad, axis=[0, 2])


def ctc_loss_v2(labels: Any, logits: Any, label_length: Any, logit_length: Any,
                logits_time_major: bool = True, unique: Any = None,
                blank_index: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.nn.ctc_loss_v2`: per-example CTC loss of logits against dense labels
    [batch, max_label_length] (blank 0 by default) or SparseTensor labels (blank given)."""
    if isinstance(labels, SparseTensor):
        if blank_index is None:
            raise ValueError("Argument `blank_index` must be provided when labels is a "
                             "SparseTensor.")
        logits = convert_to_tensor(logits, name="logits")
        classes = _dim(logits, 2)
        if blank_index < 0:
            blank_index += classes
        if blank_index != classes - 1:
            logits = concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                             logits[:, :, blank_index:blank_index + 1]], axis=2)
            labels = SparseTensor(labels.indices,
                                  where(labels.values < blank_index, labels.values,
                                        labels.values - 1), labels.dense_shape)
        return ctc_loss(labels=labels, inputs=logits, sequence_length=logit_length,
                        time_major=logits_time_major)
    blank_index = 0 if blank_index is None else blank_index
    # `unique` (from ctc_unique_labels) only speeds up TF's computation: same result.
    del unique
    with name_scope(name, "ctc_loss_dense", [logits, labels, label_length, logit_length]):
        logits = convert_to_tensor(logits, name="logits")
        labels = convert_to_tensor(labels, name="labels")
        label_length = convert_to_tensor(label_length, name="label_length")
        logit_length = convert_to_tensor(logit_length, name="logit_length")
        orig_dtype = logits.dtype
        if orig_dtype in (D.float16, D.bfloat16):
            logits = cast(logits, D.float32)
        if not logits_time_major:
            logits = transpose(logits, perm=[1, 0, 2])
        if blank_index != 0:
            if blank_index < 0:
                blank_index += _dim(logits, 2)
            logits = concat([logits[:, :, blank_index:blank_index + 1],
                             logits[:, :, :blank_index], logits[:, :, blank_index + 1:]],
                            axis=2)
            labels = where(labels < blank_index, labels + 1, labels)
        loss = _ctc_loss_dense(labels, logits, label_length, logit_length)
        if orig_dtype in (D.float16, D.bfloat16):
            loss = cast(loss, orig_dtype)
        return loss

