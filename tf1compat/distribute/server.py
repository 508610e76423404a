"""`tf.train.Server` on torch.distributed.rpc: parameter-server training between processes.

Every task of the ClusterSpec (`ps` and `worker` jobs alike) runs a `tf.train.Server`;
the servers join one torch.distributed.rpc group (TensorPipe), whose rendezvous is the
address of the cluster's first task (jobs in name order, tasks in index order). A `ps` task
keeps the values of the variables placed on it (`replica_device_setter` puts every
variable on `/job:ps/task:k`) and `server.join()` serves them until every other task has
finished. A worker's session on `server.target` (`tf.Session(server.target)`,
`MonitoredTrainingSession(master=server.target)`) runs its graph locally on copies of those
variables:

* before each run it pulls the current values of the graph's ps variables; a variable no
  ps task has yet is uninitialized for this worker (what the chief's init op makes);
* after the run it sends what the run changed: a variable new on this worker is offered
  to its ps task (the first value wins, as TF's chief initializes); a changed one sends
  the change `after - before`, which the ps task adds to its value under a lock.

Adding the change is TF's asynchronous ("Hogwild") update: a GradientDescent step lands on
the ps value of the moment, and `global_step.assign_add(1)` counts every worker's update.
Optimizers whose update reads slot values a concurrent worker changed meanwhile (Momentum,
Adam) differ from TF by that staleness only. With `SyncReplicasOptimizer`
(sync_replicas.py) only the chief's queue runner updates the variables (the workers' runs
send gradients to ps task 0), so its sessions send updates as values to set
(`SYNC_REPLICAS_COLLECTION`), and it enqueues a step's tokens once they are pushed
(`after_push`).

A ps task that cannot be reached (it died, or is not up within the timeout) makes the
worker's run fail with `tf.errors.UnavailableError` naming the task.
`TF1COMPAT_RPC_TIMEOUT` (seconds, default 60) bounds every exchange.
"""

from __future__ import annotations

import atexit
import os
import threading
from typing import Any, Dict, List, Optional, Tuple

import torch
import torch.distributed.rpc as rpc

from tf1compat.framework import errors, hooks
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.serialization.messages import ServerDef
from tf1compat.training.device_setter import ClusterSpec

__all__ = ["Server", "make_server_def", "active_server", "task_name", "rpc_timeout",
           "SYNC_REPLICAS_COLLECTION", "RPC_TIMEOUT_ENV", "after_push", "LOCAL_TARGETS",
           "VariableValues", "RemoteVariables", "VARIABLE_OPS"]

RPC_TIMEOUT_ENV = "TF1COMPAT_RPC_TIMEOUT"
# Graphs with a SyncReplicasOptimizer's sync op add a marker here: updates are values.
SYNC_REPLICAS_COLLECTION = "tf1compat_sync_replicas"
VARIABLE_OPS = ("VariableV2", "Variable", "VarHandleOp")


# Per thread: whether a session run exchanging variables with the ps tasks is in progress,
# and what must happen once its changes are pushed (SyncReplicasOptimizer's chief enqueues
# the step's tokens only then: a worker that gets one must pull the updated values).
_RUN = threading.local()


def after_push(callback: Any) -> None:
    """Called from inside a run (its PyFunc): `callback()` once the ps tasks hold this run's
    changes; at once where the run exchanges nothing."""
    pending = getattr(_RUN, "after_push", None)
    if pending is None:
        callback()
    else:
        pending.append(callback)


def rpc_timeout() -> float:
    return float(os.environ.get(RPC_TIMEOUT_ENV, "60"))


def task_name(job: str, index: int) -> str:
    return f"{job}_{index}"


# -- what a ps task serves (runs in the ps process, called over rpc) -------------------------

class VariableValues:
    """The values of the variables placed on this task, each with a version that every
    push changing it increments; one lock orders the updates."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.values: Dict[str, torch.Tensor] = {}
        self.versions: Dict[str, int] = {}


_SERVED = VariableValues()


def _pull(names: List[str], known: Dict[str, int],
          store: Optional[VariableValues] = None) -> Dict[str, Tuple[int, torch.Tensor]]:
    """(version, value) of each of `names` the ps holds at another version than `known`."""
    store = store or _SERVED
    with store.lock:
        return {n: (store.versions[n], store.values[n].clone()) for n in names
                if n in store.values and known.get(n) != store.versions[n]}


def _push(initial: Dict[str, torch.Tensor], changes: Dict[str, torch.Tensor],
          values: Dict[str, torch.Tensor], base: Dict[str, int],
          store: Optional[VariableValues] = None) -> Dict[str, int]:
    """Stores a run's updates; returns the new version of each variable whose ps value is
    now the pusher's own (a first value that won, a value set, a change added to the
    version the run started from)."""
    store = store or _SERVED
    in_sync: Dict[str, int] = {}
    with store.lock:
        for name, value in initial.items():
            if name not in store.values:
                store.values[name] = value
                in_sync[name] = store.versions[name] = store.versions.get(name, 0) + 1
        for name, change in changes.items():
            current = store.values.get(name)
            previous = store.versions.get(name)
            store.values[name] = change if current is None else current + change
            store.versions[name] = (previous or 0) + 1
            if previous == base.get(name):
                in_sync[name] = store.versions[name]
        for name, value in values.items():
            store.values[name] = value
            in_sync[name] = store.versions[name] = store.versions.get(name, 0) + 1
    return in_sync


class _FinishedTasks:
    """On a ps task: the tasks that said they are done (their sessions will not call)."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.tasks: set = set()


_FINISHED = _FinishedTasks()
_LIVENESS_INTERVAL_S = 5.0


def _task_finished(name: str) -> None:
    with _FINISHED.condition:
        _FINISHED.tasks.add(name)
        _FINISHED.condition.notify_all()


def _alive() -> bool:
    return True


def make_server_def(server_or_cluster_def: Any, job_name: Optional[str],
                    task_index: Optional[int], protocol: Optional[str],
                    config: Any) -> ServerDef:
    """TF's ServerDef for tf.train.Server's arguments: a ServerDef with the given fields
    overriding its own, or a cluster (ClusterSpec, ClusterDef, dict) plus the job and task,
    which may be left out only where the cluster has one job / the job one task."""
    server_def = ServerDef()
    if isinstance(server_or_cluster_def, ServerDef):
        server_def.MergeFrom(server_or_cluster_def)
        if job_name is not None:
            server_def.job_name = job_name
        if task_index is not None:
            server_def.task_index = task_index
        if protocol is not None:
            server_def.protocol = protocol
    else:
        try:
            cluster = ClusterSpec(server_or_cluster_def)
        except TypeError:
            raise TypeError("Could not convert `server_or_cluster_def` to a "
                            "`tf.train.ServerDef` or `tf.train.ClusterSpec`.") from None
        if job_name is None:
            if len(cluster.jobs) != 1:
                raise ValueError("Must specify an explicit `job_name`.")
            job_name = cluster.jobs[0]
        if task_index is None:
            indices = cluster.task_indices(job_name)
            if len(indices) != 1:
                raise ValueError("Must specify an explicit `task_index`.")
            task_index = indices[0]
        server_def.cluster.CopyFrom(cluster.as_cluster_def())
        server_def.job_name = job_name
        server_def.task_index = task_index
        server_def.protocol = "grpc" if protocol is None else protocol
    if config is not None:
        server_def.default_session_config.MergeFrom(config)
    return server_def


# -- the server ----------------------------------------------------------------------------------

_ACTIVE: Dict[str, Any] = {"server": None}


def active_server() -> Optional["Server"]:
    """The tf.train.Server this process runs, if any."""
    return _ACTIVE["server"]


class Server:
    """`tf.train.Server(server_or_cluster_def, job_name, task_index, protocol, config,
    start)`: this process's task of the cluster (see the module docstring)."""

    def __init__(self, server_or_cluster_def: Any, job_name: Optional[str] = None,
                 task_index: Optional[int] = None, protocol: Optional[str] = None,
                 config: Any = None, start: bool = True):
        self._server_def = make_server_def(server_or_cluster_def, job_name, task_index,
                                           protocol, config)
        if self._server_def.protocol != "grpc":
            raise NotImplementedError(f"tf.train.Server(protocol="
                                      f"{self._server_def.protocol!r}): tf1compat serves "
                                      "over torch.distributed.rpc ('grpc' targets)")
        cluster = ClusterSpec(self._server_def.cluster)
        job_name = self._server_def.job_name
        task_index = self._server_def.task_index
        jobs = sorted(cluster.jobs)
        if job_name not in jobs:
            raise ValueError(f"Job {job_name!r} is not in the cluster {cluster.as_dict()}")
        self._cluster = cluster
        self._job_name = job_name
        self._task_index = int(task_index)
        self._address = cluster.task_address(job_name, self._task_index)
        self._tasks: List[Tuple[str, int]] = [(j, i) for j in jobs
                                              for i in cluster.task_indices(j)]
        self._started = False
        self._stopped = False
        if start:
            self.start()

    @property
    def cluster(self) -> ClusterSpec:
        return self._cluster

    @property
    def target(self) -> str:
        """The session target of this task: `grpc://host:port`."""
        return "grpc://" + self._address

    @property
    def server_def(self) -> ServerDef:
        """The `tf.train.ServerDef` this server was made from."""
        return self._server_def

    def start(self) -> None:
        """Joins the cluster's rpc group (blocks until every task has started)."""
        if self._started:
            return
        if _ACTIVE["server"] is not None:
            raise errors.AlreadyExistsError(None, None, "This process already runs a "
                                            "tf.train.Server (one task per process)")
        first = self._cluster.task_address(*self._tasks[0])
        options = rpc.TensorPipeRpcBackendOptions(init_method=f"tcp://{first}",
                                                  rpc_timeout=rpc_timeout())
        rank = self._tasks.index((self._job_name, self._task_index))
        rpc.init_rpc(task_name(self._job_name, self._task_index), rank=rank,
                     world_size=len(self._tasks), rpc_backend_options=options)
        self._started = True
        _ACTIVE["server"] = self
        atexit.register(self._stop)

    def join(self) -> None:
        """Serves until every other task of the cluster has finished or died (TF's ps
        `join()` blocks forever; here it returns once the workers are done, so ps
        processes end)."""
        self.start()
        me = task_name(self._job_name, self._task_index)
        waiting = {task_name(j, i) for j, i in self._tasks} - {me}
        while waiting:
            with _FINISHED.condition:
                _FINISHED.condition.wait_for(lambda: waiting <= _FINISHED.tasks,
                                             _LIVENESS_INTERVAL_S)
                waiting -= _FINISHED.tasks
            for task in sorted(waiting):
                try:
                    rpc.rpc_sync(task, _alive, timeout=_LIVENESS_INTERVAL_S)
                except RuntimeError:
                    waiting.discard(task)        # it died without saying goodbye
        self._stop()

    def _stop(self) -> None:
        if self._started and not self._stopped:
            self._stopped = True
            me = task_name(self._job_name, self._task_index)
            for job, index in self._tasks:
                if job == "ps" and (job, index) != (self._job_name, self._task_index):
                    try:
                        rpc.rpc_sync(task_name(job, index), _task_finished, args=(me,),
                                     timeout=_LIVENESS_INTERVAL_S)
                    except RuntimeError:
                        pass                     # that ps task is gone already
            # Not graceful: a graceful shutdown waits for every task, dead ones included.
            rpc.shutdown(graceful=False)
            _ACTIVE["server"] = None

    @staticmethod
    def create_local_server(config: Any = None, start: bool = True) -> "Server":
        """A one-task cluster on a free local port."""
        import socket
        with socket.socket() as s:
            s.bind(("localhost", 0))
            port = s.getsockname()[1]
        return Server({"localhost": [f"localhost:{port}"]}, job_name="localhost",
                      task_index=0, config=config, start=start)


# -- worker sessions ------------------------------------------------------------------------------

class RemoteVariables:
    """A worker session's exchange with the ps tasks around each run.

    A run exchanges only the ps variables its plan touches, and keeps its own "before"
    values: runs of one session may overlap (queue-runner threads enqueue while the
    training run waits for its batch or for the other replicas), and a run must neither
    pull over nor push back what a concurrent run changed. So a run pulls only the
    variables whose ps version is not the one this session's values are at (`_versions`):
    a concurrent run's pull leaves alone a value another run of this session is changing,
    and unchanged values cross no wire.
    """

    def __init__(self, session: Any, server: Server):
        self._session = session
        self._server = server
        self._by_task: Dict[str, List[str]] = {}
        # Where the worker's runs read each ps variable (its op's device: the GPU when the
        # worker has one); pulled values arrive on the CPU.
        self._devices: Dict[str, torch.device] = {}
        self._graph_version = -1
        self._by_plan: Dict[int, Tuple[Any, Dict[str, List[str]]]] = {}
        # the ps version this session's value of each variable is at
        self._versions: Dict[str, int] = {}

    def _task_of(self, op: Any) -> Optional[str]:
        """The task holding variable `op`'s value, or None when this worker holds it."""
        if not op.device:
            return None
        spec = DeviceSpec.from_string(op.device)
        return task_name("ps", spec.task or 0) if spec.job == "ps" else None

    def _ps_variables(self) -> Dict[str, List[str]]:
        graph = self._session.graph
        if graph.version != self._graph_version:
            by_task: Dict[str, List[str]] = {}
            placer = self._session._runtime.placer
            for op in graph.get_operations():
                task = self._task_of(op) if op.type in VARIABLE_OPS else None
                if task is not None:
                    by_task.setdefault(task, []).append(op.name)
                    self._devices[op.name] = placer.device_for(op)
            self._by_task, self._graph_version = by_task, graph.version
            self._by_plan = {}
        return self._by_task

    def _plan_variables(self, plan: Any) -> Dict[str, List[str]]:
        """The ps variables `plan` reads or writes, by task (all of them for a dataflow
        plan, whose loops run what they decide at run time)."""
        by_task = self._ps_variables()
        cached = self._by_plan.get(id(plan))
        if cached is not None and cached[0] is plan:
            return cached[1]
        if plan.dataflow:
            used = by_task
        else:
            touched = {step.op.name for step in plan.steps if step.op.type in VARIABLE_OPS}
            used = {task: [n for n in names if n in touched] for task, names in by_task.items()}
            used = {task: names for task, names in used.items() if names}
        self._by_plan[id(plan)] = (plan, used)
        return used

    def _call(self, task: str, fn: Any, *args: Any) -> Any:
        try:
            return rpc.rpc_sync(task, fn, args=args, timeout=rpc_timeout())
        except RuntimeError as e:
            raise errors.UnavailableError(
                None, None, f"The parameter server task /job:ps/task:{task.split('_')[1]} "
                            f"cannot be reached: {str(e).strip()}") from e

    def before_run(self, state: Dict[str, Any], plan: Any) -> Any:
        """Pulls the run's ps variables this session is behind on into `state`; returns
        what `after_run` needs."""
        _RUN.after_push = []
        used = self._plan_variables(plan)
        before: Dict[str, torch.Tensor] = {}
        base: Dict[str, int] = {}
        for task, names in used.items():
            known = {n: self._versions[n] for n in names
                     if n in self._versions and isinstance(state.get(n), torch.Tensor)}
            pulled = self._call(task, _pull, names, known)
            for name in names:
                if name in pulled:
                    version, value = pulled[name]
                    state[name] = value.to(self._devices.get(name, "cpu"))
                    self._versions[name] = version
                elif name not in known:
                    state.pop(name, None)       # not on the ps yet: uninitialized here
                    self._versions.pop(name, None)
                    continue
                before[name] = state[name].clone()
                base[name] = self._versions[name]
        return used, before, base

    def after_run(self, state: Dict[str, Any], pulled: Any) -> None:
        """Sends the ps tasks what the run changed (`pulled`: before_run's result)."""
        used, before_values, base = pulled
        callbacks, _RUN.after_push = getattr(_RUN, "after_push", None) or [], None
        self._push(state, used, before_values, base)
        for callback in callbacks:
            callback()

    def abandon_run(self, state: Dict[str, Any], pulled: Any) -> None:
        """A run that failed pushes nothing: what it changed in `state` is pulled over by
        the next run."""
        _RUN.after_push = None
        _, before_values, _ = pulled
        for name, before in before_values.items():
            value = state.get(name)
            unchanged = isinstance(value, torch.Tensor) and torch.equal(
                value, before.to(value.device))
            if not unchanged:
                self._versions.pop(name, None)

    def _push(self, state: Dict[str, Any], used: Dict[str, List[str]],
              before_values: Dict[str, torch.Tensor], base: Dict[str, int]) -> None:
        as_values = bool(self._session.graph.get_collection(SYNC_REPLICAS_COLLECTION))
        for task, names in used.items():
            initial, changes, values = {}, {}, {}
            for name in names:
                value = state.get(name)
                if not isinstance(value, torch.Tensor):
                    continue
                before = before_values.get(name)
                if before is None:
                    initial[name] = value.detach().cpu().clone()
                elif not torch.equal(value, before.to(value.device)):
                    if as_values or value.dtype == torch.bool or not value.is_floating_point() \
                            and value.dtype not in (torch.int32, torch.int64):
                        values[name] = value.detach().cpu().clone()
                    else:
                        changes[name] = (value.detach() - before.to(value.device)).cpu()
            if initial or changes or values:
                in_sync = self._call(task, _push, initial, changes, values, base)
                for name in list(initial) + list(changes) + list(values):
                    if name in in_sync:
                        self._versions[name] = in_sync[name]
                    else:       # the ps value is not this session's: pull it next run
                        self._versions.pop(name, None)


# Targets of in-process clusters (local_cluster.py: tf.test.create_local_cluster): target ->
# a function making the session's exchange with that cluster's variable stores.
LOCAL_TARGETS: Dict[str, Any] = {}


def _session_for_target(session: Any, target: str) -> Optional[RemoteVariables]:
    server = _ACTIVE["server"]
    if not target.startswith("grpc://"):
        return None
    if target in LOCAL_TARGETS:
        return LOCAL_TARGETS[target](session)
    if server is None:
        # TF would try to reach that server (and wait); running locally instead would
        # silently train apart from the cluster. Not UnavailableError: MonitoredSession
        # retries those forever.
        raise errors.FailedPreconditionError(
            None, None, f"Session target {target}: no tf.train.Server runs in this process. "
                        "tf1compat serves grpc:// targets from the tf.train.Server of the "
                        "session's own process: start tf.train.Server(cluster, job_name, "
                        "task_index) first (tf.estimator.train_and_evaluate starts it for "
                        "TF_CONFIG tasks).")
    return RemoteVariables(session, server)


hooks.SESSION_TARGETS["grpc"] = _session_for_target
hooks.STD_SERVER["Server"] = Server
