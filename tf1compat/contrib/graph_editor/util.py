"""Helpers of `tf.contrib.graph_editor` (TF 1.15's `graph_editor/util.py`): turning ops,
tensors and graphs into lists, walking nested structures, the control-output map TF's
graph does not keep, and the placeholders the editor creates (named `geph__<op>_<index>`).
"""

from __future__ import annotations

import collections.abc
import inspect
import re
from typing import Any, Callable, Dict, Iterable, List, Optional

from tf1compat.framework.graph import Graph
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = [
    "make_list_of_op",
    "get_tensors",
    "make_list_of_t",
    "get_generating_ops",
    "get_consuming_ops",
    "ControlOutputs",
    "placeholder_name",
    "make_placeholder_from_tensor",
    "make_placeholder_from_dtype_and_shape",
]

_DEFAULT_PLACEHOLDER_PREFIX = "geph"


def concatenate_unique(la: list, lb: Iterable[Any]) -> list:
    """Appends to `la` (in place) the elements of `lb` it lacks, in `lb`'s order."""
    seen = set(la)
    for item in lb:
        if item not in seen:
            la.append(item)
            seen.add(item)
    return la


class ListView:
    """A read-only list (what `SubGraphView.inputs`/`outputs` return)."""

    def __init__(self, list_: list):
        if not isinstance(list_, list):
            raise TypeError(f"Expected a list, got: {type(list_)}.")
        self._list = list_

    def __iter__(self):
        return iter(self._list)

    def __len__(self) -> int:
        return len(self._list)

    def __bool__(self) -> bool:
        return bool(self._list)

    def __getitem__(self, i: Any) -> Any:
        return self._list[i]

    def __add__(self, other: Any) -> list:
        return list(self) + list(other)


def is_iterable(obj: Any) -> bool:
    """True for iterables other than a tf.Tensor (which TF makes iterable)."""
    if isinstance(obj, Tensor):
        return False
    try:
        iter(obj)
    except Exception:  # noqa: BLE001 - any failure means "not iterable", as TF
        return False
    return True


def flatten_tree(tree: Any, leaves: Optional[list] = None) -> list:
    """The leaves of a nested structure of iterables and dicts (dict values only)."""
    if leaves is None:
        leaves = []
    if isinstance(tree, dict):
        for child in tree.values():
            flatten_tree(child, leaves)
    elif is_iterable(tree):
        for child in tree:
            flatten_tree(child, leaves)
    else:
        leaves.append(tree)
    return leaves


def transform_tree(tree: Any, fn: Callable[[Any], Any], iterable_type: type = tuple) -> Any:
    """`tree` with `fn` applied to each leaf; dicts, namedtuples, tuples and sequences keep
    their types, other iterables become `iterable_type`."""
    if not is_iterable(tree):
        return fn(tree)
    if isinstance(tree, dict):
        result = tree.__new__(type(tree))
        result.__init__((k, transform_tree(child, fn)) for k, child in tree.items())
        return result
    if isinstance(tree, tuple):
        if hasattr(tree, "_asdict"):
            return tree.__new__(type(tree), **transform_tree(tree._asdict(), fn))
        return tree.__new__(type(tree), (transform_tree(child, fn) for child in tree))
    if isinstance(tree, collections.abc.Sequence):
        result = tree.__new__(type(tree))
        result.__init__(transform_tree(child, fn) for child in tree)
        return result
    return iterable_type(transform_tree(child, fn) for child in tree)


def check_graphs(*args: Any) -> None:
    """ValueError unless every argument with a non-None `.graph` has the same graph."""
    graph = None
    for i, item in enumerate(args):
        if graph is None and item.graph is not None:
            graph = item.graph
        elif item.graph is not None and item.graph is not graph:
            raise ValueError(f"Argument[{i}]: Wrong graph!")


def get_unique_graph(tops: Any, check_types: Any = None, none_if_empty: bool = False
                     ) -> Optional[Graph]:
    """The one graph of the ops/tensors in `tops` (or `tops` itself when it is a graph).

    TypeError for an element of another type than `check_types` (ops and tensors by
    default), ValueError when they come from several graphs or `tops` is empty (unless
    `none_if_empty`)."""
    if isinstance(tops, Graph):
        return tops
    if not is_iterable(tops):
        raise TypeError(f"{type(tops)} is not iterable")
    if check_types is None:
        check_types = (Operation, Tensor)
    elif not is_iterable(check_types):
        check_types = (check_types,)
    else:
        check_types = tuple(check_types)
    graph = None
    for top in tops:
        if not isinstance(top, check_types):
            names = ", ".join(str(t) for t in check_types)
            raise TypeError(f"Expected a type in ({names}), got: {type(top)}")
        if graph is None:
            graph = top.graph
        elif graph is not top.graph:
            raise ValueError(f"Operation {top} does not belong to given graph")
    if graph is None and not none_if_empty:
        raise ValueError("Can't find the unique graph of an empty list")
    return graph


def _make_list(items: Any, kind: type, check_graph: bool, allow_graph: bool,
               ignore_other: bool) -> list:
    """The elements of `kind` in `items`: one element, an iterable, or a graph's (all its
    ops or tensors, unless `allow_graph` is False); an op among tensors or a tensor among
    ops is skipped when `ignore_other`, else TypeError."""
    if isinstance(items, Graph):
        if not allow_graph:
            raise TypeError("allow_graph is False: cannot convert a tf.Graph.")
        return items.get_operations() if kind is Operation else get_tensors(items)
    items = list(items) if is_iterable(items) else [items]
    if items and check_graph:
        get_unique_graph(items, check_types=None if ignore_other else kind)
    return [x for x in items if isinstance(x, kind)]


def make_list_of_op(ops: Any, check_graph: bool = True, allow_graph: bool = True,
                    ignore_ts: bool = False) -> List[Operation]:
    """A new list of the ops in `ops` (an op, an iterable of ops, or a graph's ops)."""
    return _make_list(ops, Operation, check_graph, allow_graph, ignore_ts)


def get_tensors(graph: Graph) -> List[Tensor]:
    """Every output tensor of every op of `graph`, in op creation order."""
    if not isinstance(graph, Graph):
        raise TypeError(f"Expected a graph, got: {type(graph)}")
    return [t for op in graph.get_operations() for t in op.outputs]


def make_list_of_t(ts: Any, check_graph: bool = True, allow_graph: bool = True,
                   ignore_ops: bool = False) -> List[Tensor]:
    """A new list of the tensors in `ts` (a tensor, an iterable, or a graph's tensors)."""
    return _make_list(ts, Tensor, check_graph, allow_graph, ignore_ops)


def get_generating_ops(ts: Any) -> List[Operation]:
    """The op producing each tensor of `ts` (one per tensor, repeats kept)."""
    return [t.op for t in make_list_of_t(ts, allow_graph=False)]


def get_consuming_ops(ts: Any) -> List[Operation]:
    """The ops reading any tensor of `ts`, each once, in order of appearance."""
    ops: List[Operation] = []
    for t in make_list_of_t(ts, allow_graph=False):
        concatenate_unique(ops, t.consumers())
    return ops


class ControlOutputs:
    """For each op of a graph, the ops that have it as a control input.

    Built from the graph when created and rebuilt by `update()` when ops were added since
    (`graph.version`); control edges edited in between need an explicit `_build()`, as
    in TF."""

    def __init__(self, graph: Graph):
        if not isinstance(graph, Graph):
            raise TypeError(f"Expected a tf.Graph, got: {type(graph)}")
        self._control_outputs: Dict[Operation, List[Operation]] = {}
        self._graph = graph
        self._version: Optional[int] = None
        self._build()

    def update(self) -> "ControlOutputs":
        """Rebuilds the map if the graph has new ops."""
        if self._version != self._graph.version:
            self._build()
        return self

    def _build(self) -> None:
        self._control_outputs.clear()
        for op in self._graph.get_operations():
            for control_input in op.control_inputs:
                users = self._control_outputs.setdefault(control_input, [])
                if op not in users:
                    users.append(op)
        self._version = self._graph.version

    def get_all(self) -> Dict[Operation, List[Operation]]:
        return self._control_outputs

    def get(self, op: Operation) -> Any:
        """The ops with `op` as a control input (an empty tuple if none)."""
        return self._control_outputs.get(op, ())

    @property
    def graph(self) -> Graph:
        return self._graph


def scope_finalize(scope: str) -> str:
    """`scope` with a trailing slash (the empty scope stays empty)."""
    if scope and scope[-1] != "/":
        scope += "/"
    return scope


def scope_dirname(scope: str) -> str:
    """The part of a name up to and including its last slash."""
    return scope[:scope.rfind("/") + 1]


def scope_basename(scope: str) -> str:
    """The part of a name after its last slash."""
    return scope[scope.rfind("/") + 1:]


def placeholder_name(t: Optional[Tensor] = None, scope: Optional[str] = None,
                     prefix: str = _DEFAULT_PLACEHOLDER_PREFIX) -> str:
    """The name the editor gives a placeholder standing for `t`: `<scope><prefix>__<op
    basename>_<output index>` (kept as is when `t` is already such a placeholder), with
    `t`'s own scope when `scope` is None; without `t`, `<scope><prefix>`."""
    if scope is not None:
        scope = scope_finalize(scope)
    if t is None:
        return f"{scope or ''}{prefix}"
    if not isinstance(t, Tensor):
        raise TypeError(f"Expected a tf.Tenfor, got: {type(t)}")   # TF's spelling
    basename = scope_basename(t.op.name)
    if scope is None:
        scope = scope_dirname(t.op.name)
    if basename.startswith(f"{prefix}__"):
        return scope + basename
    return f"{scope}{prefix}__{basename}_{t.value_index}"


def make_placeholder_from_tensor(t: Tensor, scope: Optional[str] = None,
                                 prefix: str = _DEFAULT_PLACEHOLDER_PREFIX) -> Tensor:
    """A placeholder of `t`'s dtype and static shape named by `placeholder_name` (in the
    default graph: the caller picks it)."""
    from tf1compat.ops.array_ops import placeholder
    return placeholder(dtype=t.dtype, shape=t.get_shape(),
                       name=placeholder_name(t, scope=scope, prefix=prefix))


def make_placeholder_from_dtype_and_shape(dtype: Any, shape: Any = None,
                                          scope: Optional[str] = None,
                                          prefix: str = _DEFAULT_PLACEHOLDER_PREFIX
                                          ) -> Tensor:
    """A placeholder named `<scope><prefix>` (`ge.ph`)."""
    from tf1compat.ops.array_ops import placeholder
    return placeholder(dtype=dtype, shape=shape,
                       name=placeholder_name(scope=scope, prefix=prefix))


_INTERNAL_NAME = re.compile(r"^__\w+__$")


def get_predefined_collection_names() -> List[str]:
    """The collection names `tf.GraphKeys` defines (read statically: the deprecated
    `VARIABLES` alias, which logs when read, repeats GLOBAL_VARIABLES' name)."""
    names = [inspect.getattr_static(GraphKeys, key) for key in dir(GraphKeys)
             if not _INTERNAL_NAME.match(key)]
    return [name for name in names if isinstance(name, str)]


def find_corresponding_elem(target: Any, dst_graph: Graph, dst_scope: str = "",
                            src_scope: str = "") -> Any:
    """The op or tensor of `dst_graph` named as `target`, with `src_scope` taken off the
    front of the name and `dst_scope` put there (KeyError when there is none)."""
    name = target.name
    if src_scope:
        src_scope = scope_finalize(src_scope)
        if not name.startswith(src_scope):
            raise ValueError(f"{name} does not start with {src_scope}")
        name = name[len(src_scope):]
    if dst_scope:
        name = scope_finalize(dst_scope) + name
    if isinstance(target, Tensor):
        return dst_graph.get_tensor_by_name(name)
    if isinstance(target, Operation):
        return dst_graph.get_operation_by_name(name)
    raise TypeError(f"Expected tf.Tensor or tf.Operation, got: {type(target)}")


def find_corresponding(targets: Any, dst_graph: Graph, dst_scope: str = "",
                       src_scope: str = "") -> Any:
    """`find_corresponding_elem` over each leaf of a nested structure."""
    return transform_tree(
        targets, lambda top: find_corresponding_elem(top, dst_graph, dst_scope, src_scope))
