"""`tf.distribute.experimental.ParameterServerStrategy` (TF1's ParameterServerStrategyV1):
between-graph training with variables on parameter servers.

In a cluster (the cluster resolver's, TF_CONFIG by default, or the one `configure` hands
over, as TF's distribute coordinator does) each chief / worker process computes on its own
devices (`/job:<type>/task:<id>` plus its GPUs, or its CPU) and its variables are placed
round-robin on the `ps` tasks by `tf.train.replica_device_setter`: they live on the ps
tasks' `tf.train.Server` (distribute/server.py), and every worker updates them
asynchronously, as TF's. The chief initializes, checkpoints and writes summaries.
Without a cluster it is TF's local mode: replicas on the local devices and the variables on
the CPU when several GPUs compute, else on the one device (CentralStorageStrategy).

An Estimator with `RunConfig(train_distribute=ParameterServerStrategy())` under a TF_CONFIG
cluster runs it through the distribute coordinator (estimator/collective_training.py).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

from tf1compat.framework.graph import get_default_graph
from tf1compat.training.cluster_resolver import TFConfigClusterResolver
from tf1compat.training.device_setter import ClusterSpec, replica_device_setter
from tf1compat.training.strategies.distribute_lib import ClusterStrategy, Strategy
from tf1compat.training.strategies.mirrored import MirroredExtended, all_local_devices

__all__ = ["ParameterServerStrategy"]


class ParameterServerExtended(MirroredExtended):
    """Replicas on this worker's devices, variables on the ps tasks (see the module)."""

    parameter_server_training = True

    def __init__(self, container: Strategy, cluster_resolver: Any):
        self._cluster_resolver = cluster_resolver
        resolver = cluster_resolver or TFConfigClusterResolver()
        cluster = resolver.cluster_spec()
        devices, parameter_device = self._place(cluster if cluster and cluster.jobs else None,
                                                resolver.task_type, resolver.task_id)
        super().__init__(container, devices, parameter_device=parameter_device)

    def _place(self, cluster: Optional[ClusterSpec], task_type: Optional[str],
               task_id: Optional[int]) -> tuple:
        """This task's compute devices and variable device; sets where it stands."""
        self._cluster_spec = cluster
        local = all_local_devices()
        if cluster is None:
            self._task_type, self._task_id, self._is_chief = None, None, True
            self._num_workers, self._worker_index = 1, 0
            self._variable_setter = None
            # (TF's local device names have no job)
            devices = tuple("/replica:0/task:0/device:" + d.rsplit("/device:", 1)[1]
                            for d in local)
            return devices, devices[0] if len(devices) == 1 else \
                "/replica:0/task:0/device:CPU:0"
        jobs = cluster.as_dict()
        if "ps" not in jobs:
            raise ValueError("The cluster spec needs to have `ps` jobs.")
        if task_type is None:
            raise ValueError("`task_type` shoud be set.")
        if task_id is None:
            raise ValueError("`task_id` shoud be set.")
        trainers = [("chief", i) for i in range(len(jobs.get("chief", [])))] + \
            [("worker", i) for i in range(len(jobs.get("worker", [])))]
        self._task_type, self._task_id = task_type, int(task_id)
        self._num_workers = len(trainers)
        # (a ps or evaluator task's strategy computes nothing)
        self._worker_index = trainers.index((task_type, self._task_id)) \
            if (task_type, self._task_id) in trainers else 0
        self._is_chief = task_type == "chief" or ("chief" not in jobs and
                                                  task_type == "worker" and self._task_id == 0)
        worker_device = f"/job:{task_type}/task:{self._task_id}"
        devices = tuple(f"/job:{task_type}/replica:0/task:{self._task_id}/device:"
                        + d.rsplit("/device:", 1)[1] for d in local)
        self._variable_setter = replica_device_setter(ps_tasks=len(jobs["ps"]),
                                                      worker_device=worker_device,
                                                      merge_devices=True, cluster=cluster)
        return devices, None

    @property
    def parameter_devices(self) -> tuple:
        if self._cluster_spec is None:
            return super().parameter_devices
        return tuple(f"/job:ps/task:{i}" for i in range(len(self._cluster_spec.as_dict()["ps"])))

    def _create_variable(self, next_creator: Callable[..., Any], kwargs: Dict[str, Any]
                         ) -> Any:
        if self._variable_setter is None:
            return next_creator(**kwargs)
        graph = get_default_graph()
        # As TF's: the setter alone places a variable (`/job:ps/task:k`), whatever device
        # the replica computes on; one device per ps task, one checkpoint shard each.
        with graph.device(None), graph.device(self._variable_setter):
            return next_creator(**kwargs)

    # Between-graph: this process is input pipeline `_worker_index` of the trainers, and
    # only the chief initializes, checkpoints and writes summaries.
    _num_input_pipelines = property(lambda self: self._num_workers)   # type: ignore
    _input_pipeline_id = property(lambda self: self._worker_index)    # type: ignore
    experimental_between_graph = property(lambda self: True)          # type: ignore
    experimental_should_init = should_checkpoint = should_save_summary = property(
        lambda self: self._is_chief)                                  # type: ignore

    def configure(self, session_config: Any, cluster_spec: Any, task_type: Optional[str],
                  task_id: Optional[int]) -> None:
        if cluster_spec is None or self._cluster_spec is not None:
            return
        cluster = ClusterSpec(cluster_spec)
        self._devices, self._parameter_device = self._place(cluster, task_type, task_id)


class ParameterServerStrategy(ClusterStrategy):
    """`tf.distribute.experimental.ParameterServerStrategy(cluster_resolver=None)` (TF1):
    see the module docstring."""

    def __init__(self, cluster_resolver: Any = None):
        super().__init__(ParameterServerExtended(self, cluster_resolver))
