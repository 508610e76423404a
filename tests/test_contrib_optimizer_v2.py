"""tf.contrib.optimizer_v2 beyond the goldens (tests/golden/cases_contrib3.py,
cases_contrib4.py, eager_cases_contrib_optimizer_v2.py): under a tf.distribute strategy
the replicas' gradients are summed and applied once, so two replicas on halves of a batch
take the steps of one replica on the whole batch (the loss divided by the replicas by
hand, or by `scale_loss_by_num_replicas=True`)."""

import numpy as np
import pytest

import tf1compat as tf
from tests.test_distribute_strategy import regression_data, train_replicated


@pytest.mark.parametrize("scale_by_flag", [False, True])
@pytest.mark.parametrize("make_opt", [
    lambda: tf.contrib.optimizer_v2.AdamOptimizer(lambda: 0.1),
    lambda: tf.contrib.optimizer_v2.RMSPropOptimizer(0.05, momentum=0.5, centered=True),
    lambda: tf.contrib.optimizer_v2.MomentumOptimizer(0.1, 0.9)], ids=["adam", "rmsprop",
                                                                       "momentum"])
def test_two_replicas_equal_one_on_the_whole_batch(make_opt, scale_by_flag):
    x, y = regression_data()
    one = train_replicated(tf.distribute.OneDeviceStrategy("/cpu:0"), x, y, make_opt=make_opt,
                           scale_loss_by_num_replicas=scale_by_flag)[1]
    two = train_replicated(tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"]), x, y,
                           make_opt=make_opt, scale_loss_by_num_replicas=scale_by_flag)[1]
    assert np.abs(one).max() > 0.1          # the steps moved w
    np.testing.assert_allclose(two, one, rtol=1e-5, atol=1e-6)
