"""`tf.keras.callbacks`: the hooks the training loops call, and tf-keras's callbacks.

The loops (engine/training_arrays.py, training_generator.py, training_eager.py) drive a
`CallbackList`: `on_{train,test,predict}_{begin,end}`, `on_epoch_{begin,end}` and
`on_{mode}_batch_{begin,end}`. In graph mode (tf-keras's v1 loop) `fit` wraps the user's
callbacks as `[BaseLogger] + callbacks + [History] (+ [ProgbarLogger])`; validation inside
`fit` runs through the same list in test mode. Batch logs carry `batch`, `size` and the
batch's outputs by metric name; epoch logs the epoch results (and `val_*`).

The callbacks that watch a monitored quantity or write files (ModelCheckpoint,
EarlyStopping, LearningRateScheduler, ReduceLROnPlateau, CSVLogger) live in
callbacks_monitored.py and TensorBoard in callbacks_tensorboard.py (re-exported here).
"""

from __future__ import annotations

import copy
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np

from tf1compat.keras.utils.generic_utils import Progbar
from tf1compat.keras.utils.io_utils import print_msg

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
              prefix: str = "", names: Optional[List[str]] = None) -> Dict[str, Any]:
    """Adds a batch's or epoch's outputs to `logs` under the model's metric names
    (`outputs` in predict mode); `names`, when given, are `model.metrics_names` read
    once by the loop (its execution function's outputs are fixed for the loop)."""
    if names is None:
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
        self._hook_methods: Dict[Tuple[str, str, int], Tuple[List[Callable], bool]] = {}
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

    def _batch_hook_methods(self, mode: str, hook: str) -> Tuple[List[Callable], bool]:
        """The callbacks' `on_{mode}_batch_{hook}` methods that do something (the base
        class's no-op hooks are left out: calling them changes nothing), and whether the
        logs go to them raw. Resolved once per list of callbacks, not per batch."""
        key = (mode, hook, len(self.callbacks))
        found = self._hook_methods.get(key)
        if found is None:
            name = f"on_{mode}_batch_{hook}"
            legacy = f"on_batch_{hook}" if mode == TRAIN else None
            methods = []
            for callback in self.callbacks:
                method = getattr(callback, name)
                if _is_default(method) and (legacy is None or
                                            _is_default(getattr(callback, legacy))):
                    continue
                methods.append(method)
            raw = all(getattr(c, "_supports_tf_logs", False) for c in self.callbacks)
            found = self._hook_methods[key] = (methods, raw)
        return found

    def _call_batch_hook(self, mode: str, hook: str, batch: int,
                         logs: Optional[Dict[str, Any]] = None) -> None:
        if hook not in ("begin", "end"):
            raise ValueError(f"Unrecognized hook: {hook}. Expected values are "
                             '["begin", "end"]')
        methods, raw = self._batch_hook_methods(mode, hook)
        if not methods:
            return
        if logs is None:
            logs = {}
        elif not raw:
            logs = {key: sync_to_python(value) for key, value in logs.items()}
        for method in methods:
            method(batch, logs)

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
                  prefix: str = "", names: Optional[List[str]] = None) -> Dict[str, Any]:
        if not self.callbacks:
            return logs
        return make_logs(model, logs, outputs, mode, prefix=prefix, names=names)

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


class RemoteMonitor(Callback):
    """Streams each epoch's logs to an HTTP server: a POST to `root + path` of
    `{"epoch": epoch, **logs}` as JSON, in the form field `field` (form-encoded) or, with
    `send_as_json=True`, as the `application/json` body; `headers` are added. tf-keras
    posts with `requests`; this uses the standard library's urllib, with the same
    request. An unreachable server is a logged warning, as in tf-keras; a response with
    an error status is ignored (`requests` does not raise on one)."""

    def __init__(self, root: str = "http://localhost:9000", path: str = "/publish/epoch/end/",
                 field: str = "data", headers: Any = None, send_as_json: bool = False):
        super().__init__()
        self.root = root
        self.path = path
        self.field = field
        self.headers = headers
        self.send_as_json = send_as_json

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        import json
        import urllib.error
        import urllib.parse
        import urllib.request
        from tf1compat.util import tf_logging
        send: Dict[str, Any] = {"epoch": epoch}
        for key, value in (logs or {}).items():
            send[key] = value.item() if isinstance(value, (np.ndarray, np.generic)) else value
        headers = dict(self.headers or {})
        try:
            if self.send_as_json:
                # (requests refuses NaN in a JSON body, before sending anything)
                body = json.dumps(send, allow_nan=False).encode("utf-8")
                headers.setdefault("Content-Type", "application/json")
            else:
                body = urllib.parse.urlencode({self.field: json.dumps(send)}).encode("utf-8")
                headers.setdefault("Content-Type", "application/x-www-form-urlencoded")
            request = urllib.request.Request(self.root + self.path, data=body,
                                             headers=headers, method="POST")
            with urllib.request.urlopen(request) as response:
                response.read()
        except urllib.error.HTTPError:
            pass
        except (urllib.error.URLError, OSError, ValueError):
            tf_logging.warning("Warning: could not reach RemoteMonitor root server at " +
                               str(self.root))


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


from tf1compat.keras.callbacks_monitored import (  # noqa: E402
    CSVLogger, EarlyStopping, LearningRateScheduler, ModelCheckpoint, ReduceLROnPlateau)
from tf1compat.keras.callbacks_tensorboard import TensorBoard  # noqa: E402
from tf1compat.keras import callbacks_experimental as experimental  # noqa: E402,F401

# Names of tf-keras's tf.keras.callbacks that tf1compat lacks raise UnimplementedAPIError.
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras.callbacks", globals())
