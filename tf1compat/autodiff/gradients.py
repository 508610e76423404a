"""`tf.gradients` and `tf.hessians` on torch autograd.

Each `tf.gradients` call adds ONE gradient op, `SymbolicGradient`, whose inputs are the
ys, the tensors gradients are taken with respect to ("sources"), the grad_ys, and the
forward values custom gradient sub-graphs need ("captures"); it has one output per
source. Its kernel calls `torch.autograd.grad`. A plan containing it runs under grad mode
and makes the sources autograd sources right after they are produced (runtime/plan.py:
`grad_sources`); variables' store slots become requires-grad leaves for the run, so a
gradient with respect to a variable sums over all of its reads.

Which xs get None, which get IndexedSlices and what every returned tensor is named are
decided at graph build by replaying TF's backward walk (walk.py, with the ops' declared
`grad_names`). The returned tensors are Identity ops of the gradient op's outputs named
as TF names the tensor its gradient functions would have produced
(`gradients/MatMul_grad/MatMul:0`); where TF returns an existing tensor unchanged (e.g.
`gradients/grad_ys_0:0` for `d(x + 1)/dx`) the same tensor is returned. Gradients of
gathers' params are IndexedSlices built from the gradient with respect to the gather's
output, with TF's ops and names.

When a later `tf.gradients` walks through an earlier gradient op (gradients of
gradients, `tf.hessians`), the earlier op is marked `create_graph=True` so its results
carry an autograd graph.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Set

import torch

from tf1compat.autodiff import grad_mode
from tf1compat.autodiff import loop_slices
from tf1compat.autodiff.grad_reads import forward_reads, reaches_through_reads
from tf1compat.autodiff.walk import GradValue, WalkResult, walk
from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import Graph, apply_op, apply_op1, get_default_graph, name_scope
from tf1compat.framework.hooks import TAPE
from tf1compat.framework.indexed_slices import (IndexedSlices,
                                                convert_n_to_tensor_or_indexed_slices)
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["gradients", "hessians", "jacobian_op", "variable_source", "AggregationMethod",
           "UnconnectedGradients", "gradient_kernel"]


class AggregationMethod:
    """How gradient contributions to one tensor are summed (`tf.AggregationMethod`).

    ADD_N (the default) sums them with one AddN; EXPERIMENTAL_TREE and
    EXPERIMENTAL_ACCUMULATE_N sum them pairwise. Autograd accumulates gradients itself,
    so the method changes only the names TF gives the sums, which tf1compat mirrors.
    """
    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


class UnconnectedGradients(enum.Enum):
    """What tf.gradients returns for xs that ys do not depend on: None or zeros."""
    NONE = "none"
    ZERO = "zero"


@dataclass
class GradInfo:
    """Graph-build facts about one gradient op that its plans need."""
    stop_ops: Set[Operation]
    between: Set[Operation]
    custom_ops: List[Operation] = field(default_factory=list)
    reads: List[Tensor] = field(default_factory=list)   # forward tensors TF's backward reads


# -- the gradient op -----------------------------------------------------------------------------

def _gradient_shapes(ctx: Any) -> List[TensorShape]:
    ny = len(ctx.attrs["Ty"])
    if ctx.attrs.get("f") is not None:
        return [t.shape for t in ctx.inputs[:len(ctx.attrs["Tx"])]]
    nx = len(ctx.attrs["Tx"])
    sources = ctx.inputs[ny:ny + nx]
    if ctx.attrs["jacobian"]:
        n = ctx.inputs[0].shape.num_elements() if ctx.inputs[0].shape.is_fully_defined() \
            else None
        return [TensorShape([n]).concatenate(_value_shape(t)) for t in sources]
    sliced = [shape for spec in ctx.attrs["loop_slices"]
              for shape in (TensorShape([None]), TensorShape([None] + list(spec.row)))]
    return [_value_shape(t) for t in sources] + sliced


def _value_shape(t: Tensor) -> TensorShape:
    if t.dtype.base_dtype == D.resource:
        read = _resource_read(t)
        return read.shape if read is not None else TensorShape(None)
    return t.shape


def _resource_read(t: Tensor) -> Optional[Tensor]:
    for op in t._consumers:
        for out in op._outputs:
            if out.dtype.is_floating or out.dtype.is_complex:
                return out
    return None


def _value_dtype(t: Tensor) -> D.DType:
    if t.dtype.base_dtype == D.resource:
        read = _resource_read(t)
        if read is None:
            raise NotImplementedError(f"tf.gradients with respect to resource {t.name}: "
                                      "its value dtype is unknown")
        return read.dtype.base_dtype
    return t.dtype.base_dtype


def gradient_kernel(node: Operation, kctx: Any, retain_graph: bool = True,
                    box: Optional[grad_mode.CaptureBox] = None) -> Callable[..., Any]:
    """The SymbolicGradient kernel: torch.autograd.grad(ys, sources, grad_ys); with TF's
    attr `f` (a library function), the gradient of f's outputs with respect to its
    inputs."""
    if node.attrs.get("f") is not None:
        return _function_gradient_kernel(node, kctx)
    ny = len(node.attrs["Ty"])
    nx = len(node.attrs["Tx"])
    ndy = len(node.attrs["Tdy"])
    capture_tensors = node.inputs[ny + nx + ndy:]
    create = bool(node.attrs["create_graph"]) or bool(node.attrs["jacobian"])
    retain = retain_graph or create
    jacobian = bool(node.attrs["jacobian"])
    box = box if box is not None else grad_mode.CaptureBox()
    single = nx == 1
    state = kctx.state
    device = kctx.device
    # Resource-variable sources arrive as their handles (store keys); the plan made the
    # stored values autograd leaves for the run (runtime/plan.py), which is what their
    # ReadVariableOps returned, so the gradient is taken with respect to those.
    by_handle = any(t.dtype.base_dtype == D.resource for t in node.inputs[ny:ny + nx])

    specs = node.attrs.get("loop_slices") or []
    enablers = set(node.attrs.get("slice_enablers") or [])

    def differentiate(ys: Sequence[Any], xs: Sequence[Any], dys: Sequence[Any]) -> List[Any]:
        # Under a recording eager tape (a tf.function's gradient differentiated by a
        # tape outside it) the gradient is itself differentiable.
        creating = create or TAPE["recording"]
        if jacobian:
            return _jacobian(ys[0], xs, creating)
        if not specs:
            return _grad(ys, xs, dys, retain or creating, creating)
        return _grad_with_slices(ys, xs, dys, retain or creating, creating, specs, enablers,
                                 device)

    def run(*args: Any) -> Any:
        ys, xs = args[:ny], args[ny:ny + nx]
        if by_handle:
            view = state.view()      # the run's leaves (runtime/session_state.py)
            xs = tuple(view[x] if isinstance(x, str) else x for x in xs)
        dys = args[ny + nx:ny + nx + ndy]
        captures = args[ny + nx + ndy:]
        if capture_tensors:
            with box.lock:
                box.values = dict(zip(capture_tensors, captures))
                try:
                    grads = differentiate(ys, xs, dys)
                finally:
                    box.values = {}
        else:
            # Nothing to lend: no lock, which also lets a compiled plan trace this
            # (runtime/hot_plans.py compiles plain gradient plans whole).
            grads = differentiate(ys, xs, dys)
        # Sources keep their own devices (runtime/plan.py); the gradients live on this op's.
        if device is not None:
            grads = [g.to(device) if isinstance(g, torch.Tensor) else g for g in grads]
        return grads[0] if single and not specs else tuple(grads)
    return run


def _grad_with_slices(ys: Sequence[Any], xs: Sequence[Any], dys: Sequence[Any], retain: bool,
                      create: bool, specs: Sequence[loop_slices.SliceSpec], enablers: Set[int],
                      device: Any) -> List[Any]:
    """The gradients of the sources, then per loop the indices and values of its
    accumulated slices: one autograd call differentiates the sources and the gather
    outputs the loop recorded (a source only there so those require grad gets no
    gradient of its own: cheap zeros)."""
    from tf1compat.ops.while_loop import slice_records
    records = slice_records()
    recorded = [records.get(spec.while_op) or [] for spec in specs]
    outs = [loop_slices.recorded_outputs(spec, rec) for spec, rec in zip(specs, recorded)]
    used = [i for i in range(len(xs)) if i not in enablers]
    got = _grad(ys, [xs[i] for i in used] + [o for part in outs for o in part], dys, retain,
                create)
    grads: List[Any] = [None] * len(xs)
    for i, g in zip(used, got):
        grads[i] = g
    for i in enablers:
        grads[i] = torch.zeros((), dtype=xs[i].dtype, device=xs[i].device).expand(xs[i].shape)
    k = len(used)
    for spec, rec, part in zip(specs, recorded, outs):
        grads.extend(loop_slices.assemble(spec, rec, got[k:k + len(part)],
                                          device if device is not None else xs[0].device))
        k += len(part)
    if not retain:
        for spec in specs:
            records.pop(spec.while_op, None)
    return grads


def _function_gradient_kernel(node: Operation, kctx: Any) -> Callable[..., Any]:
    """TF's form: inputs are f's inputs then one dy per f output; outputs d/d(each input).

    f runs again here, on the inputs as fresh autograd leaves (TF's SymbolicGradient also
    recomputes the forward function); an input f does not use gets zeros.
    """
    function = node.attrs["f"]
    nx = len(node.attrs["Tx"])
    create = bool(node.attrs["create_graph"])
    bound: List[Any] = [None]
    grad_func = getattr(function, "grad_func", None)
    if grad_func is not None:
        # f has a gradient function (the library's GradientDef, Defun's grad_func): TF
        # calls it on f's inputs and the dys.
        def call_gradient(*args: Any) -> Any:
            if bound[0] is None:
                bound[0] = grad_func.bind(kctx)
            grads = bound[0](args)
            return grads[0] if nx == 1 else tuple(grads)
        return call_gradient

    def run(*args: Any) -> Any:
        if bound[0] is None:
            bound[0] = function.bind(kctx)
        xs = [x.detach().requires_grad_(True)
              if isinstance(x, torch.Tensor) and (x.dtype.is_floating_point or
                                                  x.dtype.is_complex) else x
              for x in args[:nx]]
        with torch.enable_grad():
            ys = bound[0](tuple(xs))
        grads = _grad(list(ys), xs, args[nx:], create, create)
        grads = [g if isinstance(g, torch.Tensor) or not isinstance(x, torch.Tensor)
                 else torch.zeros_like(x) for g, x in zip(grads, xs)]
        return grads[0] if nx == 1 else tuple(grads)
    return run


def _grad(ys: Sequence[Any], xs: Sequence[Any], dys: Sequence[Any], retain: bool,
          create: bool) -> List[Any]:
    outs, gouts = [], []
    for y, dy in zip(ys, dys):
        if isinstance(y, torch.Tensor) and y.requires_grad:
            if dy.dtype != y.dtype:
                dy = dy.to(y.dtype)
            if dy.shape != y.shape and dy.numel() == y.numel():
                # A grad_y of another shape: the walk accepted it only where TF's
                # gradient functions reshape it (grad_shapes.py), as this does.
                dy = dy.reshape(y.shape)
            outs.append(y)
            gouts.append(dy)
    wrt = [i for i, x in enumerate(xs) if isinstance(x, torch.Tensor) and x.requires_grad]
    found: List[Any] = [None] * len(xs)
    if outs and wrt:
        got = torch.autograd.grad(outs, [xs[i] for i in wrt], gouts, retain_graph=retain,
                                  create_graph=create, allow_unused=True)
        for i, g in zip(wrt, got):
            found[i] = g
    # A source autograd did not reach gets zeros: the walk found it connected, so TF's
    # gradient is a (zero) tensor, e.g. through tf.sign or an unused output.
    return [g if g is not None else torch.zeros_like(x) for g, x in zip(found, xs)]


def _jacobian(y: Any, xs: Sequence[Any], create: bool) -> List[Any]:
    flat = y.reshape(-1)
    out = []
    for x in xs:
        rows = []
        for i in range(flat.shape[0]):
            if flat.requires_grad and x.requires_grad:
                g, = torch.autograd.grad(flat[i], x, retain_graph=True, create_graph=create,
                                         allow_unused=True)
            else:
                g = None
            rows.append(torch.zeros_like(x) if g is None else g)
        out.append(torch.stack(rows) if rows else x.new_zeros((0,) + tuple(x.shape)))
    return out


declare("SymbolicGradient",
        inputs=["ys: Ty", "xs: Tx", "grad_ys: Tdy", "captures: Tc"],
        outputs=["grads: Tg"],
        attrs={"Ty": TypeList(), "Tx": TypeList(), "Tdy": TypeList(),
               "Tc": TypeList(default=[]), "Tg": TypeList(), "create_graph": False,
               "jacobian": False, "f": None, "loop_slices": [], "slice_enablers": []},
        shape=_gradient_shapes, kernel=gradient_kernel,
        grad_sources=lambda node: [] if node.attrs.get("f") is not None else
        node.inputs[len(node.attrs["Ty"]):len(node.attrs["Ty"]) + len(node.attrs["Tx"])],
        value_only=lambda node: _value_only(node),
        doc="tf1compat's gradient op: d(sum ys * grad_ys)/d xs by torch.autograd.grad "
            "(then the indices and values of the slices loops accumulate, `loop_slices`). "
            "TF's own form (a graph file's SymbolicGradient: attr f, a library function; "
            "inputs f's inputs then grad_ys; no ys) differentiates f itself.")


def _value_only(node: Operation) -> Optional[tuple]:
    """The ys, computed for autograd only; the forward tensors TF's backward reads
    (grad_reads.py); and the ops whose kernels autograd differentiates (they must run
    even where stateful), for the plan's pruning. None for gradient ops of other origins."""
    info = grad_mode.grad_info(node)
    if info is None:
        return None
    through = info.between - info.stop_ops - set(info.custom_ops)
    return node._inputs[:len(node.get_attr("Ty"))], info.reads, through


def _store(graph: Graph, key: str) -> Dict[Any, Any]:
    return graph._extras.setdefault(key, {})


# -- tf.gradients --------------------------------------------------------------------------------

def _as_list(x: Any) -> list:
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _graph_of(values: Sequence[Any]) -> Graph:
    for v in values:
        if isinstance(v, Tensor):
            return v.graph
        g = getattr(v, "graph", None)
        if isinstance(g, Graph):
            return g
    return get_default_graph()


def _default_grad_ys(grad_ys: List[Any], ys: List[Any]) -> List[Tensor]:
    from tf1compat.ops.array_ops import identity, shape
    from tf1compat.ops.creation_ops import ones
    if len(grad_ys) != len(ys):
        raise ValueError(f"Length mismatch. Passed {len(grad_ys)} grad_ys for {len(ys)} ys")
    grad_ys = convert_n_to_tensor_or_indexed_slices(grad_ys, name="grad_y")
    out: List[Tensor] = []
    for i, (y, grad_y) in enumerate(zip(ys, grad_ys)):
        if grad_y is None:
            if y.dtype.is_complex:
                raise TypeError(f"Gradients of complex tensors ({y}) must set grad_ys "
                                f"(y.dtype = {y.dtype.base_dtype.name})")
            out.append(ones(shape(y), dtype=y.dtype.base_dtype, name=f"grad_ys_{i}"))
            continue
        if isinstance(grad_y, IndexedSlices):
            raise NotImplementedError("tf.gradients with IndexedSlices grad_ys is not "
                                      "supported by tf1compat; pass a dense tensor")
        if y.dtype.is_floating or y.dtype.is_integer:
            if not grad_y.dtype.is_floating and not grad_y.dtype.is_integer:
                raise TypeError(f"Gradient type {grad_y.dtype.base_dtype.name} generated for "
                                f"real or integer-valued tensor {y} with type "
                                f"{y.dtype.base_dtype.name} must be real or integer")
        elif y.dtype.is_complex:
            if not grad_y.dtype.is_complex:
                raise TypeError(f"Gradient type {grad_y.dtype.base_dtype.name} generated for "
                                f"complex-valued tensor {y} with type "
                                f"{y.dtype.base_dtype.name} must be real")
        elif y.dtype.base_dtype == D.resource:
            if grad_y.dtype.base_dtype == D.resource:
                raise TypeError(f"Input gradient {grad_y} for resource tensor {y} should "
                                "not be a resource")
        else:
            raise TypeError(f"Tensor {y} with type {y.dtype.base_dtype.name} must be numeric "
                            "to obtain a default gradient")
        out.append(identity(grad_y, name=f"grad_ys_{i}"))
    return out


def _is_resource_variable(x: Any) -> bool:
    return getattr(x, "_is_resource_variable", False) and hasattr(x, "handle")


def gradients(ys: Any, xs: Any, grad_ys: Any = None, name: str = "gradients",
              colocate_gradients_with_ops: bool = False, gate_gradients: bool = False,
              aggregation_method: Optional[int] = None, stop_gradients: Any = None,
              unconnected_gradients: Any = UnconnectedGradients.NONE) -> List[Any]:
    """`tf.gradients`: symbolic d(sum(ys))/d(xs), one Tensor/IndexedSlices/None per x.

    `grad_ys` weights each y (default ones), `stop_gradients` are treated as constants,
    `unconnected_gradients='zero'` returns zeros instead of None. Decided at graph build
    as TF does: integer paths and ops without gradients give None. The values are
    computed at run time by torch autograd; see the module docstring.
    """
    del colocate_gradients_with_ops
    if _context.executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    ys = _as_list(ys)
    xs = [variable_source(x) if _is_resource_variable(x) else x for x in _as_list(xs)]
    if grad_ys is not None:
        grad_ys = _as_list(grad_ys)
    try:
        unconnected = UnconnectedGradients(unconnected_gradients)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: "
                         f"'{unconnected_gradients}'") from None
    stop_gradients = [] if stop_gradients is None else _as_list(stop_gradients)
    if grad_ys is None:
        grad_ys = [None] * len(ys)
    if aggregation_method is None:
        aggregation_method = AggregationMethod.DEFAULT
    graph = _graph_of(list(ys) + list(xs) + list(stop_gradients) + list(grad_ys))
    with graph.as_default(), name_scope(name, "gradients",
                                        list(ys) + list(xs) + list(stop_gradients) +
                                        list(grad_ys)) as grad_scope:
        ys = convert_n_to_tensor_or_indexed_slices(ys, name="y")
        if any(isinstance(y, IndexedSlices) for y in ys):
            raise NotImplementedError("tf.gradients of IndexedSlices ys is not supported by "
                                      "tf1compat; convert them with tf.convert_to_tensor")
        xs = [x if isinstance(x, (Tensor, IndexedSlices)) else
              convert_to_tensor(x, name=f"x_{i}", as_ref=True) for i, x in enumerate(xs)]
        if any(isinstance(x, IndexedSlices) for x in xs):
            raise NotImplementedError("tf.gradients with respect to IndexedSlices is not "
                                      "supported by tf1compat")
        stop_tensors = [convert_to_tensor(s) for s in stop_gradients]
        grad_y_tensors = _default_grad_ys(grad_ys, ys)
        grad_values = [GradValue(t.name, t.shape, real=t) for t in grad_y_tensors]
        from tf1compat.autodiff.custom_gradient import build_custom_gradient
        result = walk(graph, grad_scope, ys, xs, grad_values,
                      {t._op for t in stop_tensors}, aggregation_method,
                      bool(gate_gradients), build_custom_gradient)
        if result.walked_gradient_ops:
            result.grads = _through_gradient_reads(graph, xs, ys, result.grads)
        outputs = _materialize(graph, grad_scope, ys, xs, grad_y_tensors, result,
                               {t._op for t in stop_tensors})
    final: List[Any] = []
    for x, g in zip(xs, outputs):
        if g is None and unconnected == UnconnectedGradients.ZERO:
            from tf1compat.ops.creation_ops import zeros_like
            g = zeros_like(x, dtype=_value_dtype(x))
        final.append(g)
    return final


def _through_gradient_reads(graph: Graph, xs: List[Tensor], ys: List[Tensor],
                            grads: List[Optional[GradValue]]) -> List[Optional[GradValue]]:
    """A gradient of gradients: None for the xs TF's gradient graph does not connect
    (see grad_reads.reaches_through_reads). The walk connects every x that reaches a
    gradient op's forward inputs, where autograd then finds no path and gives zeros."""
    from tf1compat.autodiff.custom_gradient import forward_reads_of
    info = _store(graph, "tf1compat.autodiff.grad_info")
    cache: Dict[Operation, Any] = {}

    def reads_of(op: Operation) -> Any:
        facts = info.get(op)
        if facts is None:
            return None
        if op not in cache:
            # (all of `between`, not only the graded ops: the sources' reads count)
            reads = forward_reads(facts.between, facts.stop_ops, facts.custom_ops,
                                  forward_reads_of, values_only=True)
            cache[op] = (len(op._attrs["Ty"]) + len(op._attrs["Tx"]), set(reads))
        return cache[op]
    return [g if g is None or reaches_through_reads(x, ys, reads_of) else None
            for x, g in zip(xs, grads)]


def variable_source(var: Any, graph: Optional[Graph] = None) -> Tensor:
    """The tensor a resource variable is differentiated through in `graph` (default:
    the current one): its handle; inside a function traced under eager execution, the
    handle the trace captured for it (which the function's reads of it consume)."""
    handle = var.handle
    if getattr(handle, "_is_eager_tensor", False):
        graph = get_default_graph() if graph is None else graph
        capture = getattr(graph, "_capture_eager_tensor", None)
        if capture is None:
            raise RuntimeError("tf.gradients is not supported when eager execution is "
                               "enabled. Use tf.GradientTape instead.")
        return capture(handle)
    return handle


_NAME_RE = re.compile(r"^(.*):(\d+)$")


def _split_name(name: str) -> tuple:
    match = _NAME_RE.match(name)
    if match is None:
        return name, 0
    return match.group(1), int(match.group(2))


def _materialize(graph: Graph, grad_scope: str, ys: List[Tensor], xs: List[Tensor],
                 grad_ys: List[Tensor], result: WalkResult, stop_ops: Set[Operation]
                 ) -> List[Any]:
    """Adds the gradient op and the tensors tf.gradients returns."""
    from tf1compat.autodiff.custom_gradient import captures_of, forward_reads_of
    for op in result.walked_gradient_ops:
        op._attrs["create_graph"] = True
    sources: List[Tensor] = []

    def source_index(t: Tensor) -> int:
        if t not in sources:
            sources.append(t)
        return sources.index(t)

    plan: List[Any] = []
    loop_parts: List[Any] = []        # slices accumulated over loop iterations
    enablers: Set[int] = set()        # sources only there to make the gathers' rows leaves
    dense: Set[int] = set()
    for x, g in zip(xs, result.grads):
        if g is None or g.real is not None:
            plan.append(g)
        elif g.is_sparse:
            how = []
            for part in g.parts:
                if part.loop is None:
                    how.append((part, source_index(part.gather._outputs[0])))
                    continue
                enablers.add(source_index(x))
                how.append((part, -1 - len(loop_parts)))
                loop_parts.append((part, source_index(x)))
            plan.append(how)
        else:
            dense.add(source_index(x))
            plan.append(source_index(x))
    if not sources:
        return [None if g is None else g.real for g in result.grads]
    captures: List[Tensor] = []
    for op in result.custom_ops:
        for t in captures_of(op):
            if t not in captures:
                captures.append(t)
    used_ys = [(y, dy) for y, dy in zip(ys, grad_ys) if y._op in result.between]
    slice_specs = [dataclasses.replace(loop_slices.register(part.loop), source=k)
                   for part, k in loop_parts]
    grad_op = apply_op("SymbolicGradient",
                       [[y for y, _ in used_ys], sources, [dy for _, dy in used_ys],
                        captures],
                       {"Tg": [_value_dtype(t) for t in sources] +
                        [d for spec in slice_specs for d in spec.dtypes],
                        "loop_slices": slice_specs,
                        "slice_enablers": sorted(enablers - dense)},
                       name="SymbolicGradient")
    _store(graph, "tf1compat.autodiff.grad_info")[grad_op] = GradInfo(
        set(stop_ops), set(result.between), list(result.custom_ops),
        forward_reads(result.graded, set(stop_ops), result.custom_ops, forward_reads_of))
    made: Dict[str, Tensor] = {}
    outputs: List[Any] = []
    for x, g, how in zip(xs, result.grads, plan):
        if g is None or g.real is not None:
            outputs.append(None if g is None else g.real)
        elif g.is_sparse:
            how = [(part, k if k >= 0 else len(sources) + 2 * (-1 - k)) for part, k in how]
            outputs.append(_sparse_gradient(graph, grad_scope, g, how, grad_op))
        else:
            outputs.append(_named(graph, g.name, grad_op._outputs[how], made, xs, result,
                                  plan, grad_op))
    return outputs


def _named(graph: Graph, name: str, value: Tensor, made: Dict[str, Tensor], xs: List[Tensor],
           result: WalkResult, plan: List[Any], grad_op: Operation) -> Tensor:
    """An Identity of `value` carrying TF's name; an IdentityN for "op:k" names, whose
    other outputs are the gradients TF's op produced alongside (unstack:0, unstack:1)."""
    from tf1compat.ops.array_ops import identity, identity_n
    if name in made:
        return made[name]
    op_name, index = _split_name(name)
    scope, _, leaf = op_name.rpartition("/")
    siblings = _siblings(op_name, result, plan, grad_op)
    with name_scope(scope + "/" if scope else None):
        if index == 0 and len(siblings) <= 1:
            made[name] = identity(value, name=leaf)
            return made[name]
        count = max(siblings) + 1
        outs = identity_n([siblings.get(k, value) for k in range(count)], name=leaf)
    for k, t in enumerate(outs):
        made[f"{op_name}:{k}"] = t
    return made[name]


def _siblings(op_name: str, result: WalkResult, plan: List[Any], grad_op: Operation
              ) -> Dict[int, Tensor]:
    """Gradient-op outputs whose TF names are outputs of the op named `op_name`."""
    found: Dict[int, Tensor] = {}
    for g, how in zip(result.grads, plan):
        if g is None or g.real is not None or g.is_sparse:
            continue
        name, k = _split_name(g.name)
        if name == op_name:
            found[k] = grad_op._outputs[how]
    return found


def _sparse_gradient(graph: Graph, grad_scope: str, g: GradValue, how: List[Any],
                     grad_op: Operation) -> IndexedSlices:
    """TF's _GatherV2Grad for each gather, then the concat aggregation of several."""
    from tf1compat.ops.array_ops import (concat, expand_dims, identity, reshape, shape, size,
                                         squeeze)
    from tf1compat.ops.resource_variable_ops import variable_shape
    parts = []
    for part, index in how:
        if part.loop is not None:
            parts.append(_loop_slices(part, grad_op._outputs[index], grad_op._outputs[index + 1]))
            continue
        gather = part.gather
        params, indices = gather._inputs[0], gather._inputs[1]
        if gather._type in ("GatherNd", "ResourceGatherNd"):   # TF's _GatherNdGrad and
            with name_scope(part.scope):                        # _ResourceGatherNdGrad
                dense_shape = apply_op1("VariableShape", [params],
                                        {"out_type": indices.dtype.base_dtype}) \
                    if gather._type == "ResourceGatherNd" else \
                    shape(params, out_type=indices.dtype.base_dtype)
                flat_indices = squeeze(indices, axis=-1)
            # The values are the incoming gradient itself, under its TF name.
            values_scope, _, values_leaf = _split_name(part.values_name)[0].rpartition("/")
            with name_scope(values_scope + "/" if values_scope else None):
                values = identity(grad_op._outputs[index], name=values_leaf)
            parts.append(IndexedSlices(values, flat_indices, dense_shape))
            continue
        with name_scope(part.scope):
            # ResourceGather's gradient (TF's _GatherGrad) reads the variable's shape.
            params_shape = variable_shape(params) if gather._type == "ResourceGather" \
                else shape(params)
            indices_size = expand_dims(size(indices), 0)
            values_shape = concat([indices_size, params_shape[1:]], 0)
            values = reshape(grad_op._outputs[index], values_shape)
            flat_indices = reshape(indices, indices_size)
        parts.append(IndexedSlices(values, flat_indices, params_shape))
    if len(parts) == 1:
        return parts[0]
    values_scope, _, values_leaf = _split_name(g.values_name)[0].rpartition("/")
    indices_leaf = _split_name(g.indices_name)[0].rpartition("/")[2]
    index_dtypes = {p.indices.dtype.base_dtype for p in parts}
    if len(index_dtypes) > 1:
        from tf1compat.ops.math_ops import cast
        parts = [IndexedSlices(p.values, cast(p.indices, D.int64), p.dense_shape)
                 for p in parts]
    with name_scope(values_scope + "/" if values_scope else None):
        values = concat([p.values for p in parts], 0, name=values_leaf)
        indices = concat([p.indices for p in parts], 0, name=indices_leaf)
    return IndexedSlices(values, indices, parts[0].dense_shape)


def _loop_slices(part: Any, indices: Tensor, values: Tensor) -> IndexedSlices:
    """The accumulated slices of a loop's gathers (gradient-op outputs `indices`,
    `values`) under the names of TF's accumulator Exits."""
    from tf1compat.ops.array_ops import identity, shape
    leaves = [_split_name(n)[0].rpartition("/")[2] for n in part.names]
    captured = part.loop_input
    with name_scope(part.scope):
        indices = identity(indices, name=leaves[0])
        values = identity(values, name=leaves[1])
        if captured.dtype.base_dtype == D.resource:
            dense_shape = apply_op1("VariableShape", [captured], {"out_type": D.int32},
                                    name=leaves[2])
        else:
            dense_shape = shape(captured, name=leaves[2])
    return IndexedSlices(values, indices, dense_shape)


# -- tf.hessians -------------------------------------------------------------------------------

def hessians(ys: Any, xs: Any, name: str = "hessians", colocate_gradients_with_ops: bool = False,
             gate_gradients: bool = False, aggregation_method: Optional[int] = None
             ) -> List[Tensor]:
    """`tf.hessians`: the Hessian of sum(ys) with respect to each x, shaped x.shape * 2.

    TF differentiates each element of the first gradient inside a while loop; tf1compat
    adds one gradient op that computes the rows of the Jacobian of the flattened first
    gradient with autograd (create_graph on the first gradient op).
    """
    from tf1compat.ops.array_ops import concat, reshape, shape, size
    del name
    xs = _as_list(xs)
    first = gradients(ys, xs, colocate_gradients_with_ops=colocate_gradients_with_ops,
                      gate_gradients=gate_gradients, aggregation_method=aggregation_method)
    out = []
    for gradient, x in zip(first, xs):
        gradient = reshape(gradient, [-1])
        n = size(x)
        del n
        # Variables are differentiated through the tensor tf.gradients uses for them (the
        # resource handle or the ref tensor).
        if _is_resource_variable(x):
            x_t = x.handle
        elif isinstance(x, Tensor):
            x_t = x
        else:
            x_t = convert_to_tensor(x, as_ref=True)
        jac = jacobian_op(gradient, x_t)
        if jac is None:
            # TF writes the None second derivative into a TensorArray, which fails so.
            raise ValueError("None values not supported.")
        x_shape = shape(x)
        out.append(reshape(jac, concat((x_shape, x_shape), 0)))
    return out


def jacobian_op(y: Tensor, x: Tensor, stop_ops: Optional[Set[Operation]] = None
                ) -> Optional[Tensor]:
    """d y[i] / d x for every i of a vector `y`, stacked: one gradient op in jacobian
    mode (`stop_ops`' outputs are constants, as tf.gradients' stop_gradients); None
    when `y` does not depend on `x`."""
    stop_ops = set() if stop_ops is None else stop_ops
    from tf1compat.autodiff.custom_gradient import (build_custom_gradient, captures_of,
                                                    forward_reads_of)
    graph = y.graph
    with name_scope("gradients") as grad_scope:
        ones = GradValue(y.name, y.shape)
        result = walk(graph, grad_scope, [y], [x], [ones], stop_ops,
                      AggregationMethod.DEFAULT, False, build_custom_gradient)
        for op in result.walked_gradient_ops:
            op._attrs["create_graph"] = True
        if result.grads[0] is None:
            return None
        captures: List[Tensor] = []
        for op in result.custom_ops:
            captures.extend(t for t in captures_of(op) if t not in captures)
        op = apply_op("SymbolicGradient", [[y], [x], [], captures],
                      {"Tg": [_value_dtype(x)], "jacobian": True}, name="SymbolicGradient")
        _store(graph, "tf1compat.autodiff.grad_info")[op] = GradInfo(
            set(stop_ops), set(result.between), list(result.custom_ops),
            forward_reads(result.graded, stop_ops, result.custom_ops, forward_reads_of))
    return op._outputs[0]
