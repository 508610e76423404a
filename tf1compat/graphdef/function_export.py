"""Functions ops hold, written as FunctionDefs of the GraphDef's library.

tf.data transformations carry functions (`MapDataset`'s `f`, `FilterDataset`'s
`predicate`, ...): tf1compat traces them into function graphs (data/func_graph.py), TF
writes them as FunctionDefs and names them in a `func` attr. A one-shot iterator's
`dataset_factory` is a function that builds its dataset; tf1compat keeps the dataset's
variant tensor instead, and the factory written here rebuilds it from the ops that
compute it. Functions of an imported graph's library are written back as they came.

A FunctionDef's body refers to values as `arg` (an argument) or `node:output_arg:index`
(the index-th tensor of the node's output argument, TF's function syntax); the `ret` map
binds the output arguments.

Control flow inside a function is functional, as TF writes it there: a tf.cond construct
becomes an `If` node whose `then_branch`/`else_branch` are functions of the branch
regions (every branch takes all the construct's inputs), a tf.while_loop a `While` node
whose `cond`/`body` functions take the loop variables followed by the captured tensors
(the body passes the captures on unchanged), `tf.switch_case` a `Case` node. The top-level
`Case` of tf.switch_case is written that way too (graph_export.py).
"""

from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.serialization.messages import (AttrValue, FunctionDef, FunctionDefLibrary,
                                              NameAttrList, NodeDef)
from tf1compat.serialization.tensor_proto import attr_to_proto, shape_to_proto
from tf1compat.graphdef.graph_io import UnserializableGraphError, op_to_node_def

__all__ = ["FunctionExport", "output_arg", "upstream_ops", "unique_name"]

_CONSTRUCTS = ("If", "Case", "While")


def unique_name(base: str, used: set) -> str:
    """`base`, or `base_1`, `base_2`, ... : the first not in `used` (which takes it)."""
    name, i = base, 0
    while name in used:
        i += 1
        name = f"{base}_{i}"
    used.add(name)
    return name


def _arg_name(text: str, used: set) -> str:
    """A valid, unique FunctionDef argument name (TF's `[a-z][a-z0-9_]*`)."""
    base = re.sub(r"[^a-z0-9_]", "_", text.lower()) or "arg"
    if not base[0].isalpha():
        base = "arg_" + base
    return unique_name(base, used)


def output_arg(op: Operation, index: int) -> str:
    """`output_arg:k` naming output `index` of `op` in TF's function syntax."""
    attrs = op.attrs

    def count(arg: Any) -> int:
        if arg.number_attr is not None:
            return int(attrs[arg.number_attr])
        if arg.type_list_attr is not None:
            return len(attrs[arg.type_list_attr])
        return 1
    return output_arg_of(op._op_def, index, count, f"op {op.name}")


def output_arg_of(op_def: Any, index: int, count: Callable[[Any], int], owner: str) -> str:
    """`output_arg:k` naming output `index` of an op of `op_def`, `count(arg)` giving how
    many tensors each output argument holds (list arguments are sized by attrs)."""
    offset = 0
    for arg in op_def.outputs:
        size = count(arg)
        if index < offset + size:
            return f"{arg.name}:{index - offset}"
        offset += size
    raise UnserializableGraphError(f"{owner} has no output {index}")


class FunctionExport:
    """Collects the FunctionDefs an export needs; `attr(value)` names one in an attr."""

    def __init__(self, add_shapes: bool):
        self.add_shapes = add_shapes
        self.library = FunctionDefLibrary()
        self._names: Dict[int, str] = {}
        self._keep: List[Any] = []            # keeps the objects of `_names` ids alive
        self._used: set = set()

    def is_function(self, value: Any) -> bool:
        from tf1compat.data.functions import StructuredFunction
        from tf1compat.graphdef.function_library import LibraryFunction
        return isinstance(value, (StructuredFunction, LibraryFunction))

    def attr(self, value: Any) -> Optional[AttrValue]:
        """The `func` AttrValue for a function-valued attr (None for other values)."""
        if isinstance(value, list) and value and all(self.is_function(v) for v in value):
            out = AttrValue()
            for v in value:
                out.list.func.append(NameAttrList(name=self.add(v)))
            return out
        if self.is_function(value):
            return AttrValue(func=NameAttrList(name=self.add(value)))
        return None

    def factory(self, variant: Tensor) -> AttrValue:
        """A dataset factory: a function without arguments computing `variant`."""
        key = id(variant)
        if key not in self._names:
            name = self._unique(f"_make_dataset_{variant.op.name.replace('/', '_')}")
            self._names[key] = name
            self._keep.append(variant)
            self._write(name, [], [variant], None, {})
        return AttrValue(func=NameAttrList(name=self._names[key]))

    def add(self, function: Any) -> str:
        """Writes `function` (once) and returns its name in the library."""
        key = id(function)
        if key in self._names:
            return self._names[key]
        from tf1compat.graphdef.function_library import LibraryFunction
        self._keep.append(function)
        if isinstance(function, LibraryFunction):
            name = function.name
            self._names[key] = name
            if function.unserializable:
                raise UnserializableGraphError(function.unserializable)
            self.library.function.extend(function.helper_fdefs)
            self.library.function.append(function.fdef)
            for other in function.library.values():
                if other is not function and other.name in _referenced(function.fdef):
                    self.add(other)
            if function.grad_func is not None:
                self.library.gradient.add(function_name=name,
                                          gradient_func=self.add(function.grad_func))
            return name
        # The function graph is named `<transformation>_<python function>`, as TF names it
        # (`__inference_Dataset_map_parse_fn_12`; here made unique without the counter).
        name = self._unique(f"__inference_{function.graph.name}")
        self._names[key] = name
        graph = function.graph
        inputs = list(function._arg_placeholders) + list(graph.capture_placeholders)
        self._write(name, inputs, list(graph.outputs), graph.get_operations(),
                    {"_tf_data_function": True})
        return name

    def keep_calls(self, ops: List[Operation]) -> None:
        """Marks the functions with a GradientDef that `ops` call `_noinline`: TF inlines
        such a call inside a gradient's forward function (itself `_noinline`) before
        differentiating it, which would lose the call's GradientDef."""
        names = {op.type for op in ops if op._op_def.function is not None}
        with_gradient = {g.function_name for g in self.library.gradient}
        for fdef in self.library.function:
            if fdef.signature.name in names & with_gradient:
                fdef.attr["_noinline"].CopyFrom(attr_to_proto(True))

    def reserve(self, names: List[str]) -> None:
        """Keeps `names` (functions written elsewhere in the same library) unused."""
        self._used.update(names)

    def _unique(self, base: str) -> str:
        name, i = base, 0
        while name in self._used:
            i += 1
            name = f"{base}_{i}"
        self._used.add(name)
        return name

    def region(self, name: str, region: Any, inputs: List[Tensor],
               outputs: List[Tensor]) -> AttrValue:
        """A function of a control-flow region's ops: `inputs` are its arguments (outside
        tensors and the region's loop variables), `outputs` what it returns."""
        key = (id(region), tuple(id(t) for t in outputs))
        if key not in self._names:
            self._names[key] = fname = self._unique(name.replace("/", "_"))
            self._keep.append((region, outputs))
            self._write(fname, inputs, outputs, region.ops, {}, context=region)
        return AttrValue(func=NameAttrList(name=self._names[key]))

    def function(self, name: str, inputs: List[Tensor], outputs: List[Tensor],
                 ops: List[Operation], lower: Optional[Callable[..., Any]] = None,
                 aliases: Optional[Dict[Tensor, Tensor]] = None,
                 context: Any = None, dtypes: Optional[List[Any]] = None) -> AttrValue:
        """A function of `ops` (graph ops outside control-flow regions, or those of the
        loop body `context`, or of any of a tuple of regions) taking `inputs` and
        returning `outputs` (a gradient op's
        forward function, gradient_export.py; a loop body's, loop_gradient_export.py);
        `aliases` maps further tensors to the input they stand for; `dtypes`: the
        outputs' types where one stands for a value of another (a tf.cond's TensorArray
        flow for the element its branches write: LoopPlan.written).

        It is marked `_noinline`: TF's graph optimizer would otherwise inline the gradient
        into the graph, where the reads of ref variables inside it are no longer ordered
        before the optimizer's in-place updates (a data race: results vary per run)."""
        fname = self._unique(name)
        self._write(fname, inputs, outputs, ops, {"_noinline": True}, context=context,
                    lower=lower, aliases=aliases, dtypes=dtypes)
        return AttrValue(func=NameAttrList(name=fname))

    def graph_function(self, name: str, inputs: List[Tensor], outputs: List[Tensor],
                       ops: List[Operation], out_names: List[str],
                       attrs: Dict[str, Any]) -> FunctionDef:
        """The FunctionDef `name` of a traced function graph (`function.Defun`): `inputs`
        its arguments, `outputs` its results named `out_names`. It is the library's last
        function; the functions its body needs (tf.cond's branches, ...) come before."""
        self._used.add(name)
        from tf1compat.graphdef.defun_dataflow import has_dataflow_cond
        self._write(name, inputs, outputs, ops, attrs, result_names=out_names, tf_names=True,
                    dataflow=has_dataflow_cond(ops))
        return self.library.function[-1]

    def construct_node(self, op: Operation, input_names: List[str]) -> NodeDef:
        """The functional node (If, While, Case) of a tf.cond/tf.while_loop/switch_case
        construct, its regions written as functions."""
        node = NodeDef(name=op.name, op=op.type, input=input_names)
        attrs = op.attrs
        shapes = AttrValue()
        for t in op.outputs:
            shapes.list.shape.append(shape_to_proto(t.shape))
        node.attr["output_shapes"].CopyFrom(shapes)
        if op.type == "While":
            loop = attrs["loop"]
            n = len(loop.body_args)
            captures = list(op.inputs[n:])
            node.attr["T"].CopyFrom(attr_to_proto([t.dtype.base_dtype for t in op.inputs]))
            all_shapes = AttrValue()
            for t in list(loop.body_args) + captures:
                all_shapes.list.shape.append(shape_to_proto(t.shape))
            node.attr["output_shapes"].CopyFrom(all_shapes)
            node.attr["parallel_iterations"].CopyFrom(
                attr_to_proto(int(attrs["parallel_iterations"])))
            node.attr["cond"].CopyFrom(self.region(
                op.name + "_cond", loop.cond_region, list(loop.cond_args) + captures,
                [loop.pred]))
            node.attr["body"].CopyFrom(self.region(
                op.name + "_body", loop.body_region, list(loop.body_args) + captures,
                list(loop.body_outputs) + captures))
            return node
        inputs = list(op.inputs[1:])
        node.attr["Tin"].CopyFrom(attr_to_proto([t.dtype.base_dtype for t in inputs]))
        node.attr["Tout"].CopyFrom(attr_to_proto([t.dtype.base_dtype for t in op.outputs]))
        if op.type == "If":
            node.attr["Tcond"].CopyFrom(attr_to_proto(op.inputs[0].dtype.base_dtype))
            for key in ("then_branch", "else_branch"):
                branch = attrs[key]
                node.attr[key].CopyFrom(self.region(f"{op.name}_{key}", branch.region,
                                                    inputs, branch.outputs))
            return node
        branches = AttrValue()
        for k, branch in enumerate(attrs["branches"]):
            branches.list.func.append(self.region(f"{op.name}_branch{k}", branch.region,
                                                  inputs, branch.outputs).func)
        node.attr["branches"].CopyFrom(branches)
        return node

    def _write(self, name: str, inputs: List[Tensor], outputs: List[Tensor],
               ops: Optional[List[Operation]], attrs: Dict[str, Any],
               context: Any = None, lower: Optional[Callable[..., Any]] = None,
               aliases: Optional[Dict[Tensor, Tensor]] = None,
               result_names: Optional[List[str]] = None, tf_names: bool = False,
               dataflow: bool = False, dtypes: Optional[List[Any]] = None) -> None:
        """Adds the FunctionDef `name`. `lower(op, name_of)` may return (NodeDefs, the
        name of each output[, {further tensor: its name}: a tf.cond's masked TensorArray
        elements, loop_body_lowering.py]) to write an op as other ops (gradient_lowering.py,
        cond_lowering.py; `name_of(tensor)` names the function's values so far);
        `result_names` names its outputs (default `output_<k>`). `tf_names`: arguments
        and nodes named as TF's `TF_GraphToFunction` names them (`_rename_as_tf`).
        `dataflow`: tf.conds as TF 1.x's Switch/Merge nodes (a Defun body, defun_dataflow.py)
        instead of `If` nodes."""
        fdef = FunctionDef()
        fdef.signature.name = name
        if ops is None:    # a factory: the ops computing the outputs, from the graph
            ops = upstream_ops(outputs)
        input_ops = {t.op for t in inputs}
        # Ops of regions inside the body belong to their constructs' functions.
        # (`context` a tuple: the ops of any of those regions, tf.cond branches one in
        # another around a nested loop, loop_gradient_nested.py)
        contexts = context if isinstance(context, tuple) else (context,)
        body = [op for op in ops if op not in input_ops and
                any(op._control_flow_context is c for c in contexts)]
        names = {op.name for op in body}
        # An argument named as a node of the body (the input `stack/1` of a tf.stack
        # beside the op `stack_1` of another) would make the body's names ambiguous.
        used: set = set() if tf_names else set(names)
        arg_of: Dict[Tensor, str] = {}
        for t in inputs:
            arg = _arg_name(t.op.name, used)
            arg_of[t] = arg
            fdef.signature.input_arg.add(name=arg, type=t.dtype.base_dtype.as_datatype_enum)
            if self.add_shapes:
                shapes = AttrValue()
                shapes.list.shape.append(shape_to_proto(t.shape))
                fdef.arg_attr[len(arg_of) - 1].attr["_output_shapes"].CopyFrom(shapes)
        for t, same in (aliases or {}).items():
            arg_of[t] = arg_of[same]
        if dataflow:
            from tf1compat.graphdef.defun_dataflow import dataflow_body
            nodes, ret_of, stateful = dataflow_body(self, ops[0].graph, ops, arg_of)
            fdef.node_def.extend(nodes)
        else:
            ret_of, stateful = self._write_body(name, fdef, body, arg_of, lower)
        out_used: set = set()
        for k, t in enumerate(outputs):
            arg = result_names[k] if result_names else _arg_name(f"output_{k}", out_used)
            dtype = dtypes[k] if dtypes else t.dtype.base_dtype
            fdef.signature.output_arg.add(name=arg, type=dtype.as_datatype_enum)
            fdef.ret[arg] = ret_of(t)
        for key, value in attrs.items():
            fdef.attr[key].CopyFrom(attr_to_proto(value))
        if tf_names:
            _rename_as_tf(fdef)
            # TF marks a function stateful when one of its nodes is (and hashes that).
            if stateful:
                fdef.signature.is_stateful = True
        self.library.function.append(fdef)

    def _write_body(self, name: str, fdef: FunctionDef, body: List[Operation],
                    arg_of: Dict[Tensor, str], lower: Optional[Callable[..., Any]]
                    ) -> Tuple[Callable[[Tensor], str], bool]:
        """The nodes of `body` (constructs as functional nodes) into `fdef`; returns the
        name of a body tensor and whether a node is stateful."""
        names = {op.name for op in body}
        lowered: Dict[Tensor, str] = {}

        def name_of(t: Tensor) -> str:
            """A value of the function so far: an argument or a written op's output."""
            if t in arg_of:
                return arg_of[t]
            if t in lowered:
                return lowered[t]
            if t.op.name in names:
                return f"{t.op.name}:{output_arg(t.op, t.value_index)}"
            raise UnserializableGraphError(
                f"Cannot serialize function {name!r}: it uses {t.name}, which it neither "
                "computes nor receives")
        for op in body:
            replaced = lower(op, name_of) if lower is not None else None
            if replaced is not None:
                nodes, out_names = replaced[:2]
                fdef.node_def.extend(nodes)
                lowered.update((t, n) for t, n in zip(op.outputs, out_names) if n)
                # (a third item: the names of further values the nodes compute)
                lowered.update(replaced[2] if len(replaced) > 2 else {})
                continue
            input_names = [name_of(t) for t in op.inputs]
            if op.type in _CONSTRUCTS:
                node = self.construct_node(op, input_names)
            else:
                node = op_to_node_def(op, attr_overrides=self.attr_overrides(op))
                del node.input[:]
                node.input.extend(input_names)
            node.input.extend("^" + c.name for c in op.control_inputs if c.name in names)
            node.device = ""
            fdef.node_def.append(node)

        def ret_of(t: Tensor) -> str:
            return arg_of[t] if t in arg_of else lowered[t] if t in lowered else \
                f"{t.op.name}:{output_arg(t.op, t.value_index)}"
        return ret_of, any(op._op_def.stateful for op in body)

    def attr_overrides(self, op: Operation) -> Dict[str, AttrValue]:
        """The function-valued attrs of `op` as `func` AttrValues (functions written).
        A TF 1.x call op (its type is a function's name) has its function written too."""
        if op._op_def.function is not None:
            self.add(op._op_def.function)
            from tf1compat.graphdef.defun_gradients import add_gradient
            add_gradient(self, op)
        out: Dict[str, AttrValue] = {}
        for key, value in op.attrs.items():
            if key == "dataset_factory" and isinstance(value, Tensor):
                out[key] = self.factory(value)
                continue
            proto = self.attr(value)
            if proto is not None:
                out[key] = proto
        return out


def _rename_as_tf(fdef: FunctionDef) -> None:
    """TF's names (graph_to_functiondef.cc `NodeNameMapping`): the results keep theirs,
    then each argument and each node in order takes its name, or `<name>_<k>` with the
    first k free where a name is taken (an argument `x` beside a node `x`: `x`, `x_0`).
    What the function hashes, so its made-up name is TF's."""
    counts: Dict[str, int] = {a.name: 0 for a in fdef.signature.output_arg}

    def unique(name: str) -> str:
        if name not in counts:
            counts[name] = 0
            return name
        while True:
            candidate = f"{name}_{counts[name]}"
            counts[name] += 1
            if candidate not in counts:
                counts[candidate] = 0
                return candidate
    args: Dict[str, str] = {}
    for arg in fdef.signature.input_arg:
        args[arg.name] = arg.name = unique(arg.name)
    nodes: Dict[str, str] = {}
    for node in fdef.node_def:
        nodes[node.name] = node.name = unique(node.name)

    def ref(text: str) -> str:
        control = text.startswith("^")
        head, sep, tail = text.lstrip("^").partition(":")
        head = nodes.get(head, head) if sep or control else args.get(head, head)
        return ("^" if control else "") + head + sep + tail
    for node in fdef.node_def:
        renamed = [ref(i) for i in node.input]
        del node.input[:]
        node.input.extend(renamed)
    for key in list(fdef.ret):
        fdef.ret[key] = ref(fdef.ret[key])


def upstream_ops(outputs: List[Tensor]) -> List[Operation]:
    """The ops `outputs` depend on (inputs and control inputs), in creation order."""
    seen: Dict[Operation, None] = {}
    stack = [t.op for t in outputs]
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen[op] = None
        stack.extend(t.op for t in op.inputs)
        stack.extend(op.control_inputs)
    return sorted(seen, key=lambda op: op._id)


def _referenced(fdef: Any) -> set:
    """Names of functions a FunctionDef's nodes call (TF 1.x: the node's op type) or name
    in their attrs."""
    names = set()
    for node in fdef.node_def:
        names.add(node.op)
        for value in node.attr.values():
            kind = value.WhichOneof("value")
            if kind == "func":
                names.add(value.func.name)
            elif kind == "list":
                names.update(f.name for f in value.list.func)
    return names
