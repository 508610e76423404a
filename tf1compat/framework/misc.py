"""Small TF1 module-level switches and predicates (`tf.is_tensor`, `tf.newaxis`, ...).

The v2 switches exist so legacy code that calls them keeps working; tf1compat always
implements TF1 behaviour (ref variables by default, Dimension-valued shapes, identity
`==` on tensors, TF1 control flow semantics).
"""

from __future__ import annotations

from typing import Any, Optional

from tf1compat.framework import context as _context
from tf1compat.framework.tensor import Tensor

__all__ = ["newaxis", "is_tensor", "is_symbolic_tensor", "get_static_value", "op_scope", "disable_eager_execution",
           "disable_resource_variables", "enable_resource_variables",
           "resource_variables_enabled", "disable_tensor_equality", "enable_tensor_equality",
           "executing_eagerly_outside_functions", "control_flow_v2_enabled",
           "disable_control_flow_v2", "enable_control_flow_v2"]

newaxis = None
_flags = {"resource_variables": False}


def is_tensor(x: Any) -> bool:
    """True for graph tensors, eager tensors, sparse tensors and variables' values."""
    return isinstance(x, Tensor) or getattr(x, "_is_eager_tensor", False) or \
        getattr(x, "_is_composite_tensor", False) or \
        (hasattr(x, "_as_graph_element") and hasattr(x, "dtype") and hasattr(x, "op"))


def is_symbolic_tensor(tensor: Any) -> bool:
    """`tf.is_symbolic_tensor`: a graph tensor (not an eager value, variable or number)."""
    return isinstance(tensor, Tensor) and not tensor._is_eager_tensor


def get_static_value(tensor: Any, partial: bool = False) -> Any:
    """`tf.get_static_value` (= `tensor_util.constant_value`): a tensor's value when TF's
    table of foldable op types gives one at graph build (framework/static_value.py), else
    None; anything that is not a tensor is returned as it is."""
    from tf1compat.framework.static_value import tensor_util_constant_value
    if getattr(tensor, "_is_eager_tensor", False):
        return tensor.numpy()
    if not is_tensor(tensor):
        return tensor
    if not isinstance(tensor, Tensor):
        return None  # a Variable or SparseTensor: TF does not fold those either
    return tensor_util_constant_value(tensor, partial)


def op_scope(values: Any, name: Optional[str], default_name: Optional[str] = None) -> Any:
    from tf1compat.framework.graph import name_scope
    return name_scope(name, default_name, values)


def disable_eager_execution() -> None:
    """`tf.disable_eager_execution`: graph mode for the rest of the program."""
    _context.set_default_eager(False)


def disable_resource_variables() -> None:
    _flags["resource_variables"] = False


def enable_resource_variables() -> None:
    _flags["resource_variables"] = True


def resource_variables_enabled() -> bool:
    return _flags["resource_variables"]


def disable_tensor_equality() -> None:
    """Tensor `==` is identity in tf1compat (TF1 behaviour); nothing to change."""


def enable_tensor_equality() -> None:
    raise NotImplementedError("tf.enable_tensor_equality: tf1compat keeps TF1 semantics, where "
                              "`==` on graph tensors is identity; use tf.equal")


def executing_eagerly_outside_functions() -> bool:
    """True under eager execution, also while a tf.function traces its graph."""
    if _context.executing_eagerly():
        return True
    from tf1compat.framework.graph import get_default_graph
    return bool(getattr(get_default_graph(), "_outer_eager", False))


def control_flow_v2_enabled() -> bool:
    return False


def disable_control_flow_v2() -> None:
    """TF1 control flow semantics are the only ones tf1compat has."""


def enable_control_flow_v2() -> None:
    """Accepted: tf1compat's cond/while semantics do not depend on this switch."""
