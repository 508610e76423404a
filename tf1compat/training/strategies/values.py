"""The values a distribution strategy hands around: `tf.distribute.ReduceOp`, and
`PerReplica` / `Mirrored` (one value per replica, what `strategy.run` returns and
`merge_call` receives).

`regroup` packs the replicas' results of one structure into one structure of
per-replica values, as TF's `distribute_utils.regroup`: lists, tuples (namedtuples such
as EstimatorSpec too) and dicts are regrouped element by element, and an object that is
the same for every replica (a variable shared by all, an op) stays itself.
`select_replica(k, x)` is the inverse: replica k's part of every per-replica value.
"""

from __future__ import annotations

import enum
from typing import Any, List, Sequence, Tuple

__all__ = ["ReduceOp", "DistributedValues", "PerReplica", "Mirrored", "regroup",
           "select_replica", "local_results"]


class ReduceOp(enum.Enum):
    """`tf.distribute.ReduceOp`: how values of the replicas combine into one."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation: Any) -> "ReduceOp":
        """ReduceOp for a `tf.VariableAggregation` (SUM, MEAN); ValueError otherwise."""
        name = getattr(aggregation, "name", str(aggregation)).upper()
        if name in ("SUM", "MEAN"):
            return ReduceOp[name]
        raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to"
                         "`tf.distribute.ReduceOp` type")

    def __str__(self) -> str:
        return f"ReduceOp.{self.name}"


class DistributedValues:
    """One value per replica (TF's base class of PerReplica and Mirrored)."""

    def __init__(self, values: Sequence[Any]):
        self._values = tuple(values)

    @property
    def values(self) -> Tuple[Any, ...]:
        return self._values

    def _get(self, replica_id: int = 0) -> Any:
        return self._values[replica_id]

    def __repr__(self) -> str:
        body = ",\n".join(f"  {i}: {v}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{body}\n}}"

    __str__ = __repr__


class PerReplica(DistributedValues):
    """Values that may differ per replica: `strategy.run`'s results, per-replica inputs."""


class Mirrored(DistributedValues):
    """Values equal on every replica (the result of an all-reduce)."""


def local_results(value: Any, num_replicas: int = 1) -> Tuple[Any, ...]:
    """`strategy.experimental_local_results`: the replicas' values as a tuple (of
    structures, for a structure holding per-replica values)."""
    if isinstance(value, DistributedValues):
        return value.values
    if isinstance(value, (list, tuple, dict)):
        return tuple(select_replica(k, value) for k in range(num_replicas))
    return (value,)


def regroup(values: List[Any], wrap_class: type = PerReplica, always_wrap: bool = False
            ) -> Any:
    """Per-replica structures -> one structure of per-replica values."""
    v0 = values[0]
    if isinstance(v0, list):
        for v in values[1:]:
            _check_same_structure(v0, v, list)
        return [regroup(list(t), wrap_class, always_wrap) for t in zip(*values)]
    if isinstance(v0, tuple):
        for v in values[1:]:
            _check_same_structure(v0, v, tuple)
        parts = [regroup(list(t), wrap_class, always_wrap) for t in zip(*values)]
        if hasattr(v0, "_fields"):          # a namedtuple (EstimatorSpec, ...)
            return type(v0)._make(parts)
        return tuple(parts)
    if isinstance(v0, dict):
        keys = set(v0)
        for v in values[1:]:
            if not isinstance(v, dict) or set(v) != keys:
                raise AssertionError(f"Replicas returned dicts with different keys: "
                                     f"{sorted(keys)} vs {sorted(v)}")
        return type(v0)((k, regroup([v[k] for v in values], wrap_class, always_wrap))
                        for k in v0)
    if all(v is v0 for v in values[1:]) and not always_wrap:
        return v0
    return wrap_class(values)


def _check_same_structure(v0: Any, v: Any, kind: type) -> None:
    if not isinstance(v, kind) or len(v) != len(v0):
        raise AssertionError(f"Replicas returned different structures: {v0} vs {v}")


def select_replica(replica_id: int, structured: Any) -> Any:
    """Replica `replica_id`'s part of `structured` (other values pass through)."""
    def _get(x: Any) -> Any:
        return x._get(replica_id) if isinstance(x, DistributedValues) else x
    return _map(_get, structured)


def _map(fn: Any, structured: Any) -> Any:
    """map over lists, tuples (namedtuples), dicts; other objects are leaves."""
    if isinstance(structured, DistributedValues):
        return fn(structured)
    if isinstance(structured, list):
        return [_map(fn, x) for x in structured]
    if isinstance(structured, tuple):
        parts = [_map(fn, x) for x in structured]
        return type(structured)._make(parts) if hasattr(structured, "_fields") else \
            tuple(parts)
    if isinstance(structured, dict):
        return type(structured)((k, _map(fn, v)) for k, v in structured.items())
    return fn(structured)
