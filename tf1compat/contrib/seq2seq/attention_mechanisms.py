"""The attention mechanisms of `tf.contrib.seq2seq` (TF 1.15 semantics): Bahdanau (additive,
optionally weight-normalized) and Luong (multiplicative, optionally scaled) attention, their
monotonic variants, and the `hardmax` / `safe_cumprod` / `monotonic_attention` functions.

A mechanism holds the memory (masked past `memory_sequence_length`), its keys (the memory
through a bias-free `memory_layer` Dense) and, called with a query and the previous state,
returns `(alignments, next_state)`. Variables are named as TF names them
(`memory_layer/kernel`, `bahdanau_attention/query_layer/kernel`,
`bahdanau_attention/attention_v`, `luong_attention/attention_g`, ...) so checkpoints match.
"""

from __future__ import annotations

import functools
import math
from typing import Any, Callable, Optional

import numpy as np

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.layers.layers import Dense
from tf1compat.ops import namespace as ops
from tf1compat.ops.check_ops import assert_positive
from tf1compat.ops.creation_ops import one_hot
from tf1compat.ops.functional_ops import scan
from tf1compat.ops.indexing_ops import sequence_mask
from tf1compat.ops.math_ops import exp, log
from tf1compat.ops.nn_ops import softmax
from tf1compat.ops.random_ops import random_normal
from tf1compat.ops.reduction_ops import argmax, cumprod, cumsum
from tf1compat.rnn.cell_base import zero_state_tensors
from tf1compat.variables.init_ops import Constant, Ones, Zeros
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["AttentionMechanism", "BahdanauAttention", "LuongAttention",
           "BahdanauMonotonicAttention", "LuongMonotonicAttention", "hardmax",
           "safe_cumprod", "monotonic_attention"]


def _dim(t: Tensor, axis: int) -> Any:
    """The static size of `t` along `axis` as an int, else `tf.shape(t)[axis]`."""
    value = dimension_value(t.shape[axis])
    return value if value is not None else ops.shape(t)[axis]


class AttentionMechanism:
    """Marker base class of the attention mechanisms AttentionWrapper accepts."""

    @property
    def alignments_size(self) -> Any:
        raise NotImplementedError

    @property
    def state_size(self) -> Any:
        raise NotImplementedError


def _mask_memory(memory: Any, memory_sequence_length: Any, check_inner_dims_defined: bool) -> Any:
    """The memory as tensors, rows past their sequence length set to zero."""
    memory = nest.map_structure(lambda m: ops.convert_to_tensor(m, name="memory"), memory)
    if check_inner_dims_defined:
        for m in nest.flatten(memory):
            if not m.shape[2:].is_fully_defined():
                raise ValueError(f"Expected memory {m.name} to have fully defined inner dims, "
                                 f"but saw shape: {m.shape}")
    if memory_sequence_length is None:
        return memory
    memory_sequence_length = ops.convert_to_tensor(memory_sequence_length,
                                                   name="memory_sequence_length")
    first = nest.flatten(memory)[0]
    mask = sequence_mask(memory_sequence_length, maxlen=ops.shape(first)[1], dtype=first.dtype)

    def apply(m: Tensor) -> Tensor:
        rank = m.shape.rank if m.shape.rank is not None else ops.rank(m)
        trailing = ops.ones(rank - 2, dtype=D.int32)
        return m * ops.reshape(mask, ops.concat((ops.shape(mask), trailing), 0))
    return nest.map_structure(apply, memory)


def _mask_score(score: Tensor, memory_sequence_length: Any, score_mask_value: Any) -> Tensor:
    """Scores past each row's memory length replaced by `score_mask_value` (-inf)."""
    if memory_sequence_length is None:
        return score
    message = "All values in memory_sequence_length must be greater than zero."
    with ops.control_dependencies([assert_positive(memory_sequence_length, message=message)]):
        mask = sequence_mask(memory_sequence_length, maxlen=ops.shape(score)[1])
    return ops.where(mask, score, score_mask_value * ops.ones_like(score))


class _BaseAttentionMechanism(AttentionMechanism):
    """Memory, keys and the masked probability function shared by every mechanism."""

    def __init__(self, query_layer: Optional[Layer], memory: Any, probability_fn: Callable,
                 memory_sequence_length: Any = None, memory_layer: Optional[Layer] = None,
                 check_inner_dims_defined: bool = True, score_mask_value: Any = None,
                 custom_key_value_fn: Optional[Callable] = None,
                 name: Optional[str] = None) -> None:
        if query_layer is not None and not isinstance(query_layer, Layer):
            raise TypeError(f"query_layer is not a Layer: {type(query_layer).__name__}")
        if memory_layer is not None and not isinstance(memory_layer, Layer):
            raise TypeError(f"memory_layer is not a Layer: {type(memory_layer).__name__}")
        self._query_layer = query_layer
        self._memory_layer = memory_layer
        self.dtype = memory_layer.dtype
        if not callable(probability_fn):
            raise TypeError("probability_fn must be callable, saw type: "
                            f"{type(probability_fn).__name__}")
        if score_mask_value is None:
            score_mask_value = D.as_dtype(self._memory_layer.dtype).as_numpy_dtype(-np.inf)
        self._probability_fn = lambda score, prev: probability_fn(
            _mask_score(score, memory_sequence_length, score_mask_value), prev)
        with name_scope(name, "BaseAttentionMechanismInit", nest.flatten(memory)):
            self._values = _mask_memory(memory, memory_sequence_length,
                                        check_inner_dims_defined)
            self._keys = self.memory_layer(self._values) if self.memory_layer \
                else self._values
            if custom_key_value_fn is not None:
                self._keys, self._values = custom_key_value_fn(self._keys, self._values)
            self._batch_size = _dim(self._keys, 0)
            self._alignments_size = _dim(self._keys, 1)

    @property
    def memory_layer(self) -> Optional[Layer]:
        return self._memory_layer

    @property
    def query_layer(self) -> Optional[Layer]:
        return self._query_layer

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def keys(self) -> Tensor:
        return self._keys

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def alignments_size(self) -> Any:
        return self._alignments_size

    @property
    def state_size(self) -> Any:
        return self._alignments_size

    def initial_alignments(self, batch_size: Any, dtype: Any) -> Tensor:
        """All-zero alignments `[batch_size, max_time]`."""
        return zero_state_tensors(self._alignments_size, batch_size, dtype)

    def initial_state(self, batch_size: Any, dtype: Any) -> Any:
        """The mechanism's first state: its initial alignments."""
        return self.initial_alignments(batch_size, dtype)


def _luong_score(query: Tensor, keys: Tensor, scale: Optional[Tensor]) -> Tensor:
    depth, key_units = dimension_value(query.shape[-1]), dimension_value(keys.shape[-1])
    if depth != key_units:
        raise ValueError(
            "Incompatible or unknown inner dimensions between query and keys.  Query "
            f"({query}) has units: {depth}.  Keys ({keys}) have units: {key_units}.  Perhaps "
            f"you need to set num_units to the keys' dimension ({key_units})?")
    score = ops.squeeze(ops.matmul(ops.expand_dims(query, 1), keys, transpose_b=True), [1])
    return score if scale is None else scale * score


def _bahdanau_score(processed_query: Tensor, keys: Tensor, attention_v: Tensor,
                    attention_g: Optional[Tensor] = None,
                    attention_b: Optional[Tensor] = None) -> Tensor:
    processed_query = ops.expand_dims(processed_query, 1)
    if attention_g is not None and attention_b is not None:
        # weight normalization: v scaled to norm g
        normed_v = attention_g * attention_v * ops.rsqrt(
            ops.reduce_sum(ops.square(attention_v)))
        return ops.reduce_sum(normed_v * ops.tanh(keys + processed_query + attention_b), [2])
    return ops.reduce_sum(attention_v * ops.tanh(keys + processed_query), [2])


def _bahdanau_variables(num_units: int, normalize: bool, dtype: Any) -> tuple:
    attention_v = get_variable("attention_v", [num_units], dtype=dtype)
    if not normalize:
        return attention_v, None, None
    attention_g = get_variable("attention_g", dtype=dtype, shape=(),
                               initializer=Constant(math.sqrt(1.0 / num_units)))
    attention_b = get_variable("attention_b", [num_units], dtype=dtype, initializer=Zeros())
    return attention_v, attention_g, attention_b


class LuongAttention(_BaseAttentionMechanism):
    """Multiplicative attention: score = query · keys (times a learned scalar `attention_g`
    when `scale`). The query's depth must equal `num_units`."""

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
                 scale: bool = False, probability_fn: Optional[Callable] = None,
                 score_mask_value: Any = None, dtype: Any = None,
                 custom_key_value_fn: Optional[Callable] = None,
                 name: str = "LuongAttention") -> None:
        probability_fn = probability_fn or softmax
        super().__init__(
            query_layer=None,
            memory_layer=Dense(num_units, name="memory_layer", use_bias=False,
                               dtype=dtype or D.float32),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            custom_key_value_fn=custom_key_value_fn, name=name)
        self._num_units = num_units
        self._scale = scale
        self._name = name

    def _score(self, query: Tensor) -> Tensor:
        attention_g = get_variable("attention_g", dtype=query.dtype, initializer=Ones(),
                                   shape=()) if self._scale else None
        return _luong_score(query, self._keys, attention_g)

    def __call__(self, query: Tensor, state: Any) -> tuple:
        with variable_scope(None, "luong_attention", [query]):
            score = self._score(query)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


class BahdanauAttention(_BaseAttentionMechanism):
    """Additive attention: score = v · tanh(keys + query_layer(query)); with `normalize`,
    v is weight-normalized (`attention_g`, `attention_b`)."""

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
                 normalize: bool = False, probability_fn: Optional[Callable] = None,
                 score_mask_value: Any = None, dtype: Any = None,
                 custom_key_value_fn: Optional[Callable] = None,
                 name: str = "BahdanauAttention") -> None:
        probability_fn = probability_fn or softmax
        dtype = dtype or D.float32
        super().__init__(
            query_layer=Dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
            memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
            memory=memory, probability_fn=lambda score, _: probability_fn(score),
            custom_key_value_fn=custom_key_value_fn,
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name

    def _score(self, query: Tensor) -> Tensor:
        processed_query = self.query_layer(query) if self.query_layer else query
        v, g, b = _bahdanau_variables(self._num_units, self._normalize, query.dtype)
        return _bahdanau_score(processed_query, self._keys, v, g, b)

    def __call__(self, query: Tensor, state: Any) -> tuple:
        with variable_scope(None, "bahdanau_attention", [query]):
            score = self._score(query)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def hardmax(logits: Any, name: Optional[str] = None) -> Tensor:
    """`tf.contrib.seq2seq.hardmax`: one-hot of the argmax along the last axis."""
    with name_scope(name, "Hardmax", [logits]):
        logits = ops.convert_to_tensor(logits, name="logits")
        return one_hot(argmax(logits, -1), _dim(logits, -1), dtype=logits.dtype)


def safe_cumprod(x: Any, *args: Any, **kwargs: Any) -> Tensor:
    """`tf.contrib.seq2seq.safe_cumprod`: cumprod computed as exp(cumsum(log x)), with x
    clipped to [tiny, 1] so the gradient stays finite."""
    with name_scope(None, "SafeCumprod", [x]):
        x = ops.convert_to_tensor(x, name="x")
        tiny = np.finfo(x.dtype.as_numpy_dtype).tiny
        return exp(cumsum(log(ops.clip_by_value(x, tiny, 1)), *args, **kwargs))


def monotonic_attention(p_choose_i: Any, previous_attention: Any, mode: str) -> Tensor:
    """`tf.contrib.seq2seq.monotonic_attention`: the expected monotonic alignment given the
    per-entry choose probabilities, by a `scan` ("recursive"), closed form with
    safe_cumprod ("parallel"), or for 0/1 probabilities ("hard")."""
    p_choose_i = ops.convert_to_tensor(p_choose_i, name="p_choose_i")
    previous_attention = ops.convert_to_tensor(previous_attention, name="previous_attention")
    if mode == "recursive":
        batch_size = _dim(p_choose_i, 0)
        shifted = ops.concat([ops.ones((batch_size, 1)), 1 - p_choose_i[:, :-1]], 1)
        carried = scan(lambda x, yz: ops.reshape(yz[0] * x + yz[1], (batch_size,)),
                       [ops.transpose(shifted), ops.transpose(previous_attention)],
                       ops.zeros((batch_size,)))
        return p_choose_i * ops.transpose(carried)
    if mode == "parallel":
        cumprod_1mp = safe_cumprod(1 - p_choose_i, axis=1, exclusive=True)
        return p_choose_i * cumprod_1mp * cumsum(
            previous_attention / ops.clip_by_value(cumprod_1mp, 1e-10, 1.0), axis=1)
    if mode == "hard":
        p_choose_i = p_choose_i * cumsum(previous_attention, axis=1)
        return p_choose_i * cumprod(1 - p_choose_i, axis=1, exclusive=True)
    raise ValueError("mode must be 'recursive', 'parallel', or 'hard'.")


def _monotonic_probability_fn(score: Tensor, previous_alignments: Tensor, sigmoid_noise: float,
                              mode: str, seed: Optional[int] = None) -> Tensor:
    if sigmoid_noise > 0:
        score += sigmoid_noise * random_normal(ops.shape(score), dtype=score.dtype, seed=seed)
    if mode == "hard":
        p_choose_i = ops.cast(ops.greater(score, 0), score.dtype)
    else:
        p_choose_i = ops.sigmoid(score)
    return monotonic_attention(p_choose_i, previous_alignments, mode)


class _MonotonicMixin:
    """Monotonic mechanisms start attending at the first memory entry and add a learned
    scalar `attention_score_bias` to the score."""

    _score_bias_init: float
    _scope_name: str

    def initial_alignments(self, batch_size: Any, dtype: Any) -> Tensor:
        return one_hot(ops.zeros((batch_size,), dtype=D.int32), self._alignments_size,
                       dtype=dtype)

    def __call__(self, query: Tensor, state: Any) -> tuple:
        with variable_scope(None, self._scope_name, [query]):
            score = self._score(query)
            score += get_variable("attention_score_bias", dtype=query.dtype,
                                  initializer=self._score_bias_init)
        alignments = self._probability_fn(score, state)
        return alignments, alignments


def _monotonic_fn(sigmoid_noise: float, sigmoid_noise_seed: Optional[int],
                  mode: str) -> Callable:
    return functools.partial(_monotonic_probability_fn, sigmoid_noise=sigmoid_noise,
                             mode=mode, seed=sigmoid_noise_seed)


class BahdanauMonotonicAttention(_MonotonicMixin, BahdanauAttention):
    """Bahdanau attention with monotonic alignments (Raffel et al., 2017)."""

    _scope_name = "bahdanau_monotonic_attention"

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
                 normalize: bool = False, score_mask_value: Any = None,
                 sigmoid_noise: float = 0.0, sigmoid_noise_seed: Optional[int] = None,
                 score_bias_init: float = 0.0, mode: str = "parallel", dtype: Any = None,
                 name: str = "BahdanauMonotonicAttention") -> None:
        dtype = dtype or D.float32
        _BaseAttentionMechanism.__init__(
            self,
            query_layer=Dense(num_units, name="query_layer", use_bias=False, dtype=dtype),
            memory_layer=Dense(num_units, name="memory_layer", use_bias=False, dtype=dtype),
            memory=memory, probability_fn=_monotonic_fn(sigmoid_noise, sigmoid_noise_seed,
                                                        mode),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            name=name)
        self._num_units = num_units
        self._normalize = normalize
        self._name = name
        self._score_bias_init = score_bias_init


class LuongMonotonicAttention(_MonotonicMixin, LuongAttention):
    """Luong attention with monotonic alignments (Raffel et al., 2017)."""

    _scope_name = "luong_monotonic_attention"

    def __init__(self, num_units: int, memory: Any, memory_sequence_length: Any = None,
                 scale: bool = False, score_mask_value: Any = None,
                 sigmoid_noise: float = 0.0, sigmoid_noise_seed: Optional[int] = None,
                 score_bias_init: float = 0.0, mode: str = "parallel", dtype: Any = None,
                 name: str = "LuongMonotonicAttention") -> None:
        _BaseAttentionMechanism.__init__(
            self, query_layer=None,
            memory_layer=Dense(num_units, name="memory_layer", use_bias=False,
                               dtype=dtype or D.float32),
            memory=memory, probability_fn=_monotonic_fn(sigmoid_noise, sigmoid_noise_seed,
                                                        mode),
            memory_sequence_length=memory_sequence_length, score_mask_value=score_mask_value,
            name=name)
        self._num_units = num_units
        self._scale = scale
        self._name = name
        self._score_bias_init = score_bias_init
