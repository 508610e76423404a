"""`tf.keras.backend` helpers for convolutions, pooling, padding, resizing, batch
normalization, locally-connected layers, CTC, random variables and the remaining
tensor utilities (tf-keras's definitions; backend.py re-exports them)."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from tf1compat.framework.tensor import Tensor
from tf1compat.keras.backend_core import epsilon, floatx, image_data_format, variable
from tf1compat.keras.backend_math import _tf_format

__all__ = ["conv1d", "conv3d", "depthwise_conv2d", "separable_conv2d", "pool3d",
           "temporal_padding", "spatial_3d_padding", "repeat_elements", "resize_images",
           "resize_volumes", "batch_normalization", "normalize_batch_in_training",
           "local_conv1d", "local_conv2d", "ctc_label_dense_to_sparse", "ctc_batch_cost",
           "ctc_decode", "random_bernoulli", "random_binomial", "random_normal_variable",
           "random_uniform_variable", "truncated_normal", "cast_to_floatx", "reverse",
           "print_tensor", "to_dense", "foldr", "in_top_k", "binary_focal_crossentropy",
           "categorical_focal_crossentropy"]


def _a() -> Any:
    from tf1compat.ops import array_ops
    return array_ops


def _m() -> Any:
    from tf1compat.ops import math_ops
    return math_ops


def _check_format(data_format: Optional[str]) -> str:
    data_format = data_format or image_data_format()
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


# -- convolutions and pooling ---------------------------------------------------------------

def conv1d(x: Any, kernel: Any, strides: int = 1, padding: str = "valid",
           data_format: Optional[str] = None, dilation_rate: int = 1) -> Tensor:
    """1D convolution ('causal' padding pads the start of the sequence)."""
    from tf1compat.ops.nn_conv import convolution
    from tf1compat.ops.transform_ops import pad
    _check_format(data_format)
    # Strides and dilation may be ints or 1-tuples (as the ConvLSTM1D cell passes them).
    strides = strides[0] if isinstance(strides, (list, tuple)) else strides
    dilation_rate = dilation_rate[0] if isinstance(dilation_rate, (list, tuple)) \
        else dilation_rate
    kernel_shape = kernel.shape.as_list()
    if padding == "causal":
        left = dilation_rate * (kernel_shape[0] - 1)
        x = pad(x, [[0, 0], [left, 0], [0, 0]] if _tf_format(data_format, 3) == "NWC"
                else [[0, 0], [0, 0], [left, 0]])
        padding = "valid"
    return convolution(x, kernel, padding=padding.upper(), strides=[strides],
                       dilation_rate=[dilation_rate], data_format=_tf_format(data_format, 3))


def conv3d(x: Any, kernel: Any, strides: Sequence[int] = (1, 1, 1), padding: str = "valid",
           data_format: Optional[str] = None, dilation_rate: Sequence[int] = (1, 1, 1)
           ) -> Tensor:
    from tf1compat.ops.nn_conv import convolution
    return convolution(x, kernel, padding=padding.upper(), strides=list(strides),
                       dilation_rate=list(dilation_rate),
                       data_format=_tf_format(data_format, 5))


def _strides4(strides: Sequence[int], fmt: str) -> List[int]:
    return [1] + list(strides) + [1] if fmt == "NHWC" else [1, 1] + list(strides)


def depthwise_conv2d(x: Any, depthwise_kernel: Any, strides: Sequence[int] = (1, 1),
                     padding: str = "valid", data_format: Optional[str] = None,
                     dilation_rate: Sequence[int] = (1, 1)) -> Tensor:
    from tf1compat.ops.nn_conv import depthwise_conv2d as _depthwise
    fmt = _tf_format(data_format, 4)
    return _depthwise(x, depthwise_kernel, strides=_strides4(strides, fmt),
                      padding=padding.upper(), rate=list(dilation_rate), data_format=fmt)


def separable_conv2d(x: Any, depthwise_kernel: Any, pointwise_kernel: Any,
                     strides: Sequence[int] = (1, 1), padding: str = "valid",
                     data_format: Optional[str] = None,
                     dilation_rate: Sequence[int] = (1, 1)) -> Tensor:
    from tf1compat.ops.nn_conv import separable_conv2d as _separable
    fmt = _tf_format(data_format, 4)
    return _separable(x, depthwise_kernel, pointwise_kernel, strides=_strides4(strides, fmt),
                      padding=padding.upper(), rate=list(dilation_rate), data_format=fmt)


def pool3d(x: Any, pool_size: Sequence[int], strides: Sequence[int] = (1, 1, 1),
           padding: str = "valid", data_format: Optional[str] = None,
           pool_mode: str = "max") -> Tensor:
    from tf1compat.ops import nn_pool
    fmt = _tf_format(data_format, 5)
    if fmt == "NDHWC":
        ksize, strides = [1] + list(pool_size) + [1], [1] + list(strides) + [1]
    else:
        ksize, strides = [1, 1] + list(pool_size), [1, 1] + list(strides)
    if pool_mode == "max":
        return nn_pool.max_pool3d(x, ksize, strides, padding=padding.upper(), data_format=fmt)
    if pool_mode == "avg":
        return nn_pool.avg_pool3d(x, ksize, strides, padding=padding.upper(), data_format=fmt)
    raise ValueError(f"Invalid pooling mode: {pool_mode}")


# -- padding and resizing -----------------------------------------------------------------

def temporal_padding(x: Any, padding: Sequence[int] = (1, 1)) -> Tensor:
    """Pads the middle axis of a 3D tensor with zeros."""
    from tf1compat.ops.transform_ops import pad
    if len(padding) != 2:
        raise ValueError("`padding` should be a tuple of 2 elements")
    return pad(x, [[0, 0], list(padding), [0, 0]])


def spatial_3d_padding(x: Any, padding: Any = ((1, 1), (1, 1), (1, 1)),
                       data_format: Optional[str] = None) -> Tensor:
    """Pads the three spatial axes of a 5D tensor with zeros."""
    from tf1compat.ops.transform_ops import pad
    data_format = _check_format(data_format)
    spatial = [list(p) for p in padding]
    pattern = [[0, 0], [0, 0]] + spatial if data_format == "channels_first" else \
        [[0, 0]] + spatial + [[0, 0]]
    return pad(x, pattern)


def repeat_elements(x: Any, rep: int, axis: int) -> Tensor:
    """Each slice along `axis` repeated `rep` times (np.repeat)."""
    from tf1compat.ops.transform_ops import tile
    x_shape = x.shape.as_list()
    if x_shape[axis] is not None:
        splits = _a().split(value=x, num_or_size_splits=x_shape[axis], axis=axis)
        repeated = [s for s in splits for _ in range(rep)]
        return _a().concat(repeated, axis)
    expanded = _a().expand_dims(x, axis + 1)
    reps = np.ones(len(x_shape) + 1, dtype="int32")
    reps[axis + 1] = rep
    tiled = tile(expanded, reps)
    shape = _a().shape(x)
    new_shape = _a().concat([shape[:axis], shape[axis:axis + 1] * rep, shape[axis + 1:]], 0)
    return _a().reshape(tiled, new_shape)


def resize_images(x: Any, height_factor: int, width_factor: int,
                  data_format: Optional[str], interpolation: str = "nearest") -> Tensor:
    """Scales rows and columns by integer factors with TF2's half-pixel resize."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops import image_ops
    from tf1compat.ops.transform_ops import transpose
    data_format = _check_format(data_format)
    rows, cols = (2, 3) if data_format == "channels_first" else (1, 2)
    static = x.shape[rows:cols + 1]
    new_shape = constant(static.as_list(), dtype="int32") if static.is_fully_defined() \
        else _a().shape(x)[rows:cols + 1]
    new_shape = new_shape * constant(np.array([height_factor, width_factor], dtype="int32"))
    if data_format == "channels_first":
        x = transpose(x, [0, 2, 3, 1])
    resizers = {"nearest": image_ops.resize_nearest_neighbor,
                "bilinear": image_ops.resize_bilinear, "bicubic": image_ops.resize_bicubic}
    if interpolation not in resizers:
        raise NotImplementedError(f"resize_images(interpolation={interpolation!r}) is not "
                                  "supported by tf1compat (nearest, bilinear, bicubic are)")
    x = resizers[interpolation](x, new_shape, half_pixel_centers=True)
    if data_format == "channels_first":
        x = transpose(x, [0, 3, 1, 2])
    return x


def resize_volumes(x: Any, depth_factor: int, height_factor: int, width_factor: int,
                   data_format: str) -> Tensor:
    """Repeats elements along the three spatial axes of a 5D tensor."""
    first = 2 if _check_format(data_format) == "channels_first" else 1
    for i, factor in enumerate((depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis=first + i)
    return x


# -- normalization -------------------------------------------------------------------------

def batch_normalization(x: Any, mean: Any, var: Any, beta: Any, gamma: Any,
                        axis: int = -1, epsilon: float = 1e-3) -> Tensor:
    """(x - mean) / sqrt(var + epsilon) * gamma + beta."""
    from tf1compat.ops.nn_norm import batch_normalization as _bn
    return _bn(x, mean, var, beta, gamma, epsilon)


def normalize_batch_in_training(x: Any, gamma: Any, beta: Any, reduction_axes: Sequence[int],
                                epsilon: float = 1e-3) -> tuple:
    """(normalized x, batch mean, batch variance) over `reduction_axes`."""
    from tf1compat.ops.nn_norm import batch_normalization as _bn
    from tf1compat.ops.nn_norm import moments
    mean, variance = moments(x, list(reduction_axes), None, None, False)
    return _bn(x, mean, variance, beta, gamma, epsilon), mean, variance


# -- locally connected ---------------------------------------------------------------------

def local_conv(inputs: Any, kernel: Any, kernel_size: Sequence[int],
                strides: Sequence[int], output_shape: Sequence[int],
                data_format: Optional[str]) -> Tensor:
    """Each output position's patch times its own kernel (tf-keras's local_conv)."""
    from tf1compat.keras.backend_math import batch_dot, concatenate, permute_dimensions
    from tf1compat.keras.backend_math import reshape as k_reshape
    import itertools
    channels_first = _check_format(data_format) == "channels_first"
    kernel_shape = kernel.shape.as_list()
    feature_dim = kernel_shape[1]
    channels_out = kernel_shape[-1]
    ndims = len(output_shape)
    xs = []
    for position in itertools.product(*[range(d) for d in output_shape]):
        index = [slice(p * strides[i], p * strides[i] + kernel_size[i])
                 for i, p in enumerate(position)]
        index = [slice(None), slice(None)] + index if channels_first else \
            [slice(None)] + index + [slice(None)]
        xs.append(k_reshape(inputs[tuple(index)], (1, -1, feature_dim)))
    x_aggregate = concatenate(xs, axis=0)
    output = batch_dot(x_aggregate, kernel)
    output = k_reshape(output, tuple(output_shape) + (-1, channels_out))
    if channels_first:
        return permute_dimensions(output, [ndims, ndims + 1] + list(range(ndims)))
    return permute_dimensions(output, [ndims] + list(range(ndims)) + [ndims + 1])


def local_conv1d(inputs: Any, kernel: Any, kernel_size: Sequence[int],
                 strides: Sequence[int], data_format: Optional[str] = None) -> Tensor:
    output_length = kernel.shape.as_list()[0]
    return local_conv(inputs, kernel, kernel_size, strides, (output_length,), data_format)


def local_conv2d(inputs: Any, kernel: Any, kernel_size: Sequence[int],
                 strides: Sequence[int], output_shape: Sequence[int],
                 data_format: Optional[str] = None) -> Tensor:
    return local_conv(inputs, kernel, kernel_size, strides, output_shape, data_format)


# -- CTC -----------------------------------------------------------------------------------

def ctc_label_dense_to_sparse(labels: Any, label_lengths: Any) -> Any:
    """The first `label_lengths[i]` labels of each row as a SparseTensor."""
    from tf1compat.framework.sparse_tensor import SparseTensor
    from tf1compat.ops.indexing_ops import sequence_mask
    from tf1compat.ops.indexing_ops import gather_nd, where
    label_shape = _a().shape(labels)
    mask = sequence_mask(label_lengths, label_shape[1])
    indices = where(mask)
    values = gather_nd(labels, indices)
    return SparseTensor(indices, values, _m().cast(label_shape, "int64"))


def ctc_batch_cost(y_true: Any, y_pred: Any, input_length: Any, label_length: Any) -> Tensor:
    """Per-sample CTC loss of softmax outputs `y_pred` (batch, time, classes)."""
    from tf1compat.ops.nn_losses import ctc_loss
    from tf1compat.ops.transform_ops import transpose
    label_length = _m().cast(_a().squeeze(label_length, axis=-1), "int32")
    input_length = _m().cast(_a().squeeze(input_length, axis=-1), "int32")
    sparse = ctc_label_dense_to_sparse(y_true, label_length)
    sparse = type(sparse)(sparse.indices, _m().cast(sparse.values, "int32"),
                          sparse.dense_shape)
    y_pred = _m().log(transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    return _a().expand_dims(ctc_loss(inputs=y_pred, labels=sparse,
                                     sequence_length=input_length), 1)


def ctc_decode(y_pred: Any, input_length: Any, greedy: bool = True, beam_width: int = 100,
               top_paths: int = 1) -> Any:
    """Decodes softmax outputs `y_pred` (batch, time, classes): ([dense paths], log probs).

    The paths are int64 (batch, time) tensors padded with -1: one (best path) when
    `greedy`, else the `top_paths` best of a beam search of width `beam_width`.
    """
    from tf1compat.framework.sparse_tensor import SparseTensor
    from tf1compat.ops.ctc_decode import ctc_beam_search_decoder, ctc_greedy_decoder
    from tf1compat.ops.sparse_ops import sparse_tensor_to_dense
    from tf1compat.ops.transform_ops import transpose
    dims = _m().cast(_a().shape(y_pred), "int64")
    batch, steps = dims[0], dims[1]
    log_probs = _m().log(transpose(y_pred, perm=[1, 0, 2]) + epsilon())
    lengths = _m().cast(input_length, "int32")
    if greedy:
        paths, scores = ctc_greedy_decoder(inputs=log_probs, sequence_length=lengths)
    else:
        paths, scores = ctc_beam_search_decoder(inputs=log_probs, sequence_length=lengths,
                                                beam_width=beam_width, top_paths=top_paths)
    dense = [sparse_tensor_to_dense(SparseTensor(path.indices, path.values, (batch, steps)),
                                    default_value=-1) for path in paths]
    return dense, scores


# -- random variables and tensors ------------------------------------------------------------

def random_bernoulli(shape: Any, p: float = 0.0, dtype: Any = None,
                     seed: Optional[int] = None) -> Tensor:
    """1 with probability `p`, else 0."""
    from tf1compat.ops.creation_ops import ones, zeros
    from tf1compat.ops.indexing_ops import where_v2
    from tf1compat.ops.random_ops import random_uniform
    dtype = dtype or floatx()
    if seed is None:
        seed = np.random.randint(10e6)
    return where_v2(random_uniform(shape, dtype=dtype, seed=seed) <= p,
                    ones(shape, dtype=dtype), zeros(shape, dtype=dtype))


random_binomial = random_bernoulli


def truncated_normal(shape: Any, mean: float = 0.0, stddev: float = 1.0, dtype: Any = None,
                     seed: Optional[int] = None) -> Tensor:
    from tf1compat.ops.random_ops import truncated_normal as _truncated
    if seed is None:
        seed = np.random.randint(10e6)
    return _truncated(shape, mean, stddev, dtype=dtype or floatx(), seed=seed)


def _random_variable(make_initializer: Any, shape: Any, dtype: Any, name: Optional[str],
                     seed: Optional[int]) -> Any:
    """A variable holding `make_initializer(dtype, seed)(shape)` (seed from numpy when None)."""
    dtype = dtype or floatx()
    if seed is None:
        seed = np.random.randint(10e8)
    return variable(make_initializer(dtype, seed)(shape), dtype=dtype, name=name)


def random_normal_variable(shape: Any, mean: float, scale: float, dtype: Any = None,
                           name: Optional[str] = None, seed: Optional[int] = None) -> Any:
    """A variable initialized with normal values (seed drawn from numpy when None)."""
    from tf1compat.variables.init_ops import random_normal_initializer
    return _random_variable(
        lambda dt, sd: random_normal_initializer(mean, scale, dtype=dt, seed=sd),
        shape, dtype, name, seed)


def random_uniform_variable(shape: Any, low: float, high: float, dtype: Any = None,
                            name: Optional[str] = None, seed: Optional[int] = None) -> Any:
    """A variable initialized with uniform values (seed drawn from numpy when None)."""
    from tf1compat.variables.init_ops import random_uniform_initializer
    return _random_variable(
        lambda dt, sd: random_uniform_initializer(low, high, dtype=dt, seed=sd),
        shape, dtype, name, seed)


def cast_to_floatx(x: Any) -> Any:
    """`x` as `K.floatx()` (numpy in, numpy out)."""
    from tf1compat.variables.variables import Variable
    if isinstance(x, (Tensor, Variable)):
        return _m().cast(x, dtype=floatx())
    return np.asarray(x, dtype=floatx())


def reverse(x: Any, axes: Any) -> Tensor:
    from tf1compat.ops.transform_ops import reverse as _reverse
    if isinstance(axes, int):
        axes = [axes]
    return _reverse(x, axes)


def print_tensor(x: Any, message: str = "", summarize: int = 3) -> Any:
    """Prints `message` and `x` to stdout when the result is evaluated (tf.print), and
    returns `x` (through an Identity that depends on the print, in a graph)."""
    import sys
    from tf1compat.framework.graph import control_dependencies
    from tf1compat.ops.print_ops import print_v2
    if isinstance(x, Tensor) and not getattr(x, "_is_eager_tensor", False):
        with x.graph.as_default():
            op = print_v2(message, x, output_stream=sys.stdout, summarize=summarize)
            with control_dependencies([op]):
                return _a().identity(x)
    print_v2(message, x, output_stream=sys.stdout, summarize=summarize)
    return x


def to_dense(tensor: Any) -> Any:
    from tf1compat.framework.sparse_tensor import SparseTensor
    if isinstance(tensor, SparseTensor):
        from tf1compat.ops.sparse_ops import sparse_tensor_to_dense
        return sparse_tensor_to_dense(tensor)
    return tensor


def foldr(fn: Callable, elems: Any, initializer: Any = None, name: Optional[str] = None
          ) -> Any:
    from tf1compat.ops.functional_ops import foldr as _foldr
    return _foldr(fn, elems, initializer=initializer, name=name)


def in_top_k(predictions: Any, targets: Any, k: int) -> Tensor:
    from tf1compat.ops.nn_ops import in_top_k as _in_top_k
    return _in_top_k(predictions, targets, k)


# -- focal crossentropies --------------------------------------------------------------------

def binary_focal_crossentropy(target: Any, output: Any, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0,
                              from_logits: bool = False) -> Tensor:
    """Binary crossentropy down-weighting easy examples by (1 - p_t) ** gamma."""
    from tf1compat.keras.backend_math import binary_crossentropy, sigmoid
    sigmoidal = sigmoid(output) if from_logits else output
    p_t = target * sigmoidal + (1 - target) * (1 - sigmoidal)
    focal_factor = _m().pow(1.0 - p_t, gamma)
    bce = binary_crossentropy(target=target, output=output, from_logits=from_logits)
    focal_bce = focal_factor * bce
    if apply_class_balancing:
        weight = target * alpha + (1 - target) * (1 - alpha)
        focal_bce = weight * focal_bce
    return focal_bce


def categorical_focal_crossentropy(target: Any, output: Any, alpha: float = 0.25,
                                   gamma: float = 2.0, from_logits: bool = False,
                                   axis: int = -1) -> Tensor:
    """Categorical crossentropy weighted by alpha * (1 - p) ** gamma per class."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    from tf1compat.keras.backend_math import log, softmax
    from tf1compat.ops.reduction_ops import clip_by_value, reduce_sum
    target = convert_to_tensor(target)
    output = convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    if from_logits:
        output = softmax(output, axis=axis)
    output = output / reduce_sum(output, axis=axis, keepdims=True)
    eps = convert_to_tensor(epsilon(), output.dtype.base_dtype)
    output = clip_by_value(output, eps, 1.0 - eps)
    cce = -target * log(output)
    modulating = _m().pow(1.0 - output, gamma)
    weighting = modulating * alpha
    return reduce_sum(weighting * cce, axis=axis)
