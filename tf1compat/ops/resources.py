"""TF's `tensorflow.python.ops.resources`: generic resources kept in graph collections.

Libraries that own stateful resources (tensor forests, boosted trees) register each one
as `(handle, create, is_initialized)` in `GraphKeys.RESOURCES` (shared across the
cluster's tasks) or `GraphKeys.LOCAL_RESOURCES`; training code then runs
`initialize_resources(shared_resources())` beside the variable initializer, which is a
`NoOp` when nothing registered one (tflearn's estimators do this).
"""

from __future__ import annotations

import collections
import os
from typing import Any, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.graph import GraphKeys, add_to_collection, device, get_collection
from tf1compat.framework.graph import name_scope
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.array_ops import stack
from tf1compat.ops.control_flow_ops import group, no_op
from tf1compat.ops.indexing_ops import boolean_mask
from tf1compat.ops.math_ops import logical_not

__all__ = ["register_resource", "shared_resources", "local_resources",
           "report_uninitialized_resources", "initialize_resources"]

# One registered resource: the op giving its handle, the op creating it and a scalar
# bool tensor saying whether it exists yet.
_Resource = collections.namedtuple("_Resource", ["handle", "create", "is_initialized"])


def register_resource(handle: Any, create_op: Any, is_initialized_op: Any,
                      is_shared: bool = True) -> None:
    """Adds a resource to `GraphKeys.RESOURCES` (`is_shared`) or `LOCAL_RESOURCES`."""
    key = GraphKeys.RESOURCES if is_shared else GraphKeys.LOCAL_RESOURCES
    add_to_collection(key, _Resource(handle, create_op, is_initialized_op))


def shared_resources() -> List[Any]:
    """The resources registered as shared by all tasks of a cluster."""
    return get_collection(GraphKeys.RESOURCES)


def local_resources() -> List[Any]:
    """The resources registered as local to one session."""
    return get_collection(GraphKeys.LOCAL_RESOURCES)


def report_uninitialized_resources(resource_list: Optional[Sequence[Any]] = None,
                                   name: str = "report_uninitialized_resources") -> Tensor:
    """A 1-D string tensor of the handle names of the resources not yet created
    (all registered resources when `resource_list` is None); empty when all exist."""
    if resource_list is None:
        resource_list = shared_resources() + local_resources()
    with name_scope(name):
        # TF reports on the CPU unless this variable names another device.
        with device(os.environ.get("TF_DEVICE_FOR_UNINITIALIZED_VARIABLE_REPORTING",
                                   "/cpu:0")):
            if not resource_list:
                return constant([], dtype=D.string)
            missing = logical_not(stack([r.is_initialized for r in resource_list]))
            names = constant([r.handle.name for r in resource_list])
            return boolean_mask(names, missing)


def initialize_resources(resource_list: Sequence[Any], name: str = "init") -> Operation:
    """One op that creates every resource of `resource_list` (a `NoOp` if it is empty)."""
    if resource_list:
        return group(*[r.create for r in resource_list], name=name)
    return no_op(name=name)
