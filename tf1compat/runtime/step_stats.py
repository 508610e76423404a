"""Step statistics of a traced `Session.run` (RunOptions.trace_level above NO_TRACE).

TF's executor records one NodeExecStats per executed node into
`RunMetadata.step_stats` when a run is traced; `timeline.Timeline`, `tf.profiler` and
`ProfilerHook` read them. A traced run here executes its plan op by op through the
interpreter (`StepStatsInterpreter`), timing each kernel and describing its outputs, so
untraced runs keep the generated code and pay nothing. Per node, as TF writes them:
`node_name`, `all_start_micros`/`_nanos` (wall clock), `op_start_rel`, `op_end_rel`,
`all_end_rel`, `scheduled_micros`, `timeline_label` ("name = Op(input, ...)"), one
`output` per produced tensor (dtype, shape, requested bytes on its allocator) and an
empty `memory_stats`, under a DeviceStepStats named as TF names the device
("/job:localhost/replica:0/task:0/device:CPU:0").

Differences from TF: the executor's own nodes (_SOURCE, _Arg/_Retval for feeds and
fetches) are not recorded, fed tensors keep their graph names in labels, ops the plan
resolves without a kernel (variable reads, NoOps) are not recorded, a control-flow
construct is one node, and plans of imported TF1 control flow (runtime/dataflow.py) run
untimed (their step_stats stay empty).
"""

from __future__ import annotations

import time
from typing import Any, Callable, Dict, List

import torch

from tf1compat.runtime.interpreter import Interpreter
from tf1compat.runtime.plan import Plan, Step

__all__ = ["StepStatsInterpreter", "is_traced", "timeline_label"]

_ALLOCATORS = {"cpu": "cpu", "cuda": "GPU_0_bfc"}


def is_traced(options: Any, run_metadata: Any) -> bool:
    """Whether a run with these RunOptions records step statistics into `run_metadata`."""
    return run_metadata is not None and getattr(options, "trace_level", 0) > 0


def timeline_label(op: Any) -> str:
    """TF's NodeExecStats.timeline_label: "name = Type(inputs)", inputs as the NodeDef
    lists them (output 0 by op name, others "op:i", control inputs "^op")."""
    inputs = [t._op._name if t._value_index == 0 else f"{t._op._name}:{t._value_index}"
              for t in op._inputs]
    inputs += [f"^{c._name}" for c in op._control_inputs]
    return f"{op._name} = {op.type}({', '.join(inputs)})"


class StepStatsInterpreter(Interpreter):
    """Runs a plan op by op, recording each kernel's NodeExecStats into `step_stats`."""

    def __init__(self, plan: Plan, step_stats: Any, device_name: Callable[[Any], str]):
        super().__init__(plan)
        self._step_stats = step_stats
        self._device_name = device_name
        self._devices: Dict[str, Any] = {d.device: d for d in step_stats.dev_stats}

    def _dev_stats(self, name: str) -> Any:
        dev = self._devices.get(name)
        if dev is None:
            dev = self._devices[name] = self._step_stats.dev_stats.add(device=name)
        return dev

    def run_step(self, step: Step, args: List[Any]) -> Any:
        scheduled = time.time_ns()
        start = time.perf_counter_ns()
        result = step.kernel(*args)
        values = [result] if len(step.op._outputs) == 1 else \
            list(result) if step.op._outputs else []
        device = _device_of(values, args)
        if device.type == "cuda":       # time the kernels, not their launch
            torch.cuda.synchronize(device)
        op_end = time.perf_counter_ns() - start
        op = step.op
        stats = self._dev_stats(self._device_name(device)).node_stats.add(
            node_name=op._name, timeline_label=timeline_label(op))
        for slot, (tensor, value) in enumerate(zip(op._outputs, values)):
            _describe_output(stats.output.add(slot=slot), tensor, value)
        stats.memory_stats.SetInParent()
        all_end = time.perf_counter_ns() - start
        stats.all_start_nanos = stats.scheduled_nanos = scheduled
        stats.all_start_micros = stats.scheduled_micros = scheduled // 1000
        stats.op_end_rel_nanos = op_end
        stats.op_end_rel_micros = op_end // 1000
        stats.all_end_rel_nanos = all_end
        stats.all_end_rel_micros = all_end // 1000
        return result


def _device_of(values: List[Any], args: List[Any]) -> torch.device:
    for value in values + args:
        if isinstance(value, torch.Tensor):
            return value.device
    return torch.device("cpu")


def _describe_output(output: Any, tensor: Any, value: Any) -> None:
    """A NodeOutput's TensorDescription: the tensor's dtype, the value's shape and bytes."""
    desc = output.tensor_description
    desc.dtype = tensor.dtype.base_dtype.as_datatype_enum
    shape = tuple(value.shape) if isinstance(value, torch.Tensor) else \
        tuple(getattr(value, "shape", ()))
    for size in shape:
        desc.shape.dim.add(size=int(size))
    if isinstance(value, torch.Tensor):
        alloc = desc.allocation_description
        alloc.requested_bytes = value.numel() * value.element_size()
        alloc.allocator_name = _ALLOCATORS.get(value.device.type, value.device.type)
