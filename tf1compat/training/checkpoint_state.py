"""The `checkpoint` state file and TF's checkpoint-management functions.

A checkpoint directory holds a small text file (default name `checkpoint`) in protobuf
text format, naming the latest checkpoint and the ones still kept:

    model_checkpoint_path: "model.ckpt-3"
    all_model_checkpoint_paths: "model.ckpt-2"
    all_model_checkpoint_paths: "model.ckpt-3"
    all_model_checkpoint_timestamps: 1700000000.5      # CheckpointManager writes these
    last_preserved_timestamp: 1699999000.25

This module writes it exactly as TF does (field order, escaping, float format), always
atomically, and reads it with a small text-format parser (no protobuf dependency). A
checkpoint "exists" if `<prefix>.safetensors` (tf1compat's format), `<prefix>.index`
(TF's V2 format) or the file `<prefix>` itself (TF's V1 format) does.
"""

from __future__ import annotations

import glob as _glob
import math
import os
import re
from typing import Any, Iterable, List, Optional

from tf1compat.util import tf_logging
from tf1compat.framework import errors
from tf1compat.training import checkpoint_format

__all__ = ["CheckpointState", "generate_checkpoint_state_proto", "update_checkpoint_state",
           "update_checkpoint_state_internal", "get_checkpoint_state", "latest_checkpoint",
           "checkpoint_exists", "checkpoint_exists_internal", "get_checkpoint_mtimes",
           "remove_checkpoint", "meta_graph_filename", "TextFormatParseError", "V1", "V2"]

# SaverDef.CheckpointFormatVersion values.
V1 = 1
V2 = 2

_FIELDS = ("model_checkpoint_path", "all_model_checkpoint_paths",
           "all_model_checkpoint_timestamps", "last_preserved_timestamp")


class CheckpointState:
    """TF's CheckpointState proto: where the latest and the kept checkpoints are."""

    __slots__ = _FIELDS

    def __init__(self, model_checkpoint_path: str = "",
                 all_model_checkpoint_paths: Optional[Iterable[str]] = None,
                 all_model_checkpoint_timestamps: Optional[Iterable[float]] = None,
                 last_preserved_timestamp: Optional[float] = None):
        self.model_checkpoint_path = model_checkpoint_path or ""
        self.all_model_checkpoint_paths: List[str] = list(all_model_checkpoint_paths or [])
        self.all_model_checkpoint_timestamps: List[float] = [
            float(t) for t in all_model_checkpoint_timestamps or []]
        self.last_preserved_timestamp = float(last_preserved_timestamp or 0.0)

    def __eq__(self, other: Any) -> bool:
        return isinstance(other, CheckpointState) and all(
            getattr(self, f) == getattr(other, f) for f in _FIELDS)

    def __ne__(self, other: Any) -> bool:
        return not self == other

    def to_text(self) -> str:
        """The text TF writes to the state file (`text_format.MessageToString`)."""
        return self._format(repr)

    def __str__(self) -> str:
        # TF's proto __str__ prints doubles in their shortest %g form ("1", not "1.0").
        return self._format(_short_double)

    __repr__ = __str__

    def _format(self, fmt_double: Any) -> str:
        lines = []
        if self.model_checkpoint_path:
            lines.append(f'model_checkpoint_path: "{_escape(self.model_checkpoint_path)}"')
        for p in self.all_model_checkpoint_paths:
            lines.append(f'all_model_checkpoint_paths: "{_escape(p)}"')
        for t in self.all_model_checkpoint_timestamps:
            lines.append(f"all_model_checkpoint_timestamps: {_double(t, fmt_double)}")
        t = self.last_preserved_timestamp
        if t != 0.0 or math.copysign(1.0, t) < 0:
            lines.append(f"last_preserved_timestamp: {_double(t, fmt_double)}")
        return "".join(line + "\n" for line in lines)


def _double(value: float, fmt: Any) -> str:
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return fmt(value)


def _short_double(value: float) -> str:
    text = "%.15g" % value
    return text if float(text) == value else "%.17g" % value


_ESCAPES = {9: "\\t", 10: "\\n", 13: "\\r", 34: '\\"', 39: "\\'", 92: "\\\\"}


def _escape(text: str) -> str:
    # Protobuf's CEscape with as_utf8: control characters octal, non-ASCII kept as is.
    out = []
    for ch in text:
        code = ord(ch)
        if code in _ESCAPES:
            out.append(_ESCAPES[code])
        elif code < 32 or code == 127:
            out.append("\\%03o" % code)
        else:
            out.append(ch)
    return "".join(out)


# -- text-format parsing --------------------------------------------------------------------

class TextFormatParseError(ValueError):
    """The state file is not a valid CheckpointState in protobuf text format."""


_TOKEN = re.compile(r"""
    (?P<space>\s+|\#[^\n]*)
  | (?P<string>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*')
  | (?P<number>[-+]?(?:inf(?:inity)?|nan|0[xX][0-9a-fA-F]+|
                   (?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[fF]?)
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<punct>[:\[\],;{}<>])
""", re.VERBOSE | re.IGNORECASE)

_SIMPLE_ESCAPES = {"a": 7, "b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11, "\\": 92,
                   "'": 39, '"': 34, "?": 63}


def _unescape(body: str, where: str) -> str:
    out = bytearray()
    i = 0
    while i < len(body):
        ch = body[i]
        if ch != "\\":
            out += ch.encode("utf-8")
            i += 1
            continue
        i += 1
        nxt = body[i]
        if nxt in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[nxt])
            i += 1
        elif nxt in "01234567":
            m = re.match(r"[0-7]{1,3}", body[i:])
            out.append(int(m.group(), 8) & 0xFF)
            i += len(m.group())
        elif nxt in "xX":
            m = re.match(r"[0-9a-fA-F]{1,2}", body[i + 1:])
            if not m:
                raise TextFormatParseError(f"{where} : Invalid escape sequence")
            out.append(int(m.group(), 16))
            i += 1 + len(m.group())
        else:
            raise TextFormatParseError(f"{where} : Invalid escape sequence: \\{nxt}")
    try:
        return out.decode("utf-8")
    except UnicodeDecodeError:
        raise TextFormatParseError(f"{where} : String field contains invalid UTF-8") from None


def _tokens(text: str) -> List[tuple]:
    out = []
    pos, line, line_start = 0, 1, 0
    while pos < len(text):
        m = _TOKEN.match(text, pos)
        where = f"{line}:{pos - line_start + 1}"
        if not m:
            raise TextFormatParseError(f"{where} : Unexpected character {text[pos]!r}.")
        kind = m.lastgroup
        if kind != "space":
            out.append((kind, m.group(), where))
        newlines = m.group().count("\n")
        if newlines:
            line += newlines
            line_start = m.start() + m.group().rindex("\n") + 1
        pos = m.end()
    return out


def _parse_number(token: tuple) -> float:
    kind, value, where = token
    if kind != "number":
        raise TextFormatParseError(f"{where} : Couldn't parse float: {value}")
    text = value.lower()
    sign = -1.0 if text.startswith("-") else 1.0
    body = text.lstrip("+-")
    if body in ("inf", "infinity", "inff", "infinityf"):
        return sign * math.inf
    if body in ("nan", "nanf"):
        return math.nan
    if body.startswith("0x"):
        return sign * float(int(body, 16))
    text = text.rstrip("f")
    return float(text)


def parse_checkpoint_state(text: str) -> CheckpointState:
    """Parses (merges) CheckpointState text format, as `text_format.Merge` does."""
    state = CheckpointState()
    toks = _tokens(text)
    i = 0

    def take_string() -> str:
        nonlocal i
        if i >= len(toks) or toks[i][0] != "string":
            where = toks[i][2] if i < len(toks) else "end"
            raise TextFormatParseError(f"{where} : Expected string.")
        parts = []
        while i < len(toks) and toks[i][0] == "string":  # adjacent literals concatenate
            parts.append(_unescape(toks[i][1][1:-1], toks[i][2]))
            i += 1
        return "".join(parts)

    def take_number() -> float:
        nonlocal i
        if i >= len(toks):
            raise TextFormatParseError("end : Expected a number.")
        value = _parse_number(toks[i])
        i += 1
        return value

    while i < len(toks):
        kind, name, where = toks[i]
        if kind != "ident":
            raise TextFormatParseError(f"{where} : Expected identifier or number, got {name}.")
        if name not in _FIELDS:
            raise TextFormatParseError(f'{where} : Message type "tensorflow.CheckpointState" '
                                       f'has no field named "{name}".')
        i += 1
        if i >= len(toks) or toks[i][1] != ":":
            where = toks[i][2] if i < len(toks) else "end"
            raise TextFormatParseError(f'{where} : Expected ":".')
        i += 1
        repeated = name.startswith("all_")
        take = take_string if name.endswith("paths") or name == "model_checkpoint_path" \
            else take_number
        if repeated and i < len(toks) and toks[i][1] == "[":
            i += 1
            values = []
            while i < len(toks) and toks[i][1] != "]":
                values.append(take())
                if i < len(toks) and toks[i][1] == ",":
                    i += 1
            if i >= len(toks):
                raise TextFormatParseError('end : Expected "]".')
            i += 1
            getattr(state, name).extend(values)
        elif repeated:
            getattr(state, name).append(take())
        else:
            setattr(state, name, take())
        if i < len(toks) and toks[i][1] in (",", ";"):
            i += 1
    return state


# -- the state file ---------------------------------------------------------------------------

def _state_filename(save_dir: str, latest_filename: Optional[str]) -> str:
    return os.path.join(save_dir, "checkpoint" if latest_filename is None else latest_filename)


def generate_checkpoint_state_proto(save_dir: str, model_checkpoint_path: str,
                                    all_model_checkpoint_paths: Optional[List[str]] = None,
                                    all_model_checkpoint_timestamps: Optional[List[float]] = None,
                                    last_preserved_timestamp: Optional[float] = None
                                    ) -> CheckpointState:
    """A CheckpointState; paths become relative to `save_dir` when it is relative.

    The latest checkpoint is appended to `all_model_checkpoint_paths` when it is not its
    last element (TF mutates the caller's list the same way).
    """
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    if not all_model_checkpoint_paths or \
            all_model_checkpoint_paths[-1] != model_checkpoint_path:
        tf_logging.info("%s is not in all_model_checkpoint_paths. Manually adding it.",
                       model_checkpoint_path)
        all_model_checkpoint_paths.append(model_checkpoint_path)
    if all_model_checkpoint_timestamps and \
            len(all_model_checkpoint_timestamps) != len(all_model_checkpoint_paths):
        raise ValueError(f"Checkpoint timestamps, if provided, must match checkpoint paths (got "
                         f"paths {all_model_checkpoint_paths} and timestamps "
                         f"{all_model_checkpoint_timestamps})")
    if not os.path.isabs(save_dir):
        if not os.path.isabs(model_checkpoint_path):
            model_checkpoint_path = os.path.relpath(model_checkpoint_path, save_dir)
        for i, p in enumerate(all_model_checkpoint_paths):
            if not os.path.isabs(p):
                all_model_checkpoint_paths[i] = os.path.relpath(p, save_dir)
    return CheckpointState(model_checkpoint_path, all_model_checkpoint_paths,
                           all_model_checkpoint_timestamps, last_preserved_timestamp)


def update_checkpoint_state_internal(save_dir: str, model_checkpoint_path: str,
                                     all_model_checkpoint_paths: Optional[List[str]] = None,
                                     latest_filename: Optional[str] = None,
                                     save_relative_paths: bool = False,
                                     all_model_checkpoint_timestamps: Optional[List[float]] = None,
                                     last_preserved_timestamp: Optional[float] = None) -> None:
    """Writes the state file atomically (`tf.__internal__.train.update_checkpoint_state`).

    With `save_relative_paths`, absolute paths are stored relative to `save_dir` (what
    `Saver(save_relative_paths=True)` and CheckpointManager do).

    Raises:
      RuntimeError: if the latest checkpoint's path is the state file's own path.
    """
    save_dir = os.fspath(save_dir)
    filename = _state_filename(save_dir, latest_filename)
    if all_model_checkpoint_paths is None:
        all_model_checkpoint_paths = []
    if save_relative_paths:
        rel = model_checkpoint_path
        if os.path.isabs(rel):
            rel = os.path.relpath(rel, save_dir)
        rel_all = [os.path.relpath(p, save_dir) if os.path.isabs(p) else p
                   for p in all_model_checkpoint_paths]
        state = generate_checkpoint_state_proto(save_dir, rel, rel_all,
                                                all_model_checkpoint_timestamps,
                                                last_preserved_timestamp)
    else:
        state = generate_checkpoint_state_proto(save_dir, model_checkpoint_path,
                                                all_model_checkpoint_paths,
                                                all_model_checkpoint_timestamps,
                                                last_preserved_timestamp)
    if filename == state.model_checkpoint_path:
        raise RuntimeError(f"Save path '{model_checkpoint_path}' conflicts with path used for "
                           f"checkpoint state.  Please use a different save path.")
    try:
        checkpoint_format.atomic_write_text(filename, state.to_text())
    except FileNotFoundError:
        raise errors.NotFoundError(None, None, f"{filename}; No such file or directory") \
            from None
    except NotADirectoryError:
        raise errors.FailedPreconditionError(None, None, f"{filename}; Not a directory") \
            from None


def update_checkpoint_state(save_dir: str, model_checkpoint_path: str,
                            all_model_checkpoint_paths: Optional[List[str]] = None,
                            latest_filename: Optional[str] = None,
                            all_model_checkpoint_timestamps: Optional[List[float]] = None,
                            last_preserved_timestamp: Optional[float] = None) -> None:
    """`tf.train.update_checkpoint_state`: writes the state file (paths as given)."""
    update_checkpoint_state_internal(
        save_dir=save_dir, model_checkpoint_path=model_checkpoint_path,
        all_model_checkpoint_paths=all_model_checkpoint_paths,
        latest_filename=latest_filename, save_relative_paths=False,
        all_model_checkpoint_timestamps=all_model_checkpoint_timestamps,
        last_preserved_timestamp=last_preserved_timestamp)


def get_checkpoint_state(checkpoint_dir: Any,
                         latest_filename: Optional[str] = None) -> Optional[CheckpointState]:
    """The CheckpointState in `checkpoint_dir`, or None if there is no readable state file.

    Relative paths in the file are joined to `checkpoint_dir`. An unreadable or unparsable
    file is logged and ignored, as TF does.

    Raises:
      ValueError: if the file parses but names no model_checkpoint_path.
    """
    checkpoint_dir = os.fspath(checkpoint_dir)
    filename = _state_filename(checkpoint_dir, latest_filename)
    if not os.path.exists(filename):
        return None
    try:
        with open(filename, "rb") as f:
            content = f.read().decode("utf-8")
        state = parse_checkpoint_state(content)
    except (OSError, UnicodeDecodeError, TextFormatParseError) as e:
        name = "ParseError" if isinstance(e, TextFormatParseError) else type(e).__name__
        tf_logging.warning("%s: %s", name, e)
        tf_logging.warning("%s: Checkpoint ignored", filename)
        return None
    if not state.model_checkpoint_path:
        raise ValueError("Invalid checkpoint state loaded from " + checkpoint_dir)
    if not os.path.isabs(state.model_checkpoint_path):
        state.model_checkpoint_path = os.path.join(checkpoint_dir, state.model_checkpoint_path)
    for i, p in enumerate(state.all_model_checkpoint_paths):
        if not os.path.isabs(p):
            state.all_model_checkpoint_paths[i] = os.path.join(checkpoint_dir, p)
    return state


def _candidate_files(prefix: str) -> List[str]:
    # tf1compat's file first, then TF's V2 index, then TF's V1 single file.
    return [checkpoint_format.checkpoint_file(prefix), prefix + ".index", prefix]


def latest_checkpoint(checkpoint_dir: Any, latest_filename: Optional[str] = None
                      ) -> Optional[str]:
    """The prefix of the latest checkpoint named by the state file, if its files exist."""
    state = get_checkpoint_state(checkpoint_dir, latest_filename)
    if state and state.model_checkpoint_path:
        if any(_glob.glob(p) for p in _candidate_files(state.model_checkpoint_path)):
            return state.model_checkpoint_path
        tf_logging.error("Couldn't match files for checkpoint %s", state.model_checkpoint_path)
    return None


def checkpoint_exists_internal(checkpoint_prefix: Any) -> bool:
    """True if a checkpoint with this prefix exists (ours, TF V2 or TF V1)."""
    prefix = os.fspath(checkpoint_prefix)
    return any(_glob.glob(p) for p in _candidate_files(prefix))


def checkpoint_exists(checkpoint_prefix: Any) -> bool:
    """`tf.train.checkpoint_exists` (deprecated in TF; kept for TF1 code)."""
    return checkpoint_exists_internal(checkpoint_prefix)


def get_checkpoint_mtimes(checkpoint_prefixes: Iterable[Any]) -> List[float]:
    """Modification times (seconds) of the checkpoints that exist; missing ones are skipped."""
    mtimes = []
    for prefix in checkpoint_prefixes:
        for pattern in _candidate_files(os.fspath(prefix)):
            matches = _glob.glob(pattern)
            if matches:
                mtimes.append(os.stat(matches[0]).st_mtime_ns / 1e9)
                break
    return mtimes


def meta_graph_filename(checkpoint_filename: str, meta_graph_suffix: str = "meta") -> str:
    """`<prefix>.meta` (a sharded prefix's `-?????-of-N` suffix dropped first)."""
    basename = re.sub(r"-[\d\?]+-of-\d+$", "", checkpoint_filename)
    return ".".join([basename, meta_graph_suffix])


def _delete_matching(pattern: str) -> None:
    for path in _glob.glob(pattern):
        try:
            os.remove(path)
        except FileNotFoundError:
            tf_logging.warning("Hit NotFoundError when deleting '%s', possibly because another "
                              "process/thread is also deleting/moving the same file", path)


def remove_checkpoint(checkpoint_prefix: Any, checkpoint_format_version: int = V2,
                      meta_graph_suffix: str = "meta") -> None:
    """Deletes a checkpoint's files: the meta graph, ours, and TF's index and data shards."""
    prefix = os.fspath(checkpoint_prefix)
    _delete_matching(meta_graph_filename(prefix, meta_graph_suffix))
    _delete_matching(checkpoint_format.checkpoint_file(prefix))
    if checkpoint_format_version == V2:
        _delete_matching(prefix + ".index")
        _delete_matching(prefix + ".data-?????-of-?????")
    else:
        _delete_matching(prefix)
