"""`tf.contrib.estimator` (TF 1.15): the parts that moved into tf.estimator (early
stopping hooks, logit_fn builders), contrib's TF1 heads (`head.py`, `multi_head.py`) and
in-graph replication over local devices (replicate_model_fn, TowerOptimizer)."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.estimator.head import (binary_classification_head,
                                              logistic_regression_head, multi_class_head,
                                              multi_label_head, poisson_regression_head,
                                              regression_head)
from tf1compat.contrib.estimator.multi_head import multi_head
from tf1compat.contrib.estimator.replicate_model_fn import TowerOptimizer, replicate_model_fn
from tf1compat.estimator.canned.dnn import dnn_logit_fn_builder
from tf1compat.estimator.canned.linear import linear_logit_fn_builder
from tf1compat.estimator.early_stopping import (make_early_stopping_hook, read_eval_metrics,
                                                stop_if_higher_hook, stop_if_lower_hook,
                                                stop_if_no_decrease_hook,
                                                stop_if_no_increase_hook)
from tf1compat.estimator.export.export import build_raw_supervised_input_receiver_fn
from tf1compat.estimator.model_fn import call_logit_fn

__getattr__ = _missing("tf.contrib.estimator")
