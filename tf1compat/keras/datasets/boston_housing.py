"""`tf.keras.datasets.boston_housing`: 506 Boston suburbs' 13 attributes and median house
value (k$), from `~/.keras/datasets/boston_housing.npz`, shuffled and split as tf-keras
2.21 does."""

from __future__ import annotations

from typing import Optional, Tuple

import numpy as np

from tf1compat.keras.datasets._cache import cache_path, load_npz

__all__ = ["load_data"]

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/boston_housing.npz"
DATA_HASH = "f553886a1f8d56431e820c5b82552d9d95cfcb96d1e678153f8839538947dff5"


def load_data(path: str = "boston_housing.npz", test_split: float = 0.2, seed: int = 113,
              cache_dir: Optional[str] = None
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)) float64: x (n, 13), y (n,). The rows are
    shuffled by `np.random.RandomState(seed)`; the first `int(n * (1 - test_split))` are
    the train split. `test_split` outside [0, 1) is an AssertionError, as in tf-keras."""
    if not 0 <= test_split < 1:
        raise AssertionError()
    arrays = load_npz(cache_path(path, ORIGIN, DATA_HASH, cache_dir))
    x, y = arrays["x"], arrays["y"]
    order = np.arange(len(x))
    np.random.RandomState(seed).shuffle(order)
    x, y = x[order], y[order]
    split = int(len(x) * (1 - test_split))
    return ((np.array(x[:split]), np.array(y[:split])),
            (np.array(x[split:]), np.array(y[split:])))
