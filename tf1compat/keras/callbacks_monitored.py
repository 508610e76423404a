"""The callbacks of `tf.keras.callbacks` that watch a monitored quantity or write files:
ModelCheckpoint (weights or whole models, `save_best_only`, `save_freq`), EarlyStopping
(`restore_best_weights`), LearningRateScheduler, ReduceLROnPlateau (cooldown, min_lr) and
CSVLogger, with tf-keras's messages, comparisons and file formats."""

from __future__ import annotations

import collections
import csv
import os
import re
from typing import Any, Dict, Optional

import numpy as np

from tf1compat.util import tf_logging as logging
from tf1compat.keras import backend
from tf1compat.keras.callbacks import Callback
from tf1compat.keras.utils.io_utils import path_to_string, print_msg

__all__ = ["ModelCheckpoint", "EarlyStopping", "LearningRateScheduler", "ReduceLROnPlateau",
           "CSVLogger"]


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
        from tf1compat.training.saving.checkpoint_state import latest_checkpoint
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
