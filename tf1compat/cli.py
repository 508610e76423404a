"""`tf1compat run script.py [args...]`: run a legacy TF1 script on tf1compat.
`tf1compat graph-support FILE...`: which op types of a graph file tf1compat can run."""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import List, Optional

USAGE = """usage: tf1compat run SCRIPT [ARGS...]
       tf1compat graph-support FILE [FILE...]
       tf1compat --version

run: runs SCRIPT as __main__ with `import tensorflow` resolving to tf1compat; ARGS become
the script's own sys.argv[1:].
graph-support: lists the op types of each graph file (.meta, frozen .pb/.pbtxt, SavedModel
directory) that tf1compat does not implement; exit status 1 if there are any."""


def graph_support_main(paths: List[str]) -> int:
    """Prints the op coverage report of each file; 0 if every op type is supported."""
    from tf1compat.training.graph_support import graph_support
    status = 0
    for path in paths:
        try:
            report = graph_support(path)
        except (IOError, ValueError) as e:
            print(f"tf1compat: {e}", file=sys.stderr)
            status = 2
            continue
        print(report)
        if not report.supported:
            status = max(status, 1)
    return status


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if argv else 2
    if argv[0] == "--version":
        from tf1compat import _version
        print(f"tf1compat {_version.PACKAGE_VERSION} (TensorFlow API {_version.TF_VERSION})")
        return 0
    if argv[0] == "graph-support" and len(argv) >= 2:
        return graph_support_main(argv[1:])
    if argv[0] != "run" or len(argv) < 2:
        print(USAGE, file=sys.stderr)
        return 2
    script, script_args = argv[1], argv[2:]
    if not os.path.exists(script):
        print(f"tf1compat: no such script: {script}", file=sys.stderr)
        return 2
    import tf1compat
    tf1compat.install()
    sys.argv = [script] + script_args
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
