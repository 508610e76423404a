"""`tf.estimator.BaselineClassifier`, `BaselineRegressor`, `BaselineEstimator` (TF1): a
model that ignores the features and learns one bias per output (`baseline/bias`, FTRL
with learning rate 0.3) — the label distribution / mean."""

from __future__ import annotations

from typing import Any, Dict, Optional

from tf1compat.estimator.canned import head as head_lib
from tf1compat.estimator.canned import optimizers
from tf1compat.estimator.estimator import Estimator
from tf1compat.framework.graph import control_dependencies
from tf1compat.losses.losses_impl import Reduction
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["BaselineClassifier", "BaselineRegressor", "BaselineEstimator", "LEARNING_RATE"]

LEARNING_RATE = 0.3


def _weight_column_key(weight_column: Any) -> Optional[str]:
    from tf1compat.feature_column.columns import NumericColumn
    if weight_column is None or isinstance(weight_column, str):
        return weight_column
    if not isinstance(weight_column, NumericColumn):
        raise TypeError("Weight column must be either a string or _NumericColumn. Given "
                        f"type: {type(weight_column)}.")
    return weight_column.key


def baseline_model_fn(features: Dict[str, Any], labels: Any, mode: str, head: Any,
                      optimizer: Any, weight_column: Any = None, config: Any = None) -> Any:
    """The model_fn of the baseline estimators: logits = bias for every example."""
    from tf1compat.ops.array_ops import shape
    from tf1compat.ops.check_ops import assert_equal
    from tf1compat.ops.creation_ops import ones
    from tf1compat.ops.math_ops import multiply
    from tf1compat.training.training_util import get_global_step
    from tf1compat.variables.init_ops import zeros_initializer
    from tf1compat.variables.variable_scope import get_variable
    units = head.logits_dimension
    weight_key = _weight_column_key(weight_column)
    checks, batch_size = [], None
    for key, feature in features.items():
        if key == weight_key:
            continue
        first_dim = shape(feature)[0]
        if batch_size is None:
            batch_size = first_dim
        else:
            checks.append(assert_equal(batch_size, first_dim))
    with control_dependencies(checks):
        with variable_scope("baseline"):
            bias = get_variable("bias", shape=[units], initializer=zeros_initializer())
            logits = multiply(bias, ones([batch_size, units]))

    def train_op_fn(loss: Any) -> Any:
        opt = optimizers.get_optimizer_instance(optimizer, learning_rate=LEARNING_RATE)
        return opt.minimize(loss, global_step=get_global_step())
    return head.create_estimator_spec(features=features, mode=mode, logits=logits,
                                      labels=labels, train_op_fn=train_op_fn)


class _BaselineBase(Estimator):
    def _init_baseline(self, head: Any, model_dir: Optional[str], optimizer: Any,
                       config: Any, weight_column: Any = None) -> None:
        def _model_fn(features: Dict[str, Any], labels: Any, mode: str, config: Any) -> Any:
            return baseline_model_fn(features=features, labels=labels, mode=mode, head=head,
                                     optimizer=optimizer, weight_column=weight_column,
                                     config=config)
        Estimator.__init__(self, model_fn=_model_fn, model_dir=model_dir, config=config)


class BaselineClassifier(_BaselineBase):
    """Predicts the training labels' class distribution."""

    def __init__(self, model_dir: Optional[str] = None, n_classes: int = 2,
                 weight_column: Any = None, label_vocabulary: Any = None,
                 optimizer: Any = "Ftrl", config: Any = None,
                 loss_reduction: str = Reduction.SUM):
        head = head_lib.binary_logistic_or_multi_class_head(n_classes, weight_column,
                                                            label_vocabulary, loss_reduction)
        self._init_baseline(head, model_dir, optimizer, config, weight_column)


class BaselineRegressor(_BaselineBase):
    """Predicts the training labels' mean."""

    def __init__(self, model_dir: Optional[str] = None, label_dimension: int = 1,
                 weight_column: Any = None, optimizer: Any = "Ftrl", config: Any = None,
                 loss_reduction: str = Reduction.SUM):
        head = head_lib.regression_head(label_dimension=label_dimension,
                                        weight_column=weight_column,
                                        loss_reduction=loss_reduction)
        self._init_baseline(head, model_dir, optimizer, config, weight_column)


class BaselineEstimator(_BaselineBase):
    """A baseline model with a user-given head."""

    def __init__(self, head: Any, model_dir: Optional[str] = None, optimizer: Any = "Ftrl",
                 config: Any = None):
        self._init_baseline(head, model_dir, optimizer, config)
