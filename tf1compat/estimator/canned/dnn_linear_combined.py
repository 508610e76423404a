"""`tf.estimator.DNNLinearCombinedClassifier`, `...Regressor`, `...Estimator` (TF1,
"wide & deep"): the sum of a DNN's logits (scope `dnn`, Adagrad 0.001 by default) and a
linear model's (scope `linear`, FTRL with min(0.005, 1/sqrt(#columns))), each trained
by its own optimizer, then one global step increment."""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, Optional, Sequence

from tf1compat.estimator.canned import dnn, head as head_lib, linear, optimizers
from tf1compat.estimator.estimator import Estimator
from tf1compat.framework.graph import GraphKeys, control_dependencies, get_default_graph
from tf1compat.losses.losses_impl import Reduction
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor",
           "DNNLinearCombinedEstimator"]

_DNN_LEARNING_RATE = 0.001
_LINEAR_LEARNING_RATE = 0.005


def _check_no_sync_replicas_optimizer(optimizer: Any) -> None:
    from tf1compat.training.optimizers import SyncReplicasOptimizer
    if isinstance(optimizer, SyncReplicasOptimizer):
        raise ValueError("SyncReplicasOptimizer does not support multi optimizers case. "
                         "Therefore, it is not supported in DNNLinearCombined model. If you "
                         "want to use this optimizer, please use either DNN or Linear model.")


def _validate_feature_columns(linear_columns: Any, dnn_columns: Any) -> list:
    columns = list(linear_columns or []) + list(dnn_columns or [])
    if not columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    return columns


def dnn_linear_combined_model_fn(features: Dict[str, Any], labels: Any, mode: str, head: Any,
                                 linear_feature_columns: Any = None,
                                 linear_optimizer: Any = "Ftrl",
                                 dnn_feature_columns: Any = None, dnn_optimizer: Any = "Adagrad",
                                 dnn_hidden_units: Optional[Sequence[int]] = None,
                                 dnn_activation_fn: Optional[Callable] = None,
                                 dnn_dropout: Optional[float] = None,
                                 input_layer_partitioner: Any = None, config: Any = None,
                                 batch_norm: bool = False,
                                 linear_sparse_combiner: str = "sum") -> Any:
    """The model_fn of the wide & deep estimators."""
    from tf1compat.ops.control_flow_ops import group
    from tf1compat.ops.state_ops import assign_add
    from tf1compat.training.training_util import get_global_step
    from tf1compat.variables.partitioned import min_max_variable_partitioner
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")
    if not linear_feature_columns and not dnn_feature_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    num_ps_replicas = config.num_ps_replicas if config else 0
    input_layer_partitioner = input_layer_partitioner or min_max_variable_partitioner(
        max_partitions=num_ps_replicas, min_slice_size=64 << 20)
    dnn_logits = linear_logits = None
    if dnn_feature_columns:
        dnn_optimizer = optimizers.get_optimizer_instance(dnn_optimizer,
                                                          learning_rate=_DNN_LEARNING_RATE)
        _check_no_sync_replicas_optimizer(dnn_optimizer)
        if not dnn_hidden_units:
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is "
                             "specified.")
        with variable_scope("dnn", values=tuple(features.values()),
                            partitioner=min_max_variable_partitioner(
                                max_partitions=num_ps_replicas)) as scope:
            dnn_scope = scope.name
            dnn_logits = dnn.dnn_logit_fn_builder(
                units=head.logits_dimension, hidden_units=dnn_hidden_units,
                feature_columns=dnn_feature_columns,
                activation_fn=dnn_activation_fn or dnn._relu(), dropout=dnn_dropout,
                batch_norm=batch_norm, input_layer_partitioner=input_layer_partitioner)(
                    features=features, mode=mode)
    if linear_feature_columns:
        linear_optimizer = optimizers.get_optimizer_instance(
            linear_optimizer, learning_rate=min(
                _LINEAR_LEARNING_RATE, 1. / math.sqrt(len(linear_feature_columns))))
        _check_no_sync_replicas_optimizer(linear_optimizer)
        with variable_scope("linear", values=tuple(features.values()),
                            partitioner=input_layer_partitioner) as scope:
            linear_scope = scope.name
            linear_logits = linear.linear_logit_fn_builder(
                units=head.logits_dimension, feature_columns=linear_feature_columns,
                sparse_combiner=linear_sparse_combiner)(features=features)
            dnn.add_layer_summary(linear_logits, scope.name)
    if dnn_logits is not None and linear_logits is not None:
        logits = dnn_logits + linear_logits
    else:
        logits = dnn_logits if dnn_logits is not None else linear_logits

    def _train_op_fn(loss: Any) -> Any:
        graph = get_default_graph()
        ops = []
        if dnn_logits is not None:
            ops.append(dnn_optimizer.minimize(loss, var_list=graph.get_collection(
                GraphKeys.TRAINABLE_VARIABLES, scope=dnn_scope)))
        if linear_logits is not None:
            ops.append(linear_optimizer.minimize(loss, var_list=graph.get_collection(
                GraphKeys.TRAINABLE_VARIABLES, scope=linear_scope)))
        train_op = group(*ops)
        with control_dependencies([train_op]):
            return assign_add(get_global_step(), 1).op
    return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                      train_op_fn=_train_op_fn, logits=logits)


class _CombinedBase(Estimator):
    def _init_combined(self, head: Any, model_dir: Optional[str], config: Any,
                       warm_start_from: Any, **kwargs: Any) -> None:
        self._feature_columns = _validate_feature_columns(kwargs["linear_feature_columns"],
                                                          kwargs["dnn_feature_columns"])

        def _model_fn(features: Dict[str, Any], labels: Any, mode: str, config: Any) -> Any:
            return dnn_linear_combined_model_fn(features=features, labels=labels, mode=mode,
                                                head=head, config=config, **kwargs)
        Estimator.__init__(self, model_fn=_model_fn, model_dir=model_dir, config=config,
                           warm_start_from=warm_start_from)


class DNNLinearCombinedClassifier(_CombinedBase):
    """Wide & deep classifier."""

    def __init__(self, model_dir: Optional[str] = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None,
                 dnn_optimizer: Any = "Adagrad", dnn_hidden_units: Any = None,
                 dnn_activation_fn: Optional[Callable] = None, dnn_dropout: Any = None,
                 n_classes: int = 2, weight_column: Any = None, label_vocabulary: Any = None,
                 input_layer_partitioner: Any = None, config: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = Reduction.SUM,
                 batch_norm: bool = False, linear_sparse_combiner: str = "sum"):
        head = head_lib.binary_logistic_or_multi_class_head(n_classes, weight_column,
                                                            label_vocabulary, loss_reduction)
        self._init_combined(
            head, model_dir, config, warm_start_from,
            linear_feature_columns=linear_feature_columns, linear_optimizer=linear_optimizer,
            dnn_feature_columns=dnn_feature_columns, dnn_optimizer=dnn_optimizer,
            dnn_hidden_units=dnn_hidden_units, dnn_activation_fn=dnn_activation_fn,
            dnn_dropout=dnn_dropout, input_layer_partitioner=input_layer_partitioner,
            batch_norm=batch_norm, linear_sparse_combiner=linear_sparse_combiner)


class DNNLinearCombinedRegressor(_CombinedBase):
    """Wide & deep regressor."""

    def __init__(self, model_dir: Optional[str] = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = "Ftrl", dnn_feature_columns: Any = None,
                 dnn_optimizer: Any = "Adagrad", dnn_hidden_units: Any = None,
                 dnn_activation_fn: Optional[Callable] = None, dnn_dropout: Any = None,
                 label_dimension: int = 1, weight_column: Any = None,
                 input_layer_partitioner: Any = None, config: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = Reduction.SUM,
                 batch_norm: bool = False, linear_sparse_combiner: str = "sum"):
        head = head_lib.regression_head(label_dimension=label_dimension,
                                        weight_column=weight_column,
                                        loss_reduction=loss_reduction)
        self._init_combined(
            head, model_dir, config, warm_start_from,
            linear_feature_columns=linear_feature_columns, linear_optimizer=linear_optimizer,
            dnn_feature_columns=dnn_feature_columns, dnn_optimizer=dnn_optimizer,
            dnn_hidden_units=dnn_hidden_units, dnn_activation_fn=dnn_activation_fn,
            dnn_dropout=dnn_dropout, input_layer_partitioner=input_layer_partitioner,
            batch_norm=batch_norm, linear_sparse_combiner=linear_sparse_combiner)


class DNNLinearCombinedEstimator(_CombinedBase):
    """Wide & deep with a user-given head."""

    def __init__(self, head: Any, model_dir: Optional[str] = None,
                 linear_feature_columns: Any = None, linear_optimizer: Any = "Ftrl",
                 dnn_feature_columns: Any = None, dnn_optimizer: Any = "Adagrad",
                 dnn_hidden_units: Any = None, dnn_activation_fn: Optional[Callable] = None,
                 dnn_dropout: Any = None, input_layer_partitioner: Any = None,
                 config: Any = None, linear_sparse_combiner: str = "sum"):
        self._init_combined(
            head, model_dir, config, None,
            linear_feature_columns=linear_feature_columns, linear_optimizer=linear_optimizer,
            dnn_feature_columns=dnn_feature_columns, dnn_optimizer=dnn_optimizer,
            dnn_hidden_units=dnn_hidden_units, dnn_activation_fn=dnn_activation_fn,
            dnn_dropout=dnn_dropout, input_layer_partitioner=input_layer_partitioner,
            linear_sparse_combiner=linear_sparse_combiner)
