"""The loop over Python generators and `keras.utils.Sequence` (tf-keras's
training_generator_v1.model_iteration): `fit`/`evaluate`/`predict` on them and the
`*_generator` methods, in graph mode.

Each step takes the next `(x,)`, `(x, y)` or `(x, y, sample_weight)` from the data
(through an enqueuer unless `workers=0`) and runs `train_on_batch` / `test_on_batch` /
`predict_on_batch` without resetting the metrics; a Sequence gives `len(seq)` steps per
epoch by default. The epoch's loss is the mean of the batch losses over steps (then
sample-weighted by BaseLogger in fit). Validation data may be a generator, a Sequence or
arrays (batched with the last training batch's size, as tf-keras does).
"""

from __future__ import annotations

import functools
import math
from typing import Any, Optional, Tuple

import numpy as np

from tf1compat.util import nest
from tf1compat.util import tf_logging as logging
from tf1compat.keras import callbacks as cbks
from tf1compat.keras.engine import training_utils
from tf1compat.keras.utils import data_utils
from tf1compat.keras.utils.generic_utils import make_batches, slice_arrays

__all__ = ["model_iteration", "fit", "evaluate", "predict"]

TRAIN, TEST, PREDICT = cbks.TRAIN, cbks.TEST, cbks.PREDICT


def _next_batch(generator: Any) -> Optional[tuple]:
    from tf1compat.framework import errors
    try:
        output = next(generator)
    except (StopIteration, errors.OutOfRangeError):
        return None
    if not isinstance(output, tuple):
        output = (output,)
    if len(output) not in (1, 2, 3):
        raise ValueError("Output of generator should be a tuple of 1 or 2 or 3 elements: "
                         "(input,) or (input, target) or (input, target, sample_weights). "
                         f"Received {output}")
    return output


def _generator_like(data: Any, batch_size: Optional[int], steps_per_epoch: Optional[int],
                    epochs: int, shuffle: Any) -> Tuple[Any, Optional[int]]:
    """A generator (or Sequence) for the data, and the steps per epoch."""
    if isinstance(data, tuple):
        data = tuple(e for e in data if not all(x is None for x in nest.flatten(e)))
    if data_utils.is_generator_or_sequence(data):
        if isinstance(data, data_utils.Sequence) and steps_per_epoch is None:
            steps_per_epoch = len(data)
        return data, steps_per_epoch
    num_samples = int(nest.flatten(data)[0].shape[0])
    if batch_size is None:
        raise ValueError("When passing input data as arrays, do not specify "
                         "`steps_per_epoch`/`steps` argument. Please use `batch_size` "
                         "instead.")
    steps_per_epoch = int(math.ceil(num_samples / batch_size))

    def batches() -> Any:
        index_array = np.arange(num_samples)
        for _ in range(epochs):
            if shuffle:
                np.random.shuffle(index_array)
            for start, end in make_batches(num_samples, batch_size):
                ids = index_array[start:end]
                flat = nest.flatten(data)
                flat = [slice_arrays(x, ids.tolist()) for x in flat]
                yield nest.pack_sequence_as(data, flat)
    return batches(), steps_per_epoch


def _enqueued(generator: Any, workers: int, use_multiprocessing: bool, max_queue_size: int,
              shuffle: Any) -> Tuple[Any, Any]:
    if workers > 0:
        if isinstance(generator, data_utils.Sequence):
            enqueuer: Any = data_utils.OrderedEnqueuer(generator, use_multiprocessing,
                                                       shuffle=shuffle)
        else:
            enqueuer = data_utils.GeneratorEnqueuer(generator, use_multiprocessing)
        enqueuer.start(workers=workers, max_queue_size=max_queue_size)
        return enqueuer.get(), enqueuer
    if isinstance(generator, data_utils.Sequence):
        return data_utils.iter_sequence_infinite(generator), None
    return generator, None


def _batch_function(model: Any, mode: str, class_weight: Any) -> Any:
    if mode == TRAIN:
        return functools.partial(model.train_on_batch, class_weight=class_weight,
                                 reset_metrics=False)
    if mode == TEST:
        return functools.partial(model.test_on_batch, reset_metrics=False)

    def predict_on_batch(x: Any, y: Any = None, sample_weights: Any = None) -> Any:
        return model.predict_on_batch(x)
    return predict_on_batch


def _check_arguments(is_sequence: bool, use_multiprocessing: bool, workers: int,
                     steps_per_epoch: Optional[int], validation_data: Any,
                     validation_steps: Optional[int], mode: str) -> None:
    if not is_sequence and use_multiprocessing and workers > 1:
        logging.warning(UserWarning("Using a generator with `use_multiprocessing=True` and "
                                    "multiple workers may duplicate your data. Please consider "
                                    "using the `keras.utils.Sequence` class."))
    if steps_per_epoch is None:
        name = "steps_per_epoch" if mode == TRAIN else "steps"
        raise ValueError(f"Please specify the number of steps via the `{name}` argument.")
    if data_utils.is_generator_or_sequence(validation_data) and \
            not isinstance(validation_data, data_utils.Sequence) and not validation_steps:
        raise ValueError("Please specify the `validation_steps` argument.")


def model_iteration(model: Any, data: Any, steps_per_epoch: Optional[int] = None,
                    epochs: int = 1, verbose: int = 1, callbacks: Any = None,
                    validation_data: Any = None, validation_steps: Optional[int] = None,
                    validation_freq: Any = 1, class_weight: Any = None,
                    max_queue_size: int = 10, workers: int = 1,
                    use_multiprocessing: bool = False, shuffle: Any = False,
                    initial_epoch: int = 0, mode: str = TRAIN,
                    batch_size: Optional[int] = None, steps_name: str = "steps") -> Any:
    """The generator loop for TRAIN (returns History), TEST and PREDICT."""
    generator, steps_per_epoch = _generator_like(data, batch_size, steps_per_epoch,
                                                 epochs - initial_epoch, shuffle)
    do_validation = validation_data is not None
    is_sequence = isinstance(generator, data_utils.Sequence)
    _check_arguments(is_sequence, use_multiprocessing, workers, steps_per_epoch,
                     validation_data, validation_steps, mode)
    batch_function = _batch_function(model, mode, class_weight)
    generator, enqueuer = _enqueued(generator, workers, use_multiprocessing, max_queue_size,
                                    shuffle)
    flat = nest.flatten(data)
    if hasattr(flat[0], "shape"):
        num_samples_or_steps, use_steps = int(flat[0].shape[0]), False
    else:
        num_samples_or_steps, use_steps = steps_per_epoch, True
    callbacks = cbks.configure_callbacks(callbacks, model, do_validation=do_validation,
                                         epochs=epochs, steps_per_epoch=steps_per_epoch,
                                         batch_size=batch_size, samples=num_samples_or_steps,
                                         count_mode="steps" if use_steps else "samples",
                                         verbose=verbose, mode=mode)
    aggregator: Any = (training_utils.OutputsAggregator(True, steps=steps_per_epoch)
                       if mode == PREDICT else
                       training_utils.MetricsAggregator(True, steps=steps_per_epoch))
    callbacks.model.stop_training = False
    callbacks._call_begin_hook(mode)
    results: Any = None
    try:
        for epoch in range(initial_epoch, epochs):
            if callbacks.model.stop_training:
                break
            model.reset_metrics()
            epoch_logs: dict = {}
            if mode == TRAIN:
                callbacks.on_epoch_begin(epoch, epoch_logs)
            target = np.inf if steps_per_epoch is None else steps_per_epoch
            step = 0
            while step < target:
                batch_data = _next_batch(generator)
                if batch_data is None:
                    callbacks.model.stop_training = True
                    logging.warning("Your dataset iterator ran out of data; interrupting "
                                    "training. Make sure that your iterator can generate at "
                                    f"least `{steps_name} * epochs` batches (in this case, "
                                    f"{steps_per_epoch * epochs} batches). You may need "
                                    "touse the repeat() function when building your dataset.")
                    break
                batch_size = int(nest.flatten(batch_data)[0].shape[0])
                batch_logs = {"batch": step, "size": batch_size}
                callbacks._call_batch_hook(mode, "begin", step, batch_logs)
                deferred = not model._is_compiled
                batch_outs = batch_function(*batch_data)
                if not isinstance(batch_outs, list):
                    batch_outs = [batch_outs]
                if step == 0:
                    aggregator.create(batch_outs)
                    if deferred:
                        cbks.set_callback_parameters(
                            callbacks, model, do_validation=do_validation,
                            batch_size=batch_size, epochs=epochs,
                            steps_per_epoch=steps_per_epoch, samples=num_samples_or_steps,
                            verbose=verbose, mode=mode)
                aggregator.aggregate(batch_outs)
                batch_logs = callbacks.make_logs(model, batch_logs, batch_outs, mode)
                callbacks._call_batch_hook(mode, "end", step, batch_logs)
                step += 1
                if callbacks.model.stop_training:
                    break
            aggregator.finalize()
            results = aggregator.results
            epoch_logs = callbacks.make_logs(model, epoch_logs, results, mode)
            if len(results) == 1:
                results = results[0]
            if do_validation and training_utils.should_run_validation(validation_freq, epoch) \
                    and not callbacks.model.stop_training:
                val_results = model_iteration(
                    model, validation_data, steps_per_epoch=validation_steps,
                    batch_size=batch_size, class_weight=class_weight, workers=workers,
                    use_multiprocessing=use_multiprocessing, max_queue_size=max_queue_size,
                    callbacks=callbacks, verbose=verbose, mode=TEST,
                    steps_name="validation_steps")
                if not isinstance(val_results, list):
                    val_results = [val_results]
                epoch_logs = callbacks.make_logs(model, epoch_logs, val_results, mode,
                                                 prefix="val_")
            if mode == TRAIN:
                callbacks.on_epoch_end(epoch, epoch_logs)
        model._successful_loop_finish = True
        callbacks._call_end_hook(mode)
    finally:
        if enqueuer is not None:
            enqueuer.stop()
    if mode == TRAIN:
        return model.history
    return results


def _check_generator_arguments(y: Any = None, sample_weight: Any = None,
                               validation_split: Any = None) -> None:
    if y is not None:
        raise ValueError("`y` argument is not supported when data isa generator or Sequence "
                         "instance. Instead pass targets as the second element of the "
                         "generator.")
    if sample_weight is not None:
        raise ValueError("`sample_weight` argument is not supported when data isa generator "
                         "or Sequence instance. Instead pass sample weights as the third "
                         "element of the generator.")
    if validation_split:
        raise ValueError("If your data is in the form of a Python generator, you cannot use "
                         "`validation_split`.")


def fit(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
        epochs: int = 1, verbose: int = 1, callbacks: Any = None,
        validation_split: float = 0.0, validation_data: Any = None, shuffle: Any = True,
        class_weight: Any = None, sample_weight: Any = None, initial_epoch: int = 0,
        steps_per_epoch: Optional[int] = None, validation_steps: Optional[int] = None,
        validation_freq: Any = 1, max_queue_size: int = 10, workers: int = 1,
        use_multiprocessing: bool = False, **unused: Any) -> Any:
    model._validate_or_infer_batch_size(batch_size, steps_per_epoch, x)
    _check_generator_arguments(y, sample_weight, validation_split=validation_split)
    return model_iteration(model, x, steps_per_epoch=steps_per_epoch, epochs=epochs,
                           verbose=verbose, callbacks=callbacks,
                           validation_data=validation_data, validation_steps=validation_steps,
                           validation_freq=validation_freq, class_weight=class_weight,
                           max_queue_size=max_queue_size, workers=workers,
                           use_multiprocessing=use_multiprocessing, shuffle=shuffle,
                           initial_epoch=initial_epoch, mode=TRAIN,
                           steps_name="steps_per_epoch")


def evaluate(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
             verbose: int = 1, sample_weight: Any = None, steps: Optional[int] = None,
             callbacks: Any = None, max_queue_size: int = 10, workers: int = 1,
             use_multiprocessing: bool = False, **unused: Any) -> Any:
    model._validate_or_infer_batch_size(batch_size, steps, x)
    _check_generator_arguments(y, sample_weight)
    return model_iteration(model, x, steps_per_epoch=steps, verbose=verbose,
                           callbacks=callbacks, max_queue_size=max_queue_size, workers=workers,
                           use_multiprocessing=use_multiprocessing, mode=TEST)


def predict(model: Any, x: Any, batch_size: Optional[int] = None, verbose: int = 0,
            steps: Optional[int] = None, callbacks: Any = None, max_queue_size: int = 10,
            workers: int = 1, use_multiprocessing: bool = False, **unused: Any) -> Any:
    model._validate_or_infer_batch_size(batch_size, steps, x)
    return model_iteration(model, x, steps_per_epoch=steps, verbose=verbose,
                           callbacks=callbacks, max_queue_size=max_queue_size, workers=workers,
                           use_multiprocessing=use_multiprocessing, mode=PREDICT)
