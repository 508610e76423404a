"""Horovod-style data parallelism on torch.distributed (tf1compat/distribute/).

Multi-process jobs run as subprocesses (gloo, free ports, timeouts, always killed):
2 processes training on halves of a batch end with the weights of 1 process trained on the
whole batch; a process that dies makes the other's collective fail with a clear error.
"""

import os
import socket
import subprocess
import sys
from pathlib import Path
from typing import List

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.distribute import process_group

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "hvd_worker.py"
JOB_TIMEOUT = 240


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _run_job(size: int, mode: str, outs: List[Path], extra_env: dict = None,
             worker: Path = WORKER) -> List[int]:
    """Starts `size` processes of one job running `worker`; returns their exit codes."""
    port = _free_port()
    envs = [dict(os.environ, RANK=str(rank), WORLD_SIZE=str(size), LOCAL_RANK=str(rank),
                 LOCAL_WORLD_SIZE=str(size), MASTER_ADDR="127.0.0.1", MASTER_PORT=str(port),
                 OMP_NUM_THREADS="1", **(extra_env or {})) for rank in range(size)]
    return _run_processes(worker, mode, envs, outs, quiet=(0, 3))


def _run_processes(worker: Path, mode: str, envs: List[dict], outs: List[Path],
                   quiet: tuple = (0,)) -> List[int]:
    """Runs `tf1compat run worker mode out` once per (env, out) at the same time; returns
    the exit codes, printing the output's tail of a process that ended with another code
    than `quiet`; kills what is left when waiting fails."""
    if torch.cuda.device_count() < len(envs):
        # NCCL needs a GPU per process ("Duplicate GPU detected"): these jobs then run
        # on the CPU with gloo, as on machines without a GPU.
        envs = [dict(env, CUDA_VISIBLE_DEVICES="") for env in envs]
    procs = []
    try:
        for env, out in zip(envs, outs):
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "tf1compat", "run", str(worker), mode, str(out)],
                env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT))
        codes = []
        for p in procs:
            out, _ = p.communicate(timeout=JOB_TIMEOUT)
            codes.append(p.returncode)
            if p.returncode not in quiet:
                print(out.decode(errors="replace")[-3000:])
        return codes
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()


def test_two_processes_train_like_one_process_on_the_whole_batch(tmp_path):
    one = [tmp_path / "one.npz"]
    assert _run_job(1, "train", one) == [0]
    two = [tmp_path / "rank0.npz", tmp_path / "rank1.npz"]
    assert _run_job(2, "train", two) == [0, 0]
    reference, rank0, rank1 = (np.load(p) for p in one + two)
    assert sorted(reference.files) == sorted(rank0.files) == sorted(rank1.files)
    for name in reference.files:
        np.testing.assert_allclose(rank0[name], reference[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)
        np.testing.assert_array_equal(rank0[name], rank1[name], err_msg=name)
    assert int(rank0["global_step"]) == 4


def test_a_dead_process_fails_the_others_collective_quickly(tmp_path):
    outs = [tmp_path / "rank0.txt", tmp_path / "rank1.txt"]
    codes = _run_job(2, "die", outs, {process_group.TIMEOUT_ENV: "20"})
    assert codes == [0, 3]
    kind, waited, message = outs[0].read_text().split("\n", 2)
    assert kind == "UnknownError"
    assert float(waited) < 60
    assert "Horovod has been shut down" in message and "HorovodAllreduce" in message


# -- one process (a world of one, as Horovod without horovodrun) -------------------------------

@pytest.fixture
def hvd():
    tf.install()
    import horovod.tensorflow as hvd_module
    hvd_module.init()
    yield hvd_module
    hvd_module.shutdown()


def test_world_of_one(hvd):
    assert (hvd.rank(), hvd.size(), hvd.local_rank(), hvd.local_size()) == (0, 1, 0, 1)
    with tf.Graph().as_default():
        x = tf.constant([[1.0, 2.0]], name="x")
        reduced = hvd.allreduce(x)
        summed = hvd.allreduce(x, op=hvd.Sum)
        gathered = hvd.allgather(x)
        broadcast = hvd.broadcast(x, 0)
        assert reduced.op.type == "HorovodAllreduce"
        assert reduced.op.name == "HorovodAllreduce_x_0"
        assert gathered.shape.as_list() == [None, 2]
        with tf.Session() as sess:
            for t in (reduced, summed, gathered, broadcast):
                np.testing.assert_array_equal(sess.run(t), [[1.0, 2.0]])
            assert sess.run([hvd.size_op(), hvd.rank_op()]) == [1, 0]


def test_uninitialized_and_unsupported(hvd):
    hvd.shutdown()
    with pytest.raises(ValueError, match="has not been initialized"):
        hvd.size()
    hvd.init()
    with pytest.raises(ValueError, match="Adasum does not support average_aggregated"):
        hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1), op=hvd.Adasum,
                                 average_aggregated_gradients=True)
    with pytest.raises(ValueError, match="supersedes average"):
        hvd.allreduce(tf.constant(1.0), average=True, op=hvd.Sum)


def test_cli_launches_processes_with_torch_launcher(tmp_path):
    script = tmp_path / "job.py"
    script.write_text(
        "import tensorflow as tf\nimport horovod.tensorflow as hvd\nhvd.init()\n"
        "total = hvd.allreduce(tf.constant(float(hvd.rank() + 1)), op=hvd.Sum)\n"
        "with tf.Session() as s:\n"
        f"    open(r'{tmp_path}/out%d' % hvd.rank(), 'w').write(str(s.run(total)))\n")
    done = subprocess.run([sys.executable, "-m", "tf1compat", "run", "--nproc-per-node", "2",
                           str(script)], capture_output=True, timeout=JOB_TIMEOUT,
                          env=dict(os.environ, OMP_NUM_THREADS="1"))
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert [(tmp_path / f"out{r}").read_text() for r in (0, 1)] == ["3.0", "3.0"]
