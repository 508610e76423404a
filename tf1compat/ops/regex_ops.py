"""TF's regex ops on RE2 (`google-re2`, the RE2 library TF itself uses).

`tf.regex_replace` / `tf.strings.regex_full_match` declare StaticRegexReplace /
StaticRegexFullMatch (pattern and rewrite as attrs) when given Python strings and
RegexReplace / RegexFullMatch (scalar string tensors) otherwise, as TF's wrappers do;
patterns from imported graphs run through the same kernels. Matching is RE2's: linear in
the text (no catastrophic backtracking on patterns such as `(a+)+b`), on UTF-8 bytes,
with RE2's syntax and errors (TF's "Invalid pattern: ..., error: ..." message). TF's RE2
predates `(?<name>...)` groups, so they are rejected as TF rejects them.

Rewrites follow RE2's `Replace`/`GlobalReplace`: `\\0`..`\\9` and `\\\\`; an invalid escape
ends the rewrite, a group beyond the pattern's groups leaves the string unchanged, and
global replacement never takes an empty match right after the previous match.
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import re2
import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import REQUIRED, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops import dispatch
from tf1compat.ops._shape_rules import node_desc, unary_rule
from tf1compat.ops.decode_ops import _strings

__all__ = ["regex_replace", "regex_full_match"]

_OPTIONS = re2.Options()
_OPTIONS.log_errors = False     # the error becomes TF's InvalidArgumentError instead
# A named group in newer RE2 syntax (not a lookbehind, which RE2 rejects itself).
_ANGLE_GROUP = re.compile(rb"\(\?<(?![=!])")


def _invalid(pattern: bytes, error: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(
        None, None, f"Invalid pattern: {_text(pattern)}, error: {error}")


@functools.lru_cache(maxsize=256)
def _compile(pattern: bytes) -> Any:
    """The compiled RE2 pattern (InvalidArgumentError with RE2's message if invalid)."""
    if _ANGLE_GROUP.search(pattern):
        raise _invalid(pattern, "invalid perl operator: (?<")
    try:
        return re2.compile(pattern, _OPTIONS)
    except re2.error as e:
        message = e.args[0] if e.args else str(e)
        raise _invalid(pattern, _text(message) if isinstance(message, bytes)
                       else str(message)) from None


@functools.lru_cache(maxsize=256)
def _parse_rewrite(rewrite: bytes) -> Tuple[list, int]:
    """RE2 rewrite -> ([literal bytes | group int], highest group); stops at a bad escape."""
    parts: list = []
    top = 0
    i = 0
    while i < len(rewrite):
        c = rewrite[i:i + 1]
        if c != b"\\":
            parts.append(c)
            i += 1
            continue
        nxt = rewrite[i + 1:i + 2]
        if nxt.isdigit():
            parts.append(int(nxt))
            top = max(top, int(nxt))
        elif nxt == b"\\":
            parts.append(b"\\")
        else:
            break  # RE2's Rewrite stops here ("invalid rewrite pattern")
        i += 2
    return parts, top


def _text(s: bytes) -> str:
    return s.decode("utf-8", "surrogateescape")


def _rune_length(s: bytes, pos: int) -> int:
    """Bytes of the UTF-8 character at `pos` (1 for an invalid byte), as RE2 steps."""
    lead = s[pos] if pos < len(s) else 0
    n = 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4
    try:
        s[pos:pos + n].decode("utf-8")
    except UnicodeDecodeError:
        return 1
    return n


def _replace(rx: Any, rewrite: bytes, replace_global: bool) -> Callable[[bytes], bytes]:
    parts, top = _parse_rewrite(rewrite)
    if top > rx.groups:
        return lambda s: s  # RE2 refuses the rewrite: no replacement at all

    def expand(m: Any) -> bytes:
        return b"".join(p if isinstance(p, bytes) else (m.group(p) or b"") for p in parts)

    def one(s: bytes) -> bytes:
        if not replace_global:
            m = rx.search(s)
            return s if m is None else s[:m.start()] + expand(m) + s[m.end():]
        out: List[bytes] = []
        pos, last_end, count, n = 0, -1, 0, len(s)
        while pos <= n:
            m = rx.search(s, pos)
            if m is None:
                break
            out.append(s[pos:m.start()])
            if m.start() == m.end() == last_end:
                # RE2 takes no empty match right after a match: step one character.
                step = _rune_length(s, pos)
                out.append(s[pos:pos + step])
                pos += step
                continue
            out.append(expand(m))
            pos = last_end = m.end()
            count += 1
        if count == 0:
            return s
        out.append(s[pos:])
        return b"".join(out)
    return one


def _attr_bytes(value: Any) -> bytes:
    return value if isinstance(value, bytes) else str(value).encode("utf-8")


def _scalar_bytes(value: Any, what: str) -> bytes:
    arr = _strings(value)
    if arr.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"{what} must be scalar, but received "
                                                      f"{list(arr.shape)}")
    return bytes(arr[()])


def _map(x: Any, fn: Callable[[bytes], Any], out_bool: bool = False) -> Any:
    arr = _strings(x)
    flat = [fn(bytes(s)) for s in arr.reshape(-1)]
    if out_bool:
        return torch.from_numpy(np.asarray(flat, dtype=bool).reshape(arr.shape))
    out = np.empty(len(flat), dtype=object)
    out[:] = flat
    out = out.reshape(arr.shape)
    return out if out.ndim else out[()]


def _static_replace_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    a = node.attrs

    def run(x: Any) -> Any:
        one = _replace(_compile(_attr_bytes(a["pattern"])), _attr_bytes(a["rewrite"]),
                       bool(a["replace_global"]))
        return _map(x, one)
    return run


def _replace_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    replace_global = bool(node.attrs["replace_global"])

    def run(x: Any, pattern: Any, rewrite: Any) -> Any:
        rx = _compile(_scalar_bytes(pattern, "Pattern"))
        return _map(x, _replace(rx, _scalar_bytes(rewrite, "Rewrite"), replace_global))
    return run


def _static_full_match_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    pattern = _attr_bytes(node.attrs["pattern"])

    def run(x: Any) -> Any:
        rx = _compile(pattern)
        return _map(x, lambda s: rx.fullmatch(s) is not None, out_bool=True)
    return run


def _full_match_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(x: Any, pattern: Any) -> Any:
        rx = _compile(_scalar_bytes(pattern, "Pattern"))
        return _map(x, lambda s: rx.fullmatch(s) is not None, out_bool=True)
    return run


def _scalar_args_rule(*indices: int) -> Callable[[Any], List[TensorShape]]:
    def rule(ctx: Any) -> List[TensorShape]:
        for i in indices:
            shape = ctx.shape(i)
            if shape.rank is not None and shape.rank != 0:
                raise ValueError(f"Shape must be rank 0 but is rank {shape.rank} "
                                 f"{node_desc(ctx)}")
        return [ctx.shape(0)]
    return rule


declare("StaticRegexReplace", inputs=["input: string"], outputs=["output: string"],
        attrs={"pattern": REQUIRED, "rewrite": REQUIRED, "replace_global": True}, shape=unary_rule,
        kernel=_static_replace_kernel, grad="none", cpu_only=True,
        doc="Replaces matches of a fixed RE2 pattern with a rewrite.")
declare("RegexReplace", inputs=["input: string", "pattern: string", "rewrite: string"],
        outputs=["output: string"], attrs={"replace_global": True},
        shape=_scalar_args_rule(1, 2), kernel=_replace_kernel, grad="none", cpu_only=True,
        doc="Replaces matches of an RE2 pattern (a scalar tensor) with a rewrite.")
declare("StaticRegexFullMatch", inputs=["input: string"], outputs=["output: bool"],
        attrs={"pattern": REQUIRED}, shape=unary_rule, kernel=_static_full_match_kernel,
        grad="none", cpu_only=True, doc="Whether each string fully matches a fixed pattern.")
declare("RegexFullMatch", inputs=["input: string", "pattern: string"],
        outputs=["output: bool"], shape=_scalar_args_rule(1), kernel=_full_match_kernel,
        grad="none", cpu_only=True, doc="Whether each string fully matches a pattern.")


def _is_text(value: Any) -> bool:
    return isinstance(value, (str, bytes))


def regex_replace(input: Any, pattern: Any, rewrite: Any,  # noqa: A002
                  replace_global: bool = True, name: Optional[str] = None) -> Any:
    """`tf.regex_replace` / `tf.strings.regex_replace` (RE2 syntax; `\\1` rewrites)."""
    if _is_text(pattern) and _is_text(rewrite):
        return apply_op1("StaticRegexReplace", [input],
                         {"pattern": pattern, "rewrite": rewrite,
                          "replace_global": bool(replace_global)}, name=name)
    return apply_op1("RegexReplace", [input, pattern, rewrite],
                     {"replace_global": bool(replace_global)}, name=name)


def regex_full_match(input: Any, pattern: Any, name: Optional[str] = None) -> Any:  # noqa: A002
    """`tf.strings.regex_full_match`: whether each string matches `pattern` entirely."""
    if _is_text(pattern):
        return apply_op1("StaticRegexFullMatch", [input], {"pattern": pattern}, name=name)
    return apply_op1("RegexFullMatch", [input, pattern], {}, name=name)


# Given a RaggedTensor: applied to its flat values (tf1compat/ragged/ragged_math.py).
dispatch.add_dispatch_support(globals(), dispatch.UNARY, ("regex_full_match", "regex_replace"))
