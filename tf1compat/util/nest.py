"""`tf.nest`: flatten/pack nested structures (lists, tuples, namedtuples, dicts)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

__all__ = ["flatten", "pack_sequence_as", "map_structure", "assert_same_structure",
           "is_nested", "is_sequence"]


def is_nested(seq: Any) -> bool:
    """Whether `seq` is a list, tuple or dict (TF's parameter name)."""
    return isinstance(seq, (list, tuple, dict))


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


class _Dot:
    """A leaf as TF's structure errors draw it."""

    def __repr__(self) -> str:
        return "."


def _describe(s: Any) -> str:
    return f"type={type(s).__name__} str={s}"


def _mismatch(a: Any, b: Any, check_types: bool) -> Optional[Tuple[type, str]]:
    """The first difference between `a` and `b` as (exception class, TF's detail text)."""
    nested_a, nested_b = is_nested(a), is_nested(b)
    if nested_a != nested_b:
        seq, other = (a, b) if nested_a else (b, a)
        return ValueError, (f'Substructure "{_describe(seq)}" is a sequence, while '
                            f'substructure "{_describe(other)}" is not')
    if not nested_a:
        return None
    if check_types and type(a) is not type(b) and not (
            isinstance(a, dict) and isinstance(b, dict)):
        return TypeError, (
            "The two namedtuples don't have the same sequence type. First structure "
            f"{_describe(a)} has type {type(a).__name__}, while second structure "
            f"{_describe(b)} has type {type(b).__name__}")
    if isinstance(a, dict) or isinstance(b, dict):
        keys_a, keys_b = _sorted_keys(a), _sorted_keys(b)
        if not isinstance(a, dict) or not isinstance(b, dict) or set(keys_a) != set(keys_b):
            return ValueError, (
                "The two dictionaries don't have the same set of keys. First structure has "
                f"keys {_describe(keys_a)}, while second structure has keys "
                f"{_describe(keys_b)}")
        pairs = [(a[k], b[k]) for k in keys_a]
    else:
        if len(a) != len(b):
            return ValueError, (
                "The two structures don't have the same number of elements. First "
                f"structure: {_describe(a)}. Second structure: {_describe(b)}")
        pairs = list(zip(a, b))
    for x, y in pairs:
        found = _mismatch(x, y, check_types)
        if found is not None:
            return found
    return None


def assert_same_structure(nest1: Any, nest2: Any, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    """Raises TF's ValueError (or TypeError for different sequence types) when the two
    structures are not nested alike, with TF's message."""
    found = _mismatch(nest1, nest2, check_types)
    if found is None:
        return
    cls, detail = found
    dots1 = map_structure(lambda _: _Dot(), nest1)
    dots2 = map_structure(lambda _: _Dot(), nest2)
    raise cls("The two structures don't have the same nested structure.\n\n"
              f"First structure: {_describe(nest1)}\n\nSecond structure: "
              f"{_describe(nest2)}\n\nMore specifically: {detail}\n"
              f"Entire first structure:\n{dots1}\nEntire second structure:\n{dots2}")


def map_structure(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    check_types = kwargs.pop("check_types", True)
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(*xs) for xs in zip(*flats)])


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('nest', globals())
