"""`tf.debugging.enable_check_numerics` / `disable_check_numerics` for graphs.

While enabled, every op a graph creates with floating-point outputs (except TF's list of
ops that cannot create NaN or Inf from finite inputs: reshapes, slices, concats, ...) is
checked each time it runs: an output holding NaN or Inf stops the run with
InvalidArgumentError and TF's report (the op type and output slot, dtype, static shape,
inputs, and the user's line that created the op). TF inserts a CheckNumericsV2 op after
each such op; tf1compat runs the same check inside the op itself, so the error names the
op that produced the value rather than its check. Ops created before enabling, and ops
run eagerly, are not checked.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Callable, Dict, List

import torch

from tf1compat.framework import errors
from tf1compat.framework.hooks import OP_CREATED
from tf1compat.framework.op_def import OpDef
from tf1compat.framework.operation import Operation

__all__ = ["enable_check_numerics", "disable_check_numerics"]

# TF's check_numerics_callback.SAFE_OPS.
_SAFE_OPS = frozenset({"Concat", "ConcatV2", "ExpandDims", "Fill", "Gather", "Maximum",
                       "Minimum", "Reshape", "Slice", "Squeeze", "Stack", "StridedSlice",
                       "StridedSliceGrad", "Transpose", "Unpack", "CheckNumerics",
                       "CheckNumericsV2"})
_IGNORED_OUTPUTS = {"FusedBatchNorm": (1, 2, 3, 4), "FusedBatchNormV2": (1, 2, 3, 4),
                    "FusedBatchNormV3": (1, 2, 3, 4, 5)}

_settings: Dict[str, Any] = {"enabled": False, "stack_height_limit": 30,
                             "path_length_limit": 50}
_checked_defs: Dict[Any, OpDef] = {}


def _report(op: Any, slot: int, value: torch.Tensor) -> str:
    t = op.outputs[slot]
    inputs = list(op.inputs)
    lines = ["", f"!!! Detected Infinity or NaN in output {slot} of graph op "
                 f"\"{op.type}\" (# of outputs: {len(op.outputs)}) !!!",
             f"  dtype: {t.dtype!r}", f"  shape: {t.shape}", ""]
    if len(inputs) > 1:
        lines.append(f"  Input tensors ({len(inputs)}):")
        lines += [f"         {i}: {x!r}" for i, x in enumerate(inputs)]
    elif inputs:
        lines.append(f"  Input tensor: {inputs[0]!r}")
    frames = list(getattr(op, "traceback", None) or [])[-_settings["stack_height_limit"]:]
    if frames:
        lines += ["", "  Stack trace of op's creation:"]
        limit = _settings["path_length_limit"]
        for frame in frames:
            filename, lineno, func = frame[0], frame[1], frame[2]
            if limit and len(filename) > limit:
                filename = "..." + filename[-(limit - 3):]
            lines.append(f"    + {filename} (L{lineno}) {func}")
    kinds = []
    if bool(torch.isnan(value).any()):
        kinds.append("NaN")
    if bool(torch.isinf(value).any()):
        kinds.append("Inf")
    lines += ["", f" : Tensor had {' and '.join(kinds)} values"]
    return "\n".join(lines)


def _checker(op: Operation, slots: List[int]) -> Callable[[Any], Any]:
    def check(result: Any) -> Any:
        values = result if isinstance(result, tuple) else (result,)
        for slot in slots:
            value = values[slot]
            if isinstance(value, torch.Tensor) and not bool(torch.isfinite(value).all()):
                raise errors.InvalidArgumentError(None, op, _report(op, slot, value))
        return result
    return check


def _checked_def(op_def: OpDef, slots: List[int]) -> OpDef:
    """`op_def` with a kernel factory that checks the given output slots."""
    key = (id(op_def), tuple(slots))
    found = _checked_defs.get(key)
    if found is not None:
        return found
    inner = op_def.kernel

    def factory(node: Operation, kctx: Any) -> Any:
        check = _checker(node, slots)
        if op_def.constant:
            return check(inner(node, kctx))
        kernel = inner(node, kctx)
        return lambda *args: check(kernel(*args))
    checked = dataclasses.replace(op_def, kernel=factory)
    _checked_defs[key] = checked
    return checked


def _instrument(op: Operation) -> None:
    if not _settings["enabled"] or op._type in _SAFE_OPS or op._op_def.kernel is None:
        return
    ignored = _IGNORED_OUTPUTS.get(op._type, ())
    slots = [i for i, t in enumerate(op._outputs)
             if t.dtype.base_dtype.is_floating and i not in ignored]
    if slots:
        op._op_def = _checked_def(op._op_def, slots)


def enable_check_numerics(stack_height_limit: int = 30,
                          path_length_limit: int = 50) -> None:
    """`tf.debugging.enable_check_numerics`: ops created from now on stop the run with
    InvalidArgumentError when a floating-point output holds NaN or Inf."""
    _settings.update(enabled=True, stack_height_limit=stack_height_limit,
                     path_length_limit=path_length_limit)
    if _instrument not in OP_CREATED:
        OP_CREATED.append(_instrument)


def disable_check_numerics() -> None:
    """`tf.debugging.disable_check_numerics`: ops created from now on are not checked."""
    _settings["enabled"] = False
    if _instrument in OP_CREATED:
        OP_CREATED.remove(_instrument)
