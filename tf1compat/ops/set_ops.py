"""`tf.sets`: set operations over the last dimension of dense or sparse tensors
(DenseToDenseSetOperation, DenseToSparseSetOperation, SparseToSparseSetOperation) and
SetSize.

A set is one "group": a row of the last dimension of a dense tensor, or the values of a
SparseTensor whose indices share all but the last coordinate. Results are SparseTensors
with each group's values sorted, as TF's CPU kernels produce them.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, apply_op1
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import merge_shapes, node_desc

__all__ = ["set_size", "set_intersection", "set_union", "set_difference"]

VALID_DTYPES = (D.int8, D.int16, D.int32, D.int64, D.uint8, D.uint16, D.string)
_OPERATIONS = ("a-b", "b-a", "intersection", "union")


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _dims_text(dims: Sequence[int]) -> str:
    return "[" + ",".join(str(int(d)) for d in dims) + "]"


def _host(x: Any) -> np.ndarray:
    return x if isinstance(x, np.ndarray) else x.detach().cpu().numpy()


# -- groups ----------------------------------------------------------------------------------

def _dense_groups(values: np.ndarray) -> Tuple[List[int], Dict[Tuple[int, ...], list]]:
    if values.ndim < 2:
        raise _invalid(f"Expected at least 2-D, got {values.ndim}-D.")
    lead = list(values.shape[:-1])
    rows = values.reshape(-1, values.shape[-1])
    groups = {}
    for r, row in enumerate(rows):
        groups[tuple(int(i) for i in np.unravel_index(r, lead))] = row.tolist()
    return lead, groups


def _sparse_groups(indices: np.ndarray, values: np.ndarray, shape: np.ndarray,
                   validate: bool) -> Tuple[List[int], Dict[Tuple[int, ...], list]]:
    if len(shape) < 2:
        raise _invalid(f"Invalid rank {len(shape)}: sets need rank >= 2.")
    groups: Dict[Tuple[int, ...], list] = {}
    previous = None
    for i, (index, value) in enumerate(zip(indices.tolist(), values.tolist())):
        if validate:
            if any(not 0 <= c < d for c, d in zip(index, shape)):
                raise _invalid(f"indices[{i}] = {_dims_text(index)} is out of bounds: need "
                               f"0 <= index < {_dims_text(shape)}")
            if previous is not None and index <= previous:
                what = "repeated" if index == previous else \
                    "out of order. Many sparse ops require sorted indices."
                raise _invalid(f"indices[{i}] = {_dims_text(index)} is {what}")
            previous = index
        groups.setdefault(tuple(index[:-1]), []).append(value)
    return [int(d) for d in shape[:-1]], groups


def _combine(operation: str, a: list, b: list) -> list:
    x, y = set(a), set(b)
    if operation == "a-b":
        out = x - y
    elif operation == "b-a":
        out = y - x
    elif operation == "intersection":
        out = x & y
    else:
        out = x | y
    return sorted(out)


def _sparse_result(lead: List[int], groups: Dict[Tuple[int, ...], list], dtype: D.DType,
                   device: torch.device) -> tuple:
    indices: List[List[int]] = []
    values: list = []
    width = 0
    for key in sorted(groups):
        found = groups[key]
        width = max(width, len(found))
        for k, value in enumerate(found):
            indices.append(list(key) + [k])
            values.append(value)
    rank = len(lead) + 1
    index_t = torch.tensor(indices, dtype=torch.int64, device=device).reshape(-1, rank)
    if dtype == D.string:
        value_t: Any = np.empty(len(values), dtype=object)
        value_t[:] = values
    else:
        value_t = torch.tensor(values, dtype=dtype.torch_dtype, device=device)
    shape_t = torch.tensor(lead + [width], dtype=torch.int64, device=device)
    return index_t, value_t, shape_t


def _set_operation_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    operation = node.attrs["set_operation"].lower()
    validate = node.attrs["validate_indices"]
    dtype = node.attrs["T"]
    kind = node.type

    def set_operation(*args: Any) -> tuple:
        if operation not in _OPERATIONS:
            raise _invalid(f"Invalid set_operation {operation}.")
        args = [_host(a) for a in args]
        if kind == "DenseToDenseSetOperation":
            lead1, g1 = _dense_groups(args[0])
            lead2, g2 = _dense_groups(args[1])
        elif kind == "DenseToSparseSetOperation":
            lead1, g1 = _dense_groups(args[0])
            lead2, g2 = _sparse_groups(args[1], args[2], args[3], validate)
        else:
            lead1, g1 = _sparse_groups(args[0], args[1], args[2], validate)
            lead2, g2 = _sparse_groups(args[3], args[4], args[5], validate)
        if lead1 != lead2:
            raise _invalid(f"Mismatched shapes {_dims_text(lead1)} vs {_dims_text(lead2)}")
        out = {}
        for key in set(g1) | set(g2):
            found = _combine(operation, g1.get(key, []), g2.get(key, []))
            if found:
                out[key] = found
        return _sparse_result(lead1, out, dtype, kctx.device)
    return set_operation


def _group_shape(ctx: Any, i: int, sparse: bool) -> TensorShape:
    """The static group shape (all but the last dimension) of input group `i`."""
    if not sparse:
        s = ctx.shape(i)
        if s.rank is not None and s.rank < 2:
            raise ValueError(f"Shape must be at least rank 2 but is rank {s.rank} "
                             f"{node_desc(ctx)}")
        return TensorShape(None) if s.rank is None else TensorShape(s.as_list()[:-1])
    dense_shape = ctx.const_shape(i)
    if dense_shape.rank is None:
        n = ctx.shape(i).as_list()[0] if ctx.shape(i).rank == 1 else None
        return TensorShape(None) if n is None else TensorShape([None] * (n - 1))
    return TensorShape(dense_shape.as_list()[:-1])


def _set_operation_shape(ctx: Any) -> List[TensorShape]:
    if ctx.op_type == "DenseToDenseSetOperation":
        a, b = _group_shape(ctx, 0, False), _group_shape(ctx, 1, False)
    elif ctx.op_type == "DenseToSparseSetOperation":
        a, b = _group_shape(ctx, 0, False), _group_shape(ctx, 3, True)
    else:
        a, b = _group_shape(ctx, 2, True), _group_shape(ctx, 5, True)
    lead = merge_shapes(a, b, ctx) if ctx.op_type == "DenseToDenseSetOperation" else a
    rank = None if lead.rank is None else lead.rank + 1
    return [TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])]


_SET_ATTRS = {"set_operation": "", "validate_indices": True, "T": Type(VALID_DTYPES)}
_OUTPUTS = ["result_indices: int64", "result_values: T", "result_shape: int64"]
declare("DenseToDenseSetOperation", inputs=["set1: T", "set2: T"], outputs=_OUTPUTS,
        attrs=_SET_ATTRS, shape=_set_operation_shape, kernel=_set_operation_kernel,
        grad="none", cpu_only=True)
declare("DenseToSparseSetOperation",
        inputs=["set1: T", "set2_indices: int64", "set2_values: T", "set2_shape: int64"],
        outputs=_OUTPUTS, attrs=_SET_ATTRS, shape=_set_operation_shape,
        kernel=_set_operation_kernel, grad="none", cpu_only=True)
declare("SparseToSparseSetOperation",
        inputs=["set1_indices: int64", "set1_values: T", "set1_shape: int64",
                "set2_indices: int64", "set2_values: T", "set2_shape: int64"],
        outputs=_OUTPUTS, attrs=_SET_ATTRS, shape=_set_operation_shape,
        kernel=_set_operation_kernel, grad="none", cpu_only=True)


def _set_size_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    validate = node.attrs["validate_indices"]

    def set_size(indices: Any, values: Any, shape: Any) -> torch.Tensor:
        lead, groups = _sparse_groups(_host(indices), _host(values), _host(shape), validate)
        out = torch.zeros(lead, dtype=torch.int32)
        for key, found in groups.items():
            out[key] = len(set(found))
        return out.to(kctx.device)
    return set_size


declare("SetSize", inputs=["set_indices: int64", "set_values: T", "set_shape: int64"],
        outputs=["size: int32"], attrs={"validate_indices": True, "T": Type(VALID_DTYPES)},
        shape=lambda ctx: [TensorShape(None)], kernel=_set_size_kernel, grad="none",
        cpu_only=True)


# -- tf.sets ---------------------------------------------------------------------------------

def _convert(value: Any, name: str) -> Any:
    from tf1compat.framework.sparse_tensor import SparseTensorValue
    if isinstance(value, SparseTensorValue):
        return SparseTensor.from_value(value)
    if isinstance(value, SparseTensor):
        return value
    return convert_to_tensor(value, name=name)


def set_size(a: Any, validate_indices: bool = True) -> Any:
    """`tf.sets.size`: the number of unique values in each set of SparseTensor `a`."""
    a = _convert(a, "a")
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a}.")
    if a.values.dtype.base_dtype not in VALID_DTYPES:
        raise TypeError(f"Invalid dtype `{a.values.dtype}` not in supported dtypes: "
                        f"`{_valid_text()}`.")
    return apply_op1("SetSize", [a.indices, a.values, a.dense_shape],
                     {"validate_indices": validate_indices})


def _valid_text() -> str:
    # TF prints its frozenset of dtypes, in the set's (hash) order.
    order = (D.int32, D.uint8, D.int16, D.int8, D.string, D.int64, D.uint16)
    return "frozenset({" + ", ".join(f"tf.{d.name}" for d in order) + "})"


def _convert_pair(a: Any, b: Any) -> Tuple[Any, Any, bool]:
    a = _convert(a, "a")
    if a.dtype.base_dtype not in VALID_DTYPES:
        raise TypeError(f"'a' has invalid dtype `{a.dtype}` not in supported dtypes: "
                        f"`{_valid_text()}`.")
    b = _convert(b, "b")
    if b.dtype.base_dtype != a.dtype.base_dtype:
        raise TypeError(f"Types don't match, {a.dtype} vs {b.dtype}.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        return b, a, True
    return a, b, False


def _set_operation(a: Any, b: Any, operation: str, validate_indices: bool) -> SparseTensor:
    attrs = {"set_operation": operation, "validate_indices": validate_indices}
    if isinstance(a, SparseTensor):
        if not isinstance(b, SparseTensor):
            raise ValueError("Sparse,Dense is not supported, but Dense,Sparse is. Please flip "
                             "the order of your inputs.")
        op = apply_op("SparseToSparseSetOperation", [a.indices, a.values, a.dense_shape,
                                                     b.indices, b.values, b.dense_shape],
                      attrs)
    elif isinstance(b, SparseTensor):
        op = apply_op("DenseToSparseSetOperation", [a, b.indices, b.values, b.dense_shape],
                      attrs)
    else:
        op = apply_op("DenseToDenseSetOperation", [a, b], attrs)
    return SparseTensor(*op.outputs)


def set_intersection(a: Any, b: Any, validate_indices: bool = True) -> SparseTensor:
    """`tf.sets.intersection`: per set, the values in both `a` and `b` (sorted)."""
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "intersection", validate_indices)


def set_union(a: Any, b: Any, validate_indices: bool = True) -> SparseTensor:
    """`tf.sets.union`: per set, the values in `a` or `b` (sorted)."""
    a, b, _ = _convert_pair(a, b)
    return _set_operation(a, b, "union", validate_indices)


def set_difference(a: Any, b: Any, aminusb: bool = True, validate_indices: bool = True
                   ) -> SparseTensor:
    """`tf.sets.difference`: per set, the values of `a` not in `b` (or `b` minus `a`)."""
    a, b, flipped = _convert_pair(a, b)
    if flipped:
        aminusb = not aminusb
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)
