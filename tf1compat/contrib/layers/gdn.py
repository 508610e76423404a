"""`tf.contrib.layers.GDN` / `gdn` (TF 1.15 contrib/layers/python/layers/layers.py):
generalized divisive normalization (Ballé, Laparra & Simoncelli),
`y[i] = x[i] / sqrt(beta[i] + sum_j gamma[j, i] * x[j]^2)` over the channels (times
instead of divided by with `inverse=True`, the IGDN step).

beta and gamma are stored reparameterized as `reparam_beta` / `reparam_gamma` (their
square roots plus a small pedestal) and bounded from below by a `Maximum` whose gradient
is overridden ("GDNLowerBound": the gradient passes where the input is above the bound
or the gradient pushes it upwards). The channel pool is a 1x1 `VALID` convolution of the
squared inputs with gamma, plus beta.
"""

from __future__ import annotations

from typing import Any, List, Optional

from tf1compat.autodiff.registry import RegisterGradient
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import get_default_graph, name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras.engine.input_spec import InputSpec
from tf1compat.layers.base import Layer
from tf1compat.ops import math_ops, nn_conv, nn_ops
from tf1compat.ops.array_ops import expand_dims, reshape, shape, squeeze
from tf1compat.ops.creation_ops import ones
from tf1compat.ops.matrix_ops import eye

__all__ = ["GDN", "gdn"]


class GDN(Layer):
    """Generalized divisive normalization over the channel axis of rank 3-5 inputs."""

    def __init__(self, inverse: bool = False, beta_min: float = 1e-6, gamma_init: float = .1,
                 reparam_offset: float = 2 ** -18, data_format: str = "channels_last",
                 activity_regularizer: Any = None, trainable: bool = True,
                 name: Optional[str] = None, **kwargs: Any):
        super().__init__(trainable=trainable, name=name,
                         activity_regularizer=activity_regularizer, **kwargs)
        self.inverse = inverse
        self._beta_min = beta_min
        self._gamma_init = gamma_init
        self._reparam_offset = reparam_offset
        self.data_format = data_format
        self._channel_axis()  # an unknown data_format fails here already
        self.input_spec = InputSpec(min_ndim=3, max_ndim=5)

    def _channel_axis(self) -> int:
        axes = {"channels_first": 1, "channels_last": -1}
        if self.data_format not in axes:
            raise ValueError("Unsupported `data_format` for GDN layer: {}.".format(
                self.data_format))
        return axes[self.data_format]

    @staticmethod
    def _lower_bound(inputs: Any, bound: Any, name: Optional[str] = None) -> Tensor:
        """`maximum(inputs, bound)` with the GDNLowerBound gradient."""
        with name_scope(name, "GDNLowerBound", [inputs, bound]) as scope:
            inputs = convert_to_tensor(inputs, name="inputs")
            bound = convert_to_tensor(bound, name="bound")
            with get_default_graph().gradient_override_map({"Maximum": "GDNLowerBound"}):
                return math_ops.maximum(inputs, bound, name=scope)

    @staticmethod
    def _lower_bound_grad(op: Any, grad: Tensor) -> List[Optional[Tensor]]:
        """The gradient passes where the input is at or above the bound, or where it
        would move the input up (grad < 0)."""
        passes = math_ops.logical_or(op.inputs[0] >= op.inputs[1], grad < 0)
        return [math_ops.cast(passes, grad.dtype) * grad, None]

    def build(self, input_shape: Any) -> None:
        channel_axis = self._channel_axis()
        input_shape = TensorShape(input_shape)
        channels = input_shape.dims[channel_axis].value
        if channels is None:
            raise ValueError("The channel dimension of the inputs to `GDN` must be defined.")
        self._input_rank = input_shape.ndims
        self.input_spec = InputSpec(ndim=input_shape.ndims, axes={channel_axis: channels})
        offset = self._reparam_offset
        pedestal = constant(offset ** 2, dtype=self.dtype)
        beta_bound = constant((self._beta_min + offset ** 2) ** .5, dtype=self.dtype)
        gamma_bound = constant(offset, dtype=self.dtype)

        def beta_initializer(shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
            floor = constant(offset ** 2, dtype=self.dtype)
            return math_ops.sqrt(ones(shape, dtype=dtype) + floor)

        def gamma_initializer(shape: Any, dtype: Any = None, partition_info: Any = None) -> Any:
            assert len(shape) == 2 and shape[0] == shape[1]
            identity = eye(shape[0], dtype=dtype)
            floor = constant(offset ** 2, dtype=self.dtype)
            return math_ops.sqrt(self._gamma_init * identity + floor)

        beta = self.add_variable("reparam_beta", shape=[channels],
                                 initializer=beta_initializer, dtype=self.dtype, trainable=True)
        self.beta = math_ops.square(self._lower_bound(beta, beta_bound)) - pedestal
        gamma = self.add_variable("reparam_gamma", shape=[channels, channels],
                                  initializer=gamma_initializer, dtype=self.dtype,
                                  trainable=True)
        self.gamma = math_ops.square(self._lower_bound(gamma, gamma_bound)) - pedestal
        self.built = True

    def call(self, inputs: Any) -> Tensor:
        inputs = convert_to_tensor(inputs, dtype=self.dtype)
        ndim = self._input_rank
        gamma = reshape(self.gamma, (ndim - 2) * [1] + self.gamma.get_shape().as_list())
        if self.data_format == "channels_first":
            pool = nn_conv.convolution(math_ops.square(inputs), gamma, "VALID",
                                       data_format="NC" + "DHW"[-(ndim - 2):])
            if ndim == 3:
                pool = squeeze(nn_ops.bias_add(expand_dims(pool, 2), self.beta,
                                               data_format="NCHW"), [2])
            elif ndim == 5:
                dims = shape(pool)
                # TF adds the list elementwise to the shape slice (as written there).
                pool = reshape(pool, dims[:3] + [-1])
                pool = reshape(nn_ops.bias_add(pool, self.beta, data_format="NCHW"), dims)
            else:
                pool = nn_ops.bias_add(pool, self.beta, data_format="NCHW")
        else:
            pool = nn_conv.convolution(math_ops.square(inputs), gamma, "VALID")
            pool = nn_ops.bias_add(pool, self.beta, data_format="NHWC")
        pool = math_ops.sqrt(pool)
        outputs = inputs * pool if self.inverse else inputs / pool
        outputs.set_shape(inputs.get_shape())
        return outputs

    def compute_output_shape(self, input_shape: Any) -> TensorShape:
        channel_axis = self._channel_axis()
        input_shape = TensorShape(input_shape)
        if not 3 <= input_shape.ndims <= 5:
            raise ValueError("`input_shape` must be of rank 3 to 5, inclusive.")
        if input_shape.dims[channel_axis].value is None:
            raise ValueError("The channel dimension of `input_shape` must be defined.")
        return input_shape


RegisterGradient("GDNLowerBound")(GDN._lower_bound_grad)


def gdn(inputs: Any, inverse: bool = False, beta_min: float = 1e-6, gamma_init: float = .1,
        reparam_offset: float = 2 ** -18, data_format: str = "channels_last",
        activity_regularizer: Any = None, trainable: bool = True, name: Optional[str] = None,
        reuse: Any = None) -> Tensor:
    """`GDN(...)` applied to `inputs` (variables under `name`, shared with `reuse`)."""
    layer = GDN(inverse=inverse, beta_min=beta_min, gamma_init=gamma_init,
                reparam_offset=reparam_offset, data_format=data_format,
                activity_regularizer=activity_regularizer, trainable=trainable, name=name,
                dtype=inputs.dtype.base_dtype, _scope=name, _reuse=reuse)
    return layer.apply(inputs)
