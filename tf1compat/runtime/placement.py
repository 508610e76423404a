"""Device placement: TF device strings -> torch devices.

* No device, or a job/task-only device ("/job:ps/task:0", as replica_device_setter
  writes): the session's default device, cuda:0 when CUDA is usable, else the CPU.
* "/device:GPU:n": cuda:n. Without any usable GPU the op runs on the CPU (soft
  placement, so legacy `tf.device('/gpu:0')` scripts run on CPU-only machines). With
  GPUs but no GPU n: cuda:0 when `allow_soft_placement`, else InvalidArgumentError at
  run time, as TF.
* "/device:CPU:n": the CPU. Ops declared `cpu_only` (py_func, tf.data, readers) always
  run there, and so does every op with a string input or output (TF has no GPU kernels
  for strings; its placer puts such ops on the CPU): their kernels build strings and the
  numbers they yield (string comparisons, hash buckets, table lookups) on the host, and
  the plan then moves those numbers to the GPU ops that consume them.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence, Union

import torch

from tf1compat.framework import dtypes, errors
from tf1compat.framework.device_spec import DeviceSpec

__all__ = ["Placer", "cuda_device_count", "list_local_devices"]

CPU = torch.device("cpu")


def cuda_device_count() -> int:
    try:
        return torch.cuda.device_count() if torch.cuda.is_available() else 0
    except Exception:  # pragma: no cover - broken driver installs
        return 0


class Placer:
    """Resolves op device strings for one session (cached per string).

    `gpus`: True (every CUDA device, in order), False (none), or the CUDA device ids that
    TF's GPU:0, GPU:1, ... stand for (`gpu_options.visible_device_list`).
    """

    def __init__(self, gpus: Union[bool, Sequence[int]] = True,
                 allow_soft_placement: bool = False):
        if gpus is True:
            gpus = list(range(cuda_device_count()))
        self.gpu_ids: List[int] = list(gpus) if gpus else []
        self.gpu_count = len(self.gpu_ids)
        self.allow_soft_placement = allow_soft_placement
        self.default = torch.device("cuda", self.gpu_ids[0]) if self.gpu_count else CPU
        self._cache: Dict[str, Any] = {}

    def tf_device_name(self, device: torch.device) -> str:
        """TF's full name of the device a torch device stands for in this session."""
        if device.type == "cuda":
            index = self.gpu_ids.index(device.index or 0) if (device.index or 0) in \
                self.gpu_ids else device.index or 0
            return f"/job:localhost/replica:0/task:0/device:GPU:{index}"
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    def device_for(self, op: Any) -> torch.device:
        od = op._op_def
        if od.cpu_only or (not od.keeps_devices and _handles_strings(op)):
            return CPU
        name = op._device
        if not name:
            return self.default
        try:
            return self._cache[name]
        except KeyError:
            pass
        spec = DeviceSpec.from_string(name)
        kind = (spec.device_type or "").upper()
        if kind in ("GPU", "XLA_GPU"):
            index = spec.device_index or 0
            if self.gpu_count == 0:
                device = CPU
            elif index < self.gpu_count:
                device = torch.device("cuda", self.gpu_ids[index])
            elif self.allow_soft_placement:
                device = self.default
            else:
                raise errors.op_error(
                    errors.InvalidArgumentError, op,
                    f"Cannot assign a device for operation {op.name}: Could not satisfy "
                    f"explicit device specification '{name}' because no supported kernel for "
                    f"GPU devices is available. Registered devices: "
                    f"{[f'GPU:{i}' for i in range(self.gpu_count)] + ['CPU:0']}")
        elif kind in ("CPU", "XLA_CPU"):
            device = CPU
        elif kind == "":
            device = self.default
        elif self.allow_soft_placement or kind == "TPU":
            device = self.default
        else:
            raise errors.op_error(errors.InvalidArgumentError, op,
                                  f"Cannot assign a device for operation {op.name}: unknown "
                                  f"device type {kind!r} in '{name}'")
        self._cache[name] = device
        return device


def _handles_strings(op: Any) -> bool:
    return any(t._dtype == dtypes.string for t in op._inputs) or \
        any(t._dtype == dtypes.string for t in op._outputs)


class _DeviceAttributes:
    """What `device_lib.list_local_devices()` returns per device."""

    def __init__(self, name: str, device_type: str, memory_limit: int, desc: str):
        self.name = name
        self.device_type = device_type
        self.memory_limit = memory_limit
        self.physical_device_desc = desc
        self.incarnation = hash(name) & 0x7FFFFFFF

    def __repr__(self) -> str:
        return (f'name: "{self.name}"\ndevice_type: "{self.device_type}"\n'
                f'memory_limit: {self.memory_limit}\nincarnation: {self.incarnation}\n'
                f'physical_device_desc: "{self.physical_device_desc}"')


def list_local_devices(session_config: Any = None) -> list:
    """The CPU plus each CUDA device torch sees, named as TF names them."""
    devices = [_DeviceAttributes("/device:CPU:0", "CPU", 268435456, "")]
    for i in range(cuda_device_count()):
        props = torch.cuda.get_device_properties(i)
        desc = f"device: {i}, name: {props.name}, pci bus id: unknown"
        devices.append(_DeviceAttributes(f"/device:GPU:{i}", "GPU", props.total_memory, desc))
    return devices
