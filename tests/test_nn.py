"""Unit tests for tf.nn behaviour goldens cannot express: NCHW layouts (which TF's CPU
kernels reject) against NHWC, torch memory formats, run-time messages, random streams."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.framework import errors


def _x(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _nchw(a):
    return np.ascontiguousarray(np.transpose(a, [0, 3, 1, 2]))


def _nhwc(a):
    return np.transpose(a, [0, 2, 3, 1])


@pytest.fixture(autouse=True)
def _fresh_graph():
    tf.reset_default_graph()
    yield


def _run(fetches, feed=None):
    with tf.Session() as sess:
        return sess.run(fetches, feed)


@pytest.mark.parametrize("strides,padding,dilations", [
    ([1, 1], "SAME", [1, 1]), ([2, 2], "SAME", [1, 1]), ([2, 1], "VALID", [1, 1]),
    ([1, 1], "SAME", [2, 2]), ([1, 1], [[1, 2], [0, 1]], [1, 1])])
def test_conv2d_nchw_matches_nhwc(strides, padding, dilations):
    xv, wv = _x([2, 7, 6, 3]), _x([3, 3, 3, 4], 1)
    pad_nhwc = padding if isinstance(padding, str) else [[0, 0]] + padding + [[0, 0]]
    pad_nchw = padding if isinstance(padding, str) else [[0, 0], [0, 0]] + padding
    a = tf.nn.conv2d(tf.constant(xv), wv, [1] + strides + [1], pad_nhwc,
                     dilations=[1] + dilations + [1])
    b = tf.nn.conv2d(tf.constant(_nchw(xv)), wv, [1, 1] + strides, pad_nchw,
                     data_format="NCHW", dilations=[1, 1] + dilations)
    ra, rb = _run([a, b])
    assert b.shape.as_list() == list(rb.shape)
    np.testing.assert_allclose(_nhwc(rb), ra, rtol=1e-5, atol=1e-5)


def test_pools_and_bias_nchw_match_nhwc():
    xv = _x([2, 7, 6, 3])
    x, xn = tf.constant(xv), tf.constant(_nchw(xv))
    pairs = [
        (tf.nn.max_pool(x, 3, 2, "SAME"),
         tf.nn.max_pool(xn, [1, 1, 3, 3], [1, 1, 2, 2], "SAME", data_format="NCHW")),
        (tf.nn.avg_pool(x, 3, 2, "SAME"),
         tf.nn.avg_pool(xn, [1, 1, 3, 3], [1, 1, 2, 2], "SAME", data_format="NCHW")),
        (tf.nn.bias_add(x, [1.0, 2.0, 3.0]),
         tf.nn.bias_add(xn, [1.0, 2.0, 3.0], data_format="NCHW")),
        (tf.nn.depthwise_conv2d_native(x, _x([3, 3, 3, 2], 1), [1, 2, 2, 1], "SAME"),
         tf.nn.depthwise_conv2d_native(xn, _x([3, 3, 3, 2], 1), [1, 1, 2, 2], "SAME",
                                       data_format="NCHW")),
        (tf.nn.conv2d_transpose(x, _x([3, 3, 2, 3], 2), [2, 13, 11, 2], 2, "SAME"),
         tf.nn.conv2d_transpose(xn, _x([3, 3, 2, 3], 2), [2, 2, 13, 11], [1, 1, 2, 2],
                                "SAME", data_format="NCHW")),
        (tf.nn.fused_batch_norm(x, [1.0, 2.0, 0.5], [0.0, 1.0, -1.0])[0],
         tf.nn.fused_batch_norm(xn, [1.0, 2.0, 0.5], [0.0, 1.0, -1.0],
                                data_format="NCHW")[0]),
    ]
    for (a, b), (ra, rb) in zip(pairs, _run(pairs)):
        np.testing.assert_allclose(_nhwc(rb), ra, rtol=1e-5, atol=1e-5)


def test_conv3d_and_pool3d_ncdhw_match_ndhwc():
    xv = _x([2, 5, 4, 3, 2])
    xn = np.ascontiguousarray(np.transpose(xv, [0, 4, 1, 2, 3]))
    w = _x([2, 2, 2, 2, 3], 1)
    pairs = [
        (tf.nn.conv3d(xv, w, [1, 2, 1, 2, 1], "SAME"),
         tf.nn.conv3d(xn, w, [1, 1, 2, 1, 2], "SAME", data_format="NCDHW")),
        (tf.nn.max_pool3d(xv, 2, 2, "SAME"),
         tf.nn.max_pool3d(xn, 2, 2, "SAME", data_format="NCDHW")),
        (tf.nn.avg_pool3d(xv, 3, 2, "SAME"),
         tf.nn.avg_pool3d(xn, [1, 1, 3, 3, 3], [1, 1, 2, 2, 2], "SAME", data_format="NCDHW")),
    ]
    for ra, rb in _run(pairs):
        np.testing.assert_allclose(np.transpose(rb, [0, 2, 3, 4, 1]), ra, rtol=1e-5,
                                   atol=1e-5)


def _kernel_of(t):
    """The torch kernel of the op producing `t` (built as a session would build it)."""
    from tf1compat.runtime.plan import PlanKernelContext
    sess = tf.Session()
    kctx = PlanKernelContext(sess._runtime, torch.device("cpu"), t.op, sess._runtime.builder)
    return t.op._op_def.kernel(t.op, kctx)


def test_nhwc_conv_and_pool_need_no_copies():
    """A contiguous NHWC input reaches torch as a channels_last view; outputs stay views."""
    x = tf.placeholder(tf.float32, [2, 8, 8, 3])
    conv = _kernel_of(tf.nn.conv2d(x, tf.ones([3, 3, 3, 4]), 1, "SAME"))
    pool = _kernel_of(tf.nn.max_pool(x, 2, 2, "VALID"))
    xt = torch.randn(2, 8, 8, 3)
    y = conv(xt, torch.randn(3, 3, 3, 4))
    assert y.is_contiguous()                         # NHWC result without a final copy
    assert y.permute(0, 3, 1, 2).is_contiguous(memory_format=torch.channels_last)
    p = pool(xt)
    assert p.is_contiguous()


def test_kernels_are_differentiable_in_float64():
    x = tf.placeholder(tf.float64, [1, 5, 4, 2])
    ops = [tf.nn.conv2d(x, tf.ones([3, 2, 2, 3], tf.float64), [1, 2, 1, 1], "SAME"),
           tf.nn.avg_pool(x, 3, 2, "SAME"), tf.nn.lrn(tf.cast(x, tf.float32), 1),
           tf.nn.depthwise_conv2d_native(x, tf.ones([2, 2, 2, 2], tf.float64), [1, 1, 1, 1],
                                         "SAME")]
    for t in ops[:2] + ops[3:]:
        kernel = _kernel_of(t)
        args = [torch.randn(1, 5, 4, 2, dtype=torch.float64, requires_grad=True)]
        consts = [torch.ones([int(d) for d in i.shape.as_list()], dtype=torch.float64)
                  for i in t.op.inputs[1:]]
        assert torch.autograd.gradcheck(lambda a: kernel(a, *consts), args)


@pytest.mark.skipif(torch.cuda.is_available(),
                    reason="on a GPU an out-of-range label gives NaN rows, as TF's GPU kernel")
def test_sparse_xent_label_error_message():
    logits = tf.placeholder(tf.float32, [None, 4])
    labels = tf.placeholder(tf.int32, [None])
    loss = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    with pytest.raises(errors.InvalidArgumentError) as info:
        _run(loss, {logits: np.zeros([2, 4]), labels: [1, 5]})
    assert "Received a label value of 5 which is outside the valid range of [0, 4).  " \
           "Label values: 1 5" in str(info.value)
    assert "SparseSoftmaxCrossEntropyWithLogits/SparseSoftmaxCrossEntropyWithLogits" in \
        str(info.value)


def test_top_k_ties_keep_lower_index_first_on_long_rows():
    xv = np.zeros([3, 1000], np.float32)
    xv[:, ::7] = 1.0
    values, indices = _run(tf.nn.top_k(xv, 20))
    np.testing.assert_array_equal(indices, np.tile(np.arange(0, 140, 7), (3, 1)))
    assert (values == 1.0).all()


def test_dropout_streams_follow_seeds():
    x = tf.ones([50, 50])
    y = tf.nn.dropout(x, rate=0.5, seed=7)
    with tf.Session() as s1:
        a1, a2 = s1.run(y), s1.run(y)
    with tf.Session() as s2:
        b1 = s2.run(y)
    np.testing.assert_array_equal(a1, b1)           # a new session restarts the stream
    assert (a1 != a2).any()                           # each run draws new numbers
    assert set(np.unique(a1)) <= {0.0, 2.0}


def test_sampled_softmax_trains_toward_true_class():
    """The sampled loss is differentiable w.r.t. weights and inputs (autograd)."""
    w = tf.placeholder(tf.float32, [20, 4])
    inputs = tf.placeholder(tf.float32, [3, 4])
    loss = tf.nn.sampled_softmax_loss(w, tf.zeros([20]), tf.constant([[1], [2], [3]]),
                                      inputs, 5, 20, seed=1)
    from tests.golden.cases_nn_grad import _torch_gradients
    gw, gi = _torch_gradients(tf, [loss], [w, inputs], {w: _x([20, 4]), inputs: _x([3, 4], 1)})
    assert gw.shape == (20, 4) and np.abs(gw[1:4]).sum() > 0 and np.isfinite(gi).all()


def test_learned_unigram_sampler_learns_counts():
    labels = tf.constant([[3]] * 8, tf.int64)
    sampled, true_exp, _ = tf.nn.learned_unigram_candidate_sampler(labels, 1, 1, False, 5,
                                                                   seed=3)
    with tf.Session() as sess:
        first = sess.run(true_exp)
        for _ in range(5):
            sess.run(sampled)
        later = sess.run(true_exp)
    assert np.allclose(first, 0.2)                   # uniform before any update
    assert (later > 0.8).all()                         # class 3 now dominates the counts


def test_sparse_tensor_feed_with_tuple_and_fetch_value_type():
    sp = tf.sparse_placeholder(tf.float32)
    dense = tf.sparse_tensor_to_dense(sp)
    with tf.Session() as sess:
        out = sess.run(dense, {sp: ([[0, 1], [1, 0]], [5.0, 6.0], [2, 2])})
        value = sess.run(sp, {sp: tf.SparseTensorValue([[0, 0]], [1.0], [1, 1])})
    np.testing.assert_array_equal(out, [[0.0, 5.0], [6.0, 0.0]])
    assert isinstance(value, tf.SparseTensorValue)


def test_ctc_merge_repeated_false_is_not_implemented():
    labels = tf.SparseTensor([[0, 0]], tf.constant([1]), [1, 1])
    with pytest.raises(NotImplementedError, match="ctc_merge_repeated=False"):
        tf.nn.ctc_loss(labels, tf.ones([3, 1, 4]), [3], ctc_merge_repeated=False)


def test_internal_nn_ops_module():
    from tf1compat.internal import nn_ops
    assert nn_ops.conv2d is tf.nn.conv2d and nn_ops.softmax is tf.nn.softmax
    assert nn_ops.convert_padding([[0, 0], [1, 2], [3, 4], [0, 0]]) == \
        ("EXPLICIT", [0, 0, 1, 2, 3, 4, 0, 0])


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_conv_pool_bn_match_cpu():
    xv = _x([2, 9, 8, 3])
    x = tf.placeholder(tf.float32, [None, 9, 8, 3])
    outs = [tf.nn.conv2d(x, _x([3, 3, 3, 4], 1), 2, "SAME"), tf.nn.avg_pool(x, 3, 2, "SAME"),
            tf.nn.max_pool_with_argmax(x, [1, 2, 2, 1], [1, 2, 2, 1], "SAME")[1],
            tf.nn.fused_batch_norm(x, [1.0, 2.0, 3.0], [0.0, 0.0, 0.0])[0],
            tf.nn.sparse_softmax_cross_entropy_with_logits(
                labels=[0, 9], logits=tf.reshape(x, [2, -1])[:, :4])]
    with tf.Session(config=tf.ConfigProto(device_count={"GPU": 0})) as cpu:
        expected = cpu.run(outs[:4], {x: xv})     # the CPU kernel rejects label 9
    with tf.Session() as gpu:
        got = gpu.run(outs, {x: xv})
    for e, g in zip(expected[:4], got[:4]):
        np.testing.assert_allclose(g, e, rtol=1e-4, atol=1e-4)
    assert np.isnan(got[4][1]) and not np.isnan(got[4][0])   # TF's GPU: NaN, no check


def test_bench_cnn_smoke():
    """The benchmark runs, and both models compute the same loss."""
    import importlib.util
    import os
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "bench_nn.py")
    spec = importlib.util.spec_from_file_location("bench_nn", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)         # tiny ops: avoid thread spin-waits on a busy machine
    try:
        result = bench.bench_cnn(steps=1, batch=2)
    finally:
        torch.set_num_threads(threads)
    assert result["ratio"] > 0 and result["train_ratio"] > 0
    assert abs(result["loss_tf1compat"] - result["loss_torch"]) < 1e-4
