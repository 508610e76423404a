"""`tf.estimator.DNNClassifier`, `DNNRegressor`, `DNNEstimator` (TF1, `tf.compat.v1`):
feed-forward networks over dense feature columns.

The graph is TF's: in variable scope `dnn` (partitioned as TF partitions it, so every
variable is `<name>/part_0` saved as `<name>`), `input_from_feature_columns/input_layer`,
`hiddenlayer_<i>` dense layers (glorot-uniform kernels, optional dropout and batch norm)
and `logits`, with `fraction_of_zero_values` and `activation` summaries per layer; the
optimizer (default Adagrad, learning rate 0.05) is applied in the same scope, so its slots
are named as TF's (`dnn/hiddenlayer_0/kernel/t_0/Adagrad` in checkpoints).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional, Sequence

from tf1compat.estimator.canned import head as head_lib
from tf1compat.estimator.canned import optimizers
from tf1compat.estimator.estimator import Estimator
from tf1compat.estimator.mode_keys import ModeKeys
from tf1compat.losses.losses_impl import Reduction
from tf1compat.variables.variable_scope import get_variable_scope, variable_scope

__all__ = ["DNNClassifier", "DNNRegressor", "DNNEstimator", "dnn_logit_fn_builder",
           "add_layer_summary", "dnn_model_fn"]


def add_layer_summary(value: Any, tag: str) -> None:
    """`<tag>/fraction_of_zero_values` and `<tag>/activation` summaries."""
    from tf1compat.ops.nn_ops import zero_fraction
    from tf1compat.summary.summary_ops import histogram, scalar
    scalar(f"{tag}/fraction_of_zero_values", zero_fraction(value))
    histogram(f"{tag}/activation", value)


def _relu() -> Callable:
    from tf1compat.ops.nn_ops import relu
    return relu


def dnn_logit_fn_builder(units: int, hidden_units: Sequence[int], feature_columns: Any,
                         activation_fn: Callable, dropout: Optional[float],
                         input_layer_partitioner: Any, batch_norm: bool) -> Callable:
    """`tf.estimator.experimental.dnn_logit_fn_builder`: `logit_fn(features, mode)` of a
    DNN with `units` outputs (built in the caller's variable scope)."""
    if not isinstance(units, int):
        raise ValueError(f"units must be an int.  Given type: {type(units)}")

    def dnn_logit_fn(features: Dict[str, Any], mode: str) -> Any:
        from tf1compat.feature_column.layers import input_layer
        from tf1compat.layers.layers import BatchNormalization, Dense, Dropout
        from tf1compat.variables.init_ops import glorot_uniform_initializer
        is_training = mode == ModeKeys.TRAIN
        scope_name = get_variable_scope().name
        with variable_scope("input_from_feature_columns",
                            partitioner=input_layer_partitioner):
            net = input_layer(features=features, feature_columns=feature_columns)
        for i, num_units in enumerate(hidden_units):
            name = f"hiddenlayer_{i}"
            net = Dense(units=num_units, activation=activation_fn,
                        kernel_initializer=glorot_uniform_initializer(), name=name)(net)
            if dropout is not None and is_training:
                net = Dropout(rate=dropout)(net, training=True)
            if batch_norm:
                net = BatchNormalization(momentum=0.999, trainable=True,
                                         name=f"batchnorm_{i}")(net, training=is_training)
            add_layer_summary(net, _scoped(scope_name, name))
        logits = Dense(units=units, activation=None,
                       kernel_initializer=glorot_uniform_initializer(), name="logits")(net)
        add_layer_summary(logits, _scoped(scope_name, "logits"))
        return logits
    return dnn_logit_fn


def _scoped(scope: str, name: str) -> str:
    return f"{scope}/{name}" if scope else name


def _validate_features(features: Any) -> None:
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")


def dnn_model_fn(features: Dict[str, Any], labels: Any, mode: str, head: Any,
                 hidden_units: Sequence[int], feature_columns: Any, optimizer: Any = "Adagrad",
                 activation_fn: Optional[Callable] = None, dropout: Optional[float] = None,
                 input_layer_partitioner: Any = None, config: Any = None,
                 use_tpu: bool = False, batch_norm: bool = False) -> Any:
    """The model_fn of the DNN estimators (a TPUEstimatorSpec when `use_tpu`)."""
    from tf1compat.variables.partitioned import min_max_variable_partitioner
    optimizer = optimizers.get_optimizer_instance(optimizer,
                                                  learning_rate=optimizers.LEARNING_RATE)
    _validate_features(features)
    num_ps_replicas = config.num_ps_replicas if config else 0
    partitioner = None if use_tpu else min_max_variable_partitioner(
        max_partitions=num_ps_replicas)
    with variable_scope("dnn", values=tuple(features.values()), partitioner=partitioner):
        input_layer_partitioner = input_layer_partitioner or (
            None if use_tpu else min_max_variable_partitioner(
                max_partitions=num_ps_replicas, min_slice_size=64 << 20))
        logit_fn = dnn_logit_fn_builder(
            units=head.logits_dimension, hidden_units=hidden_units,
            feature_columns=feature_columns, activation_fn=activation_fn or _relu(),
            dropout=dropout, input_layer_partitioner=input_layer_partitioner,
            batch_norm=batch_norm)
        logits = logit_fn(features=features, mode=mode)
        if use_tpu:
            return head._create_tpu_estimator_spec(features=features, mode=mode,
                                                   labels=labels, optimizer=optimizer,
                                                   logits=logits)
        return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                          optimizer=optimizer, logits=logits)


class _DNNBase(Estimator):
    """An Estimator over `dnn_model_fn` with the given head."""

    def _init_dnn(self, head: Any, hidden_units: Sequence[int], feature_columns: Any,
                  model_dir: Optional[str], optimizer: Any, activation_fn: Optional[Callable],
                  dropout: Optional[float], input_layer_partitioner: Any, config: Any,
                  warm_start_from: Any, batch_norm: bool) -> None:
        columns = tuple(feature_columns or [])

        def _model_fn(features: Dict[str, Any], labels: Any, mode: str, config: Any) -> Any:
            return dnn_model_fn(features=features, labels=labels, mode=mode, head=head,
                                hidden_units=hidden_units, feature_columns=columns,
                                optimizer=optimizer, activation_fn=activation_fn,
                                dropout=dropout, input_layer_partitioner=input_layer_partitioner,
                                config=config, batch_norm=batch_norm)
        Estimator.__init__(self, model_fn=_model_fn, model_dir=model_dir, config=config,
                           warm_start_from=warm_start_from)


class DNNClassifier(_DNNBase):
    """A DNN classifier (`n_classes` >= 2; TF1 loss reduction SUM)."""

    def __init__(self, hidden_units: Sequence[int], feature_columns: Any,
                 model_dir: Optional[str] = None, n_classes: int = 2, weight_column: Any = None,
                 label_vocabulary: Any = None, optimizer: Any = "Adagrad",
                 activation_fn: Optional[Callable] = None, dropout: Optional[float] = None,
                 input_layer_partitioner: Any = None, config: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = Reduction.SUM,
                 batch_norm: bool = False):
        head = head_lib.binary_logistic_or_multi_class_head(n_classes, weight_column,
                                                            label_vocabulary, loss_reduction)
        self._init_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                       activation_fn, dropout, input_layer_partitioner, config,
                       warm_start_from, batch_norm)


class DNNRegressor(_DNNBase):
    """A DNN regressor (`label_dimension` outputs, mean squared error)."""

    def __init__(self, hidden_units: Sequence[int], feature_columns: Any,
                 model_dir: Optional[str] = None, label_dimension: int = 1,
                 weight_column: Any = None, optimizer: Any = "Adagrad",
                 activation_fn: Optional[Callable] = None, dropout: Optional[float] = None,
                 input_layer_partitioner: Any = None, config: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = Reduction.SUM,
                 batch_norm: bool = False):
        head = head_lib.regression_head(label_dimension=label_dimension,
                                        weight_column=weight_column,
                                        loss_reduction=loss_reduction)
        self._init_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                       activation_fn, dropout, input_layer_partitioner, config,
                       warm_start_from, batch_norm)


class DNNEstimator(_DNNBase):
    """A DNN with a user-given head."""

    def __init__(self, head: Any, hidden_units: Sequence[int], feature_columns: Any,
                 model_dir: Optional[str] = None, optimizer: Any = "Adagrad",
                 activation_fn: Optional[Callable] = None, dropout: Optional[float] = None,
                 input_layer_partitioner: Any = None, config: Any = None,
                 warm_start_from: Any = None, batch_norm: bool = False):
        self._init_dnn(head, hidden_units, feature_columns, model_dir, optimizer,
                       activation_fn, dropout, input_layer_partitioner, config,
                       warm_start_from, batch_norm)
