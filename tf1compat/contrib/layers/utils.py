"""`tf.contrib.layers.utils` (also `slim.utils`): output aliases and end-point
collections, variable-collection lookup, static conditionals, shape helpers.

As TF 1.15's: `collect_named_outputs` appends an alias to the tensor's `aliases`
attribute and adds it to the collections; a tensor without aliases is known by its op's
name (its own name when it is not output 0); `convert_collection_to_dict` maps every
alias of every tensor in a collection to the tensor, in collection order.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, List, Optional

from tf1compat.framework.graph import add_to_collections, get_collection, get_default_graph
from tf1compat.framework.tensor import Tensor

__all__ = ["NamedOutputs", "collect_named_outputs", "append_tensor_alias",
           "gather_tensors_aliases", "get_tensor_aliases", "convert_collection_to_dict",
           "get_variable_collections", "constant_value", "smart_cond", "static_cond",
           "two_element_tuple", "n_positive_integers", "channel_dimension", "last_dimension"]

NamedOutputs = collections.namedtuple("NamedOutputs", ["name", "outputs"])


def append_tensor_alias(tensor: Tensor, alias: str) -> Tensor:
    """Appends `alias` (a trailing '/' dropped) to `tensor.aliases`; returns the tensor."""
    if alias[-1] == "/":
        alias = alias[:-1]
    if hasattr(tensor, "aliases"):
        tensor.aliases.append(alias)
    else:
        tensor.aliases = [alias]
    return tensor


def get_tensor_aliases(tensor: Tensor) -> List[str]:
    """The tensor's aliases; without any, its op's name (its name if not output 0)."""
    if hasattr(tensor, "aliases"):
        return tensor.aliases
    return [tensor.op.name] if tensor.name[-2:] == ":0" else [tensor.name]


def gather_tensors_aliases(tensors: Any) -> List[str]:
    """The aliases of all `tensors`, in order."""
    aliases: List[str] = []
    for tensor in tensors:
        aliases += get_tensor_aliases(tensor)
    return aliases


def collect_named_outputs(collections: Any, alias: str, outputs: Any) -> Any:
    """Adds `outputs` (with `alias` appended to its aliases) to `collections`, if any;
    returns `outputs`."""
    if collections:
        append_tensor_alias(outputs, alias)
        add_to_collections(collections, outputs)
    return outputs


def convert_collection_to_dict(collection: str, clear_collection: bool = False
                               ) -> "collections.OrderedDict":
    """An OrderedDict {alias: tensor} of the tensors in `collection` (optionally
    clearing the collection)."""
    out = collections.OrderedDict((alias, tensor) for tensor in get_collection(collection)
                                  for alias in get_tensor_aliases(tensor))
    if clear_collection:
        get_default_graph().clear_collection(collection)
    return out


def get_variable_collections(variables_collections: Any, name: str) -> Any:
    """The collections for variable `name`: a dict is looked up, anything else returned."""
    if isinstance(variables_collections, dict):
        return variables_collections.get(name, None)
    return variables_collections


def constant_value(value_or_tensor_or_var: Any, dtype: Any = None) -> Any:
    """A Python value itself; a tensor's value when known at graph build; None for a
    variable. ValueError for None or a tensor of another `dtype`."""
    from tf1compat.framework.constant_value import constant_value as _constant_value
    from tf1compat.variables.variables import Variable
    if value_or_tensor_or_var is None:
        raise ValueError("value_or_tensor_or_var cannot be None")
    value = value_or_tensor_or_var
    if isinstance(value, (Tensor, Variable)):
        if dtype and value.dtype != dtype:
            raise ValueError(f"It has the wrong type {value.dtype} instead of {dtype}")
        return None if isinstance(value, Variable) else _constant_value(value)
    return value


def static_cond(pred: Any, fn1: Callable[[], Any], fn2: Callable[[], Any]) -> Any:
    """`fn1()` if `pred` else `fn2()` (pred is a Python value)."""
    if not callable(fn1):
        raise TypeError("fn1 must be callable.")
    if not callable(fn2):
        raise TypeError("fn2 must be callable.")
    return fn1() if pred else fn2()


def smart_cond(pred: Any, fn1: Callable[[], Any], fn2: Callable[[], Any],
               name: Optional[str] = None) -> Any:
    """`static_cond` when `pred` is known at graph build, else `tf.cond`."""
    from tf1compat.ops.cond import cond
    pred_value = constant_value(pred)
    if pred_value is not None:
        return static_cond(pred_value, fn1, fn2)
    return cond(pred, fn1, fn2, name=name)


def _get_dimension(shape: Any, dim: int, min_rank: int = 1) -> int:
    dims = shape.dims
    if dims is None:
        raise ValueError("dims of shape must be known but is None")
    if len(dims) < min_rank:
        raise ValueError(f"rank of shape must be at least {min_rank} not: {len(dims)}")
    value = dims[dim].value
    if value is None:
        raise ValueError(f"dimension {dim} of shape must be known but is None: {shape}")
    return value


def channel_dimension(shape: Any, data_format: str, min_rank: int = 1) -> int:
    """The channel dimension (1 for channels_first, else the last) of a static shape."""
    return _get_dimension(shape, 1 if data_format == "channels_first" else -1,
                          min_rank=min_rank)


def last_dimension(shape: Any, min_rank: int = 1) -> int:
    """The last dimension of a static shape, which must be known (ValueError if not)."""
    return _get_dimension(shape, -1, min_rank=min_rank)


def two_element_tuple(int_or_tuple: Any) -> tuple:
    """(height, width) from an int, a 2-element list/tuple or a 2-dim TensorShape."""
    from tf1compat.framework.tensor_shape import TensorShape
    if isinstance(int_or_tuple, (list, tuple)):
        if len(int_or_tuple) != 2:
            raise ValueError(f"Must be a list with 2 elements: {int_or_tuple}")
        return int(int_or_tuple[0]), int(int_or_tuple[1])
    if isinstance(int_or_tuple, int):
        return int(int_or_tuple), int(int_or_tuple)
    if isinstance(int_or_tuple, TensorShape) and len(int_or_tuple) == 2:
        return int_or_tuple[0], int_or_tuple[1]
    raise ValueError("Must be an int, a list with 2 elements or a TensorShape of length 2")


def n_positive_integers(n: Any, value: Any) -> tuple:
    """`n` positive ints from one int (repeated) or a sequence of `n` (ValueError else)."""
    n_orig = n
    n = int(n)
    if n < 1 or n != n_orig:
        raise ValueError("n must be a positive integer")
    try:
        value = int(value)
    except (TypeError, ValueError):
        if len(value) != n:
            raise ValueError(f"Expected sequence of {n} positive integers, but received "
                             f"{value!r}") from None
        try:
            values = tuple(int(x) for x in value)
        except (TypeError, ValueError):
            raise ValueError(f"Expected sequence of {n} positive integers, but received "
                             f"{value!r}") from None
        for x in values:
            if x < 1:
                raise ValueError(f"expected positive integer, but received {x}")
        return values
    if value < 1:
        raise ValueError(f"expected positive integer, but received {value}")
    return (value,) * n
