"""TF's TensorList ops (`variant` lists of tensors), as TF 2.x gradient graphs use them.

TF 2.x's `tf.while_loop` gradients (control flow v2) accumulate forward values in
TensorLists (`EmptyTensorList`, `TensorListPushBack`, `TensorListPopBack`, ...), and
TensorArrays in functions are TensorLists. A list is a value, as in TF: every op returns
a new `TensorListValue` and leaves its input unchanged. Elements keep their autograd
history.
"""

from __future__ import annotations

from typing import Any, Callable, List, Tuple

import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.op_def import REQUIRED, Type, TypeList, declare
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._kernels import as_int_list

__all__ = ["TensorListValue", "zeros_of"]


class TensorListValue:
    """A run-time TensorList: element dtype, element shape (-1: unknown dims), items."""

    __slots__ = ("element_dtype", "element_shape", "items", "max_num_elements")

    def __init__(self, element_dtype: D.DType, element_shape: Any,
                 items: Tuple[Any, ...] = (), max_num_elements: int = -1):
        self.element_dtype = element_dtype
        self.element_shape = element_shape          # None: unknown rank, else [int|-1]
        self.items = items
        self.max_num_elements = max_num_elements

    def with_items(self, items: Tuple[Any, ...]) -> "TensorListValue":
        return TensorListValue(self.element_dtype, self.element_shape, items,
                               self.max_num_elements)

    def to(self, *args: Any, **kwargs: Any) -> "TensorListValue":
        """Device moves inserted by plans leave the list as it is."""
        return self

    def zeros_like(self) -> "TensorListValue":
        """TF's ZerosLike of a TensorList (TensorListZerosLike): as many items, each
        zeros of its shape (unset items stay unset)."""
        return self.with_items(tuple(None if item is None else zeros_of(item)
                                     for item in self.items))

    def zeros(self, shape_hint: Any) -> Any:
        shape = _known_shape(self.element_shape, shape_hint)
        if shape is None:
            raise _invalid("Trying to read an uninitialized tensor from a TensorList whose "
                           "element shape is not fully defined")
        return torch.zeros(shape, dtype=self.element_dtype.torch_dtype)


def zeros_of(x: Any) -> Any:
    """TF's ZerosLike of a run-time value: a tensor's zeros, or a variant's (a TensorList
    or Optional of TF's control flow v2 gradients: of its items)."""
    return x.zeros_like() if hasattr(x, "zeros_like") else torch.zeros_like(x)


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _shape_value(value: Any) -> Any:
    """A shape input (-1 scalar: unknown rank) as None or a list of ints (-1: unknown)."""
    dims = as_int_list(value)
    if isinstance(value, torch.Tensor) and value.dim() == 0:
        return None
    return dims


def _known_shape(shape: Any, hint: Any) -> Any:
    for candidate in (shape, hint):
        if candidate is not None and all(d >= 0 for d in candidate):
            return list(candidate)
    return None


def _empty_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["element_dtype"]
    return lambda element_shape, max_num: TensorListValue(
        dtype, _shape_value(element_shape), (), int(max_num))


def _reserve_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["element_dtype"]
    return lambda element_shape, n: TensorListValue(dtype, _shape_value(element_shape),
                                                    (None,) * int(n))


def _from_tensor_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["element_dtype"]
    return lambda tensor, element_shape: TensorListValue(
        dtype, _shape_value(element_shape), tuple(tensor.unbind(0)))


def _push_back_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def push_back(lst: TensorListValue, tensor: Any) -> TensorListValue:
        if 0 <= lst.max_num_elements <= len(lst.items):
            raise _invalid(f"Tried to push item into a full list list size: "
                           f"{len(lst.items)}, max_num_elements: {lst.max_num_elements}")
        return lst.with_items(lst.items + (tensor,))
    return push_back


def _pop_back_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def pop_back(lst: TensorListValue, element_shape: Any) -> tuple:
        if not lst.items:
            raise _invalid("Trying to pop from an empty list.")
        item = lst.items[-1]
        if item is None:
            item = lst.zeros(_shape_value(element_shape))
        return lst.with_items(lst.items[:-1]), item
    return pop_back


def _get_item_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def get_item(lst: TensorListValue, index: Any, element_shape: Any) -> Any:
        i = int(index)
        if not 0 <= i < len(lst.items):
            raise _invalid(f"Trying to access element {i} in a list with "
                           f"{len(lst.items)} elements.")
        item = lst.items[i]
        return lst.zeros(_shape_value(element_shape)) if item is None else item
    return get_item


def _set_item_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    resize = bool(node.attrs.get("resize_if_index_out_of_bounds"))

    def set_item(lst: TensorListValue, index: Any, item: Any) -> TensorListValue:
        i = int(index)
        items = list(lst.items)
        if i >= len(items) and resize:
            items.extend([None] * (i + 1 - len(items)))
        if not 0 <= i < len(items):
            raise _invalid(f"Trying to modify element {i} in a list with {len(items)} "
                           "elements.")
        items[i] = item
        return lst.with_items(tuple(items))
    return set_item


def _stack_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def stack(lst: TensorListValue, element_shape: Any) -> Any:
        hint = _shape_value(element_shape)
        items = [lst.zeros(hint) if item is None else item for item in lst.items]
        if not items:
            shape = _known_shape(lst.element_shape, hint)
            if shape is None:
                raise _invalid("Tried to stack elements of an empty list with "
                               "non-fully-defined element_shape")
            return torch.zeros([0] + shape, dtype=lst.element_dtype.torch_dtype)
        return torch.stack(items)
    return stack


def _gather_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    get_item = _get_item_kernel(node, kctx)

    def gather(lst: TensorListValue, indices: Any, element_shape: Any) -> Any:
        return torch.stack([get_item(lst, i, element_shape) for i in as_int_list(indices)])
    return gather


def _length_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    return lambda lst: torch.tensor(len(lst.items), dtype=torch.int32)


def _element_shape_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    dtype = node.attrs["shape_type"].torch_dtype

    def element_shape(lst: TensorListValue) -> Any:
        if lst.element_shape is None:
            return torch.tensor(-1, dtype=dtype)
        return torch.tensor(lst.element_shape, dtype=dtype)
    return element_shape


_SHAPE_TYPE = Type((D.int32, D.int64), default=D.int32)
_SCALAR = [TensorShape([])]


def _element_shape(ctx: Any, i: int) -> TensorShape:
    """The element_shape input `i` as a static shape (-1: unknown rank, as TF's)."""
    return ctx.const_shape(i)


def _get_item_rule(ctx: Any) -> List[TensorShape]:
    return [_element_shape(ctx, 2)]


def _stack_rule(ctx: Any) -> List[TensorShape]:
    element = _element_shape(ctx, 1)
    if element.rank is None:
        return [unknown_shape()]
    count = int(ctx.attrs["num_elements"])
    return [TensorShape([None if count < 0 else count]).concatenate(element)]


def _gather_rule(ctx: Any) -> List[TensorShape]:
    element = _element_shape(ctx, 2)
    if element.rank is None:
        return [unknown_shape()]
    indices = ctx.shape(1)
    count = indices.as_list()[0] if indices.rank == 1 else None
    return [TensorShape([count]).concatenate(element)]


declare("EmptyTensorList", inputs=["element_shape: shape_type", "max_num_elements: int32"],
        outputs=["handle: variant"],
        attrs={"element_dtype": REQUIRED, "shape_type": _SHAPE_TYPE},
        shape=lambda ctx: _SCALAR, kernel=_empty_kernel, grad="none",
        doc="An empty list.")
declare("TensorListReserve", inputs=["element_shape: shape_type", "num_elements: int32"],
        outputs=["handle: variant"],
        attrs={"element_dtype": REQUIRED, "shape_type": _SHAPE_TYPE},
        shape=lambda ctx: _SCALAR, kernel=_reserve_kernel, grad="none",
        doc="A list of num_elements unset items.")
declare("TensorListFromTensor", inputs=["tensor: element_dtype", "element_shape: shape_type"],
        outputs=["output_handle: variant"],
        attrs={"element_dtype": Type(), "shape_type": _SHAPE_TYPE},
        shape=lambda ctx: _SCALAR, kernel=_from_tensor_kernel, doc="The rows of tensor.")
declare("TensorListPushBack", inputs=["input_handle: variant", "tensor: element_dtype"],
        outputs=["output_handle: variant"], attrs={"element_dtype": Type()},
        shape=lambda ctx: _SCALAR, kernel=_push_back_kernel, doc="The list plus tensor.")
declare("TensorListPopBack", inputs=["input_handle: variant", "element_shape: int32"],
        outputs=["output_handle: variant", "tensor: element_dtype"],
        attrs={"element_dtype": Type()},
        shape=lambda ctx: [TensorShape([]), _element_shape(ctx, 1)], kernel=_pop_back_kernel, doc="The list without its last item, and that item.")
declare("TensorListGetItem",
        inputs=["input_handle: variant", "index: int32", "element_shape: int32"],
        outputs=["item: element_dtype"], attrs={"element_dtype": Type()},
        shape=_get_item_rule, kernel=_get_item_kernel, doc="Item index of the list.")
declare("TensorListSetItem",
        inputs=["input_handle: variant", "index: int32", "item: element_dtype"],
        outputs=["output_handle: variant"],
        attrs={"element_dtype": Type(), "resize_if_index_out_of_bounds": False},
        shape=lambda ctx: _SCALAR, kernel=_set_item_kernel, doc="The list with item index set.")
declare("TensorListStack", inputs=["input_handle: variant", "element_shape: int32"],
        outputs=["tensor: element_dtype"],
        attrs={"element_dtype": Type(), "num_elements": -1},
        shape=_stack_rule, kernel=_stack_kernel, doc="The items stacked.")
declare("TensorListGather",
        inputs=["input_handle: variant", "indices: int32", "element_shape: int32"],
        outputs=["values: element_dtype"], attrs={"element_dtype": Type()},
        shape=_gather_rule, kernel=_gather_kernel, doc="The items at indices, stacked.")
declare("TensorListLength", inputs=["input_handle: variant"], outputs=["length: int32"],
        shape=lambda ctx: _SCALAR, kernel=_length_kernel, grad="none",
        doc="The number of items.")
declare("TensorListElementShape", inputs=["input_handle: variant"],
        outputs=["element_shape: shape_type"], attrs={"shape_type": Type((D.int32, D.int64))},
        shape=lambda ctx: [TensorShape([None])], kernel=_element_shape_kernel, grad="none",
        doc="The list's element shape (-1 for unknown dimensions or rank).")


# -- optionals (TF's Optional variant: a value or nothing) --------------------------------------

class OptionalValue:
    """A run-time Optional: a tuple of components, or None."""

    __slots__ = ("components",)

    def __init__(self, components: Any):
        self.components = components

    def to(self, *args: Any, **kwargs: Any) -> "OptionalValue":
        return self

    def zeros_like(self) -> "OptionalValue":
        """TF's ZerosLike of an Optional (OptionalZerosLike): zeros of its components,
        none where it has none."""
        return OptionalValue(None if self.components is None else tuple(
            zeros_of(c) for c in self.components))


def _get_value_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    single = len(node.attrs["output_types"]) == 1

    def get_value(optional: OptionalValue) -> Any:
        if optional.components is None:
            raise _invalid("The given optional does not have a value.")
        return optional.components[0] if single else optional.components
    return get_value


declare("OptionalNone", outputs=["optional: variant"], shape=lambda ctx: _SCALAR,
        kernel=lambda node, kctx: (lambda: OptionalValue(None)), grad="none",
        doc="An Optional without a value.")
declare("OptionalFromValue", inputs=["components: Toutput_types"],
        outputs=["optional: variant"], attrs={"Toutput_types": TypeList()},
        shape=lambda ctx: _SCALAR,
        kernel=lambda node, kctx: (lambda *components: OptionalValue(components)),
        doc="An Optional holding components.")
declare("OptionalGetValue", inputs=["optional: variant"], outputs=["components: output_types"],
        attrs={"output_types": TypeList(), "output_shapes": []},
        shape=lambda ctx: [TensorShape(s) for s in ctx.attrs["output_shapes"]] or
        [unknown_shape() for _ in ctx.attrs["output_types"]],
        kernel=_get_value_kernel, doc="The Optional's components.")
declare("OptionalHasValue", inputs=["optional: variant"], outputs=["has_value: bool"],
        shape=lambda ctx: _SCALAR, grad="none",
        kernel=lambda node, kctx: (lambda optional: torch.tensor(
            optional.components is not None)),
        doc="Whether the Optional holds a value.")
