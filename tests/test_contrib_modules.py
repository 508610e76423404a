"""tf.contrib.quantize / resampler / memory_stats / text / integrate: what the golden
cases (tests/golden/cases_contrib_quantize.py, ...) cannot record."""

import numpy as np
import pytest
import torch

import tf1compat as tf
from tf1compat.ops import resampler_ops


def test_quantize_folds_contrib_layers_unfused_batch_norm():
    """contrib.layers.batch_norm(fused=False) names its arithmetic `BatchNorm/batchnorm_1`
    as TF 1.15 does, which is what the unfused folding looks for (its values:
    tests/golden/cases_contrib_quantize_unfused_bn.py, built from core ops)."""
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [2, 4, 4, 3])
        with tf.variable_scope("conv"):
            w = tf.get_variable("weights", [3, 3, 3, 5])
            y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
            tf.nn.relu(tf.contrib.layers.batch_norm(y, scale=True, fused=False,
                                                    is_training=True))
        tf.contrib.quantize.create_training_graph(graph)
        relu = graph.get_operation_by_name("conv/Relu")
        assert relu.inputs[0].name == "conv/add_fold:0"
        assert graph.get_operation_by_name("conv/Conv2D_Fold").inputs[1].name == \
            "conv/weights_quant/FakeQuantWithMinMaxVars:0"
        assert graph.get_operation_by_name("conv/mul_fold").inputs[1].name == \
            "conv/BatchNorm/batchnorm_1/mul:0"


def test_folded_training_batch_norm_gradients_through_batch_statistics():
    """FoldFusedBatchNormGrad: after folding, the gradients of the batch mean and variance
    reach the layer's input, so the folded graph's gradients equal the unfolded one's."""
    def gradients(fold):
        with tf.Graph().as_default() as graph:
            x = tf.constant(np.random.RandomState(0).randn(4, 5, 5, 3).astype(np.float32))
            w = tf.get_variable("weights", [3, 3, 3, 4],
                                initializer=tf.random_normal_initializer(seed=1))
            y = tf.nn.fused_batch_norm(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"),
                                       tf.ones([4]), tf.zeros([4]), is_training=True)[0]
            out = tf.nn.relu(y)
            if fold:
                from tf1compat.contrib.quantize.fold_batch_norms import fold_batch_norms
                fold_batch_norms(graph, is_training=False)
                assert out.op.inputs[0].op.name == "add_fold"
            grad = tf.gradients(tf.reduce_sum(tf.square(out - 0.3)), w)[0]
            with tf.Session() as sess:
                sess.run(tf.global_variables_initializer())
                return sess.run(grad)
    np.testing.assert_allclose(gradients(True), gradients(False), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("data_shape,warp_shape,error,words", [
    # TF 1.15's resampler_ops_test.py test_op_errors: the kernel refuses these at run time.
    ((2, 4, 5, 3, 2), (2, 3, 2), tf.errors.UnimplementedError,
     "Only bilinear interpolation is currently supported."),
    ((2, 4, 5, 3), (2,), tf.errors.InvalidArgumentError, "warp should be at least a matrix"),
    ((2, 4, 5, 3), (3, 4, 2), tf.errors.InvalidArgumentError,
     "Batch size of data and warp tensor"),
    ((2, 4, 5, 3), (2, 4, 3), tf.errors.UnimplementedError,
     "Only bilinear interpolation is supported, warping"),
])
def test_resampler_kernel_errors(data_shape, warp_shape, error, words):
    with tf.Graph().as_default():
        out = tf.contrib.resampler.resampler(np.zeros(data_shape), np.zeros(warp_shape))
        assert out.op.type == "Resampler" and out.op.name == "resampler/Resampler"
        with tf.Session() as sess, pytest.raises(error, match=words):
            sess.run(out)


def test_resampler_grad_op_is_the_gradient():
    rng = np.random.RandomState(0)
    data = rng.randn(2, 3, 4, 2)
    warp = rng.uniform(-1.5, 4.5, (2, 5, 2))
    grad_output = rng.randn(2, 5, 2)
    with tf.Graph().as_default():
        d, w = tf.constant(data), tf.constant(warp)
        out = tf.contrib.resampler.resampler(d, w)
        grads = tf.gradients(out, [d, w], grad_ys=grad_output)
        grad_op = resampler_ops.resampler_grad(d, w, grad_output)
        assert [g.shape.as_list() for g in grad_op] == [[2, 3, 4, 2], [2, 5, 2]]
        with tf.Session() as sess:
            expected, got = sess.run([grads, list(grad_op)])
    for e, g in zip(expected, got):
        np.testing.assert_allclose(g, e, rtol=1e-12, atol=1e-12)
    # The second derivative is refused as TF's (NotDifferentiable("ResamplerGrad")).
    with tf.Graph().as_default():
        d = tf.constant(data)
        grad_data, _ = resampler_ops.resampler_grad(d, tf.constant(warp), grad_output)
        assert tf.gradients(grad_data, d) == [None]


def test_memory_stats_on_the_cpu_are_zero_as_tf():
    with tf.Graph().as_default():
        with tf.device("/cpu:0"):
            ops = [tf.contrib.memory_stats.BytesInUse(), tf.contrib.memory_stats.BytesLimit(),
                   tf.contrib.memory_stats.MaxBytesInUse()]
        assert [t.name for t in ops] == ["BytesInUse:0", "BytesLimit:0", "MaxBytesInUse:0"]
        assert all(t.dtype == tf.int64 and t.shape.as_list() == [] for t in ops)
        with tf.Session() as sess:
            values = sess.run(ops)
    assert values == [0, 0, 0] and all(v.dtype == np.int64 for v in values)


@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_memory_stats_on_cuda_follow_torch_allocator():
    with tf.Graph().as_default():
        with tf.device("/gpu:0"):
            x = tf.ones([1024, 1024])
            with tf.control_dependencies([x]):
                in_use = tf.contrib.memory_stats.BytesInUse()
            limit = tf.contrib.memory_stats.BytesLimit()
            peak = tf.contrib.memory_stats.MaxBytesInUse()
        with tf.Session() as sess:
            used, total, most = sess.run([in_use, limit, peak])
    assert total == torch.cuda.get_device_properties(0).total_memory
    assert 0 < used <= most <= total


def _windows(tokens, labels, size):
    """Each position's emitted label positions (tokens/labels are positions)."""
    found = {i: [] for i in range(size)}
    for t, lab in zip(tokens.tolist(), labels.tolist()):
        found[t].append(lab)
    return found


def test_skip_gram_random_windows():
    """Each token's labels are its neighbours within its own window, drawn in
    [min_skips, max_skips]; a seeded op repeats its sequence in a new session."""
    with tf.Graph().as_default():
        positions = tf.range(40, dtype=tf.int64)
        tokens, labels = tf.contrib.text.skip_gram_sample(positions, min_skips=1,
                                                          max_skips=3, seed=5)
        assert tokens.op.type == "SkipGramGenerateCandidates"
        assert tokens.shape.as_list() == [None] and labels.dtype == tf.int64
        runs = []
        for _ in range(2):
            with tf.Session() as sess:
                runs.append([sess.run([tokens, labels]) for _ in range(3)])
    assert all(np.array_equal(a, b) for x, y in zip(*runs) for a, b in zip(x, y))
    widths = set()
    for t, lab in runs[0]:
        for i, seen in _windows(t, lab, 40).items():
            skips = max(abs(j - i) for j in seen)
            widths.add(skips)
            assert seen == [j for j in range(i - skips, i + skips + 1) if j != i and 0 <= j < 40]
    assert widths == {1, 2, 3}
    assert not np.array_equal(runs[0][0][0], runs[0][1][0])   # the stream advances


def test_skip_gram_kernel_errors():
    with tf.Graph().as_default():
        words = tf.constant([b"a", b"b", b"c"])
        low_high = tf.contrib.text.skip_gram_sample(words, min_skips=3, max_skips=2)
        negative = tf.contrib.text.skip_gram_sample(words, min_skips=-1, max_skips=2)
        with tf.Session() as sess:
            for fetch, words in [(low_high, "min_skips must be <= max_skips"),
                                 (negative, "Both min_skips and max_skips must be >= 0")]:
                with pytest.raises(tf.errors.InvalidArgumentError, match=words):
                    sess.run(fetch)
        with pytest.raises(ValueError, match="Shape must be rank 1 but is rank 2"):
            tf.contrib.text.skip_gram_sample(tf.constant([[1, 2]]))


def test_folded_training_batch_norm_under_update_ops_control_dependencies():
    """The usual training step, `minimize` under control_dependencies(UPDATE_OPS): the
    gradient of the folded batch norm (a Python gradient function) must not run the
    moving-average updates a second time (they update once per step, as in TF)."""
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [4, 5, 5, 3])
        w = tf.get_variable("weights", [3, 3, 3, 4],
                            initializer=tf.random_normal_initializer(seed=1))
        moving_mean = tf.get_variable("moving_mean", [4], trainable=False,
                                      initializer=tf.zeros_initializer())
        y, mean, _ = tf.nn.fused_batch_norm(tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME"),
                                            tf.ones([4]), tf.zeros([4]), is_training=True)
        update = tf.assign_sub(moving_mean, (moving_mean - mean) * tf.constant(0.1))
        out = tf.nn.relu(y)
        from tf1compat.contrib.quantize.fold_batch_norms import fold_batch_norms
        fold_batch_norms(graph, is_training=False)
        with tf.control_dependencies([update]):
            train = tf.train.GradientDescentOptimizer(0.0).minimize(
                tf.reduce_mean(tf.square(out)))
        feed = {x: np.random.RandomState(0).randn(4, 5, 5, 3).astype(np.float32)}
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            batch_mean = sess.run(mean, feed)
            sess.run(train, feed)
            np.testing.assert_allclose(sess.run(moving_mean), 0.1 * batch_mean, rtol=1e-5)
