"""`tf.contrib.slim.summaries`: summary helpers named after the tensors they watch.

    slim.summaries.add_scalar_summary(total_loss, "losses/total", print_summary=True)
    slim.summaries.add_zero_fraction_summaries([end_points[k] for k in end_points])

A summary is named `[prefix/]<name or the tensor's op name>[/postfix]`. With
`print_summary` the returned op also prints the tensor when run (a tf.Print of the
summary, which then replaces it in the SUMMARIES collection).
"""

from __future__ import annotations

from typing import Any, Iterable, List, Optional

from tf1compat.framework.graph import GraphKeys, add_to_collection
from tf1compat.ops.logging_ops import Print
from tf1compat.ops.nn_ops import zero_fraction
from tf1compat.summary import summary_ops

__all__ = ["add_histogram_summary", "add_image_summary", "add_scalar_summary",
           "add_zero_fraction_summary", "add_histogram_summaries", "add_image_summaries",
           "add_scalar_summaries", "add_zero_fraction_summaries"]


def _summary_name(tensor: Any, name: Optional[str] = None, prefix: Optional[str] = None,
                  postfix: Optional[str] = None) -> str:
    name = name or tensor.op.name
    if prefix:
        name = prefix + "/" + name
    if postfix:
        name = name + "/" + postfix
    return name


def _maybe_printed(summary_fn: Any, tensor: Any, name: str, print_summary: bool) -> Any:
    """The summary op; with `print_summary`, kept out of the collections and wrapped in a
    Print of `tensor` that goes into SUMMARIES instead."""
    op = summary_fn(name=name, tensor=tensor, collections=[] if print_summary else None)
    if print_summary:
        op = Print(op, [tensor], name)
        add_to_collection(GraphKeys.SUMMARIES, op)
    return op


def add_histogram_summary(tensor: Any, name: Optional[str] = None,
                          prefix: Optional[str] = None) -> Any:
    """A histogram summary of `tensor`."""
    return summary_ops.histogram(_summary_name(tensor, name, prefix), tensor)


def add_image_summary(tensor: Any, name: Optional[str] = None, prefix: Optional[str] = None,
                      print_summary: bool = False) -> Any:
    """An image summary of `tensor` ([batch, height, width, channels])."""
    return _maybe_printed(summary_ops.image, tensor, _summary_name(tensor, name, prefix),
                          print_summary)


def add_scalar_summary(tensor: Any, name: Optional[str] = None, prefix: Optional[str] = None,
                       print_summary: bool = False) -> Any:
    """A scalar summary of `tensor`."""
    return _maybe_printed(summary_ops.scalar, tensor, _summary_name(tensor, name, prefix),
                          print_summary)


def add_zero_fraction_summary(tensor: Any, name: Optional[str] = None,
                              prefix: Optional[str] = None,
                              print_summary: bool = False) -> Any:
    """A scalar summary `<name>/Fraction_of_Zero_Values` of the fraction of zeros."""
    name = _summary_name(tensor, name, prefix, "Fraction_of_Zero_Values")
    return add_scalar_summary(zero_fraction(tensor), name, print_summary=print_summary)


def add_histogram_summaries(tensors: Iterable[Any], prefix: Optional[str] = None
                            ) -> List[Any]:
    """`add_histogram_summary` of each tensor."""
    return [add_histogram_summary(t, prefix=prefix) for t in tensors]


def add_image_summaries(tensors: Iterable[Any], prefix: Optional[str] = None) -> List[Any]:
    """`add_image_summary` of each tensor."""
    return [add_image_summary(t, prefix=prefix) for t in tensors]


def add_scalar_summaries(tensors: Iterable[Any], prefix: Optional[str] = None,
                         print_summary: bool = False) -> List[Any]:
    """`add_scalar_summary` of each tensor."""
    return [add_scalar_summary(t, prefix=prefix, print_summary=print_summary)
            for t in tensors]


def add_zero_fraction_summaries(tensors: Iterable[Any], prefix: Optional[str] = None
                                ) -> List[Any]:
    """`add_zero_fraction_summary` of each tensor."""
    return [add_zero_fraction_summary(t, prefix=prefix) for t in tensors]
