"""A GraphDef's function library (TF's FunctionDefs) as graphs tf1compat runs.

TF 2.x graphs call functions: functional control flow (`If`, `While`, `Case` and their
Stateless forms), `PartitionedCall`/`StatefulPartitionedCall` (a `tf.function` called in
a graph), tf.data functions (`MapDataset`'s `f`, ...). A FunctionDef is a signature,
body NodeDefs whose inputs name outputs as `node:output_arg:index`, and a `ret` map.

`import_library` turns each FunctionDef into a `LibraryFunction`: a graph of its own
(Placeholders for the arguments, the body imported by graph_import.py) that compiles,
once per session, with the same plan builder and code generator as `Session.run`
(`kctx.compile_function`). Function-valued attrs of imported ops are resolved to these
objects; kernels call `function.bind(kctx)(values) -> outputs`. Functions calling
functions share the outer graph's library.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.graph import Graph
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import unknown_shape
from tf1compat.serialization.messages import AttrValue, GraphDef, NodeDef
from tf1compat.serialization.tensor_proto import (FunctionRef, proto_to_attr, proto_to_shape,
                                                  shape_to_proto)

__all__ = ["LibraryFunction", "library_of", "missing_op_types", "import_library",
           "resolve_function_attrs", "function_library"]

_LIBRARY_KEY = "function_library"


def function_library(graph: Graph) -> Dict[str, "LibraryFunction"]:
    """The functions imported into `graph` (shared with its function graphs), by name."""
    return graph._extras.setdefault(_LIBRARY_KEY, {})


def library_of(graph_def: Any) -> List[Any]:
    """The FunctionDefs of a GraphDef (none for `as_graph_def()` views)."""
    library = getattr(graph_def, "library", None)
    return list(library.function) if library is not None else []


def missing_op_types(functions: Sequence[Any]) -> List[str]:
    """Op types used in function bodies that tf1compat does not implement."""
    from tf1compat.graphdef.graph_import import load_op_modules
    load_op_modules()
    registered = set(_op_def.registered_op_types())
    return sorted({n.op for f in functions for n in f.node_def} - registered)


class LibraryFunction:
    """One function of the library: its graph, argument placeholders and outputs."""

    def __init__(self, fdef: Any, library: Dict[str, "LibraryFunction"]):
        self.fdef = fdef
        self.name = fdef.signature.name
        self.library = library
        self.graph: Optional[Graph] = None
        self.inputs: List[Tensor] = []
        self.outputs: List[Tensor] = []
        self.control_outputs: List[Any] = []
        self.output_dtypes = [D.as_dtype(a.type) for a in fdef.signature.output_arg]

    def __repr__(self) -> str:
        return f"<LibraryFunction {self.name}>"

    # -- building ------------------------------------------------------------------------------
    def build(self) -> None:
        """Imports the body into a graph of its own (idempotent)."""
        if self.graph is not None:
            return
        from tf1compat.graphdef import graph_import
        graph = Graph()
        graph._building_function = True
        graph._extras[_LIBRARY_KEY] = self.library
        self.graph = graph
        signature = self.fdef.signature
        arg_names = [a.name for a in signature.input_arg]
        nodes = [self._arg_node(i, a) for i, a in enumerate(signature.input_arg)]
        body = {n.name: n for n in self.fdef.node_def}
        for node in self.fdef.node_def:
            nodes.append(_rewritten(node, body, self.name))
        graph_def = GraphDef(node=nodes)
        graph_import.import_nodes(graph_def, name="", graph=graph)
        self.inputs = [graph.get_tensor_by_name(f"{name}:0") for name in arg_names]
        self.outputs = [graph.get_tensor_by_name(
            _flat_name(self.fdef.ret[a.name], body, self.name))
            for a in signature.output_arg]
        self.control_outputs = [graph.get_operation_by_name(self.fdef.control_ret[name])
                                for name in signature.control_output
                                if name in self.fdef.control_ret]

    def _arg_node(self, index: int, arg: Any) -> NodeDef:
        if arg.type_attr or arg.number_attr or arg.type_list_attr:
            raise NotImplementedError(f"function {self.name!r}: argument {arg.name!r} has a "
                                      "polymorphic type; tf1compat imports functions with "
                                      "concrete argument types only")
        node = NodeDef(name=arg.name, op="Placeholder")
        node.attr["dtype"].CopyFrom(AttrValue(type=arg.type))
        shape = unknown_shape()
        if index in self.fdef.arg_attr and "_output_shapes" in self.fdef.arg_attr[index].attr:
            shapes = self.fdef.arg_attr[index].attr["_output_shapes"].list.shape
            if shapes:
                shape = proto_to_shape(shapes[0])
        node.attr["shape"].CopyFrom(AttrValue(shape=shape_to_proto(shape)))
        return node

    # -- running -------------------------------------------------------------------------------
    def bind(self, kctx: Any, on_cpu: bool = False) -> Callable[[tuple], tuple]:
        """`call(values) -> outputs`, compiled for the session of `kctx`. `on_cpu`: the
        body's ops that name no device run on the CPU (tf.data's functions: TF runs them
        there, and the elements they get are host tensors)."""
        self.build()
        if on_cpu:
            for op in self.graph.get_operations():
                if not op._device:
                    op._device = "/device:CPU:0"
        n = len(self.outputs)
        compiled = kctx.compile_function(self.inputs, self.outputs + self.control_outputs)
        fn, state = compiled.fn, compiled.state
        if not self.control_outputs:
            return lambda values: fn(tuple(values), state)
        return lambda values: fn(tuple(values), state)[:n]


def _output_index(op_type: str, attrs: Dict[str, Any], arg_name: str, index: int,
                  where: str) -> int:
    """The flat output index of `arg_name:index` of an op (FunctionDef input syntax)."""
    op_def = _op_def.get_op_def(op_type)
    offset = 0
    for arg in op_def.outputs:
        if arg.number_attr is not None:
            count = int(attrs.get(arg.number_attr, 1))
        elif arg.type_list_attr is not None:
            count = len(attrs.get(arg.type_list_attr, []))
        else:
            count = 1
        if arg.name == arg_name:
            return offset + index
        offset += count
    if len(op_def.outputs) == 1:
        return index
    raise ValueError(f"{where}: op {op_type} has no output argument {arg_name!r}")


def _flat_name(text: str, body: Dict[str, Any], fname: str) -> str:
    """A FunctionDef input (`arg`, `node:out:i`, `^node`) as a graph input (`node:k`)."""
    if text.startswith("^"):
        return text
    parts = text.split(":")
    if len(parts) == 1:          # an argument (its Placeholder's output)
        return f"{parts[0]}:0"
    if len(parts) == 2:          # already `node:k`
        return text
    node_name, arg_name, index = parts[0], parts[1], int(parts[2])
    node = body.get(node_name)
    if node is None:
        raise ValueError(f"function {fname!r}: input {text!r} names no node of the body")
    attrs = {k: proto_to_attr(v, k) for k, v in node.attr.items() if k != "_output_shapes"}
    return f"{node_name}:{_output_index(node.op, attrs, arg_name, index, fname)}"


def _rewritten(node: Any, body: Dict[str, Any], fname: str) -> NodeDef:
    out = NodeDef(name=node.name, op=node.op, device=node.device)
    for text in node.input:
        out.input.append(_flat_name(text, body, fname))
    for key, value in node.attr.items():
        if value.WhichOneof("value") == "placeholder":
            raise NotImplementedError(f"function {fname!r}: node {node.name!r} takes attr "
                                      f"{key!r} from the caller; tf1compat imports "
                                      "functions with concrete attrs only")
        out.attr[key].CopyFrom(value)
    return out


def import_library(functions: Sequence[Any], graph: Graph) -> None:
    """Adds FunctionDefs to `graph`'s library and builds their bodies."""
    library = function_library(graph)
    new = []
    for fdef in functions:
        name = fdef.signature.name
        if name not in library:
            library[name] = LibraryFunction(fdef, library)
            new.append(library[name])
    for function in new:
        function.build()


def resolve_function_attrs(attrs: Dict[str, Any], graph: Graph) -> Dict[str, Any]:
    """Attrs with each FunctionRef replaced by the library's LibraryFunction."""
    library = graph._extras.get(_LIBRARY_KEY)

    def resolve(value: Any) -> Any:
        if isinstance(value, FunctionRef):
            if library is None or value.name not in library:
                raise ValueError(f"function {value.name!r} is not in the graph's function "
                                 "library")
            return library[value.name]
        if isinstance(value, list) and value and isinstance(value[0], FunctionRef):
            return [resolve(v) for v in value]
        return value
    return {k: resolve(v) for k, v in attrs.items()}
