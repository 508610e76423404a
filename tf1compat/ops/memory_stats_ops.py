"""`BytesInUse`, `BytesLimit`, `MaxBytesInUse`: TF 1.15's contrib memory-statistics ops,
int64 scalars read from the allocator of the device the op runs on, at the moment it
runs (stateful: never folded or shared between runs).

On the CPU they are 0, as TF's: its CPU allocator keeps no statistics unless TF's
internal `EnableCPUAllocatorStats` was called, and a missing statistic reads as 0. On
CUDA they are torch's caching allocator's: memory_allocated, the device's total memory
(TF's limit is the memory its allocator may use), and max_memory_allocated.
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["bytes_in_use", "bytes_limit", "max_bytes_in_use"]


def _scalar_shape(ctx: Any) -> List[TensorShape]:
    return [TensorShape([])]


def _cuda_limit(device: torch.device) -> int:
    return int(torch.cuda.get_device_properties(device).total_memory)


_CUDA_STATS = {"BytesInUse": torch.cuda.memory_allocated, "BytesLimit": _cuda_limit,
               "MaxBytesInUse": torch.cuda.max_memory_allocated}


def _stats_kernel(node: Any, kctx: Any) -> Callable[[], torch.Tensor]:
    device = kctx.device
    read = _CUDA_STATS[node.type] if device.type == "cuda" else (lambda _: 0)

    def memory_stats_op() -> torch.Tensor:
        return torch.tensor(read(device), dtype=torch.int64, device=device)
    return memory_stats_op


for _type in _CUDA_STATS:
    declare(_type, outputs=["out: int64"], shape=_scalar_shape, kernel=_stats_kernel,
            grad="none", stateful=True)


def bytes_in_use(name: Any = None) -> Tensor:
    """The bytes the device's allocator holds for tensors now."""
    return apply_op("BytesInUse", [], name=name).outputs[0]


def bytes_limit(name: Any = None) -> Tensor:
    """The bytes the device's allocator may use."""
    return apply_op("BytesLimit", [], name=name).outputs[0]


def max_bytes_in_use(name: Any = None) -> Tensor:
    """The most bytes the device's allocator has held so far."""
    return apply_op("MaxBytesInUse", [], name=name).outputs[0]
