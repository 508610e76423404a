"""The tensor helpers of `tf.keras.backend` (`K.dot`, `K.mean`, `K.relu`,
`K.categorical_crossentropy`, ...), built from tf1compat's ops as TF's Keras backend
builds them; `tf1compat.keras.backend` re-exports them."""

from __future__ import annotations

import builtins
import weakref
from typing import Any, Callable, Dict, Optional, Sequence, Tuple

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant as _tf_constant
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras.backend_core import (_dtype, cast, epsilon, floatx, image_data_format,
                                          int_shape, learning_phase, ndim, shape)


# -- math (the common `K.*` helpers) -----------------------------------------------------------

def _m():
    from tf1compat.ops import math_ops
    return math_ops


def _r():
    from tf1compat.ops import reduction_ops
    return reduction_ops


def _a():
    from tf1compat.ops import array_ops
    return array_ops


def _bool_to_float(x: Any) -> Tensor:
    x = convert_to_tensor(x)
    return cast(x, floatx()) if x.dtype.base_dtype == D.bool else x


def dot(x: Any, y: Any) -> Tensor:
    """Matrix product; for rank > 2 contracts x's last axis with y's second-to-last."""
    from tf1compat.ops.linalg_ops import matmul, tensordot
    xr, yr = ndim(x), ndim(y)
    if xr is not None and yr is not None and (xr > 2 or yr > 2):
        return tensordot(x, y, [[xr - 1], [yr - 2 if yr > 1 else 0]])
    return matmul(x, y)


def batch_dot(x: Any, y: Any, axes: Any = None) -> Tensor:
    """`K.batch_dot`: per sample, the product of `x[i]` and `y[i]` over `axes` (an int for
    both, or `(axis_of_x, axis_of_y)`; default: x's last axis with y's second-to-last, or
    its last when y is 2-D). TF 1.x's algorithm (Keras 2.2.4's, which 2018 programs such
    as the capsule network of Keras's examples rely on): the lower-rank operand gets
    trailing axes of size 1, two 2-D operands are multiplied and summed (`(batch, 1)`),
    others are one batched MatMul over their last two axes, adjoint where the contracted
    axis is not the one MatMul contracts, then the added axes are squeezed. For rank-3
    operands this equals tf-keras 2.x's result; for rank 4 and up tf-keras 2.x contracts
    differently (it folds the middle axes). Checked first, as ValueErrors: ranks below 2,
    unequal batch sizes, axis 0, unequal sizes of the contracted axes."""
    from tf1compat.ops.linalg_ops import matmul
    array_ops = _a()
    x, y = convert_to_tensor(x), convert_to_tensor(y)
    x_shape, y_shape = int_shape(x), int_shape(y)
    if x_shape is None or y_shape is None or len(x_shape) < 2 or len(y_shape) < 2:
        raise ValueError("Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {x_shape} and {y_shape}.")
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError("Cannot do batch_dot on inputs with different batch sizes. Received "
                         f"inputs with shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:    # y's second-to-last axis; for a 2-D y its last (the same product)
        axes = [x_ndim - 1, y_ndim - 1 if y_ndim == 2 else y_ndim - 2]
    if builtins.any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError("Multiple target dimensions are not supported. Expected: None, int, "
                         f"(int, int), Provided: {axes}")
    x_axis, y_axis = [int(a) + (rank if int(a) < 0 else 0)
                      for a, rank in zip(axes, (x_ndim, y_ndim))]
    if 0 in (x_axis, y_axis):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "K.expand_dims(x, 0)")
    if None not in (x_shape[x_axis], y_shape[y_axis]) and x_shape[x_axis] != y_shape[y_axis]:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes {x_shape} and {y_shape} "
                         f"with axes={[x_axis, y_axis]}. x.shape[{x_axis}] != "
                         f"y.shape[{y_axis}] ({x_shape[x_axis]} != {y_shape[y_axis]}).")
    diff = builtins.abs(x_ndim - y_ndim)
    if diff:    # trailing size-1 axes on the lower-rank operand
        ones = [1] * diff
        if x_ndim > y_ndim:
            y = array_ops.reshape(y, array_ops.concat([array_ops.shape(y), ones], 0))
        else:
            x = array_ops.reshape(x, array_ops.concat([array_ops.shape(x), ones], 0))
    rank = builtins.max(x_ndim, y_ndim)
    if rank == 2:
        out = _r().reduce_sum(_m().multiply(x, y), x_axis)
    else:
        out = matmul(x, y, adjoint_a=x_axis != rank - 1, adjoint_b=y_axis == rank - 1)
    if diff:
        first = x_ndim + y_ndim - 3 if x_ndim > y_ndim else x_ndim - 1
        out = array_ops.squeeze(out, list(range(first, first + diff)))
    if ndim(out) == 1:
        out = array_ops.expand_dims(out, 1)
    return out


def sum(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r().reduce_sum(x, axis, keepdims=keepdims)


def prod(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r().reduce_prod(x, axis, keepdims=keepdims)


def mean(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r().reduce_mean(_bool_to_float(x), axis, keepdims=keepdims)


def max(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r().reduce_max(x, axis, keepdims=keepdims)


def min(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r().reduce_min(x, axis, keepdims=keepdims)


def var(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    x = _bool_to_float(x)
    m = _r().reduce_mean(x, axis, keepdims=True)
    return _r().reduce_mean(_m().square(x - m), axis, keepdims=keepdims)


def std(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _m().sqrt(var(x, axis, keepdims))


def any(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r().reduce_any(cast(x, D.bool), axis, keepdims=keepdims)


def all(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:  # noqa: A001
    return _r().reduce_all(cast(x, D.bool), axis, keepdims=keepdims)


def argmax(x: Any, axis: int = -1) -> Tensor:
    return _r().argmax(x, axis)


def argmin(x: Any, axis: int = -1) -> Tensor:
    return _r().argmin(x, axis)


def cumsum(x: Any, axis: int = 0) -> Tensor:
    return _r().cumsum(x, axis=axis)


def cumprod(x: Any, axis: int = 0) -> Tensor:
    return _r().cumprod(x, axis=axis)


def logsumexp(x: Any, axis: Any = None, keepdims: bool = False) -> Tensor:
    return _r().reduce_logsumexp(x, axis, keepdims=keepdims)


def square(x: Any) -> Tensor:
    return _m().square(x)


def abs(x: Any) -> Tensor:  # noqa: A001
    return _m().abs(x)


def sqrt(x: Any) -> Tensor:
    zero = _tf_constant(0.0, dtype=convert_to_tensor(x).dtype.base_dtype)
    x = _m().maximum(x, zero)
    return _m().sqrt(x)


def exp(x: Any) -> Tensor:
    return _m().exp(x)


def log(x: Any) -> Tensor:
    return _m().log(x)


def pow(x: Any, a: Any) -> Tensor:  # noqa: A001
    return _m().pow(x, a)


def sin(x: Any) -> Tensor:
    return _m().sin(x)


def cos(x: Any) -> Tensor:
    return _m().cos(x)


def round(x: Any) -> Tensor:  # noqa: A001
    return _m().round_(x)


def sign(x: Any) -> Tensor:
    return _m().sign(x)


def clip(x: Any, min_value: Any, max_value: Any) -> Tensor:
    if max_value is not None and min_value is not None and max_value < min_value:
        max_value = min_value
    if min_value is None:
        min_value = -np.inf
    if max_value is None:
        max_value = np.inf
    return _r().clip_by_value(x, min_value, max_value)


def equal(x: Any, y: Any) -> Tensor:
    return _m().equal(x, y)


def not_equal(x: Any, y: Any) -> Tensor:
    return _m().not_equal(x, y)


def greater(x: Any, y: Any) -> Tensor:
    return _m().greater(x, y)


def greater_equal(x: Any, y: Any) -> Tensor:
    return _m().greater_equal(x, y)


def less(x: Any, y: Any) -> Tensor:
    return _m().less(x, y)


def less_equal(x: Any, y: Any) -> Tensor:
    return _m().less_equal(x, y)


def maximum(x: Any, y: Any) -> Tensor:
    return _m().maximum(x, y)


def minimum(x: Any, y: Any) -> Tensor:
    return _m().minimum(x, y)


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: str = "int32") -> Tensor:
    from tf1compat.ops.creation_ops import range as _range
    if stop is None:
        start, stop = 0, start
    return _range(start, stop, step, dtype=dtype)


def concatenate(tensors: Sequence[Any], axis: int = -1) -> Tensor:
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    return _a().concat(list(tensors), axis)


def reshape(x: Any, shape: Any) -> Tensor:
    return _a().reshape(x, shape)


def permute_dimensions(x: Any, pattern: Sequence[int]) -> Tensor:
    from tf1compat.ops.transform_ops import transpose as _transpose
    return _transpose(x, perm=list(pattern))


def transpose(x: Any) -> Tensor:
    from tf1compat.ops.transform_ops import transpose as _transpose
    return _transpose(x)


def flatten(x: Any) -> Tensor:
    return _a().reshape(x, [-1])


def batch_flatten(x: Any) -> Tensor:
    return _a().reshape(x, _a().stack([-1, prod(shape(x)[1:])]))


def expand_dims(x: Any, axis: int = -1) -> Tensor:
    return _a().expand_dims(x, axis)


def squeeze(x: Any, axis: int) -> Tensor:
    return _a().squeeze(x, [axis])


def stack(x: Sequence[Any], axis: int = 0) -> Tensor:
    return _a().stack(x, axis=axis)


def gather(reference: Any, indices: Any) -> Tensor:
    from tf1compat.ops.indexing_ops import gather as _gather
    return _gather(reference, indices)


def tile(x: Any, n: Any) -> Tensor:
    from tf1compat.ops.transform_ops import tile as _tile
    if isinstance(n, int):
        n = [n]
    return _tile(x, n)


def repeat(x: Any, n: int) -> Tensor:
    from tf1compat.ops.transform_ops import tile as _tile
    x = _a().expand_dims(x, 1)
    return _tile(x, [1, n, 1])


def one_hot(indices: Any, num_classes: int) -> Tensor:
    from tf1compat.ops.creation_ops import one_hot as _one_hot
    return _one_hot(indices, depth=num_classes, axis=-1)


def relu(x: Any, alpha: float = 0.0, max_value: Any = None, threshold: float = 0.0) -> Tensor:
    """`K.relu`: plain ReLU, leaky (alpha), capped (max_value) or thresholded."""
    from tf1compat.ops import nn_ops
    x = convert_to_tensor(x)
    dtype = x.dtype.base_dtype
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return nn_ops.leaky_relu(x, alpha=alpha)
        negative_part = nn_ops.relu(-x + threshold) if threshold != 0 else nn_ops.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * cast(greater(x, threshold), dtype)
    elif max_value == 6:
        x = nn_ops.relu6(x)
        clip_max = False
    else:
        x = nn_ops.relu(x)
    if clip_max:
        x = _r().clip_by_value(x, _constant_to_tensor(0, dtype),
                               _constant_to_tensor(max_value, dtype))
    if alpha != 0.0:
        x -= _constant_to_tensor(alpha, dtype) * negative_part
    return x


def spatial_2d_padding(x: Any, padding: Any = ((1, 1), (1, 1)),
                       data_format: Optional[str] = None) -> Tensor:
    from tf1compat.ops.transform_ops import pad
    data_format = data_format or image_data_format()
    if data_format == "channels_first":
        pattern = [[0, 0], [0, 0], list(padding[0]), list(padding[1])]
    else:
        pattern = [[0, 0], list(padding[0]), list(padding[1]), [0, 0]]
    return pad(x, pattern)


def elu(x: Any, alpha: float = 1.0) -> Tensor:
    from tf1compat.ops import nn_ops
    res = nn_ops.elu(x)
    if alpha == 1:
        return res
    from tf1compat.ops.indexing_ops import where_v2
    return where_v2(x > 0, res, alpha * res)


def _is_eager_tensor(t: Any) -> bool:
    try:
        t.graph
    except AttributeError:
        return True
    return False


# The logits of live eager outputs, by id (TF sets `_keras_logits` on eager tensors too;
# ours take no attributes): each entry goes when its output is collected.
_EAGER_LOGITS: Dict[int, Tuple[Any, Any]] = {}


def _set_keras_logits(output: Tensor, logits: Any) -> Tensor:
    """Remembers `logits` for losses on `output` (TF's `output._keras_logits`)."""
    if _is_eager_tensor(output):
        key = id(output)
        _EAGER_LOGITS[key] = (weakref.ref(output), logits)
        weakref.finalize(output, _EAGER_LOGITS.pop, key, None)
        return output
    table = output.graph._extras.setdefault("keras_logits", {})
    table[id(output)] = (output, logits)
    return output


def _keras_logits(output: Any) -> Any:
    if not isinstance(output, Tensor):
        return None
    if _is_eager_tensor(output):
        entry = _EAGER_LOGITS.get(id(output))
        return entry[1] if entry is not None and entry[0]() is output else None
    entry = output.graph._extras.get("keras_logits", {}).get(id(output))
    return entry[1] if entry is not None and entry[0] is output else None


def softmax(x: Any, axis: Any = -1) -> Tensor:
    from tf1compat.ops import nn_ops
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        output = nn_ops.softmax(x, axis=axis)
    else:
        numerator = _m().exp(x - _r().reduce_max(x, axis=axis, keepdims=True))
        output = numerator / _r().reduce_sum(numerator, axis=axis, keepdims=True)
    return _set_keras_logits(output, x)


def softplus(x: Any) -> Tensor:
    from tf1compat.ops import nn_ops
    return nn_ops.softplus(x)


def softsign(x: Any) -> Tensor:
    from tf1compat.ops import nn_ops
    return nn_ops.softsign(x)


def sigmoid(x: Any) -> Tensor:
    x = convert_to_tensor(x)
    return _set_keras_logits(_m().sigmoid(x), x)


def hard_sigmoid(x: Any) -> Tensor:
    point_two = _tf_constant(0.2, dtype=convert_to_tensor(x).dtype.base_dtype)
    point_five = _tf_constant(0.5, dtype=convert_to_tensor(x).dtype.base_dtype)
    # tf.multiply / tf.add as Keras spells them (ops `Mul`, `Add`, not `mul`, `add`).
    x = _m().add(_m().multiply(x, point_two), point_five)
    return _r().clip_by_value(x, 0.0, 1.0)


def tanh(x: Any) -> Tensor:
    return _m().tanh(x)


def bias_add(x: Any, bias: Any, data_format: Optional[str] = None) -> Tensor:
    """Adds a bias of rank 1 (one per channel) or rank ndim(x) - 1 (one per position)."""
    from tf1compat.ops import nn_ops
    data_format = data_format or image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("Unknown data_format: " + str(data_format))
    bias_shape = int_shape(bias)
    if len(bias_shape) != 1 and len(bias_shape) != ndim(x) - 1:
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}, expect to be 1 or "
                         f"{ndim(x) - 1} dimensions")
    if len(bias_shape) == 1:
        fmt = "NCHW" if data_format == "channels_first" else "NHWC"
        return nn_ops.bias_add(x, bias, data_format=fmt)
    if ndim(x) in (3, 4, 5):
        if data_format == "channels_first":
            return x + reshape(bias, (1, bias_shape[-1]) + tuple(bias_shape[:-1]))
        return x + reshape(bias, (1,) + tuple(bias_shape))
    return nn_ops.bias_add(x, bias)


def dropout(x: Any, level: float, noise_shape: Any = None, seed: Optional[int] = None
            ) -> Tensor:
    from tf1compat.ops import nn_ops
    if seed is None:
        seed = np.random.randint(10e6)
    return nn_ops.dropout_v2(x, rate=level, noise_shape=noise_shape, seed=seed)


def l2_normalize(x: Any, axis: Any = None) -> Tensor:
    from tf1compat.ops.nn_norm import l2_normalize as _l2
    return _l2(x, axis=axis)


def _get_logits(output: Any, from_logits: bool, op_type: str) -> tuple:
    """A Softmax/Sigmoid output's logits (its input), so losses are computed stably."""
    logits = _keras_logits(output)
    if logits is not None:
        return logits, True
    if isinstance(output, Tensor) and not hasattr(output, "_variable") and \
            not _is_eager_tensor(output) and output.op.type == op_type:
        return output.op.inputs[0], True
    return output, from_logits


def _constant_to_tensor(x: float, dtype: D.DType) -> Tensor:
    return _tf_constant(x, dtype=dtype)


def categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                             axis: int = -1) -> Tensor:
    from tf1compat.ops import nn_losses
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    output, from_logits = _get_logits(output, from_logits, "Softmax")
    if from_logits:
        return nn_losses.softmax_cross_entropy_with_logits_v2(labels=target, logits=output,
                                                              axis=axis)
    output = output / _r().reduce_sum(output, axis, True)
    eps = _constant_to_tensor(epsilon(), output.dtype.base_dtype)
    output = _r().clip_by_value(output, eps, 1.0 - eps)
    return -_r().reduce_sum(target * _m().log(output), axis)


def sparse_categorical_crossentropy(target: Any, output: Any, from_logits: bool = False,
                                    axis: int = -1) -> Tensor:
    from tf1compat.ops import nn_losses
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    target = cast(target, "int64")
    output, from_logits = _get_logits(output, from_logits, "Softmax")
    if not from_logits:
        eps = _constant_to_tensor(epsilon(), output.dtype.base_dtype)
        output = _r().clip_by_value(output, eps, 1 - eps)
        output = _m().log(output)
    output_rank = output.shape.ndims
    if output_rank is not None:
        axis %= output_rank
        if axis != output_rank - 1:
            perm = list(range(axis)) + list(range(axis + 1, output_rank)) + [axis]
            output = permute_dimensions(output, perm)
    elif axis != -1:
        raise ValueError(f"Cannot compute sparse categorical crossentropy with `axis={axis}` "
                         "on an output tensor with unknown rank")
    output_shape = shape(output)
    target_rank = target.shape.ndims
    update_shape = (target_rank is not None and output_rank is not None and
                    target_rank != output_rank - 1)
    if update_shape:
        target = flatten(target)
        output = _a().reshape(output, [-1, output_shape[-1]])
    res = nn_losses.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and output_rank >= 3:
        res = _a().reshape(res, output_shape[:-1])
    return res


def binary_crossentropy(target: Any, output: Any, from_logits: bool = False) -> Tensor:
    from tf1compat.ops import nn_losses
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    output, from_logits = _get_logits(output, from_logits, "Sigmoid")
    if from_logits:
        return nn_losses.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = _constant_to_tensor(epsilon(), output.dtype.base_dtype)
    output = _r().clip_by_value(output, eps, 1.0 - eps)
    bce = target * _m().log(output + epsilon())
    bce += (1 - target) * _m().log(1 - output + epsilon())
    return -bce


def switch(condition: Any, then_expression: Any, else_expression: Any) -> Any:
    """`then_expression` where `condition` holds, else `else_expression` (TF 2.21's tf.keras).

    A scalar condition builds a `tf.cond`; a higher-rank one is reshaped and tiled to the
    expressions' shape (a `[batch, n, 1]` mask selects from `[batch, n, k]` values) and
    selects elementwise with `SelectV2`. A rank-1 condition that cannot broadcast against
    the expressions' trailing dimension selects whole rows, as TF 1.x's Keras did.
    """
    from tf1compat.ops.array_ops import concat, shape
    from tf1compat.ops.cond import cond
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.indexing_ops import where, where_v2
    from tf1compat.ops.transform_ops import tile as tile_op
    condition = convert_to_tensor(condition)
    if condition.dtype != D.bool:
        condition = cast(condition, "bool")
    cond_ndim = condition.shape.ndims
    if not cond_ndim:
        then_fn = then_expression if callable(then_expression) else (lambda: then_expression)
        else_fn = else_expression if callable(else_expression) else (lambda: else_expression)
        return cond(condition, then_fn, else_fn)
    if callable(then_expression):
        then_expression = then_expression()
    if callable(else_expression):
        else_expression = else_expression()
    then_expression = convert_to_tensor(then_expression)
    expr_ndim = then_expression.shape.ndims
    if expr_ndim is not None and cond_ndim > expr_ndim:
        raise ValueError("Rank of `condition` should be less than or equal to rank of "
                         "`then_expression` and `else_expression`. "
                         f"ndim(condition)={cond_ndim}, ndim(then_expression)={expr_ndim}")
    if cond_ndim > 1:
        cond_shape = concat([shape(condition), [1] * (expr_ndim - cond_ndim)], axis=0)
        condition = reshape(condition, cond_shape)
        expr_shape = shape(then_expression)
        tile_shape = where_v2(expr_shape - cond_shape > 0, expr_shape, ones_like(expr_shape))
        condition = tile_op(condition, tile_shape)
    elif expr_ndim and expr_ndim > 1 and not _broadcasts(condition, then_expression):
        return where(condition, then_expression, else_expression)
    return where_v2(condition, then_expression, else_expression)


def _broadcasts(condition: Tensor, expression: Tensor) -> bool:
    """Whether a rank-1 condition can broadcast against the expression's last dimension."""
    n, last = condition.shape.as_list()[0], expression.shape.as_list()[-1]
    return n is None or last is None or n == 1 or n == last


def in_train_phase(x: Any, alt: Any, training: Any = None) -> Any:
    """`x` in training, `alt` otherwise (training defaults to the learning phase)."""
    if training is None:
        training = learning_phase()
    if training == 1 or training is True:
        return x() if callable(x) else x
    if training == 0 or training is False:
        return alt() if callable(alt) else alt
    return switch(training, x, alt)


def in_test_phase(x: Any, alt: Any, training: Any = None) -> Any:
    return in_train_phase(alt, x, training=training)


def random_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                  seed: Optional[int] = None) -> Tensor:
    from tf1compat.ops.random_ops import random_normal as _rn
    if seed is None:
        seed = np.random.randint(10e6)
    return _rn(shape, mean=mean, stddev=stddev, dtype=_dtype(dtype), seed=seed)


def random_uniform(shape: Any, minval: float = 0.0, maxval: float = 1.0, dtype: Any = None,
                   seed: Optional[int] = None) -> Tensor:
    from tf1compat.ops.random_ops import random_uniform as _ru
    if seed is None:
        seed = np.random.randint(10e6)
    return _ru(shape, minval=minval, maxval=maxval, dtype=_dtype(dtype), seed=seed)


def _tf_format(data_format: Optional[str], rank: int) -> str:
    data_format = data_format or image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    spatial = {3: "W", 4: "HW", 5: "DHW"}[rank]
    return ("NC" + spatial) if data_format == "channels_first" else ("N" + spatial + "C")


def conv2d(x: Any, kernel: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Optional[str] = None, dilation_rate: Any = (1, 1)) -> Tensor:
    from tf1compat.ops.nn_conv import convolution
    return convolution(x, kernel, padding=padding.upper(), strides=list(strides),
                       dilation_rate=list(dilation_rate),
                       data_format=_tf_format(data_format, 4))


def conv2d_transpose(x: Any, kernel: Any, output_shape: Any, strides: Any = (1, 1),
                     padding: str = "valid", data_format: Optional[str] = None,
                     dilation_rate: Any = (1, 1)) -> Tensor:
    """`K.conv2d_transpose` (Conv2DTranspose's op): conv2d_transpose, or atrous_conv2d_
    transpose for dilations (not supported by tf1compat)."""
    from tf1compat.ops.nn_conv import conv2d_transpose as _c2dt
    fmt = _tf_format(data_format, 4)
    if isinstance(output_shape, (tuple, list)):
        output_shape = _a().stack(output_shape)
    strides = (1,) + tuple(strides) + (1,) if fmt == "NHWC" else (1, 1) + tuple(strides)
    if tuple(dilation_rate) == (1, 1):
        return _c2dt(x, kernel, output_shape, strides, padding=padding.upper(),
                     data_format=fmt)
    raise NotImplementedError("Conv2DTranspose with dilation_rate != 1 is not supported by "
                              "tf1compat")


def pool2d(x: Any, pool_size: Any, strides: Any = (1, 1), padding: str = "valid",
           data_format: Optional[str] = None, pool_mode: str = "max") -> Tensor:
    from tf1compat.ops import nn_pool
    fmt = _tf_format(data_format, 4)
    if fmt == "NHWC":
        ksize, strides = (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,)
    else:
        ksize, strides = (1, 1) + tuple(pool_size), (1, 1) + tuple(strides)
    fn = nn_pool.max_pool if pool_mode == "max" else nn_pool.avg_pool
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pooling mode: {pool_mode}")
    return fn(x, ksize, strides, padding=padding.upper(), data_format=fmt)


def map_fn(fn: Callable, elems: Any, name: Optional[str] = None, dtype: Any = None) -> Any:
    from tf1compat.ops.functional_ops import map_fn as _map_fn
    return _map_fn(fn, elems, name=name, dtype=dtype)


def foldl(fn: Callable, elems: Any, initializer: Any = None, name: Optional[str] = None
          ) -> Any:
    from tf1compat.ops.functional_ops import foldl as _foldl
    return _foldl(fn, elems, initializer=initializer, name=name)


def update(x: Any, new_x: Any) -> Any:
    from tf1compat.ops.state_ops import assign
    return assign(x, new_x)


def update_add(x: Any, increment: Any) -> Any:
    from tf1compat.ops.state_ops import assign_add
    return assign_add(x, increment)


def update_sub(x: Any, decrement: Any) -> Any:
    from tf1compat.ops.state_ops import assign_sub
    return assign_sub(x, decrement)


def moving_average_update(x: Any, value: Any, momentum: float) -> Any:
    from tf1compat.training.moving_averages import assign_moving_average
    return assign_moving_average(x, value, momentum, zero_debias=True)
