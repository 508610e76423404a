"""Horovod's TensorFlow ops, declared with Horovod's op types and attrs, on torch.distributed.

`HorovodAllreduce`, `HorovodGroupedAllreduce`, `HorovodAllgather`, `HorovodBroadcast` and
the `HorovodSize`/`HorovodRank`/`HorovodLocalSize`/`HorovodLocalRank` queries. Kernels call
the process group of `process_group.py` (gloo on CPU tensors, NCCL on CUDA tensors); a
world of one process makes every collective the identity. Gradients follow Horovod's
registered gradient functions, computed by torch autograd through
`torch.autograd.Function`s whose backward runs the matching collective: allreduce ->
allreduce of the gradient with the same reduction; allgather -> the averaged gradient's
slice of this rank; broadcast -> the averaged gradient on the root rank, zeros elsewhere.

torch.distributed matches collectives by call order where Horovod matches them by name:
the first time each collective op of a plan runs it checks that every process is at the
same op (`process_group.check_same_collective`).
"""

from __future__ import annotations

import re
from typing import Any, Callable, List, Optional, Sequence

import torch
import torch.distributed as dist

from tf1compat.distribute import process_group as pg
from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["AVERAGE", "SUM", "ADASUM", "MIN", "MAX", "PRODUCT", "allreduce_op",
           "grouped_allreduce_op", "allgather_op", "broadcast_op", "size_op", "rank_op",
           "local_size_op", "local_rank_op", "normalize_name"]

# Horovod's ReduceOp values (horovod/common/message.h).
AVERAGE, SUM, ADASUM, MIN, MAX, PRODUCT = 0, 1, 2, 3, 4, 5
_TORCH_REDUCE = {AVERAGE: dist.ReduceOp.SUM, SUM: dist.ReduceOp.SUM, MIN: dist.ReduceOp.MIN,
                 MAX: dist.ReduceOp.MAX, PRODUCT: dist.ReduceOp.PRODUCT}
_REDUCE_NAMES = {AVERAGE: "Average", SUM: "Sum", ADASUM: "Adasum", MIN: "Min", MAX: "Max",
                 PRODUCT: "Product"}

_TYPES = (D.uint8, D.int8, D.int16, D.int32, D.int64, D.float16, D.bfloat16, D.float32,
          D.float64, D.bool)
# gloo has no int16 kernels: such tensors travel as int32.
_WIRE_DTYPE = {torch.int16: torch.int32}


def normalize_name(name: str) -> str:
    """Horovod's op names: the tensor name with anything but [a-zA-Z0-9_] as '_'."""
    return re.sub("[^a-zA-Z0-9_]", "_", name)


# -- the collectives on torch tensors ------------------------------------------------------

def _wire(x: torch.Tensor) -> torch.Tensor:
    """A contiguous copy the collective may overwrite, in a dtype the backend supports."""
    wire = _WIRE_DTYPE.get(x.dtype)
    out = x.detach().to(wire) if wire is not None else x.detach().clone()
    return out.contiguous()


def _scale(y: torch.Tensor, factor: float) -> torch.Tensor:
    """`y * factor`, for integers as Horovod's ScaleBuffer: computed in double, truncated."""
    if factor == 1.0:
        return y
    if y.is_floating_point() or y.is_complex():
        return y.mul_(factor)
    if y.dtype == torch.bool:
        return y
    return (y.double() * factor).to(y.dtype)


class _Reduction:
    """One allreduce configuration: the reduction, the scale factors, the op's name."""

    def __init__(self, name: str, reduce_op: int, prescale: float, postscale: float):
        if reduce_op == ADASUM:
            raise NotImplementedError(
                f"{name}: the Adasum reduction is not supported by tf1compat (torch.distributed "
                "has no Adasum); use op=hvd.Average or hvd.Sum")
        if reduce_op not in _TORCH_REDUCE:
            raise ValueError(f"{name}: unknown reduce_op {reduce_op}")
        self.name = name
        self.reduce_op = reduce_op
        self.prescale = prescale
        self.postscale = postscale
        self.checked = {"forward": False, "backward": False}

    def run(self, tensors: Sequence[torch.Tensor], direction: str) -> List[torch.Tensor]:
        """Reduces `tensors` (one dtype) across processes in one fused buffer."""
        world = pg.world()
        if not self.checked[direction]:
            signature = (f"allreduce {self.name} ({direction}) "
                         f"{[(str(t.dtype), tuple(t.shape)) for t in tensors]}")
            pg.check_same_collective(signature, self.name)
            self.checked[direction] = True
        dtype = tensors[0].dtype
        flat = torch.cat([_wire(t).reshape(-1) for t in tensors]) if len(tensors) > 1 \
            else _wire(tensors[0]).reshape(-1)
        flat = _scale(flat, self.prescale)
        if world.size > 1:
            pg.collective(self.name, lambda: dist.all_reduce(
                flat, op=_TORCH_REDUCE[self.reduce_op]))
        if self.reduce_op == AVERAGE:
            flat = _scale(flat, 1.0 / world.size)
        flat = _scale(flat, self.postscale)
        if flat.dtype != dtype:
            flat = flat.to(dtype)
        out, offset = [], 0
        for t in tensors:
            n = t.numel()
            out.append(flat[offset:offset + n].reshape(t.shape))
            offset += n
        return out


class _AllreduceFunction(torch.autograd.Function):
    """Allreduce whose gradient is the same allreduce of the incoming gradients."""

    @staticmethod
    def forward(ctx: Any, reduction: _Reduction, *tensors: torch.Tensor) -> Any:
        ctx.reduction = reduction
        return tuple(reduction.run(tensors, "forward"))

    @staticmethod
    def backward(ctx: Any, *grads: torch.Tensor) -> Any:
        return (None,) + tuple(ctx.reduction.run(grads, "backward"))


def _allreduce_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    reduction = _Reduction(node.name, int(node.attrs["reduce_op"]),
                           float(node.attrs["prescale_factor"]),
                           float(node.attrs["postscale_factor"]))
    single = node.type == "HorovodAllreduce"

    def run(*tensors: torch.Tensor) -> Any:
        out = _AllreduceFunction.apply(reduction, *tensors)
        return out[0] if single else tuple(out)
    return run


def _gather_rows(x: torch.Tensor, name: str) -> tuple:
    """All processes' `x` concatenated on dimension 0 (sizes may differ); and the sizes."""
    world = pg.world()
    if world.size == 1:
        return x.detach().clone(), [x.shape[0]]
    wire = _wire(x)
    rows = torch.tensor([wire.shape[0]], dtype=torch.int64)
    all_rows = [torch.zeros_like(rows) for _ in range(world.size)]
    pg.collective(name, lambda: dist.all_gather(all_rows, rows))
    sizes = [int(r) for r in all_rows]
    longest = max(sizes)
    padded = wire
    if wire.shape[0] < longest:
        padding = torch.zeros((longest - wire.shape[0],) + tuple(wire.shape[1:]),
                              dtype=wire.dtype, device=wire.device)
        padded = torch.cat([wire, padding])
    pieces = [torch.empty_like(padded) for _ in range(world.size)]
    pg.collective(name, lambda: dist.all_gather(pieces, padded))
    out = torch.cat([p[:n] for p, n in zip(pieces, sizes)])
    return out.to(x.dtype), sizes


class _AllgatherFunction(torch.autograd.Function):
    """Horovod's allgather gradient: the averaged gradient's rows of this rank."""

    @staticmethod
    def forward(ctx: Any, spec: dict, x: torch.Tensor) -> torch.Tensor:
        if not spec["checked"]:
            pg.check_same_collective(f"allgather {spec['name']} {x.dtype} "
                                     f"{tuple(x.shape[1:])}", spec["name"])
            spec["checked"] = True
        out, sizes = _gather_rows(x, spec["name"])
        ctx.sizes = sizes
        ctx.spec = spec
        return out

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        reduction = ctx.spec.setdefault(
            "grad_reduction", _Reduction(ctx.spec["name"] + "_grad", AVERAGE, 1.0, 1.0))
        averaged = reduction.run([grad], "backward")[0]
        rank = pg.world().rank
        start = sum(ctx.sizes[:rank])
        return None, averaged[start:start + ctx.sizes[rank]]


def _allgather_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    spec = {"name": node.name, "checked": False}
    return lambda x: _AllgatherFunction.apply(spec, x)


class _BroadcastFunction(torch.autograd.Function):
    """Horovod's broadcast gradient: the averaged gradient on the root, zeros elsewhere."""

    @staticmethod
    def forward(ctx: Any, spec: dict, x: torch.Tensor) -> torch.Tensor:
        world = pg.world()
        root = spec["root_rank"]
        if not 0 <= root < world.size:
            from tf1compat.framework import errors
            raise errors.InvalidArgumentError(
                None, None, f"{spec['name']}: root_rank {root} is not a rank of this job "
                            f"(size {world.size})")
        if not spec["checked"]:
            pg.check_same_collective(f"broadcast {spec['name']} {x.dtype} {tuple(x.shape)} "
                                     f"root {root}", spec["name"])
            spec["checked"] = True
        y = _wire(x)
        if world.size > 1:
            pg.collective(spec["name"], lambda: dist.broadcast(y, src=root))
        ctx.spec = spec
        return y.to(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        reduction = ctx.spec.setdefault(
            "grad_reduction", _Reduction(ctx.spec["name"] + "_grad", AVERAGE, 1.0, 1.0))
        averaged = reduction.run([grad], "backward")[0]
        if pg.world().rank != ctx.spec["root_rank"]:
            averaged = averaged * 0
        return None, averaged


def _broadcast_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    spec = {"name": node.name, "root_rank": int(node.attrs["root_rank"]), "checked": False}
    return lambda x: _BroadcastFunction.apply(spec, x)


def _query_kernel(field: str) -> Callable[[Any, Any], Callable[[], torch.Tensor]]:
    def factory(node: Any, kctx: Any) -> Callable[[], torch.Tensor]:
        def run() -> torch.Tensor:
            return torch.tensor(getattr(pg.world(), field), dtype=torch.int32)
        return run
    return factory


def _allgather_shape(ctx: Any) -> List[TensorShape]:
    shape = ctx.shape(0)
    if shape.rank is None:
        return [shape]
    if shape.rank == 0:
        raise ValueError(f"Shape must be at least rank 1 but is rank 0 for '{ctx.name}' "
                         f"(op: 'HorovodAllgather')")
    return [TensorShape([None] + shape.as_list()[1:])]


_COMMON_ATTRS = {"ignore_name_scope": False, "process_set_id": 0}
_REDUCE_ATTRS = {"reduce_op": SUM, "prescale_factor": 1.0, "postscale_factor": 1.0,
                 **_COMMON_ATTRS}

declare("HorovodAllreduce", inputs=["tensor: T"], outputs=["sum: T"],
        attrs={"T": Type(_TYPES), **_REDUCE_ATTRS},
        shape=lambda ctx: [ctx.shape(0)], kernel=_allreduce_kernel, stateful=True,
        doc="Horovod's allreduce across the job's processes (torch.distributed).")
declare("HorovodGroupedAllreduce", inputs=["tensors: num_tensors * T"],
        outputs=["summed: num_tensors * T"],
        attrs={"T": Type(_TYPES), "num_tensors": Int(1), **_REDUCE_ATTRS},
        shape=lambda ctx: ctx.shapes, kernel=_allreduce_kernel, stateful=True,
        doc="Allreduce of several tensors of one dtype in one fused buffer.")
declare("HorovodAllgather", inputs=["tensor: T"], outputs=["output: T"],
        attrs={"T": Type(_TYPES), **_COMMON_ATTRS},
        shape=_allgather_shape, kernel=_allgather_kernel, stateful=True,
        doc="Concatenates every process's tensor on dimension 0 (rank order).")
declare("HorovodBroadcast", inputs=["tensor: T"], outputs=["output: T"],
        attrs={"T": Type(_TYPES), "root_rank": 0, **_COMMON_ATTRS},
        shape=lambda ctx: [ctx.shape(0)], kernel=_broadcast_kernel, stateful=True,
        doc="The root rank's tensor on every process.")
for _op_type, _field in (("HorovodSize", "size"), ("HorovodRank", "rank"),
                         ("HorovodLocalSize", "local_size"), ("HorovodLocalRank", "local_rank")):
    declare(_op_type, outputs=["output: int32"], attrs={"process_set_id": 0},
            shape=lambda ctx: [TensorShape([])], kernel=_query_kernel(_field), stateful=True,
            grad="none", doc=f"This process's Horovod {_field} (int32 scalar).")


# -- graph-building wrappers (horovod.tensorflow.mpi_ops) -------------------------------------

def _op_name(prefix: str, tensor: Tensor, name: Optional[str]) -> str:
    if name is not None:
        return name
    # Eager tensors have no name: Horovod then leaves the op its type's name.
    return prefix if _context.executing_eagerly() else \
        f"{prefix}_{normalize_name(tensor.name)}"


def _scoped(name: str, ignore_name_scope: bool) -> str:
    # A name ending in "/" is taken as an absolute scope by the graph: the op keeps it.
    return name + "/" if ignore_name_scope else name


def allreduce_op(tensor: Any, name: Optional[str] = None, op: int = SUM,
                 prescale_factor: float = 1.0, postscale_factor: float = 1.0,
                 ignore_name_scope: bool = False) -> Tensor:
    """Horovod's `_allreduce`: one HorovodAllreduce op (named after the tensor)."""
    return apply_op("HorovodAllreduce", [tensor],
                    {"reduce_op": op, "prescale_factor": float(prescale_factor),
                     "postscale_factor": float(postscale_factor),
                     "ignore_name_scope": ignore_name_scope},
                    name=_scoped(_op_name("HorovodAllreduce", tensor, name),
                                 ignore_name_scope)).outputs[0]


def grouped_allreduce_op(tensors: Sequence[Any], name: Optional[str] = None, op: int = SUM,
                         prescale_factor: float = 1.0, postscale_factor: float = 1.0,
                         ignore_name_scope: bool = False) -> List[Tensor]:
    """Horovod's `_grouped_allreduce`: one HorovodGroupedAllreduce op for all tensors."""
    if name is None and _context.executing_eagerly():
        name = "HorovodGroupedAllreduce"
    elif name is None:
        name = normalize_name(f"HorovodGroupedAllreduce_{tensors[0].name}_{tensors[-1].name}")
    return apply_op("HorovodGroupedAllreduce", [list(tensors)],
                    {"reduce_op": op, "prescale_factor": float(prescale_factor),
                     "postscale_factor": float(postscale_factor),
                     "ignore_name_scope": ignore_name_scope},
                    name=_scoped(name, ignore_name_scope)).outputs


def allgather_op(tensor: Any, name: Optional[str] = None,
                 ignore_name_scope: bool = False) -> Tensor:
    """Horovod's `allgather` op."""
    return apply_op("HorovodAllgather", [tensor], {"ignore_name_scope": ignore_name_scope},
                    name=_scoped(_op_name("HorovodAllgather", tensor, name),
                                 ignore_name_scope)).outputs[0]


def broadcast_op(tensor: Any, root_rank: int, name: Optional[str] = None,
                 ignore_name_scope: bool = False) -> Tensor:
    """Horovod's `broadcast` op."""
    return apply_op("HorovodBroadcast", [tensor],
                    {"root_rank": int(root_rank), "ignore_name_scope": ignore_name_scope},
                    name=_scoped(_op_name("HorovodBroadcast", tensor, name),
                                 ignore_name_scope)).outputs[0]


def _query(op_type: str) -> Callable[..., Tensor]:
    def query(process_set_id: int = 0, name: Optional[str] = None) -> Tensor:
        return apply_op(op_type, [], {"process_set_id": process_set_id},
                        name=name or op_type).outputs[0]
    query.__name__ = normalize_name(op_type)
    query.__doc__ = f"Horovod's {op_type} op: an int32 scalar known when the graph runs."
    return query


size_op = _query("HorovodSize")
rank_op = _query("HorovodRank")
local_size_op = _query("HorovodLocalSize")
local_rank_op = _query("HorovodLocalRank")
