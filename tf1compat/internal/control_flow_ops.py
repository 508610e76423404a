"""`tensorflow.python.ops.control_flow_ops`."""

# ruff: noqa: F401
from tf1compat.ops.cond import case, cond, smart_cond, switch_case
from tf1compat.ops.control_flow_ops import group, no_op, tuple, with_dependencies
from tf1compat.ops.logging_ops import Assert
from tf1compat.ops.while_loop import while_loop
from tf1compat.ops.dataflow_ops import merge, switch
