"""Records how TF 2.21's `tf.compat.v2` namespaces relate to `tf.compat.v1`'s into
tf1compat/api/_tf_v2_names.py.

    /tmp/tf/bin/python scripts/record_v2_names.py

For every public name of compat.v2 (Keras through tf-keras, as TF 1.15 shipped it beside
the v1 API) the file says whether v1's object serves it unchanged (the same object, or a
function taking v2's arguments in v2's order with v2's defaults), which arguments the v2
form takes where it differs, or that only v2 has the name. tf1compat/api/compat_v2.py
builds `tf.compat.v2` from it over tf1compat's own v1 objects.
"""

from __future__ import annotations

import inspect
import os
import pprint
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Not walked: `compat` re-exports both APIs, `raw_ops` is shared (tf1compat's own table),
# `lite`, `tpu`, `xla`, `mlir` and `experimental` are TF 2 only machinery, `estimator`
# left TF in 2.16, `summary` is tf1compat's summary_v2 module.
SKIPPED = {"compat", "raw_ops", "lite", "tpu", "xla", "mlir", "experimental", "estimator",
           "summary"}


def _parameters(fn) -> tuple | None:
    """v2's parameters as Python spells them: names, '*' before keyword-only ones,
    '*args' / '**kwargs' for the variadic ones; None when Python cannot say."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    out, starred = [], False
    for p in params:
        if p.kind is p.VAR_POSITIONAL:
            out.append("*" + p.name)
            starred = True
        elif p.kind is p.VAR_KEYWORD:
            out.append("**" + p.name)
        else:
            if p.kind is p.KEYWORD_ONLY and not starred:
                out.append("*")
                starred = True
            out.append(p.name)
    return tuple(out)


def _serves(v1, v2) -> bool:
    """True when every call of v2's function means the same to v1's: same parameters in
    the same order and with the same defaults, v1 taking at most more after them."""
    if isinstance(v1, type) or isinstance(v2, type) or not callable(v1):
        return False
    try:
        p1 = [p for p in inspect.signature(v1).parameters.values() if p.name != "_sentinel"]
        p2 = list(inspect.signature(v2).parameters.values())
    except (TypeError, ValueError):
        return False
    if len(p2) > len(p1):
        return False
    return all(a.name == b.name and a.kind == b.kind and
               (a.default is b.default or a.default == b.default) for a, b in zip(p1, p2))


def _resolve(module, path: str):
    for part in path.split("."):
        module = getattr(module, part, None)
    return module


def _walk(v2, v1, ns: str, out: dict, depth: int) -> None:
    shared, differing, only = [], {}, []
    for name in sorted(n for n in dir(v2) if not n.startswith("_")):
        try:
            obj2 = getattr(v2, name)
        except AttributeError:
            continue
        path = f"{ns}.{name}" if ns else name
        obj1 = getattr(v1, name, None) if v1 is not None else None
        if isinstance(obj2, types.ModuleType):
            if (depth == 0 and name in SKIPPED) or not obj2.__name__.startswith(
                    ("tensorflow", "tf_keras")):
                continue
            alias = out["modules"].get(id(obj2))
            if alias is not None:
                out["aliases"][path] = alias
                continue
            out["modules"][id(obj2)] = path
            if obj2.__name__.startswith("tf_keras") and not path.startswith("keras"):
                # v2's `losses`, `metrics`, `optimizers`, `initializers` are Keras': their
                # v1 counterparts are under v1's `keras`, not v1's TF1 namespaces.
                out["counterparts"][path] = f"keras.{path}"
                obj1 = _resolve(v1, f"keras.{path}")
            _walk(obj2, obj1 if isinstance(obj1, types.ModuleType) else None, path, out,
                  depth + 1)
            continue
        if obj1 is None:
            only.append(name)
        elif obj1 is obj2 or _serves(obj1, obj2):
            shared.append(name)
        else:
            differing[name] = _parameters(obj2) if callable(obj2) and not isinstance(
                obj2, type) else None
    out["namespaces"][ns] = (shared, differing, only)


def main() -> int:
    import tensorflow.compat.v1 as v1
    import tensorflow.compat.v2 as v2
    out = {"namespaces": {}, "aliases": {}, "modules": {}, "counterparts": {}}
    _walk(v2, v1, "", out, 0)
    path = os.path.join(ROOT, "tf1compat", "api", "_tf_v2_names.py")
    with open(path, "w") as f:
        f.write('"""TF 2.21\'s tf.compat.v2 against tf.compat.v1, recorded by '
                'scripts/record_v2_names.py\n(tf1compat/api/compat_v2.py reads it)."""\n\n')
        f.write("# namespace -> names whose v1 object serves v2's calls unchanged\n")
        f.write("SHARED = {\n")
        for ns, (shared, _, _) in sorted(out["namespaces"].items()):
            body = pprint.pformat(shared, width=88, compact=True).replace("\n", "\n" + " " * 8)
            f.write(f"    {ns!r}:\n        frozenset({body}),\n")
        f.write("}\n\n# namespace -> {name: v2's parameters (None: a class or a value)} where "
                "v2's object differs\nDIFFERING = {\n")
        for ns, (_, differing, _) in sorted(out["namespaces"].items()):
            if differing:
                body = pprint.pformat(differing, width=84).replace("\n", "\n" + " " * 4)
                f.write(f"    {ns!r}: {body},\n")
        f.write("}\n\n# namespace -> names only v2 has\nV2_ONLY = {\n")
        for ns, (_, _, only) in sorted(out["namespaces"].items()):
            if only:
                body = pprint.pformat(only, width=88, compact=True).replace("\n", "\n" + " " * 8)
                f.write(f"    {ns!r}:\n        frozenset({body}),\n")
        f.write("}\n\n# namespace -> the namespace it is another name of\n")
        f.write(f"ALIASES = {pprint.pformat(dict(sorted(out['aliases'].items())), width=88)}\n")
        f.write("\n# v2 namespace -> the v1 namespace holding its counterparts (else the same path)\n")
        counterparts = dict(sorted(out["counterparts"].items()))
        f.write(f"COUNTERPARTS = {pprint.pformat(counterparts, width=88)}\n")
    total = sum(len(s) + len(d) + len(o) for s, d, o in out["namespaces"].values())
    print(f"{total} names in {len(out['namespaces'])} namespaces -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
