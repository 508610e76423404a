"""`tf.Tensor`: a symbolic output of an Operation, with TF1's Python protocol.

Operator overloads (`+`, `@`, `[]`, ...) dispatch through `hooks.TENSOR_OPERATORS`, a
table the op modules fill at import (as TF's math_ops overrides operators on ops.Tensor),
so this module depends on no op family.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.errors import OperatorNotAllowedInGraphError
from tf1compat.framework.hooks import TENSOR_OPERATORS
from tf1compat.framework.object_identity import Reference
from tf1compat.framework.tensor_shape import TensorShape, as_shape

if TYPE_CHECKING:
    from tf1compat.framework.operation import Operation

__all__ = ["Tensor", "get_default_session", "default_session_stack"]

OPERATORS = TENSOR_OPERATORS       # (a module global: one lookup per operator call)

# The stack of default sessions (`with sess.as_default():`); the runtime pushes onto it.
default_session_stack: list = []


def get_default_session() -> Any:
    """The innermost session installed with `as_default()`, or None (`tf.get_default_session`)."""
    return default_session_stack[-1] if default_session_stack else None


def _not_allowed(what: str) -> OperatorNotAllowedInGraphError:
    return OperatorNotAllowedInGraphError(
        f"{what} is not allowed. You can attempt the following resolutions to the problem: "
        "If you are running in Graph mode, use Eager execution mode or decorate this "
        "function with @tf.function. If you are using AutoGraph, you can try decorating this "
        "function with @tf.function. If that does not work, then you may be using an "
        "unsupported feature or your source code may not be visible to AutoGraph. See "
        "https://github.com/tensorflow/tensorflow/blob/master/tensorflow/python/autograph/"
        "g3doc/reference/limitations.md#access-to-source-code for more information.")


class Tensor:
    """One output of an Operation: a symbolic value with a static dtype and shape."""

    # numpy defers `ndarray + tensor` to Tensor.__radd__ instead of iterating the tensor.
    __array_priority__ = 100
    # True for tf1compat.eager's EagerTensor (a value, not an op's output).
    _is_eager_tensor = False
    # a mutable set, as TF's: libraries edit it (TensorFlow Probability's DeferredTensor
    # metaclass drops __eq__/__ne__ and adds __iter__ when it is imported)
    OVERLOADABLE_OPERATORS = {
        "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__div__",
        "__rdiv__", "__truediv__", "__rtruediv__", "__floordiv__", "__rfloordiv__",
        "__mod__", "__rmod__", "__lt__", "__le__", "__gt__", "__ge__", "__ne__", "__eq__",
        "__and__", "__rand__", "__or__", "__ror__", "__xor__", "__rxor__", "__getitem__",
        "__pow__", "__rpow__", "__invert__", "__neg__", "__abs__", "__matmul__",
        "__rmatmul__"}

    # `aliases`: the names tf.contrib.layers' collect_named_outputs gives a tensor (TF sets
    # it as a Python attribute; unset until then, so hasattr() reports it as TF's does).
    # `__dict__`: TF's tensors take any attribute, and layer libraries hang their own on
    # the tensors they return (tflearn's `net.scope`, `net.W`, `net.b`).
    __slots__ = ("_op", "_value_index", "_dtype", "_shape", "_consumers", "_name",
                 "aliases", "__weakref__", "__dict__")

    def __init__(self, op: "Operation", value_index: int, dtype: _dtypes.DType,
                 shape: TensorShape):
        self._op = op
        self._value_index = value_index
        self._dtype = dtype
        self._shape = shape
        self._consumers: list = []
        self._name = f"{op._name}:{value_index}"

    # -- identity ----------------------------------------------------------------
    @property
    def op(self) -> "Operation":
        return self._op

    @property
    def name(self) -> str:
        return self._name

    @property
    def dtype(self) -> _dtypes.DType:
        return self._dtype

    @property
    def graph(self) -> Any:
        return self._op._graph

    @property
    def value_index(self) -> int:
        return self._value_index

    @property
    def device(self) -> str:
        return self._op.device

    def consumers(self) -> list:
        return list(self._consumers)

    def _as_tf_output(self) -> Any:
        return (self._op, self._value_index)

    def _as_node_def_input(self) -> str:
        return self._op.name if self._value_index == 0 else self._name

    # -- static shape --------------------------------------------------------------
    @property
    def shape(self) -> TensorShape:
        return self._shape

    def get_shape(self) -> TensorShape:
        return self._shape

    def _shape_tuple(self) -> Any:
        """TF's private static-shape tuple (None for an unknown rank, None dims kept):
        TF-internal helpers and TensorLayer 1.x's `alphas` read it."""
        return None if self._shape.dims is None else tuple(self._shape.as_list())

    def set_shape(self, shape: Any) -> None:
        """Merges `shape` into the static shape (ValueError if incompatible), as TF."""
        shape = as_shape(shape)
        if not self._shape.is_compatible_with(shape):
            mine, theirs = self._shape.as_list(), shape.as_list()
            if len(mine) != len(theirs):
                raise ValueError(f"Shapes must be equal rank, but are {len(mine)} and "
                                 f"{len(theirs)}")
            i = next(k for k, (a, b) in enumerate(zip(mine, theirs))
                     if a is not None and b is not None and a != b)
            raise ValueError(f"Dimension {i} in both shapes must be equal, but are {mine[i]} and "
                             f"{theirs[i]}. Shapes are {_dims(mine)} and {_dims(theirs)}.")
        merged = self._shape.merge_with(shape)
        if merged != self._shape:
            # What the program asserts, which TF never checks at run time (slim's Image
            # decoder declares [?, ?, 3] for decode_raw's flat bytes, then reshapes):
            # runtime/interpreter.py's CheckingInterpreter holds op shape rules, not
            # these, against the kernels' outputs.
            graph = self._op._graph
            refined = graph._extras.get("refined_by_set_shape")
            if refined is None:
                refined = graph._extras["refined_by_set_shape"] = weakref.WeakSet()
            refined.add(self)
        self._shape = merged

    @property
    def ndim(self) -> Any:
        return self._shape.rank

    # -- evaluation ----------------------------------------------------------------
    def eval(self, feed_dict: Any = None, session: Any = None) -> Any:
        """Runs this tensor in `session` (or the default session) and returns its value."""
        session = _session_for(self.graph, session, "tensor")
        return session.run(self, feed_dict=feed_dict)

    # -- python protocol ------------------------------------------------------------
    def __repr__(self) -> str:
        return f"<tf.Tensor '{self._name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self) -> str:
        # TF leaves out the shape when its rank is unknown and adds the device when set.
        shape = f", shape={self._shape}" if self._shape.rank is not None else ""
        device = self.device
        device = f", device={device}" if device else ""
        return f'Tensor("{self._name}"{shape}, dtype={self._dtype.name}{device})'

    __hash__ = object.__hash__

    def ref(self) -> Reference:
        """A hashable reference to this tensor (`deref()` gives it back), as TF 2's."""
        return Reference(self)

    experimental_ref = ref

    def __bool__(self) -> bool:
        raise _not_allowed("Using a symbolic `tf.Tensor` as a Python `bool`")

    __nonzero__ = __bool__  # TF keeps Python 2's name (TensorFlow Probability copies both)

    def __iter__(self):
        raise _not_allowed("Iterating over a symbolic `tf.Tensor`")

    def __len__(self) -> int:
        raise TypeError(f"len is not well defined for a symbolic Tensor ({self._name}). "
                        "Please call `x.shape` rather than `len(x)` for shape information.")

    def __array__(self, dtype: Any = None, copy: Any = None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self._name}) to a numpy array. This error "
            "may indicate that you're trying to pass a Tensor to a NumPy call, which is not "
            "supported.")

    def __reduce__(self):
        raise TypeError(f"Tensor {self._name} cannot be pickled: it is a symbolic graph value")

    def __copy__(self) -> "Tensor":
        return self

    def __deepcopy__(self, memo: Any) -> "Tensor":
        return self

    # -- overloads -------------------------------------------------------------------
    def __getitem__(self, key: Any) -> "Tensor":
        return OPERATORS["getitem"](self, key)

    def __add__(self, other): return OPERATORS["add"](self, other)
    def __radd__(self, other): return OPERATORS["radd"](self, other)
    def __sub__(self, other): return OPERATORS["sub"](self, other)
    def __rsub__(self, other): return OPERATORS["rsub"](self, other)
    def __mul__(self, other): return OPERATORS["mul"](self, other)
    def __rmul__(self, other): return OPERATORS["rmul"](self, other)
    def __truediv__(self, other): return OPERATORS["truediv"](self, other)
    def __rtruediv__(self, other): return OPERATORS["rtruediv"](self, other)
    __div__ = __truediv__
    __rdiv__ = __rtruediv__
    def __floordiv__(self, other): return OPERATORS["floordiv"](self, other)
    def __rfloordiv__(self, other): return OPERATORS["rfloordiv"](self, other)
    def __mod__(self, other): return OPERATORS["mod"](self, other)
    def __rmod__(self, other): return OPERATORS["rmod"](self, other)
    def __pow__(self, other): return OPERATORS["pow"](self, other)
    def __rpow__(self, other): return OPERATORS["rpow"](self, other)
    def __matmul__(self, other): return OPERATORS["matmul"](self, other)
    def __rmatmul__(self, other): return OPERATORS["rmatmul"](self, other)
    def __and__(self, other): return OPERATORS["and"](self, other)
    def __rand__(self, other): return OPERATORS["rand"](self, other)
    def __or__(self, other): return OPERATORS["or"](self, other)
    def __ror__(self, other): return OPERATORS["ror"](self, other)
    def __xor__(self, other): return OPERATORS["xor"](self, other)
    def __rxor__(self, other): return OPERATORS["rxor"](self, other)
    def __lt__(self, other): return OPERATORS["lt"](self, other)
    def __le__(self, other): return OPERATORS["le"](self, other)
    def __gt__(self, other): return OPERATORS["gt"](self, other)
    def __ge__(self, other): return OPERATORS["ge"](self, other)
    def __invert__(self): return OPERATORS["invert"](self)
    def __neg__(self): return OPERATORS["neg"](self)
    def __abs__(self): return OPERATORS["abs"](self)


def _dims(dims: list) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _session_for(graph: Any, session: Any, what: str) -> Any:
    """The session `eval()` / `run()` uses; `what` is "tensor" or "operation".

    The messages are TF's, which differ between tensors (`eval`) and operations (`run`).
    """
    tensor = what == "tensor"
    if session is None:
        session = get_default_session()
        if session is None:
            if tensor:
                raise ValueError("Cannot evaluate tensor using `eval()`: No default session "
                                 "is registered. Use `with sess.as_default()` or pass an "
                                 "explicit session to `eval(session=sess)`")
            raise ValueError("Cannot execute operation using `run()`: No default session is "
                             "registered. Use `with sess.as_default():` or pass an explicit "
                             "session to `run(session=sess)`")
        if session.graph is not graph:
            if tensor:
                raise ValueError("Cannot use the default session to evaluate tensor: the "
                                 "tensor's graph is different from the session's graph. "
                                 "Pass an explicit session to `eval(session=sess)`.")
            raise ValueError("Cannot use the default session to execute operation: the "
                             "operation's graph is different from the session's graph. "
                             "Pass an explicit session to run(session=sess).")
    elif session.graph is not graph:
        if tensor:
            raise ValueError("Cannot use the given session to evaluate tensor: the tensor's "
                             "graph is different from the session's graph.")
        raise ValueError("Cannot use the given session to execute operation: the "
                         "operation's graph is different from the session's graph.")
    return session
