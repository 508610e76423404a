"""Any update rule of _apply_rules.py on many variables at once, with the same bits.

`Many` stands for one state tensor (or the gradient) of every variable of an optimizer
step: a list of tensors that supports the operations the rules use (arithmetic with
another `Many`, a 0-d tensor or a Python number; `square`, `sqrt`, `rsqrt`, `abs`,
`sign`, `pow`, `clamp`, `maximum`, `minimum`, `exp`; in-place `add_`, `sub_`, `mul_`,
`copy_`). Each operation is one `torch._foreach_*` call over the list where torch has one
that computes what the per-tensor operation computes, element for element (on the CPU
torch's foreach kernels call the per-tensor kernels; on CUDA they apply the same functor
in float opmath); otherwise it is the per-tensor operation in a loop. So a rule run on
`Many` arguments performs, for every variable, exactly the operations it performs on
one, in the same order and association: `many_form(rule)` is the rule's batched form
for every family that has no hand-written fused one, sparse updates included (their
gathered rows, training_ops.py).

A 0-d tensor on the left of an operator (`lr * accum.rsqrt()`) reaches `Many` through
torch's `__torch_function__` protocol, as do `torch.maximum(..., out=)`, `torch.minimum`,
`torch.clamp` and `torch.exp`; anything else raises TypeError (a rule using an
operation this class does not know fails its tests rather than computing something else).
"""

from __future__ import annotations

import numbers
from typing import Any, Callable, Dict, List, Optional, Sequence

import torch

__all__ = ["Many", "many_form"]

Tensor = torch.Tensor
_Operand = Any      # Many, a 0-d tensor or a Python number


class Many:
    """The same state tensor of many variables, operated on as one (module docstring)."""

    __slots__ = ("items",)

    def __init__(self, items: Sequence[Tensor]) -> None:
        self.items = list(items)

    @property
    def dtype(self) -> torch.dtype:
        """The tensors' dtype (a batch has one: training_ops.py checks it)."""
        return self.items[0].dtype

    # -- arithmetic ----------------------------------------------------------------------
    def __add__(self, other: _Operand) -> "Many":
        return Many(torch._foreach_add(self.items, _operand(other)))

    def __radd__(self, other: _Operand) -> "Many":      # (addition commutes exactly)
        return self.__add__(other)

    def __sub__(self, other: _Operand) -> "Many":
        if isinstance(other, Tensor):   # torch's sub is add with alpha -1: same bits
            return Many(torch._foreach_add(self.items, other, alpha=-1))
        return Many(torch._foreach_sub(self.items, _operand(other)))

    def __rsub__(self, other: _Operand) -> "Many":
        # (-(x - s) would turn s - x == +0 into -0: the loop keeps the sign of zero)
        return Many([other - t for t in self.items])

    def __mul__(self, other: _Operand) -> "Many":
        return Many(torch._foreach_mul(self.items, _operand(other)))

    def __rmul__(self, other: _Operand) -> "Many":      # (multiplication commutes exactly)
        return self.__mul__(other)

    def __truediv__(self, other: _Operand) -> "Many":
        return Many(torch._foreach_div(self.items, _operand(other)))

    def __rtruediv__(self, other: _Operand) -> "Many":
        return Many([other / t for t in self.items])

    def __neg__(self) -> "Many":
        return Many(torch._foreach_neg(self.items))

    # -- element-wise functions ----------------------------------------------------------
    def square(self) -> "Many":         # (square is x * x in torch's kernels)
        return Many(torch._foreach_mul(self.items, self.items))

    def sqrt(self) -> "Many":
        return Many(torch._foreach_sqrt(self.items))

    def rsqrt(self) -> "Many":
        return Many(torch._foreach_rsqrt(self.items))

    def abs(self) -> "Many":
        return Many(torch._foreach_abs(self.items))

    def sign(self) -> "Many":
        return Many(torch._foreach_sign(self.items))

    def exp(self) -> "Many":
        return Many(torch._foreach_exp(self.items))

    def pow(self, exponent: _Operand) -> "Many":
        # torch special-cases some exponents (0.5, -0.5, 2, ...) by value when given a
        # number and not when given a tensor: keep exactly the per-tensor call.
        return Many([t.pow(_item(exponent, k)) for k, t in enumerate(self.items)])

    def clamp(self, min: Optional[_Operand] = None, max: Optional[_Operand] = None
              ) -> "Many":
        out = self.items
        if min is not None:
            out = torch._foreach_clamp_min(out, min) if _is_number(min) else \
                [t.clamp(min=_item(min, k)) for k, t in enumerate(out)]
        if max is not None:
            out = torch._foreach_clamp_max(out, max) if _is_number(max) else \
                [t.clamp(max=_item(max, k)) for k, t in enumerate(out)]
        return Many(out if out is not self.items else [t.clone() for t in out])

    def maximum(self, other: _Operand) -> "Many":
        if isinstance(other, Many):
            return Many(torch._foreach_maximum(self.items, other.items))
        return Many([torch.maximum(t, other) for t in self.items])

    def minimum(self, other: _Operand) -> "Many":
        if isinstance(other, Many):
            return Many(torch._foreach_minimum(self.items, other.items))
        return Many([torch.minimum(t, other) for t in self.items])

    # -- in place ------------------------------------------------------------------------
    def add_(self, other: _Operand) -> "Many":
        torch._foreach_add_(self.items, _operand(other))
        return self

    def sub_(self, other: _Operand) -> "Many":
        if isinstance(other, Tensor):
            torch._foreach_add_(self.items, other, alpha=-1)
        else:
            torch._foreach_sub_(self.items, _operand(other))
        return self

    def mul_(self, other: _Operand) -> "Many":
        torch._foreach_mul_(self.items, _operand(other))
        return self

    def copy_(self, other: "Many") -> "Many":
        torch._foreach_copy_(self.items, other.items)
        return self

    # -- torch functions and reflected tensor operators ----------------------------------
    @classmethod
    def __torch_function__(cls, func: Callable[..., Any], types: Any, args: tuple = (),
                           kwargs: Optional[Dict[str, Any]] = None) -> Any:
        kwargs = kwargs or {}
        handler = _TORCH_FUNCTIONS.get(func)
        if handler is None:
            raise TypeError(f"Many (batched optimizer updates) has no form of "
                            f"{getattr(func, '__name__', func)}")
        return handler(*args, **kwargs)


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Number)


def _operand(value: _Operand) -> Any:
    return value.items if isinstance(value, Many) else value


def _item(value: _Operand, k: int) -> Any:
    return value.items[k] if isinstance(value, Many) else value


def _into(out: Optional[Many], result: Many) -> Many:
    if out is None:
        return result
    return out.copy_(result)


def _maximum(a: _Operand, b: _Operand, *, out: Optional[Many] = None) -> Many:
    if isinstance(a, Many):
        return _into(out, a.maximum(b))
    return _into(out, b.maximum(a))         # (maximum is symmetric)


def _minimum(a: _Operand, b: _Operand, *, out: Optional[Many] = None) -> Many:
    if isinstance(a, Many):
        return _into(out, a.minimum(b))
    return _into(out, b.minimum(a))


def _reflected(name: str) -> Callable[[Any, Many], Many]:
    """Tensor.<op>(tensor, many): a 0-d tensor on the left of a Many."""
    def call(tensor: Tensor, many: Many) -> Many:
        return getattr(many, name)(tensor)
    return call


_TORCH_FUNCTIONS: Dict[Any, Callable[..., Any]] = {
    torch.maximum: _maximum,
    torch.minimum: _minimum,
    torch.clamp: lambda x, min=None, max=None: x.clamp(min=min, max=max),
    torch.exp: lambda x: x.exp(),
    Tensor.add: _reflected("__radd__"),
    Tensor.__add__: _reflected("__radd__"),
    Tensor.sub: _reflected("__rsub__"),
    Tensor.__sub__: _reflected("__rsub__"),
    Tensor.mul: _reflected("__rmul__"),
    Tensor.__mul__: _reflected("__rmul__"),
    Tensor.div: _reflected("__rtruediv__"),
    Tensor.__truediv__: _reflected("__rtruediv__"),
}

ManyRule = Callable[[List[List[Tensor]], List[Tensor], Sequence[Tensor], Dict[str, Any]],
                    bool]


def many_form(rule: Callable[..., None]) -> ManyRule:
    """The batched form of a per-variable rule: `states[j]` is the j-th state tensor of
    every variable, `grads` their gradients (ops/_apply_rules.py `FOREACH` signature)."""
    def batched(states: List[List[Tensor]], grads: List[Tensor], scalars: Sequence[Tensor],
                attrs: Dict[str, Any]) -> bool:
        rule([Many(column) for column in states], Many(grads), scalars, attrs)
        return True
    return batched
