"""`tf.contrib.seq2seq.Decoder` and `dynamic_decode` (TF 1.15 semantics).

`dynamic_decode` runs `decoder.step` in a `tf.while_loop` (ops under `decoder/while/...`,
variables under the `decoder` variable scope, as TF names them so checkpoints match),
writes each step's outputs into TensorArrays, stacks them after the loop and transposes
them to batch-major unless `output_time_major`. A row's sequence length is the step at
which it first reported finished; with `impute_finished` its later outputs are zeros and
its state is copied through. Gradients flow through the loop and TensorArrays by autograd.
"""

from __future__ import annotations

import abc
from typing import Any, Optional, Tuple

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _regions
from tf1compat.ops import namespace as ops
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop
from tf1compat.rnn.cell_base import zero_state_tensors
from tf1compat.rnn.dynamic import transpose_batch_time
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["Decoder", "dynamic_decode"]


class Decoder(abc.ABC):
    """An RNN decoder's interface (`tf.contrib.seq2seq.Decoder`): `initialize` gives
    `(finished, first_inputs, initial_state)`, `step(time, inputs, state)` gives
    `(outputs, next_state, next_inputs, finished)`; `finalize` may post-process the
    stacked outputs (beam search's backtracking)."""

    @property
    @abc.abstractmethod
    def batch_size(self) -> Any:
        """The batch size of the inputs (a scalar int32 tensor or int)."""

    @property
    @abc.abstractmethod
    def output_size(self) -> Any:
        """A (nested) structure of TensorShapes or ints: one step's output size."""

    @property
    @abc.abstractmethod
    def output_dtype(self) -> Any:
        """A (nested) structure of dtypes matching `output_size`."""

    @abc.abstractmethod
    def initialize(self, name: Optional[str] = None) -> Tuple[Any, Any, Any]:
        """`(finished, initial_inputs, initial_state)` before the first step."""

    @abc.abstractmethod
    def step(self, time: Any, inputs: Any, state: Any,
             name: Optional[str] = None) -> Tuple[Any, Any, Any, Any]:
        """One decoding step: `(outputs, next_state, next_inputs, finished)`."""

    def finalize(self, outputs: Any, final_state: Any, sequence_lengths: Any) -> Tuple[Any, Any]:
        """Post-processes the stacked outputs; the base class leaves them as they are
        (dynamic_decode skips a decoder whose finalize raises NotImplementedError)."""
        raise NotImplementedError

    @property
    def tracks_own_finished(self) -> bool:
        """True when the decoder's `finished` already accounts for earlier steps (beam
        search reorders beams, so `dynamic_decode` must not OR them with the last step's)."""
        return False


def _element_shape(batch_size: Any, size: Any) -> Optional[TensorShape]:
    if not isinstance(size, TensorShape) or size.rank == 0:
        return None
    static_batch = constant_value(ops.convert_to_tensor(batch_size, name="batch_size"))
    return TensorShape([static_batch]).concatenate(size)


def dynamic_decode(decoder: Decoder, output_time_major: bool = False,
                   impute_finished: bool = False, maximum_iterations: Any = None,
                   parallel_iterations: int = 32, swap_memory: bool = False,
                   scope: Any = None) -> Tuple[Any, Any, Any]:
    """`tf.contrib.seq2seq.dynamic_decode`: runs `decoder` until every row is finished
    (or `maximum_iterations` steps). Returns `(final_outputs, final_state,
    final_sequence_lengths)`."""
    if not isinstance(decoder, Decoder):
        raise TypeError(f"Expected decoder to be type Decoder, but saw: {type(decoder)}")
    with variable_scope(scope, "decoder") as varscope:
        # TF caches the decoder's variable reads on their devices (no effect on values),
        # except eagerly and inside another while loop.
        in_while_loop = any(c is not None and c.IsWhileContext() for c in _regions.ancestors(
            get_default_graph()._get_control_flow_context()))
        if not executing_eagerly() and not in_while_loop and varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        if maximum_iterations is not None:
            maximum_iterations = ops.convert_to_tensor(maximum_iterations, dtype=D.int32,
                                                       name="maximum_iterations")
            if maximum_iterations.shape.rank != 0:
                raise ValueError("maximum_iterations must be a scalar")
        initial_finished, initial_inputs, initial_state = decoder.initialize()
        zero_outputs = nest.map_structure(
            lambda s, d: zero_state_tensors(s, decoder.batch_size, d),
            decoder.output_size, decoder.output_dtype)
        if maximum_iterations is not None:
            initial_finished = ops.logical_or(initial_finished,
                                              ops.greater_equal(0, maximum_iterations))
        initial_sequence_lengths = ops.zeros_like(initial_finished, dtype=D.int32)
        initial_time = ops.constant(0, dtype=D.int32)
        initial_outputs_ta = nest.map_structure(
            lambda s, d: TensorArray(dtype=d, size=0, dynamic_size=True,
                                     element_shape=_element_shape(decoder.batch_size, s)),
            decoder.output_size, decoder.output_dtype)

        def condition(time, outputs_ta, state, inputs, finished, sequence_lengths):
            return ops.logical_not(ops.reduce_all(finished))

        def body(time, outputs_ta, state, inputs, finished, sequence_lengths):
            next_outputs, decoder_state, next_inputs, decoder_finished = decoder.step(
                time, inputs, state)
            if decoder.tracks_own_finished:
                next_finished = decoder_finished
            else:
                next_finished = ops.logical_or(decoder_finished, finished)
            next_sequence_lengths = where(
                ops.logical_not(finished),
                ops.fill(ops.shape(sequence_lengths), time + 1), sequence_lengths)
            nest.assert_same_structure(state, decoder_state)
            nest.assert_same_structure(outputs_ta, next_outputs)
            nest.assert_same_structure(inputs, next_inputs)
            if impute_finished:
                emit = nest.map_structure(lambda out, zero: where(finished, zero, out),
                                          next_outputs, zero_outputs)

                def keep_finished(new: Any, cur: Any) -> Any:
                    if isinstance(cur, TensorArray):
                        return new
                    new.set_shape(cur.shape)
                    return new if new.shape.rank == 0 else where(finished, cur, new)
                next_state = nest.map_structure(keep_finished, decoder_state, state)
            else:
                emit, next_state = next_outputs, decoder_state
            outputs_ta = nest.map_structure(lambda ta, out: ta.write(time, out),
                                            outputs_ta, emit)
            return (time + 1, outputs_ta, next_state, next_inputs, next_finished,
                    next_sequence_lengths)

        res = while_loop(condition, body,
                         loop_vars=(initial_time, initial_outputs_ta, initial_state,
                                    initial_inputs, initial_finished,
                                    initial_sequence_lengths),
                         parallel_iterations=parallel_iterations,
                         maximum_iterations=maximum_iterations, swap_memory=swap_memory)
        final_state, final_sequence_lengths = res[2], res[5]
        final_outputs = nest.map_structure(lambda ta: ta.stack(), res[1])
        try:
            final_outputs, final_state = decoder.finalize(final_outputs, final_state,
                                                          final_sequence_lengths)
        except NotImplementedError:
            pass
        if not output_time_major:
            final_outputs = nest.map_structure(transpose_batch_time, final_outputs)
    return final_outputs, final_state, final_sequence_lengths
