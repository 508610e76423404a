"""`tf.queue`."""

# ruff: noqa: F401
from tf1compat.ops.queue_ops import (FIFOQueue, PaddingFIFOQueue, PriorityQueue, QueueBase,
                                     RandomShuffleQueue)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('queue', globals())
