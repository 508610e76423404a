"""Records TF 2.21's parameter lists of the `tf.compat.v2` functions tf1compat builds, for
tests/test_compat_v2_signatures.py (which compares `inspect.signature` of tf1compat's
`tf.compat.v2.<path>` with them).

    /tmp/tf/bin/python scripts/record_v2_signatures.py

The paths are the functions of tf1compat/api/_tf_v2_names.py (TF 1.15's tf.compat.v2,
shared with v1 or differing from it). Writes tests/fixtures/compat_v2/tf_v2_signatures.json:
path -> [[name, kind, default], ...] (kind as `inspect.Parameter.kind.name`; a default
that is not None/bool/int/float/str as its repr, none as "<required>"); null where TF 2.21
no longer has the name or it is not a plain function there (a class, a value).
"""

from __future__ import annotations

import inspect
import json
import os
import runpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "tests", "fixtures", "compat_v2", "tf_v2_signatures.json")


def _paths() -> list:
    names = runpy.run_path(os.path.join(ROOT, "tf1compat", "api", "_tf_v2_names.py"))
    out = []
    for ns, table in list(names["SHARED"].items()) + list(names["DIFFERING"].items()):
        out += [f"{ns}.{name}" if ns else name for name in table]
    return sorted(set(out))


def _default(value):
    if value is inspect.Parameter.empty:
        return "<required>"
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return repr(value)


def _signature(obj) -> list | None:
    if not inspect.isfunction(inspect.unwrap(obj)) and not inspect.isfunction(obj):
        return None
    try:
        signature = inspect.signature(obj)
    except (TypeError, ValueError):
        return None
    return [[p.name, p.kind.name, _default(p.default)] for p in signature.parameters.values()]


def main() -> None:
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
    import tensorflow.compat.v2 as tf
    out = {}
    for path in _paths():
        obj = tf
        for part in path.split("."):
            obj = getattr(obj, part, None)
            if obj is None:
                break
        out[path] = None if obj is None else _signature(obj)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:    # one path a line, so a diff names the function
        f.write("{\n" + ",\n".join(f"{json.dumps(k)}: {json.dumps(v)}"
                                   for k, v in out.items()) + "\n}\n")


if __name__ == "__main__":
    main()
