"""Golden cases: `tf.contrib.gan.estimator.StarGANEstimator` train / evaluate / predict
(TF 1.14's stargan_estimator_impl.py): features are the images, labels their domains
(one-hot); prediction takes (images, target domains) through
`stargan_prediction_input_fn_wrapper`. Oracle: TF 1.14's contrib/gan on TF 2.15's
tensorflow-estimator (scripts/oracle_contrib_gan.py)."""

import itertools
import shutil
import tempfile

import numpy as np

from tests.golden.cases_contrib_gan import _const, data, gan_of
from tests.golden.harness import catch

TF_VERSION = "2.15"


def _networks(tf):
    def gen(images, target, mode):
        w = tf.get_variable("w", [7, 4], initializer=tf.constant_initializer(_const([7, 4], 5)))
        out = tf.tanh(tf.matmul(tf.concat([images, target], 1), w))
        return out * 2.0 if mode == tf.estimator.ModeKeys.PREDICT else out

    def dis(images, num_domains):
        w = tf.get_variable("w", [4, 1 + num_domains],
                            initializer=tf.constant_initializer(_const([4, 4], 6)))
        out = tf.matmul(images, w)
        return out[:, 0], out[:, 1:]
    return gen, dis


def _input(tf):
    x, _ = data()
    labels = np.eye(3, dtype=np.float32)[[0, 1, 2, 1]]
    return lambda: (tf.constant(x), tf.constant(labels))


def case_stargan_estimator_train_evaluate_predict(tf):
    gan = gan_of(tf)
    gen, dis = _networks(tf)
    model_dir = tempfile.mkdtemp()
    try:
        est = gan.estimator.StarGANEstimator(
            model_dir=model_dir, generator_fn=gen, discriminator_fn=dis,
            # stargan_loss's gradient penalty samples its interpolation points.
            config=tf.estimator.RunConfig(tf_random_seed=3), loss_fn=gan.stargan_loss,
            generator_optimizer=tf.train.GradientDescentOptimizer(0.1),
            discriminator_optimizer=lambda: tf.train.GradientDescentOptimizer(0.05),
            get_hooks_fn=gan.get_sequential_train_hooks(gan.GANTrainSteps(1, 2)),
            add_summaries=gan.estimator.SummaryType.VARIABLES,
            get_eval_metric_ops_fn=lambda model: {
                "generated_mean": tf.metrics.mean(model.generated_data)})
        est.train(_input(tf), steps=3)
        variables = {name: est.get_variable_value(name)
                     for name in est.get_variable_names()}
        metrics = est.evaluate(_input(tf), steps=1)
        x, _ = data()
        target = np.eye(3, dtype=np.float32)[[2, 2, 0, 1]]
        wrapper = gan.estimator.stargan_estimator.stargan_prediction_input_fn_wrapper
        # The input_fn never runs out: one batch of predictions is read.
        predictions = list(itertools.islice(est.predict(wrapper(
            lambda: (tf.constant(x), tf.constant(target)))), 4))
    finally:
        shutil.rmtree(model_dir, ignore_errors=True)
    return {"variables": variables, "metrics": metrics, "predictions": predictions}


def case_stargan_estimator_errors(tf):
    gan = gan_of(tf)
    E = gan.estimator.StarGANEstimator
    return {"no_loss": catch(lambda: E(), message=True),
            "summaries_flag": catch(lambda: E(loss_fn=gan.stargan_loss,
                                              use_loss_summaries="yes"), message=True),
            "hooks": catch(lambda: E(loss_fn=gan.stargan_loss, get_hooks_fn=3),
                           message=True),
            "summary_types": [int(t) for t in gan.estimator.SummaryType]}
