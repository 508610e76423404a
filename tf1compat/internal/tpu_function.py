"""`tensorflow.python.tpu.tpu_function` (TF 1.15: also
`tensorflow.contrib.tpu.python.tpu.tpu_function`): the thread's TPU computation context.
Models read `get_tpu_context().number_of_shards` to decide on cross-replica work (the
TpuBatchNormalization of tensorflow/tpu's efficientnet and mnasnet); it is None outside a
sharded TPU computation, which is always the case here (no TPU: TPUEstimator runs with
use_tpu=False), so those models take their single-replica path.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Callable, Iterator, Optional

__all__ = ["TpuContext", "tpu_shard_context", "get_tpu_context", "on_device_training_loop"]


class TpuContext(threading.local):
    """The number of shards of the TPU computation being built (None when none is)."""

    def __init__(self) -> None:
        super().__init__()
        self._number_of_shards: Optional[int] = None

    @property
    def number_of_shards(self) -> Optional[int]:
        return self._number_of_shards

    def set_number_of_shards(self, number_of_shards: Optional[int]) -> None:
        self._number_of_shards = number_of_shards


_CURRENT = TpuContext()


@contextlib.contextmanager
def tpu_shard_context(number_of_shards: int) -> Iterator[None]:
    """Sets the number of shards inside the block (not nestable, as TF)."""
    if _CURRENT.number_of_shards is not None:
        raise NotImplementedError("tpu_shard_context cannot be nested.")
    try:
        _CURRENT.set_number_of_shards(number_of_shards)
        yield
    finally:
        _CURRENT.set_number_of_shards(None)


def get_tpu_context() -> TpuContext:
    """This thread's TpuContext."""
    return _CURRENT


def on_device_training_loop(func: Callable) -> Callable:
    """Marks a TPU computation function's training loop for TF's step markers."""
    func.step_marker_location = "STEP_MARK_AT_TOP_LEVEL_WHILE_LOOP"
    return func
