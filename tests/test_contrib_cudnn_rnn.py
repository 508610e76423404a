"""tf.contrib.cudnn_rnn (tf1compat/contrib/cudnn_rnn): the layers compute what TF's
compatible cells compute, and checkpoints move between the two both ways — a TF
checkpoint of MultiRNNCell / stack_bidirectional_dynamic_rnn of CudnnCompatibleLSTMCell
(GRUCell, BasicRNNCell) restores into CudnnLSTM (CudnnGRU, CudnnRNNTanh, CudnnRNNRelu),
and what the layer saves restores into tf1compat's compatible cells. TF's numbers and
checkpoints: scripts/record_cudnn_rnn.py (TF 2's compatible-cell math: TF has no CPU
kernel for the cuDNN layers themselves)."""

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
TOL = dict(rtol=1e-5, atol=1e-5)
LAYERS = {"lstm": "CudnnLSTM", "gru": "CudnnGRU", "rnn_tanh": "CudnnRNNTanh",
          "rnn_relu": "CudnnRNNRelu"}
SCOPES = {"lstm": "cudnn_lstm", "gru": "cudnn_gru", "rnn_tanh": "cudnn_rnn_tanh",
          "rnn_relu": "cudnn_rnn_relu"}
# The layers have no projection; a skip_input layer's canonical kernels have no input rows.
CASES = sorted(n for n, s in SPECS.items()
               if not s["num_proj"] and s["input_mode"] == "linear_input")


def _case(name: str) -> dict:
    return {k.split("/", 1)[1]: CELLS[k] for k in CELLS.files if k.startswith(name + "/")}


def _ckpt(name: str) -> str:
    return os.path.join(FIXTURE, f"ckpt_{name}", "model")


def _layer_graph(name: str, time_major: bool = False):
    """A cuDNN layer on the case's input: (layer, outputs, states)."""
    spec, c = SPECS[name], _case(name)
    layer = getattr(tf.contrib.cudnn_rnn, LAYERS[spec["rnn_mode"]])(
        spec["num_layers"], spec["num_units"], direction=spec["direction"],
        input_mode=spec["input_mode"])
    x = c["x"].transpose(1, 0, 2) if time_major else c["x"]
    state = (tf.constant(c["h0"]), tf.constant(c["c0"])) if spec["rnn_mode"] == "lstm" \
        else (tf.constant(c["h0"]),)
    lengths = tf.constant(c["lengths"]) if spec["lengths"] else None
    outputs, states = layer(tf.constant(x), initial_state=state, sequence_lengths=lengths,
                            time_major=time_major)
    return layer, outputs, states


def _check(name: str, out, states, time_major: bool = False) -> None:
    c = _case(name)
    np.testing.assert_allclose(out.transpose(1, 0, 2) if time_major else out, c["output"],
                               **TOL)
    np.testing.assert_allclose(states[0], c["h"], **TOL)
    if SPECS[name]["rnn_mode"] == "lstm":
        np.testing.assert_allclose(states[1], c["c"], **TOL)


@pytest.mark.parametrize("name", CASES)
def test_a_tf_checkpoint_of_the_compatible_cells_restores_into_the_cudnn_layer(name):
    time_major = not SPECS[name]["lengths"]
    with tf.Graph().as_default():
        layer, outputs, states = _layer_graph(name, time_major)
        saver = tf.train.Saver([layer.saveable])
        with tf.Session() as sess:
            saver.restore(sess, _ckpt(name))
            out, st = sess.run([outputs, states])
    _check(name, out, st, time_major)


def _compatible_graph(name: str):
    """tf1compat's compatible cells as TF 1.15's docs build them for a cuDNN checkpoint,
    in the variable scope of the cuDNN layer (its saveable's prefix)."""
    spec = SPECS[name]
    with tf.variable_scope(SCOPES[spec["rnn_mode"]]):
        return _compatible_cells(name)


def _compatible_cells(name: str):
    spec, c = SPECS[name], _case(name)
    mode, layers = spec["rnn_mode"], spec["num_layers"]

    def cell():
        if mode == "lstm":
            return tf.contrib.cudnn_rnn.CudnnCompatibleLSTMCell(spec["num_units"])
        if mode == "gru":
            return tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell(spec["num_units"])
        return tf.nn.rnn_cell.BasicRNNCell(
            spec["num_units"], activation=tf.tanh if mode == "rnn_tanh" else tf.nn.relu)

    def state(p):
        if mode == "lstm":
            return tf.nn.rnn_cell.LSTMStateTuple(tf.constant(c["c0"][p]),
                                                 tf.constant(c["h0"][p]))
        return tf.constant(c["h0"][p])

    lengths = tf.constant(c["lengths"]) if spec["lengths"] else None
    x = tf.constant(c["x"])
    if spec["direction"] == "unidirectional":
        multi = tf.nn.rnn_cell.MultiRNNCell([cell() for _ in range(layers)])
        out, finals = tf.nn.dynamic_rnn(multi, x, sequence_length=lengths,
                                        initial_state=tuple(state(p) for p in range(layers)))
    else:
        out, fw, bw = tf.contrib.rnn.stack_bidirectional_dynamic_rnn(
            [cell() for _ in range(layers)], [cell() for _ in range(layers)], x,
            initial_states_fw=[state(2 * k) for k in range(layers)],
            initial_states_bw=[state(2 * k + 1) for k in range(layers)],
            sequence_length=lengths)
        finals = [s for pair in zip(fw, bw) for s in pair]
    if mode == "lstm":
        return out, (tf.stack([s.h for s in finals]), tf.stack([s.c for s in finals]))
    return out, (tf.stack(list(finals)),)


@pytest.mark.parametrize("name", CASES)
def test_the_compatible_cells_read_tfs_checkpoint_and_compute_tfs_numbers(name):
    with tf.Graph().as_default():
        out, states = _compatible_graph(name)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, _ckpt(name))
            got = sess.run([out, states])
    _check(name, *got)


@pytest.mark.parametrize("name", CASES)
def test_a_cudnn_layers_checkpoint_restores_into_the_compatible_cells(name, tmp_path):
    """The layer's default Saver writes its opaque params and the canonical weights (as
    TF's, whose saveable joins SAVEABLE_OBJECTS); the compatible cells read the latter."""
    prefix = str(tmp_path / "cudnn")
    with tf.Graph().as_default():
        layer, _, _ = _layer_graph(name)
        with tf.Session() as sess:
            tf.train.Saver([layer.saveable]).restore(sess, _ckpt(name))
            tf.train.Saver().save(sess, prefix)
    keys = {k for k, _ in tf.train.list_variables(prefix)}
    tf_keys = {k for k, _ in tf.train.list_variables(_ckpt(name))}
    assert keys == tf_keys | {layer.kernel.op.name}
    with tf.Graph().as_default():
        out, states = _compatible_graph(name)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)
            got = sess.run([out, states])
    _check(name, *got)
    reader = tf.train.load_checkpoint(prefix)
    tf_reader = tf.train.load_checkpoint(_ckpt(name))
    for key in tf_keys:
        np.testing.assert_allclose(reader.get_tensor(key), tf_reader.get_tensor(key),
                                   rtol=1e-6, atol=1e-6, err_msg=key)


def test_layer_variables_names_and_states():
    with tf.Graph().as_default():
        layer = tf.contrib.cudnn_rnn.CudnnLSTM(2, 3, direction="bidirectional")
        out, (h, c) = layer(tf.zeros([5, 2, 4]))
        assert [v.op.name for v in tf.global_variables()] == ["cudnn_lstm/opaque_kernel"]
        assert layer.trainable_variables == [layer.kernel]
        assert out.shape.as_list() == [5, 2, 6] and h.shape.as_list()[0] == 4
        assert layer.canonical_weight_shapes[:8] == [(3, 4)] * 4 + [(3, 3)] * 4
        assert layer.canonical_weight_shapes[16:20] == [(3, 6)] * 4
        assert layer.saveable.name == "cudnn_lstm/opaque_kernel_saveable"
        assert tf.get_collection(tf.GraphKeys.SAVEABLE_OBJECTS) == [layer.saveable]
        size = tf.contrib.cudnn_rnn.cudnn_rnn_ops.cudnn_rnn_opaque_params_size(
            "lstm", 2, 3, 4, direction="bidirectional")
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            params, n, got_h = sess.run([layer.kernel, size, h])
    assert params.shape == (n,) and n == 2 * (4 * 3 * 4 + 4 * 3 * 3 + 8 * 3) + \
        2 * (4 * 3 * 6 + 4 * 3 * 3 + 8 * 3)
    assert not got_h.any()          # zero input, zero state, zero biases


def test_gru_trains_and_the_skip_input_layer_round_trips(tmp_path):
    """A skip_input CudnnGRU trains with GradientDescent; its checkpoint restores into a
    new layer with the same numbers."""
    x = np.random.RandomState(0).uniform(-1, 1, (4, 2, 3)).astype(np.float32)
    prefix = str(tmp_path / "gru")
    with tf.Graph().as_default():
        tf.set_random_seed(1)
        layer = tf.contrib.cudnn_rnn.CudnnGRU(2, 3, input_mode="skip_input")
        out, _ = layer(tf.constant(x))
        loss = tf.reduce_sum(tf.square(out - 0.5))
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            first = sess.run(loss)
            for _ in range(5):
                sess.run(train)
            last, trained = sess.run([loss, out])
            tf.train.Saver([layer.saveable]).save(sess, prefix)
    assert last < first
    with tf.Graph().as_default():
        layer = tf.contrib.cudnn_rnn.CudnnGRU(2, 3, input_mode="skip_input")
        out, _ = layer(tf.constant(x))
        with tf.Session() as sess:
            tf.train.Saver([layer.saveable]).restore(sess, prefix)
            np.testing.assert_allclose(sess.run(out), trained, rtol=1e-6, atol=1e-6)
    assert dict(tf.train.list_variables(prefix))[
        "cudnn_gru/rnn/multi_rnn_cell/cell_0/cudnn_compatible_gru_cell/gates/kernel"] == [3, 6]


def test_functional_cudnn_lstm_and_the_converter():
    """cudnn_rnn_ops.cudnn_lstm on params from the LSTM converter of TF's canonical
    weights (read from TF's checkpoint) computes TF's numbers."""
    name = "lstm_bidi"
    c = _case(name)
    reader = tf.train.load_checkpoint(_ckpt(name))
    ops = tf.contrib.cudnn_rnn.cudnn_rnn_ops
    prefix = ("cudnn_lstm/stack_bidirectional_rnn/cell_0/bidirectional_rnn/{}/"
              "cudnn_compatible_lstm_cell/")
    canon = [reader.get_tensor(prefix.format(d) + "kernel") for d in ("fw", "bw")] + \
        [reader.get_tensor(prefix.format(d) + "bias") for d in ("fw", "bw")]
    with tf.Graph().as_default():
        conv = tf.contrib.cudnn_rnn.CudnnParamsFormatConverterLSTM(
            1, 3, 4, direction="bidirectional")
        params = conv.tf_canonical_to_opaque([tf.constant(t) for t in canon])
        out, h, cell = ops.cudnn_lstm(tf.constant(c["x"].transpose(1, 0, 2)),
                                      tf.constant(c["h0"]), tf.constant(c["c0"]), params,
                                      is_training=False, direction="bidirectional")
        assert out.op.type == "CudnnRNN"
        back_w, back_b = conv.opaque_to_tf_canonical(params)
        with tf.Session() as sess:
            got = sess.run([out, h, cell, back_w, back_b])
    _check(name, got[0], got[1:3], time_major=True)
    for g, want in zip(got[3] + got[4], canon):
        np.testing.assert_allclose(g, want, rtol=1e-6, atol=1e-6)


def test_dropout_applies_in_training_only():
    """cuDNN drops between layers in training (ops/cudnn_rnn_ops.py: the distribution,
    not TF's GPU numbers); inference computes without dropout."""
    with tf.Graph().as_default():
        tf.set_random_seed(4)
        layer = tf.contrib.cudnn_rnn.CudnnLSTM(2, 3, dropout=0.3)
        x = tf.constant(np.cos(np.arange(4 * 2 * 3, dtype=np.float32)).reshape(4, 2, 3))
        train_out, _ = layer(x)
        infer_out, _ = layer(x, training=False)
        assert train_out.op.get_attr("is_training") is True
        assert train_out.op.get_attr("dropout") == pytest.approx(0.3)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            infer = sess.run(infer_out)
            trained = [sess.run(train_out) for _ in range(4)]
    assert infer.shape == (4, 2, 3)
    assert all(np.abs(t - infer).max() > 1e-4 for t in trained)


def test_invalid_arguments_raise_as_tf():
    with pytest.raises(ValueError, match="Invalid direction"):
        tf.contrib.cudnn_rnn.CudnnLSTM(1, 3, direction="both")
    with pytest.raises(ValueError, match="Invalid input_mode"):
        tf.contrib.cudnn_rnn.CudnnGRU(1, 3, input_mode="linear")
    with tf.Graph().as_default():
        layer = tf.contrib.cudnn_rnn.CudnnRNNTanh(1, 3)
        with pytest.raises(TypeError, match="expecting tuple"):
            layer(tf.zeros([2, 2, 3]), initial_state=[tf.zeros([1, 2, 3])])


def test_the_ops_modules_model_class_with_a_projection():
    """TF 1.15's cudnn_rnn_ops.CudnnLSTM model with num_proj: params from the
    cuDNN-canonical weights (CudnnRNNCanonicalToParamsV2), the V3 op with lengths, and
    back (CudnnRNNParamsToCanonicalV2), against TF's LSTMCell(num_proj) numbers."""
    name = "lstm_proj_bidi_2layers"
    c = _case(name)
    weights = [c[k] for k in sorted((k for k in c if k.startswith("cu_w")),
                                    key=lambda k: int(k[4:]))]
    biases = [c[k] for k in sorted((k for k in c if k.startswith("cu_b")),
                                   key=lambda k: int(k[4:]))]
    with tf.Graph().as_default():
        model = tf.contrib.cudnn_rnn.cudnn_rnn_ops.CudnnLSTM(
            2, 4, 3, direction="bidirectional", num_proj=2)
        params = model.canonical_to_params([w.reshape(-1) for w in weights], biases)
        out, h, cell = model(tf.constant(c["x"]), tf.constant(c["h0"]), tf.constant(c["c0"]),
                             params, sequence_lengths=tf.constant(c["lengths"]),
                             time_major=False)
        back_w, back_b = model.params_to_canonical(params)
        assert out.op.type == "CudnnRNNV3" and back_w[0].op.type.endswith("V2")
        with tf.Session() as sess:
            got = sess.run([out, h, cell, params, model.params_size(), back_w, back_b])
    _check(name, got[0], got[1:3])
    np.testing.assert_array_equal(got[3], c["params"])
    assert got[4] == c["params"].size
    for g, want in zip(got[5] + got[6], weights + biases):
        np.testing.assert_array_equal(g, want)


def test_object_based_checkpoints_of_the_layers_name_the_limit(tmp_path):
    with tf.Graph().as_default():
        layer = tf.contrib.cudnn_rnn.CudnnGRU(1, 3)
        layer(tf.zeros([2, 1, 3]))
        ckpt = tf.train.Checkpoint(rnn=layer)
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            with pytest.raises(NotImplementedError, match="object-based checkpoints"):
                ckpt.save(str(tmp_path / "ckpt"), session=sess)


def test_a_default_saver_restores_the_layer_from_its_own_checkpoint(tmp_path):
    """The default Saver restores both entries it wrote (the opaque params and, through
    the saveable, the canonical weights): the layer computes what it computed."""
    name = "lstm_bidi_2layers_grads"
    prefix = str(tmp_path / "cudnn")
    with tf.Graph().as_default():
        layer, outputs, _ = _layer_graph(name)
        with tf.Session() as sess:
            tf.train.Saver([layer.saveable]).restore(sess, _ckpt(name))
            tf.train.Saver().save(sess, prefix)
    with tf.Graph().as_default():
        _, outputs, states = _layer_graph(name)
        with tf.Session() as sess:
            tf.train.Saver().restore(sess, prefix)
            got = sess.run([outputs, states])
    _check(name, *got)
