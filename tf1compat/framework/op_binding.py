"""Binding an op's inputs to its signature, shared by graph mode (`apply_op`) and eager mode.

`bind_inputs` converts Python values to tensors with TF's rules (preferred dtypes from
attr defaults, `<arg>_<k>` names for list elements), infers type attrs and checks dtypes
with TF's messages; `capture_inputs` captures outer tensors into function graphs;
`complete_attrs` fills the attrs left unset with their declared defaults.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.tensor import Tensor

__all__ = ["complete_attrs", "bind_inputs", "capture_inputs", "convert_one", "list_values",
           "graph_tensor_in_eager", "preferred_dtype",
           "GraphTensorInEagerError"]


def complete_attrs(op_def: _op_def.OpDef, attrs: dict) -> dict:
    """Fills the attrs not given (or inferred from inputs) with their declared defaults."""
    for attr_name, kind in op_def.attrs.items():
        if attr_name not in attrs:
            default = kind.default if isinstance(kind, (_op_def.Type, _op_def.TypeList,
                                                        _op_def.Int)) else kind
            if default is _op_def.REQUIRED:
                raise TypeError(f"{op_def.type}: missing required attr {attr_name!r}")
            attrs[attr_name] = default
    return attrs


def list_values(op_def: _op_def.OpDef, spec: _op_def.ArgSpec, value: Any,
                attrs: dict) -> List[Any]:
    """The values of a list argument, checked as TF's op helper does (a list, at least the
    minimum length, the length a given count attr says); sets the count attr."""
    if isinstance(value, Tensor) or not isinstance(value, (list, tuple)):
        raise TypeError(f"Expected list for '{spec.name}' argument to "
                        f"'{op_def.type}' Op, not {value}.")
    values = list(value)
    if spec.number_attr is not None:
        n_min = op_def.attrs[spec.number_attr].minimum
        if len(values) < n_min:
            raise ValueError(f"List argument '{spec.name}' to '{op_def.type}' Op with "
                             f"length {len(values)} shorter than minimum length {n_min}.")
        if spec.number_attr in attrs and attrs[spec.number_attr] != len(values):
            raise ValueError(f"List argument '{spec.name}' to '{op_def.type}' Op "
                             f"has length {len(values)}, expected {attrs[spec.number_attr]}")
        attrs[spec.number_attr] = len(values)
    return values


def bind_inputs(op_def: _op_def.OpDef, inputs: Sequence[Any], attrs: dict,
                convert_one: Callable[..., Any] = None, eager: bool = False) -> tuple:
    """Converts inputs to tensors, infers type attrs and checks dtypes, as TF's op helper.

    Returns `(flat, groups)`: the input tensors in signature order and, per signature
    argument, the indices of its tensors in `flat`. The one binding of graph and eager
    mode: `convert_one(op_def, spec, value, attrs, index, name)` converts one value of an
    argument typed by a type attr or a fixed dtype (graph mode: `convert_one` below, with
    TF's graph-build TypeErrors; eager: runtime/eager_binding.py, with TF eager's
    InvalidArgumentErrors). Graph mode captures outer tensors afterwards (`capture_inputs`).
    """
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    convert_one = convert_one or globals()["convert_one"]
    flat: List[Any] = []
    groups: List[List[int]] = []
    for spec, value in zip(op_def.inputs, inputs):
        if spec.is_list:
            values = list_values(op_def, spec, value, attrs)
            tensors = []
            if spec.type_list_attr is not None:
                given = attrs.get(spec.type_list_attr)
                for k, v in enumerate(values):
                    want = None if given is None else _dtypes.as_dtype(given[k])
                    t = convert_to_tensor(v, dtype=want, name=f"{spec.name}_{k}")
                    if eager and not t._is_eager_tensor:
                        raise graph_tensor_in_eager(t)
                    tensors.append(t)
                attrs[spec.type_list_attr] = [t.dtype.base_dtype for t in tensors]
            else:
                # A list of one type: take the dtype from the first tensor among the values.
                earlier = spec.type_attr in attrs
                if spec.type_attr is not None and not earlier:
                    for v in values:
                        if isinstance(v, Tensor) or hasattr(v, "_as_graph_element"):
                            attrs[spec.type_attr] = convert_to_tensor(v).dtype.base_dtype
                            break
                try:
                    for k, v in enumerate(values):
                        # TF names converted list elements "<arg>_<index>" (concat/values_1).
                        tensors.append(convert_one(op_def, spec, v, attrs, len(flat) + k,
                                                   f"{spec.name}_{k}"))
                except (TypeError, ValueError):
                    if eager:
                        raise
                    raise _list_type_error(op_def, spec, values, attrs, earlier) from None
        else:
            tensors = [convert_one(op_def, spec, value, attrs, len(flat), None)]
        groups.append(list(range(len(flat), len(flat) + len(tensors))))
        flat.extend(tensors)
    return flat, groups


def _list_type_error(op_def: _op_def.OpDef, spec: _op_def.ArgSpec, values: List[Any],
                     attrs: dict, earlier: bool) -> TypeError:
    """TF's TypeError for a list argument whose values do not convert to one dtype: it
    names every value's own dtype (`tf.concat` of an int32 and an int64 tensor)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    observed = []
    for v in values:
        try:
            observed.append(convert_to_tensor(v, as_ref=spec.is_ref).dtype.base_dtype.name)
        except (TypeError, ValueError):
            observed.append("<NOT CONVERTIBLE TO TENSOR>")
    prefix = (f"Tensors in list passed to '{spec.name}' of '{op_def.type}' Op have types "
              f"[{', '.join(observed)}]")
    if spec.fixed_dtype is not None:
        return TypeError(f"{prefix} that do not match expected type {spec.fixed_dtype.name}.")
    if earlier:
        want = _dtypes.as_dtype(attrs[spec.type_attr])
        return TypeError(f"{prefix} that do not match type {want.name} inferred from earlier "
                         "arguments.")
    return TypeError(f"{prefix} that don't all match.")


def preferred_dtype(op_def: _op_def.OpDef, spec: _op_def.ArgSpec, value: Any) -> Any:
    """The dtype TF converts a non-tensor input to while its type attr is not yet inferred.

    The attr's default (reduction axes `[]` become int32), except for a numpy value whose
    own dtype the attr allows: it keeps it (`axis=np.int64(1)` is int64, as TF's op helper
    does; a float32 array for int32-or-int64 axes still becomes int32)."""
    if spec.type_attr is None:
        return None
    kind = op_def.attrs[spec.type_attr]
    if isinstance(value, (np.ndarray, np.generic)) and value.dtype != object:
        try:
            own = _dtypes.as_dtype(value.dtype)
        except TypeError:
            own = None
        if own is not None and (kind.allowed is None or own in kind.allowed):
            return None
    return None if kind.default is _op_def.REQUIRED else kind.default


class GraphTensorInEagerError(TypeError):
    """TF's TypeError for a graph tensor given to an op under eager execution; `tensor` is
    that tensor (`framework/graph.apply_op` offers it to `hooks.SYMBOLIC_IN_EAGER`)."""

    def __init__(self, tensor: Any):
        super().__init__(f"An op outside of the function building code is being passed a "
                         f"\"Graph\" tensor ({tensor!r}) under eager execution.")
        self.tensor = tensor


def graph_tensor_in_eager(t: Any) -> TypeError:
    """TF's error for a graph tensor given to an op under eager execution."""
    return GraphTensorInEagerError(t)


def capture_inputs(op_def: _op_def.OpDef, flat: List[Tensor], groups: List[List[int]],
                   graph: Any) -> List[Tensor]:
    """Graph mode: inputs from another graph are captured by a function graph (tf.data
    functions, tf.function) as placeholders, and an error elsewhere, as TF."""
    out = list(flat)
    for group in groups:
        for i in group:
            t = out[i]
            if t.graph is graph:
                continue
            capture = getattr(graph, "capture", None) if graph._building_function else None
            if capture is None:
                first = next((x for x in out[:group[0]] if x.graph is graph), None)
                if first is None:
                    raise ValueError(f"Tensor {t} must be from the same graph as the "
                                     f"other inputs of {op_def.type} (and the default "
                                     "graph).")
                raise ValueError(f"{t} must be from the same graph as {first} (graphs are "
                                 f"{t.graph!r} and {graph!r}).")
            out[i] = capture(t)
    return out


def _convert_value(op_def: _op_def.OpDef, spec: _op_def.ArgSpec, value: Any, want: Any,
                   hint: Any, name: str) -> Tensor:
    """`value` as a tensor for `spec`. Where the type attr is not yet inferred and lists its
    allowed dtypes, TF 2's op helper converts without a dtype first and keeps that tensor if
    its dtype is allowed; otherwise it converts again with the attr's default, and the first
    constant stays in the graph unused (`tf.reshape(x, [])` builds `Reshape/shape`, float32,
    and `Reshape/shape_1`, int32)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    kind = op_def.attrs[spec.type_attr] if spec.type_attr is not None else None
    if want is None and hint is not None and kind is not None and kind.allowed:
        try:
            inferred = convert_to_tensor(value, name=name, as_ref=spec.is_ref)
        except TypeError:
            inferred = None
        if inferred is not None and inferred.dtype.base_dtype in kind.allowed:
            return inferred
    return convert_to_tensor(value, dtype=want, name=name, as_ref=spec.is_ref,
                             preferred_dtype=hint)


def convert_one(op_def: _op_def.OpDef, spec: _op_def.ArgSpec, value: Any, attrs: dict,
                index: int, name: Optional[str] = None) -> Tensor:
    """Graph mode: one value as a tensor of the argument's dtype (TF's TypeErrors)."""
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    if spec.type_attr is not None:
        want = attrs.get(spec.type_attr)
        want = None if want is None else _dtypes.as_dtype(want)
    else:
        want = spec.fixed_dtype
    hint = preferred_dtype(op_def, spec, value) if want is None else None
    if isinstance(value, Tensor) and not value._is_eager_tensor:
        tensor = value
    else:
        try:
            tensor = _convert_value(op_def, spec, value, want, hint, name or spec.name)
        except TypeError as e:
            if want is None:
                raise
            raise TypeError(f"Expected {want.name} passed to parameter '{spec.name}' of op "
                            f"'{op_def.type}', got {value!r} of type '{type(value).__name__}' "
                            f"instead. Error: {e}") from None
        except ValueError as e:
            # TF's op_def_library: a value that converts to no tensor at all (None, ragged
            # lists) is named by its argument; one that converts to another dtype is a
            # TypeError naming both dtypes.
            try:
                observed = convert_to_tensor(value, as_ref=spec.is_ref).dtype.base_dtype
            except ValueError as err:
                raise ValueError(f"Tried to convert '{spec.name}' to a tensor and failed. "
                                 f"Error: {err}") from None
            if want is None:
                raise
            raise TypeError(f"Input '{spec.name}' of '{op_def.type}' Op has type "
                            f"{observed.name} that does not match expected type of "
                            f"{want.name}.") from e
    if spec.is_ref and not tensor.dtype._is_ref_dtype:
        raise TypeError(f"'{op_def.type}' Op requires that input '{spec.name}' be a mutable "
                        "tensor (e.g.: a tf.Variable)")
    base = tensor.dtype.base_dtype
    if spec.type_attr is not None:
        if want is None:
            attrs[spec.type_attr] = base
            kind = op_def.attrs[spec.type_attr]
            if kind.allowed is not None and base not in kind.allowed:
                allowed = ", ".join(d.name for d in kind.allowed)
                raise TypeError(f"Value passed to parameter '{spec.name}' has DataType "
                                f"{base.name} not in list of allowed values: {allowed}")
        elif base != want:
            first = next(a.name for a in op_def.inputs if a.type_attr == spec.type_attr)
            raise TypeError(f"Input '{spec.name}' of '{op_def.type}' Op has type {base.name} "
                            f"that does not match type {want.name} of argument '{first}'.")
    elif want is not None and base != want:
        raise TypeError(f"Input '{spec.name}' of '{op_def.type}' Op has type {base.name} "
                        f"that does not match expected type of {want.name}.")
    return tensor
