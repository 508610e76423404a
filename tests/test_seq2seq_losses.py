"""tf.contrib.seq2seq.sequence_loss and tf.contrib.legacy_seq2seq losses against numpy
references written from TF 1.15's definitions (TF 2 has no contrib to record from)."""

import numpy as np
import pytest

import tf1compat as tf


def _xent(logits, targets):
    z = logits - logits.max(-1, keepdims=True)
    logp = z - np.log(np.exp(z).sum(-1, keepdims=True))
    return -np.take_along_axis(logp, targets[..., None], -1)[..., 0]


@pytest.fixture
def data():
    rng = np.random.RandomState(0)
    logits = rng.randn(3, 4, 5).astype(np.float32)
    targets = rng.randint(0, 5, (3, 4)).astype(np.int32)
    weights = (rng.rand(3, 4) > 0.3).astype(np.float32)
    return logits, targets, weights


@pytest.mark.parametrize("flags", [
    dict(), dict(average_across_timesteps=False), dict(average_across_batch=False),
    dict(average_across_timesteps=False, average_across_batch=False),
    dict(average_across_timesteps=False, average_across_batch=False,
         sum_over_timesteps=True, sum_over_batch=True),
    dict(average_across_timesteps=False, sum_over_timesteps=True),
    dict(average_across_batch=False, sum_over_batch=True),
])
def test_sequence_loss_matches_reference(data, flags):
    logits, targets, weights = data
    ce = _xent(logits, targets) * weights
    at = flags.get("average_across_timesteps", True)
    ab = flags.get("average_across_batch", True)
    st, sb = flags.get("sum_over_timesteps", False), flags.get("sum_over_batch", False)
    if at and ab:
        want = ce.sum() / weights.sum()
    elif st and sb:
        want = ce.sum() / np.count_nonzero(weights)
    elif at or ab:
        axis = 0 if ab else 1
        want = ce.sum(axis) / weights.sum(axis)
    elif st or sb:
        axis = 0 if sb else 1
        want = ce.sum(axis) / np.count_nonzero(weights, axis=axis)
    else:
        want = ce
    with tf.Graph().as_default():
        loss = tf.contrib.seq2seq.sequence_loss(tf.constant(logits), tf.constant(targets),
                                                tf.constant(weights), **flags)
        assert loss.name.startswith("sequence_loss/")
        with tf.Session() as sess:
            np.testing.assert_allclose(sess.run(loss), want, rtol=1e-5, atol=1e-6)


def test_sequence_loss_checks_ranks_and_flags(data):
    logits, targets, weights = data
    with tf.Graph().as_default():
        with pytest.raises(ValueError, match="Logits must be a"):
            tf.contrib.seq2seq.sequence_loss(logits[0], targets, weights)
        with pytest.raises(ValueError, match="cannot be set to True at same time"):
            tf.contrib.seq2seq.sequence_loss(logits, targets, weights, sum_over_timesteps=True)
    with pytest.raises(AttributeError, match="tf.contrib.seq2seq.TrainingSampler"):
        tf.contrib.seq2seq.TrainingSampler  # TF 1.15's Keras-style samplers are not public


def test_legacy_sequence_losses_match_reference(data):
    logits, targets, weights = data
    ce = _xent(logits, targets) * weights                     # [batch, time]
    by_example = ce.sum(1) / (weights.sum(1) + 1e-12)
    with tf.Graph().as_default():
        lg = [tf.constant(logits[:, t]) for t in range(4)]
        tg = [tf.constant(targets[:, t]) for t in range(4)]
        wt = [tf.constant(weights[:, t]) for t in range(4)]
        per = tf.contrib.legacy_seq2seq.sequence_loss_by_example(lg, tg, wt)
        mean = tf.contrib.legacy_seq2seq.sequence_loss(lg, tg, wt)
        total = tf.contrib.legacy_seq2seq.sequence_loss(lg, tg, wt, average_across_batch=False)
        grads = tf.gradients(mean, lg)
        with tf.Session() as sess:
            a, b, c, g = sess.run([per, mean, total, grads])
        np.testing.assert_allclose(a, by_example, rtol=1e-5)
        np.testing.assert_allclose(b, by_example.sum() / 3, rtol=1e-5)
        np.testing.assert_allclose(c, by_example.sum(), rtol=1e-5)
        assert all(x.shape == (3, 5) for x in g)
        with pytest.raises(ValueError, match="Lengths of logits, weights, and targets"):
            tf.contrib.legacy_seq2seq.sequence_loss_by_example(lg, tg[:2], wt)
