"""`horovod.keras.callbacks` / `horovod.tensorflow.keras.callbacks` on torch.distributed
(Horovod 0.28's Keras callbacks on tf1compat's Keras).

* `BroadcastGlobalVariablesCallback(root_rank)`: at the end of the first batch (once the
  optimizer's slots exist) every global variable takes `root_rank`'s value (graph mode:
  one broadcast op run in Keras' session; eager: the model's and optimizer's variables).
* `MetricAverageCallback()`: at each epoch's end, every value in `logs` is replaced by its
  average over the processes (in sorted key order, so collectives match across processes).
* `LearningRateScheduleCallback(initial_lr, multiplier, start_epoch, end_epoch, staircase,
  momentum_correction, steps_per_epoch)`: within [start_epoch, end_epoch) sets the
  optimizer's `lr` to `initial_lr * multiplier(epoch)` at the first batch of each epoch
  (staircase) or at every batch with `epoch + batch / steps_per_epoch`; a number
  `multiplier` m means `m ** (epoch - start_epoch)`. With momentum correction an optimizer's
  `momentum` is scaled by new_lr / old_lr for that batch and restored after it. `logs['lr']`
  gets the rate at each epoch's end.
* `LearningRateWarmupCallback(initial_lr, warmup_epochs, momentum_correction,
  steps_per_epoch, verbose)`: Goyal et al.'s gradual warmup, Horovod's formula
  `lr = initial_lr / size * (e * (size - 1) / warmup_epochs + 1)` with
  `e = epoch + (batch + 1) / steps_per_epoch`, for the first `warmup_epochs` epochs.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Union

from tf1compat.distribute import horovod_tensorflow as _hvd
from tf1compat.framework import context as _context
from tf1compat.framework.graph import device as _device
from tf1compat.keras import backend as K
from tf1compat.keras.callbacks import Callback, ModelCheckpoint
from tf1compat.variables.variables import Variable

__all__ = ["BroadcastGlobalVariablesCallback", "MetricAverageCallback",
           "LearningRateScheduleCallback", "LearningRateWarmupCallback",
           "BestModelCheckpoint"]


class BroadcastGlobalVariablesCallback(Callback):
    """Broadcasts every global variable from `root_rank` at the end of the first batch, so
    all processes continue from the same weights and optimizer state."""

    def __init__(self, root_rank: int, device: str = "", local_variables: Any = None):
        super().__init__()
        self.root_rank = root_rank
        self.device = device
        self.broadcast_done = False
        if local_variables is None:
            local_variables = []
        elif isinstance(local_variables, Variable):
            local_variables = [local_variables]
        elif not all(isinstance(v, Variable) for v in local_variables):
            raise ValueError("All local variables must be of tf.Variable type.")
        if local_variables:
            # Horovod refuses them under TF 1.x, whose broadcast takes all global variables.
            raise NotImplementedError("BroadcastGlobalVariablesCallback(local_variables=...) "
                                      "is not supported by tf1compat (as Horovod under TF 1.x)")

    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if self.broadcast_done:
            return
        if _context.executing_eagerly():
            with _device(self.device):
                _hvd.broadcast_variables(self.model.variables, root_rank=self.root_rank)
                _hvd.broadcast_variables(self.model.optimizer.variables(),
                                         root_rank=self.root_rank)
        else:
            with K.get_graph().as_default(), _device(self.device):
                bcast_op = _hvd.broadcast_global_variables(self.root_rank)
            K.get_session().run(bcast_op)
        self.broadcast_done = True


class MetricAverageCallback(Callback):
    """Replaces each epoch-end log value by its average across processes; put it before
    callbacks that read the metrics (ReduceLROnPlateau, TensorBoard, ...)."""

    def __init__(self, device: str = ""):
        super().__init__()
        self.device = device
        self.variables: Dict[str, Any] = {}
        self.allreduce_ops: Dict[str, Any] = {}

    def _make_variable(self, metric: str, value: Any) -> Any:
        with K.get_graph().as_default(), K.name_scope("MetricAverageCallback"):
            var = K.variable(value, name=metric)
            K.get_session().run(var.initializer)
            return var, _hvd.allreduce(var, device_dense=self.device)

    def _average_metrics_in_place(self, logs: Optional[Dict[str, Any]]) -> None:
        logs = logs if logs is not None else {}
        reduced: Dict[str, Any] = {}
        for metric, value in sorted(logs.items()):
            if _context.executing_eagerly():
                reduced[metric] = _hvd.allreduce(K.constant(value, name=metric),
                                                 device_dense=self.device).numpy()
                continue
            if metric not in self.variables:
                self.variables[metric], self.allreduce_ops[metric] = \
                    self._make_variable(metric, value)
            else:
                K.set_value(self.variables[metric], value)
            reduced[metric] = K.get_session().run(self.allreduce_ops[metric])
        logs.update(reduced)

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._average_metrics_in_place(logs)


class LearningRateScheduleCallback(Callback):
    """Sets the learning rate to `initial_lr * multiplier(epoch)` from `start_epoch` up to
    (not including) `end_epoch`, per epoch (staircase) or per batch."""

    def __init__(self, initial_lr: float, multiplier: Union[float, Callable[[float], float]],
                 start_epoch: int = 0, end_epoch: Optional[int] = None,
                 staircase: bool = True, momentum_correction: bool = True,
                 steps_per_epoch: Optional[int] = None):
        super().__init__()
        if initial_lr is None:
            raise ValueError("Parameter `initial_lr` is required")
        self.initial_lr = initial_lr
        self.start_epoch = start_epoch
        self.end_epoch = end_epoch
        self.staircase = staircase
        self.momentum_correction = momentum_correction
        self.steps_per_epoch = steps_per_epoch
        self.restore_momentum: Any = None
        self.current_epoch: Optional[int] = None
        if callable(multiplier):
            self.multiplier = multiplier
        else:
            self.multiplier = lambda epoch: multiplier ** (epoch - start_epoch)

    def _autodetect_steps_per_epoch(self) -> int:
        if self.params.get("steps"):
            return self.params["steps"]
        if self.params.get("samples") and self.params.get("batch_size"):
            return self.params["samples"] // self.params["batch_size"]
        raise ValueError("Could not autodetect the number of steps per epoch. Please specify "
                         f"the steps_per_epoch parameter to the {type(self).__name__}() or "
                         "upgrade to the latest version of Keras.")

    def _adjust_learning_rate(self, epoch: float) -> None:
        optimizer = self.model.optimizer
        old_lr = K.get_value(optimizer.lr)
        new_lr = self.initial_lr * self.multiplier(epoch)
        K.set_value(optimizer.lr, new_lr)
        if self.momentum_correction and _has_momentum(optimizer):
            # Goyal et al.: scale momentum with the rate change for this step only.
            self.restore_momentum = K.get_value(optimizer.momentum)
            K.set_value(optimizer.momentum, self.restore_momentum * new_lr / old_lr)

    def _restore_momentum_if_needed(self) -> None:
        if self.restore_momentum:
            K.set_value(self.model.optimizer.momentum, self.restore_momentum)
            self.restore_momentum = None

    def on_train_begin(self, logs: Optional[Dict[str, Any]] = None) -> None:
        if not self.staircase and not self.steps_per_epoch:
            self.steps_per_epoch = self._autodetect_steps_per_epoch()

    def on_epoch_begin(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self.current_epoch = epoch

    def on_batch_begin(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        epoch = self.current_epoch
        if epoch < self.start_epoch or (self.end_epoch is not None
                                        and epoch >= self.end_epoch):
            return
        if self.staircase and batch == 0:
            self._adjust_learning_rate(epoch)
        elif not self.staircase:
            self._adjust_learning_rate(epoch + float(batch) / self.steps_per_epoch)

    def on_batch_end(self, batch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        self._restore_momentum_if_needed()

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        if logs is not None:
            logs["lr"] = K.get_value(self.model.optimizer.lr)


def _has_momentum(optimizer: Any) -> bool:
    try:
        getattr(optimizer, "momentum")
    except (AttributeError, KeyError):
        return False
    return True


class LearningRateWarmupCallback(LearningRateScheduleCallback):
    """Gradual warmup from `initial_lr / size()` to `initial_lr` over `warmup_epochs`
    epochs, adjusted at every batch."""

    def __init__(self, initial_lr: float, warmup_epochs: int = 5,
                 momentum_correction: bool = True, steps_per_epoch: Optional[int] = None,
                 verbose: int = 0):
        def multiplier(epoch: float) -> float:
            # Shifted by one batch so each epoch ends on a round multiple (Horovod's choice).
            epoch += 1.0 / self.steps_per_epoch
            n = _hvd.size()
            return 1.0 / n * (epoch * (n - 1) / warmup_epochs + 1)

        super().__init__(initial_lr, multiplier, start_epoch=0, end_epoch=warmup_epochs,
                         staircase=False, momentum_correction=momentum_correction,
                         steps_per_epoch=steps_per_epoch)
        self.verbose = verbose

    def on_epoch_end(self, epoch: int, logs: Optional[Dict[str, Any]] = None) -> None:
        super().on_epoch_end(epoch, logs)
        if epoch == self.end_epoch - 1 and self.verbose > 0 and _hvd.rank() == 0:
            new_lr = K.get_value(self.model.optimizer.lr)
            print(f"\nEpoch {epoch + 1}: finished gradual learning rate warmup to {new_lr:g}.")


class BestModelCheckpoint(ModelCheckpoint):
    """ModelCheckpoint keeping only the best model; Horovod's Spark estimators set its
    `filepath` before training, so set it yourself when using it directly."""

    def __init__(self, monitor: str = "val_loss", verbose: int = 0,
                 save_weights_only: bool = False, mode: str = "auto",
                 save_freq: Any = "epoch"):
        super().__init__(filepath=None, monitor=monitor, verbose=verbose, save_best_only=True,
                         save_weights_only=save_weights_only, mode=mode, save_freq=save_freq)
