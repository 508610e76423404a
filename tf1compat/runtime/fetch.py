"""Nested fetch structures for `Session.run`, one small class per shape (TF's _FetchMapper).

A mapper lists the unique graph elements a fetch structure needs and rebuilds the
structure from their values. Types with several components (SparseTensor,
IndexedSlices) register an expansion: how to split them into tensors and how to
contract the values back (`register_session_run_conversion_functions`).
"""

from __future__ import annotations

from collections import abc as collections_abc
from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np

from tf1compat.framework.indexed_slices import IndexedSlices, IndexedSlicesValue
from tf1compat.framework.operation import Operation
from tf1compat.framework.sparse_tensor import SparseTensor, SparseTensorValue
from tf1compat.framework.tensor import Tensor

__all__ = ["FetchMapper", "FetchHandler", "register_session_run_conversion_functions",
           "feed_expansion"]


# -- TF's composite tensors: how Session.run splits them and rebuilds their values -------------

def _sparse_fetch(st: SparseTensor) -> tuple:
    return [st.indices, st.values, st.dense_shape], lambda v: SparseTensorValue(*v)


def _sparse_feed(st: SparseTensor, value: Any) -> list:
    if isinstance(value, SparseTensor):
        raise TypeError("The value of a feed cannot be a tf.SparseTensor object.")
    indices, values, dense_shape = value
    return list(zip([st.indices, st.values, st.dense_shape],
                    [np.asarray(indices), np.asarray(values), np.asarray(dense_shape)]))


def _sparse_feed_partial(st: SparseTensor) -> list:
    return [st.indices, st.values, st.dense_shape]


def _slices_parts(slices: IndexedSlices) -> list:
    parts = [slices.values, slices.indices]
    if slices.dense_shape is not None:
        parts.append(slices.dense_shape)
    return parts


def _slices_fetch(fetch: IndexedSlices) -> tuple:
    def contract(values: list) -> IndexedSlicesValue:
        return IndexedSlicesValue(values[0], values[1], values[2] if len(values) == 3 else None)
    return _slices_parts(fetch), contract


def _slices_feed(feed: IndexedSlices, value: Any) -> list:
    return list(zip(_slices_parts(feed), value))


# (type, fetch_fn(obj) -> (elements, contraction_fn), feed_fn(obj, value) -> pairs,
#  feed_fn_for_partial_run); the first entry whose type matches is used.
_EXPANSIONS: List[Tuple[type, Callable, Callable, Callable]] = [
    (SparseTensor, _sparse_fetch, _sparse_feed, _sparse_feed_partial),
    (IndexedSlices, _slices_fetch, _slices_feed, _slices_parts),
    (Tensor, lambda t: ([t], lambda v: v[0]), lambda t, v: [(t, v)], lambda t: [t]),
    (Operation, lambda o: ([o], lambda v: v[0]), None, None),
]


def register_session_run_conversion_functions(tensor_type: type, fetch_function: Callable,
                                              feed_function: Callable = None,
                                              feed_function_for_partial_run: Callable = None
                                              ) -> None:
    """Teaches Session.run to fetch and feed a composite type, as TF's function of that name."""
    for entry in _EXPANSIONS:
        if issubclass(tensor_type, entry[0]):
            raise ValueError(f"{tensor_type} has already been registered so ignore it.")
    _EXPANSIONS.insert(0, (tensor_type, fetch_function, feed_function,
                           feed_function_for_partial_run))


def feed_expansion(key: Any, value: Any) -> List[Tuple[Any, Any]]:
    """Splits a feed key into (tensor-like, value) pairs: a nested structure of keys
    (an `LSTMStateTuple`, a tuple of placeholders) pairs with the same structure of values,
    as TF's nest.flatten_dict_items; then composite keys (SparseTensor, ...) expand."""
    if _is_nested(key):
        keys, values = _flatten(key), _flatten(value)
        if len(keys) != len(values):
            raise ValueError(f"Could not flatten dictionary. Key had {len(keys)} elements, "
                             f"but value had {len(values)} elements. Key: {keys}, value: "
                             f"{values}.")
        return [pair for k, v in zip(keys, values) for pair in feed_expansion(k, v)]
    for tensor_type, _, feed_fn, _ in _EXPANSIONS:
        if feed_fn is not None and isinstance(key, tensor_type):
            return feed_fn(key, value)
    return [(key, value)]


def _is_nested(value: Any) -> bool:
    return isinstance(value, (list, tuple, collections_abc.Mapping)) or \
        hasattr(type(value), "__attrs_attrs__")


def _flatten(value: Any) -> List[Any]:
    """Leaves of a nested structure in TF's nest order (mappings by sorted key)."""
    if isinstance(value, collections_abc.Mapping):
        items = [value[k] for k in sorted(value)]
    elif hasattr(type(value), "__attrs_attrs__"):
        items = [getattr(value, a.name) for a in type(value).__attrs_attrs__]
    elif isinstance(value, (list, tuple)):
        items = list(value)
    else:
        return [value]
    return [leaf for item in items for leaf in _flatten(item)]


class FetchMapper:
    """Base class: `unique_fetches()` and `build_results(values)`."""

    def unique_fetches(self) -> List[Any]:
        raise NotImplementedError

    def build_results(self, values: Sequence[Any]) -> Any:
        raise NotImplementedError

    @staticmethod
    def for_fetch(fetch: Any, graph: Any) -> "FetchMapper":
        if fetch is None:
            raise TypeError(f'Argument `fetch` = {fetch} has invalid type '
                            f'"{type(fetch).__name__}". Cannot be None')
        if isinstance(fetch, (list, tuple)):
            return _ListFetchMapper(fetch, graph)
        if isinstance(fetch, collections_abc.Mapping):
            return _DictFetchMapper(fetch, graph)
        if hasattr(type(fetch), "__attrs_attrs__"):
            return _AttrsFetchMapper(fetch, graph)
        for tensor_type, fetch_fn, _, _ in _EXPANSIONS:
            if isinstance(fetch, tensor_type):
                elements, contraction = fetch_fn(fetch)
                return _ElementFetchMapper(elements, contraction, graph)
        return _ElementFetchMapper([fetch], lambda v: v[0], graph)


class _ElementFetchMapper(FetchMapper):
    """A leaf: one Tensor/Operation/name/Variable (or the parts of a composite)."""

    def __init__(self, fetches: List[Any], contraction_fn: Callable, graph: Any):
        self._unique = []
        for fetch in fetches:
            try:
                self._unique.append(graph.as_graph_element(fetch, allow_tensor=True,
                                                           allow_operation=True))
            except TypeError as e:
                raise TypeError(f'Argument `fetch` = {fetch} has invalid type '
                                f'"{type(fetch).__name__}" must be a string or Tensor. '
                                f'({e})') from None
            except (ValueError, KeyError) as e:
                raise ValueError(f"Argument `fetch` = {fetch} cannot be interpreted as a "
                                 f"Tensor. ({e})") from None
        self._contraction_fn = contraction_fn

    def unique_fetches(self) -> List[Any]:
        return self._unique

    def build_results(self, values: Sequence[Any]) -> Any:
        if not values:
            return None
        return self._contraction_fn(values)


def _uniquify(mappers: List[FetchMapper]) -> Tuple[List[Any], List[List[int]]]:
    unique: List[Any] = []
    indices: List[List[int]] = []
    seen: Dict[int, int] = {}
    for m in mappers:
        m_indices = []
        for f in m.unique_fetches():
            j = seen.get(id(f))
            if j is None:
                j = seen[id(f)] = len(unique)
                unique.append(f)
            m_indices.append(j)
        indices.append(m_indices)
    return unique, indices


class _ListFetchMapper(FetchMapper):
    """A list, tuple or namedtuple of fetches; the result has the same type."""

    def __init__(self, fetches: Sequence[Any], graph: Any):
        self._fetch_type = type(fetches)
        self._mappers = [FetchMapper.for_fetch(f, graph) for f in fetches]
        self._unique, self._indices = _uniquify(self._mappers)

    def unique_fetches(self) -> List[Any]:
        return self._unique

    def build_results(self, values: Sequence[Any]) -> Any:
        results = [m.build_results([values[j] for j in idx])
                   for m, idx in zip(self._mappers, self._indices)]
        if issubclass(self._fetch_type, list):
            return results
        if self._fetch_type == tuple:
            return tuple(results)
        return self._fetch_type(*results)  # namedtuple


class _DictFetchMapper(FetchMapper):
    """A mapping of fetches; the result is a mapping of the same type and keys."""

    def __init__(self, fetches: Any, graph: Any):
        self._fetch_type = type(fetches)
        if isinstance(fetches, collections_abc.MutableMapping) and \
                hasattr(fetches, "default_factory"):
            self._make = lambda: type(fetches)(fetches.default_factory)
        else:
            self._make = self._fetch_type
        self._keys = list(fetches.keys())
        self._mappers = [FetchMapper.for_fetch(f, graph) for f in fetches.values()]
        self._unique, self._indices = _uniquify(self._mappers)

    def unique_fetches(self) -> List[Any]:
        return self._unique

    def build_results(self, values: Sequence[Any]) -> Any:
        results = self._make()
        for key, m, idx in zip(self._keys, self._mappers, self._indices):
            results[key] = m.build_results([values[j] for j in idx])
        return results


class _AttrsFetchMapper(FetchMapper):
    """An `attrs` class instance of fetches."""

    def __init__(self, fetches: Any, graph: Any):
        self._fetch_type = type(fetches)
        names = [a.name for a in type(fetches).__attrs_attrs__]
        self._mappers = [FetchMapper.for_fetch(getattr(fetches, n), graph) for n in names]
        self._unique, self._indices = _uniquify(self._mappers)

    def unique_fetches(self) -> List[Any]:
        return self._unique

    def build_results(self, values: Sequence[Any]) -> Any:
        results = [m.build_results([values[j] for j in idx])
                   for m, idx in zip(self._mappers, self._indices)]
        return self._fetch_type(*results)


class FetchHandler:
    """TF's `session._FetchHandler`, which libraries import to split a fetch structure
    the way `Session.run` does (tensorpack's `dependency_of_fetches`): the unique tensors
    to fetch (`fetches()`, those in `feeds`, keyed by `Tensor.ref()`, excluded) and
    operations to run (`targets()`), and the structure rebuilt from the fetched values
    (`build_results`). Feed handles (`feed_handles`) are not supported."""

    def __init__(self, graph: Any, fetches: Any, feeds: Dict[Any, Any],
                 feed_handles: Any = None):
        if feed_handles:
            raise NotImplementedError("_FetchHandler: feed_handles (TensorHandle feeds) "
                                      "are not supported by tf1compat")
        self._mapper = FetchMapper.for_fetch(fetches, graph)
        self._feeds = feeds
        self._fetches: List[Any] = []
        self._targets: List[Any] = []
        self._is_op: List[bool] = []
        for fetch in self._mapper.unique_fetches():
            is_op = isinstance(fetch, Operation)
            (self._targets if is_op else self._fetches).append(fetch)
            self._is_op.append(is_op)
        # TF's own feeds are keyed by `Tensor.ref()`, as this looks them up.
        self._final_fetches = [t for t in self._fetches if t.ref() not in feeds]

    def fetches(self) -> List[Any]:
        """The unique tensors to fetch (a fed tensor's value comes from its feed)."""
        return self._final_fetches

    def targets(self) -> List[Any]:
        """The unique operations to run."""
        return self._targets

    def build_results(self, session: Any, tensor_values: Sequence[Any]) -> Any:
        """The fetch structure filled with `tensor_values` (in `fetches()`'s order), fed
        tensors with their feeds and operations with None."""
        fetched = iter(tensor_values)
        tensors = iter(self._fetches)
        values = []
        for is_op in self._is_op:
            if is_op:
                values.append(None)
                continue
            fed = self._feeds.get(next(tensors).ref())
            values.append(next(fetched) if fed is None else fed)
        return self._mapper.build_results(values)
