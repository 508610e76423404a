"""`tf.train.SyncReplicasOptimizer` between processes, with TF's token queue.

In a process running a `tf.train.Server` of a cluster with ps and worker jobs (or on a
`tf.test.create_local_cluster`), the optimizer builds what TF 1.15's builds, with its
shared state (TF's `ConditionalAccumulator`s and the `sync_token_q` FIFOQueue, which live
on the ps) held by ps task 0 and reached over rpc (in this process for a local cluster):

* every worker's train op sends its gradients, tagged with its `sync_rep_local_step`, to
  the accumulator, which drops them when that step is older than the accumulator's global
  step (stale); then it dequeues a token (a global step), assigns it to its local step and
  returns it (TF's train op is that `Assign`, int64);
* the chief's queue runner (`get_chief_queue_runner()`, a QueueRunner of `sync_token_q`
  started by the session hook) runs the sync op over and over: it takes the average of
  `replicas_to_aggregate` gradients of the current step (waiting for them; as TF's
  accumulator, a waiting take is completed by the apply that brings the last gradient,
  which moves the accumulator to the next step at once), applies it with the wrapped
  optimizer (incrementing the global step) and enqueues
  `max(total_num_replicas, replicas_to_aggregate)` tokens of the new global step;
* `get_init_tokens_op(num_tokens)` enqueues `num_tokens` tokens of the global step
  (`replicas_to_aggregate` by default), which the hook runs on the chief at the start.

So, as in TF, a worker may compute several gradients of one step (it holds several
tokens): with the default init tokens a fast worker can complete the first step alone,
and `num_tokens=0` (allowed where `total_num_replicas >= replicas_to_aggregate`) makes
every worker wait for every step. The chief's session closes the token queue when it stops
(the QueueRunner's cancel op): the other workers' dequeues then raise OutOfRangeError,
which ends their MonitoredSession, and the chief's own pending take is cancelled.

Where tf1compat differs: the chief enqueues a step's tokens once the ps tasks hold that
step's values (its session pushes them after the run), so a worker holding a token of step
k reads step k's values; a worker's gradients are sent and its token dequeued in one call,
so the workers waiting for a step are served in the order they sent their gradients; one
accumulator holds all variables' gradients (TF has one per variable; IndexedSlices
gradients are made dense); waits are bounded: a dequeue by `TF1COMPAT_RPC_TIMEOUT` seconds
(DeadlineExceededError naming how many replicas sent gradients for the step), the chief's
take by twice that.

The class itself is training/optimizers/sync_replicas.py's, a direct subclass of
`tf.train.Optimizer` as every `tf.train` optimizer is in TF (GPflow 1.x registers them by
checking `__base__`); its `apply_gradients` asks `hooks.SYNC_REPLICAS["cluster"]` (filled
here) for this build and, where no such cluster is there, is the one-process pass-through.
"""

from __future__ import annotations

import collections
import threading
from typing import Any, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch.distributed.rpc as rpc

from tf1compat.distribute import local_cluster as _local_cluster
from tf1compat.distribute import server as _server
from tf1compat.framework import errors, hooks
from tf1compat.framework.graph import control_dependencies, device, get_default_graph, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import state_ops
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.creation_ops import fill
from tf1compat.ops.script_ops import py_func
from tf1compat.training.queue_runner import QueueRunner

__all__: List[str] = []

_Outcome = Tuple[str, Any]      # ("ok", value) or (error kind, message), sent back over rpc


class _Take:
    """A take waiting for `replicas` gradients; `result` is their average once taken."""

    def __init__(self, replicas: int):
        self.replicas = replicas
        self.result: Optional[List[np.ndarray]] = None


class _SyncState:
    """On ps task 0: one optimizer's accumulator and token queue (see the module
    docstring)."""

    def __init__(self) -> None:
        self.condition = threading.Condition()
        self.sums: Optional[List[np.ndarray]] = None
        self.count = 0
        self.global_step = 0            # the accumulator's: older gradients are stale
        self.tokens: collections.deque = collections.deque()
        self.dequeuers: collections.deque = collections.deque()     # first come first served
        self.takers: collections.deque = collections.deque()        # the chief's, in order
        self.closed = False

    def set_global_step(self, step: int) -> _Outcome:
        with self.condition:
            self.global_step = step
        return "ok", None

    def apply_and_dequeue(self, local_step: int, grads: List[np.ndarray], replicas: int,
                          timeout: float) -> _Outcome:
        with self.condition:
            if local_step >= self.global_step:
                if self.sums is None:
                    self.sums = [np.array(g, copy=True) for g in grads]
                else:
                    for total, g in zip(self.sums, grads):
                        total += g
                self.count += 1
                self._flush()
            ticket = object()
            self.dequeuers.append(ticket)
            try:
                self.condition.wait_for(
                    lambda: self.closed or self.tokens and self.dequeuers[0] is ticket, timeout)
                if self.tokens and self.dequeuers[0] is ticket:
                    return "ok", self.tokens.popleft()
                if self.closed:
                    return "closed", ("FIFOQueue 'sync_token_q' is closed and has insufficient "
                                      "elements (requested 1, current size 0)")
                return "timeout", (f"SyncReplicasOptimizer: no token in sync_token_q within "
                                   f"{timeout:g} s: {self.count} of {replicas} replicas sent "
                                   f"their gradients for global step {self.global_step}")
            finally:
                self.dequeuers.remove(ticket)
                self.condition.notify_all()

    def take(self, replicas: int, timeout: float) -> _Outcome:
        with self.condition:
            attempt = _Take(replicas)
            self.takers.append(attempt)
            try:
                self._flush()
                if not self.condition.wait_for(lambda: self.closed or attempt.result is not None,
                                               timeout):
                    return "timeout", (f"SyncReplicasOptimizer: {self.count} of {replicas} "
                                       f"replicas sent their gradients for global step "
                                       f"{self.global_step} within {timeout:g} s")
                if attempt.result is None:
                    return "cancelled", ("TakeGrad operation was cancelled: sync_token_q is "
                                         "closed")
                return "ok", attempt.result
            finally:
                if attempt in self.takers:      # timed out or cancelled
                    self.takers.remove(attempt)

    def _flush(self) -> None:
        """Completes the first waiting take once enough gradients came, as TF's accumulator
        does within the apply that brings the last one (so a gradient sent right after it
        is already stale)."""
        if self.takers and self.count >= self.takers[0].replicas and not self.closed:
            attempt = self.takers.popleft()
            # TF's MEAN: the sum over every gradient accumulated, divided by their number.
            attempt.result = [(total / self.count).astype(total.dtype) for total in self.sums]
            self.sums, self.count = None, 0
            self.global_step += 1
        self.condition.notify_all()

    def await_taker(self, timeout: float) -> _Outcome:
        """Waits (at most `timeout` seconds) until the chief's queue runner waits for a
        step's gradients (see _ChiefQueueRunner)."""
        with self.condition:
            self.condition.wait_for(lambda: self.closed or bool(self.takers), timeout)
        return "ok", None

    def enqueue(self, tokens: List[int]) -> _Outcome:
        with self.condition:
            if self.closed:
                return "cancelled", "Queue 'sync_token_q' is closed."
            self.tokens.extend(tokens)
            self.condition.notify_all()
        return "ok", None

    def close(self) -> _Outcome:
        with self.condition:
            self.closed = True
            self.condition.notify_all()
        return "ok", None


_STATES: Dict[str, _SyncState] = {}     # what ps task 0 holds, per optimizer name
_STATES_LOCK = threading.Lock()


def _call_state(states: Optional[Dict[str, _SyncState]], key: str, method: str,
                *args: Any) -> _Outcome:
    """Runs on ps task 0 (over rpc, `states` None: this process's) or in-process (a local
    cluster's states)."""
    states = _STATES if states is None else states
    with _STATES_LOCK:
        state = states.setdefault(key, _SyncState())
    return getattr(state, method)(*args)


_ERRORS = {"timeout": errors.DeadlineExceededError, "closed": errors.OutOfRangeError,
           "cancelled": errors.CancelledError}


class _SyncTokenQueue:
    """The worker's side of TF's `sync_token_q` and accumulator (their ops are PyFuncs
    calling ps task 0; QueueRunner reads `name` and builds `close`)."""

    name = "sync_token_q"

    def __init__(self, key: str, local: Any, replicas: int):
        self._key = key
        self._local = local            # a local cluster (in-process), else None (rpc)
        self._replicas = replicas

    def _call(self, method: str, *args: Any, wait: float = 0.0) -> Any:
        try:
            if self._local is not None:
                kind, value = _call_state(self._local.sync_replicas, self._key, method, *args)
            else:
                kind, value = rpc.rpc_sync(_server.task_name("ps", 0), _call_state,
                                           args=(None, self._key, method) + args,
                                           timeout=wait + _server.rpc_timeout())
        except RuntimeError as e:
            raise errors.UnavailableError(None, None, "SyncReplicasOptimizer: the parameter "
                                          f"server cannot be reached: {e}") from e
        if kind != "ok":
            raise _ERRORS[kind](None, None, value)
        return value

    def set_global_step(self, step: Any, name: str) -> Any:
        return py_func(lambda s: self._call("set_global_step", int(s)), [step], [],
                       name=name)

    def apply_and_dequeue(self, local_step: Any, grads: Sequence[Any]) -> Any:
        """Sends `grads` computed at `local_step`, then waits for a token (returned)."""
        def run(step: np.ndarray, *values: np.ndarray) -> np.ndarray:
            timeout = _server.rpc_timeout()
            token = self._call("apply_and_dequeue", int(step), list(values), self._replicas,
                               timeout, wait=timeout)
            return np.asarray(token, step.dtype)

        token = py_func(run, [local_step] + list(grads), local_step.dtype.base_dtype,
                        name="sync_token_q_Dequeue")
        token.set_shape([])
        return token

    def take(self, grads: Sequence[Any]) -> List[Any]:
        """The average of `replicas_to_aggregate` gradients of the current step."""
        def run() -> List[np.ndarray]:
            timeout = 2 * _server.rpc_timeout()
            return self._call("take", self._replicas, timeout, wait=timeout)

        out = py_func(run, [], [g.dtype for g in grads], name="take_grad")
        for a, g in zip(out, grads):
            a.set_shape(g.shape)
        return list(out)

    def enqueue_many(self, tokens: Any, name: str = "sync_token_q_EnqueueMany") -> Any:
        """Enqueues `tokens` once this run's updates are on the ps."""
        def run(values: np.ndarray) -> None:
            _server.after_push(lambda: self._call("enqueue", [int(v) for v in values]))

        return py_func(run, [tokens], [], name=name)

    def await_taker(self, timeout: float) -> None:
        """Returns once the chief's take waits (or after `timeout` seconds)."""
        self._call("await_taker", timeout, wait=timeout)

    def close(self, cancel_pending_enqueues: bool = False, name: Optional[str] = None) -> Any:
        """Closes the queue (its pending dequeues and the chief's take end)."""
        return py_func(lambda: self._call("close"), [], [], name=name or "sync_token_q_Close")


def _on_ps_job(grads_and_vars: Sequence[Any]) -> bool:
    """Whether a variable being updated is placed on a ps task (replica_device_setter)."""
    return any("/job:ps" in (getattr(v, "device", "") or "") for _, v in grads_and_vars)


class _ClusterSync:
    """What `tf.train.SyncReplicasOptimizer.apply_gradients` builds on a ps cluster (see the
    module docstring): the worker's train op, the chief's queue runner and its init-tokens
    op, over one token queue."""

    def __init__(self, opt: Any, pairs: List[Tuple[Any, Any]], global_step: Any,
                 local: Any) -> None:
        opt._global_step = global_step
        opt._make_local_step(global_step)
        queue = self._queue = _SyncTokenQueue(opt._name, local, opt._replicas_to_aggregate)
        self._global_step = global_step
        grads = [convert_to_tensor(g) if isinstance(g, IndexedSlices) else g for g, _ in pairs]
        with name_scope(None, opt._name):
            with device(global_step.device), name_scope(""):
                token = queue.apply_and_dequeue(opt._local_step.value(), grads)
                self.train_op = state_ops.assign(opt._local_step, token)
            with device(global_step.device):
                averaged = queue.take(grads)
            # The sync op's run pushes its updates as values (the chief's thread is their
            # only writer); the marker is an op, which a .meta can write.
            get_default_graph().add_to_collection(_server.SYNC_REPLICAS_COLLECTION,
                                                  averaged[0].op)
            with device(global_step.device), name_scope(""):
                update_op = opt._opt.apply_gradients(
                    [(a, v) for a, (_, v) in zip(averaged, pairs)], global_step)
                with control_dependencies([update_op]):
                    tokens_per_step = max(opt._total_num_replicas, opt._replicas_to_aggregate)
                    sync_op = queue.enqueue_many(_fill(tokens_per_step, global_step))
                if opt._variable_averages is not None:
                    with control_dependencies([sync_op]), name_scope(""):
                        sync_op = opt._variable_averages.apply(opt._variables_to_average)
                self.chief_queue_runner = _ChiefQueueRunner(queue, [sync_op])
            with device(global_step.device):
                set_step = queue.set_global_step(global_step, name="SetGlobalStep")
            opt.chief_init_op = group(opt.local_step_init_op, set_step)

    def init_tokens_op(self, num_tokens: int) -> Any:
        """The chief's op enqueueing `num_tokens` (checked) tokens of the global step."""
        if num_tokens > 0:
            with device(self._global_step.device), name_scope(""):
                return self._queue.enqueue_many(_fill(num_tokens, self._global_step),
                                                name="sync_token_q_EnqueueMany_1")
        return no_op(name="no_init_tokens")


def _cluster_sync(opt: Any, grads_and_vars: List[Tuple[Any, Any]],
                  global_step: Any) -> Optional[_ClusterSync]:
    """hooks.SYNC_REPLICAS["cluster"]: the token-queue build where a ps cluster (this
    process's tf.train.Server, or a local cluster whose ps holds the variables) is
    there, else None (the one-process pass-through)."""
    server = _server.active_server()
    local = _local_cluster.current_cluster() if server is None else None
    if local is not None and not _on_ps_job(grads_and_vars):
        local = None        # a graph of its own, not placed on the local cluster's ps
    cluster = server.cluster if server is not None else local.spec if local else None
    if cluster is None or "ps" not in cluster.jobs:
        return None
    pairs = [(g, v) for g, v in grads_and_vars if g is not None]
    if not pairs:
        raise ValueError("Must supply at least one variable")
    return _ClusterSync(opt, pairs, global_step, local)


hooks.SYNC_REPLICAS["cluster"] = _cluster_sync


class _ChiefQueueRunner(QueueRunner):
    """The chief's QueueRunner of `sync_token_q`. Starting its thread returns once the
    thread's first take waits on the ps: TF's thread gets there within microseconds, while
    ours first builds the sync op's plan in Python, and a worker's gradient sent before
    the take exists would be averaged into the step it should have missed."""

    _FIRST_TAKE_WAIT = 10.0     # seconds; only a chief stuck elsewhere waits this long

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> List[Any]:
        threads = super().create_threads(sess, coord=coord, daemon=daemon, start=start)
        if start and threads:
            self.queue.await_taker(self._FIRST_TAKE_WAIT)
        return threads


def _fill(count: int, global_step: Any) -> Any:
    """`count` copies of the global step's value (read where the op runs: after the
    control dependencies around it)."""
    value = global_step.read_value() if hasattr(global_step, "read_value") else global_step
    return fill([count], value)
