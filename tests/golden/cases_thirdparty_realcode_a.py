"""Golden cases: patterns from third-party TF1 tutorials (the Deep-Learning-Zero-to-All
labs, golbin's TensorFlow tutorials) that failed or differed on tf1compat, restated small.

Internal module paths (`tensorflow.python.framework.tensor_util`, `tensorflow.python.layers
.utils`, ...) are imported as the scripts do: through the shim's table under tf1compat,
directly under TF.
"""

import importlib

import numpy as np


def _internal(tf, path):
    if tf.__name__.startswith("tf1compat"):
        from tf1compat.shim import INTERNAL_PATHS
        return importlib.import_module(INTERNAL_PATHS[path])
    return importlib.import_module(path)


def case_selu_dropout_internal_modules(tf):
    """The self-normalizing networks' alpha-dropout, written against TF's internal modules:
    a static keep_prob check, a seeded uniform mask, `layers.utils.smart_cond` on a bool
    placeholder."""
    tensor_util = _internal(tf, "tensorflow.python.framework.tensor_util")
    utils = _internal(tf, "tensorflow.python.layers.utils")
    random_ops = _internal(tf, "tensorflow.python.ops.random_ops")
    math_ops = _internal(tf, "tensorflow.python.ops.math_ops")
    tf.set_random_seed(7)
    x = tf.placeholder(tf.float32, [None, 6])
    training = tf.placeholder(tf.bool)
    keep_prob, alpha = 0.8, -1.7580993408473766

    def drop():
        keep = tf.convert_to_tensor(keep_prob, dtype=x.dtype)
        mask = math_ops.floor(keep + random_ops.random_uniform(tf.shape(x), seed=3,
                                                               dtype=x.dtype))
        kept = x * mask + alpha * (1 - mask)
        a = tf.sqrt(1.0 / (keep * ((1 - keep) * tf.pow(alpha, 2) + 1.0)))
        out = a * kept - a * (1 - keep) * alpha
        out.set_shape(x.get_shape())
        return out

    y = utils.smart_cond(training, drop, lambda: tf.identity(x))
    static = [tensor_util.constant_value(keep_prob),
              tensor_util.constant_value(tf.constant([1.0, 2.0])),
              tensor_util.constant_value(x), utils.constant_value(True),
              utils.constant_value(0), utils.constant_value(training)]
    lengths = [utils.conv_output_length(28, 5, "same", 2),
               utils.conv_output_length(28, 5, "valid", 1, dilation=2),
               utils.conv_input_length(12, 5, "valid", 2),
               utils.deconv_output_length(7, 4, "valid", 2),
               utils.deconv_output_length(7, 3, "full", 2),
               utils.normalize_tuple(3, 2, "strides"),
               utils.convert_data_format("channels_first", 4)]
    data = np.linspace(-2, 2, 24, dtype=np.float32).reshape(4, 6)
    with tf.Session() as sess:
        on = sess.run(y, {x: data, training: True})
        off = sess.run(y, {x: data, training: False})
    return {"static": [None if v is None else np.asarray(v).tolist() for v in static],
            "lengths": [list(v) if isinstance(v, tuple) else v for v in lengths],
            "on": on, "off": off, "name": y.name, "shape": y.shape.as_list()}


def case_layers_core_dense_import(tf):
    """`from tensorflow.python.layers import core as layers_core; layers_core.Dense(...)`,
    as seq2seq tutorials build their output projection."""
    layers_core = _internal(tf, "tensorflow.python.layers.core")
    tf.set_random_seed(1)
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    proj = layers_core.Dense(4, use_bias=False, name="output_projection")
    y = proj(x)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        value = sess.run(y)
    return {"y": value, "name": y.name,
            "vars": [v.name for v in tf.trainable_variables()]}


def case_test_case_asserts_evaluate_tensors(tf):
    """`tf.test.TestCase`'s value assertions run graph tensors in the test's session first
    (a tutorial's `assertAllEqual(tf.square([2, 3]), [4, 9])`), compare shapes strictly,
    and walk nested structures."""
    import collections
    import unittest
    pair = collections.namedtuple("pair", "x y")

    class Checks(tf.test.TestCase):
        def test_square(self):
            with self.test_session():
                self.assertAllEqual(tf.square([2, 3]), [4, 9])

        def test_broadcast_mean(self):
            with self.test_session():
                cost = tf.reduce_mean(tf.square(np.array([[1], [2], [3]]) - np.array([1, 2, 3])))
                self.assertNotEqual(cost, 0)
                self.assertAllEqual(cost, 1)

        def test_shape_mismatch(self):
            self.assertAllEqual([[1, 1]], 1)

        def test_nan_equal(self):
            self.assertAllEqual(tf.constant([np.nan, 1.0]), [np.nan, 1.0])

        def test_all_close_nested(self):
            with self.cached_session():
                self.assertAllClose({"a": tf.constant([1.0, 2.0]), "b": pair(tf.ones([2]), 3)},
                                    {"a": [1.0, 2.0000001], "b": pair([1, 1], 3.0)})

        def test_all_close_fails(self):
            self.assertAllClose(tf.constant([1.0, 2.0]), [1.0, 2.1])

        def test_dict_vs_list(self):
            self.assertAllClose({"a": 1}, [1])

        def test_ranges(self):
            with self.session():
                v = tf.constant([0.5, 1.5, 2.5])
                self.assertAllInRange(v, 0.5, 2.5)
                self.assertAllGreater(v, 0.0)
                self.assertAllLessEqual(v, 2.5)
                self.assertAllInSet(tf.constant([1, 2, 1]), {1, 2})
                self.assertDTypeEqual(v, np.float32)
                self.assertNotAllClose(v, [0.5, 1.5, 2.6])
                self.assertAllCloseAccordingToType(tf.constant([1.0], tf.float16), [1.0005])

        def test_open_range(self):
            self.assertAllInRange(tf.constant([0.5, 1.5]), 0.5, 2.5, open_lower_bound=True)

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Checks).run(result)
    failed = sorted(t.id().rsplit(".", 1)[1] for t, _ in result.failures)
    errors = sorted((t.id().rsplit(".", 1)[1], trace.strip().splitlines()[-1].split(":")[0])
                    for t, trace in result.errors)
    return {"run": result.testsRun, "failed": failed, "errors": [list(e) for e in errors],
            "skipped": len(result.skipped)}


def case_test_case_fixture_seeds_and_cached_session(tf):
    """TF's TestCase fixture: each test starts with the graph seed and numpy's/Python's
    seeds at TF's default (unseeded random ops repeat), and `cached_session` is one
    session per test (a variable initialized in one block keeps its value in the next)."""
    import random
    import unittest
    seen = {}

    class Fixture(tf.test.TestCase):
        def test_a_random(self):
            seen["uniform"] = self.evaluate(tf.random_uniform([3]))
            seen["numpy"] = np.random.randint(0, 1000, 3)
            seen["python"] = random.randint(0, 1000)

        def test_b_cached(self):
            v = tf.Variable(1.0)
            with self.cached_session() as sess:
                sess.run(v.assign(5.0))
            with self.cached_session() as sess:
                seen["same_session"] = sess.run(v)
            with self.test_session():
                seen["test_session_value"] = self.evaluate(v)

        def test_c_other_graph(self):
            with self.cached_session():
                pass
            other = tf.Graph()
            with other.as_default():
                self.cached_session(graph=other).__enter__()

    result = unittest.TestResult()
    unittest.defaultTestLoader.loadTestsFromTestCase(Fixture).run(result)
    errors = sorted((t.id().rsplit(".", 1)[1], trace.strip().splitlines()[-1].split(":")[0])
                    for t, trace in result.errors + result.failures)
    return {"seen": seen, "errors": [list(e) for e in errors]}
