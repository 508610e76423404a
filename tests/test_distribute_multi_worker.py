"""tf.distribute.experimental.MultiWorkerMirroredStrategy on torch.distributed
(tf1compat/distribute/multi_worker_strategy.py, tf_collective_ops.py,
tf1compat/estimator/collective_training.py).

Multi-worker jobs run as subprocesses with a TF_CONFIG cluster (gloo, free ports,
timeouts, always killed): 2 workers, each on its part of every global batch, end with the
weights of 1 worker trained on the whole batch — a custom graph-mode loop (Momentum, dense
and sparse gradients) and Estimator's train_and_evaluate (Adam; chief + worker, only the
chief writes model_dir) and Keras `fit` of a model built in the scope — and start equal
although each seeds its own initializers.
"""

import json
import os
from pathlib import Path
from typing import List, Optional

import numpy as np
import pytest

import torch

import tf1compat as tf
from tf1compat.distribute import process_group
from tests.test_distribute_horovod import (_free_port, _run_job as _run_launcher_job,
                                          _run_processes)

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "mwms_worker.py"
JOB_TIMEOUT = 240


def _run_job(mode: str, outs: List[Path], tasks: Optional[List[tuple]], tmp_path: Path,
             **env: str) -> List[int]:
    """Runs the worker script once per task of a cluster (None: one local process)."""
    env_base = dict(os.environ, OMP_NUM_THREADS="1", MODEL_DIR_BASE=str(tmp_path / "md"),
                    **{process_group.TIMEOUT_ENV: "60"}, **env)
    env_base.pop("TF_CONFIG", None)
    envs = [env_base]
    if tasks is not None:
        cluster: dict = {}
        for job, _ in tasks:
            cluster.setdefault(job, []).append(f"127.0.0.1:{_free_port()}")
        envs = [dict(env_base, TF_CONFIG=json.dumps({"cluster": cluster, "task": {
            "type": job, "index": index}})) for job, index in tasks]
    return _run_processes(WORKER, mode, envs, outs)


def _run_horovod_style_job(size: int, mode: str, outs: List[Path]) -> List[int]:
    return _run_launcher_job(size, mode, outs, {process_group.TIMEOUT_ENV: "60"},
                             worker=WORKER)


def _assert_same_training(one: Path, workers: List[Path], prefix: str = "") -> None:
    reference, *results = (np.load(p) for p in [one] + workers)
    def names_in(npz):      # (the strategy's variables: not the one made outside scope)
        return sorted(n for n in npz.files if n.startswith(prefix) and "outside" not in n)
    names = names_in(reference)
    assert names
    for result in results:
        assert names_in(result) == names
    for name in names:
        np.testing.assert_allclose(results[0][name], reference[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)
        for other in results[1:]:
            np.testing.assert_array_equal(results[0][name], other[name], err_msg=name)


def test_custom_loop_on_two_workers_equals_one_worker_on_the_whole_batch(tmp_path):
    one = tmp_path / "one.npz"
    assert _run_job("loop", [one], None, tmp_path) == [0]
    workers = [tmp_path / "w0.npz", tmp_path / "w1.npz"]
    assert _run_job("loop", workers, [("worker", 0), ("worker", 1)], tmp_path) == [0, 0]
    _assert_same_training(one, workers, "final/")
    _assert_same_training(one, workers, "initial/")      # worker 0's initial values
    reference, w0, w1 = (np.load(p) for p in [one] + workers)
    np.testing.assert_allclose(w0["losses"], reference["losses"], rtol=1e-5)
    assert int(w0["final/global_step"]) == int(w1["final/global_step"]) == 4
    # (each worker seeded differently: a variable outside the scope is its own)
    assert not np.array_equal(w0["initial/outside_scope"], w1["initial/outside_scope"])
    assert int(w0["num_replicas_in_sync"]) == 2 and int(reference["num_replicas_in_sync"]) == 1
    assert w0["replica_ids"].tolist() == [[0]] * 4 and w1["replica_ids"].tolist() == [[1]] * 4
    assert list(w1["worker_devices"]) == ["/job:worker/replica:0/task:1/device:CPU:0"]
    assert bool(w0["should_checkpoint"]) and not bool(w1["should_checkpoint"])


def test_contrib_collective_all_reduce_strategy_on_two_workers(tmp_path):
    """TF 1.15's tf.contrib.distribute.CollectiveAllReduceStrategy: the same job."""
    one = tmp_path / "one.npz"
    assert _run_job("loop", [one], None, tmp_path, CONTRIB_STRATEGY="1") == [0]
    workers = [tmp_path / "w0.npz", tmp_path / "w1.npz"]
    assert _run_job("loop", workers, [("worker", 0), ("worker", 1)], tmp_path,
                    CONTRIB_STRATEGY="1") == [0, 0]
    _assert_same_training(one, workers, "final/")
    w0, w1 = np.load(workers[0]), np.load(workers[1])
    assert int(w0["num_replicas_in_sync"]) == 2
    assert list(w1["worker_devices"]) == ["/job:worker/replica:0/task:1/device:CPU:0"]


def test_workers_read_their_share_of_the_files(tmp_path):
    """TF's FILE auto-sharding: worker i reads files i, i+2, ...; each of its batches of 4
    is cut into 2 per-replica batches that its one replica reads in turn."""
    files = tmp_path / "files"
    files.mkdir()
    for i in range(4):
        (files / f"part{i}.txt").write_text("".join(f"{10 * i + j}\n" for j in range(3)))
    outs = [tmp_path / "w0.json", tmp_path / "w1.json"]
    assert _run_job("files", outs, [("worker", 0), ("worker", 1)], tmp_path,
                    FILES_DIR=str(files)) == [0, 0]
    seen = [json.loads(p.read_text()) for p in outs]
    assert seen[0] == [[0, 1], [2, 20], [21], [22]]
    assert seen[1] == [[10, 11], [12, 30], [31], [32]]


def test_custom_loop_on_processes_started_like_torchrun(tmp_path):
    """Without TF_CONFIG the workers are torchrun's processes (RANK, WORLD_SIZE, ...)."""
    one = tmp_path / "one.npz"
    assert _run_job("loop", [one], None, tmp_path) == [0]
    workers = [tmp_path / "w0.npz", tmp_path / "w1.npz"]
    assert _run_horovod_style_job(2, "loop", workers) == [0, 0]
    _assert_same_training(one, workers, "final/")
    w1 = np.load(workers[1])
    assert list(w1["worker_devices"]) == ["/job:worker/replica:0/task:1/device:CPU:0"]


@pytest.mark.skipif(not torch.cuda.is_available() or torch.cuda.device_count() < 2,
                    reason="needs 2 CUDA devices (NCCL between the workers' GPUs)")
def test_custom_loop_on_two_gpus_with_nccl(tmp_path):
    one = tmp_path / "one.npz"
    assert _run_job("loop", [one], None, tmp_path) == [0]
    workers = [tmp_path / "w0.npz", tmp_path / "w1.npz"]
    assert _run_horovod_style_job(2, "loop", workers) == [0, 0]
    _assert_same_training(one, workers, "final/")
    devices = [list(np.load(w)["worker_devices"]) for w in workers]
    assert devices == [["/job:worker/replica:0/task:0/device:GPU:0"],
                       ["/job:worker/replica:0/task:1/device:GPU:1"]]


def test_estimator_train_and_evaluate_with_a_chief_and_a_worker(tmp_path):
    one = tmp_path / "one.npz"
    assert _run_job("estimator", [one], None, tmp_path) == [0]
    local_files = (tmp_path / "one.npz.txt").read_text().split()
    workers = [tmp_path / "w0.npz", tmp_path / "w1.npz"]
    (tmp_path / "md").rename(tmp_path / "md_local")
    assert _run_job("estimator", workers, [("chief", 0), ("worker", 0)], tmp_path) == [0, 0]
    _assert_same_training(one, workers)
    chief_files = (tmp_path / "w0.npz.txt").read_text().split()
    assert "model.ckpt-6.index" in chief_files and "model.ckpt-3.index" in chief_files
    assert "checkpoint" in chief_files and "graph.pbtxt" in chief_files
    # The same files as one worker's model_dir, but for eval/: the local run evaluated,
    # and the cluster has no evaluator task.
    def files(listing):
        return {f for f in listing if not f.startswith("events.")}
    assert files(chief_files) == files(local_files) - {"eval"}
    assert (tmp_path / "w1.npz.txt").read_text() == ""     # the worker wrote nothing


def test_keras_fit_of_a_model_built_in_scope_on_two_workers(tmp_path):
    one = tmp_path / "one.npz"
    assert _run_job("keras", [one], None, tmp_path) == [0]
    workers = [tmp_path / "w0.npz", tmp_path / "w1.npz"]
    assert _run_job("keras", workers, [("worker", 0), ("worker", 1)], tmp_path) == [0, 0]
    _assert_same_training(one, workers)


def test_estimator_evaluator_task_evaluates_the_chiefs_checkpoints(tmp_path, monkeypatch):
    monkeypatch.setenv("SHARED_MODEL_DIR", "1")
    outs = [tmp_path / "chief.npz", tmp_path / "worker.npz", tmp_path / "evaluator.npz"]
    assert _run_job("estimator", outs, [("chief", 0), ("worker", 0), ("evaluator", 0)],
                    tmp_path) == [0, 0, 0]
    _assert_same_training(outs[0], outs[1:2])
    files = (tmp_path / "evaluator.npz.txt").read_text().split()
    assert "eval" in files and "model.ckpt-6.index" in files
    evaluations = os.listdir(tmp_path / "md" / "eval")
    assert any(name.startswith("events.out.tfevents") for name in evaluations)


def test_workers_running_different_collectives_fail_clearly(tmp_path):
    outs = [tmp_path / "w0.txt", tmp_path / "w1.txt"]
    assert _run_job("mismatch", outs, [("worker", 0), ("worker", 1)], tmp_path) == [0, 0]
    for out in outs:
        kind, message = out.read_text().split("\n", 1)
        assert kind == "FailedPreconditionError"
        assert "Mismatched collective operations" in message and "CollectiveReduce" in message


# -- one process ----------------------------------------------------------------------------

@pytest.fixture
def no_cluster(monkeypatch):
    for name in ("TF_CONFIG", "WORLD_SIZE", "RANK"):
        monkeypatch.delenv(name, raising=False)


def test_without_a_cluster_it_is_mirrored_strategy_on_the_local_devices(no_cluster):
    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    assert strategy.num_replicas_in_sync == 1
    assert strategy.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",)
    assert strategy.extended.experimental_between_graph
    assert strategy.extended.should_checkpoint and strategy.extended.should_save_summary
    assert strategy.extended.experimental_should_init
    with tf.Graph().as_default():
        with strategy.scope():
            v = tf.get_variable("v", initializer=[1.0, 2.0])
            total = strategy.reduce(tf.distribute.ReduceOp.SUM,
                                    strategy.experimental_run_v2(lambda: v * 2.0), axis=None)
        assert not [op for op in tf.get_default_graph().get_operations()
                    if op.type.startswith("Collective")]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            np.testing.assert_allclose(sess.run(total), [2.0, 4.0])


def test_communication_options(no_cluster):
    exp = tf.distribute.experimental
    assert exp.CollectiveCommunication is exp.CommunicationImplementation
    assert [c.value for c in exp.CollectiveCommunication] == ["AUTO", "RING", "NCCL"]
    with pytest.raises(ValueError, match="must be >=0"):
        exp.CommunicationOptions(bytes_per_pack=-1)
    with pytest.raises(ValueError, match="is not a valid CommunicationImplementation"):
        exp.CommunicationOptions(implementation="X")
    options = exp.CommunicationOptions(implementation=exp.CommunicationImplementation.RING)
    assert exp.MultiWorkerMirroredStrategy(communication_options=options)
    assert exp.MultiWorkerMirroredStrategy(exp.CollectiveCommunication.NCCL)
    with pytest.raises(ValueError):
        exp.MultiWorkerMirroredStrategy(communication_options="RING")


def test_collective_ops_in_a_world_of_one_are_the_identity(no_cluster):
    from tf1compat.distribute import tf_collective_ops as collective
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
        reduced = collective.collective_reduce(x, 1, 1, 1, "Add", "Div")
        gathered = collective.collective_gather(x, 1, 1, 2)
        sent = collective.broadcast_send(x, 1, 1, 3)
        bad = collective.collective_reduce(x, 2, 1, 4)
        assert reduced.op.type == "CollectiveReduce" and sent.op.type == "CollectiveBcastSend"
        assert gathered.shape.as_list() == [None, 2]
        with tf.Session() as sess:
            r, g, s = sess.run([reduced, gathered, sent])
            np.testing.assert_array_equal(r, [[1.0, 2.0], [3.0, 4.0]])
            np.testing.assert_array_equal(g, r)
            np.testing.assert_array_equal(s, r)
            with pytest.raises(tf.errors.InvalidArgumentError, match="group_size 2"):
                sess.run(bad)


def test_estimator_train_in_a_cluster_is_refused_as_tf(no_cluster, monkeypatch, tmp_path):
    # (the strategy is made before TF_CONFIG is set: it stays local, no process group)
    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["127.0.0.1:1", "127.0.0.1:2"]},
        "task": {"type": "worker", "index": 1}}))
    config = tf.estimator.RunConfig(model_dir=str(tmp_path), train_distribute=strategy)
    assert config.cluster_spec.as_dict() == {"worker": ["127.0.0.1:1", "127.0.0.1:2"]}
    assert config.task_type == "worker" and config.task_id == 0 and config.is_chief

    def model_fn(features, labels, mode):
        raise AssertionError("not reached")
    estimator = tf.estimator.Estimator(model_fn, config=config)
    with pytest.raises(ValueError, match="Only `STANDALONE_CLIENT` mode is supported when "
                                         "you call `estimator.train`"):
        estimator.train(lambda: tf.data.Dataset.range(3), steps=1)
    monkeypatch.setenv("TF_CONFIG", json.dumps({
        "cluster": {"worker": ["127.0.0.1:1"], "ps": ["127.0.0.1:2"]},
        "task": {"type": "worker", "index": 0}}))
    with pytest.raises(NotImplementedError, match="ps"):
        tf.estimator.RunConfig(model_dir=str(tmp_path), train_distribute=strategy)


def test_tf_config_tasks_on_one_host_share_its_gpus(monkeypatch):
    """Tasks whose TF_CONFIG addresses name the same host are local to each other: with
    more of them than GPUs the collectives go over gloo (NCCL refuses two ranks on one
    GPU) and each task drives GPU local_rank % count."""
    from tf1compat.distribute import multi_worker_strategy as mws
    from tf1compat.distribute import process_group as pg
    from tf1compat.training.cluster_resolver import SimpleClusterResolver
    from tf1compat.training.device_setter import ClusterSpec
    cluster = ClusterSpec({"chief": ["localhost:2000"],
                           "worker": ["127.0.0.1:2001", "hostb:2002", "hostb:2003"]})
    places = [mws._place(SimpleClusterResolver(cluster, task_type=t, task_id=i))
              for t, i in (("chief", 0), ("worker", 0), ("worker", 1), ("worker", 2))]
    worlds = [p.world() for p in places]
    assert [(w.rank, w.size) for w in worlds] == [(0, 4), (1, 4), (2, 4), (3, 4)]
    assert [(w.local_rank, w.local_size) for w in worlds] == [(0, 2), (1, 2), (0, 2), (1, 2)]
    assert [(w.cross_rank, w.cross_size) for w in worlds] == [(0, 2), (0, 2), (1, 2), (1, 2)]

    monkeypatch.delenv(pg.BACKEND_ENV, raising=False)
    monkeypatch.setattr(pg.torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(pg.torch.cuda, "device_count", lambda: 1)
    monkeypatch.setattr(pg.dist, "is_nccl_available", lambda: True)
    assert pg.backend_name(2) == "gloo"
    assert pg.backend_name(1) == "cpu:gloo,cuda:nccl"
