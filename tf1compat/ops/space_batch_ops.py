"""SpaceToBatchND / BatchToSpaceND and TF's `with_space_to_batch` (dilated windows).

TF1's `tf.nn.convolution`, `atrous_conv2d`, `depthwise_conv2d(rate=...)` and `tf.nn.pool`
with a dilation rate rewrite the dilated window as an undilated one on a space-to-batch
transformed input; the same ops are built here (so graphs have TF's names) and run as
pad + reshape + permute in torch, which autograd differentiates.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch
import torch.nn.functional as F

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import array_ops
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import node_desc

__all__ = ["space_to_batch_nd", "batch_to_space_nd", "space_to_batch", "batch_to_space",
           "required_space_to_batch_paddings", "with_space_to_batch", "depth_to_space",
           "space_to_depth"]



def _ints2(value: Any) -> Optional[np.ndarray]:
    v = constant_value(value) if isinstance(value, Tensor) else value
    return None if v is None else np.asarray(v).astype(np.int64)


def _s2b_shape(ctx: Any) -> List[TensorShape]:
    x = ctx.shape(0)
    block, pads = _ints2(ctx.inputs[1]), _ints2(ctx.inputs[2])
    if x.rank is None or block is None:
        return [unknown_shape(x.rank)]
    m = block.size
    if x.rank < m + 1:
        raise ValueError(f"Shape must be at least rank {m + 1} but is rank {x.rank} "
                         f"{node_desc(ctx)}")
    dims = x.as_list()
    prod = int(np.prod(block))
    out = [None if dims[0] is None else dims[0] * prod]
    for i in range(m):
        s = dims[1 + i]
        if s is None or pads is None:
            out.append(None)
            continue
        padded = s + int(pads.reshape(-1, 2)[i, 0]) + int(pads.reshape(-1, 2)[i, 1])
        if padded % int(block[i]):
            raise ValueError(f"Dimension size must be evenly divisible by {int(block[i])} but "
                             f"is {padded} {node_desc(ctx)}")
        out.append(padded // int(block[i]))
    return [TensorShape(out + dims[1 + m:])]


def _b2s_shape(ctx: Any) -> List[TensorShape]:
    x = ctx.shape(0)
    block, crops = _ints2(ctx.inputs[1]), _ints2(ctx.inputs[2])
    if x.rank is None or block is None:
        return [unknown_shape(x.rank)]
    m = block.size
    dims = x.as_list()
    prod = int(np.prod(block))
    if dims[0] is not None and dims[0] % prod:
        raise ValueError(f"Dimension size must be evenly divisible by {prod} but is {dims[0]} "
                         f"{node_desc(ctx)}")
    out = [None if dims[0] is None else dims[0] // prod]
    for i in range(m):
        s = dims[1 + i]
        if s is None or crops is None:
            out.append(None)
            continue
        c = crops.reshape(-1, 2)[i]
        out.append(s * int(block[i]) - int(c[0]) - int(c[1]))
    return [TensorShape(out + dims[1 + m:])]


def space_to_batch_kernel(x: torch.Tensor, block: Sequence[int],
                          pads: Sequence[Sequence[int]]) -> torch.Tensor:
    """TF's SpaceToBatchND on a torch tensor (differentiable)."""
    m = len(block)
    rest = x.dim() - 1 - m
    flat: List[int] = [0, 0] * rest
    for before, after in reversed([tuple(p) for p in pads]):
        flat.extend([int(before), int(after)])
    if any(flat):
        x = F.pad(x, flat)
    shape = list(x.shape)
    for i, b in enumerate(block):
        if shape[1 + i] % b:
            raise errors.InvalidArgumentError(
                None, None, f"padded_shape[{i}]={shape[1 + i]} is not divisible by "
                            f"block_shape[{i}]={b}")
    split = [shape[0]]
    for i, b in enumerate(block):
        split.extend([shape[1 + i] // b, b])
    x = x.reshape(split + shape[1 + m:])
    perm = [2 + 2 * i for i in range(m)] + [0] + [1 + 2 * i for i in range(m)] + \
        list(range(1 + 2 * m, 1 + 2 * m + rest))
    out_shape = [shape[0] * int(np.prod(block))] + \
        [shape[1 + i] // b for i, b in enumerate(block)] + shape[1 + m:]
    return x.permute(perm).reshape(out_shape)


def batch_to_space_kernel(x: torch.Tensor, block: Sequence[int],
                          crops: Sequence[Sequence[int]]) -> torch.Tensor:
    """TF's BatchToSpaceND on a torch tensor (differentiable)."""
    m = len(block)
    shape = list(x.shape)
    prod = int(np.prod(block))
    if shape[0] % prod:
        raise errors.InvalidArgumentError(
            None, None, f"Input batch dimension ({shape[0]}) is not divisible by product of "
                        f"block sizes ({prod})")
    batch = shape[0] // prod
    rest = shape[1 + m:]
    x = x.reshape(list(block) + [batch] + shape[1:])
    perm = [m]
    for i in range(m):
        perm.extend([m + 1 + i, i])
    perm.extend(range(2 * m + 1, 2 * m + 1 + len(rest)))
    x = x.permute(perm).reshape([batch] + [shape[1 + i] * b for i, b in enumerate(block)] +
                                rest)
    index = [slice(None)]
    for i, (c0, c1) in enumerate(crops):
        size = x.shape[1 + i]
        if c0 + c1 > size:
            raise errors.InvalidArgumentError(
                None, None, f"Crops must be non-negative and not exceed the block-scaled "
                            f"size: crops[{i}] = [{c0}, {c1}], size {size}")
        index.append(slice(int(c0), size - int(c1)))
    return x[tuple(index)]


def _s2b_factory(kernel_fn: Callable[..., torch.Tensor]) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        block_s, pads_s = static_ints(node, 1), static_ints(node, 2)

        def run(x: torch.Tensor, block: Any, pads: Any) -> torch.Tensor:
            b = block_s if block_s is not None else as_int_list(block)
            p = pads_s if pads_s is not None else as_int_list(pads)
            return kernel_fn(x, b, [p[2 * i:2 * i + 2] for i in range(len(b))])
        return run
    return factory


declare("SpaceToBatchND", inputs=["input: T", "block_shape: Tblock_shape",
                                  "paddings: Tpaddings"], outputs=["output: T"],
        attrs={"T": Type(), "Tblock_shape": Type(D.INDEX_TYPES, default=D.int32),
               "Tpaddings": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_s2b_shape, kernel=_s2b_factory(space_to_batch_kernel))
declare("BatchToSpaceND", inputs=["input: T", "block_shape: Tblock_shape",
                                  "crops: Tcrops"], outputs=["output: T"],
        attrs={"T": Type(), "Tblock_shape": Type(D.INDEX_TYPES, default=D.int32),
               "Tcrops": Type(D.INDEX_TYPES, default=D.int32)},
        shape=_b2s_shape, kernel=_s2b_factory(batch_to_space_kernel))


def space_to_batch_nd(input: Any, block_shape: Any, paddings: Any,  # noqa: A002
                      name: Optional[str] = None) -> Tensor:
    """`tf.space_to_batch_nd`: moves blocks of the spatial dims into the batch dim."""
    return apply_op1("SpaceToBatchND", [input, block_shape, paddings], name=name)


def batch_to_space_nd(input: Any, block_shape: Any, crops: Any,  # noqa: A002
                      name: Optional[str] = None) -> Tensor:
    """`tf.batch_to_space_nd`: the inverse of space_to_batch_nd, then crops."""
    return apply_op1("BatchToSpaceND", [input, block_shape, crops], name=name)


def space_to_batch(input: Any, paddings: Any, block_size: Any = None,  # noqa: A002
                   name: Optional[str] = None, block_shape: Any = None) -> Tensor:
    """`tf.space_to_batch` (TF1, 4-D): SpaceToBatchND with a square block."""
    block = block_size if block_size is not None else block_shape
    return space_to_batch_nd(input, np.array([block, block], np.int64), paddings, name=name)


def batch_to_space(input: Any, crops: Any, block_size: Any,  # noqa: A002
                   name: Optional[str] = None, block_shape: Any = None) -> Tensor:
    """`tf.batch_to_space` (TF1, 4-D): BatchToSpaceND with a square block."""
    block = block_size if block_size is not None else block_shape
    return batch_to_space_nd(input, np.array([block, block], np.int64), crops, name=name)


# -- TF's padding helpers -----------------------------------------------------------------------

def required_space_to_batch_paddings(input_shape: Any, block_shape: Any,
                                     base_paddings: Any = None,
                                     name: Optional[str] = None) -> tuple:
    """`tf.required_space_to_batch_paddings`: (paddings, crops) making the padded spatial
    size divisible by `block_shape`; numpy when everything is static, as in TF."""
    with name_scope(name, "required_space_to_batch_paddings", [input_shape, block_shape]):
        input_shape = convert_to_tensor(input_shape, dtype=D.int32, name="input_shape")
        block_shape = convert_to_tensor(block_shape, dtype=D.int32, name="block_shape")
        m = block_shape.shape.as_list()[0]
        if m == 0:
            from tf1compat.ops.creation_ops import zeros
            return zeros([0, 2], D.int32), zeros([0, 2], D.int32)
        if base_paddings is not None:
            base_paddings = convert_to_tensor(base_paddings, dtype=D.int32,
                                              name="base_paddings")
        else:
            from tf1compat.ops.creation_ops import zeros
            base_paddings = zeros([m, 2], D.int32)
        cb, ci, cp = (constant_value(t) for t in (block_shape, input_shape, base_paddings))
        if cb is not None and ci is not None and cp is not None:
            block_shape, input_shape, base_paddings = cb, ci, cp
        pad_start = base_paddings[:, 0]
        orig_pad_end = base_paddings[:, 1]
        full = input_shape + pad_start + orig_pad_end
        pad_end_extra = (block_shape - full % block_shape) % block_shape
        pad_end = orig_pad_end + pad_end_extra
        paddings = array_ops.stack([[pad_start[i], pad_end[i]] for i in range(m)],
                                   name="paddings")
        crops = array_ops.stack([[0, pad_end_extra[i]] for i in range(m)], name="crops")
        return paddings, crops


def _base_paddings(filter_shape: Any, nd: int, rate: Any) -> Any:
    spatial = filter_shape[:nd]
    extra = (spatial - 1) * rate
    start = extra // 2
    end = extra - start
    return array_ops.stack([[start[i], end[i]] for i in range(nd)])


def _adjust(orig: Any, fill_value: int, spatial_dims: Sequence[int]) -> Any:
    """Widens a per-spatial-dim array to cover every dim from 1 (TF's helper)."""
    const = constant_value(orig) if isinstance(orig, Tensor) else np.asarray(orig)
    fill_dims = list(np.shape(const))[1:] if const is not None else orig.shape.as_list()[1:]
    value = const if const is not None else orig
    parts = []
    prev, i = 0, 0
    while i < len(spatial_dims):
        start_i, start_dim = i, spatial_dims[i]
        if start_dim > 1:
            parts.append(np.full([start_dim - 1 - prev] + fill_dims, fill_value, np.int32))
        while i + 1 < len(spatial_dims) and spatial_dims[i + 1] == spatial_dims[i] + 1:
            i += 1
        parts.append(value[start_i:i + 1])
        prev = spatial_dims[i]
        i += 1
    if const is not None:
        return np.concatenate(parts)
    return array_ops.concat(parts, 0)


def with_space_to_batch(input: Any, dilation_rate: Any, padding: Any,  # noqa: A002
                        op: Callable[..., Tensor], filter_shape: Any = None,
                        spatial_dims: Any = None, data_format: Optional[str] = None,
                        num_batch_dims: int = 1, call_filter: Any = None) -> Tensor:
    """`tf.nn.with_space_to_batch`: runs `op(input, num_spatial_dims, padding)` on the
    space-to-batch transformed input so that a dilated window becomes a dense one."""
    input = convert_to_tensor(input, name="input")
    input_shape = input.shape
    dilation_rate = convert_to_tensor(dilation_rate, D.int32, name="dilation_rate")
    if dilation_rate.shape.rank not in (None, 1):
        raise ValueError("`dilation_rate.shape.rank` must be 1. Received: "
                         f"dilation_rate={dilation_rate} of rank {dilation_rate.shape.rank}")
    if not dilation_rate.shape.is_fully_defined():
        raise ValueError("`dilation_rate.shape` must be fully defined.")
    nd = dilation_rate.shape.as_list()[0]
    first = num_batch_dims + 1 if data_format is not None and \
        data_format.startswith("NC") else num_batch_dims
    if spatial_dims is None:
        spatial_dims = range(first, nd + first)
    orig = list(spatial_dims)
    spatial_dims = sorted(set(int(x) for x in orig))
    if spatial_dims != orig or any(x < 1 for x in spatial_dims):
        raise ValueError("`spatial_dims` must be a monotonically increasing sequence of "
                         f"positive integers. Received: spatial_dims={orig}")
    rate_const = constant_value(dilation_rate)
    rate_value: Any = dilation_rate
    if rate_const is not None:
        rate_value = rate_const
        if np.any(rate_const < 1):
            raise ValueError(f"`dilation_rate` must be positive. Received: "
                             f"dilation_rate={rate_const}")
        if np.all(rate_const == 1):
            return op(input, nd, padding)
    from tf1compat.ops.nn_conv import convert_padding
    padding, explicit = convert_padding(padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`.")
        filter_shape = convert_to_tensor(filter_shape, name="filter_shape")
        const_fs = constant_value(filter_shape)
        if const_fs is not None:
            base = _base_paddings(const_fs, nd, rate_value)
        else:
            base = _base_paddings(filter_shape, nd, rate_value)
    elif padding == "VALID":
        base = np.zeros([nd, 2], np.int32)
    elif padding == "EXPLICIT":
        full = np.array(explicit).reshape([nd + 2, 2])
        base = full[2:] if data_format is not None and data_format.startswith("NC") \
            else full[1:-1]
    else:
        raise ValueError("`padding` must be one of 'SAME' or 'VALID'. "
                         f"Received: padding={padding}")
    if input_shape.rank is not None:
        dims = input_shape.as_list()
        spatial_shape: Any = [dims[i] for i in spatial_dims]
    else:
        spatial_shape = None
    if spatial_shape is None or None in spatial_shape:
        shape_t = array_ops.shape(input)
        spatial_shape = array_ops.stack([shape_t[i] for i in spatial_dims])
    paddings, crops = required_space_to_batch_paddings(
        input_shape=spatial_shape, base_paddings=base, block_shape=dilation_rate)
    rate_adj = _adjust(dilation_rate, 1, spatial_dims)
    paddings = _adjust(paddings, 0, spatial_dims)
    crops = _adjust(crops, 0, spatial_dims)
    converted = space_to_batch_nd(input, rate_adj, paddings)
    result = op(converted, nd, "VALID")
    out = batch_to_space_nd(result, rate_adj, crops)
    if data_format is not None and data_format.startswith("NC") and call_filter is not None:
        if out.shape.rank is not None and out.shape.as_list()[1] is None:
            dims = out.shape.as_list()
            dims[1] = call_filter.shape.as_list()[-1] if call_filter.shape.rank else None
            out.set_shape(dims)
    return out



# -- DepthToSpace / SpaceToDepth ---------------------------------------------------------------

def _depth_space_shape(to_space: bool) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        x = ctx.shape(0)
        bs = int(ctx.attrs["block_size"])
        fmt = ctx.attrs["data_format"]
        fmt = fmt.decode() if isinstance(fmt, bytes) else fmt
        if bs < 2:
            raise ValueError(f"Attribute block_size has value {bs} which is less than the "
                             f"minimum of 2 {node_desc(ctx)}")
        if x.rank is None:
            return [unknown_shape(4)]
        if x.rank != 4:
            raise ValueError(f"Shape must be rank 4 but is rank {x.rank} {node_desc(ctx)}")
        n, h, w, c = x.as_list() if fmt == "NHWC" else [x.as_list()[i] for i in (0, 2, 3, 1)]
        if to_space:
            if c is not None and c % (bs * bs):
                raise ValueError(f"Dimension size must be evenly divisible by {bs * bs} but "
                                 f"is {c} {node_desc(ctx)}")
            dims = [n, None if h is None else h * bs, None if w is None else w * bs,
                    None if c is None else c // (bs * bs)]
        else:
            for d in (h, w):
                if d is not None and d % bs:
                    raise ValueError(f"Dimension size must be evenly divisible by {bs} but "
                                     f"is {d} {node_desc(ctx)}")
            dims = [n, None if h is None else h // bs, None if w is None else w // bs,
                    None if c is None else c * bs * bs]
        if fmt != "NHWC":
            dims = [dims[0], dims[3], dims[1], dims[2]]
        return [TensorShape(dims)]
    return rule


def _depth_space_kernel(to_space: bool) -> Callable[[Any, Any], Callable]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        bs = int(node.attrs["block_size"])
        fmt = node.attrs["data_format"]
        nchw = (fmt.decode() if isinstance(fmt, bytes) else fmt) == "NCHW"

        def run(x: torch.Tensor) -> torch.Tensor:
            if nchw:
                x = x.permute(0, 2, 3, 1)
            n, h, w, c = x.shape
            if to_space:
                # depth index (i * bs + j) * C' + c goes to position (h*bs + i, w*bs + j).
                y = x.reshape(n, h, w, bs, bs, c // (bs * bs)).permute(0, 1, 3, 2, 4, 5)
                y = y.reshape(n, h * bs, w * bs, c // (bs * bs))
            else:
                if h % bs or w % bs:
                    raise errors.InvalidArgumentError(
                        None, None, f"Image width {w} and height {h} should be divisible by "
                                    f"block_size: {bs}")
                y = x.reshape(n, h // bs, bs, w // bs, bs, c).permute(0, 1, 3, 2, 4, 5)
                y = y.reshape(n, h // bs, w // bs, c * bs * bs)
            return y.permute(0, 3, 1, 2) if nchw else y
        return run
    return factory


for _op_type, _to_space in (("DepthToSpace", True), ("SpaceToDepth", False)):
    declare(_op_type, inputs=["input: T"], outputs=["output: T"],
            attrs={"T": Type(), "block_size": None, "data_format": "NHWC"},
            shape=_depth_space_shape(_to_space), kernel=_depth_space_kernel(_to_space))


def depth_to_space(input: Any, block_size: int, name: Optional[str] = None,  # noqa: A002
                   data_format: str = "NHWC") -> Tensor:
    """`tf.depth_to_space`: rearranges depth blocks into spatial blocks."""
    return apply_op1("DepthToSpace", [input], {"block_size": int(block_size),
                                               "data_format": data_format}, name=name)


def space_to_depth(input: Any, block_size: int, name: Optional[str] = None,  # noqa: A002
                   data_format: str = "NHWC") -> Tensor:
    """`tf.space_to_depth`: rearranges spatial blocks into depth."""
    return apply_op1("SpaceToDepth", [input], {"block_size": int(block_size),
                                               "data_format": data_format}, name=name)
