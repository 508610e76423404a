"""Two independent kernels at once, each on half the calling thread's OpenMP threads.

TF's executor runs the ops of a step whose inputs are ready at the same time, on its
inter-op pool: a convolution's input and filter gradients, for one, run side by side,
each on its share of the cores (the CNN benchmark's trace at two threads shows TF's two
conv2 gradients overlapping; docs/performance.md, cnn11). tf1compat runs a plan's kernels
one after the other on the calling thread, each on every OpenMP thread; a kernel on two
threads then waits at every barrier for a thread that another process may have taken, and
two one-thread kernels side by side do not. `run_pair(first, second)` runs `first` on a
helper thread and `second` on the calling thread, each at half the calling thread's count
(torch's count is per thread: libgomp's `omp_set_num_threads` on each), and restores the
calling thread's count after. The caller decides whether a split computes what one call
does (ops/nn_conv_bias.py probes each geometry once: oneDNN's filter gradient can split
its batch sum between threads, and its last bits then follow the count).

`TF1COMPAT_PAIRED_KERNELS=1` turns pairing on (off by default until an idle A/B shows
the CNN step faster with it). The pair runs in turn, on the calling thread, where it could
not be the same work: a count of one; a helper already busy (another Python thread's
pair); while torch traces (a dispatch mode such as FakeTensorMode, functorch transforms:
they are thread-local, the helper would not see them); no libgomp in the process. The helper keeps the calling
thread's grad mode and, when the calling thread flushes denormals, flushes them too
(runtime/denormals.py), so its kernel runs under the same modes.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import queue
import threading
from typing import Any, Callable, Iterator, Optional, Tuple

import torch
from torch.utils._python_dispatch import _get_current_dispatch_mode

from tf1compat.runtime import denormals

__all__ = ["pairing", "run_pair", "split", "threads"]


def _omp() -> Optional[Tuple[Any, Any]]:
    """(omp_set_num_threads, omp_get_max_threads) of the loaded libgomp, else None."""
    path = denormals._loaded_libgomp()
    if path is None:
        return None
    try:
        lib = ctypes.CDLL(path)
        return lib.omp_set_num_threads, lib.omp_get_max_threads
    except (OSError, AttributeError):
        return None


_OMP = _omp()
# Off unless TF1COMPAT_PAIRED_KERNELS=1: no A/B on this session's loaded machine showed the
# pair faster in a whole step (docs/performance.md, cnn11); an idle one is to decide.
_ENABLED = os.environ.get("TF1COMPAT_PAIRED_KERNELS", "0") not in ("", "0", "off")


class _Helper:
    """One daemon thread that runs the first kernel of each pair."""

    def __init__(self) -> None:
        self.jobs: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.done: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self.busy = threading.Lock()
        threading.Thread(target=self._serve, name="tf1compat-paired-kernels",
                         daemon=True).start()

    def _serve(self) -> None:
        set_threads, get_threads = _OMP  # type: ignore[misc]
        # torch sets a thread's OpenMP count to its process-wide one on the thread's first
        # query or parallel kernel (lazy_init_num_threads): that first, ours after.
        torch.get_num_threads()
        while True:
            fn, threads, grad, flush = self.jobs.get()
            try:
                if get_threads() != threads:
                    set_threads(threads)
                switched = denormals.enter() if flush else False
                try:
                    with torch.set_grad_enabled(grad):
                        self.done.put((fn(), None))
                finally:
                    if switched:
                        denormals.leave()
            except BaseException as error:  # noqa: BLE001 - re-raised on the caller
                self.done.put((None, error))


_HELPER: Optional[_Helper] = None
_HELPER_PID = 0
_MAKING = threading.Lock()


def _helper() -> _Helper:
    global _HELPER, _HELPER_PID
    with _MAKING:
        if _HELPER is None or _HELPER_PID != os.getpid():     # none yet, or forked since
            _HELPER, _HELPER_PID = _Helper(), os.getpid()
        return _HELPER


def pairing(*tensors: torch.Tensor) -> bool:
    """Whether `run_pair` would run two kernels over `tensors` at once on this thread
    now: plain CPU tensors (no tensor subclass: fake, functional and other tracing
    tensors dispatch through thread-local state), more than one thread, no tracer."""
    return (_ENABLED and _OMP is not None and torch.get_num_threads() > 1
            and all(type(t) is torch.Tensor and t.device.type == "cpu" for t in tensors)
            and _get_current_dispatch_mode() is None
            and torch._C._functorch.peek_interpreter_stack() is None)


def split() -> Tuple[int, int]:
    """(the helper's count, the calling thread's) for a pair run now."""
    n = torch.get_num_threads()
    return n // 2, n - n // 2


@contextlib.contextmanager
def threads(n: int) -> Iterator[None]:
    """The calling thread's OpenMP count at `n` within the block (a probe of what a
    kernel of a pair computes at its share of the threads)."""
    set_threads, get_threads = _OMP  # type: ignore[misc]
    before = get_threads()
    set_threads(n)
    try:
        yield
    finally:
        set_threads(before)


def run_pair(first: Callable[[], Any], second: Callable[[], Any],
             *tensors: torch.Tensor) -> Tuple[Any, Any]:
    """(first(), second()): at once where `pairing(*tensors)`, else in turn. Both must be
    independent torch kernels over `tensors` (they release the GIL) that read no
    thread-local state but the grad mode and the denormal modes."""
    if not pairing(*tensors):
        return first(), second()
    helper = _helper()
    if not helper.busy.acquire(blocking=False):
        return first(), second()
    theirs_n, mine_n = split()
    try:
        helper.jobs.put((first, theirs_n, torch.is_grad_enabled(), denormals.flushing()))
        try:
            with threads(mine_n):
                mine = second()
        finally:
            theirs, error = helper.done.get()
    finally:
        helper.busy.release()
    if error is not None:
        raise error
    return theirs, mine
