"""`tf.train.basic_train_loop`: the Supervisor-driven training loop of TF1's examples."""

from __future__ import annotations

from typing import Any, Callable, Optional

__all__ = ["basic_train_loop"]


def basic_train_loop(supervisor: Any, train_step_fn: Callable[..., Any],
                     args: Optional[tuple] = None, kwargs: Optional[dict] = None,
                     master: str = "") -> None:
    """Calls `train_step_fn(sess, *args, **kwargs)` in the supervisor's managed session
    until the supervisor says to stop."""
    with supervisor.managed_session(master) as sess:
        while not supervisor.should_stop():
            train_step_fn(sess, *(args or ()), **(kwargs or {}))
