"""`tf.contrib.copy_graph` (TF 1.15): copies of variables and (recursively) of ops from
one graph into another, under a name scope.

As TF 1.15's copy_elements.py: a copied variable is a new variable initialized with the
original's *initial* value (read in a throwaway session), `validate_shape=False` (so its
shape, and the shapes of ops computed from it, are unknown), in the original's
collections (prefixed by the scope, except the global and trainable variable lists); an
op is rebuilt with its exact node name (scope-prefixed), type, attrs, device, control
inputs and inputs, each input copied first unless a copy by that name already exists or
it is one of the given copied variables; a copied tensor joins its original's
collections (scope-prefixed). Copies are never uniquified: copying twice returns the
first copy.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tf1compat.framework.graph import Graph
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.graphdef.graph_import import group_inputs
from tf1compat.runtime.session import Session
from tf1compat.variables.variables import Variable

__all__ = ["copy_op_to_graph", "copy_variable_to_graph", "get_copied_op"]


def _scoped(scope: str, name: str) -> str:
    return f"{scope}/{name}" if scope != "" else name


def _collections_holding(value: Any) -> list:
    """The names of the collections of `value`'s graph that hold `value` itself."""
    return [name for name, items in value.graph._collections.items()
            if any(item is value for item in items)]


def copy_variable_to_graph(org_instance: Any, to_graph: Graph, scope: str = "") -> Variable:
    """A new variable of `to_graph` named `scope/<name>`, initialized with
    `org_instance`'s initial value, in its collections (scope-prefixed, except the global
    and trainable variable lists).

    Raises:
      TypeError: `org_instance` is not a Variable.
    """
    if not isinstance(org_instance, Variable):
        raise TypeError(str(org_instance) + " is not a Variable")
    new_name = _scoped(scope, org_instance.name[:org_instance.name.index(":")])
    collections = [name if name in (GraphKeys.GLOBAL_VARIABLES,
                                    GraphKeys.TRAINABLE_VARIABLES) or scope == ""
                   else f"{scope}/{name}"
                   for name in _collections_holding(org_instance)]
    trainable = any(v is org_instance for v in org_instance.graph.get_collection(
        GraphKeys.TRAINABLE_VARIABLES))
    with org_instance.graph.as_default():
        init_value = Session().run(org_instance.initialized_value())
    with to_graph.as_default():
        return Variable(init_value, trainable, name=new_name, collections=collections,
                          validate_shape=False)


def _copy_operation(op: Operation, to_graph: Graph, variables: list, scope: str,
                    new_name: str) -> Operation:
    original = (copy_op_to_graph(op._original_op, to_graph, variables, scope)
                if op._original_op is not None else None)
    controls = [copy_op_to_graph(c, to_graph, variables, scope) for c in op.control_inputs]
    inputs = [copy_op_to_graph(t, to_graph, variables, scope) for t in op.inputs]
    attrs = dict(op._attrs)
    # The node is added as TF's Operation constructor adds a NodeDef: its exact name, its
    # own device and control inputs only (not those of to_graph's current scopes).
    with to_graph.as_default(), to_graph.control_dependencies(None):
        new_op = to_graph._apply_op(op._op_def, group_inputs(op._op_def, inputs, attrs,
                                                             new_name),
                                    attrs, new_name + "/")
    for c in controls:
        new_op._add_control_input(c)
    new_op._device = op.device
    new_op._original_op = original
    key = new_name.lower()
    to_graph._names_in_use[key] = max(to_graph._names_in_use.get(key, 0), 1)
    return new_op


def copy_op_to_graph(org_instance: Any, to_graph: Graph, variables: Iterable[Any],
                     scope: str = "") -> Any:
    """The copy in `to_graph` (named `scope/<name>`) of the Operation or Tensor
    `org_instance`, with every op it depends on copied first; `variables` are the
    already-copied variables (from `copy_variable_to_graph`) its ops read.

    Raises:
      TypeError: `org_instance` is neither an Operation nor a Tensor.
    """
    variables = list(variables)
    new_name = _scoped(scope, org_instance.name)
    copied_variables = {v.name: v for v in variables}
    if new_name in copied_variables:
        return to_graph.get_tensor_by_name(copied_variables[new_name].name)
    try:
        return to_graph.as_graph_element(new_name, allow_tensor=True, allow_operation=True)
    except (KeyError, ValueError, TypeError):
        pass
    collections = [_scoped(scope, name) for name in _collections_holding(org_instance)]
    if isinstance(org_instance, Tensor):
        op = org_instance.op
        new_op = copy_op_to_graph(op, to_graph, variables, scope)
        index = next(i for i, t in enumerate(op.outputs) if t is org_instance)
        new_tensor = new_op.outputs[index]
        for collection in collections:
            to_graph.add_to_collection(collection, new_tensor)
        return new_tensor
    if isinstance(org_instance, Operation):
        return _copy_operation(org_instance, to_graph, variables, scope, new_name)
    raise TypeError("Could not copy instance: " + str(org_instance))


def get_copied_op(org_instance: Any, graph: Graph, scope: str = "") -> Any:
    """The element of `graph` named `scope/<org_instance's name>` (an Operation, or a
    Tensor for a tensor's name).

    Raises:
      KeyError: `graph` has no such copy.
    """
    return graph.as_graph_element(_scoped(scope, org_instance.name), allow_tensor=True,
                                  allow_operation=True)
