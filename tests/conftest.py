"""Suite-wide settings.

On a CUDA machine (scripts/gpu_check.sh --full-suite runs the whole suite there, every
graph op placed on cuda:0) the goldens, recorded from TF's float32 CPU kernels, are
compared with full float32 GPU arithmetic: torch's cuDNN convolutions and RNNs otherwise
use TensorFloat-32 (10-bit mantissas) on Ampere and later GPUs.
"""

import compileall
import os
import sys

import torch

if torch.cuda.is_available():
    torch.backends.cudnn.allow_tf32 = False
    torch.backends.cuda.matmul.allow_tf32 = False


def pytest_configure(config):
    """With bytecode writing off (PYTHONDONTWRITEBYTECODE, as on CI), every Python process
    the suite starts (the two xdist workers and the ~200 child processes: CLIs, cluster
    tasks, round trips) would compile tf1compat's ~950 modules from source again: about
    2 s of CPU each, twice the import from bytecode. The controller compiles the checkout
    once into its __pycache__ folders (git ignores them), which Python reads even with
    writing off; it checks each file against its source's mtime and size as usual. (A
    PYTHONPYCACHEPREFIX outside the checkout would not do: with one set, Python looks for
    no other bytecode, and every child would compile the standard library and torch.)
    Serial: ~6 s of CPU on a fresh checkout, 0.2 s once compiled (a process pool costs
    2-3 s even then)."""
    if not sys.dont_write_bytecode or hasattr(config, "workerinput"):
        return
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for folder in ("tf1compat", "tests"):
        compileall.compile_dir(os.path.join(root, folder), quiet=2)


def pytest_collection_modifyitems(config, items):
    """On a CUDA machine, the known GPU differences (gpu_known_differences.py) are xfail."""
    if not torch.cuda.is_available():
        return
    import pytest

    from tests.gpu_known_differences import KNOWN_GPU_DIFFERENCES
    for item in items:
        for key, reason in KNOWN_GPU_DIFFERENCES.items():
            if key in item.nodeid:
                item.add_marker(pytest.mark.xfail(reason=reason, strict=False))
                break


def pytest_runtest_logreport(report):
    """With TF1COMPAT_TEST_FAILURE_LOG set, each failure's traceback is appended to that
    file as it happens: a run stopped at its time limit (gpu_check.sh --full-suite), which
    never prints its summary, still says why its tests failed. Under pytest-xdist the
    controller writes (it receives every worker's reports), the workers do not."""
    path = os.environ.get("TF1COMPAT_TEST_FAILURE_LOG")
    if not path or not report.failed or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    with open(path, "a", encoding="utf-8") as log:
        log.write(f"==== {report.nodeid} ({report.when})\n{report.longreprtext}\n")
