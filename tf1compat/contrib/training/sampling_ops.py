"""`tf.contrib.training.rejection_sample` / `stratified_sample` (TF 1.15
contrib/training/python/training/sampling_ops.py): queue-based sampling.

Both put single examples through a `maybe_batch` queue whose `keep_input` is
`random_uniform([]) < accept probability`. `rejection_sample` takes the probability from
the caller's function; `stratified_sample` from the ratio of the target to the initial
class distribution (the initial one given, or estimated from the labels seen so far in
the local counter `class_count`, started at 10 per class). Examples given as batches
(`enqueue_many`) first pass through a `batch_size=1` queue that splits them. The graph
is TF's op for op, so with the same seeds and one thread per queue the batches are TF's.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.indexed_slices import convert_n_to_tensor_or_indexed_slices
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_at_index
from tf1compat.ops import check_ops, math_ops
from tf1compat.ops.array_ops import expand_dims, identity, shape, squeeze
from tf1compat.ops.cond import cond
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import one_hot, zeros_like
from tf1compat.ops.indexing_ops import gather, where_v2
from tf1compat.ops.logging_ops import Assert, Print
from tf1compat.ops.random_ops import random_uniform
from tf1compat.ops.reduction_ops import reduce_all, reduce_max, reduce_sum
from tf1compat.training.queue_input import batch, maybe_batch
from tf1compat.variables.variable_scope import variable_scope
from tf1compat.variables.variables import Variable

__all__ = ["rejection_sample", "stratified_sample"]


def _split_batches(tensor_list: List[Any], threads: int, capacity: int) -> List[Tensor]:
    """Single examples out of batched inputs: a `batch_size=1` queue fed with
    `enqueue_many`, its singleton batch dimension squeezed away."""
    batched = batch(tensor_list, batch_size=1, num_threads=threads, capacity=capacity,
                    enqueue_many=True)
    return [squeeze(x, [0]) for x in batched]


def rejection_sample(tensors: Sequence[Any], accept_prob_fn: Any, batch_size: Any,
                     queue_threads: int = 1, enqueue_many: bool = False,
                     prebatch_capacity: int = 16, prebatch_threads: int = 1,
                     runtime_checks: bool = False, name: Optional[str] = None) -> List[Tensor]:
    """Batches of the examples in `tensors` kept with probability
    `accept_prob_fn(example tensors)` (a float32 scalar); always a list."""
    with variable_scope(name, "rejection_sample", tensors):
        tensor_list = convert_n_to_tensor_or_indexed_slices(tensors)
        if enqueue_many:
            _check_batch_dimensions(tensor_list)
            tensor_list = _split_batches(tensor_list, prebatch_threads, prebatch_capacity)
        accept_prob = accept_prob_fn(tensor_list)
        if runtime_checks:
            accept_prob = identity(
                with_dependencies([check_ops.assert_less_equal(0.0, accept_prob),
                                   check_ops.assert_less_equal(accept_prob, 1.0)],
                                  accept_prob),
                name="prob_with_checks")
        minibatch = maybe_batch(tensor_list, keep_input=random_uniform([]) < accept_prob,
                                batch_size=batch_size, num_threads=queue_threads)
        return [minibatch] if isinstance(minibatch, Tensor) else minibatch


def stratified_sample(tensors: Sequence[Any], labels: Any, target_probs: Any, batch_size: Any,
                      init_probs: Any = None, enqueue_many: bool = False,
                      queue_capacity: int = 16, threads_per_queue: int = 1,
                      name: Optional[str] = None) -> Tuple[List[Tensor], Tensor]:
    """Batches of the examples in `tensors` whose int `labels` follow `target_probs`
    (1-D, fully defined), drawn by rejection from data distributed as `init_probs`
    (estimated online when None); returns `(batched tensors, batched labels)`."""
    with name_scope(name, "stratified_sample", list(tensors) + [labels]):
        tensor_list = convert_n_to_tensor_or_indexed_slices(tensors)
        labels = convert_to_tensor(labels)
        target_probs = convert_to_tensor(target_probs, dtype=D.float32)
        if not enqueue_many:
            tensor_list = [expand_dims(tensor, 0) for tensor in tensor_list]
            labels = expand_dims(labels, 0)
        if init_probs is None:
            # The class count comes from target_probs, so its shape must be static.
            target_probs.get_shape().assert_is_fully_defined()
            init_probs = _estimate_data_distribution(
                labels, target_probs.get_shape().num_elements())
        else:
            init_probs = convert_to_tensor(init_probs, dtype=D.float32)
        tensor_list, labels, [init_probs, target_probs] = _verify_input(
            tensor_list, labels, [init_probs, target_probs])
        assert_op = Assert(
            reduce_all(math_ops.logical_or(math_ops.not_equal(init_probs, 0),
                                           math_ops.equal(target_probs, 0))),
            ["All classes with zero initial probability must also have zero target "
             "probability: ", init_probs, target_probs])
        init_probs = with_dependencies([assert_op], init_probs)

        accept_probs = _acceptance_probabilities(init_probs, target_probs)
        rejected = reduce_sum((1 - accept_probs) * init_probs)
        accept_probs = cond(
            math_ops.less(rejected, .5), lambda: accept_probs,
            lambda: Print(accept_probs, [accept_probs],
                          message="Proportion of examples rejected by sampler is high.",
                          first_n=10))

        examples = _split_batches(tensor_list + [labels], threads_per_queue, queue_capacity)
        accept_prob = gather(accept_probs, examples[-1])
        batched = maybe_batch(examples, keep_input=random_uniform([]) < accept_prob,
                              batch_size=batch_size, num_threads=threads_per_queue)
        return batched[:-1], batched[-1]


def _estimate_data_distribution(labels: Tensor, num_classes: int,
                                smoothing_constant: int = 10) -> Tensor:
    """The class frequencies of all labels seen so far (float32), counted in the int64
    variable `class_count` that starts at `smoothing_constant` per class."""
    if smoothing_constant <= 0:
        raise ValueError("smoothing_constant must be nonzero.")
    counts = Variable(initial_value=[smoothing_constant] * num_classes, trainable=False,
                      name="class_count", dtype=D.int64)
    counts = counts.assign_add(reduce_sum(one_hot(labels, num_classes, dtype=D.int64), 0))
    # TF adds 0 to copy the counts out of the variable's buffer before normalising them;
    # the op stays so that the graph (and with it the op seeds after it) is TF's.
    counts += 0
    return math_ops.cast(math_ops.truediv(counts, reduce_sum(counts)), D.float32)


def _check_batch_dimensions(tensor_list: List[Any]) -> None:
    """Every input has a batch dimension, compatible with the first input's."""
    for tensor in tensor_list:
        static = tensor.get_shape().with_rank_at_least(1)
        dimension_at_index(static, 0).assert_is_compatible_with(tensor_list[0].get_shape()[0])


def _verify_input(tensor_list: List[Any], labels: Tensor, probs_list: List[Tensor]
                  ) -> Tuple[List[Tensor], Tensor, List[Tensor]]:
    """Static checks (fully defined 1-D probabilities of one length, 1-D labels, batch
    dimensions compatible with the labels') and the run-time ones, attached as control
    dependencies: probabilities non-negative summing to 1 (within 1e-6), a positive batch
    size equal across inputs, integer labels in [0, number of classes)."""
    checked_probs_list = []
    for probs in probs_list:
        probs.get_shape().assert_is_fully_defined()
        probs.get_shape().assert_has_rank(1)
        total = reduce_sum(probs)
        checked_probs_list.append(with_dependencies(
            [check_ops.assert_non_negative(probs), check_ops.assert_less(total, 1.0 + 1e-6),
             check_ops.assert_less(1.0 - 1e-6, total)], probs))
    num_classes = checked_probs_list[0].get_shape().num_elements()
    if any(p.get_shape().num_elements() != num_classes for p in checked_probs_list):
        raise ValueError("Probability parameters must have the same length.")
    labels.get_shape().assert_has_rank(1)
    for tensor in tensor_list:
        static = tensor.get_shape().with_rank_at_least(1)
        dimension_at_index(static, 0).assert_is_compatible_with(labels.get_shape()[0])

    labels_batch_size = shape(labels)[0]
    positive = check_ops.assert_positive(labels_batch_size)
    labels = with_dependencies([positive], labels)
    tensor_list = [with_dependencies([positive, check_ops.assert_equal(shape(x)[0],
                                                                      labels_batch_size)], x)
                   for x in tensor_list]
    labels = with_dependencies(
        [check_ops.assert_integer(labels), check_ops.assert_non_negative(labels),
         check_ops.assert_less(labels, math_ops.cast(num_classes, labels.dtype))], labels)
    return tensor_list, labels, checked_probs_list


def _acceptance_probabilities(init_probs: Tensor, target_probs: Tensor) -> Tensor:
    """`target / init` per class (0 where that is NaN), divided by its maximum."""
    ratios = target_probs / init_probs
    ratios = where_v2(math_ops.is_nan(ratios), zeros_like(ratios), ratios)
    return ratios / reduce_max(ratios)
