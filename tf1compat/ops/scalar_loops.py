"""Scalar while loops: a loop of a few elementwise ops on 0-d CPU values runs on numpy.

A `tf.while_loop` whose condition and body are counters and accumulators (`i < n`,
`i + 1`, `a * 0.999 + 1.0`) spends its time in torch's dispatch: each op on a 0-d tensor
costs about 1-1.5 us of argument parsing, dispatch, TensorIterator set-up and a new
tensor, whatever the loop around it does (the loop's own Python is within 2% of a
hand-written torch loop doing the same ops, docs/performance.md "cpu9"). numpy's scalars
of the same dtype compute the same IEEE results for these ops (one correctly rounded
float32/float64 add, subtract or multiply; exact comparisons and logical ops; integer
overflow wrapping as TF's and torch's do) for about 0.1 us each.

`ScalarLoop.build(cond_plan, body_plan)` says at the loop's first run whether every op of
both regions is one of `_SCALAR_OPS` on supported dtypes, with slot or constant inputs
only (no variable read, no device copy, no gradient op); each run then checks that every
value entering the loop is a 0-d CPU tensor of a supported dtype that does not require
gradients, and runs the loop on numpy scalars. Anything else returns None and the loop
runs its torch regions as before. Division, casts, maximum/minimum and the like are not
in the set: their edge cases (integer division's sign, out-of-range casts, NaN) would
each need their own check against TF.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.runtime.plan import CONST, SLOT, Plan

__all__ = ["ScalarLoop"]

_NUMERIC = frozenset({D.float32, D.float64, D.int32, D.int64})
_BOOL = frozenset({D.bool})


def _identity(x: Any) -> Any:
    return x      # numpy scalars are immutable: the value itself


# op type -> (scalar function, dtypes its inputs may have)
_SCALAR_OPS: dict[str, tuple[Callable[..., Any], frozenset]] = {
    "Identity": (_identity, _NUMERIC | _BOOL),
    "AddV2": (operator.add, _NUMERIC),
    "Add": (operator.add, _NUMERIC),
    "Sub": (operator.sub, _NUMERIC),
    "Mul": (operator.mul, _NUMERIC),
    "Neg": (operator.neg, _NUMERIC),
    "Less": (operator.lt, _NUMERIC),
    "LessEqual": (operator.le, _NUMERIC),
    "Greater": (operator.gt, _NUMERIC),
    "GreaterEqual": (operator.ge, _NUMERIC),
    "Equal": (operator.eq, _NUMERIC | _BOOL),
    "NotEqual": (operator.ne, _NUMERIC | _BOOL),
    "LogicalAnd": (operator.and_, _BOOL),
    "LogicalOr": (operator.or_, _BOOL),
    # `~` of a numpy bool is its logical not, and stays a numpy bool (`not` would not).
    "LogicalNot": (operator.invert, _BOOL),
}

_TORCH_DTYPES = frozenset({torch.float32, torch.float64, torch.int32, torch.int64,
                           torch.bool})


def _scalar_function(plan: Plan) -> Callable[[tuple], tuple] | None:
    """`plan` (a region compiled by `kctx.compile_function`) as a function of a tuple of
    numpy scalars returning a tuple of numpy scalars, or None where it has anything
    outside `_SCALAR_OPS`."""
    if plan.needs_grad or plan.dataflow or plan.fetch_wrappers or plan.error is not None:
        return None
    ns: dict[str, Any] = {}
    names: dict[int, str] = {}

    def slot(ref: int) -> str:
        return names.setdefault(ref, f"s{len(names)}")

    def render(src: Any) -> str | None:
        if src.to_device is not None:
            return None
        if src.kind == SLOT:
            return slot(src.ref)
        value = src.ref
        if src.kind != CONST or not isinstance(value, torch.Tensor) or value.dim() != 0 \
                or value.device.type != "cpu" or value.dtype not in _TORCH_DTYPES:
            return None
        name = f"c{len(ns)}"
        ns[name] = value.numpy()[()]
        return name

    feeds = [slot(s) for s in plan.feed_slots]
    lines = [f"    {', '.join(feeds)}, = F"] if feeds else []
    for step in plan.steps:
        entry = _SCALAR_OPS.get(step.op.type)
        if entry is None or step.kernel is None or len(step.outs) != 1 or \
                any(t._dtype.base_dtype not in entry[1] for t in step.op._inputs):
            return None
        args = [render(a) for a in step.args]
        if any(a is None for a in args) or len(args) != len(step.op._inputs):
            return None
        fn = f"k{len(ns)}"
        ns[fn] = entry[0]
        out = slot(step.outs[0]) if step.outs[0] is not None else "_"
        lines.append(f"    {out} = {fn}({', '.join(args)})")
    fetches = [render(f) for f in plan.fetches]
    if any(f is None for f in fetches):
        return None
    lines.append(f"    return ({''.join(f + ', ' for f in fetches)})")
    code = compile("def scalar(F):\n" + "\n".join(lines) + "\n",
                   "<tf1compat-scalar-region>", "exec")
    exec(code, ns)  # noqa: S102 - our own generated code
    return ns["scalar"]


class ScalarLoop:
    """A while loop's condition and body on numpy scalars (see the module docstring)."""

    def __init__(self, cond: Callable[[tuple], tuple], body: Callable[[tuple], tuple]):
        self.cond = cond
        self.body = body

    @classmethod
    def build(cls, cond_plan: Plan, body_plan: Plan) -> ScalarLoop | None:
        """The scalar loop of these regions' plans, or None where an op is outside the
        set."""
        cond = _scalar_function(cond_plan)
        body = _scalar_function(body_plan) if cond is not None else None
        return None if body is None else cls(cond, body)

    def __call__(self, values: Sequence[Any], cond_captures: Sequence[Any],
                 body_captures: Sequence[Any]) -> list[torch.Tensor] | None:
        """The loop's final values, or None where a value is not a 0-d CPU tensor of a
        supported dtype without gradients (the caller then runs the torch regions)."""
        for t in (*values, *cond_captures, *body_captures):
            if not isinstance(t, torch.Tensor) or t.dim() != 0 or t.device.type != "cpu" \
                    or t.dtype not in _TORCH_DTYPES or t.requires_grad:
                return None
        scalars = tuple([t.numpy()[()] for t in values])
        cond_caps = tuple([t.numpy()[()] for t in cond_captures])
        body_caps = tuple([t.numpy()[()] for t in body_captures])
        cond, body = self.cond, self.body
        # Integer overflow wraps (TF's and torch's result) and inf - inf is NaN without
        # numpy's warnings.
        with np.errstate(all="ignore"):
            while cond(scalars + cond_caps)[0]:
                scalars = body(scalars + body_caps)
        return [torch.from_numpy(np.asarray(s, dtype=t.numpy().dtype))
                for s, t in zip(scalars, values)]
