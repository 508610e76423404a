"""The context managers of a `tf.Graph`'s scopes (name scopes and control-dependency
blocks), and the name-scope string rules that export and import apply to names.

`Graph.name_scope` and `Graph.control_dependencies` return these; they read and set the
graph's name stack and control-dependency stack directly (they are hot: every op creation
under a scope enters one). `strip_name_scope`/`prepend_name_scope` are TF's
(framework/ops.py): meta graphs, savers, queue runners and SavedModel signatures all move
names between scopes with them.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, List, Optional

from tf1compat.framework.operation import Operation

if TYPE_CHECKING:
    from tf1compat.framework.graph import Graph

__all__ = ["name_from_scope_name", "strip_name_scope", "prepend_name_scope",
           "ControlDependenciesController", "NameScope"]

_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


def name_from_scope_name(name: str) -> str:
    """"scope/" -> "scope" (an exact name re-entered with a trailing slash)."""
    return name[:-1] if name and name[-1] == "/" else name


def strip_name_scope(name: str, export_scope: Optional[str]) -> str:
    """`name` without the leading `export_scope/` (also after a control input's "^" or a
    colocation's "loc:@"); unchanged when it is not under the scope."""
    if not export_scope:
        return name
    scope = export_scope[:-1] if export_scope.endswith("/") else export_scope
    # TF puts the scope into the pattern as it is (a regular expression)
    return re.sub(r"([\^]|loc:@|^)" + scope + r"[\/]+(.*)", r"\1\2", name, count=1)


def prepend_name_scope(name: str, import_scope: Optional[str]) -> str:
    """`name` under `import_scope/` (after a leading "^" or "loc:@")."""
    if not import_scope:
        return name
    scope = import_scope[:-1] if import_scope.endswith("/") else import_scope
    return re.sub(r"([\^]|loc:@|^)(.*)", lambda m: m.group(1) + scope + "/" + m.group(2),
                  name)


class ControlDependenciesController:
    """One `with g.control_dependencies([...])` block: its ops and the ops created in it."""

    def __init__(self, graph: "Graph", control_inputs: Optional[List[Operation]]):
        self._graph = graph
        if control_inputs is None:
            control_inputs = []
            self._new_stack = True
        else:
            self._new_stack = False
        self._control_inputs = control_inputs
        self._seen: set = set()
        self._old_stack: Optional[list] = None
        self._old_control_flow_context: Any = None

    @property
    def control_inputs(self) -> List[Operation]:
        return self._control_inputs

    def add_op(self, op: Operation) -> None:
        self._seen.add(op)

    def op_in_group(self, op: Operation) -> bool:
        return op in self._seen

    def __enter__(self) -> None:
        if self._new_stack:
            self._old_stack = self._graph._control_dependencies_stack
            self._graph._control_dependencies_stack = []
            # As in TF, `control_dependencies(None)` also leaves any cond branch or loop
            # body being traced: variables created inside one (init_scope) live outside.
            self._old_control_flow_context = self._graph._control_flow_context
            self._graph._control_flow_context = None
        self._graph._control_dependencies_stack.append(self)

    def __exit__(self, *exc: Any) -> None:
        self._graph._control_dependencies_stack.pop()
        if self._new_stack:
            self._graph._control_dependencies_stack = self._old_stack
            self._graph._control_flow_context = self._old_control_flow_context


class NameScope:
    """`with g.name_scope(name) as scope:` — a class, not a generator, as it is hot."""

    __slots__ = ("_graph", "_name", "_old")

    def __init__(self, graph: "Graph", name: Optional[str]):
        self._graph = graph
        self._name = name

    def __enter__(self) -> str:
        g = self._graph
        name = self._name
        if name:
            if isinstance(name, bytes):
                name = name.decode()
            if g._name_stack:
                if not _VALID_SCOPE_NAME.match(name):
                    raise ValueError(f"'{name}' is not a valid scope name")
            elif not _VALID_OP_NAME.match(name):
                raise ValueError(f"'{name}' is not a valid scope name")
        self._old = g._name_stack
        if not name:
            new_stack = ""
        elif name[-1] == "/":
            new_stack = name_from_scope_name(name)
        else:
            new_stack = g.unique_name(name)
        g._name_stack = new_stack
        return new_stack + "/" if new_stack else ""

    def __exit__(self, *exc: Any) -> None:
        self._graph._name_stack = self._old
