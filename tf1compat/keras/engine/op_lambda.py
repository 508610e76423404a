"""Raw TF functions on Keras inputs under eager execution: tf-keras's `TFOpLambda` layers.

`x = tf.keras.Input((4,)); y = tf.nn.relu(x) * 2` under eager execution gives tf-keras a
model of three layers named after the TF functions called: `input_1`, `tf.nn.relu`,
`tf.math.multiply`. tf-keras gets there through TF's op dispatch (every API function
hands a call on a KerasTensor to a new `TFOpLambda(function)` layer). tf1compat's API
functions are plain functions, so the call is found the other way round: the first op such
a call builds refuses the Keras graph tensor (`hooks.SYMBOLIC_IN_EAGER`); the op is built in
Keras' graph instead, and the outermost public TF function (or tensor operator) on the
Python stack is the call — its layer is made then (names count in creation order, as in
tf-keras) with the arguments it was given. The remaining ops of that call go to the same
record. `create_keras_history` (a Model's construction, a layer's call) turns a record
into the layer's node when one of its outputs is used: the layer replays the function on
new inputs, so the model predicts, trains, serializes (`get_config`: `{"function":
"nn.relu"}`, call arguments in the inbound node) and loads as tf-keras's.
"""

from __future__ import annotations

import dis
import inspect
import sys
from typing import Any, Callable, Dict, List, Optional, Tuple

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.hooks import PUBLIC_API, SYMBOLIC_IN_EAGER, TENSOR_OPERATORS
from tf1compat.framework.tensor import Tensor
from tf1compat.keras import backend
from tf1compat.keras.engine import node as node_module
from tf1compat.keras.engine.base_layer import Layer
from tf1compat.keras.engine.op_lambda_names import ALL_ARGUMENTS, OP_LAMBDA_NAMES
from tf1compat.ops.dispatch import WRAPPER_CODE

__all__ = ["TFOpLambda", "SlicingOpLambda", "op_call_of", "add_op_call_history"]

# Tensor operators as tf-keras's KerasTensor dispatches them: dunder -> (TF function name,
# TENSOR_OPERATORS key of the forward operator, whether the operands are swapped).
_OPERATORS: Dict[str, Tuple[str, str, bool]] = {
    "__add__": ("__operators__.add", "add", False),
    "__radd__": ("__operators__.add", "add", True),
    "__sub__": ("math.subtract", "sub", False),
    "__rsub__": ("math.subtract", "sub", True),
    "__mul__": ("math.multiply", "mul", False),
    "__rmul__": ("math.multiply", "mul", True),
    "__truediv__": ("math.truediv", "truediv", False),
    "__rtruediv__": ("math.truediv", "truediv", True),
    "__pow__": ("math.pow", "pow", False),
    "__rpow__": ("math.pow", "pow", True),
    "__neg__": ("math.negative", "neg", False),
    "__getitem__": ("__operators__.getitem", "getitem", False),
}


def _operator_function(key: str) -> Callable[..., Any]:
    """`tf.__operators__.add(x, y, name=None)` and its kin: the tensor operator as a
    function of its operands (TF's binary and unary operator wrappers)."""
    if key == "neg":
        def unary(x: Any, name: Optional[str] = None) -> Any:
            return TENSOR_OPERATORS["neg"](x)
        return unary
    if key == "getitem":
        def getitem(tensor: Any, slice_spec: Any) -> Any:
            return TENSOR_OPERATORS["getitem"](tensor, slice_spec)
        return getitem

    def binary(x: Any, y: Any, name: Optional[str] = None) -> Any:
        if isinstance(x, Tensor):
            return TENSOR_OPERATORS[key](x, y)
        return TENSOR_OPERATORS["r" + key](y, x)
    return binary


_OPERATOR_FUNCTIONS = {name: _operator_function(key) for name, key, _ in _OPERATORS.values()}


def _codes() -> Dict[Any, List[Tuple[str, Any, Any]]]:
    """code object -> [(TF function name, the function or the operator dunder's name, the
    argument names its node records or None)]: functions made by one factory
    (`reduce_sum`, `reduce_all`) share their code."""
    cached = _CODES.get("table")
    if cached is not None:
        return cached
    table: Dict[Any, List[Tuple[str, Any, Any]]] = {}
    for dunder, (symbol, _, _) in _OPERATORS.items():
        table[getattr(Tensor, dunder).__code__] = [(symbol, dunder, None)]
    for path, symbol in OP_LAMBDA_NAMES.items():
        fn = _resolve(path)
        if not inspect.isfunction(fn):
            continue
        fn = inspect.unwrap(fn)
        entries = table.setdefault(fn.__code__, [])
        same = [i for i, (_, known, _) in enumerate(entries) if known is fn]
        if not same:
            entries.append((symbol, fn, ALL_ARGUMENTS.get(path)))
        elif entries[same[0]][0].startswith("compat.v1.") and \
                not symbol.startswith("compat.v1."):
            # (one function under a TF1-only and a TF 2 name, `tf.arg_max` and
            # `tf.argmax`: calls name the TF 2 one, as the common spelling)
            entries[same[0]] = (symbol, fn, ALL_ARGUMENTS.get(path))
    _CODES["table"] = table
    return table


_CODES: Dict[str, Dict[Any, List[Tuple[str, Any, Any]]]] = {}


def _entry_of(frame: Any, entries: List[Tuple[str, Any, Any]]) -> Tuple[str, Any, Any]:
    """The function a frame runs, among those sharing its code: the one whose closure
    holds the frame's free variables."""
    if len(entries) == 1:
        return entries[0]
    names = frame.f_code.co_freevars
    local = frame.f_locals
    for entry in entries:
        cells = entry[1].__closure__ or ()
        if all(name in local and cell.cell_contents is local[name]
               for name, cell in zip(names, cells)):
            return entry
    return entries[0]


def _resolve(symbol: str) -> Any:
    """tf-keras's `get_symbol_from_name` on tf1compat's public namespace (None: absent)."""
    if symbol.startswith("__operators__."):
        return _OPERATOR_FUNCTIONS.get(symbol)
    if symbol.startswith("compat.v1."):
        symbol = symbol[len("compat.v1."):]   # (tf1compat's namespace is compat.v1)
    obj = PUBLIC_API["tf"]
    for part in symbol.split("."):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


class _OpCall:
    """One call of a TF function on Keras tensors: its layer and arguments."""

    def __init__(self, layer: "TFOpLambda", args: tuple, kwargs: dict):
        self.layer = layer
        self.args = args
        self.kwargs = kwargs
        self.node: Optional[Any] = None


def _find_call(graph: Any) -> Optional[_OpCall]:
    """The call being built: the outermost public TF function or tensor operator on the
    stack. Keras' graph keeps the frame of the last call and its record (one at a time:
    calls on Keras tensors follow each other), so the call's later ops join it."""
    codes = _codes()
    found = None
    frame = sys._getframe(2)
    while frame is not None:
        if frame.f_code in codes:
            found = frame
        frame = frame.f_back
    if found is None:
        return None
    current = graph._extras.get("keras_op_call")
    if current is not None and current[0] is found:
        return current[1]
    symbol, target, recorded = _entry_of(found, codes[found.f_code])
    if isinstance(target, str):
        call = _operator_call(symbol, target, found.f_locals)
    else:
        call = _function_call(symbol, target, found, recorded)
    graph._extras["keras_op_call"] = (found, call)
    return call


def _operator_call(symbol: str, dunder: str, arguments: dict) -> _OpCall:
    _, _, swapped = _OPERATORS[dunder]
    this = arguments["self"]
    if dunder == "__neg__":
        return _OpCall(TFOpLambda(_OPERATOR_FUNCTIONS[symbol], symbol), (this,),
                       {"name": None})
    if dunder == "__getitem__":
        return _OpCall(SlicingOpLambda(_OPERATOR_FUNCTIONS[symbol], symbol), (this,),
                       {"slice_spec": arguments["key"]})
    other = arguments["other"]
    x, y = (other, this) if swapped else (this, other)
    return _OpCall(TFOpLambda(_OPERATOR_FUNCTIONS[symbol], symbol), (x,),
                   {"y": y, "name": None})


def _passed(frame: Any) -> Optional[Tuple[int, Tuple[str, ...]]]:
    """(how many positional arguments, the keyword names) the caller of `frame` passed,
    read from the caller's call instruction (`f(x, 1, axis=2)`: (2, ("axis",))), or None
    when its bytecode does not say (`f(*args, **kwargs)`, another Python)."""
    caller = frame.f_back
    while caller is not None and caller.f_code is WRAPPER_CODE:   # tf.* dispatch
        caller = caller.f_back
    if caller is None:
        return None
    code = caller.f_code
    instructions = _INSTRUCTIONS.get(code)
    if instructions is None:
        instructions = _INSTRUCTIONS[code] = list(dis.get_instructions(code))
    # (f_lasti is the call instruction or, before 3.12, its last inline cache)
    # (3.11: KW_NAMES, PRECALL, CALL; 3.12: KW_NAMES, CALL; 3.13: LOAD_CONST, CALL_KW;
    # 3.9 and 3.10: CALL_FUNCTION / CALL_METHOD, or LOAD_CONST, CALL_FUNCTION_KW)
    before = [i for i in instructions if i.offset <= caller.f_lasti][-3:]
    if not before or before[-1].opname not in _CALLS:
        return None
    count = before[-1].arg
    names: Tuple[str, ...] = ()
    for instruction in reversed(before[:-1]):
        if instruction.opname == "PRECALL":
            continue
        if instruction.opname == "KW_NAMES":
            names = code.co_consts[instruction.arg]
        elif instruction.opname == "LOAD_CONST" and \
                before[-1].opname in ("CALL_KW", "CALL_FUNCTION_KW"):
            names = instruction.argval
        break
    if not isinstance(names, tuple) or len(names) > count:
        return None
    return count - len(names), names


_INSTRUCTIONS: Dict[Any, List[Any]] = {}
_CALLS = ("CALL", "CALL_KW", "CALL_FUNCTION", "CALL_METHOD", "CALL_FUNCTION_KW")


def _function_call(symbol: str, fn: Callable[..., Any], frame: Any,
                   recorded: Optional[Tuple[str, ...]]) -> _OpCall:
    """The arguments the call was given as tf-keras records them: the first one
    positional, the others by name — every one for the functions whose nodes record every
    argument (`recorded`, `{"name": None}`; those not passed at their defaults), else
    those the caller passed (read from its call instruction; without it, those that
    differ from their defaults). Values are those the function's frame holds."""
    arguments = frame.f_locals
    params = list(inspect.signature(fn).parameters.values())
    first = arguments.get(params[0].name) if params else None
    passed = _passed(frame)
    names = None
    if passed is not None and passed[0] >= 1 and passed[0] <= len(params) and \
            all(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
                for p in params[:passed[0]]):
        names = [p.name for p in params[1:passed[0]]] + list(passed[1])
        if any(name not in arguments for name in names):
            names = None
    if recorded is not None:
        defaults = {p.name: p.default for p in params}
        return _OpCall(TFOpLambda(fn, symbol), (first,),
                       {key: arguments.get(key) if names is None or key in names else
                        defaults.get(key) for key in recorded})
    if names is not None:
        return _OpCall(TFOpLambda(fn, symbol), (first,),
                       {name: arguments[name] for name in names})
    kwargs: Dict[str, Any] = {}
    for p in params[1:]:
        if p.name not in arguments:
            continue
        value = arguments[p.name]
        if p.kind == p.VAR_KEYWORD:
            kwargs.update(value)
        elif p.kind != p.VAR_POSITIONAL and (p.default is p.empty or value is not p.default):
            kwargs[p.name] = value
    return _OpCall(TFOpLambda(fn, symbol), (first,), kwargs)


def _build_in_keras_graph(tensor: Any, op_def: Any, inputs: Any, attrs: Any,
                          name: Optional[str]) -> Any:
    """`hooks.SYMBOLIC_IN_EAGER`: an op of a TF function called on a Keras input under
    eager execution is built in Keras' graph and joins that call's record."""
    graph = tensor.graph
    if graph is not backend.get_graph():
        return None
    call = _find_call(graph)
    if call is None:
        return None
    # (ops named in their layer's scope, `tf.nn.relu/Relu`, as tf-keras's KerasTensors)
    with graph.as_default(), graph.name_scope(call.layer.name + "/"):
        op = graph._apply_op(op_def, [_graph_constants(v) for v in inputs], attrs, None)
    op._keras_op_call = call
    return op


def _graph_constants(value: Any) -> Any:
    """Eager constants (a slice's bounds, a reduction's axes) as Const ops of the graph
    being built, so its shape inference sees their values (a capture would hide them)."""
    if isinstance(value, (list, tuple)):
        return type(value)(_graph_constants(v) for v in value)
    if isinstance(value, Tensor) and value._is_eager_tensor and \
            value.dtype.base_dtype not in (D.resource, D.variant):
        return constant(value.numpy(), dtype=value.dtype)
    return value


def op_call_of(tensor: Tensor) -> Optional[_OpCall]:
    """The TF-function call on Keras tensors that built `tensor`, if any."""
    return getattr(tensor.op, "_keras_op_call", None)


def add_op_call_history(tensor: Tensor, visit: Callable[[Any], None]) -> None:
    """Makes the node of `tensor`'s call (its arguments' histories first, via `visit`)."""
    call = op_call_of(tensor)
    if call.node is not None:
        raise NotImplementedError(
            f"The outputs of {call.layer.name} used in a Keras model come from different "
            "ops of that TF function: tf1compat supports its op outputs only")
    for t in nest.flatten((call.args, call.kwargs)):
        if isinstance(t, Tensor) and not t._is_eager_tensor:
            visit(t)
    outputs = list(tensor.op.outputs)
    call.node = node_module.Node(call.layer, call.args, dict(call.kwargs),
                                 outputs if len(outputs) > 1 else tensor)


class TFOpLambda(Layer):
    """A TF API function called on Keras tensors, as a layer named after the function
    (`tf.nn.relu`, `tf.math.multiply_1`); `function` is its TF name without `tf.`."""

    def __init__(self, function: Any, symbol: Optional[str] = None, **kwargs: Any):
        if isinstance(function, str):
            symbol, function = function, _resolve(function)
            if function is None:
                raise ValueError(f"TF symbol `{symbol}` could not be found.")
        self.function = function
        self.symbol = symbol
        if "name" not in kwargs:
            kwargs["name"] = backend.unique_object_name("tf." + symbol, zero_based=True)
        kwargs.pop("autocast", None)
        kwargs.setdefault("dtype", backend.floatx())
        super().__init__(**kwargs)
        self._preserve_input_structure_in_config = True
        self.built = True

    @property
    def _expects_training_arg(self) -> bool:
        return False

    @property
    def _expects_mask_arg(self) -> bool:
        return False

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        keras_tensors = [t for t in nest.flatten((args, kwargs))
                         if isinstance(t, Tensor) and not t._is_eager_tensor and
                         node_module.keras_history(t) is not None]
        if not keras_tensors:
            return super().__call__(*args, **kwargs)
        # A call on Keras tensors (rebuilding a model from its config, a model called on
        # new Keras inputs): the function runs in their graph and the call is a node; its
        # first argument may be a constant (`1.0 + x`), which Layer.__call__ cannot take.
        with keras_tensors[0].graph.as_default():
            outputs = self.call(*args, **kwargs)
        node_module.Node(self, args, kwargs, outputs)
        return outputs

    def call(self, *args: Any, **kwargs: Any) -> Any:
        kwargs.pop("name", None)    # (as tf-keras: a reused layer names no ops)
        return self.function(*args, **kwargs)

    def get_config(self) -> dict:
        return {"name": self.name, "trainable": self.trainable, "dtype": self.dtype,
                "function": self.symbol}

    @classmethod
    def from_config(cls, config: dict, custom_objects: Any = None) -> "TFOpLambda":
        return cls(**config)


class SlicingOpLambda(TFOpLambda):
    """`x[...]` on a Keras tensor (`tf.__operators__.getitem`); its slices are stored as
    `{"start", "stop", "step"}` dicts in the config, as tf-keras does."""

    def call(self, *args: Any, **kwargs: Any) -> Any:
        spec = kwargs.get("slice_spec")
        if spec is not None:
            kwargs["slice_spec"] = _slices(spec)
        return super().call(*args, **kwargs)


def _slices(spec: Any) -> Any:
    if isinstance(spec, dict) and set(spec) == {"start", "stop", "step"}:
        return slice(spec["start"], spec["stop"], spec["step"])
    if isinstance(spec, (list, tuple)):
        return tuple(_slices(s) for s in spec)
    return spec


def serialize_slices(spec: Any) -> Any:
    """A slice spec as tf-keras's SlicingOpLambda writes it into a config."""
    if isinstance(spec, slice):
        return {"start": spec.start, "stop": spec.stop, "step": spec.step}
    if isinstance(spec, (list, tuple)):
        return tuple(serialize_slices(s) for s in spec)
    return spec


SYMBOLIC_IN_EAGER["build"] = _build_in_keras_graph
