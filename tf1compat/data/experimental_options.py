"""`tf.data.Options` and its groups (`tf.data.experimental.*Options`) with TF's schema.

Each options class declares its properties and their types as TF's do: setting an
unknown property is AttributeError ("Cannot set the property x on Options."), a value of
the wrong type TypeError, an unset property reads as its default (None, or a fresh
group). The values are kept and compared (`==`, `merge`) but change nothing in
tf1compat's pipelines, which compute elements one at a time on demand: there are no
threadpools, autotuning, static optimizations, auto-sharding or tf.data service.
"""

from __future__ import annotations

import enum
from typing import Any, Callable, Dict, Optional, Tuple

__all__ = ["AutotuneAlgorithm", "AutoShardPolicy", "ExternalStatePolicy", "OptionsBase",
           "AutotuneOptions", "DistributeOptions", "OptimizationOptions", "ServiceOptions",
           "ThreadingOptions", "Options"]


class AutotuneAlgorithm(enum.Enum):
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class AutoShardPolicy(enum.IntEnum):
    """How a distributed dataset is sharded across workers (kept, no effect here)."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    WARN = 0
    IGNORE = 1
    FAIL = 2


# property name -> (type, default factory or None)
_Schema = Dict[str, Tuple[type, Optional[Callable[[], Any]]]]


class OptionsBase:
    """A set of typed properties, all unset (None or a default group) at first."""

    _schema: _Schema = {}

    def __init__(self) -> None:
        object.__setattr__(self, "_values", {})

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        schema = type(self)._schema
        if name not in schema:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")
        values = object.__getattribute__(self, "_values")
        if name not in values:
            factory = schema[name][1]
            if factory is None:
                return None
            values[name] = factory()
        return values[name]

    def __setattr__(self, name: str, value: Any) -> None:
        schema = type(self)._schema
        if name not in schema:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = schema[name][0]
        if value is not None and not isinstance(value, kind):
            raise TypeError(f"Property \"{name}\" must be of type {kind}, got: {value} "
                            f"(type: {type(value)})")
        object.__getattribute__(self, "_values")[name] = value

    def __eq__(self, other: Any) -> bool:
        if type(self) is not type(other):
            return NotImplemented
        return all(getattr(self, n) == getattr(other, n) for n in type(self)._schema)

    def __ne__(self, other: Any) -> bool:
        equal = self.__eq__(other)
        return equal if equal is NotImplemented else not equal

    __hash__ = None  # type: ignore[assignment] - mutable, compared by value as TF's

    def _merge(self, other: "OptionsBase") -> "OptionsBase":
        result = type(self)()
        for name in type(self)._schema:
            mine, theirs = getattr(self, name), getattr(other, name)
            if isinstance(mine, OptionsBase):
                setattr(result, name, mine._merge(theirs))
            else:
                setattr(result, name, theirs if theirs is not None else mine)
        return result


def _flags(*names: str, kind: type = bool) -> _Schema:
    return {n: (kind, None) for n in names}


class AutotuneOptions(OptionsBase):
    """`tf.data.experimental.AutotuneOptions`."""
    _schema = {**_flags("enabled"), **_flags("cpu_budget", "ram_budget", "initial_parallelism",
                                             "min_parallelism", kind=int),
               "autotune_algorithm": (AutotuneAlgorithm, None)}


class DistributeOptions(OptionsBase):
    """`tf.data.experimental.DistributeOptions` (`Options().experimental_distribute`)."""
    _schema = {"auto_shard_policy": (AutoShardPolicy, lambda: AutoShardPolicy.AUTO),
               "num_devices": (int, None)}


class OptimizationOptions(OptionsBase):
    """`tf.data.experimental.OptimizationOptions` (`Options().experimental_optimization`)."""
    _schema = _flags("apply_default_optimizations", "filter_fusion", "filter_parallelization",
                     "inject_prefetch", "seq_interleave_prefetch", "map_and_batch_fusion",
                     "map_and_filter_fusion", "map_fusion", "map_parallelization",
                     "noop_elimination", "parallel_batch", "shuffle_and_repeat_fusion")


class ServiceOptions(OptionsBase):
    """`tf.data.experimental.ServiceOptions` (`Options().experimental_service`)."""
    _schema = _flags("pinned")


class ThreadingOptions(OptionsBase):
    """`tf.data.ThreadingOptions` (`Options().threading`)."""
    _schema = _flags("max_intra_op_parallelism", "private_threadpool_size", kind=int)


class Options(OptionsBase):
    """`tf.data.Options`: accepted and kept; they do not change tf1compat's results."""
    _schema = {"autotune": (AutotuneOptions, AutotuneOptions),
               **_flags("deterministic", "experimental_deterministic", "experimental_slack",
                        "experimental_symbolic_checkpoint", "experimental_warm_start"),
               "experimental_distribute": (DistributeOptions, DistributeOptions),
               "experimental_external_state_policy": (ExternalStatePolicy, None),
               "experimental_optimization": (OptimizationOptions, OptimizationOptions),
               "experimental_service": (ServiceOptions, ServiceOptions),
               "experimental_threading": (ThreadingOptions, ThreadingOptions),
               "dataset_name": (str, None), "framework_type": (list, None),
               "threading": (ThreadingOptions, ThreadingOptions)}

    def merge(self, options: "Options") -> "Options":
        """These options overridden by the properties `options` sets."""
        return self._merge(options)  # type: ignore[return-value]
