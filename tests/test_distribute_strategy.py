"""tf.distribute's TF1 strategies beyond the goldens (tests/golden/cases_distribute_strategy.py,
cases_estimator_strategy.py): N replicas equal one process on the whole batch, contrib's
spellings, the replica threads' failure modes, what is refused."""

import threading

import numpy as np
import pytest

import tf1compat as tf


def regression_data(n=8):
    """x [n, 3] and y = x @ [1, -2, 0.5]."""
    rng = np.random.RandomState(1)
    x = rng.randn(n, 3).astype(np.float32)
    y = (x @ np.array([[1.], [-2.], [0.5]], np.float32)).astype(np.float32)
    return x, y


def train_replicated(strategy, x, y, steps=3, make_opt=lambda: tf.train.AdamOptimizer(0.1),
                     scale_loss_by_num_replicas=False):
    """A custom loop whose loss is divided by the replicas (the TF2 idiom; by the optimizer
    with `scale_loss_by_num_replicas`, contrib.optimizer_v2's): N replicas on halves of a
    batch take the steps of one replica on the whole batch. -> (losses, first variable)."""
    with tf.Graph().as_default():
        with strategy.scope():
            it = strategy.make_dataset_iterator(
                tf.data.Dataset.from_tensor_slices((x, y)).batch(len(x)).repeat())

            def step(inputs):
                xx, yy = inputs
                w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
                loss = tf.reduce_mean(tf.square(tf.matmul(xx, w) - yy))
                if scale_loss_by_num_replicas:
                    train = make_opt().minimize(loss, scale_loss_by_num_replicas=True)
                else:
                    loss = loss / strategy.num_replicas_in_sync
                    train = make_opt().minimize(loss)
                with tf.control_dependencies([train]):
                    return tf.identity(loss)
            loss = strategy.reduce("SUM", strategy.experimental_run(step, it), axis=None)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(it.initialize())
                losses = [sess.run(loss) for _ in range(steps)]
                return losses, sess.run(tf.global_variables()[0])


def test_replicas_equal_one_process_on_the_whole_batch():
    x, y = regression_data()
    one = train_replicated(tf.distribute.OneDeviceStrategy("/cpu:0"), x, y)
    for strategy in (tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]),
                     tf.contrib.distribute.MirroredStrategy(num_gpus=2),
                     tf.distribute.experimental.CentralStorageStrategy(["/cpu:0", "/cpu:1"])):
        assert strategy.num_replicas_in_sync == 2
        many = train_replicated(strategy, x, y)
        np.testing.assert_allclose(many[0], one[0], rtol=1e-5)
        np.testing.assert_allclose(many[1], one[1], rtol=1e-5)


def test_contrib_spellings():
    cd = tf.contrib.distribute
    assert cd.MirroredStrategy(num_gpus=0).extended.worker_devices == \
        ("/job:localhost/replica:0/task:0/device:CPU:0",)
    assert cd.MirroredStrategy(num_gpus_per_worker=3).num_replicas_in_sync == 3
    s = cd.MirroredStrategy(["/cpu:0"], cross_tower_ops=cd.AllReduceCrossDeviceOps("nccl"))
    assert isinstance(s, cd.DistributionStrategy)
    assert cd.get_distribution_strategy() is tf.distribute.get_strategy()
    with pytest.raises(ValueError, match="Must only specify one of `devices` and `num_gpus`"):
        cd.MirroredStrategy(["/cpu:0"], num_gpus=1)
    with s.scope():
        assert cd.has_distribution_strategy() and cd.in_cross_replica_context()

        def fn():
            cd.require_replica_context(cd.get_replica_context())
            return 1
        assert s.extended.call_for_each_replica(fn) == 1
    for name in ("ParameterServerStrategy", "TPUStrategy"):
        with pytest.raises(Exception, match=f"tf.contrib.distribute.{name}"):
            getattr(cd, name)
    # (TF 1.15's multi-worker strategy: local without TF_CONFIG, GPUs as asked)
    collective = cd.CollectiveAllReduceStrategy(num_gpus_per_worker=2)
    assert collective.num_replicas_in_sync == 2
    assert collective.extended.worker_devices[1].endswith("/device:GPU:1")
    assert collective.cluster_resolver.num_accelerators() == {"GPU": 2}


def test_tpu_strategy_is_refused_by_name():
    """(ParameterServerStrategy: tests/test_estimator_ps_cluster.py)"""
    with pytest.raises(NotImplementedError, match="TPUStrategy"):
        tf.distribute.experimental.TPUStrategy  # noqa: B018


def test_cross_device_ops_are_accepted():
    x, y = regression_data()
    one = train_replicated(tf.distribute.OneDeviceStrategy("/cpu:0"), x, y)
    for ops in (tf.distribute.NcclAllReduce(), tf.distribute.HierarchicalCopyAllReduce(2),
                tf.distribute.ReductionToOneDevice()):
        s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"], cross_device_ops=ops)
        np.testing.assert_allclose(train_replicated(s, x, y)[1], one[1], rtol=1e-5)
    with pytest.raises(ValueError, match="num_packs"):
        tf.distribute.NcclAllReduce(num_packs=-1)


def test_replica_error_propagates_and_threads_end():
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    # The threads alive before, not their count: another test's background thread (a hot
    # plan's compile) may end meanwhile.
    before = set(threading.enumerate())

    def fn():
        if tf.get_default_graph().get_name_scope() == "replica_1":
            raise KeyError("replica 1 failed")
        return tf.distribute.get_replica_context().merge_call(lambda strategy: 1)
    with tf.Graph().as_default():
        with pytest.raises(KeyError, match="replica 1 failed"):
            s.run(fn)
        assert set(threading.enumerate()) <= before
        # the graph's scopes are the caller's again
        assert tf.get_default_graph().get_name_scope() == ""
        assert tf.constant(1.).op.name == "Const"

    def fails_first(x):
        if tf.get_default_graph().get_name_scope() == "":
            raise ValueError("replica 0 failed")
        tf.identity(x, name="built_by_replica_1")
    with tf.Graph().as_default() as g:
        with pytest.raises(ValueError, match="replica 0 failed"):
            s.run(fails_first, args=(tf.constant(1.),))
        # the replicas after the failed one do not run
        assert not [op for op in g.get_operations() if "built_by" in op.name]


def test_merge_call_count_mismatch():
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])

    def fn():
        if tf.get_default_graph().get_name_scope() == "":
            tf.distribute.get_replica_context().merge_call(lambda strategy: None)
        return 0
    with tf.Graph().as_default(), pytest.raises(RuntimeError, match="different number"):
        s.run(fn)


def test_variables_and_scopes_per_replica():
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with tf.Graph().as_default(), s.scope():
        def fn():
            v = tf.Variable(1., name="counter")
            d = tf.layers.Dense(2, name="dense")
            out = d(tf.ones([1, 3]))
            return v, d.kernel, out
        v, kernel, out = s.run(fn)
        assert v.name == "counter:0" and kernel.name == "dense/kernel:0"
        assert type(v).__name__ == "ResourceVariable"
        assert [t.op.name for t in s.experimental_local_results(out)] == \
            ["dense/BiasAdd", "replica_1/dense/BiasAdd"]
        assert [t.device for t in s.experimental_local_results(out)] == \
            ["/replica:0/task:0/device:CPU:0", "/replica:0/task:0/device:CPU:1"]
        assert sorted(x.name for x in tf.global_variables()) == \
            ["counter:0", "dense/bias:0", "dense/kernel:0"]


def test_central_storage_puts_variables_on_the_parameter_device():
    s = tf.distribute.experimental.CentralStorageStrategy(["/gpu:0", "/gpu:1"])
    with tf.Graph().as_default(), s.scope():
        v = s.run(lambda: tf.get_variable("v", [2]))
        assert "CPU:0" in v.device
        assert s.extended.parameter_devices == (
            "/job:localhost/replica:0/task:0/device:CPU:0",)


def test_experimental_set_strategy():
    s = tf.distribute.MirroredStrategy(["/cpu:0"])
    with tf.Graph().as_default():
        tf.distribute.experimental_set_strategy(s)
        try:
            assert tf.distribute.get_strategy() is s
        finally:
            tf.distribute.experimental_set_strategy(None)
        assert not tf.distribute.has_strategy()


def test_estimator_checkpoints_restore_without_the_strategy(tmp_path):
    x, y = regression_data(16)

    def model_fn(features, labels, mode):
        w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
        loss = tf.losses.mean_squared_error(labels, tf.matmul(features["x"], w))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(
            loss, global_step=tf.train.get_global_step())
        return tf.estimator.EstimatorSpec(mode, loss=loss, train_op=train)

    def input_fn():
        return tf.data.Dataset.from_tensor_slices(({"x": x}, y)).batch(4).repeat()
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    tf.estimator.Estimator(model_fn, str(tmp_path), tf.estimator.RunConfig(
        train_distribute=s)).train(input_fn, steps=2)
    plain = tf.estimator.Estimator(model_fn, str(tmp_path))
    assert plain.get_variable_value("global_step") == 2
    assert plain.evaluate(input_fn, steps=1)["global_step"] == 2
    plain.train(input_fn, steps=1)
    assert plain.get_variable_value("global_step") == 3


def test_estimator_refuses_strategies_in_a_cluster(monkeypatch):
    monkeypatch.setenv("TF_CONFIG", '{"cluster": {"chief": ["a:1"], "worker": ["b:1"]}, '
                                    '"task": {"type": "worker", "index": 0}}')
    with pytest.raises(NotImplementedError, match="TF_CONFIG cluster"):
        tf.estimator.RunConfig(train_distribute=tf.distribute.MirroredStrategy(["/cpu:0"]))


def test_assign_moving_average_in_replicas_moves_toward_the_mean():
    from tf1compat.training.moving_averages import assign_moving_average
    s = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with tf.Graph().as_default(), s.scope():
        avg = tf.get_variable("avg", [], initializer=tf.zeros_initializer(), trainable=False)

        def fn():
            rid = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group,
                          tf.float32)
            return assign_moving_average(avg, 10. * (rid + 1.), 0.9, zero_debias=False)
        update = s.run(fn)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(s.group(update))
            np.testing.assert_allclose(sess.run(avg), 0.1 * 15., rtol=1e-6)


def test_internal_import_paths():
    import importlib
    shim = importlib.import_module("tf1compat.shim")
    context = importlib.import_module(
        shim.INTERNAL_PATHS["tensorflow.python.distribute.distribution_strategy_context"])
    assert context.get_distribution_strategy() is tf.distribute.get_strategy()
    reduce_util = importlib.import_module(
        shim.INTERNAL_PATHS["tensorflow.python.distribute.reduce_util"])
    assert reduce_util.ReduceOp is tf.distribute.ReduceOp
