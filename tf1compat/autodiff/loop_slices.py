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

import collections
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.grad_names import SPARSE, Pass, default_names
from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["LoopSlices", "CondSlices", "SliceSpec", "CondSpec", "loop_slice_sites",
           "accumulator_names", "row_shape", "register", "recorded_outputs", "assemble"]

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
    inner: tuple = ()       # (nested While or If op, its LoopSlices or CondSlices)

    def nested(self, site: Operation) -> Any:
        for op, entry in self.inner:
            if op is site:
                return entry
        return None


@dataclass(frozen=True)
class CondSlices:
    """A tf.cond in a loop body whose branches gather the input: per branch that uses
    it (then first, as TF creates their Switches), the branch index (the If kernel's:
    1 then, 0 else) and its gathers. TF's gradient per iteration: the taken branch's
    slices; for a using branch not taken, zeros as slices of every row."""
    if_op: Operation
    tensor: Tensor
    branches: tuple


def _cond_slices(op: Operation, t: Tensor) -> Optional[CondSlices]:
    from tf1compat.ops.cond import Branch
    branches = []
    for k, attr in ((1, "then_branch"), (0, "else_branch")):
        branch = op.attrs.get(attr)
        if not isinstance(branch, Branch):
            return None
        found: List[Operation] = []
        inner: List[tuple] = []
        if not _sites_of(t, set(branch.region.ops), found, inner) or inner:
            return None
        if found:
            order = {o: j for j, o in enumerate(branch.region.ops)}
            branches.append((k, tuple(sorted(found, key=order.__getitem__))))
    return CondSlices(op, t, tuple(branches)) if branches else None


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
            nested = loop_slice_sites(consumer).get(k) if consumer._type == "While" else \
                _cond_slices(consumer, t) if consumer._type == "If" and k > 0 else None
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
        nested = dict(inner)
        rows = [row_shape(_gathers(nested[g])[0] if g in nested else g) for g in found]
        if not all(r.is_fully_defined() for r in rows) or \
                len({tuple(r.as_list()) for r in rows}) != 1:
            continue
        order = {o: k for k, o in enumerate(loop.body_region.ops)}
        first = min((c for c in t._consumers if c in body_ops), key=order.__getitem__)
        if first._type == "If":         # TF's Enter feeds the first branch's Switch
            first = _gathers(nested[first])[0]
        out[i] = LoopSlices(tuple(_walk_order(loop, found)), first, op, tuple(inner))
    return out


def _walk_order(loop: Any, sites: List[Operation]) -> List[Operation]:
    """The sites in the order TF's backward walk of the body reaches them, which is the
    order their slices join the accumulation each iteration: a queue from the body's
    outputs, an op taken once the gradients of all its consumers are in (a gather
    whose output a tf.cond also reads comes after the cond). A nested loop's slices
    come last: TF sums them only when the nested backward loop has finished."""
    body = set(loop.body_region.ops)
    between: set = set()
    stack = [t._op for t in loop.body_outputs if t._op in body]
    while stack:
        op = stack.pop()
        if op not in between:
            between.add(op)
            stack.extend(t._op for t in op._inputs if t._op in body)
    pending: Dict[Operation, int] = {}
    for op in between:
        for t in op._inputs:
            if t._op in between:
                pending[t._op] = pending.get(t._op, 0) + 1
    queue = collections.deque(dict.fromkeys(
        t._op for t in loop.body_outputs if t._op in between and not pending.get(t._op)))
    rank: Dict[Operation, int] = {}
    while queue:
        op = queue.popleft()
        rank[op] = len(rank)
        for t in op._inputs:
            if t._op in between:
                pending[t._op] -= 1
                if pending[t._op] == 0:
                    queue.append(t._op)
    last = len(rank)
    return sorted(sites, key=lambda op: (op._type == "While", rank.get(op, last)))


def row_shape(gather: Operation) -> TensorShape:
    """The shape of one gathered row (the gather's output past its indices' dims)."""
    out, indices = gather._outputs[0].shape, gather._inputs[1].shape
    if out.rank is None or indices.rank is None:
        return TensorShape(None)
    skip = indices.rank - 1 if gather._type in ("GatherNd", "ResourceGatherNd") \
        else indices.rank
    return TensorShape(out.dims[skip:])


def _gathers(entry: Any) -> List[Operation]:
    """The gathers of a LoopSlices or CondSlices, nested ones' included."""
    if isinstance(entry, CondSlices):
        return [g for _, sites in entry.branches for g in sites]
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
    (with the spec of a nested loop's or cond's slices), the rows' shape, and the
    dtypes of the indices and values it outputs."""
    while_op: Operation
    sites: tuple            # (position, SliceSpec or CondSpec of a nested site, or None)
    row: tuple
    dtypes: tuple
    source: int = -1        # the gradient op's source the gathered tensor comes from


@dataclass(frozen=True)
class CondSpec:
    """A cond site's part of a SliceSpec: per using branch, its index and the positions
    of its gathers among the branch's recorded sites."""
    branches: tuple


def _register_cond(entry: CondSlices) -> CondSpec:
    branches = {1: entry.if_op.attrs["then_branch"], 0: entry.if_op.attrs["else_branch"]}
    for branch in branches.values():
        branch.sliced = entry.tensor
    spec = []
    for k, sites in entry.branches:
        recorded = branches[k].slice_sites
        recorded.extend(g for g in sites if g not in recorded)
        spec.append((k, tuple(recorded.index(g) for g in sites)))
    return CondSpec(tuple(spec))


def register(entry: LoopSlices) -> SliceSpec:
    """Makes gradient runs of `entry`'s loop (and nested loops and conds) record its
    sites; the gradient op's spec."""
    loop = entry.while_op.attrs["loop"]
    for site in entry.sites:
        if site not in loop.slice_sites:
            loop.slice_sites.append(site)
    sites = []
    for site in entry.sites:
        nested = entry.nested(site)
        sub = None if nested is None else _register_cond(nested) \
            if isinstance(nested, CondSlices) else register(nested)
        sites.append((loop.slice_sites.index(site), sub))
    gathers = _gathers(entry)
    types = {g._inputs[1].dtype.base_dtype for g in gathers}
    index_dtype = types.pop() if len(types) == 1 else D.int64
    dtypes = (index_dtype, gathers[0]._outputs[0].dtype.base_dtype)
    return SliceSpec(entry.while_op, tuple(sites), tuple(row_shape(gathers[0]).as_list()),
                     dtypes)


def recorded_outputs(spec: SliceSpec, iterations: Sequence[Sequence[Any]]) -> List[Any]:
    """The gather outputs a loop recorded for `spec`, in forward order (what the
    gradient op differentiates; `assemble` takes their gradients in this order)."""
    out: List[Any] = []
    for iteration in iterations:
        for position, nested in spec.sites:
            record = iteration[position]
            if nested is None:
                out.append(record[1])
            elif isinstance(nested, CondSpec):
                taken, _, records = record
                out.extend(records[p][1] for k, positions in nested.branches if k == taken
                           for p in positions)
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

    def gathered(ids: Any, out: Any) -> tuple:
        g = next(grads_left)
        g = torch.zeros_like(out) if g is None else g
        return (ids.reshape(-1).to(device=device, dtype=index_dtype),
                g.reshape((ids.numel(),) + row).to(device=device, dtype=value_dtype))

    def cond_pieces(spec: CondSpec, record: tuple) -> List[tuple]:
        taken, rows, records = record
        parts = []
        for k, positions in spec.branches:
            if k == taken:
                parts.extend(gathered(*records[p]) for p in positions)
            else:       # TF's zeros for the branch not taken, as slices of every row
                parts.append((torch.arange(rows, dtype=index_dtype, device=device),
                              torch.zeros((rows,) + row, dtype=value_dtype, device=device)))
        return parts

    def pieces(spec: SliceSpec, iterations: Sequence[Sequence[Any]]) -> List[tuple]:
        # [index 0, a zero row], then the backward iterations' slices, last forward first
        first = (torch.zeros(1, dtype=index_dtype, device=device),
                 torch.zeros((1,) + row, dtype=value_dtype, device=device))
        per_iteration = []
        for iteration in iterations:        # forward order, as the gradients come
            parts: List[tuple] = []
            for position, nested in spec.sites:
                record = iteration[position]
                if isinstance(nested, CondSpec):
                    parts.extend(cond_pieces(nested, record))
                elif nested is not None:
                    parts.extend(pieces(nested, record))
                else:
                    parts.append(gathered(*record))
            per_iteration.append(parts)
        return [first] + [p for parts in reversed(per_iteration) for p in parts]

    found = pieces(spec, iterations)
    return torch.cat([i for i, _ in found]), torch.cat([v for _, v in found])
