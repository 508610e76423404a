"""TensorBoard's protos (`tf.Summary`, `tf.Event`, `tf.HistogramProto`, ...) without protobuf.

Each message is a small class with TF's field names that legacy code builds by keyword
(`tf.Summary(value=[tf.Summary.Value(tag="loss", simple_value=0.5)])`) and serializes
(`SerializeToString`, `FromString`, `ParseFromString`) with the wire codec in
training/protobuf_wire.py, so the event files we write are read by TensorBoard.
"""

from __future__ import annotations

from typing import Any, Dict, List, Tuple

from tf1compat.training import protobuf_wire as wire

__all__ = ["Summary", "SummaryMetadata", "HistogramProto", "Event", "SessionLog",
           "LogMessage", "TaggedRunMetadata", "SUMMARY_SCHEMA", "EVENT_SCHEMA"]

PLUGIN_DATA = {1: ("plugin_name", "string", False), 2: ("content", "bytes", False)}
SUMMARY_METADATA = {1: ("plugin_data", PLUGIN_DATA, False), 2: ("display_name", "string", False),
                    3: ("summary_description", "string", False), 4: ("data_class", "enum", False)}
HISTOGRAM = {1: ("min", "double", False), 2: ("max", "double", False),
             3: ("num", "double", False), 4: ("sum", "double", False),
             5: ("sum_squares", "double", False), 6: ("bucket_limit", "double", True),
             7: ("bucket", "double", True)}
IMAGE = {1: ("height", "int32", False), 2: ("width", "int32", False),
         3: ("colorspace", "int32", False), 4: ("encoded_image_string", "bytes", False)}
AUDIO = {1: ("sample_rate", "float", False), 2: ("num_channels", "int64", False),
         3: ("length_frames", "int64", False), 4: ("encoded_audio_string", "bytes", False),
         5: ("content_type", "string", False)}
TENSOR_SHAPE = {2: ("dim", {1: ("size", "int64", False), 2: ("name", "string", False)}, True),
                3: ("unknown_rank", "bool", False)}
TENSOR = {1: ("dtype", "enum", False), 2: ("tensor_shape", TENSOR_SHAPE, False),
          3: ("version_number", "int32", False), 4: ("tensor_content", "bytes", False),
          5: ("float_val", "float", True), 6: ("double_val", "double", True),
          7: ("int_val", "int32", True), 8: ("string_val", "bytes", True),
          10: ("int64_val", "int64", True), 11: ("bool_val", "bool", True)}
VALUE = {7: ("node_name", "string", False), 1: ("tag", "string", False),
         9: ("metadata", SUMMARY_METADATA, False),
         # the members of Value's `oneof value` have explicit presence ("?")
         2: ("simple_value", "float?", False), 3: ("obsolete_old_style_histogram", "bytes?", False),
         4: ("image", IMAGE, False), 5: ("histo", HISTOGRAM, False), 6: ("audio", AUDIO, False),
         8: ("tensor", TENSOR, False)}
SUMMARY_SCHEMA = {1: ("value", VALUE, True)}
LOG_MESSAGE = {1: ("level", "enum", False), 2: ("message", "string", False)}
SESSION_LOG = {1: ("status", "enum", False), 2: ("checkpoint_path", "string", False),
               3: ("msg", "string", False)}
TAGGED_RUN_METADATA = {1: ("tag", "string", False), 2: ("run_metadata", "bytes", False)}
SUMMARY_DESCRIPTION = {1: ("type_hint", "string", False)}
EVENT_SCHEMA = {1: ("wall_time", "double", False), 2: ("step", "int64", False),
                3: ("file_version", "string?", False), 4: ("graph_def", "bytes?", False),
                5: ("summary", SUMMARY_SCHEMA, False), 6: ("log_message", LOG_MESSAGE, False),
                7: ("session_log", SESSION_LOG, False),
                8: ("tagged_run_metadata", TAGGED_RUN_METADATA, False),
                9: ("meta_graph_def", "bytes?", False)}


class _Message:
    """A protobuf-like message over a wire schema: keyword construction, nested messages,
    repeated fields as lists, (de)serialization."""

    _SCHEMA: Dict[int, Tuple[str, Any, bool]] = {}
    _NESTED: Dict[str, type] = {}

    def __init__(self, **fields: Any):
        names = {name: (kind, repeated) for name, kind, repeated in self._SCHEMA.values()}
        for name, (kind, repeated) in names.items():
            if repeated:
                default: Any = []
            elif isinstance(kind, dict):
                default = None
            else:
                default = None if kind.endswith("?") else wire._default(kind)
            object.__setattr__(self, name, default)
        for name, value in fields.items():
            if name not in names:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 "field.")
            setattr(self, name, value)

    def __setattr__(self, name: str, value: Any) -> None:
        if not any(name == n for n, _, _ in self._SCHEMA.values()):
            raise AttributeError(f'Assignment not allowed (no field "{name}" in protocol '
                                 f"message object).")
        cls = self._NESTED.get(name)
        if cls is not None and isinstance(value, dict):
            value = cls(**value)
        if isinstance(value, list) and cls is not None:
            value = [cls(**v) if isinstance(v, dict) else v for v in value]
        object.__setattr__(self, name, value)

    def __getattribute__(self, name: str) -> Any:
        value = object.__getattribute__(self, name)
        if value is None and name in type(self)._NESTED and not name.startswith("_"):
            # Reading an unset sub-message gives an empty one, as protobuf does.
            value = type(self)._NESTED[name]()
            object.__setattr__(self, name, value)
        return value

    def HasField(self, name: str) -> bool:  # noqa: N802 - protobuf API
        return object.__getattribute__(self, name) not in (None, [], "", b"", 0, 0.0, False)

    def _to_dict(self) -> Dict[str, Any]:
        out: Dict[str, Any] = {}
        for name, kind, repeated in self._SCHEMA.values():
            value = object.__getattribute__(self, name)
            if isinstance(value, _Message):
                value = value._to_dict()
            elif repeated and value and isinstance(value[0], _Message):
                value = [v._to_dict() for v in value]
            out[name] = value
        return out

    @classmethod
    def _from_dict(cls, data: Dict[str, Any]) -> "_Message":
        msg = cls()
        for name, value in data.items():
            sub = cls._NESTED.get(name)
            if sub is not None and isinstance(value, dict):
                value = sub._from_dict(value)
            elif sub is not None and isinstance(value, list):
                value = [sub._from_dict(v) for v in value]
            object.__setattr__(msg, name, value)
        return msg

    def SerializeToString(self) -> bytes:  # noqa: N802
        return wire.encode(self._to_dict(), self._SCHEMA)

    @classmethod
    def FromString(cls, data: bytes) -> "_Message":  # noqa: N802
        return cls._from_dict(wire.decode(data, cls._SCHEMA))

    def ParseFromString(self, data: bytes) -> None:  # noqa: N802
        parsed = type(self).FromString(data)
        for name, _, _ in self._SCHEMA.values():
            object.__setattr__(self, name, object.__getattribute__(parsed, name))

    def MergeFromString(self, data: bytes) -> None:  # noqa: N802
        parsed = type(self).FromString(data)
        for name, _, repeated in self._SCHEMA.values():
            value = object.__getattribute__(parsed, name)
            if repeated:
                getattr(self, name).extend(value)
            elif value not in (None, "", b"", 0, 0.0, False):
                object.__setattr__(self, name, value)

    def CopyFrom(self, other: "_Message") -> None:  # noqa: N802
        self.ParseFromString(other.SerializeToString())

    def __eq__(self, other: Any) -> bool:
        return type(self) is type(other) and self.SerializeToString() == \
            other.SerializeToString()

    def __repr__(self) -> str:
        fields = []
        for name, _, _ in self._SCHEMA.values():
            value = object.__getattribute__(self, name)
            if value not in (None, [], "", b"", 0, 0.0, False):
                fields.append(f"{name}: {value!r}")
        return "\n".join(fields)


class _PluginData(_Message):
    _SCHEMA = PLUGIN_DATA


class SummaryMetadata(_Message):
    _SCHEMA = SUMMARY_METADATA
    _NESTED = {"plugin_data": _PluginData}
    PluginData = _PluginData


class HistogramProto(_Message):
    _SCHEMA = HISTOGRAM


class _Image(_Message):
    _SCHEMA = IMAGE


class _Audio(_Message):
    _SCHEMA = AUDIO


class _Value(_Message):
    _SCHEMA = VALUE
    _NESTED = {"metadata": SummaryMetadata, "image": _Image, "histo": HistogramProto,
               "audio": _Audio}


class Summary(_Message):
    """`tf.Summary`: a list of tagged values."""
    _SCHEMA = SUMMARY_SCHEMA
    _NESTED = {"value": _Value}
    Value = _Value
    Image = _Image
    Audio = _Audio


class LogMessage(_Message):
    _SCHEMA = LOG_MESSAGE
    UNKNOWN, DEBUGGING, INFO, WARN, ERROR, FATAL = 0, 10, 20, 30, 40, 50


class SessionLog(_Message):
    _SCHEMA = SESSION_LOG
    STATUS_UNSPECIFIED, START, STOP, CHECKPOINT = 0, 1, 2, 3


class TaggedRunMetadata(_Message):
    _SCHEMA = TAGGED_RUN_METADATA


class SummaryDescription(_Message):
    """`tf.summary.SummaryDescription`: the type hint of a legacy TensorSummary."""
    _SCHEMA = SUMMARY_DESCRIPTION


class Event(_Message):
    """`tf.Event`: one record of an events file."""
    _SCHEMA = EVENT_SCHEMA
    _NESTED = {"summary": Summary, "log_message": LogMessage, "session_log": SessionLog,
               "tagged_run_metadata": TaggedRunMetadata}


def summary_tags(serialized: bytes) -> List[str]:
    return [v["tag"] for v in wire.decode(serialized, SUMMARY_SCHEMA)["value"]]
