"""Golden cases: `tf.contrib.gan` model builders and losses (gan_model, acgan_model,
infogan_model, cyclegan_model, stargan_model; the tuple losses and losses.wargs; gan_loss
with its penalties, cyclegan_loss, stargan_loss). TF 1.15 has no contrib.gan: the oracle
is TF 1.14's contrib/gan sources run under TF 2.21's tf.compat.v1
(scripts/oracle_contrib_gan.py; record with PYTHONPATH=scripts). Networks use constant
initializers, so values, variable names, op names and collections are comparable."""

import numpy as np

from tests.golden.harness import catch, describe


def gan_of(tf):
    """tf1compat's tf.contrib.gan, or TF 1.14's under the oracle."""
    contrib = getattr(tf, "contrib", None)
    if contrib is not None:
        return contrib.gan
    import oracle_contrib_gan
    return oracle_contrib_gan.tf114_gan(tf)


def _const(shape, seed):
    return np.random.RandomState(seed).uniform(-0.5, 0.5, shape).astype(np.float32)


def generator(tf, out_dim=3):
    def fn(noise):
        w = tf.get_variable("w", [noise.shape[-1], out_dim],
                            initializer=tf.constant_initializer(_const([4, out_dim], 1)))
        b = tf.get_variable("b", [out_dim], initializer=tf.zeros_initializer())
        return tf.tanh(tf.matmul(noise, w) + b)
    return fn


def discriminator(tf, outputs=1):
    def fn(data, unused_conditioning):
        w = tf.get_variable("w", [data.shape[-1], 5],
                            initializer=tf.constant_initializer(_const([3, 5], 2)))
        h = tf.nn.leaky_relu(tf.matmul(data, w), 0.2)
        v = tf.get_variable("v", [5, outputs],
                            initializer=tf.constant_initializer(_const([5, outputs], 3)))
        return tf.matmul(h, v)
    return fn


def data(batch=4):
    rng = np.random.RandomState(7)
    return (rng.uniform(-1, 1, (batch, 4)).astype(np.float32),
            rng.uniform(-1, 1, (batch, 3)).astype(np.float32))


def build_gan(tf, gan, **kwargs):
    noise, real = data()
    return gan.gan_model(generator(tf), discriminator(tf), tf.constant(real),
                         tf.constant(noise), **kwargs)


def _names(variables):
    return [v.name for v in variables]


def case_gan_model(tf):
    gan = gan_of(tf)
    model = build_gan(tf, gan)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([model.generated_data, model.discriminator_gen_outputs,
                           model.discriminator_real_outputs])
    return {"fields": list(type(model)._fields), "type": type(model).__name__,
            "generator_variables": _names(model.generator_variables),
            "discriminator_variables": _names(model.discriminator_variables),
            "scopes": [model.generator_scope.name, model.discriminator_scope.name],
            "tensors": [describe(t) for t in (model.generated_data,
                                              model.discriminator_gen_outputs,
                                              model.discriminator_real_outputs)],
            "values": values, "global": _names(tf.global_variables())}


def case_gan_model_scopes_and_errors(tf):
    gan = gan_of(tf)
    model = build_gan(tf, gan, generator_scope="G", discriminator_scope="D")
    noise, _ = data()
    bad = catch(lambda: gan.gan_model(generator(tf), discriminator(tf),
                                      tf.zeros([4, 7]), tf.constant(noise),
                                      generator_scope="G2", discriminator_scope="D2"),
                message=True)
    unchecked = gan.gan_model(generator(tf), discriminator(tf, outputs=1),
                              tf.zeros([4, 3]), [tf.constant(noise)][0],
                              generator_scope="G3", discriminator_scope="D3",
                              check_shapes=False)
    return {"vars": _names(model.generator_variables + model.discriminator_variables),
            "bad": bad, "unchecked": describe(unchecked.generated_data),
            "trainable": _names(tf.trainable_variables())}


def _acgan_discriminator(tf, classes=2):
    def fn(data, unused_conditioning):
        base = discriminator(tf, outputs=1 + classes)(data, None)
        return base[:, :1], base[:, 1:]
    return fn


def _acgan(tf, gan):
    noise, real = data()
    labels = tf.one_hot([0, 1, 1, 0], 2)
    return gan.acgan_model(generator(tf), _acgan_discriminator(tf), tf.constant(real),
                           tf.constant(noise), labels)


def case_acgan_model(tf):
    gan = gan_of(tf)
    model = _acgan(tf, gan)
    noise, real = data()
    bad = catch(lambda: gan.acgan_model(generator(tf), discriminator(tf), real, noise,
                                        tf.one_hot([0, 1, 1, 0], 2), generator_scope="G2",
                                        discriminator_scope="D2"), message=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([model.discriminator_real_classification_logits,
                           model.discriminator_gen_classification_logits])
    return {"type": type(model).__name__, "fields": list(type(model)._fields),
            "tensors": [describe(t) for t in (model.discriminator_real_outputs,
                                              model.discriminator_gen_outputs,
                                              model.discriminator_real_classification_logits,
                                              model.discriminator_gen_classification_logits)],
            "values": values, "bad": bad}


def _infogan(tf, gan):
    noise, real = data()
    cat = tf.one_hot([0, 2, 1, 2], 3)
    cont = tf.constant(np.linspace(-1, 1, 4, dtype=np.float32).reshape(4, 1))

    def gen(inputs):
        code = tf.cast(tf.expand_dims(inputs[1], 1), tf.float32) * 0.1 + inputs[2]
        return generator(tf)(tf.concat([inputs[0][:, :3], code], 1))

    def dis(data, unused_inputs):
        logits = discriminator(tf, outputs=5)(data, None)
        return logits[:, :1], [tf.distributions.Categorical(logits=logits[:, 1:4]),
                               tf.distributions.Normal(logits[:, 4:5], 1.0)]
    return gan.infogan_model(gen, dis, tf.constant(real), [tf.constant(noise)],
                             [tf.argmax(cat, 1), cont])


def case_infogan_model_and_mutual_information(tf):
    gan = gan_of(tf)
    model = _infogan(tf, gan)
    penalty = gan.losses.mutual_information_penalty(model)
    wargs = gan.losses.wargs.mutual_information_penalty(
        model.structured_generator_inputs, model.predicted_distributions, weights=0.5,
        scope="mi")
    loss = gan.gan_loss(model, mutual_information_penalty_weight=2.0, add_summaries=False)
    bad = catch(lambda: gan.losses.wargs.mutual_information_penalty(
        model.structured_generator_inputs, model.predicted_distributions[:1]), message=True)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([penalty, wargs, loss.generator_loss, loss.discriminator_loss])
    return {"type": type(model).__name__, "fields": list(type(model)._fields),
            "n_inputs": len(model.generator_inputs), "values": values,
            "names": [penalty.op.name, wargs.op.name], "bad": bad,
            "losses": [t.op.name for t in tf.get_collection(tf.GraphKeys.LOSSES)]}


def build_cyclegan(tf, gan):
    _, y = data()

    def gen(inputs):
        w = tf.get_variable("w", [3, 3], initializer=tf.constant_initializer(_const([3, 3], 4)))
        return tf.matmul(inputs, w)
    return gan.cyclegan_model(gen, discriminator(tf), tf.constant(y), tf.constant(y[::-1]))


def case_cyclegan_model_and_loss(tf):
    gan = gan_of(tf)
    model = build_cyclegan(tf, gan)
    loss = gan.cyclegan_loss(model)
    consistency = gan.losses.cycle_consistency_loss(model, add_summaries=True)
    bad = catch(lambda: gan.cyclegan_loss(model.model_x2y))
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([model.reconstructed_x, model.reconstructed_y, loss, consistency])
    return {"type": type(model).__name__, "values": values,
            "variables": _names(tf.global_variables()),
            "scopes": [model.model_x2y.generator_scope.name,
                       model.model_y2x.discriminator_scope.name],
            "loss_names": [loss.loss_x2y.generator_loss.op.name,
                           loss.loss_y2x.discriminator_loss.op.name],
            "summaries": sorted(t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)),
            "bad": bad}


def case_stargan_model_and_loss(tf):
    gan = gan_of(tf)
    tf.set_random_seed(5)
    x, _ = data()
    labels = tf.one_hot([0, 1, 2, 1], 3)

    def gen(images, target):
        w = tf.get_variable("w", [7, 4], initializer=tf.constant_initializer(_const([7, 4], 5)))
        return tf.tanh(tf.matmul(tf.concat([images, target], 1), w))

    def dis(images, num_domains):
        w = tf.get_variable("w", [4, 1 + num_domains],
                            initializer=tf.constant_initializer(_const([4, 4], 6)))
        out = tf.matmul(images, w)
        return out[:, 0], out[:, 1:]
    model = gan.stargan_model(gen, dis, tf.constant(x), labels)
    loss = gan.stargan_loss(model)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        values = sess.run([model.generated_data_domain_target, model.reconstructed_data,
                           loss])
    return {"type": type(model).__name__, "values": values,
            "variables": _names(tf.global_variables()),
            "tensors": [describe(model.generated_data_domain_target),
                        describe(model.discriminator_input_data_domain_predication)],
            "summaries": sorted(t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES))}


def _loss_values(tf, fetches):
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        return sess.run(fetches)


def case_tuple_losses(tf):
    gan = gan_of(tf)
    model = build_gan(tf, gan)
    L = gan.losses
    losses = {
        "wass_g": L.wasserstein_generator_loss(model),
        "wass_d": L.wasserstein_discriminator_loss(model, add_summaries=True),
        "minimax_g": L.minimax_generator_loss(model, add_summaries=True),
        "minimax_d": L.minimax_discriminator_loss(model),
        "modified_g": L.modified_generator_loss(model, label_smoothing=0.1),
        "modified_d": L.modified_discriminator_loss(model, add_summaries=True),
        "lsq_g": L.least_squares_generator_loss(model, real_label=0.9),
        "lsq_d": L.least_squares_discriminator_loss(model, fake_label=-1,
                                                    add_summaries=True),
        "weighted": L.wasserstein_generator_loss(model, weights=tf.constant(
            [[1.0], [0.0], [2.0], [0.5]])),
        "mean": L.minimax_discriminator_loss(model, reduction=tf.losses.Reduction.MEAN),
    }
    values = _loss_values(tf, losses)
    return {"values": values, "names": {k: v.op.name for k, v in losses.items()},
            "losses": [t.op.name for t in tf.get_collection(tf.GraphKeys.LOSSES)],
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)],
            "ambiguous": catch(lambda: L.wasserstein_generator_loss(
                model, discriminator_gen_outputs=model.discriminator_real_outputs),
                message=True),
            # (TF names whichever missing argument its set yields first: no message)
            "missing": catch(lambda: L.acgan_generator_loss(model))}


def case_wargs_losses(tf):
    gan = gan_of(tf)
    W = gan.losses.wargs
    real = tf.constant([[0.5], [-1.0], [2.0]])
    gen = tf.constant([[0.1], [0.7], [-0.3]])
    logits = tf.constant([[1.0, 0.5, -1.0], [0.2, 0.1, 0.3], [2.0, -2.0, 0.0]])
    labels = tf.one_hot([0, 2, 1], 3)
    losses = {
        "wass_d": W.wasserstein_discriminator_loss(real, gen, real_weights=2.0,
                                                   scope="wd"),
        "minimax_d": W.minimax_discriminator_loss(real, gen, label_smoothing=0.0,
                                                  loss_collection=None),
        "lsq_g": W.least_squares_generator_loss(tf.constant([1, 2, 3])),
        "acgan_d": W.acgan_discriminator_loss(logits, logits * 0.5, labels,
                                              label_smoothing=0.2, add_summaries=True),
        "acgan_g": W.acgan_generator_loss(logits, labels, weights=3.0),
        "cycle": W.cycle_consistency_loss(real, gen, gen, real * 2.0),
    }
    values = _loss_values(tf, losses)
    return {"values": values, "names": {k: v.op.name for k, v in losses.items()},
            "losses": [t.op.name for t in tf.get_collection(tf.GraphKeys.LOSSES)],
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)],
            "shape_mismatch": catch(lambda: W.wasserstein_discriminator_loss(
                real, tf.zeros([3, 2])))}


def case_gradient_penalty(tf):
    gan = gan_of(tf)
    tf.set_random_seed(11)
    model = build_gan(tf, gan)
    penalty = gan.losses.wasserstein_gradient_penalty(model, add_summaries=True)
    one_sided = gan.losses.wasserstein_gradient_penalty(model, one_sided=True, target=2.0,
                                                        epsilon=1e-3, scope="gp2")
    noise, real = data()
    unknown = catch(lambda: gan.losses.wargs.wasserstein_gradient_penalty(
        tf.placeholder(tf.float32), tf.constant(real), None, discriminator(tf),
        model.discriminator_scope), message=True)
    values = _loss_values(tf, [penalty, one_sided])
    return {"values": values, "names": [penalty.op.name, one_sided.op.name],
            "variables": _names(tf.global_variables()), "unknown": unknown,
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]}


def case_gan_loss(tf):
    gan = gan_of(tf)
    tf.set_random_seed(12)
    model = build_gan(tf, gan)
    plain = gan.gan_loss(model)
    gp = gan.gan_loss(model, gan.losses.modified_generator_loss,
                      gan.losses.modified_discriminator_loss, gradient_penalty_weight=10.0,
                      add_summaries=False)
    zero = gan.gan_loss(model, gradient_penalty_weight=0.0, add_summaries=False)
    errors = {
        "negative": catch(lambda: gan.gan_loss(model, gradient_penalty_weight=-1.0),
                          message=True),
        # (the messages name TF's module path of the model class)
        "info": catch(lambda: gan.gan_loss(model, mutual_information_penalty_weight=1.0)),
        "acgan": catch(lambda: gan.gan_loss(model, aux_cond_generator_weight=1.0))}
    values = _loss_values(tf, [plain, gp, zero])
    return {"values": values, "type": type(plain).__name__,
            "fields": list(type(plain)._fields), "errors": errors,
            "names": [plain.generator_loss.op.name, gp.discriminator_loss.op.name],
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]}


def case_gan_loss_regularization_and_tensor_weight(tf):
    gan = gan_of(tf)
    tf.set_random_seed(13)
    noise, real = data()

    def gen(inputs):
        w = tf.get_variable("w", [4, 3], initializer=tf.constant_initializer(_const([4, 3], 1)),
                            regularizer=lambda t: 0.5 * tf.reduce_sum(tf.square(t)))
        return tf.matmul(inputs, w)
    model = gan.gan_model(gen, discriminator(tf), tf.constant(real), tf.constant(noise))
    weight = tf.placeholder_with_default(2.0, [])
    loss = gan.gan_loss(model, gradient_penalty_weight=weight, add_summaries=False)
    with tf.Session() as sess:
        sess.run(tf.global_variables_initializer())
        ok = sess.run(loss)
        bad = catch(lambda: sess.run(loss, {weight: -1.0}))
    return {"values": ok, "bad": bad,
            "reg": [t.op.name for t in tf.get_collection(
                tf.GraphKeys.REGULARIZATION_LOSSES)]}


def case_acgan_losses(tf):
    gan = gan_of(tf)
    model = _acgan(tf, gan)
    loss = gan.gan_loss(model, aux_cond_generator_weight=1.5,
                        aux_cond_discriminator_weight=0.5, add_summaries=True)
    tuple_g = gan.losses.acgan_generator_loss(model)
    tuple_d = gan.losses.acgan_discriminator_loss(model, label_smoothing=0.1)
    values = _loss_values(tf, [loss, tuple_g, tuple_d])
    return {"values": values,
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)]}


def case_combine_adversarial_loss(tf):
    gan = gan_of(tf)
    model = build_gan(tf, gan)
    loss = gan.gan_loss(model, add_summaries=False)
    main = tf.reduce_mean(tf.square(model.generated_data))
    by_weight = gan.losses.combine_adversarial_loss(loss, model, main, weight_factor=0.3)
    by_ratio = gan.losses.combine_adversarial_loss(loss, model, main, gradient_ratio=2.0,
                                                   scalar_summaries=False)
    zero = gan.losses.combine_adversarial_loss(loss, model, main, weight_factor=0.0,
                                               gradient_summaries=False,
                                               scalar_summaries=False)
    W = gan.losses.wargs
    errors = {"none": catch(lambda: W.combine_adversarial_loss(main, main), message=True),
              "both": catch(lambda: W.combine_adversarial_loss(main, main, 1.0, 1.0),
                            message=True),
              "rank": catch(lambda: W.combine_adversarial_loss(tf.zeros([2]), main, 1.0))}
    grads = tf.gradients(by_ratio.generator_loss, model.generator_variables)
    values = _loss_values(tf, [by_weight.generator_loss, by_ratio.generator_loss, grads])
    return {"values": values, "zero_is_main": zero.generator_loss is main,
            "names": [by_weight.generator_loss.op.name, by_ratio.generator_loss.op.name],
            "summaries": [t.op.name for t in tf.get_collection(tf.GraphKeys.SUMMARIES)],
            "errors": errors}
