"""`tf.contrib.deprecated` (TF 1.15): the summary functions of TF 0.x, which scripts from
2016 still call (`tf.contrib.deprecated.scalar_summary`, ...).

Unlike `tf.summary.*`, the tag is the caller's string (or string tensor) as given, not
the op's scoped name, so two summaries may share a tag; `scalar_summary` takes a tensor
of tags shaped like its values. The ops are the same (ScalarSummary, HistogramSummary,
ImageSummary, AudioSummaryV2, MergeSummary), named and collected as TF names them.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, apply_op1, get_collection
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.summary.summary_ops import collect

__all__ = ["scalar_summary", "histogram_summary", "image_summary", "audio_summary",
           "merge_summary", "merge_all_summaries"]


def _summary(op_type: str, inputs: List[Any], attrs: dict, name: Optional[str],
             collections: Optional[Sequence[str]]) -> Tensor:
    with name_scope(name, op_type, inputs) as scope:
        value = apply_op1(op_type, inputs, attrs, name=scope)
        collect(value, collections, [GraphKeys.SUMMARIES])
    return value


def scalar_summary(tags: Any, values: Any, collections: Optional[Sequence[str]] = None,
                   name: Optional[str] = None) -> Tensor:
    """A Summary with one simple value per element of `values`, tagged by the matching
    element of `tags` (a string tensor of the same shape)."""
    return _summary("ScalarSummary", [tags, values], {}, name, collections)


def histogram_summary(tag: Any, values: Any, collections: Optional[Sequence[str]] = None,
                      name: Optional[str] = None) -> Tensor:
    """A Summary with a histogram of `values`, tagged `tag`."""
    return _summary("HistogramSummary", [tag, values], {}, name, collections)


def image_summary(tag: Any, tensor: Any, max_images: int = 3,
                  collections: Optional[Sequence[str]] = None,
                  name: Optional[str] = None) -> Tensor:
    """A Summary with up to `max_images` images of a [batch, height, width, channels]
    tensor, tagged `tag/image/0`, ... (`tag/image` for one)."""
    return _summary("ImageSummary", [tag, tensor], {"max_images": max_images}, name,
                    collections)


def audio_summary(tag: Any, tensor: Any, sample_rate: Any, max_outputs: int = 3,
                  collections: Optional[Sequence[str]] = None,
                  name: Optional[str] = None) -> Tensor:
    """A Summary with up to `max_outputs` clips of a [batch, frames(, channels)] float
    tensor at `sample_rate` Hz, tagged `tag/audio/0`, ..."""
    with name_scope(name, "AudioSummary", [tag, tensor]) as scope:
        rate = convert_to_tensor(sample_rate, dtype=dtypes.float32, name="sample_rate")
        value = apply_op1("AudioSummaryV2", [tag, tensor, rate],
                          {"max_outputs": max_outputs}, name=scope)
        collect(value, collections, [GraphKeys.SUMMARIES])
    return value


def merge_summary(inputs: Sequence[Any], collections: Optional[Sequence[str]] = None,
                  name: Optional[str] = None) -> Tensor:
    """One Summary holding the values of all `inputs` (added to no collection unless
    `collections` names some)."""
    with name_scope(name, "MergeSummary", inputs):
        value = apply_op1("MergeSummary", [list(inputs)], name=name)
        collect(value, collections, [])
    return value


def merge_all_summaries(key: str = GraphKeys.SUMMARIES) -> Optional[Tensor]:
    """`merge_summary` of the `key` collection; None when it is empty."""
    summary_ops = get_collection(key)
    return merge_summary(summary_ops) if summary_ops else None
