"""Plan -> straight-line Python, in the manner of torch.fx's code generator.

For a plan computing `y = tanh(x @ w + b)` the generated function reads:

    def plan_3(F, S):
        v0, = F
        v1 = k1(v0, S['w'])  # MatMul (MatMul)
        del v0
        v2 = k2(v1, S['b'])  # add (AddV2)
        del v1
        v3 = k3(v2)  # Tanh (Tanh)
        del v2
        return (v3,)

`F` is the list of fed values, `S` the session's variable store; `k*` are kernels bound
once at plan build, `c*` constants already on their device. Values are deleted after their
last use so large intermediates are freed early. The source is registered with linecache,
so tracebacks show it, and `line_to_op` maps each line back to its op for error messages.
The function has the shape of a pure function (feeds and state in, fetches out; state
updates are the only side effects besides ops marked stateful), which keeps it a
candidate for torch.compile.
"""

from __future__ import annotations

import itertools
import linecache
import weakref
from typing import Any, Callable, Dict, List, Optional, Tuple

import torch

from tf1compat.framework.operation import Operation
from tf1compat.runtime.plan import CONST, SLOT, STATE, Plan, Source

__all__ = ["compile_plan", "op_for_traceback"]

_counter = itertools.count()
# filename of generated code -> {line: op}; lets error mapping find the failing op.
_LINE_MAPS: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()


class _LineMap(dict):
    """A dict that can be weakly referenced (so plans' maps die with their plans)."""


def make_grad_source(value: Any) -> Any:
    """Makes a value an autograd source: a fresh leaf unless it already carries a graph.

    A value that carries a graph becomes a distinct autograd node (a view), so that the
    gradient with respect to it counts only its own consumers even when a kernel passed
    another source through unchanged (Identity returns its input object).
    """
    if value.requires_grad:
        return value.view_as(value)
    return value.detach().requires_grad_()


def compile_plan(plan: Plan, name: str = "plan", raw: bool = False) -> Callable[..., tuple]:
    """Generates, compiles and attaches `plan.fn`; returns it.

    A plan with TF1 dataflow control flow gets the dataflow executor instead.
    """
    if plan.dataflow:
        from tf1compat.runtime.dataflow import compile_dataflow
        return compile_dataflow(plan)
    filename = f"<tf1compat-{name}-{next(_counter)}>"
    ns: Dict[str, Any] = {"_src": make_grad_source}
    lines: List[str] = [f"def {name}(F, S):"]
    line_to_op = _LineMap()
    consts: Dict[Tuple[int, Any], str] = {}
    devices: Dict[torch.device, str] = {}

    def const_name(value: Any, device: Optional[torch.device]) -> str:
        key = (id(value), device)
        if key not in consts:
            cname = f"c{len(consts)}"
            if device is not None and isinstance(value, torch.Tensor):
                value = value.to(device)
            ns[cname] = value
            consts[key] = cname
        return consts[key]

    def render(src: Source) -> str:
        if src.kind == SLOT:
            text = f"v{src.ref}"
        elif src.kind == STATE:
            text = f"S[{src.ref!r}]"
        elif src.kind == CONST:
            return const_name(src.ref, src.to_device)
        else:  # pragma: no cover - FEED sources are bound to slots first
            raise AssertionError(src.kind)
        if src.to_device is not None:
            dname = devices.setdefault(src.to_device, f"d{len(devices)}")
            ns[dname] = src.to_device
            text = f"{text}.to({dname})"
        return text

    if plan.feed_slots:
        lines.append("    " + ", ".join(f"v{s}" for s in plan.feed_slots) + ", = F")
    for key in plan.state_marks:
        lines.append(f"    S[{key!r}] = _src(S[{key!r}])")
    for i, step in enumerate(plan.steps):
        if step.kernel is not None:
            kname = f"k{i}"
            ns[kname] = step.kernel
            call = f"{kname}({', '.join(render(a) for a in step.args)})"
            used = [s for s in step.outs if s is not None]
            if not used:
                code = call
            elif len(step.outs) == 1:
                code = f"v{step.outs[0]} = {call}"
            else:
                targets = ", ".join("_" if s is None else f"v{s}" for s in step.outs)
                code = f"{targets}, = {call}"
            line_to_op[len(lines) + 1] = step.op
            lines.append(f"    {code}  # {step.op.name} ({step.op.type})")
        for slot in step.marks:
            lines.append(f"    v{slot} = _src(v{slot})")
        if step.frees:
            lines.append("    del " + ", ".join(f"v{s}" for s in step.frees))
    fetch_text = ", ".join(render(f) if f.ref is not None or f.kind != CONST else "None"
                           for f in plan.fetches)
    if plan.state_marks:
        lines.append(f"    _out = ({fetch_text},)" if plan.fetches else "    _out = ()")
        for key in plan.state_marks:
            lines.append(f"    if S[{key!r}].requires_grad: S[{key!r}] = S[{key!r}].detach()")
        lines.append("    return _out")
    else:
        lines.append(f"    return ({fetch_text},)" if plan.fetches else "    return ()")
    source = "\n".join(lines) + "\n"
    code = compile(source, filename, "exec")
    exec(code, ns)  # noqa: S102 - our own generated code
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    fn = ns[name]
    fn._line_map = line_to_op  # keeps the map alive as long as the function
    _LINE_MAPS[filename] = line_to_op
    plan.fn = fn
    plan.source = source
    plan.line_to_op = line_to_op
    return fn


def op_for_traceback(tb: Any) -> Optional[Operation]:
    """The op whose generated line raised, innermost plan first."""
    found = None
    while tb is not None:
        code = tb.tb_frame.f_code
        line_map = _LINE_MAPS.get(code.co_filename)
        if line_map is not None:
            op = line_map.get(tb.tb_lineno)
            if op is not None:
                found = op
        tb = tb.tb_next
    return found
