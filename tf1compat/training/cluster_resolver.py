"""`tf.distribute.cluster_resolver`: where a task finds its cluster (TF's semantics).

`TFConfigClusterResolver` reads the `TF_CONFIG` environment variable each time it is asked
(cluster, task, `rpc_layer`, `session_master`); `SimpleClusterResolver` holds a
ClusterSpec and a master given to it; `UnionResolver` merges the ClusterSpecs of several
resolvers (list jobs concatenated, dict jobs merged by task index, a duplicate index a
KeyError) and answers the rest from the first; `SlurmClusterResolver` builds the cluster
from a Slurm step's `SLURM_*` variables (hosts sorted, ports from `port_base`, tasks split
into jobs in job-name order, each task's GPUs set in CUDA_VISIBLE_DEVICES).

`num_accelerators` of the base class counts the visible CUDA devices (TF lists the
devices of a session on the master; tf1compat's sessions run in this process). Resolvers
that ask cloud services (GCE, Kubernetes, TPU) raise NotImplementedError naming them.
"""

from __future__ import annotations

import enum
import json
import os
import re
from typing import Any, Dict, Iterator, List, Optional

__all__ = ["ClusterResolver", "SimpleClusterResolver", "UnionResolver",
           "TFConfigClusterResolver", "SlurmClusterResolver", "GCEClusterResolver",
           "KubernetesClusterResolver", "KubernetesExecutableLocation", "TPUClusterResolver",
           "format_master_url"]


def _cluster_spec(jobs: Any) -> Any:
    from tf1compat.training.device_setter import ClusterSpec
    return ClusterSpec(jobs)


def format_master_url(master: str, rpc_layer: Optional[str] = None) -> str:
    """`layer://address`, or the address alone without a layer."""
    return f"{rpc_layer}://{master}" if rpc_layer else master


class ClusterResolver:
    """The abstract resolver: `cluster_spec()` and `master()` are the subclass's;
    `num_accelerators`, `task_type`, `task_id`, `environment`, `rpc_layer` have TF's
    defaults."""

    def cluster_spec(self) -> Any:
        raise NotImplementedError()

    def master(self, task_type: Optional[str] = None, task_id: Optional[int] = None,
               rpc_layer: Optional[str] = None) -> str:
        raise NotImplementedError()

    def num_accelerators(self, task_type: Optional[str] = None,
                         task_id: Optional[int] = None,
                         config_proto: Any = None) -> Dict[str, int]:
        """{"GPU": n} for the n CUDA devices this process sees; {} without any."""
        import torch
        count = torch.cuda.device_count() if torch.cuda.is_available() else 0
        return {"GPU": count} if count else {}

    @property
    def environment(self) -> str:
        return ""

    @property
    def task_type(self) -> Optional[str]:
        return getattr(self, "_task_type", None)

    @task_type.setter
    def task_type(self, task_type: Optional[str]) -> None:
        self._task_type = task_type

    @property
    def task_id(self) -> Optional[int]:
        return getattr(self, "_task_id", None)

    @task_id.setter
    def task_id(self, task_id: Optional[int]) -> None:
        self._task_id = task_id

    @property
    def rpc_layer(self) -> Optional[str]:
        return getattr(self, "_rpc_layer", None)

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer: Optional[str]) -> None:
        self._rpc_layer = rpc_layer


class SimpleClusterResolver(ClusterResolver):
    """A ClusterSpec and a master given at construction."""

    def __init__(self, cluster_spec: Any, master: str = "", task_type: Optional[str] = None,
                 task_id: Optional[int] = None, environment: str = "",
                 num_accelerators: Optional[Dict[str, int]] = None,
                 rpc_layer: Optional[str] = None):
        from tf1compat.training.device_setter import ClusterSpec
        self._task_type, self._task_id = task_type, task_id
        self._environment = environment
        self._num_accelerators = num_accelerators
        self._rpc_layer = rpc_layer
        if not isinstance(cluster_spec, ClusterSpec):
            raise TypeError("cluster_spec must be a `tf.train.ClusterSpec`.")
        self._cluster_spec = cluster_spec
        if not isinstance(master, str):
            raise TypeError("master must be a string.")
        self._master = master

    def cluster_spec(self) -> Any:
        return self._cluster_spec

    def master(self, task_type: Optional[str] = None, task_id: Optional[int] = None,
               rpc_layer: Optional[str] = None) -> str:
        if task_type is not None and task_id is not None:
            address = self._cluster_spec.task_address(task_type, task_id)
        else:
            address = self._master
        return format_master_url(address, rpc_layer or self._rpc_layer)

    @property
    def environment(self) -> str:
        return self._environment

    def num_accelerators(self, task_type: Optional[str] = None,
                         task_id: Optional[int] = None,
                         config_proto: Any = None) -> Dict[str, int]:
        return {} if self._num_accelerators is None else self._num_accelerators


class UnionResolver(ClusterResolver):
    """`UnionResolver(*resolvers, rpc_layer=None, task_type=None, task_id=None)`: the
    union of the resolvers' clusters; master, environment and accelerators of the
    first."""

    def __init__(self, *args: ClusterResolver, **kwargs: Any):
        self._rpc_layer = kwargs.pop("rpc_layer", None)
        self._task_type = kwargs.pop("task_type", None)
        self._task_id = kwargs.pop("task_id", None)
        if kwargs:
            raise ValueError(f"Unexpected kwargs provided {kwargs!r}")
        if not args:
            raise ValueError("At least one ClusterResolver is required.")
        for resolver in args:
            if not isinstance(resolver, ClusterResolver):
                raise TypeError("All arguments must be a sub-class of `ClusterResolver.`")
        self._cluster_resolvers = args

    def cluster_spec(self) -> Any:
        dicts = [r.cluster_spec().as_dict() for r in self._cluster_resolvers]
        # A job is a list only while every resolver gives it as a list.
        merged: Dict[str, Any] = {}
        for jobs in dicts:
            for job, tasks in jobs.items():
                if job not in merged or isinstance(tasks, dict):
                    merged[job] = [] if isinstance(tasks, list) and job not in merged else {}
        for jobs in dicts:
            for job, tasks in jobs.items():
                if isinstance(merged[job], list):
                    merged[job].extend(tasks)
                    continue
                by_index = dict(enumerate(tasks)) if isinstance(tasks, list) else dict(tasks)
                duplicates = set(by_index) & set(merged[job])
                if duplicates:
                    raise KeyError("Duplicate keys detected when merging two ClusterSpecs: "
                                   f"{duplicates!r}")
                merged[job].update(by_index)
        return _cluster_spec(merged)

    def master(self, task_type: Optional[str] = None, task_id: Optional[int] = None,
               rpc_layer: Optional[str] = None) -> str:
        if task_type is not None and task_id is not None:
            address = self.cluster_spec().task_address(task_type, task_id)
            return format_master_url(address, rpc_layer or self._rpc_layer)
        return self._cluster_resolvers[0].master(rpc_layer=rpc_layer)

    @property
    def task_type(self) -> Optional[str]:
        return self._task_type or self._cluster_resolvers[0].task_type

    @task_type.setter
    def task_type(self, task_type: Optional[str]) -> None:
        self._task_type = task_type

    @property
    def task_id(self) -> Optional[int]:
        return self._task_id or self._cluster_resolvers[0].task_id

    @task_id.setter
    def task_id(self, task_id: Optional[int]) -> None:
        self._task_id = task_id

    @property
    def environment(self) -> str:
        return self._cluster_resolvers[0].environment

    def num_accelerators(self, task_type: Optional[str] = None,
                         task_id: Optional[int] = None,
                         config_proto: Any = None) -> Dict[str, int]:
        return self._cluster_resolvers[0].num_accelerators(task_type, task_id, config_proto)

    @property
    def rpc_layer(self) -> Optional[str]:
        return self._rpc_layer or self._cluster_resolvers[0].rpc_layer

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer: Optional[str]) -> None:
        self._rpc_layer = rpc_layer


def _tf_config() -> Dict[str, Any]:
    return json.loads(os.environ.get("TF_CONFIG", "{}"))


class TFConfigClusterResolver(ClusterResolver):
    """The cluster and task of `TF_CONFIG`, read again at each question; the arguments
    override the task type, index, rpc layer and environment."""

    def __init__(self, task_type: Optional[str] = None, task_id: Optional[int] = None,
                 rpc_layer: Optional[str] = None, environment: Optional[str] = None):
        self._task_type, self._task_id = task_type, task_id
        self._rpc_layer, self._environment = rpc_layer, environment

    @property
    def task_type(self) -> Optional[str]:
        if self._task_type is not None:
            return str(self._task_type)
        task = _tf_config().get("task", {})
        return str(task["type"]) if "type" in task else None

    @task_type.setter
    def task_type(self, task_type: Optional[str]) -> None:
        self._task_type = task_type

    @property
    def task_id(self) -> Optional[int]:
        if self._task_id is not None:
            return int(self._task_id)
        task = _tf_config().get("task", {})
        return int(task["index"]) if "index" in task else None

    @task_id.setter
    def task_id(self, task_id: Optional[int]) -> None:
        self._task_id = task_id

    @property
    def environment(self) -> Any:
        return self._environment

    @property
    def rpc_layer(self) -> Optional[str]:
        return self._rpc_layer if self._rpc_layer is not None else \
            _tf_config().get("rpc_layer")

    @rpc_layer.setter
    def rpc_layer(self, rpc_layer: Optional[str]) -> None:
        self._rpc_layer = rpc_layer

    def cluster_spec(self) -> Any:
        return _cluster_spec(_tf_config().get("cluster", {}))

    def master(self, task_type: Optional[str] = None, task_id: Optional[int] = None,
               rpc_layer: Optional[str] = None) -> str:
        """TF_CONFIG's `session_master` if set; '' for a cluster of at most one task;
        else the task's address (this task's by default) with the rpc layer."""
        session_master = _tf_config().get("session_master")
        if session_master is not None:
            return session_master
        spec = self.cluster_spec()
        if not spec.jobs or (len(spec.jobs) == 1 and
                             len(spec.job_tasks(spec.jobs[0])) == 1):
            return ""
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        rpc_layer = rpc_layer if rpc_layer is not None else self.rpc_layer
        return format_master_url(spec.task_address(task_type, task_id), rpc_layer)


# -- Slurm --------------------------------------------------------------------------------

def _slurm_var(name: str) -> str:
    key = "SLURM_" + name
    if key not in os.environ:
        raise RuntimeError(f"{key} not found in environment. Not running inside a SLURM "
                           "step?")
    return os.environ[key]


def _split_hostlist(hostlist: str) -> Iterator[str]:
    """'a[1-2],b' -> 'a[1-2]', 'b' (commas inside brackets are ranges)."""
    depth, current = False, ""
    for ch in hostlist:
        if ch == "[":
            depth = True
        elif ch == "]":
            depth = False
        elif ch == "," and not depth:
            if not current:
                raise ValueError("empty host name")
            yield current
            current = ""
            continue
        current += ch
    if current:
        yield current


def expand_hostlist(hostlist: str) -> List[str]:
    """Slurm's compressed host list ('node[01-03,07],login') -> host names."""
    hosts: List[str] = []
    try:
        for part in _split_hostlist(hostlist):
            match = re.match(r"([^,[\]]*)(\[([^\]]+)\])?$", part)
            if match is None:
                raise ValueError(f"Invalid part: {part}")
            prefix = match.group(1) or ""
            if match.group(3) is None:
                hosts.append(prefix)
                continue
            for item in match.group(3).split(","):
                bounds = item.split("-")
                if len(bounds) not in (1, 2):
                    raise ValueError(f"Invalid range: {item}")
                low, high = bounds[0], bounds[-1]
                hosts.extend(prefix + str(i).zfill(len(low))
                             for i in range(int(low), int(high) + 1))
    except Exception as e:  # noqa: BLE001 - TF wraps every parse failure the same way
        raise ValueError(f'Invalid hostlist format "{hostlist}": {e}') from e
    return hosts


def expand_tasks_per_node(tasks_per_node: str) -> List[int]:
    """Slurm's '2(x3),1' -> [2, 2, 2, 1]."""
    counts: List[int] = []
    try:
        for part in tasks_per_node.split(","):
            match = re.match(r"(\d+)(\(x(\d+)\))?$", part)
            if match is None:
                raise ValueError(f"Invalid part: {part}")
            counts.extend([int(match.group(1))] * int(match.group(3) or 1))
    except Exception as e:  # noqa: BLE001
        raise ValueError(f'Invalid tasks-per-node list format "{tasks_per_node}": {e}') from e
    return counts


def _gpus_on_node() -> int:
    """TF counts CUDA_VISIBLE_DEVICES' entries (an empty value is one entry), else the
    GPUs nvidia-smi lists; here torch's CUDA device count stands for nvidia-smi."""
    if "CUDA_VISIBLE_DEVICES" in os.environ:
        return len(os.environ["CUDA_VISIBLE_DEVICES"].split(","))
    import torch
    return torch.cuda.device_count() if torch.cuda.is_available() else 0


class SlurmClusterResolver(ClusterResolver):
    """The cluster of a Slurm job step, from `SLURM_PROCID`, `SLURM_STEP_NUM_TASKS`,
    `SLURM_STEP_NODELIST` and `SLURM_STEP_TASKS_PER_NODE`."""

    def __init__(self, jobs: Optional[Dict[str, int]] = None, port_base: int = 8888,
                 gpus_per_node: Optional[int] = None, gpus_per_task: Optional[int] = None,
                 tasks_per_node: Any = None, auto_set_gpu: bool = True,
                 rpc_layer: str = "grpc"):
        self._rank = int(_slurm_var("PROCID"))
        self._jobs = jobs if jobs is not None else {
            "worker": int(_slurm_var("STEP_NUM_TASKS"))}
        self._port_base = port_base
        if tasks_per_node is None:
            hosts = expand_hostlist(_slurm_var("STEP_NODELIST"))
            counts = expand_tasks_per_node(_slurm_var("STEP_TASKS_PER_NODE"))
            self._task_configuration = dict(zip(hosts, counts))
        elif isinstance(tasks_per_node, dict):
            self._task_configuration = dict(tasks_per_node)
        else:
            self._task_configuration = {host: int(tasks_per_node) for host in
                                        expand_hostlist(_slurm_var("STEP_NODELIST"))}
        most_tasks = max(self._task_configuration.values())
        num_tasks = sum(self._task_configuration.values())
        self._gpus_per_node = _gpus_on_node() if gpus_per_node is None else gpus_per_node
        self._gpus_per_task = self._gpus_per_node // most_tasks if gpus_per_task is None \
            else gpus_per_task
        self._auto_set_gpu = auto_set_gpu
        self.task_type: Optional[str] = None
        self.task_id: Optional[int] = None
        self.rpc_layer = rpc_layer
        self._gpu_allocation: List[str] = []
        if most_tasks * self._gpus_per_task > self._gpus_per_node:
            raise RuntimeError("Requested more GPUs per node than available.")
        if sum(self._jobs.values()) != num_tasks:
            raise RuntimeError(f"Requested {sum(self._jobs.values())} tasks but only "
                               f"{num_tasks} were assigned.")

    def cluster_spec(self) -> Any:
        """Also sets this task's type and index and (with `auto_set_gpu`) its
        CUDA_VISIBLE_DEVICES, as TF's does."""
        if self._gpus_per_task <= 0:
            # (TF's range over the node's GPUs by steps of gpus_per_task fails the same way)
            raise ValueError("range() arg 3 must not be zero")
        addresses: List[str] = []
        self._gpu_allocation = []
        for host, count in sorted(self._task_configuration.items()):
            firsts = range(0, self._gpus_per_node, self._gpus_per_task)
            for offset, first_gpu in zip(range(count), firsts):
                addresses.append(f"{host}:{self._port_base + offset}")
                self._gpu_allocation.append(",".join(
                    str(g) for g in range(first_gpu, first_gpu + self._gpus_per_task)))
        allocation: Dict[str, List[str]] = {}
        start = 0
        for job, count in sorted(self._jobs.items()):
            allocation[job] = addresses[start:start + count]
            if start <= self._rank < start + count:
                self.task_type, self.task_id = job, self._rank - start
            start += count
        if self._auto_set_gpu:
            os.environ["CUDA_VISIBLE_DEVICES"] = self._gpu_allocation[self._rank]
        return _cluster_spec(allocation)

    def get_task_info(self) -> tuple:
        return self.task_type, self.task_id

    def master(self, task_type: Optional[str] = None, task_id: Optional[int] = None,
               rpc_layer: Optional[str] = None) -> str:
        task_type = task_type if task_type is not None else self.task_type
        task_id = task_id if task_id is not None else self.task_id
        if task_type is None or task_id is None:
            return ""
        return format_master_url(self.cluster_spec().task_address(task_type, task_id),
                                 rpc_layer or self.rpc_layer)

    def num_accelerators(self, task_type: Optional[str] = None,
                         task_id: Optional[int] = None,
                         config_proto: Any = None) -> Dict[str, int]:
        return {"GPU": self._gpus_per_task}


# -- resolvers that ask cloud services ----------------------------------------------------

class KubernetesExecutableLocation(enum.Enum):
    """Where KubernetesClusterResolver's code runs (TF's enum)."""

    WITHIN_CLUSTER = 0
    OFF_CLUSTER = 1


def _cloud_resolver(name: str, service: str) -> type:
    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        raise NotImplementedError(
            f"tf.distribute.cluster_resolver.{name} is not supported by tf1compat: it asks "
            f"{service} for the cluster. Set TF_CONFIG and use TFConfigClusterResolver, or "
            "build a SimpleClusterResolver from a tf.train.ClusterSpec.")
    return type(name, (ClusterResolver,), {"__init__": __init__, "__doc__": (
        f"Refused: {name} reads its cluster from {service} (NotImplementedError).")})


GCEClusterResolver = _cloud_resolver("GCEClusterResolver", "the Google Compute Engine API")
KubernetesClusterResolver = _cloud_resolver("KubernetesClusterResolver",
                                            "the Kubernetes API (the kubernetes client)")
TPUClusterResolver = _cloud_resolver("TPUClusterResolver", "Cloud TPU's metadata service")
