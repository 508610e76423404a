"""`tf.keras.datasets.fashion_mnist.load_data()` from `~/.keras/datasets/fashion-mnist/`."""

from __future__ import annotations

import gzip
import os
from typing import Optional, Tuple

import numpy as np

from tf1compat.keras.datasets._cache import cache_path

ORIGIN = "https://storage.googleapis.com/tensorflow/tf-keras-datasets/"
FILES = ["train-labels-idx1-ubyte.gz", "train-images-idx3-ubyte.gz",
         "t10k-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz"]


def load_data(cache_dir: Optional[str] = None
              ) -> Tuple[Tuple[np.ndarray, np.ndarray], Tuple[np.ndarray, np.ndarray]]:
    """((x_train, y_train), (x_test, y_test)) as uint8 arrays, images (N, 28, 28)."""
    paths = [cache_path(os.path.join("fashion-mnist", f), ORIGIN + f, keras_dir=cache_dir)
             for f in FILES]
    with gzip.open(paths[0], "rb") as f:
        y_train = np.frombuffer(f.read(), np.uint8, offset=8)
    with gzip.open(paths[1], "rb") as f:
        x_train = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(y_train), 28, 28)
    with gzip.open(paths[2], "rb") as f:
        y_test = np.frombuffer(f.read(), np.uint8, offset=8)
    with gzip.open(paths[3], "rb") as f:
        x_test = np.frombuffer(f.read(), np.uint8, offset=16).reshape(len(y_test), 28, 28)
    return (x_train, y_train), (x_test, y_test)
