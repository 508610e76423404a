"""`tf.estimator.Estimator`: train / evaluate / predict / export a model_fn (TF 1.x's
estimator.py behaviour on tf1compat's monitored sessions).

Every call builds a fresh graph: the global step, the input_fn's features and labels,
then the model_fn's EstimatorSpec for the mode. Training runs a MonitoredTrainingSession
over `model_dir` (restores the latest checkpoint, saves on the RunConfig's cadence, writes
summaries and `graph.pbtxt`), with TF's hooks in TF's order: input hooks, the caller's,
NanTensorHook, the `loss = …, step = …` LoggingTensorHook, the spec's training hooks; the
chief's CheckpointSaverHook. Evaluation restores one checkpoint, runs the metric update
ops until the input ends (or `steps`), writes the metrics to `eval[_name]/` and returns
them with `loss` and `global_step`.
"""

from __future__ import annotations

import contextlib
import copy
import os
import tempfile
from typing import Any, Dict, Iterator, List, Optional

import numpy as np

from tf1compat.util import tf_logging
from tf1compat.estimator import model_fn as model_fn_lib
from tf1compat.estimator import run_config as run_config_lib
from tf1compat.estimator.estimator_export import SavedModelExportMixin
from tf1compat.estimator.eval_summaries import write_checkpoint_path_summary, \
    write_dict_to_summary
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.util import fn_args, model_fn_kwargs, parse_input_fn_result
from tf1compat.estimator.warm_start_settings import get_default_warm_start_settings
from tf1compat.framework.graph import Graph, GraphKeys, device, get_default_graph
from tf1compat.framework.random_seed import set_random_seed
from tf1compat.framework.tensor import Tensor
from tf1compat.training.sessions import basic_session_run_hooks as hooks_lib
from tf1compat.training.saving import checkpoint_state
from tf1compat.training.sessions import evaluation
from tf1compat.training import training_util
from tf1compat.training.sessions.monitored_session import (ChiefSessionCreator, MonitoredSession,
                                                           MonitoredTrainingSession, Scaffold)
from tf1compat.training.sessions.session_run_hook import SessionRunHook

__all__ = ["Estimator"]


class Estimator(SavedModelExportMixin):
    """Trains, evaluates, predicts with and exports the model a `model_fn` defines.

    `model_fn(features, labels, mode, params, config)` (any subset after `features`)
    returns an EstimatorSpec. Subclasses may not override Estimator's methods (TF's
    rule, checked at construction).
    """

    def __init__(self, model_fn: Any, model_dir: Optional[str] = None, config: Any = None,
                 params: Optional[Dict[str, Any]] = None, warm_start_from: Any = None):
        type(self)._assert_members_are_not_overridden(self)
        self._config = _config_with_model_dir_and_session(config, model_dir)
        self._model_dir = self._config.model_dir
        self._session_config = self._config.session_config
        tf_logging.info("Using config: %s", str(vars(self._config)))
        self._device_fn = self._config.device_fn or _get_replica_device_setter(self._config)
        if model_fn is None:
            raise ValueError("model_fn must be provided to Estimator.")
        model_fn_lib.verify_model_fn_args(model_fn, params)
        self._model_fn = model_fn
        self._params = copy.deepcopy(params or {})
        self._warm_start_settings = get_default_warm_start_settings(warm_start_from)

    # -- properties ---------------------------------------------------------------------------
    @property
    def model_dir(self) -> str:
        return self._model_dir

    @property
    def config(self) -> Any:
        return copy.deepcopy(self._config)

    @property
    def params(self) -> Dict[str, Any]:
        return copy.deepcopy(self._params)

    @property
    def model_fn(self) -> Any:
        """The model_fn with the Estimator's params bound:
        `fn(features, labels, mode, config)`."""
        def public_model_fn(features: Any, labels: Any, mode: str, config: Any) -> Any:
            return self._call_model_fn(features, labels, mode, config)
        return public_model_fn

    def get_variable_value(self, name: str) -> np.ndarray:
        """The value of variable `name` in the latest checkpoint."""
        from tf1compat.training.saving.checkpoint_utils import load_variable
        _check_checkpoint_available(self.model_dir)
        return load_variable(self.model_dir, name)

    def get_variable_names(self) -> List[str]:
        """The names of the variables in the latest checkpoint."""
        from tf1compat.training.saving.checkpoint_utils import list_variables
        _check_checkpoint_available(self.model_dir)
        return [name for name, _ in list_variables(self.model_dir)]

    def latest_checkpoint(self) -> Optional[str]:
        return checkpoint_state.latest_checkpoint(self.model_dir)

    # -- train --------------------------------------------------------------------------------
    def train(self, input_fn: Any, hooks: Any = None, steps: Optional[int] = None,
              max_steps: Optional[int] = None, saving_listeners: Any = None) -> "Estimator":
        """Trains for `steps` more steps, up to global step `max_steps`, or until the input
        ends; resumes from the latest checkpoint in model_dir."""
        if self.config.task_type in (run_config_lib.TaskType.EVALUATOR,
                                     run_config_lib.TaskType.PS):
            raise ValueError("Train has been called wrong configuration. Please use "
                             "tf.estimator.train_and_evaluate which calls proper API "
                             "according to given configuration. Current configuration: "
                             f"{self.config}.")
        if steps is not None and max_steps is not None:
            raise ValueError("Can not provide both steps and max_steps.")
        if steps is not None and steps <= 0:
            raise ValueError(f"Must specify steps > 0, given: {steps}")
        if max_steps is not None and max_steps <= 0:
            raise ValueError(f"Must specify max_steps > 0, given: {max_steps}")
        if max_steps is not None:
            if max_steps <= _load_global_step_from_checkpoint_dir(self._model_dir):
                tf_logging.info("Skipping training since max_steps has already saved.")
                return self
        hooks = _check_hooks_type(hooks)
        if steps is not None or max_steps is not None:
            hooks.append(hooks_lib.StopAtStepHook(steps, max_steps))
        saving_listeners = _check_listeners_type(saving_listeners)
        loss = self._train_model(input_fn, hooks, saving_listeners)
        tf_logging.info("Loss for final step: %s.", loss)
        return self

    def _train_model(self, input_fn: Any, hooks: List[Any], saving_listeners: List[Any]
                     ) -> Any:
        if self._config.train_distribute is not None:
            from tf1compat.estimator.collective_training import check_direct_call
            from tf1compat.estimator.strategy_training import train_model_distributed
            check_direct_call(self, "train")
            return train_model_distributed(self, self._config.train_distribute, input_fn,
                                           hooks, saving_listeners)
        worker_hooks: List[Any] = []
        with Graph().as_default() as g, g.device(self._device_fn):
            set_random_seed(self._config.tf_random_seed)
            global_step = self._create_and_assert_global_step(g)
            if global_step is not None:
                # Created before the model so hooks read the step before the increment.
                training_util._get_or_create_global_step_read(g)
            features, labels, input_hooks = self._get_features_and_labels_from_input_fn(
                input_fn, ModeKeys.TRAIN)
            worker_hooks.extend(input_hooks)
            spec = self._call_model_fn(features, labels, ModeKeys.TRAIN, self.config)
            global_step = training_util.get_global_step(g)
            return self._train_with_estimator_spec(spec, worker_hooks, hooks, global_step,
                                                   saving_listeners)

    def _train_with_estimator_spec(self, spec: Any, worker_hooks: List[Any],
                                   hooks: List[Any], global_step: Any,
                                   saving_listeners: List[Any]) -> Any:
        from tf1compat.summary.summary_ops import scalar
        from tf1compat.training.saving.saver import Saver
        from tf1compat.training.saving.warm_starting_util import warm_start
        if self._warm_start_settings and not checkpoint_state.latest_checkpoint(
                self._model_dir):
            tf_logging.info("Warm-starting with WarmStartSettings: %s" %
                            (self._warm_start_settings,))
            warm_start(*self._warm_start_settings)
        graph = get_default_graph()
        if not any(x.op.name == "loss" for x in graph.get_collection(GraphKeys.SUMMARIES)):
            scalar("loss", spec.loss)
        graph.add_to_collection(GraphKeys.LOSSES, spec.loss)
        worker_hooks.extend(hooks)
        worker_hooks.append(hooks_lib.NanTensorHook(spec.loss))
        if self._config.log_step_count_steps is not None:
            worker_hooks.append(hooks_lib.LoggingTensorHook(
                {"loss": spec.loss, "step": global_step},
                every_n_iter=self._config.log_step_count_steps))
        worker_hooks.extend(spec.training_hooks)
        if not (spec.scaffold.saver or graph.get_collection(GraphKeys.SAVERS)):
            graph.add_to_collection(GraphKeys.SAVERS, Saver(
                sharded=True, max_to_keep=self._config.keep_checkpoint_max,
                keep_checkpoint_every_n_hours=self._config.keep_checkpoint_every_n_hours,
                defer_build=True, save_relative_paths=True))
        strategy = self._config.train_distribute
        if self._config.cluster_spec and strategy is not None and \
                strategy.extended.experimental_between_graph:
            from tf1compat.estimator.collective_training import \
                train_with_estimator_spec_distributed
            return train_with_estimator_spec_distributed(self, spec, worker_hooks,
                                                         saving_listeners)
        chief_hooks: List[Any] = []
        all_hooks = worker_hooks + list(spec.training_chief_hooks)
        saver_hooks = [h for h in all_hooks if isinstance(h, hooks_lib.CheckpointSaverHook)]
        if self._config.save_checkpoints_secs or self._config.save_checkpoints_steps:
            if not saver_hooks:
                chief_hooks = [hooks_lib.CheckpointSaverHook(
                    self._model_dir, save_secs=self._config.save_checkpoints_secs,
                    save_steps=self._config.save_checkpoints_steps, scaffold=spec.scaffold,
                    save_graph_def=self._config.checkpoint_save_graph_def)]
                saver_hooks = [chief_hooks[0]]
        if saving_listeners:
            if not saver_hooks:
                raise ValueError("There should be a CheckpointSaverHook to use "
                                 "saving_listeners. Please set one of the "
                                 "RunConfig.save_checkpoints_steps or "
                                 "RunConfig.save_checkpoints_secs.")
            for listener in saving_listeners:
                if listener not in saver_hooks[0]._listeners:
                    saver_hooks[0]._listeners.append(listener)
        summary_steps, log_steps = self._summary_and_step_rate_cadence(spec, worker_hooks)
        with MonitoredTrainingSession(
                master=self._config.master, is_chief=self._config.is_chief,
                checkpoint_dir=self._model_dir, scaffold=spec.scaffold, hooks=worker_hooks,
                chief_only_hooks=tuple(chief_hooks) + tuple(spec.training_chief_hooks),
                save_checkpoint_secs=0, save_summaries_steps=summary_steps,
                config=self._session_config,
                max_wait_secs=self._config.session_creation_timeout_secs,
                log_step_count_steps=log_steps,
                save_graph_def=self._config.checkpoint_save_graph_def) as mon_sess:
            loss = None
            current_step = 0
            while not mon_sess.should_stop():
                current_step += 1
                _, loss = mon_sess.run([spec.train_op, spec.loss])
            if current_step == 0:
                tf_logging.warning("Training with estimator made no steps. Perhaps input is "
                                   "empty or misspecified.")
        # Returned after the block: input running out raises OutOfRangeError out of the
        # loop, which MonitoredSession's __exit__ swallows; `loss` keeps the last step's.
        return loss

    def _summary_and_step_rate_cadence(self, spec: Any, worker_hooks: List[Any]) -> Any:
        """The chief's summary and step-rate cadence for MonitoredTrainingSession. In a
        cluster with a `master` (which also evaluates) and workers, TF moves both to
        worker 0's own hooks and turns them off everywhere else."""
        config = self._config
        jobs = config.cluster_spec.jobs if config.cluster_spec else []
        if not (run_config_lib.TaskType.WORKER in jobs and
                run_config_lib.TaskType.MASTER in jobs):
            return config.save_summary_steps, config.log_step_count_steps
        if config.task_type == run_config_lib.TaskType.WORKER and config.task_id == 0:
            if config.save_summary_steps and config.save_summary_steps > 0:
                worker_hooks.append(hooks_lib.SummarySaverHook(
                    save_steps=config.save_summary_steps, output_dir=config.model_dir,
                    scaffold=spec.scaffold))
            if config.log_step_count_steps and config.log_step_count_steps > 0:
                worker_hooks.append(hooks_lib.StepCounterHook(
                    every_n_steps=config.log_step_count_steps, output_dir=config.model_dir))
        return 0, None

    # -- evaluate -----------------------------------------------------------------------------
    def eval_dir(self, name: Optional[str] = None) -> str:
        """`<model_dir>/eval` or `<model_dir>/eval_<name>`."""
        return os.path.join(self._model_dir, "eval" if not name else "eval_" + name)

    def evaluate(self, input_fn: Any, steps: Optional[int] = None, hooks: Any = None,
                 checkpoint_path: Optional[str] = None, name: Optional[str] = None
                 ) -> Dict[str, Any]:
        """Evaluates the latest checkpoint (or `checkpoint_path`) on `input_fn` until it
        ends or for `steps` batches; returns the metrics with `loss` and `global_step`."""
        from tf1compat.estimator.collective_training import check_direct_call
        check_direct_call(self, "evaluate")
        hooks = _check_hooks_type(hooks)
        if steps is not None:
            if steps <= 0:
                raise ValueError(f"Must specify steps > 0, given: {steps}")
            hooks.append(evaluation.StopAfterNEvalsHook(num_evals=steps))
        if not checkpoint_path:
            checkpoint_path = checkpoint_state.latest_checkpoint(self._model_dir)
            if not checkpoint_path:
                tf_logging.info("Could not find trained model in model_dir: {}, running "
                                "initialization to evaluate.".format(self._model_dir))
        strategy = self._config.eval_distribute
        with Graph().as_default(), strategy.scope() if strategy else contextlib.nullcontext():
            scaffold, update_op, eval_dict, all_hooks = self._evaluate_build_graph(
                input_fn, hooks, checkpoint_path)
            return self._evaluate_run(checkpoint_path, scaffold, update_op, eval_dict,
                                      all_hooks, self.eval_dir(name))

    def _evaluate_build_graph(self, input_fn: Any, hooks: List[Any],
                              checkpoint_path: Optional[str]) -> Any:
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.metrics.metrics_impl import mean
        if self._config.eval_distribute is not None:
            from tf1compat.estimator.strategy_training import \
                evaluate_build_graph_distributed
            scaffold, update_op, eval_dict, all_hooks = evaluate_build_graph_distributed(
                self, self._config.eval_distribute, input_fn, hooks)
            self._maybe_warm_start(checkpoint_path)
            return scaffold, update_op, eval_dict, all_hooks
        set_random_seed(self._config.tf_random_seed)
        self._create_and_assert_global_step(get_default_graph())
        features, labels, input_hooks = self._get_features_and_labels_from_input_fn(
            input_fn, ModeKeys.EVAL)
        spec = self._call_model_fn(features, labels, ModeKeys.EVAL, self.config)
        metric_ops = dict(spec.eval_metric_ops)
        if model_fn_lib.LOSS_METRIC_KEY in metric_ops:
            raise ValueError(f'Metric with name "{model_fn_lib.LOSS_METRIC_KEY}" is not '
                             "allowed, because Estimator already defines a default metric "
                             "with the same name.")
        metric_ops[model_fn_lib.LOSS_METRIC_KEY] = mean(spec.loss)
        update_ops, eval_dict = [], {}
        for key, value in sorted(metric_ops.items()):
            eval_dict[key] = value[0]
            update_ops.append(value[1])
        update_op = group(*update_ops) if update_ops else None
        global_step = training_util.get_global_step(get_default_graph())
        self._maybe_warm_start(checkpoint_path)
        if GraphKeys.GLOBAL_STEP in eval_dict:
            raise ValueError("Metric with name `global_step` is not allowed, because "
                             "Estimator already defines a default metric with the same name.")
        eval_dict[GraphKeys.GLOBAL_STEP] = global_step
        all_hooks = list(input_hooks) + list(hooks) + list(spec.evaluation_hooks or [])
        scaffold = spec.scaffold
        if scaffold and scaffold.local_init_op:
            evaluation.get_or_create_eval_step()
            scaffold = Scaffold(local_init_op=group(scaffold.local_init_op,
                                                    Scaffold.default_local_init_op()),
                                copy_from_scaffold=scaffold)
        return scaffold, update_op, eval_dict, all_hooks

    def _evaluate_run(self, checkpoint_path: Optional[str], scaffold: Any, update_op: Any,
                      eval_dict: Dict[str, Any], all_hooks: List[Any], output_dir: str
                      ) -> Dict[str, Any]:
        results = evaluation.evaluate_once(
            checkpoint_path=checkpoint_path, master=self._config.evaluation_master,
            scaffold=scaffold, eval_ops=update_op, final_ops=eval_dict, hooks=all_hooks,
            config=self._session_config)
        step = results[GraphKeys.GLOBAL_STEP]
        write_dict_to_summary(output_dir, results, step)
        if checkpoint_path:
            write_checkpoint_path_summary(output_dir, checkpoint_path, step)
        return results

    def _maybe_warm_start(self, checkpoint_path: Optional[str]) -> None:
        from tf1compat.training.saving.warm_starting_util import warm_start
        if not checkpoint_path and self._warm_start_settings:
            tf_logging.info("Warm-starting with WarmStartSettings: %s" %
                            (self._warm_start_settings,))
            warm_start(*self._warm_start_settings)

    # -- predict ------------------------------------------------------------------------------
    def predict(self, input_fn: Any, predict_keys: Any = None, hooks: Any = None,
                checkpoint_path: Optional[str] = None, yield_single_examples: bool = True
                ) -> Iterator[Any]:
        """Yields predictions (one example at a time, or whole batches) from the latest
        checkpoint (or `checkpoint_path`) until `input_fn` ends."""
        hooks = _check_hooks_type(hooks)
        if not checkpoint_path:
            checkpoint_path = checkpoint_state.latest_checkpoint(self._model_dir)
        if not checkpoint_path:
            tf_logging.info("Could not find trained model in model_dir: {}, running "
                            "initialization to predict.".format(self._model_dir))
        with Graph().as_default() as g:
            set_random_seed(self._config.tf_random_seed)
            self._create_and_assert_global_step(g)
            features, input_hooks = self._get_features_from_input_fn(input_fn,
                                                                     ModeKeys.PREDICT)
            spec = self._call_model_fn(features, None, ModeKeys.PREDICT, self.config)
            self._maybe_warm_start(checkpoint_path)
            predictions = self._extract_keys(spec.predictions, predict_keys)
            all_hooks = list(input_hooks) + list(hooks) + list(spec.prediction_hooks or [])
            creator = ChiefSessionCreator(checkpoint_filename_with_path=checkpoint_path,
                                          master=self._config.master, scaffold=spec.scaffold,
                                          config=self._session_config)
            with MonitoredSession(session_creator=creator, hooks=all_hooks) as mon_sess:
                while not mon_sess.should_stop():
                    values = mon_sess.run(predictions)
                    if not yield_single_examples:
                        yield values
                    elif not isinstance(predictions, dict):
                        for value in values:
                            yield value
                    else:
                        for i in range(self._extract_batch_length(values)):
                            yield {key: value[i] for key, value in values.items()}

    @staticmethod
    def _extract_batch_length(values: Dict[str, Any]) -> int:
        length = None
        for key, value in values.items():
            length = length or value.shape[0]
            if value.shape[0] != length:
                raise ValueError("Batch length of predictions should be same. %s has "
                                 "different batch length than others." % key)
        return length

    @staticmethod
    def _extract_keys(predictions: Any, predict_keys: Any) -> Any:
        if not predict_keys:
            return predictions
        if not isinstance(predictions, dict):
            raise ValueError("predict_keys argument is not valid in case of non-dict "
                             "predictions.")
        existing = predictions.keys()
        chosen = {k: v for k, v in predictions.items() if k in predict_keys}
        if not chosen:
            raise ValueError("Expected to run at least one output from %s, provided %s." %
                             (existing, predict_keys))
        return chosen

    # -- graph building -----------------------------------------------------------------------
    def _create_global_step(self, graph: Graph) -> Any:
        return training_util.create_global_step(graph)

    def _create_and_assert_global_step(self, graph: Graph) -> Any:
        step = self._create_global_step(graph)
        assert step is training_util.get_global_step()
        assert step.dtype.is_integer
        return step

    def _call_input_fn(self, input_fn: Any, mode: str) -> Any:
        args = fn_args(input_fn)
        kwargs = {}
        if "mode" in args:
            kwargs["mode"] = mode
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = self.config
        with device("/cpu:0"):
            return input_fn(**kwargs)

    def _get_features_and_labels_from_input_fn(self, input_fn: Any, mode: str) -> Any:
        return parse_input_fn_result(self._call_input_fn(input_fn, mode))

    def _get_features_from_input_fn(self, input_fn: Any, mode: str) -> Any:
        features, _, hooks = parse_input_fn_result(self._call_input_fn(input_fn, mode))
        if not _has_dataset_or_queue_runner(features):
            tf_logging.warning("Input graph does not use tf.data.Dataset or contain a "
                               "QueueRunner. That means predict yields forever. This is "
                               "probably a mistake.")
        return features, hooks

    def _call_model_fn(self, features: Any, labels: Any, mode: str, config: Any) -> Any:
        args = fn_args(self._model_fn)
        kwargs: Dict[str, Any] = model_fn_kwargs(args, labels, mode)
        if "params" in args:
            kwargs["params"] = self.params
        if "config" in args:
            kwargs["config"] = config
        tf_logging.info("Calling model_fn.")
        result = self._model_fn(features=features, **kwargs)
        tf_logging.info("Done calling model_fn.")
        if not isinstance(result, model_fn_lib.EstimatorSpec):
            raise ValueError("model_fn should return an EstimatorSpec.")
        return result

    def _assert_members_are_not_overridden(self) -> None:
        _assert_members_are_not_overridden(Estimator, self)


_ALLOWED_OVERRIDES = {"model_fn", "_create_and_assert_global_step", "_export_all_saved_models",
                      "latest_checkpoint", "_tf_api_names", "_tf_api_names_v1",
                      "_estimator_api_names", "_estimator_api_names_v1",
                      "_estimator_api_constants", "_estimator_api_constants_v1"}


def _assert_members_are_not_overridden(cls: type, obj: Any) -> None:
    """Subclasses of Estimator may not redefine its members (TPUEstimator may)."""
    if type(obj).__name__ == "TPUEstimator":
        return
    members = {m for m in dir(cls) if not m.startswith("__")}
    common = members & set(type(obj).__dict__) - _ALLOWED_OVERRIDES
    overridden = [m for m in common if getattr(cls, m) != getattr(type(obj), m)]
    if overridden:
        raise ValueError("Subclasses of Estimator cannot override members of Estimator. "
                         f"{type(obj)} does override {overridden}")


def _config_with_model_dir_and_session(config: Any, model_dir: Any) -> Any:
    """The RunConfig an Estimator uses: TF's default session config, `model_dir` from the
    argument or the config (they must agree), else a fresh temporary directory."""
    if config is None:
        config = run_config_lib.RunConfig()
        tf_logging.info("Using default config.")
    if not isinstance(config, run_config_lib.RunConfig):
        raise ValueError(f"config must be an instance of `RunConfig`, but provided {config}.")
    if config.session_config is None:
        config = run_config_lib.RunConfig._replace(
            copy.deepcopy(config), ["session_config"],
            session_config=run_config_lib.get_default_session_config())
    model_dir = run_config_lib.path_to_str(model_dir)
    if model_dir is not None and getattr(config, "model_dir", None) is not None and \
            config.model_dir != model_dir:
        raise ValueError("`model_dir` are set both in constructor and `RunConfig`, but with "
                         f"different values. In constructor: '{model_dir}', in `RunConfig`: "
                         f"'{config.model_dir}' ")
    if model_dir:
        config = run_config_lib.RunConfig._replace(copy.deepcopy(config), ["model_dir"],
                                                   model_dir=model_dir)
    elif getattr(config, "model_dir", None) is None:
        model_dir = tempfile.mkdtemp()
        tf_logging.warning("Using temporary folder as model directory: %s", model_dir)
        config = run_config_lib.RunConfig._replace(copy.deepcopy(config), ["model_dir"],
                                                   model_dir=model_dir)
    return config


def _get_replica_device_setter(config: Any) -> Any:
    """The default device function in a cluster with ps tasks (TF's): variables round robin
    on the ps tasks, every other op on this task's `/job:<type>/task:<id>`."""
    if config.num_ps_replicas > 0:
        from tf1compat.training.device_setter import STANDARD_PS_OPS, replica_device_setter
        worker = "/job:%s/task:%d" % (config.task_type, config.task_id) if config.task_type \
            else "/job:worker"
        return replica_device_setter(ps_tasks=config.num_ps_replicas, worker_device=worker,
                                     merge_devices=True, ps_ops=list(STANDARD_PS_OPS),
                                     cluster=config.cluster_spec)
    return None


def _check_checkpoint_available(model_dir: str) -> None:
    if not checkpoint_state.latest_checkpoint(model_dir):
        raise ValueError(f"Could not find trained model in model_dir: {model_dir}.")


def _check_hooks_type(hooks: Any) -> List[Any]:
    hooks = list(hooks or [])
    for hook in hooks:
        if not isinstance(hook, SessionRunHook):
            raise TypeError(f"Hooks must be a SessionRunHook, given: {hook}")
    return hooks


def _check_listeners_type(saving_listeners: Any) -> List[Any]:
    listeners = list(saving_listeners or [])
    for listener in listeners:
        if not isinstance(listener, hooks_lib.CheckpointSaverListener):
            raise TypeError("saving_listeners must be a list of CheckpointSaverListener, "
                            f"given: {listener}")
    return listeners


def _load_global_step_from_checkpoint_dir(checkpoint_dir: str) -> int:
    """The global step of the latest checkpoint in `checkpoint_dir`, 0 without one (TF's
    name: TPU programs call it to resume, e.g. tensorflow/tpu's efficientnet main.py)."""
    from tf1compat.serialization.checkpoint_reader import NewCheckpointReader
    try:
        reader = NewCheckpointReader(checkpoint_state.latest_checkpoint(checkpoint_dir))
        return int(reader.get_tensor(GraphKeys.GLOBAL_STEP))
    except Exception:  # noqa: BLE001 - TF: no readable checkpoint means step 0
        return 0


def _has_dataset_or_queue_runner(features: Any) -> bool:
    from tf1compat.util import nest
    tensors = [t for t in nest.flatten(features) if isinstance(t, Tensor)]
    if any(t.op.type == "IteratorGetNext" for t in tensors):
        return True
    return bool(get_default_graph().get_collection(GraphKeys.QUEUE_RUNNERS))
