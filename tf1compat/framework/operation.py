"""`tf.Operation`: a node of the graph, with TF's op type, attrs, inputs and outputs."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Dict, Iterator, List

import numpy as np

from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework.tensor import Tensor, _session_for
from tf1compat.framework.tensor_shape import TensorShape

if TYPE_CHECKING:
    from tf1compat.framework.graph import Graph
    from tf1compat.framework.op_def import OpDef

__all__ = ["Operation", "colocation_operation", "creation_site"]

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep


def creation_site(depth: int = 2) -> list:
    """The innermost stack frame outside tf1compat: where the user created an op.

    Stored as TF's `op.traceback` format, a list of (filename, lineno, name, line) tuples.
    Only the user's frame is kept: walking the whole stack would cost more than building
    the op itself.
    """
    frame = sys._getframe(depth)
    while frame is not None and frame.f_code.co_filename.startswith(_PACKAGE_DIR):
        frame = frame.f_back
    if frame is None:
        return []
    return [(frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name, None)]


class Operation:
    """A graph node, made by `Graph.create_op` (through `_new`) or by TF 1.x's raw
    constructor `tf.Operation(node_def, g, inputs, output_types, ...)`
    (framework/raw_operation.py)."""

    __slots__ = ("_graph", "_id", "_name", "_type", "_op_def", "_inputs", "_control_inputs",
                 "_control_outputs", "_outputs", "_attrs", "_device", "_traceback",
                 "_control_flow_context", "_original_op", "__weakref__",
                 "__dict__")  # TF's operations take any attribute a library sets

    def __init__(self, node_def: Any, g: "Graph", inputs: Any = None, output_types: Any = None,
                 control_inputs: Any = None, input_types: Any = None, original_op: Any = None,
                 op_def: Any = None):
        from tf1compat.framework.raw_operation import init_from_node_def
        init_from_node_def(self, node_def, g, inputs, output_types, control_inputs,
                           input_types, original_op, op_def)

    @classmethod
    def from_node_def(cls, node_def: Any, g: "Graph", inputs: Any = None,
                      output_types: Any = None, control_inputs: Any = None,
                      input_types: Any = None, original_op: Any = None,
                      op_def: Any = None) -> "Operation":
        """TF 2's name for the raw constructor `tf.Operation(node_def, g, ...)`."""
        return cls(node_def, g, inputs, output_types, control_inputs, input_types,
                   original_op, op_def)

    @classmethod
    def _new(cls, graph: "Graph", op_id: int, name: str, op_def: "OpDef",
             inputs: List[Tensor], attrs: dict, output_specs: list,
             control_inputs: List["Operation"], traceback: list) -> "Operation":
        """The graph's constructor: an op whose inputs, attrs and output specs are bound."""
        op = cls.__new__(cls)
        op._setup(graph, op_id, name, op_def, inputs, attrs, output_specs, control_inputs,
                  traceback)
        return op

    def _setup(self, graph: "Graph", op_id: int, name: str, op_def: "OpDef",
               inputs: List[Tensor], attrs: dict, output_specs: list,
               control_inputs: List["Operation"], traceback: list) -> None:
        self._graph = graph
        self._id = op_id
        self._name = name
        self._type = op_def.type
        self._op_def = op_def
        self._inputs = list(inputs)
        self._control_inputs = list(control_inputs)
        self._control_outputs: list = []
        self._attrs = attrs
        self._device = ""
        self._traceback = traceback
        self._control_flow_context = None
        self._original_op = None
        self._outputs = [Tensor(self, i, dtype, shape)
                         for i, (dtype, shape) in enumerate(output_specs)]
        for t in self._inputs:
            t._consumers.append(self)
        for c in self._control_inputs:
            c._control_outputs.append(self)

    # -- identity ------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    @property
    def type(self) -> str:
        return self._type

    @property
    def graph(self) -> "Graph":
        return self._graph

    @property
    def op_def(self) -> Any:
        """TF's OpDef of this op's type (a read-only view of its declaration)."""
        from tf1compat.framework.op_def_view import op_def_view
        return op_def_view(self)

    @property
    def device(self) -> str:
        return self._device

    @property
    def traceback(self) -> list:
        return self._traceback

    # -- edges ---------------------------------------------------------------------
    @property
    def inputs(self) -> list:
        return list(self._inputs)

    @property
    def attrs(self) -> Dict[str, Any]:
        """The op's attr values as Python values (what kernels and rules read; TF's
        `get_attr` returns them in TF's Python forms)."""
        return self._attrs

    @property
    def outputs(self) -> list:
        return list(self._outputs)

    def values(self) -> tuple:
        return tuple(self._outputs)

    @property
    def control_inputs(self) -> list:
        return list(self._control_inputs)

    @property
    def _control_outputs_list(self) -> list:
        return list(self._control_outputs)

    def _add_control_input(self, op: "Operation") -> None:
        if op not in self._control_inputs:
            self._control_inputs.append(op)
            op._control_outputs.append(self)
            self._graph._structure_changed()

    def _add_control_inputs(self, ops: list) -> None:
        for op in ops:
            self._add_control_input(op)

    def _remove_all_control_inputs(self) -> None:
        for op in self._control_inputs:
            op._control_outputs.remove(self)
        self._control_inputs = []
        self._graph._structure_changed()

    def _add_input(self, tensor: Tensor, dtype: Any = None) -> None:
        """TF 1.x's (before its C API) way to give a raw-constructed op its next input;
        `set_shapes_for_outputs` infers the output shapes once all are there."""
        from tf1compat.framework.raw_operation import add_input
        add_input(self, tensor, dtype)

    @property
    def _output_types(self) -> list:
        """The outputs' DataType enums (ints), as TF 1.x's private property."""
        return [t.dtype.as_datatype_enum for t in self._outputs]

    def _update_input(self, index: int, tensor: Tensor) -> None:
        old = self._inputs[index]
        old._consumers.remove(self)
        self._inputs[index] = tensor
        tensor._consumers.append(self)
        self._graph._structure_changed()

    # -- attrs -----------------------------------------------------------------------
    def get_attr(self, name: str) -> Any:
        """An attr value in TF's Python form (DType, TensorShape, bytes for strings, ...)."""
        try:
            value = self._attrs[name]
        except KeyError:
            raise ValueError(f"Operation {self._name!r} has no attr named {name!r}.") from None
        return _attr_to_python(value)

    def _get_attr_raw(self, name: str, default: Any = None) -> Any:
        return self._attrs.get(name, default)

    def _set_attr(self, name: str, value: Any) -> None:
        self._attrs[name] = value

    @property
    def node_def(self) -> "NodeDef":
        return NodeDef(self)

    def colocation_groups(self) -> list:
        groups = self._attrs.get("_class")
        if groups:
            return list(groups)
        return [f"loc:@{self._name}".encode()]

    def _set_device(self, device: Any) -> None:
        from tf1compat.framework.device_spec import canonical_name
        self._device = canonical_name(device)

    def _set_device_from_string(self, device_str: str) -> None:
        """TF's fast path of `_set_device` for a device string."""
        self._set_device(device_str)

    # -- running -------------------------------------------------------------------
    def run(self, feed_dict: Any = None, session: Any = None) -> None:
        """Runs this op in `session` (or the default session)."""
        session = _session_for(self._graph, session, "operation")
        session.run(self, feed_dict=feed_dict)

    def _get_control_flow_context(self) -> Any:
        return self._control_flow_context

    def _set_control_flow_context(self, ctx: Any) -> None:
        self._control_flow_context = ctx

    def __repr__(self) -> str:
        return f"<tf.Operation '{self._name}' type={self._type}>"

    def __str__(self) -> str:
        return str(self.node_def)

    def __reduce__(self):
        raise TypeError(f"Operation {self._name} cannot be pickled")


def _attr_to_python(value: Any) -> Any:
    if isinstance(value, str):
        return value.encode()
    if isinstance(value, list):
        return [_attr_to_python(v) for v in value]
    return value


class NodeDef:
    """A NodeDef-shaped view of an Operation (name, op, input, device, attr).

    `attr` maps each attr name to its `AttrValue` protobuf, as TF's NodeDef does
    (`node.attr["dtype"].type`, `node.attr["value"].tensor`), converted when first read;
    `attr_values` holds the op's attrs as Python values. TF's `as_graph_def()` is a copy
    that scripts edit before freezing (facenet's freeze_graph turns AssignSub into Sub and
    deletes its `use_locking`): a changed `op`, `input` or `device` and deleted attrs are
    `edits()`, which the GraphDef written from the views carries; the Operation is never
    changed."""

    def __init__(self, op: Operation):
        self.name = op._name
        self.op = op._type
        self.device = op._device
        self.input = [t._as_node_def_input() for t in op._inputs] + [
            "^" + c._name for c in op._control_inputs]
        self.attr_values = dict(op._attrs)
        self.attr = AttrProtos(self.attr_values, op._type, op._name)
        self._op = op
        self._original = (self.op, list(self.input), self.device)

    def __deepcopy__(self, memo: dict) -> "NodeDef":
        """A copy to edit and hand to `tf.Operation(node_def, ...)`: the same op behind
        it, its own attr values and AttrValue protos."""
        import copy
        new = copy.copy(self)
        new.input = list(self.input)
        new.attr_values = dict(self.attr_values)
        new.attr = AttrProtos(new.attr_values, self.op, self.name)
        new.attr._protos = {k: copy.deepcopy(p, memo) for k, p in self.attr._protos.items()}
        new.attr.deleted = set(self.attr.deleted)
        return new

    def edits(self) -> dict | None:
        """What was changed on this view since it was made (None when nothing): the new
        op / input / device and the deleted attr names."""
        changed = {}
        for key, now, before in zip(("op", "input", "device"),
                                    (self.op, list(self.input), self.device), self._original):
            if now != before:
                changed[key] = now
        if self.attr.deleted:
            changed["deleted_attrs"] = sorted(self.attr.deleted)
        return changed or None

    def __str__(self) -> str:
        # TF prints the NodeDef proto's text form; ops without one (py_func) keep a summary.
        from tf1compat.framework.hooks import SERIALIZED_FORMS
        text = SERIALIZED_FORMS["node_def_text"](self._op)
        if text is not None:
            return text
        lines = [f'name: "{self.name}"', f'op: "{self.op}"']
        lines += [f'input: "{i}"' for i in self.input]
        if self.device:
            lines.append(f'device: "{self.device}"')
        for key in sorted(self.attr_values):
            lines.append(f"attr {{\n  key: \"{key}\"\n  value {{ "
                         f"{_attr_text(self.attr_values[key])} }}\n}}")
        return "\n".join(lines) + "\n"


class AttrProtos(Mapping):
    """A NodeDef view's `attr`: attr name -> AttrValue proto, each built on first read
    (through `hooks.SERIALIZED_FORMS["attr_proto"]`; a Const's value is typed by its
    dtype). Attrs with no proto form (a traced region's Python objects) raise TypeError.
    `del attr[name]` removes an attr from the view (a protobuf map's deletion)."""

    def __init__(self, values: Dict[str, Any], op_type: str, op_name: str):
        self._values = values
        self._op_type = op_type
        self._op_name = op_name
        self._protos: Dict[str, Any] = {}
        self.deleted: set = set()

    def __delitem__(self, key: str) -> None:
        del self._values[key]           # the view's own copy of the op's attrs
        self._protos.pop(key, None)
        self.deleted.add(key)

    def __getitem__(self, key: str) -> Any:
        proto = self._protos.get(key)
        if proto is None:
            from tf1compat.framework.hooks import SERIALIZED_FORMS
            value = self._values[key]
            hint = self._values.get("dtype") if self._op_type == "Const" and \
                key == "value" else None
            try:
                proto = SERIALIZED_FORMS["attr_proto"](value, hint)
            except (TypeError, NotImplementedError) as e:
                raise TypeError(f"attr {key!r} of op {self._op_name!r} ({self._op_type}) "
                                f"has no AttrValue form: {e}") from None
            self._protos[key] = proto
        return proto

    def __iter__(self) -> Iterator[str]:
        return iter(self._values)

    def __len__(self) -> int:
        return len(self._values)

    def __contains__(self, key: object) -> bool:
        return key in self._values


def _attr_text(value: Any) -> str:
    if isinstance(value, _dtypes.DType):
        return f"type: DT_{value.name.upper()}"
    if isinstance(value, TensorShape):
        return f"shape: {value}"
    if isinstance(value, bool):
        return f"b: {str(value).lower()}"
    if isinstance(value, int):
        return f"i: {value}"
    if isinstance(value, float):
        return f"f: {value}"
    if isinstance(value, (str, bytes)):
        return f"s: {value!r}"
    if isinstance(value, np.ndarray):
        return f"tensor: dtype={value.dtype} shape={list(value.shape)}"
    return f"{type(value).__name__}: {value!r}"[:200]


def colocation_operation(obj: Any) -> Operation:
    """The op `colocate_with(obj)` colocates with: an op, a tensor's op, or the op of
    what a graph element (a variable) stands for."""
    if isinstance(obj, Operation):
        return obj
    if isinstance(obj, Tensor):
        return obj.op
    if hasattr(obj, "op") and isinstance(obj.op, Operation):
        return obj.op
    if hasattr(obj, "_as_graph_element"):
        return colocation_operation(obj._as_graph_element())
    raise TypeError(f"Can not colocate with a {type(obj).__name__}")
