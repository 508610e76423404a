"""Gradients through `function.Defun` calls in graph files: each as the function's
GradientDef.

`tf.gradients` through a call of a Defun with a `grad_func` or a `python_grad_func` builds
the call's gradient at graph build (autodiff/custom_gradient.py: a sub-graph fed by
GradientInput placeholders, run inside torch autograd). TF's SymbolicGradient of a forward
function containing such a call differentiates it with the function's GradientDef, so a
graph file carries the gradient that way:

* `grad_func` is the gradient function already (function_export.py writes its GradientDef);
* a `python_grad_func`'s sub-graph becomes a gradient function of the call's inputs and
  the gradients of its outputs, returning one gradient per input (zeros where the Python
  function returned None); where the sub-graph reads the call's outputs, the function
  calls the forward function itself. TF's own `.meta` holds the Python function's ops
  instead (its tf.gradients builds them in the graph): the values are the same.

The sub-graphs themselves are not written. A sub-graph reading other forward tensors
than the call's inputs and outputs, inside a control-flow construct, or for a call with
an output that takes no gradient cannot be written (its reason names the call).
"""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Set, Tuple

from tf1compat.framework.operation import Operation
from tf1compat.graphdef.function_export import unique_name
from tf1compat.serialization.messages import NodeDef
from tf1compat.serialization.tensor_proto import attr_to_proto

__all__ = ["defun_record", "unwritable_reason", "subgraph_ops", "add_gradient"]


def defun_record(op: Operation) -> Any:
    """The custom-gradient record of a Defun call op with a Python or gradient function
    (None for other ops, and for calls no tf.gradients went through)."""
    function = op._op_def.function
    if function is None or (function.python_grad_func is None and
                            function.grad_func is None):
        return None
    from tf1compat.autodiff.grad_mode import custom_record
    return custom_record(op)


def unwritable_reason(op: Operation) -> Optional[str]:
    """Why the gradient of the Defun call `op` cannot be a GradientDef (None: it can)."""
    record = defun_record(op)
    if record is None:
        return "its gradient is a Python function (tf.custom_gradient)"
    if record.context is not None:
        return "its Python gradient was built inside a control-flow construct"
    _, others = _outside_reads(op, record)
    if others:
        return (f"its Python gradient reads {others[0].name}, which is neither an input "
                "nor an output of the call")
    if op._op_def.function.python_grad_func is not None and \
            any(g is None for g in record.grad_inputs):
        return "an output of the call takes no gradient"
    return None


def subgraph_ops(graph: Any) -> Set[Operation]:
    """The ops of the gradient sub-graphs of `graph`'s Defun calls (not written)."""
    from tf1compat.autodiff.custom_gradient import _KEY
    records = graph._extras.get(_KEY, {})
    spans = [(r.start_id, r.end_id) for op, r in records.items()
             if defun_record(op) is not None]
    if not spans:
        return set()
    return {op for op in graph.get_operations()
            if any(start < op._id <= end for start, end in spans)}


def add_gradient(export: Any, op: Operation) -> None:
    """Writes the GradientDef of `op`'s function from its `python_grad_func` sub-graph
    (once per function; `export` is the FunctionExport writing the library)."""
    record = defun_record(op)
    function = op._op_def.function
    if record is None or function.python_grad_func is None or \
            any(g.function_name == function.name for g in export.library.gradient):
        return
    from tf1compat.graphdef.graph_io import check_serializable
    check_serializable(op)                  # the reason it cannot be written, if any
    inputs = list(op.inputs) + list(record.grad_inputs)
    grads = [g for g in record.input_grads if g is not None]
    constants, _ = _outside_reads(op, record)
    ops = constants + _span(op, record)
    if any(t in record.reads for t in op.outputs):
        ops = [op] + ops
    # Entered first: the gradient function may call the function (writing it again).
    entry = export.library.gradient.add(function_name=function.name)
    attr = export.function(f"{function.name}_python_grad", inputs, grads, ops)
    entry.gradient_func = attr.func.name
    fdef = next(f for f in export.library.function if f.signature.name == attr.func.name)
    _fill_none_gradients(fdef, op, record.input_grads)


def _span(op: Operation, record: Any) -> List[Operation]:
    """The ops the gradient function built (the record's sub-graph)."""
    return [o for o in op._graph.get_operations() if record.start_id < o._id <= record.end_id]


def _outside_reads(op: Operation, record: Any) -> Tuple[List[Operation], List[Any]]:
    """The constants the sub-graph reads from the graph (copied into the gradient
    function), and the other tensors it reads besides the call's inputs and outputs."""
    span = _span(op, record)
    inside = set(span)
    own = set(op.inputs) | set(op.outputs)
    constants: Dict[Operation, None] = {}
    others: Dict[Any, None] = {}
    for member in span:
        for t in member.inputs:
            if t.op in inside or t in own:
                continue
            if t.op._op_def.constant and not t.op.inputs:
                constants[t.op] = None
            else:
                others[t] = None
    return list(constants), list(others)


def _fill_none_gradients(fdef: Any, op: Operation, input_grads: List[Any]) -> None:
    """One result per call input, in order: a None gradient becomes ZerosLike(input)."""
    computed = [(a.name, fdef.ret[a.name]) for a in fdef.signature.output_arg]
    del fdef.signature.output_arg[:]
    fdef.ret.clear()
    args = [a.name for a in fdef.signature.input_arg]
    taken = {n.name for n in fdef.node_def}
    for i, (t, g) in enumerate(zip(op.inputs, input_grads)):
        result = f"dx_{i}"
        if g is None:
            node = NodeDef(name=unique_name(f"zeros_like_{i}", taken), op="ZerosLike",
                           input=[args[i]])
            node.attr["T"].CopyFrom(attr_to_proto(t.dtype.base_dtype))
            fdef.node_def.append(node)
            value = f"{node.name}:y:0"
        else:
            value = computed.pop(0)[1]
        fdef.signature.output_arg.add(name=result, type=t.dtype.base_dtype.as_datatype_enum)
        fdef.ret[result] = value
