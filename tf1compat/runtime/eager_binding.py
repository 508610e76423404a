"""Binding eager op inputs: graph mode's rules, with TF eager's error classes.

As `framework/op_binding.bind_inputs` does for graph ops, Python values are converted
(with the type attr already inferred as the dtype), type attrs are inferred from the
first input using them and checked against their allowed types. Where graph mode raises
TypeError at graph build, TF eager raises InvalidArgumentError from the op ("cannot
compute AddV2 as input #1(zero-based) was expected to be a float tensor but is a int32
tensor [Op:AddV2]"), and so do these functions. `eager_error` maps kernel failures.
"""

from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple

from tf1compat.framework import dtypes as D
from tf1compat.framework import errors
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.op_binding import bind_inputs, graph_tensor_in_eager, preferred_dtype
from tf1compat.framework.tensor import Tensor
from tf1compat.runtime.eager_tensor import EagerTensor

__all__ = ["tf_type_name", "eager_error"]


# -- binding inputs (graph mode's rules, TF eager's error classes) ----------------------------

_TF_TYPE_NAMES = {
    D.float32: "float", D.float64: "double", D.float16: "half", D.bfloat16: "bfloat16",
    D.int8: "int8", D.int16: "int16", D.int32: "int32", D.int64: "int64", D.uint8: "uint8",
    D.uint16: "uint16", D.uint32: "uint32", D.uint64: "uint64", D.bool: "bool",
    D.string: "string", D.complex64: "complex64", D.complex128: "complex128",
    D.resource: "resource", D.variant: "variant",
}


def tf_type_name(dtype: D.DType) -> str:
    """TF's DataTypeString name ("float" for float32), used in its messages."""
    return _TF_TYPE_NAMES.get(dtype.base_dtype, dtype.base_dtype.name)


def _bind(op_def: _op_def.OpDef, inputs: Sequence[Any], attrs: dict,
          name: Optional[str]) -> Tuple[list, list]:
    """framework/op_binding.bind_inputs with TF eager's conversions and errors."""
    return bind_inputs(op_def, inputs, attrs, _convert_one, eager=True)


def _as_eager(t: Any) -> EagerTensor:
    if not getattr(t, "_is_eager_tensor", False):
        raise graph_tensor_in_eager(t)
    return t


def _convert_one(op_def: _op_def.OpDef, spec: _op_def.ArgSpec, value: Any, attrs: dict,
                 index: int, name: Optional[str] = None) -> EagerTensor:
    from tf1compat.framework.tensor_conversion import convert_to_tensor
    if spec.type_attr is not None:
        want = attrs.get(spec.type_attr)
        want = None if want is None else D.as_dtype(want)
    else:
        want = spec.fixed_dtype
    if spec.is_ref:
        raise TypeError(f"'{op_def.type}' Op requires that input '{spec.name}' be a mutable "
                        "tensor (e.g.: a tf.Variable); ref variables are not supported under "
                        "eager execution")
    if isinstance(value, Tensor):
        tensor = _as_eager(value)
    else:
        hint = preferred_dtype(op_def, spec, value) if want is None else None
        try:
            tensor = convert_to_tensor(value, dtype=want, preferred_dtype=hint)
        except (TypeError, ValueError):
            if want is None:
                raise
            # TF eager converts the value on its own, then reports the mismatch below.
            tensor = convert_to_tensor(value)
        tensor = _as_eager(tensor)
    base = tensor._dtype.base_dtype
    if spec.type_attr is not None:
        if want is None:
            attrs[spec.type_attr] = base
            kind = op_def.attrs[spec.type_attr]
            if kind.allowed is not None and base not in kind.allowed:
                allowed = ", ".join(tf_type_name(d) for d in kind.allowed)
                raise errors.InvalidArgumentError(
                    None, None, f"Value for attr '{spec.type_attr}' of {tf_type_name(base)} "
                                f"is not in the list of allowed values: {allowed}\n\t; "
                                f"NodeDef: {{{{node {op_def.type}}}}} [Op:{op_def.type}]")
            return tensor
    if want is not None and base != want:
        raise errors.InvalidArgumentError(
            None, None, f"cannot compute {op_def.type} as input #{index}(zero-based) was "
                        f"expected to be a {tf_type_name(want)} tensor but is a "
                        f"{tf_type_name(base)} tensor [Op:{op_def.type}] name: ")
    return tensor


# -- errors ------------------------------------------------------------------------------------

def eager_error(e: BaseException, op_type: str, name: Optional[str]) -> BaseException:
    """A kernel failure as TF eager reports it: an OpError ending in "[Op:<type>]"."""
    suffix = f" [Op:{op_type}]"
    if isinstance(e, errors.OpError):
        message = e.message
        if suffix not in message:
            message += suffix
        return type(e)(None, None, message)
    if isinstance(e, (KeyboardInterrupt, SystemExit, GeneratorExit)):
        return e
    cls, text = errors.from_python_exception(e)
    return cls(None, None, text + suffix)
