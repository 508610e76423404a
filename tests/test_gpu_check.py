"""scripts/gpu_check.sh and scripts/bench_gpu.py without a GPU: a clear skip, exit 0."""

import os
import subprocess
import sys

import pytest
import torch

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

pytestmark = pytest.mark.skipif(torch.cuda.is_available(),
                                reason="this machine has a GPU: run scripts/gpu_check.sh")


def test_gpu_check_skips_cleanly_without_cuda():
    out = subprocess.run(["bash", os.path.join(ROOT, "scripts", "gpu_check.sh")],
                         env=dict(os.environ, PYTHON=sys.executable),
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "gpu_check: skipped: no CUDA device" in out.stdout


def test_bench_gpu_skips_cleanly_without_cuda():
    out = subprocess.run([sys.executable, os.path.join(ROOT, "scripts", "bench_gpu.py")],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "no CUDA device" in out.stdout and "skipped" in out.stdout
