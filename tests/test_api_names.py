"""Behaviour of issue 12's last names that real TF cannot record as goldens: tf1compat's
own clear errors where torch or numpy lack a type (tests/golden/cases_api_names.py has
the TF-recorded behaviour)."""

import importlib.util
import threading

import numpy as np
import pytest

import tf1compat as tf

E = tf.dtypes.experimental


def test_float4_constants_say_torch_has_no_float4():
    with tf.Graph().as_default():
        with pytest.raises(NotImplementedError, match="float4_e2m1fn"):
            tf.constant([1.0], dtype=E.float4_e2m1fn)


@pytest.mark.skipif(importlib.util.find_spec("ml_dtypes") is not None,
                    reason="with ml_dtypes float8 values are fetched as TF's arrays")
def test_fetching_float8_without_ml_dtypes_names_the_dtype():
    with tf.Graph().as_default(), tf.Session() as sess:
        value = tf.cast(tf.constant([1.5]), E.float8_e4m3fn)
        with pytest.raises(NotImplementedError, match="float8_e4m3fn.*ml_dtypes"):
            sess.run(value)
        assert sess.run(tf.cast(value, tf.float32)).tolist() == [1.5]


def test_int4_values_are_int8_storage_wrapped_to_four_bits():
    with tf.Graph().as_default(), tf.Session() as sess:
        fetched = sess.run(tf.cast(tf.constant([7, 8, -9]), E.int4))
        assert fetched.dtype == np.int8 and fetched.tolist() == [7, -8, 7]


def test_critical_section_releases_its_lock_when_a_run_fails():
    with tf.Graph().as_default():
        cs = tf.CriticalSection()
        x = tf.placeholder(tf.float32, [])
        def doubled_if_positive():
            with tf.control_dependencies([tf.debugging.assert_positive(x)]):
                return x * 2
        checked = cs.execute(doubled_if_positive)
        with tf.Session() as sess:
            with pytest.raises(tf.errors.InvalidArgumentError):
                sess.run(checked, {x: -1.0})
            result = []
            worker = threading.Thread(target=lambda: result.append(sess.run(checked,
                                                                            {x: 2.0})))
            worker.start()
            worker.join(timeout=30)
            assert result == [4.0]


def _resolve(namespace: str, name: str):
    obj = tf
    for part in filter(None, namespace.split(".")):
        obj = getattr(obj, part)
    return getattr(obj, name)


def test_every_name_of_tfs_compat_v1_api_exists_or_says_it_is_unsupported():
    """Every public name of TF 2.21's compat.v1 namespaces (recorded by
    scripts/record_api_names.py) resolves, or raises a NotImplementedError naming it."""
    from tf1compat._tf_api_names import API_NAMES
    absent = []
    for namespace, names in API_NAMES.items():
        for name in names:
            try:
                _resolve(namespace, name)
            except NotImplementedError:
                continue
            except Exception as error:  # noqa: BLE001 - any other error is a gap
                absent.append(f"tf.{namespace + '.' if namespace else ''}{name}: "
                              f"{type(error).__name__}")
    assert not absent, "\n".join(absent)


def test_generated_op_functions_carry_their_python_names():
    # TF's tf.exp.__name__ is "exp"; GPflow's saver finds a function again through its
    # module and name, and Keras serializes activations by name.
    import importlib
    for fn, name in ((tf.exp, "exp"), (tf.square, "square"), (tf.add, "add"),
                     (tf.less, "less"), (tf.math.log, "log"), (tf.tanh, "tanh")):
        assert fn.__name__ == name
        assert getattr(importlib.import_module(fn.__module__), name) is fn
