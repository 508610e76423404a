"""`tf.distribute` (TF1 API, graph mode): in-graph replication over the local devices
(tf1compat/training/strategies/, docs/distributed.md)."""

# ruff: noqa: F401
from tf1compat.distribute.server import Server
from tf1compat.training.strategies.cross_device_ops import (CrossDeviceOps,
                                                            HierarchicalCopyAllReduce,
                                                            NcclAllReduce, ReductionToOneDevice)
from tf1compat.training.strategies.distribute_lib import (
    InputContext, InputReplicationMode, ReplicaContext, Strategy, StrategyExtended,
    experimental_set_strategy, get_loss_reduction, get_replica_context, get_strategy,
    has_strategy, in_cross_replica_context)
from tf1compat.training.strategies.mirrored import MirroredStrategy, OneDeviceStrategy
from tf1compat.training.strategies.values import ReduceOp
from tf1compat.api import distribute_experimental as experimental
from tf1compat.api import distribute_cluster_resolver as cluster_resolver


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('distribute', globals())
