"""Estimator with a between-graph strategy (`RunConfig(train_distribute=
MultiWorkerMirroredStrategy())` or `ParameterServerStrategy()`) in a TF_CONFIG cluster:
TF's distribute coordinator in its INDEPENDENT_WORKER mode (TF 2.15's
estimator_training.py).

* `RunConfig` with such a strategy and a cluster without a `master` job keeps the cluster
  spec but the local defaults of every other distribution field (the coordinator fills
  them per task), and marks the config for the coordinator.
* `Estimator.train` / `evaluate` (with `eval_distribute`) on such a config: TF's
  ValueErrors (only `train_and_evaluate` runs a multi-worker job).
* `train_and_evaluate`: a `chief` or `worker` task trains (`Estimator.train` up to
  `TrainSpec.max_steps` with the spec's hooks) on a copy of the Estimator whose config
  has the task's place (`is_chief`: the chief, else worker 0); the `evaluator` evaluates
  each new checkpoint as in parameter-server training (distributed_training.py).
* With ParameterServerStrategy every task but the evaluator starts its tf.train.Server
  first (the task's config: `master` its own `grpc://` address, `num_ps_replicas` the ps
  count); a `ps` task joins it; the trainers' variables live on the ps tasks.
* Training runs TF's `_train_with_estimator_spec_distributed`: one
  MonitoredTrainingSession whose checkpoints (`save_checkpoints_steps/secs`) and
  summaries the strategy's chief writes; every worker initializes (the strategy gives
  them worker 0's initial values) or restores from the shared model_dir.
"""

from __future__ import annotations

import copy
from typing import Any, Dict, List, Optional

from tf1compat.util import tf_logging

__all__ = ["between_graph_mode", "check_direct_call", "train_and_evaluate",
           "train_with_estimator_spec_distributed", "INDEPENDENT_WORKER"]

INDEPENDENT_WORKER = "independent_worker"      # (TF's CoordinatorMode value)


def _is_between_graph(strategy: Any) -> bool:
    return strategy is not None and bool(
        getattr(strategy.extended, "experimental_between_graph", False))


def between_graph_mode(config: Any, tf_config: Dict[str, Any]) -> Optional[str]:
    """INDEPENDENT_WORKER when `config` trains with a between-graph strategy in a cluster
    without a `master` job (the config then has local defaults and the cluster spec);
    None otherwise (the config is left to its usual initialization)."""
    from tf1compat.training.device_setter import ClusterSpec
    cluster = tf_config.get("cluster", {})
    if not cluster or "master" in cluster or not _is_between_graph(config.train_distribute):
        return None
    if "ps" in cluster and not config.train_distribute.extended.parameter_server_training:
        raise NotImplementedError("MultiWorkerMirroredStrategy with `ps` tasks in TF_CONFIG's "
                                  "cluster: the workers all-reduce and no parameter server "
                                  "takes part; remove the ps job")
    config._init_cluster({})
    config._cluster_spec = ClusterSpec(cluster)
    tf_logging.info("RunConfig initialized for Distribute Coordinator with "
                    "INDEPENDENT_WORKER mode")
    return INDEPENDENT_WORKER


def check_direct_call(estimator: Any, what: str) -> None:
    """TF's refusal of `Estimator.train` / `evaluate` on a coordinator config."""
    config = estimator.config
    if not getattr(config, "_distribute_coordinator_mode", None):
        return
    strategy = config.train_distribute if what == "train" else config.eval_distribute
    if what == "evaluate" and strategy is None:
        return
    if "evaluator" in config.cluster_spec.jobs:
        raise ValueError("'evaluator' job is not supported if you don't use "
                         "`train_and_evaluate`")
    method = "`estimator.train`" if what == "train" else "`Estimator.evaluate`"
    raise ValueError(f"Only `STANDALONE_CLIENT` mode is supported when you call {method}")


def _task_config(config: Any, tf_config: Dict[str, Any]) -> Any:
    """The config as TF's coordinator sets it for this task (its worker context)."""
    from tf1compat.training.device_setter import ClusterSpec
    task = tf_config.get("task", {})
    task_type, task_id = task.get("type"), int(task.get("index", 0))
    jobs = config.cluster_spec.as_dict()
    local = copy.copy(config)
    local._distribute_coordinator_mode = None
    local._task_type, local._task_id = task_type, task_id
    local._master = local._evaluation_master = ""
    local._service = None
    if task_type == "evaluator":
        local._cluster_spec = ClusterSpec({})
        local._num_ps_replicas = local._num_worker_replicas = 0
        local._global_id_in_cluster = None
        local._is_chief = False
        return local
    if task_type not in jobs or not 0 <= task_id < len(jobs[task_type]):
        raise ValueError(f"{task_type}:{task_id} is not a task of the cluster {jobs}")
    local._num_ps_replicas = 0
    if config.train_distribute.extended.parameter_server_training:
        # The variables live on the ps tasks' servers: every task but the evaluator runs
        # its tf.train.Server, and sessions connect to their own.
        local._num_ps_replicas = len(jobs.get("ps", []))
        local._master = local._evaluation_master = "grpc://" + jobs[task_type][task_id]
        config.train_distribute.configure(cluster_spec=config.cluster_spec,
                                          task_type=task_type, task_id=task_id)
    local._num_worker_replicas = len(jobs.get("chief", [])) + len(jobs.get("worker", []))
    order = (["chief"] if "chief" in jobs else []) + \
        [t for t in sorted(jobs) if t != "chief"]
    local._global_id_in_cluster = sum(len(jobs[t]) for t in order[:order.index(task_type)]) \
        + task_id
    local._is_chief = task_type == "chief" or ("chief" not in jobs and
                                               task_type == "worker" and task_id == 0)
    return local


def train_and_evaluate(estimator: Any, train_spec: Any, eval_spec: Any,
                       tf_config: Dict[str, Any]) -> None:
    """This task's part of a between-graph job (TF's `_worker_fn` / `_eval_fn`)."""
    from tf1compat.estimator.distributed_training import run_task, start_std_server
    local = copy.copy(estimator)
    local._config = _task_config(estimator.config, tf_config)
    tf_logging.info("Updated config: %s", str(vars(local._config)))
    if local.config.task_type == "evaluator":
        run_task(local, train_spec, eval_spec)
        return
    parameter_servers = estimator.config.train_distribute.extended.parameter_server_training
    if parameter_servers and local.config.task_type == "ps":
        start_std_server(local.config).join()
        return
    if local.config.task_type not in ("chief", "worker"):
        raise ValueError(f"Task type {local.config.task_type} is not supported with "
                         f"{type(estimator.config.train_distribute).__name__}: the cluster's "
                         "tasks are chief, worker and evaluator")
    if parameter_servers:
        start_std_server(local.config)
    local.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps,
                hooks=list(train_spec.hooks))


def train_with_estimator_spec_distributed(estimator: Any, spec: Any, worker_hooks: List[Any],
                                          saving_listeners: List[Any]) -> Any:
    """TF's `_train_with_estimator_spec_distributed`: the training loop of a
    multi-worker strategy; returns the last loss."""
    from tf1compat.training.sessions.monitored_session import MonitoredTrainingSession
    if saving_listeners:
        raise ValueError("Saving listenor is not supported by the current Distribution "
                         "Strategies.")
    config = estimator.config
    with MonitoredTrainingSession(
            master=config.master, is_chief=config.is_chief,
            checkpoint_dir=estimator.model_dir, scaffold=spec.scaffold, hooks=worker_hooks,
            chief_only_hooks=tuple(spec.training_chief_hooks),
            save_checkpoint_secs=config.save_checkpoints_secs,
            save_checkpoint_steps=config.save_checkpoints_steps,
            save_summaries_steps=config.save_summary_steps, config=estimator._session_config,
            max_wait_secs=config.session_creation_timeout_secs,
            log_step_count_steps=config.log_step_count_steps,
            save_graph_def=config.checkpoint_save_graph_def) as mon_sess:
        loss = None
        current_step = 0
        while not mon_sess.should_stop():
            current_step += 1
            _, loss = mon_sess.run([spec.train_op, spec.loss])
        if current_step == 0:
            tf_logging.warning("Training with estimator made no steps. Perhaps input is "
                               "empty or misspecified.")
    return loss
