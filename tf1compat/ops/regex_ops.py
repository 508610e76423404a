"""TF's regex ops on Python's `re`, with RE2's semantics where they differ.

`tf.regex_replace` / `tf.strings.regex_full_match` declare StaticRegexReplace /
StaticRegexFullMatch (pattern and rewrite as attrs) when given Python strings and
RegexReplace / RegexFullMatch (scalar string tensors) otherwise, as TF's wrappers do.

RE2 -> Python differences handled here:
* `$` matches only at the end of the text (Python's also matches before a final newline),
  `\\z` is Python's `\\Z`; `\\d \\w \\s \\b` are ASCII-only (re.ASCII); POSIX classes such
  as `[[:alpha:]]` are expanded; `(?<name>...)` is RE2 syntax only in newer RE2: TF's
  rejects it, as it rejects lookarounds and backreferences (TF's error messages).
* Rewrites use `\\0`..`\\9` and `\\\\`; an invalid escape ends the rewrite and a group beyond
  the pattern's groups leaves the string unchanged, as RE2 does.
* Global replacement never takes an empty match right after the previous match (RE2).
Not supported (NotImplementedError): Unicode classes `\\p{..}` / `\\pL`, `\\C`, `\\Q..\\E`.
Strings are matched as UTF-8 text (invalid bytes survive via surrogateescape).
"""

from __future__ import annotations

import functools
import re
from typing import Any, Callable, List, Optional, Tuple

import numpy as np
import torch

from tf1compat.framework import errors
from tf1compat.framework.graph import apply_op1
from tf1compat.framework.op_def import REQUIRED, declare
from tf1compat.framework.tensor_shape import TensorShape
from tf1compat.ops._shape_rules import node_desc, unary_rule
from tf1compat.ops.decode_ops import _strings

__all__ = ["regex_replace", "regex_full_match"]

_POSIX = {"alpha": "a-zA-Z", "digit": "0-9", "alnum": "0-9A-Za-z", "upper": "A-Z",
          "lower": "a-z", "space": r"\t\n\v\f\r ", "blank": r"\t ", "xdigit": "0-9A-Fa-f",
          "word": "0-9A-Za-z_", "punct": r"!-/:-@\[-`{-~", "cntrl": r"\x00-\x1f\x7f",
          "print": r" -~", "graph": r"!-~", "ascii": r"\x00-\x7f"}


def _invalid(pattern: str, error: str) -> errors.InvalidArgumentError:
    return errors.InvalidArgumentError(None, None, f"Invalid pattern: {pattern}, error: "
                                                   f"{error}")


def _translate(pattern: str) -> str:
    """An RE2 pattern as a Python `re` pattern (raising TF's errors for what RE2 rejects)."""
    multiline = re.match(r"^\(\?[a-zA-Z]*m[a-zA-Z]*\)", pattern) is not None
    out: List[str] = []
    i, n, in_class = 0, len(pattern), False
    while i < n:
        c = pattern[i]
        if c == "\\":
            nxt = pattern[i + 1:i + 2]
            if nxt in ("p", "P", "C", "Q"):
                raise NotImplementedError(f"RE2 escape \\{nxt} in regex {pattern!r} is not "
                                          "supported by tf1compat.")
            if nxt.isdigit() and nxt != "0" and not in_class:
                raise _invalid(pattern, f"invalid escape sequence: \\{nxt}")
            out.append("\\Z" if nxt == "z" else pattern[i:i + 2])
            i += 2
            continue
        if in_class:
            posix = re.match(r"\[:(\^?)(\w+):\]", pattern[i:])
            if posix and posix.group(2) in _POSIX and not posix.group(1):
                out.append(_POSIX[posix.group(2)])
                i += posix.end()
                continue
            if c == "]" and not (out and out[-1] in ("[", "[^")):
                in_class = False
            out.append(c)
            i += 1
            continue
        if c == "[":
            in_class = True
            if pattern[i + 1:i + 2] == "^":
                out.append("[^")
                i += 2
            else:
                out.append("[")
                i += 1
            if pattern[i:i + 1] == "]":  # a leading ] is literal
                out.append("\\]")
                i += 1
            continue
        if c == "(" and pattern[i + 1:i + 2] == "?":
            ahead = pattern[i + 2:i + 4]
            if ahead[:1] in ("=", "!") or ahead in ("<=", "<!"):
                raise _invalid(pattern, f"invalid perl operator: (?{ahead[:1]}")
            if ahead[:1] == "<":
                raise _invalid(pattern, "invalid perl operator: (?<")
        if c == "$" and not multiline:
            out.append("\\Z")
            i += 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _python_error(pattern: str, e: re.error) -> errors.InvalidArgumentError:
    """Python's compile error in RE2's words, for the errors legacy code commonly hits."""
    msg = e.msg
    pos = e.pos or 0
    if msg.startswith("missing ), unterminated subpattern"):
        return _invalid(pattern, f"missing ): {pattern}")
    if msg.startswith("unterminated character set"):
        return _invalid(pattern, f"missing ]: {pattern[pos:]}")
    if msg.startswith("unbalanced parenthesis"):
        return _invalid(pattern, f"unexpected ): {pattern}")
    if msg.startswith("multiple repeat"):
        return _invalid(pattern, f"bad repetition operator: {pattern[pos - 1:pos + 1]}")
    if msg.startswith("nothing to repeat"):
        return _invalid(pattern, f"no argument for repetition operator: "
                                 f"{pattern[pos:pos + 1]}")
    if msg.startswith("min repeat greater than max repeat"):
        start = pattern.rfind("{", 0, pos + 1)
        end = pattern.find("}", pos)
        return _invalid(pattern, f"invalid repetition size: {pattern[start:end + 1]}")
    return _invalid(pattern, msg)


@functools.lru_cache(maxsize=256)
def _compile(pattern: str) -> "re.Pattern[str]":
    try:
        return re.compile(_translate(pattern), re.ASCII)
    except re.error as e:
        raise _python_error(pattern, e) from None


@functools.lru_cache(maxsize=256)
def _parse_rewrite(rewrite: str) -> Tuple[list, int]:
    """RE2 rewrite -> ([literal str | group int], highest group); stops at a bad escape."""
    parts: list = []
    top = 0
    i = 0
    while i < len(rewrite):
        c = rewrite[i]
        if c != "\\":
            parts.append(c)
            i += 1
            continue
        nxt = rewrite[i + 1:i + 2]
        if nxt.isdigit():
            parts.append(int(nxt))
            top = max(top, int(nxt))
        elif nxt == "\\":
            parts.append("\\")
        else:
            break  # RE2's Rewrite stops here ("invalid rewrite pattern")
        i += 2
    return parts, top


def _text(s: bytes) -> str:
    return s.decode("utf-8", "surrogateescape")


def _bytes(s: str) -> bytes:
    return s.encode("utf-8", "surrogateescape")


def _replace(rx: "re.Pattern[str]", rewrite: str, replace_global: bool) -> Callable:
    parts, top = _parse_rewrite(rewrite)
    if top > rx.groups:
        return lambda s: s  # RE2 refuses the rewrite: no replacement at all

    def expand(m: "re.Match[str]") -> str:
        return "".join(p if isinstance(p, str) else (m.group(p) or "") for p in parts)

    def one(s: bytes) -> bytes:
        text = _text(s)
        if not replace_global:
            m = rx.search(text)
            return s if m is None else _bytes(text[:m.start()] + expand(m) + text[m.end():])
        out: List[str] = []
        pos, last_end, count, n = 0, -1, 0, len(text)
        while pos <= n:
            m = rx.search(text, pos)
            if m is None:
                break
            out.append(text[pos:m.start()])
            if m.start() == m.end() == last_end:
                # RE2 takes no empty match right after a match: step one character.
                out.append(text[pos:pos + 1])
                pos += 1
                continue
            out.append(expand(m))
            pos = last_end = m.end()
            count += 1
        if count == 0:
            return s
        out.append(text[pos:])
        return _bytes("".join(out))
    return one


def _attr_text(value: Any) -> str:
    return _text(value) if isinstance(value, bytes) else str(value)


def _scalar_text(value: Any, what: str) -> str:
    arr = _strings(value)
    if arr.ndim != 0:
        raise errors.InvalidArgumentError(None, None, f"{what} must be scalar, but received "
                                                      f"{list(arr.shape)}")
    return _text(bytes(arr[()]))


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
        one = _replace(_compile(_attr_text(a["pattern"])), _attr_text(a["rewrite"]),
                       bool(a["replace_global"]))
        return _map(x, one)
    return run


def _replace_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    replace_global = bool(node.attrs["replace_global"])

    def run(x: Any, pattern: Any, rewrite: Any) -> Any:
        rx = _compile(_scalar_text(pattern, "Pattern"))
        return _map(x, _replace(rx, _scalar_text(rewrite, "Rewrite"), replace_global))
    return run


def _static_full_match_kernel(node: Any, kctx: Any) -> Callable[[Any], Any]:
    pattern = _attr_text(node.attrs["pattern"])

    def run(x: Any) -> Any:
        rx = _compile(pattern)
        return _map(x, lambda s: rx.fullmatch(_text(s)) is not None, out_bool=True)
    return run


def _full_match_kernel(node: Any, kctx: Any) -> Callable[..., Any]:
    def run(x: Any, pattern: Any) -> Any:
        rx = _compile(_scalar_text(pattern, "Pattern"))
        return _map(x, lambda s: rx.fullmatch(_text(s)) is not None, out_bool=True)
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
