"""`tf.contrib.distribute` (TF 1.13-1.15): the contrib spellings of tf.distribute's
in-graph strategies — `MirroredStrategy(devices=None, num_gpus=None, ...)`,
`OneDeviceStrategy`, the cross-device ops, `DistributionStrategy` (= tf.distribute's
Strategy) and the context functions under their old names, and the multi-worker
`CollectiveAllReduceStrategy(num_gpus_per_worker)` (distribute/multi_worker_strategy.py,
above this layer: api/distribute_experimental.py fills it into `FILLED_FROM_ABOVE`).
The parameter-server and TPU strategies raise an error naming them."""

# ruff: noqa: F401
from tf1compat.training.strategies.cross_device_ops import (
    AllReduceCrossDeviceOps, CrossDeviceOps, HierarchicalCopyAllReduce, NcclAllReduce,
    ReductionToOneDevice)
from tf1compat.training.strategies.distribute_lib import (
    ReplicaContext, Strategy as DistributionStrategy, StrategyExtended as
    DistributionStrategyExtended, get_cross_replica_context, get_loss_reduction,
    get_replica_context, get_strategy, has_strategy, in_cross_replica_context)
from tf1compat.training.strategies.mirrored import (ContribMirroredStrategy as
                                                    MirroredStrategy, OneDeviceStrategy)
from tf1compat.training.strategies.values import ReduceOp
from tf1compat.contrib._missing import missing as _missing

ReductionToOneDeviceCrossDeviceOps = ReductionToOneDevice
AllReduceCrossTowerOps = AllReduceCrossDeviceOps
get_distribution_strategy = get_strategy
has_distribution_strategy = has_strategy


def require_replica_context(replica_ctx: ReplicaContext) -> None:
    """Raises RuntimeError unless `replica_ctx` is the current replica context."""
    context = get_replica_context()
    if context is None:
        raise RuntimeError("Need to be inside `call_for_each_replica()`")
    if context is not replica_ctx:
        raise RuntimeError("Using wrong replica context.")


# Names whose classes live in a higher layer (distribute/), set by api/.
FILLED_FROM_ABOVE: dict = {}
_missing_name = _missing("tf.contrib.distribute")


def __getattr__(name: str) -> object:
    if name in FILLED_FROM_ABOVE:
        return FILLED_FROM_ABOVE[name]
    return _missing_name(name)
