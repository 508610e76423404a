"""What Horovod's coordinator does before each collective, on torch.distributed: agree on
the operation, and let ranks that called `hvd.join()` take part in the others' allreduces.

torch.distributed matches collectives by call order where Horovod matches them by name.
So before each collective op runs, the processes of its set exchange a small header (one
int64 allreduce): how many of them are active, the collective's kind, a checksum of its
name, dtype and shape, its dtype, element count, reduction and device. Processes at
different collectives (different graphs, different fetches) get FailedPreconditionError
("Mismatched collective operations ...") instead of exchanging unrelated tensors.

`hvd.join()` (Horovod's uneven-data helper): a joined process keeps answering headers; for
each allreduce the others run it contributes zeros of the announced size (so an Average
still divides by the full size, as Horovod's does), until every process has joined; all
then return the rank that joined last. Allgather, broadcast, alltoall, reducescatter and
Adasum while a process is joined fail as in Horovod ("... is not supported with Join at
this time.").
"""

from __future__ import annotations

import zlib
from typing import Any, Callable, List, Optional

import torch
import torch.distributed as dist

from tf1compat.distribute import process_group as pg
from tf1compat.distribute.process_sets import Members
from tf1compat.framework import errors

__all__ = ["ALLREDUCE", "ALLGATHER", "BROADCAST", "ALLTOALL", "REDUCESCATTER", "ADASUM",
           "negotiate", "begin", "join"]

ALLREDUCE, ALLGATHER, BROADCAST, ALLTOALL, REDUCESCATTER, ADASUM = 1, 2, 3, 4, 5, 6
_KIND_NAMES = {ALLGATHER: "Allgather", BROADCAST: "Broadcast", ALLTOALL: "Alltoall",
               REDUCESCATTER: "Reducescatter", ADASUM: "Adasum"}
_DTYPES = (torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64, torch.float16,
           torch.bfloat16, torch.float32, torch.float64, torch.bool)
_REDUCE_OPS = (dist.ReduceOp.SUM, dist.ReduceOp.MIN, dist.ReduceOp.MAX, dist.ReduceOp.PRODUCT)
# Header fields; the joined-rank flags follow them (global set only).
_ACTIVE, _KIND, _CHECKSUM, _DTYPE, _NUMEL, _REDUCE, _CUDA, _FIELDS = range(8)


class _JoinState:
    """Which ranks the last header showed as joined (the same on every process)."""
    joined: Optional[torch.Tensor] = None


_STATE = _JoinState()


def _reduce_code(reduce_op: Any) -> int:
    for i, known in enumerate(_REDUCE_OPS):
        if reduce_op == known:
            return i
    raise ValueError(f"unknown torch reduce op {reduce_op}")


def negotiate(kind: int, name: str, signature: str, members: Members,
              like: Optional[torch.Tensor] = None, numel: int = 0,
              reduce_op: Any = dist.ReduceOp.SUM) -> None:
    """Agrees with the set's other processes on the collective about to run (`like`: the
    wire tensor of an allreduce, which joined processes shadow with zeros)."""
    begin(kind, name, signature, members, like, numel, reduce_op)()


def begin(kind: int, name: str, signature: str, members: Members,
          like: Optional[torch.Tensor] = None, numel: int = 0,
          reduce_op: Any = dist.ReduceOp.SUM, wait: bool = True) -> Callable[[], None]:
    """`negotiate`, whose header exchange (with `wait=False`) overlaps the collective the
    caller issues next: call the returned function before using that collective's result.
    Only for allreduces, the one collective joined processes take part in; their matching
    is by issue order, so the pair stays matched."""
    size = members.size
    if size == 1:
        return _done
    joinable = members.process_set_id == 0
    header = torch.zeros(_FIELDS + (size if joinable else 0), dtype=torch.int64)
    header[_ACTIVE] = 1
    header[_KIND] = kind
    header[_CHECKSUM] = zlib.crc32(signature.encode("utf-8"))
    if like is not None:
        header[_DTYPE] = _DTYPES.index(like.dtype)
        header[_NUMEL] = numel
        header[_REDUCE] = _reduce_code(reduce_op)
        header[_CUDA] = int(like.is_cuda)
    mine = header[:_FIELDS].clone()
    if not wait:
        work = pg.collective(name, lambda: dist.all_reduce(header, group=members.group,
                                                           async_op=True))

        def finish() -> None:
            pg.collective(name, work.wait)
            _agreed(kind, name, signature, members, header, mine)
        return finish
    pg.collective(name, lambda: dist.all_reduce(header, group=members.group))
    _agreed(kind, name, signature, members, header, mine)
    return _done


def _done() -> None:
    """Nothing left to agree on."""


def _agreed(kind: int, name: str, signature: str, members: Members, header: torch.Tensor,
            mine: torch.Tensor) -> None:
    """Checks the summed header: the same collective everywhere; join's restrictions."""
    size = members.size
    joinable = members.process_set_id == 0
    active = int(header[_ACTIVE])
    if joinable:
        _STATE.joined = header[_FIELDS:].clone()
    if not torch.equal(header[1:_FIELDS], mine[1:] * active):
        _mismatch(signature, name, members, active)
    joined = size - active
    if joined and kind != ALLREDUCE:
        if kind == ALLGATHER:
            message = ("Allgather is not supported with Join at this time. Specify "
                       "sparse_to_dense=True if using DistributedOptimizer")
        else:
            message = f"{_KIND_NAMES[kind]} is not supported with Join at this time."
        raise errors.FailedPreconditionError(None, None, f"{name}: {message}")


def _mismatch(signature: str, name: str, members: Members, active: int) -> None:
    """Every active process saw the mismatch in the same header: list what each runs."""
    listing = ""
    if active == members.size:
        names: List[Any] = [None] * members.size
        pg.collective(name, lambda: dist.all_gather_object(names, signature,
                                                           group=members.group))
        listing = " (" + "; ".join(f"rank {members.ranks[r]}: {n}"
                                   for r, n in enumerate(names)) + ")"
    raise errors.FailedPreconditionError(
        None, None, f"Mismatched collective operations: the processes are not running the same "
                    f"collective{listing}. Every process must build the same graph and run the "
                    "same fetches, so that collectives happen in the same order.")


def join() -> int:
    """Horovod's `join`: this process has no more data. It shadows the others' allreduces
    with zeros until every process has joined; returns the rank that joined last."""
    world = pg.world()
    if world.size == 1:
        return world.rank
    previous = _STATE.joined if _STATE.joined is not None else \
        torch.zeros(world.size, dtype=torch.int64)
    while True:
        header = torch.zeros(_FIELDS + world.size, dtype=torch.int64)
        header[_FIELDS + world.rank] = 1
        pg.collective("HorovodJoin", lambda: dist.all_reduce(header))
        active = int(header[_ACTIVE])
        flags = header[_FIELDS:].clone()
        if active == 0:
            newly = [r for r in range(world.size) if flags[r] and not previous[r]]
            _STATE.joined = None
            return max(newly)
        previous = flags
        _STATE.joined = flags
        if int(header[_KIND]) // active != ALLREDUCE:
            continue            # the active processes raise Horovod's error
        dtype = _DTYPES[int(header[_DTYPE]) // active]
        numel = int(header[_NUMEL]) // active
        device = "cuda" if int(header[_CUDA]) else "cpu"
        zeros = torch.zeros(numel, dtype=dtype, device=device)
        reduce_op = _REDUCE_OPS[int(header[_REDUCE]) // active]
        pg.collective("HorovodJoin", lambda: dist.all_reduce(zeros, op=reduce_op))
