"""Static shape rules of the array ops' reshaping and joining (Reshape, ExpandDims, Squeeze,
ConcatV2, Pack, Unpack, Split, SplitV): `InferCtx -> [TensorShape]`, raising TF's ValueError
with TF's node description. Kept apart from the kernels (array_ops.py declares the ops and
names these as their `shape=`), as JAX's lax keeps shape rules apart from lowerings.
"""

from __future__ import annotations

from typing import Any, List, Optional

import numpy as np

from tf1compat.framework.constant_value import constant_value_as_shape
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import merge_shapes, node_desc, normalize_axis

__all__ = ["reshape_shape", "expand_dims_shape", "squeeze_shape", "concat_shape", "pack_shape",
           "unpack_shape", "split_shape", "split_v_shape"]


def reshape_shape(ctx: Any) -> List[TensorShape]:
    in_shape = ctx.shape(0)
    target = ctx.const(1)
    if target is not None:
        dims = [int(d) for d in np.asarray(target).reshape(-1)]
        for d in dims:
            if d < -1:      # TF's MakeShapeFromShapeTensor, before any node context
                raise ValueError(f"Invalid value in tensor used for shape: {d}")
        if dims.count(-1) > 1:
            # TF's shape function leaves this to the kernel (an error at run time).
            return [TensorShape([None if d == -1 else d for d in dims])]
        n = in_shape.num_elements()
        known = int(np.prod([d for d in dims if d != -1])) if dims else 1
        # TF's messages print the target as a partial shape (-1 as "?") and list it.
        where = node_desc(ctx, partial=(1,))
        target = "[" + ",".join("?" if d == -1 else str(d) for d in dims) + "]"
        if -1 in dims:
            idx = dims.index(-1)
            if n is None:
                out = [None if i == idx else d for i, d in enumerate(dims)]
                return [TensorShape(out)]
            if known == 0:
                # A zero size makes TF's element count of the target 0: an input with
                # elements cannot fit, an empty one leaves the -1 unknown (the kernel works
                # it out from the other sizes: [-1, 2, 0] of [0, 2, 0] is 1).
                if n:
                    raise ValueError(f"Cannot reshape a tensor with {n} elements to shape "
                                     f"{target} ({known} elements) {where}")
                dims[idx] = None
                return [TensorShape(dims)]
            if n % known:
                raise ValueError(f"Dimension size must be evenly divisible by {known} but is "
                                 f"{n} {where}")
            dims[idx] = n // known
        elif n is not None and n != known:
            raise ValueError(f"Cannot reshape a tensor with {n} elements to shape {target} "
                             f"({known} elements) {where}")
        elif n is None and in_shape.rank is not None:
            # Unknown dims multiply the known part: the target must be a multiple of it.
            known_in = int(np.prod([d for d in in_shape.as_list() if d is not None]))
            if known_in and known % known_in:
                raise ValueError(f"Dimension size must be evenly divisible by {known_in} but "
                                 f"is {known} {where}")
        return [TensorShape(dims)]
    shape_t = ctx.inputs[1]
    if shape_t.shape.rank == 0:
        return [unknown_shape()]
    return [constant_value_as_shape(shape_t)]


def expand_dims_shape(ctx: Any) -> List[TensorShape]:
    axis = ctx.const(1)
    s = ctx.shape(0)
    if axis is None or s.rank is None:
        return [unknown_shape() if s.rank is None else unknown_shape(s.rank + 1)]
    a = int(np.asarray(axis).reshape(-1)[0])
    r = s.rank
    if a < -r - 1 or a > r:
        raise ValueError(f"dim {a} not in the interval [{-r - 1}, {r}]. "
                         f"{node_desc(ctx, computed=(1,))}")
    if a < 0:
        a += r + 1
    dims = s.as_list()
    return [TensorShape(dims[:a] + [1] + dims[a:])]


def squeeze_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    axes = ctx.attrs["squeeze_dims"]
    if s.rank is None:
        return [unknown_shape()]
    dims = s.as_list()
    r = len(dims)
    if axes:
        norm = set()
        for a in axes:
            if a < -r or a >= r:
                raise ValueError(f"Tried to squeeze dim index {a} for tensor with {r} "
                                 f"dimensions. {node_desc(ctx)}")
            a %= r
            if dims[a] is not None and dims[a] != 1:
                raise ValueError(f"Can not squeeze dim[{a}], expected a dimension of 1, got "
                                 f"{dims[a]} {node_desc(ctx)}")
            norm.add(a)
        return [TensorShape([d for i, d in enumerate(dims) if i not in norm])]
    if any(d is None for d in dims):
        return [unknown_shape()]
    return [TensorShape([d for d in dims if d != 1])]


def concat_shape(ctx: Any) -> List[TensorShape]:
    shapes = ctx.shapes[:-1]
    axis = ctx.const(len(ctx.inputs) - 1)
    rank = next((s.rank for s in shapes if s.rank is not None), None)
    if rank is None:
        return [unknown_shape()]
    if axis is None:
        out = unknown_shape(rank)
        for s in shapes:
            if s.rank is not None and s.rank != rank:
                raise ValueError(f"Shape must be rank {rank} but is rank {s.rank} "
                                 f"{node_desc(ctx)}")
        return [out]
    a = int(np.asarray(axis).reshape(-1)[0])
    if a < -rank or a >= rank:
        need = a + 1 if a >= 0 else -a
        raise ValueError(f"Shape must be at least rank {need} but is rank {rank} "
                         f"{node_desc(ctx, computed=(len(ctx.inputs) - 1,))}")
    a %= rank
    total: Optional[int] = 0
    # TF merges the dimensions before and after the axis as two sub-shapes; its mismatch
    # message indexes and prints those sub-shapes.
    before: Optional[list] = None
    after: Optional[list] = None
    for s in shapes:
        if s.rank is None:
            total = None
            continue
        if s.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {s.rank} {node_desc(ctx)}")
        dims = s.as_list()
        before = merge_subshape(before, dims[:a], ctx)
        after = merge_subshape(after, dims[a + 1:], ctx)
        total = None if total is None or dims[a] is None else total + dims[a]
    return [TensorShape(before + [total] + after)]


def merge_subshape(merged: Optional[list], dims: list, ctx: Any) -> list:
    if merged is None:
        return list(dims)
    out = []
    for i, (m, d) in enumerate(zip(merged, dims)):
        if m is not None and d is not None and m != d:
            axis_input = len(ctx.inputs) - 1
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {m} and {d}. "
                             f"Shapes are {dims_text(merged, None, 0)} and "
                             f"{dims_text(dims, None, 0)}. "
                             f"{node_desc(ctx, computed=(axis_input,))}")
        out.append(d if m is None else m)
    return out


def dims_text(dims: list, skip: Optional[int], rank: int) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def pack_shape(ctx: Any) -> List[TensorShape]:
    shapes = ctx.shapes
    out = shapes[0] if shapes else unknown_shape()
    for i in range(1, len(shapes)):
        out = merge_shapes(out, shapes[i], ctx, f"From merging shape {i - 1} with other shapes.")
    if out.rank is None:
        return [unknown_shape()]
    axis = ctx.attrs["axis"]
    r = out.rank + 1
    if axis < -r or axis >= r:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-r}, {r})")
    axis %= r
    dims = out.as_list()
    return [TensorShape(dims[:axis] + [len(ctx.inputs)] + dims[axis:])]


def unpack_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    num, axis = ctx.attrs["num"], ctx.attrs["axis"]
    if s.rank is None:
        return [unknown_shape()] * num
    r = s.rank
    if axis < -r or axis >= r:
        raise ValueError(f"axis = {axis} not in [{-r}, {r})")
    axis %= r
    dims = s.as_list()
    if dims[axis] is not None and dims[axis] != num:
        raise ValueError(f"Dimension must be {num} but is {dims[axis]} {node_desc(ctx)}")
    return [TensorShape(dims[:axis] + dims[axis + 1:])] * num


def split_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.attrs["num_split"]
    axis = ctx.const(0)
    s = ctx.shape(1)
    if s.rank is None:
        return [unknown_shape()] * n
    if axis is None:
        return [unknown_shape(s.rank)] * n
    a = int(np.asarray(axis).reshape(-1)[0])
    if a < -s.rank or a >= s.rank:
        raise ValueError(f"Dimension size, given by scalar input {a} must be in range "
                         f"[{-s.rank}, {s.rank}) {node_desc(ctx, computed=(0,))}")
    a %= s.rank
    dims = s.as_list()
    if dims[a] is not None:
        if dims[a] % n:
            raise ValueError(f"Dimension size must be evenly divisible by {n} but is "
                             f"{dims[a]}\n\tNumber of ways to split should evenly divide the "
                             f"split dimension {node_desc(ctx, computed=(0,))}")
        dims[a] //= n
    return [TensorShape(dims)] * n


def split_v_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.attrs["num_split"]
    s = ctx.shape(0)
    sizes, axis = ctx.const(1), ctx.const(2)
    if s.rank is None or axis is None:
        return [unknown_shape(s.rank)] * n
    a = normalize_axis(int(np.asarray(axis).reshape(-1)[0]), s.rank, ctx)
    dims = s.as_list()
    if sizes is None:
        return [TensorShape(dims[:a] + [None] + dims[a + 1:])] * n
    sizes = [int(v) for v in np.asarray(sizes).reshape(-1)]
    if dims[a] is not None and -1 not in sizes and sum(sizes) != dims[a]:
        raise ValueError(f"can't split axis of size {dims[a]} into pieces of size "
                         f"[{','.join(str(v) for v in sizes)}] "
                         f"{node_desc(ctx, computed=(1, 2))}")
    if sizes.count(-1) == 1 and dims[a] is not None:
        sizes[sizes.index(-1)] = dims[a] - sum(v for v in sizes if v != -1)
    if dims[a] is not None and -1 not in sizes and sum(sizes) != dims[a]:
        raise ValueError(f"Determined shape must either match input shape along split_dim "
                         f"exactly if fully specified, or be less than the size of the input "
                         f"along split_dim if not fully specified.  Got: {sum(sizes)} vs. "
                         f"{dims[a]} {node_desc(ctx)}")
    return [TensorShape(dims[:a] + [None if v < 0 else v] + dims[a + 1:]) for v in sizes]
