"""`tf.nn.rnn_cell.RNNCell` and friends: the cell protocol legacy TF1 code builds on.

TF 1.15+ cells are tf.layers layers (TF's `legacy_cells`): a cell is a
`tf1compat.layers.base.Layer`, so its first call opens `variable_scope(None,
default_name=<snake-case class name>)` under the caller's variable scope and its weights
come from `tf.get_variable` there (`rnn/basic_lstm_cell/kernel:0`); later calls reuse them.
Ops are created in the scope's original name scope, which inside `dynamic_rnn`'s loop body
is `rnn/while/basic_lstm_cell/`.

Two entry points, as in TF:
* `RNNCell.__call__(inputs, state, scope=None)` (plain cells, MultiRNNCell, wrappers that
  do not override it) enters the given scope, or the variable scope current at the first
  call, with a custom getter that files every variable the cell reads in its weight lists;
* `LayerRNNCell.__call__` goes straight to the tf.layers call (the scope argument, if any,
  becomes the layer's scope).
"""

from __future__ import annotations

import collections
from typing import Any, Optional

from tf1compat.util import nest
from tf1compat.framework import dtypes as D
from tf1compat.framework.constant_op import constant
from tf1compat.framework.constant_value import constant_value
from tf1compat.framework.context import executing_eagerly
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.keras import backend
from tf1compat.layers import base as base_layer
from tf1compat.variables.collections import trainable_variables
from tf1compat.variables.variable_scope import get_variable_scope, variable_scope

__all__ = ["RNNCell", "LayerRNNCell", "LSTMStateTuple", "assert_like_rnncell",
           "concat_shape", "zero_state_tensors", "check_supported_dtypes",
           "check_rnn_cell_input_dtypes"]


def _hasattr(obj: Any, attr_name: str) -> bool:
    try:
        getattr(obj, attr_name)
    except AttributeError:
        return False
    return True


def assert_like_rnncell(cell_name: str, cell: Any) -> None:
    """Raises TF's TypeError when `cell` lacks part of the RNNCell protocol."""
    checks = [
        (_hasattr(cell, "output_size"), "'output_size' property is missing"),
        (_hasattr(cell, "state_size"), "'state_size' property is missing"),
        (_hasattr(cell, "get_initial_state") or _hasattr(cell, "zero_state"),
         "either 'zero_state' or 'get_initial_state' method is required"),
        (callable(cell), "is not callable"),
    ]
    failed = [message for ok, message in checks if not ok]
    if failed:
        raise TypeError(f"The argument {cell_name!r} ({cell}) is not an RNNCell: "
                        f"{', '.join(failed)}.")


def _as_1d(value: Any, what: str) -> tuple:
    """(int32 vector tensor or None, static list or None) for one side of `concat_shape`."""
    from tf1compat.ops.array_ops import expand_dims
    if isinstance(value, Tensor):
        static = constant_value(value)
        static = None if static is None else [int(v) for v in
                                              (static.reshape(-1).tolist()
                                               if hasattr(static, "reshape") else [static])]
        if value.shape.rank == 0:
            value = expand_dims(value, 0)
        elif value.shape.rank != 1:
            raise ValueError(f"{what} tensor must be either a scalar or vector, but received "
                             f"tensor: {value}")
        return value, static
    shape = TensorShape(value)
    static = shape.as_list() if shape.rank is not None else None
    tensor = constant(shape.as_list(), dtype=D.int32) if shape.is_fully_defined() else None
    return tensor, static


def concat_shape(prefix: Any, suffix: Any, static: bool = False) -> Any:
    """TF's rnn_cell_impl._concat: `prefix + suffix` as an int32 vector tensor, or (static)
    as a list with None for unknown sizes."""
    p, p_static = _as_1d(prefix, "Prefix")
    s, s_static = _as_1d(suffix, "suffix")
    if static:
        shape = TensorShape(p_static).concatenate(TensorShape(s_static))
        return shape.as_list() if shape.rank is not None else None
    if p is None or s is None:
        raise ValueError(f"Prefix or suffix can't be None. Received prefix = {prefix} and "
                         f"suffix = {suffix}")
    from tf1compat.ops.array_ops import concat
    return concat((p, s), 0)


def zero_state_tensors(state_size: Any, batch_size: Any, dtype: Any) -> Any:
    """Zeros of shape `[batch_size] + s` for each size `s` in `state_size`."""
    from tf1compat.ops.creation_ops import zeros

    def one(s: Any) -> Tensor:
        z = zeros(concat_shape(batch_size, s), dtype=dtype)
        if not executing_eagerly():
            z.set_shape(concat_shape(batch_size, s, static=True))
        return z
    return nest.map_structure(one, state_size)


def check_supported_dtypes(dtype: Any) -> None:
    if dtype is None:
        return
    dtype = D.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_complex):
        raise ValueError("RNN cell only supports floating point inputs, but received dtype: "
                         f"{dtype}")


def check_rnn_cell_input_dtypes(inputs: Any) -> None:
    for t in nest.flatten(inputs):
        check_supported_dtypes(t.dtype)


class RNNCell(base_layer.Layer):
    """`tf.nn.rnn_cell.RNNCell`: maps (inputs, state) to (output, new state).

    Subclasses define `state_size`, `output_size` and `call(inputs, state)`.
    """

    def __init__(self, trainable: bool = True, name: Optional[str] = None, dtype: Any = None,
                 **kwargs: Any):
        super().__init__(trainable=trainable, name=name, dtype=dtype, **kwargs)
        self._is_tf_rnn_cell = True

    def __call__(self, inputs: Any, state: Any, scope: Any = None) -> Any:
        """Runs the cell in `scope` (or the variable scope of its first call)."""
        if scope is not None:
            with variable_scope(scope, custom_getter=self._rnn_get_variable) as scope:
                return super().__call__(inputs, state, scope=scope)
        scope = getattr(self, "rnncell_scope", None)
        if scope is None:
            # Captured once: later calls (a loop body, the next static step) re-enter the
            # same scope, so the cell's variables are shared between them.
            scope = variable_scope(get_variable_scope(), custom_getter=self._rnn_get_variable)
            self.rnncell_scope = scope
        with scope:
            return super().__call__(inputs, state)

    def _rnn_get_variable(self, getter: Any, *args: Any, **kwargs: Any) -> Any:
        variable = getter(*args, **kwargs)
        parts = list(variable) if hasattr(variable, "_variable_list") else [variable]
        trainable_ids = {id(v) for v in trainable_variables()}
        trainable = id(parts[0]) in trainable_ids
        weights = self._trainable_weights if trainable else self._non_trainable_weights
        if all(variable is not v for v in weights):
            weights.append(variable)
        return variable

    @property
    def state_size(self) -> Any:
        """Size(s) of the state: an int, a TensorShape or a nested tuple of them."""
        raise NotImplementedError("Abstract method")

    @property
    def output_size(self) -> Any:
        """Size of the output: an int or a TensorShape."""
        raise NotImplementedError("Abstract method")

    def get_initial_state(self, inputs: Any = None, batch_size: Any = None,
                          dtype: Any = None) -> Any:
        """The zero state, sized from `inputs` or from `batch_size` and `dtype`."""
        from tf1compat.framework.tensor_conversion import convert_to_tensor
        from tf1compat.ops.array_ops import shape
        if inputs is not None:
            inputs = convert_to_tensor(inputs, name="inputs")
            if batch_size is not None:
                static = constant_value(batch_size) if isinstance(batch_size, Tensor) \
                    else batch_size
                if inputs.shape.as_list()[0] != static:
                    raise ValueError("batch size from input tensor is different from the "
                                     f"input param. Input tensor batch: "
                                     f"{inputs.shape.as_list()[0]}, batch_size: {batch_size}")
            if dtype is not None and inputs.dtype != dtype:
                raise ValueError("dtype from input tensor is different from the input param. "
                                 f"Input tensor dtype: {inputs.dtype}, dtype: {dtype}")
            batch_size = inputs.shape.as_list()[0] or shape(inputs)[0]
            dtype = inputs.dtype
        if batch_size is None or dtype is None:
            raise ValueError("batch_size and dtype cannot be None while constructing initial "
                             f"state: batch_size={batch_size}, dtype={dtype}")
        return self.zero_state(batch_size, dtype)

    def zero_state(self, batch_size: Any, dtype: Any) -> Any:
        """Zero-filled state tensor(s) under `<ClassName>ZeroState`."""
        with backend.name_scope(type(self).__name__ + "ZeroState"):
            return zero_state_tensors(self.state_size, batch_size, dtype)

    def get_config(self) -> dict:
        return base_layer.Layer.get_config(self)


class LayerRNNCell(RNNCell):
    """An RNNCell that is a plain tf.layers layer: `scope` becomes the layer's scope."""

    def __call__(self, inputs: Any, state: Any, scope: Any = None, *args: Any,
                 **kwargs: Any) -> Any:
        return base_layer.Layer.__call__(self, inputs, state, *args, scope=scope, **kwargs)


_LSTMStateTupleBase = collections.namedtuple("LSTMStateTuple", ("c", "h"))


class LSTMStateTuple(_LSTMStateTupleBase):
    """`tf.nn.rnn_cell.LSTMStateTuple(c, h)`: an LSTM's cell state and output."""

    __slots__ = ()

    @property
    def dtype(self) -> Any:
        c, h = self
        if c.dtype != h.dtype:
            raise TypeError(f"Inconsistent dtypes for internal state: {c.dtype} vs {h.dtype}")
        return c.dtype
