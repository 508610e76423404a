"""`tf.keras.optimizers`: the Keras optimizers TF1 Keras uses (optimizer_v2.py, legacy.py),
learning-rate schedules, `get`/`serialize`/`deserialize`, and `TFOptimizer`, the wrapper
that lets `compile` take a `tf.train.*Optimizer`."""

# ruff: noqa: F401
from typing import Any, Dict, List, Optional

from tf1compat.keras import backend
from tf1compat.keras.optimizers import legacy
from tf1compat.keras.optimizers import schedules
from tf1compat.keras.optimizers.legacy import (SGD, Adadelta, Adagrad, Adam, Adamax, Ftrl,
                                               Nadam, RMSprop)
from tf1compat.keras.optimizers.optimizer_v2 import OptimizerV2
from tf1compat.training.saving.tracking import Trackable

__all__ = ["Optimizer", "SGD", "RMSprop", "Adagrad", "Adadelta", "Adam", "Adamax", "Nadam",
           "Ftrl", "TFOptimizer", "get", "serialize", "deserialize", "schedules", "legacy"]

Optimizer = OptimizerV2

_BY_NAME = {"adadelta": Adadelta, "adagrad": Adagrad, "adam": Adam, "adamax": Adamax,
            "nadam": Nadam, "rmsprop": RMSprop, "sgd": SGD, "ftrl": Ftrl}


class TFOptimizer(Trackable):
    """A `tf.train.Optimizer` used by Keras: `get_updates` is its compute_gradients +
    apply_gradients with the int64 `iterations` variable as the global step."""

    def __init__(self, optimizer: Any, iterations: Any = None):
        self.optimizer = optimizer
        self._track_trackable(optimizer, name="optimizer")
        if iterations is None:
            with backend.name_scope(type(self).__name__):
                self.iterations = backend.variable(0, dtype="int64", name="iterations")
        else:
            self.iterations = iterations
        self._track_trackable(self.iterations, name="global_step")
        self.updates: List[Any] = []

    def minimize(self, loss: Any, var_list: Any, grad_loss: Any = None, tape: Any = None
                 ) -> None:
        from tf1compat.util import nest
        from tf1compat.autodiff.tape import GradientTape
        if not callable(loss) and tape is None:
            raise ValueError("`tape` is required when a `Tensor` loss is passed.")
        tape = tape if tape is not None else GradientTape()
        if callable(loss):
            with tape:
                if not callable(var_list):
                    tape.watch(var_list)
                loss = loss()
                if callable(var_list):
                    var_list = var_list()
        var_list = nest.flatten(var_list)
        if var_list:
            grads = tape.gradient(loss, var_list, grad_loss)
            self.apply_gradients(list(zip(grads, var_list)))

    def apply_gradients(self, grads_and_vars: Any) -> Any:
        return self.optimizer.apply_gradients(grads_and_vars, global_step=self.iterations)

    def get_grads(self, loss: Any, params: Any) -> Any:
        return self.optimizer.compute_gradients(loss, params)

    def get_updates(self, loss: Any, params: Any) -> List[Any]:
        from tf1compat.ops.state_ops import assign_add
        if not params:
            self.updates = [assign_add(self.iterations, 1)]
            return self.updates
        self.updates = []
        grads = self.optimizer.compute_gradients(loss, params)
        self.updates.append(self.optimizer.apply_gradients(grads,
                                                           global_step=self.iterations))
        return self.updates

    @property
    def weights(self) -> Any:
        raise NotImplementedError

    def get_config(self) -> Dict[str, Any]:
        raise NotImplementedError

    def from_config(self, config: Dict[str, Any]) -> Any:
        raise NotImplementedError


def serialize(optimizer: Any) -> Dict[str, Any]:
    """`{"class_name": "Adam", "config": {...}}`."""
    from tf1compat.keras.utils.serialization import serialize_keras_object
    return serialize_keras_object(optimizer)


# tf-keras's TF2 optimizers (what `tf.keras.optimizers.SGD` is under TF2 behaviour) are
# registered, so saved as "Custom>SGD" with keys the legacy ones lack. TF1 behaviour
# compiles with the legacy optimizer of that name instead (tf-keras's
# `convert_to_legacy_optimizer`: the same config less those keys).
_TF2_OPTIMIZERS = frozenset({"Adadelta", "Adafactor", "Adagrad", "Adam", "Adamax", "AdamW",
                             "Ftrl", "Lion", "Nadam", "RMSprop", "SGD"})
_TF2_ONLY_KEYS = ("weight_decay", "use_ema", "ema_momentum", "ema_overwrite_frequency",
                  "jit_compile", "is_legacy_optimizer")


def _as_legacy_config(config: Dict[str, Any], custom_objects: Any) -> Dict[str, Any]:
    from tf1compat.keras.utils.serialization import get_registered_object
    class_name = config.get("class_name", "")
    package, _, name = class_name.partition(">")
    if package != "Custom" or name not in _TF2_OPTIMIZERS or \
            get_registered_object(class_name, custom_objects) is not None:
        return config
    inner = {k: v for k, v in config.get("config", {}).items() if k not in _TF2_ONLY_KEYS}
    return {"class_name": name.lower(), "config": inner}


def deserialize(config: Dict[str, Any], custom_objects: Optional[Dict[str, Any]] = None,
                **unused: Any) -> OptimizerV2:
    """The optimizer a config stands for (class names are matched case-insensitively;
    tf-keras's TF2 optimizers, "Custom>Adam", as their legacy ones)."""
    from tf1compat.keras.utils.serialization import deserialize_keras_object
    config = _as_legacy_config(dict(config), custom_objects)
    if config["class_name"].lower() in _BY_NAME:
        config["class_name"] = config["class_name"].lower()
    return deserialize_keras_object(config, module_objects=_BY_NAME,
                                    custom_objects=custom_objects,
                                    printable_module_name="optimizer")


def get(identifier: Any, **kwargs: Any) -> Any:
    """An optimizer from a name ('adam'), a config dict, a Keras optimizer (returned as
    is) or a `tf.train.Optimizer` (wrapped in TFOptimizer)."""
    from tf1compat.training.optimizers.optimizer import Optimizer as TrainOptimizer
    kwargs.pop("use_legacy_optimizer", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments: {kwargs}")
    if isinstance(identifier, (OptimizerV2, TFOptimizer)):
        return identifier
    if isinstance(identifier, TrainOptimizer):
        wrapper = TFOptimizer(identifier)
        backend.track_tf_optimizer(wrapper)
        return wrapper
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": str(identifier), "config": {}})
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
