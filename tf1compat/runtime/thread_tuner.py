"""Thread counts chosen by measurement, per heavy plan, when the policy is 'auto'.

Whether torch's kernels run faster on one thread or on several depends on what else the
machine runs. `_thread_policy.load_threads()` gives the count to try against one
thread: the cores other processes leave idle, or on a busy machine one more than cores
(where libgomp stops spinning; a count of one: nothing to measure). Which wins still
depends on the plan (a plan of
small kernels gains nothing from more threads and pays for waking or spinning them)
and on what the load reading cannot see (cgroup quotas, hyperthread siblings). So for a
plan whose runs take long enough for threading to matter (>= 2 ms), the tuner times a
few of the user's own runs on one thread and on that count, alternately, and keeps the
faster (the lower median of `_TRIAL_RUNS` runs each; a run right after a switch of the
count is not timed).

The decision is re-made when the load changes: at once when the cap changes (read at
most once a second by `load_threads`, a clock call between readings), and when the
plan's own run times show it, at no cost: every run at the chosen count is timed anyway
(two clock reads), and when the median of a window of `_WATCH_RUNS` runs drifts from
the decision's median by more than a factor `_DRIFT` (other processes started: slower;
they stopped: faster), the next runs measure both counts again; a decision stands at
least a second against drift, twice as long each time a new measurement confirms it (a
machine whose load swings all the time would otherwise keep measuring). A change that
leaves the chosen count's time alone can still flip the other count's, so the decision
is also re-made every `_RETUNE_SECONDS`. Quicker plans keep the process's count.

A plan the graph's static shapes show to be all small kernels around a fused
`dynamic_rnn` recurrence (`small_kernels`: its products run one after another and are
too small to split) runs on one thread without that measurement: the trial's runs at
the other count (the first ~20 runs) and a second thread left spinning beside it cost
more than they save (docs/performance.md "## lstm13").

Only under the automatic policy (`_thread_policy`: no TF1COMPAT_THREADS, OMP_NUM_THREADS,
ConfigProto intra-op count or program's own `torch.set_num_threads`), and only where
this process may use more than one core. `TF1COMPAT_THREAD_TUNING=0` turns it off.
"""

from __future__ import annotations

import os
import statistics
import time
from typing import Any, Callable, Dict, List, Optional

import torch

from tf1compat import _thread_policy
from tf1compat.framework import dtypes as D
from tf1compat.runtime.plan import Plan

__all__ = ["tune_threads", "settle", "small_kernels", "LoadFollower", "follows_load"]

_WARMUP_RUNS = 3          # first runs (allocations, lazy compilation) are not timed
_HEAVY_SECONDS = 0.002    # runs quicker than this keep the process's thread count
_TRIAL_RUNS = 5           # timed runs per candidate (odd: the median is one run's time)
_WATCH_RUNS = 9           # runs per drift check once decided
_DRIFT = 1.4              # window median / decided median beyond which the load changed
_MIN_DECIDED_SECONDS = 1.0   # a new decision stands at least this long against drift
_RETUNE_SECONDS = 60.0
_clock = time.perf_counter   # what runs are timed with (tests give a fake one)
_monotonic = time.monotonic  # how old a decision is (tests give a fake one)


def _since(moment: float) -> float:
    return _monotonic() - moment


def _enabled() -> bool:
    if os.environ.get("TF1COMPAT_THREAD_TUNING", "1").strip() in ("0", "false", "off"):
        return False
    return _thread_policy.available_cores() > 1 and _thread_policy.is_automatic()


class _TunedPlan:
    """Runs a plan with the thread count that measured fastest for it."""

    def __init__(self, plan: Plan, fn: Callable[..., tuple]):
        self.plan = plan
        self.fn = fn
        self.runs = 0
        self.best = 0                       # 0: not decided
        self.cap = 0                        # load_threads() when it was decided
        self.decided_median = 0.0
        self.decided_at = 0.0               # _monotonic() at the decision
        self.decisions = 0                  # how many times a count was chosen
        self.best_before = 0                # the count chosen before the last re-decision
        self.hold = _MIN_DECIDED_SECONDS    # how long a decision stands against drift
        self.samples: Dict[int, List[float]] = {}
        self.window: List[float] = []       # run times at the chosen count, since a check

    def __call__(self, feeds: Any, state: Any) -> tuple:
        self.runs += 1
        if self.best:
            if _since(self.decided_at) >= _RETUNE_SECONDS or \
                    _thread_policy.load_threads() != self.cap:
                self._redecide()
            else:
                return self._decided(feeds, state)
        if self.runs <= _WARMUP_RUNS:
            return self.fn(feeds, state)
        return self._trial(feeds, state)

    def _redecide(self) -> None:
        self.best_before = self.best
        self.best = 0
        self.samples = {}
        self.window = []

    def _decided(self, feeds: Any, state: Any) -> tuple:
        if torch.get_num_threads() != self.best:
            if not _thread_policy.is_automatic():
                self.plan.fn = self.fn        # the program took over the thread count
                return self.fn(feeds, state)
            _thread_policy.set_tuned_threads(self.best)
        start = _clock()
        result = self.fn(feeds, state)
        if self.plan.fn is not self:
            return result                     # settled during the run (`settle`)
        self.window.append(_clock() - start)
        if len(self.window) >= _WATCH_RUNS:
            recent = statistics.median(self.window)
            self.window = []
            drift = recent / self.decided_median if self.decided_median > 0 else 1.0
            if (drift > _DRIFT or drift < 1 / _DRIFT) and \
                    _since(self.decided_at) >= self.hold:
                self._redecide()
        return result

    def _trial(self, feeds: Any, state: Any) -> tuple:
        if not _thread_policy.is_automatic():
            self.plan.fn = self.fn            # the program took over the thread count
            return self.fn(feeds, state)
        cap = _thread_policy.load_threads()
        candidates = (1, cap) if cap > 1 else (1,)
        if any(c not in candidates for c in self.samples):
            self.samples = {}                 # the load changed during the measurement
        counts = {n: len(self.samples.get(n, ())) for n in candidates}
        n = min(candidates, key=lambda c: (counts[c], c))
        # Only a run that follows a run at the same count is timed: the first run after
        # a switch finds the other threads (and their idle processors) asleep, and pays
        # wake-ups that runs in a steady loop at that count do not.
        switched = torch.get_num_threads() != n
        _thread_policy.set_tuned_threads(n)
        start = _clock()
        result = self.fn(feeds, state)
        elapsed = _clock() - start
        if self.plan.fn is not self:
            return result                     # settled during the run (`settle`)
        if not self.samples and not self.decisions and elapsed < _HEAVY_SECONDS:
            self.plan.fn = self.fn            # too quick for threads to matter
            return result
        if switched:
            return result
        self.samples.setdefault(n, []).append(elapsed)
        # One candidate (other processes leave one core): one timed run decides, and
        # only the cap's change re-decides (drift would measure the same count again).
        wanted = _TRIAL_RUNS if len(candidates) > 1 else 1
        if all(len(self.samples.get(c, ())) >= wanted for c in candidates):
            medians = {c: statistics.median(v) for c, v in self.samples.items()}
            # A tie goes to one thread: it leaves the other cores to other work.
            best = min(medians, key=lambda c: (medians[c], c))
            # On a machine whose load swings all the time, drift would call for a new
            # measurement every second; each that confirms the count doubles how long
            # the next decision stands (up to the periodic re-decision).
            self.hold = min(2 * self.hold, _RETUNE_SECONDS) \
                if self.decisions and best == self.best_before else _MIN_DECIDED_SECONDS
            self.best = best
            self.cap = cap
            self.decided_median = medians[self.best] if len(candidates) > 1 else 0.0
            self.decided_at = _monotonic()
            self.decisions += 1
            _thread_policy.set_tuned_threads(self.best, medians)
        return result


class _OneThreadPlan:
    """Runs a plan of small kernels (`small_kernels`) on one thread, unmeasured."""

    def __init__(self, plan: Plan, fn: Callable[..., tuple]):
        self.plan = plan
        self.fn = fn

    def __call__(self, feeds: Any, state: Any) -> tuple:
        if torch.get_num_threads() != 1:
            if not _thread_policy.is_automatic():
                self.plan.fn = self.fn        # the program took over the thread count
                return self.fn(feeds, state)
            _thread_policy.set_tuned_threads(1, reason=_SMALL_KERNELS)
        return self.fn(feeds, state)


# A product this small (multiply-adds) gains nothing from a second thread: the lstm
# workload's recurrence (32 x 512 x 160, 2.6M) ran 5.0 ms a step on one thread against
# 5.2 ms on two (idle, docs/performance.md "## lstm13"). A guess above that one point.
_SMALL_PRODUCT = 1 << 22
# Elementwise work on tensors up to this size (an optimizer's update of the variable,
# the loss's ops) is a few microseconds a kernel.
_SMALL_TENSOR = 1 << 18
# Op types (by prefix) whose cost the plan's shapes do not bound (their functions run
# other ops), or products other than MatMul's, whose sizes are not read here.
_UNBOUNDED = ("If", "StatelessIf", "Case", "StatelessCase", "PartitionedCall",
              "StatefulPartitionedCall", "While", "StatelessWhile", "Conv",
              "DepthwiseConv", "Einsum", "SparseMatMul", "SparseTensorDenseMatMul")
_HANDLES = (D.resource, D.variant, D.string)
_SMALL_KERNELS = "one thread: a recurrence of small products (nothing to measure)"


def _static_elements(t: Any) -> Optional[int]:
    shape = t.shape
    return shape.num_elements() if shape.is_fully_defined() else None


def _matmul_macs(op: Any) -> Optional[int]:
    """Multiply-adds of a MatMul / BatchMatMul from static shapes (None: not static)."""
    a, b = (_static_elements(t) for t in op.inputs[:2])
    if a is None or b is None:
        return None
    dims = [d.value for d in op.inputs[1].shape.dims]
    transposed = op.attrs.get("transpose_b", False) or op.attrs.get("adj_y", False)
    return a * (dims[-2] if transposed else dims[-1])


def small_kernels(plan: Plan) -> bool:
    """Whether every kernel of `plan` is too small for threads to pay, by the graph's
    static shapes, so it runs on one thread without measuring (the thread trial's
    runs at the other count, and a spinning second thread, cost more than they save).
    Only plans around a fused `dynamic_rnn` recurrence (rnn/fused.py) qualify: its
    products are made one after another, each of `FusedRNNLoop.step_macs`, and the
    step's other work is small when every MatMul is a small product, every tensor has a
    static size of at most `_SMALL_TENSOR` elements, and no op runs a function or a
    convolution (`_UNBOUNDED`) but the fused loop. A gradient op's work mirrors its
    forward ops, which the plan runs too."""
    if plan.dataflow:
        return False
    loops = 0
    for step in plan.steps:
        op = step.op
        kind = op._type
        if kind == "While":
            fast = getattr(op.attrs.get("loop"), "fast_path", None)
            macs = getattr(fast, "step_macs", None)
            size = macs(op) if macs is not None and step.kernel is not None else None
            if size is None or size > _SMALL_PRODUCT:
                return False
            loops += 1
            continue
        if kind.startswith(_UNBOUNDED):
            return False
        if kind in ("MatMul", "BatchMatMul", "BatchMatMulV2", "BatchMatMulV3"):
            size = _matmul_macs(op)
            if size is None or size > _SMALL_PRODUCT:
                return False
        for t in op.outputs:
            if t.dtype.base_dtype not in _HANDLES:
                n = _static_elements(t)
                if n is None or n > _SMALL_TENSOR:
                    return False
    return loops > 0


def tune_threads(plan: Plan) -> None:
    """Wraps `plan.fn` so that its runs use the measured-fastest thread count (one
    thread, unmeasured, for a plan of small kernels: `small_kernels`)."""
    if plan.fn is not None and _enabled():
        plan.fn = _OneThreadPlan(plan, plan.fn) if small_kernels(plan) else \
            _TunedPlan(plan, plan.fn)


def settle(plan: Plan) -> None:
    """Ends the tuning of `plan`'s runs: its function is about to be compiled, and the
    compiled code is guarded on the thread count (runtime/hot_plans.py). The count
    measured fastest on its runs so far is kept; the current one where no measurement
    has finished. Called during a run of the plan: the tuner then leaves the count as
    it is when the run returns."""
    tuned = plan.fn
    if isinstance(tuned, _TunedPlan):
        plan.fn = tuned.fn
        if tuned.best and _thread_policy.is_automatic():
            _thread_policy.set_tuned_threads(tuned.best)
    elif isinstance(tuned, _OneThreadPlan):
        plan.fn = tuned.fn


def follows_load(threads: int) -> bool:
    """Whether a plan compiled for `threads` threads needs a `LoadFollower`: under the
    automatic policy, whatever the count (a plan compiled for one thread on a busy
    machine tries more threads when the machine frees, one compiled for more tries one
    thread when it gets busy)."""
    return threads >= 1 and _enabled()


_COMPILED, _OP_BY_OP = "compiled", "op by op"


class LoadFollower:
    """Keeps a compiled plan as fast as the machine's load allows, both ways.

    torch.compile's code is guarded on the thread count it was compiled with
    (runtime/hot_plans.py). A plan compiled for N > 1 threads on a quiet machine would go
    on running N threads when other processes take the cores, where N threads wait for
    each other; a plan compiled for one thread on a busy machine would stay on one when
    the machine frees. Whenever the automatic policy's reading of the load
    (`_thread_policy.load_threads`) changes, and every `_RETUNE_SECONDS`, the next runs
    time the compiled function at its N threads against the plan op by op at the other
    count (`_other_count`: one thread for N > 1, the load's count for N = 1), alternately
    (`_TRIAL_RUNS` each; the first run after a switch is not timed), and the faster is
    kept until the next change. A plan compiled for one thread on a machine that still
    leaves it one core has nothing to measure: it runs compiled."""

    def __init__(self, threads: int):
        self.threads = threads
        self.cap = _thread_policy.load_threads()
        self.other = self._other_count(self.cap)
        self.since = _monotonic()
        self.choice = _COMPILED
        self.last = _COMPILED
        self.samples: Optional[Dict[str, List[float]]] = None

    def _other_count(self, cap: int) -> int:
        """The count op by op runs at against the compiled count (equal to it: nothing to
        measure)."""
        return 1 if self.threads > 1 else cap

    def run(self, compiled: Callable[[], tuple], op_by_op: Callable[[], tuple]) -> tuple:
        """One run, compiled (at the compiled count) or op by op at the other count."""
        cap = _thread_policy.load_threads()
        if cap != self.cap or _since(self.since) >= _RETUNE_SECONDS:
            self.cap, self.since = cap, _monotonic()
            self.other = self._other_count(cap)
            if self.other == self.threads:
                self.choice, self.samples = _COMPILED, None
            else:
                self.samples = {_COMPILED: [], _OP_BY_OP: []}
        samples = self.samples
        if samples is None:
            kind = self.choice
        else:   # the kind with fewer timed runs; a tie goes on with the last kind
            kind = min(samples, key=lambda k: (len(samples[k]), k != self.last))
        switched = kind != self.last
        self.last = kind
        _thread_policy.set_tuned_threads(self.threads if kind == _COMPILED else self.other)
        start = _clock()
        result = compiled() if kind == _COMPILED else op_by_op()
        if samples is not None and not switched:
            samples[kind].append(_clock() - start)
            if all(len(v) >= _TRIAL_RUNS for v in samples.values()):
                medians = {k: statistics.median(v) for k, v in samples.items()}
                # A tie goes to the fewer threads (leaves the other cores to others).
                self.choice = min(medians, key=lambda k: (
                    medians[k], (self.threads if k == _COMPILED else self.other)))
                self.samples = None
        return result
