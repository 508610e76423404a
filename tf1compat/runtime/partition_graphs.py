"""`RunMetadata.partition_graphs` (`RunOptions.output_partition_graphs=True`): the GraphDef
each device runs, as TF's direct session writes it - the run's pruned ops with their full
device names, each fed tensor an `_Arg` node `_arg_<op>_<output>_<i>` and each fetched
tensor a `_Retval` node `_retval_<op>_<output>_<i>` (i: the position among the feeds, the
fetched tensors). A plan runs each op on its own device without TF's _Send/_Recv pairs, so
an edge between devices stays a plain input."""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Sequence

from tf1compat._version import GRAPH_DEF_VERSION
from tf1compat.framework.operation import NodeDef as NodeDefView, Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.runtime.plan import Plan

__all__ = ["write_partition_graphs"]


def _node_name(t: Tensor) -> str:
    return f"{t._op._name}_{t._value_index}"


def _copy_node(node: Any, view: NodeDefView, inputs: List[str], device: str) -> None:
    node.name, node.op, node.device = view.name, view.op, device
    node.input.extend(inputs)
    for key in sorted(view.attr_values):
        try:
            node.attr[key].CopyFrom(view.attr[key])
        except TypeError:           # an attr with no proto form (a traced region)
            pass


def write_partition_graphs(plan: Plan, feed_tensors: Sequence[Tensor],
                           fetches: Sequence[Any], device_name: Callable[[Operation], str],
                           run_metadata: Any) -> None:
    """Adds one GraphDef per device of `plan` to `run_metadata.partition_graphs`;
    `device_name` gives TF's full name of the device an op runs on."""
    graphs: Dict[str, Any] = {}

    def add_node(device: str) -> Any:
        if device not in graphs:
            graphs[device] = run_metadata.partition_graphs.add()
            graphs[device].versions.producer = GRAPH_DEF_VERSION
        return graphs[device].node.add()

    def add_call_node(kind: str, t: Tensor, index: int) -> Any:
        device = default or device_name(t._op)
        node = add_node(device)
        node.name, node.op, node.device = f"{kind.lower()}_{_node_name(t)}_{index}", kind, device
        node.attr["T"].type = t.dtype.base_dtype.as_datatype_enum
        node.attr["index"].i = index
        return node

    steps = plan.steps
    default = device_name(steps[0].op) if steps else None
    arg_names: Dict[str, str] = {}
    for index, t in enumerate(feed_tensors):
        arg_names[t._as_node_def_input()] = add_call_node("_Arg", t, index).name
    for step in steps:
        view = NodeDefView(step.op)
        _copy_node(add_node(device_name(step.op)), view,
                   [arg_names.get(i, i) for i in view.input], device_name(step.op))
    for index, t in enumerate(x for x in fetches if isinstance(x, Tensor)):
        source = t._as_node_def_input()
        add_call_node("_Retval", t, index).input.append(arg_names.get(source, source))
