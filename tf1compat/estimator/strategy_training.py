"""Estimator under a distribution strategy: `RunConfig(train_distribute=...,
eval_distribute=...)` (TF 2.15's `_actual_train_model_distributed` and
`_call_model_fn_eval_distributed`).

Training: in the strategy's scope, with v1 optimizers dividing the loss by the number of
replicas (`_scale_loss_for_estimator_enabled`), `input_fn(input_context=...)` builds a
dataset whose consecutive elements feed the replicas (per-replica batches), the model_fn
runs once per replica (replica k > 0 under `replica_k/`, sharing replica 0's variables),
the optimizer sums the replicas' (scaled) gradients and applies them once, and the loss
reported is the replicas' SUM — their mean loss when the optimizer scaled it. Hooks and
scaffold pieces come from the replicas (replica 0's hooks), and then training runs as
without a strategy: checkpoints hold one copy of each variable under its usual name.

Evaluation: each replica evaluates its own batch; metric variables are shared, so every
metric accumulates over all replicas' batches, as TF's SUM-aggregated metric variables.
"""

from __future__ import annotations

from typing import Any, List, Tuple

from tf1compat.estimator import model_fn as model_fn_lib
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.util import fn_args, parse_iterator_result
from tf1compat.framework.graph import Graph, GraphKeys, device, get_default_graph
from tf1compat.framework.random_seed import set_random_seed
from tf1compat.training import training_util
from tf1compat.training.sessions.monitored_session import Scaffold
from tf1compat.training.sessions.session_run_hook import SessionRunHook
from tf1compat.training.strategies.values import ReduceOp, local_results

__all__ = ["train_model_distributed", "evaluate_build_graph_distributed",
           "DistributedIteratorInitializerHook"]


class DistributedIteratorInitializerHook(SessionRunHook):
    """Initializes a strategy's input iterator once the session exists."""

    def __init__(self, iterator: Any):
        self._iterator = iterator

    def begin(self) -> None:
        self._initializer = self._iterator.initialize()

    def after_create_session(self, session: Any, coord: Any) -> None:
        if self._initializer:
            session.run(self._initializer)


def _iterator_from_input_fn(estimator: Any, input_fn: Any, mode: str, strategy: Any
                            ) -> Tuple[Any, List[Any]]:
    def call_input_fn(input_context: Any) -> Any:
        args = fn_args(input_fn)
        kwargs: dict = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = estimator.params
        if "config" in args:
            kwargs["config"] = estimator.config
        if "input_context" in args:
            kwargs["input_context"] = input_context
        with device("/cpu:0"):
            return input_fn(**kwargs)
    iterator = strategy.make_input_fn_iterator(call_input_fn)
    return iterator, [DistributedIteratorInitializerHook(iterator)]


def _loss_reduce_op_for_reporting() -> ReduceOp:
    from tf1compat.training.strategies.distribute_lib import get_loss_reduction
    if getattr(get_default_graph(), "_is_loss_scaled_by_optimizer", False):
        return get_loss_reduction()
    return ReduceOp.SUM


def _first_replica_hooks(strategy: Any, per_replica_hooks: Any) -> List[Any]:
    return [strategy.experimental_local_results(h)[0] for h in per_replica_hooks]


def _combine_scaffold(grouped: Any, strategy: Any) -> Scaffold:
    """One Scaffold from the replicas' (TF's _combine_distributed_scaffold)."""
    scaffolds = strategy.experimental_local_results(grouped)

    def grouped_or_none(values: List[Any]) -> Any:
        values = [v for v in values if v is not None]
        return strategy.group(values) if values else None

    def first(values: List[Any]) -> Any:
        values = [v for v in values if v is not None]
        return values[0] if values else None
    init_feed_dict = {}
    for s in scaffolds:
        init_feed_dict.update(s.init_feed_dict or {})
    return Scaffold(
        init_op=grouped_or_none([s.init_op for s in scaffolds]),
        init_feed_dict=init_feed_dict or None,
        init_fn=first([s._user_init_fn for s in scaffolds]),
        ready_op=first([s.ready_op for s in scaffolds]),
        ready_for_local_init_op=first([s.ready_for_local_init_op for s in scaffolds]),
        local_init_op=grouped_or_none([s.local_init_op for s in scaffolds]),
        summary_op=grouped_or_none([s.summary_op for s in scaffolds]),
        saver=first([s.saver for s in scaffolds]))


def train_model_distributed(estimator: Any, strategy: Any, input_fn: Any,
                            hooks: List[Any], saving_listeners: List[Any]) -> Any:
    """Estimator.train's graph and loop under `strategy`; returns the last loss."""
    worker_hooks: List[Any] = []
    with Graph().as_default() as g, strategy.scope(), \
            strategy.extended._scale_loss_for_estimator_enabled():
        set_random_seed(estimator.config.tf_random_seed)
        iterator, input_hooks = _iterator_from_input_fn(estimator, input_fn,
                                                        ModeKeys.TRAIN, strategy)
        worker_hooks.extend(input_hooks)
        global_step = estimator._create_and_assert_global_step(g)
        g.add_to_collection(training_util.GLOBAL_STEP_READ_KEY,
                            strategy.extended.read_var(global_step))
        features, labels = parse_iterator_result(iterator.get_next())
        grouped = strategy.extended.call_for_each_replica(
            estimator._call_model_fn,
            args=(features, labels, ModeKeys.TRAIN, estimator.config))
        loss = strategy.reduce(_loss_reduce_op_for_reporting(), grouped.loss, axis=None)
        spec = model_fn_lib.EstimatorSpec(
            mode=grouped.mode, loss=loss, train_op=strategy.group(grouped.train_op),
            training_hooks=_first_replica_hooks(strategy, grouped.training_hooks),
            training_chief_hooks=_first_replica_hooks(strategy,
                                                      grouped.training_chief_hooks),
            scaffold=_combine_scaffold(grouped.scaffold, strategy))
        return estimator._train_with_estimator_spec(spec, worker_hooks, hooks, global_step,
                                                    saving_listeners)


def evaluate_build_graph_distributed(estimator: Any, strategy: Any, input_fn: Any,
                                     hooks: List[Any]) -> Tuple[Any, Any, dict, List[Any]]:
    """Estimator.evaluate's graph under `strategy`: (scaffold, update_op, eval_dict,
    hooks), as `_evaluate_build_graph`; the caller runs it inside `strategy.scope()`."""
    from tf1compat.metrics.metrics_impl import mean
    from tf1compat.ops.control_flow_ops import group
    set_random_seed(estimator.config.tf_random_seed)
    estimator._create_and_assert_global_step(get_default_graph())
    iterator, input_hooks = _iterator_from_input_fn(estimator, input_fn, ModeKeys.EVAL,
                                                    strategy)
    features, labels = parse_iterator_result(iterator.get_next())
    grouped = strategy.extended.call_for_each_replica(
        estimator._call_model_fn, args=(features, labels, ModeKeys.EVAL, estimator.config))
    metric_ops = dict(grouped.eval_metric_ops)
    if model_fn_lib.LOSS_METRIC_KEY in metric_ops:
        raise ValueError(f'Metric with name "{model_fn_lib.LOSS_METRIC_KEY}" is not allowed, '
                         "because Estimator already defines a default metric with the same "
                         "name.")
    metric_ops[model_fn_lib.LOSS_METRIC_KEY] = strategy.extended.call_for_each_replica(
        mean, args=(grouped.loss,))
    update_ops, eval_dict = [], {}
    for key, (value, update) in sorted(metric_ops.items()):
        eval_dict[key] = local_results(value)[0]      # (shared metric variables)
        update_ops.append(strategy.group(update))
    update_op = group(*update_ops) if update_ops else None
    if GraphKeys.GLOBAL_STEP in eval_dict:
        raise ValueError("Metric with name `global_step` is not allowed, because Estimator "
                         "already defines a default metric with the same name.")
    eval_dict[GraphKeys.GLOBAL_STEP] = training_util.get_global_step(get_default_graph())
    scaffold = _combine_scaffold(grouped.scaffold, strategy)
    evaluation_hooks = _first_replica_hooks(strategy, grouped.evaluation_hooks or ())
    all_hooks = list(input_hooks) + list(hooks) + evaluation_hooks
    return scaffold, update_op, eval_dict, all_hooks
