"""Small math ops: complex parts (Real, Imag), DenseBincount, Bucketize, HistogramFixedWidth,
the FFT family (`tf.spectral` / `tf.signal`, FFTND included), Timestamp; `tf.bincount`,
`tf.histogram_fixed_width(_bins)`, `tf.unsorted_segment_mean/sqrt_n`."""

from __future__ import annotations

import time
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops import dispatch
from tf1compat.ops._kernels import static_ints
from tf1compat.ops._shape_rules import node_desc

__all__ = ["real", "imag", "bincount", "dense_bincount", "bucketize", "histogram_fixed_width",
           "histogram_fixed_width_bins",
           "unsorted_segment_mean", "unsorted_segment_sqrt_n", "fft", "ifft", "fft2d",
           "ifft2d", "fft3d", "ifft3d", "rfft", "irfft", "rfft2d", "irfft2d", "rfft3d",
           "irfft3d", "timestamp", "sobol_sample"]

_REAL_OF = {D.complex64: D.float32, D.complex128: D.float64}
_COMPLEX_OF = {D.float32: D.complex64, D.float64: D.complex128}


# -- complex parts ------------------------------------------------------------------------

for _type, _fn in (("Real", torch.real), ("Imag", torch.imag)):
    declare(_type, inputs=["input: T"], outputs=["output: Tout"],
            attrs={"T": Type(D.COMPLEX_TYPES, default=D.complex64),
                   "Tout": Type((D.float32, D.float64), default=D.float32)},
            shape=lambda ctx: [ctx.shape(0)],
            kernel=lambda node, kctx, _fn=_fn: (lambda x: _fn(x).clone()))


def real(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.real` / `tf.math.real`: the real part (the input itself for real tensors)."""
    with name_scope(name, "Real", [input]) as scope:
        input = convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return apply_op1("Real", [input], {"Tout": _REAL_OF[input.dtype.base_dtype]},
                             name=scope)
        return input


def imag(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
    """`tf.imag` / `tf.math.imag`: the imaginary part (zeros for real tensors)."""
    from tf1compat.ops.creation_ops import zeros_like
    with name_scope(name, "Imag", [input]) as scope:
        input = convert_to_tensor(input, name="input")
        if input.dtype.is_complex:
            return apply_op1("Imag", [input], {"Tout": _REAL_OF[input.dtype.base_dtype]},
                             name=scope)
        return zeros_like(input)


# -- bincount -----------------------------------------------------------------------------

def _bincount_shape(ctx: Any) -> List[TensorShape]:
    size = ctx.const(1)
    n = None if size is None else int(np.asarray(size).reshape(()))
    rank = ctx.rank(0)
    if rank == 2:
        return [TensorShape([ctx.shape(0).as_list()[0], n])]
    return [TensorShape([n])]


def _bincount_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    binary = node.attrs["binary_output"]
    out_dtype = node.attrs["T"].torch_dtype

    def dense_bincount(arr: torch.Tensor, size: torch.Tensor, weights: torch.Tensor
                       ) -> torch.Tensor:
        n = int(size)
        if n < 0:
            raise errors.InvalidArgumentError(
                None, None, f"size ({n}) must be non-negative")
        if arr.numel() and bool((arr < 0).any()):
            raise errors.InvalidArgumentError(
                None, None, "Input arr must be non-negative!")
        # A rank-2 input counts each row separately (TF's `axis=-1` bincount).
        rows = arr.shape[0] if arr.dim() == 2 else 1
        flat = arr.reshape(-1).long()
        keep = flat < n                  # values >= size are skipped, as TF's maxlength
        w = weights.reshape(-1) if weights.numel() else None
        if w is not None and w.numel() != flat.numel():
            raise errors.InvalidArgumentError(
                None, None, "Input arr and weights must have the same shape")
        row_of = torch.arange(rows, device=arr.device).repeat_interleave(
            flat.numel() // rows if rows else 0)
        out = torch.zeros(rows * n, dtype=out_dtype, device=arr.device)
        idx = (row_of * n + flat)[keep]
        if binary:
            out = out.index_fill(0, idx, 1)
        else:
            vals = (w[keep] if w is not None else torch.ones_like(idx)).to(out_dtype)
            out = out.index_add(0, idx, vals)
        return out.reshape(rows, n) if arr.dim() == 2 else out
    return dense_bincount


declare("DenseBincount", inputs=["input: Tidx", "size: Tidx", "weights: T"],
        outputs=["output: T"],
        attrs={"Tidx": Type((D.int32, D.int64)),
               "T": Type((D.int32, D.int64, D.float32, D.float64)),
               "binary_output": False},
        shape=_bincount_shape, kernel=_bincount_kernel, grad="unregistered")


def bincount(arr: Any, weights: Any = None, minlength: Any = None, maxlength: Any = None,
             dtype: Any = D.int32, name: Optional[str] = None) -> Tensor:
    """`tf.bincount` / `tf.math.bincount` (TF1's bincount_v1): counts of each value,
    summed `weights` when given."""
    from tf1compat.ops.array_ops import reshape, size
    from tf1compat.ops.math_ops import cast, greater
    from tf1compat.ops.reduction_ops import reduce_max
    from tf1compat.framework.constant_op import constant
    with name_scope(name, "bincount"):
        arr = convert_to_tensor(arr, name="arr")
        if weights is not None:
            weights = convert_to_tensor(weights, name="weights")
        if not arr.dtype.is_integer:
            arr = cast(arr, D.int32)
        nonempty = greater(size(arr), 0)
        output_size = cast(nonempty, arr.dtype) * (reduce_max(arr) + 1)
        if minlength is not None:
            minlength = convert_to_tensor(minlength, name="minlength", dtype=arr.dtype)
            output_size = apply_op1("Maximum", [minlength, output_size])
        if maxlength is not None:
            maxlength = convert_to_tensor(maxlength, name="maxlength", dtype=arr.dtype)
            output_size = apply_op1("Minimum", [maxlength, output_size])
        if weights is not None:
            weights = reshape(weights, [-1])
        arr = reshape(arr, [-1])
        if weights is None:
            weights = constant([], dtype=D.as_dtype(dtype) if dtype else arr.dtype)
        return apply_op1("DenseBincount", [arr, output_size, weights],
                         {"binary_output": False})


def dense_bincount(input: Any, size: Any, weights: Any = None,  # noqa: A002 - TF's name
                   binary_output: bool = False, name: Optional[str] = None) -> Tensor:
    """`tf.raw_ops.DenseBincount`: counts (or, with `binary_output`, presence) of the
    values below `size`; a rank-2 input is counted row by row ([rows, size])."""
    from tf1compat.framework.constant_op import constant
    with name_scope(name, "DenseBincount", [input, size, weights]) as scope:
        input = convert_to_tensor(input, name="input")
        size = convert_to_tensor(size, dtype=input.dtype, name="size")
        if weights is None:
            weights = constant([], dtype=D.float32, name="weights")
        return apply_op1("DenseBincount", [input, size, weights],
                         {"binary_output": binary_output}, name=scope)


# -- histograms ----------------------------------------------------------------------------

def _histogram_shape(ctx: Any) -> List[TensorShape]:
    n = ctx.const(2)
    return [TensorShape([None if n is None else int(np.asarray(n).reshape(()))])]


def _histogram_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    out_dtype = node.attrs["dtype"].torch_dtype

    def histogram(values: torch.Tensor, value_range: torch.Tensor, nbins: Any
                  ) -> torch.Tensor:
        n = int(nbins)
        if n <= 0:
            raise errors.InvalidArgumentError(
                None, None, f"nbins should be a positive number, but got '{n}'")
        lo, hi = value_range[0], value_range[1]
        if not bool(lo < hi):
            raise errors.InvalidArgumentError(
                None, None, f"Invalid value range: [{float(lo)}, {float(hi)}]")
        # TF: bins by floor((v - lo) / (hi - lo) * nbins), clamped into [0, nbins - 1].
        v = values.reshape(-1).double()
        step = (v - lo.double()) / (hi.double() - lo.double())
        idx = torch.clamp(torch.floor(step * n), 0, n - 1).long()
        return torch.bincount(idx, minlength=n).to(out_dtype)
    return histogram


declare("HistogramFixedWidth", inputs=["values: T", "value_range: T", "nbins: int32"],
        outputs=["out: dtype"],
        attrs={"T": Type((D.int32, D.int64, D.float32, D.float64)),
               "dtype": Type((D.int32, D.int64), default=D.int32)},
        shape=_histogram_shape, kernel=_histogram_kernel, grad="none")


def histogram_fixed_width(values: Any, value_range: Any, nbins: Any = 100,
                          dtype: Any = D.int32, name: Optional[str] = None) -> Tensor:
    """`tf.histogram_fixed_width`: counts of `values` in `nbins` equal bins over
    `value_range` (values outside fall in the end bins)."""
    with name_scope(name, "histogram_fixed_width", [values, value_range, nbins]) as scope:
        return apply_op1("HistogramFixedWidth", [values, value_range, nbins],
                         {"dtype": D.as_dtype(dtype)}, name=scope)


def histogram_fixed_width_bins(values: Any, value_range: Any, nbins: Any = 100,
                               dtype: Any = D.int32, name: Optional[str] = None) -> Tensor:
    """`tf.histogram_fixed_width_bins`: the bin index of each value, TF's graph."""
    from tf1compat.ops.array_ops import reshape, shape
    from tf1compat.ops.control_flow_ops import with_dependencies
    from tf1compat.ops.logging_ops import Assert
    from tf1compat.ops.math_ops import cast, floor, greater
    from tf1compat.ops.reduction_ops import clip_by_value
    with name_scope(name, "histogram_fixed_width_bins", [values, value_range, nbins]):
        values = convert_to_tensor(values, name="values")
        shape_ = shape(values)
        values = reshape(values, [-1])
        value_range = convert_to_tensor(value_range, name="value_range")
        nbins = convert_to_tensor(nbins, dtype=D.int32, name="nbins")
        check = Assert(greater(nbins, 0), ["nbins %s must > 0" % nbins])
        nbins = with_dependencies([check], nbins)
        nbins_float = cast(nbins, values.dtype)
        scaled = apply_op1("RealDiv", [values - value_range[0],
                                       value_range[1] - value_range[0]],
                           name="scaled_values")
        indices = floor(nbins_float * scaled, name="indices")
        indices = cast(clip_by_value(indices, 0, nbins_float - 1), dtype)
        return reshape(indices, shape_)


# -- segment means ---------------------------------------------------------------------------

def _unsorted_segment_n(data: Tensor, segment_ids: Tensor, num_segments: Any) -> Tensor:
    """Per-segment counts shaped to broadcast against the segment sums (TF's helper)."""
    from tf1compat.ops.array_ops import concat, rank, reshape, shape_internal
    from tf1compat.ops.creation_ops import ones
    from tf1compat.ops.math_ops import maximum
    from tf1compat.ops.reduction_ops import unsorted_segment_sum
    num_segments = convert_to_tensor(num_segments)
    one = ones(shape_internal(segment_ids), dtype=data.dtype)
    n = unsorted_segment_sum(one, segment_ids, num_segments)
    broadcastable = concat([num_segments[None],
                            ones([rank(data) - rank(segment_ids)], dtype=num_segments.dtype)
                            ], axis=0)
    return maximum(reshape(n, broadcastable), 1)


def unsorted_segment_mean(data: Any, segment_ids: Any, num_segments: Any,
                          name: Optional[str] = None) -> Tensor:
    """`tf.unsorted_segment_mean` (sum / count, empty segments 0), TF's graph."""
    from tf1compat.ops.reduction_ops import unsorted_segment_sum
    with name_scope(name, "UnsortedSegmentMean"):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        total = unsorted_segment_sum(data, segment_ids, num_segments)
        return total / n


def unsorted_segment_sqrt_n(data: Any, segment_ids: Any, num_segments: Any,
                            name: Optional[str] = None) -> Tensor:
    """`tf.unsorted_segment_sqrt_n` (sum / sqrt(count)), TF's graph."""
    from tf1compat.ops.math_ops import sqrt
    from tf1compat.ops.reduction_ops import unsorted_segment_sum
    with name_scope(name, "UnsortedSegmentSqrtN"):
        data = convert_to_tensor(data)
        segment_ids = convert_to_tensor(segment_ids)
        n = _unsorted_segment_n(data, segment_ids, num_segments)
        total = unsorted_segment_sum(data, segment_ids, num_segments)
        return total / sqrt(n)


# -- FFT --------------------------------------------------------------------------------

def _fft_rank_check(ctx: Any, k: int) -> TensorShape:
    s = ctx.shape(0)
    if s.rank is not None and s.rank < k:
        raise ValueError(f"Shape must be at least rank {k} but is rank {s.rank} "
                         f"{node_desc(ctx)}")
    return s


def _complex_fft(op_type: str, k: int, fn: Callable[..., Any]) -> None:
    dims = tuple(range(-k, 0))

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        return lambda x: fn(x, dim=dims)

    declare(op_type, inputs=["input: Tcomplex"], outputs=["output: Tcomplex"],
            attrs={"Tcomplex": Type(D.COMPLEX_TYPES, default=D.complex64)},
            shape=lambda ctx: [_fft_rank_check(ctx, k)], kernel=factory)


for _k, _suffix in ((1, ""), (2, "2D"), (3, "3D")):
    _complex_fft("FFT" + _suffix, _k, torch.fft.fftn)
    _complex_fft("IFFT" + _suffix, _k, torch.fft.ifftn)


def _real_fft_shape(k: int, inverse: bool) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        s = _fft_rank_check(ctx, k)
        if s.rank is None:
            return [unknown_shape()]
        lengths = ctx.const(1)
        dims = s.as_list()
        if lengths is None:
            return [TensorShape(dims[:-k] + [None] * k)]
        lengths = [int(v) for v in np.asarray(lengths).reshape(-1)]
        if not inverse:
            lengths = lengths[:-1] + [lengths[-1] // 2 + 1]
        return [TensorShape(dims[:-k] + lengths)]
    return rule


def _real_fft_kernel(k: int, inverse: bool) -> Callable[..., Any]:
    dims = tuple(range(-k, 0))

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        static = static_ints(node, 1)

        def run(x: torch.Tensor, fft_length: Any) -> torch.Tensor:
            n = static if static is not None else [int(v) for v in fft_length.reshape(-1)]
            if not inverse:
                for d, length in zip(range(x.dim() - k, x.dim()), n):
                    if x.shape[d] < length:     # (tf.signal.rfft pads before the op)
                        raise errors.InvalidArgumentError(
                            None, None, f"Input dimension {d} must have length of at least "
                                        f"{length} but got: {x.shape[d]}")
                return torch.fft.rfftn(x, s=n, dim=dims)
            # TF's IRFFT reads only the first n//2+1 bins of the inner dimension and
            # crops/zero-pads the outer ones to fft_length.
            inner = n[-1] // 2 + 1
            x = x[..., :inner] if x.shape[-1] >= inner else torch.nn.functional.pad(
                x, (0, inner - x.shape[-1]))
            return torch.fft.irfftn(x, s=n, dim=dims)
        return run
    return factory


for _k, _suffix in ((1, ""), (2, "2D"), (3, "3D")):
    declare("RFFT" + _suffix, inputs=["input: Treal", "fft_length: int32"],
            outputs=["output: Tcomplex"],
            attrs={"Treal": Type((D.float32, D.float64), default=D.float32),
                   "Tcomplex": Type(D.COMPLEX_TYPES, default=D.complex64)},
            shape=_real_fft_shape(_k, False), kernel=_real_fft_kernel(_k, False))
    declare("IRFFT" + _suffix, inputs=["input: Tcomplex", "fft_length: int32"],
            outputs=["output: Treal"],
            attrs={"Treal": Type((D.float32, D.float64), default=D.float32),
                   "Tcomplex": Type(D.COMPLEX_TYPES, default=D.complex64)},
            shape=_real_fft_shape(_k, True), kernel=_real_fft_kernel(_k, True))


def _complex_wrapper(op_type: str) -> Callable[..., Tensor]:
    def fn(input: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002 - TF's name
        return apply_op1(op_type, [input], name=name)
    fn.__name__ = op_type.lower()
    fn.__doc__ = f"`tf.signal.{op_type.lower()}` ({op_type} over the inner dimensions)."
    return fn


fft, ifft = _complex_wrapper("FFT"), _complex_wrapper("IFFT")
fft2d, ifft2d = _complex_wrapper("FFT2D"), _complex_wrapper("IFFT2D")
fft3d, ifft3d = _complex_wrapper("FFT3D"), _complex_wrapper("IFFT3D")


def _real_wrapper(op_type: str, default_name: str, k: int, inverse: bool
                  ) -> Callable[..., Tensor]:
    def fn(input_tensor: Any, fft_length: Any = None, name: Optional[str] = None) -> Tensor:
        from tf1compat.ops.array_ops import shape
        from tf1compat.ops.transform_ops import pad
        with name_scope(name, default_name, [input_tensor, fft_length]) as scope:
            input_tensor = convert_to_tensor(
                input_tensor, D.complex64 if inverse else D.float32, name="input_tensor")
            real_dtype = (_REAL_OF[input_tensor.dtype.base_dtype] if inverse
                          else input_tensor.dtype.base_dtype)
            complex_dtype = _COMPLEX_OF[real_dtype]
            if fft_length is None:
                dims = input_tensor.shape.as_list()[-k:] if input_tensor.shape.rank \
                    else None
                if dims is None or None in dims:
                    fft_length = shape(input_tensor)[-k:]
                    if inverse:
                        raise NotImplementedError(
                            f"tf.signal.{default_name} of an input with unknown inner "
                            "dimensions needs an explicit fft_length in tf1compat")
                else:
                    if inverse:
                        dims = dims[:-1] + [max(0, 2 * (dims[-1] - 1))]
                    fft_length = convert_to_tensor(dims, D.int32, name="fft_length")
            else:
                fft_length = convert_to_tensor(fft_length, D.int32, name="fft_length")
                lengths = static_ints_of(fft_length)
                dims = input_tensor.shape.as_list()[-k:] if input_tensor.shape.rank \
                    else None
                if not inverse and lengths is not None and dims is not None and \
                        None not in dims and any(d < n for d, n in zip(dims, lengths)):
                    # TF zero-pads the input up to fft_length before RFFT.
                    rank = input_tensor.shape.rank
                    paddings = [[0, 0]] * (rank - k) + [
                        [0, max(0, n - d)] for d, n in zip(dims, lengths)]
                    input_tensor = pad(input_tensor, paddings)
            return apply_op1(op_type, [input_tensor, fft_length],
                             {"Treal": real_dtype, "Tcomplex": complex_dtype}, name=scope)
    fn.__name__ = default_name
    fn.__doc__ = f"`tf.signal.{default_name}` ({op_type})."
    return fn


def static_ints_of(t: Tensor) -> Optional[List[int]]:
    from tf1compat.framework.constant_value import constant_value
    v = constant_value(t)
    return None if v is None else [int(x) for x in np.asarray(v).reshape(-1)]


rfft = _real_wrapper("RFFT", "rfft", 1, False)
irfft = _real_wrapper("IRFFT", "irfft", 1, True)
rfft2d = _real_wrapper("RFFT2D", "rfft2d", 2, False)
irfft2d = _real_wrapper("IRFFT2D", "irfft2d", 2, True)
rfft3d = _real_wrapper("RFFT3D", "rfft3d", 3, False)
irfft3d = _real_wrapper("IRFFT3D", "irfft3d", 3, True)


# -- timestamp -------------------------------------------------------------------------------

declare("Timestamp", outputs=["ts: float64"], shape=lambda ctx: [TensorShape([])],
        kernel=lambda node, kctx: (lambda: torch.tensor(time.time(), dtype=torch.float64,
                                                        device=kctx.device)),
        grad="none", stateful=True)


def timestamp(name: Optional[str] = None) -> Tensor:
    """`tf.timestamp`: seconds since the epoch, as float64, when the op runs."""
    return apply_op1("Timestamp", [], name=name)


# -- FFTND: n-dimensional transforms over given axes (TF 2.x) -----------------------------

def _fft_nd_kernel(kind: str) -> Callable[[Any, Any], Callable[..., Any]]:
    fn = {"FFTND": torch.fft.fftn, "IFFTND": torch.fft.ifftn, "RFFTND": torch.fft.rfftn,
          "IRFFTND": torch.fft.irfftn}[kind]

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        def run(x: torch.Tensor, fft_length: Any, axes: Any) -> torch.Tensor:
            n = [int(v) for v in fft_length.reshape(-1).tolist()]
            dims = [int(a) for a in axes.reshape(-1).tolist()]
            return fn(x, s=n, dim=dims)
        return run
    return factory


for _type, _real_in, _real_out in (("FFTND", False, False), ("IFFTND", False, False),
                                   ("RFFTND", True, False), ("IRFFTND", False, True)):
    _attrs = {"Tcomplex": Type(D.COMPLEX_TYPES, default=D.complex64)}
    if _real_in or _real_out:
        _attrs["Treal"] = Type((D.float32, D.float64), default=D.float32)
    declare(_type, inputs=[f"input: {'Treal' if _real_in else 'Tcomplex'}",
                           "fft_length: int32", "axes: int32"],
            outputs=[f"output: {'Treal' if _real_out else 'Tcomplex'}"], attrs=_attrs,
            # TF's shape function keeps the input's shape (even where the real transforms
            # change the last transformed dimension at run time).
            shape=lambda ctx: [ctx.shape(0)], kernel=_fft_nd_kernel(_type),
            grad="unregistered")  # TF 2.21 registers no gradient for the N-D FFTs

# -- Bucketize ------------------------------------------------------------------------------------

def _bucketize_kernel(node: Any, kctx: Any) -> Callable[[torch.Tensor], torch.Tensor]:
    boundaries = [float(b) for b in node.attrs["boundaries"]]
    if boundaries != sorted(boundaries):
        raise errors.InvalidArgumentError(None, None, "Expected sorted boundaries")

    def bucketize(x: torch.Tensor) -> torch.Tensor:
        # TF: upper_bound over the float32 boundaries, each compared with the value in the
        # value's own precision (a float64 just below 1.0 stays below a 1.0 boundary); a
        # value equal to a boundary goes to the bucket above it.
        edges = torch.tensor(boundaries, dtype=torch.float32, device=x.device).double()
        return torch.bucketize(x.double(), edges, right=True).to(torch.int32)
    return bucketize


declare("Bucketize", inputs=["input: T"], outputs=["output: int32"],
        attrs={"T": Type((D.int32, D.int64, D.float32, D.float64)), "boundaries": []},
        shape=lambda ctx: [ctx.shape(0)], kernel=_bucketize_kernel, grad="unregistered",
        doc="The index of the bucket of each value (std::upper_bound of the boundaries).")


def bucketize(input: Any, boundaries: Any, name: Optional[str] = None) -> Tensor:  # noqa: A002
    """Bucket indices of `input` for sorted float `boundaries` (TF's math_ops._bucketize)."""
    with name_scope(name, "Bucketize", [input]) as scope:
        input = convert_to_tensor(input, name="input")  # noqa: A001
        return apply_op1("Bucketize", [input], {"boundaries": [float(b) for b in boundaries]},
                         name=scope)


# -- SobolSample ---------------------------------------------------------------------------

# TF's table of direction numbers (Joe and Kuo's new-joe-kuo-6.21201) covers dimensions
# 1..21200 here; torch's SobolEngine ships the same table, and with the first (all-zero)
# point skipped, as TF does, its points equal TF's bit for bit.
_SOBOL_MAX_DIM = 21200
_INT32_MAX = 2 ** 31 - 1


def _sobol_shape(ctx: Any) -> List[TensorShape]:
    for i in range(3):
        if ctx.rank(i) not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {ctx.rank(i)} "
                             f"{node_desc(ctx)}")
    dims = [ctx.const(i) for i in (1, 0)]
    return [TensorShape([None if d is None else int(np.asarray(d)) for d in dims])]


def _sobol_kernel(node: Any, kctx: Any) -> Callable[..., torch.Tensor]:
    dtype = node.attrs["dtype"].torch_dtype

    def sobol_sample(dim: torch.Tensor, num_results: torch.Tensor, skip: torch.Tensor
                     ) -> torch.Tensor:
        d, n, k = int(dim), int(num_results), int(skip)
        checks = ((d >= 1, "dim must be at least one"),
                  (d <= _SOBOL_MAX_DIM, f"dim must be at most {_SOBOL_MAX_DIM}"),
                  (n >= 1, "num_results must be at least one"),
                  (k >= 0, "skip must be non-negative"),
                  (n + k < _INT32_MAX, f"num_results+skip must be less than {_INT32_MAX}"))
        for ok, message in checks:
            if not ok:
                raise errors.InvalidArgumentError(None, None, message)
        engine = torch.quasirandom.SobolEngine(d, scramble=False)
        engine.fast_forward(k + 1)
        return engine.draw(n, dtype=dtype)
    return sobol_sample


declare("SobolSample", inputs=["dim: int32", "num_results: int32", "skip: int32"],
        outputs=["samples: dtype"],
        attrs={"dtype": Type((D.float32, D.float64), default=D.float32)},
        shape=_sobol_shape, kernel=_sobol_kernel, grad="unregistered", cpu_only=True,
        doc="Points of the (unscrambled) Sobol sequence after the first `skip` + 1.")


def sobol_sample(dim: Any, num_results: Any, skip: Any = 0, dtype: Any = D.float32,
                 name: Optional[str] = None) -> Tensor:
    """`tf.math.sobol_sample`: `num_results` points of the `dim`-dimensional Sobol
    sequence, skipping its first `skip` points (TF's values, bit for bit)."""
    with name_scope(name, "sobol", [dim, num_results, skip]):
        dtype = D.as_dtype(dtype)
        if dtype not in (D.float32, D.float64):
            raise TypeError(f"Value passed to parameter 'dtype' has DataType {dtype.name} "
                            "not in list of allowed values: float32, float64")
        return apply_op1("SobolSample", [dim, num_results, skip], {"dtype": dtype})


# Given RaggedTensors: handlers registered by tf1compat/ragged/ragged_reduce.py.
for _name in ("unsorted_segment_mean", "unsorted_segment_sqrt_n"):
    dispatch.add_dispatch_support(globals(), _name, (_name,))
