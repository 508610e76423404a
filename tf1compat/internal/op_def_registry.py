"""`tensorflow.python.framework.op_def_registry`: the OpDef protos of the op types
tf1compat declares, as TF's Python op registry hands them out.

TF 2.x's `get(name)` (the OpDef, None for an unknown type) and `sync()`; TF 1.15's
`get_registered_ops()` (name -> OpDef of every registered op). Libraries read an op's
signature through it: tensorflow_hub 0.7's native modules ask which op types are stateful
and take no inputs (VariableV2, HashTableV2, queues) to split a module's state graph from
its apply graphs, and it imports this module at `import tensorflow_hub`. Each proto is
built from the op's one declaration (`framework/op_def.py`) through the same view
`Operation.op_def` gives (`framework/op_def_view.py`), so both say the same; like TF's
Python registry, the protos carry no documentation. tf1compat has one registry, so
`sync` (which copies TF's C++ registry into the Python one) has nothing to copy.
Names, argument kinds, statefulness and attr names are TF's, and so are the attr types of
every declared op type TF registers (tests/test_op_def_attrs.py): an attr declared without
a kind (Const's `value`, a queue's `component_types`) takes the kind TF gives that attr
name. Attr minimums are TF's for count attrs (`N: int >= 0`, `N: int >= 1`); the other
minimums TF declares (`num_true: int >= 1`, `Tout: list(type) >= 0`) read as none.
"""

from __future__ import annotations

from typing import Dict, Optional

from tf1compat.framework import op_def as _op_def
from tf1compat.framework.op_def_view import ArgDefView, AttrDefView, OpDefView
from tf1compat.serialization.protos.graph_pb2 import OpDef
from tf1compat.serialization.tensor_proto import attr_to_proto

__all__ = ["get", "sync", "get_registered_ops"]

_CACHE: Dict[str, OpDef] = {}


def _arg_proto(view: ArgDefView, proto: OpDef.ArgDef) -> None:
    proto.name = view.name
    proto.type = view.type
    proto.type_attr = view.type_attr
    proto.number_attr = view.number_attr
    proto.type_list_attr = view.type_list_attr
    proto.is_ref = view.is_ref


def _attr_proto(view: AttrDefView, proto: OpDef.AttrDef) -> None:
    proto.name = view.name
    proto.type = view.type
    if view.HasField("default_value"):
        try:
            proto.default_value.CopyFrom(attr_to_proto(view.default_value))
        except TypeError:
            pass    # a default with no AttrValue form (a Python callable) is left unset
    proto.has_minimum = view.has_minimum
    proto.minimum = view.minimum
    if view.allowed_values is not None:
        proto.allowed_values.list.type.extend(t.as_datatype_enum for t in view.allowed_values)


def _to_proto(decl: _op_def.OpDef) -> OpDef:
    view = OpDefView(decl)
    proto = OpDef(name=view.name, is_stateful=view.is_stateful)
    for arg in view.input_arg:
        _arg_proto(arg, proto.input_arg.add())
    for arg in view.output_arg:
        _arg_proto(arg, proto.output_arg.add())
    for attr in view.attr:
        _attr_proto(attr, proto.attr.add())
    return proto


def get(name: str) -> Optional[OpDef]:
    """The OpDef of op type `name`, or None when tf1compat declares no such op."""
    if name not in _CACHE:
        if not _op_def.is_registered(name):
            return None
        _CACHE[name] = _to_proto(_op_def.get_op_def(name))
    return _CACHE[name]


def sync() -> None:
    """TF copies its C++ op registry into the Python one here; tf1compat's one registry
    already holds every op it declares."""


def get_registered_ops() -> Dict[str, OpDef]:
    """TF 1.15's name -> OpDef of every registered op type."""
    return {name: get(name) for name in _op_def.registered_op_types()}
