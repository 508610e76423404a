"""TF's queues: `tf.FIFOQueue`, `RandomShuffleQueue`, `PaddingFIFOQueue`, `PriorityQueue`
(`tf.queue.*`, `tf.io.*`) and their ops (FIFOQueueV2, QueueEnqueueV2, QueueDequeueManyV2,
...), with TF's op types, attrs and names, so graphs and meta graphs look like TF's.

A queue op (FIFOQueueV2, ...) outputs a `resource` handle. Its kernel is a constant of the
plan: the session's queue object (`_queues.py`), created once per session, or once per
`shared_name` in it. Enqueue/dequeue/close/size kernels receive that object and act on
it; blocking ones wait for the run's deadline (`RunOptions.timeout_in_ms`), and a session's
`close()` cancels them. Queue ops run on the CPU, as TF places them.

The Python classes mirror TF's `QueueBase` API: component dtypes, shapes and names,
`enqueue(_many)`, `dequeue(_many, _up_to)`, `close`, `size`, `is_closed`, `from_list`.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from typing import Any, Callable, Dict, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, control_dependencies, device, name_scope
from tf1compat.framework.op_def import REQUIRED, TypeList, declare, unknown_shapes
from tf1compat.framework.random_seed import get_seed
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import Dimension, TensorShape, as_shape, unknown_shape
from tf1compat.ops import _queues
from tf1compat.ops._queue_columns import ColumnarFIFOQueue, ColumnarRandomShuffleQueue, columnar
from tf1compat.ops._shape_rules import node_desc

__all__ = ["QueueBase", "FIFOQueue", "PaddingFIFOQueue", "RandomShuffleQueue",
           "PriorityQueue", "shared_resource", "as_queue", "type_string"]


# -- queue resources ----------------------------------------------------------------------

def type_string(dtype: D.DType) -> str:
    """TF's DataTypeString: "float" for float32, "double" for float64, ..."""
    return {"float32": "float", "float64": "double", "complex64": "complex64"}.get(
        dtype.name, dtype.name)


def shared_resource(node: Any, kctx: Any, make: Callable[[str], Any],
                    mismatch: Optional[Callable[[Any, Any], Optional[str]]] = None) -> Any:
    """The session's resource of a handle op: one per node, or one per `shared_name`
    (with `make(name)`, `name` as TF's messages call it).

    A second op naming a shared resource must ask for the same kind of object:
    `mismatch(resource, node)` returns TF's MatchesNodeDef message otherwise, raised as
    InvalidArgumentError.
    """
    shared = node.attrs.get("shared_name", "") or ""
    if not shared:
        return kctx.op_resource(lambda: make(_queues.resource_name(node.name, "")))
    key = ("shared_resource", node.attrs.get("container", ""), shared)
    resource = kctx.runtime.op_resource(key, lambda: make(shared))
    problem = mismatch(resource, node) if mismatch is not None else None
    if problem:
        raise errors.op_error(errors.InvalidArgumentError, node, problem)
    return resource


def _queue_kernel(make: Callable[[Any, str], _queues.Queue]) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Any:
        return shared_resource(node, kctx, functools.partial(make, node), _mismatch)
    return factory


def _shapes_of(node: Any) -> List[TensorShape]:
    return [as_shape(s) for s in node.attrs["shapes"]]


def _mismatch(queue: Any, node: Any) -> Optional[str]:
    """TF's QueueBase::MatchesNodeDef* messages for a shared queue asked for differently."""
    kind = node.type[:-2] if node.type.endswith("V2") else node.type
    if not isinstance(queue, _queues.Queue) or kind != queue.kind:
        found = getattr(queue, "kind", type(queue).__name__)
        return f"Shared queue '{node.attrs['shared_name']}' has type '{found}V2' that does " \
               f"not match type of Node '{node.name}': {node.type}"
    capacity = node.attrs["capacity"]
    capacity = queue.capacity if capacity < 0 else capacity
    if capacity != queue.capacity:
        return f"Shared queue '{queue.name}' has capacity {queue.capacity} but requested " \
               f"capacity was {capacity}"
    requested = list(node.attrs["component_types"])
    if kind == "PriorityQueue":
        requested = [D.int64] + requested
    if requested != queue.dtypes:
        return f"Shared queue '{queue.name}' has component types " \
               f"{', '.join(type_string(d) for d in queue.dtypes)} but requested component " \
               f"types were {', '.join(type_string(d) for d in requested)}"
    return None


def _in_columns(node: Any, dtypes: Any, shapes: List[TensorShape]) -> bool:
    """Whether the queue keeps its components in columns: where they can be, and the graph
    fills it in blocks (`enqueue_many`). A queue filled one element per run (`tf.train.batch`
    / `shuffle_batch` threads) is cheaper per row in lists (measured: 28 against 36 us of
    CPU per example in scripts/bench_queues.py)."""
    if not columnar(dtypes, shapes):
        return False
    consumers = getattr(getattr(node, "outputs", [None])[0], "consumers", None)
    if consumers is None:           # an eager op: no graph says how it will be filled
        return True
    return any(op.type == "QueueEnqueueManyV2" for op in consumers())


def _fifo(node: Any, name: str) -> _queues.Queue:
    dtypes, shapes = node.attrs["component_types"], _shapes_of(node)
    kind = ColumnarFIFOQueue if _in_columns(node, dtypes, shapes) else _queues.FIFOQueue
    return kind(name, dtypes, shapes, node.attrs["capacity"])


def _padding_fifo(node: Any, name: str) -> _queues.Queue:
    return _queues.PaddingFIFOQueue(name, node.attrs["component_types"], _shapes_of(node),
                                    node.attrs["capacity"])


def _random_shuffle(node: Any, name: str) -> _queues.Queue:
    a = node.attrs
    dtypes, shapes = a["component_types"], _shapes_of(node)
    kind = ColumnarRandomShuffleQueue if _in_columns(node, dtypes, shapes) else \
        _queues.RandomShuffleQueue
    return kind(name, dtypes, shapes, a["capacity"], a["min_after_dequeue"], a["seed"],
                a["seed2"])


def _priority(node: Any, name: str) -> _queues.Queue:
    shapes = _shapes_of(node)
    dtypes = [D.int64] + list(node.attrs["component_types"])
    return _queues.PriorityQueue(name, dtypes, [TensorShape([])] + shapes if shapes else [],
                                 node.attrs["capacity"])


# Each queue op exists twice in TF: the V2 op of a resource handle and, for the graphs of
# TF 0.x and early 1.x, the V1 op (no suffix) of a Ref(string) handle. The handle's run-time
# value is the queue object either way, so both run the same kernel. (The consumers declare
# a plain string input, as accumulator_ops.py's: a Ref input would make the plan pass a
# variable slot; the queue object is what they need, and no plan aliases it.)
_HANDLE_OUT = {False: "handle: resource", True: "handle: Ref(string)"}
_HANDLE_ARG = {False: "handle: resource", True: "handle: string"}
_HANDLE_ATTRS = {"component_types": REQUIRED, "shapes": [], "capacity": -1,
                 "container": "", "shared_name": ""}

for _type, _make, _extra in (
        ("FIFOQueueV2", _fifo, {}),
        ("PaddingFIFOQueueV2", _padding_fifo, {}),
        ("RandomShuffleQueueV2", _random_shuffle,
         {"min_after_dequeue": 0, "seed": 0, "seed2": 0}),
        ("PriorityQueueV2", _priority, {})):
    _attrs = dict(_HANDLE_ATTRS, **_extra)
    if _type == "PriorityQueueV2":
        _attrs["component_types"] = []
    for _v1 in (False, True):        # V1: a Ref(string) handle (TF 0.x / early 1.x graphs)
        declare(_type[:-2] if _v1 else _type, outputs=[_HANDLE_OUT[_v1]], attrs=dict(_attrs),
                shape=lambda ctx: [TensorShape([] if ctx.op_type.endswith("V2") else [2])],
                kernel=_queue_kernel(_make), grad="none", stateful=True, cpu_only=True,
                constant=True, doc=f"TF's {_type[:-2] if _v1 else _type}: the session's "
                                   "queue object.")


# -- enqueue, dequeue, close, size --------------------------------------------------------------

def _deadline(kctx: Any) -> Callable[[], Optional[float]]:
    return kctx.runtime.run_deadline


def as_queue(handle: Any) -> _queues.Queue:
    """The queue a handle value names (a handle picked at run time from a stack of
    handles, as `QueueBase.from_list` does, arrives as a 0-d object array)."""
    if isinstance(handle, np.ndarray) and handle.shape == ():
        handle = handle[()]
    if not isinstance(handle, _queues.Queue):
        raise errors.InvalidArgumentError(None, None, "Input handle is not a queue resource")
    return handle


def _check_types(queue: _queues.Queue, dtypes: Sequence[D.DType]) -> None:
    """TF's ValidateTupleCommon (a queue chosen at run time may not match)."""
    if len(dtypes) != len(queue.dtypes):
        raise errors.InvalidArgumentError(
            None, None, f"Wrong number of components in tuple. Expected {len(queue.dtypes)}, "
                        f"got {len(dtypes)}")
    for i, (got, want) in enumerate(zip(dtypes, queue.dtypes)):
        if got != want:
            raise errors.InvalidArgumentError(
                None, None, f"Type mismatch in tuple component {i}. Expected "
                            f"{type_string(want)}, got {type_string(got)}")


def _owned(value: Any, copy: bool) -> Any:
    """A value the queue may keep: a copy when it may share storage with a feed, a
    constant or a variable (TF's queues copy what they are given)."""
    if not copy:
        return value
    if isinstance(value, torch.Tensor):
        return value.clone()
    return value.copy() if isinstance(value, np.ndarray) else value


def _enqueue_kernel(many: bool) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Callable[..., None]:
        dtypes = list(node.attrs["Tcomponents"])
        copies = [kctx.input_may_alias(t) for t in node.inputs[1:]]
        any_copy = any(copies)
        deadline = _deadline(kctx)

        checked: List[Any] = [None]       # the last queue whose dtypes matched

        def enqueue(handle: Any, *components: Any) -> None:
            queue = handle if handle is checked[0] else as_queue(handle)
            if queue is not checked[0]:
                _check_types(queue, dtypes)
                checked[0] = queue
            if any_copy and not queue.copies_rows:
                components = tuple(_owned(v, c) for v, c in zip(components, copies))
            if many:
                count = queue.check_batch(components)
                queue.enqueue_many(queue.rows_of(components), count, deadline())
            else:
                queue.check_element(components)
                queue.enqueue(components, deadline())
        return enqueue
    return factory


for _type, _many, _v1 in ((t, m, v1) for t, m in (("QueueEnqueueV2", False),
                                                 ("QueueEnqueueManyV2", True))
                          for v1 in (False, True)):
    declare(_type[:-2] if _v1 else _type, inputs=[_HANDLE_ARG[_v1], "components: Tcomponents"],
            attrs={"Tcomponents": TypeList(), "timeout_ms": -1}, shape=lambda ctx: [],
            kernel=_enqueue_kernel(_many), grad="none", stateful=True, cpu_only=True,
            doc="Enqueues one element (or a batch's elements); blocks while full.")


def _dequeue_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    single = len(node.outputs) == 1
    deadline = _deadline(kctx)

    def dequeue(handle: Any) -> Any:
        element = [_queues.as_tensor(v) for v in as_queue(handle).dequeue(deadline())]
        return element[0] if single else tuple(element)
    return dequeue


for _v1 in (False, True):
    declare("QueueDequeue" if _v1 else "QueueDequeueV2", inputs=[_HANDLE_ARG[_v1]],
            outputs=["components: component_types"],
            attrs={"component_types": TypeList(), "timeout_ms": -1}, shape=unknown_shapes,
            kernel=_dequeue_kernel, grad="none", stateful=True, cpu_only=True, view=True,
            doc="Dequeues one element; blocks while empty.")


def _dequeue_many_kernel(allow_small: bool) -> Callable[..., Any]:
    op_name = "DequeueUpToOp" if allow_small else "DequeueManyOp"

    def factory(node: Any, kctx: Any) -> Callable[..., Any]:
        single = len(node.outputs) == 1
        deadline = _deadline(kctx)

        def dequeue_many(handle: Any, n: Any) -> Any:
            queue = as_queue(handle)
            count = int(n)
            if count < 0:
                raise errors.InvalidArgumentError(
                    None, None, f"{op_name} requested {count} < 0 elements")
            if not queue.shapes:
                raise errors.InvalidArgumentError(
                    None, None, f"{queue.kind}'s DequeueMany and DequeueUpTo require the "
                                "components to have specified shapes.")
            outputs = queue.dequeue_many(count, allow_small, deadline())
            return outputs[0] if single else tuple(outputs)
        return dequeue_many
    return factory


def _dequeue_many_shape(ctx: Any) -> List[TensorShape]:
    """TF's check of `n` (a scalar, not negative when known); the Python wrapper sets the
    outputs' shapes from the queue's."""
    rank = ctx.shape(1).rank
    if rank not in (None, 0):
        raise ValueError(f"Shape must be rank 0 but is rank {rank} {node_desc(ctx)}")
    n = ctx.const(1)
    if n is not None and int(n) < 0:
        raise ValueError(f"Input 'n' must be >= 0, but is {int(n)} "
                         f"{node_desc(ctx, computed=[1])}")
    return unknown_shapes(ctx)


for _type, _small, _v1 in ((t, m, v1) for t, m in (("QueueDequeueManyV2", False),
                                                  ("QueueDequeueUpToV2", True))
                           for v1 in (False, True)):
    declare(_type[:-2] if _v1 else _type, inputs=[_HANDLE_ARG[_v1], "n: int32"],
            outputs=["components: component_types"],
            attrs={"component_types": TypeList(), "timeout_ms": -1}, shape=_dequeue_many_shape,
            kernel=_dequeue_many_kernel(_small), grad="none", stateful=True, cpu_only=True,
            doc="Dequeues `n` elements as one batch per component.")


def _close_kernel(node: Any, kctx: Any) -> Callable[[Any], None]:
    cancel = bool(node.attrs["cancel_pending_enqueues"])
    deadline = _deadline(kctx)
    return lambda handle: as_queue(handle).close_queue(cancel, deadline())


for _v1 in (False, True):
    declare("QueueClose" if _v1 else "QueueCloseV2", inputs=[_HANDLE_ARG[_v1]],
            attrs={"cancel_pending_enqueues": False}, shape=lambda ctx: [],
            kernel=_close_kernel, grad="none", stateful=True, cpu_only=True,
            doc="Closes the queue (after pending enqueues, unless it cancels them).")


def _size_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    return lambda handle: torch.tensor(as_queue(handle).size(), dtype=torch.int32)


def _is_closed_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    return lambda handle: torch.tensor(as_queue(handle).closed)


for _v1 in (False, True):
    declare("QueueSize" if _v1 else "QueueSizeV2", inputs=[_HANDLE_ARG[_v1]],
            outputs=["size: int32"], shape=lambda ctx: [TensorShape([])], kernel=_size_kernel,
            grad="none", stateful=True, cpu_only=True)
    declare("QueueIsClosed" if _v1 else "QueueIsClosedV2", inputs=[_HANDLE_ARG[_v1]],
            outputs=["is_closed: bool"], shape=lambda ctx: [TensorShape([])],
            kernel=_is_closed_kernel, grad="none", stateful=True, cpu_only=True)


# -- the Python API ------------------------------------------------------------------------------

def _as_type_list(dtypes: Any) -> List[D.DType]:
    if not isinstance(dtypes, (list, tuple)):
        return [D.as_dtype(dtypes)]
    return [D.as_dtype(d) for d in dtypes]


def _as_shape_list(shapes: Any, unknown_dim_allowed: bool = False) -> Optional[List[TensorShape]]:
    """TF's _as_shape_list: None, one shape, or one shape per component."""
    if unknown_dim_allowed:
        if not isinstance(shapes, (list, tuple)) or not shapes or \
                any(s is None or isinstance(s, int) for s in shapes):
            raise ValueError("When providing partial shapes, a list of shapes must be "
                             "provided.")
    if shapes is None:
        return None
    if isinstance(shapes, TensorShape):
        shapes = [shapes]
    if not isinstance(shapes, (tuple, list)):
        raise TypeError("Shapes must be a TensorShape or a list or tuple of TensorShapes, "
                        f"got {type(shapes)} instead.")
    if all(s is None or isinstance(s, int) for s in shapes):
        shapes = [shapes]
    shapes = [as_shape(s) for s in shapes]
    if not unknown_dim_allowed and any(not s.is_fully_defined() for s in shapes):
        raise ValueError(f"All shapes must be fully defined: {shapes}")
    if any(s.rank is None for s in shapes):
        raise ValueError(f"All shapes must have a defined rank: {shapes}")
    return shapes


def _as_name_list(names: Any, dtypes: List[D.DType]) -> Optional[List[Any]]:
    if names is None:
        return None
    if not isinstance(names, (list, tuple)):
        names = [names]
    if len(names) != len(dtypes):
        raise ValueError("List of names must have the same length as the list of dtypes, "
                         f"received len(names)={len(names)},len(dtypes)={len(dtypes)}")
    return list(names)


def _shape_common(s1: Any, s2: Any) -> TensorShape:
    """The most specific shape both shapes are compatible with."""
    s1, s2 = TensorShape(s1), TensorShape(s2)
    if s1.rank is None or s2.rank is None or s1.rank != s2.rank:
        return unknown_shape()
    return TensorShape([a if a is not None and a == b else None
                        for a, b in zip(s1.as_list(), s2.as_list())])


class QueueBase:
    """`tf.queue.QueueBase`: a queue of elements (tuples of tensors with fixed dtypes)."""

    def __init__(self, dtypes: Sequence[D.DType], shapes: Optional[Sequence[Any]],
                 names: Optional[Sequence[Any]], queue_ref: Tensor):
        self._dtypes = list(dtypes)
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError("Queue shapes must have the same length as dtypes, "
                                 f"received len(shapes)={len(shapes)}, "
                                 f"len(dtypes)={len(dtypes)}")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [unknown_shape() for _ in self._dtypes]
        if names is not None:
            if len(names) != len(dtypes):
                raise ValueError("Queue names must have the same length as dtypes,received "
                                 f"len(names)={len(names)},len {len(dtypes)}")
            self._names: Optional[List[Any]] = list(names)
        else:
            self._names = None
        self._queue_ref = queue_ref
        if getattr(queue_ref, "_is_eager_tensor", False):
            from tf1compat.framework import context
            self._name = context.eager_scope_name() or "Empty"    # TF eager queue name
        else:
            self._name = queue_ref.op.name.split("/")[-1]

    @staticmethod
    def from_list(index: Any, queues: Sequence["QueueBase"]) -> "QueueBase":
        """A queue whose operations act on `queues[index]` (`index` chosen at run time)."""
        if not queues or not isinstance(queues, list) or \
                not all(isinstance(q, QueueBase) for q in queues):
            raise TypeError("A list of queues expected")
        dtypes = queues[0].dtypes
        if not all(dtypes == q.dtypes for q in queues[1:]):
            raise TypeError("Queues do not have matching component dtypes.")
        names = queues[0].names
        if not all(names == q.names for q in queues[1:]):
            raise TypeError("Queues do not have matching component names.")
        reduced = [functools.reduce(_shape_common, s) for s in zip(*[q.shapes for q in queues])]
        from tf1compat.ops.array_ops import stack
        from tf1compat.ops.indexing_ops import gather
        selected = gather(stack([q.queue_ref for q in queues]), index)
        return QueueBase(dtypes=dtypes, shapes=reduced, names=names, queue_ref=selected)

    @property
    def queue_ref(self) -> Tensor:
        """The queue's resource handle."""
        return self._queue_ref

    @property
    def name(self) -> str:
        if getattr(self._queue_ref, "_is_eager_tensor", False):
            return self._name
        return self._queue_ref.op.name

    @property
    def dtypes(self) -> List[D.DType]:
        return self._dtypes

    @property
    def shapes(self) -> List[TensorShape]:
        return self._shapes

    @property
    def names(self) -> Optional[List[Any]]:
        return self._names

    def _check_enqueue_dtypes(self, vals: Any) -> List[Tensor]:
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Queue must have names to enqueue a dictionary")
            if sorted(self._names, key=str) != sorted(vals.keys(), key=str):
                raise ValueError("Keys in dictionary to enqueue do not match names of Queue. "
                                 f" Dictionary: {sorted(vals.keys())},Queue: "
                                 f"{sorted(self._names)}")
            vals = [vals[k] for k in self._names]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a Queue with names")
            if not isinstance(vals, (list, tuple)):
                vals = [vals]
        return [convert_to_tensor(val, dtype=dtype, name=f"component_{i}")
                for i, (val, dtype) in enumerate(zip(vals, self._dtypes))]

    @staticmethod
    def _scope_vals(vals: Any) -> List[Any]:
        if isinstance(vals, (list, tuple)):
            return list(vals)
        if isinstance(vals, dict):
            return list(vals.values())
        return [vals]

    def enqueue(self, vals: Any, name: Optional[str] = None) -> Any:
        """The op enqueuing one element (blocks while the queue is full)."""
        with name_scope(name, f"{self._name}_enqueue", self._scope_vals(vals)) as scope:
            vals = self._check_enqueue_dtypes(vals)
            for val, shape in zip(vals, self._shapes):
                val.get_shape().assert_is_compatible_with(shape)
            return apply_op("QueueEnqueueV2", [self._queue_ref, vals], {}, name=scope)

    def enqueue_many(self, vals: Any, name: Optional[str] = None) -> Any:
        """The op enqueuing the slices of `vals` along dimension 0 as elements."""
        with name_scope(name, f"{self._name}_EnqueueMany", self._scope_vals(vals)) as scope:
            vals = self._check_enqueue_dtypes(vals)
            batch_dim = Dimension(vals[0].get_shape().with_rank_at_least(1)[0])
            for val, shape in zip(vals, self._shapes):
                val_batch = Dimension(val.get_shape().with_rank_at_least(1)[0])
                batch_dim = batch_dim.merge_with(val_batch)
                val.get_shape()[1:].assert_is_compatible_with(shape)
            return apply_op("QueueEnqueueManyV2", [self._queue_ref, vals], {}, name=scope)

    def _dequeue_return_value(self, tensors: Sequence[Tensor]) -> Any:
        if self._names:
            return {n: tensors[i] for i, n in enumerate(self._names)}
        if len(tensors) == 1:
            return tensors[0]
        return list(tensors)

    def dequeue(self, name: Optional[str] = None) -> Any:
        """One element (blocks while empty; OutOfRangeError once closed and empty)."""
        if name is None:
            name = f"{self._name}_Dequeue"
        op = apply_op("QueueDequeueV2", [self._queue_ref],
                      {"component_types": self._dtypes}, name=name)
        if not _eager():
            for output, shape in zip(op.outputs, self._shapes):
                output.set_shape(shape)
        return self._dequeue_return_value(op.outputs)

    def dequeue_many(self, n: Any, name: Optional[str] = None) -> Any:
        """`n` elements, each component concatenated along a new dimension 0."""
        if name is None:
            name = f"{self._name}_DequeueMany"
        op = apply_op("QueueDequeueManyV2", [self._queue_ref, n],
                      {"component_types": self._dtypes}, name=name)
        if not _eager():
            from tf1compat.framework.constant_value import constant_value
            batch = constant_value(op.inputs[1])
            batch_dim = Dimension(None if batch is None else int(batch))
            for output, shape in zip(op.outputs, self._shapes):
                output.set_shape(TensorShape([batch_dim]).concatenate(shape))
        return self._dequeue_return_value(op.outputs)

    def dequeue_up_to(self, n: Any, name: Optional[str] = None) -> Any:
        """Like dequeue_many, but a closed queue gives what is left (at least one)."""
        if name is None:
            name = f"{self._name}_DequeueUpTo"
        op = apply_op("QueueDequeueUpToV2", [self._queue_ref, n],
                      {"component_types": self._dtypes}, name=name)
        if not _eager():
            for output, shape in zip(op.outputs, self._shapes):
                output.set_shape(TensorShape([None]).concatenate(shape))
        return self._dequeue_return_value(op.outputs)

    def close(self, cancel_pending_enqueues: bool = False, name: Optional[str] = None) -> Any:
        """The op closing the queue (later enqueues fail; dequeues drain what is left)."""
        if name is None:
            name = f"{self._name}_Close"
        return apply_op("QueueCloseV2", [self._queue_ref],
                        {"cancel_pending_enqueues": bool(cancel_pending_enqueues)}, name=name)

    def is_closed(self, name: Optional[str] = None) -> Tensor:
        if name is None:
            name = f"{self._name}_Is_Closed"
        return apply_op("QueueIsClosedV2", [self._queue_ref], {}, name=name).outputs[0]

    def size(self, name: Optional[str] = None) -> Tensor:
        """The number of elements in the queue (an int32 scalar)."""
        if name is None:
            name = f"{self._name}_Size"
        return apply_op("QueueSizeV2", [self._queue_ref], {}, name=name).outputs[0]


def _eager() -> bool:
    from tf1compat.framework import context
    return context.executing_eagerly()


def _queue_op(op_type: str, attrs: Dict[str, Any], name: str) -> Tensor:
    if _eager():
        # As TF: an eager queue is its own resource, whatever shared_name says.
        attrs = dict(attrs, shared_name=f"eager_queue_{next(_EAGER_IDS)}")
    return apply_op(op_type, [], attrs, name=name).outputs[0]


_EAGER_IDS = itertools.count()


class FIFOQueue(QueueBase):
    """`tf.queue.FIFOQueue`: elements come out in the order they went in."""

    def __init__(self, capacity: int, dtypes: Any, shapes: Any = None, names: Any = None,
                 shared_name: Optional[str] = None, name: str = "fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes)
        names = _as_name_list(names, dtypes)
        # As TF: outside control dependencies (init_scope), pinned to the CPU.
        with control_dependencies(None), device("CPU"):
            ref = _queue_op("FIFOQueueV2", {"component_types": dtypes,
                                            "shapes": shapes or [], "capacity": capacity,
                                            "shared_name": shared_name or ""}, name)
        super().__init__(dtypes, shapes, names, ref)


class PaddingFIFOQueue(QueueBase):
    """`tf.queue.PaddingFIFOQueue`: a FIFOQueue whose component shapes may have unknown
    dimensions; `dequeue_many` pads each batch to its largest element."""

    def __init__(self, capacity: int, dtypes: Any, shapes: Any, names: Any = None,
                 shared_name: Optional[str] = None, name: str = "padding_fifo_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes, unknown_dim_allowed=True)
        names = _as_name_list(names, dtypes)
        if len(dtypes) != len(shapes):
            raise ValueError("Shapes must be provided for all components, but received "
                             f"{len(dtypes)} dtypes and {len(shapes)} shapes.")
        ref = _queue_op("PaddingFIFOQueueV2", {"component_types": dtypes, "shapes": shapes,
                                               "capacity": capacity,
                                               "shared_name": shared_name or ""}, name)
        super().__init__(dtypes, shapes, names, ref)


class RandomShuffleQueue(QueueBase):
    """`tf.queue.RandomShuffleQueue`: dequeues take a random element, keeping at least
    `min_after_dequeue` in the queue until it is closed."""

    def __init__(self, capacity: int, min_after_dequeue: int, dtypes: Any, shapes: Any = None,
                 names: Any = None, seed: Optional[int] = None,
                 shared_name: Optional[str] = None, name: str = "random_shuffle_queue"):
        dtypes = _as_type_list(dtypes)
        shapes = _as_shape_list(shapes)
        names = _as_name_list(names, dtypes)
        seed1, seed2 = get_seed(seed)
        if seed1 is None and seed2 is None:
            seed1, seed2 = 0, 0
        elif seed is None and shared_name is not None:
            # With only a graph seed, queues sharing a name still get distinct streams.
            digest = hashlib.md5((str(seed1) + shared_name).encode("utf-8")).hexdigest()
            seed2 = int(digest[:8], 16) & 0x7FFFFFFF
        ref = _queue_op("RandomShuffleQueueV2",
                        {"component_types": dtypes, "shapes": shapes or [],
                         "capacity": capacity, "min_after_dequeue": min_after_dequeue,
                         "seed": seed1, "seed2": seed2, "shared_name": shared_name or ""},
                        name)
        super().__init__(dtypes, shapes, names, ref)


class PriorityQueue(QueueBase):
    """`tf.queue.PriorityQueue`: each element starts with an int64 scalar priority;
    dequeues take the smallest priority first."""

    def __init__(self, capacity: int, types: Any, shapes: Any = None, names: Any = None,
                 shared_name: Optional[str] = None, name: str = "priority_queue"):
        types = _as_type_list(types)
        shapes = _as_shape_list(shapes)
        ref = _queue_op("PriorityQueueV2", {"component_types": types,
                                            "shapes": shapes or [], "capacity": capacity,
                                            "shared_name": shared_name or ""}, name)
        priority_dtypes = [D.int64] + types
        priority_shapes = [TensorShape([])] + shapes if shapes else shapes
        super().__init__(priority_dtypes, priority_shapes, names, ref)
