"""The list of known GPU differences names tests that exist (a renamed test would silently
drop out of it and fail on the next GPU run with no reason given)."""

import os
import subprocess
import sys

from tests.gpu_known_differences import KNOWN_GPU_DIFFERENCES

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_every_known_gpu_difference_names_collected_tests():
    files = sorted({"tests/test_goldens.py", "tests/test_goldens_checked.py",
                    "tests/test_op_goldens.py", "tests/test_eager_goldens.py",
                    "tests/test_distribute_multi_worker.py", "tests/test_distribute_strategy.py",
                    "tests/test_mixed_precision.py", "tests/test_graph_import.py",
                    "tests/test_graph_export.py", "tests/test_loop_gradient_export.py",
                    "tests/test_keras_saved_model.py", "tests/test_migration_examples.py",
                    "tests/test_keras_datasets.py", "tests/test_denormals.py"})
    out = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q",
                          "-p", "no:cacheprovider", *files],
                         cwd=ROOT, capture_output=True, text=True, timeout=600).stdout
    ids = [line for line in out.splitlines() if "::" in line]
    assert len(ids) > 1000, out[-2000:]
    missing = [key for key in KNOWN_GPU_DIFFERENCES if not any(key in i for i in ids)]
    assert not missing
