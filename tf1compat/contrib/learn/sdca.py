"""TF 1.15's SDCA path of the contrib.learn linear estimators: `sdca_model_fn` (the model
function `LinearClassifier`/`LinearRegressor` use with an `SDCAOptimizer`), the chief hook
that copies and shrinks the weights after every step, and the `SVM` estimator."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from tf1compat.contrib.learn import head as head_lib
from tf1compat.contrib.learn.canned import _Classifier, _feature_dict
from tf1compat.training.sessions.session_run_hook import SessionRunArgs, SessionRunHook

__all__ = ["sdca_model_fn", "SVM"]

_BIAS_COLUMN = "tf_virtual_bias_column"


def _add_bias_column(feature_columns: Sequence[Any], columns_to_tensors: Dict[Any, Any],
                     bias_variable: Any, columns_to_variables: Dict[Any, List[Any]]) -> None:
    """A real-valued column of ones whose weight is the model's bias (SDCA learns the bias
    as one more feature)."""
    from tf1compat.contrib.layers.feature_column import real_valued_column
    from tf1compat.framework import dtypes
    from tf1compat.framework.constant_value import constant_value
    from tf1compat.framework.sparse_tensor import SparseTensor
    from tf1compat.ops.array_ops import shape
    from tf1compat.ops.creation_ops import ones
    if any(col.name == _BIAS_COLUMN for col in feature_columns):
        raise ValueError("%s is a reserved column name." % _BIAS_COLUMN)
    if not feature_columns:
        raise ValueError("feature_columns can't be empty.")
    batch_size = None
    for column in columns_to_tensors.values():
        if isinstance(column, tuple):
            column = column[0]
        if isinstance(column, SparseTensor):
            dense_shape = constant_value(column.dense_shape)
            if dense_shape is not None:
                batch_size = dense_shape[0]
                break
        else:
            batch_size = shape(column)[0]
            break
    if batch_size is None:
        raise ValueError("Could not infer batch size from input features.")
    bias_column = real_valued_column(_BIAS_COLUMN)
    columns_to_tensors[bias_column] = ones([batch_size, 1], dtype=dtypes.float32)
    columns_to_variables[bias_column] = [bias_variable]


class _SdcaUpdateWeightsHook(SessionRunHook):
    """Runs the SDCA model's weight update (copy + L1 shrink) with every training step."""

    def set_parameters(self, sdca_model: Any, train_op: Any) -> None:
        self._sdca_model = sdca_model
        self._train_op = train_op

    def begin(self) -> None:
        self._update_op = self._sdca_model.update_weights(self._train_op)

    def before_run(self, run_context: Any) -> SessionRunArgs:
        return SessionRunArgs(self._update_op)


def sdca_model_fn(features: Any, labels: Any, mode: str, params: Dict[str, Any]) -> Any:
    """TF 1.15's `sdca_model_fn`: a linear model (`linear/...` variables of
    weighted_sum_from_feature_columns) trained by `params["optimizer"]`, an SDCAOptimizer,
    with hinge (SVM head), logistic (binary head) or squared (regression head) loss."""
    from tf1compat.contrib.layers.feature_column_ops import (
        transform_features, weighted_sum_from_feature_columns)
    from tf1compat.contrib.linear_optimizer import SDCAOptimizer
    from tf1compat.training.training_util import get_global_step
    from tf1compat.variables.variable_scope import variable_scope
    head = params["head"]
    feature_columns = params["feature_columns"]
    optimizer = params["optimizer"]
    weight_column_name = params["weight_column_name"]
    update_weights_hook = params.get("update_weights_hook")
    if not isinstance(optimizer, SDCAOptimizer):
        raise ValueError("Optimizer must be of type SDCAOptimizer")
    if isinstance(head, head_lib._BinarySvmHead):
        loss_type = "hinge_loss"
    elif isinstance(head, head_lib._BinaryLogisticHead):
        loss_type = "logistic_loss"
    elif isinstance(head, head_lib._RegressionHead):
        assert head.logits_dimension == 1, "SDCA only applies for logits_dimension=1."
        loss_type = "squared_loss"
    else:
        raise ValueError("Unsupported head type: {}".format(head))
    features = _feature_dict(features)
    with variable_scope("linear", values=tuple(features.values())) as scope:
        features = dict(features)
        features.update(transform_features(features, feature_columns))
        logits, columns_to_variables, bias = weighted_sum_from_feature_columns(
            columns_to_tensors=features, feature_columns=feature_columns, num_outputs=1,
            scope=scope)
        _add_bias_column(feature_columns, features, bias, columns_to_variables)

    def train_op_fn(unused_loss: Any) -> Any:
        sdca_model, train_op = optimizer.get_train_step(
            columns_to_variables, weight_column_name, loss_type, features, labels,
            get_global_step())
        if update_weights_hook is not None:
            update_weights_hook.set_parameters(sdca_model, train_op)
        return train_op

    model_fn_ops = head.create_model_fn_ops(features=features, labels=labels, mode=mode,
                                            train_op_fn=train_op_fn, logits=logits)
    if update_weights_hook is not None:
        model_fn_ops.training_chief_hooks = (list(model_fn_ops.training_chief_hooks) +
                                             [update_weights_hook])
    return model_fn_ops


def sdca_params(head: Any, feature_columns: Sequence[Any], optimizer: Any,
                weight_column_name: Optional[str]) -> Dict[str, Any]:
    """The params of `sdca_model_fn` (a fresh update hook for the estimator)."""
    return {"head": head, "feature_columns": tuple(feature_columns), "optimizer": optimizer,
            "weight_column_name": weight_column_name,
            "update_weights_hook": _SdcaUpdateWeightsHook()}


class SVM(_Classifier):
    """`tf.contrib.learn.SVM`: a binary linear SVM (hinge loss) trained by SDCA; examples
    are identified by the `example_id_column` feature."""

    def __init__(self, example_id_column: str, feature_columns: Sequence[Any],
                 weight_column_name: Optional[str] = None, model_dir: Optional[str] = None,
                 l1_regularization: float = 0.0, l2_regularization: float = 0.0,
                 num_loss_partitions: int = 1, kernels: Any = None, config: Any = None,
                 feature_engineering_fn: Any = None):
        from tf1compat.contrib.linear_optimizer import SDCAOptimizer
        if kernels is not None:
            raise ValueError("Kernel SVMs are not currently supported.")
        optimizer = SDCAOptimizer(example_id_column=example_id_column,
                                  num_loss_partitions=num_loss_partitions,
                                  symmetric_l1_regularization=l1_regularization,
                                  symmetric_l2_regularization=l2_regularization)
        head = head_lib.binary_svm_head(weight_column_name=weight_column_name,
                                        enable_centered_bias=False)
        super().__init__(sdca_model_fn, feature_columns, model_dir, config,
                         sdca_params(head, feature_columns, optimizer, weight_column_name),
                         feature_engineering_fn)

