"""The row-wise in-place ops behind `tensorflow.python.ops.inplace_ops` (tensor2tensor's
decoders and beam search write their step's row with `alias_inplace_update`):
InplaceUpdate / InplaceAdd / InplaceSub (`y = x` with rows `i` set to, increased or
decreased by the rows of `v`) and DeepCopy.

TF's Inplace* kernels write into x's own buffer (the "alias" in the Python names), so a
fetch of `x` in the same run may or may not see the write: TF promises no read-write order
(its deprecation note points to tf.tensor_scatter_nd_*). Here each op returns a new tensor
and leaves `x` as it was, one of the outcomes TF allows. Row numbers wrap modulo x's first
dimension as TF's CPU kernel does (5 and -1 both write row 1 of a 2-row x); duplicate rows
are applied in order (the last update wins, adds accumulate). None of these ops has a
registered gradient in TF (tf.gradients raises LookupError).
"""

from __future__ import annotations

from typing import Any, Callable, List

import torch

from tf1compat.framework import errors
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import unary_rule

__all__: List[str] = []


def _dims(t: torch.Tensor) -> str:
    return "[" + ",".join(str(int(d)) for d in t.shape) + "]"


def _check(x: torch.Tensor, i: torch.Tensor, v: torch.Tensor) -> None:
    """The argument checks of TF's kernel, with its messages."""
    def invalid(message: str) -> errors.InvalidArgumentError:
        return errors.InvalidArgumentError(None, None, message)
    if i.dim() != 1:
        raise invalid(f"i must be a vector. {_dims(i)}")
    if x.dim() != v.dim():
        raise invalid(f"x and v shape doesn't match (ranks differ): {_dims(x)} vs. {_dims(v)}")
    for axis in range(1, x.dim()):
        if x.shape[axis] != v.shape[axis]:
            raise invalid(f"x and v shape doesn't match at index {axis} : {_dims(x)} vs. "
                          f"{_dims(v)}")
    if i.shape[0] != v.shape[0]:
        raise invalid(f"i and x shape doesn't match at index 0: {_dims(i)} vs. {_dims(v)}")


def _inplace_kernel(mode: str) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(x: torch.Tensor, i: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
            _check(x, i, v)
            y = x.clone()
            rows = x.shape[0] if x.dim() else 0
            if rows == 0:
                return y
            # Sequential on purpose: a row named twice keeps the last update (adds
            # accumulate), as TF's kernel applies them in order.
            for k, row in enumerate((i.long() % rows).tolist()):
                if mode == "update":
                    y[row] = v[k]
                elif mode == "add":
                    y[row] += v[k]
                else:
                    y[row] -= v[k]
            return y
        return run
    return factory


def _inplace_shape(ctx: Any) -> List[TensorShape]:
    # TF's shape function is UnchangedShape: x's shape, whatever v's.
    return [ctx.shape(0)]


for _type, _mode in (("InplaceUpdate", "update"), ("InplaceAdd", "add"),
                     ("InplaceSub", "sub")):
    declare(_type, inputs=["x: T", "i: int32", "v: T"], outputs=["y: T"],
            attrs={"T": Type()}, shape=_inplace_shape, kernel=_inplace_kernel(_mode),
            grad="unregistered",
            doc=f"x with rows i {_mode}d by the rows of v (a new tensor here).")

declare("DeepCopy", inputs=["x: T"], outputs=["y: T"], attrs={"T": Type()},
        shape=unary_rule, kernel=lambda node, kctx: torch.clone, grad="unregistered",
        doc="A copy of x in its own buffer.")
