"""Golden cases: patterns from hwalsuklee/tensorflow-generative-model-collections (WGAN_GP),
LantaoYu/SeqGAN and MorvanZhou's TF1 reinforcement-learning programs, restated small. These
programs ran unchanged on tf1compat and matched TF (to float rounding), so the cases pin the
patterns they lean on rather than a fixed bug.

The GAN collection's `bn` is `tf.contrib.layers.batch_norm(..., updates_collections=None)`.
TF 2.x has no contrib: under the oracle it is TF 1.15's fused path restated (a FusedBatchNorm
in training mode, then both moving averages assigned under the output's control
dependencies), which is what contrib runs for rank-2 and rank-4 inputs with that argument.
"""

import numpy as np


def _contrib_batch_norm(tf, x, scope):
    """`tf.contrib.layers.batch_norm(x, decay=0.9, updates_collections=None, epsilon=1e-5,
    scale=True, is_training=True, scope=scope)`: contrib's own under tf1compat, TF 1.15's
    fused path under the oracle."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.layers.batch_norm(x, decay=0.9, updates_collections=None, epsilon=1e-5,
                                         scale=True, is_training=True, scope=scope)
    from tensorflow.python.training import moving_averages
    with tf.variable_scope(scope):
        channels = x.get_shape()[-1]
        original = x
        if x.get_shape().ndims == 2:
            x = tf.reshape(x, [-1, 1, 1, channels])

        def var(name, init, trainable=True):
            return tf.get_variable(name, [channels], tf.float32, init, trainable=trainable,
                                   collections=[tf.GraphKeys.GLOBAL_VARIABLES,
                                                tf.GraphKeys.MODEL_VARIABLES])
        beta = var("beta", tf.zeros_initializer())
        gamma = var("gamma", tf.ones_initializer())
        moving_mean = var("moving_mean", tf.zeros_initializer(), False)
        moving_variance = var("moving_variance", tf.ones_initializer(), False)
        out, mean, variance = tf.nn.fused_batch_norm(x, gamma, beta, epsilon=1e-5)
        update_mean = moving_averages.assign_moving_average(moving_mean, mean, 0.9,
                                                            zero_debias=False)
        update_variance = moving_averages.assign_moving_average(moving_variance, variance, 0.9,
                                                                zero_debias=False)
        with tf.control_dependencies([update_mean, update_variance]):
            out = tf.identity(out)
        out.set_shape(x.get_shape())
        if original.get_shape().ndims == 2:
            out = tf.reshape(out, tf.shape(original))
        return out


def _wgan_gp_graph(tf, batch=4, z_dim=3):
    """WGAN_GP.py's model on 8x8 images: a generator (linear, batch norm, relu,
    conv2d_transpose, sigmoid), a discriminator (conv2d, lrelu as tf.maximum, batch norm,
    linear) applied to real, fake and interpolated images, and the gradient penalty on
    the slopes of D at the interpolates (a second-order gradient for the D step)."""
    rng = np.random.RandomState(5)

    def weight(name, shape, scale):
        return tf.get_variable(name, initializer=(rng.randn(*shape) * scale).astype(np.float32))

    def generator(z):
        with tf.variable_scope("generator"):
            h = tf.matmul(z, weight("g_fc1/Matrix", [z_dim, 4 * 4 * 3], 0.5))
            h = tf.nn.relu(_contrib_batch_norm(tf, h, "g_bn1"))
            h = tf.reshape(h, [batch, 4, 4, 3])
            w = weight("g_dc2/w", [4, 4, 1, 3], 0.3)
            h = tf.nn.conv2d_transpose(h, w, output_shape=[batch, 8, 8, 1],
                                       strides=[1, 2, 2, 1])
            return tf.nn.sigmoid(h)

    def discriminator(x, reuse):
        with tf.variable_scope("discriminator", reuse=reuse):
            w = weight("d_conv1/w", [4, 4, 1, 2], 0.4) if not reuse else \
                tf.get_variable("d_conv1/w")
            h = tf.nn.conv2d(x, w, strides=[1, 2, 2, 1], padding="SAME")
            h = tf.maximum(h, 0.2 * h)
            h = _contrib_batch_norm(tf, h, "d_bn1")
            h = tf.reshape(h, [batch, -1])
            m = weight("d_fc2/Matrix", [4 * 4 * 2, 1], 0.3) if not reuse else \
                tf.get_variable("d_fc2/Matrix")
            return tf.matmul(h, m)

    inputs = tf.placeholder(tf.float32, [batch, 8, 8, 1], name="real_images")
    z = tf.placeholder(tf.float32, [batch, z_dim], name="z")
    d_real = discriminator(inputs, reuse=False)
    fake = generator(z)
    d_fake = discriminator(fake, reuse=True)
    d_loss = -tf.reduce_mean(d_real) + tf.reduce_mean(d_fake)
    g_loss = -tf.reduce_mean(d_fake)
    alpha = tf.random_uniform(shape=inputs.get_shape(), minval=0., maxval=1.)
    interpolates = inputs + alpha * (fake - inputs)
    gradients = tf.gradients(discriminator(interpolates, reuse=True), [interpolates])[0]
    slopes = tf.sqrt(tf.reduce_sum(tf.square(gradients), reduction_indices=[1]))
    penalty = tf.reduce_mean((slopes - 1.) ** 2)
    d_loss += 10.0 * penalty
    t_vars = tf.trainable_variables()
    d_vars = [v for v in t_vars if "d_" in v.name]
    g_vars = [v for v in t_vars if "g_" in v.name]
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        d_optim = tf.train.AdamOptimizer(0.01, beta1=0.5).minimize(d_loss, var_list=d_vars)
        g_optim = tf.train.AdamOptimizer(0.05, beta1=0.5).minimize(g_loss, var_list=g_vars)
    return inputs, z, d_loss, g_loss, penalty, d_optim, g_optim


def case_wgan_gp_training_steps(tf):
    """Three D/G steps of WGAN_GP's train loop (D with the gradient penalty, then G):
    the losses and penalties, the generator batch norm's moving statistics (updated in
    place by every run through it) and the variables after training.

    The discriminator batch norm's moving statistics are left out: TF does not run the
    batch norm of D(interpolates) (no gradient function reads its output), tf1compat
    does, so they take one more update per D step there
    (tests/test_gradient_forward_side_effects.py)."""
    tf.set_random_seed(11)
    inputs, z, d_loss, g_loss, penalty, d_optim, g_optim = _wgan_gp_graph(tf)
    rng = np.random.RandomState(2)
    images = rng.rand(4, 8, 8, 1).astype(np.float32)
    out = {"d_loss": [], "g_loss": [], "penalty": []}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            batch_z = rng.uniform(-1, 1, [4, 3]).astype(np.float32)
            _, d, p = sess.run([d_optim, d_loss, penalty], {inputs: images, z: batch_z})
            _, g = sess.run([g_optim, g_loss], {z: batch_z})
            out["d_loss"].append(float(d))
            out["g_loss"].append(float(g))
            out["penalty"].append(float(p))
        out["vars"] = {v.op.name: sess.run(v) for v in tf.global_variables()
                       if "Adam" not in v.op.name and "power" not in v.op.name
                       and "d_bn1/moving" not in v.op.name}
    return out


case_wgan_gp_training_steps.rtol = 1e-4


def _seqgan_generator(tf, vocab=6, batch=3, length=4, emb=3, hidden=4):
    """SeqGAN's Generator: an LSTM unit written with matmuls, sampling with tf.multinomial
    inside a while_loop that writes TensorArrays (tokens and their probabilities), and
    teacher-forced predictions from an unstacked TensorArray of embeddings; the
    adversarial loss weights the log-likelihood of fed tokens by fed rewards."""
    rng = np.random.RandomState(8)

    def matrix(*shape):
        return tf.Variable((rng.randn(*shape) * 0.3).astype(np.float32))

    embeddings = matrix(vocab, emb)
    wi, ui, wf, uf = matrix(emb, hidden), matrix(hidden, hidden), matrix(emb, hidden), \
        matrix(hidden, hidden)
    wc, uc, wo_out = matrix(emb, hidden), matrix(hidden, hidden), matrix(hidden, vocab)
    params = [embeddings, wi, ui, wf, uf, wc, uc, wo_out]

    def recurrent_unit(x, hidden_memory):
        previous, c_prev = tf.unstack(hidden_memory)
        i = tf.sigmoid(tf.matmul(x, wi) + tf.matmul(previous, ui))
        f = tf.sigmoid(tf.matmul(x, wf) + tf.matmul(previous, uf))
        c_ = tf.nn.tanh(tf.matmul(x, wc) + tf.matmul(previous, uc))
        c = f * c_prev + i * c_
        return tf.stack([tf.nn.tanh(c), c])

    def output_unit(hidden_memory):
        return tf.matmul(tf.unstack(hidden_memory)[0], wo_out)

    start = tf.nn.embedding_lookup(embeddings, tf.constant([0] * batch, tf.int32))
    h0 = tf.stack([tf.zeros([batch, hidden]), tf.zeros([batch, hidden])])
    gen_o = tf.TensorArray(tf.float32, size=length, dynamic_size=False, infer_shape=True)
    gen_x = tf.TensorArray(tf.int32, size=length, dynamic_size=False, infer_shape=True)

    def sample(i, x_t, h_tm1, gen_o, gen_x):
        h_t = recurrent_unit(x_t, h_tm1)
        o_t = output_unit(h_t)
        log_prob = tf.log(tf.nn.softmax(o_t))
        token = tf.cast(tf.reshape(tf.multinomial(log_prob, 1), [batch]), tf.int32)
        gen_o = gen_o.write(i, tf.reduce_sum(tf.one_hot(token, vocab, 1.0, 0.0)
                                             * tf.nn.softmax(o_t), 1))
        return i + 1, tf.nn.embedding_lookup(embeddings, token), h_t, gen_o, gen_x.write(i, token)

    _, _, _, gen_o, gen_x = tf.while_loop(lambda i, *_: i < length, sample,
                                          (tf.constant(0), start, h0, gen_o, gen_x))
    samples = tf.transpose(gen_x.stack(), [1, 0])
    x = tf.placeholder(tf.int32, [batch, length])
    rewards = tf.placeholder(tf.float32, [batch, length])
    emb_x = tf.TensorArray(tf.float32, size=length).unstack(
        tf.transpose(tf.nn.embedding_lookup(embeddings, x), [1, 0, 2]))
    predictions = tf.TensorArray(tf.float32, size=length, dynamic_size=False, infer_shape=True)

    def teacher_forced(i, x_t, h_tm1, predictions):
        h_t = recurrent_unit(x_t, h_tm1)
        predictions = predictions.write(i, tf.nn.softmax(output_unit(h_t)))
        return i + 1, emb_x.read(i), h_t, predictions

    _, _, _, predictions = tf.while_loop(lambda i, *_: i < length, teacher_forced,
                                         (tf.constant(0), start, h0, predictions))
    predictions = tf.transpose(predictions.stack(), [1, 0, 2])
    log_likelihood = tf.reduce_sum(
        tf.one_hot(tf.to_int32(tf.reshape(x, [-1])), vocab, 1.0, 0.0)
        * tf.log(tf.clip_by_value(tf.reshape(predictions, [-1, vocab]), 1e-20, 1.0)), 1)
    g_loss = -tf.reduce_sum(log_likelihood * tf.reshape(rewards, [-1]))
    grads, norm = tf.clip_by_global_norm(tf.gradients(g_loss, params), 5.0)
    updates = tf.train.AdamOptimizer(0.05).apply_gradients(list(zip(grads, params)))
    return samples, gen_o.stack(), x, rewards, g_loss, norm, updates, params


def case_seqgan_adversarial_steps(tf):
    """SeqGAN's adversarial loop, small: sample sequences (graph-seeded multinomial inside
    the while_loop), reward them, take a clipped Adam step on the reward-weighted
    likelihood; samples, probabilities, losses, gradient norms and final parameters."""
    tf.set_random_seed(4)
    samples, probs, x, rewards, g_loss, norm, updates, params = _seqgan_generator(tf)
    rng = np.random.RandomState(6)
    out = {"samples": [], "probs": [], "g_loss": [], "norm": []}
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        for _ in range(3):
            s, p = sess.run([samples, probs])
            r = rng.rand(3, 4).astype(np.float32)
            _, loss, n = sess.run([updates, g_loss, norm], {x: s, rewards: r})
            out["samples"].append(s)
            out["probs"].append(p)
            out["g_loss"].append(float(loss))
            out["norm"].append(float(n))
        out["params"] = sess.run(params)
    return out


def case_feed_int_placeholder_with_floats(tf):
    """Curiosity.py feeds a float64 column of its replay memory to an int32 action
    placeholder: the session converts it as numpy does (truncation), and the actions
    index a gather_nd."""
    a = tf.placeholder(tf.int32, [None], name="a")
    q = tf.constant(np.arange(12, dtype=np.float32).reshape(4, 3))
    picked = tf.gather_nd(q, tf.stack([tf.range(tf.shape(a)[0], dtype=tf.int32), a], axis=1))
    with tf.Session() as sess:
        return sess.run([a, picked], {a: np.array([0.0, 2.0, 1.0, 2.9])})


def counted_identity_graph(tf):
    """x -> x*3 -> an Identity whose control dependency counts its runs -> y = h @ [1, -1]:
    (x, counter, h, y). The Identity is contrib batch_norm(updates_collections=None)'s
    hook for its moving-average updates."""
    x = tf.Variable([[1., 2.]])
    counter = tf.Variable(0.)
    h = x * 3.
    with tf.control_dependencies([tf.assign_add(counter, 1.)]):
        h = tf.identity(h)
    return x, counter, h, tf.matmul(h, tf.constant([[1.], [-1.]]))


def case_gradient_reading_forward_value_runs_its_control_deps(tf):
    """A gradient whose backward reads the counted Identity's output (d(h*h)/dx) runs its
    control dependencies, once per run, as does fetching a value computed from it. (Where
    no gradient function reads it, TF does not: tests/test_gradient_forward_side_effects.py.)"""
    x, counter, h, y = counted_identity_graph(tf)
    g2 = tf.gradients(tf.reduce_sum(h * h), x)[0]
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        first = sess.run(g2)
        after_gradient = sess.run(counter)
        value = sess.run(y)
        return first, after_gradient, value, sess.run(counter)
