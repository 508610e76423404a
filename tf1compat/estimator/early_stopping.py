"""Early stopping hooks (`tf.estimator.experimental.stop_if_*_hook`,
`make_early_stopping_hook`; `tf.contrib.estimator` in TF 1.x): training stops when a
predicate over the evaluation results in the eval directory's event files holds, checked
every `run_every_secs` seconds or `run_every_steps` steps."""

from __future__ import annotations

import collections
import glob
import operator
import os
from typing import Any, Callable, Dict, Iterator, Optional

from tf1compat.training.sessions.basic_session_run_hooks import SecondOrStepTimer
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook
from tf1compat.util import tf_logging

__all__ = ["make_early_stopping_hook", "stop_if_higher_hook", "stop_if_lower_hook",
           "stop_if_no_increase_hook", "stop_if_no_decrease_hook", "read_eval_metrics"]


def _summaries(eval_dir: str) -> Iterator[Any]:
    from tf1compat.framework.errors import DataLossError
    from tf1compat.summary.summary_iterator import summary_iterator
    for path in glob.glob(os.path.join(eval_dir, "events.out.tfevents.*")):
        try:
            yield from summary_iterator(path)
        except DataLossError as e:
            tf_logging.warning("Skipping rest of the file due to encountering data corruption "
                               "error; file path: %s; original error raised by "
                               "`tf.train.summary_iterator`: %s", path, e)


def read_eval_metrics(eval_dir: str) -> "collections.OrderedDict[int, Dict[str, float]]":
    """The scalar evaluation metrics of `eval_dir`, by global step."""
    by_step: Dict[int, Dict[str, float]] = collections.defaultdict(dict)
    for event in _summaries(eval_dir):
        if not event.HasField("summary"):
            continue
        metrics = {v.tag: v.simple_value for v in event.summary.value
                   if v.HasField("simple_value")}
        if metrics:
            by_step[event.step].update(metrics)
    return collections.OrderedDict(sorted(by_step.items(), key=lambda t: t[0]))


class _StopOnPredicateHook(SessionRunHook):
    """Requests a stop when `should_stop_fn()` is true (checked on a timer)."""

    def __init__(self, should_stop_fn: Callable[[], bool], run_every_secs: Optional[float],
                 run_every_steps: Optional[int]):
        if not callable(should_stop_fn):
            raise TypeError("`should_stop_fn` must be callable.")
        self._should_stop_fn = should_stop_fn
        self._timer = SecondOrStepTimer(every_secs=run_every_secs,
                                        every_steps=run_every_steps)

    def begin(self) -> None:
        from tf1compat.training.training_util import get_global_step
        self._global_step_tensor = get_global_step()

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._global_step_tensor)

    def after_run(self, run_context: Any, run_values: Any) -> None:
        step = run_values.results
        if self._timer.should_trigger_for_step(step):
            self._timer.update_last_triggered_step(step)
            if self._should_stop_fn():
                tf_logging.info("Requesting early stopping at global step %d", step)
                run_context.request_stop()


def make_early_stopping_hook(estimator: Any, should_stop_fn: Callable[[], bool],
                             run_every_secs: Optional[float] = 60,
                             run_every_steps: Optional[int] = None) -> SessionRunHook:
    """A hook stopping training when `should_stop_fn()` returns True."""
    from tf1compat.estimator.estimator import Estimator
    if not isinstance(estimator, Estimator):
        raise TypeError("`estimator` must have type `tf.estimator.Estimator`. Got: "
                        f"{type(estimator)}")
    if run_every_secs is not None and run_every_steps is not None:
        raise ValueError("Only one of `run_every_secs` and `run_every_steps` must be set.")
    return _StopOnPredicateHook(should_stop_fn, run_every_secs, run_every_steps)


def _threshold_hook(estimator: Any, metric_name: str, threshold: float,
                    higher_is_better: bool, eval_dir: Optional[str], min_steps: int,
                    run_every_secs: Optional[float], run_every_steps: Optional[int]) -> Any:
    eval_dir = eval_dir or estimator.eval_dir()
    better = operator.gt if higher_is_better else operator.lt
    word = "greater than" if higher_is_better else "less than"

    def crossed() -> bool:
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            value = metrics[metric_name]
            if better(value, threshold):
                tf_logging.info('At step %s, metric "%s" has value %s which is %s the '
                                "configured threshold (%s) for early stopping.", step,
                                metric_name, value, word, threshold)
                return True
        return False
    return make_early_stopping_hook(estimator, crossed, run_every_secs, run_every_steps)


def _no_improvement_hook(estimator: Any, metric_name: str, max_steps: int,
                         higher_is_better: bool, eval_dir: Optional[str], min_steps: int,
                         run_every_secs: Optional[float], run_every_steps: Optional[int]) -> Any:
    eval_dir = eval_dir or estimator.eval_dir()
    better = operator.gt if higher_is_better else operator.lt
    word = "increase" if higher_is_better else "decrease"

    def stalled() -> bool:
        best = best_step = None
        for step, metrics in read_eval_metrics(eval_dir).items():
            if step < min_steps:
                continue
            value = metrics[metric_name]
            if best is None or better(value, best):
                best, best_step = value, step
            if step - best_step >= max_steps:
                tf_logging.info('No %s in metric "%s" for %s steps, which is greater than or '
                                "equal to max steps (%s) configured for early stopping.",
                                word, metric_name, step - best_step, max_steps)
                return True
        return False
    return make_early_stopping_hook(estimator, stalled, run_every_secs, run_every_steps)


def stop_if_higher_hook(estimator: Any, metric_name: str, threshold: float,
                        eval_dir: Optional[str] = None, min_steps: int = 0,
                        run_every_secs: Optional[float] = 60,
                        run_every_steps: Optional[int] = None) -> Any:
    return _threshold_hook(estimator, metric_name, threshold, True, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_lower_hook(estimator: Any, metric_name: str, threshold: float,
                       eval_dir: Optional[str] = None, min_steps: int = 0,
                       run_every_secs: Optional[float] = 60,
                       run_every_steps: Optional[int] = None) -> Any:
    return _threshold_hook(estimator, metric_name, threshold, False, eval_dir, min_steps,
                           run_every_secs, run_every_steps)


def stop_if_no_increase_hook(estimator: Any, metric_name: str,
                             max_steps_without_increase: int, eval_dir: Optional[str] = None,
                             min_steps: int = 0, run_every_secs: Optional[float] = 60,
                             run_every_steps: Optional[int] = None) -> Any:
    return _no_improvement_hook(estimator, metric_name, max_steps_without_increase, True,
                                eval_dir, min_steps, run_every_secs, run_every_steps)


def stop_if_no_decrease_hook(estimator: Any, metric_name: str,
                             max_steps_without_decrease: int, eval_dir: Optional[str] = None,
                             min_steps: int = 0, run_every_secs: Optional[float] = 60,
                             run_every_steps: Optional[int] = None) -> Any:
    return _no_improvement_hook(estimator, metric_name, max_steps_without_decrease, False,
                                eval_dir, min_steps, run_every_secs, run_every_steps)
