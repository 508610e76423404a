"""`tf.contrib.losses.metric_learning` (TF 1.15's metric_loss_ops.py): contrastive,
triplet (semi-hard negative mining), lifted structured and N-pairs (single- and
multi-label) losses over a batch of embeddings, built from the same tf.* ops as TF's.

`cluster_loss` (the facility-location clustering loss) scores clusterings with
scikit-learn's NMI/AMI through py_func in TF; tf1compat does not depend on scikit-learn
and raises NotImplementedError for it.
"""

from __future__ import annotations

from typing import Any, Callable, List

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import name_scope
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.ops import array_ops, math_ops, nn_losses, reduction_ops
from tf1compat.ops.creation_ops import ones, ones_like, zeros
from tf1compat.ops.indexing_ops import where
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.logging_ops import Print
from tf1compat.ops.manip_ops import diag
from tf1compat.ops.sparse_extra import sparse_minimum
from tf1compat.ops.sparse_math import sparse_reduce_sum
from tf1compat.ops.transform_ops import pad, tile, transpose

__all__ = ["contrastive_loss", "cluster_loss", "lifted_struct_loss", "npairs_loss",
           "npairs_loss_multilabel", "triplet_semihard_loss"]

_sum, _min, _max = reduction_ops.reduce_sum, reduction_ops.reduce_min, reduction_ops.reduce_max


def pairwise_distance(feature: Any, squared: bool = False) -> Any:
    """The [n, n] (squared) Euclidean distances between the rows of `feature`, zero on the
    diagonal (a tiny offset keeps sqrt's gradient finite at 0, as TF's)."""
    squared_distances = math_ops.add(
        _sum(math_ops.square(feature), axis=[1], keepdims=True),
        _sum(math_ops.square(transpose(feature)), axis=[0], keepdims=True)) \
        - 2.0 * matmul(feature, transpose(feature))
    squared_distances = math_ops.maximum(squared_distances, 0.0)
    error_mask = math_ops.less_equal(squared_distances, 0.0)
    if squared:
        distances = squared_distances
    else:
        distances = math_ops.sqrt(squared_distances +
                                  math_ops.cast(error_mask, D.float32) * 1e-16)
    distances = math_ops.multiply(distances,
                                  math_ops.cast(math_ops.logical_not(error_mask), D.float32))
    num_data = array_ops.shape(feature)[0]
    offdiagonal = ones_like(distances) - diag(ones([num_data]))
    return math_ops.multiply(distances, offdiagonal)


def contrastive_loss(labels: Any, embeddings_anchor: Any, embeddings_positive: Any,
                     margin: float = 1.0) -> Any:
    """Mean of y * d^2 + (1 - y) * max(margin - d, 0)^2 over the anchor/positive pairs."""
    distances = math_ops.sqrt(_sum(math_ops.squared_difference(embeddings_anchor,
                                                               embeddings_positive), 1))
    y = math_ops.cast(labels, distances.dtype)
    return reduction_ops.reduce_mean(
        y * math_ops.square(distances) +
        (1. - y) * math_ops.square(math_ops.maximum(margin - distances, 0.)),
        name="contrastive_loss")


def masked_maximum(data: Any, mask: Any, dim: int = 1) -> Any:
    """The maximum of `data` over `dim` among the entries where `mask` is 1."""
    axis_minimums = _min(data, dim, keepdims=True)
    return _max(math_ops.multiply(data - axis_minimums, mask), dim,
                keepdims=True) + axis_minimums


def masked_minimum(data: Any, mask: Any, dim: int = 1) -> Any:
    """The minimum of `data` over `dim` among the entries where `mask` is 1."""
    axis_maximums = _max(data, dim, keepdims=True)
    return _min(math_ops.multiply(data - axis_maximums, mask), dim,
                keepdims=True) + axis_maximums


def _column(labels: Any) -> Any:
    lshape = array_ops.shape(labels)
    if lshape.shape.as_list() != [1]:
        raise AssertionError("labels must be a 1-D tensor")
    return array_ops.reshape(labels, [lshape[0], 1])


def triplet_semihard_loss(labels: Any, embeddings: Any, margin: float = 1.0) -> Any:
    """The triplet loss with semi-hard negative mining (Schroff et al., FaceNet) over
    squared distances; `labels` [batch] int, `embeddings` [batch, dim], l2-normalized."""
    labels = _column(labels)
    pdist_matrix = pairwise_distance(embeddings, squared=True)
    adjacency = math_ops.equal(labels, transpose(labels))
    adjacency_not = math_ops.logical_not(adjacency)
    batch_size = array_ops.size(labels)
    pdist_matrix_tile = tile(pdist_matrix, [batch_size, 1])
    mask = math_ops.logical_and(
        tile(adjacency_not, [batch_size, 1]),
        math_ops.greater(pdist_matrix_tile,
                         array_ops.reshape(transpose(pdist_matrix), [-1, 1])))
    mask_final = array_ops.reshape(
        math_ops.greater(_sum(math_ops.cast(mask, dtype=D.float32), 1, keepdims=True), 0.0),
        [batch_size, batch_size])
    mask_final = transpose(mask_final)
    adjacency_not = math_ops.cast(adjacency_not, dtype=D.float32)
    mask = math_ops.cast(mask, dtype=D.float32)
    negatives_outside = transpose(array_ops.reshape(masked_minimum(pdist_matrix_tile, mask),
                                                    [batch_size, batch_size]))
    negatives_inside = tile(masked_maximum(pdist_matrix, adjacency_not), [1, batch_size])
    semi_hard_negatives = where(mask_final, negatives_outside, negatives_inside)
    loss_mat = math_ops.add(margin, pdist_matrix - semi_hard_negatives)
    mask_positives = math_ops.cast(adjacency, dtype=D.float32) - diag(ones([batch_size]))
    num_positives = _sum(mask_positives)
    return math_ops.truediv(
        _sum(math_ops.maximum(math_ops.multiply(loss_mat, mask_positives), 0.0)),
        num_positives, name="triplet_semihard_loss")


def _npairs(make_targets: Callable[[], Any], embeddings_anchor: Any, embeddings_positive: Any,
            reg_lambda: float, print_losses: bool) -> Any:
    reg_anchor = reduction_ops.reduce_mean(_sum(math_ops.square(embeddings_anchor), 1))
    reg_positive = reduction_ops.reduce_mean(_sum(math_ops.square(embeddings_positive), 1))
    l2loss = math_ops.multiply(0.25 * reg_lambda, reg_anchor + reg_positive, name="l2loss")
    similarity_matrix = matmul(embeddings_anchor, embeddings_positive, transpose_a=False,
                               transpose_b=True)
    # (the targets are built after the similarities, in TF's op order)
    labels_remapped = make_targets()
    labels_remapped /= _sum(labels_remapped, 1, keepdims=True)
    xent_loss = nn_losses.softmax_cross_entropy_with_logits(logits=similarity_matrix,
                                                            labels=labels_remapped)
    xent_loss = reduction_ops.reduce_mean(xent_loss, name="xentropy")
    if print_losses:
        xent_loss = Print(xent_loss, ["cross entropy:", xent_loss, "l2loss:", l2loss])
    return l2loss + xent_loss


def npairs_loss(labels: Any, embeddings_anchor: Any, embeddings_positive: Any,
                reg_lambda: float = 0.002, print_losses: bool = False) -> Any:
    """The N-pairs loss (Sohn 2016): softmax cross-entropy of anchor . positive^T
    against same-label targets, plus an l2 penalty on the embeddings."""
    def remapped() -> Any:
        column = _column(labels)
        return math_ops.cast(math_ops.equal(column, transpose(column)), D.float32)
    return _npairs(remapped, embeddings_anchor, embeddings_positive, reg_lambda,
                   print_losses)


def _build_multilabel_adjacency(sparse_labels: List[SparseTensor]) -> Any:
    num_pairs = len(sparse_labels)
    adjacency = zeros([num_pairs, num_pairs])
    for i in range(num_pairs):
        for j in range(num_pairs):
            dot = math_ops.cast(sparse_reduce_sum(sparse_minimum(sparse_labels[i],
                                                                 sparse_labels[j])),
                                D.float32)
            dot = array_ops.expand_dims(array_ops.expand_dims(dot, 0), 1)
            adjacency += pad(dot, [[i, num_pairs - i - 1], [j, num_pairs - j - 1]],
                             "CONSTANT")
    return adjacency


def npairs_loss_multilabel(sparse_labels: List[SparseTensor], embeddings_anchor: Any,
                           embeddings_positive: Any, reg_lambda: float = 0.002,
                           print_losses: bool = False) -> Any:
    """npairs_loss for multi-label data: `sparse_labels` is a list of [1, num_classes]
    SparseTensors, one per pair; targets are the label overlaps, row-normalized."""
    if not all(isinstance(label, SparseTensor) for label in sparse_labels):
        raise TypeError(f"sparse_labels must be a list of SparseTensors, but got "
                        f"{sparse_labels}")
    with name_scope("NpairsLossMultiLabel"):
        return _npairs(lambda: math_ops.cast(_build_multilabel_adjacency(sparse_labels),
                                             D.float32),
                       embeddings_anchor, embeddings_positive, reg_lambda, print_losses)


def lifted_struct_loss(labels: Any, embeddings: Any, margin: float = 1.0) -> Any:
    """The lifted structured loss (Oh Song et al. 2016) over Euclidean distances."""
    labels = _column(labels)
    pairwise_distances = pairwise_distance(embeddings)
    adjacency = math_ops.equal(labels, transpose(labels))
    adjacency_not = math_ops.logical_not(adjacency)
    batch_size = array_ops.size(labels)
    diff = margin - pairwise_distances
    mask = math_ops.cast(adjacency_not, dtype=D.float32)
    row_minimums = _min(diff, 1, keepdims=True)
    row_negative_maximums = _max(math_ops.multiply(diff - row_minimums, mask), 1,
                                 keepdims=True) + row_minimums
    max_elements = math_ops.maximum(row_negative_maximums, transpose(row_negative_maximums))
    diff_tiled = tile(diff, [batch_size, 1])
    mask_tiled = tile(mask, [batch_size, 1])
    max_elements_vect = array_ops.reshape(transpose(max_elements), [-1, 1])
    loss_exp_left = array_ops.reshape(
        _sum(math_ops.multiply(math_ops.exp(diff_tiled - max_elements_vect), mask_tiled), 1,
             keepdims=True), [batch_size, batch_size])
    loss_mat = max_elements + math_ops.log(loss_exp_left + transpose(loss_exp_left))
    loss_mat += pairwise_distances
    mask_positives = math_ops.cast(adjacency, dtype=D.float32) - diag(ones([batch_size]))
    num_positives = _sum(mask_positives) / 2.0
    return math_ops.truediv(
        0.25 * _sum(math_ops.square(math_ops.maximum(math_ops.multiply(loss_mat,
                                                                       mask_positives),
                                                     0.0))),
        num_positives, name="liftedstruct_loss")


def cluster_loss(labels: Any, embeddings: Any, margin_multiplier: float,
                 enable_pam_finetuning: bool = True, margin_type: str = "nmi",
                 print_losses: bool = False) -> Any:
    """`cluster_loss` is not provided: TF scores its clusterings with scikit-learn."""
    raise NotImplementedError(
        "tf.contrib.losses.metric_learning.cluster_loss is not implemented by tf1compat: TF "
        "1.15 computes its NMI/AMI margins with scikit-learn inside py_func")
