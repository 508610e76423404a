"""`tf.estimator.train_and_evaluate` with `TrainSpec` / `EvalSpec`.

Local mode (no TF_CONFIG cluster), as TF: the Estimator trains; after every checkpoint it
saves (a saving listener) it evaluates the new checkpoint, at most once per
`EvalSpec.throttle_secs` (the first checkpoint, written when training starts, is skipped),
runs the exporters, and evaluates once more at the end if the last checkpoint was not
evaluated. In a TF_CONFIG cluster each task runs its part (distributed_training.py) and
the call returns None, as TF's.
"""

from __future__ import annotations

import collections
import json
import os
from typing import Any, Dict, Optional, Tuple

from tf1compat.util import tf_logging
from tf1compat.estimator import collective_training
from tf1compat.estimator import exporter as exporter_lib
from tf1compat.estimator.checkpoint_evaluator import (CheckpointEvaluator,
                                                      NewCheckpointListenerForEvaluate)
from tf1compat.estimator.distributed_training import run_task
from tf1compat.estimator.run_config import TaskType
from tf1compat.training.sessions.basic_session_run_hooks import CheckpointSaverListener
from tf1compat.training.sessions.session_run_hook import SessionRunHook

__all__ = ["TrainSpec", "EvalSpec", "train_and_evaluate"]


def _validate_input_fn(input_fn: Any) -> None:
    if not callable(input_fn):
        raise TypeError(f"`input_fn` must be callable, given: {input_fn}")


def _validate_hooks(hooks: Any) -> tuple:
    hooks = tuple(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"All hooks must be `SessionRunHook` instances, given: {hook}")
    return hooks


def _validate_saving_listeners(listeners: Any) -> tuple:
    listeners = tuple(listeners or [])
    for listener in listeners:
        if not isinstance(listener, CheckpointSaverListener):
            raise TypeError("All saving_listeners must be `CheckpointSaverListener` "
                            f"instances, given: {listener}")
    return listeners


def _validate_exporters(exporters: Any) -> tuple:
    if not exporters:
        return ()
    if isinstance(exporters, exporter_lib.Exporter):
        exporters = [exporters]
    names = []
    try:
        for exporter in exporters:
            if not isinstance(exporter, exporter_lib.Exporter):
                raise TypeError
            if not exporter.name:
                raise ValueError("An Exporter cannot have a name that is `None` or empty. "
                                 f"All exporter names: {[e.name for e in exporters]}")
            if not isinstance(exporter.name, str):
                raise ValueError("An Exporter must have a string name. Given: "
                                 f"{type(exporter.name)}")
            if exporter.name in names:
                raise ValueError("`exporters` must have unique names. Such a name cannot be "
                                 f"`None`. All exporter names: {[e.name for e in exporters]}")
            names.append(exporter.name)
    except TypeError:
        raise TypeError("`exporters` must be an Exporter, an iterable of Exporter, or `None`, "
                        f"found {exporters}.") from None
    return tuple(exporters)


class TrainSpec(collections.namedtuple("TrainSpec", ["input_fn", "max_steps", "hooks",
                                                     "saving_listeners"])):
    """The training half of train_and_evaluate: input_fn, `max_steps`, hooks, listeners."""

    def __new__(cls, input_fn: Any, max_steps: Optional[int] = None, hooks: Any = None,
                saving_listeners: Any = None):
        _validate_input_fn(input_fn)
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        return super().__new__(cls, input_fn=input_fn, max_steps=max_steps,
                               hooks=_validate_hooks(hooks),
                               saving_listeners=_validate_saving_listeners(saving_listeners))


class EvalSpec(collections.namedtuple("EvalSpec", ["input_fn", "steps", "name", "hooks",
                                                   "exporters", "start_delay_secs",
                                                   "throttle_secs"])):
    """The evaluation half: input_fn, `steps` per evaluation (None: until the input
    ends), eval dir name, hooks, exporters, start delay and throttle."""

    def __new__(cls, input_fn: Any, steps: Optional[int] = 100, name: Optional[str] = None,
                hooks: Any = None, exporters: Any = None, start_delay_secs: int = 120,
                throttle_secs: int = 600):
        _validate_input_fn(input_fn)
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if name is not None and not isinstance(name, str):
            raise TypeError(f"`name` must be string, given: {name}")
        hooks = _validate_hooks(hooks)
        exporters = _validate_exporters(exporters)
        if start_delay_secs < 0:
            raise ValueError(f"Must specify start_delay_secs >= 0, given: {start_delay_secs}")
        if throttle_secs < 0:
            raise ValueError(f"Must specify throttle_secs >= 0, given: {throttle_secs}")
        return super().__new__(cls, input_fn=input_fn, steps=steps, name=name, hooks=hooks,
                               exporters=exporters, start_delay_secs=start_delay_secs,
                               throttle_secs=throttle_secs)


def train_and_evaluate(estimator: Any, train_spec: TrainSpec, eval_spec: EvalSpec
                       ) -> Optional[Tuple[Optional[Dict[str, Any]], Any]]:
    """Trains `estimator` and evaluates (and exports) it along the way; returns the last
    evaluation's metrics and export results (None for a task of a TF_CONFIG cluster)."""
    from tf1compat.estimator.estimator import Estimator
    if not isinstance(eval_spec, EvalSpec):
        raise TypeError("`eval_spec` must have type `tf.estimator.EvalSpec`. Got: "
                        f"{type(eval_spec)}")
    if not isinstance(estimator, Estimator):
        raise TypeError("`estimator` must have type `tf.estimator.Estimator`. Got: "
                        f"{type(estimator)}")
    if not isinstance(train_spec, TrainSpec):
        raise TypeError("`train_spec` must have type `tf.estimator.TrainSpec`. Got: "
                        f"{type(train_spec)}")
    config = estimator.config
    if config.task_type == TaskType.EVALUATOR and config.task_id > 0:
        raise ValueError("For distributed training, there can only be one `evaluator` task "
                         f"(with task id 0).  Given task id {config.task_id}")
    if getattr(config, "_distribute_coordinator_mode", None):
        collective_training.train_and_evaluate(
            estimator, train_spec, eval_spec, json.loads(os.environ.get("TF_CONFIG", "{}")))
        return None
    if config.cluster_spec or config.task_type == TaskType.EVALUATOR:
        run_task(estimator, train_spec, eval_spec)
        return None
    tf_logging.info("Running training and evaluation locally (non-distributed).")
    tf_logging.info("Start train and evaluate loop. The evaluate will happen after every "
                    "checkpoint. Checkpoint frequency is determined based on RunConfig "
                    "arguments: save_checkpoints_steps {} or save_checkpoints_secs {}.".format(
                        config.save_checkpoints_steps, config.save_checkpoints_secs))
    evaluator = CheckpointEvaluator(estimator, eval_spec, train_spec.max_steps)
    listener = NewCheckpointListenerForEvaluate(evaluator, eval_spec.throttle_secs)
    estimator.train(input_fn=train_spec.input_fn, max_steps=train_spec.max_steps,
                    hooks=list(train_spec.hooks),
                    saving_listeners=train_spec.saving_listeners + (listener,))
    result = listener.eval_result
    return (result.metrics if result else None), listener.export_results
