"""Spectral normalization (Miyato et al., ICLR 2018) as TF 1.14's
spectral_normalization_impl.py provides it: a weight divided by an estimate of its
largest singular value.

The estimate is one or more rounds of power iteration on the weight reshaped to a
matrix W [-1, last dimension]: v = normalize(W^T u), u = normalize(W v), sigma = u^T W v,
starting from a persisted vector u (a non-trainable variable `spectral_norm_u`, drawn
from a standard normal, that each evaluation overwrites with the new u). u and v are
constants for gradients. The normalization is offered as a function, a regularizer, a
variable-scope custom getter and a context that applies the getter to Keras' weights.
"""

from __future__ import annotations

import contextlib
import numbers
import re
from typing import Any, Callable, Iterator, Optional

from tf1compat.framework import dtypes
from tf1compat.framework.graph import control_dependencies, name_scope
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops.array_ops import identity, reshape, stop_gradient
from tf1compat.ops.linalg_ops import matmul
from tf1compat.ops.math_ops import multiply
from tf1compat.ops.nn_norm import l2_normalize
from tf1compat.ops.transform_ops import transpose
from tf1compat.util import tf_logging
from tf1compat.variables.init_ops import random_normal_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["compute_spectral_norm", "spectral_normalize", "spectral_norm_regularizer",
           "spectral_normalization_custom_getter", "keras_spectral_normalization"]

_NORMALIZABLE_DTYPES = (dtypes.float16, dtypes.float32, dtypes.float64)
_U_NAME = "spectral_norm_u"


def compute_spectral_norm(w_tensor: Any, power_iteration_rounds: int = 1,
                          name: Optional[str] = None) -> Any:
    """An estimate of the largest singular value of `w_tensor` (reshaped to
    [-1, last dimension]) after `power_iteration_rounds` rounds of power iteration; the
    persisted vector u is updated as a side effect."""
    with variable_scope(name, "spectral_norm"):
        w = reshape(w_tensor, (-1, w_tensor.get_shape()[-1]))
        u_var = get_variable(_U_NAME, shape=(w.shape[0], 1), dtype=w.dtype,
                             initializer=random_normal_initializer(), trainable=False)
        u = u_var
        for _ in range(power_iteration_rounds):
            v = l2_normalize(matmul(transpose(w), u))
            u = l2_normalize(matmul(w, v))
        with control_dependencies([u_var.assign(u, name="update_u")]):
            u = identity(u)
        u, v = stop_gradient(u), stop_gradient(v)
        sigma = matmul(matmul(transpose(u), w), v)
        sigma.shape.assert_is_fully_defined()
        sigma.shape.assert_is_compatible_with([1, 1])
        return sigma[0][0]


def spectral_normalize(w: Any, power_iteration_rounds: int = 1,
                       name: Optional[str] = None) -> Any:
    """`w` divided by its estimated spectral norm, in `w`'s shape."""
    with variable_scope(name, "spectral_normalize"):
        normalized = w / compute_spectral_norm(w, power_iteration_rounds=power_iteration_rounds)
        return reshape(normalized, w.get_shape())


def spectral_norm_regularizer(scale: float, power_iteration_rounds: int = 1,
                              scope: Optional[str] = None) -> Callable[..., Any]:
    """A regularizer `sn(weights)` returning `scale` times the weights' estimated spectral
    norm (a function returning None when `scale` is 0)."""
    if isinstance(scale, numbers.Integral):
        raise ValueError("scale cannot be an integer: %s" % scale)
    if isinstance(scale, numbers.Real):
        if scale < 0.0:
            raise ValueError("Setting a scale less than 0 on a regularizer: %g" % scale)
        if scale == 0.0:
            tf_logging.info("Scale of 0 disables regularizer.")
            return lambda _: None

    def sn(weights: Any, name: Optional[str] = None) -> Any:
        with name_scope(scope, "SpectralNormRegularizer", [weights]) as name:
            scale_t = convert_to_tensor(scale, dtype=weights.dtype.base_dtype, name="scale")
            return multiply(scale_t, compute_spectral_norm(
                weights, power_iteration_rounds=power_iteration_rounds), name=name)
    return sn


def _default_name_filter(name: str) -> bool:
    """Whether `name` is a kernel's as Keras, tf.layers, contrib.layers and slim name them
    (`kernel`, `weights`, `depthwise_kernel`, `pointwise_weights`, ...)."""
    return re.match(r"(.*\/)?(depthwise_|pointwise_)?(weights|kernel)$", name) is not None


def spectral_normalization_custom_getter(name_filter: Callable[[str], bool] = _default_name_filter,
                                         power_iteration_rounds: int = 1) -> Callable[..., Any]:
    """A variable-scope custom getter that returns the variables `name_filter` accepts
    spectrally normalized (each with its own persisted u), the others unchanged."""
    if not callable(name_filter):
        raise ValueError("name_filter must be callable")

    def getter_fn(getter: Callable[..., Any], name: str, *args: Any, **kwargs: Any) -> Any:
        if not name_filter(name):
            return getter(name, *args, **kwargs)
        if name.endswith(_U_NAME):
            raise ValueError("Cannot apply Spectral Normalization to internal variables "
                             "created for Spectral Normalization. Tried to normalized "
                             "variable [%s]" % name)
        if kwargs["dtype"] not in _NORMALIZABLE_DTYPES:
            raise ValueError("Disallowed data type {}".format(kwargs["dtype"]))
        w_tensor = getter(name, *args, **kwargs)
        if len(w_tensor.get_shape()) < 2:
            raise ValueError("Spectral norm can only be applied to multi-dimensional tensors")
        return spectral_normalize(w_tensor, power_iteration_rounds=power_iteration_rounds,
                                  name=name + "/spectral_normalize")
    return getter_fn


@contextlib.contextmanager
def keras_spectral_normalization(name_filter: Callable[[str], bool] = _default_name_filter,
                                 power_iteration_rounds: int = 1) -> Iterator[None]:
    """Within the context, Keras layers' weights are created through
    `spectral_normalization_custom_getter` (Keras ignores variable-scope custom getters):
    the layers use the normalized tensors."""
    from tf1compat.keras.engine import base_layer
    original = base_layer._make_variable
    sn_getter = spectral_normalization_custom_getter(
        name_filter=name_filter, power_iteration_rounds=power_iteration_rounds)

    def make_variable(name: str, *args: Any, **kwargs: Any) -> Any:
        return sn_getter(original, name, *args, **kwargs)
    base_layer._make_variable = make_variable
    try:
        yield
    finally:
        base_layer._make_variable = original
