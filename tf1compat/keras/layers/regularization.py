"""Keras regularization layers: GaussianNoise, GaussianDropout, AlphaDropout,
SpatialDropout1D/2D/3D and ActivityRegularization (tf-keras's formulas; random numbers
from TF's seeded stateful ops, the op seed counting up from `seed` per call)."""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.keras import backend, regularizers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.keras.layers import conv_utils
from tf1compat.keras.layers.core import Dropout, LegacySeed
from tf1compat.ops import array_ops, math_ops

__all__ = ["GaussianNoise", "GaussianDropout", "AlphaDropout", "SpatialDropout1D",
           "SpatialDropout2D", "SpatialDropout3D", "ActivityRegularization"]


def _random_normal(shape: Any, mean: float, stddev: Any, dtype: Any, seed: Optional[int]
                   ) -> Any:
    from tf1compat.ops.random_ops import random_normal
    return random_normal(shape, mean=mean, stddev=stddev, dtype=dtype, seed=seed)


class _NoiseLayer(Layer):
    """Shared by the noise layers: a seed counter, masking support, identity shape."""

    def __init__(self, seed: Optional[int] = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.seed = seed
        self._seeds = LegacySeed(seed)
        self.supports_masking = True

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape


class GaussianNoise(_NoiseLayer):
    """Adds zero-centred Gaussian noise of `stddev` in training."""

    def __init__(self, stddev: float, seed: Optional[int] = None, **kwargs: Any):
        super().__init__(seed=seed, **kwargs)
        self.stddev = stddev

    def call(self, inputs: Any, training: Any = None) -> Any:
        def noised() -> Any:
            return inputs + _random_normal(array_ops.shape(inputs), 0.0, self.stddev,
                                           inputs.dtype, self._seeds.next())
        return backend.in_train_phase(noised, inputs, training=training)

    def get_config(self) -> dict:
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(_NoiseLayer):
    """Multiplies by Gaussian noise of mean 1 and stddev sqrt(rate / (1 - rate)) in
    training."""

    def __init__(self, rate: float, seed: Optional[int] = None, **kwargs: Any):
        super().__init__(seed=seed, **kwargs)
        self.rate = rate

    def call(self, inputs: Any, training: Any = None) -> Any:
        if not 0 < self.rate < 1:
            return inputs

        def noised() -> Any:
            stddev = np.sqrt(self.rate / (1.0 - self.rate))
            return inputs * _random_normal(array_ops.shape(inputs), 1.0, stddev,
                                           inputs.dtype, self._seeds.next())
        return backend.in_train_phase(noised, inputs, training=training)

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class AlphaDropout(_NoiseLayer):
    """Dropout that keeps the mean and variance of self-normalizing (SELU) inputs."""

    def __init__(self, rate: float, noise_shape: Any = None, seed: Optional[int] = None,
                 **kwargs: Any):
        super().__init__(seed=seed, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape

    def call(self, inputs: Any, training: Any = None) -> Any:
        from tf1compat.ops.random_ops import random_uniform
        if not 0.0 < self.rate < 1.0:
            return inputs
        rate = self.rate
        shape = self.noise_shape if self.noise_shape else array_ops.shape(inputs)

        def dropped() -> Any:
            alpha = 1.6732632423543772848170429916717
            scale = 1.0507009873554804934193349852946
            alpha_p = -alpha * scale
            kept = math_ops.cast(math_ops.greater_equal(
                random_uniform(shape, dtype=backend.floatx(), seed=self._seeds.next()),
                rate), inputs.dtype)
            a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
            b = -a * alpha_p * rate
            x = inputs * kept + alpha_p * (1 - kept)
            return a * x + b
        return backend.in_train_phase(dropped, inputs, training=training)

    def get_config(self) -> dict:
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}


class _SpatialDropout(Dropout):
    """Dropout of whole feature maps: the noise is shared over the spatial axes."""

    rank = 1

    def __init__(self, rate: float, data_format: Optional[str] = None, **kwargs: Any):
        super().__init__(rate, **kwargs)
        self.input_spec = InputSpec(ndim=self.rank + 2)
        if self.rank > 1:
            self.data_format = conv_utils.normalize_data_format(data_format)

    def _get_noise_shape(self, inputs: Any) -> Any:
        from tf1compat.ops.array_ops import stack
        shape = array_ops.shape(inputs)
        ones = [1] * self.rank
        if self.rank > 1 and self.data_format == "channels_first":
            return stack([shape[0], shape[1]] + ones)
        return stack([shape[0]] + ones + [shape[self.rank + 1]])


class SpatialDropout1D(_SpatialDropout):
    """Drops whole 1D feature maps: (batch, steps, channels)."""

    rank = 1

    def __init__(self, rate: float, **kwargs: Any):
        super().__init__(rate, **kwargs)


class SpatialDropout2D(_SpatialDropout):
    """Drops whole 2D feature maps."""

    rank = 2


class SpatialDropout3D(_SpatialDropout):
    """Drops whole 3D feature maps."""

    rank = 3


class ActivityRegularization(Layer):
    """Adds `l1 * sum(|x|) + l2 * sum(x^2)` of its input to the losses; returns it."""

    def __init__(self, l1: float = 0.0, l2: float = 0.0, **kwargs: Any):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1 = l1
        self.l2 = l2

    def compute_output_shape(self, input_shape: Any) -> Any:
        return input_shape

    def get_config(self) -> dict:
        return {**super().get_config(), "l1": self.l1, "l2": self.l2}
