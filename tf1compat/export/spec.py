"""What an export is made of: the fetches, the feeds and the variables, resolved once.

`ExportSpec.resolve(fetches, feeds, ...)` reads the graph at export time and records
everything a program build needs later (fetch elements and their structure, feed tensors
and the names `forward` takes them by, the variables the computation reads with the
module paths they get, their initial values). Programs are built from the spec (again
after `.to(device)` or a deep copy); the graph is never consulted while a module runs.

Names: a variable's store key (its op name, `hidden1/weights`) becomes the module path
`hidden1.weights`, so `state_dict()` keys read like TF's names; trainable variables
(the TRAINABLE_VARIABLES collection) become `nn.Parameter`s, the others persistent
buffers. A feed is taken by its op name (`x`, `encoder_inputs`), or by the key it has
in a dict of feeds.
"""

from __future__ import annotations

import collections.abc
import keyword
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

from tf1compat.framework import errors
from tf1compat.framework.dtypes import DType
from tf1compat.framework.graph import Graph, get_default_graph
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor, default_session_stack
from tf1compat.runtime.plan import state_key
from tf1compat.variables.variables import Variable

__all__ = ["ExportSpec", "VariableSpec", "variable_key", "reachable_ops"]


@dataclass
class VariableSpec:
    """One variable of an exported module."""
    key: str                   # its key in the variable store (`hidden1/weights`)
    path: str                  # its module path (`hidden1.weights`)
    trainable: bool            # nn.Parameter (True) or buffer
    dtype: DType
    variable: Optional[Variable] = None    # the tf.Variable, where the graph lists it
    frozen: bool = False       # read by the computation but not exported: a constant


@dataclass
class ExportSpec:
    """The resolved pieces of one export (see the module docstring)."""
    graph: Graph
    elements: List[Any]                  # unique fetch elements (tensors, ops)
    pack: Callable[[Sequence[Any]], Any]  # flat fetch values -> the fetch structure
    feeds: List[Tensor]
    arg_names: List[str]
    variables: List[VariableSpec] = field(default_factory=list)
    torch_random: bool = False           # random ops on torch's generator (random_ops.py)

    @property
    def keys(self) -> Dict[str, VariableSpec]:
        return {v.key: v for v in self.variables}


def variable_key(op: Operation) -> Optional[str]:
    """The store key of a variable op (VariableV2: its state alias; VarHandleOp: the
    handle's value, which its constant kernel returns), else None."""
    od = op._op_def
    if od.state_alias is not None and op._outputs:
        return od.state_alias(op)
    if od.constant and op._outputs and op._outputs[0].dtype.name == "resource":
        value = od.kernel(op, None)
        return value if isinstance(value, str) else None
    return None


# -- fetches ------------------------------------------------------------------------------

def _fetch_structure(fetches: Any, graph: Graph) -> Tuple[List[Any], Callable[[Sequence[Any]],
                                                                             Any]]:
    """Unique elements of a fetch structure and a function packing their values back."""
    elements: List[Any] = []
    index: Dict[Any, int] = {}

    def leaf(obj: Any) -> int:
        if type(obj).__name__ in ("SparseTensor", "IndexedSlices"):
            raise TypeError(f"tf1compat.export returns dense tensors; fetch the components "
                            f"of {obj!r} (indices, values, dense_shape) instead")
        element = graph.as_graph_element(obj, allow_tensor=True, allow_operation=True)
        if element not in index:
            index[element] = len(elements)
            elements.append(element)
        return index[element]

    def walk(obj: Any) -> Callable[[Sequence[Any]], Any]:
        if isinstance(obj, collections.abc.Mapping):
            parts = {k: walk(v) for k, v in obj.items()}
            kind = type(obj) if type(obj) is not dict else dict
            return lambda values: kind((k, p(values)) for k, p in parts.items())
        if isinstance(obj, tuple) and hasattr(obj, "_fields"):      # namedtuple
            fns = [walk(v) for v in obj]
            cls = type(obj)
            return lambda values: cls(*[p(values) for p in fns])
        if isinstance(obj, (list, tuple)):
            fns = [walk(v) for v in obj]
            kind = list if isinstance(obj, list) else tuple
            return lambda values: kind(p(values) for p in fns)
        i = leaf(obj)
        return lambda values: values[i]

    return elements, walk(fetches)


# -- feeds --------------------------------------------------------------------------------

def _identifier(text: str) -> str:
    name = re.sub(r"\W", "_", text) or "_"
    if name[0].isdigit():
        name = "_" + name
    return name + "_" if keyword.iskeyword(name) or name == "self" else name


def _feeds(feeds: Any, graph: Graph) -> Tuple[List[Tensor], List[str]]:
    if feeds is None:
        return [], []
    if isinstance(feeds, (Tensor, str)):
        feeds = [feeds]
    pairs: List[Tuple[Optional[str], Any]]
    if isinstance(feeds, collections.abc.Mapping):
        pairs = list(feeds.items())
    else:
        pairs = [(None, f) for f in feeds]
    tensors: List[Tensor] = []
    names: List[str] = []
    for given, obj in pairs:
        t = graph.as_graph_element(obj, allow_tensor=True, allow_operation=False)
        if t in tensors:
            raise ValueError(f"feed {t.name} is listed twice")
        if not graph.is_feedable(t):
            raise ValueError(f"Tensor {t.name} may not be fed.")
        if given is not None:
            if not isinstance(given, str) or not given.isidentifier() or \
                    keyword.iskeyword(given) or given == "self":
                raise ValueError(f"feed names must be Python identifiers, got {given!r}")
            name = given
        else:
            name = _identifier(t.op.name if t.value_index == 0 else
                               f"{t.op.name}_{t.value_index}")
        if name in names:
            raise ValueError(f"two feeds would be named {name!r}; pass the feeds as a dict "
                             "{name: tensor} to name them")
        tensors.append(t)
        names.append(name)
    return tensors, names


# -- variables ----------------------------------------------------------------------------

def _graph_variables(graph: Graph) -> Dict[str, Variable]:
    """Store key -> the tf.Variable object, for every variable any collection lists."""
    out: Dict[str, Variable] = {}
    for key in graph.get_all_collection_keys():
        for obj in graph.get_collection(key):
            if isinstance(obj, Variable):
                vkey = variable_key(obj.op)
                if vkey is not None:
                    out.setdefault(vkey, obj)
    return out


def _regions_of(op: Operation) -> List[Any]:
    """The control-flow regions a construct op (If, Case, While) runs: the region objects
    its attrs refer to, directly or one object down (a branch, a loop)."""
    from tf1compat.ops._regions import ControlFlowRegion
    found: List[Any] = []

    def visit(value: Any, depth: int) -> None:
        if isinstance(value, ControlFlowRegion):
            if value not in found:
                found.append(value)
        elif isinstance(value, (list, tuple)):
            for v in value:
                visit(v, depth)
        elif depth > 0 and hasattr(value, "__dict__") and not isinstance(value, (Tensor,
                                                                                Operation)):
            for v in vars(value).values():
                visit(v, depth - 1)

    for value in op._attrs.values():
        visit(value, 1)
    return found


def reachable_ops(elements: Sequence[Any], feeds: Sequence[Tensor]) -> List[Operation]:
    """The ops a run of `elements` may execute: what a plan prunes to (inputs and control
    inputs, stopping at feeds), plus every op of the control-flow regions they run."""
    fed = set(feeds)
    seen: Dict[Operation, None] = {}
    stack = [e if isinstance(e, Operation) else e.op for e in elements
             if not (isinstance(e, Tensor) and e in fed)]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen[op] = None
        stack.extend(t.op for t in op._inputs if t not in fed)
        stack.extend(op._control_inputs)
        if op._op_def.keeps_devices:
            for region in _regions_of(op):
                stack.extend(region.ops)
    return sorted(seen, key=lambda o: o._id)


def _used_keys(ops: Sequence[Operation]) -> List[str]:
    keys: Dict[str, None] = {}
    for op in ops:
        key = variable_key(op)
        if key is not None:
            keys[key] = None
        for t in op._inputs:
            key = state_key(t)
            if key is not None:
                keys[key] = None
        for value in op._attrs.values():
            for key in getattr(value, "reads", None) or ():
                keys[key] = None
    return list(keys)


class _PathNamer:
    """Module paths for store keys: `/` -> `.`, components that clash with the module's
    own attributes (`reserved`) or with each other get a trailing `_`."""

    def __init__(self, reserved: Sequence[str]) -> None:
        self.reserved = set(reserved)
        self.leaves: set = set()
        self.modules: set = set()

    def __call__(self, key: str) -> str:
        parts = [c.replace(".", "_") or "_" for c in key.split("/")]
        out: List[str] = []
        for i, part in enumerate(parts):
            last = i == len(parts) - 1
            prefix = ".".join(out)
            name = part
            while True:
                full = f"{prefix}.{name}" if prefix else name
                taken = (full in self.modules) if last else (full in self.leaves)
                if name in self.reserved or name.startswith("_") or taken or \
                        (last and full in self.leaves):
                    name += "_"
                    continue
                break
            out.append(name)
            if not last:
                self.modules.add(".".join(out))
        path = ".".join(out)
        self.leaves.add(path)
        return path


def _resolve_variables(graph: Graph, ops: Sequence[Operation],
                       variables: Optional[Sequence[Any]],
                       reserved: Sequence[str]) -> List[VariableSpec]:
    known = _graph_variables(graph)
    trainable_keys = {variable_key(v.op) for v in graph.get_collection(
        GraphKeys.TRAINABLE_VARIABLES) if isinstance(v, Variable)}
    used = _used_keys(ops)
    if variables is None:
        chosen = list(used)
    else:
        chosen = []
        for v in variables:
            if not isinstance(v, Variable):
                raise TypeError(f"variables= takes tf.Variable objects, got {v!r}")
            key = variable_key(v.op)
            if key is None or key in chosen:
                continue
            chosen.append(key)
    namer = _PathNamer(reserved)
    specs = []
    by_key = {}
    for key in chosen:
        var = known.get(key)
        dtype = var.dtype.base_dtype if var is not None else None
        spec = VariableSpec(key, namer(key), key in trainable_keys, dtype, var)
        specs.append(spec)
        by_key[key] = spec
    for key in used:
        if key not in by_key:
            var = known.get(key)
            specs.append(VariableSpec(key, namer("frozen/" + key), False,
                                      var.dtype.base_dtype if var is not None else None, var,
                                      frozen=True))
    return specs


def _default_session() -> Any:
    return default_session_stack[-1] if default_session_stack else None


def initial_values(spec: ExportSpec, session: Any) -> Dict[str, torch.Tensor]:
    """The current values of the spec's variables: from `session` (or the default
    session), else by running their initializers in a private session."""
    if session is None:
        session = _default_session()
        if session is not None and session.graph is not spec.graph:
            session = None
    if session is not None:
        store = session._runtime.state
        return {v.key: store[v.key] for v in spec.variables}
    missing = [v.key for v in spec.variables if v.variable is None]
    if missing:
        raise ValueError(f"tf1compat.export: variable {missing[0]!r} is in no collection, so "
                         "its initializer is unknown; pass session= with the variables "
                         "initialized")
    from tf1compat.runtime.session import Session
    with Session(graph=spec.graph) as private:
        private.run([v.variable.initializer for v in spec.variables])
        store = private._runtime.state
        return {v.key: store[v.key] for v in spec.variables}


def resolve(fetches: Any, feeds: Any = None, variables: Optional[Sequence[Any]] = None,
            reserved: Sequence[str] = ()) -> ExportSpec:
    """The ExportSpec of `fetches` computed from `feeds` (see the module docstring);
    `reserved`: attribute names of the module class that variable paths must avoid."""
    graph = _graph_of(fetches) or get_default_graph()
    elements, pack = _fetch_structure(fetches, graph)
    if not elements:
        raise ValueError("tf1compat.export: nothing to fetch")
    feed_tensors, names = _feeds(feeds, graph)
    for e in elements:
        if not graph.is_fetchable(e):
            raise errors.InaccessibleTensorError(
                f"Operation {getattr(e, 'op', e).name} has been marked as not fetchable "
                "(it lives inside a control-flow construct)")
    ops = reachable_ops(elements, feed_tensors)
    spec = ExportSpec(graph, elements, pack, feed_tensors, names)
    spec.variables = _resolve_variables(graph, ops, variables, reserved)
    return spec


def _graph_of(fetches: Any) -> Optional[Graph]:
    if isinstance(fetches, (Tensor, Operation)):
        return fetches.graph
    if isinstance(fetches, Variable):
        return fetches.graph
    if isinstance(fetches, collections.abc.Mapping):
        fetches = list(fetches.values())
    if isinstance(fetches, (list, tuple)):
        for f in fetches:
            g = _graph_of(f)
            if g is not None:
                return g
    return None
