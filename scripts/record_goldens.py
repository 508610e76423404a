"""Records real TensorFlow's results for the golden cases (run with a TF venv, never in CI).

    python3 -m venv /tmp/tf && /tmp/tf/bin/pip install tensorflow-cpu==2.21.0 tf-keras==2.21.0
    /tmp/tf/bin/python scripts/record_goldens.py               # all case modules
    /tmp/tf/bin/python scripts/record_goldens.py cases_core    # one module

Each case runs under `tensorflow.compat.v1` with `disable_v2_behavior()`; results are
written to tests/golden/data/<module>.json, which the tests compare tf1compat against.

The oracle is the TF the script runs under: modules that set `TF_VERSION = "2.15"` (the
Estimator and feature columns, which TF >= 2.16 dropped) are recorded with TF 2.15 and
tensorflow-estimator, the others with TF 2.21; modules for another version are skipped:

    python3 -m venv /tmp/tf215 && /tmp/tf215/bin/pip install tensorflow-cpu==2.15.1 \
        tensorflow-estimator==2.15.0
    /tmp/tf215/bin/python scripts/record_goldens.py            # the TF 2.15 modules
"""

from __future__ import annotations

import json
import os
import sys

import importlib.util  # noqa: E402

# TF 2.16+ needs tf-keras for TF1's Keras; TF 2.15 (no tf_keras package) has its own.
if importlib.util.find_spec("tf_keras") is not None:
    os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)


def main(argv: list) -> int:
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    from tests.golden.harness import encode
    from tests.golden.runner import DATA_DIR, case_modules, cases_of, oracle_of, run_case

    version = ".".join(tf.__version__.split(".")[:2])
    modules = [m for m in argv or case_modules() if oracle_of(m) == version]
    os.makedirs(DATA_DIR, exist_ok=True)
    for module in modules:
        path = os.path.join(DATA_DIR, f"{module}.json")
        records = {}
        for name, fn in cases_of(module):
            records[name] = encode(run_case(tf, fn))
        with open(path, "w") as f:
            json.dump(records, f, indent=1, sort_keys=True)
            f.write("\n")
        print(f"{module}: {len(records)} cases -> {os.path.relpath(path, ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
