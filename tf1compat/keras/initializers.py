"""`tf.keras.initializers` (TF1): the `tf.*_initializer` classes under Keras' names, with
Keras' own defaults for the random ones (RandomUniform in +-0.05, RandomNormal and
TruncatedNormal with stddev 0.05), and `get` resolving strings such as 'glorot_uniform'."""

from __future__ import annotations

import inspect
from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.keras.engine.base_layer import to_snake_case
from tf1compat.variables import init_ops
from tf1compat.variables.init_ops import Initializer
from tf1compat.keras.utils.serialization import get_registered_object

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
           "TruncatedNormal", "VarianceScaling", "Orthogonal", "Identity", "GlorotUniform",
           "GlorotNormal", "HeNormal", "HeUniform", "LecunNormal", "LecunUniform",
           "zeros", "ones", "constant", "uniform", "normal", "random_uniform",
           "random_normal", "truncated_normal", "orthogonal", "identity", "glorot_uniform",
           "glorot_normal", "he_normal", "he_uniform", "lecun_normal", "lecun_uniform",
           "get", "serialize", "deserialize"]

Zeros = zeros = init_ops.Zeros
Ones = ones = init_ops.Ones
Constant = constant = init_ops.Constant
VarianceScaling = init_ops.VarianceScaling
Orthogonal = orthogonal = init_ops.Orthogonal
Identity = identity = init_ops.Identity
GlorotUniform = glorot_uniform = init_ops.GlorotUniform
GlorotNormal = glorot_normal = init_ops.GlorotNormal


class RandomNormal(init_ops.RandomNormal):
    """`tf.keras.initializers.RandomNormal(mean=0, stddev=0.05)`."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


class RandomUniform(init_ops.RandomUniform):
    """`tf.keras.initializers.RandomUniform(minval=-0.05, maxval=0.05)`."""

    def __init__(self, minval: float = -0.05, maxval: float = 0.05, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        super().__init__(minval=minval, maxval=maxval, seed=seed, dtype=dtype)


class TruncatedNormal(init_ops.TruncatedNormal):
    """`tf.keras.initializers.TruncatedNormal(mean=0, stddev=0.05)`."""

    def __init__(self, mean: float = 0.0, stddev: float = 0.05, seed: Optional[int] = None,
                 dtype: Any = D.float32):
        super().__init__(mean=mean, stddev=stddev, seed=seed, dtype=dtype)


def _scaling(name: str, scale: float, distribution: str) -> type:
    def __init__(self: Any, seed: Optional[int] = None) -> None:
        init_ops.VarianceScaling.__init__(self, scale=scale, mode="fan_in",
                                          distribution=distribution, seed=seed)

    def get_config(self: Any) -> dict:
        return {"seed": self.seed}
    return type(name, (init_ops.VarianceScaling,), {"__init__": __init__,
                                                    "get_config": get_config,
                                                    "__doc__": f"`{name}` (fan_in scaling)."})


HeNormal = he_normal = _scaling("HeNormal", 2.0, "truncated_normal")
HeUniform = he_uniform = _scaling("HeUniform", 2.0, "uniform")
LecunNormal = lecun_normal = _scaling("LecunNormal", 1.0, "truncated_normal")
LecunUniform = lecun_uniform = _scaling("LecunUniform", 1.0, "uniform")
random_normal = normal = RandomNormal
random_uniform = uniform = RandomUniform
truncated_normal = TruncatedNormal

_BY_NAME = {"Constant": Constant, "GlorotNormal": GlorotNormal, "GlorotUniform": GlorotUniform,
            "Identity": Identity, "Ones": Ones, "Orthogonal": Orthogonal,
            "VarianceScaling": VarianceScaling, "Zeros": Zeros, "HeNormal": HeNormal,
            "HeUniform": HeUniform, "LecunNormal": LecunNormal, "LecunUniform": LecunUniform,
            "RandomNormal": RandomNormal, "RandomUniform": RandomUniform,
            "TruncatedNormal": TruncatedNormal}
_BY_NAME.update({to_snake_case(k): v for k, v in list(_BY_NAME.items())})
_BY_NAME.update({"normal": RandomNormal, "uniform": RandomUniform, "one": Ones, "zero": Zeros})


def serialize(initializer: Any) -> Any:
    if initializer is None:
        return None
    return {"class_name": type(initializer).__name__, "config": initializer.get_config()}


def deserialize(config: Any, custom_objects: Any = None) -> Any:
    name = config["class_name"]
    cls = get_registered_object(name, custom_objects, _BY_NAME)
    if cls is None:
        raise ValueError(f"Unknown initializer: '{name}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included "
                         "in the scope. See "
                         "https://www.tensorflow.org/guide/keras/save_and_serialize"
                         "#registering_the_custom_object for details.")
    return cls(**config.get("config", {}))


def get(identifier: Any) -> Any:
    """An initializer from None, a name ('glorot_uniform'), a config dict, a class or a
    callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        return deserialize(identifier)
    if isinstance(identifier, str):
        return deserialize({"class_name": identifier, "config": {}})
    if callable(identifier):
        return identifier() if inspect.isclass(identifier) else identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")

