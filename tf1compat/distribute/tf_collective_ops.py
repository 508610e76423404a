"""TF's own collective ops — `CollectiveReduce`, `CollectiveGather`, `CollectiveBcastSend`,
`CollectiveBcastRecv` (TF 1.15's op types and attrs) — on torch.distributed: what
MultiWorkerMirroredStrategy builds into each worker's graph.

TF matches the collectives of the workers by `(group_key, instance_key)`; torch.distributed
matches them by call order. Every worker builds the same graph, so its plan runs the
collectives in the same order, and before each one the processes exchange the header of
`negotiation.py`, whose checksum covers the group and instance keys, the dtype and the
shape: workers at different collectives get FailedPreconditionError ("Mismatched
collective operations ...") instead of exchanging unrelated tensors. A group spans the
job's processes (`group_size` must be the world's size). A worker that died or exited
makes the others' collective fail with UnknownError (process_group.py).
"""

from __future__ import annotations

from typing import Any, Callable, Optional

import torch
import torch.distributed as dist

from tf1compat.distribute import collective_ops as _hvd_ops
from tf1compat.distribute import negotiation as _negotiation
from tf1compat.distribute import process_group as pg
from tf1compat.distribute import process_sets as _process_sets
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import REQUIRED, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["collective_reduce", "collective_gather", "broadcast_send", "broadcast_recv"]

_TYPES = (D.float16, D.bfloat16, D.float32, D.float64, D.int32, D.int64)
_MERGE_OPS = {"Add": _hvd_ops.SUM, "Mul": _hvd_ops.PRODUCT, "Min": _hvd_ops.MIN,
              "Max": _hvd_ops.MAX}
_COMMON = {"group_size": REQUIRED, "group_key": REQUIRED, "instance_key": REQUIRED,
           "communication_hint": "auto", "timeout_seconds": 0.0}


def _members(node: Any) -> Any:
    """The job's processes; InvalidArgumentError when the group is not all of them."""
    world = pg.world() if pg.is_initialized() else pg.init()
    group_size = int(node.attrs["group_size"])
    if group_size != world.size:
        raise errors.InvalidArgumentError(
            None, None, f"{node.name} ({node.type}): group_size {group_size} but the job has "
                        f"{world.size} processes; a collective group spans every worker")
    return _process_sets.members(0, node.name)


def _key(node: Any, what: str) -> str:
    return (f"{what} group {int(node.attrs['group_key'])} instance "
            f"{int(node.attrs['instance_key'])}")


def _reduce_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    merge_op, final_op = node.attrs["merge_op"], node.attrs["final_op"]
    if merge_op not in _MERGE_OPS:
        raise errors.InvalidArgumentError(None, None, f"{node.name}: merge_op {merge_op!r} "
                                                      f"is not one of {sorted(_MERGE_OPS)}")
    if final_op not in ("Id", "Div"):
        raise errors.InvalidArgumentError(None, None, f"{node.name}: final_op {final_op!r} "
                                                      "is not Id or Div")
    # (Horovod's Reduction does the header exchange and the fused exchange; its name is
    # the instance, which every worker's op shares whatever its node is called.)
    reduction = _hvd_ops.Reduction(_key(node, "CollectiveReduce"), _MERGE_OPS[merge_op],
                                   1.0, 1.0)

    def run(x: torch.Tensor) -> torch.Tensor:
        members = _members(node)
        y = reduction.run([x], "forward")[0]
        if final_op == "Div":
            y = y / members.size if y.is_floating_point() else \
                torch.div(y, members.size, rounding_mode="trunc")
        return y
    return run


def _gather_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    name = _key(node, "CollectiveGather")

    def run(x: torch.Tensor) -> torch.Tensor:
        members = _members(node)
        if x.dim() == 0:
            raise errors.InvalidArgumentError(None, None, f"{node.name}: CollectiveGather "
                                                          "needs a tensor of rank >= 1")
        _negotiation.negotiate(_negotiation.ALLGATHER, name,
                               f"{name} {x.dtype} {tuple(x.shape[1:])}", members)
        return _hvd_ops.gather_rows(x, name, members)[0]
    return run


def _broadcast(node: Any, value: Optional[torch.Tensor], dtype: torch.dtype,
               shape: tuple, device: Any = None) -> torch.Tensor:
    """The sender's `value` on every process (receivers pass None and receive on
    `device`: the op's, where the sender's value is too, so both use one backend)."""
    members = _members(node)
    name = _key(node, "CollectiveBcast")
    _negotiation.negotiate(_negotiation.BROADCAST, name, f"{name} {dtype} {shape}", members)
    if members.size == 1:
        if value is None:
            raise errors.InternalError(None, None, f"{node.name}: a broadcast with no sender")
        return value.detach().clone()
    # Which process sends: TF's receivers learn it from the instance; here one MAX
    # allreduce of (rank if sending else -1) tells everyone.
    sender = torch.tensor([members.rank if value is not None else -1], dtype=torch.int64)
    pg.collective(name, lambda: dist.all_reduce(sender, op=dist.ReduceOp.MAX,
                                                group=members.group))
    src = int(sender[0])
    if src < 0:
        raise errors.InternalError(None, None, f"{node.name}: no process sends {name}")
    buffer = _hvd_ops.wire(value) if value is not None else \
        torch.empty(shape, dtype=dtype, device=device)
    pg.collective(name, lambda: dist.broadcast(buffer, src=src, group=members.group))
    return buffer.to(dtype)


def _send_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    return lambda x: _broadcast(node, x, x.dtype, tuple(x.shape))


def _recv_kernel(node: Any, kctx: Any) -> Callable[[], torch.Tensor]:
    shape = tuple(TensorShape(node.attrs["shape"]).as_list())
    dtype = D.as_dtype(node.attrs["T"]).torch_dtype
    return lambda: _broadcast(node, None, dtype, shape, kctx.device)


declare("CollectiveReduce", inputs=["input: T"], outputs=["data: T"],
        attrs={"T": Type(_TYPES), **_COMMON, "merge_op": REQUIRED, "final_op": REQUIRED,
               "subdiv_offsets": REQUIRED, "wait_for": []},
        shape=lambda ctx: [ctx.shape(0)], kernel=_reduce_kernel, stateful=True,
        grad="unregistered",
        doc="Mutually reduces `input` across the group's workers (merge_op, then final_op).")
declare("CollectiveGather", inputs=["input: T"], outputs=["data: T"],
        attrs={"T": Type(_TYPES), **_COMMON, "shape": REQUIRED},
        shape=_hvd_ops.first_dim_unknown("CollectiveGather"), kernel=_gather_kernel,
        stateful=True, grad="unregistered",
        doc="Concatenates the workers' `input` on dimension 0 (worker order).")
declare("CollectiveBcastSend", inputs=["input: T"], outputs=["data: T"],
        attrs={"T": Type(_TYPES + (D.bool,)), **_COMMON, "shape": REQUIRED},
        shape=lambda ctx: [ctx.shape(0)], kernel=_send_kernel, stateful=True,
        grad="unregistered", doc="Sends `input` to the group's other workers.")
declare("CollectiveBcastRecv", outputs=["data: T"],
        attrs={"T": Type(_TYPES + (D.bool,)), **_COMMON, "shape": REQUIRED},
        shape=lambda ctx: [TensorShape(ctx.attrs["shape"])], kernel=_recv_kernel,
        stateful=True, grad="unregistered",
        doc="Receives the tensor a CollectiveBcastSend of the same instance sends.")


# -- graph-building wrappers (TF's collective_ops module) -------------------------------------

def _common(group_size: int, group_key: int, instance_key: int,
            communication_hint: str) -> dict:
    return {"group_size": int(group_size), "group_key": int(group_key),
            "instance_key": int(instance_key),
            "communication_hint": communication_hint.lower()}


def collective_reduce(t: Any, group_size: int, group_key: int, instance_key: int,
                      merge_op: str = "Add", final_op: str = "Id",
                      communication_hint: str = "auto", name: Optional[str] = None
                      ) -> Tensor:
    """TF's `collective_ops.all_reduce`: one CollectiveReduce op."""
    return apply_op("CollectiveReduce", [t],
                    {**_common(group_size, group_key, instance_key, communication_hint),
                     "merge_op": merge_op, "final_op": final_op, "subdiv_offsets": [0]},
                    name=name or "CollectiveReduce").outputs[0]


def collective_gather(t: Any, group_size: int, group_key: int, instance_key: int,
                      communication_hint: str = "auto", name: Optional[str] = None
                      ) -> Tensor:
    """TF's `collective_ops.all_gather`: one CollectiveGather op."""
    shape = t.shape.as_list() if t.shape.rank is not None else []
    return apply_op("CollectiveGather", [t],
                    {**_common(group_size, group_key, instance_key, communication_hint),
                     "shape": TensorShape([None if d is None else d for d in shape])},
                    name=name or "CollectiveGather").outputs[0]


def broadcast_send(t: Any, group_size: int, group_key: int, instance_key: int,
                   communication_hint: str = "auto", name: Optional[str] = None) -> Tensor:
    """TF's `collective_ops.broadcast_send`: `t`, sent to the other workers."""
    return apply_op("CollectiveBcastSend", [t],
                    {**_common(group_size, group_key, instance_key, communication_hint),
                     "shape": t.shape},
                    name=name or "CollectiveBcastSend").outputs[0]


def broadcast_recv(shape: Any, dtype: Any, group_size: int, group_key: int,
                   instance_key: int, communication_hint: str = "auto",
                   name: Optional[str] = None) -> Tensor:
    """TF's `collective_ops.broadcast_recv`: what the sender of the instance sends."""
    return apply_op("CollectiveBcastRecv", [],
                    {**_common(group_size, group_key, instance_key, communication_hint),
                     "shape": TensorShape(shape), "T": D.as_dtype(dtype)},
                    name=name or "CollectiveBcastRecv").outputs[0]
