"""`tf.while_loop`: the condition and body traced once as regions, run by one While op.

The loop variables are `_Arg` ops of the regions (named `while/Merge...` in the condition
and `while/Identity...` in the body, TF's names for them), shaped by the shape
invariants; the condition and body compile once per session to straight-line functions
(kctx.compile_function) and the While kernel iterates them in Python:

    while cond_fn(vars + cond_captures)[0]:
        vars = body_fn(vars + body_captures)

so an iteration costs two generated-function calls and the body's kernels, with nothing
rebuilt per iteration. A loop whose regions are a few elementwise ops on 0-d CPU values
(counters, accumulators) runs them on numpy scalars instead (ops/scalar_loops.py: the
same results without torch's per-op dispatch). The outputs are Identity ops named `while/Exit`, `while/Exit_1`,
... as TF1's Exit ops. Deliberate differences from TF1's graph: no Enter, Switch,
LoopCond or NextIteration ops; the construct is one op `while/While`. Graph-build
checks (shape invariants, structures, TypeErrors) mirror TF's messages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional

import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import apply_op, apply_op1, get_default_graph, name_scope
from tf1compat.framework.op_def import Type, TypeList, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from tf1compat.ops._regions import LoopRegion, external_inputs_and_read_tensors, slice_records
from tf1compat.ops._shape_rules import _shape_text
from tf1compat.ops.cond import branch_outputs, variable_reads
from tf1compat.ops.function_call_ops import declared_output_shapes, while_function_kernel
from tf1compat.ops.scalar_loops import ScalarLoop
from tf1compat.util import nest

__all__ = ["while_loop", "Loop", "slice_records"]


@dataclass(eq=False)
class Loop:
    """A traced loop: condition and body regions, their arguments, outputs and captures."""
    cond_region: LoopRegion
    body_region: LoopRegion
    cond_args: List[Tensor]
    body_args: List[Tensor]
    pred: Optional[Tensor] = None
    body_outputs: List[Tensor] = field(default_factory=list)
    cond_captures: List[Tensor] = field(default_factory=list)
    body_captures: List[Tensor] = field(default_factory=list)
    reads: List[str] = field(default_factory=list)      # variables read from outside
    # A library that recognises what its loop computes may give a faster equivalent
    # (rnn/fused.py: dynamic_rnn over standard cells on torch's fused RNN kernels):
    # `fast_path.bind(node, kctx)` returns None or `f(loop_values, captures)`, which
    # returns the loop's final values, or None to run the loop itself for that run.
    fast_path: Optional[Any] = None
    fast_path_reason: Optional[str] = None              # why there is none (diagnostics)
    # Gathers of the body whose indices and outputs a gradient run records per iteration
    # (a gradient op takes TF's IndexedSlices of them: autodiff/loop_slices.py).
    slice_sites: List[Operation] = field(default_factory=list)

    def __repr__(self) -> str:
        return f"<loop {self.body_region.name!r}: {len(self.body_args)} loop vars>"


# -- ops ------------------------------------------------------------------------------------

declare("_Arg", outputs=["output: T"], attrs={"T": Type(), "index": 0,
                                              "shape": unknown_shape()},
        shape=lambda ctx: [as_shape(ctx.attrs["shape"])], kernel=None, grad="none",
        not_one_node="it belongs to a traced control-flow region",
        doc="An argument of a control-flow region (a loop variable); always fed.")


def _while_kernel(node: Operation, kctx: Any) -> Callable[..., Any]:
    loop: Loop = node.attrs["loop"]
    if loop is None:
        return while_function_kernel(node, kctx)   # an imported graph's cond/body functions
    n = len(loop.body_args)
    position = {t: i for i, t in enumerate(node.inputs[n:])}
    cond_pick = tuple(position[t] for t in loop.cond_captures)
    body_pick = tuple(position[t] for t in loop.body_captures)
    back_prop = bool(node.attrs["back_prop"])
    single = n == 1
    compiled: dict = {}
    touch = variable_reads(kctx, loop.reads)
    fast = loop.fast_path.bind(node, kctx) if loop.fast_path is not None else None
    # A fast path whose captures may be in another layout (rnn/fused.py's held LSTM
    # weights) hands the body TF's.
    restore = getattr(fast, "restore", None)

    def functions() -> tuple:
        # Compiled on the first run (cached per session): a loop never run never compiles.
        if not compiled:
            cond_cf = kctx.compile_function(loop.cond_args + loop.cond_captures, [loop.pred],
                                            loop.cond_region)
            body_cf = kctx.compile_function(loop.body_args + loop.body_captures,
                                            loop.body_outputs, loop.body_region)
            # Counters and accumulators of 0-d values: the loop on numpy scalars. Set
            # before "fns", which another thread running the loop takes as done.
            compiled["scalar"] = ScalarLoop.build(cond_cf.plan, body_cf.plan)
            compiled["fns"] = (cond_cf.fn, body_cf.fn, cond_cf.state)
        return compiled["fns"]

    def recording_body() -> Callable[..., Any]:
        # The body with each gather site's indices and output as extra outputs (a
        # nested loop or cond site records itself).
        sites = tuple(loop.slice_sites)
        if compiled.get("sites") != sites:
            extra = [t for g in sites if g.type not in ("While", "If")
                     for t in (g.inputs[1], g.outputs[0])]
            compiled["recording"] = kctx.compile_function(
                loop.body_args + loop.body_captures, loop.body_outputs + extra,
                loop.body_region).fn
            compiled["sites"] = sites
        return compiled["recording"]

    def run(args: tuple) -> Any:
        touch()
        values = args[:n]
        captures = args[n:]
        record = bool(loop.slice_sites) and torch.is_grad_enabled()
        if fast is not None and not record:
            done = fast(values, captures)
            if done is not None:
                return done[0] if single else done
        if restore is not None:
            captures = restore(captures)
        cond_fn, body_fn, state = functions()
        cond_caps = tuple([captures[i] for i in cond_pick])
        body_caps = tuple([captures[i] for i in body_pick])
        scalar = compiled["scalar"]
        if scalar is not None and not record:
            done = scalar(values, cond_caps, body_caps)
            if done is not None:
                return done[0] if single else tuple(done)
        state = state.view()     # the running thread's gradient view, if any
        if record:
            body_fn = recording_body()
            records = slice_records()
            iterations: list = []
            while cond_fn(values + cond_caps, state)[0]:
                out = body_fn(values + body_caps, state)
                values, extra = out[:n], iter(out[n:])
                iterations.append([records.pop(g, None) if g.type in ("While", "If") else
                                   (next(extra), next(extra)) for g in loop.slice_sites])
            records[node] = iterations
            return values[0] if single else values
        while cond_fn(values + cond_caps, state)[0]:
            values = body_fn(values + body_caps, state)
        return values[0] if single else values

    if back_prop:
        return lambda *args: run(args)

    def run_without_gradients(*args: Any) -> Any:
        with torch.no_grad():
            return run(args)
    return run_without_gradients


# tf.while_loop's op: `loop` holds the traced regions, the captures are inputs. The same
# declaration is TF's functional While of imported graphs (no captures; `cond` and `body`
# are functions of the graph's library, ops/function_call_ops.py).
declare("While", inputs=["input: T", "captures: Tcaptures"], outputs=["output: T"],
        attrs={"T": TypeList(), "Tcaptures": TypeList(default=[]), "loop": None,
               "cond": None, "body": None, "output_shapes": [], "parallel_iterations": 10,
               "back_prop": True, "swap_memory": False},
        shape=lambda ctx: declared_output_shapes(ctx, "T"), kernel=_while_kernel,
        stateful=True, view=True, keeps_devices=True,
        not_one_node="its condition and body are traced regions (graph_export.py writes "
        "them)",
        doc="Runs the traced body while the traced condition holds.")


# -- building -----------------------------------------------------------------------------

def _shape_less_than_or_equal(shape1: TensorShape, shape2: TensorShape) -> bool:
    """Whether `shape1` is at least as specific as `shape2` (TF's rule)."""
    if shape2.rank is None:
        return True
    if shape1.rank != shape2.rank:
        return False
    for d1, d2 in zip(shape1.as_list(), shape2.as_list()):
        if d2 is not None and d1 != d2:
            return False
    return True


def _to_loop_var(x: Any) -> Any:
    from tf1compat.ops.tensor_array_ops import TensorArray
    if isinstance(x, TensorArray):
        return x
    return convert_to_tensor(x)


def _flow_of(x: Any) -> Tensor:
    from tf1compat.ops.tensor_array_ops import TensorArray
    return x.flow if isinstance(x, TensorArray) else x


def _with_flows(originals: List[Any], flows: List[Tensor]) -> List[Any]:
    from tf1compat.ops.tensor_array_ops import TensorArray
    return [o.with_flow(f) if isinstance(o, TensorArray) else f
            for o, f in zip(originals, flows)]


def _invariant(var: Any, shape: Any) -> TensorShape:
    """The shape invariant of one flat loop variable (TF's _shape_invariant_to_type_spec)."""
    flow = _flow_of(var)
    if shape is None:
        return flow.shape
    if not isinstance(shape, TensorShape):
        raise TypeError("'shape' must be one of TypeSpec, TensorShape or None. "
                        f"Received: {type(shape)}")
    return shape


def _make_args(region: LoopRegion, flat_vars: List[Tensor], invariants: List[TensorShape],
               name: str) -> List[Tensor]:
    def make() -> List[Tensor]:
        return [apply_op1("_Arg", [], {"T": v.dtype.base_dtype, "index": i, "shape": s},
                          name=name)
                for i, (v, s) in enumerate(zip(flat_vars, invariants))]
    return region.trace(make)


def _check_pred(c: Tensor) -> None:
    if c.dtype.base_dtype != D.bool:
        raise TypeError(f"Input 'input' of 'LoopCond' Op has type {c.dtype.base_dtype.name} "
                        "that does not match expected type of bool.")
    if c.shape.rank is not None and c.shape.rank != 0:
        scope = get_default_graph().get_name_scope()
        raise ValueError(f"Shape must be rank 0 but is rank {c.shape.rank} for '{{{{node "
                         f"{scope}/LoopCond}}}} = LoopCond[]({c._as_node_def_input()})' with "
                         f"input shapes: {_shape_text(c.shape)}.")


def _build_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any,
                shape_invariants: Any, return_same_structure: bool, scope: str,
                parallel_iterations: int, back_prop: bool, swap_memory: bool,
                maximum_iterations: Any) -> Any:
    graph = get_default_graph()
    flat_orig = nest.flatten(loop_vars)
    loop_vars = nest.pack_sequence_as(loop_vars, [_to_loop_var(x) for x in flat_orig])
    flat_orig = nest.flatten(loop_vars)
    flat_vars = [_flow_of(x) for x in flat_orig]
    if shape_invariants is not None:
        nest.assert_same_structure(loop_vars, shape_invariants)
        flat_invariants = [_invariant(v, s) for v, s in
                           zip(flat_orig, nest.flatten(shape_invariants))]
    else:
        flat_invariants = [v.shape for v in flat_vars]
    for var, inv in zip(flat_vars, flat_invariants):
        if not _shape_less_than_or_equal(var.shape, inv):
            raise ValueError(
                f"The shape invariant specified for {var.name} is not compatible with the "
                f"initial shape of the loop variable. It enters the loop with shape "
                f"{var.shape}, but the specified shape invariant is {inv}.")

    region_args = dict(parallel_iterations=parallel_iterations, back_prop=back_prop,
                       swap_memory=swap_memory, maximum_iterations=maximum_iterations)
    cond_region = LoopRegion(graph, scope, "cond", **region_args)
    body_region = LoopRegion(graph, scope, "body", **region_args)
    cond_args = _make_args(cond_region, flat_vars, flat_invariants, "Merge")
    loop = Loop(cond_region, body_region, cond_args, [])

    def trace_cond() -> None:
        packed = nest.pack_sequence_as(loop_vars, _with_flows(flat_orig, cond_args))
        c = convert_to_tensor(cond(*packed))
        _check_pred(c)
        loop.pred = branch_outputs(cond_region, [c])[0]
    cond_region.trace(trace_cond)

    loop.body_args = _make_args(body_region, flat_vars, flat_invariants, "Identity")

    def trace_body() -> Any:
        packed = nest.pack_sequence_as(loop_vars, _with_flows(flat_orig, loop.body_args))
        result = body(*packed)
        if not nest.is_nested(result):
            result = [result]
        result = _variables_to_tensors(result)
        nest.assert_same_structure(list(packed), list(result))
        flat = [_flow_of(x) for x in nest.flatten(result)]
        flat = [x if isinstance(x, Tensor) else convert_to_tensor(x) for x in flat]
        if len(flat) != len(flat_vars):
            raise ValueError("Number of inputs and outputs of 'body' must match 'loop_vars'. "
                             f"Got {len(flat_vars)} for the number of inputs/outputs, and "
                             f"{len(flat)} for 'loop_vars'.")
        for var, inv, out in zip(flat_vars, flat_invariants, flat):
            if not _shape_less_than_or_equal(out.shape, inv):
                raise ValueError(
                    f"Input tensor '{var.name}' enters the loop with shape {var.shape}, but "
                    f"has shape {out.shape} after one iteration. To allow the shape to vary "
                    "across iterations, use the `shape_invariants` argument of tf.while_loop "
                    "to specify a less-specific shape.")
            if out.dtype.base_dtype != var.dtype.base_dtype:
                raise TypeError(
                    f"Loop variable '{var.name}' enters the loop as {var.dtype.base_dtype.name} "
                    f"but the body returns {out.dtype.base_dtype.name} for it.")
        loop.body_outputs = branch_outputs(body_region, flat)
        return result
    body_result = body_region.trace(trace_body)

    loop.cond_captures, cond_controls, cond_reads = \
        external_inputs_and_read_tensors(cond_region)
    loop.body_captures, body_controls, body_reads = \
        external_inputs_and_read_tensors(body_region)
    loop.reads = list(cond_reads) + list(body_reads)
    # Variables read in the loop are inputs too (the kernel ignores them and reads the
    # store each iteration): tf.gradients needs the edge from the variable to the loop.
    read_tensors = list({**cond_reads, **body_reads}.values())
    captures = list(dict.fromkeys(loop.cond_captures + loop.body_captures + read_tensors))
    attrs = {"loop": loop, "output_shapes": flat_invariants,
             "parallel_iterations": parallel_iterations, "back_prop": bool(back_prop),
             "swap_memory": bool(swap_memory)}
    op = apply_op("While", [flat_vars, captures], attrs, name="While")
    controls = [c for c in dict.fromkeys(cond_controls + body_controls)
                if c not in op._control_inputs]
    if controls:
        op._add_control_inputs(controls)
    from tf1compat.ops.array_ops import identity
    exits = [identity(t, name="Exit") for t in op._outputs]
    flat_result = nest.flatten(body_result)
    packed = nest.pack_sequence_as(body_result, _with_flows(flat_result, exits))
    if return_same_structure:
        return packed
    return packed[0] if len(exits) == 1 else packed


def _variables_to_tensors(result: Any) -> Any:
    from tf1compat.ops.cond import _variables_to_tensors as convert
    return convert(result)


def while_loop(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any,
               shape_invariants: Any = None, parallel_iterations: int = 10,
               back_prop: bool = True, swap_memory: bool = False, name: Optional[str] = None,
               maximum_iterations: Any = None, return_same_structure: bool = False) -> Any:
    """`tf.while_loop` (TF1): repeats `body` while `cond` is true."""
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = _variables_to_tensors(loop_vars)
    if _context.executing_eagerly():
        return _eager_while(cond, body, loop_vars, maximum_iterations, return_same_structure)
    with name_scope(name, "while", nest.flatten(loop_vars)) as scope:
        if not loop_vars:
            raise ValueError("'loop_vars' must be provided.")
        try_to_pack = len(loop_vars) == 1 and not return_same_structure
        if maximum_iterations is not None:
            from tf1compat.framework.constant_op import constant
            from tf1compat.ops.math_ops import logical_and
            maximum_iterations = convert_to_tensor(maximum_iterations,
                                                   name="maximum_iterations")
            if maximum_iterations.shape.rank != 0:
                raise ValueError("'maximum_iterations' must be a scalar. Received shape: "
                                 f"{maximum_iterations.shape}")
            counter = constant(0, dtype=maximum_iterations.dtype, name="iteration_counter")
            orig_cond, orig_body, limit = cond, body, maximum_iterations
            if try_to_pack:
                loop_vars = (counter, loop_vars[0])
                cond = lambda i, lv: logical_and(i < limit, orig_cond(lv))  # noqa: E731
                body = lambda i, lv: (i + 1, orig_body(lv))  # noqa: E731
            else:
                loop_vars = (counter, loop_vars)
                cond = lambda i, lv: logical_and(i < limit, orig_cond(*lv))  # noqa: E731
                body = lambda i, lv: (i + 1, orig_body(*lv))  # noqa: E731
            if shape_invariants is not None:
                shape_invariants = (TensorShape([]), shape_invariants)
        result = _build_loop(cond, body, loop_vars, shape_invariants, return_same_structure,
                             scope, parallel_iterations, back_prop, swap_memory,
                             maximum_iterations)
        return result[1] if maximum_iterations is not None else result


def _eager_while(cond: Callable[..., Any], body: Callable[..., Any], loop_vars: Any,
                 maximum_iterations: Any, return_same_structure: bool) -> Any:
    """Eager mode: a Python loop over the body (TF's eager while_loop)."""
    try_to_pack = len(loop_vars) == 1 and not return_same_structure
    packed = False
    limit = None if maximum_iterations is None else int(maximum_iterations)
    count = 0
    while (limit is None or count < limit) and bool(cond(*loop_vars)):
        loop_vars = body(*loop_vars)
        count += 1
        if try_to_pack and not isinstance(loop_vars, (list, tuple)):
            packed = True
            loop_vars = (loop_vars,)
    return loop_vars[0] if packed else loop_vars
