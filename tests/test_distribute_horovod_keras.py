"""horovod.keras / horovod.tensorflow.keras on torch.distributed (distribute/horovod_keras.py).

Two gloo processes fit a Keras MLP with DistributedOptimizer(SGD) on their halves of a batch
(graph mode and eager) and end with the weights of one process fitting the whole batch
(plain tf.keras, no Horovod: the oracle); BroadcastGlobalVariablesCallback makes
differently initialized ranks agree; MetricAverageCallback averages the logs; the warmup
and schedule callbacks set the learning rates Horovod's formulas give.
"""

from pathlib import Path

import numpy as np
import pytest

import tf1compat as tf
from tests.test_distribute_horovod import _run_job

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "hvd_keras_worker.py"


def _reference_fit(epochs: int = 3) -> list:
    """One process, plain Keras SGD, the whole batch of 8 per step (the worker's data)."""
    rng = np.random.RandomState(0)
    features = rng.randn(8, 5).astype(np.float32)
    labels = rng.randn(8, 2).astype(np.float32)
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="tanh", input_shape=(5,)),
                                 tf.keras.layers.Dense(2)])
    init = np.random.RandomState(7)
    model.set_weights([init.randn(*w.shape).astype(np.float32) * 0.5
                       for w in model.get_weights()])
    model.compile(loss="mse", optimizer=tf.keras.optimizers.SGD(0.1))
    model.fit(features, labels, batch_size=8, epochs=epochs, shuffle=False, verbose=0)
    weights = model.get_weights()
    tf.keras.backend.clear_session()
    return weights


@pytest.fixture(scope="module")
def reference():
    return _reference_fit()


def _job(tmp_path: Path, mode: str):
    outs = [tmp_path / f"{mode}{r}.npz" for r in (0, 1)]
    assert _run_job(2, mode, outs, worker=WORKER) == [0, 0]
    return [np.load(p) for p in outs]


def _warmup_lr(epoch: int, batch: int, steps: int = 2, size: int = 2) -> float:
    # Horovod: initial_lr / size * (e * (size - 1) / warmup + 1), e = epoch + (batch+1)/steps
    e = epoch + batch / steps + 1.0 / steps
    return 0.2 / size * (e * (size - 1) / 2 + 1)


def test_graph_mode_fit_on_two_processes(tmp_path, reference):
    rank0, rank1 = _job(tmp_path, "graph")
    for i, expected in enumerate(reference):
        np.testing.assert_allclose(rank0[f"fit_{i}"], expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(rank0[f"fit_{i}"], rank1[f"fit_{i}"])
    # MetricAverageCallback: the logged loss is the mean of the ranks' own losses.
    assert not np.allclose(rank0["raw_loss"], rank1["raw_loss"])
    np.testing.assert_allclose(rank0["loss"], (rank0["raw_loss"] + rank1["raw_loss"]) / 2,
                               rtol=1e-6)
    np.testing.assert_array_equal(rank0["loss"], rank1["loss"])
    # BroadcastGlobalVariablesCallback: different initial weights end equal.
    for i in range(4):
        np.testing.assert_array_equal(rank0[f"bcast_{i}"], rank1[f"bcast_{i}"])
    # Warmup over epochs 0-1 (per batch), then 0.2 * 0.5 ** (epoch - 2) per epoch.
    expected_lr = [_warmup_lr(e, b) for e in (0, 1) for b in (0, 1)] + [0.2, 0.2, 0.1, 0.1]
    np.testing.assert_allclose(rank0["lr"], expected_lr, rtol=1e-6)
    # Momentum correction: 0.5 * new_lr / old_lr during a batch whose rate changed.
    previous = [0.2] + expected_lr[:-1]
    expected_momentum = [0.5 * new / old if (k < 4 or k in (4, 6)) else 0.5
                         for k, (new, old) in enumerate(zip(expected_lr, previous))]
    np.testing.assert_allclose(rank0["momentum"], expected_momentum, rtol=1e-6)
    np.testing.assert_array_equal(rank0["lr"], rank1["lr"])


def test_eager_fit_on_two_processes(tmp_path, reference):
    rank0, rank1 = _job(tmp_path, "eager")
    for i, expected in enumerate(reference):
        np.testing.assert_allclose(rank0[f"fit_{i}"], expected, rtol=1e-5, atol=1e-6)
        np.testing.assert_array_equal(rank0[f"fit_{i}"], rank1[f"fit_{i}"])
    np.testing.assert_allclose(rank0["loss"], (rank0["raw_loss"] + rank1["raw_loss"]) / 2,
                               rtol=1e-6)


# -- one process (a world of one) ---------------------------------------------------------------

@pytest.fixture
def hvd():
    tf.install()
    import horovod.keras as hvd_module
    hvd_module.init()
    yield hvd_module
    hvd_module.shutdown()


def test_both_import_paths_and_the_optimizer_class(hvd):
    import horovod.tensorflow.keras as tf_keras_hvd
    import horovod.keras.callbacks as callbacks
    assert tf_keras_hvd is hvd and callbacks is hvd.callbacks
    opt = hvd.DistributedOptimizer(tf.keras.optimizers.Adam(0.01), name="MyOpt")
    assert type(opt).__name__ == "Adam" and isinstance(opt, tf.keras.optimizers.Adam)
    assert opt.get_config()["learning_rate"] == 0.01
    assert opt.get_config()["name"] == "MyOpt"
    default = hvd.DistributedOptimizer(tf.keras.optimizers.SGD())
    assert default.get_config()["name"] == "DistributedSGD"
    with pytest.raises(ValueError, match="only supports Average and Sum"):
        hvd.DistributedOptimizer(tf.keras.optimizers.SGD(), op=hvd.Adasum)
    with pytest.raises(ValueError, match="backward_passes_per_step must be > 0"):
        hvd.DistributedOptimizer(tf.keras.optimizers.SGD(), backward_passes_per_step=0)
    assert hvd.elastic.KerasState.__name__ == "KerasState"
    with pytest.raises(ValueError, match="initial_lr"):
        hvd.callbacks.LearningRateScheduleCallback(None, 0.5)


def test_numpy_collectives_and_load_model(hvd, tmp_path):
    tf.keras.backend.clear_session()
    np.testing.assert_array_equal(hvd.allreduce(np.array([1.0, 3.0])), [1.0, 3.0])
    np.testing.assert_array_equal(hvd.allreduce([2.0], op=hvd.Sum), [2.0])
    np.testing.assert_array_equal(hvd.allgather(np.array([[1, 2]])), [[1, 2]])
    assert hvd.broadcast(5.0, root_rank=0) == 5.0
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile(loss="mse", optimizer=hvd.DistributedOptimizer(
        tf.keras.optimizers.SGD(0.05, momentum=0.9)))
    model.fit(np.ones((4, 3), np.float32), np.zeros((4, 2), np.float32), verbose=0)
    path = str(tmp_path / "model.h5")
    model.save(path)
    slots = model.optimizer.get_weights()
    tf.keras.backend.clear_session()
    loaded = hvd.load_model(path)
    opt = loaded.optimizer
    assert type(opt).__name__ == "SGD" and hasattr(opt, "register_local_var")
    assert opt.get_config()["momentum"] == pytest.approx(0.9)
    for a, b in zip(opt.get_weights(), slots):
        np.testing.assert_array_equal(a, b)
    tf.keras.backend.clear_session()


def test_partial_distributed_optimizer_keeps_local_layers_local(hvd):
    tf.keras.backend.clear_session()
    model = tf.keras.Sequential([tf.keras.layers.Dense(3, input_shape=(2,)),
                                 tf.keras.layers.Dense(1)])
    opt = hvd.PartialDistributedOptimizer(tf.keras.optimizers.SGD(0.1),
                                          local_layers=model.layers[1])
    loss = tf.reduce_sum(model.output)
    grads = opt.get_gradients(loss, model.trainable_weights)
    kinds = [g.op.type for g in grads]
    assert kinds[:2] == ["HorovodGroupedAllreduce"] * 2
    assert "Horovod" not in "".join(kinds[2:])
    with pytest.raises(ValueError, match="local layers"):
        hvd.PartialDistributedOptimizer(tf.keras.optimizers.SGD(), local_layers=[object()])
    tf.keras.backend.clear_session()
