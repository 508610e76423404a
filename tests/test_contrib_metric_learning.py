"""tf.contrib.losses.metric_learning beyond the goldens (cases_contrib_metric_learning):
cluster_loss, which TF computes with scikit-learn, raises NotImplementedError naming it."""

import pytest

import tf1compat as tf


def test_cluster_loss_not_implemented():
    ml = tf.contrib.losses.metric_learning
    with pytest.raises(NotImplementedError, match="metric_learning.cluster_loss"):
        ml.cluster_loss(tf.constant([0, 1]), tf.constant([[1.0], [2.0]]), 1.0)


def test_triplet_semihard_loss_needs_rank_1_labels():
    with pytest.raises(AssertionError):
        tf.contrib.losses.metric_learning.triplet_semihard_loss(
            tf.constant([[0, 1]]), tf.constant([[1.0], [2.0]]))
