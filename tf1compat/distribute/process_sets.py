"""Horovod's process sets on torch.distributed groups.

A process set restricts a collective to some ranks of the job: `hvd.ProcessSet([0, 2])`
passed to `hvd.init(process_sets=[...])` (every process passes the same list), or added
later with `hvd.add_process_set([0, 2])` after `hvd.init(process_sets="dynamic")` (or
HOROVOD_DYNAMIC_PROCESS_SETS=1; every process calls it, in the same order). Each set is a
`torch.distributed.new_group` of its ranks; ids are given as Horovod gives them (0 is the
global set, then 1, 2, ... in the order the sets are registered; a second set with the
same ranks is refused or, at init, invalidated). A collective's `process_set_id` attr
names the set; its kernel asks `members()` for the group at run time, so a graph may be
built before the set exists. `ProcessSet.rank()` is the rank within the set (the order
of `allgather`'s pieces); `broadcast`'s `root_rank` stays a global rank, as in Horovod.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from typing import Any, Dict, List, Optional, Sequence, Union

import torch.distributed as dist

from tf1compat.distribute import process_group as pg
from tf1compat.framework import errors

__all__ = ["ProcessSet", "global_process_set", "setup", "reset", "add_process_set",
           "remove_process_set", "members", "Members", "DYNAMIC_ENV"]

DYNAMIC_ENV = "HOROVOD_DYNAMIC_PROCESS_SETS"


class ProcessSet:
    """Horovod's `ProcessSet(ranks)`: a set of ranks running collectives together; its
    `process_set_id` is set once it is registered (by `hvd.init` or `add_process_set`)."""

    process_set_id: Optional[int] = None
    ranks: Optional[List[int]] = None
    mpi_comm: Any = None

    def __init__(self, ranks_or_comm: Union[Sequence[int], Any]):
        try:
            ranks = sorted(ranks_or_comm)
        except TypeError:
            ranks = None
        if ranks is None or any(not isinstance(r, int) for r in ranks):
            if ranks is None:
                raise ValueError(
                    "Apparently you tried to build a ProcessSet from an MPI communicator, but "
                    "Horovod has not been built with MPI support (tf1compat's Horovod runs on "
                    "torch.distributed: give a list of ranks)")
            raise ValueError("ProcessSet should be initialized with a list of process ranks "
                             "or an mpi4py Comm object")
        self.ranks = ranks

    def _invalidate(self) -> None:
        self.process_set_id = None

    def size(self) -> Optional[int]:
        """The number of processes in the set (None while it is not registered)."""
        if self.process_set_id is None:
            return None
        return members(self.process_set_id).size

    def rank(self) -> Optional[int]:
        """This process's rank within the set (None while it is not registered)."""
        if self.process_set_id is None:
            return None
        return members(self.process_set_id).rank

    def included(self) -> Optional[bool]:
        """Whether this process belongs to the set (None without ranks)."""
        if self.ranks is None:
            return None
        return pg.world().rank in self.ranks

    def __str__(self) -> str:
        return (f"ProcessSet(process_set_id={self.process_set_id}, ranks={self.ranks}, "
                f"mpi_comm={self.mpi_comm})")

    __repr__ = __str__


global_process_set = ProcessSet([])
global_process_set.process_set_id = 0


@dataclass(frozen=True)
class Members:
    """A registered set as the kernels use it: its ranks, torch group (None: the default
    group) and this process's place in it (rank -1 outside it)."""
    process_set_id: int
    ranks: List[int]
    group: Any
    rank: int

    @property
    def size(self) -> int:
        return len(self.ranks)

    @property
    def included(self) -> bool:
        return self.rank >= 0


class _Table:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.sets: Dict[int, Members] = {}
        self.next_id = 1
        self.dynamic = False


_TABLE = _Table()


def _register(ranks: List[int]) -> Optional[int]:
    """Creates the torch group of `ranks` (every process must call this, in the same order);
    None when a set with these ranks exists already."""
    world = pg.world()
    if any(not 0 <= r < world.size for r in ranks) or len(set(ranks)) != len(ranks):
        raise ValueError(f"ProcessSet ranks {ranks} are not distinct ranks of this job "
                         f"(size {world.size})")
    if not ranks:
        raise ValueError("A ProcessSet needs at least one rank")
    if any(m.ranks == ranks for m in _TABLE.sets.values()):
        return None
    group = dist.new_group(ranks) if world.size > 1 else None
    set_id = _TABLE.next_id
    _TABLE.next_id += 1
    rank = ranks.index(world.rank) if world.rank in ranks else -1
    _TABLE.sets[set_id] = Members(set_id, ranks, group, rank)
    return set_id


def setup(process_sets: Any) -> None:
    """Registers the global set and `hvd.init(process_sets=...)`'s sets (after pg.init)."""
    world = pg.world()
    with _TABLE.lock:
        _TABLE.sets = {0: Members(0, list(range(world.size)), None, world.rank)}
        _TABLE.next_id = 1
        _TABLE.dynamic = os.environ.get(DYNAMIC_ENV, "0") not in ("", "0")
        if isinstance(process_sets, str):
            if process_sets.lower() != "dynamic":
                raise ValueError(f"process_sets={process_sets!r}: give a list of ProcessSets "
                                 "or 'dynamic'")
            os.environ[DYNAMIC_ENV] = "1"
            _TABLE.dynamic = True
            process_sets = []
        global_process_set.ranks = list(range(world.size))
        seen = {0}
        for ps in process_sets or []:
            if not isinstance(ps, ProcessSet):
                raise ValueError(f"hvd.init(process_sets=...) takes ProcessSet objects, got "
                                 f"{ps!r}")
            if ps.ranks == global_process_set.ranks:
                ps.process_set_id = 0
            else:
                found = _register(ps.ranks)
                ps.process_set_id = found if found is not None else next(
                    i for i, m in _TABLE.sets.items() if m.ranks == ps.ranks)
            # Horovod keeps the first object of a set and invalidates its duplicates.
            if ps.process_set_id in seen:
                ps._invalidate()
            else:
                seen.add(ps.process_set_id)


def reset() -> None:
    """Forgets every set (hvd.shutdown); their torch groups die with the process group."""
    with _TABLE.lock:
        _TABLE.sets = {}
        _TABLE.next_id = 1


def add_process_set(process_set: Union[ProcessSet, Sequence[int]]) -> ProcessSet:
    """Registers a new set after `init` (needs dynamic process sets); every process calls
    it with the same ranks. ValueError for a set that exists already."""
    if not isinstance(process_set, ProcessSet):
        process_set = ProcessSet(process_set)
    pg.world()
    with _TABLE.lock:
        if not _TABLE.dynamic:
            raise ValueError("Set HOROVOD_DYNAMIC_PROCESS_SETS=1 to allow adding process sets "
                             "after Horovod initialization.")
        found = _register(process_set.ranks)
    if found is None:
        raise ValueError(f"Attempted to add a duplicate process set: {process_set}")
    process_set.process_set_id = found
    return process_set


def remove_process_set(process_set: ProcessSet) -> bool:
    """Unregisters a set (dynamic sets; never the global one); whether it was removed."""
    set_id = process_set.process_set_id
    if set_id is None or set_id == 0:
        return False
    process_set._invalidate()
    with _TABLE.lock:
        if not _TABLE.dynamic:
            raise ValueError("Set HOROVOD_DYNAMIC_PROCESS_SETS=1 to allow removing process sets "
                             "after Horovod initialization.")
        entry = _TABLE.sets.pop(set_id, None)
    if entry is None:
        return False
    if entry.group is not None and entry.included:
        dist.destroy_process_group(entry.group)
    return True


def members(process_set_id: int, what: str = "") -> Members:
    """The registered set `process_set_id`; with `what` (a collective's name) this process
    must belong to it (InvalidArgumentError otherwise, Horovod's message)."""
    world = pg.world()
    found = _TABLE.sets.get(int(process_set_id))
    if found is None:
        if int(process_set_id) == 0:
            return Members(0, list(range(world.size)), None, world.rank)
        raise errors.InvalidArgumentError(
            None, None, f"{what or 'Horovod'}: process set {process_set_id} is not registered "
                        "(hvd.init(process_sets=...) or hvd.add_process_set)")
    if what and not found.included:
        raise errors.InvalidArgumentError(
            None, None, f"{what}: Rank {world.rank} is not a member of the provided process "
                        "set.")
    return found
