"""`tf.data.Dataset.from_generator`: elements yielded by a Python generator.

As TF builds it, the outer graph holds `from_tensors(0).flat_map(flat_map_fn)`; inside
the flat_map function a `GeneratorDataset` op stands for the generator (TF chains
py_funcs there; tf1compat's op calls the generator directly). Every pass over the
dataset calls `generator(*args)` anew, with `args` evaluated to numpy values, and checks
each yielded value against the declared types and shapes with TF's messages
(InvalidArgumentError at run time).
"""

from __future__ import annotations

import itertools
import threading
import weakref
from typing import Any, Callable, List, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, get_default_graph
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.data import _runtime as rt
from tf1compat.data._ops import DATASET_OP_TYPES
from tf1compat.data import structure
from tf1compat.data.structure import TensorSpec

__all__ = ["from_generator"]

_tokens = itertools.count()
_lock = threading.Lock()
# token -> generator holder; the graph keeps the holder alive (as TF's py_func registry).
_GENERATORS: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()


class _Holder:
    __slots__ = ("generator", "__weakref__")

    def __init__(self, generator: Callable[..., Any]):
        self.generator = generator


def _to_array(value: Any, dtype: D.DType) -> np.ndarray:
    if dtype == D.string:
        arr = np.asarray(value)
        if arr.dtype.kind == "U":
            arr = np.vectorize(lambda s: s.encode("utf-8"), otypes=[object])(arr)
        elif arr.dtype.kind == "S":
            arr = arr.astype(object)
        if arr.dtype != object:
            raise TypeError(f"`generator` yielded an element that could not be converted to "
                            f"the expected type. The expected type was {dtype.name}, but the "
                            f"yielded element was {value}.")
        return arr
    try:
        return np.asarray(value, dtype=dtype.as_numpy_dtype)
    except (TypeError, ValueError) as e:
        raise TypeError(f"`generator` yielded an element that could not be converted to the "
                        f"expected type. The expected type was {dtype.name}, but the yielded "
                        f"element was {value}.") from e


class GeneratorValue(rt.DatasetValue):
    def __init__(self, generator: Callable[..., Any], args: tuple, structure_of: Any,
                 types: List[D.DType], shapes: List[TensorShape]):
        self.generator, self.args = generator, args
        self.structure_of, self.types, self.shapes = structure_of, types, shapes

    def _convert(self, values: Any) -> tuple:
        try:
            flat = _flatten_up_to(self.structure_of, values)
        except (TypeError, ValueError) as e:
            raise _error(TypeError(
                f"`generator` yielded an element that did not match the expected structure. "
                f"The expected structure was {self.structure_of}, but the yielded element "
                f"was {values}.")) from e
        out = []
        for value, dtype, shape in zip(flat, self.types, self.shapes):
            try:
                arr = _to_array(value, dtype)
            except TypeError as e:
                raise _error(e) from None
            if not shape.is_compatible_with(arr.shape):
                raise _error(TypeError(f"`generator` yielded an element of shape {arr.shape} "
                                       f"where an element of shape {shape} was expected."))
            if dtype == D.string:
                out.append(arr if arr.ndim else arr[()])
            else:
                out.append(torch.from_numpy(np.ascontiguousarray(arr)).clone()
                           if arr.ndim else torch.tensor(arr[()], dtype=dtype.torch_dtype))
        return tuple(out)

    def iterator(self) -> rt.Iter:
        state: dict = {"it": None, "done": False}

        def get_next() -> Optional[tuple]:
            if state["done"]:
                return None
            if state["it"] is None:
                try:
                    state["it"] = iter(self.generator(*self.args))
                except Exception as e:  # noqa: BLE001 - reported as TF does
                    raise _error(e) from e
            try:
                values = next(state["it"])
            except StopIteration:
                state["done"] = True
                return None
            except Exception as e:  # noqa: BLE001
                raise _error(e) from e
            return self._convert(values)
        return rt._FnIter(get_next)


def _error(e: BaseException) -> errors.OpError:
    from tf1compat.ops.script_ops import _raise_from_python
    try:
        _raise_from_python(e)
    except errors.OpError as op_error:
        return op_error
    return errors.UnknownError(None, None, str(e))  # pragma: no cover


def _flatten_up_to(shallow: Any, value: Any) -> list:
    if not structure.is_nested(shallow):
        return [value]
    if isinstance(shallow, dict):
        return [x for k in sorted(shallow) for x in _flatten_up_to(shallow[k], value[k])]
    if not isinstance(value, (list, tuple)) or len(value) != len(shallow):
        raise ValueError("structure mismatch")
    return [x for s, v in zip(shallow, value) for x in _flatten_up_to(s, v)]


def _generator_kernel(node: Any, kctx: Any) -> Callable[..., rt.DatasetValue]:
    holder = _GENERATORS.get(node.attrs["token"])
    if holder is None:
        raise ValueError(f"Could not find the generator of {node.name} in the registry.")
    spec = node.attrs["element_spec"]
    types = structure.legacy_types(spec)
    flat_types = [D.as_dtype(t) for t in structure.flatten(types)]
    flat_shapes = [as_shape(s) for s in structure.flatten(structure.legacy_shapes(spec))]

    def run(*args: Any) -> rt.DatasetValue:
        values = tuple(_numpy_arg(a) for a in args)
        return GeneratorValue(holder.generator, values, types, flat_types, flat_shapes)
    return run


def _numpy_arg(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        arr = value.detach().cpu().numpy()
        return arr[()] if arr.ndim == 0 else arr
    return value


declare("GeneratorDataset", inputs=["init_func_other_args: Tinit_func_args"],
        outputs=["handle: variant"],
        attrs={"Tinit_func_args": TypeList(default=[]), "token": "", "element_spec": None,
               "output_types": [], "output_shapes": [], "metadata": ""},
        shape=lambda ctx: [TensorShape([])], kernel=_generator_kernel, grad="none",
        cpu_only=True,
        not_one_node="it runs a Python generator of this process (Dataset.from_generator)",
        doc="The elements of a Python generator (Dataset.from_generator).")
DATASET_OP_TYPES.add("GeneratorDataset")


def from_generator(generator: Callable[..., Any], output_types: Any, output_shapes: Any,
                   args: Any, output_signature: Any) -> Any:
    from tf1compat.data.dataset_ops import DatasetV1, DatasetV1Adapter
    if not callable(generator):
        raise TypeError("`generator` must be a Python callable.")
    if output_signature is not None:
        if output_types is not None:
            raise TypeError("The `output_types` argument can not be used together with the "
                            "`output_signature` argument.")
        if output_shapes is not None:
            raise TypeError("The `output_shapes` argument can not be used together with the "
                            "`output_signature` argument.")
        for spec in structure.flatten(output_signature):
            if not isinstance(spec, TensorSpec):
                raise TypeError("`output_signature` must contain objects that are subclass of "
                                f"`tf.TypeSpec` but found {type(spec)} which is not.")
    else:
        if output_types is None:
            raise TypeError("To specify the output signature you need to provide either the "
                            "`output_signature` argument or the `output_types` argument.")
        output_types = structure.map_structure(D.as_dtype, output_types)
        if output_shapes is None:
            output_shapes = structure.map_structure(lambda _: TensorShape(None), output_types)
        else:
            from tf1compat.data.iterator_ops import _map_up_to
            output_shapes = _map_up_to(output_types, as_shape, output_shapes)
        output_signature = structure.map_structure(
            lambda t, s: TensorSpec(s, t), output_types, output_shapes)
    holder = _Holder(generator)
    with _lock:
        token = f"pygen_{next(_tokens)}"
    _GENERATORS[token] = holder
    graph = get_default_graph()
    graph._extras.setdefault("from_generator_holders", []).append(holder)
    arg_tensors = [] if args is None else [convert_to_tensor(a, name="args") for a in args]

    def flat_map_fn(dummy: Any) -> Any:
        op = apply_op("GeneratorDataset", [arg_tensors], {
            "token": token, "element_spec": output_signature,
            "output_types": structure.flat_tensor_types(output_signature),
            "output_shapes": structure.flat_tensor_shapes(output_signature)})
        return DatasetV1Adapter(op._outputs[0], output_signature, [])
    return DatasetV1.from_tensors(0).flat_map(flat_map_fn)
