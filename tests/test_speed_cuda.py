"""The fast paths of issue 17 on a CUDA device (run by scripts/gpu_check.sh with
`pytest -m cuda`): fused RNNs on cuDNN against the cell loop on the same device, a hot
plan compiled with inductor/Triton against op by op, and sparse-dense matmul on CUDA's
sparse kernels against the dense product. Skipped without a CUDA device."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.rnn import fused as fused_rnn
from tf1compat.runtime import hot_plans

from tests import test_fused_rnn as fused_cases

pytestmark = [pytest.mark.cuda,
              pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")]


@pytest.fixture
def exact_cudnn(monkeypatch):
    """cuDNN's RNNs use TF32 on Ampere and later unless told otherwise; the loop's
    matmuls do not, so the comparison turns TF32 off to compare like with like."""
    monkeypatch.setattr(torch.backends.cudnn, "allow_tf32", False)
    monkeypatch.setattr(torch.backends.cuda.matmul, "allow_tf32", False)


@pytest.mark.parametrize("kind", ["basic_lstm", "lstm", "rnn_tanh", "multi"])
def test_fused_rnn_on_cudnn_matches_cell_loop(kind, monkeypatch, exact_cudnn):
    (loop, fast), calls = fused_cases._run_both(*fused_cases._graph(kind, [6, 2, 0, 9]),
                                                monkeypatch)
    assert calls >= 1
    for x, y in zip(tf.nest.flatten(loop), tf.nest.flatten(fast)):
        np.testing.assert_allclose(x, y, rtol=1e-4, atol=1e-5)


def test_fused_rnn_runs_on_the_gpu(monkeypatch):
    devices = []
    original = fused_rnn._run_layers

    def recording(layers, x, *args, **kwargs):
        devices.append(x.device.type)
        return original(layers, x, *args, **kwargs)
    monkeypatch.setattr(fused_rnn, "_run_layers", recording)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [4, 5, 3])
        out, _ = tf.nn.dynamic_rnn(tf.nn.rnn_cell.LSTMCell(8), x, dtype=tf.float32)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            sess.run(out, {x: np.ones([4, 5, 3], np.float32)})
    assert devices and set(devices) == {"cuda"}


def test_hot_plan_compiled_on_cuda(monkeypatch):
    monkeypatch.setenv("TF1COMPAT_COMPILE_AFTER", "3")
    monkeypatch.setenv("TF1COMPAT_COMPILE_MIN_OPS", "20")
    monkeypatch.setenv("TF1COMPAT_COMPILE_BACKGROUND", "0")
    # One verdict after the first pairs (runtime/hot_plans.trial_verdict): a trial timed
    # by the real clock could otherwise go on past the runs counted here.
    monkeypatch.setattr(hot_plans, "_TRIAL_MAX_RUNS", hot_plans._TRIAL_RUNS)
    with tf.Graph().as_default(), tf.device("/gpu:0"):
        x, h = _chain()
        feed = {x: np.linspace(-1, 1, 4096).astype(np.float32)}
        with tf.Session() as sess:
            want = sess.run(h, feed)
            for _ in range(3 + 2 * hot_plans._TRIAL_RUNS + 2):
                np.testing.assert_allclose(sess.run(h, feed), want, rtol=1e-5, atol=1e-6)
            record = list(sess._plans.values())[-1].hot
    assert record.status in (hot_plans.COMPILED, hot_plans.FALLBACK,
                             hot_plans.RETRIAL), record.reason
    if record.status == hot_plans.FALLBACK:
        assert "not faster" in record.reason


def _chain(n=40):
    x = tf.placeholder(tf.float32, [None])
    h = x
    for i in range(n):
        h = tf.tanh(h) if i % 2 else h * 1.01 + 0.01
    return x, h


def test_sparse_dense_matmul_on_cuda_matches_dense():
    rng = np.random.RandomState(0)
    dense = (rng.rand(50, 40) < 0.1) * rng.randn(50, 40)
    idx = np.argwhere(dense)
    with tf.Graph().as_default(), tf.device("/gpu:0"):
        sp = tf.SparseTensor(idx, dense[tuple(idx.T)].astype(np.float32), [50, 40])
        b = tf.constant(rng.randn(40, 7).astype(np.float32))
        y = tf.sparse_tensor_dense_matmul(sp, b)
        yt = tf.sparse_tensor_dense_matmul(sp, tf.constant(rng.randn(50, 3).astype(np.float32)),
                                           adjoint_a=True)
        g = tf.gradients(tf.reduce_sum(y * y), b)[0]
        with tf.Session() as sess:
            got, got_t, grad, bv = sess.run([y, yt, g, b])
    d = dense.astype(np.float32)
    np.testing.assert_allclose(got, d @ bv, rtol=1e-4, atol=1e-5)
    assert got_t.shape == (40, 3)
    np.testing.assert_allclose(grad, 2 * d.T @ (d @ bv), rtol=1e-3, atol=1e-4)
