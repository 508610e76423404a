"""The torch.distributed process group behind Horovod-style (collective) training.

Processes are started by torch's launcher (`torchrun` or `tf1compat run --nproc-per-node
N`), which sets RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR
and MASTER_PORT. `init()` joins the group through that environment; the backend is gloo
for CPU tensors and, when CUDA is usable, NCCL for CUDA tensors ("cpu:gloo,cuda:nccl").
A process started without the launcher is a world of one: every collective is then the
identity, as Horovod run without `horovodrun`.

Failures: a process that dies or exits closes its connections, and the collectives the
others are in fail at once ("Connection closed by peer"); a process that hangs makes them
fail after the timeout (TF1COMPAT_DISTRIBUTED_TIMEOUT seconds, default torch's 30
minutes). Either way the op raises `tf.errors.UnknownError` with Horovod's shut-down
message, which ends the training loop (MonitoredSession does not retry it).
"""

from __future__ import annotations

import atexit
import datetime
import os
import threading
from dataclasses import dataclass
from typing import Any, Callable, Optional

import torch
import torch.distributed as dist

from tf1compat.framework import errors
from tf1compat.util import tf_logging as _logging

__all__ = ["World", "init", "shutdown", "is_initialized", "world", "backend_name",
           "collective", "TIMEOUT_ENV", "SHUT_DOWN_MESSAGE"]

TIMEOUT_ENV = "TF1COMPAT_DISTRIBUTED_TIMEOUT"
BACKEND_ENV = "TF1COMPAT_DISTRIBUTED_BACKEND"

# Horovod's error when a collective cannot complete (horovod/common/common.h).
SHUT_DOWN_MESSAGE = (
    "Horovod has been shut down. This was caused by an exception on one of the ranks or an "
    "attempt to allreduce, allgather or broadcast a tensor after one of the ranks finished "
    "execution. If the shutdown was caused by an exception, you should see the exception in "
    "the log before the first shutdown message.")


@dataclass(frozen=True)
class World:
    """This process's place in the job (Horovod's rank/size family)."""
    rank: int
    size: int
    local_rank: int
    local_size: int
    cross_rank: int
    cross_size: int


_lock = threading.Lock()
_world: Optional[World] = None


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return default if value in (None, "") else int(value)


def _world_from_environment() -> World:
    size = _env_int("WORLD_SIZE", 1)
    rank = _env_int("RANK", 0)
    local_size = _env_int("LOCAL_WORLD_SIZE", size)
    local_rank = _env_int("LOCAL_RANK", rank)
    cross_rank = _env_int("GROUP_RANK", 0)
    cross_size = _env_int("GROUP_WORLD_SIZE", max(1, size // max(local_size, 1)))
    if not 0 <= rank < size:
        raise ValueError(f"RANK={rank} is not in [0, WORLD_SIZE={size})")
    return World(rank, size, local_rank, local_size, cross_rank, cross_size)


def backend_name(local_size: int = 1) -> str:
    """gloo on CPU; gloo for CPU tensors and NCCL for CUDA tensors when CUDA is usable and
    each of the `local_size` processes on this host has a GPU of its own (NCCL refuses
    two ranks on one GPU: "Duplicate GPU detected"); with fewer GPUs than processes,
    gloo carries the CUDA tensors too."""
    chosen = os.environ.get(BACKEND_ENV)
    if chosen:
        return chosen
    if torch.cuda.is_available() and dist.is_nccl_available():
        if local_size <= torch.cuda.device_count():
            return "cpu:gloo,cuda:nccl"
        _logging.info("%d processes on this host share %d GPU(s): collectives over gloo "
                      "(NCCL needs a GPU per process)", local_size,
                      torch.cuda.device_count())
    return "gloo"


def timeout() -> datetime.timedelta:
    seconds = os.environ.get(TIMEOUT_ENV)
    if seconds:
        return datetime.timedelta(seconds=float(seconds))
    return datetime.timedelta(minutes=30)


def init(explicit: Optional[World] = None, rendezvous: Optional[str] = None) -> World:
    """Joins the job's process group (idempotent); returns this process's place in it.

    By default the place comes from torch's launcher environment. `explicit` gives it
    instead, with `rendezvous` ("host:port" of rank 0, where torch's store listens): what
    a TF_CONFIG cluster describes (MultiWorkerMirroredStrategy)."""
    global _world
    with _lock:
        if _world is not None:
            if explicit is not None and (explicit.rank, explicit.size) != \
                    (_world.rank, _world.size):
                raise ValueError(f"this process already joined a job as rank {_world.rank} "
                                 f"of {_world.size}; it cannot also be rank {explicit.rank} "
                                 f"of {explicit.size}")
            return _world
        found = explicit or _world_from_environment()
        init_method = f"tcp://{rendezvous}" if explicit is not None and rendezvous else None
        if found.size > 1 and not dist.is_initialized():
            if init_method is None and ("MASTER_ADDR" not in os.environ or
                                        "MASTER_PORT" not in os.environ):
                raise ValueError(
                    f"WORLD_SIZE={found.size} but MASTER_ADDR/MASTER_PORT are not set: start "
                    "the processes with `torchrun` or `tf1compat run --nproc-per-node N`")
            if found.local_size > 1 and torch.cuda.is_available():
                # Each process drives its own GPU, as Horovod scripts pin it through
                # visible_device_list = local_rank.
                torch.cuda.set_device(found.local_rank % torch.cuda.device_count())
            dist.init_process_group(backend_name(found.local_size), init_method=init_method,
                                    rank=found.rank, world_size=found.size, timeout=timeout())
            # A process group still alive at interpreter exit is torn down by C++
            # destructors, which abort ("terminate called without an active exception")
            # when a peer has already gone: leave it while Python still runs.
            atexit.register(_leave_at_exit)
        _world = found
        return found


def _leave_at_exit() -> None:
    try:
        shutdown()
    except Exception:  # noqa: BLE001 - peers may be gone already; exiting either way
        pass


def shutdown() -> None:
    """Leaves the process group (Horovod's `shutdown`); `init()` may join again."""
    global _world
    with _lock:
        if dist.is_initialized():
            dist.destroy_process_group()
        _world = None


def is_initialized() -> bool:
    return _world is not None


def world() -> World:
    """This process's place; ValueError (Horovod's message) before `init()`."""
    if _world is None:
        raise ValueError("Horovod has not been initialized; use hvd.init().")
    return _world


def collective(what: str, fn: Callable[[], Any]) -> Any:
    """Runs one torch.distributed call; a failure (a peer died, exited or timed out)
    becomes TF's UnknownError with Horovod's shut-down message and the cause."""
    try:
        return fn()
    except RuntimeError as e:      # gloo/NCCL errors (DistBackendError is one)
        raise errors.UnknownError(None, None, f"{SHUT_DOWN_MESSAGE} ({what} failed: "
                                              f"{str(e).strip()})") from e
