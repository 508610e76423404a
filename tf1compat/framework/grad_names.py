"""What TF's gradient function of an op returns per input, for names and None-ness only.

tf1compat computes gradient VALUES with torch autograd. What autograd cannot tell is what
TF's Python gradient function would have returned for each input at graph build: None
(the input gets no gradient), the incoming gradient itself (a pass-through, e.g.
Identity or AddV2 of equal static shapes), an IndexedSlices (gather), or a new tensor
with a name such as `MatMul_grad/MatMul_1`. An op declares this as
`declare(..., grad_names=rule)`; `tf.gradients` replays TF's backward walk with the rules
(autodiff/walk.py) so the tensors it returns are None exactly where TF's are, are
IndexedSlices where TF's are, and carry TF's names.

A rule is `rule(op) -> list` with one entry per input of the graph Operation `op`:

* `None`: no gradient;
* `Pass(k)`: the gradient of output k, unchanged;
* `SPARSE`: an IndexedSlices for the params of a gather;
* a string: the local name (under `<op>_grad/`) of the tensor TF creates, "name" or
  "name:k".

Ops without a rule get `<Type>Grad` names (`default_names`; a documented divergence: the
values are right, the names are not TF's).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, List, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["Pass", "SPARSE", "NameRule", "names", "broadcast_names", "default_names",
           "is_trainable"]


@dataclass(frozen=True)
class Pass:
    """The incoming gradient of output `index`, passed through unchanged."""
    index: int = 0


SPARSE = "<sparse>"

NameRule = Callable[[Any], List[Any]]

_TRAINABLE = frozenset({D.float16, D.bfloat16, D.float32, D.float64, D.complex64,
                        D.complex128, D.resource, D.variant})


def is_trainable(t: Any) -> bool:
    """TF's backprop_util.IsTrainable: gradients flow through tensors of these dtypes."""
    return t.dtype.base_dtype in _TRAINABLE


def names(*entries: Any) -> NameRule:
    """A rule that returns the same entries (one per input) for every op of the type."""
    fixed = list(entries)
    return lambda op: list(fixed)


def default_names(op: Any) -> List[Any]:
    """Ops without a rule: every trainable input gets a `<Type>Grad` tensor."""
    out, k = [], 0
    for t in op.inputs:
        if is_trainable(t):
            out.append(f"{op.type}Grad" if k == 0 else f"{op.type}Grad_{k}")
            k += 1
        else:
            out.append(None)
    return out


# -- broadcasting binary ops -----------------------------------------------------------------

def _shape_tuple(shape: TensorShape) -> Optional[tuple]:
    return None if shape.rank is None else tuple(shape.as_list())


def _fully_equal(op: Any) -> bool:
    x, y = op.inputs[0], op.inputs[1]
    xs, ys, gs = (_shape_tuple(x.shape), _shape_tuple(y.shape),
                  _shape_tuple(op.outputs[0].shape))
    return xs is not None and None not in xs and xs == ys == gs


def _must_reduce(xshape: TensorShape, yshape: TensorShape) -> tuple:
    """TF's SmartBroadcastGradientArgs: whether each argument's gradient is reduced."""
    if xshape.rank is None or yshape.rank is None:
        return True, True
    xd, yd = xshape.as_list(), yshape.as_list()
    rank = max(len(xd), len(yd))
    x_axes, y_axes = [], []
    for axis in range(rank):
        xv = 1 if axis < rank - len(xd) else xd[axis - (rank - len(xd))]
        yv = 1 if axis < rank - len(yd) else yd[axis - (rank - len(yd))]
        if xv == 1 and yv != 1:
            x_axes.append(axis)
        elif yv == 1 and xv != 1:
            y_axes.append(axis)
        elif xv is None or yv is None:
            return True, True
    return bool(x_axes) or len(xd) < len(yd), bool(y_axes) or len(yd) < len(xd)


def broadcast_names(gx: Any, gy: Any, fast: bool = True, first: int = 0) -> NameRule:
    """A broadcasting op whose gradients are `gx`/`gy`, then reduced where broadcast.

    `fast`: TF returns (gx, gy) unreduced when all static shapes are equal. `first` is
    the index of the first of the two broadcasting inputs (1 for SelectV2's t/e).
    """
    def rule(op: Any) -> List[Any]:
        pad = [None] * first
        if fast and first == 0 and _fully_equal(op):
            return pad + [gx, gy]
        x, y = op.inputs[first], op.inputs[first + 1]
        mx, my = _must_reduce(x.shape, y.shape)
        out, reshapes = [], 0
        for g, must in ((gx, mx), (gy, my)):
            if g is None or not must:
                out.append(g)
            else:
                out.append("Reshape" if reshapes == 0 else f"Reshape_{reshapes}")
                reshapes += 1
        return pad + out
    return rule
