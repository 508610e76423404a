"""`tf.contrib.gan.estimator`: GANEstimator and StarGANEstimator on tf1compat's Estimator,
TPUGANEstimator on its TPUEstimator (`use_tpu=False`) (TF 1.14's
contrib/gan/python/estimator), the deprecated `GANHead`/`gan_head` and
`get_latent_gan_estimator` (training a latent input of a trained GAN)."""

# ruff: noqa: F401
from tf1compat.contrib.gan.estimator import gan_estimator, head, latent_gan_estimator, \
    stargan_estimator, tpu_gan_estimator
from tf1compat.contrib.gan.estimator.gan_estimator import GANEstimator, SummaryType
from tf1compat.contrib.gan.estimator.head import GANHead, gan_head
from tf1compat.contrib.gan.estimator.latent_gan_estimator import get_latent_gan_estimator
from tf1compat.contrib.gan.estimator.stargan_estimator import StarGANEstimator
from tf1compat.contrib.gan.estimator.tpu_gan_estimator import TPUGANEstimator
from tf1compat.contrib._missing import missing as _missing

__getattr__ = _missing("tf.contrib.gan.estimator")
