"""tf.contrib.layers / slim / framework (no TF oracle: TF 2 has no contrib). Names,
collections and numerics as the TF 1.15 documentation describes them, checked against
numpy references."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf

layers = tf.contrib.layers
slim = tf.contrib.slim
framework = tf.contrib.framework


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _names(xs):
    return [x.name for x in xs]


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def test_fully_connected_names_collections_and_values():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3) - 2)
    y = layers.fully_connected(x, 4, weights_initializer=tf.constant_initializer(0.5),
                               biases_initializer=tf.constant_initializer(-1.0))
    y2 = layers.fully_connected(x, 2, activation_fn=None)
    assert y.name == "fully_connected/Relu:0"
    assert y2.name == "fully_connected_1/BiasAdd:0"
    expected = ["fully_connected/weights:0", "fully_connected/biases:0",
                "fully_connected_1/weights:0", "fully_connected_1/biases:0"]
    assert _names(tf.global_variables()) == expected
    assert _names(tf.model_variables()) == expected
    assert _names(tf.trainable_variables()) == expected
    xv = np.arange(6, dtype=np.float32).reshape(2, 3) - 2
    np.testing.assert_allclose(_run(y), np.maximum(xv @ np.full((3, 4), 0.5) - 1.0, 0))


def test_fully_connected_reuse_scope_and_collections():
    x = tf.placeholder(tf.float32, [None, 3])
    a = layers.fully_connected(x, 2, scope="fc", variables_collections=["mine"],
                               outputs_collections="outs")
    b = layers.fully_connected(x, 2, scope="fc", reuse=True)
    assert len(tf.global_variables()) == 2
    assert a.name == "fc/Relu:0" and b.name == "fc_1/Relu:0"
    assert _names(tf.get_collection("mine")) == ["fc/weights:0", "fc/biases:0"]
    assert tf.get_collection("outs") == [a]
    assert layers.utils.convert_collection_to_dict("outs") == {"fc": a}
    with pytest.raises(ValueError, match="already exists"):
        layers.fully_connected(x, 2, scope="fc")
    with pytest.raises(ValueError, match="num_outputs"):
        layers.fully_connected(x, 2.5)


def test_fully_connected_with_normalizer_has_no_biases():
    x = tf.placeholder(tf.float32, [None, 3])
    layers.fully_connected(x, 4, normalizer_fn=layers.batch_norm,
                           normalizer_params={"is_training": True})
    assert _names(tf.global_variables()) == [
        "fully_connected/weights:0", "fully_connected/BatchNorm/beta:0",
        "fully_connected/BatchNorm/moving_mean:0",
        "fully_connected/BatchNorm/moving_variance:0"]


def test_weights_regularizer_goes_to_regularization_losses():
    x = tf.placeholder(tf.float32, [None, 3])
    layers.fully_connected(x, 2, weights_initializer=tf.ones_initializer(),
                           weights_regularizer=layers.l2_regularizer(0.1),
                           biases_regularizer=layers.l1_regularizer(0.5))
    losses = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    assert _names(losses) == ["fully_connected/kernel/Regularizer/l2_regularizer:0",
                              "fully_connected/bias/Regularizer/l1_regularizer:0"]
    np.testing.assert_allclose(_run(losses), [0.1 * 6 / 2, 0.0])


def test_conv2d_defaults_and_values():
    xv = np.random.RandomState(0).randn(2, 5, 5, 3).astype(np.float32)
    x = tf.constant(xv)
    y = layers.conv2d(x, 4, [3, 3], weights_initializer=tf.constant_initializer(0.1))
    y2 = slim.conv2d(x, 2, 3, stride=2, padding="VALID", activation_fn=None)
    assert y.name == "Conv/Relu:0" and y2.name == "Conv_1/BiasAdd:0"
    assert y.shape.as_list() == [2, 5, 5, 4] and y2.shape.as_list() == [2, 2, 2, 2]
    assert _names(tf.model_variables()) == ["Conv/weights:0", "Conv/biases:0",
                                            "Conv_1/weights:0", "Conv_1/biases:0"]
    ref = tf.nn.relu(tf.nn.conv2d(x, tf.constant(np.full((3, 3, 3, 4), 0.1, np.float32)),
                                  [1, 1, 1, 1], "SAME"))
    got, want = _run([y, ref])
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


def test_conv2d_dilation_nchw_and_rank_errors():
    x = tf.placeholder(tf.float32, [None, 3, 8, 8])
    y = layers.conv2d(x, 4, 3, data_format="NCHW", rate=2)
    assert y.shape.as_list() == [None, 4, 8, 8]
    with pytest.raises(ValueError, match="Invalid data_format"):
        layers.conv2d(x, 4, 3, data_format="HWC")
    with pytest.raises(ValueError, match="rank"):
        layers.convolution(tf.placeholder(tf.float32, [2, 3]), 4, 3)


def test_conv2d_transpose_and_pools():
    x = tf.constant(np.random.RandomState(1).randn(1, 4, 4, 2).astype(np.float32))
    t = layers.conv2d_transpose(x, 3, 3, stride=2)
    assert t.name == "Conv2d_transpose/Relu:0" and t.shape.as_list() == [1, 8, 8, 3]
    assert _names(tf.global_variables()) == ["Conv2d_transpose/weights:0",
                                             "Conv2d_transpose/biases:0"]
    m = layers.max_pool2d(x, [2, 2])
    a = slim.avg_pool2d(x, 3, stride=1, padding="SAME", scope="pool")
    assert m.name == "MaxPool2D/MaxPool:0" and a.name == "pool/AvgPool:0"
    got, want_m, want_a = _run([[m, a], tf.nn.max_pool(x, [1, 2, 2, 1], [1, 2, 2, 1], "VALID"),
                                tf.nn.avg_pool(x, [1, 3, 3, 1], [1, 1, 1, 1], "SAME")])
    np.testing.assert_allclose(got[0], want_m)
    np.testing.assert_allclose(got[1], want_a, rtol=1e-6)
    with pytest.raises(ValueError, match="NCHW or NHWC"):
        layers.max_pool2d(x, 2, data_format="NCW")


def test_flatten_and_dropout():
    x = tf.placeholder(tf.float32, [None, 2, 3])
    f = layers.flatten(x)
    assert f.name == "Flatten/flatten/Reshape:0" and f.shape.as_list() == [None, 6]
    ones = tf.constant(np.ones((50, 40), np.float32))
    d_test = layers.dropout(ones, keep_prob=0.5, is_training=False)
    d_train = layers.dropout(ones, keep_prob=0.25)
    test_val, train_val = _run([d_test, d_train])
    np.testing.assert_array_equal(test_val, np.ones((50, 40)))
    assert set(np.unique(train_val)) == {0.0, 4.0}
    assert 0.15 < (train_val > 0).mean() < 0.35
    assert d_train.name.startswith("Dropout_1/dropout/")


def _moments(xv, axes, unbiased=False):
    mean = xv.mean(axis=axes)
    var = xv.var(axis=axes)
    if unbiased:
        n = np.prod([xv.shape[a] for a in axes])
        var = var * n / (n - 1)
    return mean, var


def test_batch_norm_layer_path_updates_through_update_ops():
    rng = np.random.RandomState(0)
    x = tf.placeholder(tf.float32, [None, 2, 2, 3])
    y = layers.batch_norm(x, decay=0.9)
    assert _names(tf.global_variables()) == ["BatchNorm/beta:0", "BatchNorm/moving_mean:0",
                                             "BatchNorm/moving_variance:0"]
    assert _names(tf.model_variables()) == _names(tf.global_variables())
    updates = tf.get_collection(tf.GraphKeys.UPDATE_OPS)
    assert len(updates) == 2
    mm, mv = np.zeros(3), np.ones(3)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            xv = (rng.randn(4, 2, 2, 3) * 2 + 1).astype(np.float32)
            sess.run([y] + updates, {x: xv})
            mean, var = _moments(xv, (0, 1, 2), unbiased=True)   # fused: unbiased variance
            mm = mm * 0.9 + mean * 0.1
            mv = mv * 0.9 + var * 0.1
        got = sess.run(tf.global_variables()[1:])
    np.testing.assert_allclose(got[0], mm, rtol=1e-5)
    np.testing.assert_allclose(got[1], mv, rtol=1e-5)


def test_batch_norm_2d_fused_path_scale_and_forced_updates():
    rng = np.random.RandomState(1)
    x = tf.placeholder(tf.float32, [None, 3])
    y = layers.batch_norm(x, decay=0.5, scale=True, updates_collections=None,
                          param_initializers={"gamma": tf.constant_initializer(2.0)})
    assert _names(tf.global_variables()) == ["BatchNorm/beta:0", "BatchNorm/gamma:0",
                                             "BatchNorm/moving_mean:0",
                                             "BatchNorm/moving_variance:0"]
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == []
    xv = rng.randn(6, 3).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        out = sess.run(y, {x: xv})
        mm, mv = sess.run(tf.global_variables()[2:])
    mean, var = _moments(xv, (0,))
    np.testing.assert_allclose(out, 2.0 * (xv - mean) / np.sqrt(var + 0.001), rtol=1e-4,
                               atol=1e-5)
    _, unbiased = _moments(xv, (0,), unbiased=True)
    np.testing.assert_allclose(mm, 0.5 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mv, 0.5 + 0.5 * unbiased, rtol=1e-5)


def test_batch_norm_legacy_path_and_training_tensor():
    rng = np.random.RandomState(2)
    x = tf.placeholder(tf.float32, [None, 4])
    training = tf.placeholder(tf.bool, [])
    y = layers.batch_norm(x, decay=0.8, fused=False, is_training=training,
                          updates_collections=["my_updates"])
    updates = tf.get_collection("my_updates")
    assert len(updates) == 2
    xv = rng.randn(5, 4).astype(np.float32)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        train_out = sess.run([y] + updates, {x: xv, training: True})[0]
        test_out = sess.run(y, {x: xv, training: False})
        mm, mv = sess.run(tf.global_variables()[1:])
    mean, var = _moments(xv, (0,))
    np.testing.assert_allclose(train_out, (xv - mean) / np.sqrt(var + 0.001), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(mm, 0.2 * mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(mv, 0.8 + 0.2 * var, rtol=1e-5)
    np.testing.assert_allclose(test_out, (xv - mm) / np.sqrt(mv + 0.001), rtol=1e-4,
                               atol=1e-5)


def test_batch_norm_inference_and_errors():
    x = tf.placeholder(tf.float32, [None, 2, 2, 3])
    layers.batch_norm(x, is_training=False)
    assert tf.get_collection(tf.GraphKeys.UPDATE_OPS) == []
    with pytest.raises(ValueError, match="NCHW or NHWC"):
        layers.batch_norm(x, data_format="NC", fused=False)


def test_layer_norm():
    xv = np.random.RandomState(3).randn(2, 5).astype(np.float32)
    y = layers.layer_norm(tf.constant(xv))
    assert _names(tf.global_variables()) == ["LayerNorm/beta:0", "LayerNorm/gamma:0"]
    mean = xv.mean(1, keepdims=True)
    var = xv.var(1, keepdims=True)
    np.testing.assert_allclose(_run(y), (xv - mean) / np.sqrt(var + 1e-12), rtol=1e-4,
                               atol=1e-5)


def test_one_hot_repeat_and_stack():
    oh = layers.one_hot_encoding(tf.constant([0, 2]), 3)
    np.testing.assert_array_equal(_run(oh), [[1, 0, 0], [0, 0, 1]])
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    net = slim.repeat(x, 2, slim.conv2d, 4, [3, 3], scope="conv1")
    slim.stack(net, slim.fully_connected, [8, 4], scope="fc")
    slim.repeat(x, 1, slim.conv2d, 2, 1)
    names = _names(tf.global_variables())
    assert names[:4] == ["conv1/conv1_1/weights:0", "conv1/conv1_1/biases:0",
                         "conv1/conv1_2/weights:0", "conv1/conv1_2/biases:0"]
    assert names[4:8] == ["fc/fc_1/weights:0", "fc/fc_1/biases:0", "fc/fc_2/weights:0",
                          "fc/fc_2/biases:0"]
    assert names[8] == "Repeat/convolution2d_1/weights:0"


def test_arg_scope_semantics():
    x = tf.placeholder(tf.float32, [None, 8, 8, 3])
    with slim.arg_scope([slim.conv2d, slim.fully_connected], activation_fn=None,
                        weights_regularizer=slim.l2_regularizer(0.1)) as outer:
        with slim.arg_scope([slim.conv2d], padding="VALID"):
            a = slim.conv2d(x, 2, 3)
            b = slim.conv2d(x, 2, 3, padding="SAME", activation_fn=tf.nn.relu)
        c = slim.conv2d(x, 2, 3)
    d = slim.conv2d(x, 2, 3)
    assert a.shape.as_list() == [None, 6, 6, 2] and a.op.type == "BiasAdd"
    assert b.shape.as_list() == [None, 8, 8, 2] and b.op.type == "Relu"
    assert c.shape.as_list() == [None, 8, 8, 2] and c.op.type == "BiasAdd"
    assert d.op.type == "Relu"
    assert len(tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)) == 3
    with slim.arg_scope(outer):
        assert slim.conv2d(x, 1, 1).op.type == "BiasAdd"
    key = framework.arg_scope_func_key(slim.conv2d)
    assert key in outer and outer[key]["activation_fn"] is None
    assert framework.has_arg_scope(slim.fully_connected)
    assert "activation_fn" in framework.arg_scoped_arguments(slim.fully_connected)
    assert framework.current_arg_scope() == {}
    with pytest.raises(ValueError, match="not decorated with @add_arg_scope"):
        with slim.arg_scope([tf.nn.relu], x=1):
            pass
    with pytest.raises(TypeError, match="list/tuple"):
        with slim.arg_scope(slim.conv2d, padding="SAME"):
            pass
    with pytest.raises(ValueError, match="kwargs must be empty"):
        with slim.arg_scope(outer, padding="SAME"):
            pass


def test_add_arg_scope_on_user_function():
    @framework.add_arg_scope
    def f(a, b=1, c=2):
        return a, b, c

    with framework.arg_scope([f], b=10):
        assert f(0) == (0, 10, 2)
        assert f(0, b=3) == (0, 3, 2)
        with framework.arg_scope([f], c=20):
            assert f(0) == (0, 10, 20)
    assert f(0) == (0, 1, 2)
    assert f.__name__ == "f"


def test_regularizers():
    w = tf.constant(np.array([[1.0, -2.0], [3.0, -4.0]], np.float32))
    l1 = layers.l1_regularizer(0.5)(w)
    l2 = layers.l2_regularizer(0.5)(w)
    both = layers.l1_l2_regularizer(0.5, 0.5)(w)
    assert l1.name == "l1_regularizer:0" and l2.name == "l2_regularizer:0"
    assert both.name == "l1_l2_regularizer:0"
    np.testing.assert_allclose(_run([l1, l2, both]), [5.0, 7.5, 12.5])
    assert layers.l2_regularizer(0.0)(w) is None
    assert layers.sum_regularizer([None]) is None
    with pytest.raises(ValueError, match="integer"):
        layers.l2_regularizer(1)
    with pytest.raises(ValueError, match="less than 0"):
        layers.l1_regularizer(-0.1)
    total = layers.apply_regularization(layers.l2_regularizer(1.0), [w, w])
    assert total.name == "get_regularization_penalty:0"
    assert tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES) == [total]
    np.testing.assert_allclose(_run(total), 30.0)


def test_initializer_aliases():
    from tf1compat.variables import init_ops
    assert layers.xavier_initializer is init_ops.xavier_initializer
    assert slim.variance_scaling_initializer is init_ops.contrib_variance_scaling_initializer
    v = tf.get_variable("v", [200, 100], initializer=layers.xavier_initializer(seed=1))
    vals = _run(v)
    limit = np.sqrt(6.0 / 300)
    assert np.abs(vals).max() <= limit and np.abs(vals).max() > 0.9 * limit


def test_framework_variable_helpers():
    with tf.variable_scope("a"):
        w = framework.model_variable("w", [2], initializer=tf.zeros_initializer())
        v = framework.variable("v", [1], collections=[tf.GraphKeys.GLOBAL_VARIABLES, "extra"])
        only_extra = framework.variable("e", [1], collections=["extra"])
    with tf.variable_scope("b"):
        u = framework.model_variable("w", [1], trainable=False)
    lv = framework.local_variable(3.0, name="local")
    assert framework.get_model_variables() == [w, u]
    assert framework.get_variables("a") == [w, v]
    assert framework.get_variables_by_name("w") == [w, u]
    assert framework.get_variables_by_suffix("v") == [v]
    assert framework.get_unique_variable("a/v") is v
    assert framework.get_trainable_variables() == [w, v, only_extra]
    assert framework.get_local_variables() == [lv]
    assert framework.get_variables_to_restore() == [w, v, u]
    assert framework.get_variables_to_restore(include=["a"], exclude=["a/v"]) == [w]
    assert tf.get_collection("extra") == [v, only_extra]
    with pytest.raises(TypeError):
        framework.get_variables_to_restore(include="a")
    assert slim.get_variables_by_name is framework.get_variables_by_name


def test_unknown_contrib_symbols_name_themselves():
    with pytest.raises(AttributeError, match=r"tf\.contrib\.foo is not provided by "
                                             "tf1compat"):
        tf.contrib.foo
    # Names with an entry in the table of unsupported names say why and what to use.
    with pytest.raises(NotImplementedError, match=r"tf\.contrib\.learn\.DynamicRnnEstimator "
                                                  r"is part of .* Instead: tf\.estimator"):
        tf.contrib.learn.DynamicRnnEstimator
    with pytest.raises(AttributeError,
                       match=r"tf\.contrib\.layers\.scattered_embedding_column"):
        tf.contrib.layers.scattered_embedding_column
    with pytest.raises(AttributeError, match=r"tf\.contrib\.slim\.nets_zoo"):
        slim.nets_zoo
    with pytest.raises(AttributeError, match=r"tf\.contrib\.framework\.zero_initializer"):
        framework.zero_initializer


def test_slim_learning_create_train_op_runs_updates_and_steps():
    # Names as tf_slim's create_train_op gives them under real TF (check_numerics=False).
    slim = tf.contrib.slim
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        x = tf.constant(np.random.RandomState(0).rand(4, 3).astype(np.float32))
        is_training = tf.placeholder_with_default(True, [])
        net = slim.fully_connected(x, 2, normalizer_fn=slim.batch_norm,
                                   normalizer_params={"is_training": is_training},
                                   scope="fc")
        loss = tf.losses.mean_squared_error(tf.zeros([4, 2]), net)
        train_op = slim.learning.create_train_op(
            tf.losses.get_total_loss(), tf.train.GradientDescentOptimizer(0.1),
            clip_gradient_norm=1.0, gradient_multipliers={"fc/weights": 2.0},
            check_numerics=False)
        assert train_op.name == "train_op/control_dependency:0"
        # TF's apply_gradients registers its own op too, before slim's train op.
        assert [t.name for t in tf.get_collection(tf.GraphKeys.TRAIN_OP)] == [
            "GradientDescent", "train_op/control_dependency:0"]
        names = [op.name for op in tf.get_default_graph().get_operations()]
        assert "update_barrier" in names
        assert any(n.startswith("clip_grads/") for n in names)
        assert any(n.startswith("multiply_grads/") for n in names)
        moving_mean = slim.get_variables_by_name("moving_mean")[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(train_op)
            second = sess.run(train_op)
            assert second < first
            assert sess.run(tf.train.get_global_step()) == 2
            assert np.abs(sess.run(moving_mean)).sum() > 0     # the update ops ran
        assert loss is not None


def test_slim_learning_train_and_check_numerics_are_explicit():
    slim = tf.contrib.slim
    with pytest.raises(ValueError, match="train_op cannot be None"):
        slim.learning.train(None, "/tmp/x")
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        loss = v * v
        op = slim.learning.create_train_op(loss, tf.train.GradientDescentOptimizer(0.1))
        assert op.name == "train_op/control_dependency:0"
        assert "train_op/CheckNumerics" in [o.name for o in tf.get_default_graph()
                                            .get_operations()]


def test_slim_queues_runs_the_graphs_queue_runners_and_stops_them():
    """slim.queues.QueueRunners starts the QUEUE_RUNNERS for the block (batches flow) and
    leaves no runner thread alive afterwards, even with producers blocked on full queues."""
    import threading
    slim = tf.contrib.slim
    with tf.Graph().as_default():
        producer = tf.train.range_input_producer(10, shuffle=False, capacity=4)
        batch = tf.train.batch([producer.dequeue()], batch_size=5, capacity=5)
        # The threads alive before, not their count: another test's background thread
        # (a hot plan's compile) may end meanwhile.
        before = set(threading.enumerate())
        with tf.Session() as sess:
            with slim.queues.QueueRunners(sess):
                first, second = sess.run(batch), sess.run(batch)
            assert set(threading.enumerate()) <= before
        np.testing.assert_array_equal(first, [0, 1, 2, 3, 4])
        np.testing.assert_array_equal(second, [5, 6, 7, 8, 9])


def test_slim_queues_reraises_a_runner_error():
    slim = tf.contrib.slim
    with tf.Graph().as_default():
        queue = tf.FIFOQueue(2, tf.float32, shapes=[[]])
        bad = tf.check_numerics(tf.constant(float("nan")), "bad input")
        tf.train.add_queue_runner(tf.train.QueueRunner(queue, [queue.enqueue(bad)]))
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError, match="bad input"):
                with slim.queues.QueueRunners(sess):
                    with pytest.raises(tf.errors.OutOfRangeError):
                        sess.run(queue.dequeue())


def test_pool3d_channels_first_matches_channels_last():
    # Real TF's CPU kernels reject NCDHW pooling, so the golden cases cannot record it:
    # channels-first must equal the channels-last result transposed.
    x = np.random.RandomState(0).randn(2, 5, 6, 7, 3).astype(np.float32)
    first = x.transpose(0, 4, 1, 2, 3)
    pairs = []
    for pool in (slim.max_pool3d, slim.avg_pool3d):
        last_out = pool(tf.constant(x), [2, 3, 2], stride=1, padding="SAME")
        first_out = pool(tf.constant(first), [2, 3, 2], stride=1, padding="SAME",
                         data_format="NCDHW")
        assert first_out.shape.as_list() == [2, 3, 5, 6, 7]
        pairs.append((last_out, first_out))
    for last_value, first_value in _run(pairs):
        np.testing.assert_allclose(first_value.transpose(0, 2, 3, 4, 1), last_value,
                                   rtol=1e-6)


def test_contrib_layers_relu_relu6_linear_are_fully_connected_shorthands():
    """TF 1.x's `tf.contrib.layers.relu/relu6/linear`: fully_connected with the activation
    bound; the variables are fully_connected's."""
    with tf.Graph().as_default():
        x = tf.constant(np.ones((2, 3), np.float32))
        outs = [tf.contrib.layers.relu(x, 4), tf.contrib.layers.relu6(x, 4),
                tf.contrib.layers.linear(x, 4)]
        assert [o.op.type for o in outs] == ["Relu", "Relu6", "BiasAdd"]
        assert [v.name for v in tf.global_variables()][:2] == [
            "fully_connected/weights:0", "fully_connected/biases:0"]


def test_framework_variable_filters_device_chooser_and_global_step():
    # TF 1.15's contrib/framework/python/ops/variables.py: include patterns first, then
    # exclude; re.search by default, re.match with reg_search=False; round-robin ps tasks.
    fw = tf.contrib.framework
    with tf.Graph().as_default() as g:
        names = ["Conv/weights", "Conv/biases", "Logits/weights", "fc/Conv_weights"]
        vs = [tf.get_variable(n, [1]) for n in names]
        pick = fw.filter_variables(vs, include_patterns=["Conv"],
                                   exclude_patterns=["biases", "Logits"])
        assert [v.op.name for v in pick] == ["Conv/weights", "fc/Conv_weights"]
        started = fw.filter_variables(vs, include_patterns=["Conv"], reg_search=False)
        assert [v.op.name for v in started] == ["Conv/weights", "Conv/biases"]
        assert fw.filter_variables(vs) == vs
        chooser = fw.VariableDeviceChooser(2)
        assert [chooser(None) for _ in range(3)] == [
            "/job:ps/task:0/device:CPU:0", "/job:ps/task:1/device:CPU:0",
            "/job:ps/task:0/device:CPU:0"]
        assert fw.VariableDeviceChooser(device_type="GPU")(None) == "/device:GPU:0"
        assert fw.assert_or_get_global_step() is None
        step = tf.train.get_or_create_global_step()
        assert fw.assert_or_get_global_step(g) is step
        assert fw.assert_or_get_global_step(global_step_tensor=step) is step
        with pytest.raises(TypeError):
            fw.assert_or_get_global_step(global_step_tensor=tf.constant(1.5))
