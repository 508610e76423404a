"""The `tf1compat` command: `run` a legacy TF1 script, `check` the TensorFlow names of
scripts, `graph-support` of graph files.

* `tf1compat run SCRIPT [ARGS...]` runs a legacy TF1 script. Everything after SCRIPT
  belongs to the script (`tf1compat run train.py --help` shows the script's own help, as
  `python train.py --help` does). SCRIPT may be a file or, as for `python`, a directory
  or zip archive with a `__main__.py`.
* `tf1compat check PATH... [--json] [--problems-only]` lists the TensorFlow names the
  scripts use and whether tf1compat supports them, without running them
  (tf1compat/check/); exit status 1 when something is not supported.
* `tf1compat graph-support FILE...` lists the op types of graph files (.meta, frozen
  .pb/.pbtxt, SavedModel directories) tf1compat cannot run.

`tf1compat run --nproc-per-node N SCRIPT` starts N processes of the script through
PyTorch's launcher (`torch.distributed.run`, what `torchrun` runs), each under tf1compat,
for Horovod-style training (docs/distributed.md); `--nnodes`, `--node-rank`,
`--master-addr`, `--master-port` and `--rdzv-endpoint` are passed on to it.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import runpy
import sys
from typing import Any, List, Optional, Tuple

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
        "run", help="run a TF1 script (or `-m MODULE`) as __main__ (its arguments follow it)",
        usage="tf1compat run [launch options] SCRIPT [ARGS ...]\n"
              "       tf1compat run [launch options] -m MODULE [ARGS ...]",
        description="Runs SCRIPT as __main__ with `import tensorflow` resolving to "
                    "tf1compat; ARGS become the script's sys.argv[1:] (options included). "
                    "`-m MODULE` runs a library module as `python -m` does: "
                    "`tf1compat run -m pytest tests/` runs a TF1 project's own test suite "
                    "on tf1compat.")
    launcher = run.add_argument_group(
        "multi-process launch (torch.distributed.run)",
        "start several processes of SCRIPT, as torchrun does (Horovod-style jobs)")
    launcher.add_argument("--nproc-per-node", "--nproc_per_node", type=int, metavar="N",
                          help="processes to start on this machine")
    for option, text in (("--nnodes", "number of machines (default 1)"),
                         ("--node-rank", "this machine's rank"),
                         ("--master-addr", "the rank-0 machine's address"),
                         ("--master-port", "the rank-0 machine's port"),
                         ("--rdzv-endpoint", "rendezvous host:port (elastic launch)")):
        spellings = [option]
        if "-" in option[2:]:
            spellings.append("--" + option[2:].replace("-", "_"))   # torchrun's alias
        launcher.add_argument(*spellings, metavar=option[2:].upper().replace("-", "_"),
                              help=text)
    run.add_argument("script", metavar="SCRIPT",
                     help="a Python file, or a directory / zip file with __main__.py; "
                          "or -m MODULE")
    run.add_argument("args", nargs=argparse.REMAINDER, metavar="ARGS",
                     help="the script's own arguments")
    check = commands.add_parser(
        "check", help="list the TensorFlow names scripts use and whether tf1compat "
                      "supports them (static; nothing is run)",
        description="Scans PATHs (Python files, or directories searched recursively) for "
                    "the TensorFlow names they use - through `import tensorflow as tf`, "
                    "`tensorflow.compat.v1`, `from tensorflow.contrib import slim`, "
                    "TF-internal imports, ... - and says for each whether tf1compat "
                    "supports it, and what to use instead when not. Exit status: 1 when "
                    "something is not supported, 0 otherwise.")
    check.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    check.add_argument("--json", action="store_true", help="write the report as JSON")
    check.add_argument("--problems-only", action="store_true",
                       help="list only the uses that are not supported (the summary "
                            "counts everything)")
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
    argv, module, module_args = _split_module(argv)
    try:
        options = parser.parse_args(argv)
    except SystemExit as e:          # --help, --version, usage errors: argparse's status
        return e.code if isinstance(e.code, int) else 2
    if module is not None:
        options.script, options.args = None, module_args
    if options.command == "check":
        return _check(options.paths, options.json, options.problems_only)
    if options.command == "graph-support":
        return graph_support_main(options.files)
    if options.command != "run":
        parser.print_help(sys.stderr)
        return 2
    error = _script_error(options.script) if module is None else None
    if error is not None:
        print(f"tf1compat: {error}", file=sys.stderr)
        return 2
    if options.nproc_per_node is not None:
        return _launch(options, module)
    if any(getattr(options, k) is not None for k in _LAUNCHER_OPTIONS):
        print("tf1compat: --nnodes/--node-rank/--master-addr/--master-port/--rdzv-endpoint "
              "need --nproc-per-node", file=sys.stderr)
        return 2
    if module is not None:
        return _run_module(module, options.args)
    return _run(options.script, options.args)


_LAUNCHER_OPTIONS = ("nnodes", "node_rank", "master_addr", "master_port", "rdzv_endpoint")


def _split_module(argv: List[str]) -> Tuple[List[str], Optional[str], List[str]]:
    """`run [launch options] -m MODULE ARGS...` as (argv for argparse, MODULE, ARGS).

    argparse cannot take an option in place of the SCRIPT positional and pass everything
    after it through untouched, so the module form is split off first: the launch
    options stay for argparse, with MODULE standing in for SCRIPT."""
    if not argv or argv[0] != "run":
        return argv, None, []
    i = 1
    while i < len(argv):
        token = argv[i]
        if token in ("-m", "--module") and i + 1 < len(argv):
            return argv[:i] + [argv[i + 1]], argv[i + 1], argv[i + 2:]
        if token.startswith("-m") and len(token) > 2 and not token.startswith("--"):
            return argv[:i] + [token[2:]], token[2:], argv[i + 1:]   # -mpytest, as python
        if not token.startswith("-"):
            break                        # the script: everything after it is its own
        if "=" not in token and token[2:].replace("-", "_") in _LAUNCHER_OPTIONS + (
                "nproc_per_node",):
            i += 1                       # the option's value
        i += 1
    return argv, None, []


def _launch(options: argparse.Namespace, module: Optional[str] = None) -> int:
    """Starts `--nproc-per-node` processes of `tf1compat run SCRIPT` (or `-m MODULE`) with
    torch's launcher."""
    if options.nproc_per_node < 1:
        print("tf1compat: --nproc-per-node must be at least 1", file=sys.stderr)
        return 2
    from torch.distributed.elastic.multiprocessing.errors import ChildFailedError
    from torch.distributed.run import main as torch_launch
    args = ["--nproc-per-node", str(options.nproc_per_node)]
    multi_node = options.nnodes not in (None, "1") or options.rdzv_endpoint or \
        options.master_addr
    if not multi_node:
        args.append("--standalone")     # one machine: a free port, no rendezvous server
    for key in _LAUNCHER_OPTIONS:
        value = getattr(options, key)
        if value is not None:
            args += ["--" + key.replace("_", "-"), str(value)]
    target = [options.script] if options.script is not None else ["-m", module]
    args += ["-m", "tf1compat", "run", *target, *options.args]
    try:
        torch_launch(args)
    except ChildFailedError as e:
        failures = e.failures
        first = failures[min(failures)] if failures else None
        code = getattr(first, "exitcode", 1) if first is not None else 1
        print(f"tf1compat: {len(failures)} of {options.nproc_per_node} processes failed "
              f"(first: rank {min(failures) if failures else '?'}, exit code {code})",
              file=sys.stderr)
        return code if isinstance(code, int) and code > 0 else 1
    return 0


def _check(paths: List[str], as_json: bool, problems_only: bool) -> int:
    from tf1compat.check import check_paths
    try:
        report = check_paths(paths)
    except FileNotFoundError as e:
        print(f"tf1compat check: {e}", file=sys.stderr)
        return 2
    if as_json:
        report.write_json(sys.stdout)
    else:
        report.write_text(sys.stdout, problems_only)
    return 1 if report.problems else 0


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
    return _exit_status(lambda: runpy.run_path(script, run_name="__main__"))


def _run_module(module: str, module_args: List[str]) -> int:
    """`python -m MODULE ARGS` with tf1compat installed: the current directory first on
    sys.path and sys.argv[0] the module's file, as Python does."""
    import tf1compat
    from tf1compat.shim import INTERNAL_PATHS
    tf1compat.install()
    # `-m tensorflow.python.tools.freeze_graph` (TF's tools as scripts): the stand-in runs.
    module = INTERNAL_PATHS.get(module, module)
    sys.path.insert(0, os.getcwd())
    sys.argv = [module] + module_args     # runpy replaces [0] with the module's path
    try:
        found = importlib.util.find_spec(module) is not None
    except ImportError:                   # a parent package is missing
        found = False
    if not found:
        print(f"tf1compat: no module named {module!r}", file=sys.stderr)
        return 1
    return _exit_status(lambda: runpy.run_module(module, run_name="__main__",
                                                 alter_sys=True))


def _exit_status(run: Any) -> int:
    """Runs `run()` and turns its SystemExit into an exit status, and an uncaught exception
    into a traceback starting at the user's code and status 1, as the interpreter does."""
    try:
        run()
    except SystemExit as e:
        code = e.code
        if code is None:
            return 0
        if isinstance(code, int):
            return code
        print(code, file=sys.stderr)
        return 1
    except Exception as e:  # noqa: BLE001 - reported as `python script.py` reports it
        tb = _user_frames(e.__traceback__)
        sys.excepthook(type(e), e.with_traceback(tb), tb)
        return 1
    return 0


def _user_frames(tb: Any) -> Any:
    """The traceback without its first frames in this module and runpy."""
    while tb is not None and (tb.tb_frame.f_code.co_filename == __file__ or
                              "runpy" in tb.tb_frame.f_code.co_filename):
        tb = tb.tb_next
    return tb


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
