"""`Tensor.ref()` / `Variable.ref()`: TF's hashable reference wrapper
(tensorflow/python/util/object_identity.py's `Reference`).

TF 2's tensors are unhashable, so TF code keys dicts and sets by `t.ref()`; TF1 code
running under TF 2's compat.v1 does too (feeds keyed by reference in Session internals
and libraries). A reference hashes and compares by the identity of what it wraps.
"""

from __future__ import annotations

from typing import Any

__all__ = ["Reference"]


class Reference:
    """A hashable reference to a tensor or variable, equal for the same object;
    `deref()` gives it back."""

    __slots__ = ("_wrapped",)

    def __init__(self, wrapped: Any):
        self._wrapped = wrapped

    def deref(self) -> Any:
        """The object this reference wraps."""
        return self._wrapped

    def __hash__(self) -> int:
        return id(self._wrapped)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, Reference) and other._wrapped is self._wrapped

    def __repr__(self) -> str:
        return f"<Reference wrapping {self._wrapped!r}>"
