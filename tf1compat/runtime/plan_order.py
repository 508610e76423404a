"""Plan ordering: the order TF's executor runs a run's ops in (`toposort`), and the
variable-store key a tensor aliases (`state_key`), which the ordering of reads and
updates of one variable needs.
"""

from __future__ import annotations

from typing import Dict, List, Optional

from tf1compat.framework import errors
from tf1compat.framework.func_graph import FuncGraph
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor

__all__ = ["toposort", "state_key", "is_back_edge"]


def state_key(t: Tensor) -> Optional[str]:
    """The variable-store key `t` aliases (a ref variable's output or a view of it), or None."""
    op = t._op
    od = op._op_def
    if od.state_alias is not None:
        return od.state_alias(op)
    if t._dtype._is_ref_dtype and od.ref_input_indices:
        return state_key(op._inputs[od.ref_input_indices[0]])
    if od.forwards_alias and "_gradient_op_type" not in op._attrs:
        # (an Identity whose gradient is overridden runs, so its gradient can be taken)
        return state_key(op._inputs[0])
    return None


def toposort(ops: List[Operation]) -> List[Operation]:
    """The ops in the order TF's executor runs them: each as soon as its inputs are ready,
    and every read of a variable before the updates of it that the read is not ordered
    after.

    An op's depth is the length of the longest dependency path into it; ops run by depth,
    ties in creation order. An update of a variable waits, besides its inputs, for the
    ops of the run that read the variable and do not depend on the update (directly or
    through a gradient op differentiating with respect to it): a run sees each variable
    as it was when the run started until an op ordered after an update reads it. So
    `sess.run([v.read_value(), train_op])` and `sess.run([loss, train_op])` return the
    values from before the step, as TF does (its reads are ready at once, the update only
    once its gradient is computed), also when the gradient is a function that does not
    depend on the fetched loss (imported graphs), and contrib's decoupled weight decay
    (an update ordered only after its own inputs) leaves the gradient alone. A
    tf.function's graph instead runs its stateful ops in program order (TF's automatic
    control dependencies). Reads before the updates nothing orders them against is TF's
    order once its executor's cost model has settled; in a callable's first ~90 runs TF's
    scheduling usually runs such an update first (docs/ARCHITECTURE.md, "Unordered reads and
    writes of one variable in one run").
    """
    extra = _program_order(ops) if ops and isinstance(ops[0]._graph, FuncGraph) else \
        _after_reads(ops)
    try:
        return _by_depth(ops, extra)
    except errors.InvalidArgumentError:
        if not extra:
            raise
        return _by_depth(ops, {})       # those edges closed a cycle: dependencies alone


def _by_depth(ops: List[Operation], extra: Dict[Operation, List[Operation]]
              ) -> List[Operation]:
    """`ops` sorted by (longest dependency path into the op, creation id); `extra` maps an
    op to more ops that must run before it."""
    indegree = {op: 0 for op in ops}
    users: Dict[Operation, list] = {op: [] for op in ops}
    for op in ops:
        for dep in set(_deps(op)).union(extra.get(op, ())):
            if dep in indegree:
                indegree[op] += 1
                users[dep].append(op)
    depth = {op: 0 for op in ops}
    ready = [op for op in ops if indegree[op] == 0]
    visited = 0
    while ready:
        op = ready.pop()
        visited += 1
        for user in users[op]:
            if depth[op] + 1 > depth[user]:
                depth[user] = depth[op] + 1
            indegree[user] -= 1
            if indegree[user] == 0:
                ready.append(user)
    if visited != len(ops):
        stuck = sorted((op for op in ops if indegree[op] > 0), key=lambda o: o._id)
        raise errors.op_error(errors.InvalidArgumentError, None,
                              f"Graph has a cycle through {[op.name for op in stuck[:5]]}")
    return sorted(ops, key=lambda o: (depth[o], o._id))


def _program_order(ops: List[Operation]) -> Dict[Operation, List[Operation]]:
    """{stateful op: [the stateful op created before it]}: a tf.function's graph runs its
    stateful ops in program order, as TF's automatic control dependencies order them
    (`v.assign_add(x); return v.read_value()` returns the new value)."""
    stateful = sorted((op for op in ops if op._op_def.stateful), key=lambda o: o._id)
    return {op: [before] for before, op in zip(stateful, stateful[1:])}


def _after_reads(ops: List[Operation]) -> Dict[Operation, List[Operation]]:
    """{update: [reads it must follow]}: for each op writing a variable, the ops of `ops`
    reading that variable (through its ref, handle or a ReadVariableOp's value, or as a
    gradient op's source) that do not depend on the update.

    Where a variable has several updates in the run, they run as they become ready, each
    read-modify-write chain apart: an update is not a read of the others, and a read
    feeding another update of the variable does not hold this one back (DCGAN's batch
    norm updating a moving average from the real and then the fake batch applies both;
    WGAN's clip `p.assign(clip_by_value(p))` runs long before the optimizer's update of
    p and keeps it). A gradient op's source read still goes first: the gradient is of
    the value the forward pass read."""
    writers: Dict[str, List[Operation]] = {}
    for op in ops:
        for key in _updates(op):
            writers.setdefault(key, []).append(op)
    if not writers:
        return {}
    users: Dict[Operation, List[Operation]] = {}
    for op in ops:
        for dep in _deps(op):
            users.setdefault(dep, []).append(op)
    descendants: Dict[Operation, set] = {}

    def below(op: Operation) -> set:
        if op not in descendants:
            descendants[op] = _descendants(op, users)
        return descendants[op]

    extra: Dict[Operation, List[Operation]] = {}
    for op in ops:
        for key in _reads(op).intersection(writers):
            if op in writers[key]:
                continue
            chained = len(writers[key]) > 1 and op._op_def.grad_sources is None
            for writer in writers[key]:
                if op in below(writer):
                    continue
                if chained and any(w is not writer and w in below(op) for w in writers[key]):
                    continue
                extra.setdefault(writer, []).append(op)
    return extra


def _variable_key(t: Tensor) -> Optional[str]:
    """The store key of the variable `t` is (a ref or a resource handle), aliases or
    reads."""
    if t._op._type == "ReadVariableOp":
        t = t._op._inputs[0]
    while t._dtype.base_dtype.name == "resource" and t._op._type == "Identity":
        t = t._op._inputs[0]
    if t._op._type == "VarHandleOp":          # the handle's run-time value is this key
        return t._op.get_attr("shared_name") or t._op.name
    return state_key(t)


def _updates(op: Operation) -> set:
    """The store keys of the variables stateful `op` may write (its ref and resource
    inputs); empty for reads."""
    if not op._op_def.stateful or op._op_def.reads_only:
        return set()
    return {_variable_key(t) for t in op._inputs
            if t._dtype._is_ref_dtype or t._dtype.base_dtype.name == "resource"} - {None}


def _reads(op: Operation) -> set:
    """The store keys of the variables `op` reads: inputs that are a variable (a ref alias
    or a resource handle) or a ReadVariableOp's value, and a gradient op's sources."""
    keys = set()
    for t in op._inputs:
        if t._op._type == "ReadVariableOp" or state_key(t) is not None or \
                t._dtype.base_dtype.name == "resource":
            keys.add(_variable_key(t))
    grad_sources = op._op_def.grad_sources
    if grad_sources is not None:
        keys.update(_variable_key(t) for t in grad_sources(op))
    keys.discard(None)
    return keys


def _descendants(op: Operation, users: Dict[Operation, List[Operation]]) -> set:
    """The ops that depend on `op`, directly or not (`users`: op -> the ops using it)."""
    seen: set = set()
    stack = [op]
    while stack:
        for user in users.get(stack.pop(), ()):
            if user not in seen:
                seen.add(user)
                stack.append(user)
    return seen


def _deps(op: Operation) -> list:
    return [t._op for t in op._inputs if not is_back_edge(op, t)] + list(op._control_inputs)


def is_back_edge(op: Operation, t: Tensor) -> bool:
    """Whether input `t` of `op` closes a TF1 while loop (NextIteration -> Merge): the
    one kind of cycle a graph may have. Ordering ignores it."""
    return op._type in ("Merge", "RefMerge") and \
        t._op._type in ("NextIteration", "RefNextIteration")
