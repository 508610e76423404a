"""Random ops with TF's seed rules: random_normal, random_uniform, truncated_normal,
random_shuffle, multinomial.

The kernels draw from a per-session stream of the op (`_random_stream.RandomStream`),
which reproduces TF's CPU kernels bit for bit: the same seeds give the same numbers as
TensorFlow, on any device (samples are drawn on the CPU and moved to the op's device).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value_as_shape
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.random_seed import get_seed
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, dimension_value
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._eigen_cost import intra_op_threads
from tf1compat.ops._random_stream import RandomStream
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.math_ops import FLOAT, add, multiply



def _stream(node: Any, kctx: Any) -> RandomStream:
    seed, seed2 = node.attrs["seed"], node.attrs["seed2"]
    return kctx.op_resource(lambda: RandomStream(seed, seed2))


def _to_device(value: torch.Tensor, device: torch.device) -> torch.Tensor:
    """Samples are drawn on the CPU (TF's CPU kernels define the numbers)."""
    return value.to(device) if device.type != "cpu" else value


def _output_dims(shape: Any) -> List[int]:
    # A fed shape must be a vector, as TF's MakeShape checks (a scalar count is refused).
    if len(tuple(shape.shape)) != 1:
        raise errors.InvalidArgumentError(
            None, None, "shape must be a vector of {int32,int64}, got shape "
                        f"{_shape_str(tuple(shape.shape))}")
    dims = as_int_list(shape)
    for d in dims:
        if d < 0:
            raise errors.InvalidArgumentError(None, None, f"Dimension {d} must be >= 0")
    return dims


def _sampler(method: str) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        stream = _stream(node, kctx)
        dtype = node.attrs["dtype"].torch_dtype
        device = kctx.device
        dims = static_ints(node, 0)
        sample = getattr(stream, method)

        def run(shape: Any) -> torch.Tensor:
            return _to_device(sample(dims if dims is not None else _output_dims(shape), dtype),
                              device)
        return run
    return factory


def _shape_from_input(ctx: Any) -> List[TensorShape]:
    rank = ctx.shape(0).rank
    if rank is not None and rank != 1:      # TF's MakeShapeFromShapeTensor: WithRank(1)
        raise ValueError(f"Shape must be rank 1 but is rank {rank} {node_desc(ctx)}")
    return [constant_value_as_shape(ctx.inputs[0])]


_SEED_ATTRS = {"seed": 0, "seed2": 0}
for _type, _method in (("RandomStandardNormal", "normal"), ("RandomUniform", "uniform"),
                       ("TruncatedNormal", "truncated_normal")):
    declare(_type, inputs=["shape: T"], outputs=["output: dtype"],
            attrs=dict(_SEED_ATTRS, dtype=Type(FLOAT), T=Type(D.INDEX_TYPES)),
            shape=_shape_from_input, kernel=_sampler(_method), grad="none", stateful=True)


def _scalar_bound(value: Any, what: str, wording: str = "must be 0-D") -> int:
    shape = tuple(value.shape)
    if shape != ():
        raise errors.InvalidArgumentError(None, None, f"{what} {wording}, got shape "
                                                      f"{_shape_str(shape)}")
    return int(value)


def _shape_str(shape: Any) -> str:
    return "[" + ",".join(str(d) for d in shape) + "]"


def _uniform_int_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    stream = _stream(node, kctx)
    dtype = node.attrs["Tout"].torch_dtype
    device = kctx.device

    def run(shape: Any, lo: Any, hi: Any) -> torch.Tensor:
        low, high = _scalar_bound(lo, "minval"), _scalar_bound(hi, "maxval")
        if low >= high:
            raise errors.InvalidArgumentError(None, None, f"Need minval < maxval, got {low} >= "
                                                          f"{high}")
        return _to_device(stream.uniform_int(_output_dims(shape), low, high, dtype), device)
    return run


declare("RandomUniformInt", inputs=["shape: T", "minval: Tout", "maxval: Tout"],
        outputs=["output: Tout"],
        attrs=dict(_SEED_ATTRS, Tout=Type(D.INDEX_TYPES), T=Type(D.INDEX_TYPES)),
        shape=_shape_from_input, kernel=_uniform_int_kernel, stateful=True,
        grad="unregistered")


def _shuffle_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    stream = _stream(node, kctx)

    def run(x: Any) -> Any:
        # TF passes the input through (drawing nothing) when there is nothing to permute.
        if len(x.shape) == 0 or x.shape[0] <= 1 or int(np.prod(x.shape)) <= 1:
            return x
        perm = stream.permutation(int(x.shape[0]))
        if isinstance(x, np.ndarray):
            return x[perm]
        return x[torch.from_numpy(perm).to(x.device)]
    return run


declare("RandomShuffle", inputs=["value: T"], outputs=["output: T"],
        attrs=dict(_SEED_ATTRS, T=Type()), shape=lambda ctx: [ctx.shape(0)],
        kernel=_shuffle_kernel, grad="none", stateful=True)


def _multinomial_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    stream = _stream(node, kctx)
    out_dtype = node.attrs["output_dtype"].torch_dtype
    device = kctx.device
    threads = intra_op_threads(kctx)

    def run(logits: torch.Tensor, num: Any) -> torch.Tensor:
        if logits.dim() != 2:
            raise errors.InvalidArgumentError(None, None, "logits should be a matrix, got shape "
                                                          f"{_shape_str(logits.shape)}")
        num_samples = _scalar_bound(num, "num_samples", "should be a scalar")
        if num_samples < 0:
            raise errors.InvalidArgumentError(None, None, "num_samples should be non-negative, "
                                                          f"got {num_samples}")
        if logits.shape[1] <= 0:
            raise errors.InvalidArgumentError(None, None, "num_classes should be positive, got "
                                                          f"{logits.shape[1]}")
        values = logits.detach().cpu()
        if values.dtype == torch.bfloat16:
            values = values.float()                     # exact; numpy has no bfloat16
        samples = stream.multinomial(values.numpy(), num_samples, threads)
        return _to_device(torch.from_numpy(samples).to(out_dtype), device)
    return run


def _multinomial_shape(ctx: Any) -> List[TensorShape]:
    num = ctx.const(1)
    s = ctx.shape(0)
    batch = s.as_list()[0] if s.rank == 2 else None
    return [TensorShape([batch, None if num is None else int(num)])]


declare("Multinomial", inputs=["logits: T", "num_samples: int32"], outputs=["output: output_dtype"],
        attrs=dict(_SEED_ATTRS, T=Type(FLOAT), output_dtype=Type(D.INDEX_TYPES, default=D.int64)),
        shape=_multinomial_shape, kernel=_multinomial_kernel, grad="none", stateful=True)


# -- wrappers -------------------------------------------------------------------------------

def shape_tensor(shape: Any) -> Tensor:
    """A shape argument as an int tensor (TF's tensor_util.shape_tensor)."""
    dtype = None
    if isinstance(shape, (tuple, list)):
        if not shape:
            dtype = D.int32
        else:
            shape = tuple(map(dimension_value, shape))
    return convert_to_tensor(shape, dtype=dtype, name="shape")


def _maybe_set_static_shape(tensor: Tensor, shape: Any) -> None:
    if not isinstance(shape, Tensor) and shape is not None:
        try:
            tensor.set_shape(TensorShape(shape) if not isinstance(shape, TensorShape) else shape)
        except (TypeError, ValueError):
            pass


def random_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = D.float32,
                  seed: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.random_normal`."""
    dtype = D.as_dtype(dtype)
    with name_scope(name, "random_normal", [shape, mean, stddev]) as scope:
        shape_t = shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = get_seed(seed)
        rnd = apply_op1("RandomStandardNormal", [shape_t],
                        {"dtype": dtype, "seed": seed1 or 0, "seed2": seed2 or 0})
        value = add(rnd * stddev_t, mean_t, name=scope)
        _maybe_set_static_shape(value, shape)
        return value


def truncated_normal(shape: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = D.float32,
                     seed: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.truncated_normal`: normal values within two standard deviations."""
    dtype = D.as_dtype(dtype)
    with name_scope(name, "truncated_normal", [shape, mean, stddev]) as scope:
        shape_t = shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        stddev_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = get_seed(seed)
        rnd = apply_op1("TruncatedNormal", [shape_t],
                        {"dtype": dtype, "seed": seed1 or 0, "seed2": seed2 or 0})
        value = add(rnd * stddev_t, mean_t, name=scope)
        _maybe_set_static_shape(value, shape)
        return value


_UNIFORM_DTYPES = (D.float16, D.bfloat16, D.float32, D.float64, D.int32, D.int64)


def random_uniform(shape: Any, minval: Any = 0, maxval: Any = None, dtype: Any = D.float32,
                   seed: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.random_uniform`: floats in [minval, maxval) (maxval 1 by default) or ints."""
    dtype = D.as_dtype(dtype)
    if dtype not in _UNIFORM_DTYPES:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{_UNIFORM_DTYPES}.")
    if maxval is None:
        if dtype.is_integer:
            raise ValueError(f"Must specify maxval for integer dtype {dtype!r}")
        maxval = 1
    with name_scope(name, "random_uniform", [shape, minval, maxval]) as scope:
        shape_t = shape_tensor(shape)
        minval_is_zero = isinstance(minval, int) and minval == 0
        maxval_is_one = isinstance(maxval, int) and maxval == 1
        if not minval_is_zero or not maxval_is_one or dtype.is_integer:
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
        seed1, seed2 = get_seed(seed)
        seeds = {"seed": seed1 or 0, "seed2": seed2 or 0}
        if dtype.is_integer:
            result = apply_op1("RandomUniformInt", [shape_t, minval, maxval], seeds, name=scope)
        else:
            result = apply_op1("RandomUniform", [shape_t], dict(seeds, dtype=dtype))
            if minval_is_zero:
                if not maxval_is_one:
                    result = multiply(result, maxval)
            else:
                result = add(result * (maxval - minval), minval, name=scope)
        _maybe_set_static_shape(result, shape)
        return result


def random_shuffle(value: Any, seed: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.random_shuffle`: permutes along the first dimension."""
    seed1, seed2 = get_seed(seed)
    return apply_op1("RandomShuffle", [value], {"seed": seed1 or 0, "seed2": seed2 or 0},
                     name=name)


def _categorical_impl(logits: Any, num_samples: Any, dtype: Any, seed: Optional[int]) -> Tensor:
    """TF's multinomial_categorical_impl: int32/int64 samples from a Multinomial op."""
    logits = convert_to_tensor(logits, name="logits")
    dtype = D.as_dtype(dtype) if dtype else D.int64
    accepted = (D.int32, D.int64)
    if dtype not in accepted:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{accepted}.")
    seed1, seed2 = get_seed(seed)
    return apply_op1("Multinomial", [logits, num_samples],
                     {"seed": seed1 or 0, "seed2": seed2 or 0, "output_dtype": dtype})


def multinomial(logits: Any, num_samples: Any, seed: Optional[int] = None,
                name: Optional[str] = None, output_dtype: Any = None) -> Tensor:
    """`tf.multinomial`: class indices drawn from each row of unnormalised log-probs."""
    with name_scope(name, "multinomial", [logits]):
        return _categorical_impl(logits, num_samples, output_dtype, seed)


def random_categorical(logits: Any, num_samples: Any, dtype: Any = None,
                       seed: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.random.categorical`: `multinomial` under the name scope "categorical"."""
    with name_scope(name, "categorical", [logits]):
        return _categorical_impl(logits, num_samples, dtype, seed)
