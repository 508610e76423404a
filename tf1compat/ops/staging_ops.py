"""`StagingArea` (`tf.contrib.staging.StagingArea`) and TF's ops behind it: Stage,
Unstage, StagePeek, StageSize, StageClear.

A staging area is a session resource shared by every op naming the same `shared_name`
(the area's name): a FIFO buffer of tuples, which input pipelines fill one step ahead
(`tf.group(train_op, area.put(next_batch))`) so the next step's batch is already where
the model runs. `put` waits while the buffer holds `capacity` tuples or adding one would
pass `memory_limit` bytes (0: no limit); `get` waits for a tuple and removes the oldest;
`peek(i)` waits until there are i + 1 and returns the i-th without removing it. Waits end
at the run's deadline (`RunOptions.timeout_in_ms`) or when the session closes. The ops
run on whatever device they are placed on (the values stay there, as TF's GPU staging).
"""

from __future__ import annotations

import collections
import threading
from typing import Any, Callable, Deque, List, Optional, Sequence, Tuple

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import (apply_op, colocate_with, get_default_graph,
                                       name_scope)
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops.control_flow_ops import no_op
from tf1compat.ops.array_ops import identity
from tf1compat.ops import _queues
from tf1compat.ops.queue_ops import shared_resource

__all__ = ["StagingArea"]


# -- run time ----------------------------------------------------------------------------------

def _nbytes(values: Sequence[Any]) -> int:
    return sum(v.numel() * v.element_size() if isinstance(v, torch.Tensor)
               else getattr(v, "nbytes", 0) for v in values)


class _StagingBuffer:
    """TF's StagingArea Buffer: tuples in arrival order, bounded by a count and a size."""

    def __init__(self, capacity: int, memory_limit: int):
        self.capacity = capacity
        self.memory_limit = memory_limit
        self._tuples: Deque[Tuple[Any, ...]] = collections.deque()
        self._bytes = 0
        self._cond = threading.Condition()
        self._cancelled = False

    def _wait(self, ready: Callable[[], bool], what: str, deadline: Optional[float]) -> None:
        _queues.wait_until(self._cond, ready, lambda: self._cancelled, what, deadline)

    def put(self, values: Tuple[Any, ...], deadline: Optional[float]) -> None:
        size = _nbytes(values)
        if self.memory_limit and size > self.memory_limit:
            raise errors.InvalidArgumentError(
                None, None, f"Attempted to insert tensors with combined size of '{size}' "
                            f"bytes into Staging Area with a memory limit of "
                            f"'{self.memory_limit}'.")
        with self._cond:
            self._wait(lambda: not (
                (self.capacity and len(self._tuples) >= self.capacity) or
                (self.memory_limit and self._bytes + size > self.memory_limit)),
                "Stage", deadline)
            self._tuples.append(values)
            self._bytes += size
            self._cond.notify_all()

    def get(self, deadline: Optional[float]) -> Tuple[Any, ...]:
        with self._cond:
            self._wait(lambda: bool(self._tuples), "Unstage", deadline)
            values = self._tuples.popleft()
            self._bytes -= _nbytes(values)
            self._cond.notify_all()
            return values

    def peek(self, index: int, deadline: Optional[float]) -> Tuple[Any, ...]:
        with self._cond:
            self._wait(lambda: len(self._tuples) > index, "StagePeek", deadline)
            return self._tuples[index]

    def size(self) -> int:
        with self._cond:
            return len(self._tuples)

    def clear(self) -> None:
        with self._cond:
            self._tuples.clear()
            self._bytes = 0
            self._cond.notify_all()

    def close(self) -> None:
        """The session closed: waiting puts and gets are cancelled."""
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()


def _buffer(node: Any, kctx: Any) -> _StagingBuffer:
    return shared_resource(node, kctx, lambda name: _StagingBuffer(
        int(node.attrs["capacity"]), int(node.attrs["memory_limit"])))


def _checked(node: Any, values: Tuple[Any, ...]) -> Tuple[Any, ...]:
    want = len(node.attrs["dtypes"])
    if len(values) != want:
        raise errors.InvalidArgumentError(
            None, None, f"Staged tuple has {len(values)} components but {node.type} expects "
                        f"{want}")
    return values


def _stage_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    buffer = _buffer(node, kctx)
    deadline = kctx.runtime.run_deadline
    # The buffer keeps what it is given: a value that may share storage with a feed, a
    # constant or a variable is copied, as TF's Stage copies tensors.
    copies = [kctx.input_may_alias(t) for t in node.inputs]

    def stage(*values: Any) -> None:
        kept = tuple(v.clone() if c and isinstance(v, torch.Tensor) else v
                     for v, c in zip(values, copies))
        buffer.put(kept, deadline())
    return stage


def _unstage_kernel(node: Any, kctx: Any) -> Callable[[], Any]:
    buffer = _buffer(node, kctx)
    deadline = kctx.runtime.run_deadline
    return lambda: _checked(node, buffer.get(deadline()))


def _peek_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    buffer = _buffer(node, kctx)
    deadline = kctx.runtime.run_deadline
    return lambda index: _checked(node, buffer.peek(int(index), deadline()))


def _size_kernel(node: Any, kctx: Any) -> Callable[[], Any]:
    buffer = _buffer(node, kctx)
    return lambda: torch.tensor(buffer.size(), dtype=torch.int32)


def _clear_kernel(node: Any, kctx: Any) -> Callable[[], None]:
    buffer = _buffer(node, kctx)
    return buffer.clear


_AREA_ATTRS = {"capacity": 0, "memory_limit": 0, "container": "", "shared_name": ""}


def _outputs_unknown(ctx: Any) -> List[TensorShape]:
    return [unknown_shape() for _ in ctx.attr("dtypes")]


declare("Stage", inputs=["values: dtypes"], attrs={"dtypes": TypeList(), **_AREA_ATTRS},
        shape=lambda ctx: [], kernel=_stage_kernel, grad="none", stateful=True,
        doc="Adds a tuple to the staging area; waits while it is full.")
declare("Unstage", outputs=["values: dtypes"], attrs={"dtypes": TypeList(), **_AREA_ATTRS},
        shape=_outputs_unknown, kernel=_unstage_kernel, grad="none", stateful=True,
        doc="Removes and returns the oldest tuple; waits while the area is empty.")
declare("StagePeek", inputs=["index: int32"], outputs=["values: dtypes"],
        attrs={"dtypes": TypeList(), **_AREA_ATTRS}, shape=_outputs_unknown,
        kernel=_peek_kernel, grad="none", stateful=True,
        doc="The tuple at `index` (0: the oldest), left in place; waits until it exists.")
# Size and Clear carry `dtypes` without using it (TF's op defs require it; the area's
# ops always set it).
declare("StageSize", outputs=["size: int32"],
        attrs={"dtypes": TypeList(default=[]), **_AREA_ATTRS},
        shape=lambda ctx: [TensorShape([])], kernel=_size_kernel, grad="none",
        stateful=True, doc="The number of tuples in the staging area.")
declare("StageClear", attrs={"dtypes": TypeList(default=[]), **_AREA_ATTRS},
        shape=lambda ctx: [],
        kernel=_clear_kernel, grad="none", stateful=True,
        doc="Removes every tuple from the staging area.")


# -- the Python class --------------------------------------------------------------------------

class StagingArea:
    """A staging area of tuples with `dtypes` (and optional static `shapes` and component
    `names`: then puts and gets are dicts), shared by its ops through its name."""

    def __init__(self, dtypes: Sequence[Any], shapes: Optional[Sequence[Any]] = None,
                 names: Optional[Sequence[str]] = None, shared_name: Optional[str] = None,
                 capacity: int = 0, memory_limit: int = 0):
        if shared_name is None:
            self._name = get_default_graph().unique_name(type(self).__name__)
        elif isinstance(shared_name, str):
            self._name = shared_name
        else:
            raise ValueError(f"shared_name must be a string, got {shared_name}")
        self._dtypes = dtypes
        if shapes is not None:
            if len(shapes) != len(dtypes):
                raise ValueError("StagingArea shapes must be the same length as dtypes")
            self._shapes = [TensorShape(s) for s in shapes]
        else:
            self._shapes = [unknown_shape() for _ in dtypes]
        if names is not None and len(names) != len(dtypes):
            raise ValueError("StagingArea names must be the same length as dtypes")
        self._names = names
        self._capacity = capacity
        self._memory_limit = memory_limit
        # Every op of the area is colocated with this one, as in TF.
        with name_scope(f"{self._name}_root"):
            self._coloc_op = no_op()

    name = property(lambda self: self._name, doc="The area's (shared) name.")
    dtypes = property(lambda self: self._dtypes, doc="The components' dtypes.")
    shapes = property(lambda self: self._shapes, doc="The components' static shapes.")
    names = property(lambda self: self._names, doc="The components' names, or None.")
    capacity = property(lambda self: self._capacity, doc="The most tuples it holds (0: any).")
    memory_limit = property(lambda self: self._memory_limit,
                            doc="The most bytes it holds (0: any).")

    def _attrs(self) -> dict:
        return {"dtypes": [D.as_dtype(d) for d in self._dtypes], "capacity": self._capacity,
                "memory_limit": self._memory_limit, "shared_name": self._name}

    def _check_put_dtypes(self, vals: Any, indices: Optional[List[int]] = None
                          ) -> Tuple[List[Any], List[int]]:
        """The values to stage, converted, with their component indices; ValueError
        where they do not fit the area (TF's checks and messages)."""
        if isinstance(vals, dict):
            if not self._names:
                raise ValueError("Staging areas must have names to enqueue a dictionary")
            if not set(vals.keys()).issubset(self._names):
                raise ValueError("Keys in dictionary to put do not match names of staging "
                                 f"area. Dictionary: {sorted(vals.keys())}Queue: "
                                 f"{sorted(self._names)}")
            # The area's name order is the order of the staged components.
            indices = [i for i, k in enumerate(self._names) if k in vals]
            vals = [vals[self._names[i]] for i in indices]
        else:
            if self._names:
                raise ValueError("You must enqueue a dictionary in a staging area with names")
            if indices is None:
                raise ValueError("Indices must be supplied when inserting a list of tensors")
            if len(indices) != len(vals):
                raise ValueError(f"Number of indices {len(indices)} doesn't match number of "
                                 f"values {len(vals)}")
        if len(vals) > len(self._dtypes):
            raise ValueError(f"Unexpected number of inputs {len(vals)} vs "
                             f"{len(self._dtypes)}")
        tensors = []
        for val, i in zip(vals, indices):
            dtype, shape = self._dtypes[i], self._shapes[i]
            if val.dtype != dtype:
                raise ValueError(f"Datatypes do not match. Received val.dtype "
                                 f"{val.dtype} and dtype {D.as_dtype(dtype)}")
            val.get_shape().assert_is_compatible_with(shape)
            tensors.append(convert_to_tensor(val, dtype=dtype, name=f"component_{i}"))
        return tensors, indices

    def _get_return_value(self, tensors: List[Any]) -> Any:
        # A get under another device scope than the area's goes through an Identity.
        if no_op().device != self._coloc_op.device:
            tensors = [identity(t) for t in tensors]
        for t, shape in zip(tensors, self._shapes):
            t.set_shape(shape)
        if self._names:
            return {self._names[i]: t for i, t in enumerate(tensors)}
        return tensors

    def put(self, values: Any, name: Optional[str] = None) -> Any:
        """The Stage op adding `values` (a tensor, list, tuple, or dict by name)."""
        scope_vals = list(values.values()) if isinstance(values, dict) else \
            list(values) if isinstance(values, (list, tuple)) else [values]
        with name_scope(name, f"{self._name}_put", scope_vals) as scope:
            if not isinstance(values, (list, tuple, dict)):
                values = [values]
            tensors, _ = self._check_put_dtypes(values, list(range(len(values))))
            with colocate_with(self._coloc_op):
                attrs = dict(self._attrs(), dtypes=[t.dtype.base_dtype for t in tensors])
                return apply_op("Stage", [tensors], attrs, name=scope)

    def _get_op(self, op_type: str, inputs: List[Any], name: str) -> Any:
        with colocate_with(self._coloc_op):
            op = apply_op(op_type, inputs, self._attrs(), name=name)
        return self._get_return_value(list(op._outputs))

    def get(self, name: Optional[str] = None) -> Any:
        """The Unstage op's tensors: the oldest tuple, removed."""
        return self._get_op("Unstage", [], name or f"{self._name}_get")

    def peek(self, index: Any, name: Optional[str] = None) -> Any:
        """The StagePeek op's tensors: the tuple at `index`, left in place."""
        return self._get_op("StagePeek", [index], name or f"{self._name}_peek")

    def size(self, name: Optional[str] = None) -> Any:
        """The number of tuples staged (a StageSize op)."""
        return apply_op("StageSize", [], self._attrs(),
                        name=name or f"{self._name}_size")._outputs[0]

    def clear(self, name: Optional[str] = None) -> Any:
        """The StageClear op, which empties the area."""
        return apply_op("StageClear", [], self._attrs(), name=name or f"{self._name}_clear")
