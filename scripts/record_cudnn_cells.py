"""Part 2 of scripts/record_cudnn_rnn.py (run that one, with the TF oracle): the CudnnRNN
cases of several layers, both directions, projections, skip_input, every rnn_mode,
sequence lengths and gradients, computed by tf.contrib.cudnn_rnn's compatible cells in
real TF; writes cells.npz, cells.json and ckpt_<case>/ into the fixture folder.
"""

from __future__ import annotations

import json
import os
import shutil
from typing import Dict, List, Tuple

import numpy as np
import tensorflow.compat.v1 as tf

BATCH, STEPS = 3, 5
RNG = np.random.RandomState(11)

# name: (rnn_mode, layers, bidirectional, units, input size, num_proj, skip_input,
#        sequence lengths, gradients)
CASES = {
    "lstm_2layers": ("lstm", 2, False, 3, 4, 0, False, False, False),
    "gru_2layers": ("gru", 2, False, 3, 4, 0, False, False, False),
    "rnn_tanh_2layers": ("rnn_tanh", 2, False, 3, 4, 0, False, False, False),
    "rnn_relu_2layers": ("rnn_relu", 2, False, 3, 4, 0, False, False, False),
    "lstm_bidi": ("lstm", 1, True, 3, 4, 0, False, False, False),
    "lstm_bidi_2layers_lengths": ("lstm", 2, True, 3, 4, 0, False, True, True),
    "gru_bidi_2layers": ("gru", 2, True, 3, 4, 0, False, False, False),
    "gru_bidi_lengths": ("gru", 1, True, 3, 4, 0, False, True, True),
    "rnn_tanh_bidi_2layers": ("rnn_tanh", 2, True, 3, 4, 0, False, False, False),
    "rnn_relu_bidi": ("rnn_relu", 1, True, 3, 4, 0, False, True, False),
    "lstm_proj": ("lstm", 1, False, 4, 3, 2, False, False, False),
    "lstm_proj_bidi_2layers": ("lstm", 2, True, 4, 3, 2, False, True, True),
    "lstm_skip": ("lstm", 2, False, 3, 3, 0, True, False, False),
    "gru_skip_bidi": ("gru", 2, True, 3, 3, 0, True, False, False),
    "rnn_relu_skip": ("rnn_relu", 1, False, 3, 3, 0, True, False, False),
    "lstm_bidi_2layers_grads": ("lstm", 2, True, 3, 4, 0, False, False, True),
    "lstm_proj_grads": ("lstm", 1, False, 4, 3, 2, False, False, True),
    "rnn_tanh_2layers_grads": ("rnn_tanh", 2, False, 3, 4, 0, False, False, True),
}
LAYER_SCOPES = {"lstm": "cudnn_lstm", "gru": "cudnn_gru", "rnn_tanh": "cudnn_rnn_tanh",
                "rnn_relu": "cudnn_rnn_relu"}


class CudnnCompatibleGRUCell(tf.nn.rnn_cell.GRUCell):
    """TF 1.15's tf.contrib.cudnn_rnn.CudnnCompatibleGRUCell (contrib/cudnn_rnn/python/ops/
    cudnn_rnn_ops.py), unchanged but for TF 2's Dimension access."""

    def __init__(self, num_units, reuse=None, kernel_initializer=None):
        super().__init__(num_units, activation=None, reuse=reuse,
                         kernel_initializer=kernel_initializer)

    def build(self, inputs_shape):
        input_depth = tf.dimension_value(inputs_shape[1])
        self._gate_kernel = self.add_weight(
            "gates/kernel", shape=[input_depth + self._num_units, 2 * self._num_units])
        self._gate_bias = self.add_weight("gates/bias", shape=[2 * self._num_units])
        self._candidate_input_kernel = self.add_weight(
            "candidate/input_projection/kernel", shape=[input_depth, self._num_units])
        self._candidate_hidden_kernel = self.add_weight(
            "candidate/hidden_projection/kernel", shape=[self._num_units, self._num_units])
        self._candidate_input_bias = self.add_weight(
            "candidate/input_projection/bias", shape=[self._num_units])
        self._candidate_hidden_bias = self.add_weight(
            "candidate/hidden_projection/bias", shape=[self._num_units])
        self.built = True

    def call(self, inputs, state):
        gate_inputs = tf.matmul(tf.concat([inputs, state], 1), self._gate_kernel)
        gate_inputs = tf.nn.bias_add(gate_inputs, self._gate_bias)
        value = tf.sigmoid(gate_inputs)
        r, u = tf.split(value=value, num_or_size_splits=2, axis=1)
        candidate = tf.nn.bias_add(tf.matmul(inputs, self._candidate_input_kernel),
                                   self._candidate_input_bias)
        candidate += r * tf.nn.bias_add(tf.matmul(state, self._candidate_hidden_kernel),
                                        self._candidate_hidden_bias)
        candidate = tf.tanh(candidate)
        new_h = (1 - u) * candidate + u * state
        return new_h, new_h


def _cell(mode: str, units: int, proj: int):
    if mode == "lstm":
        # CudnnCompatibleLSTMCell is LSTMBlockCell(forget_bias=0): LSTMCell's math, layout
        # (kernel [input + h, 4u] in i, c, f, o order) and, so named, its variable names.
        return tf.nn.rnn_cell.LSTMCell(units, forget_bias=0.0, num_proj=proj or None,
                                       name="cudnn_compatible_lstm_cell")
    if mode == "gru":
        return CudnnCompatibleGRUCell(units)
    return tf.nn.rnn_cell.BasicRNNCell(units, activation=tf.tanh if mode == "rnn_tanh"
                                       else tf.nn.relu)


def _state(mode: str, h: tf.Tensor, c: tf.Tensor):
    return tf.nn.rnn_cell.LSTMStateTuple(c, h) if mode == "lstm" else h


def _unstate(mode: str, state) -> Tuple[tf.Tensor, tf.Tensor]:
    return (state.h, state.c) if mode == "lstm" else (state, tf.zeros([0]))


# -- TF 1.15's CudnnParamsFormatConverter{LSTM,GRU,Basic}._tf_canonical_to_cu_canonical
def _tf_to_cu(mode: str, layers: int, dirs: int, units: int, input_size: int, proj: int,
              weights: List[np.ndarray], biases: List[np.ndarray], projs: List[np.ndarray]
              ) -> Tuple[List[np.ndarray], List[np.ndarray]]:
    per_w = len(weights) // (layers * dirs)
    per_b = len(biases) // (layers * dirs)
    cu_w, cu_b = [], []
    for layer in range(layers):
        width = input_size if layer == 0 else (proj or units) * dirs
        for d in range(dirs):
            p = layer * dirs + d
            ws = weights[p * per_w:(p + 1) * per_w]
            bs = biases[p * per_b:(p + 1) * per_b]
            if mode == "lstm":
                w = ws[0].T
                gi, gc, gf, go = np.split(w, 4, axis=0)
                parts = [np.split(g, [width], axis=1) for g in (gi, gf, gc, go)]
                cu_w += [x[0] for x in parts] + [x[1] for x in parts]
                if proj:
                    cu_w.append(projs[p].T)
                bi, bc, bf, bo = np.split(bs[0], 4)
                halves = [b * 0.5 for b in (bi, bf, bc, bo)]
                cu_b += halves + halves
            elif mode == "gru":
                w_ir, w_h, r_h = ws[0].T, ws[1].T, ws[2].T
                w_i, w_r = np.split(w_ir, 2, axis=0)
                (wi, ri), (wr, rr) = np.split(w_i, [width], 1), np.split(w_r, [width], 1)
                cu_w += [wi, wr, w_h, ri, rr, r_h]
                b_wi, b_wr = np.split(bs[0] * 0.5, 2)
                cu_b += [b_wi, b_wr, bs[1], b_wi, b_wr, bs[2]]
            else:
                w_i, w_h = np.split(ws[0].T, [width], axis=1)
                cu_w += [w_i, w_h]
                cu_b += [bs[0] * 0.5, bs[0] * 0.5]
    return cu_w, cu_b


def _pack(layers: int, dirs: int, cu_w: List[np.ndarray], cu_b: List[np.ndarray],
          skip: bool, mode: str) -> np.ndarray:
    """The opaque buffer: per pseudo-layer its weights then its biases; skip_input leaves
    layer 0's input matrices out."""
    per_w, per_b = len(cu_w) // (layers * dirs), len(cu_b) // (layers * dirs)
    gates = {"lstm": 4, "gru": 3}.get(mode, 1)
    parts = []
    for p in range(layers * dirs):
        ws = cu_w[p * per_w:(p + 1) * per_w]
        if skip and p < dirs:
            ws = ws[gates:]
        parts += [w.reshape(-1) for w in ws] + [b.reshape(-1) for b in
                                                cu_b[p * per_b:(p + 1) * per_b]]
    return np.concatenate(parts).astype(np.float32)


def _identity_inputs(var: tf.Variable, value: np.ndarray, mode: str, units: int
                     ) -> np.ndarray:
    """Layer 0's input rows of a canonical kernel set to identity per gate (skip_input)."""
    value = value.copy()
    name = var.op.name
    if mode == "gru" and "candidate/input_projection" in name:
        return np.eye(units, dtype=np.float32)
    for k in range(value.shape[1] // units):
        value[:units, k * units:(k + 1) * units] = np.eye(units)
    return value


def case(name: str, spec: tuple, out: str) -> Dict[str, np.ndarray]:
    mode, layers, bidi, units, size, proj, skip, with_lengths, grads = spec
    dirs = 2 if bidi else 1
    hidden = proj or units
    x = RNG.uniform(-1, 1, (BATCH, STEPS, size)).astype(np.float32)
    h0 = RNG.uniform(-0.5, 0.5, (layers * dirs, BATCH, hidden)).astype(np.float32)
    c0 = RNG.uniform(-0.5, 0.5, (layers * dirs, BATCH, units)).astype(np.float32)
    lengths = np.array([5, 2, 0] if with_lengths else [STEPS] * BATCH, np.int32)
    g = tf.Graph()
    # Under the variable scope of the cuDNN layer of the mode (its default name), where
    # TF 1.15's layer puts its saveable: the canonical names are
    # `cudnn_lstm/rnn/multi_rnn_cell/cell_0/cudnn_compatible_lstm_cell/kernel`, ...
    with g.as_default(), tf.variable_scope(LAYER_SCOPES[mode]):
        xt, h0t, c0t = tf.constant(x), tf.constant(h0), tf.constant(c0)
        seq = tf.constant(lengths) if with_lengths else None
        hs, cs = [], []
        if not bidi:
            cell = tf.nn.rnn_cell.MultiRNNCell([_cell(mode, units, proj)
                                                for _ in range(layers)])
            init = tuple(_state(mode, h0t[p], c0t[p]) for p in range(layers))
            output, states = tf.nn.dynamic_rnn(cell, xt, initial_state=init,
                                               sequence_length=seq)
            for s in states:
                h, c = _unstate(mode, s)
                hs.append(h)
                cs.append(c)
        else:
            output = xt
            for layer in range(layers):
                with tf.variable_scope("stack_bidirectional_rnn/cell_%d" % layer):
                    p = 2 * layer
                    outs, (sf, sb) = tf.nn.bidirectional_dynamic_rnn(
                        _cell(mode, units, proj), _cell(mode, units, proj), output,
                        initial_state_fw=_state(mode, h0t[p], c0t[p]),
                        initial_state_bw=_state(mode, h0t[p + 1], c0t[p + 1]),
                        sequence_length=seq)
                output = tf.concat(outs, 2)
                for s in (sf, sb):
                    h, c = _unstate(mode, s)
                    hs.append(h)
                    cs.append(c)
        h_all = tf.stack(hs)
        c_all = tf.stack(cs) if mode == "lstm" else tf.zeros([0])
        variables = tf.global_variables()
        values = []
        for v in variables:
            value = RNG.uniform(-0.8, 0.8, v.shape.as_list()).astype(np.float32)
            n = v.op.name
            if skip and "cell_0/" in n and n.endswith("kernel") and \
                    not n.endswith(("hidden_projection/kernel", "/projection/kernel")):
                value = _identity_inputs(v, value, mode, units)
            values.append(value)
        result = {"x": x, "h0": h0, "c0": c0, "lengths": lengths}
        fetch = {"output": output, "h": h_all, "c": c_all}
        if grads:
            g_out = RNG.uniform(-1, 1, (BATCH, STEPS, hidden * dirs)).astype(np.float32)
            g_h = RNG.uniform(-1, 1, h0.shape).astype(np.float32)
            g_c = RNG.uniform(-1, 1, c0.shape).astype(np.float32)
            loss = tf.reduce_sum(output * g_out) + tf.reduce_sum(h_all * g_h)
            if mode == "lstm":
                loss += tf.reduce_sum(c_all * g_c)
            result.update(g_out=g_out, g_h=g_h, g_c=g_c)
            dx, dh0, dc0, *dvars = tf.gradients(loss, [xt, h0t, c0t] + variables)
            fetch.update(dx=dx, dh0=dh0, dc0=dc0 if mode == "lstm" else tf.zeros([0]),
                         dvars=dvars)
        with tf.Session() as sess:
            for v, value in zip(variables, values):
                v.load(value, sess)
            got = sess.run(fetch)
            folder = os.path.join(out, "ckpt_" + name)
            shutil.rmtree(folder, ignore_errors=True)
            tf.train.Saver(variables).save(sess, os.path.join(folder, "model"),
                                           write_meta_graph=False)
            os.remove(os.path.join(folder, "checkpoint"))   # (absolute paths)
        names = [v.op.name for v in variables]
    result.update(output=got["output"], h=got["h"], c=got["c"])
    canon = _canonical(mode, names, values)
    cu_w, cu_b = _tf_to_cu(mode, layers, dirs, units, size, proj, *canon)
    result["params"] = _pack(layers, dirs, cu_w, cu_b, skip, mode)
    for k, w in enumerate(cu_w):
        result[f"cu_w{k}"] = w.astype(np.float32)
    for k, b in enumerate(cu_b):
        result[f"cu_b{k}"] = b.astype(np.float32)
    if grads:
        result.update(dx=got["dx"], dh0=got["dh0"], dc0=got["dc0"])
        gw, gb, gp = _canonical(mode, names, got["dvars"])
        # d loss / d opaque: the weights map one to one; each bias half of a pair gets
        # the whole gradient of the bias sum (the converter halves: give it twice).
        gcu_w, gcu_b = _tf_to_cu(mode, layers, dirs, units, size, proj, gw,
                                 [2 * b for b in gb], gp)
        if mode == "gru":      # the candidate biases are not split: undo the doubling
            gcu_b = [b / 2 if k % 6 in (2, 5) else b for k, b in enumerate(gcu_b)]
        result["dparams"] = _pack(layers, dirs, gcu_w, gcu_b, skip, mode)
    return result


def _canonical(mode: str, names: List[str], values: list
               ) -> Tuple[List[np.ndarray], List[np.ndarray], List[np.ndarray]]:
    """The TF-canonical weights, biases and projections in the converter's order: the
    variables are created layer by layer, forward before backward, and a GRU cell's as
    gates, candidate input, candidate hidden (kernels, then biases)."""
    weights, biases, projs = [], [], []
    for n, v in zip(names, values):
        if n.endswith("projection/kernel") and mode == "lstm":
            projs.append(v)
        elif n.endswith("kernel"):
            weights.append(v)
        else:
            biases.append(v)
    return weights, biases, projs


def main(out: str) -> None:
    arrays, specs = {}, {}
    for name, spec in CASES.items():
        mode, layers, bidi, units, size, proj, skip, lengths, grads = spec
        specs[name] = {"rnn_mode": mode, "num_layers": layers,
                       "direction": "bidirectional" if bidi else "unidirectional",
                       "num_units": units, "input_size": size, "num_proj": proj,
                       "input_mode": "skip_input" if skip else "linear_input",
                       "lengths": lengths, "gradients": grads}
        for key, value in case(name, spec, out).items():
            arrays[f"{name}/{key}"] = value
    np.savez(os.path.join(out, "cells.npz"), **arrays)
    record_training_graph(out, arrays)
    with open(os.path.join(out, "cells.json"), "w") as f:
        json.dump(specs, f, indent=1, sort_keys=True)


def record_training_graph(out: str, arrays: Dict[str, np.ndarray]) -> None:
    """train_v3.meta: a TF training graph of CudnnRNNV3 (the gradient case
    lstm_bidi_2layers_lengths as the loss, a params variable, one GradientDescent step of
    rate 0.1), which TF builds on a CPU but runs only on a GPU: its gradient is TF's
    CudnnRNNBackpropV3 node. The values it must give are the case's (the loss of the
    recorded outputs, the params less 0.1 times the recorded gradient)."""
    name = "lstm_bidi_2layers_lengths"
    c = {k.split("/", 1)[1]: v for k, v in arrays.items() if k.startswith(name + "/")}
    with tf.Graph().as_default():
        params = tf.Variable(c["params"], name="opaque_kernel")
        outs = tf.raw_ops.CudnnRNNV3(
            input=tf.constant(c["x"]), input_h=tf.constant(c["h0"]),
            input_c=tf.constant(c["c0"]), params=params,
            sequence_lengths=tf.constant(c["lengths"]), rnn_mode="lstm",
            direction="bidirectional", time_major=False)
        loss = tf.add_n([tf.reduce_sum(outs[0] * c["g_out"]),
                         tf.reduce_sum(outs[1] * c["g_h"]),
                         tf.reduce_sum(outs[2] * c["g_c"])], name="loss")
        train = tf.train.GradientDescentOptimizer(0.1).minimize(loss, name="train")
        tf.add_to_collection("train_op", train)
        types = {op.type for op in tf.get_default_graph().get_operations()}
        assert "CudnnRNNBackpropV3" in types, types
        tf.train.export_meta_graph(os.path.join(out, "train_v3.meta"))
