"""Training ops: TF's Apply*, SparseApply*, ResourceApply* and ResourceSparseApply* ops.

One table row per optimizer family declares its four ops with TF's op types, input names
and attrs: the ref form (`ApplyAdam`: `var: Ref(T)`, ..., output `out: Ref(T)`, which
aliases the variable), the resource form (`ResourceApplyAdam`: handles, no outputs) and
the sparse forms taking `grad` rows and `indices`. The update rules live in
_apply_rules.py.

Kernels update the variable and its slots IN PLACE in the session's store, under
`torch.no_grad()`, on the device where the variable lives — unless a stored tensor may
be visible to someone else (a value fetched or read earlier in the run, an autograd
graph that still holds it): then the update goes to a copy that replaces the stored
tensor, the store's usual copy-on-write discipline (state_ops.py). Values a run has
already produced therefore never change, while a training step on variables nobody
else holds allocates nothing. While other runs of the session are in flight (queue
runners, Hogwild training threads) every update copies: another thread may be reading
the stored tensor without holding anything the ownership test could see.

An update holds the locks of the variable and of all its slots for its whole
read-modify-write (runtime/session_state.py), so concurrent steps lose no update.

Batched updates: every op of a real floating dtype gives its kernel a `batch_key`, so a
plan that runs several of one type back to back (one optimizer step over many variables)
calls `_batched_update` once for all (runtime/codegen.py): one lock and ownership pass,
one multi-tensor kernel per operation of the update rule instead of one per variable
(`_apply_rules.FOREACH`: a fused kernel for Adam, the per-variable rule on
lists for the rest, _apply_many.py). Sparse ops batch too: each member's rows are
gathered, updated together with the per-variable rule's list form, and written back. The
batch declines (the ops then run one by one, with their errors) unless every variable is
distinct, initialized, of the op's dtype on one device, with matching shapes, the same
scalar inputs (the same tensors, or equal values) and, for sparse ops, distinct in-range
indices (TF applies a repeated index row after row: the op-by-op kernel does that).
For ref variables (keys bound when the plan is built) the keys, their distinctness and
their locks are found once per plan, not per step.

In a compiled training step the dense ref-variable updates may instead be computed in
the step's graph (runtime/compiled_steps.py `_joined`): each such kernel carries
`in_graph`, the update as a pure function of the variable's and slots' values.
"""

from __future__ import annotations

import os

import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import Type, declare, no_kernel
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._apply_many import many_form
from tf1compat.ops._apply_rules import FAST, FLOAT_DTYPES, FOREACH, GRAPH_RULES, RULES
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.resource_variable_ops import handle_shape
from tf1compat.ops.state_ops import merge_shapes, shape_text

__all__ = ["FAMILIES", "training_op", "exclusively_owned"]

_SUPPORTED = FLOAT_DTYPES + (torch.complex64, torch.complex128)


@dataclass(frozen=True)
class Family:
    """One optimizer family's op signatures (TF's input names; `*` marks state inputs)."""
    name: str
    dense: Tuple[str, ...]
    sparse: Optional[Tuple[str, ...]] = None
    attrs: Dict[str, Any] = field(default_factory=dict)
    resource_only: bool = False     # TF declares no ref-variable (Apply*) forms


_GRAD_NAMES = ("grad", "delta")

FAMILIES: Tuple[Family, ...] = (
    Family("GradientDescent", ("var*", "alpha", "delta")),
    Family("ProximalGradientDescent", ("var*", "alpha", "l1", "l2", "delta"),
           ("var*", "alpha", "l1", "l2", "grad", "indices")),
    Family("Momentum", ("var*", "accum*", "lr", "grad", "momentum"),
           ("var*", "accum*", "lr", "grad", "indices", "momentum"), {"use_nesterov": False}),
    Family("Adam", ("var*", "m*", "v*", "beta1_power", "beta2_power", "lr", "beta1", "beta2",
                    "epsilon", "grad"), None, {"use_nesterov": False}),
    Family("Adagrad", ("var*", "accum*", "lr", "grad"),
           ("var*", "accum*", "lr", "grad", "indices"), {"update_slots": True}),
    Family("ProximalAdagrad", ("var*", "accum*", "lr", "l1", "l2", "grad"),
           ("var*", "accum*", "lr", "l1", "l2", "grad", "indices")),
    Family("AdagradDA", ("var*", "gradient_accumulator*", "gradient_squared_accumulator*",
                         "grad", "lr", "l1", "l2", "global_step"),
           ("var*", "gradient_accumulator*", "gradient_squared_accumulator*", "grad",
            "indices", "lr", "l1", "l2", "global_step")),
    Family("RMSProp", ("var*", "ms*", "mom*", "lr", "rho", "momentum", "epsilon", "grad"),
           ("var*", "ms*", "mom*", "lr", "rho", "momentum", "epsilon", "grad", "indices")),
    Family("CenteredRMSProp", ("var*", "mg*", "ms*", "mom*", "lr", "rho", "momentum",
                               "epsilon", "grad"),
           ("var*", "mg*", "ms*", "mom*", "lr", "rho", "momentum", "epsilon", "grad",
            "indices")),
    Family("Adadelta", ("var*", "accum*", "accum_update*", "lr", "rho", "epsilon", "grad"),
           ("var*", "accum*", "accum_update*", "lr", "rho", "epsilon", "grad", "indices")),
    Family("Ftrl", ("var*", "accum*", "linear*", "grad", "lr", "l1", "l2", "lr_power"),
           ("var*", "accum*", "linear*", "grad", "indices", "lr", "l1", "l2", "lr_power"),
           {"multiply_linear_by_lr": False}),
    Family("FtrlV2", ("var*", "accum*", "linear*", "grad", "lr", "l1", "l2", "l2_shrinkage",
                      "lr_power"),
           ("var*", "accum*", "linear*", "grad", "indices", "lr", "l1", "l2",
            "l2_shrinkage", "lr_power"), {"multiply_linear_by_lr": False}),
    # The Keras optimizers' ops (tf.keras.optimizers.SGD / Adagrad / Adamax / Adam(amsgrad)).
    Family("KerasMomentum", ("var*", "accum*", "lr", "grad", "momentum"),
           ("var*", "accum*", "lr", "grad", "indices", "momentum"), {"use_nesterov": False},
           resource_only=True),
    Family("AdagradV2", ("var*", "accum*", "lr", "epsilon", "grad"),
           ("var*", "accum*", "lr", "epsilon", "grad", "indices"), {"update_slots": True}),
    Family("AdaMax", ("var*", "m*", "v*", "beta1_power", "lr", "beta1", "beta2", "epsilon",
                      "grad")),
    Family("AdamWithAmsgrad", ("var*", "m*", "v*", "vhat*", "beta1_power", "beta2_power", "lr",
                               "beta1", "beta2", "epsilon", "grad"), resource_only=True),
    # tf.contrib.opt's sign optimizers (dense forms only: TF has no sparse ones).
    Family("AddSign", ("var*", "m*", "lr", "alpha", "sign_decay", "beta", "grad")),
    Family("PowerSign", ("var*", "m*", "lr", "logbase", "sign_decay", "beta", "grad")),
)


@dataclass(frozen=True)
class _Layout:
    """Where each kind of input sits in one op's signature."""
    family: Family
    names: Tuple[str, ...]
    state: Tuple[int, ...]          # input indices of var and its slots
    scalars: Tuple[int, ...]        # scalar inputs, in order (not grad, not indices)
    grad: int
    indices: Optional[int]
    resource: bool


def _layout(family: Family, names: Sequence[str], resource: bool) -> _Layout:
    clean = tuple(n.rstrip("*") for n in names)
    state = tuple(i for i, n in enumerate(names) if n.endswith("*"))
    grad = next(i for i, n in enumerate(clean) if n in _GRAD_NAMES)
    indices = clean.index("indices") if "indices" in clean else None
    scalars = tuple(i for i, n in enumerate(clean)
                    if i not in state and i != grad and i != indices)
    return _Layout(family, clean, state, scalars, grad, indices, resource)


# -- the store: exclusive ownership ----------------------------------------------------------

_storage_use_count = getattr(torch._C, "_storage_Use_Count", None)


def exclusively_owned(state: Dict[str, Any], key: str, leaves: Any = False) -> bool:
    """Whether the stored tensor `state[key]` may be updated in place (the caller runs
    alone: `state.try_exclusive()`).

    True when nothing but the store references it: no other Python reference to the
    tensor (a ReadVariableOp value still alive in the run, a caller's handle) and no
    other tensor on its storage (a view, a numpy array handed out by a fetch, a value an
    autograd graph saved, a gradient run's leaf). A dense, non-overlapping layout is
    required as well. `leaves`: the running gradient run's leaves when the caller has
    them (`state.own_leaves()`, None for none), so that many keys look them up once.
    """
    t = state[key]
    # References: the store's, `t`, and getrefcount's argument.
    if sys.getrefcount(t) > 3 or not t.is_contiguous():
        return False
    if _storage_use_count is None:
        return False
    # Uses: this tensor's, and the temporary storage object's; plus the running gradient
    # run's own leaf of the variable (a view of it nothing else holds), which the update
    # may change along with it, as TF1 updates the buffer its reads alias.
    uses = 2
    if leaves is False:
        leaf = state.own_leaf(key)
    else:
        leaf = None if leaves is None else dict.get(leaves, key)
    if leaf is not None:
        if sys.getrefcount(leaf) > 3:     # the run's view, `leaf`, the argument
            return False
        uses += 1
    return _storage_use_count(t.untyped_storage()._cdata) <= uses


def _update_targets(state: Any, exclusive: bool, keys: Sequence[str]) -> List[torch.Tensor]:
    """The tensors an update writes: the stored ones where the store owns them alone
    (`exclusive`: no other run in flight), else copies, stored after the update.
    Copies are updated first and stored after: a concurrent run reading the variable
    sees its old or its new value, never a half update."""
    if not exclusive:
        return [state[key].detach().clone() for key in keys]
    leaves = state.own_leaves()
    return [state[key] if exclusively_owned(state, key, leaves)
            else state[key].detach().clone() for key in keys]


def _store_updates(state: Any, keys: Sequence[str], targets: Sequence[torch.Tensor]) -> None:
    """Stores the updated `targets`: copies replace the stored tensors; a tensor updated
    in place drops the run's gradient leaf of it (`state.updated`, done here for all
    keys with one look-up of the leaves)."""
    leaves = None
    for key, target in zip(keys, targets):
        if state[key] is not target:
            state[key] = target
        else:
            if leaves is None:
                leaves = state.own_leaves()
                if leaves is None:
                    leaves = {}
            dict.pop(leaves, key, None)


# -- shape rules -----------------------------------------------------------------------------------

def _scalar_check(ctx: Any, index: int) -> None:
    rank = ctx.shape(index).rank
    if rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {rank} {node_desc(ctx)}")


def _shape_rule(layout: _Layout) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        shapes = [handle_shape(ctx.inputs[i]) if layout.resource else ctx.shape(i)
                  for i in layout.state]
        merged = shapes[0]
        for s in shapes[1:]:
            merged = merge_shapes(ctx, merged, s)
        for i in layout.scalars:
            _scalar_check(ctx, i)
        grad = ctx.shape(layout.grad)
        if layout.indices is None:
            merged = merge_shapes(ctx, merged, grad)
        else:
            indices = ctx.shape(layout.indices)
            if indices.rank not in (None, 1):
                raise ValueError(f"Shape must be rank 1 but is rank {indices.rank} "
                                 f"{node_desc(ctx)}")
            if grad.rank is not None and grad.rank == 0:
                raise ValueError(f"Shape must be at least rank 1 but is rank 0 "
                                 f"{node_desc(ctx)}")
            if grad.rank is not None and indices.rank == 1:
                merge_shapes(ctx, TensorShape([indices.as_list()[0]]),
                             TensorShape([grad.as_list()[0]]))
            if grad.rank is not None:
                merged = merge_shapes(ctx, merged, TensorShape([None]).concatenate(
                    grad[1:]))
        return [] if layout.resource else [merged]
    return rule


# -- kernels ---------------------------------------------------------------------------------------

def _static_scalar(t: Any) -> Optional[float]:
    value = constant_value(t)
    if value is None:
        return None
    arr = np.asarray(value)
    if arr.ndim != 0 or arr.dtype.kind not in "fiu":
        return None
    return float(arr)


def _not_initialized(key: str, resource: bool) -> errors.OpError:
    if not resource:
        return errors.FailedPreconditionError(
            None, None, f"Attempting to use uninitialized value {key}")
    return errors.FailedPreconditionError(
        None, None, f"Could not find variable {key}. This could mean that the variable has "
                    "been deleted. In TF1, it can also mean the variable is uninitialized. "
                    "Debug info: container=localhost, status error message=Resource "
                    f"localhost/{key}/N10tensorflow3VarE does not exist.")


def exact_updates() -> bool:
    """`TF1COMPAT_EXACT_UPDATES=1`: every Apply* op runs its per-variable rule (TF's functor,
    operation by operation: TF's bits, but where TF's vectorised Eigen approximates a
    square root, docs/training.md) instead of the multi-tensor kernels (Adam's
    `torch._fused_adam_` rounds otherwise in the last bit) and the compiled steps'
    in-graph updates; read when a plan is built."""
    return os.environ.get("TF1COMPAT_EXACT_UPDATES", "0") not in ("", "0")


def _kernel(layout: _Layout) -> Callable[[Any, Any], Callable[..., Any]]:
    family = layout.family
    dense_rule = RULES[family.name]

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        from tf1compat.ops.state_ops import variable_device
        dtype = node.attrs["T"].torch_dtype
        if dtype not in _SUPPORTED:
            raise no_kernel(node, f"T=DT_{node.attrs['T'].name.upper()}")
        state = kctx.state
        attrs = dict(node.attrs)
        names = layout.names
        resource = layout.resource
        # The call's arguments: ref inputs are not passed (their keys are bound here).
        passed = [i for i in range(len(names)) if resource or i not in layout.state]
        where = {i: k for k, i in enumerate(passed)}
        state_args = [where[i] for i in layout.state] if resource else []
        keys = [] if resource else [kctx.ref_key(node.inputs[i]) for i in layout.state]
        ref_locks = None if resource else [state.lock(k) for k in sorted(set(keys))]
        device = None if resource else variable_device(kctx, node.inputs[layout.state[0]])
        scalar_args = [where[i] for i in layout.scalars]
        scalar_names = [names[i] for i in layout.scalars]
        grad_arg = where[layout.grad]
        index_arg = None if layout.indices is None else where[layout.indices]
        state_names = [names[i] for i in layout.state]
        rule = dense_rule
        static = [_static_scalar(node.inputs[i]) for i in layout.scalars]
        exact = exact_updates()
        if index_arg is None and family.name in FAST and not exact:
            rule = FAST[family.name](attrs, static) or dense_rule

        def fail(tensors: List[torch.Tensor], grad: torch.Tensor,
                 scalars: Sequence[torch.Tensor]) -> None:
            """Raises TF's error for the first mismatched shape or non-scalar input."""
            var = tensors[0]
            for name, t in zip(state_names[1:], tensors[1:]):
                if t.shape != var.shape:
                    raise errors.InvalidArgumentError(
                        None, None, f"var and {name} do not have the same shape"
                                    f"{shape_text(var.shape)} {shape_text(t.shape)}")
            for name, s in zip(scalar_names, scalars):
                if s.dim() != 0:
                    raise errors.InvalidArgumentError(
                        None, None, f"{name} is not a scalar: {shape_text(s.shape)}")
            raise errors.InvalidArgumentError(
                None, None, f"var and {names[layout.grad]} do not have the same shape"
                            f"{shape_text(var.shape)} {shape_text(grad.shape)}")

        def keys_of(args: tuple) -> List[str]:
            return [args[k] for k in state_args] if resource else keys

        def run(*args: Any) -> None:
            found_keys = keys_of(args)
            locks = ref_locks if ref_locks is not None else \
                [state.lock(k) for k in sorted(set(found_keys))]
            for lock in locks:      # sorted order: two updates never wait on each other
                lock.acquire()
            try:
                update(found_keys, args)
            finally:
                for lock in reversed(locks):
                    lock.release()

        def update(found_keys: List[str], args: tuple) -> None:
            grad = args[grad_arg]
            # (`align`: variables held in torch's layout, runtime/physical_store.py)
            store = state.align(found_keys, grad)
            tensors = []
            for key in found_keys:
                value = store.get(key)
                if value is None:
                    raise _not_initialized(key, resource)
                tensors.append(value)
            shape = tensors[0].shape
            where_to = tensors[0].device if device is None else device
            if grad.device != where_to:
                grad = grad.to(where_to)
            scalars = [args[k] for k in scalar_args]
            ok = all(t.shape == shape for t in tensors) and \
                (index_arg is not None or grad.shape == shape)
            for k, s in enumerate(scalars):
                if s.dim() != 0:
                    ok = False
                if s.device != where_to:
                    scalars[k] = s.to(where_to)
            if not ok:
                fail(tensors, grad, scalars)
            del tensors, value    # (references would defeat the ownership test)
            exclusive = store.try_exclusive()
            try:
                targets = _update_targets(store, exclusive, found_keys)
                previous = torch.is_grad_enabled()
                torch._C._set_grad_enabled(False)
                try:
                    if index_arg is None:
                        rule(targets, grad, scalars, attrs)
                    else:
                        _sparse_update(dense_rule, targets, grad, args[index_arg], scalars,
                                       attrs, names[layout.indices])
                finally:
                    torch._C._set_grad_enabled(previous)
                _store_updates(store, found_keys, targets)
            finally:
                if exclusive:
                    store.end_exclusive()

        if dtype not in FLOAT_DTYPES:
            return run
        if not resource and index_arg is None and not exact:
            # A compiled training step may compute this update in its graph instead
            # (runtime/compiled_steps.py `_joined`): the variable and slots it writes,
            # the store they go to, and the update as a function of their values.
            run.store = state
            run.in_graph = _in_graph_update(GRAPH_RULES[family.name], attrs, len(keys),
                                            scalar_args, grad_arg)
        # Sparse updates batch with the per-variable rule's list form, the rule their
        # op-by-op path runs on the gathered rows (never a fused kernel).
        foreach_rule = FOREACH[family.name](attrs, static) \
            if index_arg is None and not exact else many_form(dense_rule)
        # (Internal attrs such as `_class`, the colocation, do not change the update,
        # nor does the indices' dtype: the batch takes them as int64.)
        run.batch_key = (node.type, tuple(sorted((k, str(v)) for k, v in attrs.items()
                                                 if not k.startswith("_") and
                                                 k != "Tindices")),
                         tuple(static), device)
        run.keys_of = keys_of
        run.bound_keys = None if resource else keys
        # Members share the key's static scalars; the others must be the same tensors.
        dynamic_args = [k for k, value in zip(scalar_args, static) if value is None]
        run.make_batch = lambda kernels: _batched_update(
            foreach_rule, attrs, state, device, scalar_args, dynamic_args, grad_arg,
            index_arg, [k.keys_of for k in kernels], [k.bound_keys for k in kernels])
        return run
    return factory


def _in_graph_update(rule: Callable[..., None], attrs: Dict[str, Any], count: int,
                     scalar_args: Sequence[int], grad_arg: int) -> Callable[..., Any]:
    """A dense ref-variable update as a pure function for a compiled graph: takes the
    values of the variable and its slots, then the op's other inputs, and returns their
    new values (the rule applied to copies), which the step stores: a tuple, or the
    variable's alone where it has no slots (a step's one output)."""

    def update(*args: Any) -> Any:
        rest = args[count:]
        grad = rest[grad_arg]
        with torch.no_grad():
            targets = [t.detach().clone() for t in args[:count]]
            rule(targets, grad.detach().to(targets[0].device),
                 [rest[k].detach().to(targets[0].device) for k in scalar_args], attrs)
        return tuple(targets) if count > 1 else targets[0]
    return update


def _batched_update(rule: Callable[..., bool], attrs: Dict[str, Any], state: Any,
                    device: Optional[torch.device], scalar_args: Sequence[int],
                    dynamic_args: Sequence[int], grad_arg: int, index_arg: Optional[int],
                    keys_of: Sequence[Callable[[tuple], List[str]]],
                    bound_keys: Sequence[Optional[List[str]]]) -> Callable[..., bool]:
    """One call applying a group of same-type Apply* (or SparseApply*) ops, their
    argument tuples in plan order, with a multi-tensor rule; False, having changed
    nothing, when it cannot. Sparse members update their gathered rows, as
    `_sparse_update` does for one. `bound_keys`: each member's variable keys where the
    op binds them (ref variables; None for resource handles, read from the arguments):
    when all are bound, the keys, their distinctness and their locks are found once
    here rather than at every step."""
    fixed: Optional[Tuple[List[List[str]], bool, List[Any]]] = None
    if all(keys is not None for keys in bound_keys):
        flat = [key for keys in bound_keys for key in keys]
        fixed = (list(bound_keys), len(set(flat)) == len(flat),  # type: ignore[arg-type]
                 [state.lock(key) for key in sorted(set(flat))])

    def run(*calls: tuple) -> bool:
        if fixed is not None:
            member_keys, distinct, locks = fixed
        else:
            member_keys = [of(args) for of, args in zip(keys_of, calls)]
            flat = [key for keys in member_keys for key in keys]
            distinct = len(set(flat)) == len(flat)
            locks = [state.lock(key) for key in sorted(flat)] if distinct else []
        if not distinct:
            return False            # one variable twice: its updates compose, in order
        scalars = [calls[0][k] for k in scalar_args]
        if not all(_same_scalar(args[k], calls[0][k]) for args in calls[1:]
                   for k in dynamic_args):
            return False
        for lock in locks:
            lock.acquire()
        try:
            store = state
            for keys, args in zip(member_keys, calls):
                store = state.align(keys, args[grad_arg])
            inputs = _batch_inputs(store, device, member_keys, calls, grad_arg, index_arg,
                                   scalars)
            if inputs is None:
                return False
            grads, rows = inputs
            exclusive = store.try_exclusive()
            try:
                targets = [_update_targets(store, exclusive, keys) for keys in member_keys]
                previous = torch.is_grad_enabled()
                torch._C._set_grad_enabled(False)
                try:
                    done = _apply_batched(rule, targets, grads, rows, scalars, attrs)
                finally:
                    torch._C._set_grad_enabled(previous)
                if not done:
                    return False
                for keys, tensors in zip(member_keys, targets):
                    _store_updates(store, keys, tensors)
            finally:
                if exclusive:
                    store.end_exclusive()
        finally:
            for lock in reversed(locks):
                lock.release()
        return True
    return run


def _same_scalar(a: torch.Tensor, b: torch.Tensor) -> bool:
    """Whether two scalar inputs are one value, bit for bit (tf-keras's Ftrl computes
    its adjusted l2 once per variable: equal tensors, not the same one)."""
    if a is b:
        return True
    if not isinstance(a, torch.Tensor) or not isinstance(b, torch.Tensor) or \
            a.shape != b.shape or a.dtype != b.dtype or a.device != b.device or a.numel() != 1:
        return False
    return bool((a == b) & (torch.signbit(a) == torch.signbit(b)))


def _apply_batched(rule: Callable[..., bool], targets: List[List[torch.Tensor]],
                   grads: List[torch.Tensor], rows: Optional[List[torch.Tensor]],
                   scalars: Sequence[torch.Tensor], attrs: Dict[str, Any]) -> bool:
    """The rule on every member's state (`targets[i]`: variable i, then its slots), or
    on the rows `rows[i]` of it for sparse updates (distinct, in range: checked)."""
    if rows is None:
        return rule([list(column) for column in zip(*targets)], grads, scalars, attrs)
    parts = [[t.index_select(0, idx) for t in tensors] for tensors, idx in zip(targets, rows)]
    if not rule([list(column) for column in zip(*parts)], grads, scalars, attrs):
        return False
    for tensors, member_parts, idx in zip(targets, parts, rows):
        for t, part in zip(tensors, member_parts):
            t.index_copy_(0, idx, part)
    return True


def _batch_inputs(state: Any, device: Optional[torch.device],
                  member_keys: List[List[str]], calls: Sequence[tuple], grad_arg: int,
                  index_arg: Optional[int], scalars: List[torch.Tensor]
                  ) -> Optional[Tuple[List[torch.Tensor], Optional[List[torch.Tensor]]]]:
    """The gradients on the variables' device (and `scalars` moved there), with each
    sparse member's row indices (int64, there), or None when an input is not what the
    batched rule takes: the op-by-op kernels then raise TF's error for it, convert it,
    or apply repeated indices row by row, one op at a time. (Holds no reference to a
    stored tensor when it returns: those would defeat the ownership test.)"""
    first = state.get(member_keys[0][0])
    if first is None:
        return None
    where = first.device if device is None else device
    dtype = first.dtype
    grads = []
    rows: Optional[List[torch.Tensor]] = None if index_arg is None else []
    for keys, args in zip(member_keys, calls):
        var = state.get(keys[0])
        if var is None:
            return None
        for key in keys:
            t = state.get(key)
            if t is None or t.shape != var.shape or t.dtype != dtype or t.device != where:
                return None
        grad = args[grad_arg]
        if grad.dtype != dtype:
            return None
        if rows is None:
            if grad.shape != var.shape:
                return None
        else:
            idx = _distinct_rows(args[index_arg], var, grad, where)
            if idx is None:
                return None
            rows.append(idx)
        grads.append(grad if grad.device == where else grad.to(where))
    for k, s in enumerate(scalars):
        if s.dim() != 0 or (s.dtype != dtype and s.is_floating_point()):
            return None             # (AdagradDA's global_step is int64)
        if s.device != where:
            scalars[k] = s.to(where)
    return grads, rows


def _distinct_rows(indices: torch.Tensor, var: torch.Tensor, grad: torch.Tensor,
                   where: torch.device) -> Optional[torch.Tensor]:
    """A sparse update's indices as int64 on `where` when they are distinct rows of
    `var` that match `grad`'s rows; else None."""
    if indices.dim() != 1 or var.dim() < 1 or grad.dim() < 1 or \
            grad.shape[1:] != var.shape[1:] or grad.shape[0] != indices.shape[0]:
        return None
    idx = indices.to(where).long()
    distinct = torch.unique(idx)
    if distinct.numel() != idx.numel():
        return None
    if idx.numel() and (int(distinct[0]) < 0 or int(distinct[-1]) >= var.shape[0]):
        return None
    return idx


def _sparse_update(rule: Callable[..., None], tensors: List[torch.Tensor], grad: torch.Tensor,
                   indices: torch.Tensor, scalars: Sequence[torch.Tensor],
                   attrs: Dict[str, Any], index_name: str) -> None:
    """The dense rule on rows `indices` of every state tensor, as TF's sparse functors.

    TF walks the indices in order; a repeated index is updated again from its new
    value, so repeated indices are applied one row at a time here as well.
    """
    var = tensors[0]
    if indices.dim() != 1:
        raise errors.InvalidArgumentError(None, None, "indices must be one-dimensional")
    if var.dim() < 1:
        raise errors.InvalidArgumentError(None, None, "var must be at least 1 dimensional")
    if grad.dim() < 1 or tuple(grad.shape[1:]) != tuple(var.shape[1:]):
        raise errors.InvalidArgumentError(
            None, None, f"var and grad do not have the same shape{shape_text(var.shape)} "
                        f"{shape_text(grad.shape)}")
    n = indices.shape[0]
    if grad.shape[0] != n:
        raise errors.InvalidArgumentError(
            None, None, "grad must be the same size as indices in the first dimension.")
    if n == 0:
        return
    idx = indices.to(var.device).long()
    rows = var.shape[0]
    bad = (idx < 0) | (idx >= rows)
    if bool(bad.any()):
        i = int(torch.nonzero(bad)[0, 0])
        raise errors.InvalidArgumentError(
            None, None, f"Index {int(indices[i])} at offset {i} in {index_name} is out of "
                        "range")
    if torch.unique(idx).numel() == n:
        parts = [t.index_select(0, idx) for t in tensors]
        rule(parts, grad, scalars, attrs)
        for t, part in zip(tensors, parts):
            t.index_copy_(0, idx, part)
        return
    for i in range(n):
        row = idx[i:i + 1]
        parts = [t.index_select(0, row) for t in tensors]
        rule(parts, grad[i:i + 1], scalars, attrs)
        for t, part in zip(tensors, parts):
            t.index_copy_(0, row, part)


# -- declarations ----------------------------------------------------------------------------

def _arg_specs(names: Sequence[str], resource: bool) -> List[str]:
    specs = []
    for name in names:
        clean = name.rstrip("*")
        if name.endswith("*"):
            specs.append(f"{clean}: resource" if resource else f"{clean}: Ref(T)")
        elif clean == "indices":
            specs.append("indices: Tindices")
        elif clean == "global_step":
            specs.append("global_step: int64")
        else:
            specs.append(f"{clean}: T")
    return specs


def _declare_family(family: Family) -> None:
    forms = [("Apply", family.dense, False), ("ResourceApply", family.dense, True)]
    if family.sparse is not None:
        forms += [("SparseApply", family.sparse, False),
                  ("ResourceSparseApply", family.sparse, True)]
    if family.resource_only:
        forms = [form for form in forms if form[2]]
    for prefix, names, resource in forms:
        layout = _layout(family, names, resource)
        attrs: Dict[str, Any] = {"T": Type()}
        if layout.indices is not None:
            attrs["Tindices"] = Type(D.INDEX_TYPES)
        attrs["use_locking"] = False
        attrs.update(family.attrs)
        declare(prefix + family.name, inputs=_arg_specs(names, resource),
                outputs=[] if resource else ["out: Ref(T)"], attrs=attrs,
                shape=_shape_rule(layout), kernel=_kernel(layout), grad="none",
                stateful=True, doc=f"TF's {prefix}{family.name}: updates the variable and "
                                   "its slots in place.")


for _family in FAMILIES:
    _declare_family(_family)


def training_op(op_type: str, inputs: Sequence[Any], use_locking: bool = False,
                name: Optional[str] = None, **attrs: Any) -> Any:
    """Creates one training op (gen_training_ops style): the `out` tensor of a ref op,
    the Operation of a resource op. Inputs are variables, tensors or Python values in the
    op's input order (resource ops take the variables' handles)."""
    attrs["use_locking"] = bool(use_locking)
    op = apply_op(op_type, list(inputs), attrs, name=name)
    return op._outputs[0] if op._outputs else op
