"""`tf.math`."""

# ruff: noqa: F401
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.math_ops import (abs, accumulate_n, acos, acosh, add, add_n, asin, asinh,
                                    atan, atan2, atanh, ceil, conj, cos, cosh, digamma,
                                    div_no_nan, divide, equal, erf, erfc, exp, expm1, floor,
                                    floordiv, greater, greater_equal, is_finite, is_inf,
                                    is_nan, less, less_equal, lgamma, log, log1p, logical_and,
                                    logical_not, logical_or, logical_xor, maximum, minimum,
                                    multiply, multiply_no_nan, negative, not_equal, pow,
                                    reciprocal, rint, round_ as round, rsqrt, scalar_mul,
                                    sigmoid, sign, sin, sinh, sqrt, square,
                                    squared_difference, subtract, tan, tanh, truediv,
                                    xdivy, xlogy)
from tf1compat.ops.math_ops import floor_mod as floormod, floor_mod as mod
from tf1compat.ops.math_ops import real_div as realdiv, truncate_div as truncatediv
from tf1compat.ops.math_ops import truncate_mod as truncatemod
from tf1compat.ops.math_ops import div
from tf1compat.metrics.metrics_impl import confusion_matrix
# (section: mathsparse)
from tf1compat.ops.math_extra import (bincount, imag, real, unsorted_segment_mean,
                                      unsorted_segment_sqrt_n)
from tf1compat.ops.nn_ops import in_top_k, top_k
from tf1compat.ops.numerics_ops import is_non_decreasing, is_strictly_increasing
from tf1compat.ops.reduction_ops import (argmax, argmin, count_nonzero, cumprod, cumsum,
                                         reduce_all, reduce_any, reduce_logsumexp, reduce_max,
                                         reduce_mean, reduce_min, reduce_prod, reduce_std,
                                         reduce_sum, reduce_variance, segment_max,
                                         segment_mean, segment_min, segment_prod, segment_sum,
                                         unsorted_segment_max, unsorted_segment_min,
                                         unsorted_segment_prod, unsorted_segment_sum)

# (section: api-math)
from tf1compat.api import math_special as special
from tf1compat.ops.math_extra import sobol_sample
from tf1compat.ops.math_ops import div_no_nan as divide_no_nan
from tf1compat.ops.math_tail_ops import (angle, approx_max_k, approx_min_k,
                                         cumulative_logsumexp, nextafter, polyval,
                                         reciprocal_no_nan, xlog1py)
from tf1compat.ops.nn_norm import l2_normalize
from tf1compat.ops.nn_ops import (log_sigmoid, log_softmax, softmax, softplus, softsign,
                                  zero_fraction)
from tf1compat.ops.reduction_ops import reduce_euclidean_norm
from tf1compat.ops.sort_ops import invert_permutation
from tf1compat.ops.special_math_ops import (bessel_i0, bessel_i0e, bessel_i1, bessel_i1e,
                                            betainc, erfcinv, erfinv, igamma, igammac, lbeta,
                                            ndtri, polygamma, zeta)


from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('math', globals())
