"""Python gradient functions: `tf.RegisterGradient` overrides and `tf.custom_gradient`.

When `tf.gradients` meets an op whose gradient is a registered Python function, it calls
the function at graph build, as TF does, with the op and one placeholder-like tensor
(`GradientInput`) per trainable output standing for the incoming gradient. The graph ops
the function builds form the op's gradient sub-graph. A `CustomGradRecord` remembers it:
the placeholders, the returned input gradients, and the forward tensors it refers to
("captures"). At run time a plan that computes gradients wraps the op's kernel in a
torch.autograd.Function whose backward runs that sub-graph (grad_mode.py); the gradient
op provides the captured forward values.

The record is built once per op; later `tf.gradients` calls through the same op reuse it.
"""

from __future__ import annotations

import contextlib
import functools
import inspect
import itertools
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, Iterator, List, Optional, Set, Tuple

from tf1compat.framework.grad_names import Pass, is_trainable
from tf1compat.autodiff.walk import GradValue
from tf1compat.framework import context as _context
from tf1compat.framework.graph import apply_op1, get_default_graph, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import unknown_shape

__all__ = ["CustomGradRecord", "build_custom_gradient", "captures_of", "custom_gradient",
           "grad_pass_through", "recompute_grad"]

_KEY = "tf1compat.autodiff.custom_records"

declare("GradientInput", outputs=["output: dtype"],
        attrs={"dtype": Type(), "shape": unknown_shape()},
        shape=lambda ctx: [ctx.attrs["shape"]], kernel=None, grad="none",
        doc="The incoming gradient of a Python gradient function's sub-graph; always fed.")


@dataclass
class CustomGradRecord:
    """An op's gradient sub-graph built by its Python gradient function."""
    op: Operation
    grad_inputs: List[Optional[Tensor]]     # one per output: the incoming gradient
    input_grads: List[Optional[Tensor]]     # one per input: what the function returned
    captures: List[Tensor] = field(default_factory=list)
    # The op's own inputs and outputs the sub-graph reads (TF's gradient function reads
    # the forward op's values only where it uses them: autodiff/grad_reads.py).
    reads: List[Tensor] = field(default_factory=list)
    context: Any = None                     # control-flow context the sub-graph is in
    scope: str = ""                         # name scope the sub-graph was built in
    start_id: int = 0                       # ops with larger ids belong to the sub-graph
    end_id: int = 0                         # ... up to this id


def captures_of(op: Operation) -> List[Tensor]:
    record = op._graph._extras.get(_KEY, {}).get(op)
    return [] if record is None else list(record.captures)


def forward_reads_of(op: Operation) -> List[Tensor]:
    """The forward tensors `op`'s gradient sub-graph reads: its captures and those of the
    op's own inputs and outputs it uses."""
    record = op._graph._extras.get(_KEY, {}).get(op)
    return [] if record is None else list(record.captures) + list(record.reads)


def build_custom_gradient(op: Operation, fn: Callable[..., Any],
                          out_grads: List[Optional[GradValue]], grad_scope: str) -> list:
    """The walk's entries for `op` (None / Pass / GradValue), building its record once."""
    store = op._graph._extras.setdefault(_KEY, {})
    record = store.get(op)
    if record is None:
        record = store[op] = _build_record(op, fn, grad_scope)
    entries: list = []
    for g in record.input_grads:
        if g is None:
            entries.append(None)
        elif g in record.grad_inputs:
            entries.append(Pass(record.grad_inputs.index(g)))
        elif g._op._id <= record.start_id:
            # The function returned a forward tensor: its value exists outside the
            # backward, and TF returns that very tensor.
            entries.append(GradValue(g.name, g.shape, real=g))
        elif g.name.startswith(record.scope):
            # TF's name for it, in this call's scope (the sub-graph itself lives one
            # scope below, so the name is free for the tensor tf.gradients returns).
            entries.append(GradValue(grad_scope + g.name[len(record.scope):], g.shape))
        else:
            entries.append(GradValue(g.name, g.shape))
    return entries


@contextlib.contextmanager
def _without_control_dependencies(graph: Any) -> Iterator[None]:
    """No control dependencies for the ops made in the block (unlike
    `control_dependencies(None)`, the control-flow context stays)."""
    saved = graph._control_dependencies_stack
    graph._control_dependencies_stack = []
    try:
        yield
    finally:
        graph._control_dependencies_stack = saved


def _build_record(op: Operation, fn: Callable[..., Any], grad_scope: str) -> CustomGradRecord:
    graph = op._graph
    start = graph._next_id
    # The sub-graph goes one scope below TF's `<op>_grad/`, keeping TF's names of the
    # returned gradients free for the tensors tf.gradients returns.
    scope = grad_scope + "grad_graph/"
    # The sub-graph runs inside the gradient op, which carries the control dependencies
    # tf.gradients was called under (`minimize` under control_dependencies(update_ops)):
    # on the sub-graph's ops they would run those forward ops a second time.
    with graph.as_default(), name_scope(scope), _without_control_dependencies(graph):
        grad_inputs: List[Optional[Tensor]] = []
        for i, out in enumerate(op._outputs):
            if is_trainable(out):
                grad_inputs.append(apply_op1(
                    "GradientInput", [], {"dtype": out.dtype.base_dtype, "shape": out.shape},
                    name=f"grad_input_{i}" if i else "grad_input"))
            else:
                grad_inputs.append(None)
        result = fn(op, *grad_inputs)
        grads = list(result) if isinstance(result, (list, tuple)) else [result]
        if len(grads) != len(op._inputs):
            raise ValueError(f"Num gradients {len(grads)} generated for op {op.node_def} do "
                             f"not match num inputs {len(op._inputs)}")
        input_grads: List[Optional[Tensor]] = []
        for i, (t_in, g) in enumerate(zip(op._inputs, grads)):
            if g is None:
                input_grads.append(None)
                continue
            if isinstance(g, IndexedSlices):
                g = convert_to_tensor(g)
            elif not isinstance(g, Tensor):
                g = convert_to_tensor(g)
            try:
                g.set_shape(t_in.shape)
            except ValueError:
                raise ValueError(
                    "Incompatible shapes between op input and calculated input gradient. "
                    f"Forward operation: {op.name}. Input index: {i}. Original input shape: "
                    f"{t_in.shape}. Calculated input gradient shape: {g.shape}") from None
            input_grads.append(g)
    captures, reads = _captures(op, start, grad_inputs, input_grads)
    return CustomGradRecord(op, grad_inputs, input_grads, captures, reads,
                            graph._control_flow_context, scope, start, graph._next_id)


def _captures(op: Operation, start: int, grad_inputs: List[Optional[Tensor]],
              input_grads: List[Optional[Tensor]]) -> Tuple[List[Tensor], List[Tensor]]:
    """Forward tensors the sub-graph reads that it cannot compute from its own inputs, and
    the op's own inputs and outputs it reads."""
    from tf1compat.runtime.plan import state_key
    own = set(op._inputs) | set(op._outputs)
    boundary = own | {p for p in grad_inputs if p is not None}
    captures: List[Tensor] = []
    reads: Dict[Tensor, None] = dict.fromkeys(g for g in input_grads if g in own)
    seen: set = set()
    stack = [g._op for g in input_grads if g is not None and g not in boundary]
    while stack:
        node = stack.pop()
        if node in seen:
            continue
        seen.add(node)
        for t in node.inputs:
            if t in own:
                reads[t] = None
            if t in boundary:
                continue
            if t._op._id > start:
                stack.append(t._op)
            elif t._op._op_def.constant or state_key(t) is not None:
                continue
            elif t not in captures:
                captures.append(t)
        for c in node._control_inputs:
            if c._id > start:
                stack.append(c)
    return captures, list(reads)


def recomputed_feeds(feed: List[Tensor], record: CustomGradRecord) -> Set[Tensor]:
    """The sub-graph's fed tensors that a gradient inside it must run through.

    A Python gradient function may call `tf.gradients` itself (tensor2tensor's
    fn_with_custom_grad: `grad_fn` differentiates the wrapped function's outputs, which the
    identity Defun takes as inputs, with respect to its inputs). TF builds that gradient
    on the forward ops; a fed value would cut it. Such a tensor is computed again in the
    sub-graph from the other feeds instead, where every op between is deterministic
    (no stateful op but variable reads, no unfed placeholder: the values are then TF's);
    otherwise it stays fed and the plan takes the gradient through the fed value
    (runtime/plan.py, `_Binder.feed_through`).
    """
    from tf1compat.runtime.plan_checks import ancestors
    from tf1compat.runtime.plan_order import state_key
    grads, seen, stack = [], set(), [g._op for g in record.input_grads if g is not None]
    while stack:
        node = stack.pop()
        if node in seen or node._id <= record.start_id:
            continue
        seen.add(node)
        if node._op_def.grad_sources is not None and node.get_attr("f") is None:
            grads.append(node)
        stack.extend(t._op for t in node._inputs)
        stack.extend(node._control_inputs)
    fed = set(feed)
    chosen: Set[Tensor] = set()
    for g in grads:
        xs = set(g._op_def.grad_sources(g))
        upstream = ancestors(g._inputs[:len(g.get_attr("Ty"))], differentiable_only=True)
        for t in fed & upstream - xs:
            if xs & (ancestors(list(t._op._inputs)) - {t}):
                chosen.add(t)
    if not chosen:
        return chosen
    kept = fed - chosen

    def deterministic(t: Tensor, visiting: Set[Operation]) -> bool:
        if t in kept or state_key(t) is not None or t._op._op_def.constant:
            return True
        op = t._op
        if op in visiting:
            return True
        visiting.add(op)
        if op._op_def.stateful and not op._op_def.reads_only:
            return False        # a random op, an update: another run of it differs
        if not op._inputs and op._type.startswith("Placeholder"):
            return False
        return all(deterministic(i, visiting) for i in op._inputs)

    return {t for t in chosen if all(deterministic(i, set()) for i in t._op._inputs)}


# -- tf.custom_gradient --------------------------------------------------------------------

_uid = itertools.count(1)


def custom_gradient(f: Optional[Callable[..., Any]] = None) -> Callable[..., Any]:
    """Decorator: `f(*x) -> (y, grad_fn)`; the gradient of y is `grad_fn(dy)`.

    In graph mode, as in TF, the results and inputs pass through an `IdentityN` whose
    gradient is overridden with `grad_fn` (which receives `variables=` when f reads
    variables that are not among its inputs).
    """
    if f is None:
        return lambda fn: custom_gradient(fn)

    @functools.wraps(f)
    def decorated(*args: Any, **kwargs: Any) -> Any:
        if _context.executing_eagerly():
            from tf1compat.autodiff.eager_custom_gradient import eager_custom_gradient
            return eager_custom_gradient(f, args, kwargs)
        return _graph_mode(f, args, kwargs)
    return decorated


def _graph_mode(f: Callable[..., Any], args: tuple, kwargs: dict) -> Any:
    from tf1compat.util import nest
    from tf1compat.autodiff.registry import RegisterGradient
    from tf1compat.ops.array_ops import identity_n
    if kwargs:
        raise ValueError("The custom_gradient decorator currently supports keywords arguments "
                         "only when eager execution is enabled.")
    name = f"CustomGradient-{next(_uid)}"
    args = nest.map_structure(convert_to_tensor, args)
    result, grad_fn = f(*args)
    flat_args = nest.flatten(args)
    flat_result = nest.flatten(result)
    flat_result_len = len(flat_result)
    variables = _dependent_variables(flat_args, flat_result)
    spec = inspect.getfullargspec(grad_fn)
    takes_variables = ("variables" in spec.args or "variables" in spec.kwonlyargs or
                       spec.varkw is not None)
    if variables and not takes_variables:
        raise TypeError("@tf.custom_gradient grad_fn must accept keyword argument "
                        f"'variables', since function uses variables: {variables}")
    all_tensors = flat_result + flat_args + variables

    def tape_grad_fn(*result_grads: Any) -> list:
        grads = nest.pack_sequence_as(result, list(result_grads[:flat_result_len])) \
            if nest.is_nested(result) else result_grads[0]
        if not isinstance(grads, (list, tuple)):
            grads = [grads]
        if variables:
            input_grads, variable_grads = grad_fn(*grads, variables=variables)
            if len(variable_grads) != len(variables):
                raise ValueError("Must return gradient for each variable from "
                                 "@custom_gradient grad_fn.")
        else:
            input_grads = grad_fn(*grads)
            variable_grads = []
        input_grads = nest.flatten(input_grads)
        return [None] * flat_result_len + list(input_grads) + list(variable_grads)

    @RegisterGradient(name)
    def internal_grad_fn(unused_op: Any, *result_grads: Any) -> list:
        return tape_grad_fn(*result_grads)

    with get_default_graph().gradient_override_map({"IdentityN": name}):
        all_tensors = identity_n(all_tensors)
    return nest.pack_sequence_as(result, list(all_tensors[:flat_result_len]))


def _dependent_variables(inputs: List[Any], outputs: List[Any]) -> list:
    """Variables whose variable op lies between `inputs` and `outputs` (TF's rule)."""
    graph = get_default_graph()
    stop = {t for t in inputs if isinstance(t, Tensor)}
    found: List[str] = []
    seen: set = set()
    stack = [t._op for t in outputs if isinstance(t, Tensor) and t not in stop]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if op._op_def.is_variable and op.name not in found:
            found.append(op.name)
        if op._op_def.grad == "none" and not op._op_def.is_variable:
            continue
        for t in op._inputs:
            if t not in stop:
                stack.append(t._op)
    if not found:
        return []
    variables = []
    for key in ("variables", "local_variables"):
        for v in graph.get_collection(key):
            op = getattr(v, "op", None)
            if op is not None and op.name in found and v not in variables:
                variables.append(v)
    return sorted(variables, key=lambda v: v.name)


def grad_pass_through(f: Callable[..., Any]) -> Callable[..., Any]:
    """`tf.grad_pass_through`: `f`'s value with the gradient of the identity (a
    straight-through estimator, e.g. `grad_pass_through(tf.round)`), through TF's
    custom-gradient IdentityN."""
    @custom_gradient
    def pass_through(*args: Any, **kwargs: Any) -> Any:
        def grad(*grads: Any, **grad_kwargs: Any) -> Any:
            variables = grad_kwargs.get("variables")
            if variables is not None:
                return grads, [None] * len(variables)
            return grads
        return f(*args, **kwargs), grad
    return pass_through


def recompute_grad(f: Callable[..., Any]) -> Callable[..., Any]:
    """`tf.recompute_grad`: `f`, whose gradients are `f`'s own.

    TF wraps `f` in a custom gradient that re-runs it during backprop instead of keeping
    its activations (a memory saving, not a change of values). tf1compat's autograd keeps
    the activations; the results pass through the same IdentityN as TF's custom gradient
    (results, inputs and the variables `f` reads), so they carry TF's names, and
    gradients flow through it unchanged.
    """
    @functools.wraps(f)
    def wrapped(*args: Any) -> Any:
        if _context.executing_eagerly():
            return f(*args)
        from tf1compat.ops.array_ops import identity_n
        from tf1compat.util import nest
        args = nest.map_structure(convert_to_tensor, args)
        result = f(*args)
        flat_result = nest.flatten(result)
        flat_args = nest.flatten(args)
        variables = _dependent_variables(flat_args, flat_result)
        passed = identity_n(flat_result + flat_args + list(variables))
        return nest.pack_sequence_as(result, list(passed[:len(flat_result)]))
    return wrapped
