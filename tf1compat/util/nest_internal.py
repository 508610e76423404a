"""`tensorflow.python.util.nest`, which TF 1.x also exports as `tf.contrib.framework.nest`.

The public `tf.nest` (util/nest.py) plus what DeepMind-era libraries use from the full
module: TF 1.x's `is_sequence`, the "up to" family that walks only as deep as a shallow
structure (`assert_shallow_structure`, `flatten_up_to`, `map_structure_up_to`, ... - Sonnet
v1's `nest.map_up_to`, graph_nets), paths (`flatten_with_joined_string_paths`,
`map_structure_with_paths`, `yield_flat_paths`), `get_traverse_shallow_structure` and
`flatten_dict_items`. Messages are TF 1.15's. Structures are those util/nest.py flattens
(lists, tuples, namedtuples, dicts); `expand_composites` is accepted and changes nothing
(tf1compat's sparse tensors are not nested structures).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Iterator, List, Tuple

from tf1compat.util.nest import (assert_same_structure, flatten, is_nested, is_sequence,
                                 map_structure, pack_sequence_as)
from tf1compat.util.nest import _sorted_keys

__all__ = ["assert_same_structure", "flatten", "is_nested", "is_sequence",
           "is_sequence_or_composite", "map_structure", "pack_sequence_as",
           "assert_shallow_structure", "flatten_up_to", "flatten_with_tuple_paths_up_to",
           "map_structure_up_to", "map_structure_with_tuple_paths_up_to",
           "map_structure_with_paths", "map_structure_with_tuple_paths",
           "get_traverse_shallow_structure", "yield_flat_paths",
           "flatten_with_joined_string_paths", "flatten_with_tuple_paths",
           "flatten_dict_items"]

is_sequence_or_composite = is_sequence

_SHALLOW_TREE_HAS_INVALID_KEYS = (
    "The shallow_tree's keys are not a subset of the input_tree's keys. The "
    "shallow_tree has the following keys that are not in the input_tree: {}.")
_STRUCTURES_HAVE_MISMATCHING_TYPES = (
    "The two structures don't have the same sequence type. Input structure has "
    "type {input_type}, while shallow structure has type {shallow_type}.")
_STRUCTURES_HAVE_MISMATCHING_LENGTHS = (
    "The two structures don't have the same sequence length. Input "
    "structure has length {input_length}, while shallow structure has length "
    "{shallow_length}.")
_INPUT_TREE_SMALLER_THAN_SHALLOW_TREE = (
    "The input_tree has fewer elements than the shallow_tree. Input structure "
    "has length {input_size}, while shallow structure has length {shallow_size}.")


def _is_namedtuple(x: Any) -> bool:
    return isinstance(x, tuple) and hasattr(x, "_fields")


def _sorted_items(structure: Any) -> Iterator[Tuple[Any, Any]]:
    """(key, value) pairs in TF's order: dicts by sorted key, namedtuples by field,
    sequences by index."""
    if isinstance(structure, dict):
        for key in _sorted_keys(structure):
            yield key, structure[key]
    elif _is_namedtuple(structure):
        for field in structure._fields:
            yield field, getattr(structure, field)
    else:
        yield from enumerate(structure)


def _values(structure: Any) -> Iterator[Any]:
    for _, value in _sorted_items(structure):
        yield value


def _sequence_like(instance: Any, args: List[Any]) -> Any:
    """A structure of `instance`'s type holding `args` (in `_sorted_items` order)."""
    if isinstance(instance, dict):
        result = dict(zip(_sorted_keys(instance), args))
        items = [(key, result[key]) for key in instance]
        return {k: v for k, v in items} if type(instance) is dict else type(instance)(items)
    if _is_namedtuple(instance):
        return type(instance)(*args)
    return type(instance)(args)


def assert_shallow_structure(shallow_tree: Any, input_tree: Any, check_types: bool = True,
                             expand_composites: bool = False,
                             check_subtrees_length: bool = True) -> None:
    """Raises TypeError/ValueError (TF's messages) unless `input_tree` contains
    `shallow_tree`'s structure as its top levels."""
    if not is_sequence(shallow_tree):
        return
    if not is_sequence(input_tree):
        raise TypeError("If shallow structure is a sequence, input must also be a sequence. "
                        f"Input has type: {type(input_tree)}.")
    if check_types and not isinstance(input_tree, type(shallow_tree)):
        both_namedtuples = _is_namedtuple(shallow_tree) and _is_namedtuple(input_tree)
        same_namedtuple = both_namedtuples and \
            type(shallow_tree).__name__ == type(input_tree).__name__ and \
            shallow_tree._fields == input_tree._fields
        both_mappings = isinstance(shallow_tree, dict) and isinstance(input_tree, dict)
        if not (same_namedtuple or both_mappings):
            raise TypeError(_STRUCTURES_HAVE_MISMATCHING_TYPES.format(
                input_type=type(input_tree), shallow_type=type(shallow_tree)))
    if check_subtrees_length and len(input_tree) != len(shallow_tree):
        raise ValueError(_STRUCTURES_HAVE_MISMATCHING_LENGTHS.format(
            input_length=len(input_tree), shallow_length=len(shallow_tree)))
    if len(input_tree) < len(shallow_tree):
        raise ValueError(_INPUT_TREE_SMALLER_THAN_SHALLOW_TREE.format(
            input_size=len(input_tree), shallow_size=len(shallow_tree)))
    if isinstance(shallow_tree, dict):
        absent = set(shallow_tree) - set(input_tree)
        if absent:
            raise ValueError(_SHALLOW_TREE_HAS_INVALID_KEYS.format(sorted(absent)))
    for shallow_branch, input_branch in zip(_values(shallow_tree), _values(input_tree)):
        assert_shallow_structure(shallow_branch, input_branch, check_types=check_types,
                                 check_subtrees_length=check_subtrees_length)


def _flat_up_to(shallow_tree: Any, input_tree: Any, path: tuple = ()
                ) -> Iterator[Tuple[tuple, Any]]:
    if not is_sequence(shallow_tree):
        yield path, input_tree
        return
    inputs = dict(_sorted_items(input_tree))
    for key, shallow_subtree in _sorted_items(shallow_tree):
        yield from _flat_up_to(shallow_subtree, inputs[key], path + (key,))


def flatten_with_tuple_paths_up_to(shallow_tree: Any, input_tree: Any,
                                   check_types: bool = True, expand_composites: bool = False,
                                   check_subtrees_length: bool = True
                                   ) -> List[Tuple[tuple, Any]]:
    """(path, subtree) for each leaf of `shallow_tree`, the subtree taken from
    `input_tree`."""
    assert_shallow_structure(shallow_tree, input_tree, check_types=check_types,
                             check_subtrees_length=check_subtrees_length)
    return list(_flat_up_to(shallow_tree, input_tree))


def flatten_up_to(shallow_tree: Any, input_tree: Any, check_types: bool = True,
                  expand_composites: bool = False, check_subtrees_length: bool = True
                  ) -> List[Any]:
    """`input_tree` flattened only as deep as `shallow_tree`."""
    return [value for _, value in flatten_with_tuple_paths_up_to(
        shallow_tree, input_tree, check_types, check_subtrees_length=check_subtrees_length)]


def map_structure_with_tuple_paths_up_to(shallow_tree: Any, func: Callable[..., Any],
                                         *inputs: Any, **kwargs: Any) -> Any:
    """`func(path, *subtrees)` at each leaf of `shallow_tree`, packed as `shallow_tree`;
    the remaining keyword arguments go to `func`."""
    if not inputs:
        raise ValueError("Cannot map over no sequences")
    check_types = kwargs.pop("check_types", True)
    kwargs.pop("expand_composites", False)
    check_lengths = kwargs.pop("check_subtrees_length", True)
    flat = [flatten_up_to(shallow_tree, x, check_types, check_subtrees_length=check_lengths)
            for x in inputs]
    paths = [path for path, _ in _flat_up_to(shallow_tree, inputs[0])]
    results = [func(*args, **kwargs) for args in zip(paths, *flat)]
    return pack_sequence_as(shallow_tree, results)


def map_structure_up_to(shallow_tree: Any, func: Callable[..., Any], *inputs: Any,
                        **kwargs: Any) -> Any:
    """`func(*subtrees)` at each leaf of `shallow_tree`, packed as `shallow_tree`."""
    return map_structure_with_tuple_paths_up_to(
        shallow_tree, lambda _, *values, **kw: func(*values, **kw), *inputs, **kwargs)


def map_structure_with_tuple_paths(func: Callable[..., Any], *structure: Any,
                                   **kwargs: Any) -> Any:
    """`func(path, *leaves)` over same-shaped structures (paths are key tuples)."""
    return map_structure_with_tuple_paths_up_to(structure[0], func, *structure, **kwargs)


def map_structure_with_paths(func: Callable[..., Any], *structure: Any, **kwargs: Any) -> Any:
    """`func(path, *leaves)` with the path's keys joined by "/"."""
    def with_string_path(tuple_path: tuple, *values: Any, **kw: Any) -> Any:
        return func("/".join(str(s) for s in tuple_path), *values, **kw)
    return map_structure_with_tuple_paths_up_to(structure[0], with_string_path, *structure,
                                                **kwargs)


def get_traverse_shallow_structure(traverse_fn: Callable[[Any], Any], structure: Any,
                                   expand_composites: bool = False) -> Any:
    """The shallow structure `traverse_fn` selects: it returns a bool (descend or not)
    or, for a sequence, a depth-1 structure of bools (which children to descend into)."""
    to_traverse = traverse_fn(structure)
    if not is_sequence(structure):
        if not isinstance(to_traverse, bool):
            raise TypeError(f"traverse_fn returned structure: {to_traverse} for "
                            f"non-structure: {structure}")
        return to_traverse
    level: List[Any] = []
    if isinstance(to_traverse, bool):
        if not to_traverse:
            return False
        level = [get_traverse_shallow_structure(traverse_fn, branch)
                 for branch in _values(structure)]
    elif not is_sequence(to_traverse):
        raise TypeError(f"traverse_fn returned a non-bool scalar: {to_traverse} for "
                        f"input: {structure}")
    else:
        assert_shallow_structure(to_traverse, structure)
        for t, branch in zip(_values(to_traverse), _values(structure)):
            if not isinstance(t, bool):
                raise TypeError("traverse_fn didn't return a depth=1 structure of bools.  "
                                f"saw: {to_traverse}  for structure: {structure}")
            level.append(get_traverse_shallow_structure(traverse_fn, branch) if t else False)
    return _sequence_like(structure, level)


def yield_flat_paths(nest: Any, expand_composites: bool = False) -> Iterator[tuple]:
    """The key path of each leaf, in `flatten`'s order."""
    for path, _ in _flat_up_to(nest, nest):
        yield path


def flatten_with_tuple_paths(structure: Any, expand_composites: bool = False
                             ) -> List[Tuple[tuple, Any]]:
    """(key-tuple path, leaf) pairs in `flatten`'s order."""
    return list(zip(yield_flat_paths(structure), flatten(structure)))


def flatten_with_joined_string_paths(structure: Any, separator: str = "/",
                                     expand_composites: bool = False
                                     ) -> List[Tuple[str, Any]]:
    """(path joined by `separator`, leaf) pairs in `flatten`'s order."""
    return [(separator.join(str(p) for p in path), leaf)
            for path, leaf in flatten_with_tuple_paths(structure)]


def flatten_dict_items(dictionary: Any) -> Dict[Any, Any]:
    """A dict whose nested keys map to same-shaped nested values, flattened pairwise."""
    if not isinstance(dictionary, dict):
        raise TypeError("input must be a dictionary")
    flat: Dict[Any, Any] = {}
    for key, value in dictionary.items():
        if not is_sequence(key):
            if key in flat:
                raise ValueError(f"Could not flatten dictionary: key {key} is not unique.")
            flat[key] = value
            continue
        flat_k, flat_v = flatten(key), flatten(value)
        if len(flat_k) != len(flat_v):
            raise ValueError(
                f"Could not flatten dictionary. Key had {len(flat_k)} elements, but value had "
                f"{len(flat_v)} elements. Key: {flat_k}, value: {flat_v}.")
        for k, v in zip(flat_k, flat_v):
            if k in flat:
                raise ValueError(f"Could not flatten dictionary: key {k} is not unique.")
            flat[k] = v
    return flat
