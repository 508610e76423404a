"""Layout transforms: tile, transpose, reverse, pad (CONSTANT/REFLECT/SYMMETRIC), broadcast_to."""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value, constant_value_as_shape
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import dispatch
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import broadcast_shapes, node_desc, normalize_axis
from tf1compat.ops._kernel_errors import transpose_error



# -- tile -----------------------------------------------------------------------------------

def _tile_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    mult = ctx.const(1)
    if s.rank is None:
        n = ctx.shape(1).as_list()[0] if ctx.shape(1).rank == 1 else None
        return [unknown_shape(n)]
    if mult is None:
        # multiples known in part (a concat of constants and shape slices): those dims
        partial = constant_value_as_shape(ctx.inputs[1])
        if partial.rank != s.rank:
            return [unknown_shape(s.rank)]
        return [TensorShape([None if d is None or m is None else d * m
                             for d, m in zip(s.as_list(), partial.as_list())])]
    mult = [int(m) for m in np.asarray(mult).reshape(-1)]
    if len(mult) != s.rank:
        raise ValueError(f"Shape must be rank {s.rank} but is rank {len(mult)} {node_desc(ctx)}")
    return [TensorShape([None if d is None else d * m for d, m in zip(s.as_list(), mult)])]


def _tile_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    mult = static_ints(node, 1)
    if node.attrs["T"] == D.string:
        return lambda x, m: np.tile(x, as_int_list(m))
    def tile(x: torch.Tensor, m: Any) -> torch.Tensor:
        multiples = as_int_list(m) if mult is None else mult
        if len(multiples) != x.dim():
            # torch's repeat would add leading dimensions: TF refuses.
            raise errors.InvalidArgumentError(
                None, None, f"Expected multiples argument to be a vector of length "
                            f"{x.dim()} but got length {len(multiples)}")
        return x.repeat(multiples)
    return tile


declare("Tile", inputs=["input: T", "multiples: Tmultiples"], outputs=["output: T"],
        attrs={"T": Type(), "Tmultiples": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_tile_shape, kernel=_tile_kernel, grad_names=names("Sum", None))


def tile(input: Any, multiples: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    return apply_op1("Tile", [input, multiples], name=name)


# -- transpose ------------------------------------------------------------------------------

def _transpose_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    perm = ctx.const(1)
    if perm is None:
        return [unknown_shape(s.rank)]
    perm = [int(p) for p in np.asarray(perm).reshape(-1)]
    if s.rank is None:
        return [unknown_shape(len(perm))]
    if len(perm) != s.rank:
        raise ValueError(f"Dimension must be {s.rank} but is {len(perm)} {node_desc(ctx)}")
    for p in perm:
        if p < -s.rank or p >= s.rank:
            raise ValueError(f"perm dim {p} is out of range of input rank {s.rank} "
                             f"{node_desc(ctx, computed=(1,))}")
    if sorted(p % s.rank if s.rank else p for p in perm) != list(range(s.rank)):
        # TF's shape function accepts repeated dimensions (the kernel rejects them).
        return [unknown_shape(s.rank)]
    dims = s.as_list()
    return [TensorShape([dims[p] for p in perm])]


def _transpose_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    perm = static_ints(node, 1)
    conj = node.type == "ConjugateTranspose"
    if node.attrs["T"] == D.string:
        return lambda x, p: np.transpose(x, as_int_list(p))
    if perm is not None:
        if conj:
            return lambda x, p: x.permute(perm).conj_physical()
        return lambda x, p: x.permute(perm)
    if conj:
        return lambda x, p: x.permute(as_int_list(p)).conj_physical()
    return lambda x, p: x.permute(as_int_list(p))


declare("Transpose", inputs=["x: T", "perm: Tperm"], outputs=["y: T"],
        attrs={"T": Type(), "Tperm": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_transpose_shape, kernel=_transpose_kernel, view=True,
        grad_names=names("transpose", None), kernel_error=transpose_error)
declare("ConjugateTranspose", inputs=["x: T", "perm: Tperm"], outputs=["y: T"],
        attrs={"T": Type(), "Tperm": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_transpose_shape, kernel=_transpose_kernel, view=True)


def transpose(a: Any, perm: Any = None, name: str = "transpose", conjugate: bool = False) -> Tensor:
    """`tf.transpose`: reverses the dimensions when `perm` is None."""
    with name_scope(name, "transpose", [a]) as scope:
        if not isinstance(a, Tensor):
            a = convert_to_tensor(a, name="a")
        op_type = "ConjugateTranspose" if conjugate and a.dtype.is_complex else "Transpose"
        if perm is None:
            r = a.shape.rank
            if r is not None:
                perm = np.arange(r - 1, -1, -1, dtype=np.int32)
            else:
                from tf1compat.ops.array_ops import rank as rank_op
                from tf1compat.ops.creation_ops import range as range_op
                rk = rank_op(a)
                perm = (rk - 1) - range_op(0, rk, 1)
        return apply_op1(op_type, [a, perm], name=scope)


# -- reverse --------------------------------------------------------------------------------

def _reverse_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    axes = static_ints(node, 1)
    if node.attrs["T"] == D.string:
        return lambda x, a: np.flip(x, axis=tuple(as_int_list(a))).copy()
    if axes is not None:
        return lambda x, a: torch.flip(x, axes)
    return lambda x, a: torch.flip(x, as_int_list(a))


def _reverse_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    axes = ctx.const(1)
    if axes is not None and s.rank is not None:
        seen = set()
        for a in np.asarray(axes).reshape(-1):
            a = normalize_axis(int(a), s.rank, ctx)
            if a in seen:
                raise ValueError(f"axis {a} specified more than once. {node_desc(ctx)}")
            seen.add(a)
    return [s]


declare("ReverseV2", inputs=["tensor: T", "axis: Tidx"], outputs=["output: T"],
        attrs={"T": Type(), "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_reverse_shape, kernel=_reverse_kernel, grad_names=names("ReverseV2", None))


def reverse(tensor: Any, axis: Any, name: Optional[str] = None) -> Tensor:
    """`tf.reverse` (ReverseV2): reverses the listed axes."""
    return apply_op1("ReverseV2", [tensor, axis], name=name)


# -- pad ------------------------------------------------------------------------------------

def _pad_shape(ctx: Any) -> List[TensorShape]:
    s = ctx.shape(0)
    pads = ctx.const(1)
    p_shape = ctx.shape(1)
    rank = s.rank
    if rank is None and p_shape.rank == 2:
        rank = p_shape.as_list()[0]
    if pads is None:
        return [unknown_shape(rank)]
    pads = np.asarray(pads)
    if pads.ndim == 2 and pads.shape[1] != 2:
        raise ValueError(f"Dimension must be 2 but is {pads.shape[1]} {node_desc(ctx)}")
    pads = pads.reshape(-1, 2)
    if rank is not None and pads.shape[0] != rank:
        # TF constrains the input's rank to the number of rows of paddings.
        raise ValueError(f"Shape must be rank {pads.shape[0]} but is rank {rank} "
                         f"{node_desc(ctx)}")
    if s.rank is None:
        return [unknown_shape(pads.shape[0])]
    if (pads < 0).any():
        raise ValueError(f"The first dimension of paddings must be nonnegative {node_desc(ctx)}")
    dims = s.as_list()
    return [TensorShape([None if d is None else d + int(lo) + int(hi)
                         for d, (lo, hi) in zip(dims, pads)])]


def _torch_pad_list(pads: List[int]) -> List[int]:
    pairs = [pads[i:i + 2] for i in range(0, len(pads), 2)]
    out: List[int] = []
    for lo, hi in reversed(pairs):
        out += [lo, hi]
    return out


def _pad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    pads = static_ints(node, 1)
    if node.attrs["T"] == D.string:
        def np_pad(x: Any, p: Any, c: Any = b"") -> Any:
            pr = np.asarray(as_int_list(p)).reshape(-1, 2)
            return np.pad(x, pr, mode="constant", constant_values=c)
        return np_pad

    def pad(x: torch.Tensor, p: Any, c: Any = None) -> torch.Tensor:
        plist = _torch_pad_list(pads if pads is not None else as_int_list(p))
        if c is None:
            return F.pad(x, plist)
        if x.dtype == torch.bool or not x.is_floating_point():
            value = c.item() if isinstance(c, torch.Tensor) else c
            return F.pad(x, plist, value=value)
        if x.dim() == 0:
            return x
        base = F.pad(x, plist)
        mask = F.pad(torch.zeros_like(x, dtype=torch.bool), plist, value=True)
        return torch.where(mask, c.to(x.dtype), base)
    return pad


def _mirror(x: torch.Tensor, pads: List[int], symmetric: bool) -> torch.Tensor:
    for axis in range(x.dim()):
        lo, hi = pads[2 * axis], pads[2 * axis + 1]
        n = x.shape[axis]
        limit = n if symmetric else n - 1
        if lo > limit or hi > limit:
            relation = "no greater than" if symmetric else "less than"
            raise errors.InvalidArgumentError(
                None, None, f"paddings must be {relation} the dimension size: {lo}, {hi} "
                            f"not {relation} {n}")
        if not lo and not hi:
            continue
        n = x.shape[axis]
        parts = []
        if lo:
            start = 0 if symmetric else 1
            parts.append(x.narrow(axis, start, lo).flip(axis))
        parts.append(x)
        if hi:
            start = n - hi if symmetric else n - 1 - hi
            parts.append(x.narrow(axis, start, hi).flip(axis))
        x = torch.cat(parts, dim=axis)
    return x


def _mirror_pad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    mode = node.attrs["mode"]
    symmetric = mode in ("SYMMETRIC", b"SYMMETRIC")
    pads = static_ints(node, 1)
    if node.attrs["T"] == D.string:
        return lambda x, p: np.pad(x, np.asarray(as_int_list(p)).reshape(-1, 2),
                                   mode="symmetric" if symmetric else "reflect")
    return lambda x, p: _mirror(x, pads if pads is not None else as_int_list(p), symmetric)


declare("Pad", inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"],
        attrs={"T": Type(), "Tpaddings": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_pad_shape, kernel=_pad_kernel, grad_names=names("Slice_1", None))
declare("PadV2", inputs=["input: T", "paddings: Tpaddings", "constant_values: T"],
        outputs=["output: T"],
        attrs={"T": Type(), "Tpaddings": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_pad_shape, kernel=_pad_kernel,
        grad_names=names("Slice_1", None, None), grad_none_inputs=(2,))
declare("MirrorPad", inputs=["input: T", "paddings: Tpaddings"], outputs=["output: T"],
        attrs={"T": Type(), "Tpaddings": Type(D.INDEX_TYPES, default=D.int32), "mode": "REFLECT"},
        shape=_pad_shape, kernel=_mirror_pad_kernel, grad_names=names("MirrorPadGrad", None))


def pad(tensor: Any, paddings: Any, mode: str = "CONSTANT", name: Optional[str] = None,
        constant_values: Any = 0) -> Tensor:
    """`tf.pad` with TF's three modes (case-insensitive)."""
    mode = mode.upper()
    if mode == "CONSTANT":
        if not isinstance(constant_values, Tensor) and np.ndim(constant_values) == 0 and \
                constant_values == 0:
            result = apply_op1("Pad", [tensor, paddings], name=name)
        else:
            with name_scope(name, "PadV2", [tensor]) as scope:
                tensor = convert_to_tensor(tensor, name="input")
                result = apply_op1("PadV2", [tensor, paddings, convert_to_tensor(
                    constant_values, dtype=tensor.dtype.base_dtype)], name=scope)
    elif mode in ("REFLECT", "SYMMETRIC"):
        result = apply_op1("MirrorPad", [tensor, paddings], {"mode": mode}, name=name)
    else:
        raise ValueError(f"Value of argument `mode` expected to be one of \"CONSTANT\", "
                         f"\"REFLECT\", or \"SYMMETRIC\". Received `mode` = {mode}")
    if not result._is_eager_tensor:
        _restore_pad_shape(result, paddings)
    return result


def _paddings_constant(paddings: Any) -> Any:
    """TF's `_get_paddings_constant`: the paddings' known entries, None for the others
    (a list's entries one by one; a tensor's value, or a Pack's inputs one by one as
    `constant_value(partial=True)` has them)."""
    if isinstance(paddings, Tensor):
        value = constant_value(paddings)
        if value is not None:
            return value
        op = paddings.op
        if op.type == "Pack" and op.get_attr("axis") == 0 and op.inputs:
            return [_paddings_constant(t) for t in op.inputs]
        return None
    if isinstance(paddings, (list, tuple)):
        return [_paddings_constant(p) for p in paddings]
    return paddings


def _restore_pad_shape(result: Tensor, paddings: Any) -> None:
    """As TF's `pad` in graph mode: the Pad shape function knows nothing of paddings that
    are not all constant, so each dimension whose input size and both paddings are known
    gets their sum (`tf.pad(x, [(0, n - tf.shape(x)[0]), (0, 0)])` keeps x's last dim)."""
    input_shape = result.op.inputs[0].shape
    known = _paddings_constant(paddings)
    if input_shape.ndims is None or result.shape.is_fully_defined() or known is None:
        return
    new_shape = []
    for padding, dim in zip(known, input_shape.as_list()):
        if padding is None or dim is None or any(x is None for x in padding):
            new_shape.append(None)
        else:
            new_shape.append(int(sum(padding)) + dim)
    result.set_shape(new_shape)


# -- broadcast_to ---------------------------------------------------------------------------

def _broadcast_to_shape(ctx: Any) -> List[TensorShape]:
    from tf1compat.framework.constant_value import constant_value_as_shape
    target = constant_value_as_shape(ctx.inputs[1])
    s = ctx.shape(0)
    if target.rank is not None and s.rank is not None:
        if s.rank > target.rank:
            raise ValueError(f"Rank of input ({s.rank}) must be no greater than rank of "
                             f"output shape ({target.rank}). {node_desc(ctx)}")
        broadcast_shapes(s, target, ctx)
    return [target]


def _broadcast_to_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dims = static_ints(node, 1)
    if node.attrs["T"] == D.string:
        return lambda x, s: np.broadcast_to(x, as_int_list(s)).copy()
    if dims is not None:
        return lambda x, s: x.expand(dims)
    return lambda x, s: x.expand(as_int_list(s))


declare("BroadcastTo", inputs=["input: T", "shape: Tidx"], outputs=["output: T"],
        attrs={"T": Type(), "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_broadcast_to_shape, kernel=_broadcast_to_kernel, view=True,
        grad_names=names("Reshape", None))


def broadcast_to(input: Any, shape: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    return apply_op1("BroadcastTo", [input, shape], name=name)


def broadcast_static_shape(shape_x: Any, shape_y: Any) -> TensorShape:
    return broadcast_shapes(TensorShape(shape_x), TensorShape(shape_y))


def _broadcast_args_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(a: torch.Tensor, b: torch.Tensor) -> torch.Tensor:
        out = torch.broadcast_shapes(tuple(as_int_list(a)), tuple(as_int_list(b)))
        return torch.tensor(list(out), dtype=a.dtype, device=a.device)
    return run


def _broadcast_args_shape(ctx: Any) -> List[TensorShape]:
    """A vector as long as the longer input shape, when both lengths are known (TF)."""
    lengths = [s.as_list()[0] if s.rank == 1 else None for s in ctx.shapes]
    return [TensorShape([None if None in lengths else max(lengths)])]


declare("BroadcastArgs", inputs=["s0: T", "s1: T"], outputs=["r0: T"],
        attrs={"T": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_broadcast_args_shape, kernel=_broadcast_args_kernel, grad="unregistered")


def broadcast_dynamic_shape(shape_x: Any, shape_y: Any) -> Tensor:
    return apply_op1("BroadcastArgs", [shape_x, shape_y])


# tf.tile given a RaggedTensor: handler in tf1compat/ragged/ragged_array.py.
dispatch.add_dispatch_support(globals(), "tile", ("tile",))
