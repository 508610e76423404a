"""tf.contrib.util's TensorProto helpers are tf.make_tensor_proto / tf.make_ndarray (TF 2.21,
the golden oracle, has no tf.contrib; TF 1.15 exports the same functions there)."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.framework.missing import UnimplementedAPIError


def test_contrib_util_helpers_are_the_core_ones():
    assert tf.contrib.util.make_tensor_proto is tf.make_tensor_proto
    assert tf.contrib.util.make_ndarray is tf.make_ndarray
    proto = tf.contrib.util.make_tensor_proto([[1, 2]], shape=[2, 2])
    np.testing.assert_array_equal(tf.contrib.util.make_ndarray(proto), [[1, 2], [2, 2]])


def test_contrib_util_graph_helpers_say_what_to_use():
    with pytest.raises(UnimplementedAPIError, match="node.op for node"):
        tf.contrib.util.ops_used_by_graph_def  # noqa: B018 - the access is the test


def test_collected_session_handle_frees_its_value():
    from tf1compat.ops.session_ops import _HandleStore, _STORE_KEY
    handle = tf.get_session_handle(tf.constant([1.0, 2.0]))
    with tf.Session() as sess:
        store = sess._runtime.op_resource(_STORE_KEY, _HandleStore)
        kept = sess.run(handle)
        sess.run(handle)                      # dropped at once: freed
        assert list(store.values) == [kept.handle]
        del kept
        assert store.values == {}
