"""What `Model.compile` resolves (tf-keras's v1 rules): one `TrainingEndpoint` per model
output (its loss function, loss weight, target placeholder `<output>_target`, sample
weight placeholder `<output>_sample_weights` when weights are fed), and the metrics of
each output with tf-keras's display names.

Names: `'acc'`/`'accuracy'` show as `acc` and `'crossentropy'`/`'ce'` as `ce`, and resolve
to binary, sparse-categorical or categorical accuracy (crossentropy) from the output
shape and the loss; other metrics show as their function's or object's name
(`'mae'` -> `mean_absolute_error`); weighted metrics get a `weighted_` prefix; with
several outputs names are prefixed by the output name (`dense_1_acc`) and made unique.
"""

from __future__ import annotations

import collections
import collections.abc
import inspect
from typing import Any, Dict, List, Optional, Sequence

from tf1compat.util import tf_logging as logging
from tf1compat.keras import backend
from tf1compat.keras import losses as losses_module
from tf1compat.keras import metrics as metrics_module
from tf1compat.keras.utils.generic_utils import check_for_unexpected_keys, to_list

__all__ = ["TrainingEndpoint", "prepare_loss_functions", "get_loss_function",
           "prepare_loss_weights", "prepare_sample_weight_modes",
           "collect_per_output_metric_info", "get_metric_name", "get_metric_function",
           "call_metric_function", "is_sparse_categorical", "clone_metric"]

_ACCURACY = ("accuracy", "acc")
_CROSSENTROPY = ("crossentropy", "ce")


def _wraps(loss_fn: Any, fn: Any) -> bool:
    return isinstance(loss_fn, losses_module.LossFunctionWrapper) and loss_fn.fn is fn


def is_sparse_categorical(loss_fn: Any) -> bool:
    return isinstance(loss_fn, losses_module.SparseCategoricalCrossentropy) or \
        _wraps(loss_fn, losses_module.sparse_categorical_crossentropy)


def _is_binary_crossentropy(loss_fn: Any) -> bool:
    return isinstance(loss_fn, losses_module.BinaryCrossentropy) or \
        _wraps(loss_fn, losses_module.binary_crossentropy)


class TrainingEndpoint:
    """One model output with its loss, loss weight, target and sample weight."""

    def __init__(self, output: Any, output_name: str, loss_fn: Any):
        self.output = output
        self.output_name = output_name
        self.loss_fn = loss_fn
        self.loss_weight: Any = None
        self.target: Any = None
        self.feedable = False
        self.skip_target_weights = True
        self.has_target = False
        self.output_loss_metric: Any = None
        self.sample_weight: Any = None
        self.sample_weight_mode: Optional[str] = None

    @property
    def shape(self) -> Any:
        return backend.int_shape(self.output)

    def create_training_target(self, target: Any, run_eagerly: bool = False) -> None:
        """The target placeholder `<output name>_target` (or the given target tensor)."""
        if self.has_target:
            raise ValueError("The training_target field for the _TrainingEndpoint instance "
                             "has already been populated")
        self.has_target = True
        if run_eagerly:
            self.feedable, self.skip_target_weights = True, False
            return
        if self.should_skip_target():
            return
        if target is not None and not backend.is_placeholder(target):
            self.feedable, self.skip_target_weights = False, True
        else:
            self.feedable, self.skip_target_weights = True, False
        if target is None:
            target = backend.placeholder(ndim=len(self.shape),
                                         name=self.output_name + "_target",
                                         sparse=backend.is_sparse(self.output),
                                         dtype=backend.dtype(self.output))
        self.target = target

    def should_skip_target(self) -> bool:
        return self.loss_fn is None

    def should_skip_target_weights(self) -> bool:
        return self.should_skip_target() or not self.has_target or self.skip_target_weights

    def has_feedable_training_target(self) -> bool:
        return not self.should_skip_target() and self.has_target and self.feedable

    def loss_name(self) -> Optional[str]:
        return self.output_name + "_loss" if self.loss_fn is not None else None

    @property
    def feed_output_shape(self) -> Any:
        """The shape the fed target must have (checked by `check_loss_and_target_...`)."""
        if not self.has_feedable_training_target():
            return None
        if is_sparse_categorical(self.loss_fn):
            if backend.image_data_format() == "channels_first":
                return (self.shape[0], 1) + self.shape[2:]
            return self.shape[:-1] + (1,)
        if not isinstance(self.loss_fn, losses_module.Loss) or (
                isinstance(self.loss_fn, losses_module.LossFunctionWrapper) and
                getattr(losses_module, self.loss_fn.fn.__name__, None) is None):
            return None
        return self.shape

    def sample_weights_mismatch(self) -> bool:
        return (self.sample_weight_mode is not None and self.sample_weight is None) or \
            (self.sample_weight_mode is None and self.sample_weight is not None)

    def populate_sample_weight(self, sample_weight: Any, sample_weight_mode: Optional[str]
                               ) -> None:
        """A `<output>_sample_weights` PlaceholderWithDefault of ones (shape [None], or
        [None, None] for "temporal"), or the given weight tensor."""
        from tf1compat.framework.context import executing_eagerly
        if sample_weight is None and (self.should_skip_target_weights() or
                                      sample_weight_mode is None or executing_eagerly()):
            self.sample_weight = None
            return
        if sample_weight_mode not in ("temporal", "samplewise"):
            raise ValueError(f"Unexpected sample_weight_mode: {sample_weight_mode}")
        default, shape = ([[1.0]], [None, None]) if sample_weight_mode == "temporal" else \
            ([1.0], [None])
        if sample_weight is not None:
            if not sample_weight.shape.is_compatible_with(shape):
                raise ValueError(f"Received sample weight with shape {sample_weight.shape}. "
                                 f"Expected shape {shape}.")
            self.sample_weight = sample_weight
            return
        from tf1compat.framework.constant_op import constant
        from tf1compat.ops.array_ops import placeholder_with_default
        self.sample_weight = placeholder_with_default(
            constant(default, dtype=backend.floatx()), shape=shape,
            name=self.output_name + "_sample_weights")


def get_loss_function(loss: Any) -> Any:
    """A loss object for `compile`'s loss (names and functions are wrapped, reduced as
    SUM_OVER_BATCH_SIZE)."""
    if loss is None or isinstance(loss, losses_module.Loss):
        return loss
    if inspect.isclass(loss) and issubclass(loss, losses_module.Loss):
        raise ValueError(f"Received uninstantiated Loss class: {loss}\nPlease call loss "
                         "classes before passing them to Model.compile.")
    if isinstance(loss, collections.abc.Mapping):
        loss = losses_module.get(loss)
    if callable(loss) and not hasattr(loss, "__name__"):
        return loss
    loss_fn = losses_module.get(loss)
    return losses_module.LossFunctionWrapper(
        loss_fn, name=loss_fn.__name__,
        reduction=losses_module.Reduction.SUM_OVER_BATCH_SIZE)


def prepare_loss_functions(loss: Any, output_names: Sequence[str]) -> List[Any]:
    """One loss per output from a single loss, a list, or a dict by output name."""
    if isinstance(loss, collections.abc.Mapping):
        check_for_unexpected_keys("loss", loss, output_names)
        functions = []
        for name in output_names:
            if name not in loss:
                logging.warning(f"Output {name} missing from loss dictionary. We assume this "
                                "was done on purpose. The fit and evaluate APIs will not be "
                                f"expecting any data to be passed to {name}.")
            functions.append(get_loss_function(loss.get(name, None)))
        return functions
    if isinstance(loss, str):
        return [get_loss_function(loss) for _ in output_names]
    if isinstance(loss, collections.abc.Sequence):
        if len(loss) != len(output_names):
            raise ValueError("When passing a list as loss, it should have one entry per model "
                             f"outputs. The model has {len(output_names)} outputs, but you "
                             f"passed loss={loss}")
        return [get_loss_function(x) for x in loss]
    return [get_loss_function(loss) for _ in output_names]


def prepare_loss_weights(endpoints: Sequence[TrainingEndpoint], loss_weights: Any = None
                         ) -> None:
    if loss_weights is None:
        for e in endpoints:
            e.loss_weight = 1.0
    elif isinstance(loss_weights, collections.abc.Mapping):
        check_for_unexpected_keys("loss_weights", loss_weights,
                                  [e.output_name for e in endpoints])
        for e in endpoints:
            e.loss_weight = loss_weights.get(e.output_name, 1.0)
    elif isinstance(loss_weights, list):
        if len(loss_weights) != len(endpoints):
            raise ValueError("When passing a list as loss_weights, it should have one entry "
                             f"per model output. The model has {len(endpoints)} outputs, but "
                             f"you passed loss_weights={loss_weights}")
        for w, e in zip(loss_weights, endpoints):
            e.loss_weight = w
    else:
        raise TypeError(f"Could not interpret loss_weights argument: {loss_weights} - "
                        "expected a list of dicts.")


def prepare_sample_weight_modes(endpoints: Sequence[TrainingEndpoint],
                                sample_weight_mode: Any) -> None:
    if isinstance(sample_weight_mode, collections.abc.Mapping):
        check_for_unexpected_keys("sample_weight_mode", sample_weight_mode,
                                  [e.output_name for e in endpoints])
        for e in endpoints:
            if e.should_skip_target_weights():
                continue
            if e.output_name not in sample_weight_mode:
                raise ValueError(f"Output {e.output_name}missing from `_sample_weight_modes` "
                                 "dictionary")
            e.sample_weight_mode = sample_weight_mode.get(e.output_name)
    elif isinstance(sample_weight_mode, (list, tuple)):
        if len(sample_weight_mode) != len(endpoints):
            raise ValueError("When passing a list as sample_weight_mode, it should have one "
                             f"entry per model output. The model has {len(endpoints)} "
                             f"outputs, but you passed {len(sample_weight_mode)}"
                             "_sample_weight_modes.")
        for mode, e in zip(sample_weight_mode, endpoints):
            if not e.should_skip_target_weights():
                e.sample_weight_mode = mode
    else:
        for e in endpoints:
            if not e.should_skip_target_weights():
                e.sample_weight_mode = sample_weight_mode


def get_metric_name(metric: Any, weighted: bool = False) -> str:
    """The display name of a compile metric (`acc`, `mean_absolute_error`, ...)."""
    prefix = "weighted_" if weighted else ""
    if metric in _ACCURACY:
        return prefix + "acc"
    if metric in _CROSSENTROPY:
        return prefix + "ce"
    fn = metrics_module.get(metric)
    return prefix + (fn.name if hasattr(fn, "name") else fn.__name__)


def get_metric_function(metric: Any, output_shape: Any = None, loss_fn: Any = None) -> Any:
    """The metric function or object; accuracy/crossentropy pick their variant from the
    output shape and the loss."""
    if metric not in _ACCURACY + _CROSSENTROPY:
        return metrics_module.get(metric)
    binary = output_shape[-1] == 1 or _is_binary_crossentropy(loss_fn)
    if metric in _ACCURACY:
        if binary:
            return metrics_module.binary_accuracy
        if is_sparse_categorical(loss_fn):
            return metrics_module.sparse_categorical_accuracy
        return metrics_module.categorical_accuracy
    if binary:
        return metrics_module.binary_crossentropy
    if is_sparse_categorical(loss_fn):
        return metrics_module.sparse_categorical_crossentropy
    return metrics_module.categorical_crossentropy


def clone_metric(metric: Any) -> Any:
    """A fresh copy of a Metric object (functions are returned as they are)."""
    if isinstance(metric, metrics_module.Metric):
        from tf1compat.variables.variables import init_scope
        with init_scope():
            return type(metric).from_config(metric.get_config())
    return metric


def collect_per_output_metric_info(metrics: Any, output_names: Sequence[str],
                                   output_shapes: Sequence[Any], loss_fns: Sequence[Any],
                                   is_weighted: bool = False) -> List[Dict[str, Any]]:
    """Per output, an ordered {display name: Metric object} (functions are wrapped in
    MeanMetricWrapper)."""
    if not metrics:
        return [{} for _ in output_names]
    if isinstance(metrics, list):
        if any(isinstance(m, list) for m in metrics):
            if len(metrics) != len(output_names):
                raise ValueError("When passing a list of lists as `metrics`, it should have "
                                 "one entry per model output. The model has "
                                 f"{len(output_names)} outputs, but you passed "
                                 f"metrics={metrics}")
            nested = [to_list(m) for m in metrics]
        elif len(output_names) > 1:
            nested = [[clone_metric(m) for m in metrics] for _ in output_names]
        else:
            nested = [metrics]
    elif isinstance(metrics, collections.abc.Mapping):
        check_for_unexpected_keys("metrics", metrics, output_names)
        nested = [to_list(metrics.get(name, [])) for name in output_names]
    else:
        raise TypeError("Type of `metrics` argument not understood. Expected a list or "
                        f"dictionary, found: {metrics}")
    per_output = []
    for i, output_metrics in enumerate(nested):
        by_name: Dict[str, Any] = collections.OrderedDict()
        for metric in output_metrics:
            name = get_metric_name(metric, is_weighted)
            fn = get_metric_function(metric, output_shape=output_shapes[i],
                                     loss_fn=loss_fns[i])
            if not isinstance(fn, metrics_module.Metric):
                fn = metrics_module.MeanMetricWrapper(fn, name=name)
            by_name[name] = fn
        per_output.append(by_name)
    return per_output


def call_metric_function(metric_fn: Any, y_true: Any, y_pred: Any = None,
                         weights: Any = None, mask: Any = None) -> Any:
    """Updates the metric and returns its result tensor (masks multiply the weights)."""
    from tf1compat.ops.math_ops import cast
    if mask is not None:
        mask = cast(mask, y_pred.dtype)
        if weights is None:
            weights = mask
        else:
            weights = cast(weights, dtype=y_pred.dtype)
            mask, _, weights = metrics_module._squeeze_or_expand(mask, sample_weight=weights)
            weights = weights * mask
    if y_pred is not None:
        return metric_fn(y_true, y_pred, sample_weight=weights)
    return metric_fn(y_true, sample_weight=weights)

