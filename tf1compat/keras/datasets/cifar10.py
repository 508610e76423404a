"""`tf.keras.datasets.cifar10.load_data()` from `~/.keras/datasets/cifar-10-batches-py/`."""

from __future__ import annotations

import os
from typing import Optional, Tuple

import numpy as np

from tf1compat.keras.datasets._cache import cache_path
from tf1compat.keras.datasets._cifar import load_batch, to_data_format

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-10-python.tar.gz"
DATA_HASH = "6d958be074577803d12ecdefd02955f39262c83c16fe9348329d7fe0b5c001ce"


def load_data(cache_dir: Optional[str] = None
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 32, 32, 3) under
    "channels_last" (else (N, 3, 32, 32)); labels (N, 1), uint8 for train and int64 for
    test, as tf-keras returns them."""
    folder = "cifar-10-batches-py"
    x_train = np.empty((50000, 3, 32, 32), dtype="uint8")
    y_train = np.empty((50000,), dtype="uint8")
    for i in range(1, 6):
        path = cache_path(os.path.join(folder, f"data_batch_{i}"), ORIGIN, DATA_HASH,
                          cache_dir)
        x_train[(i - 1) * 10000:i * 10000], y_train[(i - 1) * 10000:i * 10000] = \
            load_batch(path)
    x_test, y_test = load_batch(cache_path(os.path.join(folder, "test_batch"), ORIGIN,
                                           DATA_HASH, cache_dir))
    return ((to_data_format(x_train), np.reshape(y_train, (len(y_train), 1))),
            (to_data_format(x_test).astype(x_train.dtype),
             np.reshape(y_test, (len(y_test), 1))))
