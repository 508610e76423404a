"""`tf.metrics`: TF1's streaming metrics (graph mode)."""

# ruff: noqa: F401
from tf1compat.metrics.metrics_impl import (accuracy, auc, false_negatives,
                                            false_negatives_at_thresholds, false_positives,
                                            false_positives_at_thresholds, mean,
                                            mean_absolute_error, mean_iou, mean_per_class_accuracy,
                                            mean_squared_error, mean_tensor, percentage_below,
                                            precision, precision_at_thresholds, recall,
                                            recall_at_thresholds, root_mean_squared_error,
                                            true_negatives, true_negatives_at_thresholds,
                                            true_positives, true_positives_at_thresholds)
# (section: api-math)
from tf1compat.metrics.metrics_at_k import (average_precision_at_k, precision_at_k,
                                            precision_at_top_k, recall_at_k, recall_at_top_k,
                                            sparse_average_precision_at_k,
                                            sparse_precision_at_k)
from tf1compat.metrics.metrics_tail import (mean_cosine_distance, mean_relative_error,
                                            sensitivity_at_specificity,
                                            specificity_at_sensitivity)
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("metrics", globals())
