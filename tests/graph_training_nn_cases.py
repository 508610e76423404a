"""Training graphs of GANs and attention models that real TensorFlow trains from the file
tf1compat writes (scripts/check_tf_reads_graphs.py; as tests/graph_training_cases.py):
transposed convolutions (DCGAN's and pix2pix' generators), Tile with multiples known at
run time only and rounding, arg max and one-hot on the gradient path (a transformer's
key masks and pseudo labels): ops TF has no function gradient for, written as others
inside the forward function (graphdef/gradient_lowering_nn.py, gradient_export.py),
and tf.cond branches whose random numbers and gradient stops feed a MatMul.
"""

from __future__ import annotations

import numpy as np

from tests.graph_training_cases import X8, _training_spec

NOISE = np.cos(np.arange(4 * 6, dtype=np.float32) * 0.9).reshape(4, 6)
REAL = np.sin(np.arange(4 * 8 * 8, dtype=np.float32) * 0.21).reshape(4, 8, 8, 1)
# Token ids with padding (0) at the end of some rows: the key masks hide those keys.
TOKENS = np.array([[3, 1, 4, 1, 5], [9, 2, 6, 0, 0], [5, 3, 5, 8, 0]], np.int32)


def case_train_dcgan_conv_transpose(tf):
    """DCGAN: a generator of tf.layers.conv2d_transpose (strides 2, 'same', batch norm in
    training mode, relu) and tf.nn.conv2d_transpose with a 'VALID' kernel of its own
    (pix2pix' deconv), a convolutional discriminator with leaky relu; sigmoid
    cross-entropies, one Momentum per network on its own variables, run in turn."""
    z = tf.placeholder(tf.float32, [None, 6], name="z")
    real = tf.placeholder(tf.float32, [None, 8, 8, 1], name="real")
    init = tf.truncated_normal_initializer(stddev=0.2, seed=5)

    def generator(noise):
        with tf.variable_scope("generator"):
            h = tf.reshape(tf.layers.dense(noise, 2 * 2 * 8, kernel_initializer=init),
                           [-1, 2, 2, 8])
            h = tf.nn.relu(tf.layers.batch_normalization(h, training=True))
            h = tf.layers.conv2d_transpose(h, 4, 3, strides=2, padding="same",
                                           kernel_initializer=init)
            h = tf.nn.relu(tf.layers.batch_normalization(h, training=True))
            kernel = tf.get_variable("deconv", [2, 2, 1, 4], initializer=init)
            batch = tf.shape(h)[0]
            return tf.tanh(tf.nn.conv2d_transpose(h, kernel, tf.stack([batch, 8, 8, 1]),
                                                  [1, 2, 2, 1], "VALID"))

    def discriminator(images, reuse):
        with tf.variable_scope("discriminator", reuse=reuse):
            h = tf.layers.conv2d(images, 4, 3, strides=2, padding="same",
                                 kernel_initializer=init)
            h = tf.nn.leaky_relu(h, 0.2)
            return tf.layers.dense(tf.layers.flatten(h), 1, kernel_initializer=init)

    fake = generator(z)
    real_logits, fake_logits = discriminator(real, False), discriminator(fake, True)

    def loss(logits, label):
        return tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(
            logits=logits, labels=tf.fill(tf.shape(logits), label)))
    d_loss = tf.add(loss(real_logits, 1.0), loss(fake_logits, 0.0), name="d_loss")
    g_loss = tf.identity(loss(fake_logits, 1.0), name="g_loss")
    d_vars = tf.trainable_variables("discriminator")
    g_vars = tf.trainable_variables("generator")
    with tf.control_dependencies(tf.get_collection(tf.GraphKeys.UPDATE_OPS)):
        tf.train.MomentumOptimizer(0.05, 0.5).minimize(d_loss, var_list=d_vars,
                                                       name="train_d")
        tf.train.MomentumOptimizer(0.05, 0.5).minimize(g_loss, var_list=g_vars,
                                                       name="train_g")
    tf.global_variables_initializer()
    # The networks' steps one after the other (one run each), as DCGAN's loop does.
    feeds = {"z:0": NOISE, "real:0": REAL}
    spec = _training_spec(tf, tf.train.Saver(), feeds, [
        "d_loss:0", "g_loss:0", "generator/deconv:0", "generator/conv2d_transpose/kernel:0",
        "discriminator/conv2d/kernel:0", "generator/batch_normalization/moving_mean:0"])
    steps = [{"feeds": feeds, "fetches": [], "targets": [target]}
             for _ in range(3) for target in ("train_d", "train_g")]
    spec["runs"] = steps + spec["runs"][-1:]
    return spec


def case_train_attention_key_masks(tf):
    """A transformer block as Kyubyong's: embeddings, multi-head attention whose key and
    query masks are tiled by the run-time batch size (`tf.tile(m, [tf.shape(q)[0], 1])`),
    padded keys set to -2^32 + 1 before the softmax; a loss against pseudo labels (the
    one-hot of the arg max of rounded logits: no gradient, as in TF); Adam."""
    heads, width = 2, 4
    tokens = tf.placeholder(tf.int32, [None, 5], name="tokens")
    table = tf.get_variable("embeddings", [10, width], initializer=tf.constant_initializer(
        np.cos(np.arange(40, dtype=np.float32) * 0.37).reshape(10, width)))
    x = tf.nn.embedding_lookup(table, tokens) * tf.cast(
        tf.expand_dims(tf.sign(tokens), -1), tf.float32)
    dense = {name: tf.layers.Dense(width, kernel_initializer=tf.constant_initializer(
        np.eye(width, dtype=np.float32) * scale + 0.05), name=name)
        for name, scale in (("q", 0.9), ("k", 1.1), ("v", 0.7))}
    q, k, v = (dense[name](x) for name in ("q", "k", "v"))
    q_, k_, v_ = (tf.concat(tf.split(t, heads, axis=2), axis=0) for t in (q, k, v))
    scores = tf.matmul(q_, tf.transpose(k_, [0, 2, 1])) / (width // heads) ** 0.5
    key_masks = tf.sign(tf.abs(tf.reduce_sum(x, axis=-1)))
    key_masks = tf.tile(key_masks, [heads, 1])
    key_masks = tf.tile(tf.expand_dims(key_masks, 1), [1, tf.shape(q)[1], 1])
    scores = tf.where(tf.equal(key_masks, 0), tf.ones_like(scores) * (-2 ** 32 + 1), scores)
    weights = tf.nn.softmax(scores)
    query_masks = tf.tile(tf.sign(tf.abs(tf.reduce_sum(x, axis=-1))), [heads, 1])
    weights *= tf.tile(tf.expand_dims(query_masks, -1), [1, 1, tf.shape(k)[1]])
    out = tf.concat(tf.split(tf.matmul(weights, v_), heads, axis=0), axis=2) + x
    logits = tf.layers.dense(out, 3, kernel_initializer=tf.constant_initializer(
        np.linspace(-0.5, 0.5, width * 3, dtype=np.float32).reshape(width, 3)), name="out")
    pseudo = tf.one_hot(tf.argmax(tf.round(logits * 4.0) + tf.floor(logits), -1), 3)
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=pseudo * 0.8 + 0.2 / 3, logits=logits), name="loss")
    tf.train.AdamOptimizer(0.05).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"tokens:0": TOKENS},
                          ["loss:0", "embeddings:0", "q/kernel:0", "out/kernel:0"])


def case_train_while_loop_body_ops(tf):
    """A loop body with ops TF's function gradients take since the 40 ops probed (atan,
    sign, a reduction over axis -1, xlogy), rounding (no gradient: pushed each
    iteration) and reflection padding of the state; Momentum."""
    x = tf.placeholder(tf.float32, [None, 4], name="x")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.7 + 0.05))
    v = tf.get_variable("v", [4], initializer=tf.constant_initializer(0.3))

    def body(i, h):
        mixed = tf.atan(tf.matmul(h, w)) + 0.1 * tf.sign(h) * tf.reduce_mean(
            h * v, axis=-1, keepdims=True)
        padded = tf.pad(mixed, [[0, 0], [1, 1]], "REFLECT")
        return i + 1, padded[:, 1:-1] * 0.9 + 0.05 * padded[:, :-2] + \
            0.01 * tf.floor(h * 4.0) + 0.1 * tf.math.xlogy(v * v + 0.1, h * h + 1.0)

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    loss = tf.reduce_mean(tf.square(h - 0.2), name="loss")
    tf.train.MomentumOptimizer(0.2, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    return _training_spec(tf, tf.train.Saver(), {"x:0": X8}, ["loss:0", "w:0", "v:0"])


def case_train_cond_cuts_into_matmul(tf):
    """tf.cond branches (in a loop body and after the loop) whose random numbers
    (uniform in [1, 1]: the same values in TF and tf1compat) and gradient stops feed a
    MatMul, not only broadcasting ops: the other branch's stand-in is zeros of their
    static shape; Momentum, with the predicate flipped by a placeholder."""
    tf.set_random_seed(35)
    x = tf.placeholder(tf.float32, [4, 4], name="x")
    flip = tf.placeholder(tf.bool, [], name="flip")
    w = tf.get_variable("w", [4, 4], initializer=tf.constant_initializer(
        np.eye(4, dtype=np.float32) * 0.4 + 0.05))

    def body(i, h):
        odd = tf.not_equal(tf.equal(i % 2, 1), flip)
        return i + 1, tf.cond(
            odd, lambda: tf.matmul(tf.random_uniform([4, 4], 1.0, 1.0) * 0.2,
                                   tf.tanh(tf.matmul(h, w))),
            lambda: tf.matmul(tf.stop_gradient(h * 0.5), w) + h * 0.3)

    _, h = tf.while_loop(lambda i, h: i < 3, body, [tf.constant(0), x])
    top = tf.cond(flip, lambda: tf.matmul(tf.stop_gradient(h), w), lambda: h * 2.0)
    loss = tf.reduce_mean(tf.square(top - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.1, 0.5).minimize(loss, name="train")
    tf.global_variables_initializer()
    spec = _training_spec(tf, tf.train.Saver(), {"x:0": X8[:4], "flip:0": False},
                          ["loss:0", "w:0"])
    other = {"x:0": X8[:4], "flip:0": True}
    spec["runs"] += [{"feeds": other, "fetches": [], "targets": ["train"]},
                     {"feeds": other, "fetches": ["loss:0", "w:0"]}]
    return spec


def case_train_unet_run_time_deconv(tf):
    """A small U-Net as jakeret/tf_unet builds it, over images of any size: VALID 3x3
    convolutions, a max pool, an up-convolution `tf.nn.conv2d_transpose` (2x2, stride 2,
    'VALID') to the shape `tf.stack([n, h * 2, w * 2, c // 2])` of the input's tf.shape,
    the skip connection cropped to it by a tf.slice of run-time offsets (`(h1 - h2) // 2`,
    sizes -1 kept) and concatenated, then a tf.layers.conv2d_transpose 'same' of stride
    2 (its output shape computed from tf.shape as well), a 1x1 convolution to two classes;
    softmax cross-entropy, Momentum."""
    x = tf.placeholder(tf.float32, [None, None, None, 1], name="x")
    labels = tf.placeholder(tf.float32, [None, None, None, 2], name="labels")

    def weight(name, shape, scale):
        size = int(np.prod(shape))
        start = sum(map(ord, name))
        return tf.get_variable(name, initializer=np.sin(
            np.arange(size, dtype=np.float32) * 0.37 + start).reshape(shape) * scale)

    def conv(h, name, shape):
        return tf.nn.relu(tf.nn.conv2d(h, weight(name, shape, 0.4), [1, 1, 1, 1], "VALID")
                          + weight(name + "_b", shape[-1:], 0.05))
    down = conv(conv(x, "w1", [3, 3, 1, 4]), "w2", [3, 3, 4, 4])
    pooled = tf.nn.max_pool(down, [1, 2, 2, 1], [1, 2, 2, 1], "VALID")
    bottom = conv(pooled, "w3", [3, 3, 4, 8])
    dims = tf.shape(bottom)
    up = tf.nn.relu(tf.nn.conv2d_transpose(
        bottom, weight("wd", [2, 2, 4, 8], 0.4),
        tf.stack([dims[0], dims[1] * 2, dims[2] * 2, dims[3] // 2]), [1, 2, 2, 1], "VALID"))
    skip, near = tf.shape(down), tf.shape(up)
    cropped = tf.slice(down, tf.stack([0, (skip[1] - near[1]) // 2,
                                       (skip[2] - near[2]) // 2, 0]),
                       tf.stack([-1, near[1], near[2], -1]))
    merged = conv(tf.concat([cropped, up], 3), "w4", [3, 3, 8, 4])
    merged = tf.layers.conv2d_transpose(merged, 3, 3, strides=2, padding="same",
                                        activation=tf.nn.relu, name="up2",
                                        kernel_initializer=tf.constant_initializer(
                                            np.cos(np.arange(3 * 3 * 3 * 4) * 0.3) * 0.4))
    logits = tf.nn.conv2d(merged, weight("w5", [1, 1, 3, 2], 1.5), [1, 1, 1, 1], "VALID")
    loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits_v2(
        labels=labels, logits=logits), name="loss")
    tf.train.MomentumOptimizer(0.2, 0.9).minimize(loss, name="train")
    tf.global_variables_initializer()
    images = np.sin(np.arange(2 * 14 * 16, dtype=np.float32) * 0.29).reshape(2, 14, 16, 1)
    # 14x16 -> 12x14 -> 10x12 -> 5x6 -> 3x4 -> 6x8 -> 4x6 -> 8x12
    hot = (np.cos(np.arange(2 * 8 * 12) * 0.7) > 0).reshape(2, 8, 12)
    truth = np.stack([hot, ~hot], -1).astype(np.float32)
    return _training_spec(tf, tf.train.Saver(), {"x:0": images, "labels:0": truth},
                          ["loss:0", "w1:0", "w3:0", "wd:0", "w4:0", "up2/kernel:0",
                           "w5:0"])


def case_train_conv_transpose_explicit_run_time_kernel(tf):
    """Two transposed convolutions over images of any size and channels, of EXPLICIT
    paddings larger before than after (`[[0, 0], [2, 0], [1, 1], [0, 0]]`, stride 1x3;
    `[[0, 0], [1, 0], [2, 1], [0, 0]]`, stride 2) to output shapes computed from
    tf.shape: the first kernel reshaped from a flat variable to `[3, 3, 2, c]` of the
    input's run-time channels `c`, the second passed through tf.placeholder_with_default
    of an unknown shape; Momentum."""
    x = tf.placeholder(tf.float32, [None, None, None, None], name="x")
    w1 = tf.get_variable("w1", initializer=np.sin(np.arange(54, dtype=np.float32) * 0.37)
                         * 0.4)
    w2 = tf.get_variable("w2", initializer=np.cos(np.arange(18, dtype=np.float32) * 0.53)
                         .reshape(3, 3, 1, 2) * 0.5)
    dims = tf.shape(x)
    kernel1 = tf.reshape(w1, tf.stack([3, 3, 2, dims[3]]))
    up = tf.tanh(tf.nn.conv2d_transpose(
        x, kernel1, tf.stack([dims[0], dims[1], dims[2] * 3 - 2, 2]), [1, 1, 3, 1],
        [[0, 0], [2, 0], [1, 1], [0, 0]]))
    near = tf.shape(up)
    y = tf.nn.conv2d_transpose(
        up, tf.placeholder_with_default(w2, None),
        tf.stack([near[0], near[1] * 2 + 1, near[2] * 2 - 1, 1]), [1, 2, 2, 1],
        [[0, 0], [1, 0], [2, 1], [0, 0]])
    loss = tf.reduce_mean(tf.square(tf.sin(y) - 0.3), name="loss")
    tf.train.MomentumOptimizer(0.3, 0.9).minimize(loss, name="train")
    tf.global_variables_initializer()
    images = np.cos(np.arange(2 * 5 * 4 * 3, dtype=np.float32) * 0.7).reshape(2, 5, 4, 3)
    return _training_spec(tf, tf.train.Saver(), {"x:0": images}, ["loss:0", "w1:0", "w2:0"])


NN_TRAINING_CASES = [case_train_dcgan_conv_transpose, case_train_attention_key_masks,
                     case_train_while_loop_body_ops, case_train_cond_cuts_into_matmul,
                     case_train_unet_run_time_deconv,
                     case_train_conv_transpose_explicit_run_time_kernel]
