"""Runs every migration example through `tf1compat run` and compares with real TF's output."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.migration import EXAMPLES, compare_output, examples, tolerance
from tests.child_env import child_env


@pytest.mark.parametrize("name", examples())
def test_migration_example(name: str, tmp_path) -> None:
    folder = os.path.join(EXAMPLES, name)
    expected = open(os.path.join(folder, "expected_output.txt")).read()
    env = child_env()
    # The examples keep their model dirs in tempfile.mkdtemp() as their TF originals do;
    # pointing TMPDIR at pytest's rotating tmp_path keeps them from piling up in /tmp.
    env["TMPDIR"] = str(tmp_path)
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", "main.py"], cwd=folder,
                          capture_output=True, text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    rtol, atol = tolerance(name)
    problem = compare_output(expected, proc.stdout, rtol, atol)
    assert problem is None, problem
