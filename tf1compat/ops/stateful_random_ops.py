"""The state-variable side of TF2's random API and the remaining stateless samplers:
RngReadAndSkip (what `tf.random.Generator` draws through), NonDeterministicInts,
StatefulRandomBinomial / StatelessRandomBinomial (TF's inversion and BTRS samplers),
StatelessShuffle, RandomIndexShuffle (TF's Simon-cipher permutation),
StatelessParameterizedTruncatedNormal (TF's distribution, not its numbers: see the
function), and `tf.random.create_rng_state`.

A generator state is an int64 vector [counter_lo, counter_hi, key] (Philox) read and
advanced in place in its resource variable: each drawn element reserves 256 Philox
blocks, as TF's kernels do. The binomial samplers run per element in Python with glibc's
libm (Python's `math` on Linux), so seeded samples equal TF's.
"""

from __future__ import annotations

import math
import secrets
import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import _philox as philox
from tf1compat.ops._kernels import as_int_list
from tf1compat.ops._random_stream import _unit_double
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.array_ops import concat, reshape, shape
from tf1compat.ops.creation_ops import zeros
from tf1compat.ops.math_ops import cast, maximum
from tf1compat.ops.random_extra_ops import (AUTO_SELECT, PHILOX, THREEFRY, _alg_id,
                                            _key_counter_alg, _set_static_shape, _v2_stream,
                                            key_counter_of)
from tf1compat.ops.random_ops import _output_dims, shape_tensor
from tf1compat.ops.resource_variable_ops import _lookup
from tf1compat.ops.transform_ops import pad

__all__ = ["create_rng_state", "rng_read_and_skip", "non_deterministic_ints",
           "stateful_random_binomial", "stateless_random_binomial", "stateless_shuffle",
           "index_shuffle", "random_index_shuffle", "state_size", "counter_size",
           "stateless_parameterized_truncated_normal"]

# Philox blocks TF reserves per element drawn from a generator (RngReadAndSkip).
_BLOCKS_PER_ELEMENT = 256


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def state_size(alg: int) -> int:
    """Length of a generator state: Philox 3 (2 counter words, key), ThreeFry 2."""
    if alg in (PHILOX, AUTO_SELECT):
        return 3
    if alg == THREEFRY:
        return 2
    raise ValueError(f"Argument `alg` got unsupported value {alg}. Supported values are "
                     f"{PHILOX} for the Philox algorithm, {THREEFRY} for the ThreeFry "
                     f"algorithm, and {AUTO_SELECT} for auto-selection.")


def counter_size(alg: int) -> int:
    return state_size(alg) - 1


def _to_int64(value: int) -> int:
    value &= philox.MASK64
    return value - (1 << 64) if value >= 1 << 63 else value


def create_rng_state(seed: Any, alg: Any) -> Tensor:
    """`tf.random.create_rng_state`: a generator state from an integer seed (cut into
    64-bit words, lowest first) or a seed vector (left-padded with zeros)."""
    alg = _alg_id(alg)
    size = state_size(alg)
    if isinstance(seed, int) and not isinstance(seed, bool):
        words = []
        for _ in range(size):
            words.append(_to_int64(seed))
            seed >>= 64
        seed = words
    elif isinstance(seed, (list, tuple)):
        seed = [_to_int64(s) if isinstance(s, int) else s for s in seed]
    values = reshape(cast(seed, D.int64), [-1])[0:size]
    known = values.shape.as_list()[0]
    count = known if known is not None else shape(values)[0]
    padding = zeros([maximum(size - count, 0)], D.int64)
    state = concat([padding, values], axis=0)
    state.set_shape([size])
    return state


# -- NonDeterministicInts ---------------------------------------------------------------------

def _non_deterministic_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dtype"]

    def non_deterministic_ints(shape: Any) -> torch.Tensor:
        dims = _output_dims(shape)
        count = int(np.prod(dims, dtype=np.int64))
        words = [secrets.randbits(64) for _ in range(count)]
        if dtype == D.int64:
            words = [_to_int64(w) for w in words]
        return torch.tensor(words, dtype=dtype.torch_dtype).reshape(dims)
    return non_deterministic_ints


declare("NonDeterministicInts", inputs=["shape: shape_dtype"], outputs=["output: dtype"],
        attrs={"dtype": Type(default=D.int64), "shape_dtype": Type(default=D.int64)},
        shape=lambda ctx: [unknown_shape() if ctx.const_shape(0).rank is None
                           else ctx.const_shape(0)],
        kernel=_non_deterministic_kernel, stateful=True, grad="unregistered",
        cpu_only=True)


def non_deterministic_ints(shape: Any, dtype: Any = D.int64) -> Tensor:
    return apply_op1("NonDeterministicInts", [shape_tensor(shape)],
                     {"dtype": D.as_dtype(dtype)})


# -- RngReadAndSkip ---------------------------------------------------------------------------

def _state_words(state: torch.Tensor) -> List[int]:
    return [int(v) & philox.MASK64 for v in state.reshape(-1).tolist()]


def _check_state(state: Any, alg: int) -> List[int]:
    if not isinstance(state, torch.Tensor) or state.dtype != torch.int64:
        raise _invalid("dtype of RNG state variable must be int64")
    if state.dim() != 1:
        raise _invalid(f"RNG state must have one and only one dimension, not {state.dim()}")
    if alg not in (PHILOX, AUTO_SELECT):
        raise _invalid(f"Unsupported algorithm id: {alg}")
    words = _state_words(state)
    if len(words) < 3:
        raise _invalid(f"For Philox algorithm, the size of state must be at least 3; got "
                       f"{len(words)}")
    return words


def _advanced(words: List[int], blocks: int, device: Any) -> torch.Tensor:
    """The state with its 128-bit counter advanced by `blocks` (PhiloxRandom::Skip)."""
    counter = (words[0] | (words[1] << 64)) + blocks
    new = [counter & philox.MASK64, (counter >> 64) & philox.MASK64] + words[2:]
    return torch.tensor([_to_int64(w) for w in new], dtype=torch.int64, device=device)


# State tensors written by these kernels. TF's state ops copy a variable's buffer that is
# still shared (with the initializer's or an assign's tensor) before updating it in
# place; StatefulRandomBinomial then writes the advanced state into the old copy, so its
# update is lost (the variable keeps the state it read). Tensors not in this set came
# from an assign: they are TF's "shared" buffers.
_OWNED_STATES: Dict[int, "weakref.ref[torch.Tensor]"] = {}


def _store_state(store: Any, handle: str, value: torch.Tensor) -> None:
    key = id(value)
    _OWNED_STATES[key] = weakref.ref(value, lambda _: _OWNED_STATES.pop(key, None))
    store[handle] = value


def _owned(value: torch.Tensor) -> bool:
    ref = _OWNED_STATES.get(id(value))
    return ref is not None and ref() is value


def _read_and_skip_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    store = kctx.state

    def rng_read_and_skip(handle: str, alg: Any, delta: Any) -> torch.Tensor:
        state = _lookup(store, handle)
        words = _check_state(state, int(alg))
        old = state.clone()
        _store_state(store, handle, _advanced(words, int(delta) * _BLOCKS_PER_ELEMENT,
                                              state.device))
        return old.cpu()
    return rng_read_and_skip


declare("RngReadAndSkip", inputs=["resource: resource", "alg: int32", "delta: uint64"],
        outputs=["value: int64"], shape=lambda ctx: [TensorShape([3])],
        kernel=_read_and_skip_kernel, stateful=True, grad="unregistered", cpu_only=True)


def rng_read_and_skip(handle: Tensor, alg: Any, delta: Any) -> Tensor:
    """The generator state before advancing it by `delta` elements' worth of blocks."""
    return apply_op1("RngReadAndSkip", [handle, cast(alg, D.int32), cast(delta, D.uint64)])


# -- binomial ---------------------------------------------------------------------------------

class _Uniforms:
    """TF's UniformDistribution<PhiloxRandom, double> as the binomial samplers read it:
    two doubles per block, the second one first."""

    def __init__(self, key: int, counter: int):
        self.key, self.counter = key, counter
        self.pending: List[float] = []

    def __call__(self) -> float:
        if not self.pending:
            w = philox.words(self.key, self.counter, 4)
            self.counter = (self.counter + 1) & philox.MASK128
            pair = _unit_double(w[0::2], w[1::2])
            self.pending = [float(pair[0]), float(pair[1])]
        return self.pending.pop()


def _binomial_inversion(count: float, prob: float, uniform: _Uniforms) -> float:
    geom_sum, num_geom = 0.0, 0
    while True:
        geom = math.ceil(math.log(uniform()) / math.log1p(-prob))
        geom_sum += geom
        if geom_sum > count:
            return float(num_geom)
        num_geom += 1


_TAIL = (0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
         0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
         0.00925546218271273, 0.00833056343336287)


def _stirling_tail(k: float) -> float:
    if k <= 9:
        return _TAIL[int(k)]
    kp1sq = (k + 1) * (k + 1)
    return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1)


def _btrs(count: float, prob: float, uniform: _Uniforms) -> float:
    """Hormann's transformed rejection with squeeze, as TF writes it."""
    stddev = math.sqrt(count * prob * (1 - prob))
    b = 1.15 + 2.53 * stddev
    a = -0.0873 + 0.0248 * b + 0.01 * prob
    c = count * prob + 0.5
    v_r = 0.92 - 4.2 / b
    r = prob / (1 - prob)
    alpha = (2.83 + 5.1 / b) * stddev
    m = math.floor((count + 1) * prob)
    while True:
        u = uniform()
        v = uniform()
        u = u - 0.5
        us = 0.5 - abs(u)
        k = math.floor((2 * a / us + b) * u + c)
        if us >= 0.07 and v <= v_r:
            return float(k)
        if k < 0 or k > count:
            continue
        v = math.log(v * alpha / (a / (us * us) + b))
        upper = ((m + 0.5) * math.log((m + 1) / (r * (count - m + 1))) +
                 (count + 1) * math.log((count - m + 1) / (count - k + 1)) +
                 (k + 0.5) * math.log(r * (count - k + 1) / (k + 1)) +
                 _stirling_tail(m) + _stirling_tail(count - m) -
                 _stirling_tail(k) - _stirling_tail(count - k))
        if v <= upper:
            return float(k)


def _binomial_one(count: float, prob: float, key: int, counter: int, index: int) -> float:
    """One sample of TF's RandomBinomialFunctor for output element `index`."""
    if count <= 0.0 or prob <= 0.0:
        return 0.0
    if prob >= 1.0:
        return count
    if math.isnan(prob):
        return math.nan
    flip = prob > 0.5
    p = 1.0 - prob if flip else prob
    if count * p >= 10:
        uniform = _Uniforms(key, (counter + 256 * index) & philox.MASK128)
        draw = _btrs(count, p, uniform)
    else:
        uniform = _Uniforms(key, (counter + 42 * index) & philox.MASK128)
        draw = _binomial_inversion(count, p, uniform)
    return count - draw if flip else draw


def _binomial_layout(dims: List[int], counts: torch.Tensor, probs: torch.Tensor
                     ) -> Tuple[List[int], int, int, np.ndarray, np.ndarray]:
    """(batch dims, samples per batch, batches, counts and probs broadcast flat)."""
    try:
        batch = list(np.broadcast_shapes(tuple(counts.shape), tuple(probs.shape)))
    except ValueError:
        raise _invalid(f"counts and probs must have compatible batch dimensions: "
                       f"{list(counts.shape)} vs. {list(probs.shape)}") from None
    if len(batch) > len(dims) or (batch and dims[len(dims) - len(batch):] != batch):
        raise _invalid("Shape passed in must end with broadcasted shape.")
    samples = int(np.prod(dims[:len(dims) - len(batch)], dtype=np.int64))
    batches = int(np.prod(batch, dtype=np.int64))
    c = np.broadcast_to(counts.detach().cpu().double().numpy(), batch).reshape(-1)
    p = np.broadcast_to(probs.detach().cpu().double().numpy(), batch).reshape(-1)
    return batch, samples, batches, c, p


def _draw_binomial(dims: List[int], counts: torch.Tensor, probs: torch.Tensor, key: int,
                   counter: int, dtype: D.DType) -> torch.Tensor:
    _, samples, batches, c, p = _binomial_layout(dims, counts, probs)
    out = np.empty(samples * batches, dtype=np.float64)
    for index in range(samples * batches):
        b, s = divmod(index, samples)
        out[s * batches + b] = _binomial_one(float(c[b]), float(p[b]), key, counter, index)
    values = torch.from_numpy(out).reshape(dims)
    return values.to(dtype.torch_dtype) if dtype.is_floating else \
        values.to(torch.float64).to(dtype.torch_dtype)


def _binomial_shape(shape_input: int) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        return [ctx.const_shape(shape_input) if ctx.const_shape(shape_input).rank is not None
                else unknown_shape()]
    return rule


def _stateless_binomial_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dtype"]

    def stateless_random_binomial(shape: Any, seed: Any, counts: torch.Tensor,
                                  probs: torch.Tensor) -> torch.Tensor:
        if len(as_int_list(seed)) != 2:
            raise _invalid(f"seed must have shape [2], not [{len(as_int_list(seed))}]")
        dims = _output_dims(shape)
        key, counter = key_counter_of(seed)
        return _draw_binomial(dims, counts, probs, key, counter, dtype)
    return stateless_random_binomial


def _stateful_binomial_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dtype"]
    store = kctx.state

    def stateful_random_binomial(handle: str, alg: Any, shape: Any, counts: torch.Tensor,
                                 probs: torch.Tensor) -> torch.Tensor:
        dims = _output_dims(shape)
        _, samples, batches, _, _ = _binomial_layout(dims, counts, probs)
        state = _lookup(store, handle)
        words = _check_state(state, int(alg))
        # TF advances the state first (by its estimate of the samples needed, 256 blocks
        # each) and samples from the state it read; a still-shared state buffer loses the
        # update (see _OWNED_STATES).
        if _owned(state):
            _store_state(store, handle, _advanced(words, batches * 2 * 100 * (samples + 3)
                                                  // 4 * _BLOCKS_PER_ELEMENT, state.device))
        else:
            _store_state(store, handle, state.clone())
        return _draw_binomial(dims, counts, probs, words[2],
                              words[0] | (words[1] << 64), dtype)
    return stateful_random_binomial


_BINOMIAL_TYPES = (D.float16, D.float32, D.float64, D.int32, D.int64)
declare("StatelessRandomBinomial",
        inputs=["shape: S", "seed: Tseed", "counts: T", "probs: T"], outputs=["output: dtype"],
        attrs={"S": Type((D.int32, D.int64)), "Tseed": Type((D.int32, D.int64),
                                                            default=D.int64),
               "T": Type(_BINOMIAL_TYPES, default=D.float64),
               "dtype": Type(_BINOMIAL_TYPES, default=D.int64)},
        shape=_binomial_shape(0), kernel=_stateless_binomial_kernel, grad="none",
        cpu_only=True)
declare("StatefulRandomBinomial",
        inputs=["resource: resource", "algorithm: int64", "shape: S", "counts: T",
                "probs: T"], outputs=["output: dtype"],
        attrs={"S": Type((D.int32, D.int64)), "T": Type(_BINOMIAL_TYPES, default=D.float64),
               "dtype": Type(_BINOMIAL_TYPES, default=D.int64)},
        shape=_binomial_shape(2), kernel=_stateful_binomial_kernel, stateful=True,
        grad="unregistered", cpu_only=True)


def stateless_random_binomial(shape: Any, seed: Any, counts: Any, probs: Any,
                              output_dtype: Any = D.int32, name: Optional[str] = None
                              ) -> Tensor:
    """`tf.random.stateless_binomial`: binomial(counts, probs) samples determined by
    `seed` (TF's inversion / BTRS samplers)."""
    with name_scope(name, "stateless_random_binomial", [shape, seed, counts, probs]):
        shape = shape_tensor(shape)
        probs = convert_to_tensor(probs, dtype_hint=D.float32, name="probs")
        counts = convert_to_tensor(counts, dtype_hint=probs.dtype, name="counts")
        result = apply_op1("StatelessRandomBinomial", [shape, seed, counts, probs],
                           {"dtype": D.as_dtype(output_dtype)})
        _set_static_shape(result, shape)
        return result


def stateful_random_binomial(handle: Tensor, alg: int, shape: Any, counts: Tensor,
                             probs: Tensor, dtype: Any, name: Optional[str] = None) -> Tensor:
    return apply_op1("StatefulRandomBinomial",
                     [handle, constant(alg, D.int64), shape, counts, probs],
                     {"dtype": D.as_dtype(dtype)}, name=name)


# -- StatelessShuffle --------------------------------------------------------------------------

def _stateless_shuffle_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def stateless_shuffle(value: Any, key: Any, counter: Any, alg: Any) -> Any:
        if int(alg) != PHILOX:
            raise _invalid(f"Unsupported algorithm id: {int(alg)}")
        shape = tuple(value.shape)
        if len(shape) == 0 or shape[0] <= 1 or int(np.prod(shape)) <= 1:
            return value
        perm = _v2_stream(key, counter, alg).permutation(shape[0])
        if isinstance(value, np.ndarray):
            return value[perm]
        return value[torch.from_numpy(perm).to(value.device)]
    return stateless_shuffle


declare("StatelessShuffle", inputs=["value: T", "key: uint64", "counter: uint64", "alg: int32"],
        outputs=["output: T"], attrs={"T": Type()}, shape=lambda ctx: [ctx.shape(0)],
        kernel=_stateless_shuffle_kernel, grad="unregistered", cpu_only=True)


def stateless_shuffle(value: Any, seed: Any, alg: Any = "auto_select",
                      name: Optional[str] = None) -> Tensor:
    """`tf.random.experimental.stateless_shuffle`: `value` permuted along its first
    dimension by an order determined by `seed`."""
    with name_scope(name, "stateless_shuffle", [value, seed]):
        key, counter, alg_id = _key_counter_alg(seed, alg)
        return apply_op1("StatelessShuffle", [value, key, counter,
                                              constant(PHILOX if alg_id == AUTO_SELECT
                                                       else alg_id, D.int32)])


# -- RandomIndexShuffle (Simon block cipher, cycle walking) ------------------------------------

def _rotl(x: int, r: int, w: int) -> int:
    mask = (1 << w) - 1
    return ((x << r) | (x >> (w - r))) & mask


def _rotr(x: int, r: int, w: int) -> int:
    mask = (1 << w) - 1
    return ((x >> r) | (x << (w - r))) & mask


def _simon_keys(key: Sequence[int], rounds: int, w: int) -> List[int]:
    mask = (1 << w) - 1
    c = 0xFFFFFFFC & mask
    z = 0x7369F885192C0EF5 & mask
    keys = [k & mask for k in key[:3]]
    for i in range(3, rounds):
        keys.append(c ^ (z & 1) ^ keys[i - 3] ^ _rotr(keys[i - 1], 3, w) ^
                    _rotr(keys[i - 1], 4, w))
        z >>= 1
    return keys


def _simon_f(x: int, w: int) -> int:
    return (_rotl(x, 1, w) & _rotl(x, 8, w)) ^ _rotl(x, 2, w)


def _index_shuffle_one(index: int, key: Sequence[int], max_index: int, rounds: int) -> int:
    if max_index == 0:
        return 0
    block = int(math.ceil(math.log2(max_index)))
    block = max(block + block % 2, 16)
    w = min(block, 64) // 2
    mask = (1 << w) - 1
    keys = _simon_keys(key, rounds, w)
    value = index
    while True:
        left, right = (value >> w) & mask, value & mask
        for i in range(0, len(keys) - 1, 2):
            left ^= _simon_f(right, w) ^ keys[i]
            right ^= _simon_f(left, w) ^ keys[i + 1]
        value = (left << w) | right
        if value <= max_index:
            return value


def _index_shuffle_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    rounds = int(node.attrs["rounds"])
    dtype = node.attrs["dtype"]

    def random_index_shuffle(index: Any, seed: Any, max_index: Any) -> torch.Tensor:
        if rounds < 4 or rounds % 2:
            raise _invalid(f"Rounds must be an even integer >= 4, got {rounds}")
        idx = np.asarray(index.cpu()).astype(np.uint64).reshape(-1)
        top = np.asarray(max_index.cpu()).astype(np.uint64).reshape(-1)
        seeds = np.asarray(seed.cpu()).astype(np.int64).reshape(-1, 3)
        n = max(len(idx), len(top), len(seeds))
        out = [_index_shuffle_one(int(idx[i % len(idx)]), [int(s) & 0xFFFFFFFF for s in
                                                         seeds[i % len(seeds)]],
                                  int(top[i % len(top)]), rounds) for i in range(n)]
        shape = index.shape if index.dim() else (max_index.shape if max_index.dim() else
                                                 ((n,) if seed.dim() == 2 else ()))
        return torch.tensor(np.array(out, dtype=np.uint64).astype(np.int64),
                            dtype=torch.int64).to(dtype.torch_dtype).reshape(shape)
    return random_index_shuffle


def _index_shuffle_shape(ctx: Any) -> List[TensorShape]:
    seed = ctx.shape(1)
    if seed.rank is not None and not (
            (seed.rank == 1 and seed.as_list()[0] in (None, 3)) or
            (seed.rank == 2 and seed.as_list()[1] in (None, 3))):
        raise ValueError(f"Seed must have shape [3] or [n, 3] but got "
                         f"[{','.join(str(d) for d in seed.as_list())}]. {node_desc(ctx)}")
    index, top = ctx.shape(0), ctx.shape(2)
    for s in (index, top):
        if s.rank not in (None, 0, 1):
            raise ValueError(f"Shape must be at most rank 1 but is rank {s.rank} "
                             f"{node_desc(ctx)}")
    if index.rank == 1:
        return [index]
    if top.rank == 1:
        return [top]
    if seed.rank == 2:
        return [TensorShape([seed.as_list()[0]])]
    return [TensorShape([])]


_INDEX_TYPES = (D.int32, D.uint32, D.int64, D.uint64)
declare("RandomIndexShuffle", inputs=["index: dtype", "seed: Tseed", "max_index: dtype"],
        outputs=["output: dtype"],
        attrs={"rounds": 4, "dtype": Type(_INDEX_TYPES), "Tseed": Type(_INDEX_TYPES)},
        shape=_index_shuffle_shape, kernel=_index_shuffle_kernel, grad="none",
        cpu_only=True)


def random_index_shuffle(index: Any, seed: Any, max_index: Any, rounds: int = 4,
                         name: Optional[str] = None) -> Tensor:
    """`tf.random_index_shuffle`: the RandomIndexShuffle op (seed of shape [3] or
    [n, 3])."""
    return apply_op1("RandomIndexShuffle", [index, seed, max_index], {"rounds": int(rounds)},
                     name=name)


def index_shuffle(index: Any, seed: Any, max_index: Any) -> Tensor:
    """`tf.random.experimental.index_shuffle`: the position of `index` in a pseudorandom
    permutation of [0, max_index] determined by a [2] (or [n, 2]) seed."""
    seed = convert_to_tensor(seed)
    rank = seed.shape.rank
    paddings = [[1, 0]] + ([] if rank is None else (rank - 1) * [[0, 0]])
    seed = pad(seed, paddings, constant_values=498247692)
    return random_index_shuffle(index, seed=seed, max_index=max_index, rounds=4)


# -- StatelessParameterizedTruncatedNormal -----------------------------------------------------

def _truncated_normal_by_inversion(u: torch.Tensor, low: torch.Tensor, high: torch.Tensor
                                   ) -> torch.Tensor:
    """Standard normals restricted to [low, high] from uniforms u: the inverse CDF, taken
    on the side of the mean where the bounds' CDF values keep their precision."""
    flip = low > 0                      # both bounds above the mean: mirror the interval
    a = torch.where(flip, -high, low)
    b = torch.where(flip, -low, high)
    lo_p = torch.special.ndtr(a)
    hi_p = torch.special.ndtr(b)
    x = torch.special.ndtri(lo_p + u * (hi_p - lo_p))
    x = torch.minimum(torch.maximum(x, a), b)
    return torch.where(flip, -x, x)


class _TruncatedNormalSample(torch.autograd.Function):
    """The sample with TF's registered gradient (Figurnov et al.'s implicit
    reparameterization as TF writes it: d/dmean = 1, d/dstddev = standardized sample,
    d/dminval and d/dmaxval from the truncated CDF)."""

    @staticmethod
    def forward(ctx: Any, u: torch.Tensor, mean: torch.Tensor, std: torch.Tensor,
                lo: torch.Tensor, hi: torch.Tensor) -> torch.Tensor:
        z = _truncated_normal_by_inversion(u, (lo - mean) / std, (hi - mean) / std)
        sample = z * std + mean
        ctx.save_for_backward(sample, mean, std, lo, hi)
        return sample

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> tuple:
        sample, mean, std, lo, hi = ctx.saved_tensors
        lo_s, hi_s, x_s = (lo - mean) / std, (hi - mean) / std, (sample - mean) / std
        ndtr = torch.special.ndtr
        cdf = (ndtr(x_s) - ndtr(lo_s)) / (ndtr(hi_s) - ndtr(lo_s))
        info = torch.finfo(sample.dtype)
        cdf = cdf.clamp(info.tiny, 1 - info.eps)
        d_hi = torch.exp(0.5 * (x_s ** 2 - hi_s ** 2) + torch.log(cdf))
        d_lo = torch.exp(0.5 * (x_s ** 2 - lo_s ** 2) + torch.log1p(-cdf))
        return None, grad, grad * x_s, grad * d_lo, grad * d_hi


def _parameterized_truncated_normal_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["dtype"]

    def stateless_parameterized_truncated_normal(shape: Any, seed: Any, means: Any,
                                                 stddevs: Any, minvals: Any, maxvals: Any
                                                 ) -> torch.Tensor:
        dims = _output_dims(shape)
        params = [v.to(torch.float64) for v in (means, stddevs, minvals, maxvals)]
        try:
            batch = list(torch.broadcast_shapes(*(p.shape for p in params)))
        except RuntimeError:
            raise _invalid("means, stddevs, minvals and maxvals must have compatible "
                           "shapes") from None
        if len(batch) > len(dims) or (batch and dims[len(dims) - len(batch):] != batch):
            raise _invalid("Shape passed in must end with broadcasted shape.")
        mean, std, lo, hi = (p.expand(dims) for p in params)
        valid = (std > 0) & (lo < hi) & (torch.isfinite(lo) | torch.isfinite(hi))
        if not bool(valid.all()):
            raise _invalid("Invalid parameters")
        count = int(np.prod(dims, dtype=np.int64))
        key, counter = key_counter_of(seed)
        words = philox.words(key, counter, 2 * count)
        u = torch.from_numpy(_unit_double(words[0::2], words[1::2])).reshape(dims)
        sample = _TruncatedNormalSample.apply(u.to(mean.device), mean, std, lo, hi)
        return sample.to(dtype.torch_dtype)
    return stateless_parameterized_truncated_normal


declare("StatelessParameterizedTruncatedNormal",
        inputs=["shape: S", "seed: Tseed", "means: dtype", "stddevs: dtype", "minvals: dtype",
                "maxvals: dtype"], outputs=["output: dtype"],
        attrs={"S": Type((D.int32, D.int64)), "Tseed": Type((D.int32, D.int64),
                                                            default=D.int64),
               "dtype": Type((D.float16, D.float32, D.float64))},
        shape=_binomial_shape(0), kernel=_parameterized_truncated_normal_kernel,
        grad_none_inputs=(0, 1), cpu_only=True)


def stateless_parameterized_truncated_normal(shape: Any, seed: Any, means: Any = 0.0,
                                             stddevs: Any = 1.0, minvals: Any = -2.0,
                                             maxvals: Any = 2.0, name: Optional[str] = None
                                             ) -> Tensor:
    """`tf.random.stateless_parameterized_truncated_normal`: normal(means, stddevs)
    samples restricted to [minvals, maxvals], determined by `seed`. The samples follow
    TF's distribution but are not TF's numbers (inverse-CDF sampling, not TF's rejection
    samplers)."""
    with name_scope(name, "stateless_parameterized_truncated_normal",
                    [shape, means, stddevs, minvals, maxvals]):
        shape = shape_tensor(shape)
        tensors = [convert_to_tensor(v, name=n) for v, n in
                   ((means, "means"), (stddevs, "stddevs"), (minvals, "minvals"),
                    (maxvals, "maxvals"))]
        result = apply_op1("StatelessParameterizedTruncatedNormal", [shape, seed] + tensors)
        _set_static_shape(result, shape)
        return result
