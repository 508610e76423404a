"""Horovod's alltoall, reducescatter, grouped allgather/reducescatter, process sets, join
and Adasum on torch.distributed (gloo), against Horovod's documented math in numpy.

Two jobs (3 processes, then 2) run tests/fixtures/distributed/hvd_extra_worker.py; the
world-of-one tests check shapes, names and errors without a job.
"""

from pathlib import Path

import numpy as np
import pytest

import tf1compat as tf
from tests.test_distribute_horovod import _run_job, hvd  # noqa: F401  (the fixture)

WORKER = Path(__file__).parent / "fixtures" / "distributed" / "hvd_extra_worker.py"


def _adasum_pair(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Horovod's Adasum of two tensors (coefficients in double)."""
    x, y = a.astype(np.float64).ravel(), b.astype(np.float64).ravel()
    dot, a_sq, b_sq = x @ y, x @ x, y @ y
    return ((1 - dot / (2 * a_sq)) * a.astype(np.float64)
            + (1 - dot / (2 * b_sq)) * b.astype(np.float64)).astype(a.dtype)


@pytest.fixture(scope="module")
def collectives(tmp_path_factory):
    outs = [tmp_path_factory.mktemp("hvd3") / f"rank{r}.npz" for r in range(3)]
    assert _run_job(3, "collectives", outs, worker=WORKER) == [0, 0, 0]
    return [dict(np.load(p)) for p in outs]


def _inputs(r: int) -> tuple:
    base = np.arange(12, dtype=np.float32).reshape(6, 2) + 100 * r
    seven = np.arange(14, dtype=np.float32).reshape(7, 2) * (r + 1)
    return base, seven


SPLITS = [[1, 2, 3], [2, 2, 2], [0, 1, 4]]


def test_alltoall_with_and_without_splits_and_its_gradient(collectives):
    for r, got in enumerate(collectives):
        starts = [np.cumsum([0] + SPLITS[k])[r] for k in range(3)]
        expected = np.concatenate([_inputs(k)[0][starts[k]:starts[k] + SPLITS[k][r]]
                                   for k in range(3)])
        np.testing.assert_array_equal(got["a2a"], expected)
        np.testing.assert_array_equal(got["received"], [SPLITS[k][r] for k in range(3)])
        even = np.concatenate([_inputs(k)[0][2 * r:2 * r + 2] for k in range(3)])
        np.testing.assert_array_equal(got["a2a_even"], even)
        # d(sum(out^2)/2)/dx: the rows sent come back; rows not sent get zeros.
        grad = _inputs(r)[0].copy()
        grad[sum(SPLITS[r]):] = 0
        np.testing.assert_array_equal(got["a2a_grad"], grad)
        assert got["a2a_shape"].tolist() == [2]


def test_reducescatter_sum_average_uneven_rows_and_gradient(collectives):
    total = sum(_inputs(k)[1] for k in range(3))
    shares = [(0, 3), (3, 5), (5, 7)]       # 7 rows over 3 ranks: 3, 2, 2
    ints = sum(np.arange(6).reshape(3, 2) + k for k in range(3))
    for r, got in enumerate(collectives):
        lo, hi = shares[r]
        np.testing.assert_array_equal(got["rs_sum"], total[lo:hi])
        np.testing.assert_allclose(got["rs_avg"], total[lo:hi] / 3, rtol=1e-6)
        np.testing.assert_array_equal(got["rs_ints"], ints[r:r + 1])
        # Horovod's gradient: allgather(grad * size) for Sum, allgather(grad) for Average.
        np.testing.assert_array_equal(got["rs_grads"], np.full((7, 2), 3 + 10.0))
        np.testing.assert_array_equal(got["grs0"], total[:3][r:r + 1])
        lo, hi = [(0, 2), (2, 3), (3, 4)][r]      # the 4 rows of seven[3:]: 2, 1, 1
        np.testing.assert_array_equal(got["grs1"], total[3:][lo:hi])


def test_grouped_allgather(collectives):
    for got in collectives:
        np.testing.assert_array_equal(got["gag0"], np.repeat([0.0, 1, 1, 2, 2, 2], 2)
                                      .reshape(6, 2))
        np.testing.assert_array_equal(got["gag1"], np.ones(6))


def test_process_set_restricts_collectives_to_its_ranks(collectives):
    x0, x2 = _inputs(0)[0], _inputs(2)[0]
    for r in (0, 2):
        got = collectives[r]
        assert (int(got["even_id"]), int(got["twin_id"])) == (1, -1)
        assert int(got["even_rank"]) == r // 2 and int(got["included"]) == 1
        np.testing.assert_array_equal(got["set_sum"], x0 + x2)
        np.testing.assert_array_equal(got["set_gather"], np.concatenate([x0[:1], x2[:3]]))
        np.testing.assert_array_equal(got["set_bcast"], x2)
        assert int(got["set_size"]) == 2 and got["set_objects"].tolist() == [0, 20]
        assert float(got["set_grad"]) == (1.0 + 3.0) / 2     # DistributedOptimizer over the set
    outside = collectives[1]
    assert int(outside["even_rank"]) == -1 and int(outside["included"]) == 0
    assert str(outside["set_sum"]).startswith("error:InvalidArgumentError")
    assert "Rank 1 is not a member of the provided process set." in str(outside["set_sum"])


def test_join_shadows_allreduces_with_zeros_and_returns_last_rank(collectives):
    for r in (0, 1):
        got = collectives[r]
        np.testing.assert_array_equal(got["joined_sum"], [3.0])      # 1 + 2 + rank 2's 0
        np.testing.assert_array_equal(got["joined_avg"], [3.0])      # (3 + 6 + 0) / 3
        assert "Allgather is not supported with Join at this time" in str(got["joined_gather"])
    np.testing.assert_array_equal(collectives[0]["joined_sum0"], [1.0])
    for got in collectives:
        assert int(got["last_joined"]) == 0
        assert float(got["after_join"]) == 3.0
        assert str(got["adasum3"]) == ("Running Adasum with non-power of 2 ranks is not "
                                       "supported yet.")


def test_adasum_allreduce_optimizer_dynamic_sets_and_elastic_state(tmp_path):
    outs = [tmp_path / "rank0.npz", tmp_path / "rank1.npz"]
    assert _run_job(2, "adasum", outs, worker=WORKER) == [0, 0]
    ranks = [dict(np.load(p)) for p in outs]
    rng = np.random.RandomState(7)
    a = rng.randn(2, 5, 3).astype(np.float32)
    b = rng.randn(2, 4).astype(np.float32)
    features = rng.randn(8, 3).astype(np.float32)
    labels = rng.randn(8, 1).astype(np.float32)
    w = np.ones((3, 1), np.float32)
    for _ in range(3):
        deltas = []
        for r in range(2):
            x, y = features[4 * r:4 * r + 4], labels[4 * r:4 * r + 4]
            deltas.append(-0.1 * (2 / 4) * x.T @ (x @ w - y))
        w = w + _adasum_pair(deltas[0], deltas[1])
    for got in ranks:
        # Each tensor of the fused pair has its own dot product and norms.
        np.testing.assert_allclose(got["ada0"], _adasum_pair(a[0], a[1]), rtol=1e-6)
        np.testing.assert_allclose(got["ada1"], _adasum_pair(b[0], b[1]), rtol=1e-6)
        np.testing.assert_array_equal(got["ada_single"], got["ada0"])
        np.testing.assert_allclose(got["w"], w, rtol=1e-5)
        assert str(got["opt_name"]) == "DistributedDeltaGradientDescentOptimizer"
        assert str(got["duplicate"]).startswith("Attempted to add a duplicate process set")
        assert bool(got["removed"])
    assert "dynamic_sum" not in ranks[0] and float(ranks[1]["dynamic_sum"]) == 5.0
    for got in ranks:       # rank 0's variable (10) and epoch (5), one committed step
        assert got["elastic_value"].tolist() == [11.0] and int(got["elastic_epoch"]) == 6
        assert int(got["elastic_first_epoch"]) == 5


# -- one process -----------------------------------------------------------------------------

def test_world_of_one_ops_names_and_shapes(hvd):
    with tf.Graph().as_default():
        x = tf.constant(np.arange(6, dtype=np.float32).reshape(3, 2), name="x")
        out, received = hvd.alltoall(x, splits=[2])
        scattered = hvd.reducescatter(x, op=hvd.Sum)
        grouped = hvd.grouped_allgather([x, x])
        assert out.op.type == "HorovodAlltoall" and out.op.name == "HorovodAlltoall_x_0"
        assert scattered.op.name == "HorovodReducescatter_x_0"
        assert grouped[0].op.type == "HorovodGroupedAllgather"
        assert out.shape.as_list() == [None, 2] and scattered.shape.as_list() == [None, 2]
        adasum = hvd.allreduce(x, op=hvd.Adasum)
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(out), [[0, 1], [2, 3]])
            assert sess.run(received).tolist() == [2]
            np.testing.assert_array_equal(sess.run(scattered), sess.run(x))
            np.testing.assert_array_equal(sess.run(adasum), sess.run(x))
            assert sess.run(hvd.join()) == 0
            with pytest.raises(tf.errors.InvalidArgumentError, match="splits"):
                sess.run(hvd.alltoall(x, splits=[4]))
        with pytest.raises(ValueError, match="rank 0"):
            hvd.reducescatter(tf.constant(1.0))


def test_process_set_errors(hvd):
    with pytest.raises(ValueError, match="HOROVOD_DYNAMIC_PROCESS_SETS"):
        hvd.add_process_set([0])
    with pytest.raises(ValueError, match="not registered"):
        hvd.allreduce(tf.constant(1.0), process_set=hvd.ProcessSet([0]))
    with pytest.raises(ValueError, match="list of process ranks"):
        hvd.ProcessSet(["a"])
    assert hvd.global_process_set.ranks == [0] and hvd.global_process_set.size() == 1


def test_elastic_run_restores_the_commit_then_refuses_to_reform_the_job(hvd):
    state = hvd.elastic.ObjectState(bcast_object=lambda obj: obj, get_rank=hvd.rank,
                                    epoch=1, batch=0)

    @hvd.elastic.run
    def train(state):
        state.epoch = 2
        state.commit()
        state.epoch, state.batch = 3, 7
        raise hvd.elastic.HorovodInternalError("allreduce failed")

    with pytest.raises(NotImplementedError, match="elastic driver") as caught:
        train(state)
    assert isinstance(caught.value.__cause__, hvd.elastic.HorovodInternalError)
    assert (state.epoch, state.batch) == (2, 0)
    with tf.Graph().as_default():
        v = tf.Variable([1.0, 2.0])
        with tf.Session() as sess:
            sess.run(v.initializer)
            tf_state = hvd.elastic.TensorFlowState([v], session=sess, step=0)
            sess.run(v.assign([5.0, 6.0]))
            tf_state.restore()
            assert sess.run(v).tolist() == [1.0, 2.0]


def test_keras_elastic_state_and_callbacks():
    tf.install()
    import horovod.tensorflow.keras as hvd_keras
    hvd_keras.init()
    try:
        model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,))])
        model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
        state = hvd_keras.elastic.KerasState(model, batch=0, epoch=0)
        x, y = np.ones((8, 2), np.float32), np.zeros((8, 1), np.float32)
        seen = []

        @hvd_keras.elastic.run
        def train(state):
            callbacks = [hvd_keras.elastic.CommitStateCallback(state, batches_per_commit=2),
                         hvd_keras.elastic.UpdateBatchStateCallback(state),
                         hvd_keras.elastic.UpdateEpochStateCallback(state),
                         tf.keras.callbacks.LambdaCallback(
                             on_batch_end=lambda b, logs: seen.append(state.batch))]
            model.fit(x, y, batch_size=4, epochs=state.epoch + 2, initial_epoch=state.epoch,
                      callbacks=callbacks, verbose=0)

        train(state)
        assert (state.epoch, state.batch) == (2, 0) and seen == [0, 1, 0, 1]
        committed = [w.copy() for w in model.get_weights()]
        model.set_weights([w + 1 for w in committed])
        state.restore()
        for got, want in zip(model.get_weights(), committed):
            np.testing.assert_array_equal(got, want)
        assert hvd_keras.reducescatter(np.arange(4.0), op=hvd_keras.Sum).tolist() == \
            [0.0, 1.0, 2.0, 3.0]
    finally:
        hvd_keras.shutdown()
