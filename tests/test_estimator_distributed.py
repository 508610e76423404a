"""tf.estimator.train_and_evaluate in a TF_CONFIG cluster: chief, worker, ps and evaluator
as four processes on local ports (tests/fixtures/distributed/estimator_task.py), with a
LinearRegressor trained by SyncReplicasOptimizer; and the cluster tasks' RunConfig and
errors (the values themselves are goldens: tests/golden/cases_estimator_cluster.py)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from tests.test_distribute_ps import _free_ports

TASK = Path(__file__).parent / "fixtures" / "distributed" / "estimator_task.py"
JOB_TIMEOUT = 240
MAX_STEPS = 12


def _run_cluster(tmp_path: Path) -> dict:
    ports = ",".join(map(str, _free_ports(3)))
    env = dict(os.environ, OMP_NUM_THREADS="1", TF1COMPAT_RPC_TIMEOUT="60")
    env.pop("TF_CONFIG", None)
    outs, procs = {}, []
    try:
        for task in ("ps", "chief", "worker", "evaluator"):
            # The worker gets a model_dir of its own: TF's non-chief writes nothing there.
            model_dir = tmp_path / ("worker_dir" if task == "worker" else "model")
            outs[task] = tmp_path / f"{task}.out"
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "tf1compat", "run", str(TASK), task, ports,
                 str(model_dir), str(outs[task])], env=env, stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT))
        for p in procs:
            text, _ = p.communicate(timeout=JOB_TIMEOUT)
            assert p.returncode == 0, text.decode(errors="replace")[-3000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return outs


def _one_process_reference(model_dir: Path) -> dict:
    """The same LinearRegressor with plain GradientDescent(0.05), in this process: both
    replicas read the same batches, so their averaged gradient is this one's."""
    import tf1compat as tf
    rng = np.random.RandomState(0)
    x = rng.randn(64, 3).astype(np.float32)
    y = x @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
    est = tf.estimator.LinearRegressor(
        [tf.feature_column.numeric_column("x", [3])],
        optimizer=tf.train.GradientDescentOptimizer(0.05),
        config=tf.estimator.RunConfig(model_dir=str(model_dir), tf_random_seed=1))
    est.train(tf.estimator.inputs.numpy_input_fn({"x": x}, y, batch_size=8, num_epochs=None,
                                                 shuffle=False), max_steps=MAX_STEPS)
    return {name: est.get_variable_value(name) for name in est.get_variable_names()}


def test_train_and_evaluate_chief_worker_ps_evaluator(tmp_path, monkeypatch):
    outs = _run_cluster(tmp_path)
    for task in ("ps", "chief", "worker"):
        assert outs[task].read_text() == "done"
    model = tmp_path / "model"
    names = sorted(os.listdir(model))
    # Checkpoints on the chief's cadence (save_checkpoints_steps=5) and at the end.
    steps = sorted({int(n.split("-")[1].split(".")[0]) for n in names
                    if n.startswith("model.ckpt-")})
    assert steps == [0, 5, 10, MAX_STEPS]
    assert "graph.pbtxt" in names and "checkpoint" in names
    assert any(n.startswith("events.out.tfevents") for n in names)
    assert any(n.startswith("events.out.tfevents") for n in os.listdir(model / "eval"))
    # The worker wrote nothing: no checkpoints, summaries or graph.
    worker_dir = tmp_path / "worker_dir"
    assert not worker_dir.exists() or not list(worker_dir.iterdir())
    # The evaluator evaluated checkpoints until one reached max_steps (the final export).
    evals = [json.loads(line) for line in outs["evaluator"].read_text().splitlines()]
    assert evals[-1]["global_step"] == MAX_STEPS and evals[-1]["final"] is True
    assert evals[-1]["checkpoint"] == f"model.ckpt-{MAX_STEPS}"
    assert [e["final"] for e in evals[:-1]] == [False] * (len(evals) - 1)
    assert {"average_loss", "label/mean", "prediction/mean", "loss"} <= set(evals[-1])
    assert evals[-1]["average_loss"] < evals[0]["average_loss"]
    # Sync replicas on identical batches, no init tokens (each step waits for both): the
    # chief's checkpoint is one process's result. (TF's default init tokens would let the
    # chief fill the first step alone during the worker's start-up delay.)
    monkeypatch.delenv("TF_CONFIG", raising=False)
    import tf1compat as tf
    reference = _one_process_reference(tmp_path / "reference")
    reader = tf.train.NewCheckpointReader(tf.train.latest_checkpoint(str(model)))
    assert int(reader.get_tensor("global_step")) == MAX_STEPS
    for name in ("linear/linear_model/x/weights", "linear/linear_model/bias_weights"):
        np.testing.assert_allclose(reader.get_tensor(name), reference[name], rtol=1e-5,
                                   atol=1e-6)


_CLUSTER = {"chief": ["localhost:1"], "worker": ["localhost:2"], "ps": ["localhost:3"]}


def _linear_regressor(tf):
    return tf.estimator.LinearRegressor([tf.feature_column.numeric_column("x", [3])])


def _input(tf):
    return tf.estimator.inputs.numpy_input_fn({"x": np.ones([4, 3], np.float32)},
                                              np.ones([4, 1], np.float32), shuffle=False)


def test_training_in_a_cluster_without_a_server_fails_clearly(monkeypatch):
    """Estimator.train on a cluster task needs this process's tf.train.Server (what
    train_and_evaluate starts): without one it fails at once instead of training apart."""
    import tf1compat as tf
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": _CLUSTER,
                                                "task": {"type": "chief", "index": 0}}))
    with pytest.raises(tf.errors.FailedPreconditionError, match="no tf.train.Server runs"):
        _linear_regressor(tf).train(_input(tf), max_steps=2)


def test_replica_device_setter_places_variables_on_ps(monkeypatch):
    import tf1compat as tf
    from tf1compat.estimator.estimator import _get_replica_device_setter
    monkeypatch.setenv("TF_CONFIG", json.dumps({"cluster": _CLUSTER,
                                                "task": {"type": "worker", "index": 0}}))
    config = tf.estimator.RunConfig()
    with tf.Graph().as_default(), tf.device(_get_replica_device_setter(config)):
        v = tf.get_variable("v", [2])
        y = v * 2.0
    assert v.op.device == "/job:ps/task:0"
    assert y.op.device == "/job:worker/task:0"


def test_train_distribute_in_a_cluster_is_not_supported(monkeypatch):
    """Strategies replicate within one process (tests/test_distribute_strategy.py); TF's
    distribute coordinator for a TF_CONFIG cluster is not provided."""
    import tf1compat as tf
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"chief": ["localhost:1"], "worker": ["localhost:2"]},
        "task": {"type": "worker", "index": 0}}))
    with pytest.raises(NotImplementedError, match="TF_CONFIG cluster"):
        tf.estimator.RunConfig(train_distribute=tf.distribute.MirroredStrategy(["/cpu:0"]))
