"""`tf.keras.mixed_precision.experimental` (TF 1.15): Policy, global_policy, set_policy
and the LossScaleOptimizer taking a TF1 loss scale."""

# ruff: noqa: F401
from tf1compat.keras.engine.dtype_policy import Policy, global_policy
from tf1compat.keras.engine.dtype_policy import set_global_policy as set_policy
from tf1compat.keras.mixed_precision.loss_scale_optimizer import \
    ExperimentalLossScaleOptimizer as LossScaleOptimizer

from tf1compat.framework.missing import attribute_hook as _attribute_hook  # noqa: E402

__getattr__ = _attribute_hook('keras.mixed_precision.experimental', globals())
