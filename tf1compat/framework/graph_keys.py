"""`tf.GraphKeys`: the standard collection names."""

from __future__ import annotations

import logging
import sys
from typing import Any, Callable

__all__ = ["GraphKeys"]


class _DeprecatedClassProperty:
    """A read-only attribute computed from the class, read on the class and on its
    instances alike (TF's `decorator_utils.classproperty` over `deprecation.deprecated`):
    the first read logs TF's deprecation warning, naming the reading line (TF names its
    decorator's own line). The warning goes to the "tensorflow"
    logger directly because util/deprecation sits above this layer."""

    def __init__(self, getter: Callable[[type], Any], instructions: str) -> None:
        self._getter = getter
        self._instructions = instructions
        self._warned = False
        self.__doc__ = getter.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self._name = f"{owner.__name__}.{name}"

    def __get__(self, instance: Any, owner: type) -> Any:
        if not self._warned:
            self._warned = True
            caller = sys._getframe(1)
            logging.getLogger("tensorflow").warning(
                "From %s: %s (from tensorflow.python.framework.ops) is deprecated and will "
                "be removed in a future version.\nInstructions for updating:\n%s",
                f"{caller.f_code.co_filename}:{caller.f_lineno}", self._name, self._instructions)
        return self._getter(owner)


class GraphKeys:
    """TF1's standard collection names."""
    GLOBAL_VARIABLES = "variables"
    LOCAL_VARIABLES = "local_variables"
    METRIC_VARIABLES = "metric_variables"
    MODEL_VARIABLES = "model_variables"
    TRAINABLE_VARIABLES = "trainable_variables"
    SUMMARIES = "summaries"
    QUEUE_RUNNERS = "queue_runners"
    TABLE_INITIALIZERS = "table_initializer"
    ASSET_FILEPATHS = "asset_filepaths"
    MOVING_AVERAGE_VARIABLES = "moving_average_variables"
    REGULARIZATION_LOSSES = "regularization_losses"
    CONCATENATED_VARIABLES = "concatenated_variables"
    SAVERS = "savers"
    WEIGHTS = "weights"
    BIASES = "biases"
    ACTIVATIONS = "activations"
    UPDATE_OPS = "update_ops"
    LOSSES = "losses"
    SAVEABLE_OBJECTS = "saveable_objects"
    RESOURCES = "resources"
    LOCAL_RESOURCES = "local_resources"
    TRAINABLE_RESOURCE_VARIABLES = "trainable_resource_variables"
    INIT_OP = "init_op"
    LOCAL_INIT_OP = "local_init_op"
    READY_OP = "ready_op"
    READY_FOR_LOCAL_INIT_OP = "ready_for_local_init_op"
    SUMMARY_OP = "summary_op"
    GLOBAL_STEP = "global_step"
    EVAL_STEP = "eval_step"
    TRAIN_OP = "train_op"
    COND_CONTEXT = "cond_context"
    WHILE_CONTEXT = "while_context"
    _SUMMARY_COLLECTION = "_SUMMARY_V2"
    _VARIABLE_COLLECTIONS = [
        GLOBAL_VARIABLES, LOCAL_VARIABLES, METRIC_VARIABLES, MODEL_VARIABLES,
        TRAINABLE_VARIABLES, MOVING_AVERAGE_VARIABLES, CONCATENATED_VARIABLES,
        TRAINABLE_RESOURCE_VARIABLES]
    _STREAMING_MODEL_PORTS = "streaming_model_ports"

    # TF 1.x's deprecated alias: a string on the class (`tf.GraphKeys.VARIABLES` names
    # the "variables" collection), not a method.
    VARIABLES = _DeprecatedClassProperty(lambda cls: cls.GLOBAL_VARIABLES,
                                         "Use `tf.GraphKeys.GLOBAL_VARIABLES` instead.")
