"""`tf.contrib.training.bucket` / `bucket_by_sequence_length` (TF 1.15
contrib/training/python/training/bucket_ops.py): queue-based batching that keeps one
queue per bucket, so each batch holds elements of one bucket only (e.g. sequences of
similar length, padded with `dynamic_pad`).

Each input element is enqueued into `bucket_queue_<i>` (a cond per bucket on
`which_bucket`); a second QueueRunner moves full batches (`dequeue_many(batch_size)`) of
each bucket into `top_queue`, whose `dequeue` gives `(bucket index, batch)`. The graph is
TF's: the same queues, names, QueueRunners and `bucket/...` summaries.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.errors import CancelledError, OutOfRangeError
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.framework.constant_value import constant_value
from tf1compat.ops import math_ops, queue_ops, sparse_map_ops
from tf1compat.ops.cond import cond, smart_cond
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.reduction_ops import reduce_min
from tf1compat.training.queue_input import (_as_original_type, _as_tensor_list, _dtypes,
                                            _scalar_summary, _shapes, _validate,
                                            _validate_keep_input)
from tf1compat.training.queue_runner import QueueRunner, add_queue_runner

__all__ = ["bucket", "bucket_by_sequence_length"]


def _static_batch_sizes(sizes: List[Any]) -> List[Any]:
    """Each bucket's batch size as an int where it is known statically, else a tensor."""
    out = []
    for size in sizes:
        size = convert_to_tensor(size, dtype=D.int32, name="batch_size")
        static = constant_value(size)
        out.append(int(static) if static is not None else size)
    return out


def bucket(tensors: Any, which_bucket: Any, batch_size: Any, num_buckets: int,
           num_threads: int = 1, capacity: int = 32,
           bucket_capacities: Optional[Sequence[int]] = None, shapes: Any = None,
           dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
           keep_input: Any = True, shared_name: Optional[str] = None,
           name: Optional[str] = None) -> Tuple[Any, Any]:
    """Batches `tensors` (a list or dict) separately per bucket `which_bucket` (an int32
    scalar in [0, num_buckets)); returns `(bucket index, batched tensors)`."""
    per_bucket = isinstance(batch_size, (list, tuple))
    if per_bucket and len(batch_size) != num_buckets:
        raise ValueError("If batch_size is a list it must have num_buckets elements")
    if bucket_capacities is not None and len(bucket_capacities) != num_buckets:
        raise ValueError(f"The list bucket_capacities ({bucket_capacities}) must have "
                         f"exactly num_buckets ({num_buckets}) elements.")
    bucket_capacities = list(bucket_capacities or [capacity] * num_buckets)
    tensor_list = _as_tensor_list(tensors)
    with name_scope(name, "bucket", tensor_list):
        tensor_list = _validate(tensor_list, "bucket()")
        keep_input = _validate_keep_input(keep_input, enqueue_many=False)
        tensor_list, sparse_info = sparse_map_ops.store_sparse_tensors(
            tensor_list, enqueue_many=False, keep_input=keep_input)
        sizes = _static_batch_sizes(list(batch_size) if per_bucket
                                    else [batch_size] * num_buckets)
        types = _dtypes([tensor_list])
        shapes = _shapes([tensor_list], shapes, enqueue_many=False)
        which_bucket = convert_to_tensor(which_bucket, dtype=D.int32, name="which_bucket")
        queue_class = queue_ops.PaddingFIFOQueue if dynamic_pad else queue_ops.FIFOQueue
        bucket_queues = [
            queue_class(capacity=bucket_capacities[i], dtypes=types, shapes=shapes,
                        shared_name=None if shared_name is None else f"{shared_name}_{i}",
                        name=f"bucket_queue_{i}")
            for i in range(num_buckets)]
        # TF takes the static batch size of the last bucket for the batch dimension.
        static_size = sizes[-1] if isinstance(sizes[-1], int) else None
        batch_dim = None if (allow_smaller_final_batch or per_bucket) else static_size
        top_queue = queue_ops.PaddingFIFOQueue(
            capacity=capacity, dtypes=[D.int32] + types,
            shapes=[TensorShape([])] + [TensorShape([batch_dim]).concatenate(s)
                                        for s in bucket_queues[0].shapes],
            shared_name=shared_name, name="top_queue")

        def enqueue_which() -> Any:
            return group(*[cond(math_ops.equal(which_bucket, i),
                                _enqueue_into(bucket_queues[i], tensor_list), no_op)
                           for i in range(num_buckets)], name="group_enqueues")
        maybe_enqueue = smart_cond(keep_input, enqueue_which, no_op)
        enqueues_to_top = []
        for i, (queue, size) in enumerate(zip(bucket_queues, sizes)):
            read = queue.dequeue_up_to if allow_smaller_final_batch else queue.dequeue_many
            batch = read(size, name=f"read_bucket_{i}")
            batch = list(batch) if isinstance(batch, (list, tuple)) else [batch]
            enqueues_to_top.append(top_queue.enqueue([constant(i)] + batch,
                                                     name=f"enqueue_from_bucket_{i}"))
        closed = (OutOfRangeError, CancelledError)
        add_queue_runner(QueueRunner(
            bucket_queues[0], enqueues_to_top, close_op=top_queue.close(),
            cancel_op=top_queue.close(cancel_pending_enqueues=True),
            queue_closed_exception_types=closed))
        add_queue_runner(QueueRunner(
            top_queue, [maybe_enqueue] * num_threads,
            close_op=group(*[q.close() for q in bucket_queues]),
            cancel_op=group(*[q.close(cancel_pending_enqueues=True) for q in bucket_queues]),
            queue_closed_exception_types=closed))
        for queue in bucket_queues:
            # TF's summary reports the top queue's size under each bucket queue's name.
            _scalar_summary(f"bucket/{queue.name}/size",
                            math_ops.cast(top_queue.size(), D.float32))
        _scalar_summary(f"bucket/{top_queue.name}/fraction_of_{capacity}_full",
                        math_ops.cast(top_queue.size(), D.float32) * (1.0 / capacity))
        dequeued = top_queue.dequeue(name="dequeue_top")
        which_dequeued, dequeued = dequeued[0], list(dequeued[1:])
        if len(dequeued) == 1:
            dequeued = dequeued[0]
        dequeued = sparse_map_ops.restore_sparse_tensors(dequeued, sparse_info)
        return which_dequeued, _as_original_type(tensors, dequeued)


def _enqueue_into(queue: Any, tensor_list: List[Any]) -> Any:
    return lambda: queue.enqueue(tensor_list)


def bucket_by_sequence_length(input_length: Any, tensors: Any, batch_size: Any,
                              bucket_boundaries: Sequence[int], num_threads: int = 1,
                              capacity: int = 32,
                              bucket_capacities: Optional[Sequence[int]] = None,
                              shapes: Any = None, dynamic_pad: bool = False,
                              allow_smaller_final_batch: bool = False, keep_input: Any = True,
                              shared_name: Optional[str] = None,
                              name: Optional[str] = None) -> Tuple[Any, Any]:
    """`bucket` with the bucket chosen by `input_length` against `bucket_boundaries`
    (bucket i holds lengths in [boundary[i-1], boundary[i])); returns
    `(batched lengths, batched tensors)`."""
    tensor_list = _as_tensor_list(tensors)
    if not isinstance(bucket_boundaries, (list, tuple)):
        raise TypeError("bucket_boundaries must be a list or tuple, but received: "
                        f"{bucket_boundaries}")
    if not bucket_boundaries:
        raise ValueError("bucket_boundaries must not be empty")
    for s, e in zip(bucket_boundaries[:-1], bucket_boundaries[1:]):
        if not isinstance(s, int) or not isinstance(e, int):
            raise TypeError(f"bucket boundaries must be integers, but saw: {s} and {e}")
        if s >= e:
            raise ValueError("Buckets must contain sequential increasing lengths, but saw: "
                             f"{s} before {e}")
    with name_scope(name, "bucket_by_sequence_length", [input_length] + list(tensor_list)):
        input_length = convert_to_tensor(input_length, dtype=D.int32, name="input_length")
        buckets_min = [int(np.iinfo(np.int32).min)] + list(bucket_boundaries)
        buckets_max = list(bucket_boundaries) + [int(np.iinfo(np.int32).max)]
        conditions = math_ops.logical_and(math_ops.less_equal(buckets_min, input_length),
                                          math_ops.less(input_length, buckets_max))
        which = math_ops.cast(reduce_min(where_v2(conditions)), D.int32)
        if shapes is not None:
            shapes = [TensorShape([])] + list(shapes)
        _, dequeued = bucket(
            tensors=[input_length] + list(tensor_list), which_bucket=which,
            batch_size=batch_size, num_buckets=len(bucket_boundaries) + 1,
            num_threads=num_threads, capacity=capacity, bucket_capacities=bucket_capacities,
            shapes=shapes, dynamic_pad=dynamic_pad,
            allow_smaller_final_batch=allow_smaller_final_batch, keep_input=keep_input,
            shared_name=shared_name)
        return dequeued[0], _as_original_type(tensors, dequeued[1:])
