"""IndexedSlices gradients of gathers inside `tf.while_loop` bodies, as TF 1.x builds them.

TF's gradient of a loop-invariant tensor that the body only gathers rows of is an
IndexedSlices accumulated over the backward iterations (control_flow_ops.py
`AddBackpropIndexedSlicesAccumulator`): the indices start as `[0]` and the values as one
row of zeros, and each backward iteration (the last forward iteration first) appends
the indices of the body's gathers (in the order the body created them) and the
gradients of their outputs as rows. Optimizers then take their sparse paths.

tf1compat keeps the forward loop as it is. At graph build the walk (walk.py) asks
`loop_slice_sites` which captured inputs of a While op get such a gradient; the gradient
op then lists those loops and their gathers (attr `loop_slices`), the While kernel of a
gradient run records each iteration's gather indices and outputs
(`ops/while_loop.py`: `slice_records`), and the gradient op differentiates the recorded
outputs (one autograd call with its other sources) and concatenates them in TF's order
(`assemble`). The exported graph writes TF's `b_acc` loop instead
(graphdef/loop_gradient_slices.py).

Where TF's accumulated form differs from what this covers (a gather under a tf.cond in
the body, a gather in a nested loop, the tensor also used densely in the body), the
gradient stays dense, as the values of TF's IndexedSlices summed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.grad_names import SPARSE, Pass, default_names
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["LoopSlices", "SliceSpec", "loop_slice_sites", "accumulator_names", "row_shape",
           "register", "recorded_outputs", "assemble"]

# Ops a body may read the captured tensor through before gathering: the gradient passes
# them unchanged (TF's Enter gradient sees the gathers' IndexedSlices).
_PASS_TYPES = ("Identity", "ReadVariableOp")


@dataclass(frozen=True)
class LoopSlices:
    """A walk entry: the While input gets the accumulated IndexedSlices of `sites`."""
    sites: tuple            # the body's gathers of the input and the nested While ops
                            # that accumulate it, in creation order
    first: Operation        # the body op TF's Enter of the input feeds (names the grad scope)
    while_op: Operation
    inner: tuple = ()       # (nested While op, its LoopSlices) for the nested sites

    def nested(self, site: Operation) -> Optional["LoopSlices"]:
        for op, entry in self.inner:
            if op is site:
                return entry
        return None


def _entries(op: Operation) -> List[Any]:
    rule = get_op_def(op._type).grad_names or default_names
    entries = rule(op)
    return entries if len(entries) == len(op._inputs) else default_names(op)


def _sites_of(t: Tensor, members: set, found: List[Operation], inner: List[tuple]) -> bool:
    """Collects the gathers in `members` reading `t` (through pass-through ops) and the
    nested loops accumulating it; False where `t` has a differentiable use there that is
    neither."""
    for consumer in t._consumers:
        if consumer not in members:
            continue
        for k, t_in in enumerate(consumer._inputs):
            if t_in is not t:
                continue
            nested = loop_slice_sites(consumer).get(k) if consumer._type == "While" else None
            entry = _entries(consumer)[k]
            if nested is not None:
                found.append(consumer)
                inner.append((consumer, nested))
            elif entry is None:
                continue            # shapes and other reads no gradient flows through
            elif entry is SPARSE and k == 0:
                found.append(consumer)
            elif consumer._type in _PASS_TYPES and isinstance(entry, Pass):
                if not _sites_of(consumer._outputs[0], members, found, inner):
                    return False
            else:
                return False
    return True


def loop_slice_sites(op: Operation) -> Dict[int, LoopSlices]:
    """The inputs of While op `op` whose TF gradient is an accumulated IndexedSlices:
    captures its condition does not use and its body only gathers rows of (itself or in
    nested loops), with rows of one static shape (the accumulator's first row)."""
    loop = op.attrs.get("loop") if op._type == "While" else None
    if loop is None or not op.attrs.get("back_prop", True):
        return {}
    n = len(loop.body_args)
    cond_ops = set(loop.cond_region.ops)
    body_ops = set(loop.body_region.ops)
    out: Dict[int, LoopSlices] = {}
    for i in range(n, len(op._inputs)):
        t = op._inputs[i]
        if any(c in cond_ops for c in t._consumers):
            continue
        found: List[Operation] = []
        inner: List[tuple] = []
        if not _sites_of(t, body_ops, found, inner) or not found:
            continue
        entry = LoopSlices(tuple(found), found[0], op, tuple(inner))
        rows = [_site_row(entry, g) for g in found]
        if not all(r.is_fully_defined() for r in rows) or \
                len({tuple(r.as_list()) for r in rows}) != 1:
            continue
        order = {o: k for k, o in enumerate(loop.body_region.ops)}
        found.sort(key=order.__getitem__)
        first = min((c for c in t._consumers if c in body_ops), key=order.__getitem__)
        out[i] = LoopSlices(tuple(found), first, op, tuple(inner))
    return out


def row_shape(gather: Operation) -> TensorShape:
    """The shape of one gathered row (the gather's output past its indices' dims)."""
    out, indices = gather._outputs[0].shape, gather._inputs[1].shape
    if out.rank is None or indices.rank is None:
        return TensorShape(None)
    skip = indices.rank - 1 if gather._type in ("GatherNd", "ResourceGatherNd") \
        else indices.rank
    return TensorShape(out.dims[skip:])


def _site_row(entry: LoopSlices, site: Operation) -> TensorShape:
    nested = entry.nested(site)
    return row_shape(site) if nested is None else _site_row(nested, nested.sites[0])


def _gathers(entry: LoopSlices) -> List[Operation]:
    """The gathers of `entry`, nested loops' included."""
    out: List[Operation] = []
    for site in entry.sites:
        nested = entry.nested(site)
        out.extend([site] if nested is None else _gathers(nested))
    return out


def accumulator_names(entry: LoopSlices) -> List[str]:
    """TF's local names of the Exits of the indices, values and dense-shape
    accumulators: `b_acc` numbering starts one later where the values' first row is a
    named constant (values of a fully defined shape: no nested loop's slices)."""
    static = not entry.inner and \
        all(g._outputs[0].shape.is_fully_defined() for g in entry.sites)
    start = 7 if static else 6
    return [f"b_acc_{start + k}" for k in range(3)]


@dataclass(frozen=True)
class SliceSpec:
    """What a gradient op needs of one accumulated IndexedSlices (its attr
    `loop_slices`): the While op, where its sites sit among the loop's recorded sites
    (with the spec of a nested loop's slices), the rows' shape, and the dtypes of the
    indices and values it outputs."""
    while_op: Operation
    sites: tuple            # (position, SliceSpec of a nested loop or None)
    row: tuple
    dtypes: tuple


def register(entry: LoopSlices) -> SliceSpec:
    """Makes gradient runs of `entry`'s loop (and nested loops) record its sites; the
    gradient op's spec."""
    loop = entry.while_op.attrs["loop"]
    for site in entry.sites:
        if site not in loop.slice_sites:
            loop.slice_sites.append(site)
    sites = []
    for site in entry.sites:
        nested = entry.nested(site)
        sites.append((loop.slice_sites.index(site),
                       None if nested is None else register(nested)))
    gathers = _gathers(entry)
    types = {g._inputs[1].dtype.base_dtype for g in gathers}
    index_dtype = types.pop() if len(types) == 1 else D.int64
    dtypes = (index_dtype, gathers[0]._outputs[0].dtype.base_dtype)
    return SliceSpec(entry.while_op, tuple(sites),
                     tuple(_site_row(entry, entry.sites[0]).as_list()), dtypes)


def recorded_outputs(spec: SliceSpec, iterations: Sequence[Sequence[Any]]) -> List[Any]:
    """The gather outputs a loop recorded for `spec`, in forward order (what the
    gradient op differentiates; `assemble` takes their gradients in this order)."""
    out: List[Any] = []
    for iteration in iterations:
        for position, nested in spec.sites:
            record = iteration[position]
            if nested is None:
                out.append(record[1])
            else:
                out.extend(recorded_outputs(nested, record))
    return out


def assemble(spec: SliceSpec, iterations: Sequence[Sequence[Any]], grads: Sequence[Any],
             device: Any) -> tuple:
    """TF's accumulated (indices, values) from the recorded iterations (per iteration
    and site: (indices, output) of a gather, the iterations of a nested loop) and the
    gradients of `recorded_outputs` (in its order)."""
    index_dtype = spec.dtypes[0].torch_dtype
    value_dtype = spec.dtypes[1].torch_dtype
    row = tuple(spec.row)
    grads_left = iter(grads)

    def pieces(spec: SliceSpec, iterations: Sequence[Sequence[Any]]) -> List[tuple]:
        # [index 0, a zero row], then the backward iterations' slices, last forward first
        first = (torch.zeros(1, dtype=index_dtype, device=device),
                 torch.zeros((1,) + row, dtype=value_dtype, device=device))
        per_iteration = []
        for iteration in iterations:        # forward order, as the gradients come
            parts: List[tuple] = []
            for position, nested in spec.sites:
                record = iteration[position]
                if nested is not None:
                    parts.extend(pieces(nested, record))
                    continue
                ids, out = record
                g = next(grads_left)
                g = torch.zeros_like(out) if g is None else g
                parts.append((ids.reshape(-1).to(device=device, dtype=index_dtype),
                              g.reshape((ids.numel(),) + row).to(device=device,
                                                                dtype=value_dtype)))
            per_iteration.append(parts)
        return [first] + [p for parts in reversed(per_iteration) for p in parts]

    found = pieces(spec, iterations)
    return torch.cat([i for i, _ in found]), torch.cat([v for _, v in found])
