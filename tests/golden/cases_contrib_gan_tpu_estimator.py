"""Golden cases: `tf.contrib.gan.estimator.TPUGANEstimator` with `use_tpu=False` (TF 1.14's
tpu_gan_estimator_impl.py on a TPUEstimator run on the CPU): one train op per step that
runs the discriminator's update before the generator's (or both, `joint_train`),
evaluation through `eval_metrics=(metric_fn, tensors)` with the unreduced losses, and
predictions under `generated_data`. Oracle: TF 1.14's contrib/gan on TF 2.15's
tensorflow-estimator TPUEstimator (scripts/oracle_contrib_gan.py)."""

import itertools
import shutil
import tempfile

from tests.golden import cases_contrib_gan_estimator as gan_estimator_cases
from tests.golden.cases_contrib_gan import data, gan_of
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _estimator(tf, gan, model_dir, **kwargs):
    args = dict(use_tpu=False, train_batch_size=4, eval_batch_size=4, predict_batch_size=4,
                config=tf.estimator.tpu.RunConfig(tf_random_seed=2))
    args.update(kwargs)
    return gan_estimator_cases._estimator(tf, gan, model_dir, "TPUGANEstimator", **args)


def _input(tf):
    noise, real = data()

    def input_fn(params):
        assert params["batch_size"] == 4
        return tf.constant(noise), tf.constant(real)
    return input_fn


def _run(tf, **kwargs):
    gan = gan_of(tf)
    model_dir = tempfile.mkdtemp()
    try:
        est = _estimator(tf, gan, model_dir, **kwargs)
        est.train(_input(tf), steps=2)
        variables = {name: est.get_variable_value(name)
                     for name in est.get_variable_names()}
        metrics = est.evaluate(_input(tf), steps=1)
        noise, _ = data()
        # The input_fn never runs out: one batch of predictions is read.
        predictions = list(itertools.islice(est.predict(
            lambda params: tf.constant(noise)), 4))
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    return {"variables": variables, "metrics": metrics, "predictions": predictions}


def case_tpu_gan_estimator_sequential(tf):
    """The generator's update runs after the discriminator's, but reads the
    discriminator's weights through reads made before it, which TF's ref variables alias
    (the values it sees race with the update): the discriminator's learning rate is 0."""
    return _run(tf, discriminator_optimizer=lambda: tf.train.GradientDescentOptimizer(0.0))


def case_tpu_gan_estimator_joint_with_metrics(tf):
    """A joint step runs both updates in one op group, whose order TF leaves to its
    scheduler: the variables' shapes, the metric keys and the step are compared."""
    out = _run(tf, joint_train=True, get_eval_metric_ops_fn=lambda inputs, generated, real,
               d_real, d_gen: {"real_mean": tf.metrics.mean(real),
                               "gap": tf.metrics.mean(d_real - d_gen)})
    return {"variables": {k: list(v.shape) for k, v in out["variables"].items()},
            "metrics": sorted(out["metrics"]), "step": out["metrics"]["global_step"],
            "real_mean": out["metrics"]["real_mean"]}


def case_tpu_gan_estimator_errors(tf):
    gan = gan_of(tf)
    E = gan.estimator.TPUGANEstimator
    loss = gan.losses.wasserstein_generator_loss
    return {"no_gen_loss": catch(lambda: E(discriminator_loss_fn=loss), message=True),
            "no_dis_loss": catch(lambda: E(generator_loss_fn=loss), message=True),
            "steps_type": catch(lambda: E(generator_loss_fn=loss, discriminator_loss_fn=loss,
                                          gan_train_steps=(1, 1)), message=True),
            "steps_ratio": catch(lambda: E(generator_loss_fn=loss, discriminator_loss_fn=loss,
                                           gan_train_steps=gan.GANTrainSteps(1, 2)),
                                 message=True)}
