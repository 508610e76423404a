"""`tf.train.Coordinator` and `tf.train.LooperThread`.

A Coordinator is a stop flag shared by threads plus the first exception one of them
reported: `request_stop(ex)` sets the flag (exceptions of the "clean stop" types, by
default `OutOfRangeError`, count as a normal stop), `join()` waits for the registered
threads, gives stragglers a grace period and re-raises the reported exception.
QueueRunner threads (queue_runner.py) register with it and report their errors to it.
"""

from __future__ import annotations

import contextlib
import sys
import threading
import time
from typing import Any, Iterable, Iterator, List, Optional

from tf1compat.util import tf_logging
from tf1compat.framework import errors

__all__ = ["Coordinator", "LooperThread"]


class Coordinator:
    """Coordinates the termination of a set of threads (`tf.train.Coordinator`)."""

    def __init__(self, clean_stop_exception_types: Optional[Iterable[type]] = None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise: Optional[tuple] = None
        self._joined = False
        self._registered_threads: set = set()

    def _filter_exception(self, ex: Any) -> Any:
        instance = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(instance, self._clean_stop_exception_types) else ex

    def request_stop(self, ex: Any = None) -> None:
        """Asks the threads to stop; `ex` (an exception or an exc_info tuple) is kept, the
        first one only, to be re-raised by `join()` / `raise_requested_exception()`."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined:
                # After join(), an error reported by a late thread is raised right here.
                if isinstance(ex, tuple):
                    raise ex[1]
                if ex is not None:
                    raise sys.exc_info()[1] or ex
            if self._stop_event.is_set():
                return
            if ex and self._exc_info_to_raise is None:
                if isinstance(ex, tuple):
                    tf_logging.info("Error reported to Coordinator: %s", str(ex[1]))
                    info = ex
                else:
                    tf_logging.info("Error reported to Coordinator: %s, %s", type(ex), str(ex))
                    # TF records the exception being handled (sys.exc_info()).
                    info = sys.exc_info()
                if len(info) != 3 or not info[0] or not info[1]:
                    try:
                        raise ValueError("ex must be a tuple or sys.exc_info must return the "
                                         f"current exception: {info}")
                    except ValueError:
                        info = sys.exc_info()
                self._exc_info_to_raise = info
            self._stop_event.set()

    def clear_stop(self) -> None:
        """Clears the stop flag and the recorded exception (the Coordinator is reusable)."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self) -> bool:
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self) -> Iterator[None]:
        """Any exception raised in the block is reported with `request_stop` (and
        swallowed)."""
        try:
            yield
        except:  # noqa: E722 - TF reports every exception, SystemExit included
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout: Optional[float] = None) -> bool:
        return self._stop_event.wait(timeout)

    def register_thread(self, thread: threading.Thread) -> None:
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads: Optional[Iterable[threading.Thread]] = None,
             stop_grace_period_secs: float = 120, ignore_live_threads: bool = False) -> None:
        """Waits for the threads (and the registered ones) to end after a stop request;
        re-raises the reported exception, or RuntimeError for threads still alive after
        `stop_grace_period_secs` (unless `ignore_live_threads`)."""
        with self._lock:
            pool = set(self._registered_threads)
            if threads is not None:
                pool |= set(threads)
            live: List[threading.Thread] = list(pool)
        while any(t.is_alive() for t in live) and not self.wait_for_stop(1.0):
            pass
        wait = 0.001
        grace = stop_grace_period_secs
        while any(t.is_alive() for t in live) and grace >= 0.0:
            time.sleep(wait)
            grace -= wait
            wait = max(min(2 * wait, grace), 0.001)
        stragglers = [t.name for t in live if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]
            if stragglers:
                if ignore_live_threads:
                    tf_logging.info("Coordinator stopped with threads still running: %s",
                                    " ".join(stragglers))
                else:
                    raise RuntimeError("Coordinator stopped with threads still running: "
                                       + " ".join(stragglers))

    @property
    def joined(self) -> bool:
        return self._joined

    def raise_requested_exception(self) -> None:
        """Raises the exception reported with `request_stop`, if any."""
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]


class LooperThread(threading.Thread):
    """A daemon thread that calls `run_loop()` (or `target`) until the coordinator stops,
    every `timer_interval_secs` seconds or back to back when that is None."""

    def __init__(self, coord: Coordinator, timer_interval_secs: Optional[float],
                 target: Any = None, args: Any = None, kwargs: Any = None):
        if not isinstance(coord, Coordinator):
            raise ValueError(f"'coord' argument must be a Coordinator: {coord}")
        super().__init__()
        self.daemon = True
        self._coord = coord
        self._timer_interval_secs = timer_interval_secs
        self._target = target
        if target:
            self._args = args or ()
            self._kwargs = kwargs or {}
        elif args or kwargs:
            raise ValueError("'args' and 'kwargs' argument require that you also pass "
                             "'target'")
        coord.register_thread(self)

    @staticmethod
    def loop(coord: Coordinator, timer_interval_secs: Optional[float], target: Any,
             args: Any = None, kwargs: Any = None) -> "LooperThread":
        """Starts a LooperThread calling `target(*args, **kwargs)`; returns it."""
        looper = LooperThread(coord, timer_interval_secs, target=target, args=args,
                              kwargs=kwargs)
        looper.start()
        return looper

    def run(self) -> None:
        with self._coord.stop_on_exception():
            self.start_loop()
            if self._timer_interval_secs is None:
                while not self._coord.should_stop():
                    self.run_loop()
            else:
                next_time = time.time()
                while not self._coord.wait_for_stop(next_time - time.time()):
                    next_time += self._timer_interval_secs
                    self.run_loop()
            self.stop_loop()

    def start_loop(self) -> None:
        """Called once when the thread starts."""

    def stop_loop(self) -> None:
        """Called once when the thread stops."""

    def run_loop(self) -> None:
        if self._target:
            self._target(*self._args, **self._kwargs)
