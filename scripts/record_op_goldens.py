"""Records real TensorFlow's results for the op-keyed golden rows (TF venv, never in CI).

    /tmp/tf/bin/python scripts/record_op_goldens.py                  # every row module
    /tmp/tf/bin/python scripts/record_op_goldens.py op_rows_math     # one module

Each row of `tests/golden/op_rows_*.py` runs through TF 2.21's `tf.raw_ops` under
`tensorflow.compat.v1` with `disable_v2_behavior()` (tests/golden/op_harness.py
`run_row`); results go to tests/golden/data/op_rows_<family>.json with each row's
fingerprint, so a row edited after recording fails its test until it is recorded again.
A row marked `err(...)` that TF runs without error, or a `row(...)` TF rejects, is
reported: the row is probably not what its author meant.
"""

from __future__ import annotations

import os
import sys

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
    from tests.golden.op_harness import (record_path, row_modules, rows_of, run_row,
                                         write_records)

    surprises = 0
    for module in argv or row_modules():
        records = {}
        for r in rows_of(module):
            result = run_row(tf, r)
            if r.error != ("error" in result):
                surprises += 1
                what = "ran without error" if r.error else f"raised {result['error']}"
                print(f"  {module} {r.key}: TF {what} ({result.get('stage', '')})")
            records[r.key] = {"spec": r.fingerprint(), "result": encode(result)}
        path = record_path(module)
        write_records(path, records)
        print(f"{module}: {len(records)} rows -> {os.path.relpath(path, ROOT)}")
    return 1 if surprises else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
