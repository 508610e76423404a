"""tf.contrib.model_pruning beyond the goldens (tests/golden/cases_contrib_model_pruning.py):
training through masked layers, freezing from a checkpoint and the names not provided."""

import numpy as np
import pytest

import tf1compat as tf


def _model():
    x = tf.placeholder(tf.float32, [4, 6], name="x")
    h = tf.contrib.model_pruning.masked_fully_connected(
        x, 8, weights_initializer=tf.random_normal_initializer(seed=1))
    out = tf.contrib.model_pruning.masked_fully_connected(
        h, 2, activation_fn=None, weights_initializer=tf.random_normal_initializer(seed=2))
    return x, tf.identity(out, name="out")


def test_training_keeps_pruned_weights_out_of_the_output():
    """The mask is not trainable: after a mask update the pruned kernel entries no longer
    reach the output, and SGD steps leave the mask as it was."""
    mp = tf.contrib.model_pruning
    with tf.Graph().as_default():
        x, out = _model()
        step = tf.train.get_or_create_global_step()
        loss = tf.reduce_mean(tf.square(out))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, global_step=step)
        pruning = mp.Pruning(mp.get_pruning_hparams().parse(
            "pruning_frequency=1,target_sparsity=0.5,sparsity_function_end_step=2"))
        update = pruning.conditional_mask_update_op()
        assert [v.name for v in tf.trainable_variables()] == [
            "fully_connected/weights:0", "fully_connected/biases:0",
            "fully_connected_1/weights:0", "fully_connected_1/biases:0"]
        feed = {x: np.random.RandomState(0).randn(4, 6).astype(np.float32)}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for _ in range(3):
                sess.run(train, feed)
                sess.run(update)
            masks = sess.run(mp.get_masks())
            assert [m.mean() for m in masks] == [0.5, 0.5]
            sess.run(train, feed)
            assert all((a == b).all() for a, b in zip(masks, sess.run(mp.get_masks())))
            weights, masked = sess.run([mp.get_weights(), mp.get_masked_weights()])
            for w, m, mw in zip(weights, masks, masked):
                np.testing.assert_array_equal(mw, w * m)


def test_graph_def_from_checkpoint_then_strip(tmp_path):
    mp = tf.contrib.model_pruning
    feed_value = np.random.RandomState(1).randn(4, 6).astype(np.float32)
    with tf.Graph().as_default():
        x, out = _model()
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            mask = mp.get_masks()[0]
            sess.run(mask.assign(np.tril(np.ones([6, 8], np.float32))))
            expected = sess.run(out, {x: feed_value})
            tf.train.Saver().save(sess, str(tmp_path / "model.ckpt"))
    with tf.Graph().as_default():
        frozen = mp.graph_def_from_checkpoint(str(tmp_path), ["out"])
    stripped = mp.strip_pruning_vars_fn(frozen, ["out"])
    assert not [n.name for n in stripped.node if n.name.split("/")[-1] in ("mask", "threshold")]
    assert [n.op for n in stripped.node if n.name.endswith("masked_weight")] == ["Const"] * 2
    with tf.Graph().as_default():
        tf.import_graph_def(stripped, name="")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run("out:0", {"x:0": feed_value}), expected,
                                       rtol=1e-6)
    with pytest.raises(ValueError, match="Could not find a checkpoint"):
        mp.graph_def_from_checkpoint(str(tmp_path / "none"), ["out"])
