"""Normalizing-flow bijectors of `tf.contrib.distributions.bijectors`:
MaskedAutoregressiveFlow (with `masked_dense` and `masked_autoregressive_default_template`,
the MADE network) and RealNVP (with `real_nvp_default_template`). The templates create
their variables through `tf.make_template` and `tf.layers.dense`, as TF 1.x does, so
variable names and checkpoints match."""

from __future__ import annotations

from typing import Any, Callable, List, Optional, Tuple

import numpy as np

from tf1compat.contrib.distributions.bijectors.bijector import Bijector
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import name_scope
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import dimension_value
from tf1compat.layers.layers import dense
from tf1compat.ops import array_ops, math_ops, nn_ops
from tf1compat.ops.creation_ops import zeros_like
from tf1compat.ops.reduction_ops import clip_by_value, reduce_sum
from tf1compat.ops.while_loop import while_loop
from tf1compat.variables.init_ops import glorot_normal_initializer
from tf1compat.variables.templates import make_template

__all__ = ["MaskedAutoregressiveFlow", "masked_dense", "masked_autoregressive_default_template",
           "RealNVP", "real_nvp_default_template"]


def _apply_shift_log_scale(x: Tensor, shift: Optional[Tensor],
                           log_scale: Optional[Tensor]) -> Tensor:
    if log_scale is not None:
        x = x * math_ops.exp(log_scale)
    if shift is not None:
        x = x + shift
    return x


def _undo_shift_log_scale(y: Tensor, shift: Optional[Tensor],
                          log_scale: Optional[Tensor]) -> Tensor:
    if shift is not None:
        y = y - shift
    if log_scale is not None:
        y = y * math_ops.exp(-log_scale)
    return y


def _sum_log_scale(log_scale: Optional[Tensor], like: Tensor, sign: float,
                   name: str) -> Tensor:
    if log_scale is None:
        return constant(0.0, dtype=like.dtype, name=name)
    return sign * reduce_sum(log_scale, axis=-1)


class MaskedAutoregressiveFlow(Bijector):
    """The affine autoregressive flow y[i] = x[i] exp(log_scale[i](y[:i])) + shift[i](y[:i])
    (inverse in one pass, forward in `event_size` passes)."""

    def __init__(self, shift_and_log_scale_fn: Callable[[Tensor], Tuple[Any, Any]],
                 is_constant_jacobian: bool = False, validate_args: bool = False,
                 unroll_loop: bool = False, name: Optional[str] = None):
        self._shift_and_log_scale_fn = shift_and_log_scale_fn
        self._unroll_loop = unroll_loop
        super().__init__(forward_min_event_ndims=1, is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args,
                         name=name or "masked_autoregressive_flow")

    def _forward(self, x: Tensor) -> Tensor:
        static_size = dimension_value(x.shape.with_rank_at_least(1)[-1])
        if self._unroll_loop:
            if static_size is None:
                raise ValueError("The final dimension of `x` must be known at graph "
                                 f"construction time if `unroll_loop=True`. `x.shape: "
                                 f"{x.shape!r}`")
            y = zeros_like(x, name="y0")
            for _ in range(static_size):
                y = _apply_shift_log_scale(x, *self._shift_and_log_scale_fn(y))
            return y
        event_size = array_ops.shape(x)[-1]
        y0 = zeros_like(x, name="y0")
        self._shift_and_log_scale_fn(y0)      # creates the template's variables up front

        def body(index: Tensor, y: Tensor) -> Tuple[Tensor, Tensor]:
            return index + 1, _apply_shift_log_scale(x, *self._shift_and_log_scale_fn(y))

        _, y = while_loop(lambda index, _: index < event_size, body, (0, y0),
                          maximum_iterations=static_size)
        return y

    def _inverse(self, y: Tensor) -> Tensor:
        return _undo_shift_log_scale(y, *self._shift_and_log_scale_fn(y))

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        _, log_scale = self._shift_and_log_scale_fn(y)
        return _sum_log_scale(log_scale, y, -1.0, "ildj")


def _gen_mask(num_blocks: int, n_in: int, n_out: int, exclusive: bool) -> np.ndarray:
    """The [n_out, n_in] MADE mask: output block i sees input blocks < i (exclusive) or
    <= i (inclusive)."""
    mask = np.zeros([n_out, n_in], dtype=np.float32)
    d_in, d_out = n_in // num_blocks, n_out // num_blocks
    row, col = (d_out if exclusive else 0), 0
    for _ in range(num_blocks):
        mask[row:, col:col + d_in] = 1
        col += d_in
        row += d_out
    return mask


def masked_dense(inputs: Tensor, units: int, num_blocks: Optional[int] = None,
                 exclusive: bool = False, kernel_initializer: Any = None, reuse: Any = None,
                 name: Optional[str] = None, *args: Any, **kwargs: Any) -> Tensor:
    """A `tf.layers.dense` whose kernel is masked (at initialization and by its
    constraint) so output block i depends only on earlier input blocks."""
    input_depth = dimension_value(inputs.shape.with_rank_at_least(1)[-1])
    if input_depth is None:
        raise NotImplementedError("Rightmost dimension must be known prior to graph "
                                  "execution.")
    mask = _gen_mask(num_blocks, input_depth, units, exclusive).T
    if kernel_initializer is None:
        kernel_initializer = glorot_normal_initializer()

    def masked_initializer(shape: Any, dtype: Any = None, partition_info: Any = None
                           ) -> Tensor:
        return mask * kernel_initializer(shape, dtype, partition_info)

    with name_scope(name, "masked_dense", [inputs, units, num_blocks]):
        return dense(inputs, units, *args, kernel_initializer=masked_initializer,
                     kernel_constraint=lambda kernel: mask * kernel, name=name, reuse=reuse,
                     **kwargs)


def _clip_by_value_preserve_grad(x: Tensor, low: Any, high: Any) -> Tensor:
    with name_scope(None, "clip_by_value_preserve_grad", [x, low, high]):
        clipped = clip_by_value(x, low, high)
        return x + array_ops.stop_gradient(clipped - x)


def masked_autoregressive_default_template(
        hidden_layers: List[int], shift_only: bool = False, activation: Any = nn_ops.relu,
        log_scale_min_clip: float = -5.0, log_scale_max_clip: float = 3.0,
        log_scale_clip_gradient: bool = False, name: Optional[str] = None,
        *args: Any, **kwargs: Any) -> Any:
    """The MADE network (masked dense layers) giving (shift, log_scale), as a template."""
    name = name or "masked_autoregressive_default_template"
    with name_scope(name, values=[log_scale_min_clip, log_scale_max_clip]):
        def _fn(x: Tensor) -> Tuple[Tensor, Optional[Tensor]]:
            input_depth = dimension_value(x.shape.with_rank_at_least(1)[-1])
            if input_depth is None:
                raise NotImplementedError("Rightmost dimension must be known prior to graph "
                                          "execution.")
            input_shape = np.int32(x.shape.as_list()) if x.shape.is_fully_defined() else \
                array_ops.shape(x)
            for i, units in enumerate(hidden_layers):
                x = masked_dense(x, units, num_blocks=input_depth, exclusive=(i == 0),
                                 activation=activation, *args, **kwargs)
            x = masked_dense(x, (1 if shift_only else 2) * input_depth,
                             num_blocks=input_depth, activation=None, *args, **kwargs)
            if shift_only:
                return array_ops.reshape(x, input_shape), None
            x = array_ops.reshape(x, array_ops.concat([input_shape, [2]], axis=0))
            shift, log_scale = array_ops.unstack(x, num=2, axis=-1)
            clip = clip_by_value if log_scale_clip_gradient else _clip_by_value_preserve_grad
            return shift, clip(log_scale, log_scale_min_clip, log_scale_max_clip)
        return make_template(name, _fn)


class RealNVP(Bijector):
    """The affine coupling layer: the first `num_masked` units pass through and give
    (shift, log_scale) for the rest."""

    def __init__(self, num_masked: int,
                 shift_and_log_scale_fn: Callable[[Tensor, int], Tuple[Any, Any]],
                 is_constant_jacobian: bool = False, validate_args: bool = False,
                 name: Optional[str] = None):
        if num_masked <= 0:
            raise ValueError("num_masked must be a positive integer.")
        self._num_masked = num_masked
        self._input_depth: Optional[int] = None
        self._shift_and_log_scale_fn = shift_and_log_scale_fn
        super().__init__(forward_min_event_ndims=1, is_constant_jacobian=is_constant_jacobian,
                         validate_args=validate_args, name=name or "real_nvp")

    def _split(self, x: Tensor) -> Tuple[Tensor, Tensor, Tuple[Any, Any]]:
        if self._input_depth is None:
            self._input_depth = dimension_value(x.shape.with_rank_at_least(1)[-1])
            if self._input_depth is None:
                raise NotImplementedError("Rightmost dimension must be known prior to graph "
                                          "execution.")
            if self._num_masked >= self._input_depth:
                raise ValueError("Number of masked units must be smaller than the event "
                                 "size.")
        x0, x1 = x[..., :self._num_masked], x[..., self._num_masked:]
        return x0, x1, self._shift_and_log_scale_fn(x0, self._input_depth - self._num_masked)

    def _forward(self, x: Tensor) -> Tensor:
        x0, x1, (shift, log_scale) = self._split(x)
        return array_ops.concat([x0, _apply_shift_log_scale(x1, shift, log_scale)], axis=-1)

    def _inverse(self, y: Tensor) -> Tensor:
        y0, y1, (shift, log_scale) = self._split(y)
        return array_ops.concat([y0, _undo_shift_log_scale(y1, shift, log_scale)], axis=-1)

    def _inverse_log_det_jacobian(self, y: Tensor) -> Tensor:
        _, _, (_, log_scale) = self._split(y)
        return _sum_log_scale(log_scale, y, -1.0, "ildj")

    def _forward_log_det_jacobian(self, x: Tensor) -> Tensor:
        _, _, (_, log_scale) = self._split(x)
        return _sum_log_scale(log_scale, x, 1.0, "fldj")


def real_nvp_default_template(hidden_layers: List[int], shift_only: bool = False,
                              activation: Any = nn_ops.relu, name: Optional[str] = None,
                              *args: Any, **kwargs: Any) -> Any:
    """A dense network (x0, output_units) -> (shift, log_scale), as a template."""
    with name_scope(name, "real_nvp_default_template"):
        def _fn(x: Tensor, output_units: int) -> Tuple[Tensor, Optional[Tensor]]:
            for units in hidden_layers:
                x = dense(x, units, *args, activation=activation, **kwargs)
            x = dense(x, (1 if shift_only else 2) * output_units, *args, activation=None,
                      **kwargs)
            if shift_only:
                return x, None
            shift, log_scale = array_ops.split(x, 2, axis=-1)
            return shift, log_scale
        return make_template("real_nvp_default_template", _fn)
