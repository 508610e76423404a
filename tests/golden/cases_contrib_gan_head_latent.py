"""Golden cases: `tf.contrib.gan.estimator.GANHead` / `gan_head` in a user's model_fn
(train / evaluate / predict, named head's metric keys, errors) and
`get_latent_gan_estimator` (train a latent z of a GAN trained by GANEstimator, warm
started from its checkpoint). Oracle: TF 1.14's contrib/gan on TF 2.15's
tensorflow-estimator (scripts/oracle_contrib_gan.py)."""

import itertools
import shutil
import tempfile

import numpy as np

from tests.golden.cases_contrib_gan import data, discriminator, gan_of, generator
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _input(tf):
    noise, real = data()
    return lambda: (tf.constant(noise), tf.constant(real))


def _head_model_fn(tf, gan, name):
    head = gan.estimator.gan_head(
        generator_loss_fn=gan.losses.wasserstein_generator_loss,
        discriminator_loss_fn=gan.losses.wasserstein_discriminator_loss,
        generator_optimizer=tf.train.GradientDescentOptimizer(0.1),
        discriminator_optimizer=tf.train.GradientDescentOptimizer(0.05),
        get_eval_metric_ops_fn=lambda model: {
            "generated_mean": tf.metrics.mean(model.generated_data)},
        name=name)

    def model_fn(features, labels, mode):
        if mode == tf.estimator.ModeKeys.PREDICT:
            with tf.variable_scope("Generator"):
                generated = generator(tf)(features)
            model = gan.GANModel(features, generated, None, None, None, None, None, None,
                                 None, None, None)
        else:
            model = gan.gan_model(generator(tf), discriminator(tf), labels, features,
                                  check_shapes=False)
        return head.create_estimator_spec(features=None, mode=mode, logits=model)
    return model_fn


def _run_head(tf, name):
    gan = gan_of(tf)
    model_dir = tempfile.mkdtemp()
    try:
        est = tf.estimator.Estimator(_head_model_fn(tf, gan, name), model_dir=model_dir)
        est.train(_input(tf), steps=3)
        variables = {n: est.get_variable_value(n) for n in est.get_variable_names()}
        metrics = est.evaluate(_input(tf), steps=1)
        noise, _ = data()
        predictions = list(itertools.islice(
            est.predict(lambda: tf.data.Dataset.from_tensors(tf.constant(noise))), 4))
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    return {"variables": variables, "metrics": metrics, "predictions": predictions}


def case_gan_head_train_evaluate_predict(tf):
    return _run_head(tf, None)


def case_gan_head_named_metric_keys(tf):
    return _run_head(tf, "gan")


def case_gan_head_errors(tf):
    gan = gan_of(tf)
    H = gan.estimator.GANHead
    loss = gan.losses.wasserstein_generator_loss
    opt = tf.train.GradientDescentOptimizer(0.1)

    def spec(**kwargs):
        with tf.Graph().as_default():
            head = H(loss, loss, opt, opt)
            model = gan.gan_model(generator(tf), discriminator(tf), tf.constant(data()[1]),
                                  tf.constant(data()[0]), check_shapes=False)
            args = dict(features=None, mode=tf.estimator.ModeKeys.TRAIN, logits=model)
            args.update(kwargs)
            return head.create_estimator_spec(**args)

    with tf.Graph().as_default():
        out = {"loss_fn": catch(lambda: H(3, loss, opt, opt), message=True),
               "dis_loss_fn": catch(lambda: H(loss, 3, opt, opt), message=True),
               "summaries_flag": catch(lambda: H(loss, loss, opt, opt,
                                                 use_loss_summaries="yes"), message=True),
               "hooks": catch(lambda: H(loss, loss, opt, opt, get_hooks_fn=3), message=True),
               "name": catch(lambda: H(loss, loss, opt, opt, name=3), message=True),
               "logits_dimension": H(loss, loss, opt, opt).logits_dimension,
               "not_a_model": catch(lambda: H(loss, loss, opt, opt).create_estimator_spec(
                   None, tf.estimator.ModeKeys.TRAIN, logits=3), message=False),
               "labels": catch(lambda: spec(labels=3), message=False),
               "features": catch(lambda: spec(features=3), message=False),
               "no_train_op_fn": catch(lambda: spec(train_op_fn=None), message=True),
               "bad_mode": catch(lambda: spec(mode="bogus"), message=True)}
    return out


def _latent_generator(tf):
    def fn(noise, mode):
        w = tf.get_variable("w", [4, 3], initializer=tf.constant_initializer(
            np.random.RandomState(1).uniform(-0.5, 0.5, (4, 3)).astype(np.float32)))
        return tf.tanh(tf.matmul(noise, w))
    return fn


def _latent_discriminator(tf):
    base = discriminator(tf)

    def fn(data_, condition, mode):
        return base(data_, condition)
    return fn


def case_latent_gan_estimator(tf):
    gan = gan_of(tf)
    noise, real = data()
    ckpt_dir, model_dir = tempfile.mkdtemp(), tempfile.mkdtemp()
    try:
        trained = gan.estimator.GANEstimator(
            model_dir=ckpt_dir, generator_fn=_latent_generator(tf),
            discriminator_fn=_latent_discriminator(tf),
            generator_loss_fn=gan.losses.wasserstein_generator_loss,
            discriminator_loss_fn=gan.losses.wasserstein_discriminator_loss,
            generator_optimizer=tf.train.GradientDescentOptimizer(0.1),
            discriminator_optimizer=tf.train.GradientDescentOptimizer(0.1))
        trained.train(_input(tf), steps=2)
        gan_variables = {n: trained.get_variable_value(n)
                         for n in trained.get_variable_names()}

        def loss_fn(model, features, labels, add_summaries):
            return tf.reduce_mean(tf.square(model.generated_data - labels))

        est = gan.estimator.get_latent_gan_estimator(
            _latent_generator(tf), _latent_discriminator(tf), loss_fn,
            tf.train.GradientDescentOptimizer,
            params={"batch_size": 4, "z_shape": [4], "learning_rate": 0.5,
                    "input_clip": 1.0, "add_summaries": True},
            config=tf.estimator.RunConfig(model_dir=model_dir, tf_random_seed=5),
            ckpt_dir=ckpt_dir)
        est.train(lambda: (tf.constant(noise), tf.constant(real)), steps=4)
        latent_variables = {n: est.get_variable_value(n) for n in est.get_variable_names()}
    finally:
        shutil.rmtree(ckpt_dir, ignore_errors=True)
        shutil.rmtree(model_dir, ignore_errors=True)
    return {"gan": gan_variables, "latent": latent_variables}
