"""`tf.train.SyncReplicasOptimizer` as a pass-through for one process.

TF aggregates gradients from `replicas_to_aggregate` workers in conditional accumulators
and a token queue before the chief applies them. tf1compat runs one process with no
workers to wait for, so the wrapper computes and applies each step's gradients with the
wrapped optimizer directly: what TF computes with a single replica. Its session hook and
queue-runner helpers exist so that distributed-style scripts run unchanged. Between
processes (a tf.train.Server cluster) `tf.train.SyncReplicasOptimizer` is the subclass of
distribute/sync_replicas.py, which aggregates the workers' gradients.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.util import tf_logging as _logging
from tf1compat.training.optimizers.optimizer import Optimizer
from tf1compat.training.sessions.session_run_hook import SessionRunHook

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

    def compute_gradients(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.compute_gradients(*args, **kwargs)

    def apply_gradients(self, grads_and_vars: Any, global_step: Any = None,
                        name: Optional[str] = None) -> Any:
        grads_and_vars = list(grads_and_vars)
        if not grads_and_vars:
            raise ValueError("Must supply at least one variable")
        if global_step is None:
            raise ValueError("Global step is required to check staleness")
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
            from tf1compat.framework.graph import control_dependencies
            from tf1compat.ops.control_flow_ops import group
            with control_dependencies([train_op]):
                averages = self._variable_averages.apply(self._variables_to_average)
            train_op = group(train_op, averages)
        self._gradients_applied = True
        return train_op

    def get_slot(self, *args: Any, **kwargs: Any) -> Any:
        return self._opt.get_slot(*args, **kwargs)

    def get_slot_names(self, *args: Any, **kwargs: Any) -> List[str]:
        return self._opt.get_slot_names(*args, **kwargs)

    def variables(self) -> list:
        return self._opt.variables()

    def get_chief_queue_runner(self) -> Any:
        if not self._gradients_applied:
            raise ValueError("Should be called after apply_gradients().")
        return None

    def get_init_tokens_op(self, num_tokens: int = -1) -> Any:
        from tf1compat.ops.control_flow_ops import no_op
        if not self._gradients_applied:
            raise ValueError("get_init_tokens_op() should be called after apply_gradients().")
        return no_op(name="sync_token_init")

    def make_session_run_hook(self, is_chief: bool, num_tokens: int = -1) -> Any:
        return _SyncReplicasOptimizerHook(self, is_chief, num_tokens)

    # Checkpoints see the wrapped optimizer's state.
    @property
    def _checkpoint_dependencies(self) -> list:
        return self._opt._checkpoint_dependencies

    def _slot_variables_for_checkpoint(self) -> list:
        return self._opt._slot_variables_for_checkpoint()


class _SyncReplicasOptimizerHook(SessionRunHook):
    """The session hook of a SyncReplicasOptimizer (a SessionRunHook, as TF's, so
    Estimator's TrainSpec accepts it): nothing to start in one process."""

    def __init__(self, sync_optimizer: SyncReplicasOptimizer, is_chief: bool,
                 num_tokens: int):
        self._sync_optimizer = sync_optimizer
        self._is_chief = is_chief
        self._num_tokens = num_tokens

    def begin(self) -> None:
        if not self._sync_optimizer._gradients_applied:
            raise ValueError("SyncReplicasOptimizer.apply_gradient should be called before "
                             "using the hook.")
