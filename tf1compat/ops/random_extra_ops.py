"""Gamma and Poisson sampling (RandomGamma, RandomPoissonV2) and the stateless random
ops (StatelessRandom*V2 over a key/counter from StatelessRandomGetKeyCounter, and the
seed-input forms): `tf.random_gamma`, `tf.random_poisson`, `tf.random.stateless_*`.

All samplers reproduce TF's CPU kernels bit for bit: the same Philox4x32-10 streams
(`_philox.py`) and transforms as `_random_stream.py` (uniform, normal, truncated normal,
integers, multinomial) and `_random_gamma_poisson.py`. Stateless ops derive their
generator from the seed as TF does: key (0x3ec8f720, 0x02461e29) and counter = seed
scrambled by one Philox block, then key = block words 0-1, counter = words 2-3 << 64.
Only the Philox algorithm is implemented on CPU (TF's CPU kernels accept no other).
"""

from __future__ import annotations

import enum
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value_as_shape
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.random_seed import get_seed
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _philox as philox
from tf1compat.ops import _random_gamma_poisson as samplers
from tf1compat.ops._eigen_cost import intra_op_threads
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._random_stream import RandomStream
from tf1compat.ops._special_kernels import igamma_grad_a
from tf1compat.ops.random_ops import _output_dims, _stream, _to_device, shape_tensor

__all__ = ["random_gamma", "random_poisson", "stateless_random_uniform",
           "stateless_random_normal", "stateless_truncated_normal", "stateless_categorical",
           "stateless_multinomial", "stateless_random_gamma", "stateless_random_poisson",
           "Algorithm", "fold_in", "split"]

INDEX = (D.int32, D.int64)
HALF_FLOAT = (D.float16, D.float32, D.float64)
_SEED_ATTRS = {"seed": 0, "seed2": 0}
PHILOX, THREEFRY, AUTO_SELECT = 1, 2, 3


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


# -- RandomGamma ----------------------------------------------------------------------------

def _gamma_grad(alpha: torch.Tensor, sample: torch.Tensor) -> torch.Tensor:
    """d sample / d alpha at a fixed quantile (TF's RandomGammaGrad): -dP/da / density."""
    a, x = alpha.double(), sample.double()
    log_density = (a - 1.0) * torch.log(x) - x - torch.lgamma(a)
    return (-igamma_grad_a(a, x) / torch.exp(log_density)).to(sample.dtype)


class _GammaSample(torch.autograd.Function):
    """Samples drawn outside autograd, differentiable in alpha as TF's gradient."""

    @staticmethod
    def forward(ctx, alpha, samples):  # type: ignore[override]
        ctx.save_for_backward(alpha, samples)
        return samples

    @staticmethod
    def backward(ctx, grad):  # type: ignore[override]
        alpha, samples = ctx.saved_tensors
        partial = _gamma_grad(alpha.expand_as(samples), samples)
        sample_dims = tuple(range(samples.dim() - alpha.dim()))
        return (grad * partial).sum(dim=sample_dims) if sample_dims else grad * partial, None


def _draw_gamma(key: int, start: int, dims: List[int], alpha: torch.Tensor) -> torch.Tensor:
    num_samples = int(np.prod(dims, dtype=np.int64))
    values = alpha.detach().cpu().double().numpy().reshape(-1)
    drawn = samplers.gamma(key, start, values, num_samples)
    out = torch.from_numpy(drawn).to(alpha.dtype).reshape(tuple(dims) + tuple(alpha.shape))
    out = out.to(alpha.device)
    return _GammaSample.apply(alpha, out) if alpha.requires_grad else out


def _gamma_shape(ctx: Any) -> List[TensorShape]:
    return [constant_value_as_shape(ctx.inputs[0]).concatenate(ctx.shape(1))]


def _random_gamma_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    stream = _stream(node, kctx)

    def random_gamma(shape: Any, alpha: torch.Tensor) -> torch.Tensor:
        dims = _output_dims(shape)
        n = int(np.prod(dims, dtype=np.int64)) * alpha.numel()
        start = stream.reserve(n * samplers.OUTPUT_STRIDE)
        return _draw_gamma(stream.key, start, dims, alpha)
    return random_gamma


declare("RandomGamma", inputs=["shape: S", "alpha: T"], outputs=["output: T"],
        attrs=dict(_SEED_ATTRS, S=Type(INDEX), T=Type(HALF_FLOAT)),
        shape=_gamma_shape, kernel=_random_gamma_kernel, stateful=True)
declare("RandomGammaGrad", inputs=["alpha: T", "sample: T"], outputs=["output: T"],
        attrs={"T": Type((D.float32, D.float64))},
        shape=lambda ctx: [ctx.shape(0).merge_with(ctx.shape(1))
                           if ctx.shape(0).is_compatible_with(ctx.shape(1)) else ctx.shape(1)],
        kernel=lambda node, kctx: (lambda a, x: _gamma_grad(*torch.broadcast_tensors(a, x))),
        grad="unregistered")


def random_gamma(shape: Any, alpha: Any, beta: Any = None, dtype: Any = D.float32,
                 seed: Optional[int] = None, name: Optional[str] = None) -> Tensor:
    """`tf.random_gamma` / `tf.random.gamma`: `shape` samples from each Gamma(alpha, beta)
    (TF's Marsaglia-Tsang sampler, bit-exact), floored at the dtype's smallest normal;
    differentiable in alpha and beta."""
    from tf1compat.ops.array_ops import shape as shape_of
    from tf1compat.ops.math_ops import maximum
    from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_to
    dtype = D.as_dtype(dtype)
    with name_scope(name, "random_gamma", [shape, alpha, beta]):
        shape = convert_to_tensor(shape, name="shape", dtype=D.int32)
        alpha = convert_to_tensor(alpha, name="alpha", dtype=dtype)
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        broadcast_shape = broadcast_dynamic_shape(shape_of(alpha), shape_of(beta))
        alpha_broadcast = broadcast_to(alpha, broadcast_shape)
        seed1, seed2 = get_seed(seed)
        sample = apply_op1("RandomGamma", [shape, alpha_broadcast],
                           {"seed": seed1 or 0, "seed2": seed2 or 0})
        return maximum(np.finfo(dtype.as_numpy_dtype).tiny, sample / beta)


# -- RandomPoissonV2 ------------------------------------------------------------------------

_POISSON_TYPES = (D.float16, D.float32, D.float64, D.int32, D.int64)


def _draw_poisson(key: int, start: int, dims: List[int], rate: torch.Tensor,
                  out_dtype: D.DType) -> torch.Tensor:
    num_samples = int(np.prod(dims, dtype=np.int64))
    values = rate.detach().cpu().double().numpy().reshape(-1)
    highest = float(np.finfo(out_dtype.as_numpy_dtype).max if out_dtype.is_floating
                    else np.iinfo(out_dtype.as_numpy_dtype).max)
    drawn = samplers.poisson(key, start, values, num_samples, highest)
    if out_dtype.is_integer:
        drawn = np.where(np.isinf(drawn), highest, drawn)
    out = torch.from_numpy(drawn).to(out_dtype.torch_dtype)
    return out.reshape(tuple(dims) + tuple(rate.shape)).to(rate.device)


def _random_poisson_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    stream = _stream(node, kctx)
    out_dtype = node.attrs["dtype"]

    def random_poisson(shape: Any, rate: torch.Tensor) -> torch.Tensor:
        dims = _output_dims(shape)
        n = int(np.prod(dims, dtype=np.int64)) * rate.numel()
        start = stream.reserve(n * samplers.OUTPUT_STRIDE)
        return _draw_poisson(stream.key, start, dims, rate, out_dtype)
    return random_poisson


declare("RandomPoissonV2", inputs=["shape: S", "rate: R"], outputs=["output: dtype"],
        attrs=dict(_SEED_ATTRS, S=Type(INDEX), R=Type(_POISSON_TYPES, default=D.float64),
                   dtype=Type(_POISSON_TYPES, default=D.int64)),
        shape=_gamma_shape, kernel=_random_poisson_kernel, grad="unregistered", stateful=True)


def random_poisson(lam: Any, shape: Any, dtype: Any = D.float32, seed: Optional[int] = None,
                   name: Optional[str] = None) -> Tensor:
    """`tf.random_poisson` / `tf.random.poisson` (TF1 argument order: `lam`, `shape`):
    `shape` samples from each Poisson(lam), TF's samplers bit-exact."""
    with name_scope(name, "random_poisson", [lam, shape]):
        shape = convert_to_tensor(shape, name="shape", dtype=D.int32)
        seed1, seed2 = get_seed(seed)
        return apply_op1("RandomPoissonV2", [shape, lam],
                         {"seed": seed1 or 0, "seed2": seed2 or 0, "dtype": D.as_dtype(dtype)})


# -- stateless: key and counter ----------------------------------------------------------------

_SCRAMBLE_KEY = 0x02461E293EC8F720


def _seed_words(seed: Any) -> Tuple[int, int]:
    values = as_int_list(seed)
    if len(values) != 2:
        raise _invalid(f"seed must have shape [2], not [{len(values)}]")
    return values[0] & philox.MASK64, values[1] & philox.MASK64


def key_counter_of(seed: Any) -> Tuple[int, int]:
    """(key, 128-bit counter) of the stateless generator for a [2] seed (TF's GenerateKey)."""
    s0, s1 = _seed_words(seed)
    mix = philox.blocks(_SCRAMBLE_KEY, s0 | (s1 << 64), 1)[0].astype(np.uint64)
    key = int(mix[0]) | (int(mix[1]) << 32)
    counter = (int(mix[2]) | (int(mix[3]) << 32)) << 64
    return key, counter


def _stream_at(key: int, counter: int) -> RandomStream:
    stream = RandomStream(1, 1)              # any non-zero seeds: replaced below
    stream.key, stream.counter = key & philox.MASK64, counter & philox.MASK128
    return stream


def _key_counter_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    with_alg = node.type == "StatelessRandomGetKeyCounterAlg"

    def get_key_counter(seed: Any) -> Any:
        key, counter = key_counter_of(seed)
        key_t = torch.tensor([key], dtype=torch.uint64)
        counter_t = torch.tensor([counter & philox.MASK64, counter >> 64], dtype=torch.uint64)
        if with_alg:
            return key_t, counter_t, torch.tensor(PHILOX, dtype=torch.int32)
        return key_t, counter_t
    return get_key_counter


declare("StatelessRandomGetKeyCounter", inputs=["seed: Tseed"],
        outputs=["key: uint64", "counter: uint64"],
        attrs={"Tseed": Type(INDEX, default=D.int64)},
        shape=lambda ctx: [TensorShape([1]), TensorShape([2])],
        kernel=_key_counter_kernel, grad="unregistered", cpu_only=True)
declare("StatelessRandomGetKeyCounterAlg", inputs=["seed: Tseed"],
        outputs=["key: uint64", "counter: uint64", "alg: int32"],
        attrs={"Tseed": Type(INDEX, default=D.int64)},
        shape=lambda ctx: [TensorShape([1]), TensorShape([2]), TensorShape([])],
        kernel=_key_counter_kernel, grad="unregistered", cpu_only=True)
declare("StatelessRandomGetAlg", outputs=["alg: int32"], shape=lambda ctx: [TensorShape([])],
        kernel=lambda node, kctx: (lambda: torch.tensor(PHILOX, dtype=torch.int32)),
        grad="unregistered", stateful=True, cpu_only=True)


def _v2_stream(key: Any, counter: Any, alg: Any) -> RandomStream:
    algorithm = int(alg)
    if algorithm not in (PHILOX, AUTO_SELECT):
        raise _invalid(f"Unsupported algorithm id: {algorithm}")
    keys = as_int_list(key)
    counters = as_int_list(counter)
    if len(keys) != 1:
        raise _invalid(f"key must have shape [1], not [{len(keys)}]. (Note that batched "
                       "keys are not supported yet.)")
    if len(counters) < 2:
        raise _invalid(f"For the Philox algorithm, the size of state must be at least 2; "
                       f"got {len(counters)}")
    return _stream_at(keys[0], (counters[0] & philox.MASK64) |
                      ((counters[1] & philox.MASK64) << 64))


def _shape_of_first(ctx: Any) -> List[TensorShape]:
    return [constant_value_as_shape(ctx.inputs[0])]


def _seeded_shape(ctx: Any) -> List[TensorShape]:
    """The V1 stateless ops: TF's shape function checks the seed is a [2] vector."""
    seed = ctx.shape(1)
    if seed.rank is not None and seed.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {seed.rank} {node_desc(ctx)}")
    if seed.rank == 1 and seed.as_list()[0] not in (None, 2):
        raise ValueError(f"Dimension must be 2 but is {seed.as_list()[0]} {node_desc(ctx)}")
    return _shape_of_first(ctx)


def _full_int(stream: RandomStream, dims: List[int], dtype: D.DType) -> torch.Tensor:
    """UniformFullInt: raw 32-bit words, or pairs (low word first) for 64-bit types."""
    n = int(np.prod(dims, dtype=np.int64))
    if dtype.size == 8:
        w = philox.words(stream.key, stream.counter, 2 * n)
        bits = w[0::2].astype(np.uint64) | (w[1::2].astype(np.uint64) << np.uint64(32))
        out = bits.view(np.int64) if dtype == D.int64 else bits
    else:
        w = philox.words(stream.key, stream.counter, n)
        out = w.view(np.int32) if dtype == D.int32 else w
    return torch.from_numpy(np.ascontiguousarray(out)).reshape(tuple(dims))


def _uniform_int(stream: RandomStream, dims: List[int], lo: Any, hi: Any, dtype: D.DType
                 ) -> torch.Tensor:
    low, high = int(lo), int(hi)
    if tuple(lo.shape) != () or tuple(hi.shape) != ():
        raise _invalid("minval and maxval must be 0-D")
    if low >= high:
        raise _invalid(f"Need minval < maxval, got {low} >= {high}")
    return stream.uniform_int(dims, low, high, dtype.torch_dtype)


_SAMPLERS = {
    "uniform": lambda s, dims, dtype: s.uniform(dims, dtype.torch_dtype),
    "normal": lambda s, dims, dtype: s.normal(dims, dtype.torch_dtype),
    "truncated_normal": lambda s, dims, dtype: s.truncated_normal(dims, dtype.torch_dtype),
    "full_int": _full_int,
}


def _v2_kernel(method: str) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        dtype, device = node.attrs["dtype"], kctx.device
        static = static_ints(node, 0)

        def run(shape: Any, key: Any, counter: Any, alg: Any, *bounds: Any) -> torch.Tensor:
            dims = static if static is not None else _output_dims(shape)
            stream = _v2_stream(key, counter, alg)
            if method == "int":
                return _to_device(_uniform_int(stream, dims, *bounds, dtype), device)
            return _to_device(_SAMPLERS[method](stream, dims, dtype), device)
        return run
    return factory


def _v1_kernel(method: str) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        dtype, device = node.attrs["dtype"], kctx.device

        def run(shape: Any, seed: Any, *bounds: Any) -> torch.Tensor:
            stream = _stream_at(*key_counter_of(seed))
            dims = _output_dims(shape)
            if method == "int":
                return _to_device(_uniform_int(stream, dims, *bounds, dtype), device)
            return _to_device(_SAMPLERS[method](stream, dims, dtype), device)
        return run
    return factory


_FLOATS = (D.float16, D.bfloat16, D.float32, D.float64)
_FULL_INTS = (D.int32, D.int64, D.uint32, D.uint64)
_V2_INPUTS = ["shape: Tshape", "key: uint64", "counter: uint64", "alg: int32"]
for _type, _method, _types, _default in (
        ("StatelessRandomUniformV2", "uniform", _FLOATS, D.float32),
        ("StatelessRandomNormalV2", "normal", _FLOATS, D.float32),
        ("StatelessTruncatedNormalV2", "truncated_normal", _FLOATS, D.float32),
        ("StatelessRandomUniformFullIntV2", "full_int", _FULL_INTS, D.uint64)):
    declare(_type, inputs=_V2_INPUTS, outputs=["output: dtype"],
            attrs={"dtype": Type(_types, default=_default),
                   "Tshape": Type(INDEX, default=D.int32)},
            shape=_shape_of_first, kernel=_v2_kernel(_method), grad="none", cpu_only=True)
declare("StatelessRandomUniformIntV2", inputs=_V2_INPUTS + ["minval: dtype", "maxval: dtype"],
        outputs=["output: dtype"],
        attrs={"dtype": Type(_FULL_INTS), "Tshape": Type(INDEX, default=D.int32)},
        shape=_shape_of_first, kernel=_v2_kernel("int"), grad="none", cpu_only=True)

for _type, _method, _types, _default in (
        ("StatelessRandomUniform", "uniform", _FLOATS, D.float32),
        ("StatelessRandomNormal", "normal", _FLOATS, D.float32),
        ("StatelessTruncatedNormal", "truncated_normal", _FLOATS, D.float32),
        ("StatelessRandomUniformFullInt", "full_int", _FULL_INTS, D.uint64)):
    declare(_type, inputs=["shape: T", "seed: Tseed"], outputs=["output: dtype"],
            attrs={"dtype": Type(_types, default=_default), "T": Type(INDEX, default=D.int32),
                   "Tseed": Type(INDEX + (D.uint32, D.uint64) if _method == "full_int"
                                 else INDEX, default=D.int64)},
            shape=_seeded_shape, kernel=_v1_kernel(_method), grad="none", cpu_only=True)
declare("StatelessRandomUniformInt", inputs=["shape: T", "seed: Tseed", "minval: dtype",
                                             "maxval: dtype"],
        outputs=["output: dtype"],
        attrs={"dtype": Type(INDEX), "T": Type(INDEX), "Tseed": Type(INDEX, default=D.int64)},
        shape=_shape_of_first, kernel=_v1_kernel("int"), grad="none", cpu_only=True)


# -- stateless multinomial, gamma, Poisson -------------------------------------------------------

def _stateless_multinomial_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_dtype = node.attrs["output_dtype"].torch_dtype
    threads = intra_op_threads(kctx)

    def stateless_multinomial(logits: torch.Tensor, num: Any, seed: Any) -> torch.Tensor:
        if logits.dim() != 2:
            raise _invalid("logits should be a matrix, got shape "
                           f"[{','.join(str(d) for d in logits.shape)}]")
        num_samples = int(num)
        if num_samples < 0:
            raise _invalid(f"num_samples should be non-negative, got {num_samples}")
        stream = _stream_at(*key_counter_of(seed))
        values = logits.detach().cpu()
        if values.dtype in (torch.bfloat16, torch.float16) or not values.is_floating_point():
            values = values.float()
        samples = stream.multinomial(values.numpy(), num_samples, threads)
        return _to_device(torch.from_numpy(samples).to(out_dtype), kctx.device)
    return stateless_multinomial


def _multinomial_shape(ctx: Any) -> List[TensorShape]:
    num = ctx.const(1)
    s = ctx.shape(0)
    batch = s.as_list()[0] if s.rank == 2 else None
    return [TensorShape([batch, None if num is None else int(num)])]


declare("StatelessMultinomial", inputs=["logits: T", "num_samples: int32", "seed: Tseed"],
        outputs=["output: output_dtype"],
        attrs={"T": Type(), "Tseed": Type(INDEX, default=D.int64),
               "output_dtype": Type(INDEX, default=D.int64)},
        shape=_multinomial_shape, kernel=_stateless_multinomial_kernel, grad="none")


def _stateless_gamma_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    v3 = node.type == "StatelessRandomGammaV3"

    def stateless_gamma(shape: Any, *args: Any) -> torch.Tensor:
        if v3:
            key, counter, alg, alpha = args
            stream = _v2_stream(key, counter, alg)
        else:
            seed, alpha = args
            stream = _stream_at(*key_counter_of(seed))
        dims = _output_dims(shape)
        sample_dims = _sample_dims(dims, list(alpha.shape), "alpha")
        return _draw_gamma(stream.key, stream.counter, sample_dims, alpha)
    return stateless_gamma


def _sample_dims(dims: List[int], param_dims: List[int], what: str) -> List[int]:
    """The leading sample dims of an output shape that ends with the parameter's shape."""
    k = len(param_dims)
    if k > len(dims) or (k and dims[-k:] != param_dims):
        raise _invalid(f"Shape passed in must end with broadcasted shape. shape: "
                       f"[{','.join(map(str, dims))}], {what} shape: "
                       f"[{','.join(map(str, param_dims))}]")
    return dims[:len(dims) - k]


declare("StatelessRandomGammaV3", inputs=["shape: shape_dtype", "key: uint64",
                                          "counter: uint64", "alg: int32", "alpha: dtype"],
        outputs=["output: dtype"],
        attrs={"dtype": Type(HALF_FLOAT), "shape_dtype": Type(INDEX, default=D.int32)},
        shape=_shape_of_first, kernel=_stateless_gamma_kernel, cpu_only=True)
declare("StatelessRandomGammaV2", inputs=["shape: T", "seed: Tseed", "alpha: dtype"],
        outputs=["output: dtype"],
        attrs={"dtype": Type(HALF_FLOAT), "T": Type(INDEX), "Tseed": Type(INDEX, default=D.int64)},
        shape=_shape_of_first, kernel=_stateless_gamma_kernel, cpu_only=True)


def _stateless_poisson_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_dtype = node.attrs["dtype"]

    def stateless_poisson(shape: Any, seed: Any, lam: torch.Tensor) -> torch.Tensor:
        key, counter = key_counter_of(seed)
        dims = _output_dims(shape)
        sample_dims = _sample_dims(dims, list(lam.shape), "lam")
        return _draw_poisson(key, counter, sample_dims, lam, out_dtype)
    return stateless_poisson


declare("StatelessRandomPoisson", inputs=["shape: T", "seed: Tseed", "lam: Rtype"],
        outputs=["output: dtype"],
        attrs={"Rtype": Type(_POISSON_TYPES), "dtype": Type(_POISSON_TYPES), "T": Type(INDEX),
               "Tseed": Type(INDEX, default=D.int64)},
        shape=_shape_of_first, kernel=_stateless_poisson_kernel, grad="none", cpu_only=True)


# -- stateless wrappers ------------------------------------------------------------------------

class Algorithm(enum.Enum):
    """`tf.random.Algorithm`: the RNG algorithms and their ids."""
    PHILOX = PHILOX
    THREEFRY = THREEFRY
    AUTO_SELECT = AUTO_SELECT


def _alg_id(alg: Any) -> int:
    if alg is None:
        return AUTO_SELECT
    if isinstance(alg, int):
        return alg
    if isinstance(alg, str):
        canon = alg.strip().lower().replace("-", "").replace("_", "")
        ids = {"philox": PHILOX, "threefry": THREEFRY, "autoselect": AUTO_SELECT}
        if canon not in ids:
            raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values "
                             "are philox for the Philox algorithm, threefry for the ThreeFry "
                             "algorithm, and auto_select for auto-selection.")
        return ids[canon]
    return int(getattr(alg, "value", alg))


def _key_counter_alg(seed: Any, alg: Any) -> Tuple[Tensor, Tensor, Any]:
    """TF's get_key_counter_alg for the Philox/auto-select algorithms."""
    alg = _alg_id(alg)
    if alg not in (PHILOX, AUTO_SELECT):
        raise NotImplementedError("tf1compat's stateless random ops implement the Philox "
                                  f"algorithm only (TF's CPU kernels), not algorithm {alg}")
    op = apply_op("StatelessRandomGetKeyCounter", [seed])
    return op.outputs[0], op.outputs[1], alg


def _set_static_shape(result: Tensor, shape: Tensor) -> None:
    result.set_shape(result.shape.merge_with(constant_value_as_shape(shape))
                     if result.shape.is_compatible_with(constant_value_as_shape(shape))
                     else result.shape)


def stateless_random_uniform(shape: Any, seed: Any, minval: Any = 0, maxval: Any = None,
                             dtype: Any = D.float32, name: Optional[str] = None,
                             alg: Any = "auto_select") -> Tensor:
    """`tf.random.stateless_uniform`: uniform values determined by `seed` alone."""
    dtype = D.as_dtype(dtype)
    accepted = (D.float16, D.bfloat16, D.float32, D.float64, D.int32, D.int64, D.uint32,
                D.uint64)
    if dtype not in accepted:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{accepted}.")
    if dtype.is_integer:
        if (minval is None) != (maxval is None):
            raise ValueError(f"For integer `dtype` argument {dtype}, argument `minval` and "
                             "`maxval` must be both None or not None. Got `minval`="
                             f"{minval} and `maxval`={maxval}.")
        if minval is not None and dtype in (D.uint32, D.uint64):
            raise ValueError(f"Argument `dtype` got invalid value {dtype} when argument "
                             "`minval` is not None. Please don't use unsigned integers in "
                             "this case.")
    elif maxval is None:
        maxval = 1
    with name_scope(name, "stateless_random_uniform", [shape, seed, minval, maxval]) as scope:
        shape = shape_tensor(shape)
        if dtype.is_integer and minval is None:
            key, counter, alg = _key_counter_alg(seed, alg)
            result = apply_op1("StatelessRandomUniformFullIntV2", [shape, key, counter, alg],
                               {"dtype": dtype}, name=scope)
        else:
            minval = convert_to_tensor(minval, dtype=dtype, name="min")
            maxval = convert_to_tensor(maxval, dtype=dtype, name="max")
            key, counter, alg = _key_counter_alg(seed, alg)
            if dtype.is_integer:
                result = apply_op1("StatelessRandomUniformIntV2",
                                   [shape, key, counter, alg, minval, maxval], name=scope)
            else:
                rnd = apply_op1("StatelessRandomUniformV2", [shape, key, counter, alg],
                                {"dtype": dtype})
                from tf1compat.ops.math_ops import add
                result = add(rnd * (maxval - minval), minval, name=scope)
        _set_static_shape(result, shape)
        return result


def _scaled_stateless(op_type: str, default_name: str) -> Callable[..., Tensor]:
    def fn(shape: Any, seed: Any, mean: Any = 0.0, stddev: Any = 1.0, dtype: Any = D.float32,
           name: Optional[str] = None, alg: Any = "auto_select") -> Tensor:
        from tf1compat.ops.math_ops import add
        dtype = D.as_dtype(dtype)
        with name_scope(name, default_name, [shape, seed, mean, stddev]) as scope:
            shape = shape_tensor(shape)
            mean = convert_to_tensor(mean, dtype=dtype, name="mean")
            stddev = convert_to_tensor(stddev, dtype=dtype, name="stddev")
            key, counter, alg = _key_counter_alg(seed, alg)
            rnd = apply_op1(op_type, [shape, key, counter, alg], {"dtype": dtype})
            result = add(rnd * stddev, mean, name=scope)
            _set_static_shape(result, shape)
            return result
    fn.__name__ = default_name
    fn.__doc__ = f"`tf.random.{default_name}` ({op_type}, determined by `seed` alone)."
    return fn


stateless_random_normal = _scaled_stateless("StatelessRandomNormalV2", "stateless_random_normal")
stateless_truncated_normal = _scaled_stateless("StatelessTruncatedNormalV2",
                                               "stateless_truncated_normal")


def _stateless_multinomial_impl(logits: Any, num_samples: Any, dtype: Any, seed: Any) -> Tensor:
    logits = convert_to_tensor(logits, name="logits")
    dtype = D.as_dtype(dtype) if dtype else D.int64
    if dtype not in INDEX:
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"{INDEX}.")
    return apply_op1("StatelessMultinomial", [logits, num_samples, seed],
                     {"output_dtype": dtype})


def stateless_categorical(logits: Any, num_samples: Any, seed: Any, dtype: Any = D.int64,
                          name: Optional[str] = None) -> Tensor:
    """`tf.random.stateless_categorical`: class samples from each row of logits."""
    with name_scope(name, "stateless_categorical", [logits, seed]):
        return _stateless_multinomial_impl(logits, num_samples, dtype, seed)


def stateless_multinomial(logits: Any, num_samples: Any, seed: Any,
                          output_dtype: Any = D.int64, name: Optional[str] = None) -> Tensor:
    """`tf.random.stateless_multinomial` (TF1 name of stateless_categorical)."""
    with name_scope(name, "stateless_multinomial", [logits, seed]):
        return _stateless_multinomial_impl(logits, num_samples, output_dtype, seed)


def stateless_random_gamma(shape: Any, seed: Any, alpha: Any, beta: Any = None,
                           dtype: Any = D.float32, name: Optional[str] = None) -> Tensor:
    """`tf.random.stateless_gamma`: Gamma(alpha, beta) samples determined by `seed`;
    `shape` must end with the broadcast shape of alpha and beta."""
    from tf1compat.ops.array_ops import shape as shape_of
    from tf1compat.ops.math_ops import maximum
    from tf1compat.ops.transform_ops import broadcast_dynamic_shape, broadcast_to
    dtype = D.as_dtype(dtype)
    with name_scope(name, "stateless_random_gamma", [shape, seed, alpha, beta]):
        shape = shape_tensor(shape)
        alpha = convert_to_tensor(alpha, dtype=dtype, name="alpha")
        beta = convert_to_tensor(beta if beta is not None else 1, name="beta", dtype=dtype)
        broadcast_shape = broadcast_dynamic_shape(shape_of(alpha), shape_of(beta))
        alpha_broadcast = broadcast_to(alpha, broadcast_shape)
        key, counter, alg = _key_counter_alg(seed, "auto_select")
        sample = apply_op1("StatelessRandomGammaV3",
                           [shape, key, counter, alg, alpha_broadcast])
        result = maximum(np.finfo(dtype.as_numpy_dtype).tiny, sample / beta)
        _set_static_shape(result, shape)
        return result


def stateless_random_poisson(shape: Any, seed: Any, lam: Any, dtype: Any = D.int32,
                             name: Optional[str] = None) -> Tensor:
    """`tf.random.stateless_poisson`: Poisson(lam) samples determined by `seed`."""
    with name_scope(name, "stateless_random_poisson", [shape, seed, lam]):
        shape = shape_tensor(shape)
        result = apply_op1("StatelessRandomPoisson", [shape, seed, lam],
                           {"dtype": D.as_dtype(dtype)})
        _set_static_shape(result, shape)
        return result



def fold_in(seed: Any, data: Any, alg: Any = "auto_select") -> Tensor:
    """`tf.random.fold_in`: a new [2] seed from `seed` and an integer `data`."""
    from tf1compat.ops.array_ops import stack
    data = convert_to_tensor(data)
    first = stateless_random_uniform(shape=[], seed=seed, dtype=data.dtype, minval=None,
                                     maxval=None, alg=alg)
    return stack([first, data])


def split(seed: Any, num: int = 2, alg: Any = "auto_select") -> Tensor:
    """`tf.random.split`: `num` new [2] seeds from `seed`, as a [num, 2] tensor."""
    seed = convert_to_tensor(seed)
    return stateless_random_uniform(shape=[num, 2], seed=seed, dtype=seed.dtype, minval=None,
                                    maxval=None, alg=alg)
