"""Fractional pooling: FractionalMaxPool / FractionalAvgPool (`tf.nn.fractional_max_pool`,
`tf.nn.fractional_avg_pool`, TF1 signatures with seed and seed2).

The pooling regions come from TF's generator on the op's Philox stream (the same
GuardedPhiloxRandom as the random ops: `ops/_random_stream.py`), so seeded results are
TF's: random regions shuffle the k / k+1 sized gaps with TF's Fisher-Yates order, pseudo
random ones place them at ceil(alpha * (i + u)). Gradients: max pooling sends each output's
gradient to the first maximum of its region (TF's scan order), average pooling spreads it
evenly over the region, as TF's gradient kernels do.
"""

from __future__ import annotations

import collections
import math
from typing import Any, Callable, List, Optional, Sequence, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.grad_names import names
from tf1compat.framework.op_def import Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import _philox as philox
from tf1compat.ops._random_stream import RandomStream, _unit_double
from tf1compat.ops._shape_rules import node_desc
from tf1compat.ops._window import check_rank

__all__ = ["fractional_max_pool", "fractional_avg_pool"]


def _output_size(size: int, ratio: float) -> int:
    # TF divides the int size by the float ratio in float32 and floors.
    return int(math.floor(np.float32(size) / np.float32(ratio)))


def _pseudo_random_gaps(stream: RandomStream, size: int, out: int) -> List[int]:
    alpha = size / out
    k = size // out
    max_u = min((k + 2) / alpha - 1, (size + 1 - k) / alpha - (out - 1))
    start = stream.reserve(1)                       # ReserveSamples32(2): one block
    words = philox.words(stream.key, start, 2)
    u = float(_unit_double(words[:1], words[1:2])[0]) * max_u
    cum = [1] + [int(math.ceil(alpha * (i + u))) for i in range(1, out)] + [size + 1]
    return [cum[i + 1] - cum[i] for i in range(out)]


def _random_gaps(stream: RandomStream, size: int, out: int) -> List[int]:
    k, extra = divmod(size, out)
    gaps = [k + 1] * extra + [k] * (out - extra)
    start = stream.reserve(-(-out // 4))            # ReserveSamples32(out)
    words = philox.words(stream.key, start, max(out - 1, 0)).astype(np.int64).tolist()
    for i in range(out - 1):                         # TF's RandomShuffle
        j = i + words[i] % (out - i)
        gaps[i], gaps[j] = gaps[j], gaps[i]
    return gaps


def _pooling_sequence(stream: RandomStream, size: int, out: int, pseudo_random: bool
                      ) -> List[int]:
    """TF's GeneratePoolingSequence: region starts, cumulative, 0 first, size last."""
    gaps = (_pseudo_random_gaps if pseudo_random else _random_gaps)(stream, size, out)
    cum = [0]
    for gap in gaps:
        cum.append(cum[-1] + gap)
    return cum


def _region_index(cum: Sequence[int], limit: int, overlapping: bool
                  ) -> Tuple[torch.Tensor, torch.Tensor]:
    """Per output position, the input positions of its region padded by repeating the
    first one (index [out, longest]) and which of them are real (mask)."""
    spans = []
    for i in range(len(cum) - 1):
        end = min(cum[i + 1] if overlapping else cum[i + 1] - 1, limit - 1)
        spans.append(list(range(cum[i], end + 1)))
    longest = max((len(s) for s in spans), default=1)
    index = [s + [s[0]] * (longest - len(s)) for s in spans]
    mask = [[True] * len(s) + [False] * (longest - len(s)) for s in spans]
    return torch.tensor(index, dtype=torch.long), torch.tensor(mask, dtype=torch.bool)


def _windows(x: torch.Tensor, rows: Sequence[int], cols: Sequence[int], overlapping: bool
             ) -> Tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """The pooling regions of NHWC `x`: values [N, out_h, out_w, region, C] (regions scanned
    row by row, as TF's kernels), the mask of real entries [1, out_h, out_w, region, 1]
    and each entry's flat input position row * W + col [out_h, out_w, region]."""
    height, width = x.shape[1], x.shape[2]
    row_idx, row_mask = _region_index(rows, height, overlapping)
    col_idx, col_mask = _region_index(cols, width, overlapping)
    row_idx, col_idx = row_idx.to(x.device), col_idx.to(x.device)
    windows = x[:, row_idx[:, None, :, None], col_idx[None, :, None, :], :]
    n, oh, ow, mh, mw, c = windows.shape
    mask = (row_mask[:, None, :, None] & col_mask[None, :, None, :]).reshape(
        1, oh, ow, mh * mw, 1).to(x.device)
    flat = (row_idx[:, None, :, None] * width + col_idx[None, :, None, :]).reshape(
        oh, ow, mh * mw)
    return windows.reshape(n, oh, ow, mh * mw, c), mask, flat


def _first_max(windows: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    """Per region, the index of its first maximum (TF's scan order), [N, oh, ow, 1, C]."""
    low = torch.finfo(windows.dtype).min if windows.is_floating_point() else \
        torch.iinfo(windows.dtype).min
    return torch.where(mask, windows, torch.full_like(windows, low)).argmax(dim=3, keepdim=True)


def _pool_regions(x: torch.Tensor, rows: Sequence[int], cols: Sequence[int],
                  overlapping: bool, average: bool) -> torch.Tensor:
    """Max or average of each pooling region of NHWC `x`."""
    windows, mask, _ = _windows(x, rows, cols, overlapping)
    if not average:
        return torch.gather(windows, 3, _first_max(windows, mask)).squeeze(3)
    total = torch.where(mask, windows, torch.zeros_like(windows)).sum(dim=3)
    count = mask.sum(dim=3).to(total.dtype) if total.is_floating_point() else mask.sum(dim=3)
    return total / count if x.is_floating_point() else torch.div(
        total, count, rounding_mode="trunc").to(x.dtype)


def _pool_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    ratio = [float(r) for r in attrs["pooling_ratio"]]
    pseudo, overlapping = bool(attrs["pseudo_random"]), bool(attrs["overlapping"])
    deterministic = bool(attrs["deterministic"])
    average = node.type == "FractionalAvgPool"
    state = kctx.op_resource(lambda: {"stream": RandomStream(attrs["seed"], attrs["seed2"]),
                                      "regions": None})

    def fractional_pool(x: torch.Tensor) -> tuple:
        # TF checks these when it builds the kernel, i.e. at the first run.
        if len(ratio) != 4:
            raise errors.InvalidArgumentError(None, None, "pooling_ratio field must specify "
                                                          "4 dimensions")
        if ratio[0] != 1 and ratio[3] != 1:
            raise errors.UnimplementedError(
                None, None, f"Fractional {'average' if average else 'max'} pooling is not "
                            "yet supported on the batch nor channel dimension.")
        if not deterministic and (attrs["seed"] or attrs["seed2"]):
            raise errors.InvalidArgumentError(None, None, "Both seed and seed2 should be 0 if "
                                                          "deterministic is false.")
        if x.dim() != 4:
            raise errors.InvalidArgumentError(None, None, "tensor_in must be 4-dimensional")
        sizes = list(x.shape)
        outs = [_output_size(s, r) for s, r in zip(sizes, ratio)]
        if deterministic and state["regions"] is not None:
            rows, cols = state["regions"]
        else:
            rows = _pooling_sequence(state["stream"], sizes[1], outs[1], pseudo)
            cols = _pooling_sequence(state["stream"], sizes[2], outs[2], pseudo)
            if deterministic:
                state["regions"] = (rows, cols)
        out = _pool_regions(x, rows, cols, overlapping, average)
        device = x.device
        seqs = [torch.tensor(s, dtype=torch.int64, device=device) for s in (rows, cols)]
        return (out,) + tuple(seqs)
    return fractional_pool


def _pool_shape(ctx: Any) -> List[TensorShape]:
    ratio = [float(r) for r in ctx.attrs["pooling_ratio"]]
    if len(ratio) < 4:
        raise ValueError(f"Attr 'pooling_ratio' must have at least 4 elements "
                         f"{node_desc(ctx)}")
    dims = check_rank(ctx, ctx.shape(0), 4)
    out = [None if size is None else _output_size(size, r) for size, r in zip(dims, ratio)]
    # The sequences hold one more entry than the output's size. (TF's shape function says
    # they have the output's size, which its own kernel contradicts: a deliberate
    # difference, so the static shape never disagrees with the value.)
    rows = None if out[1] is None else out[1] + 1
    cols = None if out[2] is None else out[2] + 1
    return [TensorShape(out), TensorShape([rows]), TensorShape([cols])]


_POOL_ATTRS = {"pooling_ratio": None, "pseudo_random": False, "overlapping": False,
               "deterministic": False, "seed": 0, "seed2": 0,
               "T": Type((D.float32, D.float64, D.int32, D.int64))}
for _type in ("FractionalMaxPool", "FractionalAvgPool"):
    declare(_type, inputs=["value: T"],
            outputs=["output: T", "row_pooling_sequence: int64", "col_pooling_sequence: int64"],
            attrs=dict(_POOL_ATTRS), shape=_pool_shape, kernel=_pool_kernel, stateful=True,
            grad_names=names(f"{_type}Grad"))


def _pool_op(op_type: str) -> Callable[..., Tuple[Tensor, Tensor, Tensor]]:
    def fractional_pool(value: Any, pooling_ratio: Sequence[float], pseudo_random: bool = False,
                        overlapping: bool = False, deterministic: bool = False, seed: int = 0,
                        seed2: int = 0, name: Optional[str] = None
                        ) -> Tuple[Tensor, Tensor, Tensor]:
        return _RESULT[op_type](*apply_op(op_type, [value], {
            "pooling_ratio": [float(r) for r in pooling_ratio],
            "pseudo_random": bool(pseudo_random), "overlapping": bool(overlapping),
            "deterministic": bool(deterministic), "seed": int(seed), "seed2": int(seed2)},
            name=name).outputs)
    public = "fractional_max_pool" if "Max" in op_type else "fractional_avg_pool"
    fractional_pool.__name__ = fractional_pool.__qualname__ = public
    fractional_pool.__doc__ = (f"`tf.nn.{public}` (TF1): {op_type} over regions of random "
                               "(or pseudo-random) size; returns (output, row pooling "
                               "sequence, col pooling sequence).")
    return fractional_pool


_RESULT = {t: collections.namedtuple(t, ["output", "row_pooling_sequence",
                                         "col_pooling_sequence"])
           for t in ("FractionalMaxPool", "FractionalAvgPool")}
fractional_max_pool = _pool_op("FractionalMaxPool")
fractional_avg_pool = _pool_op("FractionalAvgPool")


# -- TF's explicit gradient ops (written into TF-made training graphs) --------------------------

def _sequences(row_seq: torch.Tensor, col_seq: torch.Tensor) -> Tuple[List[int], List[int]]:
    return [int(v) for v in row_seq.tolist()], [int(v) for v in col_seq.tolist()]


def _scatter_regions(values: torch.Tensor, flat: torch.Tensor, in_shape: Sequence[int]
                     ) -> torch.Tensor:
    """Sums `values` [N, oh, ow, region, C] into zeros of NHWC `in_shape` at the flat
    input positions `flat` [oh, ow, region]."""
    n, _, _, _, c = values.shape
    out = torch.zeros((n, in_shape[1] * in_shape[2], c), dtype=values.dtype,
                      device=values.device)
    index = flat.reshape(1, -1, 1).expand(n, -1, c)
    out.scatter_add_(1, index, values.reshape(n, -1, c))
    return out.reshape(list(in_shape))


def _max_pool_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    overlapping = bool(node.attrs["overlapping"])

    def fractional_max_pool_grad(orig_input: torch.Tensor, orig_output: torch.Tensor,
                                 out_backprop: torch.Tensor, row_seq: torch.Tensor,
                                 col_seq: torch.Tensor) -> torch.Tensor:
        rows, cols = _sequences(row_seq, col_seq)
        windows, mask, flat = _windows(orig_input, rows, cols, overlapping)
        first = _first_max(windows, mask)
        if not torch.equal(torch.gather(windows, 3, first).squeeze(3), orig_output):
            raise errors.InvalidArgumentError(
                None, None, "tensor_out_dup is not the same as tensor_out")
        # Only each region's first maximum receives the region's gradient.
        picked = torch.zeros_like(windows).scatter_(3, first, out_backprop.unsqueeze(3))
        return _scatter_regions(picked, flat, orig_input.shape)
    return fractional_max_pool_grad


def _avg_pool_grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    overlapping = bool(node.attrs["overlapping"])

    def fractional_avg_pool_grad(orig_shape: torch.Tensor, out_backprop: torch.Tensor,
                                 row_seq: torch.Tensor, col_seq: torch.Tensor
                                 ) -> torch.Tensor:
        rows, cols = _sequences(row_seq, col_seq)
        shape = [int(v) for v in orig_shape.tolist()]
        # Index arithmetic only needs the spatial size: a [1, H, W, 1] stand-in input.
        stand_in = torch.zeros((1, shape[1], shape[2], 1), device=out_backprop.device)
        _, mask, flat = _windows(stand_in, rows, cols, overlapping)
        count = mask.sum(dim=3, keepdim=True).to(torch.float64)
        # TF sums each share in float64 and casts the result to T (truncating integers).
        share = out_backprop.to(torch.float64).unsqueeze(3) / count
        spread = torch.where(mask, share.expand(-1, -1, -1, mask.shape[3], -1),
                             torch.zeros((), dtype=torch.float64, device=share.device))
        return _scatter_regions(spread, flat, shape).to(out_backprop.dtype)
    return fractional_avg_pool_grad


def _avg_pool_grad_shape(ctx: Any) -> List[TensorShape]:
    shape = ctx.const(0)
    if shape is None:
        return [TensorShape([None] * 4)]
    return [TensorShape([int(v) for v in shape.tolist()])]


_GRAD_ATTRS = {"overlapping": False, "T": Type((D.float32, D.float64, D.int32, D.int64))}
declare("FractionalMaxPoolGrad",
        inputs=["orig_input: T", "orig_output: T", "out_backprop: T",
                "row_pooling_sequence: int64", "col_pooling_sequence: int64"],
        outputs=["output: T"], attrs=dict(_GRAD_ATTRS),
        shape=lambda ctx: [ctx.shape(0)], kernel=_max_pool_grad_kernel, grad="unregistered",
        doc="The gradient of FractionalMaxPool: each region's gradient to its first maximum.")
declare("FractionalAvgPoolGrad",
        inputs=["orig_input_tensor_shape: int64", "out_backprop: T",
                "row_pooling_sequence: int64", "col_pooling_sequence: int64"],
        outputs=["output: T"], attrs=dict(_GRAD_ATTRS),
        shape=_avg_pool_grad_shape, kernel=_avg_pool_grad_kernel, grad="unregistered",
        doc="The gradient of FractionalAvgPool: each region's gradient spread evenly over it.")
