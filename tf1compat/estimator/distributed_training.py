"""`tf.estimator.train_and_evaluate` in a TF_CONFIG cluster: what each task runs.

TF's between-graph parameter-server training, on tf1compat's `tf.train.Server`
(distribute/server.py, torch.distributed.rpc):

* `chief` / `worker`: start this task's server, then `Estimator.train` up to
  `TrainSpec.max_steps` with the Estimator's replica device setter (variables on the ps
  tasks) and `MonitoredTrainingSession(master=config.master, is_chief=...)`. The chief
  initializes, saves checkpoints and summaries; a worker first waits TF's start delay,
  `(task_id + 1) * 5` seconds, at most 60 (or `RunConfig.experimental_max_worker_delay_secs`),
  then waits for the chief's initialization.
* `master`: as the chief, and evaluates each new checkpoint as local training does.
* `ps`: starts its server and joins it. TF's `join()` never returns; here it returns once
  every other cluster task has finished, so ps processes end.
* `evaluator` (not part of the training cluster): after `EvalSpec.start_delay_secs`,
  evaluates every new checkpoint in model_dir, at most once per `throttle_secs`, runs the
  exporters, and stops after evaluating a checkpoint whose global step reached
  `TrainSpec.max_steps`.

An `evaluator` job listed in TF_CONFIG's cluster is left out of the training servers' rpc
group: TF never starts a server for it, and rpc would wait for every listed task.
"""

from __future__ import annotations

import time
from typing import Any, Optional

from tf1compat.util import tf_logging
from tf1compat.estimator.checkpoint_evaluator import (CheckpointEvaluator, EvalStatus,
                                                      NewCheckpointListenerForEvaluate)
from tf1compat.estimator.run_config import TaskType
from tf1compat.framework import hooks
from tf1compat.framework.graph import GraphKeys
from tf1compat.runtime.config import ConfigProto

__all__ = ["run_task", "MAX_DELAY_SECS", "DELAY_SECS_PER_WORKER"]

MAX_DELAY_SECS = 60
DELAY_SECS_PER_WORKER = 5
_TRAINER_JOBS = (TaskType.CHIEF, TaskType.MASTER, TaskType.WORKER)


def run_task(estimator: Any, train_spec: Any, eval_spec: Any) -> None:
    """Runs this process's task of the TF_CONFIG cluster (`config.task_type`)."""
    config = estimator.config
    if not config.task_type:
        raise ValueError("`estimator.config` must have task_type set. This usually means "
                         "TF_CONFIG environment is not set correctly.")
    if config.task_type == "local":
        raise ValueError("`task.type` in TF_CONFIG cannot be `local`. Leaving `cluster` and "
                         "`task` properties in TF_CONFIG absent triggers train and evaluate "
                         "`Estimator` locally (non-distributed).")
    runners = {TaskType.CHIEF: _run_chief, TaskType.WORKER: _run_worker,
               TaskType.MASTER: _run_master, TaskType.EVALUATOR: _run_evaluator,
               TaskType.PS: _run_ps}
    if config.task_type not in runners:
        raise ValueError(f"Task type {config.task_type} is not supported. Supported task "
                         f"types are {sorted(runners)}")
    runners[config.task_type](estimator, train_spec, eval_spec)


def _run_chief(estimator: Any, train_spec: Any, eval_spec: Any) -> None:
    _start_distributed_training(estimator, train_spec, train_spec.saving_listeners)


def _run_worker(estimator: Any, train_spec: Any, eval_spec: Any) -> None:
    _start_distributed_training(estimator, train_spec)


def _run_master(estimator: Any, train_spec: Any, eval_spec: Any) -> None:
    evaluator = CheckpointEvaluator(estimator, eval_spec, train_spec.max_steps)
    listener = NewCheckpointListenerForEvaluate(evaluator, eval_spec.throttle_secs)
    _start_distributed_training(estimator, train_spec,
                                train_spec.saving_listeners + (listener,))


def _run_ps(estimator: Any, train_spec: Any, eval_spec: Any) -> None:
    server = start_std_server(estimator.config)
    server.join()


def start_std_server(config: Any) -> Optional[Any]:
    """Starts this task's `tf.train.Server` (None for a one-task cluster, as TF)."""
    if not config.cluster_spec or not config.task_type or config.task_id is None:
        raise RuntimeError("Could not start server; be sure to specify cluster_spec, "
                           "task_type, and task in RunConfig or set the TF_CONFIG "
                           "environment variable.")
    if not config.master:
        jobs = config.cluster_spec.jobs
        if len(jobs) == 1 and len(config.cluster_spec.job_tasks(jobs[0])) == 1 and \
                config.task_type in _TRAINER_JOBS:
            tf_logging.info("Skip starting Tensorflow server as there is only one node in "
                            "the cluster.")
            return None
        raise RuntimeError("Could not start server; be sure to specify master in RunConfig "
                           "or set the TF_CONFIG environment variable.")
    server_class = hooks.STD_SERVER["Server"]
    if server_class is None:
        raise RuntimeError("tf.train.Server is not loaded: `import tf1compat` (or "
                           "tf1compat.distribute.server) before running a cluster task.")
    tf_logging.info("Start Tensorflow server.")
    session_config = ConfigProto(log_device_placement=False)
    if config.session_config is not None:
        session_config.gpu_options.CopyFrom(config.session_config.gpu_options)
    training_jobs = {job: tasks for job, tasks in config.cluster_spec.as_dict().items()
                     if job != TaskType.EVALUATOR}
    server = server_class(training_jobs, job_name=config.task_type, task_index=config.task_id,
                          config=session_config, start=False, protocol=config.protocol)
    server.start()
    return server


def _start_distributed_training(estimator: Any, train_spec: Any,
                                saving_listeners: Any = None) -> None:
    config = estimator.config
    # The server starts before the delay: the tasks wait for each other to connect.
    start_std_server(config)
    start_delay_secs = 0
    if config.task_type == TaskType.WORKER:
        max_delay_secs = MAX_DELAY_SECS
        if config.experimental_max_worker_delay_secs is not None:
            max_delay_secs = int(config.experimental_max_worker_delay_secs)
        start_delay_secs = min(max_delay_secs, (config.task_id + 1) * DELAY_SECS_PER_WORKER)
    if start_delay_secs > 0:
        tf_logging.info("Waiting %d secs before starting training.", start_delay_secs)
        time.sleep(start_delay_secs)
    estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps,
                    hooks=list(train_spec.hooks), saving_listeners=saving_listeners)


def _run_evaluator(estimator: Any, train_spec: Any, eval_spec: Any) -> None:
    """Evaluates new checkpoints until one reaches the training's max_steps."""
    if eval_spec.start_delay_secs:
        tf_logging.info("Waiting %f secs before starting eval.", eval_spec.start_delay_secs)
        time.sleep(eval_spec.start_delay_secs)
    evaluator = CheckpointEvaluator(estimator, eval_spec, train_spec.max_steps)
    latest = None
    while True:
        if latest is not None and latest.status == EvalStatus.EVALUATED:
            global_step = latest.metrics.get(GraphKeys.GLOBAL_STEP)
            if global_step and train_spec.max_steps and global_step >= train_spec.max_steps:
                tf_logging.info("Exiting evaluation, global_step=%s >= train max_steps=%s",
                                global_step, train_spec.max_steps)
                return
        start = time.time()
        latest, _ = evaluator.evaluate_and_export()
        remaining = eval_spec.throttle_secs - (time.time() - start)
        if remaining > 0:
            tf_logging.info("Waiting %f secs before starting next eval run.", remaining)
            time.sleep(remaining)
        elif eval_spec.throttle_secs == 0 and latest.status != EvalStatus.EVALUATED:
            tf_logging.warning("EvalSpec.throttle_secs is set as 0. This might overload the "
                               "job before finding (next) new checkpoint. Please consider to "
                               "increase it.")
