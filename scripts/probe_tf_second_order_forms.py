"""Which forms of a gradient of a gradient through a loop real TF 2.21 runs
(docs/graphs.md, graphdef/loop_second_order.py). Run with the TensorFlow venv:

    TF_USE_LEGACY_KERAS=1 /tmp/tf/bin/python scripts/probe_tf_second_order_forms.py

1. SymbolicGradient of a function made of TF's gradient ops (what an op-by-op
   first-order backward body would hold): TF's function gradients lack them all
   ("No gradient defined for op: TanhGrad", SigmoidGrad, ReluGrad, BiasAddGrad).
2. SymbolicGradient called inside the body function of a StatelessWhile (the backward
   loop of the tangent loop): runs.
"""

from __future__ import annotations

import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")

import numpy as np  # noqa: E402
import tensorflow.compat.v1 as tf  # noqa: E402
from tensorflow.python.framework import function  # noqa: E402
from tensorflow.python.ops import gen_functional_ops, gen_math_ops, gen_nn_ops  # noqa: E402

tf.disable_v2_behavior()

GRADIENT_OPS = {
    "TanhGrad": lambda y, d: gen_math_ops.tanh_grad(y, d),
    "SigmoidGrad": lambda y, d: gen_math_ops.sigmoid_grad(y, d),
    "ReluGrad": lambda y, d: gen_nn_ops.relu_grad(d, y),
    "BiasAddGrad": lambda y, d: tf.reshape(gen_nn_ops.bias_add_grad(y * d), [1, 3]) + 0 * y,
}


def gradient_of_gradient_op(name: str) -> str:
    with tf.Graph().as_default():
        @function.Defun(tf.float32, tf.float32)
        def f(y, d):
            return GRADIENT_OPS[name](y, d)
        y = tf.constant(np.full((1, 3), 0.3, np.float32))
        out = gen_functional_ops.symbolic_gradient(
            input=[y, tf.ones_like(y), tf.ones_like(y)], Tout=[tf.float32] * 2, f=f)
        try:
            with tf.Session() as sess:
                sess.run(out)
        except tf.errors.OpError as e:
            return " ".join(e.message.split()).split(" [[")[0]
        return "runs"


def symbolic_gradient_in_stateless_while() -> str:
    with tf.Graph().as_default():
        tf.enable_control_flow_v2()

        @function.Defun(tf.float32, tf.float32, tf.float32)
        def tangents(h, dh, w):
            y = tf.tanh(tf.matmul(h, w))
            return y, tf.matmul(dh, w) * (1.0 - y * y)
        w = tf.constant(np.eye(3, dtype=np.float32) * 0.5)
        h0 = tf.ones([2, 3])

        def body(i, h, dh, gw):
            gh, gdh, g_w = gen_functional_ops.symbolic_gradient(
                input=[h, dh, w, tf.ones_like(h), tf.ones_like(dh)], Tout=[tf.float32] * 3,
                f=tangents)
            return i + 1, gh, gdh, gw + g_w
        out = tf.while_loop(lambda i, *_: i < 3, body, [0, h0, h0, tf.zeros_like(w)])
        kinds = {n.op for n in tf.get_default_graph().as_graph_def().node}
        with tf.Session() as sess:
            sess.run(out)
        tf.disable_control_flow_v2()
        return "runs" if "StatelessWhile" in kinds else "no StatelessWhile built"


if __name__ == "__main__":
    for op_type in GRADIENT_OPS:
        print(f"SymbolicGradient of a function of {op_type}: {gradient_of_gradient_op(op_type)}")
    print(f"SymbolicGradient in a StatelessWhile body: {symbolic_gradient_in_stateless_while()}")
