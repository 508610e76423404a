"""Horovod's `DistributedOptimizer(backward_passes_per_step=N)` (distribute/
gradient_aggregation.py): gradients accumulated locally for N passes, then allreduced and
applied once; checked against the same computation in numpy (Horovod 0.28's rules: the
global step counts every pass, `average_aggregated_gradients` divides by N, a Keras
optimizer's `iterations` counts every pass) and, on 2 gloo processes, against one process
on the combined batches.
"""

from pathlib import Path

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.distribute import horovod_keras as hvd_keras
from tests.test_distribute_horovod import _run_job, hvd  # noqa: F401  (the fixture)
from tests.test_eager import eager  # noqa: F401  (the fixture)

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "hvd_aggregation_worker.py"

BATCHES = [np.array([[1., 0.]], np.float32), np.array([[0., 1.]], np.float32),
           np.array([[1., 1.]], np.float32), np.array([[2., 0.]], np.float32),
           np.array([[0.5, -1.]], np.float32)]


def _expected(passes: int, average: bool, lr: float = 0.01) -> list:
    """w after each batch of loss sum((x w)^2), gradients applied every `passes`."""
    w, acc, out = np.array([[1.0], [2.0]]), 0.0, []
    for i, b in enumerate(BATCHES):
        acc = acc + 2 * b.T @ (b @ w)
        if (i + 1) % passes == 0:
            w = w - lr * acc / (passes if average else 1)
            acc = 0.0
        out.append(w.ravel().copy())
    return out


@pytest.mark.parametrize("passes,average", [(2, False), (2, True), (3, True)])
def test_gradients_are_accumulated_then_applied(hvd, passes, average):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2])
        w = tf.get_variable("w", initializer=[[1.0], [2.0]])
        loss = tf.reduce_sum(tf.matmul(x, w) ** 2)
        step = tf.train.get_or_create_global_step()
        opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.01),
                                       backward_passes_per_step=passes,
                                       average_aggregated_gradients=average)
        train = opt.minimize(loss, global_step=step)
        assert sorted(v.op.name for v in tf.local_variables()) == [
            "aggregation_variables_DistributedGradientDescentOptimizer0/0",
            "aggregation_variables_DistributedGradientDescentOptimizer0/aggregation_counter"]
        assert len(tf.get_collection("aggregating_collection")) == 1
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            for i, (b, want) in enumerate(zip(BATCHES, _expected(passes, average))):
                sess.run(train, {x: b})
                np.testing.assert_allclose(sess.run(w).ravel(), want, rtol=1e-6)
                assert sess.run(step) == i + 1


def test_sparse_gradients_need_sparse_as_dense(hvd):
    with tf.Graph().as_default():
        table = tf.get_variable("table", [4, 2])
        loss = tf.reduce_sum(tf.nn.embedding_lookup(table, [1, 2]))
        opt = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                       backward_passes_per_step=2)
        with pytest.raises(ValueError, match="IndexedSlices are not supported when "
                                             "`backward_passes_per_step` > 1"):
            opt.minimize(loss)
    with tf.Graph().as_default():
        table = tf.get_variable("table", initializer=np.ones((4, 2), np.float32))
        loss = tf.reduce_sum(tf.nn.embedding_lookup(table, [1, 2]))
        train = hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                         backward_passes_per_step=2,
                                         sparse_as_dense=True).minimize(loss)
        with tf.Session() as sess:
            sess.run([tf.global_variables_initializer(), tf.local_variables_initializer()])
            sess.run(train)
            np.testing.assert_array_equal(sess.run(table), np.ones((4, 2)))
            sess.run(train)
            np.testing.assert_allclose(sess.run(table), [[1, 1], [.8, .8], [.8, .8], [1, 1]])
    with pytest.raises(ValueError, match="backward_passes_per_step must be > 0"):
        hvd.DistributedOptimizer(tf.train.GradientDescentOptimizer(0.1),
                                 backward_passes_per_step=0)


def test_keras_optimizer_accumulates_and_counts_iterations(hvd):
    rng = np.random.RandomState(0)
    x = rng.randn(16, 3).astype(np.float32)
    y = rng.randn(16, 1).astype(np.float32)
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,),
                                                       kernel_initializer="ones")])
    model.compile(hvd_keras.DistributedOptimizer(tf.keras.optimizers.SGD(0.1),
                                                 backward_passes_per_step=2,
                                                 average_aggregated_gradients=True), "mse")
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    w, b, acc = np.ones((3, 1)), np.zeros(1), (0.0, 0.0)
    for i in range(4):
        xb, yb = x[4 * i:4 * i + 4], y[4 * i:4 * i + 4]
        err = xb @ w + b - yb
        acc = (acc[0] + 2 * xb.T @ err / 4, acc[1] + 2 * err.sum(0) / 4)
        if i % 2 == 1:
            w, b, acc = w - 0.1 * acc[0] / 2, b - 0.1 * acc[1] / 2, (0.0, 0.0)
    kernel, bias = model.get_weights()
    np.testing.assert_allclose(kernel.ravel(), w.ravel(), rtol=1e-5)
    np.testing.assert_allclose(bias, b, rtol=1e-5)
    assert tf.keras.backend.get_value(model.optimizer.iterations) == 4


def test_two_processes_accumulate_like_one_process_on_the_combined_batches(tmp_path):
    one = [tmp_path / "one.npz"]
    assert _run_job(1, "train", one, worker=WORKER) == [0]
    two = [tmp_path / "rank0.npz", tmp_path / "rank1.npz"]
    assert _run_job(2, "train", two, worker=WORKER) == [0, 0]
    reference, rank0, rank1 = (np.load(p) for p in one + two)
    assert sorted(reference.files) == sorted(rank0.files)
    for name in reference.files:
        np.testing.assert_allclose(rank0[name], reference[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)
        np.testing.assert_array_equal(rank0[name], rank1[name], err_msg=name)
    assert int(rank0["global_step"]) == 6


def test_eager_keras_optimizer_accumulates_like_horovods_eager_helper(hvd, eager):
    """Under eager execution (Horovod's LocalGradientAggregationHelperEager order): the
    sums of N passes are allreduced and applied on the N-th; `iterations` counts every
    pass; a last incomplete cycle stays unapplied."""
    rng = np.random.RandomState(0)
    x = rng.randn(20, 3).astype(np.float32)
    y = rng.randn(20, 1).astype(np.float32)
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(3,),
                                                       kernel_initializer="ones")])
    model.compile(hvd_keras.DistributedOptimizer(tf.keras.optimizers.SGD(0.1),
                                                 backward_passes_per_step=2,
                                                 average_aggregated_gradients=True), "mse")
    model.fit(x, y, batch_size=4, epochs=1, shuffle=False, verbose=0)
    kernel, bias = model.get_weights()
    iterations = int(model.optimizer.iterations.numpy())
    w, b, acc = np.ones((3, 1)), np.zeros(1), (0.0, 0.0)
    for i in range(5):
        xb, yb = x[4 * i:4 * i + 4], y[4 * i:4 * i + 4]
        err = xb @ w + b - yb
        acc = (acc[0] + 2 * xb.T @ err / 4, acc[1] + 2 * err.sum(0) / 4)
        if i % 2 == 1:
            w, b, acc = w - 0.1 * acc[0] / 2, b - 0.1 * acc[1] / 2, (0.0, 0.0)
    np.testing.assert_allclose(kernel.ravel(), w.ravel(), rtol=1e-5)
    np.testing.assert_allclose(bias, b, rtol=1e-5)
    assert iterations == 5
