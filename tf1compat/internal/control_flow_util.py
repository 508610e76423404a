"""`tensorflow.python.ops.control_flow_util`: where an op or a control-flow context sits
among the enclosing tf.while_loop / tf.cond / XLA contexts (tensor2tensor's
`common_layers.is_xla_compiled` asks for the containing XLA context of the graph's current
one; TensorFlow Probability's `smart_for_loop` whether it is inside an XLA compilation). Contexts are tf1compat's control-flow regions (ops/_regions.py), which answer TF's
`IsWhileContext` / `IsCondContext` / `IsXLAContext` / `outer_context`; no region is an
XLA context, so the XLA queries find none unless an op carries `_XlaCompile`.
"""

from __future__ import annotations

from typing import Any, Callable, Optional

__all__ = ["ENABLE_CONTROL_FLOW_V2", "GetContainingWhileContext", "GetContainingCondContext",
           "GetContainingXLAContext", "IsInWhileLoop", "IsInCond", "IsInXLAContext",
           "GetWhileContext", "InXlaContext", "GraphOrParentsInXlaContext"]

# TF 1.15's graph mode builds v1 control flow (Switch/Merge, Enter/Exit) unless
# tf.compat.v1.enable_control_flow_v2() was called; tf1compat builds v1 ops only.
ENABLE_CONTROL_FLOW_V2 = False


def _containing(ctxt: Any, wanted: Callable[[Any], bool], stop_ctxt: Any = None
                ) -> Optional[Any]:
    """The innermost of `ctxt` and its outer contexts that is `wanted` (or `stop_ctxt`)."""
    while ctxt is not None:
        if wanted(ctxt) or ctxt is stop_ctxt:
            return ctxt
        ctxt = ctxt.outer_context
    return None


def GetContainingWhileContext(ctxt: Any, stop_ctxt: Any = None) -> Optional[Any]:
    """The innermost while context at or around `ctxt`; stops at `stop_ctxt` (returned
    if reached first), as TF."""
    return _containing(ctxt, lambda c: c.IsWhileContext(), stop_ctxt)


def GetContainingCondContext(ctxt: Any) -> Optional[Any]:
    """The innermost cond context at or around `ctxt`, or None."""
    return _containing(ctxt, lambda c: c.IsCondContext())


def GetContainingXLAContext(ctxt: Any) -> Optional[Any]:
    """The innermost XLA context at or around `ctxt`, or None."""
    return _containing(ctxt, lambda c: c.IsXLAContext())


def GetWhileContext(op: Any) -> Optional[Any]:
    """The while context `op` was created in (through conds), or None."""
    ctxt = op._get_control_flow_context()
    return ctxt.GetWhileContext() if ctxt is not None else None


def IsInWhileLoop(op: Any) -> bool:
    """Whether `op` is inside a tf.while_loop body (at any depth)."""
    return GetContainingWhileContext(op._get_control_flow_context()) is not None


def IsInCond(op: Any) -> bool:
    """Whether `op` is inside a tf.cond branch (at any depth)."""
    return GetContainingCondContext(op._get_control_flow_context()) is not None


def IsInXLAContext(op: Any) -> bool:
    """Whether `op` is marked `_XlaCompile` or built in an XLA context."""
    try:
        if op.get_attr("_XlaCompile"):
            return True
    except ValueError:
        pass
    return GetContainingXLAContext(op._get_control_flow_context()) is not None


def InXlaContext(graph: Any) -> bool:
    """Whether `graph` is being built inside an XLA compilation context: never (tf1compat
    compiles no graph with XLA; tf.xla.experimental.compile runs its function as is)."""
    return False


def GraphOrParentsInXlaContext(graph: Any) -> bool:
    """Whether `graph` or a graph it is nested in is in an XLA context: never."""
    return False
