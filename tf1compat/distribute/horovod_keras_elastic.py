"""`horovod.tensorflow.keras.elastic` / `horovod.keras.elastic`: Horovod's elastic state for
a Keras model and the callbacks that keep it current during `fit`.

`KerasState(model, optimizer=None, **kwargs)` is horovod_elastic.py's TensorFlowKerasState
with Keras' backend; `run` is `hvd.elastic.run` (the job is not re-formed after a failure:
see horovod_elastic.py). The callbacks follow Horovod 0.28's: `CommitStateCallback` commits
every `batches_per_commit` batches and at each epoch end, `UpdateBatchStateCallback` keeps
`state.batch` (and shortens the first epoch after a restore by the batches done),
`UpdateEpochStateCallback` keeps `state.epoch` counted across restarts.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.distribute.horovod_elastic import TensorFlowKerasState, run
from tf1compat.keras import backend as K
from tf1compat.keras.callbacks import Callback

__all__ = ["KerasState", "CommitStateCallback", "UpdateBatchStateCallback",
           "UpdateEpochStateCallback", "run"]


class KerasState(TensorFlowKerasState):
    """The model's and optimizer's weights plus keyword attributes, synced from rank 0."""

    def __init__(self, model: Any, optimizer: Any = None, **kwargs: Any):
        super().__init__(model, optimizer=optimizer, backend=K, **kwargs)


class CommitStateCallback(Callback):
    """Commits `state` every `batches_per_commit` batches and at the end of each epoch."""

    def __init__(self, state: Any, batches_per_commit: int = 1):
        super().__init__()
        self.backend = K
        self.state = state
        self.batches_per_commit = batches_per_commit
        self.batches_remaining = batches_per_commit

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        self.batches_remaining = self.batches_per_commit

    def on_batch_end(self, batch: int, logs: Optional[dict] = None) -> None:
        self.batches_remaining -= 1
        if self.batches_remaining == 0:
            self.state.commit()
            self.batches_remaining = self.batches_per_commit

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        self.state.commit()


class UpdateBatchStateCallback(Callback):
    """Keeps `state.batch` at the last finished batch (0 after each epoch); with a known
    `steps`, the epoch after a restore runs only the batches not yet done."""

    def __init__(self, state: Any):
        super().__init__()
        self.backend = K
        self.state = state
        self.steps_per_epoch: Optional[int] = None

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        self.steps_per_epoch = None

    def on_epoch_begin(self, epoch: int, logs: Optional[dict] = None) -> None:
        if self.params.get("steps"):
            if self.steps_per_epoch is None:
                self.steps_per_epoch = self.params.get("steps")
            self.params["steps"] = self.steps_per_epoch - self.state.batch

    def on_batch_end(self, batch: int, logs: Optional[dict] = None) -> None:
        self.state.batch = batch

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        self.state.batch = 0


class UpdateEpochStateCallback(Callback):
    """Keeps `state.epoch` the number of epochs done, counted across restarts."""

    def __init__(self, state: Any):
        super().__init__()
        self.backend = K
        self.state = state
        self.initial_epoch = self.state.epoch

    def on_train_begin(self, logs: Optional[dict] = None) -> None:
        self.initial_epoch = self.state.epoch

    def on_epoch_end(self, epoch: int, logs: Optional[dict] = None) -> None:
        self.state.epoch = self.initial_epoch + epoch + 1
