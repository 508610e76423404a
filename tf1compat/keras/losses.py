"""`tf.keras.losses`: the loss functions (per-sample losses, averaged over the last axis)
and their classes (`MeanSquaredError()(y_true, y_pred, sample_weight)`, reduced with
`Reduction.AUTO` = SUM_OVER_BATCH_SIZE: the weighted sum divided by the number of
elements)."""

from __future__ import annotations

import inspect
from typing import Any, Callable, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.keras import backend
from tf1compat.ops import array_ops, math_ops, reduction_ops
from tf1compat.keras.utils.serialization import get_registered_name, get_registered_object

__all__ = ["Reduction", "Loss", "LossFunctionWrapper", "MeanSquaredError",
           "MeanAbsoluteError", "MeanAbsolutePercentageError", "MeanSquaredLogarithmicError",
           "BinaryCrossentropy", "CategoricalCrossentropy", "SparseCategoricalCrossentropy",
           "Hinge", "SquaredHinge", "CategoricalHinge", "Poisson", "LogCosh",
           "KLDivergence", "Huber", "CosineSimilarity", "BinaryFocalCrossentropy",
           "CategoricalFocalCrossentropy", "binary_focal_crossentropy",
           "categorical_focal_crossentropy", "mean_squared_error", "mse", "MSE",
           "mean_absolute_error", "mae", "MAE", "mean_absolute_percentage_error", "mape",
           "MAPE", "mean_squared_logarithmic_error", "msle", "MSLE", "binary_crossentropy",
           "categorical_crossentropy", "sparse_categorical_crossentropy", "hinge",
           "squared_hinge", "categorical_hinge", "poisson", "log_cosh", "logcosh",
           "kl_divergence", "cosine", "cosine_proximity",
           "kullback_leibler_divergence", "kld", "KLD", "huber", "cosine_similarity", "get",
           "serialize", "deserialize", "compute_weighted_loss", "apply_valid_mask",
           "cast_losses_to_common_dtype"]


class Reduction:
    """How a loss class reduces the per-sample losses."""
    AUTO = "auto"
    NONE = "none"
    SUM = "sum"
    SUM_OVER_BATCH_SIZE = "sum_over_batch_size"

    @classmethod
    def all(cls) -> tuple:
        return (cls.AUTO, cls.NONE, cls.SUM, cls.SUM_OVER_BATCH_SIZE)

    @classmethod
    def validate(cls, key: str) -> None:
        if key not in cls.all():
            raise ValueError(f'Invalid Reduction Key: {key}. Expected keys are "{cls.all()}"')


def _pair(y_true: Any, y_pred: Any) -> tuple:
    y_pred = convert_to_tensor(y_pred)
    y_true = math_ops.cast(y_true, y_pred.dtype)
    return y_true, y_pred


def mean_squared_error(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    return backend.mean(math_ops.squared_difference(y_pred, y_true), axis=-1)


def mean_absolute_error(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    return backend.mean(math_ops.abs(y_pred - y_true), axis=-1)


def mean_absolute_percentage_error(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    diff = math_ops.abs((y_true - y_pred) / backend.maximum(math_ops.abs(y_true),
                                                            backend.epsilon()))
    return 100.0 * backend.mean(diff, axis=-1)


def mean_squared_logarithmic_error(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    first_log = math_ops.log(backend.maximum(y_pred, backend.epsilon()) + 1.0)
    second_log = math_ops.log(backend.maximum(y_true, backend.epsilon()) + 1.0)
    return backend.mean(math_ops.squared_difference(first_log, second_log), axis=-1)


def _smooth(y_true: Any, y_pred: Any, label_smoothing: Any, fn: Callable) -> Any:
    from tf1compat.ops.cond import smart_cond
    label_smoothing = convert_to_tensor(label_smoothing, dtype=y_pred.dtype)
    return smart_cond(label_smoothing, lambda: fn(label_smoothing), lambda: y_true)


def categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                             label_smoothing: float = 0.0, axis: int = -1) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)

    def smooth(ls: Any) -> Any:
        num_classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        return y_true * (1.0 - ls) + (ls / num_classes)
    y_true = _smooth(y_true, y_pred, label_smoothing, smooth)
    return backend.categorical_crossentropy(y_true, y_pred, from_logits=from_logits,
                                            axis=axis)


def sparse_categorical_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                                    axis: int = -1, ignore_class: Any = None) -> Any:
    if ignore_class is not None:
        raise NotImplementedError("sparse_categorical_crossentropy(ignore_class=...) is not "
                                  "supported by tf1compat")
    return backend.sparse_categorical_crossentropy(y_true, y_pred, from_logits=from_logits,
                                                   axis=axis)


def binary_crossentropy(y_true: Any, y_pred: Any, from_logits: bool = False,
                        label_smoothing: float = 0.0, axis: int = -1) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth(y_true, y_pred, label_smoothing,
                     lambda ls: y_true * (1.0 - ls) + 0.5 * ls)
    return backend.mean(backend.binary_crossentropy(y_true, y_pred, from_logits=from_logits),
                        axis=axis)


def binary_focal_crossentropy(y_true: Any, y_pred: Any, apply_class_balancing: bool = False,
                              alpha: float = 0.25, gamma: float = 2.0,
                              from_logits: bool = False, label_smoothing: float = 0.0,
                              axis: int = -1) -> Any:
    """`tf.keras.losses.binary_focal_crossentropy`: the mean over `axis` of the focal
    factor `(1 - p_t) ** gamma` times the binary crossentropy (alpha-weighted by class
    when `apply_class_balancing`)."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth(y_true, y_pred, label_smoothing,
                     lambda ls: y_true * (1.0 - ls) + 0.5 * ls)
    return backend.mean(backend.binary_focal_crossentropy(
        y_true, y_pred, apply_class_balancing=apply_class_balancing, alpha=alpha,
        gamma=gamma, from_logits=from_logits), axis=axis)


def categorical_focal_crossentropy(y_true: Any, y_pred: Any, alpha: float = 0.25,
                                   gamma: float = 2.0, from_logits: bool = False,
                                   label_smoothing: float = 0.0, axis: int = -1) -> Any:
    """`tf.keras.losses.categorical_focal_crossentropy`: the categorical crossentropy of
    the renormalized, clipped predictions, each class weighted by
    `alpha * (1 - p) ** gamma`."""
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_true, y_pred = _pair(y_true, y_pred)

    def smooth(ls: Any) -> Any:
        num_classes = math_ops.cast(array_ops.shape(y_true)[-1], y_pred.dtype)
        return y_true * (1.0 - ls) + (ls / num_classes)
    y_true = _smooth(y_true, y_pred, label_smoothing, smooth)
    return backend.categorical_focal_crossentropy(y_true, y_pred, alpha=alpha, gamma=gamma,
                                                  from_logits=from_logits, axis=axis)


def _maybe_convert_labels(y_true: Any) -> Any:
    """0/1 labels become -1/1 (hinge losses), other labels are kept."""
    from tf1compat.ops.cond import smart_cond
    are_zeros = math_ops.equal(y_true, 0)
    are_ones = math_ops.equal(y_true, 1)
    is_binary = reduction_ops.reduce_all(math_ops.logical_or(are_zeros, are_ones))
    return smart_cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)


def hinge(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return backend.mean(backend.maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


def squared_hinge(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _maybe_convert_labels(y_true)
    return backend.mean(math_ops.square(backend.maximum(1.0 - y_true * y_pred, 0.0)),
                        axis=-1)


def categorical_hinge(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    pos = reduction_ops.reduce_sum(y_true * y_pred, axis=-1)
    neg = reduction_ops.reduce_max((1.0 - y_true) * y_pred, axis=-1)
    zero = math_ops.cast(0.0, y_pred.dtype)
    return math_ops.maximum(neg - pos + 1.0, zero)


def poisson(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    return backend.mean(y_pred - y_true * math_ops.log(y_pred + backend.epsilon()), axis=-1)


def log_cosh(y_true: Any, y_pred: Any) -> Any:
    from tf1compat.ops import nn_ops
    y_true, y_pred = _pair(y_true, y_pred)

    def _logcosh(x: Any) -> Any:
        return x + nn_ops.softplus(-2.0 * x) - math_ops.cast(math_ops.log(2.0), x.dtype)
    return backend.mean(_logcosh(y_pred - y_true), axis=-1)


def kl_divergence(y_true: Any, y_pred: Any) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = backend.clip(y_true, backend.epsilon(), 1)
    y_pred = backend.clip(y_pred, backend.epsilon(), 1)
    return reduction_ops.reduce_sum(y_true * math_ops.log(y_true / y_pred), axis=-1)


def huber(y_true: Any, y_pred: Any, delta: float = 1.0) -> Any:
    from tf1compat.ops.indexing_ops import where_v2
    y_pred = math_ops.cast(y_pred, backend.floatx())
    y_true = math_ops.cast(y_true, backend.floatx())
    delta = math_ops.cast(delta, backend.floatx())
    error = math_ops.subtract(y_pred, y_true)
    abs_error = math_ops.abs(error)
    half = convert_to_tensor(0.5, dtype=abs_error.dtype)
    return backend.mean(where_v2(abs_error <= delta, half * math_ops.square(error),
                                 delta * abs_error - half * math_ops.square(delta)), axis=-1)


def cosine_similarity(y_true: Any, y_pred: Any, axis: int = -1) -> Any:
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = backend.l2_normalize(y_true, axis=axis)
    y_pred = backend.l2_normalize(y_pred, axis=axis)
    return -reduction_ops.reduce_sum(y_true * y_pred, axis=axis)


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
mape = MAPE = mean_absolute_percentage_error
msle = MSLE = mean_squared_logarithmic_error
kld = KLD = kullback_leibler_divergence = kl_divergence
cosine = cosine_proximity = cosine_similarity
logcosh = log_cosh


# -- loss classes -----------------------------------------------------------------------------

def compute_weighted_loss(losses: Any, sample_weight: Any = None,
                          reduction: str = Reduction.SUM_OVER_BATCH_SIZE,
                          name: Optional[str] = None) -> Any:
    """Weights per-sample losses and reduces them (NONE, SUM, SUM_OVER_BATCH_SIZE)."""
    Reduction.validate(reduction)
    if reduction == Reduction.AUTO:
        reduction = Reduction.SUM_OVER_BATCH_SIZE
    if sample_weight is None:
        sample_weight = 1.0
    with backend.name_scope(name or "weighted_loss"):
        losses = convert_to_tensor(losses)
        input_dtype = losses.dtype
        if not losses.dtype.is_floating:
            losses = math_ops.cast(losses, "float32")
        sample_weight = math_ops.cast(convert_to_tensor(sample_weight), losses.dtype)
        if sample_weight.shape.rank is not None and losses.shape.rank is not None and \
                sample_weight.shape.rank == losses.shape.rank + 1 and \
                sample_weight.shape.as_list()[-1] == 1:
            sample_weight = array_ops.squeeze(sample_weight, [-1])
        weighted = math_ops.multiply(losses, sample_weight)
        if reduction == Reduction.NONE:
            loss = weighted
        else:
            loss = reduction_ops.reduce_sum(weighted)
            if reduction == Reduction.SUM_OVER_BATCH_SIZE:
                count = math_ops.cast(array_ops.size(weighted, name="num_elements"),
                                      loss.dtype)
                loss = math_ops.div_no_nan(loss, count, name="value")
        return math_ops.cast(loss, input_dtype)


def apply_valid_mask(losses: Any, sample_weight: Any, mask: Any, reduction: str) -> Any:
    """Sample weights times the mask; with mean reductions the mask is rescaled by
    total/valid, so the mean is over the unmasked entries (tf-keras's rule)."""
    if mask is None:
        return sample_weight
    mask = math_ops.cast(mask, losses.dtype)
    if reduction in (Reduction.AUTO, Reduction.SUM_OVER_BATCH_SIZE):
        total = math_ops.cast(array_ops.size(mask), losses.dtype)
        valid = reduction_ops.reduce_sum(mask)
        mask = mask * (total / valid)
    if sample_weight is None:
        return mask
    sample_weight = math_ops.cast(sample_weight, losses.dtype)
    from tf1compat.keras.metrics import _squeeze_or_expand
    mask, _, sample_weight = _squeeze_or_expand(mask, sample_weight=sample_weight)
    return sample_weight * mask


def cast_losses_to_common_dtype(losses: Sequence[Any]) -> List[Any]:
    """All floating losses cast to the widest floating dtype among them."""
    highest = None
    for loss in losses:
        if loss.dtype.is_floating:
            if highest is None or loss.dtype.size > highest.size:
                highest = loss.dtype
            elif {loss.dtype.name, highest.name} == {"bfloat16", "float16"}:
                highest = D.float32
        if loss.dtype.is_complex:
            return list(losses)
    if highest is not None:
        losses = [math_ops.cast(loss, highest) for loss in losses]
    return list(losses)


class Loss:
    """Base class: `call(y_true, y_pred)` per-sample losses, reduced by `__call__`."""

    def __init__(self, reduction: str = Reduction.AUTO, name: Optional[str] = None):
        Reduction.validate(reduction)
        self.reduction = reduction
        self.name = name

    def __call__(self, y_true: Any, y_pred: Any, sample_weight: Any = None) -> Any:
        scope = self.name or "lambda"
        with backend.name_scope(scope):
            losses = self.call(y_true, y_pred)
            return compute_weighted_loss(losses, sample_weight, reduction=self.reduction)

    def call(self, y_true: Any, y_pred: Any) -> Any:
        raise NotImplementedError("Must be implemented in subclasses.")

    def get_config(self) -> dict:
        return {"reduction": self.reduction, "name": self.name}

    @classmethod
    def from_config(cls, config: dict) -> "Loss":
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A loss class around a loss function and its keyword arguments."""

    def __init__(self, fn: Callable, reduction: str = Reduction.AUTO,
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(reduction=reduction, name=name)
        self.fn = fn
        self._fn_kwargs = kwargs

    def call(self, y_true: Any, y_pred: Any) -> Any:
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self) -> dict:
        # tf-keras (saving v3, its default) names the function too; from_config drops it
        # for the named classes and looks it up for a bare LossFunctionWrapper.
        return {**super().get_config(), **self._fn_kwargs,
                "fn": get_registered_name(self.fn)}

    @classmethod
    def from_config(cls, config: dict) -> "Loss":
        config = dict(config)
        fn = config.pop("fn", None)
        if fn is not None and cls is LossFunctionWrapper:
            config["fn"] = get(fn)
        return cls(**config)


def _wrapper(cls_name: str, fn: Callable, default_name: str, **defaults: Any) -> type:
    """A LossFunctionWrapper class taking TF's arguments in TF's order: the options in
    `defaults`' order, then reduction and name (all positional or keyword)."""
    names = tuple(defaults) + ("reduction", "name")

    def __init__(self: Any, *args: Any, **kwargs: Any) -> None:
        if len(args) > len(names):
            raise TypeError(f"{cls_name}.__init__() takes at most {len(names)} positional "
                            f"arguments ({len(args)} given)")
        options = dict(defaults, reduction=Reduction.AUTO, name=default_name)
        for key, value in zip(names, args):
            if key in kwargs:
                raise TypeError(f"{cls_name}.__init__() got multiple values for argument "
                                f"'{key}'")
            options[key] = value
        options.update(kwargs)
        reduction, name = options.pop("reduction"), options.pop("name")
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, **options)

    self_param = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    __init__.__signature__ = inspect.Signature(self_param + [
        inspect.Parameter(key, inspect.Parameter.POSITIONAL_OR_KEYWORD, default=value)
        for key, value in dict(defaults, reduction=Reduction.AUTO,
                               name=default_name).items()])
    return type(cls_name, (LossFunctionWrapper,), {"__init__": __init__,
                                                   "__doc__": f"`tf.keras.losses.{cls_name}`"})


MeanSquaredError = _wrapper("MeanSquaredError", mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _wrapper("MeanAbsoluteError", mean_absolute_error, "mean_absolute_error")
MeanAbsolutePercentageError = _wrapper("MeanAbsolutePercentageError",
                                       mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
MeanSquaredLogarithmicError = _wrapper("MeanSquaredLogarithmicError",
                                       mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
BinaryCrossentropy = _wrapper("BinaryCrossentropy", binary_crossentropy, "binary_crossentropy",
                              from_logits=False, label_smoothing=0.0, axis=-1)
CategoricalCrossentropy = _wrapper("CategoricalCrossentropy", categorical_crossentropy,
                                   "categorical_crossentropy", from_logits=False,
                                   label_smoothing=0.0, axis=-1)
SparseCategoricalCrossentropy = _wrapper("SparseCategoricalCrossentropy",
                                         sparse_categorical_crossentropy,
                                         "sparse_categorical_crossentropy", from_logits=False,
                                         ignore_class=None)
Hinge = _wrapper("Hinge", hinge, "hinge")
SquaredHinge = _wrapper("SquaredHinge", squared_hinge, "squared_hinge")
CategoricalHinge = _wrapper("CategoricalHinge", categorical_hinge, "categorical_hinge")
Poisson = _wrapper("Poisson", poisson, "poisson")
LogCosh = _wrapper("LogCosh", log_cosh, "log_cosh")
KLDivergence = _wrapper("KLDivergence", kl_divergence, "kl_divergence")
Huber = _wrapper("Huber", huber, "huber_loss", delta=1.0)
CosineSimilarity = _wrapper("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            axis=-1)
BinaryFocalCrossentropy = _wrapper("BinaryFocalCrossentropy", binary_focal_crossentropy,
                                   "binary_focal_crossentropy", apply_class_balancing=False,
                                   alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1)
CategoricalFocalCrossentropy = _wrapper("CategoricalFocalCrossentropy",
                                        categorical_focal_crossentropy,
                                        "categorical_focal_crossentropy", alpha=0.25, gamma=2.0,
                                        from_logits=False, label_smoothing=0.0, axis=-1)

_HELPERS = ("get", "serialize", "deserialize", "compute_weighted_loss", "apply_valid_mask",
            "cast_losses_to_common_dtype")
_BY_NAME = {name: obj for name, obj in globals().items()
            if name in __all__ and callable(obj) and name not in _HELPERS}


def serialize(loss: Any) -> Any:
    if isinstance(loss, Loss):
        return {"class_name": type(loss).__name__, "config": loss.get_config()}
    return getattr(loss, "__name__", loss)


def deserialize(name: Any, custom_objects: Any = None) -> Any:
    if isinstance(name, dict):
        cls = get_registered_object(name["class_name"], custom_objects, _BY_NAME)
        if cls is None:
            raise ValueError(f"Unknown loss function: '{name['class_name']}'.")
        return cls.from_config(name.get("config", {}))
    fn = get_registered_object(name, custom_objects, _BY_NAME)
    if fn is None:
        raise ValueError(f"Unknown loss function: '{name}'. Please ensure this object is "
                         "passed to the `custom_objects` argument.")
    return fn


def get(identifier: Any) -> Any:
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss function identifier: {identifier}")

# Names of tf-keras's tf.keras.losses that tf1compat lacks raise UnimplementedAPIError.
from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook("keras.losses", globals())
