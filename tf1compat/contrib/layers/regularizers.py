"""`tf.contrib.layers` regularizers: l1_regularizer, l2_regularizer, l1_l2_regularizer,
sum_regularizer, apply_regularization.

(Written here because the optimizer branch's regularizers were not merged yet; the two
should be unified when they are.)
"""

from __future__ import annotations

import numbers
from typing import Any, Callable, List, Optional, Sequence

from tf1compat.framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.util import tf_logging

__all__ = ["l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
           "apply_regularization"]


def _check_scale(scale: Any) -> bool:
    """Validates `scale`; True when it disables the regularizer (0)."""
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"scale cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.:
            raise ValueError("Setting a scale less than 0 on a regularizer: %g" % scale)
        if scale == 0.:
            tf_logging.info("Scale of 0 disables regularizer.")
            return True
    return False


def l1_regularizer(scale: float, scope: Optional[str] = None) -> Callable:
    """`weights -> scale * sum(|weights|)` (ops under 'l1_regularizer')."""
    if _check_scale(scale):
        return lambda _: None

    def l1(weights: Any) -> Any:
        from tf1compat.ops.math_ops import abs as _abs, multiply
        from tf1compat.ops.reduction_ops import reduce_sum
        with name_scope(scope, "l1_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(my_scale, reduce_sum(_abs(weights)), name=name)
    return l1


def l2_regularizer(scale: float, scope: Optional[str] = None) -> Callable:
    """`weights -> scale * l2_loss(weights)` = scale * sum(weights ** 2) / 2."""
    if _check_scale(scale):
        return lambda _: None

    def l2(weights: Any) -> Any:
        from tf1compat.ops.math_ops import multiply
        from tf1compat.ops.nn_ops import l2_loss
        with name_scope(scope, "l2_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(my_scale, l2_loss(weights), name=name)
    return l2


def sum_regularizer(regularizer_list: Sequence[Any], scope: Optional[str] = None
                    ) -> Optional[Callable]:
    """The sum of several regularizers (None ones dropped; None if none is left)."""
    regularizers = [r for r in regularizer_list if r is not None]
    if not regularizers:
        return None

    def sum_reg(weights: Any) -> Any:
        from tf1compat.ops.math_ops import add_n
        with name_scope(scope, "sum_regularizer", [weights]) as name:
            tensors = [t for t in (r(weights) for r in regularizers) if t is not None]
            return add_n(tensors, name=name) if tensors else None
    return sum_reg


def l1_l2_regularizer(scale_l1: float = 1.0, scale_l2: float = 1.0,
                      scope: Optional[str] = None) -> Callable:
    """l1_regularizer(scale_l1) + l2_regularizer(scale_l2) (just one of them when the
    other's scale is zero)."""
    if isinstance(scale_l1, numbers.Integral):
        raise ValueError(f"scale_l1 cannot be an integer: {scale_l1}")
    if isinstance(scale_l2, numbers.Integral):
        raise ValueError(f"scale_l2 cannot be an integer: {scale_l2}")
    scope = scope or "l1_l2_regularizer"
    if scale_l1 == 0.:
        return l2_regularizer(scale_l2, scope)
    if scale_l2 == 0.:
        return l1_regularizer(scale_l1, scope)
    return sum_regularizer([l1_regularizer(scale_l1), l2_regularizer(scale_l2)], scope=scope)


def apply_regularization(regularizer: Callable, weights_list: Optional[List[Any]] = None
                         ) -> Any:
    """Sums `regularizer(w)` over `weights_list` (default: the WEIGHTS collection) and adds
    the sum to REGULARIZATION_LOSSES."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.math_ops import add_n
    if not weights_list:
        weights_list = get_collection(GraphKeys.WEIGHTS)
    if not weights_list:
        raise ValueError("No weights to regularize.")
    with name_scope("get_regularization_penalty", values=weights_list) as scope:
        penalties = [regularizer(w) for w in weights_list]
        penalties = [p if p is not None else constant(0.0) for p in penalties]
        for p in penalties:
            if p.get_shape().ndims != 0:
                raise ValueError("regularizer must return a scalar Tensor instead of a Tensor "
                                 f"with rank {p.get_shape().ndims}.")
        summed = add_n(penalties, name=scope)
        add_to_collection(GraphKeys.REGULARIZATION_LOSSES, summed)
        return summed
