"""Conv2D + BiasAdd (+ Relu) run as one fused convolution (ops/nn_conv_bias.py): where the
plan fuses, where it does not, values against the unfused kernels, torch without the op."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.ops import nn_conv_bias


def _x(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


@pytest.fixture
def calls(monkeypatch):
    """How many times the fused convolution ran."""
    seen = []
    fused = nn_conv_bias._conv_bias_relu

    def counting(*args):
        seen.append(args[-1])
        return fused(*args)
    monkeypatch.setattr(nn_conv_bias, "_conv_bias_relu", counting)
    return seen


def _chain(x, relu=True, dtype=np.float32, seed=1):
    w = tf.constant(_x([3, 3, 3, 4], seed).astype(dtype))
    b = tf.constant(_x([4], seed + 1).astype(dtype))
    z = tf.nn.bias_add(tf.nn.conv2d(x, w, 1, "SAME"), b)
    return (tf.nn.relu(z) if relu else z), z


def _nan_input():
    xv = _x([2, 5, 5, 3])
    xv[0, 2, 2, 1] = np.nan
    return xv


@pytest.mark.skipif(not nn_conv_bias.AVAILABLE, reason="torch without the fused op")
def test_fused_relu_maps_nan_to_zero(calls):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 5, 5, 3])
        y, _ = _chain(x)
        with tf.Session() as sess:
            out = sess.run(y, {x: _nan_input()})
    assert calls == [True]
    assert not np.isnan(out).any()          # TF 2.21's fused ReLU post-op


@pytest.mark.skipif(not nn_conv_bias.AVAILABLE, reason="torch without the fused op")
def test_bias_add_alone_fused(calls):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 5, 5, 3])
        y, _ = _chain(x, relu=False)
        with tf.Session() as sess:
            out = sess.run(y, {x: _nan_input()})
    assert calls == [False]
    assert np.isnan(out).sum() == 36


def test_not_fused_when_intermediate_fetched_or_read(calls):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 5, 5, 3])
        y, z = _chain(x)
        other = z * 2.0
        with tf.Session() as sess:
            # The Relu stays apart (TF's unfused Relu keeps NaN); Conv2D + BiasAdd, whose
            # intermediate nothing else reads, may still be one convolution.
            both = sess.run([y, z], {x: _nan_input()})
            assert True not in calls
            assert np.isnan(both[0]).sum() == 36
            sess.run([y, other], {x: _nan_input()})
            assert True not in calls
            dz = sess.run(tf.gradients(tf.reduce_sum(y), z)[0], {x: _x([2, 5, 5, 3])})
            assert True not in calls and dz.shape == (2, 5, 5, 4)
            calls.clear()
            c = z.op.inputs[0]                  # the Conv2D output fetched: nothing fused
            sess.run([z, c], {x: _nan_input()})
            assert calls == []


def test_float64_not_fused(calls):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [2, 5, 5, 3])
        y, _ = _chain(x, dtype=np.float64)
        with tf.Session() as sess:
            out = sess.run(y, {x: _nan_input().astype(np.float64)})
    assert calls == [] and np.isnan(out).sum() == 36


def _train(steps=3):
    """Two conv layers (one with asymmetric SAME padding), gradients and Adam steps."""
    with tf.Graph().as_default():
        tf.set_random_seed(2)
        x = tf.placeholder(tf.float32, [None, 9, 9, 2])
        net = tf.layers.conv2d(x, 4, 3, padding="same", activation=tf.nn.relu)
        net = tf.layers.conv2d(net, 3, 3, strides=2, padding="same", activation=tf.nn.relu)
        net = tf.layers.conv2d(net, 2, 2)
        loss = tf.reduce_mean(tf.square(net - 0.2))
        grads = tf.gradients(loss, tf.trainable_variables() + [x])
        train = tf.train.AdamOptimizer(0.01).minimize(loss)
        rng = np.random.RandomState(0)
        out = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            xb = rng.randn(4, 9, 9, 2).astype(np.float32)
            xb[1, 3:, 3:, :] = 0.0         # ties: ReLU inputs exactly at the bias
            out.extend(sess.run(grads, {x: xb}))
            for _ in range(steps):
                out.append(sess.run([train, loss], {x: xb})[1])
            out.extend(sess.run(tf.trainable_variables()))
    return out


def test_values_equal_unfused(calls, monkeypatch):
    fused = _train()
    assert calls[:3] == ([True, True, False] if nn_conv_bias.AVAILABLE else [])
    monkeypatch.setattr(nn_conv_bias, "AVAILABLE", False)
    n = len(calls)
    unfused = _train()
    assert len(calls) == n
    for a, b in zip(fused, unfused):      # the same oneDNN arithmetic: bit for bit
        np.testing.assert_array_equal(a, b)


def test_without_the_fused_op(calls, monkeypatch):
    """A torch without mkldnn._convolution_pointwise runs the ops' own kernels (NaN kept,
    as TF with TF_ENABLE_ONEDNN_OPTS=0)."""
    monkeypatch.setattr(nn_conv_bias, "AVAILABLE", False)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 5, 5, 3])
        y, _ = _chain(x)
        with tf.Session() as sess:
            out = sess.run(y, {x: _nan_input()})
            finite = sess.run(y, {x: _x([2, 5, 5, 3])})
    assert calls == [] and np.isnan(out).sum() == 36
    assert finite.shape == (2, 5, 5, 4) and (finite >= 0).all()


def test_filter_relaid_once_for_channels_last_input(monkeypatch):
    """oneDNN gets the filter already in channels_last layout where the input is (torch's
    forward and gradient would each copy the permuted HWIO view), with the view's values;
    an input that is also contiguous (one channel) keeps the view for torch to lay out."""
    weights = []
    fused = nn_conv_bias._conv_bias_relu

    def recording(*args):
        weights.append(args[1])
        return fused(*args)
    monkeypatch.setattr(nn_conv_bias, "_conv_bias_relu", recording)
    _train(steps=1)
    if not nn_conv_bias.AVAILABLE:
        pytest.skip("torch without mkldnn._convolution_pointwise")
    # The layers' filters are [4, 2, 3, 3], [3, 4, 3, 3], [2, 3, 2, 2] (out, in, kh, kw).
    assert [tuple(w.shape) for w in weights[:3]] == [(4, 2, 3, 3), (3, 4, 3, 3), (2, 3, 2, 2)]
    assert all(w.is_contiguous(memory_format=torch.channels_last) for w in weights)
    view = torch.arange(24.0).reshape(2, 2, 3, 2)            # HWIO
    single = nn_conv_bias._filter_for(torch.zeros(1, 3, 4, 4)[:, :1], view[..., :1, :])
    assert single.data_ptr() == view.data_ptr()               # input is also contiguous
    relaid = nn_conv_bias._filter_for(torch.zeros(1, 4, 4, 3).permute(0, 3, 1, 2), view)
    assert relaid.is_contiguous(memory_format=torch.channels_last)
    assert torch.equal(relaid, view.permute(3, 2, 0, 1))
