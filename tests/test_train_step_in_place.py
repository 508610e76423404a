"""A training step's optimizer updates write the variables' buffers in place, as TF's
kernels do, once the step's last gradient op has run (runtime/codegen.py drops the autograd
graph there); values still in use keep what they read."""

import weakref

import numpy as np
import torch

import tf1compat as tf


def _adam_graph():
    g = tf.Graph()
    with g.as_default():
        x = tf.placeholder(tf.float32, [None, 3])
        w = tf.get_variable("w", initializer=np.arange(6, dtype=np.float32).reshape(3, 2) / 10,
                            use_resource=True)
        loss = tf.reduce_sum(tf.square(tf.matmul(x, w)))
        train = tf.train.AdamOptimizer(0.1).minimize(loss)
        init = tf.global_variables_initializer()
    return g, x, w, loss, train, init


def _stored(sess, name):
    return dict.__getitem__(sess._runtime.state, name)


def test_update_reuses_the_variable_buffer():
    g, x, w, loss, train, init = _adam_graph()
    feed = {x: np.ones((4, 3), np.float32)}
    with tf.Session(graph=g) as sess:
        sess.run(init)
        sess.run(train, feed)
        before = _stored(sess, "w")
        value, stored = before.clone(), weakref.ref(before)
        del before
        # The fetched loss outlives the gradient op (its value is returned): it must not
        # keep the autograd graph, which references the variable's buffer, alive.
        sess.run([loss, train], feed)
        after = _stored(sess, "w")
        assert after is stored()         # the same tensor, updated in place
        assert not torch.equal(after, value)


def test_values_fetched_with_the_update_keep_the_old_value():
    g, x, w, loss, train, init = _adam_graph()
    feed = {x: np.ones((4, 3), np.float32)}
    with tf.Session(graph=g) as sess:
        sess.run(init)
        old = sess.run(w)
        # The read the forward matmul consumed (it aliases the variable's buffer).
        read = g.get_operation_by_name("MatMul").inputs[1]
        assert read.op.type == "ReadVariableOp"
        fetched, _ = sess.run([read, train], feed)
        np.testing.assert_array_equal(fetched, old)
        assert not np.array_equal(sess.run(w), old)


def test_steps_match_the_copying_path():
    # The same steps with the variable's buffer shared by a value held outside the run
    # (which forces copies) give identical numbers.
    results = []
    for hold in (False, True):
        g, x, w, loss, train, init = _adam_graph()
        feed = {x: np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3)}
        with tf.Session(graph=g) as sess:
            sess.run(init)
            losses = []
            for _ in range(5):
                held = _stored(sess, "w") if hold else None
                losses.append(sess.run([loss, train], feed)[0])
                del held
            results.append((losses, sess.run(w)))
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_array_equal(results[0][1], results[1][1])


def test_sparse_xent_backprop_is_softmax_minus_one_hot_bitwise():
    logits = np.random.RandomState(0).randn(16, 7).astype(np.float32)
    labels = np.random.RandomState(1).randint(0, 7, 16)
    g = tf.Graph()
    with g.as_default():
        op = tf.raw_ops.SparseSoftmaxCrossEntropyWithLogits(features=logits, labels=labels)
    with tf.Session(graph=g) as sess:
        _, backprop = sess.run(op)
    # The reference runs where the session ran the op (torch's CUDA softmax rounds
    # differently from its CPU one).
    t = torch.from_numpy(logits).to(sess._runtime.placer.default)
    expected = torch.softmax(t, -1) - torch.nn.functional.one_hot(
        torch.from_numpy(labels).to(t.device), 7).float()
    np.testing.assert_array_equal(backprop, expected.cpu().numpy())
