"""`tf.contrib` (the most used parts): `tf.contrib.layers`, `tf.contrib.slim`,
`tf.contrib.framework`, `tf.contrib.eager`, `tf.contrib.data`, `tf.contrib.rnn`,
`tf.contrib.losses`, `tf.contrib.util.constant_value`, `tf.contrib.seq2seq` (decoders,
attention, beam search), the sequence losses of `legacy_seq2seq`, and the Estimator family:
`tf.contrib.learn` (Experiment, learn_runner), `tf.contrib.training` (HParams),
`tf.contrib.tpu` (TPUEstimator on CPU/GPU), `tf.contrib.estimator`,
`tf.contrib.feature_column`; `tf.contrib.factorization` (k-means); `tf.contrib.crf`. TF 2 has
no contrib; TF 1.15's documentation is the reference. Any other contrib module or symbol
raises an error naming it."""

# ruff: noqa: F401
from tf1compat.contrib import (data, eager, framework, layers, legacy_seq2seq, losses, rnn,
                               seq2seq, slim, util)
from tf1compat.contrib import lookup  # (section: mathsparse)
from tf1compat.contrib import tensorboard  # (section: probe-thirdparty)
from tf1compat.contrib import estimator, feature_column, learn, tpu, training  # (section: estimator)
from tf1compat.contrib import factorization  # (section: kmeans)
from tf1compat.contrib import crf
from tf1compat.contrib._missing import missing as _missing

__getattr__ = _missing("tf.contrib")
