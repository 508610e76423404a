"""Eager golden cases: TF1 loss scaling under eager execution — DynamicLossScale and
MixedPrecisionLossScaleOptimizer with a callable loss, tf.keras's LossScaleOptimizer
(skipped steps still count iterations), repr with the current values."""

import numpy as np


def case_dynamic_loss_scale_optimizer(tf):
    w = tf.Variable([[1.0, 2.0]], name="w")
    ls = tf.train.experimental.DynamicLossScale(initial_loss_scale=8., increment_period=1)
    opt = tf.train.experimental.MixedPrecisionLossScaleOptimizer(
        tf.train.GradientDescentOptimizer(0.1), ls)
    out = []
    for factor in [1.0, np.inf, 1.0, np.nan]:
        opt.minimize(lambda: tf.reduce_sum(w * w) * factor)
        out.append([w.numpy(), ls().numpy(), repr(ls)])
    return out


def case_keras_loss_scale_optimizer(tf):
    opt = tf.keras.mixed_precision.LossScaleOptimizer(tf.keras.optimizers.SGD(0.1),
                                                      initial_scale=4.,
                                                      dynamic_growth_steps=1)
    v = tf.Variable([1.0, -1.0])
    out = []
    for factor in [1.0, np.inf, 1.0]:
        opt.minimize(lambda: tf.reduce_sum(v * v) * factor, [v])
        out.append([v.numpy(), opt.loss_scale.numpy(), opt.iterations.numpy(),
                    opt.dynamic_counter.numpy()])
    return out
