"""Slicing: Slice, StridedSlice (TF's full mask semantics) and `Tensor.__getitem__`.

`dense_spec` reproduces TF's canonicalisation of a strided-slice spec (implicit trailing
ellipsis, new axes, shrink axes, negative strides, clamping) once, for both the static
shape rule and the kernel, so graph-build shapes and run-time results agree.
"""

from __future__ import annotations

import builtins
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.hooks import TENSOR_OPERATORS
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import node_desc

INDEX = (D.int16, D.int32, D.int64)
_PySlice = builtins.slice
NEW_AXIS, SHRINK_AXIS = -1, -2


class SliceError(ValueError):
    """A slice spec that is invalid for the input (TF: ValueError at build, else run time)."""


def dense_spec(dims: Sequence[Optional[int]], begin: Sequence[int], end: Sequence[int],
               strides: Sequence[int], begin_mask: int, end_mask: int, ellipsis_mask: int,
               new_axis_mask: int, shrink_axis_mask: int
               ) -> Tuple[List[Tuple[int, int, int, Optional[int]]], List[int]]:
    """Canonical per-input-dim (begin, end, stride, size) and the output-shape gather list.

    `size` is None when the dim is unknown and not fully masked. The gather list holds,
    per output dim, an input dim index, NEW_AXIS or SHRINK_AXIS (dropped).
    """
    rank = len(dims)
    n = len(begin)
    if not (ellipsis_mask & ((1 << n) - 1)):
        ellipsis_mask |= 1 << n      # TF appends an implicit trailing ellipsis
        n += 1
        begin, end, strides = list(begin) + [0], list(end) + [0], list(strides) + [1]
    first_ellipsis = next(i for i in range(n) if ellipsis_mask & (1 << i))
    new_after = sum(1 for i in range(first_ellipsis + 1, n) if new_axis_mask & (1 << i))
    d_begin, d_end, d_stride = [0] * rank, [0] * rank, [1] * rank
    d_bmask = d_emask = d_shrink = 0
    gather: List[int] = []
    full = 0
    for i in range(n):
        bit = 1 << i
        if ellipsis_mask & bit:
            stop = min(rank - (n - i) + 1 + new_after, rank)
            while full < stop:
                d_bmask |= 1 << full
                d_emask |= 1 << full
                gather.append(full)
                full += 1
        elif new_axis_mask & bit:
            gather.append(NEW_AXIS)
        else:
            if full == rank:
                raise SliceError(f"Index out of range using input dim {full}; input has only "
                                 f"{rank} dims")
            d_begin[full], d_end[full], d_stride[full] = begin[i], end[i], strides[i]
            if begin_mask & bit:
                d_bmask |= 1 << full
            if end_mask & bit:
                d_emask |= 1 << full
            if shrink_axis_mask & bit:
                d_shrink |= 1 << full
                gather.append(SHRINK_AXIS)
            else:
                gather.append(full)
            full += 1
    out = []
    for i in range(rank):
        dim, s = dims[i], d_stride[i]
        if s == 0:
            raise SliceError(f"strides[{i}] must be non-zero")
        shrink = bool(d_shrink & (1 << i))
        if shrink and s is not None and s <= 0:
            raise SliceError("only stride 1 allowed on non-range indexing.")
        masked_b, masked_e = bool(d_bmask & (1 << i)), bool(d_emask & (1 << i))
        # Statically unknown begin/end/stride (None): only full slices keep their size.
        unknown = s is None or (d_begin[i] is None and not masked_b) or \
            (d_end[i] is None and not masked_e and not shrink) or \
            (shrink and d_begin[i] is None)
        if unknown:
            size = 1 if shrink else (dim if masked_b and masked_e and s in (1, -1) else None)
            out.append((d_begin[i], d_end[i], s, size))
            continue
        if dim is None:
            size = 1 if shrink else None
            out.append((d_begin[i], d_end[i], s, size))
            continue
        if shrink:
            b = d_begin[i] + dim if d_begin[i] < 0 else d_begin[i]
            if b < 0 or b >= dim:
                raise SliceError(f"slice index {d_begin[i]} of dimension {i} out of bounds.")
            out.append((b, b + 1, 1, 1))
            continue
        lo, hi = (0, dim) if s > 0 else (-1, dim - 1)

        def canonical(x: int, masked: bool, c: int) -> int:
            if masked:
                return (lo, hi)[c] if s > 0 else (lo, hi)[(c + 1) & 1]
            x = x + dim if x < 0 else x
            return lo if x < lo else hi if x > hi else x
        b = canonical(d_begin[i], masked_b, 0)
        e = canonical(d_end[i], masked_e, 1)
        length = e - b
        if length == 0 or ((length < 0) != (s < 0)):
            size = 0
        else:
            size = length // s + (1 if length % s else 0)
        out.append((b, e, s, size))
    return out, gather


def _final_shape(spec: list, gather: List[int]) -> List[Optional[int]]:
    shape = []
    for g in gather:
        if g == NEW_AXIS:
            shape.append(1)
        elif g != SHRINK_AXIS:
            shape.append(spec[g][3])
    return shape


_MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


def _strided_slice_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    attrs = [ctx.attrs[m] for m in _MASKS]
    vals = [_partial_ints(ctx.inputs[i]) for i in (1, 2, 3)]
    sparse_len = ctx.shape(1).as_list()[0] if ctx.shape(1).rank == 1 else None
    if s.rank is None:
        return [unknown_shape()]
    if any(v is None for v in vals):
        if sparse_len is None or attrs[2]:
            return [unknown_shape()]
        shrink = bin(attrs[4] & ((1 << sparse_len) - 1)).count("1")
        new = bin(attrs[3] & ((1 << sparse_len) - 1)).count("1")
        return [unknown_shape(s.rank - shrink + new)]
    begin, end, strides = vals
    try:
        spec, gather = dense_spec(s.as_list(), begin, end, strides, *attrs)
    except SliceError as e:
        # TF's shape function reads the strides before it validates the index spec, and
        # begin/end only afterwards: the message lists the tensors read by then.
        computed = (3,) if str(e).startswith("Index out of range") else (1, 2, 3)
        raise ValueError(f"{e} {node_desc(ctx, computed=computed)}") from None
    return [TensorShape(_final_shape(spec, gather))]


def _partial_ints(t: Tensor) -> Optional[List[Optional[int]]]:
    """A 1-D int tensor's static elements, None for unknown ones (through Pack)."""
    from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
    value = constant_value(t)
    if value is not None:
        return [int(v) for v in np.asarray(value).reshape(-1)]
    if t.op.type == "Pack":
        out: List[Optional[int]] = []
        for elem in t.op.inputs:
            v = constant_value(elem)
            out.append(None if v is None else int(v))
        return out
    return None


def _apply_spec(x: Any, spec: list, gather: List[int]) -> Any:
    index = []
    flips = []
    for axis, (b, e, s, size) in enumerate(spec):
        if s > 0:
            index.append(_PySlice(b, e, s) if size else _PySlice(0, 0))
        else:
            n = x.shape[axis]
            flips.append(axis)
            index.append(_PySlice(n - 1 - b, n - 1 - e, -s) if size else _PySlice(0, 0))
    if flips:
        x = torch.flip(x, flips) if isinstance(x, torch.Tensor) else np.flip(x, flips)
    y = x[tuple(index)]
    final = [1 if g == NEW_AXIS else spec[g][3] for g in gather if g != SHRINK_AXIS]
    if list(y.shape) != final:
        y = y.reshape(final)
    return y


def _strided_slice_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    masks = [node.attrs[m] for m in _MASKS]
    static = [static_ints(node, i) for i in (1, 2, 3)]
    cache: dict = {}

    def run(x: Any, b: Any, e: Any, s: Any) -> Any:
        if static[0] is not None and static[1] is not None and static[2] is not None:
            key = tuple(x.shape)
            plan = cache.get(key)
            if plan is None:
                plan = cache[key] = _plan(key, *static)
        else:
            plan = _plan(tuple(x.shape), as_int_list(b), as_int_list(e), as_int_list(s))
        return _apply_spec(x, *plan)

    def _plan(shape: tuple, begin: list, end: list, strides: list) -> tuple:
        try:
            return dense_spec(list(shape), begin, end, strides, *masks)
        except SliceError as err:
            raise errors.InvalidArgumentError(None, None, str(err)) from None
    return run


def _strided_slice_static_value(t: Tensor) -> Optional[np.ndarray]:
    op = t.op
    begin, end, strides = (constant_value(i) for i in op.inputs[1:])
    if begin is None or end is None or strides is None:
        return None
    value = constant_value(op.inputs[0])
    if value is None:
        value = _known_shape_entries(op.inputs[0])
    if value is None or value.ndim != 1 or begin.size != 1 or \
            op.attrs.get("ellipsis_mask") or op.attrs.get("new_axis_mask"):
        return None
    b = None if op.attrs["begin_mask"] & 1 else int(begin[0])
    e = None if op.attrs["end_mask"] & 1 else int(end[0])
    try:
        if op.attrs["shrink_axis_mask"] & 1:
            picked = np.asarray(value[int(begin[0])])
        else:
            picked = value[b:e:int(strides[0])]
    except IndexError:
        return None
    if picked.dtype == object:
        # A slice of a partly known shape: constant only where every entry it selects is
        # known (TF's shape inference folds `tf.shape(x)[0]` when x's first dimension is).
        if any(v is None for v in picked.reshape(-1)):
            return None
        picked = picked.astype(t.dtype.as_numpy_dtype)
    return picked


def _known_shape_entries(source: Tensor) -> Optional[np.ndarray]:
    """A partly known 1-D shape tensor (`tf.shape(x)` of a partial shape, a Pack or Concat
    of such) as an object array of ints and None, or None when nothing describes it."""
    if source.op._op_def.shape_value is None or source.shape.rank != 1 or \
            not source.dtype.is_integer:
        return None
    dims = constant_value_as_shape(source)
    if dims.rank is None:
        return None
    return np.asarray(dims.as_list(), dtype=object)


def _strided_slice_shape_value(t: Tensor) -> Optional[TensorShape]:
    """A slice of a shape tensor (a Shape, or a Pack/Concat of partly known sizes: the
    `output_shape[1:]` of conv1d_transpose): the static dimensions it selects."""
    op = t.op
    source = op.inputs[0]
    if source.op.type == "Shape":
        if source.op.inputs[0].shape.rank is None:
            return None
        dims = source.op.inputs[0].shape.as_list()
    else:
        entries = _known_shape_entries(source)
        if entries is None:
            return None
        dims = list(entries)
    begin, end, strides = (constant_value(i) for i in op.inputs[1:])
    if begin is None or end is None or strides is None or begin.size != 1:
        return None
    attrs = op.attrs
    if attrs.get("ellipsis_mask") or attrs.get("new_axis_mask") or attrs.get("shrink_axis_mask"):
        return None
    b = None if attrs["begin_mask"] & 1 else int(begin[0])
    e = None if attrs["end_mask"] & 1 else int(end[0])
    return TensorShape(dims[b:e:int(strides[0])])


declare("StridedSlice", inputs=["input: T", "begin: Index", "end: Index", "strides: Index"],
        outputs=["output: T"],
        attrs={"T": Type(), "Index": Type(INDEX), "begin_mask": 0, "end_mask": 0,
               "ellipsis_mask": 0, "new_axis_mask": 0, "shrink_axis_mask": 0},
        shape=_strided_slice_shape, kernel=_strided_slice_kernel, view=True,
        grad_names=names("StridedSliceGrad", None, None, None),
        static_value=_strided_slice_static_value, shape_value=_strided_slice_shape_value)


def strided_slice(input_: Any, begin: Any, end: Any, strides: Any = None, begin_mask: int = 0,
                  end_mask: int = 0, ellipsis_mask: int = 0, new_axis_mask: int = 0,
                  shrink_axis_mask: int = 0, var: Any = None, name: Optional[str] = None
                  ) -> Tensor:
    """`tf.strided_slice`."""
    if strides is None:
        from tf1compat.ops.creation_ops import ones_like
        strides = ones_like(begin)
    masks = {"begin_mask": begin_mask, "end_mask": end_mask,
             "ellipsis_mask": ellipsis_mask, "new_axis_mask": new_axis_mask,
             "shrink_axis_mask": shrink_axis_mask}
    out = apply_op1("StridedSlice", [input_, begin, end, strides], masks, name=name)
    if var is not None and out._is_eager_tensor:
        # Eager: the slice of a variable keeps what its `assign` needs (no op to look at).
        from tf1compat.runtime.eager_tensor import EagerSlicedVariable
        return EagerSlicedVariable(out, var, (begin, end, strides), masks)
    return out


def _check_index(idx: Any) -> None:
    from tf1compat.framework.tensor_shape import Dimension
    if isinstance(idx, (int, np.integer, Dimension)) and not isinstance(idx, bool):
        return
    if isinstance(idx, Tensor) and idx.dtype.base_dtype in (D.int32, D.int64, D.int16) and \
            idx.shape.rank in (None, 0):
        return
    raise TypeError("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and "
                    f"scalar tf.int32/tf.int64 tensors are valid indices, got {idx!r}")


def _is_undefined_dimension(d: Any) -> bool:
    from tf1compat.framework.tensor_shape import Dimension
    return isinstance(d, Dimension) and d.value is None


def slice_helper(tensor: Any, slice_spec: Any, var: Any = None) -> Tensor:
    """`Tensor.__getitem__`: TF's numpy-like basic indexing as one StridedSlice."""
    tensor = convert_to_tensor(tensor)
    if isinstance(slice_spec, bool) or (isinstance(slice_spec, Tensor) and
                                        slice_spec.dtype == D.bool) or \
            (isinstance(slice_spec, np.ndarray) and slice_spec.dtype == bool):
        from tf1compat.ops.indexing_ops import boolean_mask
        return boolean_mask(tensor, slice_spec)
    if not isinstance(slice_spec, (list, tuple)):
        slice_spec = [slice_spec]
    begin, end, strides = [], [], []
    begin_mask = end_mask = ellipsis_mask = new_axis_mask = shrink_axis_mask = 0
    for index, s in enumerate(slice_spec):
        if isinstance(s, _PySlice):
            start, stop, step = (None if v is None or _is_undefined_dimension(v) else v
                                 for v in (s.start, s.stop, s.step))
            for v in (start, stop, step):
                if v is not None:
                    _check_index(v)
            begin.append(0 if start is None else start)
            end.append(0 if stop is None else stop)
            strides.append(1 if step is None else step)
            begin_mask |= (start is None) << index
            end_mask |= (stop is None) << index
        elif s is Ellipsis:
            begin.append(0)
            end.append(0)
            strides.append(1)
            ellipsis_mask |= 1 << index
        elif s is None:
            begin.append(0)
            end.append(0)
            strides.append(1)
            new_axis_mask |= 1 << index
        else:
            _check_index(s)
            begin.append(s)
            end.append(s + 1)
            strides.append(1)
            shrink_axis_mask |= 1 << index
    from tf1compat.ops.array_ops import stack
    from tf1compat.ops.math_ops import cast
    with name_scope(None, "strided_slice", [tensor] + begin + end + strides) as scope:
        if begin:
            packed = [stack(begin), stack(end), stack(strides)]
            if any(p.dtype == D.int64 for p in packed):
                packed = [cast(p, D.int64) for p in packed]
        else:
            from tf1compat.framework.constant_op import constant
            empty = constant([], dtype=D.int32)
            packed = [empty, empty, empty]
        return strided_slice(tensor, *packed, begin_mask=begin_mask, end_mask=end_mask,
                             ellipsis_mask=ellipsis_mask, new_axis_mask=new_axis_mask,
                             shrink_axis_mask=shrink_axis_mask, var=var, name=scope)


TENSOR_OPERATORS["getitem"] = slice_helper


# -- Slice ----------------------------------------------------------------------------------

def _slice_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    begin, size = ctx.const(1), ctx.const(2)
    n = ctx.shape(1).as_list()[0] if ctx.shape(1).rank == 1 else s.rank
    if size is None:
        return [unknown_shape(n)]
    size = [int(v) for v in np.asarray(size).reshape(-1)]
    if s.rank is not None and len(size) != s.rank:
        # TF constrains the input's rank to the length of begin/size.
        raise ValueError(f"Shape must be rank {len(size)} but is rank {s.rank} {node_desc(ctx)}")
    dims = s.as_list() if s.rank is not None else [None] * len(size)
    out = []
    for i, (d, sz) in enumerate(zip(dims, size)):
        if sz == -1:
            if begin is None or d is None:
                out.append(None)
            else:
                out.append(d - int(np.asarray(begin).reshape(-1)[i]))
        else:
            # TF's shape function does not check begin + size against the input (the
            # kernel does, at run time).
            out.append(sz)
    return [TensorShape(out)]


def _slice_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(x: Any, b: Any, s: Any) -> Any:
        begin, size = as_int_list(b), as_int_list(s)
        index = []
        for axis, (bi, si) in enumerate(zip(begin, size)):
            n = x.shape[axis]
            stop = n if si == -1 else bi + si
            if bi < 0 or bi > n:
                raise errors.InvalidArgumentError(
                    None, None, f"Expected begin[{axis}] in [0, {n}], but got {bi}")
            if stop > n or si < -1:
                raise errors.InvalidArgumentError(
                    None, None, f"Expected size[{axis}] in [0, {n - bi}], but got {si}")
            index.append(_PySlice(bi, stop))
        return x[tuple(index)]
    return run


declare("Slice", inputs=["input: T", "begin: Index", "size: Index"], outputs=["output: T"],
        attrs={"T": Type(), "Index": Type((D.int32, D.int64))},
        shape=_slice_shape, kernel=_slice_kernel, view=True, grad_names=names("Pad", None, None))


def slice(input_: Any, begin: Any, size: Any, name: Optional[str] = None) -> Tensor:  # noqa: A001
    """`tf.slice`: `size` -1 takes the rest of a dimension."""
    return apply_op1("Slice", [input_, begin, size], name=name)
