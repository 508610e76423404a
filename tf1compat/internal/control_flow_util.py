"""`tensorflow.python.ops.control_flow_util`: the flags and predicates about the control
flow a graph is built in that libraries query (TensorFlow Probability's `smart_for_loop`
asks whether it is inside an XLA compilation before unrolling a static loop)."""

from typing import Any

__all__ = ["ENABLE_CONTROL_FLOW_V2", "InXlaContext", "GraphOrParentsInXlaContext"]

# TF 1.15's graph mode builds v1 control flow (Switch/Merge, Enter/Exit) unless
# tf.compat.v1.enable_control_flow_v2() was called; tf1compat builds v1 ops only.
ENABLE_CONTROL_FLOW_V2 = False


def InXlaContext(graph: Any) -> bool:  # noqa: N802 - TF's name
    """Whether `graph` is being built inside an XLA compilation context: never (tf1compat
    compiles no graph with XLA; tf.xla.experimental.compile runs its function as is)."""
    return False


def GraphOrParentsInXlaContext(graph: Any) -> bool:  # noqa: N802 - TF's name
    """Whether `graph` or a graph it is nested in is in an XLA context: never."""
    return False
