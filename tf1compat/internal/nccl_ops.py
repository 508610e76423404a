"""`tensorflow.python.ops.nccl_ops` (TF 1.13+; `tf.contrib.nccl` before): NCCL collectives
over the per-GPU tensors of one in-graph replicated model (StyleGAN's multi-GPU optimizer,
tower scripts). tf1compat runs every tower in one process (docs/distributed.md), so the
collective is the reduction of all inputs followed by one Identity per input device, as
MirroredStrategy's cross-device ops do; results equal NCCL's (sum, prod, min or max of all
inputs, one copy on each input's device). The checks are TF's: at least one tensor, every
tensor assigned to a device, and reduce_sum needing one input on the current device.
Gradients flow through the reduction (for all_sum and reduce_sum they equal TF's
NcclAllReduce / NcclReduce gradients)."""

from __future__ import annotations

from typing import Any, Callable, List, Sequence

from tf1compat.framework.device_spec import canonical_name
from tf1compat.framework.graph import device, name_scope
from tf1compat.ops import array_ops, math_ops


def _check_device(tensor: Any, expected: Any = None) -> None:
    if not canonical_name(tensor.device):
        raise ValueError("Device assignment required for nccl collective ops")
    if expected and expected != tensor.device:
        raise ValueError(f"Expected device {expected}, got {tensor.device}")


def _reduce(combine: Callable[[Any, Any], Any], tensors: Sequence[Any]) -> Any:
    result = tensors[0]
    for t in tensors[1:]:
        result = combine(result, t)
    return result


def _all_reduce(name: str, combine: Callable[[Any, Any], Any],
                tensors: Sequence[Any]) -> List[Any]:
    if not tensors:
        raise ValueError("Must pass >0 tensors to all reduce operations")
    for t in tensors:
        _check_device(t)
    with name_scope(name):
        with device(tensors[0].device):
            reduced = _reduce(combine, list(tensors))
        outputs = []
        for t in tensors:
            with device(t.device):
                outputs.append(array_ops.identity(reduced))
    return outputs


def all_sum(tensors: Sequence[Any]) -> List[Any]:
    """The sum of `tensors` (one per GPU), one copy on each tensor's device."""
    return _all_reduce("NcclAllSum", lambda a, b: math_ops.add(a, b), tensors)


def all_prod(tensors: Sequence[Any]) -> List[Any]:
    """The elementwise product of `tensors`, one copy on each tensor's device."""
    return _all_reduce("NcclAllProd", math_ops.multiply, tensors)


def all_min(tensors: Sequence[Any]) -> List[Any]:
    """The elementwise minimum of `tensors`, one copy on each tensor's device."""
    return _all_reduce("NcclAllMin", math_ops.minimum, tensors)


def all_max(tensors: Sequence[Any]) -> List[Any]:
    """The elementwise maximum of `tensors`, one copy on each tensor's device."""
    return _all_reduce("NcclAllMax", math_ops.maximum, tensors)


def reduce_sum(tensors: Sequence[Any]) -> Any:
    """The sum of `tensors` on the current device, which one of them must be on."""
    if not tensors:
        raise ValueError("Must pass >0 tensors to reduce operations")
    for t in tensors:
        _check_device(t)
    result = math_ops.add_n(list(tensors))
    if not any(t.device == result.device for t in tensors):
        raise ValueError("One input tensor must be assigned to current device")
    return result


def broadcast(tensor: Any) -> Any:
    """`tensor` as a value other devices' ops can read (an Identity on its device)."""
    _check_device(tensor)
    with device(tensor.device):
        return array_ops.identity(tensor)
