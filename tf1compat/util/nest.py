"""`tf.nest`: flatten/pack nested structures (lists, tuples, namedtuples, dicts)."""

from __future__ import annotations

from typing import Any, Callable, List

__all__ = ["flatten", "pack_sequence_as", "map_structure", "assert_same_structure",
           "is_nested", "is_sequence"]


def is_nested(structure: Any) -> bool:
    return isinstance(structure, (list, tuple, dict))


is_sequence = is_nested


def _sorted_keys(d: dict) -> list:
    try:
        return sorted(d)
    except TypeError:
        return list(d)


def flatten(structure: Any, expand_composites: bool = False) -> List[Any]:
    """Leaves of `structure` in TF's order (dicts by sorted key)."""
    if isinstance(structure, dict):
        out: List[Any] = []
        for k in _sorted_keys(structure):
            out.extend(flatten(structure[k]))
        return out
    if isinstance(structure, (list, tuple)):
        out = []
        for item in structure:
            out.extend(flatten(item))
        return out
    return [structure]


def _pack(structure: Any, flat: List[Any], index: int) -> Any:
    if isinstance(structure, dict):
        result = {}
        for k in _sorted_keys(structure):
            result[k], index = _pack(structure[k], flat, index)
        return type(structure)((k, result[k]) for k in structure) if not isinstance(
            structure, type({})) else {k: result[k] for k in structure}, index
    if isinstance(structure, (list, tuple)):
        items = []
        for item in structure:
            value, index = _pack(item, flat, index)
            items.append(value)
        if isinstance(structure, tuple) and hasattr(structure, "_fields"):
            return type(structure)(*items), index
        return type(structure)(items), index
    return flat[index], index + 1


def pack_sequence_as(structure: Any, flat_sequence: Any, expand_composites: bool = False) -> Any:
    flat = list(flat_sequence)
    n = len(flatten(structure))
    if n != len(flat):
        raise ValueError(f"Could not pack sequence. Structure had {n} elements, but "
                         f"flat_sequence had {len(flat)} elements.")
    value, _ = _pack(structure, flat, 0)
    return value


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    def shape_of(s: Any) -> Any:
        if isinstance(s, dict):
            return ("dict" if check_types else "", tuple((k, shape_of(s[k]))
                                                        for k in _sorted_keys(s)))
        if isinstance(s, (list, tuple)):
            kind = type(s).__name__ if check_types else "seq"
            return (kind, tuple(shape_of(x) for x in s))
        return None
    if shape_of(nest1) != shape_of(nest2):
        raise ValueError(f"The two structures don't have the same nested structure.\n\n"
                         f"First structure: {nest1}\n\nSecond structure: {nest2}")


def map_structure(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    check_types = kwargs.pop("check_types", True)
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('nest', globals())
