"""`tf.contrib.learn`'s canned Estimators (TF 1.15's contrib/learn/python/learn/estimators/
dnn.py, linear.py, dnn_linear_combined.py): `DNNClassifier`/`DNNRegressor`,
`LinearClassifier`/`LinearRegressor`, `DNNLinearCombinedClassifier`/`Regressor`, and
`infer_real_valued_columns_from_input(_fn)`.

They are contrib `Estimator`s whose model_fns build TF 1.15's graphs: contrib feature
columns through `input_from_feature_columns` / `weighted_sum_from_feature_columns` (core
columns through `input_layer` / `linear_model`), `tf.contrib.layers.fully_connected` layers
(`dnn/hiddenlayer_0/weights`, `.../biases`, `dnn/logits/...`), linear weights
`linear/<column>/weight(s)` and `linear/bias_weight`, the contrib heads (`head.py`), the DNN
trained by `optimize_loss` (Adagrad, learning rate 0.05), the linear model by FTRL
(learning rate min(0.2, 1/sqrt(#columns))). A non-dict `x` is the feature `''` (so
`real_valued_column('', dimension=...)` reads it).
"""

from __future__ import annotations

import math
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np

from tf1compat.contrib.learn import head as head_lib
from tf1compat.contrib.learn.estimator import Estimator, _feature_array
from tf1compat.contrib.layers.feature_column import ContribColumn
from tf1compat.framework import dtypes
from tf1compat.framework.graph import get_default_graph

__all__ = ["DNNClassifier", "DNNRegressor", "LinearClassifier", "LinearRegressor",
           "DNNLinearCombinedClassifier", "DNNLinearCombinedRegressor",
           "infer_real_valued_columns_from_input", "infer_real_valued_columns_from_input_fn"]

_DNN_LEARNING_RATE = 0.05
_LINEAR_LEARNING_RATE = 0.2
_CLASSES, _PROBABILITIES, _SCORES = "classes", "probabilities", "scores"


def _feature_dict(features: Any) -> Dict[str, Any]:
    return features if isinstance(features, dict) else {"": features}


def _activation(activation_fn: Any) -> Any:
    """An activation function, or TF's names 'relu', 'tanh', 'sigmoid'."""
    from tf1compat.ops import nn_ops
    from tf1compat.ops.math_ops import sigmoid, tanh
    if not isinstance(activation_fn, str):
        return activation_fn if activation_fn is not None else nn_ops.relu
    table = {"relu": nn_ops.relu, "tanh": tanh, "sigmoid": sigmoid}
    if activation_fn not in table:
        raise ValueError(f"Activation name should be one of [{', '.join(table)}], you provided "
                         f"{activation_fn}.")
    return table[activation_fn]


def _layer_summary(value: Any, tag: str, separator: str) -> None:
    from tf1compat.ops.nn_ops import zero_fraction
    from tf1compat.summary.summary_ops import histogram, scalar
    scalar(f"{tag}{separator}fraction_of_zero_values", zero_fraction(value))
    histogram(f"{tag}{separator}activation", value)


def _all_contrib(columns: Sequence[Any]) -> bool:
    return all(isinstance(column, ContribColumn) for column in columns)


def _embedding_multipliers(multipliers: Any, collection: str, input_scope: str) -> Any:
    """{embedding variable: learning rate multiplier} for `embedding_lr_multipliers`."""
    from tf1compat.contrib.layers.feature_column_embedding import _EmbeddingColumn
    if not multipliers:
        return None
    result = {}
    for column, value in multipliers.items():
        if not isinstance(column, _EmbeddingColumn):
            raise ValueError("learning rate multipler can only be defined for embedding "
                             f"columns. It is defined for {column}")
        found = get_default_graph().get_collection(collection, f"{input_scope}/{column.name}")
        if not found:
            raise ValueError(f"Couldn't find a variable for column {column}")
        for variable in found:
            result[variable] = value
    return result


def _dnn_logits(features: Dict[str, Any], mode: str, columns: Sequence[Any],
                hidden_units: Sequence[int], logits_dimension: int, activation_fn: Any,
                dropout: Any, separator: str) -> Any:
    """The `dnn` tower (in the current `dnn` scope); returns (logits, input scope name)."""
    from tf1compat.contrib.layers.feature_column_ops import input_from_feature_columns
    from tf1compat.contrib.layers.layers import dropout as dropout_layer
    from tf1compat.contrib.layers.layers import fully_connected
    from tf1compat.feature_column.layers import input_layer
    from tf1compat.variables.variable_scope import variable_scope
    values = tuple(features.values())
    with variable_scope("input_from_feature_columns", values=values) as input_scope:
        if _all_contrib(columns):
            net = input_from_feature_columns(features, columns, weight_collections=["dnn"],
                                             scope=input_scope)
        else:
            net = input_layer(features, columns, weight_collections=["dnn"])
    for layer_id, units in enumerate(hidden_units):
        with variable_scope(f"hiddenlayer_{layer_id}", values=(net,)) as layer_scope:
            net = fully_connected(net, units, activation_fn=activation_fn,
                                  variables_collections=["dnn"], scope=layer_scope)
            if dropout is not None and mode == "train":
                net = dropout_layer(net, keep_prob=1.0 - dropout)
        _layer_summary(net, layer_scope.name, separator)
    with variable_scope("logits", values=(net,)) as logits_scope:
        logits = fully_connected(net, logits_dimension, activation_fn=None,
                                 variables_collections=["dnn"], scope=logits_scope)
    _layer_summary(logits, logits_scope.name, separator)
    return logits, input_scope.name


def _linear_logits(features: Dict[str, Any], columns: Sequence[Any], logits_dimension: int,
                   scope: Any, joint_weights: bool) -> Any:
    from tf1compat.contrib.layers.feature_column_ops import weighted_sum_from_feature_columns
    from tf1compat.feature_column.layers import linear_model
    if joint_weights:
        raise NotImplementedError("tf.contrib.learn linear models with _joint_weights=True "
                                  "(joint_weighted_sum_from_feature_columns) are not supported")
    if _all_contrib(columns):
        logits, _, _ = weighted_sum_from_feature_columns(
            features, columns, num_outputs=logits_dimension, weight_collections=["linear"],
            scope=scope)
        return logits
    return linear_model(features, columns, units=logits_dimension,
                        weight_collections=["linear"])


def _dnn_model_fn(features: Any, labels: Any, mode: str, params: Dict[str, Any],
                  config: Any = None) -> Any:
    """TF 1.15's `_dnn_model_fn`."""
    from tf1compat.contrib.layers.optimizers import optimize_loss
    from tf1compat.training.training_util import get_global_step
    from tf1compat.variables.variable_scope import variable_scope
    head = params["head"]
    optimizer = params.get("optimizer") or "Adagrad"
    features = _feature_dict(features)
    with variable_scope("dnn", values=tuple(features.values())):
        logits, input_scope = _dnn_logits(
            features, mode, params["feature_columns"], params["hidden_units"],
            head.logits_dimension, _activation(params.get("activation_fn")),
            params.get("dropout"), "_")

        def train_op_fn(loss: Any) -> Any:
            return optimize_loss(
                loss=loss, global_step=get_global_step(), learning_rate=_DNN_LEARNING_RATE,
                optimizer=optimizer() if callable(optimizer) else optimizer,
                gradient_multipliers=_embedding_multipliers(
                    params.get("embedding_lr_multipliers"), "dnn", input_scope),
                clip_gradients=params.get("gradient_clip_norm"), name="dnn", summaries=[])
        return head.create_model_fn_ops(features=features, mode=mode, labels=labels,
                                        train_op_fn=train_op_fn, logits=logits)


def _linear_optimizer(spec: Any, num_columns: int) -> Any:
    from tf1compat.contrib.layers.optimizers import OPTIMIZER_CLS_NAMES
    from tf1compat.training.optimizers.ftrl import FtrlOptimizer
    if spec is None:
        return FtrlOptimizer(learning_rate=min(_LINEAR_LEARNING_RATE,
                                               1.0 / math.sqrt(num_columns)))
    if isinstance(spec, str):
        return OPTIMIZER_CLS_NAMES[spec](learning_rate=_LINEAR_LEARNING_RATE)
    if callable(spec):
        return spec()
    return spec


def _linear_model_fn(features: Any, labels: Any, mode: str, params: Dict[str, Any],
                     config: Any = None) -> Any:
    """TF 1.15's `_linear_model_fn`: gradients of the `linear` collection applied by the
    optimizer (FTRL by default)."""
    from tf1compat.autodiff.gradients import gradients
    from tf1compat.ops.clip_ops import clip_by_global_norm
    from tf1compat.training.training_util import get_global_step
    from tf1compat.variables.variable_scope import variable_scope
    head = params["head"]
    columns = params["feature_columns"]
    clip_norm = params.get("gradient_clip_norm")
    features = _feature_dict(features)
    with variable_scope("linear", values=tuple(features.values())) as scope:
        logits = _linear_logits(features, columns, head.logits_dimension, scope,
                                params.get("joint_weights", False))

        def train_op_fn(loss: Any) -> Any:
            variables = get_default_graph().get_collection("linear")
            grads = gradients(loss, variables)
            if clip_norm:
                grads, _ = clip_by_global_norm(grads, clip_norm)
            optimizer = _linear_optimizer(params.get("optimizer"), len(columns))
            return optimizer.apply_gradients(zip(grads, variables),
                                             global_step=get_global_step())
        return head.create_model_fn_ops(features=features, mode=mode, labels=labels,
                                        train_op_fn=train_op_fn, logits=logits)


def _combined_model_fn(features: Any, labels: Any, mode: str, params: Dict[str, Any],
                       config: Any = None) -> Any:
    """TF 1.15's `_dnn_linear_combined_model_fn`: logits = dnn + linear, each part trained
    by its own `optimize_loss` (with `fix_global_step_increment_bug=False`, TF's default,
    both increment the global step)."""
    from tf1compat.contrib.layers.optimizers import optimize_loss
    from tf1compat.framework.graph import control_dependencies
    from tf1compat.ops.control_flow_ops import group
    from tf1compat.ops.state_ops import assign_add
    from tf1compat.training.training_util import get_global_step
    from tf1compat.variables.variable_scope import variable_scope
    head = params["head"]
    linear_columns = params.get("linear_feature_columns")
    dnn_columns = params.get("dnn_feature_columns")
    fix_step = params.get("fix_global_step_increment_bug", True)
    if not linear_columns and not dnn_columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    features = _feature_dict(features)
    dnn_optimizer = params.get("dnn_optimizer") or "Adagrad"
    linear_optimizer = params.get("linear_optimizer") or "Ftrl"
    # TF's _get_optimizer: a callable is called for the optimizer.
    dnn_optimizer = dnn_optimizer() if callable(dnn_optimizer) else dnn_optimizer
    linear_optimizer = linear_optimizer() if callable(linear_optimizer) else linear_optimizer
    dnn_logits = linear_logits = input_scope = None
    if dnn_columns:
        if not params.get("dnn_hidden_units"):
            raise ValueError("dnn_hidden_units must be defined when dnn_feature_columns is "
                             "specified.")
        with variable_scope("dnn", values=tuple(features.values())):
            dnn_logits, input_scope = _dnn_logits(
                features, mode, dnn_columns, params["dnn_hidden_units"],
                head.logits_dimension, _activation(params.get("dnn_activation_fn")),
                params.get("dnn_dropout"), "/")
    if linear_columns:
        with variable_scope("linear", values=tuple(features.values())) as scope:
            linear_logits = _linear_logits(features, linear_columns, head.logits_dimension,
                                           scope, params.get("joint_linear_weights", False))
            _layer_summary(linear_logits, scope.name, "/")
    if dnn_logits is not None and linear_logits is not None:
        logits = dnn_logits + linear_logits
    else:
        logits = dnn_logits if dnn_logits is not None else linear_logits

    def train_op_fn(loss: Any) -> Any:
        graph = get_default_graph()
        global_step = get_global_step()
        train_ops = []
        if dnn_logits is not None:
            train_ops.append(optimize_loss(
                loss=loss, global_step=global_step, learning_rate=_DNN_LEARNING_RATE,
                optimizer=dnn_optimizer,
                gradient_multipliers=_embedding_multipliers(
                    params.get("embedding_lr_multipliers"), "dnn", input_scope),
                clip_gradients=params.get("gradient_clip_norm"),
                variables=graph.get_collection("dnn"), name="dnn", summaries=[],
                increment_global_step=not fix_step))
        if linear_logits is not None:
            train_ops.append(optimize_loss(
                loss=loss, global_step=global_step,
                learning_rate=min(_LINEAR_LEARNING_RATE, 1. / math.sqrt(len(linear_columns))),
                optimizer=linear_optimizer, clip_gradients=params.get("gradient_clip_norm"),
                variables=graph.get_collection("linear"), name="linear", summaries=[],
                increment_global_step=not fix_step))
        train_op = group(*train_ops)
        if fix_step:
            with control_dependencies([train_op]):
                return assign_add(global_step, 1).op
        return train_op
    return head.create_model_fn_ops(features=features, mode=mode, labels=labels,
                                    train_op_fn=train_op_fn, logits=logits)


class _CannedEstimator(Estimator):
    """Prediction helpers shared by the canned Estimators."""

    _default_output = _CLASSES

    def __init__(self, model_fn: Callable, feature_columns: Sequence[Any], model_dir: Any,
                 config: Any, params: Dict[str, Any], feature_engineering_fn: Any):
        self._feature_columns = tuple(feature_columns)
        super().__init__(model_fn=model_fn, model_dir=model_dir, config=config,
                         params=params, feature_engineering_fn=feature_engineering_fn)

    def _predict_key(self, key: str, x: Any, input_fn: Any, batch_size: Any,
                     as_iterable: bool) -> Any:
        preds = Estimator.predict(self, x=x, input_fn=input_fn, batch_size=batch_size,
                                  outputs=[key], as_iterable=as_iterable)
        if as_iterable:
            return (pred[key] for pred in preds)
        return preds[key].reshape(-1) if key == _CLASSES else preds[key]

    def predict(self, x: Any = None, input_fn: Any = None, batch_size: Optional[int] = None,
                outputs: Any = None, as_iterable: bool = True) -> Any:
        """Predicted classes (regressors: scores), or with `outputs` a dict of them."""
        if not outputs:
            return self._predict_key(self._default_output, x, input_fn, batch_size,
                                     as_iterable)
        return Estimator.predict(self, x=x, input_fn=input_fn, batch_size=batch_size,
                                 outputs=outputs, as_iterable=as_iterable)


class _Classifier(_CannedEstimator):
    def predict_classes(self, x: Any = None, input_fn: Any = None,
                        batch_size: Optional[int] = None, as_iterable: bool = True) -> Any:
        """The predicted class of each example."""
        return self._predict_key(_CLASSES, x, input_fn, batch_size, as_iterable)

    def predict_proba(self, x: Any = None, input_fn: Any = None,
                      batch_size: Optional[int] = None, as_iterable: bool = True) -> Any:
        """The predicted class probabilities of each example."""
        return self._predict_key(_PROBABILITIES, x, input_fn, batch_size, as_iterable)


class _Regressor(_CannedEstimator):
    _default_output = _SCORES

    def predict_scores(self, x: Any = None, input_fn: Any = None,
                       batch_size: Optional[int] = None, as_iterable: bool = True) -> Any:
        """The predicted score(s) of each example."""
        return self._predict_key(_SCORES, x, input_fn, batch_size, as_iterable)

    def evaluate(self, x: Any = None, y: Any = None, input_fn: Any = None,
                 feed_fn: Any = None, batch_size: Optional[int] = None,
                 steps: Optional[int] = None, metrics: Any = None, name: Optional[str] = None,
                 checkpoint_path: Optional[str] = None, hooks: Any = None) -> Dict[str, Any]:
        """`Estimator.evaluate`; a bare metric function is applied to the `scores`."""
        from tf1compat.contrib.learn.metric_spec import MetricSpec
        custom = {}
        for key, metric in (metrics or {}).items():
            plain = not isinstance(metric, MetricSpec) and not isinstance(key, tuple)
            custom[(key, _SCORES) if plain else key] = metric
        return Estimator.evaluate(self, x=x, y=y, input_fn=input_fn, feed_fn=feed_fn,
                                  batch_size=batch_size, steps=steps, metrics=custom or None,
                                  name=name, checkpoint_path=checkpoint_path, hooks=hooks)


def _dnn_params(head: Any, hidden_units: Sequence[int], feature_columns: Any,
                optimizer: Any, activation_fn: Any, dropout: Optional[float],
                gradient_clip_norm: Optional[float], embedding_lr_multipliers: Any,
                input_layer_min_slice_size: Any) -> Dict[str, Any]:
    """The DNN model function's params, as TF 1.15's DNNClassifier/Regressor pass them."""
    return {"head": head, "hidden_units": hidden_units,
            "feature_columns": tuple(feature_columns or []), "optimizer": optimizer,
            "activation_fn": activation_fn, "dropout": dropout,
            "gradient_clip_norm": gradient_clip_norm,
            "embedding_lr_multipliers": embedding_lr_multipliers,
            "input_layer_min_slice_size": input_layer_min_slice_size}


class DNNClassifier(_Classifier):
    """`tf.contrib.learn.DNNClassifier`: a feed-forward classifier (variables
    `dnn/hiddenlayer_<i>/weights|biases`, `dnn/logits/weights|biases`)."""

    def __init__(self, hidden_units: Sequence[int], feature_columns: Sequence[Any],
                 model_dir: Optional[str] = None, n_classes: int = 2,
                 weight_column_name: Optional[str] = None, optimizer: Any = None,
                 activation_fn: Any = None, dropout: Optional[float] = None,
                 gradient_clip_norm: Optional[float] = None, enable_centered_bias: bool = False,
                 config: Any = None, feature_engineering_fn: Any = None,
                 embedding_lr_multipliers: Any = None, input_layer_min_slice_size: Any = None,
                 label_keys: Any = None):
        head = head_lib.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                         enable_centered_bias=enable_centered_bias,
                                         label_keys=label_keys)
        super().__init__(_dnn_model_fn, feature_columns or [], model_dir, config, _dnn_params(
            head, hidden_units, feature_columns, optimizer, activation_fn, dropout,
            gradient_clip_norm, embedding_lr_multipliers, input_layer_min_slice_size),
            feature_engineering_fn)


class DNNRegressor(_Regressor):
    """`tf.contrib.learn.DNNRegressor`: a feed-forward regressor."""

    def __init__(self, hidden_units: Sequence[int], feature_columns: Sequence[Any],
                 model_dir: Optional[str] = None, weight_column_name: Optional[str] = None,
                 optimizer: Any = None, activation_fn: Any = None,
                 dropout: Optional[float] = None, gradient_clip_norm: Optional[float] = None,
                 enable_centered_bias: bool = False, config: Any = None,
                 feature_engineering_fn: Any = None, label_dimension: int = 1,
                 embedding_lr_multipliers: Any = None, input_layer_min_slice_size: Any = None):
        head = head_lib.regression_head(label_dimension=label_dimension,
                                        weight_column_name=weight_column_name,
                                        enable_centered_bias=enable_centered_bias)
        super().__init__(_dnn_model_fn, feature_columns or [], model_dir, config, _dnn_params(
            head, hidden_units, feature_columns, optimizer, activation_fn, dropout,
            gradient_clip_norm, embedding_lr_multipliers, input_layer_min_slice_size),
            feature_engineering_fn)


def _is_sdca(optimizer: Any) -> bool:
    from tf1compat.contrib.linear_optimizer import SDCAOptimizer
    return isinstance(optimizer, SDCAOptimizer)


class LinearClassifier(_Classifier):
    """`tf.contrib.learn.LinearClassifier`: a linear classifier (variables
    `linear/<column>/weights` or `.../weight`, `linear/bias_weight`), FTRL by default."""

    def __init__(self, feature_columns: Sequence[Any], model_dir: Optional[str] = None,
                 n_classes: int = 2, weight_column_name: Optional[str] = None,
                 optimizer: Any = None, gradient_clip_norm: Optional[float] = None,
                 enable_centered_bias: bool = False, _joint_weight: bool = False,
                 config: Any = None, feature_engineering_fn: Any = None,
                 label_keys: Any = None):
        head = head_lib.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                         enable_centered_bias=enable_centered_bias,
                                         label_keys=label_keys)
        if _is_sdca(optimizer):
            # TF 1.15: SDCA trains a binary model; a chief hook copies and shrinks weights.
            from tf1compat.contrib.learn.sdca import sdca_model_fn, sdca_params
            assert not _joint_weight, "_joint_weight is incompatible with the SDCAOptimizer"
            assert n_classes == 2, "SDCA only applies to binary classification."
            super().__init__(sdca_model_fn, feature_columns, model_dir, config, sdca_params(
                head, feature_columns, optimizer, weight_column_name), feature_engineering_fn)
            return
        super().__init__(_linear_model_fn, feature_columns, model_dir, config, {
            "head": head, "feature_columns": tuple(feature_columns), "optimizer": optimizer,
            "gradient_clip_norm": gradient_clip_norm, "joint_weights": _joint_weight},
            feature_engineering_fn)


class LinearRegressor(_Regressor):
    """`tf.contrib.learn.LinearRegressor`: linear regression, FTRL by default."""

    def __init__(self, feature_columns: Sequence[Any], model_dir: Optional[str] = None,
                 weight_column_name: Optional[str] = None, optimizer: Any = None,
                 gradient_clip_norm: Optional[float] = None, enable_centered_bias: bool = False,
                 label_dimension: int = 1, _joint_weights: bool = False, config: Any = None,
                 feature_engineering_fn: Any = None):
        head = head_lib.regression_head(weight_column_name=weight_column_name,
                                        label_dimension=label_dimension,
                                        enable_centered_bias=enable_centered_bias)
        if _is_sdca(optimizer):
            from tf1compat.contrib.learn.sdca import sdca_model_fn, sdca_params
            assert label_dimension == 1, "SDCA only applies for label_dimension=1."
            assert not _joint_weights, "_joint_weights is incompatible with the SDCAOptimizer"
            super().__init__(sdca_model_fn, feature_columns, model_dir, config, sdca_params(
                head, feature_columns, optimizer, weight_column_name), feature_engineering_fn)
            return
        super().__init__(_linear_model_fn, feature_columns, model_dir, config, {
            "head": head, "feature_columns": tuple(feature_columns), "optimizer": optimizer,
            "gradient_clip_norm": gradient_clip_norm, "joint_weights": _joint_weights},
            feature_engineering_fn)


def _combined_params(head: Any, linear_feature_columns: Any, linear_optimizer: Any,
                     joint: bool, dnn_feature_columns: Any, dnn_optimizer: Any,
                     dnn_hidden_units: Any, dnn_activation_fn: Any, dnn_dropout: Any,
                     gradient_clip_norm: Any, embedding_lr_multipliers: Any,
                     fix_global_step_increment_bug: bool) -> Dict[str, Any]:
    return {"head": head, "linear_feature_columns": tuple(linear_feature_columns or []),
            "linear_optimizer": linear_optimizer, "joint_linear_weights": joint,
            "dnn_feature_columns": tuple(dnn_feature_columns or []),
            "dnn_optimizer": dnn_optimizer, "dnn_hidden_units": dnn_hidden_units,
            "dnn_activation_fn": dnn_activation_fn, "dnn_dropout": dnn_dropout,
            "gradient_clip_norm": gradient_clip_norm,
            "embedding_lr_multipliers": embedding_lr_multipliers,
            "fix_global_step_increment_bug": fix_global_step_increment_bug}


def _combined_columns(linear_feature_columns: Any, dnn_feature_columns: Any) -> tuple:
    columns = tuple(linear_feature_columns or []) + tuple(dnn_feature_columns or [])
    if not columns:
        raise ValueError("Either linear_feature_columns or dnn_feature_columns must be "
                         "defined.")
    return columns


class DNNLinearCombinedClassifier(_Classifier):
    """`tf.contrib.learn.DNNLinearCombinedClassifier`: wide (linear) + deep (DNN) logits."""

    def __init__(self, model_dir: Optional[str] = None, n_classes: int = 2,
                 weight_column_name: Optional[str] = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = None, _joint_linear_weights: bool = False,
                 dnn_feature_columns: Any = None, dnn_optimizer: Any = None,
                 dnn_hidden_units: Any = None, dnn_activation_fn: Any = None,
                 dnn_dropout: Any = None, gradient_clip_norm: Any = None,
                 enable_centered_bias: bool = False, config: Any = None,
                 feature_engineering_fn: Any = None, embedding_lr_multipliers: Any = None,
                 input_layer_min_slice_size: Any = None, label_keys: Any = None,
                 fix_global_step_increment_bug: bool = False):
        head = head_lib.multi_class_head(n_classes, weight_column_name=weight_column_name,
                                         enable_centered_bias=enable_centered_bias,
                                         label_keys=label_keys)
        columns = _combined_columns(linear_feature_columns, dnn_feature_columns)
        super().__init__(_combined_model_fn, columns, model_dir, config, _combined_params(
            head, linear_feature_columns, linear_optimizer, _joint_linear_weights,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
            dnn_dropout, gradient_clip_norm, embedding_lr_multipliers,
            fix_global_step_increment_bug), feature_engineering_fn)


class DNNLinearCombinedRegressor(_Regressor):
    """`tf.contrib.learn.DNNLinearCombinedRegressor`: wide + deep regression."""

    def __init__(self, model_dir: Optional[str] = None,
                 weight_column_name: Optional[str] = None, linear_feature_columns: Any = None,
                 linear_optimizer: Any = None, _joint_linear_weights: bool = False,
                 dnn_feature_columns: Any = None, dnn_optimizer: Any = None,
                 dnn_hidden_units: Any = None, dnn_activation_fn: Any = None,
                 dnn_dropout: Any = None, gradient_clip_norm: Any = None,
                 enable_centered_bias: bool = False, label_dimension: int = 1,
                 config: Any = None, feature_engineering_fn: Any = None,
                 embedding_lr_multipliers: Any = None, input_layer_min_slice_size: Any = None,
                 fix_global_step_increment_bug: bool = False):
        head = head_lib.regression_head(weight_column_name=weight_column_name,
                                        label_dimension=label_dimension,
                                        enable_centered_bias=enable_centered_bias)
        columns = _combined_columns(linear_feature_columns, dnn_feature_columns)
        super().__init__(_combined_model_fn, columns, model_dir, config, _combined_params(
            head, linear_feature_columns, linear_optimizer, _joint_linear_weights,
            dnn_feature_columns, dnn_optimizer, dnn_hidden_units, dnn_activation_fn,
            dnn_dropout, gradient_clip_norm, embedding_lr_multipliers,
            fix_global_step_increment_bug), feature_engineering_fn)


def infer_real_valued_columns_from_input_fn(input_fn: Callable[[], Any]) -> List[Any]:
    """`tf.contrib.learn.infer_real_valued_columns_from_input_fn`: a real_valued_column per
    feature `input_fn` returns (built in a scratch graph)."""
    from tf1compat.contrib.layers.feature_column_ops import infer_real_valued_columns
    from tf1compat.data.dataset_ops import DatasetV2
    from tf1compat.framework.graph import Graph
    with Graph().as_default():
        result = input_fn()
        if isinstance(result, DatasetV2):
            result = result.make_one_shot_iterator().get_next()
        features = result[0] if isinstance(result, tuple) else result
        return infer_real_valued_columns(features)


def infer_real_valued_columns_from_input(x: Any) -> List[Any]:
    """`tf.contrib.learn.infer_real_valued_columns_from_input`: the real_valued_columns
    (key '', or the dict's keys) of an array `x`, keeping its dtype."""
    from tf1compat.contrib.layers.feature_column import real_valued_column

    def column(name: str, array: Any) -> Any:
        array = _feature_array(array)
        return real_valued_column(name, dimension=int(np.prod(array.shape[1:])),
                                  dtype=dtypes.as_dtype(array.dtype))
    if isinstance(x, dict):
        return [column(key, value) for key, value in x.items()]
    return [column("", x)]
