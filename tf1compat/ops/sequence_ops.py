"""`tf.reverse_sequence` (ReverseSequence): reverses the first `seq_lengths[b]` entries
of each batch row along the sequence axis, leaving the rest in place.

The kernel is one `torch.gather` along the sequence axis with an index built from the
lengths (index `L - 1 - t` for `t < L`, else `t`), so it is differentiable by autograd
and runs on the input's device. TF's gradient is the same op applied to the incoming
gradient (`ReverseSequence_grad/ReverseSequence`).
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.grad_names import names
from tf1compat.framework.graph import apply_op1, name_scope
from tf1compat.framework.op_def import REQUIRED, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["reverse_sequence"]


def _reverse_sequence_shape(ctx: Any) -> List[TensorShape]:
    x, lengths = ctx.shape(0), ctx.shape(1)
    seq_dim, batch_dim = int(ctx.attrs["seq_dim"]), int(ctx.attrs["batch_dim"])
    if lengths.rank is not None and lengths.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {lengths.rank} {node_desc(ctx)}")
    if x.rank is None:
        return [unknown_shape()]
    if seq_dim >= x.rank:
        raise ValueError(f"seq_dim must be < input rank: {seq_dim} vs. {x.rank} "
                         f"{node_desc(ctx)}")
    if batch_dim >= x.rank:
        raise ValueError(f"batch_dim must be < input rank: {batch_dim} vs. {x.rank} "
                         f"{node_desc(ctx)}")
    dims = x.as_list()
    n = lengths.as_list()[0] if lengths.rank == 1 else None
    if n is not None and dims[batch_dim] is not None and n != dims[batch_dim]:
        raise ValueError(f"Dimensions must be equal, but are {dims[batch_dim]} and {n} "
                         f"{node_desc(ctx)}")
    if dims[batch_dim] is None:
        dims[batch_dim] = n
    return [TensorShape(dims)]


def _reverse_sequence_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    seq_dim, batch_dim = int(node.attrs["seq_dim"]), int(node.attrs["batch_dim"])

    def run(x: Any, lengths: Any) -> Any:
        steps = x.shape[seq_dim]
        values = lengths.tolist() if isinstance(lengths, torch.Tensor) else \
            np.asarray(lengths).tolist()
        for b, n in enumerate(values):
            if n > steps:
                raise errors.InvalidArgumentError(
                    None, None, f"seq_lens({b}) > input.dims({seq_dim})")
            if n < 0:
                raise errors.InvalidArgumentError(None, None, f"seq_lens({b}) < 0")
        if isinstance(x, np.ndarray):      # strings
            out = x.copy()
            for b, n in enumerate(values):
                index = [slice(None)] * x.ndim
                index[batch_dim] = b
                index[seq_dim] = slice(0, n)
                out[tuple(index)] = np.flip(x[tuple(index)], axis=seq_dim - (seq_dim >
                                                                             batch_dim))
            return out
        lens = torch.as_tensor(values, dtype=torch.int64, device=x.device).view(-1, 1)
        t = torch.arange(steps, device=x.device).view(1, -1)
        index = torch.where(t < lens, lens - 1 - t, t)            # [batch, steps]
        if batch_dim > seq_dim:
            index = index.t()
        view = [1] * x.dim()
        view[batch_dim] = index.shape[0] if batch_dim < seq_dim else index.shape[1]
        view[seq_dim] = steps
        index = index.reshape(view).expand(x.shape)
        return torch.gather(x, seq_dim, index)
    return run


declare("ReverseSequence", inputs=["input: T", "seq_lengths: Tlen"], outputs=["output: T"],
        attrs={"seq_dim": REQUIRED, "batch_dim": 0, "T": Type(),
               "Tlen": Type((D.int32, D.int64), default=D.int64)},
        shape=_reverse_sequence_shape, kernel=_reverse_sequence_kernel,
        doc="Reverses variable-length slices along the sequence axis.",
        grad_names=names("ReverseSequence", None))


def reverse_sequence(input: Any, seq_lengths: Any, seq_axis: Optional[int] = None,  # noqa: A002
                     batch_axis: Optional[int] = None, name: Optional[str] = None,
                     seq_dim: Optional[int] = None, batch_dim: Optional[int] = None) -> Tensor:
    """`tf.reverse_sequence` (TF1 signature; `seq_dim`/`batch_dim` are the old names)."""
    if seq_axis is not None and seq_dim is not None:
        raise ValueError("Cannot specify both 'seq_axis' and 'seq_dim'")
    if batch_axis is not None and batch_dim is not None:
        raise ValueError("Cannot specify both 'batch_axis' and 'batch_dim'")
    seq_axis = seq_axis if seq_axis is not None else seq_dim
    batch_axis = batch_axis if batch_axis is not None else batch_dim
    attrs = {"seq_dim": seq_axis}
    if batch_axis is not None:
        attrs["batch_dim"] = batch_axis
    with name_scope(name, "ReverseSequence", [input, seq_lengths]) as scope:
        if not isinstance(seq_lengths, Tensor):
            # TF converts Python lengths with the default rules first (int32, an allowed
            # type) before falling back on the attr's default int64.
            seq_lengths = convert_to_tensor(seq_lengths, name="seq_lengths")
        return apply_op1("ReverseSequence", [input, seq_lengths], attrs, name=scope)
