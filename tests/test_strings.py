"""Unit tests for the string ops (what the TF-recorded goldens cannot express)."""

from __future__ import annotations

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.framework.op_def import get_op_def
from tf1compat.ops import _string_hash

STRING_OPS = ["StringToNumber", "AsString", "StringJoin", "StringLength", "Substr",
              "StaticRegexReplace", "RegexReplace", "StaticRegexFullMatch", "RegexFullMatch",
              "StringStrip", "StringLower", "StringUpper", "StringSplit", "StringSplitV2",
              "StringToHashBucketFast", "StringToHashBucket", "StringToHashBucketStrong",
              "EncodeBase64", "DecodeBase64", "StringFormat"]


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield


@pytest.mark.parametrize("op_type", STRING_OPS)
def test_declared_not_differentiable_cpu_only(op_type):
    op_def = get_op_def(op_type)
    assert op_def.grad == "none" and op_def.cpu_only


def test_hashes_known_values():
    # Published FarmHash Fingerprint64 / SipHash-2-4 reference values.
    assert _string_hash.fingerprint64(b"") == 0x9AE16A3B2F90404F
    key = (0x0706050403020100, 0x0F0E0D0C0B0A0908)
    assert _string_hash.siphash24(key, b"") == 0x726FDB47DD0E0E31
    assert _string_hash.siphash24(key, bytes(range(15))) == 0xA129CA6149BE45E5


def test_split_of_rank_2_is_not_implemented():
    # Ragged results of rank-0/1 inputs: tests/golden/cases_ragged.py::strings_split.
    with pytest.raises(NotImplementedError, match="rank"):
        tf.strings.split([["a b"]])


def test_dataset_map_parses_csv_fields():
    ds = tf.data.Dataset.from_tensor_slices(["1,2.5", "3,-4"]).map(
        lambda s: tf.string_to_number(tf.string_split([s], ",").values))
    nx = tf.data.make_one_shot_iterator(ds).get_next()
    with tf.Session() as sess:
        got = [sess.run(nx) for _ in range(2)]
    np.testing.assert_array_equal(got[0], np.float32([1, 2.5]))
    np.testing.assert_array_equal(got[1], np.float32([3, -4]))


def test_shim_internal_path():
    tf.install()
    try:
        from tensorflow.python.ops import string_ops  # noqa: F401
        assert string_ops.string_to_number is tf.string_to_number
    finally:
        tf.uninstall()
