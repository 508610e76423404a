"""Ref-variable ops: VariableV2, Assign*, Scatter*, IsVariableInitialized, CountUpTo, and
their `tf.*` wrappers (`tf.assign`, `tf.scatter_update`, ...).

A `VariableV2` op has no kernel: it declares `state_alias`, so every read of its output
(and of an Identity of it, `v/read`) is a lazy read of the session's variable store
(runtime/plan.py). Ops with a `Ref(T)` input receive the variable's store key at kernel
build (`kctx.ref_key`) and write the new value into `kctx.state`. Their ref outputs alias
the variable too, so fetching an assign returns the variable's value after the update.

Stored values are never mutated in place: every update stores a new tensor. Values that
may share storage with a feed, a constant or another variable are copied first, so the
store owns what it holds (TF's Assign copies into the variable's buffer as well). Every
write holds the variable's lock (`state.lock(key)`, runtime/session_state.py), so a
read-modify-write (AssignAdd, Scatter*, CountUpTo) run by concurrent threads loses no
update.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._kernels import any_true
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops import _flops_rules as flops

__all__ = ["variable_op_v2", "assign", "assign_add", "assign_sub", "scatter_update",
           "scatter_add", "scatter_sub", "scatter_mul", "scatter_div", "scatter_min",
           "scatter_max", "scatter_nd_update", "scatter_nd_add", "scatter_nd_sub",
           "is_variable_initialized", "count_up_to", "batch_scatter_update", "shape_text",
           "merge_shapes", "store_value", "variable_device", "read_initialized"]



# -- helpers shared with resource_variable_ops ---------------------------------------------

def shape_text(shape: Any) -> str:
    """A run-time shape as TF's TensorShape::DebugString prints it: "[2,3]"."""
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def merge_shapes(ctx: Any, a: TensorShape, b: TensorShape) -> TensorShape:
    """TF's MergeBothInputsShapeFn, with its ValueError messages."""
    if a.rank is not None and b.rank is not None:
        if a.rank != b.rank:
            raise ValueError(f"Shapes must be equal rank, but are {a.rank} and {b.rank} "
                             f"{node_desc(ctx)}")
        for i, (x, y) in enumerate(zip(a.as_list(), b.as_list())):
            if x is not None and y is not None and x != y:
                raise ValueError(f"Dimension {i} in both shapes must be equal, but are {x} and "
                                 f"{y}. Shapes are {_static_text(a)} and {_static_text(b)}. "
                                 f"{node_desc(ctx)}")
    return a.merge_with(b)


def _static_text(shape: TensorShape) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in shape.as_list()) + "]"


def variable_device(kctx: Any, t: Tensor) -> torch.device:
    """The torch device of the variable op behind ref tensor `t` (where its value lives)."""
    op = t._op
    while op._op_def.state_alias is None and op._op_def.ref_input_indices:
        op = op._inputs[op._op_def.ref_input_indices[0]]._op
    return kctx.runtime.placer.device_for(op)


def store_value(value: Any, device: torch.device, copy: bool) -> Any:
    """`value` as the store should hold it: detached, on `device`, owned (copied if needed)."""
    if not isinstance(value, torch.Tensor):
        # Strings: numpy object arrays (copied, as they are mutable) or immutable bytes.
        return value.copy() if copy and isinstance(value, np.ndarray) else value
    out = value.detach()
    if out.device != device:
        return out.to(device)   # a transfer makes a new tensor already
    return out.clone() if copy else out


def _owned(new: Any, device: torch.device) -> Any:
    """A freshly computed value ready for the store (detached, on the variable's device)."""
    if new.requires_grad:
        new = new.detach()
    return new if new.device == device else new.to(device)


def read_initialized(state: Any, key: str) -> Any:
    """The stored value, or TF's FailedPreconditionError for an uninitialized variable."""
    value = state.get(key)
    if value is None:
        raise errors.FailedPreconditionError(None, None,
                                             f"Attempting to use uninitialized value {key}")
    return value


def _check_indices(idx: torch.Tensor, n: int) -> None:
    if idx.numel() and any_true((idx < 0) | (idx >= n)):
        flat = idx.reshape(-1)
        bad = int(torch.nonzero((flat < 0) | (flat >= n))[0, 0])
        raise errors.InvalidArgumentError(
            None, None, f"indices[{bad}] = {int(flat[bad])} is not in [0, {n})")


# -- VariableV2 --------------------------------------------------------------------------------

def _variable_key(node: Any) -> str:
    # Two VariableV2 ops with one shared_name share one slot, as in a TF container.
    shared = node.attrs.get("shared_name") or ""
    return shared or node.name


def _variable_check(node: Any, kctx: Any) -> Callable[..., Any]:
    """Nothing runs for a VariableV2 (its reads alias the store); this only rejects, as TF's
    kernel does, a partially known shape (an unknown rank is fine)."""
    shape = node.attrs["shape"]
    if shape.rank is not None and not shape.is_fully_defined():
        raise errors.op_error(errors.InvalidArgumentError, node,
                              f"Shape {_static_text(shape)} is not fully defined")
    return _no_kernel


def _no_kernel() -> None:  # pragma: no cover - the plan drops alias-only kernels
    raise AssertionError("VariableV2 has no kernel")


declare("VariableV2", outputs=["ref: Ref(dtype)"],
        attrs={"shape": unknown_shape(), "dtype": Type(), "container": "", "shared_name": ""},
        shape=lambda ctx: [ctx.attrs["shape"]], kernel=_variable_check,
        grad="unregistered",
        stateful=True, state_alias=_variable_key,
        doc="A ref variable: its value lives in the session's variable store.",
        is_variable=True)


def variable_op_v2(shape: Any, dtype: Any, name: str = "Variable", container: str = "",
                   shared_name: str = "") -> Tensor:
    """The VariableV2 op (TF's state_ops.variable_op_v2); returns its ref output."""
    shape = unknown_shape() if shape is None else TensorShape(shape) \
        if not isinstance(shape, TensorShape) else shape
    return apply_op1("VariableV2", [], {"shape": shape, "dtype": D.as_dtype(dtype).base_dtype,
                                        "container": container, "shared_name": shared_name},
                     name=name)


# -- Assign, AssignAdd, AssignSub ------------------------------------------------------------------

def _assign_shape(ctx: Any) -> List[TensorShape]:
    if ctx.attrs["validate_shape"]:
        return [merge_shapes(ctx, ctx.shape(0), ctx.shape(1))]
    return [ctx.shape(1)]


def _declared_shape(ref: Tensor) -> Optional[List[int]]:
    shape = ref.shape
    return shape.as_list() if shape.is_fully_defined() else None


def _assign_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    ref, value_t = node.inputs
    key = kctx.ref_key(ref)
    state = kctx.state
    device = variable_device(kctx, ref)
    copy = kctx.input_may_alias(value_t)
    validate = node.attrs["validate_shape"]
    declared = _declared_shape(ref) if validate else None
    lock = state.lock(key)

    def assign(value: Any) -> None:
        new = store_value(value, device, copy)
        with lock:
            if validate:
                old = state.get(key)
                lhs = list(np.shape(old)) if old is not None else declared
                rhs = list(np.shape(value)) if not isinstance(value, torch.Tensor) \
                    else list(value.shape)
                if lhs is not None and rhs != lhs:
                    raise errors.InvalidArgumentError(
                        None, None, "Assign requires shapes of both tensors to match. lhs "
                                    f"shape= {shape_text(lhs)} rhs shape= {shape_text(rhs)}")
            state[key] = new
    # A compiled training step may take the assignment into its graph (runtime/
    # compiled_steps.py `_joined`): the value, checked against the variable's shape.
    assign.bound_keys = [key]
    assign.store = state
    assign.in_graph = lambda old, value: _assigned_in_graph(old, value, validate)
    return assign


def _assigned_in_graph(old: torch.Tensor, value: torch.Tensor, validate: bool
                       ) -> torch.Tensor:
    """Assign as a pure function of the old and new values: the value to store."""
    if validate and old.shape != value.shape:
        raise errors.InvalidArgumentError(
            None, None, "Assign requires shapes of both tensors to match. lhs shape= "
                        f"{shape_text(old.shape)} rhs shape= {shape_text(value.shape)}")
    return value.detach().to(old.device).clone()


def _update_kernel(fn: Callable[[Any, Any], Any]) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        ref = node.inputs[0]
        key = kctx.ref_key(ref)
        state = kctx.state
        device = variable_device(kctx, ref)
        lock = state.lock(key)

        def update(value: Any) -> None:
            with lock:
                old = read_initialized(state, key)
                if old.shape != value.shape:
                    raise errors.InvalidArgumentError(
                        None, None, "Parameters and update must be the same size")
                if value.device != old.device:
                    value = value.to(old.device)
                state[key] = _owned(fn(old, value), device)
        # A compiled training step may take the update into its graph (`Assign`'s note).
        update.bound_keys = [key]
        update.store = state
        update.in_graph = lambda old, value: _updated_in_graph(fn, old, value)
        return update
    return factory


def _updated_in_graph(fn: Callable[[Any, Any], Any], old: torch.Tensor,
                      value: torch.Tensor) -> torch.Tensor:
    """AssignAdd/AssignSub as a pure function of the old value and the operand."""
    if old.shape != value.shape:
        raise errors.InvalidArgumentError(None, None,
                                          "Parameters and update must be the same size")
    return fn(old.detach(), value.detach().to(old.device))


_ASSIGN_ATTRS = {"T": Type(), "validate_shape": True, "use_locking": True}
declare("Assign", inputs=["ref: Ref(T)", "value: T"], outputs=["output_ref: Ref(T)"],
        attrs=_ASSIGN_ATTRS, shape=_assign_shape, kernel=_assign_kernel, grad="none",
        stateful=True)
for _type, _fn in (("AssignAdd", torch.add), ("AssignSub", torch.sub)):
    declare(_type, inputs=["ref: Ref(T)", "value: T"], outputs=["output_ref: Ref(T)"],
            attrs={"T": Type(), "use_locking": False},
            shape=lambda ctx: [merge_shapes(ctx, ctx.shape(0), ctx.shape(1))],
            kernel=_update_kernel(_fn), grad="none", stateful=True,
            flops=flops.per_input_element())


# -- Scatter* ---------------------------------------------------------------------------------

def _scatter_shape(ctx: Any) -> List[TensorShape]:
    ref, indices, updates = ctx.shape(0), ctx.shape(1), ctx.shape(2)
    if updates.rank == 0 or ref.rank is None or indices.rank is None or updates.rank is None:
        return [ref]
    if ref.rank == 0:
        raise ValueError(f"Shape must be at least rank 1 but is rank 0 {node_desc(ctx)}")
    expected = TensorShape(indices.as_list() + ref.as_list()[1:])
    merge_shapes(ctx, updates, expected)
    return [ref]


def _scatter_combine(op: str) -> Callable[[torch.Tensor, torch.Tensor, torch.Tensor],
                                          torch.Tensor]:
    """new = old with `updates` combined at rows `idx` (duplicates accumulate, as TF)."""
    def combine(old: torch.Tensor, idx: torch.Tensor, upd: torch.Tensor) -> torch.Tensor:
        if op == "update":
            return old.index_copy(0, idx, upd)
        if op == "add":
            return old.index_add(0, idx, upd)
        if op == "sub":
            return old.index_add(0, idx, -upd if upd.dtype != torch.bool else upd)
        rows = idx.reshape((-1,) + (1,) * (upd.dim() - 1)).expand_as(upd)
        if op in ("min", "max"):
            return old.scatter_reduce(0, rows, upd, "amin" if op == "min" else "amax")
        if op == "mul":
            return old.scatter_reduce(0, rows, upd, "prod")
        if op == "div":
            # Repeated division by u1, u2 equals one division by u1 * u2.
            divisor = torch.ones_like(old).scatter_reduce(0, rows, upd, "prod")
            if old.dtype.is_floating_point or old.dtype.is_complex:
                return old / divisor
            return torch.div(old, divisor, rounding_mode="trunc")
        raise AssertionError(op)
    return combine


def _scatter_kernel(op: str) -> Callable[[Any, Any], Callable[..., Any]]:
    combine = _scatter_combine(op)

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        ref = node.inputs[0]
        key = kctx.ref_key(ref)
        state = kctx.state
        device = variable_device(kctx, ref)
        lock = state.lock(key)

        def scatter(indices: Any, updates: Any) -> None:
            with lock:
                old = read_initialized(state, key)
                idx = indices.to(old.device).long()
                _check_indices(idx, old.shape[0])
                flat_idx = idx.reshape(-1)
                upd = updates.to(old.device)
                rows = tuple(old.shape[1:])
                if upd.dim() == 0:
                    upd = upd.expand((flat_idx.numel(),) + rows)
                else:
                    upd = upd.reshape((flat_idx.numel(),) + rows)
                state[key] = _owned(combine(old, flat_idx, upd), device)
        return scatter
    return factory


_SCATTERS = (("ScatterUpdate", "update", True), ("ScatterAdd", "add", False),
             ("ScatterSub", "sub", False), ("ScatterMul", "mul", False),
             ("ScatterDiv", "div", False), ("ScatterMin", "min", False),
             ("ScatterMax", "max", False))
for _type, _op, _locking in _SCATTERS:
    declare(_type, inputs=["ref: Ref(T)", "indices: Tindices", "updates: T"],
            outputs=["output_ref: Ref(T)"],
            attrs={"T": Type(), "Tindices": Type(D.INDEX_TYPES), "use_locking": _locking},
            shape=_scatter_shape, kernel=_scatter_kernel(_op), grad="none", stateful=True)


# -- ScatterNd* ------------------------------------------------------------------------------

def _scatter_nd_shape(ctx: Any) -> List[TensorShape]:
    ref, indices, updates = ctx.shape(0), ctx.shape(1), ctx.shape(2)
    if ref.rank is None or indices.rank is None or updates.rank is None:
        return [ref]
    k = indices.as_list()[-1] if indices.rank else None
    if k is None:
        return [ref]
    if k > ref.rank:
        raise ValueError(f"The last dimension of indices ({k}) must be <= the rank of ref "
                         f"({ref.rank}) {node_desc(ctx)}")
    expected = TensorShape(indices.as_list()[:-1] + ref.as_list()[k:])
    merge_shapes(ctx, updates, expected)
    return [ref]


def nd_rows(old: torch.Tensor, indices: torch.Tensor) -> torch.Tensor:
    """Linear row indices of `indices[..., K]` into `old` viewed as [prod(shape[:K]), ...]."""
    idx = indices.to(old.device).long()
    k = idx.shape[-1]
    dims = list(old.shape[:k])
    flat = idx.reshape(-1, k)
    limits = torch.tensor(dims, device=idx.device, dtype=torch.long)
    bad = ((flat < 0) | (flat >= limits)).any(dim=1)
    if any_true(bad):
        i = int(torch.nonzero(bad)[0, 0])
        where = ", ".join(str(int(v)) for v in flat[i])
        raise errors.InvalidArgumentError(
            None, None, f"indices[{i}] = [{where}] does not index into shape "
                        f"{shape_text(old.shape)}")
    strides = [1] * k
    for j in range(k - 2, -1, -1):
        strides[j] = strides[j + 1] * dims[j + 1]
    return (flat * torch.tensor(strides, device=idx.device, dtype=torch.long)).sum(dim=1)


def _scatter_nd_kernel(op: str) -> Callable[[Any, Any], Callable[..., Any]]:
    combine = _scatter_combine(op)

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        ref = node.inputs[0]
        key = kctx.ref_key(ref)
        state = kctx.state
        device = variable_device(kctx, ref)
        lock = state.lock(key)

        def scatter_nd(indices: Any, updates: Any) -> None:
            with lock:
                old = read_initialized(state, key)
                rows = nd_rows(old, indices)
                k = indices.shape[-1]
                flat_old = old.reshape((-1,) + tuple(old.shape[k:]))
                upd = updates.to(old.device).reshape((rows.numel(),) + tuple(old.shape[k:]))
                state[key] = _owned(combine(flat_old, rows, upd).reshape(old.shape), device)
        return scatter_nd
    return factory


for _type, _op in (("ScatterNdUpdate", "update"), ("ScatterNdAdd", "add"),
                   ("ScatterNdSub", "sub"), ("ScatterNdMin", "min"), ("ScatterNdMax", "max")):
    declare(_type, inputs=["ref: Ref(T)", "indices: Tindices", "updates: T"],
            outputs=["output_ref: Ref(T)"],
            attrs={"T": Type(), "Tindices": Type(D.INDEX_TYPES), "use_locking": _op == "update",
                   "bad_indices_policy": ""},
            shape=_scatter_nd_shape, kernel=_scatter_nd_kernel(_op), grad="none",
            stateful=True)


# -- IsVariableInitialized, CountUpTo ---------------------------------------------------------

def _is_initialized_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    key = kctx.ref_key(node.inputs[0])
    state = kctx.state
    device = kctx.device
    answers = {v: torch.tensor(v, device=device) for v in (False, True)}
    return lambda: answers[key in state]


declare("IsVariableInitialized", inputs=["ref: Ref(dtype)"], outputs=["is_initialized: bool"],
        attrs={"dtype": Type()}, shape=lambda ctx: [TensorShape([])],
        kernel=_is_initialized_kernel, grad="none", stateful=True, reads_only=True)


def _count_up_to_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    key = kctx.ref_key(node.inputs[0])
    state = kctx.state
    limit = node.attrs["limit"]
    lock = state.lock(key)

    def count_up_to() -> Any:
        with lock:
            old = read_initialized(state, key)
            if int(old) >= limit:
                raise errors.OutOfRangeError(None, None, f"Reached limit of {limit}")
            state[key] = old + 1
        return old
    return count_up_to


def _scalar_shape(ctx: Any) -> List[TensorShape]:
    if ctx.shape(0).rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {ctx.shape(0).rank} "
                         f"{node_desc(ctx)}")
    return [TensorShape([])]


declare("CountUpTo", inputs=["ref: Ref(T)"], outputs=["output: T"],
        attrs={"T": Type(D.INDEX_TYPES), "limit": 0}, shape=_scalar_shape,
        kernel=_count_up_to_kernel, grad="none", stateful=True)


def _private_initialized_value_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    key = kctx.ref_key(node.inputs[1])
    state = kctx.state

    def initialized_value(is_initialized: Any, initial_value: Any) -> Any:
        current = state.get(key)
        return initial_value if current is None else current
    return initialized_value


# tf1compat's stand-in for the cond(is_variable_initialized(v), v.read_value,
# lambda: v.initial_value) that TF builds for Variable.initialized_value(): one op that
# reads the variable if it is initialized and else forwards its initial value.
declare("_VariableInitializedValue",
        inputs=["is_initialized: bool", "ref: Ref(T)", "initial_value: T"],
        outputs=["output: T"], attrs={"T": Type()},
        shape=lambda ctx: [ctx.shape(1) if ctx.shape(1).is_fully_defined() else ctx.shape(2)],
        kernel=_private_initialized_value_kernel, grad="none", stateful=True, view=True,
        reads_only=True)


# -- wrappers ----------------------------------------------------------------------------------

def _is_ref(ref: Any) -> bool:
    return isinstance(ref, Tensor) and ref.dtype._is_ref_dtype


def _as_ref(ref: Any) -> Any:
    """A Variable's ref tensor (`_ref()`), or `ref` itself."""
    if not isinstance(ref, Tensor) and hasattr(ref, "_ref") and \
            not getattr(ref, "_is_resource_variable", False):
        return ref._ref()
    return ref


def assign(ref: Any, value: Any, validate_shape: Optional[bool] = None,
           use_locking: Optional[bool] = None, name: Optional[str] = None) -> Any:
    """`tf.assign`: stores `value` in the variable; returns the ref after the update."""
    ref = _as_ref(ref)
    if _is_ref(ref):
        attrs = {"validate_shape": True if validate_shape is None else validate_shape,
                 "use_locking": True if use_locking is None else use_locking}
        return apply_op1("Assign", [ref, value], attrs, name=name)
    return ref.assign(value, name=name)


def assign_add(ref: Any, value: Any, use_locking: Optional[bool] = None,
               name: Optional[str] = None) -> Any:
    """`tf.assign_add`."""
    ref = _as_ref(ref)
    if _is_ref(ref):
        return apply_op1("AssignAdd", [ref, value], {"use_locking": bool(use_locking)},
                         name=name)
    return ref.assign_add(value)


def assign_sub(ref: Any, value: Any, use_locking: Optional[bool] = None,
               name: Optional[str] = None) -> Any:
    """`tf.assign_sub`."""
    ref = _as_ref(ref)
    if _is_ref(ref):
        return apply_op1("AssignSub", [ref, value], {"use_locking": bool(use_locking)},
                         name=name)
    return ref.assign_sub(value)


def _scatter_wrapper(op_type: str, method: str, locking: bool) -> Callable[..., Any]:
    def wrapper(ref: Any, indices: Any, updates: Any, use_locking: bool = locking,
                name: Optional[str] = None) -> Any:
        ref = _as_ref(ref)
        if _is_ref(ref):
            return apply_op1(op_type, [ref, indices, updates], {"use_locking": use_locking},
                             name=name)
        return ref._resource_scatter("Resource" + op_type, indices, updates, name=name)
    wrapper.__name__ = method
    wrapper.__doc__ = f"`tf.{method}` ({op_type})."
    return wrapper


scatter_update = _scatter_wrapper("ScatterUpdate", "scatter_update", True)
scatter_add = _scatter_wrapper("ScatterAdd", "scatter_add", False)
scatter_sub = _scatter_wrapper("ScatterSub", "scatter_sub", False)
scatter_mul = _scatter_wrapper("ScatterMul", "scatter_mul", False)
scatter_div = _scatter_wrapper("ScatterDiv", "scatter_div", False)
scatter_min = _scatter_wrapper("ScatterMin", "scatter_min", False)
scatter_max = _scatter_wrapper("ScatterMax", "scatter_max", False)


def _scatter_nd_wrapper(op_type: str, method: str) -> Callable[..., Any]:
    # TF's defaults: only scatter_nd_update locks.
    def wrapper(ref: Any, indices: Any, updates: Any,
                use_locking: bool = op_type == "ScatterNdUpdate",
                name: Optional[str] = None) -> Any:
        ref = _as_ref(ref)
        if _is_ref(ref):
            return apply_op1(op_type, [ref, indices, updates], {"use_locking": use_locking},
                             name=name)
        return ref._resource_scatter("Resource" + op_type, indices, updates, name=name)
    wrapper.__name__ = method
    wrapper.__doc__ = f"`tf.{method}` ({op_type})."
    return wrapper


scatter_nd_update = _scatter_nd_wrapper("ScatterNdUpdate", "scatter_nd_update")
scatter_nd_add = _scatter_nd_wrapper("ScatterNdAdd", "scatter_nd_add")
scatter_nd_sub = _scatter_nd_wrapper("ScatterNdSub", "scatter_nd_sub")


def is_variable_initialized(variable: Any) -> Tensor:
    """`tf.is_variable_initialized`: a scalar bool, true once the variable holds a value."""
    ref = _as_ref(variable)
    if _is_ref(ref):
        return apply_op1("IsVariableInitialized", [ref], {"dtype": ref.dtype.base_dtype})
    return variable.is_initialized()


def count_up_to(ref: Any, limit: int, name: Optional[str] = None) -> Tensor:
    """`tf.count_up_to`: increments an int variable; OutOfRangeError at `limit`."""
    ref = _as_ref(ref)
    if _is_ref(ref):
        return apply_op1("CountUpTo", [ref], {"limit": int(limit)}, name=name)
    return ref.count_up_to(limit)



def batch_scatter_update(ref: Any, indices: Any, updates: Any, use_locking: bool = True,
                         name: Optional[str] = None) -> Any:
    """`tf.batch_scatter_update`: scatter_update along the last index dimension, with the
    leading dimensions as batch (built as one ScatterNdUpdate, as TF)."""
    from tf1compat.framework.graph import name_scope
    from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.math_ops import cast
    with name_scope(name):
        indices = convert_to_tensor(indices, name="indices")
        indices_shape = shape(indices)
        ndims = indices.get_shape().ndims
        if ndims is None:
            raise ValueError("batch_gather does not allow indices with unknown shape.")
        nd_indices = expand_dims(indices, axis=-1)
        parts = []
        for dimension in range(ndims - 1):
            size = indices_shape[dimension]
            broadcast_shape: list = [1] * (ndims + 1)
            broadcast_shape[dimension] = size
            dimension_range = reshape(apply_op1("Range", [0, size, 1]), broadcast_shape)
            if dimension_range.dtype.base_dtype != nd_indices.dtype:
                dimension_range = cast(dimension_range, nd_indices.dtype)
            parts.append(dimension_range * ones_like(nd_indices))
        parts.append(nd_indices)
        final_indices = concat(parts, axis=-1)
        return scatter_nd_update(ref, final_indices, updates, use_locking=use_locking)
