"""docs/modules.md is generated from the module docstrings: fails when it is stale."""

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_module_map_is_current():
    script = os.path.join(ROOT, "scripts", "gen_module_map.py")
    result = subprocess.run([sys.executable, script, "--check"], cwd=ROOT)
    assert result.returncode == 0, \
        "docs/modules.md is stale: run `python scripts/gen_module_map.py`"


# Tables recorded from TF (scripts/), not code.
_DATA_MODULES = {"_tf_api_names.py", os.path.join("api", "_tf_raw_ops.py"),
                 os.path.join("api", "_tf_v2_names.py"),
                 os.path.join("keras", "engine", "op_lambda_names.py")}
MAX_LINES = 800


def test_modules_stay_under_800_lines():
    package = os.path.join(ROOT, "tf1compat")
    too_long = []
    for dirpath, _dirs, files in os.walk(package):
        for name in files:
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, package)
            if not name.endswith(".py") or name.endswith("_pb2.py") or rel in _DATA_MODULES:
                continue
            with open(path, encoding="utf-8") as f:
                lines = sum(1 for _ in f)
            if lines > MAX_LINES:
                too_long.append(f"{rel} ({lines})")
    assert not too_long, f"split these modules (over {MAX_LINES} lines): {too_long}"
