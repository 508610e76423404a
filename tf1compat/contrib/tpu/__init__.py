"""`tf.contrib.tpu` (TF 1.15): TPUEstimator and its config on CPU/GPU, and
`CrossShardOptimizer` (one shard: the wrapped optimizer), `bfloat16_scope`."""

# ruff: noqa: F401
from tf1compat.contrib._missing import missing as _missing
from tf1compat.contrib.tpu.bfloat16 import bfloat16_scope
from tf1compat.contrib.tpu.cross_shard_optimizer import CrossShardOptimizer
from tf1compat.estimator.tpu.tpu_config import InputPipelineConfig, RunConfig, TPUConfig
from tf1compat.estimator.tpu.tpu_estimator import TPUEstimator, TPUEstimatorSpec

__getattr__ = _missing("tf.contrib.tpu")
