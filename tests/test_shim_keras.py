"""Standalone `import keras` (Keras 2.2.4 paths) under `tf1compat.install()` / `tf1compat run`
resolves to tf1compat's Keras (tf1compat/shim_keras.py). The numerics are compared with
real Keras by the migration examples keras_standalone_* (tests/test_migration_examples.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def _run(code: str) -> subprocess.CompletedProcess:
    env = child_env()
    return subprocess.run([sys.executable, "-c", textwrap.dedent(code)], capture_output=True,
                          text=True, cwd=ROOT, env=env, timeout=300)


def _ok(code: str) -> str:
    proc = _run(code)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout


def test_standalone_paths_are_tf_keras_objects():
    out = _ok("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        import keras
        from keras.models import Sequential, Model, load_model
        from keras.layers import Dense, Conv2D, LSTM, Input, concatenate
        from keras.layers.merge import concatenate as merge_concatenate, Concatenate
        from keras.layers.core import Dense as CoreDense, Dropout, Flatten, Activation
        from keras.layers.convolutional import Conv2D as ConvConv2D, MaxPooling2D, UpSampling2D
        from keras.layers.recurrent import LSTM as RecLSTM, GRU, SimpleRNN
        from keras.layers.noise import GaussianNoise
        from keras.layers.advanced_activations import LeakyReLU, PReLU
        from keras.layers.normalization import BatchNormalization
        from keras.engine.topology import Layer, InputSpec, Network
        from keras.engine import Layer as EngineLayer, Input as EngineInput
        from keras.engine.training import Model as TrainingModel
        from keras.utils import np_utils, to_categorical
        from keras.utils.np_utils import to_categorical as np_to_categorical
        from keras.utils.data_utils import get_file, Sequence
        from keras.utils.generic_utils import get_custom_objects, CustomObjectScope
        from keras.utils.layer_utils import count_params, print_summary
        from keras.utils import print_summary as utils_print_summary
        from keras.callbacks import ModelCheckpoint, EarlyStopping, TensorBoard
        from keras.callbacks.callbacks import History
        from keras.optimizers import Adam, SGD
        from keras.preprocessing.image import ImageDataGenerator
        from keras.preprocessing.sequence import pad_sequences
        from keras.preprocessing.text import Tokenizer
        from keras.datasets import mnist, cifar10
        from keras.applications.resnet50 import ResNet50, preprocess_input
        from keras.applications.mobilenetv2 import MobileNetV2
        from keras.objectives import categorical_crossentropy
        from keras import backend as K
        K2 = keras.backend.tensorflow_backend
        pairs = [(Sequential, tf.keras.Sequential), (Model, tf.keras.Model),
                 (merge_concatenate, tf.keras.layers.concatenate),
                 (concatenate, tf.keras.layers.concatenate), (CoreDense, Dense),
                 (Dense, tf.keras.layers.Dense), (ConvConv2D, Conv2D), (RecLSTM, LSTM),
                 (LSTM, tf.keras.layers.LSTM), (Layer, tf.keras.layers.Layer),
                 (EngineLayer, Layer), (EngineInput, tf.keras.Input), (Network, Model),
                 (TrainingModel, Model), (to_categorical, np_to_categorical),
                 (np_utils.to_categorical, tf.keras.utils.to_categorical),
                 (Adam, tf.keras.optimizers.Adam), (load_model, tf.keras.models.load_model),
                 (K.get_session, tf.keras.backend.get_session),
                 (K2.set_session, tf.keras.backend.set_session),
                 (pad_sequences, tf.keras.preprocessing.sequence.pad_sequences),
                 (ImageDataGenerator, tf.keras.preprocessing.image.ImageDataGenerator),
                 (mnist.load_data, tf.keras.datasets.mnist.load_data),
                 (ResNet50, tf.keras.applications.ResNet50),
                 (categorical_crossentropy, tf.keras.losses.categorical_crossentropy),
                 (History, tf.keras.callbacks.History),
                 (utils_print_summary, print_summary)]
        # the classes that take Keras 1 arguments (keras/legacy/keras1_classes.py) are
        # subclasses standing for their tf.keras class
        print([i for i, (a, b) in enumerate(pairs)
               if a is not b and getattr(a, "_keras2_class", a) is not b])
        print(keras.__version__, K.backend(), K.image_data_format(), K.tf is tf)
        print(K.image_dim_ordering(), K.normalize_data_format(None),
              K.tensorflow_backend._get_available_gpus() == [
                  d.name for d in tf.config.experimental.list_physical_devices("GPU")] or
              isinstance(K.tensorflow_backend._get_available_gpus(), list))
        K.set_image_dim_ordering("th")
        print(K.image_data_format())
        """)
    lines = out.splitlines()
    assert lines[0] == "[]"
    assert lines[1] == "2.2.4 tensorflow channels_last True"
    assert lines[2] == "tf channels_last True"
    assert lines[3] == "channels_first"


def test_keras1_kernel_arguments_of_conv_layers_mean_what_keras_2_2_4_made_of_them():
    # Keras 2.2.4's legacy interface: Conv2D(32, 3, 3) is nb_filter, nb_row, nb_col (a 3x3
    # kernel, with a warning); tf.keras would read the third argument as strides.
    out = _ok("""
        import warnings
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        from keras.layers import Conv2D, Convolution3D
        from keras.layers.convolutional import Convolution2D
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            old = Convolution2D(32, 3, 3, activation="relu")
            old3 = Convolution3D(4, 2, 3, 4)
        assert old.kernel_size == (3, 3) and old.strides == (1, 1), (old.kernel_size, old.strides)
        assert old3.kernel_size == (2, 3, 4) and old3.strides == (1, 1, 1)
        assert ("Update your `Conv2D` call to the Keras 2 API: "
                '`Conv2D(32, (3, 3), activation="relu")`') == \
            str(caught[0].message), [str(w.message) for w in caught]
        try:     # Keras 2.2.4 took 2 positional arguments: strides only by keyword
            Conv2D(8, (3, 3), 2)
        except TypeError as e:
            print(e)
        assert Conv2D(8, 5).kernel_size == (5, 5)
        assert isinstance(old, tf.keras.layers.Conv2D) and type(old).__name__ == "Conv2D"
        assert tf.keras.layers.Conv2D(8, 3, 3).strides == (3, 3)    # tf.keras's own meaning
        try:
            Conv2D(8, 3, 3, 3)
        except TypeError as e:
            print(e)
        """)
    assert "Layer can receive at most 3 positional arguments." in out
    assert ("`Conv2D` can accept only 2 positional arguments ('filters', 'kernel_size'), "
            "but you passed the following positional arguments: [8, (3, 3), 2]") in out


def test_standalone_modules_are_their_own_objects():
    # importing keras.X must not add attributes to tf1compat's modules (tf.keras.legacy...)
    out = _ok("""
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        import keras.layers.merge, keras.engine.topology, keras.backend.tensorflow_backend
        import keras
        print(keras is not tf.keras, keras.layers is not tf.keras.layers,
              hasattr(tf.keras.engine, "topology"),
              hasattr(tf.keras.backend, "tensorflow_backend"),
              "merge" in dir(keras.layers), "Dense" in dir(keras.layers))
        ns = {}
        exec("from keras.layers import *", ns)
        print(ns["Dense"]._keras2_class is tf.keras.layers.Dense,
              ns["concatenate"] is tf.keras.layers.concatenate)
        """)
    assert out.split() == ["True", "True", "False", "False", "True", "True", "True", "True"]


def test_unknown_standalone_paths_and_names_are_clear_errors():
    out = _ok("""
        import tf1compat; tf1compat.install()
        for statement in ("import keras.legacy.nosuchmodule",
                          "import keras.backend.theano_backend",
                          "from keras.layers import NoSuchLayer"):
            try:
                exec(statement)
            except ImportError as e:
                print(type(e).__name__, "|", e)
        import keras
        try:
            keras.layers.core.NoSuchLayer
        except AttributeError as e:
            print("AttributeError |", e)
        """)
    lines = out.splitlines()
    assert lines[0].startswith("ModuleNotFoundError | tf1compat does not provide "
                               "'keras.legacy.nosuchmodule': standalone `import keras` "
                               "resolves")
    assert "'keras.backend.theano_backend'" in lines[1]
    assert lines[2].startswith("ImportError | cannot import name 'NoSuchLayer' from "
                               "'keras.layers'")
    assert lines[3].startswith("AttributeError | module 'keras.layers.core' has no "
                               "attribute 'NoSuchLayer'")


def test_install_can_leave_keras_alone_and_uninstall_removes_it():
    out = _ok("""
        import sys, types, warnings
        import tf1compat
        tf1compat.install(keras=False)
        try:
            import keras
        except ImportError:
            print("no keras")
        tf1compat.uninstall()
        tf1compat.install()
        import keras.layers
        print(keras.__version__)
        tf1compat.uninstall()
        print([name for name in sys.modules if name.split(".")[0] == "keras"])
        sys.modules["keras"] = types.ModuleType("keras")   # a real keras imported first
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            tf1compat.install()
        print(sys.modules["keras"].__dict__.get("__version__"),
              "already imported" in str(caught[0].message))
        """)
    assert out.splitlines() == ["no keras", "2.2.4", "[]", "None True"]


def test_tf1compat_run_maps_keras(tmp_path):
    script = tmp_path / "train.py"
    script.write_text(textwrap.dedent("""
        import numpy as np
        from keras.models import Sequential
        from keras.layers import Dense
        from keras.optimizers import SGD
        from keras import backend as K
        model = Sequential([Dense(1, input_shape=(2,), kernel_initializer="ones")])
        model.compile(SGD(lr=0.1), "mse")
        model.fit(np.ones((4, 2)), np.zeros((4, 1)), epochs=1, verbose=0)
        print(K.get_value(model.layers[0].kernel).ravel().tolist())
        """))
    env = child_env()
    proc = subprocess.run([sys.executable, "-m", "tf1compat", "run", str(script)],
                          capture_output=True, text=True, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    # one SGD step on mse: w - 0.1 * 2 * (2 - 0) * 1 = 1 - 0.4
    assert proc.stdout.split() == ["[0.6000000238418579,", "0.6000000238418579]"]


def test_backend_reexports_the_modules_keras_tensorflow_backend_imports():
    # Keras 2.2.4's `keras.backend` is `from .tensorflow_backend import *`, so the modules
    # that file imports at its top are backend attributes; keras-yolo3's loss runs
    # `K.control_flow_ops.while_loop(...)`.
    out = _ok("""
        import tf1compat; tf1compat.install()
        import numpy as np
        import tensorflow as tf
        from keras import backend as K
        from keras.backend import tensorflow_backend as KT
        from tensorflow.python.ops import control_flow_ops, tensor_array_ops
        print(K.control_flow_ops is control_flow_ops, KT.control_flow_ops is control_flow_ops,
              K.tensor_array_ops is tensor_array_ops, K.np is np,
              callable(K.moving_averages.assign_moving_average))
        n, total = K.control_flow_ops.while_loop(lambda i, s: i < 4,
                                                 lambda i, s: (i + 1, s + i), [0, 0])
        print(K.get_session().run(total))
        try:
            K.no_such_module
        except AttributeError as e:
            print("AttributeError")
        """)
    assert out.split("\n")[:3] == ["True True True True True", "6", "AttributeError"]
