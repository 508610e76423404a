"""Resource-variable ops (`use_resource=True`): VarHandleOp, ReadVariableOp,
AssignVariableOp, AssignAdd/SubVariableOp, VarIsInitializedOp, VariableShape,
ResourceGather(Nd), ResourceScatter*, ResourceScatterNd*, ResourceCountUpTo.

A `VarHandleOp` is a constant op whose run-time value is the variable's key in the
session's variable store (its `shared_name`), so a handle can flow through Identity and
control flow like any tensor. Readers and writers look the key up in `kctx.state` when
they run: unlike ref variables, a `ReadVariableOp` is a snapshot taken when it executes.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.grad_names import SPARSE, Pass, names
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops.indexing_ops import _batched_gather
from tf1compat.runtime.eager_binding import tf_type_name
from tf1compat.ops.state_ops import (_scatter_combine, _check_indices, merge_shapes, nd_rows,
                                     shape_text, store_value)

__all__ = ["var_handle_op", "read_variable_op", "assign_variable_op", "var_is_initialized_op",
           "handle_shape", "resource_op", "variable_shape"]



def _handle_key(node: Any) -> str:
    return node.attrs.get("shared_name") or node.name


def handle_op(t: Tensor) -> Optional[Any]:
    """The VarHandleOp a resource tensor comes from (through Identity ops), or None."""
    if t._is_eager_tensor:
        return None
    op = t._op
    while op._type in ("Identity", "Snapshot") and op._inputs:
        op = op._inputs[0]._op
    return op if op._type == "VarHandleOp" else None


def handle_dtype(t: Tensor) -> Optional[D.DType]:
    """The dtype of the variable behind resource tensor `t`, when known at graph build."""
    if t._is_eager_tensor:
        return None
    op = handle_op(t)
    return op.attrs["dtype"].base_dtype if op is not None else None


def _check_dtype(ctx: Any, attr: str = "dtype") -> None:
    """TF's build-time check of an op's dtype against the variable's (handle data)."""
    have, want = handle_dtype(ctx.inputs[0]), ctx.attrs[attr]
    if have is not None and have != want.base_dtype:
        raise ValueError(f"Trying to read variable with wrong dtype. Expected "
                         f"{tf_type_name(have)} got {tf_type_name(want)} {node_desc(ctx)}")


def handle_shape(t: Tensor) -> TensorShape:
    """The static shape of the variable behind resource tensor `t` (TF's handle data)."""
    if t._is_eager_tensor:      # an eager variable's handle carries its shape
        return getattr(t, "_handle_shape", None) or unknown_shape()
    op = handle_op(t)
    return op._attrs["shape"] if op is not None else unknown_shape()


declare("VarHandleOp", outputs=["resource: resource"],
        attrs={"container": "", "shared_name": "", "debug_name": "", "dtype": D.float32,
               "shape": unknown_shape(), "allowed_devices": []},
        shape=lambda ctx: [TensorShape([])], kernel=lambda node, kctx: _handle_key(node),
        stateful=True, constant=True,
        doc="A resource variable's handle; its run-time value is the store key.",
        grad="unregistered",
        is_variable=True)


def _missing(state: Any, key: str) -> errors.OpError:
    if not state:
        text = f"Container localhost does not exist. (Could not find resource: localhost/{key})"
    else:
        text = f"Resource localhost/{key}/N10tensorflow3VarE does not exist."
    return errors.NotFoundError(None, None, text)


def _lookup(state: Any, key: str, through_view: bool = False) -> Any:
    """The variable's value (`through_view`: as the running gradient run sees it)."""
    value = (state.view() if through_view else state).get(key)
    if value is None:
        raise _missing(state, key)
    return value


def _read_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state = kctx.state
    device = kctx.device

    def read_variable(handle: str) -> Any:
        # Through the run's gradient view: a differentiated variable reads its leaf.
        value = state.view().get(handle)
        if value is None:
            raise errors.FailedPreconditionError(
                None, None, f"Could not find variable {handle}. This could mean that the "
                            "variable has been deleted. In TF1, it can also mean the variable "
                            "is uninitialized. Debug info: container=localhost, status error "
                            f"message=Resource localhost/{handle}/N10tensorflow3VarE does "
                            "not exist.")
        if isinstance(value, torch.Tensor) and value.device != device:
            return value.to(device)
        return value
    return read_variable


def _read_shape(ctx: Any) -> List[TensorShape]:
    _check_dtype(ctx)
    return [handle_shape(ctx.inputs[0])]


declare("ReadVariableOp", inputs=["resource: resource"], outputs=["value: dtype"],
        attrs={"dtype": Type()}, shape=_read_shape,
        kernel=_read_kernel, stateful=True, reads_only=True, view=True, grad_names=names(Pass(0)))


def _assign_variable_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state = kctx.state
    device = kctx.device
    copy = kctx.input_may_alias(node.inputs[1])
    validate = node.attrs.get("validate_shape", False)

    def assign_variable(handle: str, value: Any) -> None:
        new = store_value(value, device, copy)
        with state.lock(handle):
            if validate:
                old = state.get(handle)
                if old is not None and tuple(old.shape) != tuple(value.shape):
                    raise errors.InvalidArgumentError(
                        None, None, "Trying to assign to variable with tensor with wrong "
                                    f"shape. Expected {shape_text(old.shape)} got "
                                    f"{shape_text(value.shape)}")
            state[handle] = new
    return assign_variable


def _assign_variable_shape(ctx: Any) -> List[TensorShape]:
    _check_dtype(ctx)
    var_shape = handle_shape(ctx.inputs[0])
    if ctx.attrs.get("validate_shape"):
        merge_shapes(ctx, var_shape, ctx.shape(1))
    return []


declare("AssignVariableOp", inputs=["resource: resource", "value: dtype"],
        attrs={"dtype": Type(), "validate_shape": False}, shape=_assign_variable_shape,
        kernel=_assign_variable_kernel, grad="none", stateful=True)


def _update_variable_kernel(fn: Callable[[Any, Any], Any]) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        state = kctx.state

        def update(handle: str, value: Any) -> None:
            with state.lock(handle):
                old = _lookup(state, handle)
                if tuple(old.shape) != tuple(value.shape):
                    raise errors.InvalidArgumentError(
                        None, None, "Cannot update variable with shape "
                                    f"{shape_text(old.shape)} using a Tensor with shape "
                                    f"{shape_text(value.shape)}, shapes must be equal.")
                state[handle] = fn(old, value.to(old.device)).detach()
        return update
    return factory


def _update_variable_shape(ctx: Any) -> List[TensorShape]:
    _check_dtype(ctx)
    merge_shapes(ctx, handle_shape(ctx.inputs[0]), ctx.shape(1))
    return []


for _type, _fn in (("AssignAddVariableOp", torch.add), ("AssignSubVariableOp", torch.sub)):
    declare(_type, inputs=["resource: resource", "value: dtype"], attrs={"dtype": Type()},
            shape=_update_variable_shape,
            kernel=_update_variable_kernel(_fn), grad="none", stateful=True)


def _is_initialized_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state = kctx.state
    answers = {v: torch.tensor(v, device=kctx.device) for v in (False, True)}
    return lambda handle: answers[handle in state]


declare("VarIsInitializedOp", inputs=["resource: resource"], outputs=["is_initialized: bool"],
        shape=lambda ctx: [TensorShape([])], kernel=_is_initialized_kernel, grad="none",
        stateful=True, reads_only=True)
# TF >= 2.12 writes one after each resource variable's creation in saved graphs: it turns
# off TF's copy-on-read for variables of sparse updates, which tf1compat does not have.
declare("DisableCopyOnRead", inputs=["resource: resource"],
        shape=lambda ctx: [], kernel=lambda node, kctx: (lambda handle: None), grad="none",
        stateful=True, doc="Turns off copy-on-read of a resource variable (a no-op here).")


# -- gathers ---------------------------------------------------------------------------------

def _gather_shape(ctx: Any) -> List[TensorShape]:
    _check_dtype(ctx)
    params, indices = handle_shape(ctx.inputs[0]), ctx.shape(1)
    if params.rank is None or indices.rank is None:
        return [unknown_shape()]
    batch = ctx.attrs.get("batch_dims", 0)
    p = params.as_list()
    return [TensorShape(p[:batch] + indices.as_list()[batch:] + p[batch + 1:])]


def _gather_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state = kctx.state
    batch_dims = node.attrs.get("batch_dims", 0)

    def gather(handle: str, indices: Any) -> Any:
        params = _lookup(state, handle, through_view=True)
        idx = indices.to(params.device).long()
        if batch_dims:      # gathers along axis batch_dims, per batch entry
            _check_indices(idx, params.shape[batch_dims])
            return _batched_gather(params, idx, batch_dims, batch_dims)
        _check_indices(idx, params.shape[0])
        return params[idx]
    return gather


declare("ResourceGather", inputs=["resource: resource", "indices: Tindices"],
        outputs=["output: dtype"],
        attrs={"batch_dims": 0, "validate_indices": True, "dtype": Type(),
               "Tindices": Type(D.INDEX_TYPES)},
        shape=_gather_shape, kernel=_gather_kernel, stateful=True, reads_only=True,
        grad_indexed_slices=True,
        grad_names=names(SPARSE, None))


def _gather_nd_shape(ctx: Any) -> List[TensorShape]:
    _check_dtype(ctx)
    params, indices = handle_shape(ctx.inputs[0]), ctx.shape(1)
    if params.rank is None or indices.rank is None or indices.as_list()[-1] is None:
        return [unknown_shape()]
    k = indices.as_list()[-1]
    return [TensorShape(indices.as_list()[:-1] + params.as_list()[k:])]


def _gather_nd_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state = kctx.state

    def gather_nd(handle: str, indices: Any) -> Any:
        params = _lookup(state, handle, through_view=True)
        k = indices.shape[-1]
        rows = nd_rows(params, indices)
        flat = params.reshape((-1,) + tuple(params.shape[k:]))
        return flat[rows].reshape(tuple(indices.shape[:-1]) + tuple(params.shape[k:]))
    return gather_nd


def _gather_nd_grad_names(op: Any) -> List[Any]:
    """TF's _ResourceGatherNdGrad: IndexedSlices for indices of shape [n, 1], else a
    ScatterNd into the VariableShape."""
    if op.inputs[1].shape.as_list()[-1:] == [1] and op.inputs[1].shape.rank == 2:
        return [SPARSE, None]
    return ["ScatterNd", None]


declare("ResourceGatherNd", inputs=["resource: resource", "indices: Tindices"],
        outputs=["output: dtype"], attrs={"dtype": Type(), "Tindices": Type(D.INDEX_TYPES)},
        shape=_gather_nd_shape, kernel=_gather_nd_kernel, stateful=True, reads_only=True,
        grad_indexed_slices=True, grad_names=_gather_nd_grad_names)


def _variable_shape_shape(ctx: Any) -> List[TensorShape]:
    rank = handle_shape(ctx.inputs[0]).rank
    return [TensorShape([rank])]


def _variable_shape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state, device = kctx.state, kctx.device
    dtype = node.attrs["out_type"].torch_dtype

    def variable_shape(handle: str) -> Any:
        return torch.tensor(tuple(_lookup(state, handle).shape), dtype=dtype, device=device)
    return variable_shape


# TF's gradients of ResourceGather(Nd) read the variable's shape with it where the handle's
# static shape is not fully known.
declare("VariableShape", inputs=["input: resource"], outputs=["output: out_type"],
        attrs={"out_type": Type((D.int32, D.int64), default=D.int32)},
        shape=_variable_shape_shape, kernel=_variable_shape_kernel, grad="none", stateful=True,
        reads_only=True)


def variable_shape(handle: Tensor, out_type: Any = None, name: Optional[str] = None) -> Tensor:
    """TF's resource_variable_ops.variable_shape: a Const of the handle's static shape
    where it is fully known, else a VariableShape op."""
    from tf1compat.framework.constant_op import constant
    out_type = out_type or D.int32
    static = handle_shape(handle)
    if static.is_fully_defined():
        return constant(static.as_list(), dtype=out_type)
    return apply_op1("VariableShape", [handle], {"out_type": out_type}, name=name)


# -- scatters ------------------------------------------------------------------------------

def _resource_scatter_kernel(op: str, nd: bool) -> Callable[..., Any]:
    combine = _scatter_combine(op)

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        state = kctx.state

        def scatter(handle: str, indices: Any, updates: Any) -> None:
            with state.lock(handle):
                _scatter_locked(handle, indices, updates)

        def _scatter_locked(handle: str, indices: Any, updates: Any) -> None:
            old = _lookup(state, handle)
            if nd:
                k = indices.shape[-1]
                rows = nd_rows(old, indices)
                flat = old.reshape((-1,) + tuple(old.shape[k:]))
                upd = updates.to(old.device).reshape((rows.numel(),) + tuple(old.shape[k:]))
                new = combine(flat, rows, upd).reshape(old.shape)
            else:
                idx = indices.to(old.device).long()
                _check_indices(idx, old.shape[0])
                flat_idx = idx.reshape(-1)
                upd = updates.to(old.device)
                rows_shape = (flat_idx.numel(),) + tuple(old.shape[1:])
                upd = upd.expand(rows_shape) if upd.dim() == 0 else upd.reshape(rows_shape)
                new = combine(old, flat_idx, upd)
            state[handle] = new.detach()
        return scatter
    return factory


def _scatter_shape(ctx: Any) -> List[TensorShape]:
    _check_dtype(ctx)
    return []


for _type, _op in (("ResourceScatterUpdate", "update"), ("ResourceScatterAdd", "add"),
                   ("ResourceScatterSub", "sub"), ("ResourceScatterMul", "mul"),
                   ("ResourceScatterDiv", "div"), ("ResourceScatterMin", "min"),
                   ("ResourceScatterMax", "max")):
    declare(_type, inputs=["resource: resource", "indices: Tindices", "updates: dtype"],
            attrs={"dtype": Type(), "Tindices": Type(D.INDEX_TYPES)}, shape=_scatter_shape,
            kernel=_resource_scatter_kernel(_op, False), grad="none", stateful=True)

for _type, _op in (("ResourceScatterNdUpdate", "update"), ("ResourceScatterNdAdd", "add"),
                   ("ResourceScatterNdSub", "sub"), ("ResourceScatterNdMin", "min"),
                   ("ResourceScatterNdMax", "max")):
    declare(_type, inputs=["ref: resource", "indices: Tindices", "updates: T"],
            attrs={"T": Type(), "Tindices": Type(D.INDEX_TYPES), "use_locking": True,
                   "bad_indices_policy": ""},
            shape=lambda ctx: [], kernel=_resource_scatter_kernel(_op, True), grad="none",
            stateful=True)


def _count_up_to_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    state = kctx.state
    limit = node.attrs["limit"]

    def count_up_to(handle: str) -> Any:
        with state.lock(handle):
            old = _lookup(state, handle)
            if int(old) >= limit:
                raise errors.OutOfRangeError(None, None, f"Reached limit of {limit}")
            state[handle] = old + 1
        return old
    return count_up_to


declare("ResourceCountUpTo", inputs=["resource: resource"], outputs=["output: T"],
        attrs={"limit": 0, "T": Type(D.INDEX_TYPES)}, shape=lambda ctx: [TensorShape([])],
        kernel=_count_up_to_kernel, grad="none", stateful=True)


# -- wrappers (gen_resource_variable_ops) ---------------------------------------------------------

def var_handle_op(dtype: Any, shape: Any, container: str = "", shared_name: str = "",
                  debug_name: str = "", name: Optional[str] = None) -> Tensor:
    return apply_op1("VarHandleOp", [], {"dtype": D.as_dtype(dtype).base_dtype,
                                         "shape": TensorShape(shape) if not isinstance(
                                             shape, TensorShape) else shape,
                                         "container": container, "shared_name": shared_name,
                                         "debug_name": debug_name}, name=name)


def read_variable_op(handle: Tensor, dtype: Any, name: Optional[str] = None) -> Tensor:
    return apply_op1("ReadVariableOp", [handle], {"dtype": D.as_dtype(dtype).base_dtype},
                     name=name)


def assign_variable_op(handle: Tensor, value: Any, validate_shape: bool = False,
                       name: Optional[str] = None) -> Any:
    return apply_op("AssignVariableOp", [handle, value],
                    {"validate_shape": validate_shape}, name=name)


def var_is_initialized_op(handle: Tensor, name: Optional[str] = None) -> Tensor:
    return apply_op1("VarIsInitializedOp", [handle], name=name)


def resource_op(op_type: str, handle: Tensor, *inputs: Any, name: Optional[str] = None,
                **attrs: Any) -> Any:
    """Any resource op of this module by type (used by ResourceVariable's methods)."""
    return apply_op(op_type, [handle, *inputs], attrs, name=name)
