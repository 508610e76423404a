"""`tf.nn.compute_average_loss` and `tf.nn.scale_regularization_loss`: the loss scaling of
TF's distribution strategies, here always with one replica in sync (tf1compat runs no
replicas), so the averages are over the per-replica batch."""

from __future__ import annotations

import contextlib
from typing import Any, Iterator

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.cond import cond
from tf1compat.ops.reduction_ops import reduce_sum

__all__ = ["compute_average_loss", "scale_regularization_loss"]

_NUM_REPLICAS = 1


@contextlib.contextmanager
def _check_per_example_loss_rank(per_example_loss: Tensor) -> Iterator[None]:
    rank = per_example_loss.shape.rank
    if rank is not None:
        if rank == 0:
            raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor "
                             f"with at least rank 1. Received "
                             f"per_example_loss={per_example_loss} with rank {rank}")
        yield
        return
    with control_dependencies([check_ops.assert_greater_equal(
            array_ops.rank(per_example_loss), math_ops.cast(1, dtype=D.int32),
            message="Invalid value passed for `per_example_loss`. Expected a tensor with at "
                    "least rank 1.")]):
        yield


def _align_weight(losses: Tensor, weight: Tensor) -> Tensor:
    """The weight with its last dimension squeezed or added to match the losses' rank
    (kept as is when scalar), as TF's squeeze_or_expand_dimensions."""
    weight_rank, losses_rank = weight.shape.rank, losses.shape.rank
    if weight_rank == 0:
        return weight
    if weight_rank is not None and losses_rank is not None:
        if weight_rank - losses_rank == 1:
            return array_ops.squeeze(weight, [-1])
        if losses_rank - weight_rank == 1:
            return array_ops.expand_dims(weight, -1)
        return weight
    diff = array_ops.rank(weight) - array_ops.rank(losses)
    return cond(math_ops.equal(diff, 1), lambda: array_ops.squeeze(weight, [-1]),
                lambda: cond(math_ops.equal(diff, -1),
                             lambda: array_ops.expand_dims(weight, -1), lambda: weight))


def compute_average_loss(per_example_loss: Any, sample_weight: Any = None,
                         global_batch_size: Any = None) -> Tensor:
    """`tf.nn.compute_average_loss`: sum of the (weighted) per-example losses divided by
    the global batch size (0 for an empty batch)."""
    per_example_loss = convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    with _check_per_example_loss_rank(per_example_loss):
        if sample_weight is not None:
            sample_weight = convert_to_tensor(sample_weight)
            losses = math_ops.cast(per_example_loss, D.float32)
            weight = _align_weight(losses, math_ops.cast(sample_weight, D.float32))
            per_example_loss = math_ops.multiply(losses, weight)
        per_example_loss = math_ops.cast(per_example_loss, input_dtype)
        if global_batch_size is None:
            global_batch_size = array_ops.shape(per_example_loss)[0] * _NUM_REPLICAS
        check_ops.assert_scalar(global_batch_size,
                                message="global_batch_size must be scalar.")
        check_ops.assert_integer(global_batch_size,
                                 message="global_batch_size must be an integer.")
        check_ops.assert_non_negative(global_batch_size,
                                      message="global_batch_size must be non-negative.")
        loss = reduce_sum(per_example_loss)
        return math_ops.div_no_nan(loss, math_ops.cast(global_batch_size, input_dtype))


def scale_regularization_loss(regularization_loss: Any) -> Tensor:
    """`tf.nn.scale_regularization_loss`: the summed loss divided by the replica count."""
    return reduce_sum(regularization_loss) / _NUM_REPLICAS
