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

torch's intra-op (OpenMP) worker threads run parts of the same kernels. A thread starts
with its creator's modes (C11's floating-point environment is inherited), so a worker
that libgomp creates during a run flushes; one created outside runs (the program's own
torch code, torch's start-up) does not, and workers stay in the calling thread's team
(libgomp keeps them for its later regions) until a smaller team releases them. So a
thread's first multi-threaded run, and any run at a thread count other than the one its
workers were last flushed at (a team of another size can have been made in between),
switches the workers' modes on with one parallel region (`_flush_in_workers`): natively
(libm's `fesetmode` as the region's body, a few microseconds) where the C library has it,
else with a body that enters Python on every worker (tens of microseconds). Runs at the
same count cost one comparison: the modes stay on in those workers, which serve torch
kernels only. (A count set during a run, the thread tuner's or a large product's, adds
workers made in the run, which inherit its modes.) The per-run region this replaces
cost 20-85 us a run and, measured side by side, did not make the CNN step faster
(docs/performance.md, seventeenth session). Not covered: the program's own torch code
between two runs at the same count that shrinks the team and grows it again (a new
worker keeps IEEE denormals until the count changes). Where torch's OpenMP runtime is
not libgomp (none loaded), the workers keep IEEE denormals.
"""

from __future__ import annotations

import ctypes
import glob
import os
import threading
from typing import Any, Optional, Tuple

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
    if threads > 1 and threads != getattr(_THIS_THREAD, "team", 0):
        _flush_in_workers(threads)
    return True


def leave() -> None:
    """Restores IEEE denormals on this thread after a run that `enter()` switched."""
    _set_flush(False)


# -- OpenMP workers --------------------------------------------------------------------------

# `team`: the thread count at which the calling thread's OpenMP workers were last flushed
# (0: never). libgomp gives every region of the same calling thread the same pool threads
# (a larger team adds threads, a smaller one releases those beyond it), so the team a run
# at that count uses holds flushed workers, and workers a run adds inherit its modes.
_THIS_THREAD = threading.local()
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


_REGION_TYPE = ctypes.CFUNCTYPE(None, ctypes.c_void_p)


def _native_region() -> Optional[Tuple[Any, Any]]:
    """(body, fegetmode) for a region that gives each thread of the team the calling
    thread's control modes (flushing on) with libm's `fesetmode` (C2x, glibc >= 2.25): no
    Python on the workers, and each keeps its own exception flags. None where libm lacks
    the pair."""
    for name in (None, "libm.so.6"):         # None: the process's own symbols (Python's libm)
        try:
            libm = ctypes.CDLL(name)
            get_mode, set_mode = libm.fegetmode, libm.fesetmode
            break
        except (OSError, AttributeError):
            continue
    else:
        return None
    return _REGION_TYPE(ctypes.cast(set_mode, ctypes.c_void_p).value), get_mode


_GOMP_PARALLEL = _gomp_parallel()
_NATIVE = _native_region() if _SUPPORTED and _GOMP_PARALLEL is not None else None
_PYTHON_REGION = _REGION_TYPE(lambda _data: _set_flush(True))


def _flush_in_workers(threads: int) -> None:
    """Runs one OpenMP parallel region of `threads` threads whose body switches flushing
    on in each thread of the calling thread's team (the caller's own is on already)."""
    _THIS_THREAD.team = threads
    if _GOMP_PARALLEL is None or _CPUS < 2:
        return
    if _NATIVE is not None:
        body, get_mode = _NATIVE
        modes = ctypes.create_string_buffer(64)      # a femode_t (8 bytes on x86-64)
        if get_mode(modes) == 0:
            _GOMP_PARALLEL(body, modes, ctypes.c_uint(threads), ctypes.c_uint(0))
            return
    _GOMP_PARALLEL(_PYTHON_REGION, None, ctypes.c_uint(threads), ctypes.c_uint(0))
