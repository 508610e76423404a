"""`tf.contrib.sparsemax` (TF 1.15): sparsemax, the Euclidean projection of logits onto
the probability simplex (Martins & Astudillo, 2016), and its loss.

Both are compositions of core ops, differentiated by autograd as TF differentiates its
composition. A row whose support is empty or whose logits sum to NaN (an infinite
logit) gives NaN everywhere, as TF's; the loss ignores the terms of labels that are 0
where the logit is infinite.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.creation_ops import fill, range as tf_range, zeros_like
from tf1compat.ops.indexing_ops import gather_nd, where
from tf1compat.ops.nn_ops import top_k
from tf1compat.ops.reduction_ops import cumsum, reduce_sum

__all__ = ["sparsemax", "sparsemax_loss"]


def sparsemax(logits: Any, name: Optional[str] = None) -> Tensor:
    """max(logits - tau, 0) per row of a [batch, classes] tensor, with the threshold tau
    that makes each row sum to 1."""
    with name_scope(name, "sparsemax", [logits]):
        z = convert_to_tensor(logits, name="logits")
        obs = array_ops.shape(z)[0]
        dims = array_ops.shape(z)[1]
        z_sorted, _ = top_k(z, k=dims)
        z_cumsum = cumsum(z_sorted, axis=1)
        k = tf_range(1, math_ops.cast(dims, z.dtype) + 1, dtype=z.dtype)
        # The support: the sorted entries that stay positive after thresholding.
        k_z = reduce_sum(math_ops.cast(1 + k * z_sorted > z_cumsum, dtypes.int32), axis=1)
        last = array_ops.stack([tf_range(0, obs), math_ops.maximum(k_z, 1) - 1], axis=1)
        tau = (gather_nd(z_cumsum, last) - 1) / math_ops.cast(k_z, z.dtype)
        p = math_ops.maximum(math_ops.cast(0, z.dtype), z - tau[:, None])
        undefined = math_ops.logical_or(math_ops.equal(k_z, 0),
                                        math_ops.is_nan(z_cumsum[:, -1]))
        return where(undefined, fill([obs, dims], math_ops.cast(float("nan"), z.dtype)), p)


def sparsemax_loss(logits: Any, sparsemax: Any, labels: Any,
                   name: Optional[str] = None) -> Tensor:
    """The sparsemax loss per row: the loss whose gradient is sparsemax - labels."""
    with name_scope(name, "sparsemax_loss", [logits, sparsemax, labels]):
        z = convert_to_tensor(logits, name="logits")
        p = convert_to_tensor(sparsemax, name="sparsemax")
        labels = convert_to_tensor(labels, name="labels")
        support = where(math_ops.logical_or(p > 0, math_ops.is_nan(p)),
                        p * (z - 0.5 * p), zeros_like(p))
        label_part = labels * (0.5 * labels - z)
        # 0 * inf would be NaN: a label of 0 contributes nothing whatever its logit.
        label_part = where(math_ops.logical_and(math_ops.equal(labels, 0),
                                                math_ops.is_inf(z)),
                           zeros_like(z), label_part)
        return reduce_sum(support + label_part, axis=1)
