"""TF1's dataflow control-flow primitives and the Stack ops its loop gradients use.

Graphs written by TF 1.x (and by TF 2.x with `disable_v2_behavior()`) express `tf.cond`
and `tf.while_loop` with these ops instead of functions:

* `Switch(data, pred)` forwards `data` to `output_true` or `output_false`; the other
  output is *dead*. Ops with a dead input do not run and their outputs are dead too.
* `Merge(inputs)` forwards the first live input and its index (`value_index`).
* `Enter(data, frame_name)` moves a value into a loop frame (every iteration sees it
  when `is_constant`), `NextIteration` into the frame's next iteration, `Exit` back to
  the parent frame; `LoopCond` marks the loop predicate.
* `ControlTrigger` runs whether or not its (control) inputs are dead.

tf1compat's own `tf.cond`/`tf.while_loop` build region ops (cond.py, while_loop.py); these
declarations serve imported graphs, the graphs tf1compat writes for TF
(graphdef/control_flow_export.py) and programs that call `control_flow_ops.switch` /
`merge` themselves (slim's and Object Detection's random preprocessing selectors). Their
semantics are the dataflow executor's (runtime/dataflow.py): the kernels below only
compute the value an op forwards, the executor routes it (which Switch output, which frame
and iteration).

`StackV2`/`StackPushV2`/`StackPopV2`/`StackCloseV2` are the per-run stacks in which TF's
while-loop gradients keep forward values for the backward loop. A stack is a Python list
created each time its StackV2 op runs.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, List, Optional, Sequence, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, name_scope
from tf1compat.framework.indexed_slices import IndexedSlices
from tf1compat.framework.op_def import REQUIRED, Int, Type, declare
from tf1compat.framework.sparse_tensor import SparseTensor
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import TensorShape, unknown_shape
from tf1compat.ops._kernels import identity_kernel
from tf1compat.ops._shape_rules import unary_rule

__all__ = ["StackValue", "switch", "merge", "MergeOutput"]


def _switch_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    # The executor sends `data` to output 1 or 0 by `pred`; as a plain function both
    # outputs carry it.
    return lambda data, pred: (data, data)


def _merge_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    # The executor forwards the first live input itself; a Merge never runs as a call.
    def merge(*inputs: Any) -> Any:
        raise NotImplementedError(f"Merge op {node.name} runs only in a dataflow plan")
    return merge


def _merge_shape(ctx: Any) -> List[TensorShape]:
    """TF's Merge shape function: equal ranks keep the dimensions all inputs agree on."""
    shapes = ctx.shapes
    first = shapes[0]
    if first.rank is None:
        return [unknown_shape(), TensorShape([])]
    dims = list(first.as_list())
    for s in shapes[1:]:
        if s.rank is None or s.rank != first.rank:
            return [unknown_shape(), TensorShape([])]
        for i, d in enumerate(s.as_list()):
            if dims[i] != d:
                dims[i] = None
    return [TensorShape(dims), TensorShape([])]


def _enter_shape(ctx: Any) -> List[TensorShape]:
    # As TF's: a loop variable's shape may change between iterations, so only a loop
    # constant keeps its input's shape.
    return [ctx.shape(0) if ctx.attrs["is_constant"] else unknown_shape()]


_FRAME_ATTRS = {"T": Type(), "frame_name": REQUIRED, "is_constant": False,
                "parallel_iterations": 10}

# Switch, Enter, Exit and NextIteration forward their input's buffer (forwards_alias): a
# variable read entering a loop sees the assignments the loop makes, as in TF1.
declare("Switch", inputs=["data: T", "pred: bool"],
        outputs=["output_false: T", "output_true: T"], attrs={"T": Type()},
        shape=lambda ctx: [ctx.shape(0), ctx.shape(0)], kernel=_switch_kernel, view=True,
        forwards_alias=True, doc="Forwards data to output_true if pred else output_false (the other is dead).")
declare("RefSwitch", inputs=["data: Ref(T)", "pred: bool"],
        outputs=["output_false: Ref(T)", "output_true: Ref(T)"], attrs={"T": Type()},
        shape=lambda ctx: [ctx.shape(0), ctx.shape(0)],
        kernel=lambda node, kctx: (lambda pred: (None, None)), view=True,
        doc="Switch of a variable reference.")
declare("Merge", inputs=["inputs: N * T"], outputs=["output: T", "value_index: int32"],
        attrs={"T": Type(), "N": Int(minimum=1)}, shape=_merge_shape, kernel=_merge_kernel,
        view=True, doc="Forwards the first live input and its index.")
# RefMerge's inputs and output are references in TF; here they are the values the
# references hold when the merge runs (the branch's assign has run by then), which is
# all a reader of the merged reference sees in TF 1.x graphs.
declare("RefMerge", inputs=["inputs: N * T"], outputs=["output: T", "value_index: int32"],
        attrs={"T": Type(), "N": Int(minimum=1)}, shape=_merge_shape, kernel=_merge_kernel,
        view=True, doc="Merge of variable references (a cond whose branches return "
                       "assigns' outputs, in TF 1.x graphs).")
declare("Enter", inputs=["data: T"], outputs=["output: T"], attrs=dict(_FRAME_ATTRS),
        shape=_enter_shape, kernel=identity_kernel, view=True, forwards_alias=True,
        doc="Makes data available in the child frame frame_name.")
declare("RefEnter", inputs=["data: Ref(T)"], outputs=["output: Ref(T)"],
        attrs=dict(_FRAME_ATTRS), shape=lambda ctx: [ctx.shape(0)],
        kernel=lambda node, kctx: (lambda: None), view=True,
        doc="Enter of a variable reference.")
declare("Exit", inputs=["data: T"], outputs=["output: T"], attrs={"T": Type()},
        shape=unary_rule, kernel=identity_kernel, view=True, forwards_alias=True,
        doc="Makes data available in the parent frame.")
declare("RefExit", inputs=["data: Ref(T)"], outputs=["output: Ref(T)"], attrs={"T": Type()},
        shape=unary_rule, kernel=lambda node, kctx: (lambda: None), view=True,
        doc="Exit of a variable reference.")
declare("NextIteration", inputs=["data: T"], outputs=["output: T"], attrs={"T": Type()},
        shape=unary_rule, kernel=identity_kernel, view=True, forwards_alias=True,
        doc="Makes data available to the next iteration of the frame.")
declare("RefNextIteration", inputs=["data: Ref(T)"], outputs=["output: Ref(T)"],
        attrs={"T": Type()}, shape=unary_rule, kernel=lambda node, kctx: (lambda: None),
        view=True, doc="NextIteration of a variable reference.")
declare("LoopCond", inputs=["input: bool"], outputs=["output: bool"], shape=unary_rule,
        kernel=identity_kernel, grad="none", doc="The predicate of a while loop.")
declare("ControlTrigger", shape=lambda ctx: [], kernel=lambda node, kctx: (lambda: None),
        grad="none", doc="Runs once its control inputs are done, live or dead.")


# -- control_flow_ops.switch / merge -----------------------------------------------------------

# What `merge` of tensors returns: TF's generated wrapper's namedtuple, named "Merge".
MergeOutput = collections.namedtuple("Merge", ["output", "value_index"])


def switch(data: Any, pred: Any, dtype: Any = None, name: Optional[str] = None) -> Tuple[Any, Any]:
    """`control_flow_ops.switch`: (output_false, output_true); only the side `pred` picks
    is alive when it runs, so the ops that read the other do not run (TF1's dataflow
    conditional, as slim's `apply_with_random_selector` builds it). An IndexedSlices or a
    SparseTensor switches component by component."""
    with name_scope(name, "Switch", [data, pred]) as scope:
        data = convert_to_tensor_or_composite(data, dtype=dtype, name="data")
        pred = convert_to_tensor(pred, name="pred")
        if isinstance(data, Tensor):
            return tuple(apply_op("Switch", [data, pred], name=scope).outputs)
        if not isinstance(data, (IndexedSlices, SparseTensor)):
            raise TypeError(f"Type {type(data)} not supported")
        val_f, val_t = apply_op("Switch", [data.values, pred], name=scope).outputs
        ind_f, ind_t = apply_op("Switch", [data.indices, pred], name="indices").outputs
        if data.dense_shape is None:
            return IndexedSlices(val_f, ind_f), IndexedSlices(val_t, ind_t)
        shape_f, shape_t = apply_op("Switch", [data.dense_shape, pred],
                                    name="dense_shape").outputs
        if isinstance(data, IndexedSlices):
            return IndexedSlices(val_f, ind_f, shape_f), IndexedSlices(val_t, ind_t, shape_t)
        return SparseTensor(ind_f, val_f, shape_f), SparseTensor(ind_t, val_t, shape_t)


def merge(inputs: Sequence[Any], name: Optional[str] = None) -> Tuple[Any, Any]:
    """`control_flow_ops.merge`: (the first live input, its index). Tensors mixed with
    IndexedSlices become IndexedSlices over all their rows, as TF's merge makes them."""
    if any(inp is None for inp in inputs):
        raise ValueError(f"At least one of the merge inputs is None: {inputs}")
    with name_scope(name, "Merge", inputs) as scope:
        inputs = [convert_to_tensor_or_composite(inp) for inp in inputs]
        if all(isinstance(v, Tensor) for v in inputs):
            return MergeOutput(*apply_op("Merge", [inputs], name=scope).outputs)
        if all(isinstance(v, SparseTensor) for v in inputs):
            values = merge([inp.values for inp in inputs], name=scope)[0]
            indices, chosen = apply_op("Merge", [[inp.indices for inp in inputs]],
                                       name="indices").outputs
            shape = apply_op("Merge", [[inp.dense_shape for inp in inputs]],
                             name="dense_shape").outputs[0]
            return SparseTensor(indices, values, shape), chosen
        if all(isinstance(v, (IndexedSlices, Tensor)) for v in inputs):
            inputs = _as_indexed_slices_list(inputs)
            values = merge([inp.values for inp in inputs], name=scope)[0]
            indices, chosen = apply_op("Merge", [[inp.indices for inp in inputs]],
                                       name="indices").outputs
            shape = None
            if any(inp.dense_shape is not None for inp in inputs):
                if any(inp.dense_shape is None for inp in inputs):
                    raise ValueError("Either all merged IndexedSlices must have a dense_shape, "
                                     "or none must have a dense_shape.")
                shape = apply_op("Merge", [[inp.dense_shape for inp in inputs]],
                                 name="dense_shape").outputs[0]
            return IndexedSlices(values, indices, shape), chosen
        raise TypeError(f"Type {type(inputs[-1])} not supported")


def _as_indexed_slices_list(inputs: List[Any]) -> List[IndexedSlices]:
    """TF's math_ops._as_indexed_slices_list(optimize=False): each Tensor as the
    IndexedSlices of all its rows; int64 indices everywhere when any input has them."""
    from tf1compat.ops.array_ops import shape_internal
    from tf1compat.ops.creation_ops import range as range_
    from tf1compat.ops.math_ops import cast
    out = []
    for x in inputs:
        if isinstance(x, Tensor):
            x_shape = shape_internal(x, optimize=False)
            x = IndexedSlices(x, range_(0, x_shape[0]), x_shape)
        out.append(x)
    if all(x.indices.dtype == D.int32 for x in out):
        return out
    return [x if x.indices.dtype == D.int64 else
            IndexedSlices(x.values, cast(x.indices, D.int64),
                          None if x.dense_shape is None else cast(x.dense_shape, D.int64))
            for x in out]


def convert_to_tensor_or_composite(value: Any, dtype: Any = None,
                                   name: Optional[str] = None) -> Any:
    """A Tensor, or the IndexedSlices / SparseTensor `value` already is."""
    if isinstance(value, (IndexedSlices, SparseTensor)):
        return value
    return convert_to_tensor(value, dtype=dtype, name=name)


# -- stacks ------------------------------------------------------------------------------------

class StackValue:
    """The run-time state of one stack (TF's Stack resource)."""

    __slots__ = ("name", "elem_type", "max_size", "elements", "closed")

    def __init__(self, name: str, elem_type: D.DType, max_size: int):
        self.name = name
        self.elem_type = elem_type
        self.max_size = max_size
        self.elements: List[Any] = []
        self.closed = False

    def to(self, *args: Any, **kwargs: Any) -> "StackValue":
        """Device moves inserted by plans leave the handle as it is."""
        return self

    def __repr__(self) -> str:
        return f"<Stack {self.name} depth={len(self.elements)}>"


def _invalid(message: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, message)


def _stack_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    name = node.attrs["stack_name"] or node.name
    elem_type = node.attrs["elem_type"]

    def create(max_size: Any) -> StackValue:
        return StackValue(name, elem_type, int(max_size))
    return create


def _push_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def push(stack: StackValue, elem: Any) -> Any:
        if stack.closed:
            raise _invalid(f"Stack[{stack.name}] has already been closed.")
        if 0 <= stack.max_size <= len(stack.elements):
            raise _invalid(f"Stack[{stack.name}] overflowed its max_size "
                           f"({stack.max_size})")
        stack.elements.append(elem)
        return elem
    return push


def _pop_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def pop(stack: StackValue) -> Any:
        if stack.closed:
            raise _invalid(f"Stack[{stack.name}] has already been closed.")
        if not stack.elements:
            raise _invalid(f"Stack[{stack.name}] is empty.")
        return stack.elements.pop()
    return pop


def _close_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def close(stack: StackValue) -> None:
        stack.closed = True
        stack.elements.clear()
    return close


declare("StackV2", inputs=["max_size: int32"], outputs=["handle: resource"],
        attrs={"elem_type": REQUIRED, "stack_name": ""},
        shape=lambda ctx: [TensorShape([2])],   # TF's legacy two-element stack handle
        kernel=_stack_kernel, stateful=True, grad="none",
        doc="A new stack (max_size < 0: unbounded).")
declare("StackPushV2", inputs=["handle: resource", "elem: T"], outputs=["output: T"],
        attrs={"T": Type(), "swap_memory": False}, shape=lambda ctx: [ctx.shape(1)],
        kernel=_push_kernel, stateful=True, grad="none",
        doc="Pushes elem and forwards it.")
declare("StackPopV2", inputs=["handle: resource"], outputs=["elem: elem_type"],
        attrs={"elem_type": Type()}, shape=lambda ctx: [unknown_shape()],
        kernel=_pop_kernel, stateful=True, grad="none", doc="Pops the top element.")
declare("StackCloseV2", inputs=["handle: resource"], shape=lambda ctx: [],
        kernel=_close_kernel, stateful=True, grad="none", doc="Closes the stack.")


# The V1 stack ops of TF <= 1.2 graphs (while-loop gradients of old dynamic_rnn training
# files): a Ref(string) handle and no max_size. The consumers declare a plain string
# handle (the run-time value is the StackValue, which no plan aliases), as
# accumulator_ops.py's Ref(string) consumers.
def _stack_v1_kernel(node: Any, kctx: Any) -> Callable[[], StackValue]:
    create = _stack_kernel(node, kctx)
    return lambda: create(-1)


declare("Stack", outputs=["handle: Ref(string)"], attrs={"elem_type": REQUIRED, "stack_name": ""},
        shape=lambda ctx: [TensorShape([2])], kernel=_stack_v1_kernel, stateful=True, grad="none", doc="StackV2 without max_size (unbounded; TF <= 1.2).")
declare("StackPush", inputs=["handle: string", "elem: T"], outputs=["output: T"],
        attrs={"T": Type(), "swap_memory": False}, shape=lambda ctx: [ctx.shape(1)],
        kernel=_push_kernel, stateful=True, grad="none", doc="StackPushV2 of a V1 stack.")
declare("StackPop", inputs=["handle: string"], outputs=["elem: elem_type"],
        attrs={"elem_type": Type()}, shape=lambda ctx: [unknown_shape()],
        kernel=_pop_kernel, stateful=True, grad="none", doc="StackPopV2 of a V1 stack.")
declare("StackClose", inputs=["handle: string"], shape=lambda ctx: [],
        kernel=_close_kernel, stateful=True, grad="none", doc="StackCloseV2 of a V1 stack.")
