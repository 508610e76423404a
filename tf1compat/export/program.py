"""An exported module's program: the session's plan and codegen over the module's own state.

A `Program` is what `Session.run` would execute for the export's fetches and feeds,
built by the runtime's `PlanBuilder` and compiled by `runtime/codegen.py`, with three
differences:

* the variable store `S` is a `ModuleState`: store keys resolve to the owning module's
  parameters and buffers when read, so `.to()`, `load_state_dict` and optimizers act on
  what the program reads; assignments in the graph (moving averages) update buffers;
* every kernel carries TF's gradient semantics (`autodiff/grad_mode.py`: not
  differentiable ops, `grad_formula`s, Python gradient functions), because the torch
  user differentiates the module's outputs, as `tf.gradients` would the graph's;
* after the build, values that are known without inputs are folded: an unfed
  PlaceholderWithDefault is its default, pure ops on constants run once, and a
  control-flow op with a constant predicate receives it as a Python scalar, so tracers
  (torch.compile, torch.export) never branch on a tensor there.

A program built with `tracing=True` serves torch.export's non-strict tracing (fake
tensors): pure kernels whose inputs are real tensors run untraced and give real values,
and pure kernels whose outputs depend only on input shapes (Shape, Size, Rank) are
evaluated on shape-only stand-ins, so shape arithmetic, `tf.reshape` targets and loop
bounds of `tf.while_loop` stay Python values and the exported graph is straight-line
torch. Ops that torch.export cannot capture raise `ExportError` (see problems.py).
"""

from __future__ import annotations

import contextlib
import dataclasses
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Sequence

import torch

from tf1compat.autodiff.custom_gradient import build_custom_gradient
from tf1compat.autodiff.grad_mode import GradModeRewriter, custom_record
from tf1compat.autodiff.registry import gradient_function
from tf1compat.export.problems import ExportError, export_problem, problem_reason
from tf1compat.export.random_ops import TORCH_SAMPLERS
from tf1compat.framework import errors
from tf1compat.framework.op_def import FOLD_ELEMENT_LIMIT
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.runtime.codegen import compile_plan
from tf1compat.runtime.plan import (CONST, SLOT, GradientSetup, Plan, PlanBuilder, Source,
                                    compute_frees)
from tf1compat.runtime.session import CompiledFunction, SessionRuntime

__all__ = ["ModuleState", "Program", "KnownValues", "untraced", "is_traced"]


# -- the variable store of a module -------------------------------------------------------

_NO_LOCK = contextlib.nullcontext()


class ModuleState:
    """Store key -> the owner module's parameter or buffer, looked up on every read.

    Writes (TF assign ops in the exported computation) update buffers in place under
    `no_grad`, as torch's own running statistics; a trainable variable (an nn.Parameter)
    is never assigned by a module: torch.optim trains it.
    """

    __slots__ = ("_slots",)

    def __init__(self, slots: Dict[str, tuple]):
        # key -> (submodule, attribute name, trainable)
        self._slots = slots

    def __getitem__(self, key: str) -> Any:
        try:
            module, name, _ = self._slots[key]
        except KeyError:
            raise errors.FailedPreconditionError(
                None, None, f"Attempting to use uninitialized value {key} (it is not a "
                            "variable of the exported module)") from None
        return getattr(module, name)

    # The rest of the variable-store protocol kernels use (runtime/session_state.py): a
    # module runs in its caller's thread and assigns only buffers, so there is nothing to
    # lock, no per-run gradient view, and no in-place update of a stored tensor.
    def lock(self, key: str) -> contextlib.nullcontext:
        return _NO_LOCK

    def locks(self, keys: Iterable[str]) -> contextlib.nullcontext:
        return _NO_LOCK

    def updated(self, key: str) -> None:
        pass

    def own_leaf(self, key: str) -> None:
        return None

    def own_leaves(self) -> None:
        return None

    def try_exclusive(self) -> bool:
        return False

    def view(self) -> "ModuleState":
        """The store kernels read variables through (a session's store gives the running
        thread's gradient view; a module's parameters are the autograd leaves already)."""
        return self

    def get(self, key: str, default: Any = None) -> Any:
        slot = self._slots.get(key)
        return default if slot is None else getattr(slot[0], slot[1])

    def __contains__(self, key: object) -> bool:
        return key in self._slots

    def __iter__(self) -> Iterator[str]:
        return iter(self._slots)

    def __len__(self) -> int:
        return len(self._slots)

    def __setitem__(self, key: str, value: Any) -> None:
        slot = self._slots.get(key)
        if slot is None:
            raise errors.FailedPreconditionError(
                None, None, f"the exported computation assigns {key}, which is not a "
                            "variable of the module")
        module, name, trainable = slot
        if trainable:
            raise NotImplementedError(f"the exported computation assigns the trainable variable "
                               f"{key!r}; an exported module does not train itself: export "
                               "the forward computation and train with torch.optim")
        current = getattr(module, name)
        with torch.no_grad():
            if isinstance(current, torch.Tensor) and current.shape == value.shape and \
                    current.dtype == value.dtype:
                current.copy_(value)
            else:
                module.register_buffer(name, value.detach(),
                                       persistent=name not in module._non_persistent_buffers_set)


# -- tracing helpers --------------------------------------------------------------------------

def is_traced(value: Any) -> bool:
    """Whether `value` is a fake tensor of a tracer (torch.export's non-strict tracing)."""
    from torch._subclasses.fake_tensor import is_fake
    from torch._subclasses.functional_tensor import FunctionalTensor
    # torch 2.4's is_fake does not see through the functional wrappers export traces with.
    return isinstance(value, torch.Tensor) and (is_fake(value) or
                                                isinstance(value, FunctionalTensor))


@contextlib.contextmanager
def untraced() -> Iterator[None]:
    """Runs torch outside the active tracers: real tensors in, real tensors out."""
    from torch.utils._python_dispatch import _disable_current_modes
    with _disable_current_modes(), torch._C.DisableTorchFunction():
        yield


# torch functions never evaluated ahead of the tracer, though their inputs are constants.
_RANDOM = ("rand", "bernoulli", "multinomial", "normal", "uniform", "dropout", "exponential",
           "poisson", "cauchy", "geometric")


def _name(func: Any) -> str:
    return getattr(func, "__name__", "") or ""


class KnownValues(torch.overrides.TorchFunctionMode):
    """While tracing: torch calls whose tensor inputs are all real (constants, shapes,
    values computed from them) run outside the tracer, so their results stay real.

    This keeps TF's shape arithmetic (`tf.shape(x)[0]`, the concat that builds a
    `tf.reshape` target, a loop counter compared with `tf.shape(x)[1]`) Python-readable
    under torch.export: values that do not depend on the module's inputs or variables
    are computed, not traced, as TF's grappler folds them for a static input shape. A
    real tensor written in place with traced values cannot be kept real: ExportError.
    """

    def __torch_function__(self, func: Any, types: Any, args: Any = (),
                           kwargs: Any = None) -> Any:
        kwargs = kwargs or {}
        leaves = [v for v in torch.utils._pytree.tree_leaves((args, kwargs))
                  if isinstance(v, torch.Tensor)]
        traced = [is_traced(v) for v in leaves]
        name = _name(func)
        if not any(traced) and not any(word in name for word in _RANDOM):
            try:
                with untraced():
                    return func(*args, **kwargs)
            except Exception:  # noqa: BLE001 - symbolic sizes and the like: trace it
                pass
        elif leaves and not traced[0] and (name.endswith("_") and not name.endswith("__")
                                           or name == "__setitem__"):
            raise ExportError([f"a kernel writes traced values into a constant tensor "
                               f"({name}); torch.export cannot follow it"])
        return func(*args, **kwargs)


def _blocked_kernel(op: Operation, reason: str) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        raise ExportError([export_problem(op, reason)])
    return run


# -- kernels of exported programs -------------------------------------------------------------

class _ExportKernels:
    """The plan builder's kernel rewriter for exported programs (see the module docstring)."""

    def __init__(self, tracing: bool, torch_random: bool):
        self.gradients = GradModeRewriter([])
        self.tracing = tracing
        self.torch_random = torch_random

    def wrap(self, op: Operation, kernel: Callable[..., Any], kctx: Any,
             formulas: bool = True) -> Callable[..., Any]:
        if self.torch_random and op.type in TORCH_SAMPLERS:
            kernel = TORCH_SAMPLERS[op.type](op, kctx)
        _ensure_python_gradient(op)
        kernel = self.gradients.wrap(op, kernel, kctx, formulas)
        if not self.tracing:
            return kernel
        reason = problem_reason(op, self.torch_random)
        return kernel if reason is None else _blocked_kernel(op, reason)

    def call_captures(self, op: Operation) -> List[Any]:
        """Captured forward values the plan passes to `op`'s kernel (grad_mode.py)."""
        return self.gradients.call_captures(op)


def _ensure_python_gradient(op: Operation) -> None:
    """Builds the gradient sub-graph of an op whose gradient is a Python function
    (RegisterGradient + gradient_override_map, py_func) once, as tf.gradients would, so
    the module back-propagates through it."""
    try:
        kind, fn = gradient_function(op)
    except LookupError:
        return
    if kind != "python" or custom_record(op) is not None:
        return
    out_grads: List[Any] = [None] * len(op._outputs)
    build_custom_gradient(op, fn, out_grads, f"export_gradients/{op.name}_grad/")
    record = custom_record(op)
    if record is not None and record.captures:
        names = ", ".join(t.name for t in record.captures[:3])
        raise NotImplementedError(
            f"tf1compat.export: the Python gradient function of {op.name} ({op.type}) "
            f"reads forward tensors other than the op's inputs and outputs ({names}); "
            "an exported module cannot provide them to its backward")


class _ExportPlacer:
    """Every op on the module's device, except CPU-only ops (strings, Python calls)."""

    def __init__(self, device: torch.device):
        self.default = device

    def device_for(self, op: Operation) -> torch.device:
        return torch.device("cpu") if op._op_def.cpu_only else self.default


class _ExportBuilder(PlanBuilder):
    """The session's plan builder, with exported programs' kernels and folding."""

    def build(self, fetch_elems: Sequence[Any], feed_tensors: Sequence[Tensor],
              context: Any = None, for_function: bool = False) -> Plan:
        plan = super().build(fetch_elems, feed_tensors, context, for_function)
        if plan.error is None:
            fold_known_values(plan)
        return plan

    def gradient_setup(self, order: List[Operation],
                       for_function: bool = False) -> GradientSetup:
        for op in order:
            if op._op_def.grad_sources is not None:
                raise NotImplementedError(
                    f"tf1compat.export: {op.name} computes tf.gradients inside the "
                    "exported computation; export the forward values and differentiate "
                    "them with torch autograd")
        return GradientSetup(False, set(), self.runtime.kernels)


class _ExportRuntime(SessionRuntime):
    """A session runtime whose store is the module's state and whose plans are built for
    one device by `_ExportBuilder` (op resources and region caching are the session's)."""

    def __init__(self, graph: Any, state: ModuleState, device: torch.device, tracing: bool,
                 torch_random: bool):
        super().__init__(graph)
        self.state = state
        self.placer = _ExportPlacer(device)
        self.kernels = _ExportKernels(tracing, torch_random)
        self.builder = _ExportBuilder(self)

    @torch.compiler.disable
    def compile_function(self, inputs: List[Tensor], outputs: List[Tensor],
                         context: Any) -> CompiledFunction:
        # Regions compile when their construct first runs: under a tracer, outside it,
        # so what folding computes is real.
        with untraced():
            return super().compile_function(inputs, outputs, context)


# -- folding what is known without inputs ---------------------------------------------------

def _folds_when_unfed(op: Operation) -> bool:
    """Pure ops that a Session never folds only because a run may feed them
    (PlaceholderWithDefault): an exported module's feeds are fixed."""
    od = op._op_def
    return od.kernel is not None and dataclasses.replace(od, can_fold=True).foldable


def fold_known_values(plan: Plan) -> None:
    """Folds steps whose inputs are all constants (see the module docstring) and hands
    control-flow ops their constant predicate as a Python scalar."""
    known: Dict[int, Any] = {}

    def resolve(src: Source) -> Source:
        if src.kind == SLOT and src.ref in known:
            return Source(CONST, known[src.ref], src.to_device)
        return src

    steps = []
    for step in plan.steps:
        step.args = [resolve(a) for a in step.args]
        step.frees = []
        consts = all(a.kind == CONST and a.ref is not None for a in step.args)
        if step.kernel is not None and step.args and consts and not step.marks and \
                _folds_when_unfed(step.op) and not step.op._control_inputs:
            values = _fold(step)
            if values is not None:
                for slot, value in zip(step.outs, values):
                    if slot is not None:
                        known[slot] = value
                continue
        if _chooses_by_first_input(step.op) and step.args[0].kind == CONST and \
                isinstance(step.args[0].ref, torch.Tensor) and step.args[0].ref.numel() == 1:
            step.kernel = _with_scalar_predicate(step.kernel, step.args[0].ref.item())
        steps.append(step)
    plan.steps = steps
    plan.fetches = [resolve(f) for f in plan.fetches]
    compute_frees(plan.steps, plan.fetches)


def _chooses_by_first_input(op: Operation) -> bool:
    """Control-flow ops whose first input is one predicate or branch index (If, Case),
    as opposed to a list of loop variables (While)."""
    od = op._op_def
    return od.keeps_devices and bool(od.inputs) and not od.inputs[0].is_list


def _fold(step: Any) -> Optional[list]:
    values = [a.ref.to(a.to_device) if a.to_device is not None and
              isinstance(a.ref, torch.Tensor) else a.ref for a in step.args]
    try:
        with torch.no_grad():
            out = step.kernel(*values)
    except Exception:  # noqa: BLE001 - it fails at run time instead, with its error
        return None
    outs = list(out) if len(step.outs) != 1 else [out]
    if len(outs) != len(step.outs) or not all(isinstance(v, torch.Tensor) for v in outs):
        return None
    # As the plan's own folding: small values only, except a PlaceholderWithDefault's
    # default, which is a constant already.
    if step.op._op_def.can_fold and any(v.numel() > FOLD_ELEMENT_LIMIT for v in outs):
        return None
    return outs


def _with_scalar_predicate(kernel: Callable[..., Any], pred: Any) -> Callable[..., Any]:
    return lambda _pred, *args: kernel(pred, *args)


# -- programs ---------------------------------------------------------------------------------

class Program:
    """The compiled computation of one exported module on one device."""

    def __init__(self, spec: Any, state: ModuleState, device: torch.device,
                 tracing: bool = False):
        self.device = device
        self.runtime = _ExportRuntime(spec.graph, state, device, tracing, spec.torch_random)
        plan = self.runtime.builder.build(spec.elements, spec.feeds)
        if plan.error is not None:
            raise plan.error
        compile_plan(plan, name="forward")
        self.plan = plan
        self.fn = plan.fn
        self.state = state
        # The same computation built for torch.export's tracing (module.py makes it).
        self.tracing_twin: Optional["Program"] = None

    @property
    def source(self) -> str:
        """The generated Python code of the program (as `Session.plan_source`)."""
        return self.plan.source

    def __call__(self, feeds: Sequence[Any]) -> tuple:
        return self.fn(feeds, self.state)
