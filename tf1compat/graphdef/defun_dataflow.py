"""A `function.Defun` body holding tf.cond, written as TF 1.x writes it: Switch/Merge nodes.

Under `disable_v2_behavior()` TF builds a tf.cond inside a Defun's function graph in the
dataflow form (control_flow_v2 is off), and `TF_GraphToFunction` writes those nodes into
the FunctionDef as they are: `cond/Switch`, `cond/switch_t`, `cond/pred_id`,
`cond/mul/Switch`, `cond/Merge`, ... A Defun named without `func_name` takes the hash of
that FunctionDef (function_hash.py), so the body must be these very nodes for its name
to be TF's. tf1compat's body holds one `If` construct per cond; here the body's ops go
through the graph writer (control_flow_export.py) and its NodeDefs are rewritten in
function syntax: an argument by its name, output k of a node as `node:<output arg>:<j>`.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Tuple

from tf1compat.framework.op_def import get_op_def
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.ops.cond import Branch
from tf1compat.serialization.messages import NodeDef
from tf1compat.graphdef.control_flow_export import ControlFlowExport
from tf1compat.graphdef.function_export import output_arg_of
from tf1compat.graphdef.graph_io import UnserializableGraphError

__all__ = ["has_dataflow_cond", "dataflow_body"]


def has_dataflow_cond(ops: List[Operation]) -> bool:
    """Whether `ops` (a Defun body) hold a tf.cond, which TF writes as Switch/Merge."""
    return any(op.type == "If" and isinstance(op.attrs.get("then_branch"), Branch)
               for op in ops)


def dataflow_body(functions: Any, graph: Any, ops: List[Operation],
                  arg_of: Dict[Tensor, str]
                  ) -> Tuple[List[NodeDef], Callable[[Tensor], str], bool]:
    """The NodeDefs of the body `ops` of `graph` (arguments `arg_of`, tensors to their
    argument names) in TF1's dataflow form, the function-syntax name of a body tensor,
    and whether a node is stateful (TF marks such a function `is_stateful`)."""
    from tf1compat.graphdef.graph_import import load_op_modules
    load_op_modules()          # Switch/Merge's declarations (ops/dataflow_ops.py)
    inputs = {t.op for t in arg_of}
    writer = ControlFlowExport(graph, ops, True, None, False, functions)
    writer.switch_passthrough = True
    body = [op for op in ops if op not in inputs]
    for op in body:
        writer.write(op)
    args = {t.op.name: name for t, name in arg_of.items()}
    nodes = {node.name: node for node in writer.nodes}

    def ref(text: str) -> str:
        if text.startswith("^"):
            return text
        head, _, index = text.partition(":")
        if head in args:
            return args[head]
        node = nodes.get(head)
        if node is None:
            raise UnserializableGraphError(
                f"Cannot serialize the function {graph.name!r}: it uses {text}, which it "
                "neither computes nor receives")
        return f"{head}:{_output_arg(node, int(index or 0))}"
    for node in writer.nodes:
        renamed = [ref(i) for i in node.input]
        del node.input[:]
        node.input.extend(renamed)
    # The nodes written, not tf1compat's ops: its `If` construct is stateful, Switch not.
    stateful = any(get_op_def(node.op).stateful for node in writer.nodes)
    return writer.nodes, lambda t: ref(writer.resolve(t, None, "")), stateful


def _output_arg(node: NodeDef, index: int) -> str:
    """`output_arg:j` naming output `index` of `node` (list arguments sized by its attrs)."""
    def count(arg: Any) -> int:
        if arg.number_attr is not None:
            return node.attr[arg.number_attr].i
        if arg.type_list_attr is not None:
            return len(node.attr[arg.type_list_attr].list.type)
        return 1
    return output_arg_of(get_op_def(node.op), index, count, f"node {node.name} ({node.op})")
