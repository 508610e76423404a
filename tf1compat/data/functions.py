"""User functions of tf.data transformations, traced once into a function graph.

`StructuredFunction(func, "Dataset.map()", input_structure)` mirrors TF's
StructuredFunctionWrapper: it traces `func` into a `FuncGraph` (func_graph.py) with one
placeholder per input component, unpacking a tuple element into positional arguments and
packing a returned list into a tuple, and records the output structure (TensorSpecs,
SparseTensorSpecs, RaggedTensorSpecs, DatasetSpecs). The outer tensors the function uses
are its captures. A ragged component is TF's variant: the function decodes its argument
(RaggedTensorFromVariant) and encodes a returned RaggedTensor (RaggedTensorToVariant).

At run time `bind(kctx)` compiles the function graph once per session and returns
`call(element, captures) -> element` over run-time elements (tuples with one value per
component, see _runtime.py). For functions of dense and ragged components only that is
the generated function itself, with no conversion per element.
"""

from __future__ import annotations

from typing import Any, Callable, List

from tf1compat.framework import dtypes as D
from tf1compat.framework.graph import get_default_graph
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.data import structure
from tf1compat.data._runtime import SparseValue
from tf1compat.framework.func_graph import FuncGraph
from tf1compat.data.ragged import check_ragged_rank, ragged_component, ragged_from_variant
from tf1compat.data.structure import DatasetSpec, SparseTensorSpec, TensorSpec
from tf1compat.ragged.ragged_tensor import RaggedTensor
from tf1compat.ragged.ragged_tensor_spec import RaggedTensorSpec

__all__ = ["StructuredFunction", "SparseValue"]


def _func_name(func: Any) -> str:
    name = getattr(func, "__name__", None) or type(func).__name__
    for symbol in "<>\\' ":
        name = name.replace(symbol, "")
    return name


# Stateful op types without side effects: they run only when an output needs them.
_READS = frozenset({"VarHandleOp", "ReadVariableOp", "VarIsInitializedOp", "Placeholder"})


def _after_side_effects(graph: Any, outputs: List[Tensor]) -> List[Tensor]:
    """TF runs a dataset function's stateful ops (tf.print, asserts, random ops) even when
    no output needs them (automatic control dependencies): the outputs wait for them."""
    needed: set = set()
    stack = [t.op for t in outputs if t.graph is graph]
    while stack:
        op = stack.pop()
        if op in needed:
            continue
        needed.add(op)
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    side = [op for op in graph.get_operations()
            if op._op_def.stateful and op.type not in _READS and op not in needed and
            op._control_flow_context is None]
    if not side:
        return outputs
    from tf1compat.ops.array_ops import identity
    with graph.control_dependencies(side):
        return [identity(t) for t in outputs]


class StructuredFunction:
    """A traced dataset function: its graph, input and output structures, captures."""

    def __init__(self, func: Callable[..., Any], transformation_name: str,
                 input_structure: Any):
        self._func = func
        self.transformation_name = transformation_name
        self.input_structure = input_structure
        readable = transformation_name.replace(".", "_")[:-2]
        name = f"{readable}_{_func_name(func)}"
        graph = FuncGraph(name, get_default_graph(), device="/device:CPU:0")
        self.graph = graph
        self._arg_placeholders: List[Tensor] = []
        with graph.building():
            args = self._make_args(graph)
            nested = structure.pack(input_structure, args)
            if type(nested) is not tuple:
                nested = (nested,)
            ret = func(*nested)
            ret = _variables_to_tensors(ret)
            if type(ret) is list:
                ret = tuple(ret)
            self._check_return(ret)
            ret = structure.normalize_element(ret)
            self.output_structure = structure.type_spec_from_value(ret)
            outputs: List[Tensor] = []
            for value in structure.flatten(ret):
                if isinstance(value, SparseTensor):
                    outputs.extend([value.indices, value.values, value.dense_shape])
                elif isinstance(value, RaggedTensor):
                    outputs.append(ragged_component(value, batched=False))
                elif isinstance(value, Tensor):
                    outputs.append(value)
                else:                           # a dataset
                    outputs.append(value._variant_tensor)
            outputs = _after_side_effects(graph, outputs)
            graph.outputs = [graph.capture(t) for t in outputs]
        # a ragged component is one variant value at run time, as a dense one is
        one_value = (TensorSpec, RaggedTensorSpec)
        self._dense = all(isinstance(s, one_value)
                          for s in structure.flatten(input_structure)) and \
            all(isinstance(s, one_value) for s in structure.flatten(self.output_structure))

    def _check_return(self, ret: Any) -> None:
        for value in structure.flatten(ret):
            if value is None:
                raise ValueError(f"The function passed to {self.transformation_name} returned "
                                 "None; it must return a (nested) structure of tensors: "
                                 "Attr 'output_types' would be a list of length 0, less than "
                                 "the minimum 1.")

    def _make_args(self, graph: FuncGraph) -> List[Any]:
        args: List[Any] = []
        for i, spec in enumerate(structure.flatten(self.input_structure)):
            if isinstance(spec, SparseTensorSpec):
                rank = spec.shape.rank
                indices = graph.placeholder(D.int64, TensorShape([None, rank]),
                                            f"args_{i}/indices")
                values = graph.placeholder(spec.dtype, TensorShape([None]), f"args_{i}/values")
                shape = graph.placeholder(D.int64, TensorShape([rank]), f"args_{i}/dense_shape")
                self._arg_placeholders += [indices, values, shape]
                sparse = SparseTensor(indices, values, shape)
                sparse._dense_shape_default = spec.shape
                args.append(sparse)
            elif isinstance(spec, RaggedTensorSpec):
                # TF's form: the argument is the variant, decoded in the function
                check_ragged_rank(spec)
                handle = graph.placeholder(D.variant, TensorShape(None), f"args_{i}")
                self._arg_placeholders.append(handle)
                args.append(ragged_from_variant(spec, handle))
            elif isinstance(spec, DatasetSpec):
                handle = graph.placeholder(D.variant, spec.shape, f"args_{i}")
                self._arg_placeholders.append(handle)
                from tf1compat.data.dataset_ops import VariantDataset
                args.append(VariantDataset(handle, spec.element_spec))
            else:
                ph = graph.placeholder(spec.dtype, spec.shape, f"args_{i}")
                self._arg_placeholders.append(ph)
                args.append(ph)
        return args

    # -- graph side ------------------------------------------------------------------------
    @property
    def captured_inputs(self) -> List[Tensor]:
        """The outer tensors the function uses: the dataset op's `other_arguments`."""
        return self.graph.captured_tensors

    @property
    def output_types(self) -> Any:
        return structure.legacy_types(self.output_structure)

    @property
    def output_shapes(self) -> Any:
        return structure.legacy_shapes(self.output_structure)

    @property
    def output_classes(self) -> Any:
        return structure.legacy_classes(self.output_structure)

    # -- run time --------------------------------------------------------------------------
    def bind(self, kctx: Any) -> Callable[[tuple, tuple], tuple]:
        """`call(element, captures) -> element`, compiled for the session of `kctx`."""
        graph = self.graph
        compiled = kctx.compile_function(self._arg_placeholders + graph.capture_placeholders,
                                         graph.outputs)
        fn, state = compiled.fn, compiled.state
        if self._dense:
            def call_dense(element: tuple, captures: tuple) -> tuple:
                return fn(element + captures, state)
            return call_dense
        in_specs = structure.flatten(self.input_structure)
        out_specs = structure.flatten(self.output_structure)

        def call(element: tuple, captures: tuple) -> tuple:
            flat: List[Any] = []
            for spec, value in zip(in_specs, element):
                if isinstance(spec, SparseTensorSpec):
                    flat.extend(value)
                else:
                    flat.append(value)
            out = fn(tuple(flat) + captures, state)
            result, k = [], 0
            for spec in out_specs:
                if isinstance(spec, SparseTensorSpec):
                    result.append(SparseValue(out[k], out[k + 1], out[k + 2]))
                    k += 3
                else:
                    result.append(out[k])
                    k += 1
            return tuple(result)
        return call


def _variables_to_tensors(ret: Any) -> Any:
    from tf1compat.variables.variables import Variable
    if isinstance(ret, Variable):
        return ret.value()
    if structure.is_nested(ret):
        return structure.pack(ret, [_variables_to_tensors(v) for v in structure.flatten(ret)])
    return ret

