"""`tf.ragged` (TF 1.15's names; those tf1compat lacks raise NotImplementedError)."""

# ruff: noqa: F401
from tf1compat.framework.missing import attribute_hook as _attribute_hook
# Imported for their registrations: tf.concat/stack/gather/reduce_*/where/tile ... given
# RaggedTensors (ops/dispatch.py).
from tf1compat.ragged import ragged_concat as _ragged_concat
from tf1compat.ragged.ragged_array import boolean_mask, stack_dynamic_partitions
from tf1compat.ragged import ragged_reduce as _ragged_reduce
from tf1compat.ragged.ragged_factory import (constant, constant_value, placeholder, range,
                                             row_splits_to_segment_ids,
                                             segment_ids_to_row_splits)
from tf1compat.ragged.ragged_concat import stack
from tf1compat.ragged.ragged_math import map_flat_values
from tf1compat.ragged.ragged_tensor import RaggedTensorValue

__getattr__ = _attribute_hook("ragged", globals())
