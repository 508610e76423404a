"""Golden cases: a Python list of numpy scalars converts with numpy's inference, as TF's
make_tensor_proto does (`[np.uint8(9)]` is uint8, `[np.int8(1), np.uint8(2)]` int16; float64
narrows to float32 and int64 to int32 where the values fit), so a shape list holding a
numpy uint8 (MNIST labels' `np.max(labels) + 1` under numpy 2) is refused by the random
ops' int32/int64 `shape` input as in TF, and `tf.range` of a uint8 asserts its hierarchy.
"""

import numpy as np

from tests.golden.harness import catch

_LISTS = {
    "uint8": [np.uint8(10)],
    "uint8_and_int": [np.uint8(10), 3],
    "int16_pair": [np.int16(2), np.int16(3)],
    "float16": [np.float16(1.5)],
    "float64_and_int": [np.float64(1.5), 2],
    "int64_small": [np.int64(3)],
    "int64_big": [np.int64(2**40)],
    "uint8_tuple": (np.uint8(1), np.uint8(2)),
    "float32_and_float": [np.float32(1.0), 2.0],
    "bool": [np.bool_(True)],
    "nested_uint8": [[np.uint8(1)], [np.uint8(2)]],
    "int32_and_big_int": [np.int32(1), 2**40],
    "uint16": [np.uint16(5)],
    "float32_and_float64": [np.float32(1.0), np.float64(2.0)],
    "int8_and_uint8": [np.int8(1), np.uint8(2)],
    "complex64": [np.complex64(1 + 2j)],
    "uint32": [np.uint32(7), np.uint32(8)],
}


def case_numpy_scalar_list_dtypes(tf):
    out = {}
    for key, value in _LISTS.items():
        with tf.Graph().as_default():
            out[key] = catch(lambda: [tf.constant(value).dtype.name,
                                      tf.convert_to_tensor(value).dtype.name])
    return out


def case_numpy_scalar_shapes(tf):
    size = np.max(np.array([3, 9], np.uint8)) + 1          # np.uint8 under numpy 2
    builds = {
        "truncated_normal": lambda: tf.truncated_normal([size]),
        "random_normal": lambda: tf.random_normal([size, 2]),
        "random_uniform": lambda: tf.random_uniform([size]),
        "zeros": lambda: tf.zeros([size]),
        "ones": lambda: tf.ones([2, size]),
        "fill": lambda: tf.fill([size], 1.0),
        "reshape": lambda: tf.reshape(tf.ones([10]), [size]),
        "range": lambda: tf.range(size),
        "range_int64": lambda: tf.range(np.int64(4)),
        "variable_zeros": lambda: tf.Variable(tf.zeros([size, 2])),
        "int16_shape": lambda: tf.truncated_normal([np.int16(3)]),
        "int64_shape": lambda: tf.truncated_normal([np.int64(3), 2]),
    }
    out = {}
    for key, build in builds.items():
        with tf.Graph().as_default():
            out[key] = catch(lambda: _describe(build()), message=True)
    return out


def _describe(t):
    return [t.dtype.name, t.shape.as_list()]
