"""slim beyond the goldens: `import tf_slim` and TF 1.15's slim module paths under the
shim, the refusals of `slim.learning.train`, string SparseToDense (tfexample_decoder)."""

import numpy as np
import pytest

import tf1compat as tf
from tf1compat import shim


@pytest.fixture
def installed():
    shim.install()
    yield
    shim.uninstall()


def test_tf_slim_resolves_to_contrib_slim(installed):
    import tf_slim as slim
    import tf_slim.nets.vgg
    from tf_slim.data import tfexample_decoder
    from tf_slim.layers import layers
    from tf_slim.ops import arg_scope, variables
    assert slim.conv2d is tf.contrib.slim.conv2d
    assert slim.learning is tf.contrib.slim.learning
    assert tf_slim.nets.vgg is tf.contrib.slim.nets.vgg
    assert tfexample_decoder.TFExampleDecoder is tf.contrib.slim.tfexample_decoder.TFExampleDecoder
    assert layers.conv2d is tf.contrib.layers.conv2d
    assert arg_scope.arg_scope is tf.contrib.framework.arg_scope
    assert variables.get_or_create_global_step is tf.train.get_or_create_global_step
    # importing tf_slim's submodules leaves tf1compat's own modules untouched
    assert not hasattr(tf.contrib.framework.variables, "variables")
    with pytest.raises(ImportError, match="tf_slim.nope"):
        import tf_slim.nope  # noqa: F401


def test_tf115_slim_module_paths(installed):
    from tensorflow.contrib.slim.python.slim import evaluation, learning
    from tensorflow.contrib.slim.python.slim.data import parallel_reader
    from tensorflow.contrib.slim.python.slim.nets import inception_v3, resnet_utils
    import tensorflow.contrib.slim.nets as nets
    assert inception_v3.inception_v3 is nets.inception.inception_v3
    assert resnet_utils.conv2d_same is tf.contrib.slim.nets.resnet_utils.conv2d_same
    assert learning.train is tf.contrib.slim.learning.train
    assert evaluation.evaluate_once is tf.contrib.slim.evaluation.evaluate_once
    assert parallel_reader.parallel_read is tf.contrib.slim.parallel_reader.parallel_read


def _train_op():
    x = tf.constant(np.ones([4, 2], np.float32))
    loss = tf.reduce_mean(tf.contrib.slim.fully_connected(x, 1))
    return tf.contrib.slim.learning.create_train_op(loss,
                                                    tf.train.GradientDescentOptimizer(0.1))


def test_train_refuses_tracing_and_sync_optimizer(tmp_path):
    learning = tf.contrib.slim.learning
    with tf.Graph().as_default():
        train_op = _train_op()
        with pytest.raises(NotImplementedError, match="trace_every_n_steps"):
            learning.train(train_op, str(tmp_path), trace_every_n_steps=1, number_of_steps=1)
    with tf.Graph().as_default():
        optimizer = tf.train.SyncReplicasOptimizer(tf.train.GradientDescentOptimizer(0.1), 1)
        with pytest.raises(NotImplementedError, match="sync_optimizer"):
            learning.train(_train_op(), str(tmp_path), sync_optimizer=optimizer)
        with pytest.raises(ValueError, match="startup_delay_steps"):
            learning.train(_train_op(), str(tmp_path), sync_optimizer=optimizer,
                           startup_delay_steps=2)


def test_sparse_to_dense_of_strings():
    with tf.Graph().as_default():
        sparse = tf.SparseTensor([[0, 1], [1, 0]], tf.constant(["a", "b"]), [2, 2])
        dense = tf.sparse_tensor_to_dense(sparse, default_value="z")
        empty = tf.sparse_tensor_to_dense(
            tf.SparseTensor(tf.zeros([0, 1], tf.int64), tf.constant([], tf.string), [2]))
        with tf.Session() as sess:
            got, got_empty = sess.run([dense, empty])
    np.testing.assert_array_equal(got, np.array([[b"z", b"a"], [b"b", b"z"]], dtype=object))
    np.testing.assert_array_equal(got_empty, np.array([b"", b""], dtype=object))
