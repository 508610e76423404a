"""util/gil_lock.py: GilLock behaves as a mutex (threading.Lock's interface, Condition
support) while its waiters only take it holding the interpreter lock."""

import threading
import time

import pytest

from tf1compat.util.gil_lock import GilLock


def test_lock_interface():
    lock = GilLock()
    assert not lock.locked()
    assert lock.acquire()
    assert lock.locked()
    assert not lock.acquire(blocking=False)
    start = time.monotonic()
    assert not lock.acquire(timeout=0.05)
    assert time.monotonic() - start >= 0.04
    lock.release()
    with lock:
        assert lock.locked()
    assert not lock.locked()
    with pytest.raises(RuntimeError):
        lock.release()
    with pytest.raises(ValueError):
        lock.acquire(blocking=False, timeout=1)


def test_mutual_exclusion_under_threads():
    lock = GilLock()
    state = {"count": 0, "inside": 0, "overlap": False}

    def work():
        for _ in range(3000):
            with lock:
                state["inside"] += 1
                if state["inside"] != 1:
                    state["overlap"] = True
                value = state["count"]
                if value % 97 == 0:
                    time.sleep(0)        # let another thread in while the lock is held
                state["count"] = value + 1
                state["inside"] -= 1
    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert state["count"] == 18000 and not state["overlap"]


def test_waiter_gets_a_lock_held_across_a_long_block():
    """A holder blocked for longer than the back-off: the waiter ends up waiting in the
    kernel and still gets the lock once it is free."""
    lock = GilLock()
    lock.acquire()
    got = []
    waiter = threading.Thread(target=lambda: got.append(lock.acquire()))
    waiter.start()
    time.sleep(0.05)
    assert not got
    lock.release()
    waiter.join(5)
    assert got == [True] and lock.locked()
    lock.release()


def test_condition_on_a_gil_lock():
    lock = GilLock()
    cond = threading.Condition(lock)
    items = []

    def consumer():
        with cond:
            while not items:
                cond.wait(5)
            items.append("seen")
    t = threading.Thread(target=consumer)
    t.start()
    time.sleep(0.02)
    with cond:
        items.append("item")
        cond.notify()
    t.join(5)
    assert items == ["item", "seen"]
