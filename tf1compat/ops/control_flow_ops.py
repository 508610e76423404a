"""Grouping and ordering: NoOp, `tf.no_op`, `tf.group`, `tf.tuple`, `with_dependencies`.

(Conditionals and loops live in cond.py and while_loop.py.)
"""

from __future__ import annotations

import builtins
from typing import Any, List, Optional, Sequence

from tf1compat.framework import context as _context
from tf1compat.framework.graph import apply_op, get_default_graph, name_scope
from tf1compat.framework.op_def import declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor

declare("NoOp", shape=lambda ctx: [], kernel=None, grad="unregistered",
        doc="Does nothing; used for its control dependencies.")


def no_op(name: Optional[str] = None) -> Operation:
    """`tf.no_op` (None under eager execution, as TF)."""
    if _context._state["eager"]:
        return None
    return apply_op("NoOp", [], name=name)


def _flatten(items: Any) -> List[Any]:
    out: List[Any] = []
    for item in items:
        # builtins.tuple: this module's `tuple` is tf.tuple.
        if isinstance(item, (list, builtins.tuple)):
            out.extend(_flatten(item))
        elif isinstance(item, dict):
            out.extend(_flatten(list(item.values())))
        else:
            out.append(item)
    return out


def _group_control_deps(dev: Optional[str], deps: Sequence[Any], name: Optional[str] = None
                        ) -> Operation:
    graph = get_default_graph()
    with graph.control_dependencies(deps):
        if dev is None:
            return no_op(name=name)
        with graph.device(dev):
            return no_op(name=name)


def group(*inputs: Any, **kwargs: Any) -> Operation:
    """`tf.group`: one NoOp that runs after all `inputs` (ops, tensors, variables)."""
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
    if _context._state["eager"]:
        return None        # eager ops already ran, in order (TF returns None)
    with name_scope(name, "group_deps", inputs) as scope:
        if not inputs:
            return no_op(name=scope)
        ops_on_device: dict = {}
        for inp in _flatten(inputs):
            if not hasattr(inp, "device"):
                raise TypeError(f"'inputs' should be zero or more (nested) Tensors. "
                                f"Received '{inp}' with type '{type(inp)}'.")
            ops_on_device.setdefault(inp.device, []).append(inp)
        if len(ops_on_device) == 1:
            (dev, deps), = ops_on_device.items()
            return _group_control_deps(dev, deps, name=scope)
        deps = [_group_control_deps(dev, ops_on_device[dev])
                for dev in sorted(ops_on_device, key=lambda d: "" if d is None else d)]
        with get_default_graph().control_dependencies(deps):
            return no_op(name=scope)


def with_dependencies(dependencies: Sequence[Any], output_tensor: Any,
                      name: Optional[str] = None) -> Tensor:
    """An Identity of `output_tensor` that runs after `dependencies`."""
    if _context.executing_eagerly():
        # As TF: eager dependencies have already run; the tensor is returned unchanged.
        return output_tensor
    from tf1compat.ops.array_ops import identity
    graph = get_default_graph()
    with name_scope(name, "control_dependency", list(dependencies) + [output_tensor]) as scope:
        with graph.colocate_with(output_tensor):
            with graph.control_dependencies(dependencies):
                output_tensor = convert_to_tensor(output_tensor)
                return identity(output_tensor, name=scope)


def tuple(tensors: Sequence[Any], name: Optional[str] = None,  # noqa: A001 - TF's name
          control_inputs: Optional[Sequence[Any]] = None) -> list:
    """`tf.tuple`: the tensors, each gated on all of them having been computed."""
    if _context._state["eager"]:
        return list(tensors)      # eager values are computed already
    with name_scope(name, "tuple", tensors):
        tensors = [t if isinstance(t, (Operation, Tensor)) or t is None
                   else convert_to_tensor(t) for t in tensors]
        gating = [t if isinstance(t, Operation) else t.op for t in tensors if t is not None]
        for c in control_inputs or []:
            if isinstance(c, Tensor):
                c = c.op
            elif not isinstance(c, Operation):
                raise TypeError(f"'control_inputs' must only contain Operation or Tensor. "
                                f"Received: {c}")
            gating.append(c)
        gating = sorted(set(gating), key=lambda op: op._id)
        if not gating:
            raise ValueError(f"'tensors' must have at least one Tensor. Received: {tensors}.")
        gate = group(*gating)
        out = []
        for t in tensors:
            if isinstance(t, Tensor):
                out.append(with_dependencies([gate], t))
            elif isinstance(t, Operation):
                with get_default_graph().control_dependencies([gate]):
                    out.append(group(t))
            else:
                out.append(None)
        return out
