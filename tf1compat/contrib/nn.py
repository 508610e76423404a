"""`tf.contrib.nn` (TF 1.15): alpha dropout (SELU networks), the argument-flipped cross
entropies of TF 0.x, `nth_element`, `scaled_softplus`, `conv1d_transpose` and the two
sampled softmax losses, `rank_sampled_softmax_loss` (TAPAS two-pass resampling) and
`sampled_sparse_softmax_loss`.

Each builds the ops TF 1.15's version builds (names, seeded random stream, the
gradient formula of scaled_softplus).
"""

from __future__ import annotations

import numbers
from typing import Any, Optional

from tf1compat.autodiff.custom_gradient import custom_gradient
from tf1compat.framework import dtypes
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.nn_conv import conv1d_transpose
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.nn_losses import (
    sigmoid_cross_entropy_with_logits,
    softmax_cross_entropy_with_logits,
    sparse_softmax_cross_entropy_with_logits,
)
from tf1compat.ops.nn_ops import nth_element, softplus, top_k
from tf1compat.ops.nn_sampled import (
    _compute_sampled_logits,
    learned_unigram_candidate_sampler,
    sampled_softmax_loss,
)
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import reduce_logsumexp, reduce_sum

__all__ = ["alpha_dropout", "conv1d_transpose",
           "deprecated_flipped_sigmoid_cross_entropy_with_logits",
           "deprecated_flipped_softmax_cross_entropy_with_logits",
           "deprecated_flipped_sparse_softmax_cross_entropy_with_logits",
           "nth_element", "rank_sampled_softmax_loss", "sampled_sparse_softmax_loss",
           "scaled_softplus"]

# SELU's negative saturation value, -scale * alpha.
_SELU_ALPHA = -1.7580993408473766


def alpha_dropout(x: Any, keep_prob: Any, noise_shape: Any = None, seed: Any = None,
                  name: Optional[str] = None) -> Tensor:
    """Dropout for SELU networks: dropped units become SELU's saturation value and an
    affine map keeps the mean and variance (Klambauer et al., 2017)."""
    with name_scope(name, "alpha_dropout", [x]):
        x = convert_to_tensor(x, name="x")
        if isinstance(keep_prob, numbers.Real) and not 0 < keep_prob <= 1.:
            raise ValueError("keep_prob must be a scalar tensor or a float in the range "
                             f"(0, 1], got {keep_prob:g}")
        keep_prob = convert_to_tensor(keep_prob, dtype=x.dtype, name="keep_prob")
        keep_prob.get_shape().assert_has_rank(0)
        if constant_value(keep_prob) == 1:
            return x
        noise_shape = noise_shape if noise_shape is not None else array_ops.shape(x)
        random_tensor = random_uniform(noise_shape, seed=seed, dtype=x.dtype)
        kept = math_ops.cast(math_ops.greater_equal(random_tensor, 1 - keep_prob), x.dtype)
        x = x * kept + _SELU_ALPHA * (1 - kept)
        a = (keep_prob + keep_prob * (1 - keep_prob) * _SELU_ALPHA ** 2) ** -0.5
        b = -a * _SELU_ALPHA * (1 - keep_prob)
        return a * x + b


def deprecated_flipped_softmax_cross_entropy_with_logits(
        logits: Any, labels: Any, dim: int = -1, name: Optional[str] = None) -> Tensor:
    """`tf.nn.softmax_cross_entropy_with_logits` with TF 0.x's (logits, labels) order."""
    return softmax_cross_entropy_with_logits(labels=labels, logits=logits, dim=dim,
                                             name=name)


def deprecated_flipped_sparse_softmax_cross_entropy_with_logits(
        logits: Any, labels: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.sparse_softmax_cross_entropy_with_logits` with (logits, labels) order."""
    return sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits, name=name)


def deprecated_flipped_sigmoid_cross_entropy_with_logits(
        logits: Any, targets: Any, name: Optional[str] = None) -> Tensor:
    """`tf.nn.sigmoid_cross_entropy_with_logits` with (logits, targets) order."""
    return sigmoid_cross_entropy_with_logits(labels=targets, logits=logits, name=name)


def _reduce_to(g: Tensor, t: Tensor) -> Tensor:
    """`g` summed over the axes along which `t` was broadcast, in `t`'s shape."""
    shape = array_ops.shape(t)
    axes = apply_op("BroadcastGradientArgs", [shape, array_ops.shape(g)], {})._outputs[0]
    return array_ops.reshape(reduce_sum(g, axes), shape)


def scaled_softplus(x: Any, alpha: Any, clip: Any = None,
                    name: Optional[str] = None) -> Tensor:
    """`alpha * softplus(x / alpha)` (at most `clip` where given), with TF's gradient
    formula (computed from the output: stable where softplus saturates)."""
    clipping = clip is not None
    with name_scope(name, "scaled_softplus", [x, alpha] + ([clip] if clipping else [])):
        x = convert_to_tensor(x, name="x")
        alpha = convert_to_tensor(alpha, dtype=x.dtype, name="alpha")
        inputs = [x, alpha]
        if clipping:
            inputs.append(convert_to_tensor(clip, dtype=x.dtype, name="clip"))

        @custom_gradient
        def forward(*args: Tensor) -> Any:
            y = args[1] * softplus(args[0] / args[1])
            out = math_ops.minimum(y, args[2]) if clipping else y

            def grad(g: Tensor) -> Any:
                extra = []
                if clipping:
                    unclipped = math_ops.cast(y < args[2], g.dtype)
                    extra = [_reduce_to(g * (1. - unclipped), args[2])]
                    g = g * unclipped
                scaled = y / args[1]
                emy = math_ops.exp(-scaled)
                dy_dx = 1. - emy
                # TF's eps keeps log(0) away; t * log(t) -> 0 as t -> 0.
                dy_dalpha = scaled * emy - dy_dx * math_ops.log(dy_dx + 1e-8)
                return [_reduce_to(g * dy_dx, args[0]),
                        _reduce_to(g * dy_dalpha, args[1])] + extra
            return out, grad
        return forward(*inputs)


def _rank_resample(weights: Any, biases: Any, inputs: Tensor, sampled_values: Any,
                   num_resampled: int, resampling_temperature: Any,
                   partition_strategy: str) -> tuple:
    """The `num_resampled` of the sampled classes whose tempered logsumexp logit over the
    batch is highest (TAPAS' second pass), with their expected counts."""
    sampled, true_expected_count, sampled_expected_count = sampled_values
    sampled = math_ops.cast(array_ops.stop_gradient(sampled), dtypes.int64)
    true_expected_count = array_ops.stop_gradient(true_expected_count)
    sampled_expected_count = array_ops.stop_gradient(sampled_expected_count)
    reweighted_inputs = inputs / resampling_temperature
    # TF applies the logsumexp to each shard's rows before stitching them; row-wise, it
    # is the same as applying it to the stitched rows.
    embeddings = embedding_lookup(weights, sampled, partition_strategy)
    sampled_logits = reduce_logsumexp(
        matmul(embeddings, reweighted_inputs, transpose_b=True), axis=1, keepdims=False)
    sampled_b = array_ops.reshape(embedding_lookup(biases, sampled, partition_strategy),
                                  [-1])
    sampled_logits += sampled_b / resampling_temperature
    _, resampled_indices = top_k(sampled_logits, k=num_resampled, sorted=False)
    resampled = gather(sampled, indices=resampled_indices)
    resampled_expected_count = gather(sampled_expected_count, indices=resampled_indices)
    return resampled, true_expected_count, resampled_expected_count


def rank_sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any,
                              num_sampled: int, num_resampled: int, num_classes: int,
                              num_true: int, sampled_values: Any,
                              resampling_temperature: Any, remove_accidental_hits: bool,
                              partition_strategy: str,
                              name: Optional[str] = None) -> Tensor:
    """Sampled softmax loss over the `num_resampled` of `num_sampled` candidates (from
    `sampled_values`, else `tf.nn.learned_unigram_candidate_sampler`) that the model
    ranks highest (TAPAS, arXiv:1707.03073). Returns the `[batch_size]` losses.

    Raises:
      ValueError: num_sampled > num_classes, num_sampled <= num_resampled, or a
        partition_strategy other than "div" / "mod".
    """
    if num_sampled > num_classes:
        raise ValueError(f"num_sampled ({num_sampled}) cannot be greater than num_classes "
                         f"({num_classes})")
    if num_sampled <= num_resampled:
        raise ValueError(f"num_resampled ({num_resampled}) must be less than num_sampled "
                         f"({num_sampled})")
    if partition_strategy not in ("div", "mod"):
        raise ValueError(f"unsupported partition_strategy ({partition_strategy})")
    values = [weights, biases, labels, inputs] + list(sampled_values or []) + \
        [resampling_temperature]
    with name_scope(name, "rank_sampled_softmax_loss", values) as scope:
        if not sampled_values:
            sampled_values = learned_unigram_candidate_sampler(
                true_classes=labels, num_true=num_true, num_sampled=num_sampled,
                unique=True, range_max=num_classes)
        inputs = convert_to_tensor(inputs)
        resampled_values = _rank_resample(weights, biases, inputs, sampled_values,
                                          num_resampled, resampling_temperature,
                                          partition_strategy)
        return sampled_softmax_loss(
            weights=weights, biases=biases, labels=labels, inputs=inputs,
            num_sampled=num_resampled, num_classes=num_classes, num_true=num_true,
            sampled_values=resampled_values, remove_accidental_hits=remove_accidental_hits,
            partition_strategy=partition_strategy, name=scope)


def sampled_sparse_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any,
                                num_sampled: int, num_classes: int,
                                sampled_values: Any = None,
                                remove_accidental_hits: bool = True,
                                partition_strategy: str = "mod",
                                name: str = "sampled_sparse_softmax_loss") -> Tensor:
    """`tf.nn.sampled_softmax_loss` for one true class per example, as a sparse softmax
    cross entropy on the sampled logits (the true logit is column 0). Returns the
    `[batch_size]` losses; `sampled_values` defaults to the log-uniform sampler."""
    logits, _ = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs,
        num_sampled=num_sampled, num_classes=num_classes, num_true=1,
        sampled_values=sampled_values, subtract_log_q=True,
        remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name)
    labels = zeros([array_ops.shape(logits)[0], 1], dtype=dtypes.int64)
    return sparse_softmax_cross_entropy_with_logits(labels=array_ops.squeeze(labels),
                                                    logits=logits)
