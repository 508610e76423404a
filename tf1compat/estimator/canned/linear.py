"""`tf.estimator.LinearClassifier`, `LinearRegressor`, `LinearEstimator` (TF1): a
weighted sum of feature columns plus bias, trained by FTRL (learning rate 0.2) by
default, in variable scope `linear/linear_model` with TF's `bias` and
`fraction_of_zero_weights` summaries."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional

from tf1compat.estimator.canned import head as head_lib
from tf1compat.estimator.canned import optimizers
from tf1compat.estimator.estimator import Estimator
from tf1compat.framework import dtypes
from tf1compat.framework.graph import name_scope
from tf1compat.losses.losses_impl import Reduction
from tf1compat.variables.variable_scope import variable_scope

__all__ = ["LinearClassifier", "LinearRegressor", "LinearEstimator",
           "linear_logit_fn_builder", "LinearSDCA", "LEARNING_RATE"]

LEARNING_RATE = 0.2


def _expanded(variables: List[Any]) -> List[Any]:
    out: List[Any] = []
    for v in variables:
        out.extend(list(v) if hasattr(v, "_get_variable_list") else [v])
    return out


def _fraction_of_zero(variables: List[Any]) -> Any:
    """The fraction of zero entries over all `variables` (TF: a tf.cond per variable on
    its size; sizes are static here, so the branch is chosen when the graph is built)."""
    from tf1compat.framework.constant_op import constant
    from tf1compat.ops.array_ops import identity, size
    from tf1compat.ops.math_ops import add_n, cast
    from tf1compat.ops.nn_ops import zero_fraction
    with name_scope("zero_fraction"):
        with name_scope("total_size"):
            sizes = [size(x, out_type=dtypes.int64) for x in variables]
            total_size = add_n(sizes)
        with name_scope("total_zero"):
            counts = []
            for x, s in zip(variables, sizes):
                if x.get_shape().num_elements() == 0:
                    counts.append(constant(0, dtype=dtypes.float32))
                else:
                    counts.append(zero_fraction(x) * cast(s, dtype=dtypes.float32))
            total_zero = add_n(counts)
        with name_scope("compute"):
            fraction = total_zero / cast(total_size, dtype=dtypes.float32,
                                         name="float32_size")
        return identity(fraction, name="zero_fraction_or_nan")


def linear_logit_fn_builder(units: int, feature_columns: Any,
                            sparse_combiner: str = "sum") -> Callable:
    """`tf.estimator.experimental.linear_logit_fn_builder`: `logit_fn(features)`."""
    def linear_logit_fn(features: Dict[str, Any]) -> Any:
        from tf1compat.feature_column.layers import linear_logits
        from tf1compat.summary.summary_ops import histogram, scalar
        cols_to_vars: Dict[Any, Any] = {}
        # TF builds this with a Keras LinearModel around a layer, both named linear_model:
        # its ops are under linear_model/linear_model/linear_model/ (signature names).
        with variable_scope("linear_model"), name_scope("linear_model"), \
                name_scope("linear_model"):
            logits = linear_logits(features, feature_columns, units, sparse_combiner,
                                   None, True, cols_to_vars)
        bias = cols_to_vars.pop("bias")
        variables = _expanded([v for vs in cols_to_vars.values() for v in vs])
        if units > 1:
            histogram("bias", bias)
        else:
            scalar("bias", bias[0][0])
        scalar("fraction_of_zero_weights", _fraction_of_zero(variables))
        return logits
    return linear_logit_fn


class LinearSDCA:
    """`tf.estimator.experimental.LinearSDCA`: not supported by tf1compat."""

    def __init__(self, *args: Any, **kwargs: Any):
        raise NotImplementedError("tf.estimator.experimental.LinearSDCA (the SDCA optimizer "
                                  "for linear estimators) is not supported by tf1compat.")


def linear_model_fn(features: Dict[str, Any], labels: Any, mode: str, head: Any,
                    feature_columns: Any, optimizer: Any, partitioner: Any, config: Any,
                    sparse_combiner: str = "sum") -> Any:
    """The model_fn of the linear estimators."""
    from tf1compat.variables.partitioned import min_max_variable_partitioner
    if not isinstance(features, dict):
        raise ValueError("features should be a dictionary of `Tensor`s. Given type: "
                         f"{type(features)}")
    num_ps_replicas = config.num_ps_replicas if config else 0
    partitioner = partitioner or min_max_variable_partitioner(
        max_partitions=num_ps_replicas, min_slice_size=64 << 20)
    with variable_scope("linear", values=tuple(features.values()), partitioner=partitioner):
        logits = linear_logit_fn_builder(head.logits_dimension, feature_columns,
                                         sparse_combiner)(features=features)
        optimizer = optimizers.get_optimizer_instance(
            optimizer or _default_optimizer(feature_columns), learning_rate=LEARNING_RATE)
        return head.create_estimator_spec(features=features, mode=mode, labels=labels,
                                          optimizer=optimizer, logits=logits)


def _default_optimizer(feature_columns: Any) -> Any:
    import math
    from tf1compat.training.optimizers import FtrlOptimizer
    return FtrlOptimizer(learning_rate=min(LEARNING_RATE, 1.0 / math.sqrt(len(feature_columns))))


class _LinearBase(Estimator):
    def _init_linear(self, head: Any, feature_columns: Any, model_dir: Optional[str],
                     optimizer: Any, config: Any, partitioner: Any, warm_start_from: Any,
                     sparse_combiner: str) -> None:
        columns = tuple(feature_columns or [])

        def _model_fn(features: Dict[str, Any], labels: Any, mode: str, config: Any) -> Any:
            return linear_model_fn(features=features, labels=labels, mode=mode, head=head,
                                   feature_columns=columns, optimizer=optimizer,
                                   partitioner=partitioner, config=config,
                                   sparse_combiner=sparse_combiner)
        Estimator.__init__(self, model_fn=_model_fn, model_dir=model_dir, config=config,
                           warm_start_from=warm_start_from)


def _check_not_sdca(optimizer: Any) -> None:
    if isinstance(optimizer, LinearSDCA):
        raise NotImplementedError("LinearSDCA is not supported by tf1compat.")


class LinearClassifier(_LinearBase):
    """A linear classifier (`n_classes` >= 2; TF1 loss reduction SUM)."""

    def __init__(self, feature_columns: Any, model_dir: Optional[str] = None,
                 n_classes: int = 2, weight_column: Any = None, label_vocabulary: Any = None,
                 optimizer: Any = "Ftrl", config: Any = None, partitioner: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = Reduction.SUM,
                 sparse_combiner: str = "sum"):
        _check_not_sdca(optimizer)
        head = head_lib.binary_logistic_or_multi_class_head(n_classes, weight_column,
                                                            label_vocabulary, loss_reduction)
        self._init_linear(head, feature_columns, model_dir, optimizer, config, partitioner,
                          warm_start_from, sparse_combiner)


class LinearRegressor(_LinearBase):
    """A linear regressor (`label_dimension` outputs)."""

    def __init__(self, feature_columns: Any, model_dir: Optional[str] = None,
                 label_dimension: int = 1, weight_column: Any = None,
                 optimizer: Any = "Ftrl", config: Any = None, partitioner: Any = None,
                 warm_start_from: Any = None, loss_reduction: str = Reduction.SUM,
                 sparse_combiner: str = "sum"):
        _check_not_sdca(optimizer)
        head = head_lib.regression_head(label_dimension=label_dimension,
                                        weight_column=weight_column,
                                        loss_reduction=loss_reduction)
        self._init_linear(head, feature_columns, model_dir, optimizer, config, partitioner,
                          warm_start_from, sparse_combiner)


class LinearEstimator(_LinearBase):
    """A linear model with a user-given head."""

    def __init__(self, head: Any, feature_columns: Any, model_dir: Optional[str] = None,
                 optimizer: Any = "Ftrl", config: Any = None, partitioner: Any = None,
                 sparse_combiner: str = "sum", warm_start_from: Any = None):
        self._init_linear(head, feature_columns, model_dir, optimizer, config, partitioner,
                          warm_start_from, sparse_combiner)
