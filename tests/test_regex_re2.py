"""Regex ops run on RE2 (google-re2): its syntax, linear-time matching, imported graphs."""

from __future__ import annotations

import time

import numpy as np
import pytest

import tf1compat as tf


def _run(t, feed=None):
    with tf.Session() as sess:
        return sess.run(t, feed)


def test_re2_unicode_classes_and_posix_classes():
    out = _run([tf.regex_replace(["ab\u00e9c1"], r"\pL", "_"),
                tf.regex_replace(["ab c1"], "[[:alpha:]]+", "w"),
                tf.strings.regex_full_match(["\u00e9\u00e9"], "..")])
    assert out[0].tolist() == [b"____1"]
    assert out[1].tolist() == [b"w w1"]
    assert out[2].tolist() == [True]     # '.' matches a UTF-8 character, not a byte


def test_pathological_pattern_is_linear():
    text = "a" * 40
    pattern = "(a+)+b"
    start = time.perf_counter()
    assert _run(tf.strings.regex_full_match([text], pattern)).tolist() == [False]
    assert _run(tf.regex_replace([text + "c"], "(a*)*c", "x")).tolist() == [b"x"]
    assert time.perf_counter() - start < 5.0     # Python's re backtracks for minutes


def test_patterns_from_an_imported_graph_use_re2():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.string, [None], name="x")
        tf.strings.regex_full_match(x, "(a+)+b", name="match")
        tf.regex_replace(x, r"\pL", "_", name="replace")
    graph_def = g.as_graph_def()
    with tf.Graph().as_default() as imported:
        tf.import_graph_def(graph_def, name="")
        with tf.Session(graph=imported) as sess:
            start = time.perf_counter()
            match, replaced = sess.run(["match:0", "replace:0"],
                                       {"x:0": ["a" * 40, "aab"]})
            assert time.perf_counter() - start < 5.0
    np.testing.assert_array_equal(match, [False, True])
    assert replaced.tolist() == [b"_" * 40, b"___"]


def test_invalid_patterns_raise_tf_errors():
    for pattern, message in [("(", "missing \\): \\("), ("a(?=b)", "invalid perl operator"),
                             ("(?<n>a)", "invalid perl operator: \\(\\?<")]:
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match=f"Invalid pattern: .*, error: {message}"):
            _run(tf.regex_replace(["abc"], pattern, "x"))
