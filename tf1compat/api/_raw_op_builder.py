"""Builds `tf.raw_ops` functions (see tf1compat/api/raw_ops.py) from the op declarations.

`raw_op(name)` returns the `RawOp` for a TF op type: what it accepts is TF's, taken from
TF 2.21's raw op table (`_tf_raw_ops.py`, recorded by `scripts/record_raw_ops.py`): its
keyword parameters and the OpDef argument or attr each sets (TF renames a few:
`Sum(axis=...)` sets `reduction_indices`), attr defaults, types and constraints, and the
output names. A call goes through `apply_op` with the op's declaration, so it works in
graph and eager mode and infers type and length attrs from the inputs as every other op
does. The code lives here, apart from the namespace module, so that no helper name
(`Any`, ...) can shadow an op of the same name there.
"""

from __future__ import annotations

import collections
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from tf1compat.framework import context as _context
from tf1compat.framework import dtypes as _dtypes
from tf1compat.framework import op_def as _op_def
from tf1compat.framework.graph import apply_op
from tf1compat.framework.missing import MissingAPIError, UnimplementedAPIError
from tf1compat.framework.tensor import Tensor
from tf1compat.framework.tensor_shape import TensorShape, as_shape, unknown_shape

__all__ = ["RawOp", "raw_op", "callable_types"]

# Ops TF builds from function attrs: what tf1compat offers instead.
_FUNCTION_OPS_INSTEAD = {
    "If": "tf.cond", "StatelessIf": "tf.cond", "Case": "tf.case or tf.switch_case",
    "While": "tf.while_loop", "StatelessWhile": "tf.while_loop",
    "SymbolicGradient": "tf.gradients",
    "BatchFunction": "tf.nondifferentiable_batch_function",
}


class _Param:
    """One keyword parameter of a raw op function."""

    __slots__ = ("keyword", "target", "default", "attr_type", "constraint", "is_list")

    def __init__(self, keyword: str, target: str, default: Any, attr_type: Optional[str],
                 constraint: Any, is_list: bool):
        self.keyword = keyword          # TF's Python name
        self.target = target            # the OpDef argument or attr it sets
        self.default = default          # Ellipsis: required
        self.attr_type = attr_type      # None for an input
        self.constraint = constraint    # int minimum or allowed strings, if any
        self.is_list = is_list


def _parse_entry(entry: tuple) -> Tuple[str, List[_Param], List[str]]:
    py_name, inputs, attrs, _inferred, outputs = entry
    params = []
    for text in inputs:
        is_list = text.endswith("*")
        keyword, _, target = text.rstrip("*").partition("=")
        params.append(_Param(keyword, target or keyword, ..., None, None, is_list))
    for attr in attrs:
        keyword, _, target = attr[0].partition("=")
        params.append(_Param(keyword, target or keyword, attr[1], attr[2],
                             attr[3] if len(attr) > 3 else None, False))
    return py_name, params, list(outputs)


def _missing_message(py_name: str, missing: Sequence[str]) -> str:
    """Python's own message for missing required arguments."""
    quoted = [f"'{m}'" for m in missing]
    if len(quoted) == 1:
        names = quoted[0]
    elif len(quoted) == 2:
        names = f"{quoted[0]} and {quoted[1]}"
    else:
        names = ", ".join(quoted[:-1]) + f", and {quoted[-1]}"
    plural = "argument" if len(quoted) == 1 else "arguments"
    return f"{py_name}() missing {len(quoted)} required positional {plural}: {names}"


# -- attr values, checked and converted as TF's op helper does ------------------------------

def _expected(kind: str, keyword: str, value: Any) -> TypeError:
    return TypeError(f"Expected {kind} for argument '{keyword}' not {value!r}.")


def _as_bool(value: Any, keyword: str) -> bool:
    if not isinstance(value, bool):
        raise _expected("bool", keyword, value)
    return value


def _as_int(value: Any, keyword: str) -> int:
    if isinstance(value, (str, bytes)):
        raise _expected("int", keyword, value)
    try:
        return int(value)
    except (TypeError, ValueError):
        raise _expected("int", keyword, value) from None


def _as_float(value: Any, keyword: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        raise _expected("float", keyword, value) from None


def _as_string(value: Any, keyword: str) -> str:
    if isinstance(value, bytes):
        return value.decode()
    if not isinstance(value, str):
        raise _expected("string", keyword, value)
    return value


def _as_type(value: Any, keyword: str) -> _dtypes.DType:
    try:
        return _dtypes.as_dtype(value).base_dtype
    except (TypeError, ValueError):
        raise _expected("DataType", keyword, value) from None


def _as_shape(value: Any, keyword: str) -> TensorShape:
    if value is None:
        return unknown_shape()
    try:
        return as_shape(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"Error converting {keyword} to a TensorShape: {e}.") from None


def _as_tensor_proto(value: Any, keyword: str) -> Any:
    if not hasattr(value, "tensor_shape"):
        raise TypeError(f"Don't know how to convert {value!r} to a TensorProto for argument "
                        f"'{keyword}'.")
    raise NotImplementedError(f"TensorProto values for attr '{keyword}' are not supported by "
                              "tf1compat's raw ops; use tf.constant.")


_SCALAR_KINDS: Dict[str, Callable[[Any, str], Any]] = {
    "bool": _as_bool, "int": _as_int, "float": _as_float, "string": _as_string,
    "type": _as_type, "shape": _as_shape, "tensor": _as_tensor_proto,
}


def _attr_value(op_type: str, py_name: str, param: _Param, value: Any) -> Any:
    kind = param.attr_type or ""
    if kind.startswith("list("):
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"Expected list for '{param.keyword}' argument to '{py_name}' "
                            f"Op, not {value!r}.")
        convert = _SCALAR_KINDS.get(kind[5:-1])
        out = [convert(v, param.keyword) if convert else v for v in value]
        if isinstance(param.constraint, int) and len(out) < param.constraint:
            raise ValueError(f"Attr '{param.target}' of '{op_type}' Op passed list of "
                             f"length {len(out)} less than minimum {param.constraint}.")
        return out
    convert = _SCALAR_KINDS.get(kind)
    out = convert(value, param.keyword) if convert else value
    if kind == "int" and isinstance(param.constraint, int) and out < param.constraint:
        raise ValueError(f"Attr '{param.target}' of '{op_type}' Op passed {out} less than "
                         f"minimum {param.constraint}.")
    if kind == "string" and isinstance(param.constraint, tuple) and \
            out not in param.constraint:
        allowed = ", ".join(f'"{s}"' for s in param.constraint)
        raise ValueError(f"Attr '{param.target}' of '{op_type}' Op passed string '{out}' "
                         f"not in: {allowed}.")
    return out


def _tf_default(default: Any) -> Any:
    """A recorded default as a Python value ("dtype" and "tensor" defaults decoded)."""
    if isinstance(default, tuple) and default and default[0] == "dtype":
        return _dtypes.as_dtype(default[1])
    return default


def _is_tf_default(value: Any, default: Any) -> bool:
    default = _tf_default(default)
    if isinstance(default, _dtypes.DType):
        try:
            return _dtypes.as_dtype(value).base_dtype == default
        except (TypeError, ValueError):
            return False
    if isinstance(default, tuple):            # a tensor default (ImageSummary's bad_color)
        return False
    if isinstance(default, list) and isinstance(value, (list, tuple)):
        return list(value) == default
    return type(value) is type(default) and value == default


# -- the generated functions ---------------------------------------------------------------

class RawOp:
    """`tf.raw_ops.<OpType>`: calls the op with TF's keyword arguments (see the module)."""

    def __init__(self, op_type: str, entry: tuple, op_def: _op_def.OpDef):
        self.op_type = op_type
        self.py_name, self.params, self.outputs = _parse_entry(entry)
        self.op_def = op_def
        self.__name__ = op_type
        self.__qualname__ = op_type
        self.__doc__ = (op_def.doc or f"TF's raw op `{op_type}`.") + "\n\nKeyword arguments: " \
            + ", ".join(p.keyword for p in self.params) + ", name."
        self._by_keyword = {p.keyword: p for p in self.params}
        self._result_type: Optional[type] = None

    def __repr__(self) -> str:
        return f"<tf.raw_ops.{self.op_type}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if args:
            keys = [p.keyword for p in self.params] + ["name"]
            raise TypeError(f"{self.py_name} only takes keyword args (possible keys: {keys}). "
                            "Please pass these args as kwargs instead.")
        name = kwargs.pop("name", None)
        for keyword in kwargs:
            if keyword not in self._by_keyword:
                raise TypeError(f"{self.py_name}() got an unexpected keyword argument "
                                f"'{keyword}'")
        missing = [p.keyword for p in self.params if p.default is ... and p.keyword not in kwargs]
        if missing:
            raise TypeError(_missing_message(self.py_name, missing))
        removed = _recorded().REMOVED.get(self.op_type)
        if removed is not None:
            raise NotImplementedError(
                f"Op {self.op_type} is not available in GraphDef version "
                f"{_recorded().GRAPH_DEF_VERSION}. It has been removed in version "
                f"{removed[0]}. {removed[1]}.")
        inputs, attrs = self._inputs(kwargs), self._attrs(kwargs)
        counts = self._output_counts(inputs, attrs)
        return self._pack(apply_op(self.op_type, inputs, attrs, name), counts)

    def _inputs(self, kwargs: Dict[str, Any]) -> List[Any]:
        by_target = {p.target: p for p in self.params if p.attr_type is None}
        inputs = []
        for arg in self.op_def.inputs:
            param = by_target[arg.name]
            value = kwargs[param.keyword]
            if param.is_list and (isinstance(value, Tensor) or
                                  not isinstance(value, (list, tuple))):
                raise TypeError(f"Expected list for '{param.keyword}' argument to "
                                f"'{self.py_name}' Op, not {value!r}.")
            inputs.append(value)
        return inputs

    def _attrs(self, kwargs: Dict[str, Any]) -> Dict[str, Any]:
        declared = self.op_def.attrs
        attrs = {}
        for param in self.params:
            if param.attr_type is None:
                continue
            if param.keyword not in kwargs:
                # TF's default, also where a declaration has none or another one (a
                # raw op call means what TF's does).
                if param.target in declared and param.attr_type != "tensor":
                    attrs[param.target] = _attr_value(self.op_type, self.py_name, param,
                                                      _tf_default(param.default))
                continue
            value = _attr_value(self.op_type, self.py_name, param, kwargs[param.keyword])
            if param.target in declared:
                attrs[param.target] = value
            elif param.default is ...:
                pass    # required by TF, derived by tf1compat (a dataset's output_shapes)
            elif not _is_tf_default(value, param.default):
                raise NotImplementedError(
                    f"tf.raw_ops.{self.op_type}: tf1compat supports only the default value "
                    f"of attr '{param.keyword}' ({_tf_default(param.default)!r}), got "
                    f"{value!r}.")
        return attrs

    def _output_counts(self, inputs: List[Any], attrs: Dict[str, Any]) -> List[int]:
        """How many tensors each declared output argument has, from the attrs given or
        the lengths of the list inputs that set them (as TF infers them)."""
        lengths: Dict[str, int] = {}
        for spec, value in zip(self.op_def.inputs, inputs):
            for attr in (spec.number_attr, spec.type_list_attr):
                if attr is not None:
                    lengths[attr] = len(value)
        counts = []
        for spec in self.op_def.outputs:
            attr = spec.number_attr or spec.type_list_attr
            if attr is None:
                counts.append(1)
                continue
            value = attrs.get(attr, lengths.get(attr))
            if value is None:
                value = self.op_def.attrs[attr].default
            counts.append(value if isinstance(value, int) else len(value))
        return counts

    def _pack(self, op: Any, counts: List[int]) -> Any:
        """The op's outputs as TF's raw op returns them."""
        if not self.outputs:
            return None if _context.executing_eagerly() else op
        tensors = list(op.outputs)
        groups: Dict[str, Any] = {}
        start = 0
        for spec, count in zip(self.op_def.outputs, counts):
            groups[spec.name] = tensors[start:start + count] if spec.is_list else \
                tensors[start]
            start += count
        # An output TF has and tf1compat does not declare is a list tf1compat leaves empty
        # (ParseExampleV2's ragged outputs: tf1compat takes no ragged keys).
        values = [groups.get(o.rstrip("*"), []) for o in self.outputs]
        if len(values) == 1:
            return values[0]
        if self._result_type is None:
            result = collections.namedtuple(self.op_type, [o.rstrip("*") for o in self.outputs])
            result.__module__ = __name__
            self._result_type = result
        return self._result_type(*values)


# -- the table and the namespace's names ----------------------------------------------------

def _recorded() -> Any:
    """TF's recorded raw op table (imported on first use: it is large)."""
    from tf1compat.api import _tf_raw_ops
    return _tf_raw_ops


def _tf_table() -> Dict[str, tuple]:
    return _recorded().RAW_OPS


def _uses_functions(entry: tuple) -> bool:
    return any(attr[2] in ("func", "list(func)") for attr in entry[2])


_ALL_DECLARED: List[bool] = []


def _declare_all() -> None:
    """Imports every module of the packages that declare ops: a few declare theirs only
    when first used (`v[1:2].assign`'s StridedSliceAssign, tf.data's sparse components)."""
    if _ALL_DECLARED:
        return
    import importlib
    import pkgutil
    from tf1compat import data, ops
    for package in (ops, data):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)
    _ALL_DECLARED.append(True)


def callable_types() -> List[str]:
    """The op types `tf.raw_ops` can call: declared here and TF raw ops."""
    _declare_all()
    table = _tf_table()
    return [t for t in _op_def.registered_op_types()
            if t in table and not _uses_functions(table[t]) and t not in _FUNCTION_OPS_INSTEAD]


def raw_op(name: str) -> RawOp:
    """`tf.raw_ops.<name>`; the errors of a name TF has not, or tf1compat cannot call."""
    table = _tf_table()
    entry = table.get(name)
    if entry is None:
        import difflib
        close = difflib.get_close_matches(name, callable_types(), n=3)
        hint = f" Did you mean {', '.join('tf.raw_ops.' + c for c in close)}?" if close else ""
        raise MissingAPIError(f"tf.raw_ops.{name} is not an op of TensorFlow.{hint}")
    if _uses_functions(entry) or name in _FUNCTION_OPS_INSTEAD:
        instead = _FUNCTION_OPS_INSTEAD.get(name, "the tf.data or tf.* API that builds it")
        raise UnimplementedAPIError(
            f"tf.raw_ops.{name} takes TF function attrs, which tf1compat does not build from "
            f"raw op calls; use {instead} instead.")
    if name not in _op_def.registered_op_types():
        _declare_all()
    try:
        op_def = _op_def.get_op_def(name)
    except NotImplementedError:
        raise UnimplementedAPIError(f"tf.raw_ops.{name} is a TensorFlow op that tf1compat "
                                    "does not implement.") from None
    return RawOp(name, entry, op_def)
