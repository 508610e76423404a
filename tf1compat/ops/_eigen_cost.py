"""Eigen's ThreadPoolDevice cost model and TF's intra-op thread count: how TF's CPU kernels
decide how many threads (and which blocks) a job is split over. Kernels whose results
depend on that split (the Multinomial streams) use it to land on TF's bits."""

from __future__ import annotations

import os
from typing import Any

__all__ = ["STARTUP_CYCLES", "PER_THREAD_CYCLES", "TASK_SIZE", "eigen_threads",
           "default_intra_op_threads", "intra_op_threads"]

STARTUP_CYCLES = 100000      # Eigen's TensorCostModel kStartupCycles
PER_THREAD_CYCLES = 100000   # ... kPerThreadCycles
TASK_SIZE = 40000            # ... kTaskSize


def eigen_threads(n: int, cost: float, max_threads: int) -> int:
    """TensorCostModel::numThreads: threads for `n` coefficients of `cost` cycles each."""
    threads = (n * cost - STARTUP_CYCLES) / PER_THREAD_CYCLES + 0.9
    return min(max_threads, max(1, int(min(threads, 2**31 - 1))))


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
