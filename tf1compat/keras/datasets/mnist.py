"""`tf.keras.datasets.mnist.load_data()` from `~/.keras/datasets/mnist.npz`."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from tf1compat.keras.datasets._cache import cache_path

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/mnist.npz"
DATA_HASH = "731c5ac602752760c8e48fbffcf8c3b850d9dc2a2aedcf2cc48468fc17b673d1"


def load_data(path: str = "mnist.npz", cache_dir: Optional[str] = None
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)) as uint8 arrays; `path` is relative to the
    cache's `datasets/` (`cache_dir`'s when given)."""
    with np.load(cache_path(path, ORIGIN, DATA_HASH, cache_dir), allow_pickle=False) as f:
        return (f["x_train"], f["y_train"]), (f["x_test"], f["y_test"])
