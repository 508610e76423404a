"""`tf.keras.callbacks`: the hooks the training loops call, and tf-keras's callbacks.

The loops (engine/training_arrays.py, training_generator.py, training_eager.py) drive a
`CallbackList`: `on_{train,test,predict}_{begin,end}`, `on_epoch_{begin,end}` and
`on_{mode}_batch_{begin,end}`. In graph mode (tf-keras's v1 loop) `fit` wraps the user's
callbacks as `[BaseLogger] + callbacks + [History] (+ [ProgbarLogger])`; validation inside
`fit` runs through the same list in test mode. Batch logs carry `batch`, `size` and the
batch's outputs by metric name; epoch logs the epoch results (and `val_*`).

TensorBoard lives in callbacks_tensorboard.py (re-exported here).
"""

from __future__ import annotations

import collections
import copy
import csv
import os
import re
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence

import numpy as np

from tf1compat.util import tf_logging as logging
from tf1compat.keras import backend
from tf1compat.keras.utils.generic_utils import Progbar
from tf1compat.keras.utils.io_utils import path_to_string, print_msg

__all__ = ["Callback", "CallbackList", "BaseLogger", "TerminateOnNaN", "ProgbarLogger",
           "History", "ModelCheckpoint", "EarlyStopping", "RemoteMonitor",
           "LearningRateScheduler", "ReduceLROnPlateau", "CSVLogger", "LambdaCallback",
           "TensorBoard", "configure_callbacks", "set_callback_parameters", "make_logs"]

TRAIN, TEST, PREDICT = "train", "test", "predict"


def _default(method: Callable) -> Callable:
    method._is_default = True
    return method


def _is_default(method: Callable) -> bool:
    return getattr(method, "_is_default", False)


def sync_to_python(value: Any) -> Any:
    """A tensor's value as numpy, and 0-d numpy values as Python numbers."""
    from tf1compat.framework.tensor import Tensor
    if isinstance(value, Tensor) and hasattr(value, "numpy"):
        value = value.numpy()
    if isinstance(value, (np.ndarray, np.generic)) and np.ndim(value) == 0:
        return value.item()
    return value


def make_logs(model: Any, logs: Dict[str, Any], outputs: Sequence[Any], mode: str,
              prefix: str = "") -> Dict[str, Any]:
    """Adds a batch's or epoch's outputs to `logs` under the model's metric names
    (`outputs` in predict mode)."""
    names = model.metrics_names
    if mode in (TRAIN, TEST) and names:
        for label, output in zip(names, outputs):
            logs[prefix + label] = output
    else:
        logs["outputs"] = outputs
    return logs


class CallbackList:
    """Calls each hook on every callback, in order."""

    def __init__(self, callbacks: Optional[Sequence["Callback"]] = None,
                 add_history: bool = False, add_progbar: bool = False, model: Any = None,
                 **params: Any):
        from tf1compat.util import nest
        self.callbacks: List[Callback] = nest.flatten(callbacks) if callbacks else []
        self._progbar = next((c for c in self.callbacks if isinstance(c, ProgbarLogger)), None)
        self._history = next((c for c in self.callbacks if isinstance(c, History)), None)
        if self._history is None and add_history:
            self._history = History()
            self.callbacks.append(self._history)
        if self._progbar is None and add_progbar:
            self._progbar = ProgbarLogger(count_mode="steps")
            self.callbacks.append(self._progbar)
        self.model = None
        self.params: Dict[str, Any] = {}
        if model:
            self.set_model(model)
        if params:
            self.set_params(params)

    def append(self, callback: "Callback") -> None:
        self.callbacks.append(callback)

    def set_params(self, params: Dict[str, Any]) -> None:
        self.params = params
        for callback in self.callbacks:
            callback.set_params(params)

    def set_model(self, model: Any) -> None:
        self.model = model
        if self._history:
            model.history = self._history
        for callback in self.callbacks:
            callback.set_model(model)

    def _process_logs(self, logs: Optional[Dict[str, Any]]) -> Dict[str, Any]:
        """The logs as the callbacks see them: unless every callback takes raw values,
        a copy with tensors and numpy scalars as Python numbers (tf-keras's rule, so
        BaseLogger averages in Python floats)."""
        if logs is None:
            return {}
        if all(getattr(c, "_supports_tf_logs", False) for c in self.callbacks):
            return logs
        return {key: sync_to_python(value) for key, value in logs.items()}

    def _call_batch_hook(self, mode: str, hook: str, batch: int,
                         logs: Optional[Dict[str, Any]] = None) -> None:
        if hook not in ("begin", "end"):
            raise ValueError(f"Unrecognized hook: {hook}. Expected values are "
                             '["begin", "end"]')
        if not self.callbacks:
            return
        name = f"on_{mode}_batch_{hook}"
        logs = self._process_logs(logs)
        for callback in self.callbacks:
            getattr(callback, name)(batch, logs)

    def _call_begin_hook(self, mode: str) -> None:
        {TRAIN: self.on_train_begin, TEST: self.on_test_begin,
         PREDICT: self.on_predict_begin}[mode]()

    def _call_end_hook(self, mode: str) -> None:
        {TRAIN: self.on_train_end, TEST: self.on_test_end, PREDICT: self.on_predict_end}[mode]()

    def _each(self, hook: str, *args: Any) -> None:
        *args, logs = args
        logs = self._process_logs(logs)
        for callback in self.callbacks:
            getattr(callback, hook)(*args, logs)

    def _batch_hooks_wanted(self, mode: str) -> bool:
        return any(getattr(c, f"_implements_{mode}_batch_hooks")() for c in self.callbacks)

    def on_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self._batch_hooks_wanted(TRAIN):
            self._call_batch_hook(TRAIN, "begin", batch, logs)

    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self._batch_hooks_wanted(TRAIN):
            self._call_batch_hook(TRAIN, "end", batch, logs)

    on_train_batch_begin = on_batch_begin
    on_train_batch_end = on_batch_end

    def on_test_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self._batch_hooks_wanted(TEST):
            self._call_batch_hook(TEST, "begin", batch, logs)

    def on_test_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self._batch_hooks_wanted(TEST):
            self._call_batch_hook(TEST, "end", batch, logs)

    def on_predict_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None
                               ) -> None:
        if self._batch_hooks_wanted(PREDICT):
            self._call_batch_hook(PREDICT, "begin", batch, logs)

    def on_predict_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self._batch_hooks_wanted(PREDICT):
            self._call_batch_hook(PREDICT, "end", batch, logs)

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_epoch_begin", epoch, logs if logs is not None else {})

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_epoch_end", epoch, logs if logs is not None else {})

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_train_begin", logs if logs is not None else {})

    def on_train_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_train_end", logs if logs is not None else {})

    def on_test_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_test_begin", logs if logs is not None else {})

    def on_test_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_test_end", logs if logs is not None else {})

    def on_predict_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_predict_begin", logs if logs is not None else {})

    def on_predict_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._each("on_predict_end", logs if logs is not None else {})

    def make_logs(self, model: Any, logs: Dict[str, Any], outputs: Sequence[Any], mode: str,
                  prefix: str = "") -> Dict[str, Any]:
        if not self.callbacks:
            return logs
        return make_logs(model, logs, outputs, mode, prefix=prefix)

    def __iter__(self) -> Any:
        return iter(self.callbacks)


class Callback:
    """Base class: override any `on_*` hook. `self.model` and `self.params` are set by
    the loop before training starts."""

    def __init__(self) -> None:
        self.validation_data = None
        self.model: Any = None
        self.params: Dict[str, Any] = {}
        self._chief_worker_only: Optional[bool] = None
        self._supports_tf_logs = False

    def set_params(self, params: Dict[str, Any]) -> None:
        self.params = params

    def set_model(self, model: Any) -> None:
        self.model = model

    @_default
    def on_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        """A training batch begins (the legacy name of on_train_batch_begin)."""

    @_default
    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        """A training batch ended (the legacy name of on_train_batch_end)."""

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        """An epoch of `fit` begins."""

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        """An epoch of `fit` ended; `logs` holds its results (and val_* ones)."""

    @_default
    def on_train_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.on_batch_begin(batch, logs=logs)

    @_default
    def on_train_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.on_batch_end(batch, logs=logs)

    @_default
    def on_test_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        """An evaluation batch begins."""

    @_default
    def on_test_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        """An evaluation batch ended."""

    @_default
    def on_predict_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None
                               ) -> None:
        """A prediction batch begins."""

    @_default
    def on_predict_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None
                             ) -> None:
        """A prediction batch ended."""

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        """`fit` begins."""

    def on_train_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        """`fit` ended."""

    def on_test_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        """Evaluation (or validation inside fit) begins."""

    def on_test_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        """Evaluation (or validation inside fit) ended."""

    def on_predict_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        """Prediction begins."""

    def on_predict_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        """Prediction ended."""

    def _implements_train_batch_hooks(self) -> bool:
        return not all(_is_default(getattr(self, h)) for h in (
            "on_batch_begin", "on_batch_end", "on_train_batch_begin", "on_train_batch_end"))

    def _implements_test_batch_hooks(self) -> bool:
        return not (_is_default(self.on_test_batch_begin) and
                    _is_default(self.on_test_batch_end))

    def _implements_predict_batch_hooks(self) -> bool:
        return not (_is_default(self.on_predict_batch_begin) and
                    _is_default(self.on_predict_batch_end))


class BaseLogger(Callback):
    """Averages the batch logs over each epoch (weighted by batch size); stateful
    metrics keep their last value."""

    def __init__(self, stateful_metrics: Optional[Iterable[str]] = None):
        super().__init__()
        self.stateful_metrics = set(stateful_metrics or [])

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.seen = 0
        self.totals: Dict[str, Any] = {}

    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        logs = logs or {}
        batch_size = logs.get("size", 0)
        self.seen += batch_size * logs.get("num_steps", 1)
        for key, value in logs.items():
            if key in self.stateful_metrics:
                self.totals[key] = value
            elif key in self.totals:
                self.totals[key] += value * batch_size
            else:
                self.totals[key] = value * batch_size

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if logs is None:
            return
        for key in self.params["metrics"]:
            if key in self.totals:
                logs[key] = (self.totals[key] if key in self.stateful_metrics
                             else self.totals[key] / self.seen)


class TerminateOnNaN(Callback):
    """Stops training when a batch loss is NaN or infinite."""

    def __init__(self) -> None:
        super().__init__()
        self._supports_tf_logs = True

    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print_msg(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True


class ProgbarLogger(Callback):
    """Prints the progress bar (`verbose=1`) or one line per epoch (`verbose=2`),
    counting samples (graph-mode arrays) or steps."""

    def __init__(self, count_mode: str = "samples",
                 stateful_metrics: Optional[Iterable[str]] = None):
        super().__init__()
        self._supports_tf_logs = True
        if count_mode not in ("samples", "steps"):
            raise ValueError(f"Unknown `count_mode`: {count_mode}. Expected values are "
                             '["samples", "steps"]')
        self.use_steps = count_mode == "steps"
        self.stateful_metrics = set(stateful_metrics) if stateful_metrics else set()
        self.seen = 0
        self.progbar: Optional[Progbar] = None
        self.target: Optional[int] = None
        self.verbose = 1
        self.epochs = 1
        self._call_batch_hooks = True
        self._called_in_fit = False

    def set_params(self, params: Dict[str, Any]) -> None:
        self.params = params
        self.verbose = params["verbose"]
        self.epochs = params["epochs"]
        if self.use_steps and "steps" in params:
            self.target = params["steps"]
        elif not self.use_steps and "samples" in params:
            self.target = params["samples"]
        else:
            self.target = None
        self._call_batch_hooks = self.verbose == 1 or self.target is None

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._called_in_fit = True

    def on_test_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        if not self._called_in_fit:
            self._reset_progbar()
            self._maybe_init_progbar()

    def on_predict_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._reset_progbar()
        self._maybe_init_progbar()

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._reset_progbar()
        self._maybe_init_progbar()
        if self.verbose and self.epochs > 1:
            print_msg(f"Epoch {epoch + 1}/{self.epochs}")

    def on_train_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._batch_update_progbar(batch, logs)

    def on_test_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if not self._called_in_fit:
            self._batch_update_progbar(batch, logs)

    def on_predict_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None
                             ) -> None:
        self._batch_update_progbar(batch, None)

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._finalize_progbar(logs)

    def on_test_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        if not self._called_in_fit:
            self._finalize_progbar(logs)

    def on_predict_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._finalize_progbar(logs)

    def _reset_progbar(self) -> None:
        self.seen = 0
        self.progbar = None

    def _maybe_init_progbar(self) -> None:
        self.stateful_metrics = set(self.stateful_metrics)
        if self.model:
            self.stateful_metrics |= {m.name for m in self.model.metrics}
        if self.progbar is None:
            self.progbar = Progbar(target=self.target, verbose=self.verbose,
                                   stateful_metrics=self.stateful_metrics,
                                   unit_name="step" if self.use_steps else "sample")
        self.progbar._update_stateful_metrics(self.stateful_metrics)

    def _implements_train_batch_hooks(self) -> bool:
        return self._call_batch_hooks

    def _implements_test_batch_hooks(self) -> bool:
        return self._call_batch_hooks

    def _implements_predict_batch_hooks(self) -> bool:
        return self._call_batch_hooks

    def _batch_update_progbar(self, batch: int, logs: Optional[Dict[str, Any]]) -> None:
        logs = logs or {}
        self._maybe_init_progbar()
        if self.use_steps:
            self.seen = batch + 1
        else:
            logs = copy.copy(logs)
            batch_size = logs.pop("size", 0)
            num_steps = logs.pop("num_steps", 1)
            logs.pop("batch", None)
            self.seen += num_steps * batch_size
        if self.verbose == 1:
            self.progbar.update(self.seen, list(logs.items()), finalize=False)

    def _finalize_progbar(self, logs: Optional[Dict[str, Any]]) -> None:
        logs = logs or {}
        if self.target is None:
            self.target = self.seen
            self.progbar.target = self.target
        self.progbar.update(self.target, list(logs.items()), finalize=True)


class History(Callback):
    """Records each epoch's logs: `history.history[name]` is a list per epoch."""

    def __init__(self) -> None:
        super().__init__()
        self.history: Dict[str, List[Any]] = {}

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self.epoch: List[int] = []

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)
        self.model.history = self


def _monitor_op(mode: str, monitor: str, kind: str) -> Any:
    if mode not in ("auto", "min", "max"):
        logging.warning("%s mode %s is unknown, fallback to auto mode.", kind, mode)
        mode = "auto"
    if mode == "min":
        return np.less
    if mode == "max":
        return np.greater
    return None


class ModelCheckpoint(Callback):
    """Saves the model (or its weights) after every epoch or every `save_freq`
    batches; `filepath` may hold `{epoch:02d}` and `{<log name>:.2f}` fields."""

    def __init__(self, filepath: Any, monitor: str = "val_loss", verbose: int = 0,
                 save_best_only: bool = False, save_weights_only: bool = False,
                 mode: str = "auto", save_freq: Any = "epoch", options: Any = None,
                 initial_value_threshold: Optional[float] = None, **kwargs: Any):
        super().__init__()
        self._supports_tf_logs = True
        self.monitor = monitor
        self.verbose = verbose
        self.filepath = path_to_string(filepath)
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self.epochs_since_last_save = 0
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = -1
        self._current_epoch = 0
        self.best = initial_value_threshold
        if options is not None:
            raise NotImplementedError("ModelCheckpoint(options=...) (CheckpointOptions / "
                                      "SaveOptions) is not supported by tf1compat")
        self.load_weights_on_restart = kwargs.pop("load_weights_on_restart", False)
        if self.load_weights_on_restart:
            logging.warning("`load_weights_on_restart` argument is deprecated. Please use "
                            "`model.load_weights()` for loading weights before the start of "
                            "`model.fit()`.")
        if "period" in kwargs:
            self.period = kwargs.pop("period")
            logging.warning("`period` argument is deprecated. Please use `save_freq` to "
                            "specify the frequency in number of batches seen.")
        else:
            self.period = 1
        op = _monitor_op(mode, monitor, "ModelCheckpoint")
        if op is None:
            op = np.greater if ("acc" in monitor or monitor.startswith("fmeasure")) \
                else np.less
        self.monitor_op = op
        if self.best is None:
            self.best = -np.inf if op is np.greater else np.inf
        if self.save_freq != "epoch" and not isinstance(self.save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {self.save_freq}. Expected save_freq "
                             'are "epoch" or integer')
        self._chief_worker_only = False

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        if not self.load_weights_on_restart:
            return
        path = self._latest_matching_file(self.filepath)
        if path is not None and self._checkpoint_exists(path):
            try:
                self.model.load_weights(path)
            except (IOError, ValueError) as e:
                raise ValueError(f"Error loading file from {path}. Reason: {e}")

    def _implements_train_batch_hooks(self) -> bool:
        return self.save_freq != "epoch"

    def on_train_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self._should_save_on_batch(batch):
            self._save_model(epoch=self._current_epoch, batch=batch, logs=logs)

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._current_epoch = epoch

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.epochs_since_last_save += 1
        if self.save_freq == "epoch":
            self._save_model(epoch=epoch, batch=None, logs=logs)

    def _should_save_on_batch(self, batch: int) -> bool:
        if self.save_freq == "epoch":
            return False
        added = batch + 1 if batch <= self._last_batch_seen else batch - self._last_batch_seen
        self._batches_seen_since_last_saving += added
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def _save_model(self, epoch: int, batch: Optional[int], logs: Optional[Dict[str, Any]]
                    ) -> None:
        logs = logs or {}
        if not (isinstance(self.save_freq, int) or self.epochs_since_last_save >= self.period):
            return
        self.epochs_since_last_save = 0
        filepath = self._file_path(epoch, batch, logs)
        dirname = os.path.dirname(filepath)
        if dirname and not os.path.exists(dirname):
            os.makedirs(dirname, exist_ok=True)
        if os.path.isdir(filepath) and (filepath.endswith(".h5") or not
                                        self.save_weights_only):
            raise IOError("Please specify a non-directory filepath for ModelCheckpoint. "
                          f"Filepath used is an existing directory: {filepath}")
        if not self.save_best_only:
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: saving model to {filepath}")
            self._save(filepath)
            return
        current = logs.get(self.monitor)
        if current is None:
            logging.warning("Can save best model only with %s available, skipping.",
                            self.monitor)
        elif self.monitor_op(current, self.best):
            if self.verbose > 0:
                print_msg(f"\nEpoch {epoch + 1}: {self.monitor} improved from "
                          f"{self.best:.5f} to {current:.5f}, saving model to {filepath}")
            self.best = current
            self._save(filepath)
        elif self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from "
                      f"{self.best:.5f}")

    def _save(self, filepath: str) -> None:
        if self.save_weights_only:
            self.model.save_weights(filepath, overwrite=True)
        else:
            self.model.save(filepath, overwrite=True)

    def _file_path(self, epoch: int, batch: Optional[int], logs: Dict[str, Any]) -> str:
        try:
            if batch is None or "batch" in logs:
                return self.filepath.format(epoch=epoch + 1, **logs)
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **logs)
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}")

    @staticmethod
    def _checkpoint_exists(filepath: str) -> bool:
        if filepath.endswith(".h5"):
            return os.path.exists(filepath)
        return os.path.exists(filepath) or os.path.exists(filepath + ".index")

    @staticmethod
    def _latest_matching_file(pattern: str) -> Optional[str]:
        """The newest file matching the filepath pattern (tf-keras's rule: the latest TF
        checkpoint if it matches, else the most recently modified file, ties broken by the
        largest name)."""
        from tf1compat.training.checkpoint_state import latest_checkpoint
        dir_name, base_name = os.path.dirname(pattern), os.path.basename(pattern)
        regex = "^" + re.sub(r"{.*}", r".*", base_name) + "$"
        latest = latest_checkpoint(dir_name)
        if latest is not None and re.match(regex, os.path.basename(latest)):
            return latest
        newest_time, newest, count, largest = 0.0, None, 0, None
        if os.path.exists(dir_name):
            for name in os.listdir(dir_name):
                if not re.match(regex, name):
                    continue
                path = os.path.join(dir_name, name)
                mtime = os.path.getmtime(path)
                if largest is None or path > largest:
                    largest = path
                if mtime > newest_time:
                    newest_time, newest, count = mtime, path, 1
                elif mtime == newest_time:
                    count += 1
        return newest if count == 1 else largest


class EarlyStopping(Callback):
    """Stops training when the monitored quantity has stopped improving."""

    def __init__(self, monitor: str = "val_loss", min_delta: float = 0, patience: int = 0,
                 verbose: int = 0, mode: str = "auto", baseline: Optional[float] = None,
                 restore_best_weights: bool = False, start_from_epoch: int = 0):
        super().__init__()
        self.monitor = monitor
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.min_delta = abs(min_delta)
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights: Optional[List[np.ndarray]] = None
        self.start_from_epoch = start_from_epoch
        op = _monitor_op(mode, monitor, "EarlyStopping")
        if op is None:
            op = np.greater if monitor.endswith(("acc", "accuracy", "auc")) else np.less
        self.monitor_op = op
        self.min_delta *= 1 if op is np.greater else -1

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self.wait = 0
        self.stopped_epoch = 0
        self.best = np.inf if self.monitor_op is np.less else -np.inf
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            # The wait restarts only when the baseline is beaten too.
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        if self.stopped_epoch > 0 and self.verbose > 0:
            print_msg(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print_msg("Restoring model weights from the end of the best epoch: "
                          f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs: Optional[Dict[str, Any]]) -> Any:
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            logging.warning("Early stopping conditioned on metric `%s` which is not "
                            "available. Available metrics are: %s", self.monitor,
                            ",".join(list(logs.keys())))
        return value

    def _is_improvement(self, value: Any, reference: Any) -> bool:
        return self.monitor_op(value - self.min_delta, reference)


class RemoteMonitor(Callback):
    """Posts epoch logs to an HTTP server: not available in tf1compat."""

    def __init__(self, root: str = "http://localhost:9000", path: str = "/publish/epoch/end/",
                 field: str = "data", headers: Any = None, send_as_json: bool = False):
        super().__init__()
        raise NotImplementedError("tf.keras.callbacks.RemoteMonitor (posting training logs "
                                  "to an HTTP server with `requests`) is not supported by "
                                  "tf1compat; use CSVLogger or a LambdaCallback")


class LearningRateScheduler(Callback):
    """Sets the optimizer's learning rate from `schedule(epoch, lr)` (or
    `schedule(epoch)`) at the start of each epoch; adds `lr` to the epoch logs."""

    def __init__(self, schedule: Callable[..., Any], verbose: int = 0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if not hasattr(self.model.optimizer, "lr"):
            raise ValueError('Optimizer must have a "lr" attribute.')
        try:
            lr = float(backend.get_value(self.model.optimizer.lr))
            lr = self.schedule(epoch, lr)
        except TypeError:
            lr = self.schedule(epoch)
        from tf1compat.framework.tensor import Tensor
        if not isinstance(lr, (Tensor, float, np.float32, np.float64)):
            raise ValueError(f'The output of the "schedule" function should be float. Got: {lr}')
        if isinstance(lr, Tensor) and not lr.dtype.is_floating:
            raise ValueError(f"The dtype of `lr` Tensor should be float. Got: {lr.dtype}")
        backend.set_value(self.model.optimizer.lr, backend.get_value(lr))
        if self.verbose > 0:
            print_msg(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to "
                      f"{lr}.")

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if logs is not None:
            logs["lr"] = backend.get_value(self.model.optimizer.lr)


class ReduceLROnPlateau(Callback):
    """Multiplies the learning rate by `factor` when the monitored quantity has not
    improved for `patience` epochs (then waits `cooldown` epochs)."""

    def __init__(self, monitor: str = "val_loss", factor: float = 0.1, patience: int = 10,
                 verbose: int = 0, mode: str = "auto", min_delta: float = 1e-4,
                 cooldown: int = 0, min_lr: float = 0, **kwargs: Any):
        super().__init__()
        self.monitor = monitor
        if factor >= 1.0:
            raise ValueError(f"ReduceLROnPlateau does not support a factor >= 1.0. Got {factor}")
        if "epsilon" in kwargs:
            min_delta = kwargs.pop("epsilon")
            logging.warning("`epsilon` argument is deprecated and will be removed, use "
                            "`min_delta` instead.")
        self.factor = factor
        self.min_lr = min_lr
        self.min_delta = min_delta
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0
        self.best: float = 0
        self.mode = mode
        self.monitor_op: Any = None
        self._reset()

    def _reset(self) -> None:
        if self.mode not in ("auto", "min", "max"):
            logging.warning("Learning rate reduction mode %s is unknown, fallback to auto mode.",
                            self.mode)
            self.mode = "auto"
        if self.mode == "min" or (self.mode == "auto" and "acc" not in self.monitor):
            self.monitor_op = lambda a, b: np.less(a, b - self.min_delta)
            self.best = np.inf
        else:
            self.monitor_op = lambda a, b: np.greater(a, b + self.min_delta)
            self.best = -np.inf
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self._reset()

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        logs = logs if logs is not None else {}
        logs["lr"] = backend.get_value(self.model.optimizer.lr)
        current = logs.get(self.monitor)
        if current is None:
            logging.warning("Learning rate reduction is conditioned on metric `%s` which is "
                            "not available. Available metrics are: %s", self.monitor,
                            ",".join(list(logs.keys())))
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self.monitor_op(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                old_lr = backend.get_value(self.model.optimizer.lr)
                if old_lr > np.float32(self.min_lr):
                    new_lr = max(old_lr * self.factor, self.min_lr)
                    backend.set_value(self.model.optimizer.lr, new_lr)
                    if self.verbose > 0:
                        print_msg(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning "
                                  f"rate to {new_lr}.")
                    self.cooldown_counter = self.cooldown
                    self.wait = 0

    def in_cooldown(self) -> bool:
        return self.cooldown_counter > 0


class CSVLogger(Callback):
    """Writes one CSV row per epoch: `epoch` then the sorted log keys (plus `val_*` keys
    when the first epoch has none)."""

    def __init__(self, filename: Any, separator: str = ",", append: bool = False):
        self.sep = separator
        self.filename = path_to_string(filename)
        self.append = append
        self.writer: Any = None
        self.keys: Optional[List[str]] = None
        self.append_header = True
        super().__init__()

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        if self.append:
            if os.path.exists(self.filename):
                with open(self.filename, "r") as f:
                    self.append_header = not bool(len(f.readline()))
            mode = "a"
        else:
            mode = "w"
        self.csv_file = open(self.filename, mode, newline="")

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        logs = logs or {}

        def handle_value(value: Any) -> Any:
            scalar_array = isinstance(value, np.ndarray) and value.ndim == 0
            if isinstance(value, str):
                return value
            if isinstance(value, collections.abc.Iterable) and not scalar_array:
                return f"\"[{', '.join(map(str, value))}]\""
            return value

        if self.keys is None:
            self.keys = sorted(logs.keys())
            if not any(key.startswith("val_") for key in self.keys):
                self.keys.extend(["val_" + k for k in self.keys])
        if not self.writer:
            dialect = type("CustomDialect", (csv.excel,), {"delimiter": self.sep})
            self.writer = csv.DictWriter(self.csv_file, fieldnames=["epoch"] + self.keys,
                                         dialect=dialect)
            if self.append_header:
                self.writer.writeheader()
        row = collections.OrderedDict({"epoch": epoch})
        row.update((key, handle_value(logs.get(key, "NA"))) for key in self.keys)
        self.writer.writerow(row)
        self.csv_file.flush()

    def on_train_end(self, logs: Optional[Dict[str, Any]] = None) -> None:
        self.csv_file.close()
        self.writer = None


class LambdaCallback(Callback):
    """A callback from functions: `on_epoch_begin(epoch, logs)`, `on_epoch_end`,
    `on_batch_begin(batch, logs)`, `on_batch_end`, `on_train_begin(logs)`,
    `on_train_end`."""

    def __init__(self, on_epoch_begin: Optional[Callable] = None,
                 on_epoch_end: Optional[Callable] = None,
                 on_batch_begin: Optional[Callable] = None,
                 on_batch_end: Optional[Callable] = None,
                 on_train_begin: Optional[Callable] = None,
                 on_train_end: Optional[Callable] = None, **kwargs: Any):
        super().__init__()
        self.__dict__.update(kwargs)
        for name, fn in (("on_epoch_begin", on_epoch_begin), ("on_epoch_end", on_epoch_end),
                         ("on_batch_begin", on_batch_begin), ("on_batch_end", on_batch_end),
                         ("on_train_begin", on_train_begin), ("on_train_end", on_train_end)):
            if fn is not None:
                setattr(self, name, fn)


def configure_callbacks(callbacks: Any, model: Any, do_validation: bool = False,
                        batch_size: Optional[int] = None, epochs: Optional[int] = None,
                        steps_per_epoch: Optional[int] = None, samples: Optional[int] = None,
                        verbose: int = 1, count_mode: str = "steps", mode: str = TRAIN
                        ) -> CallbackList:
    """The v1 loops' CallbackList: in fit, `[BaseLogger] + callbacks + [History]` and a
    ProgbarLogger when verbose; params as tf-keras sets them."""
    if isinstance(callbacks, CallbackList):
        return callbacks
    callbacks = list(callbacks or [])
    if mode == TRAIN:
        model.history = History()
        callbacks = [BaseLogger()] + callbacks + [model.history]
        if verbose:
            callbacks.append(ProgbarLogger(count_mode))
    callback_list = CallbackList(callbacks)
    callback_list.set_model(model)
    set_callback_parameters(callback_list, model, do_validation=do_validation,
                            batch_size=batch_size, epochs=epochs,
                            steps_per_epoch=steps_per_epoch, samples=samples, verbose=verbose,
                            mode=mode)
    model.stop_training = False
    return callback_list


def set_callback_parameters(callback_list: CallbackList, model: Any,
                            do_validation: bool = False, batch_size: Optional[int] = None,
                            epochs: Optional[int] = None,
                            steps_per_epoch: Optional[int] = None,
                            samples: Optional[int] = None, verbose: int = 1,
                            mode: str = TRAIN) -> None:
    """Stateful metrics of BaseLogger/ProgbarLogger (all but `loss`) and the params every
    callback sees (`metrics` lists the log names, `val_*` too with validation)."""
    names = None
    for callback in callback_list:
        if isinstance(callback, (BaseLogger, ProgbarLogger)):
            names = names or model.metrics_names
            callback.stateful_metrics = names[1:]
    metrics: List[str] = []
    if mode != PREDICT:
        names = names or model.metrics_names
        metrics = list(names)
        if do_validation:
            metrics += ["val_" + n for n in names]
    callback_list.set_params({"batch_size": batch_size, "epochs": epochs,
                              "steps": steps_per_epoch, "samples": samples,
                              "verbose": verbose, "do_validation": do_validation,
                              "metrics": metrics})


from tf1compat.keras.callbacks_tensorboard import TensorBoard  # noqa: E402
