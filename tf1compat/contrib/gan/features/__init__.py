"""`tf.contrib.gan.features`: discriminator weight clipping, conditioning tensors on
side information, spectral normalization, virtual batch normalization and tensor pools
(TF 1.14's contrib/gan/python/features)."""

# ruff: noqa: F401
from tf1compat.contrib.gan.features.clip_weights import clip_discriminator_weights, \
    clip_variables
from tf1compat.contrib.gan.features.conditioning_utils import condition_tensor, \
    condition_tensor_from_onehot
from tf1compat.contrib.gan.features.random_tensor_pool import tensor_pool
from tf1compat.contrib.gan.features.spectral_normalization import compute_spectral_norm, \
    keras_spectral_normalization, spectral_norm_regularizer, \
    spectral_normalization_custom_getter, spectral_normalize
from tf1compat.contrib.gan.features.virtual_batchnorm import VBN
from tf1compat.contrib._missing import missing as _missing

__getattr__ = _missing("tf.contrib.gan.features")
