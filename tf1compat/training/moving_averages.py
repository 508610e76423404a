"""`tf.train.ExponentialMovingAverage` and `assign_moving_average`.

`ema.apply(var_list)` creates one slot per variable (`v/ExponentialMovingAverage`,
initialized to the variable's initialized value) and returns one op (named after the
EMA) that runs `avg -= (avg - v) * (1 - decay)` for each; with `num_updates` the decay is
min(decay, (1 + num_updates) / (10 + num_updates)). Averages of plain tensors start at
zero and may be zero-debiased.
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import (GraphKeys, add_to_collection, colocate_with, device,
                                       get_default_graph, get_name_scope, name_scope)
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.ops import state_ops
from tf1compat.training.optimizers import slot_creator
from tf1compat.variables.collections import (global_variables, moving_average_variables,
                                             trainable_variables)
from tf1compat.variables.init_ops import zeros_initializer
from tf1compat.variables.variable_scope import get_variable, get_variable_scope, variable_scope
from tf1compat.variables.variables import Variable, init_scope

__all__ = ["ExponentialMovingAverage", "assign_moving_average", "weighted_moving_average"]


def assign_moving_average(variable: Any, value: Any, decay: Any, zero_debias: bool = True,
                          name: Optional[str] = None) -> Any:
    """`variable -= (variable - value) * (1 - decay)`; with zero_debias, TF's Adam-style
    bias correction through `biased` and `local_step` companion variables."""
    from tf1compat.ops.math_ops import cast
    from tf1compat.training.strategies.distribute_lib import current_replica_context_for_merge
    replica_context = current_replica_context_for_merge()
    if replica_context is not None:
        # A tf.distribute replica: the variable moves once, toward the replicas' mean value
        # (TF's merge_call with ReduceOp.MEAN).
        def merge_fn(strategy: Any, variable: Any, value: Any) -> Any:
            from tf1compat.training.strategies.values import ReduceOp
            mean = strategy.extended._reduce_to(ReduceOp.MEAN, value)
            return assign_moving_average(variable, mean, decay, zero_debias, name)
        return replica_context.merge_call(merge_fn, args=(variable, value))
    with name_scope(name, "AssignMovingAvg", [variable, value, decay]) as scope:
        decay = convert_to_tensor(1.0 - decay, name="decay")
        if decay.dtype != variable.dtype.base_dtype:
            decay = cast(decay, variable.dtype.base_dtype)
        if zero_debias:
            return _zero_debias(variable, value, decay)
        with colocate_with(variable):
            return state_ops.assign_sub(variable, (variable - value) * decay, name=scope)


def weighted_moving_average(value: Any, decay: Any, weight: Any, truediv: bool = True,
                            collections: Any = None, name: Optional[str] = None) -> Tensor:
    """`tf.contrib`-era weighted moving average: EMA(value * weight) / EMA(weight)."""
    from tf1compat.ops.math_ops import divide, truediv as truediv_op
    if collections is None:
        collections = [GraphKeys.GLOBAL_VARIABLES]
    with variable_scope(name, "WeightedMovingAvg", [value, weight, decay]) as scope:
        value_x_weight_var = get_variable("value_x_weight", shape=value.get_shape(),
                                          dtype=value.dtype, initializer=zeros_initializer(),
                                          trainable=False, collections=collections)
        weight_var = get_variable("weight", shape=weight.get_shape(), dtype=weight.dtype,
                                  initializer=zeros_initializer(), trainable=False,
                                  collections=collections)
        numerator = assign_moving_average(value_x_weight_var, value * weight, decay,
                                          zero_debias=False)
        denominator = assign_moving_average(weight_var, weight, decay, zero_debias=False)
        op = truediv_op if truediv else divide
        return op(numerator, denominator, name=scope.name)


def _zero_debias(unbiased_var: Any, value: Any, decay: Tensor) -> Tensor:
    from tf1compat.ops.math_ops import pow as pow_op
    with variable_scope(unbiased_var.name[:-len(":0")], values=[unbiased_var, value, decay]):
        with init_scope():
            biased_initializer = zeros_initializer()
            local_step_initializer = zeros_initializer()

        def _maybe_get_unique(name: str) -> str:
            scope = get_variable_scope()
            if scope.reuse:
                return name
            existing = [x.op.name for x in scope.global_variables()]
            full_name = scope.name + "/" + name
            if full_name not in existing:
                return name
            idx = 1
            while full_name + ("_%d" % idx) in existing:
                idx += 1
            return name + ("_%d" % idx)

        with colocate_with(unbiased_var):
            biased_var = get_variable(_maybe_get_unique("biased"),
                                      initializer=biased_initializer,
                                      shape=unbiased_var.get_shape(), dtype=unbiased_var.dtype,
                                      trainable=False)
            local_step = get_variable(_maybe_get_unique("local_step"), shape=[],
                                      dtype=unbiased_var.dtype,
                                      initializer=local_step_initializer, trainable=False)
    with colocate_with(unbiased_var):
        update_biased = state_ops.assign_sub(biased_var, (biased_var - value) * decay)
        update_local_step = local_step.assign_add(1)
        bias_factor = 1 - pow_op(1.0 - decay, update_local_step)
        return state_ops.assign(unbiased_var, update_biased / bias_factor,
                                name=get_name_scope() + "/")


class ExponentialMovingAverage:
    """`tf.train.ExponentialMovingAverage(decay, num_updates=None, zero_debias=False,
    name="ExponentialMovingAverage")`."""

    def __init__(self, decay: Any, num_updates: Any = None, zero_debias: bool = False,
                 name: str = "ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages: Dict[Any, Variable] = {}   # keyed by object identity

    @property
    def name(self) -> str:
        return self._name

    def apply(self, var_list: Optional[Sequence[Any]] = None) -> Any:
        """Creates the averages (once) and returns the op that updates all of them."""
        from tf1compat.ops.control_flow_ops import group
        from tf1compat.ops.math_ops import cast, minimum
        if var_list is None:
            var_list = trainable_variables()
        zero_debias_true = set()
        for var in var_list:
            if var.dtype.base_dtype not in (D.bfloat16, D.float16, D.float32, D.float64):
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var not in self._averages:
                with init_scope():
                    if isinstance(var, Variable):
                        with device(var.device):
                            initialized_value = var.initialized_value()
                        avg = slot_creator.create_slot(var, initialized_value, self.name,
                                                       colocate_with_primary=True)
                        add_to_collection(GraphKeys.MOVING_AVERAGE_VARIABLES, var)
                    else:
                        avg = slot_creator.create_zeros_slot(
                            var, self.name, colocate_with_primary=(
                                var.op.type in ("Variable", "VariableV2", "VarHandleOp")))
                        if self._zero_debias:
                            zero_debias_true.add(avg)
                self._averages[var] = avg
        with name_scope(self.name) as scope:
            decay = convert_to_tensor(self._decay, dtype=D.float32, name="decay")
            if self._num_updates is not None:
                num_updates = cast(self._num_updates, D.float32, name="num_updates")
                decay = minimum(decay, (1.0 + num_updates) / (10.0 + num_updates))
            updates = []
            for var in var_list:
                avg = self._averages[var]
                updates.append(assign_moving_average(avg, var, decay,
                                                     avg in zero_debias_true))
            return group(*updates, name=scope)

    def average(self, var: Any) -> Optional[Variable]:
        """The moving-average variable of `var`, or None."""
        return self._averages.get(var, None)

    def average_name(self, var: Any) -> str:
        """The average's op name (what Saver restores `var` from): `v/ExponentialMovingAverage`."""
        if var in self._averages:
            return self._averages[var].name[:-len(":0")]
        return get_default_graph().unique_name(var.name[:-len(":0")] + "/" + self.name,
                                               mark_as_used=False)

    def variables_to_restore(self, moving_avg_variables: Optional[Sequence[Any]] = None
                             ) -> Dict[str, Any]:
        """Saver's var_list mapping average names to the variables (restores averages)."""
        name_map: Dict[str, Any] = {}
        if moving_avg_variables is None:
            moving_avg_variables = trainable_variables() + moving_average_variables()
        unique: List[Any] = []
        for v in moving_avg_variables:
            if not any(v is u for u in unique):
                unique.append(v)
        for v in unique:
            name_map[self.average_name(v)] = v
        names = set(v.name for v in unique)
        for v in global_variables():
            if v.name not in names and v.op.name not in name_map:
                name_map[v.op.name] = v
        return name_map
