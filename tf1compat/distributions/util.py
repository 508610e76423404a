"""Helpers shared by the distributions: logits/probs conversion, seed salting,
multinomial coefficients, argument checks, and the normal / Laplace CDF functions
(`ndtr`, `log_ndtr` with its asymptotic lower tail, `log_cdf_laplace`)."""

from __future__ import annotations

import hashlib
from typing import Any, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops, nn_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import zeros_like
from tf1compat.ops.indexing_ops import where_v2
from tf1compat.ops.numerics_ops import assert_near
from tf1compat.ops.reduction_ops import reduce_sum

__all__ = ["get_logits_and_probs", "gen_new_seed", "log_combinations",
           "embed_check_nonnegative_integer_form", "embed_check_categorical_event_shape",
           "embed_check_integer_casting_closed", "ndtr", "log_ndtr", "log_cdf_laplace"]


def _largest_integer(dtype: D.DType) -> int:
    """The largest integer a dtype represents exactly (floats: 2**(mantissa bits + 1))."""
    if dtype.is_floating:
        return int(2 ** (np.finfo(dtype.as_numpy_dtype).nmant + 1))
    if dtype.is_integer:
        return int(np.iinfo(dtype.as_numpy_dtype).max)
    if dtype == D.bool:
        return 1
    raise TypeError(f"Unrecognized dtype: {dtype.name}")


def embed_check_categorical_event_shape(param: Any,
                                        name: str = "embed_check_categorical_event_shape"
                                        ) -> Tensor:
    """`param` with checks that its last dimension holds 2 or more categories."""
    with name_scope(name, values=[param]):
        x = convert_to_tensor(param, name="categorical_param")
        dtype = x.dtype.base_dtype
        max_event_size = _largest_integer(dtype) if dtype.is_floating else 0
        if max_event_size == 0:
            raise TypeError(f"Unable to validate size of unrecognized dtype ({dtype.name}).")
        try:
            static = x.shape.with_rank_at_least(1)
        except ValueError:
            raise ValueError("A categorical-distribution parameter must have at least 1 "
                             "dimension.") from None
        last = dimension_value(static[-1])
        if last is not None:
            if last < 2:
                raise ValueError("A categorical-distribution parameter must have at least "
                                 "2 events.")
            if last > max_event_size:
                raise ValueError(f"Number of classes exceeds `dtype` precision, i.e., "
                                 f"{dtype.name} implies shape ({last}) cannot exceed "
                                 f"{max_event_size}.")
            return x
        event_size = array_ops.shape(x, name="x_shape")[-1]
        return with_dependencies([
            check_ops.assert_rank_at_least(x, 1, message="A categorical-distribution "
                                           "parameter must have at least 1 dimension."),
            check_ops.assert_greater_equal(array_ops.shape(x)[-1], 2, message="A "
                                           "categorical-distribution parameter must have at "
                                           "least 2 events."),
            check_ops.assert_less_equal(event_size, max_event_size, message="Number of "
                                        f"classes exceeds `dtype` precision, i.e., "
                                        f"{dtype.name} dtype cannot exceed {max_event_size} "
                                        "shape.")], x)


def get_logits_and_probs(logits: Any = None, probs: Any = None, multidimensional: bool = False,
                         validate_args: bool = False, name: str = "get_logits_and_probs",
                         dtype: Any = None) -> Tuple[Tensor, Tensor]:
    """(logits, probs) from either: softmax/log for categorical parameters (last axis),
    sigmoid/logit for Bernoulli ones."""
    with name_scope(name, values=[probs, logits]):
        if (probs is None) == (logits is None):
            raise ValueError("Must pass probs or logits, but not both.")
        if probs is None:
            logits = convert_to_tensor(logits, name="logits", dtype=dtype)
            if not logits.dtype.is_floating:
                raise TypeError("logits must having floating type.")
            if multidimensional:
                if validate_args:
                    logits = embed_check_categorical_event_shape(logits)
                return logits, nn_ops.softmax(logits, name="probs")
            return logits, math_ops.sigmoid(logits, name="probs")
        probs = convert_to_tensor(probs, name="probs", dtype=dtype)
        if not probs.dtype.is_floating:
            raise TypeError("probs must having floating type.")
        if validate_args:
            with name_scope("validate_probs"):
                one = constant(1.0, probs.dtype)
                dependencies = [check_ops.assert_non_negative(probs)]
                if multidimensional:
                    probs = embed_check_categorical_event_shape(probs)
                    dependencies.append(assert_near(reduce_sum(probs, -1), one,
                                                    message="probs does not sum to 1."))
                else:
                    dependencies.append(check_ops.assert_less_equal(
                        probs, one, message="probs has components greater than 1."))
                probs = with_dependencies(dependencies, probs)
        with name_scope("logits"):
            if multidimensional:
                return math_ops.log(probs), probs
            return math_ops.log(probs) - math_ops.log1p(-1.0 * probs), probs


def gen_new_seed(seed: Optional[int], salt: str) -> Optional[int]:
    """A new op seed from `seed` and a salt (TF's md5-based derivation), None for None."""
    if seed is None:
        return None
    digest = hashlib.md5((str(seed) + salt).encode("utf-8")).hexdigest()
    return int(digest[:8], 16) & 0x7FFFFFFF


def log_combinations(n: Any, counts: Any, name: str = "log_combinations") -> Tensor:
    """log(n! / prod(counts!)) over the last axis."""
    with name_scope(name, values=[n, counts]):
        n = convert_to_tensor(n, name="n")
        counts = convert_to_tensor(counts, name="counts")
        total = math_ops.lgamma(n + 1)
        redundant = reduce_sum(math_ops.lgamma(counts + 1), axis=[-1])
        return total - redundant


def _assert_integer_form(x: Tensor, message: str) -> Any:
    """An assertion that x holds whole numbers (x == cast(cast(x, int64), dtype))."""
    int_dtype = D.int64 if x.dtype.size >= 8 else D.int32
    rounded = math_ops.cast(math_ops.cast(x, int_dtype), x.dtype)
    return check_ops.assert_equal(x, rounded, message=message)


def embed_check_nonnegative_integer_form(x: Any, name: str =
                                         "embed_check_nonnegative_integer_form") -> Tensor:
    """`x` with checks that it is non-negative and whole."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        assertions = [check_ops.assert_non_negative(x, message=f"'{x}' must be non-negative.")]
        if not x.dtype.is_integer:
            assertions.append(_assert_integer_form(
                x, f"'{x}' cannot contain fractional components."))
        return with_dependencies(assertions, x)


def embed_check_integer_casting_closed(x: Any, target_dtype: Any,
                                       assert_nonnegative: bool = True,
                                       name: str = "embed_check_casting_closed") -> Tensor:
    """`x` with checks that casting it to `target_dtype` loses nothing."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        target = D.as_dtype(target_dtype)
        assertions = []
        if assert_nonnegative:
            assertions.append(check_ops.assert_non_negative(
                x, message="Elements must be non-negative."))
        if x.dtype.is_floating:
            assertions.append(_assert_integer_form(
                x, f"Elements must be {target.name}-equivalent."))
        elif _largest_integer(x.dtype) > _largest_integer(target):
            limit = _largest_integer(target)
            assertions.append(check_ops.assert_less_equal(
                x, limit, message=f"Elements cannot exceed {limit}."))
        return with_dependencies(assertions, x) if assertions else x


# -- normal and Laplace CDFs ---------------------------------------------------------------------

def _ndtr(x: Tensor) -> Tensor:
    half_sqrt_2 = constant(0.5 * np.sqrt(2.0), dtype=x.dtype, name="half_sqrt_2")
    w = x * half_sqrt_2
    z = math_ops.abs(w)
    y = where_v2(math_ops.less(z, half_sqrt_2), 1.0 + math_ops.erf(w),
                 where_v2(math_ops.greater(w, 0.0), 2.0 - math_ops.erfc(z), math_ops.erfc(z)))
    return 0.5 * y


def ndtr(x: Any, name: str = "ndtr") -> Tensor:
    """The standard normal CDF (erf near 0, erfc in the tails for accuracy)."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        if x.dtype not in (D.float32, D.float64):
            raise TypeError(f"x.dtype={x.dtype} is not handled, see docstring for supported "
                            "types.")
        return _ndtr(x)


_LOG_NDTR_SEGMENTS = {D.float64: (-20.0, 8.0), D.float32: (-10.0, 5.0)}


def _log_ndtr_lower(x: Tensor, series_order: int) -> Tensor:
    """log Phi(x) for very negative x: -x^2/2 - log(-x) - log(2 pi)/2 + log(series), the
    series being 1 + sum_n (-1)^n (2n-1)!! / x^(2n) to `series_order` terms."""
    x_2 = math_ops.square(x)
    log_scale = -0.5 * x_2 - math_ops.log(-x) - 0.5 * np.log(2.0 * np.pi)
    dtype = x.dtype.as_numpy_dtype
    if series_order <= 0:
        return log_scale + math_ops.log(np.array(1, dtype))
    even, odd = zeros_like(x), zeros_like(x)
    x_2n = x_2
    for k in range(1, series_order + 1):
        term = np.array(np.prod(np.arange(2 * k - 1, 1, -2)), dtype) / x_2n
        if k % 2:
            odd += term
        else:
            even += term
        x_2n *= x_2
    return log_scale + math_ops.log(1.0 + even - odd)


def log_ndtr(x: Any, series_order: int = 3, name: str = "log_ndtr") -> Tensor:
    """log of the standard normal CDF, accurate far into both tails."""
    if not isinstance(series_order, int):
        raise TypeError("series_order must be a Python integer.")
    if series_order < 0:
        raise ValueError("series_order must be non-negative.")
    if series_order > 30:
        raise ValueError("series_order must be <= 30.")
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        if x.dtype not in _LOG_NDTR_SEGMENTS:
            raise TypeError(f"x.dtype={x.dtype} is not supported.")
        lower, upper = (np.array(v, x.dtype.as_numpy_dtype)
                        for v in _LOG_NDTR_SEGMENTS[x.dtype])
        return where_v2(math_ops.greater(x, upper), -_ndtr(-x),
                        where_v2(math_ops.greater(x, lower),
                                 math_ops.log(_ndtr(math_ops.maximum(x, lower))),
                                 _log_ndtr_lower(math_ops.minimum(x, lower), series_order)))


def log_cdf_laplace(x: Any, name: str = "log_cdf_laplace") -> Tensor:
    """log of the standard Laplace CDF."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        lower = -np.log(2.0) + x
        upper = math_ops.log1p(-0.5 * math_ops.exp(-math_ops.abs(x)))
        return where_v2(x < 0.0, lower, upper)
