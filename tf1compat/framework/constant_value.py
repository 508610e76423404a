"""Graph-build-time constant folding for shape inference (TF's `tensor_util.constant_value`).

Shape rules use this to see through `tf.shape(x)`, `tf.stack([...])`, `tf.concat`, casts
and slices of shapes, so `tf.reshape(x, [tf.shape(x)[0], -1])` keeps a static shape as TF.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np

from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape

__all__ = ["constant_value", "constant_value_as_shape", "is_constant"]

_FOLDERS: Dict[str, Callable[[Any], Optional[np.ndarray]]] = {}


def _folder(*op_types: str) -> Callable:
    def register(fn: Callable) -> Callable:
        for t in op_types:
            _FOLDERS[t] = fn
        return fn
    return register


def constant_value(tensor: Any, partial: bool = False) -> Optional[np.ndarray]:
    """The tensor's value if it can be computed at graph build, else None.

    Known folders first (Shape of a static shape, Pack, Concat, ...); then, as TF's C++
    shape inference does, any small stateless subgraph of constants is evaluated by
    running its kernels on the CPU (so `tf.range(tf.reduce_max([1, 5]))` has shape (5,)).
    """
    if isinstance(tensor, np.ndarray):
        return tensor
    if not isinstance(tensor, Tensor):
        return None
    if tensor._is_eager_tensor:
        # Eager: the value itself, for small integer tensors (what shape rules and
        # kernels bake in); see tf1compat/runtime/eager_tensor.py.
        return tensor._static_value()
    fold = _FOLDERS.get(tensor.op.type)
    if fold is not None:
        try:
            value = fold(tensor)
        except (ValueError, TypeError, IndexError):
            value = None
        if value is not None:
            return value
    return _evaluate(tensor, _FOLD_NODE_LIMIT)


# TF evaluates constant subgraphs of limited size for shape inference; so do we.
_FOLD_NODE_LIMIT = 32
_FOLD_ELEMENT_LIMIT = 1000


def _evaluate(tensor: Tensor, budget: int) -> Optional[np.ndarray]:
    op = tensor.op
    od = op._op_def
    # A PlaceholderWithDefault can be fed, so its default is not a constant (as in TF).
    if op.type == "PlaceholderWithDefault":
        return None
    if budget <= 0 or od.kernel is None or od.stateful or od.cpu_only or od.constant or \
            od.ref_input_indices or od.state_alias is not None or od.grad_sources is not None \
            or op._control_flow_context is not None or op._control_inputs:
        return None
    if tensor.shape.num_elements() is None or tensor.shape.num_elements() > _FOLD_ELEMENT_LIMIT:
        return None
    cache = op._graph._extras.setdefault("constant_folding", {})
    if tensor in cache:
        return cache[tensor]
    inputs = []
    for t in op._inputs:
        value = constant_value(t) if t.op.type in _FOLDERS else _evaluate(t, budget - 1)
        if value is None:
            cache[tensor] = None
            return None
        inputs.append(value)
    cache[tensor] = result = _run_kernel(op, inputs, tensor.value_index)
    return result


def _run_kernel(op: Any, inputs: list, index: int) -> Optional[np.ndarray]:
    import torch

    from tf1compat.framework import dtypes
    from tf1compat.framework.constant_op import value_to_torch

    cpu = torch.device("cpu")

    class _FoldingContext:
        device = cpu
        node = op

        @property
        def runtime(self) -> Any:
            raise RuntimeError("constant folding has no session")

    try:
        args = [value_to_torch(np.asarray(v), t.dtype.base_dtype, cpu)
                for v, t in zip(inputs, op._inputs)]
        with torch.no_grad():
            out = op._op_def.kernel(op, _FoldingContext())(*args)
        if len(op._outputs) > 1:
            out = out[index]
        if isinstance(out, torch.Tensor):
            if out.dtype == torch.bfloat16:
                return None
            return out.numpy().copy()
        if isinstance(out, np.ndarray):
            return out.copy()
        if op._outputs[index].dtype.base_dtype == dtypes.string:
            return np.asarray(out, dtype=object)
        return None
    except Exception:  # noqa: BLE001 - anything that cannot fold is simply not constant
        return None


def is_constant(tensor: Any) -> bool:
    return constant_value(tensor) is not None


def _out_type(op: Any) -> Any:
    return op._attrs["out_type"].as_numpy_dtype


@_folder("Const")
def _const(t: Tensor) -> np.ndarray:
    return t.op._attrs["value"]


@_folder("Shape")
def _shape(t: Tensor) -> Optional[np.ndarray]:
    s = t.op.inputs[0].shape
    if s.is_fully_defined():
        return np.array(s.as_list(), dtype=_out_type(t.op))
    return None


@_folder("ShapeN")
def _shape_n(t: Tensor) -> Optional[np.ndarray]:
    s = t.op.inputs[t.value_index].shape
    if s.is_fully_defined():
        return np.array(s.as_list(), dtype=_out_type(t.op))
    return None


@_folder("Size")
def _size(t: Tensor) -> Optional[np.ndarray]:
    s = t.op.inputs[0].shape
    if s.is_fully_defined():
        return np.array(s.num_elements(), dtype=_out_type(t.op))
    return None


@_folder("Rank")
def _rank(t: Tensor) -> Optional[np.ndarray]:
    r = t.op.inputs[0].shape.rank
    return None if r is None else np.array(r, dtype=np.int32)


@_folder("Range")
def _range(t: Tensor) -> Optional[np.ndarray]:
    vals = [constant_value(i) for i in t.op.inputs]
    if any(v is None for v in vals):
        return None
    return np.arange(vals[0], vals[1], vals[2], dtype=t.dtype.as_numpy_dtype)


@_folder("Cast")
def _cast(t: Tensor) -> Optional[np.ndarray]:
    v = constant_value(t.op.inputs[0])
    return None if v is None else np.asarray(v).astype(t.dtype.as_numpy_dtype)


@_folder("ConcatV2")
def _concat_v2(t: Tensor) -> Optional[np.ndarray]:
    vals = [constant_value(i) for i in t.op.inputs]
    if any(v is None for v in vals):
        return None
    return np.concatenate(vals[:-1], axis=int(vals[-1]))


@_folder("Pack")
def _pack(t: Tensor) -> Optional[np.ndarray]:
    vals = [constant_value(i) for i in t.op.inputs]
    if any(v is None for v in vals):
        return None
    return np.stack(vals, axis=t.op._attrs["axis"]).astype(t.dtype.as_numpy_dtype)


@_folder("Fill")
def _fill(t: Tensor) -> Optional[np.ndarray]:
    dims, value = constant_value(t.op.inputs[0]), constant_value(t.op.inputs[1])
    if dims is None or value is None:
        return None
    return np.full(dims, value, dtype=value.dtype)


@_folder("ExpandDims")
def _expand_dims(t: Tensor) -> Optional[np.ndarray]:
    # TF's C++ shape inference evaluates this one too (gradients of gathers rely on it).
    value, axis = constant_value(t.op.inputs[0]), constant_value(t.op.inputs[1])
    if value is None or axis is None:
        return None
    return np.expand_dims(value, int(np.asarray(axis).reshape(-1)[0]))


@_folder("Identity", "StopGradient", "Snapshot")
def _identity(t: Tensor) -> Optional[np.ndarray]:
    return constant_value(t.op.inputs[0])


@_folder("Equal", "NotEqual")
def _equal(t: Tensor) -> Optional[np.ndarray]:
    a, b = constant_value(t.op.inputs[0]), constant_value(t.op.inputs[1])
    if a is None or b is None:
        return None
    return np.equal(a, b) if t.op.type == "Equal" else np.not_equal(a, b)


@_folder("StridedSlice")
def _strided_slice(t: Tensor) -> Optional[np.ndarray]:
    op = t.op
    value = constant_value(op.inputs[0])
    begin, end, strides = (constant_value(i) for i in op.inputs[1:])
    if value is None or begin is None or end is None or strides is None:
        return None
    if value.ndim != 1 or begin.size != 1 or op._attrs.get("ellipsis_mask") or \
            op._attrs.get("new_axis_mask"):
        return None
    b = None if op._attrs["begin_mask"] & 1 else int(begin[0])
    e = None if op._attrs["end_mask"] & 1 else int(end[0])
    if op._attrs["shrink_axis_mask"] & 1:
        return np.asarray(value[int(begin[0])])
    return value[slice(b, e, int(strides[0]))]


def constant_value_as_shape(tensor: Tensor) -> TensorShape:
    """A 1-D shape tensor's value as a (partial) TensorShape; -1 entries are unknown."""
    if tensor.shape.rank == 0:
        value = constant_value(tensor)
        if value is None:
            raise ValueError("Received a scalar with unknown value as shape; require a "
                             "statically known scalar with value '-1' to describe an "
                             "unknown shape.")
        if int(value) != -1:
            raise ValueError(f"Received a scalar value '{value}' as shape; require a "
                             "statically known scalar with value '-1' to describe an "
                             "unknown shape.")
        return unknown_shape()
    shape = tensor.shape.with_rank(1)
    if shape.as_list() == [0]:
        return TensorShape([])
    if tensor._is_eager_tensor:
        value = constant_value(tensor)
        if value is None:
            return unknown_shape(shape.as_list()[0])
        return TensorShape([int(d) if d >= 0 else None for d in value])
    op = tensor.op
    if op.type == "Shape":
        return op.inputs[0].shape
    if op.type == "Pack":
        dims = []
        for inp in op.inputs:
            v = constant_value(inp)
            dims.append(None if v is None or int(v) < 0 else int(v))
        return TensorShape(dims)
    if op.type == "ConcatV2":
        result = TensorShape([])
        for inp in op.inputs[:-1]:
            result = result.concatenate(constant_value_as_shape(inp))
        return result
    if op.type == "StridedSlice":
        sliced = _slice_of_shape(op)
        if sliced is not None:
            return sliced
    if op.type == "Cast":
        return constant_value_as_shape(op.inputs[0])
    result = unknown_shape(shape.as_list()[0])
    value = constant_value(tensor)
    if value is not None:
        result = result.merge_with(TensorShape([int(d) if d >= 0 else None for d in value]))
    return result


def _slice_of_shape(op: Any) -> Optional[TensorShape]:
    source = op.inputs[0]
    if source.op.type != "Shape" or source.op.inputs[0].shape.rank is None:
        return None
    begin, end, strides = (constant_value(i) for i in op.inputs[1:])
    if begin is None or end is None or strides is None or begin.size != 1:
        return None
    attrs = op._attrs
    if attrs.get("ellipsis_mask") or attrs.get("new_axis_mask") or attrs.get("shrink_axis_mask"):
        return None
    dims = source.op.inputs[0].shape.as_list()
    b = None if attrs["begin_mask"] & 1 else int(begin[0])
    e = None if attrs["end_mask"] & 1 else int(end[0])
    return TensorShape(dims[slice(b, e, int(strides[0]))])
