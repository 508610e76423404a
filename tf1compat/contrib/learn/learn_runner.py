"""`tf.contrib.learn.learn_runner`: `run(experiment_fn, ...)` builds an Experiment and
calls its `schedule` method (default `train_and_evaluate` on one machine); `tune`."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.contrib.learn.experiment import Experiment
from tf1compat.contrib.learn.run_config import RunConfig, TaskType
from tf1compat.contrib.training.hparam import HParams
from tf1compat.util import tf_logging

__all__ = ["run", "tune"]


def _execute_schedule(experiment: Experiment, schedule: str) -> Any:
    valid = [x for x in dir(experiment)
             if not x.startswith("_") and callable(getattr(experiment, x))]
    if not hasattr(experiment, schedule):
        tf_logging.error("Schedule references non-existent task %s", schedule)
        tf_logging.error("Allowed values for this experiment are: %s", valid)
        raise ValueError("Schedule references non-existent task %s" % schedule)
    task = getattr(experiment, schedule)
    if not callable(task):
        tf_logging.error("Schedule references non-callable member %s", schedule)
        tf_logging.error("Allowed values for this experiment are: %s", valid)
        raise TypeError("Schedule references non-callable member %s" % schedule)
    return task()


def _wrapped_experiment_fn_with_uid_check(experiment_fn: Callable,
                                          require_hparams: bool = False) -> Callable:
    def wrapped(run_config: Any, hparams: Any) -> Experiment:
        if not isinstance(run_config, RunConfig):
            raise ValueError("`run_config` must be `tf.contrib.learn.RunConfig` instance")
        if not run_config.model_dir:
            raise ValueError("Must specify a model directory `model_dir` in `run_config`.")
        if hparams is not None and not isinstance(hparams, HParams):
            raise ValueError("`hparams` must be `HParams` instance")
        if require_hparams and hparams is None:
            raise ValueError("`hparams` cannot be `None`.")
        expected = run_config.uid()
        experiment = experiment_fn(run_config, hparams)
        if not isinstance(experiment, Experiment):
            raise TypeError("Experiment builder did not return an Experiment instance, got "
                            f"{type(experiment)} instead.")
        config = experiment.estimator.config
        if not hasattr(config, "uid"):
            raise RuntimeError(
                "Pass `run_config` argument of the `experiment_fn` to the Estimator in "
                "Experiment. It is likely a different `RunConfig` is passed to `Estimator` or "
                "the `config` constructor argument in `Estimator` is not set.")
        if config.uid() != expected:
            raise RuntimeError("`RunConfig` instance is expected to be used by the "
                               "`Estimator` inside the `Experiment`. expected "
                               f"{expected}, but got {config.uid()}")
        return experiment
    return wrapped


def _is_distributed(config: Any) -> bool:
    if not config.cluster_spec:
        return False
    return sum(len(config.cluster_spec.job_tasks(job)) for job in config.cluster_spec.jobs) > 1


def _default_schedule(config: Any) -> str:
    if not config or not _is_distributed(config):
        return "train_and_evaluate"
    if not config.task_type:
        raise ValueError("Must specify a schedule")
    schedules = {TaskType.MASTER: "train_and_evaluate", TaskType.PS: "run_std_server",
                 TaskType.WORKER: "train"}
    if config.task_type not in schedules:
        raise ValueError("No default schedule for task type: %s" % config.task_type)
    return schedules[config.task_type]


def run(experiment_fn: Callable, output_dir: Optional[str] = None,
        schedule: Optional[str] = None, run_config: Optional[RunConfig] = None,
        hparams: Optional[HParams] = None) -> Any:
    """Builds an Experiment with `experiment_fn(run_config, hparams)` (or the deprecated
    `experiment_fn(output_dir)`) and runs its `schedule`; returns what that returns."""
    if output_dir is not None and run_config is not None:
        raise ValueError("Cannot provide both `output_dir` and `run_config`")
    if output_dir is None and run_config is None:
        raise ValueError("Must set value for `output_dir` or `run_config`")
    if not callable(experiment_fn):
        raise TypeError('Experiment builder "%s" is not callable.' % experiment_fn)
    if run_config is not None:
        experiment = _wrapped_experiment_fn_with_uid_check(experiment_fn)(run_config, hparams)
    else:
        if not output_dir:
            raise ValueError("Must specify an output directory")
        if hparams is not None:
            raise ValueError("Must set `hparams` as None for `experiment_fn` with "
                             "`output_dir`.")
        experiment = experiment_fn(output_dir=output_dir)
        if not isinstance(experiment, Experiment):
            raise TypeError("Experiment builder did not return an Experiment instance, got "
                            f"{type(experiment)} instead.")
    config = run_config or experiment.estimator.config
    return _execute_schedule(experiment, schedule or _default_schedule(config))


def tune(experiment_fn: Callable, tuner: Any) -> None:
    """Runs one Experiment per trial the tuner proposes."""
    while tuner.next_trial():
        tuner.run_experiment(_wrapped_experiment_fn_with_uid_check(experiment_fn,
                                                                   require_hparams=True))
