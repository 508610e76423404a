"""Parameter-server training (tf.train.Server on torch.distributed.rpc): 1 ps, 2 workers.

The three tasks run as subprocesses on free local ports, with timeouts, always killed.
"""

import os
import subprocess
import sys
from pathlib import Path
from typing import List

import numpy as np
import pytest

from tf1compat.distribute.local_cluster import _free_ports

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "ps_worker.py"
JOB_TIMEOUT = 240


def _run_cluster(mode: str, tmp_path: Path, rpc_timeout: int = 60,
                 expected: tuple = (0, 0, 0)) -> List[Path]:
    ports = ",".join(map(str, _free_ports(3)))
    tasks = [("ps", 0), ("worker", 0), ("worker", 1)]
    outs = [tmp_path / f"{job}{task}.{'npz' if job == 'ps' else 'txt'}" for job, task in tasks]
    env = dict(os.environ, OMP_NUM_THREADS="1", TF1COMPAT_RPC_TIMEOUT=str(rpc_timeout))
    procs = []
    try:
        for (job, task), out in zip(tasks, outs):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "tf1compat", "run", str(WORKER), job, str(task), ports,
                 mode, str(out)], env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        for p, code in zip(procs, expected):
            text, _ = p.communicate(timeout=JOB_TIMEOUT)
            assert p.returncode == code, text.decode(errors="replace")[-3000:]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    return outs


def test_async_workers_converge_and_global_step_counts_every_update(tmp_path):
    ps, worker0, worker1 = _run_cluster("async", tmp_path)
    held = np.load(ps)
    updates = int(worker0.read_text()) + int(worker1.read_text())
    assert int(held["global_step"]) == updates >= 20
    assert int(worker0.read_text()) > 0 and int(worker1.read_text()) > 0
    # y = x @ [1, -2, 0.5] + 0.3: the ps weights moved from zeros towards it.
    assert np.abs(held["weights"].ravel() - [1.0, -2.0, 0.5]).max() < 1.0


def _single_process_reference(steps: int):
    """GradientDescent(0.1) on the workers' combined batch, in this process."""
    import tf1compat as tf
    rng = np.random.RandomState(0)
    features = rng.randn(8, 3).astype(np.float32)
    targets = features @ np.array([[1.0], [-2.0], [0.5]], np.float32) + 0.3
    with tf.Graph().as_default():
        weights = tf.get_variable("weights", [3, 1], initializer=tf.zeros_initializer())
        bias = tf.get_variable("bias", [1], initializer=tf.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(features, weights) + bias - targets))
        train_op = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(steps):
                sess.run(train_op)
            return sess.run({"weights": weights, "bias": bias})


def test_sync_replicas_equal_one_process_on_the_combined_batch(tmp_path):
    """No init tokens (`num_tokens=0`): each worker's run waits for its step's token, so
    every step averages one gradient of each worker at that step's weights, as one process
    on the combined batch. (With TF's default init tokens, `replicas_to_aggregate` of them,
    the first worker up may fill the first step alone: see the token-queue golden.)"""
    ps, worker0, worker1 = _run_cluster("sync", tmp_path)
    held = np.load(ps)
    assert int(worker0.read_text()) == int(worker1.read_text()) == int(held["global_step"]) == 6
    reference = _single_process_reference(6)
    for name, value in reference.items():
        np.testing.assert_allclose(held[name], value, rtol=1e-5, atol=1e-6, err_msg=name)


def test_sync_replicas_backup_workers_drop_stale_gradients(tmp_path):
    """replicas_to_aggregate=1 of 2 workers: each step applies one worker's gradient at
    that step's weights; a gradient that comes after its step is dropped."""
    ps, worker0, worker1 = _run_cluster("backup", tmp_path)
    held = np.load(ps)
    steps = int(held["global_step"])
    runs = int(worker0.read_text()) + int(worker1.read_text())
    assert 10 <= steps <= runs and int(worker1.read_text()) >= 1
    rng = np.random.RandomState(0)
    features = rng.randn(8, 3).astype(np.float64)
    targets = features @ np.array([[1.0], [-2.0], [0.5]]) + 0.3

    def gradient(params, task):
        x, y = features[4 * task:4 * task + 4], targets[4 * task:4 * task + 4]
        error = 2 * (x @ params[:3] + params[3] - y) / 4
        return np.concatenate([x.T @ error, [[error.sum()]]])

    # Some choice of worker per step reproduces the ps values; a stale gradient would not.
    found = [np.zeros((4, 1))]
    for _ in range(steps):
        found = [p - 0.1 * gradient(p, task) for p in found for task in (0, 1)]
    final = np.concatenate([held["weights"], held["bias"].reshape(1, 1)])
    assert min(np.abs(p - final).max() for p in found) < 1e-5


def test_a_dead_sync_worker_fails_the_other_within_the_timeout(tmp_path):
    outs = _run_cluster("sync_die", tmp_path, rpc_timeout=10, expected=(0, 0, 3))
    kind, waited, message = outs[1].read_text().split("\n", 2)
    assert kind == "DeadlineExceededError", message
    assert float(waited) < 40
    assert "1 of 2 replicas" in message


def test_server_arguments_as_tf():
    import tf1compat as tf
    cluster = tf.train.ClusterSpec({"ps": ["localhost:1"], "worker": ["localhost:2",
                                                                     "localhost:3"]})
    with pytest.raises(ValueError, match="job_name"):
        tf.train.Server(cluster, start=False)
    with pytest.raises(ValueError, match="task_index"):
        tf.train.Server(cluster, job_name="worker", start=False)
    server = tf.train.Server(cluster, job_name="worker", task_index=1, start=False)
    assert server.target == "grpc://localhost:3"
    with pytest.raises(NotImplementedError, match="protocol"):
        tf.train.Server(cluster, job_name="ps", protocol="grpc+verbs", start=False)


def test_local_cluster_sync_replicas_threads_equal_one_process():
    """tf.test.create_local_cluster: two worker threads (one session each on its worker's
    target), SyncReplicasOptimizer with no init tokens: each train-op run returns the token
    of the step it waited for and the ps ends where one process on both batches ends, as
    real TF 2.15 (scripts/record_sync_replicas_tokens.py). (With TF's default tokens TF's
    chief fills the steps alone while the other worker starts.)"""
    import json
    import tf1compat as tf
    workers, ps_servers = tf.test.create_local_cluster(num_workers=2, num_ps=1)
    assert isinstance(workers[0], tf.train.Server) and len(ps_servers) == 1
    program = _sync_tokens_program()
    ours = program.run_two_workers(tf, [w.target for w in workers], workers[0].cluster,
                                   num_tokens=0)
    golden = json.loads((Path(__file__).parent / "golden" / "data" /
                         "sync_replicas_two_workers.json").read_text())
    assert ours["tokens"] == golden["tokens"] == [[1, 2, 3, 4], [1, 2, 3, 4]]
    reference = _single_process_reference(program.TWO_WORKER_STEPS)
    for name in ("weights", "bias"):
        np.testing.assert_allclose(ours[name], golden[name], rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(ours[name], reference[name].ravel(), rtol=1e-5, atol=1e-6)


def _sync_tokens_program():
    """tests/fixtures/distributed/sync_tokens_program.py (shared with the TF recorder)."""
    sys.path.insert(0, str(WORKER.parent))
    try:
        import sync_tokens_program
    finally:
        sys.path.remove(str(WORKER.parent))
    return sync_tokens_program


def test_sync_replicas_token_queue_as_recorded_from_tf():
    """total_num_replicas=1 < replicas_to_aggregate=2 against real TF 2.15's run-by-run
    tokens, global steps and weights (scripts/record_sync_replicas_tokens.py)."""
    import json
    import tf1compat as tf
    program = _sync_tokens_program()
    golden = json.loads((Path(__file__).parent / "golden" / "data" /
                         "sync_replicas_tokens.json").read_text())
    workers, _ = tf.test.create_local_cluster(num_workers=1, num_ps=1)
    ours = program.run_program(tf, workers[0].target, workers[0].cluster)
    assert ours["tokens"] == golden["tokens"]
    for run in program.DETERMINISTIC_RUNS:
        assert ours["global_step"][run] == golden["global_step"][run], run
        np.testing.assert_allclose(ours["weights"][run], golden["weights"][run],
                                   rtol=1e-5, atol=1e-6, err_msg=str(run))


def test_sync_replicas_token_wait_times_out_clearly(monkeypatch):
    """A worker alone where 2 replicas must send gradients, with no init tokens: its run
    waits for a token (TF waits forever) and fails after TF1COMPAT_RPC_TIMEOUT seconds
    naming the queue and the replicas; the session then closes without waiting for the
    chief's take."""
    import time
    import tf1compat as tf
    monkeypatch.setenv("TF1COMPAT_RPC_TIMEOUT", "2")
    with tf.Graph().as_default():   # a first gradient run imports torch's lazy modules
        x = tf.Variable([1.0])
        with tf.Session() as sess:
            sess.run(x.initializer)
            sess.run(tf.gradients(x * x, x))
    workers, _ = tf.test.create_local_cluster(num_workers=1, num_ps=1)
    with tf.Graph().as_default():
        with tf.device(tf.train.replica_device_setter(worker_device="/job:worker/task:0",
                                                      cluster=workers[0].cluster)):
            weights = tf.get_variable("weights", [2], initializer=tf.ones_initializer())
            opt = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                                 replicas_to_aggregate=2,
                                                 total_num_replicas=2)
            train_op = opt.minimize(tf.reduce_sum(weights * weights),
                                    global_step=tf.train.get_or_create_global_step())
        start = time.time()
        with pytest.raises(tf.errors.DeadlineExceededError,
                           match=r"no token in sync_token_q within 2 s: 1 of 2 replicas sent "
                                 r"their gradients for global step 0"):
            with tf.train.MonitoredTrainingSession(
                    master=workers[0].target, is_chief=True,
                    hooks=[opt.make_session_run_hook(True, num_tokens=0)]) as sess:
                sess.run(train_op)
        assert time.time() - start < 15


def test_overlapping_runs_of_one_session_keep_each_others_updates():
    """A run that changed a ps variable and is still running (here: waiting in a PyFunc)
    keeps its change when another run of the same session reads the variable meanwhile:
    the reader pulls only values the ps holds at another version (what made the chief's
    sync-replicas step lose its global step and tokens under load)."""
    import threading
    import tf1compat as tf
    workers, _ = tf.test.create_local_cluster(num_workers=1, num_ps=1)
    release, changed = threading.Event(), threading.Event()

    def hold(value):
        changed.set()
        release.wait(30)
        return value

    with tf.Graph().as_default():
        with tf.device("/job:ps/task:0"):
            counter = tf.get_variable("counter", [], initializer=tf.zeros_initializer())
        with tf.control_dependencies([tf.assign_add(counter, 1.0)]):
            slow_update = tf.py_func(hold, [tf.constant(0.0)], tf.float32)
        with tf.Session(workers[0].target) as sess:
            sess.run(counter.initializer)
            updater = threading.Thread(target=sess.run, args=(slow_update,))
            updater.start()
            assert changed.wait(30)
            assert sess.run(counter) == 1.0     # this session's value, not the ps's older one
            release.set()
            updater.join(30)
            assert sess.run(counter) == 1.0
        with tf.Session(workers[0].target) as other:    # what the ps holds
            assert other.run(counter) == 1.0
