"""CudnnRNN, CudnnRNNV2, CudnnRNNV3 and CudnnRNNBackprop(V2/V3) (ops/cudnn_rnn_ops.py)
against the equivalent tf.keras LSTM / GRU / SimpleRNN and tf.contrib.cudnn_rnn's
compatible cells (several layers, both directions, projections, skip_input, sequence
lengths, gradients) that real TF computed on the CPU with the same weights
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
with open(os.path.join(FIXTURE, "cells.json")) as _f:
    CELL_SPECS = json.load(_f)
CELLS = np.load(os.path.join(FIXTURE, "cells.npz"))
TOL = dict(rtol=1e-5, atol=1e-5)


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


def _cell_case(name: str) -> dict:
    return {k.split("/", 1)[1]: CELLS[k] for k in CELLS.files if k.startswith(name + "/")}


def _cell_op(op: str, name: str, time_major: bool, **extra):
    """(case arrays, the op's output tensors, the input tensors x, h0, c0, params)."""
    c, spec = _cell_case(name), CELL_SPECS[name]
    x = c["x"] if not time_major else c["x"].transpose(1, 0, 2)
    ins = [tf.constant(x), tf.constant(c["h0"]),
           tf.constant(c["c0"] if spec["rnn_mode"] == "lstm" else np.zeros(0, np.float32)),
           tf.constant(c["params"])]
    attrs = {"rnn_mode": spec["rnn_mode"], "direction": spec["direction"],
             "input_mode": spec["input_mode"], **extra}
    if op == "CudnnRNNV3":
        attrs.update(sequence_lengths=tf.constant(c["lengths"]), time_major=time_major,
                     num_proj=spec["num_proj"])
    outs = getattr(tf.raw_ops, op)(input=ins[0], input_h=ins[1], input_c=ins[2],
                                   params=ins[3], **attrs)
    return c, outs, ins


def _check_forward(c: dict, got: list, lstm: bool, time_major: bool) -> None:
    out = got[0].transpose(1, 0, 2) if time_major else got[0]
    np.testing.assert_allclose(out, c["output"], **TOL)
    np.testing.assert_allclose(got[1], c["h"], **TOL)
    if lstm:
        np.testing.assert_allclose(got[2], c["c"], **TOL)


@pytest.mark.parametrize("name", sorted(CELL_SPECS))
def test_cudnn_rnn_v3_batch_major_computes_what_the_compatible_cells_compute(name):
    """Several layers, bidirectional, num_proj, skip_input, lengths 5, 2, 0 (past a
    length the outputs are zeros and the state stays, in TF's dynamic_rnn as in cuDNN)."""
    with tf.Graph().as_default():
        c, outs, _ = _cell_op("CudnnRNNV3", name, time_major=False)
        with tf.Session() as sess:
            got = sess.run(list(outs[:3]))
    _check_forward(c, got, CELL_SPECS[name]["rnn_mode"] == "lstm", time_major=False)


@pytest.mark.parametrize("op", ["CudnnRNN", "CudnnRNNV2"])
@pytest.mark.parametrize("name", sorted(n for n, s in CELL_SPECS.items()
                                        if not s["lengths"] and not s["num_proj"]))
def test_cudnn_rnn_time_major_computes_what_the_compatible_cells_compute(op, name):
    with tf.Graph().as_default():
        c, outs, _ = _cell_op(op, name, time_major=True)
        with tf.Session() as sess:
            got = sess.run(list(outs[:3]))
    _check_forward(c, got, CELL_SPECS[name]["rnn_mode"] == "lstm", time_major=True)


def test_auto_select_is_skip_input_when_the_input_is_num_units_wide():
    with tf.Graph().as_default():
        c, outs, _ = _cell_op("CudnnRNN", "lstm_skip", True, input_mode="auto_select")
        with tf.Session() as sess:
            got = sess.run(list(outs[:3]))
    _check_forward(c, got, True, time_major=True)


def test_skip_input_needs_an_input_as_wide_as_the_units():
    c = _case("lstm")            # input 4, units 3
    with pytest.raises(tf.errors.InvalidArgumentError, match="skip_input needs input_size"):
        _run("CudnnRNN", c, "lstm", input_mode="skip_input")


def _grad_inputs(c: dict, lstm: bool) -> list:
    return [tf.constant(c["g_out"]), tf.constant(c["g_h"]),
            tf.constant(c["g_c"] if lstm else np.zeros(0, np.float32))]


def _check_grads(c: dict, got: list, lstm: bool) -> None:
    names = ["dx", "dh0", "dc0", "dparams"]
    for k, (g, name) in enumerate(zip(got, names)):
        if name == "dc0" and not lstm:
            continue
        np.testing.assert_allclose(g, c[name], rtol=1e-4, atol=1e-5, err_msg=name)


@pytest.mark.parametrize("name", sorted(n for n, s in CELL_SPECS.items() if s["gradients"]))
def test_gradients_are_tfs_gradients_of_the_compatible_cells(name):
    """d(sum(output * g_out) + sum(h * g_h) + sum(c * g_c)) by the input, the initial
    states and the opaque params (TF's gradient of the canonical weights, packed)."""
    lstm = CELL_SPECS[name]["rnn_mode"] == "lstm"
    with tf.Graph().as_default():
        c, outs, ins = _cell_op("CudnnRNNV3", name, time_major=False)
        g_out, g_h, g_c = _grad_inputs(c, lstm)
        loss = tf.reduce_sum(outs[0] * g_out) + tf.reduce_sum(outs[1] * g_h)
        if lstm:
            loss += tf.reduce_sum(outs[2] * g_c)
        grads = tf.gradients(loss, ins if lstm else [ins[0], ins[1], ins[3]])
        with tf.Session() as sess:
            got = sess.run(grads)
    if not lstm:
        got.insert(2, None)
    _check_grads(c, got, lstm)


@pytest.mark.parametrize("name", sorted(n for n, s in CELL_SPECS.items() if s["gradients"]))
def test_cudnn_rnn_backprop_v3_as_an_imported_training_graph_runs_it(name):
    """TF's gradient of CudnnRNNV3 is a CudnnRNNBackpropV3 node fed the forward outputs
    and reserve space: tf1compat recomputes the forward pass for its vector-Jacobian
    product."""
    spec = CELL_SPECS[name]
    lstm = spec["rnn_mode"] == "lstm"
    with tf.Graph().as_default():
        c, outs, ins = _cell_op("CudnnRNNV3", name, time_major=False)
        grads = tf.raw_ops.CudnnRNNBackpropV3(
            input=ins[0], input_h=ins[1], input_c=ins[2], params=ins[3],
            sequence_lengths=tf.constant(c["lengths"]), output=outs[0], output_h=outs[1],
            output_c=outs[2], output_backprop=_grad_inputs(c, lstm)[0],
            output_h_backprop=_grad_inputs(c, lstm)[1],
            output_c_backprop=_grad_inputs(c, lstm)[2], reserve_space=outs[3],
            host_reserved=outs[4], rnn_mode=spec["rnn_mode"], direction=spec["direction"],
            num_proj=spec["num_proj"], time_major=False)
        assert grads[0].op.type == "CudnnRNNBackpropV3"
        with tf.Session() as sess:
            got = sess.run(list(grads))
    _check_grads(c, got, lstm)


@pytest.mark.parametrize("op", ["CudnnRNNBackprop", "CudnnRNNBackpropV2"])
def test_cudnn_rnn_backprop_time_major(op):
    """V1/V2 backprops (time-major, no lengths) against the V3 one's gradients, which the
    test above checks against TF: lengths 5, 5, 5 here, on the full-length GRU case."""
    name = "gru_bidi_2layers"
    spec = CELL_SPECS[name]
    with tf.Graph().as_default():
        c, outs, ins = _cell_op("CudnnRNN" if op == "CudnnRNNBackprop" else "CudnnRNNV2",
                                name, time_major=True)
        g_out = tf.constant(np.ones(outs[0].shape.as_list(), np.float32))
        args = dict(input=ins[0], input_h=ins[1], input_c=ins[2], params=ins[3],
                    output=outs[0], output_h=outs[1], output_c=outs[2],
                    output_backprop=g_out, output_h_backprop=tf.ones_like(ins[1]),
                    output_c_backprop=ins[2], reserve_space=outs[3],
                    rnn_mode="gru", direction=spec["direction"])
        if op == "CudnnRNNBackpropV2":
            args["host_reserved"] = outs[4]
        grads = getattr(tf.raw_ops, op)(**args)
        expected = tf.gradients(tf.reduce_sum(outs[0]) + tf.reduce_sum(outs[1]),
                                [ins[0], ins[1], ins[3]])
        with tf.Session() as sess:
            got, want = sess.run([[grads[0], grads[1], grads[3]], expected])
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    assert np.abs(got[2]).sum() > 0


def _two_layer_tanh(x: np.ndarray, op: str = "CudnnRNN", **attrs):
    """A 2-layer rnn_tanh network without recurrence (R = 0, biases 0): layer 0 computes
    tanh(2 x), layer 1 tanh(its input), so each output element is tanh(tanh(2 x)) or,
    where dropout zeroed layer 1's input, tanh(0) = 0; (outputs, inputs x, h0, params)."""
    units = x.shape[-1]
    eye = np.eye(units, dtype=np.float32).ravel()
    zeros = np.zeros(units * units, np.float32)
    bias = np.zeros(2 * units, np.float32)
    params = np.concatenate([2 * eye, zeros, bias, eye, zeros, bias])
    ins = [tf.constant(x), tf.zeros([2, x.shape[1], units]), tf.constant(0.0),
           tf.constant(params)]
    outs = getattr(tf.raw_ops, op)(input=ins[0], input_h=ins[1], input_c=ins[2],
                                   params=ins[3], rnn_mode="rnn_tanh", **attrs)
    return outs, ins


_X = np.cos(np.arange(5 * 40 * 8, dtype=np.float32)).reshape(5, 40, 8) * 0.8 + 0.1


def test_dropout_between_layers_in_training_drops_as_cudnn():
    """cuDNN's dropout (TF 1.15: between layers, training only): each element of layer
    1's input is zeroed with probability `dropout`, the others scaled by 1 / (1 - p);
    layer 0 is untouched. tf1compat's masks are its own numbers (cuDNN's GPU generator
    is not reproducible): the op's seeded stream, new masks each run, the same sequence
    in a new session."""
    p = 0.4
    kept = np.tanh(np.tanh(2 * _X) / (1 - p))
    with tf.Graph().as_default():
        outs, _ = _two_layer_tanh(_X, dropout=p, seed=3, seed2=7)
        runs = []
        for _ in range(2):
            with tf.Session() as sess:
                runs.append([sess.run([outs[0], outs[1]]) for _ in range(2)])
    (out, h), (out2, _) = runs[0]
    dropped = out == 0
    assert abs(dropped.mean() - p) < 0.05
    np.testing.assert_allclose(out[~dropped], kept[~dropped], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(h[0], np.tanh(2 * _X[-1]), rtol=1e-5, atol=1e-6)
    assert (out2 != out).any()                      # new masks each run
    for a, b in zip(runs[0], runs[1]):              # the same sequence in a new session
        np.testing.assert_array_equal(a[0], b[0])


def test_dropout_between_layers_gradients_use_the_forward_masks():
    """The backprop op recomputes the forward pass with the masks the forward op wrote
    into its reserve_space: its gradients equal autograd's through that same run."""
    with tf.Graph().as_default():
        outs, ins = _two_layer_tanh(_X, "CudnnRNNV2", dropout=0.5, seed=1, seed2=2)
        assert outs[3].op.type == "CudnnRNNV2"
        g_out = tf.constant(np.cos(np.arange(_X.size, dtype=np.float32)).reshape(_X.shape))
        grads = tf.raw_ops.CudnnRNNBackpropV2(
            input=ins[0], input_h=ins[1], input_c=ins[2], params=ins[3], output=outs[0],
            output_h=outs[1], output_c=outs[2], output_backprop=g_out,
            output_h_backprop=tf.zeros_like(ins[1]), output_c_backprop=ins[2],
            reserve_space=outs[3], host_reserved=outs[4], rnn_mode="rnn_tanh",
            dropout=0.5, seed=1, seed2=2)
        expected = tf.gradients(tf.reduce_sum(outs[0] * g_out), [ins[0], ins[3]])
        with tf.Session() as sess:
            got, want, reserve = sess.run([[grads[0], grads[3]], expected, outs[3]])
    assert reserve.size == _X.size and set(np.unique(reserve)) == {0.0, 2.0}
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("name,attrs", [("gru_2layers", {"dropout": 0.5,
                                                          "is_training": False}),
                                        ("gru", {"dropout": 0.5})])
def test_dropout_without_an_effect_runs(name, attrs):
    """In inference, and with one layer (cuDNN drops between layers only), dropout does
    nothing."""
    with tf.Graph().as_default():
        if name == "gru":
            out, _, _ = _run("CudnnRNN", _case("gru"), "gru", **attrs)
            np.testing.assert_allclose(out, _case("gru")["output"], **TOL)
            return
        c, outs, _ = _cell_op("CudnnRNN", name, True, **attrs)
        with tf.Session() as sess:
            got = sess.run(list(outs[:3]))
    _check_forward(c, got, False, time_major=True)


def test_a_state_that_does_not_match_the_directions_is_an_invalid_argument():
    with tf.Graph().as_default():
        c = _cell_case("gru_bidi_2layers")
        outs = tf.raw_ops.CudnnRNN(
            input=tf.constant(c["x"].transpose(1, 0, 2)), input_h=tf.constant(c["h0"][:3]),
            input_c=tf.constant(0.0), params=tf.constant(c["params"]), rnn_mode="gru",
            direction="bidirectional")
        with tf.Session() as sess, pytest.raises(tf.errors.InvalidArgumentError,
                                                 match="multiple of the 2 directions"):
            sess.run(outs[0])


def test_a_tf_training_graph_of_cudnn_rnn_v3_imports_and_trains():
    """TF's meta graph (built by TF, which runs it only on a GPU): its gradient is a
    CudnnRNNBackpropV3 node fed the forward op's reserve space; one GradientDescent step
    moves the params by 0.1 times TF's gradient of the compatible cells."""
    c = _cell_case("lstm_bidi_2layers_lengths")
    with tf.Graph().as_default() as g:
        tf.train.import_meta_graph(os.path.join(FIXTURE, "train_v3.meta"))
        assert "CudnnRNNBackpropV3" in {op.type for op in g.get_operations()}
        params = [v for v in tf.global_variables() if v.op.name == "opaque_kernel"][0]
        train = tf.get_collection("train_op")[0]
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            loss = sess.run("loss:0")
            sess.run(train)
            after = sess.run(params)
    want = np.sum(c["output"] * c["g_out"]) + np.sum(c["h"] * c["g_h"]) + \
        np.sum(c["c"] * c["g_c"])
    np.testing.assert_allclose(loss, want, rtol=1e-5)
    np.testing.assert_allclose(after, c["params"] - 0.1 * c["dparams"], rtol=1e-5,
                               atol=1e-5)
