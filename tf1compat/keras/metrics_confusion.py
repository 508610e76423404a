"""The confusion-matrix metrics of `tf.keras.metrics`: TruePositives, FalsePositives,
TrueNegatives, FalseNegatives, Precision, Recall, SensitivityAtSpecificity,
SpecificityAtSensitivity, PrecisionAtRecall, RecallAtPrecision and AUC (tf-keras's).

Each keeps per-threshold counts in non-trainable weights (`true_positives`, ...; one
`accumulator` for the single counts). An update compares every prediction with every
threshold (`prediction > threshold` is positive; labels are positive when non-zero) and
adds the (weighted) counts, as tf-keras's `update_confusion_matrix_variables`; tf-keras
takes a bucketing shortcut for evenly spaced thresholds (AUC's default), which gives the
same counts. `top_k` and `class_id` select predictions as in tf-keras. Not supported:
`AUC(multi_label=True)` (NotImplementedError).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.keras.metrics import Metric, _squeeze_or_expand
from tf1compat.ops import array_ops, creation_ops, indexing_ops, math_ops, reduction_ops
from tf1compat.ops.weights_broadcast_ops import broadcast_weights

__all__ = ["TruePositives", "FalsePositives", "TrueNegatives", "FalseNegatives", "Precision",
           "Recall", "SensitivityAtSpecificity", "SpecificityAtSensitivity",
           "PrecisionAtRecall", "RecallAtPrecision", "AUC"]

NEG_INF = -1e10
_TP, _FP, _TN, _FN = "tp", "fp", "tn", "fn"


def _thresholds(thresholds: Any, default: float) -> List[float]:
    values = [default] if thresholds is None else (
        list(thresholds) if isinstance(thresholds, (list, tuple, np.ndarray))
        else [thresholds])
    if thresholds is not None:
        bad = [t for t in values if t is None or t < 0 or t > 1]
        if bad:
            raise ValueError("Threshold values must be in [0, 1]. Received: "
                             f"{bad}")
    return values


def _filter_top_k(x: Any, k: int) -> Any:
    """`x` with all but its top `k` values (last axis) set to a large negative number."""
    from tf1compat.ops.nn_ops import top_k as nn_top_k
    _, top_k_idx = nn_top_k(x, k, sorted=False)
    mask = reduction_ops.reduce_sum(creation_ops.one_hot(top_k_idx, array_ops.shape(x)[-1], axis=-1),
                                    axis=-2)
    return x * mask + NEG_INF * (1 - mask)


def update_confusion_matrix(variables: Dict[str, Any], y_true: Any, y_pred: Any,
                            thresholds: Sequence[float], top_k: Optional[int] = None,
                            class_id: Optional[int] = None, sample_weight: Any = None,
                            label_weights: Any = None) -> Any:
    """Adds the weighted true/false positive/negative counts per threshold to
    `variables` (keyed "tp", "fp", "tn", "fn"); returns the grouped update."""
    from tf1compat.ops.control_flow_ops import group
    dtype = list(variables.values())[0].dtype.base_dtype
    y_true = math_ops.cast(convert_to_tensor(y_true), dtype)
    y_pred = math_ops.cast(convert_to_tensor(y_pred), dtype)
    if sample_weight is not None:
        sample_weight = math_ops.cast(convert_to_tensor(sample_weight), dtype)
    y_pred, y_true, sample_weight = _squeeze_or_expand(y_pred, y_true, sample_weight)
    y_pred.shape.assert_is_compatible_with(y_true.shape)
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        y_true = y_true[..., class_id, None]
        y_pred = y_pred[..., class_id, None]
    thresholds_t = array_ops.reshape(convert_to_tensor(list(thresholds), dtype=dtype), [-1, 1])
    predictions = array_ops.reshape(y_pred, [1, -1])
    labels = array_ops.reshape(math_ops.cast(y_true, D.bool), [1, -1])
    pred_is_pos = math_ops.greater(predictions, thresholds_t)       # [thresholds, items]
    weights = None
    if sample_weight is not None:
        weights = array_ops.reshape(broadcast_weights(sample_weight, y_pred), [1, -1])
    if label_weights is not None:
        label_weights = array_ops.reshape(
            broadcast_weights(array_ops.expand_dims(label_weights, 0), y_pred), [1, -1])
        weights = label_weights if weights is None else math_ops.multiply(weights,
                                                                           label_weights)
    pred_is_neg = math_ops.logical_not(pred_is_pos)
    label_is_neg = math_ops.logical_not(labels)
    conditions = {_TP: (labels, pred_is_pos), _FN: (labels, pred_is_neg),
                  _FP: (label_is_neg, pred_is_pos), _TN: (label_is_neg, pred_is_neg)}
    updates = []
    for key in (_TP, _FN, _FP, _TN):
        if key not in variables:
            continue
        label, pred = conditions[key]
        var = variables[key]
        counts = math_ops.cast(math_ops.logical_and(label, pred), var.dtype.base_dtype)
        if weights is not None:
            counts *= math_ops.cast(weights, var.dtype.base_dtype)
        updates.append(var.assign_add(reduction_ops.reduce_sum(counts, 1)))
    return group(*updates)


class _ConfusionMatrixConditionCount(Metric):
    """One confusion-matrix count per threshold in an `accumulator` weight."""

    _CONDITION = _TP

    def __init__(self, thresholds: Any = None, name: Optional[str] = None,
                 dtype: Any = None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = _thresholds(thresholds, 0.5)
        self.accumulator = self.add_weight("accumulator", shape=(len(self.thresholds),),
                                           initializer="zeros")

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        return update_confusion_matrix({self._CONDITION: self.accumulator}, y_true, y_pred,
                                       self.thresholds, sample_weight=sample_weight)

    def result(self) -> Any:
        if len(self.thresholds) == 1:
            return self.accumulator[0]
        return convert_to_tensor(self.accumulator)

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds}


class FalsePositives(_ConfusionMatrixConditionCount):
    """The (weighted) number of false positives per threshold."""

    _CONDITION = _FP


class FalseNegatives(_ConfusionMatrixConditionCount):
    """The (weighted) number of false negatives per threshold."""

    _CONDITION = _FN


class TrueNegatives(_ConfusionMatrixConditionCount):
    """The (weighted) number of true negatives per threshold."""

    _CONDITION = _TN


class TruePositives(_ConfusionMatrixConditionCount):
    """The (weighted) number of true positives per threshold."""

    _CONDITION = _TP


class _PrecisionRecall(Metric):
    """tp / (tp + `_OTHER`) per threshold, optionally over the top-k predictions or one
    class."""

    _OTHER = _FP
    _OTHER_NAME = "false_positives"

    def __init__(self, thresholds: Any = None, top_k: Optional[int] = None,
                 class_id: Optional[int] = None, name: Optional[str] = None,
                 dtype: Any = None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        self.thresholds = _thresholds(thresholds, 0.5 if top_k is None else NEG_INF)
        size = (len(self.thresholds),)
        self.true_positives = self.add_weight("true_positives", shape=size,
                                              initializer="zeros")
        setattr(self, self._OTHER_NAME, self.add_weight(self._OTHER_NAME, shape=size,
                                                        initializer="zeros"))

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        return update_confusion_matrix(
            {_TP: self.true_positives, self._OTHER: getattr(self, self._OTHER_NAME)},
            y_true, y_pred, self.thresholds, top_k=self.top_k, class_id=self.class_id,
            sample_weight=sample_weight)

    def result(self) -> Any:
        result = math_ops.div_no_nan(
            self.true_positives,
            math_ops.add(self.true_positives, getattr(self, self._OTHER_NAME)))
        return result[0] if len(self.thresholds) == 1 else result

    def get_config(self) -> dict:
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


class Precision(_PrecisionRecall):
    """tp / (tp + fp)."""

    _OTHER, _OTHER_NAME = _FP, "false_positives"


class Recall(_PrecisionRecall):
    """tp / (tp + fn)."""

    _OTHER, _OTHER_NAME = _FN, "false_negatives"


def _rates(metric: Any) -> Dict[str, Any]:
    tp, tn = metric.true_positives, metric.true_negatives
    fp, fn = metric.false_positives, metric.false_negatives
    return {"sensitivity": math_ops.div_no_nan(tp, math_ops.add(tp, fn)),
            "specificity": math_ops.div_no_nan(tn, math_ops.add(tn, fp)),
            "precision": math_ops.div_no_nan(tp, math_ops.add(tp, fp))}


class _AtConstraint(Metric):
    """The best `_DEPENDENT` rate over the thresholds whose `_CONSTRAINED` rate is at
    least `value` (0 when none is); 200 evenly spaced thresholds by default."""

    _VALUE = ""
    _CONSTRAINED = ""
    _DEPENDENT = ""

    def __init__(self, value: float, num_thresholds: int = 200,
                 class_id: Optional[int] = None, name: Optional[str] = None,
                 dtype: Any = None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._VALUE}` must be in the range [0, 1]. "
                             f"Received: {self._VALUE}={value}")
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. Received: "
                             f"num_thresholds={num_thresholds}")
        super().__init__(name=name, dtype=dtype)
        setattr(self, self._VALUE, value)
        self.value = value
        self.num_thresholds = num_thresholds
        self.class_id = class_id
        for weight in ("true_positives", "true_negatives", "false_positives",
                       "false_negatives"):
            setattr(self, weight, self.add_weight(weight, shape=(num_thresholds,),
                                                  initializer="zeros"))
        if num_thresholds == 1:
            self.thresholds = [0.5]
        else:
            self.thresholds = [0.0] + [(i + 1) * 1.0 / (num_thresholds - 1)
                                       for i in range(num_thresholds - 2)] + [1.0]

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        return update_confusion_matrix(
            {_TP: self.true_positives, _TN: self.true_negatives, _FP: self.false_positives,
             _FN: self.false_negatives}, y_true, y_pred, self.thresholds,
            class_id=self.class_id, sample_weight=sample_weight)

    def result(self) -> Any:
        rates = _rates(self)
        rates["recall"] = rates["sensitivity"]
        constrained, dependent = rates[self._CONSTRAINED], rates[self._DEPENDENT]
        feasible = indexing_ops.where(math_ops.greater_equal(constrained, self.value))
        feasible_exists = math_ops.greater(array_ops.size(feasible), 0)
        max_dependent = reduction_ops.reduce_max(indexing_ops.gather(dependent, feasible))
        return indexing_ops.where_v2(feasible_exists, max_dependent, 0.0)

    def get_config(self) -> dict:
        return {**super().get_config(), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._VALUE: self.value}


class SensitivityAtSpecificity(_AtConstraint):
    """The best sensitivity (recall) where specificity >= `specificity`."""

    _VALUE, _CONSTRAINED, _DEPENDENT = "specificity", "specificity", "sensitivity"


class SpecificityAtSensitivity(_AtConstraint):
    """The best specificity where sensitivity >= `sensitivity`."""

    _VALUE, _CONSTRAINED, _DEPENDENT = "sensitivity", "sensitivity", "specificity"


class PrecisionAtRecall(_AtConstraint):
    """The best precision where recall >= `recall`."""

    _VALUE, _CONSTRAINED, _DEPENDENT = "recall", "recall", "precision"


class RecallAtPrecision(_AtConstraint):
    """The best recall where precision >= `precision`."""

    _VALUE, _CONSTRAINED, _DEPENDENT = "precision", "precision", "recall"


_CURVES = ("ROC", "PR", "PR_GAIN")
_SUMMATIONS = ("interpolation", "minoring", "majoring")


class AUC(Metric):
    """The area under the ROC (default) or PR curve, a Riemann sum over `num_thresholds`
    thresholds (PR with interpolation: Davis & Goadrich's interpolated PR AUC)."""

    def __init__(self, num_thresholds: int = 200, curve: str = "ROC",
                 summation_method: str = "interpolation", name: Optional[str] = None,
                 dtype: Any = None, thresholds: Any = None, multi_label: bool = False,
                 num_labels: Optional[int] = None, label_weights: Any = None,
                 from_logits: bool = False):
        if multi_label:
            raise NotImplementedError("AUC(multi_label=True) is not supported by tf1compat")
        if num_labels:
            raise ValueError("`num_labels` is needed only when `multi_label` is True.")
        curve = getattr(curve, "value", curve)
        summation_method = getattr(summation_method, "value", summation_method)
        if str(curve).upper() not in _CURVES:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are '
                             '["PR", "ROC"]')
        if str(summation_method).lower() not in _SUMMATIONS:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            inner = sorted(thresholds)
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        self._thresholds = np.array([0.0 - backend.epsilon()] + inner +
                                    [1.0 + backend.epsilon()])
        self.curve = str(curve).upper()
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name, dtype=dtype)
        self.multi_label = False
        self.num_labels = None
        self._label_weights_value = label_weights
        self.label_weights = None if label_weights is None else \
            convert_to_tensor(label_weights, dtype=self.dtype)
        self._from_logits = from_logits
        shape = (self.num_thresholds,)
        for weight in ("true_positives", "true_negatives", "false_positives",
                       "false_negatives"):
            setattr(self, weight, self.add_weight(weight, shape=shape, initializer="zeros"))

    @property
    def thresholds(self) -> List[float]:
        return list(self._thresholds)

    def update_state(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        if self._from_logits:
            from tf1compat.keras import activations
            y_pred = activations.sigmoid(y_pred)
        return update_confusion_matrix(
            {_TP: self.true_positives, _TN: self.true_negatives, _FP: self.false_positives,
             _FN: self.false_negatives}, y_true, y_pred, self._thresholds,
            sample_weight=sample_weight, label_weights=self.label_weights)

    def interpolate_pr_auc(self) -> Any:
        """Davis & Goadrich's interpolation of the PR curve between thresholds."""
        n = self.num_thresholds
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        dtp = tp[:n - 1] - tp[1:]
        p = math_ops.add(tp, fp)
        dp = p[:n - 1] - p[1:]
        prec_slope = math_ops.div_no_nan(dtp, math_ops.maximum(dp, 0), name="prec_slope")
        intercept = tp[1:] - math_ops.multiply(prec_slope, p[1:])
        safe_p_ratio = indexing_ops.where_v2(
            math_ops.logical_and(p[:n - 1] > 0, p[1:] > 0),
            math_ops.div_no_nan(p[:n - 1], math_ops.maximum(p[1:], 0),
                                name="recall_relative_ratio"),
            creation_ops.ones_like(p[1:]))
        pr_auc_increment = math_ops.div_no_nan(
            prec_slope * (dtp + intercept * math_ops.log(safe_p_ratio)),
            math_ops.maximum(tp[1:] + fn[1:], 0), name="pr_auc_increment")
        return reduction_ops.reduce_sum(pr_auc_increment, name="interpolate_pr_auc")

    def result(self) -> Any:
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self.interpolate_pr_auc()
        n = self.num_thresholds
        tp, tn = self.true_positives, self.true_negatives
        fp, fn = self.false_positives, self.false_negatives
        recall = math_ops.div_no_nan(tp, math_ops.add(tp, fn))
        if self.curve == "ROC":
            x, y = math_ops.div_no_nan(fp, math_ops.add(fp, tn)), recall
        elif self.curve == "PR":
            x, y = recall, math_ops.div_no_nan(tp, math_ops.add(tp, fp))
        else:
            x, y = self._gains(tp, tn, fp, fn)
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = math_ops.minimum(y[:n - 1], y[1:])
        else:
            heights = math_ops.maximum(y[:n - 1], y[1:])
        return reduction_ops.reduce_sum(math_ops.multiply(x[:n - 1] - x[1:], heights),
                                        name=self.name)

    @staticmethod
    def _gains(tp: Any, tn: Any, fp: Any, fn: Any) -> tuple:
        """(recall gain, precision gain) of the PR-gain curve."""
        scaling = math_ops.div_no_nan(math_ops.add(tp, fn), math_ops.add(fp, tn))
        recall_gain = 1.0 - scaling * math_ops.div_no_nan(fn, tp)
        precision_gain = 1.0 - scaling * math_ops.div_no_nan(fp, tp)
        no_tp = math_ops.equal(tp, 0.0)
        recall_gain = indexing_ops.where_v2(no_tp, creation_ops.zeros_like(recall_gain),
                                            recall_gain)
        precision_gain = indexing_ops.where_v2(no_tp, creation_ops.ones_like(precision_gain),
                                               precision_gain)
        recall_gain = math_ops.maximum(recall_gain, creation_ops.zeros_like(recall_gain))
        return recall_gain, precision_gain

    def get_config(self) -> dict:
        label_weights = self._label_weights_value
        if isinstance(label_weights, np.ndarray):
            label_weights = label_weights.tolist()
        config = {"num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method,
                  "multi_label": self.multi_label, "num_labels": self.num_labels,
                  "label_weights": label_weights, "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return {**super().get_config(), **config}
