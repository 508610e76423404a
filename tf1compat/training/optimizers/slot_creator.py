"""Slot variables: per-variable companions named `<var>/<name>` (moving averages, optimizer
accumulators), created colocated with their primary, as TF's slot_creator.
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import colocate_with
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable, get_variable_scope, variable_scope
from tf1compat.variables.variables import RefVariable, Variable

__all__ = ["create_slot", "create_slot_with_initializer", "create_zeros_slot"]


def _create_slot_var(primary: Any, val: Any, scope: str, validate_shape: bool, shape: Any,
                     dtype: Any) -> Variable:
    """A non-trainable get_variable (the scope's partitioner is switched off meanwhile)."""
    current_partitioner = get_variable_scope().partitioner
    get_variable_scope().set_partitioner(None)
    shape = shape if callable(val) else None
    if getattr(primary, "_is_resource_variable", False):
        use_resource: Optional[bool] = True
    elif isinstance(primary, RefVariable):
        use_resource = False
    else:
        use_resource = None
    slot = get_variable(scope, initializer=val, trainable=False, use_resource=use_resource,
                        shape=shape, dtype=dtype, validate_shape=validate_shape)
    get_variable_scope().set_partitioner(current_partitioner)
    if isinstance(primary, Variable) and primary._save_slice_info:
        real_slot_name = slot.name[len(primary.op.name + "/"):-2]
        info = primary._save_slice_info
        n = slot.shape.ndims
        if n is None or n > 0:
            slot._set_save_slice_info(Variable.SaveSliceInfo(
                info.full_name + "/" + real_slot_name, info.full_shape[:n],
                info.var_offset[:n], info.var_shape[:n]))
    return slot


def _prefix(primary: Any) -> str:
    return primary._shared_name if isinstance(primary, Variable) else primary.op.name


def create_slot(primary: Any, val: Any, name: str, colocate_with_primary: bool = True
                ) -> Variable:
    """A slot `<primary>/<name>` initialized to the tensor `val`."""
    validate_shape = val.get_shape().is_fully_defined()
    with variable_scope(None, _prefix(primary) + "/" + name):
        if colocate_with_primary:
            with colocate_with(primary):
                return _create_slot_var(primary, val, "", validate_shape, None, None)
        return _create_slot_var(primary, val, "", validate_shape, None, None)


def create_slot_with_initializer(primary: Any, initializer: Any, shape: Any, dtype: Any,
                                 name: str, colocate_with_primary: bool = True) -> Variable:
    """A slot `<primary>/<name>` of `shape` built by `initializer`."""
    validate_shape = shape.is_fully_defined()
    with variable_scope(None, _prefix(primary) + "/" + name):
        if colocate_with_primary:
            with colocate_with(primary):
                return _create_slot_var(primary, initializer, "", validate_shape, shape, dtype)
        return _create_slot_var(primary, initializer, "", validate_shape, shape, dtype)


def create_zeros_slot(primary: Any, name: str, dtype: Any = None,
                      colocate_with_primary: bool = True) -> Variable:
    """A zero-filled slot shaped like `primary`."""
    from tf1compat.ops.array_ops import shape as shape_op
    from tf1compat.ops.creation_ops import zeros
    if dtype is None:
        dtype = primary.dtype
    slot_shape = primary.get_shape()
    if slot_shape.is_fully_defined():
        return create_slot_with_initializer(primary, zeros_initializer(), slot_shape,
                                            D.as_dtype(dtype).base_dtype, name,
                                            colocate_with_primary=colocate_with_primary)
    if isinstance(primary, Variable):
        slot_shape = shape_op(primary.initialized_value())
    else:
        slot_shape = shape_op(primary)
    val = zeros(slot_shape, dtype=dtype)
    return create_slot(primary, val, name, colocate_with_primary=colocate_with_primary)
