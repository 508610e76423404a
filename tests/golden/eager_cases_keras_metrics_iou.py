"""Eager golden cases: tf.keras's IoU metrics under eager execution (the graph cases of
cases_keras_metrics_iou that need no session), plus updates run at once."""

import numpy as np

from tests.golden.cases_keras_metrics_iou import (  # noqa: F401 - the cases, replayed
    _data, _inputs, _metrics, case_iou_errors, case_mean_iou_in_fit)
from tests.golden.harness import tolerance


@tolerance(rtol=1e-5, atol=1e-6)
def case_iou_metrics_eager_updates(tf):
    labels, scores, weights = _data()
    out = {}
    for name, metric in _metrics(tf.keras.metrics):
        y_true, y_pred = _inputs(name, labels, scores)
        metric.update_state(y_true[:2], y_pred[:2])
        value = metric(y_true[2:], y_pred[2:], sample_weight=weights[2:])
        out[name] = {"result": np.asarray(value, np.float64),
                     "matrix": np.asarray(metric.variables[0]),
                     "weights": [v.name for v in metric.variables]}
        metric.reset_state()
        out[name]["after_reset"] = np.asarray(metric.result(), np.float64)
    return out
