"""Golden cases: `tf.contrib.gan.estimator.GANEstimator` train / evaluate / predict
(checkpointed variables, evaluation metrics, predictions, argument errors). Oracle: TF
1.14's contrib/gan on TF 2.15's tensorflow-estimator (scripts/oracle_contrib_gan.py)."""

import shutil
import tempfile

from tests.golden.cases_contrib_gan import data, discriminator, gan_of, generator
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _estimator(tf, gan, model_dir, estimator="GANEstimator", **kwargs):
    def gen(noise, mode):
        out = generator(tf)(noise)
        return out * 2.0 if mode == tf.estimator.ModeKeys.PREDICT else out
    args = dict(model_dir=model_dir, generator_fn=gen, discriminator_fn=discriminator(tf),
                generator_loss_fn=gan.losses.wasserstein_generator_loss,
                discriminator_loss_fn=gan.losses.wasserstein_discriminator_loss,
                generator_optimizer=tf.train.GradientDescentOptimizer(0.1),
                discriminator_optimizer=lambda: tf.train.GradientDescentOptimizer(0.05))
    args.update(kwargs)
    return getattr(gan.estimator, estimator)(**args)


def _train_input(tf):
    noise, real = data()
    return lambda: (tf.constant(noise), tf.constant(real))


def case_gan_estimator_train_evaluate_predict(tf):
    gan = gan_of(tf)
    model_dir = tempfile.mkdtemp()
    try:
        est = _estimator(
            tf, gan, model_dir,
            add_summaries=gan.estimator.SummaryType.VARIABLES,
            get_hooks_fn=gan.get_sequential_train_hooks(gan.GANTrainSteps(1, 2)),
            get_eval_metric_ops_fn=lambda model: {
                "generated_mean": tf.metrics.mean(model.generated_data)})
        est.train(_train_input(tf), steps=3)
        variables = {name: est.get_variable_value(name)
                     for name in est.get_variable_names()}
        metrics = est.evaluate(_train_input(tf), steps=1)
        noise, _ = data()
        predictions = list(est.predict(
            lambda: tf.data.Dataset.from_tensors(tf.constant(noise))))
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    return {"variables": variables, "metrics": metrics, "predictions": predictions}


def case_gan_estimator_joint_hooks(tf):
    gan = gan_of(tf)
    model_dir = tempfile.mkdtemp()
    try:
        est = _estimator(tf, gan, model_dir,
                         get_hooks_fn=gan.get_joint_train_hooks(gan.GANTrainSteps(2, 1)),
                         generator_loss_fn=gan.losses.modified_generator_loss,
                         discriminator_loss_fn=gan.losses.modified_discriminator_loss,
                         use_loss_summaries=False)
        est.train(_train_input(tf), max_steps=2)
        # A joint step runs both train ops in one session.run, whose relative order TF
        # leaves to its scheduler: only the step and the variables' shapes are compared.
        variables = {name: list(est.get_variable_value(name).shape)
                     for name in est.get_variable_names()}
        step = est.get_variable_value("global_step")
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    return {"variables": variables, "step": step}


def case_gan_estimator_errors(tf):
    gan = gan_of(tf)
    E = gan.estimator.GANEstimator
    loss = gan.losses.wasserstein_generator_loss
    out = {"no_gen_loss": catch(lambda: E(discriminator_loss_fn=loss), message=True),
           "no_dis_loss": catch(lambda: E(generator_loss_fn=loss), message=True),
           "summaries_flag": catch(lambda: E(generator_loss_fn=loss, discriminator_loss_fn=loss,
                                             use_loss_summaries="yes"), message=True),
           "hooks": catch(lambda: E(generator_loss_fn=loss, discriminator_loss_fn=loss,
                                    get_hooks_fn=3), message=True)}
    model_dir = tempfile.mkdtemp()
    try:
        est = _estimator(tf, gan, model_dir,
                         get_eval_metric_ops_fn=lambda model: [1])
        est.train(_train_input(tf), steps=1)
        out["eval_metric_type"] = catch(lambda: est.evaluate(_train_input(tf), steps=1))
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    out["summary_types"] = [int(t) for t in gan.estimator.SummaryType]
    return out
