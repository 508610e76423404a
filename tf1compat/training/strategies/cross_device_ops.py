"""`tf.distribute.CrossDeviceOps` and its kinds (`ReductionToOneDevice`, `NcclAllReduce`,
`HierarchicalCopyAllReduce`): how a MirroredStrategy combines the replicas' values.

The replicas of one process share their variables (mirrored.py), so every kind reduces the
same way: the values are added on the first value's device (`AddN`; IndexedSlices are
concatenated, as TF's aggregation does) and MEAN divides by the number of replicas. The
algorithm names are accepted so that scripts choosing one run unchanged; on GPUs the
transfers are torch's device copies, not NCCL collectives.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from tf1compat.training.strategies.values import ReduceOp

__all__ = ["CrossDeviceOps", "ReductionToOneDevice", "NcclAllReduce",
           "HierarchicalCopyAllReduce", "AllReduceCrossDeviceOps"]


class CrossDeviceOps:
    """`tf.distribute.CrossDeviceOps`: base class of the reduction algorithms."""

    def _reduce(self, reduce_op: ReduceOp, values: List[Any]) -> Any:
        from tf1compat.framework.indexed_slices import IndexedSlices
        from tf1compat.ops import math_ops, array_ops
        if not values:
            raise ValueError("`per_replica_value` must be non-empty")
        count = len(values)
        if any(isinstance(v, IndexedSlices) for v in values):
            slices = [v if isinstance(v, IndexedSlices) else _as_slices(v) for v in values]
            reduced: Any = slices[0] if count == 1 else IndexedSlices(
                array_ops.concat([s.values for s in slices], 0),
                array_ops.concat([s.indices for s in slices], 0), slices[0].dense_shape)
            if reduce_op == ReduceOp.MEAN and count > 1:
                reduced = IndexedSlices(math_ops.truediv(reduced.values, count),
                                        reduced.indices, reduced.dense_shape)
            return reduced
        reduced = values[0] if count == 1 else math_ops.add_n(values)
        if reduce_op == ReduceOp.MEAN and count > 1:
            reduced = math_ops.truediv(reduced, count)
        return reduced


def _as_slices(dense: Any) -> Any:
    from tf1compat.framework.indexed_slices import IndexedSlices
    from tf1compat.ops import array_ops
    from tf1compat.ops.creation_ops import range as range_op
    shape = array_ops.shape(dense)
    return IndexedSlices(dense, range_op(shape[0]), shape)


class ReductionToOneDevice(CrossDeviceOps):
    """`tf.distribute.ReductionToOneDevice(reduce_to_device=None, accumulation_fn=None)`."""

    def __init__(self, reduce_to_device: Optional[str] = None,
                 accumulation_fn: Optional[Callable[..., Any]] = None):
        self.reduce_to_device = reduce_to_device
        self.accumulation_fn = accumulation_fn


class _AllReduce(CrossDeviceOps):
    def __init__(self, num_packs: int = 1):
        if num_packs < 0:
            raise ValueError(f"NCCL all-reduce requires num_packs >= 0, but {num_packs} is "
                             "specified")
        self._num_packs = num_packs


class NcclAllReduce(_AllReduce):
    """`tf.distribute.NcclAllReduce(num_packs=1)`."""


class HierarchicalCopyAllReduce(_AllReduce):
    """`tf.distribute.HierarchicalCopyAllReduce(num_packs=1)`."""


class AllReduceCrossDeviceOps(_AllReduce):
    """`tf.contrib.distribute.AllReduceCrossDeviceOps(all_reduce_alg="nccl", num_packs=1)`."""

    def __init__(self, all_reduce_alg: str = "nccl", num_packs: int = 1):
        super().__init__(num_packs)
        self._all_reduce_alg = all_reduce_alg
