"""Hot plans compiled whole: a plan run many times is handed to `torch.compile`.

A plan's generated function (codegen.py) runs op by op: each op costs a Python call and
a torch dispatch (~1-3 us), which dominates graphs of many small ops. Compiled whole, the
same plan becomes a few fused kernels. Compiling costs seconds to a minute, so it is
only worth it for plans that run often, and only where the result is the same:

1. At plan build, `blocker(plan)` says why a plan must stay op by op: side effects
   (random streams, py_func, printing, iterators, queues, control-flow constructs),
   variable updates (kernels that write the session's store cannot be checked aside
   on a snapshot), string values, or fewer than `TF1COMPAT_COMPILE_MIN_OPS` kernels
   (default 64; torch's per-call guards cost more than they save on small plans).
   A plan with a gradient op (`tf.gradients`, every `minimize` step) is compiled whole
   when the gradient is a plain one of fed values and every op is pure
   (`compiled_steps.compiles_whole`: Dynamo traces `torch.autograd.grad` into the graph);
   otherwise in pieces (runtime/compiled_steps.py): its forward segment, from the feeds and
   variable reads to the values the gradient op needs, is compiled together with a
   plain gradient op (one graph: loss and gradients), else alone, AOTAutograd
   compiling its backward with it, so the gradient op's `torch.autograd.grad` runs
   compiled kernels; the optimizer's (batched) updates run as before. Here the rules
   above apply to the forward segment only (a random op such as dropout, or batch
   norm's moving-average updates before the gradient, keep the step op by op), and
   its kernels count four times against the minimum. A session that asks for XLA's
   JIT (`global_jit_level` ON_1/ON_2) lowers the bar: any plan without such side
   effects, from its first run.
2. The `TF1COMPAT_COMPILE_AFTER`-th run (default 50) snapshots its inputs (feeds and the
   variable store: stored tensors are replaced, never changed in place, so a shallow
   copy is a snapshot) and its results, then compiles in a background thread while the
   user's loop goes on op by op (`TF1COMPAT_COMPILE_BACKGROUND=0` compiles in the
   calling thread instead).
   A plan that falls back (a failed compile or check, a slower trial) runs op by op
   with its thread count tuned as any uncompiled plan's (runtime/thread_tuner.py).
3. The compiled function runs once on the snapshot; its results must equal the
   op-by-op results (same dtypes and shapes, values within float rounding), else the
   plan stays op by op with the mismatch as its reason. A training step updates the
   variables it reads, so its run keeps copies of them instead, and its compiled
   forward segment's values and their gradients are compared with the op-by-op
   segment's on those copies. Small constants are built inside the compiled graph
   (`with_inline_constants`) rather than passed in as inputs checked on every run.
4. Trial: the next runs come in pairs, one compiled and one op by op (which goes first
   alternates); after 10 pairs the compiled function is kept if both its best run beats
   op by op's best by 5% and the median over the pairs of compiled / op-by-op time is
   under 0.95, and dropped if op by op is at least as fast on either measure (a noisy
   trial on a shared machine keeps op by op). In between (both measures favour the
   compiled function by less than 5%, as for a CNN step whose two forms cost within a
   few percent of each other) the trial goes on, 10 pairs at a time up to 40, and
   decides on all its pairs: the 5% margin again, else the compiled function where
   both measures still favour it (`trial_verdict`). A trial whose two measures
   disagree (one under 0.95, the other at 1 or above: a burst of other work on a shared
   machine slowed the pairs but not the best runs, or one lucky run carried the best)
   is inconclusive: the plan runs op by op and is timed again after
   `2**k * max(after, 20)` more runs, up to three times, before it falls back for good
   (`plan.hot.status` "retrial" meanwhile). Runs are timed by the wall clock,
   or by the calling thread's CPU time where the plan runs on one thread because other
   processes keep the cores busy (`_trial_clock`: there the wall clock measures their
   scheduling; `record.trial_clock` says which). The compiled function is
   specialised to the feeds' shapes and dtypes and to the thread count: a run with other
   shapes or threads runs op by op (no recompile inside the user's loop). The count is
   the one the thread tuner found faster on the plan's op-by-op runs before the compile
   (`thread_tuner.settle`; the current count where its measurement has not finished),
   and the tuner then lets the plan go; the compiled plan follows the load from then
   on (`thread_tuner.LoadFollower`: when the load reading changes, its compiled runs
   are timed against op-by-op runs at the other count, one thread for a plan compiled
   for more, the load's count for a plan compiled for one, and the faster kept: a busy
   machine never makes it slower than one thread, and a plan compiled on a busy machine
   takes the cores when they free). A compile still
   running when the interpreter exits is waited for (`wait_for_compiles`).
5. A whole plan that became one graph whose inputs are its feeds (no variable, nothing
   else) runs that graph directly (`direct_graphs.direct_call`), without Dynamo's frame,
   guards and stance, which cost more than a small plan's fused kernels, and where
   AOTAutograd's wrappers have nothing to do, as inductor's `call` alone: the checks
   Dynamo's guards made are the ones above (shapes, dtypes, devices, thread count, the
   plan's grad mode), the graph asserts the feeds' strides, and a failing direct call
   runs op by op and leaves Dynamo's call in its place.

Every plan carries `plan.hot` (a `HotPlanRecord`: status, reason, runs), so a user can
see why a plan was or was not compiled (`TF1COMPAT_COMPILE_VERBOSE=1` prints each decision
taken after a compile to stderr); `TF1COMPAT_COMPILE=off`
turns all of this off, XLA's JIT request included. `TF1COMPAT_COMPILE_BACKEND` names the
torch.compile backend (default inductor).
"""

from __future__ import annotations

import atexit
import os
import sys
import threading
import time
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch

from tf1compat import _thread_policy
from tf1compat.framework import dtypes as D
from tf1compat.runtime import compiled_steps
from tf1compat.runtime.direct_graphs import compile_recording, direct_call
from tf1compat.runtime.plan import Plan
from tf1compat.runtime.thread_tuner import LoadFollower, follows_load, settle, tune_threads

__all__ = ["HotPlanRecord", "HotPlans", "blocker", "settings", "trial_verdict",
           "wait_for_compiles"]

# Plan statuses.
OP_BY_OP = "op-by-op"        # never compiled (see reason)
COUNTING = "counting"        # eligible; compiled once it has run often enough
COMPILING = "compiling"
TRIAL = "trial"              # compiled and verified; being timed against op by op
RETRIAL = "retrial"          # a trial was inconclusive: op by op, timed again later
COMPILED = "compiled"
FALLBACK = "fallback"        # tried and went back to op by op (see reason)

_TRIAL_RUNS = 10             # runs of each kind timed before deciding
_TRIAL_MAX_RUNS = 40         # ... and at most, where the first runs leave it open
_MARGIN = 0.95               # a compiled run must take under this share of op by op's
_RETRIALS = 3                # inconclusive trials timed again before giving up


def _env_int(name: str, default: int) -> int:
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = int(text)
    except ValueError:
        raise ValueError(f"{name} must be an integer, not {text!r}") from None
    if value < 1:
        raise ValueError(f"{name} must be at least 1, not {value}")
    return value


def settings() -> Dict[str, Any]:
    """The hot-plan settings from the environment (read when a session is created)."""
    mode = os.environ.get("TF1COMPAT_COMPILE", "auto").strip().lower() or "auto"
    if mode not in ("auto", "off"):
        raise ValueError(f"TF1COMPAT_COMPILE must be auto or off, not {mode!r}")
    return {"mode": mode,
            "after": _env_int("TF1COMPAT_COMPILE_AFTER", 50),
            "min_ops": _env_int("TF1COMPAT_COMPILE_MIN_OPS", 64),
            "backend": os.environ.get("TF1COMPAT_COMPILE_BACKEND", "").strip() or "inductor",
            "background": os.environ.get("TF1COMPAT_COMPILE_BACKGROUND", "1").strip()
            not in ("0", "false", "off")}


@dataclass
class HotPlanRecord:
    """What became of one plan: its status, why, and how often it ran."""
    status: str
    reason: str = ""
    runs: int = 0
    compile_seconds: float = 0.0
    op_by_op_us: float = 0.0          # trial: best run of each kind
    compiled_us: float = 0.0
    trial_clock: str = ""             # what the trial timed: "wall" or "cpu" (`_trial_clock`)


# A training step's forward segment counts this many times against
# TF1COMPAT_COMPILE_MIN_OPS: its backward (compiled with it) and updates come with it.
_STEP_WEIGHT = 4


def blocker(plan: Plan, jit: bool, min_ops: int) -> Optional[str]:
    """Why `plan` must run op by op (None: it may be compiled)."""
    if plan.dataflow:
        return "TF1 dataflow control flow (runs on the dataflow executor, nothing to trace)"
    if plan.held_keys is not None:
        return ("holds variables in torch's layout across runs (runtime/held_plans.py), "
                "which a compiled step does not read")
    whole = compiled_steps.compiles_whole(plan)
    if compiled_steps.first_gradient(plan) is not None and not whole:
        pieces = compiled_steps.split(plan)
        if isinstance(pieces, str):
            return pieces
        if not jit and pieces.forward_kernels * _STEP_WEIGHT < min_ops:
            return (f"{pieces.forward_kernels} ops before the gradient (fewer than "
                    f"TF1COMPAT_COMPILE_MIN_OPS={min_ops} / {_STEP_WEIGHT})")
        return None
    kernels = 0
    for step in plan.steps:
        if step.kernel is None:
            continue
        kernels += 1
        od = step.op._op_def
        if od.stateful:
            if od.ref_input_indices or any(t._dtype.base_dtype == D.resource
                                           for t in step.op._inputs):
                # Kernels that update variables write the session's store itself, so a
                # compiled run cannot be checked on a snapshot beside the user's runs.
                return (f"op {step.op.name} ({step.op.type}) updates variables (a compiled "
                        f"run could not be checked aside before use)")
            return f"op {step.op.name} ({step.op.type}) has side effects"
        for t in step.op._outputs:
            if t._dtype.base_dtype in (D.string, D.variant):
                return f"op {step.op.name} ({step.op.type}) makes {t._dtype.name} values"
        if od.cpu_only:
            return f"op {step.op.name} ({step.op.type}) runs on the CPU only"
    if plan.needs_grad and not jit and not whole:
        return "gradient plans break torch.compile's graph at torch.autograd.grad"
    if not jit and kernels < min_ops:
        return f"{kernels} ops (fewer than TF1COMPAT_COMPILE_MIN_OPS={min_ops})"
    if kernels == 0:
        return "nothing to run"
    return None


# Compile threads still running when the interpreter exits: waited for at exit. A daemon
# thread cut off inside torch.compile's C++ code aborts the process ("terminate called
# without an active exception", exit status 134), which a script that ends a few steps
# after a plan started compiling would otherwise hit.
_COMPILE_THREADS: "set[threading.Thread]" = set()
_COMPILE_THREADS_LOCK = threading.Lock()


def _start_compile_thread(job: Callable[..., None], args: tuple, plan: Any) -> None:
    def run() -> None:
        try:
            job(*args)
        finally:
            with _COMPILE_THREADS_LOCK:
                _COMPILE_THREADS.discard(thread)
    thread = threading.Thread(target=run, daemon=True,
                              name=f"tf1compat-compile-{id(plan):x}")
    with _COMPILE_THREADS_LOCK:
        if not _COMPILE_THREADS and not _EXIT_HOOK:
            atexit.register(wait_for_compiles)
            _EXIT_HOOK.append(True)
        _COMPILE_THREADS.add(thread)
    thread.start()


_EXIT_HOOK: List[bool] = []


def wait_for_compiles() -> None:
    """Waits until every background compile started so far has finished (at exit, and
    for a benchmark's warm-up that measures the steady state after it)."""
    with _COMPILE_THREADS_LOCK:
        running = list(_COMPILE_THREADS)
    for thread in running:
        thread.join()


def set_thread_count(n: int) -> None:
    """`torch.set_num_threads(n)` for a compile thread. torch gives a thread its own
    count at the thread's first reading of it (a lazy init), from the count last set by
    any thread, and that replaces a count set before it: another thread setting its
    count in between (the calling thread's large products run on `load_threads()`,
    ops/_onednn_matmul.py) then made the compile trace at that count, and the compiled
    plan failed its guard at every run. Reading the count first does the init."""
    torch.get_num_threads()
    torch.set_num_threads(n)


def _signature(feeds: Sequence[Any]) -> Optional[tuple]:
    sig = []
    for f in feeds:
        if not isinstance(f, torch.Tensor):
            return None
        sig.append((f.shape, f.dtype, f.device))
    return tuple(sig)


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, torch.Tensor) and isinstance(b, torch.Tensor):
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        if a.is_floating_point() or a.is_complex():
            return bool(torch.allclose(a.detach(), b.detach(), rtol=1e-4, atol=1e-5,
                                       equal_nan=True))
        return bool(torch.equal(a, b))
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        return bool(np.array_equal(np.asarray(a), np.asarray(b)))
    return a is b or a == b


# Constants of at most this many elements are built inside the compiled graph.
_INLINE_CONSTANT_ELEMENTS = 64


def with_inline_constants(fn: Callable[..., Any], source: str) -> Callable[..., Any]:
    """`fn` (generated from `source`) made again with its small constants built inside.

    The generated function reads its constants as module globals (`c0`, `c1`, ...), and
    torch.compile lifts every global tensor to a graph input: a chain with hundreds of
    scalar constants then checks the size and stride of each one on every run. Built by
    `torch.tensor(<python value>, dtype, device)` at the top of the function instead,
    they become constants of the compiled graph (inlined into the fused kernels). Large
    constants (frozen weights) stay inputs; the values are the same either way.
    """
    ns = dict(fn.__globals__)
    made = []
    for name, value in fn.__globals__.items():
        if not (isinstance(value, torch.Tensor) and not value.requires_grad and
                value.numel() <= _INLINE_CONSTANT_ELEMENTS and value.layout == torch.strided and
                (value.dtype.is_floating_point or value.dtype.is_complex or
                 value.dtype in _PLAIN_DTYPES)):
            continue
        ns[f"_value_{name}"] = value.tolist()
        ns[f"_dtype_{name}"] = value.dtype
        ns[f"_device_{name}"] = value.device
        made.append(f"{name} = _tensor(_value_{name}, dtype=_dtype_{name}, "
                    f"device=_device_{name})")
    if not made:
        return fn
    ns["_tensor"] = torch.tensor
    head, _, body = source.partition("\n")
    code = compile(f"{head}\n    {'; '.join(made)}\n{body}", "<tf1compat-compiled-plan>", "exec")
    exec(code, ns)  # noqa: S102 - our own generated code
    return ns[fn.__name__]


_PLAIN_DTYPES = (torch.bool, torch.uint8, torch.int8, torch.int16, torch.int32, torch.int64)


def _let_dynamo_trace_tf1compat() -> None:
    """Takes tf1compat's folder off TorchDynamo's skip list.

    Dynamo skips the folders of a fixed list of third-party packages, "tensorflow" among
    them, and finds each by `find_spec` when it first loads: under the `tensorflow` shim
    (`tf1compat run`, `import tensorflow as tf`) that is tf1compat's own folder, and every
    kernel a compiled plan calls would then be a graph break.
    """
    from torch._dynamo import trace_rules
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    own = trace_rules._strip_init_py(os.path.join(package, "__init__.py"))
    skip_dirs = getattr(trace_rules, "SKIP_DIRS", None)
    if skip_dirs is not None and own in skip_dirs:
        skip_dirs[:] = [d for d in skip_dirs if d != own]
        trace_rules._recompile_re()


def _tracing_autograd(on: bool) -> Any:
    """Dynamo's `trace_autograd_ops` set while `on` (a context manager)."""
    import contextlib
    import torch._dynamo.config as dynamo_config
    if not on or not hasattr(dynamo_config, "trace_autograd_ops"):
        return contextlib.nullcontext()
    return dynamo_config.patch(trace_autograd_ops=True)


# (Dynamo's eval_frame module, its "fail_on_recompile" stance), or (None, None) where torch
# has no such module-level stance. Looked up at the first compiled run: importing Dynamo
# costs seconds, which a program whose plans never compile must not pay at import.
_STANCES: Optional[tuple] = None


def _stance_module() -> tuple:
    global _STANCES
    if _STANCES is None:
        from torch._dynamo import eval_frame
        if hasattr(eval_frame, "_stance") and hasattr(eval_frame, "DynamoStance"):
            _STANCES = (eval_frame, eval_frame.DynamoStance("fail_on_recompile", False, None))
        else:
            _STANCES = (None, None)
    return _STANCES


def _failing_on_recompile(fn: Callable[..., Any], *args: Any) -> Any:
    """`fn(*args)` under Dynamo's "fail_on_recompile" stance: a compiled plan whose guards
    fail raises (its caller runs op by op) instead of recompiling in the user's loop.
    `torch.compiler.set_stance` as a context costs ~7 us a call (its setter imports a C
    module each time: a tenth of a 100-op gradient plan's run); this sets the same
    module-level stance directly, outside any compiled region as set_stance requires."""
    module, fail_on_recompile = _STANCES or _stance_module()
    if module is None:
        with torch.compiler.set_stance("fail_on_recompile"):
            return fn(*args)
    prior = module._stance
    module._stance = fail_on_recompile
    try:
        return fn(*args)
    finally:
        module._stance = prior


def _failure(e: BaseException) -> str:
    text = str(e).strip()
    return (f"torch.compile failed: {type(e).__name__}: "
            f"{text.splitlines()[0][:200] if text else ''}")


def _report(plan: Plan, record: HotPlanRecord) -> None:
    """`TF1COMPAT_COMPILE_VERBOSE=1`: one stderr line per decision taken after a compile."""
    if os.environ.get("TF1COMPAT_COMPILE_VERBOSE", "") in ("", "0"):
        return
    fetches = ", ".join(sorted(plan.slot_tensors.values()))[:120]
    detail = record.reason
    if record.status == COMPILED:
        detail = (f"{record.compiled_us:.0f} us vs {record.op_by_op_us:.0f} us op by op, "
                  f"compiled in {record.compile_seconds:.1f} s" +
                  (f" ({detail})" if detail else ""))
    print(f"tf1compat: plan ({len(plan.steps)} ops; {fetches}) {record.status}: {detail}",
          file=sys.stderr)


def _measures(compiled: Sequence[float], eager: Sequence[float]) -> tuple:
    """(best compiled run, best op-by-op run, median of the pairs' compiled / op-by-op
    ratios)."""
    paired = float(np.median([c / e for c, e in zip(compiled, eager)]))
    return min(compiled), min(eager), paired


def trial_verdict(compiled: Sequence[float], eager: Sequence[float],
                  last: bool) -> Optional[bool]:
    """A trial's verdict on its paired run times (pair i: `compiled[i]`, `eager[i]`):
    True keeps the compiled function, False op by op, None asks for more pairs.

    Two measures: the best run of each kind (other processes only ever add time to a
    run, so the minimum is the steadiest estimate of what a run costs) and the median
    over the pairs of the compiled run's time over its op-by-op partner's (one lucky run
    cannot carry it, and load that comes and goes hits both runs of a pair alike). Both
    under `_MARGIN`: compiled. Either at 1 or above (op by op as fast on one measure:
    a lucky run, or no gain): op by op. In between both favour the compiled function by
    less than the margin, which 10 pairs on a shared machine cannot tell from noise (a
    CNN step's two forms cost within 5% of each other at one thread: which side of 0.95
    ten pairs landed on, and so the form the step kept, changed from run to run). So
    the trial goes on (None), and its `last` verdict (`_TRIAL_MAX_RUNS` pairs) keeps the
    compiled function when both measures still favour it."""
    compiled_s, eager_s, paired = _measures(compiled, eager)
    if compiled_s < eager_s * _MARGIN and paired < _MARGIN:
        return True
    if compiled_s >= eager_s or paired >= 1.0:
        return False
    return True if last else None


def _measures_disagree(compiled_s: float, eager_s: float, paired: float) -> bool:
    """Whether a trial's two measures point opposite ways: one shows the margin for the
    compiled function, the other has op by op at least as fast."""
    best_shows, pairs_show = compiled_s < eager_s * _MARGIN, paired < _MARGIN
    return (best_shows and not pairs_show and paired >= 1.0) or \
        (pairs_show and not best_shows and compiled_s >= eager_s)


def _trial_clock(threads: int, record: HotPlanRecord) -> Callable[[], float]:
    """What a trial times: the calling thread's CPU time where the plan runs on one
    thread and the automatic policy's count is one too (other processes keep the cores
    busy: a run's wall time is then mostly their scheduling, which moved a CNN step's
    time by 3-9x from one run to the next on a loaded 2-core machine, so trials decided
    by noise), else wall time. At one thread (large products included: they follow
    `load_threads()`) every kernel of the run, its backward included (CPU autograd runs
    in the calling thread), runs in this thread, so its CPU time is what the run costs.
    The process's CPU time would also count its other threads: another plan's
    background compile, seconds of CPU beside a 25 ms step, added about the same to
    both runs of a pair and pulled their ratio towards 1, under the 5% margin. With
    more threads CPU time would count their spinning, and wall time is what the user
    waits for."""
    if threads == 1 and _thread_policy.load_threads() == 1:
        record.trial_clock = "cpu"
        return time.thread_time
    record.trial_clock = "wall"
    return time.perf_counter


class _HotPlan:
    """The function a tracked plan runs: counts runs, starts the compile, runs trials."""

    def __init__(self, plan: Plan, record: HotPlanRecord, after: int, cfg: Dict[str, Any]):
        self.plan = plan
        self.record = record
        self.eager = plan.fn
        self.after = after
        self.cfg = cfg
        self.compiled: Optional[Callable[..., Any]] = None
        # The compiled graph called without Dynamo (`direct_graphs`), where that is sound.
        self.direct: Optional[Callable[[Sequence[Any]], tuple]] = None
        self.grad = False                   # the grad mode the graph was traced under
        self.sig: Optional[tuple] = None
        self.threads = 0
        # Runs compiled or op by op on one thread as the load changes (thread_tuner.py).
        self.follower: Optional[LoadFollower] = None
        self.trial: Dict[str, List[float]] = {"eager": [], "compiled": []}
        self.retrials = 0
        self.retrial_at = 0                 # the run count at which to time it again
        self.compile_reason = ""            # the record's reason when the first trial ended
        self.clock: Callable[[], float] = time.perf_counter
        self.lock = threading.Lock()

    def __call__(self, feeds: Any, state: Any) -> tuple:
        record = self.record
        record.runs += 1
        status = record.status
        if status == COUNTING and record.runs >= self.after:
            return self._start(feeds, state)
        if status == TRIAL:
            return self._trial_run(feeds, state)
        if status == RETRIAL and record.runs >= self.retrial_at:
            self.trial = {"eager": [], "compiled": []}
            record.status = TRIAL
            return self._trial_run(feeds, state)
        return self.eager(feeds, state)

    # -- compiling -------------------------------------------------------------------------
    def _start(self, feeds: Any, state: Any) -> tuple:
        settle(self.plan)             # compiled for the count measured on its runs
        sig = _signature(feeds)
        if sig is None:
            self._give_up("feeds that are not torch tensors", OP_BY_OP)
            return self.eager(feeds, state)
        before = dict(state)          # holding these references makes updates copy
        result = self.eager(feeds, state)
        after = dict(state)
        self.sig = sig
        self.record.status = COMPILING
        # torch.compile's code is guarded on the thread count (OpenMP's, which is per
        # thread): it is compiled, and later used, with the count this run had.
        self.threads = torch.get_num_threads()
        job = (list(feeds), before, result, after, torch.is_grad_enabled())
        if self.cfg["background"]:
            _start_compile_thread(self._compile_job, job, self.plan)
        else:
            self._compile_job(*job)
        return result

    def _compile_job(self, feeds: List[Any], before: Dict[str, Any], result: tuple,
                     after: Dict[str, Any], grad: bool) -> None:
        start = time.perf_counter()
        try:
            set_thread_count(self.threads)
            _let_dynamo_trace_tf1compat()
            compiled = compile_recording(with_inline_constants(self.eager, self.plan.source),
                                self.cfg["backend"])
            snapshot = type(before)(before) if isinstance(before, dict) else dict(before)
            # The first call traces: a whole gradient plan's torch.autograd.grad is traced
            # into the graph (compiled_steps.compiles_whole), not a graph break.
            with torch.set_grad_enabled(grad), _tracing_autograd(self.plan.needs_grad):
                got = compiled(feeds, snapshot)
        except Exception as e:  # noqa: BLE001 - any failure means: stay op by op
            self._give_up(_failure(e))
            return
        self.record.compile_seconds = time.perf_counter() - start
        if len(got) != len(result) or not all(_same(a, b) for a, b in zip(got, result)):
            self._give_up("compiled results differ from the op-by-op results")
            return
        if set(snapshot) != set(after) or not all(_same(snapshot[k], after[k]) for k in after):
            self._give_up("compiled variable updates differ from the op-by-op updates")
            return
        with torch.set_grad_enabled(grad):
            self.direct = direct_call(compiled, feeds, got)
        self.grad = grad
        self.compiled = compiled
        self.record.status = TRIAL

    def _give_up(self, reason: str, status: str = FALLBACK) -> None:
        self.record.status = status
        self.record.reason = reason
        self.compiled = None
        self.direct = None
        # Op by op from now on, with its thread count measured as any uncompiled plan's.
        self.plan.fn = self.eager
        tune_threads(self.plan)
        _report(self.plan, self.record)

    # -- trial and steady state ------------------------------------------------------------
    def _trial_run(self, feeds: Any, state: Any) -> tuple:
        compiled = self.compiled
        if compiled is None or not self._covers(feeds):
            return self.eager(feeds, state)
        # Runs come in pairs, one of each kind, the first kind alternating from pair to
        # pair: both runs of a pair see about the same load, and neither kind always
        # runs right after the other (warm caches, a thread count just set).
        done = len(self.trial["compiled"]) + len(self.trial["eager"])
        if done == 0:
            self.clock = _trial_clock(self.threads, self.record)
        use_compiled = done % 2 == (done // 2) % 2
        clock = self.clock
        start = clock()
        result = self._run_compiled(feeds, state) if use_compiled else self.eager(feeds, state)
        elapsed = clock() - start
        self.trial["compiled" if use_compiled else "eager"].append(elapsed)
        pairs = min(len(v) for v in self.trial.values())
        if pairs >= _TRIAL_RUNS and pairs == max(len(v) for v in self.trial.values()) and \
                pairs % _TRIAL_RUNS == 0:
            self._decide(pairs >= _TRIAL_MAX_RUNS)
        return result

    def _decide(self, last: bool) -> None:
        if self.retrials == 0:
            self.compile_reason = self.record.reason
        compiled, eager = self.trial["compiled"], self.trial["eager"]
        compiled_s, eager_s, paired = _measures(compiled, eager)
        verdict = trial_verdict(compiled, eager, last)
        if verdict is None:
            return                          # more pairs (`trial_verdict`)
        # Measures that disagree have op by op at least as fast on one (verdict False,
        # kept once the retrials are spent).
        disagree = _measures_disagree(compiled_s, eager_s, paired) and \
            self.retrials < _RETRIALS
        self.record.op_by_op_us = eager_s * 1e6
        self.record.compiled_us = compiled_s * 1e6
        clock = " of CPU time" if self.record.trial_clock == "cpu" else ""
        measures = (f"{compiled_s * 1e6:.0f} us vs {eager_s * 1e6:.0f} us op by op at "
                    f"best{clock}; median ratio of paired runs {paired:.2f} over "
                    f"{len(compiled)} pairs")
        if disagree:
            # Noise that says nothing either way: op by op for now, timed again later
            # (a burst of load during the one trial had otherwise kept a data_mlp step
            # 2-4x faster compiled op by op for good).
            self.retrials += 1
            wait = max(self.after, 2 * _TRIAL_RUNS) * 2 ** self.retrials
            self.retrial_at = self.record.runs + wait
            self.record.status = RETRIAL
            self.record.reason = (f"trial {self.retrials} inconclusive ({measures}): timed "
                                  f"again after {wait} runs")
            _report(self.plan, self.record)
        elif verdict:
            # The compile's reason stays: a step compiled without its gradient op says why.
            self.record.reason = self.compile_reason
            self.record.status = COMPILED
            self.plan.fn = self._steady
            if follows_load(self.threads):
                self.follower = LoadFollower(self.threads)
            _report(self.plan, self.record)
        else:
            self._give_up(f"compiled runs were not faster ({measures})")

    def _steady(self, feeds: Any, state: Any) -> tuple:
        self.record.runs += 1
        follower = self.follower
        if follower is not None and _thread_policy.is_automatic():
            return follower.run(lambda: self._compiled_if_covered(feeds, state),
                                lambda: self.eager(feeds, state))
        return self._compiled_if_covered(feeds, state)

    def _compiled_if_covered(self, feeds: Any, state: Any) -> tuple:
        if not self._covers(feeds):
            return self.eager(feeds, state)
        return self._run_compiled(feeds, state)

    def _covers(self, feeds: Any) -> bool:
        """Whether the compiled function serves this run without recompiling."""
        return _signature(feeds) == self.sig and torch.get_num_threads() == self.threads

    def _run_compiled(self, feeds: Any, state: Any) -> tuple:
        direct = self.direct
        if direct is not None and torch.is_grad_enabled() == self.grad:
            try:
                return direct(feeds)
            except Exception:  # noqa: BLE001 - TF's result or error comes from op by op
                self.direct = None
                return self.eager(feeds, state)
        try:
            return _failing_on_recompile(self.compiled, feeds, state)
        except Exception as e:  # noqa: BLE001
            # Tracked plans update nothing, so there is nothing to undo: the op-by-op run
            # gives TF's result, or TF's error naming the op.
            if "recompil" in str(e).lower():
                self._give_up("inputs changed in a way the compiled plan did not cover: "
                              + _first_line(e))
            return self.eager(feeds, state)


def _first_line(error: BaseException) -> str:
    """`Class: first line of the message` (at most 300 characters), for a fallback's
    recorded reason: which guard failed is what tells a compiled plan's next fix."""
    message = str(error).strip().split("\n", 1)[0][:300]
    return f"{type(error).__name__}: {message}" if message else type(error).__name__


class _StepHotPlan(_HotPlan):
    """A plan with a gradient op: its forward segment is compiled (with the gradient op
    where it can join, else alone), what follows runs as before
    (runtime/compiled_steps.py). The run that starts the
    compile keeps copies of the variables the forward segment reads; the compiled
    segment's values and gradients are checked on those copies, since the step itself
    updates the variables."""

    def __init__(self, plan: Plan, record: HotPlanRecord, after: int, cfg: Dict[str, Any]):
        super().__init__(plan, record, after, cfg)
        pieces = compiled_steps.split(plan)
        assert not isinstance(pieces, str), pieces     # blocker() let it through
        self.pieces = pieces

    def _start(self, feeds: Any, state: Any) -> tuple:
        settle(self.plan)             # compiled for the count measured on its runs
        sig = _signature(feeds)
        pieces = self.pieces
        keys = dict.fromkeys([*pieces.state_keys, *self.plan.state_marks,
                              *(key for _, key in pieces.reads)])
        variables = {key: state.get(key) for key in keys}
        if sig is None or not all(isinstance(v, torch.Tensor) for v in variables.values()):
            self._give_up("feeds or variables that are not torch tensors", OP_BY_OP)
            return self.eager(feeds, state)
        variables = {key: v.detach().clone() for key, v in variables.items()}
        pieces.generate()
        if pieces.head_plan is None:
            inputs = list(feeds)
            result = self.eager(feeds, state)
        else:
            # The input ops run once (an iterator moves on): the forward segment is traced
            # and checked with the values they gave this run.
            inputs = pieces.step_inputs(feeds, state)
            result = pieces.run_op_by_op(feeds, state, inputs)
            if _signature(inputs) is None:
                self._give_up("input ops' values that are not torch tensors", OP_BY_OP)
                return result
        self.sig = sig
        self.record.status = COMPILING
        self.threads = torch.get_num_threads()
        job = ([f.detach().clone() for f in inputs], variables)
        if self.cfg["background"]:
            _start_compile_thread(self._compile_job, job, self.plan)
        else:
            self._compile_job(*job)
        return result

    def _compile_job(self, feeds: List[Any], variables: Dict[str, Any]) -> None:
        start = time.perf_counter()
        pieces = self.pieces
        try:
            set_thread_count(self.threads)
            special = pieces.specialised_forward(feeds, variables)
            _let_dynamo_trace_tf1compat()
            compiled = compile_recording(with_inline_constants(special.fn, special.source),
                                self.cfg["backend"])
            # A merged segment's first call traces its gradient op into the graph.
            with _tracing_autograd(pieces.merged):
                mismatch = compiled_steps.check(pieces, compiled, feeds, variables, _same)
        except Exception as e:  # noqa: BLE001 - any failure means: stay op by op
            mismatch = _failure(e)
        self.record.compile_seconds = time.perf_counter() - start
        if mismatch is not None and pieces.writes:
            # The optimizer's updates could not join the graph: the loss and gradients
            # alone, the updates op by op (the reason says why).
            self.pieces = compiled_steps.split(self.plan, join=False)
            self.pieces.generate()
            self.record.reason = f"optimizer updates left out of the compiled graph: {mismatch}"
            self._compile_job(feeds, variables)
            return
        if mismatch is not None and pieces.merged:
            # The gradient op could not join the graph: the forward segment alone, as
            # before merged segments (its reason is kept if that fails too), if it can be.
            if isinstance(pieces := compiled_steps.split(self.plan, merge=False), str):
                return self._give_up(f"{mismatch}; {pieces}")
            self.pieces = pieces
            pieces.generate()
            self.record.reason = f"gradient op left out of the compiled graph: {mismatch}"
            self._compile_job(feeds, variables)
            return
        if mismatch is not None:
            self._give_up(mismatch)
            return
        self.compiled = compiled
        self.record.status = TRIAL

    def _run_compiled(self, feeds: Any, state: Any) -> tuple:
        compiled = self.compiled

        def forward(values: List[Any], variables: Dict[str, Any]) -> tuple:
            return _failing_on_recompile(compiled, values, variables)
        try:
            return self.pieces.run(forward, feeds, state)
        except compiled_steps.ForwardFailed as e:
            # Nothing ran past the forward segment: the op-by-op run gives TF's result,
            # or TF's error naming the op. Errors of the gradient op and the updates
            # come from the same kernels as op by op and are the run's errors.
            if "recompil" in str(e).lower():
                self._give_up("inputs changed in a way the compiled plan did not cover: "
                              + _first_line(e.__cause__))
            if e.inputs is not None:
                # The input ops ran (an iterator moved on): the step goes on with their
                # values, op by op.
                return self.pieces.run_op_by_op(feeds, state, e.inputs)
            return self.eager(feeds, state)


class HotPlans:
    """One session's hot-plan policy."""

    def __init__(self, jit: bool):
        self.cfg = settings()
        self.jit = jit

    def track(self, plan: Plan) -> None:
        """Decides what `plan` (just generated) may become; sets `plan.hot`. Its runs
        also choose their thread count by measurement (runtime/thread_tuner.py)."""
        self._track(plan)
        # torch.compile guards on the thread count, so a compiled plan keeps the count it
        # was compiled for: a candidate's runs are measured until it is compiled, and it
        # is compiled for the count they found fastest (`_start`).
        tune_threads(plan)

    def _track(self, plan: Plan) -> None:
        cfg = self.cfg
        if cfg["mode"] == "off":
            plan.hot = HotPlanRecord(OP_BY_OP, "TF1COMPAT_COMPILE=off")
            return
        reason = blocker(plan, self.jit, cfg["min_ops"])
        if reason is not None:
            plan.hot = HotPlanRecord(OP_BY_OP, reason)
            return
        plan.hot = HotPlanRecord(COUNTING)
        after = 1 if self.jit else cfg["after"]
        if compiled_steps.first_gradient(plan) is not None and \
                not compiled_steps.compiles_whole(plan):
            plan.fn = _StepHotPlan(plan, plan.hot, after, cfg)
        else:
            plan.fn = _HotPlan(plan, plan.hot, after, cfg)
