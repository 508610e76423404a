"""Keras training under eager execution: tf-keras's v2 loop, which is what TF 1.x-style
eager execution (`tf.enable_eager_execution()`) runs `fit` with.

Differences from the graph-mode loop that show: the loss is a running mean (a `Mean`
metric weighted by batch size) like every metric, so batch logs and history hold
epoch-to-date means; metric names are the strings given to `compile` (`'mae'` stays
`mae`) with `<output>_` prefixes for several outputs; `metrics_names` is empty until the
first step builds the metrics; progress bars count steps (no "Train on N samples"),
and `evaluate`/`predict` show them too (`verbose` defaults to 1). Each step runs eagerly
under a GradientTape (TF traces it into a tf.function; the values are the same).

Data: numpy arrays (and lists/dicts of them) are cut into batches of `batch_size` (32),
shuffled per epoch unless `shuffle=False`; `tf.data` datasets, generators and
Sequences give one batch per step. Float arrays are fed as `K.floatx()`.
"""

from __future__ import annotations

import math
import random
from typing import Any, Dict, Iterator, List, Optional, Tuple

import numpy as np

from tf1compat.keras import backend
from tf1compat.keras import callbacks as cbks
from tf1compat.keras import metrics as metrics_module
from tf1compat.keras.engine import compile_utils, training_utils
from tf1compat.keras.utils import data_utils
from tf1compat.util import nest, tf_logging

__all__ = ["compile", "fit", "evaluate", "predict", "train_on_batch", "test_on_batch",
           "predict_on_batch"]


# -- compile ------------------------------------------------------------------------------

def _conform(outputs: List[Any], names: List[str], struct: Any) -> List[Any]:
    """A per-output list from one object (every output), a list, or a dict by name."""
    if isinstance(struct, dict):
        return [struct.get(name) for name in names]
    if isinstance(struct, (list, tuple)) and len(outputs) > 1:
        return list(struct)
    return [struct for _ in outputs]


def _conform_metrics(outputs: List[Any], names: List[str], struct: Any) -> List[Any]:
    """Per-output metric lists: a dict by name, a list of lists per output; one metric or
    a flat list goes to every output (tf-keras's `_should_broadcast`)."""
    if isinstance(struct, (list, tuple)) and any(isinstance(m, (list, tuple, dict))
                                                 for m in struct):
        return list(struct)
    if isinstance(struct, dict):
        return [struct.get(name) for name in names]
    return [struct for _ in outputs]


class CompiledState:
    """What `compile` set up under eager execution: losses, loss means and metrics per
    output (the metrics are built on the first step, from the data's shapes)."""

    def __init__(self, model: Any, loss: Any, metrics: Any, loss_weights: Any,
                 weighted_metrics: Any, from_serialized: bool = False):
        self.model = model
        # (a loader's compile: the saved metrics keep their names, no output prefixes)
        self.from_serialized = from_serialized
        self.user_loss = loss
        self.user_metrics = metrics
        self.user_weighted = weighted_metrics
        self.loss_weights = loss_weights
        self.loss_mean = metrics_module.Mean(name="loss")
        self.built = False
        self.losses: List[Any] = []
        self.output_loss_means: List[Any] = []
        self.metric_objects: List[List[Any]] = []
        self.weighted_objects: List[List[Any]] = []

    def output_names(self, n: int) -> List[str]:
        names = getattr(self.model, "output_names", None)
        if names and len(names) == n:
            return list(names)
        return [f"output_{i + 1}" for i in range(n)]

    def build(self, y_true: List[Any], y_pred: List[Any]) -> None:
        names = self.output_names(len(y_pred))
        losses = _conform(y_pred, names, self.user_loss)
        self.losses = [None if loss is None else _loss_object(loss) for loss in losses]
        self.output_loss_means = [None if len(y_pred) == 1 or loss is None else
                                  metrics_module.Mean(name=f"{name}_loss")
                                  for loss, name in zip(self.losses, names)]
        weights = self.loss_weights
        self.weights = _conform(y_pred, names, weights) if weights is not None \
            else [None] * len(y_pred)
        metrics = _conform_metrics(y_pred, names, self.user_metrics or [])
        weighted = _conform_metrics(y_pred, names, self.user_weighted or [])
        copy = len(y_pred) > 1 and not isinstance(self.user_metrics, (dict,)) and not (
            isinstance(self.user_metrics, list) and any(isinstance(m, list)
                                                       for m in self.user_metrics))
        seen: set = set()
        self.metric_objects, self.weighted_objects = [], []
        for i, (name, yt, yp) in enumerate(zip(names, y_true, y_pred)):
            output_metrics = [_metric_object(m, yt, yp) for m in nest.flatten(metrics[i])
                              if m is not None]
            output_weighted = [_metric_object(m, yt, yp) for m in nest.flatten(weighted[i])
                               if m is not None]
            if copy:
                output_metrics = [compile_utils.clone_metric(m) for m in output_metrics]
                output_weighted = [compile_utils.clone_metric(m) for m in output_weighted]
            for m in output_metrics:
                if len(y_pred) > 1 and not self.from_serialized:
                    m._name = f"{name}_{m._name}"
                if m._name in seen and not self.from_serialized:
                    raise ValueError(f"Found two metrics with the same name: {m._name}. All "
                                     "the metrics added to the model need to have unique "
                                     "names.")
                seen.add(m._name)
            for m in output_weighted:
                if len(y_pred) > 1 and not self.from_serialized:
                    m._name = f"{name}_weighted_{m._name}" \
                        if f"{name}_{m._name}" in seen else f"{name}_{m._name}"
                elif m._name in seen and not self.from_serialized:
                    m._name = "weighted_" + m._name
                seen.add(m._name)
            self.metric_objects.append(output_metrics)
            self.weighted_objects.append(output_weighted)
        self.built = True

    def metrics(self) -> List[Any]:
        if not self.built:
            return []
        found = [self.loss_mean] + [m for m in self.output_loss_means if m is not None]
        for plain, weighted in zip(self.metric_objects, self.weighted_objects):
            found += plain + weighted
        return found

    def metrics_names(self) -> List[str]:
        return [m.name for m in self.model.metrics]

    def reset_metrics(self) -> None:
        for m in self.model.metrics:
            m.reset_state()

    def compute_loss(self, y_true: List[Any], y_pred: List[Any], sample_weight: List[Any],
                     regularization: List[Any]) -> Any:
        from tf1compat.keras import losses as losses_module
        from tf1compat.ops.array_ops import shape
        from tf1compat.ops.math_ops import add_n
        values, means, batch = [], [], None
        for yt, yp, sw, loss, weight, mean in zip(y_true, y_pred, sample_weight, self.losses,
                                                 self.weights, self.output_loss_means):
            if yt is None or loss is None:
                continue
            yt, yp, sw = _match_dtype_and_rank(yt, yp, sw)
            value = loss(yt, yp, sample_weight=sw)
            mean_value = value
            if batch is None:
                batch = shape(yt)[0]
            if mean is not None:
                mean.update_state(mean_value, sample_weight=batch)
            if weight is not None:
                value = value * weight
                mean_value = mean_value * weight
            values.append(value)
            means.append(mean_value)
        if regularization:
            reg = add_n(losses_module.cast_losses_to_common_dtype(regularization))
            means.append(reg)
            values.append(reg)
        if not values:
            return None
        self.loss_mean.update_state(add_n(losses_module.cast_losses_to_common_dtype(means)),
                                    sample_weight=batch)
        return add_n(losses_module.cast_losses_to_common_dtype(values))

    def update_metrics(self, y_true: List[Any], y_pred: List[Any],
                       sample_weight: List[Any]) -> None:
        for yt, yp, sw, plain, weighted in zip(y_true, y_pred, sample_weight,
                                               self.metric_objects, self.weighted_objects):
            if yt is None or (not plain and not weighted):
                continue
            yt, yp, sw = _match_dtype_and_rank(yt, yp, sw)
            for m in plain:
                m.update_state(yt, yp)
            for m in weighted:
                m.update_state(yt, yp, sample_weight=sw)


def _loss_object(loss: Any) -> Any:
    from tf1compat.keras import losses as losses_module
    loss = losses_module.get(loss)
    if not isinstance(loss, losses_module.Loss):
        name = getattr(loss, "name", None) or getattr(loss, "__name__", None)
        if name is None:
            raise ValueError(f"Loss should be a callable, received: {loss}")
        loss = losses_module.LossFunctionWrapper(loss, name=name)
    return loss


def _metric_object(metric: Any, y_t: Any, y_p: Any) -> Any:
    if str(metric).lower() not in ("accuracy", "acc", "crossentropy", "ce"):
        obj = metrics_module.get(metric)
    else:
        t_shape, p_shape = y_t.shape.as_list(), y_p.shape.as_list()
        binary = p_shape[-1] == 1
        sparse = len(t_shape) < len(p_shape) or (t_shape[-1] == 1 and p_shape[-1] > 1)
        if str(metric).lower() in ("accuracy", "acc"):
            obj = (metrics_module.binary_accuracy if binary else
                   metrics_module.sparse_categorical_accuracy if sparse else
                   metrics_module.categorical_accuracy)
        else:
            obj = (metrics_module.binary_crossentropy if binary else
                   metrics_module.sparse_categorical_crossentropy if sparse else
                   metrics_module.categorical_crossentropy)
    if isinstance(obj, metrics_module.Metric):
        return obj
    name = metric if isinstance(metric, str) else getattr(metric, "name", None) or \
        getattr(metric, "__name__", None)
    if name is None:
        raise ValueError(f"Metric should be a callable, received: {metric}")
    return metrics_module.MeanMetricWrapper(obj, name=name)


def _match_dtype_and_rank(y_t: Any, y_p: Any, sw: Any) -> Tuple[Any, Any, Any]:
    from tf1compat.ops.array_ops import expand_dims
    from tf1compat.ops.math_ops import cast
    if y_t.shape.rank == 1 and y_p.shape.rank == 2:
        y_t = expand_dims(y_t, axis=-1)
    if sw is not None and sw.shape.rank == 1 and y_p.shape.rank == 2:
        sw = expand_dims(sw, axis=-1)
    if (y_t.dtype.is_floating and y_p.dtype.is_floating) or \
            (y_t.dtype.is_integer and y_p.dtype.is_integer):
        y_t = cast(y_t, y_p.dtype)
    if sw is not None:
        sw = cast(sw, y_p.dtype)
    return y_t, y_p, sw


def compile(model: Any, optimizer: Any = "rmsprop", loss: Any = None, metrics: Any = None,
            loss_weights: Any = None, sample_weight_mode: Any = None,
            weighted_metrics: Any = None, target_tensors: Any = None, distribute: Any = None,
            **kwargs: Any) -> None:
    from tf1compat.keras import optimizers
    if target_tensors is not None:
        raise ValueError("`target_tensors` argument is not supported when executing eagerly. "
                         f"Received: {target_tensors}")
    if distribute is not None:
        raise NotImplementedError("compile(distribute=...) is not supported by tf1compat")
    model._run_eagerly = kwargs.pop("run_eagerly", None)
    from_serialized = kwargs.pop("from_serialized", False)
    for key in ("steps_per_execution", "jit_compile", "experimental_run_tf_function",
                "pss_evaluation_shards"):
        kwargs.pop(key, None)
    if kwargs:
        raise TypeError(f"Invalid keyword argument(s) in `compile()`: {tuple(kwargs)}. Valid "
                        "keyword arguments include \"cloning\", \"experimental_run_tf_function"
                        "\", \"distribute\", \"target_tensors\", or \"sample_weight_mode\".")
    model.optimizer = optimizers.get(optimizer)
    model.loss = loss or {}
    model.loss_weights = loss_weights
    model.sample_weight_mode = sample_weight_mode
    model._compile_metrics = metrics or []
    model._compile_weighted_metrics = weighted_metrics
    model._is_compiled = True
    model._eager = CompiledState(model, loss, metrics, loss_weights, weighted_metrics,
                                 from_serialized=from_serialized)
    model.train_function = model.test_function = model.predict_function = None


# -- data -----------------------------------------------------------------------------------

def _floatx_tensor(value: Any) -> Any:
    from tf1compat.framework.tensor import Tensor
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    if value is None or isinstance(value, Tensor):
        return value
    array = np.asarray(value)
    if array.dtype.kind == "f":
        array = array.astype(backend.floatx())
    return convert_to_tensor(array)


def _to_tensors(structure: Any) -> Any:
    return nest.map_structure(_floatx_tensor, structure)


class DataHandler:
    """Batches per epoch for arrays, datasets, generators and Sequences."""

    def __init__(self, x: Any, y: Any = None, sample_weight: Any = None,
                 batch_size: Optional[int] = None, steps: Optional[int] = None,
                 epochs: int = 1, shuffle: Any = False, class_weight: Any = None):
        self.x, self.y, self.sample_weight = x, y, sample_weight
        self.epochs = epochs                 # the epochs still to run (for the warning)
        self.class_weight = class_weight
        self.shuffle = shuffle
        self.kind = ("dataset" if training_utils.is_dataset(x) else
                     "sequence" if isinstance(x, data_utils.Sequence) else
                     "generator" if data_utils.is_generator_or_sequence(x) else "arrays")
        self.steps_per_epoch = steps
        if self.kind == "arrays":
            self.num_samples = int(nest.flatten(x)[0].shape[0])
            self.batch_size = batch_size or 32
            self.inferred_steps = steps or int(math.ceil(self.num_samples / self.batch_size))
        elif self.kind == "sequence":
            self.inferred_steps = steps or len(x)
            # TF's Sequence adapter reads the first batch once to learn the element
            # structure; a seeded image iterator's random draws depend on that read.
            x[0]
        elif self.kind == "dataset":
            size = _dataset_size(x)
            self.inferred_steps = steps or (size if size >= 0 else None)
            if size == -1 and steps is None:
                raise ValueError("When passing an infinitely repeating dataset, please "
                                 "specify a `steps_per_epoch` value so that epoch level "
                                 "callbacks continue to work. The value can be arbitrary, or "
                                 "a number that you think correctly defines the size of an "
                                 "epoch. Epoch-level callbacks will then be called at this "
                                 "interval.")
        else:
            self.inferred_steps = steps
        self._generator: Any = iter(x) if self.kind == "generator" else None
        self._dataset_iterator: Any = None
        # Set when data ran out before the steps asked for: fit stops after that epoch.
        self.insufficient_data = False

    def epoch_batches(self) -> Iterator[Tuple[Any, Any, Any]]:
        """(x, y, sample_weight) tensors of each step of one epoch."""
        if self.kind == "arrays":
            yield from self._array_batches()
            return
        source: Any
        if self.kind == "sequence":
            order = list(range(len(self.x)))
            if self.shuffle:
                # As TF's adapter: batch order from Python's random module.
                random.shuffle(order)
            source = (self.x[i] for i in order)
        elif self.kind == "dataset":
            # As TF's DataHandler: an iterator made before the first epoch, and a fresh one
            # each epoch unless `steps_per_epoch` reads part of the dataset. The unread
            # first one still draws from a reshuffling dataset's seed generator, so the
            # first epoch sees the dataset's second order.
            if self._dataset_iterator is None:
                self._dataset_iterator = iter(self.x)
            if self.steps_per_epoch is None or \
                    _dataset_size(self.x) == self.steps_per_epoch:
                self._dataset_iterator = iter(self.x)
            source = self._dataset_iterator
        else:
            source = self._generator
        count = 0
        while self.inferred_steps is None or count < self.inferred_steps:
            try:
                element = next(source)
            except StopIteration:
                if self.kind == "dataset" and self.steps_per_epoch is None and count:
                    self.inferred_steps = count
                elif self.inferred_steps is not None:
                    self.insufficient_data = True
                    tf_logging.warning(
                        "Your input ran out of data; interrupting training. Make sure that "
                        "your dataset or generator can generate at least `steps_per_epoch "
                        "* epochs` batches (in this case, "
                        f"{self.epochs * self.inferred_steps} batches). You may need to "
                        "use the repeat() function when building your dataset.")
                break
            x, y, w = training_utils.unpack_iterator_input(element) \
                if isinstance(element, (tuple, list)) else (element, None, None)
            yield _to_tensors(x), _to_tensors(y), _to_tensors(self._weights(y, w))
            count += 1
        if self.kind == "sequence":
            self.x.on_epoch_end()

    def _array_batches(self) -> Iterator[Tuple[Any, Any, Any]]:
        index = np.arange(self.num_samples)
        if self.shuffle == "batch":
            index = training_utils.batch_shuffle(index, self.batch_size)
        elif self.shuffle:
            index = _shuffled(index)
        for start in range(0, self.num_samples, self.batch_size)[:self.inferred_steps]:
            ids = index[start:start + self.batch_size]

            def take(a: Any) -> Any:
                return None if a is None else np.asarray(a)[ids]
            x = nest.map_structure(take, self.x)
            y = nest.map_structure(take, self.y) if self.y is not None else None
            w = nest.map_structure(take, self.sample_weight) \
                if self.sample_weight is not None else None
            yield _to_tensors(x), _to_tensors(y), _to_tensors(self._weights(y, w))

    def _weights(self, y: Any, sample_weight: Any) -> Any:
        if self.class_weight is None or y is None:
            return sample_weight
        if isinstance(self.class_weight, dict) and nest.is_nested(y) and not \
                isinstance(y, np.ndarray):
            raise ValueError("`class_weight` is only supported for Models with a single "
                             "output.")
        labels = y.numpy() if hasattr(y, "numpy") else np.asarray(y)
        if labels.ndim == 2 and labels.shape[1] > 1:
            labels = np.argmax(labels, axis=1)
        elif labels.ndim == 2 and labels.shape[1] == 1:
            labels = labels.reshape(-1)
        weights = np.asarray([self.class_weight[int(c)] for c in labels], dtype=np.float64)
        if sample_weight is not None:
            weights = weights * np.asarray(sample_weight)
        return weights


def _dataset_size(dataset: Any) -> int:
    from tf1compat.keras.engine.dataset_steps import cardinality
    try:
        return cardinality(dataset)
    except AttributeError:
        return -2


def _shuffled(index: np.ndarray) -> np.ndarray:
    """A per-epoch permutation from TF's random_shuffle op (seeded by the global seed)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.ops.random_ops import random_shuffle
    return np.asarray(random_shuffle(convert_to_tensor(index)).numpy())


def _flat_targets(model: Any, y: Any, n_outputs: int) -> List[Any]:
    if y is None:
        return [None] * n_outputs
    if isinstance(y, dict):
        names = model._eager.output_names(n_outputs)
        return [y.get(name) for name in names]
    flat = nest.flatten(y)
    return flat if len(flat) == n_outputs else [y] * n_outputs


# -- steps -----------------------------------------------------------------------------------

def _call(model: Any, x: Any, training: bool) -> Any:
    if isinstance(x, (list, tuple)) and len(x) == 1:
        x = x[0]
    if model._expects_training_arg:
        return model(x, training=training)
    return model(x)


def _logs(model: Any) -> Dict[str, Any]:
    return {m.name: m.result() for m in model.metrics}


def _forward_and_loss(model: Any, x: Any, y: Any, sample_weight: Any, training: bool
                      ) -> Tuple[Any, List[Any], List[Any], List[Any]]:
    """The model's flat outputs on `x`, its flat targets and weights, and the loss (the
    compiled losses are made from the first batch)."""
    state = model._eager
    y_pred = nest.flatten(_call(model, x, training=training))
    targets = _flat_targets(model, y, len(y_pred))
    weights = _flat_targets(model, sample_weight, len(y_pred)) \
        if sample_weight is not None else [None] * len(y_pred)
    if not state.built:
        state.build(targets, y_pred)
    loss = state.compute_loss(targets, y_pred, weights, model.losses)
    return loss, y_pred, targets, weights


def _train_step(model: Any, x: Any, y: Any, sample_weight: Any) -> Dict[str, Any]:
    from tf1compat.autodiff.tape import GradientTape
    with GradientTape() as tape:
        loss, y_pred, targets, weights = _forward_and_loss(model, x, y, sample_weight, True)
    if loss is None:
        raise ValueError("No loss found. You may have forgotten to provide a `loss` argument "
                         "in the `compile()` method.")
    variables = model.trainable_variables
    grads = tape.gradient(loss, variables)
    model.optimizer.apply_gradients(list(zip(grads, variables)))
    model._eager.update_metrics(targets, y_pred, weights)
    return _logs(model)


def _test_step(model: Any, x: Any, y: Any, sample_weight: Any) -> Dict[str, Any]:
    _, y_pred, targets, weights = _forward_and_loss(model, x, y, sample_weight, False)
    model._eager.update_metrics(targets, y_pred, weights)
    return _logs(model)


def _numpy_logs(logs: Dict[str, Any]) -> Dict[str, Any]:
    return {k: cbks.sync_to_python(v) for k, v in logs.items()}


def _verbosity(verbose: Any) -> int:
    from tf1compat.keras.utils.io_utils import is_interactive_logging_enabled
    if verbose == "auto":
        return 1 if is_interactive_logging_enabled() else 2
    return verbose


def _assert_compiled(model: Any) -> None:
    if getattr(model, "_eager", None) is None:
        raise RuntimeError("You must compile your model before training/testing. Use "
                           "`model.compile(optimizer, loss)`.")


def _split(x: Any, y: Any, sample_weight: Any, validation_split: float) -> tuple:
    if not all(isinstance(a, np.ndarray) or hasattr(a, "numpy") for a in
               nest.flatten((x, y, sample_weight)) if a is not None):
        raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays, "
                         f"found following types in the input: {[type(a) for a in nest.flatten((x, y))]}")
    n = int(nest.flatten(x)[0].shape[0])
    split_at = int(math.floor(n * (1.0 - validation_split)))

    def first(a: Any) -> Any:
        return None if a is None else np.asarray(a)[:split_at]

    def last(a: Any) -> Any:
        return None if a is None else np.asarray(a)[split_at:]
    train = tuple(nest.map_structure(first, s) if s is not None else None
                  for s in (x, y, sample_weight))
    val = tuple(nest.map_structure(last, s) if s is not None else None
                for s in (x, y, sample_weight))
    return train, val


def fit(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
        epochs: int = 1, verbose: Any = 1, callbacks: Any = None,
        validation_split: float = 0.0, validation_data: Any = None, shuffle: Any = True,
        class_weight: Any = None, sample_weight: Any = None, initial_epoch: int = 0,
        steps_per_epoch: Optional[int] = None, validation_steps: Optional[int] = None,
        validation_freq: Any = 1, **unused: Any) -> Any:
    _assert_compiled(model)
    verbose = _verbosity(verbose)
    if validation_split and validation_data is None:
        (x, y, sample_weight), validation_data = _split(x, y, sample_weight, validation_split)
    val = training_utils.unpack_validation_data(validation_data) \
        if validation_data is not None else None
    handler = DataHandler(x, y, sample_weight, batch_size, steps_per_epoch,
                          epochs - initial_epoch, shuffle, class_weight)
    callback_list = cbks.CallbackList(callbacks, add_history=True, add_progbar=verbose != 0,
                                      model=model, verbose=verbose, epochs=epochs,
                                      steps=handler.inferred_steps)
    model.stop_training = False
    callback_list.on_train_begin()
    training_logs: Any = None
    logs: Any = None
    for epoch in range(initial_epoch, epochs):
        if handler.insufficient_data:
            break
        model.reset_metrics()
        callback_list.on_epoch_begin(epoch)
        for step, (bx, by, bw) in enumerate(handler.epoch_batches()):
            callback_list.on_train_batch_begin(step)
            logs = _train_step(model, bx, by, bw)
            callback_list.on_train_batch_end(step, logs)
            if model.stop_training:
                break
        if logs is None:
            raise ValueError("Unexpected result of `train_function` (Empty logs). Please use "
                             "`Model.compile(..., run_eagerly=True)`, or "
                             "`tf.config.run_functions_eagerly(True)` for more information of "
                             "where went wrong, or file a issue/bug to `tf.keras`.")
        epoch_logs = dict(_numpy_logs(logs))
        if val is not None and training_utils.should_run_validation(validation_freq, epoch):
            val_logs = evaluate(model, x=val[0], y=val[1], sample_weight=val[2],
                                batch_size=batch_size, steps=validation_steps,
                                callbacks=callback_list, verbose=0, return_dict=True)
            epoch_logs.update({"val_" + k: v for k, v in val_logs.items()})
        callback_list.on_epoch_end(epoch, epoch_logs)
        training_logs = epoch_logs
        if model.stop_training:
            break
    callback_list.on_train_end(logs=training_logs)
    return model.history


def evaluate(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
             verbose: Any = 1, sample_weight: Any = None, steps: Optional[int] = None,
             callbacks: Any = None, return_dict: bool = False, **unused: Any) -> Any:
    _assert_compiled(model)
    verbose = _verbosity(verbose)
    handler = DataHandler(x, y, sample_weight, batch_size, steps)
    callback_list = callbacks if isinstance(callbacks, cbks.CallbackList) else \
        cbks.CallbackList(callbacks, add_progbar=verbose != 0, model=model, verbose=verbose,
                          epochs=1, steps=handler.inferred_steps)
    model.reset_metrics()
    callback_list.on_test_begin()
    logs: Any = {}
    for step, (bx, by, bw) in enumerate(handler.epoch_batches()):
        callback_list.on_test_batch_begin(step)
        logs = _test_step(model, bx, by, bw)
        callback_list.on_test_batch_end(step, logs)
    logs = _numpy_logs(logs)
    callback_list.on_test_end(logs=logs)
    if return_dict:
        return logs
    results = [logs[name] for name in model.metrics_names if name in logs]
    return results[0] if len(results) == 1 else results


def predict(model: Any, x: Any, batch_size: Optional[int] = None, verbose: Any = "auto",
            steps: Optional[int] = None, callbacks: Any = None, **unused: Any) -> Any:
    verbose = _verbosity(verbose)
    handler = DataHandler(x, None, None, batch_size, steps)
    callback_list = callbacks if isinstance(callbacks, cbks.CallbackList) else \
        cbks.CallbackList(callbacks, add_progbar=verbose != 0, model=model, verbose=verbose,
                          epochs=1, steps=handler.inferred_steps)
    callback_list.on_predict_begin()
    chunks: Optional[List[List[np.ndarray]]] = None
    for step, (bx, _, _) in enumerate(handler.epoch_batches()):
        callback_list.on_predict_batch_begin(step)
        outputs = [o.numpy() for o in nest.flatten(_call(model, bx, training=False))]
        if chunks is None:
            chunks = [[] for _ in outputs]
        for chunk, out in zip(chunks, outputs):
            chunk.append(out)
        callback_list.on_predict_batch_end(step, {"outputs": outputs})
    if chunks is None:
        raise ValueError("Unexpected result of `predict_function` (Empty batch_outputs). "
                         "Please use `Model.compile(..., run_eagerly=True)`, or "
                         "`tf.config.run_functions_eagerly(True)` for more information of "
                         "where went wrong, or file a issue/bug to `tf.keras`.")
    callback_list.on_predict_end()
    results = [np.concatenate(c, axis=0) for c in chunks]
    return results[0] if len(results) == 1 else results


def _one_batch(x: Any, y: Any, sample_weight: Any, class_weight: Any = None) -> tuple:
    handler = DataHandler(x, y, sample_weight, batch_size=None, class_weight=class_weight)
    if handler.kind == "arrays":
        handler.batch_size = handler.num_samples
        handler.inferred_steps = 1
    return next(iter(handler.epoch_batches()))


def train_on_batch(model: Any, x: Any, y: Any = None, sample_weight: Any = None,
                   class_weight: Any = None, reset_metrics: bool = True,
                   return_dict: bool = False) -> Any:
    _assert_compiled(model)
    # (tf-keras's v2 loop resets the metrics before the step, not after)
    if reset_metrics:
        model.reset_metrics()
    bx, by, bw = _one_batch(x, y, sample_weight, class_weight)
    logs = _numpy_logs(_train_step(model, bx, by, bw))
    return _result(model, logs, return_dict)


def test_on_batch(model: Any, x: Any, y: Any = None, sample_weight: Any = None,
                  reset_metrics: bool = True, return_dict: bool = False) -> Any:
    _assert_compiled(model)
    if reset_metrics:
        model.reset_metrics()
    bx, by, bw = _one_batch(x, y, sample_weight)
    logs = _numpy_logs(_test_step(model, bx, by, bw))
    return _result(model, logs, return_dict)


def _result(model: Any, logs: Dict[str, Any], return_dict: bool) -> Any:
    if return_dict:
        return logs
    values = [logs[name] for name in logs]
    return values[0] if len(values) == 1 else values


def predict_on_batch(model: Any, x: Any) -> Any:
    bx, _, _ = _one_batch(x, None, None)
    outputs = [o.numpy() for o in nest.flatten(_call(model, bx, training=False))]
    return outputs[0] if len(outputs) == 1 else outputs
