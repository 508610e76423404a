"""Every TF1 initializer (`tf.zeros_initializer`, `tf.initializers.*`), with TF's defaults and
distributions.

An initializer is called as `init(shape, dtype=None, partition_info=None)` and builds the
initial value with the same wrappers TF uses (`tf.zeros`, `tf.random_uniform`, ...), so op
names and the op-seed counter (`tf.set_random_seed`) advance exactly as in TF. The
classes are plain Python and subclassable (Keras' initializers and tf.contrib.layers'
aliases build on them):

* `Zeros`, `Ones`, `Constant(value, verify_shape)`
* `RandomUniform(minval=0, maxval=None)`, `RandomNormal(mean=0, stddev=1)`,
  `TruncatedNormal(mean=0, stddev=1)` (values beyond 2 stddev redrawn)
* `UniformUnitScaling(factor)`: uniform in +-sqrt(3 / fan_in) * factor
* `VarianceScaling(scale, mode, distribution)`: `truncated_normal` (the default, and
  `normal`) uses stddev sqrt(scale / n) / 0.87962566103423978, the stddev of a unit normal
  truncated to two standard deviations, so the truncated values keep variance scale / n
* `GlorotUniform`, `GlorotNormal`, and `lecun_*`, `he_*` factories
* `Orthogonal(gain)` (QR of a normal matrix, signs made uniform), `Identity(gain)`
* `ConvolutionDeltaOrthogonal` (`ConvolutionOrthogonal1D/2D/3D` are in conv_orthogonal.py)
* `xavier_initializer` / `contrib_variance_scaling_initializer`: tf.contrib.layers'
  versions (factor, mode in upper case, `uniform`; the normal case uses a truncated normal
  of stddev sqrt(1.3 * factor / n)).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import random_ops

__all__ = [
    "Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
    "TruncatedNormal", "UniformUnitScaling", "VarianceScaling", "Orthogonal", "Identity",
    "GlorotUniform", "GlorotNormal", "ConvolutionDeltaOrthogonal",
    "zeros_initializer", "ones_initializer", "constant_initializer",
    "random_uniform_initializer", "random_normal_initializer",
    "truncated_normal_initializer", "uniform_unit_scaling_initializer",
    "variance_scaling_initializer", "glorot_uniform_initializer",
    "glorot_normal_initializer", "orthogonal_initializer", "identity_initializer",
    "lecun_normal", "lecun_uniform", "he_normal", "he_uniform",
    "convolutional_delta_orthogonal",
    "xavier_initializer", "xavier_initializer_conv2d",
    "contrib_variance_scaling_initializer", "compute_fans",
]

# The stddev of a standard normal truncated to [-2, 2].
_TRUNCATED_NORMAL_STDDEV = .87962566103423978


def _assert_float_dtype(dtype: D.DType) -> D.DType:
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: "
                         f"{dtype}.")
    return dtype


def _dims(shape: Any) -> list:
    if isinstance(shape, TensorShape):
        return shape.as_list()
    return list(shape)


class Initializer:
    """Base class of the initializers: `__call__(shape, dtype=None, partition_info=None)`."""

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        raise NotImplementedError

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict) -> "Initializer":
        return cls(**config)

    def _random(self, kind: str, shape: Any, a: Any, b: Any, dtype: Any) -> Tensor:
        """A draw of `kind` ("uniform" in [a, b), "normal" / "truncated_normal" of mean a
        and stddev b) with the initializer's seed: TF 1's stateful random ops (TF 2's
        initializers, init_ops_v2.py, draw stateless ones when seeded)."""
        draw = {"uniform": random_ops.random_uniform, "normal": random_ops.random_normal,
                "truncated_normal": random_ops.truncated_normal}[kind]
        return draw(shape, a, b, dtype, seed=getattr(self, "seed", None))


class Zeros(Initializer):
    """`tf.zeros_initializer`."""

    def __init__(self, dtype: Any = D.float32):
        self.dtype = D.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        from tf1compat.ops.creation_ops import zeros
        return zeros(shape, self.dtype if dtype is None else dtype)

    def get_config(self) -> dict:
        return {"dtype": self.dtype.name}


class Ones(Initializer):
    """`tf.ones_initializer`."""

    def __init__(self, dtype: Any = D.float32):
        self.dtype = D.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        from tf1compat.ops.creation_ops import ones
        return ones(shape, self.dtype if dtype is None else dtype)

    def get_config(self) -> dict:
        return {"dtype": self.dtype.name}


class Constant(Initializer):
    """`tf.constant_initializer(value, dtype, verify_shape)`: a scalar is broadcast; a
    shorter list is padded with its last value (TF1's `tf.constant` with a shape)."""

    def __init__(self, value: Any = 0, dtype: Any = D.float32, verify_shape: bool = False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value={value} of type: "
                            f"{type(value).__name__}. Expected Python scalar, list or tuple of "
                            "values, or numpy.ndarray.")
        self.value = value
        self.dtype = D.as_dtype(dtype)
        self._verify_shape = verify_shape

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None,
                 verify_shape: Optional[bool] = None) -> Tensor:
        if dtype is None:
            dtype = self.dtype
        if verify_shape is None:
            verify_shape = self._verify_shape
        return constant(self.value, dtype=dtype, shape=shape, verify_shape=verify_shape)

    def get_config(self) -> dict:
        return {"value": self.value, "dtype": self.dtype.name}


class RandomUniform(Initializer):
    """`tf.random_uniform_initializer(minval=0, maxval=None)` (maxval 1 for floats)."""

    def __init__(self, minval: Any = .0, maxval: Any = None, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        self.minval = minval
        self.maxval = maxval
        self.seed = seed
        self.dtype = D.as_dtype(dtype)

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        return self._random("uniform", shape, self.minval, self.maxval,
                            self.dtype if dtype is None else dtype)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed,
                "dtype": self.dtype.name}


class RandomNormal(Initializer):
    """`tf.random_normal_initializer(mean=0, stddev=1)`."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 1.0, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        return self._random("normal", shape, self.mean, self.stddev,
                            self.dtype if dtype is None else dtype)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
                "dtype": self.dtype.name}


class TruncatedNormal(Initializer):
    """`tf.truncated_normal_initializer(mean=0, stddev=1)`: draws beyond 2 stddev redrawn."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 1.0, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        self.mean = mean
        self.stddev = stddev
        self.seed = seed
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        return self._random("truncated_normal", shape, self.mean, self.stddev,
                            self.dtype if dtype is None else dtype)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed,
                "dtype": self.dtype.name}


class UniformUnitScaling(Initializer):
    """`tf.uniform_unit_scaling_initializer(factor=1)`: +-sqrt(3 / input_size) * factor."""

    def __init__(self, factor: float = 1.0, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        self.factor = factor
        self.seed = seed
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        if dtype is None:
            dtype = self.dtype
        scale_shape = shape if partition_info is None else partition_info.full_shape
        input_size = 1.0
        for dim in _dims(scale_shape)[:-1]:
            input_size *= float(dim)
        input_size = max(input_size, 1.0)
        max_val = math.sqrt(3 / input_size) * self.factor
        return self._random("uniform", shape, -max_val, max_val, dtype)

    def get_config(self) -> dict:
        return {"factor": self.factor, "seed": self.seed, "dtype": self.dtype.name}


def compute_fans(shape: Any) -> tuple:
    """(fan_in, fan_out) of a weight shape, as TF: conv kernels multiply the receptive field."""
    shape = _dims(shape)
    if len(shape) < 1:
        fan_in = fan_out = 1
    elif len(shape) == 1:
        fan_in = fan_out = shape[0]
    elif len(shape) == 2:
        fan_in, fan_out = shape[0], shape[1]
    else:
        receptive = 1
        for dim in shape[:-2]:
            receptive *= dim
        fan_in = shape[-2] * receptive
        fan_out = shape[-1] * receptive
    return int(fan_in), int(fan_out)


class VarianceScaling(Initializer):
    """`tf.variance_scaling_initializer(scale=1, mode="fan_in",
    distribution="truncated_normal")`."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal", seed: Optional[int] = None,
                 dtype: Any = D.float32):
        if scale <= 0.:
            raise ValueError(f"Argument `scale` must be a positive float. Received: {scale}")
        if mode not in {"fan_in", "fan_out", "fan_avg"}:
            raise ValueError("Argument `mode` should be one of ('fan_in', 'fan_out', "
                             f"'fan_avg'). Received: {mode}")
        distribution = distribution.lower()
        if distribution not in {"normal", "uniform", "truncated_normal", "untruncated_normal"}:
            raise ValueError("Argument `distribution` should be one of ('normal', uniform', "
                             f"'truncated_normal', 'untruncated_normal'). Received: "
                             f"{distribution}")
        self.scale = scale
        self.mode = mode
        self.distribution = distribution
        self.seed = seed
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        if dtype is None:
            dtype = self.dtype
        scale = self.scale
        scale_shape = shape if partition_info is None else partition_info.full_shape
        fan_in, fan_out = compute_fans(scale_shape)
        if self.mode == "fan_in":
            scale /= max(1., fan_in)
        elif self.mode == "fan_out":
            scale /= max(1., fan_out)
        else:
            scale /= max(1., (fan_in + fan_out) / 2.)
        if self.distribution in ("normal", "truncated_normal"):
            stddev = math.sqrt(scale) / _TRUNCATED_NORMAL_STDDEV
            return self._random("truncated_normal", shape, 0.0, stddev, dtype)
        if self.distribution == "untruncated_normal":
            stddev = math.sqrt(scale)
            return self._random("normal", shape, 0.0, stddev, dtype)
        limit = math.sqrt(3.0 * scale)
        return self._random("uniform", shape, -limit, limit, dtype)

    def get_config(self) -> dict:
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed, "dtype": self.dtype.name}


class GlorotUniform(VarianceScaling):
    """`tf.glorot_uniform_initializer`: uniform in +-sqrt(6 / (fan_in + fan_out))."""

    def __init__(self, seed: Optional[int] = None, dtype: Any = D.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="uniform", seed=seed)

    def get_config(self) -> dict:
        return {"seed": self.seed, "dtype": self.dtype.name}


class GlorotNormal(VarianceScaling):
    """`tf.glorot_normal_initializer`: truncated normal of variance 2 / (fan_in + fan_out)."""

    def __init__(self, seed: Optional[int] = None, dtype: Any = D.float32):
        super().__init__(scale=1.0, mode="fan_avg", distribution="truncated_normal",
                         seed=seed)

    def get_config(self) -> dict:
        return {"seed": self.seed, "dtype": self.dtype.name}


def lecun_normal(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(scale=1., mode="fan_in", distribution="truncated_normal", seed=seed)


def lecun_uniform(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(scale=1., mode="fan_in", distribution="uniform", seed=seed)


def he_normal(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(scale=2., mode="fan_in", distribution="truncated_normal", seed=seed)


def he_uniform(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(scale=2., mode="fan_in", distribution="uniform", seed=seed)


def _orthonormal(initializer: Initializer, n_rows: int, n_cols: int,
                 dtype: D.DType) -> Tensor:
    """Q of the QR of a normal (rows >= cols) matrix, with sign(diag(R)) folded in."""
    from tf1compat.ops.math_ops import sign
    from tf1compat.ops.matrix_ops import diag_part, qr
    a = initializer._random("normal", (n_rows, n_cols), 0.0, 1.0, dtype)
    q, r = qr(a, full_matrices=False)
    d = diag_part(r)
    q *= sign(d)
    return q


class Orthogonal(Initializer):
    """`tf.orthogonal_initializer(gain=1)`: a (semi-)orthogonal matrix, reshaped."""

    def __init__(self, gain: float = 1.0, seed: Optional[int] = None, dtype: Any = D.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))
        self.seed = seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        from tf1compat.ops.array_ops import reshape
        from tf1compat.ops.matrix_ops import matrix_transpose
        if dtype is None:
            dtype = self.dtype
        dims = _dims(shape)
        if len(dims) < 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             f"at least two-dimensional. Received shape={shape}")
        num_rows = 1
        for dim in dims[:-1]:
            num_rows *= dim
        num_rows = int(num_rows)
        num_cols = int(dims[-1])
        flat = (num_cols, num_rows) if num_rows < num_cols else (num_rows, num_cols)
        q = _orthonormal(self, flat[0], flat[1], dtype)
        if num_rows < num_cols:
            q = matrix_transpose(q)
        return self.gain * reshape(q, shape)

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


class Identity(Initializer):
    """`tf.initializers.identity(gain=1)`: gain * eye (2-D shapes only)."""

    def __init__(self, gain: float = 1.0, dtype: Any = D.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        from tf1compat.ops.matrix_ops import eye
        full_shape = shape if partition_info is None else partition_info.full_shape
        if len(_dims(full_shape)) != 2:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             f"at least two-dimensional. Received shape={shape}")
        if dtype is None:
            dtype = self.dtype
        initializer = eye(*_dims(full_shape), dtype=dtype)
        if partition_info is not None:
            from tf1compat.ops.strided_slice import slice as slice_op
            initializer = slice_op(initializer, partition_info.var_offset, _dims(shape))
        return self.gain * initializer

    def get_config(self) -> dict:
        return {"gain": self.gain, "dtype": self.dtype.name}


class ConvolutionDeltaOrthogonal(Initializer):
    """`tf.initializers.convolutional_delta_orthogonal`: an orthogonal matrix at the center
    of the kernel, zeros elsewhere."""

    def __init__(self, gain: float = 1.0, seed: Optional[int] = None, dtype: Any = D.float32):
        self.gain = gain
        self.dtype = _assert_float_dtype(D.as_dtype(dtype))
        self.seed = seed

    def __call__(self, shape: Any, dtype: Any = None, partition_info: Any = None) -> Tensor:
        from tf1compat.ops.array_ops import expand_dims
        from tf1compat.ops.indexing_ops import scatter_nd
        from tf1compat.ops.math_ops import cast
        if dtype is None:
            dtype = self.dtype
        dims = _dims(shape)
        if len(dims) < 3 or len(dims) > 5:
            raise ValueError("The tensor to initialize, specified by argument `shape` must be "
                             "at least three-dimensional and at most five-dimensional. "
                             f"Received shape={shape}")
        if dims[-2] > dims[-1]:
            raise ValueError(f"In_filters, specified by shape[-2]={dims[-2]} cannot be "
                             f"greater than out_filters, specified by shape[-1]={dims[-1]}.")
        q = _orthonormal(self, dims[-1], dims[-1], dtype)
        q = q[:dims[-2], :]
        q *= cast(self.gain, dtype=dtype)
        center = [[(d - 1) // 2 for d in dims[:-2]]]
        return scatter_nd(center, expand_dims(q, 0), dims)

    def get_config(self) -> dict:
        return {"gain": self.gain, "seed": self.seed, "dtype": self.dtype.name}


zeros_initializer = Zeros
ones_initializer = Ones
constant_initializer = Constant
random_uniform_initializer = RandomUniform
random_normal_initializer = RandomNormal
truncated_normal_initializer = TruncatedNormal
uniform_unit_scaling_initializer = UniformUnitScaling
variance_scaling_initializer = VarianceScaling
glorot_uniform_initializer = GlorotUniform
glorot_normal_initializer = GlorotNormal
orthogonal_initializer = Orthogonal
identity_initializer = Identity
convolutional_delta_orthogonal = ConvolutionDeltaOrthogonal


# -- tf.contrib.layers' initializers ---------------------------------------------------------

def contrib_variance_scaling_initializer(factor: float = 2.0, mode: str = "FAN_IN",
                                         uniform: bool = False, seed: Optional[int] = None,
                                         dtype: Any = D.float32) -> Callable[..., Tensor]:
    """`tf.contrib.layers.variance_scaling_initializer` (He init by default).

    fan_in is shape[-2] times the receptive field; the normal case draws from a truncated
    normal of stddev sqrt(1.3 * factor / n), the uniform case from +-sqrt(3 * factor / n).
    """
    dtype = D.as_dtype(dtype)
    if not dtype.is_floating:
        raise TypeError("Cannot create initializer for non-floating point type.")
    if mode not in ("FAN_IN", "FAN_OUT", "FAN_AVG"):
        raise TypeError(f"Unknown mode {mode} [FAN_IN, FAN_OUT, FAN_AVG]")

    def _initializer(shape: Any, dtype: Any = dtype, partition_info: Any = None) -> Tensor:
        dtype = D.as_dtype(dtype)
        if not dtype.is_floating:
            raise TypeError("Cannot create initializer for non-floating point type.")
        dims = _dims(shape)
        if dims:
            fan_in = float(dims[-2]) if len(dims) > 1 else float(dims[-1])
            fan_out = float(dims[-1])
        else:
            fan_in = fan_out = 1.0
        for dim in dims[:-2]:
            fan_in *= float(dim)
            fan_out *= float(dim)
        n = fan_in if mode == "FAN_IN" else fan_out if mode == "FAN_OUT" else \
            (fan_in + fan_out) / 2.0
        if uniform:
            limit = math.sqrt(3.0 * factor / n)
            return random_ops.random_uniform(shape, -limit, limit, dtype, seed=seed)
        trunc_stddev = math.sqrt(1.3 * factor / n)
        return random_ops.truncated_normal(shape, 0.0, trunc_stddev, dtype, seed=seed)
    return _initializer


def xavier_initializer(uniform: bool = True, seed: Optional[int] = None,
                       dtype: Any = D.float32) -> Callable[..., Tensor]:
    """`tf.contrib.layers.xavier_initializer`: Glorot (FAN_AVG, factor 1)."""
    return contrib_variance_scaling_initializer(factor=1.0, mode="FAN_AVG", uniform=uniform,
                                                seed=seed, dtype=dtype)


xavier_initializer_conv2d = xavier_initializer
