"""`tf.distribute.experimental.MultiWorkerMirroredStrategy` (TF1 API; TF's
CollectiveAllReduceStrategyV1): synchronous
replicas in several processes (one per worker of a TF_CONFIG cluster, or of a torchrun /
`tf1compat run --nproc-per-node` job), on torch.distributed collectives.

Between-graph replication, as TF: every worker builds the same graph and runs it in its own
session. Within a worker the replicas run as MirroredStrategy's (mirrored.py: replica
threads, variables shared by the local replicas); across workers:

* the process group is formed from TF_CONFIG (`chief` task first, then the `worker` tasks:
  TF's task order; torch's store listens on the first task's address) or from torch's
  launcher environment; gloo for CPU tensors, NCCL for CUDA ones (process_group.py);
* variables made in `scope()` take their initial value from worker 0: its initializer
  sends (`CollectiveBcastSend`), the others' receive (`CollectiveBcastRecv`), as TF's
  collective variable creator;
* reductions (`reduce`, `ReplicaContext.all_reduce`, optimizers' `apply_gradients` through
  `batch_reduce_to`) add the local replicas' values, then all-reduce across workers with
  `CollectiveReduce` (dense tensors of one dtype packed into one op) or gather
  IndexedSlices with `CollectiveGather`; MEAN divides by the global number of replicas;
* input: `make_dataset_iterator` / `experimental_distribute_dataset` split each global
  batch into `num_replicas_in_sync` parts and this worker's replicas take theirs;
  `make_input_fn_iterator` calls `input_fn` with `InputContext(num_input_pipelines=
  workers, input_pipeline_id=worker index)`;
* the chief (the `chief` task, else worker 0) checkpoints and writes summaries
  (`extended.should_checkpoint`, `should_save_summary`); every worker initializes.

Without a cluster (no TF_CONFIG cluster, no launcher) the strategy is MirroredStrategy on
the local devices, as TF's.
"""

from __future__ import annotations

import enum
import os
import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.distribute import process_group as pg
from tf1compat.distribute import tf_collective_ops as collective
from tf1compat.training.cluster_resolver import (SimpleClusterResolver,
                                                   TFConfigClusterResolver)
from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.training.strategies.distribute_lib import ClusterStrategy, Strategy
from tf1compat.training.strategies.mirrored import (MirroredExtended, all_local_devices,
                                                    canonical_device,
                                                    _reduce_non_distributed)
from tf1compat.training.strategies.values import DistributedValues, Mirrored, ReduceOp

__all__ = ["CollectiveAllReduceStrategy", "CollectiveCommunication",
           "CommunicationImplementation", "CommunicationOptions", "MultiWorkerMirroredStrategy"]


class CollectiveCommunication(enum.Enum):
    """`tf.distribute.experimental.CollectiveCommunication` (also
    `CommunicationImplementation`): the collective implementation asked for. Here gloo
    carries CPU tensors and NCCL CUDA tensors whichever is named."""

    AUTO = "AUTO"
    RING = "RING"
    NCCL = "NCCL"


CommunicationImplementation = CollectiveCommunication


class CommunicationOptions:
    """`tf.distribute.experimental.CommunicationOptions(bytes_per_pack=0,
    timeout_seconds=None, implementation=AUTO)`."""

    def __init__(self, bytes_per_pack: int = 0, timeout_seconds: Optional[float] = None,
                 implementation: Any = CollectiveCommunication.AUTO):
        if bytes_per_pack < 0:
            raise ValueError(f"Argument `bytes_per_pack` must be >=0, Received "
                             f"{bytes_per_pack}.")
        self.bytes_per_pack = bytes_per_pack
        self.timeout_seconds = timeout_seconds
        self.implementation = _as_communication(implementation)


def _as_communication(value: Any) -> CollectiveCommunication:
    if isinstance(value, CollectiveCommunication):
        return value
    if isinstance(value, str):
        try:
            return CollectiveCommunication(value.upper())
        except ValueError:
            pass
    raise ValueError(f"{value!r} is not a valid CommunicationImplementation")


# -- the cluster ------------------------------------------------------------------------------

class _Place:
    """This process's place among the workers (TF's task order: chief, then workers)."""

    def __init__(self, task_type: str, task_id: int, num_workers: int, rank: int,
                 rendezvous: Optional[str], hosts: Optional[List[str]] = None):
        self.task_type, self.task_id = task_type, task_id
        self.num_workers, self.rank, self.rendezvous = num_workers, rank, rendezvous
        # The host of every task in rank order (TF_CONFIG's addresses): tasks on this
        # task's host share its GPUs, which decides the backend and each one's GPU.
        self.hosts = hosts or []

    def world(self) -> pg.World:
        """This task's place in the process group: local rank and size among the tasks
        on its own host, cross rank and size among the hosts."""
        if not self.hosts:
            return pg.World(self.rank, self.num_workers, 0, 1, self.rank, self.num_workers)
        mine = _same_host_key(self.hosts[self.rank])
        keys = [_same_host_key(h) for h in self.hosts]
        local = [r for r, k in enumerate(keys) if k == mine]
        distinct = list(dict.fromkeys(keys))
        return pg.World(self.rank, self.num_workers, local.index(self.rank), len(local),
                        distinct.index(mine), len(distinct))


_LOOPBACK = {"localhost", "127.0.0.1", "::1", "[::1]", "0.0.0.0"}


def _same_host_key(address: str) -> str:
    """'host:port' -> the host, with every loopback spelling as one host."""
    host = address.rsplit(":", 1)[0] if ":" in address else address
    return "localhost" if host in _LOOPBACK else host


def _place(cluster_resolver: Any) -> Optional[_Place]:
    """From a cluster resolver (TF_CONFIG by default) or torch's launcher; None: local."""
    resolver = cluster_resolver or TFConfigClusterResolver()
    spec = resolver.cluster_spec()
    jobs = spec.as_dict() if spec else {}
    if jobs and resolver.task_type not in ("evaluator",):
        tasks: List[Tuple[str, int, str]] = []
        for job in ("chief", "worker"):
            addresses = jobs.get(job, [])
            if isinstance(addresses, dict):
                addresses = [addresses[i] for i in sorted(addresses)]
            tasks.extend((job, i, a) for i, a in enumerate(addresses))
        if not tasks:
            raise ValueError(f"The cluster has no chief or worker tasks: {jobs}")
        if resolver.task_type not in ("chief", "worker"):
            raise ValueError(f"Unrecognized task_type: {resolver.task_type!r}, valid task "
                             "types are: \"chief\", \"worker\", \"evaluator\" and \"ps\".")
        order = [(job, i) for job, i, _ in tasks]
        rank = order.index((resolver.task_type, int(resolver.task_id)))
        return _Place(resolver.task_type, int(resolver.task_id), len(tasks), rank,
                      tasks[0][2], [a for _, _, a in tasks])
    if int(os.environ.get("WORLD_SIZE", "1") or 1) > 1:       # torchrun / tf1compat run
        world = pg.init()
        return _Place("worker", world.rank, world.size, world.rank, None)
    return None


def _device_only(device: str) -> str:
    """'/job:localhost/replica:0/task:0/device:GPU:1' -> '/device:GPU:1'."""
    return "/device:" + device.rsplit("/device:", 1)[1] if "/device:" in device else device


# -- the strategy -----------------------------------------------------------------------------

_GROUP_KEY = 1       # one collective group: every worker of the job


class MultiWorkerExtended(MirroredExtended):
    """Replicas on this worker's devices; reductions across the workers' processes."""

    def __init__(self, container: Strategy, cluster_resolver: Any,
                 communication: CollectiveCommunication, local_devices: Optional[tuple]):
        self._communication = communication
        self._cluster_resolver = cluster_resolver
        self._local_devices_asked = local_devices
        self._keys_lock = threading.Lock()
        self._next_instance_key = 1
        self._setup(_place(cluster_resolver))
        super().__init__(container, self._local_devices(), None)

    def _setup(self, place: Optional[_Place]) -> None:
        self._place = place
        self._num_workers = place.num_workers if place else 1
        self._is_chief = place is None or place.task_type == "chief" or (
            place.rank == 0 and place.task_type == "worker")
        if place is not None and place.num_workers > 1:
            pg.init(place.world() if place.rendezvous else None, place.rendezvous)

    def _local_devices(self) -> tuple:
        if self._local_devices_asked is not None:
            local = self._local_devices_asked
        elif self._place is not None and pg.is_initialized() and \
                pg.world().local_size > 1 and "/device:GPU:" in all_local_devices()[0]:
            # Several processes on one machine's GPUs: each drives its local rank's (more
            # processes than GPUs share them round robin, over gloo: backend_name).
            gpus = [d for d in all_local_devices() if "/device:GPU:" in d]
            local = (gpus[pg.world().local_rank % len(gpus)],)
        else:
            local = all_local_devices()
        if self._place is None:
            return tuple(canonical_device(d, "localhost") for d in local)
        job, task = self._place.task_type, self._place.task_id
        return tuple(canonical_device(_device_only(d), job).replace(
            "/task:0/", f"/task:{task}/") for d in local)

    # -- where this worker stands ---------------------------------------------------------------
    @property
    def _replica_id_offset(self) -> int:          # type: ignore[override]
        return (self._place.rank if self._place else 0) * len(self._devices)

    @property
    def _num_input_pipelines(self) -> int:        # type: ignore[override]
        return self._num_workers

    @property
    def _input_pipeline_id(self) -> int:          # type: ignore[override]
        return self._place.rank if self._place else 0

    def _in_multi_worker_mode(self) -> bool:
        return self._num_workers > 1

    @property
    def experimental_between_graph(self) -> bool:
        return True

    @property
    def experimental_should_init(self) -> bool:
        return True

    @property
    def should_checkpoint(self) -> bool:
        return self._is_chief

    @property
    def should_save_summary(self) -> bool:
        return self._is_chief

    def _instance_key(self) -> int:
        with self._keys_lock:
            key = self._next_instance_key
            self._next_instance_key += 1
            return key

    # -- variables: worker 0's initial values -----------------------------------------------
    def _create_variable(self, next_creator: Callable[..., Any], kwargs: Dict[str, Any]
                         ) -> Any:
        if self._num_workers == 1:
            return next_creator(**kwargs)
        initial_value = kwargs.get("initial_value")
        dtype = kwargs.get("dtype")
        key = self._instance_key()

        def broadcast_initial_value() -> Any:
            from tf1compat.framework.tensor_conversion import convert_to_tensor
            value = initial_value() if callable(initial_value) else initial_value
            value = convert_to_tensor(value, dtype=dtype)
            if self._place.rank == 0:
                return collective.broadcast_send(value, self._num_workers, _GROUP_KEY, key)
            # The receivers compute the value too (and drop it): their collective then has
            # the same dependency depth as the sender's, so every worker's plan runs the
            # broadcasts in the same order.
            with control_dependencies([value.op]):
                return collective.broadcast_recv(value.shape, value.dtype.base_dtype,
                                                 self._num_workers, _GROUP_KEY, key)
        kwargs["initial_value"] = broadcast_initial_value
        return next_creator(**kwargs)

    # -- reductions ---------------------------------------------------------------------------
    def _local_reduce(self, reduce_op: ReduceOp, value: Any) -> Any:
        if isinstance(value, DistributedValues):
            return self._cross_device_ops._reduce(reduce_op, list(value.values))
        if self._num_workers == 1:
            return _reduce_non_distributed(reduce_op, value, len(self._devices))
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        return value if isinstance(value, IndexedSlices) else convert_to_tensor(value)

    def _across_workers(self, reduce_op: ReduceOp, values: List[Any]) -> List[Any]:
        """Each of this worker's locally reduced `values`, reduced across the workers."""
        if self._num_workers == 1:
            return list(values)
        out: List[Any] = [None] * len(values)
        by_dtype: Dict[Any, List[int]] = {}
        for i, v in enumerate(values):
            if isinstance(v, IndexedSlices):
                out[i] = self._gather_slices(reduce_op, v)
            else:
                by_dtype.setdefault(v.dtype.base_dtype, []).append(i)
        for indices in by_dtype.values():
            for i, reduced in zip(indices, self._packed_reduce(
                    reduce_op, [values[i] for i in indices])):
                out[i] = reduced
        return out

    def _packed_reduce(self, reduce_op: ReduceOp, tensors: List[Any]) -> List[Any]:
        """One CollectiveReduce for tensors of one dtype (flattened and concatenated)."""
        from tf1compat.ops import array_ops
        final_op = "Div" if reduce_op == ReduceOp.MEAN else "Id"
        key = self._instance_key()
        if len(tensors) == 1:
            return [collective.collective_reduce(tensors[0], self._num_workers, _GROUP_KEY,
                                                 key, "Add", final_op)]
        flat = array_ops.concat([array_ops.reshape(t, [-1]) for t in tensors], 0)
        reduced = collective.collective_reduce(flat, self._num_workers, _GROUP_KEY, key,
                                               "Add", final_op)
        sizes = [array_ops.size(t) for t in tensors]
        pieces = array_ops.split(reduced, array_ops.stack(sizes), num=len(tensors))
        return [array_ops.reshape(p, array_ops.shape(t)) for p, t in zip(pieces, tensors)]

    def _gather_slices(self, reduce_op: ReduceOp, value: IndexedSlices) -> IndexedSlices:
        """IndexedSlices across workers: their rows and indices gathered (TF's
        all-gather of sparse gradients); MEAN divides the values by the workers."""
        from tf1compat.ops import math_ops
        values = collective.collective_gather(value.values, self._num_workers, _GROUP_KEY,
                                              self._instance_key())
        indices = collective.collective_gather(value.indices, self._num_workers,
                                               _GROUP_KEY, self._instance_key())
        if reduce_op == ReduceOp.MEAN:
            values = math_ops.truediv(values, self._num_workers)
        return IndexedSlices(values, indices, value.dense_shape)

    def _reduce_to(self, reduce_op: ReduceOp, value: Any) -> Any:
        if self._num_workers == 1:
            return super()._reduce_to(reduce_op, value)
        reduced = self._across_workers(reduce_op, [self._local_reduce(reduce_op, value)])[0]
        return self._copies(reduced, self._devices[:1])[0]

    def _reduce_to_replicas(self, reduce_op: ReduceOp, value: Any) -> Any:
        if self._num_workers == 1:
            return super()._reduce_to_replicas(reduce_op, value)
        reduced = self._across_workers(reduce_op, [self._local_reduce(reduce_op, value)])[0]
        return Mirrored(self._copies(reduced, self._devices))

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: Any,
                        experimental_hints: Any = None) -> List[Any]:
        """The values reduced over every replica of every worker, packed into one
        collective per dtype (the optimizers' gradient aggregation)."""
        if self._num_workers == 1:
            return super().batch_reduce_to(reduce_op, value_destination_pairs,
                                           experimental_hints)
        from tf1compat.training.strategies.distribute_lib import (
            _as_reduce_op, _require_cross_replica_or_default)
        _require_cross_replica_or_default(self)
        op = _as_reduce_op(reduce_op)
        local = [self._local_reduce(op, v) for v, _ in value_destination_pairs]
        return [Mirrored(self._copies(r, self._devices))
                for r in self._across_workers(op, local)]

    def configure(self, session_config: Any = None, cluster_spec: Any = None,
                  task_type: Optional[str] = None, task_id: Optional[int] = None) -> None:
        """TF's distribute coordinator hands the worker's place; a strategy that already
        knows its cluster keeps it."""
        if cluster_spec is None or self._place is not None:
            return

        class _Given:
            def __init__(self) -> None:
                self.task_type, self.task_id = task_type, task_id

            def cluster_spec(self) -> Any:
                from tf1compat.training.device_setter import ClusterSpec
                return ClusterSpec(cluster_spec) if isinstance(cluster_spec, dict) \
                    else cluster_spec
        self._setup(_place(_Given()))
        self._devices = self._local_devices()


class MultiWorkerMirroredStrategy(ClusterStrategy):
    """`tf.distribute.experimental.MultiWorkerMirroredStrategy(communication=AUTO,
    cluster_resolver=None)` (TF1), also with TF2's `communication_options=`."""

    def __init__(self, communication: Any = CollectiveCommunication.AUTO,
                 cluster_resolver: Any = None, communication_options: Any = None):
        if communication_options is not None:
            if not isinstance(communication_options, CommunicationOptions):
                raise ValueError("communication_options must be a "
                                 "tf.distribute.experimental.CommunicationOptions, not "
                                 f"{communication_options!r}")
            communication = communication_options.implementation
        super().__init__(MultiWorkerExtended(self, cluster_resolver,
                                             _as_communication(communication), None))
        self._communication_options = communication_options or CommunicationOptions(
            implementation=communication)

    @property
    def num_replicas_in_sync(self) -> int:
        return len(self.extended.worker_devices) * self.extended._num_workers




class CollectiveAllReduceStrategy(MultiWorkerMirroredStrategy):
    """`tf.contrib.distribute.CollectiveAllReduceStrategy(num_gpus_per_worker=0,
    communication=AUTO)` (TF 1.15): MultiWorkerMirroredStrategy over TF_CONFIG's cluster
    (read once, at construction) with `num_gpus_per_worker` GPU replicas per worker, or
    the CPU when 0; without a cluster it is local until `configure` gives one."""

    def __init__(self, num_gpus_per_worker: int = 0,
                 communication: Any = CollectiveCommunication.AUTO):
        tf_config = TFConfigClusterResolver()
        resolver = SimpleClusterResolver(
            cluster_spec=tf_config.cluster_spec(), task_type=tf_config.task_type,
            task_id=tf_config.task_id, num_accelerators={"GPU": num_gpus_per_worker},
            rpc_layer=tf_config.rpc_layer)
        devices = tuple(f"/device:GPU:{i}" for i in range(num_gpus_per_worker)) or \
            ("/device:CPU:0",)
        communication = _as_communication(communication)
        Strategy.__init__(self, MultiWorkerExtended(self, resolver, communication, devices))
        self._communication_options = CommunicationOptions(implementation=communication)
