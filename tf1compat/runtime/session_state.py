"""What concurrent runs of one session share, and what each run has of its own.

TF lets many threads call `Session.run` on one session at once (queue runners do so by
design). The session's variables live in one `VariableStore`; this module makes that
store safe to share:

* **Per-variable update locks.** Every kernel that reads a variable and writes it back
  (AssignAdd/Sub, Scatter*, CountUpTo, the optimizers' Apply* ops, ...) holds the
  variable's lock (`store.lock(key)`, or `store.locks(keys)` for a variable and its
  slots, taken in sorted order so two ops never deadlock) around its read-modify-write,
  so no update is lost. TF takes the lock only when `use_locking=True`; without it TF
  allows lost updates, which no program relies upon, so every update here is atomic —
  one of the executions TF permits. Plain reads take no lock: a run reads a variable's
  current tensor, and stored tensors are replaced rather than mutated while any other
  run is in flight (`try_exclusive`), so what a run has read never changes under it.
  There is no lock around whole runs: runs touching different variables proceed in
  parallel (torch kernels release the GIL).
* **Per-run gradient leaves.** A run that computes gradients makes the variables it
  differentiates autograd leaves for that run only. They live in a `RunView` of the
  store belonging to the running thread (`store.view()`), never in the shared store, so
  a concurrent run neither sees another run's leaves nor loses its own. A write to a
  variable during the run drops the run's leaf, so later reads in the run see the new
  value, as TF1's ref variables do.
* **Run context.** The run's deadline (`RunOptions.timeout_in_ms`,
  `ConfigProto.operation_timeout_in_ms`) is per thread, for blocking kernels (queues).
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any, Callable, Dict, Iterable, Iterator, Optional

from tf1compat.framework import errors

__all__ = ["VariableStore", "RunView", "RunContext"]


class VariableStore(dict):
    """Variable key -> value. Reading a missing key is TF's uninitialized error.

    Besides the values it holds the per-variable update locks, the calling thread's
    gradient view (`view()`) and the count of runs in flight (`try_exclusive()`).
    """

    def __init__(self) -> None:
        super().__init__()
        self._locks: Dict[str, threading.Lock] = {}
        self._local = threading.local()
        self._runs_lock = threading.Lock()
        self._runs_in_flight = 0

    def __missing__(self, key: str) -> Any:
        err = errors.FailedPreconditionError(None, None,
                                             f"Attempting to use uninitialized value {key}")
        err._variable_key = key
        raise err

    def __setitem__(self, key: str, value: Any) -> None:
        self.updated(key)
        dict.__setitem__(self, key, value)

    def updated(self, key: str) -> None:
        """Variable `key` changed (replaced, or updated in place): the calling run's later
        reads see its new value rather than the run's gradient leaf."""
        view = getattr(self._local, "view", None)
        if view is not None:
            dict.pop(view, key, None)

    def own_leaf(self, key: str) -> Any:
        """The calling gradient run's autograd leaf of variable `key`, or None."""
        view = getattr(self._local, "view", None)
        return None if view is None else dict.get(view, key)

    def own_leaves(self) -> Optional[Dict[str, Any]]:
        """The calling gradient run's autograd leaves (its `RunView`, read with
        `dict.get`), or None: `own_leaf` for many keys with one thread-local lookup."""
        return getattr(self._local, "view", None)

    def align(self, keys: Iterable[str], grad: Any) -> Any:
        """The store an update of `keys` by `grad` reads and writes them through: this
        one; runtime/physical_store.py's `HeldStore` routes keys held in another layout."""
        return self

    # -- update locks ------------------------------------------------------------------
    def lock(self, key: str) -> threading.Lock:
        """The lock a read-modify-write of variable `key` holds."""
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks.setdefault(key, threading.Lock())   # atomic under the GIL
        return lock

    @contextlib.contextmanager
    def locks(self, keys: Iterable[str]) -> Iterator[None]:
        """Holds the locks of several variables, taken in sorted order (no deadlock)."""
        held = [self.lock(k) for k in sorted(set(keys))]
        for lock in held:
            lock.acquire()
        try:
            yield
        finally:
            for lock in reversed(held):
                lock.release()

    # -- runs ----------------------------------------------------------------------------
    def try_exclusive(self) -> bool:
        """Whether the calling run is the only one in flight; if so, no other run starts
        until `end_exclusive()` (an unshared stored tensor may then be updated in place
        without another run observing a half-done update)."""
        self._runs_lock.acquire()
        if self._runs_in_flight <= 1:
            return True
        self._runs_lock.release()
        return False

    def end_exclusive(self) -> None:
        self._runs_lock.release()

    def begin_run(self, marks: Iterable[str] = ()) -> Any:
        """Counts a run in flight; returns the store the run's generated code reads.

        With gradient `marks` (variable keys whose values become autograd leaves for the
        run) that is a fresh `RunView`, installed as the thread's `view()` until
        `end_run`; otherwise the store itself. (Explicit begin/end rather than a context
        manager: this is on every run's path.)
        """
        with self._runs_lock:
            self._runs_in_flight += 1
        if not marks:
            return self
        view = RunView(self, getattr(self._local, "view", None))
        self._local.view = view
        return view

    def end_run(self, used: Any) -> None:
        """Ends a run begun with `begin_run` (`used` is what it returned)."""
        if used is not self:
            self._local.view = used.previous
        with self._runs_lock:
            self._runs_in_flight -= 1

    def view(self) -> Any:
        """The calling thread's gradient view of the store during a gradient run (its
        autograd leaves, everything else read through), else the store itself. Kernels
        that read variables for their values (resource reads, control-flow regions)
        read through it."""
        view = getattr(self._local, "view", None)
        return self if view is None else view


class RunView(dict):
    """One gradient run's view of a VariableStore: the run's autograd leaves; any other
    key reads the shared store. Discarded when the run ends."""

    def __init__(self, store: VariableStore, previous: Optional["RunView"]):
        super().__init__()
        self._store = store
        self.previous = previous      # the view of an enclosing run on this thread

    def __missing__(self, key: str) -> Any:
        return self._store[key]

    def get(self, key: str, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return self._store.get(key, default)

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self._store


class RegionView(RunView):
    """The gradient view of a control-flow region whose own gradient op differentiates
    variables read from outside it: its autograd leaves over the run's (an outer leaf is
    read through, so a gradient outside still reaches the variable through the region)."""

    def __missing__(self, key: str) -> Any:
        return (self.previous if self.previous is not None else self._store)[key]

    def get(self, key: str, default: Any = None) -> Any:
        if dict.__contains__(self, key):
            return dict.__getitem__(self, key)
        return (self.previous if self.previous is not None else self._store).get(key, default)


def region_gradient_run(store: VariableStore, fn: Callable[..., tuple]
                        ) -> Callable[..., tuple]:
    """`fn(values, S)` of a region plan with gradient marks run in a RegionView
    installed as the thread's view (kernels reading variables read its leaves)."""
    local = store._local

    def run(values: Any, state: Any) -> tuple:
        view = RegionView(store, getattr(local, "view", None))
        local.view = view
        try:
            return fn(values, view)
        finally:
            local.view = view.previous
    return run


class RunContext:
    """Per-thread facts of the run in progress that blocking kernels need: its deadline."""

    def __init__(self) -> None:
        self._local = threading.local()

    def deadline(self) -> Optional[float]:
        """The `time.monotonic()` by which the calling thread's run must finish, or None."""
        return getattr(self._local, "deadline", None)

    def set_deadline(self, timeout_ms: int) -> Optional[float]:
        """Gives the calling thread's run `timeout_ms` (> 0) to finish; returns the
        previous deadline, for `restore`."""
        previous = getattr(self._local, "deadline", None)
        self._local.deadline = time.monotonic() + timeout_ms / 1000.0
        return previous

    def restore(self, previous: Optional[float]) -> None:
        self._local.deadline = previous
