"""Thread policy: how many threads torch's kernels use, and how idle OpenMP threads wait.

A CPU shared with other work is where TF1 scripts usually run, and torch's defaults suit
an idle one: as many OpenMP threads as cores, each spinning a while after a parallel
region in case another follows. With every core busy those threads spin against each
other and against the other processes, and every parallel region waits at its barrier
for a thread the scheduler has descheduled: a training loop then runs many times slower
than on one thread. Sleeping threads (`OMP_WAIT_POLICY=PASSIVE`) are safe there, but on
an idle machine every parallel kernel then pays for waking them (MLP training 0.50x TF
against 0.82x with spinning threads, docs/performance.md). TensorFlow's Eigen pool spins
briefly and then sleeps, and its work-stealing tasks do not wait for one another.

tf1compat gets both by letting the thread count follow the machine's load:

* OpenMP's wait policy, decided before torch loads (`import tf1compat`, hence also
  `install()` and the `tf1compat` command, runs `prepare_environment()` first).
  `TF1COMPAT_WAIT_POLICY=auto` (the default) looks at the machine as it starts (other
  processes' runnable threads over about 20 ms): idle, libgomp's own bounded spin (about
  300,000 pause loops, 3 ms here, then sleep); busy, `PASSIVE` (as before session 7).
  `passive|active|keep` fix it, and a user's `OMP_WAIT_POLICY` / `GOMP_SPINCOUNT` win.
  libgomp reads this once, when torch's library loads: if torch was imported before
  tf1compat it is too late, and `describe()` says so.
* The thread count, applied with `torch.set_num_threads` once torch is loaded (and again
  for each Session, which also honours `ConfigProto.intra_op_parallelism_threads` /
  `inter_op_parallelism_threads`): `TF1COMPAT_THREADS=N` fixes it; otherwise
  `OMP_NUM_THREADS` (torch's own reading) wins when set; otherwise ("auto")
  `load_threads()`. While idle threads spin it is every core this process may use less
  those other processes keep busy (`_machine_load.py` reads /proc/stat at most once a
  second, never per op), and on a machine they leave one core or none, one thread more
  than cores: libgomp then cuts its spin to a few microseconds by itself (its threads
  outnumber its processors), so nothing spins against the other processes and the
  threads sleep as PASSIVE ones do (`_spinning_count`). With PASSIVE threads it is the
  cores other processes leave idle, down to one (their wake-ups at every parallel region
  cost more than the region saves on a busy machine). `TF1COMPAT_FOLLOW_LOAD=0` turns
  following the load off (every core whatever the load). runtime/thread_tuner.py then times each heavy
  plan's own runs on one thread and on `load_threads()` and keeps the faster, and
  ops/_onednn_matmul.py runs large products on `load_threads()`.

torch's count is per thread: `torch.set_num_threads` sets the calling thread's OpenMP
count (and the one threads that have not run a parallel kernel yet will start with), so
one set from a queue-runner or feeder thread leaves the training thread's alone. What
tf1compat last set is therefore recorded per thread as well; a thread's count that differs
from it is the program's own setting.

`describe()` returns the decisions and their reasons; `TF1COMPAT_THREADS_VERBOSE=1` prints
them to stderr when tf1compat is imported. This module imports nothing from tf1compat
but `_machine_load` (standard library only) and torch only inside the functions that
apply a count, so it can run before torch exists in the process.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, Dict, Optional

from tf1compat import _machine_load

__all__ = ["prepare_environment", "apply", "apply_session_config", "describe",
           "available_cores", "is_automatic", "set_tuned_threads", "load_threads",
           "spinning"]

_STATE: Dict[str, Any] = {
    "torch_loaded_first": None,  # True when torch was imported before tf1compat
    "wait_policy": None,         # what OpenMP's idle threads do, as far as we know
    "wait_policy_reason": "",
    "threads": None,             # torch.get_num_threads() after our last decision
    "threads_reason": "",
    "interop_threads_reason": "",
    "others_busy": None,         # cores' worth other processes used at the last reading
}
# Per thread: the count tf1compat last set on it (torch's count is per thread, above).
_LOCAL = threading.local()


def _record(n: int) -> None:
    """Notes `n` as tf1compat's count, for the process and the calling thread."""
    _STATE["threads"] = n
    _LOCAL.threads = n


def _expected() -> Optional[int]:
    """The count the calling thread should have if nobody else set one: what tf1compat set
    on it, else (a thread that has not had one set) the process's."""
    if _STATE["threads"] is None:
        return None
    return getattr(_LOCAL, "threads", _STATE["threads"])


def available_cores() -> int:
    """The processors this process may run on (its affinity mask; cgroup quotas unseen)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def _env(name: str) -> str:
    return os.environ.get(name, "").strip()


def prepare_environment() -> None:
    """Sets OpenMP's wait policy for torch to read when it loads (call before torch loads).

    Idempotent; records whether it was in time."""
    if _STATE["torch_loaded_first"] is not None:
        return
    loaded = "torch" in sys.modules
    _STATE["torch_loaded_first"] = loaded
    requested = _env("TF1COMPAT_WAIT_POLICY").lower() or "auto"
    if requested not in ("auto", "keep", "passive", "active"):
        raise ValueError(f"TF1COMPAT_WAIT_POLICY must be auto, passive, active or keep, "
                         f"not {requested!r}")
    user_policy = _env("OMP_WAIT_POLICY").upper()
    spin = "spin for GOMP_SPINCOUNT, then sleep" if _env("GOMP_SPINCOUNT") else \
        "spin about 300,000 pause loops, then sleep"
    if user_policy:
        policy, reason = user_policy, "OMP_WAIT_POLICY set by the user"
    elif loaded and requested in ("passive", "active"):
        policy = f"libgomp default ({spin})"
        reason = (f"torch was imported before tf1compat: OpenMP read its wait policy "
                  f"already; set OMP_WAIT_POLICY={requested.upper()} before starting Python")
    elif requested in ("passive", "active"):
        policy, reason = requested.upper(), "TF1COMPAT_WAIT_POLICY"
    elif requested == "keep" or loaded:
        policy = f"libgomp default ({spin})"
        reason = "TF1COMPAT_WAIT_POLICY=keep" if requested == "keep" else \
            "torch was imported before tf1compat: OpenMP read its wait policy already"
    else:
        policy, reason = _automatic_wait_policy(spin)
    if policy in ("PASSIVE", "ACTIVE") and not user_policy and not loaded:
        os.environ["OMP_WAIT_POLICY"] = policy
    _STATE["wait_policy"] = policy
    _STATE["wait_policy_reason"] = reason


def _automatic_wait_policy(spin: str) -> tuple:
    """TF1COMPAT_WAIT_POLICY=auto: (policy, reason) from the load when the process starts
    (other processes' runnable threads, `_first_estimate`: the policy must be set before
    torch loads, and CPU-time readings need a second apart). Idle: libgomp's bounded spin, and thread counts follow the
    load from then on (one thread once other processes take the cores, so nothing spins
    against them). Busy: PASSIVE, as before session 7: on a heavily shared machine a
    plan on one thread with its large products on every core, threads sleeping, took
    more of the CPU than one thread alone (docs/performance.md)."""
    cores = available_cores()
    others = _first_estimate(cores)
    if others is None:
        # Without a load reading (not Linux) the count could not follow the load: keep
        # threads that cannot spin against other processes.
        return "PASSIVE", "auto: the machine's load cannot be read here"
    if cores > 1 and _machine_load.threads_beside(cores, others) < cores:
        return "PASSIVE", (f"auto: the machine was busy when tf1compat loaded (other "
                           f"processes' runnable threads: {others:.1f} on {cores} cores)")
    return f"libgomp default ({spin})", (
        "auto: the machine was idle when tf1compat loaded: a bounded spin is fast on idle "
        "cores, and the automatic thread count drops to one thread (no parallel regions, "
        "nothing spins) while other processes keep the cores busy")


def spinning() -> bool:
    """Whether OpenMP's idle threads spin before they sleep (every policy but PASSIVE)."""
    return _STATE["wait_policy"] != "PASSIVE"


def count_setting(name: str) -> Optional[int]:
    """A thread-count variable (`TF1COMPAT_THREADS`, `TF1COMPAT_PRODUCT_THREADS`): None
    when unset or "auto", else its positive integer (a ValueError naming it otherwise)."""
    text = _env(name).lower()
    if not text or text == "auto":
        return None
    try:
        n = int(text)
    except ValueError:
        n = 0
    if n < 1:
        raise ValueError(f"{name} must be 'auto' or a positive integer, not {text!r}")
    return n


# How often the automatic policy reads the load (seconds): a reading is one small /proc
# read, and a second is short against a training run and long against a step.
_LOAD_CHECK_SECONDS = 1.0
# Plans re-read the load every check interval while they run, so an interval longer
# than two of them spans a pause (startup, data loading, another process's turn in a
# benchmark that alternates): what other processes did then says little about the cores
# now. Such a reading is replaced by the present's (`_first_estimate`, about 20 ms, paid
# only after such a pause), and the next interval starts from it.
_STALE_SECONDS = 2.0
_monotonic = time.monotonic            # tests give a fake clock
_LOAD: Dict[str, Any] = {"next": 0.0, "threads": None, "source": None, "read_at": None}
_LOAD_LOCK = threading.Lock()


def _follows_load() -> bool:
    """TF1COMPAT_FOLLOW_LOAD: 0 never; otherwise always. PASSIVE threads follow it too:
    on a busy machine their wake-ups at every parallel region still cost more than the
    region saves (MLP step at load 12 on 2 cores, session 12: 2 PASSIVE threads 10.0 ms,
    one thread 4.8 ms, TF 5.2 ms)."""
    return _env("TF1COMPAT_FOLLOW_LOAD").lower() not in ("0", "false", "off")


def _load_source() -> _machine_load.OthersLoad:
    if _LOAD["source"] is None:
        try:
            cpus = sorted(os.sched_getaffinity(0))
        except (AttributeError, OSError):  # pragma: no cover - not Linux
            cpus = list(range(available_cores()))
        _LOAD["source"] = _machine_load.OthersLoad(cpus)
    return _LOAD["source"]


def _first_estimate(cores: int) -> Optional[float]:
    """Before two /proc/stat readings exist: other processes' runnable threads now
    (`_machine_load.runnable_others`, 20 readings over about 20 ms), capped at the cores;
    the next CPU-time reading, a second later, replaces it."""
    others = _machine_load.runnable_others()
    return None if others is None else min(float(cores), others)


def _spinning_count(cores: int, idle: int) -> int:
    """The count for spinning threads when other processes leave `idle` of `cores` idle:
    that many while it is more than one; on a machine left with one core (or none),
    one more thread than cores. libgomp itself cuts its spin to a few microseconds
    whenever its threads outnumber the processors it may use (its "throttled" spin), so
    the extra thread turns the spinning policy into a sleeping one for as long as the
    machine is busy: measured at load 12 on 2 cores (MLP step, spinning policy), 1
    thread 29-34 ms (a CPU-bound thread gets a hog's share), 2 threads 288 ms (they spin
    against the others), 3 threads 13-14 ms, as PASSIVE's 2 threads (12.6 ms)."""
    return cores + 1 if idle <= 1 < cores else idle


def load_threads() -> int:
    """The automatic policy's thread count now: every core this process may use, less
    those other processes keep busy (`_machine_load.threads_beside`), never fewer than
    one; re-read at most every `_LOAD_CHECK_SECONDS` (between readings a clock call and a
    dict lookup), from the present after a pause longer than `_STALE_SECONDS`.
    `TF1COMPAT_FOLLOW_LOAD=0`: every core whatever the load."""
    threads = _LOAD["threads"]
    if threads is not None and _monotonic() < _LOAD["next"]:
        return threads
    if not _LOAD_LOCK.acquire(False):  # another thread is reading it
        return threads if threads is not None else available_cores()
    try:
        now = _monotonic()
        read_at, _LOAD["read_at"] = _LOAD["read_at"], now
        _LOAD["next"] = now + _LOAD_CHECK_SECONDS
        cores = available_cores()
        if cores == 1 or not _follows_load():
            _STATE["others_busy"] = None
            _LOAD["threads"] = cores
            return cores
        source = _load_source()
        others = source.sample()
        stale = read_at is not None and now - read_at > _STALE_SECONDS
        if (others is None and threads is None) or (others is not None and stale):
            others = _first_estimate(cores)
        if others is not None or threads is None:
            _STATE["others_busy"] = others
            idle = _machine_load.threads_beside(cores, others)
            _LOAD["threads"] = _spinning_count(cores, idle) if spinning() else idle
        return _LOAD["threads"]
    finally:
        _LOAD_LOCK.release()


def _auto_reason() -> str:
    cores = available_cores()
    if cores == 1:
        return "auto: the one core this process may use"
    if not _follows_load():
        return "auto: every core this process may use (TF1COMPAT_FOLLOW_LOAD=0)"
    others = _STATE["others_busy"]
    busy = "unknown" if others is None else f"{others:.1f} of {cores} cores"
    return f"auto: cores other processes leave idle (others' use: {busy})"


def _decide_threads() -> tuple:
    """(thread count or None to leave torch's, reason)."""
    fixed = _env("TF1COMPAT_THREADS").lower()
    n = count_setting("TF1COMPAT_THREADS")
    if n is not None:
        return n, "TF1COMPAT_THREADS"
    if _env("OMP_NUM_THREADS") and not fixed:
        return None, "OMP_NUM_THREADS set by the user (torch's reading)"
    return load_threads(), _auto_reason()


def apply() -> None:
    """Applies the thread count to torch (torch is imported here)."""
    import torch
    if _STATE["threads"] is not None and (torch.get_num_threads() != _expected() or
                                          _STATE["threads_reason"].startswith("set by")):
        # Someone called torch.set_num_threads (or tf.config.threading) since our last
        # decision: theirs stands.
        _record(torch.get_num_threads())
        _STATE["threads_reason"] = "set by the program (torch.set_num_threads)"
        return
    n, reason = _decide_threads()
    if n is not None and torch.get_num_threads() != n:
        torch.set_num_threads(n)
    _record(torch.get_num_threads())
    _STATE["threads_reason"] = reason
    if _env("TF1COMPAT_THREADS_VERBOSE") not in ("", "0"):
        print(f"tf1compat threads: {describe()}", file=sys.stderr)


def apply_session_config(config: Any) -> None:
    """A Session's thread settings: ConfigProto's intra/inter-op counts when set (as TF,
    the user's numbers are taken as they are), else the process policy decided again,
    since the load may have changed since import."""
    import torch
    intra = int(getattr(config, "intra_op_parallelism_threads", 0) or 0)
    if intra > 0:
        torch.set_num_threads(intra)
        _record(intra)
        _STATE["threads_reason"] = "ConfigProto.intra_op_parallelism_threads"
    else:
        apply()
    inter = int(getattr(config, "inter_op_parallelism_threads", 0) or 0)
    if inter > 0:
        try:
            torch.set_num_interop_threads(inter)
            _STATE["interop_threads_reason"] = "ConfigProto.inter_op_parallelism_threads"
        except RuntimeError:
            # torch fixes its inter-op pool at its first use; ops of one plan run in order
            # on the calling thread anyway, so only torch's own async work is affected.
            _STATE["interop_threads_reason"] = (
                f"ConfigProto.inter_op_parallelism_threads={inter} not applied: torch's "
                f"inter-op pool was already started")


def is_automatic() -> bool:
    """Whether the thread count is tf1compat's to choose: the automatic policy, and no
    one has called torch.set_num_threads since (runtime/thread_tuner.py asks)."""
    if not _STATE["threads_reason"].startswith("auto"):
        return False
    import torch
    return torch.get_num_threads() == _expected()


def set_tuned_threads(n: int, medians: Optional[Dict[int, float]] = None,
                      reason: Optional[str] = None) -> None:
    """Sets the automatic policy's thread count (runtime/thread_tuner.py's choice,
    measured: `medians`, or decided from the plan: `reason`)."""
    import torch
    if torch.get_num_threads() != n:
        torch.set_num_threads(n)
    _record(n)
    if reason is not None:
        _STATE["threads_reason"] = f"auto, {reason}"
    if medians is not None and len(medians) > 1:
        timings = ", ".join(f"{k} thread{'s' if k > 1 else ''} {v * 1e3:.1f} ms"
                            for k, v in sorted(medians.items()))
        _STATE["threads_reason"] = f"auto, measured on a heavy plan: {timings}"
    elif medians is not None:
        _STATE["threads_reason"] = f"{_auto_reason()}; nothing to measure"


def describe() -> Dict[str, Any]:
    """The current decisions and why (a copy)."""
    return {k: v for k, v in _STATE.items() if not k.startswith("_")}
