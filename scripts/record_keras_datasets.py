"""Records tf-keras 2.21's `tf.keras.datasets` loaders (imdb, reuters, boston_housing,
cifar100) on small synthetic files into tests/fixtures/keras_datasets.json; run with the
TF venv, never in CI:

    /tmp/tf/bin/python scripts/record_keras_datasets.py

The files (tests/golden/keras_datasets_files.py, shared with tests/test_keras_datasets.py)
go into a temporary HOME's `~/.keras/datasets/`, where tf-keras's get_file looks. They
are not the real datasets, so get_file's hash check would call them corrupt and download
the real ones: only that check is switched off (data_utils.validate_file patched); the
loaders themselves run unchanged.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)
OUT = os.path.join(ROOT, "tests", "fixtures", "keras_datasets.json")


def main() -> int:
    home = tempfile.mkdtemp(prefix="keras_datasets_home_")
    try:
        return record(home)
    finally:
        shutil.rmtree(home)


def record(home: str) -> int:
    os.environ["HOME"] = home      # tf-keras's get_file caches under ~/.keras
    import tensorflow.compat.v1 as tf
    tf.disable_v2_behavior()
    tf.get_logger().setLevel("ERROR")
    import tf_keras
    from tf_keras.src.utils import data_utils
    from tests.golden import keras_datasets_files as files

    data_utils.validate_file = lambda *args, **kwargs: True
    root = os.path.join(home, "files")
    files.write_files(root, os.path.join(home, ".keras", "datasets"))
    results = {case[0]: files.run_case(tf.keras.datasets, case, root)
               for case in files.CASES}
    # One case a line: small diffs when a case changes, no 800k-line file.
    lines = [f" {json.dumps(name)}: {json.dumps(results[name], sort_keys=True)}"
             for name in sorted(results)]
    with open(OUT, "w") as f:
        f.write(f'{{"tf_keras": {json.dumps(tf_keras.__version__)}, "cases": {{\n')
        f.write(",\n".join(lines) + "\n}}\n")
    print(f"wrote {len(results)} cases to {OUT}")
    return 0

if __name__ == "__main__":
    sys.exit(main())
