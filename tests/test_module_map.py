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
