"""`Dataset.reduce`: the ReduceDataset op, in graph mode and under eager execution.

As TF's wrapper: the initial state is normalized (`initial_state/...` constants), the
reduce function is traced on (state, element) and retraced with weakened state shapes
until they stop changing (a state that grows along a dimension gets an unknown
dimension), the new state must keep the state's classes and dtypes (TypeError), and one
ReduceDataset op folds the whole dataset when it runs, returning the final state.
States of dense tensors are supported; SparseTensor states raise NotImplementedError.
"""

from __future__ import annotations

from typing import Any, Callable, List, Optional

from tf1compat.data import _runtime as rt
from tf1compat.data import structure
from tf1compat.data.functions import StructuredFunction
from tf1compat.data.structure import TensorSpec
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.op_def import TypeList, declare
from tf1compat.framework.tensor_shape import TensorShape, as_shape

__all__ = ["reduce_dataset"]


def _reduce_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    fn = node.attrs["f"].bind(kctx)
    n_state = len(node.attrs["Tstate"])
    single = len(node.outputs) == 1

    def run(dataset: rt.DatasetValue, *rest: Any) -> Any:
        state, captures = tuple(rest[:n_state]), tuple(rest[n_state:])
        iterator = dataset.iterator()
        while True:
            try:
                element = iterator.get_next()
            except Exception as e:  # noqa: BLE001 - a failing element is TF's error class
                raise rt.to_op_error(e) from e
            if element is None:
                break
            state = tuple(fn(state + tuple(element), captures))
        return state[0] if single else state
    return run


declare("ReduceDataset",
        inputs=["input_dataset: variant", "initial_state: Tstate",
                "other_arguments: Targuments"],
        outputs=["components: output_types"],
        attrs={"f": None, "Tstate": TypeList(), "Targuments": TypeList(default=[]),
               "output_types": TypeList(), "output_shapes": [],
               "use_inter_op_parallelism": True, "metadata": ""},
        shape=lambda ctx: [as_shape(s) for s in ctx.attrs["output_shapes"]],
        kernel=_reduce_kernel, grad="none", cpu_only=True,
        doc="Folds a dataset with function `f` from `initial_state`; outputs the final state.")


def _check_same(kind: str, expected: Any, got: Any, state: List[Any], new: List[Any]) -> None:
    for a, b in zip(state, new):
        if a != b:
            raise TypeError(f"The element {kind} for the new state must match the initial "
                            f"state. Expected {expected} but got {got}.")


def reduce_dataset(dataset: Any, initial_state: Any, reduce_func: Callable[..., Any],
                   name: Optional[str] = None) -> Any:
    """`dataset.reduce(initial_state, reduce_func)`: see the module docstring."""
    with name_scope("initial_state"):
        initial_state = structure.normalize_element(initial_state)
    state_spec = structure.type_spec_from_value(initial_state)
    while True:
        fn = StructuredFunction(reduce_func, "reduce()", (state_spec, dataset.element_spec))
        flat_state = structure.flatten(state_spec)
        flat_new = structure.flatten(fn.output_structure)
        if any(not isinstance(s, TensorSpec) for s in flat_state + flat_new):
            raise NotImplementedError("Dataset.reduce with SparseTensor or dataset states is "
                                      "not supported by tf1compat")
        if len(flat_new) != len(flat_state):
            raise TypeError(f"The element classes for the new state must match the initial "
                            f"state. Expected {state_spec} but got {fn.output_structure}.")
        _check_same("types", structure.legacy_types(state_spec),
                    structure.legacy_types(fn.output_structure),
                    [s.dtype for s in flat_state], [s.dtype for s in flat_new])
        weakened = [a.shape.most_specific_compatible_shape(b.shape)
                    for a, b in zip(flat_state, flat_new)]
        if all(a.shape.rank is None or (w.rank is not None and
                                        a.shape.as_list() == w.as_list())
               for a, w in zip(flat_state, weakened)):
            break
        state_spec = structure.pack(state_spec, [TensorSpec(w, s.dtype)
                                                 for w, s in zip(weakened, flat_state)])
    op = apply_op("ReduceDataset",
                  [dataset._variant_tensor, structure.flatten(initial_state),
                   fn.captured_inputs],
                  {"f": fn, "output_types": [s.dtype for s in flat_state],
                   "output_shapes": [TensorShape(s.shape) for s in flat_state]}, name)
    return structure.pack(state_spec, list(op.outputs))
