"""Weight regularizers of TF1's `tf.contrib.layers`: `l1_regularizer`, `l2_regularizer`,
`l1_l2_regularizer`, `sum_regularizer` and `apply_regularization`.

A regularizer is a function weights -> scalar penalty tensor (or None when disabled by
a zero scale), usable as `tf.get_variable(..., regularizer=...)` or with `tf.layers`;
the penalties land in GraphKeys.REGULARIZATION_LOSSES for
`tf.losses.get_regularization_loss`. Names follow TF 1.x contrib: `l1_regularizer`,
`l2_regularizer` (a Mul named like the scope), `sum_regularizer` (an AddN),
`get_regularization_penalty`.
"""

from __future__ import annotations

import numbers
from typing import Any, Callable, List, Optional, Sequence

from tf1compat.util import tf_logging as _logging
from tf1compat.framework.graph import GraphKeys, add_to_collection, get_collection, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor

__all__ = ["l1_regularizer", "l2_regularizer", "l1_l2_regularizer", "sum_regularizer",
           "apply_regularization"]

Regularizer = Callable[[Any], Optional[Tensor]]


def _check_scale(scale: Any, what: str = "scale") -> bool:
    """Validates a scale; False when it disables the regularizer (a zero scale)."""
    if isinstance(scale, numbers.Integral):
        raise ValueError(f"{what} cannot be an integer: {scale}")
    if isinstance(scale, numbers.Real):
        if scale < 0.:
            raise ValueError(f"Setting a scale less than 0 on a regularizer: {scale:g}")
        if scale == 0.:
            _logging.info("Scale of 0 disables regularizer.")
            return False
    return True


def l1_regularizer(scale: Any, scope: Optional[str] = None) -> Regularizer:
    """A regularizer computing `scale * sum(|weights|)`."""
    if not _check_scale(scale):
        return lambda _: None

    def l1(weights: Any, name: Optional[str] = None) -> Tensor:
        from tf1compat.ops.math_ops import abs as abs_, multiply
        from tf1compat.ops.reduction_ops import reduce_sum
        with name_scope(scope, "l1_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(my_scale, reduce_sum(abs_(weights)), name=name)
    return l1


def l2_regularizer(scale: Any, scope: Optional[str] = None) -> Regularizer:
    """A regularizer computing `scale * sum(weights ** 2) / 2` (tf.nn.l2_loss)."""
    if not _check_scale(scale):
        return lambda _: None

    def l2(weights: Any) -> Tensor:
        from tf1compat.ops.math_ops import multiply
        from tf1compat.ops.nn_ops import l2_loss
        with name_scope(scope, "l2_regularizer", [weights]) as name:
            my_scale = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(my_scale, l2_loss(weights), name=name)
    return l2


def l1_l2_regularizer(scale_l1: Any = 1.0, scale_l2: Any = 1.0,
                      scope: Optional[str] = None) -> Optional[Regularizer]:
    """The sum of an l1 and an l2 regularizer (just one of them when the other's scale
    is zero)."""
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


def sum_regularizer(regularizer_list: Sequence[Optional[Regularizer]],
                    scope: Optional[str] = None) -> Optional[Regularizer]:
    """A regularizer adding up the given ones' penalties (None if the list is empty)."""
    regularizers = [reg for reg in regularizer_list if reg is not None]
    if not regularizers:
        return None

    def sum_reg(weights: Any) -> Optional[Tensor]:
        from tf1compat.ops.math_ops import add_n
        with name_scope(scope, "sum_regularizer", [weights]) as name:
            tensors = [t for t in (reg(weights) for reg in regularizers) if t is not None]
            return add_n(tensors, name=name) if tensors else None
    return sum_reg


def apply_regularization(regularizer: Regularizer, weights_list: Optional[List[Any]] = None
                         ) -> Tensor:
    """The summed penalty of `regularizer` over `weights_list` (default: the WEIGHTS
    collection), added to GraphKeys.REGULARIZATION_LOSSES."""
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
        summed_penalty = add_n(penalties, name=scope)
        add_to_collection(GraphKeys.REGULARIZATION_LOSSES, summed_penalty)
        return summed_penalty
