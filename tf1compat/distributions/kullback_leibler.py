"""KL divergences between distributions: `tf.distributions.kl_divergence` and
`RegisterKL`, resolved along both classes' method resolution orders as TF 1.x does (the
closest registered pair of ancestors wins)."""

from __future__ import annotations

import inspect
from typing import Any, Callable, Dict, Optional, Tuple

from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.reduction_ops import reduce_any

__all__ = ["RegisterKL", "kl_divergence", "cross_entropy"]

_DIVERGENCES: Dict[Tuple[type, type], Callable[..., Tensor]] = {}


def _registered_kl(type_a: type, type_b: type) -> Optional[Callable[..., Tensor]]:
    best, best_distance = None, None
    for i, parent_a in enumerate(inspect.getmro(type_a)):
        for j, parent_b in enumerate(inspect.getmro(type_b)):
            candidate = _DIVERGENCES.get((parent_a, parent_b))
            if candidate is not None and (best is None or i + j < best_distance):
                best, best_distance = candidate, i + j
    return best


def kl_divergence(distribution_a: Any, distribution_b: Any, allow_nan_stats: bool = True,
                  name: Optional[str] = None) -> Tensor:
    """KL(distribution_a || distribution_b) by the registered function for their types."""
    kl_fn = _registered_kl(type(distribution_a), type(distribution_b))
    if kl_fn is None:
        raise NotImplementedError(
            "No KL(distribution_a || distribution_b) registered for distribution_a type "
            f"{type(distribution_a).__name__} and distribution_b type "
            f"{type(distribution_b).__name__}")
    with name_scope("KullbackLeibler"):
        kl = kl_fn(distribution_a, distribution_b, name=name)
        if allow_nan_stats:
            return kl
        kl = array_ops.identity(kl, name="kl")
        check = Assert(math_ops.logical_not(reduce_any(math_ops.is_nan(kl))),
                       [f"KL calculation between {distribution_a.name} and "
                        f"{distribution_b.name} returned NaN values (and was called with "
                        "allow_nan_stats=False). Values:", kl])
        with control_dependencies([check]):
            return array_ops.identity(kl, name="checked_kl")


def cross_entropy(ref: Any, other: Any, allow_nan_stats: bool = True,
                  name: Optional[str] = None) -> Tensor:
    """H(ref, other) = H(ref) + KL(ref || other)."""
    with name_scope(name, "cross_entropy"):
        return ref.entropy() + kl_divergence(ref, other, allow_nan_stats=allow_nan_stats)


class RegisterKL:
    """Decorator registering a KL function for a (class_a, class_b) pair."""

    def __init__(self, dist_cls_a: type, dist_cls_b: type):
        self._key = (dist_cls_a, dist_cls_b)

    def __call__(self, kl_fn: Callable[..., Tensor]) -> Callable[..., Tensor]:
        if not callable(kl_fn):
            raise TypeError(f"kl_fn must be callable, received: {kl_fn}")
        if self._key in _DIVERGENCES:
            raise ValueError(f"KL({self._key[0].__name__} || {self._key[1].__name__}) has "
                             f"already been registered to: {_DIVERGENCES[self._key]}")
        _DIVERGENCES[self._key] = kl_fn
        return kl_fn
