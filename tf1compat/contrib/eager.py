"""`tf.contrib.eager` (`tfe`): TF 1.x's eager-execution aliases.

Aliases of the eager API (`tf1compat/eager/`, `autodiff/tape.py`) under their tfe names.
Names whose feature lives in other parts of tf1compat (`Checkpoint`, `Saver`, `Iterator`)
are looked up there when used; the rest of TF 1.x's tfe surface that tf1compat does not
implement raises NotImplementedError naming it.
"""

from __future__ import annotations

import contextlib
from typing import Any, Callable, Generator, Optional

from tf1compat.eager.context import (ASYNC, DEVICE_PLACEMENT_EXPLICIT, DEVICE_PLACEMENT_SILENT,
                                     DEVICE_PLACEMENT_SILENT_FOR_INT32, DEVICE_PLACEMENT_WARN,
                                     SYNC, enable_eager_execution, executing_eagerly,
                                     in_eager_mode, num_gpus)
from tf1compat.eager.function import TensorSpec, defun
from tf1compat.eager.function import function
from tf1compat.eager.test_modes import run_all_in_graph_and_eager_modes as \
    run_all_tests_in_graph_and_eager_modes
from tf1compat.eager.test_modes import run_in_graph_and_eager_modes as \
    run_test_in_graph_and_eager_modes
from tf1compat.autodiff.tape import (GradientTape, gradients_function, implicit_gradients,
                                     implicit_value_and_gradients, value_and_gradients_function)
from tf1compat.variables.resource_variable import ResourceVariable as Variable
from tf1compat.variables.variable_scope import EagerVariableStore

__all__ = ["Variable", "GradientTape", "implicit_gradients", "implicit_value_and_gradients",
           "gradients_function", "value_and_gradients_function", "defun", "function",
           "executing_eagerly", "in_eager_mode", "in_graph_mode", "num_gpus",
           "enable_eager_execution", "EagerVariableStore", "TensorSpec", "py_func",
           "list_devices", "execution_mode", "async_wait", "async_clear_error", "seterr",
           "get_optimizer_variables", "run", "DEVICE_PLACEMENT_EXPLICIT",
           "DEVICE_PLACEMENT_WARN", "DEVICE_PLACEMENT_SILENT",
           "DEVICE_PLACEMENT_SILENT_FOR_INT32", "SYNC", "ASYNC",
           "run_test_in_graph_and_eager_modes", "run_all_tests_in_graph_and_eager_modes"]
# (Checkpoint, Saver, Iterator and Network resolve through __getattr__ when used.)


def in_graph_mode() -> bool:
    return not executing_eagerly()


def py_func(func: Callable[..., Any], inp: Any, Tout: Any,  # noqa: N803 - TF's name
            name: Optional[str] = None) -> Any:
    """`tfe.py_func`: `tf.py_function` (func receives EagerTensors)."""
    from tf1compat.ops.script_ops import py_function
    return py_function(func, inp, Tout, name=name)


def list_devices() -> list:
    """The devices eager ops can run on, as TF names them."""
    from tf1compat.runtime.placement import list_local_devices
    return [f"/job:localhost/replica:0/task:0{d.name}" for d in list_local_devices()]


@contextlib.contextmanager
def execution_mode(mode: Any) -> Generator[None, None, None]:
    """Ops always run synchronously here; the block is accepted for compatibility."""
    yield


def async_wait() -> None:
    """Nothing is pending: eager ops run synchronously."""


def async_clear_error() -> None:
    """Nothing to clear: eager ops run synchronously."""


def seterr(inf_or_nan: Optional[str] = None) -> str:
    """`tfe.seterr`: numeric checks of eager outputs are not implemented."""
    if inf_or_nan not in (None, "ignore"):
        raise NotImplementedError("tfe.seterr (checking eager outputs for inf/nan) is not "
                                  "supported by tf1compat")
    return "ignore"


def get_optimizer_variables(optimizer: Any) -> list:
    """`tfe.get_optimizer_variables`: the optimizer's slot and non-slot variables."""
    return list(optimizer.variables())


def run(main: Optional[Callable[..., Any]] = None, argv: Any = None) -> Any:
    """`tfe.run`: enables eager execution and runs `main` (as tf.app.run)."""
    enable_eager_execution()
    from tf1compat.util.app import run as app_run
    return app_run(main, argv)


def __getattr__(name: str) -> Any:
    if name == "Checkpoint":
        from tf1compat.training.saving.trackable_checkpoint import Checkpoint
        return Checkpoint
    if name in ("Saver", "CheckpointableSaver"):
        from tf1compat.training.saving.saver import Saver
        return Saver
    if name == "Checkpointable":
        from tf1compat.training.saving.tracking import AutoTrackable
        return AutoTrackable
    if name == "Network":
        from tf1compat.contrib._eager_network import Network
        return Network
    if name == "Iterator":
        from tf1compat.data.eager_iterator import EagerIterator
        return EagerIterator
    if name in ("Sequential", "Metric", "metrics", "graph_callable",
                "restore_variables_on_create", "save_network_checkpoint",
                "restore_network_checkpoint", "add_execution_callback",
                "clear_execution_callbacks", "inf_callback", "nan_callback",
                "inf_nan_callback", "connect_to_remote_host",
                "enable_remote_eager_execution", "make_template", "AutoGraph"):
        raise NotImplementedError(f"tf.contrib.eager.{name} is not supported by tf1compat")
    raise AttributeError(f"module 'tf.contrib.eager' has no attribute {name!r}")
