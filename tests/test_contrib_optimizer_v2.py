"""tf.contrib.optimizer_v2 beyond the goldens (tests/golden/cases_contrib3.py,
cases_contrib4.py, eager_cases_contrib_optimizer_v2.py): under a tf.distribute strategy
the replicas' gradients are summed and applied once, so two replicas on halves of a batch
take the steps of one replica on the whole batch (the loss divided by the replicas by
hand, or by `scale_loss_by_num_replicas=True`)."""

import numpy as np
import pytest

import tf1compat as tf


def _data(n=8):
    rng = np.random.RandomState(3)
    x = rng.randn(n, 3).astype(np.float32)
    y = (x @ np.array([[1.], [-2.], [0.5]], np.float32)).astype(np.float32)
    return x, y


def _train(strategy, make_opt, scale_by_flag, steps=3):
    x, y = _data()
    with tf.Graph().as_default():
        with strategy.scope():
            it = strategy.make_dataset_iterator(
                tf.data.Dataset.from_tensor_slices((x, y)).batch(len(x)).repeat())

            def step(inputs):
                xx, yy = inputs
                w = tf.get_variable("w", [3, 1], initializer=tf.zeros_initializer())
                loss = tf.reduce_mean(tf.square(tf.matmul(xx, w) - yy))
                if not scale_by_flag:
                    loss = loss / strategy.num_replicas_in_sync
                train = make_opt().minimize(loss, scale_loss_by_num_replicas=scale_by_flag)
                with tf.control_dependencies([train]):
                    return tf.identity(loss)
            loss = strategy.reduce("SUM", strategy.experimental_run(step, it), axis=None)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                sess.run(it.initialize())
                for _ in range(steps):
                    sess.run(loss)
                return sess.run(tf.global_variables()[0])


@pytest.mark.parametrize("scale_by_flag", [False, True])
@pytest.mark.parametrize("make_opt", [
    lambda: tf.contrib.optimizer_v2.AdamOptimizer(lambda: 0.1),
    lambda: tf.contrib.optimizer_v2.RMSPropOptimizer(0.05, momentum=0.5, centered=True),
    lambda: tf.contrib.optimizer_v2.MomentumOptimizer(0.1, 0.9)], ids=["adam", "rmsprop",
                                                                       "momentum"])
def test_two_replicas_equal_one_on_the_whole_batch(make_opt, scale_by_flag):
    one = _train(tf.distribute.OneDeviceStrategy("/cpu:0"), make_opt, scale_by_flag)
    two = _train(tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]), make_opt,
                 scale_by_flag)
    assert np.abs(one).max() > 0.1          # the steps moved w
    np.testing.assert_allclose(two, one, rtol=1e-5, atol=1e-6)
