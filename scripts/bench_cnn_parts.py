"""CPU time at one thread of the pieces of `bench_vs_tf.py`'s CNN step, TF 2.21 beside
the torch calls tf1compat makes, to show which kernels the step loses to TF in.

    python scripts/bench_cnn_parts.py                 # 3 rounds, TF and torch alternating
    python scripts/bench_cnn_parts.py --rounds 5

Each side runs in a fresh child process at one thread (TF: intra/inter-op threads 1, the
pieces inside a `tf.function`, so grappler fuses Conv2D + BiasAdd + Relu as in the
benchmark's step; torch: `torch.set_num_threads(1)` after `import tf1compat`, whose glibc
heap settings the step runs under). Every piece runs on 8 distinct copies of its inputs
in turn (TF: 8 copies in one function, less an 8-copy identity function's time; torch: 16
calls over the 8 copies), so neither side reads inputs the previous call left in cache.
Figures are the best of 7 blocks by `time.process_time`; the table is the median over
rounds. Weights and activations have the step's shapes (batch 32; NHWC, the torch side
takes the channels_last views tf1compat's kernels take).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any, Callable, Dict, List

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COPIES = 8
BLOCKS = 7

# name -> shape (NHWC activations, HWIO filters), scale of the random values.
SHAPES = {"x1": ((32, 28, 28, 1), 1.0), "w1": ((5, 5, 1, 32), 0.1), "b1": ((32,), 1.0),
          "x2": ((32, 14, 14, 32), 1.0), "w2": ((5, 5, 32, 64), 0.05), "b2": ((64,), 1.0),
          "a1": ((32, 28, 28, 32), 1.0), "a2": ((32, 14, 14, 64), 1.0),
          "g1": ((32, 14, 14, 32), 1.0), "g2": ((32, 7, 7, 64), 1.0),
          "xd": ((32, 3136), 1.0), "wd": ((3136, 256), 0.02), "bd": ((256,), 1.0),
          "gd": ((32, 256), 1.0)}


def _arrays() -> Dict[str, List[Any]]:
    import numpy as np
    rng = np.random.RandomState(0)
    return {name: [(rng.randn(*shape) * scale).astype(np.float32) for _ in range(COPIES)]
            for name, (shape, scale) in SHAPES.items()}


def _best(run: Callable[[], Any], calls: int) -> float:
    """Best CPU seconds per call over the blocks."""
    run()
    best = float("inf")
    for _ in range(BLOCKS):
        start = time.process_time()
        for _ in range(calls):
            run()
        best = min(best, (time.process_time() - start) / calls)
    return best


def _tf_parts() -> Dict[str, float]:
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(1)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    v = {k: [tf.constant(a) for a in arrays] for k, arrays in _arrays().items()}
    nn = tf.nn
    stride = [1, 2, 2, 1]

    def conv(i: int, n: str) -> Any:
        y = nn.conv2d(v["x" + n][i], v["w" + n][i], 1, "SAME")
        return nn.relu(nn.bias_add(y, v["b" + n][i]))

    def pool_grad(i: int, n: str) -> Any:
        a = v["a" + n][i]
        return tf.raw_ops.MaxPoolGrad(orig_input=a, orig_output=nn.max_pool2d(a, 2, 2, "VALID"),
                                      grad=v["g" + n][i], ksize=[1, 2, 2, 1], strides=stride,
                                      padding="VALID")

    def relu_grad(i: int, n: str) -> Any:
        a = v["a" + n]
        return tf.raw_ops.ReluGrad(gradients=a[i], features=a[(i + 1) % COPIES])

    pieces: Dict[str, Callable[[int], Any]] = {
        "conv1 + bias + relu": lambda i: conv(i, "1"),
        "conv2 + bias + relu": lambda i: conv(i, "2"),
        "conv2 input + filter gradients": lambda i: (
            tf.raw_ops.Conv2DBackpropInput(input_sizes=[32, 14, 14, 32], filter=v["w2"][i],
                                           out_backprop=v["a2"][i], strides=[1] * 4,
                                           padding="SAME"),
            tf.raw_ops.Conv2DBackpropFilter(input=v["x2"][i], filter_sizes=[5, 5, 32, 64],
                                            out_backprop=v["a2"][i], strides=[1] * 4,
                                            padding="SAME")),
        "max pool 1": lambda i: nn.max_pool2d(v["a1"][i], 2, 2, "VALID"),
        "max pool 1 + gradient": lambda i: pool_grad(i, "1"),
        "max pool 2 + gradient": lambda i: pool_grad(i, "2"),
        "relu gradient 1": lambda i: relu_grad(i, "1"),
        "relu gradient 2": lambda i: relu_grad(i, "2"),
        "bias gradient 1": lambda i: tf.raw_ops.BiasAddGrad(out_backprop=v["a1"][i]),
        "bias gradient 2": lambda i: tf.raw_ops.BiasAddGrad(out_backprop=v["a2"][i]),
        "dense 1 + bias + relu": lambda i: nn.relu(nn.bias_add(
            tf.matmul(v["xd"][i], v["wd"][i]), v["bd"][i])),
        "dense 1 gradients": lambda i: (tf.matmul(v["gd"][i], v["wd"][i], transpose_b=True),
                                        tf.matmul(v["xd"][i], v["gd"][i], transpose_a=True)),
    }
    empty = _best(tf.function(lambda: [tf.identity(v["x2"][i]) for i in range(COPIES)]), 10)
    return {name: (_best(tf.function(lambda p=piece: [p(i) for i in range(COPIES)]), 10)
                   - empty) / COPIES for name, piece in pieces.items()}


def _torch_parts() -> Dict[str, float]:
    sys.path.insert(0, ROOT)
    import torch

    import tf1compat  # noqa: F401 - the glibc heap settings tf1compat's steps run under
    from tf1compat.ops import nn_conv_bias
    torch.set_num_threads(1)
    conv2d = torch.nn.functional.conv2d
    aten = torch.ops.aten

    def tensor(a: Any) -> Any:
        t = torch.from_numpy(a)
        if t.dim() == 4 and t.shape[0] == 5:         # HWIO -> OIHW view
            return t.permute(3, 2, 0, 1)
        return t.permute(0, 3, 1, 2) if t.dim() == 4 else t

    v = {k: [tensor(a) for a in arrays] for k, arrays in _arrays().items()}

    def conv(i: int, n: str, inside: bool = False) -> Any:
        x, w, b = v["x" + n][i], v["w" + n][i], v["b" + n][i]
        if inside:
            return torch.relu(conv2d(x, w, b, 1, 2))
        return torch.relu(conv2d(x, w, None, 1, 2) + b[:, None, None])

    def fused(i: int, n: str) -> Any:
        # tf1compat's fused Conv2D + BiasAdd + Relu (ops/nn_conv_bias.py), op by op.
        return nn_conv_bias._conv_bias_relu(v["x" + n][i], v["w" + n][i], v["b" + n][i],
                                            [2, 2], [1, 1], [1, 1], True)

    def conv2_grads(i: int) -> Any:
        # As Conv2DBackpropInput and Conv2DBackpropFilter's kernels call them (nn_conv.py).
        w, dy = v["w2"][i], v["a2"][i]
        return (torch.nn.functional.conv_transpose2d(dy, w, None, 1, 2),
                aten.convolution_backward(dy, v["x2"][i], w.new_zeros(w.shape), None, [1, 1],
                                          [2, 2], [1, 1], False, [0, 0], 1,
                                          [False, True, False])[1])

    def pool_grad(i: int, n: str) -> Any:
        a = v["a" + n][i]
        _, idx = aten.max_pool2d_with_indices(a, [2, 2], [2, 2])
        return aten.max_pool2d_with_indices_backward(v["g" + n][i], a, [2, 2], [2, 2],
                                                     [0, 0], [1, 1], False, idx)

    def relu_grad(i: int, n: str) -> Any:
        a = v["a" + n]
        return aten.threshold_backward(a[i], a[(i + 1) % COPIES], 0)

    pieces: Dict[str, Callable[[int], Any]] = {
        "conv1 alone": lambda i: conv2d(v["x1"][i], v["w1"][i], None, 1, 2),
        "conv1 + bias + relu": lambda i: conv(i, "1"),
        "conv1, bias inside, + relu": lambda i: conv(i, "1", inside=True),
        "conv1 + bias + relu fused": lambda i: fused(i, "1"),
        "conv2 alone": lambda i: conv2d(v["x2"][i], v["w2"][i], None, 1, 2),
        "conv2 + bias + relu": lambda i: conv(i, "2"),
        "conv2 + bias + relu fused": lambda i: fused(i, "2"),
        "conv2 input + filter gradients": lambda i: conv2_grads(i),
        "max pool 1": lambda i: aten.max_pool2d_with_indices(v["a1"][i], [2, 2], [2, 2]),
        "max pool 1 + gradient": lambda i: pool_grad(i, "1"),
        "max pool 2 + gradient": lambda i: pool_grad(i, "2"),
        "relu gradient 1": lambda i: relu_grad(i, "1"),
        "relu gradient 2": lambda i: relu_grad(i, "2"),
        "bias gradient 1": lambda i: v["a1"][i].sum((0, 2, 3)),
        "bias gradient 2": lambda i: v["a2"][i].sum((0, 2, 3)),
        "dense 1 + bias + relu": lambda i: torch.relu(v["xd"][i] @ v["wd"][i] + v["bd"][i]),
        "dense 1 gradients": lambda i: (v["gd"][i] @ v["wd"][i].t(),
                                        v["xd"][i].t() @ v["gd"][i]),
    }
    out = {}
    for name, piece in pieces.items():
        turn = iter(range(1 << 62))          # the copies in rotation
        out[name] = _best(lambda p=piece, t=turn: p(next(t) % COPIES), 2 * COPIES)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--tf-python", default="/tmp/tf/bin/python")
    parser.add_argument("--child", choices=("tf", "torch"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        got = _tf_parts() if args.child == "tf" else _torch_parts()
        print(json.dumps({k: s * 1e3 for k, s in got.items()}))
        return 0
    env = {**os.environ, "OMP_NUM_THREADS": "1", "TF_USE_LEGACY_KERAS": "1",
           "TF_CPP_MIN_LOG_LEVEL": "3"}
    times: Dict[str, Dict[str, List[float]]] = {"tf": {}, "torch": {}}
    for _ in range(args.rounds):
        for side, python in (("tf", args.tf_python), ("torch", sys.executable)):
            out = subprocess.run([python, os.path.abspath(__file__), "--child", side],
                                 env=env, capture_output=True, text=True, check=True)
            for name, ms in json.loads(out.stdout.strip().splitlines()[-1]).items():
                times[side].setdefault(name, []).append(ms)
    names = list(times["torch"]) + [n for n in times["tf"] if n not in times["torch"]]
    print(f"{'piece (CPU ms per call, one thread)':36s} {'TF 2.21':>8s} {'torch':>8s}")
    for name in names:
        cells = [f"{statistics.median(times[s][name]):8.3f}" if name in times[s]
                 else f"{'':8s}" for s in ("tf", "torch")]
        print(f"{name:36s} {cells[0]} {cells[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
