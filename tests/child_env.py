"""The environment of a child Python process that a test starts, and one child that runs
several `python -m tf1compat ...` command lines."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Dict

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child_env(**extra: str) -> Dict[str, str]:
    """os.environ with this checkout first on PYTHONPATH, plus `extra` variables.

    The caller's PYTHONPATH is kept after the checkout: packages installed with
    `pip install --target` (the GPU machine's carried wheels) must reach the child too."""
    kept = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
    return dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT] + kept), **extra)


# Runs each command line as `python -m tf1compat ARGS` does (runpy, a fresh sys.argv) and
# reports its exit status, stdout and stderr as JSON.
_COMMAND_LINES = """
import contextlib, io, json, runpy, sys
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    sys.argv = ["tf1compat"] + argv
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_module("tf1compat", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as e:
            code = e.code
    results.append([code, out.getvalue(), err.getvalue()])
sys.__stdout__.write(json.dumps(results))
"""


def tf1compat_command_lines(*lines: list[str], cwd: str = ROOT
                            ) -> list[subprocess.CompletedProcess]:
    """`python -m tf1compat ARGS` for each ARGS, one after the other in ONE child process
    (each Python start costs seconds). Only for command lines that leave no state behind
    that a later one could depend on (absl flags parsed, a default graph filled); a line
    that does must come last or have a child of its own."""
    child = subprocess.run([sys.executable, "-c", _COMMAND_LINES, json.dumps(lines)], check=False,
                           cwd=cwd, capture_output=True, text=True, env=child_env(),
                           timeout=600)
    assert child.returncode == 0, child.stderr
    return [subprocess.CompletedProcess(argv, code, out, err)
            for argv, (code, out, err) in zip(lines, json.loads(child.stdout))]
