"""`Operation.op_def`: a read-only view of an op's declaration shaped like TF's OpDef proto.

TF code inspects `op.op_def.name`, `[a.name for a in op.op_def.input_arg]`,
`op.op_def.is_stateful`, the attrs' kinds and defaults. The view is built from the op's
one declaration (`framework/op_def.py`): argument specs become ArgDefs, `Type`/`TypeList`/
`Int` attrs and plain defaults become AttrDefs with TF's attr type names. A declared
default of None says nothing about the kind, so the attr value the op holds decides it
(an ndarray is a "tensor", a TensorShape a "shape", ...). `str()` prints the proto's text
format, as TF does. The views carry no documentation: TF's Python op registry has none.
"""

from __future__ import annotations

from typing import Any, List, Optional, Tuple

import numpy as np

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.op_def import REQUIRED, ArgSpec, Int, OpDef, Type, TypeList
from tf1compat.framework.tensor_shape import TensorShape

__all__ = ["OpDefView", "ArgDefView", "AttrDefView", "op_def_view"]


# The DataType enum's names where they differ from the dtype's name.
_ENUM_NAMES = {"float32": "DT_FLOAT", "float64": "DT_DOUBLE", "float16": "DT_HALF"}


def _enum_name(dtype: Any) -> str:
    name = _dtypes.as_dtype(dtype).base_dtype.name
    return _ENUM_NAMES.get(name, "DT_" + name.upper())


class ArgDefView:
    """One input or output argument (TF's OpDef.ArgDef)."""

    def __init__(self, spec: ArgSpec):
        self.name = spec.name
        self.type_attr = spec.type_attr or ""
        self.number_attr = spec.number_attr or ""
        self.type_list_attr = spec.type_list_attr or ""
        self.is_ref = spec.is_ref
        self.description = ""
        # TF's DataType enum value (0, DT_INVALID, when the type comes from an attr).
        self.type = spec.fixed_dtype.as_datatype_enum if spec.fixed_dtype is not None else 0
        self._fixed = spec.fixed_dtype

    def _lines(self) -> List[str]:
        out = [f'name: "{self.name}"']
        if self._fixed is not None:
            out.append(f"type: {_enum_name(self._fixed)}")
        for field in ("type_attr", "number_attr", "type_list_attr"):
            if getattr(self, field):
                out.append(f'{field}: "{getattr(self, field)}"')
        if self.is_ref:
            out.append("is_ref: true")
        return out

    def __repr__(self) -> str:
        return "\n".join(self._lines()) + "\n"


# TF's attr kind by attr name, for attrs declared with no kind or default (`"strides":
# None`). TF names its attrs consistently: across TF 2.21's 1910 registered ops each name
# below has this kind for all (or, for T, f and key, nearly all) of the attrs that carry
# it. Covers the names tf1compat declares untyped (scripts/record_op_def_attrs.py records
# TF's OpDefs; tests/test_op_def_attrs.py compares every declared op type with them).
_KIND_BY_NAME = {
    **dict.fromkeys(("T", "dtype", "element_dtype"), "type"),
    **dict.fromkeys(("component_types", "output_types", "ragged_split_types",
                     "ragged_value_types", "context_ragged_split_types",
                     "context_ragged_value_types", "feature_list_ragged_split_types",
                     "feature_list_ragged_value_types"), "list(type)"),
    **dict.fromkeys(("shape",), "shape"),
    **dict.fromkeys(("output_shapes", "shapes", "dense_shapes", "context_dense_shapes",
                     "feature_list_dense_shapes"), "list(shape)"),
    **dict.fromkeys(("strides", "ksize", "ksizes", "dilations", "rates",
                     "explicit_paddings", "squeeze_dims", "allowed_batch_sizes",
                     "low_priority_allowed_batch_sizes", "ngram_widths", "select_cols",
                     "subdiv_offsets", "wait_for"), "list(int)"),
    **dict.fromkeys(("k", "block_size", "num_true", "num_sampled", "range_max",
                     "num_buckets", "seq_dim", "stride", "window_size", "record_bytes",
                     "beam_width", "group_key", "group_size", "instance_key",
                     "max_batch_size", "num_batch_threads", "batch_timeout_micros",
                     "num_inner_iterations", "num_loss_partitions"), "int"),
    **dict.fromkeys(("l1", "l2"), "float"),
    **dict.fromkeys(("boundaries", "pooling_ratio", "unigrams"), "list(float)"),
    **dict.fromkeys(("unique", "has_known_shape"), "bool"),
    **dict.fromkeys(("dense_keys", "sparse_keys", "field_names", "allowed_devices"),
                    "list(string)"),
    **dict.fromkeys(("value", "bad_color"), "tensor"),
    **dict.fromkeys(("f", "body", "cond", "then_branch", "else_branch", "predicate",
                     "key_func", "init_func", "reduce_func", "finalize_func",
                     "window_size_func", "dataset_factory"), "func"),
    "branches": "list(func)",
}


def _value_kind(value: Any) -> Optional[str]:
    """TF's attr type name for a Python attr value (None when it cannot tell)."""
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, np.integer)):
        return "int"
    if isinstance(value, (float, np.floating)):
        return "float"
    if isinstance(value, (str, bytes)):
        return "string"
    if isinstance(value, _dtypes.DType):
        return "type"
    if isinstance(value, TensorShape):
        return "shape"
    if isinstance(value, np.ndarray):
        return "tensor"
    if isinstance(value, (list, tuple)) and value:
        inner = {_value_kind(v) for v in value}
        if len(inner) == 1 and None not in inner:
            return f"list({inner.pop()})"
    if callable(value) or hasattr(value, "graph"):
        return "func"
    return None


def _value_text(value: Any) -> List[str]:
    """The AttrValue text lines of a default value."""
    if isinstance(value, bool):
        return [f"b: {str(value).lower()}"]
    if isinstance(value, (int, np.integer)):
        return [f"i: {int(value)}"]
    if isinstance(value, (float, np.floating)):
        return [f"f: {float(value)!r}"]
    if isinstance(value, (str, bytes)):
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        return [f's: "{text}"']
    if isinstance(value, _dtypes.DType):
        return [f"type: {_enum_name(value)}"]
    if isinstance(value, TensorShape):
        if value.rank is None:
            return ["shape {", "  unknown_rank: true", "}"]
        dims = [f"  dim {{\n    size: {-1 if d is None else d}\n  }}" for d in value.as_list()]
        return ["shape {"] + [line for d in dims for line in d.split("\n")] + ["}"]
    if isinstance(value, (list, tuple)):
        inner = [line for v in value for line in _value_text(v)]
        return ["list {"] + ["  " + line for line in inner] + ["}"]
    return [f"# {value!r}"]


class AttrDefView:
    """One attr (TF's OpDef.AttrDef): name, TF type name, default, minimum, allowed values."""

    def __init__(self, name: str, kind: Any, held: Any):
        self.name = name
        self.description = ""
        self.has_minimum = False
        self.minimum = 0
        self.allowed_values: Optional[Tuple[Any, ...]] = None
        self._default: Any = REQUIRED
        if isinstance(kind, Type):
            self.type = "type"
            self.allowed_values = kind.allowed
            self._default = kind.default
        elif isinstance(kind, TypeList):
            self.type = "list(type)"
            self._default = kind.default
        elif isinstance(kind, Int):
            self.type = "int"
            # TF declares a bound on every count attr (`N: int >= 0` too).
            self.has_minimum = True
            self.minimum = kind.minimum
            self._default = kind.default
        else:
            # A kind-less declaration (None, REQUIRED) says nothing; TF's name for the
            # attr does, and then the value the op holds.
            self.type = (_value_kind(kind) or _KIND_BY_NAME.get(name)
                         or _value_kind(held) or "string")
            if kind is not None:
                self._default = kind

    @property
    def default_value(self) -> Any:
        """The default in TF's Python form (None when the attr is required)."""
        return None if self._default is REQUIRED else self._default

    def HasField(self, field: str) -> bool:  # noqa: N802 - protobuf's name
        if field == "default_value":
            return self._default is not REQUIRED
        if field == "allowed_values":
            return self.allowed_values is not None
        raise ValueError(f'Protocol message AttrDef has no singular "{field}" field.')

    def _lines(self) -> List[str]:
        out = [f'name: "{self.name}"', f'type: "{self.type}"']
        if self._default is not REQUIRED:
            out += ["default_value {"] + ["  " + s for s in _value_text(self._default)] + ["}"]
        if self.has_minimum:
            out += ["has_minimum: true", f"minimum: {self.minimum}"]
        if self.allowed_values is not None:
            types = [f"    type: {_enum_name(t)}" for t in self.allowed_values]
            out += ["allowed_values {", "  list {"] + types + ["  }", "}"]
        return out

    def __repr__(self) -> str:
        return "\n".join(self._lines()) + "\n"


class OpDefView:
    """TF's OpDef for one op type, from tf1compat's declaration of it."""

    def __init__(self, decl: OpDef, held_attrs: Optional[dict] = None):
        held_attrs = held_attrs or {}
        self.name = decl.type
        self.input_arg = [ArgDefView(a) for a in decl.inputs]
        self.output_arg = [ArgDefView(a) for a in decl.outputs]
        self.attr = [AttrDefView(n, k, held_attrs.get(n)) for n, k in decl.attrs.items()
                     if not n.startswith("_")]
        # Ops that update a variable through a ref input (Assign, Apply*) are declared
        # stateful so plans keep them; TF's OpDef says they are not (the ref does it).
        self.is_stateful = bool(decl.stateful) and not decl.ref_input_indices
        self.summary = ""
        self.description = ""
        self.is_commutative = False
        self.is_aggregate = False
        self.allows_uninitialized_input = False
        self.control_output: List[str] = []

    def __str__(self) -> str:
        lines = [f'name: "{self.name}"']
        for field in ("input_arg", "output_arg", "attr"):
            for item in getattr(self, field):
                lines += [f"{field} {{"] + ["  " + s for s in item._lines()] + ["}"]
        if self.is_stateful:
            lines.append("is_stateful: true")
        return "\n".join(lines) + "\n"

    __repr__ = __str__


def op_def_view(op: Any) -> OpDefView:
    """The OpDef view of Operation `op`."""
    return OpDefView(op._op_def, op._attrs)
