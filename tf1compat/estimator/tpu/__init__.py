"""`tf.compat.v1.estimator.tpu`: TPUEstimator and its config, on CPU/GPU only."""

# ruff: noqa: F401
from tf1compat.estimator.tpu import experimental
from tf1compat.estimator.tpu.tpu_config import InputPipelineConfig, RunConfig, TPUConfig
from tf1compat.estimator.tpu.tpu_estimator import TPUEstimator, TPUEstimatorSpec
from tf1compat.framework.missing import attribute_hook as _attribute_hook

__getattr__ = _attribute_hook("estimator.tpu", globals())
