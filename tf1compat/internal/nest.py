"""`tensorflow.python.util.nest` (also `tf.contrib.framework.nest`): `tf.nest` plus the
functions TF1 libraries import from the internal module — the "up to" family that maps or
flattens a structure only as deep as a shallower one (`assert_shallow_structure`,
`flatten_up_to`, `map_structure_up_to`), the path family (`yield_flat_paths`,
`flatten_with_joined_string_paths`, `map_structure_with_paths`, ...) and
`flatten_dict_items`. Dicts go by sorted key, as everywhere in nest."""

from __future__ import annotations

from typing import Any, Callable, Iterator, List, Tuple

from tf1compat.util.nest import (_sorted_keys, assert_same_structure, flatten, is_nested,
                                 is_sequence, map_structure, pack_sequence_as)

__all__ = ["assert_same_structure", "flatten", "is_nested", "is_sequence", "map_structure",
           "pack_sequence_as", "is_sequence_or_composite", "assert_shallow_structure",
           "flatten_up_to", "map_structure_up_to", "yield_flat_paths",
           "flatten_with_tuple_paths", "flatten_with_joined_string_paths",
           "map_structure_with_paths", "map_structure_with_tuple_paths",
           "flatten_dict_items"]

is_sequence_or_composite = is_nested


def _children(structure: Any) -> List[Tuple[Any, Any]]:
    """(key, value) pairs of a nested value: sorted keys of a dict, indices of a sequence."""
    if isinstance(structure, dict):
        return [(k, structure[k]) for k in _sorted_keys(structure)]
    return list(enumerate(structure))


def _is_namedtuple(value: Any) -> bool:
    return isinstance(value, tuple) and hasattr(value, "_fields")


def assert_shallow_structure(shallow_tree: Any, input_tree: Any, check_types: bool = True,
                             expand_composites: bool = False) -> None:
    """Raises TF's TypeError/ValueError unless `input_tree` holds `shallow_tree`'s
    structure at its top (deeper parts of `input_tree` may be anything)."""
    if not is_nested(shallow_tree):
        return
    if not is_nested(input_tree):
        raise TypeError("If shallow structure is a sequence, input must also be a sequence. "
                        f"Input has type: {type(input_tree)}.")
    if check_types and not isinstance(input_tree, type(shallow_tree)):
        alike_namedtuples = (_is_namedtuple(shallow_tree) and _is_namedtuple(input_tree)
                             and type(shallow_tree).__name__ == type(input_tree).__name__
                             and shallow_tree._fields == input_tree._fields)
        both_dicts = isinstance(shallow_tree, dict) and isinstance(input_tree, dict)
        if not (alike_namedtuples or both_dicts):
            raise TypeError("The two structures don't have the same sequence type. Input "
                            f"structure has type {type(input_tree)}, while shallow structure "
                            f"has type {type(shallow_tree)}.")
    if len(input_tree) != len(shallow_tree):
        raise ValueError("The two structures don't have the same sequence length. Input "
                         f"structure has length {len(input_tree)}, while shallow structure "
                         f"has length {len(shallow_tree)}.")
    if isinstance(shallow_tree, dict):
        absent = set(shallow_tree) - set(input_tree)
        if absent:
            raise ValueError("The shallow_tree's keys are not a subset of the input_tree's "
                             "keys. The shallow_tree has the following keys that are not in "
                             f"the input_tree: {sorted(absent)}.")
        pairs = [(shallow_tree[k], input_tree[k]) for k in _sorted_keys(shallow_tree)]
    else:
        pairs = list(zip(shallow_tree, input_tree))
    for shallow_branch, input_branch in pairs:
        assert_shallow_structure(shallow_branch, input_branch, check_types=check_types)


def _flatten_up_to_unchecked(shallow_tree: Any, input_tree: Any) -> List[Any]:
    if not is_nested(shallow_tree):
        return [input_tree]
    if isinstance(shallow_tree, dict):
        branches = [(shallow_tree[k], input_tree[k]) for k in _sorted_keys(shallow_tree)]
    else:
        branches = list(zip(shallow_tree, input_tree))
    return [leaf for shallow, value in branches
            for leaf in _flatten_up_to_unchecked(shallow, value)]


def flatten_up_to(shallow_tree: Any, input_tree: Any, check_types: bool = True,
                  expand_composites: bool = False) -> List[Any]:
    """`input_tree` flattened only down to `shallow_tree`'s leaves (what lies below one of
    them stays whole)."""
    assert_shallow_structure(shallow_tree, input_tree, check_types=check_types)
    return _flatten_up_to_unchecked(shallow_tree, input_tree)


def map_structure_up_to(shallow_tree: Any, func: Callable[..., Any], *inputs: Any,
                        **kwargs: Any) -> Any:
    """`func` applied to the parts of `inputs` at `shallow_tree`'s leaves, packed into
    `shallow_tree`'s structure."""
    if not inputs:
        raise ValueError("Cannot map over no sequences")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    for value in inputs:
        assert_shallow_structure(shallow_tree, value, check_types=check_types)
    flats = [_flatten_up_to_unchecked(shallow_tree, value) for value in inputs]
    results = [func(*args, **kwargs) for args in zip(*flats)]
    return pack_sequence_as(shallow_tree, results)


def yield_flat_paths(nest: Any, expand_composites: bool = False) -> Iterator[Tuple[Any, ...]]:
    """The key path (a tuple of dict keys and sequence indices) of each leaf, in flatten's
    order."""
    if not is_nested(nest):
        yield ()
        return
    for key, value in _children(nest):
        for path in yield_flat_paths(value):
            yield (key,) + path


def flatten_with_tuple_paths(structure: Any, expand_composites: bool = False
                             ) -> List[Tuple[Tuple[Any, ...], Any]]:
    """(key path, leaf) pairs in flatten's order."""
    return list(zip(yield_flat_paths(structure), flatten(structure)))


def flatten_with_joined_string_paths(structure: Any, separator: str = "/",
                                     expand_composites: bool = False
                                     ) -> List[Tuple[str, Any]]:
    """(path joined with `separator`, leaf) pairs in flatten's order."""
    return [(separator.join(str(k) for k in path), leaf)
            for path, leaf in flatten_with_tuple_paths(structure)]


def map_structure_with_tuple_paths(func: Callable[..., Any], *structure: Any,
                                   **kwargs: Any) -> Any:
    """`func(key_path, *leaves)` over structures nested alike."""
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", None)
    for other in structure[1:]:
        assert_same_structure(structure[0], other, check_types=check_types)
    paths = list(yield_flat_paths(structure[0]))
    flats = [flatten(s) for s in structure]
    return pack_sequence_as(structure[0], [func(path, *leaves, **kwargs)
                                           for path, *leaves in zip(paths, *flats)])


def map_structure_with_paths(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    """`func(path, *leaves)` with the path's keys joined by "/"."""
    return map_structure_with_tuple_paths(
        lambda path, *leaves, **kw: func("/".join(str(k) for k in path), *leaves, **kw),
        *structure, **kwargs)


def flatten_dict_items(dictionary: dict) -> dict:
    """A dict whose keys may be nested structures of keys (matching their values'
    structure) flattened into one key -> value per leaf."""
    if not isinstance(dictionary, dict):
        raise TypeError("input must be a dictionary")
    flat: dict = {}
    for key, value in dictionary.items():
        if not is_nested(key):
            if key in flat:
                raise ValueError(f"Could not flatten dictionary: key {key} is not unique.")
            flat[key] = value
            continue
        keys, values = flatten(key), flatten_up_to(key, value, check_types=False)
        if len(keys) != len(values):
            raise ValueError("Could not flatten dictionary. Key had "
                             f"{len(keys)} elements, but value had {len(values)} elements. "
                             f"Key: {key}, value: {value}.")
        for leaf_key, leaf_value in zip(keys, values):
            if leaf_key in flat:
                raise ValueError(f"Could not flatten dictionary: key {leaf_key} is not "
                                 "unique.")
            flat[leaf_key] = leaf_value
    return flat
