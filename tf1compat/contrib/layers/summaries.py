"""`tf.contrib.layers.summarize_*` (TF 1.15): summaries of tensors and collections.

A scalar tensor gets a scalar summary, others a histogram, tagged `<op name>_summary`
unless `tag` is given (string and bool tensors: none). `summarize_activation` of a
Relu/Softplus/Relu6 output also records the fraction of inputs below zero
(`<op>/zeros`; `<op>/sixes` above six for Relu6) beside its histogram `<op>/activation`.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, List, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.graph import GraphKeys, get_collection
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.math_ops import cast, greater, less
from tf1compat.ops.reduction_ops import reduce_mean
from tf1compat.summary.summary_ops import histogram, scalar

__all__ = ["summarize_tensor", "summarize_activation", "summarize_tensors",
           "summarize_collection", "summarize_variables", "summarize_weights",
           "summarize_biases", "summarize_activations"]


def _add_scalar_summary(tensor: Tensor, tag: Optional[str] = None) -> Tensor:
    tensor.get_shape().assert_has_rank(0)
    return scalar(tag or f"{tensor.op.name}_summary", tensor)


def _add_histogram_summary(tensor: Tensor, tag: Optional[str] = None) -> Tensor:
    return histogram(tag or f"{tensor.op.name}_summary", tensor)


def _fraction(condition: Tensor) -> Tensor:
    return reduce_mean(cast(condition, dtypes.float32, name="ToFloat"))  # TF 1.15: to_float


def summarize_activation(op: Tensor) -> Tensor:
    """The histogram of an activation (and the zero / six fractions of ReLU-like ones)."""
    op_type, pre = op.op.type, op.op.inputs[0] if op.op.inputs else None
    if op_type in ("Relu", "Softplus", "Relu6"):
        _add_scalar_summary(_fraction(less(pre, cast(0.0, pre.dtype))),
                            f"{op.op.name}/zeros")
    if op_type == "Relu6":
        _add_scalar_summary(_fraction(greater(pre, cast(6.0, pre.dtype))),
                            f"{op.op.name}/sixes")
    return _add_histogram_summary(op, f"{op.op.name}/activation")


def summarize_tensor(tensor: Tensor, tag: Optional[str] = None) -> Optional[Tensor]:
    """A scalar summary of a scalar, a histogram otherwise; None for string/bool tensors."""
    if tensor.dtype.is_compatible_with(dtypes.string) or \
            tensor.dtype.base_dtype == dtypes.bool:
        return None
    if tensor.get_shape().ndims == 0:
        return _add_scalar_summary(tensor, tag)
    return _add_histogram_summary(tensor, tag)


def summarize_tensors(tensors: List[Tensor],
                      summarizer: Callable[[Tensor], Any] = summarize_tensor) -> List[Any]:
    """`summarizer` of each tensor."""
    return [summarizer(tensor) for tensor in tensors]


def summarize_collection(collection: str, name_filter: Optional[str] = None,
                         summarizer: Callable[[Tensor], Any] = summarize_tensor) -> List[Any]:
    """`summarizer` of each member of `collection` whose op name matches `name_filter`
    (a regular expression matched at the start, as re.match)."""
    tensors = [t for t in get_collection(collection)
               if name_filter is None or re.match(name_filter, t.op.name)]
    return summarize_tensors(tensors, summarizer)


summarize_variables = functools.partial(summarize_collection, GraphKeys.GLOBAL_VARIABLES)
summarize_weights = functools.partial(summarize_collection, GraphKeys.WEIGHTS)
summarize_biases = functools.partial(summarize_collection, GraphKeys.BIASES)


def summarize_activations(name_filter: Optional[str] = None,
                          summarizer: Callable[[Tensor], Any] = summarize_activation
                          ) -> List[Any]:
    """`summarize_activation` of the ACTIVATIONS collection (contrib layers add their
    outputs there)."""
    return summarize_collection(GraphKeys.ACTIVATIONS, name_filter, summarizer)
