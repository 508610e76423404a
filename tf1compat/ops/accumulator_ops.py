"""`tf.ConditionalAccumulator` and `tf.SparseConditionalAccumulator` (gradient aggregation
for synchronous replicas) with TF's ops: ResourceConditionalAccumulator /
ResourceAccumulator{ApplyGradient,TakeGradient,NumAccumulated,SetGlobalStep} (what TF 2's
compat.v1 builds), the ref-handle ConditionalAccumulator / Accumulator* ops of TF 1.x
graphs, and SparseConditionalAccumulator / SparseAccumulator{Apply,Take}Gradient.

An accumulator is a session resource (as a queue). `apply_grad(g, local_step)` adds `g`
unless it is stale (`local_step` < the accumulator's global step: silently dropped);
`take_grad(n)` waits until `n` gradients are in, returns their mean (`reduction_type`
"MEAN") or sum, empties the accumulator and advances its global step. A sparse
accumulator sums rows by index and, for "MEAN", divides each row by how many gradients
touched it (TF's merge of index lists, so the output order is TF's).

Ref handles (`Ref(string)` in TF) are declared here as plain string inputs of the
consumer ops: their run-time value is the accumulator object, which no plan aliases.
"""

from __future__ import annotations

import collections
import functools
import threading
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.op_def import REQUIRED, Type, declare, no_kernel
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from tf1compat.ops import _queues
from tf1compat.ops.queue_ops import shared_resource

__all__ = ["ConditionalAccumulatorBase", "ConditionalAccumulator",
           "SparseConditionalAccumulator"]

_FLOATS = (torch.float16, torch.float32, torch.float64)


# -- run time -------------------------------------------------------------------------------------

class _Accumulator:
    """TF's ConditionalAccumulatorBase: a counter, a global step, waiting takers."""

    def __init__(self, name: str, dtype: D.DType, shape: TensorShape, reduction: str):
        self.name = name
        self.dtype = dtype
        self.shape = shape
        self.reduction = reduction
        self.global_step = 0
        self.counter = 0
        self._cond = threading.Condition()
        self._takers: List[object] = []       # waiting take_grad calls, first come first
        self._cancelled = False

    def apply(self, local_step: int, gradient: Any) -> None:
        with self._cond:
            if local_step < self.global_step:
                return                        # stale: dropped, as TF (silently)
            self._check(gradient)
            if self.counter == 0:
                self._assign(gradient)
            else:
                self._add(gradient)
            self.counter += 1
            self._cond.notify_all()

    def take(self, num_required: int, deadline: Optional[float]) -> Any:
        if num_required < 1:
            raise errors.InvalidArgumentError(
                None, None, f"Argument num_required must be positive, but was {num_required}")
        ticket = object()
        with self._cond:
            self._takers.append(ticket)
            try:
                _queues.wait_until(
                    self._cond,
                    lambda: self._takers[0] is ticket and self.counter >= num_required,
                    lambda: self._cancelled, "TakeGrad", deadline)
                if self.reduction == "MEAN":
                    self._divide()
                out = self._output()
                self.counter = 0
                self.global_step += 1
                return out
            finally:
                self._takers.remove(ticket)
                self._cond.notify_all()

    def set_global_step(self, step: int) -> None:
        with self._cond:
            self.global_step = step

    def num_accumulated(self) -> int:
        with self._cond:
            return self.counter

    def close(self) -> None:
        """The session closed: waiting takers are cancelled."""
        with self._cond:
            self._cancelled = True
            self._cond.notify_all()

    # -- the gradient kind's arithmetic --------------------------------------------------------
    def _check(self, gradient: Any) -> None:
        raise NotImplementedError

    def _assign(self, gradient: Any) -> None:
        raise NotImplementedError

    def _add(self, gradient: Any) -> None:
        raise NotImplementedError

    def _divide(self) -> None:
        raise NotImplementedError

    def _output(self) -> Any:
        raise NotImplementedError


class DenseAccumulator(_Accumulator):
    """Sums dense gradients of one shape."""

    kind = "ConditionalAccumulator"

    def __init__(self, name: str, dtype: D.DType, shape: TensorShape, reduction: str):
        super().__init__(name, dtype, shape, reduction)
        self._sum: Optional[torch.Tensor] = None

    def _check(self, gradient: torch.Tensor) -> None:
        actual = tuple(gradient.shape)
        expected = self.shape if self.counter == 0 or self._sum is None else \
            TensorShape(list(self._sum.shape))
        if expected.rank is not None and not _queues.value_matches(expected, actual):
            raise errors.InvalidArgumentError(
                None, None, f"Shape mismatch: expected {_queues.shape_text(_dims(expected))}"
                            f", got {_queues.shape_text(actual)}")

    def _assign(self, gradient: torch.Tensor) -> None:
        self._sum = gradient.detach().clone()

    def _add(self, gradient: torch.Tensor) -> None:
        self._sum = self._sum + gradient

    def _divide(self) -> None:
        self._sum = self._sum / self.counter

    def _output(self) -> torch.Tensor:
        return self._sum


class SparseAccumulator(_Accumulator):
    """Sums IndexedSlices gradients row by row (TF's SparseConditionalAccumulator)."""

    kind = "SparseConditionalAccumulator"

    def __init__(self, name: str, dtype: D.DType, shape: TensorShape, reduction: str):
        super().__init__(name, dtype, shape, reduction)
        self._indices: List[int] = []
        self._counts: List[int] = []
        self._values: Optional[torch.Tensor] = None

    def _check(self, gradient: Tuple[Any, Any, Any]) -> None:
        indices, values, shape = gradient
        dims = _dims(self.shape)
        if shape is not None:
            given = [int(d) for d in shape.reshape(-1).tolist()]
            if len(dims) > len(given):
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: expected shape rank at least {len(dims)}, "
                                f"got {len(given)}")
            for i, d in enumerate(dims):
                if d is not None and d != given[i]:
                    raise errors.InvalidArgumentError(
                        None, None, f"Shape mismatch: expected shape dim {i} to be {d}, got "
                                    f"{given[i]}")
        if dims and dims[0] is not None:
            for i, index in enumerate(indices.tolist()):
                if index >= dims[0]:
                    raise errors.InvalidArgumentError(
                        None, None, f"Shape mismatch: index of slice {i} exceeded limits of "
                                    f"shape; index is {index} exceeded {dims[0]}")
        if self.counter > 0:
            if self._values.dim() != values.dim():
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: expected values rank {self._values.dim()}, "
                                f"got {values.dim()}")
            reference = list(self._values.shape)
        else:
            if len(dims) > values.dim():
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: expected values rank at least {len(dims)}, "
                                f"got {values.dim()}")
            reference = [None] + dims[1:]
        for i in range(1, len(reference)):
            if reference[i] is not None and reference[i] != values.shape[i]:
                raise errors.InvalidArgumentError(
                    None, None, f"Shape mismatch: expected values dim {i} to be "
                                f"{reference[i]}, got {values.shape[i]}")

    def _assign(self, gradient: Tuple[Any, Any, Any]) -> None:
        indices, values, _ = gradient
        self._indices = [int(i) for i in indices.tolist()]
        self._counts = [1] * len(self._indices)
        self._values = values.detach().clone()

    def _add(self, gradient: Tuple[Any, Any, Any]) -> None:
        """TF's merge walk over both index lists (sorted ones merge, equal ones add)."""
        indices, values, _ = gradient
        new = [int(i) for i in indices.tolist()]
        rows, out_indices, counts = [], [], []
        i = j = 0
        while i < len(self._indices) or j < len(new):
            if j >= len(new) or (i < len(self._indices) and self._indices[i] < new[j]):
                rows.append(self._values[i])
                out_indices.append(self._indices[i])
                counts.append(self._counts[i])
                i += 1
            elif i >= len(self._indices) or self._indices[i] > new[j]:
                rows.append(values[j])
                out_indices.append(new[j])
                counts.append(1)
                j += 1
            else:
                rows.append(self._values[i] + values[j])
                out_indices.append(new[j])
                counts.append(self._counts[i] + 1)
                i += 1
                j += 1
        self._indices, self._counts = out_indices, counts
        self._values = torch.stack(rows) if rows else self._values[:0]

    def _divide(self) -> None:
        counts = torch.tensor(self._counts, dtype=self._values.dtype).reshape(
            (-1,) + (1,) * (self._values.dim() - 1))
        self._values = self._values / counts

    def _output(self) -> tuple:
        dims = _dims(self.shape)
        first = dims[0] if dims and dims[0] is not None else -1
        shape = [first] + list(self._values.shape[1:])
        return (torch.tensor(self._indices, dtype=torch.int64), self._values,
                torch.tensor(shape, dtype=torch.int64))


def _dims(shape: TensorShape) -> List[Optional[int]]:
    return [] if shape.rank is None else list(shape.as_list())


# -- ops ---------------------------------------------------------------------------------------------

def _make(cls: type, node: Any, name: str) -> _Accumulator:
    dtype = node.attrs["dtype"]
    if dtype.torch_dtype not in _FLOATS:
        raise no_kernel(node, f"dtype=DT_{dtype.name.upper()}")
    return cls(name, dtype, as_shape(node.attrs["shape"]),
               _text(node.attrs["reduction_type"]))


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _mismatch(accumulator: Any, node: Any) -> Optional[str]:
    kind = "SparseConditionalAccumulator" if "Sparse" in node.type else \
        "ConditionalAccumulator"
    if getattr(accumulator, "kind", None) != kind:
        return f"Shared resource '{_text(node.attrs['shared_name'])}' is not a {kind}"
    return None


def _handle_kernel(cls: type) -> Callable[..., Any]:
    def factory(node: Any, kctx: Any) -> Any:
        return shared_resource(node, kctx, functools.partial(_make, cls, node), _mismatch)
    return factory


def _as_accumulator(handle: Any) -> _Accumulator:
    if isinstance(handle, np.ndarray) and handle.shape == ():
        handle = handle[()]
    if not isinstance(handle, _Accumulator):
        raise errors.InvalidArgumentError(None, None,
                                          "Input handle is not an accumulator resource")
    return handle


_HANDLE_ATTRS = {"dtype": REQUIRED, "shape": REQUIRED, "container": "", "shared_name": "",
                 "reduction_type": "MEAN"}
for _type, _cls, _out in (("ResourceConditionalAccumulator", DenseAccumulator,
                           "handle: resource"),
                          ("ConditionalAccumulator", DenseAccumulator, "handle: Ref(string)"),
                          ("SparseConditionalAccumulator", SparseAccumulator,
                           "handle: Ref(string)")):
    declare(_type, outputs=[_out], attrs=dict(_HANDLE_ATTRS),
            shape=lambda ctx: [TensorShape([2])], kernel=_handle_kernel(_cls), grad="none",
            stateful=True, cpu_only=True, constant=True,
            doc=f"TF's {_type}: the session's accumulator object.")


def _check_signature(node: Any, accumulator: _Accumulator) -> None:
    """TF's MatchSignature: the op's gradient dtype must be the accumulator's."""
    if node.attrs["dtype"] == accumulator.dtype:
        return
    from tf1compat.ops.queue_ops import type_string

    def text(dtypes: List[D.DType]) -> str:
        return ", ".join(type_string(d) if d != D.string._as_ref else "string_ref"
                         for d in dtypes)
    have = [t.dtype for t in node.inputs]
    expected = [have[0]] + [accumulator.dtype if t.dtype == node.attrs["dtype"] else t.dtype
                            for t in node.inputs[1:]]
    raise errors.InvalidArgumentError(None, None, f"Signature mismatch, have: {text(have)}->"
                                                  f" expected: {text(expected)}->")


def _apply_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    def apply(handle: Any, local_step: Any, gradient: Any) -> None:
        accumulator = _as_accumulator(handle)
        _check_signature(node, accumulator)
        accumulator.apply(int(local_step), gradient)
    return apply


def _sparse_apply_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    known = bool(node.attrs["has_known_shape"])

    def apply(handle: Any, local_step: Any, indices: Any, values: Any, shape: Any) -> None:
        if indices.dim() != 1:
            raise errors.InvalidArgumentError(
                None, None, "Input indices should be vector but received shape: "
                            f"{_queues.shape_text(tuple(indices.shape))}")
        if values.dim() == 0:
            raise errors.InvalidArgumentError(None, None, "Values cannot be 0-dimensional.")
        if values.shape[0] != indices.shape[0]:
            raise errors.InvalidArgumentError(
                None, None, f"Expected {indices.shape[0]} non-empty input values, got "
                            f"{values.shape[0]}")
        accumulator = _as_accumulator(handle)
        _check_signature(node, accumulator)
        accumulator.apply(int(local_step), (indices, values, shape if known else None))
    return apply


def _take_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    deadline = kctx.runtime.run_deadline
    return lambda handle, n: _as_accumulator(handle).take(int(n), deadline())


def _count_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    return lambda handle: torch.tensor(_as_accumulator(handle).num_accumulated(),
                                       dtype=torch.int32)


def _set_step_kernel(node: Any, kctx: Any) -> Callable[..., None]:
    return lambda handle, step: _as_accumulator(handle).set_global_step(int(step))


def _take_shape(ctx: Any) -> List[TensorShape]:
    return [unknown_shape()]


for _prefix, _handle in (("ResourceAccumulator", "handle: resource"),
                         ("Accumulator", "handle: string")):
    declare(f"{_prefix}ApplyGradient",
            inputs=[_handle, "local_step: int64", "gradient: dtype"],
            attrs={"dtype": Type()}, shape=lambda ctx: [], kernel=_apply_kernel,
            grad="none", stateful=True, cpu_only=True)
    declare(f"{_prefix}TakeGradient", inputs=[_handle, "num_required: int32"],
            outputs=["average: dtype"], attrs={"dtype": Type()}, shape=_take_shape,
            kernel=_take_kernel, grad="none", stateful=True, cpu_only=True)
    declare(f"{_prefix}NumAccumulated", inputs=[_handle], outputs=["num_accumulated: int32"],
            shape=lambda ctx: [TensorShape([])], kernel=_count_kernel, grad="none",
            stateful=True, cpu_only=True)
    declare(f"{_prefix}SetGlobalStep", inputs=[_handle, "new_global_step: int64"],
            shape=lambda ctx: [], kernel=_set_step_kernel, grad="none", stateful=True,
            cpu_only=True)

declare("SparseAccumulatorApplyGradient",
        inputs=["handle: string", "local_step: int64", "gradient_indices: int64",
                "gradient_values: dtype", "gradient_shape: int64"],
        attrs={"dtype": Type(), "has_known_shape": REQUIRED}, shape=lambda ctx: [],
        kernel=_sparse_apply_kernel, grad="none", stateful=True, cpu_only=True)
declare("SparseAccumulatorTakeGradient", inputs=["handle: string", "num_required: int32"],
        outputs=["indices: int64", "values: dtype", "shape: int64"],
        attrs={"dtype": Type()},
        shape=lambda ctx: [unknown_shape(), unknown_shape(), unknown_shape()],
        kernel=_take_kernel, grad="none", stateful=True, cpu_only=True)


# -- the Python API ----------------------------------------------------------------------------------

class ConditionalAccumulatorBase:
    """`tf.ConditionalAccumulatorBase`: what dense and sparse accumulators share."""

    def __init__(self, dtype: Any, shape: Any, accumulator_ref: Tensor):
        self._dtype = dtype
        self._shape = TensorShape(shape) if shape is not None else unknown_shape()
        self._accumulator_ref = accumulator_ref
        if context.executing_eagerly():
            self._name = context.eager_scope_name()
        else:
            self._name = accumulator_ref.op.name.split("/")[-1]

    @property
    def accumulator_ref(self) -> Tensor:
        return self._accumulator_ref

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    def num_accumulated(self, name: Optional[str] = None) -> Tensor:
        """How many gradients have been accumulated (an int32 scalar)."""
        if name is None:
            name = f"{self._name}_NumAccumulated"
        return apply_op("ResourceAccumulatorNumAccumulated", [self._accumulator_ref], {},
                        name=name).outputs[0]

    def set_global_step(self, new_global_step: Any, name: Optional[str] = None) -> Any:
        """The op setting the accumulator's global step (older gradients are dropped)."""
        from tf1compat.ops.math_ops import cast
        return apply_op("ResourceAccumulatorSetGlobalStep",
                        [self._accumulator_ref, cast(convert_to_tensor(new_global_step),
                                                     D.int64)], {}, name=name)


def _reduction(reduction_type: str, op_type: str) -> str:
    if reduction_type not in ("MEAN", "SUM"):
        raise ValueError(f"Attr 'reduction_type' of '{op_type}' Op passed string "
                         f"'{reduction_type}' not in: \"MEAN\", \"SUM\".")
    return reduction_type


class ConditionalAccumulator(ConditionalAccumulatorBase):
    """`tf.ConditionalAccumulator`: averages (or sums) dense gradients."""

    def __init__(self, dtype: Any, shape: Any = None, shared_name: Optional[str] = None,
                 name: str = "conditional_accumulator", reduction_type: str = "MEAN"):
        dtype = D.as_dtype(dtype)
        if context.executing_eagerly() and not shared_name:
            # TF's eager kernel names the resource after the op: same name, same one.
            shared_name = name
        ref = apply_op("ResourceConditionalAccumulator", [],
                       {"dtype": dtype, "shape": TensorShape(shape) if shape is not None
                        else unknown_shape(), "shared_name": shared_name or "",
                        "reduction_type": _reduction(reduction_type,
                                                     "ResourceConditionalAccumulator")},
                       name=name).outputs[0]
        super().__init__(dtype, shape, ref)

    def apply_grad(self, grad: Any, local_step: Any = 0, name: Optional[str] = None) -> Any:
        """The op adding `grad` (dropped if `local_step` is behind the global step)."""
        from tf1compat.ops.math_ops import cast
        grad = convert_to_tensor(grad, self._dtype)
        grad.get_shape().assert_is_compatible_with(self._shape)
        local_step = cast(convert_to_tensor(local_step), D.int64)
        return apply_op("ResourceAccumulatorApplyGradient",
                        [self._accumulator_ref, local_step, grad], {}, name=name)

    def take_grad(self, num_required: Any, name: Optional[str] = None) -> Tensor:
        """The average (or sum) once `num_required` gradients are in; resets and advances
        the global step."""
        out = apply_op("ResourceAccumulatorTakeGradient", [self._accumulator_ref, num_required],
                       {"dtype": self._dtype}, name=name).outputs[0]
        if not context.executing_eagerly():
            out.set_shape(self._shape)
        return out


# (indices, values, shape), as TF's generated op wrapper returns it.
_TakeGradResult = collections.namedtuple("SparseAccumulatorTakeGradient",
                                         ["indices", "values", "shape"])


class SparseConditionalAccumulator(ConditionalAccumulatorBase):
    """`tf.SparseConditionalAccumulator`: averages (or sums) IndexedSlices gradients."""

    def __init__(self, dtype: Any, shape: Any = None, shared_name: Optional[str] = None,
                 name: str = "sparse_conditional_accumulator", reduction_type: str = "MEAN"):
        dtype = D.as_dtype(dtype)
        ref = apply_op("SparseConditionalAccumulator", [],
                       {"dtype": dtype, "shape": TensorShape(shape) if shape is not None
                        else unknown_shape(), "shared_name": shared_name or "",
                        "reduction_type": _reduction(reduction_type,
                                                     "SparseConditionalAccumulator")},
                       name=name).outputs[0]
        super().__init__(dtype, shape, ref)

    def apply_indexed_slices_grad(self, grad: IndexedSlices, local_step: Any = 0,
                                  name: Optional[str] = None) -> Any:
        return self.apply_grad(grad_indices=grad.indices, grad_values=grad.values,
                               grad_shape=grad.dense_shape, local_step=local_step, name=name)

    def apply_grad(self, grad_indices: Any, grad_values: Any, grad_shape: Any = None,
                   local_step: Any = 0, name: Optional[str] = None) -> Any:
        """The op adding the rows `grad_values` at `grad_indices`."""
        from tf1compat.ops.math_ops import cast
        local_step = cast(convert_to_tensor(local_step), D.int64)
        return apply_op("SparseAccumulatorApplyGradient",
                        [self._accumulator_ref, local_step, cast(grad_indices, D.int64),
                         grad_values, cast([] if grad_shape is None else grad_shape,
                                           D.int64)],
                        {"has_known_shape": grad_shape is not None}, name=name)

    def take_grad(self, num_required: Any, name: Optional[str] = None) -> Any:
        """(indices, values, shape) of the average (or sum) of `num_required` gradients."""
        op = apply_op("SparseAccumulatorTakeGradient", [self._accumulator_ref, num_required],
                      {"dtype": self._dtype}, name=name)
        return _TakeGradResult(*op.outputs)

    def take_indexed_slices_grad(self, num_required: Any,
                                 name: Optional[str] = None) -> IndexedSlices:
        indices, values, shape = self.take_grad(num_required, name=name)
        return IndexedSlices(indices=indices, values=values, dense_shape=shape)

    def num_accumulated(self, name: Optional[str] = None) -> Tensor:
        if name is None:
            name = f"{self._name}_NumAccumulated"
        return apply_op("AccumulatorNumAccumulated", [self._accumulator_ref], {},
                        name=name).outputs[0]

    def set_global_step(self, new_global_step: Any, name: Optional[str] = None) -> Any:
        from tf1compat.ops.math_ops import cast
        return apply_op("AccumulatorSetGlobalStep",
                        [self._accumulator_ref, cast(convert_to_tensor(new_global_step),
                                                     D.int64)], {}, name=name)
