"""A step-by-step interpreter over the same Plan the code generator compiles.

Used for debugging (`TF1COMPAT_INTERPRET=1` makes sessions use it) and as the reference
the generated code is tested against. Subclass and override `run_step` to observe or
change execution one op at a time, as with torch.fx's Interpreter.
"""

from __future__ import annotations

from typing import Any, Dict, List, Sequence

from tf1compat.runtime.codegen import make_grad_source
from tf1compat.runtime.plan import CONST, SLOT, STATE, Plan, Source, Step

__all__ = ["Interpreter"]


class Interpreter:
    """Executes a Plan op by op."""

    def __init__(self, plan: Plan):
        self.plan = plan
        self.current_step: Step = None  # type: ignore[assignment]

    def fetch_value(self, src: Source, env: Dict[int, Any], state: Dict[str, Any]) -> Any:
        if src.kind == SLOT:
            value = env[src.ref]
        elif src.kind == STATE:
            value = state[src.ref]
        elif src.kind == CONST:
            value = src.ref
        else:  # pragma: no cover
            raise AssertionError(src.kind)
        if src.to_device is not None:
            value = value.to(src.to_device)
        return value

    def run_step(self, step: Step, args: List[Any]) -> Any:
        """Runs one step's kernel on its input values; override to intercept."""
        return step.kernel(*args)

    def run(self, feeds: Sequence[Any], state: Dict[str, Any]) -> tuple:
        plan = self.plan
        if plan.dataflow:          # TF1 control flow has no step-by-step order
            return plan.fn(feeds, state)
        env: Dict[int, Any] = dict(zip(plan.feed_slots, feeds))
        for key in plan.state_marks:
            state[key] = make_grad_source(state[key])
        for step in plan.steps:
            self.current_step = step
            if step.kernel is not None:
                args = [self.fetch_value(a, env, state) for a in step.args]
                try:
                    result = self.run_step(step, args)
                except Exception as e:
                    e._tf1compat_op = step.op  # for the session's error mapping
                    e._tf1compat_args = args
                    raise
                if len(step.outs) == 1:
                    if step.outs[0] is not None:
                        env[step.outs[0]] = result
                elif any(s is not None for s in step.outs):
                    for slot, value in zip(step.outs, result):
                        if slot is not None:
                            env[slot] = value
            for slot in step.marks:
                env[slot] = make_grad_source(env[slot])
            for slot in step.frees:
                env.pop(slot, None)
        out = tuple(self.fetch_value(f, env, state) for f in plan.fetches)
        for key in plan.state_marks:
            if state[key].requires_grad:
                state[key] = state[key].detach()
        return out


class CheckingInterpreter(Interpreter):
    """An interpreter that checks each output against its op's static dtype and shape.

    Shape rules and kernels are written apart; replaying programs through this class
    catches a rule that disagrees with what its kernel really produces.
    """

    def run_step(self, step: Step, args: List[Any]) -> Any:
        import numpy as np
        import torch

        result = step.kernel(*args)
        outputs = step.op._outputs
        if not outputs:
            return result
        values = [result] if len(outputs) == 1 else list(result)
        for tensor, value in zip(outputs, values):
            dtype = tensor.dtype.base_dtype
            if isinstance(value, torch.Tensor):
                if dtype.torch_dtype is not None and value.dtype != dtype.torch_dtype:
                    raise AssertionError(f"{step.op.name} ({step.op.type}) output "
                                         f"{tensor.value_index}: kernel gave {value.dtype}, "
                                         f"declared {dtype.name}")
                shape = tuple(value.shape)
            elif isinstance(value, (np.ndarray, bytes)):
                shape = tuple(np.shape(value))
            else:
                continue
            if step.op._op_def.rank_follows_data and tensor.shape.rank != len(shape) or \
                    step.op._graph._extras.get("fed_past_static_shapes"):
                continue
            if not tensor.shape.is_compatible_with(shape) and tensor not in \
                    step.op._graph._extras.get("refined_by_set_shape", ()):
                raise AssertionError(f"{step.op.name} ({step.op.type}) output "
                                     f"{tensor.value_index}: kernel gave shape {shape}, "
                                     f"static shape {tensor.shape}")
        return result
