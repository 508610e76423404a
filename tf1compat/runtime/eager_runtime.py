"""The eager runtime and what kernel factories see of an eager op.

`RUNTIME` is the program's eager runtime (TF's eager context): the variable store eager
variables live in (handle key -> torch tensor), the state of stateful kernels (random
streams) and device placement. Kernel factories build eager kernels from an `EagerNode`
(the fields of a graph Operation they read: type, attrs, inputs, static output specs)
and an `EagerKernelContext` (`kctx.state`, `kctx.device`, `kctx.op_resource`, ...).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.runtime.eager_tensor import EagerResourceHandle

__all__ = ["EagerRuntime", "RUNTIME", "current_device", "EagerNode", "EagerKernelContext",
           "EagerOperation"]


# -- the eager runtime: variable store, per-kernel resources, placement ---------------------

class EagerRuntime:
    """What kernels of eager ops see as `kctx.runtime` (one per program, as TF's context)."""

    def __init__(self) -> None:
        from tf1compat.runtime.placement import Placer
        from tf1compat.runtime.session_state import VariableStore
        self.state = VariableStore()          # eager variables: handle key -> torch tensor
        self.resources: Dict[Any, Any] = {}   # stateful kernels' state (random streams)
        self.placer = Placer(True, True)
        self.session = None
        self.graph = None
        self._devices: Dict[Optional[str], torch.device] = {}

    def op_resource(self, key: Any, factory: Callable[[], Any]) -> Any:
        """The program's resource under `key` (a shared_name), created once."""
        if key not in self.resources:
            self.resources[key] = factory()
        return self.resources[key]

    def run_deadline(self) -> Optional[float]:
        """Eager ops run without a RunOptions deadline."""
        return None

    def device(self, name: Optional[str]) -> torch.device:
        """The torch device of an eager `tf.device` string (soft placement, as TF 2)."""
        try:
            return self._devices[name]
        except KeyError:
            pass
        if not name:
            device = self.placer.default
        else:
            device = self.placer.device_for(_DeviceProbe(name))
        self._devices[name] = device
        return device


class _DeviceProbe:
    """The little of an Operation that Placer.device_for reads."""

    class _OpDef:
        cpu_only = False
        keeps_devices = False

    _op_def = _OpDef()
    _inputs: tuple = ()
    _outputs: tuple = ()
    name = "eager"

    def __init__(self, device: str):
        self._device = device


RUNTIME = EagerRuntime()
_CPU = torch.device("cpu")
# With a GPU, inputs may live on other devices than an op's: the executor moves them.
_MULTI_DEVICE = RUNTIME.placer.gpu_count > 0


def current_device() -> torch.device:
    return RUNTIME.device(_context._state["device"])


# -- nodes and kernel contexts seen by kernel factories ---------------------------------------

class _Spec:
    """A static stand-in for a tensor of an eager node (dtype and shape only)."""

    __slots__ = ("_dtype", "_shape")
    _is_eager_tensor = False

    def __init__(self, dtype: D.DType, shape: TensorShape):
        self._dtype = dtype
        self._shape = shape

    dtype = property(lambda self: self._dtype)
    shape = property(lambda self: self._shape)

    def get_shape(self) -> TensorShape:
        return self._shape


class EagerNode:
    """An eager op as kernel factories see it (`framework/op_def.KernelNode`)."""

    __slots__ = ("type", "name", "attrs", "inputs", "outputs", "device", "traceback",
                 "_op_def")

    def __init__(self, op_def: _op_def.OpDef, name: str, attrs: dict, inputs: list,
                 outputs: list, device: str):
        self.type = op_def.type
        self._op_def = op_def
        self.name = name
        self.attrs = attrs
        self.inputs = inputs
        self.outputs = outputs
        self.device = device
        self.traceback: list = []

    def get_attr(self, name: str) -> Any:
        try:
            value = self.attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self.name!r} has no attr named {name!r}.") from None
        return value.encode() if isinstance(value, str) else value


class EagerKernelContext:
    """`kctx` for eager kernels: the eager runtime's store and resources, the op's device."""

    __slots__ = ("device", "node", "_resource_key")
    runtime = RUNTIME
    builder = None

    def __init__(self, device: torch.device, node: EagerNode, resource_key: Any):
        self.device = device
        self.node = node
        self._resource_key = resource_key

    @property
    def state(self) -> Any:
        return RUNTIME.state

    def ref_key(self, t: Any) -> str:
        """The store key of a variable input (an eager resource handle)."""
        if isinstance(t, EagerResourceHandle):
            return t._value
        raise TypeError(f"{self.node.name}: input is not a variable reference (ref inputs "
                        "need resource variables under eager execution)")

    def input_may_alias(self, t: Any) -> bool:
        return True       # eager values may be shared with the caller's tensors

    def op_resource(self, factory: Callable[[], Any]) -> Any:
        """State of a stateful kernel, kept per (op, attrs, device) like TF's eager cache."""
        resources = RUNTIME.resources
        try:
            return resources[self._resource_key]
        except KeyError:
            value = resources[self._resource_key] = factory()
            return value

    def compile_function(self, inputs: Any, outputs: Any, context: Any = None) -> Any:
        """Compiles a function graph an eager op carries (a tf.data map/filter function).

        The graph gets a session runtime of its own (kept on the graph, so each function
        compiles once) whose variable store is the eager store.
        """
        tensors = list(outputs) or list(inputs)
        if not tensors:
            raise NotImplementedError(f"{self.node.type}: compiling an empty graph region "
                                      "under eager execution")
        graph = tensors[0].graph
        runtime = getattr(graph, "_eager_function_runtime", None)
        if runtime is None:
            from tf1compat.runtime.session import SessionRuntime
            runtime = SessionRuntime(graph)
            runtime.state = RUNTIME.state
            graph._eager_function_runtime = runtime
        return runtime.compile_function(list(inputs), list(outputs), context)


class EagerOperation:
    """What `apply_op` returns under eager execution: the op's outputs (and its type)."""

    __slots__ = ("_outputs", "type")

    def __init__(self, outputs: list, op_type: str):
        self._outputs = outputs
        self.type = op_type

    @property
    def outputs(self) -> list:
        return list(self._outputs)

    @property
    def name(self) -> str:
        raise AttributeError("Operation.name is undefined when eager execution is enabled.")

    def values(self) -> tuple:
        return tuple(self._outputs)

    def __repr__(self) -> str:
        return f"<eager op {self.type} with {len(self._outputs)} outputs>"
