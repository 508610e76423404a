"""Data parallelism across processes: training examples/s of an MLP on 1 vs 2 CPU
processes, Horovod-style and with tf.distribute's MultiWorkerMirroredStrategy.

`python scripts/bench.py distributed` (or this file). Each job trains the same MLP on a
global batch of GLOBAL_BATCH examples split across its processes (gloo allreduce of the
averaged gradients, one fused buffer per step: a HorovodGroupedAllreduce, or the strategy's
packed CollectiveReduce) and reports global examples per second, timed on rank 0 after
warm-up steps. Every process gets one torch thread, so 2 processes use 2 cores: the
speed-up says how much of a step the allreduce and the launch cost.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from typing import Dict

GLOBAL_BATCH = 512
WARMUP_STEPS = 5
TIMED_STEPS = 40


def _worker() -> None:
    import numpy as np
    import tf1compat
    tf1compat.install()
    import tensorflow as tf
    import horovod.tensorflow as hvd

    hvd.init()
    share = GLOBAL_BATCH // hvd.size()
    rng = np.random.RandomState(hvd.rank())
    x = tf.constant(rng.randn(share, 256).astype(np.float32))
    y = tf.constant(rng.randint(0, 10, size=(share,)).astype(np.int64))
    hidden = tf.layers.dense(x, 512, activation=tf.nn.relu)
    hidden = tf.layers.dense(hidden, 512, activation=tf.nn.relu)
    logits = tf.layers.dense(hidden, 10)
    loss = tf.losses.sparse_softmax_cross_entropy(y, logits)
    train_op = hvd.DistributedOptimizer(tf.train.MomentumOptimizer(0.01, 0.9)).minimize(loss)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(hvd.broadcast_global_variables(0))
        rate = _examples_per_second(sess, train_op)
    if hvd.rank() == 0:
        print(f"{rate:.1f}")


def _examples_per_second(sess: object, train_op: object) -> float:
    """Global examples per second over TIMED_STEPS runs of `train_op` after the warm-up."""
    for _ in range(WARMUP_STEPS):
        sess.run(train_op)
    start = time.perf_counter()
    for _ in range(TIMED_STEPS):
        sess.run(train_op)
    return GLOBAL_BATCH * TIMED_STEPS / (time.perf_counter() - start)


def _strategy_worker() -> None:
    """The MLP in a MultiWorkerMirroredStrategy custom loop (workers from torchrun's
    environment); the loss divided by the replicas, whose gradients are summed."""
    import numpy as np
    import tf1compat as tf

    strategy = tf.distribute.experimental.MultiWorkerMirroredStrategy()
    rank = int(os.environ.get("RANK", "0"))
    share = GLOBAL_BATCH // strategy.num_replicas_in_sync
    rng = np.random.RandomState(rank)
    with strategy.scope():
        x = tf.constant(rng.randn(share, 256).astype(np.float32))
        y = tf.constant(rng.randint(0, 10, size=(share,)).astype(np.int64))

        def step() -> object:
            hidden = tf.layers.dense(x, 512, activation=tf.nn.relu)
            hidden = tf.layers.dense(hidden, 512, activation=tf.nn.relu)
            loss = tf.losses.sparse_softmax_cross_entropy(y, tf.layers.dense(hidden, 10))
            return tf.train.MomentumOptimizer(0.01, 0.9).minimize(
                loss / strategy.num_replicas_in_sync)
        train_op = strategy.group(strategy.experimental_run_v2(step))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        rate = _examples_per_second(sess, train_op)
    if rank == 0:
        print(f"{rate:.1f}")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _job(size: int, flag: str = "--worker") -> float:
    port = _free_port()
    procs = []
    try:
        for rank in range(size):
            env = dict(os.environ, RANK=str(rank), WORLD_SIZE=str(size), LOCAL_RANK=str(rank),
                       LOCAL_WORLD_SIZE=str(size), MASTER_ADDR="127.0.0.1",
                       MASTER_PORT=str(port), OMP_NUM_THREADS="1")
            procs.append(subprocess.Popen([sys.executable, os.path.abspath(__file__),
                                           flag], env=env, stdout=subprocess.PIPE,
                                          text=True))
        outputs = [p.communicate(timeout=600)[0] for p in procs]
    finally:
        for p in procs:
            if p.poll() is None:
                p.kill()
                p.wait()
    if any(p.returncode for p in procs):
        raise RuntimeError(f"a {size}-process job failed: exit codes "
                           f"{[p.returncode for p in procs]}")
    return float(outputs[0].strip().splitlines()[-1])


def bench_distributed() -> Dict[str, float]:
    """Global examples/s of the MLP on 1 and 2 processes (one thread each), Horovod-style
    and with MultiWorkerMirroredStrategy."""
    one = _job(1)
    two = _job(2)
    strategy_one = _job(1, "--strategy-worker")
    strategy_two = _job(2, "--strategy-worker")
    return {"examples_per_s_1_process": one, "examples_per_s_2_processes": two,
            "speedup": two / one, "mwms_examples_per_s_1_process": strategy_one,
            "mwms_examples_per_s_2_processes": strategy_two,
            "mwms_speedup": strategy_two / strategy_one}


if __name__ == "__main__":
    if sys.argv[1:] == ["--worker"]:
        _worker()
    elif sys.argv[1:] == ["--strategy-worker"]:
        _strategy_worker()
    else:
        for key, value in bench_distributed().items():
            print(f"{key:30s} {value:.3g}")
