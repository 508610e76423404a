"""Training graphs whose while-loop bodies gather rows of variables (`tf.gather`,
`tf.nn.embedding_lookup`): TF's gradient of such a gather is IndexedSlices, which the
backward loop of tf1compat's file accumulates as TF 1.x does (`b_acc`,
graphdef/loop_gradient_slices.py). Real TF trains from the file
(scripts/check_tf_reads_graphs.py; `native`: the same case built by TF itself).
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import _training_spec

IDS = np.array([[1, 4], [0, 4], [5, 2], [4, 4]], np.int32)


def _gathering_loop(tf, use_resource: bool):
    """A loop over the rows of fed ids: each step gathers two embedding rows, looks one
    up again, gathers one at indices computed outside the loop and mixes them into the
    state through a matmul; the loss of the last state."""
    ids = tf.placeholder(tf.int32, [4, 2], name="ids")
    emb = tf.get_variable("emb", [6, 3], use_resource=use_resource,
                          initializer=tf.constant_initializer(
                              np.cos(np.arange(18, dtype=np.float32)).reshape(6, 3) * 0.5))
    w = tf.get_variable("w", [3, 3], use_resource=use_resource,
                        initializer=tf.constant_initializer(
                            np.eye(3, dtype=np.float32) * 0.5 + 0.1))

    last = ids[3, 1:]

    def body(i, h):
        rows = tf.gather(emb, ids[i])
        first = tf.nn.embedding_lookup(emb, ids[i][:1])
        fixed = tf.gather(emb, last)        # indices from outside the loop
        return i + 1, tf.tanh(tf.matmul(h, w) + tf.reduce_sum(rows, 0, keepdims=True) * 0.5
                              + first + fixed * 0.25)

    _, h = tf.while_loop(lambda i, h: i < 4, body, [tf.constant(0), tf.zeros([1, 3])])
    return tf.reduce_sum(tf.square(h - 0.3), name="loss")


def case_train_loop_gathers_ref_variable(tf):
    """Gathers of a ref variable's rows in a loop body; Adagrad (its update of the rows a
    step gathered equals TF's sparse one's, rows not gathered stay)."""
    loss = _gathering_loop(tf, False)
    tf.train.AdagradOptimizer(0.3).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"ids:0": IDS}, ["loss:0", "emb:0", "w:0"])


def case_train_loop_gathers_resource_variable(tf):
    """Gathers of a resource variable's rows in a loop body; GradientDescent."""
    loss = _gathering_loop(tf, True)
    tf.train.GradientDescentOptimizer(0.2).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"ids:0": IDS},
                          ["loss:0", "emb/Read/ReadVariableOp:0", "w/Read/ReadVariableOp:0"])


LOOP_SPARSE_CASES = [case_train_loop_gathers_ref_variable,
                     case_train_loop_gathers_resource_variable]
