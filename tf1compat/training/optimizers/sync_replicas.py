"""`tf.train.SyncReplicasOptimizer` as a pass-through for one process.

TF aggregates gradients from `replicas_to_aggregate` workers in conditional accumulators
and a token queue before the chief applies them. tf1compat runs one process with no
workers to wait for, so the wrapper computes and applies each step's gradients with the
wrapped optimizer directly: what TF computes with a single replica. What TF's scripts
touch besides (TF 1.15's `mnist_replica.py` pattern) is TF's: `apply_gradients` makes the
local `sync_rep_local_step` variable, `local_step_init_op`, `chief_init_op` and
`ready_for_local_init_op`; `get_init_tokens_op(num_tokens)` checks the count as TF
(ValueError on too few tokens for the first step); `get_chief_queue_runner()` is a
QueueRunner and the session hook runs the chief's init ops and starts it. There is no
token queue to fill: in one process no worker waits, so the chief's queue runner starts no
thread and the init-tokens op is a no-op. Between processes (a tf.train.Server cluster, or
`tf.test.create_local_cluster`) `apply_gradients` builds TF's accumulator and token queue
instead, through `hooks.SYNC_REPLICAS` (filled by distribute/sync_replicas.py); the class
stays a direct subclass of `Optimizer`, as TF's.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.framework import hooks
from tf1compat.framework.graph import GraphKeys, colocate_with, control_dependencies, name_scope
from tf1compat.ops import state_ops
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.training.queue_runner import QueueRunner
from tf1compat.training.sessions.session_run_hook import SessionRunHook
from tf1compat.util import tf_logging as _logging
from tf1compat.variables.collections import global_variables, report_uninitialized_variables
from tf1compat.variables.variables import Variable

__all__ = ["SyncReplicasOptimizer"]


class SyncReplicasOptimizer(Optimizer):
    """Wraps `opt`; gradients are applied as they are computed (one replica)."""

    def __init__(self, opt: Optimizer, replicas_to_aggregate: int,
                 total_num_replicas: Optional[int] = None, variable_averages: Any = None,
                 variables_to_average: Any = None, use_locking: bool = False,
                 name: str = "sync_replicas"):
        if total_num_replicas is None:
            total_num_replicas = replicas_to_aggregate
        super().__init__(use_locking, name)
        self._opt = opt
        self._replicas_to_aggregate = replicas_to_aggregate
        self._total_num_replicas = total_num_replicas
        self._variable_averages = variable_averages
        self._variables_to_average = variables_to_average
        self._gradients_applied = False
        self._global_step = None
        self._cluster: Any = None       # the ps-cluster build, where apply_gradients made one

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
        build = hooks.SYNC_REPLICAS["cluster"]
        self._cluster = build(self, grads_and_vars, global_step) if build else None
        if self._cluster is not None:
            self._gradients_applied = True
            return self._cluster.train_op
        self._global_step = global_step
        if self._replicas_to_aggregate != 1 or self._total_num_replicas != 1:
            _logging.warning(
                "SyncReplicasOptimizer: no parameter-server cluster in this process, so "
                "gradients are applied every step (replicas_to_aggregate=%s, "
                "total_num_replicas=%s behave as 1).", self._replicas_to_aggregate,
                self._total_num_replicas)
        train_op = self._opt.apply_gradients(grads_and_vars, global_step=global_step,
                                             name=name)
        if self._variable_averages is not None:
            with control_dependencies([train_op]):
                averages = self._variable_averages.apply(self._variables_to_average)
            train_op = group(train_op, averages)
        self._make_local_step(global_step)
        with name_scope(self._name):
            self.chief_init_op = group(self.local_step_init_op)
        self._gradients_applied = True
        return train_op

    def _make_local_step(self, global_step: Any) -> None:
        """TF's `sync_rep_local_step` (a local variable: the step this worker's gradients
        are computed at), colocated with a no-op as TF's, so it stays on the worker where
        replica_device_setter puts variables on the ps; its init op and the check before
        it."""
        local_anchor = no_op()
        with colocate_with(local_anchor):
            self._local_step = Variable(0, trainable=False, name="sync_rep_local_step",
                                        collections=[GraphKeys.LOCAL_VARIABLES],
                                        dtype=global_step.dtype.base_dtype)
        self.local_step_init_op = state_ops.assign(self._local_step, global_step)
        self.ready_for_local_init_op = report_uninitialized_variables(global_variables())

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> List[str]:
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self) -> list:
        return self._opt.variables()

    def get_chief_queue_runner(self) -> Any:
        """The chief's QueueRunner (it starts no thread: see the module docstring)."""
        if not self._gradients_applied:
            raise ValueError("Should be called after apply_gradients().")
        if self._cluster is not None:
            return self._cluster.chief_queue_runner
        return _ChiefQueueRunner()

    def get_init_tokens_op(self, num_tokens: int = -1) -> Any:
        """The op the chief runs once to hand out the first step's tokens (TF's checks
        of `num_tokens`; a no-op in one process: see the module docstring)."""
        num_tokens = self._init_token_count(num_tokens)
        if self._cluster is not None:
            return self._cluster.init_tokens_op(num_tokens)
        return no_op(name="sync_token_init")

    def _init_token_count(self, num_tokens: int) -> int:
        """TF's checks of `get_init_tokens_op(num_tokens)`; the count (-1:
        `replicas_to_aggregate`)."""
        if not self._gradients_applied:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        tokens_needed = self._replicas_to_aggregate - self._total_num_replicas
        if num_tokens == -1:
            return self._replicas_to_aggregate
        if num_tokens < tokens_needed:
            raise ValueError(f"Too few tokens to finish the first step: {num_tokens} (given) "
                             f"vs {tokens_needed} (needed)")
        return num_tokens

    def make_session_run_hook(self, is_chief: bool, num_tokens: int = -1) -> Any:
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)

    # Checkpoints see the wrapped optimizer's state.
    @property
    def _checkpoint_dependencies(self) -> list:
        return self._opt._checkpoint_dependencies

    def _slot_variables_for_checkpoint(self) -> list:
        return self._opt._slot_variables_for_checkpoint()


class _ChiefQueueRunner(QueueRunner):
    """`get_chief_queue_runner()`: a QueueRunner with no queue of its own to feed, so
    `Supervisor.start_queue_runners(sess, [runner])` starts nothing."""

    def __init__(self) -> None:  # pylint: disable=super-init-not-called
        self._queue = None
        self._enqueue_ops: List[Any] = []
        self._close_op = self._cancel_op = None
        self._exceptions_raised: List[BaseException] = []

    @property
    def name(self) -> str:
        return "sync_token_q"

    def create_threads(self, sess: Any, coord: Any = None, daemon: bool = False,
                       start: bool = False) -> List[Any]:
        """No thread: in one process no token queue waits to be filled."""
        return []


class _SyncReplicasOptimizerHook(SessionRunHook):
    """The session hook of a SyncReplicasOptimizer (a SessionRunHook, as TF's, so
    Estimator's TrainSpec accepts it): TF's checks in `begin` and, once the session
    exists, the chief's or the worker's local init op, the chief's init tokens and its
    queue runner's threads."""

    def __init__(self, sync_optimizer: SyncReplicasOptimizer, is_chief: bool,
                 num_tokens: int):
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens

    def begin(self) -> None:
        optimizer = self._sync_optimizer
        if not optimizer._gradients_applied:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before "
                             "using the hook.")
        if self._is_chief:
            self._local_init_op = optimizer.chief_init_op
            self._q_runner = optimizer.get_chief_queue_runner()
            self._init_tokens_op = optimizer.get_init_tokens_op(self._num_tokens)
        else:
            self._local_init_op = optimizer.local_step_init_op
            self._q_runner = self._init_tokens_op = None

    def after_create_session(self, session: Any, coord: Any) -> None:
        session.run(self._local_init_op)
        if self._init_tokens_op is not None:
            session.run(self._init_tokens_op)
        if self._q_runner is not None:
            self._q_runner.create_threads(session, coord=coord, daemon=True, start=True)
