"""`tf.keras.utils` numpy helpers: one-hot and ordinal encodings, normalization."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

__all__ = ["to_categorical", "to_ordinal", "normalize"]


def _class_vector(y: Any) -> tuple:
    """(flat int classes, shape of the leading axes): a trailing axis of 1 is dropped."""
    y = np.array(y, dtype="int")
    input_shape = y.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    return y.reshape(-1), input_shape


def to_categorical(y: Any, num_classes: Optional[int] = None, dtype: str = "float32"
                   ) -> np.ndarray:
    """Integer class vector -> one-hot matrix (a trailing axis of size 1 is dropped)."""
    y, input_shape = _class_vector(y)
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    n = y.shape[0]
    categorical = np.zeros((n, num_classes), dtype=dtype)
    categorical[np.arange(n), y] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def to_ordinal(y: Any, num_classes: Optional[int] = None, dtype: str = "float32"
               ) -> np.ndarray:
    """Integer class vector -> ordinal matrix: class k has k leading ones in
    `num_classes - 1` columns."""
    y, input_shape = _class_vector(y)
    if not num_classes:
        num_classes = int(np.max(y)) + 1
    ranks = np.arange(num_classes - 1)
    ordinal = (ranks[None, :] < y[:, None]).astype(dtype)
    return np.reshape(ordinal, input_shape + (num_classes - 1,))


def normalize(x: Any, axis: int = -1, order: int = 2) -> np.ndarray:
    """x divided by its `order`-norm along `axis` (zero norms left as is)."""
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
