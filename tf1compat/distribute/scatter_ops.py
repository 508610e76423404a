"""Horovod's alltoall and reducescatter ops on torch.distributed.

`HorovodAlltoall(tensor, splits)`: rank r sends rows `splits[k]` of `tensor` (consecutive,
in rank order) to rank k of the process set and receives the rows every rank sent it,
concatenated in rank order, with `received_splits` (how many from each rank). Without
splits (an empty splits tensor) dimension 0 is divided evenly. Its gradient is the
alltoall of the output gradient with the received splits (rows that were not sent get a
zero gradient).

`HorovodReducescatter` / `HorovodGroupedReducescatter`: the sum (or average) over the
set's processes of each tensor, of which rank r keeps its share of dimension 0: `d0 //
size` rows, one more for the first `d0 % size` ranks (Horovod's division). Average divides
by the set's size after `prescale_factor`, before `postscale_factor`. Gradient (Horovod's
registered one): the allgather of the output gradient, multiplied by the set's size for
Sum and by the scale factors.

Both run on torch.distributed's `all_to_all_single` and `reduce_scatter_single` over the
set's group, after the header exchange of negotiation.py.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import torch
import torch.distributed as dist

from tf1compat.distribute import negotiation as _negotiation
from tf1compat.distribute import process_group as pg
from tf1compat.distribute import process_sets as _process_sets
from tf1compat.distribute.collective_ops import (AVERAGE, SUM, first_dim_unknown, gather_rows,
                                                 grouped_op_name, normalize_name,
                                                 process_set_id_of, scale, wire)
from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["alltoall_op", "reducescatter_op", "grouped_reducescatter_op", "split_rows"]

_ALLTOALL_TYPES = (D.uint8, D.int8, D.uint16, D.int16, D.int32, D.int64, D.float16, D.float32,
                   D.float64, D.bool)
_REDUCESCATTER_TYPES = (D.int32, D.int64, D.float16, D.float32, D.float64)


# torch >= 2.13 names it reduce_scatter_single (reduce_scatter_tensor is deprecated).
_REDUCE_SCATTER = getattr(dist, "reduce_scatter_single", None) or dist.reduce_scatter_tensor


def split_rows(rows: int, size: int) -> List[int]:
    """Horovod's reducescatter division of `rows` among `size` ranks."""
    return [rows // size + (1 if r < rows % size else 0) for r in range(size)]


# -- alltoall ---------------------------------------------------------------------------------

def _send_splits(name: str, x: torch.Tensor, splits: torch.Tensor, size: int) -> List[int]:
    """Horovod's checks of `splits` (InvalidArgumentError as Horovod's status)."""
    rows = x.shape[0] if x.dim() else 0
    if splits.dim() > 1:
        raise errors.InvalidArgumentError(None, None, f"{name}: alltoall expects a 1D splits "
                                                      "tensor")
    if splits.numel() == 0:
        if rows % size:
            raise errors.InvalidArgumentError(
                None, None, f"{name}: splits not provided, but first dimension of tensor is "
                            "not an even multiple of the number of workers.")
        return [rows // size] * size
    if splits.numel() != size:
        raise errors.InvalidArgumentError(
            None, None, f"{name}: Number of entries in splits does not equal number of "
                        "workers.")
    out = [int(s) for s in splits.tolist()]
    if sum(out) > rows or min(out) < 0:
        raise errors.InvalidArgumentError(
            None, None, f"{name}: Sum of splits entries is greater than the first dimension "
                        "of tensor.")
    return out


def _alltoall(name: str, x: torch.Tensor, send: List[int], members: Any,
              direction: str) -> tuple:
    """(received rows, received splits) of one alltoall over the set."""
    if x.dim() == 0:
        raise errors.InvalidArgumentError(None, None, f"{name}: alltoall of a rank-zero "
                                                      "tensor")
    _negotiation.negotiate(_negotiation.ALLTOALL, name,
                           f"alltoall {name} ({direction}) {x.dtype} {tuple(x.shape[1:])}",
                           members)
    rows = sum(send)
    if members.size == 1:
        return x[:rows].detach().clone(), list(send)
    sent = torch.tensor(send, dtype=torch.int64)
    received = torch.empty_like(sent)
    pg.collective(name, lambda: dist.all_to_all_single(received, sent, group=members.group))
    recv = [int(r) for r in received.tolist()]
    payload = wire(x[:rows])
    out = torch.empty((sum(recv),) + tuple(payload.shape[1:]), dtype=payload.dtype,
                      device=payload.device)
    pg.collective(name, lambda: dist.all_to_all_single(
        out, payload, output_split_sizes=recv, input_split_sizes=send, group=members.group))
    return out.to(x.dtype), recv


class _AlltoallFunction(torch.autograd.Function):

    @staticmethod
    def forward(ctx: Any, spec: dict, x: torch.Tensor, splits: torch.Tensor) -> Any:
        members = _process_sets.members(spec["process_set_id"], spec["name"])
        send = _send_splits(spec["name"], x, splits, members.size)
        out, recv = _alltoall(spec["name"], x, send, members, "forward")
        ctx.spec, ctx.recv, ctx.rows = spec, recv, x.shape[0]
        return out, torch.tensor(recv, dtype=torch.int32)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor, _splits_grad: Any) -> Any:
        members = _process_sets.members(ctx.spec["process_set_id"], ctx.spec["name"])
        back, _ = _alltoall(ctx.spec["name"] + "_grad", grad, ctx.recv, members, "backward")
        if back.shape[0] < ctx.rows:
            back = torch.cat([back, back.new_zeros((ctx.rows - back.shape[0],)
                                                   + tuple(back.shape[1:]))])
        return None, back, None


def _alltoall_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    spec = {"name": node.name, "process_set_id": int(node.attrs["process_set_id"])}
    return lambda x, splits: _AlltoallFunction.apply(spec, x, splits)


def _alltoall_shape(ctx: Any) -> List[TensorShape]:
    return first_dim_unknown("HorovodAlltoall")(ctx)[:1] + [TensorShape([None])]


# -- reducescatter ----------------------------------------------------------------------------

class _ReducescatterFunction(torch.autograd.Function):

    @staticmethod
    def forward(ctx: Any, spec: dict, *tensors: torch.Tensor) -> Any:
        name = spec["name"]
        members = _process_sets.members(spec["process_set_id"], name)
        if spec["reduce_op"] not in (SUM, AVERAGE):
            raise errors.InvalidArgumentError(None, None, f"{name}: reducescatter supports "
                                                          "the Sum and Average reductions")
        if any(t.dim() == 0 for t in tensors):
            raise errors.InvalidArgumentError(None, None, f"{name}: Process-set rank zero "
                                                          "tried to REDUCESCATTER a rank-zero "
                                                          "tensor.")
        _negotiation.negotiate(_negotiation.REDUCESCATTER, name,
                               f"reducescatter {name} op {spec['reduce_op']} "
                               f"{[(str(t.dtype), tuple(t.shape)) for t in tensors]}", members)
        ctx.spec = spec
        return tuple(_reduce_scatter(t, spec, members) for t in tensors)

    @staticmethod
    def backward(ctx: Any, *grads: torch.Tensor) -> Any:
        spec = ctx.spec
        name = spec["name"] + "_grad"
        members = _process_sets.members(spec["process_set_id"], name)
        factor = spec["prescale"] * spec["postscale"] * \
            (members.size if spec["reduce_op"] == SUM else 1)
        shapes = [(str(g.dtype), tuple(g.shape[1:])) for g in grads]
        _negotiation.negotiate(_negotiation.ALLGATHER, name, f"allgather {name} {shapes}",
                               members)
        out = [gather_rows(g * factor if factor != 1 else g, name, members)[0] for g in grads]
        return (None,) + tuple(out)


def _reduce_scatter(x: torch.Tensor, spec: dict, members: Any) -> torch.Tensor:
    """This rank's rows of the set's sum (or average) of `x`."""
    shares = split_rows(x.shape[0], members.size)
    flat = scale(wire(x), spec["prescale"])
    if members.size > 1:
        # reduce_scatter_single needs equal pieces: each rank's share padded to the longest.
        longest = shares[0]
        padded = torch.zeros((members.size * longest,) + tuple(flat.shape[1:]),
                             dtype=flat.dtype, device=flat.device)
        offset = 0
        for r, n in enumerate(shares):
            padded[r * longest:r * longest + n] = flat[offset:offset + n]
            offset += n
        mine = torch.empty((longest,) + tuple(flat.shape[1:]), dtype=flat.dtype,
                           device=flat.device)
        pg.collective(spec["name"], lambda: _REDUCE_SCATTER(mine, padded,
                                                            group=members.group))
        flat = mine[:shares[members.rank]]
    if spec["reduce_op"] == AVERAGE:
        flat = scale(flat, 1.0 / members.size)
    return scale(flat, spec["postscale"]).to(x.dtype)


def _reducescatter_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    spec = {"name": node.name, "process_set_id": int(node.attrs["process_set_id"]),
            "reduce_op": int(node.attrs["reduce_op"]),
            "prescale": float(node.attrs["prescale_factor"]),
            "postscale": float(node.attrs["postscale_factor"])}
    single = node.type == "HorovodReducescatter"

    def run(*tensors: torch.Tensor) -> Any:
        out = _ReducescatterFunction.apply(spec, *tensors)
        return out[0] if single else tuple(out)
    return run


_COMMON_ATTRS = {"ignore_name_scope": False, "process_set_id": 0}
_SCATTER_ATTRS = {"reduce_op": SUM, "prescale_factor": 1.0, "postscale_factor": 1.0,
                  **_COMMON_ATTRS}

declare("HorovodAlltoall", inputs=["tensor: T", "splits: int32"],
        outputs=["output: T", "received_splits: int32"],
        attrs={"T": Type(_ALLTOALL_TYPES), **_COMMON_ATTRS}, shape=_alltoall_shape,
        kernel=_alltoall_kernel, stateful=True, grad_none_inputs=(1,),
        doc="Sends rows splits[k] of the tensor to rank k; receives every rank's rows.")
declare("HorovodReducescatter", inputs=["tensor: T"], outputs=["output: T"],
        attrs={"T": Type(_REDUCESCATTER_TYPES), **_SCATTER_ATTRS},
        shape=first_dim_unknown("HorovodReducescatter"), kernel=_reducescatter_kernel,
        stateful=True, doc="This rank's share (dimension 0) of the processes' sum.")
declare("HorovodGroupedReducescatter", inputs=["tensors: num_tensors * T"],
        outputs=["outputs: num_tensors * T"],
        attrs={"T": Type(_REDUCESCATTER_TYPES), "num_tensors": Int(1), **_SCATTER_ATTRS},
        shape=first_dim_unknown("HorovodGroupedReducescatter"), kernel=_reducescatter_kernel,
        stateful=True, doc="Reducescatter of several tensors of one dtype in one operation.")


# -- graph-building wrappers (horovod.tensorflow.mpi_ops) -------------------------------------

def alltoall_op(tensor: Any, splits: Any = None, name: Optional[str] = None,
                ignore_name_scope: bool = False, process_set: Any = None) -> Any:
    """Horovod's `alltoall`: the output, and with `splits` also the received splits."""
    splits_tensor = constant([], dtype=D.int32) if splits is None else splits
    if name is None and not _context.executing_eagerly():
        name = f"HorovodAlltoall_{normalize_name(tensor.name)}"
    op = apply_op("HorovodAlltoall", [tensor, splits_tensor],
                  {"ignore_name_scope": ignore_name_scope,
                   "process_set_id": process_set_id_of(process_set)},
                  name=(name or "HorovodAlltoall") + ("/" if ignore_name_scope else ""))
    output, received = op.outputs
    return (output, received) if splits is not None else output


def reducescatter_op(tensor: Any, name: Optional[str] = None, op: int = SUM,
                     ignore_name_scope: bool = False, process_set: Any = None,
                     prescale_factor: float = 1.0, postscale_factor: float = 1.0) -> Tensor:
    """Horovod's `_reducescatter`: one HorovodReducescatter op."""
    if name is None and not _context.executing_eagerly():
        name = f"HorovodReducescatter_{normalize_name(tensor.name)}"
    return apply_op("HorovodReducescatter", [tensor],
                    {"reduce_op": op, "ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set),
                     "prescale_factor": float(prescale_factor),
                     "postscale_factor": float(postscale_factor)},
                    name=(name or "HorovodReducescatter")
                    + ("/" if ignore_name_scope else "")).outputs[0]


def grouped_reducescatter_op(tensors: Sequence[Any], name: Optional[str] = None,
                             op: int = SUM, ignore_name_scope: bool = False,
                             process_set: Any = None, prescale_factor: float = 1.0,
                             postscale_factor: float = 1.0) -> List[Tensor]:
    """Horovod's `_grouped_reducescatter`: one HorovodGroupedReducescatter op."""
    name = grouped_op_name("HorovodGroupedReducescatter", tensors, name)
    return apply_op("HorovodGroupedReducescatter", [list(tensors)],
                    {"reduce_op": op, "ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set),
                     "prescale_factor": float(prescale_factor),
                     "postscale_factor": float(postscale_factor)},
                    name=name + ("/" if ignore_name_scope else "")).outputs
