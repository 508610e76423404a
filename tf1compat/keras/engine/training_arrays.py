"""The graph-mode loop over numpy arrays, datasets and iterators (tf-keras's
training_arrays_v1.model_iteration), for `fit`, `evaluate` and `predict`.

Arrays are cut into batches of `batch_size` (shuffled per epoch with
`np.random.shuffle`, or batch-wise with `shuffle="batch"`), and the progress bar counts
samples. A `tf.data.Dataset` is read through one initializable iterator (re-initialized
after each epoch when `steps_per_epoch` is not given) and the bar counts steps; an
epoch ends after `steps_per_epoch` steps or when the data runs out. Per batch the
callbacks get `batch`, `size` and the outputs by metric name; the epoch's loss is the
sample-weighted (or step) mean of the batch losses, metrics are their final values.
Validation inside `fit` runs the same loop in test mode through the same callbacks.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.util import tf_logging as logging
from tf1compat.framework import errors
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend
from tf1compat.keras import callbacks as cbks
from tf1compat.keras.engine import training_utils
from tf1compat.keras.engine.dataset_steps import INFINITE, cardinality
from tf1compat.keras.utils.generic_utils import make_batches, slice_arrays
from tf1compat.keras.utils.io_utils import print_msg

__all__ = ["model_iteration", "fit", "evaluate", "predict"]

TRAIN, TEST, PREDICT = cbks.TRAIN, cbks.TEST, cbks.PREDICT


def _infer_steps(dataset: Any, steps: Optional[int], epochs: int, steps_name: str
                 ) -> Optional[int]:
    size = cardinality(dataset)
    if size == INFINITE and steps is None:
        raise ValueError("When passing an infinitely repeating dataset, you must specify the "
                         f"`{steps_name}` argument.")
    if size >= 0 and steps is not None and steps * epochs > size:
        if epochs > 1:
            raise ValueError(f"The dataset you passed contains {size} batches, but you passed "
                             f"`epochs={epochs}` and `{steps_name}={steps}`, which is a total "
                             f"of {steps * epochs} steps. We cannot draw that many steps from "
                             f"this dataset. We suggest to set `{steps_name}="
                             f"{size // epochs}`.")
        raise ValueError(f"The dataset you passed contains {size} batches, but you passed "
                         f"`{steps_name}={steps}`. We cannot draw that many steps from this "
                         f"dataset. We suggest to set `{steps_name}={size}`.")
    if steps is None:
        # (TF reads the cardinality back as a numpy int64; the epoch's mean loss then
        # divides by it in float64, as in TF)
        return np.int64(size) if size >= 0 else None
    return steps


def _get_iterator(dataset: Any) -> Any:
    iterator = dataset.make_initializable_iterator() if hasattr(
        dataset, "make_initializable_iterator") else _v1_iterator(dataset)
    _initialize(iterator)
    return iterator


def _v1_iterator(dataset: Any) -> Any:
    from tf1compat.data.iterator_ops import make_initializable_iterator
    return make_initializable_iterator(dataset)


def _initialize(iterator: Any) -> None:
    backend.get_session((iterator.initializer,)).run(iterator.initializer)


def _prepare_feed_values(model: Any, inputs: Any, targets: Any, sample_weights: Any,
                         mode: str) -> List[Any]:
    from tf1compat.data.iterator_ops import Iterator
    if isinstance(inputs, Iterator):
        x, y, w = training_utils.unpack_iterator_input(inputs.get_next())
        inputs, targets, sample_weights = model._standardize_user_data(x, y, sample_weight=w)
    if isinstance(inputs, dict):
        inputs = [inputs[name] for name in model._model_feed_names()]
    ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
    ins = ins + list(targets or []) + list(sample_weights or [])
    if mode == TRAIN and not isinstance(backend.learning_phase(), int):
        ins.append(True)
    return ins


def _update_sample_weight_mode(model: Any, mode: str, ins: List[Any]) -> None:
    if mode == PREDICT:
        return
    weights = ins[len(model._model_feed_inputs()) + len(model._feed_targets):]
    if mode == TRAIN and not isinstance(backend.learning_phase(), int):
        weights = weights[:-1]
    model._update_sample_weight_modes(sample_weights=weights)


def model_iteration(model: Any, inputs: Any, targets: Any = None, sample_weights: Any = None,
                    batch_size: Optional[int] = None, epochs: int = 1, verbose: int = 1,
                    callbacks: Any = None, val_inputs: Any = None, val_targets: Any = None,
                    val_sample_weights: Any = None, shuffle: Any = True,
                    initial_epoch: int = 0, steps_per_epoch: Optional[int] = None,
                    validation_steps: Optional[int] = None, validation_freq: Any = 1,
                    mode: str = TRAIN, validation_in_fit: bool = False,
                    prepared_feed_values_from_dataset: bool = False,
                    steps_name: str = "steps") -> Any:
    """One loop for TRAIN (returns History), TEST (returns results) and PREDICT
    (returns outputs)."""
    reset_after_epoch = False
    input_iterator = None
    is_dataset = training_utils.is_dataset(inputs)
    if is_dataset:
        if steps_per_epoch is None:
            reset_after_epoch = True
            steps_per_epoch = _infer_steps(inputs, steps_per_epoch, epochs, steps_name)
        input_iterator = _get_iterator(inputs)
    use_steps = is_dataset or steps_per_epoch is not None
    do_validation = val_inputs is not None
    inputs = input_iterator or inputs
    if validation_in_fit and prepared_feed_values_from_dataset:
        ins = inputs
    else:
        ins = _prepare_feed_values(model, inputs, targets, sample_weights, mode)
    if not is_dataset:
        num_samples_or_steps = steps_per_epoch if steps_per_epoch else \
            training_utils.check_num_samples(ins, batch_size, steps_per_epoch,
                                             "steps_per_epoch")
    else:
        num_samples_or_steps = steps_per_epoch
    _update_sample_weight_mode(model, mode, ins)
    f = model._make_execution_function(mode)
    val_iterator = None
    if training_utils.is_dataset(val_inputs):
        if validation_steps is None:
            validation_steps = _infer_steps(val_inputs, validation_steps, epochs,
                                            "validation_steps")
        val_iterator = _get_iterator(val_inputs)
        val_inputs = _prepare_feed_values(model, val_iterator, val_targets,
                                          val_sample_weights, TEST)
        val_samples_or_steps = validation_steps
    else:
        val_samples_or_steps = val_inputs and val_inputs[0].shape[0] or None
    if mode == TRAIN and verbose:
        unit = "steps" if is_dataset else "samples"
        message = f"Train on {num_samples_or_steps} {unit}"
        if val_samples_or_steps:
            message += f", validate on {val_samples_or_steps} {unit}"
        print_msg(message)
    callbacks = cbks.configure_callbacks(callbacks, model, do_validation=do_validation,
                                         batch_size=batch_size, epochs=epochs,
                                         steps_per_epoch=steps_per_epoch,
                                         samples=num_samples_or_steps,
                                         count_mode="steps" if use_steps else "samples",
                                         verbose=verbose, mode=mode)
    if mode == PREDICT:
        aggregator: Any = training_utils.OutputsAggregator(
            use_steps, num_samples=None if steps_per_epoch else num_samples_or_steps,
            steps=steps_per_epoch)
    else:
        aggregator = training_utils.MetricsAggregator(
            use_steps, num_samples=None if steps_per_epoch else num_samples_or_steps,
            steps=steps_per_epoch)
    callbacks.model.stop_training = False
    callbacks._call_begin_hook(mode)
    results: Any = None
    for epoch in range(initial_epoch, epochs):
        if callbacks.model.stop_training:
            break
        epoch_logs: dict = {}
        if mode != PREDICT:
            model.reset_metrics()
        if mode == TRAIN:
            callbacks.on_epoch_begin(epoch, epoch_logs)
        if use_steps:
            steps_per_epoch = _run_steps(model, f, ins, callbacks, aggregator, mode,
                                         steps_per_epoch, is_dataset, steps_name)
        else:
            _run_batches(f, ins, callbacks, aggregator, model, mode, num_samples_or_steps,
                         batch_size, shuffle)
        aggregator.finalize()
        results = aggregator.results
        epoch_logs = callbacks.make_logs(model, epoch_logs, results, mode)
        if len(results) == 1:
            results = results[0]
        if do_validation and training_utils.should_run_validation(validation_freq, epoch) \
                and not callbacks.model.stop_training:
            val_results = model_iteration(
                model, val_inputs, targets=val_targets, sample_weights=val_sample_weights,
                batch_size=batch_size, steps_per_epoch=validation_steps, callbacks=callbacks,
                verbose=0, mode=TEST, validation_in_fit=True,
                prepared_feed_values_from_dataset=val_iterator is not None,
                steps_name="validation_steps")
            if not isinstance(val_results, list):
                val_results = [val_results]
            epoch_logs = callbacks.make_logs(model, epoch_logs, val_results, mode,
                                             prefix="val_")
            if val_iterator is not None and epoch < epochs - 1:
                _initialize(val_iterator)
        if mode == TRAIN:
            callbacks.on_epoch_end(epoch, epoch_logs)
        if reset_after_epoch and epoch < epochs - 1:
            _initialize(input_iterator)
    model._successful_loop_finish = True
    callbacks._call_end_hook(mode)
    if mode == TRAIN:
        return model.history
    return results


def _run_steps(model: Any, f: Any, ins: List[Any], callbacks: Any, aggregator: Any,
               mode: str, steps_per_epoch: Optional[int], is_dataset: bool,
               steps_name: str) -> Optional[int]:
    """One epoch of `steps_per_epoch` steps (until the data runs out when None)."""
    target = np.inf if steps_per_epoch is None else steps_per_epoch
    step = 0
    while step < target:
        batch_logs = {"batch": step, "size": 1}
        callbacks._call_batch_hook(mode, "begin", step, batch_logs)
        try:
            batch_outs = f(ins)
        except errors.OutOfRangeError:
            if is_dataset:
                if steps_per_epoch:
                    callbacks.model.stop_training = True
                    logging.warning("Your dataset ran out of data; interrupting training. "
                                    "Make sure that your dataset can generate at least "
                                    f"`{steps_name} * epochs` batches (in this case, "
                                    f"{steps_per_epoch * (callbacks.params.get('epochs') or 1)}"
                                    " batches). You may need to use the repeat() function "
                                    "when building your dataset.")
                elif step > 0:
                    steps_per_epoch = step
                    aggregator.steps = steps_per_epoch
            else:
                callbacks.model.stop_training = True
                logging.warning("Your dataset iterator ran out of data; interrupting training. "
                                "Make sure that your iterator can generate at least "
                                f"`{steps_name} * epochs` batches (in this case, "
                                f"{steps_per_epoch * (callbacks.params.get('epochs') or 1)} "
                                "batches). You may need to use the repeat() function when "
                                "building your dataset.")
            break
        if not isinstance(batch_outs, list):
            batch_outs = [batch_outs]
        if step == 0:
            aggregator.create(batch_outs)
        aggregator.aggregate(batch_outs)
        batch_logs = callbacks.make_logs(model, batch_logs, batch_outs, mode)
        callbacks._call_batch_hook(mode, "end", step, batch_logs)
        step += 1
        if callbacks.model.stop_training:
            break
    return steps_per_epoch


def epoch_batches(num_samples: int, batch_size: int, shuffle: Any) -> Tuple[np.ndarray, list]:
    """One epoch's row order (`shuffle`: False, True, or "batch" for whole batches) and
    its (start, end) batches over that order."""
    index_array = np.arange(num_samples)
    if shuffle == "batch":
        index_array = training_utils.batch_shuffle(index_array, batch_size)
    elif shuffle:
        np.random.shuffle(index_array)
    return index_array, make_batches(num_samples, batch_size)


def _batch_slicer(ins: List[Any], shuffle: Any) -> Any:
    """`(index_array, start, end) -> the batch's feed values`. Numpy inputs are indexed
    directly: unshuffled batches are runs of rows, whose slices are views the session
    feeds without a copy; shuffled ones take the batch's rows by an index array (what
    `slice_arrays` does through a Python list of ids, with the same rows)."""
    phase = ins[-1:] if ins and isinstance(ins[-1], bool) else []
    arrays = ins[:len(ins) - len(phase)]
    if not all(isinstance(x, np.ndarray) for x in arrays):
        def generic(index_array: np.ndarray, start: int, end: int) -> List[Any]:
            rows = (index_array[start:end],) if shuffle else (start, end)
            return slice_arrays(arrays, *rows) + phase
        return generic
    if shuffle:
        return lambda index_array, start, end: [
            x[index_array[start:end]] for x in arrays] + phase
    return lambda index_array, start, end: [x[start:end] for x in arrays] + phase


def _run_batches(f: Any, ins: List[Any], callbacks: Any, aggregator: Any, model: Any,
                 mode: str, num_samples: int, batch_size: int, shuffle: Any) -> None:
    """One epoch over the arrays in batches."""
    index_array, batches = epoch_batches(num_samples, batch_size, shuffle)
    slicer = _batch_slicer(ins, shuffle)
    # The execution function's outputs are fixed for the loop, so are the names they log
    # under (tf-keras reads `model.metrics_names` again for every batch).
    names = model.metrics_names if mode != PREDICT and callbacks.callbacks else None
    for batch_index, (start, end) in enumerate(batches):
        ins_batch = ins if len(batches) == 1 else slicer(index_array, start, end)
        batch_logs = {"batch": batch_index, "size": end - start}
        callbacks._call_batch_hook(mode, "begin", batch_index, batch_logs)
        batch_outs = f(ins_batch)
        if not isinstance(batch_outs, list):
            batch_outs = [batch_outs]
        if batch_index == 0:
            aggregator.create(batch_outs)
        aggregator.aggregate(batch_outs, start, end)
        batch_logs = callbacks.make_logs(model, batch_logs, batch_outs, mode, names=names)
        callbacks._call_batch_hook(mode, "end", batch_index, batch_logs)
        if callbacks.model.stop_training:
            break


def fit(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
        epochs: int = 1, verbose: int = 1, callbacks: Any = None,
        validation_split: float = 0.0, validation_data: Any = None, shuffle: Any = True,
        class_weight: Any = None, sample_weight: Any = None, initial_epoch: int = 0,
        steps_per_epoch: Optional[int] = None, validation_steps: Optional[int] = None,
        validation_freq: Any = 1, **unused: Any) -> Any:
    batch_size = model._validate_or_infer_batch_size(batch_size, steps_per_epoch, x)
    if training_utils.is_dataset(x):
        _check_dataset_args(x, y, sample_weight, validation_split)
    x, y, sample_weights = _standardize(model, x, y, sample_weight=sample_weight,
                                        class_weight=class_weight, batch_size=batch_size,
                                        check_steps=True, steps_name="steps_per_epoch",
                                        steps=steps_per_epoch)
    if validation_data:
        val_x, val_y, val_sample_weights = training_utils.unpack_validation_data(
            validation_data)
        if not training_utils.is_dataset(val_x):
            val_x, val_y, val_sample_weights = model._standardize_user_data(
                val_x, val_y, sample_weight=val_sample_weights, batch_size=batch_size,
                steps=validation_steps, steps_name="validation_steps")
            val_x = _list(model, val_x)
    elif validation_split and 0.0 < validation_split < 1.0:
        x, y, sample_weights, val_x, val_y, val_sample_weights = \
            training_utils.split_training_and_validation_data(_list(model, x), y,
                                                              sample_weights,
                                                              validation_split)
    else:
        if validation_steps:
            raise ValueError("`validation_steps` should not be specified if "
                             "`validation_data` is None.")
        val_x = val_y = val_sample_weights = None
    return model_iteration(model, x, targets=y, sample_weights=sample_weights,
                           batch_size=batch_size, epochs=epochs, verbose=verbose,
                           callbacks=callbacks, val_inputs=val_x, val_targets=val_y,
                           val_sample_weights=val_sample_weights, shuffle=shuffle,
                           initial_epoch=initial_epoch, steps_per_epoch=steps_per_epoch,
                           validation_steps=validation_steps, validation_freq=validation_freq,
                           mode=TRAIN, steps_name="steps_per_epoch")


def evaluate(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
             verbose: int = 1, sample_weight: Any = None, steps: Optional[int] = None,
             callbacks: Any = None, **unused: Any) -> Any:
    batch_size = model._validate_or_infer_batch_size(batch_size, steps, x)
    if training_utils.is_dataset(x):
        _check_dataset_args(x, y, sample_weight, None)
    x, y, sample_weights = _standardize(model, x, y, sample_weight=sample_weight,
                                        batch_size=batch_size, check_steps=True,
                                        steps_name="steps", steps=steps)
    return model_iteration(model, x, targets=y, sample_weights=sample_weights,
                           batch_size=batch_size, verbose=verbose, steps_per_epoch=steps,
                           callbacks=callbacks, mode=TEST, shuffle=False)


def predict(model: Any, x: Any, batch_size: Optional[int] = None, verbose: int = 0,
            steps: Optional[int] = None, callbacks: Any = None, **unused: Any) -> Any:
    batch_size = model._validate_or_infer_batch_size(batch_size, steps, x)
    x, _, _ = _standardize(model, x, None, check_steps=True, steps_name="steps", steps=steps)
    return model_iteration(model, x, batch_size=batch_size, verbose=verbose,
                           steps_per_epoch=steps, callbacks=callbacks, mode=PREDICT,
                           shuffle=False)


def _check_dataset_args(x: Any, y: Any, sample_weight: Any, validation_split: Any) -> None:
    if y is not None:
        raise ValueError(f"You passed a dataset or dataset iterator ({x}) as input `x` to your "
                         "model. In that case, you should not specify a target (`y`) "
                         "argument, since the dataset or dataset iterator generates both input "
                         f"data and target data. Received: {y}")
    if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when input `x` is a "
                         "dataset or a dataset iterator. Instead, youcan provide "
                         "sample_weight as the third element  of yourdataset, i.e. (inputs, "
                         f"targets, sample_weight). Received: x={x}, "
                         f"sample_weight={sample_weight}")
    if validation_split is not None and validation_split != 0.0:
        raise ValueError("`validation_split` argument is not supported when input `x` is a "
                         f"dataset or a dataset iterator. Received: x={x}, "
                         f"validation_split={validation_split:f}")


def _standardize(model: Any, x: Any, y: Any, **kwargs: Any) -> tuple:
    """Datasets pass through (they are read by the loop); arrays and iterators are
    standardized."""
    if training_utils.is_dataset(x):
        if kwargs.get("check_steps"):
            training_utils.check_steps_argument(x, kwargs.get("steps"),
                                                kwargs.get("steps_name", "steps"))
        if not model.inputs:
            model._build_model_with_inputs_from_dataset(x)
        return x, None, None
    from tf1compat.data.iterator_ops import Iterator
    if isinstance(x, Iterator):
        if kwargs.get("check_steps"):
            training_utils.check_steps_argument(x, kwargs.get("steps"),
                                                kwargs.get("steps_name", "steps"))
        return x, None, None
    return model._standardize_user_data(x, y, **kwargs)


def _list(model: Any, x: Any) -> List[Any]:
    if isinstance(x, dict):
        return [x[name] for name in model._model_feed_names()]
    if isinstance(x, Tensor):
        return [x]
    return list(x) if isinstance(x, (list, tuple)) else [x]
