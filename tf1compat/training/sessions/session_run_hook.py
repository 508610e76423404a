"""`tf.train.SessionRunHook` and the values passed to hooks around `MonitoredSession.run`.

A hook sees the training loop at fixed points: `begin()` (before the graph is finalized),
`after_create_session(session, coord)`, `before_run(run_context)` (may return
SessionRunArgs: extra fetches, feeds and options merged into the caller's run),
`after_run(run_context, run_values)` (run_values.results holds the hook's own fetches)
and `end(session)`.
"""

from __future__ import annotations

import collections
from typing import Any

__all__ = ["SessionRunHook", "SessionRunArgs", "SessionRunContext", "SessionRunValues"]


class SessionRunHook:
    """Hook to extend calls to MonitoredSession.run(); every method is optional."""

    def begin(self) -> None:
        """Called once before the session is created; the graph may still be changed."""

    def after_create_session(self, session: Any, coord: Any) -> None:
        """Called when the session has been created (and variables initialized/restored);
        the graph is finalized."""

    def before_run(self, run_context: "SessionRunContext") -> Any:
        """Called before each run; may return SessionRunArgs to add to it."""
        return None

    def after_run(self, run_context: "SessionRunContext",
                  run_values: "SessionRunValues") -> None:
        """Called after each successful run with the results of this hook's fetches."""

    def end(self, session: Any) -> None:
        """Called at the end of the session (not when the loop ended with an error)."""


class SessionRunArgs(collections.namedtuple("SessionRunArgs",
                                            ["fetches", "feed_dict", "options"])):
    """What a hook adds to a run: fetches (any structure Session.run takes), feeds,
    RunOptions."""

    def __new__(cls, fetches: Any, feed_dict: Any = None, options: Any = None
                ) -> "SessionRunArgs":
        return super().__new__(cls, fetches, feed_dict, options)


class SessionRunContext:
    """The run a hook is called around: the caller's arguments, the session, and the
    stop request a hook can make."""

    def __init__(self, original_args: SessionRunArgs, session: Any):
        self._original_args = original_args
        self._session = session
        self._stop_requested = False

    @property
    def original_args(self) -> SessionRunArgs:
        return self._original_args

    @property
    def session(self) -> Any:
        return self._session

    @property
    def stop_requested(self) -> bool:
        return self._stop_requested

    def request_stop(self) -> None:
        """Makes MonitoredSession.should_stop() true after this run."""
        self._stop_requested = True


class SessionRunValues(collections.namedtuple("SessionRunValues",
                                              ["results", "options", "run_metadata"])):
    """What a hook receives after a run: its fetched results, RunOptions, RunMetadata."""
