"""`tf.config`: devices, threading, JIT and memory settings, mapped onto torch.

Devices are the CPU and the CUDA devices torch sees, named as TF names them
(`/physical_device:GPU:0`). Settings a Session reads (visible GPUs, memory growth,
soft placement, JIT, thread counts) go into the process-wide context: sessions created
without a ConfigProto run with them, as TF's do (runtime/session_options.py). Memory
queries read torch's CUDA allocator; a single logical GPU with a `memory_limit` caps
torch's allocator at that size; TensorFloat-32 maps to torch's TF32 switches. What torch
has no counterpart for (several logical devices on one GPU, cluster connections) raises
NotImplementedError naming it.
"""

from __future__ import annotations

import collections
import types
from typing import Any, Dict, List, Optional

import torch

from tf1compat.runtime.placement import cuda_device_count
from tf1compat.runtime.session_options import CONTEXT
from tf1compat.util import tf_logging

__all__ = ["PhysicalDevice", "LogicalDevice", "LogicalDeviceConfiguration",
           "list_physical_devices", "list_logical_devices", "get_visible_devices",
           "set_visible_devices", "get_soft_device_placement", "set_soft_device_placement",
           "run_functions_eagerly", "functions_run_eagerly",
           "experimental_run_functions_eagerly", "experimental_functions_run_eagerly",
           "get_logical_device_configuration", "set_logical_device_configuration",
           "threading", "optimizer", "experimental", "experimental_connect_to_cluster",
           "experimental_connect_to_host"]

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """`tf.config.LogicalDeviceConfiguration(memory_limit=None, ...)` (memory in MB)."""

    def __new__(cls, memory_limit: Optional[int] = None, experimental_priority: Any = None,
                experimental_device_ordinal: Any = None) -> "LogicalDeviceConfiguration":
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


class _Namespace(types.SimpleNamespace):
    """A sub-namespace (`tf.config.experimental`); unknown names raise tf1compat's
    missing-API error (with the reason when TF has the name but tf1compat cannot)."""

    def __init__(self, path: str, **members: Any):
        super().__init__(**members)
        object.__setattr__(self, "_path", path)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        from tf1compat.framework.missing import missing_attribute
        raise missing_attribute(self._path, name, vars(self))


_state: Dict[str, Any] = {"logical": {}, "functions_eagerly": False,
                          "experimental_options": {}, "device_policy": "silent",
                          "synchronous": True}


def _physical() -> List[PhysicalDevice]:
    return [PhysicalDevice("/physical_device:CPU:0", "CPU")] + [
        PhysicalDevice(f"/physical_device:GPU:{i}", "GPU") for i in range(cuda_device_count())]


def _filter(devices: List[Any], device_type: Optional[str]) -> List[Any]:
    return [d for d in devices if device_type is None or d.device_type == device_type]


def list_physical_devices(device_type: Optional[str] = None) -> List[PhysicalDevice]:
    """The CPU and each CUDA device torch sees."""
    return _filter(_physical(), device_type)


def get_visible_devices(device_type: Optional[str] = None) -> List[PhysicalDevice]:
    """The devices sessions and eager ops may use (all, unless `set_visible_devices`)."""
    gpus = CONTEXT["visible_gpus"]
    devices = [d for d in _physical() if d.device_type != "GPU" or gpus is None or
               int(d.name.rsplit(":", 1)[1]) in gpus]
    return _filter(devices, device_type)


def set_visible_devices(devices: Any, device_type: Optional[str] = None) -> None:
    """Restricts the GPUs later sessions use (their GPU:0, GPU:1, ... in this order)."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    if device_type not in (None, "GPU") or any(d.device_type not in ("GPU", "CPU")
                                               for d in devices):
        raise ValueError(f"Unsupported device type {device_type!r}: tf1compat places on "
                         "the CPU and CUDA GPUs")
    for d in devices:
        if d not in _physical():
            raise ValueError(f"Unrecognized device: {d!r}")
    CONTEXT["visible_gpus"] = [int(d.name.rsplit(":", 1)[1]) for d in devices
                               if d.device_type == "GPU"]


def list_logical_devices(device_type: Optional[str] = None) -> List[LogicalDevice]:
    """One logical device per visible physical device (`/device:GPU:0` is the first)."""
    gpus = [d for d in get_visible_devices() if d.device_type == "GPU"]
    cpus = max((len(logical) for device, logical in _state["logical"].items()
                if device.device_type == "CPU" and logical), default=1)
    devices = [LogicalDevice(f"/device:CPU:{k}", "CPU") for k in range(cpus)] + [
        LogicalDevice(f"/device:GPU:{k}", "GPU") for k in range(len(gpus))]
    return _filter(devices, device_type)


def get_soft_device_placement() -> bool:
    return bool(CONTEXT["soft_device_placement"])


def set_soft_device_placement(enabled: bool) -> None:
    """Soft placement for sessions created without a config."""
    CONTEXT["soft_device_placement"] = bool(enabled)


def run_functions_eagerly(run_eagerly: bool) -> None:
    """`tf.function`s run their Python code op by op instead of a traced plan."""
    _state["functions_eagerly"] = bool(run_eagerly)
    from tf1compat.eager import function as _function
    _function.RUN_EAGERLY[0] = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    return _state["functions_eagerly"]


experimental_run_functions_eagerly = run_functions_eagerly
experimental_functions_run_eagerly = functions_run_eagerly


def _gpu_index(device: Any) -> int:
    name = device.name if hasattr(device, "name") else str(device)
    kind, _, index = name.rpartition(":")
    if "GPU" not in kind.upper():
        raise ValueError(f"{name}: not a GPU")
    return int(index)


def get_logical_device_configuration(device: PhysicalDevice) -> Optional[list]:
    return _state["logical"].get(device)


def set_logical_device_configuration(device: PhysicalDevice, logical_devices: Any) -> None:
    """One logical device with a `memory_limit` (MB) caps torch's allocator on that GPU;
    several logical devices on one GPU have no torch counterpart. The CPU may be split
    into N logical devices (`/device:CPU:0..N-1`, all running on the CPU), as TF tests
    and CPU-only MirroredStrategy runs do."""
    logical_devices = None if logical_devices is None else list(logical_devices)
    if logical_devices is not None and len(logical_devices) > 1 and \
            device.device_type != "CPU":
        raise NotImplementedError("tf.config.set_logical_device_configuration: splitting one "
                                  f"{device.device_type} into {len(logical_devices)} logical "
                                  "devices is not supported by tf1compat (torch has one "
                                  "device per GPU)")
    if device.device_type == "GPU" and logical_devices:
        limit = logical_devices[0].memory_limit
        if limit is not None and torch.cuda.is_available():
            index = _gpu_index(device)
            total = torch.cuda.get_device_properties(index).total_memory
            torch.cuda.set_per_process_memory_fraction(min(limit * 2 ** 20 / total, 1.0),
                                                       index)
    _state["logical"][device] = logical_devices


# -- tf.config.threading --------------------------------------------------------------------

def _threads(key: str) -> int:
    return CONTEXT[key] or 0


def _set_intra(num_threads: int) -> None:
    """Threads of one op's kernel (torch.set_num_threads; 0 keeps torch's default)."""
    CONTEXT["intra_op_threads"] = int(num_threads)
    if num_threads > 0:
        torch.set_num_threads(int(num_threads))


def _set_inter(num_threads: int) -> None:
    """Threads running independent ops (torch.set_num_interop_threads, which torch allows
    only before its first parallel work)."""
    CONTEXT["inter_op_threads"] = int(num_threads)
    if num_threads > 0:
        try:
            torch.set_num_interop_threads(int(num_threads))
        except RuntimeError as e:
            raise RuntimeError("Inter op parallelism cannot be modified after "
                               "initialization.") from e


threading = _Namespace(
    "config.threading",
    get_intra_op_parallelism_threads=lambda: _threads("intra_op_threads"),
    set_intra_op_parallelism_threads=_set_intra,
    get_inter_op_parallelism_threads=lambda: _threads("inter_op_threads"),
    set_inter_op_parallelism_threads=_set_inter)


# -- tf.config.optimizer ----------------------------------------------------------------------

def _set_jit(enabled: Any) -> None:
    """TF's XLA JIT for sessions created without a config: their plans are handed to
    torch.compile (tf1compat's JIT, runtime/session.py)."""
    CONTEXT["jit"] = bool(enabled)


def _get_jit() -> str:
    return "autoclustering" if CONTEXT["jit"] else ""


def _set_experimental_options(options: Dict[str, Any]) -> None:
    """Grappler rewrite switches: recorded (and returned by get_experimental_options);
    tf1compat has no graph rewriter for them to steer."""
    _state["experimental_options"].update(options)


optimizer = _Namespace(
    "config.optimizer",
    get_jit=_get_jit, set_jit=_set_jit,
    get_experimental_options=lambda: dict({"disable_model_pruning": False,
                                           "disable_meta_optimizer": False},
                                          **_state["experimental_options"]),
    set_experimental_options=_set_experimental_options)


# -- tf.config.experimental -------------------------------------------------------------------

def _memory_growth(device: PhysicalDevice) -> bool:
    if device not in _physical() or device.device_type != "GPU":
        raise KeyError(device)
    return bool(CONTEXT["memory_growth"])


def _set_memory_growth(device: PhysicalDevice, enable: bool) -> None:
    """torch's caching allocator always grows on demand, which is TF's memory growth;
    without it TF reserves the GPU's memory up front, which torch does not do."""
    if device not in _physical() or device.device_type != "GPU":
        raise ValueError(f"Unrecognized device: {device!r}")
    CONTEXT["memory_growth"] = bool(enable)
    if not enable:
        tf_logging.warning("tf.config.experimental.set_memory_growth(..., False): torch "
                           "allocates GPU memory on demand; nothing is reserved up front")


def _cuda_index(device: Any) -> Optional[int]:
    name = device if isinstance(device, str) else getattr(device, "name", str(device))
    kind, _, index = name.rpartition(":")
    if kind.upper().endswith("CPU"):
        return None
    if not kind.upper().endswith("GPU"):
        raise ValueError(f"Failed parsing device name: '{name}'")
    return int(index)


def _memory_info(device: Any) -> Dict[str, int]:
    """{'current': bytes, 'peak': bytes} of torch's allocator on a GPU (zeros on the CPU,
    whose memory torch does not account)."""
    index = _cuda_index(device)
    if index is None or not torch.cuda.is_available():
        return {"current": 0, "peak": 0}
    return {"current": torch.cuda.memory_allocated(index),
            "peak": torch.cuda.max_memory_allocated(index)}


def _reset_memory_stats(device: Any) -> None:
    index = _cuda_index(device)
    if index is not None and torch.cuda.is_available():
        torch.cuda.reset_peak_memory_stats(index)


def _device_details(device: PhysicalDevice) -> Dict[str, Any]:
    if device.device_type != "GPU":
        return {}
    props = torch.cuda.get_device_properties(_gpu_index(device))
    return {"device_name": props.name, "compute_capability": (props.major, props.minor)}


def _enable_tf32(enabled: bool) -> None:
    """TensorFloat-32 matmuls and convolutions on Ampere+ GPUs (torch's TF32 switches)."""
    torch.backends.cuda.matmul.allow_tf32 = bool(enabled)
    torch.backends.cudnn.allow_tf32 = bool(enabled)


def _set_device_policy(device_policy: Optional[str]) -> None:
    """How eager ops treat inputs on another device; tf1compat copies them ("silent")."""
    if device_policy not in (None, "silent", "silent_for_int32", "warn", "explicit"):
        raise ValueError(f"Not a valid device policy: {device_policy!r}")
    _state["device_policy"] = device_policy or "silent"


def _set_synchronous(enable: bool) -> None:
    """Eager ops run synchronously on the CPU; CUDA kernels are asynchronous in torch,
    and every value read back (numpy()) waits for them, as TF's async mode does."""
    _state["synchronous"] = bool(enable)


def _unsupported_cluster(*args: Any, **kwargs: Any) -> None:
    raise NotImplementedError("tf.config.experimental.ClusterDeviceFilters: distributed "
                              "clusters are not supported by tf1compat")


experimental = _Namespace(
    "config.experimental",
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices,
    get_memory_growth=_memory_growth,
    set_memory_growth=_set_memory_growth,
    get_memory_info=_memory_info,
    get_memory_usage=lambda device: _memory_info(device)["current"],
    reset_memory_stats=_reset_memory_stats,
    get_device_details=_device_details,
    get_virtual_device_configuration=get_logical_device_configuration,
    set_virtual_device_configuration=set_logical_device_configuration,
    enable_tensor_float_32_execution=_enable_tf32,
    tensor_float_32_execution_enabled=lambda: bool(torch.backends.cuda.matmul.allow_tf32),
    get_device_policy=lambda: _state["device_policy"],
    set_device_policy=_set_device_policy,
    get_synchronous_execution=lambda: _state["synchronous"],
    set_synchronous_execution=_set_synchronous,
    ClusterDeviceFilters=_unsupported_cluster,
)

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("config", globals())


def experimental_connect_to_cluster(*args: Any, **kwargs: Any) -> None:
    raise NotImplementedError("tf.config.experimental_connect_to_cluster: distributed "
                              "clusters are not supported by tf1compat (it runs in one "
                              "process)")


def experimental_connect_to_host(*args: Any, **kwargs: Any) -> None:
    raise NotImplementedError("tf.config.experimental_connect_to_host: remote hosts are not "
                              "supported by tf1compat (it runs in one process)")
