"""The sampling helpers of `tf.contrib.seq2seq`'s BasicDecoder (TF 1.15 semantics): what a
step's outputs sample (`sample`) and what the next step reads (`next_inputs`).

TrainingHelper reads the ground-truth inputs from a TensorArray (teacher forcing);
GreedyEmbeddingHelper feeds back the embedding of the argmax; SampleEmbeddingHelper of
a categorical sample; ScheduledEmbeddingTrainingHelper mixes the two per row with
probability `sampling_probability`; InferenceHelper and CustomHelper take user functions.
Sampling draws from tf1compat's random streams, so sampled ids do not reproduce TF's.
"""

from __future__ import annotations

import abc
from typing import Any, Callable, Optional

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import namespace as ops
from tf1compat.ops.array_ops import size
from tf1compat.ops.cond import cond
from tf1compat.ops.indexing_ops import gather_nd, scatter_nd, where
from tf1compat.ops.math_ops import less_equal
from tf1compat.ops.nn_embedding import embedding_lookup
from tf1compat.ops.random_ops import multinomial
from tf1compat.ops.reduction_ops import argmax
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.rnn.dynamic import transpose_batch_time

__all__ = ["Helper", "CustomHelper", "TrainingHelper", "GreedyEmbeddingHelper",
           "SampleEmbeddingHelper", "ScheduledEmbeddingTrainingHelper",
           "ScheduledOutputTrainingHelper", "InferenceHelper"]


def _unstack_ta(inp: Tensor) -> TensorArray:
    return TensorArray(dtype=inp.dtype, size=ops.shape(inp)[0],
                       element_shape=inp.shape[1:]).unstack(inp)


def _embedding_fn(embedding: Any) -> Callable[[Tensor], Tensor]:
    if callable(embedding):
        return embedding
    return lambda ids: embedding_lookup(embedding, ids)


def _sample_categorical(logits: Tensor, seed: Optional[int]) -> Tensor:
    """One int32 id per row drawn from softmax(logits) (TF's Categorical(logits).sample())."""
    logits_2d = ops.reshape(logits, [-1, ops.shape(logits)[-1]])
    draws = multinomial(logits_2d, 1, seed=seed, output_dtype=D.int32)
    return ops.reshape(draws, ops.shape(logits)[:-1])


class Helper(abc.ABC):
    """The interface BasicDecoder drives (`tf.contrib.seq2seq.Helper`)."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any:
        """The batch size (a scalar int32 tensor)."""

    @property
    @abc.abstractmethod
    def sample_ids_shape(self) -> TensorShape:
        """The shape of one row's sample ids (a TensorShape)."""

    @property
    @abc.abstractmethod
    def sample_ids_dtype(self) -> D.DType:
        """The dtype of the sample ids."""

    @abc.abstractmethod
    def initialize(self, name: Optional[str] = None) -> Any:
        """`(initial_finished, initial_inputs)`."""

    @abc.abstractmethod
    def sample(self, time: Any, outputs: Any, state: Any, name: Optional[str] = None) -> Any:
        """The sample ids of one step's outputs."""

    @abc.abstractmethod
    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: Optional[str] = None) -> Any:
        """`(finished, next_inputs, next_state)`."""


class CustomHelper(Helper):
    """A Helper from user functions: `initialize_fn()`, `sample_fn(time, outputs, state)`,
    `next_inputs_fn(time, outputs, state, sample_ids)`."""

    def __init__(self, initialize_fn: Callable, sample_fn: Callable, next_inputs_fn: Callable,
                 sample_ids_shape: Any = None, sample_ids_dtype: Any = None) -> None:
        self._initialize_fn = initialize_fn
        self._sample_fn = sample_fn
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = None
        self._sample_ids_shape = TensorShape(sample_ids_shape or [])
        self._sample_ids_dtype = D.as_dtype(sample_ids_dtype or D.int32)

    @property
    def batch_size(self) -> Any:
        if self._batch_size is None:
            raise ValueError("batch_size accessed before initialize was called")
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return self._sample_ids_shape

    @property
    def sample_ids_dtype(self) -> D.DType:
        return self._sample_ids_dtype

    def initialize(self, name: Optional[str] = None) -> Any:
        with name_scope(name, f"{type(self).__name__}Initialize"):
            finished, next_inputs = self._initialize_fn()
            if self._batch_size is None:
                self._batch_size = size(finished)
        return finished, next_inputs

    def sample(self, time: Any, outputs: Any, state: Any, name: Optional[str] = None) -> Any:
        with name_scope(name, f"{type(self).__name__}Sample", (time, outputs, state)):
            return self._sample_fn(time=time, outputs=outputs, state=state)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: Optional[str] = None) -> Any:
        with name_scope(name, f"{type(self).__name__}NextInputs", (time, outputs, state)):
            return self._next_inputs_fn(time=time, outputs=outputs, state=state,
                                        sample_ids=sample_ids)


class TrainingHelper(Helper):
    """Teacher forcing: step t reads `inputs[:, t]` (`inputs[t]` when time-major); a row is
    finished once `t + 1 >= sequence_length`; sample ids are the argmax of the outputs."""

    def __init__(self, inputs: Any, sequence_length: Any, time_major: bool = False,
                 name: Optional[str] = None) -> None:
        with name_scope(name, "TrainingHelper", [inputs, sequence_length]):
            inputs = nest.map_structure(lambda x: ops.convert_to_tensor(x, name="inputs"),
                                        inputs)
            self._inputs = inputs
            if not time_major:
                inputs = nest.map_structure(transpose_batch_time, inputs)
            self._input_tas = nest.map_structure(_unstack_ta, inputs)
            self._sequence_length = ops.convert_to_tensor(sequence_length,
                                                          name="sequence_length")
            if self._sequence_length.shape.rank != 1:
                raise ValueError("Expected sequence_length to be a vector, but received "
                                 f"shape: {self._sequence_length.shape}")
            self._zero_inputs = nest.map_structure(lambda x: ops.zeros_like(x[0, :]), inputs)
            self._batch_size = size(sequence_length)

    @property
    def inputs(self) -> Any:
        return self._inputs

    @property
    def sequence_length(self) -> Tensor:
        return self._sequence_length

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> D.DType:
        return D.int32

    def _read_or_zeros(self, finished: Tensor, time: Any) -> Any:
        return cond(ops.reduce_all(finished), lambda: self._zero_inputs,
                    lambda: nest.map_structure(lambda ta: ta.read(time), self._input_tas))

    def initialize(self, name: Optional[str] = None) -> Any:
        with name_scope(name, "TrainingHelperInitialize"):
            finished = ops.equal(0, self._sequence_length)
            return finished, self._read_or_zeros(finished, 0)

    def sample(self, time: Any, outputs: Any, state: Any = None,
               name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        with name_scope(name, "TrainingHelperSample", [time, outputs]):
            return ops.cast(argmax(outputs, axis=-1), D.int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, name: Optional[str] = None,
                    **unused_kwargs: Any) -> Any:
        with name_scope(name, "TrainingHelperNextInputs", [time, outputs, state]):
            next_time = time + 1
            finished = ops.greater_equal(next_time, self._sequence_length)
            return finished, self._read_or_zeros(finished, next_time), state


def _bernoulli_sample(probs: Tensor, n: Any, seed: Optional[int]) -> Tensor:
    """int32 draws of shape [n] + shape(probs), 1 with probability `probs`."""
    shape = ops.concat([[n], ops.shape(probs)], 0)
    return ops.cast(ops.less(ops.random_uniform(shape, seed=seed, dtype=probs.dtype), probs),
                    D.int32)


def _scatter_two(where_a: Tensor, updates_a: Any, where_b: Tensor, updates_b: Any,
                 like: Tensor) -> Tensor:
    """Rows `where_a` from `updates_a` and rows `where_b` from `updates_b`, in `like`'s shape."""
    base_shape = ops.shape(like)
    return scatter_nd(where_a, updates_a, base_shape) + scatter_nd(where_b, updates_b,
                                                                   base_shape)


class ScheduledEmbeddingTrainingHelper(TrainingHelper):
    """Scheduled sampling: each row's next input is, with probability
    `sampling_probability`, the embedding of an id sampled from the outputs, else the
    ground truth. Rows not sampled get sample id -1."""

    def __init__(self, inputs: Any, sequence_length: Any, embedding: Any,
                 sampling_probability: Any, time_major: bool = False,
                 seed: Optional[int] = None, scheduling_seed: Optional[int] = None,
                 name: Optional[str] = None) -> None:
        with name_scope(name, "ScheduledEmbeddingSamplingWrapper",
                        [embedding, sampling_probability]):
            self._embedding_fn = _embedding_fn(embedding)
            self._sampling_probability = ops.convert_to_tensor(
                sampling_probability, name="sampling_probability")
            if self._sampling_probability.shape.rank not in (0, 1):
                raise ValueError("sampling_probability must be either a scalar or a vector. "
                                 f"saw shape: {self._sampling_probability.shape}")
            self._seed = seed
            self._scheduling_seed = scheduling_seed
            super().__init__(inputs=inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def initialize(self, name: Optional[str] = None) -> Any:
        return super().initialize(name=name)

    def sample(self, time: Any, outputs: Any, state: Any = None,
               name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        with name_scope(name, "ScheduledEmbeddingTrainingHelperSample",
                        [time, outputs, state]):
            noise = ops.random_uniform([self.batch_size], seed=self._scheduling_seed)
            select_sample = ops.greater(self._sampling_probability, noise)
            return where(select_sample, _sample_categorical(outputs, self._seed),
                         ops.fill([self.batch_size], -1))

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any = None,
                    name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        with name_scope(name, "ScheduledEmbeddingTrainingHelperNextInputs",
                        [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(time, outputs, state,
                                                                    name=name)

            def maybe_sample() -> Tensor:
                where_sampling = ops.cast(where(ops.greater(sample_ids, -1)), D.int32)
                where_not_sampling = ops.cast(where(less_equal(sample_ids, -1)),
                                              D.int32)
                return _scatter_two(
                    where_sampling, self._embedding_fn(gather_nd(sample_ids, where_sampling)),
                    where_not_sampling, gather_nd(base_next_inputs, where_not_sampling),
                    base_next_inputs)

            next_inputs = cond(ops.reduce_all(finished), lambda: base_next_inputs,
                               maybe_sample)
            return finished, next_inputs, state


class ScheduledOutputTrainingHelper(TrainingHelper):
    """Scheduled sampling on outputs: with probability `sampling_probability` a row's next
    input is its own output (through `next_inputs_fn` if given, then concatenated with
    `auxiliary_inputs`), else the ground truth."""

    def __init__(self, inputs: Any, sequence_length: Any, sampling_probability: Any,
                 time_major: bool = False, seed: Optional[int] = None,
                 next_inputs_fn: Optional[Callable] = None, auxiliary_inputs: Any = None,
                 name: Optional[str] = None) -> None:
        with name_scope(name, "ScheduledOutputTrainingHelper",
                        [inputs, auxiliary_inputs, sampling_probability]):
            self._sampling_probability = ops.convert_to_tensor(
                sampling_probability, name="sampling_probability")
            if self._sampling_probability.shape.rank not in (0, 1):
                raise ValueError("sampling_probability must be either a scalar or a vector. "
                                 f"saw shape: {self._sampling_probability.shape}")
            if auxiliary_inputs is None:
                full_inputs = inputs
            else:
                inputs = ops.convert_to_tensor(inputs, name="inputs")
                auxiliary_inputs = ops.convert_to_tensor(auxiliary_inputs,
                                                         name="auxiliary_inputs")
                full_inputs = nest.map_structure(lambda x, y: ops.concat((x, y), -1),
                                                 inputs, auxiliary_inputs)
                if not time_major:
                    auxiliary_inputs = nest.map_structure(transpose_batch_time,
                                                          auxiliary_inputs)
            self._auxiliary_input_tas = None if auxiliary_inputs is None else \
                nest.map_structure(_unstack_ta, auxiliary_inputs)
            self._seed = seed
            self._next_inputs_fn = next_inputs_fn
            super().__init__(inputs=full_inputs, sequence_length=sequence_length,
                             time_major=time_major, name=name)

    def initialize(self, name: Optional[str] = None) -> Any:
        return super().initialize(name=name)

    def sample(self, time: Any, outputs: Any, state: Any = None,
               name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        with name_scope(name, "ScheduledOutputTrainingHelperSample", [time, outputs, state]):
            return _bernoulli_sample(self._sampling_probability, self.batch_size, self._seed)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any = None,
                    name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        with name_scope(name, "ScheduledOutputTrainingHelperNextInputs",
                        [time, outputs, state, sample_ids]):
            finished, base_next_inputs, state = super().next_inputs(time, outputs, state,
                                                                    name=name)
            chosen = ops.cast(sample_ids, D.bool)

            def with_auxiliary(outputs_: Any, indices: Any = None) -> Any:
                if self._auxiliary_input_tas is None:
                    return outputs_
                auxiliary = nest.map_structure(lambda ta: ta.read(time + 1),
                                               self._auxiliary_input_tas)
                if indices is not None:
                    auxiliary = gather_nd(auxiliary, indices)
                return nest.map_structure(lambda x, y: ops.concat((x, y), -1), outputs_,
                                          auxiliary)

            def maybe_sample() -> Tensor:
                if self._next_inputs_fn is None:
                    return where(chosen, with_auxiliary(outputs), base_next_inputs)
                where_sampling = ops.cast(where(chosen), D.int32)
                where_not_sampling = ops.cast(where(ops.logical_not(chosen)), D.int32)
                sampled = with_auxiliary(
                    self._next_inputs_fn(gather_nd(outputs, where_sampling)), where_sampling)
                return _scatter_two(where_sampling, sampled, where_not_sampling,
                                    gather_nd(base_next_inputs, where_not_sampling),
                                    base_next_inputs)

            next_inputs = cond(ops.reduce_all(finished), lambda: base_next_inputs,
                               maybe_sample)
            return finished, next_inputs, state


class GreedyEmbeddingHelper(Helper):
    """Greedy decoding: the next input is the embedding of the argmax id; a row finishes
    when it emits `end_token`."""

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any) -> None:
        self._embedding_fn = _embedding_fn(embedding)
        self._start_tokens = ops.convert_to_tensor(start_tokens, dtype=D.int32,
                                                   name="start_tokens")
        self._end_token = ops.convert_to_tensor(end_token, dtype=D.int32, name="end_token")
        if self._start_tokens.shape.rank != 1:
            raise ValueError("start_tokens must be a vector")
        self._batch_size = size(start_tokens)
        if self._end_token.shape.rank != 0:
            raise ValueError("end_token must be a scalar")
        self._start_inputs = self._embedding_fn(self._start_tokens)

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return TensorShape([])

    @property
    def sample_ids_dtype(self) -> D.DType:
        return D.int32

    def initialize(self, name: Optional[str] = None) -> Any:
        return ops.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any = None,
               name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        if not isinstance(outputs, Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        return argmax(outputs, axis=-1, output_type=D.int32)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        finished = ops.equal(sample_ids, self._end_token)
        next_inputs = cond(ops.reduce_all(finished), lambda: self._start_inputs,
                           lambda: self._embedding_fn(sample_ids))
        return finished, next_inputs, state


class SampleEmbeddingHelper(GreedyEmbeddingHelper):
    """Like GreedyEmbeddingHelper, but the id is sampled from softmax(outputs /
    softmax_temperature)."""

    def __init__(self, embedding: Any, start_tokens: Any, end_token: Any,
                 softmax_temperature: Any = None, seed: Optional[int] = None) -> None:
        super().__init__(embedding, start_tokens, end_token)
        self._softmax_temperature = softmax_temperature
        self._seed = seed

    def sample(self, time: Any, outputs: Any, state: Any = None,
               name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        if not isinstance(outputs, Tensor):
            raise TypeError(f"Expected outputs to be a single Tensor, got: {type(outputs)}")
        logits = outputs if self._softmax_temperature is None else \
            outputs / self._softmax_temperature
        return _sample_categorical(logits, self._seed)


class InferenceHelper(Helper):
    """Inference without embeddings: ids are `sample_fn(outputs)`, the next input is the
    ids themselves (or `next_inputs_fn(ids)`), a row finishes where `end_fn(ids)`."""

    def __init__(self, sample_fn: Callable, sample_shape: Any, sample_dtype: Any,
                 start_inputs: Any, end_fn: Callable,
                 next_inputs_fn: Optional[Callable] = None) -> None:
        self._sample_fn = sample_fn
        self._end_fn = end_fn
        self._sample_shape = TensorShape(sample_shape)
        self._sample_dtype = sample_dtype
        self._next_inputs_fn = next_inputs_fn
        self._batch_size = ops.shape(start_inputs)[0]
        self._start_inputs = ops.convert_to_tensor(start_inputs, name="start_inputs")

    @property
    def batch_size(self) -> Any:
        return self._batch_size

    @property
    def sample_ids_shape(self) -> TensorShape:
        return self._sample_shape

    @property
    def sample_ids_dtype(self) -> Any:
        return self._sample_dtype

    def initialize(self, name: Optional[str] = None) -> Any:
        return ops.tile([False], [self._batch_size]), self._start_inputs

    def sample(self, time: Any, outputs: Any, state: Any = None,
               name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        return self._sample_fn(outputs)

    def next_inputs(self, time: Any, outputs: Any, state: Any, sample_ids: Any,
                    name: Optional[str] = None, **unused_kwargs: Any) -> Any:
        finished = self._end_fn(sample_ids)
        next_inputs = sample_ids if self._next_inputs_fn is None else \
            self._next_inputs_fn(sample_ids)
        return finished, next_inputs, state
