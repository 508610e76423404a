"""Keras under a tf.distribute strategy, beyond the goldens (cases_distribute_keras_*):
`target_tensors` refused at compile, `*_on_batch` outside the scope in graph mode, and
user sample weights per output on two replicas."""

import numpy as np
import pytest

import tf1compat as tf


@pytest.fixture
def two_cpus():
    cpu = tf.config.list_physical_devices("CPU")[0]
    before = tf.config.get_logical_device_configuration(cpu)
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    yield ["/cpu:0", "/cpu:1"]
    tf.config.set_logical_device_configuration(cpu, before)


def _data():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 3).astype(np.float32)
    return x, (x @ rng.randn(3, 2)).astype(np.float32), rng.randint(0, 2, 8)


def _model(strategy=None, clear=True, **kwargs):
    if clear:
        tf.keras.backend.clear_session()

    def build():
        inp = tf.keras.Input((3,))
        reg = tf.keras.layers.Dense(2, kernel_initializer="ones", name="reg")(inp)
        cls = tf.keras.layers.Dense(2, activation="softmax", kernel_initializer="zeros",
                                    name="cls")(inp)
        model = tf.keras.Model(inp, [reg, cls])
        model.compile(tf.keras.optimizers.SGD(0.1),
                      ["mse", "sparse_categorical_crossentropy"], **kwargs)
        return model
    if strategy is None:
        return build()
    with strategy.scope():
        return build()


def test_target_tensors_refused_under_strategy(two_cpus):
    strategy = tf.distribute.MirroredStrategy(two_cpus)
    tf.keras.backend.clear_session()
    targets = [tf.placeholder(tf.float32, [None, 2]), tf.placeholder(tf.int64, [None])]
    with pytest.raises(ValueError, match="target_tensors is not supported with "
                                         "tf.distribute.Strategy"):
        _model(strategy, clear=False, target_tensors=targets)


def test_on_batch_outside_the_scope_runs_in_graph_mode(two_cpus):
    x, y_reg, y_cls = _data()
    plain = _model().train_on_batch(x, [y_reg, y_cls])
    model = _model(tf.distribute.MirroredStrategy(two_cpus))
    np.testing.assert_allclose(model.train_on_batch(x, [y_reg, y_cls]), plain, rtol=1e-6)
    assert model.predict_on_batch(x)[0].shape == (8, 2)
    with model._distribution_strategy.scope():
        with pytest.raises(NotImplementedError, match="`train_on_batch` is not supported"):
            model.train_on_batch(x, [y_reg, y_cls])


def test_sample_weights_per_output_on_two_replicas(two_cpus):
    """Per-output weights are scaled by the per-replica weights, output by output: the
    same as one replica when the batch splits evenly."""
    x, y_reg, y_cls = _data()
    w = [np.linspace(0.5, 2.0, 8).astype(np.float32), np.full(8, 2.0, np.float32)]
    results = []
    for devices in (two_cpus[:1], two_cpus):
        model = _model(tf.distribute.MirroredStrategy(devices))
        h = model.fit(x, [y_reg, y_cls], sample_weight=w, batch_size=4, epochs=2,
                      shuffle=False, verbose=0)
        results.append((h.history["loss"], model.get_weights()))
    np.testing.assert_allclose(results[0][0], results[1][0], rtol=1e-5)
    for a, b in zip(results[0][1], results[1][1]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
