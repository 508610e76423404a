"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-oo).

A driver (/tmp/realcode-oo/drive.py, not kept: it copies each script's folder, runs it
under TF 2.21 compat.v1 and under tf1compat with numpy/random seeded and every default
graph given seed 1, matplotlib and sklearn.datasets stubbed with fixed fake data, and
compares stdout number by number) ran, unchanged:

* nfmcclure/tensorflow_cookbook (HEAD d998edf): ch. 2 (all 8 scripts: graph ops, nested
  and multi-layer ops, loss functions, back propagation, batch vs stochastic training,
  combining/evaluating models) and ch. 3 scripts 01-04 (matrix inverse, Cholesky
  decomposition, TF-way and L1-vs-L2 linear regression) match TF to <= 5.1e-7 relative.
  05_deming_regression matches to ~1e-7 at step 50, then float32 rounding differences
  are amplified by 1000 SGD steps of a |.|/sqrt loss to 1e-2 (same trajectory shape).
  Ch. 3 06-07 (lasso/ridge, elastic net), ch. 4 02-06 (linear SVM, SV regression,
  kernels, nonlinear and multiclass SVM on a fake iris), ch. 5 03 and 05 (text distances,
  address matching with sparse edit distance) and ch. 6 02-05 (gates, activations, one
  hidden layer, conv/maxpool/fc layers) match to <= 4.8e-7 relative (06/05 differs only
  in numpy's column padding, values within 1.8e-7). Scripts needing downloads (MNIST,
  CIFAR, text corpora, birthweight) and ch. 7-9 were not reached in the time.
* instillai/TensorFlow-Course (TF1-era commit 44fcda2, codes/python): 0-welcome (both
  scripts) and 1-basics/variables match exactly; basic_math_operation.py fails on both
  sides with absl's DuplicateFlagError for `log_dir` (TF's own behaviour).

No tf1compat fix was needed for what ran; the cases pin the cookbook's key patterns.
"""

import numpy as np

from tests.golden.harness import tolerance


def _line(n, seed):
    r = np.random.RandomState(seed)
    x = r.uniform(0, 3, (n, 1)).astype(np.float32)
    return x, (1.2 * x - 0.4 + 0.1 * r.randn(n, 1)).astype(np.float32)


@tolerance(rtol=1e-5, atol=1e-6)
def case_cookbook_deming_regression_sgd(tf):
    """03_Linear_Regression/05: graph-seeded `tf.random_normal` variables, a Deming loss
    mean(|y - (xA + b)| / sqrt(A^2 + 1)) and GradientDescent(0.15) over fed batches."""
    tf.set_random_seed(42)
    xd = tf.placeholder(shape=[None, 1], dtype=tf.float32)
    yd = tf.placeholder(shape=[None, 1], dtype=tf.float32)
    a = tf.Variable(tf.random_normal(shape=[1, 1]))
    b = tf.Variable(tf.random_normal(shape=[1, 1]))
    num = tf.abs(tf.subtract(yd, tf.add(tf.matmul(xd, a), b)))
    loss = tf.reduce_mean(tf.truediv(num, tf.sqrt(tf.add(tf.square(a), 1))))
    step = tf.train.GradientDescentOptimizer(0.15).minimize(loss)
    x, y = _line(40, 3)
    losses = []
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        init = sess.run([a, b])
        for i in range(8):
            fd = {xd: x[i * 5:(i + 1) * 5], yd: y[i * 5:(i + 1) * 5]}
            sess.run(step, feed_dict=fd)
            losses.append(sess.run(loss, feed_dict=fd))
        return {"init": init, "losses": np.array(losses), "ab": sess.run([a, b])}


@tolerance(rtol=1e-5, atol=1e-6)
def case_cookbook_batch_vs_stochastic_training(tf):
    """02_TensorFlow_Way/06: the same graph trained with a [1]-shaped feed (stochastic)
    and a [None, 1] batch, seeded `tf.random_normal` init after reset_default_graph."""
    out = {}
    for name, batch in (("stochastic", None), ("batch", 20)):
        tf.reset_default_graph()
        tf.set_random_seed(1)
        x = np.random.RandomState(5).normal(1, 0.1, 100).astype(np.float32)
        shape = [1] if batch is None else [None, 1]
        xd = tf.placeholder(shape=shape, dtype=tf.float32)
        yd = tf.placeholder(shape=shape, dtype=tf.float32)
        a = tf.Variable(tf.random_normal(shape=[1, 1] if batch else [1]))
        out_t = tf.matmul(xd, a) if batch else tf.multiply(xd, a)
        loss = tf.reduce_mean(tf.square(out_t - yd))
        step = tf.train.GradientDescentOptimizer(0.02).minimize(loss)
        hist = []
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            for i in range(10):
                idx = np.random.RandomState(i).choice(100, size=batch or 1)
                xs = x[idx].reshape(-1, 1) if batch else x[idx]
                fd = {xd: xs, yd: np.full_like(xs, 10.0)}
                sess.run(step, feed_dict=fd)
                hist.append(sess.run(loss, feed_dict=fd))
            out[name] = np.array(hist)
            out[name + "_a"] = sess.run(a)
    return out
