"""TF 2's initializers (`tf.compat.v2.zeros_initializer`, `tf.compat.v2.keras.initializers.*`),
as TF 1.15 shipped them beside TF 1's (its ops/init_ops_v2.py).

They compute what TF 1's do (init_ops.py: the classes here are TF 1's with TF 2's
constructors), with three differences TF 2 made: no `dtype` at construction (`__call__(shape,
dtype=float32)`), TF 2's defaults (random normal and uniform of scale 0.05, not 1), and a
seeded initializer draws from the stateless random ops with the seed `[seed, 0]` (unseeded
ones draw from the stateful ops as TF 1's do). `Constant` takes its dtype from the value
unless one is given and, as TF 2's `tf.constant`, reshapes a value of as many elements or
broadcasts a single one (no padding).
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant_v2
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import random_extra_ops
from tf1compat.variables import init_ops

__all__ = ["Initializer", "Zeros", "Ones", "Constant", "RandomUniform", "RandomNormal",
           "TruncatedNormal", "VarianceScaling", "Orthogonal", "Identity", "GlorotUniform",
           "GlorotNormal", "lecun_normal", "lecun_uniform", "he_normal", "he_uniform"]

_STATELESS = {"uniform": random_extra_ops.stateless_random_uniform,
              "normal": random_extra_ops.stateless_random_normal,
              "truncated_normal": random_extra_ops.stateless_truncated_normal}


class Initializer(init_ops.Initializer):
    """TF 2's initializer base: `__call__(shape, dtype=float32)`; a seeded one draws
    stateless random numbers."""

    def _random(self, kind: str, shape: Any, a: Any, b: Any, dtype: Any) -> Tensor:
        seed = getattr(self, "seed", None)
        if not seed:                # TF 2 tests the seed's truth: 0 draws statefully too
            return super()._random(kind, shape, a, b, dtype)
        return _STATELESS[kind](shape, [seed, 0], a, b, dtype)

    def get_config(self) -> dict:
        config = super().get_config()
        config.pop("dtype", None)
        return config


class Zeros(Initializer, init_ops.Zeros):
    """TF 2's `tf.zeros_initializer()`."""

    def __init__(self) -> None:
        init_ops.Zeros.__init__(self)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.Zeros.__call__(self, shape, dtype)


class Ones(Initializer, init_ops.Ones):
    """TF 2's `tf.ones_initializer()`."""

    def __init__(self) -> None:
        init_ops.Ones.__init__(self)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.Ones.__call__(self, shape, dtype)


class Constant(Initializer, init_ops.Constant):
    """TF 2's `tf.constant_initializer(value=0)`: the value's own dtype unless one is given;
    a value of more than one element must have as many as the variable."""

    def __init__(self, value: Any = 0) -> None:
        init_ops.Constant.__init__(self, value)

    def __call__(self, shape: Any, dtype: Any = None) -> Tensor:
        return constant_v2(self.value, dtype=None if dtype is None else D.as_dtype(dtype),
                           shape=shape)

    def get_config(self) -> dict:
        return {"value": self.value}


class RandomUniform(Initializer, init_ops.RandomUniform):
    """TF 2's `tf.random_uniform_initializer(minval=-0.05, maxval=0.05)`."""

    def __init__(self, minval: Any = -0.05, maxval: Any = 0.05,
                 seed: Optional[int] = None) -> None:
        init_ops.RandomUniform.__init__(self, minval, maxval, seed)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.RandomUniform.__call__(self, shape, dtype)


class RandomNormal(Initializer, init_ops.RandomNormal):
    """TF 2's `tf.random_normal_initializer(mean=0, stddev=0.05)`."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 0.05, seed: Optional[int] = None) -> None:
        init_ops.RandomNormal.__init__(self, mean, stddev, seed)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.RandomNormal.__call__(self, shape, dtype)


class TruncatedNormal(Initializer, init_ops.TruncatedNormal):
    """TF 2's `tf.initializers.TruncatedNormal(mean=0, stddev=0.05)`."""

    def __init__(self, mean: Any = 0.0, stddev: Any = 0.05, seed: Optional[int] = None) -> None:
        init_ops.TruncatedNormal.__init__(self, mean, stddev, seed)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.TruncatedNormal.__call__(self, shape, dtype)


class VarianceScaling(Initializer, init_ops.VarianceScaling):
    """TF 2's `tf.initializers.VarianceScaling(scale=1, mode="fan_in",
    distribution="truncated_normal")`."""

    def __init__(self, scale: float = 1.0, mode: str = "fan_in",
                 distribution: str = "truncated_normal", seed: Optional[int] = None) -> None:
        if distribution.lower() == "normal":       # TF 2 names it by what it draws
            distribution = "truncated_normal"
        init_ops.VarianceScaling.__init__(self, scale, mode, distribution, seed)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.VarianceScaling.__call__(self, shape, dtype)


class Orthogonal(Initializer, init_ops.Orthogonal):
    """TF 2's `tf.initializers.Orthogonal(gain=1)`."""

    def __init__(self, gain: float = 1.0, seed: Optional[int] = None) -> None:
        init_ops.Orthogonal.__init__(self, gain, seed)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.Orthogonal.__call__(self, shape, dtype)


class Identity(Initializer, init_ops.Identity):
    """TF 2's `tf.initializers.Identity(gain=1)`."""

    def __init__(self, gain: float = 1.0) -> None:
        init_ops.Identity.__init__(self, gain)

    def __call__(self, shape: Any, dtype: Any = D.float32) -> Tensor:
        return init_ops.Identity.__call__(self, shape, dtype)


class GlorotUniform(VarianceScaling):
    """TF 2's `tf.initializers.GlorotUniform()`."""

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(1.0, "fan_avg", "uniform", seed)

    def get_config(self) -> dict:
        return {"seed": self.seed}


class GlorotNormal(VarianceScaling):
    """TF 2's `tf.initializers.GlorotNormal()`."""

    def __init__(self, seed: Optional[int] = None) -> None:
        super().__init__(1.0, "fan_avg", "truncated_normal", seed)

    def get_config(self) -> dict:
        return {"seed": self.seed}


def lecun_normal(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(1.0, "fan_in", "truncated_normal", seed)


def lecun_uniform(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(1.0, "fan_in", "uniform", seed)


def he_normal(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(2.0, "fan_in", "truncated_normal", seed)


def he_uniform(seed: Optional[int] = None) -> VarianceScaling:
    return VarianceScaling(2.0, "fan_in", "uniform", seed)
