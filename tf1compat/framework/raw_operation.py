"""TF 1.x's raw Operation protocol: `tf.Operation(node_def, g, inputs, output_types, ...)`,
`op._add_input(t)` and `ops.set_shapes_for_outputs(op)`.

Libraries that rebuild graphs op by op use it (Edward's `ed.copy` deep-copies an op's
NodeDef, renames it, sets a new `seed2`, constructs an Operation with no inputs, then adds
the copied inputs one by one and infers the output shapes, as TF before its C API
allowed). The op is registered in its graph by the constructor, as TF 1.15 does (a later
`graph._add_op(op)` changes nothing); given all its inputs, its output shapes are inferred
at once, as TF 1.15's C API does; given fewer, they stay unknown until
`set_shapes_for_outputs`. The caller applies devices and control dependencies itself
(`graph._apply_device_functions`, `graph._record_op_seen_by_control_dependencies`), as
with TF. tf1compat's control-flow ops (traced regions, not TF's dataflow ops) are a
NotImplementedError here.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.hooks import SERIALIZED_FORMS
from tf1compat.framework.op_binding import complete_attrs
from tf1compat.framework.operation import creation_site
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape

if TYPE_CHECKING:
    from tf1compat.framework.operation import Operation

__all__ = ["add_input", "init_from_node_def", "set_shapes_for_outputs"]

_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\-/]*$")


def _node_attrs(node_def: Any) -> dict:
    """The attrs of a NodeDef view (its values, with any AttrValue proto read through
    `node_def.attr[...]` and edited in place taking precedence) or of a NodeDef proto."""
    to_value = SERIALIZED_FORMS["attr_value"]
    values = getattr(node_def, "attr_values", None)
    if values is None:
        return {key: to_value(proto, key) for key, proto in node_def.attr.items()}
    attrs = dict(values)
    for key, proto in node_def.attr._protos.items():
        attrs[key] = to_value(proto, key)
    return attrs


def _input_groups(op_def: _op_def.OpDef, n_inputs: int, attrs: dict) -> list | None:
    """Per signature argument, the indices of its tensors among `n_inputs` flat inputs;
    None while the op has fewer inputs than its signature takes."""
    groups, i = [], 0
    for spec in op_def.inputs:
        if spec.number_attr is not None:
            n = int(attrs[spec.number_attr])
        elif spec.type_list_attr is not None:
            n = len(attrs[spec.type_list_attr])
        else:
            n = 1
        groups.append(list(range(i, i + n)))
        i += n
    return groups if i == n_inputs else None


def init_from_node_def(op: Operation, node_def: Any, g: Any, inputs: Any,
                       output_types: Any, control_inputs: Any, input_types: Any,
                       original_op: Any, op_def: Any) -> None:
    """`Operation.__init__`: `op` as `node_def` (a NodeDef view or proto: its name, op
    type, device and attrs; its inputs are ignored) declares it, in graph `g`."""
    del op_def  # the op type's declaration comes from tf1compat's registry
    from tf1compat.framework.graph import Graph
    if not isinstance(g, Graph):
        raise TypeError(f"g needs to be a Graph: {g}")
    if not _VALID_OP_NAME.match(node_def.name):
        raise ValueError(f"'{node_def.name}' is not a valid node name")
    declaration = _op_def.get_op_def(node_def.op)
    if declaration.not_one_node:
        # TF's control flow is dataflow ops a NodeDef can copy one by one; tf1compat's are
        # traced regions whose captures are bound to the original op's inputs.
        raise NotImplementedError(
            f"tf.Operation(node_def) of a {node_def.op} op ({node_def.name!r}): "
            f"{declaration.not_one_node}; tf1compat cannot rebuild it from a NodeDef")
    attrs = _node_attrs(node_def)
    complete_attrs(declaration, attrs)
    inputs = list(inputs or [])
    for t in inputs:
        if not isinstance(t, Tensor):
            raise TypeError(f"input needs to be a Tensor: {t}")
    if input_types is not None and not all(
            _dtypes.as_dtype(x).is_compatible_with(t.dtype)
            for t, x in zip(inputs, input_types)):
        raise TypeError(f"In op '{node_def.name}', input types "
                        f"({[t.dtype for t in inputs]}) are not compatible with expected "
                        f"types ({list(input_types)})")
    controls = []
    for c in control_inputs or []:
        c = getattr(c, "op", c) if isinstance(c, Tensor) else c
        if not hasattr(c, "_control_outputs"):
            raise TypeError(f"Control input must be an Operation, a Tensor, or "
                            f"IndexedSlices: {c}")
        controls.append(c)
    if output_types is None:
        out_dtypes = declaration.output_dtypes(attrs)
    else:
        out_dtypes = [_dtypes.as_dtype(d) for d in output_types]
    g._check_not_finalized()
    with g._lock:
        if node_def.name in g._nodes_by_name:
            raise ValueError(f"Duplicate node name in graph: '{node_def.name}'")
        g._next_id += 1
        op._setup(g, g._next_id, node_def.name, declaration, inputs, attrs,
                  [(d, TensorShape(None)) for d in out_dtypes], controls, creation_site(4))
        g._add_op(op)
    if node_def.device:
        op._set_device(node_def.device)
    op._original_op = original_op
    if _input_groups(declaration, len(inputs), attrs) is not None:
        set_shapes_for_outputs(op)


def add_input(op: Operation, tensor: Any, dtype: Any = None) -> None:
    """`Operation._add_input`: `tensor` becomes the op's next input."""
    if not isinstance(tensor, Tensor):
        raise TypeError(f"tensor must be a Tensor: {tensor}")
    if tensor.graph is not op.graph:
        raise ValueError(f"Tensor {tensor!r} must be from the same graph as {op!r}.")
    if dtype is not None:
        dtype = _dtypes.as_dtype(dtype)
        if not dtype.is_compatible_with(tensor.dtype):
            raise TypeError(f"Cannot convert a tensor of type {tensor.dtype.name} to an "
                            f"input of type {dtype.name}")
    op._inputs.append(tensor)
    tensor._consumers.append(op)
    op._graph._structure_changed()


def set_shapes_for_outputs(op: Operation) -> None:
    """TF 1.x's `ops.set_shapes_for_outputs`: infers `op`'s output shapes from its inputs
    and attrs and merges them into its outputs' static shapes."""
    groups = _input_groups(op._op_def, len(op._inputs), op._attrs)
    if groups is None:
        raise ValueError(f"Operation {op.name!r} ({op.type}) has {len(op._inputs)} inputs; "
                         f"its shapes cannot be inferred before it has all of them")
    ctx = _op_def.InferCtx(op.type, op.name, list(op._inputs), op._attrs, groups)
    shapes: list[Any] = op._op_def.shape(ctx)
    for t, s in zip(op._outputs, shapes):
        t._shape = t._shape.merge_with(s if isinstance(s, TensorShape) else as_shape(s))
