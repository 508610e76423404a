"""Keras 2.2.4 names tf.keras dropped, answered by standalone `import keras` under
tf1compat (tf1compat/keras/standalone_names.py): the lowercase optimizer aliases
(keras-team/keras examples/cifar10_cnn.py builds `keras.optimizers.rmsprop(lr=0.0001,
decay=1e-6)`), `initializers.one`/`zero`, `K.identity`/`slice`/`is_tensor`/
`get_variable_shape`, conv_utils/generic_utils helpers, and TF 1.x's
`tensorflow.python.keras.utils.data_utils.get_file`. Expected values follow Keras
2.2.4's definitions (keras/utils/conv_utils.py at tag 2.2.4)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

from tf1compat.keras import standalone_names as names
from tests.child_env import child_env

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_standalone_paths_answer_the_names():
    code = textwrap.dedent("""
        import numpy as np
        import tf1compat; tf1compat.install()
        import tensorflow as tf
        import keras
        from keras import backend as K
        from keras import initializers, optimizers
        from keras.utils import conv_utils, generic_utils
        from keras.backend import tensorflow_backend
        assert optimizers.rmsprop is optimizers.RMSprop and optimizers.sgd is optimizers.SGD
        assert {optimizers.adam, optimizers.adagrad, optimizers.adadelta, optimizers.adamax,
                optimizers.nadam} == {optimizers.Adam, optimizers.Adagrad, optimizers.Adadelta,
                                      optimizers.Adamax, optimizers.Nadam}
        opt = keras.optimizers.rmsprop(lr=0.0001, decay=1e-6)
        print(type(opt).__name__, round(float(K.get_value(opt.lr)), 6))
        assert initializers.one is initializers.Ones and initializers.zero is initializers.Zeros
        x = K.placeholder((None, 4, 3))
        y = K.slice(x, [0, 1, 0], [-1, 2, 3])
        z = K.identity(x, name="same")
        v = K.variable(np.ones((2, 2)))
        print(K.int_shape(y), z.op.type, z.op.name, K.get_variable_shape(x),
              K.is_tensor(x), K.is_tensor(v), K.is_tensor(np.ones(2)),
              tensorflow_backend.identity is K.identity)
        with tf.Session() as sess:
            print(sess.run(y, {x: np.arange(24.).reshape(2, 4, 3)})[1].tolist())
        print(conv_utils.conv_input_length(5, 3, "valid", 2),
              generic_utils.unpack_singleton([7]))
        # TF 1.x's own module path of the download helper
        from tensorflow.python.keras.utils.data_utils import get_file, validate_file
        from keras.utils.data_utils import get_file as standalone_get_file
        assert get_file is tf.keras.utils.get_file is standalone_get_file
        """)
    env = child_env()
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          cwd=ROOT, env=env, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.strip().splitlines()
    assert lines[0] == "RMSprop 0.0001"
    assert lines[1] == "(None, 2, 3) Identity same (None, 4, 3) True True False True"
    assert lines[2] == "[[15.0, 16.0, 17.0], [18.0, 19.0, 20.0]]"
    assert lines[3] == "11 7"


@pytest.mark.parametrize("args,expected", [
    ((None, 3, "same", 1), None), ((5, 3, "valid", 2), 11), ((5, 3, "same", 1), 5),
    ((4, 3, "full", 1), 2), ((6, 4, "same", 2), 10)])
def test_conv_input_length(args, expected):
    assert names.conv_input_length(*args) == expected


@pytest.mark.parametrize("args,expected", [
    ((None, 2, 3, "same", None), None), ((4, 2, 3, "valid", None), 9),
    ((4, 2, 3, "same", None), 8), ((4, 2, 3, "full", None), 5),
    ((4, 2, 3, "same", 1), 8), ((4, 2, 3, "valid", 0), 9), ((4, 1, 3, "valid", None, 2), 8),
    ((5, 3, 2, "full", 1), 13)])
def test_deconv_length(args, expected):
    assert names.deconv_length(*args) == expected


def test_bad_padding_is_a_clear_error():
    with pytest.raises(ValueError, match="padding"):
        names.deconv_length(None, 2, 3, "causal", None)
    with pytest.raises(ValueError, match="padding"):
        names.conv_input_length(4, 3, "causal", 1)


def test_convert_kernel_flips_spatial_axes_only():
    kernel = np.arange(2 * 3 * 4 * 5).reshape(2, 3, 4, 5)
    flipped = names.convert_kernel(kernel)
    np.testing.assert_array_equal(flipped, kernel[::-1, ::-1, :, :])
    assert flipped.base is None or flipped.base is not kernel
    np.testing.assert_array_equal(names.convert_kernel(np.arange(6).reshape(3, 1, 2)),
                                  np.arange(6).reshape(3, 1, 2)[::-1])
    with pytest.raises(ValueError):
        names.convert_kernel(np.ones((3, 3)))


def test_generic_utils_helpers():
    assert names.unpack_singleton([3]) == 3 and names.unpack_singleton([1, 2]) == [1, 2]
    assert names.transpose_shape((None, 8, 9, 3), "channels_first", [1, 2]) == (None, 3, 8, 9)
    assert names.transpose_shape([None, 8, 3], "channels_first", [1]) == [None, 3, 8]
    assert names.transpose_shape((None, 8, 3), "channels_last", [1]) == (None, 8, 3)
    with pytest.raises(ValueError, match="data_format"):
        names.transpose_shape((1, 2), "nchw", [1])
    a, b = object(), object()
    assert names.object_list_uid([a, b]) == f"{abs(id(a))}, {abs(id(b))}"
    assert names.object_list_uid(a) == str(abs(id(a)))
    assert names.is_all_none([None, None]) and names.is_all_none(None)
    assert not names.is_all_none((None, 0))
