"""Records what each migration example prints under real TensorFlow (never run in CI).

    /tmp/tf/bin/python scripts/record_migration_examples.py [name ...]
    /tmp/tf215/bin/python scripts/record_migration_examples.py [name ...]

The example runs unchanged with `import tensorflow as tf` resolving to a shim that is
`tensorflow.compat.v1` with v2 behaviour disabled (what TF1 code meant); its stdout is
written to migration_examples/<name>/expected_output.txt.

Examples with a `TF_VERSION` file saying 2.15 (Estimator programs: TF >= 2.16 has no
Estimator) are recorded under TF 2.15 + tensorflow-estimator, with scripts/oracle_contrib.py
standing in for TF 1.15's tf.contrib.learn / tf.contrib.training; the others under TF 2.21.
Examples for another TF version than the running one are skipped. Examples with a
`KERAS_STANDALONE` file (`import keras` scripts) are recorded under TF 2.15's `keras` 2.15
package with Keras 2.2.4's module paths added (scripts/oracle_keras_standalone.py).
"""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
EXAMPLES = os.path.join(ROOT, "migration_examples")

# Makes `import tensorflow as tf` give TF1 behaviour under TF 2.x, like `tf1compat run`.
SHIM = """
import importlib.util, os, sys, runpy
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
if importlib.util.find_spec("tf_keras") is not None:
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
import tensorflow.compat.v1 as v1
v1.disable_v2_behavior()
v1.get_logger().setLevel("ERROR")
if v1.__version__.startswith("2.15"):
    sys.path.insert(0, SCRIPTS)
    import oracle_contrib
    v1.contrib = oracle_contrib.build(v1)
    if os.path.exists("KERAS_STANDALONE"):
        import oracle_keras_standalone
        oracle_keras_standalone.install(v1)
sys.modules["tensorflow"] = v1
sys.argv = ["main.py"]
runpy.run_path("main.py", run_name="__main__")
"""


def _tf_version(folder: str) -> str:
    path = os.path.join(folder, "TF_VERSION")
    return open(path).read().strip() if os.path.exists(path) else "2.21"


def main(names: list) -> int:
    import importlib.metadata
    running = ".".join(importlib.metadata.version("tensorflow-cpu").split(".")[:2])
    names = names or sorted(d for d in os.listdir(EXAMPLES)
                            if os.path.exists(os.path.join(EXAMPLES, d, "main.py")))
    for name in names:
        folder = os.path.join(EXAMPLES, name)
        if _tf_version(folder) != running:
            continue
        shim = SHIM.replace("SCRIPTS", repr(os.path.dirname(os.path.abspath(__file__))))
        proc = subprocess.run([sys.executable, "-c", shim], cwd=folder, capture_output=True,
                              text=True)
        if proc.returncode != 0:
            print(f"{name}: FAILED under TensorFlow\n{proc.stderr[-2000:]}")
            return 1
        with open(os.path.join(folder, "expected_output.txt"), "w") as f:
            f.write(proc.stdout)
        print(f"{name}: {len(proc.stdout.splitlines())} lines recorded")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
