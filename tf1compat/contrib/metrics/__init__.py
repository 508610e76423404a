"""`tf.contrib.metrics` (TF 1.15): the streaming metrics.

- streaming_wrappers.py: the streaming_* that are `tf.metrics` (predictions first)
- streaming_stats.py: covariance, Pearson correlation, concat, curve points, false
  positive / negative rates, count, aggregate_metrics / aggregate_metric_map
- classification.py: accuracy, f1_score, cohen_kappa, streaming_dynamic_auc,
  precision_recall_at_equal_thresholds, precision_at_recall, recall_at_precision
- histogram_ops.py: auc_using_histogram
- placement_auc.py: auc_with_confidence_intervals

`confusion_matrix` and the set operations are core TF's. This is every name of TF 1.15's
tf.contrib.metrics; any other raises an AttributeError naming it.
"""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.metrics.classification import (accuracy, cohen_kappa, f1_score,
                                                      precision_at_recall, recall_at_precision,
                                                      precision_recall_at_equal_thresholds,
                                                      streaming_dynamic_auc)
from tf1compat.contrib.metrics.histogram_ops import auc_using_histogram
from tf1compat.contrib.metrics.placement_auc import auc_with_confidence_intervals
from tf1compat.contrib.metrics.streaming_stats import (
    aggregate_metric_map, aggregate_metrics, count, streaming_concat, streaming_covariance,
    streaming_curve_points, streaming_false_negative_rate,
    streaming_false_negative_rate_at_thresholds, streaming_false_positive_rate,
    streaming_false_positive_rate_at_thresholds, streaming_pearson_correlation)
from tf1compat.contrib.metrics.streaming_wrappers import (
    sparse_recall_at_top_k, streaming_accuracy, streaming_auc, streaming_false_negatives,
    streaming_false_negatives_at_thresholds, streaming_false_positives,
    streaming_false_positives_at_thresholds, streaming_mean, streaming_mean_absolute_error,
    streaming_mean_cosine_distance, streaming_mean_iou, streaming_mean_relative_error,
    streaming_mean_squared_error, streaming_mean_tensor, streaming_percentage_less,
    streaming_precision, streaming_precision_at_thresholds, streaming_recall,
    streaming_recall_at_k, streaming_recall_at_thresholds, streaming_root_mean_squared_error,
    streaming_sensitivity_at_specificity, streaming_sparse_average_precision_at_k,
    streaming_sparse_average_precision_at_top_k, streaming_sparse_precision_at_k,
    streaming_sparse_precision_at_top_k, streaming_sparse_recall_at_k,
    streaming_specificity_at_sensitivity, streaming_true_negatives,
    streaming_true_negatives_at_thresholds, streaming_true_positives,
    streaming_true_positives_at_thresholds)
from tf1compat.metrics.metrics_impl import confusion_matrix
from tf1compat.ops.set_ops import set_difference, set_intersection, set_size, set_union

__getattr__ = _missing("tf.contrib.metrics")
