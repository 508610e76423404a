"""Two independent kernels at once (runtime/paired_kernels.py): the values, the modes the
helper runs under, when the pair runs in turn, and the fused convolution's gradients."""

import threading

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.ops import nn_conv_bias
from tf1compat.runtime import denormals, paired_kernels


@pytest.fixture(autouse=True)
def switched_on(monkeypatch):
    """Pairing is off by default (TF1COMPAT_PAIRED_KERNELS=1 turns it on)."""
    monkeypatch.setattr(paired_kernels, "_ENABLED", True)


@pytest.fixture
def two_threads():
    before = torch.get_num_threads()
    torch.set_num_threads(2)
    yield
    torch.set_num_threads(before)


needs_gomp = pytest.mark.skipif(paired_kernels._OMP is None, reason="no libgomp loaded")


def _where():
    return threading.get_ident(), torch.get_num_threads()


@needs_gomp
def test_pair_runs_first_on_the_helper_at_half_the_threads(two_threads):
    (helper, helper_threads), (caller, caller_threads) = paired_kernels.run_pair(
        _where, _where, torch.zeros(1))
    assert caller == threading.get_ident() and helper != caller
    assert helper_threads == caller_threads == 1
    assert torch.get_num_threads() == 2          # the caller's count is back


def test_one_thread_runs_in_turn_on_the_caller():
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        (first, _), (second, _) = paired_kernels.run_pair(_where, _where)
    finally:
        torch.set_num_threads(before)
    assert first == second == threading.get_ident()


def test_tensor_subclasses_and_tracers_run_in_turn(two_threads):
    from torch._subclasses.fake_tensor import FakeTensorMode
    assert not paired_kernels.pairing(torch.nn.Parameter(torch.zeros(1)))
    with FakeTensorMode() as mode:
        fake = mode.from_tensor(torch.zeros(2))
        assert not paired_kernels.pairing(fake)
        assert not paired_kernels.pairing()       # the mode is on: in turn


def test_switch_off(two_threads, monkeypatch):
    monkeypatch.setattr(paired_kernels, "_ENABLED", False)
    (first, _), (second, _) = paired_kernels.run_pair(_where, _where)
    assert first == second == threading.get_ident()


@needs_gomp
def test_helper_keeps_grad_mode_and_denormal_flushing(two_threads):
    def modes():
        return torch.is_grad_enabled(), denormals.flushing()
    with torch.no_grad():
        assert paired_kernels.run_pair(modes, modes) == ((False, False), (False, False))
    switched = denormals.enter()
    try:
        assert paired_kernels.run_pair(modes, modes) == ((True, True), (True, True))
    finally:
        if switched:
            denormals.leave()
    # The helper's own thread is back to IEEE denormals after a flushing pair.
    assert paired_kernels.run_pair(modes, modes) == ((True, False), (True, False))


@pytest.mark.parametrize("failing", ["first", "second"])
def test_errors_reach_the_caller_and_the_helper_stays_usable(two_threads, failing):
    def boom():
        raise ValueError(failing)
    pair = (boom, _where) if failing == "first" else (_where, boom)
    with pytest.raises(ValueError, match=failing):
        paired_kernels.run_pair(*pair)
    assert torch.get_num_threads() == 2
    assert len(paired_kernels.run_pair(_where, _where)) == 2


def _conv_case(n, size, c_in, c_out, k):
    """A fused convolution's inputs, output and incoming gradient (NHWC as channels_last
    views, as the kernel sees them)."""
    g = torch.Generator().manual_seed(0)
    x = torch.randn(n, size, size, c_in, generator=g).permute(0, 3, 1, 2)
    w = (torch.randn(k, k, c_in, c_out, generator=g) * 0.05).permute(3, 2, 0, 1)
    b = torch.randn(c_out, generator=g)
    pad = [k // 2, k // 2]
    out = nn_conv_bias._forward(x, w, b, pad, [1, 1], [1, 1], True)
    grad = torch.randn(out.shape, generator=g).contiguous(memory_format=torch.channels_last)
    return grad, out, x, w, pad


@pytest.mark.skipif(not nn_conv_bias.fused_conv_available(), reason="no fused convolution")
@pytest.mark.parametrize("shape", [(8, 14, 32, 64, 5), (4, 12, 3, 8, 3)])
def test_fused_gradients_equal_one_call(two_threads, monkeypatch, shape):
    """Paired or not (the probe decides per geometry), the gradients equal one
    convolution_backward call's at the same thread count, bit for bit."""
    grad, out, x, w, pad = _conv_case(*shape)
    got = nn_conv_bias._gradients(grad, out, x, w, pad, [1, 1], [1, 1], True, [True, True])
    g = torch.ops.aten.threshold_backward(grad, out, 0)
    dx, dw, _ = torch.ops.aten.convolution_backward(
        g, x, w, None, [1, 1], pad, [1, 1], False, [0, 0], 1, [True, True, False])
    assert torch.equal(got[0], dx) and torch.equal(got[1], dw)
    assert torch.equal(got[2], g.sum((0, 2, 3)))


@needs_gomp
@pytest.mark.parametrize("follows_count", [False, True])
def test_probe_refuses_a_pair_whose_values_follow_the_count(two_threads, monkeypatch,
                                                            follows_count):
    """A filter gradient whose last bits follow the thread count (oneDNN's split batch
    sum) keeps the gradients one call; one that does not is paired."""
    monkeypatch.setattr(nn_conv_bias, "_PAIR_VERDICTS", {})

    def backward(want, g, x, w):
        scale = float(torch.get_num_threads()) if follows_count else 1.0
        return g * 2.0, w * scale, None
    t = torch.ones(2, 3)
    verdict = nn_conv_bias._pair_equals_one_call(backward, t, t, t)
    assert verdict is not follows_count
    assert list(nn_conv_bias._PAIR_VERDICTS.values()) == [verdict]
    assert torch.get_num_threads() == 2


def _train(threads, steps=3):
    """A small conv net's variables after Adam steps (fused conv + bias + ReLU twice)."""
    rng = np.random.RandomState(0)
    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        with tf.Graph().as_default():
            tf.set_random_seed(0)
            x = tf.constant(rng.rand(4, 12, 12, 3).astype(np.float32))
            h = tf.layers.conv2d(x, 8, 3, padding="same", activation=tf.nn.relu)
            h = tf.layers.conv2d(h, 8, 3, padding="same", activation=tf.nn.relu)
            loss = tf.reduce_mean(tf.square(h - 0.5))
            train = tf.train.AdamOptimizer(1e-2).minimize(loss)
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                for _ in range(steps):
                    sess.run(train)
                return sess.run(tf.trainable_variables())
    finally:
        torch.set_num_threads(before)


@pytest.mark.skipif(not nn_conv_bias.fused_conv_available(), reason="no fused convolution")
def test_session_training_equals_the_unpaired_run(monkeypatch):
    """At two threads the second layer's gradients may run as a pair (the first layer's
    input needs none), each step asking the probe; the variables after training equal
    the run without pairs bit for bit."""
    calls = []
    ask = nn_conv_bias._pair_equals_one_call
    monkeypatch.setattr(nn_conv_bias, "_pair_equals_one_call",
                        lambda *a: calls.append(ask(*a)) or calls[-1])
    paired = _train(2)
    assert len(calls) == (3 if paired_kernels._OMP is not None else 0)
    monkeypatch.setattr(paired_kernels, "_ENABLED", False)
    for a, b in zip(paired, _train(2)):
        np.testing.assert_array_equal(a, b)
