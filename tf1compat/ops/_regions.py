"""Control-flow regions: the sub-graphs that cond branches and loop bodies trace into.

A branch or loop body is traced as a REGION of the enclosing graph: while the user's
function runs, `graph._control_flow_context` is the region object, so every op created
goes through `Graph._create_op_internal`, gets TF's names (`cond/add`, `while/add`),
counts toward the graph, and is tagged with `op._control_flow_context`. The plan builder
admits only ops of the plan's own context (runtime/plan.py), so region ops never run at
top level; the construct's single op (If, While) compiles each region with
`kctx.compile_function(inputs, outputs, region)` and runs it when (and as often as)
the construct decides.

After tracing, the tensors a region's ops consume from outside become explicit inputs
("captures") of the construct's op, except variables (`runtime.plan.is_pure_alias`),
which the region reads from the session's store where each consumer runs, as TF1's ref
variables alias their buffer. Control inputs on outside ops move to the construct's op,
which runs after them.

Region objects also answer the parts of TF's ControlFlowContext protocol that legacy
code reads (`IsWhileContext`, `GetWhileContext`, `outer_context`, `name`, ...).
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.runtime.plan import is_pure_alias, state_key

__all__ = ["ControlFlowRegion", "CondRegion", "LoopRegion", "external_inputs",
           "ancestors"]


class ControlFlowRegion:
    """One traced sub-graph; the graph's control-flow context while it is being built."""

    kind = "region"

    def __init__(self, graph: Any, name: str):
        self.graph = graph
        self._name = name
        self.outer_context: Optional[Any] = graph._control_flow_context
        self.ops: List[Operation] = []
        # Identities standing for outside tensors the region returns (ops/cond.py
        # `branch_outputs`): TF passes such a value through a Switch, no op of its own.
        self.passthrough: set = set()

    # -- called by Graph._create_op_internal for each op created in the region ---------
    def add_op(self, op: Operation) -> None:
        self.ops.append(op)
        graph = self.graph
        # Region values exist only while the construct runs: they cannot be fetched or
        # fed from outside it (TF marks them the same way).
        graph.prevent_fetching(op)
        for t in op._outputs:
            graph.prevent_feeding(t)

    # -- entering and leaving ----------------------------------------------------------
    def Enter(self) -> None:  # noqa: N802 - TF's protocol
        self.graph._set_control_flow_context(self)

    def Exit(self) -> None:  # noqa: N802 - TF's protocol
        self.graph._set_control_flow_context(self.outer_context)

    def trace(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Calls `fn(*args)` with this region as the graph's control-flow context."""
        graph = self.graph
        saved = graph._control_flow_context
        graph._set_control_flow_context(self)
        try:
            return fn(*args)
        finally:
            graph._set_control_flow_context(saved)

    # -- TF's ControlFlowContext protocol (read-only parts) ----------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def back_prop(self) -> bool:
        return True

    @property
    def grad_state(self) -> Any:
        return None

    def GetWhileContext(self) -> Any:  # noqa: N802
        return self.outer_context.GetWhileContext() if self.outer_context else None

    def GetControlPivot(self) -> Any:  # noqa: N802
        return None

    def IsWhileContext(self) -> bool:  # noqa: N802
        return False

    def IsCondContext(self) -> bool:  # noqa: N802
        return False

    def IsXLAContext(self) -> bool:  # noqa: N802
        return False

    def AddName(self, name: str) -> None:  # noqa: N802
        pass

    def AddInnerOp(self, op: Operation) -> None:  # noqa: N802
        pass

    def __str__(self) -> str:
        return self._name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._name!r}>"


class CondRegion(ControlFlowRegion):
    """A branch of `tf.cond` / `tf.case` / `tf.switch_case` (TF's CondContext)."""

    kind = "cond"

    def __init__(self, graph: Any, name: str, pred: Optional[Tensor], branch: int):
        super().__init__(graph, name)
        self.pred = pred
        self.branch = branch

    def IsCondContext(self) -> bool:  # noqa: N802
        return True


class LoopRegion(ControlFlowRegion):
    """The condition or the body of `tf.while_loop` (TF's WhileContext)."""

    kind = "while"

    def __init__(self, graph: Any, name: str, part: str, parallel_iterations: int = 10,
                 back_prop: bool = True, swap_memory: bool = False,
                 maximum_iterations: Any = None):
        super().__init__(graph, name)
        self.part = part          # "cond" or "body"
        self.parallel_iterations = parallel_iterations
        self._back_prop = back_prop
        self.swap_memory = swap_memory
        self.maximum_iterations = maximum_iterations

    @property
    def back_prop(self) -> bool:
        return self._back_prop

    def GetWhileContext(self) -> Any:  # noqa: N802
        return self

    def IsWhileContext(self) -> bool:  # noqa: N802
        return True


def ancestors(context: Any) -> List[Any]:
    """`context` and its enclosing contexts, innermost first (None last)."""
    out = []
    while context is not None:
        out.append(context)
        context = getattr(context, "outer_context", None)
    out.append(None)
    return out


def _in_loop(context: Any) -> bool:
    return any(c is not None and c.IsWhileContext() for c in ancestors(context))


def building_in_loop(graph: Any) -> bool:
    """Whether ops created now in `graph` go into a tf.while_loop body (at any depth)."""
    return _in_loop(graph._get_control_flow_context())


def building_in_outer_loop(graph: Any) -> bool:
    """Whether ops created now in `graph` go directly into a tf.while_loop that is in no
    other loop (it may be in tf.cond branches)."""
    chain = [c for c in ancestors(graph._get_control_flow_context()) if c is not None]
    return bool(chain) and chain[0].IsWhileContext() and \
        not any(c.IsWhileContext() for c in chain[1:])


def external_inputs(region: ControlFlowRegion
                    ) -> Tuple[List[Tensor], List[Operation], List[str]]:
    captures, controls, reads = external_inputs_and_read_tensors(region)
    return captures, controls, list(reads)


def external_inputs_and_read_tensors(region: ControlFlowRegion
                                     ) -> Tuple[List[Tensor], List[Operation],
                                                Dict[str, Tensor]]:
    """What a region takes from outside: captures, control inputs and variables read.

    Captures are the outside tensors its ops consume; variables (pure aliases) are not
    captured but read from the store, and the keys of those read as values are listed so
    the construct can check they are initialized before it runs (TF evaluates them
    before its Switch/Enter, taken branch or not). Raises TF's ValueError when a region
    uses a tensor of a loop it is not inside.
    """
    captures: Dict[Tensor, None] = {}
    controls: Dict[Operation, None] = {}
    reads: Dict[str, Tensor] = {}
    visible = ancestors(region.outer_context)
    for op in region.ops:
        refs = op._op_def.ref_positions(len(op._inputs))
        for i, t in enumerate(op._inputs):
            producer_ctx = t._op._control_flow_context
            if producer_ctx is region or t in captures:
                continue
            if is_pure_alias(t):
                if i not in refs:
                    reads.setdefault(state_key(t), t)
                continue
            if producer_ctx not in visible and (_in_loop(producer_ctx) or _in_loop(region)):
                _raise_invalid_context(op, t._op, region)
            captures[t] = None
        for c in op._control_inputs:
            if c._control_flow_context is not region:
                controls[c] = None
    return list(captures), list(controls), reads


def _raise_invalid_context(op: Operation, input_op: Operation, region: Any) -> None:
    if _in_loop(region):
        msg = (f"Cannot use '{input_op.name}' as input to '{op.name}' because they are in "
               "different while loops.")
    else:
        msg = (f"Cannot use '{input_op.name}' as input to '{op.name}' because "
               f"'{input_op.name}' is in a while loop.")
    raise ValueError(msg + " See info log for more details.")


_RECORDS = threading.local()


def slice_records() -> Dict[Operation, Any]:
    """The calling thread's last records of the gathers a gradient takes IndexedSlices
    of (autodiff/loop_slices.py), per While op (per iteration, one record per site of
    `Loop.slice_sites`) and per If op (the branch taken, the gathered tensor's rows and
    one record per site of that branch). The enclosing loop, or a gradient op of the
    same run (on the run's thread), takes them."""
    records = getattr(_RECORDS, "value", None)
    if records is None:
        records = _RECORDS.value = {}
    return records
