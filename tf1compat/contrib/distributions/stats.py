"""Statistics helpers of `tf.contrib.distributions`: `auto_correlation`, `percentile`, the
Normal conjugate
posteriors (`normal_conjugates_known_scale_posterior` / `_predictive`) and the moving
statistics (`assign_moving_mean_variance`, `assign_log_moving_mean_exp`,
`moving_mean_variance`)."""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.distributions.continuous import Normal
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.ops import array_ops, check_ops, math_ops
from tf1compat.ops.control_flow_ops import with_dependencies
from tf1compat.ops.creation_ops import ones, ones_like, range as range_
from tf1compat.ops.indexing_ops import gather
from tf1compat.ops.math_extra import fft, ifft
from tf1compat.ops.math_tail_ops import complex as complex_
from tf1compat.ops.nn_ops import top_k
from tf1compat.ops.reduction_ops import clip_by_value, reduce_logsumexp, reduce_mean
from tf1compat.ops.state_ops import assign_add, assign_sub
from tf1compat.ops.transform_ops import pad, transpose
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["auto_correlation", "percentile", "normal_conjugates_known_scale_posterior",
           "normal_conjugates_known_scale_predictive", "assign_moving_mean_variance",
           "assign_log_moving_mean_exp", "moving_mean_variance"]

_INTERPOLATIONS = ("lower", "higher", "nearest")


def _zeros_int(shape: List[int]) -> Tensor:
    return convert_to_tensor(np.zeros(shape, np.int32))


def _rotate(x: Tensor, shift: int, rank: int) -> Tensor:
    """x with its dims rotated right by `shift` (TF's rotate_transpose)."""
    return transpose(x, list(np.roll(np.arange(rank), shift))) if shift % rank else x


def auto_correlation(x: Any, axis: int = -1, max_lags: Any = None, center: bool = True,
                     normalize: bool = True, name: str = "auto_correlation") -> Tensor:
    """The auto-correlation of `x` along `axis` for lags 0..max_lags (by FFT of the
    zero-padded signal), normalized to 1 at lag 0 when `normalize`."""
    with name_scope(name, values=[x]):
        x = convert_to_tensor(x, name="x")
        rank = x.shape.rank
        if rank is None:
            raise NotImplementedError("auto_correlation of a tensor of unknown rank is not "
                                      "supported by tf1compat")
        if axis < 0:
            axis = rank + axis
        shift = rank - 1 - axis
        rotated = _rotate(x, shift, rank)
        if center:
            rotated = rotated - reduce_mean(rotated, axis=-1, keepdims=True)
        static_len = dimension_value(rotated.shape[-1])
        x_len = static_len if static_len is not None else array_ops.shape(rotated)[-1]
        x_len_float64 = math_ops.cast(x_len, D.float64)
        # Zero-pad to a power of two at least twice as long: no circular wrap-around.
        target = math_ops.pow(np.float64(2.0), math_ops.ceil(
            math_ops.log(x_len_float64 * 2) / np.log(2.0)))
        pad_length = math_ops.cast(target - x_len_float64, D.int32)
        paddings = array_ops.concat([_zeros_int([rank - 1, 2]), array_ops.reshape(
            array_ops.stack([0, pad_length]), [1, 2])], 0)
        padded = pad(rotated, paddings)
        dtype = x.dtype
        if not dtype.is_complex:
            if not dtype.is_floating:
                raise TypeError(f"Argument x must have either float or complex dtype found: "
                                f"{dtype}")
            padded = complex_(padded, dtype.real_dtype.as_numpy_dtype(0.0))
        spectrum = fft(padded)
        shifted_product = math_ops.cast(ifft(spectrum * math_ops.conj(spectrum)), dtype)
        static = rotated.shape.is_fully_defined()
        if max_lags is None:
            max_lags = x_len - 1
        else:
            max_lags = convert_to_tensor(max_lags, name="max_lags")
            value = constant_value(max_lags)
            if value is None or not static:
                static = False
                max_lags = math_ops.minimum(x_len - 1, max_lags)
            else:
                max_lags = min(x_len - 1, int(value))
        chopped = shifted_product[..., :max_lags + 1]
        if static:
            shape = rotated.shape.as_list()
            shape[-1] = min(x_len, max_lags + 1)
            chopped.set_shape(shape)
        real = dtype.real_dtype
        denominator = math_ops.cast(math_ops.cast(x_len, real) - range_(
            0.0, math_ops.cast(max_lags, real) + 1.0), dtype)
        result = chopped / denominator
        if normalize:
            result = result / result[..., :1]
        return _rotate(result, -shift, rank)



def _static_axis(axis: Any, x: Tensor) -> List[int]:
    value = constant_value(convert_to_tensor(axis, name="axis"))
    if value is None:
        raise ValueError(f"Expected argument 'axis' to be statically available.  Found: "
                         f"{axis}")
    rank = x.shape.rank
    if rank is None:
        raise ValueError("Expected argument 'x' to have statically defined 'ndims'.")
    axes = [int(a) for a in np.reshape(value, [-1])]
    axes = [a + rank if a < 0 else a for a in axes]
    if any(a < 0 or a >= rank for a in axes):
        raise ValueError(f"Argument 'axis' out of range for a tensor of rank {rank}: {axis}")
    return axes


def percentile(x: Any, q: Any, axis: Any = None, interpolation: Optional[str] = None,
               keep_dims: bool = False, validate_args: bool = False,
               name: Optional[str] = None) -> Tensor:
    """The `q`-th percentile of `x` over `axis` (all dims when None), picking a sample
    value ('lower', 'higher' or 'nearest', TF 1.x's choices; no averaging)."""
    interpolation = interpolation or "nearest"
    if interpolation not in _INTERPOLATIONS:
        raise ValueError(f"Argument 'interpolation' must be in {set(_INTERPOLATIONS)}.  "
                         f"Found {interpolation}")
    with name_scope(name, "percentile", [x, q]):
        x = convert_to_tensor(x, name="x")
        # float64, else the index is wrong for very long axes.
        q = math_ops.cast(q, D.float64, name="q")
        if q.shape.rank not in (None, 0):
            raise ValueError(f"Expected argument 'q' to have ndims == 0.  Found: {q.shape}")
        if validate_args:
            q = with_dependencies([check_ops.assert_rank(q, 0),
                                   check_ops.assert_greater_equal(q, np.float64(0.0)),
                                   check_ops.assert_less_equal(q, np.float64(100.0))], q)
        axes = None if axis is None else _static_axis(axis, x)
        if axes is None:
            y = array_ops.reshape(x, [-1])
        else:
            rank = x.shape.rank
            front = sorted(set(range(rank)).difference(axes))
            permuted = transpose(x, front + axes)
            front_shape = gather(array_ops.shape(x), front) if front else []
            y = array_ops.reshape(permuted, array_ops.concat([front_shape, [-1]], 0)
                                  if front else [-1])
        frac_at_q_or_above = 1.0 - q / 100.0
        d = math_ops.cast(array_ops.shape(y)[-1], D.float64)
        position = (d - 1) * frac_at_q_or_above
        if interpolation == "lower":
            index = math_ops.ceil(position)
        elif interpolation == "higher":
            index = math_ops.floor(position)
        else:
            index = math_ops.round_(position)
        size = array_ops.shape(y)[-1]
        index = clip_by_value(math_ops.cast(index, D.int32), 0, size - 1)
        # Sorted descending (top_k over the whole axis), hence "fraction at or above q".
        sorted_y, _ = top_k(y, k=size)
        result = sorted_y[..., index]
        if keep_dims:
            if axes is None:
                result = result * ones(ones([x.shape.rank if x.shape.rank is not None
                                             else array_ops.rank(x)], dtype=D.int32),
                                       dtype=x.dtype)
            else:
                for a in sorted(axes):
                    result = array_ops.expand_dims(result, a)
        return result


def _check_normal_prior(prior: Any, s: Any) -> Tensor:
    if not isinstance(prior, Normal):
        raise TypeError("Expected prior to be an instance of type Normal")
    s = convert_to_tensor(s, dtype_hint=prior.dtype)
    if s.dtype != prior.dtype:
        raise TypeError(f"Observation sum s.dtype does not match prior dtype: {s.dtype} vs. "
                        f"{prior.dtype}")
    return s


def _posterior_params(prior: Normal, scale: Any, s: Tensor, n: Any) -> Tuple[Tensor, Tensor,
                                                                               Tensor]:
    n = math_ops.cast(n, prior.dtype)
    scale0_2 = math_ops.square(prior.scale)
    scale_2 = math_ops.square(scale)
    scalep_2 = 1.0 / (1.0 / scale0_2 + n / scale_2)
    return (prior.loc / scale0_2 + s / scale_2) * scalep_2, scalep_2, scale_2


def normal_conjugates_known_scale_posterior(prior: Normal, scale: Any, s: Any,
                                            n: Any) -> Normal:
    """The posterior Normal of the mean after `n` observations summing to `s` of a Normal
    with known `scale` (prior: a Normal over the mean)."""
    s = _check_normal_prior(prior, s)
    loc, scalep_2, _ = _posterior_params(prior, scale, s, n)
    return Normal(loc=loc, scale=math_ops.sqrt(scalep_2))


def normal_conjugates_known_scale_predictive(prior: Normal, scale: Any, s: Any,
                                             n: Any) -> Normal:
    """The posterior predictive Normal of the next observation."""
    s = _check_normal_prior(prior, s)
    loc, scalep_2, scale_2 = _posterior_params(prior, scale, s, n)
    return Normal(loc=loc, scale=math_ops.sqrt(scalep_2 + scale_2))


def assign_moving_mean_variance(mean_var: Any, variance_var: Any, value: Any, decay: Any,
                                name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """Updates exponentially weighted moving mean and variance variables with `value`."""
    with name_scope(name, "assign_moving_mean_variance",
                    [variance_var, mean_var, value, decay]):
        base_dtype = mean_var.dtype.base_dtype
        if not base_dtype.is_floating:
            raise TypeError(f"mean_var.base_dtype({base_dtype.name}) does not have float "
                            "type `dtype`.")
        if base_dtype != variance_var.dtype.base_dtype:
            raise TypeError(f"mean_var.base_dtype({base_dtype.name}) != "
                            f"variance_var.base_dtype({variance_var.dtype.base_dtype.name})")
        value = convert_to_tensor(value, dtype=base_dtype, name="value")
        decay = convert_to_tensor(decay, dtype=base_dtype, name="decay")
        delta = value - mean_var
        with control_dependencies([delta]):
            mean_update = assign_add(mean_var, (1.0 - decay) * delta)
            variance_update = assign_sub(variance_var, (1.0 - decay) * (
                variance_var - decay * math_ops.square(delta)))
        return mean_update, variance_update


def assign_log_moving_mean_exp(log_mean_exp_var: Any, log_value: Any, decay: Any,
                               name: Optional[str] = None) -> Tensor:
    """x <- log(decay exp(x) + (1 - decay) exp(log_value)), computed stably."""
    with name_scope(name, "assign_log_moving_mean_exp", [log_mean_exp_var, log_value, decay]):
        base_dtype = log_mean_exp_var.dtype.base_dtype
        if not base_dtype.is_floating:
            raise TypeError(f"log_mean_exp_var.base_dtype({base_dtype.name}) does not have "
                            "float type `dtype`.")
        log_value = convert_to_tensor(log_value, dtype=base_dtype, name="log_value")
        decay = convert_to_tensor(decay, dtype=base_dtype, name="decay")
        delta = (log_value - log_mean_exp_var)[None, ...]
        x = array_ops.concat([math_ops.log(decay) * ones_like(delta),
                              delta + math_ops.log1p(-decay)], axis=0)
        return assign_add(log_mean_exp_var, reduce_logsumexp(x, axis=0))


def moving_mean_variance(value: Any, decay: Any, collections: Any = None,
                         name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """Creates `moving_mean` / `moving_variance` variables (zeros, not trainable) and
    returns their updates by `value`."""
    if collections is None:
        collections = [GraphKeys.GLOBAL_VARIABLES]
    with variable_scope(name, "moving_mean_variance", [value, decay]):
        value = convert_to_tensor(value, name="x")
        if not value.dtype.base_dtype.is_floating:
            raise TypeError(f"value.base_dtype({value.dtype.base_dtype.name}) does not have "
                            "float type `dtype`.")
        variance_var = get_variable("moving_variance", shape=value.shape, dtype=value.dtype,
                                    initializer=zeros_initializer(), trainable=False,
                                    collections=collections)
        mean_var = get_variable("moving_mean", shape=value.shape, dtype=value.dtype,
                                initializer=zeros_initializer(), trainable=False,
                                collections=collections)
        return assign_moving_mean_variance(mean_var, variance_var, value, decay)
