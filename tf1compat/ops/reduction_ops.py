"""Reductions (sum/mean/max/min/prod/all/any, logsumexp, count_nonzero), argmax/argmin,
cumsum/cumprod, segment sums, clip_by_value/clip_by_norm."""

from __future__ import annotations

import warnings
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.deprecation import deprecated_argument_lookup
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   register_tensor_conversion_function)
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._eigen_reduce import eigen_sum
from tf1compat.ops._kernels import as_int_list, static_ints
from tf1compat.ops._shape_rules import node_desc, reduced_shape
from tf1compat.ops._grad_formulas import cumprod_formula
from tf1compat.ops.math_ops import NUMBER, REAL, cast
from tf1compat.ops import _flops_rules as flops
from tf1compat.ops import dispatch



def _reduction_shape(ctx: Any) -> List[TensorShape]:
    axes = ctx.const(1)
    s = ctx.shape(0)
    keep = ctx.attrs["keep_dims"]
    if axes is None:
        axes_shape = ctx.shape(1)
        if s.rank is not None and axes_shape.rank == 1 and axes_shape.as_list()[0] == 0:
            return [s]
        return [reduced_shape(s, None, keep)]
    return [reduced_shape(s, [int(a) for a in np.asarray(axes).reshape(-1)], keep, ctx)]


def _int_mean(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
    total = torch.sum(x, dim=dims, keepdim=keep, dtype=x.dtype)
    count = x.numel() // max(total.numel(), 1) if dims != () else 1
    return torch.div(total, max(count, 1), rounding_mode="trunc")


def _reduce_all_dims(fn: Callable[..., torch.Tensor]) -> Callable[..., torch.Tensor]:
    """Wraps single-dim torch reductions (prod, all, any) to take several dims."""
    def run(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
        for d in sorted((d % x.dim() for d in dims), reverse=True):
            x = fn(x, dim=d, keepdim=keep)
        return x
    return run


def _sum(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
    return torch.sum(x, dim=dims, keepdim=keep, dtype=x.dtype)


def _mean(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
    if not (x.is_floating_point() or x.is_complex()):
        return _int_mean(x, dims, keep)
    return torch.mean(x, dim=dims, keepdim=keep)


def _max(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
    if x.numel() == 0:
        return _empty_extreme(x, dims, keep, low=True)
    return torch.amax(x, dim=dims, keepdim=keep)


def _min(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
    if x.numel() == 0:
        return _empty_extreme(x, dims, keep, low=False)
    return torch.amin(x, dim=dims, keepdim=keep)


def _empty_extreme(x: torch.Tensor, dims: Any, keep: bool, low: bool) -> torch.Tensor:
    info = torch.finfo(x.dtype) if x.is_floating_point() else torch.iinfo(x.dtype)
    value = (-float("inf") if low else float("inf")) if x.is_floating_point() else \
        (info.min if low else info.max)
    shape = [1 if (i in {d % x.dim() for d in dims}) else s for i, s in enumerate(x.shape)]
    out = torch.full(shape, value, dtype=x.dtype, device=x.device)
    return out if keep else out.reshape([s for i, s in enumerate(x.shape)
                                         if i not in {d % x.dim() for d in dims}])


_REDUCERS = {
    "Sum": _sum, "Mean": _mean, "Max": _max, "Min": _min,
    # (torch.prod widens integers to int64; TF keeps the input dtype)
    "Prod": _reduce_all_dims(lambda x, dim, keepdim: torch.prod(x, dim=dim, keepdim=keepdim,
                                                                dtype=x.dtype)),
    "All": _reduce_all_dims(torch.all), "Any": _reduce_all_dims(torch.any),
    # Integer norms as TF's: the float root truncated back to the integer type.
    "EuclideanNorm": lambda x, dims, keep: torch.linalg.vector_norm(
        x if x.is_floating_point() or x.is_complex() else x.double(), dim=dims,
        keepdim=keep).to(x.dtype),
}


def _eigen_ordered(fn: Callable[..., torch.Tensor], mean: bool) -> Callable[..., torch.Tensor]:
    """`fn` (Sum's or Mean's reducer), adding a CPU float reduction in the order of TF's
    Eigen kernel where ops/_eigen_reduce.py emulates it (every element, trailing or
    leading dimensions), so printed losses carry TF's last bits. Compiled plans call it as
    an op of its own."""
    def run(x: torch.Tensor, dims: Any, keep: bool) -> torch.Tensor:
        out = eigen_sum(x, dims, mean)
        if out is None:
            return fn(x, dims, keep)
        if keep:
            reduced = {d % x.dim() for d in dims}
            out = out.reshape([1 if i in reduced else n for i, n in enumerate(x.shape)])
        return out
    return run


def _reduction_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = _REDUCERS[node.type]
    if node.type in ("Sum", "Mean"):
        fn = _eigen_ordered(fn, node.type == "Mean")
    keep = node.attrs["keep_dims"]
    axes = static_ints(node, 1)
    if axes is not None:
        dims = tuple(axes)
        if not dims:
            return lambda x, a: x
        return lambda x, a: fn(x, dims, keep)

    def run(x: torch.Tensor, a: Any) -> torch.Tensor:
        dims = tuple(as_int_list(a))
        return fn(x, dims, keep) if dims else x
    return run


def _sum_grad_names(op: Any) -> List[Any]:
    # TF tiles the gradient when the reduced shape is static, else broadcasts it.
    shape = op.inputs[0].shape
    axes = constant_value(op.inputs[1])
    if shape.rank is not None and axes is not None:
        dims = shape.as_list()
        flat = [int(a) for a in list(axes.reshape(-1))]
        if flat == list(range(len(dims))) or None not in dims:
            return ["Tile", None]
    return ["BroadcastTo", None]


def _prod_grad_names(op: Any) -> List[Any]:
    # With keep_dims TF's Prod gradient skips one Reshape.
    return ["Reshape_3" if op.attrs.get("keep_dims") else "Reshape_4", None]


for _type, _types, _facts in (
        ("Sum", NUMBER, {"grad_names": _sum_grad_names, "flops": flops.reduction()}),
        ("Mean", NUMBER, {"grad_names": names("truediv", None),
                          "flops": flops.reduction(finalize_flops=1)}),
        ("Max", REAL, {"grad_names": names("mul", None)}),
        ("Min", REAL, {"grad_names": names("mul", None)}),
        ("Prod", NUMBER, {"grad_names": _prod_grad_names}),
        ("EuclideanNorm", NUMBER, {})):
    declare(_type, inputs=["input: T", "reduction_indices: Tidx"], outputs=["output: T"],
            attrs={"keep_dims": False, "T": Type(_types),
                   "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
            shape=_reduction_shape, kernel=_reduction_kernel, **_facts)
for _type in ("All", "Any"):         # (bool only: TF's op has no T attr)
    declare(_type, inputs=["input: bool", "reduction_indices: Tidx"], outputs=["output: bool"],
            attrs={"keep_dims": False, "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
            shape=_reduction_shape, kernel=_reduction_kernel, grad="unregistered")


def _reduction_dims(x: Any, axis: Any) -> Any:
    if axis is not None:
        return axis
    if isinstance(x, Tensor) and x.shape.rank:
        return constant(np.arange(x.shape.rank, dtype=np.int32))
    from tf1compat.ops.array_ops import rank
    from tf1compat.ops.creation_ops import range as range_
    return range_(0, rank(x))


def _may_reduce_to_scalar(keepdims: bool, axis: Any, output: Tensor) -> Tensor:
    if not keepdims and axis is None and output.shape.rank is None:
        output.set_shape([])
    return output


def _lookup(new: Any, old: Any, new_name: str, old_name: str) -> Any:
    return deprecated_argument_lookup(new_name, new, old_name, old)


def _make_reduce(op_type: str, default_name: str) -> Callable[..., Tensor]:
    def reduce(input_tensor: Any, axis: Any = None, keepdims: Any = None,
               name: Optional[str] = None, reduction_indices: Any = None,
               keep_dims: Any = None) -> Tensor:
        axis = _lookup(axis, reduction_indices, "axis", "reduction_indices")
        keepdims = _lookup(keepdims, keep_dims, "keepdims", "keep_dims")
        keepdims = bool(keepdims) if keepdims is not None else False
        input_tensor = convert_to_tensor(input_tensor) if not isinstance(input_tensor, Tensor) \
            and hasattr(input_tensor, "_as_graph_element") else input_tensor
        dims = _reduction_dims(input_tensor, axis)
        return _may_reduce_to_scalar(keepdims, axis, apply_op1(
            op_type, [input_tensor, dims], {"keep_dims": keepdims}, name=name))
    reduce.__name__ = default_name
    reduce.__doc__ = (f"`tf.{default_name}` (TF1 signature: `axis`/`reduction_indices`, "
                      f"`keepdims`/`keep_dims`); op type {op_type}.")
    return reduce


reduce_sum = _make_reduce("Sum", "reduce_sum")
reduce_mean = _make_reduce("Mean", "reduce_mean")
reduce_max = _make_reduce("Max", "reduce_max")
reduce_min = _make_reduce("Min", "reduce_min")
reduce_prod = _make_reduce("Prod", "reduce_prod")
reduce_all = _make_reduce("All", "reduce_all")
reduce_any = _make_reduce("Any", "reduce_any")
_reduce_euclidean_norm = _make_reduce("EuclideanNorm", "reduce_euclidean_norm")


def prod_(x: Any, axes: Any, keep_dims: bool = False, name: Optional[str] = None) -> Tensor:
    return apply_op1("Prod", [x, axes], {"keep_dims": keep_dims}, name=name)


def max_(x: Any, axes: Any, keep_dims: bool = False, name: Optional[str] = None) -> Tensor:
    return apply_op1("Max", [x, axes], {"keep_dims": keep_dims}, name=name)


def reduce_logsumexp(input_tensor: Any, axis: Any = None, keepdims: Any = None,
                     name: Optional[str] = None, reduction_indices: Any = None,
                     keep_dims: Any = None) -> Tensor:
    """`tf.reduce_logsumexp`, stabilised by the (stop-gradient) max as TF."""
    from tf1compat.ops.array_ops import reshape, stop_gradient
    from tf1compat.ops.math_ops import _add_dispatch, exp, is_finite, log, sub
    axis = _lookup(axis, reduction_indices, "axis", "reduction_indices")
    keepdims = bool(_lookup(keepdims, keep_dims, "keepdims", "keep_dims") or False)
    with name_scope(name, "ReduceLogSumExp", [input_tensor]) as scope:
        input_tensor = convert_to_tensor(input_tensor)
        dims = _reduction_dims(input_tensor, axis)
        raw_max = apply_op1("Max", [input_tensor, dims], {"keep_dims": True})
        my_max = stop_gradient(apply_op1("SelectV2", [is_finite(raw_max), raw_max,
                                                      constant(0, raw_max.dtype)]))
        result = log(apply_op1("Sum", [exp(sub(input_tensor, my_max)), dims],
                               {"keep_dims": keepdims}))
        if not keepdims:
            my_max = reshape(my_max, apply_op1("Shape", [result]))
        result = _add_dispatch(result, my_max, name=scope)
        return _may_reduce_to_scalar(keepdims, axis, result)


def count_nonzero(input_tensor: Any = None, axis: Any = None, keepdims: Any = None,
                  dtype: Any = D.int64, name: Optional[str] = None,
                  reduction_indices: Any = None, keep_dims: Any = None, input: Any = None  # noqa: A002
                  ) -> Tensor:
    """`tf.count_nonzero`."""
    from tf1compat.ops.creation_ops import zeros
    from tf1compat.ops.math_ops import not_equal
    input_tensor = input if input_tensor is None else input_tensor
    axis = _lookup(axis, reduction_indices, "axis", "reduction_indices")
    keepdims = _lookup(keepdims, keep_dims, "keepdims", "keep_dims")
    with name_scope(name, "count_nonzero", [input_tensor]):
        input_tensor = convert_to_tensor(input_tensor, name="input_tensor")
        zero = zeros([], dtype=input_tensor.dtype)
        return cast(reduce_sum(cast(not_equal(input_tensor, zero), D.int64), axis=axis,
                               keepdims=keepdims), dtype=dtype)


def reduce_variance(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                    name: Optional[str] = None) -> Tensor:
    """`tf.math.reduce_variance` as TF 2.21 builds it: `Square(x - mean)` (complex inputs:
    `Real(Conj(d) * d)`); integer inputs are a TypeError."""
    from tf1compat.ops.math_extra import real
    from tf1compat.ops.math_ops import conj, multiply, square
    with name_scope(name or "reduce_variance"):
        input_tensor = convert_to_tensor(input_tensor)
        means = reduce_mean(input_tensor, axis=axis, keepdims=True)
        if means.dtype.is_integer:
            raise TypeError(f"Input must be either real or complex. Received integer type "
                            f"{means.dtype}.")
        diff = input_tensor - means
        if diff.dtype.is_complex:
            squared_deviations = real(multiply(conj(diff), diff))
        else:
            squared_deviations = square(diff)
        return reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


def reduce_std(input_tensor: Any, axis: Any = None, keepdims: bool = False,
               name: Optional[str] = None) -> Tensor:
    from tf1compat.ops.math_ops import sqrt
    with name_scope(name or "reduce_std"):
        return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


# -- argmax / argmin --------------------------------------------------------------------------

def _arg_shape(ctx: Any) -> List[TensorShape]:
    axis = ctx.const(1)
    s = ctx.shape(0)
    if s.rank is None or axis is None:
        return [unknown_shape(None if s.rank is None else max(s.rank - 1, 0))]
    a = int(np.asarray(axis).reshape(-1)[0])
    if a < -s.rank or a >= s.rank:
        raise ValueError(f"Dimension ({a}) must be in the range [{-s.rank}, {s.rank}), where "
                         f"{s.rank} is the number of dimensions in the input. "
                         f"{node_desc(ctx, computed=(1,))}")
    return [reduced_shape(s, [a], False)]


def _arg_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = torch.argmax if node.type == "ArgMax" else torch.argmin
    out = node.attrs["output_type"].torch_dtype
    axis = static_ints(node, 1)

    def run(x: torch.Tensor, a: Any) -> torch.Tensor:
        k = axis[0] if axis is not None else as_int_list(a)[0]
        if x.dtype == torch.bool:
            x = x.to(torch.uint8)
        return fn(x, dim=k).to(out)
    return run


for _type in ("ArgMax", "ArgMin"):
    declare(_type, inputs=["input: T", "dimension: Tidx"], outputs=["output: output_type"],
            attrs={"T": Type(NUMBER + (D.bool,)),
                   "Tidx": Type(D.INDEX_TYPES + (D.int16,), default=D.int32),
                   "output_type": Type((D.int16, D.uint16, D.int32, D.int64), default=D.int64)},
            shape=_arg_shape, kernel=_arg_kernel, grad="none", flops=flops.reduction())


def _make_arg(op_type: str) -> Callable[..., Tensor]:
    def arg(input: Any, axis: Any = None, name: Optional[str] = None,  # noqa: A002
            dimension: Any = None, output_type: Any = D.int64) -> Tensor:
        axis = _lookup(axis, dimension, "axis", "dimension")
        if axis is None:
            axis = 0
        return apply_op1(op_type, [input, axis], {"output_type": D.as_dtype(output_type)},
                         name=name)
    arg.__name__ = op_type.lower()
    return arg


argmax = _make_arg("ArgMax")
argmin = _make_arg("ArgMin")


# -- cumsum / cumprod ---------------------------------------------------------------------------

def _cumulative_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    is_sum = node.type == "Cumsum"
    exclusive, reverse = node.attrs["exclusive"], node.attrs["reverse"]
    axis = static_ints(node, 1)

    def run(x: torch.Tensor, a: Any) -> torch.Tensor:
        k = axis[0] if axis is not None else as_int_list(a)[0]
        if not -x.dim() <= k < x.dim():
            from tf1compat.framework import errors
            raise errors.InvalidArgumentError(
                None, None, f"Expected {node._type.lower()} axis in the range [{-x.dim()}, "
                            f"{x.dim()}), but got {k}")
        k %= max(x.dim(), 1)
        if reverse:
            x = torch.flip(x, [k])
        if exclusive and x.shape[k] > 0:  # an empty axis stays empty
            pad_value = 0 if is_sum else 1
            first = torch.full_like(x.narrow(k, 0, 1), pad_value)
            x = torch.cat([first, x.narrow(k, 0, x.shape[k] - 1)], dim=k)
        y = torch.cumsum(x, dim=k, dtype=x.dtype) if is_sum else torch.cumprod(x, dim=k,
                                                                                dtype=x.dtype)
        return torch.flip(y, [k]) if reverse else y
    return run


for _type, _facts in (("Cumsum", {"grad_names": names("Cumsum", None)}),
                      ("Cumprod", {"grad_names": names("div_no_nan", None),
                                   "grad_formula": cumprod_formula})):
    declare(_type, inputs=["x: T", "axis: Tidx"], outputs=["out: T"],
            attrs={"exclusive": False, "reverse": False, "T": Type(NUMBER),
                   "Tidx": Type(D.INDEX_TYPES, default=D.int32)},
            shape=lambda ctx: [ctx.shape(0)], kernel=_cumulative_kernel, **_facts)


def cumsum(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
           name: Optional[str] = None) -> Tensor:
    """`tf.cumsum`."""
    with name_scope(name, "Cumsum", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return apply_op1("Cumsum", [x, axis], {"exclusive": exclusive, "reverse": reverse},
                         name=scope)


def cumprod(x: Any, axis: Any = 0, exclusive: bool = False, reverse: bool = False,
            name: Optional[str] = None) -> Tensor:
    """`tf.cumprod`."""
    with name_scope(name, "Cumprod", [x]) as scope:
        x = convert_to_tensor(x, name="x")
        return apply_op1("Cumprod", [x, axis], {"exclusive": exclusive, "reverse": reverse},
                         name=scope)


# -- segment reductions -------------------------------------------------------------------------

def _segment_kernel(reduce: str, sorted_ids: bool) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(data: torch.Tensor, ids: torch.Tensor, num: Any = None) -> torch.Tensor:
            ids = ids.long()
            if sorted_ids and ids.numel() > 1 and bool((ids[1:] < ids[:-1]).any()):
                from tf1compat.framework import errors
                raise errors.InvalidArgumentError(None, None, "segment ids are not increasing")
            if num is None:
                n = int(ids.max()) + 1 if ids.numel() else 0
            else:
                n = int(num)
            tail = data.shape[ids.dim():]
            flat_ids = ids.reshape(-1)
            flat = data.reshape((-1,) + tuple(tail))
            valid = flat_ids >= 0
            if not bool(valid.all()):
                flat_ids, flat = flat_ids[valid], flat[valid]
            if bool((flat_ids >= n).any()):
                raise _segment_id_error(ids, n)
            out_shape = (n,) + tuple(tail)
            index = flat_ids.reshape((-1,) + (1,) * len(tail)).expand_as(flat)
            if reduce == "sum":
                return torch.zeros(out_shape, dtype=data.dtype, device=data.device).index_add(
                    0, flat_ids, flat)
            if reduce == "mean":
                total = torch.zeros(out_shape, dtype=data.dtype, device=data.device).index_add(
                    0, flat_ids, flat)
                count = torch.zeros(n, dtype=data.dtype, device=data.device).index_add(
                    0, flat_ids, torch.ones_like(flat_ids, dtype=data.dtype))
                count = count.clamp(min=1).reshape((n,) + (1,) * len(tail))
                return total / count
            init = {"amax": _lowest(data.dtype) if not sorted_ids else 0,
                    "amin": _highest(data.dtype) if not sorted_ids else 0, "prod": 1}[reduce]
            out = torch.full(out_shape, init, dtype=data.dtype, device=data.device)
            return out.scatter_reduce(0, index, flat, reduce, include_self=not sorted_ids or
                                      reduce == "prod")
        return run
    return factory


def _lowest(dtype: torch.dtype) -> Any:
    # TF starts unsorted max/min from the lowest/highest finite value, not -inf/+inf.
    return torch.finfo(dtype).min if dtype.is_floating_point else torch.iinfo(dtype).min


def _highest(dtype: torch.dtype) -> Any:
    return torch.finfo(dtype).max if dtype.is_floating_point else torch.iinfo(dtype).max


def _segment_shape(ctx: Any) -> List[TensorShape]:
    data, ids = ctx.shape(0), ctx.shape(1)
    n = None
    if len(ctx.inputs) > 2:
        num = ctx.const(2)
        n = None if num is None else int(num)
    if data.rank is None or ids.rank is None:
        return [unknown_shape()]
    return [TensorShape([n] + data.as_list()[ids.rank:])]


for _type, _red, _grad in (("SegmentSum", "sum", "GatherV2"), ("SegmentMean", "mean", "GatherV2"),
                           ("SegmentMax", "amax", "SelectV2"), ("SegmentMin", "amin", "SelectV2"),
                           ("SegmentProd", "prod", "mul")):
    declare(_type, inputs=["data: T", "segment_ids: Tindices"], outputs=["output: T"],
            attrs={"T": Type(NUMBER), "Tindices": Type(D.INDEX_TYPES)},
            shape=_segment_shape, kernel=_segment_kernel(_red, True),
            grad_names=names(_grad, None))

for _type, _red, _grad in (("UnsortedSegmentSum", "sum", "SelectV2"),
                           ("UnsortedSegmentMax", "amax", "SelectV2_2"),
                           ("UnsortedSegmentMin", "amin", "SelectV2_2"),
                           ("UnsortedSegmentProd", "prod", "mul")):
    declare(_type, inputs=["data: T", "segment_ids: Tindices", "num_segments: Tnumsegments"],
            outputs=["output: T"],
            attrs={"T": Type(NUMBER), "Tindices": Type(D.INDEX_TYPES),
                   "Tnumsegments": Type(D.INDEX_TYPES, default=D.int32)},
            shape=_segment_shape, kernel=_segment_kernel(_red, False),
            grad_names=names(_grad, None, None))


def _segment_wrapper(op_type: str, unsorted: bool) -> Callable[..., Tensor]:
    if unsorted:
        def fn(data: Any, segment_ids: Any, num_segments: Any, name: Optional[str] = None
               ) -> Tensor:
            return apply_op1(op_type, [data, segment_ids, num_segments], name=name)
    else:
        def fn(data: Any, segment_ids: Any, name: Optional[str] = None) -> Tensor:  # type: ignore[misc]
            return apply_op1(op_type, [data, segment_ids], name=name)
    fn.__name__ = op_type
    return fn


segment_sum = _segment_wrapper("SegmentSum", False)
segment_mean = _segment_wrapper("SegmentMean", False)
segment_max = _segment_wrapper("SegmentMax", False)
segment_min = _segment_wrapper("SegmentMin", False)
segment_prod = _segment_wrapper("SegmentProd", False)
unsorted_segment_sum = _segment_wrapper("UnsortedSegmentSum", True)
unsorted_segment_max = _segment_wrapper("UnsortedSegmentMax", True)
unsorted_segment_min = _segment_wrapper("UnsortedSegmentMin", True)
unsorted_segment_prod = _segment_wrapper("UnsortedSegmentProd", True)


# -- clipping -----------------------------------------------------------------------------------

def _clip_by_value_kernel(node: Any, kctx: Any) -> Callable[..., torch.Tensor]:
    def clip(t: torch.Tensor, lo: torch.Tensor, hi: torch.Tensor) -> torch.Tensor:
        shape = tuple(t.shape)
        if (lo.dim() and tuple(lo.shape) != shape) or (hi.dim() and tuple(hi.shape) != shape):
            from tf1compat.framework import errors
            raise errors.InvalidArgumentError(
                None, None, "clip_value_min and clip_value_max must be either scalars or "
                            f"have the same shape as t: t shape {list(shape)} "
                            f"clip_value_min shape {list(lo.shape)} clip_value_max shape "
                            f"{list(hi.shape)}")
        # TF's order: where lo > hi the result is lo (torch.clamp would give hi).
        return torch.maximum(torch.minimum(t, hi), lo)
    return clip


# TF's ClipByValue op (what saturate_cast builds; tf.clip_by_value itself is Minimum+Maximum).
declare("ClipByValue", inputs=["t: T", "clip_value_min: T", "clip_value_max: T"],
        outputs=["output: T"], attrs={"T": Type(NUMBER)},
        shape=lambda ctx: [ctx.shape(0)], kernel=_clip_by_value_kernel,
        doc="Clamps `t` to [clip_value_min, clip_value_max] (scalars or t's shape).")


def clip_by_value(t: Any, clip_value_min: Any, clip_value_max: Any,
                  name: Optional[str] = None) -> Tensor:
    """`tf.clip_by_value`: Minimum then Maximum, without broadcasting `t` larger."""
    from tf1compat.ops.math_ops import maximum, minimum
    with name_scope(name, "clip_by_value", [t, clip_value_min, clip_value_max]) as scope:
        values = convert_to_tensor(t, name="t")
        t_min = minimum(values, clip_value_max)
        values.shape.assert_is_compatible_with(t_min.shape)
        t_max = maximum(t_min, clip_value_min, name=scope)
        values.shape.assert_is_compatible_with(t_max.shape)
        return t_max


def clip_by_norm(t: Any, clip_norm: Any, axes: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.clip_by_norm`: scales `t` so its L2 norm (over `axes`) is at most `clip_norm`."""
    from tf1compat.ops.array_ops import identity
    from tf1compat.ops.creation_ops import ones_like
    from tf1compat.ops.indexing_ops import where
    from tf1compat.ops.math_ops import maximum, sqrt
    with name_scope(name, "clip_by_norm", [t, clip_norm]) as scope:
        values = convert_to_tensor(t.values if _is_slices(t) else t, name="t")
        l2sum = reduce_sum(values * values, axes, keepdims=True)
        pred = l2sum > 0
        l2sum_safe = where(pred, l2sum, ones_like(l2sum))
        l2norm = where(pred, sqrt(l2sum_safe), l2sum)
        intermediate = values * clip_norm
        values.shape.assert_is_compatible_with(intermediate.shape)
        values_clip = identity(intermediate / maximum(l2norm, clip_norm), name=scope)
        if _is_slices(t):
            return type(t)(values_clip, t.indices, t.dense_shape)
        return values_clip


def _is_slices(x: Any) -> bool:
    return hasattr(x, "indices") and hasattr(x, "values") and not isinstance(x, Tensor)


# -- IndexedSlices -> Tensor (TF registers this conversion beside the IndexedSlices class) --------

_LARGE_SPARSE_NUM_ELEMENTS = 100000000   # TF warns when densifying more elements


def _indexed_slices_to_tensor(value: IndexedSlices, dtype: Any = None,
                              name: Optional[str] = None, as_ref: bool = False) -> Tensor:
    """Densifies `value` as TF does: UnsortedSegmentSum(values, indices, dense_shape[0])."""
    del as_ref
    if dtype is not None and not D.as_dtype(dtype).is_compatible_with(value.dtype):
        raise ValueError(f"Incompatible tensor conversion requested to `dtype` "
                         f"{D.as_dtype(dtype).name} for IndexedSlices ({value}) with "
                         f"dtype {value.dtype.name}")
    if value.dense_shape is None:
        raise ValueError("Tensor conversion requested for IndexedSlices for argument `value` "
                         f"without dense_shape: {value!s}")
    shape_value = constant_value(value.dense_shape)
    if shape_value is not None:
        num_elements = int(np.prod(shape_value))
        if num_elements >= _LARGE_SPARSE_NUM_ELEMENTS:
            warnings.warn(f"Converting sparse IndexedSlices to a dense Tensor with "
                          f"{num_elements} elements. This may consume a large amount of "
                          "memory.")
    return unsorted_segment_sum(value.values, value.indices, value.dense_shape[0], name=name)


register_tensor_conversion_function(IndexedSlices, _indexed_slices_to_tensor)


def _segment_id_error(ids: torch.Tensor, n: int) -> Exception:
    """TF's message for the first segment id outside [0, n): `segment_ids[1] = 5 ...`."""
    from tf1compat.framework import errors
    first = int((ids.reshape(-1) >= n).nonzero()[0])
    index = np.unravel_index(first, tuple(ids.shape)) if ids.dim() else ()
    where = ",".join(str(int(i)) for i in index)
    value = int(ids.reshape(-1)[first])
    return errors.InvalidArgumentError(None, None, f"segment_ids[{where}] = {value} is out of "
                                                   f"range [0, {n})")


# tf.reduce_* and tf.math.unsorted_segment_* given RaggedTensors: handlers registered by
# tf1compat/ragged/ragged_reduce.py.
for _name in ("reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod",
              "reduce_all", "reduce_any", "unsorted_segment_sum", "unsorted_segment_max",
              "unsorted_segment_min", "unsorted_segment_prod"):
    dispatch.add_dispatch_support(globals(), _name, (_name,))


def reduce_euclidean_norm(input_tensor: Any, axis: Any = None, keepdims: bool = False,
                          name: Optional[str] = None) -> Tensor:
    """`tf.math.reduce_euclidean_norm`: sqrt of the sum of squares over `axis`. Newer than
    the v1 reductions, it has no `reduction_indices`/`keep_dims` aliases (TF's signature)."""
    return _reduce_euclidean_norm(input_tensor, axis, keepdims, name)
