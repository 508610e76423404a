"""Resource variables under eager execution: each holds its value in the eager store.

`tf.Variable(...)`, `tf.get_variable(...)` and `ResourceVariable(...)` build an
`EagerResourceVariable` when eager execution is on (ResourceVariable.__new__ dispatches
here). Its handle is an `EagerResourceHandle` whose value is the variable's key in the
eager runtime's store (`executor.RUNTIME.state`), so every resource op declared for graph
mode (ReadVariableOp, AssignVariableOp, AssignAddVariableOp, ResourceGather,
ResourceScatter*, optimizers' ResourceApply* ops) runs on it unchanged: its kernel gets
the key and reads or writes `kctx.state[key]`.

Names follow TF eager: `Variable:0` for every unnamed variable (names are not made
unique; scopes prefix them), while each creation gets its own store key
(`Variable_<n>`, TF's `_unique_id`). The stored value is dropped with the last
reference to the handle. Reads are snapshots: stored tensors are never mutated in place
(kernels store new tensors), so a value read earlier keeps its numbers.
"""

from __future__ import annotations

import itertools
import weakref
from typing import Any, Optional

import numpy as np
import torch

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework.graph import GraphKeys, add_to_collections, name_from_scope_name
from tf1compat.framework.graph import name_scope
from tf1compat.framework.hooks import TAPE
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import convert_to_tensor
from tf1compat.framework.tensor_shape import as_shape
from tf1compat.runtime import eager_executor as _ex
from tf1compat.autodiff import tape as _tape
from tf1compat.autodiff.tape import lift_to_eager
from tf1compat.runtime.eager_tensor import (EagerResourceHandle, EagerTensor, _value_text,
                                            device_name)
from tf1compat.ops.state_ops import store_value
from tf1compat.variables.resource_variable import ResourceVariable, _UnreadVariable
from tf1compat.variables.variables import validate_synchronization_aggregation_trainable

__all__ = ["EagerResourceVariable"]

_uid = itertools.count(1)


def _drop(key: str) -> None:
    _ex.RUNTIME.state.pop(key, None)


def _eager_unsupported(what: str) -> RuntimeError:
    return RuntimeError(f"This {what} is not supported when eager execution is enabled.")


class EagerResourceVariable(ResourceVariable):
    """A resource variable created under eager execution (its value lives in the store)."""

    def __init__(self, initial_value: Any = None, trainable: Any = None,
                 collections: Any = None, validate_shape: bool = True,
                 caching_device: Any = None, name: Optional[str] = None, dtype: Any = None,
                 variable_def: Any = None, import_scope: Any = None, constraint: Any = None,
                 distribute_strategy: Any = None, synchronization: Any = None,
                 aggregation: Any = None, shape: Any = None, **unused: Any):
        if variable_def is not None:
            raise NotImplementedError("ResourceVariable(variable_def=...) is not supported by "
                                      "tf1compat")
        synchronization, aggregation, trainable = \
            validate_synchronization_aggregation_trainable(synchronization, aggregation,
                                                           trainable, name)
        if initial_value is None:
            raise ValueError("The `initial_value` arg to `tf.Variable` must be specified "
                             "except when you are not providing a `variable_def`. You "
                             "provided neither.")
        if constraint is not None and not callable(constraint):
            raise ValueError("Argument `constraint` must be None or a callable. a callable. "
                             f"Got a {type(constraint)}:  {constraint}")
        if dtype is not None:
            dtype = D.as_dtype(dtype)
        with lift_to_eager():       # created while a function traces: lives outside it
            self._init_eager(initial_value, trainable, collections, validate_shape, name,
                             dtype, constraint, synchronization, aggregation, shape)

    def _init_eager(self, initial_value: Any, trainable: Any, collections: Any,
                    validate_shape: bool, name: Optional[str], dtype: Any, constraint: Any,
                    synchronization: Any, aggregation: Any, shape: Any) -> None:
        init_from_fn = callable(initial_value)
        with name_scope(name, "Variable") as scope:
            handle_name = name_from_scope_name(scope)
            with name_scope("Initializer"):
                if init_from_fn:
                    initial_value = initial_value()
                if isinstance(initial_value, Tensor) and not initial_value._is_eager_tensor:
                    initial_value = _lift_value(initial_value)
                initial_value = convert_to_tensor(initial_value, name="initial_value",
                                                  dtype=dtype)
        if shape is not None:
            if not initial_value.shape.is_compatible_with(shape):
                raise ValueError("In this `tf.Variable` creation, the initial value's shape "
                                 f"({initial_value.shape}) is not compatible with the "
                                 f"explicitly supplied `shape` argument ({as_shape(shape)}).")
            shape = as_shape(shape)
        else:
            shape = initial_value.shape
        dtype = initial_value.dtype.base_dtype
        unique_id = f"{handle_name}_{next(_uid)}"
        handle = EagerResourceHandle(unique_id, dtype, shape)
        _ex.RUNTIME.state[unique_id] = store_value(initial_value._value, _ex.current_device(),
                                                   True)
        weakref.finalize(handle, _drop, unique_id)
        self._setup(trainable, shape, dtype, handle, constraint, synchronization, aggregation,
                    handle_name, unique_id, handle_name, None, None, None, None, None, None,
                    validate_shape)
        self._in_graph_mode = False
        if collections is not None and GraphKeys.GLOBAL_STEP in collections:
            add_to_collections(GraphKeys.GLOBAL_STEP, self)
        _tape.register_variable(self)

    # -- identity ------------------------------------------------------------------------------
    @property
    def _key(self) -> str:
        return self._handle._value

    @property
    def device(self) -> str:
        value = _ex.RUNTIME.state.get(self._handle._value)
        if isinstance(value, torch.Tensor):
            return device_name(value.device)
        return device_name(torch.device("cpu"))

    @property
    def initial_value(self) -> Any:
        raise _eager_unsupported("property")

    @property
    def create(self) -> Any:
        raise _eager_unsupported("operation")

    def eval(self, session: Any = None) -> Any:
        raise _eager_unsupported("operation")

    def _as_graph_element(self) -> Any:
        return None

    def __repr__(self) -> str:
        return (f"<tf.Variable '{self.name}' shape={self.get_shape()} "
                f"dtype={self.dtype.name}, {_value_text(self.read_value(), True)}>")

    # -- reads ---------------------------------------------------------------------------
    def _read(self) -> Any:
        if not _context._state["eager"]:
            # Inside a traced function: a ReadVariableOp on the captured handle, so the
            # plan reads the live value each time it runs.
            from tf1compat.ops import resource_variable_ops as rvo
            return rvo.read_variable_op(self._handle, self._dtype)
        key = self._handle._value
        if TAPE["recording"]:
            _tape.variable_accessed(key)
        value = _ex.RUNTIME.state.get(key)
        if value is None:
            raise errors.FailedPreconditionError(
                None, None, f"Could not find variable {key}. This could mean that the "
                            "variable has been deleted. In TF1, it can also mean the "
                            "variable is uninitialized.")
        return EagerTensor(value, self._dtype)

    def value(self) -> EagerTensor:
        return self._read()

    def read_value(self) -> EagerTensor:
        return self._read()

    def _read_variable_op(self) -> EagerTensor:
        return self._read()

    def numpy(self) -> Any:
        return self._read().numpy()

    def initialized_value(self) -> EagerTensor:
        # TF 2's eager variables are always initialized; TF raises (with a deprecation
        # note) rather than returning the value.
        raise NotImplementedError("")

    def _dense_var_to_tensor(self, dtype: Any = None, name: Any = None,
                             as_ref: bool = False) -> Any:
        if dtype is not None and not dtype.is_compatible_with(self.dtype):
            raise ValueError(f"Incompatible type conversion requested to type {dtype.name} "
                             f"for `tf.Variable of type {self.dtype.name}. (Variable: {self})")
        if as_ref:
            return self._handle
        return self._read()

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return np.asarray(self.numpy(), dtype=dtype)

    def __float__(self) -> float:
        return float(self.numpy())

    def __int__(self) -> int:
        return int(self.numpy())

    def __complex__(self) -> complex:
        return complex(self.numpy())

    def __bool__(self) -> bool:
        return bool(self._read())

    def __format__(self, format_spec: str) -> str:
        return self._read().__format__(format_spec)

    # -- updates ------------------------------------------------------------------------------
    def _lazy_read(self, op: Any) -> Any:
        if not _context._state["eager"]:
            # An assignment in a function's trace: a graph read after its op, of the
            # handle the trace captured (the op's first input), as in graph mode.
            return _UnreadVariable(op._inputs[0], self._dtype, self._shape, op,
                                   self._unique_id)
        return _EagerUnreadVariable(self)

    def assign(self, value: Any, use_locking: Any = None, name: Optional[str] = None,
               read_value: bool = True) -> Any:
        out = super().assign(value, use_locking, name, read_value)
        return out if read_value or not _context._state["eager"] else None

    def assign_add(self, delta: Any, use_locking: Any = None, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        out = super().assign_add(delta, use_locking, name, read_value)
        return out if read_value or not _context._state["eager"] else None

    def assign_sub(self, delta: Any, use_locking: Any = None, name: Optional[str] = None,
                   read_value: bool = True) -> Any:
        out = super().assign_sub(delta, use_locking, name, read_value)
        return out if read_value or not _context._state["eager"] else None

    def load(self, value: Any, session: Any = None) -> None:
        self.assign(value)

    def __deepcopy__(self, memo: Any) -> "EagerResourceVariable":
        copied = EagerResourceVariable(initial_value=self._read(), trainable=self._trainable,
                                       constraint=self._constraint, dtype=self._dtype,
                                       name=self._shared_name,
                                       synchronization=self._synchronization,
                                       aggregation=self._aggregation)
        memo[id(self)] = copied
        return copied

    def __copy__(self) -> "EagerResourceVariable":
        return self

    def __reduce__(self) -> Any:
        return (_rebuild, (self.numpy(), self._trainable, self._shared_name))


def _lift_value(t: Tensor) -> Any:
    """A graph tensor given as a variable's initial value while a tf.function traces:
    its constant value (TF lifts the initializer out of the function)."""
    from tf1compat.framework.constant_value import constant_value
    value = constant_value(t)
    if value is None:
        from tf1compat.framework.constant_value import _evaluate
        value = _evaluate(t, 1 << 30)
    if value is None:
        raise NotImplementedError(
            f"Creating a variable inside a tf.function from the non-constant tensor {t.name} "
            "is not supported by tf1compat; pass a callable initial value (or create the "
            "variable outside the function)")
    return value


def _rebuild(value: Any, trainable: bool, name: str) -> Any:
    from tf1compat.variables.variables import Variable
    return Variable(value, trainable=trainable, name=name)


class _EagerUnreadVariable(EagerResourceVariable):
    """What an eager variable's assign returns: the same variable, read when used."""

    def __init__(self, parent: EagerResourceVariable):   # noqa: D107 - no super().__init__
        self.__dict__.update({k: v for k, v in parent.__dict__.items()
                              if not k.startswith("_tf1compat_tracking")})
        self._parent = parent

    @property
    def name(self) -> str:
        return "UnreadVariable"

    @property
    def op(self) -> None:
        """None, as TF's eager `_UnreadVariable.op` (the update ran; there is no op), so
        `assign_moving_average(...).op` works in eager code (Sonnet's BatchNorm)."""
        return None


