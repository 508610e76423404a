"""tf1compat.export.torch_state_dict: TF layers' weights load into hand-written torch layers
that then compute what the TF graph computes (the oracle is the Session's output)."""

from __future__ import annotations

import numpy as np
import pytest
import torch
from torch import nn

import tf1compat as tf
import tf1compat.export as tfx


@pytest.fixture(autouse=True)
def _fresh_graph():
    with tf.Graph().as_default() as graph:
        tf.set_random_seed(7)
        yield graph


def _session_value(fetch, feed):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        module = tfx.to_module(fetch, list(feed), session=sess)
        return sess.run(fetch, feed), module


def _load(torch_module: nn.Module, module, mapping, strict: bool = True) -> nn.Module:
    torch_module.load_state_dict(tfx.torch_state_dict(module, mapping, strict=strict))
    return torch_module.eval()


def test_dense_and_flatten_from_nhwc():
    rng = np.random.RandomState(0)
    images = rng.rand(3, 4, 5, 2).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 4, 5, 2], name="x")
    conv = tf.layers.conv2d(x, 6, 3, padding="same", activation=tf.nn.relu, name="conv")
    hidden = tf.layers.dense(tf.layers.flatten(conv), 7, activation=tf.nn.tanh, name="fc")
    logits = tf.layers.dense(hidden, 3, name="out")
    expected, module = _session_value(logits, {x: images})

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = nn.Conv2d(2, 6, 3, padding=1)
            self.fc = nn.Linear(6 * 4 * 5, 7)
            self.out = nn.Linear(7, 3)

        def forward(self, t):
            t = torch.relu(self.conv(t.permute(0, 3, 1, 2)))
            return self.out(torch.tanh(self.fc(t.flatten(1))))

    net = _load(Net(), module, {"conv": ("conv2d", "conv"),
                                "fc": ("dense", "fc", {"flatten_from": (4, 5, 6)}),
                                "out": ("dense", "out")})
    got = net(torch.from_numpy(images)).detach().numpy()
    np.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-5)


def test_raw_variables_by_explicit_names():
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    with tf.name_scope("hidden1"):
        w = tf.Variable(tf.truncated_normal([4, 3]), name="weights")
        b = tf.Variable(tf.constant(0.1, shape=[3]), name="biases")
    y = tf.matmul(x, w) + b
    data = np.random.RandomState(1).randn(5, 4).astype(np.float32)
    expected, module = _session_value(y, {x: data})
    linear = _load(nn.Linear(4, 3), module, {"": ("dense", {"kernel": "hidden1/weights",
                                                          "bias": "hidden1/biases"})})
    np.testing.assert_allclose(linear(torch.from_numpy(data)).detach().numpy(), expected,
                               rtol=1e-5, atol=1e-6)


def test_conv1d_conv2d_transpose_and_depthwise():
    rng = np.random.RandomState(2)
    seq = rng.rand(2, 9, 3).astype(np.float32)
    img = rng.rand(2, 5, 5, 3).astype(np.float32)
    s = tf.placeholder(tf.float32, [None, 9, 3], name="s")
    i = tf.placeholder(tf.float32, [None, 5, 5, 3], name="i")
    c1 = tf.layers.conv1d(s, 4, 3, padding="valid", name="c1")
    up = tf.layers.conv2d_transpose(i, 2, 3, strides=2, padding="valid", name="up")
    depth_kernel = tf.get_variable("dw/depthwise_kernel", [3, 3, 3, 2])
    dw = tf.nn.depthwise_conv2d(i, depth_kernel, [1, 1, 1, 1], "VALID")
    expected, module = _session_value([c1, up, dw], {s: seq, i: img})
    conv1 = _load(nn.Conv1d(3, 4, 3), module, {"": ("conv1d", "c1")}, strict=False)
    transposed = _load(nn.ConvTranspose2d(3, 2, 3, stride=2), module,
                       {"": ("conv2d_transpose", "up")}, strict=False)
    depthwise = _load(nn.Conv2d(3, 6, 3, groups=3, bias=False), module,
                      {"": ("depthwise_conv2d", "dw")}, strict=False)
    nchw = torch.from_numpy(img).permute(0, 3, 1, 2)
    got = [conv1(torch.from_numpy(seq).transpose(1, 2)).transpose(1, 2),
           transposed(nchw).permute(0, 2, 3, 1), depthwise(nchw).permute(0, 2, 3, 1)]
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.detach().numpy(), e, rtol=1e-5, atol=1e-5)


def test_batch_norm_inference_and_embedding():
    rng = np.random.RandomState(3)
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    ids = tf.placeholder(tf.int32, [None], name="ids")
    bn = tf.layers.batch_normalization(x, training=False, name="bn",
                                       moving_mean_initializer=tf.constant_initializer(0.3),
                                       moving_variance_initializer=tf.constant_initializer(2.0),
                                       gamma_initializer=tf.constant_initializer(1.5))
    table = tf.get_variable("emb/embeddings", [10, 3])
    looked = tf.nn.embedding_lookup(table, ids)
    data, index = rng.randn(6, 4).astype(np.float32), np.array([1, 9, 0, 4], np.int32)
    expected, module = _session_value([bn, looked], {x: data, ids: index})
    norm = _load(nn.BatchNorm1d(4, eps=1e-3), module, {"": ("batch_norm", "bn")},
                 strict=False)
    embedding = _load(nn.Embedding(10, 3), module, {"": ("embedding", "emb")}, strict=False)
    np.testing.assert_allclose(norm(torch.from_numpy(data)).detach().numpy(), expected[0],
                               rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(embedding(torch.from_numpy(index).long()).detach().numpy(),
                               expected[1], rtol=1e-6)


@pytest.mark.parametrize("cell_class", ["LSTMCell", "BasicLSTMCell"])
def test_two_layer_lstm_matches_torch_lstm(cell_class):
    rng = np.random.RandomState(4)
    data = rng.randn(3, 5, 4).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 5, 4], name="x")
    make = getattr(tf.nn.rnn_cell, cell_class)
    cells = tf.nn.rnn_cell.MultiRNNCell([make(6, forget_bias=0.5), make(6, forget_bias=0.5)])
    outputs, _ = tf.nn.dynamic_rnn(cells, x, dtype=tf.float32)
    expected, module = _session_value(outputs, {x: data})
    scope = "rnn/multi_rnn_cell/cell_{}/" + ("lstm_cell" if cell_class == "LSTMCell"
                                             else "basic_lstm_cell")
    lstm = _load(nn.LSTM(4, 6, num_layers=2, batch_first=True), module,
                 {"": [("lstm", scope.format(0), {"forget_bias": 0.5}),
                       ("lstm", scope.format(1), {"forget_bias": 0.5, "layer": 1})]})
    got, _ = lstm(torch.from_numpy(data))
    np.testing.assert_allclose(got.detach().numpy(), expected, rtol=1e-5, atol=1e-5)


def test_bidirectional_lstm_reverse_direction():
    rng = np.random.RandomState(5)
    data = rng.randn(2, 4, 3).astype(np.float32)
    x = tf.placeholder(tf.float32, [None, 4, 3], name="x")
    (fw, bw), _ = tf.nn.bidirectional_dynamic_rnn(tf.nn.rnn_cell.LSTMCell(5),
                                                  tf.nn.rnn_cell.LSTMCell(5), x,
                                                  dtype=tf.float32)
    expected, module = _session_value(tf.concat([fw, bw], 2), {x: data})
    lstm = _load(nn.LSTM(3, 5, batch_first=True, bidirectional=True), module, {
        "": [("lstm", "bidirectional_rnn/fw/lstm_cell"),
             ("lstm", "bidirectional_rnn/bw/lstm_cell", {"reverse": True})]})
    got, _ = lstm(torch.from_numpy(data))
    np.testing.assert_allclose(got.detach().numpy(), expected, rtol=1e-5, atol=1e-5)


def test_mapping_errors_are_clear():
    x = tf.placeholder(tf.float32, [None, 2], name="x")
    y = tf.layers.dense(tf.layers.dense(x, 3, name="a"), 1, name="b")
    module = tfx.to_module(y, [x])
    with pytest.raises(ValueError, match="leaves out variables \\['b/bias', 'b/kernel'\\]"):
        tfx.torch_state_dict(module, {"a": ("dense", "a")})
    assert set(tfx.torch_state_dict(module, {"a": ("dense", "a")}, strict=False)) == \
        {"a.weight", "a.bias"}
    with pytest.raises(ValueError, match="unknown layout 'gru'"):
        tfx.torch_state_dict(module, {"a": ("gru", "a")})
    with pytest.raises(ValueError, match="takes no option 'layer'"):
        tfx.torch_state_dict(module, {"a": ("dense", "a", {"layer": 1})})
    with pytest.raises(KeyError, match="no 'kernel' variable in scope 'c'"):
        tfx.torch_state_dict(module, {"a": ("dense", "c")})
