"""Sliced assignment to variables: `v[0, 1:].assign(x)` (StridedSliceAssign and
ResourceStridedSliceAssign).

`Variable.__getitem__` returns the StridedSlice tensor as TF does, with an `assign` method
(`SlicedVariableTensor`). The value is broadcast to the slice's shape ("Cannot broadcast
input shape [2] into final shape [3]" otherwise, as TF) and written into a copy of the
variable's value, which replaces it in the store.
"""

from __future__ import annotations

import weakref
from typing import Any, Callable, List, Optional

import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops.state_ops import read_initialized, shape_text
from tf1compat.ops.strided_slice import INDEX, SliceError, _final_shape, dense_spec

__all__ = ["SlicedVariableTensor", "attach_slice_assign"]

_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _write_slice(old: Any, begin: List[int], end: List[int], strides: List[int],
                 masks: List[int], value: Any) -> Any:
    """`old` with `value` (broadcast to the slice's shape) written into the slice."""
    try:
        spec, gather = dense_spec(list(old.shape), begin, end, strides, *masks)
    except SliceError as e:
        raise errors.InvalidArgumentError(None, None, str(e)) from None
    final = _final_shape(spec, gather)
    v = value.to(old.device) if value.device != old.device else value
    while v.dim() > len(final) and v.shape[0] == 1:
        v = v[0]
    try:
        v = torch.broadcast_to(v, final)
    except RuntimeError:
        raise errors.InvalidArgumentError(
            None, None, f"Cannot broadcast input shape {shape_text(value.shape)} into final "
                        f"shape {shape_text(final)}") from None
    sizes = [size for (_, _, _, size) in spec]
    if 0 in sizes:
        return old
    axes = [b + s * torch.arange(size, device=old.device) for (b, _, s, size) in spec]
    new = old.clone()
    new[torch.meshgrid(*axes, indexing="ij")] = v.reshape(sizes).to(old.dtype)
    return new


def _slice_assign_kernel(resource: bool) -> Callable[[Any, Any], Callable[..., Any]]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        state = kctx.state
        masks = [node.attrs[m] for m in _MASKS]
        static = [static_ints(node, i) for i in (1, 2, 3)]
        key = None if resource else kctx.ref_key(node.inputs[0])

        def bounds(b: Any, e: Any, s: Any) -> tuple:
            return tuple(st if st is not None else as_int_list(x)
                         for st, x in zip(static, (b, e, s)))

        if resource:
            def assign_resource(handle: str, b: Any, e: Any, s: Any, value: Any) -> None:
                from tf1compat.ops.resource_variable_ops import _lookup
                with state.lock(handle):
                    old = _lookup(state, handle)
                    state[handle] = _write_slice(old, *bounds(b, e, s), masks, value)
            return assign_resource

        lock = state.lock(key)

        def assign_ref(b: Any, e: Any, s: Any, value: Any) -> None:
            with lock:
                old = read_initialized(state, key)
                state[key] = _write_slice(old, *bounds(b, e, s), masks, value)
        return assign_ref
    return factory


_ATTRS = {"T": Type(), "Index": Type(INDEX), "begin_mask": 0, "end_mask": 0,
          "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0}

declare("StridedSliceAssign",
        inputs=["ref: Ref(T)", "begin: Index", "end: Index", "strides: Index", "value: T"],
        outputs=["output_ref: Ref(T)"], attrs=dict(_ATTRS),
        shape=lambda ctx: [ctx.shape(0)], kernel=_slice_assign_kernel(False), grad="none",
        stateful=True)

declare("ResourceStridedSliceAssign",
        inputs=["ref: resource", "begin: Index", "end: Index", "strides: Index", "value: T"],
        attrs=dict(_ATTRS), shape=lambda ctx: [], kernel=_slice_assign_kernel(True),
        grad="none", stateful=True)


# -- the `assign` method of a sliced variable ------------------------------------------------

_SLICED_FROM: "weakref.WeakKeyDictionary[Tensor, Any]" = weakref.WeakKeyDictionary()


class SlicedVariableTensor(Tensor):
    """A StridedSlice of a variable (`v[1:3]`): a Tensor that can also be assigned to."""

    __slots__ = ()

    def assign(self, val: Any, name: Optional[str] = None) -> Any:
        """Writes `val` into the slice of the variable; returns the updated variable."""
        var = _SLICED_FROM[self]
        op = self._op
        if name is None:
            name = op.name + "/_assign"
        masks = {m: op._attrs[m] for m in _MASKS}
        begin, end, strides = op._inputs[1:4]
        if getattr(var, "_is_resource_variable", False):
            from tf1compat.framework.tensor_conversion import convert_to_tensor
            value = convert_to_tensor(val, dtype=var.dtype)
            update = apply_op("ResourceStridedSliceAssign",
                              [var.handle, begin, end, strides, value], masks, name=name)
            return var._lazy_read(update)
        return apply_op1("StridedSliceAssign", [var._ref(), begin, end, strides, val], masks,
                         name=name)


def attach_slice_assign(t: Tensor, var: Any) -> Tensor:
    """Gives the slice `t` of `var` its `assign` method (TF attaches one to the tensor)."""
    if t._is_eager_tensor:
        return t        # strided_slice made it an EagerSlicedVariable already
    if t._op._type == "StridedSlice" and type(t) is Tensor:
        t.__class__ = SlicedVariableTensor   # same layout: only methods are added
        _SLICED_FROM[t] = var
    return t
