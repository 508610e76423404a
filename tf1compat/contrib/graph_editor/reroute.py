"""Rewiring the consumers of tensors (TF 1.15's `graph_editor/reroute.py`).

`reroute_ts(ts0, ts1)` makes the consumers of each `ts1[i]` read `ts0[i]` instead;
`swap_ts` exchanges the consumers of the two; the `*_inputs` / `*_outputs` / `*_ios`
forms do the same for the inputs or outputs of two subgraph views (and update the views
in place). Edits go through `Operation._update_input` / control-input edits, which mark
the graph's cached session plans stale.
"""

from __future__ import annotations

from typing import Any, FrozenSet, List, Optional, Set, Tuple

from tf1compat.contrib.graph_editor import subgraph as _subgraph
from tf1compat.contrib.graph_editor import util as _util
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = [
    "swap_ts",
    "reroute_ts",
    "swap_inputs",
    "reroute_inputs",
    "swap_outputs",
    "reroute_outputs",
    "swap_ios",
    "reroute_ios",
    "remove_control_inputs",
    "add_control_inputs",
]

# Which way tensors are rerouted: both ways, ts0's onto ts1's consumers, or the reverse.
_SWAP, _A2B, _B2A = range(3)


def _directions(mode: int) -> Tuple[bool, bool]:
    if mode == _SWAP:
        return True, True
    if mode == _A2B:
        return True, False
    if mode == _B2A:
        return False, True
    raise ValueError(f"Unknown _RerouteMode: {mode}")


def _check_ts_compatibility(ts0: List[Tensor], ts1: List[Tensor]) -> None:
    if len(ts0) != len(ts1):
        raise ValueError(f"ts0 and ts1 have different sizes: {len(ts0)} != {len(ts1)}")
    for t0, t1 in zip(ts0, ts1):
        if not t0.dtype.is_compatible_with(t1.dtype):
            raise ValueError(f"Dtypes {t0.dtype} and {t1.dtype} are not compatible.")
        if not t0.get_shape().is_compatible_with(t1.get_shape()):
            raise ValueError(f"Shapes {t0.get_shape()} and {t1.get_shape()} are not "
                             "compatible.")


def _reroute_t(t0: Tensor, t1: Tensor, consumers1: Set[Operation],
               can_modify: Optional[FrozenSet[Operation]],
               cannot_modify: Optional[FrozenSet[Operation]]) -> int:
    """Makes `consumers1` (those allowed) read `t0` wherever they read `t1`."""
    if can_modify is not None:
        consumers1 &= can_modify
    if cannot_modify is not None:
        consumers1 -= cannot_modify
    updates = 0
    # Creation order, so edits (and the structure version) follow the graph, not hashes.
    for consumer in sorted(consumers1, key=lambda op: op._id):
        for i in [i for i, t in enumerate(consumer._inputs) if t is t1]:
            consumer._update_input(i, t0)
            updates += 1
    return updates


def _reroute_ts(ts0: Any, ts1: Any, mode: int, can_modify: Any = None,
                cannot_modify: Any = None) -> int:
    a2b, b2a = _directions(mode)
    ts0 = _util.make_list_of_t(ts0)
    ts1 = _util.make_list_of_t(ts1)
    _check_ts_compatibility(ts0, ts1)
    if cannot_modify is not None:
        cannot_modify = frozenset(_util.make_list_of_op(cannot_modify))
    if can_modify is not None:
        can_modify = frozenset(_util.make_list_of_op(can_modify))
    # The consumers are taken before any edit, so a swap does not undo itself.
    consumers = [(set(t0.consumers()), set(t1.consumers())) for t0, t1 in zip(ts0, ts1)]
    updates = 0
    for t0, t1, (consumers0, consumers1) in zip(ts0, ts1, consumers):
        if t0 is t1:
            continue
        if a2b:
            updates += _reroute_t(t0, t1, consumers1, can_modify, cannot_modify)
        if b2a:
            updates += _reroute_t(t1, t0, consumers0, can_modify, cannot_modify)
    return updates


def swap_ts(ts0: Any, ts1: Any, can_modify: Any = None, cannot_modify: Any = None) -> int:
    """Exchanges the consumers of `ts0[i]` and `ts1[i]` (only the ops in `can_modify`, none
    of `cannot_modify`); returns the number of inputs changed."""
    return _reroute_ts(ts0, ts1, _SWAP, can_modify, cannot_modify)


def reroute_ts(ts0: Any, ts1: Any, can_modify: Any = None, cannot_modify: Any = None) -> int:
    """Makes the consumers of `ts1[i]` read `ts0[i]` (only the ops in `can_modify`, none of
    `cannot_modify`); returns the number of inputs changed."""
    return _reroute_ts(ts0, ts1, _A2B, can_modify, cannot_modify)


def _reroute_sgv_remap(sgv0: _subgraph.SubGraphView, sgv1: _subgraph.SubGraphView,
                       mode: int) -> None:
    """Updates the two views for their inputs having been rerouted."""
    a2b, b2a = _directions(mode)
    if not isinstance(sgv0, _subgraph.SubGraphView):
        raise TypeError(f"Expected a SubGraphView, got {type(sgv0)}")
    if not isinstance(sgv1, _subgraph.SubGraphView):
        raise TypeError(f"Expected a SubGraphView, got {type(sgv1)}")
    _util.check_graphs(sgv0, sgv1)
    new0, new1 = sgv0.copy(), sgv1.copy()
    if a2b and b2a:
        new0._input_ts, new1._input_ts = new1._input_ts, new0._input_ts
        new0._passthrough_ts, new1._passthrough_ts = new1._passthrough_ts, \
            new0._passthrough_ts
    elif a2b:
        new1._input_ts = new0._input_ts[:]
        new1._passthrough_ts = new0._passthrough_ts[:]
    elif b2a:
        new0._input_ts = new1._input_ts[:]
        new0._passthrough_ts = new1._passthrough_ts[:]

    def follow_passthroughs(a: _subgraph.SubGraphView, b: _subgraph.SubGraphView) -> None:
        # A passthrough output now leaves `b` as the input it came in with.
        for i, t in enumerate(b._output_ts):
            if t in a._passthrough_ts:
                b._output_ts[i] = b._input_ts[a._input_ts.index(t)]

    if a2b:
        follow_passthroughs(new0, new1)
    if b2a:
        follow_passthroughs(new1, new0)
    sgv0._assign_from(new0)
    sgv1._assign_from(new1)


def _reroute_sgv_inputs(sgv0: Any, sgv1: Any, mode: int) -> tuple:
    sgv0 = _subgraph.make_view(sgv0)
    sgv1 = _subgraph.make_view(sgv1)
    _util.check_graphs(sgv0, sgv1)
    can_modify = sgv0.ops + sgv1.ops
    can_modify += _util.get_consuming_ops(sgv0.passthroughs)
    can_modify += _util.get_consuming_ops(sgv1.passthroughs)
    _reroute_ts(sgv0.inputs, sgv1.inputs, mode, can_modify=can_modify)
    _reroute_sgv_remap(sgv0, sgv1, mode)
    return sgv0, sgv1


def _reroute_sgv_outputs(sgv0: Any, sgv1: Any, mode: int) -> tuple:
    sgv0 = _subgraph.make_view(sgv0)
    sgv1 = _subgraph.make_view(sgv1)
    _util.check_graphs(sgv0, sgv1)
    _reroute_ts(sgv0.outputs, sgv1.outputs, mode, cannot_modify=sgv0.ops + sgv1.ops)
    return sgv0, sgv1


def _reroute_sgv(sgv0: Any, sgv1: Any, mode: int) -> tuple:
    _reroute_sgv_outputs(sgv0, sgv1, mode)
    _reroute_sgv_inputs(sgv0, sgv1, mode)
    return sgv0, sgv1


def _sgv_edit(name: str, edit: Any, mode: int, doc: str) -> Any:
    def run(sgv0: Any, sgv1: Any) -> tuple:
        return edit(sgv0, sgv1, mode)
    run.__name__ = run.__qualname__ = name
    run.__doc__ = doc
    return run


swap_inputs = _sgv_edit("swap_inputs", _reroute_sgv_inputs, _SWAP,
                        "Exchanges the inputs of two subgraph views; returns the (updated) "
                        "views.")
reroute_inputs = _sgv_edit("reroute_inputs", _reroute_sgv_inputs, _A2B,
                           "Makes `sgv1` read `sgv0`'s inputs; returns the (updated) views.")
swap_outputs = _sgv_edit("swap_outputs", _reroute_sgv_outputs, _SWAP,
                         "Exchanges the consumers of the outputs of two subgraph views.")
reroute_outputs = _sgv_edit("reroute_outputs", _reroute_sgv_outputs, _A2B,
                            "Makes the consumers of `sgv1`'s outputs read `sgv0`'s outputs.")
swap_ios = _sgv_edit("swap_ios", _reroute_sgv, _SWAP, "`swap_outputs` then `swap_inputs`.")
reroute_ios = _sgv_edit("reroute_ios", _reroute_sgv, _A2B,
                        "`reroute_outputs` then `reroute_inputs`.")


def remove_control_inputs(op: Operation, cops: Any) -> None:
    """Removes the control inputs `cops` of `op` (ValueError if one is not there)."""
    if not isinstance(op, Operation):
        raise TypeError(f"Expected a tf.Operation, got: {type(op)}")
    cops = _util.make_list_of_op(cops, allow_graph=False)
    for cop in cops:
        if cop not in op.control_inputs:
            # TF's message names the two ops in this order.
            raise ValueError(f"{op.name} is not a control_input of {cop.name}")
    kept = [cop for cop in op.control_inputs if cop not in cops]
    op._remove_all_control_inputs()
    op._add_control_inputs(kept)


def add_control_inputs(op: Operation, cops: Any) -> None:
    """Adds the control inputs `cops` to `op` (ValueError if one is already there)."""
    if not isinstance(op, Operation):
        raise TypeError(f"Expected a tf.Operation, got: {type(op)}")
    cops = _util.make_list_of_op(cops, allow_graph=False)
    for cop in cops:
        if cop in op.control_inputs:
            raise ValueError(f"{cop.name} is already a control_input of {op.name}")
    op._add_control_inputs(cops)
