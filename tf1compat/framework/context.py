"""Execution mode: graph (the TF1 default) or eager.

`apply_op` (framework/graph.py) asks `executing_eagerly()` on every op call; when eager
execution is on, the op is handed to the eager executor (`hooks.EAGER_EXECUTOR`, filled
by runtime/eager_executor.py) instead of being added to a graph, so one op declaration
serves both modes.

Two flags, as in TF: `default_eager` is the program's mode (`tf.enable_eager_execution`
turns it on), `eager` whether ops run eagerly right now. Building inside an explicit
graph (`with g.as_default():`, a Session's block, a traced `tf.function`) turns `eager`
off for the block. `scope` is the eager name scope (`tf.name_scope` without a graph).
"""

from __future__ import annotations

from typing import Callable, List

__all__ = ["executing_eagerly", "set_eager",
           "default_eager", "set_default_eager", "eager_scope_name", "on_clear_caches",
           "clear_caches"]

_state: dict = {"eager": False, "default_eager": False, "scope": "", "device": None}
_cache_clearers: List[Callable[[], None]] = []


def executing_eagerly() -> bool:
    """`tf.executing_eagerly()`: whether ops run immediately (False inside a graph)."""
    return _state["eager"]


def set_eager(enabled: bool) -> None:
    _state["eager"] = bool(enabled)


def default_eager() -> bool:
    """Whether the program runs eagerly by default (`tf.enable_eager_execution()`)."""
    return _state["default_eager"]


def set_default_eager(enabled: bool) -> None:
    _state["default_eager"] = bool(enabled)
    _state["eager"] = bool(enabled)


def eager_scope_name() -> str:
    """The eager name scope ("a/b/"), what `tf.name_scope` opens when no graph is built."""
    return _state["scope"]


def on_clear_caches(fn: Callable[[], None]) -> None:
    """Registers a callback run by `clear_caches` (the eager kernel cache registers one)."""
    _cache_clearers.append(fn)


def clear_caches() -> None:
    """Drops eager kernels (and their random streams), as TF does on `set_random_seed`."""
    for fn in _cache_clearers:
        fn()
