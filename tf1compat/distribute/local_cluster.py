"""`tf.test.create_local_cluster`: a cluster of `num_workers` worker and `num_ps` ps tasks
whose servers all live in the calling process, as TF's do.

TF starts one in-process gRPC server per task; a session on any task's `target` runs the
graph with the variables held by the tasks they are placed on, so sessions (and threads)
on different targets of the cluster share them. Here each task is a `LocalServer` with a
store of variable values (server.py's `VariableValues`); a session on its target runs the
graph in this process (as TF does, every task being in it) and, around each run, pulls the
variables of the plan from the store of the task each is placed on (`/job:ps/task:1`; a
variable without a job belongs to the session's own task) and sends back what the run
changed: new variables are offered (the first value wins), changes of numbers are added
under the store's lock (TF's concurrent updates), so `global_step` counts every update of
every session. A `SyncReplicasOptimizer` graph run by sessions on the worker targets
aggregates its gradients in this process (sync_replicas.py).

No torch.distributed group is formed: nothing leaves the process, as nothing leaves TF's.
"""

from __future__ import annotations

import socket
import threading
from typing import Any, Dict, List, Optional, Tuple

from tf1compat.distribute import server as _server
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.training.device_setter import ClusterSpec

__all__ = ["create_local_cluster", "LocalServer", "current_cluster"]


class _LocalCluster:
    """The tasks' variable stores of one in-process cluster."""

    def __init__(self, spec: ClusterSpec):
        self.spec = spec
        self.stores: Dict[str, _server.VariableValues] = {
            _server.task_name(job, i): _server.VariableValues()
            for job in spec.jobs for i in spec.task_indices(job)}
        # SyncReplicasOptimizer's accumulators and token queues (what its ps task 0 holds).
        self.sync_replicas: Dict[str, Any] = {}


_CURRENT: Dict[str, Optional[_LocalCluster]] = {"cluster": None}


def current_cluster() -> Optional[_LocalCluster]:
    """The most recently created local cluster (what a SyncReplicasOptimizer built in this
    process aggregates through when no tf.train.Server runs)."""
    return _CURRENT["cluster"]


class _LocalVariables(_server.RemoteVariables):
    """A session's exchange with the stores of a local cluster (no rpc)."""

    def __init__(self, session: Any, cluster: _LocalCluster, task: str):
        super().__init__(session, None)
        self._cluster = cluster
        self._own_task = task

    def _task_of(self, op: Any) -> Optional[str]:
        # every variable lives in some task's store: the job its device names, else this one
        spec = DeviceSpec.from_string(op.device or "")
        if spec.job is not None and spec.job in self._cluster.spec.jobs:
            return _server.task_name(spec.job, spec.task or 0)
        return self._own_task

    def _call(self, task: str, fn: Any, *args: Any) -> Any:
        return fn(*args, store=self._cluster.stores[task])


class LocalServer(_server.Server):
    """One task of a local cluster (a tf.train.Server that joins no rpc group): `target`,
    `server_def`, `cluster`, `start`, `join`."""

    def __init__(self, cluster: _LocalCluster, job_name: str,  # no super().__init__: no rpc group
                 task_index: int, config: Any = None):
        self._local = cluster
        self._server_def = _server.make_server_def(cluster.spec, job_name, task_index,
                                                   "grpc", config)
        self._task = _server.task_name(job_name, task_index)
        address = cluster.spec.task_address(job_name, task_index)
        self._target = "grpc://" + address
        _server.LOCAL_TARGETS[self._target] = \
            lambda session: _LocalVariables(session, cluster, self._task)

    @property
    def target(self) -> str:
        return self._target

    @property
    def server_def(self) -> Any:
        return self._server_def

    @property
    def cluster(self) -> ClusterSpec:
        return self._local.spec

    def start(self) -> None:
        """Started already (in-process)."""

    def join(self) -> None:
        """TF's blocks forever; an in-process task has nothing to wait for: returns."""


def _free_ports(count: int) -> List[int]:
    sockets = [socket.socket() for _ in range(count)]
    try:
        for s in sockets:
            s.bind(("localhost", 0))
        return [s.getsockname()[1] for s in sockets]
    finally:
        for s in sockets:
            s.close()


_LOCK = threading.Lock()


def create_local_cluster(num_workers: int, num_ps: int, protocol: str = "grpc",
                         worker_config: Any = None,
                         ps_config: Any = None) -> Tuple[List[LocalServer], List[LocalServer]]:
    """TF's `tf.test.create_local_cluster`: `(workers, ps_servers)`, servers of the jobs
    "worker" and "ps" on free localhost ports, all in this process."""
    if protocol != "grpc":
        raise NotImplementedError(f"tf.test.create_local_cluster(protocol={protocol!r}): "
                                  "tf1compat serves 'grpc' targets only")
    ports = _free_ports(num_workers + num_ps)
    jobs = {"worker": [f"localhost:{p}" for p in ports[:num_workers]]}
    if num_ps > 0:
        jobs["ps"] = [f"localhost:{p}" for p in ports[num_workers:]]
    with _LOCK:
        cluster = _LocalCluster(ClusterSpec(jobs))
        _CURRENT["cluster"] = cluster
    workers = [LocalServer(cluster, "worker", i, worker_config) for i in range(num_workers)]
    ps_servers = [LocalServer(cluster, "ps", i, ps_config) for i in range(num_ps)]
    return workers, ps_servers
