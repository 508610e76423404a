"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-u).

* openai/pixel-cnn (PixelCNN++): train.py's graph with one tower on `/gpu:0` (soft
  placement), nr_resnet=1, 8 filters, 8x8 fake CIFAR: the data-dependent init pass, two
  training steps, the EMA test loss and a sampling step matched TF to float rounding once
  the gradients are computed before its hand-written Adam assigns. Without that control
  dependency TF's in-place `Assign` overwrites the buffer that the backward pass still
  reads through `V/read`, so TF's second-step loss depends on its executor's schedule
  (16.28 vs 16.15 bits/dim at dropout 0); tf1compat reads before it writes. The cases pin
  the weight-normed layers' data-dependent init through `tf.make_template` and the
  project's `tf.Variable(value, 'adam_t')` (a name passed as `trainable`).
"""

import numpy as np

from tests.golden.harness import tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-5)
def case_pixelcnn_weightnorm_data_dependent_init(tf):
    """pixel-cnn's nn.conv2d under tf.make_template: V, g, b by get_variable, W from
    `g * l2_normalize(V, [0, 1, 2])`; with init=True the batch moments rescale g and
    shift b through assigns the recomputed output depends on; the template reused for
    the training call shares the variables."""
    def conv(x, init):
        V = tf.get_variable("V", [3, 3, 2, 4], initializer=tf.random_normal_initializer(0, 0.05))
        g = tf.get_variable("g", [4], initializer=tf.constant_initializer(1.))
        b = tf.get_variable("b", [4], initializer=tf.constant_initializer(0.))
        W = tf.reshape(g, [1, 1, 1, 4]) * tf.nn.l2_normalize(V, [0, 1, 2])
        y = tf.nn.bias_add(tf.nn.conv2d(x, W, [1, 1, 1, 1], "SAME"), b)
        if init:
            m, v = tf.nn.moments(y, [0, 1, 2])
            s = 0.1 / tf.sqrt(v + 1e-10)
            with tf.control_dependencies([g.assign(g * s), b.assign_add(-m * s)]):
                W = tf.reshape(g, [1, 1, 1, 4]) * tf.nn.l2_normalize(V, [0, 1, 2])
                y = tf.nn.bias_add(tf.nn.conv2d(x, W, [1, 1, 1, 1], "SAME"), b)
        return y
    tf.set_random_seed(1)
    model = tf.make_template("model", conv)
    x = tf.constant(_seeded([2, 5, 5, 2], 1))
    y_init = model(x, True)
    y = model(x, False)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        yi = sess.run(y_init)
        return {"init": yi, "after": sess.run(y),
                "vars": [v.name for v in tf.global_variables()],
                "g": sess.run("model/g:0")}


def case_pixelcnn_variable_name_as_trainable(tf):
    """nn.adam_updates' `tf.Variable(1., 'adam_t')`: the second positional argument is
    `trainable`, so the variable is trainable and named Variable."""
    t = tf.Variable(1., "adam_t")
    mg = tf.Variable(tf.zeros([2]), "w_adam_mg")
    inc = t.assign_add(1)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        sess.run(inc)
        return {"names": [v.name for v in tf.trainable_variables()],
                "t": sess.run(t), "mg": sess.run(mg)}
