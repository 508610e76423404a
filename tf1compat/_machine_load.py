"""How many of this process's processors other processes keep busy, read cheaply.

The automatic thread policy (`_thread_policy.load_threads`) runs torch's kernels on
every core while the machine is otherwise idle and on the cores left idle while other
processes use some (on a busy machine, one thread more than cores, where libgomp stops
spinning): OpenMP's threads meet at a barrier after every parallel kernel,
so one of them descheduled in favour of another process stalls the rest, and with
spinning waits a two-thread product on a busy 2-core machine was measured at 16 ms
against 0.14 ms (docs/performance.md, "Thread advice").

What is read: `/proc/stat`'s busy and total time of the processors in this process's
affinity set (user, nice, system, irq, softirq and steal count as busy: a hypervisor's
steal is another guest on the same core), less this process's own CPU time
(`time.process_time`, all its threads), over the interval since the previous reading.
That is the CPU other processes got, in cores: unlike the load average (a one-minute
mean of run-queue lengths that counts this process's own threads), it follows a change
within one interval and does not mistake our own spinning OpenMP threads for others'
work. The CPU others got is less than what they asked for when the machine is
oversubscribed; it is still above the threshold that matters (a fraction of a core).

A reading costs one read of a small /proc file and one clock call; callers re-read at
most every `_thread_policy._LOAD_CHECK_SECONDS` (never per op). Before the first interval
exists (at import, where the OpenMP wait policy must be chosen before torch loads),
`runnable_others` averages /proc/stat's count of runnable threads over about 20 ms.
Where /proc/stat is missing (not Linux) the readings are None.

This module imports nothing from tf1compat and not torch.
"""

from __future__ import annotations

import os
import time
from typing import Callable, Optional, Sequence, Tuple

__all__ = ["OthersLoad", "read_proc_stat", "runnable_others", "own_runnable_threads",
           "threads_beside"]

# Columns of a /proc/stat "cpuN" line after its name: user nice system idle iowait irq
# softirq steal guest guest_nice. guest time is already counted in user (and guest_nice
# in nice), so it is left out of both sums.
_BUSY_COLUMNS = (0, 1, 2, 5, 6, 7)
_IDLE_COLUMNS = (3, 4)
_TICKS_PER_SECOND = float(os.sysconf("SC_CLK_TCK")) if hasattr(os, "sysconf") else 100.0

# A core counts as taken by others once they use more than this much of one: below it
# (a shell, an editor, a short-lived command) our threads lose little to them.
SLACK_CORES = 0.3


def read_proc_stat(cpus: Optional[Sequence[int]] = None,
                   path: str = "/proc/stat") -> Optional[Tuple[float, float]]:
    """(busy seconds, total seconds) summed over `cpus` (every processor when None)
    since boot; None when the file cannot be read or parsed."""
    wanted = None if cpus is None else {f"cpu{c}" for c in cpus}
    busy = total = 0
    found = False
    try:
        with open(path, "rb") as stat:
            for raw in stat:
                if not raw.startswith(b"cpu"):
                    break                       # the cpu lines come first
                name, _, rest = raw.decode("ascii").partition(" ")
                if (wanted is None and name != "cpu") or \
                        (wanted is not None and name not in wanted):
                    continue
                ticks = [int(v) for v in rest.split()]
                b = sum(ticks[i] for i in _BUSY_COLUMNS if i < len(ticks))
                busy += b
                total += b + sum(ticks[i] for i in _IDLE_COLUMNS if i < len(ticks))
                found = True
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not found:
        return None
    return busy / _TICKS_PER_SECOND, total / _TICKS_PER_SECOND


def runnable_others(samples: int = 20, interval: float = 0.001,
                    path: str = "/proc/stat",
                    own: Optional[Callable[[], int]] = None) -> Optional[float]:
    """Other processes' runnable threads, averaged over `samples` readings `interval`
    seconds apart (/proc/stat's `procs_running`, less this process's own runnable
    threads, `own()`: the calling one, and a BLAS pool that numpy, imported first, left
    spinning): what the policy knows before two CPU-time readings exist. Unlike the load
    average (a one-minute mean) it sees only the present, so a process that just exited
    (another benchmark's child, a finished build) does not count. None where it cannot
    be read."""
    own = own or own_runnable_threads
    total = 0
    for i in range(samples):
        if i:
            time.sleep(interval)
        running = _procs_running(path)
        if running is None:
            return None
        total += max(0, running - max(1, own()))
    return total / samples


def own_runnable_threads(task_dir: str = "/proc/self/task") -> int:
    """This process's threads in state R (running or runnable), the caller included; 1
    where /proc cannot tell."""
    try:
        tids = os.listdir(task_dir)
    except OSError:
        return 1
    running = 0
    for tid in tids:
        try:
            with open(os.path.join(task_dir, tid, "stat"), "rb") as stat:
                # The state follows the command name, which is in parentheses and may
                # itself contain spaces or parentheses.
                state = stat.read().rpartition(b")")[2].split()[0]
        except (OSError, IndexError):
            continue
        running += state == b"R"
    return max(1, running)


def _procs_running(path: str) -> Optional[int]:
    try:
        with open(path, "rb") as stat:
            for raw in stat:
                if raw.startswith(b"procs_running "):
                    return int(raw.split()[1])
    except (OSError, ValueError, IndexError):
        return None
    return None


def threads_beside(cores: int, others_busy: Optional[float]) -> int:
    """How many threads to run on `cores` processors while other processes keep
    `others_busy` cores' worth of them busy (None: unknown, every core): one per core
    they leave, a core they use only a little (`SLACK_CORES`) still counted as ours;
    never fewer than one."""
    if others_busy is None:
        return cores
    taken = max(0.0, others_busy - SLACK_CORES)
    whole = int(taken) + (1 if taken > int(taken) else 0)       # ceil for non-negatives
    return max(1, min(cores, cores - whole))


class OthersLoad:
    """Successive readings of the CPU other processes used on `cpus` (the processor ids
    this process may run on).

    `read` returns (busy, total) seconds since boot summed over those processors (tests
    give a fake one; default: /proc/stat); `own_cpu` this process's CPU seconds."""

    def __init__(self, cpus: Sequence[int],
                 read: Optional[Callable[[], Optional[Tuple[float, float]]]] = None,
                 own_cpu: Callable[[], float] = time.process_time):
        cpus = list(cpus)
        self._processors = max(1, len(cpus))
        self._read = read if read is not None else (lambda: read_proc_stat(cpus))
        self._own_cpu = own_cpu
        self._last: Optional[Tuple[float, float, float]] = None

    def sample(self) -> Optional[float]:
        """Cores' worth of CPU other processes used since the previous call; None on the
        first call, when the source is unreadable, or when no time has passed."""
        reading = self._read()
        own = self._own_cpu()
        if reading is None:
            self._last = None
            return None
        busy, total = reading
        last, self._last = self._last, (busy, total, own)
        if last is None or total <= last[1]:
            return None
        # `total` sums every processor's seconds: divided by their number, the
        # wall-clock span of the interval.
        wall = (total - last[1]) / self._processors
        others = (busy - last[0]) - (own - last[2])
        return max(0.0, others / wall)
