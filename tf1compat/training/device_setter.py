"""`tf.train.replica_device_setter` and a minimal `tf.train.ClusterSpec`.

The device strings are TF's ("/job:ps/task:0" for variables, round robin over the ps
tasks; "/job:worker" for other ops). tf1compat runs everything in one process: the placer
maps job/task-only devices to the session's local device, so a distributed-training script
runs unchanged on one machine.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.serialization.messages import ClusterDef

__all__ = ["replica_device_setter", "ClusterSpec", "STANDARD_PS_OPS"]

STANDARD_PS_OPS = ("Variable", "VariableV2", "AutoReloadVariable", "MutableHashTable",
                   "MutableHashTableV2", "MutableHashTableOfTensors",
                   "MutableHashTableOfTensorsV2", "MutableDenseHashTable",
                   "MutableDenseHashTableV2", "VarHandleOp",
                   "BoostedTreesEnsembleResourceHandleOp",
                   "BoostedTreesQuantileStreamResourceHandleOp",
                   "ResourceConditionalAccumulator", "DecisionTreeResource")


class ClusterSpec:
    """`tf.train.ClusterSpec`: job name -> task addresses (a list, or a dict by index), or a
    `tf.train.ClusterDef`; `as_cluster_def()` gives the proto back."""

    def __init__(self, cluster: Any):
        if isinstance(cluster, ClusterSpec):
            self._cluster: Dict[str, Dict[int, str]] = {
                job: dict(tasks) for job, tasks in cluster._cluster.items()}
            return
        if isinstance(cluster, ClusterDef):
            self._cluster = {job.name: dict(job.tasks) for job in cluster.job}
            return
        if not isinstance(cluster, dict):
            raise TypeError("`cluster` must be a dictionary mapping one or more job names to "
                            "lists of network addresses, or a `ClusterDef` protocol buffer")
        self._cluster = {}
        for job, tasks in cluster.items():
            if isinstance(tasks, (list, tuple)):
                self._cluster[job] = dict(enumerate(tasks))
            elif isinstance(tasks, dict):
                self._cluster[job] = {int(i): addr for i, addr in tasks.items()}
            else:
                raise TypeError(f"The tasks for job {job!r} must be a list or a dictionary "
                                "from integers to strings.")

    @property
    def jobs(self) -> List[str]:
        return list(self._cluster)

    def as_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for job, tasks in self._cluster.items():
            indices = sorted(tasks)
            if indices == list(range(len(indices))):
                out[job] = [tasks[i] for i in indices]
            else:
                out[job] = {i: tasks[i] for i in indices}     # (sorted, as TF)
        return out

    def as_cluster_def(self) -> ClusterDef:
        """This cluster as a `tf.train.ClusterDef` (jobs and tasks in sorted order, as TF
        writes them, so that equal clusters give equal bytes)."""
        cluster_def = ClusterDef()
        for job, tasks in sorted(self._cluster.items()):
            if not isinstance(job, (str, bytes)):
                raise TypeError(f"Job name {job!r} must be bytes or unicode")
            job_def = cluster_def.job.add()
            job_def.name = job.decode() if isinstance(job, bytes) else job
            for index, address in sorted(tasks.items()):
                if not isinstance(address, (str, bytes)):
                    raise TypeError(f"Task address {address!r} must be bytes or unicode")
                job_def.tasks[index] = address.decode() if isinstance(address, bytes) \
                    else address
        return cluster_def

    def num_tasks(self, job_name: str) -> int:
        try:
            return len(self._cluster[job_name])
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def task_indices(self, job_name: str) -> List[int]:
        try:
            return sorted(self._cluster[job_name])
        except KeyError:
            raise ValueError(f"No such job in cluster: {job_name!r}") from None

    def task_address(self, job_name: str, task_index: int) -> str:
        try:
            return self._cluster[job_name][task_index]
        except KeyError:
            raise ValueError(f"No task {task_index} in job {job_name!r}") from None

    def job_tasks(self, job_name: str) -> List[Optional[str]]:
        tasks = self._cluster[job_name]
        return [tasks.get(i) for i in range(max(tasks) + 1)] if tasks else []

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, ClusterSpec) and self._cluster == other._cluster

    def __bool__(self) -> bool:
        return bool(self._cluster)

    def __repr__(self) -> str:
        return f"ClusterSpec({self.as_dict()!r})"


class _RoundRobinStrategy:
    def __init__(self, num_tasks: int):
        self._num_tasks = num_tasks
        self._next_task = 0

    def __call__(self, unused_op: Any) -> int:
        task = self._next_task
        self._next_task = (self._next_task + 1) % self._num_tasks
        return task


class _ReplicaDeviceChooser:
    def __init__(self, ps_tasks: int, ps_device: str, worker_device: str,
                 merge_devices: bool, ps_ops: List[str], ps_strategy: Callable[[Any], int]):
        self._ps_tasks = ps_tasks
        self._ps_device = ps_device
        self._worker_device = worker_device
        self._merge_devices = merge_devices
        self._ps_ops = ps_ops
        self._ps_strategy = ps_strategy

    def device_function(self, op: Any) -> str:
        if not self._merge_devices and op.device:
            return op.device
        current = DeviceSpec.from_string(op.device or "")
        if self._ps_tasks and self._ps_device and op.node_def.op in self._ps_ops:
            ps_device = DeviceSpec.from_string(self._ps_device)
            if ps_device.job and (not current.job or current.job == ps_device.job):
                ps_device = ps_device.replace(task=self._ps_strategy(op))
            return ps_device.make_merged_spec(current).to_string()
        worker = DeviceSpec.from_string(self._worker_device or "")
        return worker.make_merged_spec(current).to_string()


def replica_device_setter(ps_tasks: int = 0, ps_device: str = "/job:ps",
                          worker_device: str = "/job:worker", merge_devices: bool = True,
                          cluster: Any = None, ps_ops: Optional[List[str]] = None,
                          ps_strategy: Optional[Callable[[Any], int]] = None
                          ) -> Optional[Callable[[Any], str]]:
    """`tf.train.replica_device_setter`: a device function for `tf.device` (None without ps
    tasks). Variables go round robin to the ps tasks, other ops to `worker_device`."""
    if cluster is not None:
        spec = cluster.as_dict() if isinstance(cluster, ClusterSpec) else \
            ClusterSpec(cluster).as_dict()
        ps_job_name = DeviceSpec.from_string(ps_device).job
        if ps_job_name not in spec or spec[ps_job_name] is None:
            return None
        ps_tasks = len(spec[ps_job_name])
    if ps_tasks == 0:
        return None
    if ps_ops is None:
        ps_ops = list(STANDARD_PS_OPS)
    if ps_strategy is None:
        ps_strategy = _RoundRobinStrategy(ps_tasks)
    if not callable(ps_strategy):
        raise TypeError("ps_strategy must be callable")
    chooser = _ReplicaDeviceChooser(ps_tasks, ps_device, worker_device, merge_devices,
                                    ps_ops, ps_strategy)
    return chooser.device_function
