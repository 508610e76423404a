"""Golden cases: the core of TFGAN's MNIST examples (tensorflow/models research/gan/mnist:
the unconditional and the conditional GAN, DCGAN-style generator with batch norm and a
conv discriminator, modified/Wasserstein losses, Adam, gan_train with sequential hooks)
shrunk to tiny random 8x8 'images'. Networks use tf.layers (real TF 2.21 has no
contrib.layers); every variable starts from a name-derived constant through a custom
getter, so both sides begin from the same values. Compared: the losses before and after
training and the trained variables. Oracle: TF 1.14's contrib/gan under TF 2.21
(scripts/oracle_contrib_gan.py)."""

import tempfile
import zlib

import numpy as np

from tests.golden.cases_contrib_gan import gan_of


def _init_getter(tf):
    def custom_getter(getter, name, shape=None, *args, **kwargs):
        rng = np.random.RandomState(zlib.crc32(name.encode()))
        if name.endswith("gamma") or name.endswith("moving_variance"):
            value = 1.0 + rng.uniform(-0.1, 0.1, shape)
        elif name.endswith("moving_mean"):
            value = np.zeros(shape)
        else:
            value = rng.uniform(-0.3, 0.3, shape)
        kwargs["initializer"] = tf.constant_initializer(value.astype(np.float32))
        return getter(name, shape, *args, **kwargs)
    return custom_getter


def _generator(tf, gan, conditional):
    def generator_fn(inputs, is_training=True):
        with tf.variable_scope("net", custom_getter=_init_getter(tf)):
            if conditional:
                noise, one_hot = inputs
                net = gan.features.condition_tensor_from_onehot(noise, one_hot,
                                                                embedding_size=4)
            else:
                net = inputs
            net = tf.layers.dense(net, 32, use_bias=False)
            net = tf.nn.relu(tf.layers.batch_normalization(net, training=is_training))
            net = tf.layers.dense(net, 2 * 2 * 8, use_bias=False)
            net = tf.nn.relu(tf.layers.batch_normalization(net, training=is_training))
            net = tf.reshape(net, [-1, 2, 2, 8])
            net = tf.layers.conv2d_transpose(net, 4, 4, strides=2, padding="same",
                                             activation=tf.nn.relu)
            net = tf.layers.conv2d_transpose(net, 4, 4, strides=2, padding="same",
                                             activation=tf.nn.relu)
            return tf.layers.conv2d(net, 1, 4, padding="same", activation=tf.tanh)
    return generator_fn


def _discriminator(tf, gan, conditional):
    def discriminator_fn(img, inputs):
        with tf.variable_scope("net", custom_getter=_init_getter(tf)):
            net = tf.layers.conv2d(img, 4, 4, strides=2, padding="same",
                                   activation=lambda x: tf.nn.leaky_relu(x, 0.01))
            net = tf.layers.conv2d(net, 8, 4, strides=2, padding="same",
                                   activation=lambda x: tf.nn.leaky_relu(x, 0.01))
            net = tf.layers.flatten(net)
            if conditional:
                net = gan.features.condition_tensor_from_onehot(net, inputs[1],
                                                                embedding_size=4)
            net = tf.layers.dense(net, 16, activation=lambda x: tf.nn.leaky_relu(x, 0.01))
            return tf.layers.dense(net, 1)
    return discriminator_fn


def _run_example(tf, conditional, generator_loss, discriminator_loss, steps=3):
    gan = gan_of(tf)
    rng = np.random.RandomState(21)
    images = rng.uniform(-1, 1, (6, 8, 8, 1)).astype(np.float32)
    noise = rng.normal(size=(6, 5)).astype(np.float32)
    labels = np.eye(3, dtype=np.float32)[[0, 1, 2, 0, 1, 2]]
    logdir = tempfile.mkdtemp()
    with tf.Graph().as_default():
        inputs = (tf.constant(noise), tf.constant(labels)) if conditional \
            else tf.constant(noise)
        model = gan.gan_model(_generator(tf, gan, conditional),
                              _discriminator(tf, gan, conditional),
                              real_data=tf.constant(images), generator_inputs=inputs)
        loss = gan.gan_loss(model, generator_loss_fn=getattr(gan.losses, generator_loss),
                            discriminator_loss_fn=getattr(gan.losses, discriminator_loss))
        ops = gan.gan_train_ops(model, loss,
                                generator_optimizer=tf.train.AdamOptimizer(0.01, 0.5),
                                discriminator_optimizer=tf.train.AdamOptimizer(0.001, 0.5),
                                summarize_gradients=True)
        names = sorted(v.op.name for v in tf.global_variables())
        with tf.Session() as sess:
            sess.run(tf.global_variables_initializer())
            before = sess.run(loss)
        gan.gan_train(ops, logdir, hooks=[tf.train.StopAtStepHook(num_steps=steps)],
                      save_summaries_steps=None)
        reader = tf.train.load_checkpoint(logdir)
        # The generator's conditioning bias feeds a bias-free dense layer and batch norm,
        # which removes it again: its gradient is only rounding noise, which Adam's
        # normalized step turns into visible differences. Left out of the comparison.
        trained = {v.op.name: reader.get_tensor(v.op.name)
                   for v in model.generator_variables + model.discriminator_variables
                   if v.op.name != "Generator/net/fully_connected/biases"}
        moving = {n: reader.get_tensor(n) for n in names if "moving_" in n}
        saver = tf.train.Saver()
        with tf.Session() as sess:
            saver.restore(sess, tf.train.latest_checkpoint(logdir))
            after = sess.run([loss, model.generated_data])
    return {"variables": names, "before": before, "after_loss": after[0],
            "generated": after[1], "trained": trained, "moving": moving,
            "step": reader.get_tensor("global_step")}


def case_mnist_unconditional(tf):
    return _run_example(tf, False, "modified_generator_loss", "modified_discriminator_loss")


def case_mnist_conditional(tf):
    return _run_example(tf, True, "wasserstein_generator_loss",
                        "wasserstein_discriminator_loss")
