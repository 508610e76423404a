"""Gradients of Erf, Erfc, Softsign, Asinh, Acosh, Atan2, FloorMod, MulNoNan and
PlaceholderWithDefault in TF's SymbolicGradient form: their first-order expansions around
the graph's values inside the forward function (graphdef/gradient_lowering_math.py).

What real TF computes from such files is recorded by scripts/check_tf_reads_graphs.py
(tests/graph_training_math_cases.py) and scripts/probe_tf_function_gradients.py
(tests/fixtures/tf_function_gradients.json); the tests replay it without TF.
"""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf
from tf1compat.graphdef.gradient_lowering_array import LOWERINGS_ARRAY
from tf1compat.graphdef.gradient_lowering_math import LINEARIZED, PICKED
from tf1compat.graphdef.gradient_lowering_volume import LOWERINGS_VOLUME
from tests import graph_training_math_cases
from tests.gradient_export_util import (check_recorded_training_case,  # noqa: F401
                                         export_with_warnings, fresh_graph, recorded_case,
                                         replay_the_written_train_op, replay_tf_runs)

PROBES = os.path.join(os.path.dirname(__file__), "fixtures", "tf_function_gradients.json")


@pytest.mark.parametrize("case", graph_training_math_cases.MATH_TRAINING_CASES,
                         ids=lambda fn: fn.__name__[len("case_"):])
def test_own_training_steps_give_the_weights_tf_computed_from_the_file(case, caplog):
    check_recorded_training_case(case, caplog, set(LINEARIZED) | set(PICKED) |
                                 set(LOWERINGS_ARRAY) | set(LOWERINGS_VOLUME))


@pytest.mark.parametrize("case", graph_training_math_cases.MATH_TRAINING_CASES,
                         ids=lambda fn: fn.__name__[len("case_"):])
def test_the_written_train_op_runs_in_tf1compat_too(case):
    """The file TF trained from, imported into tf1compat: the SymbolicGradients of the
    written forward functions run to TF's weights here too."""
    replay_the_written_train_op(case)


def test_tf_differentiates_the_expanded_probes():
    with open(PROBES) as f:
        probes = json.load(f)["probes"]
    for name in ("erf", "erfc", "gelu_erf", "softsign", "asinh", "acosh", "atan2",
                 "atan2_both", "floor_mod", "floor_mod_divisor", "mul_no_nan",
                 "placeholder_with_default_value", "matrix_band_part",
                 "matrix_band_part_causal", "matrix_band_part_run_time", "space_to_batch",
                 "space_to_batch_padded", "batch_to_space_crops", "atrous_conv_valid",
                 "segment_mean", "top_k", "top_k_indices", "segment_max_ties",
                 "unsorted_segment_min_empty"):
        assert probes[name]["ok"], (name, probes[name])
        assert not set(probes[name]["types"]) & (set(LINEARIZED) | set(PICKED) |
                                                 set(LOWERINGS_ARRAY)), name


@pytest.mark.parametrize("build", [
    lambda x: tf.erf(x) * x, lambda x: tf.math.erfc(x * 0.5),
    lambda x: tf.nn.softsign(x) * x, lambda x: tf.asinh(x * 3.0),
    lambda x: tf.acosh(x * x + 1.1), lambda x: tf.atan2(x - 0.2, x * x + 0.5),
    lambda x: tf.floormod(x * 4.0, 0.3 + x * x) * x,
    lambda x: tf.math.multiply_no_nan(x, tf.nn.relu(x)),
    lambda x: tf.placeholder_with_default(x * 3.0, [2, 3, 4]) * x,
    lambda x: tf.matrix_band_part(x, 1, 0) * x,
    lambda x: tf.matrix_band_part(x, tf.constant(0, tf.int64),
                                  tf.placeholder_with_default(tf.constant(-1, tf.int64), [])),
    lambda x: tf.space_to_batch_nd(tf.reshape(x, [1, 2, 3, 4]), [2, 3],
                                   [[0, 2], [1, 2]]) * tf.range(4, dtype=tf.float32),
    lambda x: tf.batch_to_space_nd(tf.reshape(x, [2, 3, 1, 4]), [2, 1],
                                   [[1, 2], [0, 0]]) * tf.range(4, dtype=tf.float32),
    lambda x: tf.segment_mean(x * x, tf.constant([0, 2])) * tf.range(4, dtype=tf.float32),
    lambda x: tf.nn.top_k(x * x - x, 2)[0] * tf.gather(
        tf.range(4, dtype=tf.float32), tf.nn.top_k(x * x - x, 2)[1]),
    lambda x: tf.segment_max(tf.round(x * 2.0) * x[0, 0, 0], tf.constant([0, 0])) * x[1],
    lambda x: tf.square(tf.unsorted_segment_min(x, tf.constant([2, 0]), 4)),
    lambda x: tf.lgamma(x * 2.0 + 0.1) * x, lambda x: tf.digamma(x * x + 0.3) * x],
    ids=["erf", "erfc", "softsign", "asinh", "acosh", "atan2", "floor_mod", "mul_no_nan",
         "placeholder_with_default", "band_part", "band_part_run_time", "space_to_batch",
         "batch_to_space", "segment_mean", "top_k", "segment_max_ties",
         "unsorted_segment_min_empty", "lgamma", "digamma"])
def test_exported_gradient_is_the_in_process_one(build, caplog):
    # The exported file read back by tf1compat: its gradient comes from the lowered
    # forward function, which must give the gradient tf1compat computes in process.
    value = np.linspace(-1.5, 1.5, 24, dtype=np.float32).reshape(2, 3, 4)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 3, 4], name="x")
        g, = tf.gradients(tf.reduce_sum(build(x)), x)
        expected, got = _here_and_read_back(g, {"x:0": value}, caplog)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def _here_and_read_back(fetch, feeds, caplog):
    """`fetch` run in the default graph, and in the graph its export (written without
    a warning) imports into."""
    with tf.Session() as sess:
        expected = sess.run(fetch, feeds)
    gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            return expected, sess.run(fetch.name, feeds)


def test_a_fed_placeholder_with_default_is_the_value_the_gradient_sees(caplog):
    # TF 2.21 gives d(sum(h^2))/dx = 2 * h_fed * 2 here (checked with real TF): the
    # gradient passes through the op and sees the fed value.
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        h = tf.placeholder_with_default(x * 2.0, [3], name="h")
        g, = tf.gradients(tf.reduce_sum(h * h), x)
        gd, warned = export_with_warnings(caplog)
        assert not warned, warned
    fed = np.array([1.0, -2.0, 0.5], np.float32)
    with tf.Graph().as_default():
        tf.import_graph_def(gd, name="")
        with tf.Session() as sess:
            got = sess.run(g.name, {"x:0": np.ones(3, np.float32), "h:0": fed})
    np.testing.assert_allclose(got, 4.0 * fed)


@pytest.mark.parametrize("build, reason", [
    (lambda x: tf.nn.conv3d(x, tf.ones([2, 2, 2, 2, 3]), [1] * 5, "SAME",
                            dilations=[1, 2, 1, 1, 1]), "Conv3D other than NDHWC, undilated"),
    (lambda x: tf.nn.max_pool3d(tf.placeholder_with_default(x, [2, None, 4, 4, 2]),
                                [1, 2, 2, 2, 1], [1] * 5, "VALID"),
     "MaxPool3D other than NDHWC"),
], ids=["conv3d_dilated", "max_pool3d_run_time_shape"])
def test_3d_ops_without_a_written_form_keep_tf1compat_form_and_say_why(build, reason, caplog):
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 4, 4, 4, 2], name="x")
        tf.gradients(tf.reduce_sum(build(x)), x)
        _, warned = export_with_warnings(caplog)
    assert warned and reason in warned[0], warned


def test_a_linearized_op_off_a_loop_body_gradient_path_is_pushed_as_a_value(caplog):
    # floor_mod of the counter feeds the state but takes nothing differentiated: pushed
    # each iteration as it is (no outside values of its own), the rest written in TF's
    # form without a warning.
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [3], name="x")
        _, h = tf.while_loop(
            lambda i, h: i < 3,
            lambda i, h: (i + 1, tf.erf(h) * tf.floormod(tf.cast(i, tf.float32), 2.0)),
            [tf.constant(0), x])
        tf.gradients(tf.reduce_sum(h), x)
        gd, warned = export_with_warnings(caplog)
    assert not warned, warned
    pushes = [n for n in gd.node if n.op == "StackPushV2"]
    assert any(n.input[1].endswith("FloorMod") for n in pushes), [n.input for n in pushes]
    assert any(n.input[1].endswith("Erf") for n in pushes), [n.input for n in pushes]


def _cond_of_expanded_ops(x, flag):
    h = x * 1.0
    return tf.cond(flag, lambda: tf.erf(h) + tf.acosh(h * h + 1.0) + tf.lgamma(h * h + 0.5) +
                   tf.nn.top_k(h, 2)[0][..., :1],
                   lambda: tf.nn.softsign(h) + tf.floormod(h * 3.0 + 2.0, h * h + 0.9) +
                   tf.digamma(h * h + 0.5))


@pytest.mark.parametrize("flag_value", [True, False])
def test_expanded_ops_in_cond_branches_give_the_in_process_gradient(flag_value, caplog):
    """Their outside values are zeros where their branch did not run: the factors there
    (1/sinh(0), trigamma(0)) are selected away, so the gradient stays finite."""
    value = np.linspace(-1.5, 1.5, 24, dtype=np.float32).reshape(2, 3, 4)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [2, 3, 4], name="x")
        flag = tf.placeholder(tf.bool, [], name="flag")
        g, = tf.gradients(tf.reduce_sum(tf.square(_cond_of_expanded_ops(x, flag))), x)
        expected, got = _here_and_read_back(g, {"x:0": value, "flag:0": flag_value}, caplog)
    assert np.isfinite(got).all()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_top_k_of_a_run_time_shape_in_a_cond_branch_says_why(caplog):
    """Its stand-in where the branch did not run would be a scalar, which the one-hot
    pick cannot take: not written in TF's form, warned."""
    with tf.Graph().as_default():
        flag = tf.placeholder(tf.bool, [], name="flag")
        x = tf.placeholder(tf.float32, [None, 3, 4], name="x")
        tf.gradients(tf.reduce_sum(_cond_of_expanded_ops(x, flag)), x)
        _, warned = export_with_warnings(caplog)
    assert warned and "TopKV2 of a shape unknown" in warned[0], warned


def test_ctc_loss_gradient_is_the_op_own_gradient_output(caplog):
    frames = np.sin(np.arange(5 * 2 * 4, dtype=np.float32) * 0.7).reshape(5, 2, 4)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [5, 2, 4], name="x")
        labels = tf.SparseTensor(np.array([[0, 0], [0, 1], [1, 0]], np.int64),
                                 np.array([1, 2, 0], np.int32), np.array([2, 2], np.int64))
        loss = tf.nn.ctc_loss(labels, x * x, tf.constant([5, 4]))
        g, = tf.gradients(tf.reduce_sum(loss * tf.constant([1.0, 3.0])), x)
        expected, got = _here_and_read_back(g, {"x:0": frames}, caplog)
    assert np.abs(expected).sum() > 0
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("padding, stride, width", [("SAME", 2, 3), ("VALID", 3, 2),
                                                    ("SAME", 1, 4), ("SAME", 3, 1)])
def test_conv1d_transpose_of_a_run_time_length_is_written(padding, stride, width, caplog):
    """The full transposed convolution of spread, edge-padded input, sliced at TF's
    padding computed when it runs (gradient_lowering_nn._conv_transpose_run_time)."""
    value = np.sin(np.arange(2 * 5 * 3, dtype=np.float32) * 0.3).reshape(2, 5, 3)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None, None, 3], name="x")
        kernel = tf.constant(np.cos(np.arange(width * 12, dtype=np.float32)).reshape(
            width, 4, 3))
        batch, length = tf.shape(x)[0], tf.shape(x)[1]
        out = length * stride if padding == "SAME" else (length - 1) * stride + width
        y = tf.nn.conv1d_transpose(x * x, kernel, tf.stack([batch, out, 4]), stride, padding)
        assert y.shape.as_list() == [None, None, 4]
        g, = tf.gradients(tf.reduce_sum(tf.sin(y)), x)
        expected, got = _here_and_read_back(g, {"x:0": value}, caplog)
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("padding, strides", [("SAME", [1, 2, 1, 2, 1]),
                                              ("VALID", [1, 1, 2, 1, 1])])
def test_conv3d_filter_gradient_on_the_path_is_written(padding, strides, caplog):
    value = np.sin(np.arange(480, dtype=np.float64) * 0.3).reshape(2, 5, 4, 6, 2)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float64, [2, 5, 4, 6, 2], name="x")
        kernel = tf.constant(np.cos(np.arange(108, dtype=np.float64)).reshape(3, 2, 3, 2, 3))
        dy = tf.sin(tf.nn.conv3d(x, kernel, strides, padding))
        w = tf.nn.conv3d_backprop_filter_v2(x * x, [3, 2, 3, 2, 3], dy, strides, padding)
        g, = tf.gradients(tf.reduce_sum(w * w), x)
        expected, got = _here_and_read_back(g, {"x:0": value}, caplog)
    np.testing.assert_allclose(got, expected, rtol=1e-10)
