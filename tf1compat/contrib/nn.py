"""`tf.contrib.nn` (TF 1.15): alpha dropout (SELU networks), the argument-flipped cross
entropies of TF 0.x, `nth_element`, `scaled_softplus` and `conv1d_transpose`.

Each builds the ops TF 1.15's version builds (names, seeded random stream, the
gradient formula of scaled_softplus); `rank_sampled_softmax_loss` and
`sampled_sparse_softmax_loss` are not implemented (`framework/unsupported_api.py`).
"""

from __future__ import annotations

import numbers
from typing import Any, Optional

from tf1compat.autodiff.custom_gradient import custom_gradient
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.nn_conv import conv1d_transpose
from tf1compat.ops.nn_losses import (sigmoid_cross_entropy_with_logits,
                                     softmax_cross_entropy_with_logits,
                                     sparse_softmax_cross_entropy_with_logits)
from tf1compat.ops.nn_ops import nth_element, softplus
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import reduce_sum

__all__ = ["alpha_dropout", "conv1d_transpose", "nth_element", "scaled_softplus",
           "deprecated_flipped_softmax_cross_entropy_with_logits",
           "deprecated_flipped_sparse_softmax_cross_entropy_with_logits",
           "deprecated_flipped_sigmoid_cross_entropy_with_logits"]

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
