"""Plan rewrites: a reshape to a shape read from its own input, and fused op chains
(Conv2D + BiasAdd + Relu; Grappler's constant push-down), each run as one kernel.

The op chains of `framework/hooks.PLAN_FUSIONS` (Conv2D + BiasAdd (+ Relu), as TF's oneDNN
build fuses them: ops/nn_conv_bias.py; `(X + Y) - C` as Grappler re-associates it:
ops/constant_push_down.py) whose intermediate values nothing else reads are
found by `fused_chains`; the binder in plan.py binds such a chain as one step of its last
op, or op by op where its kernel cannot take it.

`tf.reshape(x, [tf.shape(x)[0], n])` - what every dense feature column's `input_layer`
output builds (feature_column/layers.py, TF's `_DenseColumn` handling), and a common idiom
of TF1 models - is four ops: `Shape -> StridedSlice -> Pack -> Reshape`. Where `x`'s
batch dimension is unknown at graph build (a `tf.data` pipeline's `batch()` without
`drop_remainder`), the plan cannot fold the shape to a constant, so each run pays four
kernel calls (and Python to convert the packed tensor back to ints) for what is
`x.reshape(x.shape[0], n)`. A plan pass finds that pattern and binds the Reshape with a
kernel that reads the dimensions from `x` itself (the Reshape kernel factory builds it
when the plan hands it the pattern as `kctx.own_shape`, ops/array_ops.py); the Shape,
StridedSlice and Pack steps are pruned when nothing else in the plan needs them.

The rewrite applies only where it is provably the same computation: the Pack (axis 0)
packs Python-known constant scalars and `StridedSlice(Shape(x), [i], [i + 1], [1])` with
only `shrink_axis_mask` set, `x` has a known rank and `i` lies inside it (so the slice
cannot fail), none of the three ops has control inputs, and the Reshape's input is that
same tensor `x`. The rewritten kernel checks the element count with the Reshape kernel's
own check and message (`ops/array_ops.py` `_check_reshape`), so a bad constant fails
with the same InvalidArgumentError from the same op. Shapes known at graph build are left
to constant folding. Dataflow (TF1 control flow) plans are not rewritten.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Dict, Iterable, List, Optional, Set

import numpy as np

from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.hooks import PLAN_FUSIONS
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["own_shape_reshapes", "fused_chains", "FusedChain"]

_SLICE_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask")


def _const_int(t: Tensor) -> Optional[int]:
    """A scalar integer known at graph build, else None."""
    value = constant_value(t)
    if value is None or np.ndim(value) != 0:
        return None
    return int(value)


def _single_int(t: Tensor) -> Optional[int]:
    value = constant_value(t)
    if value is None or np.shape(value) != (1,):
        return None
    return int(np.asarray(value).reshape(-1)[0])


def _shape_dim(t: Tensor, x: Tensor) -> Optional[int]:
    """The dimension `i` (0 <= i < rank) when `t` is `tf.shape(x)[i]` built as
    StridedSlice(Shape(x), [i], [i + 1], [1]) with only shrink_axis_mask, else None."""
    op = t._op
    if op._type != "StridedSlice" or op._control_inputs or \
            any(op.get_attr(m) for m in _SLICE_MASKS) or op.get_attr("shrink_axis_mask") != 1:
        return None
    shape_op = op._inputs[0]._op
    if shape_op._type != "Shape" or shape_op._control_inputs or shape_op._inputs[0] is not x:
        return None
    begin, end, stride = (_single_int(op._inputs[k]) for k in (1, 2, 3))
    rank = x.shape.rank
    if begin is None or end is None or stride != 1 or rank is None:
        return None
    index = begin + rank if begin < 0 else begin
    if not 0 <= index < rank or end != (begin + 1 if begin != -1 else 0):
        return None
    return index


def _dims_spec(reshape: Operation) -> Optional[List[Any]]:
    """For a Reshape of `x` to Pack([...]) of constants and dimensions of `x` itself:
    per target dimension, an int (a constant) or ("dim", i); None when not that pattern
    or when the shape is known at graph build (constant folding handles it)."""
    x, shape = reshape._inputs
    pack = shape._op
    if pack._type != "Pack" or pack._control_inputs or pack.get_attr("axis") != 0:
        return None
    spec: List[Any] = []
    for t in pack._inputs:
        value = _const_int(t)
        if value is not None:
            spec.append(value)
            continue
        index = _shape_dim(t, x)
        if index is None:
            return None
        spec.append(("dim", index))
    if constant_value(shape) is not None:
        return None
    return spec


def _fed_between(reshape: Operation, feeds: Dict[Tensor, Any]) -> bool:
    """Whether a feed replaces the packed shape or one of the tensors it is built from."""
    pack = reshape._inputs[1]._op
    between = [reshape._inputs[1]] + list(pack._inputs) + \
        [t._op._inputs[0] for t in pack._inputs if t._op._type == "StridedSlice"]
    return any(t in feeds for t in between)


def own_shape_reshapes(ops: Iterable[Operation], feeds: Dict[Tensor, Any]
                       ) -> Dict[Operation, List[Any]]:
    """{Reshape op: its target spec} for a plan's reshapes to their input's own
    dimensions (see the module docstring); `feeds` are the plan's fed tensors."""
    found: Dict[Operation, List[Any]] = {}
    for op in ops:
        if op._type == "Reshape" and op._inputs[1]._op._type == "Pack":
            spec = _dims_spec(op)
            if spec is not None and not _fed_between(op, feeds):
                found[op] = spec
    return found


@dataclass
class FusedChain:
    """Ops a plan runs as one kernel (framework/hooks.PLAN_FUSIONS): `ops` in order, the
    last one's outputs the chain's; `inputs` the kernel's arguments; `factory(kctx)` its
    kernel; `own_gradients`: the kernel applies its ops' TF gradient formulas itself
    (their `grad_formula`s need not wrap them)."""
    ops: List[Operation]
    inputs: List[Tensor]
    factory: Callable[[Any], Callable[..., Any]]
    own_gradients: bool = False


def fused_chains(order: List[Operation], feeds: Dict[Tensor, Any], fetched: Set[Tensor],
                 grad_sources: Set[Tensor]) -> Dict[Operation, FusedChain]:
    """{last op: its chain} for the chains of `order` (a plan's ops) that a fusion of
    PLAN_FUSIONS matches and whose intermediate values nothing else reads: as TF's
    remapper, a chain whose intermediate is fetched, fed, differentiated (a gradient
    source) or consumed by another op of the plan stays unfused, and so does one with
    control edges on its intermediate ops."""
    if not PLAN_FUSIONS:
        return {}
    in_plan = set(order)
    controlling = {c for op in order for c in op._control_inputs}
    found: Dict[Operation, FusedChain] = {}
    taken: Set[Operation] = set()
    for op in order:
        for match in PLAN_FUSIONS.values():
            hit = match(op)
            if hit is None:
                continue
            ops, inputs, factory, *own_gradients = hit
            if all(_private(prev, nxt, in_plan, controlling, feeds, fetched, grad_sources)
                   for prev, nxt in zip(ops, ops[1:])) and not taken.intersection(ops):
                found[op] = FusedChain(list(ops), list(inputs), factory,
                                       bool(own_gradients and own_gradients[0]))
                taken.update(ops)
            break
    return found


def _private(op: Operation, consumer: Operation, in_plan: Set[Operation],
             controlling: Set[Operation], feeds: Dict[Tensor, Any], fetched: Set[Tensor],
             grad_sources: Set[Tensor]) -> bool:
    """Whether `op`'s only output is read by `consumer` alone (once) in the plan."""
    if len(op._outputs) != 1 or op not in in_plan or op._control_inputs or \
            op in controlling:
        return False
    t = op._outputs[0]
    if t in feeds or t in fetched or t in grad_sources:
        return False
    readers = [c for c in t.consumers() if c in in_plan]
    return readers == [consumer] and sum(i is t for i in consumer._inputs) == 1
