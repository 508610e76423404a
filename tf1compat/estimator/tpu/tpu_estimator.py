"""`TPUEstimator` and `TPUEstimatorSpec` (`tf.compat.v1.estimator.tpu`, `tf.contrib.tpu`)
running on CPU/GPU, as TF runs them with `use_tpu=False` (BERT's run_classifier.py and
run_pretraining.py take exactly this path).

The model_fn and input_fn receive `params["batch_size"]` (the train/eval/predict batch
size of the mode) and the model_fn `params["use_tpu"] = False`; a TPUEstimatorSpec
becomes an EstimatorSpec (`eval_metrics=(metric_fn, tensors)` called, `scaffold_fn`
called, `host_call` run by a hook). The loss log and step counter of the base Estimator
are replaced by TF's ExamplesPerSecondHook (`global_step/sec`, `examples/sec`).
`use_tpu=True` raises NotImplementedError: there is no TPU here.
"""

from __future__ import annotations

import copy
import math
from typing import Any, Callable, Dict, Optional

from tf1compat.estimator import model_fn as model_fn_lib
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.estimator.tpu import tpu_config
from tf1compat.estimator.util import fn_args, model_fn_kwargs
from tf1compat.framework.graph import device
from tf1compat.training.sessions.basic_session_run_hooks import StepCounterHook
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook
from tf1compat.util import tf_logging

__all__ = ["TPUEstimator", "TPUEstimatorSpec", "ExamplesPerSecondHook"]

_BATCH_SIZE_KEY = "batch_size"
_CTX_KEY = "context"
_USE_TPU_KEY = "use_tpu"
_RESERVED_PARAMS_KEYS = [_BATCH_SIZE_KEY, _CTX_KEY]


class _HostCallHook(SessionRunHook):
    """Runs the host_call's ops with every step (TF's outfeed host call, on CPU). As TF's
    _OutfeedHostCallHook, it first runs the graph's summary-writer init ops (a host_call
    writes tf.contrib.summary / tf.compat.v2.summary ops through writers it creates) and
    flushes those writers when the session ends."""

    def __init__(self, tensors: Any):
        self._tensors = tensors
        self._init_ops: list = []
        self._finalize_ops: list = []

    def begin(self) -> None:
        from tf1compat.framework.graph import apply_op, get_collection
        from tf1compat.summary.summary_v2_ops import SUMMARY_WRITER_INIT_COLLECTION
        self._init_ops = get_collection(SUMMARY_WRITER_INIT_COLLECTION)
        with device("cpu:0"):
            self._finalize_ops = [apply_op("FlushSummaryWriter", [op.inputs[0]])
                                  for op in self._init_ops]

    def after_create_session(self, session: Any, coord: Any) -> None:
        session.run(self._init_ops)

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._tensors)

    def end(self, session: Any) -> None:
        session.run(self._finalize_ops)


def _call_host_fn(fn_and_tensors: Any) -> Any:
    fn, tensors = fn_and_tensors
    return fn(**tensors) if isinstance(tensors, dict) else fn(*tensors)


class TPUEstimatorSpec(model_fn_lib.TPUEstimatorSpecBase):
    """What a TPUEstimator model_fn returns: `eval_metrics=(metric_fn, tensors)`,
    `scaffold_fn`, `host_call=(fn, tensors)` instead of EstimatorSpec's fields."""

    def __new__(cls, mode: str, predictions: Any = None, loss: Any = None,
                train_op: Any = None, eval_metrics: Any = None, export_outputs: Any = None,
                scaffold_fn: Optional[Callable] = None, host_call: Any = None,
                training_hooks: Any = None, evaluation_hooks: Any = None,
                prediction_hooks: Any = None):
        for name, call in (("eval_metrics", eval_metrics), ("host_call", host_call)):
            if call is not None and (not isinstance(call, (tuple, list)) or len(call) != 2 or
                                     not callable(call[0])):
                raise ValueError(f"{name} should be tuple or list with two elements: a "
                                 "function and a list or dict of tensors.")
        return super().__new__(cls, mode=mode, predictions=predictions, loss=loss,
                               train_op=train_op, eval_metrics=eval_metrics,
                               export_outputs=export_outputs, scaffold_fn=scaffold_fn,
                               host_call=host_call, training_hooks=training_hooks,
                               evaluation_hooks=evaluation_hooks,
                               prediction_hooks=prediction_hooks)

    def as_estimator_spec(self) -> model_fn_lib.EstimatorSpec:
        """The EstimatorSpec a CPU/GPU run uses."""
        eval_metric_ops = _call_host_fn(self.eval_metrics) if self.eval_metrics else None
        hooks: tuple = ()
        if self.host_call is not None:
            hooks = (_HostCallHook(_call_host_fn(self.host_call)),)
        scaffold = self.scaffold_fn() if self.scaffold_fn else None
        return model_fn_lib.EstimatorSpec(
            mode=self.mode, predictions=self.predictions, loss=self.loss,
            train_op=self.train_op, eval_metric_ops=eval_metric_ops,
            export_outputs=self.export_outputs, scaffold=scaffold,
            training_hooks=self.training_hooks + hooks,
            evaluation_hooks=self.evaluation_hooks + hooks,
            prediction_hooks=self.prediction_hooks + hooks)


class ExamplesPerSecondHook(StepCounterHook):
    """Logs and records `global_step/sec` and `examples/sec` (batch size x step rate)."""

    def __init__(self, batch_size: int, every_n_steps: Optional[int] = 100,
                 every_n_secs: Optional[float] = None, output_dir: Optional[str] = None,
                 summary_writer: Any = None):
        self._batch_size = batch_size
        super().__init__(every_n_steps=every_n_steps, every_n_secs=every_n_secs,
                         output_dir=output_dir, summary_writer=summary_writer)

    def _log_and_record(self, elapsed_steps: int, elapsed_time: float, step: int) -> None:
        from tf1compat.serialization.messages import Summary
        per_sec = elapsed_steps / elapsed_time if elapsed_time else float("inf")
        examples = self._batch_size * per_sec
        if self._summary_writer is not None:
            self._summary_writer.add_summary(
                Summary(value=[Summary.Value(tag="global_step/sec", simple_value=per_sec)]),
                step)
            self._summary_writer.add_summary(
                Summary(value=[Summary.Value(tag="examples/sec", simple_value=examples)]),
                step)
        tf_logging.info("global_step/sec: %g", per_sec)
        tf_logging.info("examples/sec: %g", examples)


def _add_item_to_params(params: Any, key: str, value: Any) -> None:
    if hasattr(params, "set_hparam"):
        if key in params:
            params.set_hparam(key, value)
        else:
            params.add_hparam(key, value)
    else:
        params[key] = value


class TPUEstimator(Estimator):
    """An Estimator whose model_fn returns TPUEstimatorSpecs and whose functions get
    `params["batch_size"]`; with `use_tpu=False` it trains, evaluates, predicts and
    exports on CPU/GPU as TF does."""

    def __init__(self, model_fn: Any = None, model_dir: Optional[str] = None,
                 config: Any = None, params: Optional[Dict[str, Any]] = None,
                 use_tpu: bool = True, train_batch_size: Optional[int] = None,
                 eval_batch_size: Optional[int] = None,
                 predict_batch_size: Optional[int] = None, batch_axis: Any = None,
                 eval_on_tpu: bool = True, export_to_tpu: bool = True,
                 export_to_cpu: bool = True, warm_start_from: Any = None,
                 embedding_config_spec: Any = None,
                 export_saved_model_api_version: Any = 1):
        if config is None or not isinstance(config, tpu_config.RunConfig):
            raise ValueError("`config` must be provided with type `tpu_config.RunConfig`")
        if params is not None and any(k in params for k in _RESERVED_PARAMS_KEYS):
            raise ValueError(f"{_RESERVED_PARAMS_KEYS} are reserved keys but existed in "
                             f"params {params}.")
        if use_tpu:
            raise NotImplementedError("TPUEstimator(use_tpu=True): tf1compat runs on CPU/GPU "
                                      "only; construct it with use_tpu=False.")
        if embedding_config_spec is not None:
            raise NotImplementedError("TPUEstimator(embedding_config_spec=...): TPU embeddings "
                                      "are not supported by tf1compat.")
        for name, value in (("eval_batch_size", eval_batch_size),
                            ("predict_batch_size", predict_batch_size)):
            if value is not None:
                tpu_config.check_positive_integer(value, name)
        model_fn_lib.verify_model_fn_args(model_fn, params)
        self._log_every_n_steps = config.log_step_count_steps
        config = config.replace(log_step_count_steps=None)
        self._batch_sizes = {ModeKeys.TRAIN: train_batch_size,
                             ModeKeys.EVAL: eval_batch_size,
                             ModeKeys.PREDICT: predict_batch_size}
        self._user_model_fn = model_fn
        self._is_input_fn_invoked: Optional[bool] = None
        super().__init__(model_fn=self._augmented_model_fn, model_dir=model_dir,
                         config=config, params=params or {},
                         warm_start_from=warm_start_from)
        loop = tpu_config.parse_iterations_per_loop(config.tpu_config.iterations_per_loop)
        if loop.unit == "seconds":
            self._log_every_n_secs: Optional[float] = loop.value
            self._log_every_n_steps = None
        else:
            self._log_every_n_secs = None
            if self._log_every_n_steps is not None:
                self._log_every_n_steps = int(math.ceil(float(self._log_every_n_steps) /
                                                        loop.value))
        self._export_to_cpu = export_to_cpu
        self._export_to_tpu = export_to_tpu

    def _augmented_model_fn(self, features: Any, labels: Any, mode: str, config: Any,
                            params: Any) -> Any:
        export_mode = not self._is_input_fn_invoked
        self._is_input_fn_invoked = None
        params = copy.deepcopy(params)
        args = fn_args(self._user_model_fn)
        if "params" not in args:
            raise ValueError(f"model_fn ({self._user_model_fn}) does not include params "
                             "argument, required by TPUEstimator to pass batch size as "
                             "params['batch_size']")
        batch_size = None if export_mode else self._batch_sizes.get(mode)
        if batch_size is not None:
            _add_item_to_params(params, _BATCH_SIZE_KEY, batch_size)
        _add_item_to_params(params, _USE_TPU_KEY, False)
        kwargs: Dict[str, Any] = dict(model_fn_kwargs(args, labels, mode), params=params)
        if "config" in args:
            kwargs["config"] = copy.deepcopy(config)
        tf_logging.info("Running %s on CPU/GPU", mode)
        spec = self._user_model_fn(features=features, **kwargs)
        if isinstance(spec, model_fn_lib.TPUEstimatorSpecBase):
            spec = spec.as_estimator_spec()
        if mode == ModeKeys.TRAIN and (self._log_every_n_steps is not None or
                                       self._log_every_n_secs is not None):
            hook = ExamplesPerSecondHook(
                self._batch_sizes[ModeKeys.TRAIN],
                output_dir=self.model_dir if config.save_summary_steps else None,
                every_n_steps=self._log_every_n_steps, every_n_secs=self._log_every_n_secs)
            spec = spec._replace(training_hooks=spec.training_hooks + (hook,))
        return spec

    def _call_input_fn(self, input_fn: Any, mode: str) -> Any:
        args = fn_args(input_fn)
        if "params" not in args:
            raise ValueError(f"input_fn ({input_fn}) does not include params argument, "
                             "required by TPUEstimator to pass batch size as "
                             "params[\"batch_size\"]")
        kwargs: Dict[str, Any] = {"params": self.params}
        if "config" in args:
            kwargs["config"] = self.config
        if "mode" in args:
            kwargs["mode"] = mode
        self._is_input_fn_invoked = True
        batch_size = self._batch_sizes.get(mode)
        if batch_size is not None:
            _add_item_to_params(kwargs["params"], _BATCH_SIZE_KEY, batch_size)
        with device("/device:CPU:0"):
            return input_fn(**kwargs)

    def _get_features_from_input_fn(self, input_fn: Any, mode: str) -> Any:
        from tf1compat.estimator.util import parse_input_fn_result
        features, _, hooks = parse_input_fn_result(self._call_input_fn(input_fn, mode))
        return features, hooks
