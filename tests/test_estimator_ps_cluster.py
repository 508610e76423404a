"""tf.estimator.train_and_evaluate in a TF_CONFIG parameter-server cluster with TF's
default asynchronous updates: chief, workers, ps and evaluator as separate processes on
local ports (tests/fixtures/distributed/estimator_ps_task.py, run by
tests/fixtures/distributed/estimator_cluster.py), against what TF 2.15 did with the same
program (tests/golden/data/estimator_ps_cluster.json, scripts/record_estimator_cluster.py).

`strategy_linear` trains with RunConfig(train_distribute=
tf.distribute.experimental.ParameterServerStrategy()) (TF's distribute coordinator).
One trainer (chief + ps) is deterministic: checkpoints, variables and the evaluator's final
metrics equal TF's to rounding. With a chief and two workers the interleaving of the
updates is not: the test asserts what TF guarantees (every trainer finishes, global step
past max_steps, the chief alone writes, the evaluator ends on the chief's last checkpoint).
"""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent / "fixtures" / "distributed"))

from estimator_cluster import run_cluster, summarize  # noqa: E402

GOLDEN = json.loads((Path(__file__).parent / "golden" / "data" /
                     "estimator_ps_cluster.json").read_text())
# Bounds every task's run (each takes 10-30 s on 2 idle cores).
TASK_TIMEOUT = 300


def _read_checkpoint(prefix: str) -> dict:
    import tf1compat as tf
    reader = tf.train.NewCheckpointReader(prefix)
    return {name: reader.get_tensor(name).tolist()
            for name in sorted(reader.get_variable_to_shape_map())}


def _run(name: str, tmp_path: Path) -> dict:
    golden = GOLDEN[name]
    outs = run_cluster([sys.executable, "-m", "tf1compat", "run"], tmp_path, golden["jobs"],
                       golden["model"], golden["max_steps"], timeout=TASK_TIMEOUT,
                       ps_exits=True, env={"OMP_NUM_THREADS": "1",
                                           "TF1COMPAT_RPC_TIMEOUT": "60"})
    return summarize(tmp_path, outs, _read_checkpoint)


def _check_evaluations(run: dict, exact: bool = True) -> None:
    """The evaluator evaluated checkpoints the chief wrote, the last one last and final.
    Not `exact` (concurrent workers): a checkpoint's global step is the value its save read,
    which may be past the step in its name (read before the save, as TF's saver hook)."""
    evaluations = run["evaluations"]
    assert evaluations, "the evaluator evaluated nothing"
    for e in evaluations:
        step = int(e["checkpoint"].split("-")[1])
        # (or one that keep_checkpoint_max deleted since: older than those kept)
        assert step in run["checkpoint_steps"] or step < run["checkpoint_steps"][0], e
        assert step == e["global_step"] if exact else step <= e["global_step"], e
    assert [e["final"] for e in evaluations] == [False] * (len(evaluations) - 1) + [True]
    assert evaluations[-1]["checkpoint"] == f"model.ckpt-{run['checkpoint_steps'][-1]}"


@pytest.mark.parametrize("name", ["single_linear", "single_dnn", "strategy_linear"])
def test_one_trainer_and_ps_equal_tf(name, tmp_path):
    golden = GOLDEN[name]
    run = _run(name, tmp_path)
    for key in ("checkpoint_steps", "model_dir", "eval_dir_has_events", "worker_dirs_empty",
                "trainers_done"):
        assert run[key] == golden[key], key
    _check_evaluations(run)
    assert sorted(run["last_checkpoint"]) == sorted(golden["last_checkpoint"])
    for var, value in golden["last_checkpoint"].items():
        np.testing.assert_allclose(run["last_checkpoint"][var], value, rtol=1e-5, atol=1e-6,
                                   err_msg=var)
    # Which intermediate checkpoints the evaluator saw depends on timing; the final one not.
    final, tf_final = run["evaluations"][-1], golden["evaluations"][-1]
    assert sorted(final) == sorted(tf_final)
    assert final["checkpoint"] == tf_final["checkpoint"]
    for key, value in tf_final.items():
        if key not in ("final", "checkpoint"):
            np.testing.assert_allclose(final[key], value, rtol=1e-4, atol=1e-6, err_msg=key)


def test_chief_two_workers_ps_evaluator_async(tmp_path):
    golden = GOLDEN["async_linear"]
    max_steps = golden["max_steps"]
    trainers = golden["jobs"]["chief"] + golden["jobs"]["worker"]
    run = _run("async_linear", tmp_path)
    assert run["trainers_done"] == golden["trainers_done"] == [{"done": True}] * trainers
    # Only the chief writes: the workers' model_dirs stay empty, the chief's has TF's files.
    assert run["worker_dirs_empty"] == golden["worker_dirs_empty"] == [True, True]
    assert run["model_dir"] == golden["model_dir"]
    assert run["eval_dir_has_events"] and golden["eval_dir_has_events"]
    # The chief's first checkpoint is the initialization's, its last past max_steps: each
    # trainer stops after the first run that sees max_steps reached, so the step overshoots
    # by less than two runs per trainer (TF's recorded runs: 40 and 41 for 40).
    # How many the chief saves depends on how the trainers' runs interleave (TF's run saved
    # at 0 and 40 only, a rerun at 0, 8 and 41: its saves through the ps are slow next to the
    # workers' steps); with more than keep_checkpoint_max (5) the first are deleted.
    for steps in (run["checkpoint_steps"], golden["checkpoint_steps"]):
        assert steps[0] == 0 or len(steps) == 5, steps
        assert max_steps <= steps[-1] < max_steps + 2 * trainers, steps
        assert steps == sorted(set(steps))
    assert run["last_checkpoint"]["global_step"] >= run["checkpoint_steps"][-1]
    _check_evaluations(run, exact=False)
    _check_evaluations(golden, exact=False)
    # Asynchronous SGD converged towards y = x @ [1, -2, 0.5] + 0.3 as TF's did.
    for result in (run, golden):
        assert result["evaluations"][-1]["average_loss"] < 0.1
        weights = np.ravel(result["last_checkpoint"]["linear/linear_model/x/weights"])
        np.testing.assert_allclose(weights, [1.0, -2.0, 0.5], atol=0.2)


@pytest.mark.parametrize("mode", ["cluster", "local"])
def test_parameter_server_strategy_placement_equals_tf(mode):
    """Worker 1 of a chief + 2 workers + 2 ps cluster computes on its CPU and puts the
    variables round-robin on the ps tasks; without a cluster all is local (TF's names)."""
    program = Path(__file__).parent / "fixtures" / "distributed" / "ps_strategy_placement.py"
    done = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(program), mode],
                          capture_output=True, text=True, timeout=TASK_TIMEOUT)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert json.loads(done.stdout.strip().splitlines()[-1]) == GOLDEN[f"placement_{mode}"]
