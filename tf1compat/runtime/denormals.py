"""Denormal floats flushed to zero while kernels run, as in TF.

TF runs every kernel with the CPU's flush-to-zero and denormals-are-zero modes on
(`port::ScopedFlushDenormal` around each op in its executor, graph and eager alike): a
float32 product below 2**-126 comes out as 0, and a denormal input counts as 0
(`1e-38 * 0.01` is 0.0 in a TF session). The modes are per thread and TF scopes them to
its kernels, so the user's own numpy code, between runs, keeps IEEE denormals.

tf1compat runs kernels on the calling thread, so `enter()`/`leave()` switch the modes on
around a run (Session.run, a defun's call, an eager op) and restore the thread's previous
state after it. Besides TF's values this keeps TF's speed: without it, Adam's first
moment of a unit whose gradient became zero decays into the denormal range after some
hundreds of steps (0.9**800 ~ 1e-37), and every update of it then costs about ten times
as much (the benchmark MLP's fused Adam: 0.19 ms a step early, 2 ms after 800 steps).

torch's intra-op (OpenMP) worker threads run parts of the same kernels. A multi-threaded
run switches their modes on with one parallel region that enters Python on every worker
(`_flush_in_workers`, tens of microseconds; they stay on: those workers serve torch
kernels only); one-thread runs need none. Where torch's OpenMP runtime is not libgomp
(none loaded), the workers keep IEEE denormals.
"""

from __future__ import annotations

import ctypes
import glob
import os
from typing import Any, Optional

import torch

__all__ = ["enter", "leave", "flushing"]

# A denormal double: Python's float product runs on the same CPU modes as torch's kernels
# (one MXCSR for float and double), and `_DENORMAL * _ONE` is 0 when either mode is on.
_DENORMAL = 5e-324
_ONE = 1.0


def flushing() -> bool:
    """Whether the calling thread flushes denormals now."""
    return _DENORMAL * _ONE == 0.0


def _supported() -> bool:
    if flushing():
        return True
    if not torch.set_flush_denormal(True):
        return False
    torch.set_flush_denormal(False)
    return True


_SUPPORTED = _supported()
_set_flush = torch.set_flush_denormal
_get_num_threads = torch.get_num_threads


def enter() -> bool:
    """Switches flushing on for a run on this thread; True when it was off (then call
    `leave()` after the run)."""
    if not _SUPPORTED or _DENORMAL * _ONE == 0.0:
        return False
    _set_flush(True)
    threads = _get_num_threads()
    if threads > 1:
        # Every multi-threaded run: libgomp can bring a worker into the calling thread's
        # team after an earlier region flushed the others (seen in the full test suite:
        # one of three workers kept IEEE denormals), so a once-per-thread region is not
        # enough. The region costs tens of microseconds; one-thread runs skip it.
        _flush_in_workers(max(threads, _CPUS + 1))
    return True


def leave() -> None:
    """Restores IEEE denormals on this thread after a run that `enter()` switched."""
    _set_flush(False)


# -- OpenMP workers --------------------------------------------------------------------------

# A region of more threads than any count tf1compat picks covers the team a run uses
# (libgomp keeps a team's threads for later regions of the same calling thread; a smaller
# team uses the first of them): the thread policy's products and tuned plans use up to
# one more than the processors (`_thread_policy`).
_CPUS = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else \
    (os.cpu_count() or 1)


def _loaded_libgomp() -> Optional[str]:
    """The libgomp this process has loaded (torch's own copy), else None."""
    try:
        with open("/proc/self/maps") as maps:
            for line in maps:
                path = line.rsplit(None, 1)[-1]
                if "libgomp" in os.path.basename(path):
                    return path
    except OSError:
        pass
    found = sorted(glob.glob(os.path.join(os.path.dirname(torch.__file__), "lib",
                                          "libgomp*.so*")))
    return found[0] if found else None


def _gomp_parallel() -> Optional[Any]:
    path = _loaded_libgomp()
    if path is None:
        return None
    try:
        return ctypes.CDLL(path).GOMP_parallel   # CDLL releases the GIL during the call
    except (OSError, AttributeError):
        return None


_GOMP_PARALLEL = _gomp_parallel()
_REGION = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(lambda _data: _set_flush(True))


def _flush_in_workers(threads: int) -> None:
    """Runs one OpenMP parallel region of `threads` threads whose body switches flushing
    on in each thread of the calling thread's team."""
    if _GOMP_PARALLEL is not None and _CPUS > 1:
        _GOMP_PARALLEL(_REGION, None, ctypes.c_uint(threads), ctypes.c_uint(0))
