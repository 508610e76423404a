"""Recurrent networks beyond the goldens: tf.contrib.rnn (no TF 2 oracle) checked against
numpy references and core equivalents, Keras features tf1compat does not support, import
paths, checkpoints of RNN variables, the benchmark, and CUDA."""

from __future__ import annotations

import importlib.util
import os

import numpy as np
import pytest
import torch

import tf1compat as tf

rnn = tf.contrib.rnn


@pytest.fixture(autouse=True)
def fresh_graph():
    tf.reset_default_graph()
    yield
    tf.reset_default_graph()


def _rng(shape, seed=0):
    return np.random.RandomState(seed).randn(*shape).astype(np.float32)


def _run(fetches, feed=None):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches, feed)


def _names(xs):
    return [x.name for x in xs]


def _sigmoid(x):
    return 1 / (1 + np.exp(-x))


# -- contrib cells ---------------------------------------------------------------------------

def _layer_norm(x, gain=1.0, shift=0.0, eps=1e-12):
    mean = x.mean(axis=-1, keepdims=True)
    var = x.var(axis=-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * gain + shift


def test_layer_norm_basic_lstm_cell_matches_numpy():
    xv = _rng([2, 3, 4], 1)
    cell = rnn.LayerNormBasicLSTMCell(5, forget_bias=0.5, norm_gain=1.5, norm_shift=0.1)
    with tf.variable_scope("ln", initializer=tf.glorot_uniform_initializer(seed=3)):
        out, state = tf.nn.dynamic_rnn(cell, tf.constant(xv), dtype=tf.float32)
    names = _names(tf.global_variables())
    assert names[0] == "ln/rnn/layer_norm_basic_lstm_cell/kernel:0"
    for gate in ("input", "transform", "forget", "output", "state"):
        assert f"ln/rnn/layer_norm_basic_lstm_cell/{gate}/gamma:0" in names
        assert f"ln/rnn/layer_norm_basic_lstm_cell/{gate}/beta:0" in names
    assert not any(n.endswith("/bias:0") for n in names)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        kernel = sess.run(tf.global_variables()[0])
        got_out, got_state = sess.run([out, state])
    c = np.zeros([2, 5], np.float32)
    h = np.zeros([2, 5], np.float32)
    for t in range(3):
        gates = np.concatenate([xv[:, t], h], 1) @ kernel
        i, j, f, o = [_layer_norm(g, 1.5, 0.1) for g in np.split(gates, 4, axis=1)]
        c = _layer_norm(c * _sigmoid(f + 0.5) + _sigmoid(i) * np.tanh(j), 1.5, 0.1)
        h = np.tanh(c) * _sigmoid(o)
        np.testing.assert_allclose(got_out[:, t], h, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(got_state.c, c, rtol=1e-4, atol=1e-5)


def test_layer_norm_basic_lstm_cell_without_norm_has_bias():
    cell = rnn.LayerNormBasicLSTMCell(3, layer_norm=False)
    tf.nn.dynamic_rnn(cell, tf.zeros([1, 2, 2]), dtype=tf.float32)
    assert _names(tf.global_variables()) == ["rnn/layer_norm_basic_lstm_cell/kernel:0",
                                             "rnn/layer_norm_basic_lstm_cell/bias:0"]


def test_lstm_block_cell_gradients_match_lstm_cell():
    x = tf.constant(_rng([2, 4, 3], 2))
    with tf.variable_scope("a", initializer=tf.glorot_uniform_initializer(seed=5)):
        # (no cell_clip: TF's LSTMBlockCellGrad passes gradients through the clip, which
        # LSTMCell's clip_by_value does not; cases_contrib_rnn_fused.py checks TF's form)
        block = rnn.LSTMBlockCell(4, forget_bias=0.3, use_peephole=True)
        ob, _ = tf.nn.dynamic_rnn(block, x, dtype=tf.float32, sequence_length=[4, 2])
    with tf.variable_scope("b", initializer=tf.glorot_uniform_initializer(seed=5)):
        core = tf.nn.rnn_cell.LSTMCell(4, forget_bias=0.3, use_peepholes=True)
        oc, _ = tf.nn.dynamic_rnn(core, x, dtype=tf.float32, sequence_length=[4, 2])
    assert ob.op.graph.get_operation_by_name("a/rnn/while/lstm_cell/LSTMBlockCell").type \
        == "LSTMBlockCell"
    vb = tf.global_variables()[:5]
    vc = tf.global_variables()[5:]
    # TF 1.15's LSTMBlockCell creates the peepholes i, f, o; LSTMCell f, i, o.
    assert [v.name.split("/")[-1] for v in vb] == ["kernel:0", "bias:0", "w_i_diag:0",
                                                   "w_f_diag:0", "w_o_diag:0"]
    order = [0, 1, 3, 2, 4]
    gb = tf.gradients(tf.reduce_sum(ob * ob), [x] + vb)
    gc = tf.gradients(tf.reduce_sum(oc * oc), [x] + [vc[i] for i in order])
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([tf.assign(b, c) for b, c in zip(vb, [vc[i] for i in order])])
        got_b, got_c = sess.run([gb, gc])
        np.testing.assert_allclose(*sess.run([ob, oc]), rtol=1e-5, atol=1e-6)
    for a, b in zip(got_b, got_c):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-6)


def test_gru_block_cell_names_and_values_match_gru_cell():
    x = tf.constant(_rng([2, 3, 2], 3))
    with tf.variable_scope("block", initializer=tf.glorot_uniform_initializer(seed=6)):
        ob, sb = tf.nn.dynamic_rnn(rnn.GRUBlockCell(3), x, dtype=tf.float32)
    with tf.variable_scope("core", initializer=tf.glorot_uniform_initializer(seed=6)):
        oc, sc = tf.nn.dynamic_rnn(tf.nn.rnn_cell.GRUCell(3), x, dtype=tf.float32)
    block = tf.global_variables()[:4]
    assert [v.name for v in block] == ["block/rnn/gru_cell/w_c:0", "block/rnn/gru_cell/b_ru:0",
                                       "block/rnn/gru_cell/w_ru:0", "block/rnn/gru_cell/b_c:0"]
    # TF's swapped names: `w_c` holds the gates' kernel, `w_ru` the candidate's.
    assert block[0].shape.as_list() == [5, 6] and block[2].shape.as_list() == [5, 3]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([tf.assign(b, c) for b, c in zip(block, tf.global_variables()[4:])])
        np.testing.assert_allclose(*sess.run([ob, oc]), rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError, match="Exactly one of num_units or cell_size"):
        rnn.GRUBlockCell()


def test_projection_and_embedding_wrappers():
    tokens = tf.constant([[1, 2, 0], [3, 3, 1]])
    cell = rnn.OutputProjectionWrapper(
        rnn.InputProjectionWrapper(tf.nn.rnn_cell.GRUCell(4), num_proj=3), output_size=2)
    emb = rnn.EmbeddingWrapper(cell, embedding_classes=5, embedding_size=6)
    assert emb.output_size == 2 and emb.state_size == 4
    steps = tf.unstack(tokens, axis=1)
    with tf.variable_scope("w", initializer=tf.glorot_uniform_initializer(seed=1)):
        outs, state = tf.nn.static_rnn(emb, [tf.reshape(s, [2, 1]) for s in steps],
                                       dtype=tf.float32)
    assert _names(tf.global_variables()) == [
        "w/rnn/embedding_wrapper/embedding:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/input_projection_wrapper/kernel:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/input_projection_wrapper/bias:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/input_projection_wrapper/"
        "gru_cell/gates/kernel:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/input_projection_wrapper/"
        "gru_cell/gates/bias:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/input_projection_wrapper/"
        "gru_cell/candidate/kernel:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/input_projection_wrapper/"
        "gru_cell/candidate/bias:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/kernel:0",
        "w/rnn/embedding_wrapper/output_projection_wrapper/bias:0"]
    values = _run(outs + [state])
    assert [v.shape for v in values] == [(2, 2)] * 3 + [(2, 4)]
    with pytest.raises(ValueError, match="must be > 0"):
        rnn.OutputProjectionWrapper(tf.nn.rnn_cell.GRUCell(2), 0)
    with pytest.raises(TypeError, match="not RNNCell"):
        rnn.InputProjectionWrapper("cell", 2)


def test_output_projection_is_a_dense_layer_on_the_cell_output():
    xv = _rng([2, 3], 4)
    cell = tf.nn.rnn_cell.BasicRNNCell(3)
    wrapped = rnn.OutputProjectionWrapper(cell, 2, activation=tf.nn.relu)
    with tf.variable_scope("p", initializer=tf.glorot_uniform_initializer(seed=2)):
        out, state = wrapped(tf.constant(xv), tf.zeros([2, 3]))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        k, b, w, pb, got, got_state = sess.run(tf.global_variables() + [out, state])
    h = np.tanh(np.concatenate([xv, np.zeros([2, 3], np.float32)], 1) @ k + b)
    np.testing.assert_allclose(got_state, h, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got, np.maximum(h @ w + pb, 0), rtol=1e-5, atol=1e-6)


def test_stack_bidirectional_dynamic_rnn_composes_bidirectional_layers():
    xv = _rng([2, 4, 3], 5)
    cells_fw = [tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.GRUCell(3)]
    cells_bw = [tf.nn.rnn_cell.GRUCell(2), tf.nn.rnn_cell.GRUCell(3)]
    with tf.variable_scope("s", initializer=tf.glorot_uniform_initializer(seed=8)):
        out, states_fw, states_bw = rnn.stack_bidirectional_dynamic_rnn(
            cells_fw, cells_bw, tf.constant(xv), dtype=tf.float32, sequence_length=[4, 3])
    assert out.shape.as_list() == [2, 4, 6]
    assert len(states_fw) == 2 and states_bw[1].shape.as_list() == [2, 3]
    assert "s/stack_bidirectional_rnn/cell_1/bidirectional_rnn/bw/gru_cell/gates/kernel:0" \
        in _names(tf.global_variables())
    # The same computation, composed by hand with the same (shared) cells.
    with tf.variable_scope("s", reuse=True):
        with tf.variable_scope("stack_bidirectional_rnn"):
            with tf.variable_scope("cell_0"):
                (a, b), _ = tf.nn.bidirectional_dynamic_rnn(
                    cells_fw[0], cells_bw[0], tf.constant(xv), dtype=tf.float32,
                    sequence_length=[4, 3])
            with tf.variable_scope("cell_1"):
                (c, d), _ = tf.nn.bidirectional_dynamic_rnn(
                    cells_fw[1], cells_bw[1], tf.concat([a, b], 2), dtype=tf.float32,
                    sequence_length=[4, 3])
    got, ref = _run([out, tf.concat([c, d], 2)])
    np.testing.assert_allclose(got, ref, rtol=1e-6)
    with pytest.raises(ValueError, match="same depth"):
        rnn.stack_bidirectional_dynamic_rnn(cells_fw, cells_bw[:1], tf.constant(xv))


def test_stack_bidirectional_static_rnn():
    xs = [tf.constant(_rng([2, 3], t)) for t in range(3)]
    outs, sfw, sbw = rnn.stack_bidirectional_rnn(
        [tf.nn.rnn_cell.BasicRNNCell(2)], [tf.nn.rnn_cell.BasicRNNCell(2)], xs,
        dtype=tf.float32)
    assert [o.shape.as_list() for o in outs] == [[2, 4]] * 3
    # The layer's scope is passed on as the bidirectional RNN's scope (no
    # "bidirectional_rnn" level, unlike stack_bidirectional_dynamic_rnn).
    assert _names(tf.global_variables())[0] == \
        "stack_bidirectional_rnn/cell_0/fw/basic_rnn_cell/kernel:0"
    assert len(_run(outs)) == 3


# TF 1.15's tf.contrib.rnn (contrib/rnn/__init__.py's @@ list).
_CONTRIB_RNN_NAMES = """RNNCell LayerRNNCell BasicRNNCell BasicLSTMCell GRUCell LSTMCell
LSTMStateTuple DropoutWrapper MultiRNNCell DeviceWrapper ResidualWrapper EmbeddingWrapper
InputProjectionWrapper OutputProjectionWrapper LayerNormBasicLSTMCell LSTMBlockWrapper
LSTMBlockCell GRUBlockCell GRUBlockCellV2 FusedRNNCell FusedRNNCellAdaptor
TimeReversedFusedRNN LSTMBlockFusedCell CoupledInputForgetGateLSTMCell TimeFreqLSTMCell
GridLSTMCell BidirectionalGridLSTMCell NASCell UGRNNCell IntersectionRNNCell PhasedLSTMCell
ConvLSTMCell Conv1DLSTMCell Conv2DLSTMCell Conv3DLSTMCell HighwayWrapper GLSTMCell SRUCell
IndRNNCell IndyGRUCell IndyLSTMCell AttentionCellWrapper CompiledWrapper static_rnn
static_state_saving_rnn static_bidirectional_rnn stack_bidirectional_dynamic_rnn
stack_bidirectional_rnn transpose_batch_time best_effort_input_batch_size""".split()


def test_contrib_rnn_names_and_helpers():
    assert [name for name in _CONTRIB_RNN_NAMES if not hasattr(rnn, name)] == []
    # rnn_cell.py's cells outside the @@ list are not part of tf.contrib.rnn
    with pytest.raises(AttributeError, match="tf.contrib.rnn.NTMCell"):
        rnn.NTMCell  # noqa: B018
    x = tf.placeholder(tf.float32, [2, 5, 3])
    assert rnn.transpose_batch_time(x).shape.as_list() == [5, 2, 3]
    assert rnn.best_effort_input_batch_size([tf.placeholder(tf.float32, [5, 2, 3])]) == 2


# -- Keras: supported and unsupported ----------------------------------------------------------

def test_keras_lstm_dropout_only_in_training():
    x = tf.constant(_rng([2, 3, 4], 6))
    layer = tf.keras.layers.LSTM(3, dropout=0.5, recurrent_dropout=0.5,
                                 kernel_initializer="glorot_uniform")
    train = layer(x, training=True)
    test = layer(x, training=False)
    plain = tf.keras.layers.LSTM(3)
    plain_out = plain(x)
    assert layer.implementation == 1
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run([tf.assign(p, q) for p, q in zip(plain.weights, layer.weights)])
        a, b, c = sess.run([train, test, plain_out])
    np.testing.assert_allclose(b, c, rtol=1e-6)
    assert not np.allclose(a, b)


@pytest.mark.parametrize("make", [
    lambda: tf.keras.layers.CuDNNLSTM(2, time_major=True),
])
def test_keras_unsupported_recurrent_features_say_so(make):
    with pytest.raises(NotImplementedError, match="tf1compat"):
        make()


def test_keras_rnn_layer_reports_shapes_and_states():
    layer = tf.keras.layers.GRU(4, return_sequences=True, return_state=True)
    assert layer.compute_output_shape((2, 5, 3)) == [tf.TensorShape([2, 5, 4]),
                                                     tf.TensorShape([2, 4])]
    assert layer.states == [None]
    with pytest.raises(AttributeError, match="stateful"):
        layer.reset_states()
    config = tf.keras.layers.LSTM(3, return_sequences=True).get_config()
    assert config["units"] == 3 and config["return_sequences"] is True
    assert config["recurrent_activation"] == "hard_sigmoid"


# -- plumbing ---------------------------------------------------------------------------------

def test_internal_import_paths(monkeypatch):
    from tf1compat import shim
    shim.install()
    try:
        from tensorflow.contrib import rnn as contrib_rnn
        from tensorflow.python.ops import rnn as rnn_module
        from tensorflow.python.ops import rnn_cell_impl
        assert contrib_rnn.LSTMBlockCell is tf.contrib.rnn.LSTMBlockCell
        assert rnn_module.dynamic_rnn is tf.nn.dynamic_rnn
        assert rnn_cell_impl.LSTMStateTuple is tf.nn.rnn_cell.LSTMStateTuple
        assert rnn_cell_impl._like_rnncell(tf.nn.rnn_cell.GRUCell(2))
        import tensorflow as shimmed
        assert shimmed.nn.rnn_cell.LSTMCell is tf.nn.rnn_cell.LSTMCell
    finally:
        shim.uninstall()


def test_saver_round_trip_of_rnn_variables(tmp_path):
    x = tf.constant(_rng([2, 3, 2], 7))
    cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(3),
                                        tf.nn.rnn_cell.GRUCell(2)])
    out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32)
    saver = tf.train.Saver()
    path = str(tmp_path / "model.ckpt")
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        before = sess.run(out)
        saver.save(sess, path)
    with tf.Session() as sess:
        saver.restore(sess, path)
        np.testing.assert_array_equal(sess.run(out), before)
    names = [name for name, _ in tf.train.list_variables(path)]
    assert "rnn/multi_rnn_cell/cell_0/lstm_cell/kernel" in names
    assert "rnn/multi_rnn_cell/cell_1/gru_cell/candidate/bias" in names


def test_bench_rnn_smoke():
    """The benchmark runs, and both implementations reach the same loss."""
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "scripts", "bench_rnn.py")
    spec = importlib.util.spec_from_file_location("bench_rnn", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    result = bench.bench_rnn(steps=1, time_steps=5, batch=2, inputs=3, units=4)
    assert result["losses_match"], result
    assert result["ratio"] > 0


@pytest.mark.cuda
@pytest.mark.skipif(not torch.cuda.is_available(), reason="needs CUDA")
def test_cuda_dynamic_rnn_matches_cpu():
    xv = _rng([3, 6, 4], 8)

    def build(device):
        with tf.Graph().as_default() as graph, tf.device(device):
            with tf.variable_scope("m", initializer=tf.glorot_uniform_initializer(seed=1)):
                cell = tf.nn.rnn_cell.MultiRNNCell([tf.nn.rnn_cell.LSTMCell(5),
                                                    tf.nn.rnn_cell.GRUCell(3)])
                x = tf.constant(xv)
                out, _ = tf.nn.dynamic_rnn(cell, x, dtype=tf.float32, sequence_length=[6, 2, 4])
                grads = tf.gradients(tf.reduce_sum(out * out), [x] + tf.trainable_variables())
                keras_out = tf.keras.layers.LSTM(3, return_sequences=True)(x)
            with tf.Session(graph=graph) as sess:
                sess.run(tf.global_variables_initializer())
                weights = sess.run(tf.trainable_variables())
                return sess.run([out, grads]), weights, keras_out
    (out_gpu, grads_gpu), _, _ = build("/gpu:0")
    (out_cpu, grads_cpu), _, _ = build("/cpu:0")
    np.testing.assert_allclose(out_gpu, out_cpu, rtol=1e-4, atol=1e-5)
    for a, b in zip(grads_gpu, grads_cpu):
        np.testing.assert_allclose(a, b, rtol=1e-3, atol=1e-5)
