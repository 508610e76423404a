"""`keras.engine.training_arrays` of standalone Keras 2.2.4: `fit_loop`, `test_loop` and
`predict_loop`, the loops that scripts of that era call directly with a model's compiled
function and its flat list of inputs (`ins = x + y + sample_weights [+ [learning_phase]]`,
`f = model.train_function` after `model._make_train_function()`).

They keep Keras 2.2.4's semantics rather than tf-keras's `model_iteration`: `fit_loop`
labels batch outputs with the caller's `out_labels`, validates on the last batch of each
epoch through `test_loop`, and returns `model.history`; `test_loop` averages the
non-stateful outputs weighted by batch size (stateful metrics, every metric but the loss in
tf.keras, keep their last value); `predict_loop` fills one array per output. A trailing
Python number in `ins` is the learning phase and is fed whole to every batch.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.keras import callbacks as cbks
from tf1compat.keras.engine import training_utils
from tf1compat.keras.engine.training_arrays import epoch_batches
from tf1compat.keras.standalone_names import unpack_singleton
from tf1compat.keras.utils.generic_utils import Progbar, make_batches, slice_arrays, to_list

__all__ = ["fit_loop", "test_loop", "predict_loop"]


def _batch_of(ins: Sequence[Any], batch_ids: np.ndarray) -> List[Any]:
    """The rows `batch_ids` of every array of `ins`; a trailing learning-phase number
    (Keras 2.2.4 appends `1.` or `0.`) is passed on unsliced."""
    if ins and isinstance(ins[-1], (bool, int, float)):
        return slice_arrays(list(ins[:-1]), batch_ids) + [ins[-1]]
    try:
        return slice_arrays(list(ins), batch_ids)
    except TypeError as error:
        raise TypeError("TypeError while preparing batch. If using HDF5 input data, "
                        'pass shuffle="batch".') from error


def _stateful_indices(model: Any) -> List[int]:
    """Positions of the stateful metrics among the outputs (all but the loss in tf.keras,
    whose metrics report running means)."""
    names = list(getattr(model, "metrics_names", None) or [])
    return list(range(1, len(names)))


def _reset_metrics(model: Any) -> None:
    reset = getattr(model, "reset_metrics", None)
    if reset is not None:
        reset()


def fit_loop(model: Any, f: Any, ins: Sequence[Any], out_labels: Optional[List[str]] = None,
             batch_size: Optional[int] = None, epochs: int = 100, verbose: int = 1,
             callbacks: Optional[List[Any]] = None, val_f: Any = None,
             val_ins: Optional[Sequence[Any]] = None, shuffle: Any = True,
             callback_metrics: Optional[List[str]] = None, initial_epoch: int = 0,
             steps_per_epoch: Optional[int] = None,
             validation_steps: Optional[int] = None) -> Any:
    """Trains `model` by calling `f` on batches of `ins` for `epochs` epochs (Keras 2.2.4's
    `fit_loop`); returns `model.history`."""
    do_validation = bool(val_f and val_ins)
    if do_validation and verbose and ins and hasattr(ins[0], "shape") \
            and hasattr(val_ins[0], "shape"):
        print(f"Train on {ins[0].shape[0]} samples, validate on {val_ins[0].shape[0]} samples")
    if validation_steps:
        do_validation = True
        if steps_per_epoch is None:
            raise ValueError("Can only use `validation_steps` when doing step-wise training, "
                             "i.e. `steps_per_epoch` must be set.")
    elif do_validation and steps_per_epoch:
        raise ValueError("Must specify `validation_steps` to perform validation when doing "
                         "step-wise training.")
    num_samples = training_utils.check_num_samples(list(ins), batch_size, steps_per_epoch,
                                                   "steps_per_epoch")
    model.history = cbks.History()
    stateful = list(getattr(model, "metrics_names", None) or [])[1:]
    callback_objects: List[Any] = [cbks.BaseLogger(stateful_metrics=stateful)]
    if verbose:
        count_mode = "steps" if steps_per_epoch is not None else "samples"
        callback_objects.append(cbks.ProgbarLogger(count_mode, stateful_metrics=stateful))
    callback_objects += list(callbacks or []) + [model.history]
    callback_list = cbks.CallbackList(callback_objects)
    callback_list.set_model(model)
    callback_list.set_params({"batch_size": batch_size, "epochs": epochs,
                              "steps": steps_per_epoch, "samples": num_samples,
                              "verbose": verbose, "do_validation": do_validation,
                              "metrics": list(callback_metrics or [])})
    out_labels = list(out_labels or [])
    callback_list.on_train_begin()
    model.stop_training = False
    for callback in callback_list:
        callback.validation_data = val_ins
    for epoch in range(initial_epoch, epochs):
        _reset_metrics(model)
        callback_list.on_epoch_begin(epoch)
        epoch_logs: Dict[str, Any] = {}
        if steps_per_epoch is not None:
            _fit_steps(model, f, ins, out_labels, callback_list, steps_per_epoch)
            if do_validation:
                _log_validation(epoch_logs, out_labels,
                                test_loop(model, val_f, val_ins, steps=validation_steps))
        else:
            finished = _fit_batches(model, f, ins, out_labels, callback_list, num_samples,
                                    batch_size, shuffle)
            if finished and do_validation:
                _log_validation(epoch_logs, out_labels,
                                test_loop(model, val_f, val_ins, batch_size=batch_size))
        callback_list.on_epoch_end(epoch, epoch_logs)
        if model.stop_training:
            break
    callback_list.on_train_end()
    return model.history


def _log_validation(epoch_logs: Dict[str, Any], out_labels: List[str], val_outs: Any) -> None:
    for label, value in zip(out_labels, to_list(val_outs)):
        epoch_logs["val_" + label] = value


def _fit_steps(model: Any, f: Any, ins: Sequence[Any], out_labels: List[str],
               callback_list: Any, steps: int) -> None:
    for step in range(steps):
        batch_logs: Dict[str, Any] = {"batch": step, "size": 1}
        callback_list.on_batch_begin(step, batch_logs)
        for label, value in zip(out_labels, to_list(f(list(ins)))):
            batch_logs[label] = value
        callback_list.on_batch_end(step, batch_logs)
        if model.stop_training:
            break


def _fit_batches(model: Any, f: Any, ins: Sequence[Any], out_labels: List[str],
                 callback_list: Any, num_samples: int, batch_size: int,
                 shuffle: Any) -> bool:
    """One epoch over the arrays; True when it reached its last batch (Keras 2.2.4
    validates only then, so a callback stopping training mid-epoch skips validation)."""
    index_array, batches = epoch_batches(num_samples, batch_size, shuffle)
    for batch_index, (start, end) in enumerate(batches):
        batch_ids = index_array[start:end]
        ins_batch = _batch_of(ins, batch_ids)
        batch_logs: Dict[str, Any] = {"batch": batch_index, "size": len(batch_ids)}
        callback_list.on_batch_begin(batch_index, batch_logs)
        for label, value in zip(out_labels, to_list(f(ins_batch))):
            batch_logs[label] = value
        callback_list.on_batch_end(batch_index, batch_logs)
        if model.stop_training:
            return False
    return True


def test_loop(model: Any, f: Any, ins: Sequence[Any], batch_size: Optional[int] = None,
              verbose: int = 0, steps: Optional[int] = None) -> Any:
    """The model's loss and metrics over `ins` (Keras 2.2.4's `test_loop`): a scalar for a
    single output, else a list."""
    _reset_metrics(model)
    stateful = _stateful_indices(model)
    num_samples = training_utils.check_num_samples(list(ins), batch_size, steps, "steps")
    progbar = Progbar(target=steps if steps is not None else num_samples) \
        if verbose == 1 else None
    totals: List[Any] = []

    def accumulate(batch_outs: Any, weight: int) -> None:
        batch_outs = to_list(batch_outs)
        if not totals:
            totals.extend([0.0] * len(batch_outs))
        for i, value in enumerate(batch_outs):
            if i in stateful:
                totals[i] = float(value)
            else:
                totals[i] += value * weight

    if steps is not None:
        for step in range(steps):
            accumulate(f(list(ins)), 1)
            if progbar is not None:
                progbar.update(step + 1)
        count = steps
    else:
        index_array = np.arange(num_samples)
        for start, end in make_batches(num_samples, batch_size):
            accumulate(f(_batch_of(ins, index_array[start:end])), end - start)
            if progbar is not None:
                progbar.update(end)
        count = num_samples
    for i in range(len(totals)):
        if i not in stateful:
            totals[i] /= count
    return unpack_singleton(totals)


def predict_loop(model: Any, f: Any, ins: Sequence[Any], batch_size: int = 32,
                 verbose: int = 0, steps: Optional[int] = None) -> Any:
    """The model's outputs over `ins` in batches (Keras 2.2.4's `predict_loop`): one array
    for a single output, else a list of arrays."""
    num_samples = training_utils.check_num_samples(list(ins), batch_size, steps, "steps")
    progbar = Progbar(target=steps if steps is not None else num_samples) \
        if verbose == 1 else None
    if steps is not None:
        pieces: List[List[Any]] = []
        for step in range(steps):
            batch_outs = to_list(f(list(ins)))
            if not pieces:
                pieces = [[] for _ in batch_outs]
            for i, value in enumerate(batch_outs):
                pieces[i].append(value)
            if progbar is not None:
                progbar.update(step + 1)
        outs = [np.concatenate(piece, axis=0) for piece in pieces]
        return outs[0] if len(outs) == 1 else outs
    filled: List[np.ndarray] = []
    index_array = np.arange(num_samples)
    for start, end in make_batches(num_samples, batch_size):
        batch_outs = to_list(f(_batch_of(ins, index_array[start:end])))
        if not filled:
            filled = [np.zeros((num_samples,) + value.shape[1:], dtype=value.dtype)
                      for value in batch_outs]
        for i, value in enumerate(batch_outs):
            filled[i][start:end] = value
        if progbar is not None:
            progbar.update(end)
    return unpack_singleton(filled)
