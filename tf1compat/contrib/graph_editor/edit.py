"""Cutting and joining subgraphs (TF 1.15's `graph_editor/edit.py`): `detach` puts
placeholders in place of a view's inputs and outputs, `connect` feeds one view's outputs
into another's inputs, `bypass` routes a view's inputs straight to its consumers.
"""

from __future__ import annotations

from typing import Any, List, Tuple

from tf1compat.contrib.graph_editor import reroute, select, subgraph, util
from tf1compat.framework.tensor import Tensor

__all__ = [
    "detach_control_inputs",
    "detach_control_outputs",
    "detach_inputs",
    "detach_outputs",
    "detach",
    "connect",
    "bypass",
]


def detach_control_inputs(sgv: Any) -> None:
    """Removes the control inputs that come into the view's ops from outside it."""
    sgv = subgraph.make_view(sgv)
    for op in sgv.ops:
        outside = [cop for cop in op.control_inputs if cop not in sgv.ops]
        reroute.remove_control_inputs(op, outside)


def detach_control_outputs(sgv: Any, control_outputs: util.ControlOutputs) -> None:
    """Removes the control edges from the view's ops to ops outside it."""
    if not isinstance(control_outputs, util.ControlOutputs):
        raise TypeError(f"Expected a util.ControlOutputs, got: {type(control_outputs)}")
    control_outputs.update()
    sgv = subgraph.make_view(sgv)
    for op in sgv.ops:
        for cop in control_outputs.get(op):
            if cop not in sgv.ops:
                reroute.remove_control_inputs(cop, op)


def detach_inputs(sgv: Any, control_inputs: bool = False
                  ) -> Tuple[subgraph.SubGraphView, List[Tensor]]:
    """Makes the view read new placeholders (`geph__...`, dtype only, as TF) instead of its
    inputs; returns the view and the placeholders."""
    from tf1compat.ops.array_ops import placeholder
    sgv = subgraph.make_view(sgv)
    with sgv.graph.as_default():
        placeholders = [placeholder(dtype=t.dtype, name=util.placeholder_name(t))
                        for t in sgv.inputs]
    reroute.swap_inputs(sgv, placeholders)
    if control_inputs:
        detach_control_inputs(sgv)
    return sgv, placeholders


def detach_outputs(sgv: Any, control_outputs: Any = None
                   ) -> Tuple[subgraph.SubGraphView, List[Tensor]]:
    """Makes the view's consumers read new placeholders (with the outputs' shapes) instead
    of its outputs; returns the view of the outputs that had consumers and the
    placeholders."""
    sgv = subgraph.make_view(sgv)
    consumed = sgv.remap_outputs([i for i, t in enumerate(sgv.outputs) if t.consumers()])
    consumers = subgraph.SubGraphView(consumed.consumers())
    consumers = consumers.remap_inputs([i for i, t in enumerate(consumers.inputs)
                                        if t in consumed.outputs])
    with consumed.graph.as_default():
        placeholders = [util.make_placeholder_from_tensor(t) for t in consumers.inputs]
    reroute.swap_outputs(consumed, placeholders)
    if control_outputs is not None:
        detach_control_outputs(consumed, control_outputs)
    return consumed, placeholders


def detach(sgv: Any, control_inputs: bool = False, control_outputs: Any = None,
           control_ios: Any = None) -> tuple:
    """`detach_inputs` and `detach_outputs`: returns `(sgv, input placeholders, output
    placeholders)`."""
    control_inputs, control_outputs = select.check_cios(control_inputs, control_outputs,
                                                        control_ios)
    _, detached_inputs = detach_inputs(sgv, control_inputs)
    _, detached_outputs = detach_outputs(sgv, control_outputs)
    return sgv, detached_inputs, detached_outputs


def connect(sgv0: Any, sgv1: Any, disconnect_first: bool = False) -> tuple:
    """Makes `sgv1` read `sgv0`'s outputs as its inputs (after detaching `sgv0`'s outputs
    from their consumers when `disconnect_first`)."""
    sgv0 = subgraph.make_view(sgv0)
    sgv1 = subgraph.make_view(sgv1)
    util.check_graphs(sgv0, sgv1)
    if disconnect_first:
        detach_outputs(sgv0)
    outputs_view = subgraph.SubGraphView(passthrough_ts=sgv0.outputs)
    reroute.reroute_inputs(outputs_view, sgv1)
    return sgv0, sgv1


def bypass(sgv: Any) -> tuple:
    """Routes the view's inputs to the consumers of its outputs (input i replaces output
    i) and detaches its inputs; returns the view and the input placeholders."""
    sgv = subgraph.make_view(sgv)
    inputs = list(sgv.inputs)
    sgv, detached_inputs = detach_inputs(sgv)
    reroute.reroute_ts(inputs, sgv.outputs)
    return sgv, detached_inputs
