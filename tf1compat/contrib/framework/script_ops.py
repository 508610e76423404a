"""`tf.contrib.framework.py_func` (TF 1.15's contrib/framework/python/ops/script_ops.py):
`tf.py_func` with keyword arguments and nested output types and shapes."""

from __future__ import annotations

from typing import Any, Callable, Optional

from tf1compat.framework.tensor_shape import as_shape
from tf1compat.util import nest_internal as nest
from tf1compat.ops.script_ops import py_func as _core_py_func

__all__ = ["py_func"]


def py_func(func: Callable[..., Any], args: Any = (), kwargs: Optional[dict] = None,
            output_types: Any = None, output_shapes: Any = None, stateful: bool = True,
            name: Optional[str] = None) -> Any:
    """`func(*args, **kwargs)` run in Python on the values of the tensors in `args` and
    `kwargs`; returns tensors nested as `output_types` (a structure of dtypes, or a
    callable that gets the tensors and returns it), with `output_shapes` set on them."""
    if kwargs is None:
        kwargs = {}
    if not isinstance(args, (list, tuple)):
        raise TypeError(f"args must be list and not {type(args)}. args: {args}")
    if not isinstance(kwargs, dict):
        raise TypeError(f"kwargs must be dict and not {type(kwargs)}. args: {kwargs}")
    if callable(output_types):
        output_types = output_types(*args, **kwargs)
    if callable(output_shapes):
        output_shapes = output_shapes(*args, **kwargs)
    flat_output_types = nest.flatten(output_types)
    structure = (args, kwargs)

    def call_with_structure(*flat_values: Any) -> Any:
        call_args, call_kwargs = nest.pack_sequence_as(structure, flat_values)
        result = func(*call_args, **call_kwargs)
        nest.assert_shallow_structure(output_types, result)
        return nest.flatten(result)

    flat_outputs = _core_py_func(call_with_structure, nest.flatten(structure),
                                 flat_output_types, stateful=stateful, name=name)
    if output_shapes is not None:
        shapes = nest.map_structure_up_to(output_types, as_shape, output_shapes)
        for tensor, shape in zip(flat_outputs, nest.flatten(shapes)):
            tensor.set_shape(shape)
    return nest.pack_sequence_as(output_types, flat_outputs)
