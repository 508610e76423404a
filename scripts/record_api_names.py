"""Records the public names of TF's compat.v1 namespaces into tf1compat/_tf_api_names.py.

    /tmp/tf/bin/python scripts/record_api_names.py

tf1compat uses the list to tell a typo (with suggestions) from a TF1 symbol it does not
implement, in the AttributeError a missing `tf.X` raises.
"""

import os
import sys
import types

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# Keras lives in tf-keras (its own package): its namespaces are walked apart, every
# module below `keras` (layers, backend, callbacks, losses, metrics, optimizers, utils, ...).
KERAS_ROOT = "keras"
# Not walked: `compat` re-exports the whole API, `raw_ops` has its own table
# (tf1compat/api/_tf_raw_ops.py), `lite` is TF Lite's converter.
SKIPPED = ("compat.", "raw_ops", "lite")
INTERNAL = ("tf_decorator",)        # a helper module TF leaves visible in its flags namespace


def _namespaces(tf) -> dict:
    """{dotted namespace: sorted public names} for compat.v1 and every TF module below it."""
    out = {}
    pending = [("", tf)]
    while pending:
        ns, module = pending.pop()
        names = sorted(n for n in dir(module) if not n.startswith("_"))
        out[ns] = names
        for name in names:
            child = f"{ns}.{name}" if ns else name
            value = getattr(module, name, None)
            if not isinstance(value, types.ModuleType) or child in out or \
                    child.startswith(SKIPPED) or child.startswith("keras") or name in INTERNAL:
                continue
            if value.__name__.startswith("tensorflow") and value is not tf:
                pending.append((child, value))
    keras = [(KERAS_ROOT, getattr(tf, KERAS_ROOT))]
    while keras:
        ns, module = keras.pop()
        out[ns] = sorted(n for n in dir(module) if not n.startswith("_"))
        for name in out[ns]:
            value = getattr(module, name, None)
            if isinstance(value, types.ModuleType) and f"{ns}.{name}" not in out:
                keras.append((f"{ns}.{name}", value))
    return dict(sorted(out.items()))


def main() -> int:
    import tensorflow.compat.v1 as tf
    out = _namespaces(tf)
    path = os.path.join(ROOT, "tf1compat", "_tf_api_names.py")
    with open(path, "w") as f:
        f.write('"""Public names of TensorFlow\'s compat.v1 namespaces (TF 2.21), recorded by\n'
                'scripts/record_api_names.py; used only for error messages."""\n\n')
        import pprint
        f.write("API_NAMES = {\n")
        for ns, names in out.items():
            body = pprint.pformat(names, width=88, compact=True).replace("\n", "\n" + " " * 14)
            f.write(f"    {ns!r}: frozenset({body}),\n")
        f.write("}\n")
    print(f"{sum(len(v) for v in out.values())} names in {len(out)} namespaces -> {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
