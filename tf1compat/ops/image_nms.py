"""Non-maximum suppression: NonMaxSuppression (V1-V5, soft-NMS included),
NonMaxSuppressionWithOverlaps and CombinedNonMaxSuppression, as TF's CPU kernels (greedy,
highest score first, ties to the lower index), with the `tf.image` wrappers.

The greedy loops run in numpy on the host (they are sequential by nature); IOUs are
computed in float32 as TF's kernels compute them.
"""

from __future__ import annotations

import collections
import heapq
import math
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import Type, declare, no_kernel
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc

__all__ = ["non_max_suppression", "non_max_suppression_with_scores",
           "generate_bounding_box_proposals",
           "non_max_suppression_with_overlaps", "non_max_suppression_padded",
           "combined_non_max_suppression"]

_HALF_FLOAT = (D.float16, D.float32)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _host(x: Any) -> np.ndarray:
    return x.detach().cpu().numpy() if isinstance(x, torch.Tensor) else np.asarray(x)


def _scalar(x: Any, what: str) -> float:
    value = _host(x)
    if value.ndim != 0:
        raise _invalid(f"{what} must be 0-D, got shape "
                       f"[{','.join(map(str, value.shape))}]")
    return value.item()


# -- the greedy selection ---------------------------------------------------------------------

def _iou_matrix(boxes: np.ndarray) -> Callable[[int, int], float]:
    """IOU of boxes i and j (corners in any order; empty boxes overlap nothing)."""
    b = boxes.astype(np.float32)
    ymin, xmin = np.minimum(b[:, 0], b[:, 2]), np.minimum(b[:, 1], b[:, 3])
    ymax, xmax = np.maximum(b[:, 0], b[:, 2]), np.maximum(b[:, 1], b[:, 3])
    area = (ymax - ymin) * (xmax - xmin)

    def iou(i: int, j: int) -> float:
        if area[i] <= 0 or area[j] <= 0:
            return np.float32(0.0)
        h = max(np.float32(min(ymax[i], ymax[j]) - max(ymin[i], ymin[j])), np.float32(0.0))
        w = max(np.float32(min(xmax[i], xmax[j]) - max(xmin[i], xmin[j])), np.float32(0.0))
        inter = np.float32(h * w)
        return np.float32(inter / np.float32(area[i] + area[j] - inter))
    return iou


def _greedy_select(scores: np.ndarray, similarity: Callable[[int, int], float],
                   max_output: int, threshold: float, score_threshold: float,
                   soft_sigma: float = 0.0) -> Tuple[List[int], List[float]]:
    """TF's NMS loop: candidates scoring above score_threshold, best first (the lower
    index on ties). Hard NMS drops a candidate whose similarity to a selected box exceeds
    the threshold; soft-NMS (sigma > 0) instead multiplies its score by
    exp(-0.5 sim^2 / sigma) per selected box and queues it again while it stays above
    score_threshold. Each candidate is compared with each selected box once."""
    dtype = scores.dtype.type
    soft = soft_sigma > 0
    scale = dtype(-0.5 / soft_sigma) if soft else dtype(0.0)
    heap = [(-scores[i], i, 0) for i in range(len(scores)) if scores[i] > score_threshold]
    heapq.heapify(heap)
    selected: List[int] = []
    selected_scores: List[float] = []
    while len(selected) < max_output and heap:
        neg_score, index, begin = heapq.heappop(heap)
        original = score = -neg_score
        suppressed = False
        for j in range(len(selected) - 1, begin - 1, -1):
            sim = dtype(similarity(index, selected[j]))
            if not soft and sim > threshold:
                suppressed = True
                break
            if soft:
                score = dtype(score * dtype(math.exp(scale * sim * sim)))
                if score <= score_threshold:
                    break
        if suppressed:
            continue
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > score_threshold:
            heapq.heappush(heap, (-score, index, len(selected)))
    return selected, selected_scores


def _check_boxes(boxes: np.ndarray, scores: np.ndarray) -> None:
    if boxes.ndim != 2:
        raise _invalid(f"boxes must be 2-D[{','.join(map(str, boxes.shape))}]")
    if boxes.shape[1] != 4:
        raise _invalid(f"boxes must have 4 columns[{','.join(map(str, boxes.shape))}]")
    if scores.ndim != 1:
        raise _invalid(f"scores must be 1-D[{','.join(map(str, scores.shape))}]")
    if scores.shape[0] != boxes.shape[0]:
        raise _invalid(f"scores has incompatible shape[{','.join(map(str, scores.shape))}]")


def _nms_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    version = node.type
    pad = node.attrs.get("pad_to_max_output_size", False)

    def nms(boxes: Any, scores: Any, max_output_size: Any, *args: Any) -> Any:
        box_values, score_values = _host(boxes), _host(scores)
        max_output = int(_scalar(max_output_size, "max_output_size"))
        if version == "NonMaxSuppression":
            iou_threshold = float(node.attrs["iou_threshold"])
        else:
            iou_threshold = float(_scalar(args[0], "iou_threshold"))
        score_threshold = float(_scalar(args[1], "score_threshold")) if len(args) > 1 \
            else float("-inf")
        sigma = float(_scalar(args[2], "soft_nms_sigma")) if len(args) > 2 else 0.0
        if not 0 <= iou_threshold <= 1:
            raise _invalid("iou_threshold must be in [0, 1]")
        if sigma < 0:
            raise _invalid("soft_nms_sigma must be non-negative")
        _check_boxes(box_values, score_values)
        work = score_values.astype(np.float32) if score_values.dtype == np.float16 \
            else score_values
        selected, kept = _greedy_select(work, _iou_matrix(box_values), max_output,
                                        iou_threshold, score_threshold, sigma)
        valid = len(selected)
        if pad:
            selected = selected + [0] * (max_output - valid)
            kept = kept + [0.0] * (max_output - valid)
        device = boxes.device if isinstance(boxes, torch.Tensor) else kctx.device
        indices = torch.tensor(selected, dtype=torch.int32, device=device)
        if version == "NonMaxSuppressionV5":
            return (indices, torch.tensor(kept, dtype=boxes.dtype, device=device),
                    torch.tensor(valid, dtype=torch.int32, device=device))
        if version == "NonMaxSuppressionV4":
            return indices, torch.tensor(valid, dtype=torch.int32, device=device)
        return indices
    return nms


def _nms_shape(ctx: Any) -> List[TensorShape]:
    boxes, scores = ctx.shape(0), ctx.shape(1)
    if boxes.rank is not None and boxes.rank != 2:
        raise ValueError(f"Shape must be rank 2 but is rank {boxes.rank} {node_desc(ctx)}")
    if scores.rank is not None and scores.rank != 1:
        raise ValueError(f"Shape must be rank 1 but is rank {scores.rank} {node_desc(ctx)}")
    for i in range(2, len(ctx.inputs)):     # max_output_size and the thresholds
        if ctx.shape(i).rank not in (None, 0):
            raise ValueError(f"Shape must be rank 0 but is rank {ctx.shape(i).rank} "
                             f"{node_desc(ctx)}")
    if boxes.rank == 2 and scores.rank == 1:     # both lead with num_boxes (TF's Merge)
        num_boxes, num_scores = boxes.as_list()[0], scores.as_list()[0]
        if None not in (num_boxes, num_scores) and num_boxes != num_scores:
            raise ValueError(f"Dimensions must be equal, but are {num_boxes} and {num_scores} "
                             f"{node_desc(ctx)}")
    if boxes.rank == 2 and boxes.as_list()[1] not in (None, 4):
        raise ValueError(f"Dimension must be 4 but is {boxes.as_list()[1]} {node_desc(ctx)}")
    size = ctx.const(2)
    pad = ctx.attrs.get("pad_to_max_output_size", False)
    out = TensorShape([int(size) if (pad and size is not None) else None])
    if ctx.op_type == "NonMaxSuppressionV5":
        return [out, out, TensorShape([])]
    if ctx.op_type == "NonMaxSuppressionV4":
        return [out, TensorShape([])]
    return [out]


declare("NonMaxSuppression", inputs=["boxes: float32", "scores: float32",
                                     "max_output_size: int32"],
        outputs=["selected_indices: int32"], attrs={"iou_threshold": 0.5},
        shape=_nms_shape, kernel=_nms_kernel, grad="none", cpu_only=True)
declare("NonMaxSuppressionV2", inputs=["boxes: T", "scores: T", "max_output_size: int32",
                                       "iou_threshold: T_threshold"],
        outputs=["selected_indices: int32"],
        attrs={"T": Type(_HALF_FLOAT, default=D.float32),
               "T_threshold": Type(_HALF_FLOAT, default=D.float32)},
        shape=_nms_shape, kernel=_nms_kernel, grad="none", cpu_only=True)
declare("NonMaxSuppressionV3", inputs=["boxes: T", "scores: T", "max_output_size: int32",
                                       "iou_threshold: T_threshold",
                                       "score_threshold: T_threshold"],
        outputs=["selected_indices: int32"],
        attrs={"T": Type(_HALF_FLOAT, default=D.float32),
               "T_threshold": Type(_HALF_FLOAT, default=D.float32)},
        shape=_nms_shape, kernel=_nms_kernel, grad="unregistered", cpu_only=True)
declare("NonMaxSuppressionV4", inputs=["boxes: T", "scores: T", "max_output_size: int32",
                                       "iou_threshold: T_threshold",
                                       "score_threshold: T_threshold"],
        outputs=["selected_indices: int32", "valid_outputs: int32"],
        attrs={"T": Type(_HALF_FLOAT, default=D.float32),
               "T_threshold": Type(_HALF_FLOAT, default=D.float32),
               "pad_to_max_output_size": False},
        shape=_nms_shape, kernel=_nms_kernel, grad="unregistered", cpu_only=True)
declare("NonMaxSuppressionV5", inputs=["boxes: T", "scores: T", "max_output_size: int32",
                                       "iou_threshold: T", "score_threshold: T",
                                       "soft_nms_sigma: T"],
        outputs=["selected_indices: int32", "selected_scores: T", "valid_outputs: int32"],
        attrs={"T": Type(_HALF_FLOAT, default=D.float32), "pad_to_max_output_size": False},
        shape=_nms_shape, kernel=_nms_kernel, grad="unregistered", cpu_only=True)


def _nms_overlaps_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def nms_with_overlaps(overlaps: Any, scores: Any, max_output_size: Any, threshold: Any,
                          score_threshold: Any) -> torch.Tensor:
        table, score_values = _host(overlaps), _host(scores)
        if table.ndim != 2 or table.shape[0] != table.shape[1]:
            raise _invalid(f"overlaps must be square[{','.join(map(str, table.shape))}]")
        selected, _ = _greedy_select(score_values, lambda i, j: table[i, j],
                                     int(_scalar(max_output_size, "max_output_size")),
                                     float(_scalar(threshold, "overlap_threshold")),
                                     float(_scalar(score_threshold, "score_threshold")))
        return torch.tensor(selected, dtype=torch.int32, device=kctx.device)
    return nms_with_overlaps


declare("NonMaxSuppressionWithOverlaps",
        inputs=["overlaps: float32", "scores: float32", "max_output_size: int32",
                "overlap_threshold: float32", "score_threshold: float32"],
        outputs=["selected_indices: int32"], shape=lambda ctx: [TensorShape([None])],
        kernel=_nms_overlaps_kernel, grad="none", cpu_only=True)


# -- CombinedNonMaxSuppression ---------------------------------------------------------------

def _combined_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    pad_per_class, clip = node.attrs["pad_per_class"], node.attrs["clip_boxes"]

    def combined(boxes: Any, scores: Any, per_class: Any, total: Any, iou: Any,
                 score_threshold: Any) -> tuple:
        box_values, score_values = _host(boxes), _host(scores)
        per_class_n = int(_scalar(per_class, "max_size_per_class"))
        total_n = int(_scalar(total, "max_total_size"))
        iou_threshold = float(_scalar(iou, "iou_threshold"))
        min_score = float(_scalar(score_threshold, "score_threshold"))
        if per_class_n <= 0:
            raise _invalid("max_size_per_class should be > 0")
        if total_n <= 0:
            raise _invalid("max_total_size should be > 0")
        if not 0 <= iou_threshold <= 1:
            raise _invalid("iou_threshold must be in [0, 1]")
        batch, num_boxes, q = box_values.shape[:3]
        num_classes = score_values.shape[2]
        if q not in (1, num_classes):
            raise _invalid("third dimension of boxes must be either 1 or num classes")
        detections = min(per_class_n * num_classes, total_n) if pad_per_class else total_n
        out_boxes = np.zeros((batch, detections, 4), np.float32)
        out_scores = np.zeros((batch, detections), np.float32)
        out_classes = np.zeros((batch, detections), np.float32)
        valid = np.zeros(batch, np.int32)
        for b in range(batch):
            found = []
            for c in range(num_classes):
                class_boxes = box_values[b, :, 0 if q == 1 else c, :]
                selected, kept = _greedy_select(score_values[b, :, c].astype(np.float32),
                                                _iou_matrix(class_boxes), per_class_n,
                                                iou_threshold, min_score)
                found.extend((s, c, i) for i, s in zip(selected, kept))
            # Best scores first; equal scores keep the order they were found in.
            found.sort(key=lambda item: -item[0])
            found = found[:detections]
            valid[b] = len(found)
            for k, (s, c, i) in enumerate(found):
                box = box_values[b, i, 0 if q == 1 else c, :].astype(np.float32)
                out_boxes[b, k] = np.clip(box, 0.0, 1.0) if clip else box
                out_scores[b, k] = s
                out_classes[b, k] = c
        device = kctx.device
        return (torch.from_numpy(out_boxes).to(device), torch.from_numpy(out_scores).to(device),
                torch.from_numpy(out_classes).to(device), torch.from_numpy(valid).to(device))
    return combined


def _combined_shape(ctx: Any) -> List[TensorShape]:
    boxes = ctx.shape(0)
    batch = boxes.as_list()[0] if boxes.rank else None
    per_class, total = ctx.const(2), ctx.const(3)
    size = None
    if total is not None:
        size = int(total)
        if ctx.attrs["pad_per_class"]:
            classes = ctx.shape(1).as_list()[2] if ctx.shape(1).rank == 3 else None
            size = None if (per_class is None or classes is None) else \
                min(int(per_class) * classes, int(total))
    return [TensorShape([batch, size, 4]), TensorShape([batch, size]),
            TensorShape([batch, size]), TensorShape([batch])]


declare("CombinedNonMaxSuppression",
        inputs=["boxes: float32", "scores: float32", "max_output_size_per_class: int32",
                "max_total_size: int32", "iou_threshold: float32", "score_threshold: float32"],
        outputs=["nmsed_boxes: float32", "nmsed_scores: float32", "nmsed_classes: float32",
                 "valid_detections: int32"],
        attrs={"pad_per_class": False, "clip_boxes": True},
        shape=_combined_shape, kernel=_combined_kernel, grad="unregistered", cpu_only=True)

CombinedNonMaxSuppression = collections.namedtuple(
    "CombinedNonMaxSuppression", ["nmsed_boxes", "nmsed_scores", "nmsed_classes",
                                  "valid_detections"])


# -- tf.image wrappers ---------------------------------------------------------------------------

def non_max_suppression(boxes: Any, scores: Any, max_output_size: Any,
                        iou_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                        name: Optional[str] = None) -> Tensor:
    """`tf.image.non_max_suppression`: indices of the boxes greedy NMS keeps (V3)."""
    with name_scope(name, "non_max_suppression"):
        iou_threshold = convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, name="score_threshold")
        return apply_op("NonMaxSuppressionV3", [boxes, scores, max_output_size, iou_threshold,
                                                score_threshold]).outputs[0]


def non_max_suppression_with_scores(boxes: Any, scores: Any, max_output_size: Any,
                                    iou_threshold: Any = 0.5,
                                    score_threshold: Any = float("-inf"),
                                    soft_nms_sigma: Any = 0.0,
                                    name: Optional[str] = None) -> Tuple[Tensor, Tensor]:
    """`tf.image.non_max_suppression_with_scores`: NMS (soft-NMS when sigma > 0) with the
    kept boxes' (possibly decayed) scores (V5)."""
    with name_scope(name, "non_max_suppression_with_scores"):
        iou_threshold = convert_to_tensor(iou_threshold, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, name="score_threshold")
        soft_nms_sigma = convert_to_tensor(soft_nms_sigma, name="soft_nms_sigma")
        op = apply_op("NonMaxSuppressionV5", [boxes, scores, max_output_size, iou_threshold,
                                              score_threshold, soft_nms_sigma],
                      {"pad_to_max_output_size": False})
        return op.outputs[0], op.outputs[1]


def non_max_suppression_with_overlaps(overlaps: Any, scores: Any, max_output_size: Any,
                                      overlap_threshold: Any = 0.5,
                                      score_threshold: Any = float("-inf"),
                                      name: Optional[str] = None) -> Tensor:
    """`tf.image.non_max_suppression_overlaps`: NMS over a given overlap matrix."""
    with name_scope(name, "non_max_suppression_overlaps"):
        overlap_threshold = convert_to_tensor(overlap_threshold, name="overlap_threshold")
        return apply_op("NonMaxSuppressionWithOverlaps",
                        [overlaps, scores, max_output_size, overlap_threshold,
                         score_threshold]).outputs[0]


def _padded_overlaps(boxes: Tensor) -> Tensor:
    """Pairwise IOUs of [batch, n, 4] boxes as TF's padded NMS computes them: corners are
    swapped for every box when the first box's are (not per box), and the union carries
    an epsilon of 1e-8."""
    from tf1compat.ops.array_ops import concat, split
    from tf1compat.ops.cond import cond
    from tf1compat.ops.math_ops import less_equal, maximum, minimum
    from tf1compat.ops.reduction_ops import reduce_all
    from tf1compat.ops.transform_ops import transpose
    y1, x1, y2, x2 = split(boxes, 4, axis=2)
    y_first = reduce_all(less_equal(y1[0, 0, 0], y2[0, 0, 0]))
    y_min, y_max = cond(y_first, lambda: (y1, y2), lambda: (y2, y1))
    x_first = reduce_all(less_equal(x1[0, 0, 0], x2[0, 0, 0]))
    x_min, x_max = cond(x_first, lambda: (x1, x2), lambda: (x2, x1))

    def across(t: Tensor) -> Tensor:
        return transpose(t, [0, 2, 1])
    i_area = maximum(minimum(x_max, across(x_max)) - maximum(x_min, across(x_min)), 0.0) * \
        maximum(minimum(y_max, across(y_max)) - maximum(y_min, across(y_min)), 0.0)
    area = (y_max - y_min) * (x_max - x_min)
    union = area + across(area) - i_area + 1e-8
    canonical = concat([y_min, x_min, y_max, x_max], axis=2)
    return i_area / union, canonical


def non_max_suppression_padded(boxes: Any, scores: Any, max_output_size: Any,
                               iou_threshold: Any = 0.5, score_threshold: Any = float("-inf"),
                               pad_to_max_output_size: bool = False,
                               name: Optional[str] = None, sorted_input: bool = False,
                               canonicalized_coordinates: bool = False,
                               tile_size: int = 512) -> Tuple[Tensor, Tensor]:
    """`tf.image.non_max_suppression_padded`: NMS returning (indices, number valid),
    padded with zeros to max_output_size when asked (required for batched boxes).

    TF 2.x computes it with a tiled while loop; tf1compat gives the same selection with
    its overlap matrix (see `_padded_overlaps`) and NonMaxSuppressionWithOverlaps per batch
    element. As in TF, boxes whose (swapped) coordinates are all <= 0 are never selected.
    `sorted_input` and `tile_size` only tune TF's loop."""
    del sorted_input, tile_size
    from tf1compat.ops.array_ops import concat, expand_dims, reshape, shape, size, stack, unstack
    from tf1compat.ops.creation_ops import zeros
    from tf1compat.ops.indexing_ops import where
    from tf1compat.ops.math_ops import cast, greater
    from tf1compat.ops.reduction_ops import reduce_any
    with name_scope(name, "non_max_suppression_padded"):
        boxes = convert_to_tensor(boxes, name="boxes")
        scores = convert_to_tensor(scores, name="scores")
        rank = boxes.shape.rank
        if not pad_to_max_output_size and rank is not None and rank > 2:
            raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) "
                             "must be True for batched input")
        if rank is None or boxes.shape[:-2].num_elements() is None:
            raise NotImplementedError("tf1compat's non_max_suppression_padded needs the "
                                      "boxes' batch dimensions known at graph build")
        batch_dims = shape(boxes)[:-2]
        num_boxes = boxes.shape.as_list()[-2]
        flat_boxes = cast(reshape(boxes, [-1, num_boxes, 4]), D.float32)
        flat_scores = cast(reshape(scores, [-1, num_boxes]), D.float32)
        overlaps, canonical = _padded_overlaps(flat_boxes)
        if not canonicalized_coordinates:
            flat_boxes = canonical
        usable = reduce_any(greater(flat_boxes, 0.0), [2])
        flat_scores = where(usable, flat_scores, flat_scores * 0.0 - float("inf"))
        max_output_size = convert_to_tensor(max_output_size, D.int32)
        indices, counts = [], []
        batch = boxes.shape[:-2].num_elements()
        for table, row in zip(unstack(overlaps, num=batch), unstack(flat_scores, num=batch)):
            picked = apply_op("NonMaxSuppressionWithOverlaps",
                              [table, row, max_output_size, iou_threshold,
                               score_threshold]).outputs[0]
            count = size(picked)
            indices.append(concat([picked, zeros([max_output_size - count], D.int32)], 0))
            counts.append(count)
        idx, num_valid = stack(indices), reshape(stack(counts), batch_dims)
        if not pad_to_max_output_size:
            return idx[0, :num_valid], num_valid
        return reshape(idx, concat([batch_dims, expand_dims(max_output_size, 0)], 0)), \
            num_valid


def combined_non_max_suppression(boxes: Any, scores: Any, max_output_size_per_class: Any,
                                 max_total_size: Any, iou_threshold: Any = 0.5,
                                 score_threshold: Any = float("-inf"),
                                 pad_per_class: bool = False, clip_boxes: bool = True,
                                 name: Optional[str] = None) -> CombinedNonMaxSuppression:
    """`tf.image.combined_non_max_suppression`: per-class NMS merged across classes."""
    with name_scope(name, "combined_non_max_suppression"):
        iou_threshold = convert_to_tensor(iou_threshold, dtype=D.float32, name="iou_threshold")
        score_threshold = convert_to_tensor(score_threshold, dtype=D.float32,
                                            name="score_threshold")
        max_total_size = convert_to_tensor(max_total_size)
        op = apply_op("CombinedNonMaxSuppression",
                      [boxes, scores, max_output_size_per_class, max_total_size, iou_threshold,
                       score_threshold],
                      {"pad_per_class": pad_per_class, "clip_boxes": clip_boxes})
        return CombinedNonMaxSuppression(*op.outputs)


# -- GenerateBoundingBoxProposals (GPU-only in TF) ---------------------------------------------

def _proposals_shape(ctx: Any) -> List[TensorShape]:
    for i, rank in ((0, 4), (1, 4), (2, 2), (3, 3), (4, 0), (5, 0), (6, 0)):
        s = ctx.shape(i)
        if s.rank is not None and s.rank != rank:
            raise ValueError(f"Shape must be rank {rank} but is rank {s.rank} "
                             f"{node_desc(ctx)}")
    batch = ctx.shape(0).as_list()[0] if ctx.shape(0).rank == 4 else None
    top = ctx.attr("post_nms_topn")
    return [TensorShape([batch, top, 4]), TensorShape([batch, top])]


def _proposals_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    # TF registers this op for GPUs only: a CPU graph fails to run it.
    raise no_kernel(node, f"post_nms_topn={node.attrs['post_nms_topn']}")


declare("GenerateBoundingBoxProposals",
        inputs=["scores: float32", "bbox_deltas: float32", "image_info: float32",
                "anchors: float32", "nms_threshold: float32", "pre_nms_topn: int32",
                "min_size: float32"],
        outputs=["rois: float32", "roi_probabilities: float32"],
        attrs={"post_nms_topn": 300}, shape=_proposals_shape, kernel=_proposals_kernel,
        grad="none")
_Proposals = collections.namedtuple("GenerateBoundingBoxProposals", ["rois",
                                                                     "roi_probabilities"])


def generate_bounding_box_proposals(scores: Any, bbox_deltas: Any, image_info: Any,
                                    anchors: Any, nms_threshold: float = 0.7,
                                    pre_nms_topn: int = 6000, min_size: float = 16,
                                    post_nms_topn: int = 300,
                                    name: Optional[str] = None) -> Any:
    """`tf.image.generate_bounding_box_proposals`: declared with TF's shapes; TF runs it
    on GPUs only, so running it fails here as on TF's CPU."""
    op = apply_op("GenerateBoundingBoxProposals",
                  [scores, bbox_deltas, image_info, anchors, nms_threshold, pre_nms_topn,
                   min_size],
                  {"post_nms_topn": int(post_nms_topn)}, name=name)
    return _Proposals(*op.outputs)
