"""`tf.distribute` (TF1 API): the Strategy base class, its `extended` object, replica
contexts, and the functions that find the current ones (`get_strategy`,
`get_replica_context`, `in_cross_replica_context`, ...).

Contexts. Each thread keeps a stack of (graph, strategy, cross-replica or replica
context) entries; the innermost entry for the default graph is the current one. Outside
every `strategy.scope()` that is the default strategy (one replica, no aggregation) in
its default replica context; `scope()` pushes a cross-replica context; the replica
function of `strategy.run` / `extended.call_for_each_replica` runs in a replica context
(mirrored.py runs one thread per replica), and `merge_call` runs its function back in
the cross-replica context.

Variables created under a strategy's scope are resource variables, as TF makes them.
"""

from __future__ import annotations

import contextlib
import enum
import threading
from typing import Any, Callable, Dict, Iterator, List, Optional, Sequence

from tf1compat.framework.graph import get_default_graph
from tf1compat.training.strategies.values import DistributedValues, ReduceOp, local_results

__all__ = ["Strategy", "StrategyExtended", "ReplicaContext", "InputContext",
           "InputReplicationMode", "get_strategy", "has_strategy", "get_replica_context",
           "get_cross_replica_context", "in_cross_replica_context",
           "experimental_set_strategy", "get_loss_reduction", "push_context",
           "current_replica_context_for_merge"]


# -- the context stack ------------------------------------------------------------------------

class _Entry:
    __slots__ = ("graph", "strategy", "cross_replica", "replica")

    def __init__(self, graph: Any, strategy: "Strategy", cross_replica: Optional["Strategy"],
                 replica: Optional["ReplicaContext"]):
        self.graph = graph
        self.strategy = strategy
        self.cross_replica = cross_replica
        self.replica = replica


class _Stacks(threading.local):
    def __init__(self) -> None:
        super().__init__()
        self.entries: List[_Entry] = []


_STACKS = _Stacks()


def _current() -> _Entry:
    graph = get_default_graph()
    for entry in reversed(_STACKS.entries):
        if entry.graph is graph:
            return entry
    default = _default_strategy()
    return _Entry(graph, default, None, default._default_replica_context)


@contextlib.contextmanager
def push_context(strategy: "Strategy", cross_replica: Optional["Strategy"],
                 replica: Optional["ReplicaContext"]) -> Iterator[None]:
    """Makes (strategy, context) current in this thread for the default graph."""
    entry = _Entry(get_default_graph(), strategy, cross_replica, replica)
    _STACKS.entries.append(entry)
    try:
        yield
    finally:
        _STACKS.entries.remove(entry)


def get_strategy() -> "Strategy":
    """`tf.distribute.get_strategy`: the current strategy (the default one outside scopes)."""
    return _current().strategy


def has_strategy() -> bool:
    """`tf.distribute.has_strategy`: whether a non-default strategy is current."""
    return _current().strategy is not _default_strategy()


def get_replica_context() -> Optional["ReplicaContext"]:
    """`tf.distribute.get_replica_context`: the current ReplicaContext, or None in a
    cross-replica context (inside `strategy.scope()`, outside the replica function)."""
    return _current().replica


def get_cross_replica_context() -> Optional["Strategy"]:
    """The strategy when in a cross-replica context, else None."""
    return _current().cross_replica


def in_cross_replica_context() -> bool:
    """`tf.distribute.in_cross_replica_context`."""
    return _current().cross_replica is not None


def current_replica_context_for_merge() -> Optional["ReplicaContext"]:
    """The replica context of a non-default strategy's replica function, else None: where
    `Optimizer.apply_gradients` must aggregate through `merge_call`."""
    entry = _current()
    if entry.replica is None or entry.strategy is _default_strategy():
        return None
    return entry.replica


_GLOBAL_SCOPE: List[Any] = []


def experimental_set_strategy(strategy: Optional["Strategy"]) -> None:
    """`tf.distribute.experimental_set_strategy`: enter `strategy.scope()` for good (None
    leaves the one entered before)."""
    if _GLOBAL_SCOPE:
        _GLOBAL_SCOPE.pop().__exit__(None, None, None)
    if strategy is not None:
        if has_strategy():
            raise RuntimeError("Must not be called inside a `tf.distribute.Strategy` scope.")
        scope = strategy.scope()
        scope.__enter__()
        _GLOBAL_SCOPE.append(scope)


def get_loss_reduction() -> ReduceOp:
    """`tf.distribute.get_loss_reduction` (TF1): how a v1 optimizer combines the replicas'
    gradients. MEAN (the loss is divided by the number of replicas) only where Estimator
    asked for it, unless the last tf.losses reduction was SUM."""
    strategy = get_strategy()
    if not getattr(strategy.extended, "_scale_loss_for_estimator", False):
        return ReduceOp.SUM
    last = getattr(get_default_graph(), "_last_loss_reduction", None)
    if last in ("weighted_sum", "sum"):
        return ReduceOp.SUM
    return ReduceOp.MEAN


def _require_cross_replica_or_default(extended: "StrategyExtended") -> None:
    entry = _current()
    strategy = extended._container_strategy()
    if entry.cross_replica is strategy:
        return
    default = _default_strategy()
    if entry.strategy is default and entry.replica is default._default_replica_context:
        return
    if entry.strategy is not strategy:
        raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: "
                           f"{entry.strategy} is not {strategy}")
    raise RuntimeError("Method requires being in cross-replica context, use "
                       "get_replica_context().merge_call()")


# -- replica contexts -------------------------------------------------------------------------

class ReplicaContext:
    """`tf.distribute.ReplicaContext`: where the replica function runs."""

    def __init__(self, strategy: "Strategy", replica_id_in_sync_group: int):
        self._strategy = strategy
        self._replica_id = replica_id_in_sync_group
        self._merge_hook: Optional[Callable[..., Any]] = None   # set by the replica runner

    @property
    def strategy(self) -> "Strategy":
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self) -> Any:
        """This replica's index, as an int32 tensor (graph mode), as TF."""
        from tf1compat.framework.constant_op import constant
        from tf1compat.framework import dtypes
        return constant(self._replica_id + self._strategy.extended._replica_id_offset,
                        dtypes.int32, name="replica_id_in_sync_group")

    @property
    def devices(self) -> tuple:
        return (self._strategy.extended.worker_devices[self._replica_id],)

    def merge_call(self, merge_fn: Callable[..., Any], args: Sequence[Any] = (),
                   kwargs: Optional[Dict[str, Any]] = None) -> Any:
        """Runs `merge_fn(strategy, *args, **kwargs)` once in the cross-replica context,
        with every replica's `args` combined into per-replica values; each replica gets
        its own part of the result."""
        kwargs = kwargs or {}
        if get_replica_context() is not self:
            raise RuntimeError("`merge_call` called while defining a new graph or a "
                               "tf.function. This can often happen if the function `fn` "
                               "passed to `strategy.run()` contains a nested "
                               "`@tf.function`, and the nested `@tf.function` contains a "
                               "synchronization point, such as aggregating gradients "
                               "(e.g, optimizer.apply_gradients), or if the function `fn` "
                               "uses a control flow statement which contains a "
                               "synchronization point in the body. Such behaviors are not "
                               "yet supported. Instead, please avoid nested "
                               "`tf.function`s or control flow statements that may "
                               "potentially cross a synchronization boundary, for example, "
                               "wrap the `fn` passed to `strategy.run` or the entire "
                               "`strategy.run` inside a `tf.function` or move the control "
                               "flow out of `fn`. If you are subclassing a "
                               "`tf.keras.Model`, please avoid decorating overridden "
                               "methods `test_step` and `train_step` in `tf.function`.")
        if self._merge_hook is not None:
            return self._merge_hook(merge_fn, args, kwargs)
        with push_context(self._strategy, self._strategy, None):
            return merge_fn(self._strategy, *args, **kwargs)

    def all_reduce(self, reduce_op: Any, value: Any) -> Any:
        """Reduces `value` (a nest of tensors) across the replicas; every replica gets the
        result."""
        reduce_op = _as_reduce_op(reduce_op)

        def _merge(strategy: "Strategy", per_replica: Any) -> Any:
            from tf1compat.util import nest
            return nest.map_structure(
                lambda v: strategy.extended._reduce_to_replicas(reduce_op, v), per_replica)
        return self.merge_call(_merge, args=(value,))

    def __enter__(self) -> "ReplicaContext":
        self._pushed = push_context(self._strategy, None, self)
        self._pushed.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._pushed.__exit__(*exc)


def _as_reduce_op(reduce_op: Any) -> ReduceOp:
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str) and reduce_op.upper() in ("SUM", "MEAN"):
        return ReduceOp[reduce_op.upper()]
    name = getattr(reduce_op, "name", None)
    if name in ("SUM", "MEAN"):
        return ReduceOp[name]
    raise TypeError(f"Expected `reduce_op` to be a `tf.distribute.ReduceOp`, not: "
                    f"{reduce_op!r}")


# -- input helpers ----------------------------------------------------------------------------

class InputReplicationMode(enum.Enum):
    """`tf.distribute.InputReplicationMode`."""

    PER_WORKER = "PER_WORKER"
    PER_REPLICA = "PER_REPLICA"


class InputContext:
    """`tf.distribute.InputContext`: what an input function needs to know to shard."""

    def __init__(self, num_input_pipelines: int = 1, input_pipeline_id: int = 0,
                 num_replicas_in_sync: int = 1):
        self._num_input_pipelines = num_input_pipelines
        self._input_pipeline_id = input_pipeline_id
        self._num_replicas_in_sync = num_replicas_in_sync

    num_replicas_in_sync = property(lambda self: self._num_replicas_in_sync)
    input_pipeline_id = property(lambda self: self._input_pipeline_id)
    num_input_pipelines = property(lambda self: self._num_input_pipelines)

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        """`global_batch_size / num_replicas_in_sync`; ValueError when it does not divide."""
        if global_batch_size % self._num_replicas_in_sync != 0:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible "
                             f"by `num_replicas_in_sync` {self._num_replicas_in_sync} ")
        return global_batch_size // self._num_replicas_in_sync

    def __str__(self) -> str:
        return (f"tf.distribute.InputContext(input pipeline id {self._input_pipeline_id}, "
                f"total: {self._num_input_pipelines})")


# -- Strategy ---------------------------------------------------------------------------------

class StrategyExtended:
    """`tf.distribute.StrategyExtended` (TF1): the strategy's device-level API."""

    # Between-graph strategies (one process per worker) number the replicas of this
    # process from `_replica_id_offset` and read their input as pipeline
    # `_input_pipeline_id` of `_num_input_pipelines`.
    _replica_id_offset = 0
    _num_input_pipelines = 1
    _input_pipeline_id = 0
    # Whether the variables live on a cluster's ps tasks (the Estimator's distribute
    # coordinator then starts the tasks' tf.train.Servers).
    parameter_server_training = False

    def __init__(self, container_strategy: "Strategy"):
        self._container_strategy_ref = container_strategy
        self._scale_loss_for_estimator = False

    def _container_strategy(self) -> "Strategy":
        return self._container_strategy_ref

    # devices
    @property
    def worker_devices(self) -> tuple:
        raise NotImplementedError("must be implemented in descendants")

    @property
    def parameter_devices(self) -> tuple:
        return self.worker_devices

    def non_slot_devices(self, var_list: Any) -> Any:
        return self.parameter_devices[0]

    @property
    def experimental_between_graph(self) -> bool:
        return False

    @property
    def experimental_should_init(self) -> bool:
        return True

    @property
    def should_checkpoint(self) -> bool:
        return True

    @property
    def should_save_summary(self) -> bool:
        return True

    @property
    def experimental_require_static_shapes(self) -> bool:
        return False

    def colocate_vars_with(self, colocate_with_variable: Any) -> Any:
        from tf1compat.framework.graph import colocate_with
        return colocate_with(colocate_with_variable)

    def _variable_device(self) -> Optional[str]:
        """Where the strategy puts its variables (None: where they are created)."""
        return None

    def _create_variable(self, next_creator: Callable[..., Any], kwargs: Dict[str, Any]
                         ) -> Any:
        """Creates a variable of the strategy's scope (multi-worker strategies make its
        initial value the same on every worker)."""
        return next_creator(**kwargs)

    def _in_multi_worker_mode(self) -> bool:
        """Whether the replicas span several processes (MonitoredTrainingSession then
        initializes on every worker and checkpoints on the chief, as TF)."""
        return False

    def variable_created_in_scope(self, v: Any) -> bool:
        return getattr(v, "_created_by_strategy", None) is self._container_strategy()

    # replica functions and aggregation
    def call_for_each_replica(self, fn: Callable[..., Any], args: Sequence[Any] = (),
                              kwargs: Optional[Dict[str, Any]] = None) -> Any:
        """Runs `fn` once per replica in a replica context; the results, regrouped."""
        raise NotImplementedError("must be implemented in descendants")

    def _reduce_to(self, reduce_op: ReduceOp, value: Any) -> Any:
        raise NotImplementedError("must be implemented in descendants")

    def reduce_to(self, reduce_op: Any, value: Any, destinations: Any = None,
                  experimental_hints: Any = None) -> Any:
        """Combines a per-replica value (cross-replica context)."""
        _require_cross_replica_or_default(self)
        return self._reduce_to(_as_reduce_op(reduce_op), value)

    def _reduce_to_replicas(self, reduce_op: ReduceOp, value: Any) -> Any:
        """The reduced value on every replica's device (a Mirrored value)."""
        return self._reduce_to(reduce_op, value)

    def batch_reduce_to(self, reduce_op: Any, value_destination_pairs: Any,
                        experimental_hints: Any = None) -> List[Any]:
        """`reduce_to` of each (value, destinations) pair; the destinations are taken to be
        mirrored variables: the result is on every replica's device."""
        _require_cross_replica_or_default(self)
        op = _as_reduce_op(reduce_op)
        return [self._reduce_to_replicas(op, v) for v, _ in value_destination_pairs]

    def broadcast_to(self, tensor: Any, destinations: Any) -> Any:
        return tensor

    def read_var(self, v: Any) -> Any:
        """The variable's value as a tensor (cross-replica)."""
        from tf1compat.ops.array_ops import identity
        return identity(v)

    def value_container(self, value: Any) -> Any:
        return value

    def update(self, var: Any, fn: Callable[..., Any], args: Sequence[Any] = (),
               kwargs: Optional[Dict[str, Any]] = None, group: bool = True) -> Any:
        """Runs `fn(var, *args)` to update `var` (variables are shared by the replicas, so
        once), in the cross-replica context."""
        _require_cross_replica_or_default(self)
        from tf1compat.framework.graph import colocate_with
        from tf1compat.training.strategies.values import select_replica
        with colocate_with(var):
            result = fn(var, *select_replica(0, tuple(args)),
                        **select_replica(0, dict(kwargs or {})))
        return self._local_group(result) if group else result

    def update_non_slot(self, colocate_with: Any, fn: Callable[..., Any],
                        args: Sequence[Any] = (), kwargs: Optional[Dict[str, Any]] = None,
                        group: bool = True) -> Any:
        result = fn(*args, **(kwargs or {}))
        return self._local_group(result) if group else result

    @staticmethod
    def _local_group(result: Any) -> Any:
        from tf1compat.util import nest
        from tf1compat.ops.control_flow_ops import group
        flat = nest.flatten(result)
        if all(hasattr(x, "op") or hasattr(x, "type") for x in flat) and flat:
            return group(*flat)
        return result

    def experimental_make_numpy_dataset(self, numpy_input: Any, session: Any = None) -> Any:
        from tf1compat.data.dataset_ops import Dataset
        return Dataset.from_tensor_slices(numpy_input)

    def experimental_run_steps_on_iterator(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("StrategyExtended.experimental_run_steps_on_iterator (a "
                                  "TPU-loop API) is not provided")

    @contextlib.contextmanager
    def _scale_loss_for_estimator_enabled(self) -> Iterator[None]:
        """Estimator's switch: v1 optimizers divide the loss by the number of replicas."""
        self._scale_loss_for_estimator = True
        try:
            yield
        finally:
            self._scale_loss_for_estimator = False


class Strategy:
    """`tf.distribute.Strategy` (TF1 API): distributes a computation over replicas."""

    def __init__(self, extended: StrategyExtended):
        self._extended = extended
        self._default_replica_context = ReplicaContext(self, 0)

    @property
    def extended(self) -> StrategyExtended:
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        return len(self._extended.worker_devices)

    @property
    def cluster_resolver(self) -> Any:
        return None

    def scope(self) -> Any:
        """`with strategy.scope():` — variables created here are the strategy's."""
        return _StrategyScope(self)

    def run(self, fn: Callable[..., Any], args: Sequence[Any] = (),
            kwargs: Optional[Dict[str, Any]] = None, options: Any = None) -> Any:
        """Runs `fn` on each replica with its part of `args`; per-replica results."""
        with self.scope():
            return self._extended.call_for_each_replica(fn, args=tuple(args),
                                                        kwargs=kwargs or {})

    experimental_run_v2 = run   # (TF 1.15's name)

    def experimental_run(self, fn: Callable[..., Any], input_iterator: Any = None) -> Any:
        """`fn(inputs)` on each replica, its inputs the iterator's next element."""
        inputs = input_iterator.get_next() if input_iterator is not None else None
        args = (inputs,) if input_iterator is not None else ()
        return self.run(fn, args=args)

    def reduce(self, reduce_op: Any, value: Any, axis: Any = None) -> Any:
        """Combines the replicas' values (cross-replica context). With `axis`, each
        replica's value is first reduced along it (MEAN counts the elements)."""
        _require_cross_replica_or_default(self._extended)
        op = _as_reduce_op(reduce_op)
        if axis is None:
            return self._extended._reduce_to(op, value)
        from tf1compat.ops import math_ops, array_ops
        from tf1compat.ops.indexing_ops import gather
        from tf1compat.ops.reduction_ops import reduce_prod, reduce_sum
        from tf1compat.framework import dtypes
        if op == ReduceOp.SUM:
            sums = self.run(lambda v: reduce_sum(v, axis=axis), args=(value,))
            return self._extended._reduce_to(op, sums)

        def mean_parts(v: Any) -> Any:
            numer = reduce_sum(v, axis=axis)
            axes = axis if isinstance(axis, (list, tuple)) else [axis]
            shape = array_ops.shape(v, out_type=dtypes.int64)
            denom = reduce_prod(gather(shape, list(axes)))
            return numer, math_ops.cast(denom, numer.dtype)
        numer, denom = self.run(mean_parts, args=(value,))
        numer = self._extended._reduce_to(ReduceOp.SUM, numer)
        denom = self._extended._reduce_to(ReduceOp.SUM, denom)
        return math_ops.truediv(numer, denom)

    def experimental_local_results(self, value: Any) -> tuple:
        """The replicas' parts of `value`, as a tuple."""
        return local_results(value, self.num_replicas_in_sync)

    unwrap = experimental_local_results

    def group(self, value: Any, name: Optional[str] = None) -> Any:
        """One op that runs every replica's ops of `value`."""
        from tf1compat.util import nest
        from tf1compat.ops.control_flow_ops import group
        flat = [x for v in nest.flatten(value, expand_composites=False)
                for x in (local_results(v) if isinstance(v, DistributedValues) else (v,))]
        return group(*flat, name=name)

    def colocate_vars_with(self, colocate_with_variable: Any) -> Any:
        return self._extended.colocate_vars_with(colocate_with_variable)

    def configure(self, session_config: Any = None, cluster_spec: Any = None,
                  task_type: Any = None, task_id: Any = None) -> None:
        """Nothing to configure for local strategies."""

    def update_config_proto(self, config_proto: Any) -> Any:
        import copy
        return copy.deepcopy(config_proto)

    def make_dataset_iterator(self, dataset: Any) -> Any:
        """An iterator whose elements are split over the replicas (each global batch
        becomes `num_replicas_in_sync` per-replica batches)."""
        from tf1compat.training.strategies import input_lib
        return input_lib.DatasetIterator(dataset, self)

    def make_input_fn_iterator(self, input_fn: Callable[..., Any],
                               replication_mode: Any = InputReplicationMode.PER_WORKER) -> Any:
        """`input_fn(InputContext)` builds a dataset; each replica takes its own element."""
        if replication_mode != InputReplicationMode.PER_WORKER:
            raise ValueError("Input replication mode not supported: %r" % replication_mode)
        from tf1compat.training.strategies import input_lib
        return input_lib.InputFunctionIterator(input_fn, self)

    def experimental_distribute_dataset(self, dataset: Any, options: Any = None) -> Any:
        from tf1compat.training.strategies import input_lib
        return input_lib.DistributedDataset(dataset, self)

    def distribute_datasets_from_function(self, dataset_fn: Callable[..., Any],
                                          options: Any = None) -> Any:
        from tf1compat.training.strategies import input_lib
        return input_lib.DistributedDatasetFromFunction(dataset_fn, self)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_make_numpy_dataset(self, numpy_input: Any, session: Any = None) -> Any:
        return self._extended.experimental_make_numpy_dataset(numpy_input, session)


class ClusterStrategy(Strategy):
    """A between-graph strategy (one process per task of a cluster): it stands for this
    process's place in the cluster, which its extended holds (`_cluster_resolver`,
    `configure`)."""

    def __deepcopy__(self, memo: Any) -> "ClusterStrategy":
        # One strategy per process (its place, and any collective instance keys): a copy
        # (RunConfig.replace deep-copies the config) must share it.
        return self

    @property
    def cluster_resolver(self) -> Any:
        from tf1compat.training.cluster_resolver import TFConfigClusterResolver
        return self.extended._cluster_resolver or TFConfigClusterResolver()

    def configure(self, session_config: Any = None, cluster_spec: Any = None,
                  task_type: Any = None, task_id: Any = None) -> None:
        """Places this strategy in `cluster_spec` as task `task_type:task_id` (the
        distribute coordinator's call); a strategy that knows its cluster keeps it."""
        self.extended.configure(session_config, cluster_spec, task_type, task_id)


class _StrategyScope:
    """`strategy.scope()`: cross-replica context; variables become resource variables."""

    def __init__(self, strategy: Strategy):
        self._strategy = strategy

    def __enter__(self) -> Strategy:
        from tf1compat.variables.variables import variable_creator_scope
        entry = _current()
        if entry.strategy is not _default_strategy() and entry.strategy is not \
                self._strategy:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: "
                               f"{self._strategy} is not {entry.strategy}")
        if entry.replica is not None and entry.strategy is self._strategy:
            self._stack = contextlib.ExitStack()     # (already in this strategy's replica)
            return self._strategy
        from tf1compat.variables.variable_scope import get_variable_scope, variable_scope
        self._stack = contextlib.ExitStack()
        self._stack.enter_context(push_context(self._strategy, self._strategy, None))
        self._stack.enter_context(variable_creator_scope(self._creator))
        self._stack.enter_context(variable_scope(get_variable_scope(),
                                                 custom_getter=_without_partitioner))
        return self._strategy

    def _creator(self, next_creator: Callable[..., Any], **kwargs: Any) -> Any:
        kwargs["use_resource"] = True
        device = self._strategy.extended._variable_device()
        with get_default_graph().device(device) if device else contextlib.nullcontext():
            variable = self._strategy.extended._create_variable(next_creator, kwargs)
        variable._created_by_strategy = self._strategy
        return variable

    def __exit__(self, *exc: Any) -> None:
        self._stack.__exit__(*exc)


def _without_partitioner(getter: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """Under a strategy variables are not partitioned (TF drops the partitioner)."""
    if kwargs.pop("partitioner", None) is not None:
        from tf1compat.util import tf_logging
        tf_logging.log_first_n(tf_logging.WARN, "Partitioned variables are disabled when "
                               "using current tf.distribute.Strategy.", 1)
    return getter(*args, **kwargs)


class _DefaultExtended(StrategyExtended):
    @property
    def worker_devices(self) -> tuple:
        return ("/job:localhost/replica:0/task:0/device:CPU:0",)

    @property
    def parameter_devices(self) -> tuple:
        return self.worker_devices

    def call_for_each_replica(self, fn: Callable[..., Any], args: Sequence[Any] = (),
                              kwargs: Optional[Dict[str, Any]] = None) -> Any:
        with push_context(self._container_strategy(), None,
                          self._container_strategy()._default_replica_context):
            return fn(*args, **(kwargs or {}))

    def _reduce_to(self, reduce_op: ReduceOp, value: Any) -> Any:
        return value


class _DefaultStrategy(Strategy):
    def scope(self) -> Any:
        if has_strategy():
            raise RuntimeError("Must not nest tf.distribute.Strategy scopes.")
        return contextlib.nullcontext(self)


_DEFAULT: List[Strategy] = []


def _default_strategy() -> Strategy:
    if not _DEFAULT:
        strategy = _DefaultStrategy.__new__(_DefaultStrategy)
        Strategy.__init__(strategy, _DefaultExtended(strategy))
        _DEFAULT.append(strategy)
    return _DEFAULT[0]
