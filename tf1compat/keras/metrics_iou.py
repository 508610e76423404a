"""The intersection-over-union metrics of `tf.keras.metrics` (tf-keras's): IoU, MeanIoU,
BinaryIoU, OneHotIoU and OneHotMeanIoU.

Each keeps a `total_confusion_matrix` weight (num_classes x num_classes, labels along
rows) that updates add `tf.math.confusion_matrix` of the flattened (arg-maxed when not
sparse) labels and predictions to; `ignore_class` drops the entries with that label first.
The result is the mean, over the target classes whose union is not empty, of
TP / (TP + FP + FN).
"""

from __future__ import annotations

from typing import Any, Optional, Sequence

import numpy as np

from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.keras.metrics import Metric
from tf1compat.metrics.metrics_impl import confusion_matrix
from tf1compat.ops import indexing_ops, math_ops, matrix_ops, reduction_ops
from tf1compat.ops.array_ops import reshape

__all__ = ["IoU", "MeanIoU", "BinaryIoU", "OneHotIoU", "OneHotMeanIoU"]


def _flat(x: Any) -> Any:
    return reshape(x, [-1]) if x.shape.ndims is None or x.shape.ndims > 1 else x


class _IoUBase(Metric):
    """The confusion matrix the IoU metrics accumulate."""

    def __init__(self, num_classes: int, name: Optional[str] = None, dtype: Any = None,
                 ignore_class: Optional[int] = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1):
        super().__init__(name=name, dtype=dtype)
        self.num_classes = num_classes
        self.ignore_class = ignore_class
        self.sparse_y_true = sparse_y_true
        self.sparse_y_pred = sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_weight("total_confusion_matrix",
                                        shape=(num_classes, num_classes), initializer="zeros")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
        if not self.sparse_y_true:
            y_true = reduction_ops.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = reduction_ops.argmax(y_pred, axis=self.axis)
        y_true = _flat(math_ops.cast(y_true, self._dtype))
        y_pred = _flat(math_ops.cast(y_pred, self._dtype))
        if sample_weight is not None:
            sample_weight = _flat(math_ops.cast(convert_to_tensor(sample_weight), self._dtype))
        if self.ignore_class is not None:
            valid = math_ops.not_equal(y_true, math_ops.cast(self.ignore_class, y_true.dtype))
            y_true = indexing_ops.boolean_mask(y_true, valid)
            y_pred = indexing_ops.boolean_mask(y_pred, valid)
            if sample_weight is not None:
                sample_weight = indexing_ops.boolean_mask(sample_weight, valid)
        current = confusion_matrix(y_true, y_pred, self.num_classes, weights=sample_weight,
                                   dtype=self._dtype)
        return self.total_cm.assign_add(current)

    def reset_state(self) -> None:
        backend.set_value(self.total_cm, np.zeros((self.num_classes, self.num_classes)))


class IoU(_IoUBase):
    """`tf.keras.metrics.IoU`: the mean IoU over `target_class_ids`."""

    def __init__(self, num_classes: int, target_class_ids: Sequence[int],
                 name: Optional[str] = None, dtype: Any = None,
                 ignore_class: Optional[int] = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1):
        super().__init__(name=name, num_classes=num_classes, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred,
                         axis=axis, dtype=dtype)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self) -> Any:
        sum_over_row = math_ops.cast(reduction_ops.reduce_sum(self.total_cm, axis=0),
                                     self._dtype)
        sum_over_col = math_ops.cast(reduction_ops.reduce_sum(self.total_cm, axis=1),
                                     self._dtype)
        true_positives = math_ops.cast(matrix_ops.diag_part(self.total_cm), self._dtype)
        denominator = sum_over_row + sum_over_col - true_positives
        true_positives = indexing_ops.gather(true_positives, self.target_class_ids)
        denominator = indexing_ops.gather(denominator, self.target_class_ids)
        num_valid_entries = reduction_ops.reduce_sum(
            math_ops.cast(math_ops.not_equal(denominator, 0), self._dtype))
        iou = math_ops.div_no_nan(true_positives, denominator)
        return math_ops.div_no_nan(reduction_ops.reduce_sum(iou, name="mean_iou"),
                                   num_valid_entries)

    def get_config(self) -> dict:
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


class BinaryIoU(IoU):
    """`tf.keras.metrics.BinaryIoU`: predictions >= `threshold` are class 1."""

    def __init__(self, target_class_ids: Sequence[int] = (0, 1), threshold: float = 0.5,
                 name: Optional[str] = None, dtype: Any = None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name,
                         dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        y_pred = math_ops.cast(convert_to_tensor(y_pred), self._dtype)
        y_pred = math_ops.cast(y_pred >= self.threshold, self._dtype)
        return super().update_state(y_true, y_pred, sample_weight)

    def get_config(self) -> dict:
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self._dtype}


class MeanIoU(IoU):
    """`tf.keras.metrics.MeanIoU`: the IoU averaged over every class."""

    def __init__(self, num_classes: int, name: Optional[str] = None, dtype: Any = None,
                 ignore_class: Optional[int] = None, sparse_y_true: bool = True,
                 sparse_y_pred: bool = True, axis: int = -1):
        super().__init__(name=name, num_classes=num_classes,
                         target_class_ids=list(range(num_classes)), axis=axis, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred)

    def get_config(self) -> dict:
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self._dtype,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class OneHotIoU(IoU):
    """`tf.keras.metrics.OneHotIoU`: IoU with one-hot labels (and by default scores)."""

    def __init__(self, num_classes: int, target_class_ids: Sequence[int],
                 name: Optional[str] = None, dtype: Any = None,
                 ignore_class: Optional[int] = None, sparse_y_pred: bool = False,
                 axis: int = -1):
        super().__init__(num_classes=num_classes, target_class_ids=target_class_ids,
                         name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self) -> dict:
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids,
                "name": self.name, "dtype": self._dtype, "ignore_class": self.ignore_class,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """`tf.keras.metrics.OneHotMeanIoU`: MeanIoU with one-hot labels."""

    def __init__(self, num_classes: int, name: Optional[str] = None, dtype: Any = None,
                 ignore_class: Optional[int] = None, sparse_y_pred: bool = False,
                 axis: int = -1):
        super().__init__(num_classes=num_classes, axis=axis, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred)

    def get_config(self) -> dict:
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self._dtype,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}
