"""docs/migrating.md's worked example (migration_examples/cnn_export_to_pytorch): a CNN
trained TF1-style, exported, fine-tuned in plain PyTorch. The script checks itself (first-step
loss and weights equal TF1's step, the hand-written model equal to the module); here, also
that fine-tuning in PyTorch continues the run real TensorFlow recorded (main.py's output)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

from tests.migration import EXAMPLES
from tests.child_env import child_env

FOLDER = os.path.join(EXAMPLES, "cnn_export_to_pytorch")


def test_worked_example_fine_tunes_with_the_first_step_loss_of_tf1():
    env = child_env()
    proc = subprocess.run([sys.executable, "to_pytorch.py"], cwd=FOLDER, capture_output=True,
                          text=True, env=env, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    out = proc.stdout
    tf1, torch_loss = re.search(r"first-step loss: TF1 ([\d.]+), PyTorch ([\d.]+)", out).groups()
    assert tf1 == torch_loss
    assert "weights after the step agree" in out
    assert "hand-written model agrees" in out
    assert re.search(r"torch\.export: \d+ nodes", out)
    # The PyTorch fine-tuning steps are the steps main.py takes under real TensorFlow.
    recorded = open(os.path.join(FOLDER, "expected_output.txt")).read()
    for step in (25,):
        tf_value = float(re.search(rf"^step {step} loss ([\d.]+)$", recorded, re.M).group(1))
        torch_value = float(re.search(rf"^torch step {step} loss ([\d.]+)$", out,
                                      re.M).group(1))
        assert abs(torch_value - tf_value) <= 1e-4 * tf_value, (step, torch_value, tf_value)
