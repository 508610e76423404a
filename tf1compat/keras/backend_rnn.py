"""`tf.keras.backend.rnn`: iterates a step function over the time dimension (TF1 graph
mode), as Keras' recurrent layers run their cells.

Unrolled (`unroll=True`) the step function is called once per time step in Python; else
the inputs are unstacked into TensorArrays (`input_ta_<i>`), the step function is traced
once outside the loop on the first time step (Keras does this to learn the output
structure and shape; those ops are built but not run) and then in the body of a
`tf.while_loop` (names `<layer>/while/...`), whose outputs are written to TensorArrays
(`output_ta_<i>`) and stacked after the loop. Keras' backend is TF2 code: its `tf.where`
is the broadcasting SelectV2 (except for `input_length` masks, TF1's Select). A mask
(`[batch, time]`, bool) keeps the previous output and state for masked steps (or zeros
with `zero_output_for_mask`). As
in TF1, all outputs are always returned (`return_all_outputs` is ignored).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.tensor_array_ops import TensorArray
from tf1compat.ops.while_loop import while_loop

__all__ = ["rnn"]


def _ops() -> Any:
    from tf1compat.ops import namespace as ops
    return ops


def _swap_batch_timestep(x: Tensor) -> Tensor:
    axes = list(range(len(x.shape)))
    axes[0], axes[1] = 1, 0
    return _ops().transpose(x, axes)


def _expand_mask(mask_t: Tensor, input_t: Tensor, fixed_dim: int = 1) -> Tensor:
    """`mask_t` broadcast (by Tile) to the shape of `input_t` past `fixed_dim` dims."""
    ops = _ops()
    if nest.is_nested(mask_t):
        raise ValueError(f"mask_t is expected to be tensor, but got {mask_t}")
    if nest.is_nested(input_t):
        raise ValueError(f"input_t is expected to be tensor, but got {input_t}")
    for _ in range(len(input_t.shape) - len(mask_t.shape)):
        mask_t = ops.expand_dims(mask_t, -1)
    multiples = [1] * fixed_dim + input_t.shape.as_list()[fixed_dim:]
    return ops.tile(mask_t, multiples)


def rnn(step_function: Callable[[Any, Any], Tuple[Any, Any]], inputs: Any,
        initial_states: List[Any], go_backwards: bool = False, mask: Any = None,
        constants: Optional[List[Any]] = None, unroll: bool = False,
        input_length: Any = None, time_major: bool = False,
        zero_output_for_mask: bool = False, return_all_outputs: bool = True
        ) -> Tuple[Any, Any, Any]:
    """Runs `step_function(input_t, states + constants) -> (output, new_states)` over time.

    Returns `(last_output, outputs, new_states)`; outputs are `[batch, time, ...]` (or
    time-major).
    """
    ops = _ops()
    if not time_major:
        inputs = nest.map_structure(_swap_batch_timestep, inputs)
    flat_inputs = nest.flatten(inputs)
    time_steps = flat_inputs[0].shape.as_list()[0]
    batch = flat_inputs[0].shape.as_list()[1]
    time_steps_t = ops.shape(flat_inputs[0])[0]
    for input_ in flat_inputs:
        input_.shape.with_rank_at_least(3)
    if mask is not None:
        if mask.dtype != D.bool:
            mask = ops.cast(mask, D.bool)
        if len(mask.shape) == 2:
            mask = ops.expand_dims(mask, -1)
        if not time_major:
            mask = _swap_batch_timestep(mask)
    constants = list(constants or [])

    if unroll:
        last_output, outputs, new_states = _unrolled(
            step_function, inputs, initial_states, constants, mask, go_backwards,
            time_steps, zero_output_for_mask)
    else:
        last_output, outputs, new_states = _looped(
            step_function, inputs, flat_inputs, initial_states, constants, mask,
            go_backwards, time_steps_t, input_length, zero_output_for_mask)

    def set_shape(output: Any) -> Any:
        if isinstance(output, Tensor):
            shape = output.shape.as_list()
            shape[0] = time_steps
            shape[1] = batch
            output.set_shape(shape)
        return output
    outputs = nest.map_structure(set_shape, outputs)
    if not time_major:
        outputs = nest.map_structure(_swap_batch_timestep, outputs)
    return last_output, outputs, new_states


def _unrolled(step_function: Callable[..., Any], inputs: Any, initial_states: List[Any],
              constants: List[Any], mask: Any, go_backwards: bool, time_steps: Any,
              zero_output_for_mask: bool) -> Tuple[Any, Any, Any]:
    ops = _ops()
    if not time_steps:
        raise ValueError("Unrolling requires a fixed number of timesteps.")
    states = tuple(initial_states)
    outputs_seq: List[Any] = []
    states_seq: List[Any] = []

    def steps_of(x: Tensor) -> List[Tensor]:
        steps = ops.unstack(x)
        if go_backwards:
            steps.reverse()
        return steps
    processed = nest.map_structure(steps_of, inputs) if nest.is_nested(inputs) else \
        (steps_of(inputs),)

    def input_at(t: int) -> Any:
        return nest.pack_sequence_as(inputs, [steps[t] for steps in processed])

    if mask is not None:
        mask_list = ops.unstack(mask)
        if go_backwards:
            mask_list.reverse()
        for i in range(time_steps):
            mask_t = mask_list[i]
            output, new_states = step_function(input_at(i), tuple(states) + tuple(constants))
            tiled = _expand_mask(mask_t, output)
            prev_output = ops.zeros_like(output) if not outputs_seq else outputs_seq[-1]
            output = ops.where_v2(tiled, output, prev_output)
            flat_states = nest.flatten(states)
            flat_new = nest.flatten(new_states)
            tiled_states = tuple(_expand_mask(mask_t, s) for s in flat_states)
            final = tuple(ops.where_v2(m, s, ps) for m, s, ps in
                          zip(tiled_states, flat_new, flat_states))
            states = nest.pack_sequence_as(states, list(final))
            outputs_seq.append(output)
            states_seq.append(states)
        last_output = outputs_seq[-1]
        new_states = states_seq[-1]
        outputs = ops.stack(outputs_seq)
        if zero_output_for_mask:
            last_output = ops.where_v2(_expand_mask(mask_list[-1], last_output),
                                       last_output, ops.zeros_like(last_output))
            outputs = ops.where_v2(_expand_mask(mask, outputs, fixed_dim=2), outputs,
                                   ops.zeros_like(outputs))
        return last_output, outputs, new_states
    for i in range(time_steps):
        output, states = step_function(input_at(i), tuple(states) + tuple(constants))
        outputs_seq.append(output)
        states_seq.append(states)
    return outputs_seq[-1], ops.stack(outputs_seq), states_seq[-1]


def _looped(step_function: Callable[..., Any], inputs: Any, flat_inputs: List[Tensor],
            initial_states: List[Any], constants: List[Any], mask: Any, go_backwards: bool,
            time_steps_t: Tensor, input_length: Any, zero_output_for_mask: bool
            ) -> Tuple[Any, Any, Any]:
    ops = _ops()
    states = tuple(initial_states)
    input_ta = tuple(TensorArray(dtype=x.dtype, size=time_steps_t,
                                 tensor_array_name=f"input_ta_{i}")
                     for i, x in enumerate(flat_inputs))
    input_ta = tuple(ta.unstack(x if not go_backwards else ops.reverse(x, [0]))
                     for ta, x in zip(input_ta, flat_inputs))
    input_time_zero = nest.pack_sequence_as(inputs, [x[0] for x in flat_inputs])
    # Keras traces the step once outside the loop to learn the outputs' structure.
    output_time_zero, _ = step_function(input_time_zero,
                                        tuple(initial_states) + tuple(constants))
    output_ta = tuple(TensorArray(dtype=out.dtype, size=time_steps_t,
                                  element_shape=out.shape,
                                  tensor_array_name=f"output_ta_{i}")
                      for i, out in enumerate(nest.flatten(output_time_zero)))
    time = constant(0, dtype=D.int32, name="time")
    loop_kwargs = dict(cond=lambda time, *_: time < time_steps_t, parallel_iterations=32,
                       swap_memory=True)

    masking_fn: Optional[Callable[[Tensor], Tensor]] = None
    if mask is not None:
        if go_backwards:
            mask = ops.reverse(mask, [0])
        mask_ta = TensorArray(dtype=D.bool, size=time_steps_t, tensor_array_name="mask_ta")
        mask_ta = mask_ta.unstack(mask)

        def masking_fn(time: Tensor) -> Tensor:
            return mask_ta.read(time)

        def compute_masked_output(mask_t: Tensor, flat_out: List[Any],
                                  flat_mask: List[Any]) -> tuple:
            tiled = tuple(_expand_mask(mask_t, o, fixed_dim=len(mask_t.shape))
                          for o in flat_out)
            return tuple(ops.where_v2(m, o, fm) for m, o, fm in
                         zip(tiled, flat_out, flat_mask))
    elif isinstance(input_length, Tensor):
        if go_backwards:
            max_len = ops.reduce_max(input_length, axis=0)
            rev_input_length = ops.subtract(max_len - 1, input_length)

            def masking_fn(time: Tensor) -> Tensor:
                return ops.less(rev_input_length, time)
        else:
            def masking_fn(time: Tensor) -> Tensor:
                return ops.greater(input_length, time)

        def compute_masked_output(mask_t: Tensor, flat_out: List[Any],
                                  flat_mask: List[Any]) -> tuple:
            return tuple(ops.where(mask_t, o, zo) for o, zo in zip(flat_out, flat_mask))

    def read_input(time: Tensor) -> Any:
        current = tuple(ta.read(time) for ta in input_ta)
        return nest.pack_sequence_as(inputs, list(current))

    def keep_state_shapes(states: Any, new_states: Any) -> None:
        for state, new_state in zip(nest.flatten(states), nest.flatten(new_states)):
            if isinstance(new_state, Tensor):
                new_state.set_shape(state.shape)

    if masking_fn is not None:
        flat_zero_output = tuple(ops.zeros_like(o) for o in nest.flatten(output_time_zero))

        def masked_step(time: Tensor, output_ta_t: tuple, prev_output: tuple,
                        *states: Any) -> tuple:
            current_input = read_input(time)
            mask_t = masking_fn(time)
            output, new_states = step_function(current_input, tuple(states) +
                                               tuple(constants))
            flat_output = nest.flatten(output)
            flat_mask_output = flat_zero_output if zero_output_for_mask else \
                nest.flatten(prev_output)
            flat_new_output = compute_masked_output(mask_t, flat_output, flat_mask_output)
            keep_state_shapes(states, new_states)
            flat_final_state = compute_masked_output(mask_t, nest.flatten(new_states),
                                                     nest.flatten(states))
            new_states = nest.pack_sequence_as(new_states, list(flat_final_state))
            output_ta_t = tuple(ta.write(time, out)
                                for ta, out in zip(output_ta_t, flat_new_output))
            return (time + 1, output_ta_t, tuple(flat_new_output)) + tuple(new_states)
        final = while_loop(body=masked_step,
                           loop_vars=(time, output_ta, flat_zero_output) + states,
                           **loop_kwargs)
        new_states = final[3:]
    else:
        def step(time: Tensor, output_ta_t: tuple, *states: Any) -> tuple:
            current_input = read_input(time)
            output, new_states = step_function(current_input, tuple(states) +
                                               tuple(constants))
            keep_state_shapes(states, new_states)
            output_ta_t = tuple(ta.write(time, out)
                                for ta, out in zip(output_ta_t, nest.flatten(output)))
            new_states = nest.pack_sequence_as(initial_states, nest.flatten(new_states))
            return (time + 1, output_ta_t) + tuple(new_states)
        final = while_loop(body=step, loop_vars=(time, output_ta) + states, **loop_kwargs)
        new_states = final[2:]
    outputs = tuple(ta.stack() for ta in final[1])
    last_output = tuple(o[-1] for o in outputs)
    return (nest.pack_sequence_as(output_time_zero, list(last_output)),
            nest.pack_sequence_as(output_time_zero, list(outputs)), new_states)
