"""Keras dtype policies (`tf.keras.mixed_precision.Policy`, TF 1.15's
`tf.keras.mixed_precision.experimental.Policy`) and the autocast variables that make
`'mixed_float16'` / `'mixed_bfloat16'` layers work.

A layer built with a mixed policy keeps float32 variables (`layer.dtype`, its weights and
checkpoints) but computes in float16/bfloat16 (`layer.compute_dtype`): inside its call
each of its weights reads as the compute dtype (`AutoCastVariable`: the layer's attribute,
e.g. `layer.kernel`, wraps the float32 variable and casts when read inside a layer call).
Inputs are cast by layers that cast their own (Dense), or by every layer under V2 dtype
behaviour, as in tf-keras. Optimizers, `get_weights` and savers see
the float32 variables. `set_global_policy` needs V2 dtype behaviour, as in tf-keras under
TF1 behaviour; then layers without a dtype take the global policy.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Dict, Iterator, Optional

from tf1compat.framework import dtypes as D
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_conversion import (convert_to_tensor,
                                                   register_tensor_conversion_function)
from tf1compat.runtime import mixed_precision_state
from tf1compat.util import nest
from tf1compat.util import tf_logging as logging

__all__ = ["Policy", "global_policy", "set_global_policy", "AutoCastVariable",
           "set_layer_dtype", "cast_inputs", "autocast_scope", "maybe_autocast_weight",
           "serialize_dtype"]

_MIXED = {"mixed_float16": "float16", "mixed_bfloat16": "bfloat16"}


class Policy:
    """A dtype policy: `Policy('mixed_float16')` computes in float16 with float32
    variables; `Policy('float32')` (any dtype name) uses that dtype for both; `'_infer'`
    takes the dtype of the first input (TF1 layers' default)."""

    def __init__(self, name: str):
        if isinstance(name, D.DType):
            raise TypeError("'name' must be a string, not a DType. Instead, pass "
                            f"DType.name. Got: {name.name}")
        if not isinstance(name, str):
            raise TypeError(f"'name' must be a string, but got: {name}")
        self._name = name
        if name in _MIXED:
            self._compute_dtype, self._variable_dtype = _MIXED[name], "float32"
        elif name == "_infer":
            self._compute_dtype = self._variable_dtype = None
        else:
            try:
                dtype = D.as_dtype(name).name
            except TypeError:
                raise ValueError(f"Cannot convert value {name} to a mixed precision Policy. "
                                 "Valid policies include 'mixed_float16', 'mixed_bfloat16', "
                                 "and the name of any dtype such as 'float32'.") from None
            self._compute_dtype = self._variable_dtype = dtype

    @property
    def name(self) -> str:
        return self._name

    @property
    def compute_dtype(self) -> Optional[str]:
        return self._compute_dtype

    @property
    def variable_dtype(self) -> Optional[str]:
        return self._variable_dtype

    @property
    def is_mixed(self) -> bool:
        return self._name in _MIXED

    def __repr__(self) -> str:
        return f'<Policy "{self._name}">'

    def get_config(self) -> Dict[str, Any]:
        return {"name": self._name}

    @classmethod
    def from_config(cls, config: Dict[str, Any], custom_objects: Any = None) -> "Policy":
        return cls(config["name"])


_GLOBAL: Optional[Policy] = None


def global_policy() -> Policy:
    """The policy layers without a dtype use: the one set by `set_global_policy`, else
    `floatx()` under V2 dtype behaviour and `'_infer'` otherwise."""
    from tf1compat.keras import backend
    from tf1compat.keras.engine import base_layer
    if _GLOBAL is not None:
        return _GLOBAL
    return Policy(backend.floatx() if base_layer._V2_DTYPE_BEHAVIOR else "_infer")


def set_global_policy(policy: Any) -> None:
    """Sets the global policy (a Policy, a policy name, or None for the default)."""
    global _GLOBAL
    from tf1compat.keras.engine import base_layer
    if not base_layer._V2_DTYPE_BEHAVIOR:
        raise ValueError("The global policy can only be set in TensorFlow 2 or if V2 dtype "
                         "behavior has been set. To enable V2 dtype behavior, call "
                         '"tf.compat.v1.keras.layers.enable_v2_dtype_behavior()"')
    if policy is not None and not isinstance(policy, Policy):
        policy = Policy(policy)
    is_mixed = policy is not None and policy.is_mixed
    if is_mixed and mixed_precision_state.is_graph_rewrite_enabled():
        raise ValueError("The global dtype policy cannot be set to \"{}\", because the mixed "
                         "precision graph rewrite has already been enabled.\nAt most, one of "
                         "the following can be called:\n\n  1. tf.compat.v1.train."
                         "experimental.enable_mixed_precision_graph_rewrite() (You called "
                         "this first)\n  2. tf.keras.mixed_precision.set_global_policy() with "
                         "a mixed precision policy (You called this second)\n\nYou called "
                         "both functions, which is an error, because both functions enable "
                         "you to use mixed precision. If in doubt which function to use, use "
                         "the second, as it supports Eager execution and is more "
                         "customizable.".format(policy.name))
    _GLOBAL = policy
    mixed_precision_state.set_using_mixed_precision_policy(is_mixed)


# -- autocast variables ----------------------------------------------------------------------

_local = threading.local()


def _cast_dtype() -> Optional[D.DType]:
    return getattr(_local, "dtype", None)


@contextlib.contextmanager
def _enable_autocast(dtype: Optional[D.DType]) -> Iterator[None]:
    previous = _cast_dtype()
    _local.dtype = dtype
    try:
        yield
    finally:
        _local.dtype = previous


class AutoCastVariable:
    """A float32 variable that reads as the enclosing mixed layer's compute dtype inside
    its call; everything else (name, shape, assign, initializer, ...) is the variable's."""

    def __init__(self, variable: Any):
        object.__setattr__(self, "_variable", variable)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._variable, name)

    @property
    def dtype(self) -> D.DType:
        target = _cast_dtype()
        return target if target is not None else self._variable.dtype

    @property
    def true_dtype(self) -> D.DType:
        return self._variable.dtype

    def value(self) -> Tensor:
        return self._read()

    def read_value(self) -> Tensor:
        return self._read()

    def _read(self) -> Tensor:
        from tf1compat.ops.math_ops import cast
        target = _cast_dtype()
        value = self._variable.value()
        return value if target is None or target == value.dtype.base_dtype \
            else cast(value, target)

    def _dense_var_to_tensor(self, dtype: Any = None, name: Any = None,
                             as_ref: bool = False) -> Tensor:
        if as_ref:
            return convert_to_tensor(self._variable, dtype=dtype, name=name, as_ref=True)
        value = self._read()
        if dtype is not None and not D.as_dtype(dtype).is_compatible_with(value.dtype):
            raise ValueError(f"Incompatible type conversion requested to type "
                             f"{D.as_dtype(dtype).name} for AutoCastVariable which is casted "
                             f"to type {value.dtype.name}")
        return value

    def __repr__(self) -> str:
        return (f"<AutoCastVariable '{self._variable.name}' shape={self._variable.shape} "
                f"dtype={self._variable.dtype.name} dtype_to_cast_to="
                f"{(_cast_dtype() or self._variable.dtype).name}>")


def _operators() -> None:
    """Operators act on the (cast) value, as on a variable."""
    for operator in Tensor.OVERLOADABLE_OPERATORS:
        if operator in ("__eq__", "__ne__"):
            continue
        tensor_operator = getattr(Tensor, operator)

        def run(self: AutoCastVariable, *args: Any, _op: Any = tensor_operator) -> Any:
            return _op(self._read(), *args)
        run.__name__ = operator
        setattr(AutoCastVariable, operator, run)


_operators()
register_tensor_conversion_function(
    AutoCastVariable, lambda v, dtype=None, name=None, as_ref=False:
    v._dense_var_to_tensor(dtype=dtype, name=name, as_ref=as_ref))


# -- the layer hooks (engine/base_layer.py) --------------------------------------------------

def _policy_from(dtype: Any) -> Optional[Policy]:
    if isinstance(dtype, Policy):
        return dtype
    if isinstance(dtype, dict) and dtype.get("class_name") == "Policy":
        return Policy(dtype["config"]["name"])
    if isinstance(dtype, str) and dtype in _MIXED:
        return Policy(dtype)
    return None


def set_layer_dtype(layer: Any, dtype: Any) -> None:
    """Sets `layer._dtype` (the variables' dtype name or None) and `layer._policy` (a
    mixed Policy or None) from the constructor's `dtype`."""
    from tf1compat.keras import backend
    policy = _policy_from(dtype)
    if policy is None and not dtype and getattr(layer, "_v2_dtype_behavior", False):
        policy = _GLOBAL
        dtype = backend.floatx() if policy is None else policy.variable_dtype
    if isinstance(dtype, dict):
        dtype = dtype.get("config", {}).get("name")
    if policy is not None and policy.is_mixed:
        if policy.compute_dtype == "float16":
            _warn_without_gpu(policy)
        layer._policy = policy
        layer._dtype = policy.variable_dtype
        return
    layer._policy = None
    layer._dtype = D.as_dtype(dtype).name if dtype else None


def _warn_without_gpu(policy: Policy) -> None:
    import torch
    if not torch.cuda.is_available() and not getattr(_local, "warned", False):
        _local.warned = True
        logging.warning(f"The dtype policy {policy.name} may run slowly because this machine "
                        "does not have a GPU. Only Nvidia GPUs with compute capability of at "
                        "least 7.0 run quickly with mixed_float16.")


def layer_policy(layer: Any) -> Policy:
    policy = getattr(layer, "_policy", None)
    return policy if policy is not None else Policy(layer._dtype or "_infer")


def compute_dtype(layer: Any) -> Optional[str]:
    policy = getattr(layer, "_policy", None)
    return policy.compute_dtype if policy is not None else layer._dtype


def cast_inputs(layer: Any, inputs: Any) -> Any:
    """Floating inputs cast to the layer's compute dtype under V2 dtype behaviour (under
    TF1's, as in tf-keras, only layers that cast their own inputs, such as Dense, do)."""
    if not (getattr(layer, "_v2_dtype_behavior", False) and layer._autocast and
            layer._dtype):
        return inputs
    target = D.as_dtype(compute_dtype(layer))
    if not target.is_floating:
        return inputs
    from tf1compat.ops.math_ops import cast

    def maybe_cast(x: Any) -> Any:
        if isinstance(x, Tensor) and x.dtype.is_floating and x.dtype != target:
            return cast(x, target)
        return x
    return nest.map_structure(maybe_cast, inputs)


def autocast_scope(layer: Any) -> Any:
    """The context of a layer's call: its AutoCastVariables read as its compute dtype
    (nothing to do when neither this layer nor an enclosing one is mixed)."""
    if getattr(layer, "_policy", None) is None and _cast_dtype() is None:
        return contextlib.nullcontext()
    dtype = compute_dtype(layer)
    target = D.as_dtype(dtype) if dtype else None
    return _enable_autocast(target if target is not None and target.is_floating else None)


def maybe_autocast_weight(layer: Any, variable: Any) -> Any:
    """What `add_weight` returns: a mixed layer's floating weights wrapped to autocast."""
    if getattr(layer, "_policy", None) is None or not variable.dtype.is_floating:
        return variable
    return AutoCastVariable(variable)


def serialize_dtype(layer: Any) -> Any:
    """The `dtype` entry of a layer's config: a mixed policy's config, else its name."""
    policy = getattr(layer, "_policy", None)
    if policy is None:
        return layer._dtype
    return {"class_name": "Policy", "config": policy.get_config()}
