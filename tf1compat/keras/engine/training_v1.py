"""`Model.compile`, `fit`, `evaluate`, `predict` and the `*_on_batch` methods in TF1
graph mode: tf-keras's v1 training engine (training_v1.py), as a mixin of `Model`.

`compile` builds, in the Keras graph: a target placeholder per output (`dense_target`),
the metrics (`metrics/<name>/...`, stateful Metric objects whose variables `total`,
`count` live outside any scope), the weighted loss per output (`loss/<output>_loss/...`)
summed with the model's own losses into `total_loss`. Sample-weight placeholders
(`<output>_sample_weights`) are added when sample or class weights are first fed (the
loss is rebuilt then). The train function (built on first use) is
`K.function(inputs + targets + sample weights + [learning phase], [total_loss] + metric
results, updates=optimizer updates (in `training/`) + the model's updates)`.

Under eager execution every public method goes to training_eager.py (tf-keras's v2
loop, which is what TF uses there). The loops themselves live in training_arrays.py
(numpy arrays, graph-mode datasets and iterators) and training_generator.py (Python
generators, Sequences).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.util import nest
from tf1compat.util import tf_logging as logging
from tf1compat.framework import context as _context
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend
from tf1compat.keras import metrics as metrics_module
from tf1compat.keras.engine import compile_utils, training_utils
from tf1compat.keras.engine.compile_utils import TrainingEndpoint
from tf1compat.keras.engine.training_metrics import CompiledMetrics

__all__ = ["TrainingV1", "TRAINING_ATTRIBUTES"]

# Bookkeeping attributes of a compiled model: never tracked as checkpoint dependencies
# or sub-layers (Metric objects are Layers).
TRAINING_ATTRIBUTES = frozenset({
    "_compile_metric_functions", "_training_endpoints", "loss_functions",
    "_per_output_metrics", "_per_output_weighted_metrics", "history", "train_function",
    "test_function", "predict_function", "total_loss", "_collected_trainable_weights",
    "loss", "_compile_metrics", "_compile_weighted_metrics", "loss_weights",
    "sample_weight_mode", "_feed_inputs", "_feed_input_names", "_feed_input_shapes",
    "_compiled_trainable_state", "_function_kwargs", "stop_training", "_is_compiled",
    "_run_eagerly", "_v1_compile_was_called", "_eager", "_from_serialized",
    "_successful_loop_finish", "_build_input_shape", "_distribution_strategy"})


def _executing_eagerly() -> bool:
    return _context.executing_eagerly()


def _eager() -> Any:
    from tf1compat.keras.engine import training_eager
    return training_eager


def _distributed() -> Any:
    from tf1compat.keras.engine import training_distributed
    return training_distributed


class TrainingV1(CompiledMetrics):
    """The training API of `tf.keras.Model` (mixed into Model)."""

    _is_compiled = False
    optimizer: Any = None
    _run_eagerly: Any = None
    stop_training = False

    # -- compile ---------------------------------------------------------------------------
    def compile(self, optimizer: Any = "rmsprop", loss: Any = None, metrics: Any = None,
                loss_weights: Any = None, sample_weight_mode: Any = None,
                weighted_metrics: Any = None, target_tensors: Any = None,
                distribute: Any = None, **kwargs: Any) -> None:
        """Configures the model for training: optimizer (name or instance, Keras or
        tf.train), loss and metrics (names, functions or objects; per output as lists or
        dicts), loss weights, sample-weight modes, weighted metrics, target tensors."""
        if _executing_eagerly():
            return _eager().compile(self, optimizer, loss, metrics, loss_weights,
                                    sample_weight_mode, weighted_metrics, target_tensors,
                                    distribute, **kwargs)
        self._run_eagerly = kwargs.pop("run_eagerly", None)
        if self._run_eagerly:
            raise ValueError("You can only set `run_eagerly=True` if eager execution is "
                             "enabled.")
        kwargs.pop("experimental_run_tf_function", None)
        kwargs.pop("cloning", None)
        self._v1_compile_was_called = True
        self._from_serialized = kwargs.pop("from_serialized", False)
        unknown = set(kwargs) - {"feed_dict", "fetches", "options", "run_metadata"}
        if unknown:
            raise TypeError(f"Invalid keyword argument(s) in `compile`: {unknown}")
        self._function_kwargs = kwargs
        if distribute is not None:
            raise NotImplementedError("compile(distribute=...) (distribution strategies) is "
                                      "not supported by tf1compat")
        if not self._from_serialized:
            self._distribution_strategy = _distributed().strategy_at_compile()
        _distributed().refuse_compile_args(getattr(self, "_distribution_strategy", None),
                                           sample_weight_mode, weighted_metrics,
                                           target_tensors)
        self._set_optimizer(optimizer)
        self.loss = loss or {}
        self.loss_weights = loss_weights
        self.sample_weight_mode = sample_weight_mode
        self._compile_metrics = metrics or []
        self._compile_weighted_metrics = weighted_metrics
        self._training_endpoints: List[TrainingEndpoint] = []
        self._compiled_trainable_state = self._get_trainable_state()
        self._compile_metric_functions: List[Any] = []
        self.train_function = self.test_function = self.predict_function = None
        if not self.built or not self.inputs or not self.outputs:
            # Compiled on the first call on data (the inputs are not known yet).
            self._is_compiled = False
            return
        self._is_compiled = True
        self.loss_functions = compile_utils.prepare_loss_functions(self.loss,
                                                                   self.output_names)
        target_tensors = self._process_target_tensor_for_compile(target_tensors)
        for output, name, loss_fn, target in zip(self.outputs, self.output_names,
                                                 self.loss_functions, target_tensors):
            endpoint = TrainingEndpoint(output, name, loss_fn)
            endpoint.create_training_target(target)
            self._training_endpoints.append(endpoint)
        compile_utils.prepare_loss_weights(self._training_endpoints, loss_weights)
        with backend.get_graph().as_default():
            self._cache_output_metric_attributes(metrics, weighted_metrics)
            self._set_metric_attributes()
            self._handle_metrics(self.outputs, targets=self._targets,
                                 skip_target_masks=self._skip_target_masks(),
                                 masks=self._output_masks())
            compile_utils.prepare_sample_weight_modes(self._training_endpoints,
                                                      sample_weight_mode)
            self._compile_weights_loss_and_weighted_metrics()
            self._collected_trainable_weights = self.trainable_weights

    def _set_optimizer(self, optimizer: Any) -> None:
        """The optimizer(s) from `compile`; a `mixed_float16` model's is wrapped in a
        LossScaleOptimizer, as tf-keras does."""
        from tf1compat.keras import optimizers
        from tf1compat.keras.mixed_precision.loss_scale_optimizer import LossScaleOptimizer
        if isinstance(optimizer, (list, tuple)):
            self.optimizer = [optimizers.get(opt) for opt in optimizer]
        else:
            self.optimizer = optimizers.get(optimizer)
        if self.dtype_policy.name != "mixed_float16" or \
                isinstance(self.optimizer, LossScaleOptimizer):
            return
        if isinstance(self.optimizer, list):
            raise ValueError('When the "mixed_float16" dtype policy is used, you can only '
                             f"pass a single optimizer. Using policy {self.dtype_policy} and "
                             f"got optimizers: {self.optimizer}")
        if not isinstance(self.optimizer, optimizers.OptimizerV2):
            raise ValueError('"optimizer" must be an instance of '
                             "tf.keras.optimizers.legacy.Optimizer when a dype policy with a "
                             f"loss scale is used, but got: {self.optimizer}. Using policy: "
                             f"{self.dtype_policy}")
        self.optimizer = LossScaleOptimizer(self.optimizer)

    def _get_trainable_state(self) -> Dict[int, bool]:
        return {id(layer): layer.trainable for layer in self._flatten_layers()}

    def _set_trainable_state(self, state: Dict[int, bool]) -> None:
        for layer in self._flatten_layers():
            if id(layer) in state:
                layer._trainable = state[id(layer)]

    def _process_target_tensor_for_compile(self, target_tensors: Any) -> List[Any]:
        if target_tensors is None:
            return [None for _ in self.output_names]
        if isinstance(target_tensors, (list, tuple)):
            if len(target_tensors) != len(self.outputs):
                raise ValueError("When passing a list as `target_tensors`, it should have one "
                                 "entry per model output. The model has "
                                 f"{len(self.outputs)} outputs, but you passed "
                                 f"target_tensors={target_tensors}")
            return list(target_tensors)
        if isinstance(target_tensors, dict):
            unexpected = set(target_tensors) - set(self.output_names)
            if unexpected:
                raise ValueError(f"Unknown entry in `target_tensors` dictionary: "
                                 f'"{sorted(unexpected)[0]}". Only expected the following '
                                 f"keys: {self.output_names}")
            return [target_tensors.get(name) for name in self.output_names]
        if isinstance(target_tensors, Tensor):
            return [target_tensors]
        raise TypeError("Expected `target_tensors` to be a list or tuple or dict or a single "
                        f"tensor, but got: {target_tensors}")

    @property
    def run_eagerly(self) -> bool:
        if self._run_eagerly is True and not _executing_eagerly():
            raise ValueError("You can only set `run_eagerly=True` if eager execution is "
                             "enabled.")
        return bool(self._run_eagerly)

    @run_eagerly.setter
    def run_eagerly(self, value: bool) -> None:
        self._run_eagerly = value

    # -- loss ------------------------------------------------------------------------------
    def _skip_target_masks(self) -> List[bool]:
        return [loss is None for loss in self.loss_functions]

    def _output_masks(self) -> List[Any]:
        from tf1compat.keras.engine.masking import get_mask
        return [get_mask(x) for x in self.outputs]

    def _prepare_sample_weights(self, sample_weights: Any = None) -> None:
        if sample_weights is not None:
            if len(sample_weights) != len(self._training_endpoints):
                raise ValueError("Provided sample weights must have same length as the number "
                                 f"of outputs. Expected: {len(self._training_endpoints)}, got: "
                                 f"{len(sample_weights)}.")
        else:
            sample_weights = [None] * len(self._training_endpoints)
        for endpoint, weight in zip(self._training_endpoints, sample_weights):
            endpoint.populate_sample_weight(weight, endpoint.sample_weight_mode)

    def _compile_weights_loss_and_weighted_metrics(self, sample_weights: Any = None) -> None:
        with backend.get_graph().as_default():
            if sample_weights is not None:
                self._update_sample_weight_modes(sample_weights)
            self._prepare_sample_weights(sample_weights)
            masks = self._output_masks()
            self._handle_metrics(self.outputs, targets=self._targets,
                                 skip_target_masks=self._skip_target_masks(),
                                 sample_weights=self.sample_weights, masks=masks,
                                 return_weighted_metrics=True)
            self.total_loss = self._prepare_total_loss(masks)

    def _prepare_total_loss(self, masks: Sequence[Any]) -> Any:
        """The weighted sum of the outputs' losses plus the model's own losses."""
        from tf1compat.keras import losses as losses_module
        from tf1compat.ops.math_ops import add_n, cast
        loss_list = []
        with backend.name_scope("loss"):
            for endpoint, mask in zip(self._training_endpoints, masks):
                if endpoint.should_skip_target():
                    continue
                y_true, y_pred = endpoint.target, endpoint.output
                loss_fn, sample_weight = endpoint.loss_fn, endpoint.sample_weight
                with backend.name_scope(endpoint.loss_name()):
                    if mask is not None:
                        mask = cast(mask, y_pred.dtype)
                        if sample_weight is None:
                            sample_weight = mask
                        else:
                            mask, _, sample_weight = metrics_module._squeeze_or_expand(
                                mask, sample_weight=sample_weight)
                    if hasattr(loss_fn, "reduction"):
                        per_sample = loss_fn.call(y_true, y_pred)
                        reduction = loss_fn.reduction
                        if reduction == losses_module.Reduction.AUTO:
                            reduction = losses_module.Reduction.SUM_OVER_BATCH_SIZE
                        sample_weight = losses_module.apply_valid_mask(
                            per_sample, sample_weight, mask, reduction)
                        output_loss = losses_module.compute_weighted_loss(
                            per_sample, sample_weight, reduction=reduction)
                        if reduction == losses_module.Reduction.SUM_OVER_BATCH_SIZE:
                            output_loss = _scale_loss_for_replicas(output_loss)
                    else:
                        output_loss = loss_fn(y_true, y_pred, sample_weight=sample_weight)
                if len(self.outputs) > 1:
                    endpoint.output_loss_metric._call_result = \
                        endpoint.output_loss_metric(output_loss)
                loss_list.append(endpoint.loss_weight * output_loss)
            if not loss_list and not self.losses:
                raise ValueError("The model cannot be compiled because it has no loss to "
                                 "optimize.")
            custom = self.get_losses_for(None) + self.get_losses_for(self.inputs)
            if custom:
                loss_list.append(add_n(losses_module.cast_losses_to_common_dtype(custom)))
            loss_list = losses_module.cast_losses_to_common_dtype(loss_list)
            return add_n(loss_list) if loss_list else 0.0

    def _update_sample_weight_modes(self, sample_weights: Any = None) -> None:
        """Sample weights fed for some output switch every output to weighted mode."""
        if not self._is_compiled:
            return
        if sample_weights and any(s is not None for s in sample_weights):
            for endpoint in self._training_endpoints:
                endpoint.sample_weight_mode = endpoint.sample_weight_mode or "samplewise"
        else:
            for endpoint in self._training_endpoints:
                endpoint.sample_weight_mode = None

    def _recompile_weights_loss_and_weighted_metrics(self) -> bool:
        if not self._is_compiled:
            return False
        if any(e.sample_weights_mismatch() for e in self._training_endpoints):
            self._compile_weights_loss_and_weighted_metrics()
            return True
        return False

    # -- feeds -----------------------------------------------------------------------------
    @property
    def _targets(self) -> List[Any]:
        return [e.target for e in self._training_endpoints if e.has_target]

    @property
    def _feed_targets(self) -> List[Any]:
        return [e.target for e in self._training_endpoints if e.has_feedable_training_target()]

    @property
    def _feed_output_names(self) -> List[str]:
        return [e.output_name for e in self._training_endpoints
                if e.has_feedable_training_target()]

    @property
    def _feed_output_shapes(self) -> List[Any]:
        return [e.feed_output_shape for e in self._training_endpoints
                if e.has_feedable_training_target()]

    @property
    def _feed_loss_fns(self) -> List[Any]:
        return [e.loss_fn for e in self._training_endpoints if e.has_feedable_training_target()]

    @property
    def sample_weights(self) -> List[Any]:
        return [e.sample_weight for e in self._training_endpoints]

    @property
    def _sample_weight_modes(self) -> List[Any]:
        return [e.sample_weight_mode for e in self._training_endpoints]

    @property
    def _feed_sample_weights(self) -> List[Any]:
        return [e.sample_weight for e in self._training_endpoints if e.sample_weight is not None]

    def _model_feed_inputs(self) -> List[Any]:
        feed = getattr(self, "_feed_inputs", None)
        if feed is not None:
            return feed
        return [x for x in self.inputs if backend.is_placeholder(x)]

    def _model_feed_names(self) -> List[str]:
        names = getattr(self, "_feed_input_names", None)
        if names is not None:
            return names
        return [n for n, x in zip(self.input_names, self.inputs) if backend.is_placeholder(x)]

    # -- execution functions ---------------------------------------------------------------
    def _learning_phase_feed(self) -> List[Any]:
        phase = backend.learning_phase()
        return [] if isinstance(phase, int) else [phase]

    def _make_train_function(self) -> None:
        has_recompiled = self._recompile_weights_loss_and_weighted_metrics()
        if len(self.trainable_weights) != len(self._collected_trainable_weights):
            # once per process, as TF's log_first_n (GANs freeze a model every step)
            logging.log_first_n(logging.WARN, "Discrepancy between trainable weights and "
                                "collected trainable weights, did you set `model.trainable` "
                                "without calling `model.compile` after ?", 1)
        if isinstance(self.optimizer, list):
            raise ValueError("The `optimizer` in `compile` should be a single optimizer.")
        if self.train_function is not None and not has_recompiled:
            return
        current = self._get_trainable_state()
        self._set_trainable_state(self._compiled_trainable_state)
        inputs = self._model_feed_inputs() + self._feed_targets + self._feed_sample_weights + \
            self._learning_phase_feed()
        with backend.get_graph().as_default():
            with backend.name_scope("training"):
                updates = self.optimizer.get_updates(
                    params=self._collected_trainable_weights, loss=self.total_loss)
                updates += self.get_updates_for(None)
                updates += self.get_updates_for(self.inputs)
            results = [m._call_result for m in self._training_eval_metrics()
                       if hasattr(m, "_call_result")]
        with backend.name_scope("training"):
            self.train_function = backend.function(
                inputs, [self.total_loss] + results, updates=updates, name="train_function",
                **self._function_kwargs)
        self._set_trainable_state(current)

    def _make_test_function(self) -> None:
        has_recompiled = self._recompile_weights_loss_and_weighted_metrics()
        if self.test_function is not None and not has_recompiled:
            return
        inputs = self._model_feed_inputs() + self._feed_targets + self._feed_sample_weights
        results = [m._call_result for m in self._training_eval_metrics()
                       if hasattr(m, "_call_result")]
        with backend.name_scope("evaluation"):
            self.test_function = backend.function(
                inputs, [self.total_loss] + results, updates=self.state_updates,
                name="test_function", **self._function_kwargs)

    def _make_predict_function(self) -> None:
        if getattr(self, "predict_function", None) is not None:
            return
        with backend.name_scope("predict"):
            self.predict_function = backend.function(
                self._model_feed_inputs(), self.outputs, updates=self.state_updates,
                name="predict_function", **getattr(self, "_function_kwargs", {}))

    def _make_execution_function(self, mode: str) -> Any:
        if mode == "train":
            self._make_train_function()
            return self.train_function
        if mode == "test":
            self._make_test_function()
            return self.test_function
        self._make_predict_function()
        return self.predict_function

    # -- user data -------------------------------------------------------------------------
    def _assert_compile_was_called(self) -> None:
        if not self.optimizer:
            raise RuntimeError("You must compile your model before training/testing. Use "
                               "`model.compile(optimizer, loss)`.")

    def _validate_or_infer_batch_size(self, batch_size: Optional[int], steps: Optional[int],
                                      x: Any) -> Optional[int]:
        from tf1compat.keras.utils.data_utils import Sequence
        import inspect
        if training_utils.is_dataset(x) or isinstance(x, Sequence) or inspect.isgenerator(x):
            if batch_size is not None:
                raise ValueError("The `batch_size` argument must not be specified for the "
                                 f"given input type. Received input: {x}, batch_size: "
                                 f"{batch_size}")
            return None
        first = next(iter(self._flatten_layers(include_self=False, recursive=False)), None)
        static = _static_batch_size(first) if first is not None else None
        if static is not None:
            if batch_size is not None and batch_size != static:
                raise ValueError(f"The `batch_size` argument value {batch_size} is "
                                 "incompatible with the specified batch size of your Input "
                                 f"Layer: {static}")
            if steps is None:
                batch_size = static
        if batch_size is None and steps is None:
            batch_size = 32
        return batch_size

    def _standardize_user_data(self, x: Any, y: Any = None, sample_weight: Any = None,
                               class_weight: Any = None, batch_size: Optional[int] = None,
                               check_steps: bool = False, steps_name: str = "steps",
                               steps: Optional[int] = None, validation_split: float = 0.0,
                               shuffle: bool = False) -> tuple:
        """(input arrays, target arrays, sample weights) checked against the model; builds
        and compiles a model that has no inputs yet from the data."""
        if check_steps:
            training_utils.check_steps_argument(x, steps, steps_name)
        dict_inputs = isinstance(x, dict)
        all_inputs: List[Any] = []
        build_called = False
        if not self.inputs:
            all_inputs, dict_inputs = self._build_model_with_inputs(x)
            build_called = True
        if not self._is_compiled and self.optimizer:
            self._compile_from_inputs(all_inputs, y)
            if build_called and all(isinstance(v, Tensor) for v in all_inputs):
                return [], [], None
        return self._standardize_tensors(x, y, sample_weight, dict_inputs,
                                         class_weight=class_weight, batch_size=batch_size)

    def _standardize_tensors(self, x: Any, y: Any, sample_weight: Any, dict_inputs: bool,
                             class_weight: Any = None, batch_size: Optional[int] = None
                             ) -> tuple:
        names = self._model_feed_names()
        shapes = [backend.int_shape(t) for t in self._model_feed_inputs()] \
            if self._is_graph_network else None
        x = training_utils.standardize_input_data(x, names, shapes, check_batch_axis=False,
                                                  exception_prefix="input")
        if y is not None:
            compile_utils.prepare_sample_weight_modes(self._training_endpoints,
                                                      self.sample_weight_mode)
            output_names = self._feed_output_names
            y = training_utils.standardize_input_data(y, output_names, shapes=None,
                                                      check_batch_axis=False,
                                                      exception_prefix="target")
            sample_weights = training_utils.standardize_sample_weights(sample_weight,
                                                                       output_names)
            class_weights = training_utils.standardize_class_weights(class_weight,
                                                                     output_names)
            modes = [e.sample_weight_mode for e in self._training_endpoints
                     if e.has_feedable_training_target()]
            sample_weights = [training_utils.standardize_weights(ref, sw, cw, mode)
                              for ref, sw, cw, mode in zip(y, sample_weights, class_weights,
                                                           modes)]
            training_utils.check_array_lengths(x, y, sample_weights)
            if self._is_graph_network:
                training_utils.check_loss_and_target_compatibility(
                    y, self._feed_loss_fns, self._feed_output_shapes)
            sample_weights = _fill_partial_sample_weights(y, sample_weights, modes)
        else:
            y, sample_weights = [], None
        if self.stateful and batch_size and x and x[0].shape[0] % batch_size != 0:
            raise ValueError("In a stateful network, you should only pass inputs with a number "
                             "of samples that can be divided by the batch size. Found: "
                             f"{x[0].shape[0]} samples")
        if dict_inputs:
            x = dict(zip(names, x))
        return x, y, sample_weights

    def _build_model_with_inputs(self, inputs: Any) -> tuple:
        """Sets the inputs of a model that has none (subclassed, or Sequential without an
        input shape) from the data: placeholders `input_1`, ... shaped like it."""
        if isinstance(inputs, (list, tuple)):
            flat, is_dict = list(inputs), False
        elif isinstance(inputs, dict):
            flat, is_dict = [inputs[k] for k in sorted(inputs)], True
        else:
            flat, is_dict = [inputs], False
        self._set_inputs(inputs)
        return flat, is_dict

    def _set_inputs(self, inputs: Any, outputs: Any = None, training: Any = None) -> None:
        from tf1compat.keras.engine.model_inputs import symbolic_inputs
        if self.inputs:
            raise ValueError("Model inputs are already set.")
        symbolic, flat, names = symbolic_inputs(inputs)
        if type(self).__name__ == "Sequential" and not self.built:
            first = flat[0]
            shape = first.shape.as_list() if isinstance(first, Tensor) else first.shape
            self._build_input_shape = (None,) + tuple(shape[1:])
        self.inputs = flat
        self.input_names = names
        self._feed_inputs = [v for v in flat if backend.is_placeholder(v)]
        self._feed_input_names = [n for n, v in zip(names, flat) if backend.is_placeholder(v)]
        self._feed_input_shapes = [backend.int_shape(v) for v in self._feed_inputs]
        if outputs is None:
            kwargs = {}
            if self._expects_training_arg:
                training = backend.learning_phase() if training is None else training
                kwargs["training"] = training
            outputs = self(symbolic, **kwargs)
        outputs = nest.flatten(outputs)
        self.outputs = outputs
        self.output_names = [f"output_{i + 1}" for i in range(len(outputs))]
        self.built = True

    def _compile_from_inputs(self, all_inputs: List[Any], target: Any) -> None:
        target_tensors = None
        if target is not None:
            targets = list(target) if isinstance(target, (list, tuple)) else [target]
            all_inputs = all_inputs + targets
            if any(isinstance(v, Tensor) for v in all_inputs) and not all(
                    isinstance(v, Tensor) for v in all_inputs):
                raise ValueError("Do not pass inputs that mix Numpy arrays and TensorFlow "
                                 f"tensors. You passed: x={all_inputs}; y={target}")
            symbolic = [v for v in targets if isinstance(v, Tensor)]
            target_tensors = symbolic or None
        strategy = getattr(self, "_distribution_strategy", None)
        self.compile(optimizer=self.optimizer, loss=self.loss, metrics=self._compile_metrics,
                     weighted_metrics=self._compile_weighted_metrics,
                     loss_weights=self.loss_weights, target_tensors=target_tensors,
                     sample_weight_mode=self.sample_weight_mode, **self._function_kwargs)
        # (this compile may run outside the scope the user compiled in)
        self._distribution_strategy = strategy

    def _prepare_validation_data(self, validation_data: Any, batch_size: Optional[int],
                                 validation_steps: Optional[int]) -> tuple:
        val_x, val_y, val_sample_weights = training_utils.unpack_validation_data(
            validation_data)
        return self._standardize_user_data(val_x, val_y, sample_weight=val_sample_weights,
                                           batch_size=batch_size, steps=validation_steps,
                                           steps_name="validation_steps")

    # -- public loops ----------------------------------------------------------------------
    def fit(self, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
            epochs: int = 1, verbose: Any = "auto", callbacks: Any = None,
            validation_split: float = 0.0, validation_data: Any = None, shuffle: Any = True,
            class_weight: Any = None, sample_weight: Any = None, initial_epoch: int = 0,
            steps_per_epoch: Optional[int] = None, validation_steps: Optional[int] = None,
            validation_freq: Any = 1, max_queue_size: int = 10, workers: int = 1,
            use_multiprocessing: bool = False, **kwargs: Any) -> Any:
        """Trains for `epochs` epochs; returns the History callback."""
        if _executing_eagerly():
            return _eager().fit(self, **_loop_args(locals()))
        if "nb_epoch" in kwargs:
            logging.warning("The `nb_epoch` argument in `fit` has been renamed `epochs`.")
            epochs = kwargs.pop("nb_epoch")
        if kwargs:
            raise TypeError(f"Unrecognized keyword arguments: {kwargs}")
        self._assert_compile_was_called()
        verbose = 1 if verbose == "auto" else verbose
        return _loop_for(self, x).fit(self, **_loop_args(locals()))

    def evaluate(self, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
                 verbose: Any = "auto", sample_weight: Any = None,
                 steps: Optional[int] = None, callbacks: Any = None, max_queue_size: int = 10,
                 workers: int = 1, use_multiprocessing: bool = False,
                 return_dict: bool = False) -> Any:
        """The loss and metrics over `x`, `y` (a scalar when there are no metrics)."""
        if _executing_eagerly():
            return _eager().evaluate(self, **_loop_args(locals()))
        self._assert_compile_was_called()
        if return_dict:
            raise TypeError("evaluate() got an unexpected keyword argument 'return_dict'")
        verbose = 1 if verbose == "auto" else verbose
        return _loop_for(self, x).evaluate(self, **_loop_args(locals()))

    def predict(self, x: Any, batch_size: Optional[int] = None, verbose: Any = "auto",
                steps: Optional[int] = None, callbacks: Any = None, max_queue_size: int = 10,
                workers: int = 1, use_multiprocessing: bool = False) -> Any:
        """The model's outputs on `x`, batch by batch, concatenated."""
        if _executing_eagerly():
            return _eager().predict(self, **_loop_args(locals()))
        verbose = 0 if verbose == "auto" else verbose
        return _loop_for(self, x).predict(self, **_loop_args(locals()))

    def train_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                       class_weight: Any = None, reset_metrics: bool = True,
                       return_dict: bool = False) -> Any:
        """One gradient update on one batch; returns the loss (and metrics)."""
        if _executing_eagerly():
            return _eager().train_on_batch(self, x, y, sample_weight, class_weight,
                                           reset_metrics, return_dict)
        self._assert_compile_was_called()
        _distributed().refuse_on_batch(self, "train_on_batch")
        x, y, sample_weights = self._standardize_user_data(
            x, y, sample_weight=sample_weight, class_weight=class_weight)
        ins = _as_list(self, x) + list(y or []) + list(sample_weights or []) + \
            ([True] if self._learning_phase_feed() else [])
        self._update_sample_weight_modes(sample_weights=sample_weights)
        self._make_train_function()
        outputs = self.train_function(ins)
        if reset_metrics:
            self.reset_metrics()
        return outputs[0] if len(outputs) == 1 else outputs

    def test_on_batch(self, x: Any, y: Any = None, sample_weight: Any = None,
                      reset_metrics: bool = True, return_dict: bool = False) -> Any:
        """The loss (and metrics) on one batch, without updating the weights."""
        if _executing_eagerly():
            return _eager().test_on_batch(self, x, y, sample_weight, reset_metrics,
                                          return_dict)
        self._assert_compile_was_called()
        _distributed().refuse_on_batch(self, "test_on_batch")
        x, y, sample_weights = self._standardize_user_data(x, y, sample_weight=sample_weight)
        ins = _as_list(self, x) + list(y or []) + list(sample_weights or [])
        self._update_sample_weight_modes(sample_weights=sample_weights)
        self._make_test_function()
        outputs = self.test_function(ins)
        if reset_metrics:
            self.reset_metrics()
        return outputs[0] if len(outputs) == 1 else outputs

    def predict_on_batch(self, x: Any) -> Any:
        """The model's outputs on one batch."""
        if _executing_eagerly():
            return _eager().predict_on_batch(self, x)
        _distributed().refuse_on_batch(self, "predict_on_batch")
        inputs, _, _ = self._standardize_user_data(x)
        self._make_predict_function()
        outputs = self.predict_function(_as_list(self, inputs))
        return outputs[0] if len(outputs) == 1 else outputs

    def fit_generator(self, generator: Any, steps_per_epoch: Optional[int] = None,
                      epochs: int = 1, verbose: int = 1, callbacks: Any = None,
                      validation_data: Any = None, validation_steps: Optional[int] = None,
                      validation_freq: Any = 1, class_weight: Any = None,
                      max_queue_size: int = 10, workers: int = 1,
                      use_multiprocessing: bool = False, shuffle: bool = True,
                      initial_epoch: int = 0) -> Any:
        """`fit` on a generator or Sequence (deprecated alias)."""
        # tf-keras's v1 loop spells the model in lower case here, its v2 loop does not.
        _warn_generator("model" if not _executing_eagerly() else "Model", "fit")
        return self.fit(generator, steps_per_epoch=steps_per_epoch, epochs=epochs,
                        verbose=verbose, callbacks=callbacks, validation_data=validation_data,
                        validation_steps=validation_steps, validation_freq=validation_freq,
                        class_weight=class_weight, max_queue_size=max_queue_size,
                        workers=workers, use_multiprocessing=use_multiprocessing,
                        shuffle=shuffle, initial_epoch=initial_epoch)

    def evaluate_generator(self, generator: Any, steps: Optional[int] = None,
                           callbacks: Any = None, max_queue_size: int = 10, workers: int = 1,
                           use_multiprocessing: bool = False, verbose: int = 0) -> Any:
        """`evaluate` on a generator or Sequence (deprecated alias)."""
        _warn_generator("Model", "evaluate")
        return self.evaluate(generator, steps=steps, max_queue_size=max_queue_size,
                             workers=workers, use_multiprocessing=use_multiprocessing,
                             verbose=verbose, callbacks=callbacks)

    def predict_generator(self, generator: Any, steps: Optional[int] = None,
                          callbacks: Any = None, max_queue_size: int = 10, workers: int = 1,
                          use_multiprocessing: bool = False, verbose: int = 0) -> Any:
        """`predict` on a generator or Sequence (deprecated alias)."""
        _warn_generator("Model", "predict")
        return self.predict(generator, steps=steps, max_queue_size=max_queue_size,
                            workers=workers, use_multiprocessing=use_multiprocessing,
                            verbose=verbose, callbacks=callbacks)

    def _get_callback_model(self) -> Any:
        return self

    def _maybe_load_initial_epoch_from_ckpt(self, initial_epoch: int, mode: str) -> int:
        return initial_epoch


def _static_batch_size(layer: Any) -> Optional[int]:
    shape = getattr(layer, "_batch_input_shape", None)
    if shape is None and hasattr(layer, "_input_layers") and layer._input_layers:
        shape = getattr(layer._input_layers[0], "_batch_input_shape", None)
    return shape[0] if shape else None


def _as_list(model: Any, x: Any) -> List[Any]:
    if isinstance(x, dict):
        return [x[name] for name in model._model_feed_names()]
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _fill_partial_sample_weights(y: List[Any], sample_weights: List[Any],
                                 modes: List[Any]) -> Any:
    """None when no output is weighted; ones for the outputs without weights when some
    are, as a tuple (tf-keras's `list_to_tuple`: `validation_split` then slices such
    weights to `[None]`, so a fit with partial weights and a validation split trains and
    validates unweighted, as in tf-keras)."""
    if not any(w is not None for w in sample_weights):
        return None
    if all(w is not None for w in sample_weights):
        return sample_weights
    filled = []
    for target, weight, mode in zip(y, sample_weights, modes):
        if weight is None:
            shape = (target.shape[0], target.shape[1]) if mode == "temporal" else \
                (target.shape[0],)
            weight = np.ones(shape)
        filled.append(weight)
    return tuple(filled)


def _loop_args(scope: Dict[str, Any]) -> Dict[str, Any]:
    return {k: v for k, v in scope.items() if k not in ("self", "kwargs")}


def _loop_for(model: Any, x: Any) -> Any:
    """The loop module for this model and input: generators/Sequences, a model compiled in
    a strategy's scope, else arrays (which also take graph-mode datasets and iterators)."""
    from tf1compat.keras.utils.data_utils import is_generator_or_sequence
    if is_generator_or_sequence(x):
        from tf1compat.keras.engine import training_generator
        return training_generator
    if getattr(model, "_distribution_strategy", None) is not None:
        return _distributed()
    from tf1compat.keras.engine import training_arrays
    return training_arrays


def _scale_loss_for_replicas(loss: Any) -> Any:
    """In a replica of a tf.distribute strategy (model_to_estimator's model_fn) a mean loss
    is divided by the number of replicas, whose gradients are summed (tf-keras'
    scale_loss_for_distribution)."""
    from tf1compat.training.strategies.distribute_lib import current_replica_context_for_merge
    context = current_replica_context_for_merge()
    if context is None or context.num_replicas_in_sync == 1:
        return loss
    return loss * (1. / context.num_replicas_in_sync)


def _warn_generator(owner: str, method: str) -> None:
    """tf-keras's deprecation warning of `{method}_generator`, pointing at the caller."""
    import warnings
    warnings.warn(f"`{owner}.{method}_generator` is deprecated and will be removed in a "
                  f"future version. Please use `Model.{method}`, which supports generators.",
                  stacklevel=3)
