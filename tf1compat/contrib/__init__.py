"""`tf.contrib` (the most used parts): `tf.contrib.layers`, `tf.contrib.slim`,
`tf.contrib.framework`, `tf.contrib.eager`, `tf.contrib.data`, `tf.contrib.rnn`,
`tf.contrib.cudnn_rnn` (cuDNN's RNN layers, also on the CPU),
`tf.contrib.losses`, `tf.contrib.util.constant_value`, `tf.contrib.seq2seq` (decoders,
attention, beam search), `tf.contrib.legacy_seq2seq` (model builders and sequence losses),
and the Estimator family: `tf.contrib.learn`
(Experiment, learn_runner), `tf.contrib.training` (HParams), `tf.contrib.tpu` (TPUEstimator
on CPU/GPU), `tf.contrib.estimator`, `tf.contrib.feature_column`; `tf.contrib.factorization`
(k-means); `tf.contrib.crf`; `tf.contrib.copy_graph`; `tf.contrib.optimizer_v2`;
`tf.contrib.checkpoint`; `tf.contrib.graph_editor`; `tf.contrib.distributions` (with
bijectors); `tf.contrib.metrics`, `tf.contrib.opt`, `tf.contrib.image`, `tf.contrib.predictor`,
`tf.contrib.summary`, `tf.contrib.mixed_precision`,
`tf.contrib.staging`, `tf.contrib.deprecated`, `tf.contrib.nn`, `tf.contrib.sparsemax`,
`tf.contrib.stateless`, `tf.contrib.quantize` (quantization-aware graph rewrite),
`tf.contrib.resampler`, `tf.contrib.memory_stats`, `tf.contrib.text` (skip-gram sampling),
`tf.contrib.integrate` (ODE solvers), `tf.contrib.gan` (TFGAN, as TF 1.14 had it);
`tf.contrib.model_pruning` (magnitude pruning), `tf.contrib.receptive_field`;
`tf.contrib.signal`, `tf.contrib.keras`, `tf.contrib.autograph` and `tf.contrib.nccl`,
which are core TF's `tf.signal`, `tf.keras`, `tf.autograph` and
`tensorflow.python.ops.nccl_ops` (imported when first used). TF 2 has no contrib; TF 1.15's
documentation is the reference. Any other contrib module or symbol raises an error naming
it (with the reason and what to use instead from framework/unsupported_api.py)."""

# ruff: noqa: F401
from tf1compat.contrib import (data, eager, framework, layers, legacy_seq2seq, losses, rnn,
                               seq2seq, slim, util)
from tf1compat.contrib import lookup  # (section: mathsparse)
from tf1compat.contrib import tensorboard  # (section: probe-thirdparty)
from tf1compat.contrib import estimator, feature_column, learn, tpu, training  # (section: estimator)
from tf1compat.contrib import factorization  # (section: kmeans)
from tf1compat.contrib import linear_optimizer  # (section: sdca)
from tf1compat.contrib import checkpoint, copy_graph, crf, optimizer_v2
from tf1compat.contrib import cudnn_rnn, graph_editor
from tf1compat.contrib import image, metrics, opt, predictor, summary  # (section: contribmisc)
from tf1compat.contrib import distributions  # (section: contribdist)
from tf1compat.contrib import distribute  # (section: diststrat)
from tf1compat.contrib import compiler  # jit_scope, xla.compile
from tf1compat.contrib import deprecated, mixed_precision, nn, sparsemax, staging, stateless
from tf1compat.contrib import cluster_resolver  # (section: diststrat3)
from tf1compat.contrib import integrate, memory_stats, quantize, resampler, text  # contribmods
from tf1compat.contrib import gan  # (section: contribgan)
from tf1compat.contrib import model_pruning, receptive_field  # (section: contribprune)
from tf1compat.contrib._missing import missing as _missing

import importlib as _importlib

# Contrib modules that are exactly a core namespace (TF 1.15 re-exports them).
_CORE_ALIASES = {"signal": "tf1compat.signal", "keras": "tf1compat.keras",
                 "autograph": "tf1compat.api.autograph", "nccl": "tf1compat.internal.nccl_ops"}
_missing_name = _missing("tf.contrib")


def __getattr__(name: str):
    if name in _CORE_ALIASES:
        module = _importlib.import_module(_CORE_ALIASES[name])
        globals()[name] = module
        return module
    return _missing_name(name)
