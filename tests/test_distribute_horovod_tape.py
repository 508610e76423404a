"""`hvd.DistributedGradientTape` (distribute/horovod_gradient_tape.py).

Two gloo processes train an MLP eagerly on their halves of each batch with the tape's
averaged gradients and end with the variables of one process trained on the whole batches;
a source registered local keeps its own gradient divided by the world size, as Horovod's
`scale_local_gradients`; horovod.tensorflow.keras's DistributedOptimizer with
`backward_passes_per_step=2` in eager gives the same weights on 2 processes as on one and
as the mean gradient of each pair of batches applied once. In one process: Horovod's argument checks, the wrapper is a
GradientTape of the wrapped tape's class, PartialDistributedGradientTape.
"""

from pathlib import Path

import numpy as np
import pytest

import tf1compat as tf
from tests.test_distribute_horovod import _run_job, hvd  # noqa: F401  (the fixture)
from tests.test_eager import eager  # noqa: F401  (the fixture)

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "hvd_tape_worker.py"
NAMES = ["w1", "b1", "w2", "b2"]


def test_two_processes_train_like_one_process_on_the_whole_batches(tmp_path, eager):  # noqa: F811
    one = [tmp_path / "one.npz"]
    assert _run_job(1, "train", one, worker=WORKER) == [0]
    two = [tmp_path / "rank0.npz", tmp_path / "rank1.npz"]
    assert _run_job(2, "train", two, worker=WORKER) == [0, 0]
    reference, rank0, rank1 = (np.load(p) for p in one + two)
    for name in NAMES:
        np.testing.assert_allclose(rank0[name], reference[name], rtol=1e-5, atol=1e-6,
                                   err_msg=name)
        np.testing.assert_array_equal(rank0[name], rank1[name], err_msg=name)
    # The reduced gradients are the mean of the ranks' own; the local b2's is its own / 2.
    for name in NAMES[:3]:
        mean = (rank0["own_" + name] + rank1["own_" + name]) / 2
        np.testing.assert_allclose(rank0["local_" + name], mean, rtol=1e-5, atol=1e-7)
        np.testing.assert_array_equal(rank0["local_" + name], rank1["local_" + name])
    for rank in (rank0, rank1):
        np.testing.assert_allclose(rank["local_b2"], rank["own_b2"] / 2, rtol=1e-6)
    assert not np.allclose(rank0["own_b2"], rank1["own_b2"])
    # Keras DistributedOptimizer(backward_passes_per_step=2) in eager: the same across
    # processes, equal to one process, and to the mean gradient of each pair of batches
    # (both computed at the pair's starting weights) applied once per pair.
    expected = _every_second_pass_reference()
    for i, name in enumerate(NAMES):
        np.testing.assert_allclose(rank0["keras_" + name], reference["keras_" + name],
                                   rtol=1e-5, atol=1e-6, err_msg=name)
        np.testing.assert_array_equal(rank0["keras_" + name], rank1["keras_" + name])
        np.testing.assert_allclose(rank0["keras_" + name], expected[i], rtol=1e-5, atol=1e-6)
    assert int(rank0["keras_iterations"]) == 4


def _every_second_pass_reference() -> list:
    """Plain eager tf1compat, one process, no Horovod: the worker's MLP, initial values
    and batches."""
    rng = np.random.RandomState(0)
    features = rng.randn(5, 8, 5).astype(np.float32)
    labels = rng.randn(5, 8, 1).astype(np.float32)
    init = np.random.RandomState(7)
    weights = [init.randn(*shape).astype(np.float32) * 0.5
               for shape in [(5, 4), (4,), (4, 1), (1,)]]
    variables = [tf.Variable(w) for w in weights]
    for first in (0, 2):
        grads = []
        for k in (first, first + 1):
            with tf.GradientTape() as tape:
                w1, b1, w2, b2 = variables
                hidden = tf.tanh(tf.matmul(tf.constant(features[k]), w1) + b1)
                loss = tf.reduce_mean(tf.square(tf.matmul(hidden, w2) + b2 - labels[k]))
            grads.append([g.numpy() for g in tape.gradient(loss, variables)])
        for v, g0, g1 in zip(variables, *grads):
            v.assign(v.numpy() - 0.1 * (g0 + g1) / 2)
    return [v.numpy() for v in variables]


def test_wrapper_is_a_tape_sharing_the_recording(hvd, eager):  # noqa: F811
    v = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(v * v)
    wrapped = hvd.DistributedGradientTape(tape)
    assert isinstance(wrapped, tf.GradientTape) and type(wrapped).__name__ == "GradientTape"
    np.testing.assert_allclose(wrapped.gradient(loss, [v])[0].numpy(), [2.0, 4.0])
    # Non-persistent, as the wrapped tape: a second gradient fails as TF's tape does.
    with pytest.raises(RuntimeError, match="non-persistent GradientTape"):
        wrapped.gradient(loss, [v])


def test_local_and_global_gradients(hvd, eager):  # noqa: F811
    a, b = tf.Variable(3.0), tf.Variable(5.0)
    with tf.GradientTape() as tape:
        loss = a * b
    wrapped = hvd.DistributedGradientTape(tape)
    wrapped.register_local_source(b)
    local, global_ = wrapped.get_local_and_global_gradients(loss, [a, b])
    assert [s for s, _ in local] == [b] and [s for s, _ in global_] == [a]
    assert float(local[0][1].numpy()) == 3.0 and float(global_[0][1].numpy()) == 5.0


def test_partial_tape_keeps_the_local_layers_gradients(hvd, eager):  # noqa: F811
    layer = tf.keras.layers.Dense(1, kernel_initializer="ones")
    x = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x))
    wrapped = hvd.PartialDistributedGradientTape(tape, local_layers=layer)
    grads = wrapped.gradient(loss, layer.trainable_weights)
    np.testing.assert_allclose(grads[0].numpy(), [[1.0], [2.0]])
    with pytest.raises(ValueError, match="must be of tf.keras.layers.Layer type"):
        hvd.PartialDistributedGradientTape(tape, local_layers=[object()])


def test_horovods_argument_checks(hvd):  # noqa: F811
    tape = tf.GradientTape()
    with pytest.raises(ValueError, match="gradient_predivide_factor not supported with op"):
        hvd.DistributedGradientTape(tape, op=hvd.Sum, gradient_predivide_factor=2.0)
    with pytest.raises(ValueError, match="groups should be a non-negative integer"):
        hvd.DistributedGradientTape(tape, groups=-1)
