"""Records, with real TensorFlow, what the CudnnRNN ops of tf1compat must compute
(ops/cudnn_rnn_ops.py): TF has no CPU kernel for them, so the oracle is the equivalent
computation on the CPU with the same weights.

1. cases.npz / cases.json: tf.keras LSTM / GRU (reset_after) / SimpleRNN (tanh, relu),
   one layer, with the opaque params buffer built as tf-keras' GPU path builds it
   (`_canonical_to_params`: the weight matrices transposed, then the biases; for GRU
   cuDNN's gate order r, z, h; the one Keras bias split into an input and a recurrent
   part that add up to it).
2. cells.npz / cells.json: tf.contrib.cudnn_rnn's compatible cells — LSTMCell with
   forget_bias=0 (the math of CudnnCompatibleLSTMCell, an LSTMBlockCell; with num_proj
   its projection), TF 1.15's CudnnCompatibleGRUCell (copied into record_cudnn_cells.py: TF 2 has no
   contrib), BasicRNNCell (tanh, relu) — stacked in a MultiRNNCell, or per layer in
   bidirectional_dynamic_rnn as TF 1.15's stack_bidirectional_dynamic_rnn does, under
   the variable names CudnnLSTMSaveable/CudnnGRUSaveable give the canonical weights; run
   by tf.nn.dynamic_rnn (sequence lengths included). Per case the TF-canonical weights
   are turned into cuDNN's canonical weights by TF 1.15's CudnnParamsFormatConverter
   (ported to numpy in record_cudnn_cells.py) and packed into the opaque buffer (weights then biases per
   layer and direction). The skip_input cases use identity input matrices in layer 0
   (what skip_input means) and leave them out of the buffer. Gradient cases also hold
   TF's gradients of sum(output * g_out) + sum(h * g_h) + sum(c * g_c). Each case's
   canonical variables are also saved by tf.train.Saver into ckpt_<case>/ (a TF
   checkpoint of the compatible cells, for tf.contrib.cudnn_rnn's saveables); the cells
   are built in the variable scope of the mode's cuDNN layer (`cudnn_lstm`, ...), where
   TF 1.15's layer puts its saveable.
3. train_v3.meta: a TF training graph of CudnnRNNV3 (TF builds it on a CPU; its gradient
   is TF's CudnnRNNBackpropV3 node), checked against a gradient case.

    /tmp/tf/bin/python scripts/record_cudnn_rnn.py
"""

from __future__ import annotations

import json
import os

os.environ.setdefault("TF_USE_LEGACY_KERAS", "1")
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow as tf  # noqa: E402
import tf_keras as keras  # noqa: E402

import record_cudnn_cells  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                   "fixtures", "cudnn_rnn")
BATCH, STEPS, SIZE, UNITS = 3, 5, 4, 3
RNG = np.random.RandomState(7)


def _params(weights: list, biases: list) -> np.ndarray:
    """tf-keras' _canonical_to_params(transpose_weights=True)."""
    return np.concatenate([w.T.reshape(-1) for w in weights] +
                          [b.reshape(-1) for b in biases]).astype(np.float32)


def _split_bias(bias: np.ndarray, parts: int) -> list:
    """Input and recurrent biases (cuDNN adds both) summing to the Keras bias parts."""
    inputs = RNG.uniform(-0.5, 0.5, bias.shape).astype(np.float32)
    return np.split(inputs, parts) + np.split(bias - inputs, parts)


def case(mode: str, mask: bool = False) -> dict:
    x = RNG.uniform(-1, 1, (BATCH, STEPS, SIZE)).astype(np.float32)
    h0 = RNG.uniform(-0.5, 0.5, (BATCH, UNITS)).astype(np.float32)
    c0 = RNG.uniform(-0.5, 0.5, (BATCH, UNITS)).astype(np.float32)
    lengths = np.array([5, 2, 0], np.int32) if mask else np.full(BATCH, STEPS, np.int32)
    if mode == "lstm":
        layer = keras.layers.LSTM(UNITS, return_sequences=True, return_state=True)
    elif mode == "gru":
        layer = keras.layers.GRU(UNITS, return_sequences=True, return_state=True,
                                 reset_after=True)
    else:
        layer = keras.layers.SimpleRNN(UNITS, return_sequences=True, return_state=True,
                                       activation="tanh" if mode == "rnn_tanh" else "relu")
    state = [h0, c0] if mode == "lstm" else [h0]
    layer.build((BATCH, STEPS, SIZE))
    weights = [RNG.uniform(-0.8, 0.8, w.shape).astype(np.float32)
               for w in layer.get_weights()]
    layer.set_weights(weights)
    kwargs = {"mask": tf.sequence_mask(lengths, STEPS)} if mask else {}
    got = layer(tf.constant(x), initial_state=[tf.constant(s) for s in state], **kwargs)
    out, h = got[0].numpy(), got[1].numpy()
    c = got[2].numpy() if mode == "lstm" else np.zeros(0, np.float32)
    kernel, recurrent, bias = weights
    if mode == "lstm":
        params = _params(np.split(kernel, 4, 1) + np.split(recurrent, 4, 1),
                         _split_bias(bias, 4))
    elif mode == "gru":
        w, r = np.split(kernel, 3, 1), np.split(recurrent, 3, 1)
        b_in, b_rec = np.split(bias[0], 3), np.split(bias[1], 3)
        params = _params([w[1], w[0], w[2], r[1], r[0], r[2]],
                         [b_in[1], b_in[0], b_in[2], b_rec[1], b_rec[0], b_rec[2]])
    else:
        params = _params([kernel, recurrent], _split_bias(bias, 1))
    return {"x": x, "h0": h0, "c0": c0, "params": params, "lengths": lengths,
            "output": out, "h": h, "c": c}


def main() -> None:
    os.makedirs(OUT, exist_ok=True)
    record_cudnn_cells.main(OUT)
    specs = {"lstm": {"rnn_mode": "lstm"}, "gru": {"rnn_mode": "gru"},
             "rnn_tanh": {"rnn_mode": "rnn_tanh"}, "rnn_relu": {"rnn_mode": "rnn_relu"},
             "lstm_lengths": {"rnn_mode": "lstm", "lengths": True},
             "gru_lengths": {"rnn_mode": "gru", "lengths": True}}
    arrays = {}
    for name, spec in specs.items():
        for key, value in case(spec["rnn_mode"], spec.get("lengths", False)).items():
            arrays[f"{name}/{key}"] = value
    np.savez(os.path.join(OUT, "cases.npz"), **arrays)
    with open(os.path.join(OUT, "cases.json"), "w") as f:
        json.dump(specs, f, indent=1, sort_keys=True)


if __name__ == "__main__":
    main()
