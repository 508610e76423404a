"""`tf.contrib.layers.legacy_fully_connected` and its `legacy_linear` / `legacy_relu`
shorthands (TF 1.15's layers.py): the first contrib dense layer, whose variables are
`weights` and `bias` (not `biases`) in the scope `fully_connected`, gathered into the
WEIGHTS / BIASES / ACTIVATIONS collections, with inputs of rank > 2 multiplied as 2-D."""

from __future__ import annotations

import functools
from typing import Any, Optional

from tf1compat.framework.graph import GraphKeys, add_to_collections
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import array_ops, nn_ops
from tf1compat.ops.linalg_ops import matmul
from tf1compat.variables.init_ops import Zeros, xavier_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope

__all__ = ["legacy_fully_connected", "legacy_linear", "legacy_relu"]


def legacy_fully_connected(x: Any, num_output_units: int, activation_fn: Any = None,
                           weight_init: Any = xavier_initializer(), bias_init: Any = Zeros(),
                           name: Optional[str] = None,
                           weight_collections: Any = (GraphKeys.WEIGHTS,),
                           bias_collections: Any = (GraphKeys.BIASES,),
                           output_collections: Any = (GraphKeys.ACTIVATIONS,),
                           trainable: bool = True, weight_regularizer: Any = None,
                           bias_regularizer: Any = None) -> Any:
    """`activation_fn(x @ weights + bias)` over the last dimension of `x`, as TF 1.15."""
    with variable_scope(name, "fully_connected", [x]):
        x = convert_to_tensor(x)
        dims = x.get_shape().dims
        if dims is None:
            raise ValueError("dims of x must be known but is None")
        if len(dims) < 2:
            raise ValueError("rank of x must be at least 2 not: %d" % len(dims))
        num_input_units = dims[-1].value
        if num_input_units is None:
            raise ValueError("last dimension of x must be known but is None")
        dtype = x.dtype.base_dtype
        w = get_variable("weights", shape=[num_input_units, num_output_units], dtype=dtype,
                         initializer=weight_init,
                         collections=set(list(weight_collections or []) +
                                         [GraphKeys.GLOBAL_VARIABLES]),
                         regularizer=weight_regularizer, trainable=trainable)
        x_2_dim = x if len(dims) <= 2 else array_ops.reshape(x, [-1, num_input_units])
        y = matmul(x_2_dim, w)
        if bias_init is not None:
            b = get_variable("bias", shape=[num_output_units], dtype=dtype,
                             initializer=bias_init,
                             collections=set(list(bias_collections or []) +
                                             [GraphKeys.GLOBAL_VARIABLES]),
                             regularizer=bias_regularizer, trainable=trainable)
            y = nn_ops.bias_add(y, b)
        if len(dims) > 2:
            out_shape = array_ops.unstack(array_ops.shape(x))
            out_shape[-1] = num_output_units
            y = array_ops.reshape(y, array_ops.stack(out_shape))
            static_shape = x.get_shape().as_list()
            static_shape[-1] = num_output_units
            y.set_shape(static_shape)
        if activation_fn is not None:
            y = activation_fn(y)
        add_to_collections(list(output_collections or []) + [GraphKeys.ACTIVATIONS], y)
        return y


legacy_relu = functools.partial(legacy_fully_connected, activation_fn=nn_ops.relu)
legacy_linear = functools.partial(legacy_fully_connected, activation_fn=None)
