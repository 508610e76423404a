"""`tf.contrib.memory_stats` (TF 1.15): ops that read the device allocator's statistics
when they run (ops/memory_stats_ops.py: 0 on the CPU as in TF, torch's CUDA caching
allocator on a GPU)."""

from __future__ import annotations

from tf1compat.framework.tensor import Tensor
from tf1compat.ops import memory_stats_ops

__all__ = ["BytesInUse", "BytesLimit", "MaxBytesInUse"]


def BytesInUse() -> Tensor:  # noqa: N802 - TF's name
    """An op that gives the current memory (bytes) in use on its device."""
    return memory_stats_ops.bytes_in_use()


def BytesLimit() -> Tensor:  # noqa: N802 - TF's name
    """An op that gives the total memory (bytes) of its device's allocator."""
    return memory_stats_ops.bytes_limit()


def MaxBytesInUse() -> Tensor:  # noqa: N802 - TF's name
    """An op that gives the peak memory (bytes) in use on its device."""
    return memory_stats_ops.max_bytes_in_use()
