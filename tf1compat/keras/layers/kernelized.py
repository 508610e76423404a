"""`tf.keras.layers.experimental.RandomFourierFeatures`: `cos(x W / scale + b)`, a random
feature map approximating a Gaussian or Laplacian kernel (Rahimi & Recht). Weights
unscaled_kernel (normal or Cauchy draws, not trainable), bias (uniform in [0, 2 pi), not
trainable) and kernel_scale (trainable, non-negative).
"""

from __future__ import annotations

from typing import Any, Optional

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import initializers
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.ops import linalg_ops, math_ops
from tf1compat.ops.nn_ops import bias_add

__all__ = ["RandomFourierFeatures"]

_SUPPORTED_RBF_KERNEL_TYPES = ["gaussian", "laplacian"]


def _random_features_initializer(initializer: Any, shape: tuple) -> Any:
    if not isinstance(initializer, str):
        return initializer
    if initializer.lower() == "gaussian":
        return initializers.RandomNormal(stddev=1.0)
    if initializer.lower() == "laplacian":
        # Cauchy samples, drawn with numpy's global generator as tf-keras does.
        probs = np.random.uniform(low=0.0, high=1.0, size=shape)
        return initializers.Constant(np.tan(np.pi * (probs - 0.5)))
    raise ValueError(f'Unsupported `kernel_initializer`: "{initializer}" Expected one of: '
                     f"{_SUPPORTED_RBF_KERNEL_TYPES}")


class RandomFourierFeatures(Layer):
    """Projects inputs [batch, d] to `output_dim` random Fourier features."""

    def __init__(self, output_dim: int, kernel_initializer: Any = "gaussian",
                 scale: Optional[float] = None, trainable: bool = False,
                 name: Optional[str] = None, **kwargs: Any):
        if output_dim <= 0:
            raise ValueError(f"`output_dim` should be a positive integer. Received: "
                             f"{output_dim}")
        if isinstance(kernel_initializer, str) and \
                kernel_initializer.lower() not in _SUPPORTED_RBF_KERNEL_TYPES:
            raise ValueError(f"Unsupported `kernel_initializer`: {kernel_initializer} "
                             f"Expected one of: {_SUPPORTED_RBF_KERNEL_TYPES}")
        if scale is not None and scale <= 0.0:
            raise ValueError(f"When provided, `scale` should be a positive float. Received: "
                             f"{scale}")
        super().__init__(trainable=trainable, name=name, **kwargs)
        self.output_dim = output_dim
        self.kernel_initializer = kernel_initializer
        self.scale = scale

    def build(self, input_shape: Any) -> None:
        input_shape = TensorShape(input_shape)
        if input_shape.rank != 2:
            raise ValueError(f"The rank of the input tensor should be 2. Received input with "
                             f"rank {input_shape.ndims} instead. Full input shape received: "
                             f"{input_shape}")
        if input_shape.dims[1].value is None:
            raise ValueError("The last dimension of the input tensor should be defined. Found "
                             f"`None`. Full input shape received: {input_shape}")
        input_dim = input_shape.dims[1].value
        self.input_spec = InputSpec(ndim=2, axes={1: input_dim})
        self.unscaled_kernel = self.add_weight(
            name="unscaled_kernel", shape=(input_dim, self.output_dim), dtype=D.float32,
            initializer=_random_features_initializer(self.kernel_initializer,
                                                     (input_dim, self.output_dim)),
            trainable=False)
        self.bias = self.add_weight(
            name="bias", shape=(self.output_dim,), dtype=D.float32,
            initializer=initializers.RandomUniform(minval=0.0, maxval=2 * np.pi),
            trainable=False)
        if self.scale is None:
            gaussian = isinstance(self.kernel_initializer, str) and \
                self.kernel_initializer.lower() == "gaussian"
            self.scale = np.sqrt(input_dim / 2.0) if gaussian else 1.0
        self.kernel_scale = self.add_weight(
            name="kernel_scale", shape=(1,), dtype=D.float32,
            initializer=initializers.Constant(self.scale), trainable=True,
            constraint="NonNeg")
        self.built = True

    def call(self, inputs: Any) -> Any:
        inputs = math_ops.cast(convert_to_tensor(inputs, dtype=self.dtype), D.float32)
        kernel = (1.0 / self.kernel_scale) * self.unscaled_kernel
        outputs = bias_add(linalg_ops.matmul(inputs, kernel), self.bias)
        return math_ops.cos(outputs)

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        input_shape = TensorShape(input_shape).with_rank(2)
        if input_shape.dims[-1].value is None:
            raise ValueError("The last dimension of the input tensor should be defined. Found "
                             f"`None`. Full input shape received: {input_shape}")
        return input_shape[:-1].concatenate(self.output_dim)

    def get_config(self) -> dict:
        kernel_initializer = self.kernel_initializer
        if not isinstance(kernel_initializer, str):
            kernel_initializer = initializers.serialize(kernel_initializer)
        config = {"output_dim": self.output_dim, "kernel_initializer": kernel_initializer,
                  "scale": self.scale}
        base = super().get_config()
        return dict(list(base.items()) + list(config.items()))
