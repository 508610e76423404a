"""Standalone Keras 2.2.4's `keras.engine.saving` HDF5 group helpers
(tf1compat/keras/legacy/engine_saving.py), `keras.utils.generic_utils.func_dump`/`func_load`,
and two tf-keras behaviours: `layer.updates` of layers made eagerly, and the `Model.` names
of the training methods' argument errors.

Expected behaviour follows keras/engine/saving.py and keras/utils/generic_utils.py at tag
2.2.4 (layer lists, attribute layout, error texts) and tf-keras 2.21 (updates, TypeError
texts, recorded with TF_USE_LEGACY_KERAS=1)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import warnings

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.keras.legacy import engine_saving as saving
from tf1compat.keras.utils.generic_utils import func_dump, func_load

h5py = pytest.importorskip("h5py")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _model(seed: int) -> "tf.keras.Model":
    init = tf.keras.initializers.RandomNormal(seed=seed)
    return tf.keras.Sequential([
        tf.keras.layers.Conv1D(3, 2, input_shape=(5, 2), kernel_initializer=init,
                               bias_initializer=init, name="conv"),
        tf.keras.layers.Flatten(name="flat"),
        tf.keras.layers.BatchNormalization(name="bn"),
        tf.keras.layers.Dense(2, kernel_initializer=init, name="out")])


def _values(model):
    return [np.asarray(v) for v in tf.keras.backend.batch_get_value(model.weights)]


@pytest.fixture
def graph():
    with tf.Graph().as_default() as g:
        with tf.Session(graph=g) as sess:
            tf.keras.backend.set_session(sess)
            yield g


def test_group_round_trip_and_layout(graph, tmp_path):
    source, target = _model(1), _model(2)
    path = str(tmp_path / "w.h5")
    with h5py.File(path, "w") as f:
        saving.save_weights_to_hdf5_group(f, source.layers)
    with h5py.File(path, "r") as f:
        # Keras 2.2.4's layout: layers in the order given, no top-level group.
        assert saving.load_attributes_from_hdf5_group(f, "layer_names") == \
            ["conv", "flat", "bn", "out"]
        assert saving._file_versions(f) == ("2.2.4", "tensorflow")
        assert "top_level_model_weights" not in f
        assert saving.load_attributes_from_hdf5_group(f["bn"], "weight_names") == [
            "bn/gamma:0", "bn/beta:0", "bn/moving_mean:0", "bn/moving_variance:0"]
        assert saving.load_attributes_from_hdf5_group(f["flat"], "weight_names") == []
        saving.load_weights_from_hdf5_group(f, target.layers)
    for a, b in zip(_values(source), _values(target)):
        np.testing.assert_array_equal(a, b)
    # The same file loads through tf-keras's own `load_weights`.
    third = _model(3)
    third.load_weights(path)
    for a, b in zip(_values(source), _values(third)):
        np.testing.assert_array_equal(a, b)


def test_loads_files_written_by_save_weights(graph, tmp_path):
    source, target = _model(4), _model(5)
    path = str(tmp_path / "w.h5")
    source.save_weights(path)
    with h5py.File(path, "r") as f:
        saving.load_weights_from_hdf5_group_by_name(f, target.layers)
    for a, b in zip(_values(source), _values(target)):
        np.testing.assert_array_equal(a, b)


def test_count_and_shape_mismatches(graph, tmp_path):
    source = _model(6)
    path = str(tmp_path / "w.h5")
    with h5py.File(path, "w") as f:
        saving.save_weights_to_hdf5_group(f, source.layers)
    short = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,), name="out")])
    with h5py.File(path, "r") as f:
        with pytest.raises(ValueError, match="You are trying to load a weight file "
                                             "containing 3 layers into a model with 1 layers."):
            saving.load_weights_from_hdf5_group(f, short.layers)
        with pytest.raises(ValueError, match=r'Layer #3 \(named "out"\), weight .* has shape '
                                             r"\(3, 2\), but the saved weight has shape "
                                             r"\(12, 2\)\."):
            saving.load_weights_from_hdf5_group_by_name(f, short.layers)
        before = _values(short)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            saving.load_weights_from_hdf5_group_by_name(f, short.layers, skip_mismatch=True)
        assert any("Skipping loading of weights for layer out due to mismatch in shape"
                   in str(w.message) for w in caught)
        for a, b in zip(before, _values(short)):
            np.testing.assert_array_equal(a, b)


def test_preprocess_weights_for_loading(graph):
    conv = tf.keras.layers.Conv2D(4, (2, 3), input_shape=(5, 5, 2))
    conv.build((None, 5, 5, 2))
    kernel = np.arange(2 * 3 * 2 * 4, dtype=np.float32).reshape(2, 3, 2, 4)
    bias = np.zeros(4, np.float32)
    same = saving.preprocess_weights_for_loading(conv, [kernel, bias], "2.2.4", "tensorflow")
    np.testing.assert_array_equal(same[0], kernel)
    # Theano's convolution flips the kernel's spatial axes.
    flipped = saving.preprocess_weights_for_loading(conv, [kernel, bias], "2.1.0", "theano")
    np.testing.assert_array_equal(flipped[0], kernel[::-1, ::-1])
    reshaped = saving.preprocess_weights_for_loading(conv, [kernel.reshape(6, 8), bias],
                                                     "2.2.4", "tensorflow", reshape=True)
    np.testing.assert_array_equal(reshaped[0], kernel)
    with pytest.raises(ValueError, match="Weights must be of equal size to apply a reshape"):
        saving.preprocess_weights_for_loading(conv, [kernel[:1], bias], "2.2.4",
                                              "tensorflow", reshape=True)
    with pytest.raises(NotImplementedError, match="Keras 1"):
        saving.preprocess_weights_for_loading(conv, [kernel, bias], "1.2.2", "theano")


def test_func_dump_and_load_round_trip():
    scale = 3.0

    def scaled(x, offset=1.0):
        return x * scale + offset

    code, defaults, closure = func_dump(scaled)
    assert isinstance(code, str) and defaults == (1.0,) and closure == (3.0,)
    restored = func_load(code, defaults, closure)
    assert restored(2.0) == 7.0 and restored.__name__ == "scaled"
    # The whole tuple, as Lambda configs stored it, with JSON's list for the defaults.
    restored = func_load([code, [2.0], [4.0]], globs={})
    assert restored(1.0) == 6.0


def test_standalone_paths_answer_saving_and_func_names():
    code = textwrap.dedent("""
        import tf1compat; tf1compat.install()
        from keras.engine import saving
        from keras.engine.saving import (save_weights_to_hdf5_group,
            load_weights_from_hdf5_group, load_weights_from_hdf5_group_by_name,
            preprocess_weights_for_loading, load_model)
        from keras.utils.generic_utils import func_dump, func_load
        from keras import backend as K
        print(saving.save_weights_to_hdf5_group.__module__, callable(load_model),
              callable(K.separable_conv1d), callable(K.conv3d_transpose))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["tf1compat.keras.legacy.engine_saving", "True", "True",
                                  "True"]


def test_eager_layers_keep_no_updates_and_warn():
    code = textwrap.dedent("""
        import warnings
        import numpy as np
        import tf1compat as tf
        tf.enable_eager_execution()
        x = tf.keras.Input((3,))
        model = tf.keras.Model(x, tf.keras.layers.BatchNormalization()(x))
        model.compile("sgd", "mse")
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            print(len(model.updates), len(model.layers[1].updates))
        print(str(caught[0].message).startswith("`layer.updates` will be removed"))
        model.fit(np.ones((4, 3), "float32") * 5, np.zeros((4, 3), "float32"), verbose=0)
        print([round(float(v), 4) for v in model.layers[1].moving_mean.numpy()])
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    # The moving mean still moves (0.99 * 0 + 0.01 * 5): the updates ran eagerly.
    assert out.stdout.split("\n")[:3] == ["0 0", "True", "[0.05, 0.05, 0.05]"]


def test_graph_layers_keep_their_updates(graph):
    bn = tf.keras.layers.BatchNormalization()
    bn(tf.zeros([2, 3]), training=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")      # tf-keras's v1 layers do not warn
        assert len(bn.updates) == 2


def test_training_method_errors_name_model(graph):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, input_shape=(3,))])
    model.compile("sgd", "mse")
    with pytest.raises(TypeError, match=r"^Model\.fit_generator\(\) got an unexpected keyword "
                                        "argument 'foo'$"):
        model.fit_generator(foo=1)
    with pytest.raises(TypeError, match=r"^Model\.fit_generator\(\) missing 1 required "
                                        "positional argument: 'generator'$"):
        model.fit_generator()


def test_numpy_drawn_op_seeds_only_under_standalone_keras():
    # Keras 2.2.4 (golden case keras_numpy_drawn_op_seeds has its numbers): np.random.seed
    # alone repeats a standalone-keras model; tf.keras alone keeps TF's unseeded ops.
    code = textwrap.dedent("""
        import sys
        import numpy as np
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        if sys.argv[1] == "standalone":
            import keras
        else:
            keras = tf.keras

        def kernel():
            with tf.Graph().as_default(), tf.Session() as sess:
                np.random.seed(3)
                layer = keras.layers.Dense(3)
                layer(keras.layers.Input((4,)))
                sess.run(tf.global_variables_initializer())
                return sess.run(layer.kernel)
        print(bool(np.array_equal(kernel(), kernel())))
    """)
    for mode, repeats in (("standalone", "True"), ("tf.keras", "False")):
        out = subprocess.run([sys.executable, "-c", code, mode], capture_output=True,
                             text=True, cwd=ROOT, timeout=300)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == repeats, mode
