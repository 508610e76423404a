"""`slim.data.prefetch_queue`: a queue that prefetches batches built on other threads.

    images, labels = tf.train.batch([image, label], batch_size=32, num_threads=4)
    batch_queue = slim.prefetch_queue.prefetch_queue([images, labels], capacity=2)
    images, labels = batch_queue.dequeue()

`num_threads` queue-runner threads enqueue `tensors` (a list, or a dict whose keys name
the queue's components) into a FIFOQueue (PaddingFIFOQueue with `dynamic_pad`); a
`fraction_of_<capacity>_full` summary watches it.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.ops.math_ops import cast
from tf1compat.ops.queue_ops import FIFOQueue, PaddingFIFOQueue
from tf1compat.summary.summary_ops import scalar
from tf1compat.training.queue_runner import QueueRunner, add_queue_runner

__all__ = ["prefetch_queue"]


def prefetch_queue(tensors: Any, capacity: int = 8, num_threads: int = 1,
                   dynamic_pad: bool = False, shared_name: Optional[str] = None,
                   name: Optional[str] = None) -> Any:
    """The queue (see the module docstring); dequeue from it to get the tensors back."""
    if isinstance(tensors, dict):
        names: Any = sorted(tensors.keys())
        tensor_list = [tensors[n] for n in names]
    else:
        names = None
        tensor_list = tensors
    with name_scope(name, "prefetch_queue", tensor_list):
        queue_class = PaddingFIFOQueue if dynamic_pad else FIFOQueue
        queue = queue_class(capacity=capacity, dtypes=[t.dtype for t in tensor_list],
                            shapes=[t.get_shape() for t in tensor_list], names=names,
                            shared_name=shared_name)
        enqueue_op = queue.enqueue(tensors)
        add_queue_runner(QueueRunner(queue, [enqueue_op] * num_threads))
        scalar("fraction_of_%d_full" % capacity,
               cast(queue.size(), _dtypes.float32) * (1. / capacity))
        return queue
