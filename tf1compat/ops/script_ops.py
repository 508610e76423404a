"""`tf.py_func`, `tf.numpy_function`, `tf.py_function`: Python functions as graph ops.

`tf.py_func(func, inp, Tout)` adds a `PyFunc` op (`PyFuncStateless` when
`stateful=False`) that calls `func` with numpy arrays at run time and converts what it
returns to `Tout`, with TF's checks (number of values, exact dtypes) and TF's error
mapping: ValueError/TypeError become InvalidArgumentError, StopIteration
OutOfRangeError, MemoryError ResourceExhaustedError, NotImplementedError
UnimplementedError, anything else UnknownError; the message names the exception and
carries its traceback. The ops run on the CPU and are not differentiable unless a
gradient is registered for them (`gradient_override_map({"PyFunc": name})`).
"""

from __future__ import annotations

import itertools
import threading
import traceback
import weakref
from typing import Any, Callable, Optional

import numpy as np
import torch

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op, get_default_graph
from tf1compat.framework.op_def import TypeList, declare, unknown_shapes

__all__ = ["py_func", "numpy_function", "py_function", "eager_py_func"]

_tokens = itertools.count()
_lock = threading.Lock()
# token -> registered callable; the graph holds the strong reference (as TF does).
_FUNCS: "weakref.WeakValueDictionary[str, Any]" = weakref.WeakValueDictionary()

class _Registered:
    """The callable a token refers to (a weak-referenceable holder)."""

    __slots__ = ("func", "__weakref__")

    def __init__(self, func: Callable[..., Any]):
        self.func = func


# TF's DataTypeString names, used in its messages.
_TF_TYPE_NAMES = {
    D.float32: "float", D.float64: "double", D.float16: "half", D.bfloat16: "bfloat16",
    D.int8: "int8", D.int16: "int16", D.int32: "int32", D.int64: "int64", D.uint8: "uint8",
    D.uint16: "uint16", D.uint32: "uint32", D.uint64: "uint64", D.bool: "bool",
    D.string: "string", D.complex64: "complex64", D.complex128: "complex128",
}


def _type_name(dtype: D.DType) -> str:
    return _TF_TYPE_NAMES.get(dtype, dtype.name)


_ERROR_CLASSES = (
    ((ValueError, TypeError), errors.InvalidArgumentError),
    ((StopIteration,), errors.OutOfRangeError),
    ((MemoryError,), errors.ResourceExhaustedError),
    ((NotImplementedError,), errors.UnimplementedError),
)


def _raise_from_python(e: BaseException) -> None:
    cls = errors.UnknownError
    for types, error_cls in _ERROR_CLASSES:
        if isinstance(e, types):
            cls = error_cls
            break
    text = str(e)
    head = f"{type(e).__name__}: {text}" if text else f"{type(e).__name__}: "
    detail = "".join(traceback.format_exception(type(e), e, e.__traceback__))
    raise cls(None, None, f"{head}\n{detail}\n") from e


def _to_numpy_arg(value: Any) -> Any:
    if isinstance(value, torch.Tensor):
        arr = value.detach().cpu().numpy().copy() if value.dtype != torch.bfloat16 else \
            value.detach().float().cpu().numpy()
        return arr[()] if arr.ndim == 0 else arr
    if isinstance(value, np.ndarray):
        copy = value.copy()
        return copy[()] if copy.ndim == 0 else copy
    return value


def _convert_result(value: Any) -> np.ndarray:
    """TF's FuncRegistry._convert: numpy, with text as object arrays of bytes."""
    result = np.asarray(value, order="C")
    if result.dtype.char == "S" and result is not value:
        return np.asarray(value, order="C", dtype=object)
    if result.dtype.char == "U":
        encoded = np.vectorize(lambda x: x.encode("utf8"), otypes=[object])(result)
        return np.asarray(encoded, order="C", dtype=object)
    return result


def _object_to_bytes(value: Any) -> bytes:
    """TF's PyObjectToString: bytes as they are, str as UTF-8, any other object an error."""
    if isinstance(value, bytes):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    kind = type(value)
    name = kind.__name__ if kind.__module__ == "builtins" else f"{kind.__module__}.{kind.__name__}"
    raise errors.InternalError(None, None, f"Unsupported object type {name}")


def _np_to_tf_dtype(arr: np.ndarray) -> Optional[D.DType]:
    if arr.dtype == object:
        # TF converts every object array to a string tensor (its elements are checked then).
        return D.string
    if arr.dtype.char == "S":
        return D.string
    try:
        return D.as_dtype(arr.dtype)
    except TypeError:
        return None


def _to_output(arr: np.ndarray, want: D.DType, index: int, token: str) -> Any:
    got = _np_to_tf_dtype(arr)
    if got == D.string:
        # Converted before the dtype check, as TF's NdarrayToTensor runs first.
        out = np.empty(arr.shape, dtype=object)
        out.reshape(-1)[:] = [_object_to_bytes(v) for v in arr.reshape(-1)]
        arr = out
    if got != want:
        got_name = _type_name(got) if got is not None else str(arr.dtype)
        raise errors.InvalidArgumentError(
            None, None, f"{index}-th value returned by {token} is {got_name}, but expects "
                        f"{_type_name(want)}")
    if want == D.string:
        return arr if arr.ndim else arr[()]
    if not arr.flags.writeable or not arr.flags.c_contiguous:
        arr = np.array(arr)
    return torch.from_numpy(arr)


def _py_func_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    token = node.attrs["token"]
    holder = _FUNCS.get(token)
    if holder is None:
        raise ValueError(f"Could not find callback with key={token} in the registry.")
    func = holder.func
    tout = [D.as_dtype(t) for t in node.attrs["Tout"]]
    eager = node.type == "EagerPyFunc"

    def run(*args: Any) -> Any:
        values = [_to_numpy_arg(a) for a in args]
        try:
            if eager:
                ret = _call_eagerly(values, func)
            else:
                ret = func(*values)
        except errors.OpError:
            raise
        except Exception as e:  # noqa: BLE001 - mapped to TF's classes as TF does
            _raise_from_python(e)
        if isinstance(ret, bytes):
            ret = [ret]
        if ret is None:
            results: list = []
        elif isinstance(ret, (list, tuple)):
            results = [_convert_result(v) for v in ret]
        else:
            results = [_convert_result(ret)]
        if len(results) != len(tout):
            raise errors.InvalidArgumentError(
                None, None, f"{token} returns {len(results)} values, but expects to see "
                            f"{len(tout)} values.")
        outs = tuple(_to_output(r, t, i, token) for i, (r, t) in enumerate(zip(results, tout)))
        if len(outs) == 1:
            return outs[0]
        return outs
    return run


for _type, _stateful in (("PyFunc", True), ("PyFuncStateless", False)):
    declare(_type, inputs=["input: Tin"], outputs=["output: Tout"],
            attrs={"token": "", "Tin": TypeList(), "Tout": TypeList()},
            shape=unknown_shapes, kernel=_py_func_kernel, grad="none", stateful=_stateful,
            cpu_only=True, doc="Calls a registered Python function on numpy arrays.")

declare("EagerPyFunc", inputs=["input: Tin"], outputs=["output: Tout"],
        attrs={"token": "", "is_async": False, "Tin": TypeList(), "Tout": TypeList()},
        shape=unknown_shapes, kernel=_py_func_kernel, grad="none", stateful=True,
        cpu_only=True, doc="Calls a registered Python function on EagerTensors.")


def _register(func: Callable[..., Any]) -> str:
    holder = _Registered(func)
    with _lock:
        token = f"pyfunc_{next(_tokens)}"
        _FUNCS[token] = holder
    # The graph keeps the function alive as long as it lives, as TF does.
    get_default_graph()._extras.setdefault("py_funcs_used_in_graph", []).append(holder)
    return token


def _internal_py_func(func: Callable[..., Any], inp: Any, Tout: Any, stateful: bool,  # noqa: N803
                      eager: bool, name: Optional[str]) -> Any:
    if not callable(func):
        raise ValueError(f"Expected func to be callable. Received func={func} of type "
                         f"{type(func)}.")
    is_list = isinstance(Tout, (list, tuple))
    tout = [D.as_dtype(t).base_dtype for t in (Tout if is_list else [Tout])]
    inputs = list(inp) if isinstance(inp, (list, tuple)) else [inp]
    inputs = [v.value() if hasattr(v, "value") and hasattr(v, "initializer") else v
              for v in inputs]
    token = _register(func)
    op_type = "EagerPyFunc" if eager else ("PyFunc" if stateful else "PyFuncStateless")
    op = apply_op(op_type, [inputs], {"token": token, "Tout": tout}, name=name)
    if not op._outputs:
        return op
    outputs = list(op._outputs)
    return outputs if is_list else outputs[0]


def py_func(func: Callable[..., Any], inp: Any, Tout: Any, stateful: bool = True,  # noqa: N803
            name: Optional[str] = None) -> Any:
    """`tf.py_func`: run `func` on numpy arrays as an op; returns a Tensor or a list."""
    return _internal_py_func(func, inp, Tout, stateful, False, name)


def numpy_function(func: Optional[Callable[..., Any]] = None, inp: Any = None,
                   Tout: Any = None, stateful: bool = True,  # noqa: N803
                   name: Optional[str] = None) -> Any:
    """`tf.numpy_function`: tf.py_func's semantics; usable as a decorator without func."""
    if func is None:
        def decorator(f: Callable[..., Any]) -> Callable[..., Any]:
            def call(*args: Any) -> Any:
                return _internal_py_func(f, list(args), Tout, stateful, False, name)
            return call
        return decorator
    return _internal_py_func(func, inp, Tout, stateful, False, name)


def py_function(func: Optional[Callable[..., Any]] = None, inp: Any = None,
                Tout: Any = None, name: Optional[str] = None) -> Any:
    """`tf.py_function`: `func` receives EagerTensors (needs the eager package)."""
    if func is None:
        def decorator(f: Callable[..., Any]) -> Callable[..., Any]:
            return lambda *args: _internal_py_func(f, list(args), Tout, True, True, name)
        return decorator
    return _internal_py_func(func, inp, Tout, True, True, name)


eager_py_func = py_function


def _call_eagerly(values: list, func: Callable[..., Any]) -> Any:
    """tf.py_function's kernel: runs `func` eagerly on EagerTensors (also in a Session)."""
    from tf1compat.framework import context as _context
    from tf1compat.framework.tensor_conversion import convert_to_tensor as _convert
    from tf1compat.runtime import eager_executor  # noqa: F401 - installs the executor
    state = _context._state
    old = state["eager"]
    state["eager"] = True
    try:
        args = [_convert(v) for v in values]
        ret = func(*args)
    finally:
        state["eager"] = old
    return _numpy_results(ret)


def _numpy_results(ret: Any) -> Any:
    from tf1compat.runtime.eager_tensor import EagerTensor
    if isinstance(ret, EagerTensor):
        return ret.numpy()
    if isinstance(ret, (list, tuple)):
        return type(ret)(_numpy_results(r) for r in ret)
    if getattr(ret, "_is_resource_variable", False):
        return ret.numpy()
    return ret
