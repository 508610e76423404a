"""Kernels of plans that compute gradients: TF's gradient semantics on torch autograd.

A plan containing a gradient op (`SymbolicGradient`) runs its forward under grad mode and
the gradient op calls `torch.autograd.grad`. For the numbers to be TF's, some kernels of
such a plan are wrapped (runtime/plan.py calls `GradModeRewriter.wrap` for every op of a
grad-mode plan; plans without gradients keep their plain kernels):

* ops TF does not differentiate (`grad="none"`, `tf.NotDifferentiable`, TF's own
  NotDifferentiable list) run on detached inputs, so no gradient leaks through them;
* ops named in `stop_gradients` of a gradient op of the plan have detached outputs;
* ops with a Python gradient (`tf.RegisterGradient` + `gradient_override_map`,
  `tf.custom_gradient`) run inside a `torch.autograd.Function` whose backward executes
  the gradient sub-graph built at graph build (compiled with `kctx.compile_function`);
* ops whose override names a builtin op type (`{"Round": "Identity"}`) back-propagate
  through that type's kernel instead;
* ops whose TF gradient differs from torch's at edge points run their declared
  `grad_formula` (ops/_grad_formulas.py).

Ops no gradient of the plan flows through run on detached inputs, except where no input
can require grad: an Estimator step's input pipeline (a dequeue or `get_next`, then
each feature column's ExpandDims/Reshape, their concat) would otherwise pay a wrapper
call per op. A float tensor is known clean (never requires grad in the run) when a
Const (not a gradient source) produced it, or a pure op whose inputs are all clean, or
a stateful op TF does not differentiate that takes no float input (a queue's dequeue,
an iterator's `get_next`, a random op): that op's outputs are detached once, as TF's
gradient stops there.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Sequence, Set

import torch

from tf1compat.autodiff.custom_gradient import recomputed_feeds
from tf1compat.autodiff.registry import gradient_function, none_input_indices
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.operation import Operation

__all__ = ["GradModeRewriter", "CaptureBox", "grad_info", "custom_record"]

_GRAD_INFO_KEY = "tf1compat.autodiff.grad_info"
_CUSTOM_KEY = "tf1compat.autodiff.custom_records"


def grad_info(op: Operation) -> Any:
    """The GradInfo gradients.py stored for a gradient op (None if none)."""
    return op._graph._extras.get(_GRAD_INFO_KEY, {}).get(op)


def custom_record(op: Operation) -> Any:
    """The custom-gradient record (custom_gradient.CustomGradRecord) of `op`, or None."""
    return op._graph._extras.get(_CUSTOM_KEY, {}).get(op)


class CaptureBox:
    """Forward values a custom gradient sub-graph uses, lent by the running gradient op.

    The gradient op holds the lock while it runs `torch.autograd.grad`, so concurrent runs
    of one plan do not mix their values; backward functions may run on autograd's device
    threads, which is why this is not thread-local.
    """

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.values: Dict[Any, Any] = {}


def _is_float_tensor(value: Any) -> bool:
    return isinstance(value, torch.Tensor) and (value.is_floating_point() or value.is_complex())


def _detached(value: Any) -> Any:
    return value.detach() if isinstance(value, torch.Tensor) and value.requires_grad else value


def _float_in_and_out(op: Operation) -> bool:
    """Whether a gradient could leak through `op` (a float input and a float output)."""
    def is_float(t: Any) -> bool:
        return t.dtype.is_floating or t.dtype.is_complex
    # Ref outputs (Assign, ApplyAdam) alias variables and are read from the store, never
    # from the kernel's return value, so nothing can leak through them.
    return any(is_float(t) for t in op.inputs) and any(
        is_float(t) and not t.dtype._is_ref_dtype for t in op.outputs)


def _stops_gradient(op: Operation, cut_ops: Set[Operation]) -> bool:
    if op in cut_ops:
        return True
    try:
        return gradient_function(op)[0] == "none"
    except LookupError:
        return False


def _differentiated_ops(grad_ops: Sequence[Operation], cut_ops: Set[Operation]
                        ) -> Set[Operation]:
    """The ops some gradient op of a plan differentiates through: on a data path from
    one of its sources to its other inputs (ys, grad_ys, captures) that no op stopping
    gradients interrupts. TF's backward graph reads forward values of these ops only;
    every other op's values are dead once its consumers ran."""
    stops: Dict[Operation, bool] = {}

    def stopped(op: Operation) -> bool:
        if op not in stops:
            stops[op] = _stops_gradient(op, cut_ops)
        return stops[op]

    region: Set[Operation] = set()
    for g in grad_ops:
        sources = set(g._op_def.grad_sources(g))
        upstream: Set[Operation] = set()
        todo = [t._op for t in g._inputs if t not in sources]
        while todo:
            op = todo.pop()
            if op not in upstream:
                upstream.add(op)
                if not stopped(op):
                    todo.extend(t._op for t in op._inputs)
        seen: Set[Operation] = set()
        todo = [c for t in sources for c in t._consumers if c in upstream]
        while todo:
            op = todo.pop()
            if op not in seen:
                seen.add(op)
                if not stopped(op):
                    todo.extend(c for t in op._outputs for c in t._consumers if c in upstream)
        region |= seen
    return region


def _tuple(value: Any) -> tuple:
    return value if isinstance(value, tuple) else (value,)


class GradModeRewriter:
    """Wraps the kernels of one grad-mode plan (see the module docstring)."""

    def __init__(self, grad_ops: Sequence[Operation], outer_gradients: bool = False):
        """`outer_gradients`: the plan is a region's function (a loop body, a cond
        branch) holding its own `tf.gradients`; a gradient outside the region may
        differentiate its results too, so every op keeps its inputs' graph and the
        graph outlives the inner gradients."""
        self.grad_ops = list(grad_ops)
        self.outer_gradients = outer_gradients
        self.box = CaptureBox()
        self.cut_ops: Set[Operation] = set()
        infos = [(g, grad_info(g)) for g in self.grad_ops]
        for g, info in infos:
            if info is not None:
                self.cut_ops.update(info.stop_ops)
        for g, info in infos:
            if info is None:
                continue
            for other, other_info in infos:
                if other is g or other_info is None:
                    continue
                crossing = (info.stop_ops - other_info.stop_ops) & other_info.between
                if crossing:
                    names = sorted(op.name for op in crossing)[:3]
                    raise NotImplementedError(
                        f"tf1compat cannot run gradient op {g.name} (stop_gradients at "
                        f"{names}) together with {other.name}, whose gradient flows "
                        "through those ops; fetch them in separate Session.run calls")
        self.retain_graph = outer_gradients or len(self.grad_ops) > 1 or any(
            g._attrs.get("create_graph") for g in self.grad_ops)
        # Without gradient ops (an exported module: its caller differentiates the whole
        # computation) every op keeps its inputs' graph.
        self.differentiated = None if outer_gradients or not self.grad_ops or any(
            info is None for _, info in infos) else \
            _differentiated_ops(self.grad_ops, self.cut_ops)
        self.sources: Set[Any] = {t for g in self.grad_ops
                                  for t in g._op_def.grad_sources(g)}
        # Custom-gradient ops whose captured forward values a gradient op of this plan
        # lends through the box; the others' (ops of a region's function) come per call.
        self.lent: Set[Operation] = {op for _, info in infos if info is not None
                                     for op in info.custom_ops}
        # Float tensors of the plan that never require grad (see the module docstring);
        # `wrap` sees the ops in plan order, so producers are classified first.
        self.clean: Set[Any] = set()

    def _is_clean(self, t: Any) -> bool:
        if not (t.dtype.is_floating or t.dtype.is_complex or t.dtype.name == "variant"):
            # (Float refs are floating: variables are not clean; a variant - a TensorList
            # - may hold float tensors.)
            return True
        if t in self.sources:
            return False
        return t in self.clean or t._op._type == "Const"

    def _undifferentiated(self, op: Operation, kernel: Callable[..., Any]
                          ) -> Callable[..., Any]:
        """The kernel of an op no gradient of the plan flows through."""
        od = op._op_def
        if all(self._is_clean(t) for t in op._inputs):
            if not od.stateful:
                self.clean.update(op._outputs)
                return kernel
            if not any(t.dtype.is_floating or t.dtype.is_complex for t in op._inputs) and \
                    any(t.dtype.is_floating or t.dtype.is_complex for t in op._outputs) and \
                    _gradient_kind(op) == "none":
                # (A variant output is not a tensor the cut detaches.)
                self.clean.update(t for t in op._outputs if t.dtype.name != "variant")
                return _cut_outputs(kernel)
        # No gradient of the plan flows through this op: it runs on detached inputs,
        # so autograd keeps none of its values alive (recomputed segments of
        # gradient checkpointing leave the original forward's activations free).
        # (Ops whose outputs cannot carry a gradient, such as the optimizers' updates,
        # keep their kernels and with them their batching.)
        return _detach_inputs(kernel, range(len(op._inputs))) \
            if _float_in_and_out(op) else kernel

    def call_captures(self, op: Operation) -> List[Any]:
        """The forward tensors `op`'s custom gradient captures that the plan passes to
        its kernel as extra arguments: in a region's function (a loop body, a branch)
        they are values of the same call (one iteration's), which no gradient op of the
        plan lends."""
        return self._passed_captures(op) or []

    def _passed_captures(self, op: Operation) -> Optional[List[Any]]:
        """`call_captures`, or None where a gradient op of the plan lends them (the box):
        the top-level plan, or an op whose gradient op runs in the same region."""
        record = custom_record(op)
        if record is None or not self.outer_gradients or op in self.lent:
            return None
        # (A constant from outside the region is computed again by the sub-graph; the
        # walk refused other outside values: autodiff/walk.py `build_region_custom`.)
        return [t for t in record.captures if t._op._type != "Const"]

    def wrap(self, op: Operation, kernel: Callable[..., Any], kctx: Any,
             formulas: bool = True) -> Callable[..., Any]:
        """`kernel` as the grad-mode plan runs `op` (`formulas`: with its grad_formula)."""
        if op in self.cut_ops:
            return _cut_outputs(kernel)
        if op._op_def.grad_sources is not None:      # the gradient op (SymbolicGradient)
            from tf1compat.autodiff.gradients import gradient_kernel
            return gradient_kernel(op, kctx, self.retain_graph, self.box)
        if self.differentiated is not None and op not in self.differentiated:
            return self._undifferentiated(op, kernel)
        try:
            kind, value = gradient_function(op)
        except LookupError:
            return kernel
        if kind == "python":
            record = custom_record(op)
            if record is None:
                return kernel
            return _custom_kernel(op, kernel, kctx, record, self.box,
                                  self._passed_captures(op))
        if kind == "none":
            if not _float_in_and_out(op):
                return kernel
            return lambda *args: kernel(*[_detached(a) for a in args])
        if value != op.type:
            return _builtin_override_kernel(op, kernel, kctx, value)
        nones = none_input_indices(op.type)
        if nones:
            kernel = _detach_inputs(kernel, nones)
        formula = op._op_def.grad_formula if formulas else None
        wrapped = None if formula is None else formula(op, kernel, kctx)
        return kernel if wrapped is None else wrapped


def _gradient_kind(op: Operation) -> Any:
    try:
        return gradient_function(op)[0]
    except LookupError:
        return None


def _cut_outputs(kernel: Callable[..., Any]) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        out = kernel(*args)
        if isinstance(out, tuple):
            return tuple(_detached(v) for v in out)
        return _detached(out)
    return run


def _detach_inputs(kernel: Callable[..., Any], indices: Any) -> Callable[..., Any]:
    def run(*args: Any) -> Any:
        return kernel(*[_detached(a) if i in indices else a for i, a in enumerate(args)])
    return run


# -- builtin override: back-propagate through another op type's kernel -----------------------

class _OverrideFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, kernel: Callable, grad_kernel: Callable, n: int, *args: Any) -> Any:
        out = kernel(*args)
        ctx.grad_kernel = grad_kernel
        ctx.save_for_backward(*[a if isinstance(a, torch.Tensor) else None for a in args])
        ctx.others = [None if isinstance(a, torch.Tensor) else a for a in args]
        return out

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        saved = ctx.saved_tensors
        args = [s if s is not None else o for s, o in zip(saved, ctx.others)]
        create = torch.is_grad_enabled()
        with torch.enable_grad():
            ins = [a.detach().requires_grad_() if _is_float_tensor(a) else a for a in args]
            outs = _tuple(ctx.grad_kernel(*ins))
            pairs = [(o, g) for o, g in zip(outs, grads)
                     if isinstance(o, torch.Tensor) and o.requires_grad and g is not None]
            wrt = [a for a in ins if isinstance(a, torch.Tensor) and a.requires_grad]
            results = torch.autograd.grad([o for o, _ in pairs], wrt, [g for _, g in pairs],
                                          allow_unused=True, create_graph=create) \
                if pairs and wrt else [None] * len(wrt)
        it = iter(results)
        input_grads = [next(it) if isinstance(a, torch.Tensor) and a.requires_grad else None
                       for a in ins]
        return (None, None, None, *input_grads)


def _builtin_override_kernel(op: Operation, kernel: Callable[..., Any], kctx: Any,
                             grad_type: str) -> Callable[..., Any]:
    grad_def = _op_def.get_op_def(grad_type)
    if grad_def.kernel is None:
        raise NotImplementedError(f"gradient override of {op.name} to {grad_type!r}: that op "
                                  "type has no kernel to differentiate")
    if len(grad_def.inputs) != len(op._op_def.inputs) and grad_type not in (
            "Identity", "IdentityN"):
        raise NotImplementedError(f"gradient override of {op.name} ({op.type}) to "
                                  f"{grad_type!r}: the signatures differ")
    grad_kernel = grad_def.kernel(op, kctx)
    if grad_type == "Identity":
        grad_kernel = _identity_like

    def run(*args: Any) -> Any:
        if any(isinstance(a, torch.Tensor) and a.requires_grad for a in args):
            return _OverrideFunction.apply(kernel, grad_kernel, len(args), *args)
        return kernel(*args)
    return run


def _identity_like(*args: Any) -> Any:
    return args[0] if len(args) == 1 else args


# -- Python gradient functions -----------------------------------------------------------

class _CustomSpec:
    """What the backward of one custom-gradient op needs, built once per plan."""

    __slots__ = ("kernel", "record", "fn", "feed", "feed_devices", "n_in", "n_out", "box",
                 "grad_slots", "input_tensors", "call_captures", "n_captures")

    def __init__(self, op: Operation, kernel: Callable[..., Any], kctx: Any, record: Any,
                 box: CaptureBox, call_captures: Optional[List[Any]]):
        self.kernel = kernel
        self.record = record
        self.box = box
        # Captures passed after the op's inputs (None: the box lends them all).
        self.call_captures = call_captures
        self.n_captures = len(call_captures or ())
        self.n_in = len(op.inputs)
        self.n_out = len(op.outputs)
        # The sub-graph's inputs: the op's inputs and outputs, one gradient per trainable
        # output, and forward tensors it captured. Duplicates are fed once.
        feed: List[Any] = []
        for t in list(op.inputs) + list(op.outputs) + \
                [p for p in record.grad_inputs if p is not None] + list(record.captures):
            if t not in feed:
                feed.append(t)
        if call_captures is not None:
            # Outside constants the region's function does not pass: the sub-graph's own.
            feed = [t for t in feed if t not in record.captures or t in call_captures]
        recomputed = recomputed_feeds(feed, record)
        self.feed = feed = [t for t in feed if t not in recomputed]
        # The compiled sub-graph takes each fed value on its producer's device; the op
        # itself may run elsewhere (py_func on the CPU, its neighbours on the GPU), so the
        # values backward collects are moved there first.
        placer = getattr(getattr(kctx, "runtime", None), "placer", None)
        self.feed_devices = [placer.device_for(t.op) if placer is not None else None
                             for t in feed]
        outputs = [g for g in record.input_grads if g is not None]
        self.grad_slots = [i for i, g in enumerate(record.input_grads) if g is not None]
        self.fn = kctx.compile_function(feed, outputs, record.context) if outputs else None
        self.input_tensors = list(op.inputs)


class _CustomGradFunction(torch.autograd.Function):
    @staticmethod
    def forward(ctx: Any, spec: _CustomSpec, *args: Any) -> Any:
        out = spec.kernel(*args[:spec.n_in])
        outs = _tuple(out)
        # A kernel may return one tensor as two outputs (FusedBatchNormV3's batch mean and
        # reserve space): autograd would merge their gradients into one of them, so each
        # repeat becomes a copy of its own.
        seen: set = set()
        unique = []
        for o in outs:
            if isinstance(o, torch.Tensor) and id(o) in seen:
                o = o.clone()
            seen.add(id(o))
            unique.append(o)
        if any(a is not b for a, b in zip(unique, outs)):
            outs = tuple(unique)
            out = outs
        ctx.spec = spec
        saved = [a if isinstance(a, torch.Tensor) else None for a in args] + \
                [o if isinstance(o, torch.Tensor) else None for o in outs]
        ctx.save_for_backward(*saved)
        ctx.others = [None if isinstance(v, torch.Tensor) else v for v in list(args) + list(outs)]
        non_diff = [o for o in outs if isinstance(o, torch.Tensor) and
                    not (o.is_floating_point() or o.is_complex())]
        if non_diff:
            ctx.mark_non_differentiable(*non_diff)
        return out

    @staticmethod
    def backward(ctx: Any, *grads: Any) -> Any:
        spec: _CustomSpec = ctx.spec
        n_in, n_captures = spec.n_in, spec.n_captures
        if spec.fn is None:
            return (None,) * (1 + n_in + n_captures)
        record = spec.record
        saved = ctx.saved_tensors
        values = [s if s is not None else o for s, o in zip(saved, ctx.others)]
        captured = values[n_in:n_in + n_captures]
        values = values[:n_in] + values[n_in + n_captures:]
        op = record.op
        by_tensor: Dict[Any, Any] = {}
        for t, v in zip(list(op.inputs) + list(op.outputs), values):
            by_tensor[t] = v
        for placeholder, g, out in zip(record.grad_inputs, grads, op.outputs):
            if placeholder is not None:
                by_tensor[placeholder] = g if g is not None else torch.zeros_like(
                    by_tensor[out])
        if spec.call_captures is not None:
            by_tensor.update(zip(spec.call_captures, captured))
        else:
            missing = [t for t in record.captures if t not in spec.box.values]
            if missing:
                raise RuntimeError(f"custom gradient of {op.name}: the forward value of "
                                   f"{missing[0].name} was not provided by the gradient op")
            for t in record.captures:
                by_tensor[t] = spec.box.values[t]
        results = spec.fn(*[_on_device(by_tensor[t], device)
                            for t, device in zip(spec.feed, spec.feed_devices)])
        input_grads: List[Any] = [None] * spec.n_in
        for slot, value in zip(spec.grad_slots, results):
            arg = values[slot]
            if isinstance(arg, torch.Tensor) and (arg.is_floating_point() or arg.is_complex()):
                if isinstance(value, torch.Tensor):
                    value = value.to(device=arg.device, dtype=arg.dtype)
                input_grads[slot] = value
        return (None, *input_grads) + (None,) * n_captures


def _on_device(value: Any, device: Any) -> Any:
    if device is not None and isinstance(value, torch.Tensor) and value.device != device:
        return value.to(device)
    return value


def _custom_kernel(op: Operation, kernel: Callable[..., Any], kctx: Any, record: Any,
                   box: CaptureBox, call_captures: Optional[List[Any]] = None
                   ) -> Callable[..., Any]:
    """`kernel` whose backward runs the op's gradient sub-graph; `call_captures`: the
    captured forward tensors the plan passes after the op's inputs (None: the box)."""
    spec = _CustomSpec(op, kernel, kctx, record, box, call_captures)
    n_in = spec.n_in

    def run(*args: Any) -> Any:
        if any(isinstance(a, torch.Tensor) and a.requires_grad for a in args[:n_in]):
            return _CustomGradFunction.apply(spec, *args)
        return kernel(*args[:n_in])
    return run
