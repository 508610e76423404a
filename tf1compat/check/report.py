"""`tf1compat check PATH...`: which TensorFlow names TF1 scripts use, and which tf1compat
supports, without running the scripts (and without TensorFlow).

Every use is listed with file:line, its status (supported, unsupported on purpose, not
implemented, unknown to TF 1.x) and, for the others, why and what to use instead; a
summary follows, one line per name that is not supported. `--json` writes the same as
one JSON object. The exit status is 1 when something is not supported (for CI), 2 for
bad arguments, 0 otherwise.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field
from typing import Dict, Iterator, List, Sequence, TextIO

from tf1compat.check.scanner import KERAS_ROOT, ROOT, Use, scan_source
from tf1compat.check.support import (SUPPORTED, UNSUPPORTED, Support, is_internal,
                                     support_of_keras_use, support_of_use)

__all__ = ["Finding", "Report", "check_paths", "python_files"]

_SKIPPED_DIRS = ("__pycache__", "site-packages", "node_modules")


@dataclass(frozen=True)
class Finding:
    """One use of a TensorFlow name (or a file that could not be read)."""
    file: str
    line: int
    col: int             # 1-based, as editors count
    name: str            # "tf.nn.relu", "tensorflow.python.ops.math_ops.add"
    kind: str            # "api", "internal", "keras" (standalone), "package", "error"
    status: str
    reason: str = ""
    replacement: str = ""


@dataclass
class Report:
    files: List[str] = field(default_factory=list)
    findings: List[Finding] = field(default_factory=list)

    @property
    def problems(self) -> List[Finding]:
        return [f for f in self.findings if f.status != SUPPORTED]

    def summary(self) -> Dict[str, object]:
        names = {f.name for f in self.findings if f.kind != "error"}
        bad = {f.name for f in self.problems if f.kind != "error"}
        by_status: Dict[str, int] = {}
        for f in self.findings:
            by_status[f.status] = by_status.get(f.status, 0) + 1
        return {"files": len(self.files), "uses": len(self.findings), "names": len(names),
                "supported_names": len(names - bad), "unsupported_names": len(bad),
                "uses_by_status": by_status}

    def unsupported(self) -> List[Dict[str, object]]:
        """One entry per name that is not supported, with where it is used."""
        grouped: Dict[str, Dict[str, object]] = {}
        for f in self.problems:
            entry = grouped.setdefault(f.name, {"name": f.name, "status": f.status,
                                                "reason": f.reason,
                                                "replacement": f.replacement,
                                                "locations": []})
            entry["locations"].append(f"{f.file}:{f.line}")
        return sorted(grouped.values(), key=lambda e: str(e["name"]))

    # -- output -------------------------------------------------------------------------
    def write_text(self, out: TextIO, problems_only: bool = False) -> None:
        for f in (self.problems if problems_only else self.findings):
            text = f"{f.file}:{f.line}:{f.col}: {f.name}: {f.status}"
            if f.status != SUPPORTED:
                text += f" - {_explain(f.reason, f.replacement)}"
            out.write(text + "\n")
        s = self.summary()
        out.write(f"\n{s['files']} file(s), {s['uses']} use(s) of {s['names']} TensorFlow "
                  f"name(s): {s['supported_names']} supported, {s['unsupported_names']} "
                  "not supported.\n")
        for entry in self.unsupported():
            where = ", ".join(entry["locations"][:3])
            more = len(entry["locations"]) - 3
            where += f" and {more} more" if more > 0 else ""
            out.write(f"  {entry['name']} ({entry['status']}; {where}): "
                      f"{_explain(str(entry['reason']), str(entry['replacement']))}\n")

    def as_json(self) -> Dict[str, object]:
        return {"files": self.files, "uses": [asdict(f) for f in self.findings],
                "summary": self.summary(), "unsupported": self.unsupported()}

    def write_json(self, out: TextIO) -> None:
        json.dump(self.as_json(), out, indent=2)
        out.write("\n")


def _explain(reason: str, replacement: str) -> str:
    text = reason.rstrip()
    if text and not text.endswith((".", "?", "!")):
        text += "."
    if replacement and "Instead:" not in text:
        text += f" Instead: {replacement.rstrip('.')}."
    return text


def python_files(paths: Sequence[str]) -> Iterator[str]:
    """The .py files of `paths` (files, or directories searched recursively, hidden and
    cache directories skipped), in sorted order. Raises FileNotFoundError."""
    for path in paths:
        if os.path.isfile(path):
            yield path
        elif os.path.isdir(path):
            for dirpath, dirs, files in os.walk(path):
                dirs[:] = sorted(d for d in dirs
                                 if not d.startswith(".") and d not in _SKIPPED_DIRS)
                for name in sorted(files):
                    if name.endswith(".py"):
                        yield os.path.join(dirpath, name)
        else:
            raise FileNotFoundError(f"no such file or directory: {path}")


def _display_name(use: Use) -> str:
    if _kind(use) != "api":
        return ".".join((use.module,) + use.attrs)
    public = use.module[len(ROOT):].lstrip(".")
    parts = ([public] if public else []) + list(use.attrs)
    return "tf." + ".".join(parts) if parts else ROOT


def _kind(use: Use) -> str:
    if use.module == KERAS_ROOT or use.module.startswith(KERAS_ROOT + "."):
        return "keras"
    if not use.module.startswith(ROOT + ".") and use.module != ROOT:
        return "package"
    return "internal" if is_internal(use.module) else "api"


def _support(use: Use, cache: Dict[tuple, Support]) -> Support:
    key = (use.module, use.attrs)
    found = cache.get(key)
    if found is None:
        if _kind(use) == "package":
            package = use.module.split(".")[0]
            found = Support(UNSUPPORTED, f"{package} is a separate package of the "
                                         "TensorFlow family, which tf1compat does not "
                                         "provide", "its data or models through numpy, or "
                                                    "the PyTorch equivalent")
        elif _kind(use) == "keras":
            found = support_of_keras_use(use.module, use.attrs)
        else:
            found = support_of_use(use.module, use.attrs)
        cache[key] = found
    return found


def check_paths(paths: Sequence[str]) -> Report:
    """Scans the Python files of `paths` (see the module docstring)."""
    report = Report()
    cache: Dict[tuple, Support] = {}
    scanned: List[tuple] = []
    for path in python_files(paths):
        report.files.append(path)
        try:
            with open(path, encoding="utf-8") as f:
                source = f.read()
            scanned.append((path, scan_source(source, path)))
        except (SyntaxError, UnicodeDecodeError, OSError) as e:
            line = getattr(e, "lineno", None) or 1
            report.findings.append(Finding(path, line, 1, path, "error", "error",
                                           f"cannot be read as Python: {e}"))
    # Names the scanned code sets on TF's namespaces (tflearn's `tf.GraphKeys.INPUTS`)
    # exist when the code runs, in whichever file they are read.
    assigned = {(use.module, use.attrs): f"{path}:{use.line}" for path, uses in scanned
                for use in uses if use.kind == "assign"}
    for path, uses in scanned:
        for use in uses:
            where = assigned.get((use.module, use.attrs))
            support = Support(SUPPORTED, f"set by the scanned code ({where})") \
                if where is not None else _support(use, cache)
            report.findings.append(Finding(path, use.line, use.col + 1, _display_name(use),
                                           _kind(use), support.status, support.reason,
                                           support.replacement))
    return report
