"""`tf.distribute.MirroredStrategy`, `OneDeviceStrategy`,
`experimental.CentralStorageStrategy` (and contrib's `MirroredStrategy(num_gpus=)`): in-graph
replication over the devices of this process.

The replica function runs once per device, replica k's ops under `tf.device(device k)`
and, for k > 0, the name scope `replica_k/` — TF's tower naming. The replicas share one
copy of each variable: replica 0 creates it, the others get the same object (by
`get_variable` reuse, or by name and creation order for `tf.Variable`, as TF's
shared_variable_creator). TF keeps a component per device that every update writes
identically, so the values, names (`w:0`, one entry in the collections) and checkpoints
are TF's; what differs is only where the copies live (`w/replica_1` does not exist).

Like TF, the replicas run one after another in threads: a replica that calls
`merge_call` (`Optimizer.apply_gradients`, `ReplicaContext.all_reduce`) stops until all
have called it, then the merge function runs once in the cross-replica context with their
arguments as per-replica values, and each replica continues with its part of the result.
Only one thread builds ops at any time; the graph's scoping state (name scope, control
dependencies, devices, colocation, variable creators) is swapped at each hand-over so
that each replica sees its own.
"""

from __future__ import annotations

import contextlib
import re
import threading
from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.graph import get_default_graph
from tf1compat.training.strategies import cross_device_ops as cross_ops_lib
from tf1compat.training.strategies.distribute_lib import (ReplicaContext, Strategy,
                                                          StrategyExtended, push_context)
from tf1compat.training.strategies.values import (DistributedValues, Mirrored, ReduceOp,
                                                  regroup, select_replica)

__all__ = ["MirroredStrategy", "OneDeviceStrategy", "CentralStorageStrategy",
           "ContribMirroredStrategy", "canonical_device",
           "all_local_devices"]


def canonical_device(device: str, default_job: Optional[str] = None) -> str:
    """'/gpu:1' -> '/replica:0/task:0/device:GPU:1' (TF's device_util.canonicalize)."""
    spec = DeviceSpec.from_string(device)
    job = spec.job or default_job
    head = f"/job:{job}" if job else ""
    kind = (spec.device_type or "CPU").upper()
    index = spec.device_index if spec.device_index is not None else 0
    replica = spec.replica if spec.replica is not None else 0
    task = spec.task if spec.task is not None else 0
    return f"{head}/replica:{replica}/task:{task}/device:{kind}:{index}"


def all_local_devices() -> tuple:
    """Every GPU torch sees, else the CPU (TF's default devices of MirroredStrategy)."""
    from tf1compat.runtime.placement import list_local_devices
    gpus = [d.name for d in list_local_devices() if d.device_type == "GPU"]
    names = gpus or ["/device:CPU:0"]
    return tuple(canonical_device(d, "localhost") for d in names)


# -- graph state per replica thread -------------------------------------------------------------

_CREATORS = "variable_creator_stack"


class _GraphState:
    """The scoping state of a graph that each replica thread keeps for itself."""

    __slots__ = ("name_stack", "control_deps", "devices", "colocation", "cond_context",
                 "creators")

    @classmethod
    def capture(cls, graph: Any, copy: bool) -> "_GraphState":
        state = cls()
        fresh = list if copy else (lambda x: x)
        state.name_stack = graph._name_stack
        state.control_deps = fresh(graph._control_dependencies_stack)
        state.devices = fresh(graph._device_function_stack)
        state.colocation = fresh(graph._colocation_stack)
        state.cond_context = graph._control_flow_context
        state.creators = fresh(graph._extras.setdefault(_CREATORS, []))
        return state

    def install(self, graph: Any) -> None:
        graph._name_stack = self.name_stack
        graph._control_dependencies_stack = self.control_deps
        graph._device_function_stack = self.devices
        graph._colocation_stack = self.colocation
        graph._control_flow_context = self.cond_context
        graph._extras[_CREATORS] = self.creators


class _ReplicaThread(threading.Thread):
    """Runs the replica function of one replica, pausing at each merge_call."""

    def __init__(self, runner: "_ReplicaRunner", replica_id: int):
        super().__init__(name=f"tf1compat-replica-{replica_id}", daemon=True)
        self.runner = runner
        self.replica_id = replica_id
        self.state = _GraphState.capture(runner.graph, copy=True)
        self.should_run = threading.Event()
        self.has_paused = threading.Event()
        self.done = False
        self.result: Any = None
        self.error: Optional[BaseException] = None
        self.merge: Optional[tuple] = None          # (merge_fn, args, kwargs)
        self.merge_result: Any = None
        self.merge_var_scope: Any = None
        self.shared_names: Dict[str, int] = {}

    def run(self) -> None:
        self.should_run.wait()
        self.should_run.clear()
        runner = self.runner
        if runner.aborted:          # another replica failed before this one started
            self.done = True
            self.has_paused.set()
            return
        try:
            # (eagerly the replicas run their ops at once; graph mode builds in the graph)
            with contextlib.nullcontext() if runner.eager else runner.graph.as_default():
                self.state.install(runner.graph)
                with contextlib.ExitStack() as stack:
                    self._enter_replica(stack)
                    self.result = runner.fn(*select_replica(self.replica_id, runner.args),
                                            **select_replica(self.replica_id, runner.kwargs))
        except BaseException as e:      # handed to the main thread
            self.error = e
        finally:
            self.done = True
            self.state = _GraphState.capture(runner.graph, copy=False)
            self.has_paused.set()

    def _enter_replica(self, stack: contextlib.ExitStack) -> None:
        from tf1compat.variables.variable_scope import variable_scope
        from tf1compat.variables.variables import variable_creator_scope
        runner, graph = self.runner, self.runner.graph
        context = ReplicaContext(runner.strategy, self.replica_id)
        context._merge_hook = self.merge_call
        stack.enter_context(push_context(runner.strategy, None, context))
        stack.enter_context(graph.device(runner.devices[self.replica_id]))
        if self.replica_id > 0 and not runner.eager:
            outer = graph.get_name_scope()
            scope = (outer + "/" if outer else "") + f"replica_{self.replica_id}/"
            stack.enter_context(graph.name_scope(scope))
        stack.enter_context(variable_scope(runner.var_scope,
                                           reuse=True if self.replica_id > 0 else None))
        stack.enter_context(variable_creator_scope(self._share_variable))

    def _share_variable(self, next_creator: Callable[..., Any], **kwargs: Any) -> Any:
        """Replica 0 creates variables; replica k gets replica 0's of the same name."""
        store = self.runner.created
        key = _canonical_variable_name(kwargs.get("name"))
        if self.replica_id == 0:
            variable = next_creator(**kwargs)
            store.setdefault(key, []).append(variable)
            return variable
        index = self.shared_names.get(key, 0)
        try:
            variable = store[key][index]
        except (KeyError, IndexError):
            raise RuntimeError(f"Tried to create variable {kwargs.get('name')} with "
                               f"mismatching name on device {self.replica_id}") from None
        self.shared_names[key] = index + 1
        return variable

    def merge_call(self, merge_fn: Callable[..., Any], args: Sequence[Any],
                   kwargs: Dict[str, Any]) -> Any:
        from tf1compat.variables.variable_scope import get_variable_scope
        self.merge = (merge_fn, tuple(args), dict(kwargs))
        self.merge_var_scope = get_variable_scope()
        graph = self.runner.graph
        self.state = _GraphState.capture(graph, copy=False)
        self.has_paused.set()
        self.should_run.wait()
        self.should_run.clear()
        self.state.install(graph)
        if self.runner.aborted:
            raise _Aborted()
        return self.merge_result


class _Aborted(Exception):
    """Stops a paused replica thread when another replica failed."""


_UNIQUIFIED = re.compile(r"_\d/")
_UNIQUIFIED_AT_END = re.compile(r"_\d$")


def _canonical_variable_name(name: Optional[str]) -> str:
    if name is None:
        return "Variable"
    name = _UNIQUIFIED.sub("/", name)
    return _UNIQUIFIED_AT_END.sub("", name)


class _ReplicaRunner:
    """One `call_for_each_replica`: the threads and the merge loop (TF's mirrored_run)."""

    def __init__(self, strategy: Strategy, devices: Sequence[str], fn: Callable[..., Any],
                 args: tuple, kwargs: Dict[str, Any]):
        from tf1compat.variables.variable_scope import get_variable_scope
        self.strategy = strategy
        self.devices = list(devices)
        self.fn, self.args, self.kwargs = fn, args, kwargs
        from tf1compat.framework import context
        self.graph = get_default_graph()
        self.eager = context.executing_eagerly()
        self.var_scope = get_variable_scope()
        self.created: Dict[str, List[Any]] = {}
        self.aborted = False

    def run(self) -> Any:
        graph = self.graph
        main_state = _GraphState.capture(graph, copy=False)
        threads = [_ReplicaThread(self, k) for k in range(len(self.devices))]
        for t in threads:
            t.start()
        try:
            while True:
                for t in threads:
                    if t.done:
                        continue
                    t.should_run.set()
                    t.has_paused.wait()
                    t.has_paused.clear()
                    main_state.install(graph)
                    if t.error is not None:
                        raise t.error
                if all(t.done for t in threads):
                    break
                if any(t.done for t in threads):
                    raise RuntimeError("Some replicas made a different number of "
                                       "replica_context().merge_call() calls.")
                self._merge(threads, main_state)
            return regroup([t.result for t in threads])
        finally:
            main_state.install(graph)
            self._stop(threads)

    def _merge(self, threads: List[_ReplicaThread], main_state: _GraphState) -> None:
        merge_fn = threads[0].merge[0]
        args = regroup([t.merge[1] for t in threads])
        kwargs = regroup([t.merge[2] for t in threads])
        from tf1compat.variables.variable_scope import variable_scope
        # As TF: the merge function runs under replica 0's scopes at its merge_call (its
        # name scope, control dependencies, devices and variable scope).
        threads[0].state.install(self.graph)
        try:
            with push_context(self.strategy, self.strategy, None), \
                    variable_scope(threads[0].merge_var_scope):
                result = merge_fn(self.strategy, *args, **kwargs)
        finally:
            main_state.install(self.graph)
        for t in threads:
            t.merge_result = select_replica(t.replica_id, result)

    def _stop(self, threads: List[_ReplicaThread]) -> None:
        self.aborted = True
        for t in threads:
            if not t.done:
                t.should_run.set()
                t.has_paused.wait()
        for t in threads:
            t.join()


# -- the strategies ---------------------------------------------------------------------------

class MirroredExtended(StrategyExtended):
    """Replicas on several local devices, variables shared by them."""

    def __init__(self, container: Strategy, devices: Sequence[str],
                 cross_device_ops: Any = None, parameter_device: Optional[str] = None):
        super().__init__(container)
        if not devices:
            raise ValueError("Must specify at least one device.")
        if len(set(devices)) != len(devices):
            raise AssertionError(f"No duplicates allowed in `devices` argument: "
                                 f"{tuple(devices)}")
        if cross_device_ops is not None and not isinstance(cross_device_ops,
                                                           cross_ops_lib.CrossDeviceOps):
            raise ValueError(f"cross_device_ops must be a tf.distribute.CrossDeviceOps, not "
                             f"{cross_device_ops!r}")
        self._devices = tuple(devices)
        self._cross_device_ops = cross_device_ops or cross_ops_lib.ReductionToOneDevice()
        self._parameter_device = parameter_device

    @property
    def worker_devices(self) -> tuple:
        return self._devices

    @property
    def parameter_devices(self) -> tuple:
        return (self._parameter_device,) if self._parameter_device else self._devices

    def _variable_device(self) -> Optional[str]:
        return self._parameter_device

    def call_for_each_replica(self, fn: Callable[..., Any], args: Sequence[Any] = (),
                              kwargs: Optional[Dict[str, Any]] = None) -> Any:
        return _ReplicaRunner(self._container_strategy(), self._devices, fn, tuple(args),
                              dict(kwargs or {})).run()

    def _reduce_to(self, reduce_op: ReduceOp, value: Any) -> Any:
        if not isinstance(value, DistributedValues):
            return _reduce_non_distributed(reduce_op, value, len(self._devices))
        return self._copies(self._cross_device_ops._reduce(reduce_op, list(value.values)),
                            self._devices[:1])[0]

    def _reduce_to_replicas(self, reduce_op: ReduceOp, value: Any) -> Any:
        if not isinstance(value, DistributedValues):
            return _reduce_non_distributed(reduce_op, value, len(self._devices))
        reduced = self._cross_device_ops._reduce(reduce_op, list(value.values))
        return Mirrored(self._copies(reduced, self._devices))

    @staticmethod
    def _copies(reduced: Any, devices: Sequence[str]) -> List[Any]:
        """The reduced value on each destination device (TF's broadcast: one Identity per
        device, which also gives later ops TF's names)."""
        from tf1compat.framework.indexed_slices import IndexedSlices
        from tf1compat.ops.array_ops import identity
        graph = get_default_graph()
        copies = []
        for device in devices:
            with graph.device(device):
                if isinstance(reduced, IndexedSlices):
                    copies.append(IndexedSlices(identity(reduced.values),
                                                identity(reduced.indices),
                                                reduced.dense_shape))
                else:
                    copies.append(identity(reduced))
        return copies


def _reduce_non_distributed(reduce_op: ReduceOp, value: Any, num_replicas: int) -> Any:
    """TF's reduce_non_distributed_value: one value stands for all replicas."""
    if not hasattr(value, "dtype") and not hasattr(value, "op") and value == 0:
        return 0
    if reduce_op == ReduceOp.MEAN or num_replicas == 1:
        return value
    raise ValueError(f"A non-DistributedValues value {value} cannot be reduced with the "
                     f"given reduce op {reduce_op}.")


class MirroredStrategy(Strategy):
    """`tf.distribute.MirroredStrategy(devices=None, cross_device_ops=None)`: synchronous
    replicas on the local GPUs (or the CPU)."""

    def __init__(self, devices: Optional[Sequence[str]] = None,
                 cross_device_ops: Any = None):
        if devices is None:
            devices = all_local_devices()
        elif isinstance(devices, str):
            devices = [devices]
        devices = tuple(canonical_device(d) for d in devices)
        super().__init__(MirroredExtended(self, devices, cross_device_ops))


class ContribMirroredStrategy(MirroredStrategy):
    """`tf.contrib.distribute.MirroredStrategy(devices=None, num_gpus=None, ...)` (TF 1.x):
    `num_gpus=N` replicates over /device:GPU:0..N-1 (0: the CPU)."""

    def __init__(self, devices: Optional[Sequence[str]] = None,
                 num_gpus: Optional[int] = None, num_gpus_per_worker: Optional[int] = None,
                 cross_device_ops: Any = None, auto_shard_dataset: bool = False,
                 cross_tower_ops: Any = None):
        if cross_tower_ops is not None:
            if cross_device_ops is not None:
                raise ValueError("You cannot specify both `cross_device_ops` and "
                                 "`cross_tower_ops`.")
            cross_device_ops = cross_tower_ops
        if num_gpus is not None and num_gpus_per_worker is not None:
            raise ValueError("You cannot specify both `num_gpus` and `num_gpus_per_worker`.")
        if num_gpus is None:
            num_gpus = num_gpus_per_worker
        if devices is not None and num_gpus is not None:
            raise ValueError("Must only specify one of `devices` and `num_gpus`.")
        if num_gpus is not None:
            devices = ([f"/device:GPU:{i}" for i in range(num_gpus)] if num_gpus > 0
                       else ["/device:CPU:0"])
            devices = [canonical_device(d, "localhost") for d in devices]
        super().__init__(devices, cross_device_ops)
        self._auto_shard_dataset = auto_shard_dataset


class OneDeviceStrategy(Strategy):
    """`tf.distribute.OneDeviceStrategy(device)`: one replica on `device`."""

    def __init__(self, device: str):
        super().__init__(MirroredExtended(self, (canonical_device(device),)))


class CentralStorageStrategy(Strategy):
    """`tf.distribute.experimental.CentralStorageStrategy(compute_devices=None,
    parameter_device=None)`: replicas on the compute devices, variables on the parameter
    device (the CPU when several GPUs compute, else the one device)."""

    def __init__(self, compute_devices: Optional[Sequence[str]] = None,
                 parameter_device: Optional[str] = None):
        devices = tuple(canonical_device(d) for d in compute_devices) if compute_devices \
            else all_local_devices()
        if parameter_device is None:
            parameter_device = devices[0] if len(devices) == 1 else \
                canonical_device("/device:CPU:0", "localhost")
        super().__init__(MirroredExtended(self, devices, parameter_device=parameter_device))
