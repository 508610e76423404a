"""Golden cases from tflearn 0.3.2 (2017, TF 1.x): its trainer's step as its own test
suite and examples run it, restated small.

tflearn 0.3.2's tests (tests/*.py) and examples (basics/, images/ on synthetic MNIST)
pass under tf1compat as under TF 2.21's compat.v1 (its `tensorflow.contrib` imports
replaced with TF 1.15's behaviour on the TF side). Printed losses agree to the 5 digits
tflearn prints once two races of tflearn and TF are taken out of the comparison: tflearn's
feeding threads shuffle one index array while another thread gathers batches from it
(batch order and X/Y pairing vary run to run on either side), and the displayed loss is a
moving average that the summary op reads in the same run that updates it, with no order
between the two (TF shows the value before or after the update from run to run,
tf1compat always the one before). Rounding still grows where training amplifies it:
convnet_mnist (conv, LRN, tanh, Adam) matches for 5 epochs (20 steps) and then drifts apart,
and one run of test_sequencegenerator (an LSTM, Adam at learning rate 0.1) drifted in the
5th digit after ~35 steps: float32 Sigmoid/Tanh differ from TF's Eigen kernels in the last
bit on 56-64% of random inputs, and float sums of more than 8,192 values add in another
order (docs/graphs.md, numerics that still differ).
"""

import numpy as np


def _lstm_step(tf, x, h, c, kernel, bias):
    """tflearn 0.3.2's BasicLSTMCell: one matmul over [x, h], gates i, j, f, o, forget
    bias 1."""
    concat = tf.matmul(tf.concat([x, h], 1), kernel) + bias
    i, j, f, o = tf.split(concat, 4, 1)
    new_c = c * tf.sigmoid(f + 1.0) + tf.sigmoid(i) * tf.tanh(j)
    return tf.tanh(new_c) * tf.sigmoid(o), new_c


def case_trainer_step_loss_averages_clipped_adam(tf):
    """tflearn's TrainOp: total loss = loss + regularization losses, their moving averages
    (decay 0.9, num_updates = the step variable) as a control dependency of the gradients,
    clip_by_global_norm(5), Adam with global_step; dropout in `tf.cond(is_training)`;
    categorical cross-entropy as tflearn writes it. The averages are read in their own run
    and through the serialized scalar summaries tflearn parses for its display."""
    rng = np.random.RandomState(3)
    xs = rng.randn(6, 3, 4).astype(np.float32)
    ys = np.eye(5, dtype=np.float32)[rng.randint(0, 5, 6)]
    x = tf.placeholder(tf.float32, [None, 3, 4], name="input")
    y = tf.placeholder(tf.float32, [None, 5], name="target")
    is_training = tf.Variable(False, trainable=False, name="is_training")
    step = tf.Variable(0.0, trainable=False, name="Training_step")
    kernel = tf.Variable(tf.random_uniform([12, 32], -0.3, 0.3, seed=1), name="Matrix")
    bias = tf.Variable(tf.zeros([32]), name="Bias")
    w = tf.Variable(tf.truncated_normal([8, 5], stddev=0.2, seed=2), name="W")
    b = tf.Variable(tf.zeros([5]), name="b")
    h = c = tf.zeros([tf.shape(x)[0], 8])
    for t in tf.unstack(x, axis=1):
        h, c = _lstm_step(tf, t, h, c, kernel, bias)
    h = tf.cond(is_training, lambda: tf.nn.dropout(h, 0.8, seed=4), lambda: h)
    pred = tf.nn.softmax(tf.matmul(h, w) + b)
    pred /= tf.reduce_sum(pred, 1, keep_dims=True)
    pred = tf.clip_by_value(pred, 1e-10, 1.0)
    loss = tf.reduce_mean(-tf.reduce_sum(y * tf.log(pred), 1), name="Crossentropy")
    tf.add_to_collection(tf.GraphKeys.REGULARIZATION_LOSSES, 0.001 * tf.nn.l2_loss(w))
    regs = tf.get_collection(tf.GraphKeys.REGULARIZATION_LOSSES)
    total = tf.add_n([loss] + regs, name="Total_Loss")
    averages = tf.train.ExponentialMovingAverage(0.9, step, name="moving_avg")
    average_op = averages.apply([total, loss] + regs)
    summary = tf.summary.merge([tf.summary.scalar("Loss/Adam", averages.average(loss)),
                                tf.summary.scalar("Total/Adam", averages.average(total))])
    train_vars = tf.trainable_variables()
    with tf.control_dependencies([average_op]):
        grads = tf.gradients(total, train_vars)
        grads, norm = tf.clip_by_global_norm(grads, 5.0)
    apply_op = tf.train.AdamOptimizer(0.01).apply_gradients(
        list(zip(grads, train_vars)), global_step=step)
    with tf.control_dependencies([apply_op]):
        train = tf.no_op(name="train_op_0")
    out = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(tf.assign(is_training, True))
        for i in range(4):
            batch = slice(i % 2 * 3, i % 2 * 3 + 3)
            _, value, clip_norm = sess.run([train, loss, norm], {x: xs[batch], y: ys[batch]})
            parsed = tf.Summary.FromString(sess.run(summary))
            out.append([value, clip_norm, sess.run([averages.average(v) for v in
                                                    [total, loss] + regs]),
                        [(v.tag, v.simple_value) for v in parsed.value]])
        sess.run(tf.assign(is_training, False))
        out.append(sess.run([pred, w, kernel[:2], step], {x: xs}))
    return [averages.average(total).op.name, average_op.type, out]
