"""`tensorflow.python.profiler.profiler_v2` (TF 2.2+'s `tf.profiler.experimental`), for
modules that import it at the top and use it only on request (tensorflow/models'
official.utils.misc.keras_utils: its ProfilerCallback). TF 2.x's trace profiler (XPlane
traces for TensorBoard's profile plugin) is not implemented: TF 1.x's profilers are
`tf.profiler` (tfprof) and `RunOptions(trace_level=FULL_TRACE)` with client.timeline."""

from __future__ import annotations

from typing import Any, NoReturn

__all__ = ["start", "stop", "warmup", "start_server", "Profile", "ProfilerOptions"]


def _unsupported(name: str) -> NoReturn:
    raise NotImplementedError(
        f"tensorflow.python.profiler.profiler_v2.{name}: TF 2.x's trace profiler is not "
        "implemented by tf1compat; use tf.profiler (tfprof) or "
        "RunOptions(trace_level=FULL_TRACE) with tensorflow.python.client.timeline.")


def start(logdir: str, options: Any = None) -> NoReturn:
    """Starts a trace (unsupported)."""
    _unsupported("start")


def stop(save: bool = True) -> NoReturn:
    """Stops the trace (unsupported)."""
    _unsupported("stop")


def warmup() -> NoReturn:
    """Warms the profiler up (unsupported)."""
    _unsupported("warmup")


def start_server(port: int) -> NoReturn:
    """Starts a profiler gRPC server (unsupported)."""
    _unsupported("start_server")


class ProfilerOptions:
    """Options of a trace (unsupported)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        _unsupported("ProfilerOptions")


class Profile:
    """Context manager that traces its block (unsupported)."""

    def __init__(self, logdir: str, options: Any = None) -> None:
        _unsupported("Profile")
