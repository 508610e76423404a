"""`tf.CriticalSection`: ops run under a mutex (MutexV2, MutexLock, ConsumeMutexLock).

`execute(fn)` builds TF's graph: a MutexLock of the section's mutex, `fn`'s ops with a
control dependency on it, Identity outputs, then ConsumeMutexLock after them and the
results behind that. At run time the mutex is the session's re-entrant lock for the
MutexV2 op: MutexLock acquires it (blocking while another run holds it) and its value,
the held lock, releases it when ConsumeMutexLock runs or, if the run fails first, when
the value is dropped (as TF releases a lock when its tensor is freed). So `fn`'s ops of
concurrent runs are serialized; within one run, which one thread executes op after op,
two executions of one section hold the lock together.

Build-time checks are TF's: executing a section inside itself (directly or through its
handle) raises ValueError, and so does an execution touching a resource (variable)
another section's execution uses when either asked for exclusive access.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Callable, Iterator, List, NamedTuple, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.graph import (add_to_collections, apply_op, apply_op1,
                                       colocate_with, control_dependencies,
                                       get_collection, get_default_graph, name_scope)
from tf1compat.framework.op_def import declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.util import nest

__all__ = ["CriticalSection"]

CRITICAL_SECTION_EXECUTIONS = "critical_section_executions"


class _SectionLock:
    """The session's mutex of one MutexV2 op: re-entrant for the thread holding it (one run
    may hold it for several executions), releasable from any thread (a failed run's held
    lock may be dropped elsewhere)."""

    def __init__(self):
        self._cond = threading.Condition()
        self._owner: Optional[int] = None
        self._count = 0

    def acquire(self) -> None:
        me = threading.get_ident()
        with self._cond:
            while self._count and self._owner != me:
                self._cond.wait()
            self._owner = me
            self._count += 1

    def release(self) -> None:
        with self._cond:
            self._count -= 1
            if self._count == 0:
                self._owner = None
                self._cond.notify_all()


class _HeldLock:
    """MutexLock's value: the acquired lock, released exactly once."""

    def __init__(self, lock: _SectionLock):
        self._lock: Optional[_SectionLock] = lock

    def release(self) -> None:
        lock, self._lock = self._lock, None
        if lock is not None:
            lock.release()

    def __del__(self) -> None:     # a run that failed before ConsumeMutexLock
        self.release()


def _mutex_kernel(node: Any, kctx: Any) -> Callable[[], _SectionLock]:
    lock = kctx.op_resource(_SectionLock)
    return lambda: lock


def _lock_kernel(node: Any, kctx: Any) -> Callable[[_SectionLock], _HeldLock]:
    def acquire(mutex: _SectionLock) -> _HeldLock:
        mutex.acquire()
        return _HeldLock(mutex)
    return acquire


declare("MutexV2", outputs=["resource: resource"], attrs={"container": "", "shared_name": ""},
        shape=lambda ctx: [TensorShape([])], kernel=_mutex_kernel, grad="none",
        stateful=True, cpu_only=True, doc="A mutex; its run-time value is the session's lock.")
declare("MutexLock", inputs=["mutex: resource"], outputs=["mutex_lock: variant"],
        shape=lambda ctx: [TensorShape([])], kernel=_lock_kernel, grad="none",
        stateful=True, cpu_only=True)
declare("ConsumeMutexLock", inputs=["mutex_lock: variant"], shape=lambda ctx: [],
        kernel=lambda node, kctx: (lambda held: held.release()), grad="none",
        stateful=True, cpu_only=True)


class _ExecutionSignature(NamedTuple):
    """One execution, kept in the graph's CRITICAL_SECTION_EXECUTIONS collection."""
    op: Any
    handle: Tensor
    resources: List[Tensor]
    exclusive_resource_access: bool


_LOCAL = threading.local()


@contextlib.contextmanager
def _entered(signature: tuple) -> Iterator[None]:
    """The sections this thread is building an execution of (a nested one deadlocks)."""
    stack = _LOCAL.__dict__.setdefault("stack", [])
    if signature in stack:
        raise ValueError(f"Attempting to lock a CriticalSection (signature={signature}) in "
                         "which we are already running. This is illegal and may cause "
                         "deadlocks.")
    stack.append(signature)
    try:
        yield
    finally:
        stack.pop()


class CriticalSection:
    """`tf.CriticalSection`: `execute(fn)` runs `fn`'s ops while holding a mutex."""

    def __init__(self, name: Optional[str] = None, shared_name: Optional[str] = None,
                 critical_section_def: Any = None, import_scope: Any = None):
        if critical_section_def is not None:
            raise NotImplementedError("CriticalSection(critical_section_def=...) "
                                      "(restoring one from a MetaGraph's proto) is not "
                                      "supported by tf1compat")
        with name_scope(name, "CriticalSection", []) as scope_name:
            with control_dependencies(None):
                container = getattr(get_default_graph(), "_container", "") or ""
                if shared_name is None:
                    shared_name = scope_name
                self._handle = apply_op1("MutexV2", [], {"container": container,
                                                         "shared_name": shared_name},
                                         name=scope_name)
        self._eager = executing_eagerly()
        self._name = scope_name.rstrip("/")
        device = None if self._eager else self._handle.op.device or None
        self._signature = (container, shared_name, device)

    @property
    def name(self) -> str:
        return self._name if self._eager else self._handle.op.name

    def execute(self, fn: Callable[[], Any], exclusive_resource_access: bool = True,
                name: Optional[str] = None) -> Any:
        """Runs `fn()`'s ops inside the critical section; returns its tensors (through
        Identity ops that run after the lock is released)."""
        from tf1compat.ops.control_flow_ops import group, tuple as tensor_tuple
        if executing_eagerly():      # (ops run as they are made: no graph to check)
            with _entered(self._signature):
                held = apply_op1("MutexLock", [self._handle], {})
                try:
                    return fn()
                finally:
                    apply_op("ConsumeMutexLock", [held], {})
        graph = get_default_graph()
        with name_scope(name, "critical_section_execute", []):
            with _entered(self._signature):
                lock = apply_op1("MutexLock", [self._handle], {})
                existing = set(graph.get_operations())
                with control_dependencies([lock]):
                    result = fn()
                created = [op for op in graph.get_operations() if op not in existing]
            self._order_arguments_before(created, lock.op, group)
            resources = _resources_of(created)
            if any(self._is_self_handle(t) for t in resources):
                raise ValueError("Attempting to lock a CriticalSection in which we are "
                                 f"already running (signature={self._signature}). This "
                                 "is illegal and may cause deadlocks.")
            self._check_exclusive(resources, exclusive_resource_access)
            flat = [_identity(x, group) for x in nest.flatten(result)]
            with control_dependencies(flat):
                with colocate_with(self._handle):
                    consumed = apply_op("ConsumeMutexLock", [lock], {})
                result = nest.pack_sequence_as(result, tensor_tuple(nest.flatten(result)))
            with control_dependencies([consumed]):
                outputs = nest.map_structure(lambda x: _identity(x, group), result)
            add_to_collections(CRITICAL_SECTION_EXECUTIONS, _ExecutionSignature(
                lock.op, self._handle, resources, exclusive_resource_access))
            return outputs

    def _order_arguments_before(self, created: list, lock_op: Any, group: Callable) -> None:
        """Everything `fn`'s ops consume from outside runs before the lock is taken (so a
        run never waits for the lock while holding what another holder needs)."""
        created_set = set(created)
        outside = {}
        for op in created:
            for producer in [t.op for t in op.inputs] + list(op.control_inputs):
                outside.setdefault(id(producer), producer)
        for op in list(created_set) + list(lock_op.control_inputs) + \
                [t.op for t in lock_op.inputs] + [lock_op]:
            outside.pop(id(op), None)
        if outside:
            lock_op._add_control_input(group(*outside.values()))

    def _is_self_handle(self, t: Tensor) -> bool:
        if t is self._handle:
            return True
        op = t.op
        return (op.type == "MutexV2" and bool(op.get_attr("shared_name")) and
                op.get_attr("shared_name") == self._handle.op.get_attr("shared_name") and
                op.device == self._handle.op.device)

    def _check_exclusive(self, resources: List[Tensor], exclusive: bool) -> None:
        for signature in get_collection(CRITICAL_SECTION_EXECUTIONS):
            if self._is_self_handle(signature.handle):
                continue
            if not (exclusive or signature.exclusive_resource_access):
                continue
            shared = [t for t in resources if any(t is r for r in signature.resources)]
            if shared:
                raise ValueError(
                    f"This execution would access resources: {shared}. Either this lock "
                    f"(CriticalSection: {self._handle}) or lock '{signature}' "
                    f"(CriticalSection: {signature.handle}) requested exclusive resource "
                    "access of this resource. Did you mean to call execute with keyword "
                    "argument exclusive_resource_access=False?")


def _identity(x: Any, group: Callable) -> Any:
    """What TF passes each of `fn`'s results through: an op is grouped, a TensorArray
    copied, anything else (variables too) becomes an Identity op."""
    from tf1compat.framework.operation import Operation
    if isinstance(x, Operation):
        return group(x)
    if hasattr(x, "flow") and hasattr(x, "identity"):      # a TensorArray
        return x.identity()
    return apply_op1("Identity", [x], {})


def _resources_of(ops: list) -> List[Tensor]:
    """The resource tensors the ops consume, each once."""
    found: List[Tensor] = []
    for op in ops:
        for t in op.inputs:
            if t.dtype.base_dtype == D.resource and not any(t is f for f in found):
                found.append(t)
    return found
