"""`tf.contrib.training.HParams`: named hyperparameters with types fixed at creation,
overridable from `"name=value,..."` strings (`parse`), dicts and JSON, and serialized as
`HParamDef` protos (`to_proto` / `from_proto`, also for the "hparams" collection of a
MetaGraphDef) (TF 1.15's hparam.py behaviour and error messages)."""

from __future__ import annotations

import json
import numbers
import re
from typing import Any, Callable, Dict, Optional

from tf1compat.framework.proto_functions import register_proto_function
from tf1compat.serialization.protos.hparam_pb2 import HParamDef

__all__ = ["HParamDef", "HParams", "parse_values"]

# name[index]=value or name=[v1,v2,...], separated by commas.
PARAM_RE = re.compile(r"""
  (?P<name>[a-zA-Z][\w\.]*)       # name: "var" or "x"
  (\[\s*(?P<index>\d+)\s*\])?     # optional index: "[1]"
  \s*=\s*
  ((?P<val>[^,\[]*)               # one value
   |
   \[(?P<vals>[^\]]*)\])          # a bracketed list of values
  ($|,\s*)""", re.VERBOSE)


def _parse_fail(name: str, var_type: type, value: Any, values: str) -> None:
    raise ValueError("Could not parse hparam '%s' of type '%s' with value '%s' in %s" %
                     (name, var_type.__name__, value, values))


def _reuse_fail(name: str, values: str) -> None:
    raise ValueError("Multiple assignments to variable '%s' in %s" % (name, values))


def _bool_parser(name: str, values: str) -> Callable[[str], bool]:
    def parse(value: str) -> bool:
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            _parse_fail(name, bool, value, values)
    return parse


def parse_values(values: str, type_map: Dict[str, type],
                 ignore_unknown: bool = False) -> Dict[str, Any]:
    """`"a=1,b=[1,2],c[0]=3"` -> `{"a": 1, "b": [1, 2], "c": {0: 3}}`, each value parsed
    with the type of its name in `type_map`."""
    results: Dict[str, Any] = {}
    pos = 0
    while pos < len(values):
        m = PARAM_RE.match(values, pos)
        if not m:
            raise ValueError("Malformed hyperparameter value: %s" % values[pos:])
        pos = m.end()
        groups = m.groupdict()
        name = groups["name"]
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError("Unknown hyperparameter type for %s" % name)
        type_ = type_map[name]
        parse = _bool_parser(name, values) if type_ == bool else type_
        if groups["val"] is not None:
            try:
                parsed = parse(groups["val"])
            except ValueError:
                _parse_fail(name, type_, groups["val"], values)
            if not groups["index"]:
                if name in results:
                    _reuse_fail(name, values)
                results[name] = parsed
            else:
                if name in results and not isinstance(results[name], dict):
                    _reuse_fail(name, values)
                indexed = results.setdefault(name, {})
                index = int(groups["index"])
                if index in indexed:
                    _reuse_fail("{}[{}]".format(name, index), values)
                indexed[index] = parsed
        elif groups["vals"] is not None:
            if groups["index"] is not None:
                raise ValueError("Assignment of a list to a list index.")
            if name in results:
                _reuse_fail(name, values)
            elements = [e for e in re.split("[ ,]", groups["vals"]) if e]
            try:
                results[name] = [parse(e) for e in elements]
            except ValueError:
                _parse_fail(name, type_, groups["vals"], values)
        else:
            _parse_fail(name, type_, "", values)
    return results


def _cast_to_type_if_compatible(name: str, param_type: type, value: Any) -> Any:
    fail = "Could not cast hparam '%s' of type '%s' from value %r" % (name, param_type, value)
    if type(value) == param_type:  # noqa: E721 - exact type, as TF (bool is an int)
        return value
    if issubclass(param_type, type(None)):
        return value
    if issubclass(param_type, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise ValueError(fail)
    if issubclass(param_type, bool) != isinstance(value, bool):
        raise ValueError(fail)
    if issubclass(param_type, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise ValueError(fail)
    if issubclass(param_type, numbers.Number) and not isinstance(value, numbers.Number):
        raise ValueError(fail)
    return param_type(value)


class HParams:
    """Hyperparameters as attributes: `HParams(learning_rate=0.1, layers=[64, 32])`."""

    _HAS_DYNAMIC_ATTRIBUTES = True

    def __init__(self, hparam_def: Any = None, model_structure: Any = None, **kwargs: Any):
        self._hparam_types: Dict[str, tuple] = {}
        self._model_structure = model_structure
        if hparam_def:
            self._init_from_proto(hparam_def)
            if kwargs:
                raise ValueError("hparam_def and initialization values are mutually "
                                 "exclusive")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def _init_from_proto(self, hparam_def: HParamDef) -> None:
        """The hyperparameters of an `HParamDef`: int64 as int, bytes as str."""
        assert isinstance(hparam_def, HParamDef)
        for name, value in hparam_def.hparam.items():
            kind = value.WhichOneof("kind")
            convert = {"int64": int, "bytes": _as_str}.get(kind.split("_")[0], _same)
            if kind.endswith("_value"):
                self.add_hparam(name, convert(getattr(value, kind)))
            else:
                self.add_hparam(name, [convert(v) for v in getattr(value, kind).value])

    def add_hparam(self, name: str, value: Any) -> None:
        """Adds a hyperparameter (its type: the value's, or its first element's)."""
        if getattr(self, name, None) is not None:
            raise ValueError("Hyperparameter name is reserved: %s" % name)
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError("Multi-valued hyperparameters cannot be empty: %s" % name)
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name: str, value: Any) -> None:
        """Sets an existing hyperparameter, checking the type."""
        param_type, is_list = self._hparam_types[name]
        if isinstance(value, list):
            if not is_list:
                raise ValueError("Must not pass a list for single-valued parameter: %s" % name)
            setattr(self, name, [_cast_to_type_if_compatible(name, param_type, v)
                                 for v in value])
        else:
            if is_list:
                raise ValueError("Must pass a list for multi-valued parameter: %s." % name)
            setattr(self, name, _cast_to_type_if_compatible(name, param_type, value))

    def del_hparam(self, name: str) -> None:
        """Removes a hyperparameter (no-op when absent)."""
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values: str) -> "HParams":
        """Overrides values from `"name=value,name=[v1,v2]"`."""
        type_map = {name: t for name, (t, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, type_map))

    def override_from_dict(self, values_dict: Dict[str, Any]) -> "HParams":
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_model_structure(self, model_structure: Any) -> None:
        self._model_structure = model_structure

    def get_model_structure(self) -> Any:
        return self._model_structure

    def to_json(self, indent: Optional[int] = None, separators: Any = None,
                sort_keys: bool = False) -> str:
        return json.dumps(self.values(), indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def parse_json(self, values_json: str) -> "HParams":
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> Dict[str, Any]:
        """The hyperparameters as a dict."""
        return {name: getattr(self, name) for name in self._hparam_types}

    def get(self, key: str, default: Any = None) -> Any:
        if key in self._hparam_types:
            if default is not None:
                param_type, is_list = self._hparam_types[key]
                type_str = "list<%s>" % param_type if is_list else str(param_type)
                fail = "Hparam '%s' of type '%s' is incompatible with default=%s" % (
                    key, type_str, default)
                if is_list != isinstance(default, list):
                    raise ValueError(fail)
                try:
                    for v in (default if isinstance(default, list) else [default]):
                        _cast_to_type_if_compatible(key, param_type, v)
                except ValueError as e:
                    raise ValueError("%s. %s" % (fail, e)) from None
            return getattr(self, key)
        return default

    @staticmethod
    def _get_kind_name(param_type: type, is_list: bool) -> str:
        """The `HParamType` field for values of `param_type` ("int64_list", ...)."""
        if issubclass(param_type, bool):  # before int: bool is an int subclass
            typename = "bool"
        elif issubclass(param_type, int):
            typename = "int64"
        elif issubclass(param_type, (str, bytes)):
            typename = "bytes"
        elif issubclass(param_type, float):
            typename = "float"
        else:
            raise ValueError("Unsupported parameter type: %s" % str(param_type))
        return typename + ("_list" if is_list else "_value")

    def to_proto(self, export_scope: Optional[str] = None) -> HParamDef:
        """The hyperparameters as an `HParamDef` (strings as UTF-8 bytes);
        `export_scope` is accepted and ignored, as in TF."""
        proto = HParamDef()
        for name, (param_type, is_list) in self._hparam_types.items():
            kind = HParams._get_kind_name(param_type, is_list)
            convert = _as_bytes if kind.startswith("bytes") else _same
            if is_list:
                getattr(proto.hparam[name], kind).value.extend(
                    [convert(v) for v in getattr(self, name)])
            else:
                setattr(proto.hparam[name], kind, convert(getattr(self, name)))
        return proto

    @staticmethod
    def from_proto(hparam_def: HParamDef, import_scope: Optional[str] = None) -> "HParams":
        """`HParams(hparam_def=hparam_def)`; `import_scope` is ignored, as in TF."""
        return HParams(hparam_def=hparam_def)

    def __contains__(self, key: str) -> bool:
        return key in self._hparam_types

    def __str__(self) -> str:
        return ",".join(f"{key}={value}" for key, value in self.values().items())

    def __repr__(self) -> str:
        return "%s(%s)" % (type(self).__name__, str(sorted(self.values().items())))


def _same(value: Any) -> Any:
    return value


def _as_str(value: Any) -> str:
    return value.decode("utf-8") if isinstance(value, bytes) else value


def _as_bytes(value: Any) -> bytes:
    return value.encode("utf-8") if isinstance(value, str) else bytes(value)


register_proto_function("hparams", proto_type=HParamDef, to_proto=HParams.to_proto,
                        from_proto=HParams.from_proto)
