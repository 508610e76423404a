"""The ConfigProto options a Session honours or reports (placement itself: placement.py).

* `gpu_options.visible_device_list` ("1", "1,0"): the CUDA devices the session's GPU:0,
  GPU:1, ... are, as TF maps them; "-1" (or `device_count={'GPU': 0}`) means no GPU.
  Without a usable GPU the list is ignored, as a CPU-only TF build does.
* `gpu_options.per_process_gpu_memory_fraction`: torch's per-process memory cap on each
  of the session's GPUs (`torch.cuda.set_per_process_memory_fraction`). TF reserves that
  fraction up front; torch caps its caching allocator there (out-of-memory beyond it, as
  TF). `allow_growth=True` is how torch's allocator always behaves (it grows on demand),
  so there is nothing to set; TF's default of reserving nearly all GPU memory at start
  has no torch counterpart. GPU options torch has nothing for are reported once each.
* `log_device_placement` (`tf.debugging.set_log_device_placement(True)` for sessions
  created without a config, as TF's context config does): the first
  run of a session on a graph, and the first run after the graph grew, print every op's
  device to stdout as TF's placer does (`name: (Type): /job:localhost/.../device:CPU:0`,
  ops without inputs after the others), and log the device mapping when the session is
  created.
"""

from __future__ import annotations

import sys
from typing import Any, Dict, List, Optional, Set

import torch

from tf1compat.framework import errors
from tf1compat.runtime.placement import Placer, cuda_device_count
from tf1compat.util import tf_logging

__all__ = ["visible_gpus", "apply_gpu_memory_options", "PlacementLog", "CONTEXT",
           "context_config", "set_log_device_placement", "get_log_device_placement"]

# The process-wide settings of `tf.config` / `tf.debugging` (TF's eager context): a
# Session created without a config runs with `context_config()`, as TF's does. None
# means "not set" (TF's defaults apply).
CONTEXT: Dict[str, Any] = {"log_device_placement": None, "jit": None,
                           "soft_device_placement": None, "intra_op_threads": None,
                           "inter_op_threads": None, "visible_gpus": None,
                           "memory_growth": None}
_REPORTED: Set[str] = set()

# GPUOptions fields torch's allocator has no setting for (non-default values reported).
_UNSUPPORTED_GPU_OPTIONS = ("allocator_type", "deferred_deletion_bytes",
                            "polling_active_delay_usecs", "polling_inactive_delay_msecs",
                            "force_gpu_compatible")


def set_log_device_placement(enabled: bool) -> None:
    """`tf.debugging.set_log_device_placement`: sessions created afterwards without a
    config log placement."""
    CONTEXT["log_device_placement"] = bool(enabled)


def get_log_device_placement() -> bool:
    """`tf.debugging.get_log_device_placement`."""
    return bool(CONTEXT["log_device_placement"])


def context_config() -> Any:
    """The ConfigProto a Session created without one uses: TF's defaults with the
    `tf.config` settings applied."""
    from tf1compat.runtime.config import ConfigProto, OptimizerOptions
    config = ConfigProto()
    if CONTEXT["jit"] is not None:
        config.graph_options.optimizer_options.global_jit_level = (
            OptimizerOptions.ON_1 if CONTEXT["jit"] else OptimizerOptions.OFF)
    if CONTEXT["intra_op_threads"] is not None:
        config.intra_op_parallelism_threads = CONTEXT["intra_op_threads"]
    if CONTEXT["inter_op_threads"] is not None:
        config.inter_op_parallelism_threads = CONTEXT["inter_op_threads"]
    if CONTEXT["soft_device_placement"] is not None:
        config.allow_soft_placement = CONTEXT["soft_device_placement"]
    if CONTEXT["log_device_placement"] is not None:
        config.log_device_placement = CONTEXT["log_device_placement"]
    if CONTEXT["visible_gpus"] is not None:
        ids = CONTEXT["visible_gpus"]
        config.gpu_options.visible_device_list = ",".join(map(str, ids)) if ids else "-1"
    if CONTEXT["memory_growth"]:
        config.gpu_options.allow_growth = True
    return config


def _report_once(key: str, message: str) -> None:
    if key not in _REPORTED:
        _REPORTED.add(key)
        tf_logging.warning(message)


def visible_gpus(config: Any) -> List[int]:
    """The CUDA device ids the session's GPU:0, GPU:1, ... stand for."""
    available = cuda_device_count()
    if config is None or available == 0:
        return list(range(available))
    counts = getattr(config, "device_count", {}) or {}
    limit = counts.get("GPU", counts.get("gpu", None))
    listed = (getattr(config.gpu_options, "visible_device_list", "") or "").strip()
    if listed == "-1":
        return []
    if listed:
        ids: List[int] = []
        for entry in listed.split(","):
            try:
                ids.append(int(entry))
            except ValueError:
                raise errors.InvalidArgumentError(
                    None, None, f"Could not parse entry in 'visible_device_list': '{entry}'. "
                                f"visible_device_list = {listed}") from None
            if not 0 <= ids[-1] < available:
                raise errors.InvalidArgumentError(
                    None, None, f"'visible_device_list' listed an invalid Device id "
                                f"'{entry}' but visible device count is {available}")
        if len(set(ids)) != len(ids):
            raise errors.InvalidArgumentError(
                None, None, f"visible_device_list contained a duplicate entry: {listed}")
    else:
        ids = list(range(available))
    return ids if limit is None else ids[:max(int(limit), 0)]


def apply_gpu_memory_options(config: Any, gpus: List[int]) -> None:
    """Maps `gpu_options` memory settings onto torch's CUDA allocator (see module doc)."""
    if config is None or not gpus:
        return
    options = config.gpu_options
    fraction = float(getattr(options, "per_process_gpu_memory_fraction", 0.0) or 0.0)
    if fraction > 0:
        if fraction > 1:
            _report_once("fraction>1", "per_process_gpu_memory_fraction > 1 (TF's unified "
                                       "memory oversubscription) has no torch counterpart; "
                                       "torch's allocator is capped at the whole GPU")
        for gpu in gpus:
            torch.cuda.set_per_process_memory_fraction(min(fraction, 1.0), gpu)
    for field in _UNSUPPORTED_GPU_OPTIONS:
        value = getattr(options, field, None)
        if value:
            _report_once(field, f"gpu_options.{field}={value!r} has no counterpart in "
                                "torch's CUDA allocator and is ignored")


class PlacementLog:
    """Prints TF's device-placement lines for one session (see module doc)."""

    def __init__(self, config: Any, placer: Placer):
        self.enabled = bool(getattr(config, "log_device_placement", False))
        self._placer = placer
        self._placed: Optional[tuple] = None
        if self.enabled:
            tf_logging.info(self._device_mapping())

    def _device_mapping(self) -> str:
        if not self._placer.gpu_ids:
            return "Device mapping: no known devices."
        lines = []
        for k, gpu in enumerate(self._placer.gpu_ids):
            props = torch.cuda.get_device_properties(gpu)
            lines.append(f"/job:localhost/replica:0/task:0/device:GPU:{k} -> device: {gpu}, "
                         f"name: {props.name}, pci bus id: unknown, compute capability: "
                         f"{props.major}.{props.minor}")
        return "Device mapping:\n" + "\n".join(lines)

    def maybe_log(self, graph: Any) -> None:
        """Prints every op's device when the graph is new to this session or has grown."""
        if not self.enabled:
            return
        version = (graph._next_id, graph._structure_version)
        if version == self._placed:
            return
        self._placed = version
        ops = graph.get_operations()
        # TF's placer assigns ops without inputs ("generators") in a second pass.
        generators = [op for op in ops if not op._inputs and len(op._outputs) == 1 and
                      not op._outputs[0].dtype._is_ref_dtype]
        first = [op for op in ops if op not in set(generators)]
        lines = []
        for op in first + generators:
            try:
                device = self._placer.device_for(op)
            except errors.OpError:
                continue
            name = self._placer.tf_device_name(device)
            lines.append(f"{op.name}: ({op.type}): {name}\n")
            tf_logging.info(f"{op.name}: ({op.type}): {name}")
        sys.stdout.write("".join(lines))
        sys.stdout.flush()
