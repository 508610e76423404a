"""Turning eager execution on and off: `tf.enable_eager_execution` and friends.

As in TF, eager execution is a program-wide mode chosen at startup:
`tf.enable_eager_execution()` raises ValueError once graph mode has been used (a default
graph exists), `tf.disable_eager_execution()` returns to graph mode. Inside an explicit
graph (`with tf.Graph().as_default():`, a Session's block, a traced function) ops are
graph ops even while eager execution is enabled.

Grad mode: outside a GradientTape eager kernels need no autograd, so enabling eager
execution turns torch's grad mode off for the calling thread (the executor also guards
each kernel); a recording tape turns it on while it records.
"""

from __future__ import annotations

import contextlib
from typing import Any, Iterator, Optional

import torch

from tf1compat.framework import context as _context
from tf1compat.runtime import config as _config
from tf1compat.runtime.placement import cuda_device_count

__all__ = ["enable_eager_execution", "disable_eager_execution", "executing_eagerly",
           "in_eager_mode", "eager_mode", "graph_mode", "num_gpus", "DEVICE_PLACEMENT_EXPLICIT",
           "DEVICE_PLACEMENT_WARN", "DEVICE_PLACEMENT_SILENT",
           "DEVICE_PLACEMENT_SILENT_FOR_INT32", "SYNC", "ASYNC", "enable_v2_behavior",
           "context"]

# TF's TFE_ContextDevicePlacementPolicy and execution modes.
DEVICE_PLACEMENT_EXPLICIT = 0
DEVICE_PLACEMENT_WARN = 1
DEVICE_PLACEMENT_SILENT = 2
DEVICE_PLACEMENT_SILENT_FOR_INT32 = 3
SYNC = 0
ASYNC = 1

_options: dict = {"set": False, "config": None, "device_policy": None,
                  "execution_mode": None}


def executing_eagerly() -> bool:
    """`tf.executing_eagerly()`."""
    return _context._state["eager"]


def in_eager_mode() -> bool:
    """TF's deprecated alias of `executing_eagerly()` (TF 1.x-era libraries still call it)."""
    return executing_eagerly()


def enable_eager_execution(config: Any = None, device_policy: Optional[int] = None,
                           execution_mode: Optional[int] = None) -> None:
    """`tf.enable_eager_execution`: run ops immediately for the rest of the program.

    Must be called before any graph has been built (ValueError otherwise, as TF); calling
    it again with the same (or no) options is allowed.
    """
    if _context.default_eager():
        return       # already enabled: TF returns without looking at the arguments
    if config is not None and not isinstance(config, _config.ConfigProto):
        raise TypeError(f"config must be a tf.ConfigProto, but got {type(config)}")
    if device_policy not in (None, DEVICE_PLACEMENT_EXPLICIT, DEVICE_PLACEMENT_WARN,
                             DEVICE_PLACEMENT_SILENT, DEVICE_PLACEMENT_SILENT_FOR_INT32):
        raise ValueError("device_policy must be one of None, DEVICE_PLACEMENT_*")
    if execution_mode not in (None, SYNC, ASYNC):
        raise ValueError("execution_mode must be one of None, SYNC, ASYNC")
    if not _context.default_eager():
        from tf1compat.framework import graph as _graph
        if _graph._global_default_graph[0] is not None:
            raise ValueError("tf.enable_eager_execution must be called at program startup.")
    if _options["set"]:
        if (config is not None and config is not _options["config"]) or \
                (device_policy is not None and device_policy != _options["device_policy"]) \
                or (execution_mode is not None and
                    execution_mode != _options["execution_mode"]):
            raise ValueError(
                "Trying to change the options of an active eager execution. Context config: "
                f"{_options['config']}, specified config: {config}. Context device policy: "
                f"{_options['device_policy']}, specified device policy: {device_policy}. "
                f"Context execution mode: {_options['execution_mode']},  specified "
                f"execution mode {execution_mode}.")
    else:
        _options.update(set=True, config=config, device_policy=device_policy,
                        execution_mode=execution_mode)
        _apply_config(config)
    import tf1compat.runtime.eager_executor  # noqa: F401 - installs the executor
    _context.set_default_eager(True)
    torch.set_grad_enabled(False)


def _apply_config(config: Any) -> None:
    from tf1compat.runtime.eager_executor import RUNTIME
    from tf1compat.runtime.placement import Placer
    if config is None:
        return
    gpus_allowed, soft = _config.device_settings(config)
    RUNTIME.placer = Placer(gpus_allowed, True)
    RUNTIME._devices.clear()
    intra = getattr(config, "intra_op_parallelism_threads", 0)
    if intra and intra > 0:
        torch.set_num_threads(intra)


def disable_eager_execution() -> None:
    """`tf.disable_eager_execution`: graph mode for the rest of the program."""
    _context.set_default_eager(False)


def enable_v2_behavior() -> None:
    """`tf.compat.v1.enable_v2_behavior`: not supported (tf1compat emulates TF 1.x)."""
    raise NotImplementedError(
        "tf.compat.v1.enable_v2_behavior: tf1compat implements TensorFlow 1.x semantics "
        "(identity `==` on tensors, Dimension-valued shapes); use "
        "tf.enable_eager_execution() for TF 1.x-style eager execution.")


@contextlib.contextmanager
def eager_mode() -> Iterator[None]:
    """Runs the block eagerly (TF's `context.eager_mode()`, used by tests)."""
    import tf1compat.runtime.eager_executor  # noqa: F401
    old = _context._state["eager"]
    _context._state["eager"] = True
    try:
        yield
    finally:
        _context._state["eager"] = old


@contextlib.contextmanager
def graph_mode() -> Iterator[None]:
    """Builds graph ops in the block (TF's `context.graph_mode()`)."""
    old = _context._state["eager"]
    _context._state["eager"] = False
    try:
        yield
    finally:
        _context._state["eager"] = old


def num_gpus() -> int:
    """`tfe.num_gpus()`: the number of GPUs eager ops can use."""
    return cuda_device_count()


class _Context:
    """What `context.context()` offers legacy code that inspects it."""

    def executing_eagerly(self) -> bool:
        return executing_eagerly()

    def num_gpus(self) -> int:
        return num_gpus()

    @property
    def scope_name(self) -> str:
        return _context._state["scope"]


def context() -> _Context:
    """TF's `context.context()`: the eager context (a small stand-in)."""
    return _Context()
