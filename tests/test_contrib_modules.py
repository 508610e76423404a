"""tf.contrib.quantize / resampler / memory_stats / text / integrate: what the golden
cases (tests/golden/cases_contrib_quantize.py, ...) cannot record."""

import pytest

import tf1compat as tf


def test_quantize_refuses_graphs_with_batch_norms():
    """TF 1.15 folds batch norms into the conv before quantizing; tf1compat does not
    fold, so it refuses rather than quantize the graph differently."""
    with tf.Graph().as_default() as graph:
        x = tf.placeholder(tf.float32, [2, 4, 4, 3])
        w = tf.get_variable("weights", [3, 3, 3, 5])
        y = tf.nn.conv2d(x, w, [1, 1, 1, 1], "SAME")
        tf.nn.relu(tf.nn.fused_batch_norm(y, tf.ones([5]), tf.zeros([5]))[0])
        with pytest.raises(NotImplementedError, match="folding batch norms"):
            tf.contrib.quantize.create_training_graph(graph)
        assert not [op for op in graph.get_operations() if "quant" in op.name]
