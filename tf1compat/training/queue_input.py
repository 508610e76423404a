"""Queue-based input pipelines (TF's `training/input.py`): producers and batching.

* Producers (`string_input_producer`, `input_producer`, `range_input_producer`,
  `slice_input_producer`) fill a FIFOQueue with the (shuffled) input, epoch after epoch;
  `num_epochs` counts epochs in a local variable `epochs` (`limit_epochs`: a CountUpTo
  whose OutOfRangeError ends the producer's QueueRunner, which then closes the queue).
* Batching (`batch`, `shuffle_batch`, their `_join` and `maybe_` forms) enqueues the
  given tensors into a FIFOQueue (PaddingFIFOQueue with `dynamic_pad`, RandomShuffleQueue
  for shuffle_batch) from `num_threads` QueueRunner threads and returns its
  `dequeue_many(batch_size)` (`dequeue_up_to` with `allow_smaller_final_batch`).
  SparseTensors travel through the queue as int64 handles into a per-session map
  (AddSparseToTensorsMap / TakeManySparseFromTensorsMap, ops/sparse_map_ops.py).

Graphs are TF's: the same ops, names and name scopes, the `fraction_of_N_full`
summaries, the QUEUE_RUNNERS collection.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

from tf1compat.framework import context
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import GraphKeys, control_dependencies, name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops import array_ops, creation_ops, math_ops, queue_ops
from tf1compat.ops.indexing_ops import gather
from tf1compat.training.queue_runner import QueueRunner, add_queue_runner

__all__ = ["limit_epochs", "input_producer", "string_input_producer",
           "range_input_producer", "slice_input_producer", "batch", "maybe_batch",
           "batch_join", "maybe_batch_join", "shuffle_batch", "maybe_shuffle_batch",
           "shuffle_batch_join", "maybe_shuffle_batch_join"]

_EAGER_MESSAGE = ("Input pipelines based on Queues are not supported when eager execution is "
                  "enabled. Please use tf.data to ingest data into your model instead.")


def _scalar_summary(name: str, value: Tensor) -> None:
    from tf1compat.summary.summary_ops import scalar
    scalar(name, value)


# -- producers -------------------------------------------------------------------------------

def limit_epochs(tensor: Any, num_epochs: Optional[int] = None,
                 name: Optional[str] = None) -> Tensor:
    """`tensor`, readable `num_epochs` times: then OutOfRangeError (None: forever)."""
    from tf1compat.variables.variables import Variable
    if num_epochs is None:
        return tensor
    if num_epochs <= 0:
        raise ValueError(f"num_epochs must be > 0 not {num_epochs}.")
    with name_scope(name, "limit_epochs", [tensor]) as name:
        zero64 = constant(0, dtype=D.int64)
        epochs = Variable(zero64, name="epochs", trainable=False,
                          collections=[GraphKeys.LOCAL_VARIABLES])
        counter = epochs.count_up_to(num_epochs)
        with control_dependencies([counter]):
            return array_ops.identity(tensor, name=name)


def input_producer(input_tensor: Any, element_shape: Any = None,
                   num_epochs: Optional[int] = None, shuffle: bool = True,
                   seed: Optional[int] = None, capacity: int = 32,
                   shared_name: Optional[str] = None, summary_name: Optional[str] = None,
                   name: Optional[str] = None, cancel_op: Any = None) -> queue_ops.QueueBase:
    """A FIFOQueue fed with the rows of `input_tensor`, `num_epochs` times (shuffled each
    epoch with `shuffle`) by a QueueRunner."""
    from tf1compat.ops.random_ops import random_shuffle
    if context.executing_eagerly():
        raise RuntimeError(_EAGER_MESSAGE)
    with name_scope(name, "input_producer", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        element_shape = input_tensor.shape[1:].merge_with(
            TensorShape(None) if element_shape is None else as_shape(element_shape))
        if not element_shape.is_fully_defined():
            raise ValueError("Either `input_tensor` must have a fully defined shape or "
                             "`element_shape` must be specified")
        if shuffle:
            input_tensor = random_shuffle(input_tensor, seed=seed)
        input_tensor = limit_epochs(input_tensor, num_epochs)
        q = queue_ops.FIFOQueue(capacity=capacity, dtypes=[input_tensor.dtype.base_dtype],
                                shapes=[element_shape], shared_name=shared_name, name=name)
        enq = q.enqueue_many([input_tensor])
        add_queue_runner(QueueRunner(q, [enq], cancel_op=cancel_op))
        if summary_name is not None:
            _scalar_summary(summary_name,
                            math_ops.cast(q.size(), D.float32) * (1.0 / capacity))
        return q


def string_input_producer(string_tensor: Any, num_epochs: Optional[int] = None,
                          shuffle: bool = True, seed: Optional[int] = None,
                          capacity: int = 32, shared_name: Optional[str] = None,
                          name: Optional[str] = None,
                          cancel_op: Any = None) -> queue_ops.QueueBase:
    """A queue of strings (file names, typically) for readers, `num_epochs` times over."""
    from tf1compat.ops.logging_ops import Assert
    not_null_err = "string_input_producer requires a non-null input tensor"
    if not isinstance(string_tensor, Tensor) and not _has_items(string_tensor):
        raise ValueError(not_null_err)
    with name_scope(name, "input_producer", [string_tensor]) as name:
        string_tensor = convert_to_tensor(string_tensor, dtype=D.string)
        with control_dependencies([Assert(math_ops.greater(array_ops.size(string_tensor), 0),
                                          [not_null_err])]):
            string_tensor = array_ops.identity(string_tensor)
        return input_producer(input_tensor=string_tensor, element_shape=[],
                              num_epochs=num_epochs, shuffle=shuffle, seed=seed,
                              capacity=capacity, shared_name=shared_name, name=name,
                              summary_name=f"fraction_of_{capacity}_full",
                              cancel_op=cancel_op)


def _has_items(value: Any) -> bool:
    try:
        return len(value) > 0
    except TypeError:
        return bool(value)


def range_input_producer(limit: Any, num_epochs: Optional[int] = None, shuffle: bool = True,
                         seed: Optional[int] = None, capacity: int = 32,
                         shared_name: Optional[str] = None,
                         name: Optional[str] = None) -> queue_ops.QueueBase:
    """A queue of the integers 0 .. limit - 1, `num_epochs` times over."""
    with name_scope(name, "input_producer", [limit]) as name:
        range_tensor = creation_ops.range(limit)
        return input_producer(range_tensor, [], num_epochs, shuffle, seed, capacity,
                              shared_name, f"fraction_of_{capacity}_full", name)


def slice_input_producer(tensor_list: Sequence[Any], num_epochs: Optional[int] = None,
                         shuffle: bool = True, seed: Optional[int] = None,
                         capacity: int = 32, shared_name: Optional[str] = None,
                         name: Optional[str] = None) -> List[Tensor]:
    """One row of each tensor in `tensor_list` at a time (the same row of each)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor_or_indexed_slices
    with name_scope(name, "input_producer", list(tensor_list)):
        tensor_list = [convert_to_tensor_or_indexed_slices(t) for t in tensor_list]
        if not tensor_list:
            raise ValueError("Expected at least one tensor in slice_input_producer().")
        range_size = array_ops.shape(tensor_list[0])[0]
        queue = range_input_producer(range_size, num_epochs=num_epochs, shuffle=shuffle,
                                     seed=seed, capacity=capacity, shared_name=shared_name)
        index = queue.dequeue()
        return [gather(t, index) for t in tensor_list]


# -- batching: the tensors' structure --------------------------------------------------------------

def _as_tensor_list(tensors: Any) -> List[Any]:
    if isinstance(tensors, dict):
        return [tensors[k] for k in sorted(tensors, key=str)]
    return tensors


def _as_tensor_list_list(tensors_list: Sequence[Any]) -> List[List[Any]]:
    if not tensors_list:
        raise ValueError("Expected at least one set of tensors")
    if isinstance(tensors_list[0], dict):
        expected = set(tensors_list[0].keys())
        for tensors in tensors_list[1:]:
            if set(tensors.keys()) != expected:
                raise ValueError("All dictionaries in tensors_list must have the same keys")
        return [_as_tensor_list(tensors) for tensors in tensors_list]
    return tensors_list


def _as_original_type(original: Any, tensor_list: Any) -> Any:
    if isinstance(original, dict):
        if len(original) == 1:
            # A single tensor comes back alone from dequeue_many: wrap it again.
            tensor_list = [tensor_list]
        return {k: tensor_list[i] for i, k in enumerate(sorted(original, key=str))}
    return tensor_list


def _validate(tensor_list: Sequence[Any], what: str = "batch()") -> List[Any]:
    from tf1compat.framework.tensor_conversion import convert_to_tensor_or_indexed_slices
    tensor_list = [convert_to_tensor_or_indexed_slices(t) if not isinstance(t, SparseTensor)
                   else t for t in tensor_list]
    if not tensor_list:
        raise ValueError(f"Expected at least one tensor in {what}.")
    return tensor_list


def _validate_keep_input(keep_input: Any, enqueue_many: bool) -> Tensor:
    keep_input = convert_to_tensor(keep_input)
    if keep_input.shape.ndims is None:
        raise ValueError("`keep_input` dimensions must be known at graph construction.")
    if not enqueue_many and keep_input.shape.ndims == 1:
        raise ValueError("`keep_input` cannot be a vector when `enqueue_many=False`.")
    if keep_input.shape.ndims > 1:
        raise ValueError("`keep_input` must be 0 or 1 dimensions.")
    return keep_input


def _dtypes(tensor_list_list: Sequence[Sequence[Tensor]]) -> List[D.DType]:
    all_types = [[t.dtype for t in tl] for tl in tensor_list_list]
    types = all_types[0]
    for other in all_types[1:]:
        if other != types:
            raise TypeError("Expected types to be consistent: "
                            f"{', '.join(x.name for x in types)} vs. "
                            f"{', '.join(x.name for x in other)}.")
    return types


def _merge_shapes(shape_list: Sequence[Any], enqueue_many: bool) -> List[Optional[int]]:
    shapes = [as_shape(s) for s in shape_list]
    if enqueue_many:
        shapes = [s.with_rank_at_least(1)[1:] for s in shapes]
    merged = shapes[0]
    for s in shapes[1:]:
        merged.merge_with(s)     # checks compatibility; TF keeps the first shape
    return merged.as_list()


def _shapes(tensor_list_list: Sequence[Sequence[Tensor]], shapes: Any,
            enqueue_many: bool) -> Any:
    if shapes is None:
        width = len(tensor_list_list[0])
        for tl in tensor_list_list:
            for i in range(width):
                if tl[i].shape.ndims is None:
                    raise ValueError(f"Cannot infer Tensor's rank: {tl[i]}")
        shapes = [_merge_shapes([tl[i].shape.as_list() for tl in tensor_list_list],
                                enqueue_many) for i in range(width)]
    return shapes


# -- batching: enqueueing ---------------------------------------------------------------------------

def _select_which_to_enqueue(tensor_list: Sequence[Tensor], keep_input: Tensor) -> List[Tensor]:
    from tf1compat.ops.nn_embedding import dynamic_partition
    select = math_ops.cast(keep_input, D.int32)
    return [dynamic_partition(x, select, num_partitions=2)[1] for x in tensor_list]


def _enqueue_ops(queue: queue_ops.QueueBase, tensor_lists: Sequence[Sequence[Tensor]],
                 enqueue_many: bool, keep_input: Tensor) -> List[Any]:
    """One enqueue op per tensor list, enqueueing only what `keep_input` keeps."""
    from tf1compat.ops.cond import smart_cond
    from tf1compat.ops.control_flow_ops import no_op
    enqueue_fn = queue.enqueue_many if enqueue_many else queue.enqueue
    if keep_input.shape.ndims == 1:
        return [enqueue_fn(_select_which_to_enqueue(tl, keep_input)) for tl in tensor_lists]
    return [smart_cond(keep_input, _bind(enqueue_fn, tl), no_op) for tl in tensor_lists]


def _bind(fn: Callable[[Any], Any], arg: Any) -> Callable[[], Any]:
    return lambda: fn(arg)


def _dequeue(queue: queue_ops.QueueBase, batch_size: Any, allow_smaller_final_batch: bool,
             name: str) -> Any:
    if allow_smaller_final_batch:
        return queue.dequeue_up_to(batch_size, name=name)
    return queue.dequeue_many(batch_size, name=name)


# -- batching: one pipeline for the four kinds --------------------------------------------------

def _batch_pipeline(tensors: Any, join: bool, default_name: str, batch_size: Any,
                    keep_input: Any, make_queue: Callable[[List[D.DType], Any], Any],
                    add_summary: Callable[[Any], None], num_threads: int = 1,
                    enqueue_many: bool = False, shapes: Any = None,
                    allow_smaller_final_batch: bool = False, name: Optional[str] = None,
                    check: Optional[Callable[[], None]] = None) -> Any:
    """What batch, batch_join, shuffle_batch and shuffle_batch_join share: `tensors` is
    one tensor list (or dict) or, with `join`, a list of them, each enqueued by its own
    thread (else `num_threads` threads run the one enqueue op)."""
    from tf1compat.ops import sparse_map_ops
    if context.executing_eagerly():
        raise ValueError(_EAGER_MESSAGE)
    lists = _as_tensor_list_list(tensors) if join else [_as_tensor_list(tensors)]
    with name_scope(name, default_name,
                    [t for tl in lists for t in _flat(tl)] + [keep_input]) as name:
        if check is not None:
            check()
        lists = [_validate(tl, "batch_join()" if join else "batch()") for tl in lists]
        keep_input = _validate_keep_input(keep_input, enqueue_many)
        if join:
            lists, sparse_info = sparse_map_ops.store_sparse_tensors_join(
                lists, enqueue_many, keep_input)
        else:
            stored, sparse_info = sparse_map_ops.store_sparse_tensors(lists[0], enqueue_many,
                                                                      keep_input)
            lists = [stored]
        queue = make_queue(_dtypes(lists), _shapes(lists, shapes, enqueue_many))
        ops = _enqueue_ops(queue, lists, enqueue_many, keep_input)
        add_queue_runner(QueueRunner(queue, ops if join else ops * num_threads))
        add_summary(queue)
        dequeued = _dequeue(queue, batch_size, allow_smaller_final_batch, name)
        dequeued = sparse_map_ops.restore_sparse_tensors(dequeued, sparse_info)
        return _as_original_type(tensors[0] if join else tensors, dequeued)


def _fifo_maker(capacity: int, dynamic_pad: bool,
                shared_name: Optional[str]) -> Callable[[List[D.DType], Any], Any]:
    queue_class = queue_ops.PaddingFIFOQueue if dynamic_pad else queue_ops.FIFOQueue
    return lambda types, shapes: queue_class(capacity=capacity, dtypes=types, shapes=shapes,
                                             shared_name=shared_name)


def _shuffle_maker(capacity: int, min_after_dequeue: int, seed: Optional[int],
                   shared_name: Optional[str]) -> Callable[[List[D.DType], Any], Any]:
    return lambda types, shapes: queue_ops.RandomShuffleQueue(
        capacity=capacity, min_after_dequeue=min_after_dequeue, seed=seed, dtypes=types,
        shapes=shapes, shared_name=shared_name)


def _fraction_full(capacity: int) -> Callable[[Any], None]:
    def add(queue: Any) -> None:
        _scalar_summary(f"fraction_of_{capacity}_full",
                        math_ops.cast(queue.size(), D.float32) * (1.0 / capacity))
    return add


def _fraction_over(capacity: int, min_after_dequeue: int) -> Callable[[Any], None]:
    def add(queue: Any) -> None:
        full = math_ops.cast(math_ops.maximum(0, queue.size() - min_after_dequeue),
                             D.float32) * (1.0 / (capacity - min_after_dequeue))
        _scalar_summary(f"fraction_over_{min_after_dequeue}_of_"
                        f"{capacity - min_after_dequeue}_full", full)
    return add


def _capacity_check(capacity: int, min_after_dequeue: int) -> Callable[[], None]:
    def check() -> None:
        if capacity <= min_after_dequeue:
            raise ValueError(f"capacity {capacity} must be bigger than min_after_dequeue "
                             f"{min_after_dequeue}.")
    return check


def _batch(tensors: Any, batch_size: Any, keep_input: Any, num_threads: int = 1,
           capacity: int = 32, enqueue_many: bool = False, shapes: Any = None,
           dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
           shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    return _batch_pipeline(tensors, False, "batch", batch_size, keep_input,
                           _fifo_maker(capacity, dynamic_pad, shared_name),
                           _fraction_full(capacity), num_threads, enqueue_many, shapes,
                           allow_smaller_final_batch, name)


def _batch_join(tensors_list: Sequence[Any], batch_size: Any, keep_input: Any,
                capacity: int = 32, enqueue_many: bool = False, shapes: Any = None,
                dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
                shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    return _batch_pipeline(tensors_list, True, "batch_join", batch_size, keep_input,
                           _fifo_maker(capacity, dynamic_pad, shared_name),
                           _fraction_full(capacity), 1, enqueue_many, shapes,
                           allow_smaller_final_batch, name)


def _shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int,
                   keep_input: Any, num_threads: int = 1, seed: Optional[int] = None,
                   enqueue_many: bool = False, shapes: Any = None,
                   allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
                   name: Optional[str] = None) -> Any:
    return _batch_pipeline(tensors, False, "shuffle_batch", batch_size, keep_input,
                           _shuffle_maker(capacity, min_after_dequeue, seed, shared_name),
                           _fraction_over(capacity, min_after_dequeue), num_threads,
                           enqueue_many, shapes, allow_smaller_final_batch, name,
                           check=_capacity_check(capacity, min_after_dequeue))


def _shuffle_batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int,
                        min_after_dequeue: int, keep_input: Any, seed: Optional[int] = None,
                        enqueue_many: bool = False, shapes: Any = None,
                        allow_smaller_final_batch: bool = False,
                        shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    return _batch_pipeline(tensors_list, True, "shuffle_batch_join", batch_size, keep_input,
                           _shuffle_maker(capacity, min_after_dequeue, seed, shared_name),
                           _fraction_over(capacity, min_after_dequeue), 1, enqueue_many,
                           shapes, allow_smaller_final_batch, name,
                           check=_capacity_check(capacity, min_after_dequeue))


def _flat(tensor_list: Any) -> List[Any]:
    """The values of a tensor list for a name scope (SparseTensors as their parts)."""
    out: List[Any] = []
    for t in tensor_list:
        if isinstance(t, SparseTensor):
            out.extend([t.indices, t.values, t.dense_shape])
        else:
            out.append(t)
    return out


# -- the public functions ---------------------------------------------------------------------------

def batch(tensors: Any, batch_size: Any, num_threads: int = 1, capacity: int = 32,
          enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
          allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
          name: Optional[str] = None) -> Any:
    """Batches of `batch_size` of `tensors` (a list or dict), filled by `num_threads`."""
    return _batch(tensors, batch_size, True, num_threads=num_threads, capacity=capacity,
                  enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                  allow_smaller_final_batch=allow_smaller_final_batch,
                  shared_name=shared_name, name=name)


def maybe_batch(tensors: Any, keep_input: Any, batch_size: Any, num_threads: int = 1,
                capacity: int = 32, enqueue_many: bool = False, shapes: Any = None,
                dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
                shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """`batch` of the inputs for which `keep_input` is true."""
    return _batch(tensors, batch_size, keep_input, num_threads=num_threads, capacity=capacity,
                  enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                  allow_smaller_final_batch=allow_smaller_final_batch,
                  shared_name=shared_name, name=name)


def batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int = 32,
               enqueue_many: bool = False, shapes: Any = None, dynamic_pad: bool = False,
               allow_smaller_final_batch: bool = False, shared_name: Optional[str] = None,
               name: Optional[str] = None) -> Any:
    """Batches from several tensor lists, one enqueueing thread each."""
    return _batch_join(tensors_list, batch_size, True, capacity=capacity,
                       enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                       allow_smaller_final_batch=allow_smaller_final_batch,
                       shared_name=shared_name, name=name)


def maybe_batch_join(tensors_list: Sequence[Any], keep_input: Any, batch_size: Any,
                     capacity: int = 32, enqueue_many: bool = False, shapes: Any = None,
                     dynamic_pad: bool = False, allow_smaller_final_batch: bool = False,
                     shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """`batch_join` of the inputs for which `keep_input` is true."""
    return _batch_join(tensors_list, batch_size, keep_input, capacity=capacity,
                       enqueue_many=enqueue_many, shapes=shapes, dynamic_pad=dynamic_pad,
                       allow_smaller_final_batch=allow_smaller_final_batch,
                       shared_name=shared_name, name=name)


def shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int,
                  num_threads: int = 1, seed: Optional[int] = None, enqueue_many: bool = False,
                  shapes: Any = None, allow_smaller_final_batch: bool = False,
                  shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Random batches drawn from a RandomShuffleQueue holding at least
    `min_after_dequeue` elements."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, True,
                          num_threads=num_threads, seed=seed, enqueue_many=enqueue_many,
                          shapes=shapes, allow_smaller_final_batch=allow_smaller_final_batch,
                          shared_name=shared_name, name=name)


def maybe_shuffle_batch(tensors: Any, batch_size: Any, capacity: int, min_after_dequeue: int,
                        keep_input: Any, num_threads: int = 1, seed: Optional[int] = None,
                        enqueue_many: bool = False, shapes: Any = None,
                        allow_smaller_final_batch: bool = False,
                        shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """`shuffle_batch` of the inputs for which `keep_input` is true."""
    return _shuffle_batch(tensors, batch_size, capacity, min_after_dequeue, keep_input,
                          num_threads=num_threads, seed=seed, enqueue_many=enqueue_many,
                          shapes=shapes, allow_smaller_final_batch=allow_smaller_final_batch,
                          shared_name=shared_name, name=name)


def shuffle_batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int,
                       min_after_dequeue: int, seed: Optional[int] = None,
                       enqueue_many: bool = False, shapes: Any = None,
                       allow_smaller_final_batch: bool = False,
                       shared_name: Optional[str] = None, name: Optional[str] = None) -> Any:
    """Random batches from several tensor lists, one enqueueing thread each."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue, True,
                               seed=seed, enqueue_many=enqueue_many, shapes=shapes,
                               allow_smaller_final_batch=allow_smaller_final_batch,
                               shared_name=shared_name, name=name)


def maybe_shuffle_batch_join(tensors_list: Sequence[Any], batch_size: Any, capacity: int,
                             min_after_dequeue: int, keep_input: Any,
                             seed: Optional[int] = None, enqueue_many: bool = False,
                             shapes: Any = None, allow_smaller_final_batch: bool = False,
                             shared_name: Optional[str] = None,
                             name: Optional[str] = None) -> Any:
    """`shuffle_batch_join` of the inputs for which `keep_input` is true."""
    return _shuffle_batch_join(tensors_list, batch_size, capacity, min_after_dequeue,
                               keep_input, seed=seed, enqueue_many=enqueue_many,
                               shapes=shapes,
                               allow_smaller_final_batch=allow_smaller_final_batch,
                               shared_name=shared_name, name=name)

