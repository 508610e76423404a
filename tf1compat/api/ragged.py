"""`tf.ragged` (TF 1.15's names; those tf1compat lacks raise NotImplementedError)."""

# ruff: noqa: F401
from typing import Any

# Imported for their registrations: tf.concat/stack/gather/reduce_* given RaggedTensors (ops/dispatch.py).
from tf1compat.ragged import ragged_concat as _ragged_concat
from tf1compat.ragged import ragged_reduce as _ragged_reduce
from tf1compat.ragged.ragged_factory import (constant, constant_value, placeholder, range,
                                             row_splits_to_segment_ids,
                                             segment_ids_to_row_splits)
from tf1compat.ragged.ragged_concat import stack
from tf1compat.ragged.ragged_math import map_flat_values
from tf1compat.ragged.ragged_tensor import RaggedTensorValue

_MISSING = ("boolean_mask", "stack_dynamic_partitions", "cross", "cross_hashed")


def __getattr__(name: str) -> Any:
    if name in _MISSING:
        raise NotImplementedError(f"tf.ragged.{name} is not supported by tf1compat (RaggedTensor "
                                  "support covers the factories, conversions, indexing and "
                                  "elementwise math)")
    raise AttributeError(f"module 'tf.ragged' has no attribute {name!r}")
