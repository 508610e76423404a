"""Keras `fit` / `evaluate` / `predict` (graph mode) of a model compiled in a
`tf.distribute` strategy's scope (tf-keras' training_distributed_v1
DistributionSingleWorkerTrainingLoop and its distributed_training_utils_v1 checks).

Numpy inputs become a dataset, as TF makes them: sliced, shuffled with a buffer of
max(1024, 8 x batch) when `shuffle`, repeated `epochs` times, batched by the global batch
size; the loop then counts steps ("Train on 5 steps"), and TF's ValueErrors come first:
`evaluate`/`predict` sizes that the batch size or the steps do not divide, too few samples
for `batch_size` x `steps`, `validation_split`. `fit` accepts a last partial batch.

The model trains on the global batch in one replica (docs/distributed.md); TF's replicas
each take a mean loss over their part and the parts' gradients are summed and divided by
the number of replicas. Where a batch does not split evenly over the replicas those means
weigh samples unequally, so each sample gets the weight rows / (replicas x its part's
rows), which makes the global mean loss TF's mean of the replicas' means. Under a
multi-worker strategy each worker keeps its replicas' parts of every global batch (TF's
rebatching and DATA sharding) and the optimizer averages the workers' gradients.
Datasets and other inputs go to the arrays loop unchanged.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.keras import callbacks as cbks
from tf1compat.keras.engine import training_arrays, training_utils

__all__ = ["fit", "evaluate", "predict", "strategy_at_compile", "refuse_compile_args",
           "refuse_on_batch"]

TRAIN, TEST, PREDICT = cbks.TRAIN, cbks.TEST, cbks.PREDICT


def strategy_at_compile() -> Any:
    """The strategy a model compiled now records: the current one inside a strategy's
    scope (its cross-replica context), else None (TF's compile)."""
    from tf1compat.training.strategies.distribute_lib import (get_strategy, has_strategy,
                                                              in_cross_replica_context)
    if has_strategy() and in_cross_replica_context():
        return get_strategy()
    return None


def refuse_compile_args(strategy: Any, sample_weight_mode: Any, weighted_metrics: Any,
                        target_tensors: Any) -> None:
    """Raises what tf-keras's v1 compile raises for arguments a strategy does not take."""
    if strategy is None:
        return
    if sample_weight_mode:
        raise NotImplementedError("sample_weight_mode is not supported with "
                                  "tf.distribute.Strategy.")
    if weighted_metrics:
        raise NotImplementedError("weighted_metrics is not supported with "
                                  "tf.distribute.Strategy.")
    if target_tensors:
        raise ValueError("target_tensors is not supported with tf.distribute.Strategy.")


def refuse_on_batch(model: Any, method: str) -> None:
    """`train_on_batch`/`test_on_batch`/`predict_on_batch` of a model compiled under a
    strategy, called in the cross-replica context: tf-keras's NotImplementedError."""
    from tf1compat.training.strategies.distribute_lib import in_cross_replica_context
    if getattr(model, "_distribution_strategy", None) is not None and \
            in_cross_replica_context():
        raise NotImplementedError(f"`{method}` is not supported for models distributed "
                                  "with tf.distribute.Strategy.")


def fit(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
        epochs: int = 1, verbose: int = 1, callbacks: Any = None,
        validation_split: float = 0.0, validation_data: Any = None, shuffle: Any = True,
        class_weight: Any = None, sample_weight: Any = None, initial_epoch: int = 0,
        steps_per_epoch: Optional[int] = None, validation_steps: Optional[int] = None,
        validation_freq: Any = 1, **unused: Any) -> Any:
    strategy = model._distribution_strategy
    _validate_callbacks(callbacks, model.optimizer)
    _validate_inputs(x, y)
    if not _is_numpy(x):
        return training_arrays.fit(model, **_arrays_args(locals()))
    batch_size, steps_per_epoch = _batch_and_steps(strategy, x, batch_size, steps_per_epoch,
                                                   TRAIN, validation_split)
    dataset = _numpy_dataset(model, x, y, sample_weight, class_weight, batch_size,
                             shuffle, epochs)
    val_dataset = None
    if validation_data:
        val_x, val_y, val_weights = training_utils.unpack_validation_data(validation_data)
        _validate_inputs(val_x, val_y)
        _, validation_steps = _batch_and_steps(strategy, val_x, batch_size, validation_steps,
                                               TEST)
        val_dataset = _numpy_dataset(model, val_x, val_y, val_weights, None, batch_size,
                                     shuffle, 1) if _is_numpy(val_x) else val_x
    elif validation_split:
        raise ValueError("validation_split argument is not supported with distribution "
                         "strategies.")
    # (the loop itself, not training_arrays.fit: TF's params keep the batch size)
    dataset, _, _ = training_arrays._standardize(model, dataset, None, check_steps=True,
                                                 steps_name="steps_per_epoch",
                                                 steps=steps_per_epoch)
    return training_arrays.model_iteration(
        model, dataset, batch_size=batch_size, epochs=epochs, verbose=verbose,
        callbacks=callbacks, val_inputs=val_dataset, shuffle=shuffle,
        initial_epoch=initial_epoch, steps_per_epoch=steps_per_epoch,
        validation_steps=validation_steps, validation_freq=validation_freq, mode=TRAIN,
        steps_name="steps_per_epoch")


def evaluate(model: Any, x: Any = None, y: Any = None, batch_size: Optional[int] = None,
             verbose: int = 1, sample_weight: Any = None, steps: Optional[int] = None,
             callbacks: Any = None, **unused: Any) -> Any:
    _validate_inputs(x, y)
    if not _is_numpy(x):
        return training_arrays.evaluate(model, x, y, batch_size=batch_size, verbose=verbose,
                                        sample_weight=sample_weight, steps=steps,
                                        callbacks=callbacks)
    batch_size, steps = _batch_and_steps(model._distribution_strategy, x, batch_size, steps,
                                         TEST)
    dataset = _numpy_dataset(model, x, y, sample_weight, None, batch_size, False, 1)
    return training_arrays.evaluate(model, dataset, verbose=verbose, steps=steps,
                                    callbacks=callbacks)


def predict(model: Any, x: Any, batch_size: Optional[int] = None, verbose: int = 0,
            steps: Optional[int] = None, callbacks: Any = None, **unused: Any) -> Any:
    _validate_inputs(x, None)
    if not _is_numpy(x):
        return training_arrays.predict(model, x, batch_size=batch_size, verbose=verbose,
                                       steps=steps, callbacks=callbacks)
    batch_size, steps = _batch_and_steps(model._distribution_strategy, x, batch_size, steps,
                                         PREDICT)
    dataset = _numpy_dataset(model, x, None, None, None, batch_size, False, 1,
                             weigh=False)
    return training_arrays.predict(model, dataset, verbose=verbose, steps=steps,
                                   callbacks=callbacks)


# -- TF's checks ---------------------------------------------------------------------------

def _validate_callbacks(callbacks: Any, optimizer: Any) -> None:
    """LearningRateScheduler / ReduceLROnPlateau need a Keras optimizer (TF's message)."""
    from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2
    for callback in callbacks or []:
        if isinstance(callback, (cbks.LearningRateScheduler, cbks.ReduceLROnPlateau)) and \
                not isinstance(optimizer, OptimizerV2):
            raise ValueError("You must specify a TF-Keras Optimizer V2 when using "
                             f"{callback} callback with DistributionStrategy.")


def _validate_inputs(x: Any, y: Any) -> None:
    from tf1compat.data.iterator_ops import Iterator
    if isinstance(x, Iterator) or isinstance(y, Iterator):
        raise ValueError("`DistributionStrategy` does not support inputs of type Iterator. "
                         "You must pass a `tf.data.Dataset` object or a numpy array as "
                         "input.")


def _is_numpy(x: Any) -> bool:
    from tf1compat.util import nest
    flat = nest.flatten(x)
    return bool(flat) and isinstance(flat[0], np.ndarray)


def _batch_and_steps(strategy: Any, x: Any, batch_size: Optional[int],
                     steps: Optional[int], mode: str, validation_split: float = 0.0
                     ) -> Tuple[Optional[int], Optional[int]]:
    """TF's global batch size and step count for numpy inputs (process_batch_and_step_size
    / get_input_params): graph-mode `fit` may end on a partial batch, `evaluate` and
    `predict` may not. Mirrored strategies take `batch_size` as the global batch."""
    if not _is_numpy(x):
        return batch_size, steps
    from tf1compat.util import nest
    num_samples = nest.flatten(x)[0].shape[0]
    if validation_split and 0.0 < validation_split < 1.0:
        num_samples = int(num_samples * (1 - validation_split))
    partial = mode == TRAIN
    if steps is None:
        batch = min(num_samples, 32) if batch_size is None else batch_size
        if partial:
            steps = int(np.ceil(num_samples / batch))
        else:
            if num_samples % batch:
                raise ValueError(f"The number of samples {num_samples} is not divisible by "
                                 f"batch size {batch}.")
            steps = num_samples // batch
    elif batch_size is None:
        if num_samples % steps:
            raise ValueError(f"The number of samples {num_samples} is not divisible by steps "
                             f"{steps}. Please change the number of steps to a value that "
                             "can consume all the samples")
        batch = num_samples // steps
    else:
        batch = batch_size
        needed = batch * steps
        if partial:
            needed = batch * (steps - 1) + 1 if steps > 1 else 0
        if num_samples < needed:
            raise ValueError(f"Number of samples {num_samples} is less than samples required "
                             f"for specified batch_size {batch} and steps {steps}")
    return batch, steps


# -- the dataset ---------------------------------------------------------------------------

def _as_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _numpy_dataset(model: Any, x: Any, y: Any, sample_weight: Any, class_weight: Any,
                   batch_size: int, shuffle: Any, epochs: int, weigh: bool = True) -> Any:
    """TF's `_distribution_standardize_user_data` for numpy inputs."""
    if class_weight:
        raise NotImplementedError("`class_weight` is currently not supported when using "
                                  "tf.distribute.Strategy.")
    strategy = model._distribution_strategy
    with strategy.scope():
        x = _as_tuple(x)
        if y is None:
            elements: Any = x
        else:
            elements = (x, _as_tuple(y)) if sample_weight is None else \
                (x, _as_tuple(y), _as_tuple(sample_weight))
        dataset = strategy.extended.experimental_make_numpy_dataset(elements)
        if shuffle:
            dataset = dataset.shuffle(max(1024, batch_size * 8))
        if epochs > 1:
            dataset = dataset.repeat(epochs)
        dataset = dataset.batch(batch_size)
        if strategy.num_replicas_in_sync > 1:
            dataset = dataset.map(_ReplicaParts(strategy, weigh and y is not None))
    return dataset


class _ReplicaParts:
    """Dataset map function: this worker's replicas' rows of a global batch and, for
    training and evaluation, the weights that make one mean loss over them TF's mean of
    the per-replica mean losses."""

    def __init__(self, strategy: Any, weigh: bool):
        self._replicas = strategy.num_replicas_in_sync
        self._first = getattr(strategy.extended, "_replica_id_offset", 0)
        self._local = len(strategy.extended.worker_devices)
        self._weigh = weigh

    def __call__(self, *element: Any) -> Any:
        from tf1compat.ops import array_ops, creation_ops, math_ops
        from tf1compat.training.strategies.input_lib import split_global_batch
        from tf1compat.util import nest
        value = element[0] if len(element) == 1 else element
        if self._local < self._replicas:
            parts = split_global_batch(value, self._replicas)[
                self._first:self._first + self._local]
            value = _concat_parts(parts)
        if not self._weigh:
            return value
        x, y = value[0], value[1]
        first_y = _first_tensor(y)
        local_rows = math_ops.cast(array_ops.shape(first_y)[0], "float32")
        pieces: List[Any] = []
        for part in split_global_batch(first_y, self._local):
            rows = array_ops.shape(part)[0]
            pieces.append(creation_ops.fill(array_ops.expand_dims(rows, 0), local_rows / (
                self._local * math_ops.cast(rows, "float32"))))
        weights = array_ops.concat(pieces, 0)
        if len(value) > 2:
            # The user's sample weights (one array, or one per output) scaled alike.
            return x, y, nest.map_structure(lambda given: given * weights, value[2])
        # A multi-output model takes one weight array per output (a list or dict as y).
        return x, y, nest.map_structure(lambda _: weights, y) if nest.is_nested(y) \
            else weights


def _first_tensor(value: Any) -> Any:
    from tf1compat.util import nest
    return nest.flatten(value)[0]


def _concat_parts(parts: List[Any]) -> Any:
    from tf1compat.ops import array_ops
    from tf1compat.util import nest
    if len(parts) == 1:
        return parts[0]
    flat = [nest.flatten(p) for p in parts]
    return nest.pack_sequence_as(parts[0], [array_ops.concat(list(ts), 0)
                                           for ts in zip(*flat)])


def _arrays_args(scope: dict) -> dict:
    return {k: v for k, v in scope.items() if k not in ("model", "strategy", "unused")}
