"""Horovod's TensorFlow ops, declared with Horovod's op types and attrs, on torch.distributed.

`HorovodAllreduce`, `HorovodGroupedAllreduce`, `HorovodAllgather`, `HorovodBroadcast` and
the `HorovodSize`/`HorovodRank`/`HorovodLocalSize`/`HorovodLocalRank` queries. Kernels call
the process group of `process_group.py` (gloo on CPU tensors, NCCL on CUDA tensors); a
world of one process makes every collective the identity. Gradients follow Horovod's
registered gradient functions, computed by torch autograd through
`torch.autograd.Function`s whose backward runs the matching collective: allreduce ->
allreduce of the gradient with the same reduction; allgather -> the averaged gradient's
slice of this rank; broadcast -> the averaged gradient on the root rank, zeros elsewhere.

Every collective runs over the process set its `process_set_id` attr names
(`process_sets.py`: a torch.distributed group) and is preceded by the header exchange of
`negotiation.py` (same collective on every process; `hvd.join`). `reduce_op` Adasum runs
Horovod's Adasum (`adasum.py`). alltoall and reducescatter live in `scatter_ops.py`.
"""

from __future__ import annotations

import re
from typing import Any, Callable, List, Optional, Sequence

import torch
import torch.distributed as dist

from tf1compat.distribute import adasum as _adasum
from tf1compat.distribute import negotiation as _negotiation
from tf1compat.distribute import process_group as pg
from tf1compat.distribute import process_sets as _process_sets
from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["AVERAGE", "SUM", "ADASUM", "MIN", "MAX", "PRODUCT", "allreduce_op",
           "grouped_allreduce_op", "allgather_op", "grouped_allgather_op", "broadcast_op",
           "join_op", "size_op", "rank_op", "local_size_op", "local_rank_op",
           "process_set_included_op", "normalize_name", "process_set_id_of", "grouped_op_name",
           "first_dim_unknown", "wire", "scale", "Reduction",
           "gather_rows"]

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

def wire(x: torch.Tensor) -> torch.Tensor:
    """A contiguous copy the collective may overwrite, in a dtype the backend supports."""
    wire = _WIRE_DTYPE.get(x.dtype)
    out = x.detach().to(wire) if wire is not None else x.detach().clone()
    return out.contiguous()


def scale(y: torch.Tensor, factor: float) -> torch.Tensor:
    """`y * factor`, for integers as Horovod's ScaleBuffer: computed in double, truncated."""
    if factor == 1.0:
        return y
    if y.is_floating_point() or y.is_complex():
        return y.mul_(factor)
    if y.dtype == torch.bool:
        return y
    return (y.double() * factor).to(y.dtype)


class Reduction:
    """One allreduce configuration: the reduction, the scale factors, the process set and
    the op's name."""

    def __init__(self, name: str, reduce_op: int, prescale: float, postscale: float,
                 process_set_id: int = 0):
        if reduce_op not in _TORCH_REDUCE and reduce_op != ADASUM:
            raise ValueError(f"{name}: unknown reduce_op {reduce_op}")
        self.name = name
        self.reduce_op = reduce_op
        self.prescale = prescale
        self.postscale = postscale
        self.process_set_id = process_set_id
        self.agreed = {"forward": False, "backward": False}

    def run(self, tensors: Sequence[torch.Tensor], direction: str) -> List[torch.Tensor]:
        """Reduces `tensors` (one dtype) across the set's processes in one fused buffer."""
        members = _process_sets.members(self.process_set_id, self.name)
        dtype = tensors[0].dtype
        flat = torch.cat([wire(t).reshape(-1) for t in tensors]) if len(tensors) > 1 \
            else wire(tensors[0]).reshape(-1)
        signature = (f"allreduce {self.name} ({direction}) op {self.reduce_op} "
                     f"{[(str(t.dtype), tuple(t.shape)) for t in tensors]}")
        if self.reduce_op == ADASUM:
            flat = self._adasum(flat, [t.numel() for t in tensors], members, signature)
        else:
            flat = scale(flat, self.prescale)
            torch_op = _TORCH_REDUCE[self.reduce_op]
            # The first run of each direction agrees before exchanging data; later runs
            # overlap the agreement with the exchange (one round trip, not two).
            first = not self.agreed[direction]
            finish = _negotiation.begin(_negotiation.ALLREDUCE, self.name, signature, members,
                                        like=flat, numel=flat.numel(), reduce_op=torch_op,
                                        wait=first)
            if members.size > 1:
                work = pg.collective(self.name, lambda: dist.all_reduce(
                    flat, op=torch_op, group=members.group, async_op=True))
                finish()
                pg.collective(self.name, work.wait)
            self.agreed[direction] = True
            if self.reduce_op == AVERAGE:
                flat = scale(flat, 1.0 / members.size)
            flat = scale(flat, self.postscale)
        if flat.dtype != dtype:
            flat = flat.to(dtype)
        out, offset = [], 0
        for t in tensors:
            n = t.numel()
            out.append(flat[offset:offset + n].reshape(t.shape))
            offset += n
        return out

    def _adasum(self, flat: torch.Tensor, counts: List[int], members: Any,
                signature: str) -> torch.Tensor:
        if flat.dtype not in _adasum.SUPPORTED_DTYPES:
            raise errors.InvalidArgumentError(
                None, None, f"{self.name}: Adasum supports float16, float32 and float64 "
                            f"tensors, not {flat.dtype}")
        if members.process_set_id != 0:
            raise NotImplementedError("Adasum does not support non-global process sets yet.")
        if not _adasum.is_power_of_2(members.size):
            raise NotImplementedError("Running Adasum with non-power of 2 ranks is not "
                                      "supported yet.")
        _negotiation.negotiate(_negotiation.ADASUM, self.name, signature, members)
        flat = scale(flat, self.prescale)
        return scale(_adasum.allreduce(flat, counts, members, self.name), self.postscale)


class _AllreduceFunction(torch.autograd.Function):
    """Allreduce whose gradient is the same allreduce of the incoming gradients."""

    @staticmethod
    def forward(ctx: Any, reduction: Reduction, *tensors: torch.Tensor) -> Any:
        ctx.reduction = reduction
        return tuple(reduction.run(tensors, "forward"))

    @staticmethod
    def backward(ctx: Any, *grads: torch.Tensor) -> Any:
        return (None,) + tuple(ctx.reduction.run(grads, "backward"))


def _allreduce_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    reduction = Reduction(node.name, int(node.attrs["reduce_op"]),
                          float(node.attrs["prescale_factor"]),
                          float(node.attrs["postscale_factor"]),
                          int(node.attrs["process_set_id"]))
    single = node.type == "HorovodAllreduce"

    def run(*tensors: torch.Tensor) -> Any:
        out = _AllreduceFunction.apply(reduction, *tensors)
        return out[0] if single else tuple(out)
    return run


def gather_rows(x: torch.Tensor, name: str, members: Any) -> tuple:
    """The set's processes' `x` concatenated on dimension 0 (sizes may differ), in the
    set's rank order; and the sizes."""
    if members.size == 1:
        return x.detach().clone(), [x.shape[0]]
    on_wire = wire(x)
    rows = torch.tensor([on_wire.shape[0]], dtype=torch.int64)
    all_rows = [torch.zeros_like(rows) for _ in range(members.size)]
    pg.collective(name, lambda: dist.all_gather(all_rows, rows, group=members.group))
    sizes = [int(r) for r in all_rows]
    longest = max(sizes)
    padded = on_wire
    if on_wire.shape[0] < longest:
        padding = torch.zeros((longest - on_wire.shape[0],) + tuple(on_wire.shape[1:]),
                              dtype=on_wire.dtype, device=on_wire.device)
        padded = torch.cat([on_wire, padding])
    pieces = [torch.empty_like(padded) for _ in range(members.size)]
    pg.collective(name, lambda: dist.all_gather(pieces, padded, group=members.group))
    out = torch.cat([p[:n] for p, n in zip(pieces, sizes)])
    return out.to(x.dtype), sizes


class _AllgatherFunction(torch.autograd.Function):
    """Allgather of one or more tensors; Horovod's gradient: this rank's rows of each
    averaged gradient."""

    @staticmethod
    def forward(ctx: Any, spec: dict, *tensors: torch.Tensor) -> Any:
        members = _process_sets.members(spec["process_set_id"], spec["name"])
        signature = (f"allgather {spec['name']} "
                     f"{[(str(x.dtype), tuple(x.shape[1:])) for x in tensors]}")
        _negotiation.negotiate(_negotiation.ALLGATHER, spec["name"], signature, members)
        outs, ctx.sizes = [], []
        for x in tensors:
            out, sizes = gather_rows(x, spec["name"], members)
            outs.append(out)
            ctx.sizes.append(sizes)
        ctx.spec = spec
        return tuple(outs)

    @staticmethod
    def backward(ctx: Any, *grads: torch.Tensor) -> Any:
        spec = ctx.spec
        out: List[Any] = [None]
        for k, (grad, sizes) in enumerate(zip(grads, ctx.sizes)):
            reduction = spec.setdefault(f"grad_reduction_{k}", Reduction(
                f"{spec['name']}_grad_{k}", AVERAGE, 1.0, 1.0, spec["process_set_id"]))
            averaged = reduction.run([grad], "backward")[0]
            rank = _process_sets.members(spec["process_set_id"]).rank
            start = sum(sizes[:rank])
            out.append(averaged[start:start + sizes[rank]])
        return tuple(out)


def _allgather_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    spec = {"name": node.name, "process_set_id": int(node.attrs["process_set_id"])}
    single = node.type == "HorovodAllgather"

    def run(*tensors: torch.Tensor) -> Any:
        out = _AllgatherFunction.apply(spec, *tensors)
        return out[0] if single else tuple(out)
    return run


class _BroadcastFunction(torch.autograd.Function):
    """Horovod's broadcast gradient: the averaged gradient on the root, zeros elsewhere."""

    @staticmethod
    def forward(ctx: Any, spec: dict, x: torch.Tensor) -> torch.Tensor:
        members = _process_sets.members(spec["process_set_id"], spec["name"])
        root = spec["root_rank"]
        if root not in members.ranks:
            raise errors.InvalidArgumentError(
                None, None, f"{spec['name']}: root_rank {root} is not a rank of this process "
                            f"set (ranks {members.ranks})")
        _negotiation.negotiate(_negotiation.BROADCAST, spec["name"],
                               f"broadcast {spec['name']} {x.dtype} {tuple(x.shape)} root "
                               f"{root}", members)
        y = wire(x)
        if members.size > 1:
            pg.collective(spec["name"], lambda: dist.broadcast(y, src=root,
                                                               group=members.group))
        ctx.spec = spec
        return y.to(x.dtype)

    @staticmethod
    def backward(ctx: Any, grad: torch.Tensor) -> Any:
        spec = ctx.spec
        reduction = spec.setdefault("grad_reduction", Reduction(
            spec["name"] + "_grad", AVERAGE, 1.0, 1.0, spec["process_set_id"]))
        averaged = reduction.run([grad], "backward")[0]
        if pg.world().rank != spec["root_rank"]:
            averaged = averaged * 0
        return None, averaged


def _broadcast_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    spec = {"name": node.name, "root_rank": int(node.attrs["root_rank"]),
            "process_set_id": int(node.attrs["process_set_id"])}
    return lambda x: _BroadcastFunction.apply(spec, x)


def _query_kernel(field: str) -> Callable[[Any, Any], Callable[[], torch.Tensor]]:
    def factory(node: Any, kctx: Any) -> Callable[[], torch.Tensor]:
        set_id = int(node.attrs.get("process_set_id", 0))

        def run() -> torch.Tensor:
            if set_id and field in ("size", "rank"):
                value = getattr(_process_sets.members(set_id), field)
            else:
                value = getattr(pg.world(), field)
            return torch.tensor(value, dtype=torch.int32)
        return run
    return factory


def _included_kernel(node: Any, kctx: Any) -> Callable[[], torch.Tensor]:
    set_id = int(node.attrs["process_set_id"])
    return lambda: torch.tensor(int(_process_sets.members(set_id).included), dtype=torch.int32)


def _join_kernel(node: Any, kctx: Any) -> Callable[[], torch.Tensor]:
    return lambda: torch.tensor(_negotiation.join(), dtype=torch.int32)


def first_dim_unknown(op_type: str) -> Callable[[Any], List[TensorShape]]:
    """The shape rule of gathers and scatters: each input's shape with dimension 0
    unknown; a scalar input is an error."""
    def rule(ctx: Any) -> List[TensorShape]:
        out = []
        for shape in ctx.shapes:
            if shape.rank == 0:
                raise ValueError(f"Shape must be at least rank 1 but is rank 0 for "
                                 f"'{ctx.name}' (op: '{op_type}')")
            out.append(shape if shape.rank is None else
                       TensorShape([None] + shape.as_list()[1:]))
        return out
    return rule


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
        shape=first_dim_unknown("HorovodAllgather"), kernel=_allgather_kernel,
        stateful=True, doc="Concatenates every process's tensor on dimension 0 (rank order).")
declare("HorovodGroupedAllgather", inputs=["tensors: num_tensors * T"],
        outputs=["outputs: num_tensors * T"],
        attrs={"T": Type(_TYPES), "num_tensors": Int(1), **_COMMON_ATTRS},
        shape=first_dim_unknown("HorovodGroupedAllgather"), kernel=_allgather_kernel,
        stateful=True, doc="Allgather of several tensors of one dtype in one operation.")
declare("HorovodBroadcast", inputs=["tensor: T"], outputs=["output: T"],
        attrs={"T": Type(_TYPES), "root_rank": 0, **_COMMON_ATTRS},
        shape=lambda ctx: [ctx.shape(0)], kernel=_broadcast_kernel, stateful=True,
        doc="The root rank's tensor on every process.")
for _op_type, _field in (("HorovodSize", "size"), ("HorovodRank", "rank"),
                         ("HorovodLocalSize", "local_size"), ("HorovodLocalRank", "local_rank")):
    declare(_op_type, outputs=["output: int32"], attrs={"process_set_id": 0},
            shape=lambda ctx: [TensorShape([])], kernel=_query_kernel(_field), stateful=True,
            grad="none", doc=f"This process's Horovod {_field} (int32 scalar).")
declare("HorovodProcessSetIncluded", outputs=["included: int32"], attrs={"process_set_id": 0},
        shape=lambda ctx: [TensorShape([])], kernel=_included_kernel, stateful=True,
        grad="none", doc="1 if this process belongs to the process set, else 0.")
declare("HorovodJoin", outputs=["output: int32"], shape=lambda ctx: [TensorShape([])],
        kernel=_join_kernel, stateful=True, grad="none",
        doc="Shadows the other processes' allreduces until all joined; the last to join.")


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


def process_set_id_of(process_set: Any) -> int:
    """The `process_set_id` attr of a ProcessSet (ValueError while it is unregistered)."""
    set_id = getattr(process_set, "process_set_id", 0) if process_set is not None else 0
    if set_id is None:
        raise ValueError(f"{process_set} is not registered: pass it to hvd.init(process_sets="
                         "...) or hvd.add_process_set first")
    return int(set_id)


def allreduce_op(tensor: Any, name: Optional[str] = None, op: int = SUM,
                 prescale_factor: float = 1.0, postscale_factor: float = 1.0,
                 ignore_name_scope: bool = False, process_set: Any = None) -> Tensor:
    """Horovod's `_allreduce`: one HorovodAllreduce op (named after the tensor)."""
    return apply_op("HorovodAllreduce", [tensor],
                    {"reduce_op": op, "prescale_factor": float(prescale_factor),
                     "postscale_factor": float(postscale_factor),
                     "ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set)},
                    name=_scoped(_op_name("HorovodAllreduce", tensor, name),
                                 ignore_name_scope)).outputs[0]


def grouped_op_name(prefix: str, tensors: Sequence[Any], name: Optional[str]) -> str:
    """Horovod's name of a grouped op: after its first and last tensors."""
    if name is not None:
        return name
    if _context.executing_eagerly():
        return prefix
    return normalize_name(f"{prefix}_{tensors[0].name}_{tensors[-1].name}")


def grouped_allreduce_op(tensors: Sequence[Any], name: Optional[str] = None, op: int = SUM,
                         prescale_factor: float = 1.0, postscale_factor: float = 1.0,
                         ignore_name_scope: bool = False,
                         process_set: Any = None) -> List[Tensor]:
    """Horovod's `_grouped_allreduce`: one HorovodGroupedAllreduce op for all tensors."""
    name = grouped_op_name("HorovodGroupedAllreduce", tensors, name)
    return apply_op("HorovodGroupedAllreduce", [list(tensors)],
                    {"reduce_op": op, "prescale_factor": float(prescale_factor),
                     "postscale_factor": float(postscale_factor),
                     "ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set)},
                    name=_scoped(name, ignore_name_scope)).outputs


def allgather_op(tensor: Any, name: Optional[str] = None, ignore_name_scope: bool = False,
                 process_set: Any = None) -> Tensor:
    """Horovod's `allgather` op."""
    return apply_op("HorovodAllgather", [tensor],
                    {"ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set)},
                    name=_scoped(_op_name("HorovodAllgather", tensor, name),
                                 ignore_name_scope)).outputs[0]


def grouped_allgather_op(tensors: Sequence[Any], name: Optional[str] = None,
                         ignore_name_scope: bool = False,
                         process_set: Any = None) -> List[Tensor]:
    """Horovod's `grouped_allgather`: one HorovodGroupedAllgather op (one dtype)."""
    name = grouped_op_name("HorovodGroupedAllgather", tensors, name)
    return apply_op("HorovodGroupedAllgather", [list(tensors)],
                    {"ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set)},
                    name=_scoped(name, ignore_name_scope)).outputs


def broadcast_op(tensor: Any, root_rank: int, name: Optional[str] = None,
                 ignore_name_scope: bool = False, process_set: Any = None) -> Tensor:
    """Horovod's `broadcast` op."""
    return apply_op("HorovodBroadcast", [tensor],
                    {"root_rank": int(root_rank), "ignore_name_scope": ignore_name_scope,
                     "process_set_id": process_set_id_of(process_set)},
                    name=_scoped(_op_name("HorovodBroadcast", tensor, name),
                                 ignore_name_scope)).outputs[0]


def join_op() -> Tensor:
    """Horovod's `join`: an int32 scalar, the rank that joined last (see negotiation.py)."""
    return apply_op("HorovodJoin", [], {}, name="HorovodJoin").outputs[0]


def process_set_included_op(process_set_id: int = 0, name: Optional[str] = None) -> Tensor:
    """Horovod's `process_set_included_op`: 1 if this process is in the set, else 0."""
    return apply_op("HorovodProcessSetIncluded", [], {"process_set_id": process_set_id},
                    name=name or "HorovodProcessSetIncluded").outputs[0]


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
