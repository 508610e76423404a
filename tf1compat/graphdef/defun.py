"""TF 1.x's `function.Defun` graph functions (`tensorflow.python.framework.function`).

`@function.Defun(tf.float32, ...)` traces the Python function once into a function graph
of its own (framework/func_graph.py: arguments are placeholders, outer tensors it uses
are captured and become extra inputs of every call, or are copied in with
`capture_by_value=True`). The result is the same object an imported FunctionDef becomes
(graphdef/function_library.py `LibraryFunction`), its FunctionDef written by
graphdef/function_export.py. Calling it adds ONE op whose type is the function's name
(ops/function_call_ops.py `declare_call_op`), the function joins the graph's library, and
`as_graph_def()` / `.meta` files carry the FunctionDef (and a GradientDef for `grad_func`).

Gradients follow TF's lookup (autodiff/registry.py): `python_grad_func(op, *grads)` as a
registered gradient, else `grad_func` (a Defun called on the inputs and the outputs'
gradients, named `<op>_grad/SymbolicGradient`), else TF's symbolic gradient of the body
(torch autograd through the called function).

The name is `<python name>_<hash>` unless `func_name` is given, TF's very name: the
FunctionDef is written as TF's `TF_GraphToFunction` writes it (its result, argument and
node names, `is_stateful`) and hashed as TF hashes it (graphdef/function_hash.py).

Variables a body creates live in the outer graph, as TF hoists them: `tf.get_variable` goes
through the function graph's custom getter to the variable scope the function was defined
in (TF's `_FuncGraph.getvar`), `tf.Variable` builds under `init_scope`, which leaves the
body for the outermost graph, and the body's variable collections are the outer graph's.
The body captures the variable's snapshot (a resource variable's value, read outside).
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.func_graph import FuncGraph
from tf1compat.framework.graph import Graph, GraphKeys, get_default_graph
from tf1compat.framework.op_def import registered_op_types
from tf1compat.framework.operation import Operation
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.graphdef.function_export import FunctionExport
from tf1compat.graphdef.function_hash import function_name_hash
from tf1compat.graphdef.function_library import LibraryFunction, function_library
from tf1compat.graphdef.graph_import import group_inputs
from tf1compat.graphdef.graph_io import UnserializableGraphError
from tf1compat.serialization.messages import FunctionDef
from tf1compat.util import tf_inspect
from tf1compat.variables.resource_variable import ResourceVariable
from tf1compat.variables.variable_scope import (_VARSTORE_KEY, _get_default_variable_store,
                                                get_variable_scope, variable_scope)

__all__ = ["Defun", "from_library"]

# TF's `_DTYPE_TO_STR`: the suffix of an overloaded function's name per argument type.
_DTYPE_TO_STR = {
    D.float16: "f16", D.float32: "f32", D.float64: "f64", D.int32: "i32", D.uint8: "i8",
    D.uint16: "u16", D.uint32: "u32", D.uint64: "u64", D.int16: "i16", D.int8: "i8",
    D.string: "s", D.complex64: "c64", D.complex128: "c128", D.int64: "i64", D.bool: "b",
    D.bfloat16: "b16",
}


class Defun:
    """Decorator defining a TF graph function: `@Defun(tf.float32, tf.float32)`.

    Keyword arguments as TF's: `func_name`, `grad_func` (a Defun taking the inputs and the
    outputs' gradients), `python_grad_func` (`fn(op, *grads)`), `out_names`,
    `shape_func` (`fn(op) -> shapes`), `capture_by_value`; others (`noinline`,
    `compiled`, ...) become attrs of every call op. Without input types the function is
    overloaded: one definition per argument dtypes, named `<func_name>_f32i32`.
    """

    def __init__(self, *input_types: Any, **kwargs: Any) -> None:
        self._input_types = input_types
        self._func_name = kwargs.pop("func_name", None)
        self._grad_func = kwargs.pop("grad_func", None)
        self._python_grad_func = kwargs.pop("python_grad_func", None)
        self._out_names = kwargs.pop("out_names", None)
        self._extra_kwargs = kwargs

    def __call__(self, func: Callable[..., Any]) -> Any:
        if not callable(func):
            raise ValueError(f"Function {func} must be a callable.")
        argspec = tf_inspect.getargspec(func)
        if argspec.keywords or argspec.defaults:
            raise ValueError(
                "Functions with argument defaults or keywords arguments are not "
                f"supported. {func} has defaults {argspec.defaults} and keywords "
                f"{argspec.keywords}.")
        min_args = max_args = len(argspec.args)
        if argspec.varargs:
            max_args = 1000000
        argnames = list(argspec.args)
        if tf_inspect.ismethod(func):
            min_args -= 1
            argnames = argnames[1:]
        common = dict(func_name=self._func_name, grad_func=self._grad_func,
                      python_grad_func=self._python_grad_func, out_names=self._out_names,
                      **self._extra_kwargs)
        if self._input_types:
            num = len(self._input_types)
            if num < min_args or num > max_args:
                raise ValueError(
                    "The number of tf.function input types is not compatible with the "
                    f"allowed arguments of {func}. The tf.function have {num} input "
                    f"types, while the python function allows minimum {min_args} and "
                    f"maximum {max_args} arguments.")
            return _DefinedFunction(func, argnames, self._input_types, **common)
        if min_args == 0 and max_args == 0:
            return _DefinedFunction(func, [], [], **common)
        return _OverloadedFunction(func, argnames, **common)


class _DefinedFunction:
    """One graph function: traced on first use (`name`, `definition` or a call)."""

    def __init__(self, func: Optional[Callable[..., Any]], argnames: Sequence[str],
                 input_types: Sequence[Any], func_name: Optional[str] = None,
                 grad_func: Optional["_DefinedFunction"] = None,
                 python_grad_func: Optional[Callable[..., Any]] = None,
                 out_names: Optional[Sequence[str]] = None,
                 shape_func: Optional[Callable[[Operation], Sequence[Any]]] = None,
                 capture_by_value: bool = False,
                 allowlisted_stateful_ops: Any = None,
                 capture_resource_var_by_value: bool = True, **kwargs: Any) -> None:
        self._capture_resource_var_by_value = capture_resource_var_by_value
        self._func = func
        self._input_types = tuple(D.as_dtype(t) for t in input_types)
        self._func_name = func_name
        self._grad_func = grad_func
        self._python_grad_func = python_grad_func
        self._out_names = list(out_names) if out_names else None
        self._shape_func = shape_func
        self._capture_by_value = capture_by_value
        self._allowlisted_stateful_ops = set(allowlisted_stateful_ops or ())
        self._call_attrs = _call_attrs(kwargs)
        self._arg_names = [argnames[i] if i < len(argnames) else f"arg{i}"
                           for i in range(len(self._input_types))]
        self._function: Optional[LibraryFunction] = None
        self._extra_inputs: List[Tensor] = []

    # -- TF's properties ---------------------------------------------------------------------
    @property
    def name(self) -> str:
        """Function name."""
        return self._library_function().name

    @property
    def definition(self) -> FunctionDef:
        """The FunctionDef proto."""
        return self._library_function().fdef

    cached_definition = definition

    @property
    def grad_func_name(self) -> Optional[str]:
        return self._grad_func.name if self._grad_func else None

    @property
    def python_grad_func(self) -> Optional[Callable[..., Any]]:
        return self._python_grad_func

    @property
    def declared_input_types(self) -> tuple:
        return self._input_types

    @property
    def captured_inputs(self) -> List[Tensor]:
        """The outer tensors the body captured (extra inputs of every call)."""
        self._library_function()
        return list(self._extra_inputs)

    @property
    def stateful_ops(self) -> List[tuple]:
        """(name, type) of the body's stateful ops."""
        graph = self._library_function().graph
        return [(op.name, op.type) for op in graph.get_operations() if op._op_def.stateful]

    def set_grad_func(self, grad_func: "_DefinedFunction") -> None:
        """Specifies the gradient function of this function."""
        assert not self._grad_func
        assert isinstance(grad_func, _DefinedFunction)
        self._grad_func = grad_func

    # -- definition --------------------------------------------------------------------------
    def _library_function(self) -> LibraryFunction:
        if self._function is None:
            self._function = self._define(get_default_graph())
        return self._function

    def _define(self, outer: Graph) -> LibraryFunction:
        graph = _DefunGraph(self._func_name or _func_name(self._func), outer,
                            self._capture_by_value, self._allowlisted_stateful_ops,
                            self._capture_resource_var_by_value)
        library = function_library(outer)
        # Defuns called in the body join the outer graph's library (TF: sub-functions).
        graph._extras["function_library"] = library
        with graph.building():
            args = [graph.placeholder(t, None, n)
                    for n, t in zip(self._arg_names, self._input_types)]
            with variable_scope("", custom_getter=graph.getvar):
                outputs = self._func(*args)
            if outputs is None:
                outputs = []
            else:
                if not isinstance(outputs, (list, tuple)):
                    outputs = (outputs,)
                if any(t is None for t in outputs):
                    raise ValueError(f"Function {graph.name} can not return None.")
            outputs = [graph.capture(convert_to_tensor(t)) for t in outputs]
        self._extra_inputs = graph.captured_tensors
        inputs = args + graph.capture_placeholders
        out_names = self._out_names or _output_names(outputs)
        if len(out_names) != len(outputs):
            raise ValueError(f"out_names {out_names} has {len(out_names)} names for "
                             f"{len(outputs)} outputs of {graph.name}")
        base = self._func_name or _func_name(self._func) + (
            f"_{self._grad_func.name}" if self._grad_func else "")
        attrs = {"_disable_call_shape_inference": True}
        attrs.update(self._call_attrs)
        ops = graph.get_operations()
        try:
            export = FunctionExport(True)
            export.graph_function(base, inputs, outputs, ops, out_names, attrs)
            # Defuns the body calls are written with their own objects, not as helpers.
            fdefs = [f for f in export.library.function[:-1]
                     if f.signature.name not in library] + [export.library.function[-1]]
            unserializable = ""
        except UnserializableGraphError as e:
            fdefs = [_signature_only(base, inputs, outputs, out_names)]
            unserializable = str(e)
        fdef = fdefs[-1]
        if self._func is not None and self._func.__doc__:
            fdef.signature.description = self._func.__doc__
        if not self._func_name:
            fdef.signature.name = f"{base}_{function_name_hash(fdef)}"
        function = LibraryFunction.from_graph(fdefs, graph, inputs, outputs, library)
        function.unserializable = unserializable
        function.python_grad_func = self._python_grad_func
        if self._grad_func is not None:
            function.grad_func = self._grad_func._library_function()
        return function

    def add_to_graph(self, g: Graph) -> None:
        """Adds the function (and its gradient function) to `g`'s library."""
        function = self._library_function()
        if function.name in _builtin_op_types():
            raise errors.InvalidArgumentError(
                None, None, f"Cannot add function '{function.name}' because an op with the "
                "same name already exists.")
        function_library(g).setdefault(function.name, function)
        if self._grad_func is not None:
            self._grad_func.add_to_graph(g)

    # -- calls -------------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        graph = get_default_graph()
        self.add_to_graph(graph)
        function = self._library_function()
        inputs = [convert_to_tensor(a) for a in args] + self._extra_inputs
        if isinstance(graph, FuncGraph):
            # Outer values a call in a body uses are captured in the caller's name scope
            # (TF creates the call op without a scope of its own: `Placeholder`).
            inputs = [graph.capture(t) for t in inputs]
        if len(inputs) != len(function.input_names):
            raise ValueError(f"Expected {len(function.input_names):d} arguments, got "
                             f"{len(inputs):d}.")
        name = kwargs.pop("name", None) or function.name
        attrs = {"_disable_call_shape_inference": True}
        attrs.update(self._call_attrs)
        attrs.update(_call_attrs(kwargs))
        op = graph._apply_op(function.call_op_def(), inputs, attrs, name)
        if self._shape_func is not None:
            shapes = self._shape_func(op)
            if len(shapes) != len(op.outputs):
                raise ValueError(f"shape_func {self._shape_func} produced {len(shapes):d} "
                                 f"shapes, which does not match {len(op.outputs)} outputs.")
            for t, shape in zip(op.outputs, shapes):
                t.set_shape(shape)
        if not op.outputs:
            return op
        return op.outputs[0] if len(op.outputs) == 1 else tuple(op.outputs)


class _OverloadedFunction:
    """A Defun without input types: one `_DefinedFunction` per argument dtypes."""

    def __init__(self, func: Callable[..., Any], argnames: Sequence[str],
                 func_name: Optional[str] = None, grad_func: Any = None,
                 python_grad_func: Optional[Callable[..., Any]] = None,
                 out_names: Optional[Sequence[str]] = None, **kwargs: Any) -> None:
        assert grad_func is None or isinstance(grad_func, _OverloadedFunction)
        self._func = func
        self._argnames = list(argnames)
        self._func_name = func_name
        self._grad_func = grad_func
        self._python_grad_func = python_grad_func
        self._out_names = out_names
        self._extra_kwargs = kwargs
        self._overload: Dict[str, _DefinedFunction] = {}

    def instantiate(self, input_types: Sequence[Any]) -> _DefinedFunction:
        """The function for these argument dtypes (defined on first use)."""
        input_types = [D.as_dtype(t) for t in input_types]
        key = _type_list_to_str(input_types)
        defined = self._overload.get(key)
        if defined is None:
            name = f"{self._func_name}_{key}" if self._func_name is not None else None
            defined = _DefinedFunction(self._func, self._argnames, input_types, name, None,
                                       self._python_grad_func, out_names=self._out_names,
                                       **self._extra_kwargs)
            if self._grad_func:
                # Named before its gradient function is known (as TF: no `_<grad name>`).
                function = defined._library_function()
                defined._grad_func = self._grad_func.instantiate(
                    input_types + function.output_dtypes)
                function.grad_func = defined._grad_func._library_function()
            self._overload[key] = defined
        return defined

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        tensors = [convert_to_tensor(a) for a in args]
        return self.instantiate([t.dtype for t in tensors])(*tensors, **kwargs)


class _DefunGraph(FuncGraph):
    """A Defun's function graph: captures outer tensors as extra inputs, or with
    `capture_by_value` copies the ops computing them into the body (TF's `_FuncGraph`)."""

    def __init__(self, name: str, outer: Graph, capture_by_value: bool,
                 allowlisted_stateful_ops: set, capture_resource_var_by_value: bool):
        super().__init__(name, outer)
        self._by_value = capture_by_value
        self._allowlisted = allowlisted_stateful_ops
        self._resource_by_value = capture_resource_var_by_value
        self._copied: Dict[Tensor, Tensor] = {}
        # Variables live in the outer graph (TF hoists them): `init_scope` builds there,
        # the body's variable collections and variable store are the outer graph's, and
        # `tf.get_variable` goes through `getvar` in the variable scope of the definition.
        self.lift_init_scope_to = outer
        for key in GraphKeys._VARIABLE_COLLECTIONS + [_VARSTORE_KEY]:
            self._collections[key] = outer.get_collection_ref(key)
        self._vscope = get_variable_scope()

    def getvar(self, getter: Callable[..., Any], name: str, shape: Any = None,
               dtype: Any = None, initializer: Any = None, reuse: Any = None,
               trainable: bool = True, collections: Any = None, use_resource: Any = None,
               **kwargs: Any) -> Any:
        """TF's `_FuncGraph.getvar`: the variable, made in the outer graph by the variable
        scope the function was defined in (the body's own scope's `reuse` and the other
        arguments of `get_variable` are not passed on, as in TF)."""
        del getter, kwargs
        with self.outer_graph.as_default():
            var = self._vscope.get_variable(
                _get_default_variable_store(), name, shape=shape, dtype=dtype,
                initializer=initializer, reuse=reuse, trainable=trainable,
                collections=collections, use_resource=use_resource)
            if isinstance(var, ResourceVariable) and self._resource_by_value:
                # Read outside the function: the body gets the value (pure, differentiable).
                return var.value()
        return var

    def placeholder(self, dtype: Any, shape: Any, name: str) -> Tensor:
        if name == "capture":
            # TF captures while creating the consumer op, in its name scope: the argument
            # of a capture by `mul` is `mul_placeholder`.
            name = f"{self._name_stack}/Placeholder" if self._name_stack else "Placeholder"
        return super().placeholder(dtype, shape, name)

    def capture(self, tensor: Tensor) -> Tensor:
        if not self._by_value or tensor.graph is self:
            return super().capture(tensor)
        copied = self._copied.get(tensor)
        if copied is None:
            op = self._copy_op(tensor.op)
            copied = op.outputs[tensor.value_index]
        return copied

    def _copy_op(self, op: Operation) -> Operation:
        if op._op_def.stateful and op not in self._allowlisted:
            raise ValueError(f"Cannot capture a stateful node (name:{op.name}, "
                             f"type:{op.type}) by value.")
        if op.type in ("Placeholder", "PlaceholderV2"):
            raise ValueError(f"Cannot capture a placeholder (name:{op.name}, "
                             f"type:{op.type}) by value.")
        flat = [self.capture(t) for t in op.inputs]
        attrs = {k: v for k, v in op.attrs.items() if not k.startswith("_")}
        with self._top_level():
            copy = self._apply_op(op._op_def, group_inputs(op._op_def, flat, attrs, op.name),
                                  attrs, op.name)
        for t, c in zip(op.outputs, copy.outputs):
            self._copied[t] = c
        return copy


def _builtin_op_types() -> set:
    from tf1compat.graphdef.graph_import import load_op_modules
    load_op_modules()
    return set(registered_op_types())


def _call_attrs(kwargs: Dict[str, Any]) -> Dict[str, Any]:
    """TF's `_parse_kwargs_as_attrs`: keyword arguments of a Defun or call as attrs."""
    kwargs = dict(kwargs)
    attrs: Dict[str, Any] = {}
    noinline = kwargs.pop("noinline", None)
    if noinline is not None:
        attrs["_noinline"] = bool(noinline)
    compiled = kwargs.pop("compiled", None)
    separate = kwargs.pop("separate_compiled_gradients", None)
    if compiled is not None:
        attrs["_XlaCompile"] = bool(compiled)
        attrs["_XlaSeparateCompiledGradients"] = bool(separate)
    for key in [k for k in kwargs if k.startswith("experimental_")]:
        value = kwargs.pop(key)
        if not isinstance(value, (bool, int, float, str)):
            raise ValueError(f"Attribute {key} must be bool, int, float, or str. "
                             f"Got {type(value)}.")
        attrs[key] = value
    if kwargs:
        raise ValueError(f"Unknown keyword arguments: {kwargs.keys()}.")
    return attrs


def _func_name(func: Any) -> str:
    """TF's `function_utils.get_func_name`."""
    if tf_inspect.isfunction(func):
        return func.__name__
    if tf_inspect.ismethod(func):
        return f"{func.__self__.__class__.__name__}.{func.__func__.__name__}"
    return str(type(func))


def _output_names(outputs: List[Tensor]) -> List[str]:
    """TF's result names: each output's op name in lower case, other characters than
    letters and digits as `_`, from its first letter on (`unknown` without one), made
    unique as `<name>_0`, `<name>_1`, ..."""
    counts: Dict[str, int] = {}
    names = []
    for t in outputs:
        base = "".join(c if c.isalnum() and c.isascii() else "_" for c in t.op.name.lower())
        letters = [i for i, c in enumerate(base) if c.isalpha()]
        name = base[letters[0]:] if letters else "unknown"
        if name in counts:
            stem = name
            while name in counts:
                name = f"{stem}_{counts[stem]}"
                counts[stem] += 1
        counts[name] = 0
        names.append(name)
    return names


def _signature_only(name: str, inputs: List[Tensor], outputs: List[Tensor],
                    out_names: List[str]) -> FunctionDef:
    """The FunctionDef of a body that cannot be written: its signature only."""
    fdef = FunctionDef()
    fdef.signature.name = name
    for t in inputs:
        fdef.signature.input_arg.add(name=t.op.name,
                                     type=t.dtype.base_dtype.as_datatype_enum)
    for t, n in zip(outputs, out_names):
        fdef.signature.output_arg.add(name=n, type=t.dtype.base_dtype.as_datatype_enum)
    return fdef


def _type_list_to_str(types: Sequence[Any]) -> str:
    if any(t not in _DTYPE_TO_STR for t in types):
        unsupported = [t for t in types if t not in _DTYPE_TO_STR]
        raise ValueError(f"Unsupported dtypes {unsupported} in `types`. Supported dtypes "
                         f"are {_DTYPE_TO_STR.keys()}.")
    return "".join(_DTYPE_TO_STR[t] for t in types)


def from_library(lib: Any) -> List[_DefinedFunction]:
    """TF's `function.from_library`: a FunctionDefLibrary's functions (with their
    gradient functions) as callable Defuns of the default graph."""
    graph = get_default_graph()
    from tf1compat.graphdef.function_library import import_library
    import_library(list(lib.function), graph,
                   {g.function_name: g.gradient_func for g in lib.gradient})
    library = function_library(graph)
    out = []
    for fdef in lib.function:
        defined = _DefinedFunction(None, [a.name for a in fdef.signature.input_arg],
                                   [a.type for a in fdef.signature.input_arg],
                                   fdef.signature.name)
        defined._function = library[fdef.signature.name]
        out.append(defined)
    return out
