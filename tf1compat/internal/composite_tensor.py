"""`tensorflow.python.framework.composite_tensor` and `.type_spec`: the base classes of
TF's composite tensors and their specs, which libraries subclass (TensorFlow
Probability's `TensorTuple` for distributions over tuples).

tf1compat's own composite values (SparseTensor, IndexedSlices, RaggedTensor) are not
subclasses: `tf.nest`'s `expand_composites` and Keras do not take user subclasses apart,
so only what a subclass implements itself works on it.
"""

import abc
from typing import Any

from tf1compat.data.structure import TypeSpec, type_spec_from_value

__all__ = ["CompositeTensor", "TypeSpec", "BatchableTypeSpec", "type_spec_from_value"]


class CompositeTensor(metaclass=abc.ABCMeta):
    """A value made of several tensors, described by its `_type_spec`."""

    @abc.abstractproperty
    def _type_spec(self) -> TypeSpec:
        """The TypeSpec of this value."""

    def _shape_invariant_to_type_spec(self, shape: Any) -> TypeSpec:
        raise NotImplementedError(
            f"{type(self).__name__} does not support tf.while_loop(shape_invariants)")

    def _consumers(self) -> list:
        return []


class BatchableTypeSpec(TypeSpec):
    """A TypeSpec whose values can be batched and unbatched along a first dimension."""

    def _batch(self, batch_size: Any) -> TypeSpec:
        raise NotImplementedError(f"{type(self).__name__}._batch")

    def _unbatch(self) -> TypeSpec:
        raise NotImplementedError(f"{type(self).__name__}._unbatch")
