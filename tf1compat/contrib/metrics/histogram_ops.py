"""`tf.contrib.metrics.auc_using_histogram` (TF 1.15 contrib/metrics/python/ops/
histogram_ops.py): a streaming ROC AUC approximated from two score histograms.

Each update adds the histograms (`HistogramFixedWidth`, `nbins` bins over `score_range`)
of the scores of true and of false examples to two int64 local variables. The AUC is the
trapezoidal integral of the normalised true histogram's cumulative sum (bins from high to
low score) against the false one's; the cumulative sum is TF's: a `Conv2D` of the padded
vector with ones, so the float32 rounding is TF's too.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

from tf1compat.contrib.framework.tensor_util import remove_squeezable_dimensions
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import Operation, control_dependencies, name_scope
from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import math_ops
from tf1compat.ops.array_ops import rank, reshape, shape
from tf1compat.ops.control_flow_ops import group
from tf1compat.ops.creation_ops import ones_like
from tf1compat.ops.indexing_ops import boolean_mask
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.math_extra import histogram_fixed_width
from tf1compat.ops.nn_conv import conv2d
from tf1compat.ops.reduction_ops import reduce_sum
from tf1compat.ops.transform_ops import pad, reverse
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["auc_using_histogram"]


def auc_using_histogram(boolean_labels: Any, scores: Any, score_range: Any, nbins: int = 100,
                        collections: Optional[List[str]] = None, check_shape: bool = True,
                        name: Optional[str] = None) -> Tuple[Tensor, Operation]:
    """`(auc, update_op)`: the AUC of the scores accumulated so far (bool labels and
    scores of rank 1, checked at run time unless `check_shape` is False), approximated
    from `nbins`-bin histograms over `score_range`; the accumulators are created in
    `collections` (default: the local variables)."""
    if collections is None:
        collections = [GraphKeys.LOCAL_VARIABLES]
    with variable_scope(name, "auc_using_histogram", [boolean_labels, scores, score_range]):
        scores, boolean_labels = remove_squeezable_dimensions(scores, boolean_labels)
        score_range = convert_to_tensor(score_range, name="score_range")
        boolean_labels, scores = _check_labels_and_scores(boolean_labels, scores, check_shape)
        hist_true, hist_false = _make_auc_histograms(boolean_labels, scores, score_range,
                                                     nbins)
        true_acc, false_acc, update_op = _accumulate(hist_true, hist_false, nbins,
                                                     collections)
        return _histograms_to_auc(true_acc, false_acc, nbins), update_op


def _check_labels_and_scores(boolean_labels: Any, scores: Any,
                             check_shape: bool) -> Tuple[Tensor, Tensor]:
    with name_scope("_check_labels_and_scores", values=[boolean_labels, scores]):
        boolean_labels = convert_to_tensor(boolean_labels, name="boolean_labels")
        scores = convert_to_tensor(scores, name="scores")
        if boolean_labels.dtype != D.bool:
            # TF passes the dtype as a second exception argument (not %-formatted).
            raise ValueError("Argument boolean_labels should have dtype bool.  Found: %s",
                             boolean_labels.dtype)
        if not check_shape:
            return boolean_labels, scores
        labels_rank_1 = Assert(math_ops.equal(1, rank(boolean_labels)),
                               ["Argument boolean_labels should have rank 1.  Found: ",
                                boolean_labels.name, shape(boolean_labels)])
        scores_rank_1 = Assert(math_ops.equal(1, rank(scores)),
                               ["Argument scores should have rank 1.  Found: ", scores.name,
                                shape(scores)])
        # As in TF, no op is created under these dependencies: the checks never run.
        with control_dependencies([labels_rank_1, scores_rank_1]):
            return boolean_labels, scores


def _make_auc_histograms(boolean_labels: Tensor, scores: Tensor, score_range: Tensor,
                         nbins: int) -> Tuple[Tensor, Tensor]:
    with variable_scope(None, "make_auc_histograms", [boolean_labels, scores, nbins]):
        hist_true = histogram_fixed_width(boolean_mask(scores, boolean_labels), score_range,
                                          nbins=nbins, dtype=D.int64, name="hist_true")
        hist_false = histogram_fixed_width(
            boolean_mask(scores, math_ops.logical_not(boolean_labels)), score_range,
            nbins=nbins, dtype=D.int64, name="hist_false")
        return hist_true, hist_false


def _accumulate(hist_true: Tensor, hist_false: Tensor, nbins: int,
                collections: List[str]) -> Tuple[Any, Any, Operation]:
    """The running totals `hist_true_acc` / `hist_false_acc` and their `update_op`."""
    with variable_scope(None, "hist_accumulate", [hist_true, hist_false]):
        true_acc, false_acc = (
            get_variable(acc_name, shape=[nbins], dtype=hist_true.dtype,
                         initializer=zeros_initializer(), collections=collections,
                         trainable=False)
            for acc_name in ("hist_true_acc", "hist_false_acc"))
        update_op = group(true_acc.assign_add(hist_true), false_acc.assign_add(hist_false),
                          name="update_op")
        return true_acc, false_acc, update_op


def _histograms_to_auc(true_acc: Any, false_acc: Any, nbins: int) -> Tensor:
    """Trapezoidal integration (Bouckaert, "Efficient AUC learning curve calculation",
    with the bins ordered from high to low score): `sum 0.5 * (y_t + y_{t-1}) * dx_t`."""
    normed_true = math_ops.truediv(true_acc, reduce_sum(true_acc))
    normed_false = math_ops.truediv(false_acc, reduce_sum(false_acc))
    delta_y = math_ops.cast(reverse(normed_true, [0], name="delta_y_t"), D.float32)
    delta_x = math_ops.cast(reverse(normed_false, [0], name="delta_x_t"), D.float32)
    y = _strict_1d_cumsum(delta_y, nbins)
    first_trap = delta_x[0] * y[0] / 2.0
    other_traps = delta_x[1:] * (y[1:] + y[:nbins - 1]) / 2.0
    return math_ops.add(first_trap, reduce_sum(other_traps), name="auc")


def _strict_1d_cumsum(tensor: Tensor, length: int) -> Tensor:
    """The cumulative sum of a float32 vector of static `length`, as TF computes it: a
    SAME convolution of the vector, left-padded with `length - 1` zeros, with ones."""
    with name_scope("strict_1d_cumsum", values=[tensor]):
        if length == 0:
            return constant([])
        padded = pad(tensor, [[length - 1, 0]])
        ones = ones_like(padded)
        with name_scope("strict_conv1d", values=[padded, ones]):
            result = conv2d(reshape(padded, (1, -1, 1, 1)), reshape(ones, (-1, 1, 1, 1)),
                            [1, 1, 1, 1], "SAME")
            result = reshape(result, [-1])
        return result[:length]
