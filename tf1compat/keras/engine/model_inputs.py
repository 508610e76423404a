"""Placeholders for a model that learns its inputs from the first data it sees
(tf-keras's `ModelInputs`): `input_1`, `input_2`, ... (dict inputs: sorted keys), shaped
`(None,) + data.shape[1:]`, float data as `K.floatx()`."""

from __future__ import annotations

from typing import Any, List, Tuple

import numpy as np

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend

__all__ = ["symbolic_inputs"]


def _placeholder_for(value: Any, name: str) -> Any:
    if isinstance(value, (list, float, int)):
        value = np.asarray(value)
        if value.ndim == 1:
            value = np.expand_dims(value, 1)
    if isinstance(value, np.ndarray):
        shape = (None,) + tuple(value.shape[1:])
        if shape == (None,):
            shape = (None, 1)
        dtype = D.as_dtype(value.dtype)
        if dtype.is_floating:
            dtype = D.as_dtype(backend.floatx())
        return backend.placeholder(shape=shape, name=name, dtype=dtype)
    if isinstance(value, Tensor):
        return value
    if hasattr(value, "shape") and hasattr(value, "dtype"):   # a TensorSpec
        shape = (None,) + tuple(value.shape.as_list()[1:])
        if shape == (None,):
            shape = (None, 1)
        return backend.placeholder(shape=shape, name=name, dtype=value.dtype)
    raise ValueError(f"Unexpected model input data of type {type(value).__name__}")


def symbolic_inputs(inputs: Any) -> Tuple[Any, List[Any], List[str]]:
    """(inputs as the model is called on them, flat list, names)."""
    if isinstance(inputs, dict):
        names = sorted(inputs)
        flat = [_placeholder_for(inputs[k], k) for k in names]
        return dict(zip(names, flat)), flat, names
    values = nest.flatten(inputs)
    names = [f"input_{i + 1}" for i in range(len(values))]
    flat = [_placeholder_for(v, n) for v, n in zip(values, names)]
    if not isinstance(inputs, (list, tuple)):
        return flat[0], flat, names
    return flat, flat, names
