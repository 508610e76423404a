"""CudnnRNN, CudnnRNNV2, CudnnRNNV3 (ops/cudnn_rnn_ops.py) against the equivalent
tf.keras LSTM / GRU / SimpleRNN that real TF computed on the CPU with the same weights
(scripts/record_cudnn_rnn.py; TF has no CPU kernel for the cuDNN ops themselves)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "cudnn_rnn")
with open(os.path.join(FIXTURE, "cases.json")) as _f:
    SPECS = json.load(_f)
ARRAYS = np.load(os.path.join(FIXTURE, "cases.npz"))


def _case(name: str) -> dict:
    return {k.split("/", 1)[1]: ARRAYS[k] for k in ARRAYS.files if k.startswith(name + "/")}


def _run(op: str, c: dict, mode: str, **attrs):
    """The op on the case's inputs: (output batch-major, h, c)."""
    lstm = mode == "lstm"
    with tf.Graph().as_default():
        x = c["x"] if attrs.get("time_major") is False else c["x"].transpose(1, 0, 2)
        args = dict(input=tf.constant(x), input_h=tf.constant(c["h0"][None]),
                    input_c=tf.constant(c["c0"][None] if lstm else np.zeros((1, 3, 3),
                                                                            np.float32)),
                    params=tf.constant(c["params"]), rnn_mode=mode, **attrs)
        if op == "CudnnRNNV3":
            args["sequence_lengths"] = tf.constant(c["lengths"])
        outs = getattr(tf.raw_ops, op)(**args)
        with tf.Session() as sess:
            out, h, cell = sess.run(list(outs[:3]))
    if attrs.get("time_major") is not False:
        out = out.transpose(1, 0, 2)
    return out, h[0], cell[0] if lstm else None


@pytest.mark.parametrize("op", ["CudnnRNN", "CudnnRNNV2", "CudnnRNNV3"])
@pytest.mark.parametrize("name", ["lstm", "gru", "rnn_tanh", "rnn_relu"])
def test_cudnn_rnn_computes_what_keras_computes_with_the_same_weights(op, name):
    c = _case(name)
    out, h, cell = _run(op, c, SPECS[name]["rnn_mode"])
    np.testing.assert_allclose(out, c["output"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h, c["h"], rtol=1e-5, atol=1e-6)
    if cell is not None:
        np.testing.assert_allclose(cell, c["c"], rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name", ["lstm_lengths", "gru_lengths"])
def test_cudnn_rnn_v3_sequence_lengths_batch_major(name):
    """Lengths 5, 2, 0: each state stops at its length as Keras' masked layer holds it;
    the outputs up to the length are Keras', past it zeros (cuDNN's padding fill)."""
    c = _case(name)
    mode = SPECS[name]["rnn_mode"]
    out, h, cell = _run("CudnnRNNV3", c, mode, time_major=False)
    np.testing.assert_allclose(h, c["h"], rtol=1e-5, atol=1e-6)
    if cell is not None:
        np.testing.assert_allclose(cell, c["c"], rtol=1e-5, atol=1e-6)
    for b, length in enumerate(c["lengths"]):
        np.testing.assert_allclose(out[b, :length], c["output"][b, :length], rtol=1e-5,
                                   atol=1e-6)
        assert not out[b, length:].any()


@pytest.mark.parametrize("attrs,what", [
    ({"direction": "bidirectional"}, "direction=bidirectional"),
    ({"input_mode": "skip_input"}, "input_mode=skip_input")])
def test_unverifiable_layouts_name_the_case(attrs, what):
    """(tf1compat's kernels raise NotImplementedError; the run reports it as TF's
    UnimplementedError naming the node.)"""
    with pytest.raises(tf.errors.UnimplementedError, match=what):
        _run("CudnnRNN", _case("lstm"), "lstm", **attrs)


def test_several_layers_name_the_case():
    c = dict(_case("gru"))
    c["h0"] = np.stack([c["h0"]] * 2)        # [layers, batch, units]
    with tf.Graph().as_default():
        outs = tf.raw_ops.CudnnRNN(
            input=tf.constant(c["x"].transpose(1, 0, 2)), input_h=tf.constant(c["h0"]),
            input_c=tf.constant(c["h0"]), params=tf.constant(c["params"]), rnn_mode="gru")
        with tf.Session() as sess, pytest.raises(tf.errors.UnimplementedError,
                                                 match="several layers"):
            sess.run(outs[0])


def test_a_wrong_params_size_is_an_invalid_argument():
    c = dict(_case("lstm"))
    c["params"] = c["params"][:-1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid params size"):
        _run("CudnnRNN", c, "lstm")


def test_gradients_reach_the_params():
    c = _case("gru")
    with tf.Graph().as_default():
        params = tf.constant(c["params"])
        out = tf.raw_ops.CudnnRNN(input=tf.constant(c["x"].transpose(1, 0, 2)),
                                  input_h=tf.constant(c["h0"][None]),
                                  input_c=tf.constant(c["h0"][None]), params=params,
                                  rnn_mode="gru")[0]
        grad, = tf.gradients(tf.reduce_sum(out), [params])
        with tf.Session() as sess:
            g = sess.run(grad)
    assert g.shape == c["params"].shape and np.abs(g).sum() > 0
