"""`tf.ConfigProto`, `GPUOptions`, `RunOptions`, `RunMetadata` and friends.

These are protocol-buffer messages in TF. Legacy code builds them with keyword arguments
and sets nested fields (`config.gpu_options.allow_growth = True`), so each is a small
message-like class with TF's field names and defaults; an unknown field raises
ValueError/AttributeError as protobuf does. The session reads the fields that mean
something on torch (device_count, allow_soft_placement, thread counts, JIT level).
"""

from __future__ import annotations

from typing import Any, Dict, Tuple

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions",
           "RunMetadata", "RewriterConfig", "ThreadPoolOptionProto", "Experimental"]


class _Message:
    """A minimal protobuf-like message: declared fields, nested messages, defaults."""

    _FIELDS: Dict[str, Any] = {}

    def __init__(self, **kwargs: Any):
        for name, default in self._FIELDS.items():
            if isinstance(default, type) and issubclass(default, _Message):
                value = default()
            elif isinstance(default, (list, dict)):
                value = type(default)(default)
            else:
                value = default
            object.__setattr__(self, name, value)
        for name, value in kwargs.items():
            if name not in self._FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" field.')
            kind = self._FIELDS[name]
            if isinstance(kind, type) and issubclass(kind, _Message) and isinstance(value, dict):
                value = kind(**value)
            setattr(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in self._FIELDS:
            raise AttributeError(f'Assignment not allowed (no field "{name}" in protocol '
                                 f'message object).')
        object.__setattr__(self, name, value)

    def HasField(self, name: str) -> bool:  # noqa: N802 - protobuf API
        return getattr(self, name) != _default_of(self._FIELDS[name])

    def CopyFrom(self, other: "_Message") -> None:  # noqa: N802
        for name in self._FIELDS:
            object.__setattr__(self, name, getattr(other, name))

    def MergeFrom(self, other: "_Message") -> None:  # noqa: N802
        for name, kind in self._FIELDS.items():
            value = getattr(other, name)
            if value != _default_of(kind):
                object.__setattr__(self, name, value)

    def SerializeToString(self) -> bytes:  # noqa: N802
        return repr(self).encode()

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other) and all(
            getattr(self, n) == getattr(other, n) for n in self._FIELDS)

    def __repr__(self) -> str:
        parts = []
        for name, kind in self._FIELDS.items():
            value = getattr(self, name)
            if value != _default_of(kind):
                parts.append(f"{name}: {value!r}")
        return "\n".join(parts)


def _default_of(kind: Any) -> Any:
    if isinstance(kind, type) and issubclass(kind, _Message):
        return kind()
    return kind


class OptimizerOptions(_Message):
    DEFAULT = 0
    OFF = -1
    ON_1 = 1
    ON_2 = 2
    L1 = 0
    L0 = -1
    _FIELDS = {"do_common_subexpression_elimination": False, "do_constant_folding": False,
               "max_folded_constant_in_bytes": 0, "do_function_inlining": False,
               "opt_level": 0, "global_jit_level": 0, "cpu_global_jit": False}


class RewriterConfig(_Message):
    ON = 1
    OFF = 2
    DEFAULT = 0
    AGGRESSIVE = 3
    _FIELDS = {"layout_optimizer": 0, "constant_folding": 0, "arithmetic_optimization": 0,
               "memory_optimization": 0, "disable_model_pruning": False,
               "auto_mixed_precision": 0, "remapping": 0, "dependency_optimization": 0}


class GraphOptions(_Message):
    _FIELDS = {"enable_recv_scheduling": False, "optimizer_options": OptimizerOptions,
               "build_cost_model": 0, "build_cost_model_after": 0, "infer_shapes": False,
               "place_pruned_graph": False, "enable_bfloat16_sendrecv": False,
               "timeline_step": 0, "rewrite_options": RewriterConfig}


class _GPUExperimental(_Message):
    _FIELDS = {"virtual_devices": [], "use_unified_memory": False,
               "num_dev_to_dev_copy_streams": 0, "collective_ring_order": "",
               "timestamped_allocator": False}


class GPUOptions(_Message):
    Experimental = _GPUExperimental
    _FIELDS = {"per_process_gpu_memory_fraction": 0.0, "allow_growth": False,
               "allocator_type": "", "deferred_deletion_bytes": 0, "visible_device_list": "",
               "polling_active_delay_usecs": 0, "polling_inactive_delay_msecs": 0,
               "force_gpu_compatible": False, "experimental": _GPUExperimental}


class ThreadPoolOptionProto(_Message):
    _FIELDS = {"num_threads": 0, "global_name": ""}


class Experimental(_Message):
    _FIELDS = {"collective_group_leader": "", "executor_type": "",
               "recv_buf_max_chunk": 0, "use_numa_affinity": False,
               "disable_output_partition_graphs": False}


class ConfigProto(_Message):
    Experimental = Experimental
    _FIELDS = {"device_count": {}, "intra_op_parallelism_threads": 0,
               "inter_op_parallelism_threads": 0, "use_per_session_threads": False,
               "session_inter_op_thread_pool": [], "placement_period": 0,
               "device_filters": [], "gpu_options": GPUOptions,
               "allow_soft_placement": False, "log_device_placement": False,
               "graph_options": GraphOptions, "operation_timeout_in_ms": 0,
               "rpc_options": None, "cluster_def": None, "isolate_session_state": False,
               "share_cluster_devices_in_session": False, "experimental": Experimental}


class RunOptions(_Message):
    NO_TRACE = 0
    SOFTWARE_TRACE = 1
    HARDWARE_TRACE = 2
    FULL_TRACE = 3
    TraceLevel = type("TraceLevel", (), {"NO_TRACE": 0, "SOFTWARE_TRACE": 1,
                                         "HARDWARE_TRACE": 2, "FULL_TRACE": 3})
    _FIELDS = {"trace_level": 0, "timeout_in_ms": 0, "inter_op_thread_pool": 0,
               "output_partition_graphs": False, "debug_options": None,
               "report_tensor_allocations_upon_oom": False, "experimental": None}


class _StepStats(_Message):
    _FIELDS = {"dev_stats": []}


class RunMetadata(_Message):
    _FIELDS = {"step_stats": _StepStats, "cost_graph": None, "partition_graphs": [],
               "function_graphs": []}


def device_settings(config: Any) -> Tuple[bool, bool]:
    """(gpus_allowed, allow_soft_placement) from a ConfigProto or None."""
    if config is None:
        return True, False
    counts = getattr(config, "device_count", {}) or {}
    gpus = counts.get("GPU", counts.get("gpu", None))
    visible = getattr(getattr(config, "gpu_options", None), "visible_device_list", "")
    return (gpus is None or gpus > 0) and visible != "-1", bool(config.allow_soft_placement)
