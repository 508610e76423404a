"""A compiled plan's one graph called directly, without Dynamo (hot_plans.py, step 5).

`compile_recording` is `torch.compile` with a backend that records the graphs it is handed
and, for inductor, the kernel code it made of each; `direct_call` turns a plan that became
exactly one graph whose inputs are its feeds into a plain call of that graph.

Layers above inductor's code a direct call can skip, each measured on chain500 (500
elementwise ops fused into one C++ kernel of ~35 us): Dynamo's frame, guards and stance
(~20-50 us) are skipped for every such graph; AOTAutograd's runtime wrappers and inductor's
`CompiledFxGraph.__call__` (~5-10 us: the wrappers' prologue and epilogue, a disabled-Dynamo
frame, the autotune-cache and metrics contexts) are skipped where AOTAutograd's metadata
says they have nothing to do: an inference graph with no input mutation, no output that
aliases an input or another output, no functionalized RNG, no effect tokens and no tensor
subclass. Then inductor's module-level `call` is the whole graph, and its C++ kernel, if
it is one loop of whole vectors, is rebuilt to run four vectors interleaved
(`interleaved_kernels.py`: chain500's kernel ~40 -> ~21 us, the same arithmetic).
"""

from __future__ import annotations

import functools
import weakref
from typing import Any, Callable, List, Optional, Sequence

import torch

from tf1compat.runtime.interleaved_kernels import interleaved_call

__all__ = ["compile_recording", "direct_call"]


def compile_recording(fn: Callable[..., Any], backend: str) -> Callable[..., Any]:
    """`torch.compile(fn)`; the result's `graphs` lists, per graph the backend was handed,
    (weak references to its example inputs, the compiled graph, inductor's `call` of it or
    None): what `direct_call` needs."""
    options = None
    if backend == "inductor":
        # The generated function's globals (bound kernels, constants) never change after
        # it is made, so guarding on them each call would be pure cost.
        options = {"guard_filter_fn": torch.compiler.skip_guard_on_globals_unsafe}
    from torch._dynamo.backends.registry import lookup_backend
    compile_graph = lookup_backend(backend)
    graphs: List[tuple] = []

    def capturing(gm: Any, example_inputs: List[Any]) -> Callable[..., Any]:
        kernels: List[Optional[Callable[[list], Any]]] = []
        if backend == "inductor" and _inductor_internals():
            compiled_graph = _inductor_recording(gm, example_inputs, kernels)
        else:
            compiled_graph = compile_graph(gm, example_inputs)
        # Weakly: the examples (feeds, a training step's variable copies) must not live
        # as long as the compiled function; only their identity is asked, during the
        # check, while the caller holds them.
        graphs.append(([weakref.ref(e) if isinstance(e, torch.Tensor) else _NO_REF
                        for e in example_inputs], compiled_graph,
                       kernels[0] if len(kernels) == 1 else None))
        return compiled_graph
    compiled = torch.compile(fn, dynamic=False, backend=capturing, options=options)
    compiled.graphs = graphs
    return compiled


@functools.lru_cache(maxsize=None)
def _inductor_internals() -> bool:
    """Whether this torch has the inductor / AOTAutograd internals `_kernel_alone` reads
    (torch >= 2.6 or so); without them every compile goes through Dynamo's wrapped call,
    as before direct calls existed."""
    try:
        from torch._functorch import config as functorch_config
        from torch._functorch._aot_autograd.schemas import OutputType, PlainTensorMeta  # noqa: F401
        from torch._guards import TracingContext  # noqa: F401
        from torch._inductor.compile_fx import compile_fx, compile_fx_inner  # noqa: F401
        from torch._inductor.output_code import CompiledFxGraph  # noqa: F401
    except ImportError:
        return False
    return hasattr(functorch_config, "enable_autograd_cache") and \
        hasattr(OutputType, "non_alias")


def _NO_REF() -> None:
    """The weak reference of a graph input that is not a tensor: matches no feed."""
    return None


def _inductor_recording(gm: Any, example_inputs: List[Any],
                        kernels: List[Optional[Callable[[list], Any]]]) -> Any:
    """Inductor's compile of `gm` (what the "inductor" backend runs), appending to
    `kernels` inductor's `call` of each graph AOTAutograd hands it: that `call` where it
    alone is the graph (`_kernel_alone`), else None."""
    from torch._functorch import config as functorch_config
    from torch._inductor.compile_fx import compile_fx, compile_fx_inner

    def recording_inner(graph: Any, inputs: Sequence[Any], **kwargs: Any) -> Any:
        out = compile_fx_inner(graph, inputs, **kwargs)
        kernels.append(_kernel_alone(graph, inputs, out, kwargs.get("is_inference", False))
                       if len(inputs) == len(example_inputs) else None)
        return out
    # AOTAutograd's own cache hands back its wrapped graph without calling the inner
    # compile (inductor's FX graph cache still spares the code generation), so no `call`
    # is recorded on a hit. Only an inference graph's `call` is ever used alone, and a
    # graph is compiled for training only where grad mode is on and an input requires
    # grad: there the cache is kept, sparing a later process AOTAutograd's trace of the
    # joint graph and its passes (a training step's compile, docs/performance.md).
    training = torch.is_grad_enabled() and any(
        isinstance(e, torch.Tensor) and e.requires_grad for e in example_inputs)
    with functorch_config.patch(enable_autograd_cache=training):
        return compile_fx(gm, example_inputs, inner_compile=recording_inner)


def _kernel_alone(graph: Any, inputs: Sequence[Any], out: Any,
                  is_inference: bool) -> Optional[Callable[[list], Any]]:
    """Inductor's `call` for `out`, or None unless AOTAutograd's runtime wrappers around it
    would do nothing but call it: an inference graph taking the user's inputs one for one
    (none deduplicated or lifted), mutating none, returning only fresh tensors."""
    from torch._functorch._aot_autograd.schemas import OutputType, PlainTensorMeta
    from torch._guards import TracingContext
    from torch._inductor.output_code import CompiledFxGraph

    context = TracingContext.try_get()
    meta = getattr(context, "fw_metadata", None)
    call = getattr(out, "current_callable", None)
    if not (is_inference and meta is not None and isinstance(out, CompiledFxGraph) and
            call is not None):
        return None
    placeholders = [n for n in graph.graph.nodes if n.op == "placeholder"]
    sound = (len(placeholders) == len(inputs) == len(meta.input_info) and
             meta.num_mutated_inp_runtime_indices == 0 and
             not any(i.mutates_data or i.mutates_metadata for i in meta.input_info) and
             all(o.output_type == OutputType.non_alias for o in meta.output_info) and
             meta.num_intermediate_bases == 0 and
             not meta.is_rng_op_functionalized and not meta.tokens and
             all(isinstance(m, (int, PlainTensorMeta)) for m in meta.subclass_inp_meta) and
             all(isinstance(m, (int, PlainTensorMeta))
                 for m in meta.subclass_fw_graph_out_meta))
    return call if sound else None


def direct_call(compiled: Any, feeds: Sequence[Any], got: Sequence[Any]) -> Optional[
        Callable[[Sequence[Any]], tuple]]:
    """The compiled plan as a call of its one graph, without Dynamo's frame: None unless
    `compiled` became exactly one graph whose inputs are the feeds themselves and whose
    outputs, called on `feeds`, are the plan's results `got` in order (bit for bit, and
    no two of them equal, so that the order is not a coincidence of the values). Where
    inductor's `call` alone is the graph, that is what is called, with its one-loop
    kernels run four vectors interleaved (`interleaved_kernels`) where they give `got`
    too.

    Each Dynamo call of a compiled plan costs ~20-50 us around its kernels (the frame's
    cache lookup and guards, the recompile stance, the wrapper's dispatch-key and config
    handling): a 500-op chain's fused kernel takes ~30 us of that run. What Dynamo's
    guards would check is checked by the caller instead (`_HotPlan._covers`: the feeds'
    shapes, dtypes and devices, the thread count; the grad mode a plan runs under is
    its own), and the graph asserts the feeds' strides; a failing direct call runs op by
    op and leaves Dynamo's call in its place."""
    graphs = getattr(compiled, "graphs", None)
    if not graphs or len(graphs) != 1:
        return None
    examples, graph, kernel = graphs[0]
    sources = []
    for ref in examples:
        example = ref()
        index = next((i for i, f in enumerate(feeds) if f is example), None)
        if index is None:
            return None
        sources.append(index)
    if not all(isinstance(v, torch.Tensor) for v in got):
        return None
    if kernel is not None:
        # Its kernels run four vectors interleaved where that is the same arithmetic
        # (`interleaved_kernels`); inductor's own `call` where the check refuses that.
        for candidate in (interleaved_call(kernel), kernel):
            if candidate is not None and _gives(lambda *v, c=candidate: c(list(v)),
                                                [feeds[i] for i in sources], got):
                kernel = candidate
                break
        else:
            return None
    elif not _gives(graph, [feeds[i] for i in sources], got):
        return None

    if kernel is not None:
        def direct(values: Sequence[Any]) -> tuple:
            return tuple(kernel([values[i] for i in sources]))
    else:
        def direct(values: Sequence[Any]) -> tuple:
            return tuple(graph(*[values[i] for i in sources]))
    return direct


def _gives(call: Callable[..., Any], inputs: list[Any], got: Sequence[Any]) -> bool:
    """Whether `call(*inputs)` returns the tensors `got` in order, bit for bit, no two of
    them equal (so that the order is not a coincidence of the values)."""
    try:
        outs = call(*inputs)
    except Exception:  # noqa: BLE001 - Dynamo's call stays
        return False
    if not isinstance(outs, (list, tuple)) or len(outs) != len(got):
        return False
    for i, (a, b) in enumerate(zip(outs, got)):
        if not (isinstance(a, torch.Tensor) and a.dtype == b.dtype and a.shape == b.shape and
                torch.equal(a, b)):
            return False
        if any(c.dtype == a.dtype and c.shape == a.shape and torch.equal(c, a)
               for c in outs[:i]):
            return False
    return True
