"""Eigen's ThreadPoolDevice cost model and TF's intra-op thread count: how TF's CPU kernels
decide how many threads (and which blocks) a job is split over. Kernels whose results
depend on that split (the Multinomial streams) use it to land on TF's bits."""

from __future__ import annotations

import os
from typing import Any, List, Tuple

__all__ = ["STARTUP_CYCLES", "PER_THREAD_CYCLES", "TASK_SIZE", "eigen_threads",
           "parallel_for_block_size", "parallel_for_ranges", "default_intra_op_threads",
           "intra_op_threads"]

STARTUP_CYCLES = 100000      # Eigen's TensorCostModel kStartupCycles
PER_THREAD_CYCLES = 100000   # ... kPerThreadCycles
TASK_SIZE = 40000            # ... kTaskSize


def eigen_threads(n: int, cost: float, max_threads: int) -> int:
    """TensorCostModel::numThreads: threads for `n` coefficients of `cost` cycles each."""
    threads = (n * cost - STARTUP_CYCLES) / PER_THREAD_CYCLES + 0.9
    return min(max_threads, max(1, int(min(threads, 2**31 - 1))))


def parallel_for_block_size(n: int, cost: float, max_threads: int) -> int:
    """Eigen's CalculateParallelForBlock (no block alignment): blocks oversharded 4x
    over the threads, or of one task's cost (TASK_SIZE cycles), coarsened while that
    keeps the threads as busy."""
    block_size_f = TASK_SIZE / cost if cost else float("inf")
    size = min(n, max(-(-n // (4 * max_threads)), int(min(block_size_f, 2**62))))
    max_size = min(n, 2 * size)
    count = -(-n // size)
    best = count / (-(-count // max_threads) * max_threads)
    previous = count
    while best < 1.0 and previous > 1:
        coarser = -(-n // (previous - 1))
        if coarser > max_size:
            break
        coarser_count = -(-n // coarser)
        previous = coarser_count
        efficiency = coarser_count / (-(-coarser_count // max_threads) * max_threads)
        if efficiency + 0.01 >= best:
            size, count = coarser, coarser_count
            best = max(best, efficiency)
    return size


def parallel_for_ranges(n: int, cost: float, max_threads: int) -> List[Tuple[int, int]]:
    """The [first, last) ranges ThreadPoolDevice::parallelFor(n, cost, f) calls f with
    (no block alignment): one call where the cost model gives one thread, else blocks of
    `parallel_for_block_size`."""
    if n <= 1 or max_threads <= 1 or eigen_threads(n, cost, max_threads) == 1:
        return [(0, n)]
    size = parallel_for_block_size(n, cost, max_threads)
    return [(first, min(n, first + size)) for first in range(0, n, size)]


def default_intra_op_threads() -> int:
    """TF's default intra-op thread count: the CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - non-Linux
        return os.cpu_count() or 1


def intra_op_threads(kctx: Any) -> int:
    """The intra-op thread count TF's CPU kernels split work over.

    TF takes it from the ConfigProto of the process's first session (default: the CPUs
    this process may use); here the running session's config, else the CPU count.
    """
    config = getattr(getattr(kctx.runtime, "session", None), "_config", None)
    threads = int(getattr(config, "intra_op_parallelism_threads", 0) or 0)
    return threads if threads > 0 else default_intra_op_threads()
