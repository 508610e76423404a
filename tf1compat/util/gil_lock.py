"""`GilLock`: a mutex for Python threads that never owns itself on behalf of a thread
waiting for the interpreter lock, so threads that share it do not fall into a lock
convoy.

Why: queue-runner threads (readers, `shuffle_batch` threads, feeders) run Python and share
a few short critical sections (a reader's `read`, a queue's state). With a plain
`threading.Lock`, a thread that finds the lock held blocks on it with the interpreter lock
(GIL) released; when the holder releases it, the kernel hands the lock to the sleeper,
which then owns it while it waits for the GIL. The former holder, a few microseconds later
at its next `read`, finds the lock taken, blocks in turn, and gives the GIL away: from then
on every acquisition costs two thread switches (a convoy). On a busy machine the sleeper
is rarely woken in time and the holder takes the lock back first, so the convoy breaks up;
on a machine with an idle core it lasts (docs/performance.md, "Queue pipelines and
numpy_input_fn with a core to spare": what was measured).

A `GilLock` is only ever taken by a thread that holds the GIL (a non-blocking try). A
thread that finds it held sleeps briefly and tries again, backing off, so the holder,
which usually only needs the GIL to finish its critical section, gets to run; after about
3 ms (the holder is blocked: reading a file, waiting on a queue) it waits in the
kernel as a plain lock does.
"""

from __future__ import annotations

import _thread
import time
from typing import Any

__all__ = ["GilLock"]

# Sleeps between tries while the lock is held (seconds): the first only yields the GIL;
# about 3 ms in all before waiting in the kernel.
_BACKOFF = (0.0, 2e-5, 5e-5, 1e-4, 2e-4, 4e-4, 8e-4, 1.6e-3)


class GilLock:
    """A non-reentrant mutex with `threading.Lock`'s interface (`acquire`, `release`,
    `locked`, the context manager) that a thread takes only while it holds the GIL."""

    __slots__ = ("_lock",)

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        """Takes the lock; False when not `blocking` (or after `timeout` seconds) while
        another thread holds it."""
        if not blocking and timeout != -1:
            raise ValueError("can't specify a timeout for a non-blocking call")
        if self._lock.acquire(False):
            return True
        if not blocking:
            return False
        return self._contended(timeout)

    def _contended(self, timeout: float) -> bool:
        lock = self._lock
        deadline = None if timeout is None or timeout < 0 else time.monotonic() + timeout
        for pause in _BACKOFF:
            time.sleep(pause)
            if lock.acquire(False):
                return True
            if deadline is not None and time.monotonic() >= deadline:
                return False
        if deadline is None:
            return lock.acquire()
        return lock.acquire(True, max(0.0, deadline - time.monotonic()))

    def release(self) -> None:
        """Releases the lock (RuntimeError when it is not held)."""
        self._lock.release()

    def locked(self) -> bool:
        """Whether some thread holds the lock."""
        return self._lock.locked()

    def __enter__(self) -> bool:
        if self._lock.acquire(False):
            return True
        return self._contended(-1)

    def __exit__(self, *exc: Any) -> None:
        self._lock.release()
