"""`tf.nn.static_rnn`, `static_bidirectional_rnn` and `static_state_saving_rnn`: the RNN
unrolled in Python over a list of per-step inputs, as TF1 builds it.

Each step calls the cell again in the same variable scope (reused after the first step),
so the graph holds one copy of the cell's ops per step (`rnn/basic_lstm_cell/MatMul`,
`MatMul_1`, ...). With `sequence_length`, each step is TF's `_rnn_step` with its two
conditionals: past the longest row the cell is skipped (zeros, state copied through),
before the shortest row no selection is made.
"""

from __future__ import annotations

from typing import Any, List, Tuple

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import namespace as ops
from tf1compat.rnn.cell_base import assert_like_rnncell, concat_shape
from tf1compat.rnn.dynamic import infer_state_dtype, rnn_step, should_cache
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["static_rnn", "static_bidirectional_rnn", "static_state_saving_rnn"]


def _dim(shape: TensorShape, i: int) -> Any:
    return shape.as_list()[i] if shape.rank is not None else None


def static_rnn(cell: Any, inputs: List[Any], initial_state: Any = None, dtype: Any = None,
               sequence_length: Any = None, scope: Any = None) -> Tuple[List[Any], Any]:
    """`tf.nn.static_rnn`: `outputs[t], state = cell(inputs[t], state)` for each step.

    Returns `(outputs, final_state)` with one output per input.
    """
    assert_like_rnncell("cell", cell)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    outputs: List[Any] = []
    with variable_scope(scope or "rnn") as varscope:
        if should_cache() and varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        first_input = inputs
        while nest.is_nested(first_input):
            first_input = first_input[0]
        if first_input.shape.rank != 1:
            fixed_batch_size = first_input.shape.with_rank_at_least(2)[0]
            for flat_input in nest.flatten(inputs):
                shape = flat_input.shape.with_rank_at_least(2)
                fixed_batch_size.assert_is_compatible_with(shape[0])
                for i, size in enumerate(shape[1:].as_list()):
                    if size is None:
                        raise ValueError(f"Input size (dimension {i} of input {flat_input}) "
                                         "must be accessible via shape inference, but saw "
                                         "value None.")
        else:
            fixed_batch_size = first_input.shape.with_rank_at_least(1)[0]
        static_batch = getattr(fixed_batch_size, "value", fixed_batch_size)
        batch_size = static_batch if static_batch else ops.shape(first_input)[0]
        if initial_state is not None:
            state = initial_state
        else:
            if not dtype:
                raise ValueError("If no initial_state is provided, argument `dtype` must be "
                                 "specified")
            if getattr(cell, "get_initial_state", None) is not None:
                state = cell.get_initial_state(inputs=None, batch_size=batch_size,
                                               dtype=dtype)
            else:
                state = cell.zero_state(batch_size, dtype)

        if sequence_length is not None:
            sequence_length = ops.convert_to_tensor(sequence_length, name="sequence_length")
            if sequence_length.shape.rank not in (None, 1):
                raise ValueError("Argument `sequence_length` must be a vector of length "
                                 f"{batch_size}. Received sequence_length={sequence_length}.")
            state_dtype = infer_state_dtype(dtype, state)

            def zero_output_for(size: Any) -> Any:
                output = ops.zeros(ops.stack(concat_shape(batch_size, size)), state_dtype)
                output.set_shape(TensorShape(concat_shape(static_batch, size, static=True)))
                return output
            output_size = cell.output_size
            zero_output = nest.pack_sequence_as(
                output_size, [zero_output_for(s) for s in nest.flatten(output_size)])
            sequence_length = ops.cast(sequence_length, D.int32)
            min_sequence_length = ops.reduce_min(sequence_length)
            max_sequence_length = ops.reduce_max(sequence_length)

        for time, input_ in enumerate(inputs):
            if time > 0:
                varscope.reuse_variables()

            def call_cell(input_: Any = input_, state: Any = state) -> Tuple[Any, Any]:
                return cell(input_, state)
            if sequence_length is not None:
                output, state = rnn_step(
                    time=time, sequence_length=sequence_length,
                    min_sequence_length=min_sequence_length,
                    max_sequence_length=max_sequence_length, zero_output=zero_output,
                    state=state, call_cell=call_cell, state_size=cell.state_size)
            else:
                output, state = call_cell()
            outputs.append(output)
        return outputs, state


def static_state_saving_rnn(cell: Any, inputs: List[Any], state_saver: Any, state_name: Any,
                            sequence_length: Any = None, scope: Any = None
                            ) -> Tuple[List[Any], Any]:
    """`tf.nn.static_state_saving_rnn`: `static_rnn` starting from, and saving its final
    state to, `state_saver` (`state(name)` / `save_state(name, value)`)."""
    state_size = cell.state_size
    state_is_tuple = nest.is_nested(state_size)
    state_name_tuple = nest.is_nested(state_name)
    if state_is_tuple != state_name_tuple:
        raise ValueError("Argument `state_name` should be the same type as `cell.state_size`. "
                         f"Received: state_name={state_name!s}, "
                         f"cell.state_size={state_size!s}.")
    if state_is_tuple:
        names = nest.flatten(state_name)
        sizes = nest.flatten(state_size)
        if len(names) != len(sizes):
            raise ValueError("Number of elements in argument `state_name` and "
                             "`cell.state_size` are mismatched. Received "
                             f"state_name={state_name} with {len(names)} elements and "
                             f"cell.state_size={cell.state_size} with {len(sizes)} "
                             "elements.")
        initial_state = nest.pack_sequence_as(state_size, [state_saver.state(s)
                                                           for s in names])
    else:
        initial_state = state_saver.state(state_name)
    outputs, state = static_rnn(cell, inputs, initial_state=initial_state,
                                sequence_length=sequence_length, scope=scope)
    if state_is_tuple:
        flat_state = nest.flatten(state)
        saves = [state_saver.save_state(name, s)
                 for name, s in zip(nest.flatten(state_name), flat_state)]
    else:
        saves = [state_saver.save_state(state_name, state)]
    with ops.control_dependencies(saves):
        last_output = outputs[-1]
        outputs[-1] = nest.pack_sequence_as(
            last_output, [ops.identity(o) for o in nest.flatten(last_output)])
        if state_is_tuple:
            state = nest.pack_sequence_as(state, [ops.identity(s) for s in flat_state])
        else:
            state = ops.identity(state)
    return outputs, state


def _reverse_seq(input_seq: List[Any], lengths: Any) -> List[Any]:
    """The step list reversed, each row only over its first `lengths[row]` steps."""
    if lengths is None:
        return list(reversed(input_seq))
    from tf1compat.ops.sequence_ops import reverse_sequence
    flat_input_seq = tuple(nest.flatten(input_) for input_ in input_seq)
    flat_results: List[List[Any]] = [[] for _ in range(len(input_seq))]
    for sequence in zip(*flat_input_seq):
        input_shape = TensorShape(None) if sequence[0].shape.rank is None else \
            TensorShape([None] * sequence[0].shape.rank)
        for input_ in sequence:
            input_shape.assert_is_compatible_with(input_.shape)
            input_.set_shape(input_shape)
        joined = ops.stack(list(sequence))
        reversed_ = reverse_sequence(joined, lengths, 0, 1)
        for r, flat_result in zip(ops.unstack(reversed_), flat_results):
            r.set_shape(input_shape)
            flat_result.append(r)
    return [nest.pack_sequence_as(input_, flat_result)
            for input_, flat_result in zip(input_seq, flat_results)]


def static_bidirectional_rnn(cell_fw: Any, cell_bw: Any, inputs: List[Any],
                             initial_state_fw: Any = None, initial_state_bw: Any = None,
                             dtype: Any = None, sequence_length: Any = None,
                             scope: Any = None) -> Tuple[List[Any], Any, Any]:
    """`tf.nn.static_bidirectional_rnn`: forward and backward `static_rnn`s whose outputs
    are concatenated per step. Returns `(outputs, state_fw, state_bw)`."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    if not nest.is_nested(inputs):
        raise TypeError(f"Argument `inputs` must be a sequence. Received: {inputs}")
    if not inputs:
        raise ValueError("Argument `inputs` must not be empty.")
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = static_rnn(cell_fw, inputs, initial_state_fw, dtype,
                                                    sequence_length, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            reversed_inputs = _reverse_seq(inputs, sequence_length)
            tmp, output_state_bw = static_rnn(cell_bw, reversed_inputs, initial_state_bw,
                                              dtype, sequence_length, scope=bw_scope)
    output_bw = _reverse_seq(tmp, sequence_length)
    flat_outputs = tuple(ops.concat([fw, bw], 1) for fw, bw in
                         zip(nest.flatten(output_fw), nest.flatten(output_bw)))
    return (nest.pack_sequence_as(output_fw, list(flat_outputs)), output_state_fw,
            output_state_bw)
