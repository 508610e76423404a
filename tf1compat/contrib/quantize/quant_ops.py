"""The fake-quantization layers contrib.quantize inserts: a scope with non-trainable
`min` and `max` variables (initialised to the layer's default range) feeding one
FakeQuantWithMinMaxVars. In an eval graph the variables are used as they are; in a
training graph each run first moves them to the batch's range, widened to contain 0 (or
made symmetric): weights take the last batch's range (`AssignMinLast`/`AssignMaxLast`),
activations an exponential moving average of it (`AssignMinEma`/`AssignMaxEma`)."""

from __future__ import annotations

from typing import Any

from tf1compat.framework.graph_keys import GraphKeys
from tf1compat.framework.tensor import Tensor
from tf1compat.ops import math_ops
from tf1compat.ops.quantization_ops import fake_quant_with_min_max_vars
from tf1compat.ops.reduction_ops import reduce_max, reduce_min
from tf1compat.ops.state_ops import assign
from tf1compat.training.moving_averages import assign_moving_average
from tf1compat.variables.init_ops import constant_initializer
from tf1compat.variables.variable_scope import get_variable, variable_scope
from tf1compat.variables.variables import VariableAggregation


def _range_variable(name: str, init: float, vars_collection: Any) -> Any:
    collections = ([vars_collection] if vars_collection else []) + [GraphKeys.GLOBAL_VARIABLES]
    return get_variable(name, shape=[], initializer=constant_initializer(init),
                        collections=collections, trainable=False,
                        aggregation=VariableAggregation.MEAN)


def _batch_range(inputs: Tensor, num_bits: int, narrow_range: bool,
                 symmetric: bool) -> tuple:
    batch_min = reduce_min(inputs, name="BatchMin")
    batch_max = reduce_max(inputs, name="BatchMax")
    if not symmetric:
        return math_ops.minimum(batch_min, 0.0), math_ops.maximum(batch_max, 0.0)
    # The ratio of the quantized range's ends: -1 for the narrow range, otherwise the
    # wide range's one extra negative level.
    ratio = -1 if narrow_range else -((1 << num_bits) - 2) / (1 << num_bits)
    return (math_ops.minimum(batch_min, batch_max / ratio),
            math_ops.maximum(batch_max, batch_min * ratio))


def quantize_layer(inputs: Tensor, moving_avg: bool, name_prefix: str, init_min: float,
                   init_max: float, ema_decay: float, is_training: bool, num_bits: int,
                   narrow_range: bool, symmetric: bool, vars_collection: Any) -> Tensor:
    """TF 1.15's MovingAvgQuantize (`moving_avg`) or LastValueQuantize: the fake-quantized
    `inputs`, under a new variable scope named `name_prefix` (uniquified)."""
    with variable_scope(None, default_name=name_prefix, values=[inputs]) as scope:
        scope.set_partitioner(None)
        min_var = _range_variable("min", init_min, vars_collection)
        max_var = _range_variable("max", init_max, vars_collection)
        if is_training:
            range_min, range_max = _batch_range(inputs, num_bits, narrow_range, symmetric)
            if moving_avg:
                min_var = assign_moving_average(min_var, range_min, ema_decay,
                                                name="AssignMinEma")
                max_var = assign_moving_average(max_var, range_max, ema_decay,
                                                name="AssignMaxEma")
            else:
                min_var = assign(min_var, range_min, name="AssignMinLast")
                max_var = assign(max_var, range_max, name="AssignMaxLast")
        return fake_quant_with_min_max_vars(inputs, min_var, max_var, num_bits=num_bits,
                                            narrow_range=narrow_range)
