"""`tf.keras.metrics`: metric functions and stateful Metric objects (tf-keras's).

Metric functions (`categorical_accuracy`, ...) build the same ops as tf-keras. A `Metric`
is a stateful Layer whose non-trainable weights (`total`, `count`) accumulate over
`update_state` calls; calling it updates and returns `result()`. Under eager execution the
update runs at once; in a graph `update_state` returns the update op (also registered
with `add_update`) and `result()` reads the totals, as tf-keras's v1 wrappers do.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import control_dependencies
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.keras import losses as losses_mod
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.ops import array_ops, math_ops, reduction_ops
from tf1compat.losses.losses_impl import remove_squeezable_dimensions
from tf1compat.ops.weights_broadcast_ops import broadcast_weights
from tf1compat.variables.variables import VariableAggregation, VariableSynchronization
from tf1compat.keras.utils.serialization import get_registered_object

__all__ = ["Metric", "Reduce", "Sum", "Mean", "MeanMetricWrapper", "Accuracy",
           "BinaryAccuracy", "CategoricalAccuracy", "SparseCategoricalAccuracy",
           "TopKCategoricalAccuracy", "SparseTopKCategoricalAccuracy", "MeanSquaredError",
           "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "Hinge", "SquaredHinge", "KLDivergence", "Poisson", "LogCoshError",
           "CategoricalHinge", "CosineSimilarity", "RootMeanSquaredError", "MeanRelativeError",
           "MeanTensor", "kld", "KLD", "kl_divergence", "cosine",
           "binary_focal_crossentropy", "categorical_focal_crossentropy",
           "accuracy", "binary_accuracy", "categorical_accuracy",
           "sparse_categorical_accuracy", "top_k_categorical_accuracy",
           "sparse_top_k_categorical_accuracy", "get", "serialize", "deserialize"]


def _executing_eagerly() -> bool:
    from tf1compat.eager.context import executing_eagerly
    return executing_eagerly()


# -- metric functions ----------------------------------------------------------------------

def accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1.0 where y_true equals y_pred (y_pred cast to y_true's dtype)."""
    y_pred, y_true = convert_to_tensor(y_pred), convert_to_tensor(y_true)
    y_true.shape.assert_is_compatible_with(y_pred.shape)
    if y_true.dtype != y_pred.dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())


def _binary_matches(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Tensor:
    y_pred = convert_to_tensor(y_pred)
    threshold = math_ops.cast(threshold, y_pred.dtype)
    y_pred = math_ops.cast(y_pred > threshold, y_pred.dtype)
    return math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())


def binary_accuracy(y_true: Any, y_pred: Any, threshold: float = 0.5) -> Tensor:
    """Mean over the last axis of (y_pred > threshold) == y_true."""
    return reduction_ops.reduce_mean(_binary_matches(y_true, y_pred, threshold), axis=-1)


def _sparse_categorical_matches(y_true: Any, y_pred: Any) -> Tensor:
    reshape_matches = False
    y_pred = convert_to_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    y_true_org_shape = array_ops.shape(y_true)
    y_pred_rank, y_true_rank = y_pred.shape.ndims, y_true.shape.ndims
    # (num_samples, 1) labels are squeezed to (num_samples,), the result reshaped back.
    if y_true_rank is not None and y_pred_rank is not None and y_true_rank == y_pred_rank:
        y_true = array_ops.squeeze(y_true, [-1])
        reshape_matches = True
    y_pred = reduction_ops.argmax(y_pred, axis=-1)
    if y_pred.dtype.base_dtype != y_true.dtype.base_dtype:
        y_pred = math_ops.cast(y_pred, y_true.dtype.base_dtype)
    matches = math_ops.cast(math_ops.equal(y_true, y_pred), backend.floatx())
    if reshape_matches:
        matches = array_ops.reshape(matches, shape=y_true_org_shape)
    return matches


def _sparse_top_k_matches(y_true: Any, y_pred: Any, k: int = 5) -> Tensor:
    from tf1compat.ops.nn_ops import in_top_k
    reshape_matches = False
    y_true = convert_to_tensor(y_true)
    y_pred = convert_to_tensor(y_pred)
    y_true_rank, y_pred_rank = y_true.shape.ndims, y_pred.shape.ndims
    y_true_org_shape = array_ops.shape(y_true)
    if y_true_rank is not None and y_pred_rank is not None:
        if y_pred_rank > 2:
            y_pred = array_ops.reshape(y_pred, [-1, y_pred.shape[-1]])
        if y_true_rank > 1:
            reshape_matches = True
            y_true = array_ops.reshape(y_true, [-1])
    matches = math_ops.cast(in_top_k(predictions=y_pred,
                                     targets=math_ops.cast(y_true, D.int32), k=k),
                            dtype=backend.floatx())
    if reshape_matches:
        return array_ops.reshape(matches, shape=y_true_org_shape)
    return matches


def categorical_accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1.0 where argmax(y_true) equals argmax(y_pred)."""
    return _sparse_categorical_matches(reduction_ops.argmax(y_true, axis=-1), y_pred)


def sparse_categorical_accuracy(y_true: Any, y_pred: Any) -> Tensor:
    """1.0 where the integer label equals argmax(y_pred)."""
    matches = _sparse_categorical_matches(y_true, y_pred)
    if matches.shape.ndims > 1 and matches.shape[-1] == 1:
        matches = array_ops.squeeze(matches, [-1])
    return matches


def top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Tensor:
    """1.0 where argmax(y_true) is among the k largest predictions."""
    return _sparse_top_k_matches(reduction_ops.argmax(y_true, axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true: Any, y_pred: Any, k: int = 5) -> Tensor:
    """1.0 where the integer label is among the k largest predictions."""
    return _sparse_top_k_matches(y_true, y_pred, k)


# The loss functions double as metrics, under their loss names.
mean_squared_error = mse = MSE = losses_mod.mean_squared_error
mean_absolute_error = mae = MAE = losses_mod.mean_absolute_error
mean_absolute_percentage_error = mape = MAPE = losses_mod.mean_absolute_percentage_error
mean_squared_logarithmic_error = msle = MSLE = losses_mod.mean_squared_logarithmic_error
binary_crossentropy = bce = BCE = losses_mod.binary_crossentropy
categorical_crossentropy = losses_mod.categorical_crossentropy
sparse_categorical_crossentropy = losses_mod.sparse_categorical_crossentropy
hinge = losses_mod.hinge
squared_hinge = losses_mod.squared_hinge
categorical_hinge = losses_mod.categorical_hinge
kullback_leibler_divergence = kld = KLD = kl_divergence = \
    losses_mod.kullback_leibler_divergence
poisson = losses_mod.poisson
logcosh = log_cosh = losses_mod.log_cosh
cosine_similarity = cosine_proximity = cosine = losses_mod.cosine_similarity
binary_focal_crossentropy = losses_mod.binary_focal_crossentropy
categorical_focal_crossentropy = losses_mod.categorical_focal_crossentropy
acc = ACC = accuracy


# -- Metric objects ------------------------------------------------------------------------

def _squeeze_or_expand(y_pred: Tensor, y_true: Any = None, sample_weight: Any = None
                       ) -> tuple:
    """tf-keras's squeeze_or_expand_dimensions for statically known ranks."""
    y_pred_rank = y_pred.shape.ndims
    if y_true is not None:
        y_true_rank = y_true.shape.ndims
        if y_true_rank is not None and y_pred_rank is not None:
            if y_pred_rank - y_true_rank != 1 or y_pred.shape[-1] == 1:
                y_true, y_pred = remove_squeezable_dimensions(y_true, y_pred)
        else:
            raise NotImplementedError("Keras metrics on tensors of unknown rank are not "
                                      "supported by tf1compat")
    if sample_weight is None:
        return y_pred, y_true, None
    weights_rank = sample_weight.shape.ndims
    if weights_rank == 0:
        return y_pred, y_true, sample_weight
    if y_pred_rank is not None and weights_rank is not None:
        if weights_rank - y_pred_rank == 1:
            sample_weight = array_ops.squeeze(sample_weight, [-1])
        elif y_pred_rank - weights_rank == 1:
            sample_weight = array_ops.expand_dims(sample_weight, [-1])
        return y_pred, y_true, sample_weight
    raise NotImplementedError("Keras metric sample weights of unknown rank are not "
                              "supported by tf1compat")


class Metric(Layer):
    """A stateful metric: `update_state(...)`, `result()`, `reset_states()`."""

    def __init__(self, name: Optional[str] = None, dtype: Any = None, **kwargs: Any):
        super().__init__(name=name, dtype=dtype, **kwargs)
        self.stateful = True
        self.built = True
        self._dtype = backend.floatx() if dtype is None else D.as_dtype(dtype).name

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Wrap each class's own update_state/result once (TF wraps them per instance):
        # graph updates are registered with add_update, results come out of an Identity.
        if "update_state" in cls.__dict__:
            cls.update_state = _wrap_update_state(cls.__dict__["update_state"])
        if "result" in cls.__dict__:
            cls.result = _wrap_result(cls.__dict__["result"])

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        update_op = self.update_state(*args, **kwargs)
        with control_dependencies([update_op] if update_op is not None else []):
            result = self.result()
        # (as tf-keras: `add_metric` of this result tracks the metric itself)
        if isinstance(result, Tensor):
            result._metric_obj = self
        return result

    @property
    def dtype(self) -> str:
        return self._dtype

    def add_weight(self, name: str, shape: Any = (),  # type: ignore[override]
                   aggregation: Any = VariableAggregation.SUM,
                   synchronization: Any = VariableSynchronization.ON_READ,
                   initializer: Any = None, dtype: Any = None) -> Any:
        from tf1compat.variables.variables import init_scope
        with init_scope():
            return super().add_weight(name=name, shape=shape,
                                      dtype=self._dtype if dtype is None else dtype,
                                      trainable=False, initializer=initializer,
                                      collections=[], synchronization=synchronization,
                                      aggregation=aggregation)

    def update_state(self, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("Must be implemented in subclasses.")

    def result(self) -> Any:
        raise NotImplementedError("Must be implemented in subclasses.")

    def reset_state(self) -> None:
        """Sets every state variable back to zero."""
        backend.batch_set_value([(v, np.zeros(v.shape.as_list())) for v in self.variables])

    def reset_states(self) -> None:
        self.reset_state()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype}

    def __str__(self) -> str:
        args = ",".join(f"{k}={v}" for k, v in self.get_config().items())
        return f"{type(self).__name__}({args})"


def _wrap_update_state(fn: Callable) -> Callable:
    def update_state(self: Metric, *args: Any, **kwargs: Any) -> Any:
        update_op = fn(self, *args, **kwargs)
        if not _executing_eagerly():
            # As tf-keras: in a graph the update is the last operation created.
            from tf1compat.framework.graph import get_default_graph
            update_op = get_default_graph().get_operations()[-1]
            self.add_update(update_op)
        return update_op
    update_state.__doc__ = fn.__doc__
    update_state.__wrapped__ = fn  # type: ignore[attr-defined]
    return update_state


def _wrap_result(fn: Callable) -> Callable:
    def result(self: Metric) -> Any:
        raw = fn(self)
        if isinstance(raw, dict):
            return {k: array_ops.identity(v) for k, v in raw.items()}
        return array_ops.identity(raw)
    result.__doc__ = fn.__doc__
    result.__wrapped__ = fn  # type: ignore[attr-defined]
    return result


_SUM, _SUM_OVER_BATCH, _WEIGHTED_MEAN = "sum", "sum_over_batch_size", "weighted_mean"


class Reduce(Metric):
    """Sums values (`sum`) or averages them (`weighted_mean`, `sum_over_batch_size`)."""

    def __init__(self, reduction: str, name: Optional[str], dtype: Any = None):
        super().__init__(name=name, dtype=dtype)
        self.reduction = reduction
        self.total = self.add_weight("total", initializer="zeros")
        if reduction in (_SUM_OVER_BATCH, _WEIGHTED_MEAN):
            self.count = self.add_weight("count", initializer="zeros")

    def update_state(self, values: Any, sample_weight: Any = None) -> Any:
        values = math_ops.cast(values, self._dtype)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            values, _, sample_weight = _squeeze_or_expand(values, sample_weight=sample_weight)
            try:
                sample_weight = broadcast_weights(sample_weight, values)
            except ValueError:
                ndim, weight_ndim = values.shape.ndims, sample_weight.shape.ndims
                axes = list(range(weight_ndim, ndim))
                values = (reduction_ops.reduce_sum(values, axis=axes)
                          if self.reduction == _SUM
                          else reduction_ops.reduce_mean(values, axis=axes))
            values = math_ops.multiply(values, sample_weight)
        value_sum = reduction_ops.reduce_sum(values)
        with control_dependencies([value_sum]):
            update_total_op = self.total.assign_add(value_sum)
        if self.reduction == _SUM:
            return update_total_op
        if self.reduction == _WEIGHTED_MEAN and sample_weight is not None:
            num_values = reduction_ops.reduce_sum(sample_weight)
        else:
            num_values = math_ops.cast(array_ops.size(values), self._dtype)
        with control_dependencies([update_total_op]):
            return self.count.assign_add(num_values)

    def result(self) -> Any:
        if self.reduction == _SUM:
            return array_ops.identity(self.total)
        return math_ops.div_no_nan(self.total, self.count)


class Sum(Reduce):
    """The running sum of the values."""

    def __init__(self, name: str = "sum", dtype: Any = None):
        super().__init__(reduction=_SUM, name=name, dtype=dtype)


class Mean(Reduce):
    """The running (weighted) mean of the values."""

    def __init__(self, name: str = "mean", dtype: Any = None):
        super().__init__(reduction=_WEIGHTED_MEAN, name=name, dtype=dtype)


class MeanMetricWrapper(Mean):
    """The running mean of `fn(y_true, y_pred, **kwargs)`."""

    def __init__(self, fn: Callable, name: Optional[str] = None, dtype: Any = None,
                 **kwargs: Any):
        super().__init__(name=name, dtype=dtype)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true: Any, y_pred: Any,  # type: ignore[override]
                     sample_weight: Any = None) -> Any:
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true, _ = _squeeze_or_expand(y_pred, y_true)
        matches = self._fn(y_true, y_pred, **self._fn_kwargs)
        # Reduce.update_state, unwrapped: this update is registered once, by our wrapper.
        return Reduce.update_state.__wrapped__(self, matches, sample_weight=sample_weight)

    def get_config(self) -> dict:
        config: Dict[str, Any] = dict(self._fn_kwargs)
        if type(self) is MeanMetricWrapper:
            config["fn"] = self._fn
        return {**super().get_config(), **config}

    @classmethod
    def from_config(cls, config: dict) -> "MeanMetricWrapper":
        """The wrapper itself resolves its function by name ("mean_absolute_error", as a
        saved training config holds it)."""
        config = dict(config)
        fn = config.pop("fn", None)
        if cls is MeanMetricWrapper:
            return cls(get(fn), **config)
        return super().from_config(config)


def _wrapper_class(cls_name: str, fn: Callable, default_name: str, *order: str,
                   **defaults: Any) -> type:
    """A MeanMetricWrapper subclass for `fn` (tf-keras's classes). `order` is the
    constructor's positional order (default: name, dtype, then the keyword defaults)."""
    names = list(order) if order else ["name", "dtype"] + list(defaults)

    def __init__(self: MeanMetricWrapper, *args: Any, **kwargs: Any) -> None:
        values = dict(defaults, name=default_name, dtype=None)
        if len(args) > len(names):
            raise TypeError(f"{cls_name}.__init__() takes at most {len(names)} positional "
                            f"arguments ({len(args)} given)")
        for key, value in zip(names, args):
            values[key] = value
        for key, value in kwargs.items():
            if key not in values:
                raise TypeError(f"{cls_name}.__init__() got an unexpected keyword "
                                f"argument '{key}'")
            values[key] = value
        name, dtype = values.pop("name"), values.pop("dtype")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **values)

    doc = f"The running mean of `{fn.__name__}`."
    return type(cls_name, (MeanMetricWrapper,), {"__init__": __init__, "__doc__": doc})


Accuracy = _wrapper_class("Accuracy", accuracy, "accuracy")
BinaryAccuracy = _wrapper_class("BinaryAccuracy", binary_accuracy, "binary_accuracy",
                                threshold=0.5)
CategoricalAccuracy = _wrapper_class("CategoricalAccuracy", categorical_accuracy,
                                     "categorical_accuracy")
SparseCategoricalAccuracy = _wrapper_class("SparseCategoricalAccuracy",
                                           sparse_categorical_accuracy,
                                           "sparse_categorical_accuracy")
TopKCategoricalAccuracy = _wrapper_class("TopKCategoricalAccuracy", top_k_categorical_accuracy,
                                         "top_k_categorical_accuracy", "k", "name", "dtype",
                                         k=5)
SparseTopKCategoricalAccuracy = _wrapper_class("SparseTopKCategoricalAccuracy",
                                               sparse_top_k_categorical_accuracy,
                                               "sparse_top_k_categorical_accuracy", "k",
                                               "name", "dtype", k=5)
MeanSquaredError = _wrapper_class("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper_class("MeanAbsoluteError", mean_absolute_error,
                                   "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper_class("MeanAbsolutePercentageError",
                                             mean_absolute_percentage_error,
                                             "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper_class("MeanSquaredLogarithmicError",
                                             mean_squared_logarithmic_error,
                                             "mean_squared_logarithmic_error")
BinaryCrossentropy = _wrapper_class("BinaryCrossentropy", binary_crossentropy,
                                    "binary_crossentropy", from_logits=False,
                                    label_smoothing=0)
CategoricalCrossentropy = _wrapper_class("CategoricalCrossentropy", categorical_crossentropy,
                                         "categorical_crossentropy", from_logits=False,
                                         label_smoothing=0, axis=-1)
SparseCategoricalCrossentropy = _wrapper_class("SparseCategoricalCrossentropy",
                                               sparse_categorical_crossentropy,
                                               "sparse_categorical_crossentropy",
                                               from_logits=False, ignore_class=None, axis=-1)
Hinge = _wrapper_class("Hinge", hinge, "hinge")
SquaredHinge = _wrapper_class("SquaredHinge", squared_hinge, "squared_hinge")
KLDivergence = _wrapper_class("KLDivergence", kullback_leibler_divergence,
                              "kullback_leibler_divergence")
Poisson = _wrapper_class("Poisson", poisson, "poisson")
LogCoshError = _wrapper_class("LogCoshError", logcosh, "logcosh")

CategoricalHinge = _wrapper_class("CategoricalHinge", categorical_hinge, "categorical_hinge")


def _positive_cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Tensor:
    """The metric's cosine similarity: sum(l2_normalize(y_true) * l2_normalize(y_pred))
    (the loss of the same name is its negative)."""
    from tf1compat.ops.nn_norm import l2_normalize
    return reduction_ops.reduce_sum(l2_normalize(y_true, axis=axis) *
                                    l2_normalize(y_pred, axis=axis), axis=axis)


_positive_cosine_similarity.__name__ = "cosine_similarity"
CosineSimilarity = _wrapper_class("CosineSimilarity", _positive_cosine_similarity,
                                  "cosine_similarity", axis=-1)


class RootMeanSquaredError(Mean):
    """sqrt of the running (weighted) mean of the squared errors."""

    def __init__(self, name: str = "root_mean_squared_error", dtype: Any = None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true: Any, y_pred: Any,  # type: ignore[override]
                     sample_weight: Any = None) -> Any:
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true, _ = _squeeze_or_expand(y_pred, y_true)
        error_sq = math_ops.squared_difference(y_pred, y_true)
        return Reduce.update_state.__wrapped__(self, error_sq, sample_weight=sample_weight)

    def result(self) -> Any:
        return math_ops.sqrt(math_ops.div_no_nan(self.total, self.count))


class MeanRelativeError(Mean):
    """The running mean of |y_true - y_pred| / normalizer."""

    def __init__(self, normalizer: Any, name: Optional[str] = None, dtype: Any = None):
        super().__init__(name=name or "mean_relative_error", dtype=dtype)
        self.normalizer = math_ops.cast(convert_to_tensor(normalizer), self._dtype)
        self._normalizer_value = normalizer

    def update_state(self, y_true: Any, y_pred: Any,  # type: ignore[override]
                     sample_weight: Any = None) -> Any:
        y_true = math_ops.cast(y_true, self._dtype)
        y_pred = math_ops.cast(y_pred, self._dtype)
        y_pred, y_true, _ = _squeeze_or_expand(y_pred, y_true)
        y_pred, normalizer = remove_squeezable_dimensions(y_pred, self.normalizer)
        y_pred.shape.assert_is_compatible_with(y_true.shape)
        relative_errors = math_ops.div_no_nan(math_ops.abs(y_true - y_pred), normalizer)
        return Reduce.update_state.__wrapped__(self, relative_errors,
                                               sample_weight=sample_weight)

    def get_config(self) -> dict:
        # tf-keras evaluates the normalizer tensor: the config holds a numpy array.
        return {**super().get_config(),
                "normalizer": np.asarray(self._normalizer_value, dtype=self._dtype)}


class MeanTensor(Metric):
    """The element-wise running (weighted) mean of tensors of one shape (weights `total`
    and `count` of that shape, made by the first update)."""

    def __init__(self, name: str = "mean_tensor", dtype: Any = None, shape: Any = None):
        super().__init__(name=name, dtype=dtype)
        self._shape = None
        self._built_shape = False
        if shape is not None:
            self._build(shape)

    def _build(self, shape: Any) -> None:
        from tf1compat.framework.tensor_shape import TensorShape
        self._shape = TensorShape(shape)
        self.total = self.add_weight("total", shape=self._shape, initializer="zeros")
        self.count = self.add_weight("count", shape=self._shape, initializer="zeros")
        self._built_shape = True

    def update_state(self, values: Any, sample_weight: Any = None) -> Any:
        values = math_ops.cast(values, self._dtype)
        if not self._built_shape:
            self._build(values.shape)
        elif values.shape != self._shape:
            raise ValueError("MeanTensor input values must always have the same shape. "
                             f"Expected shape (set during the first call): {self._shape}. "
                             f"Got: {values.shape}.")
        from tf1compat.ops.creation_ops import ones_like
        num_values = ones_like(values)
        if sample_weight is not None:
            sample_weight = math_ops.cast(sample_weight, self._dtype)
            values, _, sample_weight = _squeeze_or_expand(values, sample_weight=sample_weight)
            sample_weight = broadcast_weights(sample_weight, values)
            num_values = math_ops.multiply(num_values, sample_weight)
            values = math_ops.multiply(values, sample_weight)
        update_total_op = self.total.assign_add(values)
        with control_dependencies([update_total_op]):
            return self.count.assign_add(num_values)

    def result(self) -> Any:
        if not self._built_shape:
            raise ValueError("MeanTensor does not have any value yet. Please call the "
                             "MeanTensor instance or use `.update_state(value)` before "
                             "retrieving the result.")
        return math_ops.div_no_nan(self.total, self.count)


_BY_NAME = {name: obj for name, obj in globals().items()
            if name in __all__ and callable(obj) and name not in ("get", "serialize",
                                                                   "deserialize")}
_BY_NAME.update(acc=accuracy, mse=mean_squared_error, mae=mean_absolute_error,
                mape=mean_absolute_percentage_error, msle=mean_squared_logarithmic_error,
                bce=binary_crossentropy, cosine_proximity=cosine_similarity,
                mean_squared_error=mean_squared_error, mean_absolute_error=mean_absolute_error,
                binary_crossentropy=binary_crossentropy,
                categorical_crossentropy=categorical_crossentropy,
                sparse_categorical_crossentropy=sparse_categorical_crossentropy)
# The names tf-keras's `metrics.get` finds among its module's globals (the loss functions
# it imports, with their upper-case aliases; "cosine_similarity" and "cosine_proximity"
# its positive metric, where the public `tf.keras.metrics.cosine_proximity` is the loss);
# "cosine" and "kld" stay (Keras 2.2.4's).
_BY_NAME.update(hinge=hinge, squared_hinge=squared_hinge, categorical_hinge=categorical_hinge,
                kullback_leibler_divergence=kullback_leibler_divergence, poisson=poisson,
                logcosh=logcosh, log_cosh=log_cosh,
                cosine_similarity=_positive_cosine_similarity,
                cosine_proximity=_positive_cosine_similarity,
                mean_absolute_percentage_error=mean_absolute_percentage_error,
                mean_squared_logarithmic_error=mean_squared_logarithmic_error,
                MSE=MSE, MAE=MAE, MAPE=MAPE, MSLE=MSLE, ACC=ACC, BCE=BCE)


def serialize(metric: Any) -> Any:
    if isinstance(metric, Metric):
        return {"class_name": type(metric).__name__, "config": metric.get_config()}
    return getattr(metric, "__name__", metric)


def deserialize(config: Any, custom_objects: Any = None) -> Any:
    if isinstance(config, dict):
        cls = get_registered_object(config["class_name"], custom_objects, _BY_NAME)
        if cls is None:
            raise ValueError(f"Unknown metric function: '{config['class_name']}'.")
        from_config = getattr(cls, "from_config", None)
        return from_config(dict(config.get("config", {}))) if from_config is not None \
            else cls(**config.get("config", {}))
    fn = get_registered_object(config, custom_objects, _BY_NAME)
    if fn is None:
        raise ValueError(f"Unknown metric function: '{config}'. Please ensure you are "
                         "using a `keras.utils.custom_object_scope` and that this object "
                         "is included in the scope.")
    return fn


def get(identifier: Any) -> Any:
    """A metric function or object from a name, config dict or callable."""
    if isinstance(identifier, (dict, str)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret metric identifier: {identifier}")


# The confusion-matrix metrics (metrics_confusion.py imports this module's Metric).
from tf1compat.keras import metrics_confusion as _confusion  # noqa: E402
from tf1compat.keras.metrics_confusion import (  # noqa: E402,F401
    AUC, FalseNegatives, FalsePositives, Precision, PrecisionAtRecall, Recall,
    RecallAtPrecision, SensitivityAtSpecificity, SpecificityAtSensitivity, TrueNegatives,
    TruePositives)

__all__ += _confusion.__all__
_BY_NAME.update({name: getattr(_confusion, name) for name in _confusion.__all__})


# The intersection-over-union metrics (metrics_iou.py imports this module's Metric).
from tf1compat.keras import metrics_iou as _iou  # noqa: E402
from tf1compat.keras.metrics_iou import (  # noqa: E402,F401
    BinaryIoU, IoU, MeanIoU, OneHotIoU, OneHotMeanIoU)

__all__ += _iou.__all__
_BY_NAME.update({name: getattr(_iou, name) for name in _iou.__all__})


# F-beta and R2 scores (metrics_scores.py imports this module's Metric).
from tf1compat.keras import metrics_scores as _scores  # noqa: E402
from tf1compat.keras.metrics_scores import F1Score, FBetaScore, R2Score  # noqa: E402,F401

__all__ += _scores.__all__
_BY_NAME.update({name: getattr(_scores, name) for name in _scores.__all__})

# Names of tf-keras's tf.keras.metrics that tf1compat lacks raise UnimplementedAPIError.
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras.metrics", globals())
