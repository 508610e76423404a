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
NAMESPACES = ["", "nn", "train", "layers", "losses", "math", "random", "linalg", "image",
              "initializers", "keras", "keras.layers", "keras.backend", "summary", "data",
              "metrics", "io", "gfile", "errors", "dtypes", "test", "logging", "sparse",
              "strings", "saved_model", "estimator", "nn.rnn_cell", "bitwise", "debugging",
              "compat", "app", "flags", "graph_util", "feature_column", "distributions",
              "spectral", "signal", "manip", "sets", "lookup", "queue", "python_io",
              "distribute", "distribute.experimental", "data.experimental"]


def main() -> int:
    import tensorflow.compat.v1 as tf
    out = {}
    for ns in NAMESPACES:
        obj = tf
        try:
            for part in filter(None, ns.split(".")):
                obj = getattr(obj, part)
        except AttributeError:
            continue
        out[ns] = sorted(n for n in dir(obj) if not n.startswith("_"))
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
