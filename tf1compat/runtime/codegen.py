"""Plan -> straight-line Python, in the manner of torch.fx's code generator.

For a plan computing `y = tanh(x @ w + b)` the generated function reads:

    def plan_3(F, S):
        x, = F
        mat_mul = MatMul(x, S['w'])  # MatMul
        del x
        add = AddV2(mat_mul, S['b'])  # add
        del mat_mul
        tanh = Tanh(add)  # Tanh
        del add
        return (tanh,)

`F` is the list of fed values, `S` the session's variable store. Values are named after
the tensors that hold them (`dense/BiasAdd:0` -> `dense_bias_add`); kernels, bound once
at plan build, after their op type (`MatMul`, `MatMul_1`, ...); `c*` are constants
already on their device. Values are deleted after their last use so large intermediates
are freed early. The source is registered with linecache while the function lives (the
entry goes with the plan), so tracebacks show it, and
`line_to_op` maps each line back to its op for error messages. `TF1COMPAT_SHOW_PLAN=1`
prints every generated plan to stderr. The function has the shape of a pure function
(feeds and state in, fetches out; state updates are the only side effects besides ops
marked stateful), which keeps it a candidate for torch.compile.

Adjacent ops whose kernels say they can run as one call (runtime/kernel_batches.py; today
the optimizers' Apply* updates, ops/training_ops.py) are emitted as one batched call,
with the op-by-op calls kept as its fallback:

        if not _batch((c0, m0, v0, ..., grad0), (c1, m1, v1, ..., grad1)):
            ResourceApplyAdam(c0, m0, v0, ..., grad0)  # update_dense/kernel/...
            ResourceApplyAdam_1(c1, m1, v1, ..., grad1)  # update_dense/bias/...

A batched call returns False, having changed nothing, whenever its inputs are not what
it fuses (another dtype or device, a shape error, an uninitialized variable): the ops
then run one by one and raise TF's errors naming the failing op. `TF1COMPAT_BATCH_KERNELS=0`
turns batching off.
"""

from __future__ import annotations

import builtins
import itertools
import keyword
import linecache
import os
import re
import sys
import weakref
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import torch

from tf1compat.framework.operation import Operation
from tf1compat.runtime import kernel_batches
from tf1compat.runtime.plan import CONST, SLOT, STATE, Plan, Source

__all__ = ["compile_plan", "failure_for_traceback", "op_for_traceback", "Namer"]

_SHOW_PLAN = os.environ.get("TF1COMPAT_SHOW_PLAN", "") not in ("", "0")

_counter = itertools.count()
# filename of generated code -> {line: op}; lets error mapping find the failing op.
_LINE_MAPS: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()


class _LineMap(dict):
    """Line -> op, a dict that can be weakly referenced (so plans' maps die with their
    plans). `args` holds each op line's argument expression, which error reporting
    evaluates in the failing frame to see the values the kernel refused."""

    def __init__(self) -> None:
        super().__init__()
        self.args: Dict[int, str] = {}


class Namer:
    """Unique Python identifiers for generated code, derived from TF names."""

    def __init__(self, reserved: Sequence[str] = ()):
        # Builtins are avoided too, so a value named `sum` never hides Python's.
        self._used = set(reserved) | set(keyword.kwlist) | set(dir(builtins))

    def __call__(self, base: str) -> str:
        name = base
        k = 1
        while name in self._used:
            name = f"{base}_{k}"
            k += 1
        self._used.add(name)
        return name


def value_name(tensor_name: str) -> str:
    """`dense/BiasAdd:0` -> `dense_bias_add`; `split:1` -> `split_1`."""
    op_name, _, index = tensor_name.rpartition(":")
    op_name = op_name or tensor_name
    snake = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", op_name).lower()
    snake = re.sub(r"\W+", "_", snake).strip("_") or "value"
    if snake[0].isdigit():
        snake = "v" + snake
    return snake if index in ("", "0") else f"{snake}_{index}"


def make_grad_source(value: Any) -> Any:
    """Makes a value an autograd source: a fresh leaf unless it already carries a graph.

    A value that carries a graph becomes a distinct autograd node (a view), so that the
    gradient with respect to it counts only its own consumers even when a kernel passed
    another source through unchanged (Identity returns its input object).
    """
    if value.requires_grad:
        return value.view_as(value)
    return value.detach().requires_grad_()


def _held_value(view: Any, key: str) -> Any:
    """The held tensor of variable `key` in the store behind a gradient run's view."""
    return view._store.held_value(key)


def _detach_leaf(view: Any, key: str) -> None:
    """Detaches the gradient run's own value of `key` (if the run still has one)."""
    value = dict.get(view, key)
    if value is not None and value.requires_grad:
        dict.__setitem__(view, key, value.detach())


def _without_graph(*values: Any) -> tuple:
    """The values, tensors detached from the autograd graph that produced them."""
    return tuple(v.detach() if isinstance(v, torch.Tensor) and v.requires_grad else v
                 for v in values)


def _last_gradient_step(plan: Plan) -> Optional[int]:
    """Index of the plan's last gradient op (SymbolicGradient) when ops follow it."""
    last = None
    for number, step in enumerate(plan.steps):
        if step.kernel is not None and step.op._op_def.grad_sources is not None:
            last = number
    if last is None or all(s.kernel is None for s in plan.steps[last + 1:]):
        return None
    return last


def compile_plan(plan: Plan, name: str = "plan", release_feeds: bool = False,
                 detach_fetches: bool = False,
                 outer_gradients: bool = False) -> Callable[..., tuple]:
    """Generates, compiles and attaches `plan.fn`; returns it.

    A plan with TF1 dataflow control flow gets the dataflow executor instead.
    `release_feeds`: the function empties its feed list once it has read it, so values
    handed over in it die when the function is done with them (runtime/compiled_steps.py
    passes values that carry an autograd graph this way).
    `detach_fetches`: the fetched values are returned without the autograd graph that
    made them (a compiled step's forward segment ending with its gradient op).
    `outer_gradients`: the plan is a function (a loop body, a cond branch, an eager
    function) whose results a gradient outside it may differentiate, so its values keep
    their autograd graph after its own last gradient op.
    """
    if plan.dataflow:
        from tf1compat.runtime.dataflow import compile_dataflow
        return compile_dataflow(plan)
    filename = f"<tf1compat-{name}-{next(_counter)}>"
    namer = Namer(("F", "S", "_src", "_out", "_nograph", name))
    ns: Dict[str, Any] = {"_src": make_grad_source}
    lines: List[str] = [f"def {name}(F, S):"]
    line_to_op = _LineMap()
    consts: Dict[Tuple[int, Any], str] = {}
    devices: Dict[torch.device, str] = {}
    slot_names: Dict[int, str] = {}

    def slot(index: int) -> str:
        if index not in slot_names:
            slot_names[index] = namer(value_name(plan.slot_tensors.get(index, "value")))
        return slot_names[index]

    def const_name(value: Any, device: Optional[torch.device]) -> str:
        key = (id(value), device)
        if key not in consts:
            cname = namer(f"c{len(consts)}")
            if device is not None and isinstance(value, torch.Tensor):
                value = value.to(device)
            ns[cname] = value
            consts[key] = cname
        return consts[key]

    def render(src: Source) -> str:
        if src.kind == SLOT:
            text = slot(src.ref)
        elif src.kind == STATE:
            text = f"S[{src.ref!r}]"
        elif src.kind == CONST:
            return const_name(src.ref, src.to_device)
        else:  # pragma: no cover - FEED sources are bound to slots first
            raise AssertionError(src.kind)
        if src.to_device is not None:
            if src.to_device not in devices:
                devices[src.to_device] = namer(f"d{len(devices)}")
                ns[devices[src.to_device]] = src.to_device
            text = f"{text}.to({devices[src.to_device]})"
        return text

    if plan.feed_slots:
        lines.append("    " + ", ".join(slot(s) for s in plan.feed_slots) + ", = F" +
                     ("; F.clear()" if release_feeds else ""))
    for key in plan.state_marks:
        if plan.held_keys is not None and key in plan.held_keys:
            # Held in torch's layout (runtime/physical_store.py): its gradient too.
            ns["_held"] = _held_value
            lines.append(f"    S[{key!r}] = _src(_held(S, {key!r}))")
        else:
            lines.append(f"    S[{key!r}] = _src(S[{key!r}])")
    last_gradient = None if outer_gradients else _last_gradient_step(plan)
    live: Dict[int, None] = dict.fromkeys(plan.feed_slots)
    batches = kernel_batches.batches(plan.steps) if kernel_batches.enabled() else {}
    batch_end = 0
    pending_frees: List[int] = []
    for number, step in enumerate(plan.steps):
        indent = "        " if number < batch_end else "    "
        if number in batches:
            batch_end = batches[number]
            members = plan.steps[number:batch_end]
            bname = namer("_batch")
            ns[bname] = step.kernel.make_batch([m.kernel for m in members])
            calls = ", ".join(f"({', '.join(render(a) for a in m.args)},)" for m in members)
            line_to_op[len(lines) + 1] = step.op
            lines.append(f"    if not {bname}({calls}):  # {len(members)} x {step.op.type}")
            indent = "        "
        if step.kernel is not None:
            kname = namer(step.op.type.strip("_") or "kernel")
            ns[kname] = step.kernel
            arg_text = ", ".join(render(a) for a in step.args)
            call = f"{kname}({arg_text})"
            used = [s for s in step.outs if s is not None]
            if not used:
                code = call
            elif len(step.outs) == 1:
                code = f"{slot(step.outs[0])} = {call}"
            else:
                targets = ", ".join("_" if s is None else slot(s) for s in step.outs)
                code = f"{targets}, = {call}"
            line_to_op[len(lines) + 1] = step.op
            line_to_op.args[len(lines) + 1] = arg_text
            lines.append(f"{indent}{code}  # {step.op.name}")
        for index in step.marks:
            lines.append(f"    {slot(index)} = _src({slot(index)})")
        if number < batch_end - 1:
            pending_frees += step.frees      # freed after the batch's last op
        elif step.frees or pending_frees:
            lines.append("    del " + ", ".join(slot(s) for s in pending_frees + step.frees))
            pending_frees = []
        live.update(dict.fromkeys(s for s in step.outs if s is not None))
        for index in step.frees:
            live.pop(index, None)
        if number == last_gradient and live:
            # No op after the last gradient needs the autograd graph. Dropping it here
            # (values still live keep their data, not their graph) frees the saved
            # tensors and the variables' autograd leaves before the optimizer's updates
            # run, so those update the variables in place as TF does, instead of
            # copying buffers the graph still references.
            names = ", ".join(slot(s) for s in live)
            ns["_nograph"] = _without_graph
            lines.append(f"    {names}, = _nograph({names},)")
    fetch_text = ", ".join(render(f) if f.ref is not None or f.kind != CONST else "None"
                           for f in plan.fetches)
    if plan.state_marks:
        lines.append(f"    _out = ({fetch_text},)" if plan.fetches else "    _out = ()")
        for key in plan.state_marks:
            if plan.held_keys is not None and key in plan.held_keys:
                # (Only the run's own leaf: reading the store would give TF's layout.)
                ns["_detach_leaf"] = _detach_leaf
                lines.append(f"    _detach_leaf(S, {key!r})")
                continue
            lines.append(f"    if S[{key!r}].requires_grad: S[{key!r}] = S[{key!r}].detach()")
        lines.append("    return _out")
    elif detach_fetches and plan.fetches:
        ns["_nograph"] = _without_graph
        lines.append(f"    return _nograph({fetch_text},)")
    else:
        lines.append(f"    return ({fetch_text},)" if plan.fetches else "    return ()")
    source = "\n".join(lines) + "\n"
    if _SHOW_PLAN:
        print(f"# {filename}\n{source}", file=sys.stderr)
    code = compile(source, filename, "exec")
    exec(code, ns)  # noqa: S102 - our own generated code
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    fn = ns[name]
    # The source stays readable for tracebacks while the function lives, no longer.
    weakref.finalize(fn, linecache.cache.pop, filename, None)
    fn._line_map = line_to_op  # keeps the map alive as long as the function
    _LINE_MAPS[filename] = line_to_op
    plan.fn = fn
    plan.source = source
    plan.line_to_op = line_to_op
    return fn


def op_for_traceback(tb: Any) -> Optional[Operation]:
    """The op whose generated line raised, innermost plan first."""
    return failure_for_traceback(tb)[0]


def failure_for_traceback(tb: Any) -> Tuple[Optional[Operation], Optional[list]]:
    """The op whose generated line raised (innermost plan first) and the argument values
    its kernel was called with (None where they cannot be seen again)."""
    found: Tuple[Optional[Operation], Optional[list]] = (None, None)
    while tb is not None:
        frame = tb.tb_frame
        line_map = _LINE_MAPS.get(frame.f_code.co_filename)
        if line_map is not None:
            op = line_map.get(tb.tb_lineno)
            if op is not None:
                found = (op, _arguments(line_map.args.get(tb.tb_lineno), frame))
        tb = tb.tb_next
    return found


def _arguments(text: Optional[str], frame: Any) -> Optional[list]:
    """A failed line's argument values, read again from its frame (the line raised
    before its `del`s ran, so they are all still there)."""
    if text is None:
        return None
    try:
        return list(eval(f"({text},)", frame.f_globals, frame.f_locals))  # noqa: S307
    except Exception:  # noqa: BLE001 - best effort: the kernel's own message is kept
        return None
