"""What layer libraries written on TF1 internals (tflearn, slim-era code) need beyond the
public API: their TF-internal import paths under the shim, attributes they hang on the
tensors they return, `tf_contextlib` and generic resources."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import tf1compat as tf
from tf1compat import shim
from tf1compat.ops import resources
from tf1compat.util import tf_contextlib, tf_decorator


@pytest.fixture
def installed():
    shim.install()
    yield
    shim.uninstall()


def test_tflearn_internal_imports_resolve(installed):
    from tensorflow.python import pywrap_tensorflow
    from tensorflow.python.ops import resources as tf_resources
    from tensorflow.python.ops import standard_ops, state_ops
    from tensorflow.python.ops.rnn import dynamic_rnn, rnn_cell_impl, static_bidirectional_rnn
    from tensorflow.python.training import moving_averages
    from tensorflow.python.training import optimizer as tf_optimizer
    from tensorflow.python.util import tf_contextlib as contextlib_path
    assert isinstance(tf.train.AdamOptimizer(0.1), tf_optimizer.Optimizer)
    assert moving_averages.ExponentialMovingAverage is tf.train.ExponentialMovingAverage
    assert callable(moving_averages.assign_moving_average)
    assert rnn_cell_impl.RNNCell is tf.nn.rnn_cell.RNNCell
    assert rnn_cell_impl.LSTMStateTuple is tf.nn.rnn_cell.LSTMStateTuple
    assert dynamic_rnn is tf.nn.dynamic_rnn
    assert static_bidirectional_rnn is tf.nn.static_bidirectional_rnn
    assert state_ops.assign_add is tf.assign_add
    assert standard_ops.one_hot is tf.one_hot and standard_ops.to_int64 is tf.to_int64
    assert standard_ops.assign is tf.assign
    assert tf_resources is resources
    assert contextlib_path is tf_contextlib
    assert pywrap_tensorflow.NewCheckpointReader is tf.train.NewCheckpointReader


def test_tf115_contrib_module_paths(installed):
    from tensorflow.contrib.layers.python.layers import layers, utils
    from tensorflow.contrib.layers.python.layers.initializers import (
        variance_scaling_initializer, xavier_initializer)
    from tensorflow.contrib.legacy_seq2seq.python.ops import seq2seq
    from tensorflow.contrib.rnn.python.ops import core_rnn_cell, rnn_cell
    from tensorflow.contrib.rnn.python.ops.core_rnn import static_rnn
    assert layers.conv2d is tf.contrib.layers.conv2d
    assert utils.collect_named_outputs is tf.contrib.layers.utils.collect_named_outputs
    assert xavier_initializer is tf.contrib.layers.xavier_initializer
    assert variance_scaling_initializer is tf.contrib.layers.variance_scaling_initializer
    assert core_rnn_cell.OutputProjectionWrapper is tf.contrib.rnn.OutputProjectionWrapper
    assert rnn_cell.LayerNormBasicLSTMCell is tf.contrib.rnn.LayerNormBasicLSTMCell
    assert static_rnn is tf.nn.static_rnn
    assert seq2seq.sequence_loss is tf.contrib.legacy_seq2seq.sequence_loss
    from tensorflow.contrib.factorization.python.ops import clustering_ops
    from tensorflow.python.ops import gen_clustering_ops
    assert clustering_ops.nearest_neighbors is gen_clustering_ops.nearest_neighbors
    assert seq2seq.embedding_rnn_seq2seq is tf.contrib.legacy_seq2seq.embedding_rnn_seq2seq
    # openai/glow: `from tensorflow.contrib.framework.python.ops import add_arg_scope, arg_scope`
    from tensorflow.contrib.framework.python.ops import add_arg_scope, arg_scope
    from tensorflow.contrib.framework.python.ops import variables as framework_variables
    assert add_arg_scope is tf.contrib.framework.add_arg_scope
    assert arg_scope is tf.contrib.framework.arg_scope
    assert framework_variables.model_variable is tf.contrib.framework.model_variable


def test_any_attribute_on_tensors_operations_and_variables():
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, 2], name="x")
        y = tf.layers.dense(x, 3)
        y.scope = "Dense/"  # tflearn: every layer output records its scope and weights
        y.W = tf.trainable_variables()[0]
        y.op.tag = "layer"
        v = tf.Variable(1.0)
        v.note = "kept"
        assert (y.scope, y.W.op.name, y.op.tag, v.note) == \
            ("Dense/", "dense/kernel", "layer", "kept")
        assert not hasattr(x, "scope")  # set on one tensor only
        assert not hasattr(y, "aliases")  # unset slots still report missing


def test_tf_contextlib_contextmanager_keeps_the_generator_visible():
    calls = []

    def scope(value, extra=1):
        """Pushes a value."""
        calls.append(value)
        yield value + extra
        calls.append(-value)

    manager = tf_contextlib.contextmanager(scope)
    with manager(2) as got:
        assert got == 3
    assert calls == [2, -2]
    assert manager.__name__ == "scope" and "Pushes a value." in manager.__doc__
    assert list(inspect.signature(manager).parameters) == ["value", "extra"]
    decorators, target = tf_decorator.unwrap(manager)
    assert target is scope and decorators[0].decorator_name == "contextmanager"


def test_resources_empty_collections():
    with tf.Graph().as_default():
        assert resources.shared_resources() == [] and resources.local_resources() == []
        init = resources.initialize_resources(resources.shared_resources())
        report = resources.report_uninitialized_resources()
        assert (init.type, init.name) == ("NoOp", "init")
        assert report.dtype == tf.string and report.shape.as_list() == [0]
        with tf.Session() as sess:
            assert sess.run(init) is None
            assert sess.run(report).shape == (0,)


def test_resources_registered_ones_are_created_and_reported():
    with tf.Graph().as_default():
        flag = tf.Variable(False, name="made")
        handle = tf.identity(tf.constant(0), name="table_handle")
        create = tf.assign(flag, True, name="create_table")
        resources.register_resource(handle, create.op, flag.read_value())
        other = tf.identity(tf.constant(1), name="local_handle")
        resources.register_resource(other, tf.no_op(), tf.constant(True), is_shared=False)
        assert [r.handle for r in resources.shared_resources()] == [handle]
        assert [r.handle for r in resources.local_resources()] == [other]
        report = resources.report_uninitialized_resources()
        init = resources.initialize_resources(resources.shared_resources(), name="make")
        assert init.name == "make"
        with tf.Session() as sess:
            sess.run(flag.initializer)
            np.testing.assert_array_equal(sess.run(report), [b"table_handle:0"])
            sess.run(init)
            assert sess.run(report).size == 0


def test_loss_averages_over_get_variable_regularization_losses():
    """tflearn 0.3.2's trainer averages `[total_loss, loss] + REGULARIZATION_LOSSES` with
    one ExponentialMovingAverage (num_updates = its step variable) whenever a layer has a
    regularizer. TF 1.15 put the loss tensor itself in the collection (its averages are
    keyed by `experimental_ref()`, which tensors have); TF 2.21 puts a `_LazyEvalTensor`
    there and its `apply` calls `.ref()`, which that object lacks (AttributeError:
    tflearn's validation-monitor tests and convnet examples fail under TF 2.21's
    compat.v1). Here the lazy loss is averaged, as the tensor was under TF 1.15."""
    with tf.Graph().as_default():
        w = tf.get_variable("W", initializer=tf.constant([1.0, -2.0]),
                            regularizer=lambda v: 0.5 * tf.reduce_sum(tf.square(v)))
        step = tf.Variable(0.0, trainable=False, name="Training_step")
        loss = tf.reduce_sum(w * 3.0)
        regs = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
        total = tf.add_n([loss] + regs, name="Total_Loss")
        ema = tf.train.ExponentialMovingAverage(0.9, step, name="moving_avg")
        update = ema.apply([total, loss] + regs)
        averages = [ema.average(t) for t in [total, loss] + regs]
        with tf.control_dependencies([update]):
            train = tf.group(tf.assign_sub(w, [0.5, 0.5]), tf.assign_add(step, 1.0))
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            seen = []
            for _ in range(3):
                sess.run(train)
                seen.append(sess.run(averages))
    # numpy: the averages start at 0 and decay by min(0.9, (1 + n) / (10 + n))
    wv, n, avg, expected = np.array([1.0, -2.0]), 0.0, np.zeros(3), []
    for _ in range(3):
        values = np.array([3 * wv.sum() + 0.5 * (wv ** 2).sum(), 3 * wv.sum(),
                           0.5 * (wv ** 2).sum()])
        decay = min(0.9, (1 + n) / (10 + n))
        avg = avg - (avg - values) * (1 - decay)
        expected.append(avg.copy())
        wv, n = wv - 0.5, n + 1
    np.testing.assert_allclose(np.array(seen), np.array(expected), rtol=1e-6)
    # names as TF 2.21 gives them once its collection holds the loss tensor (the
    # regularizer's first call, TF's None test, took `Sum`)
    assert [a.op.name for a in averages] == ["Total_Loss/moving_avg", "Sum_1/moving_avg",
                                             "W/Regularizer/mul/moving_avg"]
