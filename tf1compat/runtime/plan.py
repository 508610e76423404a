"""Execution plans: prune the graph to what a run needs, order it, bind kernels.

A Plan is built once per (fetches, feed keys, graph structure) and cached by the session.
It lists `Step`s in a valid execution order (TF's executor order: by dependency depth,
ties in creation order);
each step names its kernel (built once here by the op's kernel factory) and where each
input comes from (`Source`). The code generator (codegen.py) turns the steps into
straight-line Python and the interpreter (interpreter.py) walks the same steps.

Variables follow TF1 ref-variable semantics: a variable's output, and an Identity of it
(`v/read`), are *aliases* of the variable's slot in the session's store, read when each
consumer runs. So `c = a + b` built under `control_dependencies([assign_a])` sees the
assigned value, as in TF, where reads alias the variable's buffer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set, Tuple

import torch

from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.hooks import GRAD_MODE
from tf1compat.framework.op_def import FOLD_ELEMENT_LIMIT, single_output
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.runtime.autograd_only import without_effects, without_effects_ops
from tf1compat.runtime.kernel_batches import group_batchable
from tf1compat.runtime.plan_checks import feeds_between_gradient_ends
from tf1compat.runtime.plan_order import is_back_edge, state_key, toposort
from tf1compat.runtime.plan_rewrites import FusedChain, fused_chains, own_shape_reshapes

__all__ = ["Source", "Step", "Plan", "PlanKernelContext", "PlanBuilder", "GradientSetup",
           "gradient_setup", "compute_frees", "state_key", "is_pure_alias",
           "DATAFLOW_OP_TYPES", "is_back_edge"]

SLOT, FEED, STATE, CONST = "slot", "feed", "state", "const"

# TF1's dataflow control flow (imported graphs, ops/dataflow_ops.py). A plan containing
# one runs on the dataflow executor (runtime/dataflow.py) instead of straight-line code.
DATAFLOW_OP_TYPES = frozenset({"Switch", "RefSwitch", "Merge", "RefMerge", "Enter",
                               "RefEnter", "Exit", "RefExit", "NextIteration",
                               "RefNextIteration", "LoopCond", "ControlTrigger"})

# Installed by tf1compat.autodiff (grad_mode.py). Called with the gradient ops of a plan
# that computes gradients, it returns an object whose `wrap(op, kernel, kctx)` gives the
# kernel each op runs with in that plan (TF's gradient semantics: custom gradients,
# non-differentiable ops, stop_gradients). Plans without gradient ops never call it.


@dataclass
class Source:
    """Where a step input (or a fetch) comes from at run time."""
    kind: str                          # SLOT | FEED | STATE | CONST
    ref: Any                           # slot id, feed index, state key, or the constant
    to_device: Optional[torch.device] = None


@dataclass
class Step:
    """One op in the plan."""
    op: Operation
    kernel: Optional[Callable[..., Any]]   # None: nothing to execute (aliases, NoOp)
    args: List[Source]
    outs: List[Optional[int]]              # slot per output, None if unused
    frees: List[int] = field(default_factory=list)
    marks: List[int] = field(default_factory=list)   # slots made gradient sources


@dataclass
class Plan:
    """A pruned, ordered, kernel-bound execution of one fetch/feed signature."""
    steps: List[Step]
    feed_slots: List[int]
    fetches: List[Source]
    fetch_copies: List[bool]         # fetch may alias persistent storage: copy it
    needs_grad: bool
    state_marks: List[str]            # variable slots made gradient sources for the run
    slot_tensors: Dict[int, str] = field(default_factory=dict)  # slot -> tensor name
    error: Optional[BaseException] = None
    dataflow: bool = False           # TF1 control flow: runs on runtime/dataflow.py
    fn: Optional[Callable[..., Any]] = None      # generated function (codegen)
    source: str = ""
    line_to_op: Dict[int, Operation] = field(default_factory=dict)
    hot: Any = None          # runtime/hot_plans.HotPlanRecord: compiled whole or why not
    # [(fetch index, hooks.FETCHED_VALUES function)], decided on the plan's first run.
    fetch_wrappers: Optional[List[Tuple[int, Callable[..., Any]]]] = None
    # {key: layout}: variables held in torch's layout across the plan's runs
    # (runtime/held_plans.py, set by the session before the plan is compiled).
    held_keys: Optional[Dict[str, Any]] = None


def _outside_variable_key(t: Tensor, context: Any) -> Optional[str]:
    """The store key of the variable `t` stands for where it comes from outside region
    `context`: a ref variable (a pure alias) or a resource variable's handle (a constant
    op whose value is the key); else None."""
    op = t._op
    if op._control_flow_context is context:
        return None
    if is_pure_alias(t):
        return state_key(t)
    if t._dtype.name == "resource" and op._op_def.constant:
        key = op._op_def.kernel(op, None)       # (VarHandleOp: its key, from attrs only)
        return key if isinstance(key, str) else None
    return None


def is_pure_alias(t: Tensor) -> bool:
    """Whether `t` aliases a variable slot and its op runs nothing (VariableV2, `v/read`).

    Control-flow regions (cond branches, loop bodies) read such tensors from the store
    where each consumer runs instead of capturing them as inputs, so a loop body sees
    the assignments made by earlier iterations, as TF1's ref variables do.
    """
    od = t._op._op_def
    return state_key(t) is not None and (od.kernel is None or od.state_alias is not None or
                                         od.forwards_alias)


class PlanKernelContext:
    """What a kernel factory may use: the session runtime, the op's device, sub-plans."""

    __slots__ = ("runtime", "device", "node", "builder", "_may_alias", "own_shape",
                 "_constant")

    def __init__(self, runtime: Any, device: torch.device, node: Operation,
                 builder: "PlanBuilder",
                 may_alias: Optional[Callable[[Tensor], bool]] = None,
                 own_shape: Optional[List[Any]] = None,
                 constant: Optional[Callable[[Tensor], bool]] = None):
        self.runtime = runtime
        self.device = device
        self.node = node
        self.builder = builder
        self._may_alias = may_alias
        self._constant = constant
        # A Reshape to its input's own dimensions (runtime/plan_rewrites.py): the target
        # spec its kernel reads from input 0; its shape input arrives as None.
        self.own_shape = own_shape

    @property
    def state(self) -> Dict[str, Any]:
        """The session's variable store (key -> torch tensor)."""
        return self.runtime.state

    def ref_key(self, t: Tensor) -> str:
        key = state_key(t)
        if key is None:
            raise TypeError(f"{self.node.name}: input {t.name} is not a variable reference")
        return key

    def input_may_alias(self, t: Tensor) -> bool:
        """Whether input `t`'s run-time value may share storage with a feed, a constant, a
        variable or another view, so a kernel that keeps it (Assign) must copy it first."""
        return True if self._may_alias is None else self._may_alias(t)

    def input_is_constant(self, t: Tensor) -> bool:
        """Whether input `t` is a constant when the plan runs, as TF's Grappler sees it
        after constant folding (its IsReallyConstant): computed from constants alone and
        not fed (ops/grappler_rewrites.py reads it)."""
        return self._constant is not None and self._constant(t)

    def op_resource(self, factory: Callable[[], Any]) -> Any:
        """Per-session state of this op that outlives plans (random streams, readers)."""
        return self.runtime.op_resource(self.node, factory)

    def compile_function(self, inputs: Sequence[Tensor], outputs: Sequence[Tensor],
                         context: Any = None) -> Callable[..., tuple]:
        """Compiles the region computing `outputs` from `inputs` to f(inputs, S) -> tuple.

        `context` is the control-flow region the ops belong to (cond branch, loop body).
        Cached per session, so a loop body compiles once however many times it runs.
        """
        return self.runtime.compile_function(list(inputs), list(outputs), context)


class PlanBuilder:
    """Builds Plans for one session runtime, in passes that can be run (and tested) alone:

    1. `prune`: the ops the fetches need, stopping at feeds, in a valid order;
    2. `gradient_setup`: which tensors are autograd sources, and the kernel rewriter for
       plans that contain gradient ops;
    3. `_Binder.bind`, per op: device, argument sources, kernel, constant folding, slots;
    4. `_Binder.fetch_sources`: where each fetch comes from and whether it is copied;
    5. `compute_frees`: after which step each value is dead.

    A plan with TF1 dataflow control flow (`Plan.dataflow`) is ordered ignoring loop back
    edges, keeps constants under control dependencies as steps, folds nothing and frees
    nothing: the dataflow executor decides at run time what runs, and how often.
    """

    def __init__(self, runtime: Any):
        self.runtime = runtime

    def build(self, fetch_elems: Sequence[Any], feed_tensors: Sequence[Tensor],
              context: Any = None, for_function: bool = False) -> Plan:
        """The plan computing `fetch_elems` from `feed_tensors` (errors become a Plan whose
        `error` is raised when it runs, so the failure repeats on every run, as TF's)."""
        feeds = {t: i for i, t in enumerate(feed_tensors)}
        try:
            through: Set[Tensor] = set()
            while True:
                modes = self.prune_modes(fetch_elems, feeds, context)
                dataflow = any(op._type in DATAFLOW_OP_TYPES for op in modes)
                reshapes = {} if dataflow else own_shape_reshapes(modes, feeds)
                if reshapes:
                    # Their shape inputs are computed in the kernel: prune what only
                    # they need.
                    modes = self.prune_modes(fetch_elems, feeds, context, reshapes)
                order = toposort(list(modes))
                grads = self.gradient_setup(order, for_function)
                more = feeds_between_gradient_ends(order, feeds) \
                    if grads.needs_grad and feeds and not dataflow else set()
                if not more:
                    break
                outside = [t for t in more if t._op._control_flow_context is not context]
                if outside:
                    # (a region's captures carry no autograd history from the outer plan)
                    raise NotImplementedError(
                        f"tf.gradients inside a control-flow construct through its input "
                        f"{outside[0].name}, computed outside it (the ys depend on the "
                        f"sources through it): tf1compat differentiates a tf.cond branch "
                        f"or loop body only from its own ops; call tf.gradients outside "
                        f"the construct and use the gradients inside it")
                # A gradient runs through these fed tensors: their producers run too
                # (pruned again without them as feeds), and `_Binder` passes consumers
                # the fed value with the producer's gradient (TF's semantics).
                through |= more
                feeds = {t: i for t, i in feeds.items() if t not in through}
            chains = {} if dataflow else fused_chains(
                order, feeds, {e for e in fetch_elems if isinstance(e, Tensor)} | through,
                grads.sources)
            binder = _Binder(self, feed_tensors, feeds, grads, context, for_function,
                             dataflow, without_effects_ops(modes), reshapes, chains)
            if context is not None:
                # A variable from outside the region that its own gradient op
                # differentiates: a leaf of the region's run (session_state.RegionView).
                for t in grads.sources:
                    key = _outside_variable_key(t, context)
                    if key is not None and key not in binder.state_marks:
                        binder.state_marks.append(key)
            for t in through:       # the feed keeps its slot; the producer gets its own
                binder.slots[("fed", t)] = binder.slots.pop(t)
            for op in order:
                binder.bind(op)
                for t in op._outputs:
                    if t in through:
                        binder.feed_through(t)
            binder.bind_back_edges()
            fetches, copies = binder.fetch_sources(fetch_elems)
        except errors.OpError as e:
            return _error_plan(e)
        steps = binder.finish_steps()
        if not dataflow:
            group_batchable(steps)      # optimizer updates side by side, one call
            compute_frees(steps, fetches)
        return Plan(steps, binder.feed_slots, fetches, copies, grads.needs_grad,
                    binder.state_marks,
                    {slot: _slot_name(key) for key, slot in binder.slots.items()},
                    dataflow=dataflow)

    def gradient_setup(self, order: List[Operation],
                       for_function: bool = False) -> "GradientSetup":
        """Pass 2 for this builder's plans (`gradient_setup`). A builder for another kind
        of program overrides it: tf1compat.export gives every kernel TF's gradient
        semantics, because a torch user differentiates the exported module."""
        return gradient_setup(order, for_function)

    # -- pass 1: pruning and ordering ----------------------------------------------------
    def prune(self, fetch_elems: Sequence[Any], feeds: Dict[Tensor, int],
              context: Any = None) -> List[Operation]:
        """The ops needed for the fetches (tensors or ops), in execution order."""
        return toposort(list(self.prune_modes(fetch_elems, feeds, context)))

    def prune_modes(self, fetch_elems: Sequence[Any], feeds: Dict[Tensor, int],
                    context: Any = None, own_shape: Optional[Dict[Operation, Any]] = None
                    ) -> Dict[Operation, bool]:
        """The ops needed for the fetches, each True where it runs in full (the shape
        inputs of `own_shape`'s Reshapes, runtime/plan_rewrites.py, are not needed).

        An op reached only through a gradient op's `value_only` inputs runs for its value
        (autograd differentiates through it) without its control inputs: TF's gradient
        graph runs a forward op, with its control dependencies, only where a gradient
        function reads its output (the op's `reads`), as any other fetch pulls it in."""
        targets = []
        for e in fetch_elems:
            if isinstance(e, Tensor):
                if e not in feeds:
                    targets.append(e._op)
            else:
                targets.append(e)
        needed: Dict[Operation, bool] = {}       # op -> runs in full (with control inputs)
        stack = [(op, True) for op in targets]
        while stack:
            op, full = stack.pop()
            if op in needed and (needed[op] or not full):
                continue
            if op._control_flow_context is not context:
                raise errors.op_error(
                    errors.InvalidArgumentError, op,
                    f"Operation {op.name!r} lives inside a control-flow construct "
                    "(cond branch or loop body) and cannot be run or fetched on its own "
                    "from outside it.")
            needed[op] = full
            value_only = op._op_def.value_only
            split = value_only(op) if value_only is not None else None
            autograd_only = set(split[0]) if split is not None else ()
            if split is not None:
                stack.extend((t._op, full) for t in split[1]
                             if t not in feeds and t._op._control_flow_context is context)
            # In a control-flow region, variables from outside are read from the store
            # (is_pure_alias), and control inputs from outside belong to the construct's
            # op (If/While), which runs after them; see ops/_regions.py.
            inputs = op._inputs[:1] if own_shape and op in own_shape else op._inputs
            for t in inputs:
                if t not in feeds and not (context is not None and
                                           t._op._control_flow_context is not context
                                           and is_pure_alias(t)):
                    stack.append((t._op, full and t not in autograd_only))
            if full:
                stack.extend((c, True) for c in op._control_inputs
                             if context is None or c._control_flow_context is context)
        return needed


# -- pass 2: gradients -------------------------------------------------------------------------

@dataclass
class GradientSetup:
    """What gradient ops in a plan require of it."""
    needs_grad: bool = False
    sources: set = field(default_factory=set)     # tensors that must be autograd sources
    rewriter: Any = None                          # wraps kernels with TF's gradient semantics


def gradient_setup(order: List[Operation], for_function: bool = False) -> GradientSetup:
    """Plans containing an op that declares `grad_sources` run under grad mode.

    `for_function`: the plan is a region's function (a loop body, a cond branch), whose
    results a gradient outside it may differentiate too."""
    setup = GradientSetup()
    grad_ops = []
    for op in order:
        od = op._op_def
        if od.grad_sources is not None:
            setup.needs_grad = True
            grad_ops.append(op)
            setup.sources.update(od.grad_sources(op))
    if GRAD_MODE["rewriter"] is None or not (setup.needs_grad or for_function):
        return setup
    # A region's function without gradient ops of its own (a tf.cond branch, a loop body,
    # an imported graph's SymbolicGradient function) is differentiated by a gradient
    # outside it: its kernels need TF's gradient formulas (Maximum's ties, the order of
    # broadcast sums) as much as the outer plan's do.
    try:
        setup.rewriter = GRAD_MODE["rewriter"](grad_ops, outer_gradients=for_function)
    except NotImplementedError as e:
        raise errors.op_error(errors.UnimplementedError, grad_ops[0], str(e)) from None
    return setup


# -- passes 3 and 4: binding ops and fetches ---------------------------------------------------

def _factory_error(op: Operation, e: Exception) -> errors.OpError:
    """A kernel factory's ValueError/TypeError/NotImplementedError as TF's run-time error."""
    cls = errors.UnimplementedError if isinstance(e, NotImplementedError) \
        else errors.InvalidArgumentError
    return errors.op_error(cls, op, str(e))


class _Binder:
    """Per-build state of passes 3 and 4: where every tensor's value comes from."""

    def __init__(self, builder: PlanBuilder, feed_tensors: Sequence[Tensor],
                 feeds: Dict[Tensor, int], grads: GradientSetup, context: Any,
                 for_function: bool, dataflow: bool = False,
                 autograd_only: Optional[Set[Operation]] = None,
                 own_shape: Optional[Dict[Operation, Any]] = None,
                 chains: Optional[Dict[Operation, FusedChain]] = None):
        self.builder = builder
        self.own_shape = own_shape or {}
        # Fused chains (runtime/plan_rewrites.py) by their last op; the others wait for it.
        self.chains = chains or {}
        self.waiting = {prev for c in self.chains.values() for prev in c.ops[:-1]}
        self.autograd_only = autograd_only or set()
        self.dataflow = dataflow
        # Merge inputs from NextIteration, bound once their producers are bound:
        # (step index, argument index, tensor).
        self.back_edges: List[Tuple[int, int, Tensor]] = []
        self.runtime = builder.runtime
        self.feeds = feeds
        self.grads = grads
        self.context = context
        self.for_function = for_function
        self.slots: Dict[Tensor, int] = {}
        self.feed_slots: List[int] = []
        for t in feed_tensors:
            self.slots[t] = len(self.slots)
            self.feed_slots.append(self.slots[t])
        self.sources: Dict[Tensor, Source] = {t: Source(SLOT, self.slots[t])
                                              for t in feed_tensors}
        self.devices: Dict[Tensor, Optional[torch.device]] = {
            t: self.runtime.placer.device_for(t._op) for t in feed_tensors}
        self.feed_tensors = list(feed_tensors)
        self.steps: List[Step] = []
        self.state_marks: List[str] = []

    def bind(self, op: Operation) -> None:
        """Adds `op`'s step (or records its outputs as constants or variable reads); the
        ops of a fused chain are bound with its last op, as one step where they can be."""
        if op in self.waiting:
            return
        chain = self.chains.get(op)
        if chain is not None and not self._bind_fused(op, chain):
            for prev in chain.ops[:-1]:
                self._bind_one(prev)
            self._bind_one(op)
        elif chain is None:
            self._bind_one(op)

    def _bind_fused(self, op: Operation, chain: FusedChain) -> bool:
        """Binds `chain` as one step of its fused kernel; False where it must run unfused:
        off the CPU, on constants only (folded), or where a kernel of a gradient plan
        needs TF's gradient semantics (stop_gradients, gradient overrides)."""
        device = self.runtime.placer.device_for(op)
        if device.type != "cpu" or \
                any(self.runtime.placer.device_for(o) != device for o in chain.ops):
            return False
        args = [self._input_source(op, t, device, False) for t in chain.inputs]
        if all(a.kind == CONST for a in args) and \
                not any(t in self.grads.sources for t in chain.inputs):
            return False
        sources, feeds = self.sources, self.feeds
        kctx = PlanKernelContext(self.runtime, device, op, self.builder,
                                 lambda t: _may_alias(t, sources, feeds),
                                 constant=self._really_constant)
        rewriter = self.grads.rewriter
        if rewriter is not None:
            probe = chain.factory       # any callable: wrap returns it when unchanged
            if any(rewriter.wrap(o, probe, kctx, formulas=not chain.own_gradients)
                   is not probe for o in chain.ops):
                return False
        try:
            kernel = chain.factory(kctx)
        except (ValueError, TypeError, NotImplementedError):
            return False                # the unfused ops raise it in TF's words
        outs, marks = self._outputs(op, [None] * len(op._outputs), device)
        self.steps.append(Step(op, kernel, args, outs, marks=marks))
        return True

    def _bind_one(self, op: Operation) -> None:
        od = op._op_def
        feeds = self.feeds
        if od.must_feed and any(t not in feeds for t in op._outputs) and \
                not self.for_function:
            raise errors.op_error(errors.InvalidArgumentError, op, _unfed_message(op))
        device = self.runtime.placer.device_for(op)
        args = self._arguments(op, device)
        sources = self.sources
        kctx = PlanKernelContext(self.runtime, device, op, self.builder,
                                 lambda t: _may_alias(t, sources, feeds),
                                 self.own_shape.get(op), self._really_constant)
        alias_outputs = [state_key(t) if not _is_fed(t, feeds) else None
                         for t in op._outputs]
        if od.kernel is None:
            # (A kernel-less op whose outputs are all fed, e.g. a region's _Arg reached
            # through a control input, has nothing left to compute.)
            if not all(k is not None for k in alias_outputs) \
                    and not (op._outputs and all(t in feeds for t in op._outputs)):
                raise errors.op_error(errors.UnimplementedError, op,
                                      f"No kernel for op type {od.type!r} (node {op.name})")
        kernel = None
        try:
            if od.constant and self.dataflow and op._control_inputs:
                # Whether (and in which iteration) it runs depends on its control inputs.
                kernel = (lambda v: lambda: v)(od.kernel(op, kctx))
            elif od.constant:
                kernel = self._constant(op, od.kernel(op, kctx), device)
                if kernel is None:
                    return
            elif od.kernel is not None:
                kernel = od.kernel(op, kctx)
                if len(op._outputs) == 1 and od.has_list_outputs:
                    kernel = single_output(kernel)
        except (ValueError, TypeError, NotImplementedError) as e:
            raise _factory_error(op, e) from None
        if kernel is not None and not self.dataflow and \
                _foldable(op, args, feeds, self.grads.sources):
            folded = _fold(kernel, args, len(op._outputs), od.view)
            if folded is not None:
                for t, value in zip(op._outputs, folded):
                    sources[t] = Source(CONST, value)
                    self.devices[t] = device
                return
        if op in self.autograd_only and kernel is not None and \
                (od.stateful or od.autograd_only_kernel is not None):
            kernel = without_effects(op, kernel, alias_outputs, device, kctx)
        outs, marks = self._outputs(op, alias_outputs, device)
        # A kernel of an op whose outputs are all aliases still runs (Assign updates
        # the store); a pure alias (VariableV2, Identity of a ref) has nothing to run.
        if all(k is not None for k in alias_outputs) and op._outputs and \
                (od.state_alias is not None or od.forwards_alias):
            kernel = None
        if self.grads.rewriter is not None and kernel is not None:
            # (A custom gradient's captured forward values, in a region's function.)
            args += [self._input_source(op, t, device, False)
                     for t in self.grads.rewriter.call_captures(op)]
            try:
                kernel = self.grads.rewriter.wrap(op, kernel, kctx)
            except (ValueError, TypeError, NotImplementedError) as e:
                raise _factory_error(op, e) from None
        self.steps.append(Step(op, kernel, args, outs, marks=marks))

    def _really_constant(self, t: Tensor) -> bool:
        """Grappler's IsReallyConstant of an input, after its constant folding: a
        constant of this plan (a Const, or folded from constants), never a feed; in a
        loop's region also a constant the loop captures (a region input here; TF's
        MoveConstantsPastEnter copies it into the frame; a cond branch's capture passes a
        Switch, which is no constant). A dataflow plan folds nothing: its Consts and their
        constant Enters count."""
        if t in self.feeds:
            context = self.context
            return context is not None and context.IsWhileContext() and \
                (t._op._type == "Const" or constant_value(t) is not None)
        src = self.sources.get(t)
        if src is not None and src.kind == CONST:
            return True
        op = t._op
        while self.dataflow and op._type == "Enter" and op.get_attr("is_constant"):
            op = op._inputs[0]._op
        return op._type == "Const" and not any(o in self.feeds for o in op._outputs)

    def _arguments(self, op: Operation, device: torch.device) -> List[Source]:
        od = op._op_def
        args = []
        ref_idx = od.ref_positions(len(op._inputs))
        # A gradient source passes as the very tensor its consumers read: a copy moved to
        # this op's device would be a new autograd node that nothing consumed (zero
        # gradients for a tf.device('/cpu:0') variable read on the GPU).
        grad_sources = set(od.grad_sources(op)) if od.grad_sources is not None else ()
        for i, t in enumerate(op._inputs):
            if i in ref_idx:
                continue
            if i == 1 and op in self.own_shape:
                args.append(Source(CONST, None))     # read from input 0 by the kernel
                continue
            if self.dataflow and is_back_edge(op, t):
                self.back_edges.append((len(self.steps), len(args), t))
                args.append(None)          # bound in bind_back_edges
                continue
            args.append(self._input_source(op, t, device,
                                           od.keeps_devices or t in grad_sources))
        return args

    def _input_source(self, op: Operation, t: Tensor, device: torch.device,
                      keep_device: bool) -> Source:
        """Where `op` reads input `t` from (moved to `device` unless `keep_device`)."""
        src = self.sources.get(t)
        if src is None and self.context is not None and is_pure_alias(t):
            src = Source(STATE, state_key(t))     # a variable from outside a region
        if src is None:
            raise errors.op_error(errors.InternalError, op,
                                  f"input {t.name} of {op.name} was not computed")
        # Control flow, gradient sources: values keep their devices.
        return src if keep_device else _moved(src, self.devices.get(t), device, t)

    def _constant(self, op: Operation, value: Any, device: torch.device
                  ) -> Optional[Callable[..., Any]]:
        """A constant op's value: recorded as a CONST source (returns None), or a kernel
        returning it when an output must be an autograd source of the run."""
        grad_sources = self.grads.sources
        if isinstance(value, str) and any(t in grad_sources for t in op._outputs):
            # A resource handle (VarHandleOp: its value is the store key) that is a
            # gradient source: the variable's stored value becomes the autograd leaf for
            # the run, as for ref variables, so every ReadVariableOp of it reads the
            # leaf; the gradient op looks the key up (autodiff/gradients.py).
            if value not in self.state_marks:
                self.state_marks.append(value)
        if isinstance(value, str) or not any(t in grad_sources for t in op._outputs):
            for t in op._outputs:
                if t not in self.feeds:
                    self.sources[t] = Source(CONST, value)
                    self.devices[t] = device
            return None
        # A constant that is a gradient source gets a slot, so that it can become an
        # autograd leaf for this run.
        return (lambda v: lambda: v)(value)

    def _outputs(self, op: Operation, alias_outputs: List[Optional[str]],
                 device: torch.device) -> Tuple[List[Optional[int]], List[int]]:
        """Slots for the op's outputs (None: fed, or a variable read from the store) and
        those of them that become autograd sources."""
        od = op._op_def
        outs: List[Optional[int]] = []
        marks: List[int] = []
        for t, key in zip(op._outputs, alias_outputs):
            if t in self.feeds:
                outs.append(None)
                continue
            if key is not None:
                outs.append(None)
                src = self.sources.get(op._inputs[0]) if od.forwards_alias else None
                if src is not None and src.kind != STATE:
                    self.sources[t] = src           # Identity of a fed variable: the feed
                else:
                    self.sources[t] = Source(STATE, key)
                    if t in self.grads.sources and key not in self.state_marks:
                        self.state_marks.append(key)
                self.devices[t] = device
                continue
            slot = len(self.slots)
            self.slots[t] = slot
            outs.append(slot)
            self.sources[t] = Source(SLOT, slot)
            # A control-flow op's outputs are on whatever device its branch or body
            # produced them: unknown here, so consumers insert no transfer.
            self.devices[t] = None if od.keeps_devices else device
            if t in self.grads.sources and t.dtype.is_floating | t.dtype.is_complex:
                marks.append(slot)
        return outs, marks

    def feed_through(self, t: Tensor) -> None:
        """After `t`'s producer is bound: its consumers read the fed value, which carries
        the gradient of the value the producer computed (a gradient through a fed tensor
        runs through the producer, as TF's gradient ops do)."""
        computed = self.sources[t]
        slot = len(self.slots)
        self.slots[("through", t)] = slot
        index = t.value_index
        n = len(t._op._outputs)

        def kernel(fed: Any, value: Any) -> Any:
            out = fed + (value - value.detach()) if isinstance(value, torch.Tensor) and \
                value.requires_grad else fed
            return out if n == 1 else tuple(out if i == index else None for i in range(n))
        outs: List[Optional[int]] = [None] * n
        outs[index] = slot
        fed_source = Source(SLOT, self.slots[("fed", t)])
        self.steps.append(Step(t._op, kernel, [fed_source, computed], outs))
        self.sources[t] = Source(SLOT, slot)

    def bind_back_edges(self) -> None:
        """Binds the loop back edges (NextIteration -> Merge) `_arguments` deferred."""
        for step_index, arg_index, t in self.back_edges:
            self.steps[step_index].args[arg_index] = self.sources[t]

    def finish_steps(self) -> List[Step]:
        """The steps, with fed gradient sources made autograd leaves first."""
        for t in self.feed_tensors:
            if t in self.grads.sources and (t.dtype.is_floating or t.dtype.is_complex):
                self.steps.insert(0, Step(t._op, None, [], [], marks=[self.slots[t]]))
        return self.steps

    def fetch_sources(self, fetch_elems: Sequence[Any]) -> Tuple[List[Source], List[bool]]:
        """Where each fetch comes from, and whether its value must be copied out."""
        fetch_sources, copies = [], []
        for e in fetch_elems:
            if isinstance(e, Tensor):
                src = self.sources[e]
                fetch_sources.append(src)
                copies.append(_may_alias(e, self.sources, self.feeds))
            else:
                fetch_sources.append(Source(CONST, None))
                copies.append(False)
        return fetch_sources, copies


# -- constant folding ------------------------------------------------------------------------
# As TF's graph optimizer does, a small pure op whose inputs are all constants runs once at
# plan build and its outputs become constants of the plan (the rank arithmetic of
# tf.nn.softmax_cross_entropy_with_logits, shapes built from static dimensions, ...).

def _foldable(op: Operation, args: List[Source], feeds: Dict[Tensor, int],
              grad_sources: set) -> bool:
    od = op._op_def
    if not od.foldable:
        return False
    # An output that a gradient is taken with respect to must stay an autograd leaf of
    # the run (tf.gradients(y, [tf.reshape(c, s)]) is not zero).
    if not args or op._control_inputs or \
            any(t in feeds or t in grad_sources for t in op._outputs):
        return False
    return all(a.kind == CONST and a.ref is not None for a in args)


def _fold(kernel: Callable[..., Any], args: List[Source], n_outputs: int,
          view: bool) -> Optional[list]:
    """The outputs of `kernel` on constant `args`, or None when they are not small tensors
    (or it fails: it then fails at run time, with its error). A view op's outputs (a
    strided slice of a static shape, ...) are copied: they could share storage with a
    constant the plan hands out."""
    values = []
    for a in args:
        value = a.ref
        if a.to_device is not None and isinstance(value, torch.Tensor):
            value = value.to(a.to_device)
        values.append(value)
    try:
        with torch.no_grad():
            out = kernel(*values)
    except Exception:  # noqa: BLE001 - the op fails at run time instead, with its error
        return None
    outs = list(out) if n_outputs != 1 else [out]
    if len(outs) != n_outputs:
        return None
    for value in outs:
        if not isinstance(value, torch.Tensor) or value.numel() > FOLD_ELEMENT_LIMIT:
            return None
    return [value.clone() for value in outs] if view else outs


def _slot_name(key: Any) -> str:
    """A slot's tensor name; `("fed", t)` / `("through", t)`: the feed of a tensor a
    gradient runs through, and the value its consumers read (`_Binder.feed_through`)."""
    if isinstance(key, Tensor):
        return key.name
    kind, t = key
    return f"{t.op.name}/{kind}:{t.value_index}"


def _is_fed(t: Tensor, feeds: Dict[Tensor, int]) -> bool:
    return t in feeds


def _moved(src: Source, have: Optional[torch.device], want: torch.device,
           tensor: Tensor) -> Source:
    """`src`, moved to `want` when it is a torch value produced (or stored) elsewhere.

    Variable reads move too: a variable lives on its own op's device (its Assign ops
    are colocated with it), which the plan records for its alias tensors.
    """
    if have is None or have == want or tensor._dtype.torch_dtype is None:
        return src
    return Source(src.kind, src.ref, want)


def _may_alias(t: Tensor, sources: Dict[Tensor, Source], feeds: Dict[Tensor, int]) -> bool:
    """Whether a fetched value may share storage with session state, constants or feeds."""
    src = sources.get(t)
    # A tensor a cond/while branch captures from outside (e.g. a variable read assigned to
    # another variable) is bound by the enclosing plan, not this one: assume it aliases.
    if src is None or src.kind != SLOT or t in feeds:
        return True
    # A view op's output may share storage with its inputs or with buffers its kernel
    # caches; either way the fetched numpy array must not alias it.
    return t._op._op_def.view


def compute_frees(steps: List[Step], fetches: List[Source]) -> None:
    """Pass 5: records after which step each slot is dead, so generated code can `del` it."""
    fetched = {s.ref for s in fetches if s.kind == SLOT}
    last_use: Dict[int, int] = {}
    for i, step in enumerate(steps):
        for src in step.args:
            if src.kind == SLOT:
                last_use[src.ref] = i
        for slot in step.outs:
            if slot is not None and slot not in last_use:
                last_use[slot] = i
    for slot, i in last_use.items():
        if slot not in fetched:
            steps[i].frees.append(slot)


def _error_plan(error: BaseException) -> Plan:
    return Plan([], [], [], [], False, [], error=error)


def _unfed_message(op: Operation) -> str:
    dtype = op._attrs.get("dtype")
    shape = op._attrs.get("shape")
    dtype_name = {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name) \
        if dtype is not None else "?"
    text = f"You must feed a value for placeholder tensor '{op.name}' with dtype {dtype_name}"
    if shape is not None and shape.rank is not None:
        dims = ",".join("?" if d is None else str(d) for d in shape.as_list())
        text += f" and shape [{dims}]"
    return text
