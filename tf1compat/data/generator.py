"""`tf.data.Dataset.from_generator`: elements yielded by a Python generator, built as TF
builds it.

The outer graph holds `from_tensors(0).flat_map(flat_map_fn)`; inside the flat_map function
a `GeneratorDataset` op runs three traced functions, each a `py_func` (PyFunc) over the
generator's state: `init_func` starts a pass and returns its iterator id (the generator is
called anew, with `args` evaluated to numpy values, on its first element), `next_func` returns
the pass's next element (StopIteration ends the pass as OutOfRange), `finalize_func` drops
the pass. Each yielded value is checked against the declared types and shapes with TF's
messages (InvalidArgumentError at run time). Being TF's graph, it is written to GraphDefs
and `.meta` files as TF writes it; the PyFunc tokens work in the process that built the
graph, as in TF.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, List

import numpy as np

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape
from tf1compat.data import _runtime as rt
from tf1compat.data._ops import DATASET_OP_TYPES, dataset_function
from tf1compat.data import structure
from tf1compat.data.functions import StructuredFunction
from tf1compat.data.structure import TensorSpec

__all__ = ["from_generator"]


class _GeneratorState:
    """The passes of one generator (TF's _GeneratorState): `get_next_id(*args)` starts a
    pass, the generator is called on its first element, `iterator_completed` drops it."""

    def __init__(self, generator: Callable[..., Any]):
        self._generator = generator
        self._lock = threading.Lock()
        self._next_id = 0
        self._args: Dict[int, tuple] = {}
        self._iterators: Dict[int, Any] = {}

    def get_next_id(self, *args: Any) -> np.ndarray:
        with self._lock:
            iterator_id = self._next_id
            self._next_id += 1
            self._args[iterator_id] = tuple(a[()] if isinstance(a, np.ndarray) and a.ndim == 0
                                            else a for a in args)
        return np.array(iterator_id, dtype=np.int64)

    def get_iterator(self, iterator_id: int) -> Any:
        it = self._iterators.get(iterator_id)
        if it is None:
            it = iter(self._generator(*self._args.pop(iterator_id)))
            self._iterators[iterator_id] = it
        return it

    def iterator_completed(self, iterator_id: int) -> None:
        self._iterators.pop(iterator_id, None)
        self._args.pop(iterator_id, None)


class _NotText(Exception):
    """An object array for a tf.string component holds something other than bytes/str."""


def _to_array(value: Any, dtype: D.DType) -> np.ndarray:
    if dtype == D.string:
        arr = np.asarray(value)
        if arr.dtype.kind == "U":
            arr = np.vectorize(lambda s: s.encode("utf-8"), otypes=[object])(arr)
        elif arr.dtype.kind == "S":
            arr = arr.astype(object)
        if arr.dtype == object and not all(isinstance(v, (bytes, str)) for v in arr.flat):
            # TF's normalize_element fails on it (reported as a structure mismatch).
            raise _NotText()
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


def _flatten_up_to(shallow: Any, value: Any) -> list:
    if not structure.is_nested(shallow):
        return [value]
    if isinstance(shallow, dict):
        return [x for k in sorted(shallow) for x in _flatten_up_to(shallow[k], value[k])]
    if not isinstance(value, (list, tuple)) or len(value) != len(shallow):
        raise ValueError("structure mismatch")
    return [x for s, v in zip(shallow, value) for x in _flatten_up_to(s, v)]


class _NextElement:
    """next_func's Python side: the pass's next value, flattened and checked as TF does."""

    def __init__(self, state: _GeneratorState, output_types: Any, flat_types: List[D.DType],
                 flat_shapes: List[TensorShape], output_signature: Any):
        self._state, self._output_types = state, output_types
        self._flat_types, self._flat_shapes = flat_types, flat_shapes
        self._signature = output_signature

    def __call__(self, iterator_id: np.ndarray) -> List[np.ndarray]:
        values = next(self._state.get_iterator(int(iterator_id)))
        try:
            flat = _flatten_up_to(self._output_types, values)
        except (TypeError, ValueError) as e:
            raise TypeError(
                f"`generator` yielded an element that did not match the expected structure. "
                f"The expected structure was {self._output_types}, but the yielded element "
                f"was {values}.") from e
        out = []
        for value, dtype, shape in zip(flat, self._flat_types, self._flat_shapes):
            try:
                arr = _to_array(value, dtype)
            except _NotText:
                raise TypeError(
                    f"`generator` yielded an element that did not match the expected "
                    f"structure. The expected structure was {self._signature}, but the "
                    f"yielded element was {values}.") from None
            if not shape.is_compatible_with(arr.shape):
                raise TypeError(f"`generator` yielded an element of shape {arr.shape} where "
                                f"an element of shape {shape} was expected.")
            out.append(arr)
        return out


class GeneratorValue(rt.DatasetValue):
    """A GeneratorDataset: each pass runs init_func, then next_func until it raises
    OutOfRange, then finalize_func."""

    def __init__(self, init: Callable, next_: Callable, finalize: Callable,
                 init_args: tuple, next_args: tuple, finalize_args: tuple):
        self._init, self._next, self._finalize = init, next_, finalize
        self._init_args, self._next_args = init_args, next_args
        self._finalize_args = finalize_args

    def iterator(self) -> rt.Iter:
        state: dict = {"id": None, "done": False}

        def get_next() -> Any:
            if state["done"]:
                return None
            if state["id"] is None:
                state["id"] = self._init(*self._init_args)[0]
            try:
                return self._next((state["id"],), self._next_args)
            except errors.OutOfRangeError:
                state["done"] = True
                self._finalize((state["id"],), self._finalize_args)
                return None
        return rt._FnIter(get_next)


def _generator_kernel(node: Any, kctx: Any) -> Callable[..., rt.DatasetValue]:
    counts = [len(node.attrs[a]) for a in
              ("Tinit_func_args", "Tnext_func_args", "Tfinalize_func_args")]
    init_fn = node.attrs["init_func"]
    init = dataset_function(node, kctx, "init_func")
    next_ = dataset_function(node, kctx, "next_func")
    finalize = dataset_function(node, kctx, "finalize_func")
    # init_func's arguments are the flat_map element (traced functions: its components)
    # followed by its captures; an imported library function takes them all in one list.
    n_element = (len(structure.flatten(init_fn.input_structure))
                 if isinstance(init_fn, StructuredFunction) else counts[0])

    def run(*inputs: Any) -> rt.DatasetValue:
        init_inputs = inputs[:counts[0]]
        next_args = inputs[counts[0]:counts[0] + counts[1]]
        finalize_args = inputs[counts[0] + counts[1]:]

        def start() -> tuple:
            return init(init_inputs[:n_element], init_inputs[n_element:])
        return GeneratorValue(start, next_, finalize, (), next_args, finalize_args)
    return run


declare("GeneratorDataset",
        inputs=["init_func_other_args: Tinit_func_args",
                "next_func_other_args: Tnext_func_args",
                "finalize_func_other_args: Tfinalize_func_args"],
        outputs=["handle: variant"],
        attrs={"init_func": None, "next_func": None, "finalize_func": None,
               "Tinit_func_args": TypeList(default=[]), "Tnext_func_args": TypeList(default=[]),
               "Tfinalize_func_args": TypeList(default=[]),
               "output_types": [], "output_shapes": [], "metadata": ""},
        shape=lambda ctx: [TensorShape([])], kernel=_generator_kernel, grad="none",
        stateful=True, cpu_only=True,
        doc="The elements of a Python generator (Dataset.from_generator): init_func, "
            "next_func until OutOfRange, finalize_func.")
DATASET_OP_TYPES.add("GeneratorDataset")


def from_generator(generator: Callable[..., Any], output_types: Any, output_shapes: Any,
                   args: Any, output_signature: Any) -> Any:
    from tf1compat.data.dataset_ops import DatasetV1, DatasetV1Adapter
    from tf1compat.ops.script_ops import numpy_function
    from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec
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
            if isinstance(spec, RaggedTensorSpec):
                raise NotImplementedError(
                    "Dataset.from_generator with a tf.RaggedTensorSpec in output_signature "
                    "is not supported by tf1compat: yield the flat values and row splits "
                    "(TensorSpecs) and rebuild the RaggedTensor in a map, "
                    "tf.RaggedTensor.from_row_splits(values, row_splits)")
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
    types = structure.legacy_types(output_signature)
    flat_types = [D.as_dtype(t) for t in structure.flatten(types)]
    flat_shapes = [as_shape(s)
                   for s in structure.flatten(structure.legacy_shapes(output_signature))]
    state = _GeneratorState(generator)
    arg_tensors = [] if args is None else [convert_to_tensor(a, name="args") for a in args]
    id_spec = TensorSpec(TensorShape([]), D.int64)

    def get_iterator_id_fn(unused_dummy: Any) -> Any:
        return numpy_function(state.get_next_id, arg_tensors, D.int64)

    def generator_next_fn(iterator_id: Any) -> Any:
        values = numpy_function(_NextElement(state, types, flat_types, flat_shapes,
                                             output_signature),
                                [iterator_id], flat_types)
        for value, shape in zip(values, flat_shapes):
            value.set_shape(shape)
        return structure.pack(types, values)

    def finalize_fn(iterator_id: Any) -> Any:
        def finalize(iterator_id: np.ndarray) -> np.ndarray:
            state.iterator_completed(int(iterator_id))
            return np.array(0, dtype=np.int64)
        return numpy_function(finalize, [iterator_id], D.int64)

    def flat_map_fn(dummy: Any) -> Any:
        init = StructuredFunction(get_iterator_id_fn, "Dataset.from_generator()",
                                  TensorSpec(TensorShape([]), D.int32))
        next_ = StructuredFunction(generator_next_fn, "Dataset.from_generator()", id_spec)
        final = StructuredFunction(finalize_fn, "Dataset.from_generator()", id_spec)
        op = apply_op("GeneratorDataset",
                      [[dummy] + list(init.captured_inputs), list(next_.captured_inputs),
                       list(final.captured_inputs)],
                      {"init_func": init, "next_func": next_, "finalize_func": final,
                       "output_types": flat_types, "output_shapes": flat_shapes})
        return DatasetV1Adapter(op._outputs[0], output_signature, [])
    return DatasetV1.from_tensors(0).flat_map(flat_map_fn)
