"""RaggedTensors as variants and back: RaggedTensorToVariant, RaggedTensorFromVariant (the
ops TF's RaggedTensorSpec uses to carry a RaggedTensor as one tf.data component).

At run time the variant holds the tensors themselves as one `RaggedValue` (flat values,
the nested row splits outermost first, the splits dtype). A batched encoding
(`batched_input=True`, TF's one variant per row) is the whole RaggedTensor as well: tf.data
slices it per element (data/ragged.py), and RaggedTensorFromVariant, asked for the ragged
rank the batch had, gives the same RaggedTensor back.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, List

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import Int, Type, declare
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["RaggedValue", "decode"]

# What a RaggedTensorToVariant output holds at run time: torch tensors on the CPU (numpy
# object arrays for strings); `splits_dtype` is the dtype of the splits the RaggedTensor
# came with, None when every splits vector was made by batching ragged_rank-0 values (TF's
# encoding of those has no splits: the decoding op's Tsplits decides their dtype).
RaggedValue = collections.namedtuple("RaggedValue",
                                     ["flat_values", "nested_splits", "splits_dtype"])


def _to_variant_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    splits_dtype = node.attrs["Tsplits"] if node.attrs["RAGGED_RANK"] else None

    def to_variant(*args: Any) -> RaggedValue:
        *splits, values = args
        return RaggedValue(values, tuple(s.cpu() if isinstance(s, torch.Tensor) else s
                                         for s in splits), splits_dtype)
    return to_variant


def _to_variant_shape(ctx: Any) -> List[TensorShape]:
    """A scalar; batched: one variant per row ([nrows])."""
    if not ctx.attrs["batched_input"]:
        return [TensorShape([])]
    rank = ctx.attrs["RAGGED_RANK"]
    if rank == 0:
        values = ctx.shape(0)
        return [TensorShape([values.as_list()[0] if values.rank else None])]
    splits = ctx.shape(0).as_list()
    return [TensorShape([None if not splits or splits[0] is None else splits[0] - 1])]


declare("RaggedTensorToVariant",
        inputs=["rt_nested_splits: RAGGED_RANK * Tsplits", "rt_dense_values: Tvalues"],
        outputs=["encoded_ragged: variant"],
        attrs={"RAGGED_RANK": Int(0), "Tvalues": Type(),
               "Tsplits": Type((D.int32, D.int64), default=D.int64), "batched_input": False},
        shape=_to_variant_shape, kernel=_to_variant_kernel, grad="unregistered",
        cpu_only=True,
        doc="A RaggedTensor (its nested row splits and flat values) as one variant.")


def decode(encoded: Any, rank: int, splits_dtype: D.DType) -> tuple:
    """RaggedTensorFromVariant's run time: (nested splits..., flat values) of `encoded`,
    checked against the ragged rank and splits dtype asked for."""
    if not isinstance(encoded, RaggedValue):
        raise errors.InvalidArgumentError(
            None, None, "RaggedTensorFromVariant expects a variant RaggedTensor "
                        "encoding (RaggedTensorToVariant's output).")
    if len(encoded.nested_splits) != rank:
        raise errors.InvalidArgumentError(
            None, None, f"Encoded input RaggedTensorVariant has ragged_rank="
                        f"{len(encoded.nested_splits)}.  Expected ragged_rank={rank}.")
    splits = encoded.nested_splits
    if encoded.splits_dtype is None:
        splits = tuple(s.to(splits_dtype.torch_dtype) for s in splits)
    elif rank and encoded.splits_dtype != splits_dtype:
        raise errors.InvalidArgumentError(
            None, None, f"Expected row_splits Tensor dtype: {splits_dtype.name}, found: "
                        f"{encoded.splits_dtype.name}")
    return tuple(splits) + (encoded.flat_values,)


def _from_variant_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    rank = node.attrs["output_ragged_rank"]
    splits_dtype = node.attrs["Tsplits"]
    return lambda encoded: decode(encoded, rank, splits_dtype)


def _from_variant_shape(ctx: Any) -> List[TensorShape]:
    rank = ctx.attrs["output_ragged_rank"]
    return [TensorShape([None])] * rank + [TensorShape(None)]


declare("RaggedTensorFromVariant", inputs=["encoded_ragged: variant"],
        outputs=["output_nested_splits: output_ragged_rank * Tsplits",
                 "output_dense_values: Tvalues"],
        attrs={"input_ragged_rank": -1, "output_ragged_rank": Int(0), "Tvalues": Type(),
               "Tsplits": Type((D.int32, D.int64), default=D.int64)},
        shape=_from_variant_shape, kernel=_from_variant_kernel, grad="unregistered",
        cpu_only=True,
        doc="The nested row splits and flat values of a variant-encoded RaggedTensor.")
