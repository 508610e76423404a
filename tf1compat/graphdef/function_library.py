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

TF 1.x also calls a function through a node whose op type is the function's name: each
function declares that call op (`op_def`, ops/function_call_ops.py), and the library's
GradientDefs name the function that differentiates it (`grad_func`). `function.Defun`
builds the same objects from a traced graph (`LibraryFunction.from_graph`, its
FunctionDef written by function_export.py), so a function is one thing whether defined
here or imported.
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

__all__ = ["LibraryFunction", "library_of", "gradients_of", "missing_op_types",
           "import_library", "resolve_function_attrs", "function_library"]

_LIBRARY_KEY = "function_library"


def function_library(graph: Graph) -> Dict[str, "LibraryFunction"]:
    """The functions imported into `graph` (shared with its function graphs), by name."""
    return graph._extras.setdefault(_LIBRARY_KEY, {})


def library_of(graph_def: Any) -> List[Any]:
    """The FunctionDefs of a GraphDef (none for `as_graph_def()` views)."""
    library = getattr(graph_def, "library", None)
    return list(library.function) if library is not None else []


def gradients_of(graph_def: Any) -> Dict[str, str]:
    """The library's GradientDefs: function name -> its gradient function's name."""
    library = getattr(graph_def, "library", None)
    return {} if library is None else {g.function_name: g.gradient_func
                                       for g in library.gradient}


def missing_op_types(functions: Sequence[Any]) -> List[str]:
    """Op types used in function bodies that tf1compat does not implement (calls of the
    library's functions by name are implemented)."""
    from tf1compat.graphdef.graph_import import load_op_modules
    load_op_modules()
    known = set(_op_def.registered_op_types()) | {f.signature.name for f in functions}
    return sorted({n.op for f in functions for n in f.node_def} - known)


class LibraryFunction:
    """One function of the library: its graph, argument placeholders and outputs.

    `grad_func`: the LibraryFunction differentiating it (a GradientDef; Defun's
    `grad_func`), called with the inputs and the outputs' gradients; `python_grad_func`:
    Defun's Python gradient function (`fn(op, *grads)`, as `tf.RegisterGradient`)."""

    def __init__(self, fdef: Any, library: Dict[str, "LibraryFunction"]):
        self.fdef = fdef
        signature = fdef.signature
        self.name = signature.name
        self.library = library
        self.graph: Optional[Graph] = None
        self.inputs: List[Tensor] = []
        self.outputs: List[Tensor] = []
        self.control_outputs: List[Any] = []
        self.input_names = [a.name for a in signature.input_arg]
        self.input_dtypes = [D.as_dtype(a.type) for a in signature.input_arg]
        self.output_names = [a.name for a in signature.output_arg]
        self.output_dtypes = [D.as_dtype(a.type) for a in signature.output_arg]
        # FunctionDefs the body's nodes name (a traced body's tf.cond branches, ...).
        self.helper_fdefs: List[Any] = []
        # Why a traced body has no FunctionDef (its signature only): export raises it.
        self.unserializable = ""
        self.grad_func: Optional["LibraryFunction"] = None
        self.python_grad_func: Optional[Callable[..., Any]] = None
        self._op_def: Any = None

    @classmethod
    def from_graph(cls, fdefs: List[Any], graph: Graph, inputs: List[Tensor],
                   outputs: List[Tensor], library: Dict[str, "LibraryFunction"]
                   ) -> "LibraryFunction":
        """A function traced into `graph` (`function.Defun`); `fdefs` its FunctionDef,
        last, after those its body names."""
        function = cls(fdefs[-1], library)
        function.helper_fdefs = list(fdefs[:-1])
        function.graph, function.inputs, function.outputs = graph, inputs, outputs
        return function

    def __repr__(self) -> str:
        return f"<LibraryFunction {self.name}>"

    @property
    def stateful(self) -> bool:
        """Whether the body has a stateful op (its call op is then stateful, as TF's)."""
        if self.graph is not None:
            return any(op._op_def.stateful for op in self.graph.get_operations())
        for node in self.fdef.node_def:
            called = self.library.get(node.op)
            if called is not None:
                if called is not self and called.stateful:
                    return True
            elif _op_def.get_op_def(node.op).stateful:
                return True
        return False

    def call_op_def(self) -> Any:
        """The declaration of the op that calls this function (its type is the name)."""
        if self._op_def is None:
            from tf1compat.ops.function_call_ops import declare_call_op
            self._op_def = declare_call_op(self)
        return self._op_def

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


def import_library(functions: Sequence[Any], graph: Graph,
                   gradients: Optional[Dict[str, str]] = None) -> None:
    """Adds FunctionDefs to `graph`'s library and builds their bodies; `gradients` maps a
    function's name to its gradient function's (the library's GradientDefs)."""
    library = function_library(graph)
    new = []
    for fdef in functions:
        name = fdef.signature.name
        if name not in library:
            library[name] = LibraryFunction(fdef, library)
            new.append(library[name])
    for function in new:
        grad_name = (gradients or {}).get(function.name)
        if grad_name is not None:
            function.grad_func = library[grad_name]
    # Declared before any body is built: bodies may call each other by name.
    for function in new:
        function.call_op_def()
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
