"""`tf.ConfigProto`, `GPUOptions`, `GraphOptions`, `RunOptions`, `RunMetadata` and friends.

These are TF's protocol-buffer messages (generated classes of
serialization/protos/config.proto, with TF's field names, numbers and enums), so legacy
code builds and edits them as it does with TF (`config.gpu_options.allow_growth = True`,
`ConfigProto(device_count={"GPU": 0})`), and `SerializeToString` / `str()` give TF's
forms. The session reads the fields that mean something on torch (device_count,
allow_soft_placement, thread counts, JIT level); a traced run (RunOptions.trace_level)
fills RunMetadata.step_stats (runtime/step_stats.py).
"""

from __future__ import annotations

from typing import Any, Tuple

from tf1compat.serialization.protos.config_pb2 import (ConfigProto, GPUOptions, GraphOptions,
                                                       OptimizerOptions, RewriterConfig,
                                                       RunMetadata, RunOptions, StepStats,
                                                       ThreadPoolOptionProto)

__all__ = ["ConfigProto", "GPUOptions", "GraphOptions", "OptimizerOptions", "RunOptions",
           "RunMetadata", "RewriterConfig", "ThreadPoolOptionProto", "Experimental",
           "StepStats", "device_settings"]

Experimental = ConfigProto.Experimental


def device_settings(config: Any) -> Tuple[bool, bool]:
    """(gpus_allowed, allow_soft_placement) from a ConfigProto or None."""
    if config is None:
        return True, False
    counts = getattr(config, "device_count", {}) or {}
    gpus = counts.get("GPU", counts.get("gpu", None))
    visible = getattr(getattr(config, "gpu_options", None), "visible_device_list", "")
    return (gpus is None or gpus > 0) and visible != "-1", bool(config.allow_soft_placement)
