"""`tensorflow.python.ops.resource_variable_ops`: the ResourceVariable class and the
generated resource ops it re-exports (`resource_scatter_add(resource, indices, updates)`:
TensorLayer 1.x's AMSGrad updates its sparse slots with it)."""

from typing import Any, Callable, Optional

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.resource_variable_ops import (assign_variable_op, read_variable_op,
                                                 resource_op, var_handle_op,
                                                 var_is_initialized_op)
from tf1compat.variables.resource_variable import ResourceVariable

__all__ = ["ResourceVariable", "assign_variable_op", "read_variable_op", "var_handle_op",
           "var_is_initialized_op", "resource_scatter_add", "resource_scatter_sub",
           "resource_scatter_update", "resource_scatter_mul", "resource_scatter_div",
           "resource_scatter_min", "resource_scatter_max"]


def _scatter(op_type: str) -> Callable[..., Operation]:
    def scatter(resource: Tensor, indices: Any, updates: Any,
                name: Optional[str] = None) -> Operation:
        return resource_op(op_type, resource, indices, updates, name=name)
    scatter.__name__ = scatter.__qualname__ = "resource_" + op_type[len("Resource"):].lower() \
        .replace("scatter", "scatter_")
    scatter.__doc__ = f"One `{op_type}` op: updates the rows `indices` of the variable."
    return scatter


resource_scatter_add = _scatter("ResourceScatterAdd")
resource_scatter_sub = _scatter("ResourceScatterSub")
resource_scatter_update = _scatter("ResourceScatterUpdate")
resource_scatter_mul = _scatter("ResourceScatterMul")
resource_scatter_div = _scatter("ResourceScatterDiv")
resource_scatter_min = _scatter("ResourceScatterMin")
resource_scatter_max = _scatter("ResourceScatterMax")
