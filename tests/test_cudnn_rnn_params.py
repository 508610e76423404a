"""CudnnRNNParamsSize, CudnnRNNParamsToCanonical(V2), CudnnRNNCanonicalToParams(V2)
(ops/cudnn_rnn_ops.py). TF registers their kernels on GPUs only, so the reference is TF
1.15's documented layout: the cuDNN-canonical weights and biases that TF 1.15's
CudnnParamsFormatConverter makes of the TF-canonical weights of tf.contrib.cudnn_rnn's
compatible cells, packed per layer and direction (weights, then biases), recorded with
the numbers TF's cells compute from them (scripts/record_cudnn_rnn.py; the forward ops
are checked against those numbers in tests/test_cudnn_rnn_ops.py)."""

from __future__ import annotations

import json
import os

import numpy as np
import pytest

import tf1compat as tf

FIXTURE = os.path.join(os.path.dirname(__file__), "fixtures", "cudnn_rnn")
with open(os.path.join(FIXTURE, "cells.json")) as _f:
    SPECS = json.load(_f)
CELLS = np.load(os.path.join(FIXTURE, "cells.npz"))
GATES = {"lstm": 4, "gru": 3, "rnn_tanh": 1, "rnn_relu": 1}


def _case(name: str):
    c = {k.split("/", 1)[1]: CELLS[k] for k in CELLS.files if k.startswith(name + "/")}
    weights = [c[f"cu_w{k}"] for k in range(sum(1 for key in c if key.startswith("cu_w")))]
    biases = [c[f"cu_b{k}"] for k in range(sum(1 for key in c if key.startswith("cu_b")))]
    spec = SPECS[name]
    if spec["input_mode"] == "skip_input":
        # layer 0 reads its input as is: no input matrices there ([units, 0])
        dirs = 2 if spec["direction"] == "bidirectional" else 1
        per = len(weights) // (spec["num_layers"] * dirs)
        for d in range(dirs):
            for k in range(GATES[spec["rnn_mode"]]):
                weights[d * per + k] = np.zeros((spec["num_units"], 0), np.float32)
    return c, weights, biases


def _sizes(spec: dict) -> dict:
    return dict(num_layers=tf.constant(spec["num_layers"]),
                num_units=tf.constant(spec["num_units"]),
                input_size=tf.constant(spec["input_size"]))


def _attrs(spec: dict) -> dict:
    return dict(rnn_mode=spec["rnn_mode"], direction=spec["direction"],
                input_mode=spec["input_mode"])


@pytest.mark.parametrize("S", [tf.int32, tf.int64])
@pytest.mark.parametrize("name", sorted(SPECS))
def test_params_size_is_the_opaque_buffers_length(name, S):
    spec = SPECS[name]
    c, _, _ = _case(name)
    with tf.Graph().as_default():
        size = tf.raw_ops.CudnnRNNParamsSize(**_sizes(spec), T=tf.float32, S=S,
                                             num_proj=spec["num_proj"], **_attrs(spec))
        assert size.dtype == S and size.shape.as_list() == [1]
        with tf.Session() as sess:
            assert sess.run(size).tolist() == [c["params"].size]


@pytest.mark.parametrize("name", sorted(SPECS))
def test_params_to_canonical_gives_cudnns_canonical_weights(name):
    spec = SPECS[name]
    c, weights, biases = _case(name)
    with tf.Graph().as_default():
        if spec["num_proj"]:
            w, b = tf.raw_ops.CudnnRNNParamsToCanonicalV2(
                **_sizes(spec), params=tf.constant(c["params"]),
                num_params_weights=len(weights), num_params_biases=len(biases),
                num_proj=spec["num_proj"], **_attrs(spec))
        else:
            w, b = tf.raw_ops.CudnnRNNParamsToCanonical(
                **_sizes(spec), params=tf.constant(c["params"]), num_params=len(weights),
                **_attrs(spec))
        assert all(t.shape.rank == 2 for t in w) and all(t.shape.rank == 1 for t in b)
        with tf.Session() as sess:
            got_w, got_b = sess.run([w, b])
    for k, (g, want) in enumerate(zip(got_w, weights)):
        assert g.shape == want.shape, k
        np.testing.assert_array_equal(g, want)
    for g, want in zip(got_b, biases):
        np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("name", sorted(SPECS))
def test_canonical_to_params_packs_weights_then_biases_per_layer_and_direction(name):
    spec = SPECS[name]
    c, weights, biases = _case(name)
    with tf.Graph().as_default():
        w = [tf.constant(x.reshape(-1)) for x in weights]   # (TF's saveable feeds them flat)
        b = [tf.constant(x) for x in biases]
        if spec["num_proj"]:
            params = tf.raw_ops.CudnnRNNCanonicalToParamsV2(
                **_sizes(spec), weights=w, biases=b, num_proj=spec["num_proj"],
                **_attrs(spec))
        else:
            params = tf.raw_ops.CudnnRNNCanonicalToParams(**_sizes(spec), weights=w,
                                                          biases=b, **_attrs(spec))
        assert params.shape.as_list() == [None]
        with tf.Session() as sess:
            np.testing.assert_array_equal(sess.run(params), c["params"])


def test_a_canonical_tensor_of_the_wrong_size_is_an_invalid_argument():
    spec = SPECS["gru_2layers"]
    _, weights, biases = _case("gru_2layers")
    with tf.Graph().as_default():
        w = [tf.constant(x) for x in weights]
        w[7] = tf.constant(weights[7][:, :-1])
        params = tf.raw_ops.CudnnRNNCanonicalToParams(
            **_sizes(spec), weights=w, biases=[tf.constant(x) for x in biases],
            **_attrs(spec))
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match="canonical tensor 7 has 6 elements"):
            sess.run(params)


def test_a_num_params_that_does_not_match_the_network_is_an_invalid_argument():
    spec = SPECS["lstm_2layers"]
    c, _, _ = _case("lstm_2layers")
    with tf.Graph().as_default():
        w, _ = tf.raw_ops.CudnnRNNParamsToCanonical(
            **_sizes(spec), params=tf.constant(c["params"]), num_params=8, **_attrs(spec))
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match="has 16 weights"):
            sess.run(w)
