"""The `tf1compat` command: `tf1compat run SCRIPT [ARGS...]` runs a legacy TF1 script;
`tf1compat graph-support FILE...` lists the op types of graph files tf1compat cannot run.

Everything after SCRIPT belongs to the script (`tf1compat run train.py --help` shows the
script's own help, as `python train.py --help` does). SCRIPT may be a file or, as for
`python`, a directory or zip archive with a `__main__.py`.
"""

from __future__ import annotations

import argparse
import os
import runpy
import sys
from typing import List, Optional

__all__ = ["main"]


def _parser() -> argparse.ArgumentParser:
    from tf1compat import _version
    parser = argparse.ArgumentParser(
        prog="tf1compat",
        description="Run TensorFlow 1.x programs on PyTorch: `import tensorflow` (and "
                    "tensorflow.compat.v1, tensorflow.contrib, ...) resolve to tf1compat.")
    parser.add_argument("--version", action="version",
                        version=f"tf1compat {_version.PACKAGE_VERSION} (TensorFlow API "
                                f"{_version.TF_VERSION})")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    run = commands.add_parser(
        "run", help="run a TF1 script as __main__ (its arguments follow it)",
        description="Runs SCRIPT as __main__ with `import tensorflow` resolving to "
                    "tf1compat; ARGS become the script's sys.argv[1:] (options included).")
    run.add_argument("script", metavar="SCRIPT",
                     help="a Python file, or a directory / zip file with __main__.py")
    run.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                     help="the script's own arguments")
    support = commands.add_parser(
        "graph-support", help="list the op types of graph files tf1compat does not implement",
        description="Reports, for each graph file (.meta, frozen .pb/.pbtxt, SavedModel "
                    "directory), the op types tf1compat does not implement; exit status 1 "
                    "if there are any, 2 if a file cannot be read.")
    support.add_argument("files", nargs="+", metavar="FILE", help="graph files to check")
    return parser


def _script_error(script: str) -> Optional[str]:
    """Why `script` cannot be run (None when it can)."""
    if not os.path.exists(script):
        return f"no such script: {script}"
    if os.path.isdir(script) and not os.path.isfile(os.path.join(script, "__main__.py")):
        return (f"{script} is a directory, not a script (a directory can be run only when it "
                f"has a __main__.py); give the path of the script to run, e.g. "
                f"{os.path.join(script, 'train.py')}")
    return None


def main(argv: Optional[List[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = _parser()
    if not argv:
        parser.print_help(sys.stderr)
        return 2
    try:
        options = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, usage errors: argparse's status
        return e.code if isinstance(e.code, int) else 2
    if options.command == "graph-support":
        return graph_support_main(options.files)
    if options.command != "run":
        parser.print_help(sys.stderr)
        return 2
    error = _script_error(options.script)
    if error is not None:
        print(f"tf1compat: {error}", file=sys.stderr)
        return 2
    return _run(options.script, options.args)


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


def _run(script: str, script_args: List[str]) -> int:
    import tf1compat
    tf1compat.install()
    sys.argv = [script] + script_args
    sys.path.insert(0, os.path.abspath(script) if os.path.isdir(script) else
                    os.path.dirname(os.path.abspath(script)))
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
