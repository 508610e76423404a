"""`tf.contrib.slim.evaluation`: slim's evaluation of a checkpoint (`evaluate_once`) or of
each new checkpoint of a directory (`evaluation_loop`), on top of tf.contrib.training's
evaluation helpers.

    names_to_values, names_to_updates = slim.metrics.aggregate_metric_map({
        "accuracy": slim.metrics.streaming_accuracy(predictions, labels)})
    metric_values = slim.evaluation.evaluate_once(
        "", checkpoint_path, logdir, num_evals=10,
        eval_op=list(names_to_updates.values()),
        final_op=list(names_to_values.values()))

The eval op runs `num_evals` times (or until the input raises OutOfRangeError); then
the summaries (default: all of the graph's, merged) are written to `logdir` at the
global step and the value of `final_op` is returned.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from tf1compat.contrib.training.evaluation import (SummaryAtEndHook, checkpoints_iterator,
                                                   evaluate_once as _evaluate_checkpoint,
                                                   evaluate_repeatedly,
                                                   wait_for_new_checkpoint)
from tf1compat.training.sessions.evaluation import StopAfterNEvalsHook

__all__ = ["evaluate_once", "evaluation_loop", "wait_for_new_checkpoint",
           "checkpoints_iterator"]

_USE_DEFAULT = 0


def _hooks(num_evals: int, logdir: Optional[str], summary_op: Any,
           summary_op_feed_dict: Any, hooks: Optional[List[Any]]) -> List[Any]:
    """Stop after `num_evals`, write the summaries at the end, then the caller's hooks."""
    from tf1compat.summary import merge_all
    if summary_op == _USE_DEFAULT:
        summary_op = merge_all()
    all_hooks: List[Any] = [StopAfterNEvalsHook(num_evals)]
    if summary_op is not None:
        all_hooks.append(SummaryAtEndHook(log_dir=logdir, summary_op=summary_op,
                                          feed_dict=summary_op_feed_dict))
    return all_hooks + list(hooks or [])


def _scaffold(initial_op: Any, initial_op_feed_dict: Any, variables_to_restore: Any,
              init_fn: Optional[Callable[..., None]] = None) -> Any:
    from tf1compat.training.saving.saver import Saver
    from tf1compat.training.sessions.monitored_session import Scaffold
    saver = Saver(variables_to_restore) if variables_to_restore is not None else None
    return Scaffold(init_op=initial_op, init_feed_dict=initial_op_feed_dict, init_fn=init_fn,
                    saver=saver)


def evaluate_once(master: str, checkpoint_path: str, logdir: Optional[str],
                  num_evals: int = 1, initial_op: Any = None,
                  initial_op_feed_dict: Optional[Dict[Any, Any]] = None,
                  eval_op: Any = None, eval_op_feed_dict: Optional[Dict[Any, Any]] = None,
                  final_op: Any = None, final_op_feed_dict: Optional[Dict[Any, Any]] = None,
                  summary_op: Any = _USE_DEFAULT,
                  summary_op_feed_dict: Optional[Dict[Any, Any]] = None,
                  variables_to_restore: Any = None, session_config: Any = None,
                  hooks: Optional[List[Any]] = None) -> Any:
    """Evaluates `checkpoint_path` once (see the module docstring); returns the value of
    `final_op` (None without one)."""
    return _evaluate_checkpoint(
        checkpoint_path, master=master,
        scaffold=_scaffold(initial_op, initial_op_feed_dict, variables_to_restore),
        eval_ops=eval_op, feed_dict=eval_op_feed_dict, final_ops=final_op,
        final_ops_feed_dict=final_op_feed_dict,
        hooks=_hooks(num_evals, logdir, summary_op, summary_op_feed_dict, hooks),
        config=session_config)


def evaluation_loop(master: str, checkpoint_dir: str, logdir: Optional[str],
                    num_evals: int = 1, initial_op: Any = None,
                    initial_op_feed_dict: Optional[Dict[Any, Any]] = None,
                    init_fn: Optional[Callable[..., None]] = None, eval_op: Any = None,
                    eval_op_feed_dict: Optional[Dict[Any, Any]] = None, final_op: Any = None,
                    final_op_feed_dict: Optional[Dict[Any, Any]] = None,
                    summary_op: Any = _USE_DEFAULT,
                    summary_op_feed_dict: Optional[Dict[Any, Any]] = None,
                    variables_to_restore: Any = None, eval_interval_secs: float = 60,
                    max_number_of_evaluations: Optional[int] = None,
                    session_config: Any = None, timeout: Optional[float] = None,
                    timeout_fn: Optional[Callable[[], bool]] = None,
                    hooks: Optional[List[Any]] = None) -> Any:
    """Evaluates each new checkpoint of `checkpoint_dir` as `evaluate_once` does, waiting
    at least `eval_interval_secs` between evaluations, until
    `max_number_of_evaluations` or `timeout` seconds without a new checkpoint; returns
    the last value of `final_op`."""
    return evaluate_repeatedly(
        checkpoint_dir, master=master,
        scaffold=_scaffold(initial_op, initial_op_feed_dict, variables_to_restore, init_fn),
        eval_ops=eval_op, feed_dict=eval_op_feed_dict, final_ops=final_op,
        final_ops_feed_dict=final_op_feed_dict, eval_interval_secs=eval_interval_secs,
        hooks=_hooks(num_evals, logdir, summary_op, summary_op_feed_dict, hooks),
        config=session_config, max_number_of_evaluations=max_number_of_evaluations,
        timeout=timeout, timeout_fn=timeout_fn)
