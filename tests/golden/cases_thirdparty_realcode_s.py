"""Golden cases: patterns from third-party TF1 projects run under real TF and tf1compat
(session realcode-s).

* research/slim's nasnet_cifar: seeded gradients now match TF at a tiny input. Its final
  layer drew other initial values because TF's op seeds are a per-graph counter of
  `get_seed` calls, not an op count: `slim.dropout(net, 1.0)` while training adds no op
  but its `nn.dropout` with a rate of 0 still draws an op seed (TF 2.x's dummy RNG step),
  which contrib's keep-prob-1 shortcut here skipped, so every later seeded initializer
  was one seed behind.
* openai/baselines (2020 master, TF1): a2c and ppo2 models with mlp / cnn / cnn_small /
  lstm / lnlstm / cnn_lnlstm / conv_only policies and Discrete, Box and MultiDiscrete
  action spaces, and deepq's build_train (layer-normed mlp, dueling conv), driven with fake
  envs, matched TF's step outputs, losses and trained parameters; common/tests' tf_util,
  schedules and segment-tree tests pass. The cases pin its probability-distribution
  and ppo2 loss patterns.
* NVlabs/stylegan (v1): G_style and D_basic at 8x8 with tiny fmaps, dnnlib.tflib's Network
  templates, clone and moving-average Gs, its Optimizer with and without loss scaling,
  autosummary, the non-saturating G loss and D's R1 penalty: three training steps matched
  TF. Its optimizer imports `tensorflow.python.ops.nccl_ops` at module level, which
  tf1compat now provides (the towers' all-sum in one process); the cases pin that
  module's construction and blur2d's nested custom gradient (R1's gradient of gradient).
* google/dopamine (2019, TF1): its DQN, Rainbow and implicit-quantile agent tests (42)
  pass on tf1compat, and seeded DQN / Rainbow agents (36x36 frames, 9 steps of which 5
  train) chose TF's actions and ended with TF's Q values. The case pins Rainbow's
  categorical projection.
"""

import numpy as np

from tests.golden.harness import catch, tolerance


def _seeded(shape, seed=0, scale=1.0):
    return (np.random.RandomState(seed).uniform(-1, 1, shape) * scale).astype(np.float32)


def case_slim_dropout_keep_prob_one_draws_op_seed(tf):
    """`slim.dropout(x, 1.0)` while training returns `x` but draws an op seed, like
    `tf.nn.dropout(x, rate=0.0)`; `tf.layers.dropout(rate=0.0)` (an Identity) and the eval
    branch draw none. The seed2 of a following `random_uniform` and its values show it."""
    from tests.golden.cases_contrib_slim_zoo import _slim
    slim = _slim(tf)
    builders = {
        "slim_train": lambda x: slim.dropout(x, 1.0, is_training=True, scope="dropout"),
        "slim_eval": lambda x: slim.dropout(x, 1.0, is_training=False, scope="dropout"),
        "nn_rate0": lambda x: tf.nn.dropout(x, rate=0.0),
        "nn_keep1": lambda x: tf.nn.dropout(x, keep_prob=1.0),
        "nn_rate0_seeded": lambda x: tf.nn.dropout(x, rate=0.0, seed=5),
        "layers_rate0": lambda x: tf.layers.dropout(x, rate=0.0, training=True),
    }
    out = {}
    for name, build in builders.items():
        with tf.Graph().as_default():
            tf.set_random_seed(1)
            x = tf.ones([2, 3])
            tf.random_normal([2])
            y = build(x)
            r = tf.random_uniform([3])
            with tf.Session() as sess:
                out[name] = {"same_tensor": y is x, "seed2": r.op.get_attr("seed2"),
                             "r": sess.run(r)}
    return out


@tolerance(rtol=1e-5, atol=1e-6)
def case_baselines_pd_gumbel_sample_and_neglogp(tf):
    """openai/baselines' CategoricalPd: a seeded Gumbel-max sample
    `argmax(logits - log(-log(u)))`, neglogp through sparse softmax cross entropy on
    one-hot labels' argmax, its max-shifted entropy and KL; DiagGaussianPd's neglogp."""
    tf.set_random_seed(0)
    logits = tf.constant(_seeded([4, 3], 1, 2.0))
    other = tf.constant(_seeded([4, 3], 2, 2.0))
    u = tf.random_uniform(tf.shape(logits), dtype=logits.dtype)
    sample = tf.argmax(logits - tf.log(-tf.log(u)), axis=-1)
    one_hot = tf.one_hot(sample, logits.get_shape().as_list()[-1])
    neglogp = tf.nn.softmax_cross_entropy_with_logits_v2(logits=logits, labels=one_hot)
    a0 = logits - tf.reduce_max(logits, axis=-1, keepdims=True)
    a1 = other - tf.reduce_max(other, axis=-1, keepdims=True)
    ea0, ea1 = tf.exp(a0), tf.exp(a1)
    z0 = tf.reduce_sum(ea0, axis=-1, keepdims=True)
    z1 = tf.reduce_sum(ea1, axis=-1, keepdims=True)
    p0 = ea0 / z0
    entropy = tf.reduce_sum(p0 * (tf.log(z0) - a0), axis=-1)
    kl = tf.reduce_sum(p0 * (a0 - tf.log(z0) - a1 + tf.log(z1)), axis=-1)
    mean, logstd = tf.split(axis=-1, num_or_size_splits=2, value=tf.constant(_seeded([4, 4], 3)))
    x = tf.constant(_seeded([4, 2], 4))
    gauss = (0.5 * tf.reduce_sum(tf.square((x - mean) / tf.exp(logstd)), axis=-1)
             + 0.5 * np.log(2.0 * np.pi) * tf.to_float(tf.shape(x)[-1])
             + tf.reduce_sum(logstd, axis=-1))
    with tf.Session() as sess:
        return dict(zip(["sample", "neglogp", "entropy", "kl", "gauss"],
                        sess.run([sample, neglogp, entropy, kl, gauss])))


@tolerance(rtol=1e-5, atol=1e-6)
def case_baselines_ppo2_clipped_step(tf):
    """ppo2's loss: clipped value loss (max of the two squares), the clipped ratio
    objective, approxkl and clipfrac; gradients clipped by global norm and one Adam step
    with epsilon 1e-5, as ppo2/model.py builds its train op."""
    w = tf.Variable(_seeded([3, 2], 5), name="w")
    v = tf.Variable(_seeded([3], 6), name="v")
    obs = tf.constant(_seeded([5, 3], 7))
    logits = tf.matmul(obs, w)
    vpred = tf.reduce_sum(obs * v, axis=1)
    actions = tf.constant([0, 1, 1, 0, 1])
    neglogpac = tf.nn.sparse_softmax_cross_entropy_with_logits(logits=logits, labels=actions)
    old_neglogp = tf.constant(_seeded([5], 8, 0.5) + 0.7)
    old_v = tf.constant(_seeded([5], 9))
    ret = tf.constant(_seeded([5], 10))
    adv = tf.constant(_seeded([5], 11))
    clip = 0.2
    vclipped = old_v + tf.clip_by_value(vpred - old_v, -clip, clip)
    vf_loss = .5 * tf.reduce_mean(tf.maximum(tf.square(vpred - ret), tf.square(vclipped - ret)))
    ratio = tf.exp(old_neglogp - neglogpac)
    pg_loss = tf.reduce_mean(tf.maximum(-adv * ratio,
                                        -adv * tf.clip_by_value(ratio, 1.0 - clip, 1.0 + clip)))
    approxkl = .5 * tf.reduce_mean(tf.square(neglogpac - old_neglogp))
    clipfrac = tf.reduce_mean(tf.to_float(tf.greater(tf.abs(ratio - 1.0), clip)))
    loss = pg_loss + 0.5 * vf_loss
    params = tf.trainable_variables("")
    trainer = tf.train.AdamOptimizer(learning_rate=3e-2, epsilon=1e-5)
    grads_and_var = trainer.compute_gradients(loss, params)
    grads, var = zip(*grads_and_var)
    grads, grad_norm = tf.clip_by_global_norm(grads, 0.5)
    train = trainer.apply_gradients(list(zip(grads, var)))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        stats = [sess.run([pg_loss, vf_loss, approxkl, clipfrac, grad_norm, train])[:-1]
                 for _ in range(3)]
        return {"stats": stats, "params": sess.run(params)}


def _nccl_ops(tf):
    if getattr(tf, "contrib", None) is not None:     # tf1compat
        from tf1compat.internal import nccl_ops
        return nccl_ops
    from tensorflow.python.ops import nccl_ops
    return nccl_ops


def case_stylegan_nccl_ops_construction(tf):
    """StyleGAN's optimizer imports `tensorflow.python.ops.nccl_ops` at module level and
    all-sums the towers' gradients: one output per input, on that input's device, of the
    inputs' shape and dtype; TF's ValueErrors for no tensors and for a tensor with no
    device. (No value: TF's NCCL kernels need GPUs.)"""
    nccl = _nccl_ops(tf)
    with tf.device("/gpu:0"):
        a = tf.ones([2, 3])
    with tf.device("/gpu:1"):
        b = tf.zeros([2, 3])
    outs = nccl.all_sum([a, b])
    bare = tf.ones([2])
    return {"n": len(outs), "devices": [o.device for o in outs],
            "shapes": [o.shape.as_list() for o in outs], "dtypes": [o.dtype.name for o in outs],
            "broadcast_device": nccl.broadcast(a).device,
            "empty": catch(lambda: nccl.all_sum([])),
            "empty_reduce": catch(lambda: nccl.reduce_sum([])),
            "no_device": catch(lambda: nccl.all_max([bare])),
            "broadcast_no_device": catch(lambda: nccl.broadcast(bare))}


@tolerance(rtol=1e-5, atol=1e-6)
def case_stylegan_blur2d_nested_custom_gradient(tf):
    """StyleGAN's blur2d: a depthwise NCHW blur whose tf.custom_gradient returns a flipped
    blur that is itself a custom_gradient, so R1's gradient-of-gradient goes through the
    inner function; first and second order gradients."""
    def _blur(x, flip=False):
        f = np.array([1, 2, 1], np.float32)
        f = f[:, None] * f[None, :]
        f /= np.sum(f)
        if flip:
            f = f[::-1, ::-1]
        f = np.tile(f[:, :, None, None], [1, 1, int(x.shape[1]), 1])
        return tf.nn.depthwise_conv2d(x, tf.constant(f), strides=[1, 1, 1, 1],
                                      padding="SAME", data_format="NCHW")

    @tf.custom_gradient
    def blur(x):
        y = _blur(x)

        @tf.custom_gradient
        def grad(dy):
            return _blur(dy, flip=True), lambda ddx: _blur(ddx) * 3.0
        return y, grad

    x = tf.constant(_seeded([2, 2, 5, 5], 12))
    w = tf.constant(_seeded([2, 2, 5, 5], 13))
    y = blur(x * x)
    g, = tf.gradients(tf.reduce_sum(y * w), x)
    r1 = tf.reduce_sum(tf.square(g))
    gg, = tf.gradients(r1, x)
    with tf.Session() as sess:
        return dict(zip(["y", "g", "gg"], sess.run([y, g, gg])))


@tolerance(rtol=1e-5, atol=1e-6)
def case_dopamine_rainbow_project_distribution(tf):
    """dopamine's Rainbow `project_distribution`: the Bellman-shifted support clipped to
    [v_min, v_max], tiled against the target support (tf.tile of a one-element Python list
    of a tensor), triangular kernel weights and a reduce over the last axis; its tf.Assert
    validation on a bad support raises at run time."""
    target_support = tf.linspace(-2.0, 2.0, 5)
    rewards = tf.constant([0.5, -1.0, 3.0])
    supports = rewards[:, None] + 0.9 * tf.tile(target_support[None, :], [3, 1])
    weights = tf.nn.softmax(tf.constant(_seeded([3, 5], 14, 2.0)))
    deltas = target_support[1:] - target_support[:-1]
    delta_z = deltas[0]
    check = tf.Assert(tf.reduce_all(tf.equal(deltas, delta_z)), [target_support])
    with tf.control_dependencies([check]):
        v_min, v_max = target_support[0], target_support[-1]
        batch_size = tf.shape(supports)[0]
        num_dims = tf.shape(target_support)[0]
        clipped = tf.clip_by_value(supports, v_min, v_max)[:, None, :]
        tiled = tf.tile([clipped], [1, 1, num_dims, 1])
        target = tf.reshape(tf.tile(target_support[:, None], [batch_size, 1]),
                            [batch_size, num_dims, 1])
        quotient = tf.clip_by_value(1 - tf.abs(tiled - target) / delta_z, 0, 1)
        projection = tf.reshape(tf.reduce_sum(quotient * weights[:, None, :], 3),
                                [batch_size, num_dims])
    bad = tf.constant([0.0, 1.0, 3.0])
    bad_deltas = bad[1:] - bad[:-1]
    bad_check = tf.Assert(tf.reduce_all(tf.equal(bad_deltas, bad_deltas[0])), [bad])
    with tf.Session() as sess:
        return {"tiled_shape": tiled.shape.as_list(), "projection": sess.run(projection),
                "bad_support": catch(lambda: sess.run(bad_check))}
