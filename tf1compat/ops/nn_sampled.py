"""Candidate sampling and sampled losses: the *CandidateSampler ops, ComputeAccidentalHits,
nce_loss and sampled_softmax_loss.

Samplers follow TF's range samplers: log-uniform (Zipfian) P(k) = log((k+2)/(k+1)) /
log(range_max+1), uniform, a learned unigram whose counts grow with the true classes it
sees (starting uniform), and a fixed unigram from `unigrams` or a vocabulary file with
distortion, reserved ids and sharding. With `unique`, candidates are drawn until
`num_sampled` distinct ones are found and expected counts are 1 - (1 - p)^tries (p *
num_sampled when no draw was rejected), as TF's ExpectedCountHelper. Draws come from the
op's per-session Philox stream (ops/_random_stream.py) read one word at a time as TF's
SimplePhilox, so every sampler's ids equal TF's bit for bit: the fixed unigram through
Walker alias tables built as TF's DistributionSampler builds them (from float32 weights),
the learned unigram through its WeightedPicker's integer counts.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import struct
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import declare
from tf1compat.framework.random_seed import get_seed
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _philox as philox
from tf1compat.ops import array_ops, math_ops
from tf1compat.ops._random_stream import RandomStream
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.creation_ops import ones, ones_like, zeros_like
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.strided_slice import slice as _slice

__all__ = ["uniform_candidate_sampler", "log_uniform_candidate_sampler",
           "learned_unigram_candidate_sampler", "fixed_unigram_candidate_sampler",
           "all_candidate_sampler", "compute_accidental_hits", "nce_loss",
           "sampled_softmax_loss"]


# -- TF's SimplePhilox: one uint32 at a time from a reserved stretch ------------------------

class _SimplePhilox:
    """Sequential draws from the Philox blocks starting at `counter` (TF's SimplePhilox over
    a SingleSampleAdapter): words are consumed in order, four per 128-bit block."""

    _CHUNK = 256                        # words generated at a time

    def __init__(self, key: int, counter: int):
        self.key, self.counter = key, counter
        self._words: List[int] = []
        self._pos = 0

    def rand32(self) -> int:
        if self._pos == len(self._words):
            self._words = philox.words(self.key, self.counter, self._CHUNK).tolist()
            self.counter += self._CHUNK // 4
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word

    def rand64(self) -> int:
        low = self.rand32()
        return low | (self.rand32() << 32)

    def rand_float(self) -> float:
        """[0, 1) from the low 23 bits of one word (Uint32ToFloat): the float32 in [1, 2)
        those bits make, less 1 (exact, so the Python float is TF's float)."""
        bits = (self.rand32() & 0x7FFFFF) | 0x3F800000
        return struct.unpack("<f", struct.pack("<I", bits))[0] - 1.0

    def rand_double(self) -> float:
        """[0, 1) from 20 bits of the first word and all of the second (Uint64ToDouble)."""
        high = self.rand32()
        bits = ((high & 0xFFFFF) << 32) | self.rand32() | 0x3FF0000000000000
        return struct.unpack("<d", struct.pack("<Q", bits))[0] - 1.0

    def uniform64(self, n: int) -> int:
        """Exact uniform integer in [0, n) from 64-bit draws (ExactUniformInt<uint64>)."""
        return _exact_uniform(n, self.rand64, 64)

    def uniform32(self, n: int) -> int:
        """Exact uniform integer in [0, n) from 32-bit draws (ExactUniformInt<uint32>)."""
        return _exact_uniform(n, self.rand32, 32)


def _exact_uniform(n: int, draw: Callable[[], int], bits: int) -> int:
    """TF's ExactUniformInt: a power of two masks one draw; otherwise draws below
    `2**bits mod n` are rejected so that `value % n` is uniform."""
    if n & (n - 1) == 0:
        return draw() & (n - 1)
    rem = ((1 << bits) - 1) % n + 1
    while True:
        value = draw()
        if value >= rem:
            return value % n


def _float32(x: float) -> float:
    return float(np.float32(x))


# -- range samplers ---------------------------------------------------------------------------

class _RangeSampler:
    """Samples ids in [0, range_max) and reports their probabilities (TF's RangeSampler)."""

    needs_updates = False

    def __init__(self, range_max: int):
        self.range_max = range_max

    def sample(self, rnd: _SimplePhilox) -> int:
        raise NotImplementedError

    def probability(self, values: np.ndarray) -> np.ndarray:
        """float32 probabilities (TF's samplers return float)."""
        raise NotImplementedError

    def update(self, values: np.ndarray) -> None:
        pass


class _UniformSampler(_RangeSampler):
    def sample(self, rnd: _SimplePhilox) -> int:
        return rnd.uniform64(self.range_max)

    def probability(self, values: np.ndarray) -> np.ndarray:
        return np.full(values.shape, 1.0 / self.range_max, np.float32)


class _LogUniformSampler(_RangeSampler):
    def __init__(self, range_max: int):
        super().__init__(range_max)
        self.log_range = math.log1p(range_max)

    def sample(self, rnd: _SimplePhilox) -> int:
        # int64(exp(u * log(range + 1))) - 1, wrapped into range against roundoff.
        return (int(math.exp(rnd.rand_double() * self.log_range)) - 1) % self.range_max

    def probability(self, values: np.ndarray) -> np.ndarray:
        return np.array([math.log((v + 2.0) / (v + 1.0)) / self.log_range
                         for v in values.reshape(-1).tolist()],
                        np.float64).astype(np.float32).reshape(values.shape)


class _LearnedUnigramSampler(_RangeSampler):
    """TF's UnigramSampler: integer counts starting at 1, raised by each true class seen
    (after the batch is drawn, never past int32's maximum in total), drawn by its
    WeightedPicker: an exact uniform integer below the total picks the id whose count
    interval holds it (the picker's tree descent is this search on prefix sums)."""

    needs_updates = True
    _INT32_MAX = 2 ** 31 - 1

    def __init__(self, range_max: int):
        super().__init__(range_max)
        self.counts = np.ones(range_max, np.int64)
        self._prefix: Optional[np.ndarray] = None

    def sample(self, rnd: _SimplePhilox) -> int:
        if self._prefix is None:
            self._prefix = np.cumsum(self.counts)
        position = rnd.uniform32(int(self._prefix[-1]))
        return int(np.searchsorted(self._prefix, position, side="right"))

    def probability(self, values: np.ndarray) -> np.ndarray:
        # static_cast<float>(weight) / total_weight: a float32 division.
        return self.counts[values].astype(np.float32) / np.float32(self.counts.sum())

    def update(self, values: np.ndarray) -> None:
        flat = values.reshape(-1)
        room = self._INT32_MAX - int(self.counts.sum())
        np.add.at(self.counts, flat[:max(0, min(len(flat), room))], 1)
        self._prefix = None


def _libm_float(name: str, fallback: Callable[..., np.ndarray], arity: int = 1) -> Callable:
    """The C library's float function `name` (TF calls them), else numpy's float32 one."""
    try:
        fn = getattr(ctypes.CDLL(ctypes.util.find_library("m")), name)
        fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float] * arity
        return fn                       # takes and returns Python floats
    except (OSError, AttributeError, TypeError):
        return lambda *x: float(fallback(*(np.float32(v) for v in x)))


_log1pf = _libm_float("log1pf", np.log1p)
_expm1f = _libm_float("expm1f", np.expm1)
_powf = _libm_float("powf", np.power, arity=2)


def _alias_tables(weights: np.ndarray) -> tuple:
    """Walker alias tables as TF's DistributionSampler builds them: each id's share
    `float(w * n) / sum` (the sum in double), the last small bucket paired with the last
    large one, leftovers of rounding made certain; probabilities kept as float32."""
    n = len(weights)
    total = np.cumsum(weights, dtype=np.float64)[-1]      # added in order, in double
    share = ((weights * np.float32(n)).astype(np.float64) / total).tolist()
    alt = [-1] * n
    low = [i for i in range(n) if share[i] < 1.0]
    high = [i for i in range(n) if share[i] >= 1.0]
    while high and low:
        small, large = low.pop(), high.pop()
        alt[small] = large
        share[large] -= 1.0 - share[small]
        (low if share[large] < 1.0 else high).append(large)
    prob = np.array(share, np.float64).astype(np.float32)
    for idx in high + low:
        prob[idx], alt[idx] = 1.0, idx
    return prob.tolist(), alt


class _FixedUnigramSampler(_RangeSampler):
    """TF's FixedUnigramSampler: float32 weights with a float32 running total, drawn
    through alias tables (a float, then a bucket from 32-bit words, per sample)."""

    def __init__(self, weights: np.ndarray):
        super().__init__(len(weights))
        self.weights = weights.astype(np.float32)
        self.total = np.cumsum(self.weights, dtype=np.float32)[-1]    # float, in order
        self.prob, self.alt = _alias_tables(self.weights)

    def sample(self, rnd: _SimplePhilox) -> int:
        r = rnd.rand_float()
        idx = rnd.uniform32(self.range_max)
        return idx if r < self.prob[idx] else self.alt[idx]

    def probability(self, values: np.ndarray) -> np.ndarray:
        return self.weights[values] / self.total


def _expected_count(p: np.ndarray, batch_size: int, num_tries: int) -> np.ndarray:
    """TF's ExpectedCountHelper in float: p * batch_size, or 1 - (1 - p)^tries after
    rejections (computed as -expm1(tries * log1p(-p)))."""
    p = p.astype(np.float32)
    if num_tries == batch_size:
        return p * np.float32(batch_size)
    out = [-_expm1f(_float32(np.float32(num_tries) * np.float32(_log1pf(-v))))
           for v in p.reshape(-1).tolist()]
    return np.array(out, np.float32).reshape(p.shape)


def _sample_batch(sampler: _RangeSampler, rnd: _SimplePhilox, n: int, unique: bool
                  ) -> tuple:
    if not unique:
        return np.array([sampler.sample(rnd) for _ in range(n)], np.int64), n
    if n > sampler.range_max:
        raise errors.InvalidArgumentError(None, None, "Sampler's range is too small.")
    picked: List[int] = []
    used: set = set()
    tries = 0
    while len(picked) < n:
        tries += 1
        value = sampler.sample(rnd)
        if value not in used:
            used.add(value)
            picked.append(value)
    return np.array(picked, np.int64), tries


def _sampler_kernel(make: Callable[[Any], _RangeSampler]) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        attrs = node.attrs
        seed, seed2 = attrs["seed"], attrs["seed2"]
        n, unique, num_true = attrs["num_sampled"], bool(attrs["unique"]), attrs["num_true"]
        # The stream and the (learned) sampler live as long as the session, as TF's kernel.
        state = kctx.op_resource(lambda: (RandomStream(seed, seed2), make(attrs)))
        stream, sampler = state
        device = kctx.device

        def run(true_classes: torch.Tensor) -> tuple:
            true_np = true_classes.detach().cpu().numpy()
            if true_np.ndim != 2:
                raise errors.InvalidArgumentError(None, None, "true_classes must be a matrix")
            if true_np.shape[1] != num_true:
                raise errors.InvalidArgumentError(
                    None, None, f"true_classes must have num_true columns, expected: "
                                f"{true_np.shape[1]} was: {num_true}")
            if unique and n > sampler.range_max:
                raise errors.InvalidArgumentError(None, None, "Sampler's range is too small.")
            bad = true_np[(true_np < 0) | (true_np >= sampler.range_max)]
            if bad.size:
                raise errors.InvalidArgumentError(
                    None, None, f"`true_candidate` out of range [0, {sampler.range_max}), "
                                f"received {int(bad[0])}")
            # Each run reserves 2048 words per sampled id (512 blocks) and reads them in
            # order; a rejection-heavy run reads on past its stretch, as TF does.
            rnd = _SimplePhilox(stream.key, stream.reserve(512 * n))
            sampled, tries = _sample_batch(sampler, rnd, n, unique)
            sampled_expected = _expected_count(sampler.probability(sampled), n, tries)
            true_expected = _expected_count(sampler.probability(true_np.reshape(-1)), n,
                                            tries).reshape(true_np.shape)
            if sampler.needs_updates:
                sampler.update(true_np)
            return (torch.from_numpy(sampled).to(device),
                    torch.from_numpy(true_expected).to(device),
                    torch.from_numpy(sampled_expected).to(device))
        return run
    return factory


def _sampler_shape(ctx: Any) -> List[TensorShape]:
    t = ctx.shape(0)
    num_true, n = ctx.attrs["num_true"], ctx.attrs["num_sampled"]
    if t.rank is not None and t.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {t.rank} {node_desc(ctx)}")
    batch = t.as_list()[0] if t.rank == 2 else None
    return [TensorShape([n]), TensorShape([batch, num_true]), TensorShape([n])]


def _fixed_unigram_weights(attrs: dict) -> np.ndarray:
    unigrams = [float(u) for u in attrs["unigrams"]]
    vocab_file = attrs["vocab_file"]
    if isinstance(vocab_file, bytes):
        vocab_file = vocab_file.decode()
    if vocab_file:
        if unigrams:
            raise errors.InvalidArgumentError(None, None, "Must provide either unigrams or a "
                                                          "vocab_file, not both.")
        with open(vocab_file) as f:
            unigrams = [float(line.strip().split(",")[-1]) for line in f if line.strip()]
    elif not unigrams:
        raise errors.InvalidArgumentError(None, None, "Must provide either unigrams or a "
                                                      "vocab_file.")
    # float32 throughout, as TF's sampler: strtof / float attrs, powf, reserved ids as 0.
    distortion = float(np.float32(attrs["distortion"]))
    shards, shard = attrs["num_shards"], attrs["shard"]
    reserved = attrs["num_reserved_ids"]
    kept = [0.0] * len(range(shard, reserved, shards))
    first = (shard - reserved) % shards          # the first unigram of this shard
    kept += [_powf(w, distortion)
             for w in np.array(unigrams, np.float32)[first::shards].tolist()]
    weights = np.array(kept, np.float32)
    if len(weights) != attrs["range_max"]:
        raise errors.InvalidArgumentError(
            None, None, f"range_max must equal the number of vocabulary entries in this "
                        f"shard: {attrs['range_max']} vs {len(weights)}")
    return weights


_SAMPLER_ATTRS = {"num_true": None, "num_sampled": None, "unique": None, "range_max": None,
                  "seed": 0, "seed2": 0}
_SAMPLERS = {
    "UniformCandidateSampler": lambda a: _UniformSampler(a["range_max"]),
    "LogUniformCandidateSampler": lambda a: _LogUniformSampler(a["range_max"]),
    "LearnedUnigramCandidateSampler": lambda a: _LearnedUnigramSampler(a["range_max"]),
    "FixedUnigramCandidateSampler": lambda a: _FixedUnigramSampler(_fixed_unigram_weights(a)),
}
for _op_type, _make in _SAMPLERS.items():
    _attrs = dict(_SAMPLER_ATTRS)
    if _op_type == "FixedUnigramCandidateSampler":
        _attrs.update(vocab_file="", distortion=1.0, num_reserved_ids=0, num_shards=1, shard=0,
                      unigrams=[])
    declare(_op_type, inputs=["true_classes: int64"],
            outputs=["sampled_candidates: int64", "true_expected_count: float32",
                     "sampled_expected_count: float32"],
            attrs=_attrs, shape=_sampler_shape, kernel=_sampler_kernel(_make), grad="none",
            stateful=True)


def _all_sampler_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    n = node.attrs["num_sampled"]
    device = kctx.device

    def run(true_classes: torch.Tensor) -> tuple:
        return (torch.arange(n, dtype=torch.int64, device=device),
                torch.ones(true_classes.shape, dtype=torch.float32, device=device),
                torch.ones([n], dtype=torch.float32, device=device))
    return run


declare("AllCandidateSampler", inputs=["true_classes: int64"],
        outputs=["sampled_candidates: int64", "true_expected_count: float32",
                 "sampled_expected_count: float32"],
        attrs={"num_true": None, "num_sampled": None, "unique": None, "seed": 0, "seed2": 0},
        shape=_sampler_shape, kernel=_all_sampler_kernel, grad="none", stateful=True)


def _accidental_hits_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    device = kctx.device

    def run(true_classes: torch.Tensor, sampled: torch.Tensor) -> tuple:
        true_np = true_classes.detach().cpu().numpy()
        position = {}
        for i, v in enumerate(sampled.detach().cpu().numpy().tolist()):
            position[v] = i           # the last position wins, as TF's map
        rows, ids = [], []
        for i, row in enumerate(true_np.tolist()):
            for v in row:
                if v in position:
                    rows.append(i)
                    ids.append(position[v])
        lowest = -np.finfo(np.float32).max
        return (torch.tensor(rows, dtype=torch.int32, device=device),
                torch.tensor(ids, dtype=torch.int64, device=device),
                torch.full([len(rows)], lowest, dtype=torch.float32, device=device))
    return run


declare("ComputeAccidentalHits", inputs=["true_classes: int64", "sampled_candidates: int64"],
        outputs=["indices: int32", "ids: int64", "weights: float32"],
        attrs={"num_true": None, "seed": 0, "seed2": 0},
        shape=lambda ctx: [TensorShape([None])] * 3, kernel=_accidental_hits_kernel,
        grad="none")


# -- sampler wrappers ---------------------------------------------------------------------------

def _seeds(seed: Optional[int]) -> dict:
    s1, s2 = get_seed(seed)
    return {"seed": s1 or 0, "seed2": s2 or 0}


def _sampler(op_type: str, true_classes: Any, attrs: dict, name: Optional[str]) -> tuple:
    return tuple(apply_op(op_type, [true_classes], attrs, name=name)._outputs)


def uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                              range_max: int, seed: Optional[int] = None,
                              name: Optional[str] = None) -> tuple:
    """`tf.nn.uniform_candidate_sampler`."""
    return _sampler("UniformCandidateSampler", true_classes,
                    dict(_seeds(seed), num_true=int(num_true), num_sampled=int(num_sampled),
                         unique=bool(unique), range_max=int(range_max)), name)


def log_uniform_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int,
                                  unique: bool, range_max: int, seed: Optional[int] = None,
                                  name: Optional[str] = None) -> tuple:
    """`tf.nn.log_uniform_candidate_sampler` (Zipfian)."""
    return _sampler("LogUniformCandidateSampler", true_classes,
                    dict(_seeds(seed), num_true=int(num_true), num_sampled=int(num_sampled),
                         unique=bool(unique), range_max=int(range_max)), name)


def learned_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int,
                                      unique: bool, range_max: int,
                                      seed: Optional[int] = None,
                                      name: Optional[str] = None) -> tuple:
    """`tf.nn.learned_unigram_candidate_sampler`: unigram counts of the true classes seen."""
    if range_max > 2147483647:
        raise ValueError(f"Value of range_max:{range_max} is too large to handle")
    return _sampler("LearnedUnigramCandidateSampler", true_classes,
                    dict(_seeds(seed), num_true=int(num_true), num_sampled=int(num_sampled),
                         unique=bool(unique), range_max=int(range_max)), name)


def fixed_unigram_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int,
                                    unique: bool, range_max: int, vocab_file: str = "",
                                    distortion: float = 1.0, num_reserved_ids: int = 0,
                                    num_shards: int = 1, shard: int = 0,
                                    unigrams: Sequence[float] = (), seed: Optional[int] = None,
                                    name: Optional[str] = None) -> tuple:
    """`tf.nn.fixed_unigram_candidate_sampler`: a fixed unigram distribution."""
    return _sampler("FixedUnigramCandidateSampler", true_classes,
                    dict(_seeds(seed), num_true=int(num_true), num_sampled=int(num_sampled),
                         unique=bool(unique), range_max=int(range_max),
                         vocab_file=vocab_file, distortion=float(distortion),
                         num_reserved_ids=int(num_reserved_ids), num_shards=int(num_shards),
                         shard=int(shard), unigrams=[float(u) for u in unigrams]), name)


def all_candidate_sampler(true_classes: Any, num_true: int, num_sampled: int, unique: bool,
                          seed: Optional[int] = None, name: Optional[str] = None) -> tuple:
    """`tf.nn.all_candidate_sampler`: every class, for testing sampled losses."""
    return _sampler("AllCandidateSampler", true_classes,
                    dict(_seeds(seed), num_true=int(num_true), num_sampled=int(num_sampled),
                         unique=bool(unique)), name)


def compute_accidental_hits(true_classes: Any, sampled_candidates: Any, num_true: int,
                            seed: Optional[int] = None, name: Optional[str] = None) -> tuple:
    """`tf.nn.compute_accidental_hits`: (row, position, -FLT_MAX) for sampled true classes."""
    return tuple(apply_op("ComputeAccidentalHits", [true_classes, sampled_candidates],
                          dict(_seeds(seed), num_true=int(num_true)), name=name)._outputs)


# -- sampled losses -----------------------------------------------------------------------------

def _sum_rows(x: Tensor) -> Tensor:
    cols = array_ops.shape(x)[1]
    ones_shape = array_ops.stack([cols, 1])
    return array_ops.reshape(matmul(x, ones(ones_shape, x.dtype)), [-1])


def _compute_sampled_logits(weights: Any, biases: Any, labels: Any, inputs: Any,
                            num_sampled: int, num_classes: int, num_true: int = 1,
                            sampled_values: Any = None, subtract_log_q: bool = True,
                            remove_accidental_hits: bool = False,
                            partition_strategy: str = "mod", name: Optional[str] = None,
                            seed: Optional[int] = None) -> tuple:
    from tf1compat.ops.sparse_ops import sparse_to_dense
    if hasattr(weights, "_get_variable_list"):
        weights = list(weights)
    if not isinstance(weights, list):
        weights = [weights]
    with name_scope(name, "compute_sampled_logits", weights + [biases, inputs, labels]):
        labels = convert_to_tensor(labels) if not isinstance(labels, Tensor) else labels
        inputs = convert_to_tensor(inputs) if not isinstance(inputs, Tensor) else inputs
        if labels.dtype != D.int64:
            labels = math_ops.cast(labels, D.int64)
        labels_flat = array_ops.reshape(labels, [-1])
        if sampled_values is None:
            sampled_values = log_uniform_candidate_sampler(
                true_classes=labels, num_true=num_true, num_sampled=num_sampled, unique=True,
                range_max=num_classes, seed=seed)
        sampled, true_expected, sampled_expected = (array_ops.stop_gradient(s)
                                                    for s in sampled_values)
        sampled = math_ops.cast(sampled, D.int64)
        all_ids = array_ops.concat([labels_flat, sampled], 0)
        all_w = embedding_lookup(weights, all_ids, partition_strategy=partition_strategy)
        if all_w.dtype != inputs.dtype:
            all_w = math_ops.cast(all_w, inputs.dtype)
        n_true = array_ops.shape(labels_flat)[0]
        true_w = _slice(all_w, [0, 0], array_ops.stack([n_true, -1]))
        sampled_w = _slice(all_w, array_ops.stack([array_ops.shape(labels_flat)[0], 0]),
                           [-1, -1])
        sampled_logits = matmul(inputs, sampled_w, transpose_b=True)
        all_b = embedding_lookup(biases, all_ids, partition_strategy=partition_strategy)
        if all_b.dtype != inputs.dtype:
            all_b = math_ops.cast(all_b, inputs.dtype)
        true_b = _slice(all_b, [0], array_ops.shape(labels_flat))
        sampled_b = _slice(all_b, array_ops.shape(labels_flat), [-1])
        dim = array_ops.shape(true_w)[1:2]
        new_true_w_shape = array_ops.concat([[-1, num_true], dim], 0)
        row_wise_dots = math_ops.multiply(array_ops.expand_dims(inputs, 1),
                                          array_ops.reshape(true_w, new_true_w_shape))
        dots = array_ops.reshape(row_wise_dots, array_ops.concat([[-1], dim], 0))
        true_logits = array_ops.reshape(_sum_rows(dots), [-1, num_true])
        true_b = array_ops.reshape(true_b, [-1, num_true])
        true_logits += true_b
        sampled_logits += sampled_b
        if remove_accidental_hits:
            acc_indices, acc_ids, acc_weights = compute_accidental_hits(labels, sampled,
                                                                        num_true=num_true)
            acc_indices_2d = array_ops.reshape(acc_indices, [-1, 1])
            acc_ids_2d = array_ops.reshape(math_ops.cast(acc_ids, D.int32), [-1, 1])
            sparse_indices = array_ops.concat([acc_indices_2d, acc_ids_2d], 1, "sparse_indices")
            logits_shape = array_ops.concat([array_ops.shape(labels)[:1],
                                             array_ops.expand_dims(num_sampled, 0)], 0)
            if sampled_logits.dtype != acc_weights.dtype:
                acc_weights = math_ops.cast(acc_weights, sampled_logits.dtype)
            sampled_logits += sparse_to_dense(sparse_indices, logits_shape, acc_weights,
                                              default_value=0.0, validate_indices=False)
        if subtract_log_q:
            true_logits -= math_ops.log(true_expected)
            sampled_logits -= math_ops.log(sampled_expected)
        out_logits = array_ops.concat([true_logits, sampled_logits], 1)
        out_labels = array_ops.concat([ones_like(true_logits) / num_true,
                                       zeros_like(sampled_logits)], 1)
        return out_logits, out_labels


def nce_loss(weights: Any, biases: Any, labels: Any, inputs: Any, num_sampled: int,
             num_classes: int, num_true: int = 1, sampled_values: Any = None,
             remove_accidental_hits: bool = False, partition_strategy: str = "mod",
             name: str = "nce_loss") -> Tensor:
    """`tf.nn.nce_loss`: noise-contrastive estimation loss per example."""
    from tf1compat.ops.nn_losses import sigmoid_cross_entropy_with_logits
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name)
    sampled_losses = sigmoid_cross_entropy_with_logits(labels=labels, logits=logits,
                                                       name="sampled_losses")
    return _sum_rows(sampled_losses)


def sampled_softmax_loss(weights: Any, biases: Any, labels: Any, inputs: Any,
                         num_sampled: int, num_classes: int, num_true: int = 1,
                         sampled_values: Any = None, remove_accidental_hits: bool = True,
                         partition_strategy: str = "mod", name: str = "sampled_softmax_loss",
                         seed: Optional[int] = None) -> Tensor:
    """`tf.nn.sampled_softmax_loss`: softmax over the true and sampled classes only."""
    from tf1compat.ops.nn_losses import softmax_cross_entropy_with_logits_v2
    logits, labels = _compute_sampled_logits(
        weights=weights, biases=biases, labels=labels, inputs=inputs, num_sampled=num_sampled,
        num_classes=num_classes, num_true=num_true, sampled_values=sampled_values,
        subtract_log_q=True, remove_accidental_hits=remove_accidental_hits,
        partition_strategy=partition_strategy, name=name, seed=seed)
    labels = array_ops.stop_gradient(labels, name="labels_stop_gradient")
    return softmax_cross_entropy_with_logits_v2(labels=labels, logits=logits)
