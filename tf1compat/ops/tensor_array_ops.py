"""`tf.TensorArray` (TF1's resource-backed TensorArrayV3 family).

At run time a TensorArray is a `TensorArrayValue` (the `handle` output of the
TensorArrayV3 op, created afresh each time that op runs) holding a Python list of torch
tensors; the `flow` output is a float scalar that orders reads after writes, exactly its
role in TF. Writes mutate the list (TF's resource semantics), so a TensorArray passed
through a while loop or a cond branch as its flow is the same array. Elements are stored
as produced and `stack`/`gather`/`concat` build new tensors from them, so values keep their
autograd history (gradients through TensorArrays come from torch autograd).

Rows written as one block (`unstack`/`scatter` of rows 0..n-1 in order, the fused RNN's
outputs) are kept as that stacked tensor: a `stack`/`gather` of exactly those rows in
order returns it as it is, and single reads are its rows. A dynamic_rnn step then pays no
unbind/stack pair (hundreds of row views and their backward) around the fused kernel.
When a gather's or scatter's indices come from `range(0, n)` with constant start and
delta (`stack`, `unstack`), the kernel takes the count from their shape instead of
reading them (no host-device synchronisation on CUDA).

The Python class mirrors TF's graph-mode TensorArray: op names (`TensorArrayWrite/
TensorArrayWriteV3`, `TensorArrayStack/TensorArrayGatherV3`, ...), the shared, merged
static element shape, and the ValueError for inconsistent element shapes at graph build.
Run-time errors (out-of-range index, double write, read after clear) are TF's
InvalidArgumentError with TF's messages.
"""

from __future__ import annotations

import itertools
from typing import Any, Callable, List, Optional, Sequence

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.graph import apply_op, apply_op1, name_scope
from tf1compat.framework.op_def import REQUIRED, Type, declare
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape
from tf1compat.ops._kernels import static_ints

__all__ = ["TensorArray", "TensorArrayValue", "build_ta_with_new_flow"]

_names = itertools.count()


class _BlockRow:
    """Marks an element kept as a row of the array's block (`TensorArrayValue.block`)."""
    __slots__ = ()

    def __repr__(self) -> str:
        return "<row of the block>"


_IN_BLOCK = _BlockRow()


def _shape_text(shape: Any) -> str:
    if shape is None or getattr(shape, "rank", 0) is None:
        return "<unknown>"
    dims = shape.as_list() if isinstance(shape, TensorShape) else list(shape)
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


class TensorArrayValue:
    """The run-time state of one TensorArray (TF's TensorArray resource)."""

    __slots__ = ("name", "dtype", "size", "dynamic_size", "clear_after_read",
                 "identical_shapes", "element_shape", "elements", "cleared", "closed",
                 "device", "is_string", "aggregate", "grads", "block")

    def __init__(self, name: str, dtype: D.DType, size: int, dynamic_size: bool,
                 clear_after_read: bool, identical_shapes: bool, element_shape: TensorShape,
                 device: torch.device):
        self.name = name
        self.dtype = dtype
        self.size = size
        self.dynamic_size = dynamic_size
        self.clear_after_read = clear_after_read
        self.identical_shapes = identical_shapes
        self.element_shape = element_shape
        self.elements: List[Any] = [None] * size
        self.cleared = [False] * size
        self.closed = False
        self.device = device
        self.is_string = dtype == D.string
        self.aggregate = False     # gradient arrays: writes to one index add up
        self.grads: dict = {}      # source -> the gradient array (TensorArrayGradV3)
        # Rows 0..len(block)-1 written together: elements marked _IN_BLOCK are its rows.
        self.block: Optional[torch.Tensor] = None

    def to(self, *args: Any, **kwargs: Any) -> "TensorArrayValue":
        """Device moves inserted by plans leave the handle as it is."""
        return self

    def __repr__(self) -> str:
        return f"<TensorArray {self.name} size={len(self.elements)}>"

    @property
    def requires_grad(self) -> bool:
        """Whether a stored element carries autograd history (an eager tape then runs
        reads, stacks and gathers under grad mode, so gradients flow through the array)."""
        if self.block is not None and self.block.requires_grad:
            return True
        return any(isinstance(e, torch.Tensor) and e.requires_grad for e in self.elements)

    # -- element access ---------------------------------------------------------------
    def _check_open(self) -> None:
        if self.closed:
            raise _invalid(f"TensorArray {self.name} has already been closed.")

    def merge_shape(self, shape: TensorShape) -> None:
        if shape.rank is None:
            return
        if not self.element_shape.is_compatible_with(shape):
            raise _invalid(f"TensorArray {self.name}: Could not merge element shape "
                           f"{_shape_text(shape)} with {_shape_text(self.element_shape)}")
        self.element_shape = self.element_shape.merge_with(shape)

    def write(self, index: int, value: Any) -> None:
        self._check_write(index, _value_dtype(value),
                          np.shape(value) if isinstance(value, bytes) else value.shape)
        if self.aggregate and self.elements[index] is not None:
            self.elements[index] = self._element(index) + value
            return
        if self.elements[index] is not None or self.cleared[index]:
            raise _invalid(f"TensorArray {self.name}: Could not write to TensorArray index "
                           f"{index} because it has already been written to.")
        self.elements[index] = value

    def _check_write(self, index: int, vdtype: Optional[D.DType], value_shape: Any) -> None:
        """TF's checks of a write at `index` (open, in range, dtype, element shape); grows
        a dynamic array to hold it."""
        self._check_open()
        n = len(self.elements)
        if index < 0 or (index >= n and not self.dynamic_size):
            raise _invalid(f"TensorArray {self.name}: Tried to write to index {index} but "
                           f"array is not resizeable and size is: {n}")
        if index >= n:
            grow = index + 1 - n
            self.elements.extend([None] * grow)
            self.cleared.extend([False] * grow)
        if vdtype is not None and vdtype != self.dtype:
            raise _invalid(f"TensorArray dtype is {_c_name(self.dtype)} but Op is trying to "
                           f"write dtype {_c_name(vdtype)}.")
        # (a string scalar is a bytes object at run time, see framework/constant_op.py)
        shape = TensorShape(list(value_shape))
        if not self.element_shape.is_compatible_with(shape):
            raise _invalid(f"TensorArray {self.name}: Could not write to TensorArray index "
                           f"{index} because the value "
                           f"shape is {_shape_text(shape)} which is incompatible with the "
                           f"TensorArray's inferred element shape: "
                           f"{_shape_text(self.element_shape)} (consider setting "
                           "infer_shape=False).")
        if self.identical_shapes and not self.element_shape.is_fully_defined():
            self.element_shape = shape

    def write_rows(self, indices: Sequence[int], rows: torch.Tensor) -> None:
        """`write(indices[k], rows[k])` for every k, with the dtype and shape checks made
        once for the whole stacked tensor (scatters and unstacks write hundreds of rows
        a step); nothing is written when any index is refused. Rows 0..n-1 written in
        order into an empty array are kept as the block `rows` itself."""
        if not indices:
            return
        if len(indices) == 1 or not isinstance(rows, torch.Tensor):
            for k, i in enumerate(indices):
                self.write(i, rows[k])
            return
        self._check_open()
        n = len(self.elements)
        for i in indices:
            if i < 0 or (i >= n and not self.dynamic_size):
                raise _invalid(f"TensorArray {self.name}: Tried to write to index {i} but "
                               f"array is not resizeable and size is: {n}")
            if i < n and (self.elements[i] is not None or self.cleared[i]):
                break       # write() raises TF's error at this index, after the others
        else:
            if len(set(indices)) == len(indices):
                self._check_write(indices[0], _value_dtype(rows), rows.shape[1:])
                top = max(indices) + 1
                if top > len(self.elements):
                    grow = top - len(self.elements)
                    self.elements.extend([None] * grow)
                    self.cleared.extend([False] * grow)
                if self._takes_block(indices):
                    self.block = rows
                    self.elements[:len(indices)] = [_IN_BLOCK] * len(indices)
                    return
                for i, row in zip(indices, rows.unbind(0)):
                    self.elements[i] = row
                return
        for k, i in enumerate(indices):
            self.write(i, rows[k])

    def _takes_block(self, indices: Sequence[int]) -> bool:
        """Whether rows written at `indices` (checked, distinct, free) can be kept as one
        block: rows 0..n-1 in order, no block yet, not a gradient array (writes there
        add up)."""
        return not self.aggregate and self.block is None and _from_zero_in_order(indices)

    def _element(self, index: int) -> Any:
        """The stored element at `index` (a row of the block, or as written)."""
        value = self.elements[index]
        return self.block[index] if value is _IN_BLOCK else value

    def block_rows(self, count: int) -> Optional[torch.Tensor]:
        """Rows 0..count-1 when they are all rows of the block (the block or a slice of
        it, no copy), else None. Nothing is read: clear_after_read does not apply."""
        block = self.block
        if block is None or count < 1 or count > block.shape[0] or \
                any(e is not _IN_BLOCK for e in self.elements[:count]):
            return None
        return block if count == block.shape[0] else block[:count]

    def take_block(self, indices: Sequence[int]) -> Optional[torch.Tensor]:
        """A gather of `indices` when they are exactly the block's rows in order: the
        block itself (cleared after the read as TF's gather would), else None."""
        block = self.block
        if block is None or len(indices) != block.shape[0] or \
                not _from_zero_in_order(indices) or \
                any(e is not _IN_BLOCK for e in self.elements[:len(indices)]):
            return None
        if self.clear_after_read:
            self.elements[:len(indices)] = [None] * len(indices)
            self.cleared[:len(indices)] = [True] * len(indices)
            self.block = None
        return block

    def read(self, index: int) -> Any:
        self._check_open()
        n = len(self.elements)
        if index < 0 or index >= n:
            raise _invalid(f"Tried to read from index {index} but array size is: {n}")
        value = self.elements[index]
        if value is _IN_BLOCK:
            value = self.block[index]
        elif value is None:
            if self.cleared[index]:
                raise _invalid(
                    f"TensorArray {self.name}: Could not read index {index} twice because "
                    "it was cleared after a previous read (perhaps try setting "
                    "clear_after_read = false?).")
            if not self.element_shape.is_fully_defined():
                raise _invalid(
                    f"TensorArray {self.name}: Could not read from TensorArray index "
                    f"{index}.  Furthermore, the element shape is not fully defined: "
                    f"{_shape_text(self.element_shape)}.  It is possible you are working "
                    "with a resizeable TensorArray and stop_gradients is not allowing the "
                    "gradients to be written.  If you set the full element_shape property "
                    "on the forward TensorArray, the proper all-zeros tensor will be "
                    "returned instead of incurring this error.")
            return self._zeros()
        if self.clear_after_read:
            self.elements[index] = None
            self.cleared[index] = True
        return value

    def _zeros(self) -> Any:
        shape = self.element_shape.as_list()
        if self.is_string:
            return np.full(shape, b"", dtype=object)
        return torch.zeros(shape, dtype=self.dtype.torch_dtype, device=self.device)

    def stack(self, values: List[Any]) -> Any:
        if not values:
            if not self.element_shape.is_fully_defined():
                raise _invalid(
                    f"TensorArray has size zero, but element shape "
                    f"{_shape_text(self.element_shape)} is not fully defined. Currently only "
                    "static shapes are supported when packing zero-size TensorArrays.")
            shape = [0] + self.element_shape.as_list()
            if self.is_string:
                return np.empty(shape, dtype=object)
            return torch.zeros(shape, dtype=self.dtype.torch_dtype, device=self.device)
        if self.is_string:
            return np.stack([np.asarray(v, dtype=object) for v in values])
        first = values[0].shape
        for i, v in enumerate(values[1:], 1):
            if v.shape != first:
                raise _invalid(
                    f"TensorArray {self.name}: Could not read from TensorArray index {i}: "
                    f"the element shape {_shape_text(list(v.shape))} differs from index 0's "
                    f"{_shape_text(list(first))}.")
        return torch.stack(values)


def _from_zero_in_order(indices: Sequence[int]) -> bool:
    """Whether `indices` (not empty) are 0, 1, ..., len - 1."""
    if isinstance(indices, range):
        return indices.start == 0 and indices.step == 1
    return indices[0] == 0 and all(b - a == 1 for a, b in zip(indices, indices[1:]))


def _value_dtype(value: Any) -> Optional[D.DType]:
    if isinstance(value, torch.Tensor):
        return D.as_dtype(value.dtype) if value.dtype != torch.bool else D.bool
    if isinstance(value, bytes) or (isinstance(value, np.ndarray) and value.dtype == object):
        return D.string
    return None


def _c_name(dtype: D.DType) -> str:
    return {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)


def _index(value: Any) -> int:
    return int(value)


def _indices(value: Any) -> List[int]:
    if isinstance(value, torch.Tensor):
        return [int(v) for v in value.reshape(-1).tolist()]
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _counts_from_zero(indices: Tensor) -> bool:
    """Whether the graph makes `indices` `range(0, n)` (a Range op with constant start 0
    and delta 1, as TensorArray.stack and unstack build it): a kernel then knows them
    from their length, without reading them (a device synchronisation on CUDA)."""
    op = getattr(indices, "op", None)     # eager tensors have no producing op
    if op is None or getattr(op, "type", None) != "Range":
        return False
    return static_ints(op, 0) == [0] and static_ints(op, 2) == [1]


def _index_reader(indices: Tensor) -> Callable[[Any], Sequence[int]]:
    """How a kernel turns its run-time `indices` into Python ints (see _counts_from_zero)."""
    if _counts_from_zero(indices):
        return lambda value: range(int(value.shape[0])) \
            if isinstance(value, torch.Tensor) and value.dim() == 1 else _indices(value)
    return _indices


# -- kernels -----------------------------------------------------------------------------------

def _create_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    attrs = node.attrs
    dtype = attrs["dtype"]
    dynamic = bool(attrs["dynamic_size"])
    clear = bool(attrs["clear_after_read"])
    identical = bool(attrs["identical_element_shapes"])
    element_shape = as_shape(attrs["element_shape"])
    base_name = attrs["tensor_array_name"] or node.name
    device = kctx.device
    # A size the graph makes constant (dynamic_rnn's time steps of a fully shaped input)
    # is taken from it: reading it from the run is a device synchronisation on CUDA.
    known = static_ints(node, 0)
    known = known[0] if known is not None and len(known) == 1 else None

    def create(size: Any) -> tuple:
        n = int(size) if known is None else known
        if n < 0:
            raise _invalid(f"Size should be >= 0, but saw: {n}")
        ta = TensorArrayValue(f"{base_name}_{next(_names)}", dtype, n, dynamic, clear,
                              identical, element_shape, device)
        return ta, torch.zeros((), dtype=torch.float32, device=device)
    return create


def _write_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def write(ta: TensorArrayValue, index: Any, value: Any, flow: Any) -> Any:
        ta.write(_index(index), value)
        return flow
    return write


def _read_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def read(ta: TensorArrayValue, index: Any, flow: Any) -> Any:
        return ta.read(_index(index))
    return read


def _gather_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    element_shape = as_shape(node.attrs["element_shape"])
    read_indices = _index_reader(node.inputs[1])

    def gather(ta: TensorArrayValue, indices: Any, flow: Any) -> Any:
        ta._check_open()
        ta.merge_shape(element_shape)
        idx = read_indices(indices)
        block = ta.take_block(idx) if idx else None
        if block is not None:
            return block
        return ta.stack([ta.read(i) for i in idx])
    return gather


def _scatter_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    read_indices = _index_reader(node.inputs[1])

    def scatter(ta: TensorArrayValue, indices: Any, value: Any, flow: Any) -> Any:
        idx = read_indices(indices)
        if len(idx) != value.shape[0]:
            raise _invalid(f"Expected len(indices) == values.shape[0], but saw: {len(idx)} "
                           f"vs. {value.shape[0]}")
        ta.write_rows(idx, value)
        return flow
    return scatter


def _concat_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    device = kctx.device

    def concat(ta: TensorArrayValue, flow: Any) -> tuple:
        ta._check_open()
        values = [ta.read(i) for i in range(len(ta.elements))]
        for i, v in enumerate(values):
            if len(np.shape(v) if isinstance(v, bytes) else v.shape) == 0:
                raise _invalid(f"Concat saw a scalar shape at index {i} but requires at "
                               "least vectors.  Did you mean to call stack instead?")
        lengths = torch.tensor([int(v.shape[0]) for v in values], dtype=torch.int64,
                               device=device)
        if not values:
            shape = [0] + ta.element_shape.as_list()[1:] if ta.element_shape.rank else [0]
            return torch.zeros(shape, dtype=ta.dtype.torch_dtype, device=device), lengths
        if ta.is_string:
            return np.concatenate([np.asarray(v, dtype=object) for v in values]), lengths
        return torch.cat(values), lengths
    return concat


def _split_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def split(ta: TensorArrayValue, value: Any, lengths: Any, flow: Any) -> Any:
        sizes = _indices(lengths)
        if len(value.shape) == 0:
            raise _invalid("Expected value to be at least a vector, but received shape: []")
        total = int(value.shape[0])
        if sum(sizes) != total:
            raise _invalid(f"Expected sum of lengths to be equal to values.shape[0], but sum "
                           f"of lengths is {sum(sizes)} and value's shape is: "
                           f"{_shape_text(list(value.shape))}")
        n = len(ta.elements)
        if not ta.dynamic_size and len(sizes) > n:
            raise _invalid(f"TensorArray's size is not equal to the size of lengths "
                           f"({n} vs. {len(sizes)}), and the TensorArray is not marked as "
                           "dynamically resizeable")
        offset = 0
        for i, k in enumerate(sizes):
            ta.write(i, value[offset:offset + k])
            offset += k
        return flow
    return split


def _grad_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    source = node.attrs["source"]
    prepend = node.type == "TensorArrayGradWithShape"

    def grad(ta: TensorArrayValue, flow: Any, *shape_to_prepend: Any) -> tuple:
        # As TF's TensorArrayGradOp: one gradient array per (array, source), created on
        # first use with the forward array's size and element shape; writes add up.
        key = (source, tuple(_indices(shape_to_prepend[0]))) if prepend else source
        found = ta.grads.get(key)
        if found is None:
            shape = ta.element_shape
            if prepend:
                shape = TensorShape(list(key[1])).concatenate(shape)
            found = TensorArrayValue(f"{ta.name}@{source}", ta.dtype, len(ta.elements),
                                     False, True, ta.identical_shapes, shape, ta.device)
            found.aggregate = True
            ta.grads[key] = found
        return found, flow
    return grad


def _size_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def size(ta: TensorArrayValue, flow: Any) -> Any:
        return torch.tensor(len(ta.elements), dtype=torch.int32, device=flow.device)
    return size


def _close_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def close(ta: TensorArrayValue) -> None:
        ta.closed = True
        ta.elements = [None] * len(ta.elements)
        ta.block = None
        return None
    return close


# -- shape rules ----------------------------------------------------------------------------------

def _scalar_rule(ctx: Any) -> List[TensorShape]:
    return [TensorShape([])]


def _element_rule(ctx: Any) -> List[TensorShape]:
    return [unknown_shape()]


def _gather_rule(ctx: Any) -> List[TensorShape]:
    es = as_shape(ctx.attrs["element_shape"])
    return [TensorShape([None]).concatenate(es) if es.rank is not None else unknown_shape()]


def _concat_rule(ctx: Any) -> List[TensorShape]:
    es = as_shape(ctx.attrs["element_shape_except0"])
    first = TensorShape([None]).concatenate(es) if es.rank is not None else unknown_shape()
    return [first, TensorShape([None])]


# TF's TensorArray ops are stateful and their values have no useful gradient of their own:
# gradients flow through the stored torch tensors instead.
declare("TensorArrayV3", inputs=["size: int32"], outputs=["handle: resource", "flow: float32"],
        attrs={"dtype": REQUIRED, "element_shape": unknown_shape(), "dynamic_size": False,
               "clear_after_read": True, "identical_element_shapes": False,
               "tensor_array_name": ""},
        shape=lambda ctx: [TensorShape([2]), TensorShape([])], kernel=_create_kernel,
        stateful=True, grad="none")
declare("TensorArrayWriteV3",
        inputs=["handle: resource", "index: int32", "value: T", "flow_in: float32"],
        outputs=["flow_out: float32"], attrs={"T": Type()}, shape=_scalar_rule,
        kernel=_write_kernel, stateful=True)
declare("TensorArrayReadV3", inputs=["handle: resource", "index: int32", "flow_in: float32"],
        outputs=["value: dtype"], attrs={"dtype": Type()}, shape=_element_rule,
        kernel=_read_kernel, stateful=True, view=True)
declare("TensorArrayGatherV3",
        inputs=["handle: resource", "indices: int32", "flow_in: float32"],
        outputs=["value: dtype"], attrs={"dtype": Type(), "element_shape": unknown_shape()},
        shape=_gather_rule, kernel=_gather_kernel, stateful=True, view=True)
declare("TensorArrayScatterV3",
        inputs=["handle: resource", "indices: int32", "value: T", "flow_in: float32"],
        outputs=["flow_out: float32"], attrs={"T": Type()}, shape=_scalar_rule,
        kernel=_scatter_kernel, stateful=True)
declare("TensorArrayConcatV3", inputs=["handle: resource", "flow_in: float32"],
        outputs=["value: dtype", "lengths: int64"],
        attrs={"dtype": Type(), "element_shape_except0": unknown_shape()},
        shape=_concat_rule, kernel=_concat_kernel, stateful=True)
declare("TensorArraySplitV3",
        inputs=["handle: resource", "value: T", "lengths: int64", "flow_in: float32"],
        outputs=["flow_out: float32"], attrs={"T": Type()}, shape=_scalar_rule,
        kernel=_split_kernel, stateful=True)
declare("TensorArrayGradV3", inputs=["handle: resource", "flow_in: float32"],
        outputs=["grad_handle: resource", "flow_out: float32"], attrs={"source": REQUIRED},
        shape=lambda ctx: [TensorShape([2]), TensorShape([])], kernel=_grad_kernel,
        stateful=True, grad="none",
        doc="The gradient TensorArray of handle for source (TF's gradient graphs).")
declare("TensorArrayGradWithShape",
        inputs=["handle: resource", "flow_in: float32", "shape_to_prepend: int32"],
        outputs=["grad_handle: resource", "flow_out: float32"], attrs={"source": REQUIRED},
        shape=lambda ctx: [TensorShape([2]), TensorShape([])], kernel=_grad_kernel,
        stateful=True, grad="none",
        doc="TensorArrayGradV3 whose elements get shape_to_prepend in front.")
declare("TensorArraySizeV3", inputs=["handle: resource", "flow_in: float32"],
        outputs=["size: int32"], shape=_scalar_rule, kernel=_size_kernel, stateful=True,
        grad="none")
declare("TensorArrayCloseV3", inputs=["handle: resource"], shape=lambda ctx: [],
        kernel=_close_kernel, stateful=True, grad="none")


# -- the Python class ------------------------------------------------------------------------------

class TensorArray:
    """`tf.TensorArray`: a list of tensors written and read inside the graph."""

    def __init__(self, dtype: Any, size: Any = None, dynamic_size: Optional[bool] = None,
                 clear_after_read: Optional[bool] = None,
                 tensor_array_name: Optional[str] = None, handle: Optional[Tensor] = None,
                 flow: Optional[Tensor] = None, infer_shape: bool = True,
                 element_shape: Any = None, colocate_with_first_write_call: bool = True,
                 name: Optional[str] = None):
        if handle is not None and tensor_array_name:
            raise ValueError("Cannot provide both `handle` and `tensor_array_name` arguments "
                             "at the same time.")
        if handle is not None and not isinstance(handle, Tensor):
            raise TypeError(f"Expected `handle` to be a Tensor, but got `{handle}` of type "
                            f"`{type(handle)}` instead.")
        if handle is None and size is None:
            raise ValueError("Argument `size` must be provided if handle is not provided.")
        if handle is not None and size is not None:
            raise ValueError("Cannot provide both a `handle` and `size` arguments at the same "
                             "time.")
        if handle is not None and element_shape is not None:
            raise ValueError("Cannot provide both `handle` and `element_shape` arguments at "
                             "the same time.")
        if handle is not None and dynamic_size is not None:
            raise ValueError("Cannot provide both `handle` and `dynamic_size` arguments at the "
                             "same time.")
        if handle is not None and clear_after_read is not None:
            raise ValueError("Cannot provide both `handle` and `clear_after_read` arguments at "
                             "the same time.")
        if clear_after_read is None:
            clear_after_read = True
        self._dynamic_size = bool(dynamic_size)
        self._dtype = D.as_dtype(dtype).base_dtype
        self._colocate_with_first_write_call = colocate_with_first_write_call
        # One list shared by every TensorArray built from this one with a new flow, so
        # shapes learnt from writes anywhere apply to all of them (as in TF).
        self._element_shape = [as_shape(element_shape)]
        self._infer_shape = infer_shape
        self._size = size
        with name_scope(name, "TensorArray", [handle, size, flow]) as scope:
            if handle is not None:
                if flow is None:
                    raise ValueError("flow must not be None if handle is not None.")
                self._handle, self._flow = handle, flow
            else:
                attrs = {"dtype": self._dtype, "element_shape": as_shape(element_shape),
                         "dynamic_size": self._dynamic_size,
                         "clear_after_read": bool(clear_after_read),
                         "identical_element_shapes": bool(infer_shape),
                         "tensor_array_name": tensor_array_name or ""}
                op = apply_op("TensorArrayV3", [size], attrs, name=scope)
                self._handle, self._flow = op._outputs

    # -- properties ---------------------------------------------------------------------
    @property
    def flow(self) -> Tensor:
        """The flow tensor that orders the ops reading and writing this array."""
        return self._flow

    @property
    def dtype(self) -> D.DType:
        return self._dtype

    @property
    def handle(self) -> Tensor:
        return self._handle

    @property
    def element_shape(self) -> TensorShape:
        return self._element_shape[0]

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    def _check_element_shape(self, shape: TensorShape) -> None:
        if not shape.is_compatible_with(self.element_shape):
            raise ValueError(f"Inconsistent shapes: saw {shape} but expected "
                             f"{self.element_shape} ")
        if self._infer_shape:
            self._element_shape[0] = self.element_shape.merge_with(shape)

    def with_flow(self, flow: Tensor) -> "TensorArray":
        """This array with a new flow tensor (TF's build_ta_with_new_flow)."""
        return build_ta_with_new_flow(self, flow)

    # -- operations ---------------------------------------------------------------------
    def identity(self) -> "TensorArray":
        """The same array behind an Identity of the flow (picks up control dependencies)."""
        from tf1compat.ops.array_ops import identity
        return build_ta_with_new_flow(self, identity(self._flow))

    def grad(self, source: Any, flow: Any = None, name: Optional[str] = None) -> Any:
        raise NotImplementedError(
            "TensorArray.grad is not supported by tf1compat: gradients through TensorArrays "
            "come from torch autograd (use tf.gradients).")

    def read(self, index: Any, name: Optional[str] = None) -> Tensor:
        """The element at `index`."""
        value = apply_op1("TensorArrayReadV3", [self._handle, index, self._flow],
                          {"dtype": self._dtype}, name=name)
        value.set_shape(self._element_shape[0])
        return value

    def write(self, index: Any, value: Any, name: Optional[str] = None) -> "TensorArray":
        """Writes `value` at `index`; returns the array with the new flow."""
        with name_scope(name, "TensorArrayWrite", [self._handle, index, value]):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape)
            flow_out = apply_op1("TensorArrayWriteV3",
                                 [self._handle, index, value, self._flow], name=name)
            return build_ta_with_new_flow(self, flow_out)

    def stack(self, name: Optional[str] = None) -> Tensor:
        """All elements stacked along a new first dimension."""
        from tf1compat.ops.creation_ops import range as range_
        with name_scope(name, "TensorArrayStack", [self._handle]):
            value = self.gather(range_(0, self.size()), name=name)
            if self.element_shape and not self._dynamic_size and self._size is not None:
                n = constant_value(self._size) if isinstance(self._size, Tensor) else self._size
                n = None if n is None else int(n)
                value.set_shape(TensorShape([n]).concatenate(self.element_shape))
            return value

    def gather(self, indices: Any, name: Optional[str] = None) -> Tensor:
        """The elements at `indices`, stacked."""
        element_shape = self._element_shape[0] if self._element_shape else unknown_shape()
        value = apply_op1("TensorArrayGatherV3", [self._handle, indices, self._flow],
                          {"dtype": self._dtype, "element_shape": element_shape}, name=name)
        if self.element_shape:
            value.set_shape(TensorShape([None]).concatenate(self.element_shape))
        return value

    def concat(self, name: Optional[str] = None) -> Tensor:
        """All elements concatenated along their first dimension."""
        es = self.element_shape
        except0 = es[1:] if es.rank is not None and es.rank >= 1 else unknown_shape()
        value = apply_op("TensorArrayConcatV3", [self._handle, self._flow],
                         {"dtype": self._dtype, "element_shape_except0": except0},
                         name=name)._outputs[0]
        if es and es.rank >= 1:
            dim0 = None
            if self._infer_shape:
                size = constant_value(self.size())
                if size is not None and es.as_list()[0] is not None:
                    dim0 = int(size) * es.as_list()[0]
            value.set_shape(TensorShape([dim0]).concatenate(es[1:]))
        return value

    def unstack(self, value: Any, name: Optional[str] = None) -> "TensorArray":
        """Writes `value[i]` at each index i."""
        from tf1compat.ops.array_ops import shape
        from tf1compat.ops.creation_ops import range as range_
        with name_scope(name, "TensorArrayUnstack", [self._handle, value]):
            num_elements = shape(value)[0]
            return self.scatter(indices=range_(0, num_elements), value=value, name=name)

    def scatter(self, indices: Any, value: Any, name: Optional[str] = None) -> "TensorArray":
        """Writes `value[k]` at `indices[k]`."""
        with name_scope(name, "TensorArrayScatter", [self._handle, value, indices]):
            value = convert_to_tensor(value, preferred_dtype=self._dtype, name="value")
            self._check_element_shape(value.shape[1:] if value.shape.rank is not None
                                      else unknown_shape())
            flow_out = apply_op1("TensorArrayScatterV3",
                                 [self._handle, indices, value, self._flow], name=name)
            return build_ta_with_new_flow(self, flow_out)

    def split(self, value: Any, lengths: Any, name: Optional[str] = None) -> "TensorArray":
        """Splits `value` along its first dimension into elements of `lengths`."""
        from tf1compat.ops.math_ops import cast
        with name_scope(name, "TensorArraySplit", [self._handle, value, lengths]):
            value = convert_to_tensor(value, dtype=self._dtype, name="value")
            lengths_64 = cast(lengths, D.int64)
            clengths = constant_value(lengths_64)
            if value.shape.rank is not None and clengths is not None:
                clengths = np.asarray(clengths)
                if clengths.shape and clengths.size and clengths.max() == clengths.min():
                    self._check_element_shape(
                        TensorShape([int(clengths[0])]).concatenate(value.shape[1:]))
            flow_out = apply_op1("TensorArraySplitV3",
                                 [self._handle, value, lengths_64, self._flow], name=name)
            return build_ta_with_new_flow(self, flow_out)

    def size(self, name: Optional[str] = None) -> Tensor:
        """The number of elements (static when the size is fixed)."""
        if not self._dynamic_size and self._size is not None:
            return convert_to_tensor(self._size, dtype=D.int32)
        return apply_op1("TensorArraySizeV3", [self._handle, self._flow], name=name)

    def close(self, name: Optional[str] = None) -> Any:
        """Closes the array (its elements are freed)."""
        return apply_op("TensorArrayCloseV3", [self._handle], name=name)


def build_ta_with_new_flow(old_ta: TensorArray, flow: Tensor) -> TensorArray:
    """A TensorArray sharing `old_ta`'s handle and static facts, with a new flow."""
    new_ta = TensorArray.__new__(TensorArray)
    new_ta._dtype = old_ta._dtype
    new_ta._handle = old_ta._handle
    new_ta._flow = flow
    new_ta._infer_shape = old_ta._infer_shape
    new_ta._colocate_with_first_write_call = old_ta._colocate_with_first_write_call
    new_ta._dynamic_size = old_ta._dynamic_size
    new_ta._size = old_ta._size
    new_ta._element_shape = old_ta._element_shape
    return new_ta
