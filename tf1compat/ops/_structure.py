"""Nested structures for control flow: TF's `nest` rules and its structure errors.

Branch and loop results are (possibly nested) lists, tuples, namedtuples and dicts of
tensors, TensorArrays and Python values. Flattening follows `tf.nest` (dicts by sorted
key); `assert_same_structure` raises TypeError for a different sequence type and
ValueError for a different length, key set or nesting, as TF's does.
"""

from __future__ import annotations

from typing import Any, List

from tf1compat.util import nest as _nest

__all__ = ["flatten", "pack", "is_nested", "assert_same_structure", "unpack_singleton"]

flatten = _nest.flatten
is_nested = _nest.is_nested


def pack(structure: Any, flat: List[Any]) -> Any:
    """`nest.pack_sequence_as`."""
    return _nest.pack_sequence_as(structure, flat)


def _kind(s: Any) -> str:
    if isinstance(s, dict):
        return "dict"
    return type(s).__name__


def assert_same_structure(a: Any, b: Any) -> None:
    """Raises TF's TypeError/ValueError when `a` and `b` are not nested alike."""
    _check(a, b, a, b)


def _check(a: Any, b: Any, top_a: Any, top_b: Any) -> None:
    nested_a, nested_b = is_nested(a), is_nested(b)
    if nested_a != nested_b:
        raise ValueError(
            "The two structures don't have the same nested structure.\n\n"
            f"First structure: {top_a}\n\nSecond structure: {top_b}\n\nMore specifically: "
            f"Substructure \"type={_kind(a if nested_a else b)}\" is a sequence, while "
            f"substructure \"type={_kind(b if nested_a else a)}\" is not")
    if not nested_a:
        return
    if isinstance(a, dict) != isinstance(b, dict) or (
            not isinstance(a, dict) and _seq_type(a) != _seq_type(b)):
        raise TypeError(
            "The two structures don't have the same sequence type. Input structure has "
            f"type {_kind(a)}, while shallow structure has type {_kind(b)}.")
    if isinstance(a, dict):
        if set(a) != set(b):
            raise ValueError(
                "The two dictionaries don't have the same set of keys. First structure has "
                f"keys {sorted(a, key=str)}, while second structure has keys "
                f"{sorted(b, key=str)}.")
        for k in a:
            _check(a[k], b[k], top_a, top_b)
        return
    if len(a) != len(b):
        raise ValueError(
            "The two structures don't have the same number of elements.\n\n"
            f"First structure ({len(a)} elements): {top_a}\n\n"
            f"Second structure ({len(b)} elements): {top_b}")
    for x, y in zip(a, b):
        _check(x, y, top_a, top_b)


def _seq_type(s: Any) -> type:
    # namedtuples compare by class; plain lists and tuples by kind.
    return type(s)


def unpack_singleton(res: Any) -> Any:
    """A one-element list or tuple becomes its element (non-strict cond/case)."""
    if isinstance(res, (list, tuple)) and len(res) == 1:
        return res[0]
    return res
