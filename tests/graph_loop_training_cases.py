"""Training graphs with tf.while_loop in the gradient region that tf1compat writes for
real TensorFlow to train from the file (scripts/check_tf_reads_graphs.py; the gradient
through a loop is written as a backward loop: graphdef/loop_gradient_export.py).

As tests/graph_training_cases.py: each case builds a model with an optimizer's train op
and a `tf.train.Saver`; the script saves the initial variables, real TF imports the
.meta, restores, runs the train op from the file a few times and fetches the loss and
the variables.
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import X8, _training_spec

SEQ = np.sin(np.arange(4 * 5 * 3, dtype=np.float32) * 0.41).reshape(4, 5, 3)


def case_train_while_loop_captured_weights(tf):
    """A hand-written recurrence: `tf.while_loop` over a counter and a state that a
    dense layer computes from x (the region before the loop), the body multiplying by
    captured weights; Momentum."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    y = tf.placeholder(tf.float32, [None, 4], name="y")
    h0 = tf.layers.dense(x, 4, activation=tf.tanh, name="encode")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.5 + 0.1))
    b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.1))

    def body(i, h):
        return i + 1, tf.tanh(tf.matmul(h, w) + b) + 0.5 * h

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), h0])
    loss = tf.reduce_mean(tf.square(h - y), name="loss")
    tf.train.MomentumOptimizer(0.2, 0.9).minimize(
        loss, global_step=tf.train.get_or_create_global_step(), name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8, "y:0": X8[::-1] * 0.5},
                          ["loss:0", "global_step:0", "encode/kernel:0", "w:0", "b:0"])


LOOP_TRAINING_CASES = [case_train_while_loop_captured_weights]
