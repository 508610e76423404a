"""Conditionals: `tf.cond`, `tf.case`, `tf.switch_case`, `smart_cond`.

Both branches are traced at graph build as regions of the graph (ops/_regions.py) and
become one `If` op whose inputs are the predicate and the tensors the branches capture
from outside. At run time the If kernel evaluates the predicate and runs only the taken
branch's compiled function, so side effects in the untaken branch (assign, Print,
Assert, py_func) do not happen, while tensors created outside the branches and used in
them are computed before the If op, as in TF.

Names follow TF1's v1 control flow where they are visible to users: branch ops are named
`cond/add`, ..., and the outputs are Identity ops named `cond/Merge`, `cond/Merge_1`, ...
(TF's Merge outputs). Deliberate differences: TF's Switch/switch_t/switch_f/pred_id and
per-capture Switch ops do not exist here; the construct itself is one op `cond/If`.
`tf.switch_case` mirrors TF's v2 `Case` op naming (`switch_case/indexed_case`, then
`.../Identity`), but its branch ops are regions of the graph (TF keeps them in functions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Sequence

import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import (apply_op, control_dependencies, get_default_graph,
                                       name_scope)
from tf1compat.framework.op_def import REQUIRED, Type, TypeList, declare
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._regions import (CondRegion, ControlFlowRegion, slice_records,
                                     external_inputs_and_read_tensors)
from tf1compat.ops._shape_rules import _shape_text
from tf1compat.ops.function_call_ops import (case_function_kernel, declared_output_shapes,
                                             if_function_kernel)
from tf1compat.util import nest

__all__ = ["cond", "case", "switch_case", "smart_case", "smart_cond", "smart_constant_value",
           "Branch", "merge_shapes", "branch_outputs", "build_branch"]


@dataclass(eq=False)
class Branch:
    """A traced branch: its region, its flat outputs (region tensors) and its captures."""
    region: ControlFlowRegion
    outputs: List[Tensor]
    captures: List[Tensor] = field(default_factory=list)
    controls: List[Operation] = field(default_factory=list)
    reads: List[str] = field(default_factory=list)     # variables read from outside
    # Gathers whose indices and outputs a gradient run records, and the captured tensor
    # they gather from (autodiff/loop_slices.py: a tf.cond in a loop body).
    slice_sites: List[Operation] = field(default_factory=list)
    sliced: Optional[Tensor] = None

    def __repr__(self) -> str:
        return f"<branch {self.region.name!r}: {len(self.outputs)} outputs>"


def _unpack_singleton(res: Any) -> Any:
    """A one-element list or tuple becomes its element (non-strict cond/case)."""
    if isinstance(res, (list, tuple)) and len(res) == 1:
        return res[0]
    return res


def merge_shapes(shapes: Sequence[TensorShape]) -> TensorShape:
    """TF's Merge shape function: equal ranks keep the dimensions all branches agree on."""
    first = shapes[0]
    if first.rank is None:
        return unknown_shape()
    dims = list(first.as_list())
    for s in shapes[1:]:
        if s.rank is None or s.rank != first.rank:
            return unknown_shape()
        for i, d in enumerate(s.as_list()):
            if dims[i] != d:
                dims[i] = None
    return TensorShape(dims)


def _output_shapes_rule(ctx: Any) -> List[TensorShape]:
    return declared_output_shapes(ctx, "Tout")


def _compiled(kctx: Any, branch: Branch) -> Callable[[tuple], tuple]:
    fn = kctx.compile_function(branch.captures, branch.outputs, branch.region)
    state = fn.state
    raw = fn.fn
    # Through the running thread's gradient view of the store (runtime/session_state.py).
    return lambda values: raw(values, state.view())


def _branch_runner(node: Operation, kctx: Any, branches: Sequence[Branch],
                   first_input: int) -> Callable[[int, tuple], Any]:
    """run(k, inputs) -> outputs of branch k; each branch compiles on first use."""
    position = {t: i for i, t in enumerate(node.inputs[first_input:])}
    picks = [tuple(position[t] for t in b.captures) for b in branches]
    compiled: List[Optional[Callable[[tuple], tuple]]] = [None] * len(branches)
    single = len(node.outputs) == 1

    def run(k: int, values: tuple) -> Any:
        fn = compiled[k]
        if fn is None:
            fn = compiled[k] = _compiled(kctx, branches[k])
        out = fn(tuple([values[i] for i in picks[k]]))
        return out[0] if single else out
    return run


def variable_reads(kctx: Any, keys: Sequence[str]) -> Callable[[], None]:
    """Reads each variable once (FailedPreconditionError if uninitialized), as TF reads
    the variables a construct uses before it chooses a branch or starts looping."""
    keys = tuple(dict.fromkeys(keys))
    state = kctx.state
    if not keys:
        return lambda: None

    def touch() -> None:
        for key in keys:
            if key not in state:     # (a value held in another layout counts: `in`)
                state[key]
    return touch


def _if_kernel(node: Operation, kctx: Any) -> Callable[..., Any]:
    if not isinstance(node.attrs["then_branch"], Branch):
        return if_function_kernel(node, kctx)      # an imported graph's functions
    branches = [node.attrs["else_branch"], node.attrs["then_branch"]]
    run = _branch_runner(node, kctx, branches, 1)
    touch = variable_reads(kctx, branches[0].reads + branches[1].reads)
    recording = _slice_recorder(node, kctx, branches)

    def if_(pred: Any, *values: Any) -> Any:
        touch()
        k = 1 if pred else 0
        if branches[0].sliced is not None and torch.is_grad_enabled():
            return recording(k, values)
        return run(k, values)
    return if_


def _slice_recorder(node: Operation, kctx: Any, branches: Sequence[Branch]
                    ) -> Callable[[int, tuple], Any]:
    """For an If in a loop body whose gathers a gradient takes IndexedSlices of (each
    branch's `sliced` set, autodiff/loop_slices.py): runs a branch with those gathers'
    indices and outputs as extra outputs and records them with the branch taken and
    the gathered tensor's row count (slice_records)."""
    position = {t: i for i, t in enumerate(node.inputs[1:])}
    single = len(node.outputs) == 1
    compiled: dict = {}

    def record(k: int, values: tuple) -> Any:
        branch = branches[k]
        sites = tuple(branch.slice_sites)
        if compiled.get(k, (None,))[0] != sites:
            extra = [t for g in sites for t in (g.inputs[1], g.outputs[0])]
            fn = kctx.compile_function(branch.captures, branch.outputs + extra, branch.region)
            compiled[k] = (sites, fn)
        fn = compiled[k][1]
        out = fn.fn(tuple([values[position[t]] for t in branch.captures]), fn.state.view())
        n = len(branch.outputs)
        params = values[position[branch.sliced]]
        if not isinstance(params, torch.Tensor):        # a resource variable's handle
            params = kctx.state.view()[params]
        extra = out[n:]
        slice_records()[node] = (k, params.shape[0],
                                 [(extra[j], extra[j + 1]) for j in range(0, len(extra), 2)])
        return out[0] if single else tuple(out[:n])
    return record


def _case_kernel(node: Operation, kctx: Any) -> Callable[..., Any]:
    branches = node.attrs["branches"]
    if not isinstance(branches[0], Branch):
        return case_function_kernel(node, kctx)    # an imported graph's functions
    run = _branch_runner(node, kctx, branches, 1)
    touch = variable_reads(kctx, [k for b in branches for k in b.reads])
    last = len(branches) - 1

    def case_(index: Any, *values: Any) -> Any:
        touch()
        k = int(index)
        return run(k if 0 <= k <= last else last, values)
    return case_


# The branches' ops are regions of the graph (or, in imported graphs, functions of the
# library: ops/function_call_ops.py); these ops only choose which one runs.
def _only_checks(node: Operation) -> bool:
    """Whether both branches of a traced If only check values (tf.Assert's AssertGuard:
    an Assert in one branch, nothing in the other): no op in them changes anything."""
    branches = (node.attrs["then_branch"], node.attrs["else_branch"])
    if not all(isinstance(b, Branch) for b in branches):
        return False
    for branch in branches:
        for op in branch.region.ops:
            od = op._op_def
            if od.stateful and not od.reads_only and not (
                    od.only_checks is not None and od.only_checks(op)):
                return False
    return True


declare("If", inputs=["cond: Tcond", "input: Tin"], outputs=["output: Tout"],
        attrs={"Tcond": Type(), "Tin": TypeList(), "Tout": TypeList(),
               "then_branch": REQUIRED, "else_branch": REQUIRED, "output_shapes": []},
        shape=_output_shapes_rule, kernel=_if_kernel, stateful=True, view=True,
        keeps_devices=True, only_checks=_only_checks,
        not_one_node="its branches are traced regions (graph_export.py writes them)",
        doc="Runs then_branch or else_branch (traced regions) on the captured inputs.")

declare("Case", inputs=["branch_index: int32", "input: Tin"], outputs=["output: Tout"],
        attrs={"Tin": TypeList(), "Tout": TypeList(), "branches": REQUIRED,
               "output_shapes": []},
        shape=_output_shapes_rule, kernel=_case_kernel, stateful=True, view=True,
        keeps_devices=True,
        not_one_node="its branches are traced regions",
        doc="Runs branches[branch_index] (the last one when out of range).")


# -- tracing branches -----------------------------------------------------------------------

def _to_flat_tensors(result: Any) -> List[Any]:
    """Flattens a branch result: TensorArrays become their flow, values become tensors."""
    from tf1compat.ops.tensor_array_ops import TensorArray
    out = []
    for x in nest.flatten(result):
        if isinstance(x, TensorArray):
            x = x.flow
        out.append(x)
    return out


def branch_outputs(region: ControlFlowRegion, values: List[Any]) -> List[Tensor]:
    """Converts branch results to region tensors (inside `region`).

    Operations become an Identity of the predicate that runs after them (TF's pivot
    proxy); tensors from outside the region get an Identity in it, as TF's Switch.
    """
    from tf1compat.ops.array_ops import identity
    from tf1compat.ops.control_flow_ops import with_dependencies
    out = []
    for v in values:
        if isinstance(v, Operation):
            pivot = getattr(region, "pred", None)
            if pivot is None:
                raise TypeError("A loop body cannot return an Operation.")
            v = with_dependencies([v], pivot)
        else:
            v = convert_to_tensor(v)
            if v._op._control_flow_context is not region:
                v = identity(v)
                region.passthrough.add(v.op)
        out.append(v)
    return out


def build_branch(region: ControlFlowRegion, fn: Callable[[], Any], what: str) -> tuple:
    """Traces `fn` into `region`; returns (original result, Branch)."""
    def body() -> tuple:
        result = fn()
        if result is None:
            return None, None
        if isinstance(result, Operation):
            flat: List[Any] = [result]
        else:
            flat = _to_flat_tensors(_variables_to_tensors(result))
        return result, branch_outputs(region, flat)
    original, outputs = region.trace(body)
    if original is None:
        raise ValueError(f"'{what}' must have a return value.")
    branch = Branch(region, outputs)
    return original, branch


def _variables_to_tensors(result: Any) -> Any:
    # Variables returned from a branch are read as tensors (TF's convert_variables_to_tensors).
    def convert(x: Any) -> Any:
        if isinstance(x, (Tensor, Operation)) or not hasattr(x, "_as_graph_element"):
            return x
        from tf1compat.ops.tensor_array_ops import TensorArray
        if isinstance(x, TensorArray):
            return x
        return convert_to_tensor(x)
    if nest.is_nested(result):
        return nest.pack_sequence_as(result, [convert(x) for x in nest.flatten(result)])
    return convert(result)


def finish_branches(branches: Sequence[Branch]) -> tuple:
    """Captures of every branch (union, first-use order) and outside control inputs."""
    inputs: dict = {}
    controls: dict = {}
    reads: dict = {}
    for b in branches:
        b.captures, b.controls, read_tensors = external_inputs_and_read_tensors(b.region)
        b.reads = list(read_tensors)
        for t in b.captures:
            inputs[t] = None
        for c in b.controls:
            controls[c] = None
        for key, t in read_tensors.items():
            reads.setdefault(key, t)
    # Variables the branches read become inputs too (unused by the kernel, which reads the
    # store): TF reads them before its Switch, and tf.gradients needs the edge.
    for t in reads.values():
        inputs.setdefault(t, None)
    return list(inputs), list(controls)


def _rebuild(original_flat: List[Any], outputs: List[Tensor]) -> List[Any]:
    """Output tensors, with TensorArrays rebuilt around their new flow."""
    from tf1compat.ops.tensor_array_ops import TensorArray
    out = []
    for orig, t in zip(original_flat, outputs):
        out.append(orig.with_flow(t) if isinstance(orig, TensorArray) else t)
    return out


# -- tf.cond --------------------------------------------------------------------------------

def _check_pred(pred: Any, scope: str) -> Tensor:
    """TF's Switch checks: a bool scalar (TypeError / ValueError with TF's messages)."""
    pred = convert_to_tensor(pred)
    if pred.dtype.base_dtype != D.bool:
        raise TypeError(f"Input 'pred' of 'Switch' Op has type {pred.dtype.base_dtype.name} "
                        "that does not match expected type of bool.")
    if pred.shape.rank is not None and pred.shape.rank != 0:
        node = pred._as_node_def_input()
        text = _shape_text(pred.shape)
        raise ValueError(f"Shape must be rank 0 but is rank {pred.shape.rank} for "
                         f"'{{{{node {scope}Switch}}}} = Switch[T=DT_BOOL]({node}, {node})' "
                         f"with input shapes: {text}, {text}.")
    return pred


def cond(pred: Any, true_fn: Optional[Callable[[], Any]] = None,
         false_fn: Optional[Callable[[], Any]] = None, strict: bool = False,
         name: Optional[str] = None, fn1: Optional[Callable[[], Any]] = None,
         fn2: Optional[Callable[[], Any]] = None) -> Any:
    """`tf.cond`: `true_fn()` if `pred` else `false_fn()`; only the taken branch runs."""
    if fn1 is not None:
        if true_fn is not None:
            raise TypeError("cond(): 'true_fn' and 'fn1' may not be set simultaneously.")
        true_fn = fn1
    elif true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if fn2 is not None:
        if false_fn is not None:
            raise TypeError("cond(): 'false_fn' and 'fn2' may not be set simultaneously.")
        false_fn = fn2
    elif false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    if _context.executing_eagerly():
        with name_scope(name, "cond", [pred]):
            result = true_fn() if bool(pred) else false_fn()
            return result if strict else _unpack_singleton(result)

    with name_scope(name, "cond", [pred]) as scope:
        if isinstance(pred, bool):
            raise TypeError("'pred' must not be a Python bool.")
        pred = _check_pred(pred, scope)
        graph = get_default_graph()
        then_region = CondRegion(graph, scope + "cond_text", pred, branch=1)
        orig_t, then_b = build_branch(then_region, true_fn, "true_fn")
        else_region = CondRegion(graph, scope + "cond_text_1", pred, branch=0)
        orig_f, else_b = build_branch(else_region, false_fn, "false_fn")

        if not strict:
            orig_t = _unpack_singleton(orig_t)
            orig_f = _unpack_singleton(orig_f)
        try:
            nest.assert_same_structure(orig_t, orig_f)
        except TypeError as e:
            raise TypeError(f"Incompatible return types of 'true_fn' and 'false_fn': {e}")
        except ValueError as e:
            raise ValueError(f"Incompatible return values of 'true_fn' and 'false_fn': {e}")
        if not then_b.outputs or (nest.is_nested(orig_t) and not nest.flatten(orig_t)):
            raise ValueError("'true_fn' and 'false_fn' must return at least one result.")
        for x, y in zip(then_b.outputs, else_b.outputs):
            if x.dtype.base_dtype != y.dtype.base_dtype:
                raise ValueError(
                    "Outputs of 'true_fn' and 'false_fn' must have the same type(s). "
                    f"Received {x.dtype.name} from 'true_fn' and {y.dtype.name} from "
                    "'false_fn'.")
        outputs = _make_construct(
            "If", pred, [then_b, else_b],
            {"then_branch": then_b, "else_branch": else_b, "Tcond": D.bool}, "If", "Merge")
        original_flat = nest.flatten(orig_t) if not isinstance(orig_t, Operation) \
            else [orig_t]
        merged = _rebuild(original_flat, outputs)
        if isinstance(orig_t, Operation):
            result: Any = merged[0]
        else:
            result = nest.pack_sequence_as(orig_t, merged) if nest.is_nested(orig_t) else merged[0]
        return result if strict else _unpack_singleton(result)


def _make_construct(op_type: str, selector: Tensor, branches: List[Branch], attrs: dict,
                    op_name: str, output_name: str) -> List[Tensor]:
    """Creates the If/Case op for traced branches and its TF-named output Identities."""
    from tf1compat.ops.array_ops import identity
    inputs, controls = finish_branches(branches)
    outputs0 = branches[0].outputs
    attrs = dict(attrs)
    attrs["Tout"] = [t.dtype.base_dtype for t in outputs0]
    attrs["output_shapes"] = [merge_shapes([b.outputs[i].shape for b in branches])
                              for i in range(len(outputs0))]
    op = apply_op(op_type, [selector, inputs], attrs, name=op_name)
    if controls:
        op._add_control_inputs([c for c in controls if c not in op._control_inputs])
    return [identity(t, name=output_name) for t in op._outputs]


# -- tf.case -------------------------------------------------------------------------------

def _case_canonicalize(pred_fn_pairs: Any, exclusive: bool, name: str,
                       allow_python_preds: bool) -> tuple:
    import collections
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. "
                        f"Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, collections.OrderedDict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    elif isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = sorted(pred_fn_pairs.items(), key=lambda item: item[0].name)
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if isinstance(pred, Tensor):
            if pred.dtype != D.bool:
                raise TypeError(f"pred must be Tensor of type bool: {pred.name}")
        elif not allow_python_preds:
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        elif not isinstance(pred, bool):
            raise TypeError(f"pred must be a Tensor or bool, got: {pred}")
        if not callable(fn):
            raise TypeError(f"fn for pred {pred.name} must be callable.")
    if not pred_fn_pairs:
        return (), ()
    predicates, actions = zip(*pred_fn_pairs)
    return predicates, actions


def _assert_at_most_n_true(predicates: Sequence[Tensor], n: int, msg: str) -> Operation:
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.array_ops import stack
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.math_ops import cast, less_equal
    from tf1compat.ops.reduction_ops import reduce_sum
    preds_c = stack(list(predicates), name="preds_c")
    num_true = reduce_sum(cast(preds_c, D.int32), name="num_true_conds")
    condition = less_equal(num_true, constant(n, name="n_true_conds"))
    names = ", ".join(getattr(p, "name", "?") for p in predicates)
    error_msg = [f"{msg}: more than {n} conditions ({names}) evaluated as True:", preds_c]
    return Assert(condition, data=error_msg, summarize=len(predicates))


def _case_default_action(predicates: Sequence[Tensor], actions: Sequence[Callable]) -> tuple:
    from tf1compat.ops.array_ops import stack
    from tf1compat.ops.logging_ops import Assert
    k = len(predicates) - 1
    predicate, action = predicates[k], actions[k]
    other_predicates, other_actions = predicates[:k], actions[:k]

    def default_action() -> Any:
        others_msg = ("Implementation error: selected default action #%d was called, but "
                      "some of other predicates are True: " % k)
        default_msg = ("Input error: None of conditions evaluated as True:",
                       stack(list(predicates), name="preds_c"))
        with control_dependencies([
                _assert_at_most_n_true(other_predicates, n=0, msg=others_msg),
                Assert(predicate, data=default_msg)]):
            return action()
    return default_action, other_predicates, other_actions


def _case_helper(cond_fn: Callable[..., Any], pred_fn_pairs: Any, default: Any,
                 exclusive: bool, name: str, allow_python_preds: bool = False,
                 **cond_kwargs: Any) -> Any:
    import functools
    predicates, actions = _case_canonicalize(pred_fn_pairs, exclusive, name,
                                             allow_python_preds)
    with name_scope(name, "case", [predicates]):
        if default is None:
            default, predicates, actions = _case_default_action(predicates, actions)
        fn = default
        for predicate, action in reversed(list(zip(predicates, actions))):
            fn = functools.partial(cond_fn, predicate, true_fn=action, false_fn=fn,
                                   **cond_kwargs)
        if exclusive:
            with control_dependencies([
                    _assert_at_most_n_true(predicates, n=1,
                                           msg="Input error: exclusive=True")]):
                return fn()
        return fn()


def case(pred_fn_pairs: Any, default: Optional[Callable[[], Any]] = None,
         exclusive: bool = False, strict: bool = False, name: str = "case") -> Any:
    """`tf.case` (TF1): the first pair whose predicate is true runs, else `default`."""
    return _case_helper(cond, pred_fn_pairs, default, exclusive, name,
                        allow_python_preds=False, strict=strict)


# -- tf.switch_case -----------------------------------------------------------------------

def _switch_case_fns(branch_fns: Any, default: Any, branch_index: Any) -> List[Callable]:
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    if isinstance(branch_fns, dict):
        branch_fns = branch_fns.items()
    if all(callable(fn) for fn in branch_fns):
        branch_fns = list(enumerate(branch_fns))
    for pair in branch_fns:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [p[0] for p in branch_fns]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError("branch indices (keys) must form contiguous range of [0 to {}) but "
                         "found {{{}}}".format(len(keys), ",".join(map(str, sorted(keys)))))
    actions = [p[1] for p in sorted(branch_fns, key=lambda p: p[0])]
    if default is not None:
        actions.append(default)
    return actions


def switch_case(branch_index: Any, branch_fns: Any, default: Optional[Callable] = None,
                name: str = "switch_case") -> Any:
    """`tf.switch_case`: runs `branch_fns[branch_index]` (else `default`, else the last)."""
    with name_scope(name, "switch_case", [branch_index]) as scope:
        fns = _switch_case_fns(branch_fns, default, branch_index)
        if _context.executing_eagerly():
            k = int(branch_index)
            return fns[k if 0 <= k < len(fns) else len(fns) - 1]()
        graph = get_default_graph()
        originals, branches = [], []
        for k, fn in enumerate(fns):
            region = CondRegion(graph, f"{scope}branch_{k}", None, branch=k)
            original, b = build_branch(region, fn, "branch_fns")
            originals.append(original)
            branches.append(b)
        for original, b in zip(originals[1:], branches[1:]):
            nest.assert_same_structure(originals[0], original)
            for x, y in zip(branches[0].outputs, b.outputs):
                if x.dtype.base_dtype != y.dtype.base_dtype:
                    raise TypeError(f"Cannot reconcile tf.switch_case branch outputs: "
                                    f"{x.dtype.name} vs {y.dtype.name}")
        if branch_index.dtype != D.int32:
            from tf1compat.ops.math_ops import cast
            branch_index = cast(branch_index, D.int32)
        with name_scope("indexed_case") as case_scope:
            outputs = _make_construct("Case", branch_index, branches, {"branches": branches},
                                      case_scope, output_name="Identity")
        original = originals[0]
        flat = _rebuild(nest.flatten(original) if not isinstance(original, Operation)
                        else [original], outputs)
        if nest.is_nested(original):
            return nest.pack_sequence_as(original, flat)
        return flat[0]


# -- smart_cond -------------------------------------------------------------------------------

def smart_case(pred_fn_pairs: Any, default: Optional[Callable[[], Any]] = None,
               exclusive: bool = False, name: str = "smart_case") -> Any:
    """`case` over `smart_cond`: predicates that are Python bools or constant tensors
    are decided while building the graph (only the chosen function is called)."""
    return _case_helper(smart_cond, pred_fn_pairs, default, exclusive, name,
                        allow_python_preds=True)


def smart_constant_value(pred: Any) -> Optional[bool]:
    """The bool value of `pred` when known at graph build, else None."""
    if isinstance(pred, Tensor):
        value = constant_value(pred)
        return None if value is None else bool(value)
    if pred in {0, 1}:
        return bool(pred)
    if isinstance(pred, bool):
        return pred
    raise TypeError("`pred` must be a Tensor, or a Python bool, or 1 or 0. "
                    f"Found instead: {pred}")


def smart_cond(pred: Any, true_fn: Callable[[], Any], false_fn: Callable[[], Any],
               name: Optional[str] = None) -> Any:
    """Calls the branch directly when `pred` is known at graph build, else `tf.cond`."""
    if not callable(true_fn):
        raise TypeError(f"Argument `true_fn` must be callable. Received {true_fn}")
    if not callable(false_fn):
        raise TypeError(f"Argument `false_fn` must be callable. Received {false_fn}")
    value = smart_constant_value(pred)
    if value is not None:
        return true_fn() if value else false_fn()
    return cond(pred, true_fn=true_fn, false_fn=false_fn, name=name)
