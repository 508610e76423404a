"""Keras and tf.layers behaviour golden tests cannot express: object tracking for
checkpoints (edges, restore-on-create), Keras session initialization, unsupported
features raising NotImplementedError, drop-in imports through the shim."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.training.saving import tracking


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _edges(obj):
    return [(name, child) for name, child in obj._checkpoint_dependencies]


def test_layer_tracks_weights_under_their_add_weight_names():
    d = tf.keras.layers.Dense(2)
    d(tf.placeholder(tf.float32, [None, 3]))
    assert [n for n, _ in _edges(d)] == ["kernel", "bias"]
    assert dict(_edges(d))["kernel"] is d.kernel
    assert isinstance(d, tracking.AutoTrackable)
    paths = {p: o for p, o in tracking.walk(d)}
    assert paths[("kernel",)] is d.kernel


def test_legacy_layer_tracks_weights_too():
    layer = tf.layers.Dense(2, name="d")
    layer(tf.placeholder(tf.float32, [None, 3]))
    assert [n for n, _ in _edges(layer)] == ["kernel", "bias"]
    bn = tf.layers.BatchNormalization()
    bn(tf.placeholder(tf.float32, [None, 4]), training=True)
    assert [n for n, _ in _edges(bn)] == ["gamma", "beta", "moving_mean", "moving_variance"]


def test_model_edges_follow_tf_checkpoint_names():
    inp = tf.keras.Input(shape=(3,))
    h = tf.keras.layers.Dense(4)(inp)
    h = tf.keras.layers.Dropout(0.5)(h)
    out = tf.keras.layers.Dense(2)(h)
    model = tf.keras.Model(inp, out)
    names = [n for n, _ in _edges(model)]
    assert names == ["layer-0", "layer_with_weights-0", "layer-1", "layer-2",
                     "layer_with_weights-1", "layer-3"]
    seq = tf.keras.Sequential([tf.keras.layers.Dense(5, input_shape=(3,)),
                               tf.keras.layers.Dense(1)])
    assert [n for n, _ in _edges(seq)] == ["layer_with_weights-0", "layer-0",
                                           "layer_with_weights-1", "layer-1"]
    paths = [p for p, _ in tracking.walk(model)]
    assert ("layer_with_weights-1", "kernel") in paths


def test_deferred_sequential_tracks_layers_once_built():
    seq = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
    assert [n for n, _ in _edges(seq)] == ["layer-0", "layer-1"]
    seq(tf.placeholder(tf.float32, [None, 2]))
    assert [n for n, _ in _edges(seq)][:2] == ["layer-0", "layer-1"]
    assert "layer_with_weights-1" in [n for n, _ in _edges(seq)]


def test_subclassed_model_tracks_attributes():
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.first = tf.keras.layers.Dense(3)
            self.blocks = [tf.keras.layers.Dense(2), tf.keras.layers.Dense(1)]
            self._private = tf.keras.layers.Dense(1)

        def call(self, x):
            for b in self.blocks:
                x = b(x)
            return self._private(self.first(x))

    net = Net()
    net(tf.placeholder(tf.float32, [None, 4]))
    names = [n for n, _ in _edges(net)]
    assert names == ["first", "blocks", "_private"]
    assert [n for n, _ in _edges(net.blocks)] == ["0", "1"]
    assert len(net.weights) == 8
    assert [l.name for l in net.layers] == ["dense", "dense_1", "dense_2", "dense_3"]


def test_restore_on_create_through_deferred_restorations():
    applied = []

    class Restoration:
        def restore(self, obj):
            applied.append(obj.name)

    d = tf.keras.layers.Dense(2)
    d._defer_restoration("kernel", Restoration())
    d._defer_restoration("bias", Restoration())
    d(tf.placeholder(tf.float32, [None, 3]))
    assert applied == ["dense/kernel:0", "dense/bias:0"]
    assert d._deferred_dependency_names() == []


def test_get_session_initializes_keras_variables_only_once():
    v = tf.keras.backend.variable(np.ones((2,), np.float32), name="kv")
    sess = tf.keras.backend.get_session()
    np.testing.assert_array_equal(sess.run(v), [1.0, 1.0])
    sess.run(v.assign([5.0, 6.0]))
    assert tf.keras.backend.get_session() is sess
    np.testing.assert_array_equal(sess.run(v), [5.0, 6.0])   # not re-initialized
    model = tf.keras.Sequential([tf.keras.layers.Dense(1, input_shape=(2,),
                                                       kernel_initializer="ones")])
    out = tf.keras.backend.get_session().run(model.outputs[0],
                                             {model.inputs[0]: np.ones((1, 2))})
    np.testing.assert_allclose(out, [[2.0]])


def test_get_weights_set_weights():
    d = tf.keras.layers.Dense(2, kernel_initializer="zeros")
    d(tf.placeholder(tf.float32, [None, 3]))
    d.set_weights([np.ones((3, 2)), np.array([1.0, 2.0])])
    k, b = d.get_weights()
    np.testing.assert_array_equal(k, np.ones((3, 2)))
    np.testing.assert_array_equal(b, [1.0, 2.0])
    with pytest.raises(ValueError, match="expecting 2 weights"):
        d.set_weights([k])


def _two_inputs():
    a, b = tf.keras.Input((2,)), tf.keras.Input((2,))
    return [a, b], tf.keras.layers.Add()([a, b])


def test_time_distributed_rejects_nested_inputs():
    with tf.Graph().as_default():
        td = tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(2))
        with pytest.raises(NotImplementedError, match="TimeDistributed over nested"):
            td.call([tf.zeros([1, 2, 3]), tf.zeros([1, 2, 3])])


def test_renorm_and_grouped_conv_raise_not_implemented():
    with pytest.raises(NotImplementedError, match="renorm"):
        tf.layers.BatchNormalization(renorm=True)
    with pytest.raises(NotImplementedError, match="groups"):
        tf.keras.layers.Conv2D(4, 3, groups=2)


def test_model_from_raw_placeholder_is_rejected():
    x = tf.placeholder(tf.float32, [None, 3])
    y = tf.keras.layers.Dense(2)(x)
    with pytest.raises(ValueError, match="must come from `tf.keras.Input`"):
        tf.keras.Model(x, y)


def test_keras_function_and_learning_phase_feed():
    K = tf.keras.backend
    x = tf.keras.Input(shape=(4,))
    y = tf.keras.layers.Dropout(0.5, seed=1)(x)
    f = K.function([x, K.learning_phase()], [y])
    ones = np.ones((2, 4), np.float32)
    np.testing.assert_array_equal(f([ones, False])[0], ones)
    dropped = f([ones, True])[0]
    assert set(np.unique(dropped)) <= {0.0, 2.0}


def test_layer_call_builds_once_and_reuses_variables_across_calls():
    layer = tf.layers.Dense(3, name="shared")
    a = layer(tf.placeholder(tf.float32, [None, 2]))
    b = layer(tf.placeholder(tf.float32, [None, 2]))
    assert len(tf.global_variables()) == 2
    assert a.name == "shared/BiasAdd:0" and b.name == "shared/BiasAdd_1:0"


def test_scope_argument_of_legacy_layer_call():
    layer = tf.layers.Dense(2)
    layer(tf.placeholder(tf.float32, [None, 3]), scope="given")
    assert [v.name for v in layer.weights] == ["given/kernel:0", "given/bias:0"]


def test_shim_imports():
    code = (
        "import tf1compat; tf1compat.install()\n"
        "import tensorflow as tf\n"
        "from tensorflow.keras.layers import Dense, Conv2D\n"
        "from tensorflow.keras import backend as K\n"
        "import tensorflow.contrib.slim as slim\n"
        "from tensorflow.contrib.layers import fully_connected, l2_regularizer\n"
        "from tensorflow.contrib.framework import arg_scope\n"
        "assert Dense is tf.keras.layers.Dense and K.floatx() == 'float32'\n"
        "assert slim.conv2d is tf.contrib.layers.conv2d\n"
        "from tensorflow.keras.metrics import categorical_accuracy\n"
        "import tensorflow.contrib.rnn\n"
        "print('ok')\n")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "ok"


def test_bench_layers_cnn_smoke():
    """The tf.layers benchmark runs, and both models reach the same loss."""
    import importlib.util
    import os
    import torch
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts",
                        "bench_layers.py")
    spec = importlib.util.spec_from_file_location("bench_layers", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        result = bench.bench_layers_cnn(steps=1, batch=2)
    finally:
        torch.set_num_threads(threads)
    assert result["ratio"] > 0 and result["losses_match"]
