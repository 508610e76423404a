"""`tf.contrib.framework` variable helpers: `variable`, `model_variable` (also in the
MODEL_VARIABLES collection), `local_variable`, `global_variable`,
`get_variables_to_restore`, `filter_variables`, `VariableDeviceChooser`,
`assert_or_get_global_step`, and the collection getters (from tf1compat.variables)."""

from __future__ import annotations

import functools
import re
from typing import Any, List, Optional, Sequence

from tf1compat.contrib.framework.arg_scope import add_arg_scope
# TF 1.15's contrib variables module also holds these (slim code imports them from here).
from tf1compat.contrib.framework.checkpoint_assign import (assign_from_checkpoint,
                                                           assign_from_checkpoint_fn,
                                                           assign_from_values,
                                                           assign_from_values_fn,
                                                           get_variable_full_name)
from tf1compat.training.training_util import (assert_global_step, create_global_step,
                                              get_global_step, get_or_create_global_step)
from tf1compat.framework.device_spec import DeviceSpec
from tf1compat.framework.graph import GraphKeys, device as _device
from tf1compat.variables.collections import (get_local_variables, get_model_variables,
                                             get_trainable_variables, get_unique_variable,
                                             get_variables, get_variables_by_name,
                                             get_variables_by_suffix)
from tf1compat.variables.variable_scope import get_variable, get_variable_scope
from tf1compat.variables.variables import (Variable, VariableAggregation,
                                           VariableSynchronization)

__all__ = ["variable", "model_variable", "local_variable", "global_variable",
           "get_variables", "get_variables_by_name", "get_variables_by_suffix",
           "get_model_variables", "get_local_variables", "get_trainable_variables",
           "get_unique_variable", "get_variables_to_restore", "add_model_variable",
           "assign_from_checkpoint", "assign_from_checkpoint_fn", "assign_from_values",
           "assign_from_values_fn", "get_variable_full_name", "create_global_step",
           "get_global_step", "get_or_create_global_step", "assert_global_step",
           "assert_or_get_global_step", "filter_variables", "VariableDeviceChooser"]


@add_arg_scope
def variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
             regularizer: Any = None, trainable: bool = True, collections: Any = None,
             caching_device: Any = None, device: Any = None, partitioner: Any = None,
             custom_getter: Any = None, use_resource: Any = None,
             synchronization: Any = VariableSynchronization.AUTO,
             aggregation: Any = VariableAggregation.NONE) -> Any:
    """`get_variable` in the given collections (default GLOBAL_VARIABLES), on `device`."""
    collections = list(collections if collections is not None
                       else [GraphKeys.GLOBAL_VARIABLES])
    collections = list(dict.fromkeys(collections))   # drop duplicates, keep order
    getter = get_variable
    if custom_getter is not None:
        getter = functools.partial(custom_getter, reuse=get_variable_scope().reuse)
    with _device(device or ""):
        return getter(name, shape=shape, dtype=dtype, initializer=initializer,
                      regularizer=regularizer, trainable=trainable, collections=collections,
                      caching_device=caching_device, partitioner=partitioner,
                      use_resource=use_resource, synchronization=synchronization,
                      aggregation=aggregation)


@add_arg_scope
def model_variable(name: str, shape: Any = None, dtype: Any = None, initializer: Any = None,
                   regularizer: Any = None, trainable: bool = True, collections: Any = None,
                   caching_device: Any = None, device: Any = None, partitioner: Any = None,
                   custom_getter: Any = None, use_resource: Any = None,
                   synchronization: Any = VariableSynchronization.AUTO,
                   aggregation: Any = VariableAggregation.NONE) -> Any:
    """`variable` also added to MODEL_VARIABLES."""
    from tf1compat.framework import dtypes as D
    collections = list(collections or [])
    collections += [GraphKeys.GLOBAL_VARIABLES, GraphKeys.MODEL_VARIABLES]
    return variable(name, shape=shape, dtype=D.float32 if dtype is None else dtype,
                    initializer=initializer, regularizer=regularizer, trainable=trainable,
                    collections=collections, caching_device=caching_device, device=device,
                    partitioner=partitioner, custom_getter=custom_getter,
                    use_resource=use_resource, synchronization=synchronization,
                    aggregation=aggregation)


def local_variable(initial_value: Any, validate_shape: bool = True,
                   name: Optional[str] = None, use_resource: Any = None) -> Any:
    """A non-trainable variable in LOCAL_VARIABLES."""
    return Variable(initial_value, trainable=False, collections=[GraphKeys.LOCAL_VARIABLES],
                    validate_shape=validate_shape, name=name, use_resource=use_resource)


def global_variable(initial_value: Any, validate_shape: bool = True,
                    name: Optional[str] = None, use_resource: Any = None) -> Any:
    """A non-trainable variable in GLOBAL_VARIABLES."""
    return Variable(initial_value, trainable=False, collections=[GraphKeys.GLOBAL_VARIABLES],
                    validate_shape=validate_shape, name=name, use_resource=use_resource)


def add_model_variable(var: Any) -> None:
    """Adds `var` to MODEL_VARIABLES (once)."""
    from tf1compat.framework.graph import add_to_collection, get_collection
    if not any(var is v for v in get_collection(GraphKeys.MODEL_VARIABLES)):
        add_to_collection(GraphKeys.MODEL_VARIABLES, var)


def get_variables_to_restore(include: Optional[Sequence[str]] = None,
                             exclude: Optional[Sequence[str]] = None) -> List[Any]:
    """Global variables under the `include` scopes (all by default) minus `exclude` ones."""
    if include is None:
        to_include = get_variables()
    else:
        if not isinstance(include, (list, tuple)):
            raise TypeError("include is provided but is not a list or a tuple.")
        to_include = []
        for scope in include:
            to_include += get_variables(scope)
    excluded: set = set()
    if exclude is not None:
        if not isinstance(exclude, (list, tuple)):
            raise TypeError("exclude is provided but is not a list or a tuple.")
        for scope in exclude:
            excluded |= {id(v) for v in get_variables(scope)}
    return [v for v in to_include if id(v) not in excluded]


def assert_or_get_global_step(graph: Any = None, global_step_tensor: Any = None) -> Any:
    """`global_step_tensor` checked to be a valid global step, or when None the graph's
    global step (None if it has none)."""
    if global_step_tensor is None:
        return get_global_step(graph)
    assert_global_step(global_step_tensor)
    return global_step_tensor


def filter_variables(var_list: Sequence[Any], include_patterns: Optional[Sequence[str]] = None,
                     exclude_patterns: Optional[Sequence[str]] = None,
                     reg_search: bool = True) -> List[Any]:
    """The variables whose names match any include pattern (all when None) and no exclude
    pattern; patterns are regular expressions searched anywhere in the name
    (`reg_search`) or matched at its start."""
    matches = re.search if reg_search else re.match
    included = (list(var_list) if include_patterns is None else
                [v for v in var_list if any(matches(p, v.name) for p in include_patterns)])
    if exclude_patterns is None:
        return included
    return [v for v in included if not any(matches(p, v.name) for p in exclude_patterns)]


class VariableDeviceChooser:
    """A device function for variables: round-robin over `num_tasks` tasks of `job_name`
    (a parameter-server job) when `num_tasks` > 0, else the local `device_type`."""

    def __init__(self, num_tasks: int = 0, job_name: str = "ps", device_type: str = "CPU",
                 device_index: Optional[int] = 0, replica: Optional[int] = None):
        self._job_name = job_name
        self._device_type = device_type
        self._device_index = device_index
        self._replica = replica
        self._num_tasks = num_tasks
        self._next_task_id = 0

    def __call__(self, op: Any) -> str:
        spec = DeviceSpec(replica=self._replica, device_type=self._device_type,
                          device_index=self._device_index)
        if self._num_tasks > 0:
            task_id = self._next_task_id
            self._next_task_id = (self._next_task_id + 1) % self._num_tasks
            spec = spec.replace(job=self._job_name, task=task_id)
        return spec.to_string()
