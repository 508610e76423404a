"""The python-pickle batches of CIFAR-10 and CIFAR-100 (`data_batch_N`, `test_batch`;
`train`, `test`), read as tf-keras reads them but without running pickled code."""

from __future__ import annotations

from typing import Any, Tuple

import numpy as np

from tf1compat.keras.backend_core import image_data_format
from tf1compat.keras.datasets._cache import restricted_unpickle

__all__ = ["load_batch", "to_data_format"]


def load_batch(path: str, label_key: str = "labels") -> Tuple[np.ndarray, Any]:
    """(images as (N, 3, 32, 32), the batch's `label_key` entry as stored: a list)."""
    with open(path, "rb") as f:
        batch = restricted_unpickle(f)
    # The files are Python 2 pickles: their str keys load as bytes.
    batch = {k.decode("utf8"): v for k, v in batch.items()}
    data = batch["data"]
    return data.reshape(data.shape[0], 3, 32, 32), batch[label_key]


def to_data_format(images: np.ndarray) -> np.ndarray:
    """NCHW batches as `tf.keras.backend.image_data_format()` wants them (a transposed
    view for "channels_last", as tf-keras returns)."""
    if image_data_format() == "channels_last":
        return images.transpose(0, 2, 3, 1)
    return images
