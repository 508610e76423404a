"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-nmt).

* tensorflow/nmt (master, TF1 seq2seq tutorial: contrib.seq2seq attention, greedy and
  beam-search decoding, tf.data iterators over lookup tables, a local-cluster session):
  its own tests (model_test, inference_test, nmt_test, utils/*_test) pass under both.
  The oracle ran TF 1.15's contrib.seq2seq and HParams Python sources on TF 2.21's
  kernels (GatherTree as a numpy py_func). With every graph seeded, model_test's 60
  numbers (losses, variable sums, logits sums, beam-search sentences) are TF's to 4e-7
  and nmt_test's 100-step training prints TF's perplexities and gradient norms (0.01
  apart at step 95 of 100). Two differences are TF's own: model_test's graphs are
  unseeded, so TF's dropout masks change run to run; and TF's executor runs the first
  `parallel_iterations` iterations of a while loop pipelined, so stateful random ops in a
  loop body that do not wait on the previous iteration (DropoutWrapper on the inputs of
  dynamic_rnn / dynamic_decode) draw their numbers in another order than the iterations'
  (measured: iterations 0..n-1 of the first block get the draws in reverse). tf1compat
  runs iterations in order, which is TF's order with `parallel_iterations=1`.
* ibab/tensorflow-wavenet (master): test_causal_conv, test_generation and test_mu_law
  behave the same under both (test_mu_law's np.int and numpy-exactness failures are the
  same five tests); test_model trains unseeded WaveNets and checks loss thresholds.

The change that came out of them: float32 `Pow` on the CPU is TF's value bit for bit
(ops/_eigen_pow.py: Eigen's generic_pow, and Grappler's rewrite of constant exponents to
Square / x * Square(x) / Sqrt / Rsqrt / Reciprocal); torch's pow was one ULP off on a
quarter of the inputs, which wavenet's mu-law decode (`256 ** |x|`) showed.
"""

import numpy as np

from tests.golden.harness import tolerance


def _bits(a):
    return np.asarray(a, np.float32).view(np.int32)


@tolerance(rtol=0.0, atol=0.0)
def case_pow_float32_bits(tf):
    """float32 `Pow` with fed base and exponent (a length that is not a multiple of 8, so
    the last elements take Eigen's scalar path), a scalar Python base over a tensor
    (wavenet's `(1 + mu) ** abs(signal)`), special values and subnormal results (TF
    flushes them to zero), constant exponents (Grappler's ConvertPow rewrites) and the
    gradient with respect to the base (TF's gradient calls Pow for `x ** (y - 1)`)."""
    rng = np.random.RandomState(7)
    xs = np.concatenate([rng.uniform(0.01, 10, 45), [0.0, -0.0, 1.0, -1.0, np.inf, -np.inf,
                                                      2.0, -2.0, -8.0, 1.7, 0.6, 1e-30]])
    ys = np.concatenate([rng.uniform(-5, 5, 45), [2.0, 3.0, -1.0, 0.5, -2.0, 3.0, 0.0, 3.0,
                                                  -3.0, -190.0, 200.0, 1.5]])
    xs, ys = xs.astype(np.float32), ys.astype(np.float32)
    with tf.Graph().as_default():
        x = tf.placeholder(tf.float32, [None])
        y = tf.placeholder(tf.float32, [None])
        signal = tf.placeholder(tf.float32, [None])
        z = tf.pow(x, y)
        grad_x = tf.gradients(tf.reduce_sum(z * 0.5), x)[0]
        decode = tf.sign(signal) * ((1 / 255) * ((1 + 255) ** tf.abs(signal) - 1))
        consts = [tf.pow(tf.abs(x), e) for e in (2.0, 3.0, 0.5, 4.0, 1.5, -2.0)]
        with tf.Session() as sess:
            # The project's `2 * (q / 255) - 1` is fed (TF's Grappler runs a division by
            # a constant as a product with its reciprocal: ops/grappler_rewrites.py).
            feed = {x: xs, y: ys, signal: np.arange(0, 256, 5, dtype=np.float32) / 127.5 - 1}
            vz, vg, vd, vc = sess.run([z, grad_x, decode, consts], feed)
    finite = np.isfinite(xs) & (xs > 0)
    return {"pow": _bits(vz), "grad_x": _bits(vg[finite]), "decode": _bits(vd),
            "const_exponents": [_bits(c) for c in vc]}
