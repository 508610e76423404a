"""`tf.keras.datasets.cifar100`: 50,000 train and 10,000 test 32x32 colour images with
fine (100) or coarse (20) labels, from `~/.keras/datasets/cifar-100-python/` (the
python-pickle batches of cifar-100-python.tar.gz), as tf-keras 2.21 loads them."""

from __future__ import annotations

import os
from typing import Optional, Tuple

import numpy as np

from tf1compat.keras.datasets._cache import cache_path
from tf1compat.keras.datasets._cifar import load_batch, to_data_format

__all__ = ["load_data"]

ORIGIN = "https://www.cs.toronto.edu/~kriz/cifar-100-python.tar.gz"
DATA_HASH = "85cd44d02ba6437773c5bbd22e183051d648de2e7d6b014e1ef29b855ba677a7"


def load_data(label_mode: str = "fine", cache_dir: Optional[str] = None
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)): uint8 images (N, 32, 32, 3) under
    "channels_last" (else (N, 3, 32, 32)), int64 labels (N, 1) of `label_mode` "fine" or
    "coarse" (anything else is a ValueError)."""
    if label_mode not in ("fine", "coarse"):
        raise ValueError('`label_mode` must be one of `"fine"`, `"coarse"`. '
                         f"Received: label_mode={label_mode}.")
    splits = []
    for name in ("train", "test"):
        path = cache_path(os.path.join("cifar-100-python", name), ORIGIN, DATA_HASH,
                          cache_dir)
        images, labels = load_batch(path, label_key=label_mode + "_labels")
        splits.append((to_data_format(images), np.reshape(labels, (len(labels), 1))))
    return splits[0], splits[1]
