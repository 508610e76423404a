"""`tf.nn.dynamic_rnn`, `bidirectional_dynamic_rnn` and `raw_rnn`: an RNN cell run by
`tf.while_loop` over TensorArrays, as TF1 builds it.

`dynamic_rnn` transposes batch-major inputs to time-major (`rnn/transpose`), unstacks
them into a TensorArray, runs the cell once per step in the loop body (ops named
`rnn/while/<cell>/...`), writes each output into an output TensorArray, stacks it after
the loop and transposes back (`rnn/transpose_1`). With `sequence_length`, rows past their
length get zero outputs and copy their state through (`Select`, TF's `_rnn_step` with
skip_conditionals), and the loop stops at the longest sequence. Gradients flow through
the loop and the TensorArrays by torch autograd.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.ops import _regions
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop
from tf1compat.ops import namespace as ops
from tf1compat.rnn import fused
from tf1compat.rnn.cell_base import assert_like_rnncell, concat_shape
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["dynamic_rnn", "bidirectional_dynamic_rnn", "raw_rnn", "rnn_step",
           "transpose_batch_time", "infer_state_dtype", "should_cache"]


def transpose_batch_time(x: Tensor) -> Tensor:
    """Swaps the first two dimensions of `x` (rank >= 2), keeping its static shape."""
    static = x.shape
    if static.rank is not None and static.rank < 2:
        return x
    x_rank = ops.rank(x)
    x_t = ops.transpose(x, ops.concat(([1, 0], ops.range(2, x_rank)), axis=0))
    dims = static.as_list() if static.rank is not None else [None, None]
    x_t.set_shape(TensorShape([dims[1], dims[0]]).concatenate(static[2:]))
    return x_t


def best_effort_batch_size(flat_input: List[Tensor]) -> Any:
    """The static batch size of time-major inputs, else `tf.shape(input)[1]`."""
    for input_ in flat_input:
        shape = input_.shape
        if shape.rank is None:
            continue
        if shape.rank < 2:
            raise ValueError(f"Input tensor should have rank >= 2. Received input={input_} "
                             f"of rank {shape.rank}")
        batch_size = shape.as_list()[1]
        if batch_size is not None:
            return batch_size
    return ops.shape(flat_input[0])[1]


def infer_state_dtype(explicit_dtype: Any, state: Any) -> Any:
    """`dtype` if given, else the (single) dtype of the state's tensors."""
    if explicit_dtype is not None:
        return explicit_dtype
    if nest.is_nested(state):
        dtypes = [element.dtype for element in nest.flatten(state)]
        if not dtypes:
            raise ValueError(f"Unable to infer dtype from argument state={state}.")
        if not all(d == dtypes[0] for d in dtypes):
            raise ValueError(f"Argument state={state} has tensors of different inferred "
                             "dtypes. Unable to infer a single representative dtype. Dtypes "
                             f"received: {dtypes}")
        return dtypes[0]
    return state.dtype


def _static_size(size: Any) -> TensorShape:
    if isinstance(size, Tensor):
        return as_shape(ops.get_static_value(size))
    return as_shape(size)


def should_cache() -> bool:
    """TF sets a caching device for the RNN's variables unless it is inside a while loop
    (or executing eagerly)."""
    if executing_eagerly():
        return False
    context = get_default_graph()._control_flow_context
    return not any(c is not None and c.IsWhileContext() for c in _regions.ancestors(context))


def rnn_step(time: Any, sequence_length: Tensor, min_sequence_length: Tensor,
             max_sequence_length: Tensor, zero_output: Any, state: Any,
             call_cell: Callable[[], Tuple[Any, Any]], state_size: Any,
             skip_conditionals: bool = False) -> Tuple[Any, Any]:
    """One step of an RNN with per-row lengths (TF's `_rnn_step`).

    Rows whose length has been reached (`time >= sequence_length[row]`) output zeros and
    keep their state. Without `skip_conditionals`, steps past the longest row skip the
    cell entirely and steps before the shortest row skip the selection (two `tf.cond`s),
    as static_rnn builds them.
    """
    from tf1compat.ops.cond import cond
    flat_state = nest.flatten(state)
    flat_zero_output = nest.flatten(zero_output)
    copy_cond = time >= sequence_length

    def copy_one_through(output: Any, new_output: Any) -> Any:
        if isinstance(output, TensorArray) or output.shape.rank == 0:
            return new_output
        with ops.colocate_with(new_output):
            return ops.where(copy_cond, output, new_output)

    def copy_some_through(flat_new_output: List[Any], flat_new_state: List[Any]) -> list:
        outs = [copy_one_through(z, o) for z, o in zip(flat_zero_output, flat_new_output)]
        states = [copy_one_through(s, n) for s, n in zip(flat_state, flat_new_state)]
        return outs + states

    def run_cell() -> Tuple[List[Any], List[Any]]:
        new_output, new_state = call_cell()
        nest.assert_same_structure(zero_output, new_output)
        nest.assert_same_structure(state, new_state)
        return nest.flatten(new_output), nest.flatten(new_state)

    def maybe_copy_some_through() -> list:
        flat_new_output, flat_new_state = run_cell()
        return cond(time < min_sequence_length,
                    lambda: flat_new_output + flat_new_state,
                    lambda: copy_some_through(flat_new_output, flat_new_state))

    if skip_conditionals:
        final = copy_some_through(*run_cell())
    else:
        final = cond(time >= max_sequence_length, lambda: flat_zero_output + flat_state,
                     maybe_copy_some_through)
    if len(final) != len(flat_zero_output) + len(flat_state):
        raise ValueError("Internal error: state and output were not concatenated correctly. "
                         f"Received state length: {len(flat_state)}, output length: "
                         f"{len(flat_zero_output)}. Expected contatenated length: "
                         f"{len(final)}.")
    final_output = final[:len(flat_zero_output)]
    final_state = final[len(flat_zero_output):]
    for output, zero in zip(final_output, flat_zero_output):
        output.set_shape(zero.shape)
    for substate, old in zip(final_state, flat_state):
        if not isinstance(substate, TensorArray):
            substate.set_shape(old.shape)
    return (nest.pack_sequence_as(zero_output, final_output),
            nest.pack_sequence_as(state, final_state))


def _initial_state(cell: Any, initial_state: Any, batch_size: Any, dtype: Any) -> Any:
    if initial_state is not None:
        return initial_state
    if not dtype:
        raise ValueError("If no initial_state is provided, argument `dtype` must be specified")
    if getattr(cell, "get_initial_state", None) is not None:
        return cell.get_initial_state(inputs=None, batch_size=batch_size, dtype=dtype)
    return cell.zero_state(batch_size, dtype)


def dynamic_rnn(cell: Any, inputs: Any, sequence_length: Any = None,
                initial_state: Any = None, dtype: Any = None,
                parallel_iterations: Optional[int] = None, swap_memory: bool = False,
                time_major: bool = False, scope: Any = None) -> Tuple[Any, Any]:
    """`tf.nn.dynamic_rnn`: runs `cell` over the time steps of `inputs` in a while loop.

    Returns `(outputs, final_state)`; outputs are `[batch, time, output_size]` (or
    time-major with `time_major=True`).
    """
    assert_like_rnncell("cell", cell)
    with variable_scope(scope or "rnn") as varscope:
        if should_cache() and varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        flat_input = nest.flatten(inputs)
        if not time_major:
            flat_input = [ops.convert_to_tensor(x) for x in flat_input]
            flat_input = tuple(transpose_batch_time(x) for x in flat_input)
        parallel_iterations = parallel_iterations or 32
        if sequence_length is not None:
            sequence_length = ops.cast(sequence_length, D.int32)
            if sequence_length.shape.rank not in (None, 1):
                raise ValueError("Argument sequence_length must be a vector of length "
                                 f"batch_size. Received sequence_length={sequence_length} "
                                 f"of shape: {sequence_length.shape}")
            sequence_length = ops.identity(sequence_length, name="sequence_length")
        batch_size = best_effort_batch_size(list(flat_input))
        state = _initial_state(cell, initial_state, batch_size, dtype)

        if not executing_eagerly() and sequence_length is not None:
            x_shape = ops.shape(sequence_length)
            packed = ops.stack([batch_size])
            check = ops.Assert(ops.reduce_all(ops.equal(x_shape, packed)),
                               [f"Expected shape for Tensor {sequence_length.name} is ",
                                packed, " but saw shape: ", x_shape])
            with ops.control_dependencies([check]):
                sequence_length = ops.identity(sequence_length, name="CheckSeqLen")

        inputs = nest.pack_sequence_as(inputs, list(flat_input))
        outputs, final_state = _dynamic_rnn_loop(
            cell, inputs, state, parallel_iterations=parallel_iterations,
            swap_memory=swap_memory, sequence_length=sequence_length, dtype=dtype)
        if not time_major:
            outputs = nest.map_structure(transpose_batch_time, outputs)
        return outputs, final_state


def _dynamic_rnn_loop(cell: Any, inputs: Any, initial_state: Any, parallel_iterations: int,
                      swap_memory: bool, sequence_length: Any = None,
                      dtype: Any = None) -> Tuple[Any, Any]:
    state = initial_state
    state_size = cell.state_size
    flat_input = nest.flatten(inputs)
    flat_output_size = nest.flatten(cell.output_size)

    time_steps = ops.shape(flat_input[0])[0]
    batch_size = best_effort_batch_size(flat_input)
    inputs_got_shape = tuple(x.shape.with_rank_at_least(3) for x in flat_input)
    const_time_steps, const_batch_size = inputs_got_shape[0].as_list()[:2]
    for i, shape in enumerate(inputs_got_shape):
        if not shape[2:].is_fully_defined():
            raise ValueError("Input size (depth of inputs) must be accessible via shape "
                             f"inference, but saw value None for input={flat_input[i]}.")
        got_time, got_batch = shape.as_list()[:2]
        if const_time_steps != got_time:
            raise ValueError("Time steps is not the same for all the elements in the input in "
                             f"a batch. Received time steps={got_time} for "
                             f"input={flat_input[i]}.")
        if const_batch_size != got_batch:
            raise ValueError("Batch_size is not the same for all the elements in the input. "
                             f"Received batch size={got_batch} for input={flat_input[i]}.")

    state_dtype = infer_state_dtype(dtype, state)
    flat_zero_output = tuple(ops.zeros(ops.stack(concat_shape(batch_size, size)), state_dtype)
                             for size in flat_output_size)
    zero_output = nest.pack_sequence_as(cell.output_size, list(flat_zero_output))

    if sequence_length is not None:
        min_sequence_length = ops.reduce_min(sequence_length)
        max_sequence_length = ops.reduce_max(sequence_length)
    else:
        max_sequence_length = time_steps
    time = ops.constant(0, dtype=D.int32, name="time")
    with ops.name_scope("dynamic_rnn") as base_name:
        pass

    def create_ta(name: str, element_shape: Any, ta_dtype: Any) -> TensorArray:
        return TensorArray(dtype=ta_dtype, size=time_steps, element_shape=element_shape,
                           tensor_array_name=base_name + name)

    output_ta = tuple(
        create_ta(f"output_{i}",
                  TensorShape([const_batch_size]).concatenate(_static_size(size)),
                  state_dtype)
        for i, size in enumerate(flat_output_size))
    input_ta = tuple(create_ta(f"input_{i}", x.shape[1:], x.dtype)
                     for i, x in enumerate(flat_input))
    input_ta = tuple(ta.unstack(x) for ta, x in zip(input_ta, flat_input))

    def time_step(time: Tensor, output_ta_t: Tuple[TensorArray, ...], state: Any) -> tuple:
        input_t = tuple(ta.read(time) for ta in input_ta)
        for input_, shape in zip(input_t, inputs_got_shape):
            input_.set_shape(shape[1:])
        input_t = nest.pack_sequence_as(inputs, list(input_t))

        def call_cell() -> Tuple[Any, Any]:
            return cell(input_t, state)
        if sequence_length is not None:
            output, new_state = rnn_step(
                time=time, sequence_length=sequence_length,
                min_sequence_length=min_sequence_length,
                max_sequence_length=max_sequence_length, zero_output=zero_output,
                state=state, call_cell=call_cell, state_size=state_size,
                skip_conditionals=True)
        else:
            output, new_state = call_cell()
        output = nest.flatten(output)
        output_ta_t = tuple(ta.write(time, out) for ta, out in zip(output_ta_t, output))
        return (time + 1, output_ta_t, new_state)

    loop_bound = ops.minimum(time_steps, ops.maximum(1, max_sequence_length))
    _, output_final_ta, final_state = while_loop(
        cond=lambda time, *_: time < loop_bound, body=time_step,
        loop_vars=(time, output_ta, state), parallel_iterations=parallel_iterations,
        maximum_iterations=time_steps, swap_memory=swap_memory)

    # The fused kernel replaces a graph's While op; an eager loop has already run.
    if len(flat_input) == 1 and len(output_ta) == 1 and not executing_eagerly():
        loop_op = nest.flatten(final_state)[0].op.inputs[0].op
        fused.attach(loop_op, cell, flat_input, state_dtype, input_ta[0].handle,
                     output_ta[0].handle, loop_bound, sequence_length, counter=True)
    final_outputs = tuple(ta.stack() for ta in output_final_ta)
    for output, size in zip(final_outputs, flat_output_size):
        output.set_shape(concat_shape([const_time_steps, const_batch_size], size,
                                      static=True))
    return nest.pack_sequence_as(cell.output_size, list(final_outputs)), final_state


def _reverse(input_: Tensor, seq_lengths: Any, seq_axis: int, batch_axis: int) -> Tensor:
    from tf1compat.ops.sequence_ops import reverse_sequence
    if seq_lengths is not None:
        return reverse_sequence(input=input_, seq_lengths=seq_lengths, seq_axis=seq_axis,
                                batch_axis=batch_axis)
    return ops.reverse(input_, axis=[seq_axis])


def bidirectional_dynamic_rnn(cell_fw: Any, cell_bw: Any, inputs: Any,
                              sequence_length: Any = None, initial_state_fw: Any = None,
                              initial_state_bw: Any = None, dtype: Any = None,
                              parallel_iterations: Optional[int] = None,
                              swap_memory: bool = False, time_major: bool = False,
                              scope: Any = None) -> Tuple[Any, Any]:
    """`tf.nn.bidirectional_dynamic_rnn`: a forward RNN (scope `fw`) and one over the
    reversed sequences (scope `bw`, reversed back). Returns `((output_fw, output_bw),
    (state_fw, state_bw))`."""
    assert_like_rnncell("cell_fw", cell_fw)
    assert_like_rnncell("cell_bw", cell_bw)
    time_axis, batch_axis = (0, 1) if time_major else (1, 0)
    with variable_scope(scope or "bidirectional_rnn"):
        with variable_scope("fw") as fw_scope:
            output_fw, output_state_fw = dynamic_rnn(
                cell=cell_fw, inputs=inputs, sequence_length=sequence_length,
                initial_state=initial_state_fw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=fw_scope)
        with variable_scope("bw") as bw_scope:
            inputs_reverse = nest.map_structure(
                lambda x: _reverse(x, sequence_length, time_axis, batch_axis), inputs)
            tmp, output_state_bw = dynamic_rnn(
                cell=cell_bw, inputs=inputs_reverse, sequence_length=sequence_length,
                initial_state=initial_state_bw, dtype=dtype,
                parallel_iterations=parallel_iterations, swap_memory=swap_memory,
                time_major=time_major, scope=bw_scope)
    output_bw = _reverse(tmp, sequence_length, time_axis, batch_axis)
    return (output_fw, output_bw), (output_state_fw, output_state_bw)


def raw_rnn(cell: Any, loop_fn: Callable[..., Any], parallel_iterations: Optional[int] = None,
            swap_memory: bool = False, scope: Any = None) -> Tuple[Any, Any, Any]:
    """`tf.nn.raw_rnn`: the loop of `dynamic_rnn` with `loop_fn(time, cell_output,
    cell_state, loop_state) -> (finished, next_input, next_state, emit, next_loop_state)`
    deciding inputs, emitted values and termination. Returns `(emit_ta, final_state,
    final_loop_state)`."""
    assert_like_rnncell("cell", cell)
    if not callable(loop_fn):
        raise TypeError(f"Argument `loop_fn` must be a callable. Received: {loop_fn}.")
    parallel_iterations = parallel_iterations or 32
    with variable_scope(scope or "rnn") as varscope:
        if should_cache() and varscope.caching_device is None:
            varscope.set_caching_device(lambda op: op.device)
        time = ops.constant(0, dtype=D.int32)
        (elements_finished, next_input, initial_state, emit_structure,
         init_loop_state) = loop_fn(time, None, None, None)
        flat_input = nest.flatten(next_input)
        loop_state = (init_loop_state if init_loop_state is not None
                      else ops.constant(0, dtype=D.int32))
        input_shapes = [x.shape for x in flat_input]
        static_batch = input_shapes[0].with_rank_at_least(1)[0]
        for shape in input_shapes:
            static_batch.assert_is_compatible_with(shape.with_rank_at_least(1)[0])
        const_batch_size = static_batch.value if hasattr(static_batch, "value") \
            else static_batch
        batch_size = const_batch_size if const_batch_size is not None \
            else ops.shape(flat_input[0])[0]

        nest.assert_same_structure(initial_state, cell.state_size)
        state = nest.pack_sequence_as(initial_state, [ops.convert_to_tensor(s) for s in
                                                      nest.flatten(initial_state)])
        flat_state = nest.flatten(state)
        if emit_structure is not None:
            flat_emit_structure = nest.flatten(emit_structure)
            flat_emit_size = [e.shape if e.shape.is_fully_defined() else ops.shape(e)
                              for e in flat_emit_structure]
            flat_emit_dtypes = [e.dtype for e in flat_emit_structure]
        else:
            emit_structure = cell.output_size
            flat_emit_size = nest.flatten(emit_structure)
            flat_emit_dtypes = [flat_state[0].dtype] * len(flat_emit_size)
        flat_emit_ta = [
            TensorArray(dtype=dtype_i, dynamic_size=True, size=0, name=f"rnn_output_{i}",
                        element_shape=TensorShape([const_batch_size]).concatenate(
                            _static_size(size_i)))
            for i, (dtype_i, size_i) in enumerate(zip(flat_emit_dtypes, flat_emit_size))]
        emit_ta = nest.pack_sequence_as(emit_structure, flat_emit_ta)
        flat_zero_emit = [ops.zeros(concat_shape(batch_size, size_i), dtype_i)
                          for size_i, dtype_i in zip(flat_emit_size, flat_emit_dtypes)]
        zero_emit = nest.pack_sequence_as(emit_structure, flat_zero_emit)

        def condition(unused_time: Any, elements_finished: Tensor, *_: Any) -> Tensor:
            return ops.logical_not(ops.reduce_all(elements_finished))

        def body(time: Tensor, elements_finished: Tensor, current_input: Any, emit_ta: Any,
                 state: Any, loop_state: Any) -> tuple:
            next_output, cell_state = cell(current_input, state)
            nest.assert_same_structure(state, cell_state)
            nest.assert_same_structure(cell.output_size, next_output)
            next_time = time + 1
            (next_finished, next_input, next_state, emit_output,
             next_loop_state) = loop_fn(next_time, next_output, cell_state, loop_state)
            nest.assert_same_structure(state, next_state)
            nest.assert_same_structure(current_input, next_input)
            nest.assert_same_structure(emit_ta, emit_output)
            loop_state = loop_state if next_loop_state is None else next_loop_state

            def copy_some_through(current: Any, candidate: Any) -> Any:
                def copy_fn(cur_i: Any, cand_i: Any) -> Any:
                    if isinstance(cur_i, TensorArray) or cur_i.shape.rank == 0:
                        return cand_i
                    with ops.colocate_with(cand_i):
                        return ops.where(elements_finished, cur_i, cand_i)
                return nest.map_structure(copy_fn, current, candidate)

            emit_output = copy_some_through(zero_emit, emit_output)
            next_state = copy_some_through(state, next_state)
            emit_ta = nest.map_structure(lambda ta, emit: ta.write(time, emit), emit_ta,
                                         emit_output)
            elements_finished = ops.logical_or(elements_finished, next_finished)
            return (next_time, elements_finished, next_input, emit_ta, next_state,
                    loop_state)

        returned = while_loop(condition, body,
                              loop_vars=[time, elements_finished, next_input, emit_ta, state,
                                         loop_state],
                              parallel_iterations=parallel_iterations,
                              swap_memory=swap_memory)
        emit_ta, final_state, final_loop_state = returned[-3:]
        if init_loop_state is None:
            final_loop_state = None
        return emit_ta, final_state, final_loop_state
